; ===========================================================================
; movegen.asm: GENMOV, MPIECE, PAWNMV, CASTLE, ADMOVE, CALCEP.
;
; MOVE-LIST ENTRY: 6 bytes, in MLIST, the lists of all plies stacked.
;
;   +0,+1  link: address of the next entry of the list (0 = last)
;   +2     from square
;   +3     to square
;   +4     flags (below)
;   +5     score (0 from GENMOV; LEGALS writes 1 = legal, 0 = illegal)
;
;   FLAGS          7     6     5     4     3     2   1   0
;   ordinary    +-----+-----+-----+-----+-----+-----------+
;               |c.col|dbl  |  0  |first|c.mvd| capt.type |
;               +-----+-----+-----+-----+-----+-----------+
;   promotion   | promo.piece |  1  |first|c.mvd| capt.type |
;               +-----+-----+-----+-----+-----+-----------+
;   c.col, c.mvd, capt.type: colour, moved bit and type of the captured piece
;     (0 = no capture), so flags AND 8Fh is the captured piece's board byte;
;   dbl: castling (a king move) or en passant (a pawn move): MOVE also moves
;     the rook / removes the pawn beside;
;   first: the moving piece had not moved before (UNMOVE clears its bit again);
;   promo.piece: 00 queen, 01 rook, 10 bishop, 11 knight; the captured
;     piece's colour is then the opposite of the mover's.
; ===========================================================================

; Directions: diagonals, orthogonals (the queen and king use all 8), knight.
DIRS:   DB      9,11,-11,-9
        DB      10,-10,1,-1
KNDIRS: DB      -21,-12,8,19,21,12,-8,-19

; GENMOV: the pseudo-legal moves of the side COLOR into a new list at MLNXT.
; Castling is complete (squares empty, not in, through or into check); the
; other moves may leave the king in check: callers test with MOVE and INCHK.
; Order: squares a1..h8, then the direction table, then ray distance.
;   out: HL = first entry, DE = MLNXT = one past the last (HL = DE: none);
;        OVFLW <> 0 if MLIST overflowed
;   clobbers: all, the alternate set, IY
;   CALLED BY: LEGALS, PERFT, QNODE (full), SRCH
;   CALLS:     CALCEP, MPIECE
GENMOV: CALL    CALCEP
        LD      (EPT),A
        LD      HL,(MLNXT)
        PUSH    HL
        EXX
        LD      HL,(MLNXT)      ; HL' = write pointer
        LD      DE,LNKDUM       ; DE' = the cell that links to the next entry
        EXX
        LD      H,BPAGE
        LD      L,SQ_A1
.sq:    LD      A,(HL)
        OR      A
        JR      Z,.next
        CP      OFFB
        JR      Z,.next
        LD      D,A
        LD      A,(COLOR)
        XOR     D
        JP      M,.next
        LD      C,L
        CALL    MPIECE
        LD      H,BPAGE
        LD      L,C
.next:  INC     L
        LD      A,L
        CP      SQ_H8+1
        JR      C,.sq
        EXX
        LD      (MLNXT),HL
        EXX
        LD      DE,(MLNXT)
        POP     HL
        RET

; MPIECE: the moves of the piece D standing on square C.
;   in: C = from, D = piece byte, H = BPAGE   clobbers: A, B, E, L, IY
;   CALLED BY: GENMOV
;   CALLS:     ADMOVE, CASTLE, PAWNMV, STEPS
MPIECE: LD      A,C
        EXX
        LD      C,A             ; C' = from, for ADMOVE
        EXX
        LD      A,D
        AND     7
        CP      PAWN
        JP      Z,PAWNMV
        CP      KNIGHT
        JR      Z,.kn
        CP      KING
        JR      Z,.kg
        LD      IY,DIRS         ; bishop: 4 diagonals
        LD      B,4
        CP      BISHOP
        JR      Z,.slide
        LD      B,8             ; queen: all 8
        CP      QUEEN
        JR      Z,.slide
        LD      IY,DIRS+4       ; rook: 4 orthogonals
        LD      B,4
