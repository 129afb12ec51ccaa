//! Every FEN reader (`firmware::parse_fen`, the tables' `chess_of`, `board::read_fen`) on
//! random and mutated FENs: never a panic; a refusal says "bad FEN" with the field, or
//! "impossible position"; a FEN it accepts has 8 ranks of 8 squares, a castling field of
//! `-` or part of `KQkq` in order, and writes back (shakmaty's FEN of the position) to a
//! FEN that is read to the same position. 10,000 cases a property; the long run is in
//! tests/fuzz_support/mod.rs.

use crate::common::fuzz_support;

use fuzz_support::{case, config};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};
use z80chess::firmware::board::{check_fen_text, read_fen};
use z80chess::firmware::parse_fen;

const GOOD: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/4K2R w K - 12 40",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
];

/// The board field's shape: 8 ranks, each 8 squares, no two counts in a row.
fn well_formed_board(board: &str) -> bool {
    let ranks: Vec<&str> = board.split('/').collect();
    ranks.len() == 8
        && ranks.iter().all(|r| {
            let mut n = 0;
            let mut digit = false;
            for c in r.chars() {
                match c.to_digit(10) {
                    Some(d @ 1..=8) if !digit => {
                        n += d;
                        digit = true;
                    }
                    Some(_) => return false,
                    None if "pnbrqkPNBRQK".contains(c) => {
                        n += 1;
                        digit = false;
                    }
                    None => return false,
                }
            }
            n == 8
        })
}

fn check(fen: &str) -> Result<(), TestCaseError> {
    let (r, tb, text) = case(fen, || {
        (
            parse_fen(fen),
            z80chess::tablebase::store::chess_of(fen),
            read_fen(fen),
        )
    });
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    match &r {
        Ok(pos) => {
            prop_assert!(text.is_ok());
            prop_assert!(
                tb.is_ok(),
                "parse_fen accepts, chess_of refuses: {:?}",
                tb.err()
            );
            prop_assert!(
                well_formed_board(fields[0]),
                "board accepted: {}",
                fields[0]
            );
            if let Some(c) = fields.get(2) {
                let mut order = "KQkq".chars();
                prop_assert!(
                    *c == "-" || c.chars().all(|x| order.any(|o| o == x)),
                    "castling {}",
                    c
                );
            }
            let back = Fen::from_position(pos, EnPassantMode::Legal).to_string();
            let again = parse_fen(&back).map_err(|e| {
                TestCaseError::fail(format!("{back} written back and refused: {e}"))
            })?;
            prop_assert_eq!(again.board(), pos.board());
            prop_assert_eq!(again.turn(), pos.turn());
        }
        Err(e) => {
            let e = e.to_string();
            prop_assert!(
                e.contains("bad FEN") || e.contains("impossible position"),
                "{}",
                e
            );
            if check_fen_text(fen.trim()).is_err() {
                prop_assert!(tb.is_err() && text.is_err());
            }
        }
    }
    Ok(())
}

/// A good FEN with a few characters replaced, inserted or removed.
fn mutated() -> impl Strategy<Value = String> {
    const CHARS: &[char] = &[
        '/', '1', '4', '8', '9', '0', 'K', 'Q', 'k', 'q', 'p', 'P', ' ', '-', 'w', 'b', 'e', '3',
        'x', '\u{e9}',
    ];
    (prop::sample::select(GOOD), fuzz_support::edits(CHARS, 1, 3))
        .prop_map(|(f, e)| fuzz_support::mutate(f, &e))
}

/// FENs built from plausible fields, each sometimes wrong.
fn assembled() -> impl Strategy<Value = String> {
    let rank = prop::collection::vec(
        prop::sample::select(&["1", "2", "3", "4", "8", "p", "P", "k", "K", "n", "R", "q"][..]),
        1..9,
    )
    .prop_map(|v| v.concat());
    let board = prop::collection::vec(rank, 7..10).prop_map(|r| r.join("/"));
    (
        board,
        prop::sample::select(&["w", "b", "W", "x"][..]),
        prop::sample::select(
            &[
                "-", "KQkq", "Kq", "kqKQ", "kqkq", "KK", "QQ", "", "K", "q", "Qk", "A", "HAha",
            ][..],
        ),
        prop::sample::select(&["-", "e3", "d6", "e9", "a1", ""][..]),
        prop::sample::select(&["0 1", "5 30", "", "-1 1", "0 0", "99999999999 1", "0"][..]),
    )
        .prop_map(|(b, s, c, e, n)| format!("{b} {s} {c} {e} {n}"))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_text(fen in "[ -~]{0,90}") {
        check(&fen)?;
    }

    #[test]
    fn mutated_fens(fen in mutated()) {
        check(&fen)?;
    }

    #[test]
    fn assembled_fens(fen in assembled()) {
        check(&fen)?;
    }
}

#[test]
fn the_good_fens_are_read() {
    for f in GOOD {
        parse_fen(f).unwrap();
        check(f).unwrap();
    }
}
