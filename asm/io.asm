; ===========================================================================
; io.asm: the host <-> firmware protocol. The one place the port map and the
; command set are defined (src/firmware/protocol.rs mirrors it, checked by
; tests/engine/firmware.rs against the symbol file).
;
; PORTS (low address byte; the high byte is ignored)
;   00h PDATA   IN : the next byte from the host
;               OUT: the next byte to the host
;   01h PSTAT   IN : bit 0 = a byte from the host is waiting
;                    bit 1 = the host asks the search to stop ("move now")
;   02h PPOLL   IN : bit 1 = "move now" (a read here never waits for the host)
;   04h PPAGE   OUT: expansion ROM page (0-3) seen at 8000h-BFFFh (full build's machine;
;               reset 0; a page not fitted reads FFh)  IN: the selected page
;   06h PCLK    IN : latch the T-state counter (48 bits: the IN's I/O cycle), bits 0-7;
;               07h-0Bh IN: bytes 1-5 of the latch (every build's machine)
;   FFh PEXIT   OUT: reserved for routine tests: the machine stops, A = code
;
; The firmware polls PSTAT before every PDATA read (GETB): a machine whose host
; has nothing to say stops there until it has.
;
; COMMANDS: one ASCII byte, then its arguments. Every reply starts with a status
; byte: 00h = done, anything else is an error code (table below) and ends the
; reply. Squares are mailbox indices (a1 = 21, h1 = 28, a8 = 91, h8 = 98).
; A promotion byte is 0 (none) or the piece type 2..5 (N B R Q).
;
;   'I'                 identify  -> 00 'Z' BUILD VERSION
;   'N'                 new game (initial position, White to move) -> 00
;   'S' b[64] side ep   set up: 64 piece bytes a1,b1..h8 (board format below),
;                       side 00h/80h, ep = en-passant target square or 0 -> 00
;                       (a rejected set-up leaves the old position untouched)
;   'B'                 board -> 00 b[64] side ep
;   'L'                 legal moves -> 00 n (from to promo)*n
;   'K'                 status -> 00 incheck(0/1) nlegal
;   'M' from to promo   play a move -> 00
;   'U'                 take back the last move played with 'M' -> 00
;   'P' depth           perft (legal move paths) -> 00 count(4 bytes, LE)
;   'A' sq              attackers: PINFND, ATTACK -> 00 ATKLST[14]
;   'X' sq              exchange: as 'A', then XCHNG -> 00 ATKLST[14] residue
;   'Y' piece a[14]     XCHNG on a given attacker array -> 00 residue
;   'O' n               set the move number (1: the opening book answers) -> 00
;   'G' level flags     search (CSRCH has the reply) -> 00 ...
;   'Q'                 static evaluation, term by term (evalaux.asm, CEVAL)
;   'W' blk off n b[n]  full build: write a stored parameter block (full/params.asm)
;   'V' blk off n       full build: read one -> 00 b[n]
;   'H' n               full build: the halfmove clock of the position set up
;                       (draw.asm) -> 00
;   'T' left[3] togo inc[2]  full build: the time (time.asm) for 'G' flags bit 1
;                       -> 00 target[2] hard[2]
;   'R' n (from to promo)*n  full build: the next searches of this position
;                       consider only these root moves (roots.asm); n = 0:
;                       every move; 'N', 'S', 'M', 'U' lift it -> 00
;
; ERROR CODES
ENOMOVE EQU     01h             ; the move is not one of the position's moves
EINCHK  EQU     02h             ; the move would leave the mover's king in check
EHFULL  EQU     03h             ; the game history is full
ENOUNDO EQU     04h             ; nothing to take back
EPIECE  EQU     05h             ; set-up: a byte is not a piece
EKINGS  EQU     06h             ; set-up: not exactly one king per side
EPAWN   EQU     07h             ; set-up: a pawn on the first or last rank
EEPSQ   EQU     08h             ; set-up: impossible en-passant square
ECHECK  EQU     09h             ; set-up: the side not to move is in check
EDEPTH  EQU     0Ah             ; perft: depth beyond PMAXD
EOVFLW  EQU     0Bh             ; a move list overflowed MLIST (or the stack STKLIM)
ESQUARE EQU     0Dh             ; not a square of the board
; (search.asm: ENOLEGL 0Eh, the side to move has no legal move;
;  full/params.asm: EBADPRM 10h, a parameter block or range that does not exist)
EUNKNWN EQU     0FFh            ; unknown command (the byte follows)
; ===========================================================================

; COMMAND CODES (CMDTAB is built from them; src/firmware/protocol.rs's Op holds
; the same codes and a test checks each against this symbol file)
C_IDENT EQU     'I'
C_NEW   EQU     'N'
C_SETUP EQU     'S'
C_BOARD EQU     'B'
C_LIST  EQU     'L'
C_STAT  EQU     'K'
C_MOVE  EQU     'M'
C_UNDO  EQU     'U'
C_PERFT EQU     'P'
C_ATTK  EQU     'A'
C_XCHG  EQU     'X'
C_XARR  EQU     'Y'
C_MOVNO EQU     'O'
C_SRCH  EQU     'G'
C_EVAL  EQU     'Q'
C_PARW  EQU     'W'
C_PARV  EQU     'V'
C_HALF  EQU     'H'
C_TIME  EQU     'T'
C_ROOT  EQU     'R'

PDATA   EQU     00h
PSTAT   EQU     01h
PPOLL   EQU     02h
PPAGE   EQU     04h
PCLK    EQU     06h
PEXIT   EQU     0FFh
VERSION EQU     1

; GETB: wait for the host's next byte.
;   out: A = byte   clobbers: F   cost: 33 T when a byte is waiting
;   CALLED BY: CHALF (full), CMDLP, CMOVE, CMOVNO, CPARV (full), CPARW (full),
;              CPERFT, CROOT (full), CSETUP, CSRCH, CTIME (full), CXARR,
;              GETSQ, PRMARG (full)
;   CALLS:     -
GETB:   IN      A,(PSTAT)
        RRCA
        JR      NC,GETB
        IN      A,(PDATA)
        RET

; PUTB: send A to the host.   clobbers: -   cost: 21 T
;   CALLED BY: CBOARD, CEVAL, CLIST, CMDERR, CMDLP, CPARV (full), CPERFT,
;              CSRCH, CSTAT, CTIME (full), CXARR, CXCHG, PUTATK, PUTBM, PUTN,
;              PUTOK
;   CALLS:     -
PUTB:   OUT     (PDATA),A
        RET

; PUTOK: send status 00h.   clobbers: A
;   CALLED BY: CATTK, CBOARD, CEVAL, CHALF (full), CLIST, CMDERR, CMOVE,
;              CMOVNO, CPARV (full), CPARW (full), CPERFT, CROOT (full),
;              CSETUP, CSRCH, CSTAT, CTIME (full), CUNDO, CXARR, CXCHG
;   CALLS:     PUTB
PUTOK:  XOR     A
        JR      PUTB

; ---------------------------------------------------------------------------
; CMDLP: read a command byte and run its handler; handlers RET back here.
; An error anywhere below may `JP CMDERR` with A = code: the stack is reset.
;   CALLED BY: START
;   CALLS:     GETB, PUTB
; ---------------------------------------------------------------------------
CMDLP:  LD      SP,STACK
        LD      HL,CMDLP
        PUSH    HL
        LD      (CMDSP),SP      ; (CMDSP) holds the return address CMDLP
        LD      HL,MLIST        ; every command starts with empty move lists
        LD      (MLNXT),HL
        XOR     A
        LD      (OVFLW),A
        CALL    GETB
        LD      C,A
        LD      HL,CMDTAB
.find:  LD      A,(HL)
        OR      A
        JR      Z,.unkn
        INC     HL
        CP      C
        JR      Z,.found
        INC     HL
        INC     HL
        JR      .find
.found: LD      A,(HL)
        INC     HL
        LD      H,(HL)
        LD      L,A
        JP      (HL)
.unkn:  LD      A,EUNKNWN
        CALL    PUTB
        LD      A,C
        JP      PUTB

; CMDERR: abandon the command with error code A.
;   CALLED BY: CMOVE, CPERFT, CROOT (full), CSETUP, CSRCH, CUNDO, GETSQ,
;              OVFCHK, PRMARG (full)
;   CALLS:     GHCLR (full), INITBD, PUTB, PUTOK, TTCLR (full)
CMDERR: LD      SP,(CMDSP)
        JP      PUTB

CMDTAB: DB      C_IDENT
        DW      CIDENT
        DB      C_NEW
        DW      CNEW
        DB      C_SETUP
        DW      CSETUP
        DB      C_BOARD
        DW      CBOARD
        DB      C_LIST
        DW      CLIST
        DB      C_STAT
        DW      CSTAT
        DB      C_MOVE
        DW      CMOVE
        DB      C_UNDO
        DW      CUNDO
        DB      C_PERFT
        DW      CPERFT
        DB      C_ATTK
        DW      CATTK
        DB      C_XCHG
        DW      CXCHG
        DB      C_XARR
        DW      CXARR
        DB      C_MOVNO
        DW      CMOVNO
        DB      C_SRCH
        DW      CSRCH
        DB      C_EVAL
        DW      CEVAL
        IF      BUILD == B_FULL
        DB      C_PARW
        DW      CPARW
        DB      C_PARV
        DW      CPARV
        DB      C_HALF
        DW      CHALF
        DB      C_TIME
        DW      CTIME
        DB      C_ROOT
        DW      CROOT
        ENDIF
        DB      0

CIDENT: CALL    PUTOK
        LD      A,'Z'
        CALL    PUTB
        LD      A,BUILD
        CALL    PUTB
        LD      A,VERSION
        JP      PUTB

CNEW:   CALL    INITBD
        IF      BUILD == B_FULL
        CALL    TTCLR           ; a new game: a clean transposition table
        CALL    GHCLR           ; ... and no history (draw.asm)
        ENDIF
        JP      PUTOK
