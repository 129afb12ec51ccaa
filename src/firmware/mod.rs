//! The host side of the firmware: which ROM, the port protocol as typed commands, and the
//! conversion between chess notation (shakmaty) and the firmware's board bytes.
//!
//! The host never chooses or generates a move: it sends positions and moves, and reads what the
//! Z80 answers. The protocol itself is defined in `asm/io.asm`; [`protocol`] mirrors it.

pub mod board;
pub mod eval;
pub mod params;
pub mod protocol;
pub mod rom;
pub mod sargon;
pub mod tune;

use crate::machine::{Machine, RomError, StopReason};
use crate::z80::TStates;
pub use board::{mailbox, square_of, FwMove};
use protocol::*;
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
    /// with expansion memory: the frame of the later knowledge and search issues.
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
    /// More root moves than a position can have (the firmware takes at most 255).
    #[error("{given} root moves given: a position has at most 218 legal moves")]
    TooManyRootMoves { given: usize },
}

/// The unit of the full build's clock arithmetic (`asm/time.asm`): 65,536 T-states.
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
        let reply = e.command(CMD_IDENT, &[])?;
        if reply.len() != 3 || reply[0] != b'Z' {
            return Err(FirmwareError::Protocol {
                command: 'I',
                detail: format!("identity {reply:02X?}"),
            });
        }
        if reply[1] as i64 != build.switch() {
            return Err(FirmwareError::Protocol {
                command: 'I',
                detail: format!(
                    "the ROM is build {}, not {} ({})",
                    reply[1],
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
        let mut out = self.machine.take_output();
        if out.is_empty() {
            return Err(FirmwareError::Protocol {
                command,
                detail: "no reply".into(),
            });
        }
        let status = out.remove(0);
        if status != 0 {
            return Err(FirmwareError::Rejected {
                command,
                code: status,
                reason: error_text(status),
            });
        }
        Ok(out)
    }

    /// The initial position.
    pub fn new_game(&mut self) -> Result<(), FirmwareError> {
        self.command(CMD_NEW, &[]).map(drop)
    }

    /// Set up `pos` (moved/castled bits by the convention of [`board::encode`]).
    pub fn set_position(&mut self, pos: &Chess) -> Result<(), FirmwareError> {
        let setup = board::encode(pos);
        let mut args = setup.squares.to_vec();
        args.push(setup.side);
        args.push(setup.ep);
        self.command(CMD_SETUP, &args).map(drop)
    }

    /// The firmware's board: 64 bytes a1..h8, side (00h/80h), en-passant target (0 = none).
    pub fn board(&mut self) -> Result<board::Setup, FirmwareError> {
        let r = self.command(CMD_BOARD, &[])?;
        if r.len() != 66 {
            return Err(FirmwareError::Protocol {
                command: 'B',
                detail: format!("{} bytes, not 66", r.len()),
            });
        }
        let mut squares = [0u8; 64];
        squares.copy_from_slice(&r[..64]);
        Ok(board::Setup {
            squares,
            side: r[64],
            ep: r[65],
        })
    }

    /// The legal moves, in the firmware's generation order.
    pub fn legal_moves(&mut self) -> Result<Vec<FwMove>, FirmwareError> {
        let r = self.command(CMD_LIST, &[])?;
        let n = *r.first().ok_or(FirmwareError::Protocol {
            command: 'L',
            detail: "no count".into(),
        })? as usize;
        if r.len() != 1 + 3 * n {
            return Err(FirmwareError::Protocol {
                command: 'L',
                detail: format!("{} bytes for {} moves", r.len(), n),
            });
        }
        Ok(r[1..]
            .chunks(3)
            .map(|c| FwMove {
                from: c[0],
                to: c[1],
                promo: c[2],
            })
            .collect())
    }

    /// (in check, number of legal moves) of the side to move.
    pub fn status(&mut self) -> Result<(bool, u8), FirmwareError> {
        let r = self.command(CMD_STATUS, &[])?;
        match r[..] {
            [c, n] => Ok((c != 0, n)),
            _ => Err(FirmwareError::Protocol {
                command: 'K',
                detail: format!("{r:02X?}"),
            }),
        }
    }

    /// Play a move (the firmware checks it).
    pub fn play(&mut self, m: FwMove) -> Result<(), FirmwareError> {
        self.command(CMD_MOVE, &[m.from, m.to, m.promo]).map(drop)
    }

    /// Take back the last move played.
    pub fn undo(&mut self) -> Result<(), FirmwareError> {
        self.command(CMD_UNDO, &[]).map(drop)
    }

    /// Count the legal move paths of length `depth`, in the Z80.
    pub fn perft(&mut self, depth: u8) -> Result<Perft, FirmwareError> {
        let t0 = self.tstates();
        let r = self.command(CMD_PERFT, &[depth])?;
        let bytes: [u8; 4] = r[..].try_into().map_err(|_| FirmwareError::Protocol {
            command: 'P',
            detail: format!("{r:02X?}"),
        })?;
        Ok(Perft {
            nodes: u32::from_le_bytes(bytes) as u64,
            tstates: self.tstates() - t0,
        })
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

/// Parse a FEN into a legal position; errors name the field or the rule broken.
pub fn parse_fen(fen: &str) -> Result<Chess, FirmwareError> {
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

/// A search score, from the view of the side the engine plays (the root's side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// The period builds: the 1978 program's byte, 80h = the root's value, 1/8 pawn a unit;
    /// FFh: the engine mates, 01h: it is mated (no distance).
    Byte(u8),
    /// The full build: a signed word, 256 = a pawn; a mate in n plies scores
    /// ±([`Score::MATE`] − n).
    Word(i16),
}

impl Score {
    /// The full build's mate score (`MATE` in asm/search.asm).
    pub const MATE: i32 = 32000;
    /// Scores beyond ±this are mates (`MATEMIN`).
    pub const MATE_MIN: i32 = Score::MATE - 64;

    /// Read a score the firmware sent (`b` holds 1 byte, or 2 for the full build).
    pub fn read(build: Build, b: &[u8]) -> Score {
        if build.wide_scores() {
            Score::Word(i16::from_le_bytes([b[0], b[1]]))
        } else {
            Score::Byte(b[0])
        }
    }
    /// Its width in the protocol.
    pub fn width(build: Build) -> usize {
        if build.wide_scores() {
            2
        } else {
            1
        }
    }
    /// The raw number (the byte, or the signed word), as records store it.
    pub fn raw(self) -> i32 {
        match self {
            Score::Byte(b) => b as i32,
            Score::Word(w) => w as i32,
        }
    }
    /// From a raw number of `build`'s kind (the inverse of [`Score::raw`]).
    pub fn from_raw(build: Build, v: i64) -> Option<Score> {
        if build.wide_scores() {
            i16::try_from(v).ok().map(Score::Word)
        } else {
            u8::try_from(v).ok().map(Score::Byte)
        }
    }
    /// Some(true): the engine mates; Some(false): it is mated; None: an ordinary score.
    pub fn mate(self) -> Option<bool> {
        match self {
            Score::Byte(0xFF) => Some(true),
            Score::Byte(0x01) => Some(false),
            Score::Byte(_) => None,
            Score::Word(w) if w as i32 > Score::MATE_MIN => Some(true),
            Score::Word(w) if (w as i32) < -Score::MATE_MIN => Some(false),
            Score::Word(_) => None,
        }
    }
    /// The plies to the mate, when the score carries them (the full build's does).
    pub fn mate_plies(self) -> Option<i32> {
        match (self, self.mate()) {
            (Score::Word(w), Some(_)) => Some(Score::MATE - (w as i32).abs()),
            _ => None,
        }
    }
    /// The period builds' byte for this score: the full build's word / 32 + 80h (with the
    /// default parameters, exactly the article build's byte), mates FFh and 01h.
    pub fn as_byte(self) -> u8 {
        match (self, self.mate()) {
            (Score::Byte(b), _) => b,
            (_, Some(true)) => 0xFF,
            (_, Some(false)) => 0x01,
            (Score::Word(w), None) => ((w as i32 >> 5).clamp(-126, 126) + 128) as u8,
        }
    }
    /// In centipawns (mates not excluded: check [`Score::mate`] first).
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Byte(b) => (b as i32 - 128) * 100 / 8,
            Score::Word(w) => w as i32 * 100 / 256,
        }
    }
    /// In pawns.
    pub fn pawns(self) -> f64 {
        match self {
            Score::Byte(b) => (b as f64 - 128.0) / 8.0,
            Score::Word(w) => w as f64 / 256.0,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Byte(b) => write!(f, "{b:02X}h"),
            Score::Word(w) => write!(f, "{w}"),
        }
    }
}

/// One completed depth of an iterative search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepthReport {
    pub depth: u8,
    pub best: FwMove,
    pub score: Score,
    /// The principal variation, `best` first: the full build's line from its triangular
    /// table (`asm/pv.asm`; shorter where a node's value came from the transposition table
    /// or a draw); the period builds kept none, so theirs is `best` alone.
    pub pv: Vec<FwMove>,
}

/// How the firmware chose its move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    Searched,
    Book,
    /// "Move now" stopped it: the move is the last completed depth's.
    Stopped,
    /// A move list or the stack overflowed: the move is the last completed depth's.
    Overflow,
}

