//! The two kinds of player: a firmware build in a fresh emulated machine, and an external UCI
//! engine in a child process. Both are told every move of the game and asked for their own.

use super::game::Side;
use super::spec::EngineSpec;
use super::MatchError;
use crate::firmware::params::ParamFile;
use crate::firmware::SearchResult;
use crate::firmware::{Build, SearchKind};
use crate::session::game::{Game, Ponder, Thought};
use crate::session::search::{Driver, Search};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the side to move may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed-depth search.
    Depth(u8),
    /// Emulated seconds (T-states = seconds × clock) for a build; wall seconds for a UCI engine.
    Seconds(f64),
    /// A tournament clock: seconds left and moves to the control. The full build gets it
    /// (`'T'`) and keeps its own time (`asm/full/time.asm`); the period builds and UCI engines get
    /// an even share of it as [`Budget::Seconds`] (less the firmware's stop latency).
    Clock { left: f64, to_go: u32 },
}

impl Budget {
    /// What a player that keeps no time gets: a fixed depth, or seconds for this move. Under a
    /// clock: an even share of what is left with one move's share kept in hand (an engine
    /// answers "move now" late, and the last move before the control must not overstep),
    /// less the engine's stop latency.
    pub fn share(self, latency: f64) -> Budget {
        match self {
            Budget::Clock { left, to_go } => {
                let share = left / (to_go.max(1) + 1) as f64;
                Budget::Seconds((share - latency).max(share / 4.0).max(1e-6))
            }
            b => b,
        }
    }
}

/// A move chosen, with what the engine said about it.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move as the engine gave it (UCI notation), legal or not.
    pub text: String,
    /// The move, if it is legal in the position.
    pub mv: Option<Move>,
    /// A PGN comment: score/depth and time.
    pub comment: String,
    /// Seconds of the side's clock spent (emulated for a build, wall for UCI).
    pub seconds: f64,
}

/// Why a player gave no move.
#[derive(Debug, thiserror::Error)]
pub enum ThinkError {
    /// An external engine said nothing for `--engine-timeout` past its time.
    #[error("did not answer in {} s", fmt_seconds(seconds.as_secs_f64()))]
    Silent { seconds: Duration },
    #[error("{0}")]
    Failed(String),
}

impl From<String> for ThinkError {
    fn from(e: String) -> ThinkError {
        ThinkError::Failed(e)
    }
}

