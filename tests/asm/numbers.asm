; Number syntaxes and character literals.
        org 0
        db 255, 0FFh, 0ffh, $FF, 0xFF, 0XFF          ; => FF FF FF FF FF FF
        db %1010, 0b1010, 1010b, 0B1010, 12o, 12q   ; => 0A 0A 0A 0A 0A 0A
        db 0Bh, 0bh, 99d, 0, 00h                    ; => 0B 0B 63 00 00
        db 'A', "B", 'A'+1, ''''                    ; => 41 42 42 27
        db -1, -128, 127                            ; => FF 80 7F
        dw 1234h, $1234, 0x1234, 4660               ; => 34 12 34 12 34 12 34 12
        dw -1, 65535, -32768                        ; => FF FF FF FF 00 80
        ld a,';'                                    ; => 3E 3B
        cp ','                                      ; => FE 2C
        db "a;b", 'it''s', "say ""hi"""            ; => 61 3B 62 69 74 27 73 73 61 79 20 22 68 69 22
        db ""                                       ; =>