/// The answer of the search command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    pub best: FwMove,
    /// The score from the engine's view.
    pub score: Score,
    pub kind: SearchKind,
    pub depths: Vec<DepthReport>,
    /// POINTS calls (static evaluations), XCHNG calls, moves made by the search.
    pub evaluations: u32,
    pub xchng_calls: u32,
    pub nodes: u32,
    pub tstates: TStates,
    /// The full build's expected reply to `best` (its best answer at ply 2): the move to
    /// ponder on. None from the period builds, at level 1, or when `best` mates or stalemates.
    pub reply: Option<FwMove>,
    /// The principal variation, `best` first (see [`DepthReport::pv`]): the full build's
    /// line of the move it plays; `best` alone from the period builds.
    pub pv: Vec<FwMove>,
}

/// Where a search started with [`Engine::start_search`] stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchPoll {
    /// Still thinking: the depths completed so far and the T-states spent.
    Running {
        depths: Vec<DepthReport>,
        tstates: TStates,
    },
    Done(SearchResult),
}

impl Engine {
    /// Start a search without waiting for it: drive it with [`Engine::poll_search`] in slices
    /// of T-states (for period-speed pacing, a clock, or a "move now" key).
    pub fn start_search(&mut self, level: u8, iterate: bool) {
        self.send_search(level, iterate as u8);
    }

