//! The prompt: scripts (`-x`), `--batch`, line editing and history (rustyline) on a
//! terminal, plain lines otherwise, and the switch to the full-screen mode.

use super::commands::{Session, Start};
use super::engine::INTERRUPT;
use super::program::Program;
use super::{tui, DebugArgs};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::Ordering;

pub const PROMPT: &str = "(z80db) ";

fn session(args: &DebugArgs) -> Result<Session, String> {
    if let Some(src) = &args.asm {
        return Session::program(Program::from_source(src)?);
    }
    let start = match (&args.fen, &args.moves) {
        (Some(f), _) => Start::Fen(f.clone()),
        (None, Some(m)) => Start::Moves(m.clone()),
        (None, None) => Start::Initial,
    };
    let params = crate::session::load_params_arg(args.params.as_deref())?;
    Session::firmware_with(args.build, &start, params.as_ref())
}

fn print(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
}

/// Ctrl-C while a command runs stops it (at the prompt, rustyline handles the key itself).
fn install_interrupt() {
    #[cfg(unix)]
    {
        extern "C" fn on_sigint(_: i32) {
            INTERRUPT.store(true, Ordering::Relaxed);
        }
        extern "C" {
            fn signal(sig: i32, handler: extern "C" fn(i32)) -> usize;
        }
        const SIGINT: i32 = 2;
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            signal(SIGINT, on_sigint);
        }
    }
}

pub fn run(args: &DebugArgs) -> Result<(), String> {
    let mut s = session(args)?;
    print(&s.banner());
    if let Some(path) = &args.script {
        let text = crate::userfile::read_stream_text(path, crate::userfile::MAX_FILE)
            .map_err(|e| e.to_string())?;
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            print(&format!("{PROMPT}{t}\n"));
            print(&s.execute(t));
            if s.tui_requested {
                s.tui_requested = false;
                if !args.batch {
                    tui::run(&mut s)?;
                }
            }
            if s.quit {
                break;
            }
        }
    }
    if args.batch {
        return if s.errors == 0 {
            Ok(())
        } else {
            Err(format!("{} command(s) failed", s.errors))
        };
    }
    if s.quit {
        return Ok(());
    }
    install_interrupt();
    let hist = history_path();
    if let Some(h) = &hist {
        s.history = load_history(h);
    }
    let saved = s.history.clone();
    let r = person(&mut s, args);
    if let Some(h) = hist.filter(|_| s.history != saved) {
        save_history(&h, &s.history)?;
    }
    r
}

/// The full-screen mode (with `--tui`), then the prompt on a terminal, or the commands of
/// standard input.
fn person(s: &mut Session, args: &DebugArgs) -> Result<(), String> {
    if args.tui {
        tui::run(s)?;
        if s.quit {
            return Ok(());
        }
    }
    if std::io::stdin().is_terminal() {
        interactive(s)
    } else {
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| e.to_string())?;
            print(&s.execute(&line));
            if s.quit {
                break;
            }
        }
        Ok(())
    }
}

fn history_path() -> Option<std::path::PathBuf> {
    std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".z80chess_history"))
}

/// The commands of a history file (rustyline's format), oldest first; none when it cannot
/// be read.
pub fn load_history(path: &std::path::Path) -> Vec<String> {
    use rustyline::history::{FileHistory, History};
    let mut h = FileHistory::new();
    let _ = h.load(path);
    h.iter().cloned().collect()
}

/// Write `lines` as the history file `path` (rustyline's format, its length cap).
pub fn save_history(path: &std::path::Path, lines: &[String]) -> Result<(), String> {
    use rustyline::history::{FileHistory, History};
    let mut h = FileHistory::new();
    for l in lines {
        h.add(l).map_err(|e| e.to_string())?;
    }
    h.save(path)
        .map_err(|e| format!("cannot save the history {}: {e}", path.display()))
}

fn interactive(s: &mut Session) -> Result<(), String> {
    use rustyline::error::ReadlineError;
    let mut rl = rustyline::DefaultEditor::new().map_err(|e| e.to_string())?;
    for l in &s.history {
        let _ = rl.add_history_entry(l.as_str());
    }
    let mut last = String::new();
    loop {
        match rl.readline(PROMPT) {
            Ok(line) => {
                let t = line.trim().to_string();
                let cmd = if t.is_empty() { last.clone() } else { t };
                if cmd.is_empty() {
                    continue;
                }
                let _ = rl.add_history_entry(cmd.as_str());
                if s.history.last() != Some(&cmd) {
                    s.history.push(cmd.clone());
                }
                INTERRUPT.store(false, Ordering::Relaxed);
                print(&s.execute(&cmd));
                last = cmd;
                if s.tui_requested {
                    s.tui_requested = false;
                    let before = s.history.len();
                    tui::run(s)?;
                    // what was typed there, for the arrow keys here
                    for l in &s.history[before..] {
                        let _ = rl.add_history_entry(l.as_str());
                    }
                }
                if s.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}
