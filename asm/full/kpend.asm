; ===========================================================================
; kpend.asm (full build only): king-and-pawn endings. KPEND is
; called once by POINTS after KNOW; when nothing but kings and pawns is left
; it scores Cray Blitz's pawn races (RACE, below) and End-Game's Table 1
; (EGEVAL, endgame.asm), else its terms are 0.
; ===========================================================================

; KPEND: HL = the pawn-ending terms' sum (White's view), each in BRKDN
; (BK_RACE, BK_EG0.., BK_RPD, BK_FRD, BK_WBD; with P_FLAGS2's F2_KPKBB,
; K+P v K by the bitbase alone, in BK_RACE: kpkbase.asm; BK_LUS set 0: Lüscher's
; positions never get here, and an earlier one's word must not stay in
; `eval`'s breakdown).   in: KPTOT = POINTS' total
;   needs: KNOW's tables (K_MAT)   clobbers: all but IX
;   CALLED BY: POINTS
;   CALLS:     EGEVAL, FRDRAW, KPKEV, NEGHL, RACE, RPDRAW, WBDRAW
KPEND:  LD      A,(KV+K_MAT)    ; pieces left (N B R Q) on either side?
        LD      HL,KV+40h+K_MAT
        OR      (HL)
        JR      Z,.kp
        LD      HL,BK_RACE      ; no: every term 0 (BK_RACE .. BK_LUS) ...
        LD      B,5+KPNT
        XOR     A
.z:     LD      (HL),A
        INC     HL
        LD      (HL),A
        INC     HL
        DJNZ    .z
        LD      A,(P_WBDRW)     ; ... but K+RP+wrong bishop v K's draw
        OR      A
        JR      Z,.z0
        CALL    WBDRAW
        JR      NC,.z0
        LD      HL,0
        PUSH    HL
        LD      HL,BK_WBD
        JR      .draw
.z0:    LD      HL,0
        RET
.kp:    LD      A,(P_FLAGS2)    ; K+P v K: the bitbase (kpkbase.asm, in
        AND     F2_KPKBB        ; page 4)
        JR      Z,.rc
        IN      A,(PPAGE)
        PUSH    AF
        LD      A,PAGEOF(KPKEV)
        OUT     (PPAGE),A
        CALL    KPKEV
        POP     DE              ; D = the page before (flags, HL kept)
        LD      A,D
        OUT     (PPAGE),A
        RET     C
.rc:    CALL    RACE
        LD      (BK_RACE),HL
        PUSH    HL
        CALL    EGEVAL
        POP     DE
        ADD     HL,DE
        PUSH    HL              ; (race + End-Game)
        LD      HL,0
        LD      (BK_RPD),HL
        LD      (BK_FRD),HL
        LD      (BK_WBD),HL
        LD      (BK_LUS),HL
        LD      A,D             ; known draws, when no race is won:
        OR      E
        JR      NZ,.nd
        LD      A,(P_RPDRW)     ; K+RP v K
        OR      A
        JR      Z,.f
        CALL    RPDRAW
        LD      HL,BK_RPD
        JR      C,.draw
.f:     LD      A,(P_FRONT)     ; K+P v K, the king in front
        OR      A
        JR      Z,.nd
        CALL    FRDRAW
        JR      NC,.nd
        LD      HL,BK_FRD
.draw:  EX      DE,HL           ; DE = the draw's line
        POP     HL              ; the position's own value: POINTS' total,
        PUSH    HL              ; these terms and the root's MV0W + BC0W
        PUSH    DE              ; (the search measures from those) ...
        LD      DE,(KPTOT)
        ADD     HL,DE
        LD      DE,(MV0W)
        ADD     HL,DE
        LD      DE,(BC0W)
        ADD     HL,DE
        CALL    NEGHL           ; ... cancelled: the total comes out as a
        EX      DE,HL           ; draw, 0 for the position itself
        POP     HL
        LD      (HL),E
        INC     HL
        LD      (HL),D
        POP     HL
        ADD     HL,DE
        RET
.nd:    POP     HL
        RET

; EITHER: carry if the test at HL does for X = White or for X = Black: it
; runs after RBUILD (X's colour bit C) when Y has no pawns, and returns
; carry for "drawn".   clobbers: all but IX
;   CALLED BY: FRDRAW, RPDRAW
;   CALLS:     RBUILD
EITHER: LD      C,0
        PUSH    HL
        CALL    .one
        POP     HL
        RET     C
        LD      C,BLACK
.one:   PUSH    HL
        CALL    RBUILD
        POP     HL
        LD      A,(RNYP)
        OR      A
        RET     NZ              ; (NC)
        JP      (HL)

; FRDRAW: carry if one side has a single pawn, not on a rook file, and the
; other a bare king on its file one square in front of it (the pawn on its
; 2nd-6th rank) or two (2nd-5th): drawn whoever is to move and wherever the
; other king stands (the model is race.rs's front_draw, held to the KPK
; table on every position).   clobbers: all but IX
;   cost: about 2 x RBUILD
;   CALLED BY: KPEND
;   CALLS:     EITHER
FRDRAW: LD      HL,.side
        JR      EITHER
.side:  LD      A,(RNXP)
        DEC     A
        RET     NZ
        LD      A,(RXP)
        LD      B,A             ; B = the pawn
        AND     7
        JR      Z,.no
        CP      7
        JR      Z,.no
        LD      A,(RYK)
        SUB     B
        LD      C,6*8           ; one in front: the pawn below the 7th rank
        CP      8
        JR      Z,.r
        LD      C,5*8           ; two in front: below the 6th
        CP      16
        JR      NZ,.no
.r:     LD      A,B
        CP      C
        RET
.no:    OR      A
        RET

; WBDRAW: carry if one side has a bishop and nothing else but pawns, all on
; one rook file, the other a bare king next to (or on) their queening
; square, beyond the most advanced of them, and the bishop cannot cover
; that square ("the wrong bishop"): Cray Blitz's K+RP+wrong bishop v K
; draw (the model is race.rs's wrong_bishop_draw, held to the KBPK
; table).   needs: KNOW's tables   clobbers: all but IX
;   CALLED BY: KPEND
;   CALLS:     RBUILD, RPSIDE
WBDRAW: LD      HL,KV+40h+K_MAT ; X: the side with one bishop, Y: the bare
        LD      C,0             ; king
        LD      A,(HL)
        OR      A
        LD      HL,KV+K_MAT
        JR      Z,.x
        LD      A,(HL)
        OR      A
        RET     NZ              ; (NC) pieces on both sides
        LD      C,BLACK
        LD      HL,KV+40h+K_MAT
.x:     LD      A,(HL)          ; one bishop, nothing else
        CP      3
        JR      NZ,.no
        INC     L               ; K_NB
        LD      A,(HL)
        DEC     A
        JR      NZ,.no
        LD      A,L
        AND     40h
        OR      K_BC0
        LD      L,A
        LD      A,(HL)          ; 1: the bishop is on colour 0 (dark)
        PUSH    AF
        CALL    RBUILD
        LD      A,(RNYP)
        OR      A
        JR      NZ,.nop
        CALL    RPSIDE
        JR      NC,.nop
        POP     AF
        LD      B,A
        LD      A,C             ; the queening square's colour: file + 7
        OR      A               ; (White) or file (Black), odd = light
        LD      A,E
        JR      NZ,.b
        ADD     A,7
.b:     AND     1
        CP      B               ; wrong: light square and dark bishop (1, 1)
        SCF                     ; or dark and light (0, 0)
        RET     Z
.no:    OR      A
        RET
.nop:   POP     AF
        OR      A
        RET

; RPDRAW: carry if one side has only pawns, all on one rook file, and the
; other a bare king next to (or on) their queening square, beyond the most
; advanced of them: Cray Blitz's "K+RP vs K" draw (the model is
; race.rs's rook_pawn_draw, held to the KPK table on every position).
;   clobbers: all but IX
;   CALLED BY: KPEND
;   CALLS:     EITHER
RPDRAW: LD      HL,RPSIDE
        JP      EITHER
; RPSIDE: X's pawns all on one rook file (E = the file, X-relative), Y's
; king by their queening square beyond them: carry.   (after RBUILD)
;   clobbers: A, B, D, E, HL
;   CALLED BY: WBDRAW
;   CALLS:     -
RPSIDE: LD      A,(RNXP)
        OR      A
        RET     Z
        LD      B,A
        LD      HL,RXP
        LD      A,(HL)
        AND     7
        LD      E,A             ; E = the file
        JR      Z,.rf
        CP      7
        JR      NZ,.no
.rf:    LD      D,0             ; D = the most advanced pawn's rank
.l:     LD      A,(HL)
        AND     7
        CP      E
        JR      NZ,.no
        LD      A,(HL)
        RRCA
        RRCA
        RRCA
        AND     7
        CP      D
        JR      C,.s
        LD      D,A
.s:     INC     HL
        DJNZ    .l
        LD      A,(RYK)         ; Y's king beyond it, on the 7th or 8th rank,
        RRCA
        RRCA
        RRCA
        AND     7
        CP      D
        JR      C,.no
        JR      Z,.no
        CP      6
        JR      C,.no
        LD      A,(RYK)         ; within a file of the pawns
        AND     7
        SUB     E
        JR      NC,.f
        NEG
.f:     CP      2
        JR      NC,.no
        SCF
        RET
.no:    OR      A
        RET

; ---------------------------------------------------------------------------
; RACE: Cray Blitz's pawn races and K+P(s) against K, scored only when the
; win is certain (src/reference/race.rs is its model; tests/endgames/race.rs holds
; both to the tablebases on every KPK position and a KPKP sample, and to
; each other). Each side X in turn (Y the other) is looked at from X's side
; of the board, X's pawns moving up (REL: Black's view mirrors the ranks).
; X wins for certain when, Y's king not stalemated (Y to move) and X not in
; check by a Y pawn (X to move), an X pawn that Y cannot take at once (Y to
; move, its king beside the pawn, X's king not) is
;   a runner: passed (no Y pawn ahead on its file or a neighbour), its path
;     to the 8th rank empty, the queening square more than n king steps from
;     Y's king (n = moves to queen, from the 3rd rank for a pawn on its 2nd;
;     n + 1 when Y is to move); and if Y has pawns, Y's king beside the path
;     of none of them ("unless the other king supports its pawn") and X
;     queening RMARG plies or more before Y's fastest pawn could (its moves
;     counted as if its path were free): "at least two moves before";
;   or by its key squares: Y has no pawns, the pawn is not a rook pawn, and
;     X's king stands on one of the three squares two ranks in front of it
;     (pawn on its 2nd-4th rank) or of the six one and two ranks in front (5th
;     and 6th), or is two king steps nearer to an empty one than Y's king (a
;     step more when Y is to move: with one step the defending king in front
;     of the pawn takes the opposition, as the table showed).
; HL = +P_RACE (White wins), -P_RACE (Black), else 0. As in POINTS, COLOR
; is the side that has just moved: the other side is to move.
;   clobbers: all but IX   cost: about 9,000-14,000 T
; ---------------------------------------------------------------------------
RMARG   EQU     4               ; plies of lead a race needs
RV      EQU     XRAM+600h       ; page aligned
RVH     EQU     RV >> 8
REL     EQU     RV+00h          ; 64 the board from X's side (a1 = 0): 01h X
                                ;    pawn, 81h Y pawn, 06h X king, 86h Y king
