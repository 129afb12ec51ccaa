//! `z80chess regress`: search recorded positions (EPD, TSV); record or compare a golden file.

use super::CliError;

pub use crate::profile::cli::RegressArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::profile::cli::regress_cli(a).map_err(CliError::Run)
}
