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
KOLOR   EQU     VARS+1Bh        ; 1  search: the side the engine plays
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
MTRL    EQU     VARS+0B0h       ; 1  POINTS: material, White minus Black
BRDC    EQU     VARS+0B1h       ; 1  POINTS: board control and development
PTSL    EQU     VARS+0B2h       ; 1  POINTS: the mover's largest loss
PTSW1   EQU     VARS+0B3h       ; 1  POINTS: the side to move's largest loss
PTSW2   EQU     VARS+0B4h       ; 1  POINTS: ... and second largest
PTSCK   EQU     VARS+0B5h       ; 1  POINTS: the piece just moved is the mover's largest loss
MV0     EQU     VARS+0B6h       ; 1  MTRL of the root
BC0     EQU     VARS+0B7h       ; 1  BRDC of the root
MOVENO  EQU     VARS+0B8h       ; 1  move number (1 = the book's move)
NPLY    EQU     VARS+0B9h       ; 1  search: current ply
PLYMAX  EQU     VARS+0BAh       ; 1  search: nominal depth
MATEF   EQU     VARS+0BBh       ; 1  search: a legal move was found at this ply
BESTM   EQU     VARS+0BCh       ; 2  search: the chosen root entry
ABORT   EQU     VARS+0BEh       ; 1  search: stop now (host's "move now")
VALM    EQU     VARS+0BFh       ; 1  POINTS: the score of the position
NEVAL   EQU     VARS+0C0h       ; 4  counters: POINTS calls
NXCHG   EQU     VARS+0C4h       ; 4            XCHNG calls
NNODE   EQU     VARS+0C8h       ; 4            moves made by the search
SCORE   EQU     VARS+0D0h       ; 16 search: best score per ply (SCORE+1 = the root)
VARSEND EQU     VARS+100h      ; (search.asm places its variables at E0h-F7h)
