//! `z80chess bench`: the engine's signature: moves made and T-states over fixed positions.

use super::CliError;
use std::path::PathBuf;

/// `z80chess bench`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

/// Run `z80chess bench`.
pub fn run(a: &Args) -> Result<(), CliError> {
    super::load_params(a.params.as_deref())?;
    crate::profile::cli::bench_cli(a.params.as_deref()).map_err(CliError::Run)
}
