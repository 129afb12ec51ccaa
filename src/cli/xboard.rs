//! `z80chess xboard`: the xboard/WinBoard protocol (CECP v2) on stdin/stdout.

use super::{CliError, EngineArgs};
use crate::play::{stdin_lines, xboard};

/// Run `z80chess xboard`.
pub fn run(args: &EngineArgs) -> Result<(), CliError> {
    let game = args.game()?;
    let lines = stdin_lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    xboard::run_with(game, &lines, &mut out).map_err(CliError::Run)
}
