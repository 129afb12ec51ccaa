; ===========================================================================
; full/search.asm: the full build's FNDMOV, SRCH and CSRCH (and KEEPBM, and
; the word helpers RTNOTE, SCADR, CMPW): the period builds' search (srch.asm,
; csrch.asm) with 16-bit scores and the full build's craft woven in. main.asm
; assembles it in the full build only, after putbm.asm; it shares EVAL, SORTM
; (search.asm), MKMOVE, UNMK, BOOK (book.asm), PUTBM and CMOVNO (putbm.asm),
; and uses search.asm's frame (SFRAME, F_...) and variables.
;
; Scores are signed words (SCOREW[n], 2 bytes a ply; a mate in n plies is
; MATE - n). The rules are srch.asm's, in words:
;   value <= SCOREW[n-1]   cut off (ties cut): the parent's move is refuted
;   else value = -value; if value > SCOREW[n] it becomes the best (ply 1: BESTM)
; Descending: SCOREW[n+1] = SCOREW[n-1]; every ply starts at -32768.
; Woven in (each call names its file): the game's draws (draw.asm), the
; transposition table and aspiration windows (craft.asm), the best reply and
; the capture extension (endgame.asm), the clock and the reply to ponder on
; (time.asm), the principal variation (pv.asm), the root-move set (roots.asm).
; ===========================================================================

; FNDMOV: choose a move for the side to move at depth PLYMAX.
;   out: BESTM = the root entry (0 = none), SCOREW[1] = its value (a word)
;   CALLED BY: CSRCH
;   CALLS:     ASPSET, BCNOW, BOOK, EGROOT, PINFND, POINTS, RSBOOK, SRCH,
;              TTROOT
FNDMOV: LD      A,(MOVENO)
        CP      1
        JR      NZ,.srch
        CALL    BOOK
        CALL    RSBOOK          ; roots.asm: the book's move, if in the set
        RET     Z
.srch:
        LD      HL,0
        LD      (BESTM),HL
        LD      (ROOTMV),HL     ; a new pass over the root: no move yet
        XOR     A               ; no search path at the root's POINTS
        LD      (ROOTN),A
        LD      (PATHON),A
        LD      HL,ROOTP
        INC     (HL)
        LD      HL,SCOREW       ; every ply's best: -32768, below any score
        LD      B,16
.z:     LD      (HL),0
        INC     HL
        LD      (HL),80h
        INC     HL
        DJNZ    .z
        CALL    PINFND          ; the root's material and board control
        CALL    POINTS
        LD      HL,(MTRLW)
        LD      (MV0W),HL
        CALL    BCNOW
        LD      (BC0W),HL
        CALL    TTROOT          ; craft.asm: the table's stamp for this root
        CALL    ASPSET          ; ... and the aspiration window, if any
        CALL    EGROOT          ; endgame.asm: a pawn ending? no best reply yet
        LD      A,1             ; from here POINTS sees a search path
        LD      (PATHON),A
        LD      A,1
        JP      SRCH

; SRCH: search the node at ply A (the side to move is COLOR, LASTMV the move
; that led here). Recursive, with its frame at IX. The host's "move now"
; (PPOLL bit 1) and a timed search's limit (both TMPOLL) are looked at on entering
; a node and before each of its moves, so a stop waits for one move's work at
; most (with F2_ORDER; without it SORTM evaluates a whole node first).
;   out: carry and HL = SCOREW[ply] to back up; no carry = cut off or stopped
;   clobbers: all but IX
;   CALLED BY: FNDMOV
;   CALLS:     BRFRONT, BRNOTE, CMPW, DRAWCK, EXTCAP, FLIP, GENMOV, INCHK,
;              MKMOVE, NEGHL, ORDFAR, PINFND, POINTS, PVCLR, PVLEAF, PVNODE,
;              PVNOTE, PVSET, RSROOT, RTNOTE, SCADR, SORTM, TMFRONT, TMPOLL,
;              TMROOT, TTBETA, TTEND, TTFRONT, TTMOVE, TTPRB, UNMK, UNMOVE
SRCH:   PUSH    IX
        LD      IX,-SFRAME
        ADD     IX,SP
        LD      SP,IX
        LD      (IX+F_PLY),A
        LD      HL,(MLNXT)
        LD      (IX+F_FREE),L
        LD      (IX+F_FREE+1),H
        LD      HL,-STKLIM      ; room on the stack?
        ADD     HL,SP
        JR      C,.room
        LD      A,2
        LD      (OVFLW),A
        LD      (ABORT),A
