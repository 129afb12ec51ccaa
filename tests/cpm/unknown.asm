; Calls BDOS function 15 (open file), which the runner does not serve.
        ORG     100h
        LD      E,'x'
        LD      C,2
        CALL    5
        LD      DE,FCB
        LD      C,15
CALLER: CALL    5
        RET
FCB:    DS      36
