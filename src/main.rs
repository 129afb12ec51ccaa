//! `z80chess`: one binary, one subcommand per instrument (each in `src/cli/`).

use clap::Parser;
use std::process::ExitCode;
use z80chess::cli::Command;

#[derive(Parser)]
#[command(
    name = "z80chess",
    version,
    about = "A cycle-exact Z80 computer running a Sargon-style chess program",
    after_help = "Exit codes: 0 success, 1 the engine or a run failed, 2 usage, 3 a bad input file or position."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Rust ignores SIGPIPE, so printing to a closed pipe (`z80chess search ... | head`) would
    // panic; the commands that only print take the default action, as every Unix tool does:
    // they end quietly. Not the ones that talk to other programs through pipes: a child that
    // has gone must be an error they report, not the end of the process.
    #[cfg(unix)]
    if cli.command.only_prints() {
        // SAFETY: setting a signal's disposition to SIG_DFL at the start of main, before any
        // thread exists, has no memory-safety preconditions.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("z80chess: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
