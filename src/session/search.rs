//! The one search driver: a search run in T-state slices ([`Search`]), and [`Driver`], which
//! runs it under a [`super::clock::Plan`] for every front end: the budget, "move now", node
//! limits, pondering, the reports as depths complete, and input heard between slices.

use super::clock::{Pace, Plan, STOP_LATENCY_T};
use crate::firmware::{DepthReport, Engine, FirmwareError, SearchPoll, SearchResult};
use std::time::{Duration, Instant};

/// A running search.
#[derive(Clone, Debug)]
pub struct Search {
    pub level: u8,
    pub wall_start: Instant,
    /// T-states spent so far.
    pub tstates: u64,
    pub depths: Vec<DepthReport>,
    /// Static evaluations and moves made so far (read from the firmware's counters).
    pub evaluations: u32,
    pub nodes: u32,
    /// "Move now" has been sent.
    pub stopping: bool,
}

impl Search {
    /// Start an iterative search to `level` plies (each completed depth is reported).
    pub fn start(engine: &mut Engine, level: u8) -> Search {
        engine.start_search(level, true);
        Search::begun(level)
    }

    /// Start a search that keeps its own time (the full build, after [`Engine::set_time`]),
    /// iterating up to `level` plies.
    pub fn timed(engine: &mut Engine, level: u8) -> Search {
        engine.start_timed_search(level);
        Search::begun(level)
    }

    /// No search (a listener's view when nothing runs).
    pub fn idle() -> Search {
        Search::begun(0)
    }

    fn begun(level: u8) -> Search {
        Search {
            level,
            wall_start: Instant::now(),
            tstates: 0,
            depths: Vec::new(),
            evaluations: 0,
            nodes: 0,
            stopping: false,
        }
    }

    /// Run the firmware for at most `budget` T-states; the result once it has moved.
    pub fn step(
        &mut self,
        engine: &mut Engine,
        budget: u64,
    ) -> Result<Option<SearchResult>, FirmwareError> {
        match engine.poll_search(budget)? {
            SearchPoll::Running { depths, tstates } => {
                if depths.len() >= self.depths.len() {
                    self.depths = depths;
                }
                self.tstates = tstates;
                self.evaluations = super::counter(engine, "NEVAL").unwrap_or(self.evaluations);
                self.nodes = super::counter(engine, "NNODE").unwrap_or(self.nodes);
                Ok(None)
            }
            SearchPoll::Done(r) => {
                self.tstates = r.tstates;
                self.depths = r.depths.clone();
                self.evaluations = r.evaluations;
                self.nodes = r.nodes;
                Ok(Some(r))
            }
        }
    }

    /// Ask the firmware to move now (it answers with its last completed depth's move).
    pub fn stop(&mut self, engine: &mut Engine) {
        engine.move_now();
        self.stopping = true;
    }

    pub fn wall(&self) -> Duration {
        self.wall_start.elapsed()
    }

    pub fn emulated(&self, pace: &Pace) -> Duration {
        pace.emulated(self.tstates)
    }

    /// How long to wait before the next slice so that emulated time does not run ahead of
    /// wall time (zero in turbo).
    pub fn ahead(&self, pace: &Pace) -> Duration {
        if !pace.realtime {
            return Duration::ZERO;
        }
        self.emulated(pace).saturating_sub(self.wall())
    }

    /// Run to the end with no pacing and no interruption (tests, scripts).
    pub fn finish(&mut self, engine: &mut Engine) -> Result<SearchResult, FirmwareError> {
        loop {
            if let Some(r) = self.step(engine, u64::MAX / 4)? {
                return Ok(r);
            }
        }
    }
}

