//! The regression suite: the 1978 build against the original program's moves
//! (`sargon1978_tests.tsv`, PLYMAX <= 3), both builds on a slice of WAC at level 2, each against
//! a golden file in `tests/regress/`; and the runner itself (EPD/TSV parsing, golden files,
//! comparison, the command line).
//!
//! A change to the engine that changes a move, or makes a position dearer, fails here until the
//! golden files are recorded again, on purpose:
//!
//! ```sh
//! Z80CHESS_RECORD=1 cargo test --test instruments regress::     # rewrites tests/regress/*.tsv
//! ```

use std::path::PathBuf;
use std::process::Command;
use z80chess::firmware::Build;
use z80chess::profile::regress::{
    compare, golden_text, parse_cases, parse_golden, plan, progress_bar, run, run_shown, tally,
    Case, Options, Outcome, Verdict,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess/");
/// The first WAC positions searched by the suite (each by both builds, at level 2).
const WAC_SLICE: usize = 100;
const WAC_LEVEL: u8 = 2;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/regress")
        .join(name)
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Run `cases`, then record the golden file (Z80CHESS_RECORD set) or compare with it: no move
/// may change, no position may get dearer, none may appear or vanish.
fn against_golden(name: &str, cases: &[Case], opts: &Options) -> Vec<Outcome> {
    let (jobs, _) = plan(cases, opts).unwrap();
    let outcomes = run(cases, &jobs, opts.jobs, |_, _| {});
    let path = golden(name);
    if std::env::var_os("Z80CHESS_RECORD").is_some() {
        std::fs::write(&path, golden_text(&outcomes)).unwrap();
        println!("recorded {}", path.display());
        return outcomes;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record it: Z80CHESS_RECORD=1 cargo test --test instruments regress::)",
            path.display()
        )
    });
    let base = parse_golden(&text, name).unwrap();
    let c = compare(&base, &outcomes, 0.0);
    for l in &c.lines {
        println!("{l}");
    }
    println!("{name}: {}", c.summary());
    assert!(
        !c.failed() && c.new == 0 && c.missing == 0,
        "{name}: the engine's results changed (above). If that is intended, record the golden \
         files again: Z80CHESS_RECORD=1 cargo test --test instruments regress::, and say why in the commit"
    );
    outcomes
}

#[test]
fn sargon1978_suite_against_its_golden_file() {
    let text = std::fs::read_to_string(format!("{DATA}sargon1978_tests.tsv")).unwrap();
    let cases = parse_cases(&text, "sargon1978_tests.tsv").unwrap();
    assert_eq!(cases.len(), 37);
    let opts = Options {
        builds: vec![Build::B1978],
        level: None,
        max_level: Some(3),
        params: None,
        jobs: threads(),
    };
    let out = against_golden("sargon1978_l3.tsv", &cases, &opts);
    let (passed, failed) = tally(&out);
    println!("sargon1978 (1978 build, PLYMAX <= 3 and the book): {passed} passed, {failed} failed");
    assert!(out.len() >= 15);
    assert_eq!(
        failed, 0,
        "the 1978 build plays the original's move everywhere"
    );
}

#[test]
fn wac_slice_against_its_golden_file() {
    let text = std::fs::read_to_string(format!("{DATA}wac.epd")).unwrap();
    let cases: Vec<Case> = parse_cases(&text, "wac.epd")
        .unwrap()
        .into_iter()
        .take(WAC_SLICE)
        .collect();
    let opts = Options {
        builds: Build::ALL.to_vec(),
        level: Some(WAC_LEVEL),
        max_level: None,
        params: None,
        jobs: threads(),
    };
    let out = against_golden("wac_l2.tsv", &cases, &opts);
    assert_eq!(out.len(), Build::ALL.len() * WAC_SLICE);
    for build in Build::ALL {
        let mine: Vec<Outcome> = out.iter().filter(|o| o.build == build).cloned().collect();
        let (passed, failed) = tally(&mine);
        println!("WAC 1-{WAC_SLICE} at level {WAC_LEVEL}, {build}: {passed} solved, {failed} not");
        assert!(mine.iter().all(|o| o.verdict != Verdict::Error), "{build}");
    }
}

