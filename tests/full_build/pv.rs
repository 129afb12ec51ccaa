//! The principal variation: the full build keeps its line in Z80 (a triangular table,
//! `asm/full/pv.asm`) and reports it per depth and with its move; the period builds report the
//! move alone. The oracle is shakmaty: every line is played out from the root.
//!
//! What can be proved of the line at a fixed level (the table and aspiration off, as by
//! default): every node on it below the level took a move that raised its running best (a node
//! that raised nothing returns its parent's cut-off bound, and the parent cuts), so the line
//! has at least `depth` moves unless it ends in mate or stalemate or in a draw the firmware
//! scores by the path (a repetition, the 50-move rule). A mate score MATE − n comes from a
//! mated node n plies down the line: the line has exactly n moves and ends in checkmate.

use shakmaty::{Chess, Position};
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine, FwMove, Score, SearchKind};
use z80chess::profile::bench::POSITIONS;

/// Play `pv` from `pos`: the position at its end, and whether a position repeated on the way.
fn play(pos: &Chess, pv: &[FwMove], what: &str) -> (Chess, bool) {
    let mut p = pos.clone();
    let mut seen = vec![p.board().clone()];
    let mut repeated = false;
    for (i, m) in pv.iter().enumerate() {
        let mv = m.to_move(&p).unwrap_or_else(|| {
            panic!(
                "{what}: move {} ({}) of {pv:?} is not legal",
                i + 1,
                m.uci()
            )
        });
        p.play_unchecked(mv);
        repeated |= seen.contains(p.board());
        seen.push(p.board().clone());
    }
    (p, repeated)
}

fn load(build: Build, fen: &str) -> (Chess, Engine) {
    let pos = parse_fen(fen).unwrap();
    let mut e = Engine::new(build).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    (pos, e)
}

/// The line of a completed depth `depth` (or of the search's move, `depth` its last depth):
/// legal, `best` first, and as long as the argument above says.
fn check_line(pos: &Chess, depth: u8, best: FwMove, score: Score, pv: &[FwMove], what: &str) {
    assert_eq!(
        pv.first(),
        Some(&best),
        "{what}: the line does not begin with the move"
    );
    let (end, repeated) = play(pos, pv, what);
    assert!(pv.len() <= 10, "{what}: {} moves", pv.len());
    if let (Some(true), Some(n)) = (score.mate(), score.mate_plies()) {
        assert_eq!(
            pv.len() as i32,
            n,
            "{what}: a mate in {n} plies, a line of {pv:?}"
        );
        assert!(
            end.is_checkmate(),
            "{what}: the mate line does not end in mate"
        );
    }
    let ends = end.is_checkmate() || end.is_stalemate() || repeated || end.halfmoves() >= 100;
    assert!(
        pv.len() >= depth as usize || ends,
        "{what}: depth {depth}, a line of {} moves that ends in nothing: {pv:?}",
        pv.len()
    );
}

#[test]
fn every_depth_s_line_is_legal_and_begins_with_its_move() {
    for (name, fen, _) in POSITIONS {
        // Depths 1-4 in one iterating search (each depth its own tree, reported by 'R').
        let (pos, mut e) = load(Build::Full, fen);
        let r = e.search(4, true).unwrap();
        assert_eq!(r.kind, SearchKind::Searched, "{name}");
        assert_eq!(r.depths.len(), 4, "{name}");
        for d in &r.depths {
            let what = format!("{name} depth {}", d.depth);
            check_line(&pos, d.depth, d.best, d.score, &d.pv, &what);
            println!(
                "{what}: {}",
                d.pv.iter().map(|m| m.uci()).collect::<Vec<_>>().join(" ")
            );
        }
        let last = r.depths.last().unwrap();
        assert_eq!(r.pv, last.pv, "{name}: the move's line is the last depth's");
        check_line(&pos, 4, r.best, r.score, &r.pv, name);
        // The reply to ponder on is the line's second move.
        assert_eq!(r.reply, r.pv.get(1).copied(), "{name}: reply and line");
    }
}

#[test]
fn a_fixed_level_gives_the_same_line_as_that_depth() {
    for (name, fen, level) in POSITIONS {
        let (pos, mut e) = load(Build::Full, fen);
        let r = e.search(*level, false).unwrap();
        check_line(&pos, *level, r.best, r.score, &r.pv, name);
        let (_, mut again) = load(Build::Full, fen);
        let it = again.search(*level, true).unwrap();
        // Iterating searches other trees below the last depth only in pawn endings (End-Game's
        // best reply first, kept between depths), so compare where the moves agree.
        if it.best == r.best && it.score == r.score {
            assert_eq!(it.pv, r.pv, "{name}");
        }
    }
}

