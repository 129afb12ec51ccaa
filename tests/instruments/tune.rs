//! `z80chess tune`: the fit finds weights it is given the answer for, the Z80's terms are the
//! products the fit assumes, and the command turns games into a parameter file that loads (bad
//! input named).

use std::process::Command;
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::tune::{fit, Model, Sample, LINEAR_WEIGHTS};
use z80chess::firmware::{parse_fen, sargon, Build, Engine};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_z80chess"))
}

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("z80chess-tune-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Results drawn from known weights and strengths (the expected result itself, so the optimum
/// is exact): the fit, started elsewhere and without a pull, comes back to them.
/// `tune GAMES ARGS...` through the binary.
fn tune(games: &std::path::Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    bin().arg("tune").arg(games).args(args).output().unwrap()
}

#[test]
fn the_fit_recovers_weights_it_is_given_the_answer_for() {
    let truth = [40.0, -25.0, 90.0];
    let strengths = [0.0, -300.0];
    let k = 0.001;
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n) as f64
    };
    let mut data = Vec::new();
    for g in 0..4000 {
        let counts: Vec<f64> = (0..3).map(|_| next(9) - 4.0).collect();
        let fixed = next(1200) - 600.0;
        let (white, black) = if g % 2 == 0 { (0, 1) } else { (1, 0) };
        let e =
            fixed + counts.iter().zip(truth).map(|(c, w)| c * w).sum::<f64>() + strengths[white]
                - strengths[black];
        data.push(Sample {
            counts,
            fixed,
            result: 1.0 / (1.0 + (-k * e).exp()),
            white,
            black,
            holdout: g % 5 == 0,
        });
    }
    let start = Model {
        k,
        w: vec![10.0, -10.0, 10.0],
        s: vec![0.0, 0.0],
    };
    let w0 = start.w.clone();
    let m = fit(&data, &start, &w0, &[0, 1, 2], 0.0, 1500);
    for (got, want) in m.w.iter().zip(truth) {
        assert!((got - want).abs() < 1.0, "{:?} v {truth:?}", m.w);
    }
    assert!((m.s[1] - strengths[1]).abs() < 5.0, "{:?}", m.s);
    assert!(m.loss(&data, true) < start.loss(&data, true));
    // a pull toward the start keeps the weights nearer to it
    let pulled = fit(&data, &start, &w0, &[0, 1, 2], 1e-3, 1500);
    assert!((pulled.w[2] - w0[2]).abs() < (m.w[2] - w0[2]).abs());
}

/// What `tune` reads as a count (term / weight) is one: with every listed weight doubled, every
/// listed term doubles, on positions where each is non-zero somewhere.
#[test]
fn every_tuned_term_is_its_weight_times_a_count() {
    let fens = [
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
        "2r3k1/1p3ppp/p3p3/3pP3/P2P4/1P3N2/5PPP/2R3K1 w - - 0 30",
        "r4rk1/1R3ppp/2p5/p1P1p3/4P3/2N5/P4PPP/5RK1 w - - 0 25",
        "6k1/5p2/6p1/1P6/8/5P2/6PK/3b4 w - - 0 40",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/ppp2ppp/2n5/3q4/3P4/2P5/P4PPP/R1BQR1K1 b kq - 0 14",
    ];
    let mut single = ParamFile::default();
    let mut double = ParamFile::default();
    let mut e = Engine::new(Build::Full).unwrap();
    let start = e.params().unwrap();
    for (_, p) in LINEAR_WEIGHTS {
        let w = start.iter().find(|v| v.def.name == *p).unwrap().values[0];
        let w = if w == 0 { 3 } else { w };
        single.set_default(p, w).unwrap();
        double.set_default(p, 2 * w).unwrap();
    }
    let mut seen = std::collections::BTreeSet::new();
    for fen in fens {
        let pos = parse_fen(fen).unwrap();
        let mut terms = Vec::new();
        for pf in [&single, &double] {
            e.load_params(pf).unwrap();
            sargon::load(&mut e, &pos).unwrap();
            terms.push(e.eval().unwrap().terms);
        }
        for (name, p) in LINEAR_WEIGHTS {
            let v = |t: &Vec<z80chess::firmware::eval::Term>| {
                t.iter().find(|t| t.name == *name).unwrap().value
            };
            assert_eq!(2 * v(&terms[0]), v(&terms[1]), "{p} ({name}) in {fen}");
            if v(&terms[0]) != 0 {
                seen.insert(*p);
            }
        }
    }
    assert!(
        seen.len() >= 20,
        "only {} terms were ever non-zero: {seen:?}",
        seen.len()
    );
}

