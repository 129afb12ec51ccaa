; INCBIN (relative to this file) and a label at the very end of memory.
        org 0FFF0h
        incbin "inc/four.bin"           ; => 01 02 03 04
top     equ $
        dw top                          ; => F4 FF
        org 0FFFEh
        dw end_of_memory                ; => 00 00
end_of_memory equ $ & 0FFFFh
