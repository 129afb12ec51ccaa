//! `z80chess xboard`: the Chess Engine Communication Protocol (CECP v2 essentials) for
//! XBoard/WinBoard and match runners.
//!
//! Supported: `xboard`, `protover 2` (features: ping, setboard, usermove, playother,
//! colors=0, sigint=0, sigterm=0, options Level/Build/PeriodSpeed/ClockHz), `new`, `force`,
//! `go`, `playother`, `usermove`, `setboard`, `undo`, `remove`, `sd`, `st`, `level`, `time`,
//! `otim`, `?` (move now), `ping`/`pong`, `post`/`nopost`, `result`, `option`, `analyze` /
//! `exit` / `.` (analysis: thinking output without moving, until `exit`), `quit`. The engine
//! claims the end of a game (mate, stalemate, threefold repetition, 50-move rule,
//! insufficient material) with a result line.
//!
//! Bad input: a line that is not UTF-8 or a command it does not know gets `Error (...): LINE`
//! and the session goes on; a bad `setboard` gets `tellusererror` and an `Error` line, and the
//! engine then has no position: `go` (or a move that would make it move) answers
//! `Error (no position: ...)` until `new` or a good `setboard`. The end of input during a
//! search ends it with its `move`, and the engine exits.
//!
//! Time: `st`, `level` and `time` go through the one time policy of [`crate::session::clock::plan`]:
//! at host speed (PeriodSpeed off) they are wall time, the depth limited by `sd` or the time.

use super::Wire;
use crate::firmware::{parse_fen, Build};
use crate::machine::PERIOD_HZ;
use crate::session::clock::{self, Pace, Rate, TimeControl};
use crate::session::game::{End, Game};
use crate::session::search::{DriveError, Driver, Heard, Listener, Outcome, Search};
use shakmaty::{Chess, Color, Position};
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

struct Xb<'a> {
    wire: Wire<'a>,
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
    /// Why the last `setboard` was refused: until `new` or a good one, the engine will not move.
    refused: Option<String>,
    /// `analyze` mode, and whether the position changed since its last analysis.
    analyze: bool,
    analysed: bool,
    /// The emulator's speed on this host (host-speed clocks are wall time).
    rate: Rate,
}

/// Run the protocol with a given game (its build and parameters from the command line).
pub fn run_with(game: Game, lines: &Receiver<String>, out: &mut dyn Write) -> Result<(), String> {
    let mut x = Xb {
        wire: Wire::new(out, lines),
        game,
        force: false,
        engine: Color::Black,
        level: crate::session::DEFAULT_LEVEL,
        max_depth: None,
        per_move: None,
        mps: 0,
        inc: Duration::ZERO,
        time_left: None,
        period: false,
        clock_hz: PERIOD_HZ,
        post: false,
        refused: None,
        analyze: false,
        analysed: false,
        rate: Rate::default(),
    };
    while !x.wire.quit {
        if x.analyze && !x.analysed && x.wire.pending.is_empty() && !x.wire.eof {
            x.analyse().map_err(|e| e.to_string())?;
            continue;
        }
        let Some(line) = x.wire.next_command() else {
            break;
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
            m.parse::<u64>()
                .ok()?
                .checked_mul(60)?
                .checked_add(sec.parse::<u64>().ok()?)?,
        )),
        None => Duration::try_from_secs_f64(s.parse::<f64>().ok()? * 60.0).ok(),
    }
}

/// A line of CECP, parsed (nothing checked against the position yet). [`parse`] never
/// panics: any line is a command or an [`XbError`].
#[derive(Clone, Debug, PartialEq)]
pub enum XbCommand {
    /// Blank, or a command with nothing to do (`xboard`, `accepted`, `otim`, ...).
    Nothing,
    Protover,
    Quit,
    New,
    Variant(String),
    /// `force`, `result ...`.
    Force,
    Go,
    PlayOther,
    Post(bool),
    Ping(String),
    Sd(u8),
    St(Duration),
    Level {
        mps: u32,
        base: Duration,
        inc: Duration,
    },
    Time(Duration),
    SetBoard(String),
    Undo,
    Remove,
    Option {
        name: String,
        value: String,
    },
    UserMove(String),
    /// `?`: move now (outside a search: nothing to do).
    MoveNow,
    Analyze,
    Exit,
    /// `.`: the analysis' status.
    Status,
}

