//! John White's End-Game evaluation (its Table 1) in the full build (`asm/full/endgame.asm`),
//! and End-Game's two search additions (P_FLAGS bit 4, the capture extension; bit 5,
//! best-reply-first at the second ply).
//!
//! - Per term a data row (FEN, level, expected move): with the default block the full build
//!   plays the move that carries the term's idea; with only that term's weight at 0 it does not.
//! - `eval` shows each term with the value worked out by hand on hand-made positions; the terms
//!   are 0 outside king-and-pawn endings and once RACE has found a certain win.
//! - Best-reply-first changes no move and no score, only the nodes, and saves them at level 2.

use crate::common::terms;
use terms::{engine, engine_with, term, Row};
use z80chess::firmware::eval::{Evaluation, ENDGAME_TERMS};

/// (term, its weights, level, the default block's move, FEN, what the move shows).
/// The positions were drawn at random among king-and-pawn endings and kept when the term alone
/// turns the move; the comment says what the move does for the term.
const ROWS: &[Row] = &[
    // d5-d6 takes the pawn out of the e6 pawn's attack (rather than d5xe6).
    (
        "approach",
        &["P_EGAPP"],
        1,
        "d5d6",
        "8/7k/P3p3/3P2Pp/p7/8/1K6/8 w - - 0 40",
    ),
    // b4xc5 rather than b4xa5: the pawn stays off the edge (and Black's a-pawn stays on it).
    (
        "edge",
        &["P_EGEDG"],
        1,
        "b4c5",
        "7k/8/8/p1p5/1P6/8/4K3/8 w - - 0 40",
    ),
    // b2-b4, the double step: the square of the rank grows faster than the rank.
    (
        "advance",
        &["P_EGADV"],
        1,
        "b2b4",
        "8/5pk1/8/6K1/3P4/P7/1P6/8 w - - 0 40",
    ),
    // ...b4-b3 leaves White's c-pawns doubled (...b4xc3 would undouble them).
    (
        "one file",
        &["P_EGDBL"],
        1,
        "b4b3",
        "6k1/3p4/7P/2P5/1p2p3/2P5/3K4/8 b - - 0 40",
    ),
    // ...Kb8-b7 stands in the channel of White's a-pawns, so it is no longer free.
    (
        "free channel",
        &["P_EGFRE"],
        1,
        "b8b7",
        "1k6/8/8/1K2p1P1/P3p1p1/P7/8/8 b - - 0 40",
    ),
    // ...Kc2-b3 goes in front of its a-pawn's channel: "assisted, king scores high".
    (
        "channel, nearest men",
        &["P_EGCH1"],
        1,
        "c2b3",
        "8/1K2P1P1/8/4P3/p7/8/2k5/8 b - - 0 40",
    ),
    // Ka7-b6 keeps the g- and h-pawns side by side (g4-g5 would leave the h-pawn behind).
    (
        "channel, pawn majority",
        &["P_EGCH2"],
        1,
        "a7b6",
        "8/K5k1/8/8/6PP/5p2/5P2/8 w - - 0 40",
    ),
    // ...Ka3-b3 takes the opposition against Kb1.
    (
        "opposition",
        &["P_EGOPP"],
        1,
        "a3b3",
        "8/8/8/8/8/k3P3/8/1K6 b - - 0 40",
    ),
    // ...Kc7-c6 goes next to the enemy pawn (rather than ...h7-h5; the h-pawn keeps FRDRAW's
    // king-in-front draw, which would also choose ...Kc6, out of it).
    (
        "king by enemy pawns",
        &["P_EGENE"],
        1,
        "c7c6",
        "8/2k4p/8/2P5/8/8/8/3K4 b - - 0 40",
    ),
    // Ka3-b4 joins its own c5 pawn.
    (
        "king by own pawns",
        &["P_EGENO"],
        1,
        "a3b4",
        "8/8/8/2P3P1/6p1/K2p2P1/8/6k1 w - - 0 40",
    ),
    // ...Kg6-f6 steps onto the centre 16 squares (not f7).
    (
        "king in the centre",
        &["P_EGCEN"],
        1,
        "g6f6",
        "8/8/6k1/2P5/6P1/3KP3/8/8 b - - 0 40",
    ),
    // Ke1-f2 heads for the nearest men, Black's king and h-pawn (Kd2 without the ripple).
    (
        "king ripple",
        &["P_EGRIP"],
        1,
        "e1f2",
        "8/8/8/5k1p/2P5/8/8/4K3 w - - 0 40",
    ),
    // The capture extension: Kc4xc3 searched two plies further lets ...g2-g1=Q in; b6-b7
    // instead. With the flags at 0 the capture is scored where it stands and played.
    (
        "capture extension",
        &["P_FLAGS = 0x80"], // the search additions off, bit 7 as by default
        1,
        "b6b7",
        "8/8/1P3k2/3P4/2K5/2p5/6p1/8 w - - 0 40",
    ),
];

#[test]
fn each_term_changes_the_move_it_should() {
    terms::each_term_changes_the_move(ROWS);
}

fn eval(fen: &str) -> Evaluation {
    engine(fen, &[]).eval().unwrap()
}

/// End-Game's terms in `eval`: the pawn-ending terms after RACE's.
fn eg() -> &'static [&'static str] {
    &ENDGAME_TERMS[1..13]
}

