; ===========================================================================
; endgame.asm (full build only): John White's End-Game evaluation, Table 1
; (the king-and-pawn endings of his BASIC program "End-Game"), for positions with
; only kings and pawns. KPEND (kpend.asm) calls EGEVAL from POINTS exactly
; then; EGEVAL returns the sum of its terms (White's view) and leaves each in
; BRKDN (BK_EG0 + 2k, k = EG_APP .. EG_RIP). The search's two End-Game
; additions, the capture extension and best-reply-first, are at the end
; (EXTCAP, BRNOTE, BRFRONT, EGROOT; SRCH calls them).
;
; End-Game scores each MOVE by the position it leaves ("a single subroutine
; to evaluate the position arising after each move"), but some of its terms
; are written for the piece that moved (a pawn move, a king move). Here every
; term is read from the POSITION (POINTS sees the position, and 'Q' has no
; move), for every pawn and both kings, unless said otherwise:
;
;   k  term      weight   default  what is counted (own side +, White's view
;                          (pawn    = White's count minus Black's)
;                          = 256)
;   0  approach  P_EGAPP  -77 -CG  "don't approach the enemy king or an enemy
;                                  pawn": each pawn of the side that has
;                                  just moved (COLOR) that the enemy king or
;                                  an enemy pawn attacks (End-Game: the pawn
;                                  just moved only)
;   1  edge      P_EGEDG  -26 -1/CH a pawn on the a- or h-file
;   2  advance   P_EGADV   3  CC    Y*Y for a pawn on its own Y-th rank (2..7)
;   3  one file  P_EGDBL  -51 -CF   (Y-1)*Y for Y own pawns on one file
;   4  free      P_EGFRE   77 +CG   the pawn-advance test, first scan: no
;                                  enemy man in the pawn's channel (its own
;                                  and both neighbouring files, from the rank
;                                  ahead of it to the 8th)
;   5  channel   P_EGCH1   26 1/CH  first scan: on each file of the channel
;                                  the nearest man ahead, own +, enemy -,
;                                  a pawn 1, a king 3 ("king scores high")
;   6  majority  P_EGCH2   26 1/CM  second scan, the whole channel for its
;                                  length and the squares beside the pawn:
;                                  own pawns minus enemy pawns ("one of two
;                                  pawns pushed past a single blocker")
;   7  opposition P_EGOPP  26 CE    the kings on one file or rank with an odd
;                                  number of squares between them: for the
;                                  side that has just moved (it holds the
;                                  opposition: the other is to move)
;   8  env enemy P_EGENE   51 3/CK  enemy pawns next to the king
;   9  env own   P_EGENO   17 1/CK  own pawns next to the king
;  10  centre    P_EGCEN    9 1/CJ  the king on the centre 16 squares (c3-f6)
;  11  ripple    P_EGRIP    3 1/(CQ*CL) the engine's king (KOLOR) only, as the
;                                  author did: the rings round it at distance
;                                  1, 2, ... until one holds a man; (8 - the
;                                  ring's distance) * the men's material in
;                                  it (pawn 1, king 3, either side), so the
;                                  king heads for the nearest men
; Weights are signed bytes of the block (full/params.asm, 6Ch..77h), End-Game's
; constants scaled by 256 (its pawn, CD = 1, is ours): CC 0.012 -> 3 (3.07),
; CE 0.1 -> 26, CF 0.2 -> 51, CG 0.3 -> 77, 1/CH 0.1 -> 26, 1/CM 0.1 -> 26,
; 3/CK 0.2 -> 51, 1/CK -> 17, 1/CJ -> 9 (8.5), 1/(CQ*CL) 0.01 -> 3 (2.56).
; Not built: "avoid capture by pawn -5" (a king move into a pawn's attack is
; illegal here: the move generator's legality test does it) and the en-passant
; threat (a per-move term: a double step beside an enemy pawn).
;
; RAM: EGV = XRAM+700h (C700h-C7FFh).
; cost: about 15,000-36,000 T a pawn ending (24,300 on average over 32 random
; ones: one pass over the board, a channel walk per pawn, two kings, twelve
; products), 700 T once RACE has spoken; nothing outside pawn endings.
; ===========================================================================

KPNT    EQU     12              ; End-Game's terms, BK_EG0.. (vars.asm)
EG_APP  EQU     0               ; the terms (counters, weights, BRKDN words)
EG_EDGE EQU     1
EG_ADV  EQU     2
EG_DBL  EQU     3
EG_FREE EQU     4
EG_CH1  EQU     5
EG_CH2  EQU     6
EG_OPP  EQU     7
EG_ENE  EQU     8
EG_ENO  EQU     9
EG_CEN  EQU     10
EG_RIP  EQU     11

EGV     EQU     XRAM+700h       ; page aligned
EGC     EQU     EGV+00h         ; 24 the counters, signed words, White's view
EGFC    EQU     EGV+20h         ; 16 pawns met so far per file: White a..h,
                                ;    Black a..h
EGCLR   EQU     30h             ;    (EGC and EGFC are cleared together)
EGX     EQU     EGV+30h         ; 1  the side counted (00h White, 80h Black)
EGD     EQU     EGV+31h         ; 1  its pawns' step forward: +10 or -10
EGT     EQU     EGV+32h         ; 1  1 while the channel holds no enemy man
EGEK    EQU     EGV+33h         ; 1  the enemy king's square (for EGX)
EGRK    EQU     EGV+34h         ; 1  the engine's king's square
EGRKR   EQU     EGV+35h         ; 1  ... its rank
EGRKF   EQU     EGV+36h         ; 1  ... its file
EGRD    EQU     EGV+37h         ; 1  ripple: the nearest man's distance (8 none)
EGRM    EQU     EGV+38h         ; 1  ripple: the men's material at that distance
EGSUM   EQU     EGV+3Ah         ; 2  the sum of the terms
EGPKP   EQU     EGV+40h         ; 1  search: the root is a king-and-pawn ending
BRMV    EQU     EGV+41h         ; 3  search: the best reply at ply 2: from, to,
                                ;    promotion (from = 0: none)

        ASSERT  P_EGRIP - P_EGAPP == KPNT - 1, "End-Game's weights must be consecutive bytes"
        ASSERT  (EGC & 0FFh) + EGCLR <= 100h, "EGC and EGFC must lie in one page"

; EGEVAL: HL = End-Game's terms' sum (White's view), each in BRKDN
; (BK_EG0 + 2k); all 0 when RACE has found a certain win (BK_RACE != 0): a
; won race needs no heuristics, and with them two free pawns on the 6th and
; 7th outscored the queen one of them promotes to.
;   needs: only kings and pawns on the board, BK_RACE (KPEND)
;   clobbers: all but IX   cost: about 15,000-36,000 T (700 T after a race)
;   CALLED BY: KPEND
;   CALLS:     EGADD, EGKING, EGMAN, EGOPPO, MULSW, SQRF
EGEVAL: LD      HL,(BK_RACE)
        LD      A,H
        OR      L
        JR      Z,.go
        LD      HL,BK_EG0       ; a certain race: every term 0
        LD      B,2*KPNT
        XOR     A
.r0:    LD      (HL),A
        INC     HL
        DJNZ    .r0
        LD      H,A
        LD      L,A
        RET
.go:    LD      HL,EGC          ; the counters and the file counts
        LD      B,EGCLR
        XOR     A
.z:     LD      (HL),A
        INC     L
        DJNZ    .z
        LD      (EGRM),A
        LD      A,8
        LD      (EGRD),A
        LD      A,(KOLOR)       ; the engine's king, for the ripple
        OR      A
        LD      A,(POSK)
        JR      Z,.ek
        LD      A,(POSK+1)
.ek:    LD      (EGRK),A
        CALL    SQRF
        LD      (EGRKF),A
        LD      A,B
        LD      (EGRKR),A
        LD      HL,BOARD+SQ_A1  ; every man, a1 to h8
.sq:    LD      A,(HL)
        OR      A
        JR      Z,.nx
        CP      OFFB
        CALL    NZ,EGMAN
.nx:    INC     L
        LD      A,L
        CP      SQ_H8+1
        JR      C,.sq
        XOR     A               ; the kings
        CALL    EGKING
        LD      A,BLACK
        CALL    EGKING
        CALL    EGOPPO
        LD      A,(EGRD)        ; the ripple: (8 - d) * material
        CP      8
        JR      NC,.sum
        LD      B,A
        LD      A,8
        SUB     B
        LD      B,A
        LD      A,(EGRM)
        LD      C,A
        XOR     A
.rm:    ADD     A,C
        DJNZ    .rm
        LD      C,A
        LD      A,(KOLOR)
        LD      (EGX),A
        LD      A,C
        LD      B,EG_RIP
        CALL    EGADD
.sum:   LD      HL,0            ; each counter times its weight
        LD      (EGSUM),HL
        LD      IY,P_EGAPP
        LD      HL,EGC
        LD      BC,BK_EG0
.t:     LD      E,(HL)
        INC     L
        LD      D,(HL)
        INC     L
        LD      A,D
        OR      E
        JR      Z,.put          ; a zero count: 0 (A = 0, DE = 0)
        PUSH    HL
        PUSH    BC
        LD      A,(IY+0)
        CALL    MULSW
        EX      DE,HL
        LD      HL,(EGSUM)
        ADD     HL,DE
        LD      (EGSUM),HL
        POP     BC
        POP     HL
.put:   LD      A,E
        LD      (BC),A
        INC     BC
        LD      A,D
        LD      (BC),A
        INC     BC
        INC     IY
        LD      A,L
        CP      (EGC+2*KPNT) & 0FFh
        JR      NZ,.t
        LD      HL,(EGSUM)
        RET

; EGADD: counter B += A, a signed count for the side EGX (negated when EGX
; is Black: the counters are White's view).
;   keeps: BC, DE, HL   clobbers: A   cost: about 130 T
;   CALLED BY: EGBES, EGEVAL, EGFILE, EGKING, EGOPPO, EGPAWN
;   CALLS:     -
EGADD:  PUSH    HL
        PUSH    DE
        LD      E,A
        LD      A,(EGX)
        OR      A
        LD      A,E
        JR      Z,.w
        NEG
.w:     LD      E,A
        ADD     A,A
        SBC     A,A
        LD      D,A             ; DE = the count, sign-extended
        LD      A,B
        ADD     A,A
        ADD     A,EGC & 0FFh
        LD      L,A
        LD      H,EGC >> 8
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        INC     L
        LD      A,(HL)
        ADC     A,D
        LD      (HL),A
        POP     DE
        POP     HL
        RET

; SQRF: the mailbox square A (a1 = 21 .. h8 = 98): B = its rank, A = its
; file (0..7).   clobbers: A, B   cost: about 60-190 T
;   CALLED BY: EGEVAL, EGKING, EGMAN, EGOPPO, EGPAWN
;   CALLS:     -
SQRF:   LD      B,-3
.l:     INC     B
        SUB     10
        JR      NC,.l
        ADD     A,9
        RET

; EGMAN: the man A on square HL: the ripple's nearest men (every man but
; the engine's king), and a pawn's terms (EGPAWN).
;   keeps: HL   clobbers: A, BC, DE   cost: about 350 T, a pawn 2,000-5,000 T
;   CALLED BY: EGEVAL
;   CALLS:     SQRF
EGMAN:  LD      D,A             ; D = the man
        LD      A,(EGRK)
        CP      L
        RET     Z               ; the engine's king itself
        LD      A,L             ; its distance from the engine's king
        CALL    SQRF
        LD      E,A
        LD      A,(EGRKF)
        SUB     E
        JR      NC,.f
        NEG
.f:     LD      E,A             ; E = |file difference|
        LD      A,(EGRKR)
        SUB     B
        JR      NC,.r
        NEG
.r:     CP      E
        JR      NC,.m
        LD      A,E             ; A = the distance (1..7)
.m:     LD      E,A
        LD      A,D             ; its material: a king 3, a pawn 1
        AND     7
        CP      KING
        LD      C,3
        JR      Z,.k
        LD      C,1
.k:     LD      A,(EGRD)
        CP      E
        JR      C,.p            ; further than the nearest: nothing
        LD      A,(EGRM)
        JR      Z,.eq
        LD      A,E             ; nearer: a new ring
        LD      (EGRD),A
        XOR     A
.eq:    ADD     A,C
        LD      (EGRM),A
.p:     LD      A,D
        AND     7
        CP      PAWN
        RET     NZ
        ; fall into EGPAWN

; EGPAWN: the terms of the pawn D on square HL (terms 0-6).
;   keeps: HL   clobbers: A, BC, DE   cost: about 1,500-4,500 T
;   CALLED BY: -
;   CALLS:     EGADD, EGBES, EGFILE, SQRF
EGPAWN: PUSH    HL
        LD      A,D
        AND     BLACK
        LD      (EGX),A
        LD      C,A             ; C = its side
        LD      A,10
        LD      B,A
        LD      A,(POSK+1)      ; White's pawn: Black's king is the enemy
        JR      Z,.w
        LD      B,-10
        LD      A,(POSK)
.w:     LD      (EGEK),A
        LD      A,B
        LD      (EGD),A
        LD      A,L
        CALL    SQRF            ; B = rank, A = file
        LD      E,A             ; E = file
        LD      A,C
        OR      A
        LD      A,B
        JR      Z,.r
        LD      A,7
        SUB     B
.r:     LD      D,A             ; D = its own rank (1..6)
        LD      A,E             ; 1: a rook pawn
        OR      A
        JR      Z,.e
        CP      7
        JR      NZ,.ne
.e:     LD      A,1
        LD      B,EG_EDGE
        CALL    EGADD
.ne:    LD      A,D             ; 2: (own rank + 1) squared
        INC     A
        LD      B,A
        LD      C,A
        XOR     A
.sq:    ADD     A,C
        DJNZ    .sq
        LD      B,EG_ADV
        CALL    EGADD
        LD      A,(EGX)         ; 3: (Y-1)*Y on a file grows by 2n with the
        RLCA                    ; pawn after n others
        RLCA
        RLCA
        RLCA
        ADD     A,E
        ADD     A,EGFC & 0FFh
        LD      L,A
        LD      H,EGFC >> 8
        LD      A,(HL)
        INC     (HL)
        ADD     A,A
        LD      B,EG_DBL
        CALL    NZ,EGADD
        POP     HL              ; HL = the pawn's square
        PUSH    HL
        LD      A,(COLOR)       ; 0: the mover's pawn attacked
        LD      C,A
        LD      A,(EGX)
        CP      C
        JR      NZ,.ch
        LD      A,C
        XOR     BLACK|PAWN
        LD      C,A             ; C = the enemy pawn
        LD      A,(EGD)
        ADD     A,L
        LD      L,A
        DEC     L
        LD      A,(HL)
        AND     87h
        CP      C
        JR      Z,.at
        INC     L
        INC     L
        LD      A,(HL)
        AND     87h
        CP      C
        JR      Z,.at
        POP     HL
        PUSH    HL
        LD      A,(EGEK)        ; the enemy king next to it
        SUB     L
        JR      NC,.d
        NEG
.d:     CP      1
        JR      Z,.at
        CP      9
        JR      C,.ch
        CP      12
        JR      NC,.ch
.at:    LD      A,1
        LD      B,EG_APP
        CALL    EGADD
.ch:    POP     HL              ; 4-6: the channel
        LD      A,1
        LD      (EGT),A
        DEC     L
        CALL    EGFILE
        INC     L
        CALL    EGFILE
        INC     L
        CALL    EGFILE
        CALL    EGBES           ; the squares beside it
        DEC     L
        DEC     L
        CALL    EGBES
        INC     L
        LD      A,(EGT)
        OR      A
        RET     Z
        LD      B,EG_FREE
        JP      EGADD

; EGFILE: the pawn-advance test on one file of the channel: from the square
; HL (on the pawn's rank) forward to the edge; the nearest man to term 5,
; every pawn to term 6; an enemy man clears EGT.
;   keeps: HL   clobbers: A, BC, DE   cost: about 150-800 T
;   CALLED BY: EGPAWN
;   CALLS:     EGADD
EGFILE: LD      A,(HL)
        CP      OFFB
        RET     Z               ; no such file
        PUSH    HL
        LD      A,(EGD)
        LD      E,A
        LD      D,1             ; D = 1 until the nearest man is met
.w:     LD      A,L
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.w
        CP      OFFB
        JR      Z,.x
        LD      C,A             ; C = the man
        AND     7
        CP      KING
        LD      B,3
        JR      Z,.v
        LD      B,1
.v:     LD      A,(EGX)
        XOR     C
        JP      P,.own
        XOR     A               ; an enemy man: the channel is not free
        LD      (EGT),A
        SUB     B
        LD      B,A
.own:   DEC     D
        JR      NZ,.all
        LD      A,B
        PUSH    BC
        LD      B,EG_CH1
        CALL    EGADD
        POP     BC
.all:   LD      A,C
        AND     7
        CP      PAWN
        JR      NZ,.w
        LD      A,B
        LD      B,EG_CH2
        CALL    EGADD
        JR      .w
.x:     POP     HL
        RET

; EGBES: a pawn on the square HL (beside the pawn looked at) to term 6:
; own +1, enemy -1.   keeps: HL, DE   clobbers: A, BC
;   cost: 37 T (no pawn), about 240 T (a pawn)
;   CALLED BY: EGPAWN
;   CALLS:     EGADD
EGBES:  LD      A,(HL)
        LD      C,A
        AND     7               ; (the border, FFh, is type 7)
        CP      PAWN
        RET     NZ
        LD      A,(EGX)
        XOR     C
        LD      A,1
        JP      P,.o
        LD      A,-1
.o:     LD      B,EG_CH2
        JP      EGADD

; EGKING: the king of side A: its environment (terms 8, 9) and the centre
; (term 10).   clobbers: A, BC, DE, HL   cost: about 700 T
;   CALLED BY: EGEVAL
;   CALLS:     EGADD, SQRF
EGKING: LD      (EGX),A
        LD      C,A
        OR      A
        LD      A,(POSK)
        JR      Z,.w
        LD      A,(POSK+1)
.w:     LD      E,A             ; E = the king's square
        LD      A,C
        OR      PAWN
        LD      D,A             ; D = an own pawn
        LD      HL,EGKDIR
        LD      B,8
.d:     LD      A,E
        ADD     A,(HL)
        INC     HL
        PUSH    HL
        PUSH    BC
        LD      L,A
        LD      H,BPAGE
        LD      A,(HL)
        AND     87h
        LD      B,EG_ENO
        CP      D
        JR      Z,.add
        XOR     BLACK
        LD      B,EG_ENE
        CP      D
        JR      NZ,.n
.add:   LD      A,1
        CALL    EGADD
.n:     POP     BC
        POP     HL
        DJNZ    .d
        LD      A,E             ; the centre: ranks and files 2..5
        CALL    SQRF
        SUB     2
        CP      4
        RET     NC
        LD      A,B
        SUB     2
        CP      4
        RET     NC
        LD      A,1
        LD      B,EG_CEN
        JP      EGADD
EGKDIR: DB      -11,-10,-9,-1,1,9,10,11

; EGOPPO: the opposition (term 7): the kings on one file (or rank) with
; 2, 4 or 6 ranks (files) between their squares: +1 for the side that has
; just moved.   clobbers: A, BC, DE   cost: about 400 T
;   CALLED BY: EGEVAL
;   CALLS:     EGADD, SQRF
EGOPPO: LD      A,(POSK)
        CALL    SQRF
        LD      D,B             ; D, E = White's rank and file
        LD      E,A
        LD      A,(POSK+1)
        CALL    SQRF
        LD      C,A             ; B, C = Black's
        CP      E
        JR      NZ,.rk
        LD      A,B             ; one file: the ranks apart
        SUB     D
        JR      .odd
.rk:    LD      A,B
        CP      D
        RET     NZ
        LD      A,C             ; one rank: the files apart
        SUB     E
.odd:   JR      NC,.p
        NEG
.p:     CP      2               ; 2, 4 or 6 apart (1, 3, 5 squares between)
        RET     C
        RRCA
        RET     C
        LD      A,(COLOR)
        LD      (EGX),A
        LD      A,1
        LD      B,EG_OPP
        JP      EGADD

; ---------------------------------------------------------------------------
; End-Game's search additions, called by SRCH (full/search.asm), each switched by
; a bit of P_FLAGS (full/params.asm):
;   bit 4  the capture extension: "captures ... are evaluated for material
;          gains at a further two levels" (End-Game's third- and fourth-level
;          captures). In a search whose root is a king-and-pawn ending, a
;          capture at the leaf ply (PLYMAX) is not scored but searched two
;          plies further: every reply, and every answer to each reply, the
;          answers scored. Two plies, not one, so that the capture's line is
;          scored after a move of the same side as every other leaf (POINTS
;          and End-Game's terms favour the side that has just moved: one ply
;          made a free capture at level 1 lose to a quiet move).
;   bit 5  best-reply-first at the second ply: "the best response found for
;          the opponent for the previous machine move is evaluated first for
;          the next machine move". The move that refuted or was best against
;          the previous root move (BRMV: from, to, promotion) goes to the
;          head of each ply-2 list, after SORTM's ordering (and the table's
;          move, when bit 0 is on), when ply 2 is the leaf ply (PLYMAX <= 2,
;          End-Game's own two-ply search), in any position. Alpha-beta keeps
;          the root's choice and value whatever the order; only the nodes
;          change.
; ---------------------------------------------------------------------------

; EGROOT: note whether the root is a king-and-pawn ending (KNOW's tables
; after the root's POINTS), and forget the best reply.
;   needs: POINTS just run on the root   clobbers: A, HL   cost: 80 T
;   CALLED BY: FNDMOV
;   CALLS:     -
EGROOT: XOR     A
        LD      (BRMV),A
        LD      A,(KV+K_MAT)
        LD      HL,KV+40h+K_MAT
        OR      (HL)
        LD      A,0
        JR      NZ,.n
        INC     A
.n:     LD      (EGPKP),A
        RET

; EXTCAP: carry if the frame's move (just made, legal, at ply >= PLYMAX) is to
; be searched further (P_FLAGS bit 4, above): at ply PLYMAX a capture; at
; PLYMAX + 1 every reply to a capture made at PLYMAX (the node's F_LAST).
;   clobbers: A, HL   cost: about 40-150 T
;   CALLED BY: SRCH
;   CALLS:     -
EXTCAP: LD      A,(P_FLAGS)
        AND     10h
        RET     Z               ; (no carry)
        LD      A,(EGPKP)
        OR      A
        RET     Z
        LD      HL,PLYMAX
        LD      A,(IX+F_PLY)
        SUB     (HL)            ; ply - PLYMAX >= 0: no carry
        JR      Z,.cap          ; ply = PLYMAX: this move
        DEC     A
        RET     NZ              ; beyond PLYMAX + 1: scored (no carry)
        LD      L,(IX+F_LAST)   ; PLYMAX + 1: the move that led here
        LD      H,(IX+F_LAST+1)
        JR      .fl
.cap:   LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
.fl:    INC     HL
        INC     HL
        INC     HL
        INC     HL
        LD      A,(HL)          ; the flags: the captured type
        AND     7
        RET     Z
        SCF
        RET

; BRNOTE: at ply 2, the frame's move (a new best, or a cut-off) becomes the
; best reply (P_FLAGS bit 5).   keeps: DE   clobbers: A, HL   cost: 30-200 T
;   CALLED BY: SRCH
;   CALLS:     PROMOT
BRNOTE: LD      A,(IX+F_PLY)
        CP      2
        RET     NZ
        LD      A,(P_FLAGS)
        AND     20h
        RET     Z
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      A,H
        OR      A
        RET     Z               ; mate or stalemate fed in: no move
        INC     HL
        INC     HL
        LD      A,(HL)
        LD      (BRMV),A
        INC     HL
        LD      A,(HL)
        LD      (BRMV+1),A
        DEC     HL
        DEC     HL
        DEC     HL
        CALL    PROMOT
        LD      (BRMV+2),A
        RET

; BRFRONT: at ply 2 (P_FLAGS bit 5) when ply 2 is the leaf ply (PLYMAX <= 2:
; End-Game's two-ply search, where the replies are not sorted), the entry of
; the list HL that is the best reply BRMV moves to the head. Deeper, SORTM's
; static order is kept: at level 3 the reply first made 6-30% more moves on
; the bench's middlegames, and 11% more on 40 pawn endings with the capture
; extension on (3% fewer with it off).
;   out: HL = the head   clobbers: A, BC, DE   cost: about 60 T per entry
;   CALLED BY: SRCH
;   CALLS:     PROMOT
BRFRONT: LD     A,(IX+F_PLY)
        CP      2
        RET     NZ
        LD      A,(P_FLAGS)
        AND     20h
        RET     Z
        LD      A,(PLYMAX)
        CP      3
        RET     NC
        LD      A,(BRMV)
        OR      A
        RET     Z
        LD      A,H
        OR      A
        RET     Z               ; no moves
        LD      B,H             ; BC = the old head
        LD      C,L
        LD      D,0             ; DE = the entry before (none yet)
.w:     PUSH    HL
        INC     HL
        INC     HL
        LD      A,(BRMV)
        CP      (HL)
        JR      NZ,.no
        INC     HL
        LD      A,(BRMV+1)
        CP      (HL)
        JR      NZ,.no
        POP     HL
        PUSH    HL
        CALL    PROMOT
        LD      HL,BRMV+2
        CP      (HL)
        JR      Z,.hit
.no:    POP     HL
        LD      D,H             ; DE = this entry, HL = the next
        LD      E,L
        LD      A,(HL)
        INC     HL
        LD      H,(HL)
        LD      L,A
        LD      A,H
        OR      A
        JR      NZ,.w
        LD      H,B             ; not in the list: the head as it was
        LD      L,C
        RET
.hit:   POP     HL              ; HL = the reply's entry
        LD      A,D
        OR      A
        RET     Z               ; already the head
        LD      A,(HL)          ; the entry before links past it
        LD      (DE),A
        INC     HL
        INC     DE
        LD      A,(HL)
        LD      (DE),A
        LD      (HL),B          ; it links to the old head
        DEC     HL
        LD      (HL),C
        RET