/// "2", "0.5", "90.25": seconds without trailing zeros.
fn fmt_seconds(s: f64) -> String {
    let t = format!("{s:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// How long an external engine may stay silent past its time by default (`--engine-timeout`).
pub const DEFAULT_ENGINE_TIMEOUT: Duration = Duration::from_secs(60);

/// An engine ready to play games.
pub enum Player {
    Firmware(Box<FirmwarePlayer>),
    Uci(UciPlayer),
}

/// A pondering player's count over one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderStats {
    /// Replies pondered on (searches started on the opponent's time).
    pub tries: u32,
    /// ... that the opponent played.
    pub hits: u32,
    /// T-states pondered on the hits (not charged to the clock).
    pub saved: u64,
}

impl Player {
    /// A fresh player for one game, from a checked side.
    pub fn new(side: &Side, clock_hz: u64) -> Result<Player, MatchError> {
        match &side.spec {
            EngineSpec::Build { build, .. } => {
                let mut f = FirmwarePlayer::new(*build, side.params.as_ref(), clock_hz)?;
                f.ponders = side.ponder;
                Ok(Player::Firmware(Box::new(f)))
            }
            EngineSpec::Uci {
                path,
                args,
                options,
            } => {
                let mut u = UciPlayer::spawn(path, args, options)?;
                u.timeout = side.engine_timeout;
                Ok(Player::Uci(u))
            }
        }
    }

    /// Start the game from `start` with `moves` already played.
    pub fn new_game(&mut self, start: &Chess, moves: &[Move]) -> Result<(), String> {
        match self {
            Player::Firmware(f) => f.new_game(start, moves),
            Player::Uci(u) => u.new_game(start, moves),
        }
    }

    /// A move was played (by either side).
    pub fn apply(&mut self, m: Move, thought: Option<Thought>) -> Result<(), String> {
        match self {
            Player::Firmware(f) => f.apply(m, thought),
            Player::Uci(u) => {
                u.moves.push(m.to_uci(CastlingMode::Standard).to_string());
                Ok(())
            }
        }
    }

    /// After its own move: start thinking on the opponent's time about the reply it expects,
    /// with `next` the budget its next move will have (a pondering full build only).
    pub fn start_ponder(&mut self, next: Budget) -> Result<(), String> {
        match self {
            Player::Firmware(f) => f.start_ponder(next),
            Player::Uci(_) => Ok(()),
        }
    }

    /// The opponent has thought for `seconds` of its clock: ponder as long.
    pub fn ponder_for(&mut self, seconds: f64) -> Result<(), String> {
        match self {
            Player::Firmware(f) => f.ponder_for(seconds),
            Player::Uci(_) => Ok(()),
        }
    }

    /// Replies pondered on and replies predicted, when this player ponders.
    pub fn ponder_stats(&self) -> Option<PonderStats> {
        match self {
            Player::Firmware(f) if f.ponders => Some(f.stats),
            _ => None,
        }
    }

    /// Choose a move in the current position (the game is not over).
    pub fn think(
        &mut self,
        pos: &Chess,
        budget: Budget,
    ) -> Result<(Choice, Option<Thought>), ThinkError> {
        match self {
            Player::Firmware(f) => Ok(f.think(pos, budget)?),
            Player::Uci(u) => u.think(pos, budget).map(|c| (c, None)),
        }
    }
}

/// A firmware build in its own machine, kept in step with the game by [`Game`].
pub struct FirmwarePlayer {
    game: Game,
    clock_hz: u64,
    /// The address of MOVENO (the book answers at move number 1).
    moveno: Option<u16>,
    /// The most T-states a search of this game ran past its "move now" (the firmware answers
    /// at its next poll: the 1978 build's polls are far apart). The host keeps half as much
    /// again in hand, so the last move before a control cannot overstep the clock.
    overrun: u64,
    /// Think on the opponent's time (`match --ponder`; the full build only).
    pub ponders: bool,
    /// The last search's answer (its expected reply is pondered on).
    last: Option<SearchResult>,
    /// The search on the opponent's time, if one runs.
    pondering: Option<Pondering>,
    /// A ponder search whose reply the opponent played: the next [`FirmwarePlayer::think`]
    /// goes on with it.
    hit: Option<Pondering>,
    pub stats: PonderStats,
}

/// A ponder search and its stop: a timed one (the full build keeping its own time from the
/// ponder's start, as on a clock where predicting saves time) is stopped by the host only past
/// its hard limit.
struct Pondering {
    ponder: Ponder,
    /// T-states from the ponder's start after which the host says "move now".
    limit: Option<u64>,
    /// T-states searched before the opponent moved (set on a hit).
    pondered: u64,
}

impl FirmwarePlayer {
    /// A fresh machine, with `params` loaded (they survive a new game).
    pub fn new(
        build: Build,
        params: Option<&ParamFile>,
        clock_hz: u64,
    ) -> Result<FirmwarePlayer, MatchError> {
        let mut game = Game::new(build, crate::session::DEFAULT_LEVEL)
            .map_err(|e| MatchError::Engine(e.to_string()))?;
        if let Some(pf) = params {
            game.engine
                .load_params(pf)
                .map_err(|e| MatchError::Params {
                    path: PathBuf::from(&pf.source),
                    reason: e.to_string(),
                })?;
        }
        Ok(FirmwarePlayer {
            game,
            clock_hz,
            moveno: build.symbol("MOVENO"),
            overrun: 0,
            ponders: false,
            last: None,
            pondering: None,
            hit: None,
            stats: PonderStats::default(),
        })
    }

    fn new_game(&mut self, start: &Chess, moves: &[Move]) -> Result<(), String> {
        self.game
            .set_start(start.clone())
            .map_err(|e| e.to_string())?;
        for &m in moves {
            self.game.play(m, None, true).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn apply(&mut self, m: Move, thought: Option<Thought>) -> Result<(), String> {
        if let Some(mut p) = self.pondering.take() {
            if p.ponder.reply == m {
                // Predicted: the firmware already holds the move; its search goes on.
                self.game.record(m).map_err(|e| e.to_string())?;
                p.pondered = p.ponder.tstates();
                self.stats.hits += 1;
                self.stats.saved += p.pondered;
                self.hit = Some(p);
                return Ok(());
            }
            self.game.end_ponder(p.ponder).map_err(|e| e.to_string())?;
        }
        self.game.play(m, thought, true).map_err(|e| e.to_string())
    }

    /// Start pondering on the reply the last search expects (nothing to do when it expects
    /// none, the game is over, or this player does not ponder). `next` is the budget of this
    /// player's next move: under a clock the ponder search is the timed search that move would
    /// start, keeping its time from now.
    fn start_ponder(&mut self, next: Budget) -> Result<(), String> {
        if !self.ponders || self.pondering.is_some() {
            return Ok(());
        }
        let Some(r) = self.last.take() else {
            return Ok(());
        };
        let hz = self.clock_hz as f64;
        let mut limit = None;
        let mut refused = None;
        let ponder = self.game.start_ponder_with(&r, |engine| match next {
            Budget::Depth(d) => Some(Search::start(engine, d)),
            Budget::Seconds(_) => Some(Search::start(engine, crate::session::MAX_DEPTH)),
            Budget::Clock { left, to_go } => {
                let left_t = (left.max(0.0) * hz) as u64;
                match engine.set_time(left_t, to_go, 0) {
                    Ok(b) => {
                        limit = Some(b.hard + crate::session::clock::STOP_LATENCY_T);
                        Some(Search::timed(engine, crate::session::MAX_DEPTH))
                    }
                    Err(e) => {
                        refused = Some(e.to_string());
                        None
                    }
                }
            }
        });
        if let Some(e) = refused {
            return Err(format!("the firmware refused the clock: {e}"));
        }
        if let Some(ponder) = ponder {
            self.stats.tries += 1;
            self.pondering = Some(Pondering {
                ponder,
                limit,
                pondered: 0,
            });
        }
        Ok(())
    }

    /// Ponder for `seconds` (the opponent's thinking time, at this player's clock).
    fn ponder_for(&mut self, seconds: f64) -> Result<(), String> {
        let Some(p) = self.pondering.as_mut() else {
            return Ok(());
        };
        let engine = &mut self.game.engine;
        let until = p.ponder.tstates() + (seconds.max(0.0) * self.clock_hz as f64) as u64;
        let until = p.limit.map_or(until, |l| until.min(l));
        while p.ponder.running() && p.ponder.tstates() < until {
            p.ponder
                .step(engine, until - p.ponder.tstates())
                .map_err(|e| e.to_string())?;
        }
        if p.ponder.running() && p.limit.is_some_and(|l| p.ponder.tstates() >= l) {
            p.ponder.search.stop(engine);
            p.ponder.result = Some(p.ponder.search.finish(engine).map_err(|e| e.to_string())?);
        }
        Ok(())
    }

    /// The firmware's move number (None when the build has no MOVENO symbol).
    fn move_number(&self) -> Option<u8> {
        self.moveno
            .and_then(|a| self.game.engine.machine.bus.mem.get(a as usize).copied())
    }

    fn think(&mut self, pos: &Chess, budget: Budget) -> Result<(Choice, Option<Thought>), String> {
        if let Some(hit) = self.hit.take() {
            return self.think_on(hit, pos, budget);
        }
        // At move number 1 the firmware answers from its one-move book, whatever the position:
        // a match game from an opening is searched, so the move number is at least 2.
        let book = match self.move_number() {
            Some(n) => n <= 1,
            None => crate::firmware::sargon::is_book_position(pos),
        };
        if book {
            self.game
                .engine
                .set_move_number(2)
                .map_err(|e| e.to_string())?;
        }
        let engine = &mut self.game.engine;
        let latency = crate::session::clock::STOP_LATENCY_T.max(self.overrun * 3 / 2) as f64
            / self.clock_hz as f64;
        let budget = match budget {
            Budget::Clock { .. } if engine.build != crate::firmware::Build::Full => {
                budget.share(latency)
            }
            b => b,
        };
        let r = match budget {
            Budget::Depth(d) => Search::start(engine, d)
                .finish(engine)
                .map_err(|e| e.to_string())?,
            Budget::Clock { left, to_go } => {
                // The full build keeps its own time; the host stops it only past the hard
                // limit it answered (which it never reaches).
                let left_t = (left.max(0.0) * self.clock_hz as f64) as u64;
                let b = engine
                    .set_time(left_t, to_go, 0)
                    .map_err(|e| e.to_string())?;
                let search = Search::timed(engine, crate::session::MAX_DEPTH);
                run_until(
                    search,
                    engine,
                    b.hard + crate::session::clock::STOP_LATENCY_T,
                )?
            }
            Budget::Seconds(s) => {
                // The budget in T-states, then MOVE-NOW (the firmware answers within about
                // STOP_LATENCY_T with its last completed depth's move).
                let stop_at = ((s * self.clock_hz as f64).round() as u64).max(1);
                let r = run_until(
                    Search::start(engine, crate::session::MAX_DEPTH),
                    engine,
                    stop_at,
                )?;
                self.overrun = self.overrun.max(r.tstates.saturating_sub(stop_at));
                r
            }
        };
        Ok(self.choice(r, pos, 0))
    }

    /// The move of search `r` of which the first `pondered` T-states ran on the opponent's
    /// time (not charged).
    fn choice(&mut self, r: SearchResult, pos: &Chess, pondered: u64) -> (Choice, Option<Thought>) {
        let thought = Thought::from_result(&r);
        let hz = self.clock_hz as f64;
        let seconds = r.tstates.saturating_sub(pondered) as f64 / hz;
        let what = match r.kind {
            SearchKind::Book => "book".to_string(),
            _ => format!("{}/{}", thought.score_text(), thought.depth),
        };
        let comment = if pondered > 0 {
            format!(
                "{what} {seconds:.2}s, pondered {:.2}s",
                pondered as f64 / hz
            )
        } else {
            format!("{what} {seconds:.2}s")
        };
        let choice = Choice {
            text: r.best.uci(),
            mv: r.best.to_move(pos),
            comment,
            seconds,
        };
        self.last = Some(r);
        (choice, Some(thought))
    }

    /// The opponent played the reply pondered on: that search goes on as this move's, with
    /// `budget` counted as a search started now would count it (a fixed depth: to its end;
    /// seconds: from the opponent's move; a clock: the firmware's own, from the ponder's
    /// start, so a prediction saves clock time), charged only for what runs from here.
    fn think_on(
        &mut self,
        hit: Pondering,
        pos: &Chess,
        budget: Budget,
    ) -> Result<(Choice, Option<Thought>), String> {
        let Pondering {
            ponder,
            limit,
            pondered,
        } = hit;
        let engine = &mut self.game.engine;
        let r = match ponder.result {
            Some(r) => r,
            None => {
                let mut search = ponder.search;
                match (budget, limit) {
                    (_, Some(l)) => run_until(search, engine, l)?,
                    (Budget::Seconds(s), None) => {
                        let stop_at = pondered + ((s * self.clock_hz as f64).round() as u64).max(1);
                        let r = run_until(search, engine, stop_at)?;
                        self.overrun = self.overrun.max(r.tstates.saturating_sub(stop_at));
                        r
                    }
                    _ => search.finish(engine).map_err(|e| e.to_string())?,
                }
            }
        };
        Ok(self.choice(r, pos, pondered))
    }
}

/// Run a started search until it answers, saying "move now" once it has run `stop_at`
/// T-states (the session's driver with a T-state budget: exact, the same on every host).
fn run_until(
    search: Search,
    engine: &mut crate::firmware::Engine,
    stop_at: u64,
) -> Result<crate::firmware::SearchResult, String> {
    Driver::finish_within(search, engine, stop_at).map_err(|e| e.to_string())
}

/// How long a UCI engine may take to answer the handshake or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// An external engine speaking UCI, one process per game.
pub struct UciPlayer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    path: PathBuf,
    /// Its `id name`.
    pub name: String,
    start: Option<String>,
    moves: Vec<String>,
    /// How long it may stay silent past its move's time (the whole wait under `--level`).
    pub timeout: Duration,
}

impl UciPlayer {
    /// Start the engine and run the handshake (`uci` ... `uciok`, options, `isready`).
    pub fn spawn(
        path: &Path,
        args: &[String],
        options: &[(String, String)],
    ) -> Result<UciPlayer, MatchError> {
        let uci_err = |reason: String| MatchError::Uci {
            path: path.to_path_buf(),
            reason,
        };
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    MatchError::UciMissing {
                        path: path.to_path_buf(),
                    }
                } else {
                    uci_err(format!("cannot start it: {e}"))
                }
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut p = UciPlayer {
            child,
            stdin,
            lines: rx,
            path: path.to_path_buf(),
            name: path.display().to_string(),
            start: None,
            moves: Vec::new(),
            timeout: DEFAULT_ENGINE_TIMEOUT,
        };
        p.send("uci").map_err(&uci_err)?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let l = p
                .recv(deadline)
                .map_err(|e| uci_err(format!("{e} (waiting for uciok)")))?;
            if let Some(n) = l.strip_prefix("id name ") {
                p.name = n.trim().to_string();
            }
            if l.trim() == "uciok" {
                break;
            }
        }
        for (name, value) in options {
            p.send(&format!("setoption name {name} value {value}"))
                .map_err(&uci_err)?;
        }
        p.ready().map_err(&uci_err)?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| {
                // Most likely it has exited: say how.
                std::thread::sleep(Duration::from_millis(50));
                match self.child.try_wait() {
                    Ok(Some(status)) => format!("it exited ({status})"),
                    _ => format!("writing to it failed: {e}"),
                }
            })
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err("no answer in time".into()),
            Err(RecvTimeoutError::Disconnected) => Err("it exited".into()),
        }
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            if self
                .recv(deadline)
                .map_err(|e| format!("{e} (waiting for readyok)"))?
                .trim()
                == "readyok"
            {
                return Ok(());
            }
        }
    }

    fn new_game(&mut self, start: &Chess, moves: &[Move]) -> Result<(), String> {
        self.start = if super::openings::is_initial(start) {
            None
        } else {
            Some(Fen::from_position(start, EnPassantMode::Legal).to_string())
        };
        self.moves = moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        self.send("ucinewgame")?;
        self.ready()
    }

    fn think(&mut self, pos: &Chess, budget: Budget) -> Result<Choice, ThinkError> {
        let mut position = match &self.start {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        if !self.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&self.moves.join(" "));
        }
        self.send(&position)?;
        // Under a fixed depth the engine has `timeout` in all; under a time, its time and
        // `timeout` past it.
        let (go, limit) = match budget.share(0.0) {
            Budget::Depth(d) => (format!("go depth {d}"), self.timeout),
            Budget::Seconds(s) => {
                let ms = (s * 1000.0).round().max(1.0) as u64;
                (
                    format!("go movetime {ms}"),
                    Duration::from_millis(ms) + self.timeout,
                )
            }
            Budget::Clock { .. } => unreachable!("share() gives seconds"),
        };
        self.send(&go)?;
        let t0 = Instant::now();
        let deadline = t0 + limit;
        let mut info = String::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let l = match self.lines.recv_timeout(wait) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ThinkError::Silent { seconds: limit })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ThinkError::Failed(
                        "it exited (waiting for bestmove)".into(),
                    ))
                }
            };
            let mut words = l.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(s) = describe_info(&l) {
                        info = s;
                    }
                }
                Some("bestmove") => {
                    let seconds = t0.elapsed().as_secs_f64();
                    let text = words.next().unwrap_or("(none)").to_string();
                    let mv = text
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(pos).ok());
                    return Ok(Choice {
                        text,
                        mv,
                        comment: info,
                        seconds,
                    });
                }
                _ => {}
            }
        }
    }
}

