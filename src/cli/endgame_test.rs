//! `z80chess endgame-test`: the engine plays endgame positions against the tablebase's perfect replies.

use super::CliError;

pub use crate::tablebase::endgame_test::EndgameTestArgs as Args;

/// Run it (its library part does the work; a failure is a failed run, exit 1).
pub fn run(a: &Args) -> Result<(), CliError> {
    crate::tablebase::endgame_test::cli(a).map_err(CliError::Run)
}
