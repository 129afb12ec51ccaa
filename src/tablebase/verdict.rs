//! What a table says of a position, in words: its verdict, each move's value, and `play`'s
//! hint (the library side of `z80chess tablebase probe`).

use super::store::{material_name, Store};
use super::{Metric, TablebaseError, Val};
use shakmaty::{san::SanPlus, Chess, Color, Position};

/// The default directory of tables (ignored by git).
pub const DEFAULT_DIR: &str = "tables";

/// The value of a position in words, for the side to move.
pub fn verdict(pos: &Chess, v: Val, metric: Metric) -> String {
    let side = if pos.turn() == Color::White {
        "White"
    } else {
        "Black"
    };
    let what = if metric == Metric::Pawn {
        "mate or promotion"
    } else {
        "mate"
    };
    match v {
        Val::Draw => format!("draw ({side} to move)"),
        Val::Loss(0) => format!("{side} is mated"),
        Val::Win(d) => format!("{side} wins: {what} in {} ({d} plies)", d.div_ceil(2)),
        Val::Loss(d) => format!("{side} loses: {what} in {} ({d} plies)", d / 2),
    }
}

/// Every legal move with the value it keeps for the mover, best first.
pub fn move_values(store: &Store, pos: &Chess) -> Result<Vec<(String, Val)>, TablebaseError> {
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        let v = if store.metric == Metric::Pawn && m.is_promotion() {
            Val::Win(1)
        } else {
            let mut after = pos.clone();
            after.play_unchecked(m);
            store.probe(&after)?.before()
        };
        out.push((san, v));
    }
    out.sort_by_key(|(_, v)| -v.rank());
    Ok(out)
}

/// Verdict, then (if `all`) every move, or the best ones.
pub fn describe(store: &Store, pos: &Chess, all: bool) -> Result<String, TablebaseError> {
    let v = store.probe(pos)?;
    let name = material_name(pos)?;
    let mut s = format!(
        "{name} ({}): {}\n",
        store.metric.suffix(),
        verdict(pos, v, store.metric)
    );
    let moves = move_values(store, pos)?;
    if let Some((_, best)) = moves.first() {
        let best_moves: Vec<&str> = moves
            .iter()
            .filter(|(_, x)| x == best)
            .map(|(m, _)| m.as_str())
            .collect();
        s += &format!("best: {}\n", best_moves.join(" "));
        if all {
            for (m, x) in &moves {
                s += &format!("  {m:7} {x}\n");
            }
        }
    }
    Ok(s)
}

/// The `hint` of `play`: the verdict of `pos` when its material is in a table already built
/// in `dir` (never builds one: that can take minutes), else why there is none.
pub fn hint(pos: &Chess, dir: &std::path::Path) -> String {
    let name = match material_name(pos) {
        Ok(n) => n,
        Err(e) => return format!("no table: {e}"),
    };
    if name == "KK" {
        return "tablebase: draw (two bare kings)".into();
    }
    let mut store = Store::new(dir, Metric::Dtm);
    match store.open(&name) {
        Ok(Some(_)) => {}
        Ok(None) => {
            return format!(
            "no table for {name} in {} (hint does not build one: z80chess tablebase build {name})",
            dir.display()
        )
        }
        Err(e) => return format!("no table: {e}"),
    }
    let v = match store.probe(pos) {
        Ok(v) => v,
        Err(e) => return format!("no table: {e}"),
    };
    let mut s = format!("tablebase {name}: {}", verdict(pos, v, Metric::Dtm));
    if let Ok(moves) = move_values(&store, pos) {
        if let Some((_, best)) = moves.first() {
            let b: Vec<&str> = moves
                .iter()
                .filter(|(_, x)| x == best)
                .map(|(m, _)| m.as_str())
                .collect();
            s += &format!("; best: {}", b.join(" "));
        }
    }
    s
}
