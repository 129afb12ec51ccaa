; ===========================================================================
; battle.asm: BATTLE, POINTS' battle on one square (every build; main.asm
; assembles it after the build's POINTS).
; ===========================================================================

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
