; ===========================================================================
; make.asm: MOVE and UNMOVE, playing and taking back one move-list entry.
; Between them the board, POSK and POSQ return to the same bytes (and, in
; the full build, the pawns' key PKEY: pawnhash.asm).
; ===========================================================================

; MOVE: play the entry at HL.
;   in: HL = entry   clobbers: A, BC, DE, HL
;   The piece gets its moved bit; a promotion replaces the pawn; castling also
;   moves the rook and sets the king's castled bit; en passant clears the pawn
;   passed; POSK/POSQ follow kings and queens (a captured queen's POSQ = 0).
;   CALLED BY: CMOVE, EVAL, LEGALS, MKMOVE, PERFT
;   CALLS:     PKMOVE (full)
MOVE:   INC     HL
        INC     HL
        LD      C,(HL)          ; C = from
        INC     HL
        LD      E,(HL)          ; E = to
        INC     HL
        LD      B,(HL)          ; B = flags
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        LD      (HL),0
        OR      MOVED
        LD      D,A             ; D = the piece, moved
        IF      BUILD == B_FULL
        CALL    PKMOVE          ; the pawns' key (pawnhash.asm)
        LD      A,D
        ENDIF
        LD      L,E
        BIT     5,B
        JR      NZ,.promo
        LD      (HL),A
        AND     7
        CP      KING
        JR      Z,.king
        CP      QUEEN
        JR      Z,.queen
        CP      PAWN
        JR      NZ,.capq
        BIT     6,B
        JR      Z,.capq
        ; en passant: the pawn passed stands behind the to-square
        LD      A,E
        SUB     10
        BIT     7,D
        JR      Z,.ep
        ADD     A,20
.ep:    LD      L,A
        LD      (HL),0
        RET
.capq:  LD      A,B             ; a captured queen leaves POSQ
        AND     7
        CP      QUEEN
        RET     NZ
        LD      HL,POSQ
        BIT     7,B
        JR      Z,.cq
        INC     HL
.cq:    LD      (HL),0
        RET
.queen: LD      HL,POSQ
        BIT     7,D
        JR      Z,.q
        INC     HL
.q:     LD      (HL),E
        JR      .capq
.king:  LD      HL,POSK
        BIT     7,D
        JR      Z,.k
        INC     HL
.k:     LD      (HL),E
        BIT     6,B
        JR      Z,.capq
        ; castling: the king is castled, the rook jumps over it
        LD      H,BPAGE
        LD      L,E
        SET     4,(HL)
        LD      A,E
        CP      C
        JR      C,.long
        LD      L,C             ; short: h -> f
        INC     L
        INC     L
        INC     L
        LD      A,(HL)
        LD      (HL),0
        DEC     L
        DEC     L
        OR      MOVED
        LD      (HL),A
        RET
.long:  LD      A,C             ; long: a -> d
        SUB     4
        LD      L,A
        LD      A,(HL)
        LD      (HL),0
        INC     L
        INC     L
        INC     L
        OR      MOVED
        LD      (HL),A
        RET
.promo: LD      A,B             ; type = QUEEN - the 2-bit code in flags 7..6
        RLCA
        RLCA
        AND     3
        LD      C,A
        LD      A,QUEEN
        SUB     C
        LD      C,A
        LD      A,D
        AND     BLACK|MOVED
        OR      C
        LD      (HL),A
        LD      A,B             ; captured a queen? It was the other colour
        AND     7
        CP      QUEEN
        RET     NZ
        LD      HL,POSQ
        BIT     7,D
        JR      NZ,.pq
        INC     HL
.pq:    LD      (HL),0
        RET

; UNMOVE: take back the entry at HL (the position must be the one MOVE left).
;   in: HL = entry   clobbers: A, BC, DE, HL
;   CALLED BY: CUNDO, EVAL, LEGALS, PERFT, SRCH (full), UNMK
;   CALLS:     PKMOVE (full)
UNMOVE: INC     HL
        INC     HL
        LD      C,(HL)          ; C = from
        INC     HL
        LD      E,(HL)          ; E = to
        INC     HL
        LD      B,(HL)          ; B = flags
        LD      H,BPAGE
        LD      L,E
        LD      D,(HL)          ; D = the piece on the to-square
        IF      BUILD == B_FULL
        CALL    PKMOVE          ; the pawns' key (pawnhash.asm)
        ENDIF
        BIT     5,B
        JR      NZ,.promo
        LD      A,B
        AND     8Fh             ; the captured piece (or 0)
        BIT     6,B
        JR      Z,.put
        LD      A,D
        AND     7
        CP      PAWN
        JR      Z,.ep
        ; castling: the king loses its castled bit, the rook goes home unmoved
        RES     4,D
        LD      (HL),0
        LD      A,E
        CP      C
        JR      C,.long
        LD      L,C             ; short: f -> h
        INC     L
        LD      A,(HL)
        LD      (HL),0
        INC     L
        INC     L
        AND     ~MOVED
        LD      (HL),A
        JR      .piece
.long:  LD      L,C             ; long: d -> a
        DEC     L
        LD      A,(HL)
        LD      (HL),0
        DEC     L
        DEC     L
        DEC     L
        AND     ~MOVED
        LD      (HL),A
        JR      .piece
.ep:    LD      (HL),0          ; the to-square was empty
        LD      A,E
        SUB     10
        BIT     7,D
        JR      Z,.e
        ADD     A,20
.e:     LD      L,A
        LD      A,B
        AND     8Fh
.put:   LD      (HL),A
.piece: BIT     4,B             ; first move: the piece is unmoved again
        JR      Z,.p
        RES     3,D
.p:     LD      L,C
        LD      (HL),D
        LD      A,D
        AND     7
        CP      KING
        JR      Z,.king
        CP      QUEEN
        JR      Z,.queen
.capq:  LD      A,B             ; a captured queen is back in POSQ
        AND     7
        CP      QUEEN
        RET     NZ
        LD      HL,POSQ
        BIT     7,B
        JR      Z,.cq
        INC     HL
.cq:    LD      (HL),E
        RET
.king:  LD      HL,POSK
        BIT     7,D
        JR      Z,.k
        INC     HL
.k:     LD      (HL),C
        JR      .capq
.queen: LD      HL,POSQ
        BIT     7,D
        JR      Z,.q
        INC     HL
.q:     LD      (HL),C
        JR      .capq
.promo: LD      A,D             ; the pawn returns
        AND     BLACK
        OR      MOVED|PAWN
        BIT     4,B
        JR      Z,.pp
        AND     ~MOVED
.pp:    LD      L,C
        LD      (HL),A
        LD      A,B             ; the captured piece, of the other colour
        AND     0Fh
        JR      Z,.pc
        LD      L,A
        LD      A,D
        AND     BLACK
        XOR     BLACK
        OR      L
.pc:    LD      L,E
        LD      (HL),A
        LD      A,B
        AND     7
        CP      QUEEN
        RET     NZ
        LD      HL,POSQ
        BIT     7,D
        JR      NZ,.pq
        INC     HL
.pq:    LD      (HL),E
        RET
