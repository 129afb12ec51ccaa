; ===========================================================================
; draw.asm (full build only): the game's history and draw scores by ply
; (the search craft), after the seed's "Draw Scoring". Switched by
; P_FLAGS bit 2; with it clear nothing here changes a score.
;
; THE GAME'S HISTORY: every move the host plays with 'M' first appends the
; key (ZKEY, craft.asm) of the position it leaves and that position's
; halfmove clock to GHLIST; a pawn move, capture or promotion zeroes the
; clock GHCLK (nothing before it can recur: every scan stops where the clock
; does), any other move counts it up. The entries stay, so that 'U' takes
; the last one back with its clock, irreversible move or not, and the
; history is what it was before the move (a GUI's or a ponderer's take-back
; sees the same repetitions). 'N', 'S' and reset empty it; 'H' n sets the
; clock of a set-up position (the FEN's halfmove field). GHLIST keeps the
; last GHMAX positions (the 50-move rule needs no more).
;
; IN THE SEARCH (SRCH, after GENMOV, before the table's probe): every node
; keys its position (DPLY[ply]: key, clock, the draw count on entry). A node
; below the root is a draw when its clock reaches 100 plies, or when its key
; equals that of a position with the same side to move, no further back
; than its clock reaches: on the search path (plies n-2, n-4, ...) or in the
; game's history. A first repetition is a draw (the engine cannot tell the
; opponent's intention to repeat again).
;
; DRAW SCORES BY PLY: a draw at ply n scores min(n, P_DRAWW) for the engine
; (the side to move at the root): inside the reserved window 0..P_DRAWW (the
; seed's 0-100 with its pawn of 1,000: about 0.1 pawn), and POINTS moves every
; score that is positive for the engine up by P_DRAWW (DSHIFT), so that any
; real advantage beats any draw, and a draw beats any real disadvantage.
; "Positive" is the position's own value: the search's scores are measured
; from the root's material and board control (MV0W, BC0W), so a draw's score
; is min(n, P_DRAWW) minus the root's value (ROOTV), and DSHIFT adds the
; root's value back before it looks at the sign. So
; the engine behind takes a draw, takes the longest drawing line (the later
; the draw, the higher its score: the opponent has more moves to go wrong),
; and ahead steps round a first repetition. Stalemate stays 0 (a property of
; the position: the table may keep it).
;
; DRAWS AND THE TABLE: a draw by repetition or the 50-move rule depends on
; the path. The test comes before the table's probe, so a stored score never
; hides a repetition, and a node below which any path draw was scored (the
; draw count DRWCNT moved since the node began) is not stored (TTEND, TTBETA
; ask DRTNT): a path's draw score never enters the table to be found on
; another path (Slate and Atkin's rule, as the seed quotes it).
;
; MEMORY: F200h-F5FFh of the expansion RAM (below).
; ===========================================================================

GHVARS  EQU     0F200h
GHN     EQU     GHVARS+00h      ; 1  positions in GHLIST
GHCLK   EQU     GHVARS+01h      ; 1  the halfmove clock of the position now
DRWCNT  EQU     GHVARS+02h      ; 2  draws scored by the search (wraps)
GHLIST  EQU     GHVARS+10h      ; GHMAX * 5: key (4), its clock (1)
GHMAX   EQU     100
GHSIZE  EQU     5
DPLY    EQU     0F500h          ; per ply (8 bytes, ply 0..31): key (4),
                                ; clock (1), DRWCNT on entry (2)
        ASSERT  GHLIST + GHMAX * GHSIZE <= DPLY, "GHLIST runs into DPLY"

; GHCLR: an empty history, clock 0 (reset, 'N', 'S'); a new game or position
; also lifts the set of root moves (roots.asm).   clobbers: A
;   CALLED BY: CMDERR, CSETUP, GHPOP, START
;   CALLS:     -
GHCLR:  XOR     A
        LD      (GHN),A
        LD      (GHCLK),A
        LD      (RSON),A
        RET

; GHPUSH: append the position about to be left (its key needs EPT as
; LEGALS/GENMOV left it) and its clock; a full list drops its oldest.
;   clobbers: all but IX   cost: about 8,000 T
;   CALLED BY: CMOVE
;   CALLS:     GHADR, ZKEY
GHPUSH: LD      A,(GHN)
        CP      GHMAX
        JR      C,.room
        LD      HL,GHLIST+GHSIZE
        LD      DE,GHLIST
        LD      BC,(GHMAX-1)*GHSIZE
        LDIR
        LD      A,GHMAX-1
        LD      (GHN),A
.room:  CALL    ZKEY
        LD      A,(GHN)
        CALL    GHADR
        EX      DE,HL
        LD      HL,TTK
        LD      BC,4
        LDIR
        LD      A,(GHCLK)
        LD      (DE),A
        LD      HL,GHN
        INC     (HL)
        RET

; GHADR: HL = GHLIST + 5A.   clobbers: A, DE
;   CALLED BY: DRAWCK, GHPOP, GHPUSH
;   CALLS:     -
GHADR:  LD      L,A
        LD      H,0
        LD      D,H
        LD      E,L
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,DE
        LD      DE,GHLIST
        ADD     HL,DE
        RET

; GHMOVE: after 'M' played LASTMV's entry: the clock.   clobbers: A, B, HL
;   CALLED BY: CMOVE
;   CALLS:     IRREV
GHMOVE: CALL    IRREV
        LD      HL,GHCLK
        JR      NC,.rev
        LD      (HL),0          ; irreversible: the clock starts again
        RET
.rev:   INC     (HL)
        RET     NZ
        DEC     (HL)            ; (kept at 255)
        RET

; GHPOP: 'U' took a move back: its position's entry and clock.
;   clobbers: A, DE, HL
;   CALLED BY: CUNDO
;   CALLS:     GHADR, GHCLR
GHPOP:  LD      A,(GHN)
        OR      A
        JR      Z,GHCLR
        DEC     A
        LD      (GHN),A
        CALL    GHADR
        LD      DE,4
        ADD     HL,DE
        LD      A,(HL)
        LD      (GHCLK),A
        RET

; CHALF: 'H' n -> 00: the halfmove clock of the position set up.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     GETB, PUTOK
CHALF:  CALL    GETB
        LD      (GHCLK),A
        JP      PUTOK

; IRREV: carry if LASTMV's entry (just played) was a capture, a promotion
; or a pawn move.   clobbers: A, B, HL
;   CALLED BY: DRAWCK, GHMOVE
;   CALLS:     -
IRREV:  LD      HL,(LASTMV)
        INC     HL
        INC     HL
        INC     HL
        LD      A,(HL)          ; to
        INC     HL
        LD      B,(HL)          ; flags
        LD      L,A
        LD      H,BPAGE
        LD      A,B
        AND     27h             ; promotion, or a captured piece's type
        JR      NZ,.yes
        LD      A,(HL)          ; the piece now on the to-square
        AND     7
        CP      PAWN
        JR      Z,.yes
        OR      A
        RET
.yes:   SCF
        RET

; DPADR: HL = DPLY + 8A.   clobbers: A
;   CALLED BY: DRAWCK, DRTNT
;   CALLS:     -
DPADR:  ADD     A,A
        ADD     A,A
        ADD     A,A
        LD      L,A
        LD      H,DPLY >> 8
        RET

; DRAWCK: the node at ply n = (IX+F_PLY), after GENMOV: key it (DPLY[n]);
; carry if it is a draw (not at the root), then HL = its value for the side
; to move here (the engine's min(n, P_DRAWW), negated at even plies).
;   clobbers: all but IX   cost: about 8,000 T + 60 T per key compared
;   CALLED BY: KBDRW, SRCH
;   CALLS:     DPADR, GHADR, IRREV, KEYEQ, NEGHL, ROOTV, ZKEY
DRAWCK: CALL    ZKEY
        LD      A,(IX+F_PLY)
        CALL    DPADR
        EX      DE,HL
        LD      HL,TTK
        LD      BC,4
        LDIR                    ; DE = &DPLY[n].clock
        LD      A,(IX+F_PLY)
        DEC     A
        JR      NZ,.nr
        LD      A,(GHCLK)       ; the root: the game's clock
        JR      .ck
.nr:    PUSH    DE
        CALL    IRREV
        POP     DE
        LD      A,0
        JR      C,.ck
        LD      A,(IX+F_PLY)    ; reversible: the previous ply's clock + 1
        DEC     A
        CALL    DPADR
        LD      A,L
        OR      4
        LD      L,A
        LD      A,(HL)
        INC     A
        JR      NZ,.ck
        DEC     A
.ck:    LD      (DE),A
        LD      C,A             ; C = the clock
        INC     DE
        LD      HL,(DRWCNT)
        EX      DE,HL
        LD      (HL),E
        INC     HL
        LD      (HL),D
        LD      A,(IX+F_PLY)
        CP      2
        JR      C,.none         ; the root is never a draw
        LD      A,C
        CP      100
        JR      NC,.draw        ; the 50-move rule
        LD      B,(IX+F_PLY)    ; the path: plies n-2, n-4, ... >= 1,
        LD      E,2             ; E = distance, while within the clock
.path:  LD      A,B
        SUB     E
        JR      C,.game
        JR      Z,.game
        LD      A,C
        CP      E
        JR      C,.game
        LD      A,B
        SUB     E
        CALL    DPADR
        CALL    KEYEQ
        JR      Z,.draw
        INC     E
        INC     E
        JR      .path
.game:  LD      A,(GHN)         ; the game: its last entry stands n plies
        OR      A               ; before ply n
        RET     Z
        PUSH    AF
        CALL    GHADR           ; HL = one past the last entry
        POP     AF
        LD      D,A             ; D = entries left
        LD      E,B             ; E = distance
.gl:    LD      A,C
        CP      E
        JR      C,.none         ; beyond the clock
        PUSH    DE
        LD      DE,-GHSIZE      ; back one entry (distance + 1)
        ADD     HL,DE
        POP     DE
        LD      A,E
        RRCA                    ; an even number of plies back: the same
        JR      C,.godd         ; side to move
        CALL    KEYEQ
        JR      Z,.draw
.godd:  INC     E
        DEC     D
        JR      NZ,.gl
.none:  OR      A
        RET
.draw:  LD      HL,(DRWCNT)
        INC     HL
        LD      (DRWCNT),HL
        CALL    ROOTV           ; DE = the root's value for the engine
        EX      DE,HL
        LD      A,(P_DRAWW)
        LD      B,(IX+F_PLY)
        CP      B
        JR      C,.w
        LD      A,B
.w:     LD      L,A             ; min(n, P_DRAWW), measured from the root's
        LD      H,0             ; value as the search's scores are
        OR      A
        SBC     HL,DE
        BIT     0,B
        CALL    Z,NEGHL         ; even ply: the engine's opponent to move
        SCF
        RET

; ROOTV: HL = the root's material and board control (MV0W + BC0W: what
; POINTS measures its scores from) in the engine's (KOLOR's) view.
;   clobbers: A, DE
;   CALLED BY: DRAWCK, DSHIFT
;   CALLS:     NEGHL
ROOTV:  LD      HL,(MV0W)
        LD      DE,(BC0W)
        ADD     HL,DE
        LD      A,(KOLOR)
        OR      A
        RET     Z
        JP      NEGHL

; KEYEQ: Z if the 4 bytes at HL are TTK's.   keeps: BC, DE, HL
;   CALLED BY: DRAWCK
;   CALLS:     -
KEYEQ:  PUSH    HL
        PUSH    DE
        PUSH    BC
        LD      DE,TTK
        LD      B,4
.c:     LD      A,(DE)
        CP      (HL)
        JR      NZ,.x
        INC     DE
        INC     HL
        DJNZ    .c              ; (Z from the last CP)
.x:     POP     BC
        POP     DE
        POP     HL
        RET

; DRTNT: NZ if a path draw was scored below the node at (IX+F_PLY) (the
; table must not keep its value).   clobbers: A, DE, HL
;   CALLED BY: TTBETA, TTEND
;   CALLS:     DPADR
DRTNT:  LD      A,(P_FLAGS)
        AND     4
        RET     Z
        LD      A,(IX+F_PLY)
        CALL    DPADR
        LD      A,L
        OR      5
        LD      L,A
        LD      DE,(DRWCNT)
        LD      A,(HL)
        CP      E
        RET     NZ
        INC     HL
        LD      A,(HL)
        CP      D
        RET

; DSHIFT: POINTS' total HL (White's view, measured from the root): when the
; position's own value (HL + the root's MV0W + BC0W) is positive for the
; engine (KOLOR), HL moves up by P_DRAWW for it, above the draw window. Not
; in 'Q' (EVBRK).   clobbers: A, DE
;   CALLED BY: LZTRY, POINTS
;   CALLS:     NEGHL, ROOTV
DSHIFT: LD      A,(P_FLAGS)
        AND     4
        RET     Z
        LD      A,(EVBRK)
        OR      A
        RET     NZ
        PUSH    HL
        PUSH    HL
        CALL    ROOTV           ; the root's value for the engine ...
        POP     DE
        LD      A,(KOLOR)
        OR      A
        EX      DE,HL
        CALL    NZ,NEGHL        ; ... plus HL for the engine
        ADD     HL,DE
        BIT     7,H
        JR      NZ,.no          ; negative or 0: as it is
        LD      A,H
        OR      L
        JR      Z,.no
        POP     HL
        LD      DE,(P_DRAWW)
        LD      A,(KOLOR)
        OR      A
        JR      NZ,.b
        ADD     HL,DE
        RET
.b:     OR      A
        SBC     HL,DE
        RET
.no:    POP     HL
        RET