#[test]
fn epd_and_tsv_are_read() {
    let epd = "\
# a comment
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; am Rc3; id \"odd; id\"; level 3;
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - hmvc 4; fmvn 40;
";
    let c = parse_cases(epd, "t.epd").unwrap();
    assert_eq!(c.len(), 3);
    assert_eq!(c[0].id, "WAC.001");
    assert_eq!(c[0].best, vec!["g3g6"]);
    assert_eq!(c[0].level, None);
    assert!(c[0].fen.ends_with(" w - - 0 1"));
    assert_eq!(c[1].id, "odd; id");
    assert_eq!(c[1].best, vec!["b3b2"]);
    assert_eq!(c[1].avoid, vec!["b3c3"]);
    assert_eq!(c[1].level, Some(3));
    assert!(c[1].accepts("b3b2") && !c[1].accepts("b3c3") && !c[1].accepts("f6e6"));
    assert_eq!(c[2].id, "t.epd:4");
    assert!(c[2].fen.ends_with(" b - - 4 40"));
    assert!(!c[2].checked());

    let tsv = "# comment\nid\tfen\tplymax\tsargon_move_uci\n\
        A\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t5\td2d4\n\
        B\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t5\te2e4\n\
        C\t7k/8/8/8/8/8/8/N6K w - - 0 1\t3\tKg2\n";
    let c = parse_cases(tsv, "t.tsv").unwrap();
    assert_eq!(c.len(), 3);
    // The same position at the same level accepts either listed move (the book's coin).
    assert_eq!(c[0].best, vec!["d2d4", "e2e4"]);
    assert_eq!(c[1].best, c[0].best);
    assert_eq!((c[2].id.as_str(), c[2].level), ("C", Some(3)));
    assert_eq!(c[2].best, vec!["h1g2"], "SAN is read too");

    for bad in [
        "8/8/8/8/8/8/8/8 w - - bm e4;",
        "7k/8/8/8/8/8/8/N6K w - - bm Kh3;",
        "7k/8/8/8/8/8/8/N6K w - - level 9;",
        "7k/8/8/8/8/8/8/N6K w",
    ] {
        assert!(parse_cases(bad, "bad.epd").is_err(), "{bad}");
    }
    let opts = Options {
        builds: vec![Build::Article],
        level: None,
        max_level: None,
        params: None,
        jobs: 1,
    };
    let err = plan(&parse_cases(epd, "t.epd").unwrap(), &opts).unwrap_err();
    assert!(err.contains("t.epd:2") && err.contains("--level"), "{err}");
}

#[test]
fn golden_files_round_trip_and_compare() {
    let cases = parse_cases(
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"m1\";\n\
         7k/8/8/8/8/8/8/N6K w - - id \"quiet\";\n",
        "t.epd",
    )
    .unwrap();
    let opts = Options {
        builds: Build::PERIOD.to_vec(),
        level: Some(1),
        max_level: None,
        params: None,
        jobs: 2,
    };
    let (jobs, skipped) = plan(&cases, &opts).unwrap();
    assert_eq!((jobs.len(), skipped.len()), (4, 0));
    let mut order = Vec::new();
    let out = run(&cases, &jobs, 2, |k, _| order.push(k));
    assert_eq!(order, vec![0, 1, 2, 3], "results arrive in job order");
    assert_eq!(out[0].verdict, Verdict::Pass);
    assert_eq!(out[0].mv, "a1a8");
    assert_eq!(out[0].san, "Ra8#");
    assert_eq!(out[0].score, z80chess::firmware::Score::Byte(0xFF));
    assert_eq!(out[2].verdict, Verdict::Unchecked);
    assert_eq!(tally(&out), (2, 0));
    // Threads change nothing.
    assert_eq!(run(&cases, &jobs, 1, |_, _| {}), out);

    let text = golden_text(&out);
    let back = parse_golden(&text, "g").unwrap();
    assert_eq!(back, out);
    let c = compare(&back, &out, 0.0);
    assert!(!c.failed() && c.same == 4 && c.lines.is_empty());

    // A dearer position: within 5% passes at 5%, fails at 1%; cheaper never fails.
    let mut dearer = out.clone();
    dearer[1].tstates += dearer[1].tstates * 3 / 100;
    assert!(!compare(&out, &dearer, 5.0).failed());
    let c = compare(&out, &dearer, 1.0);
    assert!(c.failed() && c.beyond_tolerance == 1, "{c:?}");
    assert!(c.lines[0].contains("+3.00%"), "{}", c.lines[0]);
    let c = compare(&dearer, &out, 0.0);
    assert!(!c.failed() && c.cheaper == 1);
    assert!(c.lines[0].contains("-2.9"), "{}", c.lines[0]);
    // A changed move fails whatever the tolerance.
    let mut moved = out.clone();
    moved[2].mv = "h1h2".into();
    let c = compare(&out, &moved, 100.0);
    assert!(c.failed() && c.moves_changed == 1);
    assert!(c.lines[0].contains("MOVE CHANGED"), "{}", c.lines[0]);
    // Positions new and not run are reported.
    let c = compare(&out[..3], &out[1..], 0.0);
    assert_eq!((c.new, c.missing, c.same), (1, 1, 2));
    assert!(parse_golden("x\tarticle\n", "g").is_err());
}

