//! `z80chess asm`: assemble Z80 source (Zilog syntax) into a binary image.

use super::CliError;
use std::path::PathBuf;

/// `z80chess asm`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The source file.
    pub source: PathBuf,
    /// The image to write.
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Symbol file (`NAME: EQU 0xNNNN`).
    #[arg(long)]
    pub sym: Option<PathBuf>,
    /// Listing with addresses, bytes, T-states and source.
    #[arg(long)]
    pub lst: Option<PathBuf>,
    /// Source map (address -> file:line).
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Cross-reference: every symbol's definition, its references (file:line, mnemonic) and
    /// the routine each lies in.
    #[arg(long)]
    pub xref: Option<PathBuf>,
    /// Define a symbol: NAME=VALUE (or NAME, meaning 1).
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    pub define: Vec<String>,
    /// Replace output files already there (otherwise an existing one is refused).
    #[arg(long)]
    pub force: bool,
}

/// Run `z80chess asm`: source errors are a bad input (3), nothing written.
pub fn run(a: &Args) -> Result<(), CliError> {
    super::readable(&a.source)?;
    crate::asm::cli(
        &a.source,
        &a.output,
        crate::asm::Outputs {
            sym: a.sym.as_deref(),
            lst: a.lst.as_deref(),
            map: a.map.as_deref(),
            xref: a.xref.as_deref(),
            force: a.force,
        },
        &a.define,
    )
    .map_err(CliError::Input)
}
