//! The measuring tools: `search --movetime-emulated` (the session's driver with a T-state
//! budget) printing the depth reached and the T-states per evaluation, and `regress
//! --movetime-emulated`; bad times refused by name. Each through the binary or the library.

use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine, SearchKind};
use z80chess::profile::evals::{emulated_tstates, Counters, EvalCost, Limit};
use z80chess::session::clock::STOP_LATENCY_T;

/// The stop latency measured here: the firmware looks at "move now" between nodes, but orders
/// a node's moves by evaluating each (SORTM: one POINTS a move, ~67,500 T in the article,
/// ~136,000 T in full), so a stop can wait for a whole node's ordering: up to about 5 M T in
/// these middlegames (1.8 M T for the article at depth 1 here, 4.7 M T for full), above the
/// session's `STOP_LATENCY_T` (1 M T). Cheap interior ordering should bring full's down.
const SORTM_STOP_LATENCY_T: u64 = 6_000_000;

/// The bench's dragon (a middlegame with many moves).
const DRAGON: &str = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9";

fn z80chess(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(args)
        .output()
        .expect("run z80chess");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bad_movetime_is_refused_by_name() {
    for cmd in [
        &["search", "--fen", DRAGON, "--movetime-emulated"][..],
        &["regress", "x.epd", "--movetime-emulated"],
    ] {
        for (bad, why) in [
            ("0", "more than 0"),
            ("-5", "more than 0"),
            ("-0.5", "more than 0"),
            ("abc", "not a number"),
            ("inf", "more than 0"),
            ("1e9", "at most"),
        ] {
            let mut args = cmd.to_vec();
            args.push(bad);
            let (code, _, err) = z80chess(&args);
            assert_eq!(code, Some(2), "{args:?}: {err}");
            assert!(
                err.contains("--movetime-emulated") && err.contains(why),
                "{args:?}: {err}"
            );
        }
    }
}

#[test]
fn a_timed_search_stops_within_its_budget_and_the_stop_latency() {
    for (build, secs) in [(Build::Full, 5.0), (Build::Article, 0.5)] {
        let mut e = Engine::new(build).unwrap();
        sargon::load(&mut e, &parse_fen(DRAGON).unwrap()).unwrap();
        let before = Counters::read(&e);
        let r = Limit::Time { secs, level: 8 }.search(&mut e).unwrap();
        let budget = emulated_tstates(secs);
        let latency = SORTM_STOP_LATENCY_T;
        assert!(latency > STOP_LATENCY_T);
        assert_eq!(r.kind, SearchKind::Stopped, "{build}: the budget ended it");
        assert!(
            r.tstates >= budget && r.tstates <= budget + latency,
            "{build}: {} T for a budget of {budget}",
            r.tstates
        );
        assert!(!r.depths.is_empty(), "{build}: depth 1 completed");
        let cost = EvalCost::of(&r, Counters::read(&e).since(before));
        // The full build's lazy evaluation is on by default; the article's has none.
        assert_eq!(
            cost.lazy > 0,
            build == Build::Full,
            "{build}: {}",
            cost.line()
        );
        assert_eq!(
            cost.per_evaluation(),
            Some(r.tstates / (r.evaluations as u64 - cost.lazy))
        );
    }
    // A search that ends before its time is not stopped.
    let mut e = Engine::new(Build::Full).unwrap();
    sargon::load(&mut e, &parse_fen(DRAGON).unwrap()).unwrap();
    let r = Limit::Time {
        secs: 1000.0,
        level: 1,
    }
    .search(&mut e)
    .unwrap();
    assert_eq!(r.kind, SearchKind::Searched);
    assert_eq!(r.depths.len(), 1);
}

#[test]
fn with_cheap_ordering_the_full_build_stops_within_the_sessions_latency() {
    // Cheap interior ordering (F2_ORDER) evaluates no move to order a node, and SRCH reads
    // "move now" before every move: a stop waits for one move's work, under the session's
    // 1 M T.
    let positions = [
        DRAGON,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 20",
    ];
    let order = ParamFile::parse("[default]\nP_FLAGS2 = 3\n", "order").unwrap();
    for fen in positions {
        for secs in [0.7, 2.3, 6.1] {
            let mut e = Engine::new(Build::Full).unwrap();
            e.load_params(&order).unwrap();
            sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
            let r = Limit::Time { secs, level: 8 }.search(&mut e).unwrap();
            let budget = emulated_tstates(secs);
            assert_eq!(r.kind, SearchKind::Stopped, "{fen} {secs} s");
            assert!(
                r.tstates >= budget && r.tstates <= budget + STOP_LATENCY_T,
                "{fen} {secs} s: {} T for a budget of {budget}, latency {}",
                r.tstates,
                r.tstates - budget
            );
        }
    }
}

#[test]
fn search_prints_the_depth_reached_and_the_cost_per_evaluation() {
    let (code, out, err) = z80chess(&[
        "search",
        "--build",
        "full",
        "--fen",
        DRAGON,
        "--movetime-emulated",
        "5",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("movetime 5 s emulated = 10,000,000 T; depth reached 1 (the budget ran out)"),
        "{out}"
    );
    assert!(out.contains("T-states per evaluation "), "{out}");
    // Lazy evaluation and quiescence are on by default: some evaluations leave early.
    assert!(
        out.contains("evaluations that ran every term; lazy exits "),
        "{out}"
    );
    assert!(!out.contains("lazy exits 0,"), "{out}");
    assert!(out.contains("evaluations per move made"), "{out}");
    // Without a time: the level, as before, and the same cost line.
    let (code, out, err) =
        z80chess(&["search", "--build", "full", "--fen", DRAGON, "--level", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("movetime"), "{out}");
    assert!(out.contains("T-states per evaluation "), "{out}");
}

#[test]
fn regress_takes_a_time_per_position() {
    let dir = std::env::temp_dir().join(format!("z80chess-measure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("two.epd");
    std::fs::write(
        &epd,
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
         8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";\n",
    )
    .unwrap();
    let rec = dir.join("out.tsv");
    let (code, out, err) = z80chess(&[
        "regress",
        epd.to_str().unwrap(),
        "--build",
        "full",
        "--movetime-emulated",
        "3",
        "--jobs",
        "1",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(matches!(code, Some(0) | Some(1)), "{err}");
    assert!(out.contains("WAC.001      full    L8 "), "{out}");
    assert!(out.contains("2 searches"), "{out}");
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(
        text.starts_with("# movetime-emulated: 3 s a position"),
        "{text}"
    );
    let stopped = text.lines().filter(|l| l.contains("\tstopped\t")).count();
    assert!(stopped >= 1, "{text}");
    for l in text.lines().filter(|l| l.starts_with("WAC.")) {
        let t: u64 = l.split('\t').nth(10).unwrap().parse().unwrap();
        assert!(t <= 6_000_000 + SORTM_STOP_LATENCY_T, "{l}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
