; ===========================================================================
; full/lazy.asm: lazy evaluation (P_FLAGS2 bit 3 F2_LAZY).
; main.asm includes it after full/points.asm; LZTRY lives in expansion page 7.
;
; At a leaf of SRCH (a POINTS call with a search path, at ply NPLY >=
; PLYMAX: SORTM's ordering evaluations at shallower plies are never cut
; short, since their scores order the tree), once the pass over the pieces has
; left the material (MTRLW), board control and development (BRDC, DEVW) and
; ATKMAP, LZTRY computes the knowledge terms (KNOW; when it goes on, POINTS
; joins at .fk, after its own call, so they run once) and bounds what the exchange analysis
; (ATTACK and XCHNG on every attacked piece: PTSL, PTSW2, PTSCK) can still
; change, from the active block's weights and ATKMAP alone:
;   lost <= P_XLOST * the largest value (PVALUE, XCHNG's units) of the
;           mover's pieces attacked by the side to move (XCHNG's residue
;           never exceeds its piece's value; an unattacked piece has none);
;   won  <= P_XWON * the second largest value of the side to move's pieces
;           attacked by the mover (PTSW2 is the second largest residue);
;   S    =  clamp(M + won - lost, P_SCLAMP) lies between the clamps of the
;           two extremes (clamping is monotonic);
;   Bc   =  clamp(board control + development change, P_BCCLMP), or 0 when
;           the piece just moved hangs (PTSCK: only if it is attacked);
;   KPEND's terms are 0 when both sides have pieces (K_MAT): pawn endings
;   and bare-king endings (known draws, the KPK bitbase, races, End-Game:
;   they set the total outright) never leave early, nor do Lüscher's
;   endings (LUSPRE scores them before the pass over the pieces).
; So BK_TOT lies in [LZLO, LZHI] (White's view); DSHIFT (the draw window)
; is monotonic, so the score SRCH compares, VALMW, lies between the shifted
; bounds in the side to move's view. SRCH's leaf rule (full/search.asm
; .fm37): value <= SCOREW[n-1] cuts off; else -value > SCOREW[n] is a new
; best. When every value in the bounds cuts off (and the transposition
; table, P_FLAGS bit 0, would not store it: at PLYMAX it keeps the leaf's
; value as a bound), or when none cuts off and none is a new best, the
; exchange analysis cannot change what SRCH does: POINTS returns the
; bound that decides alike, counted in NLAZY. The search's moves, scores and
; tree are those of F2_LAZY off (tests/full_build/lazy.rs).
; ===========================================================================

LZRAM   EQU     XRAMLO+0E00h    ; lazy evaluation's RAM (6E00h-6FFFh)
LZK     EQU     LZRAM+00h       ; 2  KNOW's sum, computed by LZTRY
LZCHK   EQU     LZRAM+03h       ; 1  tests: nonzero = bounds only, never an exit
LZLO    EQU     LZRAM+04h       ; 2  BK_TOT's bounds (White's view, before
LZHI    EQU     LZRAM+06h       ; 2    DSHIFT)
LZPART  EQU     LZRAM+08h       ; 2  the partial score M + Bc + knowledge
LZSEQ   EQU     LZRAM+0Ah       ; 2  bounds computed (tests: this POINTS call's?)
LZMC    EQU     LZRAM+0Ch       ; 2  M, clamped
LZVLO   EQU     LZRAM+0Eh       ; 2  VALMW's bounds (side to move's view)
LZVHI   EQU     LZRAM+10h       ; 2
LZML    EQU     LZRAM+12h       ; 1  the mover's largest attacked value
LZW1    EQU     LZRAM+13h       ; 1  the side to move's two largest
LZW2    EQU     LZRAM+14h       ; 1
LZCK    EQU     LZRAM+15h       ; 1  nonzero: the piece just moved is attacked
LZTO    EQU     LZRAM+16h       ; 1  the square it moved to
LZLP    EQU     LZRAM+17h       ; 2  the battles' list pointer
LZLST   EQU     LZRAM+40h       ; 33 the squares of the battles, a1 to h8, 0
LZEND   EQU     LZLST+33
        ASSERT  LZEND <= XRAMLO+1000h, "lazy.asm's RAM runs past 6FFFh"

; LZHOOK: POINTS (F2_LAZY on) after its pass over the pieces: LZTRY in page
; 7. Back to POINTS' second pass (LZTRY did nothing), or on at POINTS.fk
; (LZTRY fought the battles from its list and ran KNOW), or, on an early exit, POINTS
; returns from here with HL = VALMW (VALM and the entry's sort key are not
; written: a leaf's are never read).
;   in: as POINTS at .pb0   clobbers: all but IX   cost: 110 T + LZTRY
;   CALLED BY: POINTS
;   CALLS:     LZTRY
LZHOOK: IN      A,(PPAGE)
        PUSH    AF
        LD      A,PAGEOF(LZTRY)
        OUT     (PPAGE),A
        CALL    LZTRY           ; carry: leave, HL = the value
        POP     DE              ; D = the page before (flags, HL kept)
        LD      A,D
        OUT     (PPAGE),A
        JR      C,.lazy
        RET     Z               ; POINTS' own second pass
        POP     DE
        JP      POINTS.fk       ; the battles are fought, HL = KNOW's sum
.lazy:  POP     DE              ; POINTS' own return address is next
        RET

        PAGE    7
; LZTRY: at a leaf, bound what the exchange analysis can change (above)
; and leave early when the window allows. Its scan of ATKMAP clears the
; marks and lists the squares where POINTS' second pass would fight a battle
; (an enemy attacker's mark), so when it goes on it fights them itself, in the
; second pass's order, and POINTS skips that pass.
;   in: POINTS after the pass over the pieces (MTRLW, BRDC, DEVW, ATKMAP)
;   out: carry = leave: HL = VALMW (a bound), NLAZY counted; no carry: Z =
;        nothing done (not a leaf), NZ = the battles fought, ATKMAP clear,
;        HL = KNOW's sum
;   clobbers: all but IX
;   cost: about 3,000 T (the scan) + KNOW + 1,500 T at a leaf; 150 T else
;   CALLED BY: LZHOOK
;   CALLS:     ATTACK, BATTLE, BCNOW, CLAMPW, CMPW, DSHIFT, INC32, KNOW,
;              MULAW, NEGHL, SCADR
LZTRY:  LD      A,(PATHON)      ; a search path (not the root's, not 'Q')
        OR      A
        RET     Z
        LD      A,(EVBRK)       ; ('Q' lists its battles)
        OR      A
        JR      NZ,.nil
        LD      A,(PLYMAX)      ; a leaf: NPLY >= PLYMAX
        LD      B,A
        LD      A,(NPLY)
        CP      B
        JR      NC,.leaf
.nil:   XOR     A               ; (Z, no carry) an ordering evaluation
        RET
.leaf:  XOR     A               ; the scan of ATKMAP
        LD      (LZML),A
        LD      (LZW1),A
        LD      (LZW2),A
        LD      (LZCK),A
        LD      HL,(LASTMV)
        INC     HL
        INC     HL
        INC     HL
        LD      A,(HL)
        LD      (LZTO),A
        LD      DE,LZLST        ; DE = the list's end
        LD      HL,ATKMAP+SQ_A1-1
.s:     INC     L
        LD      A,(HL)
        OR      A
        JR      Z,.s
        LD      B,A             ; B = the attackers' nibbles
        LD      A,L
        CP      (ATKMAP+SQ_H8+1) & 0FFh
        JR      NC,.k           ; the sentinel after h8's byte
        LD      (HL),0
        RES     7,L
        LD      A,B
        BIT     7,(HL)
        JR      Z,.wp
        AND     0Fh             ; a black piece: White's attackers
        JR      .at
.wp:    AND     0F0h            ; a white piece: Black's
.at:    LD      B,(HL)          ; B = the piece
        SET     7,L
        JR      Z,.s            ; no enemy attacker: no battle there
        LD      A,L
        AND     7Fh
        LD      (DE),A          ; a battle: listed
        INC     E
        PUSH    HL
        LD      A,B
        AND     7
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      C,(HL)          ; C = its value, the most it can lose
        POP     HL
        LD      A,(COLOR)
        XOR     B
        JP      M,.them
        LD      A,(LZML)        ; the mover's: the largest
        CP      C
        JR      NC,.ck
        LD      A,C
        LD      (LZML),A
.ck:    LD      A,(LZTO)        ; the piece just moved, attacked?
        LD      B,A
        LD      A,L
        AND     7Fh
        CP      B
        JR      NZ,.s
        LD      (LZCK),A
        JR      .s
.them:  LD      A,(LZW1)        ; the side to move's: the two largest
        CP      C
        JR      NC,.w2
        LD      (LZW2),A
        LD      A,C
        LD      (LZW1),A
        JR      .s
.w2:    LD      A,(LZW2)
        CP      C
        JR      NC,.s
        LD      A,C
        LD      (LZW2),A
        JR      .s
.k:     XOR     A
        LD      (DE),A          ; the list's end
        CALL    KNOW            ; the knowledge terms (POINTS.fk takes them)
        LD      (LZK),HL
        LD      A,(LZLST)       ; no battle: the score is exact anyway
        OR      A
        JP      Z,.go
        LD      A,(KV+K_MAT)    ; pieces on both sides: KPEND's terms are 0
        OR      A
        JP      Z,.go
        LD      A,(KV+40h+K_MAT)
        OR      A
        JP      Z,.go
        LD      HL,(MTRLW)      ; M, clamped, as POINTS
        LD      DE,(MV0W)
        OR      A
        SBC     HL,DE
        LD      DE,(P_MCLAMP)
        CALL    CLAMPW
        LD      (LZMC),HL
        LD      A,(LZML)        ; lost at most
        LD      DE,(P_XLOST)
        CALL    MULAW
        PUSH    HL
        LD      A,(LZW2)        ; won at most
        LD      DE,(P_XWON)
        CALL    MULAW
        POP     DE              ; HL = won, DE = lost
        LD      A,(COLOR)       ; White's view: HL = down, DE = up
        OR      A
        JR      NZ,.bm
        EX      DE,HL           ; White moved: down lost, up won
.bm:    PUSH    HL
        LD      HL,(LZMC)
        ADD     HL,DE
        LD      DE,(P_SCLAMP)
        CALL    CLAMPW
        LD      (LZHI),HL       ; S at most
        POP     DE
        LD      HL,(LZMC)
        OR      A
        SBC     HL,DE
        LD      DE,(P_SCLAMP)
        CALL    CLAMPW
        LD      (LZLO),HL       ; S at least
        LD      HL,(BC0W)       ; board control and development, as POINTS
        CALL    NEGHL
        EX      DE,HL
        CALL    BCNOW
        ADD     HL,DE
        LD      DE,(P_BCCLMP)
        CALL    CLAMPW          ; HL = Bc
        PUSH    HL
        LD      DE,(LZK)
        ADD     HL,DE
        LD      DE,(LZMC)
        ADD     HL,DE
        LD      (LZPART),HL     ; the partial score M + Bc + knowledge
        POP     HL
        LD      D,H
        LD      E,L             ; DE = Bc at least, HL = at most
        LD      A,(LZCK)
        OR      A
        JR      Z,.nck
        BIT     7,H             ; the piece just moved may hang: Bc or 0
        JR      Z,.bp
        LD      HL,0
        JR      .nck
.bp:    LD      DE,0
.nck:   PUSH    DE
        LD      DE,(LZK)
        ADD     HL,DE
        LD      DE,(LZHI)
        ADD     HL,DE
        LD      (LZHI),HL
        POP     HL
        LD      DE,(LZK)
        ADD     HL,DE
        LD      DE,(LZLO)
        ADD     HL,DE
        LD      (LZLO),HL
        LD      HL,(LZSEQ)
        INC     HL
        LD      (LZSEQ),HL
        LD      A,(LZCHK)       ; tests: the bounds only
        OR      A
        JR      NZ,.go
        LD      HL,(LZLO)       ; the draw window, monotonic
        CALL    DSHIFT
        PUSH    HL
        LD      HL,(LZHI)
        CALL    DSHIFT
        POP     DE              ; HL = shifted hi, DE = shifted lo
        LD      A,(COLOR)
        OR      A
        JR      NZ,.vb
        CALL    NEGHL           ; White moved: VALMW = -total
        EX      DE,HL
        CALL    NEGHL
        EX      DE,HL           ; HL = -hi, DE = -lo
        JR      .win
.vb:    EX      DE,HL           ; Black moved: HL = lo, DE = hi
.win:   LD      (LZVLO),HL
        LD      (LZVHI),DE
        LD      A,(NPLY)        ; DE = SCOREW[n-1]
        DEC     A
        CALL    SCADR
        LD      E,(HL)
        INC     L
        LD      D,(HL)
        LD      HL,(LZVHI)
        CALL    CMPW            ; C: SCOREW[n-1] < the most VALMW can be
        JR      C,.nc
        LD      A,(P_FLAGS)     ; every value cuts off: unless the table
        RRCA                    ; keeps the leaf's value (TTBETA at PLYMAX)
        JR      NC,.lazy
        LD      A,(PLYMAX)
        LD      B,A
        LD      A,(NPLY)
        CP      B
        JR      NZ,.lazy
        JR      .go
.nc:    LD      HL,(LZVLO)      ; none cuts off?
        CALL    CMPW
        JR      NC,.go
        CALL    NEGHL           ; ... and none is a new best (the mover's
        EX      DE,HL           ; view at most -LZVLO <= SCOREW[n])?
        LD      A,(NPLY)
        CALL    SCADR
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        CALL    CMPW            ; C: less, Z: equal
        JR      C,.low
        JR      NZ,.go
.low:   LD      HL,(LZVLO)
.lazy:  LD      (VALMW),HL      ; HL decides as the full score would
        LD      HL,NLAZY
        CALL    INC32
        LD      HL,(VALMW)
        SCF
        RET
.go:    LD      HL,LZLST        ; the battles, as POINTS' second pass
.b:     LD      A,(HL)
        OR      A
        JR      Z,.bx
        INC     HL
        LD      (LZLP),HL
        LD      C,A
        CALL    ATTACK          ; keeps C
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        CALL    BATTLE
        LD      HL,(LZLP)
        JR      .b
.bx:    INC     A               ; (NZ, no carry) done
        LD      HL,(LZK)
        RET
        ENDPAGE
