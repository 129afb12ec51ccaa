//! `z80chess roms [--check]`: [`crate::firmware::rom::build_roms`], its lines printed.

use super::CliError;
use std::path::{Path, PathBuf};

/// `z80chess roms`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// Only compare roms/ with what asm/ assembles to.
    #[arg(long)]
    pub check: bool,
}

/// Run `z80chess roms`: from the working directory when it holds `asm/`, else from the
/// source tree the binary was built from.
pub fn run(a: &Args) -> Result<(), CliError> {
    let root = if Path::new(crate::firmware::rom::MAIN).exists() {
        PathBuf::from(".")
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    };
    cli(&root, a.check).map_err(CliError::Run)
}

pub fn cli(root: &Path, check: bool) -> Result<(), String> {
    let (report, done) = crate::firmware::rom::build_roms(root, check);
    for line in report {
        println!("{line}");
    }
    done.map_err(|e| e.to_string())
}
