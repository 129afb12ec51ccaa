//! `z80chess params`: the full build's scoring parameters: name, address, value per block, meaning.

use super::CliError;
use crate::firmware::Build;
use std::path::PathBuf;

/// `z80chess params`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// Which firmware (only the full build has parameter blocks).
    #[arg(long, value_enum, default_value_t = Build::Full)]
    pub build: Build,
    /// Load this parameter file first and show the result.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

/// Run `z80chess params`: a bad parameter file is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    let text = crate::firmware::params::cli(a.build, a.params.as_deref())
        .map_err(|e| CliError::Input(e.to_string()))?;
    print!("{text}");
    Ok(())
}
