; ===========================================================================
; search.asm: EVAL, SORTM, FNDMOV (full-width alpha-beta to PLYMAX with a
; one-ply check extension), BOOK, and the search command.
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
; score (an entry goes after every entry whose score is <= its own).
;   out: HL = the new head (the links end with a 0 high byte)
;   clobbers: all but IX
SORTM:  LD      (SRTEND),DE
        LD      (SRTCUR),HL
        LD      HL,0
        LD      (SRTHD),HL
.each:  LD      HL,(SRTCUR)
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

; FNDMOV: choose a move for the side to move at depth PLYMAX.
;   out: BESTM = the root entry (0 = none), SCORE+1 = its value
FNDMOV: LD      A,(MOVENO)
        CP      1
        IF      BUILD == B_FULL
        JR      NZ,.srch
        CALL    BOOK
        CALL    RSBOOK          ; roots.asm: the book's move, if in the set
        RET     Z
.srch:
        ELSE
        JP      Z,BOOK
        ENDIF
        LD      HL,0
        LD      (BESTM),HL
        IF      BUILD == B_FULL
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
        ELSE
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
        ENDIF
        IF      BUILD == B_FULL
        LD      A,1             ; from here POINTS sees a search path
        LD      (PATHON),A
        ENDIF
        LD      A,1
        JP      SRCH

; SRCH: search the node at ply A (the side to move is COLOR, LASTMV the move
; that led here). Recursive, with its frame at IX.
;   out: carry and A = SCORE[ply] to back up; no carry = cut off or stopped
;   clobbers: all but IX
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
        IF      BUILD == B_FULL
        CALL    TMPOLL          ; time.asm: a timed search's limit
        LD      A,(IX+F_PLY)
        CP      2
        CALL    Z,PVCLR         ; time.asm: no reply yet
        CALL    PVNODE          ; pv.asm: no line yet
        ENDIF
.go:    LD      A,(ABORT)
        OR      A
        JP      NZ,.cut
        LD      A,(IX+F_PLY)
        LD      (NPLY),A
        IF      BUILD == B_FULL
        LD      HL,SELDEP       ; the deepest ply of this search
        CP      (HL)
        JR      C,.sel
        LD      (HL),A
.sel:
        ENDIF
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
        IF      BUILD == B_FULL
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
        ENDIF
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
        IF      BUILD == B_FULL
        LD      A,(P_FLAGS)     ; the table's move first (probed at ply <= PLYMAX)
        RRCA
        JR      NC,.head0
        LD      A,(PLYMAX)
        CP      (IX+F_PLY)
        CALL    NC,TTFRONT
.head0: CALL    BRFRONT         ; endgame.asm: the best reply first (ply 2)
        ENDIF
        IF      BUILD == B_FULL
        CALL    TMFRONT         ; time.asm: the root's last best first
        ENDIF
        LD      (IX+F_NEXT),L
        LD      (IX+F_NEXT+1),H
.loop:
        IF      BUILD == B_FULL
        CALL    TMPOLL          ; (a leaf loop is the longest stretch)
        ENDIF
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
        IF      BUILD == B_FULL
        LD      A,(RSON)        ; roots.asm: a root move outside the set
        OR      A
        CALL    NZ,RSROOT
        JR      NZ,.loop
        LD      A,(IX+F_PLY)    ; the root's move searched now, for the host
        DEC     A
        CALL    Z,RTNOTE
        ENDIF
        CALL    MKMOVE
        JR      .desc
.leaf:  CALL    MKMOVE
        LD      A,(COLOR)
        CALL    INCHK
        IF      BUILD == B_FULL
        JR      NZ,.ill
        LD      A,(RSON)        ; roots.asm: a root move outside the set
        OR      A
        CALL    NZ,RSROOT
        JR      Z,.legal
.ill:
        ELSE
        JR      Z,.legal
        ENDIF
        CALL    UNMK
        JR      .loop
.legal:
        IF      BUILD == B_FULL
        LD      A,(IX+F_PLY)    ; the root's move searched now, for the host
        DEC     A
        CALL    Z,RTNOTE
        ENDIF
        LD      A,(PLYMAX)      ; at PLYMAX a checking move gets one more ply
        CP      (IX+F_PLY)
        JR      NZ,.stat
        LD      A,(COLOR)
        XOR     BLACK
        CALL    INCHK
        JR      NZ,.desc
