; ===========================================================================
; perft.asm: legal moves (LEGALS), the game commands that use them, and PERFT.
; ===========================================================================

PMAXD   EQU     12              ; deepest perft the firmware accepts

; LEGALS: generate the position's moves and mark each: score byte 1 = legal,
; 0 = leaves the mover's king in check. NLEGAL = the number of legal moves.
;   out: HL = first entry, DE = one past the last   clobbers: all
;   CALLED BY: CLIST, CMOVE, CROOT (full), CSRCH, CSTAT, RSBOOK (full)
;   CALLS:     GENMOV, INCHK, MOVE, UNMOVE
LEGALS: CALL    GENMOV
        XOR     A
        LD      (NLEGAL),A
        PUSH    HL
.next:  LD      A,L
        CP      E
        JR      NZ,.one
        LD      A,H
        CP      D
        JR      Z,.done
.one:   PUSH    DE
        PUSH    HL
        CALL    MOVE
        LD      A,(COLOR)
        CALL    INCHK
        LD      A,0
        JR      NZ,.mark
        LD      HL,NLEGAL
        INC     (HL)
        INC     A
.mark:  POP     HL
        PUSH    HL
        LD      DE,5
        ADD     HL,DE
        LD      (HL),A
        POP     HL
        PUSH    HL
        CALL    UNMOVE
        POP     HL
        LD      DE,6
        ADD     HL,DE
        POP     DE
        JR      .next
.done:  POP     HL
        RET

; PROMOT: the promotion piece of the entry at HL (0 = not a promotion).
;   out: A   clobbers: F
;   CALLED BY: BRFRONT (full), BRNOTE (full), CLIST, CMOVE, KEEPBM,
;              PVNOTE (full), PVSET (full), RSFIND (full), TMFRONT (full),
;              TTPRB (full), TTSTO (full)
;   CALLS:     -
PROMOT: PUSH    HL
        INC     HL
        INC     HL
        INC     HL
        INC     HL
        LD      A,(HL)
        POP     HL
        BIT     5,A
        JR      Z,.no
        RLCA
        RLCA
        AND     3
        NEG
        ADD     A,QUEEN
        RET
.no:    XOR     A
        RET

; CLIST: 'L' -> 00 n (from to promo)*n
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     LEGALS, OVFCHK, PROMOT, PUTB, PUTOK
CLIST:  CALL    LEGALS
        PUSH    DE
        PUSH    HL
        CALL    OVFCHK
        CALL    PUTOK
        LD      A,(NLEGAL)
        CALL    PUTB
        POP     HL
        POP     DE
.next:  LD      A,L
        CP      E
        JR      NZ,.one
        LD      A,H
        CP      D
        RET     Z
.one:   PUSH    HL
        INC     HL
        INC     HL
        LD      B,(HL)          ; from
        INC     HL
        LD      C,(HL)          ; to
        INC     HL
        INC     HL
        LD      A,(HL)          ; score: legal?
        POP     HL
        OR      A
        JR      Z,.skip
        LD      A,B
        CALL    PUTB
        LD      A,C
        CALL    PUTB
        CALL    PROMOT
        CALL    PUTB
.skip:  LD      BC,6
        ADD     HL,BC
        JR      .next

; OVFCHK: fail the command if a move list overflowed.
;   CALLED BY: CLIST, CMOVE, CPERFT, CROOT (full), CSTAT
;   CALLS:     CMDERR
OVFCHK: LD      A,(OVFLW)
        OR      A
        RET     Z
        LD      A,EOVFLW
        JP      CMDERR

; CSTAT: 'K' -> 00 incheck nlegal
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     INCHK, LEGALS, OVFCHK, PUTB, PUTOK
CSTAT:  CALL    LEGALS
        CALL    OVFCHK
        CALL    PUTOK
        LD      A,(COLOR)
        CALL    INCHK
        CALL    PUTB            ; A = 1 in check, 0 not
        LD      A,(NLEGAL)
        JP      PUTB

; CMOVE: 'M' from to promo -> 00; the move is kept in HIST for 'U'.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CMDERR, FLIP, GETB, GHMOVE (full), GHPUSH (full), LEGALS, MOVE,
;              OVFCHK, PROMOT, PUTOK, RSCLR (full)
CMOVE:  CALL    GETB
        LD      (ARG),A
        CALL    GETB
        LD      (ARG+1),A
        CALL    GETB
        LD      (ARG+2),A
        CALL    LEGALS
        CALL    OVFCHK
.next:  LD      A,L
        CP      E
        JR      NZ,.one
        LD      A,H
        CP      D
        LD      A,ENOMOVE
        JP      Z,CMDERR
.one:   PUSH    HL
        INC     HL
        INC     HL
        LD      A,(ARG)
        CP      (HL)
        JR      NZ,.skip
        INC     HL
        LD      A,(ARG+1)
        CP      (HL)
        JR      NZ,.skip
        POP     HL
        CALL    PROMOT
        PUSH    HL
        LD      B,A
        LD      A,(ARG+2)
        CP      B
        JR      Z,.found
.skip:  POP     HL
        LD      BC,6
        ADD     HL,BC
        JR      .next
