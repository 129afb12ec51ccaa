//! Perft on every position of tests/data/chess/perft.epd, computed by the Z80 firmware.
//!
//! Each position runs to the deepest depth whose expected count is at most the node budget
//! (default 150,000; `Z80CHESS_PERFT_NODES=N` to change it, e.g. for a longer local run).
//! On a mismatch the test divides: it plays each legal move in the firmware and compares the
//! count below it with shakmaty's, naming the first wrong move.

use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use z80chess::firmware::{Build, Engine, FwMove};

const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess/perft.epd");

struct Case {
    line: usize,
    fen: String,
    counts: Vec<(u8, u64)>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(EPD).unwrap_or_else(|e| panic!("cannot read {EPD}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts = parts
            .map(|p| {
                let p = p.trim();
                let (d, n) = p
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("line {}: bad field '{p}'", i + 1));
                let d: u8 = d.trim_start_matches('D').parse().unwrap();
                (d, n.trim().parse::<u64>().unwrap())
            })
            .collect();
        out.push(Case {
            line: i + 1,
            fen,
            counts,
        });
    }
    out
}

#[allow(clippy::result_large_err)] // shakmaty's error type, handled at once
fn position(text: &str) -> Chess {
    let fen: Fen = text.parse().unwrap();
    // perft.epd line 56 (B6b/8/8/8/2K5/5k2/8/b6B b - -) is a double check by two bishops on
    // one diagonal that no game can reach; its counts are right, so it is accepted explicitly.
    fen.into_position(CastlingMode::Standard)
        .or_else(|e| e.ignore_impossible_check())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Find the first move whose subtree count differs from shakmaty's.
fn diagnose(engine: &mut Engine, pos: &Chess, depth: u8) -> String {
    let fw = engine.divide(depth).expect("divide");
    let mut reference: Vec<(FwMove, u64)> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            (FwMove::from_move(m), shakmaty::perft(&p, depth as u32 - 1))
        })
        .collect();
    reference.sort();
    let mut got = fw.clone();
    got.sort();
    for (m, n) in &reference {
        match got.iter().find(|g| g.0 == *m) {
            None => return format!("firmware is missing {} ({} nodes below)", m.uci(), n),
            Some(g) if g.1 != *n => return format!("below {}: firmware {} vs {}", m.uci(), g.1, n),
            _ => {}
        }
    }
    for g in &got {
        if !reference.iter().any(|r| r.0 == g.0) {
            return format!("firmware generates the illegal move {}", g.0.uci());
        }
    }
    "the divide agrees; the difference is deeper".into()
}

#[test]
fn perft_suite() {
    let budget: u64 = std::env::var("Z80CHESS_PERFT_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150_000);
    let cases = cases();
    assert!(
        cases.len() >= 130,
        "perft.epd has {} positions",
        cases.len()
    );
    let mut engine = Engine::new(Build::Article).expect("boot");
    let (mut checks, mut nodes, mut tstates) = (0u64, 0u64, 0u64);
    let mut failures = Vec::new();
    for case in &cases {
        let pos = position(&case.fen);
        // Every depth up to the deepest within budget (at least depth 1).
        let mut depths: Vec<(u8, u64)> = case
            .counts
            .iter()
            .copied()
            .filter(|&(_, n)| n <= budget)
            .collect();
        if depths.is_empty() {
            depths.push(case.counts[0]);
        }
        engine
            .set_position(&pos)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for (d, expected) in depths {
            let r = engine
                .perft(d)
                .unwrap_or_else(|e| panic!("line {} depth {d}: {e}", case.line));
            checks += 1;
            nodes += r.nodes;
            tstates += r.tstates;
            if r.nodes != expected {
                let why = diagnose(&mut engine, &pos, d);
                failures.push(format!(
                    "line {} depth {d}: {} instead of {expected} — {why}\n  {}",
                    case.line, r.nodes, case.fen
                ));
            }
        }
    }
    println!(
        "perft: {} positions, {} counts checked, {} failed; {} nodes, {} T-states ({:.0} T/node)",
        cases.len(),
        checks,
        failures.len(),
        nodes,
        tstates,
        tstates as f64 / nodes.max(1) as f64
    );
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
