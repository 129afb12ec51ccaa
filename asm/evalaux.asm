; ===========================================================================
; evalaux.asm: POINTS' arithmetic (LIMIT, SEXT, CLAMP), the counters' INC32,
; and the 'Q' command (CEVAL, PUTN, CLOCK).
; ===========================================================================

; LIMIT: clamp the signed byte A to -B..B (B = 1..127).   clobbers: F
;   CALLED BY: POINTS (article+1978)
;   CALLS:     -
LIMIT:  BIT     7,A
        JR      NZ,.neg
        CP      B
        RET     C
        LD      A,B
        RET
.neg:   NEG
        CP      B
        JR      C,.n
        LD      A,B
.n:     NEG
        RET

; SEXT: HL = A sign-extended.   clobbers: A
;   CALLED BY: KTERMB (full), POINTS (article)
;   CALLS:     -
SEXT:   LD      L,A
        ADD     A,A
        SBC     A,A
        LD      H,A
        RET

; CLAMP: A = the signed word HL clamped to -120..120.
;   CALLED BY: POINTS (article)
;   CALLS:     -
CLAMP:  BIT     7,H
        JR      NZ,.neg
        LD      A,H
        OR      A
        JR      NZ,.max
        LD      A,L
        CP      121
        RET     C
.max:   LD      A,120
        RET
.neg:   LD      A,H
        INC     A
        JR      NZ,.min
        LD      A,L
        CP      88h             ; -120
        RET     NC
.min:   LD      A,-120
        RET

; INC32: add 1 to the 32-bit counter at HL.   clobbers: HL, F
;   CALLED BY: ASPCHK (full), BATTLE, CETRY (full), LUSVAL (full), LZTRY (full),
;              MKMOVE, PHPROBE (full), POINTS, QNODE (full), TTPRB (full),
;              TTSTO (full)
;   CALLS:     -
INC32:  INC     (HL)
        RET     NZ
        INC     HL
        INC     (HL)
        RET     NZ
        INC     HL
        INC     (HL)
        RET     NZ
        INC     HL
        INC     (HL)
        RET


; ---------------------------------------------------------------------------
; CEVAL: 'Q' -> 00 t0[4] t1[4] MTRL BRDC PTSL PTSW1 PTSW2 PTSCK VALM COLOR
; (the side to move, 00h/80h), and in
; the full build then BRKDN[BKSIZE] n (square piece residue)*n.
; The static evaluation of the position as it stands: POINTS as if the side
; not to move had just moved (a dummy last move, no piece just moved) and the
; root were empty (MV0 = BC0 = 0, so the terms are absolute). t0 and t1 are
; the clock port (PCLK) read before PINFND and after POINTS.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CLOCK, FLIP, PINFND, POINTS, PUTB, PUTN, PUTOK, SELPRM (full)
; ---------------------------------------------------------------------------
CEVAL:
        IF      BUILD == B_FULL
        XOR     A               ; no search path (knowledge.asm KDEV2)
        LD      (PATHON),A
        CALL    SELPRM
        LD      A,(COLOR)       ; the engine's side: the side to move
        LD      (KOLOR),A
        LD      A,1
        LD      (EVBRK),A
        LD      HL,0
        LD      (MV0W),HL
        LD      (BC0W),HL
        ENDIF
        XOR     A
        LD      (MV0),A
        LD      (BC0),A
        LD      HL,EVDUM
        LD      B,6
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        LD      HL,(LASTMV)
        PUSH    HL
        LD      HL,EVDUM
        LD      (LASTMV),HL
        CALL    FLIP            ; as if the other side had just moved
        LD      HL,EVT0
        CALL    CLOCK
        CALL    PINFND
        CALL    POINTS
        LD      HL,EVT1
        CALL    CLOCK
        CALL    FLIP
        POP     HL
        LD      (LASTMV),HL
        IF      BUILD == B_FULL
        XOR     A
        LD      (EVBRK),A
        ENDIF
        CALL    PUTOK
        LD      HL,EVT0
        LD      B,8
        CALL    PUTN
        LD      HL,MTRL
        LD      B,6
        CALL    PUTN
        LD      A,(VALM)
        CALL    PUTB
        LD      A,(COLOR)
        CALL    PUTB
        IF      BUILD == B_FULL
        LD      HL,BRKDN
        LD      B,BKSIZE
        CALL    PUTN
        LD      A,(BKNBAT)
        CALL    PUTB
        OR      A
        RET     Z
        LD      B,A
        ADD     A,A
        ADD     A,B
        LD      B,A
        LD      HL,BKBAT
        ENDIF
        ; fall into PUTN (period builds: with B = 0 it sends 256 bytes, so
        ; they return first)
        IF      BUILD != B_FULL
        RET
        ENDIF

; PUTN: send the B bytes at HL (B = 1..255).   clobbers: A, B, HL
;   CALLED BY: CEVAL, PUTPV (full), PUTRP (full)
;   CALLS:     PUTB
PUTN:   LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    PUTN
        RET

; CLOCK: the clock port's T-state counter, low 4 bytes, to HL[0..3].
;   clobbers: A, HL
;   CALLED BY: CEVAL, TICKS (full)
;   CALLS:     -
CLOCK:  IN      A,(PCLK)        ; (latches all six bytes)
        LD      (HL),A
        INC     HL
        IN      A,(PCLK+1)
        LD      (HL),A
        INC     HL
        IN      A,(PCLK+2)
        LD      (HL),A
        INC     HL
        IN      A,(PCLK+3)
        LD      (HL),A
        RET

EVDUM   EQU     STAGE           ; 6  'Q': the dummy last move (STAGE is free
EVT0    EQU     STAGE+8         ; 4       outside a set-up)
EVT1    EQU     STAGE+12        ; 4
