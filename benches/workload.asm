; The emulator benchmark's workload: CPU-heavy Z80 code of the project's own.
; Mixed 8-bit ALU, 16-bit arithmetic, block moves, indexed loads, calls and returns.
; Runs from 0000h and ends with HALT. The same bytes run on z80chess and on z80emu.

        ORG     0000h
START:  LD      SP,0FF00h
        LD      IY,TABLE
        ; fill SRC with a pattern
        LD      HL,SRC
        LD      B,0
        LD      A,17
FILL:   LD      (HL),A
        ADD     A,29
        RRCA
        INC     HL
        DJNZ    FILL
        LD      B,ROUNDS
OUTER:  PUSH    BC
        ; block move: 256 bytes forward, then 128 back
        LD      HL,SRC
        LD      DE,DST
        LD      BC,256
        LDIR
        LD      HL,DST+255
        LD      DE,SRC+255
        LD      BC,128
        LDDR
        ; 8-bit ALU checksum through an index register
        LD      IX,DST
        LD      B,0
        XOR     A
        LD      C,A
SUM:    ADD     A,(IX+0)
        XOR     (IX+1)
        ADC     A,C
        LD      C,A
        RLCA
        AND     7Fh
        OR      (IX+2)
        SUB     C
        INC     IX
        DJNZ    SUM
        LD      (CHECK),A
        ; 16-bit arithmetic
        LD      HL,1
        LD      DE,1
        LD      B,60
FIB:    ADD     HL,DE
        EX      DE,HL
        PUSH    HL
        SBC     HL,DE
        ADC     HL,DE
        POP     HL
        INC     DE
        DEC     HL
        DJNZ    FIB
        LD      (RESULT),HL
        ; calls, returns and memory through IY
        LD      B,64
CALLS:  CALL    SUB1
        DJNZ    CALLS
        ; bit operations
        LD      HL,SRC
        LD      B,32
BITS:   RL      (HL)
        BIT     3,(HL)
        JR      Z,NOBIT
        SET     7,(HL)
        RES     0,(HL)
NOBIT:  INC     HL
        DJNZ    BITS
        POP     BC
        DEC     B
        JP      NZ,OUTER
        HALT

SUB1:   PUSH    HL
        PUSH    BC
        LD      HL,(COUNT)
        INC     HL
        LD      (COUNT),HL
        LD      A,(IY+3)
        ADD     A,L
        LD      (IY+3),A
        CP      80h
        JR      NC,SKIP
        NEG
        DAA
SKIP:   LD      C,A
        LD      B,0
        LD      HL,TABLE
        ADD     HL,BC
        LD      A,(HL)
        POP     BC
        POP     HL
        RET

ROUNDS  EQU     100
CHECK:  DB      0
RESULT: DW      0
COUNT:  DW      0
        ORG     1000h
TABLE:  DS      256
SRC:    DS      256
DST:    DS      258
