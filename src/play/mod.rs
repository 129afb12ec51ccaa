#![doc = include_str!("README.md")]

pub mod pgn;
pub mod text;
pub mod tui;
pub mod uci;
pub mod xboard;

use crate::firmware::Build;
use crate::session::{clock, DEFAULT_LEVEL, LEVELS};
use shakmaty::Color;
use std::io::IsTerminal;
use std::sync::mpsc::{channel, Receiver};

/// Which side the player takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// `z80chess play`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayArgs {
    /// A line-oriented session on stdin/stdout instead of the full screen (scriptable).
    #[arg(long)]
    pub text: bool,
    /// Letters instead of Unicode chess pieces.
    #[arg(long)]
    pub ascii: bool,
    /// Your colour (the text mode asks when it is not given; the full screen: White).
    #[arg(long, value_enum)]
    pub color: Option<Side>,
    /// The Z80's look ahead in plies, 1-6 (the text mode asks when it is not given;
    /// the full screen: 2).
    #[arg(long)]
    pub level: Option<u8>,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// The emulated clock in Hz (default 2,000,000: the period machine).
    #[arg(long)]
    pub clock_hz: Option<u64>,
    /// Run the Z80 as fast as the host can instead of in real time.
    #[arg(long)]
    pub turbo: bool,
    /// Start from this position (moved bits and move number by the 1978 convention).
    #[arg(long)]
    pub fen: Option<String>,
    /// Text mode: do not print the board after the Z80's moves.
    #[arg(long)]
    pub no_board: bool,
    /// A parameter file for the full build (`z80chess params` lists the names).
    #[arg(long)]
    pub params: Option<std::path::PathBuf>,
    /// Think on your time (the full build: it names the reply it expects).
    #[arg(long)]
    pub ponder: bool,
}

/// Read `--params FILE`, if given.
pub fn load_params_arg(
    path: Option<&std::path::Path>,
) -> Result<Option<crate::firmware::params::ParamFile>, String> {
    path.map(|p| crate::firmware::params::ParamFile::load(p).map_err(|e| e.to_string()))
        .transpose()
}

/// Run `z80chess play`.
pub fn cli(args: &PlayArgs) -> Result<(), String> {
    let pace = clock::Pace::new(args.clock_hz, args.turbo)?;
    if let Some(l) = args.level {
        if !LEVELS.contains(&l) {
            return Err(format!("--level {l}: choose a look ahead of 1 to 6"));
        }
    }
    if let Some(f) = &args.fen {
        crate::firmware::parse_fen(f).map_err(|e| e.to_string())?;
    }
    if args.ponder && args.build != Build::Full {
        return Err(
            "--ponder: only --build full ponders (the full build names the reply it expects)"
                .into(),
        );
    }
    // (a period build refuses a file when the game loads it: Game::set_params)
    let params = load_params_arg(args.params.as_deref())?;
    if args.text {
        let opts = text::TextOptions {
            build: args.build,
            level: args.level,
            colour: args.color.map(Color::from),
            pace,
            fen: args.fen.clone(),
            board: !args.no_board,
            params: params.clone(),
            ponder: args.ponder,
        };
        let lines = stdin_lines();
        let interactive = std::io::stdin().is_terminal();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        return text::run(opts, &lines, &mut out, interactive);
    }
    tui::run(&tui::TuiOptions {
        build: args.build,
        level: args.level.unwrap_or(DEFAULT_LEVEL),
        colour: args.color.map(Color::from).unwrap_or(Color::White),
        pace,
        ascii: args.ascii,
        fen: args.fen.clone(),
        params,
        ponder: args.ponder,
    })
}

/// `z80chess uci` and `z80chess xboard`: the engine they start with (UCI can change both with
/// `setoption`).
#[derive(Clone, Debug, clap::Args)]
pub struct ProtocolArgs {
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<std::path::PathBuf>,
}

impl ProtocolArgs {
    /// The game these arguments start with.
    pub fn game(&self) -> Result<crate::session::game::Game, String> {
        let params = load_params_arg(self.params.as_deref())?;
        let mut g = crate::session::game::Game::new(self.build, DEFAULT_LEVEL)?;
        g.set_params(params)?;
        Ok(g)
    }
}

/// Run `z80chess uci` on stdin/stdout.
pub fn uci_cli(args: &ProtocolArgs) -> Result<(), String> {
    let game = args.game()?;
    let lines = stdin_lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    uci::run_with(game, &lines, &mut out)
}

/// Run `z80chess xboard` on stdin/stdout.
pub fn xboard_cli(args: &ProtocolArgs) -> Result<(), String> {
    let game = args.game()?;
    let lines = stdin_lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    xboard::run_with(game, &lines, &mut out)
}

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
    pub fn next(&mut self) -> Option<String> {
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
