; ===========================================================================
; points.asm: POINTS, the static evaluation, and its helpers.
;
; POINTS is called after a move has been made: COLOR = the side that just
; moved, LASTMV = its entry. Everything is measured against the root (MV0,
; BC0). For every square of the board:
;   - development (into BRDC, White's view): an unmoved knight or bishop -2 for
;     its side; a castled king +6; a king that moved without castling -2; a
;     rook or queen that moved while MOVENO < 7 -2;
;   - board control: ATTACK, then BRDC += White's attackers - Black's;
;   - a battle: XCHNG on an occupied square gives the owner's loss E. The
;     mover keeps its largest loss (PTSL; PTSCK if it is the piece just
;     moved); the side to move keeps its two largest (PTSW1 >= PTSW2);
;   - material: MTRL += +-value (White's view).
; Then, from the mover's view: it loses its largest loss; the side to move is
; assumed to rescue its largest and loses a part of its second; if the piece
; just moved is the mover's largest loss, the side to move's largest is
; ignored (its second moves up) and board control does not count.
;
;   article (BYTE): values P1 N3 B3 R5 Q9; lost = PTSL; won = 3/4 PTSW2;
;                   material clamped to +-15 pawns, in 1/8 pawns: S = 8M + Bc
;   1978 (book):    values doubled; a threatened piece counts half a pawn less;
;                   lost = PTSL-1; won = (PTSW2-1)/2; M clamped to +-30 half
;                   pawns with the program's 8-bit arithmetic; S = 4M + Bc
;   both: Bc = board control change clamped to +-6; S is White's view;
;   VALM = 80h - S after a White move, 80h + S after a Black one: a higher
;   VALM is better for the side now to move. 0 is reserved for "illegal".
;
; cost: one ATTACK per square (64) plus an XCHNG per occupied square.
; ===========================================================================

; POINTS: out: A = VALM, also stored in the score byte of LASTMV's entry.
;   clobbers: all but IX
POINTS: LD      HL,NEVAL
        CALL    INC32
        XOR     A
        LD      HL,MTRL         ; MTRL BRDC PTSL PTSW1 PTSW2 PTSCK
        LD      B,6
.clr:   LD      (HL),A
        INC     HL
        DJNZ    .clr
        LD      C,SQ_A1
.sq:    LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        CP      OFFB
        JP      Z,.next
        OR      A
        CALL    NZ,DEVEL
        CALL    ATTACK          ; keeps C
        LD      A,(WACT)        ; board control
        LD      HL,BACT
        SUB     (HL)
        LD      HL,BRDC
        ADD     A,(HL)
        LD      (HL),A
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        OR      A
        JP      Z,.next
        LD      D,A             ; D = the piece
        PUSH    BC
        PUSH    DE
        LD      HL,NXCHG
        CALL    INC32
        LD      A,D
        CALL    XCHNG
        LD      A,E
        EXX
        POP     DE
        POP     BC
        LD      E,A             ; E = its owner's loss
        LD      A,D
        AND     7
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      A,(HL)
        IF      BUILD == B_1978
        ADD     A,A
        ENDIF
        LD      B,A             ; B = its material value
        LD      A,E
        OR      A
        JR      Z,.mat
        IF      BUILD == B_1978
        DEC     B               ; threatened: half a pawn less
        ENDIF
        LD      A,(COLOR)
        XOR     D
        JP      M,.them
        LD      A,(PTSL)        ; the mover's loss: the largest (ties: later)
        CP      E
        JR      Z,.l1
        JR      NC,.mat
.l1:    LD      A,E
        LD      (PTSL),A
        LD      HL,(LASTMV)     ; the piece just moved?
        INC     HL
        INC     HL
        INC     HL
        LD      A,(HL)
        CP      C
        JR      NZ,.mat
        LD      (PTSCK),A
        JR      .mat
.them:  LD      A,(PTSW1)       ; the side to move's: the two largest
        CP      E
        JR      NC,.w2
        LD      (PTSW2),A
        LD      A,E
        LD      (PTSW1),A
        JR      .mat
.w2:    LD      A,(PTSW2)
        CP      E
        JR      NC,.mat
        LD      A,E
        LD      (PTSW2),A
.mat:   LD      A,B
        BIT     7,D
        JR      Z,.mw
        NEG
.mw:    LD      HL,MTRL
        ADD     A,(HL)
        LD      (HL),A
.next:  INC     C
        LD      A,C
        CP      SQ_H8+1
        JP      C,.sq
        ; the piece just moved is en prise: the side to move's largest loss
        ; is ignored, the second moves up
        LD      A,(PTSCK)
        OR      A
        JR      Z,.f1
        LD      A,(PTSW2)
        LD      (PTSW1),A
        XOR     A
        LD      (PTSW2),A
.f1:
        IF      BUILD == B_1978
        LD      A,(PTSL)        ; lost = PTSL - 1
        OR      A
        JR      Z,.f2
        DEC     A
.f2:    LD      B,A
        LD      A,(PTSW1)       ; won = (PTSW2 - 1) / 2 when two are threatened
        OR      A
        JR      Z,.f3
        LD      A,(PTSW2)
        OR      A
        JR      Z,.f3
        DEC     A
        SRL     A
.f3:    SUB     B               ; the mover's gain ...
        LD      B,A
        LD      A,(COLOR)
        OR      A
        LD      A,B
        JR      Z,.f4
        NEG                     ; ... in White's view
.f4:    LD      HL,MTRL
        ADD     A,(HL)
        LD      HL,MV0
        SUB     (HL)
        LD      B,30
        CALL    LIMIT
        ADD     A,A
        ADD     A,A             ; 4M
        LD      D,A
        ELSE
        LD      A,(MTRL)        ; M = material change, clamped to +-15 pawns
        LD      HL,MV0
        SUB     (HL)
        LD      B,15
        CALL    LIMIT
        CALL    SEXT
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,HL           ; 8M
        PUSH    HL
        LD      A,(PTSL)        ; 8 * lost
        ADD     A,A
        ADD     A,A
        ADD     A,A
        LD      B,A
        LD      A,(PTSW1)       ; 6 * PTSW2 = 3/4 of it, in 1/8 pawns
        OR      A
        JR      Z,.a1
        LD      A,(PTSW2)
        ADD     A,A
        LD      C,A
        ADD     A,A
        ADD     A,C
.a1:    SUB     B               ; the mover's gain ...
        LD      B,A
        LD      A,(COLOR)
        OR      A
        LD      A,B
        JR      Z,.a2
        NEG                     ; ... in White's view
.a2:    CALL    SEXT
        EX      DE,HL
        POP     HL
        ADD     HL,DE
        CALL    CLAMP
        LD      D,A
        ENDIF
        LD      A,(PTSCK)       ; board control, unless the piece just moved hangs
        OR      A
        LD      A,0
        JR      NZ,.f5
        LD      A,(BRDC)
        LD      HL,BC0
        SUB     (HL)
        LD      B,6
        CALL    LIMIT
.f5:    ADD     A,D             ; S, White's view
        LD      B,A
        LD      A,(COLOR)
        OR      A
        LD      A,80h
        JR      NZ,.blk
        SUB     B
        JR      .st
.blk:   ADD     A,B
.st:    LD      (VALM),A
        LD      HL,(LASTMV)
        LD      DE,5
        ADD     HL,DE
        LD      (HL),A
        RET

; DEVEL: add the development term of piece A to BRDC (White's view).
;   clobbers: A, B, HL
DEVEL:  LD      B,A
        AND     7
        CP      KNIGHT
        JR      Z,.minor
        CP      BISHOP
        JR      Z,.minor
        CP      KING
        JR      Z,.king
        CP      ROOK
        JR      Z,.major
        CP      QUEEN
        RET     NZ
.major: BIT     3,B             ; moved early
        RET     Z
        LD      A,(MOVENO)
        CP      7
        RET     NC
        LD      A,-2
        JR      .add
.minor: BIT     3,B             ; not developed
        RET     NZ
        LD      A,-2
        JR      .add
.king:  LD      A,6
        BIT     4,B             ; castled
        JR      NZ,.add
        BIT     3,B             ; moved without castling
        RET     Z
        LD      A,-2
.add:   BIT     7,B
        JR      Z,.w
        NEG
.w:     LD      HL,BRDC
        ADD     A,(HL)
        LD      (HL),A
        RET

; LIMIT: clamp the signed byte A to -B..B (B = 1..127).   clobbers: F
LIMIT:  BIT     7,A
        JR      NZ,.neg
        CP      B
        RET     C
        LD      A,B
        RET
.neg:   NEG
        CP      B
        JR      C,.n
        LD      A,B
.n:     NEG
        RET

; SEXT: HL = A sign-extended.   clobbers: A
SEXT:   LD      L,A
        ADD     A,A
        SBC     A,A
        LD      H,A
        RET

; CLAMP: A = the signed word HL clamped to -120..120.
CLAMP:  BIT     7,H
        JR      NZ,.neg
        LD      A,H
        OR      A
        JR      NZ,.max
        LD      A,L
        CP      121
        RET     C
.max:   LD      A,120
        RET
.neg:   LD      A,H
        INC     A
        JR      NZ,.min
        LD      A,L
        CP      88h             ; -120
        RET     NC
.min:   LD      A,-120
        RET

; INC32: add 1 to the 32-bit counter at HL.   clobbers: HL, F
INC32:  INC     (HL)
        RET     NZ
        INC     HL
        INC     (HL)
        RET     NZ
        INC     HL
        INC     (HL)
        RET     NZ
        INC     HL
        INC     (HL)
        RET
