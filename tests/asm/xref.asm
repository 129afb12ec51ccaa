; The cross-reference (Assembly::xref, `asm --xref`). `xref: NAME OP ROUTINE, ...` lists
; exactly the references a line makes (ROUTINE: the routine the line lies in, - for none);
; `calls: A, B` on a routine's label line lists exactly the routines it calls.
;; -D BUILD=3
        org 0
START:  ld sp,0                         ; => 31 00 00
        jp MAIN                         ; xref: MAIN JP -

; MAIN: a routine by its header (no CALL reaches it).
MAIN:   call SUB                        ; calls: SUB, TAIL, PAIR xref: SUB CALL MAIN
        call nz,PAIR                    ; xref: PAIR CALL MAIN
        ld hl,TABLE                     ; xref: TABLE LD MAIN
        jp TAIL                         ; xref: TAIL JP MAIN

; SUB: a routine; its local label is no routine.
SUB:    ld b,COUNT                      ; calls: - xref: COUNT LD SUB
.loop:  djnz .loop                      ; xref: SUB.loop DJNZ SUB
        jr SUB                          ; xref: SUB JR SUB
        ret

; TAIL: reached by a jump only; calls nothing but itself.
TAIL:   jr TAIL                         ; calls: - xref: TAIL JR TAIL

; PAIR / PAIR2: one header, two entries; PAIR2 is a routine because it is called.
PAIR:   call PAIR2                      ; calls: PAIR2 xref: PAIR2 CALL PAIR
PAIR2:  ret                             ; calls: PAIR
; NOHEAD is neither called nor headed: its CALL lies in PAIR2, which so calls PAIR.
NOHEAD: call PAIR                       ; xref: PAIR CALL PAIR2
TABLE:  dw SUB, TAIL                    ; xref: SUB DW PAIR2, TAIL DW PAIR2
COUNT   equ 3
        if BUILD == 3                   ; xref: BUILD IF PAIR2
        db COUNT                        ; xref: COUNT DB PAIR2
        else
        db MAIN                         ; => 
        endif
        assert COUNT == 3, "three"      ; xref: COUNT ASSERT PAIR2
