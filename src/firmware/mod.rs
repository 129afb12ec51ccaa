//! The host side of the firmware: which ROM, the port protocol as typed commands, and the
//! conversion between chess notation (shakmaty) and the firmware's board bytes.
//!
//! The host never chooses or generates a move: it sends positions and moves, and reads what the
//! Z80 answers. The protocol itself is defined in `asm/io.asm`; [`protocol`] mirrors it.

pub mod board;
pub mod eval;
pub mod params;
mod progress;
pub mod protocol;
pub mod rom;
pub mod sargon;
mod search;
pub mod tune;

use crate::machine::{Machine, RomError, StopReason};
use crate::z80::TStates;
pub use board::{mailbox, square_of, FwMove};
use progress::ProgressState;
pub use progress::{max_ply, Progress, RootMove, ROOT_FRAME};
pub use protocol::{parse_depth, parse_search};
use protocol::{Command, Op, Reply};
pub use search::{DepthReport, Score, SearchKind, SearchPoll, SearchResult};
use shakmaty::{Chess, Position};
use std::fmt;
use thiserror::Error;

/// Which program the ROM holds (named on command lines by [`Build::name`]; `cli::build`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Build {
    /// The rules of the Spracklens' BYTE article.
    Article,
    /// The published 1978 program's choices.
    B1978,
    /// The article's program with 16-bit scores and scoring parameter blocks, on a machine
    /// with expansion memory: Cray Blitz's knowledge and search craft, king-and-pawn endings,
    /// the search's quiescence and lazy evaluation, and Lüscher's endgame module.
    Full,
}

impl Build {
    pub const ALL: [Build; 3] = [Build::Article, Build::B1978, Build::Full];
    /// The period programs: 16 KiB of ROM, 8 KiB of RAM, one-byte scores.
    pub const PERIOD: [Build; 2] = [Build::Article, Build::B1978];

    /// The value of the `BUILD` switch in `asm/main.asm`.
    pub fn switch(self) -> i64 {
        match self {
            Build::Article => 1,
            Build::B1978 => 2,
            Build::Full => 3,
        }
    }
    /// The file stem in `roms/`.
    pub fn name(self) -> &'static str {
        match self {
            Build::Article => "article",
            Build::B1978 => "1978",
            Build::Full => "full",
        }
    }
    /// The ROM image shipped in `roms/` (a test keeps it equal to what `asm/` assembles to).
    pub fn rom(self) -> &'static [u8] {
        match self {
            Build::Article => include_bytes!("../../roms/article.bin"),
            Build::B1978 => include_bytes!("../../roms/1978.bin"),
            Build::Full => include_bytes!("../../roms/full.bin"),
        }
    }
    /// The value of a symbol of this build's ROM (`GLOBAL.local` for local labels).
    pub fn symbol(self, name: &str) -> Option<u16> {
        crate::disasm::Symbols::parse(self.symbols(), self.name())
            .ok()?
            .value_of(name)
    }

    /// Its symbol file.
    pub fn symbols(self) -> &'static str {
        match self {
            Build::Article => include_str!("../../roms/article.sym"),
            Build::B1978 => include_str!("../../roms/1978.sym"),
            Build::Full => include_str!("../../roms/full.sym"),
        }
    }

    /// Its source map (address -> file:line), written by `z80chess roms` beside the image.
    pub fn map(self) -> &'static str {
        match self {
            Build::Article => include_str!("../../roms/article.map"),
            Build::B1978 => include_str!("../../roms/1978.map"),
            Build::Full => include_str!("../../roms/full.map"),
        }
    }

    /// Scores in signed words, 256 = a pawn (the full build); else the 80h-offset byte in
    /// 1/8 pawns of the period programs.
    pub fn wide_scores(self) -> bool {
        self == Build::Full
    }
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What went wrong between host and firmware.
#[derive(Debug, Error)]
pub enum FirmwareError {
    #[error(transparent)]
    Rom(#[from] RomError),
    #[error("the firmware stopped unexpectedly during '{command}': {reason}")]
    Stopped { command: char, reason: String },
    #[error("the firmware refused '{command}': {reason} (code {code:02X}h)")]
    Rejected {
        command: char,
        code: u8,
        reason: &'static str,
    },
    #[error("the firmware's reply to '{command}' is malformed: {detail}")]
    Protocol { command: char, detail: String },
    #[error("{0}")]
    Position(String),
    /// A command only the full build serves, asked of a period build (which answered
    /// "unknown command", as in 1978).
    #[error("the {build} build has no '{command}' command: {what} is the full build's alone")]
    NotInBuild {
        command: char,
        build: Build,
        what: &'static str,
    },
    /// An argument the protocol cannot carry (named in the message).
    #[error(transparent)]
    Argument(#[from] protocol::ProtocolError),
    /// More root moves than a position can have (the firmware takes at most 255).
    #[error("{given} root moves given: a position has at most 218 legal moves")]
    TooManyRootMoves { given: usize },
}

/// The unit of the full build's clock arithmetic (`asm/full/time.asm`): 65,536 T-states.
pub const TICK: TStates = 65_536;

/// A move's time as the full build computed it from `'T'`, in T-states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// What the move should take.
    pub target: TStates,
    /// What it never passes (the search stops itself a little before).
    pub hard: TStates,
}

/// The answer of a perft run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Perft {
    pub nodes: u64,
    pub tstates: TStates,
}

