//! The engine's signature (`z80chess bench`): moves made and T-states, summed over the bench
//! positions, for each build. Any change to the engine that alters what it searches or what
//! that costs fails here. When the change is intended, update the numbers below from
//! `cargo run --release -- bench` (or this test's output) and add a line to the history saying
//! why; the golden files of `tests/instruments/regress.rs` usually need recording again too.
//!
//! History (newest last):
//! - first signature (the engine of commit f29239c).
//! - the full build added (the article's tree in 16-bit scores: same moves made, 7.0% more
//!   T-states); article and 1978 unchanged.
//! - Cray Blitz's knowledge in the full build (asm/full/knowledge.asm, every weight in the
//!   block): other trees (22604 moves made), 37% more T-states (KNOW costs about 20,000-27,000
//!   T per POINTS); article and 1978 unchanged.
//! - the transposition table and aspiration windows (asm/full/craft.asm), off by default: same
//!   trees, 0.04% more T-states (the flag tests in SRCH, the table cleared on 'N'/'S'/'W').
//! - RACE (asm/full/kpend.asm) in the full build's pawn endings: the pawn-race and KPK bench
//!   positions search other trees (22643 moves made, +0.4% T-states); the draw scores
//!   (asm/full/draw.asm) are off by default and change nothing searched.
//! - time use (asm/full/time.asm): the polls of a timed search's clock, off in the bench: same
//!   trees, +0.06% T-states; the expected reply noted for pondering (+0.004%).
//! - End-Game's Table 1 (asm/full/endgame.asm), the capture extension and best-reply-first in
//!   pawn endings; the draw scores and deep think on by default (P_FLAGS 3Ch): 22647 moves
//!   made, +1.3% T-states.
//! - the K+RP v K draw (RPDRAW, P_RPDRW): same trees, +0.14% T-states (KPEND's test runs at
//!   every pawn-ending evaluation).
//! - K+P v K with the king in front scored as a draw (FRDRAW, P_FRONT): same trees, +0.12%
//!   T-states (KPEND clears one more line at every evaluation).
//! - castling penalties, bad bishops, knight and queen centralisation, rooks behind passed
//!   pawns: 22599 moves made, +6.2% T-states (+6,750 T per evaluation).
//! - K+RP+wrong bishop v K scored as a draw (WBDRAW, P_WBDRW): same trees, +0.12% T-states (its
//!   material test at every evaluation with pieces).
//! - Lüscher's endgame module (asm/full/luscher.asm, P_LUS): same trees, +0.55% T-states
//!   (LUSPRE's look at the board, up to the first pawn or queen or the fifth man, at every
//!   evaluation).
//! - tropism of knights, rooks and queens (KTROP, P_NTROP, P_RTROP, P_QTROP) and luft (KLUFT,
//!   P_LUFT): 22317 moves made, +4.2% T-states (+3,770 T per evaluation on the bench positions:
//!   tropism 2,640, luft's SQATK calls 1,130).
//! - bishops of opposite colours (KOPPB, P_OPPB): same trees, +0.04% T-states (its look at the
//!   material after every knowledge sum).
//! - outside passed pawns (KOUTP, P_OUTP): same trees, +0.31% T-states.
//! - rooks without horizontal mobility (KRHZ, P_RHORZ) and bishops' open diagonals (KDIAG,
//!   P_BDIAG), the knowledge sum's loop made cheaper (KSUMR: 84 T a zero counter, was 122):
//!   22733 moves made (+1.9%), +3.7% T-states (+2,600 T per evaluation on the bench positions:
//!   the diagonals' walk about 3,000, the sum's loop 700 less).
//! - holes in the king's shelter (KHOLE, P_HOLE): 22493 moves made (-1.1%), +0.2% T-states
//!   (+1,150 T per evaluation on the bench positions).
//! - artificially isolated pawns (KAISO, P_AISO): 22488 moves made, +0.43% T-states (+780 T per
//!   evaluation: its test of each file's most advanced pawn).
//! - queen-pawn openings (KQPO, P_QPCP and P_QPKN, 0 outside the d4 block, so the bench's
//!   set-up positions score nothing): same trees, +0.50% T-states (the two byte terms' sum and
//!   KQPO's test of its weights, about 250 T per evaluation, and the sum's store made one
//!   routine, KPUT, for word and byte weights: 27 T per non-zero counter).
//! - a man moved twice in the search path (KDEV2, P_DVTWC -24, the engine's side, until
//!   move 15): 21892 moves made (-2.7%), -0.9% T-states (three of the five bench positions
//!   are at moves 4-10, where it orders and cuts differently).
//! - review: KTERMB sign-extends its byte weight with points.asm's SEXT instead of its own
//!   copy: same trees, +138,306 T (a few T per non-zero byte-weighted counter).
//! - KPEND clears BK_LUS (and, in pawn endings, BK_WBD), which an earlier Lüscher or
//!   wrong-bishop position left standing in `eval`'s breakdown: same trees, +584,922 T
//!   (one more word cleared per evaluation).
//! - the pawn-structure hash (asm/full/pawnhash.asm, P_FLAGS bit 6, on by default): same trees,
//!   -2.76% T-states (with the bit off 2,182,631,259, +1.56%: the pawns' key kept by MOVE and
//!   UNMOVE and KNOW's pawn pass split out).
//! - MULAW multiplies by A's bits from the lowest and stops when none is left (the evaluation's
//!   counts are small: 74 T a call on the bench's dragon instead of 348): same trees, -2.97%.
//! - the queen's worth tied to the enemy king's safety (KQKS, P_QKS 13 in the byte P_AISO held;
//!   artificially isolated pawns became P_FLAGS bit 7): 22588 moves made (+3.2%), +3.0%
//!   T-states (136,100 T per evaluation against 134,900).
//! - the principal variation in a triangular table (asm/full/pv.asm: a row emptied at every
//!   node and below every leaf move, the line copied at every new best) and the test for a set
//!   of root moves (asm/full/roots.asm, one flag test a move played): same trees (moves made,
//!   evaluations, XCHNG calls and scores unchanged here and on WAC 1-100 at level 2),
//!   2,089,046,663 -> 2,091,243,618 T-states (+0.105%).
//! - the search's progress for the host (RTNOTE and SELDEP in SRCH: the root's move and its
//!   number, the deepest ply): same trees, 2,091,243,618 -> 2,091,673,259 T-states (+0.021%).
//! - the 1978 build as the listing ran: ATKSAV's queen flag is the sign of the line's step
//!   while any piece is pinned (the published PNCK overwrote it), and PINFND scans a stale POSQ
//!   square: 1978 18983 -> 18916 moves made (italian 1618 -> 1551: pins arise in the lines it
//!   searches and change exchange values there), 3,278,211,033 -> 3,284,296,184 T-states
//!   (+0.19%; the same trees elsewhere cost +0.02% to +0.52%: the flag's few instructions at
//!   every attacker saved while a pin stands); article and full unchanged.
//! - the full machine grows (a 256-byte parameter block, `P_FLAGS2` at 80h, all off): same
//!   trees, 2,091,673,259 -> 2,091,673,364 T-states (+105 = 21 T in each of the five searches:
//!   SELPRM copies the block's PRMUSED bytes, now 81h, one more LDIR step);
//!   `tests/regress/wac_l2.tsv`'s full lines +21 T each; article and 1978 unchanged.
//! - the KPK bitbase on by default (`P_FLAGS2` bit 0, asm/full/kpkbase.asm): the `pawnrace`
//!   position's tree (3k4/8/8/7P/8/8/1p6/1K6 w, level 4) reaches K+P v K after Kxb2, which the
//!   bitbase scores as the draw it is (the KPK table: Ke7 catches the h-pawn), so the engine
//!   plays h5-h6 (which wins) instead of Kxb2: 277 -> 268 moves made; 22,588 -> 22,579 moves,
//!   2,091,673,364 -> 2,088,121,297 T-states; the other four searches the same trees and
//!   T-states; article and 1978 unchanged.
//! - cheap interior ordering (asm/full/order.asm, `P_FLAGS2` bit 1, off by default): with the
//!   bit off the same trees, 2,088,121,297 -> 2,088,173,705 T-states (+52,408, +0.0025%: SRCH
//!   tests the bit once a node with moves, once a cut-off and once an illegal move below the
//!   root; italian +5,828, dragon +10,669, kiwipete +2,616, wac001 +29,624, pawnrace +3,671);
//!   article and 1978 unchanged.
//! - lazy evaluation (`P_FLAGS2` bit 3, off; asm/full/lazy.asm): the bit's test at POINTS.pb0
//!   costs 30 T a POINTS call with the bit off: same trees, 2,088,121,297 -> 2,088,580,867
//!   T-states (+459,570 = 30 T x 15,319 calls); `tests/regress/wac_l2.tsv`'s full lines +30 T
//!   per evaluation; article and 1978 unchanged. With the ordering's tests: 2,088,633,275 T
//!   (the two additions' sum, +512,000 T, +0.025%).
//! - the full build's SRCH reads the host's "move now" before every move and SORTM before every
//!   entry (a stop waited for a whole node's ordering or leaves, up to 6.4 M T): same trees,
//!   2,088,633,275 -> 2,089,481,945 T-states (+848,670: 30 T a move tried and an entry sorted);
//!   the KBNK procedure's six bytes of the parameter block (off by default; PRMUSED 81h -> A6h,
//!   SELPRM copies 37 more bytes, 777 T a search): 2,089,485,830 (+3,885); article and 1978
//!   unchanged.
//! - the KBBK procedure's six bytes of the parameter block at B0h (PRMUSED A6h -> B6h, SELPRM
//!   copies 16 more bytes, 336 T a search; the middlegames never reach KBBKEV): 2,089,487,510
//!   (+1,680 = 5 x 336); article and 1978 unchanged.
//! - ordering, quiescence and lazy evaluation on by default (`P_FLAGS2` 01h -> 0Fh) after 200
//!   games at 40/7200 against the full of before (+118 =44 -38, 70.0%): new trees, 22,579 ->
//!   13,673 moves made, 2,089,487,510 -> 1,079,444,548 T-states (51.7%; italian 84.5%, dragon
//!   54.9%, kiwipete 178.5% (level 2: quiescence below it), wac001 39.0%, pawnrace 71.9%); the
//!   same five moves. With `tests/full/before35.params` (bits 1-3 off) the ROM plays the old
//!   trees exactly ([`before35_params_play_the_bench_as_before`]).
//! - the cheap stage of a quiescence node (`P_FLAGS2` bit 4 `F2_CEVAL`, off;
//!   asm/full/ceval.asm): its bit's test costs 55 T a quiescence node with the bit off: same
//!   trees, 1,079,444,548 -> 1,079,891,148 T-states (+446,600); `wac_l2.tsv`'s full lines
//!   re-recorded (T-states only); with bits 1-3 off no quiescence node, no cost; article and
//!   1978 unchanged.

