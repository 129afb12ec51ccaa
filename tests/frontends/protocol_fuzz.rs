//! Random and mutated lines fed to the UCI and xboard parsers (`play::uci::parse`,
//! `play::xboard::parse`): each line is a command or a named error, never a panic. The
//! parsers are pure, so each case is cheap: 10,000 cases each by default.
//!
//! A smaller property runs the real UCI loop (`run_with` over a channel) on random command
//! sequences: every `go` gets exactly one `bestmove`, every `isready` a `readyok`.
//!
//! The long run (10^6 cases of each parser property):
//!   PROPTEST_CASES=1000000 cargo test --release --test frontends protocol_fuzz::

use proptest::prelude::*;
use std::sync::mpsc::channel;
use z80chess::firmware::Build;
use z80chess::play::{uci, xboard};
use z80chess::session::game::Game;

/// PROPTEST_CASES, or `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const UCI_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "register later",
    "stop",
    "ponderhit",
    "quit",
    "setoption name Level value 3",
    "setoption name Move Overhead value 100",
    "setoption name Threads value 2",
    "setoption name Hash value 256",
    "setoption name Build value full",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1 moves b1b8",
    "go",
    "go depth 3",
    "go infinite",
    "go ponder wtime 1000 btime 1000",
    "go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 20",
    "go movetime 500",
    "go nodes 1000 mate 3",
    "go searchmoves e2e4 d2d4 depth 2",
];

const UCI_WORDS: &[&str] = &[
    "uci",
    "isready",
    "go",
    "position",
    "startpos",
    "fen",
    "moves",
    "setoption",
    "name",
    "value",
    "depth",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "quit",
    "e2e4",
    "e7e8q",
    "0000",
    "-1",
    "0",
    "99999999999999999999",
    "-99999999999999999999",
    "+5",
    "1e9",
    "x",
    "\u{FFFD}",
    "ü",
    "\t",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "KQkq",
    "-",
];

const XB_LINES: &[&str] = &[
    "xboard",
    "protover 2",
    "new",
    "force",
    "go",
    "playother",
    "post",
    "nopost",
    "ping 7",
    "sd 4",
    "st 10",
    "st 0.5",
    "level 40 5 0",
    "level 0 2:30 1.5",
    "time 6000",
    "otim 6000",
    "setboard 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
    "usermove e2e4",
    "e2e4",
    "undo",
    "remove",
    "option Build=full",
    "option Level=3",
    "analyze",
    "exit",
    ".",
    "?",
    "result 1-0 {White mates}",
    "variant normal",
    "quit",
];

const XB_WORDS: &[&str] = &[
    "sd",
    "st",
    "level",
    "time",
    "otim",
    "setboard",
    "usermove",
    "option",
    "ping",
    "analyze",
    "exit",
    ".",
    "?",
    "new",
    "go",
    "force",
    "Build=full",
    "=",
    ":",
    "0:30",
    "-1",
    "1e308",
    "inf",
    "NaN",
    "99999999999999999999",
    "18446744073709551615",
    "e2e4",
    "\u{FFFD}",
    "",
];

/// A valid line with random edits: characters deleted, inserted, replaced, tokens swapped.
fn mutated(
    lines: &'static [&'static str],
    words: &'static [&'static str],
) -> impl Strategy<Value = String> {
    (
        prop::sample::select(lines),
        prop::collection::vec(
            (
                0usize..4,
                any::<usize>(),
                any::<char>(),
                prop::sample::select(words),
            ),
            0..6,
        ),
    )
        .prop_map(|(line, edits)| {
            let mut chars: Vec<char> = line.chars().collect();
            for (kind, at, c, w) in edits {
                let n = chars.len();
                match kind {
                    0 if n > 0 => {
                        chars.remove(at % n);
                    }
                    1 => chars.insert(at % (n + 1), c),
                    2 if n > 0 => chars[at % n] = c,
                    _ => {
                        let at = at % (n + 1);
                        let ins: Vec<char> = format!(" {w} ").chars().collect();
                        chars.splice(at..at, ins);
                    }
                }
            }
            chars.into_iter().collect()
        })
}

