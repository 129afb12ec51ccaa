; ===========================================================================
; vars.asm: the variables, laid out by EQU in the VARS page (RAM), so that the
; ROM image holds no RAM. Each line: name, address, size, meaning.
; ===========================================================================

COLOR   EQU     VARS+00h        ; 1  side to move: 00h White, 80h Black
POSK    EQU     VARS+01h        ; 2  king squares: [0] White, [1] Black
POSQ    EQU     VARS+03h        ; 2  queen squares (0 = none), as Sargon keeps them
MLNXT   EQU     VARS+05h        ; 2  first free byte of MLIST
MLPRV   EQU     VARS+07h        ; 2  the entry appended last (its link gets the next)
LASTMV  EQU     VARS+09h        ; 2  the entry of the move that led to this position
HISTP   EQU     VARS+0Bh        ; 2  first free entry of HIST
EPT     EQU     VARS+0Dh        ; 1  en-passant target square of GENMOV's position, 0 = none
OVFLW   EQU     VARS+0Eh        ; 1  nonzero once a move list overflowed (command fails)
CKFLG   EQU     VARS+0Fh        ; 1  side to move is in check (set by GENMOV for CASTLE)
CNT     EQU     VARS+10h        ; 4  perft leaf counter, little-endian
CMDSP   EQU     VARS+14h        ; 2  the command loop's stack pointer
ARG     EQU     VARS+16h        ; 4  command arguments
NLEGAL  EQU     VARS+1Ah        ; 1  legal moves counted by LEGALS
LNKDUM  EQU     VARS+1Ch        ; 2  GENMOV's "previous link" cell for the first entry
SETDUM  EQU     VARS+20h        ; 6  dummy "last move" entry of a set-up position
STAGE   EQU     VARS+40h        ; 64 set-up staging buffer (a1..h8)
ATKLST  EQU     VARS+80h        ; 14 the attacker array (attack.asm has its diagram)
WACT    EQU     ATKLST          ;    White's section
BACT    EQU     ATKLST+7        ;    Black's section
NPINS   EQU     VARS+8Eh        ; 1  entries in PLIST/PLISTD
PLIST   EQU     VARS+90h        ; 16 squares of pinned pieces
PLISTD  EQU     VARS+0A0h       ; 16 their pin directions (from the royal piece outward)
PMAXPIN EQU     16
VARSEND EQU     VARS+0B0h