/// A line the engine cannot take: answered `Error (KIND): LINE`, and the session goes on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XbError {
    #[error("not UTF-8")]
    NotUtf8,
    #[error("unknown command")]
    Unknown,
    #[error("bad depth")]
    Depth,
    #[error("bad time")]
    Time,
    #[error("bad level")]
    Level,
}

/// The one tokenizer, idle or searching: a line's command word and its argument, with
/// surrounding whitespace (a leading `\r` too) trimmed.
fn split(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    }
}

/// Text as an error line echoes it: control characters escaped (so a `\r` inside cannot
/// start a line of its own for a reader splitting on it), cut to `max` characters.
fn echo(text: &str, max: usize) -> String {
    let text = text.trim();
    let mut s: String = text
        .chars()
        .take(max)
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    if text.chars().nth(max).is_some() {
        s.push_str("...");
    }
    s
}

/// Parse one line of CECP into a command; never panics.
pub fn parse(line: &str) -> Result<XbCommand, XbError> {
    if super::not_utf8(line) {
        return Err(XbError::NotUtf8);
    }
    let (cmd, arg) = split(line);
    Ok(match cmd {
        "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
        | "name" | "rating" | "ics" | "otim" | "draw" | "white" | "black" | "hint" | "bk" => {
            XbCommand::Nothing
        }
        "protover" => XbCommand::Protover,
        "quit" => XbCommand::Quit,
        "new" => XbCommand::New,
        "variant" => XbCommand::Variant(arg.to_string()),
        "force" | "result" => XbCommand::Force,
        "go" => XbCommand::Go,
        "playother" => XbCommand::PlayOther,
        "post" => XbCommand::Post(true),
        "nopost" => XbCommand::Post(false),
        "ping" => XbCommand::Ping(arg.to_string()),
        "sd" => match arg.parse::<u8>() {
            Ok(d) if d >= 1 => XbCommand::Sd(d.min(crate::session::MAX_DEPTH)),
            _ => return Err(XbError::Depth),
        },
        "st" => match arg.parse::<f64>() {
            Ok(s) if s > 0.0 && s < 1e9 => XbCommand::St(Duration::from_secs_f64(s)),
            _ => return Err(XbError::Time),
        },
        "level" => {
            let f: Vec<&str> = arg.split_whitespace().collect();
            let inc = |t: &str| {
                let s = t.parse::<f64>().ok()?;
                (0.0..1e9).contains(&s).then(|| Duration::from_secs_f64(s))
            };
            let parsed = (f.len() == 3)
                .then(|| Some((f[0].parse::<u32>().ok()?, parse_minutes(f[1])?, inc(f[2])?)))
                .flatten();
            match parsed {
                Some((mps, base, inc)) => XbCommand::Level { mps, base, inc },
                None => return Err(XbError::Level),
            }
        }
        "time" => match arg.parse::<u64>() {
            Ok(cs) => XbCommand::Time(Duration::from_millis(cs.saturating_mul(10))),
            Err(_) => return Err(XbError::Time),
        },
        "setboard" => XbCommand::SetBoard(arg.to_string()),
        "undo" => XbCommand::Undo,
        "remove" => XbCommand::Remove,
        "option" => {
            let (name, value) = arg.split_once('=').unwrap_or((arg, ""));
            XbCommand::Option {
                name: name.trim().to_string(),
                value: value.trim().to_string(),
            }
        }
        "usermove" => XbCommand::UserMove(arg.to_string()),
        "?" => XbCommand::MoveNow,
        "analyze" => XbCommand::Analyze,
        "exit" => XbCommand::Exit,
        "." => XbCommand::Status,
        // A bare move (from a front-end that ignored usermove=1).
        other if arg.is_empty() && shakmaty::uci::UciMove::from_ascii(other.as_bytes()).is_ok() => {
            XbCommand::UserMove(other.to_string())
        }
        _ => return Err(XbError::Unknown),
    })
}