    /// Start a search that keeps its own time (full build: the budget given by
    /// [`Engine::set_time`]), iterating up to `level` plies.
    pub fn start_timed_search(&mut self, level: u8) {
        self.send_search(level, 3);
    }

    fn send_search(&mut self, level: u8, flags: u8) {
        self.machine.take_output();
        self.machine.bus.move_now = false;
        self.progress.begin(self.build);
        if self.progress.wants_root_moves(&self.machine.bus.mem) {
            // The period builds keep no count of the root's moves searched: the host counts
            // the legal ones left in the root's chain (Engine::progress), so it needs them.
            // (After the book's move number only: 'L' moves the R register the book reads.)
            self.progress.root_moves = self.legal_moves().ok();
        }
        self.machine.send(&[CMD_SEARCH, level, flags]);
        self.search_start = Some(self.tstates());
    }

    /// Run a started search for at most `budget` T-states.
    pub fn poll_search(&mut self, budget: TStates) -> Result<SearchPoll, FirmwareError> {
        let t0 = self.search_start.ok_or(FirmwareError::Protocol {
            command: 'G',
            detail: "no search was started".into(),
        })?;
        let stop = self.machine.run(budget);
        self.progress.sample(&self.machine);
        match stop {
            StopReason::CycleLimit => {
                let out = self.machine.output();
                let mut depths = Vec::new();
                let mut i = 1; // after the status byte
                while let Some((d, next)) = parse_depth(self.build, out, i) {
                    depths.push(d);
                    i = next;
                }
                Ok(SearchPoll::Running {
                    depths,
                    tstates: self.tstates() - t0,
                })
            }
            StopReason::InputNeeded if self.machine.pending_input() == 0 => {
                self.search_start = None;
                self.machine.bus.move_now = false;
                let mut out = self.machine.take_output();
                if out.is_empty() {
                    return Err(FirmwareError::Protocol {
                        command: 'G',
                        detail: "no reply".into(),
                    });
                }
                let status = out.remove(0);
                if status != 0 {
                    return Err(FirmwareError::Rejected {
                        command: 'G',
                        code: status,
                        reason: error_text(status),
                    });
                }
                parse_search(self.build, &out, self.tstates() - t0).map(SearchPoll::Done)
            }
            StopReason::InputNeeded => Ok(SearchPoll::Running {
                depths: Vec::new(),
                tstates: self.tstates() - t0,
            }),
            other => {
                self.search_start = None;
                Err(FirmwareError::Stopped {
                    command: 'G',
                    reason: format!("{other:?}"),
                })
            }
        }
    }

