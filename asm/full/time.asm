; ===========================================================================
; time.asm (full build only): time use under a tournament control (the
; search craft), after the seed's "Time Utilization". The firmware keeps its own
; time from the clock port (PCLK): emulated time, so at 2 MHz a game is a
; period game.
;
; 'T' left[3] togo inc[2] -> 00 target[2] hard[2]: the engine's time left,
; the moves to the next control (0: the rest of the game) and the increment,
; in TICKS of 65,536 T-states (32.8 ms at 2 MHz); the answer is the move's
; target and hard limit, in ticks. The next 'G' with flags bit 1 uses them:
;   base   = left / togo (togo 0 counts as 30) + inc
;   target = base, three quarters of it for the game's first 10 moves: the
;            saved-time buffer is built first (what they leave over raises
;            left / togo for every later move: the buffer is then spent)
;   hard   = min(5 * target, left * 3/4), never passed: the search stops by
;            itself TMLAT ticks before it (its longest stretch without a look
;            at the clock: a root SORTM or a leaf loop, about 3 M T)
;   target = min(target, hard)
; A timed search iterates depth 1, 2, ... up to the level given; it starts
; no new depth after half the target, and stops (the last completed depth's
; move) when the limit is reached: the target, or after a fail low ...
;
; DEEP THINK (P_FLAGS bit 3): each depth from the second searches the last
; depth's move first. If it comes back more than TMFLD below the last
; depth's score (a fail low: the move found is losing something) and no
; other move has done better yet, the limit becomes target * (2 + the drop
; in pawns, at most 2): "think on, longer the more material is at stake",
; never beyond the hard limit. A move that gets back within TMFLD restores
; the target. Stopped by the limit during a fail low, the search plays the
; best move of the unfinished depth if one beat the failing move.
; ===========================================================================

TMVARS  EQU     0F600h
TMTGT   EQU     TMVARS+00h      ; 2  the move's target (ticks)
TMHARD  EQU     TMVARS+02h      ; 2  its hard limit (ticks)
TMLIM   EQU     TMVARS+04h      ; 2  the limit now (ticks)
TMT0    EQU     TMVARS+06h      ; 2  the clock at the search's start (ticks)
TMON    EQU     TMVARS+08h      ; 1  a timed search is running
TMFAIL  EQU     TMVARS+09h      ; 1  the root failed low in this depth
TMNB    EQU     TMVARS+0Ah      ; 1  new bests at the root in this depth
TMPREV  EQU     TMVARS+0Bh      ; 2  the last completed depth's score
TMCLK   EQU     TMVARS+0Dh      ; 4  CLOCK's buffer (T-states, bits 0-31)
TMARG   EQU     TMVARS+11h      ; 6  'T''s arguments
PONDR   EQU     TMVARS+17h      ; 3  the best reply so far at ply 2 (from to promo)
BREP1   EQU     TMVARS+1Ah      ; 3  ... to the root's best move so far
BESTRP  EQU     TMVARS+1Dh      ; 3  ... to BESTMV: the move to ponder on
TMLAT   EQU     48              ; ticks: the search's longest stretch unpolled
TMFLD   EQU     64              ; a fail low: more than 1/4 pawn below

; CTIME: 'T' left[3] togo inc[2] -> 00 target[2] hard[2].
;   CALLED BY: - (CMDLP, through CMDTAB)
;   CALLS:     DIV24, GETB, MINHD, MUL16S, PUTB, PUTOK, SAT16
CTIME:  LD      HL,TMARG
        LD      B,6
.a:     CALL    GETB
        LD      (HL),A
        INC     HL
        DJNZ    .a
        LD      A,(TMARG+3)     ; base = left / togo + inc
        OR      A
        JR      NZ,.n
        LD      A,30
.n:     CP      101             ; (DIV24 divides by at most 128)
        JR      C,.n1
        LD      A,100
.n1:    LD      C,A
        LD      HL,(TMARG)
        LD      A,(TMARG+2)
        CALL    DIV24           ; AHL = left / C
        CALL    SAT16
        LD      DE,(TMARG+4)
        ADD     HL,DE
        JR      NC,.b
        LD      HL,0FFFFh
