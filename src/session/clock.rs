//! The one time manager: the emulated clock against the wall clock ([`Pace`]), what a client
//! said about time ([`TimeControl`]), and the one policy that turns it into the limits of a
//! search ([`plan`]): a fixed level, a move time, a tournament clock with increments, and
//! the full build's own clock ('T', `asm/full/time.asm`). The emulator's measured speed ([`Rate`]).

use crate::firmware::{Engine, SearchPoll};
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

/// What a GUI said about time for one move (UCI `go`, xboard `st`/`level`/`time`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No limit from the GUI: the Level's depth (or the depth asked) decides.
    #[default]
    Unlimited,
    /// This long for the move (UCI `movetime`, xboard `st`).
    MoveTime(Duration),
    /// A game clock: the side's time left, its increment, moves to the next control (0: the
    /// rest of the game).
    Clock {
        left: Duration,
        inc: Duration,
        moves_to_go: u32,
    },
}

/// How one search is limited: the one time policy of the protocol front ends (UCI and
/// xboard both ask [`plan`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Plies to iterate to.
    pub depth: u8,
    /// The host sends "move now" after this much time (emulated time with PeriodSpeed on,
    /// wall time otherwise); None: no limit from the host.
    pub budget: Option<Duration>,
    /// The full build keeps its own time ('T', asm/full/time.asm): (left, moves to go, increment)
    /// in T-states, for [`Engine::set_time`]; the host then only guards the hard limit.
    pub firmware_clock: Option<(u64, u32, u64)>,
    /// The host's own share of the clock, should the firmware refuse it.
    pub fallback: Option<Duration>,
    /// What time the plan counts in, for an `info string` / a comment line.
    pub note: String,
}

/// The host's share of a clock for one move (period builds, and a clock the full build's
/// firmware refused): time left / moves to go (30 when not given) + 3/4 of the increment, at
/// most half the time left, less 30 ms for the answer to travel.
pub fn host_share(left: Duration, inc: Duration, moves_to_go: u32) -> Duration {
    let togo = if moves_to_go == 0 { 30 } else { moves_to_go };
    (left / togo + inc * 3 / 4)
        .min(left / 2)
        .saturating_sub(Duration::from_millis(30))
        .max(Duration::from_millis(5))
}

/// The limits of one search.
///
/// - `requested_depth` (UCI `go depth`, xboard `sd`) caps the depth in every case.
/// - PeriodSpeed on (`pace.realtime`): the period machine's own time, as the 1978 program
///   had it: the GUI's milliseconds are emulated time at `pace.clock_hz`, the depth is the
///   Level's.
/// - Host speed (the default): a GUI clock is wall time, as for any engine. A clock or a
///   move time lets the search go to [`super::MAX_DEPTH`] (not the Level): the time ends it.
///   The full build's firmware keeps the time itself, fed T-states at `tstates_per_sec`
///   (the emulator's measured rate); the period builds are stopped by the host.
/// - `overhead` (UCI `Move Overhead`) is taken off the time left and off a move time.
pub fn plan(
    tc: TimeControl,
    requested_depth: Option<u8>,
    level: u8,
    overhead: Duration,
    pace: &Pace,
    full: bool,
    tstates_per_sec: u64,
) -> Plan {
    let max = super::MAX_DEPTH;
    let timed = tc != TimeControl::Unlimited;
    let depth = match requested_depth {
        Some(d) => d.clamp(1, max),
        None if timed && !pace.realtime => max,
        None => level.clamp(1, max),
    };
    let (hz, unit) = if pace.realtime {
        (
            pace.clock_hz,
            format!("emulated time at {} (PeriodSpeed on)", pace.clock_text()),
        )
    } else {
        let rate = tstates_per_sec.max(1);
        (
            rate,
            format!(
                "wall time (host speed, the emulator measured at {} T-states/s)",
                rate
            ),
        )
    };
    let t = |d: Duration| (d.as_nanos() * hz as u128 / 1_000_000_000).min(u64::MAX as u128) as u64;
    match tc {
        TimeControl::Unlimited => Plan {
            depth,
            budget: None,
            firmware_clock: None,
            fallback: None,
            note: format!("no time limit: {depth} plies"),
        },
        TimeControl::MoveTime(d) => {
            let b = d
                .saturating_sub(overhead)
                .saturating_sub(Duration::from_millis(20))
                .max(Duration::from_millis(1));
            Plan {
                depth,
                budget: Some(pace.stop_early(b)),
                firmware_clock: None,
                fallback: None,
                note: format!(
                    "{} ms for this move in {unit}, up to {depth} plies",
                    b.as_millis()
                ),
            }
        }
        TimeControl::Clock {
            left,
            inc,
            moves_to_go,
        } => {
            let left = left.saturating_sub(overhead);
            let share = pace.stop_early(host_share(left, inc, moves_to_go));
            if full {
                Plan {
                    depth,
                    budget: None,
                    firmware_clock: Some((t(left), moves_to_go, t(inc))),
                    fallback: Some(share),
                    note: format!(
                        "the firmware keeps the clock ({} ms left) in {unit}, up to {depth} plies",
                        left.as_millis()
                    ),
                }
            } else {
                Plan {
                    depth,
                    budget: Some(share),
                    firmware_clock: None,
                    fallback: None,
                    note: format!(
                        "{} ms of the clock for this move in {unit}, up to {depth} plies",
                        share.as_millis()
                    ),
                }
            }
        }
    }
}