    /// Where the running search stands, as read from RAM at the end of the last
    /// [`Engine::poll_search`] slice (for UCI's `info currmove ... currmovenumber ...` and
    /// `seldepth`). See [`Progress`] for what each build gives.
    pub fn progress(&self) -> Progress {
        self.progress.now
    }

    /// Ask a running search to stop now; it answers with the last completed depth's move.
    pub fn move_now(&mut self) {
        self.machine.bus.move_now = true;
    }

    /// Set the move number (1: the opening book answers, whatever the position).
    pub fn set_move_number(&mut self, n: u8) -> Result<(), FirmwareError> {
        self.command(CMD_MOVENO, &[n]).map(drop)
    }

    /// The full build's time for the next timed search ([`Engine::start_timed_search`]): the
    /// time left and the increment in T-states, the moves to the next control (0: all the
    /// rest). The firmware answers with the move's target and its hard limit (T-states, in
    /// units of 65,536: `asm/time.asm` says how it computes them).
    pub fn set_time(
        &mut self,
        left: TStates,
        moves_to_go: u32,
        increment: TStates,
    ) -> Result<TimeBudget, FirmwareError> {
        if self.build != Build::Full {
            return Err(FirmwareError::Position(format!(
                "the {} build keeps no time: only the full build has a clock (time.asm)",
                self.build
            )));
        }
        let ticks = |t: TStates, max: u64| (t / TICK).min(max);
        let l = ticks(left, 0xFF_FFFF).to_le_bytes();
        let i = ticks(increment, 0xFFFF).to_le_bytes();
        let togo = moves_to_go.min(255) as u8;
        let r = self.command(CMD_TIME, &[l[0], l[1], l[2], togo, i[0], i[1]])?;
        if r.len() != 4 {
            return Err(FirmwareError::Protocol {
                command: 'T',
                detail: format!("{} bytes", r.len()),
            });
        }
        Ok(TimeBudget {
            target: u16::from_le_bytes([r[0], r[1]]) as u64 * TICK,
            hard: u16::from_le_bytes([r[2], r[3]]) as u64 * TICK,
        })
    }

