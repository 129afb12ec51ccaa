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
//! - `go depth N` searches min(N, 8) plies; `go movetime`, `wtime/btime/winc/binc/movestogo`
//!   search to the Level and send "move now" when the budget runs out (emulated time with
//!   PeriodSpeed on, wall time otherwise); the full build under `wtime/btime` keeps its own
//!   time instead (`'T'`, `asm/time.asm`: target, deep think, a hard limit; the host only
//!   guards the hard limit). `go infinite` searches 8 plies and waits for `stop`.
//! - Pondering (option Ponder): `go ponder ...` searches the position after the expected
//!   reply without a limit; `ponderhit` turns that same search into the real one, with the
//!   time `go ponder` gave counted from the `ponderhit` (the work done carries over: nothing
//!   is searched again); `stop` ends it with a `bestmove`. One `bestmove` either way.
//! - Scores: `score cp` = (byte - 128) * 100 / 8 from the side to move's view, relative to the
//!   static evaluation of the root (the firmware's scale); the mate scores FFh and 01h become
//!   `score mate N` / `score mate -N` with N estimated from the depth that first saw the mate
//!   (see [`super::mate_in`]).
//! - Options: Level (1-6), Build (article, 1978), PeriodSpeed (run at ClockHz in real time;
//!   off: host speed), ClockHz.
//! - A malformed line is ignored, with an `info string` saying why.

use super::game::Game;
use super::pace::{Pace, Search, STOP_LATENCY_T};
use crate::firmware::{parse_fen, Build, SearchKind, SearchResult};
use crate::machine::PERIOD_HZ;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// The starting position of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Base {
    Start,
    Fen(String),
}

/// A parsed `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u8>,
    pub movetime: Option<u64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}

/// Parse the arguments of `go`; an error names the bad token.
pub fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut g = Go::default();
    let mut i = 0;
    fn num<T: std::str::FromStr>(args: &[&str], i: usize, what: &str) -> Result<T, String> {
        let v = args
            .get(i + 1)
            .ok_or_else(|| format!("go: '{what}' needs a number"))?;
        v.parse()
            .map_err(|_| format!("go: '{what} {v}': not a number"))
    }
    while i < args.len() {
        match args[i] {
            "depth" => g.depth = Some(num::<u32>(args, i, "depth")?.clamp(1, 255) as u8),
            "movetime" => g.movetime = Some(num(args, i, "movetime")?),
            "wtime" => g.wtime = Some(num(args, i, "wtime")?),
            "btime" => g.btime = Some(num(args, i, "btime")?),
            "winc" => g.winc = Some(num(args, i, "winc")?),
            "binc" => g.binc = Some(num(args, i, "binc")?),
            "movestogo" => g.movestogo = Some(num(args, i, "movestogo")?),
            "nodes" | "mate" => {
                let _: u64 = num(args, i, args[i])?;
            }
            "infinite" => {
                g.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                g.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                return Err(
                    "go: searchmoves is not supported (the firmware searches every move)".into(),
                )
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
        i += 2;
    }
    Ok(g)
}

/// What arrived while the firmware searched.
#[derive(Default)]
struct Heard {
    stop: bool,
    ponderhit: bool,
}

impl Go {
    /// The clock of `side` in milliseconds: (time left, increment), if `go` gave one.
    pub fn clock(&self, side: Color) -> Option<(u64, u64)> {
        let (t, inc) = match side {
            Color::White => (self.wtime?, self.winc.unwrap_or(0)),
            Color::Black => (self.btime?, self.binc.unwrap_or(0)),
        };
        Some((t.max(0) as u64, inc.max(0) as u64))
    }

    /// The time to think, from the clock of `side` (None: no limit).
    pub fn budget(&self, side: Color) -> Option<Duration> {
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(ms.saturating_sub(20).max(1)));
        }
        let (t, inc) = match side {
            Color::White => (self.wtime?, self.winc.unwrap_or(0)),
            Color::Black => (self.btime?, self.binc.unwrap_or(0)),
        };
        let t = t.max(0) as u64;
        let inc = inc.max(0) as u64;
        let togo = self.movestogo.unwrap_or(30).max(1) as u64;
        let ms = (t / togo + inc * 3 / 4)
            .min(t / 2)
            .saturating_sub(30)
            .max(5);
        Some(Duration::from_millis(ms))
    }
}

