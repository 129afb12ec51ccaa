; ===========================================================================
; csrch.asm: the period builds' search command, CSRCH, and KEEPBM; the full
; build's: full/search.asm.
; ===========================================================================

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
;   CALLS:     CMDERR, FNDMOV, GETB, KEEPBM, LEGALS, PUTB, PUTBM, PUTOK
; ---------------------------------------------------------------------------
CSRCH:  CALL    GETB
        LD      (SLEVEL),A
        CALL    GETB
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
        CALL    PUTOK
        LD      A,(SFLAGS)
        RRCA
        LD      A,(SLEVEL)
        JR      NC,.once
        LD      A,1
.once:  LD      (ITDEP),A
.iter:  LD      A,(ITDEP)
        LD      (PLYMAX),A
        CALL    FNDMOV
        LD      A,(ABORT)
        OR      A
        JR      NZ,.stop
        LD      HL,(BESTM)
        CALL    KEEPBM
        LD      A,(MOVENO)      ; a book move ends it
        DEC     A
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
        LD      A,(SLEVEL)
        LD      B,A
        LD      A,(ITDEP)
        CP      B
        JR      NC,.fin
        INC     A
        LD      (ITDEP),A
        JR      .iter
.stop:
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
        JR      NZ,.got
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
        RET

; KEEPBM: BESTMV = from, to, promotion of the entry HL, and SCORE+1.
;   CALLED BY: CSRCH
;   CALLS:     PROMOT
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
        LD      A,(SCORE+1)
        LD      (BESTMV+3),A
        RET
