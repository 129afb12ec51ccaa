; ===========================================================================
; atkmap.asm: the attack map of the article and full builds' POINTS (its
; one pass over the pieces): ATKMAP, PATK, PCAP2, SLIDES, PMARK, PINDIR,
; ONLINE. The 1978 build has no attack map (main.asm leaves this file out).
; ===========================================================================

ATKMAP  EQU     BOARD+80h
; ATKMAP: in the board page, above the board: square s's byte is at
; BOARD+80h+s. Low nibble: White's attackers of s; high nibble: Black's.
;
;       bit 7 .. 4          bit 3 .. 0
;     [ Black attackers | White attackers ]

; PATK: mark in ATKMAP the pieces that the piece D on square C attacks, and
; add the number of squares it attacks to BRDC (+ White, - Black): a pawn's two
; captures, a knight's or king's steps, a slider's lines up to and including
; the first piece, and on through pieces of its own colour that move along the
; line (a queen, a rook on a rank or file, a bishop on a diagonal; an own pawn
; lets it reach the square that pawn attacks, no further); nothing behind a
; king or a knight. A pinned piece attacks only along its pin line (as PNCK
; decides for ATTACK). Board control counts every square, ATKMAP only the
; occupied ones (the second pass looks only at pieces).
;   in: C = square, D = piece   keeps: C, D   clobbers: A, B, E, HL, IY
;   CALLED BY: POINTS
;   CALLS:     NEGHL (full), PCAP2, PINDIR, PMARK, SLIDES
PATK:   LD      E,0             ; E = squares attacked
        LD      B,E             ; B = the pin line (0 = free)
        LD      A,(NPINS)
        OR      A
        JR      NZ,.pins
        LD      A,D             ; no pins: a pawn's captures, quickly
        AND     7
        CP      PAWN
        JR      NZ,.gen
        LD      H,BPAGE
        LD      A,C
        ADD     A,9             ; White: +9, then +11
        BIT     7,D
        JR      Z,.fp
        SUB     20              ; Black: -11, then -9
.fp:    LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,.fp2
        INC     E
        OR      A
        CALL    NZ,PMARK
.fp2:   INC     L               ; two squares on
        INC     L
        LD      A,(HL)
        CP      OFFB
        JR      Z,.ptail
        INC     E
        OR      A
        CALL    NZ,PMARK
.ptail:
        IF      BUILD == B_FULL
        JP      PDONE
        ENDIF
        LD      HL,MTRL         ; a pawn: MTRL += +-1, BRDC += +-squares
        BIT     7,D
        JR      NZ,.pbl
        INC     (HL)
        INC     L
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        RET
.pbl:   DEC     (HL)
        INC     L
        LD      A,(HL)
        SUB     E
        LD      (HL),A
        RET
.pins:  CALL    PINDIR
.gen:   LD      H,BPAGE
        LD      A,D
        AND     7
        CP      PAWN
        JP      Z,.pawn
        CP      KNIGHT
        JR      Z,.kn
        CP      KING
        JP      Z,.kg
        CP      ROOK
        JR      Z,.rk
        LD      IY,PBDIRS       ; bishop, queen: the diagonals
        CALL    SLIDES
        LD      A,D
        AND     7
        CP      QUEEN
        JP      NZ,PDONE
.rk:    LD      IY,PRDIRS       ; rook, queen: the lines
        CALL    SLIDES
        JP      PDONE
.kn:    LD      A,B             ; a pinned knight attacks nothing
        OR      A
        JP      NZ,PDONE
        LD      A,C
        ADD     A,-21
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-19
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-12
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-8
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,8
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,12
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,19
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,21
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        JP      PDONE
.kg:                            ; (a king is never pinned)
        LD      A,C
        ADD     A,-11
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-10
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-9
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-1
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,1
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,9
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,10
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,11
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        JP      PDONE
.pawn:  LD      A,9             ; White: +9 and +11, Black: -9 and -11
        BIT     7,D
        JR      Z,.p1
        LD      A,-9
.p1:    CALL    PCAP2
        LD      A,11
        BIT     7,D
        JR      Z,.p2
        LD      A,-11
.p2:    CALL    PCAP2
PDONE:  LD      A,D             ; MTRL += +-value, BRDC += +-squares
        AND     7
        IF      BUILD == B_FULL
        CP      KING            ; (full: MTRLW += +-P_value; kings cancel)
        JR      Z,.bc
        ADD     A,A
        LD      L,A
        LD      H,PRM >> 8
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        BIT     7,D
        CALL    NZ,NEGHL
        PUSH    DE
        EX      DE,HL
        LD      HL,(MTRLW)
        ADD     HL,DE
        LD      (MTRLW),HL
        POP     DE
