; ===========================================================================
; knowledge.asm (full build only): Cray Blitz's positional knowledge,
; after Hyatt's "Cray Blitz Evaluation" (King, Rook, Bishop, Knight,
; Pawn scoring). KNOW is called once by POINTS' full path; it returns the sum
; of its terms (White's view) and leaves each of them in BRKDN (BK_K0..).
;
; One pass over the board fills, per side and per file, the pawn count, the
; rearmost and the most advanced pawn's rank counted from that side's own
; back rank (0..7; "none" = 8 and 0), the side's piece material in the seed's
; units (N 3, B 3, R 5, Q 9: 13 = the seed's 13,000) and its bishops, and
; lists the knights, rooks and kings. KPAWNS then counts the pawn features
; (KSIDEP, file by file, each side; the centre pawns) into PCNT, and KSIDE
; the pieces' features for one side (Black first, negated, then White: the
; counters end White minus Black); with the pawn hash on (P_FLAGS bit 6,
; pawnhash.asm) the scan leaves the pawns and their tables, counters and
; passed pawns come from the hash, or are made by PSCAN and KPAWNS and
; stored. Each counter times its weight (P_DOUBL .. P_KCENT, in block
; order) is one term. With every weight 0 the terms are 0 and the tree is the
; article's (only T-states differ).
;
; The features (own = the side scored, "in front" = further up the board in
; that side's direction):
;   doubled     each own pawn beyond the first on a file
;   isolated    each pawn of a file with no own pawn on either neighbour:
;               open (no enemy pawn in front of its rearmost) or closed;
;               and, with P_FLAGS bit 7 on, a pawn advanced 3 ranks or
;               more beyond every own pawn of the neighbouring files
;               (artificially isolated, KAISO), one more, open or closed
;   backward    the rearmost pawn of a file whose neighbours' own pawns all
;               stand further up (so none can defend it): open or closed
;   passed      the most advanced pawn of a file with no enemy pawn in front
;               on its file or a neighbour: KPSHP[rank] (1 1 2 3 5 8 for the
;               2nd..7th rank) times P_PASS; none for an isolated passed pawn
;               while the enemy's pieces exceed P_KPHASE (the seed's rule)
;   centre      d- and e-pawns both on their original squares (P_CTR2) or
;               only one (P_CTR1)
;   rams        pawns face to face, counted against the engine's side only
;               (KOLOR), as the seed's asymmetric terms
;   eight       the engine's side still has eight pawns (KOLOR only)
;   rook files  a rook on a file without own pawns: open (no pawns) or
;               half-open (enemy pawns only); a rook on the 7th rank
;   bishop pair two or more bishops
;   outpost     a knight on the 5th rank or beyond, not on the a- or h-file,
;               that no enemy pawn can ever attack (none in front on the
;               neighbouring files)
;   castling    while the enemy's pieces exceed P_KPHASE: a king that moved
;               without castling (P_KMOVE); with the king unmoved, the king's
;               rook (P_KRMOV) or the queen's rook (P_QRMOV) moved or gone
;   bad bishop  per bishop, the own pawns on squares of its colour
;   centre      a knight's (P_NCEN) and a queen's (P_QCEN) steps from the
;               centre (file + rank steps, as the king's in the endgame)
;   behind      a rook behind an own passed pawn on its file (P_RBEH)
;   tropism     per knight (P_NTROP), rook (P_RTROP) and queen (P_QTROP):
;               8 - its steps (file + rank) to the enemy king, when fewer
;               than 8 (KTROP)
;   queen and   per queen, each file of the enemy king's zone (as below)
;   king safety without a pawn of the king's side, while that king is in
;               its middlegame (this side's pieces over P_KPHASE): the
;               seed's "the value of a queen is directly related to the
;               safety of the opponent's king" (P_QKS, a signed byte, KQKS;
;               the queen's worth rises with the enemy king's exposure, so
;               a queen trade pays the side whose own king is the more
;               exposed)
;   luft        a middlegame king, moved or castled, on its back rank whose
;               three squares in front are each an own man, off the board or
;               attacked by the enemy (SQATK): no breathing space (P_LUFT,
;               KLUFT)
;   rook mob.   a rook with no horizontal mobility: the squares beside it on
;               its rank each an own man or off the board (P_RHORZ, KRHZ;
;               the seed's "Ra2 to defend a pawn at b2")
;   holes       a middlegame king on its two back ranks: each square of its
;               own third rank on its file and the two beside it that holds
;               no own pawn and that no own pawn can defend any more (none
;               on the second rank of a neighbouring file) (P_HOLE, KHOLE)
;   diagonals   per bishop, the squares of its two forward diagonals up to
;               a pawn (either side's) or the edge: pawns close diagonals,
;               pieces do not (P_BDIAG, KDIAG; the seed's "open diagonals")
;   outside     the side whose (counted) passed pawns include one farther in
;               files from every enemy pawn than any of the other side's,
;               and at least 3 files: +1 for White, -1 for Black, whether or
;               not the other has a passed pawn too (P_OUTP, KOUTP)
;   queen-pawn  (KQPO; weights signed bytes, 0 except in the d4 block, so
;   openings    only a game opened 1.d4 scores them: the seed's "pawn
;               advancement ... varies depending on the type of opening")
;               while the enemy's pieces exceed P_KPHASE, a side whose
;               rearmost c-pawn stands on its 2nd or 3rd rank (P_QPCP: "the
;               program strives to play c4 ... the same is true for d5 as
;               black"); the engine's side only (KOLOR), in the middlegame,
;               its knight on c3 (c6) in front of its pawn on c2 (c7)
;               (P_QPKN: "it penalizes blocking the c-pawn with a knight in
;               queen-pawn openings")
;   moved twice (KDEV2, the engine's side only, as the seed's development
;               routine): each of the engine's moves in the search path
;               (LASTMV, then each SRCH frame's F_ENTRY up to ply 1; the
;               engine moves at odd plies) whose flags say its man had moved
;               before, until move 15 and while a knight or bishop stands
;               unmoved on its home square or the king has not castled
;               (P_DVTWC). 0 outside a search (PATHON: the root's and 'Q''s
;               evaluations), so `eval` shows it as 0
;   king        while the enemy's pieces exceed P_KPHASE (middlegame): steps
;               from the best squares (b1/g1: KFDST[file] + rank) times
;               P_KSQ, and each file of its zone (the edge to one past the
;               king) open (P_KOPEN), with only an enemy pawn (P_KENEM) or
;               with an own pawn but no enemy pawn (P_KHALF); otherwise
;               (endgame) steps from the centre (KCDST[file] + KCDST[rank])
;               times P_KCENT
;
; The first 20 counters have their weights at P_DOUBL..P_KCENT, the next 14
; at P_KMOVE..P_HOLE, the next at P_BDIAG (the block's three runs of
; knowledge words), the last four at the bytes P_QPCP, P_QPKN, P_DVTWC and
; P_QKS (KTERMB). The board scan (KSQ1) counts rook mobility and diagonals
; itself, Black's up and White's down: KNOW's negation after Black's KSIDE
; turns them into White minus Black with the rest.
;
; And after the sum (KOPPB): in an ending of bishops of opposite colours
; (one bishop each and nothing else but pawns) with neither side two pawns
; ahead, the sum is reduced by P_OPPB / 8; the change is its own word after
; the counters' (BK_OPB).
;
; RAM: KV = XRAM+400h (C400h-C4FFh tables and counters, C500h-C55Fh the list).
; cost: about 40,000-48,000 T a position of the bench's middlegames (with
; the pawn hash; `z80chess profile --build full`, KNOW inclusive)
; ===========================================================================

KV      EQU     XRAM+400h       ; page aligned
KVH     EQU     KV >> 8
; per side, base 00h (White) or 40h (Black); index = file 1..8 (0, 9 empty).
; Bytes 00h-29h of a side are its pawns' (pawnhash.asm copies them), 30h-36h
; its pieces'.
;   base+ 00h       10h        20h      30h   ...  36h
;        +---------+----------+--------+--------------+
;        | K_CNT   | K_LO     | K_HI   | K_MAT..K_KR  |
;        | 0 1..8 9| 0 1..8 9 |0 1..8 9|  (pieces)    |
;        +---------+----------+--------+--------------+
;   0Ch-0Eh K_NP K_PC0 K_PC1 and 1Eh K_OUTP sit in the gaps
K_CNT   EQU     00h             ; pawns on the file
K_LO    EQU     10h             ; the rearmost's own rank (8 = none)
K_HI    EQU     20h             ; the most advanced's own rank (0 = none)
K_NP    EQU     0Ch             ; its pawns
K_PC0   EQU     0Dh             ; its pawns on squares of colour 0, 1
K_PC1   EQU     0Eh             ;   (colour = file index + rank, odd or even)
K_OUTP  EQU     1Eh             ; its passed pawns' largest distance in
                                ;   files to an enemy pawn (8: none)
K_MAT   EQU     30h             ; the side's piece material (N3 B3 R5 Q9)
K_NB    EQU     31h             ; its bishops
K_KB    EQU     32h             ; its king's board byte (moved, castled)
K_BC0   EQU     33h             ; its bishops on squares of colour 0, 1
K_BC1   EQU     34h
K_KF    EQU     35h             ; its king's file index (8..1 = a..h)
K_KR    EQU     36h             ;   and rank (0..7 = 1st..8th, not own)
KCNT    EQU     KV+80h          ; the counters, in the order of the weights
KC_DBL  EQU     KCNT+0
KC_ISOOP EQU    KCNT+1
KC_ISOCL EQU    KCNT+2
KC_BKWOP EQU    KCNT+3
KC_BKWCL EQU    KCNT+4
KC_PASS EQU     KCNT+5
KC_CTR2 EQU     KCNT+6
KC_CTR1 EQU     KCNT+7
KC_RAM  EQU     KCNT+8
KC_EIGHT EQU    KCNT+9
KC_ROPEN EQU    KCNT+10
KC_RHALF EQU    KCNT+11
KC_R7   EQU     KCNT+12
KC_BPAIR EQU    KCNT+13
KC_OUT  EQU     KCNT+14
KC_KOPEN EQU    KCNT+15
KC_KENEM EQU    KCNT+16
KC_KHALF EQU    KCNT+17
KC_KSQ  EQU     KCNT+18
KC_KCEN EQU     KCNT+19
KC_KMOV EQU     KCNT+20
KC_KRMOV EQU    KCNT+21
KC_QRMOV EQU    KCNT+22
KC_BBAD EQU     KCNT+23
KC_NCEN EQU     KCNT+24
KC_QCEN EQU     KCNT+25
KC_RBEH EQU     KCNT+26
KC_NTROP EQU    KCNT+27
KC_RTROP EQU    KCNT+28
KC_QTROP EQU    KCNT+29
KC_LUFT EQU     KCNT+30
KC_OUTP EQU     KCNT+31
KC_RHORZ EQU    KCNT+32
KC_HOLE EQU     KCNT+33
KC_BDIAG EQU    KCNT+34
KC_QPC  EQU     KCNT+35
KC_QPN  EQU     KCNT+36
KC_DV2  EQU     KCNT+37
KC_QKS  EQU     KCNT+38
KNT1    EQU     20              ; counters with weights P_DOUBL..P_KCENT
KNT2    EQU     14              ; ... P_KMOVE..P_HOLE
KNT3    EQU     1               ; ... P_BDIAG
KNT4    EQU     4               ; ... and the bytes P_QPCP, P_QPKN, P_DVTWC,
                                ;   P_QKS
KNT     EQU     KNT1 + KNT2 + KNT3 + KNT4       ; counters = BRKDN words
KPASSR  EQU     KV+0C0h         ; 10+10 KSIDEP: own passed pawn's rank by file
                                ;   (White's at C0h, Black's at D0h)
PCNT    EQU     KV+0DAh         ; 8 KPAWNS: the pawn counters (KCNT+0..7)
KRAMS   EQU     KV+0E2h         ; 1 rams on the board
KISO    EQU     KV+0F1h         ; 1 KSIDE: 0 = the file's pawns are isolated
KLP     EQU     KV+0F2h         ; 2 the list's end
KSUM    EQU     KV+0F4h         ; 2 the sum of the terms
KLIST   EQU     KV+100h         ; (side|type, file, own rank) * up to 32, 0

        ASSERT  P_KCENT - P_DOUBL == 2 * (KNT1 - 1), "the first knowledge weights must be consecutive words"
        ASSERT  P_HOLE - P_KMOVE == 2 * (KNT2 - 1), "the second knowledge weights must be consecutive words"
        ASSERT  KCNT + KNT <= KPASSR, "the counters run into KPASSR"

; KNOW: HL = the knowledge terms' sum (White's view), each in BRKDN.
;   clobbers: all but IX
;   CALLED BY: LZTRY, POINTS
;   CALLS:     KDEV2, KNEG, KOPPB, KPAWNS, KQPO, KSIDE, KSQ1, KSUMR, KTERMB,
;              PHPROBE, PHSTORE, PINIT, PSCAN
KNOW:   LD      HL,KV+K_MAT     ; the pieces' bytes, both sides
        LD      B,K_KR-K_MAT+1
        XOR     A
.s:     LD      (HL),A
        SET     6,L
        LD      (HL),A
        RES     6,L
        INC     L
        DJNZ    .s
        LD      L,KCNT & 0FFh   ; the counters
        LD      B,KNT
.c:     LD      (HL),A
        INC     L
        DJNZ    .c
        LD      HL,KLIST
        LD      (KLP),HL
        LD      A,(P_FLAGS)     ; the pawn hash on: the scan leaves the
        AND     PF_PH           ; pawns (pawnhash.asm)
        LD      (PHSKIP),A
        CALL    Z,PINIT         ; off: they are entered as the scan meets them
        LD      HL,BOARD+SQ_A1  ; the board, a1 to h8
        LD      C,0             ; C = rank (0..7)
.rank:  LD      B,8             ; B = file index, 8..1 from a to h: the
.file:  LD      A,(HL)          ; tables run h..a, and everything read
        OR      A               ; from them is symmetric in the files
        CALL    NZ,KSQ1
        INC     L
        DJNZ    .file
        INC     L
        INC     L
        INC     C
        BIT     3,C
        JR      Z,.rank
        LD      HL,(KLP)
        LD      (HL),0
        LD      A,(PHSKIP)      ; the pawns' work: from the hash, or done
        OR      A               ; (and stored)
        JR      Z,.pw
        CALL    PHPROBE
        JR      C,.pcs
        CALL    PINIT
        CALL    PSCAN
        CALL    KPAWNS
        CALL    PHSTORE
        JR      .pcs
.pw:    CALL    KPAWNS
.pcs:   LD      C,40h           ; the pieces: Black, negated
        CALL    KSIDE
        LD      HL,KCNT
        LD      B,KNT
        CALL    KNEG
        LD      C,0             ; White
        CALL    KSIDE
        LD      HL,PCNT         ; the pawn counters (White minus Black)
        LD      DE,KCNT
        LD      BC,8
        LDIR
        LD      A,(KV+K_OUTP)   ; an outside passed pawn: the side whose
        LD      B,A             ; passed pawn stands farther from the
        LD      A,(KV+40h+K_OUTP)       ; enemy's pawns, and 3 files or
        CP      B               ; more
        JR      Z,.o9
        LD      C,1
        JR      C,.o1           ; White's farther
        LD      B,A
        LD      C,-1
.o1:    LD      A,B
        CP      3
        JR      C,.o9
        LD      A,C
        LD      (KC_OUTP),A
.o9:
        LD      A,(KOLOR)       ; the engine's side only: eight pawns, rams
        LD      B,1
        LD      HL,KV+K_NP
        OR      A
        JR      Z,.kw
        LD      B,-1
        LD      HL,KV+40h+K_NP
.kw:    LD      A,(HL)
        CP      8
        JR      NZ,.k8
        LD      A,B
        LD      (KC_EIGHT),A
.k8:    LD      A,(KRAMS)
        BIT     7,B
        JR      Z,.kr
        NEG
.kr:    LD      (KC_RAM),A
        CALL    KQPO            ; queen-pawn openings
        CALL    KDEV2           ; a man moved twice in the search path
        LD      HL,0            ; each counter times its weight
        LD      (KSUM),HL
        LD      HL,KCNT
        LD      BC,BK_K0
        LD      IY,P_DOUBL      ; the block's three runs of weights
        LD      D,KNT1
        CALL    KSUMR
        LD      IY,P_KMOVE
        LD      D,KNT2
        CALL    KSUMR
        LD      IY,P_BDIAG
        LD      D,KNT3
        CALL    KSUMR
        LD      IY,P_QPCP       ; and the two byte weights
        LD      A,(KC_QPC)
        CALL    KTERMB
        LD      IY,P_QPKN
        LD      A,(KC_QPN)
        CALL    KTERMB
        LD      IY,P_DVTWC
        LD      A,(KC_DV2)
        CALL    KTERMB
        LD      IY,P_QKS
        LD      A,(KC_QKS)
        CALL    KTERMB
        LD      HL,(KSUM)
        JP      KOPPB

; KNEG: negate the B counters from HL (one page).   clobbers: A, B, L
;   CALLED BY: KNOW, KPAWNS
;   CALLS:     -
KNEG:   XOR     A
        SUB     (HL)
        LD      (HL),A
        INC     L
        DJNZ    KNEG
        RET

; PINIT: the pawn tables empty (counts 0, rearmost 8 = none, most advanced
; 0), the pawns' counts by colour, K_OUTP and the rams 0.
;   clobbers: A, B, HL
;   CALLED BY: KNOW
;   CALLS:     -
PINIT:  LD      HL,KV
        LD      B,10
        XOR     A
.i:     LD      (HL),A          ; White's count (00h)
        SET     5,L
        LD      (HL),A          ; White's most advanced (20h)
        SET     6,L
        LD      (HL),A          ; Black's most advanced (60h)
        RES     5,L
        LD      (HL),A          ; Black's count (40h)
        SET     4,L
        LD      (HL),8          ; Black's rearmost (50h)
        RES     6,L
        LD      (HL),8          ; White's rearmost (10h)
        RES     4,L
        INC     L
        DJNZ    .i
        LD      L,K_NP          ; K_NP, K_PC0, K_PC1
        LD      B,3
.n:     LD      (HL),A
        SET     6,L
        LD      (HL),A
        RES     6,L
        INC     L
        DJNZ    .n
        LD      L,K_OUTP
        LD      (HL),A
        LD      L,40h+K_OUTP
        LD      (HL),A
        LD      (KRAMS),A
        RET

; PSCAN: enter the board's pawns in the tables (the hash missed).
;   clobbers: A, BC, DE, HL   cost: about 3,300 T + 200 T a pawn
;   CALLED BY: KNOW
;   CALLS:     KSQP
PSCAN:  LD      HL,BOARD+SQ_A1
        LD      C,0
.r:     LD      B,8
.f:     LD      A,(HL)
        LD      D,A
        AND     7
        CP      PAWN
        CALL    Z,KSQP
        INC     L
        DJNZ    .f
        INC     L
        INC     L
        INC     C
        BIT     3,C
        JR      Z,.r
        RET

; KPAWNS: the pawns' counters (doubled .. centre: KCNT+0..7), White minus
; Black, moved to PCNT (the counters left 0 for the pieces' pass); KPASSR
; and K_OUTP of both sides.   clobbers: A, BC, DE, HL
;   CALLED BY: KNOW
;   CALLS:     KCADD, KCTR, KNEG, KSIDEP
KPAWNS: LD      C,40h           ; Black, negated
        CALL    KSIDEP
        LD      HL,KCNT
        LD      B,KC_PASS-KCNT+1
        CALL    KNEG
        LD      C,0             ; White
        CALL    KSIDEP
        LD      HL,BOARD+SQ_A1+13       ; d2, e2
        LD      D,PAWN
        CALL    KCTR
        LD      B,1
        CALL    KCADD
        LD      HL,BOARD+SQ_A1+63       ; d7, e7
        LD      D,BLACK+PAWN
        CALL    KCTR
        LD      B,-1
        CALL    KCADD
        LD      HL,KCNT
        LD      DE,PCNT
        LD      B,8
.m:     LD      A,(HL)
        LD      (DE),A
        LD      (HL),0
        INC     L
        INC     E
        DJNZ    .m
        RET
        ASSERT  KC_CTR1 - KCNT == 7 && KC_PASS - KCNT == 5, "KPAWNS: the pawn counters are KCNT+0..7"
        ASSERT  PCNT + 8 == KRAMS && KPASSR + 10h + 10 <= PCNT, "pawnhash.asm copies KPASSR, PCNT, KRAMS as one run"

; KTERMB: the counter A times the signed byte at IY into the BRKDN word at
; BC, added to KSUM.   out: BC past it   clobbers: A, DE, HL
;   cost: 50 T a zero counter, about 480 T another
;   CALLED BY: KNOW
;   CALLS:     MULSW, SEXT
KTERMB: OR      A
        JR      NZ,.m
        LD      (BC),A
        INC     BC
        LD      (BC),A
        INC     BC
        RET
.m:     PUSH    BC
        PUSH    AF              ; the counter
        LD      A,(IY+0)        ; the weight, sign-extended (evalaux.asm)
        CALL    SEXT
        EX      DE,HL
        POP     AF
        CALL    MULSW
        POP     BC
        ; fall into KPUT

; KPUT: the term HL into the BRKDN word at BC, added to KSUM.
;   out: BC past it   clobbers: A, DE
;   CALLED BY: KSUMR
;   CALLS:     -
KPUT:   LD      A,L
        LD      (BC),A
        INC     BC
        LD      A,H
        LD      (BC),A
        INC     BC
        LD      DE,(KSUM)
        ADD     HL,DE
        LD      (KSUM),HL
        RET

; KDEV2: KC_DV2 = the engine's moves in the search path that move a man
; already moved (the flags' "first" bit clear), +n for White, -n for Black,
; while the development rule lasts (see the header). The path: LASTMV is the
; move of ply F_PLY (IX's frame: SRCH's leaf, or SORTM's EVAL of a move of
; that node), each parent frame (its address at IX+SFRAME, pushed by SRCH)
; holds its ply's move in F_ENTRY. With the transposition table on, a stored
; score carries the path's count, as in the seed's program (the table is off
; by default).
;   keeps: IX   clobbers: A, BC, DE, HL   cost: 40 T with the weight 0 or
;   outside a search, about 100 T a ply of the path, 400 T more with a count
;   CALLED BY: KNOW
;   CALLS:     -
KDEV2:  LD      A,(P_DVTWC)
        OR      A
        RET     Z
        LD      A,(PATHON)
        OR      A
        RET     Z
        LD      A,(MOVENO)      ; dropped after move 15
        CP      16
        RET     NC
        PUSH    IX
        LD      C,0             ; C = the count
        LD      HL,(LASTMV)
        LD      B,(IX+F_PLY)    ; B = the ply of the move at HL
.m:     BIT     0,B             ; an odd ply: the engine's move
        JR      Z,.nx
        LD      DE,4            ; its flags
        ADD     HL,DE
        BIT     4,(HL)          ; its man's first move?
        JR      NZ,.nx
        INC     C
.nx:    DEC     B
        JR      Z,.end
        LD      E,(IX+SFRAME)   ; the parent's frame
        LD      D,(IX+SFRAME+1)
        PUSH    DE
        POP     IX
        LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        JR      .m
.end:   POP     IX
        LD      A,C
        OR      A
        RET     Z
        LD      A,(KOLOR)       ; the engine's side: castled?
        OR      A
        LD      HL,KV+K_KB
        LD      DE,BOARD+SQ_A1+1        ; b1
        JR      Z,.k
        LD      HL,KV+40h+K_KB
        LD      DE,BOARD+SQ_A8+1        ; b8
.k:     BIT     4,(HL)          ; CASTLD
        JR      Z,.cnt
        EX      DE,HL           ; a knight or bishop at home?
        LD      B,A             ; B = its colour (00h/80h)
        CALL    .home           ; b
        JR      Z,.cnt
        INC     L
        CALL    .home           ; c
        JR      Z,.cnt
        INC     L
        INC     L
        INC     L
        CALL    .home           ; f
        JR      Z,.cnt
        INC     L
        CALL    .home           ; g
        RET     NZ              ; all developed and castled: dropped
.cnt:   LD      A,(KOLOR)
        OR      A
        LD      A,C
        JR      Z,.w
        NEG
.w:     LD      (KC_DV2),A
        RET
.home:  LD      A,(HL)          ; Z: an unmoved knight or bishop of colour B
        AND     8Fh             ; colour, moved, type
        XOR     B
        CP      KNIGHT
        RET     Z
        CP      BISHOP
        RET

; KQPO: the queen-pawn openings' counters (see the header): KC_QPC, White's
; c-pawn at home or on c3 minus Black's, each in the middlegame; KC_QPN, the
; engine's knight on c3 (c6) in front of its c-pawn on c2 (c7) in the
; middlegame, +1 White, -1 Black. The counters were zeroed by KNOW.
;   clobbers: A, BC, DE, HL   cost: 41 T with both weights 0, else about
;   400 T
;   CALLED BY: KNOW
;   CALLS:     KPHASE
KQPO:   LD      A,(P_QPCP)      ; both weights 0 (every block but d4's by
        LD      HL,P_QPKN       ; default): nothing to count
        OR      (HL)
        RET     Z
        LD      BC,0100h        ; White (C = 0), +1
        CALL    .c
        LD      BC,0FF40h       ; Black (C = 40h), -1
        CALL    .c
        LD      C,0             ; the engine's knight, in the middlegame
        LD      A,(KOLOR)
        OR      A
        JR      Z,.k
        LD      C,40h
.k:     CALL    KPHASE
        RET     NC
        LD      A,(KOLOR)
        OR      A
        LD      HL,BOARD+SQ_A1+22       ; c3
        LD      DE,(PAWN << 8) | KNIGHT
        LD      BC,01F6h    ; B = +1, C = -10: c2
        JR      Z,.n
        LD      HL,BOARD+SQ_A1+52       ; c6
        LD      DE,((BLACK+PAWN) << 8) | (BLACK+KNIGHT)
        LD      BC,0FF0Ah   ; B = -1, C = +10: c7
.n:     LD      A,(HL)
        AND     87h
        CP      E
        RET     NZ
        LD      A,L             ; the square behind it (one page)
        ADD     A,C
        LD      L,A
        LD      A,(HL)
        AND     87h
        CP      D
        RET     NZ
        LD      A,B
        LD      (KC_QPN),A
        RET
.c:     CALL    KPHASE          ; the middlegame?
        RET     NC
        LD      A,C
        ADD     A,K_LO+6        ; the c-file's rearmost own pawn
        LD      L,A
        LD      H,KVH
        LD      A,(HL)
        DEC     A
        CP      2               ; on its own rank 1 or 2 (c2/c3, c7/c6)
        RET     NC
        LD      HL,KC_QPC
        LD      A,(HL)
        ADD     A,B
        LD      (HL),A
        RET

; KSUMR: D counters from HL times the words from IY into the BRKDN words
; from BC, each added to KSUM.   out: HL, BC, IY past them
;   clobbers: A, DE   cost: 84 T a zero counter, about 400 T another
;   CALLED BY: KNOW
;   CALLS:     KPUT, MULSW
KSUMR:
.sum:   LD      A,(HL)
        OR      A
        JR      NZ,.m
        LD      (BC),A          ; a zero count (the common case): 0
        INC     BC
        LD      (BC),A
        INC     BC
.nx:    INC     IY
        INC     IY
        INC     L
        DEC     D
        JR      NZ,.sum
        RET
.m:     PUSH    HL
        PUSH    DE
        PUSH    BC
        LD      E,(IY+0)
        LD      D,(IY+1)
        CALL    MULSW
        POP     BC
        CALL    KPUT
        POP     DE
        POP     HL
        JR      .nx

; KSQ1: enter the man A on square HL (file index B, rank C) in the tables;
; a pawn only when PHSKIP is 0 (the pawn hash off). KSQP: the pawn D.
;   keeps: B, C, HL   clobbers: A, D, E
;   CALLED BY: KNOW
;   CALLS:     -
KSQ1:   LD      D,A
        AND     7
        CP      PAWN
        JR      NZ,KSQPC
        LD      A,(PHSKIP)
        OR      A
        RET     NZ
; KSQP: the pawn D on square HL (KSQ1's pawn part, above).
;   CALLED BY: PSCAN
;   CALLS:     KDIAG, KRHZ
KSQP:   PUSH    HL
        LD      H,KVH
        BIT     7,D
        JR      NZ,.bp
        LD      L,B             ; a white pawn
        INC     (HL)
        LD      L,K_NP
        INC     (HL)
        LD      A,B             ; its square's colour
        ADD     A,C
        AND     1
        ADD     A,K_PC0
        LD      L,A
        INC     (HL)
        LD      A,B
        ADD     A,K_LO
        LD      L,A
        LD      A,(HL)
        CP      8
        JR      NZ,.w1
        LD      (HL),C          ; the first seen is the rearmost
.w1:    LD      A,L
        ADD     A,K_HI-K_LO
        LD      L,A
        LD      (HL),C          ; the last seen the most advanced
        POP     HL
        PUSH    HL              ; a ram: a black pawn just in front
        LD      DE,10
        ADD     HL,DE
        LD      A,(HL)
        POP     HL
        AND     87h
        CP      BLACK+PAWN
        RET     NZ
        LD      A,(KRAMS)
        INC     A
        LD      (KRAMS),A
        RET
.bp:    LD      A,7             ; a black pawn: own rank 7 - rank
        SUB     C
        LD      E,A
        LD      A,B
        ADD     A,40h
        LD      L,A
        INC     (HL)
        LD      L,40h+K_NP
        INC     (HL)
        LD      D,A
        LD      A,B             ; its square's colour
        ADD     A,C
        AND     1
        ADD     A,40h+K_PC0
        LD      L,A
        INC     (HL)
        LD      A,D
        ADD     A,K_LO
        LD      L,A
        LD      (HL),E          ; the last seen is the rearmost
        ADD     A,K_HI-K_LO
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      NZ,.b1
        LD      (HL),E          ; the first seen the most advanced
.b1:    POP     HL
        RET
KSQPC:  PUSH    HL              ; a piece (A = type): its material,
        LD      E,A             ; bishops, the list. E = type
        ADD     A,KMATV & 0FFh
        LD      L,A
        LD      A,0
        ADC     A,KMATV >> 8
        LD      H,A
        LD      A,D
        AND     80h
        RRCA
        LD      D,A             ; D = the side's base
        LD      A,(HL)
        LD      H,KVH
        LD      L,D
        SET     5,L
        SET     4,L             ; base + 30h = K_MAT
        ADD     A,(HL)
        LD      (HL),A
        LD      A,E
        CP      BISHOP
        JR      NZ,.nb
        INC     L               ; K_NB
        INC     (HL)
        LD      A,B             ; its square's colour
        ADD     A,C
        AND     1
        ADD     A,K_BC0
        OR      D
        LD      L,A
        INC     (HL)
        POP     HL
        JP      KDIAG
.nb:    CP      KING
        JR      NZ,.nk
        POP     HL              ; the king's byte, for KCAST
        PUSH    HL
        LD      A,(HL)
        PUSH    AF
        LD      A,D
        OR      K_KB
        LD      L,A
        LD      H,KVH
        POP     AF
        LD      (HL),A
        LD      A,L             ; and its square, for KTROP
        ADD     A,K_KF-K_KB
        LD      L,A
        LD      (HL),B
        INC     L
        LD      (HL),C
        LD      A,E
.nk:    CP      ROOK
        JR      NZ,.nr
        POP     HL              ; a rook: its horizontal mobility
        PUSH    HL
        CALL    KRHZ
        LD      A,ROOK
.nr:    LD      HL,(KLP)        ; knight, rook, queen, king
        OR      D
        LD      (HL),A
        INC     HL
        LD      (HL),B
        INC     HL
        LD      A,C
        BIT     6,D
        JR      Z,.wr
        LD      A,7
        SUB     C
.wr:    LD      (HL),A
        INC     HL
        LD      (KLP),HL
.x:     POP     HL
        RET
        ASSERT  K_MAT == 30h, "KSQPC forms K_MAT as base + 30h"

; KRHZ: the rook at HL (side base D: 00h White, 40h Black) with no
; horizontal mobility, both squares beside it an own man or off the board:
; KC_RHORZ one down for White, one up for Black (KNOW negates).
;   keeps: B, C, D   clobbers: A, E, HL   cost: 80-150 T
;   CALLED BY: KSQP
;   CALLS:     -
KRHZ:   LD      A,D             ; E = its colour's bit 7
        ADD     A,A
        LD      E,A
        DEC     L
        CALL    .own
        RET     NZ              ; free to the left
        INC     L
        INC     L
        CALL    .own
        RET     NZ              ; ... or to the right
        LD      HL,KC_RHORZ
        BIT     6,D
        JR      Z,.w
        INC     (HL)
        RET
.w:     DEC     (HL)
        RET
.own:   LD      A,(HL)          ; Z: an own man or off the board
        CP      OFFB
        RET     Z
        OR      A
        JR      Z,.fr
        XOR     E
        AND     80h
        RET
.fr:    INC     A               ; empty: NZ
        RET

; KDIAG: the bishop at HL (side base D): the squares of its two forward
; diagonals (towards the enemy, where the seed's "attacks the king zone"
; lies) up to a pawn or the edge, men passed through; subtracted from
; KC_BDIAG for White, added for Black (KNOW negates).
;   keeps: B, C, HL   clobbers: A, D, E   cost: 150 T + 64 T a square
;   CALLED BY: KSQP
;   CALLS:     -
KDIAG:  PUSH    HL
        PUSH    BC
        LD      C,0             ; C = squares
        LD      B,L             ; B = the bishop's square
        LD      E,9             ; White: +9, +11
        BIT     6,D
        JR      Z,.d
        LD      E,-11           ; Black: -11, -9
.d:     LD      L,B
.s:     LD      A,L
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        AND     7               ; a pawn (1) or off the board (FFh: 7)
        CP      PAWN
        JP      Z,.e
        CP      7
        JP      Z,.e
        INC     C
        JP      .s
.e:     INC     E               ; the second direction: 11 or -9
        INC     E
        LD      A,E
        CP      11
        JR      Z,.d
        CP      -9
        JR      Z,.d
        LD      HL,KC_BDIAG
        LD      A,(HL)
        BIT     6,D
        JR      Z,.w
        ADD     A,C
        JR      .x
.w:     SUB     C
.x:     LD      (HL),A
        POP     BC
        POP     HL
        RET

; KSIDEP: count the pawn features (file by file) of the side whose tables
; start at C (00h White, 40h Black) into the counters KCNT+0..5, its passed
; pawns into KPASSR + C/4, K_OUTP.   clobbers: A, B, D, E, HL
;   CALLED BY: KPAWNS
;   CALLS:     KAISO, KFRONT, KOUTP, KPHASE
KSIDEP: LD      A,C             ; no passed pawns seen yet
        RRCA
        RRCA
        ADD     A,KPASSR & 0FFh
        LD      L,A
        LD      H,KPASSR >> 8
        LD      B,10
        XOR     A
.cp:    LD      (HL),A
        INC     L
        DJNZ    .cp
        LD      E,1             ; E = file
.f:     LD      H,KVH
        LD      A,C
        ADD     A,E
        LD      L,A
        LD      A,(HL)          ; own pawns on the file
        OR      A
        JP      Z,.fn
        LD      D,A             ; D = their count
        DEC     A
        JR      Z,.f1
        LD      HL,KC_DBL       ; doubled: all but one
        ADD     A,(HL)
        LD      (HL),A
        LD      H,KVH
.f1:    LD      A,C
        ADD     A,E
        LD      L,A
        DEC     L
        LD      A,(HL)
        INC     L
        INC     L
        OR      (HL)
        LD      (KISO),A        ; 0: isolated
        LD      A,C
        ADD     A,E
        ADD     A,K_LO
        LD      L,A
        LD      B,(HL)          ; B = the rearmost's rank
        LD      A,(KISO)
        OR      A
        JR      NZ,.niso
        CALL    KFRONT          ; isolated: open or closed
        LD      HL,KC_ISOOP
        JR      NC,.io
        INC     HL
.io:    LD      A,(HL)
        ADD     A,D
        LD      (HL),A
        JR      .pass
.niso:  DEC     L               ; backward: the neighbours' rearmost further up
        LD      A,B
        CP      (HL)
        JR      NC,.pass
        INC     L
        INC     L
        CP      (HL)
        JR      NC,.pass
        CALL    KFRONT
        LD      HL,KC_BKWOP
        JR      NC,.bo
        INC     HL
.bo:    INC     (HL)
.pass:  LD      H,KVH           ; the most advanced: passed?
        LD      A,C
        ADD     A,E
        ADD     A,K_HI
        LD      L,A
        LD      B,(HL)
        LD      A,(KISO)        ; own pawns beside it, but far behind?
        OR      A
        JR      Z,.pp
        LD      A,B
        SUB     3
        CALL    NC,KAISO
.pp:    CALL    KFRONT
        JR      C,.fn
        DEC     E
        CALL    KFRONT
        INC     E
        JR      C,.fn
        INC     E
        CALL    KFRONT
        DEC     E
        JR      C,.fn
        LD      A,(KISO)        ; isolated and the enemy's pieces many: none
        OR      A
        JR      NZ,.pb
        CALL    KPHASE
        JR      C,.fn
.pb:    CALL    KOUTP
        LD      H,KVH           ; (for KROOK: a rook behind it)
        LD      A,C
        RRCA
        RRCA
        ADD     A,E
        ADD     A,KPASSR & 0FFh
        LD      L,A
        LD      (HL),B
        LD      A,B
        ADD     A,KPSHP & 0FFh
        LD      L,A
        LD      A,0
        ADC     A,KPSHP >> 8
        LD      H,A
        LD      A,(KC_PASS)
        ADD     A,(HL)
        LD      (KC_PASS),A
.fn:    INC     E
        LD      A,E
        CP      9
        JP      C,.f
        RET

; KSIDE: count the pieces' features of the side at base C.
;   clobbers: A, B, D, E, HL
;   CALLED BY: KNOW
;   CALLS:     KBBAD, KCAST, KKING, KKNGT, KQUEEN, KROOK
KSIDE:  LD      HL,KLIST
.pl:    LD      A,(HL)
        OR      A
        JR      Z,.bpair
        INC     HL
        LD      E,(HL)          ; E = file
        INC     HL
        LD      B,(HL)          ; B = own rank
        INC     HL
        LD      D,A
        AND     40h
        CP      C
        JR      NZ,.pl
        PUSH    HL
        LD      HL,.pn
        PUSH    HL
        LD      A,D
        AND     7
        CP      ROOK
        JP      Z,KROOK
        CP      KNIGHT
        JP      Z,KKNGT
        CP      QUEEN
        JP      Z,KQUEEN
        JP      KKING
.pn:    POP     HL
        JR      .pl
.bpair: CALL    KCAST
        CALL    KBBAD
        LD      A,C             ; the bishop pair
        ADD     A,K_NB
        LD      L,A
        LD      H,KVH
        LD      A,(HL)
        CP      2
        RET     C
        LD      HL,KC_BPAIR
        INC     (HL)
        RET

; KCAST: the castling penalties of the side at base C, while the enemy's
; pieces exceed P_KPHASE.   clobbers: A, B, DE, HL
;   CALLED BY: KSIDE
;   CALLS:     KPHASE
KCAST:  CALL    KPHASE
        RET     NC
        LD      A,C
        OR      K_KB
        LD      L,A
        LD      H,KVH
        LD      A,(HL)          ; the king's byte
        BIT     4,A
        RET     NZ              ; castled
        BIT     3,A
        JR      Z,.rk
        LD      HL,KC_KMOV      ; moved without castling
        INC     (HL)
        RET
.rk:    LD      HL,BOARD+SQ_A1+7        ; unmoved: are its rooks at home,
        LD      DE,BOARD+SQ_A1          ; unmoved?
        LD      B,ROOK
        LD      A,C
        OR      A
        JR      Z,.h
        LD      HL,BOARD+SQ_A1+77
        LD      DE,BOARD+SQ_A1+70
        LD      B,BLACK+ROOK
.h:     LD      A,(HL)
        CP      B
        JR      Z,.a
        LD      HL,KC_KRMOV
        INC     (HL)
.a:     LD      A,(DE)
        CP      B
        RET     Z
        LD      HL,KC_QRMOV
        INC     (HL)
        RET

; KBBAD: the own pawns on the squares of each bishop's colour, side C.
;   clobbers: A, B, E, HL
;   CALLED BY: KSIDE
;   CALLS:     -
KBBAD:  LD      E,0
        LD      A,K_BC0
        CALL    .c
        LD      A,K_BC1
        CALL    .c
        LD      HL,KC_BBAD
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        RET
.c:     OR      C
        LD      L,A
        LD      H,KVH
        LD      B,(HL)          ; bishops on the colour, times
        INC     B
        LD      A,L
        SUB     K_BC0-K_PC0     ; the own pawns on it
        LD      L,A
        LD      A,E
        JR      .n
.a:     ADD     A,(HL)
.n:     DJNZ    .a
        LD      E,A
        RET
        ASSERT  K_BC1-K_PC1 == K_BC0-K_PC0, "KBBAD pairs K_BCn with K_PCn"

; KSTEPS: A = steps from the centre of file E, own rank B.   clobbers: D, HL
;   CALLED BY: KKING, KKNGT, KQUEEN
;   CALLS:     KLOOK
KSTEPS: LD      HL,KCDST
        LD      A,E
        CALL    KLOOK
        LD      D,A
        LD      HL,KCDST+1
        LD      A,B
        CALL    KLOOK
        ADD     A,D
        RET

; KQUEEN: the queen on file E, own rank B: steps from the centre, tropism,
; and the enemy king's shelter (KQKS).   keeps: C   clobbers: A, B, D, E, HL
;   CALLED BY: KSIDE
;   CALLS:     KSTEPS, KTROP
KQUEEN: LD      HL,KC_QTROP
        CALL    KTROP
        CALL    KSTEPS
        LD      HL,KC_QCEN
        ADD     A,(HL)
        LD      (HL),A
        ; fall into KQKS

; KQKS: a queen of the side at base C and the enemy king's safety: while
; that king is in its middlegame (side C's pieces over P_KPHASE), each file
; of its zone (KZONE) with no pawn of the king's side, KC_QKS += 1.
;   keeps: C   clobbers: A, B, D, E, HL   cost: 90 T in the endgame, about
;   330 T a zone of four files
;   CALLED BY: -
;   CALLS:     KPHASE, KZONE
KQKS:   LD      A,C
        XOR     40h
        LD      C,A             ; C = the king's side
        CALL    KPHASE          ; in its middlegame?
        JR      NC,.x
        LD      A,C
        OR      K_KF
        LD      L,A
        LD      E,(HL)          ; its file (KPHASE left H = KVH)
        CALL    KZONE
        LD      B,0
.f:     LD      A,C
        ADD     A,E
        LD      L,A
        LD      A,(HL)          ; its pawns on the file
        OR      A
        JR      NZ,.n
        INC     B
.n:     LD      A,E
        INC     E
        CP      D
        JR      C,.f
        LD      HL,KC_QKS
        LD      A,(HL)
        ADD     A,B
        LD      (HL),A
.x:     LD      A,C
        XOR     40h
        LD      C,A
        RET

; KZONE: the zone of a king on file E (8..1 = a..h): from the edge to one
; file past the king.   out: E = its first file, D = its last   clobbers: A
;   CALLED BY: KKING, KQKS
;   CALLS:     -
KZONE:  LD      A,E
        CP      5
        JR      NC,.q
        INC     A
        LD      D,A
        LD      E,1
        RET
.q:     DEC     E
        LD      D,8
        RET

; KAISO: an artificially isolated pawn (P_FLAGS bit 7 on): file E of the
; side at base C has own pawns beside it, but its most advanced pawn (own
; rank B, 3 or more) stands 3 ranks or more beyond every own pawn of both
; neighbouring files (two moves or more from any support: the seed's "a
; pawn advances so far that other pawns are unable to support it"); it
; counts as one more isolated pawn, open or closed (KC_ISOOP, KC_ISOCL:
; the same weights and eval lines).   in: A = B - 3, HL = its K_HI entry
;   keeps: B, C, D, E   clobbers: A, HL   cost: 40-150 T (KSIDE calls it
;   only for a file's most advanced pawn past its 3rd rank)
;   CALLED BY: KSIDEP
;   CALLS:     KFRONT
KAISO:  DEC     L
        CP      (HL)
        RET     C               ; the left neighbour's can come to support
        INC     L
        INC     L
        CP      (HL)
        RET     C               ; the right neighbour's
        LD      A,(P_FLAGS)
        AND     PF_AISO
        RET     Z
        CALL    KFRONT
        LD      HL,KC_ISOOP
        JR      NC,.o
        INC     HL
.o:     INC     (HL)
        RET

; KFRONT: carry if an enemy pawn stands in front of own rank B on file E
; (the enemy's rearmost + B < 7), for the side at base C.   clobbers: A, HL
;   CALLED BY: KAISO, KKNGT, KSIDEP
;   CALLS:     -
KFRONT: LD      H,KVH
        LD      A,C
        XOR     40h
        ADD     A,K_LO
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        ADD     A,B
        CP      7
        RET

; KPHASE: carry if the enemy's pieces exceed P_KPHASE (the middlegame).
;   clobbers: A, HL
;   CALLED BY: KCAST, KKING, KQKS, KQPO, KSIDEP, PHPROBE
;   CALLS:     -
KPHASE: LD      A,C
        XOR     40h
        ADD     A,K_MAT
        LD      L,A
        LD      H,KVH
        LD      A,(P_KPHASE)
        CP      (HL)
        RET

; KROOK: the rook on file E, own rank B.   clobbers: A, D, HL
;   CALLED BY: KSIDE
;   CALLS:     KTROP
KROOK:  LD      HL,KC_RTROP
        CALL    KTROP
        LD      H,KVH           ; behind an own passed pawn?
        LD      A,C
        RRCA
        RRCA
        ADD     A,E
        ADD     A,KPASSR & 0FFh
        LD      L,A
        LD      A,(HL)
        CP      B
        JR      C,.r0
        JR      Z,.r0
        LD      HL,KC_RBEH
        INC     (HL)
.r0:    LD      A,B
        CP      6
        JR      NZ,.r1
        LD      HL,KC_R7
        INC     (HL)
.r1:    LD      H,KVH
        LD      A,C
        ADD     A,E
        LD      L,A
        LD      A,(HL)
        OR      A
        RET     NZ              ; an own pawn on the file
        LD      A,L
        XOR     40h
        LD      L,A
        LD      A,(HL)
        LD      HL,KC_ROPEN
        OR      A
        JR      Z,.r2
        INC     HL              ; KC_RHALF
.r2:    INC     (HL)
        RET

; KKNGT: the knight on file E, own rank B: its steps from the centre,
; tropism, an outpost?   clobbers: A, D, HL
;   CALLED BY: KSIDE
;   CALLS:     KFRONT, KSTEPS, KTROP
KKNGT:  LD      HL,KC_NTROP
        CALL    KTROP
        CALL    KSTEPS
        LD      HL,KC_NCEN
        ADD     A,(HL)
        LD      (HL),A
        LD      A,B
        CP      4
        RET     C
        LD      A,E
        DEC     A
        RET     Z
        CP      7
        RET     Z
        DEC     E
        CALL    KFRONT
        INC     E
        RET     C
        INC     E
        CALL    KFRONT
        DEC     E
        RET     C
        LD      HL,KC_OUT
        INC     (HL)
        RET

; KTROP: tropism: the counter at HL += 8 - d, d = the steps (file + rank)
; from the man on file E, own rank B of the side at base C to the enemy
; king, when d < 8.   keeps: B, C, E   clobbers: A, D, HL   cost: 130-150 T
;   CALLED BY: KKNGT, KQUEEN, KROOK
;   CALLS:     -
KTROP:  PUSH    HL
        LD      A,C
        XOR     40h
        OR      K_KF
        LD      L,A
        LD      H,KVH
        LD      A,E             ; file steps
        SUB     (HL)
        JR      NC,.f
        NEG
.f:     LD      D,A
        INC     L               ; K_KR
        LD      A,B             ; the man's rank (own rank for White)
        BIT     6,C
        JR      Z,.w
        LD      A,7
        SUB     B
.w:     SUB     (HL)            ; rank steps
        JR      NC,.r
        NEG
.r:     ADD     A,D
        SUB     8
        POP     HL
        RET     NC              ; 8 steps or more: none
        NEG
        ADD     A,(HL)
        LD      (HL),A
        RET

; KKING: the king on file E, own rank B.   clobbers: A, B, D, E, HL
;   CALLED BY: KSIDE
;   CALLS:     KHOLE, KLOOK, KLUFT, KPHASE, KSTEPS, KZONE
KKING:  CALL    KPHASE
        JR      NC,.end
        CALL    KLUFT
        CALL    KHOLE
        LD      HL,KFDST        ; middlegame: steps from b1/g1
        LD      A,E
        CALL    KLOOK
        ADD     A,B
        LD      HL,KC_KSQ
        ADD     A,(HL)
        LD      (HL),A
        CALL    KZONE           ; the zone: the edge to one past the king
.kz:    LD      H,KVH
        LD      A,C
        ADD     A,E
        LD      L,A
        LD      B,(HL)          ; own pawns on the file
        XOR     40h
        LD      L,A
        LD      A,(HL)          ; enemy pawns
        LD      HL,KC_KOPEN
        INC     B
        DEC     B
        JR      NZ,.kown
        OR      A
        JR      Z,.kinc         ; open
        INC     HL              ; only an enemy pawn
        JR      .kinc
.kown:  OR      A
        JR      NZ,.knx
        INC     HL              ; half-open for the enemy
        INC     HL
.kinc:  INC     (HL)
.knx:   LD      A,E
        INC     E
        CP      D
        JR      C,.kz
        RET
.end:   CALL    KSTEPS          ; endgame: steps from the centre
        LD      HL,KC_KCEN
        ADD     A,(HL)
        LD      (HL),A
        RET

; KHOLE: holes in the shelter of the middlegame king on file E, own rank B
; (side base C): each square of its own third rank on its file and the two
; beside it that holds no own pawn and that no own pawn can defend any more
; (none on the second rank of a neighbouring file: K_LO, the rearmost, is
; 1), KC_HOLE += 1. A king off its two back ranks has no shelter counted.
;   keeps: B, C, E   clobbers: A, D, HL   cost: 30 T off the back ranks,
;   about 300 T on them
;   CALLED BY: KKING
;   CALLS:     -
KHOLE:  LD      A,B
        CP      2
        RET     NC
        PUSH    BC
        PUSH    DE
        LD      A,C             ; B = an own pawn's board byte
        ADD     A,A
        OR      PAWN
        LD      B,A
        DEC     E               ; E = the files E-1 .. E+1
        LD      D,3
.f:     LD      A,E
        OR      A
        JR      Z,.nx           ; off the board (file indices 0 and 9)
        CP      9
        JR      Z,.nx
        ADD     A,C
        ADD     A,K_LO-1
        LD      L,A
        LD      H,KVH
        LD      A,(HL)          ; the left neighbour's rearmost pawn
        DEC     A
        JR      Z,.nx           ; on the 2nd rank: it can defend
        INC     L
        INC     L
        LD      A,(HL)          ; the right neighbour's
        DEC     A
        JR      Z,.nx
        LD      A,8             ; the square: file 0..7 = a..h
        SUB     E
        ADD     A,SQ_A1+20      ; White's 3rd rank
        BIT     6,C
        JR      Z,.w
        ADD     A,30            ; Black's (the 6th)
.w:     LD      L,A
        LD      H,BPAGE
        LD      A,(HL)
        AND     87h
        CP      B
        JR      Z,.nx           ; an own pawn stands there
        LD      HL,KC_HOLE
        INC     (HL)
.nx:    INC     E
        DEC     D
        JR      NZ,.f
        POP     DE
        POP     BC
        RET

; KLUFT: the middlegame king on file E, own rank B of the side at base C,
; moved (castled or not: at home, castling is still to come and the castling
; terms speak): on its back rank with no square in front of it (the three
; of the next rank) free and not attacked by the enemy, KC_LUFT += 1. A
; square holding an enemy man counts as free unless the enemy defends it.
;   keeps: B, C, E   clobbers: A, D, HL
;   cost: 40 T off the back rank; 180-260 T with the squares all own men;
;   plus SQATK (about 1,100-1,500 T) for each square free or the enemy's
;   CALLED BY: KKING
;   CALLS:     SQATK
KLUFT:  LD      A,B
        OR      A
        RET     NZ              ; off its back rank
        LD      A,C
        OR      K_KB
        LD      L,A
        LD      H,KVH
        LD      A,(HL)
        AND     MOVED
        RET     Z               ; at home: castling is still to come
        PUSH    DE
        PUSH    BC
        LD      A,8             ; the file (0..7 = a..h)
        SUB     E
        ADD     A,SQ_A1+10-1    ; White: the 2nd rank, one file to the left
        BIT     6,C
        JR      Z,.w
        ADD     A,50            ; Black: the 7th
.w:     LD      L,A
        LD      H,BPAGE
        LD      A,C             ; E = the enemy's colour (SQATK)
        XOR     40h
        ADD     A,A
        LD      E,A
        LD      B,3
.sq:    LD      A,(HL)
        CP      OFFB
        JR      Z,.nx           ; off the board
        OR      A
        JR      Z,.free
        XOR     E
        JP      M,.nx           ; an own man
.free:  CALL    SQATK           ; (keeps BC, DE, HL)
        JR      Z,.out          ; free and safe: luft
.nx:    INC     L
        DJNZ    .sq
        LD      HL,KC_LUFT      ; trapped
        INC     (HL)
.out:   POP     BC
        POP     DE
        RET

; KOPPB: bishops of opposite colours: with nothing but one bishop each
; (and pawns) and the bishops on squares of different colours, and neither
; side two pawns or more ahead, the knowledge terms' sum HL becomes
; HL * (8 - P_OPPB) / 8 (0 = off; the seed: "the positional score is
; reduced, since drawing is probable"); the change goes to BK_OPB.
;   in: HL = the sum   out: HL   clobbers: A, BC, DE
;   cost: 60-100 T when not such an ending
;   CALLED BY: KNOW
;   CALLS:     MULAW
KOPPB:  LD      DE,0
        LD      (BK_OPB),DE
        LD      A,(KV+K_MAT)    ; a bishop's worth of pieces each, and a
        CP      3               ; bishop it is
        RET     NZ
        LD      A,(KV+40h+K_MAT)
        CP      3
        RET     NZ
        LD      A,(KV+K_NB)
        LD      B,A
        LD      A,(KV+40h+K_NB)
        AND     B
        RET     Z               ; (a knight on one side)
        LD      A,(KV+K_BC0)
        LD      B,A
        LD      A,(KV+40h+K_BC0)
        CP      B
        RET     Z               ; the same colour
        LD      A,(KV+K_NP)     ; pawns: White's minus Black's, -1..1?
        LD      B,A
        LD      A,(KV+40h+K_NP)
        SUB     B
        INC     A
        CP      3
        RET     NC              ; two or more ahead
        PUSH    HL
        EX      DE,HL           ; DE = the sum
        LD      A,(P_OPPB)
        NEG
        ADD     A,8
        CALL    MULAW           ; HL = (8 - P_OPPB) * DE
        LD      B,3
.d:     SRA     H
        RR      L
        DJNZ    .d
        POP     DE
        PUSH    HL
        OR      A
        SBC     HL,DE
        LD      (BK_OPB),HL
        POP     HL
        RET

; KOUTP: the passed pawn on file E of the side at base C: its distance in
; files to the nearest enemy pawn (8 with none within 7), kept in K_OUTP if
; the side's largest.   keeps: B, C, E   clobbers: A, D, HL
;   cost: about 60 T a file looked at each way
;   CALLED BY: KSIDEP
;   CALLS:     -
KOUTP:  LD      H,KVH
        LD      D,0             ; D = the distance
.d:     INC     D
        LD      A,D
        CP      8
        JR      NC,.k           ; none within 7 files
        LD      A,E             ; file E - D (0: the empty border)
        SUB     D
        JR      C,.r
        OR      C
        XOR     40h             ; the enemy's table
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      NZ,.k
.r:     LD      A,E             ; file E + D (9: the empty border)
        ADD     A,D
        CP      10
        JR      NC,.d
        OR      C
        XOR     40h
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      Z,.d
.k:     LD      A,C
        OR      K_OUTP
        LD      L,A
        LD      A,D
        CP      (HL)
        RET     C
        LD      (HL),A
        RET

; KLOOK: A = the byte at HL + A.   clobbers: HL
;   CALLED BY: KKING, KSTEPS
;   CALLS:     -
KLOOK:  ADD     A,L
        LD      L,A
        JR      NC,.n
        INC     H
.n:     LD      A,(HL)
        RET

; KCTR: A = how many of the squares HL, HL+1 hold the pawn D (unmoved).
;   clobbers: E, HL
;   CALLED BY: KPAWNS
;   CALLS:     -
KCTR:   LD      E,0
        LD      A,(HL)
        AND     87h
        CP      D
        JR      NZ,.a
        INC     E
.a:     INC     L
        LD      A,(HL)
        AND     87h
        CP      D
        JR      NZ,.b
        INC     E
.b:     LD      A,E
        RET

; KCADD: two centre pawns unmoved (A = 2): KC_CTR2 += B; one: KC_CTR1 += B.
;   CALLED BY: KPAWNS
;   CALLS:     -
KCADD:  LD      HL,KC_CTR2
        CP      2
        JR      Z,.a
        INC     HL
        DEC     A
        RET     NZ
.a:     LD      A,(HL)
        ADD     A,B
        LD      (HL),A
        RET

KMATV:  DB      0,0,3,3,5,9,0,0         ; by type: N B R Q in the seed's units
KPSHP:  DB      0,1,1,2,3,5,8,0         ; a passed pawn by own rank (x P_PASS)
KFDST:  DB      0,1,0,1,2,2,1,0,1,0     ; by file: steps from the b- or g-file
KCDST:  DB      0,3,2,1,0,0,1,2,3,0     ; by file (or rank + 1): from the centre
