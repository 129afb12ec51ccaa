//! Random and mutated text never panics the PGN and EPD readers: `play`'s `load`
//! (`session::pgn::check`, `check_all`: every game of a file read and its moves checked), the
//! move reader behind its prompt (`play::game::parse_move`), and `match --openings`
//! (`matchplay::openings::parse_pgn`, `read_pgn`, `read_epd`). Each reader either reads the
//! text or says what is wrong with it.
//!
//! Parse only, so each case is cheap: 10,000 cases a property in `cargo test`. The long run
//! (10^6 cases a property) sets PGN_FUZZ_CASES:
//!
//! ```text
//! PGN_FUZZ_CASES=1000000 cargo test --release --test engine pgn_fuzz::
//! ```

use proptest::prelude::*;
use shakmaty::Chess;
use z80chess::matchplay::openings::{parse_pgn, read_epd, read_pgn};
use z80chess::session::game::parse_move;
use z80chess::session::pgn;

fn cases() -> u32 {
    std::env::var("PGN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A game as `play` saves it, two games as a file collects them, and an EPD file.
const SAMPLES: &[&str] = &[
    "[Event \"z80chess game\"]\n[Site \"?\"]\n[Date \"2025.01.02\"]\n[Round \"-\"]\n\
     [White \"Player\"]\n[Black \"z80chess 1978, level 3\"]\n[Result \"*\"]\n\
     [Z80Build \"1978\"]\n[Z80Level \"3\"]\n\n1. d4 {book 0.0s at 2 MHz} Nf6 2. c4 e6 \
     3. Nc3 Bb4 *\n",
    "[Event \"a \\\"quoted\\\" \\\\ name\"]\n[SetUp \"1\"]\n\
     [FEN \"4B2k/8/4B3/8/8/8/P7/K7 w - - 0 40\"]\n\n40. B6f7 Kg7 41. a4 (41. a3 $1 {x}) \
     Kf8 ; rest of line\n42. a5 1/2-1/2\n\n[Event \"two\"]\n\n1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 \
     4.0-0 Nf6 5.d3 d6 6.h3 O-O 7.a3 a6 8.b4 Ba7 9.b5 axb5 10.Bxb5 h6 11.a4 \
     {comment {nested?} 11...Qe8 1-0\n",
    "[Event \"promotion\"]\n[FEN \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n1. e8=Q Kb2 \
     2. Qe2+ Kb1 3. Qd1+ Kb2 *\n%escape line\n",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 id \"e4\";\n\
     # a comment\n\n8/4P3/8/8/8/8/k7/4K3 w - - c0 \"x\"\n\
     r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n",
];

/// Pieces of PGN and EPD to build text from.
const PIECES: &[&str] = &[
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "(",
    ")",
    ";",
    "%",
    "$",
    "$12",
    ".",
    "...",
    " ",
    "\n",
    "\r\n",
    "\t",
    "1.",
    "12...",
    "0",
    "9",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "e4",
    "e2e4",
    "Nf3",
    "B6f7",
    "b6f7",
    "Bb1c3",
    "O-O",
    "0-0",
    "O-O-O",
    "0-0-0",
    "e8=Q",
    "e7e8q",
    "e8Q",
    "exd5",
    "Kxe2",
    "Qh4#",
    "+",
    "#",
    "!",
    "?!",
    "x",
    "=",
    "-",
    "[Event \"",
    "[FEN \"",
    "[SetUp \"1\"]",
    "[Z80Build \"",
    "full",
    "article",
    "1978",
    "[Z80Level \"",
    "\"]",
    "[White \"z80chess",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/8",
    "4k3/8/8/8/8/8/8/4K3 w - -",
    "/",
    "K",
    "k",
    "Q",
    "44",
    "kqKQ",
    "id \"",
    "é",
    "\u{FFFD}",
    "🂡",
    "\u{0}",
    "\u{300}",
    "ÿ",
];

fn from_pieces() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|v| v.concat())
}

/// A sample with a few characters deleted, inserted or replaced.
fn mutated() -> impl Strategy<Value = String> {
    let edit = (
        any::<prop::sample::Index>(),
        0u8..3,
        prop::sample::select(PIECES),
    );
    (
        prop::sample::select(SAMPLES),
        prop::collection::vec(edit, 1..8),
    )
        .prop_map(|(sample, edits)| {
            let mut chars: Vec<String> = sample.chars().map(String::from).collect();
            for (at, kind, piece) in edits {
                if chars.is_empty() {
                    chars.push(piece.to_string());
                    continue;
                }
                let i = at.index(chars.len());
                match kind {
                    0 => {
                        chars.remove(i);
                    }
                    1 => chars.insert(i, piece.to_string()),
                    _ => chars[i] = piece.to_string(),
                }
            }
            chars.concat()
        })
}

/// Any text: pieces, a mutated sample, or arbitrary characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![from_pieces(), mutated(), "\\PC{0,120}", any::<String>()]
}

/// Every reader on `text`: an answer or an error, never a panic.
fn read_all(text: &str) {
    let _ = pgn::check(text);
    let _ = pgn::check_all(text);
    let _ = parse_pgn(text);
    let _ = read_pgn(text);
    let _ = read_epd(text);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn pgn_and_epd_readers_never_panic(t in text()) {
        read_all(&t);
    }

    #[test]
    fn mutated_files_never_panic(t in mutated()) {
        read_all(&t);
    }

    #[test]
    fn the_move_reader_never_panics(
        t in prop_oneof![
            from_pieces().prop_map(|s| s.chars().take(12).collect::<String>()),
            "\\PC{0,12}",
            "[a-hA-HNBRQKOxX0-9=+#!?-]{0,8}",
        ],
        fen in prop::sample::select(&[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4B2k/8/4B3/8/8/8/P7/K7 w - - 0 40",
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1",
        ][..]),
    ) {
        let pos: Chess = z80chess::firmware::parse_fen(fen).unwrap();
        if let Ok(m) = parse_move(&pos, &t) {
            // What it reads is a legal move.
            prop_assert!(shakmaty::Position::is_legal(&pos, m));
        }
    }
}

/// What the readers make of the samples (so the mutations start from text that reads).
#[test]
fn the_samples_read() {
    assert_eq!(pgn::check_all(SAMPLES[0]).unwrap().len(), 1);
    let two = pgn::check_all(SAMPLES[1]).unwrap();
    assert_eq!(two.len(), 2);
    assert!(pgn::check(SAMPLES[1]).unwrap().is_some());
    assert!(pgn::check_all(SAMPLES[2]).is_ok());
    assert_eq!(read_epd(SAMPLES[3]).unwrap().len(), 3);
}
