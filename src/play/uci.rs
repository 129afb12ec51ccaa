//! `z80chess uci`: the Universal Chess Interface, for GUIs and match runners.
//!
//! One loop reads the protocol from a channel (a thread reads stdin) and, while the firmware
//! searches, runs it in T-state slices between looks at the channel, so `isready` and `stop`
//! are answered during a search. Every `go` gets exactly one `bestmove`.
//!
//! - `position startpos moves ...` plays every move in the firmware (so its history, en
//!   passant and move number evolve; the book answers at move number 1); a position that
//!   extends the previous one only plays the new moves. `position fen ...` loads the FEN by the
//!   1978 test-suite convention ([`crate::firmware::sargon::load`]).
//! - `go depth N` searches min(N, 8) plies. Time (`movetime`, `wtime/btime/winc/binc/
//!   movestogo`) follows the one policy of [`crate::session::clock::plan`]: with PeriodSpeed off (host
//!   speed, the default) a GUI clock is wall time and the search goes to 8 plies unless the
//!   time ends it; the full build keeps its own time (`'T'`, `asm/full/time.asm`) fed T-states at
//!   the emulator's measured rate, the host only guarding the hard limit; the period builds
//!   are stopped by the host at its share. With PeriodSpeed on, the milliseconds are the
//!   period machine's at ClockHz and the Level caps the depth. An `info string` says which.
//!   `Move Overhead` is taken off the time. `go infinite` searches 8 plies and waits for
//!   `stop`. `go nodes N` stops at the first look after N nodes; `go mate N` searches 2N-1
//!   plies (said); `go searchmoves` is checked against the position (an illegal move is
//!   named); the full build's Z80 then searches only those root moves
//!   ([`restrict_root_moves`]), the period builds every move (said).
//! - `info ... pv`: the full build's whole principal variation, kept in Z80 (`asm/full/pv.asm`);
//!   the period builds give the move alone (the 1978 program kept no line).
//! - Pondering (option Ponder): `go ponder ...` searches the position after the expected
//!   reply without a limit; `ponderhit` turns that same search into the real one, with the
//!   time `go ponder` gave counted from the `ponderhit` (the work done carries over: nothing
//!   is searched again); `stop` ends it with a `bestmove`. One `bestmove` either way.
//! - Scores: `score cp` is the position's value for the side to move in centipawns: the
//!   firmware's score (measured from the root's material and board control) plus that root
//!   value, both the Z80's numbers ([`crate::session::absolute_cp`]); a move no search scored
//!   (the book's, a search stopped before depth 1) gets `info depth 0 score cp` of the Z80's
//!   static evaluation of the position ([`crate::session::static_cp`]); the mate scores become
//!   `score mate N` / `score mate -N` with N estimated from the depth that first saw the mate
//!   (see [`crate::session::mate_in`]).
//! - Options: Level (1-6), Build (article, 1978, full), PeriodSpeed (run at ClockHz in real
//!   time; off: host speed), ClockHz, Ponder, the full build's parameters, and for bots
//!   Threads (accepted: the Z80 is one CPU), Hash (accepted: the full build's table is what its
//!   expansion RAM holds, 4 KiB), Move Overhead (used).
//! - Bad input: [`parse()`] turns a line into a [`UciCommand`] or a [`UciError`]; an error (an
//!   unknown command, a line that is not UTF-8, ...) is answered with an `info string` and
//!   the line ignored. Inside `go` an unknown token is skipped and an out-of-range number
//!   clamped, each said; every `go` gets exactly one `bestmove`. A refused `position` leaves
//!   none: `go` answers `bestmove 0000` with an `info string` until a good one arrives. A
//!   search stopped before depth 1 completes prints no score. The end of input during a
//!   search ends it with its `bestmove`, and the engine exits 0.

use super::Wire;
use crate::firmware::{parse_fen, Build, FwMove, SearchKind, SearchResult};
use crate::machine::PERIOD_HZ;
use crate::session::clock::{self, Pace, Rate, TimeControl};
use crate::session::game::Game;
use crate::session::search::{
    Budget, DriveError, Driver, Heard as SearchHeard, Listener, Outcome, Search,
};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::Duration;

mod parse;
pub use parse::{parse, parse_go, Base, Go, UciCommand, UciError};

