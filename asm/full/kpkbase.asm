; ===========================================================================
; kpkbase.asm (full build only): K+P v K scored exactly, from the
; KPK bitbase of the period's kind in expansion ROM page 4 (kpk_bitbase.asm,
; generated from our KPK table by `z80chess tablebase kpk-bitbase`): a bit per
; position with the pawn's side (X) to move, 1 = X wins, the board seen from
; X's side with the pawn on files a-d; with the bare king's side (Y) to move,
; a one-ply look over Y's king moves. src/tablebase/kpk_bitbase.rs is the
; model (`wins`); tests/endgames/kpkbase.rs holds the Z80 to it, and it to the table,
; on every KPK position.
;
; A bitbase knows the result, not the way, so a won position scores
; P_RACE + P_PAWN + progress for X: 32 per rank the pawn has advanced, less
; 8 per king step from X's king to the pawn's nearest key square (two in
; front; one in front from the 6th rank), plus 2 per step from Y's king to
; the pawn. A push that keeps the win outscores any king move; a move that
; throws the win scores a draw. Drawn positions score a draw.
;
; KPKEV runs in page 4 (KPEND selects it and restores the page).
;   RAM: KBV = RV+80h.. (kpend.asm's page, above RACE's variables)
; ===========================================================================

KBV     EQU     RV+80h
KBX     EQU     KBV+00h         ; 1  X's king (X's side, pawn on files a-d)
KBY     EQU     KBV+01h         ; 1  Y's king
KBP     EQU     KBV+02h         ; 1  the pawn
KBN     EQU     KBV+03h         ; 1  the one-ply look: directions left
KBCNT   EQU     KBV+04h         ; 1  ... Y's king moves found
        ASSERT  KBCNT < RV + 0F0h, "KBV runs into the routine tests' stubs at RV+F0h"

        PAGE    4
; KPKEV: when nothing but the kings and one pawn is on the board: carry, HL =
; the ending's term (White's view) that makes the position's own value
; (POINTS' total KPTOT + the term + the root's MV0W + BC0W, which the search
; measures from) the bitbase's score: 0 for a draw, +-(P_RACE + P_PAWN +
; progress) for X's win; in BRKDN as BK_RACE (the race's line: a certain
; verdict), the other ending terms 0.
; Else no carry (RACE and End-Game score it).
;   needs: page 4 selected, KPTOT   clobbers: all but IX
;   cost: about 3,600 T (RBUILD) + 250 T (X to move) or up to 2,300 T
;   (Y to move, eight probes)
;   CALLED BY: KPEND
;   CALLS:     KBPROG, KBWIN, NEGHL, RBUILD
KPKEV:  LD      C,0
        CALL    RBUILD          ; White as X
        LD      A,(RNXP)
        LD      B,A
        LD      A,(RNYP)
        ADD     A,B
        DEC     A
        RET     NZ              ; (no carry) not one pawn
        LD      A,B
        OR      A
        JR      NZ,.x
        LD      C,BLACK         ; Black's pawn: Black is X
        CALL    RBUILD
.x:     LD      A,(RXP)         ; the pawn on files a-d: mirror the files
        LD      D,A
        AND     4
        JR      Z,.m
        LD      A,7
.m:     LD      E,A             ; E = 0 or 7
        LD      A,D
        XOR     E
        LD      D,A
        LD      (KBP),A
        LD      A,(RXK)
        XOR     E
        LD      B,A
        LD      (KBX),A
        LD      A,(RYK)
        XOR     E
        LD      C,A
        LD      (KBY),A
        CALL    KBWIN           ; (B, C, D)
        JR      NC,.draw
        CALL    KBPROG          ; HL = P_RACE + P_PAWN + progress
        LD      A,(RMASK)
        OR      A
        CALL    NZ,NEGHL        ; White's view
        JR      .set
.draw:  LD      HL,0
.set:   LD      DE,(KPTOT)      ; less the rest: the position's own value
        OR      A
        SBC     HL,DE
        LD      DE,(MV0W)
        OR      A
        SBC     HL,DE
        LD      DE,(BC0W)
        OR      A
        SBC     HL,DE
        PUSH    HL
        LD      HL,BK_RACE      ; every other ending term 0
        LD      B,5+KPNT
        XOR     A
.z:     LD      (HL),A
        INC     HL
        LD      (HL),A
        INC     HL
        DJNZ    .z
        POP     HL
        LD      (BK_RACE),HL
        SCF
        RET

; KBWIN: carry if X wins: B = X's king, C = Y's king, D = the pawn (X's
; side, files a-d); RXTM says who is to move. Y to move: X wins when every
; move of Y's king (not next to X's king, not onto a square the pawn
; guards) leads to a won position and does not take the pawn, or when Y
; has none and the pawn gives check (mate; stalemate draws).
;   clobbers: A, C, E, HL
;   CALLED BY: KPKEV
;   CALLS:     KBIT, KPATK, KTOUCH
KBWIN:  LD      A,(RXTM)
        OR      A
        JR      Z,.y
        CALL    KBIT
        RET     Z               ; (no carry: ADD/AND in KBIT clear it)
        SCF
        RET
.y:     XOR     A
        LD      (KBCNT),A
        LD      A,8
        LD      (KBN),A
        LD      HL,RKDIR        ; (df, dr) pairs
