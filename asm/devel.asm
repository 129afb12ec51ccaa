; ===========================================================================
; devel.asm: DEVEL, POINTS' development term, the period builds' (in BRDC);
; the full build's, in words, is full/devel.asm.
; ===========================================================================

; DEVEL: add the development term of piece A to BRDC (White's view).
;   clobbers: A, B, HL
;   CALLED BY: POINTS
;   CALLS:     -
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
        LD      A,(MOVENO)
        CP      7
        RET     NC
        LD      A,-2
        JR      .add
.minor: BIT     3,B             ; not developed
        RET     NZ
        LD      A,-2
        JR      .add
.king:  LD      A,6
        BIT     4,B             ; castled
        JR      NZ,.add
        BIT     3,B             ; moved without castling
        RET     Z
        LD      A,-2
.add:   BIT     7,B
        JR      Z,.w
        NEG
.w:     LD      HL,BRDC
        ADD     A,(HL)
        LD      (HL),A
        RET
