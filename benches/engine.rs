//! The chess firmware's cost in Z80 terms: T-states per perft node and per GENMOV call (and
//! per generated move), set against the 1978 program's GENMOV of about 50,000-64,000 T per
//! call; then the host's time for the same perft runs under criterion.
//!
//! The T-state figures are exact and deterministic: they are counted by the emulator, not
//! timed. GENMOV is watched without changing the firmware, through the machine's observer
//! hook: a call begins when PC reaches GENMOV (the return address is then on the stack) and
//! ends when that return address is reached with the stack back above it. At the return,
//! HL = the first entry and DE = one past the last of the list GENMOV made (6 bytes each),
//! which gives the moves generated per call.
//!
//! `cargo bench --bench engine` prints the table, then criterion's timings.

use criterion::{Criterion, Throughput};
use std::time::Duration;
use z80chess::firmware::protocol::CMD_PERFT;
use z80chess::firmware::{parse_fen, Build, Engine};
use z80chess::machine::{Observer, StopReason, PERIOD_HZ};
use z80chess::z80::Cpu;

/// (name, FEN, depth): the start position, Kiwipete, and a quiet middlegame
/// (chessprogramming.org's perft position 6).
const POSITIONS: [(&str, &str, u8); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        2,
    ),
    (
        "middlegame",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        2,
    ),
];

/// The builds measured. The 1978 build differs from the article's in the search and the
/// evaluation, not in move generation: its perft figures are the same today.
const BUILDS: [Build; 1] = [Build::Article];

/// The published nodes of each position at its depth (a run that disagrees is not measured).
const EXPECTED_NODES: [u64; 3] = [8_902, 2_039, 2_079];

/// The 1978 program's GENMOV, T-states per call.
const GENMOV_1978: (u64, u64) = (50_000, 64_000);

/// A symbol's value from a `NAME: EQU 0xNNNN` symbol file.
fn symbol(build: Build, name: &str) -> u16 {
    build
        .symbol(name)
        .unwrap_or_else(|| panic!("{name} is not in the {build} symbol file"))
}

/// Counts GENMOV calls, the T-states spent inside them and the moves they generate.
struct GenmovWatch {
    genmov: u16,
    /// (return address, SP after the return, T at entry) of the call in progress.
    open: Option<(u16, u16, u64)>,
    calls: u64,
    tstates: u64,
    moves: u64,
    min: u64,
    max: u64,
}

impl GenmovWatch {
    fn new(genmov: u16) -> Self {
        GenmovWatch {
            genmov,
            open: None,
            calls: 0,
            tstates: 0,
            moves: 0,
            min: u64::MAX,
            max: 0,
        }
    }
}

impl Observer for GenmovWatch {
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        if cpu.pc == self.genmov && self.open.is_none() {
            let sp = cpu.sp as usize;
            let ret = u16::from_le_bytes([mem[sp], mem[(sp + 1) & 0xFFFF]]);
            self.open = Some((ret, cpu.sp.wrapping_add(2), cpu.t));
        }
        false
    }
    fn after(&mut self, cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        if let Some((ret, sp, t0)) = self.open {
            if cpu.pc == ret && cpu.sp == sp {
                let t = cpu.t - t0;
                self.open = None;
                self.calls += 1;
                self.tstates += t;
                self.min = self.min.min(t);
                self.max = self.max.max(t);
                self.moves += (cpu.de().wrapping_sub(cpu.hl()) / 6) as u64;
            }
        }
        false
    }
}

/// One row of the table.
struct Row {
    build: Build,
    name: &'static str,
    depth: u8,
    nodes: u64,
    tstates: u64,
    watch: GenmovWatch,
}

/// Perft through the command port, with the observer watching every instruction.
fn observed_perft(build: Build, fen: &str, depth: u8) -> (u64, u64, GenmovWatch) {
    let mut engine = Engine::new(build).expect("the firmware boots");
    engine
        .set_position(&parse_fen(fen).expect("a legal FEN"))
        .expect("the firmware takes the position");
    let mut watch = GenmovWatch::new(symbol(build, "GENMOV"));
    let m = &mut engine.machine;
    m.take_output();
    m.send(&[CMD_PERFT, depth]);
    let t0 = m.cpu.t;
    loop {
        match m.run_observed(u64::MAX, &mut watch) {
            StopReason::InputNeeded if m.pending_input() == 0 => break,
            StopReason::InputNeeded => continue,
            other => panic!("perft stopped: {other:?}"),
        }
    }
    let tstates = m.cpu.t - t0;
    let out = m.take_output();
    assert_eq!(out.len(), 5, "perft reply {out:02X?}");
    assert_eq!(out[0], 0, "perft refused: status {}", out[0]);
    let nodes = u32::from_le_bytes(out[1..5].try_into().unwrap()) as u64;
    assert!(watch.open.is_none(), "a GENMOV call never returned");
    (nodes, tstates, watch)
}

