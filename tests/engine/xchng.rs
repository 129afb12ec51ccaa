//! The exchange evaluator on the Z80 (ATTACK, ATKSAV, PNCK, PINFND, XCHNG, NEXTAD) against the
//! host's references written from the documents (`z80chess::reference`), and against the
//! textbook SEE of `tests/data/chess/see.tsv`.
//!
//! Run `cargo test --test engine xchng:: -- --nocapture` to see the see.tsv report.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::FromSetup;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Setup,
    Square,
};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use z80chess::chess::{self, Attackers};
use z80chess::cli::xchng::{z80_array_exchange, z80_exchange};
use z80chess::firmware::{mailbox, Build, Engine};
use z80chess::reference::attack::{self, Filling};
use z80chess::reference::compare::{self, square_chain, unit_cp, Chain, Class};
use z80chess::reference::see;
use z80chess::reference::xchng::{self, PVALUE};

const DATA: &str = "tests/data/chess";
const FIG4: &str = "r1r3k1/pp1nqb1p/5pp1/1PNp4/1Q1Pn3/3BP2P/3N1PP1/1RR3K1 w - - 5 24";
const FIG4_ARRAY: Attackers = Attackers([3, 0, 0x33, 0x03, 0, 0, 0, 2, 1, 0, 0, 0, 9, 0]);

fn engine(build: Build) -> Engine {
    Engine::new(build).expect("boot")
}

