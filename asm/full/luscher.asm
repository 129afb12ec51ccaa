; ===========================================================================
; luscher.asm (full build only): Lüscher's generated evaluation as the plug-in
; endgame module of a period machine, after M. Lüscher,
; "Automatic Generation of an Evaluation Function for Chess Endgames" (2000).
;
; The host fits the weights (`z80chess luscher fit`) and writes them as
; luscher_tables.asm (`z80chess luscher export`): per ending a directory
; entry (LUSDIR) and per piece type a table of configurations in jump-table
; order, in expansion ROM pages 1 and 2. This file is the code that uses
; them, at every evaluated node:
;
;   1. LUSCAN  the men from the board: at most four, no pawn or queen, one
;              side with pieces (the strong side), the other a bare king;
;              listed strong king, weak king, then the pieces by role
;              (rook, bishop, knight: the directory's order). Two bishops on
;              one colour are not KBBK's (the model knows the pair only).
;   2. LUSDIRF the ending in LUSDIR, by its men; each man's table.
;   3. LUSVEC  each man's 32 features (src/luscher/features.rs has each bit;
;              the host's `features::vector` is the model and the tests hold
;              the two equal), a byte a bit in LUSVB, then packed.
;   4. LUSVAL  the man's value: the per-man cache (keyed by table and
;              vector) or LWALK, the walk over the table with its skips.
;   5. LUSMAP  E = the side to move's men minus the other's (16-bit, wrap-
;              around as the host's), clamped to +-LUSLIM; then the engine
;              scale (src/luscher/quant.rs): E above the ending's threshold
;              (the function says "won") scores LUSWIN + E, below minus it
;              -LUSWIN + E, between E/64 (half-moves, truncated toward 0).
;              A won ending thus scores 16,562..24,575, above every score
;              the rest of the full build gives (material and exchange
;              clamped to +-P_SCLAMP, control to +-P_BCCLMP, knowledge a few
;              hundred) and below MATEMIN, so a mate still ranks first.
;
; POINTS calls LUSPRE first: when the module knows the ending, its score is
; the position's value (the term BK_LUS, every other term 0) and the rest of
; POINTS is skipped. P_LUS = 0 turns the module off.
;
; Men are records of 16 bytes (M_...); sides are 0 strong, 1 weak, so bit 0
; or 1 of a vector ("more" / "less material") is the man's side.
;
; RAM: LUSRAM = XRAM+800h (C800h-C8FFh), LUSVB C900h-C9FFh, the cache
; LUSHC CA00h-CDFFh.
; cost: about 20,000-60,000 T per evaluation in these endings (the tests
; print it), some 100 T elsewhere.
; ===========================================================================

LUSRAM  EQU     XRAM+800h
LUSN    EQU     LUSRAM+00h      ; 1  men on the board
LUSIDX  EQU     LUSRAM+01h      ; 1  the ending's index in LUSDIR
LUSE    EQU     LUSRAM+02h      ; 2  E, the side to move's view, units
LUSSTM  EQU     LUSRAM+04h      ; 1  the colour to move (00h, 80h)
LUSPGS  EQU     LUSRAM+05h      ; 1  the page selected on entry
LUSSTR  EQU     LUSRAM+06h      ; 1  the strong side's colour
LUSI    EQU     LUSRAM+07h      ; 1  LUSEV: men left
LUSHIT  EQU     LUSRAM+08h      ; 4  counter: values from the cache
LUSWLK  EQU     LUSRAM+0Ch      ; 4  counter: walks
LUSJ    EQU     LUSRAM+10h      ; 1  loops over the other men
LUSFL   EQU     LUSRAM+11h      ; 1  flight squares / zone hits counted
LUSCNT  EQU     LUSRAM+12h      ; 1  the eight king steps
LUSKB   EQU     LUSRAM+13h      ; 1  a king's board byte (taken off)
LKSQ    EQU     LUSRAM+14h      ; 1  that king's square, file, rank
LKF     EQU     LUSRAM+15h
LKR     EQU     LUSRAM+16h
LEF     EQU     LUSRAM+17h      ; 1  FROOK: the enemy king's file, rank,
LER     EQU     LUSRAM+18h
LOF     EQU     LUSRAM+19h      ;    the own king's file, rank
LOR     EQU     LUSRAM+1Ah
LUSPTR  EQU     LUSRAM+1Ch      ; 2  LUSCAN: the next record
LUSTY   EQU     LUSRAM+1Eh      ; 2  LUSDIRF: the ending's type list
LUSTMP  EQU     LUSRAM+20h      ; 20 LUSCAN: colour role square file rank *4
LUSMEN  EQU     LUSRAM+40h      ; 64 the men, 16 bytes each:
M_SIDE  EQU     0               ;    0 strong, 1 weak
M_ROLE  EQU     1               ;    KING ROOK BISHOP KNIGHT
M_SQ    EQU     2               ;    the board index
M_F     EQU     3               ;    file 0-7
M_R     EQU     4               ;    rank 0-7
M_COL   EQU     5               ;    00h White, 80h Black
M_PG    EQU     6               ;    its table: page,
M_TAB   EQU     7               ;    window address (2),
M_BASE  EQU     9               ;    the empty configuration's word (2)
M_VEC   EQU     11              ;    its feature vector (4, bit 0 first)
LUSVB   EQU     LUSRAM+100h     ; 256 the vector being built, a byte a bit (80h)
                                ;    (00h-1Fh, 80h-9Fh, FFh: see LWALK)
LUSHC   EQU     LUSRAM+200h     ; 1K the cache (LUSVAL), 64 entries of 16
                                ;    bytes: page, table (2), vector (4),
                                ;    value (2)

        ASSERT  LOW(LUSVB) == 0 && LOW(LUSHC) == 0, "LUSVB and LUSHC must be page aligned"

; The endings' thresholds, in LUSDIR's order (luscher_tables.asm).
LUSTHT: DW      LTKRKTH,LTKBBKTH,LTKBNKTH
LUSNE   EQU     3

; LUSCLR: the cache emptied (at reset).   clobbers: A, B, DE, HL
;   CALLED BY: START
;   CALLS:     -
LUSCLR: LD      HL,LUSHC
        LD      DE,16
        LD      B,64
.c:     LD      (HL),0FFh       ; no table has page FFh
        ADD     HL,DE
        DJNZ    .c
        RET

; LUSPRE (POINTS, first): when the module knows the ending, it alone scores
; the position: the rest of POINTS is skipped. Except when the bare king is
; to move and can take a piece (attacked by it, covered by none): the
; function has no search and need not know that, POINTS' XCHNG does (and the
; search at two plies then keeps its pieces, or as the defender takes them). HL = the total (White's view)
; such that the position's own value (the total plus the root's MV0W +
; BC0W, which the search measures from) is the module's score; BRKDN holds
; it as BK_LUS, every other term 0; MTRLW = the men's material (a root's
; MV0W); KV's material bytes say "pieces, no pawns" (EGROOT reads them).
; K+B or K+N v K, which the module does not know, scores 0 (a draw).
;   out: carry = scored   clobbers: A, BC, DE, HL (IX and IY kept)
;   cost when silent: 50 T (P_LUS = 0), about 40 T a square up to the first
;   pawn or queen or the fifth man (150-300 T in most positions)
;   CALLED BY: POINTS
;   CALLS:     KBBKEV, KBPRE, LUSEV, LUSMAT, NEGHL
LUSPRE: LD      A,(P_LUS)
        OR      A
        RET     Z               ; (no carry)
        LD      HL,BOARD+SQ_A1  ; a quick look first: a pawn, a queen or a
        LD      BC,(SQ_H8-SQ_A1+1) * 256 + 5  ; fifth man ends it
