; ===========================================================================
; board.asm: the board, its constants, the initial position and set-up.
;
; BOARD FORMAT: a 10x12 mailbox, one byte a square, in one RAM page.
;
;       bit   7      6   5   4        3       2   1   0
;           +------+---+---+--------+-------+-----------+
;           |black | - | - |castled| moved |   type    |
;           +------+---+---+--------+-------+-----------+
;   type: 0 empty, 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king
;   castled: kings only; moved: the piece has moved (castling rights, pawn
;   double steps and development all come from this bit)
;   FFh: off the board (rows 0-1 and 10-11, columns 0 and 9)
;
;   index = 10*(rank+1) + file + 1, rank and file from 0:
;
;     a8=91 .. h8=98     row 9
;       ...
;     a1=21 .. h1=28     row 2
;
; A move can never step from the board over the border and land inside it:
; the widest step (21, a knight) ends on a border row or column.
; ===========================================================================

PAWN    EQU     1
KNIGHT  EQU     2
BISHOP  EQU     3
ROOK    EQU     4
QUEEN   EQU     5
KING    EQU     6
BLACK   EQU     80h
MOVED   EQU     08h
CASTLD  EQU     10h
OFFB    EQU     0FFh

SQ_A1   EQU     21
SQ_E1   EQU     25
SQ_H1   EQU     28
SQ_A8   EQU     91
SQ_E8   EQU     95
SQ_H8   EQU     98

; The initial position, a1..h8, in board format.
INIPOS: DB      ROOK,KNIGHT,BISHOP,QUEEN,KING,BISHOP,KNIGHT,ROOK
        DB      PAWN,PAWN,PAWN,PAWN,PAWN,PAWN,PAWN,PAWN
        DS      32
        DB      BLACK|PAWN,BLACK|PAWN,BLACK|PAWN,BLACK|PAWN
        DB      BLACK|PAWN,BLACK|PAWN,BLACK|PAWN,BLACK|PAWN
        DB      BLACK|ROOK,BLACK|KNIGHT,BLACK|BISHOP,BLACK|QUEEN
        DB      BLACK|KING,BLACK|BISHOP,BLACK|KNIGHT,BLACK|ROOK

; INITBD: the initial position, White to move, no history.
;   clobbers: all   cost: about 7,600 T
;   CALLED BY: CMDERR, START
;   CALLS:     -
INITBD: LD      HL,INIPOS
        LD      DE,STAGE
        LD      BC,64
        LDIR
        LD      A,1
        LD      (MOVENO),A
        XOR     A
        LD      (COLOR),A
        LD      HL,SETDUM
        LD      B,6
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        ; fall into LOADST

; LOADST: the board from the 64 bytes at STAGE; kings and queens found
; (ROYALT); history emptied; LASTMV = SETDUM (which the caller filled).
;   clobbers: all
;   CALLED BY: CSETUP
;   CALLS:     ROYALT, STDPOS (full)
LOADST:
        IF      BUILD == B_FULL
        CALL    STDPOS          ; the game begins at the initial position?
        ENDIF
        LD      HL,BOARD
        LD      B,120
        LD      A,OFFB
.f:     LD      (HL),A
        INC     HL
        DJNZ    .f
        LD      (BOARD+80h+SQ_H8+1),A   ; the article build's ATKMAP sentinel
        LD      DE,STAGE
        LD      HL,BOARD+SQ_A1
        LD      C,8
.r:     LD      B,8
.s:     LD      A,(DE)
        LD      (HL),A
        INC     DE
        INC     HL
        DJNZ    .s
        INC     HL
        INC     HL
        DEC     C
        JR      NZ,.r
        CALL    ROYALT
        LD      HL,HIST
        LD      (HISTP),HL
        LD      HL,SETDUM
        LD      (LASTMV),HL
        XOR     A
        LD      (OVFLW),A
        RET

        IF      BUILD == B_FULL
