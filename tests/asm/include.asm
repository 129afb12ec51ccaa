; INCLUDE: relative to the including file; symbols shared both ways.
        org 0
        include "inc/defs.inc"
        ld a,DEF_A                      ; => 3E 2A
        call inc_sub                    ; => CD 06 00
        include inc/code.inc
        ld a,FROM_MAIN                  ; => 3E 07
FROM_MAIN equ 7
        include 'inc/defs2.inc'
        db DEF_B                        ; => 2B
