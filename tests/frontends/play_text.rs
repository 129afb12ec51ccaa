//! Scripted `z80chess play --text` sessions against golden transcripts
//! (tests/play/NAME.in -> NAME.out), bad input included.
//!
//! The sessions are built so that most of the Z80's moves come from its book or from forced
//! positions (a mate in one, a single legal reply), so a change of the search moves few of
//! them. The emulated thinking times are masked; moves, scores and the flow of the session
//! must match exactly. `BLESS=1 cargo test --test frontends play_text::` rewrites the .out files (and the
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
    session_with(name, args, |_| {})
}

/// [`session`] with files put in the scratch directory first by `setup`.
fn session_with(name: &str, args: &[&str], setup: impl FnOnce(&Path)) -> (String, PathBuf) {
    let (text, dir) = run_with(name, args, setup);
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
    run_with(name, args, |_| {})
}

fn run_with(name: &str, args: &[&str], setup: impl FnOnce(&Path)) -> (String, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play");
    let input = std::fs::read(root.join(format!("{name}.in"))).unwrap();
    let dir = scratch(name);
    setup(&dir);
    let text = run_bytes(name, &input, args, &dir);
    (text, dir)
}

/// `play --text --turbo ARGS` in `dir` fed `input` (any bytes); its transcript. It must exit
/// with success.
fn run_bytes(name: &str, input: &[u8], args: &[&str], dir: &Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .arg("play")
        .arg("--text")
        .arg("--turbo")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input).unwrap();
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
    text
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

/// A line that is not UTF-8 (a 0xFF byte) is refused by name wherever a line is read (a
/// question, a move, a command with a file name), and the session goes on. It used to end the
/// session silently.
#[test]
fn lines_that_are_not_utf8_are_refused() {
    let dir = scratch("not_utf8");
    let input: &[u8] = b"\xff\nw\n\xfe\xff\n1\ne2\xffe4\nsave g\xff.pgn\ne4\nquit\n";
    let t = run_bytes("not_utf8", input, &["--no-board"], &dir);
    let refusals: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("NOT UTF-8 TEXT, IGNORED: '"))
        .collect();
    assert_eq!(refusals.len(), 4, "{t}");
    assert!(refusals[2].contains("'e2\u{FFFD}e4'"), "{t}");
    assert!(refusals[3].contains("'save g\u{FFFD}.pgn'"), "{t}");
    // Each question asked again; the game goes on after them.
    assert!(t.contains("(W/B)? w\n"), "{t}");
    assert!(t.contains("(1-6)? 1\n"), "{t}");
    assert!(t.contains("  1.     E2-E4      e4\n  1. ... "), "{t}");
    assert!(t.ends_with("GOODBYE\n"), "{t}");
    // No file saved under a name made of the bad bytes.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

/// `save` never overwrites: a file that is not a PGN is left as it was, a PGN file gets the
/// game added after its own (and `load` reads the last game); a `load` of a file with no game,
/// a bad game or no file changes nothing and says so.
#[test]
fn save_and_load_lose_nothing() {
    let keep_pgn = "[Event \"mine\"]\n\n1. d4 d5 *\n";
    let (t, dir) = session_with(
        "save_keep",
        &["--color", "white", "--level", "1", "--no-board"],
        |d| {
            std::fs::write(d.join("notes.pgn"), "KEEP\n").unwrap();
            std::fs::write(d.join("mine.pgn"), keep_pgn).unwrap();
            std::fs::write(d.join("empty.pgn"), "\n").unwrap();
            std::fs::write(d.join("bad.pgn"), "1. e4 e5 2. Ke3 *\n").unwrap();
        },
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.pgn")).unwrap(),
        "KEEP\n"
    );
    assert!(
        t.contains("SAVE: notes.pgn exists and is not a PGN file"),
        "{t}"
    );
    let mine = std::fs::read_to_string(dir.join("mine.pgn")).unwrap();
    assert!(mine.starts_with(keep_pgn), "{mine}");
    assert_eq!(mine.matches("[Event ").count(), 2, "{mine}");
    assert!(
        t.contains("SAVED TO mine.pgn, AFTER THE 1 GAME ALREADY IN IT"),
        "{t}"
    );
    assert!(
        t.contains("LOAD: empty.pgn holds no game; nothing changed"),
        "{t}"
    );
    assert!(t.contains("LOAD: bad.pgn: move 3 (Ke3)"), "{t}");
    assert!(t.contains("(GAME 2 OF 2)"), "{t}");
    // No temporary file left beside them.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `B6f7` (the bishop on the sixth rank; both stand on the e-file) is SAN, at the prompt and in
/// a PGN `load`; it used to be read as the coordinates b6f7 and refused.
#[test]
fn rank_disambiguation_is_san() {
    let fen = "4B2k/8/4B3/8/8/8/P7/K7 w - - 0 40";
    let (t, dir) = session_with(
        "rank_san",
        &[
            "--color",
            "white",
            "--level",
            "1",
            "--no-board",
            "--fen",
            fen,
        ],
        |d| {
            std::fs::write(
                d.join("b6f7.pgn"),
                format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n40. B6f7 Kg7 *\n"),
            )
            .unwrap();
        },
    );
    assert!(t.contains(" 40.     E6-F7      B6f7\n"), "{t}");
    assert!(t.contains("LOADED 2 PLIES;"), "{t}");
    assert!(t.contains("'b6f7': there is no piece on b6"), "{t}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The input closes while the Z80 thinks: its move is still played and printed, and the
/// session ends with GOODBYE and exit 0 (no hang).
#[test]
fn end_of_input_while_the_z80_thinks() {
    let dir = scratch("eof");
    let t = run_bytes(
        "eof",
        b"e4",
        &["--color", "white", "--level", "2", "--no-board"],
        &dir,
    );
    assert!(t.contains("  1. ... "), "{t}");
    assert!(t.ends_with("GOODBYE\n"), "{t}");
    let _ = std::fs::remove_dir_all(dir);
}