/// Restrict the firmware's root to `moves` (`go searchmoves`; empty: every move). Returns
/// whether the firmware searches only those moves: the full build does, in Z80 (`'R'`,
/// `asm/full/roots.asm`: the Z80 picks among them); the period builds stay byte for byte and
/// search every move (`Ok(false)`). The full build is told before every search, so a set
/// never outlives the `go` that gave it.
pub fn restrict_root_moves(
    game: &mut Game,
    moves: &[Move],
) -> Result<bool, crate::firmware::FirmwareError> {
    if game.build() != Build::Full {
        return Ok(false);
    }
    let fw: Vec<FwMove> = moves.iter().map(FwMove::from_move).collect();
    game.engine.restrict_root(&fw).map(|()| !fw.is_empty())
}

struct Uci<'a> {
    wire: Wire<'a>,
    game: Game,
    /// The position last set: its base and moves (to play only what is new next time).
    base: Base,
    moves: Vec<String>,
    /// Why the last `position` was refused: until a good one arrives, `go` answers
    /// `bestmove 0000` (never a move for a position the GUI does not have).
    refused: Option<String>,
    level: u8,
    period: bool,
    clock_hz: u64,
    /// `Move Overhead`: taken off each move's time.
    overhead: Duration,
    /// The emulator's speed on this host (host-speed clocks are wall time).
    rate: Rate,
    /// The full build's parameters: the command line's file and every `setoption P_...`.
    params: crate::firmware::params::ParamFile,
    /// `MultiPV`: the lines to report (the full build searches each in Z80; the period
    /// builds one).
    multipv: u8,
}

/// `MultiPV`'s range on the full build (the period builds declare 1 to 1).
pub const MULTIPV_MAX: u8 = 8;

/// `Move Overhead`'s default and range, in milliseconds.
pub const OVERHEAD_MS: (u64, u64, u64) = (30, 0, 5000);

