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

; ---------------------------------------------------------------------------
; The full build's variables, in expansion RAM (XRAM+200h..). Scores are signed
; words, 256 = a pawn (params.asm). Cleared at reset by XRAMCL.
; ---------------------------------------------------------------------------
        IF      BUILD == B_FULL
FVARS   EQU     XRAM+200h
MTRLW   EQU     FVARS+00h       ; 2  POINTS: material, White minus Black
DEVW    EQU     FVARS+02h       ; 2  POINTS: development, White's view
MV0W    EQU     FVARS+04h       ; 2  MTRLW of the root
BC0W    EQU     FVARS+06h       ; 2  board control + development of the root
VALMW   EQU     FVARS+08h       ; 2  POINTS: the score, side to move's view
GAMSTD  EQU     FVARS+0Ah       ; 1  the game began at the initial position
EVBRK   EQU     FVARS+0Bh       ; 1  POINTS lists its battles (the 'Q' command)
BESTMV  EQU     FVARS+0Ch       ; 5  the last completed depth's move: from to
                                ;    promo score(2)
PATHON  EQU     FVARS+11h       ; 1  POINTS runs inside SRCH: LASTMV and the IX
                                ;    frames hold the search path (knowledge.asm
                                ;    KDEV2); 0 at the root's and 'Q''s POINTS
; The search's progress, for the host to read between slices (issue #32: UCI's
; currmove, currmovenumber and seldepth; src/firmware/mod.rs Engine::progress)
ROOTMV  EQU     FVARS+12h       ; 2  the root's entry being searched (0 = none yet)
ROOTN   EQU     FVARS+14h       ; 1  its number among the root's moves searched in
                                ;    this pass (1 = the first; 0 = none yet)
ROOTP   EQU     FVARS+15h       ; 1  passes over the root begun (FNDMOV), mod 256
SELDEP  EQU     FVARS+16h       ; 1  the deepest ply SRCH has entered in this
                                ;    search (the root is ply 1)
; Issue #35's yardstick, T-states per evaluation that ran every term: counters
; of the evaluations that did not. 32 bits each, little-endian, counted since
; reset and never cleared by the firmware (the host reads them before and after
; a search: src/profile/evals.rs); LZTRY counts NLAZY, QNODE NSTPAT.
NLAZY   EQU     FVARS+18h       ; 4  POINTS calls that left early, before the
                                ;    exchange analysis (lazy evaluation, F2_LAZY;
                                ;    counted in NEVAL too)
NSTPAT  EQU     FVARS+1Ch       ; 4  quiescence nodes that returned their static
                                ;    score without searching a capture (stand
                                ;    pat, F2_QUIES; their POINTS calls are in
                                ;    NEVAL, and in NLAZY when they left early)
; BRKDN: POINTS' last score, term by term, signed words in White's view;
; they add up to BK_TOT (VALMW is BK_TOT for Black to move, -BK_TOT for White).
BRKDN   EQU     FVARS+20h
BK_MAT  EQU     BRKDN+00h       ; 2  material change from the root
BK_MCL  EQU     BRKDN+02h       ; 2  ... its clamp (P_MCLAMP): clamped - raw
BK_LOST EQU     BRKDN+04h       ; 2  the mover's largest exchange loss
BK_WON  EQU     BRKDN+06h       ; 2  the side to move's second threat, won
BK_SCL  EQU     BRKDN+08h       ; 2  the clamp of those (P_SCLAMP)
BK_BC   EQU     BRKDN+0Ah       ; 2  board control (BRDC squares * P_BCSQ)
BK_DEV  EQU     BRKDN+0Ch       ; 2  development
BK_BC0  EQU     BRKDN+0Eh       ; 2  minus the root's board control + development
BK_BCL  EQU     BRKDN+10h       ; 2  their clamp (P_BCCLMP), or all of it when
                                ;    the piece just moved hangs
BK_TOT  EQU     BRKDN+12h       ; 2  the total, White's view
BK_K0   EQU     BRKDN+14h       ;    knowledge.asm's terms, KNT words (one per
                                ;    weight), included in BK_TOT
BK_OPB  EQU     BK_K0 + 2 * KNT ; 2  bishops of opposite colours: the change
                                ;    of the knowledge terms' sum (KOPPB)
BK_RACE EQU     BK_OPB + 2      ; 2  pawn endings (kpend.asm): a certain race
BK_EG0  EQU     BK_RACE + 2     ;    End-Game's terms (endgame.asm), KPNT words
BK_RPD  EQU     BK_EG0 + 2 * KPNT ; 2 K+RP v K drawn (kpend.asm RPDRAW, #11)
BK_FRD  EQU     BK_RPD + 2      ; 2 K+P v K, the king in front (FRDRAW, #14)
BK_WBD  EQU     BK_FRD + 2      ; 2 K+RP+wrong bishop v K (WBDRAW, #11)
BK_LUS  EQU     BK_WBD + 2      ; 2 Lüscher's endgame module (luscher.asm,
                                ;   #15): replaces the rest
BKSIZE  EQU     BK_LUS + 2 - BRKDN
BKNBAT  EQU     FVARS+120h      ; 1  battles listed (at most 32)
BKBAT   EQU     FVARS+121h      ; 96 square piece residue, per battle
SCOREW  EQU     FVARS+100h      ; 32 search: best score per ply (words)
FVEND   EQU     FVARS+200h
        ASSERT  BRKDN + BKSIZE <= SCOREW, "BRKDN runs into SCOREW"
        ASSERT  SCOREW + 32 <= BKNBAT, "SCOREW runs into BKNBAT"
        ASSERT  BKBAT + 96 <= FVEND, "BKBAT runs past FVEND"
        ENDIF