RXK     EQU     RV+40h          ; 1  X's king (X's view)
RYK     EQU     RV+41h          ; 1  Y's king
RXTM    EQU     RV+42h          ; 1  1 when X is to move, else 0
RMASK   EQU     RV+43h          ; 1  00h (X = White) or 38h (Black: ranks mirrored)
RNXP    EQU     RV+44h          ; 1  X's pawns listed
RNYP    EQU     RV+45h          ; 1  Y's pawns listed
RYF     EQU     RV+46h          ; 1  Y's fastest pawn: moves to queen (FFh none)
RSUP    EQU     RV+47h          ; 1  Y's king beside the path of a Y pawn
RWHITE  EQU     RV+48h          ; 1  White's verdict (FFh wins)
RTMP    EQU     RV+49h          ; 1  scratch
RS      EQU     RV+4Ah          ; 1  the X pawn looked at: square, file, rank,
RF      EQU     RV+4Bh          ; 1    moves to queen
RR      EQU     RV+4Ch
RN      EQU     RV+4Dh
KPTOT   EQU     RV+4Eh          ; 2  POINTS' total before KPEND (White's view)
RXP     EQU     RV+50h          ; 16 X's pawns' squares
RYP     EQU     RV+60h          ; 16 Y's pawns' squares
        ASSERT  RNYP - RNXP == 1, "RBUILD: RNYP follows RNXP"
        ASSERT  RXP == RV + (RNXP - RV - 3Fh) * 10h, "RBUILD forms a list's address from its count's"