.stat:
        IF      BUILD == B_FULL
        CALL    EXTCAP          ; endgame.asm: a capture two plies further
        JP      C,.desc
        CALL    PVLEAF          ; pv.asm: no line below this move
        ENDIF
        LD      (IX+F_MATE),1
        IF      BUILD == B_FULL
        XOR     A               ; the first legal move proves an upper bound
        CALL    TTMOVE
        ENDIF
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        CALL    PINFND
        CALL    POINTS
        IF      BUILD == B_FULL
        PUSH    HL              ; VALMW
        ELSE
        PUSH    AF
        ENDIF
        LD      L,(IX+F_LAST)
        LD      H,(IX+F_LAST+1)
        LD      (LASTMV),HL
        CALL    UNMK
        IF      BUILD == B_FULL
        POP     HL
        JP      .fm37
        ELSE
        POP     AF
        JR      .fm37
        ENDIF
.desc:  LD      (IX+F_MATE),1
        IF      BUILD == B_FULL
        XOR     A
        CALL    TTMOVE
        ENDIF
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (LASTMV),HL
        CALL    FLIP            ; the colour becomes White: the next move number
        OR      A
        JR      NZ,.d1
        LD      HL,MOVENO
        INC     (HL)
.d1:
        IF      BUILD == B_FULL
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
        ELSE
        LD      HL,SCORE        ; SCORE[n+1] = SCORE[n-1]
        LD      A,(IX+F_PLY)
        ADD     A,L
        LD      L,A
        DEC     L
        LD      A,(HL)
        INC     L
        INC     L
        LD      (HL),A
        ENDIF
        LD      A,(IX+F_PLY)
        INC     A
        CALL    SRCH
        IF      BUILD == B_FULL
        PUSH    HL
        ENDIF
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
        IF      BUILD == B_FULL
        POP     HL
        JP      NC,.next        ; cut off below: this move is refuted
