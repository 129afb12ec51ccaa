; ===========================================================================
; pawnhash.asm (full build only): the pawn-structure hash of the knowledge (the
; seed's "Hash Scoring": "the locations of all pawns on the board are used
; to compute a hash key ... The search updates the hash key dynamically when
; moving, capturing, or promoting pawns"): KNOW's pawn work is done once per
; pawn structure and then copied back.
; Switched by P_FLAGS bit 6; it changes no score and no tree, only T-states
; (tests/full_build/pawn_hash.rs searches with it on and off and compares).
;
; KEY: PKEY, 32 bits, the XOR of a key per pawn (colour, square): updated
; incrementally by MOVE and UNMOVE (PKMOVE: the same XORs undo a move) and
; recomputed from the board by PKSET whenever a search or an evaluation
; starts (SELPRM), so set-up, new game and take-back need no care. The keys
; are those of ZOBT for an unmoved pawn (craft.asm), copied at reset by
; PZINIT into four pages PZP..PZP+3 (byte k of the key in page PZP + k) at
; offset = the board index (White, 21..98) or the board index + 100 (Black),
; so a square's key is read without a multiplication or a page switch.
;
; WHAT AN ENTRY HOLDS (PHLEN = 124 bytes in a 128-byte slot):
;   +0      1 used (0 = empty)
;   +1..4   the probe key: PKEY XOR a constant for each of the three things
;           besides the pawns that KNOW's pawn work reads: White's isolated
;           passed pawns scored (Black's pieces <= P_KPHASE), Black's, and
;           P_FLAGS bit 7 (artificially isolated pawns) on (the weights are
;           not read: the entry holds counts)
;   +5      KV+00h..29h  White's pawn tables (count, rearmost, most advanced
;                        by file; its pawns, by square colour; K_OUTP)
;   +47     KV+40h..69h  Black's
;   +89     KV+C0h..E2h  both sides' passed pawns by file (KPASSR), the pawn
;                        counters (PCNT: doubled .. centre, White minus
;                        Black) and the rams (KRAMS)
; TABLE: PHTAB, 32 slots of 128 bytes (D000h-DFFFh), direct-mapped by the
; probe key's low 5 bits; a miss overwrites the slot. Cleared (PHCLR) with
; the transposition table: reset, new game, set-up, parameter write.
; COUNTERS: PHPRB probes, PHHIT hits (32 bits each, cleared by PHCLR).
;
; COST (profile of the bench's dragon at level 3): a hit about 2,400 T (the
; copy 2,040) instead of about 10,000 T of pawn entries and KSIDEP's file
; loops; a miss about 6,000 T more than the hash off (PSCAN's second pass
; over the board, the store); PKMOVE in MOVE and UNMOVE about 90 T each when
; no pawn moves or is taken, 184 T on average.
; ===========================================================================

PHTAB   EQU     0D000h          ; 32 x 128 bytes, to DFFFh
PHSLOTS EQU     32
PHLEN   EQU     102
PHSIDE  EQU     K_OUTP+1        ; a side's bytes 00h..1Eh (K_HI is KSIDEP's only)
PZP     EQU     0F8h            ; the key pages F800h-FBFFh
PHVARS  EQU     0CE00h
PKEY    EQU     PHVARS+00h      ; 4  the pawns' key (byte 0 first)
PHK     EQU     PHVARS+04h      ; 4  the probe key (page-safe: PHVARS+04h..07h)
PHPTR   EQU     PHVARS+08h      ; 2  the probed slot
PHSKIP  EQU     PHVARS+0Ah      ; 1  KNOW: the board scan leaves the pawns
PHPRB   EQU     PHVARS+0Ch      ; 4  probes
PHHIT   EQU     PHVARS+10h      ; 4  hits
PF_PH   EQU     40h             ; P_FLAGS bit 6
PF_AISO EQU     80h             ; P_FLAGS bit 7 (knowledge.asm KAISO)

; PZINIT: the key pages from ZOBT (expansion ROM page 3). At reset.
;   clobbers: A, BC, DE, HL   keeps the page
;   CALLED BY: START
;   CALLS:     -
PZINIT: IN      A,(PPAGE)
        PUSH    AF
        LD      A,PAGEOF(ZOBT)
        OUT     (PPAGE),A
        LD      HL,ZOBT+100h    ; an unmoved white pawn (code 1)
        LD      C,0
        CALL    .side
        LD      HL,ZOBT+2100h   ; a black one (code 21h)
        LD      C,100
        CALL    .side
        POP     AF
        OUT     (PPAGE),A
        RET
.side:  LD      A,21            ; a1
        ADD     A,C
        LD      E,A             ; E = the offset of a1
        LD      B,8
.r:     PUSH    BC
        LD      B,8
.f:     LD      D,PZP
        LD      C,4
.k:     LD      A,(HL)          ; the 4 bytes of square n (HL = page + 4n)
        LD      (DE),A
        INC     HL
        INC     D
        DEC     C
        JR      NZ,.k
        INC     E
        DJNZ    .f
        INC     E               ; past the border
        INC     E
        POP     BC
        DJNZ    .r
        RET

; PHCLR: empty the table, zero the counters.   clobbers: A, B, DE, HL
;   CALLED BY: TTCLR
;   CALLS:     -
PHCLR:  LD      HL,PHTAB
        LD      DE,128
        LD      B,PHSLOTS
        XOR     A
.c:     LD      (HL),A
        ADD     HL,DE
        DJNZ    .c
        LD      HL,PHPRB
        LD      B,8
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        RET

; PKX: PKEY ^= the key at offset L of the key pages.
;   clobbers: A, H   cost: 151 T (with the CALL 168)
;   CALLED BY: PKMOVE, PKSET
;   CALLS:     -
PKX:    LD      H,PZP
        LD      A,(PKEY)
        XOR     (HL)
        LD      (PKEY),A
        INC     H
        LD      A,(PKEY+1)
        XOR     (HL)
        LD      (PKEY+1),A
        INC     H
        LD      A,(PKEY+2)
        XOR     (HL)
        LD      (PKEY+2),A
        INC     H
        LD      A,(PKEY+3)
        XOR     (HL)
        LD      (PKEY+3),A
        RET

; PKSET: PKEY from the board.   clobbers: A, BC, DE, HL   cost: about 4,500 T
;   CALLED BY: SELPRM
;   CALLS:     PKX
PKSET:  LD      HL,0
        LD      (PKEY),HL
        LD      (PKEY+2),HL
        LD      DE,BOARD+21     ; a1
        LD      C,8
.r:     LD      B,8
.f:     LD      A,(DE)
        AND     87h
        CP      PAWN
        JR      Z,.w
        CP      BLACK+PAWN
        JR      NZ,.n
        LD      A,E
        ADD     A,100
        JR      .x
.w:     LD      A,E
.x:     LD      L,A
        CALL    PKX
.n:     INC     E
        DJNZ    .f
        INC     E
        INC     E
        DEC     C
        JR      NZ,.r
        RET

; PKMOVE: the pawns' part of the move-list entry being made or taken back
; into PKEY (the same XORs both ways). MOVE calls it with D = the moving
; piece, UNMOVE with D = the piece on the to-square (a promoted piece: flags
; bit 5 says a pawn moved).
;   in: B = flags, C = from, E = to, D as above
;   keeps: BC, DE, HL   clobbers: A   cost: about 90 T when no pawn is
;   involved, 420 T a pawn's step, 250 T a pawn taken
;   CALLED BY: MOVE, UNMOVE
;   CALLS:     PKX
PKMOVE: BIT     5,B             ; a promotion: a pawn left 'from'
        JR      NZ,.pawn
        LD      A,D
        AND     7
        CP      PAWN
        JR      Z,.pawn
.cap:   LD      A,B             ; a pawn taken?
        AND     7
        CP      PAWN
        RET     NZ
        BIT     5,B             ; (flags 7..6 of a promotion are its piece)
        RET     NZ
        PUSH    HL
        LD      A,E
        BIT     6,B             ; en passant: the pawn stands behind 'to'
        JR      Z,.c1
        SUB     10
        BIT     7,D
        JR      Z,.c1
        ADD     A,20
.c1:    BIT     7,D             ; the enemy's colour
        JR      NZ,.c2
        ADD     A,100
.c2:    LD      L,A
        CALL    PKX
        POP     HL
        RET
.pawn:  PUSH    HL
        LD      A,C
        BIT     7,D
        JR      Z,.p1
        ADD     A,100
.p1:    LD      L,A
        CALL    PKX
        BIT     5,B             ; promoted: no pawn on 'to'
        JR      NZ,.p3
        LD      A,E
        BIT     7,D
        JR      Z,.p2
        ADD     A,100
.p2:    LD      L,A
        CALL    PKX
.p3:    POP     HL
        JR      .cap

; PHPROBE: after KNOW's board scan (K_MAT known): the probe key, the slot;
; on a hit the tables, KPASSR, PCNT and KRAMS are copied back.
;   out: carry = hit   clobbers: A, BC, DE, HL
;   CALLED BY: KNOW
;   CALLS:     INC32, KPHASE
PHPROBE:
        LD      HL,PHPRB
        CALL    INC32
        LD      HL,PKEY
        LD      DE,PHK
        LD      BC,4
        LDIR
        LD      C,0             ; White's isolated passed pawns: Black's
        CALL    KPHASE          ; pieces at most P_KPHASE
        LD      BC,3A5Ch
        CALL    NC,.mix
        LD      C,40h           ; Black's
        CALL    KPHASE
        LD      BC,0C693h
        CALL    NC,.mix
        LD      A,(P_FLAGS)
        AND     PF_AISO
        LD      BC,71E4h
        CALL    NZ,.mix
        LD      A,(PHK)         ; the slot: PHTAB + 128 * (bits 0-4)
        AND     PHSLOTS-1
        LD      L,0
        SRL     A
        RR      L
        ADD     A,PHTAB >> 8
        LD      H,A
        LD      (PHPTR),HL
        LD      A,(HL)
        OR      A
        RET     Z               ; empty (no carry)
        INC     L
        LD      DE,PHK
        LD      B,4
.c:     LD      A,(DE)
        CP      (HL)
        JR      NZ,.miss
        INC     E
        INC     L
        DJNZ    .c
        LD      DE,KV           ; a hit: HL = slot + 5
        LD      BC,PHSIDE
        LDIR
        LD      E,40h
        LD      C,PHSIDE
        LDIR
        LD      E,0C0h
        LD      C,0E3h-0C0h
        LDIR
        LD      HL,PHHIT
        CALL    INC32
        SCF
        RET
.miss:  OR      A
        RET
.mix:   LD      A,(PHK)         ; PHK bytes 0 and 2 ^= C, B
        XOR     C
        LD      (PHK),A
        LD      A,(PHK+2)
        XOR     B
        LD      (PHK+2),A
        RET

; PHSTORE: the pawn work just done into the slot PHPROBE chose.
;   clobbers: A, BC, DE, HL
;   CALLED BY: KNOW
;   CALLS:     -
PHSTORE:
        LD      HL,(PHPTR)
        LD      (HL),1
        INC     L
        EX      DE,HL
        LD      HL,PHK
        LD      BC,4
        LDIR
        LD      HL,KV
        LD      C,PHSIDE
        LDIR
        LD      L,40h
        LD      C,PHSIDE
        LDIR
        LD      L,0C0h
        LD      C,0E3h-0C0h
        LDIR
        RET

        ASSERT  5 + 2 * PHSIDE + (0E3h - 0C0h) == PHLEN, "PHLEN is the entry's size"
        ASSERT  PHLEN <= 128, "an entry fits its 128-byte slot"
        ASSERT  (PHK & 0FFh) <= 0FCh, "PHPROBE steps through PHK with INC E"