.b:     LD      A,(MOVENO)      ; the first 10 moves: three quarters
        CP      11
        JR      NC,.t
        LD      D,H
        LD      E,L
        SRL     D
        RR      E
        SRL     D
        RR      E
        OR      A
        SBC     HL,DE
.t:     LD      (TMTGT),HL
        LD      D,H             ; hard = min(5 * target, left * 3/4)
        LD      E,L
        LD      A,5
        CALL    MUL16S          ; HL = 5 * target, saturated
        PUSH    HL
        LD      HL,(TMARG)
        LD      A,(TMARG+2)
        LD      C,4
        CALL    DIV24           ; left / 4
        LD      B,A             ; BHL, and left - that = 3/4
        EX      DE,HL
        LD      HL,(TMARG)
        OR      A
        SBC     HL,DE
        LD      A,(TMARG+2)
        SBC     A,B
        CALL    SAT16
        POP     DE
        CALL    MINHD           ; HL = min(HL, DE)
        LD      (TMHARD),HL
        EX      DE,HL
        LD      HL,(TMTGT)
        CALL    MINHD
        LD      (TMTGT),HL
        CALL    PUTOK
        LD      A,(TMTGT)
        CALL    PUTB
        LD      A,(TMTGT+1)
        CALL    PUTB
        LD      A,(TMHARD)
        CALL    PUTB
        LD      A,(TMHARD+1)
        JP      PUTB

; DIV24: AHL = AHL / C (unsigned, 24 by 8 bits).   clobbers: B, D
;   CALLED BY: CTIME
;   CALLS:     -
DIV24:  LD      D,0             ; D = the remainder
        LD      B,24
.d:     ADD     HL,HL
        RLA
        RL      D
        PUSH    AF
        LD      A,D
        SUB     C
        JR      C,.no
        LD      D,A
        POP     AF
        INC     L               ; the quotient's bit
        JR      .nx
.no:    POP     AF
.nx:    DJNZ    .d
        RET

; SAT16: HL = AHL, saturated to 16 bits.   clobbers: A
;   CALLED BY: CTIME
;   CALLS:     -
SAT16:  OR      A
        RET     Z
        LD      HL,0FFFFh
        RET

; MUL16S: HL = A * DE (A small), saturated to 16 bits.   clobbers: A, B
;   CALLED BY: CTIME, TMROOT
;   CALLS:     -
MUL16S: LD      B,A
        LD      HL,0
.m:     ADD     HL,DE
        JR      C,.sat
        DJNZ    .m
        RET
.sat:   LD      HL,0FFFFh
        RET

; MINHD: HL = min(HL, DE), unsigned.   clobbers: A
;   CALLED BY: CTIME, HARDCP
;   CALLS:     -
MINHD:  PUSH    HL
        OR      A
        SBC     HL,DE
        POP     HL
        RET     C
        LD      H,D
        LD      L,E
        RET

; TICKS: HL = the clock in ticks (T-states / 65,536, 16 bits: it wraps every
; 35.8 minutes at 2 MHz, so one search measures up to that).   clobbers: A
;   CALLED BY: ELAPSD, TMSTART
;   CALLS:     CLOCK
TICKS:  LD      HL,TMCLK
        CALL    CLOCK
        LD      HL,(TMCLK+2)
        RET

; ELAPSD: HL = ticks since the search began.   clobbers: A, DE
;   CALLED BY: TMNEXT, TMPOLL
;   CALLS:     TICKS
ELAPSD: CALL    TICKS
        LD      DE,(TMT0)
        OR      A
        SBC     HL,DE
        RET

; TMSTART: at 'G': a timed search when flags bit 1 is set (after 'T').
;   clobbers: A, DE, HL
;   CALLED BY: CSRCH
;   CALLS:     TICKS
TMSTART: LD     A,(SFLAGS)
        AND     2
        LD      (TMON),A
        RET     Z
        CALL    TICKS
        LD      (TMT0),HL
        ; fall into TMITER

; TMITER: a new depth begins: the limit is the target again.   clobbers: A, HL
;   CALLED BY: CSRCH
;   CALLS:     -
TMITER: LD      HL,(TMTGT)
        LD      (TMLIM),HL
        XOR     A
        LD      (TMFAIL),A
        LD      (TMNB),A
        RET

