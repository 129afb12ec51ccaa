; ===========================================================================
; attack.asm: ATTACK in check mode (SQATK) and INCHK.
;
; SQATK looks outward from the square for the first piece on each of the 16
; lines (4 diagonals, 4 orthogonals, 8 knight jumps) and answers at the first
; enemy piece that attacks along its line. Pins do not matter here: a pinned
; piece still gives check. (ATTACK in evaluation mode, which records every
; attacker with ATKSAV for the exchange evaluator, comes with POINTS.)
; ===========================================================================

; SQYES: SQATK's "attacked" exit, placed before it within JR reach.
;   CALLED BY: SQATK
;   CALLS:     -
SQYES:  LD      L,C
        POP     BC
        LD      A,1
        OR      A
        RET

; SQATK: is square L attacked by a piece of colour E (00h White, 80h Black)?
;   in: L = square, E = attacking colour, H = BPAGE
;   out: NZ (A = 1) attacked, Z (A = 0) not   keeps: BC, DE, HL
;   cost: about 1,100-1,500 T for a square with nothing attacking it
;   CALLED BY: CASTLE, INCHK, KLUFT (full), QLOSE (full)
;   CALLS:     DRAY, ORAY, SQYES
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
;   CALLED BY: SQATK
;   CALLS:     -
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

; ORAY: the rook-or-queen ray of DRAY / ORAY above.
;   CALLED BY: SQATK
;   CALLS:     -
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
;   CALLED BY: CSTAT, EVAL, LEGALS, PERFT, QNODE (full), SRCH
;   CALLS:     SQATK
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

