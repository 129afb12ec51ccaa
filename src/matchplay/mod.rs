#![doc = include_str!("README.md")]

pub mod elo;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod spec;
pub mod swing;

use crate::firmware::params::ParamFile;
use game::{Record, Side};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use spec::{EngineSpec, TimeControl};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use thiserror::Error;

/// What can be wrong with a match.
#[derive(Debug, Error)]
pub enum MatchError {
    #[error("bad engine '{spec}': {reason}")]
    BadEngine { spec: String, reason: String },
    #[error("bad time control '{text}': {reason}")]
    BadTimeControl { text: String, reason: String },
    #[error("--games {0}: play at least one game")]
    NoGames(u32),
    #[error("--clock-hz 0: the clock must run at 1 Hz or more")]
    BadClock,
    #[error("openings file {}{}: {reason}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    OpeningsFile {
        path: PathBuf,
        line: Option<usize>,
        reason: String,
    },
    #[error("UCI engine '{}' not found (give its path; Debian: apt-get install stockfish, then uci:/usr/games/stockfish)", path.display())]
    UciMissing { path: PathBuf },
    #[error("UCI engine '{}': {reason}", path.display())]
    Uci { path: PathBuf, reason: String },
    #[error("parameter file {}: {reason}", path.display())]
    Params { path: PathBuf, reason: String },
    #[error("--ponder {which}: {reason}")]
    BadPonder { which: String, reason: String },
    #[error("--engine-timeout {0}: give seconds, more than 0 (e.g. 60 or 2.5)")]
    BadEngineTimeout(String),
    #[error("the firmware: {0}")]
    Engine(String),
    #[error(
        "{source}{}",
        if matches!(source, crate::outfile::OutFileError::Exists { .. }) {
            " (match never overwrites a file: give a new name, or move the old one away)"
        } else {
            ""
        }
    )]
    Pgn {
        #[source]
        source: crate::outfile::OutFileError,
    },
}

/// `z80chess match`.
#[derive(Clone, Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("control")
        .required(true)
        .args(["level", "movetime_emulated", "tc_emulated"])
))]
pub struct MatchArgs {
    /// The first engine: a build (article, 1978, full), full:PARAMSFILE, or
    /// uci:PATH[ ARGS][,Name=value...]
    // --help text, which shows the brackets as written: not a doc link.
    #[allow(rustdoc::broken_intra_doc_links)]
    pub a: String,
    /// The second engine, the same way.
    pub b: String,
    /// Games to play (each opening twice, colours swapped).
    #[arg(long)]
    pub games: u32,
    /// A fixed-depth search of L plies (1-8).
    #[arg(long)]
    pub level: Option<u8>,
    /// S seconds of emulated time per move (S x clock-hz T-states), then "move now". A UCI
    /// engine gets S seconds of wall time.
    #[arg(long, value_name = "S")]
    pub movetime_emulated: Option<String>,
    /// MOVES moves in SECONDS of emulated time, repeating. Until the firmware keeps its own
    /// time, the host gives each move the time left divided by the moves to the control plus
    /// one, less the firmware's stop latency.
    #[arg(long, value_name = "MOVES/SECONDS")]
    pub tc_emulated: Option<String>,
    /// Games played at once (default: the machine's cores). The games do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Start positions from an EPD or PGN file instead of the built-in openings.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// The emulated clock in Hz (default 2,000,000).
    #[arg(long, value_name = "HZ")]
    pub clock_hz: Option<u64>,
    /// Let engine A, B or both think on the opponent's time (full build only). The pondering
    /// side searches the reply it expects for as long as the opponent's clock runs; when the
    /// opponent plays it, that search goes on as the real one and only the time after the
    /// move is charged (under --tc-emulated the firmware's own time counts from the ponder's
    /// start, so a prediction saves clock time). Deterministic, as without it.
    #[arg(long, value_enum, value_name = "WHO")]
    pub ponder: Option<PonderWho>,
    /// How long an external UCI engine may stay silent before it loses the game (the game is
    /// tagged abandoned, the report names it, the match goes on): under --level the whole
    /// wait for its move, under a time control the time past its move's time. Default 60.
    #[arg(long, value_name = "SECONDS")]
    pub engine_timeout: Option<String>,
}

/// Who ponders in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PonderWho {
    #[value(name = "A", alias = "a")]
    A,
    #[value(name = "B", alias = "b")]
    B,
    Both,
}

impl PonderWho {
    /// Whether side `i` (0 = A) ponders.
    pub fn includes(self, i: usize) -> bool {
        matches!(
            (self, i),
            (PonderWho::Both, _) | (PonderWho::A, 0) | (PonderWho::B, 1)
        )
    }
}

