; ===========================================================================
; book.asm: MKMOVE and UNMK (the search's make and unmake) and BOOK, the
; opening book (every build).
; ===========================================================================

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
