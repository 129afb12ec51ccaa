; ===========================================================================
; pv.asm (full build only): the principal variation, kept by SRCH
; in a triangular table, as in most programs since the 1970s: row n holds the
; line the node at ply n expects, from its own move on. A node empties its row
; when it begins (PVNODE); a new best at ply n (a move that raised the node's
; running best without being cut off) writes the move and then the line of
; the node below it, row n+1 (PVSET). A move scored where it stands (a leaf)
; has no line below it: SRCH empties row n+1 first (PVLEAF). A node whose
; value comes from the transposition table or a draw by repetition keeps an
; empty row, so its line ends there (short, but legal).
;
; Every move of row n+1 was searched from the position after row n's first
; move: the child node of that move wrote it during its own search (only a
; node at ply n+1 writes row n+1, and it empties it first), so every line is
; legal by construction. A line is at most PVMAXL moves (level 8, a check
; extension and End-Game's capture extension give 10 plies); a longer one
; would be cut, never overrun.
;
; The search command reports the line of each completed depth after its 'R'
; report and the line of its move after 'E' (full/search.asm CSRCH): n, then n
; moves (from to promo). BESTPV keeps the line of BESTMV: row 1 when row 1
; begins with BESTMV, else the move alone (the book's move, or the first legal
; move of a search stopped before its first depth completed).
;
; MEMORY: FC00h-FDFFh the table (16 rows of 32 bytes: length, then up to 10
; moves of 3 bytes), FE00h-FE1Fh BESTPV.
; ===========================================================================

PVT     EQU     0FC00h          ; row n at PVT + 32 * n (n = 0..15)
PVROWL  EQU     32
PVMAXL  EQU     10              ; moves in a row, at most
BESTPV  EQU     0FE00h          ; 31 the line of BESTMV: n, then n x (from to promo)
        ASSERT  1 + 3 * PVMAXL <= PVROWL, "a PV row does not hold PVMAXL moves"
        ASSERT  SMAXLV + 3 <= 16, "the PV table has a row for plies 0..15 only"

; PVROW: HL = row A (0..15).   clobbers: A
;   CALLED BY: PVLEAF, PVNODE, PVSET
;   CALLS:     -
PVROW:  RRCA
        RRCA
        RRCA                    ; A = n << 5 | n >> 3
        LD      L,A
        AND     1
        ADD     A,PVT >> 8
        LD      H,A
        LD      A,L
        AND     0E0h
        LD      L,A
        RET

; PVNODE: the node at ply (IX+F_PLY) begins: no line yet.   clobbers: A, HL
;   CALLED BY: SRCH
;   CALLS:     PVROW
PVNODE: LD      A,(IX+F_PLY)
        CALL    PVROW
        LD      (HL),0
        RET

; PVLEAF: the frame's move is scored where it stands: no line below it.
;   clobbers: A, HL
;   CALLED BY: SRCH
;   CALLS:     PVROW
PVLEAF: LD      A,(IX+F_PLY)
        INC     A
        CALL    PVROW
        LD      (HL),0
        RET

; PVSET: a new best at ply n = (IX+F_PLY), entry (IX+F_ENTRY) (0: no move,
; mated or stalemated): row n = the move, then row n+1.
;   clobbers: A, BC, DE, HL   cost: about 330 T + 21 T a byte of the line
;   CALLED BY: SRCH
;   CALLS:     PROMOT, PVROW
PVSET:  LD      A,(IX+F_PLY)
        CALL    PVROW
        LD      E,(IX+F_ENTRY)
        LD      D,(IX+F_ENTRY+1)
        LD      A,D
        OR      A
        JR      NZ,.mv
        LD      (HL),A          ; no move: an empty line
        RET
.mv:    PUSH    HL              ; row n
        INC     HL
        EX      DE,HL           ; HL = the entry, DE = row n's first move
        CALL    PROMOT
        INC     HL
        INC     HL
        LDI                     ; from
        LDI                     ; to
        LD      (DE),A          ; promo
        INC     DE
        POP     HL
        PUSH    HL
        LD      BC,PVROWL
        ADD     HL,BC           ; row n+1: the line below the move
        LD      A,(HL)
        CP      PVMAXL
        JR      C,.n
        LD      A,PVMAXL-1
.n:     INC     HL
        EX      (SP),HL         ; HL = row n, the stack: row n+1's first move
        LD      C,A
        INC     A
        LD      (HL),A          ; row n's length
        POP     HL
        LD      A,C
        ADD     A,A
        ADD     A,C             ; 3 bytes a move
        RET     Z
        LD      C,A
        LD      B,0
        LDIR
        RET

; PVSTART: a search begins: no line at the root, none kept.   clobbers: A
;   CALLED BY: CSRCH
;   CALLS:     -
PVSTART: XOR    A
        LD      (BESTPV),A
        LD      (PVT+PVROWL),A  ; row 1
        RET

; PVBEST: BESTMV was just set (KEEPBM): BESTPV = row 1 if it begins with
; BESTMV, else BESTMV alone.   clobbers: A, BC, DE, HL
;   CALLED BY: KEEPBM
;   CALLS:     -
PVBEST: LD      HL,PVT+PVROWL
        LD      A,(HL)
        OR      A
        JR      Z,.one
        PUSH    HL
        INC     HL
        LD      DE,BESTMV
        LD      B,3
.c:     LD      A,(DE)
        CP      (HL)
        JR      NZ,.diff
        INC     HL
        INC     DE
        DJNZ    .c
        POP     HL
        LD      A,(HL)
        LD      C,A
        ADD     A,A
        ADD     A,C
        INC     A
        LD      C,A
        LD      B,0
        LD      DE,BESTPV
        LDIR
        RET
.diff:  POP     HL
.one:   LD      HL,BESTMV
        LD      DE,BESTPV+1
        LD      BC,3
        LDIR
        LD      A,1
        LD      (BESTPV),A
        RET

; PUTPV: send BESTPV: n, then n x (from to promo).   clobbers: A, B, HL
;   CALLED BY: CSRCH
;   CALLS:     PUTN
PUTPV:  LD      HL,BESTPV
        LD      A,(HL)
        LD      B,A
        ADD     A,A
        ADD     A,B
        INC     A
        LD      B,A
        JP      PUTN
