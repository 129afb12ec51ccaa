//! `z80chess uci`: the UCI protocol on stdin/stdout, for GUIs and match runners.

use super::{CliError, EngineArgs};
use crate::play::{stdin_lines, uci};

/// Run `z80chess uci`.
pub fn run(args: &EngineArgs) -> Result<(), CliError> {
    let game = args.game()?;
    let lines = stdin_lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    uci::run_with(game, &lines, &mut out).map_err(CliError::Run)
}
