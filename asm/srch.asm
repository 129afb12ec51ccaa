; ===========================================================================
; srch.asm: the period builds' FNDMOV and SRCH (one-byte scores); main.asm
; assembles it after search.asm. The full build has its own, with 16-bit
; scores and its search craft: full/search.asm.
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
; ===========================================================================

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