/// A match, checked and ready to play.
pub struct Match {
    pub sides: [Side; 2],
    pub tc: TimeControl,
    pub clock_hz: u64,
    pub games: usize,
    pub openings: Vec<openings::Opening>,
}

impl Match {
    /// Check the command line: specs, time control, openings, engines that start.
    pub fn from_args(a: &MatchArgs) -> Result<Match, MatchError> {
        let engine_timeout = match &a.engine_timeout {
            None => player::DEFAULT_ENGINE_TIMEOUT,
            Some(t) => t
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e9)
                .map(std::time::Duration::from_secs_f64)
                .ok_or_else(|| MatchError::BadEngineTimeout(t.clone()))?,
        };
        let side = |text: &str| -> Result<Side, MatchError> {
            let spec = EngineSpec::parse(text)?;
            let params = match &spec {
                EngineSpec::Build {
                    params: Some(path), ..
                } => Some(ParamFile::load(path).map_err(|e| MatchError::Params {
                    path: path.clone(),
                    reason: e.to_string(),
                })?),
                _ => None,
            };
            Ok(Side {
                spec,
                params,
                name: text.trim().to_string(),
                ponder: false,
                engine_timeout,
            })
        };
        let mut sides = [side(&a.a)?, side(&a.b)?];
        if let Some(who) = a.ponder {
            for (i, s) in sides.iter_mut().enumerate() {
                if !who.includes(i) {
                    continue;
                }
                if !matches!(
                    s.spec,
                    EngineSpec::Build {
                        build: crate::firmware::Build::Full,
                        ..
                    }
                ) {
                    return Err(MatchError::BadPonder {
                        which: format!("{who:?}").to_lowercase(),
                        reason: format!(
                            "{} '{}' cannot ponder: only the full build thinks on the \
                             opponent's time",
                            if i == 0 { "engine A" } else { "engine B" },
                            s.name
                        ),
                    });
                }
                s.ponder = true;
            }
        }
        let tc = match (&a.level, &a.movetime_emulated, &a.tc_emulated) {
            (Some(l), None, None) => TimeControl::level(*l)?,
            (None, Some(s), None) => TimeControl::parse_movetime(s)?,
            (None, None, Some(t)) => TimeControl::parse_tournament(t)?,
            _ => {
                return Err(MatchError::BadTimeControl {
                    text: String::new(),
                    reason: "give exactly one of --level, --movetime-emulated, --tc-emulated"
                        .into(),
                })
            }
        };
        if a.games == 0 {
            return Err(MatchError::NoGames(a.games));
        }
        let clock_hz = a.clock_hz.unwrap_or(crate::machine::PERIOD_HZ);
        if clock_hz == 0 {
            return Err(MatchError::BadClock);
        }
        let openings = match &a.openings {
            Some(p) => openings::load(p)?,
            None => openings::builtin(),
        };
        for s in &sides {
            player::check(s, clock_hz)?;
        }
        Ok(Match {
            sides,
            tc,
            clock_hz,
            games: a.games as usize,
            openings,
        })
    }

    /// Game `g` (0-based): opening g/2 (cycling), A as White when g is even.
    pub fn schedule(&self, g: usize) -> (usize, usize) {
        ((g / 2) % self.openings.len(), g % 2)
    }

    pub fn play_game(&self, g: usize) -> Record {
        let (o, white) = self.schedule(g);
        game::play(
            g + 1,
            &self.openings[o],
            &self.sides,
            white,
            self.tc,
            self.clock_hz,
        )
    }

    /// Play every game on `jobs` threads; `each` sees them in game order as soon as each and
    /// all before it are done.
    /// `each` returning `false` stops the match: no further game starts, and the records
    /// returned are those passed to `each` so far.
    pub fn run(&self, jobs: usize, mut each: impl FnMut(&Record) -> bool) -> Vec<Record> {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<(usize, Record)>();
        let mut done: Vec<Option<Record>> = vec![None; self.games];
        let mut shown = 0;
        std::thread::scope(|s| {
            for _ in 0..jobs.clamp(1, self.games.max(1)) {
                let tx = tx.clone();
                let next = &next;
                s.spawn(move || loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= self.games {
                        break;
                    }
                    if tx.send((g, self.play_game(g))).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            'games: for (g, r) in rx {
                done[g] = Some(r);
                while let Some(Some(r)) = done.get(shown) {
                    shown += 1;
                    if !each(r) {
                        // no new game starts; a game being played ends at its send
                        next.store(self.games, Ordering::Relaxed);
                        break 'games;
                    }
                }
            }
        });
        done.into_iter().take(shown).flatten().collect()
    }
}

