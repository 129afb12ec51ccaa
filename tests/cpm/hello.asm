; Hello world through BDOS 9 (a '$'-terminated string) and BDOS 2 (one character in E),
; then BDOS 0 (system reset).
BDOS    EQU     5
        ORG     100h
        LD      DE,MSG
        LD      C,9
        CALL    BDOS
        LD      HL,CHARS
.next:  LD      A,(HL)
        OR      A
        JR      Z,.done
        PUSH    HL
        LD      E,A
        LD      C,2
        CALL    BDOS
        POP     HL
        INC     HL
        JR      .next
.done:  LD      C,0
        CALL    BDOS
        ; BDOS 0 never returns: the host ends the run at its entry.
        LD      DE,NEVER
        LD      C,9
        CALL    BDOS
        HALT
MSG:    DB      "Hello, world!",13,10,"$"
CHARS:  DB      "by BDOS 2",13,10,0
NEVER:  DB      "returned from BDOS 0$"
