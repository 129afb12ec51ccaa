; ===========================================================================
; full/devel.asm: DEVEL, POINTS' development term in the full build: in
; words from the parameter block (P_DV...), into DEVW; in place of devel.asm.
; ===========================================================================

; DEVEL: add the development term of piece A to DEVW (White's view), in
; words from the parameter block.
;   clobbers: A, B, HL
;   CALLED BY: POINTS
;   CALLS:     NEGHL
DEVEL:  LD      B,A
        AND     7
        CP      KNIGHT
        JR      Z,.minor
        CP      BISHOP
        JR      Z,.minor
        CP      KING
        JR      Z,.king
        CP      ROOK
        JR      Z,.major
        CP      QUEEN
        RET     NZ
.major: BIT     3,B             ; moved early
        RET     Z
        LD      A,(P_DVMNO)
        LD      HL,MOVENO
        CP      (HL)
        RET     C
        RET     Z
        LD      HL,(P_DVMAJ)
        JR      .addw
.minor: BIT     3,B             ; not developed
        RET     NZ
        LD      HL,(P_DVMIN)
        JR      .addw
.king:  LD      HL,(P_DVCAS)
        BIT     4,B             ; castled
        JR      NZ,.addw
        BIT     3,B             ; moved without castling
        RET     Z
        LD      HL,(P_DVKMV)
.addw:  BIT     7,B             ; DEVW += +-weight
        CALL    NZ,NEGHL
        PUSH    DE
        EX      DE,HL
        LD      HL,(DEVW)
        ADD     HL,DE
        LD      (DEVW),HL
        POP     DE
        RET
        ; Not reached: the period builds' ending, which the full build has
        ; always assembled here (its ROM keeps the bytes).
.add:   BIT     7,B
        JR      Z,.w
        NEG
.w:     LD      HL,BRDC
        ADD     A,(HL)
        LD      (HL),A
        RET