; RACE: the pawn races and K+P(s) against K (the rules above the variables).
;   CALLED BY: KPEND
;   CALLS:     NEGHL, RSIDE
RACE:   LD      C,0
        CALL    RSIDE           ; White wins for certain?
        SBC     A,A
        LD      (RWHITE),A
        LD      C,BLACK
        CALL    RSIDE           ; Black?
        SBC     A,A
        LD      B,A
        LD      A,(RWHITE)
        LD      HL,0
        CP      B
        RET     Z               ; neither (or both: cannot be, but nothing)
        LD      HL,(P_RACE)
        OR      A
        RET     NZ              ; White's
        JP      NEGHL

; RSIDE: carry if X (colour bit C) wins for certain.   clobbers: all but IX
;   CALLED BY: RACE
;   CALLS:     RBUILD, RCHK, RFD, RKMOV, RPAWN
RSIDE:  CALL    RBUILD
        LD      A,(RXTM)
        OR      A
        JR      NZ,.x
        CALL    RKMOV           ; Y to move: stalemated?
        RET     NC
        JR      .y
.x:     CALL    RCHK            ; X to move: in check by a Y pawn?
        CCF
        RET     NC
.y:     LD      A,0FFh          ; Y's fastest pawn, and its king's support
        LD      (RYF),A
        XOR     A
        LD      (RSUP),A
        LD      A,(RNYP)
        OR      A
        JR      Z,.p
        LD      B,A
        LD      HL,RYP
