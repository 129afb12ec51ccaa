; Never ends: for the cycle limit.
        ORG     100h
LOOP:   INC     HL
        JR      LOOP