.found: POP     HL
        PUSH    HL
        LD      BC,5
        ADD     HL,BC
        LD      A,(HL)
        POP     HL
        OR      A
        LD      A,EINCHK
        JP      Z,CMDERR
        LD      DE,(HISTP)
        LD      A,D
        CP      HISTEND >> 8
        LD      A,EHFULL
        JP      NC,CMDERR
        IF      BUILD == B_FULL
        PUSH    HL              ; the position left, into the game's history
        CALL    GHPUSH          ; (draw.asm)
        POP     HL
        LD      DE,(HISTP)
        ENDIF
        PUSH    DE
        LD      BC,6
        LDIR                    ; the entry, into the history
        LD      (HISTP),DE
        POP     HL
        LD      (LASTMV),HL
        CALL    MOVE
        IF      BUILD == B_FULL
        CALL    GHMOVE          ; the halfmove clock (draw.asm)
        CALL    RSCLR           ; a new position: every root move (roots.asm)
        ENDIF
        CALL    FLIP
        OR      A               ; Black has moved: the next move number
        JP      NZ,PUTOK
        LD      HL,MOVENO
        INC     (HL)
        JP      PUTOK

; FLIP: the other side is to move.   out: A = COLOR, Z = White   clobbers: HL
;   CALLED BY: CEVAL, CMOVE, CUNDO, PERFT, QNODE (full), SRCH
;   CALLS:     -
FLIP:   LD      HL,COLOR
        LD      A,(HL)
        XOR     BLACK
        LD      (HL),A
        RET

; CUNDO: 'U' -> 00: take back the last move of HIST.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CMDERR, FLIP, GHPOP (full), PUTOK, RSCLR (full), UNMOVE
CUNDO:  LD      HL,(HISTP)
        LD      DE,HIST
        OR      A
        SBC     HL,DE
        LD      A,ENOUNDO
        JP      Z,CMDERR
        LD      HL,(HISTP)
        LD      DE,-6
        ADD     HL,DE
        LD      (HISTP),HL
        PUSH    HL
        CALL    UNMOVE
        CALL    FLIP
        OR      A               ; Black's move taken back: the move number before
        JR      Z,.w
        LD      HL,MOVENO
        DEC     (HL)
.w:     POP     HL              ; the new last move: the entry before, or SETDUM
        LD      DE,HIST
        OR      A
        SBC     HL,DE
        LD      HL,SETDUM
        JR      Z,.set
        LD      HL,(HISTP)
        LD      DE,-6
        ADD     HL,DE
.set:   LD      (LASTMV),HL
        IF      BUILD == B_FULL
        CALL    GHPOP           ; the game's history (draw.asm)
        CALL    RSCLR           ; a new position: every root move (roots.asm)
        ENDIF
        JP      PUTOK

; CPERFT: 'P' depth -> 00 count(4, LE)
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CMDERR, GETB, OVFCHK, PERFT, PUTB, PUTOK
CPERFT: CALL    GETB
        CP      PMAXD+1
        LD      B,A
        LD      A,EDEPTH
        JP      NC,CMDERR
        LD      HL,0
        LD      (CNT),HL
        LD      (CNT+2),HL
        LD      A,B
        OR      A
        JR      NZ,.run
        LD      A,1             ; depth 0: one path, the empty one
        LD      (CNT),A
        JR      .out
.run:   CALL    PERFT
        CALL    OVFCHK
.out:   CALL    PUTOK
        LD      HL,CNT
        LD      B,4
.b:     LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    .b
        RET

; PERFT: add to CNT the number of legal move sequences of length B.
;   in: B = depth >= 1   clobbers: all
;   Each level keeps its list in MLIST and frees it on return. If a list
;   overflows MLIST or the stack reaches STKLIM, OVFLW is set and every level
;   stops and unwinds, taking back each move it made: the command fails and
;   the position is intact.
;   CALLED BY: CPERFT
;   CALLS:     FLIP, GENMOV, INCHK, MOVE, UNMOVE
PERFT:  LD      HL,-STKLIM
        ADD     HL,SP
        JR      C,.room
        LD      A,2
        LD      (OVFLW),A
        RET
.room:  PUSH    BC
        CALL    GENMOV          ; HL = first entry, DE = end
        POP     BC
        PUSH    HL              ; the list's start, freed at .done
.next:  LD      A,(OVFLW)       ; after an overflow the count is void: unwind
        OR      A
        JR      NZ,.done
        LD      A,L
        CP      E
        JR      NZ,.one
        LD      A,H
        CP      D
        JR      Z,.done
.one:   PUSH    DE
        PUSH    HL
        PUSH    BC
        CALL    MOVE
        LD      A,(COLOR)
        CALL    INCHK
        POP     BC
        JR      NZ,.undo        ; illegal: the mover's king is attacked
        LD      A,B
        DEC     A
        JR      NZ,.deep
        LD      HL,CNT          ; a leaf
        INC     (HL)
        JR      NZ,.undo
        INC     HL
        INC     (HL)
        JR      NZ,.undo
        INC     HL
        INC     (HL)
        JR      NZ,.undo
        INC     HL
        INC     (HL)
        JR      .undo
.deep:  POP     HL              ; the entry becomes LASTMV for the level below
        PUSH    HL
        LD      DE,(LASTMV)
        PUSH    DE
        LD      (LASTMV),HL
        CALL    FLIP
        PUSH    BC
        DEC     B
        CALL    PERFT
        POP     BC
        CALL    FLIP
        POP     DE
        LD      (LASTMV),DE
.undo:  POP     HL
        PUSH    HL
        PUSH    BC
        CALL    UNMOVE
        POP     BC
        POP     HL
        LD      DE,6
        ADD     HL,DE
        POP     DE
        JR      .next
.done:  POP     HL
        LD      (MLNXT),HL
        RET