.slide: LD      E,(IY+0)
        LD      L,C
.ray:   LD      A,L
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      NZ,.block
        CALL    ADMOVE
        JR      .ray
.block: INC     A
        JR      Z,.snext        ; off the board
        DEC     A
        XOR     D
        JP      P,.snext        ; own piece
        XOR     D
        CALL    ADMOVE          ; capture ends the ray
.snext: INC     IY
        DJNZ    .slide
        RET
.kn:    LD      IY,KNDIRS
        LD      B,8
        JP      STEPS
.kg:    LD      IY,DIRS
        LD      B,8
        CALL    STEPS
        JP      CASTLE

; STEPS: one step in each of B directions at IY (knight, king).
;   in: C = from, D = piece, H = BPAGE   clobbers: A, B, L, IY
;   CALLED BY: MPIECE
;   CALLS:     ADMOVE
STEPS:  LD      A,C
        ADD     A,(IY+0)
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.add
        INC     A
        JR      Z,.next
        DEC     A
        XOR     D
        JP      P,.next
        XOR     D
.add:   CALL    ADMOVE
.next:  INC     IY
        DJNZ    STEPS
        RET

; PAWNMV: pushes (single, double from an unmoved pawn), captures, en passant
; (to EPT), promotions (PADD).
;   in: C = from, D = pawn, H = BPAGE   clobbers: A, B, E, L
;   CALLED BY: MPIECE
;   CALLS:     ADMOVE, PADD, PCAP
PAWNMV: LD      E,10
        BIT     7,D
        JR      Z,.w
        LD      E,-10
.w:     LD      A,C
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      NZ,.caps
        CALL    PADD
        BIT     3,D
        JR      NZ,.caps
        LD      A,L
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        CALL    Z,ADMOVE        ; a double step is never a promotion
.caps:  LD      A,C
        ADD     A,E
        DEC     A
        LD      L,A
        CALL    PCAP
        LD      A,C
        ADD     A,E
        INC     A
        LD      L,A
        ; fall into PCAP

; PCAP: a pawn capture to square L, or en passant when L = EPT.
;   CALLED BY: PAWNMV
;   CALLS:     ADMOVE, PADD
PCAP:   LD      A,(HL)
        OR      A
        JR      Z,.ep
        INC     A
        RET     Z
        DEC     A
        XOR     D
        RET     P
        XOR     D
        JR      PADD
.ep:    LD      A,(EPT)
        CP      L
        RET     NZ
        SUB     E               ; the pawn that passed stands behind
        LD      L,A
        LD      B,(HL)
        ADD     A,E
        LD      L,A
        LD      A,B
        OR      40h             ; en passant: a double move
        JP      ADMOVE

; PADD: a pawn move to L with A = captured byte; to the last rank it is four
; moves (queen, rook, bishop, knight; only the queen in the 1978 build).
;   clobbers: A, B
;   CALLED BY: PAWNMV, PCAP
;   CALLS:     ADMOVE
PADD:   LD      B,A
        LD      A,L
        CP      SQ_A8
        JR      NC,.promo
        CP      SQ_A1+8
        LD      A,B
        JR      C,.promo
        JP      ADMOVE
.promo: LD      A,B
        AND     0Fh
        OR      20h
        LD      B,A
        CALL    ADMOVE          ; 00: queen
        IF      BUILD != B_1978
        LD      A,B
        OR      40h
        CALL    ADMOVE          ; 01: rook
        LD      A,B
        OR      80h
        CALL    ADMOVE          ; 10: bishop
        LD      A,B
        OR      0C0h
        CALL    ADMOVE          ; 11: knight
        ENDIF
        RET

