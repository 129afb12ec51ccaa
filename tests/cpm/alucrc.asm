; alucrc: a small self-checking exerciser in the manner of zexdoc. Each instruction in OPS
; runs on every A (0-255) with every B in BVALS and every F in FVALS; the A and F it leaves
; (all eight flag bits, the undocumented X and Y included) go into a CRC-32, printed at the
; end as "CRC xxxxxxxx". tests/cpu/cpm.rs computes the same CRC from a plain Rust model of the
; instructions, so a wrong result or flag anywhere changes the line.
;
; Order: for each op, for each F, for each B, for A = 0..255: crc(A'), crc(F').
; Each instruction runs right after POP AF (which loads A and F and leaves Q = 0: SCF and
; CCF then take X and Y from A OR F). CRC-32: polynomial EDB88320h (reflected), initial
; value FFFFFFFFh, final XOR FFFFFFFFh, table-driven.

BDOS    EQU     5

        ORG     100h
START:  LD      SP,STACK
        CALL    MKTAB
        LD      HL,0FFFFh
        LD      (CRC),HL
        LD      (CRC+2),HL
        LD      HL,OPS
OPLOOP: LD      A,(HL)          ; the op's length: 1 or 2 bytes, 0 ends the table
        OR      A
        JP      Z,DONE
        INC     HL
        LD      A,(HL)
        LD      (SLOT),A
        INC     HL
        LD      A,(HL)
        LD      (SLOT+1),A
        INC     HL
        LD      (OPPTR),HL
        LD      HL,FVALS
FLOOP:  LD      A,(HL)
        LD      (INF),A
        LD      (FPTR),HL
        LD      HL,BVALS
BLOOP:  LD      A,(HL)
        LD      (INB),A
        LD      (BPTR),HL
        XOR     A
ALOOP:  LD      (INA),A
        CALL    TEST
        LD      A,(INA)
        INC     A
        JR      NZ,ALOOP
        LD      HL,(BPTR)
        INC     HL
        LD      A,L
        CP      LOW(BVALS+NB)
        JR      NZ,BLOOP
        LD      HL,(FPTR)
        INC     HL
        LD      A,L
        CP      LOW(FVALS+NF)
        JR      NZ,FLOOP
        LD      HL,(OPPTR)
        JP      OPLOOP

; One instruction: A = INA, F = INF, B = INB, then the slot; A and F into the CRC.
TEST:   LD      A,(INA)
        LD      H,A
        LD      A,(INF)
        LD      L,A
        PUSH    HL
        LD      A,(INB)
        LD      B,A
        POP     AF
SLOT:   NOP                     ; the instruction under test (a 1-byte one is followed
        NOP                     ; by a NOP, which changes neither A nor F)
        PUSH    AF
        POP     HL
        PUSH    HL
        LD      A,H
        CALL    CRCBYT
        POP     HL
        LD      A,L
        ; fall through: the F byte

; CRC <- (CRC >> 8) XOR TABLE[(CRC XOR A) AND 0FFh]
CRCBYT: LD      HL,CRC
        XOR     (HL)
        LD      L,A
        LD      H,0
        ADD     HL,HL
        ADD     HL,HL
        LD      DE,CRCTAB
        ADD     HL,DE
        LD      A,(CRC+1)
        XOR     (HL)
        LD      (CRC),A
        INC     HL
        LD      A,(CRC+2)
        XOR     (HL)
        LD      (CRC+1),A
        INC     HL
        LD      A,(CRC+3)
        XOR     (HL)
        LD      (CRC+2),A
        INC     HL
        LD      A,(HL)
        LD      (CRC+3),A
        RET

; The CRC table: entry i = i shifted right 8 times, XORed with the polynomial at each 1 out.
; The value is kept in B:C:D:E (B the high byte).
MKTAB:  LD      HL,CRCTAB
        XOR     A
.entry: LD      (IDX),A
        LD      E,A
        LD      D,0
        LD      C,0
        LD      B,0
        LD      A,8
        LD      (CNT),A
