//! The engine's signature: a fixed set of positions searched at fixed levels by each build;
//! the totals of moves made and T-states identify the engine's behaviour. Any change to the
//! search, the evaluation, the move generator or their timing changes them
//! (`tests/engine/signature.rs` pins them).
//!
//! Every position is past the opening book (move number > 1; at move number 1 the book's move
//! depends on the R register) and runs in a freshly booted machine, so the totals are
//! deterministic.

use crate::firmware::{parse_fen, sargon, Build, Engine};

/// (name, FEN, level).
pub const POSITIONS: &[(&str, &str, u8)] = &[
    (
        "italian",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        3,
    ),
    (
        "dragon",
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
        3,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        2,
    ),
    (
        "wac001",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 20",
        3,
    ),
    ("pawnrace", "3k4/8/8/7P/8/8/1p6/1K6 w - - 0 40", 4),
];

/// One position's share of the signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    pub name: &'static str,
    pub level: u8,
    pub mv: String,
    pub nodes: u32,
    pub evaluations: u32,
    pub xchng_calls: u32,
    pub tstates: u64,
    /// Its evaluations that did not run every term ([`super::evals`]).
    pub counters: super::evals::Counters,
}

impl BenchLine {
    /// What its evaluations cost.
    pub fn cost(&self) -> super::evals::EvalCost {
        super::evals::EvalCost {
            tstates: self.tstates,
            evaluations: self.evaluations as u64,
            lazy: self.counters.lazy as u64,
            stand_pat: self.counters.stand_pat as u64,
            nodes: self.nodes as u64,
        }
    }
}

/// A build's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub build: Build,
    pub lines: Vec<BenchLine>,
    /// Moves made by the searches, summed.
    pub nodes: u64,
    pub evaluations: u64,
    pub xchng_calls: u64,
    /// T-states of the searches, summed.
    pub tstates: u64,
}

/// Search every bench position with `build`.
pub fn signature(build: Build) -> Result<Signature, String> {
    signature_with(build, None)
}

/// As [`signature`], with a parameter file loaded into the full build (ignored by the period
/// builds, which have no parameters).
pub fn signature_with(
    build: Build,
    params: Option<&crate::firmware::params::ParamFile>,
) -> Result<Signature, String> {
    let mut s = Signature {
        build,
        lines: Vec::new(),
        nodes: 0,
        evaluations: 0,
        xchng_calls: 0,
        tstates: 0,
    };
    for &(name, fen, level) in POSITIONS {
        let pos = parse_fen(fen).map_err(|e| e.to_string())?;
        let mut engine = Engine::new(build).map_err(|e| e.to_string())?;
        if let (Build::Full, Some(pf)) = (build, params) {
            engine.load_params(pf).map_err(|e| e.to_string())?;
        }
        sargon::load(&mut engine, &pos).map_err(|e| e.to_string())?;
        let before = super::evals::Counters::read(&engine);
        let r = engine
            .search(level, false)
            .map_err(|e| format!("{name}: {e}"))?;
        let counters = super::evals::Counters::read(&engine).since(before);
        s.nodes += r.nodes as u64;
        s.evaluations += r.evaluations as u64;
        s.xchng_calls += r.xchng_calls as u64;
        s.tstates += r.tstates;
        s.lines.push(BenchLine {
            name,
            level,
            mv: r.best.uci(),
            nodes: r.nodes,
            evaluations: r.evaluations,
            xchng_calls: r.xchng_calls,
            tstates: r.tstates,
            counters,
        });
    }
    Ok(s)
}

impl Signature {
    /// What the searches' evaluations cost, summed (the T-states per evaluation of
    /// `benches/README.md`, "Period strength").
    pub fn cost(&self) -> super::evals::EvalCost {
        self.lines
            .iter()
            .fold(super::evals::EvalCost::default(), |a, l| a.plus(l.cost()))
    }

    /// `signature BUILD nodes N tstates T` (the line the test pins).
    pub fn line(&self) -> String {
        format!(
            "signature {} nodes {} tstates {}",
            self.build.name(),
            self.nodes,
            self.tstates
        )
    }
}
