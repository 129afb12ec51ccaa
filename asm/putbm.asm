; ===========================================================================
; putbm.asm: PUTBM, the search command's move, and CMOVNO, the 'O' command
; (every build).
; ===========================================================================

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
