//! `z80chess xboard`: the Chess Engine Communication Protocol (CECP v2 essentials) for
//! XBoard/WinBoard and match runners.
//!
//! Supported: `xboard`, `protover 2` (features: ping, setboard, usermove, playother,
//! colors=0, sigint=0, sigterm=0, options Level/Build/PeriodSpeed/ClockHz), `new`, `force`,
//! `go`, `playother`, `usermove`, `setboard`, `undo`, `remove`, `sd`, `st`, `level`, `time`,
//! `otim`, `?` (move now), `ping`/`pong`, `post`/`nopost`, `result`, `option`, `quit`. The engine
//! claims the end of a game (mate, stalemate, threefold repetition, 50-move rule,
//! insufficient material) with a result line.

use super::game::{End, Game};
use super::pace::{Pace, Search};
use crate::firmware::{parse_fen, Build, SearchResult};
use crate::machine::PERIOD_HZ;
use shakmaty::{Color, Position};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

struct Xb<'a> {
    out: &'a mut dyn Write,
    lines: &'a Receiver<String>,
    game: Game,
    force: bool,
    engine: Color,
    level: u8,
    max_depth: Option<u8>,
    /// `st`: seconds per move.
    per_move: Option<Duration>,
    /// `level MPS BASE INC`: moves per session (0: all), increment.
    mps: u32,
    inc: Duration,
    /// `time`: the engine's clock.
    time_left: Option<Duration>,
    period: bool,
    clock_hz: u64,
    post: bool,
    pending: VecDeque<String>,
    quit: bool,
}

/// Run the protocol on `lines` until `quit` or the end of input.
pub fn run(lines: &Receiver<String>, out: &mut dyn Write) -> Result<(), String> {
    run_with(Game::new(Build::Article, super::DEFAULT_LEVEL)?, lines, out)
}