.yl:    LD      A,(HL)
        LD      E,A             ; E = t
        RRCA
        RRCA
        RRCA
        AND     7               ; rank(t) = the pawn's moves to queen,
        LD      C,A
        CP      6
        JR      NZ,.y1
        DEC     A               ; 5 from its 2nd rank
.y1:    PUSH    HL
        LD      HL,RYF
        CP      (HL)
        JR      NC,.y2
        LD      (HL),A
.y2:    LD      A,(RYK)         ; supported: Y's king within a file of t
        LD      D,A             ; and not beyond t's rank
        CALL    RFD
        CP      2
        JR      NC,.y3
        LD      A,D
        RRCA
        RRCA
        RRCA
        AND     7
        LD      (RTMP),A
        LD      A,C
        LD      HL,RTMP
        CP      (HL)            ; rank(t) < rank(yk): not beside its path
        JR      C,.y3
        LD      A,1
        LD      (RSUP),A
.y3:    POP     HL
        INC     HL
        DJNZ    .yl
.p:     LD      A,(RNXP)        ; each X pawn
        OR      A
        RET     Z
        LD      B,A
        LD      HL,RXP
.xl:    PUSH    BC
        PUSH    HL
        LD      A,(HL)
        CALL    RPAWN
        POP     HL
        POP     BC
        RET     C
        INC     HL
        DJNZ    .xl
        OR      A
        RET

; RPAWN: carry if the X pawn on A wins by one of the rules.   clobbers: all
;   CALLED BY: RSIDE
;   CALLS:     RDIST, RKEY, RPASS
RPAWN:  LD      (RS),A
        LD      E,A
        LD      A,(RXTM)        ; Y to move takes it at once?
        OR      A
        JR      NZ,.nt
        LD      A,(RYK)
        LD      D,A
        CALL    RDIST
        DEC     A
        JR      NZ,.nt
        LD      A,(RXK)
        LD      D,A
        CALL    RDIST
        CP      2
        RET     NC              ; (no carry)
.nt:    LD      A,(RS)
        AND     7
        LD      (RF),A
        LD      A,(RS)
        RRCA
        RRCA
        RRCA
        AND     7
        LD      (RR),A
        LD      B,A             ; n = 7 - r, 5 from the 2nd rank
        LD      A,7
        SUB     B
        CP      6
        JR      NZ,.n
        DEC     A
.n:     LD      (RN),A
        CALL    RPASS           ; a passed pawn with a free path?
        JR      C,.key
        LD      A,(RF)          ; Y's king outside the square
        OR      38h
        LD      E,A             ; the queening square
        LD      A,(RYK)
        LD      D,A
        CALL    RDIST
        LD      C,A
        LD      A,(RXTM)
        XOR     1
        LD      B,A
        LD      A,(RN)
        ADD     A,B             ; n, + 1 when Y is to move
        CP      C
        JR      NC,.key
        LD      A,(RNYP)
        OR      A
        SCF
        RET     Z               ; K+P(s) against K: it queens
        LD      A,(RSUP)
        OR      A
        JR      NZ,.key
        LD      A,(RN)          ; the lead: 2 (m - n) - 1 + 2 * (X to move)
        LD      B,A
        LD      A,(RYF)
        SUB     B
        ADD     A,A
        DEC     A
        LD      B,A
        LD      A,(RXTM)
        ADD     A,A
        ADD     A,B
        JP      M,.key
        CP      RMARG
        CCF
        RET     C
