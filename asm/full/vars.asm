; ===========================================================================
; full/vars.asm: the full build's variables, in expansion RAM (XRAM+200h..).
; Scores are signed words, 256 = a pawn (full/params.asm). Cleared at reset by
; XRAMCL. main.asm includes it after vars.asm.
; ===========================================================================

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
; The search's progress, for the host to read between slices (UCI's
; currmove, currmovenumber and seldepth; src/firmware/mod.rs Engine::progress)
ROOTMV  EQU     FVARS+12h       ; 2  the root's entry being searched (0 = none yet)
ROOTN   EQU     FVARS+14h       ; 1  its number among the root's moves searched in
                                ;    this pass (1 = the first; 0 = none yet)
ROOTP   EQU     FVARS+15h       ; 1  passes over the root begun (FNDMOV), mod 256
SELDEP  EQU     FVARS+16h       ; 1  the deepest ply SRCH has entered in this
                                ;    search (the root is ply 1)
; The cost yardstick, T-states per evaluation that ran every term: counters
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
BK_RPD  EQU     BK_EG0 + 2 * KPNT ; 2 K+RP v K drawn (kpend.asm RPDRAW)
BK_FRD  EQU     BK_RPD + 2      ; 2 K+P v K, the king in front (FRDRAW)
BK_WBD  EQU     BK_FRD + 2      ; 2 K+RP+wrong bishop v K (WBDRAW)
BK_LUS  EQU     BK_WBD + 2      ; 2 Lüscher's endgame module (luscher.asm):
                                ;   replaces the rest
BKSIZE  EQU     BK_LUS + 2 - BRKDN
BKNBAT  EQU     FVARS+120h      ; 1  battles listed (at most 32)
BKBAT   EQU     FVARS+121h      ; 96 square piece residue, per battle
SCOREW  EQU     FVARS+100h      ; 32 search: best score per ply (words)
FVEND   EQU     FVARS+200h
        ASSERT  BRKDN + BKSIZE <= SCOREW, "BRKDN runs into SCOREW"
        ASSERT  SCOREW + 32 <= BKNBAT, "SCOREW runs into BKNBAT"
        ASSERT  BKBAT + 96 <= FVEND, "BKBAT runs past FVEND"