impl<'o> Xb<'o> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.wire.send(text)
    }

    fn error(&mut self, kind: &str, cmd: &str) -> std::io::Result<()> {
        self.send(&format!("Error ({}): {}", echo(kind, 200), echo(cmd, 80)))
    }

    fn line(&mut self, line: &str) -> std::io::Result<()> {
        let cmd = match parse(line) {
            Ok(c) => c,
            Err(e) => return self.error(&e.to_string(), line),
        };
        let line = line.trim();
        // In analyze mode a command that changes the position starts a new analysis.
        let changes = matches!(
            cmd,
            XbCommand::New
                | XbCommand::SetBoard(_)
                | XbCommand::Undo
                | XbCommand::Remove
                | XbCommand::UserMove(_)
                | XbCommand::Analyze
        );
        match cmd {
            XbCommand::Nothing | XbCommand::MoveNow | XbCommand::Status => {}
            XbCommand::Protover => self.features()?,
            XbCommand::Quit => self.wire.quit = true,
            XbCommand::New => {
                if let Err(e) = self.game.new_game() {
                    self.send(&format!("tellusererror {e}"))?;
                }
                self.force = false;
                self.engine = Color::Black;
                self.max_depth = None;
                self.time_left = None;
                self.refused = None;
            }
            XbCommand::Variant(v) => {
                if v != "normal" {
                    self.error("unsupported variant", line)?;
                }
            }
            XbCommand::Force => self.force = true,
            XbCommand::Go => {
                if self.analyze {
                    return self.error("in analyze mode (send exit first)", line);
                }
                self.force = false;
                self.engine = self.game.pos().turn();
                self.think()?;
            }
            XbCommand::PlayOther => {
                self.force = false;
                self.engine = !self.game.pos().turn();
            }
            XbCommand::Post(on) => self.post = on,
            XbCommand::Ping(arg) => self.send(&format!("pong {arg}"))?,
            XbCommand::Sd(d) => self.max_depth = Some(d),
            XbCommand::St(d) => self.per_move = Some(d),
            XbCommand::Level { mps, base, inc } => {
                self.mps = mps;
                self.inc = inc;
                self.per_move = None;
                self.time_left = Some(base);
            }
            XbCommand::Time(d) => self.time_left = Some(d),
            XbCommand::SetBoard(fen) => self.set_board(&fen, line)?,
            XbCommand::Undo => {
                if self.refused.is_some() || self.game.undo().is_err() {
                    self.error("no move to undo", line)?;
                }
            }
            XbCommand::Remove => {
                if self.refused.is_some() || self.game.plies.len() < 2 {
                    self.error("no move to undo", line)?;
                } else {
                    let _ = self.game.undo();
                    let _ = self.game.undo();
                }
            }
            XbCommand::Option { name, value } => self.option(&name, &value)?,
            XbCommand::UserMove(m) => self.usermove(&m)?,
            XbCommand::Analyze => {
                self.analyze = true;
                self.force = true;
            }
            XbCommand::Exit => self.analyze = false,
        }
        if changes {
            self.analysed = false;
        }
        Ok(())
    }

    /// `protover 2`: the features and options.
    fn features(&mut self) -> std::io::Result<()> {
        self.send("feature done=0")?;
        self.send(&format!(
            "feature myname=\"z80chess {}\" ping=1 setboard=1 usermove=1 playother=1 \
             san=0 colors=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             variants=\"normal\"",
            env!("CARGO_PKG_VERSION")
        ))?;
        self.send(&format!(
            "feature option=\"Level -spin {} {} {}\"",
            crate::session::DEFAULT_LEVEL,
            crate::session::LEVELS.start(),
            crate::session::LEVELS.end()
        ))?;
        let builds: Vec<String> = [Build::Article, Build::B1978, Build::Full]
            .iter()
            .map(|b| {
                let star = if *b == self.game.build() { "*" } else { "" };
                format!("{star}{b}")
            })
            .collect();
        self.send(&format!(
            "feature option=\"Build -combo {}\"",
            builds.join(" /// ")
        ))?;
        self.send("feature option=\"PeriodSpeed -check 0\"")?;
        self.send(&format!(
            "feature option=\"ClockHz -spin {PERIOD_HZ} 1000 1000000000\""
        ))?;
        self.send("feature done=1")?;
        Ok(())
    }

    /// `setboard FEN`: a refused position leaves no position until `new` or a good one.
    fn set_board(&mut self, fen: &str, line: &str) -> std::io::Result<()> {
        let set = parse_fen(fen)
            .map_err(|e| format!("bad FEN: {e}"))
            .and_then(|pos| self.game.set_start(pos).map_err(|e| e.to_string()));
        match set {
            Ok(()) => self.refused = None,
            Err(e) => {
                self.send(&format!("tellusererror Illegal position: {e}"))?;
                self.error(
                    &format!("{e}; no position until new or a good setboard"),
                    line,
                )?;
                self.refused = Some(e);
            }
        }
        Ok(())
    }

    fn option(&mut self, name: &str, value: &str) -> std::io::Result<()> {
        let arg = &format!("{name}={value}");
        match name {
            "Level" => match value.parse::<u8>() {
                Ok(l) if crate::session::LEVELS.contains(&l) => {
                    self.level = l;
                    self.game.level = l;
                }
                _ => self.error("bad Level", arg)?,
            },
            "Build" => {
                let b = match value {
                    "article" => Build::Article,
                    "1978" => Build::B1978,
                    "full" => Build::Full,
                    _ => return self.error("bad Build (article, 1978 or full)", arg),
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
        if let Some(why) = self.refused.clone() {
            return self.send(&format!("Illegal move (no position: {why}): {text}"));
        }
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
        if !self.force && !self.analyze && self.game.pos().turn() == self.engine {
            self.think()?;
        }
        Ok(())
    }

    /// What the GUI said about time for this move.
    fn time_control(&self) -> TimeControl {
        if let Some(st) = self.per_move {
            return TimeControl::MoveTime(st);
        }
        let Some(left) = self.time_left else {
            return TimeControl::Unlimited;
        };
        let played = self.game.pos().fullmoves().get().saturating_sub(1);
        TimeControl::Clock {
            left,
            inc: self.inc,
            moves_to_go: if self.mps > 0 {
                (self.mps - played % self.mps).max(1)
            } else {
                0
            },
        }
    }

    fn pace(&self) -> Pace {
        Pace {
            clock_hz: self.clock_hz,
            realtime: self.period,
        }
    }

    /// The listener of a search (`analysing`: every depth is printed, and any line but `.`
    /// ends it), and the engine it listens for.
    fn ears(&mut self, analysing: bool) -> (Ears<'_, 'o>, &mut crate::firmware::Engine) {
        let ears = Ears {
            wire: &mut self.wire,
            post: &mut self.post,
            pos: self.game.pos().clone(),
            analysing,
            started: Instant::now(),
            abandoned: false,
        };
        (ears, &mut self.game.engine)
    }

    /// Analyze mode: search the position to the deepest depth, printing every depth, until a
    /// line arrives (`.` is answered here; anything else ends the analysis and runs next).
    fn analyse(&mut self) -> std::io::Result<()> {
        self.analysed = true;
        if self.refused.is_some() || self.game.pos().legal_moves().is_empty() {
            return Ok(());
        }
        let pace = Pace {
            realtime: false,
            ..self.pace()
        };
        let (mut ears, engine) = self.ears(true);
        let mut driver = Driver::depth(engine, crate::session::MAX_DEPTH, pace);
        driver.hold = true;
        match driver.run(engine, &mut ears) {
            Ok(_) => Ok(()),
            Err(DriveError::Io(e)) => Err(e),
            Err(e) => self.send(&format!("tellusererror {e}")),
        }
    }

    fn think(&mut self) -> std::io::Result<()> {
        if let Some(why) = self.refused.clone() {
            self.force = true;
            return self.error(&format!("no position: {why}"), "go");
        }
        if let Some(end) = self.game.end() {
            self.force = true;
            return self.send(&result_line(end));
        }
        let pace = self.pace();
        let full = self.game.build() == Build::Full;
        let rate = self.rate.for_pace(&pace, self.game.build());
        let tc = self.time_control();
        let plan = clock::plan(
            tc,
            self.max_depth,
            self.level,
            Duration::ZERO,
            &pace,
            full,
            rate,
        );
        if self.post && tc != TimeControl::Unlimited {
            self.send(&format!("# time: {}", plan.note))?;
        }
        let (driver, refused) = Driver::planned(&mut self.game.engine, &plan, pace, rate);
        if let (Some(e), true) = (refused, self.post) {
            self.send(&format!(
                "# the firmware refused the clock ({e}): the host keeps it"
            ))?;
        }
        let (mut ears, engine) = self.ears(false);
        let (result, wall) = match driver.run(engine, &mut ears) {
            Ok(Outcome::Move { result, wall, .. }) => (result, wall),
            // `quit` ends the session with no move (the end of input still gets one), and a
            // command that changes the game abandons the search: it runs afterwards.
            Ok(Outcome::Abandoned) => return Ok(()),
            Err(DriveError::Io(e)) => return Err(e),
            Err(e) => {
                self.force = true;
                return self.send(&format!("tellusererror {e}"));
            }
        };
        if !pace.realtime {
            self.rate.observe(result.tstates, wall);
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
                    self.time_left = Some(t.saturating_sub(wall).saturating_add(self.inc));
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

/// The xboard front end's side of a search: thinking output for the driver's reports, and
/// the GUI's lines between slices.
struct Ears<'a, 'w> {
    wire: &'a mut Wire<'w>,
    post: &'a mut bool,
    pos: Chess,
    /// Analyze mode: every depth printed; `.` answered; any other line ends the analysis.
    analysing: bool,
    started: Instant,
    abandoned: bool,
}

impl Ears<'_, '_> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.wire.send(text)
    }

    /// A line that arrives while the engine thinks (not analysing).
    fn heard_thinking(&mut self, l: String) -> std::io::Result<Heard> {
        let (word, arg) = split(&l);
        Ok(match word {
            "?" => Heard::MoveNow,
            "ping" => {
                self.send(&format!("pong {arg}"))?;
                Heard::Nothing
            }
            "post" | "nopost" => {
                *self.post = word == "post";
                Heard::Nothing
            }
            "quit" => {
                self.wire.quit = true;
                Heard::Abandon
            }
            _ if super::not_utf8(&l) => {
                self.wire.pending.push_back(l);
                Heard::Nothing
            }
            "" | "time" | "otim" | "hard" | "easy" | "draw" | "computer" | "name" | "rating"
            | "." => {
                self.wire.pending.push_back(l);
                Heard::Nothing
            }
            _ => {
                // Anything else (force, new, result, setboard, undo, ...) abandons the
                // search; the command runs afterwards.
                self.wire.pending.push_back(l);
                Heard::Abandon
            }
        })
    }

    /// A line that arrives while analysing: `.` is answered, anything else ends it.
    fn heard_analysing(&mut self, search: &Search, l: String) -> std::io::Result<Heard> {
        if l.trim() == "." {
            let best = search
                .depths
                .last()
                .map(|d| d.best.uci())
                .unwrap_or_default();
            let cs = self.started.elapsed().as_millis() / 10;
            let depth = search.depths.last().map(|d| d.depth).unwrap_or(0);
            let total = self.pos.legal_moves().len();
            self.send(&format!(
                "stat01: {cs} {} {depth} 0 {total} {best}",
                search.nodes
            ))?;
            return Ok(Heard::Nothing);
        }
        self.wire.pending.push_back(l);
        Ok(Heard::Abandon)
    }
}

impl Listener for Ears<'_, '_> {
    /// A thinking-output line (`post`, analysis): depth, score, centiseconds, nodes, line.
    fn depth(
        &mut self,
        engine: &crate::firmware::Engine,
        search: &Search,
        i: usize,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        if !(*self.post || self.analysing) {
            return Ok(());
        }
        let d = &search.depths[i];
        // The position's value for the side to move: the score plus the root's value.
        let root = crate::session::root_value(engine, self.pos.turn().is_white());
        let score = match crate::session::mate_in(d.score, &search.depths[..=i]) {
            Some(n) if n > 0 => 100_000 + n,
            Some(n) => -100_000 + n,
            None => crate::session::absolute_cp(d.score, root.unwrap_or_default()),
        };
        let cs = elapsed.as_millis() / 10;
        let line = format!(
            "{} {score} {cs} {} {}",
            d.depth,
            search.nodes,
            crate::session::pv_text(&self.pos, &d.pv)
        );
        self.send(&line)
    }

    fn listen(&mut self, search: &Search, wait: Option<Duration>) -> std::io::Result<Heard> {
        if self.abandoned || self.wire.quit {
            return Ok(Heard::Abandon);
        }
        if self.wire.eof {
            return Ok(if self.analysing {
                Heard::Abandon
            } else {
                Heard::MoveNow
            });
        }
        let l = match super::next_line(self.wire.lines, wait) {
            super::Input::Line(l) => l,
            super::Input::Quiet => return Ok(Heard::Nothing),
            super::Input::Ended => {
                // The end of input: the lines already read still run; a search still answers.
                self.wire.eof = true;
                return self.listen(search, Some(Duration::ZERO));
            }
        };
        let heard = if self.analysing {
            self.heard_analysing(search, l)?
        } else {
            self.heard_thinking(l)?
        };
        self.abandoned = heard == Heard::Abandon;
        Ok(heard)
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
