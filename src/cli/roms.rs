//! `z80chess roms [--check] [--dir DIR]`: [`crate::firmware::rom::build_roms`], its lines printed.

use super::CliError;
use std::path::{Path, PathBuf};

/// `z80chess roms`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// Only compare roms/ with what asm/ assembles to.
    #[arg(long)]
    pub check: bool,
    /// The source tree (holding asm/ and roms/); by default the current directory.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
}

/// Run `z80chess roms` on `--dir` (the current directory by default), which must hold
/// `asm/`: a tree without it is a bad input (3), never another tree read in its place. The
/// first line says which tree.
pub fn run(a: &Args) -> Result<(), CliError> {
    let main = a.dir.join(crate::firmware::rom::MAIN);
    if !main.is_file() {
        return Err(CliError::Input(format!(
            "{}: no {} here: run `z80chess roms` in the source tree, or give it with --dir",
            a.dir.display(),
            crate::firmware::rom::MAIN
        )));
    }
    let shown = std::fs::canonicalize(&a.dir).unwrap_or_else(|_| a.dir.clone());
    println!(
        "source tree {} ({})",
        shown.display(),
        if a.check {
            "asm/ compared with roms/"
        } else {
            "asm/ assembled into roms/"
        }
    );
    cli(&a.dir, a.check).map_err(CliError::Run)
}

pub fn cli(root: &Path, check: bool) -> Result<(), String> {
    let (report, done) = crate::firmware::rom::build_roms(root, check);
    for line in report {
        println!("{line}");
    }
    done.map_err(|e| e.to_string())
}