/// Run the protocol with a given game (its build and parameters from the command line).
pub fn run_with(game: Game, lines: &Receiver<String>, out: &mut dyn Write) -> Result<(), String> {
    let mut u = Uci {
        wire: Wire::new(out, lines),
        params: game.params().cloned().unwrap_or_default(),
        game,
        base: Base::Start,
        moves: Vec::new(),
        refused: None,
        level: crate::session::DEFAULT_LEVEL,
        period: false,
        clock_hz: PERIOD_HZ,
        overhead: Duration::from_millis(OVERHEAD_MS.0),
        rate: Rate::default(),
        multipv: 1,
    };
    while !u.wire.quit {
        let Some(line) = u.wire.next_command() else {
            break;
        };
        u.line(&line).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The full build's transposition table, as its expansion RAM holds it (asm/full/craft.asm).
pub const TABLE_TEXT: &str =
    "4 KiB at E000h-EFFFh of the expansion RAM: 64 buckets of 4 entries of 16 bytes";

impl<'o> Uci<'o> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.wire.send(text)
    }

    fn info(&mut self, text: &str) -> std::io::Result<()> {
        self.send(&format!("info string {text}"))
    }

    /// The listener of a search of `pos` (`ponder`: the budget and hold after `ponderhit`),
    /// and the engine it listens for.
    fn ears<'s>(
        &'s mut self,
        pos: &'s Chess,
        ponder: Option<(Budget, bool)>,
    ) -> (Ears<'s, 'o>, &'s mut crate::firmware::Engine) {
        let ears = Ears {
            wire: &mut self.wire,
            pos,
            ponder,
            multipv: self.multipv > 1 && self.game.build() == Build::Full,
        };
        (ears, &mut self.game.engine)
    }

    /// The most lines `MultiPV` gives on the current build.
    fn multipv_max(&self) -> u8 {
        if self.game.build() == Build::Full {
            MULTIPV_MAX
        } else {
            1
        }
    }

    /// `MultiPV` lines 2, 3, ... after the search gave line 1 (`first`): each is a search by
    /// the Z80 to the same depth with its root restricted (`'R'`) to the moves no earlier
    /// line took, among `among` (`go searchmoves`; empty: every legal move). The host ranks
    /// nothing: each line is the firmware's best of what is left, with its own score.
    fn other_lines(
        &mut self,
        pos: &Chess,
        first: &SearchResult,
        among: &[Move],
    ) -> std::io::Result<()> {
        let Some(depth) = first.depths.last().map(|d| d.depth) else {
            return Ok(());
        };
        let set: Vec<Move> = if among.is_empty() {
            pos.legal_moves().to_vec()
        } else {
            among.to_vec()
        };
        let mut taken = vec![first.best];
        for k in 2..=self.multipv {
            let rest: Vec<Move> = set
                .iter()
                .filter(|m| !taken.contains(&FwMove::from_move(m)))
                .copied()
                .collect();
            if rest.is_empty() {
                break;
            }
            let started = std::time::Instant::now();
            let searched = restrict_root_moves(&mut self.game, &rest).and_then(|_| {
                Search::start(&mut self.game.engine, depth).finish(&mut self.game.engine)
            });
            let r = match searched {
                Ok(r) if !r.depths.is_empty() && r.best.to_move(pos).is_some() => r,
                Ok(_) => break,
                Err(e) => {
                    self.info(&format!("MultiPV line {k}: {e}"))?;
                    break;
                }
            };
            let root = crate::session::root_value(&self.game.engine, pos.turn().is_white());
            self.send(&format!(
                "info depth {depth} multipv {k} score {} nodes {} time {} pv {}",
                uci_score(r.score, &r.depths, root.unwrap_or_default()),
                r.nodes,
                started.elapsed().as_millis(),
                crate::session::pv_text(pos, &r.pv)
            ))?;
            taken.push(r.best);
        }
        restrict_root_moves(&mut self.game, &[])
            .map(drop)
            .or_else(|e| self.info(&format!("MultiPV: clearing the root set: {e}")))
    }

    fn pace(&self) -> Pace {
        Pace {
            clock_hz: self.clock_hz,
            realtime: self.period,
        }
    }

    fn line(&mut self, line: &str) -> std::io::Result<()> {
        let cmd = match parse(line) {
            Ok(c) => c,
            // A `position` line that does not parse leaves no position, as a bad FEN does.
            Err(e) if line.split_whitespace().next() == Some("position") => {
                self.refused = Some(e.to_string());
                return self.info(&format!(
                    "{e}; no position until a good one: 'go' answers bestmove 0000"
                ));
            }
            Err(e) => return self.info(&format!("{e}; line ignored")),
        };
        match cmd {
            UciCommand::Empty | UciCommand::Ignored | UciCommand::PonderHit | UciCommand::Stop => {}
            UciCommand::Uci => {
                self.send(&format!("id name z80chess {}", env!("CARGO_PKG_VERSION")))?;
                self.send("id author the z80chess developers (a Z80 firmware in the manner of Sargon, 1978)")?;
                self.send(&format!(
                    "option name Level type spin default {} min {} max {}",
                    crate::session::DEFAULT_LEVEL,
                    crate::session::LEVELS.start(),
                    crate::session::LEVELS.end()
                ))?;
                self.send(&format!(
                    "option name Build type combo default {} var article var 1978 var full",
                    self.game.build()
                ))?;
                // The full build's parameters, as spins (the default block, so every block;
                // a file given with --params may set the e4 and d4 blocks apart): declared
                // only when the build has them.
                let current = if self.game.build() == Build::Full {
                    self.game.engine.params().ok()
                } else {
                    None
                };
                for p in current.unwrap_or_default() {
                    self.send(&format!(
                        "option name {} type spin default {} min {} max {}",
                        p.def.name, p.values[0], p.def.min, p.def.max
                    ))?;
                }
                self.send(&format!(
                    "option name MultiPV type spin default 1 min 1 max {}",
                    self.multipv_max()
                ))?;
                self.send("option name Ponder type check default false")?;
                self.send("option name PeriodSpeed type check default false")?;
                self.send(&format!(
                    "option name ClockHz type spin default {PERIOD_HZ} min 1000 max 1000000000"
                ))?;
                self.send("option name Threads type spin default 1 min 1 max 1024")?;
                self.send("option name Hash type spin default 4 min 1 max 65536")?;
                let (d, lo, hi) = OVERHEAD_MS;
                self.send(&format!(
                    "option name Move Overhead type spin default {d} min {lo} max {hi}"
                ))?;
                self.send("uciok")?;
            }
            UciCommand::IsReady => self.send("readyok")?,
            UciCommand::Quit => self.wire.quit = true,
            UciCommand::UciNewGame => {
                if let Err(e) = self.game.new_game() {
                    self.info(&format!("ucinewgame: {e}"))?;
                }
                self.base = Base::Start;
                self.moves.clear();
                self.refused = None;
            }
            UciCommand::SetOption { name, value } => self.setoption(&name, &value)?,
            UciCommand::Position { base, moves } => {
                if let Err(why) = self.position(base, moves) {
                    self.info(&format!(
                        "{why}; no position until a good one: 'go' answers bestmove 0000"
                    ))?;
                    self.refused = Some(why);
                }
            }
            UciCommand::Go(g) => self.go(g)?,
        }
        Ok(())
    }

    /// `setoption name Build`: the build, its parameters, and a word when the option list
    /// changes with it.
    fn set_build(&mut self, value: &str) -> std::io::Result<()> {
        let b = match value.to_ascii_lowercase().as_str() {
            "article" => Build::Article,
            "1978" => Build::B1978,
            "full" => Build::Full,
            _ => {
                return self.info(&format!(
                    "setoption Build '{value}': expected article, 1978 or full; ignored"
                ))
            }
        };
        let was = self.game.build();
        if let Err(e) = self.game.set_build(b) {
            self.info(&format!("setoption Build: {e}"))?;
        } else {
            if b == Build::Full {
                if let Err(e) = self.game.set_params(Some(self.params.clone())) {
                    self.info(&format!("setoption Build: {e}"))?;
                }
            }
            if (was == Build::Full) != (b == Build::Full) {
                self.info(&format!(
                    "Build {b}: its options differ from the {was} build's: {}; a GUI \
                     reads the list once, so send 'uci' again to see it",
                    if b == Build::Full {
                        "the P_* parameters apply, MultiPV up to 8"
                    } else {
                        "no P_* parameters (kept for Build full), MultiPV 1"
                    }
                ))?;
            }
        }
        Ok(())
    }

    /// `setoption name MultiPV`: 1 to 8, kept; the period builds say they search one line.
    fn set_multipv(&mut self, value: &str) -> std::io::Result<()> {
        match value.parse::<u8>() {
            Ok(n) if (1..=MULTIPV_MAX).contains(&n) => {
                self.multipv = n;
                if n > self.multipv_max() {
                    self.info(&format!(
                        "MultiPV {n}: the {} build searches one line (its firmware has no \
                     root restriction; MultiPV max 1); kept for Build full",
                        self.game.build()
                    ))?;
                }
            }
            _ => self.info(&format!(
                "setoption MultiPV '{value}': expected 1 to {MULTIPV_MAX}; ignored"
            ))?,
        }
        Ok(())
    }

    fn setoption(&mut self, name: &str, value: &str) -> std::io::Result<()> {
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<u8>() {
                Ok(l) if crate::session::LEVELS.contains(&l) => {
                    self.level = l;
                    self.game.level = l;
                }
                _ => self.info(&format!(
                    "setoption Level '{value}': expected 1 to 6; ignored"
                ))?,
            },
            "build" => self.set_build(value)?,
            n if crate::firmware::params::def(n).is_some() => {
                let v = match value.parse::<i32>() {
                    Ok(v) => v,
                    Err(_) => {
                        return self.info(&format!(
                            "setoption {name} '{value}': not a number; ignored"
                        ))
                    }
                };
                let mut pf = self.params.clone();
                if let Err(e) = pf.set_default(name, v) {
                    return self.info(&format!("setoption {name}: {e}; ignored"));
                }
                self.params = pf;
                if self.game.build() == Build::Full {
                    if let Err(e) = self.game.set_params(Some(self.params.clone())) {
                        self.info(&format!("setoption {name}: {e}"))?;
                    }
                } else {
                    self.info(&format!(
                        "setoption {name}: kept; it takes effect with Build full"
                    ))?;
                }
            }
            "multipv" => self.set_multipv(value)?,
            // The GUI decides when to send `go ponder`; the engine needs no switch of its own.
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => {}
                _ => self.info(&format!(
                    "setoption Ponder '{value}': expected true or false; ignored"
                ))?,
            },
            "periodspeed" => match value.to_ascii_lowercase().as_str() {
                "true" => self.period = true,
                "false" => self.period = false,
                _ => self.info(&format!(
                    "setoption PeriodSpeed '{value}': expected true or false; ignored"
                ))?,
            },
            "clockhz" => match value.parse::<u64>() {
                Ok(hz) if (1000..=1_000_000_000).contains(&hz) => self.clock_hz = hz,
                _ => self.info(&format!(
                    "setoption ClockHz '{value}': expected 1000 to 1000000000; ignored"
                ))?,
            },
            "threads" => match value.parse::<u32>() {
                Ok(n) if (1..=1024).contains(&n) => self.info(&format!(
                    "Threads {n}: accepted; the Z80 is one CPU, the search runs on one thread"
                ))?,
                _ => self.info(&format!(
                    "setoption Threads '{value}': expected 1 to 1024; ignored"
                ))?,
            },
            "hash" => match value.parse::<u32>() {
                Ok(n) if (1..=65536).contains(&n) => self.info(&format!(
                    "Hash {n}: accepted; the full build's table is fixed: {TABLE_TEXT}; the \
                     period builds keep none"
                ))?,
                _ => self.info(&format!(
                    "setoption Hash '{value}': expected 1 to 65536; ignored"
                ))?,
            },
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) if (OVERHEAD_MS.1..=OVERHEAD_MS.2).contains(&ms) => {
                    self.overhead = Duration::from_millis(ms)
                }
                _ => self.info(&format!(
                    "setoption Move Overhead '{value}': expected {} to {} ms; ignored",
                    OVERHEAD_MS.1, OVERHEAD_MS.2
                ))?,
            },
            _ => self.info(&format!("setoption: no option '{name}'; ignored"))?,
        }
        Ok(())
    }

    /// Set the position; the error says why it was refused (the loop then refuses `go`).
    fn position(&mut self, base: Base, moves: Vec<String>) -> Result<(), String> {
        let start = match &base {
            Base::Start => Chess::default(),
            Base::Fen(f) => match parse_fen(f) {
                Ok(p) => p,
                Err(e) => return Err(format!("position: {e}")),
            },
        };
        // Check every move first: a bad one leaves the previous position.
        let mut pos = start.clone();
        let mut checked = Vec::new();
        for (i, t) in moves.iter().enumerate() {
            let m = t.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok());
            match m {
                Some(m) => {
                    pos.play_unchecked(m);
                    checked.push(m);
                }
                None => return Err(format!("position: move {} '{t}' is not legal there", i + 1)),
            }
        }
        let extends = base == self.base
            && moves.len() >= self.moves.len()
            && moves[..self.moves.len()] == self.moves[..]
            && self.game.plies.len() == self.moves.len();
        let from = if extends {
            self.moves.len()
        } else {
            if let Err(e) = self.game.set_start(start) {
                self.base = Base::Start;
                self.moves.clear();
                return Err(format!("position: {e}"));
            }
            0
        };
        for m in &checked[from..] {
            if let Err(e) = self.game.play(*m, None, true) {
                self.base = Base::Start;
                self.moves.clear();
                let _ = self.game.new_game();
                return Err(format!("position: {e}; the engine is reset"));
            }
        }
        self.base = base;
        self.moves = moves;
        self.refused = None;
        Ok(())
    }

    /// Answer `go` with no move (`bestmove 0000`), saying why; a `go infinite` or `go ponder`
    /// still waits for its `stop` (or `ponderhit`, or the end of input) first.
    fn no_move(&mut self, go: &Go, why: &str) -> std::io::Result<()> {
        self.info(why)?;
        if go.infinite || go.ponder {
            let pos = Chess::default();
            let (mut ears, _) = self.ears(&pos, None);
            let idle = Search::idle();
            while ears.listen(&idle, None)? == SearchHeard::Nothing {}
        }
        self.send("bestmove 0000")
    }

    /// The moves of `go searchmoves` that are legal here; each one that is not is named.
    fn root_moves(&mut self, pos: &Chess, given: &[String]) -> std::io::Result<Vec<Move>> {
        let mut legal = Vec::new();
        for t in given {
            match t.parse::<UciMove>().ok().and_then(|u| u.to_move(pos).ok()) {
                Some(m) => legal.push(m),
                None => self.info(&format!(
                    "go searchmoves: '{t}' is not legal here; left out"
                ))?,
            }
        }
        Ok(legal)
    }

    fn go(&mut self, go: Go) -> std::io::Result<()> {
        for n in &go.notes {
            self.info(n)?;
        }
        if let Some(why) = self.refused.clone() {
            return self.no_move(&go, &format!("no position: {why}"));
        }
        let pos = self.game.pos().clone();
        if pos.legal_moves().is_empty() {
            let why = if pos.is_check() {
                "no legal move: checkmate"
            } else {
                "no legal move: stalemate"
            };
            return self.no_move(&go, why);
        }
        let legal = if go.searchmoves.is_empty() {
            Vec::new()
        } else {
            let legal = self.root_moves(&pos, &go.searchmoves)?;
            if legal.is_empty() {
                self.info("go searchmoves: no legal move given; searching every move")?;
            }
            legal
        };
        match restrict_root_moves(&mut self.game, &legal) {
            Ok(true) => {}
            Ok(false) if legal.is_empty() => {}
            Ok(false) => self.info(&format!(
                "go searchmoves: the {} build searches every root move (its 1978 firmware \
                 has no root restriction); the move may be another",
                self.game.build()
            ))?,
            Err(e) => {
                self.info(&format!(
                    "go searchmoves: the firmware refused the set: {e}"
                ))?;
                return self.send("bestmove 0000");
            }
        }
        let mut depth = go.depth;
        if let Some(n) = go.mate {
            let plies = (2 * n - 1).min(crate::session::MAX_DEPTH as u32) as u8;
            self.info(&format!(
                "go mate {n}: the firmware has no mate search; searching {plies} plies instead"
            ))?;
            depth = Some(depth.map_or(plies, |d| d.min(plies)));
        }
        if let Some(n) = go.nodes {
            self.info(&format!(
                "go nodes {n}: the search stops at the first look after {n} nodes (moves made; \
                 the host looks between slices of the emulator's run)"
            ))?;
        }
        let open = go.infinite || go.ponder;
        let pace = self.pace();
        let full = self.game.build() == Build::Full;
        let rate = self.rate.for_pace(&pace, self.game.build());
        let tc = if open {
            TimeControl::Unlimited
        } else {
            go.time_control(pos.turn())
        };
        let mut plan = clock::plan(tc, depth, self.level, self.overhead, &pace, full, rate);
        if open && depth.is_none() {
            plan.depth = crate::session::MAX_DEPTH;
        }
        let level = plan.depth;
        let (mut driver, refused) = Driver::planned(&mut self.game.engine, &plan, pace, rate);
        if let Some(e) = refused {
            self.info(&format!(
                "the firmware refused the clock ({e}): the host keeps it"
            ))?;
        }
        if tc != TimeControl::Unlimited {
            self.info(&format!("time: {}", plan.note))?;
        }
        driver.hold = open;
        driver.nodes = go.nodes;
        if go.nodes.is_some() {
            driver = driver.with_slice(pace.slice().min(200_000));
        }
        // Pondering: on `ponderhit` the search goes on with the time `go ponder` gave (the
        // host's share), counted from there.
        let on_hit = clock::plan(
            go.time_control(pos.turn()),
            depth,
            self.level,
            self.overhead,
            &pace,
            false,
            rate,
        )
        .budget
        .map_or(Budget::None, Budget::Time);
        let (mut ears, engine) = self.ears(&pos, go.ponder.then_some((on_hit, go.infinite)));
        let outcome = driver.run(engine, &mut ears);
        let (result, elapsed, wall) = match outcome {
            Ok(Outcome::Move {
                result,
                elapsed,
                wall,
            }) => (result, elapsed, wall),
            Ok(Outcome::Abandoned) => return self.send("bestmove 0000"),
            Err(DriveError::Io(e)) => return Err(e),
            Err(e) => {
                self.info(&e.to_string())?;
                return self.send("bestmove 0000");
            }
        };
        if !pace.realtime && !open {
            self.rate.observe(result.tstates, wall);
        }
        if self.multipv > 1 && self.game.build() == Build::Full {
            self.other_lines(&pos, &result, &legal)?;
        }
        self.report(&result, level, elapsed)
    }

    fn report(&mut self, r: &SearchResult, level: u8, elapsed: Duration) -> std::io::Result<()> {
        let pos = self.game.pos();
        let legal = r.best.to_move(pos).is_some();
        // The full build's expected reply, if legal after the move: `bestmove X ponder Y`.
        let ponder = r.best.to_move(pos).and_then(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            r.reply
                .and_then(|y| y.to_move(&after))
                .map(|y| format!(" ponder {}", y.to_uci(shakmaty::CastlingMode::Standard)))
        });
        let ms = elapsed.as_millis();
        let secs = r.tstates as f64 / PERIOD_HZ as f64;
        if r.depths.is_empty() && legal {
            // No depth scored the move: depth 0 and the Z80's static value of the position.
            let line = match crate::session::static_cp(&mut self.game.engine) {
                Ok(cp) => format!(
                    "info depth 0 score cp {cp} nodes {} time {ms} pv {}",
                    r.nodes,
                    r.best.uci()
                ),
                Err(e) => format!("info depth 0 string the static evaluation failed: {e}"),
            };
            self.send(&line)?;
        }
        let pos = self.game.pos();
        match r.kind {
            SearchKind::Book => self.info(&format!(
                "book move (score: the Z80's static evaluation of the position); {} T-states",
                r.tstates
            ))?,
            kind if r.depths.is_empty() => {
                let nps = (r.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
                self.send(&format!("info nodes {} nps {nps} time {ms}", r.nodes))?;
                self.info(&format!(
                    "{} before depth 1 completed: scored by the static evaluation; the move is \
                     the firmware's first choice ({} T-states)",
                    if kind == SearchKind::Overflow {
                        "a move list overflowed"
                    } else {
                        "stopped"
                    },
                    r.tstates
                ))?;
            }
            kind => {
                let depth = r.depths.last().map(|d| d.depth).unwrap_or(0);
                let root = crate::session::root_value(&self.game.engine, pos.turn().is_white());
                let score = uci_score(r.score, &r.depths, root.unwrap_or_default());
                let nps = (r.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
                // The last depth's line went out as it completed: said again only if the
                // answer differs from it; else the totals alone.
                let told = r
                    .depths
                    .last()
                    .is_some_and(|d| d.best == r.best && d.score == r.score && d.pv == r.pv);
                let scored = if told {
                    String::new()
                } else {
                    format!(" depth {} score {score}", depth.max(1))
                };
                self.send(&format!(
                    "info{scored}{} nodes {} nps {nps} time {ms}{}{}",
                    seldepth_text(&self.game.engine),
                    r.nodes,
                    hashfull_text(&self.game.engine),
                    if told {
                        String::new()
                    } else {
                        format!(" pv {}", crate::session::pv_text(pos, &r.pv))
                    }
                ))?;
                self.info(&format!(
                    "{} at level {level}: {} evaluations, {} XCHNG calls, {} T-states = {secs:.1} s at 2 MHz",
                    match kind {
                        SearchKind::Stopped => "stopped",
                        SearchKind::Overflow => "a move list overflowed",
                        _ => "searched",
                    },
                    r.evaluations,
                    r.xchng_calls,
                    r.tstates
                ))?;
            }
        }
        if legal {
            self.send(&format!(
                "bestmove {}{}",
                r.best.uci(),
                ponder.unwrap_or_default()
            ))
        } else {
            self.info(&format!(
                "the firmware chose {}, which is not legal here",
                r.best.uci()
            ))?;
            self.send("bestmove 0000")
        }
    }
}

