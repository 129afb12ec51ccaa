//! Real clients, run as a user runs them (all `#[ignore]`d: minutes each, and they need Debian's
//! packages). Run them with
//!
//! ```sh
//! apt-get install xboard xvfb polyglot stockfish fairymax && pip install chess
//! cargo test --release --test frontends clients:: -- --ignored --test-threads 1
//! ```
//!
//! - `python_chess_session`: `tests/clients/session.py` drives `z80chess uci --build full`
//!   through python-chess as lichess-bot does (its default options, `searchmoves`, 20 games
//!   against Stockfish at Skill Level 0 at 10 s + 0.1 s, searches stopped at random moments),
//!   with `tests/clients/relay.py` in the middle counting every `go` and `bestmove`, timing
//!   `isready` mid-search and feeding a malformed line every ten commands.
//! - `python_chess_scores_agree_in_sign_with_stockfish`: `tests/clients/signs.py` analyses a
//!   position with `multipv=3` (three lines, three moves) and plays two games of
//!   `z80chess uci --build full` against Stockfish; every score z80chess gave is compared with
//!   Stockfish's own (depth 14) of the same position, and where Stockfish says a side is ahead
//!   by more than two pawns the signs must agree.
//! - `xboard_gui_vs_fairymax`: Debian's XBoard under xvfb-run, `-fcp "z80chess xboard"` against
//!   Fairy-Max, four games to the end, XBoard's debug log read for protocol errors.
//! - `polyglot_uci_in_xboard`: the same with `z80chess uci` behind Debian's PolyGlot adapter.
//!
//! A missing tool fails the test with the package to install; nothing is skipped silently.

use std::path::{Path, PathBuf};
use std::process::Command;

const Z80CHESS: &str = env!("CARGO_BIN_EXE_z80chess");

/// Debian puts the engines and XBoard in /usr/games, which is not on PATH by default.
fn path_with_games() -> String {
    format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default())
}

fn need(tool: &str, package: &str) -> PathBuf {
    for dir in path_with_games().split(':') {
        let p = Path::new(dir).join(tool);
        if p.is_file() {
            return p;
        }
    }
    panic!("{tool} not found on PATH or in /usr/games: apt-get install {package}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("z80chess-clients-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run `tests/clients/SCRIPT Z80CHESS GAMES` with python-chess against Stockfish; it must
/// succeed (`what` names the failure).
fn python_chess(script: &str, games: &str, what: &str) {
    need("stockfish", "stockfish");
    let python = need("python3", "python3");
    let ok = Command::new(&python)
        .args(["-c", "import chess.engine"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "python-chess is missing: pip install chess");
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/clients")
        .join(script);
    let out = Command::new(&python)
        .arg(&script)
        .arg(Z80CHESS)
        .arg(games)
        .env("PATH", path_with_games())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "{what}:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "minutes: python-chess, 20 games against Stockfish; see the module doc"]
fn python_chess_session() {
    python_chess("session.py", "20", "the session failed");
}

#[test]
#[ignore = "minutes: python-chess analyses with multipv=3 and plays 2 games against Stockfish"]
fn python_chess_scores_agree_in_sign_with_stockfish() {
    python_chess(
        "signs.py",
        "2",
        "the scores disagree in sign with Stockfish's, or the session failed",
    );
}

/// Four games in XBoard between `first` and Fairy-Max; returns the PGN and the debug log.
fn xboard_match(name: &str, first: &[&str]) -> (String, String) {
    let xvfb = need("xvfb-run", "xvfb");
    let xboard = need("xboard", "xboard");
    let fairymax = need("fairymax", "fairymax");
    let dir = scratch(name);
    let pgn = dir.join("games.pgn");
    let debug = dir.join("xboard.debug");
    let status = Command::new(xvfb)
        .arg("-a")
        .arg(xboard)
        .args(first)
        .arg("-scp")
        .arg(&fairymax)
        .args(["-mg", "4", "-tc", "0:30", "-inc", "0.3", "-xexit", "-debug"])
        .arg("-nameOfDebugFile")
        .arg(&debug)
        .arg("-sgf")
        .arg(&pgn)
        .env("PATH", path_with_games())
        .current_dir(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "xboard exited with {status}");
    (
        std::fs::read_to_string(&pgn).unwrap_or_default(),
        std::fs::read_to_string(&debug).unwrap(),
    )
}

/// Every game ended on the board (mate, a draw rule, resignation), none by a protocol fault,
/// and nothing the first engine said was an error.
fn check_match(pgn: &str, debug: &str) {
    let results: Vec<&str> = pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .map(|r| r.trim_end_matches("\"]"))
        .collect();
    assert_eq!(results.len(), 4, "four games expected:\n{pgn}");
    for r in &results {
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(r),
            "game result {r}:\n{pgn}"
        );
    }
    let lower = pgn.to_ascii_lowercase();
    for bad in [
        "illegal",
        "forfeit",
        "false",
        "crash",
        "xboard exit",
        "disconnect",
        "on time",
    ] {
        assert!(!lower.contains(bad), "a game ended by '{bad}':\n{pgn}");
    }
    let faults: Vec<&str> = debug
        .lines()
        .filter(|l| l.contains("<first"))
        .filter(|l| {
            let t = l.to_ascii_lowercase();
            t.contains("error") || t.contains("illegal") || t.contains("tellusererror")
        })
        .collect();
    assert!(faults.is_empty(), "the engine reported errors: {faults:#?}");
    for bad in ["exited unexpectedly", "Illegal move", "fatal"] {
        let hits: Vec<&str> = debug.lines().filter(|l| l.contains(bad)).collect();
        assert!(hits.is_empty(), "XBoard logged '{bad}': {hits:#?}");
    }
}

#[test]
#[ignore = "minutes: the XBoard GUI under xvfb, four games; see the module doc"]
fn xboard_gui_vs_fairymax() {
    let fcp = format!("{Z80CHESS} xboard --build full");
    let (pgn, debug) = xboard_match("xboard", &["-fcp", &fcp]);
    check_match(&pgn, &debug);
}

#[test]
#[ignore = "minutes: the XBoard GUI under xvfb through PolyGlot, four games; see the module doc"]
fn polyglot_uci_in_xboard() {
    let polyglot = need("polyglot", "polyglot");
    let fcp = format!("{Z80CHESS} uci --build full");
    let adapter = format!("{} -noini -ec \"%fcp\" -ed \"%fd\"", polyglot.display());
    let (pgn, debug) = xboard_match(
        "polyglot",
        &["-fcp", &fcp, "-fUCI", "-adapterCommand", &adapter],
    );
    check_match(&pgn, &debug);
}
