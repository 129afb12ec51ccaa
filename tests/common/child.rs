//! `z80chess` as a child process driven line by line, as a GUI drives `uci` or `xboard`.
//! Shared by tests/uci.rs and tests/uci_xboard.rs. Nothing is timed: the wait on each line
//! only guards against a hang.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const HANG: Duration = Duration::from_secs(300);

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    out: Receiver<String>,
    pub log: Vec<String>,
}

impl Engine {
    /// Start `z80chess COMMAND` (`uci`, `xboard`).
    pub fn start(command: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_z80chess"))
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            out: rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line from the engine.
    pub fn line(&mut self) -> String {
        let l = self.out.recv_timeout(HANG).unwrap_or_else(|_| {
            panic!(
                "no answer from the engine; so far:\n{}",
                self.log.join("\n")
            )
        });
        self.log.push(format!("< {l}"));
        l
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(prefix);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    /// Send `quit` and expect a clean exit.
    pub fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}
