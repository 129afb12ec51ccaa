; ===========================================================================
; search.asm: EVAL, SORTM, FNDMOV (full-width alpha-beta to PLYMAX with a
; one-ply check extension), BOOK, and the search command: the period program
; (article and 1978 builds). The full build shares EVAL, SORTM, MKMOVE, UNMK,
; BOOK, PUTBM and CMOVNO and has its own FNDMOV, SRCH, CSRCH and KEEPBM, with
; 16-bit scores: full/search.asm.
;
; Scores are bytes offset by 80h (VALM). At ply n, SCORE[n] is the running best
; of the node (its side to move's view) and SCORE[n-1] the grandparent's. A
; move's value A is the node-after-it's value from the opponent's view:
;   A <= SCORE[n-1]      cut off (ties cut): the parent's move is refuted
;   else A = -A (NEG: 256 - A, so unsigned compares give negamax);
;        if A > SCORE[n] it becomes the best (at ply 1: BESTM)
; Descending: SCORE[n+1] = SCORE[n-1]. A side with no legal move feeds in FFh
; (checkmated) or 80h (stalemate) as if it were a move's value. A forced mate
; found for the engine at the root (SCORE[1] = FFh) lowers PLYMAX by 2 and ends
; the search at once, as the 1978 program does.
; Moves at plies < PLYMAX are ordered by SORTM: every move evaluated (EVAL)
; and linked by ascending VALM (best for the mover first; ties keep generation
; order; illegal moves score 0 and are skipped).
; ===========================================================================

SFRAME  EQU     12              ; SRCH's frame, addressed through IX:
F_PLY   EQU     0               ;   ply
F_MATE  EQU     1               ;   a legal move was found
F_CHK   EQU     2               ;   the side to move is in check
F_FREE  EQU     3               ;   (2) MLNXT to restore: this ply's list
F_NEXT  EQU     5               ;   (2) the next entry to search
F_LAST  EQU     7               ;   (2) LASTMV of this node
F_ENTRY EQU     9               ;   (2) the entry being searched
ENOLEGL EQU     0Eh             ; search: the side to move has no legal move
SMAXLV  EQU     8               ; deepest level the search command accepts

; EVAL: score the entry at HL: MOVE, then 0 if the mover's king is attacked,
; else PINFND and POINTS (VALM in the entry's score byte); UNMOVE.
;   clobbers: all but IX
;   CALLED BY: SORTM
;   CALLS:     INCHK, MOVE, PINFND, POINTS, UNMOVE
EVAL:   LD      DE,(LASTMV)
        PUSH    DE
        PUSH    HL
        LD      (LASTMV),HL
        CALL    MOVE
        LD      A,(COLOR)
        CALL    INCHK
        JR      NZ,.ill
        CALL    PINFND
        CALL    POINTS
        JR      .un
.ill:   POP     HL
        PUSH    HL
        LD      DE,5
        ADD     HL,DE
        LD      (HL),0
.un:    POP     HL
        CALL    UNMOVE
        POP     DE
        LD      (LASTMV),DE
        RET

; SORTM: EVAL every entry of the list [HL, DE) and link them by ascending
; score (an entry goes after every entry whose score is <= its own). The full
; build looks at the host's "move now" before each entry and, when it is set,
; sets ABORT and returns the list linked so far (its SRCH stops at once).
;   out: HL = the new head (the links end with a 0 high byte)
;   clobbers: all but IX
;   CALLED BY: SRCH
;   CALLS:     EVAL
SORTM:  LD      (SRTEND),DE
        LD      (SRTCUR),HL
        LD      HL,0
        LD      (SRTHD),HL
.each:
        IF      BUILD == B_FULL
        IN      A,(PPOLL)       ; full: the host's "move now" ends the ordering
        AND     2               ; (SRCH's loop then stops the search)
        JR      Z,.each0
        LD      (ABORT),A
        JR      .done
.each0:
        ENDIF
        LD      HL,(SRTCUR)
        LD      DE,(SRTEND)
        OR      A
        SBC     HL,DE
        JR      Z,.done
        LD      HL,(SRTCUR)
        PUSH    HL
        CALL    EVAL
        POP     HL
        PUSH    HL
        LD      DE,5
        ADD     HL,DE
        LD      B,(HL)          ; B = its score
        LD      DE,SRTHD        ; DE = the link cell to follow
.find:  EX      DE,HL
        LD      E,(HL)
        INC     HL
        LD      D,(HL)
        DEC     HL              ; HL = the cell, DE = the entry it links to
        LD      A,D
        OR      A
        JR      Z,.ins          ; end of the list
        PUSH    HL
        LD      HL,5
        ADD     HL,DE
        LD      A,B
        CP      (HL)            ; our score < its score: insert before it
        POP     HL
        JR      C,.ins
        JR      .find           ; DE = that entry = its own link cell
.ins:   EX      (SP),HL         ; HL = our entry, stack = the cell
        LD      (HL),E          ; our link = what the cell linked to
        INC     HL
        LD      (HL),D
        DEC     HL
        EX      DE,HL
        POP     HL
        LD      (HL),E          ; the cell links to us
        INC     HL
        LD      (HL),D
        LD      HL,(SRTCUR)
        LD      DE,6
        ADD     HL,DE
        LD      (SRTCUR),HL
        JR      .each
.done:  LD      HL,(SRTHD)
        RET

SRTHD   EQU     VARS+0E0h       ; 2  SORTM: the sorted list's head (a link cell)
SRTCUR  EQU     VARS+0E2h       ; 2  SORTM: the entry being placed
SRTEND  EQU     VARS+0E4h       ; 2  SORTM: one past the last entry
BOOKE   EQU     VARS+0E8h       ; 6  the book move, as an entry
        IF      BUILD != B_FULL
BESTMV  EQU     VARS+0F0h       ; 4  the last completed depth's move: from to promo score
BMLEN   EQU     4
        ELSE
BMLEN   EQU     5               ; (vars.asm: from to promo score-word)
MATE    EQU     32000           ; a mate in n plies scores MATE - n
MATEMIN EQU     MATE-64         ; ... so a score above this is a mate
        ENDIF
ITDEP   EQU     VARS+0F4h       ; 1  iterative deepening: the depth searched
SLEVEL  EQU     VARS+0F5h       ; 1  the search command's level
SFLAGS  EQU     VARS+0F6h       ; 1  its flags (bit 0: iterate, reporting each depth)
SKIND   EQU     VARS+0F7h       ; 1  0 = searched, 1 = book

; The period builds' FNDMOV and SRCH (one-byte scores). The full build has its
; own, with 16-bit scores and its search craft: full/search.asm.
        IF      BUILD != B_FULL

; FNDMOV: choose a move for the side to move at depth PLYMAX.
;   out: BESTM = the root entry (0 = none), SCORE+1 = its value
;   CALLED BY: CSRCH
;   CALLS:     BOOK, PINFND, POINTS, SRCH
FNDMOV: LD      A,(MOVENO)
        CP      1
        JP      Z,BOOK
        LD      HL,0
        LD      (BESTM),HL
        LD      HL,SCORE
        LD      B,16
        XOR     A
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        CALL    PINFND          ; the root's material and board control
        CALL    POINTS
        LD      A,(BRDC)
        LD      (BC0),A
        LD      A,(MTRL)
        LD      (MV0),A
        LD      A,1
        JP      SRCH

; SRCH: search the node at ply A (the side to move is COLOR, LASTMV the move
; that led here). Recursive, with its frame at IX.
;   out: carry and A = SCORE[ply] to back up; no carry = cut off or stopped
;   clobbers: all but IX
;   CALLED BY: FNDMOV
;   CALLS:     FLIP, GENMOV, INCHK, MKMOVE, PINFND, POINTS, SORTM, UNMK
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
.room:  IN      A,(PPOLL)       ; the host's "move now"
        AND     2
        JR      Z,.go0
        LD      (ABORT),A
.go0:
.go:    LD      A,(ABORT)
        OR      A
        JP      NZ,.cut
        LD      A,(IX+F_PLY)
        LD      (NPLY),A
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
        LD      A,L
        CP      E
        JR      NZ,.some
        LD      A,H
        CP      D
        JR      NZ,.some
        LD      HL,0            ; no moves at all
        JR      .head
.some:  LD      A,(PLYMAX)
        LD      B,A
        LD      A,(IX+F_PLY)
        CP      B
        CALL    C,SORTM         ; below PLYMAX: ordered by static value
.head:
        LD      (IX+F_NEXT),L
        LD      (IX+F_NEXT+1),H
.loop:
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
        JR      Z,.loop
        CALL    MKMOVE
        JR      .desc
.leaf:  CALL    MKMOVE
        LD      A,(COLOR)
        CALL    INCHK
        JR      Z,.legal
        CALL    UNMK
        JR      .loop
.legal:
        LD      A,(PLYMAX)      ; at PLYMAX a checking move gets one more ply
        CP      (IX+F_PLY)
        JR      NZ,.stat
        LD      A,(COLOR)
        XOR     BLACK
        CALL    INCHK
        JR      NZ,.desc
.stat:
        LD      (IX+F_MATE),1
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        CALL    PINFND
        CALL    POINTS
        PUSH    AF
        LD      L,(IX+F_LAST)
        LD      H,(IX+F_LAST+1)
        LD      (LASTMV),HL
        CALL    UNMK
        POP     AF
        JR      .fm37
.desc:  LD      (IX+F_MATE),1
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        CALL    FLIP            ; the colour becomes White: the next move number
        OR      A
        JR      NZ,.d1
        LD      HL,MOVENO
        INC     (HL)
.d1:
        LD      HL,SCORE        ; SCORE[n+1] = SCORE[n-1]
        LD      A,(IX+F_PLY)
        ADD     A,L
        LD      L,A
        DEC     L
        LD      A,(HL)
        INC     L
        INC     L
        LD      (HL),A
        LD      A,(IX+F_PLY)
        INC     A
        CALL    SRCH
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
        JR      NC,.next        ; cut off below: this move is refuted
.fm37:  LD      B,A             ; back up A (the opponent's view)
        LD      HL,SCORE
        LD      A,(IX+F_PLY)
        ADD     A,L
        LD      L,A
        DEC     L
        LD      A,(HL)          ; SCORE[n-1]
        CP      B
        JR      NC,.cut         ; A <= SCORE[n-1]: cut off
        INC     L
        LD      A,B
        NEG
        CP      (HL)
        JR      C,.next
        JR      Z,.next
        LD      (HL),A          ; a new best
        LD      B,A
        LD      A,(IX+F_PLY)
        DEC     A
        JR      NZ,.next
        LD      L,(IX+F_ENTRY)  ; at the root: the chosen move
        LD      H,(IX+F_ENTRY+1)
        LD      (BESTM),HL
        LD      A,B
        INC     A
        JR      NZ,.next
        LD      HL,PLYMAX       ; a forced mate for the engine: stop here
        DEC     (HL)
        DEC     (HL)
        JR      .done
.next:  JP      .loop
.end:   LD      A,(IX+F_MATE)
        OR      A
        JR      NZ,.done
        LD      (IX+F_MATE),1   ; no legal move: mate or stalemate, fed in
        XOR     A               ; as if it were a move (no entry)
        LD      (IX+F_ENTRY),A
        LD      (IX+F_ENTRY+1),A
        LD      A,(IX+F_CHK)
        OR      A
        LD      A,0FFh
        JR      NZ,.fm37
        LD      A,80h
        JR      .fm37
.done:  CALL    .free
        LD      HL,SCORE
        LD      A,(IX+F_PLY)
        ADD     A,L
        LD      L,A
        LD      A,(HL)
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
        ENDIF      ; BUILD != B_FULL

; MKMOVE / UNMK: MOVE / UNMOVE the frame's entry; MKMOVE counts it.
;   CALLED BY: QNODE (full), SRCH
;   CALLS:     INC32, MOVE
MKMOVE: LD      HL,NNODE
        CALL    INC32
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        JP      MOVE
; UNMK: UNMOVE the frame's entry (IX+F_ENTRY).   clobbers: as UNMOVE
;   CALLED BY: QNODE (full), SRCH
;   CALLS:     UNMOVE
UNMK:   LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        JP      UNMOVE

; BOOK: the first move from the book, used when MOVENO = 1 (whatever the
; position, as in 1978). White: bit 0 of R picks 1.e4 or 1.d4. Black answers
; by the square White's first move came from: b1, g1, d2, f2, g2, h2 -> d5;
; a2, b2, c2, e2 -> e5.
;   CALLED BY: FNDMOV
;   CALLS:     -
BOOK:   LD      HL,BOOKE
        LD      (BESTM),HL
        XOR     A
        IF      BUILD == B_FULL
        LD      (SCOREW+2),A
        LD      (SCOREW+3),A
        ELSE
        LD      (SCORE+1),A
        ENDIF
        LD      (BOOKE),A
        LD      (BOOKE+1),A
        LD      (BOOKE+5),A
        LD      A,10h
        LD      (BOOKE+4),A
        LD      A,(COLOR)
        OR      A
        JR      NZ,.blk
        LD      A,R
        RRCA
        LD      DE,35*256+55    ; e2-e4
        JR      NC,.put
        LD      DE,34*256+54    ; d2-d4
        JR      .put
.blk:   LD      HL,(LASTMV)
        INC     HL
        INC     HL
        LD      A,(HL)          ; White's from-square
        LD      DE,85*256+65    ; e7-e5
        CP      22
        JR      Z,.d5
        CP      27
        JR      Z,.d5
        CP      34
        JR      C,.put          ; a2, b2, c2
        JR      Z,.d5           ; d2
        CP      35
        JR      Z,.put          ; e2
.d5:    LD      DE,84*256+64    ; d7-d5
.put:   LD      A,D
        LD      (BOOKE+2),A
        LD      A,E
        LD      (BOOKE+3),A
        RET

; The period builds' CSRCH and KEEPBM; the full build's: full/search.asm.
        IF      BUILD != B_FULL

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
        ENDIF      ; BUILD != B_FULL

; PUTBM: send BESTMV (from to promo score; the full build's score is a word).
;   CALLED BY: CSRCH
;   CALLS:     PUTB
PUTBM:  LD      HL,BESTMV
        LD      B,BMLEN
.b:     LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    .b
        RET

; CMOVNO: 'O' n -> 00: set the move number (1 = the book plays).
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     GETB, PUTOK
CMOVNO: CALL    GETB
        LD      (MOVENO),A
        JP      PUTOK