/// Words from the vocabulary (and a few random strings) joined by random white space.
fn tokens(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop_oneof![4 => prop::sample::select(words).prop_map(String::from), 1 => "\\PC{0,8}"],
            prop::sample::select(&[" ", "  ", "\t", " \t "][..]),
        ),
        0..14,
    )
    .prop_map(|v| v.into_iter().map(|(w, s)| w + s).collect())
}

fn check_uci(line: &str) {
    match uci::parse(line) {
        Ok(uci::UciCommand::Go(g)) => {
            // Clamped into range, whatever was given.
            assert!(
                g.depth.is_none_or(|d| (1..=8).contains(&d)),
                "{line:?}: {g:?}"
            );
            assert!(g.mate.is_none_or(|m| m >= 1), "{line:?}");
        }
        Ok(_) => {}
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    // `go` with anything after it is always a `go`: every go gets its bestmove.
    if line.split_whitespace().next() == Some("go") && !z80chess::play::not_utf8(line) {
        assert!(
            matches!(uci::parse(line), Ok(uci::UciCommand::Go(_))),
            "{line:?}"
        );
    }
}

fn check_xboard(line: &str) {
    if let Err(e) = xboard::parse(line) {
        assert!(!e.to_string().is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(10_000)))]

    #[test]
    fn uci_random_text(line in "\\PC{0,80}") {
        check_uci(&line);
    }

    #[test]
    fn uci_random_tokens(line in tokens(UCI_WORDS)) {
        check_uci(&line);
    }

    #[test]
    fn uci_mutated_lines(line in mutated(UCI_LINES, UCI_WORDS)) {
        check_uci(&line);
    }

    #[test]
    fn xboard_random_text(line in "\\PC{0,80}") {
        check_xboard(&line);
    }

    #[test]
    fn xboard_random_tokens(line in tokens(XB_WORDS)) {
        check_xboard(&line);
    }

    #[test]
    fn xboard_mutated_lines(line in mutated(XB_LINES, XB_WORDS)) {
        check_xboard(&line);
    }

    #[test]
    fn uci_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let line = String::from_utf8_lossy(&bytes);
        check_uci(&line);
        check_xboard(&line);
    }
}

/// Commands for the loop property: cheap ones (depth 1, no clock: no time is measured).
const LOOP_LINES: &[&str] = &[
    "isready",
    "go depth 1",
    "go depth -7",
    "go depth 1 banana 12",
    "go depth 1 searchmoves e2e4 a1a8",
    "go nodes 20 depth 1",
    "go mate 1",
    "stop",
    "ponderhit",
    "ucinewgame",
    "position startpos moves e2e4 e7e5 g1f3",
    "position startpos moves e2e4 XXXX",
    "position fen 8/8/8 w - - 0 1",
    "position fen 7k/8/6K1/8/8/8/8/1Q6 b - - 0 1",
    "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "setoption name Level value 1",
    "setoption name Hash value 0",
    "frobnicate",
    "\u{FFFD}\u{FFFD}",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200).min(2000)))]

    /// The real loop on random sequences: one bestmove per go, one readyok per isready.
    #[test]
    fn uci_loop_answers_every_go_and_isready(
        seq in prop::collection::vec(prop::sample::select(LOOP_LINES), 0..12)
    ) {
        let (tx, rx) = channel();
        for l in &seq {
            tx.send(l.to_string()).unwrap();
        }
        drop(tx);
        let mut out = Vec::new();
        let game = Game::new(Build::Article, 2).unwrap();
        uci::run_with(game, &rx, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let count = |p: &str| out.lines().filter(|l| l.starts_with(p)).count();
        let gos = seq.iter().filter(|l| l.starts_with("go")).count();
        let readies = seq.iter().filter(|l| **l == "isready").count();
        prop_assert_eq!(count("bestmove"), gos, "{:?}\n{}", seq, out);
        prop_assert_eq!(count("readyok"), readies, "{:?}\n{}", seq, out);
    }
}
