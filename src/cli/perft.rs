//! `z80chess perft`: move-path counts computed by the Z80 firmware.

use crate::firmware::{parse_fen, Build, Engine, FwMove};
use crate::machine::PERIOD_HZ;
use std::time::Instant;

use super::CliError;

/// `z80chess perft`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The position (default: the starting position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, default_value_t = 3)]
    pub depth: u8,
    /// Count below each legal move.
    #[arg(long)]
    pub divide: bool,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
}

/// Run `z80chess perft`: a bad FEN is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    super::check_position(a.fen.as_deref(), None)?;
    cli(a.fen.as_deref(), a.depth, a.divide, a.build).map_err(CliError::Run)
}

/// The starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

pub fn cli(fen: Option<&str>, depth: u8, divide: bool, build: Build) -> Result<(), String> {
    let fen = fen.unwrap_or(STARTPOS);
    let pos = parse_fen(fen).map_err(|e| e.to_string())?;
    let mut engine = Engine::new(build).map_err(|e| e.to_string())?;
    engine.set_position(&pos).map_err(|e| e.to_string())?;
    let wall = Instant::now();
    let t0 = engine.tstates();
    let nodes = if divide {
        let mut rows: Vec<(String, u64)> = engine
            .divide(depth)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(m, n): (FwMove, u64)| (m.uci(), n))
            .collect();
        rows.sort();
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        println!();
        rows.iter().map(|r| r.1).sum()
    } else {
        engine.perft(depth).map_err(|e| e.to_string())?.nodes
    };
    let t = engine.tstates() - t0;
    let secs = wall.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("tstates {t}");
    if nodes > 0 {
        println!("tstates/node {:.1}", t as f64 / nodes as f64);
    }
    println!(
        "time {:.2} s at 2 MHz, {:.3} s here ({:.0} emulated MHz)",
        t as f64 / PERIOD_HZ as f64,
        secs,
        t as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