/// A reset machine running one build's firmware, waiting for commands.
pub struct Engine {
    pub machine: Machine,
    pub build: Build,
    search_start: Option<TStates>,
    progress: ProgressState,
}

impl Engine {
    /// Boot `build`'s ROM and check that the firmware identifies itself.
    pub fn new(build: Build) -> Result<Engine, FirmwareError> {
        Engine::with_rom(build, build.rom())
    }

    /// Boot a given ROM image (for tests of freshly assembled code).
    pub fn with_rom(build: Build, rom: &[u8]) -> Result<Engine, FirmwareError> {
        let mut e = Engine {
            machine: if build == Build::Full {
                Machine::expanded(rom)?
            } else {
                Machine::new(rom)?
            },
            build,
            search_start: None,
            progress: ProgressState::new(build),
        };
        let Reply::Ident { build: id, .. } = e.ask(&Command::Ident)? else {
            unreachable!("Reply::decode answers Ident with Reply::Ident")
        };
        if id as i64 != build.switch() {
            return Err(FirmwareError::Protocol {
                command: 'I',
                detail: format!(
                    "the ROM is build {}, not {} ({})",
                    id,
                    build.switch(),
                    build
                ),
            });
        }
        Ok(e)
    }

    /// T-states the machine has run since reset.
    pub fn tstates(&self) -> TStates {
        self.machine.cpu.t
    }

    /// Send one command and run the firmware until it waits for the host again; the reply
    /// without its status byte, or the refusal.
    pub fn command(&mut self, cmd: u8, args: &[u8]) -> Result<Vec<u8>, FirmwareError> {
        let command = cmd as char;
        self.machine.take_output();
        self.machine.send(&[cmd]);
        self.machine.send(args);
        loop {
            match self.machine.run(u64::MAX) {
                StopReason::InputNeeded if self.machine.pending_input() == 0 => break,
                StopReason::InputNeeded => continue,
                other => {
                    return Err(FirmwareError::Stopped {
                        command,
                        reason: format!("{other:?}"),
                    })
                }
            }
        }
        let out = self.machine.take_output();
        protocol::status(command, &out).map(<[u8]>::to_vec)
    }

    /// Send a typed command; its reply after the status byte (for the decoders of
    /// [`protocol`]).
    pub fn call(&mut self, c: &Command) -> Result<Vec<u8>, FirmwareError> {
        let bytes = c.encode()?;
        self.command(bytes[0], &bytes[1..])
    }