/// The emulator's speed on this host: T-states per wall second. Measured once (a search
/// of the opening position on a machine of its own for about 60 ms), then kept up to date
/// by [`Rate::observe`] from the searches that ran.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rate {
    tps: Option<u64>,
}

impl Rate {
    /// T-states per wall second (measured the first time it is asked).
    pub fn get(&mut self, build: crate::firmware::Build) -> u64 {
        if let Some(r) = self.tps {
            return r;
        }
        let r = measure(build).unwrap_or(50_000_000);
        self.tps = Some(r);
        r
    }

    /// The T-states per second a plan counts in: the clock at PeriodSpeed, else the host's.
    pub fn for_pace(&mut self, pace: &Pace, build: crate::firmware::Build) -> u64 {
        if pace.realtime {
            pace.clock_hz
        } else {
            self.get(build)
        }
    }

    /// A search that ran `tstates` in `wall`: the running rate follows it (long searches
    /// only: a short one is mostly overhead).
    pub fn observe(&mut self, tstates: u64, wall: Duration) {
        if wall < Duration::from_millis(100) {
            return;
        }
        let r = (tstates as f64 / wall.as_secs_f64()) as u64;
        self.tps = Some(match self.tps {
            Some(old) => (old * 3 + r) / 4,
            None => r,
        });
    }
}

fn measure(build: crate::firmware::Build) -> Option<u64> {
    let mut e = Engine::new(build).ok()?;
    e.set_move_number(5).ok()?; // past the opening book
    e.start_search(super::MAX_DEPTH, true);
    let t0 = Instant::now();
    let mut t = 0u64;
    while t0.elapsed() < Duration::from_millis(60) {
        match e.poll_search(1_000_000).ok()? {
            SearchPoll::Running { tstates, .. } => t = tstates,
            SearchPoll::Done(r) => {
                t = r.tstates;
                break;
            }
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    (secs > 0.0 && t > 0).then(|| (t as f64 / secs) as u64)
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

    #[test]
    fn one_time_policy() {
        let host = Pace {
            clock_hz: PERIOD_HZ,
            realtime: false,
        };
        let clock = TimeControl::Clock {
            left: Duration::from_secs(60),
            inc: Duration::from_secs(1),
            moves_to_go: 0,
        };
        // Host speed: a clock is wall time, the depth the firmware's maximum, the full
        // build's clock in T-states at the measured rate, less the overhead.
        let p = plan(
            clock,
            None,
            2,
            Duration::from_millis(100),
            &host,
            true,
            100_000_000,
        );
        assert_eq!(p.depth, crate::session::MAX_DEPTH);
        assert_eq!(p.firmware_clock, Some((5_990_000_000, 0, 100_000_000)));
        assert!(p.note.contains("wall time"), "{}", p.note);
        let p = plan(clock, None, 2, Duration::ZERO, &host, false, 100_000_000);
        assert_eq!(p.budget, Some(Duration::from_millis(2720)));
        // Without a clock the Level decides; `go depth` always caps.
        assert_eq!(
            plan(
                TimeControl::Unlimited,
                None,
                3,
                Duration::ZERO,
                &host,
                true,
                1
            )
            .depth,
            3
        );
        assert_eq!(
            plan(clock, Some(2), 3, Duration::ZERO, &host, true, 1).depth,
            2
        );
        // PeriodSpeed on: the Level, the clock at ClockHz.
        let p = plan(clock, None, 2, Duration::ZERO, &Pace::default(), true, 1);
        assert_eq!(p.depth, 2);
        assert_eq!(p.firmware_clock, Some((120_000_000, 0, 2_000_000)));
        assert!(p.note.contains("PeriodSpeed on"), "{}", p.note);
    }
}
