; INCLUDE errors; an error inside an included file is reported at its own file and line.
        include "inc/missing.inc"       ; error: cannot read
        include "inc/self.inc"
        include "inc/bad.inc"
        incbin "inc/missing.bin"        ; error: cannot read
        include                         ; error: expected a file name
        include "inc"                   ; error: is a directory
; error(inc/self.inc:2): inc/self.inc' includes itself
; error(inc/bad.inc:2): unknown instruction or directive 'bogus'
; error(inc/bad.inc:3): undefined symbol 'nowhere'
