; Overlapping code and running past 0FFFFh.
        org 100h
        db 1,2,3
        org 101h
        db 4                    ; error: byte at 0x0101 is written twice (overlapping ORG)
        org 0FFFEh
        ld hl,0                 ; error: code runs past 0xFFFF
