; ASSERT expr, "message": a build assertion, silent when it holds (no bytes).
        org     100h
start:  nop                     ; => 00
        assert  start == 100h, "start is at 100h"         ; =>
        assert  fwd - start == 2, "a forward reference resolves first"
        if      0
        assert  0, "an ASSERT in a false block is not checked"
        endif
        nop                     ; => 00
fwd:    nop                     ; => 00