/// The full build's transposition table filled, in permille (UCI `hashfull`): the entries
/// (asm/full/craft.asm: 16 bytes each at TTAB, the move's from-square at +4, 0 = empty; the
/// search's number at +12) this search stored, out of the table's 256. None when the build
/// has no table or its flag (P_FLAGS bit 0) is off.
pub fn hashfull(engine: &Engine) -> Option<u32> {
    const ENTRIES: usize = 256;
    if engine.build != crate::firmware::Build::Full {
        return None;
    }
    let flags = super::counter(engine, "P_FLAGS")? as u8;
    if flags & 1 == 0 {
        return None;
    }
    let base = super::symbol(engine, "TTAB")? as usize;
    let age = super::counter(engine, "TTAGE")? as u8;
    let m = &engine.machine.bus.mem;
    if base + ENTRIES * 16 > m.len() {
        return None;
    }
    let used = (0..ENTRIES)
        .filter(|i| {
            let e = base + i * 16;
            m[e + 4] != 0 && m[e + 12] == age
        })
        .count();
    Some((used * 1000 / ENTRIES) as u32)
}

/// How the host stops a search with "move now".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Budget {
    /// No limit from the host: the depth (or the full build's own clock) ends it.
    #[default]
    None,
    /// Move now once this much time has passed since the search began (or since the
    /// ponderhit): emulated time when the pace is real time, wall time otherwise.
    Time(Duration),
    /// Move now once the search has run this many T-states: the last slice ends exactly on
    /// it, so a search at equal emulated time is the same on every host (matches).
    TStates(u64),
}

/// What a front end heard between two slices of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    Nothing,
    /// Answer now with the last completed depth's move (UCI `stop`, xboard `?`, a key).
    MoveNow,
    /// The move pondered on was played: the search goes on with `budget` counted from here;
    /// `hold`: the answer still waits for a `stop` (UCI `go ponder infinite`).
    PonderHit {
        budget: Budget,
        hold: bool,
    },
    /// Stop and throw the answer away (a command that changes the game, xboard `quit`).
    Abandon,
}

/// A front end's side of a search: it prints what the search reports and says what its
/// client said. Only [`Listener::listen`] is required.
pub trait Listener {
    /// Depth `i` of `search.depths` completed, `elapsed` into the search.
    fn depth(
        &mut self,
        engine: &Engine,
        search: &Search,
        i: usize,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        let _ = (engine, search, i, elapsed);
        Ok(())
    }

    /// About once a second of wall time while the search runs.
    fn progress(
        &mut self,
        engine: &Engine,
        search: &Search,
        elapsed: Duration,
    ) -> std::io::Result<()> {
        let _ = (engine, search, elapsed);
        Ok(())
    }

    /// Input between slices: wait at most `wait` for it (zero: only what has arrived; None:
    /// the answer is ready and held, so wait until something comes — at the end of input a
    /// front end answers [`Heard::MoveNow`] or [`Heard::Abandon`], never [`Heard::Nothing`]).
    fn listen(&mut self, search: &Search, wait: Option<Duration>) -> std::io::Result<Heard>;
}

/// How a driven search ended.
#[derive(Debug)]
pub enum Outcome {
    /// The firmware's answer, `elapsed` into the search (emulated or wall, as the budget).
    Move {
        result: SearchResult,
        elapsed: Duration,
        /// Wall time the search took (for [`super::clock::Rate::observe`]).
        wall: Duration,
    },
    /// The front end abandoned it (the firmware was stopped; its answer thrown away).
    Abandoned,
}

