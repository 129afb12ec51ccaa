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
