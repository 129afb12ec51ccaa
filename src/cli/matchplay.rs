//! `z80chess match`: games between two engines (builds or UCI) at a fixed depth or equal emulated time.

use super::CliError;

pub use crate::matchplay::MatchArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1). An openings
/// file that cannot be read or holds a bad position is a bad input (3), checked first.
pub fn run(a: &Args) -> Result<(), CliError> {
    if let Some(p) = &a.openings {
        // (its reader names the file as the openings file, with the reason)
        crate::matchplay::openings::load(p).map_err(|e| CliError::Input(e.to_string()))?;
    }
    crate::matchplay::cli(a).map_err(CliError::Run)
}
