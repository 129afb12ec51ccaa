#![doc = include_str!("README.md")]

pub mod command;
pub mod json;

pub mod text;
pub mod tui;
pub mod uci;
pub mod xboard;

use std::sync::mpsc::{channel, Receiver};

/// Lines of standard input, read on a thread so that a front-end can keep searching while it
/// waits for them; the channel closes at end of input (or when stdin fails to read).
///
/// A line that is not UTF-8 is not an end of input: it arrives with each bad byte replaced by
/// U+FFFD, and every front end refuses such a line by name ([`not_utf8`]) and goes on.
pub fn stdin_lines() -> Receiver<String> {
    lines_of(std::io::stdin())
}

/// [`stdin_lines`] over any reader (tests feed bytes that are not UTF-8 through it).
pub fn lines_of<R: std::io::Read + Send + 'static>(input: R) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut input = std::io::BufReader::new(input);
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    while matches!(line.last(), Some(b'\n' | b'\r')) {
                        line.pop();
                    }
                    let l = String::from_utf8_lossy(&line).into_owned();
                    if tx.send(l).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// A protocol front end's line to its client: the lines in, the text out, the lines read
/// ahead while a search ran (they run after it), and how the session ends.
pub struct Wire<'a> {
    pub out: &'a mut dyn std::io::Write,
    pub lines: &'a Receiver<String>,
    pub pending: std::collections::VecDeque<String>,
    /// The client said `quit`.
    pub quit: bool,
    /// The input ended: a running search stops with its answer, the lines already read
    /// still run, then the session ends.
    pub eof: bool,
}

impl<'a> Wire<'a> {
    pub fn new(out: &'a mut dyn std::io::Write, lines: &'a Receiver<String>) -> Wire<'a> {
        Wire {
            out,
            lines,
            pending: std::collections::VecDeque::new(),
            quit: false,
            eof: false,
        }
    }

    /// One line to the client, flushed.
    pub fn send(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// The next command: a line read ahead first, else the next from the input (None at
    /// `quit` or the end of input).
    pub fn next_command(&mut self) -> Option<String> {
        if self.quit {
            return None;
        }
        match self.pending.pop_front() {
            Some(l) => Some(l),
            None if self.eof => None,
            None => self.lines.recv().ok(),
        }
    }
}

/// What a front end got when it looked at its input during a search.
pub enum Input {
    Line(String),
    /// Nothing came in the time allowed.
    Quiet,
    /// The input has ended.
    Ended,
}

/// The next line of `lines`: waiting up to `wait` (zero: only a line already there; None:
/// until one comes or the input ends).
pub fn next_line(lines: &Receiver<String>, wait: Option<std::time::Duration>) -> Input {
    use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
    match wait {
        None => lines.recv().map_or(Input::Ended, Input::Line),
        Some(w) if !w.is_zero() => match lines.recv_timeout(w) {
            Ok(l) => Input::Line(l),
            Err(RecvTimeoutError::Timeout) => Input::Quiet,
            Err(RecvTimeoutError::Disconnected) => Input::Ended,
        },
        Some(_) => match lines.try_recv() {
            Ok(l) => Input::Line(l),
            Err(TryRecvError::Empty) => Input::Quiet,
            Err(TryRecvError::Disconnected) => Input::Ended,
        },
    }
}

/// Whether a line from [`stdin_lines`] held bytes that are not UTF-8 (they arrive as U+FFFD).
/// No protocol or prompt of ours has a use for U+FFFD, so such a line is refused whole.
pub fn not_utf8(line: &str) -> bool {
    line.contains('\u{FFFD}')
}
