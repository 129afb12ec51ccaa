;; -D FROM_CMDLINE=1
; Symbol errors: undefined, duplicate, circular (never silently 0).
        org 0
start:  nop
start:  nop                     ; error: 1: error: symbol 'start' is already defined (at
        ld a,nothing            ; error: 14: error: undefined symbol 'nothing'
        jp .nolocal             ; error: undefined symbol 'start.nolocal'
A1      equ B1+1                ; error: cannot resolve 'A1': circular or unresolvable definition (it depends on 'B1')
B1      equ A1*2                ; error: cannot resolve 'B1': circular or unresolvable definition (it depends on 'A1')
SELF    equ SELF                ; error: cannot resolve 'SELF'
        ld hl,A1                ; error: symbol 'A1' has no value
DANGLE  equ MISSING+1           ; error: undefined symbol 'MISSING'
        dw DANGLE               ; error: symbol 'DANGLE' has no value
        org UNDEF_ORG           ; error: undefined symbol 'UNDEF_ORG'
        ds UNDEF_DS             ; error: undefined symbol 'UNDEF_DS'
        if UNDEF_IF             ; error: undefined symbol 'UNDEF_IF'
        endif
FROM_CMDLINE equ 2              ; error: symbol 'FROM_CMDLINE' is already defined (at -D on the command line)
TWICE   equ 1
TWICE   equ 1                   ; error: symbol 'TWICE' is already defined
        bit UNDEF_BIT,a         ; error: undefined symbol 'UNDEF_BIT'
