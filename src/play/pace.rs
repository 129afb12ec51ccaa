//! Time: the emulated clock against the wall clock, and a search driven in T-state slices.

use crate::firmware::{DepthReport, Engine, SearchPoll, SearchResult};
use crate::machine::PERIOD_HZ;
use std::time::{Duration, Instant};

/// T-states the firmware may run between a "move now" and its answer: it looks at the
/// request between nodes, and a node with its static evaluations costs up to about this much.
/// A time-limited search at period speed asks that much earlier.
pub const STOP_LATENCY_T: u64 = 1_000_000;

/// How fast the emulated Z80 runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// The emulated clock (T-states per second), for emulated time.
    pub clock_hz: u64,
    /// Real time: the host sleeps so that emulated time tracks wall time. Off (`--turbo`):
    /// as fast as the host runs.
    pub realtime: bool,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            clock_hz: PERIOD_HZ,
            realtime: true,
        }
    }
}

impl Pace {
    pub fn new(clock_hz: Option<u64>, turbo: bool) -> Result<Pace, String> {
        let clock_hz = clock_hz.unwrap_or(PERIOD_HZ);
        if clock_hz == 0 {
            return Err("--clock-hz must be at least 1".into());
        }
        Ok(Pace {
            clock_hz,
            realtime: !turbo,
        })
    }

    /// T-states to run between two looks at the keyboard or the protocol: 10 ms of emulated
    /// time in real time, a few milliseconds of host time in turbo.
    pub fn slice(&self) -> u64 {
        if self.realtime {
            (self.clock_hz / 100).clamp(1_000, 50_000_000)
        } else {
            4_000_000
        }
    }

    /// A thinking-time budget less the firmware's stop latency (in real time only; in turbo
    /// the latency is a millisecond or two of host time).
    pub fn stop_early(&self, budget: Duration) -> Duration {
        if self.realtime {
            budget
                .saturating_sub(self.emulated(STOP_LATENCY_T))
                .max(Duration::from_millis(1))
        } else {
            budget
        }
    }

    /// Emulated time of `t` T-states.
    pub fn emulated(&self, t: u64) -> Duration {
        Duration::from_secs_f64(t as f64 / self.clock_hz as f64)
    }

    /// "2 MHz" / "3.58 MHz" / "500 kHz".
    pub fn clock_text(&self) -> String {
        mhz(self.clock_hz)
    }

    /// "2 MHz, real time" or "turbo (2 MHz clock)".
    pub fn describe(&self) -> String {
        if self.realtime {
            format!("{}, real time", self.clock_text())
        } else {
            format!("turbo ({} clock)", self.clock_text())
        }
    }
}

/// A clock rate in words.
pub fn mhz(hz: u64) -> String {
    if hz >= 1_000_000 {
        let m = hz as f64 / 1e6;
        if (m - m.round()).abs() < 1e-9 {
            format!("{} MHz", m.round() as u64)
        } else {
            format!("{} MHz", trim(format!("{m:.3}")))
        }
    } else if hz >= 1000 {
        format!("{} kHz", trim(format!("{:.3}", hz as f64 / 1e3)))
    } else {
        format!("{hz} Hz")
    }
}

fn trim(s: String) -> String {
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// h:mm:ss (or m:ss.s under a minute when `tenths`).
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

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
    ) -> Result<Option<SearchResult>, String> {
        match engine.poll_search(budget).map_err(|e| e.to_string())? {
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
    pub fn finish(&mut self, engine: &mut Engine) -> Result<SearchResult, String> {
        loop {
            if let Some(r) = self.step(engine, u64::MAX / 4)? {
                return Ok(r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(mhz(2_000_000), "2 MHz");
        assert_eq!(mhz(3_579_545), "3.58 MHz");
        assert_eq!(mhz(500_000), "500 kHz");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(Pace::default().slice(), 20_000);
        assert_eq!(
            Pace::default().emulated(3_000_000),
            Duration::from_millis(1500)
        );
    }
}
