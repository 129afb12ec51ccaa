; ===========================================================================
; xchng.asm: XCHNG and NEXTAD, the exchange evaluator of the Spracklens'
; BYTE article (Listing 1), in Zilog mnemonics, with its register maps:
;
;   during XCHNG (Table 2)              during NEXTAD (Table 3)
;   BC  defender count|attacker count   BC  attacker count|defender count
;   DE  attacker section address        DE  defender section address
;   HL  defender section address        HL  attacker section address
;   AF' the defender's value (and Z)
;   B'  points at stake (the piece on the square)
;   C'  side parity (bit 0: 1 = the original defender's turn)
;   E'  the exchange residue
;   L'  the capturer's value
;
; NEXTAD alternates sides on every call (it swaps the counts and the section
; pointers), so calls go attacker, defender, attacker, ...; each section is
; used cheapest first: its bytes in order, in each byte the low nibble first
; (RRD moves the high one down for the next call).
;
; The 1978 build doubles every value (half-pawn units), as the published
; program does; the article's listing does not.
; ===========================================================================

; XCHNG: the exchange residue of the battle on a square whose attackers and
; defenders are in ATKLST (which it consumes).
;   in: A = the piece on the square (bit 7 colour, bits 2-0 type)
;   out: E' (E in the set that is current on return) = the points the piece's
;        owner loses, 0 <= residue <= its value; the register sets are
;        swapped: `LD A,E` then `EXX` gives the residue and the caller's
;        BC, DE, HL back.
;   clobbers: AF, AF', BC, DE, HL of both sets
;   CALLED BY: BATTLE, CXARR, CXCHG
;   CALLS:     NEXTAD
XCHNG:  LD      B,A
        AND     7
        ADD     A,PVALUE & 0FFh
        LD      L,A
        LD      H,PVALUE >> 8
        LD      A,(HL)          ; the points at stake
        IF      BUILD == B_1978
        ADD     A,A
        ENDIF
        EX      AF,AF'
        LD      HL,WACT         ; HL = the defender's section,
        LD      DE,BACT         ; DE = the attacker's
        BIT     7,B
        JR      Z,.xc5
        EX      DE,HL
.xc5:   LD      B,(HL)          ; B = defenders
        LD      A,(DE)
        LD      C,A             ; C = attackers
        EXX
        EX      AF,AF'
        LD      B,A             ; B' = points at stake
        LD      C,0             ; C' = side parity
        LD      E,C             ; E' = residue
        CALL    NEXTAD          ; the first capturer
.xc10:  RET     Z               ; none (left): done
        LD      L,A             ; L' = the capturer's value
        CALL    NEXTAD          ; a recapturer?
        JR      Z,.xc18         ; none: the piece is lost
        EX      AF,AF'
        LD      A,B
        CP      L
        JR      NC,.xc19        ; the capturer is worth no more than its prey
        EX      AF,AF'
.xc15:  CP      L               ; recapturer worth less than the capturer:
        RET     C               ; the capture does not pay, stop
        CALL    NEXTAD          ; another capturer to back it up?
        RET     Z
        LD      L,A
        CALL    NEXTAD          ; and another recapturer?
        JR      NZ,.xc15
.xc18:  EX      AF,AF'          ; keep Z: no more recapturers
.xc19:  LD      A,B             ; the points at stake, lost by the defender ...
        BIT     0,C
        JR      Z,.xc20
        NEG                     ; ... or won back on its turns
.xc20:  ADD     A,E
        LD      E,A             ; the residue so far
        EX      AF,AF'
        RET     Z               ; nobody left to recapture
        LD      B,L             ; the capturer now stands on the square
        JP      .xc10           ; and the roles turn

; NEXTAD: the next piece of the side whose turn it is.
;   out: A = its value and NZ; A = 0 and Z when that side has none left
;   CALLED BY: XCHNG
;   CALLS:     -
NEXTAD: INC     C               ; the side parity
        EXX
        LD      A,B             ; swap the counts ...
        LD      B,C
        LD      C,A
        EX      DE,HL           ; ... and the section pointers
        XOR     A
        CP      B
        JR      Z,.nx6          ; none left
        DEC     B
.nx5:   INC     HL              ; the next byte holding a piece
        CP      (HL)
        JR      Z,.nx5
        RRD                     ; A = its low nibble; the high one moves down
        DEC     HL              ; look at this byte again next time
        IF      BUILD == B_1978
        ADD     A,A
        ENDIF
.nx6:   EXX
        RET

; ---------------------------------------------------------------------------
; Commands that expose the evaluator to the host.
; ---------------------------------------------------------------------------

; CATTK: 'A' sq -> 00 ATKLST[14]: PINFND, then ATTACK on the square.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     ATTACK, GETSQ, PINFND, PUTATK, PUTOK
CATTK:  CALL    GETSQ
        PUSH    BC
        CALL    PINFND
        POP     BC
        CALL    ATTACK
        CALL    PUTOK
        JP      PUTATK

; CXCHG: 'X' sq -> 00 ATKLST[14] residue: as 'A', then XCHNG on the piece
; there (residue 0 on an empty square).
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     ATTACK, GETSQ, PINFND, PUTATK, PUTB, PUTOK, XCHNG
CXCHG:  CALL    GETSQ
        PUSH    BC
        CALL    PINFND
        POP     BC
        CALL    ATTACK
        CALL    PUTOK
        CALL    PUTATK
        LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        OR      A
        JP      Z,PUTB
        CALL    XCHNG
        LD      A,E
        EXX
        JP      PUTB

; CXARR: 'Y' piece a[14] -> 00 residue: XCHNG on a given array.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     GETB, PUTB, PUTOK, XCHNG
CXARR:  CALL    GETB
        LD      C,A
        LD      HL,ATKLST
        LD      B,14
.rd:    CALL    GETB
        LD      (HL),A
        INC     HL
        DJNZ    .rd
        CALL    PUTOK
        LD      A,C
        CALL    XCHNG
        LD      A,E
        EXX
        JP      PUTB

; GETSQ: C = a square from the host, which must be on the board.
;   CALLED BY: CATTK, CXCHG
;   CALLS:     CMDERR, GETB
GETSQ:  CALL    GETB
        LD      C,A
        CP      SQ_A1
        JR      C,.bad
        CP      SQ_H8+1
        JR      NC,.bad
        LD      H,BPAGE
        LD      L,A
        LD      A,(HL)
        CP      OFFB
        RET     NZ
.bad:   LD      A,ESQUARE
        JP      CMDERR

; PUTATK: send the 14 bytes of ATKLST.
;   CALLED BY: CATTK, CXCHG
;   CALLS:     PUTB
PUTATK: LD      HL,ATKLST
        LD      B,14
.b:     LD      A,(HL)
        CALL    PUTB
        INC     HL
        DJNZ    .b
        RET