.room:  CALL    TMPOLL          ; time.asm: "move now", a timed search's limit
        LD      A,(IX+F_PLY)
        CP      2
        CALL    Z,PVCLR         ; time.asm: no reply yet
        CALL    PVNODE          ; pv.asm: no line yet
.go:    LD      A,(ABORT)
        OR      A
        JP      NZ,.cut
        LD      A,(IX+F_PLY)
        LD      (NPLY),A
        LD      HL,SELDEP       ; the deepest ply of this search
        CP      (HL)
        JR      C,.sel
        LD      (HL),A
.sel:
        XOR     A
        LD      (IX+F_MATE),A
        LD      HL,(LASTMV)
        LD      (IX+F_LAST),L
        LD      (IX+F_LAST+1),H
        LD      A,(COLOR)
        CALL    INCHK
        LD      (IX+F_CHK),A
        CALL    GENMOV          ; HL = first, DE = end
        LD      A,(OVFLW)
        OR      A
        JR      Z,.gen
        LD      (ABORT),A
        JP      .cut
.gen:
        LD      A,(P_FLAGS)     ; bit 2: repetition and 50-move draws, tested
        AND     4               ; before the table is asked (draw.asm)
        JR      Z,.nodr
        PUSH    HL
        PUSH    DE
        CALL    DRAWCK
        POP     DE
        JR      NC,.nodr0
        POP     DE
        EX      DE,HL           ; the draw's value
        JR      .setv
.nodr0: POP     HL
.nodr:  LD      A,(P_FLAGS)     ; bit 0: the transposition table (craft.asm)
        RRCA
        JR      NC,.gen0
        LD      A,(PLYMAX)
        CP      (IX+F_PLY)
        JR      C,.gen0
        PUSH    HL
        PUSH    DE
        CALL    TTPRB
        OR      A
        JR      NZ,.hit
        POP     DE
        POP     HL
        JR      .gen0
.hit:   POP     DE
        POP     DE
        DEC     A
        JP      NZ,.cut         ; a bound at or above beta
        EX      DE,HL           ; the node's value, from the table
.setv:  LD      A,(IX+F_PLY)
        CALL    SCADR
        LD      (HL),E
        INC     L
        LD      (HL),D
        JP      .done
.gen0:
        LD      A,L
        CP      E
        JR      NZ,.some
        LD      A,H
        CP      D
        JR      NZ,.some
        LD      HL,0            ; no moves at all
        JR      .head
.some:  LD      A,(P_FLAGS2)    ; F2_ORDER: below the root, order.asm's
        AND     F2_ORDER        ; keys (no evaluation)
        JP      NZ,.ord
.srt:   LD      A,(PLYMAX)
        LD      B,A
        LD      A,(IX+F_PLY)
        CP      B
        CALL    C,SORTM         ; below PLYMAX: ordered by static value
.head:
        LD      A,(P_FLAGS)     ; the table's move first (probed at ply <= PLYMAX)
        RRCA
        JR      NC,.head0
        LD      A,(PLYMAX)
        CP      (IX+F_PLY)
        CALL    NC,TTFRONT
.head0: CALL    BRFRONT         ; endgame.asm: the best reply first (ply 2)
        CALL    TMFRONT         ; time.asm: the root's last best first
        LD      (IX+F_NEXT),L
        LD      (IX+F_NEXT+1),H