.bc:    LD      HL,BRDC
        LD      A,E
        BIT     7,D
        JR      Z,.bw
        NEG
.bw:    ADD     A,(HL)
        LD      (HL),A
        RET
        ASSERT  (PRM & 0FFh) == 0, "PRM must be page aligned"
        ENDIF
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      B,(HL)
        LD      HL,MTRL         ; (BRDC follows MTRL)
        BIT     7,D
        JR      NZ,.blk
        LD      A,(HL)
        ADD     A,B
        LD      (HL),A
        INC     L
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        RET
.blk:   LD      A,(HL)
        SUB     B
        LD      (HL),A
        INC     L
        LD      A,(HL)
        SUB     E
        LD      (HL),A
        RET

; PCAP2: a pawn's capture square C+A, if its pin allows (for PATK).
;   CALLED BY: PATK
;   CALLS:     ONLINE, PMARK
PCAP2:  CALL    ONLINE
        RET     NZ
        ADD     A,C
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        RET     Z
        INC     E
        OR      A
        RET     Z
        JP      PMARK

; The slider directions for PATK, each with the piece that moves along it,
; ending with 0.
PBDIRS: DB      9,BISHOP,11,BISHOP,-11,BISHOP,-9,BISHOP,0
PRDIRS: DB      10,ROOK,-10,ROOK,1,ROOK,-1,ROOK,0

; SLIDES: the lines of the slider D on square C in the directions at IY.
;   in: B = its pin line, E = squares counted so far, H = BPAGE   out: E
;   keeps: B, C, D, H   clobbers: A, L, IY   cost: 46 T an empty square
;   CALLED BY: PATK
;   CALLS:     ONLINE, PMARK
SLIDES: LD      A,(IY+0)
        OR      A
        RET     Z
        INC     B
        DEC     B
        CALL    NZ,ONLINE       ; pinned: only along the pin
        JR      NZ,.nx
        PUSH    BC
        LD      B,A             ; B = the step
        LD      L,C
.step:  LD      A,L
        ADD     A,B
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      NZ,.hit
        INC     E
        JR      .step
.hit:   CP      OFFB
        JR      Z,.end
        INC     E
        CALL    PMARK
        XOR     D
        JP      M,.end          ; an enemy piece ends the line
        XOR     D
        AND     7
        CP      QUEEN           ; an own queen, or a piece of the line's kind:
        JR      Z,.step         ; on through it
        CP      (IY+1)
        JR      Z,.step
        CP      PAWN            ; an own pawn: the square it attacks, if the
        JR      NZ,.end         ; line runs the way it captures
        LD      A,(IY+1)
        CP      BISHOP
        JR      NZ,.end
        LD      A,B
        XOR     D
        JP      M,.end          ; White captures upwards (+9/+11), Black down
        LD      A,L
        ADD     A,B
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,.end
        INC     E
        OR      A
        CALL    NZ,PMARK
.end:   POP     BC
.nx:    INC     IY
        INC     IY
        JR      SLIDES

; PMARK: the piece on square L is attacked by the side of D: its ATKMAP byte
; (H = BPAGE).   keeps: all but F
;   CALLED BY: PATK, PCAP2, SLIDES
;   CALLS:     -
PMARK:  PUSH    AF
        SET     7,L
        LD      A,1
        BIT     7,D
        JR      Z,.w
        LD      A,10h
.w:     ADD     A,(HL)
        LD      (HL),A
        RES     7,L
        POP     AF
        RET

; PINDIR: B = the pin line of the piece on square C (0 = not pinned).
;   clobbers: A, HL
;   CALLED BY: PATK
;   CALLS:     -
PINDIR: PUSH    DE
        LD      A,(NPINS)
        LD      E,A
        LD      HL,PLIST
.f:     LD      A,(HL)
        CP      C
        JR      Z,.y
        INC     L
        DEC     E
        JR      NZ,.f
        POP     DE
        RET
.y:     LD      A,L
        ADD     A,PLISTD-PLIST
        LD      L,A
        LD      B,(HL)
        POP     DE
        RET

; ONLINE: may the piece with pin line B attack in direction A?
;   out: Z = yes (not pinned, or along the line either way)   keeps: A, BC
;   CALLED BY: PCAP2, SLIDES
;   CALLS:     -
ONLINE: INC     B
        DEC     B
        RET     Z
        CP      B
        RET     Z
        PUSH    BC
        LD      C,A
        LD      A,B
        NEG
        CP      C
        LD      A,C
        POP     BC
        RET
