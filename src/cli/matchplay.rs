//! `z80chess match`: games between two engines (builds or UCI) at a fixed depth or equal emulated time.

use super::CliError;

pub use crate::matchplay::MatchArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::matchplay::cli(a).map_err(CliError::Run)
}
