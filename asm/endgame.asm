; ===========================================================================
; endgame.asm (full build only): John White's End-Game evaluation, Table 1
; (issue #14), for positions with only kings and pawns. NOT WRITTEN YET:
; EGEVAL returns 0 and KPNT is 0 until its terms are built.
; ===========================================================================

KPNT    EQU     0               ; End-Game's terms, BK_EG0.. (vars.asm)

; EGEVAL: HL = End-Game's terms' sum (White's view), each in BRKDN.
EGEVAL: LD      HL,0
        RET
