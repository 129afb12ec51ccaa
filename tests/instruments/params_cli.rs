//! `--params FILE` on every command that runs the full build: the file reaches the Z80 (what it
//! computes changes), a bad file stops the command with the line named, and records carry the
//! file's hash.

use std::io::Write;
use std::process::{Command, Stdio};
use z80chess::firmware::params::ParamFile;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_z80chess"))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let o = bin().args(args).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("z80chess-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn a_bad_file_stops_every_command_with_its_line() {
    let bad = file("bad.params", "[default]\nP_PAWN = 256\nP_PAWN_X = 3\n");
    for args in [
        vec!["search", "--build", "full", "--fen", FEN, "--level", "1"],
        vec!["eval", "--build", "full", "--fen", FEN],
        vec!["params"],
        vec!["profile", "--build", "full", "--fen", FEN, "--level", "1"],
        vec!["bench"],
        vec!["uci", "--build", "full"],
        vec!["xboard", "--build", "full"],
        vec!["play", "--text", "--build", "full"],
        vec!["debug", "--build", "full", "--batch"],
        vec!["match", "full", "article", "--games", "2", "--level", "1"],
    ] {
        let mut a = args.clone();
        if a[0] == "match" {
            a[1] = "full:BAD";
        } else {
            a.extend(["--params", "BAD"]);
        }
        let a: Vec<String> = a.iter().map(|s| s.replace("BAD", &bad)).collect();
        let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        let (ok, out, err) = run(&a);
        assert!(!ok, "{a:?} succeeded: {out}");
        assert!(
            err.contains("bad.params:3") && err.contains("P_PAWN_X"),
            "{a:?}: {err}"
        );
    }
    // A period build refuses a parameter file.
    let good = file("good.params", "P_PAWN = 300\n");
    let (ok, _, err) = run(&[
        "search", "--build", "article", "--fen", FEN, "--params", &good,
    ]);
    assert!(!ok && err.contains("only in the full build"), "{err}");
}

#[test]
fn the_file_reaches_the_z80_through_each_command() {
    let f = file("bc.params", "[default]\nP_BCSQ = 64\n");
    let hash = ParamFile::load(std::path::Path::new(&f)).unwrap().hash();
    // eval: board control doubles.
    let (ok, plain, _) = run(&["eval", "--build", "full", "--fen", FEN]);
    assert!(ok);
    let (ok, with, _) = run(&["eval", "--build", "full", "--fen", FEN, "--params", &f]);
    assert!(ok);
    let bc = |s: &str| -> i32 {
        let l = s.lines().find(|l| l.contains("board control ")).unwrap();
        l.rsplit('(')
            .next()
            .unwrap()
            .trim_end_matches(')')
            .parse()
            .unwrap()
    };
    assert_eq!(2 * bc(&plain), bc(&with), "{plain}\n{with}");
    // search and profile: another tree.
    for cmd in ["search", "profile"] {
        let (ok, a, _) = run(&[cmd, "--build", "full", "--fen", FEN, "--level", "2"]);
        assert!(ok, "{cmd}");
        let (ok, b, _) = run(&[
            cmd, "--build", "full", "--fen", FEN, "--level", "2", "--params", &f,
        ]);
        assert!(ok, "{cmd}");
        let evals = |s: &str| {
            s.lines()
                .find(|l| l.starts_with("evaluations"))
                .unwrap()
                .to_string()
        };
        assert_ne!(evals(&a), evals(&b), "{cmd}: {a}\n{b}");
    }
    // params: the table shows the file's value.
    let (ok, out, _) = run(&["params", "--params", &f]);
    assert!(ok);
    let l = out.lines().find(|l| l.starts_with("P_BCSQ")).unwrap();
    assert!(l.contains("     64      64      64"), "{l}");
    // regress: the record names the file by hash.
    let epd = file(
        "one.epd",
        &format!("{} bm Nxe5; id \"t1\";\n", &FEN[..FEN.len() - 4]),
    );
    let rec = file("rec.tsv", "");
    let (_, out, err) = run(&[
        "regress", &epd, "--build", "full", "--level", "1", "--params", &f, "--record", &rec,
        "--force",
    ]);
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(text.contains(&format!("hash {hash}")), "{out}{err}{text}");
    // uci: the file, and setoption on top of it.
    let mut child = bin()
        .args(["uci", "--build", "full", "--params", &f])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("option name P_BCSQ type spin default 64 min 0 max 128"),
        "{text}"
    );
    assert!(
        text.contains("option name Build type combo default full"),
        "{text}"
    );
}

#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    // `z80chess search ... | head -0`: the reader has gone before the answer is printed. The
    // command ends as a Unix tool does (SIGPIPE), not with a panic from println!.
    let mut child = bin()
        .args(["search", "--build", "article", "--level", "3", "--fen", FEN])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
    }
}
