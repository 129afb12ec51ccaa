; ===========================================================================
; full/points.asm: the full build's own POINTS, in place of points.asm's
; (main.asm assembles one or the other): the article's pass over the pieces
; (ATKMAP and PATK, atkmap.asm; BATTLE, battle.asm) and the fix for a piece
; just moved that hangs, as the article build's POINTS has them, then the
; scoring in signed words from the parameter block; and its word arithmetic.
;
;   M = material change (MTRLW - MV0W) clamped to +-P_MCLAMP;
;   lost = PTSL * P_XLOST against the mover, won = PTSW2 * P_XWON for it
;   when two pieces are threatened; (M + won - lost) clamped to +-P_SCLAMP;
;   Bc = BRDC * P_BCSQ + DEVW (development) change from the root, clamped to
;   +-P_BCCLMP, none when the piece just moved hangs; then KNOW's knowledge
;   terms and KPEND's pawn-ending terms (or Lüscher's module alone, .lus),
;   the draw window (DSHIFT). VALMW = S from the side now to move's view;
;   the sort key VALM = VALMW/32 + 80h kept within 1..255. Every term is
;   left in BRKDN for 'Q' (CEVAL).
; ===========================================================================

; POINTS: the full build's: the article's pass over the pieces, then the
; scoring in words (above). out: A = VALM, also stored in the score byte of
; LASTMV's entry; VALMW; BRKDN.
;   clobbers: all but IX
;   CALLED BY: CEVAL, EVAL, FNDMOV, QLEAF, QNODE, SRCH
;   CALLS:     ATTACK, BATTLE, BCNOW, CLAMPW, DEVEL, DSHIFT, INC32, KNOW,
;              KPEND, LUSPRE, LZHOOK, MULAW, NEGHL, PATK
POINTS: LD      HL,NEVAL
        CALL    INC32
        XOR     A
        LD      HL,MTRL         ; MTRL BRDC PTSL PTSW1 PTSW2 PTSCK
        LD      B,6
.clr:   LD      (HL),A
        INC     HL
        DJNZ    .clr
        LD      (BKNBAT),A
        LD      H,A
        LD      L,A
        LD      (MTRLW),HL
        LD      (DEVW),HL
        CALL    LUSPRE          ; luscher.asm: Lüscher's endings are scored
        JP      C,.lus          ; by the module alone
        ; As in the article build: one pass over the pieces marks every piece they
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
        LD      A,(P_FLAGS2)    ; lazy evaluation (full/lazy.asm) may end
        AND     F2_LAZY         ; POINTS here
        CALL    NZ,LZHOOK
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
        CALL    KNOW            ; the knowledge terms (knowledge.asm), added
