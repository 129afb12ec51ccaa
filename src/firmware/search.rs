//! Searching: the score the firmware sends, the search's answer and its per-depth reports,
//! and the Engine's search commands (level, iterate, a clock, "move now", root moves).

use super::protocol::{self, Command, Op, Reply};
use super::{Build, Engine, FirmwareError, FwMove, Progress, TimeBudget, TICK};
use crate::machine::StopReason;
use crate::z80::TStates;
use std::fmt;

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
    /// table (`asm/full/pv.asm`; shorter where a node's value came from the transposition table
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
        self.send_search(level, iterate, false);
    }

    /// Start a search that keeps its own time (full build: the budget given by
    /// [`Engine::set_time`]), iterating up to `level` plies.
    pub fn start_timed_search(&mut self, level: u8) {
        self.send_search(level, true, true);
    }

    fn send_search(&mut self, level: u8, iterate: bool, timed: bool) {
        self.machine.take_output();
        self.machine.bus.move_now = false;
        self.progress.begin(self.build);
        if self.progress.wants_root_moves(&self.machine.bus.mem) {
            // The period builds keep no count of the root's moves searched: the host counts
            // the legal ones left in the root's chain (Engine::progress), so it needs them.
            // (After the book's move number only: 'L' moves the R register the book reads.)
            self.progress.root_moves = self.legal_moves().ok();
        }
        let search = Command::Search {
            level,
            iterate,
            timed,
        };
        self.machine
            .send(&search.encode().expect("a search's arguments are bytes"));
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
                // (after the status byte)
                let (depths, _) = protocol::parse_depths(self.build, self.machine.output(), 1);
                Ok(SearchPoll::Running {
                    depths,
                    tstates: self.tstates() - t0,
                })
            }
            StopReason::InputNeeded if self.machine.pending_input() == 0 => {
                self.search_start = None;
                self.machine.bus.move_now = false;
                let out = self.machine.take_output();
                let r = protocol::status(Op::Search.letter(), &out)?;
                protocol::parse_search(self.build, r, self.tstates() - t0).map(SearchPoll::Done)
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
        self.done(&Command::MoveNo(n))
    }

    /// The full build's time for the next timed search ([`Engine::start_timed_search`]): the
    /// time left and the increment in T-states, the moves to the next control (0: all the
    /// rest). The firmware answers with the move's target and its hard limit (T-states, in
    /// units of 65,536: `asm/full/time.asm` says how it computes them).
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
        let time = Command::Time {
            left: ticks(left, 0xFF_FFFF) as u32,
            moves_to_go: moves_to_go.min(255) as u8,
            increment: ticks(increment, 0xFFFF) as u16,
        };
        match self.ask(&time)? {
            Reply::Time(budget) => Ok(budget),
            other => Err(protocol::mismatch(Op::Time, &other)),
        }
    }

    /// The full build's halfmove clock for the position just set up (plies since the last
    /// capture or pawn move, for the 50-move rule; kept at 255 beyond); the period builds
    /// know no such rule and are not asked.
    pub fn set_halfmove_clock(&mut self, plies: u32) -> Result<(), FirmwareError> {
        if self.build != Build::Full {
            return Ok(());
        }
        self.done(&Command::Halfmove(plies.min(255) as u8))
    }

    /// The full build's root moves (UCI's `go searchmoves`): the next searches of this
    /// position ([`Engine::search`], [`Engine::start_search`], [`Engine::start_timed_search`])
    /// consider only `moves` at the root, and the Z80 chooses among them (`asm/full/roots.asm`).
    /// Each must be legal in the position, or the firmware refuses the whole set
    /// ([`FirmwareError::Rejected`], naming the first bad move's fault) and keeps the set it
    /// had. Repeated moves count once. An empty slice lifts the set; so do a new game, a
    /// set-up, and a move played or taken back. The period builds have no such command: they
    /// answer "unknown command", and this returns [`FirmwareError::NotInBuild`].
    pub fn restrict_root(&mut self, moves: &[FwMove]) -> Result<(), FirmwareError> {
        if self.build != Build::Full {
            // The command byte alone: a period firmware answers FFh 'R' and reads on.
            return match self.command(Op::Roots.code(), &[]) {
                Err(FirmwareError::Rejected { code: 0xFF, .. }) => Err(FirmwareError::NotInBuild {
                    command: Op::Roots.letter(),
                    build: self.build,
                    what: "restricting the root moves (searchmoves)",
                }),
                Err(e) => Err(e),
                Ok(r) => Err(FirmwareError::Protocol {
                    command: Op::Roots.letter(),
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
        if set.len() > 255 {
            return Err(FirmwareError::TooManyRootMoves { given: set.len() });
        }
        self.done(&Command::Roots(set))
    }

    /// Search the side to move to `level` plies (1..=8); `iterate`: depth 1, 2, ... level,
    /// reporting each.
    pub fn search(&mut self, level: u8, iterate: bool) -> Result<SearchResult, FirmwareError> {
        let t0 = self.tstates();
        let r = self.call(&Command::Search {
            level,
            iterate,
            timed: false,
        })?;
        protocol::parse_search(self.build, &r, self.tstates() - t0)
    }
}
