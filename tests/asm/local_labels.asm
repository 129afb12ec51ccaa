; Local labels (.name) belong to the previous global label; EQU does not start a scope.
        org 0
first:  ld b,3                          ; => 06 03
.loop:  djnz .loop                      ; => 10 FE
        jr .done                        ; => 18 00
.done:  ret                             ; => C9
LIMIT   equ 4
.more:  jr .loop                        ; => 18 F9
second: ld b,LIMIT                      ; => 06 04
.loop:  djnz .loop                      ; => 10 FE
        jp first.loop                   ; => C3 02 00
        jp first.more                   ; => C3 07 00
        jr .fwd                         ; => 18 00
.fwd    nop                             ; => 00
.x      equ 7
        ld a,.x                         ; => 3E 07
        ld a,second.x                   ; => 3E 07
