//! `z80chess luscher`: Lüscher's generated evaluation: fit to a tablebase, evaluate, export.

use super::CliError;

pub use crate::luscher::cli::LuscherArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::luscher::cli::cli(a).map_err(CliError::Run)
}
