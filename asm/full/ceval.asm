; ===========================================================================
; full/ceval.asm: a cheap first stage of the leaf evaluation
; (P_FLAGS2 bit 4 F2_CEVAL; it acts only with the quiescence search, F2_QUIES,
; whose static scores it serves). main.asm includes it after full/quies.asm;
; the code runs in expansion page 5, after the quiescence search's.
;
; Before PINFND and POINTS score a quiescence node's position (QLEAF: SRCH's
; leaf; QNODE: a capture's child), CETRY counts the men with one pass over
; the board and adds up the material (about 5,700 T, where PINFND and POINTS
; cost about 110,000)
; and compares it with the window POINTS' score would meet (LZTRY's rule,
; full/lazy.asm; NPLY = the mover's ply): with E = the material change from
; the root, clamped to +-P_MCLAMP, in the side to move's view (VALMW's),
;   E + P_CEMC/16 pawn <= SCOREW[NPLY-1]: the score is taken to cut off
;     (alpha or below: the quiescence node still searches its captures, so a
;     piece the mover left hanging is still taken there);
;   E - P_CEMN/16 pawn > SCOREW[NPLY-1] and its negation <= SCOREW[NPLY]: the
;     score is taken to be no new best (beta or above: the node stands pat);
; and returns that bound as the static score, counted in NEVAL, NLAZY and
; NCEVX. The margins stand for everything POINTS adds to the material (the
; exchange analysis, board control and development, the knowledge terms):
; they are NOT proven bounds (a sound bound from the weights is wider than
; 10 pawns in a middlegame and decides almost no leaf), so F2_CEVAL changes
; the tree and is measured by play. A margin of 0 turns its side off. Never
; when a side has no piece (KPEND's and Lüscher's endings set the total
; outright), nor a cut-off when the table (P_FLAGS bit 0) would keep the
; leaf's value (NPLY = PLYMAX), as LZTRY.
; ===========================================================================

NCEVX   EQU     LZRAM+80h       ; 4  CETRY's exits (6E80h; lazy.asm's RAM page)
        ASSERT  NCEVX+4 <= XRAMLO+0F00h, "ceval.asm's RAM runs past 6EFFh"
CECNT   EQU     XRAMLO+1500h    ; 256 the men's counts by (colour | type):
        ASSERT  (CECNT & 0FFh) == 0, "CECNT must start a page" ; 7500h-75FFh

        PAGE    5
; CETRY: the material stage (above) before a quiescence node's PINFND and
; POINTS.
;   in: the move made, COLOR = its mover, NPLY = the mover's ply
;   out: carry = leave: HL = VALMW = the bound taken as the static score;
;        no carry: score it in full (PINFND, POINTS)
;   clobbers: all but IX   needs: page 5 selected
;   cost: 36 T with F2_CEVAL off; about 2,600 T + 24 T a man, + 250 T a
;         type whose counts differ, + 500 T (kiwipete's search to level 4:
;         5,700 T a call)
;   CALLED BY: QLEAF, QNODE
;   CALLS:     CLAMPW, CMPW, INC32, MULSW, NEGHL, SCADR
CETRY:  LD      A,(P_FLAGS2)
        AND     F2_CEVAL
        RET     Z               ; (no carry)
        LD      HL,CECNT+PAWN   ; the counts by colour and type, P .. Q
        XOR     A
        LD      B,QUEEN
.z:     LD      (HL),A
        SET     7,L
        LD      (HL),A
        RES     7,L
        INC     L
        DJNZ    .z
        LD      D,CECNT >> 8    ; DE = the count of the man E (87h masked)
        LD      HL,BOARD+SQ_A1  ; the board, rank by rank
        LD      C,8
.r:     LD      B,8
.f:     LD      A,(HL)
        OR      A
        JR      Z,.e            ; an empty square: 40 T
        AND     87h             ; a man: 64 T
        LD      E,A
        LD      A,(DE)
        INC     A
        LD      (DE),A