    /// The full build's halfmove clock for the position just set up (plies since the last
    /// capture or pawn move, for the 50-move rule; kept at 255 beyond); the period builds
    /// know no such rule and are not asked.
    pub fn set_halfmove_clock(&mut self, plies: u32) -> Result<(), FirmwareError> {
        if self.build != Build::Full {
            return Ok(());
        }
        self.command(CMD_HALFMOVE, &[plies.min(255) as u8])
            .map(drop)
    }

    /// The full build's root moves (UCI's `go searchmoves`): the next searches of this
    /// position ([`Engine::search`], [`Engine::start_search`], [`Engine::start_timed_search`])
    /// consider only `moves` at the root, and the Z80 chooses among them (`asm/roots.asm`).
    /// Each must be legal in the position, or the firmware refuses the whole set
    /// ([`FirmwareError::Rejected`], naming the first bad move's fault) and keeps the set it
    /// had. Repeated moves count once. An empty slice lifts the set; so do a new game, a
    /// set-up, and a move played or taken back. The period builds have no such command: they
    /// answer "unknown command", and this returns [`FirmwareError::NotInBuild`].
    pub fn restrict_root(&mut self, moves: &[FwMove]) -> Result<(), FirmwareError> {
        if self.build != Build::Full {
            // The command byte alone: a period firmware answers FFh 'R' and reads on.
            return match self.command(CMD_ROOTS, &[]) {
                Err(FirmwareError::Rejected { code: 0xFF, .. }) => Err(FirmwareError::NotInBuild {
                    command: CMD_ROOTS as char,
                    build: self.build,
                    what: "restricting the root moves (searchmoves)",
                }),
                Err(e) => Err(e),
                Ok(r) => Err(FirmwareError::Protocol {
                    command: CMD_ROOTS as char,
                    detail: format!("the {} build accepted 'R' alone: {r:02X?}", self.build),
                }),
            };
        }
        let mut set: Vec<FwMove> = Vec::with_capacity(moves.len());
        for m in moves {
            if !set.contains(m) {
                set.push(*m);
            }
        }
        let n = u8::try_from(set.len())
            .map_err(|_| FirmwareError::TooManyRootMoves { given: set.len() })?;
        let mut args = vec![n];
        for m in &set {
            args.extend([m.from, m.to, m.promo]);
        }
        self.command(CMD_ROOTS, &args).map(drop)
    }

    /// Search the side to move to `level` plies (1..=8); `iterate`: depth 1, 2, ... level,
    /// reporting each.
    pub fn search(&mut self, level: u8, iterate: bool) -> Result<SearchResult, FirmwareError> {
        let t0 = self.tstates();
        let r = self.command(CMD_SEARCH, &[level, iterate as u8])?;
        let t = self.tstates() - t0;
        parse_search(self.build, &r, t)
    }
}

/// A move as the protocol sends it: from, to, promotion.
fn read_move(b: &[u8]) -> FwMove {
    FwMove {
        from: b[0],
        to: b[1],
        promo: b[2],
    }
}

/// A line at `r[at]`: n, then n moves; with the index after it. None if incomplete.
fn parse_line(r: &[u8], at: usize) -> Option<(Vec<FwMove>, usize)> {
    let n = *r.get(at)? as usize;
    let end = at + 1 + 3 * n;
    let b = r.get(at + 1..end)?;
    Some((b.chunks(3).map(read_move).collect(), end))
}

/// One per-depth report `'R' depth from to promo score` at `r[at]` (the full build's
/// followed by its line), with the index after it; None if there is none, or not all of it.
pub fn parse_depth(build: Build, r: &[u8], at: usize) -> Option<(DepthReport, usize)> {
    let w = Score::width(build);
    let b = r.get(at..at + 5 + w).filter(|b| b[0] == b'R')?;
    let best = read_move(&b[2..]);
    let (pv, next) = match build {
        Build::Full => parse_line(r, at + 5 + w)?,
        _ => (vec![best], at + 5 + w),
    };
    let report = DepthReport {
        depth: b[1],
        best,
        score: Score::read(build, &b[5..]),
        pv,
    };
    Some((report, next))
}