#[test]
fn regress_command_records_and_compares() {
    let dir = std::env::temp_dir().join(format!("z80chess-regress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("t.epd");
    std::fs::write(
        &epd,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"m1\";\n\
         r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Kf8; id \"wrong\";\n",
    )
    .unwrap();
    let gold = dir.join("gold.tsv");
    let z = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_z80chess"))
            .arg("regress")
            .arg(&epd)
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        println!("{text}{err}");
        (out.status.success(), text + &err)
    };
    let (ok, text) = z(&["--level", "1", "--record", gold.to_str().unwrap()]);
    assert!(!ok, "failures fail the run, recorded or not");
    assert!(text.contains("1 position failed"), "{text}");
    assert!(gold.exists(), "the record is written all the same");
    assert!(text.lines().any(|l| l == "1 passed, 1 failed"), "{text}");
    assert!(text.contains("m1") && text.contains("pv Ra8#"), "{text}");
    let (ok, _) = z(&["--level", "1"]);
    assert!(!ok, "a failed position fails the run");
    let (ok, text) = z(&["--level", "1", "--compare", gold.to_str().unwrap()]);
    assert!(ok, "the same results as the baseline pass");
    assert!(text.contains("2 unchanged"), "{text}");
    // A baseline that was cheaper: the run is dearer beyond the tolerance.
    let g = std::fs::read_to_string(&gold).unwrap();
    let mut b = parse_golden(&g, "gold").unwrap();
    b[0].tstates -= b[0].tstates / 10;
    std::fs::write(&gold, golden_text(&b)).unwrap();
    let (ok, text) = z(&["--level", "1", "--compare", gold.to_str().unwrap()]);
    assert!(!ok && text.contains("beyond the tolerance"), "{text}");
    let (ok, _) = z(&[
        "--level",
        "1",
        "--compare",
        gold.to_str().unwrap(),
        "--tolerance",
        "12",
    ]);
    assert!(ok, "within a 12% tolerance");
    std::fs::remove_dir_all(&dir).ok();
}

/// A terminal that keeps what is written to it, for reading the bar without a terminal.
#[derive(Debug, Default, Clone)]
struct Screen(std::sync::Arc<std::sync::Mutex<String>>);

impl Screen {
    fn put(&self, s: &str) -> std::io::Result<()> {
        self.0.lock().unwrap().push_str(s);
        Ok(())
    }
    fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }
}

impl indicatif::TermLike for Screen {
    fn width(&self) -> u16 {
        160
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\n")
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The bar shows the run from its start: while the first position is searched, before any
/// result, it already names that position and counts it among the searches.
#[test]
fn the_bar_names_the_first_position_before_its_result() {
    let text = "\
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";
";
    let cases = parse_cases(text, "two.epd").unwrap();
    let opts = Options {
        builds: vec![Build::Article],
        level: Some(1),
        max_level: None,
        params: None,
        jobs: 1,
    };
    let (jobs, _) = plan(&cases, &opts).unwrap();
    let screen = Screen::default();
    let target = indicatif::ProgressDrawTarget::term_like(Box::new(screen.clone()));
    let bar = progress_bar(jobs.len(), target).unwrap();
    let mut before_first = None;
    let out = run_shown(&cases, &jobs, 1, None, None, &bar, |k, _| {
        if k == 0 {
            before_first = Some(screen.text());
        }
    });
    assert_eq!(out.len(), 2);
    let shown = before_first.expect("a first result");
    assert!(
        shown.contains("WAC.001") && shown.contains("1 of 2") && shown.contains("0/2 searches"),
        "before the first result the bar showed: {shown:?}"
    );
}