/// The UCI front end's side of a search: `info` lines for the driver's reports, and the
/// client's lines between slices (`isready` answered at once, `stop`, `ponderhit`, `quit`;
/// anything else waits for the search's answer).
struct Ears<'a, 'w> {
    wire: &'a mut Wire<'w>,
    pos: &'a Chess,
    /// While pondering: the budget and hold after `ponderhit`.
    ponder: Option<(Budget, bool)>,
    /// MultiPV is on: the search's lines are line 1.
    multipv: bool,
}

impl Ears<'_, '_> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.wire.send(text)
    }

    /// A line that arrives while the firmware searches.
    fn heard(&mut self, line: String) -> std::io::Result<SearchHeard> {
        if super::not_utf8(&line) {
            // (refused by name when its turn comes)
            self.wire.pending.push_back(line);
            return Ok(SearchHeard::Nothing);
        }
        Ok(match line.split_whitespace().next() {
            Some("isready") => {
                self.send("readyok")?;
                SearchHeard::Nothing
            }
            Some("stop") => SearchHeard::MoveNow,
            Some("quit") => {
                self.wire.quit = true;
                SearchHeard::MoveNow
            }
            Some("ponderhit") => match self.ponder.take() {
                Some((budget, hold)) => SearchHeard::PonderHit { budget, hold },
                None => SearchHeard::MoveNow,
            },
            None => SearchHeard::Nothing,
            Some(_) => {
                self.wire.pending.push_back(line);
                SearchHeard::Nothing
            }
        })
    }
}

