//! The evaluator and the search in Z80 terms, for each build: T-states per POINTS call (the
//! static evaluation) and evaluations per second at 2 MHz, against the 1978 program's ≈590,000 T
//! per POINTS (3.4 evaluations a second, `sargon-1978.md` §2.8); then whole moves at levels 2–4
//! on a fixed set of positions. Then the host's time for a level-2 search under criterion.
//!
//! The T-state figures are exact and deterministic (counted by the emulator). POINTS is
//! watched through the machine's observer without changing the firmware: a call starts when PC
//! reaches POINTS and ends when its return address is reached with the stack back above it.
//!
//! `cargo bench --bench search` prints the tables, then criterion's timings.

use criterion::Criterion;
use std::time::Duration;
use z80chess::firmware::{parse_fen, parse_search, sargon, Build, Engine};
use z80chess::machine::{Observer, StopReason, PERIOD_HZ};
use z80chess::z80::Cpu;

/// Middlegame and endgame positions of ordinary play (none is a book position).
const POSITIONS: [(&str, &str); 4] = [
    (
        "italian",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 5",
    ),
    (
        "qgd",
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8",
    ),
    (
        "middlegame",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    ("rook ending", "8/5pk1/6p1/3R4/p6P/r5P1/5PK1/8 b - - 0 40"),
];

/// The 1978 program's POINTS, T-states per call.
const POINTS_1978: u64 = 590_000;

fn symbol(build: Build, name: &str) -> u16 {
    build
        .symbol(name)
        .unwrap_or_else(|| panic!("{name} is not in the {build} symbol file"))
}

/// Counts POINTS calls and the T-states spent inside them.
struct PointsWatch {
    entry: u16,
    open: Option<(u16, u64)>,
    calls: u64,
    tstates: u64,
}

impl Observer for PointsWatch {
    fn before(&mut self, cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        if let Some((sp, t0)) = self.open {
            if cpu.sp > sp {
                self.tstates += cpu.t - t0;
                self.open = None;
            }
        }
        if self.open.is_none() && cpu.pc == self.entry {
            self.open = Some((cpu.sp, cpu.t));
            self.calls += 1;
        }
        false
    }
}

/// One search under the watch: (move, T-states of the search, POINTS calls, T in POINTS).
fn watched_search(build: Build, fen: &str, level: u8) -> (String, u64, u64, u64) {
    let mut e = Engine::new(build).expect("boot");
    sargon::load(&mut e, &parse_fen(fen).expect("fen")).expect("load");
    let mut w = PointsWatch {
        entry: symbol(build, "POINTS"),
        open: None,
        calls: 0,
        tstates: 0,
    };
    let t0 = e.machine.cpu.t;
    e.machine.take_output();
    e.machine.send(&[b'G', level, 0]);
    loop {
        match e.machine.run_observed(u64::MAX, &mut w) {
            StopReason::InputNeeded if e.machine.pending_input() == 0 => break,
            StopReason::InputNeeded => continue,
            other => panic!("search stopped: {other:?}"),
        }
    }
    let t = e.machine.cpu.t - t0;
    let out = e.machine.take_output();
    let r = parse_search(build, &out[1..], t).expect("reply");
    assert_eq!(
        r.evaluations as u64, w.calls,
        "the firmware's POINTS counter and the watch agree"
    );
    (r.best.uci(), t, w.calls, w.tstates)
}

fn tables() {
    println!(
        "\nPOINTS (static evaluation), level-2 searches over {} positions:",
        POSITIONS.len()
    );
    println!(
        "{:8} {:>8} {:>14} {:>10} {:>12} {:>10}",
        "build", "calls", "T in POINTS", "T/POINTS", "evals/s@2MHz", "vs 1978"
    );
    for build in Build::ALL {
        let (mut calls, mut t) = (0, 0);
        for (_, fen) in POSITIONS {
            let (_, _, c, tp) = watched_search(build, fen, 2);
            calls += c;
            t += tp;
        }
        let per = t / calls.max(1);
        println!(
            "{:8} {:>8} {:>14} {:>10} {:>12.1} {:>9.1}x",
            build.name(),
            calls,
            t,
            per,
            PERIOD_HZ as f64 / per as f64,
            POINTS_1978 as f64 / per as f64
        );
    }
    println!("(the 1978 program: about {POINTS_1978} T per POINTS, 3.4 evaluations a second)\n");
    println!("Whole moves (T-states from the command to the answer; time at 2 MHz):");
    println!(
        "{:8} {:12} {:>5} {:>6} {:>14} {:>10} {:>10}",
        "build", "position", "level", "move", "T-states", "@2MHz s", "POINTS"
    );
    for build in Build::ALL {
        for (name, fen) in POSITIONS {
            for level in 2..=4u8 {
                let (m, t, calls, _) = watched_search(build, fen, level);
                println!(
                    "{:8} {:12} {:>5} {:>6} {:>14} {:>10.1} {:>10}",
                    build.name(),
                    name,
                    level,
                    m,
                    t,
                    t as f64 / PERIOD_HZ as f64,
                    calls
                );
            }
        }
    }
    println!();
}

fn main() {
    tables();
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    let mut g = c.benchmark_group("search_level2_host_time");
    for build in Build::ALL {
        let (_, fen) = POSITIONS[1];
        let pos = parse_fen(fen).unwrap();
        g.bench_function(build.name(), |b| {
            b.iter(|| {
                let mut e = Engine::new(build).unwrap();
                sargon::load(&mut e, &pos).unwrap();
                e.search(2, false).unwrap()
            })
        });
    }
    g.finish();
    c.final_summary();
}
