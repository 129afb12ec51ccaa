; ===========================================================================
; full/quies.asm (full build only): a quiescence search below the nominal
; depth (P_FLAGS2 bit 2 F2_QUIES). main.asm includes it after
; full/order.asm; the code runs in expansion page 5, after ORDER's (SRCH's
; leaf calls QLEAF through ORDFAR).
;
; Without it, SRCH scores the move made at a leaf (ply n >= PLYMAX) by POINTS
; alone. With it, that score is the stand-pat of a capture search: the side
; to move may take the static score, or search its captures and queen
; promotions (under-promotions are not searched), each answered the same
; way, to P_QDEP plies at most. In the negamax form of SRCH's rules (a node's
; value in the view of its side to move; alpha = SCOREW[m-2], beta =
; -SCOREW[m-1] for the node at ply m, the ply whose mover is to move there):
;   v = POINTS (after the move that led here: VALMW is in this node's view)
;   v >= beta (-v <= SCOREW[m-1]): stand pat, the value is v
;   d = P_QDEP (d = m - the first quiescence ply) or m >= 15: the value is v
;   SCOREW[m] = max(alpha, v); then each capture c, by MVV/LVA (ORDER's
;   keys, equal keys by from then to, the larger first):
;     skipped unmade when v + its gain + P_QDELT/16 pawn <= SCOREW[m];
;     made; skipped if it leaves its king in check (INCHK), or if it loses
;     by the rule below; else r = the child's value (its view):
;     r <= SCOREW[m-1] (the capture is worth beta or more): the value is -r
;     -r > SCOREW[m]: SCOREW[m] = -r
;   the value is SCOREW[m] (max(alpha, v, the captures'): fail-hard below,
;   fail-soft above).
; The value goes to SRCH's leaf rule (.fm37) as POINTS' did: at or below
; alpha it cuts off, at or above beta it is no new best, between it is
; exact. NSTPAT counts the nodes that returned without searching a capture.
;
; Pruning (a capture that loses material is not searched): the victim's
; value (P1 N3 B3 R5 Q9, ORDER's) below the capturer's and the square
; attacked by the other side once the capture is made (SQATK, so a defender
; behind the capturer counts). This is XCHNG's verdict where it is cheap:
; taking a defended piece with a more valuable one loses at the first
; recapture unless a second capture follows, which the search would find
; only if it then searched a losing capture. Equal trades and captures of
; undefended or more valuable pieces are searched; promotions never lose.
;
; Delta pruning (P_QDELT, QDELTA): a capture whose victim's value, added to
; the static score with a margin, cannot lift it above the node's best so far
; is not made.
;
; Lazy evaluation (F2_LAZY) stays exact without delta pruning (P_QDELT = 0):
; POINTS is called as at SRCH's leaf,
; NPLY = the mover's ply, SCOREW[NPLY-1] and SCOREW[NPLY] its window, and
; the value is used only as the leaf rule would: "none is a new best" (LZTRY
; returns a lower bound >= beta) is a stand pat either way and the parent
; sees no new best either way; "every value cuts off" (an upper bound <=
; alpha) leaves max(alpha, v) = alpha, the same captures searched, the same
; value (alpha or a capture's), or at the depth cap a value <= alpha that
; cuts off either way. The table (P_FLAGS bit 0) stores no quiescence value.
; With delta pruning it is not exact: QDELTA reads v itself, and a lazy
; upper bound at or below alpha (>= the exact score) prunes a subset of the
; captures the exact score would, so the search may make more moves (the
; bench's italian at level 3: 1,906 against 1,904, the same move and score;
; tests/full_build/quies.rs: with P_QDELT = 0 the tree is the same).
;
; A stop (TMPOLL before each capture, or a full list or stack) ends every
; quiescence node at once and QLEAF returns the leaf's static score, as
; without quiescence. The search's moves made (NNODE) count the captures
; made (illegal and pruned ones too); POINTS calls count in NEVAL.
; The Rust model is in tests/full_build/quies.rs.
;
; MEMORY (expansion RAM 7100h-72FFh): QROOT, QSTAND, QEND below.
; ===========================================================================

QSRAM   EQU     XRAMLO+1100h    ; quiescence's RAM (7100h-72FFh)
QROOT   EQU     QSRAM+00h       ; 1  the first quiescence ply (the leaf's + 1)
QSTAND  EQU     QSRAM+01h       ; 2  the leaf's static score (a stop returns it)
QEND    EQU     QSRAM+03h       ; 2  QCAPS: the list's end
QSEND   EQU     QSRAM+05h
        ASSERT  QSEND <= XRAMLO+1300h, "quies.asm's RAM runs past 72FFh"
QF_V    EQU     F_MATE          ; (2) QNODE's frame: the static score v
QF_N    EQU     11              ; (1) ... a capture was searched
        ASSERT  QF_N >= F_ENTRY+2 && QF_N < SFRAME, "QNODE's frame"
QMAXP   EQU     14              ; the deepest ply that searches captures

        PAGE    5
; QLEAF: SRCH's leaf with F2_QUIES: score the position after the frame's
; move by a quiescence search (above) instead of POINTS alone.
;   in: IX = SRCH's frame at ply n >= PLYMAX, its move made and legal,
;       LASTMV = its entry, NPLY = n, COLOR = the mover
;   out: HL = the value, in VALMW's view (the side now to move); COLOR,
;        BOARD, MOVENO, NPLY, LASTMV, MLNXT as on entry
;   clobbers: all but IX   needs: page 5 selected
;   cost: POINTS and about 50 T when the static score stands; a capture
;         searched costs MKMOVE, INCHK, SQATK (when it may lose), POINTS,
;         UNMK and QNODE's 1,000 T or so
;   CALLED BY: - (SRCH, through ORDFAR)
;   CALLS:     CETRY, PINFND, POINTS, QNODE
QLEAF:  LD      A,(IX+F_PLY)
        INC     A
        LD      (QROOT),A
        CALL    CETRY           ; the cheap stage (ceval.asm, F2_CEVAL)
        JR      C,.v
        CALL    PINFND
        CALL    POINTS
.v:     LD      (QSTAND),HL     ; (tests/full_build/quies.rs reads each POINTS here)
        CALL    QNODE
        LD      A,(ABORT)
        OR      A
        RET     Z
        LD      HL,(QSTAND)     ; stopped: the static score
        RET

; QNODE: the quiescence node after the move of frame IX (ply m-1, made;
; POINTS has just scored it): its value (above).
;   in: HL = v, the static score (this node's view); IX = the frame whose
;       move led here; COLOR = its mover; NPLY = m-1
;   out: HL = the value (this node's view); COLOR, BOARD, MOVENO, LASTMV,
;        MLNXT as on entry, NPLY = m-1
;   clobbers: all but IX   needs: page 5 selected
;   cost: about 400 T to stand pat; to search: GENMOV, QCAPS (about 150 T
;         an entry), ORDER, then per capture as QLEAF says
;   CALLED BY: QLEAF
;   CALLS:     CETRY, CMPW, FLIP, GENMOV, INC32, INCHK, MKMOVE, NEGHL, ORDER,
;              PINFND, POINTS, QCAPS, QDELTA, QLOSE, QSCW, SCADR, TMPOLL, UNMK
QNODE:  PUSH    HL              ; stand pat: -v <= SCOREW[m-1] (v >= beta)
        CALL    NEGHL
        EX      DE,HL
        LD      A,(IX+F_PLY)
        CALL    QSCW
        CALL    CMPW            ; C: -v < SCOREW[m-1], Z: equal
        POP     HL
        JR      C,.pat
        JR      Z,.pat
        LD      A,(IX+F_PLY)    ; no ply left for a child's window
        CP      QMAXP
        JR      NC,.pat
        INC     A
        LD      B,A             ; B = m
        LD      A,(QROOT)
        LD      C,A
        LD      A,B
        SUB     C
        LD      C,A             ; C = d, the quiescence plies above
        LD      A,(P_QDEP)
        CP      C
        JR      C,.pat          ; P_QDEP <= d: the depth cap
        JR      NZ,.open
.pat:   PUSH    HL
        LD      HL,NSTPAT
        CALL    INC32
        POP     HL
        RET
.open:  PUSH    IX              ; a frame as SRCH's (MKMOVE, UNMK and
        LD      IX,-SFRAME      ; knowledge.asm KDEV2 read it)
        ADD     IX,SP
        LD      SP,IX
        LD      (IX+F_PLY),B
        LD      A,(SELDEP)      ; the deepest ply entered (UCI's seldepth)
        CP      B
        JR      NC,.sd
        LD      A,B
        LD      (SELDEP),A
.sd:    LD      (IX+QF_V),L
        LD      (IX+QF_V+1),H
        LD      (IX+QF_N),0
        LD      HL,(MLNXT)
        LD      (IX+F_FREE),L
        LD      (IX+F_FREE+1),H
        LD      HL,(LASTMV)
        LD      (IX+F_LAST),L
        LD      (IX+F_LAST+1),H
        CALL    FLIP            ; this node's side; a new move number
        OR      A
        JR      NZ,.d1
        LD      HL,MOVENO
        INC     (HL)
.d1:    LD      A,(IX+F_PLY)    ; SCOREW[m] = max(SCOREW[m-2], v)
        LD      (NPLY),A
        SUB     2
        CALL    SCADR
        LD      E,(HL)
        INC     L
        LD      D,(HL)
        LD      L,(IX+QF_V)
        LD      H,(IX+QF_V+1)
        CALL    CMPW            ; C: SCOREW[m-2] < v
        JR      NC,.a
        EX      DE,HL
.a:     LD      A,(IX+F_PLY)
        CALL    SCADR
        LD      (HL),E
        INC     L
        LD      (HL),D
        LD      HL,-STKLIM      ; room on the stack?
        ADD     HL,SP
        JR      C,.room
        LD      A,2
        LD      (OVFLW),A
        LD      (ABORT),A
        JP      .close
.room:  CALL    GENMOV          ; HL = first, DE = end
        LD      A,(OVFLW)
        OR      A
        JR      Z,.gen
        LD      (ABORT),A
        JP      .close
.gen:   CALL    QCAPS           ; captures and queen promotions only
        JP      Z,.close
        CALL    ORDER           ; MVV/LVA (order.asm, this page)
        LD      (IX+F_NEXT),L
        LD      (IX+F_NEXT+1),H
.loop:  CALL    TMPOLL          ; time.asm: "move now", the limit
        LD      A,(ABORT)
        OR      A
        JP      NZ,.close
        LD      L,(IX+F_NEXT)
        LD      H,(IX+F_NEXT+1)
        LD      A,H
        OR      A
        JP      Z,.close
        LD      (IX+F_ENTRY),L
        LD      (IX+F_ENTRY+1),H
        LD      E,(HL)
        INC     HL
        LD      D,(HL)
        LD      (IX+F_NEXT),E
        LD      (IX+F_NEXT+1),D
        CALL    QDELTA
        JR      NZ,.nx          ; too little to gain: not even made
        CALL    MKMOVE
        LD      A,(COLOR)
        CALL    INCHK
        JR      NZ,.skip        ; illegal
        CALL    QLOSE
        JR      NZ,.skip        ; it loses material
        LD      (IX+QF_N),1
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        CALL    CETRY           ; the cheap stage (ceval.asm, F2_CEVAL)
        JR      C,.v
        CALL    PINFND
        CALL    POINTS
.v:     CALL    QNODE           ; HL = r, the child's value (tests: .v)
        PUSH    HL
        LD      L,(IX+F_LAST)
        LD      H,(IX+F_LAST+1)
        LD      (LASTMV),HL
        CALL    UNMK
        POP     DE              ; DE = r
        LD      A,(IX+F_PLY)    ; r <= SCOREW[m-1]: a cut-off
        DEC     A
        CALL    QSCW
        CALL    CMPW
        JR      C,.cut
        JR      Z,.cut
        EX      DE,HL
        CALL    NEGHL
        EX      DE,HL           ; DE = -r
        LD      A,(IX+F_PLY)
        CALL    SCADR
        PUSH    HL
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        CALL    CMPW            ; C: -r < SCOREW[m], Z: equal
        POP     HL
        JR      C,.nx
        JR      Z,.nx
        LD      (HL),E          ; a new best
        INC     L
        LD      (HL),D
.nx:    JP      .loop
.skip:  CALL    UNMK
        JR      .nx
.cut:   EX      DE,HL
        CALL    NEGHL           ; HL = -r
        JR      .ret
.close: LD      A,(IX+QF_N)
        OR      A
        JR      NZ,.best
        LD      HL,NSTPAT       ; no capture searched
        CALL    INC32
.best:  LD      A,(IX+F_PLY)
        CALL    QSCW
.ret:   PUSH    HL
        LD      L,(IX+F_FREE)
        LD      H,(IX+F_FREE+1)
        LD      (MLNXT),HL
        LD      A,(IX+F_PLY)
        DEC     A
        LD      (NPLY),A
        CALL    FLIP            ; the parent's side and move number
        OR      A
        JR      Z,.a1
        LD      HL,MOVENO
        DEC     (HL)
.a1:    POP     HL
        LD      SP,IX
        POP     DE
        POP     DE
        POP     DE
        POP     DE
        POP     DE
        POP     DE
        POP     IX
        RET
        ASSERT  SFRAME == 12, "QNODE pops SRCH's 12-byte frame"

; QSCW: HL = SCOREW[A], the word.   clobbers: A
;   CALLED BY: QDELTA, QNODE
;   CALLS:     SCADR
QSCW:   CALL    SCADR
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        RET

; QCAPS: keep the captures and queen promotions of the list [HL, DE)
; (GENMOV's), packed at its start in their order; MLNXT = the new end.
;   out: HL = the first entry, DE = MLNXT = one past the last kept; Z = none
;   clobbers: A, BC
;   cost: about 110 T an entry dropped, 190 T one kept
;   CALLED BY: QNODE
;   CALLS:     -
QCAPS:  LD      (QEND),DE
        PUSH    HL
        LD      D,H
        LD      E,L             ; DE = the write pointer
.c:     PUSH    DE
        LD      DE,(QEND)
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        POP     DE
        JR      Z,.done
        LD      BC,4            ; the flags
        ADD     HL,BC
        LD      A,(HL)
        SBC     HL,BC           ; (no carry from the ADD)
        BIT     5,A
        JR      Z,.cap
        AND     0C0h            ; a promotion: to a queen only
        JR      Z,.keep
        JR      .drop
.cap:   AND     7               ; a capture?
        JR      Z,.drop
.keep:  LD      BC,6
        LDIR
        JR      .c
.drop:  LD      BC,6
        ADD     HL,BC
        JR      .c
.done:  LD      (MLNXT),DE
        POP     HL
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        RET

; QDELTA: delta pruning: can the capture of frame IX (not made yet) raise
; the node's best? Not when the static score v plus the most it can gain,
; 256 * (the victim's value + 8 for a queen promotion), plus a margin of
; P_QDELT sixteenths of a pawn, is still at or below SCOREW[m] (the best so
; far: alpha, the stand pat or a capture's value). P_QDELT = 0: never.
;   out: NZ = skip it, Z = search it
;   clobbers: A, BC, DE, HL
;   cost: about 400 T
;   CALLED BY: QNODE
;   CALLS:     CMPW, QSCW
QDELTA: LD      A,(P_QDELT)
        OR      A
        RET     Z
        LD      L,A             ; DE = the margin, 16 * P_QDELT
        LD      H,0
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,HL
        EX      DE,HL
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      BC,4
        ADD     HL,BC
        LD      C,(HL)          ; C = the flags
        LD      A,C
        AND     7
        ADD     A,OVAL & 0FFh
        LD      L,A
        LD      H,OVAL >> 8
        LD      A,(HL)          ; the victim's value
        BIT     5,C
        JR      Z,.np
        ADD     A,8             ; a queen promotion's gain
.np:    LD      H,A
        LD      L,0
        ADD     HL,DE           ; + the margin (at most 8,688)
        LD      E,(IX+QF_V)
        LD      D,(IX+QF_V+1)
        OR      A
        ADC     HL,DE           ; + v
        JP      PE,.keep        ; past 32767: it may gain
        EX      DE,HL
        LD      A,(IX+F_PLY)
        CALL    QSCW
        CALL    CMPW            ; C: the most it can reach < SCOREW[m]
        JR      C,.skip
        JR      Z,.skip
.keep:  XOR     A
        RET
.skip:  OR      1
        RET

; QLOSE: does the capture of frame IX (made, legal) lose material by the
; rule above: the victim worth less than the capturer and the square
; attacked by the side now to move?
;   out: NZ = it loses (skip it), Z = search it
;   clobbers: A, C, DE, HL
;   cost: about 200 T; 1,100-1,500 T more with SQATK
;   CALLED BY: QNODE
;   CALLS:     SQATK
QLOSE:  LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        INC     HL
        INC     HL
        INC     HL
        LD      C,(HL)          ; C = to
        INC     HL
        LD      A,(HL)          ; the flags
        BIT     5,A
        JR      NZ,.keep        ; a promotion never loses
        AND     7
        ADD     A,OVAL & 0FFh
        LD      L,A
        LD      H,OVAL >> 8
        LD      D,(HL)          ; D = the victim's value
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)          ; the capturer, on its square now
        AND     7
        ADD     A,OVAL & 0FFh
        LD      L,A
        LD      H,OVAL >> 8
        LD      A,D
        CP      (HL)
        JR      NC,.keep        ; worth as much as the capturer, or more
        LD      A,(COLOR)       ; defended?
        XOR     BLACK
        LD      E,A
        LD      H,BPAGE
        LD      L,C
        JP      SQATK           ; NZ: attacked
.keep:  XOR     A
        RET
        ENDPAGE