/// The tally from A's view.
pub fn tally<'a>(records: impl IntoIterator<Item = &'a Record>) -> elo::Tally {
    let mut t = elo::Tally::default();
    for r in records {
        let s = r.score_a();
        if s == 1.0 {
            t.wins += 1
        } else if s == 0.0 {
            t.losses += 1
        } else {
            t.draws += 1
        }
    }
    t
}

/// Side `i`'s pondering over the match: "full:x ponders: 812 of 1,630 replies predicted
/// (49.8%), 2,345.6 s of the opponent's time kept".
pub fn ponder_line(name: &str, records: &[Record], i: usize, clock_hz: u64) -> String {
    let mut t = player::PonderStats::default();
    for s in records.iter().filter_map(|r| r.ponder[i]) {
        t.tries += s.tries;
        t.hits += s.hits;
        t.saved += s.saved;
    }
    let pct = if t.tries == 0 {
        0.0
    } else {
        100.0 * t.hits as f64 / t.tries as f64
    };
    format!(
        "{name} pondered: {} of {} replies predicted ({pct:.1}%), {:.1} s searched on the \
         opponent's time for them",
        t.hits,
        t.tries,
        t.saved as f64 / clock_hz as f64
    )
}

/// One line per game for the report.
pub fn describe(r: &Record, m: &Match) -> String {
    let w = &m.sides[r.white].name;
    let b = &m.sides[1 - r.white].name;
    format!(
        "game {:>3}: {w} - {b} {} ({}; {}, {} plies)",
        r.round,
        r.outcome.result(),
        r.outcome.reason,
        r.opening.name,
        r.plies.len()
    )
}

/// Run `z80chess match`.
pub fn cli(a: &MatchArgs) -> Result<(), String> {
    let m = Match::from_args(a).map_err(|e| e.to_string())?;
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let header = pgn::Header {
        sides: &m.sides,
        params_hash: [
            m.sides[0].params.as_ref().map(ParamFile::hash),
            m.sides[1].params.as_ref().map(ParamFile::hash),
        ],
        tc: m.tc,
        clock_hz: m.clock_hz,
        date: crate::session::pgn::today(),
    };
    // Never over a file the user has (its games would be lost); whole games only.
    let mut file = match &a.pgn {
        Some(p) => Some(
            crate::outfile::Appender::create(p)
                .map_err(|e| MatchError::Pgn { source: e }.to_string())?,
        ),
        None => None,
    };
    println!(
        "{} vs {}: {} games, {}, clock {}, {} openings{}, {jobs} job{}",
        m.sides[0].name,
        m.sides[1].name,
        m.games,
        m.tc.describe(),
        crate::session::clock::mhz(m.clock_hz),
        m.openings.len(),
        a.openings
            .as_ref()
            .map(|p| format!(" from {}", p.display()))
            .unwrap_or_else(|| " (built-in)".into()),
        if jobs == 1 { "" } else { "s" },
    );
    for s in m.sides.iter().filter(|s| s.ponder) {
        println!("{} thinks on the opponent's time", s.name);
    }
    if m.games > 2 * m.openings.len() {
        println!(
            "note: {} games from {} openings play each opening more than twice; deterministic \
             engines repeat their games",
            m.games,
            m.openings.len()
        );
    }
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(m.games as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg}, {elapsed} ({eta} left)")
            .map_err(|e| e.to_string())?,
    );
    let mut so_far = Vec::new();
    let mut write_error: Option<String> = None;
    let records = m.run(jobs, |r| {
        so_far.push(r.clone());
        let t = tally(&so_far);
        bar.set_message(format!("+{} ={} -{}", t.wins, t.draws, t.losses));
        bar.inc(1);
        bar.suspend(|| println!("{}", describe(r, &m)));
        match &mut file {
            // the first failed write stops the match: its games would go nowhere
            Some(f) => match f.append(pgn::write(r, &header).as_bytes()) {
                Ok(()) => true,
                Err(e) => {
                    write_error = Some(format!(
                        "{}; the match stopped after game {} (the file holds the games before it)",
                        MatchError::Pgn { source: e },
                        r.round
                    ));
                    false
                }
            },
            None => true,
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    let faults: Vec<&Record> = records.iter().filter(|r| r.outcome.fault).collect();
    if !faults.is_empty() {
        println!("{} games lost by an engine's fault:", faults.len());
        for r in faults {
            println!("  game {}: {}", r.round, r.outcome.reason);
        }
    }
    for (i, s) in m.sides.iter().enumerate() {
        if s.ponder {
            println!("{}", ponder_line(&s.name, &records, i, m.clock_hz));
        }
    }
    println!("{}", swing::line(&m.sides[0].name, &records));
    println!(
        "{}",
        tally(&records).line(&m.sides[0].name, &m.sides[1].name)
    );
    Ok(())
}