/// Mates the full build finds at levels 2 and 3: in one ply, and in three (through a
/// sacrifice, or a quiet first move).
const MATES: &[(&str, &str, u8)] = &[
    ("back rank", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30", 2),
    ("rook and king", "7k/8/6K1/8/8/8/8/R7 w - - 0 60", 2),
    ("smothered", "r5rk/6pp/7N/8/8/1Q6/8/6K1 w - - 0 30", 2),
    (
        "Philidor's legacy",
        "5r1k/6pp/7N/8/8/1Q6/8/6K1 w - - 0 30",
        3,
    ),
    (
        "doubled rooks",
        "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 30",
        3,
    ),
    ("rook roller", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 40", 3),
    (
        "queen sacrifice",
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 15",
        3,
    ),
    ("black mates", "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30", 2),
];

#[test]
fn a_mate_s_line_ends_in_checkmate() {
    let mut longest = 0;
    for (name, fen, level) in MATES {
        let (pos, mut e) = load(Build::Full, fen);
        let r = e.search(*level, true).unwrap();
        let line: Vec<String> = r.pv.iter().map(|m| m.uci()).collect();
        println!("{name}: {} {:?} {}", r.best.uci(), r.score, line.join(" "));
        assert_eq!(
            r.score.mate(),
            Some(true),
            "{name}: no mate found ({:?})",
            r.score
        );
        longest = longest.max(r.pv.len());
        check_line(&pos, *level, r.best, r.score, &r.pv, name);
        for d in &r.depths {
            check_line(
                &pos,
                d.depth,
                d.best,
                d.score,
                &d.pv,
                &format!("{name} d{}", d.depth),
            );
        }
    }
    assert_eq!(longest, 3, "the mates in three plies");
}

#[test]
fn the_period_builds_give_the_move_alone() {
    for build in Build::PERIOD {
        let (_, mut e) = load(build, POSITIONS[0].1);
        let r = e.search(2, true).unwrap();
        assert_eq!(r.pv, vec![r.best], "{build}");
        for d in &r.depths {
            assert_eq!(d.pv, vec![d.best], "{build}");
        }
    }
}

#[test]
fn the_book_s_line_is_its_move() {
    let mut e = Engine::new(Build::Full).unwrap();
    e.new_game().unwrap();
    let r = e.search(3, true).unwrap();
    assert_eq!(r.kind, SearchKind::Book);
    assert_eq!(r.pv, vec![r.best]);
    // A search after it (move number 2) has a line of its own, not the last search's.
    e.play(r.best).unwrap();
    let pos = {
        let mut p = Chess::default();
        p.play_unchecked(r.best.to_move(&p).unwrap());
        p
    };
    let s = e.search(2, true).unwrap();
    assert_eq!(s.kind, SearchKind::Book, "Black's book move");
    assert_eq!(s.pv, vec![s.best]);
    assert!(s.best.to_move(&pos).is_some());
}

mod parse {
    use proptest::prelude::*;
    use z80chess::firmware::{parse_depth, parse_search, Build, FwMove};

    /// A full-build 'R' report of depth 3 with a line of `n` moves.
    fn report(n: u8) -> Vec<u8> {
        let mut r = vec![b'R', 3, 35, 55, 0, 0x10, 0x01, n];
        for k in 0..n {
            r.extend([21 + k, 31 + k, 0]);
        }
        r
    }

    #[test]
    fn a_report_is_read_only_when_all_of_it_has_come() {
        let r = report(4);
        let (d, next) = parse_depth(Build::Full, &r, 0).unwrap();
        assert_eq!((d.depth, next, d.pv.len()), (3, r.len(), 4));
        assert_eq!(
            d.pv[3],
            FwMove {
                from: 24,
                to: 34,
                promo: 0
            }
        );
        for cut in 0..r.len() {
            assert!(
                parse_depth(Build::Full, &r[..cut], 0).is_none(),
                "{cut} bytes"
            );
        }
        // The period builds' report has no line: its move alone.
        let (d, next) = parse_depth(Build::Article, &r[..6], 0).unwrap();
        assert_eq!((next, d.pv), (6, vec![d.best]));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]
        /// Whatever bytes come, the search reply's parser answers (an error or a result),
        /// never panics.
        #[test]
        fn parse_search_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64),
                                     head in 0usize..3) {
            let mut r: Vec<u8> = match head { 0 => vec![], 1 => report(2), _ => vec![b'E'] };
            r.extend(bytes);
            for build in Build::ALL {
                let _ = parse_search(build, &r, 0);
                let _ = parse_depth(build, &r, 0);
            }
        }
    }
}

/// With the transposition table and aspiration windows on (P_FLAGS bits 0 and 1, off by
/// default), a node whose value comes from the table has no line below it: lines may be short,
/// but each is still legal and begins with its move. Over a game of its own (the table lives
/// from search to search), from two bench positions.
#[test]
fn with_the_table_on_every_line_is_still_legal() {
    let mut shorter = 0;
    for (name, fen, _) in &POSITIONS[..2] {
        let mut e = Engine::new(Build::Full).unwrap();
        let pf = ParamFile::parse("P_FLAGS = 0xFF\n", "(test)").unwrap();
        e.load_params(&pf).unwrap();
        let mut pos = parse_fen(fen).unwrap();
        sargon::load(&mut e, &pos).unwrap();
        for ply in 0..6 {
            let r = e.search(3, true).unwrap();
            for d in &r.depths {
                let what = format!("{name} ply {ply} depth {}", d.depth);
                assert_eq!(d.pv.first(), Some(&d.best), "{what}");
                play(&pos, &d.pv, &what);
                shorter += (d.pv.len() < d.depth as usize) as usize;
            }
            assert_eq!(r.pv.first(), Some(&r.best), "{name} ply {ply}");
            play(&pos, &r.pv, name);
            let m = r.best.to_move(&pos).unwrap();
            e.play(r.best).unwrap();
            pos.play_unchecked(m);
        }
    }
    println!("{shorter} lines cut short by the table");
}
