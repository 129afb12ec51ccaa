; Ends with JP 0 (warm boot) from inside a subroutine, with its own stack.
        ORG     100h
        LD      SP,STACK
        CALL    SUB
        HALT                    ; not reached
SUB:    LD      DE,MSG
        LD      C,9
        CALL    5
        JP      0
MSG:    DB      "J$"
        DS      32
STACK:
