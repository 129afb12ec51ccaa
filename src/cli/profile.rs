//! `z80chess profile`: calls and T-states per routine in one search, collapsed stacks.

use super::CliError;

pub use crate::profile::cli::ProfileArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::profile::cli::profile_cli(a).map_err(CliError::Run)
}
