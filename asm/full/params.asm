; ===========================================================================
; params.asm (full build only): the scoring parameter blocks, after Cray
; Blitz's "Scoring Parameter Blocks". Every weight the full build's POINTS and
; search use is a word (or byte) of the ACTIVE block PRM, read as
; LD HL,(P_NAME) or LD A,(P_NAME); nothing is baked into the code.
;
; UNIT: scores are signed 16-bit words, 256 = one pawn (so End-Game's 1/30
; pawn is about 8.5 units); mate = MATE - plies to the mate (search.asm).
;
; A block is 256 bytes (PBLKSZ); offsets 00h-7Fh hold the weights and flags
; of the frame, knowledge, search craft and endings, 80h on the second flags
; byte and the weights after it. The active block PRM is C000h-C0FFh in
; expansion RAM; the three stored blocks are in the full machine's RAM at
; 6000h-7FFFh (256-byte blocks outgrew C000h-C1FFh):
;   PRMBLK+000h  block 0: default      PRMBLK+100h  block 1: after 1.e4
;   PRMBLK+200h  block 2: after 1.d4
; At reset all three get the ROM's defaults (DEFPRM), and the d4 block its
; own where DEFD4 says (the queen-pawn openings' two terms). 'W' writes a stored
; block, 'V' reads one; a new game keeps them. SELPRM copies the block the
; game's opening picks into PRM at the start of every search and evaluation
; (between moves only; the PRMUSED bytes in use, so a byte of the block costs
; the search 21 T only once a parameter holds it): a game that began at the initial position and whose
; first move was e2-e4 uses block 1, d2-d4 block 2, anything else block 0
; (either colour).
;
; BLOCK LAYOUT (offset: name, size, default, meaning). src/firmware/params.rs
; describes each for the host (range, meaning); a test keeps the two in step.
;
;   00h  P_FLAGS  b  FCh  search additions and switches on: bit 0 transposition
;                         table, bit 1 aspiration windows, bit 2 repetition
;                         and 50-move draws scored by ply (draw.asm), bit 3
;                         deep think after a fail low (time.asm), bit 4
;                         capture extension in pawn endings, bit 5
;                         best-reply-first at ply 2 (endgame.asm),
;                         bit 6 the pawn-structure hash (pawnhash.asm:
;                         the same trees in fewer T-states), bit 7
;                         artificially isolated pawns counted as isolated
;                         (knowledge.asm KAISO)
;   01h  P_QPCP   sb  0   queen-pawn openings (knowledge.asm KQPO): a
;                         middlegame side's c-pawn still on its 2nd or 3rd
;                         rank (the seed's "strives to play c4"); -48 in
;                         the d4 block (DEFD4), 0 in the others
;   02h  P_PAWN   w  256  material values (the exchange evaluator keeps the
;   04h  P_KNIGHT w  768    attacker array's 4-bit values P1 N3 B3 R5 Q9)
;   06h  P_BISHOP w  768
;   08h  P_ROOK   w  1280
;   0Ah  P_QUEEN  w  2304
;   0Ch  P_XLOST  w  256  the mover's largest exchange loss, per residue unit
;   0Eh  P_XWON   w  192  the side to move's second largest, per residue unit
;   10h  P_MCLAMP w  3840 material change from the root clamped to +-this
;   12h  P_SCLAMP w  3840 material plus exchange terms clamped to +-this
;   14h  P_BCSQ   w  32   board control: per attacked square (net)
;   16h  P_DVMIN  w  -64  development: an unmoved knight or bishop
;   18h  P_DVCAS  w  192  development: a castled king
;   1Ah  P_DVKMV  w  -64  development: a king moved without castling
;   1Ch  P_DVMAJ  w  -64  development: a rook or queen moved early
;   1Eh  P_DVMNO  b  7    ... "early" = before this move number
;   1Fh  P_QPKN   sb  0   queen-pawn openings: the engine's knight on
;                         c3 (c6) in front of its c-pawn on c2 (c7), in the
;                         middlegame (the seed's development routine); -32
;                         in the d4 block (DEFD4), 0 in the others
;   20h  P_BCCLMP w  192  board control plus development change clamped
;   22h  P_DRAWW  w  25   the draw window: a draw at ply n scores
;                         min(n, this) for the engine, and scores positive
;                         for the engine move up by this (the seed's 100 of
;                         its 1,000 a pawn)
;
;   Cray Blitz's knowledge (knowledge.asm), in three runs of
;   words (24h-3Eh, 40h-66h, 7Dh). Each word multiplies a count in White's
;   view (White's features minus Black's) unless said otherwise:
;   24h  P_KMOVE  w  -32  the king moved without castling (enemy pieces over
;                         P_KPHASE; the article's P_DVKMV counts it too)
;   26h  P_KRMOV  w  -20  the king unmoved, its king's rook moved or gone
;   28h  P_QRMOV  w  -12  the king unmoved, its queen's rook moved or gone
;   2Ah  P_BBAD   w  -4   per bishop, each own pawn on its squares' colour
;   2Ch  P_NCEN   w  -2   a knight's steps from the centre (file + rank)
;   2Eh  P_QCEN   w  -4   a queen's steps from the centre
;   30h  P_RBEH   w  32   a rook behind an own passed pawn on its file
;   32h  P_NTROP  w  4    tropism: per knight, 8 - its steps (file + rank)
;                         to the enemy king, when fewer than 8
;   34h  P_RTROP  w  2    ... per rook
;   36h  P_QTROP  w  4    ... the queen
;   38h  P_LUFT   w  -16  a middlegame king on its back rank without luft:
;                         each square in front an own man or attacked
;   3Ah  P_OUTP   w  40   an outside passed pawn: +1 for the side whose
;                         passed pawn stands farther (3 files or more) from
;                         every enemy pawn than any of the other side's
;   3Ch  P_RHORZ  w  -16  a rook with no horizontal mobility: the squares
;                         beside it on its rank own men or off the board
;   3Eh  P_HOLE   w  -8   a hole in a middlegame king's shelter (on its two
;                         back ranks): a square of its 3rd rank, its file
;                         or beside, no own pawn on it nor able to defend it
;   40h  P_DOUBL  w  -40  a doubled pawn (each beyond the first on a file)
;   42h  P_ISOOP  w  -48  an isolated pawn, no enemy pawn in front (open)
;   44h  P_ISOCL  w  -24  an isolated pawn with an enemy pawn in front
;   46h  P_BKWOP  w  -40  a backward pawn on an open file (= isolated open)
;   48h  P_BKWCL  w  -24  a backward pawn on a closed file (= isolated closed)
;   4Ah  P_PASS   w  24   a passed pawn, times 1 1 2 3 5 8 on ranks 2..7
;   4Ch  P_CTR2   w  -64  both centre pawns on their original squares
;   4Eh  P_CTR1   w  -24  one centre pawn on its original square
;   50h  P_RAM    w  -16  a pawn ram, counted against the engine's side only
;   52h  P_EIGHT  w  -32  the engine's side has all eight pawns
;   54h  P_ROPEN  w  48   a rook on an open file
;   56h  P_RHALF  w  24   a rook on a half-open file (enemy pawns only)
;   58h  P_R7TH   w  64   a rook on the 7th rank
;   5Ah  P_BPAIR  w  96   the bishop pair
;   5Ch  P_OUTPO  w  64   a knight outpost
;   5Eh  P_KOPEN  w  -64  middlegame king: an open file in its zone
;   60h  P_KENEM  w  -40  ... a zone file with an enemy pawn but no own pawn
;   62h  P_KHALF  w  -24  ... a zone file with an own pawn but no enemy pawn
;   64h  P_KSQ    w  -16  ... per step from b1/g1 (file steps + rank)
;   66h  P_KCENT  w  -12  endgame king: per step from the centre
;   68h  P_KPHASE b  13   middlegame while the enemy's pieces (N3 B3 R5 Q9)
;                         exceed this (the seed's 13,000)
;   69h  P_DVTWC  sb -24  development (knowledge.asm KDEV2): each of the
;                         engine's moves in the search path that moves a
;                         man already moved, until move 15 and while a
;                         knight or bishop is at home or the king has not
;                         castled (the seed's "moving any piece twice before
;                         moving all pieces once"); counted against the
;                         engine's side only
;
;   king-and-pawn endings (kpend.asm, endgame.asm), scored only
;   when nothing but kings and pawns is left:
;   6Ah  P_RACE   w  1536 a race or K+P(s) v K won for certain (Cray Blitz's
;                         "more than a rook, less than a queen"); 0 = off
;   6Ch-77h  End-Game's Table 1 (endgame.asm has each term), signed bytes,
;            each times its count in White's view:
;   6Ch  P_EGAPP  sb -77  the mover's pawn attacked by the enemy king or a pawn
;   6Dh  P_EGEDG  sb -26  a rook pawn
;   6Eh  P_EGADV  sb  3   Y*Y for a pawn on its own Y-th rank
;   6Fh  P_EGDBL  sb -51  (Y-1)*Y for Y own pawns on one file
;   70h  P_EGFRE  sb  77  no enemy man in the pawn's three-file channel
;   71h  P_EGCH1  sb  26  the channel's nearest men (pawn 1, king 3, own +)
;   72h  P_EGCH2  sb  26  the channel's pawns, own minus enemy
;   73h  P_EGOPP  sb  26  the opposition, for the side that has just moved
;   74h  P_EGENE  sb  51  an enemy pawn next to the king
;   75h  P_EGENO  sb  17  an own pawn next to the king
;   76h  P_EGCEN  sb  9   the king on the centre 16 squares
;   77h  P_EGRIP  sb  3   the engine's king's ripple, per (8 - d) * material
;   78h  P_RPDRW  b   1   K+RP v K with the defending king in the pawn's
;                         way scored as a draw (kpend.asm RPDRAW); 0 = off
;   79h  P_LUS    b   1   Lüscher's generated evaluation scores KRK,
;                         KBBK (bishops on both colours) and KBNK
;                         (luscher.asm); 0 = off
;   7Ah  P_FRONT  b   1   K+P v K with the bare king on the pawn's file
;                         one or two squares in front of it scored as a draw
;                         (kpend.asm FRDRAW); 0 = off
;   7Bh  P_WBDRW  b   1   K+RP+wrong bishop v K, the bare king by the
;                         queening square, scored as a draw (WBDRAW); 0 = off
;   7Ch  P_OPPB   b   4   bishops of opposite colours (one each, no other
;                         pieces, neither side two pawns ahead): the
;                         knowledge terms' sum reduced by this / 8 (0 = off)
;   7Dh  P_BDIAG  w   3   open diagonals: per bishop, each square of its
;                         two forward diagonals up to a pawn or the edge (a
;                         word, the knowledge sum's third run)
;   7Fh  P_QKS    sb  13  the queen's worth and the enemy king's safety
;                         (knowledge.asm KQKS): per queen, each file of the
;                         enemy king's zone without a pawn of the king's
;                         side, while that king is in its middlegame
;
;   the grown block, from 80h
;   80h  P_FLAGS2 b   0Fh a second byte of switches: bit 0 F2_KPKBB the
;                         KPK bitbase, bits 1-3 on since they scored 70% in
;                         200 games at 40/7200 (tests/full/before35.params
;                         turns them off: the full build before them), bit 1
;                         F2_ORDER cheap interior ordering (the table move,
;                         MVV/LVA captures, killers, history: no POINTS per
;                         move), bit 2 F2_QUIES a quiescence search below the
;                         nominal depth, bit 3 F2_LAZY lazy evaluation (POINTS
;                         leaves before the exchange analysis when the score
;                         is outside the window by more than the rest can
;                         add), bit 4 F2_CEVAL the cheap stage of a quiescence
;                         node's score (full/ceval.asm), bits 5-7 reserved
;   81h  P_CEMN   b   48  the cheap stage (full/ceval.asm, F2_CEVAL): a
;                         quiescence node's material this many 1/16 pawn
;                         above beta stands pat without POINTS; 0 = never
;   82h  P_CEMC   b   48  ... this many below alpha is taken as alpha
;                         without POINTS; 0 = never
;   83h-87h  free: the search's weights (add each at PRMUSED, give it a
;            default in DEFPRM and a line in src/firmware/params/table.rs)
;   88h  P_QDEP   b   4   the quiescence search's plies at most
;                         (full/quies.asm, F2_QUIES); 0 = the static score
;   89h  P_QDELT  b   32  delta pruning's margin in 1/16 pawn: a
;                         capture that cannot lift the static score above
;                         the best so far by this much is not searched; 0 =
;                         no delta pruning
;   8Ah-9Fh  free: the search's
;
;   the KBNK mating procedure (full/kbnk.asm), from A0h
;   A0h  P_KBNK   b   3   4 as 3, an iterating search capped at
;                         P_KBDEP plies (A6h); 3 scores KBNK by the fitted
;                         tables, a position that repeats one of the path
;                         or the game (or
;                         meets the 50-move rule) a draw at the leaves too
;                         (KBDRW); 2 by the tables alone (KBTAB,
;                         full/kbnk_tables.asm: 92 of 100 converted at 180 s,
;                         every draw held); 1 by the mating procedure (page
;                         6; it converts fewer than the module); 0 by
;                         Lüscher's module
;   A1h  P_KBGR   b   8   per unit of the corner gradient (0-90)
;   A2h  P_KBKD   b   24  less per king step between the kings
;   A3h  P_KBND   b   8   less per king step from the knight to the bare king
;   A4h  P_KBFL   b   8   less per flight square of the bare king
;   A5h  P_KBUNC  b   8   an unclaimed position scores 256 * this less
;   A6h  P_KBDEP  b   4   P_KBNK = 4: an iterating (timed) search that
;                         evaluates a KBNK position stops after this many
;                         plies (0: no cap; full/kbnk.asm KBDRW)
;   A7h-AFh  free: the KBNK procedure's weights
;
;   the KBBK mating procedure (full/kbbk.asm), from B0h
;   B0h  P_KBBK   b   2   1 scores KBBK (bishops on both colours) by the
;                         mating procedure (page 7) instead of Lüscher's
;                         module; 2 the same with the bare king to move, the
;                         module with the strong side to move; 0 = the module
;   B1h  P_BBGR   b   8   per unit of the edge and corner gradient (0-90)
;   B2h  P_BBKD   b   24  less per king step between the kings
;   B3h  P_BBFL   b   16  less per flight square of the bare king
;   B4h  P_BBAR   b   4   less per square of the bare king's area (the bare
;                         king to move)
;   B5h  P_BBUNC  b   8   an unclaimed position scores 256 * this less
;   B6h-FFh  free
; ===========================================================================

PBLKSZ  EQU     100h
PRM     EQU     XRAM+000h       ; the active block (C000h-C0FFh)
PRMBLK  EQU     XRAMLO+000h     ; the three stored blocks (6000h-62FFh)
        ASSERT  (PRMBLK & 0FFh) == 0, "PRMARG takes a block's page as block + PRMBLK>>8"

P_FLAGS  EQU    PRM+00h
P_QPCP   EQU    PRM+01h
P_PAWN   EQU    PRM+02h
P_KNIGHT EQU    PRM+04h
P_BISHOP EQU    PRM+06h
P_ROOK   EQU    PRM+08h
P_QUEEN  EQU    PRM+0Ah
P_XLOST  EQU    PRM+0Ch
P_XWON   EQU    PRM+0Eh
P_MCLAMP EQU    PRM+10h
P_SCLAMP EQU    PRM+12h
P_BCSQ   EQU    PRM+14h
P_DVMIN  EQU    PRM+16h
P_DVCAS  EQU    PRM+18h
P_DVKMV  EQU    PRM+1Ah
P_DVMAJ  EQU    PRM+1Ch
P_DVMNO  EQU    PRM+1Eh
P_QPKN   EQU    PRM+1Fh
P_BCCLMP EQU    PRM+20h
P_DRAWW  EQU    PRM+22h
P_KMOVE  EQU    PRM+24h
P_KRMOV  EQU    PRM+26h
P_QRMOV  EQU    PRM+28h
P_BBAD   EQU    PRM+2Ah
P_NCEN   EQU    PRM+2Ch
P_QCEN   EQU    PRM+2Eh
P_RBEH   EQU    PRM+30h
P_NTROP  EQU    PRM+32h
P_RTROP  EQU    PRM+34h
P_QTROP  EQU    PRM+36h
P_LUFT   EQU    PRM+38h
P_OUTP   EQU    PRM+3Ah
P_RHORZ  EQU    PRM+3Ch
P_HOLE   EQU    PRM+3Eh
; Cray Blitz's knowledge: the weights (knowledge.asm), consecutive words
P_DOUBL  EQU    PRM+40h
P_ISOOP  EQU    PRM+42h
P_ISOCL  EQU    PRM+44h
P_BKWOP  EQU    PRM+46h
P_BKWCL  EQU    PRM+48h
P_PASS   EQU    PRM+4Ah
P_CTR2   EQU    PRM+4Ch
P_CTR1   EQU    PRM+4Eh
P_RAM    EQU    PRM+50h
P_EIGHT  EQU    PRM+52h
P_ROPEN  EQU    PRM+54h
P_RHALF  EQU    PRM+56h
P_R7TH   EQU    PRM+58h
P_BPAIR  EQU    PRM+5Ah
P_OUTPO  EQU    PRM+5Ch
P_KOPEN  EQU    PRM+5Eh
P_KENEM  EQU    PRM+60h
P_KHALF  EQU    PRM+62h
P_KSQ    EQU    PRM+64h
P_KCENT  EQU    PRM+66h
P_KPHASE EQU    PRM+68h
P_DVTWC  EQU    PRM+69h
; king-and-pawn endings
P_RACE   EQU    PRM+6Ah
P_EGAPP  EQU    PRM+6Ch         ; End-Game's weights, consecutive signed bytes
P_EGEDG  EQU    PRM+6Dh
P_EGADV  EQU    PRM+6Eh
P_EGDBL  EQU    PRM+6Fh
P_EGFRE  EQU    PRM+70h
P_EGCH1  EQU    PRM+71h
P_EGCH2  EQU    PRM+72h
P_EGOPP  EQU    PRM+73h
P_EGENE  EQU    PRM+74h
P_EGENO  EQU    PRM+75h
P_EGCEN  EQU    PRM+76h
P_EGRIP  EQU    PRM+77h
P_RPDRW  EQU    PRM+78h
P_LUS    EQU    PRM+79h
P_FRONT  EQU    PRM+7Ah
P_WBDRW  EQU    PRM+7Bh
P_OPPB   EQU    PRM+7Ch
P_BDIAG  EQU    PRM+7Dh
P_QKS    EQU    PRM+7Fh
; the grown block: the second flags byte (bits: F2_ names below)
P_FLAGS2 EQU    PRM+80h
P_CEMN   EQU    PRM+81h         ; the cheap stage's stand-pat margin, 1/16 pawn
P_CEMC   EQU    PRM+82h         ; the cheap stage's cut-off margin, 1/16 pawn
P_QDEP   EQU    PRM+88h         ; quiescence plies at most (quies.asm)
P_QDELT  EQU    PRM+89h         ; delta pruning's margin, 1/16 pawn
; the KBNK mating procedure
P_KBNK   EQU    PRM+0A0h
P_KBGR   EQU    PRM+0A1h
P_KBKD   EQU    PRM+0A2h
P_KBND   EQU    PRM+0A3h
P_KBFL   EQU    PRM+0A4h
P_KBUNC  EQU    PRM+0A5h
P_KBDEP  EQU    PRM+0A6h
; the KBBK mating procedure
P_KBBK   EQU    PRM+0B0h
P_BBGR   EQU    PRM+0B1h
P_BBKD   EQU    PRM+0B2h
P_BBFL   EQU    PRM+0B3h
P_BBAR   EQU    PRM+0B4h
P_BBUNC  EQU    PRM+0B5h
PRMUSED  EQU    0B6h            ; bytes of the block in use (SELPRM copies them)
        ASSERT  PRMUSED <= PBLKSZ, "the parameters outgrew the block"

; P_FLAGS2's bits (masks)
F2_KPKBB EQU    01h             ; the KPK bitbase scores K+P v K
F2_ORDER EQU    02h             ; cheap interior ordering (no POINTS per move)
F2_QUIES EQU    04h             ; a quiescence search below the nominal depth
F2_LAZY  EQU    08h             ; lazy evaluation (POINTS' early exit)
F2_CEVAL EQU    10h             ; the cheap stage of a quiescence node's score
F2_RSVD  EQU    0E0h            ; reserved

EBADPRM EQU     10h             ; 'W'/'V': block or range outside the blocks

; The defaults live in expansion ROM page 0 (read through the window at
; reset): the first tenant of the plug-in module's pages.
        PAGE    0
        ORG     8000h
DEFPRM: DB      0FCh            ; P_FLAGS: bits 2-7 on (the layout above)
        DB      0               ; P_QPCP (the d4 block's in DEFD4)
        DW      256,768,768,1280,2304   ; P_PAWN .. P_QUEEN
        DW      256,192         ; P_XLOST, P_XWON
        DW      3840,3840       ; P_MCLAMP, P_SCLAMP
        DW      32              ; P_BCSQ
        DW      -64,192,-64,-64 ; P_DVMIN, P_DVCAS, P_DVKMV, P_DVMAJ
        DB      7               ; P_DVMNO
        DB      0               ; P_QPKN (the d4 block's in DEFD4)
        DW      192             ; P_BCCLMP
        DW      25              ; P_DRAWW
        DW      -32,-20,-12     ; P_KMOVE, P_KRMOV, P_QRMOV
        DW      -4,-2,-4,32     ; P_BBAD, P_NCEN, P_QCEN, P_RBEH
        DW      4,2,4           ; P_NTROP, P_RTROP, P_QTROP
        DW      -16,40          ; P_LUFT, P_OUTP
        DW      -16,-8          ; P_RHORZ, P_HOLE
        ; Cray Blitz's knowledge: the weights, from offset 40h
        DS      40h-($-DEFPRM)
        DW      -40,-48,-24,-40,-24     ; P_DOUBL .. P_BKWCL
        DW      24                      ; P_PASS
        DW      -64,-24,-16,-32         ; P_CTR2, P_CTR1, P_RAM, P_EIGHT
        DW      48,24,64                ; P_ROPEN, P_RHALF, P_R7TH
        DW      96,64                   ; P_BPAIR, P_OUTPO
        DW      -64,-40,-24,-16,-12     ; P_KOPEN .. P_KCENT
        DB      13                      ; P_KPHASE
        DB      -24                     ; P_DVTWC
        ; king-and-pawn endings, from offset 6Ah
        DW      1536                    ; P_RACE
        DB      -77,-26,3,-51           ; P_EGAPP .. P_EGDBL
        DB      77,26,26                ; P_EGFRE, P_EGCH1, P_EGCH2
        DB      26,51,17,9,3            ; P_EGOPP .. P_EGRIP
        DB      1                       ; P_RPDRW
        DB      1                       ; P_LUS
        DB      1                       ; P_FRONT
        DB      1                       ; P_WBDRW
        DB      4                       ; P_OPPB
        DW      3                       ; P_BDIAG
        DB      13                      ; P_QKS
        ; the grown block, from offset 80h
        DB      F2_KPKBB+F2_ORDER+F2_QUIES+F2_LAZY ; P_FLAGS2: the KPK bitbase, the search's
                                        ; ordering, quiescence and lazy evaluation on
        DB      48,48                   ; P_CEMN, P_CEMC (3 pawns each)
        DS      88h-($-DEFPRM)          ; 83h-87h: free
        DB      4                       ; P_QDEP
        DB      32                      ; P_QDELT (2 pawns)
        DS      0A0h-($-DEFPRM)         ; 8Ah-9Fh: free
        ; the KBNK mating procedure, from offset A0h
        DB      3                       ; P_KBNK: the fitted tables, leaf draws (4: the depth cap, see asm/README.md)
        DB      8,24,8,8                ; P_KBGR, P_KBKD, P_KBND, P_KBFL
        DB      8                       ; P_KBUNC
        DB      4                       ; P_KBDEP
        DS      0B0h-($-DEFPRM)         ; A7h-AFh: the KBNK procedure's
        ; the KBBK mating procedure, from offset B0h
        DB      2                       ; P_KBBK (the bare king to move: see asm/README.md)
        DB      8,24,16,4               ; P_BBGR, P_BBKD, P_BBFL, P_BBAR
        DB      8                       ; P_BBUNC
        ASSERT  $-DEFPRM == PRMUSED, "DEFPRM and the block layout disagree"
; DEFD4: where the d4 block's defaults differ (the seed's "pawn-advancement
; scoring ... varies depending on the type of opening"): offset, value;
; 0FFh ends.
DEFD4:  DB      P_QPCP-PRM, -48
        DB      P_QPKN-PRM, -32
        DB      0FFh
        ENDPAGE

; XRAMCL: zero the expansion RAM's blocks and variables (C000h-C3FFh).
;   clobbers: BC, DE, HL
;   CALLED BY: START
;   CALLS:     -
XRAMCL: LD      HL,XRAM
        LD      DE,XRAM+1
        LD      BC,400h-1
        LD      (HL),0
        LDIR
        RET

; PRMRST: every stored block gets the defaults (at reset, and 'W' FFh): the
; ROM's PRMUSED bytes, the rest of each block zero.
;   out: page 0 selected   clobbers: A, BC, DE, HL
;   CALLED BY: CPARW, START
;   CALLS:     -
PRMRST: LD      A,PAGEOF(DEFPRM)
        OUT     (PPAGE),A
        LD      HL,PRMBLK
        LD      BC,3*PBLKSZ
.z:     LD      (HL),0
        INC     HL
        DEC     BC
        LD      A,B
        OR      C
        JR      NZ,.z
        LD      DE,PRMBLK
        CALL    .one
        LD      DE,PRMBLK+PBLKSZ
        CALL    .one
        LD      DE,PRMBLK+2*PBLKSZ
        CALL    .one
        LD      HL,DEFD4        ; the d4 block's own defaults
.d4:    LD      A,(HL)
        CP      0FFh
        RET     Z
        LD      DE,PRMBLK+2*PBLKSZ
        ADD     A,E
        LD      E,A
        ADC     A,D
        SUB     E
        LD      D,A
        INC     HL
        LD      A,(HL)
        LD      (DE),A
        INC     HL
        JR      .d4
.one:   LD      HL,DEFPRM
        LD      BC,PRMUSED
        LDIR
        RET

; SELPRM: PRM = the stored block the game's opening picks (see above): its
; PRMUSED bytes.
;   clobbers: A, BC, DE, HL   cost: about 2,900 T + 21 T a byte beyond 80h
;   CALLED BY: CEVAL, CSRCH
;   CALLS:     PKSET
SELPRM: LD      HL,PRMBLK
        LD      A,(GAMSTD)
        OR      A
        JR      Z,.copy
        LD      DE,(HISTP)      ; no move played yet: the default
        LD      A,E
        CP      HIST & 0FFh
        JR      NZ,.some
        LD      A,D
        CP      HIST >> 8
        JR      Z,.copy
.some:  LD      A,(HIST+2)      ; the first move's from and to
        LD      C,A
        LD      A,(HIST+3)
        CP      55              ; e2-e4?
        JR      NZ,.d4
        LD      A,C
        CP      35
        JR      NZ,.copy
        LD      HL,PRMBLK+PBLKSZ
        JR      .copy
.d4:    CP      54              ; d2-d4?
        JR      NZ,.copy
        LD      A,C
        CP      34
        JR      NZ,.copy
        LD      HL,PRMBLK+2*PBLKSZ
.copy:  LD      DE,PRM
        LD      BC,PRMUSED      ; the bytes in use (the rest stays 0)
        LDIR
        JP      PKSET           ; pawnhash.asm: the pawns' key from the board

; PRMARG: read 'offset n' of block A and check them (offset + n <= 100h: any
; byte of a 256-byte block, n = 0 too).
;   out: HL = the block's byte at offset, B = n (n may be 0)
;   clobbers: A   error: EBADPRM
;   CALLED BY: CPARV, CPARW
;   CALLS:     CMDERR, GETB
PRMARG: CP      3
        JR      NC,.bad
        ADD     A,PRMBLK >> 8   ; the block's page
        LD      H,A
        CALL    GETB
        LD      L,A             ; HL = the byte at offset
        CALL    GETB
        LD      B,A
        ADD     A,L             ; offset + n: at most 100h
        RET     NC
        RET     Z               ; exactly 100h: up to the block's last byte
.bad:   LD      A,EBADPRM
        JP      CMDERR

; CPARW: 'W' block offset n byte*n -> 00: write n bytes of a stored block;
; 'W' FFh -> 00: every block back to the ROM's defaults.
; The arguments are checked before any byte is written; the host sends a
; whole parameter file only once it has checked it (never a half block).
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     GETB, PRMARG, PRMRST, PUTOK, TTCLR
CPARW:  CALL    GETB
        PUSH    AF
        CALL    TTCLR           ; craft.asm: scores of other parameters go
        POP     AF
        INC     A
        JR      NZ,.blk
        CALL    PRMRST
        JP      PUTOK
.blk:   DEC     A
        CALL    PRMARG
        INC     B
.w:     DEC     B
        JP      Z,PUTOK
        CALL    GETB
        LD      (HL),A
        INC     HL
        JR      .w

; CPARV: 'V' block offset n -> 00 byte*n: read n bytes of a stored block.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     GETB, PRMARG, PUTB, PUTOK
CPARV:  CALL    GETB
        CALL    PRMARG
        CALL    PUTOK
        INC     B
.r:     DEC     B
        RET     Z
        LD      A,(HL)
        CALL    PUTB
        INC     HL
        JR      .r