use z80chess::firmware::{parse_fen, sargon, Build};
use z80chess::profile::bench::{signature, POSITIONS};

/// (build, moves made, T-states).
const EXPECTED: [(Build, u64, u64); 3] = [
    (Build::Article, 19702, 1231501611),
    (Build::B1978, 18916, 3284296184),
    (Build::Full, 13673, 1079891148),
];

#[test]
fn the_engine_signature_is_pinned() {
    assert!(POSITIONS.len() >= 4);
    let mut wrong = Vec::new();
    for (build, nodes, tstates) in EXPECTED {
        let s = signature(build).unwrap();
        for l in &s.lines {
            println!(
                "{build} {} L{}: {} nodes {} T {}",
                l.name, l.level, l.mv, l.nodes, l.tstates
            );
        }
        println!("{}", s.line());
        // The cost per evaluation: the period builds' evaluations never leave early or stand
        // pat, so their T-states per evaluation are the search's over its POINTS calls; the
        // full build's (lazy evaluation and quiescence on by default) do both.
        let cost = s.cost();
        println!("{build} {}", cost.line());
        if build == Build::Full {
            assert!(
                cost.lazy > 0 && cost.stand_pat > 0,
                "{build}: {}",
                cost.line()
            );
        } else {
            assert_eq!((cost.lazy, cost.stand_pat), (0, 0), "{build}");
        }
        assert_eq!(
            (cost.tstates, cost.evaluations, cost.nodes),
            (s.tstates, s.evaluations, s.nodes),
            "{build}"
        );
        if (s.nodes, s.tstates) != (nodes, tstates) {
            wrong.push(format!(
                "{build}: nodes {} tstates {} (expected nodes {nodes} tstates {tstates})",
                s.nodes, s.tstates
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "the engine's signature changed:\n{}\nIf the change is intended, update EXPECTED in \
         tests/engine/signature.rs and say why in its history.",
        wrong.join("\n")
    );
}

/// The ROM with ordering, quiescence and lazy evaluation off (`tests/full/before35.params`)
/// plays the bench as the ROM of before the defaults changed did, move for move: the same best
/// moves, moves made and evaluations per position, recorded from that ROM (b9d45cf,
/// `z80chess bench`), the same T-states; and within 2% of the T-states of the ROM from before
/// the machine grew (2,091,673,259, this file's history: the machine then had neither the grown
/// block nor the KPK bitbase, whose one change of tree is pawnrace's).
#[test]
fn before35_params_play_the_bench_as_before() {
    const BEFORE: [(&str, &str, u32, u32); 5] = [
        ("italian", "b1c3", 1680, 2218),
        ("dragon", "c6d4", 3777, 3808),
        ("kiwipete", "e2a6", 271, 228),
        ("wac001", "g3g6", 16583, 8844),
        ("pawnrace", "h5h6", 268, 221),
    ];
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/full/before35.params");
    let text = std::fs::read_to_string(path).unwrap();
    let pf = z80chess::firmware::params::ParamFile::parse(&text, path).unwrap();
    let s = z80chess::profile::bench::signature_with(Build::Full, Some(&pf)).unwrap();
    let got: Vec<_> = s
        .lines
        .iter()
        .map(|l| (l.name, l.mv.as_str(), l.nodes, l.evaluations))
        .collect();
    assert_eq!(got, BEFORE);
    let cost = s.cost();
    assert_eq!((cost.lazy, cost.stand_pat), (0, 0));
    assert_eq!(s.tstates, 2_089_487_510);
    let issue = 2_091_673_259f64;
    let ratio = s.tstates as f64 / issue;
    assert!((0.98..=1.02).contains(&ratio), "{ratio}");
    // And the defaults are not these: the new trees differ.
    assert_ne!(signature(Build::Full).unwrap().nodes, s.nodes);
}

#[test]
fn bench_positions_are_past_the_book() {
    // At move number 1 the book answers with a move that depends on the R register.
    for (name, fen, level) in POSITIONS {
        let pos = parse_fen(fen).unwrap();
        assert!(!sargon::is_book_position(&pos), "{name}");
        assert!(sargon::move_number(&pos) > 1, "{name}");
        assert!((1..=8).contains(level), "{name}");
    }
}