/// The command on games of a short match: a report naming the weights, a file that loads with
/// ten weights in each block; bad input stops it with what was wrong.
#[test]
fn tune_turns_games_into_a_parameter_file() {
    let d = dir();
    let pgn = d.join("games.pgn");
    let out = bin()
        .args([
            "match", "article", "1978", "--games", "8", "--level", "1", "--pgn",
        ])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Eight games are too few for weights that predict the held-out games better than the
    // start (the refusal has a test of its own): --force writes them.
    let file = d.join("tuned.params");
    let out = tune(
        &pgn,
        &["--out".as_ref(), file.as_os_str(), "--force".as_ref()],
    );
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("players: article, 1978"), "{report}");
    assert!(report.contains("chosen: lambda"), "{report}");
    let pf = ParamFile::load(&file).unwrap();
    assert_eq!(pf.default.len(), 10, "{pf:?}");
    assert_eq!(pf.e4, pf.default);
    assert_eq!(pf.d4, pf.default);
    for (name, _) in &pf.default {
        assert!(
            report.contains(&format!("  {name:<9}")),
            "{name} not in the report"
        );
    }

    // chosen weights
    let out = tune(
        &pgn,
        &[
            "--weights".as_ref(),
            "P_PASS,P_ROPEN".as_ref(),
            "--force".as_ref(),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success());
    let tail = &text[text.find("[default]").unwrap()..];
    assert!(
        tail.contains("P_PASS = ") && tail.contains("P_ROPEN = "),
        "{tail}"
    );
    assert_eq!(
        tail.lines().filter(|l| l.contains(" = ")).count(),
        6,
        "{tail}"
    );

    // bad input
    let bad_pgn = d.join("bad.pgn");
    std::fs::write(
        &bad_pgn,
        "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n",
    )
    .unwrap();
    let cases: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        (vec![bad_pgn.clone().into()], "bad.pgn:4"),
        (vec![d.join("missing.pgn").into()], "cannot read"),
        (
            vec![pgn.clone().into(), "--weights".into(), "P_NOSUCH".into()],
            "unknown weight `P_NOSUCH`",
        ),
        (
            vec![pgn.clone().into(), "--weights".into(), "P_QPCP".into()],
            "P_QPCP is 0 in the starting block",
        ),
    ];
    for (args, want) in cases {
        let out = bin().arg("tune").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&d).ok();
}

/// Games whose held-out fifth contradicts the rest (one game ten times, the players' colours
/// alternating; White wins the training games and loses the held-out ones): whatever the fit
/// learns predicts the held-out games worse than the starting weights. `tune` says so with
/// both losses, writes nothing and exits 1; `--force` writes the weights.
#[test]
fn tune_refuses_weights_that_predict_the_held_out_games_worse() {
    let d = std::env::temp_dir().join(format!("z80chess-tune-worse-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let game = std::fs::read_to_string("tests/data/chess/keres_najdorf_margate1939.pgn").unwrap();
    let moves = game[game.find("\n\n").unwrap()..]
        .trim()
        .trim_end_matches("1-0")
        .trim();
    let mut pgn = String::new();
    for g in 1..=10 {
        let (white, black) = if g % 2 == 1 { ("A", "B") } else { ("B", "A") };
        let result = if g % 5 == 0 { "0-1" } else { "1-0" };
        pgn.push_str(&format!(
            "[Event \"{g}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        ));
    }
    let games = d.join("games.pgn");
    std::fs::write(&games, pgn).unwrap();
    let file = d.join("tuned.params");
    let out = tune(&games, &["--out".as_ref(), file.as_os_str()]);
    let (report, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(1), "{report}{err}");
    let chosen = report
        .lines()
        .find(|l| l.starts_with("chosen: lambda"))
        .unwrap_or_else(|| panic!("no choice in the report: {report}"));
    // "chosen: lambda L (held-out loss X, starting weights Y)"
    let figures: Vec<f64> = chosen
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.contains('.'))
        .map(|w| w.parse().unwrap())
        .collect();
    let (tuned, start) = (figures[figures.len() - 2], figures[figures.len() - 1]);
    assert!(tuned > start, "{chosen}");
    assert!(
        err.contains("predict the held-out games worse")
            && err.contains(&format!("{tuned:.6}"))
            && err.contains(&format!("{start:.6}"))
            && err.contains("--force"),
        "{err}"
    );
    assert!(!file.exists(), "nothing is written");
    let out = tune(
        &games,
        &["--out".as_ref(), file.as_os_str(), "--force".as_ref()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(ParamFile::load(&file).is_ok());
    std::fs::remove_dir_all(&d).ok();
}