.key:   LD      A,(RNYP)        ; key squares: Y has no pawns,
        OR      A
        RET     NZ
        LD      A,(RF)          ; not a rook pawn,
        OR      A
        RET     Z
        CP      7
        RET     Z
        LD      A,(RR)          ; the pawn's key squares: files f-1..f+1,
        CP      6               ; rank r+2 (pawn on its 2nd-4th rank) or
        RET     NC              ; r+1 and r+2 (5th, 6th); none on the 7th
        LD      B,A
        INC     B
        CP      4
        JR      NC,.kr
        INC     B
.kr:    LD      A,(RF)
        DEC     A
        LD      C,A
.kf:    LD      A,B
        ADD     A,A
        ADD     A,A
        ADD     A,A
        OR      C
        LD      E,A             ; E = the key square
        CALL    RKEY
        RET     C
        INC     C
        LD      A,(RF)
        INC     A
        CP      C
        JR      NC,.kf
        INC     B
        LD      A,(RR)
        ADD     A,2
        CP      B
        JR      NC,.kr
        OR      A
        RET

; RKEY: carry if X's king is on the key square E, or is two steps nearer to
; it (empty) than Y's king, a step more when Y is to move.   keeps: BC
;   clobbers: A, D, HL
;   CALLED BY: RPAWN
;   CALLS:     RDIST
RKEY:   LD      A,(RXK)
        CP      E
        SCF
        RET     Z
        LD      L,E
        LD      H,RVH
        LD      A,(HL)
        OR      A
        RET     NZ              ; occupied
        LD      A,(RYK)
        LD      D,A
        CALL    RDIST
        PUSH    AF              ; Y's steps
        LD      A,(RXK)
        LD      D,A
        CALL    RDIST
        LD      D,A
        LD      A,(RXTM)
        XOR     1
        ADD     A,D
        ADD     A,2
        LD      D,A             ; X's steps + 2, + 1 when Y is to move
        POP     AF
        CP      D
        CCF
        RET

; RPASS: carry unless the X pawn (RS, file RF) is passed with its path empty.
;   clobbers: A, HL
;   CALLED BY: RPAWN
;   CALLS:     -
RPASS:  LD      A,(RS)
        LD      L,A
        LD      H,RVH
.r:     LD      A,L
        ADD     A,8
        LD      L,A
        CP      64
        RET     NC              ; past the 8th rank: passed and free
        LD      A,(HL)
        OR      A
        SCF
        RET     NZ              ; the path is blocked
        LD      A,(RF)
        OR      A
        JR      Z,.r1
        DEC     L               ; a Y pawn ahead on the left
        LD      A,(HL)
        INC     L
        CP      81h
        SCF
        RET     Z
.r1:    LD      A,(RF)
        CP      7
        JR      Z,.r
        INC     L               ; or on the right
        LD      A,(HL)
        DEC     L
        CP      81h
        SCF
        RET     Z
        JR      .r

; RKMOV: carry if Y's king has a square: empty, not next to X's king, not
; guarded by an X pawn.   clobbers: A, BC, DE, HL
;   CALLED BY: RSIDE
;   CALLS:     RDIST
RKMOV:  LD      A,(RYK)
        LD      D,A
        LD      HL,RKDIR
        LD      B,8
.d:     LD      A,D
        AND     7
        ADD     A,(HL)
        INC     HL
        CP      8
        JR      NC,.nx          ; off the board (-1 is FFh)
        LD      C,A             ; C = its file
        LD      A,D
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
        OR      C
        LD      E,A             ; E = the square
        PUSH    HL
        LD      L,A
        LD      H,RVH
        LD      A,(HL)
        OR      A
        JR      NZ,.no          ; a pawn there
        LD      A,E
        CP      16
        JR      C,.ng           ; X's pawns guard the 3rd rank up
        LD      A,C
        OR      A
        JR      Z,.g1
        LD      A,E
        SUB     9
        LD      L,A
        LD      A,(HL)
        DEC     A
        JR      Z,.no
.g1:    LD      A,C
        CP      7
        JR      Z,.ng
        LD      A,E
        SUB     7
        LD      L,A
        LD      A,(HL)
        DEC     A
        JR      Z,.no
.ng:    PUSH    DE
        LD      A,(RXK)
        LD      D,A
        CALL    RDIST
        POP     DE
        CP      2
        JR      C,.no
        POP     HL
        SCF
        RET