impl Listener for Ears<'_, '_> {
    fn depth(
        &mut self,
        engine: &crate::firmware::Engine,
        search: &Search,
        i: usize,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        let d = &search.depths[i];
        let root = crate::session::root_value(engine, self.pos.turn().is_white());
        let score = uci_score(d.score, &search.depths[..=i], root.unwrap_or_default());
        let line = format!(
            "info depth {}{}{} score {score} nodes {} time {}{} pv {}",
            d.depth,
            seldepth_text(engine),
            if self.multipv { " multipv 1" } else { "" },
            search.nodes,
            elapsed.as_millis(),
            hashfull_text(engine),
            crate::session::pv_text(self.pos, &d.pv)
        );
        self.send(&line)
    }

    fn progress(
        &mut self,
        engine: &crate::firmware::Engine,
        search: &Search,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        let ms = elapsed.as_millis();
        let nps = (search.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
        let line = format!(
            "info{} nodes {} nps {nps} time {ms}{}{}",
            seldepth_text(engine),
            search.nodes,
            hashfull_text(engine),
            currmove_text(engine, self.pos),
        );
        self.send(&line)
    }

    fn listen(&mut self, _: &Search, wait: Option<Duration>) -> std::io::Result<SearchHeard> {
        if self.wire.quit || self.wire.eof {
            return Ok(SearchHeard::MoveNow);
        }
        match super::next_line(self.wire.lines, wait) {
            super::Input::Line(l) => self.heard(l),
            super::Input::Quiet => Ok(SearchHeard::Nothing),
            super::Input::Ended => {
                // The end of input: the search stops now and still answers.
                self.wire.eof = true;
                Ok(SearchHeard::MoveNow)
            }
        }
    }
}

/// ` hashfull N` for an `info` line, when the build has a table (the full build, its flag on).
fn hashfull_text(engine: &crate::firmware::Engine) -> String {
    crate::session::search::hashfull(engine)
        .map(|h| format!(" hashfull {h}"))
        .unwrap_or_default()
}

/// ` seldepth N`: the deepest ply the search has reached ([`crate::firmware::Engine::progress`]:
/// exact in the full build, which keeps it in Z80; in the period builds the deepest ply seen
/// between slices, a lower bound).
fn seldepth_text(engine: &crate::firmware::Engine) -> String {
    engine
        .progress()
        .seldepth
        .map(|d| format!(" seldepth {d}"))
        .unwrap_or_default()
}

/// ` currmove M currmovenumber N`: the root move being searched now and its number, read
/// from the Z80's RAM between slices, when it is a legal move here.
fn currmove_text(engine: &crate::firmware::Engine, pos: &Chess) -> String {
    match engine.progress().root {
        Some(r) if r.mv.to_move(pos).is_some() => {
            format!(" currmove {} currmovenumber {}", r.mv.uci(), r.number)
        }
        _ => String::new(),
    }
}

/// `cp N` (the position's value for the side to move: the firmware's score plus the root's
/// value it is measured from) or `mate N` for a firmware score.
pub fn uci_score(
    score: crate::firmware::Score,
    depths: &[crate::firmware::DepthReport],
    root: crate::session::RootValue,
) -> String {
    match crate::session::mate_in(score, depths) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", crate::session::absolute_cp(score, root)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    #[test]
    fn go_lines() {
        assert_eq!(parse_go(&["depth", "3"]).depth, Some(3));
        let g = parse_go(&["depth", "x"]);
        assert_eq!(g.depth, None);
        assert!(g.notes[0].contains("not a number"), "{:?}", g.notes);
        assert!(parse_go(&["depth"]).notes[0].contains("needs a number"));
        assert!(parse_go(&["sideways"]).notes[0].contains("unknown token"));
        assert_eq!(parse_go(&["depth", "-1"]).depth, Some(1));
        assert_eq!(parse_go(&["depth", "99999999999999999999"]).depth, Some(8));
        assert_eq!(parse_go(&["movetime", "-5"]).movetime, Some(0));
        let g = parse_go(&["searchmoves", "e2e4", "d2d4", "depth", "2"]);
        assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(g.depth, Some(2));
        let g = parse_go(&[
            "wtime", "60000", "btime", "1000", "winc", "0", "binc", "100",
        ]);
        assert_eq!(
            g.time_control(Color::Black),
            TimeControl::Clock {
                left: Duration::from_millis(1000),
                inc: Duration::from_millis(100),
                moves_to_go: 0
            }
        );
        assert!(parse_go(&["infinite"]).infinite);
        assert_eq!(
            parse("go depth 2 \u{FFFD}"),
            Err(UciError::NotUtf8("go depth 2 \u{FFFD}".into()))
        );
    }
}