/// "+0.31/12" from an info line with a score and a depth.
fn describe_info(line: &str) -> Option<String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let at = |k: &str| w.iter().position(|x| *x == k);
    let depth = w.get(at("depth")? + 1)?;
    let s = at("score")?;
    let score = match (w.get(s + 1), w.get(s + 2)) {
        (Some(&"cp"), Some(v)) => format!("{:+.2}", v.parse::<f64>().ok()? / 100.0),
        (Some(&"mate"), Some(v)) => {
            let n: i32 = v.parse().ok()?;
            if n > 0 {
                format!("mate in {n}")
            } else {
                format!("mated in {}", -n)
            }
        }
        _ => return None,
    };
    Some(format!("{score}/{depth}"))
}

impl Drop for UciPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // It would not quit: end this child (and only it).
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = &self.path;
    }
}

/// Check a side before any game: a build boots and takes its parameters, a UCI engine answers
/// its handshake. Returns the name a UCI engine gives itself.
pub fn check(side: &Side, clock_hz: u64) -> Result<Option<String>, MatchError> {
    match &side.spec {
        EngineSpec::Build { build, .. } => {
            FirmwarePlayer::new(*build, side.params.as_ref(), clock_hz)?;
            Ok(None)
        }
        EngineSpec::Uci {
            path,
            args,
            options,
        } => {
            let p = UciPlayer::spawn(path, args, options)?;
            Ok(Some(p.name.clone()))
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn info_lines() {
        assert_eq!(
            super::describe_info("info depth 12 seldepth 3 score cp -31 nodes 5 pv e2e4")
                .as_deref(),
            Some("-0.31/12")
        );
        assert_eq!(
            super::describe_info("info depth 3 score mate -2 pv e2e4").as_deref(),
            Some("mated in 2").map(|s| format!("{s}/3")).as_deref()
        );
        assert_eq!(super::describe_info("info string hello"), None);
    }
}
