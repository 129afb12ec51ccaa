; ORG, EQU, =, DB/DEFB/DM/DEFM, DW/DEFW, DS/DEFS, END.
        org 8000h
start:  defb 1,2                        ; => 01 02
        dm "AB",0                       ; => 41 42 00
        defm 'C'                        ; => 43
        defw start, 1                   ; => 00 80 01 00
        ds 3                            ; => 00 00 00
        defs 2,0E5h                     ; => E5 E5
        ds 0                            ; =>
TEN     equ 10
SIX     = 6
five:   equ 5
        db TEN, SIX, five               ; => 0A 06 05
        ds TEN-SIX-five+2, '*'          ; => 2A
        org 8100h
        db $ & 0FFh, $ >> 8             ; => 00 81
after:  dw after-start                  ; => 02 01
        end
        db 99                           ; => (not assembled: after END)