    /// Send a typed command and decode its reply ([`Reply::decode`]).
    pub fn ask(&mut self, c: &Command) -> Result<Reply, FirmwareError> {
        let r = self.call(c)?;
        Reply::decode(self.build, c.op(), &r)
    }

    /// Send a command whose reply is the status byte alone.
    pub(crate) fn done(&mut self, c: &Command) -> Result<(), FirmwareError> {
        self.ask(c).map(drop)
    }

    /// The initial position.
    pub fn new_game(&mut self) -> Result<(), FirmwareError> {
        self.done(&Command::New)
    }

    /// Set up `pos` (moved/castled bits by the convention of [`board::encode`]).
    pub fn set_position(&mut self, pos: &Chess) -> Result<(), FirmwareError> {
        self.done(&Command::Setup(board::encode(pos)))
    }

    /// The firmware's board: 64 bytes a1..h8, side (00h/80h), en-passant target (0 = none).
    pub fn board(&mut self) -> Result<board::Setup, FirmwareError> {
        match self.ask(&Command::Board)? {
            Reply::Board(s) => Ok(s),
            other => Err(protocol::mismatch(Op::Board, &other)),
        }
    }

    /// The legal moves, in the firmware's generation order.
    pub fn legal_moves(&mut self) -> Result<Vec<FwMove>, FirmwareError> {
        match self.ask(&Command::List)? {
            Reply::Moves(m) => Ok(m),
            other => Err(protocol::mismatch(Op::List, &other)),
        }
    }

    /// (in check, number of legal moves) of the side to move.
    pub fn status(&mut self) -> Result<(bool, u8), FirmwareError> {
        match self.ask(&Command::Status)? {
            Reply::Status { in_check, legal } => Ok((in_check, legal)),
            other => Err(protocol::mismatch(Op::Status, &other)),
        }
    }

    /// Play a move (the firmware checks it).
    pub fn play(&mut self, m: FwMove) -> Result<(), FirmwareError> {
        self.done(&Command::Move(m))
    }

    /// Take back the last move played.
    pub fn undo(&mut self) -> Result<(), FirmwareError> {
        self.done(&Command::Undo)
    }

    /// Count the legal move paths of length `depth`, in the Z80.
    pub fn perft(&mut self, depth: u8) -> Result<Perft, FirmwareError> {
        let t0 = self.tstates();
        match self.ask(&Command::Perft(depth))? {
            Reply::Perft(n) => Ok(Perft {
                nodes: n as u64,
                tstates: self.tstates() - t0,
            }),
            other => Err(protocol::mismatch(Op::Perft, &other)),
        }
    }

    /// Perft below each legal move (`--divide`): (move, nodes), in generation order.
    pub fn divide(&mut self, depth: u8) -> Result<Vec<(FwMove, u64)>, FirmwareError> {
        let mut out = Vec::new();
        for m in self.legal_moves()? {
            self.play(m)?;
            let n = self.perft(depth.saturating_sub(1))?.nodes;
            self.undo()?;
            out.push((m, n));
        }
        Ok(out)
    }
}

/// Parse a FEN into a legal position; errors name the field or the rule broken. The word
/// `startpos` is the initial position, as UCI and the JSON protocol write it.
pub fn parse_fen(fen: &str) -> Result<Chess, FirmwareError> {
    if fen.trim() == "startpos" {
        return Ok(Chess::default());
    }
    let parsed = board::read_fen(fen)
        .map_err(|e| FirmwareError::Position(format!("bad FEN '{fen}': {e}")))?;
    parsed
        .into_position(shakmaty::CastlingMode::Standard)
        .map_err(|e| FirmwareError::Position(format!("impossible position '{fen}': {e}")))
}

/// The position's moves in the firmware's terms, from shakmaty (for cross-checks).
pub fn reference_moves(pos: &Chess) -> Vec<FwMove> {
    pos.legal_moves().iter().map(FwMove::from_move).collect()
}
