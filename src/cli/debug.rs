//! `z80chess debug`: step-debug the firmware (or an assembly program) at the source level.

use super::CliError;

pub use crate::debug::DebugArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::debug::cli(a).map_err(CliError::Run)
}
