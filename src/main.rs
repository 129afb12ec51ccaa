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
    // The commands that keep SIGPIPE ignored still end quietly when it is their own output's
    // reader that has gone: an error or a panic (println!'s) then ends the process as SIGPIPE
    // would, with nothing said.
    #[cfg(unix)]
    {
        let said = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if stdout_gone() {
                end_by_sigpipe();
            }
            said(info);
        }));
    }
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        #[cfg(unix)]
        Err(_) if stdout_gone() => end_by_sigpipe(),
        Err(e) => {
            eprintln!("z80chess: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Whether standard output is a pipe whose reader has gone (poll reports an error on the
/// write end of a pipe with no reader; never on a terminal or a file).
#[cfg(unix)]
fn stdout_gone() -> bool {
    let mut p = libc::pollfd {
        fd: 1,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the length given, and no wait.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    n > 0 && p.revents & libc::POLLERR != 0
}

/// End the process as an unhandled SIGPIPE does (the way `head` expects a writer to go).
#[cfg(unix)]
fn end_by_sigpipe() -> ! {
    // SAFETY: resetting a signal's disposition and raising it have no memory-safety
    // preconditions; the process ends here.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    std::process::exit(141)
}