; STDPOS: GAMSTD = 1 if STAGE holds the initial position and White is to move
; (the parameter block follows the game's first move: full/params.asm).
;   clobbers: A, BC, DE, HL
;   CALLED BY: LOADST
;   CALLS:     -
STDPOS: XOR     A
        LD      (GAMSTD),A
        LD      A,(COLOR)
        OR      A
        RET     NZ
        LD      HL,INIPOS
        LD      DE,STAGE
        LD      B,64
.c:     LD      A,(DE)
        CP      (HL)
        RET     NZ
        INC     HL
        INC     DE
        DJNZ    .c
        LD      A,1
        LD      (GAMSTD),A
        RET
        ENDIF

; ROYALT: POSK and POSQ from a scan of the board (queens: the last found).
;   clobbers: A, BC, DE, HL
;   CALLED BY: LOADST
;   CALLS:     -
ROYALT: LD      HL,0
        LD      (POSK),HL
        LD      (POSQ),HL
        LD      HL,BOARD+SQ_A1
.sq:    LD      A,(HL)
        CP      OFFB
        JR      Z,.next
        LD      C,A
        AND     7
        CP      KING
        LD      DE,POSK
        JR      Z,.put
        CP      QUEEN
        JR      NZ,.next
        LD      DE,POSQ
.put:   BIT     7,C
        JR      Z,.w
        INC     DE
.w:     LD      A,L
        LD      (DE),A
.next:  INC     L
        LD      A,L
        CP      SQ_H8+1
        JR      C,.sq
        RET

; ---------------------------------------------------------------------------
; CSETUP: 'S' b[64] side ep. Everything is checked in STAGE before the board
; is touched, so a rejected set-up leaves the position as it was.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CMDERR, GETB, GHCLR (full), LOADST, PUTOK, SETEP, TTCLR (full)
; ---------------------------------------------------------------------------
CSETUP: LD      HL,STAGE
        LD      B,64
.rd:    CALL    GETB
        LD      (HL),A
        INC     HL
        DJNZ    .rd
        CALL    GETB
        AND     BLACK
        LD      (ARG),A         ; side
        CALL    GETB
        LD      (ARG+1),A       ; en-passant target
        ; every byte a piece; count kings into D (White) and E (Black)
        LD      HL,STAGE
        LD      BC,64*256+0     ; B = 64 squares, C = index
        LD      DE,0
.chk:   LD      A,(HL)
        OR      A
        JR      Z,.ok
        AND     60h             ; bits 6 and 5 are never set
        JR      NZ,.bad
        LD      A,(HL)
        AND     7
        JR      Z,.bad          ; "moved" or "black" with no piece
        CP      7
        JR      Z,.bad
        CP      KING
        JR      Z,.king
        BIT     4,(HL)          ; only kings castle
        JR      NZ,.bad
        CP      PAWN
        JR      NZ,.ok
        LD      A,C             ; pawns live on ranks 2..7 (index 8..55)
        CP      8
        JR      C,.pawn
        CP      56
        JR      NC,.pawn
        JR      .ok
.king:  BIT     7,(HL)
        JR      NZ,.bk
        INC     D
        JR      .ok
.bk:    INC     E
.ok:    INC     HL
        INC     C
        DJNZ    .chk
        LD      A,D
        DEC     A
        JR      NZ,.kings
        LD      A,E
        DEC     A
        JR      NZ,.kings
        CALL    SETEP
        JR      NZ,.epbad
        LD      A,(ARG)
        LD      (COLOR),A
        LD      A,2             ; a set-up position is not the book's (see 'O')
        LD      (MOVENO),A
        CALL    LOADST
        IF      BUILD == B_FULL
        CALL    TTCLR           ; a set-up position: a clean transposition table
        CALL    GHCLR           ; ... and no history (draw.asm)
        ENDIF
        JP      PUTOK
.bad:   LD      A,EPIECE
        JP      CMDERR
.pawn:  LD      A,EPAWN
        JP      CMDERR
.kings: LD      A,EKINGS
        JP      CMDERR
.epbad: LD      A,EEPSQ
        JP      CMDERR

; SETEP: build SETDUM, the pretended last move, from the en-passant target in
; ARG+1 (0 = none) and the side to move in ARG, checking it against STAGE.
;   out: Z = good   clobbers: A, BC, DE, HL
;   White to move: the target is on rank 6 (71..78), a black pawn stands on
;   target-10, and target and target+10 are empty; the dummy move is
;   target+10 -> target-10, first move. Black to move: mirrored on rank 3.
;   CALLED BY: CSETUP
;   CALLS:     STGSQ
SETEP:  LD      HL,SETDUM
        LD      B,6
        XOR     A
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        LD      A,(ARG+1)
        OR      A
        RET     Z
        LD      C,A             ; C = target
        LD      A,(ARG)
        OR      A
        JR      NZ,.blk
        LD      A,C             ; White to move: 71 <= target <= 78
        CP      71
        JR      C,.no
        CP      79
        JR      NC,.no
        LD      D,BLACK|MOVED|PAWN
        LD      A,C
        ADD     A,10
        LD      E,A             ; E = from (rank 7)
        SUB     20
        LD      B,A             ; B = to (rank 5)
        JR      .test
.blk:   LD      A,C             ; Black to move: 41 <= target <= 48
        CP      41
        JR      C,.no
        CP      49
        JR      NC,.no
        LD      D,MOVED|PAWN
        LD      A,C
        SUB     10
        LD      E,A             ; from (rank 2)
        ADD     A,20
        LD      B,A             ; to (rank 4)
.test:  LD      A,B             ; the pawn stands on `to`
        CALL    STGSQ
        LD      A,(HL)
        CP      D
        JR      NZ,.no
        LD      A,C             ; the target is empty
        CALL    STGSQ
        LD      A,(HL)
        OR      A
        JR      NZ,.no
        LD      A,E             ; the square it came from is empty
        CALL    STGSQ
        LD      A,(HL)
        OR      A
        JR      NZ,.no
        LD      HL,SETDUM+2
        LD      (HL),E
        INC     HL
        LD      (HL),B
        INC     HL
        LD      (HL),10h        ; first move of the piece
        XOR     A
        RET
.no:    OR      1
        RET

; STGSQ: HL = the STAGE byte of mailbox square A (21..98, on the board).
;   clobbers: A, HL
;   CALLED BY: SETEP
;   CALLS:     -
STGSQ:  PUSH    BC
        SUB     SQ_A1
        LD      B,0FFh          ; row count
.row:   INC     B
        SUB     10
        JR      NC,.row
        ADD     A,10            ; A = file
        LD      C,A
        LD      A,B
        ADD     A,A
        ADD     A,A
        ADD     A,A
        ADD     A,C
        LD      HL,STAGE
        ADD     A,L
        LD      L,A             ; STAGE is page aligned + 40h: no carry
        POP     BC
        RET

; CBOARD: 'B' -> 00 b[64] side ep
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CALCEP, PUTB, PUTOK
CBOARD: CALL    PUTOK
        LD      HL,BOARD+SQ_A1
        LD      C,8
.r:     LD      B,8
.s:     LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    .s
        INC     HL
        INC     HL
        DEC     C
        JR      NZ,.r
        LD      A,(COLOR)
        CALL    PUTB
        CALL    CALCEP
        JP      PUTB