fn parse(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn data(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(DATA)
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Figure 4: Keres - Najdorf, Margate 1939, after 23...Ne4; the battle on e4.

/// The game's position after `plies` half-moves.
fn keres_najdorf(plies: usize) -> Chess {
    let pgn = data("keres_najdorf_margate1939.pgn");
    let mut pos = Chess::default();
    let mut n = 0;
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        for tok in line.split_whitespace() {
            let mv = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if mv.is_empty() || ["1-0", "0-1", "1/2-1/2", "*"].contains(&mv) {
                continue;
            }
            if n == plies {
                return pos;
            }
            let san: San = mv.parse().unwrap_or_else(|e| panic!("{mv}: {e}"));
            let m = san.to_move(&pos).unwrap_or_else(|e| panic!("{mv}: {e}"));
            pos = pos.play(m).unwrap();
            n += 1;
        }
    }
    assert_eq!(n, plies, "the game has only {n} plies");
    pos
}

#[test]
fn figure_4_is_the_game_after_23_ne4() {
    // 23...Ne4 is Black's 23rd move: 46 plies.
    let pos = keres_najdorf(46);
    assert_eq!(fen_of(&pos), FIG4);
}

#[test]
fn figure_4_on_the_z80() {
    let pos = keres_najdorf(46);
    for (build, trace, residue) in [
        (Build::Article, vec![3, 0, 1], 1),
        (Build::B1978, vec![6, 0, 2], 2),
    ] {
        let mut e = engine(build);
        e.set_position(&pos).unwrap();
        let z = z80_exchange(&mut e, Square::E4).unwrap();
        assert_eq!(
            z.atklst, FIG4_ARRAY,
            "{build}: the article's attacker array (Figure 4)"
        );
        assert_eq!(
            z.trace,
            trace.clone(),
            "{build}: residue after each iteration"
        );
        assert_eq!(z.residue, residue, "{build}");
        // The references say the same.
        let model = attack::atklst(pos.board(), Square::E4, Filling::from(build));
        assert_eq!(model.atklst, FIG4_ARRAY, "{build}: attack model");
        let x = xchng::xchng(chess::Piece(0x82), &FIG4_ARRAY, build == Build::B1978);
        assert_eq!(
            (x.trace, x.residue),
            (trace.clone(), residue),
            "{build}: listing model"
        );
        // And 'Y' on the bare array.
        let (r, t) = z80_array_exchange(&mut e, chess::Piece(0x82), &FIG4_ARRAY).unwrap();
        assert_eq!(
            (r, t),
            (residue, trace),
            "{build}: 'Y' on the article's array"
        );
        println!(
            "{build}: {} -> trace {:?}, residue {}",
            z.atklst.hex(),
            z.trace,
            z.residue
        );
    }
}

/// The `xchng` subcommand: Figure 4 in full, and refusals with a non-zero exit.
#[test]
fn cli_xchng() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
            .arg("xchng")
            .args(args)
            .output()
            .expect("run z80chess");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = run(&["--fen", FIG4, "--square", "e4"]);
    assert_eq!(code, Some(0), "{out}");
    for want in [
        "White  03 00 33 03 00 00 00",
        "Black  02 01 00 00 00 09 00",
        "residue trace (E' at XC20, Z80): 3, 0, 1",
        "residue   1 pawns = 100 cp lost by Black",
        "textbook  see(e4) for White",
        "agree",
    ] {
        assert!(out.contains(want), "missing '{want}' in:\n{out}");
    }
    let (code, out, _) = run(&["--fen", FIG4, "--square", "55", "--build", "1978"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("residue trace (E' at XC20, Z80): 6, 0, 2"),
        "{out}"
    );
    // SEE.019: the pin is named.
    let (code, out, _) = run(&[
        "--fen",
        "6r1/4kq2/b2p1p2/p1pPb3/p1P2B1Q/2P4P/2B1R1P1/6K1 w - - 0 1",
        "--square",
        "e5",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("differ    pin"), "{out}");
    for bad in [
        vec!["--fen", "not a fen", "--square", "e4"],
        vec!["--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--square", "e4"],
        vec!["--fen", FIG4, "--square", "i9"],
        vec!["--fen", FIG4, "--square", "20"],
        vec!["--fen", FIG4, "--square", "e4", "--build", "1979"],
    ] {
        let (code, out, err) = run(&bad);
        assert!(code.is_some_and(|c| c != 0), "{bad:?} accepted: {out}{err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
        assert!(!err.is_empty(), "{bad:?}: no message");
    }
}

// ---------------------------------------------------------------------------------------------
// XCHNG on random arrays: the Z80 ('Y') against the listing model.

/// A value for a nibble: mostly the real piece values, sometimes anything 1..15.
fn nibble() -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(vec![1u8, 3, 5, 9, 10]),
        1 => 1u8..=15,
    ]
}

/// One byte of a section: empty, one value (low), or two.
fn slot() -> impl Strategy<Value = u8> {
    prop_oneof![
        2 => Just(0u8),
        2 => nibble(),
        1 => (nibble(), nibble()).prop_map(|(lo, hi)| hi << 4 | lo),
    ]
}

/// A well-formed array: each count is the number of values in its section.
fn array() -> impl Strategy<Value = Attackers> {
    (prop::array::uniform6(slot()), prop::array::uniform6(slot())).prop_map(|(w, b)| {
        let mut a = [0u8; 14];
        for (base, s) in [(0usize, w), (7, b)] {
            let mut n = 0;
            for (k, &v) in s.iter().enumerate() {
                a[base + 1 + k] = v;
                n += (v & 0x0F != 0) as u8 + (v >> 4 != 0) as u8;
            }
            a[base] = n;
        }
        Attackers(a)
    })
}

const ARRAYS: u32 = 5000;

/// The see.tsv check can fail: a residue or an array the references do not explain is caught.
#[test]
fn an_unexplained_difference_is_caught() {
    let pos = parse(FIG4);
    for build in Build::ALL {
        let residue = if build == Build::B1978 { 2 } else { 1 };
        let ok = square_chain(pos.board(), Square::E4, build, &FIG4_ARRAY, residue).unwrap();
        assert!(ok.unexplained().is_empty(), "{}", ok.describe());
        assert_eq!(ok.first(), 100);
        let wrong = square_chain(pos.board(), Square::E4, build, &FIG4_ARRAY, residue + 1).unwrap();
        assert!(!wrong.unexplained().is_empty(), "{}", wrong.describe());
        let mut array = FIG4_ARRAY;
        array[12] = 0; // no black queen
        array[7] = 1;
        let wrong = square_chain(pos.board(), Square::E4, build, &array, residue).unwrap();
        assert!(!wrong.unexplained().is_empty(), "{}", wrong.describe());
    }
}

#[test]
fn xchng_on_random_arrays_matches_the_listing() {
    for build in Build::ALL {
        let doubled = build == Build::B1978;
        let e = RefCell::new(engine(build));
        let mut runner = TestRunner::new(Config {
            cases: ARRAYS,
            failure_persistence: None,
            ..Config::default()
        });
        let lookahead = AtomicUsize::new(0);
        runner
            .run(&(array(), 1u8..=6, any::<bool>()), |(a, t, black)| {
                let piece = chess::Piece(t | if black { 0x80 } else { 0 });
                prop_assert!(a.well_formed());
                let (r, trace) = z80_array_exchange(&mut e.borrow_mut(), piece, &a)
                    .map_err(TestCaseError::fail)?;
                let x = xchng::xchng(piece, &a, doubled);
                if x.used_lookahead() {
                    lookahead.fetch_add(1, Ordering::Relaxed);
                }
                prop_assert_eq!(
                    (r, &trace),
                    (x.residue, &x.trace),
                    "{} piece {:02X} array {}",
                    build,
                    piece.byte(),
                    a.hex()
                );
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{build}: {e}"));
        let n = lookahead.load(Ordering::Relaxed);
        println!("{build}: {ARRAYS} arrays agree ({n} went through the look-ahead at XC15)");
        assert!(n > 100, "too few look-ahead cases to mean anything");
    }
}

// ---------------------------------------------------------------------------------------------
// ATTACK + ATKSAV (+ PINFND/PNCK) on random positions: the Z80 ('A', 'X') against the model.

/// A position after a random legal game of up to `max` plies from the start.
fn random_game(max: usize) -> impl Strategy<Value = Chess> {
    prop::collection::vec(any::<u16>(), 0..max).prop_map(|choices| {
        let mut pos = Chess::default();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            pos = pos.play(m).unwrap();
        }
        pos
    })
}

/// A random legal placement: two kings and up to 24 other pieces, sliders favoured (for
/// x-ray chains, pieces behind queens, spills and pins), extra queens allowed.
fn random_placement() -> impl Strategy<Value = Chess> {
    let role = prop::sample::select(vec![
        Role::Pawn,
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Bishop,
        Role::Rook,
        Role::Rook,
        Role::Queen,
        Role::Queen,
    ]);
    let piece = (0u8..64, any::<bool>(), role);
    (
        0u8..64,
        0u8..64,
        prop::collection::vec(piece, 0..24),
        any::<bool>(),
    )
        .prop_filter_map("not a legal position", |(wk, bk, pieces, black)| {
            let mut board = Board::empty();
            let sq = |i: u8| Square::new(i as u32);
            board.set_piece_at(
                sq(wk),
                Piece {
                    color: Color::White,
                    role: Role::King,
                },
            );
            if wk == bk {
                return None;
            }
            board.set_piece_at(
                sq(bk),
                Piece {
                    color: Color::Black,
                    role: Role::King,
                },
            );
            for (s, b, role) in pieces {
                let s = sq(s);
                if board.piece_at(s).is_some() {
                    continue;
                }
                if role == Role::Pawn
                    && (s.rank() == shakmaty::Rank::First || s.rank() == shakmaty::Rank::Eighth)
                {
                    continue;
                }
                let color = if b { Color::Black } else { Color::White };
                board.set_piece_at(s, Piece { color, role });
            }
            let mut setup = Setup::empty();
            setup.board = board;
            setup.turn = if black { Color::Black } else { Color::White };
            setup.castling_rights = Bitboard::EMPTY;
            Chess::from_setup(setup, CastlingMode::Standard).ok()
        })
}

static POSITIONS: AtomicUsize = AtomicUsize::new(0);

/// Every square of `pos`, both builds: 'A' (empty squares) or 'X' (occupied) against the model.
fn check_position(pos: &Chess, engines: &mut [Engine], stats: &Stats) -> Result<(), TestCaseError> {
    POSITIONS.fetch_add(1, Ordering::Relaxed);
    let board = pos.board();
    for e in engines.iter_mut() {
        let build = e.build;
        let filling = Filling::from(build);
        e.set_position(pos)
            .map_err(|m| TestCaseError::fail(format!("{}: set-up refused: {m}", fen_of(pos))))?;
        let pins = attack::pins_of(board, filling);
        if !pins.is_empty() && build == Build::Article {
            stats.with_pins.fetch_add(1, Ordering::Relaxed);
        }
        for sq in Square::ALL {
            let model = attack::atklst(board, sq, filling);
            let r = e
                .command(b'A', &[mailbox(sq)])
                .map_err(|m| TestCaseError::fail(m.to_string()))?;
            prop_assert_eq!(r.len(), 14);
            let z80 = Attackers::from_slice(&r).expect("14 bytes");
            // 'X' on an occupied square: the same array, then XCHNG's residue.
            let residue = match board.piece_at(sq) {
                None => None,
                Some(_) => {
                    let r = e
                        .command(b'X', &[mailbox(sq)])
                        .map_err(|m| TestCaseError::fail(m.to_string()))?;
                    prop_assert_eq!(r.len(), 15);
                    prop_assert_eq!(&r[..14], &z80.bytes()[..], "'X' and 'A' fill ATKLST alike");
                    Some(r[14])
                }
            };
            prop_assert!(
                z80 == model.atklst,
                "{} {} square {}: Z80 {} model {} (pins {:?}; found {:?})",
                build,
                fen_of(pos),
                sq,
                z80.hex(),
                model.atklst.hex(),
                pins,
                model.found
            );
            if model
                .found
                .iter()
                .any(|f| f.placed == attack::Placed::Pinned)
            {
                stats.pinned_out.fetch_add(1, Ordering::Relaxed);
            }
            if model.found.iter().any(|f| f.placed == attack::Placed::Lost) {
                stats.lost.fetch_add(1, Ordering::Relaxed);
            }
            if model.found.iter().any(|f| f.behind_queen) {
                stats.behind_queen.fetch_add(1, Ordering::Relaxed);
            }
            if let (Some(r), Some(p)) = (residue, board.piece_at(sq)) {
                let byte = attack::piece_byte(p.color, p.role);
                let doubled = build == Build::B1978;
                let x = xchng::xchng(byte, &model.atklst, doubled);
                prop_assert_eq!(
                    r,
                    x.residue,
                    "{} {} square {}: residue",
                    build,
                    fen_of(pos),
                    sq
                );
                let max = PVALUE[attack::type_of(p.role) as usize] * if doubled { 2 } else { 1 };
                prop_assert!(
                    r <= max,
                    "{} {} {}: residue {} > value {}",
                    build,
                    fen_of(pos),
                    sq,
                    r,
                    max
                );
                // Every difference from the textbook see() of the square is a documented one.
                if p.role != Role::King {
                    let chain = square_chain(board, sq, build, &z80, r).unwrap();
                    let u = chain.unexplained();
                    prop_assert!(
                        u.is_empty(),
                        "{} {} {}: {:?}\n{}",
                        build,
                        fen_of(pos),
                        sq,
                        u,
                        chain.describe()
                    );
                    for c in chain.classes() {
                        stats
                            .classes
                            .lock()
                            .unwrap()
                            .entry(c)
                            .and_modify(|n| *n += 1)
                            .or_insert(1);
                    }
                }
            }
        }
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    classes: std::sync::Mutex<BTreeMap<Class, usize>>,
    with_pins: AtomicUsize,
    pinned_out: AtomicUsize,
    lost: AtomicUsize,
    behind_queen: AtomicUsize,
}

fn run_positions(name: &str, strategy: impl Strategy<Value = Chess>, cases: u32) -> Stats {
    let stats = Stats::default();
    let engines: RefCell<Vec<Engine>> =
        RefCell::new(Build::ALL.iter().map(|&b| engine(b)).collect());
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&strategy, |pos| {
            check_position(&pos, &mut engines.borrow_mut(), &stats)
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    println!(
        "{name}: {cases} positions x 64 squares x 2 builds agree; positions with pins {}, \
         squares with a pinned attacker left out {}, with a piece lost for room {}, with a piece behind a queen {}",
        stats.with_pins.load(Ordering::Relaxed),
        stats.pinned_out.load(Ordering::Relaxed),
        stats.lost.load(Ordering::Relaxed),
        stats.behind_queen.load(Ordering::Relaxed),
    );
    let classes: Vec<String> = stats
        .classes
        .lock()
        .unwrap()
        .iter()
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    println!(
        "{name}: XCHNG vs textbook see() on occupied squares, differences by class: {}",
        classes.join(", ")
    );
    stats
}

#[test]
fn attack_on_random_games_matches_the_model() {
    let s = run_positions("random games", random_game(160), 600);
    assert!(
        s.pinned_out.load(Ordering::Relaxed) > 0,
        "no pinned attacker met"
    );
    assert!(
        s.behind_queen.load(Ordering::Relaxed) > 0,
        "no piece behind a queen met"
    );
}

#[test]
fn attack_on_random_placements_matches_the_model() {
    let s = run_positions("random placements", random_placement(), 600);
    assert!(
        s.pinned_out.load(Ordering::Relaxed) > 0,
        "no pinned attacker met"
    );
    assert!(s.lost.load(Ordering::Relaxed) > 0, "no overflow met");
}

/// Pins, one at a time, on positions built for them (the pin list PINFND should build is
/// written out: square, line from the king or queen outward).
#[test]
fn attack_with_pins() {
    let mut engines: Vec<Engine> = Build::ALL.iter().map(|&b| engine(b)).collect();
    let stats = Stats::default();
    let cases: [(&str, &[(&str, i8)]); 11] = [
        // A knight pinned against the king: it defends nothing.
        ("4r1k1/8/8/8/8/2p5/4N3/4K3 w - - 0 1", &[("e2", 10)]),
        // A rook pinned on its file still attacks along it.
        ("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", &[("e2", 10)]),
        // A bishop pinned on a diagonal attacks along it only.
        ("6k1/8/8/4b3/8/2B5/8/K7 w - - 0 1", &[("c3", 11)]),
        // Pinned against the queen by a rook; by a queen, which counts only while our queen
        // has no more defenders than attackers (0 <= 0 here; Bc2 defends her below).
        ("6k1/8/8/3r4/8/3N4/8/3Q2K1 w - - 0 1", &[("d3", 10)]),
        ("6k1/8/8/3q4/8/3N4/4P3/3Q2K1 w - - 0 1", &[("d3", 10)]),
        ("6k1/8/8/3q4/8/3N4/2B5/3Q2K1 w - - 0 1", &[]),
        // A queen pinned against the king, and a bishop behind her on another line.
        ("6k1/8/8/8/8/r1Q1K3/1B6/8 w - - 0 1", &[("c3", -1)]),
        // Pinned twice: against the king (file) and against the queen (diagonal).
        (
            "3r2k1/8/8/8/1b6/8/3N4/3KQ3 w - - 0 1",
            &[("d2", 10), ("d2", 9)],
        ),
        // A king next to the square, then a queen and two rooks behind her: [K|R] in the king
        // byte.
        ("3n3k/2KQ4/3R4/3R4/8/8/8/8 w - - 0 1", &[]),
        // Three rooks on a file: the article ignores the third, the 1978 program spills it.
        ("3n3k/8/3R4/3R4/3R4/8/8/K7 w - - 0 1", &[]),
        // SEE.019: the f6 pawn pinned against Ke7 by Qh4 (and two more).
        (
            "6r1/4kq2/b2p1p2/p1pPb3/p1P2B1Q/2P4P/2B1R1P1/6K1 w - - 0 1",
            &[("g2", 10), ("f6", -9), ("e5", -10)],
        ),
    ];
    for (fen, want) in cases {
        let pos = parse(fen);
        let pins: Vec<(String, i8)> = attack::pins_of(pos.board(), Filling::Article)
            .iter()
            .map(|p| {
                let sq = p.square;
                (sq.to_string(), p.dir)
            })
            .collect();
        let want: Vec<(String, i8)> = want.iter().map(|&(s, d)| (s.to_string(), d)).collect();
        assert_eq!(pins, want, "{fen}: the pin list");
        check_position(&pos, &mut engines, &stats).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
    assert!(stats.pinned_out.load(Ordering::Relaxed) > 0);
    // The king byte: [K|R] in both builds; the third rook on the file.
    let b = parse("3n3k/2KQ4/3R4/3R4/8/8/8/8 w - - 0 1");
    let b3 = parse("3n3k/8/3R4/3R4/3R4/8/8/K7 w - - 0 1");
    for e in engines.iter_mut() {
        e.set_position(&b).unwrap();
        let a = e.command(b'A', &[mailbox(Square::D8)]).unwrap();
        assert_eq!(a[..7], [4, 0, 0, 0, 0, 0x59, 0xA5], "{}", e.build);
        e.set_position(&b3).unwrap();
        let a = e.command(b'A', &[mailbox(Square::D8)]).unwrap();
        let want: [u8; 7] = match e.build {
            Build::Article | Build::Full => [2, 0, 0, 0, 0x55, 0, 0],
            Build::B1978 => [3, 0, 0, 0, 0x55, 0, 0x05],
        };
        assert_eq!(a[..7], want, "{}", e.build);
    }
}

// ---------------------------------------------------------------------------------------------
// see.tsv: XCHNG's residue against the file's SEE, with every difference classified.
//
// What each side measures:
// - XCHNG on square s, before any capture: the points the owner of the piece on s loses when
//   the other side captures there cheapest-first and either side may stop: the textbook
//   `see(s, attacker)` (>= 0), in pawns (article) or half-pawns (1978).
// - The file's SEE of a move m to s: `seeCapture`, the mover's gain with m forced, which may be
//   negative, in centipawns.
// Mapping 1 ("before", captures only): residue * unit == max(0, SEE) where the move is the
//   capture XCHNG would start with (the cheapest attacker); otherwise the forced capturer is a
//   class of its own.
// Mapping 2 ("after", every move but castling): play m, then XCHNG on s measures what the mover
//   loses there; SEE = gain - that loss, with gain = the piece taken + (promotion - pawn), so
//   residue_after * unit == gain - SEE.
// unit = 100 cp (article) or 50 cp (1978).

struct Row {
    id: String,
    fen: String,
    uci: String,
    san: String,
    expected: i32,
    oracle: i32,
}

fn see_rows() -> Vec<Row> {
    let text = data("see.tsv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (id, fen, uci, san, exp, ora) = (
        col("id"),
        col("fen"),
        col("move_uci"),
        col("move_san"),
        col("expected_cp"),
        col("oracle_cp"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                id: f[id].into(),
                fen: f[fen].into(),
                uci: f[uci].into(),
                san: f[san].into(),
                expected: f[exp].parse().unwrap(),
                oracle: f[ora].parse().unwrap(),
            }
        })
        .collect()
}

/// The file's value for a row. SEE.071's expected 0 follows one engine's convention (a
/// promoting pawn recaptures after the rooks); the textbook swap gives the oracle's -800.
fn reference_cp(r: &Row) -> i32 {
    if r.id == "SEE.071" {
        r.oracle
    } else {
        r.expected
    }
}

/// The gain of the move itself: the piece taken plus what a promotion adds.
fn gain_cp(m: &Move) -> i32 {
    let taken = m.capture().map(see::value).unwrap_or(0);
    let promo = m
        .promotion()
        .map(|p| see::value(p) - see::PAWN_CP)
        .unwrap_or(0);
    taken + promo
}

struct Outcome {
    id: String,
    san: String,
    z80_cp: i32,
    target_cp: i32,
    chain: Chain,
}

#[derive(Default)]
struct Table {
    rows: Vec<Outcome>,
}

impl Table {
    fn report(&self, title: &str) -> String {
        let agree = self.rows.iter().filter(|o| o.z80_cp == o.target_cp).count();
        let mut by_class: BTreeMap<Class, usize> = BTreeMap::new();
        let mut s = format!(
            "{title}: {} rows, {agree} agree, {} differ\n",
            self.rows.len(),
            self.rows.len() - agree
        );
        for o in self.rows.iter().filter(|o| o.z80_cp != o.target_cp) {
            for c in o.chain.classes() {
                *by_class.entry(c).or_default() += 1;
            }
        }
        for (c, n) in &by_class {
            s.push_str(&format!("    {:<34} {n:>3}   {}\n", c.name(), c.reason()));
        }
        for o in &self.rows {
            let classes: Vec<&str> = o.chain.classes().iter().map(|c| c.name()).collect();
            s.push_str(&format!(
                "  {} {:<9} XCHNG {:>5} cp  reference {:>5} cp  {}\n",
                o.id,
                o.san,
                o.z80_cp,
                o.target_cp,
                if o.z80_cp == o.target_cp {
                    if classes.is_empty() {
                        "agree".to_string()
                    } else {
                        format!("agree (differences cancel: {})", classes.join(", "))
                    }
                } else {
                    classes.join(", ")
                }
            ));
        }
        s
    }
}

/// An en passant capture's chain: XCHNG sees an empty square, the textbook the pawn taken
/// beside it.
fn en_passant_chain(z80_cp: i32, textbook_cp: i32) -> Chain {
    let mut c = Chain::default();
    c.push(
        "Z80 XCHNG (empty square)",
        z80_cp,
        None,
        false,
        String::new(),
    );
    c.push(
        "textbook, the pawn taken beside the square",
        textbook_cp.max(0),
        Some(Class::EnPassant),
        true,
        String::new(),
    );
    c
}

#[test]
fn see_tsv_report() {
    let rows = see_rows();
    assert_eq!(rows.len(), 76);
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut notes = Vec::new();
    let mut failures = Vec::new();
    let mut tables: Vec<((Build, &str), Table)> = Vec::new();
    for build in Build::ALL {
        let unit = unit_cp(build);
        let doubled = build == Build::B1978;
        let mut e = engine(build);
        for r in &rows {
            let pos = parse(&r.fen);
            let m = r
                .uci
                .parse::<UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap_or_else(|err| panic!("{}: {err}", r.id));
            // The textbook SEE here is the file's oracle on every row.
            let mine = see::see_move(&pos, &m, true);
            if mine != r.oracle && build == Build::Article {
                failures.push(format!(
                    "{}: textbook see_move {mine} != oracle_cp {}",
                    r.id, r.oracle
                ));
            }
            if build == Build::Article {
                if let Some(first) = seen.insert((r.fen.clone(), r.uci.clone()), r.id.clone()) {
                    notes.push(format!("{} repeats {first}: left out", r.id));
                    continue;
                }
            } else if seen.get(&(r.fen.clone(), r.uci.clone())) != Some(&r.id) {
                continue;
            }
            if m.is_castle() {
                if build == Build::Article {
                    notes.push(format!("{}: castling, no exchange: left out", r.id));
                }
                continue;
            }
            let file = reference_cp(r);
            let to = m.to();

            // Mapping 1: before the capture.
            if m.is_capture() {
                e.set_position(&pos).unwrap();
                let z = z80_exchange(&mut e, to).unwrap();
                let mut chain = if m.is_en_passant() {
                    en_passant_chain(z.residue as i32 * unit, see::see_move(&pos, &m, true))
                } else {
                    square_chain(pos.board(), to, build, &z.atklst, z.residue).unwrap()
                };
                if !m.is_en_passant() {
                    compare::push_forced(&mut chain, &pos, &m);
                }
                chain.push(
                    "the file (>= 0)",
                    file.max(0),
                    Some(Class::FileConvention),
                    false,
                    String::new(),
                );
                check_invariants(&pos, to, build, z.residue, doubled, &r.id, &mut failures);
                for u in chain.unexplained() {
                    failures.push(format!(
                        "{build} before {} {}: {u}\n{}",
                        r.id,
                        r.san,
                        chain.describe()
                    ));
                }
                table(&mut tables, build, "before").rows.push(Outcome {
                    id: r.id.clone(),
                    san: r.san.clone(),
                    z80_cp: z.residue as i32 * unit,
                    target_cp: file.max(0),
                    chain,
                });
            }

            // Mapping 2: after the move, what the mover loses on its square.
            let after = pos.clone().play(m).unwrap();
            e.set_position(&after).unwrap();
            let z = z80_exchange(&mut e, to).unwrap();
            let target = gain_cp(&m) - file;
            let mut chain = square_chain(after.board(), to, build, &z.atklst, z.residue).unwrap();
            chain.push(
                "the file (gain - SEE)",
                target,
                Some(Class::FileConvention),
                false,
                String::new(),
            );
            check_invariants(&after, to, build, z.residue, doubled, &r.id, &mut failures);
            for u in chain.unexplained() {
                failures.push(format!(
                    "{build} after {} {}: {u}\n{}",
                    r.id,
                    r.san,
                    chain.describe()
                ));
            }
            table(&mut tables, build, "after").rows.push(Outcome {
                id: r.id.clone(),
                san: r.san.clone(),
                z80_cp: z.residue as i32 * unit,
                target_cp: target,
                chain,
            });
        }
    }
    print_report(rows.len(), &notes, &tables);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The see.tsv report: the rows left out, then each build's table for each mapping.
fn print_report(rows: usize, notes: &[String], tables: &[((Build, &str), Table)]) {
    println!("see.tsv ({rows} rows)");
    for n in notes {
        println!("  {n}");
    }
    println!("  SEE.071: compared with oracle_cp (-800), not expected_cp (0): see the data README");
    for ((build, mapping), t) in tables {
        let title = match *mapping {
            "before" => format!(
                "{build}, before the capture: residue x {} cp vs max(0, SEE)",
                unit_cp(*build)
            ),
            _ => format!(
                "{build}, after the move: residue x {} cp on the mover's square vs gain - SEE",
                unit_cp(*build)
            ),
        };
        println!("{}", t.report(&title));
    }
}

fn table<'a>(
    tables: &'a mut Vec<((Build, &'static str), Table)>,
    build: Build,
    mapping: &'static str,
) -> &'a mut Table {
    let i = match tables.iter().position(|(k, _)| *k == (build, mapping)) {
        Some(i) => i,
        None => {
            tables.push(((build, mapping), Table::default()));
            tables.len() - 1
        }
    };
    &mut tables[i].1
}

fn check_invariants(
    pos: &Chess,
    sq: Square,
    build: Build,
    residue: u8,
    doubled: bool,
    id: &str,
    failures: &mut Vec<String>,
) {
    let value = pos
        .board()
        .role_at(sq)
        .map_or(0, |r| PVALUE[attack::type_of(r) as usize])
        * if doubled { 2 } else { 1 };
    if residue > value {
        failures.push(format!(
            "{build} {id}: residue {residue} outside 0..={value}"
        ));
    }
}
