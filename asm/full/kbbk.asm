; ===========================================================================
; full/kbbk.asm (full build only): the KBBK mating procedure, in
; expansion ROM page 7 after LZTRY. LUSPRE calls KBBKEV (after
; KBPRE, before Lüscher's module): when P_KBBK is 1, KBBK (one side king
; and two bishops on both colours, the other a bare king) is scored here and
; LUSEV is not run; when it is 2 (the default), only with the bare king to
; move (the module leads better where the leaves have the strong side to
; move, as at two plies: see asm/README.md); 0 = the module always.
;
; Lüscher's fitted function is flat along the edge with the bare king to
; move (at three plies the leaves): the engine shuffled its bishops until
; the 50-move rule. This scores what the textbooks teach, the strong side's
; view:
;
;   score = BBBASE + P_BBGR * gradient(bare king) - P_BBKD * steps(kings)
;           - P_BBFL * flight squares - P_BBAR * area (the bare king to move)
;
; the gradient 0 in the centre rising to the edges and along them to the
; corners (any corner mates with two bishops; BBGR); the area the squares
; the bare king reaches through squares no strong man attacks nor stands on
; (the bishops' diagonals fence it in). Claims, proven against our KBBK
; table on every position (tests/endgames/kbbk.rs): the bare king to move without a
; move: stalemate 0, in check mated BBMATE. A win is claimed (the score
; above) when each bishop is next to its king or BBFAR (3) king steps or
; more from the bare king; otherwise 256 * P_BBUNC less (2,048), below every
; claimed win, so the search keeps its bishops guarded. When the bare king
; is to move and can take a bishop its king does not cover, KBBKEV declines
; and POINTS' exchange evaluator sees the loss (as LUSPRE does for the
; module). Two bishops on one colour are not KBBK's (LUSCAN): a draw.
;
; tests/endgames/kbbk.rs holds the model (`eval`) and the Z80 to it, either colour
; strong. Squares are (file, rank) pairs 0-7, the file first (E = file,
; D = rank when loaded by LD DE,(pair)); a bitboard is 8 bytes, a byte a
; rank (rank 1 first), bit n file n.
;   RAM: BBV = XRAMLO+1300h (7300h-733Fh, after KBNK's)
; ===========================================================================

BBV     EQU     XRAMLO+1300h
BSK     EQU     BBV+00h         ; 2  the strong king (file, rank)
BWK     EQU     BBV+02h         ; 2  the bare king
BB1     EQU     BBV+04h         ; 2  the bishops, in LUSMEN's order
BB2     EQU     BBV+06h         ; 2
BSTM    EQU     BBV+08h         ; 1  1 = the strong side to move
BFL     EQU     BBV+09h         ; 1  the bare king's flight squares
BACC    EQU     BBV+0Ch         ; 2  the score being summed
BG0     EQU     BBV+0Fh         ; 1  0: the rank below BTMP's first
BTMP    EQU     BBV+10h         ; 8  BBAREA: the region widened along ranks
BG1     EQU     BBV+18h         ; 1  0: the rank above BTMP's last
BATK    EQU     BBV+20h         ; 8  the squares the strong men attack (the
                                ;    bare king transparent); BBAREA: free
BREG    EQU     BBV+28h         ; 8  BBAREA: the bare king's region
        ASSERT  BREG + 8 <= BBV + 30h, "KBBK's RAM outgrew 7300h-732Fh (7330h: the test's stub)"
        ASSERT  BREG == BATK + 8, "BBAREA reads a rank of BREG at (IY+8) beside BATK's"
        ASSERT  BG0 + 1 == BTMP && BG1 == BTMP + 8, "BBAREA reads one rank beyond BTMP"
        ASSERT  HIGH(BBV) == HIGH(BREG + 7), "KBBK's bitboards index by L alone"

BBBASE  EQU     20000           ; a claimed win (the strong side's view)
BBMATE  EQU     28000           ; the bare king mated on the board
BBFAR   EQU     3               ; a bishop this far from the bare king is safe

        PAGE    7
        ASSERT  M_R == M_F + 1, "KBBKEV reads a man's file and rank as a word"
; KBBKEV: KBBK scored by the mating procedure (the header above).
;   in: COLOR = the side that has just moved (POINTS' convention); LUSPRE's
;   quick look passed (no pawn or queen, at most four men)
;   out: carry = scored, HL = the score (the side to move's view); LUSMEN,
;   LUSN, LUSSTR as LUSCAN leaves them (LUSPRE's LUSMAT reads them). No
;   carry: Z = not KBBK, P_KBBK = 0, or P_KBBK = 2 and the strong side to
;   move (Lüscher's module next), NZ =
;   declined (the bare king to move takes a bishop: POINTS scores it)
;   clobbers: all but IX
;   cost: 50 T with P_KBBK = 0; else about 3,500 T (LUSCAN) + 5,000-8,000 T,
;   + 3,000-12,000 T (BBAREA) with the bare king to move
;   CALLED BY: LUSPRE
;   CALLS:     BBAREA, BBATK, BBCHB, BBFLT, BBHANG, BBSAFE, BBSUB, BBTST,
;              LUSCAN, MULAW, NEGHL
KBBKEV: LD      A,(P_KBBK)
        OR      A
        RET     Z               ; (Z, no carry: OR)
        CALL    LUSCAN
        JP      NC,.not
        LD      A,(LUSN)
        CP      4
        JP      NZ,.not
        LD      A,(LUSMEN+32+M_ROLE)
        CP      BISHOP
        JP      NZ,.not
        LD      A,(LUSMEN+48+M_ROLE)
        CP      BISHOP          ; (LUSCAN: two bishops stand on both colours)
        JP      NZ,.not
        LD      HL,(LUSMEN+M_F) ; (file, rank) of each man: M_R follows M_F
        LD      (BSK),HL
        LD      HL,(LUSMEN+16+M_F)
        LD      (BWK),HL
        LD      HL,(LUSMEN+32+M_F)
        LD      (BB1),HL
        LD      HL,(LUSMEN+48+M_F)
        LD      (BB2),HL
        LD      A,(LUSSTR)      ; the strong side to move?
        LD      B,A
        LD      A,(COLOR)
        XOR     80h
        CP      B
        LD      A,0
        JR      NZ,.stm
        INC     A
.stm:   LD      (BSTM),A
        OR      A
        JR      Z,.bare         ; the bare king to move: always scored here
        LD      A,(P_KBBK)      ; P_KBBK = 2: with the strong side to move
        CP      2               ; Lüscher's module scores it
        JP      Z,.not
.bare:  CALL    BBATK
        LD      A,(BSTM)        ; the bare king to move takes a bishop its
        OR      A               ; king does not cover: declined
        JR      NZ,.nh
        LD      HL,BB1
        CALL    BBHANG
        JP      C,.decl
        LD      HL,BB2
        CALL    BBHANG
        JP      C,.decl
.nh:    CALL    BBFLT
        LD      (BFL),A
        LD      B,A
        LD      A,(BSTM)        ; the bare king to move without a move
        OR      A
        JR      NZ,.sc
        OR      B
        JR      NZ,.sc
        LD      DE,(BWK)
        CALL    BBTST
        LD      HL,BBMATE
        JR      NZ,.view        ; in check: mated
        LD      HL,0            ; stalemate: a draw
        SCF
        RET
.sc:    LD      A,(BWK+1)       ; the gradient: rank * 8 + file
        ADD     A,A
        ADD     A,A
        ADD     A,A
        LD      HL,BWK
        ADD     A,(HL)
        LD      E,A
        LD      D,0
        LD      HL,BBGR
        ADD     HL,DE
        LD      E,(HL)
        LD      A,(P_BBGR)
        CALL    MULAW
        LD      DE,BBBASE
        ADD     HL,DE
        LD      (BACC),HL
        LD      DE,(BWK)        ; less the kings' steps,
        LD      HL,BSK
        CALL    BBCHB
        LD      E,A
        LD      A,(P_BBKD)
        CALL    BBSUB
        LD      A,(BFL)         ; the flight squares,
        LD      E,A
        LD      A,(P_BBFL)
        CALL    BBSUB
        LD      A,(BSTM)        ; with the bare king to move its area
        OR      A
        JR      NZ,.cl
        LD      A,(P_BBAR)
        OR      A
        JR      Z,.cl           ; (0: not computed)
        CALL    BBAREA
        LD      E,A
        LD      A,(P_BBAR)
        CALL    BBSUB
.cl:    LD      HL,BB1          ; claimed: each bishop guarded or far
        CALL    BBSAFE
        JR      NC,.unc
        LD      HL,BB2
        CALL    BBSAFE
        JR      C,.win
.unc:   LD      A,(P_BBUNC)     ; not claimed: 256 * P_BBUNC less
        LD      D,A
        LD      E,0
        LD      HL,(BACC)
        OR      A
        SBC     HL,DE
        JR      .view
.win:   LD      HL,(BACC)
.view:  LD      A,(BSTM)        ; the side to move's view
        OR      A
        CALL    Z,NEGHL
        SCF
        RET
.not:   XOR     A               ; Z, no carry
        RET
.decl:  OR      1               ; NZ, no carry
        RET

; BBSUB: BACC = BACC - A * E (A unsigned, E a count).
;   clobbers: A, DE, HL   cost: 100-400 T
;   CALLED BY: KBBKEV
;   CALLS:     MULAW
BBSUB:  LD      D,0
        CALL    MULAW
        EX      DE,HL
        LD      HL,(BACC)
        OR      A
        SBC     HL,DE
        LD      (BACC),HL
        RET

; BBCHB: A = king steps from the pair at HL to (E file, D rank).
;   keeps: BC, DE, HL   clobbers: A
;   CALLED BY: BBHANG, BBSAFE, KBBKEV
;   CALLS:     -
BBCHB:  PUSH    BC
        LD      A,E
        SUB     (HL)
        JR      NC,.f
        NEG
.f:     LD      B,A
        INC     HL
        LD      A,D
        SUB     (HL)
        DEC     HL
        JR      NC,.r
        NEG
.r:     CP      B
        JR      NC,.o
        LD      A,B
.o:     POP     BC
        RET

; BBSAFE: carry if the bishop at the pair HL is next to the strong king or
; BBFAR king steps or more from the bare king.
;   keeps: BC, HL   clobbers: A, DE
;   CALLED BY: KBBKEV
;   CALLS:     BBCHB
BBSAFE: LD      DE,(BSK)
        CALL    BBCHB
        DEC     A
        SCF
        RET     Z
        LD      DE,(BWK)
        CALL    BBCHB
        CP      BBFAR
        CCF
        RET

; BBHANG: carry if the bishop at the pair HL is next to the bare king and
; not to the strong king (the other bishop, on the other colour, never
; covers it).   keeps: BC, HL   clobbers: A, DE
;   CALLED BY: KBBKEV
;   CALLS:     BBCHB
BBHANG: LD      DE,(BWK)
        CALL    BBCHB
        DEC     A
        JR      NZ,.no
        LD      DE,(BSK)
        CALL    BBCHB
        DEC     A
        JR      Z,.no
        SCF
        RET
.no:    OR      A
        RET

; BBBIT: A = the bit of file E; L = L + D (HL at a bitboard: its rank D).
;   keeps: BC, DE   clobbers: A, L   cost: 80-170 T
;   CALLED BY: BBAREA, BBSET, BBTST
;   CALLS:     -
BBBIT:  LD      A,L
        ADD     A,D
        LD      L,A
        PUSH    BC
        LD      B,E
        INC     B
        LD      A,80h
.r:     RLCA
        DJNZ    .r
        POP     BC
        RET

; BBSET: the square (E file, D rank) set in BATK.
;   keeps: BC, DE, HL   clobbers: A
;   CALLED BY: BBAREA, BBATK
;   CALLS:     BBBIT
BBSET:  PUSH    HL
        LD      HL,BATK
        CALL    BBBIT
        OR      (HL)
        LD      (HL),A
        POP     HL
        RET

; BBTST: NZ if the square (E file, D rank) is set in BATK.
;   keeps: BC, DE   clobbers: A, HL
;   CALLED BY: BBFLT, KBBKEV
;   CALLS:     BBBIT
BBTST:  LD      HL,BATK
        CALL    BBBIT
        AND     (HL)
        RET

; BBATK: BATK = the squares the strong king and bishops attack; a bishop's
; line stops at the strong king or the other bishop (their squares
; included), not at the bare king (a king cannot hide behind itself).
;   clobbers: A, BC, DE, HL   cost: about 2,500-6,000 T
;   CALLED BY: KBBKEV
;   CALLS:     BBSET
BBATK:  LD      HL,BATK
        LD      B,8
.z:     LD      (HL),0
        INC     L
        DJNZ    .z
        LD      HL,RKDIR        ; the king: its neighbours (kpend.asm)
        LD      B,8
.k:     LD      A,(BSK)
        ADD     A,(HL)
        INC     HL
        LD      E,A
        LD      A,(BSK+1)
        ADD     A,(HL)
        INC     HL
        LD      D,A
        OR      E               ; off the board: 8 or -1 (FFh)
        AND     0F8h
        CALL    Z,BBSET
        DJNZ    .k
        LD      HL,BB1          ; the bishops
        CALL    .b
        LD      HL,BB2
.b:     LD      E,(HL)          ; DE = the bishop (file, rank)
        INC     HL
        LD      D,(HL)
        LD      HL,BBDIR
        LD      B,4
.d:     PUSH    DE
.s:     LD      A,E             ; a step along the line
        ADD     A,(HL)
        LD      E,A
        INC     HL
        LD      A,D
        ADD     A,(HL)
        DEC     HL
        LD      D,A
        OR      E
        AND     0F8h
        JR      NZ,.e           ; off the board
        CALL    BBSET
        PUSH    HL              ; a strong man ends the line
        LD      HL,(BSK)
        OR      A
        SBC     HL,DE
        JR      Z,.blk
        LD      HL,(BB1)
        OR      A
        SBC     HL,DE
        JR      Z,.blk
        LD      HL,(BB2)
        OR      A
        SBC     HL,DE
        POP     HL
        JR      NZ,.s
        JR      .e
.blk:   POP     HL
.e:     POP     DE
        INC     HL
        INC     HL
        DJNZ    .d
        RET

; BBFLT: A = the bare king's flight squares: its neighbours on the board,
; neither bishop's square, not in BATK.
;   clobbers: A, BC, DE, HL   cost: about 1,500-2,500 T
;   CALLED BY: KBBKEV
;   CALLS:     BBTST
BBFLT:  LD      HL,RKDIR        ; (df, dr) pairs (kpend.asm, base ROM)
        LD      BC,8*256+0      ; B = directions, C = flights
.d:     LD      A,(BWK)
        ADD     A,(HL)
        INC     HL
        LD      E,A
        LD      A,(BWK+1)
        ADD     A,(HL)
        INC     HL
        LD      D,A
        OR      E
        AND     0F8h
        JR      NZ,.nx          ; off the board
        PUSH    HL
        LD      HL,(BB1)        ; a bishop's square is no flight
        OR      A
        SBC     HL,DE
        JR      Z,.pc
        LD      HL,(BB2)
        OR      A
        SBC     HL,DE
        JR      Z,.pc
        CALL    BBTST
        JR      NZ,.pc
        INC     C
.pc:    POP     HL
.nx:    DJNZ    .d
        LD      A,C
        RET

; BBAREA: A = the squares the bare king reaches by king steps through
; squares no strong man attacks nor stands on, its own not counted. BATK
; becomes those free squares; the region grows from the king's square, a
; rank widened by one file each way (BTMP), then joined with the ranks
; beside it and cut to the free squares, until it grows no more.
;   clobbers: A, BC, DE, HL, IY   cost: about 1,100 T a round, rounds = the
;   region's depth + 1 (3,000-15,000 T)
;   CALLED BY: KBBKEV
;   CALLS:     BBBIT, BBSET
BBAREA: LD      DE,(BSK)        ; the strong men's squares are not free
        CALL    BBSET
        LD      DE,(BB1)
        CALL    BBSET
        LD      DE,(BB2)
        CALL    BBSET
        LD      HL,BATK         ; free: the rest
        LD      B,8
.f:     LD      A,(HL)
        CPL
        LD      (HL),A
        INC     L
        DJNZ    .f
        LD      B,8             ; BREG (after BATK): empty
.c0:    LD      (HL),0
        INC     L
        DJNZ    .c0
        XOR     A
        LD      (BG0),A
        LD      (BG1),A
        LD      DE,(BWK)        ; the region: the bare king's square
        LD      HL,BREG
        CALL    BBBIT
        LD      (HL),A
.it:    LD      HL,BREG         ; widened along the ranks
        LD      DE,BTMP
        LD      B,8
.h:     LD      A,(HL)
        ADD     A,A
        OR      (HL)
        LD      C,A
        LD      A,(HL)
        SRL     A
        OR      C
        LD      (DE),A
        INC     L
        INC     E
        DJNZ    .h
        LD      HL,BTMP         ; joined across them, cut to the free
        LD      IY,BATK         ; squares, the old region kept (its king)
        LD      BC,8*256+0      ; B = ranks, C = grown
.v:     DEC     L
        LD      A,(HL)
        INC     L
        OR      (HL)
        INC     L
        OR      (HL)
        DEC     L
        AND     (IY+0)
        OR      (IY+8)
        CP      (IY+8)
        JR      Z,.same
        LD      (IY+8),A
        INC     C
.same:  INC     L
        INC     IY
        DJNZ    .v
        LD      A,C
        OR      A
        JR      NZ,.it
        LD      HL,BREG         ; counted, less the king's own square
        LD      BC,8*256+0FFh
.n:     LD      A,(HL)
.nb:    OR      A
        JR      Z,.nn
        LD      E,A
        DEC     A
        AND     E               ; the lowest bit off
        INC     C
        JR      .nb
.nn:    INC     L
        DJNZ    .n
        LD      A,C
        RET

; The bishops' steps (df, dr).
BBDIR:  DB      1,1, -1,1, -1,-1, 1,-1

; BBGR: the bare king's square, rank 1 first (tests/endgames/kbbk.rs GRADIENT holds
; these bytes): 0 in the centre, rising to the edges and along them to the
; corners.
BBGR:   DB      90,80,70,60,60,70,80,90
        DB      80,50,40,30,30,40,50,80
        DB      70,40,20,10,10,20,40,70
        DB      60,30,10,0,0,10,30,60
        DB      60,30,10,0,0,10,30,60
        DB      70,40,20,10,10,20,40,70
        DB      80,50,40,30,30,40,50,80
        DB      90,80,70,60,60,70,80,90
        ENDPAGE
