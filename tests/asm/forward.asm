; Forward references, including in EQU (chains, resolved in any order), ORG, DS and IF.
        org BASE
        ld hl,FAR                       ; => 21 03 20
        ld a,(VAR)                      ; => 3A 04 20
        dw C3                           ; => 13 00
        ds GAP, 0                       ; => 00 00
        jr next                         ; => 18 00
next:   ld a,SIZE                       ; => 3E 0E
        if LATE_FLAG
        db 1                            ; => 01
        else
        db 2                            ; =>
        endif
C3      equ C2+1
C2      equ C1*2
C1      equ 8+1
FAR     equ VAR-1
VAR     equ 2004h
BASE    equ 2000h-C1+9
GAP     equ 2
SIZE    equ next-BASE+2
LATE_FLAG equ C3 > 10
