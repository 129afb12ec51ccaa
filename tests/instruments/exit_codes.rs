//! The exit codes the README gives: 0 success, 1 the engine or a run failed, 2 usage (clap's),
//! 3 a bad input file or position. Each through the binary.

fn code(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(args)
        .output()
        .expect("run z80chess");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn success_is_0() {
    assert_eq!(code(&["perft", "--depth", "1"]).0, Some(0));
}

#[test]
fn usage_is_2() {
    for args in [
        &["perft", "--no-such-flag"][..],
        &["search", "--build", "1979"],
        &["no-such-command"],
        &["serve"],
    ] {
        let (c, err) = code(args);
        assert_eq!(c, Some(2), "{args:?}: {err}");
    }
}

#[test]
fn a_bad_input_file_or_position_is_3() {
    let dir = std::env::temp_dir().join(format!("z80chess-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_params = dir.join("bad.params");
    std::fs::write(&bad_params, "P_NO_SUCH_NAME = 1\n").unwrap();
    let bad_asm = dir.join("bad.asm");
    std::fs::write(&bad_asm, "\tLD A,\n").unwrap();
    let missing = dir.join("missing.com");
    let out = dir.join("out.bin");
    let cases: Vec<Vec<&str>> = vec![
        vec!["search", "--fen", "8/8/8/8 w - - 0 1"],
        vec!["search", "--moves", "e2e4 e2e4"],
        vec!["search", "--level", "9"],
        vec!["perft", "--fen", "8/8/8/8/8/8/8/KK5k w - - 0 1"],
        vec![
            "xchng",
            "--fen",
            "8/8/8/8/8/8/8/K6k w - - 0 1",
            "--square",
            "z9",
        ],
        vec![
            "eval",
            "--build",
            "full",
            "--params",
            bad_params.to_str().unwrap(),
        ],
        vec!["cpm", missing.to_str().unwrap()],
        vec![
            "asm",
            bad_asm.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        vec!["disasm", missing.to_str().unwrap()],
        vec![
            "uci",
            "--build",
            "full",
            "--params",
            bad_params.to_str().unwrap(),
        ],
    ];
    for args in &cases {
        let (c, err) = code(args);
        assert_eq!(c, Some(3), "{args:?}: {err}");
        assert!(
            err.contains("z80chess: "),
            "{args:?}: the error is said: {err}"
        );
    }
    assert!(!out.exists(), "a failed assembly writes nothing");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_failed_run_is_1() {
    // A CP/M program that loops for ever (JP 0100h) stopped by --max-cycles.
    let dir = std::env::temp_dir().join(format!("z80chess-exit1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("loop.com");
    std::fs::write(&prog, [0xC3, 0x00, 0x01]).unwrap();
    let (c, err) = code(&["cpm", prog.to_str().unwrap(), "--max-cycles", "1000"]);
    assert_eq!(c, Some(1), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every subcommand's bad inputs: a FEN, a position, a file that is missing or is not what
/// it should be, are 3, whichever command reads them.
#[test]
fn each_commands_bad_inputs_are_3() {
    let dir = std::env::temp_dir().join(format!("z80chess-exit3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("nonexistent");
    let missing = missing.to_str().unwrap();
    let epd = dir.join("one.epd");
    std::fs::write(
        &epd,
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";\n",
    )
    .unwrap();
    let epd = epd.to_str().unwrap();
    let bad_epd = dir.join("bad.epd");
    std::fs::write(&bad_epd, "this is no position; id \"x\";\n").unwrap();
    let bad_epd = bad_epd.to_str().unwrap();
    let tables = dir.join("tables");
    let tables = tables.to_str().unwrap();
    let bad_fen = "8/8/8/8 w - - 0 1";
    let cases: Vec<Vec<&str>> = vec![
        vec!["profile", "--fen", bad_fen],
        vec!["profile", "--moves", "e4 e4"],
        vec!["profile", "--level", "9"],
        vec!["eval", "--fen", bad_fen],
        vec!["eval", "--moves", "e2e5"],
        vec!["debug", "--fen", bad_fen, "--batch"],
        vec!["debug", "--moves", "Nf6", "--batch"],
        vec!["debug", "-x", missing, "--batch"],
        vec![
            "tablebase",
            "probe",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "--dir",
            tables,
        ],
        vec!["tablebase", "probe", "--fen", bad_fen, "--dir", tables],
        vec!["tablebase", "build", "KXK", "--dir", tables],
        vec!["regress", missing],
        vec!["regress", bad_epd],
        vec!["regress", epd, "--compare", missing],
        vec!["regress", epd, "--compare", bad_epd],
        vec!["regress", epd, "--level", "9"],
        vec![
            "match",
            "article",
            "1978",
            "--games",
            "1",
            "--level",
            "1",
            "--openings",
            missing,
        ],
        vec![
            "match",
            "article",
            "1978",
            "--games",
            "1",
            "--level",
            "1",
            "--openings",
            bad_epd,
        ],
        vec!["perft", "--fen", bad_fen],
        vec!["play", "--text", "--fen", bad_fen],
    ];
    for args in &cases {
        let (c, err) = code(args);
        assert_eq!(c, Some(3), "{args:?}: {err}");
        assert!(
            err.contains("z80chess: "),
            "{args:?}: the error is said: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A run whose checks fail is 1: regress's failures with or without --record, and a
/// comparison that compares nothing (no position of the run in the baseline).
#[test]
fn regress_failures_and_an_empty_comparison_are_1() {
    let dir = std::env::temp_dir().join(format!("z80chess-exit-rg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // WAC.002 at level 1: the article build does not find Rxb2.
    let epd = dir.join("one.epd");
    std::fs::write(
        &epd,
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\"; level 1;\n",
    )
    .unwrap();
    let epd = epd.to_str().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(["regress", epd])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 failed"),
        "the case must fail for this test: {text}"
    );
    assert!(
        text.contains("(expected Rxb2)"),
        "the failure names the move: {text}"
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    let golden = dir.join("golden.tsv");
    let (c, err) = code(&["regress", epd, "--record", golden.to_str().unwrap()]);
    assert_eq!(c, Some(1), "failures with --record: {err}");
    assert!(golden.exists(), "the record is still written");
    // The same positions with another build compare nothing: an error, not a pass.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(["regress", epd, "--build", "1978", "--compare"])
        .arg(&golden)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("nothing compared"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `roms` works on the current directory or `--dir`, says which tree, and refuses a tree
/// without `asm/` (never reading the one the binary was built in instead).
#[test]
fn roms_works_on_the_tree_it_is_given() {
    let empty = std::env::temp_dir().join(format!("z80chess-roms-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(["roms", "--check"])
        .current_dir(&empty)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("no asm/main.asm") && err.contains("--dir"),
        "{err}"
    );
    let tree = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(["roms", "--check", "--dir", tree])
        .current_dir(&empty)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let first = text.lines().next().unwrap_or_default();
    let canonical = std::fs::canonicalize(tree).unwrap();
    assert!(
        first.starts_with("source tree ") && first.contains(&canonical.display().to_string()),
        "{first}"
    );
    std::fs::remove_dir_all(&empty).ok();
}
