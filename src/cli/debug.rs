//! `z80chess debug`: step-debug the firmware (or an assembly program) at the source level.

use super::CliError;

pub use crate::debug::DebugArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1). A bad
/// position, parameter file, script or source file is a bad input (3), checked first.
pub fn run(a: &Args) -> Result<(), CliError> {
    super::check_position(a.fen.as_deref(), a.moves.as_deref())?;
    super::load_params(a.params.as_deref())?;
    if let Some(script) = &a.script {
        crate::userfile::check_stream(script)?;
    }
    if let Some(source) = &a.asm {
        super::readable(source)?;
    }
    crate::debug::cli(a).map_err(CliError::Run)
}