struct Uci<'a> {
    out: &'a mut dyn Write,
    lines: &'a Receiver<String>,
    game: Game,
    /// The position last set: its base and moves (to play only what is new next time).
    base: Base,
    moves: Vec<String>,
    level: u8,
    period: bool,
    clock_hz: u64,
    pending: VecDeque<String>,
    quit: bool,
    /// The full build's parameters: the command line's file and every `setoption P_...`.
    params: crate::firmware::params::ParamFile,
}

/// Run the protocol on `lines` until `quit` or the end of input.
pub fn run(lines: &Receiver<String>, out: &mut dyn Write) -> Result<(), String> {
    run_with(Game::new(Build::Article, super::DEFAULT_LEVEL)?, lines, out)
}

/// Run the protocol with a given game (its build and parameters from the command line).
pub fn run_with(game: Game, lines: &Receiver<String>, out: &mut dyn Write) -> Result<(), String> {
    let mut u = Uci {
        out,
        lines,
        params: game.params().cloned().unwrap_or_default(),
        game,
        base: Base::Start,
        moves: Vec::new(),
        level: super::DEFAULT_LEVEL,
        period: false,
        clock_hz: PERIOD_HZ,
        pending: VecDeque::new(),
        quit: false,
    };
    while !u.quit {
        let line = match u.pending.pop_front() {
            Some(l) => l,
            None => match u.lines.recv() {
                Ok(l) => l,
                Err(_) => break,
            },
        };
        u.line(&line).map_err(|e| e.to_string())?;
    }
    Ok(())
}