/// Parse the search command's reply (after its status byte).
pub fn parse_search(
    build: Build,
    r: &[u8],
    tstates: TStates,
) -> Result<SearchResult, FirmwareError> {
    let w = Score::width(build);
    // The full build ends 'E' with the expected reply (the move to ponder on) and the
    // move's line (n, then n moves).
    let reply_len = if build == Build::Full { 3 } else { 0 };
    let bad = |detail: String| FirmwareError::Protocol {
        command: 'G',
        detail,
    };
    let mut depths = Vec::new();
    let mut i = 0;
    while let Some((d, next)) = parse_depth(build, r, i) {
        depths.push(d);
        i = next;
    }
    let pv_at = i + 17 + w + reply_len;
    let line = match build {
        Build::Full => parse_line(r, pv_at),
        _ => Some((Vec::new(), pv_at)),
    };
    let line = match (r.get(i), line) {
        (Some(b'E'), Some((line, end))) if r.len() == end => line,
        _ => {
            return Err(bad(format!(
                "unexpected bytes at {i}: {:02X?}",
                &r[i.min(r.len())..]
            )))
        }
    };
    let score = Score::read(build, &r[i + 4..]);
    let e = &r[i + w..]; // counters and kind as if the score were one byte
    let word = |k: usize| u32::from_le_bytes([e[k], e[k + 1], e[k + 2], e[k + 3]]);
    let kind = match e[4] {
        0 => SearchKind::Searched,
        1 => SearchKind::Book,
        2 => SearchKind::Stopped,
        3 => SearchKind::Overflow,
        k => return Err(bad(format!("unknown result kind {k}"))),
    };
    let reply = Some(&r[i + 17 + w..pv_at])
        .filter(|b| b.len() == 3 && b[0] != 0)
        .map(read_move);
    let best = read_move(&r[i + 1..]);
    let pv = if build == Build::Full {
        line
    } else {
        vec![best]
    };
    Ok(SearchResult {
        best,
        score,
        kind,
        depths,
        evaluations: word(5),
        xchng_calls: word(9),
        nodes: word(13),
        tstates,
        reply,
        pv,
    })
}

/// The root's move being searched (UCI `currmove` and `currmovenumber`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    pub mv: FwMove,
    /// Its place, 1-based, among the root's moves in the order this pass searches them.
    pub number: u8,
    /// How many root moves the pass searches: the legal moves, or the full build's set of
    /// root moves ([`Engine::restrict_root`]) when one stands.
    pub count: u8,
}

/// A running search's progress, read from the firmware's RAM between slices
/// ([`Engine::progress`]); the ROM is not asked (the period ROMs stay byte for byte).
///
/// - **full**: the firmware keeps it (`asm/search.asm`: ROOTMV, ROOTN, ROOTP and SELDEP of
///   `asm/vars.asm`). `root` is the move SRCH took up last at ply 1, numbered by the firmware,
///   and `seldepth` is exact: the deepest ply SRCH has entered in this search, extensions
///   included (`seldepth_exact` is true).
/// - **1978, article**: no firmware variable: the host reads the root node's SRCH frame,
///   which sits at a fixed stack address (the search command is always entered at the same
///   stack depth), while the CPU is inside FNDMOV; the frame's entry is the move, and its
///   number is the count of legal moves minus the legal entries left in the frame's chain.
///   The root is `None` while the frame is being set up or does not hold a move of this
///   pass. `seldepth` is the largest current ply (NPLY) seen at the ends of the slices so far:
///   a lower bound of the true one, which a node visited within a slice may exceed
///   (`seldepth_exact` is false). Small slices give a closer bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// The depth being iterated (ITDEP), 0 before the search has set it.
    pub depth: u8,
    /// Changes whenever the root's moves start over: the full build counts the passes over
    /// the root (an aspiration window's re-search is a new pass of the same depth); the
    /// period builds make one pass per depth, and give the depth.
    pub pass: u8,
    pub root: Option<RootMove>,
    /// The deepest ply reached (the root's moves are ply 1), `None` before the first node.
    pub seldepth: Option<u8>,
    pub seldepth_exact: bool,
}