.bit:   SRL     B
        RR      C
        RR      D
        RR      E
        JR      NC,.even
        LD      A,B
        XOR     0EDh
        LD      B,A
        LD      A,C
        XOR     0B8h
        LD      C,A
        LD      A,D
        XOR     083h
        LD      D,A
        LD      A,E
        XOR     020h
        LD      E,A
.even:  LD      A,(CNT)
        DEC     A
        LD      (CNT),A
        JR      NZ,.bit
        LD      (HL),E
        INC     HL
        LD      (HL),D
        INC     HL
        LD      (HL),C
        INC     HL
        LD      (HL),B
        INC     HL
        LD      A,(IDX)
        INC     A
        JR      NZ,.entry
        RET

; "CRC " and the complemented CRC in hex, high byte first.
DONE:   LD      DE,TITLE
        LD      C,9
        CALL    BDOS
        LD      HL,CRC+3
        LD      B,4
.byte:  LD      A,(HL)
        CPL
        PUSH    HL
        PUSH    BC
        PUSH    AF
        RRCA
        RRCA
        RRCA
        RRCA
        CALL    HEXDIG
        POP     AF
        CALL    HEXDIG
        POP     BC
        POP     HL
        DEC     HL
        DJNZ    .byte
        LD      DE,CRLF
        LD      C,9
        CALL    BDOS
        LD      C,0
        JP      BDOS

; Print the low nibble of A as a hex digit.
HEXDIG: AND     0Fh
        ADD     A,'0'
        CP      '9'+1
        JR      C,.out
        ADD     A,'A'-'9'-1
.out:   LD      E,A
        LD      C,2
        JP      BDOS

TITLE:  DB      "CRC $"
CRLF:   DB      13,10,"$"

; length, opcode bytes (2 of them; a 1-byte op is padded with NOP)
OPS:    DB      1, 80h, 0       ; ADD A,B
        DB      1, 88h, 0       ; ADC A,B
        DB      1, 90h, 0       ; SUB B
        DB      1, 98h, 0       ; SBC A,B
        DB      1, 0A0h, 0      ; AND B
        DB      1, 0A8h, 0      ; XOR B
        DB      1, 0B0h, 0      ; OR B
        DB      1, 0B8h, 0      ; CP B
        DB      1, 3Ch, 0       ; INC A
        DB      1, 3Dh, 0       ; DEC A
        DB      1, 07h, 0       ; RLCA
        DB      1, 0Fh, 0       ; RRCA
        DB      1, 17h, 0       ; RLA
        DB      1, 1Fh, 0       ; RRA
        DB      1, 27h, 0       ; DAA
        DB      1, 2Fh, 0       ; CPL
        DB      1, 37h, 0       ; SCF
        DB      1, 3Fh, 0       ; CCF
        DB      2, 0EDh, 44h    ; NEG
        DB      2, 0CBh, 07h    ; RLC A
        DB      2, 0CBh, 0Fh    ; RRC A
        DB      2, 0CBh, 17h    ; RL A
        DB      2, 0CBh, 1Fh    ; RR A
        DB      2, 0CBh, 27h    ; SLA A
        DB      2, 0CBh, 2Fh    ; SRA A
        DB      2, 0CBh, 37h    ; SLL A
        DB      2, 0CBh, 3Fh    ; SRL A
        DB      2, 0CBh, 47h    ; BIT 0,A
        DB      2, 0CBh, 5Fh    ; BIT 3,A
        DB      2, 0CBh, 7Fh    ; BIT 7,A
        DB      0

FVALS:  DB      00h, 01h, 10h, 02h, 13h, 0FFh
NF      EQU     $-FVALS
BVALS:  DB      00h, 01h, 0Fh, 10h, 7Fh, 80h, 99h, 0FFh
NB      EQU     $-BVALS

INA:    DB      0
INB:    DB      0
INF:    DB      0
IDX:    DB      0
CNT:    DB      0
OPPTR:  DW      0
FPTR:   DW      0
BPTR:   DW      0
CRC:    DS      4
        DS      64
STACK:
CRCTAB: DS      1024
