//! `z80chess` as a child process driven line by line, as a GUI drives `uci` or `xboard`.
//! Shared by tests/frontends/uci.rs and tests/frontends/uci_xboard.rs. Nothing is timed: the wait on each line
//! only guards against a hang.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const HANG: Duration = Duration::from_secs(300);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<String>,
    pub log: Vec<String>,
}

impl Engine {
    /// Start `z80chess COMMAND` (`uci`, `xboard`).
    pub fn start(command: &str) -> Engine {
        Engine::start_with(&[command])
    }

    /// Start `z80chess ARGS...` (`uci --build full`).
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_z80chess"))
            .args(args)
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
            stdin: Some(stdin),
            out: rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Bytes as they are (a line that is not UTF-8).
    #[allow(dead_code)]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.log
            .push(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Close stdin (the end of input) and collect every line up to the exit; the exit
    /// status must be success.
    #[allow(dead_code)]
    pub fn close(mut self) -> Vec<String> {
        self.stdin = None;
        let mut lines = Vec::new();
        while let Ok(l) = self.out.recv_timeout(HANG) {
            self.log.push(format!("< {l}"));
            lines.push(l);
        }
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit {status}; {}", self.log.join("\n"));
        lines
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