/// Run the protocol with a given game (its build and parameters from the command line).
pub fn run_with(game: Game, lines: &Receiver<String>, out: &mut dyn Write) -> Result<(), String> {
    let mut x = Xb {
        out,
        lines,
        game,
        force: false,
        engine: Color::Black,
        level: super::DEFAULT_LEVEL,
        max_depth: None,
        per_move: None,
        mps: 0,
        inc: Duration::ZERO,
        time_left: None,
        period: false,
        clock_hz: PERIOD_HZ,
        post: false,
        pending: VecDeque::new(),
        quit: false,
    };
    while !x.quit {
        let line = match x.pending.pop_front() {
            Some(l) => l,
            None => match x.lines.recv() {
                Ok(l) => l,
                Err(_) => break,
            },
        };
        x.line(&line).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The CECP result line of an ended game.
pub fn result_line(end: End) -> String {
    let why = match end {
        End::Checkmate {
            winner: Color::White,
        } => "White mates",
        End::Checkmate {
            winner: Color::Black,
        } => "Black mates",
        End::Resigned {
            winner: Color::White,
        } => "Black resigns",
        End::Resigned {
            winner: Color::Black,
        } => "White resigns",
        End::Stalemate => "Stalemate",
        End::InsufficientMaterial => "Insufficient material",
        End::Threefold => "Draw by repetition",
        End::FiftyMoves => "Draw by fifty move rule",
    };
    format!("{} {{{why}}}", end.result())
}

/// A CECP time ("5", "0:30", "2:30") in a Duration.
fn parse_minutes(s: &str) -> Option<Duration> {
    match s.split_once(':') {
        Some((m, sec)) => Some(Duration::from_secs(
            m.parse::<u64>().ok()? * 60 + sec.parse::<u64>().ok()?,
        )),
        None => Some(Duration::from_secs_f64(s.parse::<f64>().ok()? * 60.0)),
    }
}

impl Xb<'_> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    fn error(&mut self, kind: &str, cmd: &str) -> std::io::Result<()> {
        self.send(&format!("Error ({kind}): {cmd}"))
    }

    fn line(&mut self, line: &str) -> std::io::Result<()> {
        let line = line.trim();
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "otim" | "draw" | "white" | "black" | "?" => {}
            "protover" => {
                self.send("feature done=0")?;
                self.send(&format!(
                    "feature myname=\"z80chess {}\" ping=1 setboard=1 usermove=1 playother=1 \
                     san=0 colors=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 \
                     variants=\"normal\"",
                    env!("CARGO_PKG_VERSION")
                ))?;
                self.send(&format!(
                    "feature option=\"Level -spin {} {} {}\"",
                    super::DEFAULT_LEVEL,
                    super::LEVELS.start(),
                    super::LEVELS.end()
                ))?;
                self.send("feature option=\"Build -combo *article /// 1978\"")?;
                self.send("feature option=\"PeriodSpeed -check 0\"")?;
                self.send(&format!(
                    "feature option=\"ClockHz -spin {PERIOD_HZ} 1000 1000000000\""
                ))?;
                self.send("feature done=1")?;
            }
            "quit" => self.quit = true,
            "new" => {
                if let Err(e) = self.game.new_game() {
                    self.send(&format!("tellusererror {e}"))?;
                }
                self.force = false;
                self.engine = Color::Black;
                self.max_depth = None;
                self.time_left = None;
            }
            "variant" => {
                if arg != "normal" {
                    self.error("unsupported variant", line)?;
                }
            }
            "force" | "result" => self.force = true,
            "go" => {
                self.force = false;
                self.engine = self.game.pos().turn();
                self.think()?;
            }
            "playother" => {
                self.force = false;
                self.engine = !self.game.pos().turn();
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "ping" => self.send(&format!("pong {arg}"))?,
            "sd" => match arg.parse::<u8>() {
                Ok(d) if d >= 1 => self.max_depth = Some(d.min(super::MAX_DEPTH)),
                _ => self.error("bad depth", line)?,
            },
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 => {
                    self.per_move = Some(Duration::from_secs_f64(s));
                }
                _ => self.error("bad time", line)?,
            },
            "level" => {
                let f: Vec<&str> = arg.split_whitespace().collect();
                let parsed = (f.len() == 3)
                    .then(|| {
                        Some((
                            f[0].parse::<u32>().ok()?,
                            parse_minutes(f[1])?,
                            Duration::from_secs_f64(f[2].parse::<f64>().ok()?),
                        ))
                    })
                    .flatten();
                match parsed {
                    Some((mps, base, inc)) => {
                        self.mps = mps;
                        self.inc = inc;
                        self.per_move = None;
                        self.time_left = Some(base);
                    }
                    None => self.error("bad level", line)?,
                }
            }
            "time" => match arg.parse::<u64>() {
                Ok(cs) => self.time_left = Some(Duration::from_millis(cs * 10)),
                Err(_) => self.error("bad time", line)?,
            },
            "setboard" => match parse_fen(arg) {
                Ok(pos) => {
                    if let Err(e) = self.game.set_start(pos) {
                        self.send(&format!("tellusererror Illegal position: {e}"))?;
                    }
                }
                Err(e) => {
                    self.send("tellusererror Illegal position")?;
                    self.error(&format!("bad FEN: {e}"), line)?;
                }
            },
            "undo" => {
                if self.game.undo().is_err() {
                    self.error("no move to undo", line)?;
                }
            }
            "remove" => {
                if self.game.plies.len() < 2 {
                    self.error("no move to undo", line)?;
                } else {
                    let _ = self.game.undo();
                    let _ = self.game.undo();
                }
            }
            "option" => self.option(arg)?,
            "usermove" => self.usermove(arg)?,
            other => {
                // A bare move (from a front-end that ignored usermove=1).
                if shakmaty::uci::UciMove::from_ascii(other.as_bytes()).is_ok() && arg.is_empty() {
                    self.usermove(other)?;
                } else {
                    self.error("unknown command", line)?;
                }
            }
        }
        Ok(())
    }

    fn option(&mut self, arg: &str) -> std::io::Result<()> {
        let (name, value) = arg.split_once('=').unwrap_or((arg, ""));
        match name.trim() {
            "Level" => match value.parse::<u8>() {
                Ok(l) if super::LEVELS.contains(&l) => {
                    self.level = l;
                    self.game.level = l;
                }
                _ => self.error("bad Level", arg)?,
            },
            "Build" => {
                let b = match value {
                    "article" => Build::Article,
                    "1978" => Build::B1978,
                    _ => return self.error("bad Build", arg),
                };
                if let Err(e) = self.game.set_build(b) {
                    self.send(&format!("tellusererror {e}"))?;
                }
            }
            "PeriodSpeed" => self.period = value == "1" || value == "true",
            "ClockHz" => match value.parse::<u64>() {
                Ok(hz) if (1000..=1_000_000_000).contains(&hz) => self.clock_hz = hz,
                _ => self.error("bad ClockHz", arg)?,
            },
            _ => self.error("unknown option", arg)?,
        }
        Ok(())
    }

    fn usermove(&mut self, text: &str) -> std::io::Result<()> {
        let m = text
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|u| u.to_move(self.game.pos()).ok())
            .or_else(|| self.game.parse_move(text).ok());
        let Some(m) = m else {
            return self.send(&format!("Illegal move: {text}"));
        };
        if self.game.end().is_some() {
            return self.send(&format!("Illegal move (the game is over): {text}"));
        }
        if let Err(e) = self.game.play(m, None, true) {
            return self.send(&format!("Illegal move ({e}): {text}"));
        }
        if let Some(end) = self.game.end() {
            self.force = true;
            return self.send(&result_line(end));
        }
        if !self.force && self.game.pos().turn() == self.engine {
            self.think()?;
        }
        Ok(())
    }

    fn budget(&self) -> Option<Duration> {
        if let Some(st) = self.per_move {
            return Some(st.saturating_sub(Duration::from_millis(20)));
        }
        let left = self.time_left?;
        let played = self.game.pos().fullmoves().get().saturating_sub(1);
        let togo = if self.mps > 0 {
            (self.mps - played % self.mps).max(1)
        } else {
            30
        };
        let b = (left / togo + self.inc * 3 / 4).min(left / 2);
        Some(
            b.saturating_sub(Duration::from_millis(30))
                .max(Duration::from_millis(5)),
        )
    }

    fn think(&mut self) -> std::io::Result<()> {
        if let Some(end) = self.game.end() {
            self.force = true;
            return self.send(&result_line(end));
        }
        let level = self
            .max_depth
            .unwrap_or(self.level)
            .clamp(1, super::MAX_DEPTH);
        let pace = Pace {
            clock_hz: self.clock_hz,
            realtime: self.period,
        };
        let budget = self.budget().map(|b| pace.stop_early(b));
        let started = Instant::now();
        let mut search = Search::start(&mut self.game.engine, level);
        let mut reported = 0;
        let mut abandon = false;
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
                    self.force = true;
                    return self.send(&format!("tellusererror the firmware failed: {e}"));
                }
            };
            while reported < search.depths.len() {
                let d = &search.depths[reported];
                if self.post {
                    let cs = elapsed(&search).as_millis() / 10;
                    let score = match super::mate_in(d.score, &search.depths[..=reported]) {
                        Some(n) if n > 0 => 100_000 + n,
                        Some(n) => -100_000 + n,
                        None => super::score_cp(d.score),
                    };
                    let line =
                        format!("{} {score} {cs} {} {}", d.depth, search.nodes, d.best.uci());
                    self.send(&line)?;
                }
                reported += 1;
            }
            if let Some(r) = done {
                break r;
            }
            if let Some(b) = budget {
                if !search.stopping && elapsed(&search) >= b {
                    search.stop(&mut self.game.engine);
                }
            }
            let wait = search.ahead(&pace);
            let got = if wait > Duration::ZERO {
                match self.lines.recv_timeout(wait) {
                    Ok(l) => Some(l),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        self.quit = true;
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
                let word = l.split_whitespace().next().unwrap_or("");
                match word {
                    "?" => {}
                    "ping" => {
                        let arg = l.trim_start_matches("ping").trim().to_string();
                        self.send(&format!("pong {arg}"))?;
                        continue;
                    }
                    "post" => {
                        self.post = true;
                        continue;
                    }
                    "nopost" => {
                        self.post = false;
                        continue;
                    }
                    "quit" => self.quit = true,
                    "" | "time" | "otim" | "hard" | "easy" | "draw" | "computer" | "name"
                    | "rating" => {
                        self.pending.push_back(l);
                        continue;
                    }
                    _ => {
                        // Anything else (force, new, result, setboard, undo, ...) abandons
                        // the search; the command runs afterwards.
                        abandon = true;
                        self.pending.push_back(l);
                    }
                }
                if !search.stopping {
                    search.stop(&mut self.game.engine);
                }
            }
            if self.quit && !search.stopping {
                search.stop(&mut self.game.engine);
            }
        };
        if abandon || self.quit {
            return Ok(());
        }
        match self.game.play_result(&result) {
            Err(e) => {
                self.force = true;
                self.send(&format!("tellusererror {e}"))
            }
            Ok(m) => {
                let uci = crate::firmware::FwMove::from_move(&m).uci();
                self.send(&format!("move {uci}"))?;
                if let Some(t) = self.time_left {
                    self.time_left = Some(t.saturating_sub(started.elapsed()) + self.inc);
                }
                if let Some(end) = self.game.end() {
                    self.force = true;
                    self.send(&result_line(end))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(parse_minutes("5"), Some(Duration::from_secs(300)));
        assert_eq!(parse_minutes("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(
            result_line(End::Checkmate {
                winner: Color::White
            }),
            "1-0 {White mates}"
        );
    }
}