.no:    POP     HL
.nx:    INC     HL
        DJNZ    .d
        OR      A
        RET
RKDIR:  DB      -1,-1, 0,-1, 1,-1, -1,0, 1,0, -1,1, 0,1, 1,1

; RCHK: carry if a Y pawn gives check to X's king.   clobbers: A, C, HL
;   CALLED BY: RSIDE
;   CALLS:     -
RCHK:   LD      A,(RXK)
        CP      56
        JR      NC,.no
        LD      L,A
        LD      H,RVH
        AND     7
        LD      C,A
        JR      Z,.c1
        PUSH    HL
        LD      A,L
        ADD     A,7
        LD      L,A
        LD      A,(HL)
        POP     HL
        CP      81h
        SCF
        RET     Z
.c1:    LD      A,C
        CP      7
        JR      Z,.no
        LD      A,L
        ADD     A,9
        LD      L,A
        LD      A,(HL)
        CP      81h
        SCF
        RET     Z
.no:    OR      A
        RET

; RBUILD: REL, the kings and the pawn lists from X's side (colour bit C).
;   clobbers: A, B, DE, HL
;   CALLED BY: EITHER, KPKEV, RSIDE, WBDRAW
;   CALLS:     -
RBUILD: LD      A,C
        OR      A
        JR      Z,.m
        LD      A,38h
.m:     LD      (RMASK),A
        LD      A,(COLOR)       ; POINTS' COLOR is the side that has just
        CP      C               ; moved: X is to move when it is Y
        LD      A,0
        JR      Z,.t
        INC     A
.t:     LD      (RXTM),A
        XOR     A
        LD      (RNXP),A
        LD      (RNYP),A
        LD      HL,BOARD+SQ_A1
        LD      E,0             ; E = the square, a1 = 0
.rk:    LD      B,8
.sq:    LD      A,(HL)
        OR      A
        JR      Z,.st
        AND     87h             ; colour and type
        XOR     C               ; X's men with bit 7 clear
.st:    PUSH    HL
        LD      D,A
        LD      A,(RMASK)
        XOR     E
        LD      L,A
        LD      H,RVH
        LD      (HL),D          ; REL[E xor RMASK]
        LD      A,D
        OR      A
        JR      Z,.nx
        CP      KING
        JR      NZ,.a1
        LD      A,L
        LD      (RXK),A
        JR      .nx
.a1:    CP      BLACK|KING
        JR      NZ,.a2
        LD      A,L
        LD      (RYK),A
        JR      .nx
.a2:    LD      D,L             ; a pawn: listed (WBDRAW's bishop is not)
        LD      HL,RNXP
        CP      PAWN
        JR      Z,.a3
        CP      BLACK|PAWN
        JR      NZ,.nx
        INC     L               ; RNYP
.a3:    LD      A,L
        SUB     3Fh
        RLCA
        RLCA
        RLCA
        RLCA                    ; RNXP -> RXP, RNYP -> RYP
        ADD     A,(HL)
        INC     (HL)
        LD      L,A
        LD      (HL),D
.nx:    POP     HL
        INC     HL
        INC     E
        DJNZ    .sq
        INC     HL
        INC     HL
        LD      A,E
        CP      64
        JR      NZ,.rk
        RET

; RFD: A = |file(D) - file(E)|; RDIST: A = king steps from D to E (squares
; 0..63).   clobbers: A (RDIST keeps BC)
;   CALLED BY: RDIST, RSIDE
;   CALLS:     -
RFD:    LD      A,D
        AND     7
        LD      (RTMP),A
        LD      A,E
        AND     7
; RABS: A = |A - (RTMP)|, the tail of RFD and RDIST.   clobbers: A
;   CALLED BY: RDIST
;   CALLS:     -
RABS:   PUSH    HL              ; A = |A - (RTMP)|
        LD      HL,RTMP
        SUB     (HL)
        POP     HL
        RET     NC
        NEG
        RET
; RDIST: king steps from D to E (RFD / RDIST above).
;   CALLED BY: RKEY, RKMOV, RPAWN
;   CALLS:     RABS, RFD
RDIST:  PUSH    BC
        CALL    RFD
        LD      B,A
        LD      A,D
        RRCA
        RRCA
        RRCA
        AND     7
        LD      (RTMP),A
        LD      A,E
        RRCA
        RRCA
        RRCA
        AND     7
        CALL    RABS
        CP      B
        JR      NC,.d
        LD      A,B
.d:     POP     BC
        RET
