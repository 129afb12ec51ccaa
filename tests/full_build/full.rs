//! The full build's frame: with its default parameters it is the article's program in 16-bit
//! scores (same moves, same trees, scores ×32); its parameter blocks load through the protocol
//! and change what the Z80 computes; `eval`'s terms add up on every bench position.
//!
//! Keep `full_with_defaults_is_the_article` alive as knowledge is added: it runs with the
//! knowledge weights at 0 and the search additions off.

use shakmaty::{uci::UciMove, Chess, Position};
use z80chess::firmware::eval::Evaluation;
use z80chess::firmware::params::{Block, ParamError, ParamFile, PARAMS};
use z80chess::firmware::{parse_fen, sargon, Build, Engine, FwMove, Score};
use z80chess::profile::bench::POSITIONS;

/// Extra positions: tactics and quiet ones from the Win at Chess file, plus an ending.
const MORE: &[(&str, &str, u8)] = &[
    (
        "wac002",
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
        3,
    ),
    (
        "wac003",
        "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
        2,
    ),
    (
        "wac005",
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        2,
    ),
    (
        "queens-gambit",
        "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1B1KBNR w KQkq - 2 4",
        3,
    ),
    ("kpk", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 50", 4),
];

fn load(build: Build, fen: &str) -> Engine {
    let mut e = Engine::new(build).unwrap();
    let pos = parse_fen(fen).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    e
}

/// The parameter file that makes `full` the article's program: every knowledge weight at 0 and
/// the search additions off.
const ARTICLE_PARAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/full/article.params");

/// `build` on `fen`; the full build with `tests/full/article.params` loaded.
fn load_as_article(build: Build, fen: &str) -> Engine {
    let mut e = Engine::new(build).unwrap();
    if build == Build::Full {
        let pf = ParamFile::load(std::path::Path::new(ARTICLE_PARAMS)).unwrap();
        e.load_params(&pf).unwrap();
    }
    let pos = parse_fen(fen).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    e
}

#[test]
fn full_with_defaults_is_the_article() {
    let mut checked = 0;
    for &(name, fen, level) in POSITIONS.iter().chain(MORE) {
        for l in 1..=level {
            let a = load(Build::Article, fen).search(l, false).unwrap();
            let f = load_as_article(Build::Full, fen).search(l, false).unwrap();
            let at = format!("{name} level {l}");
            assert_eq!(a.best, f.best, "{at}: the move");
            assert_eq!(a.kind, f.kind, "{at}");
            assert_eq!(
                (a.nodes, a.evaluations, a.xchng_calls),
                (f.nodes, f.evaluations, f.xchng_calls),
                "{at}: the tree"
            );
            let (Score::Byte(b), Score::Word(w)) = (a.score, f.score) else {
                panic!("{at}: score kinds {:?} {:?}", a.score, f.score)
            };
            match a.score.mate() {
                // The article's mates carry no distance; the full build's do.
                Some(m) => assert_eq!(f.score.mate(), Some(m), "{at}"),
                None => assert_eq!(w as i32, 32 * (b as i32 - 128), "{at}: the score"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn a_mate_score_carries_its_distance() {
    // Scholar's mate pattern: White mates in one with Qxf7#.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let mut e = load(Build::Full, fen);
    let r = e.search(2, false).unwrap();
    assert_eq!(r.best.uci(), "f3f7");
    assert_eq!(r.score.mate(), Some(true));
    assert_eq!(r.score.mate_plies(), Some(1), "{:?}", r.score);
}

fn eval_of(build: Build, fen: &str) -> Evaluation {
    load(build, fen).eval().unwrap()
}

#[test]
fn eval_terms_add_up_on_every_bench_position() {
    for &(name, fen, _) in POSITIONS.iter().chain(MORE) {
        for build in Build::ALL {
            // Engine::eval itself refuses a breakdown whose terms do not add up to the total, or
            // whose total is not the VALM the Z80 computed.
            let e = eval_of(build, fen);
            let sum: i32 = e.terms.iter().map(|t| t.value).sum();
            assert_eq!(sum, e.total, "{name} {build}");
            assert!(e.tstates > 1000, "{name} {build}: {} T", e.tstates);
        }
        // With the knowledge at 0, the full build's total is the article's times 32.
        let a = eval_of(Build::Article, fen);
        let f = load_as_article(Build::Full, fen).eval().unwrap();
        assert_eq!(f.total, 32 * a.total, "{name}");
    }
}

#[test]
fn eval_sees_the_material_and_the_battles() {
    // White is a knight up; the black queen on d5 is attacked by the c4 pawn.
    let fen = "4k3/8/8/3q4/2P5/8/8/3NK3 b - - 0 30";
    let e = eval_of(Build::Full, fen);
    let mat = e.terms.iter().find(|t| t.name == "material").unwrap().value;
    assert_eq!(mat, 768 + 256 - 2304, "{}", e.report());
    let b = e
        .battles
        .iter()
        .find(|b| b.square == 64)
        .unwrap_or_else(|| panic!("{}", e.report()));
    assert_eq!(b.piece & 0x87, 0x80 | 5);
    assert!(b.residue >= 8, "{}", e.report());
}

#[test]
fn a_weight_change_is_seen_by_the_z80() {
    let fen = POSITIONS[0].1;
    let before = eval_of(Build::Full, fen);
    let mut e = load(Build::Full, fen);
    let pf = ParamFile::parse("[default]\nP_BCSQ = 40\nP_KNIGHT = 800\n", "test").unwrap();
    e.load_params(&pf).unwrap();
    let after = e.eval().unwrap();
    let t = |ev: &Evaluation, n: &str| ev.terms.iter().find(|t| t.name == n).unwrap().value;
    assert_ne!(t(&before, "board control"), t(&after, "board control"));
    assert_eq!(
        t(&before, "board control") * 40,
        t(&after, "board control") * 32
    );
    assert_eq!(t(&before, "material"), t(&after, "material")); // knights are equal here
                                                               // And it changes what the search does (more or fewer nodes, or another move).
    let a = load(Build::Full, fen).search(2, false).unwrap();
    let b = e.search(2, false).unwrap();
    assert_ne!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
}

#[test]
fn parameter_files_round_trip() {
    let text = "# a test file\n[default]\nP_PAWN = 300   ; a heavier pawn\nP_FLAGS = 0x05\n\
                [e4]\nP_DVCAS = 250\n[d4]\nP_DVCAS = -10\nP_DVMNO = 9\n";
    let pf = ParamFile::parse(text, "t.params").unwrap();
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&pf).unwrap();
    let ps = e.params().unwrap();
    let get = |n: &str| ps.iter().find(|p| p.def.name == n).unwrap().values;
    assert_eq!(get("P_PAWN"), [300, 300, 300]);
    assert_eq!(get("P_FLAGS"), [5, 5, 5]);
    assert_eq!(get("P_DVCAS"), [192, 250, -10]);
    assert_eq!(get("P_DVMNO"), [7, 7, 9]);
    assert_eq!(get("P_QUEEN"), [2304, 2304, 2304]);
    // What the Z80 holds, written back as a file, parses to the same blocks.
    let mut again = String::new();
    for (i, b) in Block::ALL.iter().enumerate() {
        again.push_str(&format!("[{b}]\n"));
        for p in &ps {
            let v = p.values[i];
            if i == 0 || v != p.values[0] {
                again.push_str(&format!("{} = {v}\n", p.def.name));
            }
        }
    }
    let pf2 = ParamFile::parse(&again, "again").unwrap();
    let mut e2 = Engine::new(Build::Full).unwrap();
    e2.load_params(&pf2).unwrap();
    assert_eq!(e2.params().unwrap(), ps);
    // Loading a file starts from the ROM's defaults: an empty file restores them.
    e2.load_params(&ParamFile::parse("", "empty").unwrap())
        .unwrap();
    let fresh = Engine::new(Build::Full).unwrap().params().unwrap();
    assert_eq!(e2.params().unwrap(), fresh);
    // The hash follows the content, not the layout of the file.
    let pf3 = ParamFile::parse(
        "P_FLAGS=5\nP_PAWN=300\n[d4]\nP_DVMNO=9\nP_DVCAS=-10\n[e4]\nP_DVCAS=250\n",
        "x",
    )
    .unwrap();
    assert_eq!(pf.hash(), pf3.hash());
    assert_ne!(pf.hash(), pf2.hash());
}

#[test]
fn every_bad_line_is_rejected_with_its_number() {
    let cases = [
        ("P_PAWN = 256\nP_PAWN 300\n", 2, "expected `NAME = value`"),
        ("\n\nP_NOSUCH = 1\n", 3, "unknown parameter"),
        ("P_PAWN = 99999\n", 1, "out of range"),
        ("P_DVMIN = -600\n", 1, "out of range"),
        ("P_PAWN = 12x\n", 1, "not a number"),
        ("P_PAWN = \n", 1, "not a number"),
        ("[e5]\n", 1, "unknown section"),
        ("[e4\n", 1, "closing"),
        ("[e4]\nP_PAWN = 1\nP_PAWN = 2\n", 3, "set twice"),
    ];
    for (text, line, what) in cases {
        match ParamFile::parse(text, "bad.params") {
            Err(ParamError::Line {
                file,
                line: l,
                what: w,
            }) => {
                assert_eq!(file, "bad.params");
                assert_eq!(l, line, "{text:?}: {w}");
                assert!(w.contains(what), "{text:?}: {w}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // A period build has no blocks.
    let mut e = Engine::new(Build::Article).unwrap();
    assert!(matches!(
        e.load_params(&ParamFile::default()),
        Err(ParamError::NotFull(Build::Article))
    ));
}

#[test]
fn every_parameter_symbol_is_described() {
    let syms: Vec<String> = Build::Full
        .symbols()
        .lines()
        .filter_map(|l| l.split_once(':').map(|(n, _)| n.trim().to_string()))
        .filter(|n| n.starts_with("P_"))
        .collect();
    for s in &syms {
        assert!(PARAMS.iter().any(|p| p.name == s), "{s} has no description");
    }
    for p in PARAMS {
        assert!(
            syms.iter().any(|s| s == p.name),
            "{} is not in the ROM",
            p.name
        );
    }
    // Every default lies inside its documented range.
    let ps = Engine::new(Build::Full).unwrap().params().unwrap();
    for p in ps {
        for v in p.values {
            assert!((p.def.min..=p.def.max).contains(&v), "{}: {v}", p.def.name);
        }
    }
}

fn play(e: &mut Engine, moves: &str) -> Chess {
    let mut p = Chess::default();
    for m in moves.split_whitespace() {
        let mv = m.parse::<UciMove>().unwrap().to_move(&p).unwrap();
        e.play(FwMove::from_move(&mv)).unwrap();
        p.play_unchecked(mv);
    }
    p
}

#[test]
fn the_opening_picks_the_block_and_a_new_game_keeps_them() {
    // Only the e4 block knows a knight's worth more: the difference shows in eval only after
    // 1.e4 (either colour to move), not after 1.d4 or 1.c4 or in a set-up position.
    let pf = ParamFile::parse("[e4]\nP_PAWN = 300\n[d4]\nP_PAWN = 200\n", "t").unwrap();
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&pf).unwrap();
    let mat_after = |e: &mut Engine, moves: &str| {
        e.new_game().unwrap();
        play(e, moves);
        let ev = e.eval().unwrap();
        (ev.terms[0].value, ev)
    };
    // White a pawn up after the exchanges below (so the pawn weight shows in the material).
    let line = "e2e4 d7d5 e4d5 g8f6 b1c3 f6d5 c3d5 d8d5";
    let (m, _) = mat_after(&mut e, line);
    assert_eq!(m, 0, "knight for knight and pawn for pawn");
    let (m, _) = mat_after(&mut e, "e2e4 d7d5 e4d5 c7c6 d5c6");
    assert_eq!(m, 2 * 300, "the e4 block: two pawns up at 300 each");
    let (m, _) = mat_after(&mut e, "d2d4 e7e5 d4e5 d7d6 e5d6");
    assert_eq!(m, 2 * 200, "the d4 block");
    let (m, _) = mat_after(&mut e, "c2c4 d7d5 c4d5 e7e6 d5e6");
    assert_eq!(m, 2 * 256, "the default block");
    // A set-up position (even after 1.e4 was played from it) uses the default block.
    let pos = parse_fen("rnbqkbnr/pp2pppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").unwrap();
    sargon::load(&mut e, &pos).unwrap();
    assert_eq!(e.eval().unwrap().terms[0].value, 256);
    // The blocks survive a new game.
    e.new_game().unwrap();
    let ps = e.params().unwrap();
    let pawn = ps.iter().find(|p| p.def.name == "P_PAWN").unwrap().values;
    assert_eq!(pawn, [256, 300, 200]);
    // And the search sees the same block: searched after 1.e4 with the e4 block the tree differs
    // from the default block's.
    let mut plain = Engine::new(Build::Full).unwrap();
    e.new_game().unwrap();
    let p = play(&mut e, "e2e4 d7d5 e4d5 c7c6");
    play(&mut plain, "e2e4 d7d5 e4d5 c7c6");
    assert!(p.legal_moves().len() > 1);
    let a = e.search(3, false).unwrap();
    let b = plain.search(3, false).unwrap();
    assert_ne!((a.nodes, a.score), (b.nodes, b.score));
}

/// MULSW (points.asm), the multiply behind every weighted term: HL = A * DE for every signed A
/// and a spread of words, in the Z80 (a stub `CALL MULSW; OUT (FFh),A` in free expansion RAM).
#[test]
fn mulsw_is_the_word_product() {
    let sym = |n: &str| {
        Build::Full
            .symbol(n)
            .unwrap_or_else(|| panic!("no symbol {n}"))
    };
    let mut e = Engine::new(Build::Full).unwrap();
    let stub = sym("PHVARS") + 0x80;
    let target = sym("MULSW").to_le_bytes();
    e.machine.bus.mem[stub as usize..stub as usize + 5]
        .copy_from_slice(&[0xCD, target[0], target[1], 0xD3, 0xFF]);
    let words: [u16; 9] = [0, 1, 3, 256, 0x00FF, 0x7FFF, 0x8000, 0xFF00, 0xFFFF];
    let mut worst = 0;
    for a in -128i32..=127 {
        for &de in &words {
            let m = &mut e.machine;
            m.cpu.a = a as i8 as u8;
            m.cpu.set_de(de);
            m.cpu.pc = stub;
            m.cpu.sp = 0x6000;
            let t0 = m.cpu.t;
            match m.run(10_000) {
                z80chess::machine::StopReason::Exit(_) => {}
                other => panic!("MULSW did not return: {other:?}"),
            }
            worst = worst.max(m.cpu.t - t0);
            let want = (a as i64 * de as i16 as i64) as u16;
            assert_eq!(m.cpu.hl(), want, "{a} * {de:#06x}");
        }
    }
    assert!(worst < 700, "at most {worst} T a call");
}
