; Ends with RET from the top level: CP/M's stack holds 0000h, so this is a warm boot.
        ORG     100h
        LD      E,'R'
        LD      C,2
        CALL    5
        RET