; TMPOLL: in SRCH, on entering a node and before each move: the host's "move
; now" (PPOLL bit 1) stops the search (ABORT = 2), and so does a timed search
; past its limit (ABORT = 4). 30 T when neither is set and the search is not
; timed.
;   clobbers: A, DE, HL
;   CALLED BY: QNODE, SRCH
;   CALLS:     ELAPSD, HARDCP
TMPOLL: IN      A,(PPOLL)
        AND     2
        JR      Z,.time
        LD      (ABORT),A
.time:  LD      A,(TMON)
        OR      A
        RET     Z
        CALL    ELAPSD
        EX      DE,HL           ; DE = elapsed
        LD      HL,(TMLIM)      ; the limit, no closer than TMLAT to the hard
        CALL    HARDCP          ; one
        OR      A
        SBC     HL,DE
        RET     NC              ; elapsed <= limit: on
        LD      A,4
        LD      (ABORT),A
        RET

; HARDCP: HL = min(HL, TMHARD - TMLAT) (0 if the hard limit is below TMLAT).
;   keeps: DE   clobbers: A
;   CALLED BY: TMPOLL
;   CALLS:     MINHD
HARDCP: PUSH    DE
        PUSH    HL
        LD      HL,(TMHARD)
        LD      DE,TMLAT
        OR      A
        SBC     HL,DE
        JR      NC,.h
        LD      HL,0
.h:     POP     DE
        CALL    MINHD
        POP     DE
        RET

; TMNEXT: a depth completed: carry if a timed search should start no other
; (half the target gone). Its score (SCOREW+2) is the next depth's yardstick.
;   clobbers: A, DE, HL
;   CALLED BY: CSRCH
;   CALLS:     ELAPSD
TMNEXT: LD      A,(TMON)
        OR      A
        RET     Z
        LD      HL,(SCOREW+2)
        LD      (TMPREV),HL
        CALL    ELAPSD
        EX      DE,HL
        LD      HL,(TMTGT)
        SRL     H
        RR      L
        OR      A
        SBC     HL,DE           ; carry: elapsed > target / 2
        RET

; TMROOT: a new best at the root, value DE (the engine's view), in a timed
; search with deep think (P_FLAGS bit 3), from the second depth: a fail low
; sets the limit by the drop, a recovery resets it.   keeps: DE
;   clobbers: A, HL
;   CALLED BY: SRCH
;   CALLS:     DTON, MUL16S
TMROOT: LD      A,(TMON)
        OR      A
        RET     Z
        LD      HL,TMNB
        INC     (HL)
        CALL    DTON
        RET     Z
        PUSH    DE
        LD      HL,(TMPREV)     ; drop = TMPREV - value
        OR      A
        SBC     HL,DE
        JP      M,.ok           ; better than before
        LD      DE,TMFLD+1
        OR      A
        SBC     HL,DE
        JR      C,.ok           ; within TMFLD
        ADD     HL,DE           ; HL = the drop
        LD      A,H             ; pawns dropped (256 a pawn), at most 2
        CP      3
        JR      C,.p
        LD      A,2
.p:     ADD     A,2
        LD      DE,(TMTGT)
        CALL    MUL16S          ; (2 + pawns) * target
        LD      (TMLIM),HL
        LD      A,1
        LD      (TMFAIL),A
        POP     DE
        RET
.ok:    LD      HL,(TMTGT)      ; (TMFAIL stays: this depth failed low)
        LD      (TMLIM),HL
        POP     DE
        RET

; DTON: NZ when deep think applies: a timed search, P_FLAGS bit 3, from the
; second depth.   clobbers: A
;   CALLED BY: TMFRONT, TMROOT
;   CALLS:     -
DTON:   LD      A,(TMON)
        OR      A
        RET     Z
        LD      A,(P_FLAGS)
        AND     8
        RET     Z
        LD      A,(ITDEP)
        CP      2
        JR      NC,.on
        XOR     A
        RET
.on:    OR      A
        RET

; TMSTOP: a timed search stopped by its limit during a fail low: the best
; move of the unfinished depth, if one beat the failing move (BESTM, whose
; score is SCOREW+2).   clobbers: all
;   CALLED BY: CSRCH
;   CALLS:     KEEPBM
TMSTOP: LD      A,(TMON)
        OR      A
        RET     Z
        LD      A,(TMFAIL)
        OR      A
        RET     Z
        LD      A,(TMNB)
        CP      2
        RET     C
        LD      HL,(BESTM)
        JP      KEEPBM

; TMFRONT: at the root of a timed search from the second depth, the last
; depth's move (BESTMV) to the head of the list HL (deep think needs it
; searched first).   out: HL = the head   clobbers: A, BC, DE
;   CALLED BY: SRCH
;   CALLS:     DTON, PROMOT, TTFRONT
TMFRONT: LD     A,(IX+F_PLY)
        DEC     A
        RET     NZ
        CALL    DTON
        RET     Z
        PUSH    HL              ; find BESTMV's entry