; ===========================================================================
; ATTACK in evaluation mode, ATKSAV, PNCK, PINFND.
;
; THE ATTACKER ARRAY (ATKLST, 14 bytes; the BYTE article's Table 1)
;
;   WACT (White)                       BACT (Black)
;   +0  count of attackers             +7   count
;   +1  pawns     [ 2nd | 1st ]        +8   pawns
;   +2  knights   [ 2nd | 1st ]        +9   knights
;   +3  bishops   [ 2nd | 1st ]        +10  bishops
;   +4  rooks     [ 2nd | 1st ]        +11  rooks
;   +5  queen     [behind | Q ]        +12  queen
;   +6  king      [ K | spill ]        +13  king
;
;       bit 7 .. 4   bit 3 .. 0
;      [ high nibble| low nibble ]   values P 1, N 3, B 3, R 5, Q 9, K 10
;
; NEXTAD takes the low nibble first (RRD), so the low nibble is used first.
; Article build: the first attacker of a type goes in the low nibble; a later
; one is inserted with RLD, shifting the earlier one up. A piece attacking
; through the queen goes in the queen byte's high nibble; when that is taken,
; into the king byte with RLD, pushing the king up behind it. Anything beyond
; that is ignored (not counted).
; 1978 build: the first goes low, the second high; a third spills into the king
; byte with RLD; a spill from a full king byte is lost (not counted).
; ===========================================================================

; Directions of the sliding lines and the piece that moves along them.
ADIRS:  DB      9,BISHOP,11,BISHOP,-11,BISHOP,-9,BISHOP
        DB      10,ROOK,-10,ROOK,1,ROOK,-1,ROOK

; Piece values (index = type); the 1978 build doubles them as it uses them.
PVALUE: DB      0,1,3,3,5,9,10
        ASSERT  (PVALUE & 0FFh) <= 0F9h, "PVALUE must not cross a page"

; ATTACK: clear ATKLST, then record every attacker of square C, of both
; colours, with ATKSAV, x-raying through chains of same-coloured pieces that
; move along the line (not behind a king or a knight).
;   in: C = square   clobbers: A, B, DE, HL (C kept)
;   CALLED BY: CATTK, CXCHG, LZTRY (full), PINS1, POINTS
;   CALLS:     ARAY, ATKSAV
ATTACK: LD      HL,ATKLST          ; (ATKLST does not cross a page)
        XOR     A
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        INC     L
        LD      (HL),A
        LD      H,BPAGE
        LD      B,BISHOP        ; the diagonals ...
        LD      E,9
        CALL    ARAY
        LD      E,11
        CALL    ARAY
        LD      E,-11
        CALL    ARAY
        LD      E,-9
        CALL    ARAY
        LD      B,ROOK          ; ... and the ranks and files
        LD      E,10
        CALL    ARAY
        LD      E,-10
        CALL    ARAY
        LD      E,1
        CALL    ARAY
        LD      E,-1
        CALL    ARAY
        ; the knights: one jump each way (E = 0 is no line: PNCK refuses a
        ; pinned knight)
        LD      DE,0
        LD      A,C
        ADD     A,-21
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,-19
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,-12
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,-8
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,8
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,12
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,19
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        LD      A,C
        ADD     A,21
        LD      L,A
        LD      A,(HL)
        AND     7
        CP      KNIGHT
        CALL    Z,ATKSAV
        RET

; ARAY: one line of ATTACK: from square C in step E, where B is the piece
; that moves along it (BISHOP or ROOK).   keeps: B, C, E, H   clobbers: A, D, L
;   CALLED BY: ATTACK
;   CALLS:     ATKSAV
ARAY:   LD      D,0             ; D: bit 0 a piece seen, bit 7 its colour, bit 1 a queen seen
        LD      L,C
.step:  LD      A,L
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.step
        CP      OFFB
        RET     Z
        BIT     0,D
        JR      Z,.first
        XOR     D               ; a piece of the other colour ends the line
        RET     M
        LD      A,(HL)
        JR      .kind
.first: AND     BLACK
        OR      1
        LD      D,A
        LD      A,(HL)
.kind:  AND     7
        CP      QUEEN
        JR      Z,.queen
        CP      KING
        JR      Z,.king
        CP      PAWN
        JR      Z,.pawn
        CP      B               ; a bishop on a diagonal, a rook on a line
        RET     NZ              ; (a knight never matches)
.save:  CALL    ATKSAV
        JR      .step
.queen: CALL    ATKSAV
        SET     1,D             ; the pieces behind her attack through her
        JR      .step
.king:  LD      A,C             ; next to the square only, and nothing behind
        ADD     A,E
        CP      L
        RET     NZ
        JP      ATKSAV
.pawn:  LD      A,C             ; next to the square, on a diagonal, pointing at it:
        ADD     A,E             ; a white pawn from below (step -9/-11),
        CP      L               ; a black one from above (+9/+11)
        RET     NZ
        LD      A,B
        CP      BISHOP
        RET     NZ
        LD      A,(HL)
        XOR     E
        RET     P               ; colour bit = sign of the step: wrong way
        JR      .save

; ATKSAV: add the attacker on square L to its side's section of ATKLST.
;   in: L = its square (H = BPAGE), E = the line's step from the attacked
;       square, D bit 1 = a queen stands before it on the line
;   keeps: BC, DE, HL, IY   clobbers: A, F
;   CALLED BY: ARAY, ATTACK
;   CALLS:     PNCK
ATKSAV: LD      A,(NPINS)
        OR      A
        JR      Z,.free
        CALL    PNCK
        RET     NZ              ; pinned off this line: it does not attack here
        IF      BUILD == B_1978
        ; The 1978 listing's ATKSAV tests its "queen seen on this line" flag
        ; after PNCK has loaded the line's step into the same register: while
        ; any piece is pinned, the flag is the sign of the step from the
        ; attacked square (an attacker below it, or left of it on its rank,
        ; knights too, counts as behind a queen). Kept, as the program ran
        ; (README, the 1978 build's notes). The sign of L - C is the step's.
        PUSH    DE              ; (ARAY's own flags come back)
        LD      A,L
        SUB     C
        RLCA
        RLCA
        AND     2
        LD      D,A             ; the flag: bit 7 of the step, moved to bit 1
        CALL    .free
        POP     DE
        RET
        ENDIF
.free:  PUSH    HL
        PUSH    DE
        PUSH    BC
        LD      A,D
        AND     2
        LD      D,A             ; D = the queen flag
        LD      A,(HL)
        LD      B,A             ; B = the attacker
        AND     7
        LD      C,A             ; C = its type
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      E,(HL)          ; E = its value
        LD      HL,ATKLST
        BIT     7,B
        JR      Z,.w
        LD      L,BACT & 0FFh
.w:     PUSH    HL              ; the section (its count byte)
        LD      A,D
        OR      A
        LD      A,C
        JR      Z,.slot
        LD      A,QUEEN         ; through the queen: her byte
.slot:  ADD     A,L
        LD      L,A             ; HL = the slot
        IF      BUILD == B_1978
        LD      A,(HL)          ; 1978: low if free, else high, else spill
        AND     0Fh
        JR      NZ,.hi
        LD      A,(HL)
        OR      E
        LD      (HL),A
        JR      .ok
.hi:    LD      A,(HL)
        AND     0F0h
        JR      NZ,.spill
        LD      A,E
        RLCA
        RLCA
        RLCA
        RLCA
        OR      (HL)
        LD      (HL),A
        JR      .ok
.spill: POP     HL
        PUSH    HL
        LD      A,L
        ADD     A,KING
        LD      L,A
        LD      A,(HL)
        AND     0F0h
        JR      NZ,.lost
        LD      A,E
        RLD
        JR      .ok
        ELSE
        LD      A,D             ; article
        OR      A
        JR      NZ,.behind
        LD      A,C
        CP      KING
        JR      Z,.king
        LD      A,(HL)
        OR      A
        JR      NZ,.second
        LD      (HL),E          ; the first of its type: low
        JR      .ok
.second: AND    0F0h
        JR      NZ,.lost        ; both taken: ignored
        LD      A,E
        RLD                     ; the new one low, the earlier one up
        JR      .ok
.king:  LD      A,(HL)          ; the king: low, or behind a spilled piece
        OR      A
        JR      NZ,.khigh
        LD      (HL),E
        JR      .ok
.khigh: AND     0F0h
        JR      NZ,.lost
        LD      A,E
        RLCA
        RLCA
        RLCA
        RLCA
        OR      (HL)
        LD      (HL),A
        JR      .ok
.behind: LD     A,(HL)          ; through the queen: her high nibble ...
        AND     0Fh
        JR      Z,.low          ; (the queen herself was not counted: low)
        LD      A,(HL)
        AND     0F0h
        JR      NZ,.kbyte
        LD      A,E
        RLCA
        RLCA
        RLCA
        RLCA
        OR      (HL)
        LD      (HL),A
        JR      .ok
.low:   LD      A,(HL)
        OR      E
        LD      (HL),A
        JR      .ok
.kbyte: INC     L               ; ... else the king byte, pushing the king up
        LD      A,(HL)
        AND     0F0h
        JR      NZ,.lost
        LD      A,E
        RLD
        ENDIF
.ok:    POP     HL
        INC     (HL)            ; counted
        JR      .out
.lost:  POP     HL
.out:   POP     BC
        POP     DE
        POP     HL
        RET

; PNCK: may the piece on square L attack along step E, given the pins?
;   out: Z = yes; NZ = it is pinned along another line, or pinned twice
;   clobbers: A, F
;   CALLED BY: ATKSAV
;   CALLS:     -
PNCK:   PUSH    BC
        PUSH    HL
        LD      A,(NPINS)
        LD      B,A
        LD      C,0             ; times found
        LD      A,L
        LD      HL,PLIST
.find:  CP      (HL)
        JR      NZ,.nxt
        INC     C
        BIT     1,C
        JR      NZ,.no          ; pinned twice
        PUSH    AF
        LD      A,L
        ADD     A,PLISTD-PLIST
        LD      L,A
        LD      A,(HL)          ; the pin's direction
        CP      E
        JR      Z,.line
        NEG
        CP      E
        JR      Z,.line
        POP     AF
        JR      .no
.line:  LD      A,L
        SUB     PLISTD-PLIST
        LD      L,A
        POP     AF
.nxt:   INC     HL
        DJNZ    .find
        POP     HL
        POP     BC
        XOR     A
        RET
.no:    POP     HL
        POP     BC
        OR      1
        RET

; PINFND: the pin list: pieces that stand between a king or queen (POSK,
; POSQ) and an enemy queen, bishop (diagonal) or rook (line) with nothing else
; between. An enemy queen pinning a piece against our queen counts only while
; our queen has no more defenders than attackers (a full ATTACK decides).
;   clobbers: all
;   CALLED BY: CATTK, CEVAL, CXCHG, EVAL, FNDMOV, QLEAF (full), QNODE (full),
;              SRCH
;   CALLS:     PINS1
PINFND: XOR     A
        LD      (NPINS),A
        LD      HL,POSK
        LD      B,4
.roy:   LD      A,(HL)
        OR      A
        JR      Z,.nr
        PUSH    BC
        PUSH    HL
        LD      C,A
        CALL    PINS1
        POP     HL
        POP     BC
.nr:    INC     HL
        DJNZ    .roy
        RET

; PINS1: pins against the king or queen on square C.
;   CALLED BY: PINFND
;   CALLS:     ATTACK
PINS1:  LD      H,BPAGE
        LD      L,C
        IF      BUILD != B_1978 ; (1978: a stale POSQ square is scanned all the
        LD      A,(HL)          ; same, for the colour of what stands there,
        AND     7               ; White if empty, as the listing does: see the
        CP      QUEEN           ; README's 1978 notes)
        JR      Z,.ok
        CP      KING
        RET     NZ              ; POSQ is stale (a queen was promoted): no pins
        ENDIF
.ok:    LD      IY,ADIRS
        LD      B,8
.dir:   LD      E,(IY+0)
        LD      L,C
        LD      D,0             ; D = the candidate's square
.step:  LD      A,L
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.step
        CP      OFFB
        JR      Z,.next
        PUSH    HL
        LD      L,C
        XOR     (HL)            ; same colour as the royal piece?
        POP     HL
        JP      M,.enemy
        LD      A,D             ; a friend: the candidate, or a second friend
        OR      A
        JR      NZ,.next
        LD      D,L
        JR      .step
.enemy: LD      A,D
        OR      A
        JR      Z,.next         ; an enemy first: no pin on this line
        LD      A,(HL)
        AND     7
        CP      QUEEN
        JR      Z,.qpin
        CP      (IY+1)
        JR      NZ,.next
.pin:   LD      A,(NPINS)
        CP      PMAXPIN
        JR      NC,.next
        PUSH    HL
        LD      HL,PLIST
        ADD     A,L
        LD      L,A
        LD      (HL),D
        ADD     A,PLISTD-PLIST
        LD      L,A
        LD      (HL),E
        LD      HL,NPINS
        INC     (HL)
        POP     HL
.next:  INC     IY
        INC     IY
        DJNZ    .dir
        RET
.qpin:  LD      L,C             ; an enemy queen: always a pin against a king
        LD      A,(HL)
        AND     7
        CP      QUEEN
        JR      NZ,.pin
        PUSH    BC              ; against our queen: count her defenders
        PUSH    DE
        PUSH    IY
        CALL    ATTACK
        LD      L,C
        LD      A,(HL)
        POP     IY
        POP     DE
        POP     BC
        RLCA                    ; carry: our queen is black
        LD      A,(WACT)
        LD      L,A
        LD      A,(BACT)
        JR      C,.bq
        LD      H,A             ; a white queen: defenders White, attackers Black
        LD      A,L
        LD      L,H
.bq:    LD      H,BPAGE         ; A = her defenders, L = her attackers
        CP      L
        JR      C,.pin          ; fewer defenders: the pin counts
        JR      Z,.pin
        JR      .next           ; more defenders than attackers: no pin
