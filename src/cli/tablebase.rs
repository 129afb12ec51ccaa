//! `z80chess tablebase`: our own endgame tables: build, probe, stats, verify, compare with Stockfish.

use super::CliError;

pub use crate::tablebase::cli::TablebaseArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::tablebase::cli::cli(a).map_err(CliError::Run)
}