fn secs_2mhz(t: f64) -> f64 {
    t / PERIOD_HZ as f64
}

fn print_table(rows: &[Row]) {
    println!();
    println!("Z80 cost of perft (exact T-states; seconds on the period machine at 2 MHz)");
    println!(
        "{:<8} {:<10} {:>2} {:>7} {:>13} {:>8} {:>9} {:>7} {:>9} {:>7} {:>9} {:>8} {:>9} {:>9}",
        "build",
        "position",
        "d",
        "nodes",
        "T-states",
        "@2MHz s",
        "T/node",
        "GENMOV",
        "T/GENMOV",
        "moves",
        "T/move",
        "ms/node",
        "ms/GENMOV",
        "GENMOV %"
    );
    for r in rows {
        let w = &r.watch;
        let per_call = w.tstates as f64 / w.calls as f64;
        let moves_per_call = w.moves as f64 / w.calls as f64;
        let per_node = r.tstates as f64 / r.nodes as f64;
        println!(
            "{:<8} {:<10} {:>2} {:>7} {:>13} {:>8.1} {:>9.0} {:>7} {:>9.0} {:>7.1} {:>9.0} {:>8.2} {:>9.2} {:>8.1}%",
            r.build.name(),
            r.name,
            r.depth,
            r.nodes,
            r.tstates,
            secs_2mhz(r.tstates as f64),
            per_node,
            w.calls,
            per_call,
            moves_per_call,
            w.tstates as f64 / w.moves as f64,
            secs_2mhz(per_node) * 1e3,
            secs_2mhz(per_call) * 1e3,
            100.0 * w.tstates as f64 / r.tstates as f64,
        );
    }
    println!(
        "(nodes: the perft count, i.e. leaves; GENMOV: calls in the run, one per interior node, \
         as leaves are counted without generating; T/GENMOV: mean T-states per call; moves: \
         pseudo-legal moves per call; T/move: GENMOV's T-states / moves generated; GENMOV %: \
         its share of the run; the rest is PERFT making, testing (INCHK) and unmaking each \
         pseudo-legal move)"
    );
    for r in rows {
        let mean = r.watch.tstates as f64 / r.watch.calls as f64;
        println!(
            "{:<8} {:<10} GENMOV per call: min {} T, max {} T; the 1978 program's takes {:.1}-{:.1}x as long",
            r.build.name(),
            r.name,
            r.watch.min,
            r.watch.max,
            GENMOV_1978.0 as f64 / mean,
            GENMOV_1978.1 as f64 / mean
        );
    }
    println!(
        "1978 program: GENMOV about {}-{} T per call ({:.0}-{:.0} ms at 2 MHz)",
        GENMOV_1978.0,
        GENMOV_1978.1,
        secs_2mhz(GENMOV_1978.0 as f64) * 1e3,
        secs_2mhz(GENMOV_1978.1 as f64) * 1e3
    );
    println!();
}

fn main() {
    let mut rows = Vec::new();
    for build in BUILDS {
        for (i, (name, fen, depth)) in POSITIONS.iter().enumerate() {
            let (nodes, tstates, watch) = observed_perft(build, fen, *depth);
            assert_eq!(nodes, EXPECTED_NODES[i], "{build} perft {name} d{depth}");
            // The observer must not change what it watches: the plain run costs the same.
            let mut e = Engine::new(build).unwrap();
            e.set_position(&parse_fen(fen).unwrap()).unwrap();
            let plain = e.perft(*depth).unwrap();
            assert_eq!((plain.nodes, plain.tstates), (nodes, tstates));
            rows.push(Row {
                build,
                name,
                depth: *depth,
                nodes,
                tstates,
                watch,
            });
        }
    }
    print_table(&rows);

    // The host's time for the same runs (the position is set up outside the timing).
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(5));
    for build in BUILDS {
        for (i, (name, fen, depth)) in POSITIONS.iter().enumerate() {
            let pos = parse_fen(fen).unwrap();
            g.throughput(Throughput::Elements(EXPECTED_NODES[i]));
            g.bench_function(format!("{build} {name} d{depth}"), |b| {
                b.iter_batched_ref(
                    || {
                        let mut e = Engine::new(build).unwrap();
                        e.set_position(&pos).unwrap();
                        e
                    },
                    |e| e.perft(*depth).unwrap().nodes,
                    criterion::BatchSize::LargeInput,
                )
            });
        }
    }
    g.finish();
    c.final_summary();
}
