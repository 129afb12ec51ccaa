; ===========================================================================
; points.asm: POINTS, the static evaluation, and its helpers.
;
; POINTS is called after a move has been made: COLOR = the side that just
; moved, LASTMV = its entry. Everything is measured against the root (MV0,
; BC0). For every square of the board:
;   - development (into BRDC, White's view): an unmoved knight or bishop -2 for
;     its side; a castled king +6; a king that moved without castling -2; a
;     rook or queen that moved while MOVENO < 7 -2;
;   - board control: ATTACK, then BRDC += White's attackers - Black's;
;   - a battle: XCHNG on an occupied square gives the owner's loss E. The
;     mover keeps its largest loss (PTSL; PTSCK if it is the piece just
;     moved); the side to move keeps its two largest (PTSW1 >= PTSW2);
;   - material: MTRL += +-value (White's view).
; Then, from the mover's view: it loses its largest loss; the side to move is
; assumed to rescue its largest and loses a part of its second; if the piece
; just moved is the mover's largest loss, the side to move's largest is
; ignored (its second moves up) and board control does not count.
;
;   article (BYTE): values P1 N3 B3 R5 Q9; lost = PTSL; won = 3/4 PTSW2;
;                   material clamped to +-15 pawns, in 1/8 pawns: S = 8M + Bc
;   1978 (book):    values doubled; a threatened piece counts half a pawn less;
;                   lost = PTSL-1; won = (PTSW2-1)/2; M clamped to +-30 half
;                   pawns with the program's 8-bit arithmetic; S = 4M + Bc
;   both: Bc = board control change clamped to +-6; S is White's view;
;   VALM = 80h - S after a White move, 80h + S after a Black one: a higher
;   VALM is better for the side now to move. 0 is reserved for "illegal".
;   full:           the article's pass over the pieces, then (full/points.asm)
;   its rules in signed words, 256 = a pawn, every weight
;   from the parameter block (params.asm): M = sum of P_PAWN..P_QUEEN
;   (change from the root, clamped to +-P_MCLAMP); lost = PTSL * P_XLOST;
;   won = PTSW2 * P_XWON; (M + won - lost) clamped to +-P_SCLAMP; Bc =
;   BRDC * P_BCSQ + development (P_DV...) change, clamped to +-P_BCCLMP.
;   VALMW = -S after a White move, +S after a Black one, and each term is
;   left in BRKDN (vars.asm). The entry's score byte (SORTM's key) is
;   VALMW/32 + 80h kept within 1..255: with the default block exactly the
;   article's VALM, so the two builds order and choose alike.
;
; cost: one ATTACK per square (64) plus an XCHNG per occupied square.
; ===========================================================================

; POINTS: out: A = VALM, also stored in the score byte of LASTMV's entry.
;   clobbers: all but IX
;   CALLED BY: CEVAL, EVAL, FNDMOV, QLEAF (full), QNODE (full), SRCH
;   CALLS:     ATTACK, BATTLE, BCNOW (full), CLAMP (article), CLAMPW (full),
;              DEVEL, DSHIFT (full), INC32, KNOW (full), KPEND (full),
;              LIMIT (article+1978), LUSPRE (full), LZHOOK (full),
;              MULAW (full), NEGHL (full), PATK (article+full),
;              SEXT (article)
POINTS: LD      HL,NEVAL
        CALL    INC32
        XOR     A
        LD      HL,MTRL         ; MTRL BRDC PTSL PTSW1 PTSW2 PTSCK
        LD      B,6
.clr:   LD      (HL),A
        INC     HL
        DJNZ    .clr
        IF      BUILD == B_FULL
        LD      (BKNBAT),A
        LD      H,A
        LD      L,A
        LD      (MTRLW),HL
        LD      (DEVW),HL
        CALL    LUSPRE          ; luscher.asm: Lüscher's endings are scored
        JP      C,.lus          ; by the module alone
        ENDIF
        IF      BUILD == B_1978
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
        ELSE
        ; The article build: one pass over the pieces marks every piece they
        ; attack in ATKMAP and counts the squares they attack (board control,
        ; with the same x-rays and pins as ATTACK), and adds up the material
        ; and development; then ATTACK and XCHNG only where a piece stands
        ; attacked by the enemy (elsewhere XCHNG's residue is 0 anyway). The
        ; second pass clears every ATKMAP byte it finds set, so the map starts
        ; clean next time (marks are only ever made on occupied squares).
        LD      C,SQ_A1-1
.pa:    INC     C
        LD      H,BPAGE
        LD      L,C
.pa1:   LD      A,(HL)
        OR      A
        JR      NZ,.pa2
        INC     L               ; an empty square: 27 T
        JR      .pa1
.pa2:   LD      C,L
        CP      OFFB
        JR      NZ,.piece
        LD      A,C
        CP      SQ_H8
        JR      C,.pa
        JR      .pb0
.piece: LD      D,A
        AND     7
        CP      PAWN
        LD      A,D
        CALL    NZ,DEVEL
        CALL    PATK
        JR      .pa
.pb0:
        IF      BUILD == B_FULL
        LD      A,(P_FLAGS2)    ; lazy evaluation (full/lazy.asm) may end
        AND     F2_LAZY         ; POINTS here
        CALL    NZ,LZHOOK
        ENDIF
        LD      HL,ATKMAP+SQ_A1-1
.pb:    INC     L
        LD      A,(HL)
        OR      A
        JR      Z,.pb           ; 27 T a square nobody attacks
        LD      B,A             ; B = the attackers' nibbles
        LD      A,L
        CP      (ATKMAP+SQ_H8+1) & 0FFh
        JR      NC,.pend        ; the sentinel after h8's byte: the end
        LD      (HL),0
        RES     7,L
        LD      C,L
        LD      D,(HL)          ; D = the piece
        LD      A,B
        BIT     7,D
        JR      NZ,.bp
        AND     0F0h            ; a white piece: Black's attackers
        JR      .bt
.bp:    AND     0Fh             ; a black piece: White's
.bt:    JR      Z,.nb
        CALL    ATTACK
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        CALL    BATTLE
.nb:    LD      H,BPAGE
        LD      L,C
        SET     7,L
        JR      .pb
.pend:
        IF      BUILD == B_FULL
        CALL    KNOW            ; the knowledge terms (knowledge.asm), added
.fk:    PUSH    HL              ; last (full/points.asm); LZHOOK joins here
        ENDIF
        ENDIF
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
        IF      BUILD == B_FULL
        INCLUDE "full/points.asm" ; POINTS goes on there: the full build's scoring
        ELSE
        IF      BUILD == B_1978
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
        ELSE      ; the article build
        LD      A,(MTRL)        ; M = material change, clamped to +-15 pawns
        LD      HL,MV0
        SUB     (HL)
        LD      B,15
        CALL    LIMIT
        CALL    SEXT
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,HL           ; 8M
        PUSH    HL
        LD      A,(PTSL)        ; 8 * lost
        ADD     A,A
        ADD     A,A
        ADD     A,A
        LD      B,A
        LD      A,(PTSW1)       ; 6 * PTSW2 = 3/4 of it, in 1/8 pawns
        OR      A
        JR      Z,.a1
        LD      A,(PTSW2)
        ADD     A,A
        LD      C,A
        ADD     A,A
        ADD     A,C
.a1:    SUB     B               ; the mover's gain ...
        LD      B,A
        LD      A,(COLOR)
        OR      A
        LD      A,B
        JR      Z,.a2
        NEG                     ; ... in White's view
.a2:    CALL    SEXT
        EX      DE,HL
        POP     HL
        ADD     HL,DE
        CALL    CLAMP
        LD      D,A
        ENDIF
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
        ENDIF      ; BUILD == B_FULL

; BATTLE: the battle on square C, whose attackers are in ATKLST: XCHNG for
; the piece A there, the loss kept as the mover's (PTSL, PTSCK) or the side to
; move's (PTSW1, PTSW2); in the 1978 build also its material (MTRL), which
; counts half a pawn less when it is threatened.
;   in: A = the piece, C = its square   keeps: C   clobbers: all but IX, C
;   CALLED BY: LZTRY (full), POINTS
;   CALLS:     BKADD (full), INC32, XCHNG
BATTLE: LD      D,A             ; D = the piece
        PUSH    BC
        PUSH    DE
        LD      HL,NXCHG
        CALL    INC32
        LD      A,D
        CALL    XCHNG
        LD      A,E
        EXX
        POP     DE
        POP     BC
        LD      E,A             ; E = its owner's loss
        IF      BUILD == B_FULL
        LD      A,(EVBRK)
        OR      A
        CALL    NZ,BKADD
        ENDIF
        IF      BUILD == B_1978
        LD      A,D
        AND     7
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      A,(HL)
        ADD     A,A
        LD      B,A             ; B = its material value, half pawns
        LD      A,E
        OR      A
        JR      Z,.mat
        DEC     B               ; threatened: half a pawn less
        ELSE
        LD      A,E
        OR      A
        RET     Z
        ENDIF
        LD      A,(COLOR)
        XOR     D
        JP      M,.them
        LD      A,(PTSL)        ; the mover's loss: the largest (ties: later)
        CP      E
        JR      Z,.l1
        JR      NC,.mat
.l1:    LD      A,E
        LD      (PTSL),A
        LD      HL,(LASTMV)     ; the piece just moved?
        INC     HL
        INC     HL
        INC     HL
        LD      A,(HL)
        CP      C
        JR      NZ,.mat
        LD      (PTSCK),A
        JR      .mat
.them:  LD      A,(PTSW1)       ; the side to move's: the two largest
        CP      E
        JR      NC,.w2
        LD      (PTSW2),A
        LD      A,E
        LD      (PTSW1),A
        JR      .mat
.w2:    LD      A,(PTSW2)
        CP      E
        JR      NC,.mat
        LD      A,E
        LD      (PTSW2),A
.mat:
        IF      BUILD == B_1978
        LD      A,B
        BIT     7,D
        JR      Z,.mw
        NEG
.mw:    LD      HL,MTRL
        ADD     A,(HL)
        LD      (HL),A
        ENDIF
        RET

        IF      BUILD != B_1978     ; article and full
ATKMAP  EQU     BOARD+80h
; ATKMAP: in the board page, above the board: square s's byte is at
; BOARD+80h+s. Low nibble: White's attackers of s; high nibble: Black's.
;
;       bit 7 .. 4          bit 3 .. 0
;     [ Black attackers | White attackers ]

; PATK: mark in ATKMAP the pieces that the piece D on square C attacks, and
; add the number of squares it attacks to BRDC (+ White, - Black): a pawn's two
; captures, a knight's or king's steps, a slider's lines up to and including
; the first piece, and on through pieces of its own colour that move along the
; line (a queen, a rook on a rank or file, a bishop on a diagonal; an own pawn
; lets it reach the square that pawn attacks, no further); nothing behind a
; king or a knight. A pinned piece attacks only along its pin line (as PNCK
; decides for ATTACK). Board control counts every square, ATKMAP only the
; occupied ones (the second pass looks only at pieces).
;   in: C = square, D = piece   keeps: C, D   clobbers: A, B, E, HL, IY
;   CALLED BY: POINTS
;   CALLS:     NEGHL (full), PCAP2, PINDIR, PMARK, SLIDES
PATK:   LD      E,0             ; E = squares attacked
        LD      B,E             ; B = the pin line (0 = free)
        LD      A,(NPINS)
        OR      A
        JR      NZ,.pins
        LD      A,D             ; no pins: a pawn's captures, quickly
        AND     7
        CP      PAWN
        JR      NZ,.gen
        LD      H,BPAGE
        LD      A,C
        ADD     A,9             ; White: +9, then +11
        BIT     7,D
        JR      Z,.fp
        SUB     20              ; Black: -11, then -9
.fp:    LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,.fp2
        INC     E
        OR      A
        CALL    NZ,PMARK
.fp2:   INC     L               ; two squares on
        INC     L
        LD      A,(HL)
        CP      OFFB
        JR      Z,.ptail
        INC     E
        OR      A
        CALL    NZ,PMARK
.ptail:
        IF      BUILD == B_FULL
        JP      PDONE
        ENDIF
        LD      HL,MTRL         ; a pawn: MTRL += +-1, BRDC += +-squares
        BIT     7,D
        JR      NZ,.pbl
        INC     (HL)
        INC     L
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        RET
.pbl:   DEC     (HL)
        INC     L
        LD      A,(HL)
        SUB     E
        LD      (HL),A
        RET
.pins:  CALL    PINDIR
.gen:   LD      H,BPAGE
        LD      A,D
        AND     7
        CP      PAWN
        JP      Z,.pawn
        CP      KNIGHT
        JR      Z,.kn
        CP      KING
        JP      Z,.kg
        CP      ROOK
        JR      Z,.rk
        LD      IY,PBDIRS       ; bishop, queen: the diagonals
        CALL    SLIDES
        LD      A,D
        AND     7
        CP      QUEEN
        JP      NZ,PDONE
.rk:    LD      IY,PRDIRS       ; rook, queen: the lines
        CALL    SLIDES
        JP      PDONE
.kn:    LD      A,B             ; a pinned knight attacks nothing
        OR      A
        JP      NZ,PDONE
        LD      A,C
        ADD     A,-21
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-19
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-12
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-8
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,8
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,12
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,19
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,21
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        JP      PDONE
.kg:                            ; (a king is never pinned)
        LD      A,C
        ADD     A,-11
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-10
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-9
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,-1
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,1
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,9
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,10
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        LD      A,C
        ADD     A,11
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,$+7
        INC     E
        OR      A
        CALL    NZ,PMARK
        JP      PDONE
.pawn:  LD      A,9             ; White: +9 and +11, Black: -9 and -11
        BIT     7,D
        JR      Z,.p1
        LD      A,-9
.p1:    CALL    PCAP2
        LD      A,11
        BIT     7,D
        JR      Z,.p2
        LD      A,-11
.p2:    CALL    PCAP2
PDONE:  LD      A,D             ; MTRL += +-value, BRDC += +-squares
        AND     7
        IF      BUILD == B_FULL
        CP      KING            ; (full: MTRLW += +-P_value; kings cancel)
        JR      Z,.bc
        ADD     A,A
        LD      L,A
        LD      H,PRM >> 8
        LD      A,(HL)
        INC     L
        LD      H,(HL)
        LD      L,A
        BIT     7,D
        CALL    NZ,NEGHL
        PUSH    DE
        EX      DE,HL
        LD      HL,(MTRLW)
        ADD     HL,DE
        LD      (MTRLW),HL
        POP     DE
.bc:    LD      HL,BRDC
        LD      A,E
        BIT     7,D
        JR      Z,.bw
        NEG
.bw:    ADD     A,(HL)
        LD      (HL),A
        RET
        ASSERT  (PRM & 0FFh) == 0, "PRM must be page aligned"
        ENDIF
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      B,(HL)
        LD      HL,MTRL         ; (BRDC follows MTRL)
        BIT     7,D
        JR      NZ,.blk
        LD      A,(HL)
        ADD     A,B
        LD      (HL),A
        INC     L
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        RET
.blk:   LD      A,(HL)
        SUB     B
        LD      (HL),A
        INC     L
        LD      A,(HL)
        SUB     E
        LD      (HL),A
        RET

; PCAP2: a pawn's capture square C+A, if its pin allows (for PATK).
;   CALLED BY: PATK
;   CALLS:     ONLINE, PMARK
PCAP2:  CALL    ONLINE
        RET     NZ
        ADD     A,C
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        RET     Z
        INC     E
        OR      A
        RET     Z
        JP      PMARK

; The slider directions for PATK, each with the piece that moves along it,
; ending with 0.
PBDIRS: DB      9,BISHOP,11,BISHOP,-11,BISHOP,-9,BISHOP,0
PRDIRS: DB      10,ROOK,-10,ROOK,1,ROOK,-1,ROOK,0

; SLIDES: the lines of the slider D on square C in the directions at IY.
;   in: B = its pin line, E = squares counted so far, H = BPAGE   out: E
;   keeps: B, C, D, H   clobbers: A, L, IY   cost: 46 T an empty square
;   CALLED BY: PATK
;   CALLS:     ONLINE, PMARK
SLIDES: LD      A,(IY+0)
        OR      A
        RET     Z
        INC     B
        DEC     B
        CALL    NZ,ONLINE       ; pinned: only along the pin
        JR      NZ,.nx
        PUSH    BC
        LD      B,A             ; B = the step
        LD      L,C
.step:  LD      A,L
        ADD     A,B
        LD      L,A
        LD      A,(HL)
        OR      A
        JR      NZ,.hit
        INC     E
        JR      .step
.hit:   CP      OFFB
        JR      Z,.end
        INC     E
        CALL    PMARK
        XOR     D
        JP      M,.end          ; an enemy piece ends the line
        XOR     D
        AND     7
        CP      QUEEN           ; an own queen, or a piece of the line's kind:
        JR      Z,.step         ; on through it
        CP      (IY+1)
        JR      Z,.step
        CP      PAWN            ; an own pawn: the square it attacks, if the
        JR      NZ,.end         ; line runs the way it captures
        LD      A,(IY+1)
        CP      BISHOP
        JR      NZ,.end
        LD      A,B
        XOR     D
        JP      M,.end          ; White captures upwards (+9/+11), Black down
        LD      A,L
        ADD     A,B
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        JR      Z,.end
        INC     E
        OR      A
        CALL    NZ,PMARK
.end:   POP     BC
.nx:    INC     IY
        INC     IY
        JR      SLIDES

; PMARK: the piece on square L is attacked by the side of D: its ATKMAP byte
; (H = BPAGE).   keeps: all but F
;   CALLED BY: PATK, PCAP2, SLIDES
;   CALLS:     -
PMARK:  PUSH    AF
        SET     7,L
        LD      A,1
        BIT     7,D
        JR      Z,.w
        LD      A,10h
.w:     ADD     A,(HL)
        LD      (HL),A
        RES     7,L
        POP     AF
        RET

; PINDIR: B = the pin line of the piece on square C (0 = not pinned).
;   clobbers: A, HL
;   CALLED BY: PATK
;   CALLS:     -
PINDIR: PUSH    DE
        LD      A,(NPINS)
        LD      E,A
        LD      HL,PLIST
.f:     LD      A,(HL)
        CP      C
        JR      Z,.y
        INC     L
        DEC     E
        JR      NZ,.f
        POP     DE
        RET
.y:     LD      A,L
        ADD     A,PLISTD-PLIST
        LD      L,A
        LD      B,(HL)
        POP     DE
        RET

; ONLINE: may the piece with pin line B attack in direction A?
;   out: Z = yes (not pinned, or along the line either way)   keeps: A, BC
;   CALLED BY: PCAP2, SLIDES
;   CALLS:     -
ONLINE: INC     B
        DEC     B
        RET     Z
        CP      B
        RET     Z
        PUSH    BC
        LD      C,A
        LD      A,B
        NEG
        CP      C
        LD      A,C
        POP     BC
        RET
        ENDIF

; DEVEL: add the development term of piece A to BRDC (White's view; the
; full build: to DEVW, in words from the parameter block).
;   clobbers: A, B, HL
;   CALLED BY: POINTS
;   CALLS:     NEGHL (full)
DEVEL:  LD      B,A
        AND     7
        CP      KNIGHT
        JR      Z,.minor
        CP      BISHOP
        JR      Z,.minor
        CP      KING
        JR      Z,.king
        CP      ROOK
        JR      Z,.major
        CP      QUEEN
        RET     NZ
.major: BIT     3,B             ; moved early
        RET     Z
        IF      BUILD == B_FULL
        LD      A,(P_DVMNO)
        LD      HL,MOVENO
        CP      (HL)
        RET     C
        RET     Z
        LD      HL,(P_DVMAJ)
        JR      .addw
.minor: BIT     3,B             ; not developed
        RET     NZ
        LD      HL,(P_DVMIN)
        JR      .addw
.king:  LD      HL,(P_DVCAS)
        BIT     4,B             ; castled
        JR      NZ,.addw
        BIT     3,B             ; moved without castling
        RET     Z
        LD      HL,(P_DVKMV)
.addw:  BIT     7,B             ; DEVW += +-weight
        CALL    NZ,NEGHL
        PUSH    DE
        EX      DE,HL
        LD      HL,(DEVW)
        ADD     HL,DE
        LD      (DEVW),HL
        POP     DE
        RET
        ELSE
        LD      A,(MOVENO)
        CP      7
        RET     NC
        LD      A,-2
        JR      .add
.minor: BIT     3,B             ; not developed
        RET     NZ
        LD      A,-2
        JR      .add
.king:  LD      A,6
        BIT     4,B             ; castled
        JR      NZ,.add
        BIT     3,B             ; moved without castling
        RET     Z
        LD      A,-2
        ENDIF
.add:   BIT     7,B
        JR      Z,.w
        NEG
.w:     LD      HL,BRDC
        ADD     A,(HL)
        LD      (HL),A
        RET

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
