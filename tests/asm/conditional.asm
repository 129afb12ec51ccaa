;; -D BUILD_1978=1
;; -D LEVEL=3
; IF / ELSEIF / ELSE / ENDIF, nesting, IFDEF / IFNDEF, -D definitions.
        org 0
        if BUILD_1978
        db 78                           ; => 4E
        else
        db 80                           ; =>
        endif
        if LEVEL = 1
        db 1
        elseif LEVEL = 3
        db 3                            ; => 03
        elseif LEVEL >= 3
        db 4                            ; => (a later true branch is not taken)
        else
        db 5
        endif
        if 0
        if 1
        db 6                            ; => (inside a false block)
        else
        db 7
        endif
        bogus garbage (ignored while skipped) `
        else
        if 0
        db 8
        else
        db 9                            ; => 09
        endif
        endif
        ifdef BUILD_1978
        db 10                           ; => 0A
        endif
        ifndef BUILD_1980
        db 11                           ; => 0B
        endif
        ifdef BUILD_1980
        db 12
        endif
        ifndef HAVE_X
HAVE_X  equ 1
        endif
        ifndef HAVE_X
HAVE_X  equ 2
        endif
        db HAVE_X                       ; => 01
        IF 0
        ELSE
        DB 13                           ; => 0D
        ENDIF