; CASTLE: castling moves of the king D on square C: it and the rook have
; never moved, the king stands on e1/e8, the squares between are empty, and
; the king is not in check and crosses no attacked square.
;   clobbers: A, B, E, L
;   CALLED BY: MPIECE
;   CALLS:     ADMOVE, SQATK
CASTLE: BIT     3,D
        RET     NZ
        LD      A,D
        AND     BLACK
        LD      B,A             ; B = own colour
        LD      A,SQ_E1
        JR      Z,.w
        LD      A,SQ_E8
.w:     CP      C
        RET     NZ
        LD      A,B
        XOR     BLACK
        LD      E,A             ; E = the enemy, for SQATK
        LD      L,C
        CALL    SQATK
        RET     NZ              ; in check
        ; king's side: f, g empty, an unmoved rook on h
        LD      L,C
        INC     L
        LD      A,(HL)
        INC     L
        OR      (HL)
        JR      NZ,.qs
        INC     L
        LD      A,B
        OR      ROOK
        CP      (HL)
        JR      NZ,.qs
        LD      L,C
        INC     L
        CALL    SQATK
        JR      NZ,.qs
        INC     L
        CALL    SQATK
        JR      NZ,.qs
        LD      A,40h
        CALL    ADMOVE
        ; queen's side: d, c, b empty, an unmoved rook on a
.qs:    LD      L,C
        DEC     L
        LD      A,(HL)
        DEC     L
        OR      (HL)
        DEC     L
        OR      (HL)
        RET     NZ
        DEC     L
        LD      A,B
        OR      ROOK
        CP      (HL)
        RET     NZ
        LD      L,C
        DEC     L
        CALL    SQATK
        RET     NZ
        DEC     L
        CALL    SQATK
        RET     NZ
        LD      A,40h
        JP      ADMOVE

; ADMOVE: append an entry: from = C', to = L, flags = A (+ "first" when the
; piece D has not moved), score 0, linked from the previous entry.
;   in: A, L, D; HL' = write pointer, DE' = previous link cell, C' = from
;   out: HL' advanced, DE' = this entry   clobbers: A, A' (main B-L kept)
;   cost: 196 T (moved piece), 203 T (unmoved)
;   CALLED BY: CASTLE, MPIECE, PADD, PAWNMV, PCAP, STEPS
;   CALLS:     -
ADMOVE: BIT     3,D
        JR      NZ,.m
        OR      10h
.m:     EX      AF,AF'
        LD      A,L
        EXX
        EX      DE,HL
        LD      (HL),E          ; previous -> this
        INC     HL
        LD      (HL),D
        EX      DE,HL
        LD      D,H
        LD      E,L
        LD      (HL),0          ; link: last for now
        INC     HL
        LD      (HL),0
        INC     HL
        LD      (HL),C          ; from
        INC     HL
        LD      (HL),A          ; to
        INC     HL
        EX      AF,AF'
        LD      (HL),A          ; flags
        INC     HL
        LD      (HL),0          ; score
        INC     HL
        LD      A,H
        CP      MLENDH
        JR      NC,.ovf
        EXX
        RET
.ovf:   LD      A,1             ; full: keep overwriting this last slot
        LD      (OVFLW),A
        LD      H,D
        LD      L,E
        LD      DE,LNKDUM
        EXX
        RET

; CALCEP: the en-passant target of the position: the square a pawn passed
; over if the last move (LASTMV) was its double step, else 0.
;   out: A   clobbers: F, DE, HL
;   CALLED BY: CBOARD, GENMOV
;   CALLS:     -
CALCEP: LD      HL,(LASTMV)
        INC     HL
        INC     HL
        LD      E,(HL)          ; from
        INC     HL
        LD      D,(HL)          ; to
        INC     HL
        BIT     4,(HL)          ; the piece's first move?
        JR      Z,.none
        LD      H,BPAGE
        LD      L,D
        LD      A,(HL)
        AND     7
        CP      PAWN
        JR      NZ,.none
        LD      A,D
        SUB     E
        CP      20
        JR      Z,.yes
        CP      -20 & 0FFh
        JR      NZ,.none
.yes:   LD      A,D
        ADD     A,E
        RRA
        RET
.none:  XOR     A
        RET