.fk:    PUSH    HL              ; last (below); LZHOOK joins here
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
        LD      HL,(MTRLW)      ; M = material change, clamped
        LD      DE,(MV0W)
        OR      A
        SBC     HL,DE
        LD      (BK_MAT),HL
        PUSH    HL
        LD      DE,(P_MCLAMP)
        CALL    CLAMPW
        POP     DE
        PUSH    HL
        OR      A
        SBC     HL,DE
        LD      (BK_MCL),HL
        LD      A,(PTSL)        ; lost, against the mover
        LD      DE,(P_XLOST)
        CALL    MULAW
        LD      A,(COLOR)
        OR      A
        CALL    Z,NEGHL         ; (White's view)
        LD      (BK_LOST),HL
        POP     DE
        ADD     HL,DE
        PUSH    HL
        LD      HL,0            ; won, for the mover, if two are threatened
        LD      A,(PTSW1)
        OR      A
        JR      Z,.x1
        LD      A,(PTSW2)
        LD      DE,(P_XWON)
        CALL    MULAW
        LD      A,(COLOR)
        OR      A
        CALL    NZ,NEGHL
.x1:    LD      (BK_WON),HL
        POP     DE
        ADD     HL,DE
        PUSH    HL              ; clamped to +-P_SCLAMP
        LD      DE,(P_SCLAMP)
        CALL    CLAMPW
        POP     DE
        PUSH    HL
        OR      A
        SBC     HL,DE
        LD      (BK_SCL),HL
        LD      HL,(BC0W)       ; board control and development change
        CALL    NEGHL
        LD      (BK_BC0),HL
        EX      DE,HL
        CALL    BCNOW
        ADD     HL,DE
        PUSH    HL
        LD      A,(PTSCK)       ; none if the piece just moved hangs
        OR      A
        JR      Z,.x2
        LD      HL,0
        JR      .x3
.x2:    LD      DE,(P_BCCLMP)
        CALL    CLAMPW
.x3:    POP     DE
        PUSH    HL
        OR      A
        SBC     HL,DE
        LD      (BK_BCL),HL
        POP     HL
        POP     DE
        ADD     HL,DE           ; S, White's view
        POP     DE              ; + the knowledge terms (KNOW, called at
        ADD     HL,DE           ; .pend before the fix for a hanging piece)
        LD      (KPTOT),HL      ; + pawn endings' terms (kpend.asm)
        PUSH    HL
        CALL    KPEND
        POP     DE
        ADD     HL,DE
.lus:   LD      (BK_TOT),HL
        CALL    DSHIFT          ; the draw window (draw.asm)
        LD      A,(COLOR)
        OR      A
        CALL    Z,NEGHL         ; the side now to move's view
        LD      (VALMW),HL
        PUSH    HL              ; the sort key: VALMW/32 + 80h, 1..255
        LD      B,5
.sh:    SRA     H
        RR      L
        DJNZ    .sh
        LD      DE,127
        CALL    CLAMPW
        LD      A,L
        ADD     A,80h
        LD      (VALM),A
        LD      HL,(LASTMV)
        LD      DE,5
        ADD     HL,DE
        LD      (HL),A
        POP     HL
        RET

; ---------------------------------------------------------------------------
; Word arithmetic of the full build's POINTS.
; ---------------------------------------------------------------------------

; BCNOW: HL = BRDC * P_BCSQ + DEVW, board control and development in White's
; view; BK_BC and BK_DEV set.   keeps: DE   clobbers: A, B
;   CALLED BY: FNDMOV, LZTRY, POINTS
;   CALLS:     MULSW
BCNOW:  PUSH    DE
        LD      A,(BRDC)
        LD      DE,(P_BCSQ)
        CALL    MULSW
        LD      (BK_BC),HL
        LD      DE,(DEVW)
        LD      (BK_DEV),DE
        ADD     HL,DE
        POP     DE
        RET

; MULAW: HL = A * DE (A unsigned; the word product, modulo 2^16): A's bits
; from the lowest, DE doubling, until no bit is left (the evaluation's
; counts are small: 1 costs 47 T, 3 104 T, 15 218 T, 255 460 T; the old
; fixed eight rounds cost 330 T whatever A).
;   clobbers: A, DE
;   CALLED BY: BBSUB, KBBKEV, KOPPB, LZTRY, MULSW, POINTS
;   CALLS:     -
MULAW:  LD      HL,0
.l:     SRL     A
        JR      NC,.n
        ADD     HL,DE           ; (keeps Z: SRL's "no bit left")
.n:     RET     Z
        SLA     E
        RL      D
        JR      .l

; MULSW: HL = A * DE, A signed.   clobbers: A, DE
;   CALLED BY: BCNOW, CETRY, EGEVAL, KSUMR, KTERMB
;   CALLS:     MULAW
MULSW:  OR      A
        JP      P,MULAW
        NEG
        CALL    MULAW
        ; fall into NEGHL

; NEGHL: HL = -HL.   clobbers: A
;   CALLED BY: ASPSET, CETRY, DEVEL, DRAWCK, DSHIFT, KBBKEV, KPEND, KPKEV,
;              LUSPRE, LZTRY, PATK, POINTS, QNODE, RACE, ROOTV, SRCH, TTBETA,
;              TTPRB
;   CALLS:     -
NEGHL:  XOR     A
        SUB     L
        LD      L,A
        SBC     A,A
        SUB     H
        LD      H,A
        RET

; CLAMPW: HL clamped to -DE..DE (DE >= 0).   clobbers: A
;   CALLED BY: CETRY, LUSMAP, LZTRY, POINTS
;   CALLS:     -
CLAMPW: BIT     7,H
        JR      NZ,.neg
        PUSH    HL
        OR      A
        SBC     HL,DE
        POP     HL
        RET     C               ; HL < DE
        LD      H,D
        LD      L,E
        RET
.neg:   PUSH    HL
        ADD     HL,DE
        POP     HL
        RET     C               ; HL >= -DE
        XOR     A
        SUB     E
        LD      L,A
        SBC     A,A
        SUB     D
        LD      H,A
        RET

; BKADD: list the battle on square C (piece D, residue E) for 'Q'.
;   keeps: all but A, F
;   CALLED BY: BATTLE
;   CALLS:     -
BKADD:  PUSH    HL
        LD      HL,BKNBAT
        LD      A,(HL)
        CP      32
        JR      NC,.x
        INC     (HL)
        PUSH    DE
        LD      E,A
        ADD     A,A
        ADD     A,E
        LD      E,A
        LD      D,0
        LD      HL,BKBAT
        ADD     HL,DE
        POP     DE
        LD      (HL),C
        INC     HL
        LD      (HL),D
        INC     HL
        LD      (HL),E
.x:     POP     HL
        RET
