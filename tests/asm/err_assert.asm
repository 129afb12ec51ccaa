; A failing ASSERT prints its message at its file:line; a malformed one is a syntax error.
        org     100h
start:  nop
        assert  start == 200h, "start must be at 200h"   ; error: assertion failed: start must be at 200h ('start == 200h' is false)
        assert  end - start < 2, "the code is longer than 1 byte"   ; error: the code is longer than 1 byte
        assert  1                       ; error: ASSERT needs a condition and a message
        assert  1, 2                    ; error: ASSERT needs a condition and a message
        assert  undefined_name, "x"     ; error: undefined symbol 'undefined_name'
        nop
end:
