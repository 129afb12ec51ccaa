; ===========================================================================
; full/order.asm (full build only): cheap interior ordering
; (P_FLAGS2 bit 1 F2_ORDER). Below the root, SRCH orders a node's moves
; without evaluating them (SORTM makes, scores and unmakes every move: one
; POINTS per move, ~136,000 T each); only the leaves are evaluated. The root
; keeps SORTM's static order (and TMFRONT's last best first); the table's
; move still goes first after this order (craft.asm TTFRONT).
;
; A move's key is a word, the larger first:
;   a capture or a promotion  8000h + 16 * (victim's value + promotion's gain)
;                             + (15 - the mover's value): MVV/LVA, values
;                             P1 N3 B3 R5 Q9 K10, gains Q8 R4 B2 N1
;   the ply's first killer    6000h  (quiet moves that cut off at this ply,
;   ... its second killer     5000h   from-to, the newest first)
;   any other move            its history: HIS[mover][to], 0..3FFFh
; and equal keys go by the from square, then the to square, the larger first
; (intrinsic to the move, so the order does not depend on the list's; with
; GENMOV's a1..h8 order a new entry of an equal key goes in front at once).
; A quiet move that cuts off (SRCH's .cutb) becomes the ply's first killer
; and adds depth^2 to its history (depth = PLYMAX + 1 - ply, at least 1);
; an entry above 3FFFh halves the whole table. Killers and history start
; empty at every search command (ORDCLR); they live across its iterations.
; The history is the mover's (colour and type) and the to square: a from-to
; table (64 x 64 words) does not fit the 2.75 KiB this work has.
; The Rust model is in tests/full_build/ordering.rs.
;
; MEMORY (expansion RAM 6300h-6DFFh):
;   ORDKIL  6300h  16 plies x (killer 1 from, to, killer 2 from, to)
;   ORDV    6340h  ORDER's variables
;   ORDFLG  6380h  the list's flags bytes while ORDER keeps keys in the entries
;   ORDHIS  6500h  12 rows (White P N B R Q K, Black P N B R Q K) x 78 words
;                  (to square a1..h8 as mailbox 21..98)
; The code runs in expansion ROM page 5 (ORDFAR selects it).
; ===========================================================================

ORDKIL  EQU     XRAMLO+300h     ; 64 the killers, 4 bytes a ply (ply AND 15)
ORDBEG  EQU     XRAMLO+340h     ; 2  ORDER: the list's first entry
ORDEND  EQU     XRAMLO+342h     ; 2  ... one past its last
ORDHD   EQU     XRAMLO+344h     ; 2  ... the ordered list's head (a link cell)
ORDBP   EQU     XRAMLO+346h     ; 2  ... the flags buffer's write pointer
ORDFLG  EQU     XRAMLO+380h     ; 384 the flags of up to 384 entries
ORDHIS  EQU     XRAMLO+500h     ; 1872 the history
HROWB   EQU     156             ; bytes a history row: 78 squares (21..98)
ORDTOP  EQU     ORDHIS+12*HROWB
        ASSERT  ORDTOP <= XRAMLO+0E00h, "order.asm outgrew 6300h-6DFFh"
        ASSERT  (ORDKIL & 0FFh) == 0, "ORDKIL must start a page"
KEYK1   EQU     6000h           ; the first killer's key
KEYK2   EQU     5000h           ; the second's
HISMAX  EQU     3FFFh           ; a history entry above this halves the table

        PAGE    5
        ORG     8000h
; The tables, in one page of the window (H fixed).
OVAL:   DB      0,1,3,3,5,9,10,0        ; value by type (empty, P N B R Q K)
PGAIN:  DB      8,4,2,1                 ; promotion's gain: Q R B N (bits 7-6)
ROWTAB: DW      ORDHIS                  ; by type + 8 for Black: row - 42
        DW      ORDHIS+0*HROWB-42,ORDHIS+1*HROWB-42,ORDHIS+2*HROWB-42
        DW      ORDHIS+3*HROWB-42,ORDHIS+4*HROWB-42,ORDHIS+5*HROWB-42
        DW      ORDHIS,ORDHIS
        DW      ORDHIS+6*HROWB-42,ORDHIS+7*HROWB-42,ORDHIS+8*HROWB-42
        DW      ORDHIS+9*HROWB-42,ORDHIS+10*HROWB-42,ORDHIS+11*HROWB-42
        DW      ORDHIS
        ASSERT  (ROWTAB+32) >> 8 == OVAL >> 8, "order.asm's tables cross a page"

; ORDER: link the entries of the list [HL, DE) by descending key (above),
; for SRCH (through ORDFAR) and QNODE;
; equal keys by descending from, then to.
;   in: HL = the first entry, DE = one past the last (HL <> DE),
;       IX+F_PLY = the node's ply (its killers), BOARD and COLOR the node's
;   out: HL = the new head (the links end with a 0 high byte); every entry's
;        flags as before and its score byte 0 (SRCH tests legality itself)
;   clobbers: all but IX   needs: page 5 selected
;   cost: about 330 T an entry for its key, 150 T per entry passed while
;         linking (each entry passes those with a larger key), 60 T to restore
;   CALLED BY: QNODE
;   CALLS:     OKEY
ORDER:  LD      (ORDBEG),HL
        LD      (ORDEND),DE
        LD      DE,ORDFLG
        LD      (ORDBP),DE
.k:     INC     HL              ; pass 1: every entry's key into its bytes
        INC     HL              ; 4 (low) and 5 (high), its flags saved
        LD      C,(HL)          ; from
        INC     HL
        LD      B,(HL)          ; to
        INC     HL
        LD      A,(HL)          ; flags
        PUSH    HL
        LD      HL,(ORDBP)
        LD      (HL),A
        INC     HL
        LD      (ORDBP),HL
        CALL    OKEY
        EX      DE,HL
        POP     HL
        LD      (HL),E
        INC     HL
        LD      (HL),D
        INC     HL
        LD      DE,(ORDEND)
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        JR      NZ,.k
        LD      HL,0            ; pass 2: insert each entry before the first
        LD      (ORDHD),HL      ; one with a smaller (key, from, to)
        LD      HL,(ORDBEG)
.each:  PUSH    HL              ; X
        INC     HL
        INC     HL
        LD      D,(HL)          ; D = from
        INC     HL
        LD      E,(HL)          ; E = to
        INC     HL
        LD      C,(HL)          ; C = key low
        INC     HL
        LD      B,(HL)          ; B = key high
        LD      HL,ORDHD        ; HL = the link cell to follow
.find:  PUSH    HL
        LD      A,(HL)
        INC     HL
        LD      H,(HL)
        LD      L,A             ; HL = Y, the entry it links to
        LD      A,H
        OR      A
        JR      Z,.ins          ; the end of the list
        PUSH    HL
        POP     IY
        LD      A,(IY+5)
        CP      B
        JR      C,.ins          ; Y's key below X's: X goes before Y
        JR      NZ,.on
        LD      A,(IY+4)
        CP      C
        JR      C,.ins
        JR      NZ,.on
        LD      A,(IY+2)
        CP      D
        JR      C,.ins
        JR      NZ,.on
        LD      A,(IY+3)
        CP      E
        JR      C,.ins
.on:    POP     AF              ; Y is its own link cell
        JR      .find
.ins:   POP     HL              ; the cell
        POP     IY              ; X
        LD      A,(HL)          ; X links to what the cell linked to
        LD      (IY+0),A
        INC     HL
        LD      A,(HL)
        LD      (IY+1),A
        PUSH    IY
        POP     DE
        LD      (HL),D          ; the cell links to X
        DEC     HL
        LD      (HL),E
        LD      HL,6
        ADD     HL,DE
        LD      DE,(ORDEND)
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        JR      NZ,.each
        LD      HL,(ORDBEG)     ; pass 3: the flags back, the score byte 0
        LD      DE,ORDFLG
.r:     INC     HL
        INC     HL
        INC     HL
        INC     HL
        LD      A,(DE)
        LD      (HL),A
        INC     DE
        INC     HL
        LD      (HL),0
        INC     HL
        PUSH    DE
        LD      DE,(ORDEND)
        OR      A
        SBC     HL,DE
        ADD     HL,DE
        POP     DE
        JR      NZ,.r
        LD      HL,(ORDHD)
        RET

; OKEY: the key of a move (above).
;   in: A = its flags, C = from, B = to, IX+F_PLY the ply
;   out: HL = the key   keeps: BC, IX   clobbers: A, DE
;   CALLED BY: ORDER
;   CALLS:     OHADR, OKADR
OKEY:   LD      E,A
        AND     27h
        JR      Z,.quiet
        LD      A,E             ; a capture or a promotion: MVV/LVA
        AND     7
        ADD     A,OVAL & 0FFh
        LD      L,A
        LD      H,OVAL >> 8
        LD      D,(HL)          ; D = the victim's value
        BIT     5,E
        JR      Z,.np
        LD      A,E
        RLCA
        RLCA
        AND     3
        ADD     A,PGAIN & 0FFh
        LD      L,A
        LD      A,D
        ADD     A,(HL)
        LD      D,A             ; ... plus the promotion's gain
.np:    LD      H,BPAGE
        LD      L,C
        LD      A,(HL)          ; the mover
        AND     7
        ADD     A,OVAL & 0FFh
        LD      L,A
        LD      H,OVAL >> 8
        LD      A,15
        SUB     (HL)
        LD      E,A             ; E = 15 - the mover's value
        LD      L,D
        LD      H,80h >> 4      ; HL = 800h + victim
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,HL
        ADD     HL,HL
        LD      A,L
        OR      E
        LD      L,A
        RET
.quiet: CALL    OKADR           ; the ply's killers
        LD      A,C
        CP      (HL)
        INC     HL
        JR      NZ,.nk1
        LD      A,B
        CP      (HL)
        JR      NZ,.nk1
        LD      HL,KEYK1
        RET
.nk1:   INC     HL
        LD      A,C
        CP      (HL)
        INC     HL
        JR      NZ,.his
        LD      A,B
        CP      (HL)
        JR      NZ,.his
        LD      HL,KEYK2
        RET
.his:   CALL    OHADR           ; the history
        LD      A,(HL)
        INC     HL
        LD      H,(HL)
        LD      L,A
        RET

; OKADR: HL = the killers of ply IX+F_PLY (AND 15).   clobbers: A
;   CALLED BY: OKEY, ORDCUT
;   CALLS:     -
OKADR:  LD      A,(IX+F_PLY)
        AND     15
        ADD     A,A
        ADD     A,A
        LD      L,A
        LD      H,ORDKIL >> 8
        RET

; OHADR: HL = the history entry of the mover on C (BOARD) to B.
;   keeps: BC   clobbers: A, DE
;   CALLED BY: OKEY, ORDCUT
;   CALLS:     -
OHADR:  LD      H,BPAGE
        LD      L,C
        LD      A,(HL)
        LD      E,A
        AND     7
        BIT     7,E
        JR      Z,.w
        OR      8
.w:     ADD     A,A
        ADD     A,ROWTAB & 0FFh
        LD      L,A
        LD      H,ROWTAB >> 8
        LD      E,(HL)
        INC     L
        LD      D,(HL)
        LD      L,B
        LD      H,0
        ADD     HL,HL
        ADD     HL,DE
        RET

; ORDCUT: the frame's move (IX+F_ENTRY, unmade) cut off at ply IX+F_PLY: if
; it is quiet, the ply's first killer (the first becomes the second) and
; depth^2 more history (depth = PLYMAX + 1 - ply, at least 1); an entry
; above HISMAX halves every entry.
;   clobbers: all but IX   needs: page 5 selected
;   cost: about 400 T; a halving about 110,000 T
;   CALLED BY: - (SRCH, through ORDFAR)
;   CALLS:     OHADR, OKADR
ORDCUT: LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      A,H
        OR      A
        RET     Z               ; no move (mated or stalemated)
        INC     HL
        INC     HL
        LD      C,(HL)          ; from
        INC     HL
        LD      B,(HL)          ; to
        INC     HL
        LD      A,(HL)
        AND     27h
        RET     NZ              ; a capture or a promotion
        CALL    OKADR
        LD      A,C
        CP      (HL)
        JR      NZ,.new
        INC     L
        LD      A,B
        CP      (HL)
        JR      Z,.his          ; already the first killer
        DEC     L
.new:   LD      E,(HL)          ; the first becomes the second
        LD      (HL),C
        INC     L
        LD      D,(HL)
        LD      (HL),B
        INC     L
        LD      (HL),E
        INC     L
        LD      (HL),D
.his:   CALL    OHADR
        LD      A,(PLYMAX)      ; the depth left, at least 1
        INC     A
        SUB     (IX+F_PLY)
        JR      Z,.one
        JR      NC,.d
.one:   LD      A,1
.d:     LD      B,A
        LD      E,A
        LD      D,0
        PUSH    HL
        LD      HL,0
.m:     ADD     HL,DE
        DJNZ    .m
        EX      DE,HL           ; DE = depth^2
        POP     HL
        LD      A,(HL)
        ADD     A,E
        LD      (HL),A
        INC     HL
        LD      A,(HL)
        ADC     A,D
        LD      (HL),A
        CP      (HISMAX >> 8) + 1
        RET     C
        LD      HL,ORDHIS       ; halve the table
        LD      BC,12*HROWB/2
.h:     INC     HL
        SRL     (HL)
        DEC     HL
        RR      (HL)
        INC     HL
        INC     HL
        DEC     BC
        LD      A,B
        OR      C
        JR      NZ,.h
        RET

; ORDCLR: no killers, no history (a new search).
;   clobbers: BC, DE, HL   cost: about 46,000 T
;   CALLED BY: - (CSRCH, through ORDFAR)
;   CALLS:     -
ORDCLR: LD      HL,ORDKIL
        LD      DE,ORDKIL+1
        LD      BC,ORDTOP-ORDKIL-1
        LD      (HL),0
        LDIR
        RET
        ENDPAGE
