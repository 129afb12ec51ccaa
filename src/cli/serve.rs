//! `z80chess serve --json`: a protocol for scripts, one JSON object a line each way.

use super::{CliError, EngineArgs};
use crate::play::{json, stdin_lines};

/// `z80chess serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// One JSON object a line each way (the only protocol served so far; required).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Run `z80chess serve --json` on stdin/stdout.
pub fn run(args: &Args) -> Result<(), CliError> {
    if !args.json {
        return Err(CliError::Usage(
            "serve: choose the protocol: --json (one JSON object a line each way)".into(),
        ));
    }
    let game = args.engine.game()?;
    let lines = stdin_lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    json::run_with(game, &lines, &mut out).map_err(CliError::Run)
}