/// Every End-Game term of `fen`, in the order of `eg()`, checked against the values worked out by
/// hand (White's view; 'Q' evaluates as if the side not to move had just moved, and the engine's
/// side is the side to move).
fn check(fen: &str, want: [i32; 12], bad: &mut Vec<String>) {
    // RACE off: a position it calls won shows no End-Game terms (they stand aside)
    let e = engine_with(fen, "P_RACE = 0\n").eval().unwrap();
    let got: Vec<i32> = eg().iter().map(|n| term(&e, n)).collect();
    if got != want {
        bad.push(format!("{fen}: {got:?}, want {want:?}\n{}", e.report()));
    }
}

#[test]
fn eval_shows_each_term_with_its_sign() {
    let mut bad = Vec::new();
    // White's a2 pawn: a rook pawn (-26), Y = 2 (4 * 3), its channel a-b free (+77); White's
    // king (the engine's, to move) has the pawn in its 4th ring: (8 - 4) * 1 * 3.
    check(
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 40",
        [0, -26, 12, 0, 77, 0, 0, 0, 0, 0, 0, 12],
        &mut bad,
    );
    // White's c2, c3 (White has just moved): (2-1)*2 = 2 on one file (-102); Y = 2, 3:
    // (4 + 9) * 3; both channels free of black men (2 * 77); c2 meets c3 first and counts it
    // (+26 each scan); Ke3 and Ke5 in opposition, White's; both kings central (0); Black's king
    // (to move) has Ke3 and c3 in its 2nd ring: -(8 - 2) * (3 + 1) * 3.
    check(
        "8/8/8/4k3/8/2P1K3/2P5/8 b - - 0 40",
        [0, 0, 39, -102, 154, 26, 26, 26, 0, 0, 0, -72],
        &mut bad,
    );
    // Black's king on e4 in front of White's e3 (White has just moved): the pawn attacked by
    // the king (-77), Y = 3 (27), its channel's nearest man the enemy king (-3 * 26), the
    // enemy pawn next to Black's king (-51), Black's king central (-9), and its ripple, the
    // pawn in ring 1: -(8 - 1) * 1 * 3.
    check(
        "8/8/8/8/4k3/4P3/8/4K3 b - - 0 40",
        [-77, 0, 27, 0, 0, -78, 0, 0, -51, 0, -9, -21],
        &mut bad,
    );
    // Own pawns next to the king: White's Kd4 by its d3 and e3 (2 * 17), the king central
    // (+9). Y = 3 twice (2 * 9 * 3); both channels free (2 * 77), each meeting the own king
    // first on the d-file (2 * 3 * 26); side by side, each counts the other (2 * 26). Black is
    // to move: the ripple is Black's Kh8's, White's king in its 4th ring: -(8 - 4) * 3 * 3.
    check(
        "7k/8/8/8/3K4/3PP3/8/8 b - - 0 40",
        [0, 0, 54, 0, 154, 156, 52, 0, 0, 34, 9, -36],
        &mut bad,
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn end_game_is_silent_outside_pawn_endings_and_after_a_certain_race() {
    // A rook on the board: no pawn-ending term at all.
    let e = eval("4k3/8/8/8/8/8/P7/R3K3 w - - 0 40");
    for n in eg() {
        assert_eq!(term(&e, n), 0, "{n}\n{}", e.report());
    }
    // a7 queens for certain (RACE): End-Game's heuristics are left out.
    let e = eval("4k3/P7/8/8/8/8/8/7K w - - 0 40");
    assert_eq!(
        term(&e, "pawn ending: race won for certain"),
        1536,
        "{}",
        e.report()
    );
    for n in eg() {
        assert_eq!(term(&e, n), 0, "{n}\n{}", e.report());
    }
    // ... and so a promotion is worth more than two free pawns on the 6th and 7th.
    let best = engine("8/P7/4P3/k7/5P2/8/5K2/8 w - - 0 40", &[])
        .search(1, false)
        .unwrap();
    assert_eq!(best.best.uci(), "a7a8q");
}

/// Positions for best-reply-first: the bench's middlegames and pawn endings, at level 2 where
/// ply 2 is the leaf ply.
const BRF: &[&str] = &[
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 20",
    "8/5k2/8/3p4/3P4/8/5K2/8 w - - 0 40",
    "8/p4k2/1p6/8/2P5/1P6/P4K2/8 b - - 0 40",
    "8/5pk1/6p1/4P3/5P2/6K1/8/8 w - - 0 40",
];

#[test]
fn best_reply_first_keeps_every_move_and_score_and_saves_nodes() {
    let (mut on, mut off) = (0u64, 0u64);
    for fen in BRF {
        for (a, b) in [
            ("P_FLAGS = 0xA0\n", "P_FLAGS = 0x80\n"),
            ("P_FLAGS = 0xB0\n", "P_FLAGS = 0x90\n"),
        ] {
            let x = engine_with(fen, a).search(2, false).unwrap();
            let y = engine_with(fen, b).search(2, false).unwrap();
            assert_eq!(x.best.uci(), y.best.uci(), "{fen} {a:?} {b:?}");
            assert_eq!(x.score, y.score, "{fen} {a:?} {b:?}");
            on += x.nodes as u64;
            off += y.nodes as u64;
        }
    }
    // Measured when written: 1,848 moves made against 2,422 (-24%).
    assert!(
        on * 10 < off * 9,
        "best reply first {on} moves made, without {off}"
    );
}
