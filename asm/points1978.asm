; ===========================================================================
; points1978.asm: POINTS, the 1978 build's static evaluation (points.asm
; describes it with the article build's): ATTACK on every square for board
; control, XCHNG (BATTLE) on every occupied one, the material and the
; scoring in the program's 8-bit arithmetic.
; ===========================================================================

; POINTS: out: A = VALM, also stored in the score byte of LASTMV's entry.
;   clobbers: all but IX
;   CALLED BY: CEVAL, EVAL, FNDMOV, SRCH
;   CALLS:     ATTACK, BATTLE, DEVEL, INC32, LIMIT
POINTS: LD      HL,NEVAL
        CALL    INC32
        XOR     A
        LD      HL,MTRL         ; MTRL BRDC PTSL PTSW1 PTSW2 PTSCK
        LD      B,6
.clr:   LD      (HL),A
        INC     HL
        DJNZ    .clr
        ; The 1978 way: ATTACK on every square (board control), XCHNG on every
        ; occupied one.
        LD      C,SQ_A1
.sq:    LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        CP      OFFB
        JP      Z,.next
        OR      A
        CALL    NZ,DEVEL
        CALL    ATTACK          ; keeps C
        LD      A,(WACT)        ; board control
        LD      HL,BACT
        SUB     (HL)
        LD      HL,BRDC
        ADD     A,(HL)
        LD      (HL),A
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        OR      A
        CALL    NZ,BATTLE
.next:  INC     C
        LD      A,C
        CP      SQ_H8+1
        JP      C,.sq
        ; the piece just moved is en prise: the side to move's largest loss
        ; is ignored, the second moves up
        LD      A,(PTSCK)
        OR      A
        JR      Z,.f1
        LD      A,(PTSW2)
        LD      (PTSW1),A
        XOR     A
        LD      (PTSW2),A
.f1:
        LD      A,(PTSL)        ; lost = PTSL - 1
        OR      A
        JR      Z,.f2
        DEC     A
.f2:    LD      B,A
        LD      A,(PTSW1)       ; won = (PTSW2 - 1) / 2 when two are threatened
        OR      A
        JR      Z,.f3
        LD      A,(PTSW2)
        OR      A
        JR      Z,.f3
        DEC     A
        SRL     A
.f3:    SUB     B               ; the mover's gain ...
        LD      B,A
        LD      A,(COLOR)
        OR      A
        LD      A,B
        JR      Z,.f4
        NEG                     ; ... in White's view
.f4:    LD      HL,MTRL
        ADD     A,(HL)
        LD      HL,MV0
        SUB     (HL)
        LD      B,30
        CALL    LIMIT
        ADD     A,A
        ADD     A,A             ; 4M
        LD      D,A
        LD      A,(PTSCK)       ; board control, unless the piece just moved hangs
        OR      A
        LD      A,0
        JR      NZ,.f5
        LD      A,(BRDC)
        LD      HL,BC0
        SUB     (HL)
        LD      B,6
        CALL    LIMIT
.f5:    ADD     A,D             ; S, White's view
        LD      B,A
        LD      A,(COLOR)
        OR      A
        LD      A,80h
        JR      NZ,.blk
        SUB     B
        JR      .st
.blk:   ADD     A,B
.st:    LD      (VALM),A
        LD      HL,(LASTMV)
        LD      DE,5
        ADD     HL,DE
        LD      (HL),A
        RET
