//! `z80chess play`: the full screen, or a line-oriented session with `--text`.

use super::CliError;
use crate::firmware::Build;
use crate::play::{stdin_lines, text, tui};
use crate::session::{clock, DEFAULT_LEVEL, LEVELS};
use shakmaty::Color;
use std::io::IsTerminal;

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
pub struct Args {
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

/// Run `z80chess play`: the options are checked first (a bad one is a bad input, exit 3).
pub fn run(args: &Args) -> Result<(), CliError> {
    let pace = clock::Pace::new(args.clock_hz, args.turbo).map_err(CliError::Input)?;
    if let Some(l) = args.level {
        if !LEVELS.contains(&l) {
            return Err(CliError::Input(format!(
                "--level {l}: choose a look ahead of 1 to 6"
            )));
        }
    }
    if let Some(f) = &args.fen {
        crate::firmware::parse_fen(f).map_err(|e| CliError::Input(e.to_string()))?;
    }
    if args.ponder && args.build != Build::Full {
        return Err(CliError::Input(
            "--ponder: only --build full ponders (the full build names the reply it expects)"
                .into(),
        ));
    }
    // (a period build refuses a file when the game loads it: Game::set_params)
    let params = super::load_params(args.params.as_deref())?;
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
        return text::run(opts, &lines, &mut out, interactive).map_err(CliError::Run);
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
    .map_err(CliError::Run)
}
