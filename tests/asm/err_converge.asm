; A program whose addresses never settle: X's value decides whether X moves.
        org 0
        if X < 5
        ds 10
        endif
X:      nop                     ; error: symbol values did not settle after 30 more passes ('X' keeps changing)
