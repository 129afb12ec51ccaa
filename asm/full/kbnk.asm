; ===========================================================================
; full/kbnk.asm (full build only): the KBNK mating procedure (issue #36 item
; 2), in expansion ROM page 6. LUSPRE calls KBNKEV (through KBPRE, in the
; base ROM) before Lüscher's module
; when P_KBNK is not 0: KBNK (one side king, bishop and knight, the other a
; bare king) is scored here and LUSEV is not run.
;
; Lüscher's fitted function calls KBNK's outcome right but does not lead to
; the mate. This scores what the textbooks teach: the bare king driven to a
; corner of the bishop's colour (a 64-byte gradient per bishop colour,
; KBGRD / KBGRL), the attacking king and the knight close to it, its flight
; squares cut by the three pieces:
;
;   score = KBBASE + P_KBGR * gradient(bare king) - P_KBKD * steps(kings)
;           - P_KBND * steps(knight, bare king) - P_KBFL * flight squares
;
; (the strong side's view; KBBASE = 20,000, above every ordinary score,
; below a mate's). Claims, proven against our KBNK table on every position
; (tests/kbnk.rs): the bare king to move, not in check, without a move:
; stalemate, 0; in check: mated, KBMATE. A win is claimed (the score above)
; when each piece is covered by another strong man or stands KBFAR (4) king
; steps or more from the bare king, and the bishop is not next to it;
; otherwise the position is not claimed and scores 256 * P_KBUNC less (2,048), below
; every claimed win, so the search keeps its pieces guarded. When the bare
; king is to move and can take a piece nothing covers, KBNKEV declines and
; POINTS' exchange evaluator sees the loss (as LUSPRE does for the module).
;
; src/luscher/kbnk.rs is the model (`eval`); tests/kbnk.rs holds the Z80 to
; it on every KBNK position, either colour strong.
;
; Squares here are (file, rank) pairs 0-7, the file first (E = file, D =
; rank when loaded by LD DE,(pair)).
;   RAM: KNV = XRAMLO+1000h (7000h-70FFh, issue #36's share)
; ===========================================================================

KNV     EQU     XRAMLO+1000h
KSK     EQU     KNV+00h         ; 2  the strong king (file, rank)
KWK     EQU     KNV+02h         ; 2  the bare king
KBS     EQU     KNV+04h         ; 2  the bishop
KNS     EQU     KNV+06h         ; 2  the knight
KSTM    EQU     KNV+08h         ; 1  1 = the strong side to move
KCB     EQU     KNV+09h         ; 1  FFh = the bishop covered
KCN     EQU     KNV+0Ah         ; 1  FFh = the knight covered
KDB     EQU     KNV+0Bh         ; 1  steps from the bare king: the bishop,
KDN     EQU     KNV+0Ch         ; 1  the knight,
KDK     EQU     KNV+0Dh         ; 1  the strong king
KFL     EQU     KNV+0Eh         ; 1  the bare king's flight squares
KDF     EQU     KNV+0Fh         ; 1  KBCOV: the bishop's line, file step,
KDR     EQU     KNV+10h         ; 1  rank step
KACC    EQU     KNV+11h         ; 2  the score being summed
KBN8    EQU     KNV+13h         ; 1  KBFLT: directions left
        ASSERT  KBN8 < KNV + 100h, "KBNK's RAM outgrew 7000h-70FFh"

KBBASE  EQU     20000           ; a claimed win (the strong side's view)
KBMATE  EQU     28000           ; the bare king mated on the board
KBFAR   EQU     4               ; a piece this far from the bare king is safe

        PAGE    6
        ASSERT  M_R == M_F + 1, "KBNKEV reads a man's file and rank as a word"
; KBNKEV: KBNK scored by the mating procedure (the header above).
;   in: COLOR = the side that has just moved (POINTS' convention); LUSPRE's
;   quick look passed (no pawn or queen, at most four men)
;   out: carry = scored, HL = the score (the side to move's view); LUSMEN,
;   LUSN, LUSSTR as LUSCAN leaves them (LUSPRE's LUSMAT reads them). No
;   carry: Z = not KBNK (Lüscher's module next), NZ = declined (the bare
;   king to move takes a piece: POINTS scores it)
;   clobbers: all but IX
;   cost: about 3,500 T (LUSCAN) + 3,000-6,000 T
;   CALLED BY: KBPRE
;   CALLS:     KBCHB, KBCOV, KBFLT, KBMUL, KBSUB, LUSCAN
KBNKEV: CALL    LUSCAN
        JP      NC,.not
        LD      A,(LUSN)
        CP      4
        JP      NZ,.not
        LD      A,(LUSMEN+32+M_ROLE)
        CP      BISHOP
        JP      NZ,.not
        LD      A,(LUSMEN+48+M_ROLE)
        CP      KNIGHT
        JP      NZ,.not
        LD      HL,(LUSMEN+M_F) ; (file, rank) of each man: M_R follows M_F
        LD      (KSK),HL
        LD      HL,(LUSMEN+16+M_F)
        LD      (KWK),HL
        LD      HL,(LUSMEN+32+M_F)
        LD      (KBS),HL
        LD      HL,(LUSMEN+48+M_F)
        LD      (KNS),HL
        LD      A,(LUSSTR)      ; the strong side to move?
        LD      B,A
        LD      A,(COLOR)
        XOR     80h
        CP      B
        LD      A,0
        JR      NZ,.stm
        INC     A
.stm:   LD      (KSTM),A
        LD      DE,(KBS)        ; each piece covered by the other men?
        LD      C,BISHOP
        CALL    KBCOV
        SBC     A,A
        LD      (KCB),A
        LD      DE,(KNS)
        LD      C,KNIGHT
        CALL    KBCOV
        SBC     A,A
        LD      (KCN),A
        LD      DE,(KWK)        ; steps from the bare king
        LD      HL,KBS
        CALL    KBCHB
        LD      (KDB),A
        LD      HL,KNS
        CALL    KBCHB
        LD      (KDN),A
        LD      HL,KSK
        CALL    KBCHB
        LD      (KDK),A
        LD      A,(KSTM)        ; the bare king to move takes a piece:
        OR      A               ; declined
        JR      NZ,.nh
        LD      A,(KDB)
        DEC     A
        JR      NZ,.h2
        LD      A,(KCB)
        OR      A
        JP      Z,.decl
.h2:    LD      A,(KDN)
        DEC     A
        JR      NZ,.nh
        LD      A,(KCN)
        OR      A
        JP      Z,.decl
.nh:    CALL    KBFLT
        LD      (KFL),A
        LD      B,A
        LD      A,(KSTM)        ; the bare king to move without a move
        OR      A
        JR      NZ,.sc
        OR      B
        JR      NZ,.sc
        LD      DE,(KWK)
        LD      C,A             ; (0: every piece)
        CALL    KBCOV
        LD      HL,KBMATE
        JP      C,.view         ; mated
        LD      HL,0            ; stalemate: a draw
        SCF
        RET
.sc:    LD      A,(KBS)         ; the gradient of the bishop's colour
        LD      HL,KBS+1
        ADD     A,(HL)
        RRCA
        LD      HL,KBGRD
        JR      NC,.g
        LD      HL,KBGRL
.g:     LD      A,(KWK+1)       ; + rank * 8 + file
        ADD     A,A
        ADD     A,A
        ADD     A,A
        LD      E,A
        LD      A,(KWK)
        ADD     A,E
        LD      E,A
        LD      D,0
        ADD     HL,DE
        LD      E,(HL)
        LD      A,(P_KBGR)
        CALL    KBMUL
        LD      DE,KBBASE
        ADD     HL,DE
        LD      (KACC),HL
        LD      A,(KDK)         ; less the kings' steps,
        LD      E,A
        LD      A,(P_KBKD)
        CALL    KBSUB
        LD      A,(KDN)         ; the knight's,
        LD      E,A
        LD      A,(P_KBND)
        CALL    KBSUB
        LD      A,(KFL)         ; the flight squares
        LD      E,A
        LD      A,(P_KBFL)
        CALL    KBSUB
        LD      A,(KDB)         ; claimed: each piece covered or far, the
        CP      2               ; bishop not next to the bare king
        JR      C,.unc
        LD      A,(KCB)
        OR      A
        JR      NZ,.cb
        LD      A,(KDB)
        CP      KBFAR
        JR      C,.unc
.cb:    LD      A,(KCN)
        OR      A
        JR      NZ,.win
        LD      A,(KDN)
        CP      KBFAR
        JR      NC,.win
.unc:   LD      A,(P_KBUNC)     ; not claimed: 256 * P_KBUNC less
        LD      D,A
        LD      E,0
        LD      HL,(KACC)
        OR      A
        SBC     HL,DE
        JR      .view
.win:   LD      HL,(KACC)
.view:  LD      A,(KSTM)        ; the side to move's view
        OR      A
        JR      NZ,.out
        XOR     A
        SUB     L
        LD      L,A
        SBC     A,A
        SUB     H
        LD      H,A
.out:   SCF
        RET
.not:   XOR     A               ; Z, no carry
        RET
.decl:  OR      1               ; NZ, no carry
        RET

; KBSUB: KACC = KACC - A * E (unsigned bytes).
;   clobbers: A, B, DE, HL   cost: about 400 T
;   CALLED BY: KBNKEV
;   CALLS:     KBMUL
KBSUB:  CALL    KBMUL
        EX      DE,HL
        LD      HL,(KACC)
        OR      A
        SBC     HL,DE
        LD      (KACC),HL
        RET

; KBMUL: HL = A * E (unsigned bytes).   clobbers: A, B, D
;   cost: about 300 T
;   CALLED BY: KBNKEV, KBSUB
;   CALLS:     -
KBMUL:  LD      HL,0
        LD      D,H
        LD      B,8
.m:     ADD     HL,HL
        RLA
        JR      NC,.n
        ADD     HL,DE
.n:     DJNZ    .m
        RET

; KBCHB: A = king steps from the pair at HL to (E file, D rank).
;   keeps: C, DE, HL   clobbers: A, B
;   CALLED BY: KBCOV, KBNKEV
;   CALLS:     -
KBCHB:  LD      A,E
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
        RET     NC
        LD      A,B
        RET

; KBFLT: A = the bare king's flight squares: its neighbours on the board,
; neither piece's square, that no strong man attacks (KBCOV).
;   clobbers: A, BC, DE, HL
;   cost: about 2,000-4,000 T
;   CALLED BY: KBNKEV
;   CALLS:     KBCOV
KBFLT:  LD      HL,RKDIR        ; (df, dr) pairs (kpend.asm, base ROM)
        LD      C,0             ; C = flights
        LD      A,8
        LD      (KBN8),A
.d:     LD      A,(KWK)
        ADD     A,(HL)
        INC     HL
        CP      8
        JR      NC,.nx          ; off the board (-1 is FFh)
        LD      E,A
        LD      A,(KWK+1)
        ADD     A,(HL)
        CP      8
        JR      NC,.nx
        LD      D,A
        PUSH    HL
        LD      HL,(KBS)        ; a piece's square is no flight
        OR      A
        SBC     HL,DE
        JR      Z,.pc
        LD      HL,(KNS)
        OR      A
        SBC     HL,DE
        JR      Z,.pc
        PUSH    BC
        LD      C,0
        CALL    KBCOV
        POP     BC
        JR      C,.pc
        INC     C
.pc:    POP     HL
.nx:    INC     HL
        LD      A,(KBN8)
        DEC     A
        LD      (KBN8),A
        JR      NZ,.d
        LD      A,C
        RET

; KBCOV: carry if a strong man attacks (E file, D rank), the piece of role C
; (BISHOP, KNIGHT, or 0 for none) left out; the bare king does not block
; the bishop (a king cannot hide behind itself).
;   keeps: C, DE   clobbers: A, B, HL
;   cost: about 150-600 T
;   CALLED BY: KBFLT, KBNKEV
;   CALLS:     KBCHB
KBCOV:  LD      HL,KSK          ; the king
        CALL    KBCHB
        CP      2
        RET     C
        LD      A,C
        CP      KNIGHT
        JR      Z,.b
        LD      HL,KNS          ; the knight: steps (1, 2) or (2, 1)
        LD      A,E
        SUB     (HL)
        JR      NC,.k1
        NEG
.k1:    LD      B,A
        INC     HL
        LD      A,D
        SUB     (HL)
        JR      NC,.k2
        NEG
.k2:    OR      A
        JR      Z,.b
        INC     B
        DEC     B
        JR      Z,.b
        ADD     A,B
        CP      3
        SCF
        RET     Z
.b:     LD      A,C
        CP      BISHOP
        JR      Z,.no
        LD      HL,KBS          ; the bishop: on a diagonal, nothing between
        LD      A,E
        SUB     (HL)
        LD      (KDF),A
        JR      NC,.b1
        NEG
.b1:    LD      B,A             ; B = files apart
        INC     HL
        LD      A,D
        SUB     (HL)
        LD      (KDR),A
        JR      NC,.b2
        NEG
.b2:    CP      B
        JR      NZ,.no
        OR      A
        JR      Z,.no           ; the bishop's own square
        LD      A,(KDF)         ; the steps: +1 or -1
        RLCA
        SBC     A,A
        OR      1
        LD      (KDF),A
        LD      A,(KDR)
        RLCA
        SBC     A,A
        OR      1
        LD      (KDR),A
        LD      HL,(KBS)        ; L = file, H = rank
        DEC     B
        JR      Z,.yes          ; next to the bishop
.w:     LD      A,(KDF)
        ADD     A,L
        LD      L,A
        LD      A,(KDR)
        ADD     A,H
        LD      H,A
        PUSH    DE
        LD      DE,(KSK)
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        JR      Z,.blk
        LD      DE,(KNS)
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        JR      Z,.blk
        POP     DE
        DJNZ    .w
.yes:   SCF
        RET
.blk:   POP     DE
.no:    OR      A
        RET

; The gradients (src/luscher/kbnk.rs GRADIENT; tests/kbnk.rs holds these
; bytes to it): the bare king's square, rank 1 first. KBGRD: a bishop on a
; dark square (mating corners a1, h8); KBGRL: a light square (a8, h1), the
; same with the files mirrored.
KBGRD:  DB      90,80,70,60,50,40,30,20
        DB      80,70,60,50,40,30,20,30
        DB      70,60,45,30,30,15,30,40
        DB      60,50,30,10,0,30,40,50
        DB      50,40,30,0,10,30,50,60
        DB      40,30,15,30,30,45,60,70
        DB      30,20,30,40,50,60,70,80
        DB      20,30,40,50,60,70,80,90
KBGRL:  DB      20,30,40,50,60,70,80,90
        DB      30,20,30,40,50,60,70,80
        DB      40,30,15,30,30,45,60,70
        DB      50,40,30,0,10,30,50,60
        DB      60,50,30,10,0,30,40,50
        DB      70,60,45,30,30,15,30,40
        DB      80,70,60,50,40,30,20,30
        DB      90,80,70,60,50,40,30,20
        ENDPAGE
