//! `z80chess eval`: the static evaluation of a position as the Z80 computes it, term by term.

use super::CliError;
use crate::firmware::Build;
use std::path::PathBuf;

/// `z80chess eval`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub at: super::PositionArgs,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// A parameter file (full build).
    #[arg(long)]
    pub params: Option<PathBuf>,
}

/// Run `z80chess eval`.
pub fn run(a: &Args) -> Result<(), CliError> {
    super::check_position(a.at.fen.as_deref(), a.at.moves.as_deref())?;
    super::load_params(a.params.as_deref())?;
    let text = crate::firmware::eval::cli(
        a.at.fen.as_deref(),
        a.at.moves.as_deref(),
        a.build,
        a.params.as_deref(),
    )
    .map_err(CliError::Run)?;
    print!("{text}");
    Ok(())
}
