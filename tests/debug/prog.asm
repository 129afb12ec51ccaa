; ===========================================================================
; tests/debug/prog.asm: a small program for the debugger's golden transcripts.
; It lays out a board and an attacker array the way the firmware does, moves a
; pawn (for watchpoints), runs nested calls with a conditional return (for
; finish and bt), writes and polls the ports, and stops on the exit port.
; Its addresses and T-states do not change when the firmware does.
; ===========================================================================

BOARD   EQU     4000h           ; 10x12 mailbox, as asm/board.asm
COLOR   EQU     4100h           ; side to move
COUNT   EQU     4110h           ; calls of OUTER so far
ATKLST  EQU     4180h           ; 14-byte attacker array, as the article's Table 1
MLIST   EQU     4700h           ; a two-entry move list
STACK   EQU     6000h
PDATA   EQU     00h
PSTAT   EQU     01h
PEXIT   EQU     0FFh

        ORG     0
RESET:  LD      SP,STACK
        CALL    INIT
        LD      B,3
LOOP:   PUSH    BC
        CALL    OUTER
        POP     BC
        DJNZ    LOOP
        CALL    PAWN4
        LD      A,(COUNT)
        OUT     (PDATA),A       ; report the count
        IN      A,(PSTAT)
        XOR     A
        OUT     (PEXIT),A       ; stop the machine
        HALT

; INIT: the board (border FFh, the initial position), Figure 4's attacker
; array, a move list, COUNT = 0, White to move.
INIT:   LD      HL,BOARD
        LD      B,120
.f:     LD      (HL),0FFh
        INC     HL
        DJNZ    .f
        LD      HL,INIPOS
        LD      DE,BOARD+21
        LD      C,8
.r:     PUSH    BC
        LD      BC,8
        LDIR
        POP     BC
        INC     DE
        INC     DE
        DEC     C
        JR      NZ,.r
        LD      HL,ATKINI
        LD      DE,ATKLST
        LD      BC,14
        LDIR
        XOR     A
        LD      (COUNT),A
        LD      (COLOR),A
        LD      HL,MLINI
        LD      DE,MLIST
        LD      BC,12
        LDIR
        RET

; OUTER: MIDDLE, then count the call.
OUTER:  CALL    MIDDLE
        LD      HL,COUNT
        INC     (HL)
        RET

; MIDDLE: INNER; returns early (RET Z) when COUNT is even.
MIDDLE: CALL    INNER
        OR      A
        RET     Z
        LD      A,(COUNT)
        ADD     A,A
        RET

; INNER: A = COUNT AND 1.
INNER:  LD      A,(COUNT)
        AND     1
        RET

; PAWN4: the e2 pawn to e4 (marked as moved).
PAWN4:  LD      A,(BOARD+35)
        OR      08h
        LD      (BOARD+55),A
        XOR     A
        LD      (BOARD+35),A
        RET

INIPOS: DB      4,2,3,5,6,3,2,4
        DB      1,1,1,1,1,1,1,1
        DS      32
        DB      81h,81h,81h,81h,81h,81h,81h,81h
        DB      84h,82h,83h,85h,86h,83h,82h,84h

; Figure 4 (Keres-Najdorf): White count 3, knights 3 3, bishop 3;
; Black count 2, pawn 1, queen 9.
ATKINI: DB      3,00h,33h,03h,00h,00h,00h
        DB      2,01h,00h,00h,00h,09h,00h

; Two linked move-list entries (asm/movegen.asm's layout): e2e4, the pawn's
; first move; e4xf5, taking a black knight. The last link is 0.
MLINI:  DW      MLIST+6
        DB      35,55,10h,1
        DW      0
        DB      55,66,82h,0
