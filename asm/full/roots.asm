; ===========================================================================
; roots.asm (full build only): the search's root moves (UCI's `go
; searchmoves`). The host names a set of the position's legal
; moves; the searches of this position then consider only those at the root
; (ply 1), and choose among them by themselves: the host never picks.
;
; 'R' n (from to promo)*n -> 00: every move must be legal in the position
; (ENOMOVE, EINCHK as for 'M'; a refused 'R' reads all its moves and changes
; nothing); n = 0 lifts the restriction. A new game ('N'), a set-up ('S'), a
; move played ('M') or taken back ('U') lift it too.
;
; The set is a bitmap over GENMOV's list of the position (bit i = the i-th
; entry, legal or not): the root of SRCH generates the same list in the same
; order, since the position (board, side, LASTMV's en passant) cannot change
; while the set stands. SRCH asks RSROOT at ply 1 before it plays a move, just
; where it would play it (after SORTM's legality at ply < PLYMAX, after INCHK
; at PLYMAX), so a set of every legal move searches exactly the unrestricted
; tree: the same moves made, evaluations and score. The book (move number 1)
; answers only with a move of the set. The transposition table is kept as it
; is: the root never takes a score from it (craft.asm), only a move to try
; first, which SRCH skips if it is not in the set.
;
; MEMORY: FE40h-FE9Fh.
; ===========================================================================

RSVARS  EQU     0FE40h
RSON    EQU     RSVARS+00h      ; 1  a set stands (its n, non-zero)
RSN     EQU     RSVARS+01h      ; 1  'R': moves still to read
RSN0    EQU     RSVARS+02h      ; 1  'R': n
RSERR   EQU     RSVARS+03h      ; 1  'R': the first refusal's code (0 = none)
RSL0    EQU     RSVARS+04h      ; 2  RSFIND: the list's first entry
RSL1    EQU     RSVARS+06h      ; 2  RSFIND: one past its last
RSMAP   EQU     RSVARS+20h      ; 32 the set: bit i of byte i/8 = entry i
RSSTG   EQU     RSVARS+40h      ; 32 'R''s new set, kept only if all is well
        ASSERT  (RSMAP & 0FFh) <= 0E0h, "RSMAP must not cross a page"
        ASSERT  (RSSTG & 0FFh) <= 0E0h, "RSSTG must not cross a page"

; CROOT: 'R' n (from to promo)*n -> 00. The command's work is cold code: it
; runs in expansion ROM page 0 (beside the parameter defaults), which is the
; page selected between commands, so nothing needs restoring.
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     CMDERR, GETB, LEGALS, OVFCHK, PUTOK, RSBIT, RSFIND
CROOT:  LD      A,PAGEOF(CROOTP)
        OUT     (PPAGE),A
        JP      CROOTP

        PAGE    0
        ORG     8200h           ; (full/params.asm's defaults hold 8000h-8084h)
CROOTP: CALL    GETB
        LD      (RSN),A
        LD      (RSN0),A
        XOR     A
        LD      (RSERR),A
        LD      HL,RSSTG
        LD      B,32
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        CALL    LEGALS          ; each entry marked legal or not
        LD      (RSL0),HL
        LD      (RSL1),DE
.each:  LD      HL,RSN
        LD      A,(HL)
        OR      A
        JR      Z,.end
        DEC     (HL)
        LD      HL,ARG
        LD      B,3
.a:     CALL    GETB
        LD      (HL),A
        INC     HL
        DJNZ    .a
        CALL    RSFIND          ; A = 0 and C = its index, or the refusal
        OR      A
        JR      NZ,.bad
        LD      HL,RSSTG
        CALL    RSBIT
        LD      A,(HL)
        OR      B
        LD      (HL),A
        JR      .each
.bad:   LD      B,A
        LD      A,(RSERR)
        OR      A
        JR      NZ,.each        ; the first refusal is the one answered
        LD      A,B
        LD      (RSERR),A
        JR      .each
.end:   LD      A,(RSERR)
        OR      A
        JP      NZ,CMDERR
        CALL    OVFCHK
        LD      HL,RSSTG
        LD      DE,RSMAP
        LD      BC,32
        LDIR
        LD      A,(RSN0)
        LD      (RSON),A
        JP      PUTOK

; RSFIND: the move ARG (from to promo) in the list [RSL0, RSL1) that LEGALS
; marked: A = 0 and C = its index when it is there and legal, else A = ENOMOVE
; or EINCHK (EOVFLW beyond entry 255). (CMOVE's search in perft.asm, which
; the period builds share byte for byte, with the index kept.)   clobbers: all
;   CALLED BY: CROOT, RSBOOK
;   CALLS:     PROMOT
RSFIND: LD      HL,(RSL0)
        LD      C,0
.next:  LD      DE,(RSL1)
        LD      A,L
        CP      E
        JR      NZ,.one
        LD      A,H
        CP      D
        LD      A,ENOMOVE
        RET     Z
.one:   PUSH    HL
        INC     HL
        INC     HL
        LD      A,(ARG)
        CP      (HL)
        JR      NZ,.skip
        INC     HL
        LD      A,(ARG+1)
        CP      (HL)
        JR      NZ,.skip
        POP     HL
        PUSH    HL
        CALL    PROMOT
        LD      B,A
        LD      A,(ARG+2)
        CP      B
        JR      Z,.found
.skip:  POP     HL
        LD      DE,6
        ADD     HL,DE
        INC     C
        JR      NZ,.next
        LD      A,EOVFLW
        RET
.found: POP     HL
        LD      DE,5
        ADD     HL,DE
        LD      A,(HL)          ; LEGALS' mark
        OR      A
        LD      A,EINCHK
        RET     Z
        XOR     A
        RET
        ENDPAGE

; RSCLR: no set: every move at the root.   clobbers: A
;   CALLED BY: CMOVE, CUNDO
;   CALLS:     -
RSCLR:  XOR     A
        LD      (RSON),A
        RET

; RSBIT: HL = the byte of bit C in the 32-byte map at HL (page-safe), B = its
; mask.   clobbers: A
;   CALLED BY: CROOT, RSHAS
;   CALLS:     -
RSBIT:  LD      A,C
        RRCA
        RRCA
        RRCA
        AND     1Fh
        ADD     A,L
        LD      L,A
        LD      A,C
        AND     7
        LD      B,A
        INC     B
        LD      A,80h
.s:     RLCA
        DJNZ    .s
        LD      B,A
        RET

; RSOK: Z if the entry HL of the list that begins at DE may be searched: no
; set stands, or it holds the entry's index.   keeps: DE, HL
;   clobbers: A, BC   cost: about 60 T a move before it in the list
;   CALLED BY: CSRCH, RSROOT
;   CALLS:     RSHAS
RSOK:   LD      A,(RSON)
        OR      A
        RET     Z
        PUSH    HL
        PUSH    DE
        OR      A
        SBC     HL,DE           ; 6 bytes an entry
        LD      DE,6
        LD      C,0
.d:     LD      A,H
        OR      L               ; (clears carry)
        JR      Z,.i
        SBC     HL,DE
        INC     C
        JR      NZ,.d
        POP     DE              ; entry 256 and beyond: never in a set
        POP     HL
        OR      1
        RET
.i:     CALL    RSHAS
        POP     DE
        POP     HL
        RET

; RSHAS: Z if the set holds index C.   clobbers: A, B, HL
;   CALLED BY: RSBOOK, RSOK
;   CALLS:     RSBIT
RSHAS:  LD      HL,RSMAP
        CALL    RSBIT
        LD      A,(HL)
        AND     B
        JR      Z,.no
        XOR     A
        RET
.no:    INC     A
        RET

; RSROOT: in SRCH, Z if the frame's move may be searched (only the root's
; moves are restricted).   clobbers: A, BC, DE, HL
;   CALLED BY: SRCH
;   CALLS:     RSOK
RSROOT: LD      A,(IX+F_PLY)
        DEC     A
        JR      Z,.root
        XOR     A
        RET
.root:  LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      E,(IX+F_FREE)
        LD      D,(IX+F_FREE+1)
        JP      RSOK

; RSBOOK: after BOOK (FNDMOV, move number 1): Z if the book's move may be
; played: no set stands, or the set holds it.   clobbers: all
;   CALLED BY: FNDMOV
;   CALLS:     LEGALS, RSFIND, RSHAS
RSBOOK: LD      A,(RSON)
        OR      A
        RET     Z
        LD      HL,(BOOKE+2)    ; from, to
        LD      (ARG),HL
        XOR     A
        LD      (ARG+2),A
        LD      HL,(MLNXT)
        PUSH    HL
        CALL    LEGALS
        LD      (RSL0),HL
        LD      (RSL1),DE
        POP     HL
        LD      (MLNXT),HL      ; the list goes again: SRCH's starts here
        IN      A,(PPAGE)       ; RSFIND is in page 0: keep the page
        PUSH    AF
        LD      A,PAGEOF(RSFIND)
        OUT     (PPAGE),A
        CALL    RSFIND
        POP     DE
        LD      B,A
        LD      A,D
        OUT     (PPAGE),A
        LD      A,B
        OR      A
        RET     NZ
        JP      RSHAS