/// Why a driven search failed.
#[derive(Debug, thiserror::Error)]
pub enum DriveError {
    #[error("the firmware failed: {0}")]
    Firmware(#[from] FirmwareError),
    #[error("the front end's output failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The one search driver: a [`Search`] under a budget, a node limit and the pace, reporting
/// each completed depth and listening between slices. Every front end (UCI, xboard, the
/// text and full-screen modes, `match`) runs its searches through it.
#[derive(Debug)]
pub struct Driver {
    pub search: Search,
    pub budget: Budget,
    /// Move now at the first look after this many nodes (moves made).
    pub nodes: Option<u64>,
    /// The answer waits for the front end's `stop` (UCI `go infinite`/`go ponder`).
    pub hold: bool,
    pace: Pace,
    /// T-states run per slice before the host looks at its input again.
    slice: u64,
    /// Where the budget counts from (the ponderhit), in its own time.
    since: Duration,
    since_t: u64,
    reported: usize,
    last_progress: Instant,
    /// The front end said "move now": the emulated time until the firmware's answer runs at
    /// host speed, so a stop is answered within the same wall time at any clock rate.
    hurried: bool,
    result: Option<SearchResult>,
}

impl Driver {
    /// Drive `search` (already started) at `pace`.
    pub fn new(search: Search, pace: Pace) -> Driver {
        Driver {
            search,
            budget: Budget::None,
            nodes: None,
            hold: false,
            pace,
            slice: pace.slice(),
            since: Duration::ZERO,
            since_t: 0,
            reported: 0,
            last_progress: Instant::now(),
            hurried: false,
            result: None,
        }
    }

    /// An iterative search to `depth` plies.
    pub fn depth(engine: &mut Engine, depth: u8, pace: Pace) -> Driver {
        Driver::new(Search::start(engine, depth), pace)
    }

    /// Start the search a [`Plan`] describes: the full build's firmware given the clock (the
    /// host then only guards its hard limit plus the stop latency), or the host's budget.
    /// The second value says why the firmware refused the clock, if it did (the host's share
    /// is used then). `tstates_per_sec`: what the plan counts in
    /// ([`super::clock::Rate::for_pace`]).
    pub fn planned(
        engine: &mut Engine,
        plan: &Plan,
        pace: Pace,
        tstates_per_sec: u64,
    ) -> (Driver, Option<String>) {
        let (search, budget, refused) = match plan.firmware_clock {
            Some((left, togo, inc)) => match engine.set_time(left, togo, inc) {
                Ok(b) => {
                    let hz = tstates_per_sec.max(1);
                    let guard =
                        Duration::from_secs_f64((b.hard + STOP_LATENCY_T) as f64 / hz as f64);
                    (Search::timed(engine, plan.depth), Some(guard), None)
                }
                Err(e) => (
                    Search::start(engine, plan.depth),
                    plan.fallback,
                    Some(e.to_string()),
                ),
            },
            None => (Search::start(engine, plan.depth), plan.budget, None),
        };
        let mut d = Driver::new(search, pace);
        d.budget = budget.map_or(Budget::None, Budget::Time);
        (d, refused)
    }

    /// Look at input after at most `slice` T-states (default: the pace's slice).
    pub fn with_slice(mut self, slice: u64) -> Driver {
        self.slice = slice.max(1);
        self
    }

    /// Look at input after at most `slice` T-states from now on.
    pub fn set_slice(&mut self, slice: u64) {
        self.slice = slice.max(1);
    }

    /// The answer, taken out once the firmware has given it (a front end that ticks).
    pub fn take_result(&mut self) -> Option<SearchResult> {
        self.result.take()
    }

    /// Time into the search, as the budget counts it: emulated at period speed, else wall.
    pub fn elapsed(&self) -> Duration {
        if self.pace.realtime {
            self.search.emulated(&self.pace)
        } else {
            self.search.wall()
        }
    }

    /// Wall time since the search began.
    pub fn wall(&self) -> Duration {
        self.search.wall()
    }

    /// The answer, once the firmware has given it.
    pub fn result(&self) -> Option<&SearchResult> {
        self.result.as_ref()
    }

    /// Say "move now" (once).
    pub fn move_now(&mut self, engine: &mut Engine) {
        if !self.search.stopping && self.result.is_none() {
            self.search.stop(engine);
        }
    }

    /// The move pondered on was played: the budget counts from here.
    pub fn ponder_hit(&mut self, budget: Budget, hold: bool) {
        self.budget = budget;
        self.hold = hold;
        self.since = self.elapsed();
        self.since_t = self.search.tstates;
    }

    /// One slice: run the firmware, then say "move now" if the budget or the node limit is
    /// spent. Returns the range of `search.depths` completed in it; the answer, once there,
    /// is in [`Driver::result`].
    pub fn tick(&mut self, engine: &mut Engine) -> Result<std::ops::Range<usize>, FirmwareError> {
        if self.result.is_none() {
            let mut slice = self.slice;
            if let (Budget::TStates(b), false) = (self.budget, self.search.stopping) {
                let stop_at = self.since_t.saturating_add(b);
                slice = slice.min(stop_at.saturating_sub(self.search.tstates).max(1));
            }
            self.result = self.search.step(engine, slice)?;
        }
        let new = self.reported..self.search.depths.len();
        self.reported = self.search.depths.len();
        if self.result.is_none() && !self.search.stopping && self.spent() {
            self.search.stop(engine);
        }
        Ok(new)
    }

    fn spent(&self) -> bool {
        let budget = match self.budget {
            Budget::None => false,
            Budget::Time(b) => self.elapsed().saturating_sub(self.since) >= b,
            Budget::TStates(b) => self.search.tstates.saturating_sub(self.since_t) >= b,
        };
        budget || self.nodes.is_some_and(|n| self.search.nodes as u64 >= n)
    }

    /// How long to wait for input before the next slice: at period speed, until wall time
    /// catches up with emulated time.
    pub fn wait(&self) -> Duration {
        if self.hurried {
            return Duration::ZERO;
        }
        self.search.ahead(&self.pace)
    }

    /// Stop the search if it still runs and throw its answer away (before the game changes).
    pub fn abandon(mut self, engine: &mut Engine) -> Result<(), FirmwareError> {
        if self.result.is_none() {
            self.move_now(engine);
            self.search.finish(engine)?;
        }
        Ok(())
    }

    /// Run to the answer: each slice's depths and the progress go to `ears`, and what it
    /// hears between slices is obeyed.
    pub fn run(
        mut self,
        engine: &mut Engine,
        ears: &mut dyn Listener,
    ) -> Result<Outcome, DriveError> {
        loop {
            for i in self.tick(engine)? {
                ears.depth(engine, &self.search, i, self.elapsed())?;
                self.last_progress = Instant::now();
            }
            if self.result.is_none() && self.last_progress.elapsed() >= Duration::from_secs(1) {
                ears.progress(engine, &self.search, self.elapsed())?;
                self.last_progress = Instant::now();
            }
            if self.result.is_some() && !self.hold {
                break;
            }
            let wait = if self.result.is_some() {
                None
            } else {
                Some(self.wait())
            };
            match ears.listen(&self.search, wait)? {
                Heard::Nothing => {}
                Heard::MoveNow if self.result.is_some() => break,
                Heard::MoveNow => {
                    self.hold = false;
                    self.hurried = true;
                    self.move_now(engine);
                }
                Heard::PonderHit { budget, hold } => self.ponder_hit(budget, hold),
                Heard::Abandon => {
                    self.abandon(engine)?;
                    return Ok(Outcome::Abandoned);
                }
            }
        }
        let (elapsed, wall) = (self.elapsed(), self.wall());
        let result = self.result.take().expect("the loop ends on an answer");
        Ok(Outcome::Move {
            result,
            elapsed,
            wall,
        })
    }

    /// Run `search` (started) to its answer at host speed, saying "move now" once it has run
    /// `stop_at` T-states: exact, the same on every host (matches, `search` and `regress
    /// --movetime-emulated`).
    pub fn finish_within(
        search: Search,
        engine: &mut Engine,
        stop_at: u64,
    ) -> Result<SearchResult, FirmwareError> {
        let pace = Pace {
            clock_hz: crate::machine::PERIOD_HZ,
            realtime: false,
        };
        let mut driver = Driver::new(search, pace).with_slice(u64::MAX / 4);
        driver.budget = Budget::TStates(stop_at);
        driver.finish(engine)
    }

    /// Run to the answer with nothing heard and nothing printed (scripts, matches, tests);
    /// the budget and node limit still apply.
    pub fn finish(mut self, engine: &mut Engine) -> Result<SearchResult, FirmwareError> {
        loop {
            self.tick(engine)?;
            if let Some(r) = self.result.take() {
                return Ok(r);
            }
        }
    }
}
