; Range errors: each line fails, and all of them are reported in one run.
        org 0
NEG     equ -129
        ld a,256                ; error: 8-bit value out of range (-128..255): '256' = 256
        ld a,-129               ; error: 8-bit value out of range
        ld a,NEG                ; error: 'NEG' = -129
        ld bc,65536             ; error: 16-bit value out of range (-32768..65535): '65536'
        ld hl,(-32769)          ; error: 16-bit value out of range
        ld (ix+128),a           ; error: index displacement out of range (-128..127): '+128' = 128
        ld (iy-129),a           ; error: index displacement out of range
        ld (ix+NEG),0           ; error: '+NEG' = -129
        ld (ix+1),300           ; error: 8-bit value out of range
        jr $+130                ; error: relative jump out of range: target '$+130' is 128 bytes away
        djnz $-127              ; error: is -129 bytes away
        jr nz,far               ; error: relative jump out of range
        db 256                  ; error: byte value out of range (-128..255): '256'
        db 1,-200,3             ; error: '-200' = -200
        dw 65536                ; error: word value out of range
        ds -1                   ; error: DS count out of range
        ds 2,256                ; error: DS fill byte out of range
        org 10000h              ; error: ORG address out of range (0..65535)
        bit 8,a                 ; error: BIT takes 0, 1, 2, 3, 4, 5, 6, 7 here, not 8
        set -1,(hl)             ; error: SET takes 0, 1, 2, 3, 4, 5, 6, 7 here, not -1
        res 9,(ix+1)            ; error: RES takes
        im 3                    ; error: IM takes 0, 1, 2 here, not 3
        rst 7                   ; error: RST takes 00h, 08h, 10h, 18h, 20h, 28h, 30h, 38h here, not 7
        out (c),1               ; error: OUT takes 0 here, not 1
        ld a,1/0                ; error: division by zero in '1/0'
        db 5 % (NEG+129)        ; error: division by zero
        in a,(256)              ; error: 8-bit value out of range
far     equ 1000h
