; ===========================================================================
; z80chess firmware: a Sargon-style chess program for a period Z80 machine.
;
; Copyright the z80chess developers. GPL-3.0-or-later.
; Written for this project in the manner of the Spracklens' Sargon (1978);
; none of the original code is reproduced.
;
; MEMORY MAP (16 KiB ROM, 8 KiB RAM; everything else is unmapped in the
; period builds; the full build's machine adds the expansion below)
;
;   0000h-3FFFh  ROM   code and constant tables
;   4000h-40FFh  RAM   BOARD: the 10x12 mailbox, one page, so H = BOARD>>8
;                      and L = square index address any square
;   4100h-41FFh  RAM   variables (VARS) and the set-up staging buffer
;   4200h-46FFh  RAM   HIST: the game's moves, 6-byte entries (213 plies)
;   4700h-5AFFh  RAM   MLIST: move lists of all plies, stacked (853 entries)
;   5B00h-5FFFh  RAM   the stack (1.25 KiB, grows down from 6000h)
;   full build only (a plug-in expansion, as period chess computers took):
;   6000h-7FFFh  RAM   8 KiB expansion RAM (XRAMLO):
;                      6000h-62FFh the three stored parameter blocks
;                      (full/params.asm); 6300h-7FFFh free
;   8000h-BFFFh  ROM   window onto expansion ROM page 0-7 (port PPAGE)
;   C000h-FFFFh  RAM   16 KiB expansion RAM (XRAM):
;                      C000h-C0FFh the active parameter block (full/params.asm)
;                      C100h-C1FFh free
;                      C200h-C3FFh the full build's variables (full/vars.asm)
;                      C400h-C5FFh full/knowledge.asm's tables (of C400h-DFFFh)
;                      C600h-C6FFh full/kpend.asm (RACE), C700h-C7FFh
;                      full/endgame.asm
;                      C800h-CDFFh full/luscher.asm (the endgame module)
;                      CE00h-CEFFh, D000h-DFFFh, F800h-FBFFh full/pawnhash.asm
;                      E000h-F7FFh full/craft.asm, full/draw.asm, full/time.asm
;                      FC00h-FE1Fh full/pv.asm (the principal variation)
;                      FE40h-FE9Fh full/roots.asm (the root moves, searchmoves)
;   expansion ROM pages: 0 the parameter defaults, 1-2 Lüscher's tables
;                      (full/luscher_tables.asm), 3 the Zobrist keys, 4 the
;                      KPK bitbase, 5 ordering, the quiescence search and
;                      its cheap stage, 6 the KBNK mating procedure and its
;                      tables, 7 lazy evaluation and the KBBK procedure
;
; The host talks to the firmware only through the ports of io.asm.
;
; BUILD SWITCHES (assemble with -D NAME=VALUE)
;   BUILD       1 = article (default), 2 = 1978, 3 = full (the article's
;               program with 16-bit scores and parameter blocks)
; ===========================================================================

        IFNDEF BUILD
BUILD   EQU     1
        ENDIF

B_ARTICLE EQU   1
B_1978    EQU   2
B_FULL    EQU   3
XRAM      EQU   0C000h          ; full build: the expansion RAM
XRAMLO    EQU   6000h           ; full build: the expansion RAM below the window

ROMTOP  EQU     4000h           ; first byte after the ROM
RAMBOT  EQU     4000h
RAMTOP  EQU     6000h           ; first byte after the RAM

BOARD   EQU     4000h           ; must be page aligned
BPAGE   EQU     BOARD >> 8
VARS    EQU     4100h
HIST    EQU     4200h
HISTEND EQU     4700h
MLIST   EQU     4700h
MLENDH  EQU     5Bh             ; ADMOVE: an entry ending in page 5Bh overflows
STKLIM  EQU     5B40h           ; recursion stops with an error below this
STACK   EQU     RAMTOP

; ---------------------------------------------------------------------------
; Reset: set the stack, the initial position, then serve the host forever.
; ---------------------------------------------------------------------------
        ORG     0000h
RESET:  DI
        LD      SP,STACK
        JP      START

        ORG     0038h
RST38:  RETI                    ; no interrupts are used

        ORG     0066h
NMI:    RETN

        ORG     0080h
; START: after reset (RESET jumps here): clear the RAM (and the full build's
; expansion RAM, parameter blocks and tables), set up the initial position,
; and serve the host in CMDLP for ever.
;   CALLED BY: -
;   CALLS:     CLRRAM, CMDLP, GHCLR (full), INITBD, LUSCLR (full),
;              PRMRST (full), PZINIT (full), TTCLR (full), XRAMCL (full)
START:  CALL    CLRRAM
        IF      BUILD == B_FULL
        CALL    XRAMCL
        CALL    PRMRST
        CALL    TTCLR           ; full/craft.asm: the transposition table
        CALL    GHCLR           ; full/draw.asm: the game's history
        CALL    LUSCLR          ; full/luscher.asm: the module's cache
        CALL    PZINIT          ; full/pawnhash.asm: the pawns' key pages
        ENDIF
        CALL    INITBD
        JP      CMDLP

; CLRRAM: zero all RAM below the stack.
;   out: -   clobbers: A, BC, DE, HL   cost: 21 T per byte
;   CALLED BY: START
;   CALLS:     -
CLRRAM: LD      HL,RAMBOT
        LD      DE,RAMBOT+1
        LD      BC,STKLIM-RAMBOT-1
        LD      (HL),0
        LDIR
        RET

; ---------------------------------------------------------------------------
; The files, in assembly order (asm/README.md maps them per build). Files in
; asm/ are the period program, most shared by the full build; full/ holds
; what only the full build assembles. Where builds' versions of a routine
; differ much, each build has its own whole routine and this list takes the
; build's own at the same place (POINTS: points.asm, points1978.asm,
; full/points.asm; DEVEL: devel.asm, full/devel.asm; FNDMOV .. KEEPBM:
; srch.asm and csrch.asm, full/search.asm).
; ---------------------------------------------------------------------------
        INCLUDE "vars.asm"
        IF      BUILD == B_FULL
        INCLUDE "full/vars.asm"     ; the full build's variables (XRAM)
        ENDIF
        INCLUDE "io.asm"
        INCLUDE "board.asm"
        INCLUDE "movegen.asm"
        INCLUDE "make.asm"
        INCLUDE "attack.asm"
        INCLUDE "perft.asm"
        INCLUDE "xchng.asm"
        IF      BUILD == B_FULL
        INCLUDE "full/points.asm"   ; its own POINTS (words), BCNOW .. BKADD
        INCLUDE "full/lazy.asm"     ; lazy evaluation: LZHOOK; LZTRY (page 7)
        ENDIF
        IF      BUILD == B_ARTICLE
        INCLUDE "points.asm"        ; POINTS, the article build's evaluation
        ENDIF
        IF      BUILD == B_1978
        INCLUDE "points1978.asm"    ; POINTS, the 1978 build's evaluation
        ENDIF
        INCLUDE "battle.asm"        ; BATTLE, POINTS' battle on a square
        IF      BUILD != B_1978
        INCLUDE "atkmap.asm"        ; the attack map: PATK .. ONLINE
        ENDIF
        IF      BUILD == B_FULL
        INCLUDE "full/devel.asm"    ; DEVEL, in words
        ELSE
        INCLUDE "devel.asm"         ; DEVEL, POINTS' development term
        ENDIF
        INCLUDE "evalaux.asm"       ; LIMIT, SEXT, CLAMP, INC32, CEVAL
        INCLUDE "search.asm"        ; the search's frame, EVAL, SORTM
        IF      BUILD != B_FULL
        INCLUDE "srch.asm"          ; the period builds' FNDMOV, SRCH
        ENDIF
        INCLUDE "book.asm"          ; MKMOVE, UNMK, BOOK
        IF      BUILD != B_FULL
        INCLUDE "csrch.asm"         ; the period builds' CSRCH, KEEPBM
        ENDIF
        INCLUDE "putbm.asm"         ; PUTBM, CMOVNO
        IF      BUILD == B_FULL     ; the full build's own files (full/)
        INCLUDE "full/search.asm"   ; its FNDMOV, SRCH, CSRCH, KEEPBM, ORDFAR
        INCLUDE "full/order.asm"    ; cheap interior ordering (page 5)
        INCLUDE "full/quies.asm"    ; the quiescence search (page 5, after ORDER)
        INCLUDE "full/ceval.asm"    ; its cheap static score (page 5, after it)
        INCLUDE "full/craft.asm"    ; the transposition table, aspiration
        INCLUDE "full/zobrist.asm"  ; the Zobrist keys (page 3, generated)
        INCLUDE "full/pv.asm"       ; the principal variation
        INCLUDE "full/roots.asm"    ; the root moves (searchmoves)
        INCLUDE "full/params.asm"   ; the parameter blocks (page 0)
        INCLUDE "full/knowledge.asm" ; Cray Blitz's knowledge (KNOW)
        INCLUDE "full/kpend.asm"    ; king-and-pawn endings (RACE)
        INCLUDE "full/kpk_bitbase.asm" ; the KPK bitbase (page 4, generated)
        INCLUDE "full/kpkbase.asm"  ; its probe KPKEV (page 4, after the bits)
        INCLUDE "full/endgame.asm"  ; End-Game's Table 1 (EGEVAL)
        INCLUDE "full/draw.asm"     ; the game's history, draw scores
        INCLUDE "full/time.asm"     ; time use, deep think, the reply to ponder
        INCLUDE "full/luscher_tables.asm" ; Lüscher's tables (pages 1-2, generated)
        INCLUDE "full/luscher.asm"  ; his endgame module, which reads them
        INCLUDE "full/kbnk.asm"     ; the KBNK mating procedure (page 6)
        PAGE    6
        INCLUDE "full/kbnk_tables.asm" ; its fitted tables (generated)
        ENDPAGE
        INCLUDE "full/kbbk.asm"     ; the KBBK mating procedure (page 7)
        INCLUDE "full/pawnhash.asm" ; the pawn-structure hash
        ENDIF

ROMEND:
        ASSERT  ROMEND <= ROMTOP, "the firmware does not fit in 16 KiB of ROM"
