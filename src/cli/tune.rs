//! `z80chess tune`: the command line of [`crate::firmware::tune`].

use super::CliError;
use crate::firmware::tune::{tune, TuneError, TuneOptions};
use std::path::PathBuf;

/// `z80chess tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files of finished games (e.g. written by `match --pgn`)
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// The starting weights (default: the ROM's); the output is this file with the tuned
    /// weights set in every block
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The weights to tune, by name, comma-separated (default: the --top that matter most)
    #[arg(long, value_delimiter = ',')]
    pub weights: Vec<String>,
    /// How many weights to tune when --weights is not given
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Write the tuned parameter file here (default: print it after the report)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Let --out replace a file already there, and write weights that predict the held-out
    /// games worse than the starting weights (refused without it)
    #[arg(long)]
    pub force: bool,
}

/// The report, and the tuned file (written to `--out` or appended).
pub fn cli(args: &Args) -> Result<String, TuneError> {
    tune(&TuneOptions {
        pgn: args.pgn.clone(),
        params: args.params.clone(),
        weights: args.weights.clone(),
        top: args.top,
        out: args.out.clone(),
        force: args.force,
    })
}

/// Run `z80chess tune`: unreadable games or parameters are a bad input (3); a fit worse
/// than the starting weights on the held-out games is a failed run (1) after its report.
pub fn run(args: &Args) -> Result<(), CliError> {
    for p in &args.pgn {
        super::readable(p)?;
    }
    super::load_params(args.params.as_deref())?;
    let text = cli(args).map_err(|e| {
        if let TuneError::Worse { report, .. } = &e {
            print!("{report}");
        }
        CliError::Run(e.to_string())
    })?;
    print!("{text}");
    Ok(())
}