.q:     LD      A,(HL)
        OR      A
        JR      Z,.qn
        INC     A
        JR      Z,.qn           ; off the board
        DEC     A
        AND     7
        CP      PAWN
        JR      Z,.none
        CP      QUEEN
        JR      Z,.none
        DEC     C
        JR      Z,.none
.qn:    INC     L
        DJNZ    .q
        JR      .mine           ; (12 T in these endings only: the JRs
.none:  OR      A               ; above stay in reach, the middlegame's
        RET                     ; path as it was)
.mine:  PUSH    IX
        PUSH    IY
        CALL    KBPRE           ; KBNK: the mating procedure first
        JR      C,.sc           ; scored (it made the hanging-piece test)
        JR      NZ,.no          ; declined: POINTS scores it
        IN      A,(PPAGE)       ; KBBK: the mating procedure in page 7
        PUSH    AF              ; (not KBBK or P_KBBK = 0: Z, no carry)
        LD      A,PAGEOF(KBBKEV)
        OUT     (PPAGE),A
        CALL    KBBKEV
        POP     DE              ; D = the page before (flags, HL kept)
        LD      A,D
        OUT     (PPAGE),A
        JR      C,.sc
        JR      NZ,.no
        CALL    LUSEV
        JR      NC,.kmin
        PUSH    HL              ; a piece the bare king takes now is left to
        LD      IY,LUSMEN+32    ; POINTS' exchange evaluator: the weak side
        LD      A,(LUSN)        ; to move (bit 16), attacked by the king (8),
        SUB     2               ; covered by none of its own (11-15)
        LD      B,A
        LD      DE,16
.h:     LD      A,(IY+M_VEC+2)
        RRCA
        JR      NC,.hn
        LD      A,(IY+M_VEC+1)
        BIT     0,A
        JR      Z,.hn
        AND     0F8h
        JR      Z,.hang
.hn:    ADD     IY,DE
        DJNZ    .h
        POP     HL
.sc:    LD      A,(COLOR)       ; White's view (COLOR: the side that moved)
        OR      A
        CALL    Z,NEGHL
        PUSH    HL
        LD      HL,BRKDN        ; every other term 0
        LD      B,BKSIZE
.z:     LD      (HL),0
        INC     HL
        DJNZ    .z
        CALL    LUSMAT
        POP     HL
        LD      DE,(MV0W)
        OR      A
        SBC     HL,DE
        LD      DE,(BC0W)
        OR      A
        SBC     HL,DE
        LD      (BK_LUS),HL
        SCF
.no:    POP     IY
        POP     IX
        RET
.hang:  POP     HL
        OR      A
        JR      .no
.kmin:  LD      A,(LUSN)        ; not the module's: K+B or K+N v K (three
        CP      3               ; men, none a rook; LUSCAN's list) is a
        JR      NZ,.nokm        ; draw, no mate can be forced: 0, not the
        LD      B,A             ; minor's material (which the search would
        LD      HL,LUSTMP+1     ; keep rather than allow a repetition)
        LD      DE,5
.km:    LD      A,(HL)
        CP      ROOK
        JR      Z,.nokm
        ADD     HL,DE
        DJNZ    .km
        LD      HL,0
        JR      .sc
.nokm:  OR      A
        JR      .no

; KBPRE: KBNKEV (full/kbnk.asm) in page 6 when P_KBNK is not 0, the page
; restored. out: KBNKEV's (carry: scored, HL; no carry and Z: not KBNK or
; P_KBNK = 0; no carry and NZ: declined)   clobbers: all but IX
;   cost: 33 T with P_KBNK = 0
;   CALLED BY: LUSPRE
;   CALLS:     KBNKEV
KBPRE:  LD      A,(P_KBNK)
        OR      A
        RET     Z               ; (Z, no carry: OR)
        IN      A,(PPAGE)
        PUSH    AF
        LD      A,PAGEOF(KBNKEV)
        OUT     (PPAGE),A
        CALL    KBNKEV
        POP     DE              ; D = the page before (flags, HL kept)
        LD      A,D
        OUT     (PPAGE),A
        RET

; LUSMAT: MTRLW = LUSMEN's material (P_KNIGHT .. P_ROOK, White's view); KV's
; K_MAT 1 for the strong side, 0 for the weak, K_NP 0 for both.
;   clobbers: A, B, DE, HL, IY
;   CALLED BY: LUSPRE
;   CALLS:     -
LUSMAT: LD      HL,0
        LD      IY,LUSMEN
        LD      A,(LUSN)
        LD      B,A
.m:     LD      A,(IY+M_ROLE)
        CP      KING
        JR      Z,.n
        ADD     A,A             ; P_KNIGHT = PRM + 2 * KNIGHT, ...
        LD      E,A
        LD      D,0
        PUSH    HL
        LD      HL,PRM
        ADD     HL,DE
        LD      E,(HL)
        INC     HL
        LD      D,(HL)
        POP     HL
        LD      A,(IY+M_COL)
        OR      A
        JR      NZ,.b
        ADD     HL,DE
        JR      .n
.b:     OR      A
        SBC     HL,DE
.n:     LD      DE,16
        ADD     IY,DE
        DJNZ    .m
        LD      (MTRLW),HL
        XOR     A
        LD      (KV+K_NP),A
        LD      (KV+40h+K_NP),A
        LD      (KV+K_MAT),A
        LD      (KV+40h+K_MAT),A
        LD      HL,KV+K_MAT
        LD      A,(LUSSTR)
        OR      A
        JR      Z,.w
        LD      L,LOW(KV+40h+K_MAT)
.w:     LD      (HL),1
        RET

        ASSERT  P_ROOK - PRM == 2 * ROOK && P_KNIGHT - PRM == 2 * KNIGHT, "LUSMAT: the piece values' words must sit at PRM + 2 * role"

