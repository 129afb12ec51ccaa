; Mnemonics, registers and directives are case-insensitive; symbols are case-sensitive.
        ORG 0
Value   EQU 1
value   equ 2
        LD A,Value                      ; => 3E 01
        ld a,value                      ; => 3E 02
        Ld L,(Ix+1)                     ; => DD 6E 01
        ld h,(IX+1)                     ; => DD 66 01
        DeFb 1                          ; => 01
        Jp (Hl)                         ; => E9
        EX AF,AF'                       ; => 08
        ex Af,aF'                       ; => 08
        If Value
        dB 3                            ; => 03
        EndIf
