; ===========================================================================
; search.asm: the search's frame and variables, EVAL and SORTM (every build).
; The rest of the search, in main.asm's order: srch.asm (the period builds'
; FNDMOV and SRCH: full-width alpha-beta to PLYMAX with a one-ply check
; extension), book.asm (MKMOVE, UNMK, BOOK), csrch.asm (the period builds'
; search command CSRCH, KEEPBM), putbm.asm (PUTBM, CMOVNO). The full build
; shares EVAL, SORTM, MKMOVE, UNMK, BOOK, PUTBM and CMOVNO and has its own
; FNDMOV, SRCH, CSRCH and KEEPBM, with 16-bit scores: full/search.asm.
;
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
