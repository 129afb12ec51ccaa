; Expansion pages (PAGE n .. ENDPAGE): the window, the page range, overlaps, the base ROM.
        org 0
        ld a,1                  ; => 3E 01
        endpage                 ; error: ENDPAGE outside a PAGE
        org 4000h
        db 5                    ; error: code at 4000h is outside the base ROM 0000h-3FFFh of a paged image
        page 8                  ; error: page 8 is out of range
        page 1
        ld a,2                  ; => 3E 02
        org 7FFFh
        db 1                    ; error: code at 7FFFh in page 1 is outside the window 8000h-BFFFh
        org 0BFFFh
        dw 1                    ; error: code at BFFFh in page 1 is outside the window
        org 8000h
        db 3                    ; error: byte at 1:8000 is written twice
        page 2
        org 8000h
p2:     db 4                    ; => 04
        endpage
        ld a,pageof(p2)         ; => 3E 02
        ld a,pageof(p3)         ; => 3E 03
        ld a,pageof(p2)+1       ; => 3E 03
        ld a,pageof(nowhere)    ; error: undefined symbol 'nowhere'
        ld a,pageof(1)          ; error: PAGEOF takes a label
        page 3
p3:     ld a,pageof(p1b)        ; error: 'p1b' is not a label of an expansion page
p1b     equ 8123h
        endpage
