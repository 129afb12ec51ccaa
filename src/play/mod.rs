//! Playing the Z80: the full-screen chess computer ([`tui`]), the line-oriented session
//! ([`text`]), and the protocols for GUIs and match runners ([`uci`], [`xboard`]).
//!
//! Every move the computer plays is chosen by the firmware's search; the host only checks it
//! with shakmaty (legality, SAN) and adjudicates the end of the game by the rules (the 1978
//! program knew mate and stalemate, none of the draws). [`game::Game`] keeps the firmware and
//! the host's position in step: every move of both sides goes through the firmware's MOVE
//! command, so its history, en passant, castling and move number (the book answers at move
//! number 1) evolve as in a real game.
//!
//! [`pace::Pace`] runs the emulated Z80 at its period clock in real time (2 MHz by default) or
//! as fast as the host can (`--turbo`), in T-state slices, so a front-end stays responsive.

pub mod game;
pub mod pace;
pub mod pgn;
pub mod text;
pub mod tui;
pub mod uci;
pub mod xboard;

use crate::firmware::{Build, DepthReport, Engine, Score};
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
    let pace = pace::Pace::new(args.clock_hz, args.turbo)?;
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
    pub fn game(&self) -> Result<game::Game, String> {
        let params = load_params_arg(self.params.as_deref())?;
        let mut g = game::Game::new(self.build, DEFAULT_LEVEL)?;
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

/// The levels a player chooses from: the 1978 program's "look ahead" (plies).
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=6;
/// The deepest search the firmware runs (UCI `go depth` is capped here).
pub const MAX_DEPTH: u8 = 8;
/// The default level (the 1978 program's default look ahead).
pub const DEFAULT_LEVEL: u8 = 2;

/// The firmware's score byte (80h offset, 1/8 pawn, the engine's view) in centipawns.
pub fn score_cp(score: Score) -> i32 {
    score.centipawns()
}

/// Mate scores carry no distance in the firmware (FFh: the engine mates; 01h: it is mated).
/// Convention: the distance, in moves, is estimated from the iterative search's reports: `d` is
/// the first completed depth that gave the final best move (the last report's) the mate
/// score, and the mate is in (d + 1) / 2 moves (the mating move is the last ply searched, and
/// the check extension sees the mate one ply beyond it). All mates score alike in the
/// firmware, so a deeper search may prefer a longer mate; the estimate follows the move it
/// chose. Positive when the engine mates, negative when it is mated; `None` for an ordinary
/// score.
/// The full build's scores carry the distance in plies: the mate is in (plies + 1) / 2 moves.
pub fn mate_in(score: Score, depths: &[DepthReport]) -> Option<i32> {
    let mates = score.mate()?;
    if let Some(plies) = score.mate_plies() {
        let n = ((plies + 1) / 2).max(1);
        return Some(if mates { n } else { -n });
    }
    let best = depths.last().map(|r| r.best);
    let d = depths
        .iter()
        .find(|r| r.score == score && Some(r.best) == best)
        .or(depths.last())
        .map(|r| r.depth as i32)
        .unwrap_or(1);
    let n = ((d + 1) / 2).max(1);
    Some(if mates { n } else { -n })
}

/// A score in words, from the engine's view: "+0.75", "mate in 2", "mated in 1".
pub fn describe_score(score: Score, depths: &[DepthReport]) -> String {
    match mate_in(score, depths) {
        Some(n) if n > 0 => format!("mate in {n}"),
        Some(n) => format!("mated in {}", -n),
        None => format!("{:+.2}", score_cp(score) as f64 / 100.0),
    }
}

/// A principal variation in UCI notation, as far as it is legal from `pos` (the firmware's
/// line is replayed with shakmaty; a move that is not legal ends it, so a GUI never gets a
/// line it cannot play). The full build gives its whole line, the period builds the move alone.
pub fn pv_text(pos: &shakmaty::Chess, pv: &[crate::firmware::FwMove]) -> String {
    use shakmaty::Position;
    let mut p = pos.clone();
    let mut out: Vec<String> = Vec::with_capacity(pv.len());
    for m in pv {
        let Some(mv) = m.to_move(&p) else { break };
        out.push(m.uci());
        p.play_unchecked(mv);
    }
    out.join(" ")
}

/// A 32-bit counter of the firmware's (NEVAL: static evaluations, NNODE: moves made by the
/// search), read from its RAM by the address in the build's symbol file, for the progress
/// shown while the engine thinks.
pub fn counter(engine: &Engine, name: &str) -> Option<u32> {
    let addr = symbol(engine, name)? as usize;
    let m = &engine.machine.bus.mem;
    if addr + 4 > m.len() {
        return None;
    }
    Some(u32::from_le_bytes([
        m[addr],
        m[addr + 1],
        m[addr + 2],
        m[addr + 3],
    ]))
}

/// The address of a symbol in the build's symbol file.
pub fn symbol(engine: &Engine, name: &str) -> Option<u16> {
    engine.build.symbols().lines().find_map(|l| {
        let (sym, rest) = l.split_once(':')?;
        if sym.trim() != name {
            return None;
        }
        let hex = rest.trim().strip_prefix("EQU")?.trim().strip_prefix("0x")?;
        u16::from_str_radix(hex, 16).ok()
    })
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

/// Whether a line from [`stdin_lines`] held bytes that are not UTF-8 (they arrive as U+FFFD).
/// No protocol or prompt of ours has a use for U+FFFD, so such a line is refused whole.
pub fn not_utf8(line: &str) -> bool {
    line.contains('\u{FFFD}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firmware::FwMove;

    fn rep(depth: u8, score: u8) -> DepthReport {
        DepthReport {
            depth,
            best: FwMove {
                from: 35,
                to: 55,
                promo: 0,
            },
            score: Score::Byte(score),
            pv: Vec::new(),
        }
    }

    #[test]
    fn scores() {
        assert_eq!(score_cp(Score::Byte(0x80)), 0);
        assert_eq!(score_cp(Score::Byte(0x86)), 75);
        assert_eq!(score_cp(Score::Byte(0x78)), -100);
        assert_eq!(
            mate_in(
                Score::Byte(0xFF),
                &[rep(1, 0x82), rep(2, 0x90), rep(3, 0xFF)]
            ),
            Some(2)
        );
        assert_eq!(mate_in(Score::Byte(0xFF), &[rep(1, 0xFF)]), Some(1));
        // A deeper search that prefers another mating move: its own distance.
        let mut other = rep(3, 0xFF);
        other.best.to = 56;
        assert_eq!(
            mate_in(Score::Byte(0xFF), &[rep(1, 0xFF), rep(2, 0xFF), other]),
            Some(2)
        );
        assert_eq!(
            mate_in(Score::Byte(0x01), &[rep(1, 0x70), rep(2, 0x01)]),
            Some(-1)
        );
        assert_eq!(mate_in(Score::Byte(0x80), &[]), None);
        assert_eq!(describe_score(Score::Byte(0x86), &[]), "+0.75");
        assert_eq!(
            describe_score(Score::Byte(0xFF), &[rep(3, 0xFF)]),
            "mate in 2"
        );
        // The full build's words carry the distance: 32000 - 3 plies = mate in 2 moves.
        assert_eq!(mate_in(Score::Word(31997), &[]), Some(2));
        assert_eq!(mate_in(Score::Word(-31999), &[]), Some(-1));
        assert_eq!(mate_in(Score::Word(512), &[]), None);
        assert_eq!(score_cp(Score::Word(-384)), -150);
        assert_eq!(describe_score(Score::Word(64), &[]), "+0.25");
    }
}
