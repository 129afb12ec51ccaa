//! Scripted `z80chess play --text` sessions against golden transcripts
//! (tests/play/NAME.in -> NAME.out), bad input included.
//!
//! The sessions are built so that most of the Z80's moves come from its book or from forced
//! positions (a mate in one, a single legal reply), so a change of the search moves few of
//! them. The emulated thinking times are masked; moves, scores and the flow of the session
//! must match exactly. `BLESS=1 cargo test --test play_text` rewrites the .out files (and the
//! saved PGN) from the actual output.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bless() -> bool {
    std::env::var_os("BLESS").is_some()
}

/// Replace the number in each "N.N S)" (emulated seconds) with "#".
fn mask_seconds(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut l = line.to_string();
        if let Some(end) = l.find(" S)") {
            let start = l[..end]
                .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
                .map(|i| i + 1)
                .unwrap_or(0);
            l.replace_range(start..end, "#");
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("z80chess-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run one session in a scratch directory; its transcript, checked against NAME.out.
fn session(name: &str, args: &[&str]) -> (String, PathBuf) {
    let (text, dir) = run(name, args);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play");
    let golden = root.join(format!("{name}.out"));
    if bless() {
        std::fs::write(&golden, &text).unwrap();
    } else {
        let want = std::fs::read_to_string(&golden)
            .unwrap_or_else(|_| panic!("{} is missing (BLESS=1 writes it)", golden.display()));
        assert_eq!(
            mask_seconds(&text),
            mask_seconds(&want),
            "{name}: the transcript differs from {} (BLESS=1 rewrites it)",
            golden.display()
        );
    }
    (text, dir)
}

/// Run NAME.in through `play --text --turbo ARGS` in a scratch directory; its transcript.
fn run(name: &str, args: &[&str]) -> (String, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play");
    let input = std::fs::read(root.join(format!("{name}.in"))).unwrap();
    let dir = scratch(name);
    let mut child = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .arg("play")
        .arg("--text")
        .arg("--turbo")
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{name}: exit {:?}, stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\x1b'),
        "{name}: the text mode wrote a terminal control code"
    );
    (text, dir)
}

#[test]
fn prompts_and_bad_input() {
    let (t, _) = session("prompts", &["--no-board"]);
    assert!(t.contains("SELECT LOOK AHEAD (1-6)?"));
    assert!(t.contains("ILLEGAL MOVE"));
    assert!(t.contains("YOU RESIGN: I WIN"));
}

#[test]
fn promotion_in_the_1978_build() {
    let (t, _) = session(
        "promotion_1978",
        &[
            "--build",
            "1978",
            "--color",
            "white",
            "--level",
            "1",
            "--fen",
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
        ],
    );
    assert!(t.contains("the 1978 build promotes only to a queen"));
    assert!(t.contains("e8=N"));
}

#[test]
fn ambiguous_san() {
    let (t, _) = session(
        "ambiguous",
        &[
            "--color",
            "white",
            "--level",
            "1",
            "--no-board",
            "--fen",
            "4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1",
        ],
    );
    assert!(t.contains("ambiguous: Ncd5 or Ned5"));
}

#[test]
fn mates() {
    let (t, _) = session(
        "mates",
        &[
            "--color",
            "black",
            "--level",
            "1",
            "--no-board",
            "--fen",
            "7k/8/6K1/8/8/8/8/1Q6 b - - 0 1",
        ],
    );
    assert!(t.contains("MATE IN 2"));
    assert_eq!(t.matches("CHECKMATE\nI WIN").count(), 2, "{t}");
}

#[test]
fn draws_by_the_rules() {
    let (t, _) = session("rules", &["--color", "white", "--level", "1", "--no-board"]);
    assert!(t.contains("DRAW: NEITHER SIDE CAN MATE"));
    assert!(t.contains("STALEMATE: A DRAW"));
    assert!(t.contains("DRAW BY THE 50-MOVE RULE"));
}

#[test]
fn save_and_load_pgn() {
    let (t, dir) = session(
        "save_load",
        &[
            "--color",
            "white",
            "--level",
            "2",
            "--build",
            "1978",
            "--no-board",
        ],
    );
    assert!(t.contains("LOADED 2 PLIES; 1978 BUILD, LOOK AHEAD 2"));
    let pgn = std::fs::read_to_string(dir.join("game.pgn")).unwrap();
    let masked: String = pgn
        .lines()
        .map(|l| {
            if l.starts_with("[Date ") {
                "[Date \"????.??.??\"]\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play/save_load.pgn");
    if bless() {
        std::fs::write(&golden, &masked).unwrap();
    } else {
        assert_eq!(masked, std::fs::read_to_string(&golden).unwrap());
    }
    assert!(pgn.contains("[Z80Build \"1978\"]") && pgn.contains("[Z80Level \"2\"]"));
    let _ = std::fs::remove_dir_all(dir);
}

/// The Z80's moves of a transcript ("  3. ... D7-D5      d5       (LOOK AHEAD 2, ...)"), the
/// seconds masked.
fn z80_moves(t: &str) -> Vec<String> {
    mask_seconds(t)
        .lines()
        .filter(|l| l.contains("LOOK AHEAD") && l.contains("..."))
        .map(str::to_string)
        .collect()
}

#[test]
fn pondering_in_the_text_mode() {
    let args = [
        "--build",
        "full",
        "--level",
        "2",
        "--color",
        "white",
        "--no-board",
        "--fen",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ];
    let mut with = args.to_vec();
    with.push("--ponder");
    let (t, _) = session("ponder", &with);
    // After 3...d5 the Z80 expects 4.Bxd5 and searches it; the player plays it.
    assert!(t.contains("I EXPECT Bxd5 AND THINK ON YOUR TIME"), "{t}");
    let hit = t.find("AS I EXPECTED").expect("a ponder hit");
    // (a script's player waits for the ponder search to end: the answer costs the Z80 no
    // time of its own)
    let answer = t[hit..].lines().nth(1).unwrap();
    assert!(answer.ends_with(", 0.0 S)"), "{answer}");
    // The hit's answer, and every move after the take-back, the miss and `ponder off`, are
    // the moves of a session that never pondered on the same input.
    let (plain, _) = run("ponder", &args);
    // (the plain session ponders only after its `ponder on`, once before `ponder` stops it)
    assert_eq!(plain.matches("\nI EXPECT ").count(), 1, "{plain}");
    assert_eq!(t.matches("\nI EXPECT ").count(), 4, "{t}");
    assert_eq!(z80_moves(&t), z80_moves(&plain));
    assert_eq!(z80_moves(&t).len(), 5, "{t}");
    assert!(t.contains("PONDER: ONLY THE FULL BUILD NAMES THE REPLY IT EXPECTS"));
    assert!(t.contains("PONDER: ON OR OFF"));
}

#[test]
fn ponder_needs_the_full_build() {
    let out = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(["play", "--text", "--ponder", "--build", "article"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--ponder: only --build full ponders"), "{err}");
}
