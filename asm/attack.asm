; ===========================================================================
; attack.asm: ATTACK in check mode (SQATK) and INCHK.
;
; SQATK looks outward from the square for the first piece on each of the 16
; lines (4 diagonals, 4 orthogonals, 8 knight jumps) and answers at the first
; enemy piece that attacks along its line. Pins do not matter here: a pinned
; piece still gives check. (ATTACK in evaluation mode, which records every
; attacker with ATKSAV for the exchange evaluator, comes with POINTS.)
; ===========================================================================

; SQATK: is square L attacked by a piece of colour E (00h White, 80h Black)?
;   in: L = square, E = attacking colour, H = BPAGE
;   out: NZ (A = 1) attacked, Z (A = 0) not   keeps: BC, DE, HL
;   cost: about 1,100-1,500 T for a square with nothing attacking it
SQYES:  LD      L,C             ; (the "attacked" exit, placed within JR reach)
        POP     BC
        LD      A,1
        OR      A
        RET
SQATK:  PUSH    BC
        LD      C,L
        ; pawns: a white pawn attacks from sq-9 and sq-11, a black one from +9, +11
        LD      A,E
        OR      PAWN
        LD      B,A
        BIT     7,E
        JR      NZ,.bp
        LD      A,C
        SUB     9
        LD      L,A
        LD      A,(HL)
        AND     87h
        CP      B
        JR      Z,SQYES
        DEC     L
        DEC     L
        LD      A,(HL)
        AND     87h
        CP      B
        JR      Z,SQYES
        JR      .kn
.bp:    LD      A,C
        ADD     A,9
        LD      L,A
        LD      A,(HL)
        AND     87h
        CP      B
        JR      Z,SQYES
        INC     L
        INC     L
        LD      A,(HL)
        AND     87h
        CP      B
        JR      Z,SQYES
        ; knights
.kn:    LD      A,E
        OR      KNIGHT
        LD      B,A
        LD      A,C
        SUB     21
        LD      L,A
        LD      A,(HL)          ; -21
        AND     87h
        CP      B
        JR      Z,SQYES
        INC     L
        INC     L
        LD      A,(HL)          ; -19
        AND     87h
        CP      B
        JR      Z,SQYES
        LD      A,L
        ADD     A,7
        LD      L,A
        LD      A,(HL)          ; -12
        AND     87h
        CP      B
        JR      Z,SQYES
        LD      A,L
        ADD     A,4
        LD      L,A
        LD      A,(HL)          ; -8
        AND     87h
        CP      B
        JR      Z,SQYES
        LD      A,L
        ADD     A,16
        LD      L,A
        LD      A,(HL)          ; +8
        AND     87h
        CP      B
        JR      Z,SQYES
        LD      A,L
        ADD     A,4
        LD      L,A
        LD      A,(HL)          ; +12
        AND     87h
        CP      B
        JR      Z,SQYES
        LD      A,L
        ADD     A,7
        LD      L,A
        LD      A,(HL)          ; +19
        AND     87h
        CP      B
        JR      Z,SQYES
        INC     L
        INC     L
        LD      A,(HL)          ; +21
        AND     87h
        CP      B
        JP      Z,.yes
        ; the king: the 8 neighbours
        LD      A,E
        OR      KING
        LD      B,A
        LD      A,C
        SUB     11
        LD      L,A
        LD      A,(HL)          ; -11
        AND     87h
        CP      B
        JR      Z,.yes
        INC     L
        LD      A,(HL)          ; -10
        AND     87h
        CP      B
        JR      Z,.yes
        INC     L
        LD      A,(HL)          ; -9
        AND     87h
        CP      B
        JR      Z,.yes
        LD      A,L
        ADD     A,8
        LD      L,A
        LD      A,(HL)          ; -1
        AND     87h
        CP      B
        JR      Z,.yes
        INC     L
        INC     L
        LD      A,(HL)          ; +1
        AND     87h
        CP      B
        JR      Z,.yes
        LD      A,L
        ADD     A,8
        LD      L,A
        LD      A,(HL)          ; +9
        AND     87h
        CP      B
        JR      Z,.yes
        INC     L
        LD      A,(HL)          ; +10
        AND     87h
        CP      B
        JR      Z,.yes
        INC     L
        LD      A,(HL)          ; +11
        AND     87h
        CP      B
        JR      Z,.yes
        ; sliders: B = the step, along the diagonals for B/Q ...
        LD      B,9
        CALL    DRAY
        JR      Z,.yes
        LD      B,11
        CALL    DRAY
        JR      Z,.yes
        LD      B,-9
        CALL    DRAY
        JR      Z,.yes
        LD      B,-11
        CALL    DRAY
        JR      Z,.yes
        ; ... and along the ranks and files for R/Q
        LD      B,10
        CALL    ORAY
        JR      Z,.yes
        LD      B,-10
        CALL    ORAY
        JR      Z,.yes
        LD      B,1
        CALL    ORAY
        JR      Z,.yes
        LD      B,-1
        CALL    ORAY
        JR      Z,.yes
        LD      L,C
        POP     BC
        XOR     A
        RET
.yes:   LD      L,C
        POP     BC
        LD      A,1
        OR      A
        RET

; DRAY / ORAY: the first piece from square C in step B; Z if it is an enemy
; (colour E) bishop or queen (DRAY) / rook or queen (ORAY).
;   clobbers: A, L   cost: 27 T + 38 T a square passed + 45-52 T at the end
DRAY:   LD      L,C
.step:  LD      A,L
        ADD     A,B
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.step
        AND     87h
        XOR     E               ; an enemy piece is now its bare type
        CP      BISHOP
        RET     Z
        CP      QUEEN
        RET

ORAY:   LD      L,C
.step:  LD      A,L
        ADD     A,B
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.step
        AND     87h
        XOR     E
        CP      ROOK
        RET     Z
        CP      QUEEN
        RET

; INCHK: is the king of colour A in check?
;   in: A = colour (00h/80h)   out: NZ = in check   clobbers: A, E, HL
INCHK:  LD      E,A
        LD      HL,POSK
        OR      A
        JR      Z,.w
        INC     HL
.w:     LD      A,(HL)
        LD      H,BPAGE
        LD      L,A
        LD      A,E
        XOR     BLACK
        LD      E,A
        JP      SQATK
