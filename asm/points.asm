; ===========================================================================
; points.asm: POINTS, the static evaluation: the article build's. The 1978
; build's is points1978.asm, the full build's full/points.asm; main.asm
; assembles the build's own. What follows describes both period builds'.
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
; cost: 1978, one ATTACK per square (64) plus an XCHNG per occupied square;
; the article, a pass over the pieces, then ATTACK and XCHNG only for each
; piece attacked by the enemy.
; ===========================================================================

; POINTS: out: A = VALM, also stored in the score byte of LASTMV's entry.
;   clobbers: all but IX
;   CALLED BY: CEVAL, EVAL, FNDMOV, SRCH
;   CALLS:     ATTACK, BATTLE, CLAMP, DEVEL, INC32, LIMIT, PATK, SEXT
POINTS: LD      HL,NEVAL
        CALL    INC32
        XOR     A
        LD      HL,MTRL         ; MTRL BRDC PTSL PTSW1 PTSW2 PTSCK
        LD      B,6
.clr:   LD      (HL),A
        INC     HL
        DJNZ    .clr
        ; The article build: one pass over the pieces marks every piece they
        ; attack in ATKMAP and counts the squares they attack (board control,
        ; with the same x-rays and pins as ATTACK), and adds up the material
        ; and development; then ATTACK and XCHNG only where a piece stands
        ; attacked by the enemy (elsewhere XCHNG's residue is 0 anyway). The
        ; second pass clears every ATKMAP byte it finds set, so the map starts
        ; clean next time (marks are only ever made on occupied squares).
        LD      C,SQ_A1-1
.pa:    INC     C
        LD      H,BPAGE
        LD      L,C
.pa1:   LD      A,(HL)
        OR      A
        JR      NZ,.pa2
        INC     L               ; an empty square: 27 T
        JR      .pa1
.pa2:   LD      C,L
        CP      OFFB
        JR      NZ,.piece
        LD      A,C
        CP      SQ_H8
        JR      C,.pa
        JR      .pb0
.piece: LD      D,A
        AND     7
        CP      PAWN
        LD      A,D
        CALL    NZ,DEVEL
        CALL    PATK
        JR      .pa
.pb0:
        LD      HL,ATKMAP+SQ_A1-1
.pb:    INC     L
        LD      A,(HL)
        OR      A
        JR      Z,.pb           ; 27 T a square nobody attacks
        LD      B,A             ; B = the attackers' nibbles
        LD      A,L
        CP      (ATKMAP+SQ_H8+1) & 0FFh
        JR      NC,.pend        ; the sentinel after h8's byte: the end
        LD      (HL),0
        RES     7,L
        LD      C,L
        LD      D,(HL)          ; D = the piece
        LD      A,B
        BIT     7,D
        JR      NZ,.bp
        AND     0F0h            ; a white piece: Black's attackers
        JR      .bt
.bp:    AND     0Fh             ; a black piece: White's
.bt:    JR      Z,.nb
        CALL    ATTACK
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        CALL    BATTLE
.nb:    LD      H,BPAGE
        LD      L,C
        SET     7,L
        JR      .pb
.pend:
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