/// The root node's SRCH frame: CMDLP's stack holds one return address (5FFEh), 'G' calls
/// FNDMOV (5FFCh), SRCH pushes IX (5FFAh) and takes SFRAME = 12 bytes: IX = 5FEEh, in
/// every build. Offsets as in `asm/search.asm`.
pub const ROOT_FRAME: u16 = 0x5FEE;
const F_PLY: u16 = 0;
const F_NEXT: u16 = 5;
const F_ENTRY: u16 = 9;
/// FNDMOV's return address on the stack while it runs.
const FNDMOV_RET_SLOT: u16 = ROOT_FRAME + 12 + 2;
/// The deepest ply the firmware's SRCH enters at `level`: the full build's check extension
/// and End-Game's capture extension go two plies past the level, the period builds' check
/// extension one.
pub fn max_ply(build: Build, level: u8) -> u8 {
    level + if build == Build::Full { 2 } else { 1 }
}

/// The host's side of [`Progress`]: the addresses it reads, and what it remembers between
/// slices.
#[derive(Debug, Clone)]
struct ProgressState {
    itdep: u16,
    nply: u16,
    nlegal: u16,
    moveno: u16,
    mlist: u16,
    /// full build: ROOTMV (ROOTN, ROOTP, SELDEP follow), RSON, and RTNOTE's code
    /// [start, end): a slice may end between its stores of the move and of its number.
    full: Option<(u16, u16, std::ops::Range<u16>)>,
    /// period builds: the address after CSRCH's `CALL FNDMOV`.
    fndmov_ret: Option<u16>,
    root_moves: Option<Vec<FwMove>>,
    now: Progress,
}

impl ProgressState {
    fn new(build: Build) -> ProgressState {
        let sym = crate::disasm::Symbols::parse(build.symbols(), build.name()).ok();
        let at = |n: &str| sym.as_ref().and_then(|s| s.value_of(n)).unwrap_or(0);
        let full =
            (build == Build::Full).then(|| (at("ROOTMV"), at("RSON"), at("RTNOTE")..at("SCADR")));
        // The period builds' CSRCH calls FNDMOV once: find the call in the ROM.
        let fndmov_ret = (build != Build::Full)
            .then(|| {
                let (f, c) = (at("FNDMOV"), at("CSRCH") as usize);
                let rom = build.rom();
                let call = [0xCD, f as u8, (f >> 8) as u8];
                (c..rom.len().min(c + 0x200))
                    .find(|&i| rom.get(i..i + 3) == Some(&call[..]))
                    .map(|i| i as u16 + 3)
            })
            .flatten();
        ProgressState {
            itdep: at("ITDEP"),
            nply: at("NPLY"),
            nlegal: at("NLEGAL"),
            moveno: at("MOVENO"),
            mlist: at("MLIST"),
            full,
            fndmov_ret,
            root_moves: None,
            now: Progress {
                seldepth_exact: build == Build::Full,
                ..Progress::default()
            },
        }
    }

    /// A search begins: forget the last one's.
    fn begin(&mut self, build: Build) {
        self.root_moves = None;
        self.now = Progress {
            seldepth_exact: build == Build::Full,
            ..Progress::default()
        };
    }

    /// A period build's search that will search (not answer from the book at move 1).
    fn wants_root_moves(&self, mem: &[u8; 0x10000]) -> bool {
        self.full.is_none() && self.fndmov_ret.is_some() && mem[self.moveno as usize] != 1
    }