.e:     INC     L
        DJNZ    .f
        INC     L
        INC     L
        DEC     C
        JR      NZ,.r
        LD      H,D             ; a piece on each side?
        LD      L,KNIGHT
        CALL    .pcs
        RET     Z
        LD      L,BLACK+KNIGHT
        CALL    .pcs
        RET     Z
        LD      IY,0            ; IY = the material, White's view: the sum
        LD      C,PAWN          ; of (White's - Black's) * P_PAWN .. P_QUEEN
.m:     LD      H,CECNT >> 8    ; (modulo 2^16, as the sum of the men)
        LD      L,C
        LD      A,(HL)
        SET     7,L
        SUB     (HL)
        JR      Z,.mn
        LD      B,A
        LD      A,C
        ADD     A,A
        LD      L,A
        LD      H,PRM >> 8
        LD      E,(HL)
        INC     L
        LD      D,(HL)
        LD      A,B
        CALL    MULSW
        EX      DE,HL
        ADD     IY,DE
.mn:    INC     C
        LD      A,C
        CP      KING
        JR      C,.m
        PUSH    IY              ; E = M clamped, VALMW's view
        POP     HL
        LD      DE,(MV0W)
        OR      A
        SBC     HL,DE
        LD      DE,(P_MCLAMP)
        CALL    CLAMPW
        LD      A,(COLOR)
        OR      A
        CALL    Z,NEGHL         ; White moved: VALMW = -total
        PUSH    HL
        LD      A,(NPLY)        ; DE = SCOREW[n-1]
        DEC     A
        CALL    SCADR
        LD      E,(HL)
        INC     L
        LD      D,(HL)
        LD      A,(P_CEMC)      ; cut off: E + margin <= SCOREW[n-1]
        OR      A
        JR      Z,.nocut
        CALL    .marg           ; BC = the margin
        POP     HL
        PUSH    HL
        ADD     HL,BC
        CALL    CMPW            ; C: SCOREW[n-1] < E + margin
        JR      C,.nocut
        LD      A,(P_FLAGS)     ; unless the table keeps the leaf's value
        RRCA
        JR      NC,.leave
        LD      A,(PLYMAX)
        LD      B,A
        LD      A,(NPLY)
        CP      B
        JR      NZ,.leave
.nocut: LD      A,(P_CEMN)      ; no new best: E - margin > SCOREW[n-1]
        OR      A
        JR      Z,.full
        CALL    .marg
        POP     HL
        PUSH    HL
        OR      A
        SBC     HL,BC
        JP      PE,.full        ; (below -32768: no)
        CALL    CMPW            ; C: SCOREW[n-1] < E - margin
        JR      NC,.full
        PUSH    HL              ; ... and -(E - margin) <= SCOREW[n]
        CALL    NEGHL
        EX      DE,HL
        LD      A,(NPLY)
        CALL    SCADR
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        CALL    CMPW            ; C: less, Z: equal
        POP     HL
        JR      C,.leave
        JR      Z,.leave
.full:  POP     HL              ; (no carry: OR A, CMPW's NC, or AND)
        OR      A
        RET
.leave: POP     DE
        LD      (VALMW),HL      ; HL = the bound
        LD      HL,NEVAL
        CALL    INC32
        LD      HL,NLAZY
        CALL    INC32
        LD      HL,NCEVX
        CALL    INC32
        LD      HL,(VALMW)
        SCF
        RET
.pcs:   LD      A,(HL)          ; NZ: a knight, bishop, rook or queen counted
        INC     L               ; from L on
        OR      (HL)
        INC     L
        OR      (HL)
        INC     L
        OR      (HL)
        RET
.marg:  LD      C,A             ; BC = 16 * A
        LD      B,0
        SLA     C
        RL      B
        SLA     C
        RL      B
        SLA     C
        RL      B
        SLA     C
        RL      B
        RET
        ENDPAGE