.d:     LD      A,(KBY)
        AND     7
        ADD     A,(HL)
        INC     HL
        CP      8
        JR      NC,.nx          ; off the board (-1 is FFh)
        LD      E,A             ; E = the file
        LD      A,(KBY)
        RRCA
        RRCA
        RRCA
        AND     7
        ADD     A,(HL)
        CP      8
        JR      NC,.nx
        ADD     A,A
        ADD     A,A
        ADD     A,A
        OR      E
        LD      C,A             ; C = the square
        CALL    KTOUCH          ; next to X's king?
        JR      C,.nx
        CALL    KPATK           ; guarded by the pawn?
        JR      C,.nx
        LD      A,(KBCNT)
        INC     A
        LD      (KBCNT),A
        LD      A,C
        CP      D
        RET     Z               ; takes the pawn: a draw (no carry)
        PUSH    HL
        CALL    KBIT
        POP     HL
        RET     Z               ; a drawn reply
.nx:    INC     HL
        LD      A,(KBN)
        DEC     A
        LD      (KBN),A
        JR      NZ,.d
        LD      A,(KBCNT)
        OR      A
        SCF
        RET     NZ              ; every reply loses
        LD      A,(KBY)         ; none: mate if the pawn gives check
        LD      C,A
        JP      KPATK

; KBIT: NZ if the bit of (X's king B, Y's king C, pawn D) is set, X to
; move: byte 8000h + pawn * 512 + B * 8 + C / 8, bit C & 7, the pawn's
; index (rank - 1) * 4 + file.   keeps: B, C, D   clobbers: A, E, HL
;   CALLED BY: KBWIN
;   CALLS:     -
KBIT:   LD      A,D
        AND     38h
        RRCA                    ; rank * 4
        SUB     4
        LD      L,A
        LD      A,D
        AND     3
        ADD     A,L
        ADD     A,A
        ADD     A,HIGH(KPKBIT)
        LD      H,A
        LD      A,B
        RLCA
        RLCA
        RLCA                    ; (B << 3) | (B >> 5)
        LD      E,A
        AND     1
        ADD     A,H
        LD      H,A
        LD      A,C
        RRCA
        RRCA
        RRCA
        AND     7
        LD      L,A
        LD      A,E
        AND     0F8h
        OR      L
        LD      L,A
        LD      A,C
        AND     7
        ADD     A,LOW(KBMASK)
        LD      E,A
        LD      A,(HL)
        LD      H,HIGH(KBMASK)
        LD      L,E
        AND     (HL)
        RET
KBMASK: DB      1,2,4,8,16,32,64,128
        ASSERT  LOW(KBMASK) <= 0F8h, "KBMASK must lie in one 256-byte page"
        ASSERT  LOW(KPKBIT) == 0, "KPKBIT must be page aligned"

; KTOUCH: carry if squares B and C are one king step apart or equal.
;   clobbers: A, E
;   CALLED BY: KBWIN
;   CALLS:     -
KTOUCH: LD      A,B
        AND     7
        LD      E,A
        LD      A,C
        AND     7
        SUB     E
        INC     A               ; -1..1 -> 0..2
        CP      3
        RET     NC
        LD      A,B
        AND     38h
        LD      E,A
        LD      A,C
        AND     38h
        SUB     E
        ADD     A,8             ; -8, 0, 8 -> 0, 8, 16
        CP      17
        RET

; KPATK: carry if the pawn D guards square C (X's side: it moves up).
;   clobbers: A, E
;   CALLED BY: KBWIN
;   CALLS:     -
KPATK:  LD      A,D
        ADD     A,8
        XOR     C
        AND     38h
        RET     NZ              ; not the rank in front (no carry: AND)
        LD      A,D
        AND     7
        LD      E,A
        LD      A,C
        AND     7
        SUB     E
        JR      Z,.no           ; straight in front
        INC     A
        CP      3               ; -1 or 1
        RET
.no:    OR      A
        RET

; KBPROG: HL = P_RACE + P_PAWN + progress (X's view, the header's terms).
;   clobbers: A, DE, HL
;   CALLED BY: KPKEV
;   CALLS:     KDIST
KBPROG: LD      A,(KBP)
        LD      D,A
        AND     38h             ; rank * 8
        ADD     A,A
        ADD     A,A             ; rank * 32
        LD      L,A
        LD      H,0
        LD      A,D             ; the key square: two in front, one from
        ADD     A,16            ; the 6th rank
        CP      56
        JR      C,.k
        SUB     8
.k:     LD      E,A
        LD      A,(KBX)
        CALL    KDIST
        ADD     A,A
        ADD     A,A
        ADD     A,A             ; 8 per step, less
        LD      E,A
        LD      D,0
        OR      A
        SBC     HL,DE
        LD      A,(KBP)
        LD      E,A
        LD      A,(KBY)
        CALL    KDIST
        ADD     A,A             ; 2 per step
        LD      E,A
        LD      D,0
        ADD     HL,DE
        LD      DE,(P_RACE)
        ADD     HL,DE
        LD      DE,(P_PAWN)
        ADD     HL,DE
        RET

; KDIST: A = king steps from square A to square E.   clobbers: A, D
;   CALLED BY: KBPROG
;   CALLS:     -
KDIST:  LD      D,A
        PUSH    BC
        AND     7
        LD      B,A
        LD      A,E
        AND     7
        SUB     B
        JR      NC,.f
        NEG
.f:     LD      C,A             ; C = files apart
        LD      A,D
        AND     38h
        LD      B,A
        LD      A,E
        AND     38h
        SUB     B
        JR      NC,.r
        NEG
.r:     RRCA
        RRCA
        RRCA                    ; ranks apart
        CP      C
        JR      NC,.m
        LD      A,C
.m:     POP     BC
        RET
        ENDPAGE