    /// Read the search's state at the end of a slice.
    fn sample(&mut self, machine: &Machine) {
        let m = &machine.bus.mem;
        let b = |a: u16| m[a as usize];
        let w = |a: u16| u16::from_le_bytes([m[a as usize], m[a.wrapping_add(1) as usize]]);
        let entry_move = |e: u16| FwMove {
            from: b(e + 2),
            to: b(e + 3),
            promo: promo_of(b(e + 4)),
        };
        self.now.depth = b(self.itdep);
        if let Some((rootmv, rson, rtnote)) = self.full.clone() {
            if rtnote.contains(&machine.cpu.pc) {
                // The move and its number half written: keep the last sample's.
                return;
            }
            let (n, pass, sel) = (b(rootmv + 2), b(rootmv + 3), b(rootmv + 4));
            self.now.pass = pass;
            self.now.seldepth = (sel > 0).then_some(sel);
            let count = match b(rson) {
                0 => b(self.nlegal),
                k => k,
            };
            let e = w(rootmv);
            self.now.root = (n > 0 && e >= self.mlist).then(|| RootMove {
                mv: entry_move(e),
                number: n,
                count,
            });
            return;
        }
        // Period builds: only while FNDMOV runs (its return address is on the stack and the
        // stack is below it) and the search has entered a node.
        let (Some(ret), Some(legal)) = (self.fndmov_ret, self.root_moves.as_ref()) else {
            return;
        };
        let sp = machine.cpu.sp;
        if sp > FNDMOV_RET_SLOT || w(FNDMOV_RET_SLOT) != ret {
            self.now.root = None;
            return;
        }
        if self.now.pass != self.now.depth {
            self.now.pass = self.now.depth;
            self.now.root = None;
        }
        let ply = b(self.nply);
        if sp <= ROOT_FRAME && b(ROOT_FRAME + F_PLY) == 1 && ply >= 1 {
            self.now.seldepth = Some(self.now.seldepth.unwrap_or(0).max(ply));
        }
        self.now.root = self.root_of_frame(m, legal, sp);
    }

    /// The root frame's move and its number, if the frame holds a move of the root's chain:
    /// its entry lies in the root's list and links to the frame's next entry (as SRCH's
    /// loop leaves them), and every entry of the chain is one of the root's.
    fn root_of_frame(&self, m: &[u8; 0x10000], legal: &[FwMove], sp: u16) -> Option<RootMove> {
        let b = |a: u16| m[a as usize];
        let w = |a: u16| u16::from_le_bytes([m[a as usize], m[a.wrapping_add(1) as usize]]);
        if sp > ROOT_FRAME || b(ROOT_FRAME + F_PLY) != 1 {
            return None;
        }
        let count = u8::try_from(legal.len()).ok()?;
        // The root's list: from MLIST, at most one entry per pseudo-legal move.
        let end = self.mlist + 6 * 256;
        let in_list = |e: u16| e >= self.mlist && e < end && (e - self.mlist).is_multiple_of(6);
        let mv = |e: u16| FwMove {
            from: b(e + 2),
            to: b(e + 3),
            promo: promo_of(b(e + 4)),
        };
        let entry = w(ROOT_FRAME + F_ENTRY);
        if !in_list(entry) || w(entry) != w(ROOT_FRAME + F_NEXT) || !legal.contains(&mv(entry)) {
            return None;
        }
        let mut left = 0u8;
        let mut e = w(entry);
        let mut steps = 0;
        while e >> 8 != 0 {
            if !in_list(e) || steps > 255 {
                return None;
            }
            if legal.contains(&mv(e)) {
                left += 1;
            }
            e = w(e);
            steps += 1;
        }
        let number = count.checked_sub(left)?;
        (number >= 1).then_some(RootMove {
            mv: mv(entry),
            number,
            count,
        })
    }
}

/// The promotion piece of a move-list entry's flags byte (`asm/perft.asm` PROMOT): 0 for none.
fn promo_of(flags: u8) -> u8 {
    if flags & 0x20 == 0 {
        0
    } else {
        board::QUEEN - ((flags >> 6) & 3)
    }
}