.loop:
        CALL    TMPOLL          ; (a node's moves can take millions of T-states)
        LD      A,(ABORT)
        OR      A
        JP      NZ,.cut
        LD      L,(IX+F_NEXT)
        LD      H,(IX+F_NEXT+1)
        LD      A,H
        OR      A
        JP      Z,.end
        LD      (IX+F_ENTRY),L
        LD      (IX+F_ENTRY+1),H
        LD      E,(HL)
        INC     HL
        LD      D,(HL)
        LD      (IX+F_NEXT),E
        LD      (IX+F_NEXT+1),D
        LD      A,(PLYMAX)
        LD      B,A
        LD      A,(IX+F_PLY)
        CP      B
        JR      NC,.leaf
        LD      DE,4            ; below PLYMAX: skip the illegal
        ADD     HL,DE
        LD      A,(HL)
        OR      A
        JP      Z,.unev         ; illegal, or not evaluated (F2_ORDER)
        LD      A,(RSON)        ; roots.asm: a root move outside the set
        OR      A
        CALL    NZ,RSROOT
        JR      NZ,.loop
        LD      A,(IX+F_PLY)    ; the root's move searched now, for the host
        DEC     A
        CALL    Z,RTNOTE
        CALL    MKMOVE
        JR      .desc
.leaf:  CALL    MKMOVE
        LD      A,(COLOR)
        CALL    INCHK
        JR      NZ,.ill
        LD      A,(RSON)        ; roots.asm: a root move outside the set
        OR      A
        CALL    NZ,RSROOT
        JR      Z,.legal
.ill:
        CALL    UNMK
        JR      .loop
.legal:
        LD      A,(IX+F_PLY)    ; the root's move searched now, for the host
        DEC     A
        CALL    Z,RTNOTE
        LD      A,(PLYMAX)      ; at PLYMAX a checking move gets one more ply
        CP      (IX+F_PLY)
        JR      NZ,.stat
        LD      A,(COLOR)
        XOR     BLACK
        CALL    INCHK
        JR      NZ,.desc
.stat:
        CALL    EXTCAP          ; endgame.asm: a capture two plies further
        JP      C,.desc
        CALL    PVLEAF          ; pv.asm: no line below this move
        LD      (IX+F_MATE),1
        XOR     A               ; the first legal move proves an upper bound
        CALL    TTMOVE
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        PUSH    HL              ; the entry, for UNMOVE
        LD      A,(P_FLAGS2)    ; F2_QUIES: a quiescence search (quies.asm)
        AND     F2_QUIES
        JR      NZ,.qs
        CALL    PINFND
        CALL    POINTS
.qret:  POP     DE              ; (this path takes the T-states of PINFND,
        PUSH    HL              ; POINTS and UNMK it had before the hook:
        LD      L,(IX+F_LAST)   ; the flag test's 27 T are UNMK's inlined
        LD      H,(IX+F_LAST+1) ; and .fm37's EX DE,HL skipped)
        LD      (LASTMV),HL
        EX      DE,HL
        CALL    UNMOVE
        POP     DE              ; DE = VALMW, as after .fm37's EX DE,HL
        JP      .fm37d
.qs:    LD      IY,QLEAF        ; HL = the quiescence's value
        CALL    ORDFAR
        JR      .qret
.desc:  LD      (IX+F_MATE),1
        XOR     A
        CALL    TTMOVE
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        CALL    FLIP            ; the colour becomes White: the next move number
        OR      A
        JR      NZ,.d1
        LD      HL,MOVENO
        INC     (HL)
.d1:
        LD      A,(IX+F_PLY)    ; SCOREW[n+1] = SCOREW[n-1]
        DEC     A
        CALL    SCADR
        LD      E,(HL)
        INC     L
        LD      D,(HL)
        INC     L
        INC     L
        INC     L
        LD      (HL),E
        INC     L
        LD      (HL),D
        LD      A,(IX+F_PLY)
        INC     A
        CALL    SRCH
        PUSH    HL
        PUSH    AF
        CALL    FLIP            ; the colour becomes Black: back a move number
        OR      A
        JR      Z,.a1
        LD      HL,MOVENO
        DEC     (HL)
.a1:    LD      L,(IX+F_LAST)
        LD      H,(IX+F_LAST+1)
        LD      (LASTMV),HL
        LD      A,(IX+F_PLY)
        LD      (NPLY),A
        CALL    UNMK
        POP     AF
        POP     HL
        JP      NC,.next        ; cut off below: this move is refuted
.fm37:  EX      DE,HL           ; back up HL (the opponent's view), signed
.fm37d: LD      A,(IX+F_PLY)
        DEC     A
        CALL    SCADR           ; HL = &SCOREW[n-1]
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        EX      DE,HL           ; DE = SCOREW[n-1], HL = the value
        CALL    CMPW
        JP      NC,.cutb        ; value <= SCOREW[n-1]: cut off
        CALL    NEGHL           ; the mover's view
        EX      DE,HL           ; DE = the value
        LD      A,(IX+F_PLY)
        CALL    SCADR           ; HL = &SCOREW[n]
        PUSH    HL
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        CALL    CMPW            ; value < SCOREW[n] (C) or equal (Z): no
        POP     HL
        JP      C,.next
        JP      Z,.next
        LD      (HL),E          ; a new best
        INC     L
        LD      (HL),D
        PUSH    DE
        LD      A,1
        CALL    TTMOVE
        CALL    PVNOTE          ; time.asm: the reply to ponder on
        CALL    BRNOTE          ; endgame.asm: the best reply (ply 2)
        CALL    PVSET           ; pv.asm: this move's line
        POP     DE
        LD      A,(IX+F_PLY)
        DEC     A
        JP      NZ,.next
        LD      L,(IX+F_ENTRY)  ; at the root: the chosen move
        LD      H,(IX+F_ENTRY+1)
        LD      (BESTM),HL
        CALL    TMROOT          ; time.asm: a fail low?
        LD      HL,MATEMIN      ; a forced mate for the engine: stop here
        CALL    CMPW
        JP      C,.next
        LD      HL,PLYMAX
        DEC     (HL)
        DEC     (HL)
        JP      .done
.cutb:  CALL    TTBETA          ; a lower bound for the table
        CALL    BRNOTE          ; endgame.asm: the refutation (ply 2)
        LD      A,(P_FLAGS2)    ; F2_ORDER: a killer, history (order.asm)
        AND     F2_ORDER
        JP      Z,.cut
        LD      IY,ORDCUT
        CALL    ORDFAR
        JP      .cut
.ord:   LD      A,(IX+F_PLY)    ; F2_ORDER: the root keeps SORTM
        DEC     A
        JP      Z,.srt
        LD      IY,ORDER
        CALL    ORDFAR
        JP      .head
.unev:  LD      A,(P_FLAGS2)    ; F2_ORDER: ORDER left every score 0, so
        AND     F2_ORDER        ; the move is made and tested here (at the
        JP      Z,.loop         ; root a 0 is SORTM's: illegal)
        LD      A,(IX+F_PLY)
        DEC     A
        JP      Z,.loop
        CALL    MKMOVE
        LD      A,(COLOR)
        CALL    INCHK
        JP      NZ,.ill
        JP      .desc
.next:  JP      .loop
.end:   LD      A,(IX+F_MATE)
        OR      A
        JR      Z,.end0
        CALL    TTEND           ; the node's value for the table
        JP      .done
.end0:
        LD      (IX+F_MATE),1   ; no legal move: mate or stalemate, fed in
        XOR     A               ; as if it were a move (no entry)
        LD      (IX+F_ENTRY),A
        LD      (IX+F_ENTRY+1),A
        LD      A,(IX+F_CHK)
        OR      A
        LD      HL,0            ; stalemate: 0
        JP      Z,.fm37
        LD      A,(IX+F_PLY)    ; mated n-1 plies from the root (the root is
        DEC     A               ; ply 1): MATE - (n-1) for the mater
        LD      L,A
        LD      DE,MATE
        EX      DE,HL
        OR      A
        SBC     HL,DE
        JP      .fm37
.done:  CALL    .free
        LD      A,(IX+F_PLY)
        CALL    SCADR
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        SCF
        JR      .ret
.cut:   CALL    .free
        OR      A
.ret:   LD      SP,IX
        POP     DE
        POP     DE
        POP     DE
        POP     DE
        POP     DE
        POP     DE
        POP     IX
        RET
.free:  LD      L,(IX+F_FREE)
        LD      H,(IX+F_FREE+1)
        LD      (MLNXT),HL
        RET

; ---------------------------------------------------------------------------
; CSRCH: 'G' level flags -> 00, then for each completed depth when iterating
; (flags bit 0) 'R' depth from to promo score, then
; 'E' from to promo score kind NEVAL[4] NXCHG[4] NNODE[4] (full build: then
; the expected reply, from to promo, 0 0 0 for none: the move to ponder on,
; and the move's line, n then n x (from to promo): pv.asm; each 'R' report
; of the full build is followed by its depth's line likewise).
; The host's "move now" (bit 1 of port PPOLL) stops the search: the move is
; then the last completed depth's. kind: 0 searched, 1 book, 2 stopped early,
; 3 stopped by an overflow of MLIST or the stack.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     ASPBEG, ASPCHK, CMDERR, FNDMOV, GETB, KEEPBM, LEGALS, ORDFAR,
;              PUTB, PUTBM, PUTOK, PUTPV, PUTRP, PVRST, PVSTART, RSOK, SELPRM,
;              TMITER, TMNEXT, TMSTART, TMSTOP
; ---------------------------------------------------------------------------
CSRCH:  CALL    GETB
        LD      (SLEVEL),A
        CALL    GETB
        BIT     1,A             ; timed (time.asm): iterating
        JR      Z,.fl
        SET     0,A
.fl:
        LD      (SFLAGS),A
        LD      A,(SLEVEL)
        DEC     A
        CP      SMAXLV
        LD      A,EDEPTH
        JP      NC,CMDERR
        CALL    LEGALS          ; never search a side with no legal move
        LD      A,(NLEGAL)
        OR      A
        LD      A,ENOLEGL
        JP      Z,CMDERR
        LD      HL,MLIST
        LD      (MLNXT),HL
        XOR     A
        LD      (ABORT),A
        LD      (SKIND),A
        LD      HL,NEVAL
        LD      B,12
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        LD      HL,BESTMV
        LD      B,BMLEN
.z2:    LD      (HL),A
        INC     HL
        DJNZ    .z2
        LD      A,(COLOR)
        LD      (KOLOR),A
        CALL    SELPRM          ; the opening's parameter block
        LD      HL,TTAGE        ; a new search: older entries may go first
        INC     (HL)
        LD      A,(P_FLAGS2)    ; F2_ORDER: no killers, no history yet
        AND     F2_ORDER
        JR      Z,.nord
        LD      IY,ORDCLR
        CALL    ORDFAR
.nord:
        CALL    TMSTART         ; time.asm: the clock, when timed
        CALL    PVRST           ; time.asm: no reply to ponder on yet
        CALL    PVSTART         ; pv.asm: no line yet
        XOR     A               ; no ply entered, no root move yet (RTNOTE)
        LD      (SELDEP),A
        LD      (ROOTN),A
        CALL    PUTOK
        LD      A,(SFLAGS)
        RRCA
        LD      A,(SLEVEL)
        JR      NC,.once
        LD      A,1
.once:  LD      (ITDEP),A
.iter:  LD      A,(ITDEP)
        LD      (PLYMAX),A
        CALL    TMITER          ; time.asm: this depth's limit
        CALL    ASPBEG          ; craft.asm: a window round the last score
.asp:   CALL    FNDMOV
        CALL    ASPCHK          ; failed high or low: again, full window
        JR      Z,.aspok
        LD      A,(ITDEP)
        LD      (PLYMAX),A
        JR      .asp
.aspok:
        LD      A,(ABORT)
        OR      A
        JR      NZ,.stop
        LD      HL,(BESTM)
        CALL    KEEPBM
        LD      HL,(BESTM)      ; a book move ends it (at move number 1 with
        LD      DE,BOOKE        ; a set of root moves, a search may answer)
        OR      A
        SBC     HL,DE
        JR      NZ,.nb
        LD      A,1
        LD      (SKIND),A
        JR      .fin
.nb:    LD      A,(SFLAGS)
        RRCA
        JR      NC,.fin
        LD      A,'R'           ; report the completed depth
        CALL    PUTB
        LD      A,(ITDEP)
        CALL    PUTB
        CALL    PUTBM
        CALL    PUTPV           ; pv.asm: its line
        CALL    TMNEXT          ; time.asm: time for another depth?
        JR      C,.fin
        LD      A,(SLEVEL)
        LD      B,A
        LD      A,(ITDEP)
        CP      B
        JR      NC,.fin
        INC     A
        LD      (ITDEP),A
        JR      .iter
.stop:
        CALL    TMSTOP          ; time.asm: a fail low's better move
        LD      A,(OVFLW)       ; kind 3: a list or the stack overflowed
        OR      A
        LD      A,2
        JR      Z,.sk
        INC     A
.sk:    LD      (SKIND),A
        LD      A,(BESTMV)      ; stopped before depth 1 completed: the first legal move
        OR      A
        JR      NZ,.fin
        CALL    LEGALS
        LD      (RSL0),HL       ; roots.asm: the list, for RSOK
.first: LD      A,L
        CP      E
        JR      NZ,.try
        LD      A,H
        CP      D
        JR      Z,.fin
.try:   PUSH    HL
        LD      BC,5
        ADD     HL,BC
        LD      A,(HL)
        POP     HL
        OR      A
        JR      Z,.nx
        PUSH    DE              ; roots.asm: a move of the set
        LD      DE,(RSL0)
        CALL    RSOK
        POP     DE
        JR      Z,.got
.nx:
        LD      BC,6
        ADD     HL,BC
        JR      .first
.got:   CALL    KEEPBM
.fin:   LD      A,'E'
        CALL    PUTB
        CALL    PUTBM
        LD      A,(SKIND)
        CALL    PUTB
        LD      HL,NEVAL
        LD      B,12
.cnt:   LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    .cnt
        CALL    PUTRP           ; time.asm: the reply to ponder on
        JP      PUTPV           ; pv.asm: the move's line

; KEEPBM: BESTMV = from, to, promotion of the entry HL, and SCOREW[1] (a
; word); its reply and line (time.asm, pv.asm).
;   CALLED BY: CSRCH, TMSTOP
;   CALLS:     PROMOT, PVBEST, PVKEEP
KEEPBM: LD      A,H
        OR      A
        RET     Z
        PUSH    HL
        INC     HL
        INC     HL
        LD      A,(HL)
        LD      (BESTMV),A
        INC     HL
        LD      A,(HL)
        LD      (BESTMV+1),A
        POP     HL
        CALL    PROMOT
        LD      (BESTMV+2),A
        LD      HL,(SCOREW+2)
        LD      (BESTMV+3),HL
        CALL    PVKEEP          ; time.asm: its reply
        CALL    PVBEST          ; pv.asm: its line
        RET

; RTNOTE: the root's move (the frame's entry, legal, in the set) is searched
; now: ROOTMV = it, ROOTN + 1. The host reads them between slices (UCI's
; currmove and currmovenumber); called at ply 1 only.   clobbers: A, HL
;   CALLED BY: SRCH
;   CALLS:     -
RTNOTE: LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (ROOTMV),HL
        LD      HL,ROOTN
        INC     (HL)
        RET

; SCADR: HL = &SCOREW[A] (SCOREW lies in one page).   clobbers: A
;   CALLED BY: CETRY, LZTRY, QNODE, QSCW, SRCH, TTEND, TTPRB
;   CALLS:     -
SCADR:  ADD     A,A
        ADD     A,SCOREW & 0FFh
        LD      L,A
        LD      H,SCOREW >> 8
        RET
        ASSERT  (SCOREW & 0FFh) <= 0E0h, "SCOREW must not cross a page"

; CMPW: compare the signed words DE and HL: C = DE < HL, Z = equal.
;   keeps: DE, HL   clobbers: A, C
;   CALLED BY: ASPBEG, CETRY, LZTRY, QDELTA, QNODE, SRCH, TTEND, TTPRB
;   CALLS:     -
CMPW:   LD      A,H
        XOR     80h
        LD      C,A
        LD      A,D
        XOR     80h
        CP      C
        RET     NZ
        LD      A,E
        CP      L
        RET

; ORDFAR: call the routine IY of order.asm (expansion ROM page 5) and
; restore the page.   in/out: as the routine's (HL, DE, BC; not AF)
;   CALLED BY: CSRCH, SRCH
;   CALLS:     -
ORDFAR: IN      A,(PPAGE)
        PUSH    AF
        LD      A,PAGEOF(ORDER)
        OUT     (PPAGE),A
        CALL    .go
        POP     AF
        OUT     (PPAGE),A
        RET
.go:    JP      (IY)
