//! A closed pipe (`z80chess COMMAND | head -3`) ends every command that prints quietly: no
//! "Broken pipe" error, no panic, the end a Unix tool has when its reader goes (SIGPIPE, or
//! success when nothing more was printed). One run per printing command, through the binary.

use std::process::{Command, Stdio};

/// Run `z80chess ARGS` with its output's reader gone from the start; what it said on stderr.
fn with_reader_gone(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.success() || out.status.signal() == Some(13),
            "{args:?}: {:?}, {err}",
            out.status
        );
    }
    err
}

#[test]
fn every_printing_command_ends_quietly_on_a_closed_pipe() {
    let dir = std::env::temp_dir().join(format!("z80chess-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A CP/M program that prints a line feed for ever: LD C,2; LD E,0Ah; CALL 5; JR 0100h.
    let com = dir.join("lines.com");
    std::fs::write(&com, [0x0E, 0x02, 0x1E, 0x0A, 0xCD, 0x05, 0x00, 0x18, 0xF7]).unwrap();
    let script = dir.join("help.dbg");
    std::fs::write(&script, "help\nregs\nhelp\n").unwrap();
    let epd = dir.join("one.epd");
    std::fs::write(
        &epd,
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\"; level 1;\n",
    )
    .unwrap();
    let rom = concat!(env!("CARGO_MANIFEST_DIR"), "/roms/article.bin");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let cases: Vec<Vec<&str>> = vec![
        vec!["cpm", com.to_str().unwrap(), "--max-cycles", "100000000"],
        vec!["perft", "--depth", "2", "--divide"],
        vec!["search", "--level", "1", "--fen", fen],
        vec!["eval", "--build", "full", "--fen", fen],
        vec!["xchng", "--fen", fen, "--square", "e5"],
        vec!["params", "--build", "full"],
        vec!["profile", "--level", "1", "--fen", fen],
        vec!["regress", epd.to_str().unwrap()],
        vec!["disasm", rom],
        vec!["debug", "--batch", "-x", script.to_str().unwrap()],
        vec!["match", "article", "1978", "--games", "1", "--level", "1"],
        vec!["help", "search"],
    ];
    for args in &cases {
        let err = with_reader_gone(args);
        for said in ["panicked", "Broken pipe", "os error 32"] {
            assert!(!err.contains(said), "{args:?}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
