//! Shared by the knowledge and endgame tests: the full build with some weights changed, and
//! the data rows of "this term turns this move".

use z80chess::firmware::eval::Evaluation;
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine};

/// (term, its weights, level, the default block's move, FEN).
pub type Row = (
    &'static str,
    &'static [&'static str],
    u8,
    &'static str,
    &'static str,
);

/// The full build with the `[default]` lines `text` loaded, set up at `fen`. The rules are
/// measured with the KPK bitbase off (`P_FLAGS2 = 0`): where it is on it scores K+P v K alone
/// and no rule's weight changes a move there (its own proofs: `tests/endgames/kpkbase.rs`).
pub fn engine_with(fen: &str, text: &str) -> Engine {
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&ParamFile::parse(&format!("[default]\nP_FLAGS2 = 0\n{text}"), "test").unwrap())
        .unwrap();
    sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
    e
}

/// The full build with the weights `zero` at 0, set up at `fen` (an entry with its own `=`,
/// such as `P_FLAGS = 0x7C` for a switch that is a flag bit, is taken as it stands).
pub fn engine(fen: &str, zero: &[&str]) -> Engine {
    let text: String = zero
        .iter()
        .map(|w| {
            if w.contains('=') {
                format!("{w}\n")
            } else {
                format!("{w} = 0\n")
            }
        })
        .collect();
    engine_with(fen, &text)
}

/// Every row: the default block plays the row's move, the block with the term's weights at 0
/// does not.
pub fn each_term_changes_the_move(rows: &[Row]) {
    let mut bad = Vec::new();
    for &(term, weights, level, want, fen) in rows {
        let with = engine(fen, &[]).search(level, false).unwrap();
        let without = engine(fen, weights).search(level, false).unwrap();
        let (w, wo) = (with.best.uci(), without.best.uci());
        if w != want || wo == want {
            bad.push(format!(
                "{term}: default {w:?}, without {wo:?}, want {want}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The value of the `eval` line `name`.
pub fn term(e: &Evaluation, name: &str) -> i32 {
    e.terms
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .value
}