.fm37:  EX      DE,HL           ; back up HL (the opponent's view), signed
        LD      A,(IX+F_PLY)
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
        JP      .cut
        ELSE
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
        ENDIF
.next:  JP      .loop
.end:   LD      A,(IX+F_MATE)
        OR      A
        IF      BUILD == B_FULL
        JR      Z,.end0
        CALL    TTEND           ; the node's value for the table
        JP      .done
.end0:
        ELSE
        JR      NZ,.done
        ENDIF
        LD      (IX+F_MATE),1   ; no legal move: mate or stalemate, fed in
        XOR     A               ; as if it were a move (no entry)
        LD      (IX+F_ENTRY),A
        LD      (IX+F_ENTRY+1),A
        LD      A,(IX+F_CHK)
        OR      A
        IF      BUILD == B_FULL
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
        ELSE
        LD      A,0FFh
        JR      NZ,.fm37
        LD      A,80h
        JR      .fm37
        ENDIF
.done:  CALL    .free
        IF      BUILD == B_FULL
        LD      A,(IX+F_PLY)
        CALL    SCADR
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        ELSE
        LD      HL,SCORE
        LD      A,(IX+F_PLY)
        ADD     A,L
        LD      L,A
        LD      A,(HL)
        ENDIF
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

; MKMOVE / UNMK: MOVE / UNMOVE the frame's entry; MKMOVE counts it.
MKMOVE: LD      HL,NNODE
        CALL    INC32
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        JP      MOVE
UNMK:   LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        JP      UNMOVE

; BOOK: the first move from the book, used when MOVENO = 1 (whatever the
; position, as in 1978). White: bit 0 of R picks 1.e4 or 1.d4. Black answers
; by the square White's first move came from: b1, g1, d2, f2, g2, h2 -> d5;
; a2, b2, c2, e2 -> e5.
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
; ---------------------------------------------------------------------------
CSRCH:  CALL    GETB
        LD      (SLEVEL),A
        CALL    GETB
        IF      BUILD == B_FULL
        BIT     1,A             ; timed (time.asm): iterating
        JR      Z,.fl
        SET     0,A
.fl:
        ENDIF
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
        IF      BUILD == B_FULL
        CALL    SELPRM          ; the opening's parameter block
        LD      HL,TTAGE        ; a new search: older entries may go first
        INC     (HL)
        CALL    TMSTART         ; time.asm: the clock, when timed
        CALL    PVRST           ; time.asm: no reply to ponder on yet
        CALL    PVSTART         ; pv.asm: no line yet
        XOR     A               ; no ply entered, no root move yet (RTNOTE)
        LD      (SELDEP),A
        LD      (ROOTN),A
        ENDIF
        CALL    PUTOK
        LD      A,(SFLAGS)
        RRCA
        LD      A,(SLEVEL)
        JR      NC,.once
        LD      A,1
.once:  LD      (ITDEP),A
.iter:  LD      A,(ITDEP)
        LD      (PLYMAX),A
        IF      BUILD == B_FULL
        CALL    TMITER          ; time.asm: this depth's limit
        CALL    ASPBEG          ; craft.asm: a window round the last score
.asp:   CALL    FNDMOV
        CALL    ASPCHK          ; failed high or low: again, full window
        JR      Z,.aspok
        LD      A,(ITDEP)
        LD      (PLYMAX),A
        JR      .asp
.aspok:
        ELSE
        CALL    FNDMOV
        ENDIF
        LD      A,(ABORT)
        OR      A
        JR      NZ,.stop
        LD      HL,(BESTM)
        CALL    KEEPBM
        IF      BUILD == B_FULL
        LD      HL,(BESTM)      ; a book move ends it (at move number 1 with
        LD      DE,BOOKE        ; a set of root moves, a search may answer)
        OR      A
        SBC     HL,DE
        JR      NZ,.nb
        ELSE
        LD      A,(MOVENO)      ; a book move ends it
        DEC     A
        JR      NZ,.nb
        ENDIF
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
        IF      BUILD == B_FULL
        CALL    PUTPV           ; pv.asm: its line
        CALL    TMNEXT          ; time.asm: time for another depth?
        JR      C,.fin
        ENDIF
        LD      A,(SLEVEL)
        LD      B,A
        LD      A,(ITDEP)
        CP      B
        JR      NC,.fin
        INC     A
        LD      (ITDEP),A
        JR      .iter
.stop:
        IF      BUILD == B_FULL
        CALL    TMSTOP          ; time.asm: a fail low's better move
        ENDIF
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
        IF      BUILD == B_FULL
        LD      (RSL0),HL       ; roots.asm: the list, for RSOK
        ENDIF
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
        IF      BUILD == B_FULL
        JR      Z,.nx
        PUSH    DE              ; roots.asm: a move of the set
        LD      DE,(RSL0)
        CALL    RSOK
        POP     DE
        JR      Z,.got
.nx:
        ELSE
        JR      NZ,.got
        ENDIF
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
        IF      BUILD == B_FULL
        CALL    PUTRP           ; time.asm: the reply to ponder on
        JP      PUTPV           ; pv.asm: the move's line
        ELSE
        RET
        ENDIF

; KEEPBM: BESTMV = from, to, promotion of the entry HL, and SCORE+1.
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
        IF      BUILD == B_FULL
        LD      HL,(SCOREW+2)
        LD      (BESTMV+3),HL
        CALL    PVKEEP          ; time.asm: its reply
        CALL    PVBEST          ; pv.asm: its line
        ELSE
        LD      A,(SCORE+1)
        LD      (BESTMV+3),A
        ENDIF
        RET

; PUTBM: send BESTMV (from to promo score; the full build's score is a word).
PUTBM:  LD      HL,BESTMV
        LD      B,BMLEN
.b:     LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    .b
        RET

; CMOVNO: 'O' n -> 00: set the move number (1 = the book plays).
CMOVNO: CALL    GETB
        LD      (MOVENO),A
        JP      PUTOK

        IF      BUILD == B_FULL
; RTNOTE: the root's move (the frame's entry, legal, in the set) is searched
; now: ROOTMV = it, ROOTN + 1. The host reads them between slices (UCI's
; currmove and currmovenumber); called at ply 1 only.   clobbers: A, HL
RTNOTE: LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      (ROOTMV),HL
        LD      HL,ROOTN
        INC     (HL)
        RET

; SCADR: HL = &SCOREW[A] (SCOREW lies in one page).   clobbers: A
SCADR:  ADD     A,A
        ADD     A,SCOREW & 0FFh
        LD      L,A
        LD      H,SCOREW >> 8
        RET
        ASSERT  (SCOREW & 0FFh) <= 0E0h, "SCOREW must not cross a page"

; CMPW: compare the signed words DE and HL: C = DE < HL, Z = equal.
;   keeps: DE, HL   clobbers: A, C
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
        ENDIF

        IF      BUILD == B_FULL
        INCLUDE "craft.asm"     ; issue #12: the table, aspiration
        INCLUDE "pv.asm"        ; issue #32: the principal variation
        INCLUDE "roots.asm"     ; issue #32: the root moves (searchmoves)
        ENDIF