; LUSEV: the module's evaluation of the position on the board.
;   in: COLOR = the side that has just moved (POINTS' convention)
;   out: carry = the ending is the module's; then HL = the engine score
;        (the side to move's view) and LUSE = E (units)
;   clobbers: all, IX and IY too; keeps the page selected
;   CALLED BY: LUSPRE
;   CALLS:     LUSCAN, LUSDIRF, LUSMAP, LUSVAL, LUSVEC
LUSEV:  IN      A,(PPAGE)
        LD      (LUSPGS),A
        LD      A,(COLOR)
        XOR     80h
        LD      (LUSSTM),A
        CALL    LUSCAN
        JR      NC,.out
        CALL    LUSDIRF
        JR      NC,.out
        LD      HL,0
        LD      (LUSE),HL
        LD      IX,LUSMEN
        LD      A,(LUSN)
        LD      (LUSI),A
.m:     CALL    LUSVEC
        CALL    LUSVAL          ; HL = the man's value
        EX      DE,HL
        LD      HL,(LUSE)
        LD      A,(LUSSTM)
        CP      (IX+M_COL)
        JR      NZ,.sub
        ADD     HL,DE
        JR      .st
.sub:   OR      A
        SBC     HL,DE
.st:    LD      (LUSE),HL
        LD      DE,16
        ADD     IX,DE
        LD      HL,LUSI
        DEC     (HL)
        JR      NZ,.m
        CALL    LUSMAP
        SCF
.out:   PUSH    AF
        LD      A,(LUSPGS)
        OUT     (PPAGE),A
        POP     AF
        RET

; LUSMAP: HL = the engine score of E = (LUSE), ending LUSIDX (see the top).
;   clobbers: A, B, DE
;   CALLED BY: LUSEV
;   CALLS:     CLAMPW
LUSMAP: LD      HL,(LUSE)
        LD      DE,LUSLIM
        CALL    CLAMPW
        PUSH    HL
        LD      A,(LUSIDX)      ; DE = the threshold
        ADD     A,A
        LD      E,A
        LD      D,0
        LD      HL,LUSTHT
        ADD     HL,DE
        LD      E,(HL)
        INC     HL
        LD      D,(HL)
        POP     HL
        PUSH    HL              ; E > threshold: won
        OR      A
        SBC     HL,DE
        POP     HL
        JR      Z,.nw
        JP      M,.nw
        LD      DE,LUSWIN
        ADD     HL,DE
        RET
.nw:    PUSH    HL              ; E < -threshold: lost
        OR      A
        ADC     HL,DE
        POP     HL
        JP      P,.dr
        LD      DE,-LUSWIN
        ADD     HL,DE
        RET
.dr:    BIT     7,H             ; between: E/64, toward 0
        JR      Z,.p
        LD      DE,63
        ADD     HL,DE
.p:     LD      B,6
.s:     SRA     H
        RR      L
        DJNZ    .s
        RET

; LUSCAN: the men of the board into LUSMEN (see the top).
;   out: carry = the material may be the module's; LUSN, LUSSTR, LUSMEN
;   clobbers: A, BC, DE, HL, IY   cost: about 3,500 T
;   CALLED BY: KBBKEV, KBNKEV, LUSEV
;   CALLS:     LAPP, LKING
LUSCAN: XOR     A
        LD      (LUSN),A
        LD      DE,LUSTMP
        LD      HL,BOARD+21
        LD      C,0             ; rank
.r:     LD      B,0             ; file
.f:     LD      A,(HL)
        OR      A
        JR      Z,.nx
        AND     7
        CP      PAWN
        JR      Z,.bad
        CP      QUEEN
        JR      Z,.bad
        LD      A,(LUSN)
        CP      4
        RET     NC              ; a fifth man
        INC     A
        LD      (LUSN),A
        LD      A,(HL)          ; colour, role, square, file, rank
        AND     80h
        LD      (DE),A
        INC     DE
        LD      A,(HL)
        AND     7
        LD      (DE),A
        INC     DE
        LD      A,L
        LD      (DE),A
        INC     DE
        LD      A,B
        LD      (DE),A
        INC     DE
        LD      A,C
        LD      (DE),A
        INC     DE
.nx:    INC     L
        INC     B
        LD      A,B
        CP      8
        JR      NZ,.f
        INC     L
        INC     L
        INC     C
        LD      A,C
        CP      8
        JR      NZ,.r
        LD      HL,LUSTMP+1     ; the strong side: a piece's
        LD      A,(LUSN)
        OR      A
        JR      Z,.bad
        LD      B,A
        LD      DE,5
.s:     LD      A,(HL)
        CP      KING
        JR      NZ,.sf
        ADD     HL,DE
        DJNZ    .s
.bad:   OR      A               ; kings only
        RET
.sf:    DEC     HL
        LD      A,(HL)
        LD      (LUSSTR),A
        LD      HL,LUSMEN
        LD      (LUSPTR),HL
        LD      C,A             ; the strong king, side 0
        LD      D,0
        CALL    LKING
        RET     NC
        LD      A,(LUSSTR)      ; the weak king, side 1
        XOR     80h
        LD      C,A
        LD      D,1
        CALL    LKING
        RET     NC
        LD      C,ROOK          ; the pieces: rooks, bishops, knights
.rl:    LD      HL,LUSTMP
        LD      A,(LUSN)
        LD      B,A
.pl:    INC     HL
        LD      A,(HL)
        DEC     HL
        CP      C
        JR      NZ,.pn
        LD      A,(LUSSTR)
        CP      (HL)
        JR      NZ,.bad         ; a piece on each side
        XOR     A
        CALL    LAPP
.pn:    LD      DE,5
        ADD     HL,DE
        DJNZ    .pl
        DEC     C
        LD      A,C
        CP      KNIGHT
        JR      NC,.rl
        LD      A,(LUSN)        ; KBBK: the bishops on both colours
        CP      4
        JR      NZ,.ok
        LD      A,(LUSMEN+32+M_ROLE)
        CP      BISHOP
        JR      NZ,.ok
        LD      A,(LUSMEN+48+M_ROLE)
        CP      BISHOP
        JR      NZ,.ok
        LD      A,(LUSMEN+32+M_F)
        LD      HL,LUSMEN+32+M_R
        ADD     A,(HL)
        LD      E,A
        LD      A,(LUSMEN+48+M_F)
        LD      HL,LUSMEN+48+M_R
        ADD     A,(HL)
        XOR     E
        RRCA
        RET     NC              ; one colour: not the module's
.ok:    SCF
        RET

; LKING: append the king of colour C as side D.   out: carry = found
;   clobbers: A, B, E, HL, IY
;   CALLED BY: LUSCAN
;   CALLS:     LAPP
LKING:  LD      HL,LUSTMP
        LD      A,(LUSN)
        LD      B,A
.l:     LD      A,(HL)
        CP      C
        JR      NZ,.n
        INC     HL
        LD      A,(HL)
        DEC     HL
        CP      KING
        JR      NZ,.n
        LD      A,D
        CALL    LAPP
        SCF
        RET
.n:     LD      A,5
        ADD     A,L
        LD      L,A
        DJNZ    .l
        OR      A
        RET

; LAPP: LUSTMP's entry at HL appended to LUSMEN as side A.
;   clobbers: A, IY (the entry must not cross a page: LUSTMP does not)
;   CALLED BY: LKING, LUSCAN
;   CALLS:     -
LAPP:   PUSH    HL
        PUSH    DE
        LD      IY,(LUSPTR)
        LD      (IY+M_SIDE),A
        LD      A,(HL)
        LD      (IY+M_COL),A
        INC     HL
        LD      A,(HL)
        LD      (IY+M_ROLE),A
        INC     HL
        LD      A,(HL)
        LD      (IY+M_SQ),A
        INC     HL
        LD      A,(HL)
        LD      (IY+M_F),A
        INC     HL
        LD      A,(HL)
        LD      (IY+M_R),A
        LD      DE,16
        ADD     IY,DE
        LD      (LUSPTR),IY
        POP     DE
        POP     HL
        RET

; LUSDIRF: LUSMEN's ending in LUSDIR (sides and roles equal, in order).
;   out: carry = found; LUSIDX; each man's M_PG, M_TAB, M_BASE; LUSDIR's
;   page selected   clobbers: A, BC, DE, HL, IX
;   CALLED BY: LUSEV
;   CALLS:     -
LUSDIRF:
        LD      A,PAGEOF(LUSDIR)
        OUT     (PPAGE),A
        LD      HL,LUSDIR
        XOR     A
        LD      (LUSIDX),A
.e:     LD      A,(HL)          ; men; 0 ends the directory
        OR      A
        RET     Z
        LD      B,A
        LD      A,(LUSN)
        CP      B
        JR      NZ,.skip
        PUSH    HL
        INC     HL
        LD      IX,LUSMEN
.c:     LD      A,(HL)
        CP      (IX+M_SIDE)
        JR      NZ,.ne
        INC     HL
        LD      A,(HL)
        CP      (IX+M_ROLE)
        JR      NZ,.ne
        INC     HL
        LD      DE,16
        ADD     IX,DE
        DJNZ    .c
        POP     DE
        JR      .found
.ne:    POP     HL
        LD      B,(HL)
.skip:  LD      A,B             ; past the men: 1 + 2n
        ADD     A,A
        INC     A
        LD      E,A
        LD      D,0
        ADD     HL,DE
        LD      A,(HL)          ; past the types: 1 + 6t
        LD      B,A
        ADD     A,A
        ADD     A,B
        ADD     A,A
        INC     A
        LD      E,A
        ADD     HL,DE
        LD      A,(LUSIDX)
        INC     A
        LD      (LUSIDX),A
        JR      .e
.found: LD      A,(LUSIDX)
        CP      LUSNE
        RET     NC              ; more endings than thresholds
        LD      C,(HL)          ; types
        INC     HL
        LD      (LUSTY),HL
        LD      IX,LUSMEN
        LD      A,(LUSN)
        LD      B,A
.m:     LD      HL,(LUSTY)
        PUSH    BC
.t:     LD      A,(HL)
        CP      (IX+M_ROLE)
        JR      Z,.tf
        LD      DE,6
        ADD     HL,DE
        DEC     C
        JR      NZ,.t
        POP     BC              ; a man without a table
        OR      A
        RET
.tf:    INC     HL
        LD      A,(HL)
        LD      (IX+M_PG),A
        INC     HL
        LD      A,(HL)
        LD      (IX+M_TAB),A
        INC     HL
        LD      A,(HL)
        LD      (IX+M_TAB+1),A
        INC     HL
        LD      A,(HL)
        LD      (IX+M_BASE),A
        INC     HL
        LD      A,(HL)
        LD      (IX+M_BASE+1),A
        POP     BC
        LD      DE,16
        ADD     IX,DE
        DJNZ    .m
        SCF
        RET

; LUSVAL: HL = the value of man IX: from the cache, or LWALK and into the
; cache. The cache (LUSHC) holds 64 values, each under its table (page and
; address) and vector, at the entry the vector's bytes and the table's
; address pick (XORed, 6 bits); a new value replaces the entry's old one.
;   clobbers: A, BC, DE, IY; selects the man's page on a walk
;   cost: about 400 T found, 500 T + the walk otherwise
;   CALLED BY: LUSEV
;   CALLS:     INC32, LWALK
LUSVAL: LD      A,(IX+M_VEC)    ; the entry
        XOR     (IX+M_VEC+1)
        XOR     (IX+M_VEC+2)
        XOR     (IX+M_VEC+3)
        XOR     (IX+M_TAB)
        XOR     (IX+M_TAB+1)
        RLCA                    ; L = (h & 15) * 16, H = the page + h / 16
        RLCA
        RLCA
        RLCA
        LD      C,A
        AND     0F0h
        LD      E,A
        LD      A,C
        AND     03h
        ADD     A,HIGH(LUSHC)
        LD      D,A
        PUSH    DE
        POP     IY
        LD      A,(IY+0)
        CP      (IX+M_PG)
        JR      NZ,.miss
        LD      A,(IY+1)
        CP      (IX+M_TAB)
        JR      NZ,.miss
        LD      A,(IY+2)
        CP      (IX+M_TAB+1)
        JR      NZ,.miss
        LD      A,(IY+3)
        CP      (IX+M_VEC)
        JR      NZ,.miss
        LD      A,(IY+4)
        CP      (IX+M_VEC+1)
        JR      NZ,.miss
        LD      A,(IY+5)
        CP      (IX+M_VEC+2)
        JR      NZ,.miss
        LD      A,(IY+6)
        CP      (IX+M_VEC+3)
        JR      NZ,.miss
        LD      HL,LUSHIT
        CALL    INC32
        LD      L,(IY+7)
        LD      H,(IY+8)
        RET
.miss:  LD      HL,LUSWLK
        CALL    INC32
        LD      A,(IX+M_PG)     ; the key
        LD      (IY+0),A
        OUT     (PPAGE),A
        LD      L,(IX+M_TAB)
        LD      (IY+1),L
        LD      H,(IX+M_TAB+1)
        LD      (IY+2),H
        LD      A,(IX+M_VEC)
        LD      (IY+3),A
        LD      A,(IX+M_VEC+1)
        LD      (IY+4),A
        LD      A,(IX+M_VEC+2)
        LD      (IY+5),A
        LD      A,(IX+M_VEC+3)
        LD      (IY+6),A
        LD      E,(IX+M_BASE)
        LD      D,(IX+M_BASE+1)
        PUSH    IX
        CALL    LWALK
        POP     IX
        LD      (IY+7),L
        LD      (IY+8),H
        RET

; LWALK: HL = DE + the words of the table at HL whose configurations the
; vector in LUSVB satisfies (the table's page selected). A record is DB bit
; (+80h: it has extensions), DW word, and with extensions DW skip: active ->
; add, next record; inactive -> skip (or the next record); 0FFh ends.
; The record's first byte indexes LUSVB directly: LUSVB[b] = 80h if bit b
; is set, else 0; LUSVB[80h+b] = that + 1; LUSVB[0FFh] = 2 (the end).
;   clobbers: A, BC, DE, IX   cost: about 75 T an inactive record, 90 T an
;   active one
;   CALLED BY: LUSVAL
;   CALLS:     -
LWALK:  PUSH    DE
        POP     IX
        LD      D,HIGH(LUSVB)
.l:     LD      E,(HL)
        LD      A,(DE)
        INC     HL
        ADD     A,A             ; carry = active, A = 2 extensions, 4 end
        JR      NC,.off
        LD      C,(HL)
        INC     HL
        LD      B,(HL)
        INC     HL
        ADD     IX,BC
        OR      A
        JP      Z,.l
        INC     HL              ; past the skip
        INC     HL
        JP      .l
.off:   OR      A
        JR      Z,.leaf
        CP      4
        JR      Z,.done
        INC     HL              ; inactive with extensions: the skip
        INC     HL
        LD      A,(HL)
        INC     HL
        LD      H,(HL)
        LD      L,A
        JP      .l
.leaf:  INC     HL
        INC     HL
        JP      .l
.done:  PUSH    IX
        POP     HL
        RET

; LUSVEC: man IX's feature vector into LUSVB (a byte a bit) and M_VEC.
;   clobbers: A, BC, DE, HL, IY
;   CALLED BY: LUSEV
;   CALLS:     ATK, FBISH, FKING, FKNIG, FROOK, SETB
LUSVEC: LD      HL,LUSVB
        LD      B,32
        LD      A,1
.z:     LD      (HL),0          ; LUSVB[b] = 0, LUSVB[80h+b] = 1
        SET     7,L
        LD      (HL),A
        RES     7,L
        INC     L
        DJNZ    .z
        LD      L,0FFh          ; LUSVB[0FFh] = 2: the end
        LD      (HL),2
        LD      A,(IX+M_SIDE)   ; bit 0 more material, 1 less
        CALL    SETB
        LD      IY,LUSMEN       ; bits 4-8 attacked by, 11-15 covered by
        LD      A,(LUSN)
        LD      (LUSJ),A
        LD      D,(IX+M_SQ)
        LD      B,(IX+M_F)
        LD      C,(IX+M_R)
.j:     LD      A,(IY+M_SQ)
        CP      D
        JR      Z,.nj
        CALL    ATK
        JR      NC,.nj
        LD      A,(IY+M_ROLE)   ; N 4, B 5, R 6, K 8 (+7 own)
        ADD     A,2
        LD      E,A
        LD      A,(IY+M_SIDE)
        CP      (IX+M_SIDE)
        LD      A,E
        JR      NZ,.en
        ADD     A,7
.en:    CALL    SETB
.nj:    PUSH    DE
        LD      DE,16
        ADD     IY,DE
        POP     DE
        LD      HL,LUSJ
        DEC     (HL)
        JR      NZ,.j
        LD      A,(LUSSTM)      ; bit 16: the other side to move
        CP      (IX+M_COL)
        JR      Z,.tm
        LD      A,16
        CALL    SETB
.tm:    LD      A,(IX+M_ROLE)   ; bits 17-31: the type's
        CP      KING
        JR      NZ,.t1
        CALL    FKING
        JR      .pk
.t1:    CP      ROOK
        JR      NZ,.t2
        CALL    FROOK
        JR      .pk
.t2:    CP      BISHOP
        JR      NZ,.t3
        CALL    FBISH
        JR      .pk
.t3:    CALL    FKNIG
.pk:    LD      HL,LUSVB+7      ; packed, bit 0 first
        PUSH    IX
        POP     DE
        LD      A,E
        ADD     A,M_VEC
        LD      E,A             ; (LUSMEN's records do not cross a page)
.by:    LD      B,8
.bt:    LD      A,(HL)
        RLA
        RL      C
        DEC     L
        DJNZ    .bt
        LD      A,C
        LD      (DE),A
        INC     E
        LD      A,L
        ADD     A,16
        LD      L,A
        CP      LOW(LUSVB)+39
        JR      NZ,.by
        RET

; SETB: bit A of LUSVB set (and its twin at 80h+A).   clobbers: nothing else
;   CALLED BY: FBISH, FKING, FKNIG, FROOK, LUSVEC, THERGE, THERLE
;   CALLS:     -
SETB:   PUSH    HL
        LD      L,A
        LD      H,HIGH(LUSVB)
        LD      (HL),80h
        SET     7,L
        LD      (HL),81h
        POP     HL
        RET

; THERGE: bits C, C+1, ... set while A >= the next of the ascending
; thresholds at HL (0 ends them).   clobbers: A, C, E, HL
;   CALLED BY: FBISH, FKING, FKNIG, FROOK
;   CALLS:     SETB
THERGE: LD      E,A
.l:     LD      A,(HL)
        OR      A
        RET     Z
        LD      A,E
        CP      (HL)
        RET     C
        LD      A,C
        CALL    SETB
        INC     C
        INC     HL
        JR      .l

; THERLE: bits C, C+1, ... set while A <= the next of the descending
; thresholds at HL (0 ends them).   clobbers: A, C, E, HL
;   CALLED BY: FBISH, FKING, FROOK
;   CALLS:     SETB
THERLE: LD      E,A
.l:     LD      A,(HL)
        OR      A
        RET     Z
        CP      E
        RET     C
        LD      A,C
        CALL    SETB
        INC     C
        INC     HL
        JR      .l

T1234:  DB      1,2,3,4,0
T34567: DB      3,4,5,6,7,0
T23:    DB      2,3,0
T235:   DB      2,3,5,0
T12:    DB      1,2,0
T123:   DB      1,2,3,0
TBOX:   DB      35,20,12,6,0
T31:    DB      3,1,0
T421:   DB      4,2,1,0

; The king's eight steps: board step, file step, rank step.
KDIRS:  DB      1,1,0, -1,-1,0, 10,0,1, -10,0,-1
        DB      11,1,1, 9,-1,1, -9,1,-1, -11,-1,-1
; The knight's.
NDIRS:  DB      8,12,19,21,-8,-12,-19,-21

; ATK: does man IY attack square D (file B, rank C), through the men on the
; board?   out: carry = yes   clobbers: A, E, HL (keeps B, C, D)
;   CALLED BY: HITBY, LUSVEC, ZHITS
;   CALLS:     -
ATK:    LD      A,D
        SUB     (IY+M_SQ)
        RET     Z               ; its own square (no carry)
        JR      NC,.p
        NEG
.p:     LD      E,A             ; E = |board step|
        LD      A,(IY+M_ROLE)
        CP      KNIGHT
        JR      Z,.n
        CP      KING
        JP      Z,.k
        LD      H,A             ; a slider
        LD      A,C
        CP      (IY+M_R)
        JR      Z,.rk
        LD      A,B
        CP      (IY+M_F)
        JR      Z,.fl
        LD      A,H             ; a diagonal: |df| = |dr|, not a rook
        CP      ROOK
        JR      Z,.no
        LD      A,B
        SUB     (IY+M_F)
        JR      NC,.d1
        NEG
.d1:    LD      E,A
        LD      A,C
        SUB     (IY+M_R)
        JR      NC,.d2
        NEG
.d2:    CP      E
        JR      NZ,.no
        LD      A,C             ; the step: +-10 +-1
        CP      (IY+M_R)
        LD      E,10
        JR      NC,.d3
        LD      E,-10
.d3:    LD      A,B
        CP      (IY+M_F)
        LD      A,E
        JR      C,.d4
        INC     A
        JR      .ray
.d4:    DEC     A
        JR      .ray
.rk:    LD      A,H             ; along the rank: not a bishop
        CP      BISHOP
        JR      Z,.no
        LD      A,B
        CP      (IY+M_F)
        LD      A,1
        JR      NC,.ray
        LD      A,-1
        JR      .ray
.fl:    LD      A,H             ; along the file
        CP      BISHOP
        JR      Z,.no
        LD      A,C
        CP      (IY+M_R)
        LD      A,10
        JR      NC,.ray
        LD      A,-10
.ray:   LD      E,A
        LD      H,BPAGE
        LD      L,(IY+M_SQ)
.r1:    LD      A,L
        ADD     A,E
        LD      L,A
        CP      D
        JR      Z,.yes
        LD      A,(HL)
        OR      A
        JR      Z,.r1
.no:    OR      A
        RET
.yes:   SCF
        RET
.n:     LD      A,E             ; a knight: 8 12 19 21
        CP      8
        JR      Z,.yes
        CP      12
        JR      Z,.yes
        CP      19
        JR      Z,.yes
        CP      21
        JR      Z,.yes
        JR      .no
.k:     LD      A,E             ; a king: 1 9 10 11
        CP      1
        JR      Z,.yes
        SUB     9
        CP      3
        RET

; HITBY: does an enemy of man IX, not standing on D, attack D (file B,
; rank C)?   out: carry = yes   clobbers: A, E, HL, IY
;   CALLED BY: FKING
;   CALLS:     ATK
HITBY:  LD      IY,LUSMEN
        LD      A,(LUSN)
        LD      (LUSJ),A
.j:     LD      A,(IY+M_SIDE)
        CP      (IX+M_SIDE)
        JR      Z,.nx
        LD      A,(IY+M_SQ)
        CP      D
        JR      Z,.nx
        CALL    ATK
        RET     C
.nx:    PUSH    DE
        LD      DE,16
        ADD     IY,DE
        POP     DE
        LD      HL,LUSJ
        DEC     (HL)
        JR      NZ,.j
        OR      A
        RET

; EKING, OKING: IY = man IX's enemy king, own king.   clobbers: A
;   CALLED BY: FBISH, FKING, FKNIG, FROOK, ZHITS
;   CALLS:     -
EKING:  LD      A,(IX+M_SIDE)
        XOR     1
        JR      KINGI
; OKING: IY = man IX's own king (EKING, OKING above).
;   CALLED BY: FBISH, FKNIG, FROOK
;   CALLS:     -
OKING:  LD      A,(IX+M_SIDE)
KINGI:  LD      IY,LUSMEN
        OR      A
        RET     Z
        LD      IY,LUSMEN+16
        RET

; CHEB: A = the king-move distance of men IX and IY, E = |files|,
; D = |ranks|.
;   CALLED BY: FBISH, FKING, FKNIG, FROOK
;   CALLS:     -
CHEB:   LD      A,(IX+M_F)
        SUB     (IY+M_F)
        JR      NC,.n1
        NEG
.n1:     LD      E,A
        LD      A,(IX+M_R)
        SUB     (IY+M_R)
        JR      NC,.n2
        NEG
.n2:     LD      D,A
        CP      E
        RET     NC
        LD      A,E
        RET

; MIN7: A = min(A, 7 - A), the steps to the nearer edge.   clobbers: E
;   CALLED BY: EDGED
;   CALLS:     -
MIN7:   LD      E,A
        LD      A,7
        SUB     E
        CP      E
        RET     C
        LD      A,E
        RET

; EDGED: man IX: A = steps to the nearest edge, D = Manhattan steps to the
; nearest corner.   clobbers: E
;   CALLED BY: FBISH, FKING, FKNIG, FROOK
;   CALLS:     MIN7
EDGED:  LD      A,(IX+M_F)
        CALL    MIN7
        LD      D,A
        LD      A,(IX+M_R)
        CALL    MIN7
        LD      E,A
        CP      D
        JR      C,.n1
        LD      A,D
.n1:     PUSH    AF
        LD      A,D
        ADD     A,E
        LD      D,A
        POP     AF
        RET

; LIGHT: carry = men IX and IY stand on squares of different colours.
;   clobbers: A, E
;   CALLED BY: FBISH, FKNIG
;   CALLS:     -
LIGHT:  LD      A,(IY+M_F)
        ADD     A,(IY+M_R)
        LD      E,A
        LD      A,(IX+M_F)
        ADD     A,(IX+M_R)
        XOR     E
        RRCA
        RET

; CLS: A = 0, 1, 2 as A is below, at, above H.
;   CALLED BY: CLS2
;   CALLS:     -
CLS:    CP      H
        LD      A,0
        RET     C
        LD      A,1
        RET     Z
        INC     A
        RET

; BETW: carry = A lies strictly between D and E.   SAME: carry = D and E
; lie on the same side of A (or both at it).   clobbers: A, H, L
;   CALLED BY: FROOK
;   CALLS:     CLS2
BETW:   CALL    CLS2
        CP      2
        SCF
        RET     Z
        OR      A
        RET
; SAME: the squares' test of BETW / SAME above.
;   CALLED BY: FROOK
;   CALLS:     CLS2
SAME:   CALL    CLS2
        OR      A
        SCF
        RET     Z
        CCF
        RET
; CLS2: A = the classes of squares D and E combined, for BETW and SAME.
;   CALLED BY: BETW, SAME
;   CALLS:     CLS
CLS2:   LD      H,A             ; A = class(D) XOR class(E)
        LD      A,D
        CALL    CLS
        LD      L,A
        LD      A,E
        CALL    CLS
        XOR     L
        RET

; SIDE: the box's side along one line: A = the rook's coordinate r, E =
; the enemy king's: r if e < r, 7 - r if e > r, 8 if equal.
;   CALLED BY: FROOK
;   CALLS:     -
SIDE:   CP      E
        JR      Z,.n8
        RET     NC
        LD      E,A
        LD      A,7
        SUB     E
        RET
.n8:     LD      A,8
        RET

; ABSA: A = |A| (signed).
;   CALLED BY: FROOK
;   CALLS:     -
ABSA:   OR      A
        RET     P
        NEG
        RET

; FKING: bits 17-31 of king IX (corner, enemy king, opposition, edge,
; flight squares).   clobbers: A, BC, DE, HL, IY
;   CALLED BY: LUSVEC
;   CALLS:     CHEB, EDGED, EKING, HITBY, KZONE0, KZONE1, NEIGH, SETB, THERGE,
;              THERLE
FKING:  CALL    EDGED
        PUSH    AF
        OR      A
        JR      NZ,.e
        LD      A,27            ; on the edge
        CALL    SETB
.e:     LD      A,D             ; corner: Manhattan >= 1 2 3 4
        LD      C,17
        LD      HL,T1234
        CALL    THERGE
        POP     AF              ; the edge >= 2 3
        LD      C,28
        LD      HL,T23
        CALL    THERGE
        CALL    EKING
        CALL    CHEB
        PUSH    DE
        LD      C,21            ; the enemy king >= 3 4 5 6 7
        LD      HL,T34567
        CALL    THERGE
        POP     DE
        LD      A,E             ; opposition: (2, 0) or (0, 2)
        OR      D
        CP      2
        JR      NZ,.o
        LD      A,E
        ADD     A,D
        CP      2
        JR      NZ,.o
        LD      A,26
        CALL    SETB
.o:     LD      A,(IX+M_SQ)     ; flight squares: the king off the board
        LD      (LKSQ),A
        LD      L,A
        LD      H,BPAGE
        LD      A,(HL)
        LD      (LUSKB),A
        LD      (HL),0
        LD      A,(IX+M_F)
        LD      (LKF),A
        LD      A,(IX+M_R)
        LD      (LKR),A
        CALL    KZONE0
.d:     CALL    NEIGH
        PUSH    HL
        CP      0FFh
        JR      Z,.dn           ; off the board
        OR      A
        JR      Z,.de
        XOR     (IX+M_COL)
        AND     80h
        JR      Z,.dn           ; an own man
.de:    CALL    HITBY
        JR      C,.dn
        LD      HL,LUSFL
        INC     (HL)
.dn:    POP     HL
        CALL    KZONE1
        JR      NZ,.d
        LD      A,(LUSFL)       ; flights <= 3, <= 1
        LD      C,30
        LD      HL,T31
        JP      THERLE

; ZHITS: A = the squares next to man IX's enemy king that IX attacks (that
; king off the board).   clobbers: A, BC, DE, HL, IY
;   CALLED BY: FBISH, FKNIG
;   CALLS:     ATK, EKING, KZONE0, KZONE1, NEIGH
ZHITS:  CALL    EKING
        LD      A,(IY+M_SQ)
        LD      (LKSQ),A
        LD      L,A
        LD      H,BPAGE
        LD      A,(HL)
        LD      (LUSKB),A
        LD      (HL),0
        LD      A,(IY+M_F)
        LD      (LKF),A
        LD      A,(IY+M_R)
        LD      (LKR),A
        PUSH    IX
        POP     IY
        CALL    KZONE0
.d:     CALL    NEIGH
        PUSH    HL
        INC     A
        JR      Z,.dn           ; off the board
        CALL    ATK
        JR      NC,.dn
        LD      HL,LUSFL
        INC     (HL)
.dn:    POP     HL
        CALL    KZONE1
        JR      NZ,.d
        LD      A,(LUSFL)
        RET

; KZONE0: the walk round the king at LKSQ begins: LUSFL = 0, LUSCNT = 8,
; HL = KDIRS.   KZONE1: a step done: NZ while steps are left, and at the
; end (Z) the king back on its square (LUSKB).   clobbers: A (KZONE1: HL at
; the end)
;   CALLED BY: FKING, ZHITS
;   CALLS:     -
KZONE0: XOR     A
        LD      (LUSFL),A
        LD      A,8
        LD      (LUSCNT),A
        LD      HL,KDIRS
        RET
; KZONE1: the walk's next step (KZONE0 above).
;   CALLED BY: FKING, ZHITS
;   CALLS:     -
KZONE1: LD      A,(LUSCNT)
        DEC     A
        LD      (LUSCNT),A
        RET     NZ
        LD      H,BPAGE
        LD      A,(LKSQ)
        LD      L,A
        LD      A,(LUSKB)
        LD      (HL),A
        XOR     A               ; Z
        RET

; NEIGH: the square one king step (HL: KDIRS' entry, then past it) from
; the king at LKSQ: D = its index, B = file, C = rank, A = its board byte.
;   clobbers: nothing else
;   CALLED BY: FKING, ZHITS
;   CALLS:     -
NEIGH:  LD      A,(LKSQ)
        ADD     A,(HL)
        LD      D,A
        INC     HL
        LD      A,(LKF)
        ADD     A,(HL)
        LD      B,A
        INC     HL
        LD      A,(LKR)
        ADD     A,(HL)
        LD      C,A
        INC     HL
        PUSH    HL
        LD      H,BPAGE
        LD      L,D
        LD      A,(HL)
        POP     HL
        RET

; FROOK: bits 17-31 of rook IX (its lines and the enemy king, the box, the
; distances, the edge, the own king in the box).   clobbers: A, BC, DE, HL, IY
;   CALLED BY: LUSVEC
;   CALLS:     ABSA, BETW, CHEB, EDGED, EKING, OKING, SAME, SETB, SIDE,
;              THERGE, THERLE
FROOK:  CALL    EKING
        LD      A,(IY+M_F)
        LD      (LEF),A
        LD      A,(IY+M_R)
        LD      (LER),A
        CALL    CHEB            ; the enemy king >= 2 3 5
        LD      C,24
        LD      HL,T235
        CALL    THERGE
        CALL    OKING
        LD      A,(IY+M_F)
        LD      (LOF),A
        LD      A,(IY+M_R)
        LD      (LOR),A
        CALL    CHEB            ; the own king >= 2 3 5
        LD      C,27
        LD      HL,T235
        CALL    THERGE
        LD      B,(IX+M_F)      ; B = rf, C = rr
        LD      C,(IX+M_R)
        LD      A,(LEF)         ; bit 17: on the enemy king's file or rank
        CP      B
        JR      Z,.b17
        LD      A,(LER)
        CP      C
        JR      NZ,.n17
.b17:   LD      A,17
        CALL    SETB
.n17:   LD      A,(LEF)         ; bit 18: the king cut off
        LD      D,A
        LD      A,(LOF)
        LD      E,A
        LD      A,B
        CALL    BETW
        JR      C,.b18
        LD      A,(LER)
        LD      D,A
        LD      A,(LOR)
        LD      E,A
        LD      A,C
        CALL    BETW
        JR      NC,.n18
.b18:   LD      A,18
        CALL    SETB
.n18:   LD      A,(LEF)         ; bit 19: a line next to the enemy king's
        SUB     B
        CALL    ABSA
        CP      1
        JR      Z,.b19
        LD      A,(LER)
        SUB     C
        CALL    ABSA
        CP      1
        JR      NZ,.n19
.b19:   LD      A,19
        CALL    SETB
.n19:   LD      A,(LEF)         ; the box: side(rf, ef) * side(rr, er)
        LD      E,A
        LD      A,B
        CALL    SIDE
        LD      D,A
        LD      A,(LER)
        LD      E,A
        LD      A,C
        CALL    SIDE
        PUSH    BC
        LD      B,D
        LD      E,A
        XOR     A
.mu:    ADD     A,E
        DJNZ    .mu
        LD      C,20            ; <= 35 20 12 6
        LD      HL,TBOX
        CALL    THERLE
        POP     BC
        CALL    EDGED           ; bit 30: on the edge
        OR      A
        JR      NZ,.n30
        LD      A,30
        CALL    SETB
.n30:   LD      A,(LEF)         ; bit 31: the own king in the box
        LD      D,A
        LD      A,(LOF)
        LD      E,A
        LD      A,B
        CALL    SAME
        RET     NC
        LD      A,(LER)
        LD      D,A
        LD      A,(LOR)
        LD      E,A
        LD      A,C
        CALL    SAME
        RET     NC
        LD      A,31
        JP      SETB

; FBISH: bits 17-31 of bishop IX.   clobbers: A, BC, DE, HL, IY
;   CALLED BY: LUSVEC
;   CALLS:     CHEB, EDGED, EKING, LIGHT, OKING, SETB, THERGE, THERLE, ZHITS
FBISH:  CALL    EKING
        CALL    LIGHT           ; bit 17: the enemy king on its colour
        JR      C,.n17
        LD      A,17
        CALL    SETB
.n17:   CALL    CHEB            ; the enemy king >= 2 3 5
        LD      C,19
        LD      HL,T235
        CALL    THERGE
        CALL    OKING           ; the own king >= 2 3 5
        CALL    CHEB
        LD      C,22
        LD      HL,T235
        CALL    THERGE
        LD      IY,LUSMEN       ; bit 18: an own knight, or own bishop on
        LD      A,(LUSN)        ; the other colour
        LD      B,A
.j:     LD      A,(IY+M_SQ)
        CP      (IX+M_SQ)
        JR      Z,.nx
        LD      A,(IY+M_SIDE)
        CP      (IX+M_SIDE)
        JR      NZ,.nx
        LD      A,(IY+M_ROLE)
        CP      KNIGHT
        JR      Z,.b18
        CP      BISHOP
        JR      NZ,.nx
        CALL    LIGHT
        JR      C,.b18
.nx:    LD      DE,16
        ADD     IY,DE
        DJNZ    .j
        JR      .n18
.b18:   LD      A,18
        CALL    SETB
.n18:   CALL    ZHITS           ; next to the enemy king >= 1 2
        LD      C,25
        LD      HL,T12
        CALL    THERGE
        CALL    EDGED           ; bit 27: on the edge
        OR      A
        JR      NZ,.n27
        LD      A,27
        CALL    SETB
.n27:   LD      A,(IX+M_F)      ; bit 28: a long diagonal
        CP      (IX+M_R)
        JR      Z,.b28
        ADD     A,(IX+M_R)
        CP      7
        JR      NZ,.n28
.b28:   LD      A,28
        CALL    SETB
.n28:   CALL    EKING           ; the enemy king to a corner of its colour
        LD      B,(IY+M_F)      ; B ef, C er, D 7-ef, E 7-er
        LD      C,(IY+M_R)
        LD      A,7
        SUB     B
        LD      D,A
        LD      A,7
        SUB     C
        LD      E,A
        LD      A,(IX+M_F)
        ADD     A,(IX+M_R)
        RRCA
        JR      C,.lt
        LD      A,B             ; dark: a1 max(ef, er), h8 max(7-ef, 7-er)
        CP      C
        JR      NC,.a
        LD      A,C
.a:     LD      H,A
        LD      A,D
        CP      E
        JR      NC,.mn
        LD      A,E
        JR      .mn
.lt:    LD      A,D             ; light: h1 max(7-ef, er), a8 max(ef, 7-er)
        CP      C
        JR      NC,.c
        LD      A,C
.c:     LD      H,A
        LD      A,B
        CP      E
        JR      NC,.mn
        LD      A,E
.mn:    CP      H
        JR      C,.m2
        LD      A,H
.m2:    LD      C,29            ; <= 4 2 1
        LD      HL,T421
        JP      THERLE

; FKNIG: bits 17-31 of knight IX.   clobbers: A, BC, DE, HL, IY
;   CALLED BY: LUSVEC
;   CALLS:     CHEB, EDGED, EKING, LIGHT, OKING, SETB, THERGE, ZHITS
FKNIG:  CALL    EKING
        CALL    LIGHT           ; bit 27: on the enemy king's colour
        JR      C,.n27
        LD      A,27
        CALL    SETB
.n27:   CALL    CHEB            ; the enemy king >= 2 3 5
        LD      C,17
        LD      HL,T235
        CALL    THERGE
        CALL    OKING           ; the own king >= 2 3 5
        CALL    CHEB
        LD      C,20
        LD      HL,T235
        CALL    THERGE
        CALL    ZHITS           ; next to the enemy king >= 1 2
        LD      C,23
        LD      HL,T12
        CALL    THERGE
        CALL    EDGED
        PUSH    AF
        OR      A
        JR      NZ,.n25
        LD      A,25            ; bit 25: on the edge
        CALL    SETB
.n25:   POP     AF              ; the edge >= 1 2 3
        LD      C,28
        LD      HL,T123
        CALL    THERGE
        LD      HL,NDIRS        ; bit 26: at most 4 knight moves
        LD      B,8
        LD      C,0
        LD      D,BPAGE
.k:     LD      A,(IX+M_SQ)
        ADD     A,(HL)
        LD      E,A
        LD      A,(DE)
        INC     A
        JR      Z,.kn
        INC     C
.kn:    INC     HL
        DJNZ    .k
        LD      A,C
        CP      5
        JR      NC,.n26
        LD      A,26
        CALL    SETB
.n26:   LD      IY,LUSMEN       ; bit 31: an own bishop
        LD      A,(LUSN)
        LD      B,A
        LD      DE,16
.j:     LD      A,(IY+M_SIDE)
        CP      (IX+M_SIDE)
        JR      NZ,.nx
        LD      A,(IY+M_ROLE)
        CP      BISHOP
        JR      NZ,.nx
        LD      A,31
        JP      SETB
.nx:    ADD     IY,DE
        DJNZ    .j
        RET
