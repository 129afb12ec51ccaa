//! `z80chess cpm`: run a CP/M .COM program (the zexdoc/zexall instruction exercisers).

use super::CliError;
use std::path::PathBuf;

/// `z80chess cpm`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The .COM file, loaded at 0x0100.
    pub program: PathBuf,
    /// Stop with an error after this many T-states; 0 means no limit. The default, 10^11
    /// (a few minutes here), is about twice what zexall needs.
    #[arg(long, default_value_t = crate::cpm::DEFAULT_MAX_CYCLES)]
    pub max_cycles: u64,
}

/// Run `z80chess cpm`: an unreadable program is a bad input (3); a run that fails, 1.
pub fn run(a: &Args) -> Result<(), CliError> {
    super::readable(&a.program)?;
    crate::cpm::cli(&a.program, a.max_cycles).map_err(CliError::Run)
}
