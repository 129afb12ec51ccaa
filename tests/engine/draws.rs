//! The game's history in the full build's firmware, and draws (repetition, the 50-move rule)
//! scored by ply (`asm/full/draw.asm`, `P_FLAGS` bit 2).
//!
//! Each row: a position, the moves played into the firmware after it (the history), and
//! the move the full build chooses with the draw scores on and off.

use shakmaty::{uci::UciMove, Chess, Position};
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine, FwMove};

/// The engine with P_FLAGS = `flags` (and bit 7, the default block's artificially isolated
/// pawns), the position set up, `moves` played into it.
fn engine(flags: u8, fen: &str, halfmove: Option<u32>, moves: &[&str]) -> Engine {
    let mut e = Engine::new(Build::Full).unwrap();
    let text = format!("[default]\nP_FLAGS = {}\n", flags | 0x80);
    e.load_params(&ParamFile::parse(&text, "flags").unwrap())
        .unwrap();
    let mut pos: Chess = parse_fen(fen).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    if let Some(h) = halfmove {
        e.set_halfmove_clock(h).unwrap();
    }
    for m in moves {
        let m = m
            .parse::<UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap_or_else(|_| panic!("{m} is not legal"));
        e.play(FwMove::from_move(&m)).unwrap();
        pos.play_unchecked(m);
    }
    e
}

fn best(flags: u8, fen: &str, halfmove: Option<u32>, moves: &[&str], level: u8) -> (String, i32) {
    let r = engine(flags, fen, halfmove, moves)
        .search(level, false)
        .unwrap();
    (r.best.uci(), r.score.raw())
}

/// (what it shows, FEN, moves played into the firmware, level, the move with draw scores on
/// (P_FLAGS bit 2), the move with them off).
type Row = (
    &'static str,
    &'static str,
    &'static [&'static str],
    u8,
    &'static str,
    &'static str,
);

const ROWS: &[Row] = &[
    // A rook down: Kg1-h1 repeats the position after 1.Kh1 (the kings went h1/h8 and back).
    (
        "behind, the engine takes a repetition",
        "r5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 30",
        &["g1h1", "g8h8", "h1g1", "h8g8"],
        2,
        "g1h1",
        "g1f1",
    ),
    // A pawn up with everything blocked: Kh1-g2 (the centralising move) repeats the
    // position after 1.Kg2, so the engine steps round it.
    (
        "ahead, the engine steps round a first repetition",
        "6k1/8/2p3p1/2P2pPp/2P2P1P/8/8/7K w - - 0 40",
        &["h1g2", "g8h7", "g2h1", "h7g8"],
        3,
        "h1h2",
        "h1g2",
    ),
    // A rook up, 99 plies without a capture or pawn move (the FEN's clock): any other move
    // draws by the 50-move rule, so a pawn moves.
    (
        "ahead, the 50-move rule is seen",
        "7k/6p1/7p/8/8/8/P5PP/1R4K1 w - - 99 60",
        &[],
        2,
        "a2a4",
        "g1f2",
    ),
];

#[test]
fn draw_scores_change_the_move_they_should() {
    let mut bad = Vec::new();
    for &(what, fen, moves, level, on, off) in ROWS {
        // draws alone, and with the transposition table (which must not change the move)
        for flags in [4u8, 5] {
            let (m, _) = best(flags, fen, None, moves, level);
            if m != on {
                bad.push(format!("{what}: P_FLAGS {flags} plays {m}, want {on}"));
            }
        }
        let (m, _) = best(0, fen, None, moves, level);
        if m != off {
            bad.push(format!("{what}: without draw scores {m}, want {off}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_history_follows_moves_taken_back_and_the_clock_set() {
    let (fen, moves) = (ROWS[0].1, ROWS[0].2);
    // Taking the four moves back forgets the positions they made: no repetition left; playing
    // them again brings it back.
    let mut e = engine(4, fen, None, moves);
    for _ in 0..4 {
        e.undo().unwrap();
    }
    assert_eq!(
        e.search(2, false).unwrap().best.uci(),
        "g1f1",
        "after taking the moves back"
    );
    let mut e = engine(4, fen, None, &[]);
    let mut pos: Chess = parse_fen(fen).unwrap();
    for m in moves {
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        e.play(FwMove::from_move(&m)).unwrap();
        e.undo().unwrap();
        e.play(FwMove::from_move(&m)).unwrap();
        pos.play_unchecked(m);
    }
    assert_eq!(
        e.search(2, false).unwrap().best.uci(),
        "g1h1",
        "each move taken back and replayed"
    );
    // An irreversible move taken back (a GUI's take-back, a ponderer's expected reply that did
    // not come) leaves the history as it was: the repetition is still seen.
    let h3 = "h2h3".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    e.play(FwMove::from_move(&h3)).unwrap();
    e.undo().unwrap();
    assert_eq!(
        e.search(2, false).unwrap().best.uci(),
        "g1h1",
        "a pawn move taken back"
    );
    // A clock set by 'H' (a FEN's halfmove field) reaches the 50-move rule.
    let fifty = ROWS[2].1.replace(" 99 60", " 0 60");
    assert_eq!(best(4, &fifty, None, &[], 2).0, "g1f2", "clock 0");
    assert_eq!(
        best(4, &fifty, Some(99), &[], 2).0,
        "a2a4",
        "clock 99 by 'H'"
    );
}

#[test]
fn a_drawn_line_scores_the_draw_window_not_the_position() {
    // Behind by a rook, the repetition scores the draw (ply 2) measured from the root's value:
    // far above what the position itself is worth to the engine.
    let (what, fen, moves, level, on, _) = ROWS[0];
    let r = engine(4, fen, None, moves).search(level, false).unwrap();
    assert_eq!(r.best.uci(), on, "{what}");
    let off = engine(0, fen, None, moves).search(level, false).unwrap();
    assert!(
        r.score.raw() > off.score.raw() + 1000,
        "draw {} against {}",
        r.score.raw(),
        off.score.raw()
    );
}