impl Uci<'_> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    fn info(&mut self, text: &str) -> std::io::Result<()> {
        self.send(&format!("info string {text}"))
    }

    fn pace(&self) -> Pace {
        Pace {
            clock_hz: self.clock_hz,
            realtime: self.period,
        }
    }

    fn line(&mut self, line: &str) -> std::io::Result<()> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return Ok(());
        };
        match cmd {
            "uci" => {
                self.send(&format!("id name z80chess {}", env!("CARGO_PKG_VERSION")))?;
                self.send("id author the z80chess developers (a Z80 firmware in the manner of Sargon, 1978)")?;
                self.send(&format!(
                    "option name Level type spin default {} min {} max {}",
                    super::DEFAULT_LEVEL,
                    super::LEVELS.start(),
                    super::LEVELS.end()
                ))?;
                self.send(&format!(
                    "option name Build type combo default {} var article var 1978 var full",
                    self.game.build()
                ))?;
                // The full build's parameters, as spins (the default block, so every block;
                // a file given with --params may set the e4 and d4 blocks apart).
                let current = if self.game.build() == Build::Full {
                    self.game.engine.params().ok()
                } else {
                    crate::firmware::Engine::new(Build::Full)
                        .ok()
                        .and_then(|mut e| e.params().ok())
                };
                for p in current.unwrap_or_default() {
                    self.send(&format!(
                        "option name {} type spin default {} min {} max {}",
                        p.def.name, p.values[0], p.def.min, p.def.max
                    ))?;
                }
                self.send("option name Ponder type check default false")?;
                self.send("option name PeriodSpeed type check default false")?;
                self.send(&format!(
                    "option name ClockHz type spin default {PERIOD_HZ} min 1000 max 1000000000"
                ))?;
                self.send("uciok")?;
            }
            "isready" => self.send("readyok")?,
            "debug" | "register" | "ponderhit" | "stop" => {}
            "quit" => self.quit = true,
            "ucinewgame" => {
                if let Err(e) = self.game.new_game() {
                    self.info(&format!("ucinewgame: {e}"))?;
                }
                self.base = Base::Start;
                self.moves.clear();
            }
            "setoption" => self.setoption(args)?,
            "position" => self.position(args)?,
            "go" => match parse_go(args) {
                Err(e) => self.info(&format!("{e}; line ignored"))?,
                Ok(g) => self.go(g)?,
            },
            other => self.info(&format!("unknown command '{other}'; line ignored"))?,
        }
        Ok(())
    }

    fn setoption(&mut self, args: &[&str]) -> std::io::Result<()> {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return self
                .info("setoption: expected 'setoption name <id> [value <x>]'; line ignored");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        let value = value.unwrap_or("");
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<u8>() {
                Ok(l) if super::LEVELS.contains(&l) => {
                    self.level = l;
                    self.game.level = l;
                }
                _ => self.info(&format!(
                    "setoption Level '{value}': expected 1 to 6; ignored"
                ))?,
            },
            "build" => {
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
                if let Err(e) = self.game.set_build(b) {
                    self.info(&format!("setoption Build: {e}"))?;
                } else if b == Build::Full {
                    if let Err(e) = self.game.set_params(Some(self.params.clone())) {
                        self.info(&format!("setoption Build: {e}"))?;
                    }
                }
            }
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
            _ => self.info(&format!("setoption: no option '{name}'; ignored"))?,
        }
        Ok(())
    }

    fn position(&mut self, args: &[&str]) -> std::io::Result<()> {
        let (base, rest) = match args.first() {
            Some(&"startpos") => (Base::Start, &args[1..]),
            Some(&"fen") => {
                let n = args[1..]
                    .iter()
                    .position(|t| *t == "moves")
                    .unwrap_or(args.len() - 1);
                (Base::Fen(args[1..1 + n].join(" ")), &args[1 + n..])
            }
            _ => {
                return self.info("position: expected 'startpos' or 'fen <FEN>'; line ignored");
            }
        };
        let moves: Vec<String> = match rest.split_first() {
            None => Vec::new(),
            Some((&"moves", ms)) => ms.iter().map(|s| s.to_string()).collect(),
            Some((t, _)) => {
                return self.info(&format!(
                    "position: unexpected '{t}' (expected 'moves'); line ignored"
                ))
            }
        };
        let start = match &base {
            Base::Start => Chess::default(),
            Base::Fen(f) => match parse_fen(f) {
                Ok(p) => p,
                Err(e) => return self.info(&format!("position: {e}; line ignored")),
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
                None => {
                    return self.info(&format!(
                        "position: move {} '{t}' is not legal there; line ignored",
                        i + 1
                    ))
                }
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
                return self.info(&format!("position: {e}"));
            }
            0
        };
        for m in &checked[from..] {
            if let Err(e) = self.game.play(*m, None, true) {
                self.base = Base::Start;
                self.moves.clear();
                let _ = self.game.new_game();
                return self.info(&format!("position: {e}; the engine is reset"));
            }
        }
        self.base = base;
        self.moves = moves;
        Ok(())
    }

    fn go(&mut self, go: Go) -> std::io::Result<()> {
        let pos = self.game.pos().clone();
        if pos.legal_moves().is_empty() {
            self.info(if pos.is_check() {
                "no legal move: checkmate"
            } else {
                "no legal move: stalemate"
            })?;
            return self.send("bestmove 0000");
        }
        let level = match go.depth {
            Some(d) => d.clamp(1, super::MAX_DEPTH),
            None if go.infinite || go.ponder => super::MAX_DEPTH,
            None => self.level,
        };
        let mut budget = if go.infinite || go.ponder {
            None
        } else {
            go.budget(pos.turn())
        };
        let mut wait_for_stop = go.infinite || go.ponder;
        let mut pondering = go.ponder;
        let pace = self.pace();
        budget = budget.map(|b| pace.stop_early(b));
        let started = Instant::now();
        // The full build under a clock keeps its own time ('T', asm/time.asm): the host only
        // stops it past the hard limit it answered.
        let own_clock = match go.clock(pos.turn()) {
            Some((ms, inc))
                if self.game.build() == Build::Full
                    && budget.is_some()
                    && go.movetime.is_none() =>
            {
                let t = |ms: u64| ms * self.clock_hz / 1000;
                match self
                    .game
                    .engine
                    .set_time(t(ms), go.movestogo.unwrap_or(0), t(inc))
                {
                    Ok(b) => {
                        budget = Some(pace.emulated(b.hard + STOP_LATENCY_T));
                        true
                    }
                    Err(e) => {
                        self.info(&format!("the firmware refused the clock: {e}"))?;
                        false
                    }
                }
            }
            _ => false,
        };
        let mut search = if own_clock {
            Search::timed(&mut self.game.engine, level)
        } else {
            Search::start(&mut self.game.engine, level)
        };
        let mut reported = 0;
        let mut heard = Heard::default();
        // Pondering: the budget counts from `ponderhit`.
        let mut since = Duration::ZERO;
        let elapsed = |s: &Search| {
            if pace.realtime {
                s.emulated(&pace)
            } else {
                started.elapsed()
            }
        };
        let result: SearchResult = loop {
            let done = match search.step(&mut self.game.engine, pace.slice()) {
                Ok(d) => d,
                Err(e) => {
                    self.info(&format!("the firmware failed: {e}"))?;
                    return self.send("bestmove 0000");
                }
            };
            while reported < search.depths.len() {
                let d = &search.depths[reported];
                let ms = elapsed(&search).as_millis();
                let score = uci_score(d.score, &search.depths[..=reported]);
                let line = format!(
                    "info depth {} score {score} nodes {} time {ms} pv {}",
                    d.depth,
                    search.nodes,
                    d.best.uci()
                );
                self.send(&line)?;
                reported += 1;
            }
            if let Some(r) = done {
                if !wait_for_stop || heard.stop || self.quit {
                    break r;
                }
                // Infinite or pondering: the answer waits for `stop` (or `ponderhit`).
                while !(heard.stop || heard.ponderhit || self.quit) {
                    match self.lines.recv() {
                        Ok(l) => self.during_search(&l, &mut heard)?,
                        Err(_) => self.quit = true,
                    }
                }
                break r;
            }
            if heard.ponderhit && pondering {
                // The opponent played the move pondered on: the search goes on, now with the
                // time `go ponder` gave, counted from here.
                pondering = false;
                wait_for_stop = go.infinite;
                budget = go.budget(pos.turn()).map(|b| pace.stop_early(b));
                since = elapsed(&search);
            }
            if let Some(b) = budget {
                if !search.stopping && elapsed(&search).saturating_sub(since) >= b {
                    search.stop(&mut self.game.engine);
                }
            }
            // Input between slices (waiting, at period speed, for wall time to catch up).
            let wait = search.ahead(&pace);
            let got = if wait > Duration::ZERO {
                match self.lines.recv_timeout(wait) {
                    Ok(l) => Some(l),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        std::thread::sleep(wait);
                        if !self.quit {
                            self.quit = true;
                        }
                        None
                    }
                }
            } else {
                match self.lines.try_recv() {
                    Ok(l) => Some(l),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => {
                        self.quit = true;
                        None
                    }
                }
            };
            if let Some(l) = got {
                self.during_search(&l, &mut heard)?;
            }
            if (heard.stop || self.quit) && !search.stopping {
                search.stop(&mut self.game.engine);
            }
        };
        self.report(&result, level, elapsed(&search))
    }

    /// A line that arrives while the firmware searches.
    fn during_search(&mut self, line: &str, heard: &mut Heard) -> std::io::Result<()> {
        match line.split_whitespace().next() {
            Some("isready") => self.send("readyok"),
            Some("stop") => {
                heard.stop = true;
                Ok(())
            }
            Some("quit") => {
                self.quit = true;
                Ok(())
            }
            Some("ponderhit") => {
                heard.ponderhit = true;
                Ok(())
            }
            None => Ok(()),
            Some(_) => {
                self.pending.push_back(line.to_string());
                Ok(())
            }
        }
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
        match r.kind {
            SearchKind::Book => self.info(&format!("book move; {} T-states", r.tstates))?,
            kind => {
                let depth = r.depths.last().map(|d| d.depth).unwrap_or(0);
                let score = uci_score(r.score, &r.depths);
                let nps = (r.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
                self.send(&format!(
                    "info depth {} score {score} nodes {} nps {nps} time {ms} pv {}",
                    depth.max(1),
                    r.nodes,
                    r.best.uci()
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

/// `cp N` or `mate N` for a firmware score.
pub fn uci_score(score: crate::firmware::Score, depths: &[crate::firmware::DepthReport]) -> String {
    match super::mate_in(score, depths) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", super::score_cp(score)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines() {
        assert_eq!(parse_go(&["depth", "3"]).unwrap().depth, Some(3));
        assert!(parse_go(&["depth", "x"])
            .unwrap_err()
            .contains("not a number"));
        assert!(parse_go(&["depth"]).unwrap_err().contains("needs a number"));
        assert!(parse_go(&["sideways"]).unwrap_err().contains("unknown"));
        let g = parse_go(&[
            "wtime", "60000", "btime", "1000", "winc", "0", "binc", "100",
        ])
        .unwrap();
        assert_eq!(g.budget(Color::White), Some(Duration::from_millis(1970)));
        assert_eq!(g.budget(Color::Black), Some(Duration::from_millis(78)));
        assert!(parse_go(&["infinite"]).unwrap().infinite);
        assert_eq!(
            parse_go(&["movetime", "500"]).unwrap().budget(Color::White),
            Some(Duration::from_millis(480))
        );
    }
}
