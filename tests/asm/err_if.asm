; Conditional assembly errors.
        else                    ; error: ELSE without IF
        elseif 1                ; error: ELSE without IF
        endif                   ; error: ENDIF without IF
        if 1
        else
        else                    ; error: ELSE after ELSE
        endif
        if 1+                   ; error: expression ends too early
        endif
        if 0
        if 1+                   ; (a bad IF inside a false block is not checked)
        endif
        endif
lbl:    if 1                    ; error: a label cannot stand on an IF/ELSE/ENDIF line
        endif
        if 1                    ; error: IF without ENDIF