.f:     LD      A,H
        OR      A
        JR      Z,.none
        PUSH    HL
        INC     HL
        INC     HL
        LD      A,(BESTMV)
        CP      (HL)
        JR      NZ,.no
        INC     HL
        LD      A,(BESTMV+1)
        CP      (HL)
        JR      NZ,.no
        POP     HL
        PUSH    HL
        CALL    PROMOT
        LD      B,A
        LD      A,(BESTMV+2)
        CP      B
        JR      Z,.got
.no:    POP     HL
        LD      A,(HL)
        INC     HL
        LD      H,(HL)
        LD      L,A
        JR      .f
.got:   POP     DE              ; DE = the entry
        POP     HL              ; HL = the head
        PUSH    DE
        LD      DE,(TTHM)       ; TTFRONT moves TTHM's entry: lend it
        EX      (SP),HL
        LD      (TTHM),HL
        POP     HL
        PUSH    DE
        CALL    TTFRONT
        POP     DE
        LD      (TTHM),DE
        RET
.none:  POP     HL
        RET

; ---------------------------------------------------------------------------
; The expected reply (for pondering): the best answer found at ply 2 to the
; root's best move, reported after the counters of 'E'.
; ---------------------------------------------------------------------------

; PVNOTE: a new best at ply (IX+F_PLY), entry (IX+F_ENTRY): at ply 2 it is
; the reply so far; at ply 1 the root move takes its reply along.
;   clobbers: A, BC, DE, HL
;   CALLED BY: SRCH
;   CALLS:     PROMOT
PVNOTE: LD      A,(IX+F_PLY)
        CP      2
        JR      Z,.p2
        DEC     A
        RET     NZ
        LD      HL,PONDR
        LD      DE,BREP1
        LD      BC,3
        LDIR
        RET
.p2:    LD      L,(IX+F_ENTRY)
        LD      H,(IX+F_ENTRY+1)
        LD      A,H
        OR      A
        RET     Z               ; (no move: mate or stalemate)
        PUSH    HL
        INC     HL
        INC     HL
        LD      A,(HL)
        LD      (PONDR),A
        INC     HL
        LD      A,(HL)
        LD      (PONDR+1),A
        POP     HL
        CALL    PROMOT
        LD      (PONDR+2),A
        RET

; PVCLR: a ply-2 node begins: no reply yet.   clobbers: A, HL
;   CALLED BY: SRCH
;   CALLS:     -
PVCLR:  XOR     A
        LD      HL,PONDR
        LD      (HL),A
        INC     HL
        LD      (HL),A
        INC     HL
        LD      (HL),A
        RET

; PVRST: a search begins: no replies at all.   clobbers: A, B, HL
;   CALLED BY: CSRCH
;   CALLS:     -
PVRST:  XOR     A
        LD      HL,PONDR
        LD      B,9
.z:     LD      (HL),A
        INC     HL
        DJNZ    .z
        RET

; PVKEEP: BESTMV was just set from the root's best (KEEPBM): its reply.
;   clobbers: BC, DE, HL
;   CALLED BY: KEEPBM
;   CALLS:     -
PVKEEP: LD      HL,BREP1
        LD      DE,BESTRP
        LD      BC,3
        LDIR
        RET

; PUTRP: send the reply to ponder on (3 bytes, 0 0 0 for none).
;   clobbers: A, B, HL
;   CALLED BY: CSRCH
;   CALLS:     PUTN
PUTRP:  LD      HL,BESTRP
        LD      B,3
        JP      PUTN
