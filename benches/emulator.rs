//! Emulation speed: the same Z80 program (`benches/workload.asm`) on our `Cpu` + `FlatBus` and
//! on z80emu's `Z80NMOS`, in one criterion group. Throughput is in T-states per second, so
//! criterion's "elem/s" reads as emulated Hz (Melem/s = emulated MHz).
//!
//! Before any timing, both emulators run the program once and must end in the same state:
//! every register both model, all 64 KiB of memory and the T-state count.
//!
//! `cargo bench --bench emulator` prints, after criterion's own report, the ratio ours/z80emu
//! of the two medians it just measured.

#[path = "support/z80emu_host.rs"]
mod host;

use criterion::{Criterion, Throughput};
use host::{reg_diffs, z80emu_from, Mem64};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use z80chess::firmware::{parse_fen, sargon, Build, Engine};
use z80chess::machine::{Machine, StopReason};
use z80chess::profile::bench::POSITIONS;
use z80chess::z80::{Bus, Cpu, Exit, FlatBus, TStates};
use z80emu::{host::TsCounter, BreakCause, Clock as _, Cpu as _, Z80NMOS};

const GROUP: &str = "emulator";
const STREAM_GROUP: &str = "instruction-stream";
const OURS: &str = "z80chess";
const THEIRS: &str = "z80emu";

/// The workload's 64 KiB memory image (the program at its origin, zeros elsewhere).
fn workload() -> Box<[u8; 0x10000]> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/workload.asm");
    let asm = z80chess::asm::assemble_file(&path, &[]).unwrap_or_else(|errs| {
        for e in &errs {
            eprintln!("{e}");
        }
        panic!("{} does not assemble", path.display())
    });
    let mut mem = Box::new([0u8; 0x10000]);
    let o = asm.origin as usize;
    mem[o..o + asm.image.len()].copy_from_slice(&asm.image);
    mem
}

/// Our CPU from reset until HALT, in the batch loop.
fn run_ours(bus: &mut FlatBus) -> Cpu {
    let mut cpu = Cpu::new();
    while let Exit::Limit { .. } = cpu.run(bus, u64::MAX) {}
    cpu
}

/// z80emu from reset until HALT; returns the CPU and its T-state count.
fn run_theirs(mem: &mut Mem64) -> (Z80NMOS, u32) {
    let mut cpu = z80emu_from(&Cpu::new());
    let mut tsc = TsCounter::<u32>::default();
    match cpu.execute_with_limit(mem, &mut tsc, u32::MAX) {
        Err(BreakCause::Halt) => {}
        other => panic!("z80emu stopped without HALT: {other:?}"),
    }
    (cpu, tsc.as_timestamp())
}

/// Run both once and insist they agree; the T-states of one run.
fn differential_check(image: &[u8; 0x10000]) -> u64 {
    let mut ours = FlatBus {
        mem: Box::new(*image),
    };
    let cpu = run_ours(&mut ours);
    let mut theirs = Mem64::new(image);
    let (z, zt) = run_theirs(&mut theirs);
    let diffs = reg_diffs(&cpu, &z, &[]);
    assert!(diffs.is_empty(), "registers differ at HALT: {diffs:?}");
    assert_eq!(cpu.t, zt as u64, "T-states differ");
    if let Some(a) = (0..0x10000).find(|&a| ours.mem[a] != theirs.mem[a]) {
        panic!(
            "memory differs first at {a:04X}h: ours {:02X}, z80emu {:02X}",
            ours.mem[a], theirs.mem[a]
        );
    }
    cpu.t
}

/// Times `run` on `image` for criterion's `iters`: one bus for the whole measurement, the
/// image copied back into it before each run (not timed), only the run timed.
///
/// A fresh bus per run (`iter_batched_ref` with a clone, as before) timed pages the allocator
/// had just handed back: about 20 µs a run on the development machine, the same for both
/// emulators, a fifth of ours on the NOP stream, which pulled every ratio towards 1.
fn time_runs<M, T>(
    iters: u64,
    bus: &mut M,
    image: &[u8; 0x10000],
    mem: impl Fn(&mut M) -> &mut [u8; 0x10000],
    run: impl Fn(&mut M) -> T,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        mem(bus).copy_from_slice(image);
        let start = Instant::now();
        black_box(run(bus));
        total += start.elapsed();
    }
    total
}

/// Our CPU on `image` until HALT on `bus`, timed by [`time_runs`].
fn time_ours(iters: u64, bus: &mut FlatBus, image: &[u8; 0x10000]) -> Duration {
    time_runs(iters, bus, image, |b| &mut b.mem, |b| run_ours(b).t)
}

/// z80emu on `image` until HALT on `mem`, timed by [`time_runs`].
fn time_theirs(iters: u64, mem: &mut Mem64, image: &[u8; 0x10000]) -> Duration {
    time_runs(iters, mem, image, |m| &mut m.mem, |m| run_theirs(m).1)
}

/// A bus for our CPU and one for z80emu, each to be loaded with the image before a run.
fn buses(image: &[u8; 0x10000]) -> (FlatBus, Mem64) {
    let ours = FlatBus {
        mem: Box::new(*image),
    };
    (ours, Mem64::new(image))
}

fn bench(c: &mut Criterion, image: &[u8; 0x10000], tstates: u64) {
    let mut g = c.benchmark_group(GROUP);
    g.throughput(Throughput::Elements(tstates));
    g.sample_size(30);
    g.warm_up_time(Duration::from_secs(2));
    g.measurement_time(Duration::from_secs(8));
    let (mut ours, mut theirs) = buses(image);
    g.bench_function(OURS, |b| b.iter_custom(|n| time_ours(n, &mut ours, image)));
    g.bench_function(THEIRS, |b| {
        b.iter_custom(|n| time_theirs(n, &mut theirs, image))
    });
    g.finish();
}

/// Straight-line streams of one instruction (60,000 bytes of copies, then HALT): the cost of
/// one instruction class alone, with the dispatch and per-instruction bookkeeping it carries.
const STREAMS: [(&str, &[u8]); 4] = [
    ("NOP", &[0x00]),
    ("LD (HL),A", &[0x77]),
    ("ADD A,(IX+1)", &[0xDD, 0x86, 0x01]),
    ("BIT 3,(HL)", &[0xCB, 0x5E]),
];

fn stream_image(bytes: &[u8]) -> Box<[u8; 0x10000]> {
    let mut mem = Box::new([0u8; 0x10000]);
    let n = 60_000 / bytes.len();
    for i in 0..n {
        mem[i * bytes.len()..(i + 1) * bytes.len()].copy_from_slice(bytes);
    }
    mem[n * bytes.len()] = 0x76; // HALT
    mem
}

/// The T-states of one run of the stream of `bytes` (both emulators agreeing on them).
fn stream_tstates(bytes: &[u8]) -> u64 {
    differential_check(&stream_image(bytes))
}

fn bench_streams(c: &mut Criterion) {
    let mut g = c.benchmark_group(STREAM_GROUP);
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    for (name, bytes) in STREAMS {
        let image = stream_image(bytes);
        let tstates = differential_check(&image);
        g.throughput(Throughput::Elements(tstates));
        let (mut ours, mut theirs) = buses(&image);
        g.bench_function(format!("{OURS} {name}"), |b| {
            b.iter_custom(|n| time_ours(n, &mut ours, &image))
        });
        g.bench_function(format!("{THEIRS} {name}"), |b| {
            b.iter_custom(|n| time_theirs(n, &mut theirs, &image))
        });
    }
    g.finish();
}

/// A flat 64 KiB bus whose ports read 0 (so the firmware's "move now" poll reads no, as on
/// the machine) and swallow writes: the bare batch loop on the firmware's own work.
#[derive(Clone)]
struct FlatPorts(Box<[u8; 0x10000]>);

impl Bus for FlatPorts {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: TStates) -> u8 {
        self.0[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: TStates) {
        self.0[addr as usize] = value;
    }
    #[inline(always)]
    fn port_in(&mut self, _port: u16, _t: TStates) -> u8 {
        0
    }
    #[inline(always)]
    fn port_out(&mut self, _port: u16, _value: u8, _t: TStates) {}
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.0[addr as usize]
    }
}

/// The bench signature's searches of the 1978 build (the period machine: a flat bus can run
/// them, no window to switch), each a machine just told to search: `Machine::run` until the
/// firmware waits for the host, against `Cpu::run` over `FlatPorts` for the same T-states.
/// Both must end in the same registers and RAM before anything is timed.
fn bench_machine(c: &mut Criterion) -> Vec<(Machine, TStates)> {
    let mut starts = Vec::new();
    let mut total = 0;
    for &(name, fen, level) in POSITIONS {
        let mut engine = Engine::new(Build::B1978).unwrap();
        sargon::load(&mut engine, &parse_fen(fen).unwrap()).unwrap();
        engine.start_search(level, false);
        // Past the command's bytes (a flat bus has no host to read them from).
        while engine.machine.pending_input() > 0 {
            engine.machine.run(100);
        }
        let start = engine.machine.clone();
        let mut m = start.clone();
        assert_eq!(m.run(u64::MAX), StopReason::InputNeeded, "{name}");
        let t = m.cpu.t - start.cpu.t;
        let (cpu, bus) = run_flat(&start, t);
        assert_eq!(cpu, m.cpu, "{name}: the flat run's registers differ");
        assert!(
            bus.0[..0x6000] == m.bus.mem[..0x6000],
            "{name}: RAM differs"
        );
        total += t;
        starts.push((start, t));
    }
    let mut g = c.benchmark_group("machine");
    g.throughput(Throughput::Elements(total));
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("Machine::run 1978 signature", |b| {
        b.iter(|| {
            for (start, _) in &starts {
                let mut m = start.clone();
                m.run(u64::MAX);
            }
        })
    });
    g.bench_function("Cpu::run flat 1978 signature", |b| {
        b.iter(|| {
            for (start, t) in &starts {
                run_flat(start, *t);
            }
        })
    });
    g.finish();
    starts
}

/// Rounds of [`machine_alternating`]: each runs the 1978 signature's searches twice (about
/// two seconds a round here).
const MACHINE_ROUNDS: usize = 15;

/// [`MACHINE_ROUNDS`] rounds of the signature's searches by `Machine::run`, then by `Cpu::run`
/// over the flat bus: the best time of each (s) and the median of the rounds' ratios
/// (machine over flat), as [`alternating`] does for the streams.
fn machine_alternating(starts: &[(Machine, TStates)]) -> (f64, f64, f64) {
    let mut rounds: Vec<(f64, f64)> = (0..MACHINE_ROUNDS)
        .map(|_| {
            let begin = Instant::now();
            for (start, _) in starts {
                let mut m = start.clone();
                std::hint::black_box(m.run(u64::MAX));
            }
            let machine = begin.elapsed().as_secs_f64();
            let begin = Instant::now();
            for (start, t) in starts {
                std::hint::black_box(run_flat(start, *t));
            }
            (begin.elapsed().as_secs_f64(), machine)
        })
        .collect();
    let (best_flat, best_machine, median) = best_and_median(&mut rounds);
    (best_machine, best_flat, median)
}

/// `start`'s CPU and memory on a flat bus, run `t` T-states.
fn run_flat(start: &Machine, t: TStates) -> (Cpu, FlatPorts) {
    let mut cpu = start.cpu.clone();
    let mut bus = FlatPorts(Box::new(start.bus.mem));
    let limit = cpu.t + t;
    while cpu.t < limit {
        cpu.run(&mut bus, limit);
    }
    (cpu, bus)
}

/// criterion's output directory (as criterion finds it: CRITERION_HOME, else the target dir).
fn criterion_dir() -> PathBuf {
    if let Some(h) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(h);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("criterion")
}

/// The median time per iteration (ns) criterion measured for `id` in `group`, if it was
/// measured since `since` (this run).
fn fresh_median_ns(group: &str, id: &str, since: std::time::SystemTime) -> Option<f64> {
    let p = criterion_dir()
        .join(group)
        .join(id)
        .join("new/estimates.json");
    let modified = std::fs::metadata(&p).and_then(|m| m.modified()).ok()?;
    if modified < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).ok()?).ok()?;
    v["median"]["point_estimate"].as_f64()
}

fn main() {
    let image = workload();
    let tstates = differential_check(&image);
    let mut written = FlatBus { mem: image.clone() };
    run_ours(&mut written);
    assert_ne!(*written.mem, *image, "the workload wrote nothing");
    println!(
        "workload: {tstates} T-states per run ({:.2} s of a 2 MHz Z80); \
         z80chess and z80emu agree on registers, memory and T-states",
        tstates as f64 / 2e6
    );
    let mut c = Criterion::default().configure_from_args();
    let start = std::time::SystemTime::now();
    bench(&mut c, &image, tstates);
    bench_streams(&mut c);
    let starts = bench_machine(&mut c);
    c.final_summary();
    // The ratios of this run's medians (only where both were measured just now), and of the
    // best of many runs taken alternately, one of ours then one of z80emu's: criterion times
    // the two one after the other, seconds apart, and on a shared machine a neighbour's load
    // can fall on one side only; the best of alternating runs is the cost without it.
    println!(
        "ours/z80emu: criterion's medians | {PAIRED_ROUNDS} alternating runs: the best of each, \
         the median of the rounds' ratios"
    );
    let ratio = |group: &str, name: &str, what: &str, image: &[u8; 0x10000], tstates: u64| {
        let (ours, theirs) = (
            fresh_median_ns(group, &format!("{OURS}{name}"), start),
            fresh_median_ns(group, &format!("{THEIRS}{name}"), start),
        );
        if let (Some(ours), Some(theirs)) = (ours, theirs) {
            let paired = alternating(image);
            let mhz = |ns: f64| tstates as f64 / ns * 1e3;
            println!(
                "  {what:<13} z80chess {:>4.0}, z80emu {:>4.0} emulated MHz: {:.2}x | \
                 {:>4.0}, {:>4.0}: {:.2}x; {:.2}x",
                mhz(ours),
                mhz(theirs),
                theirs / ours,
                mhz(paired.best_ours),
                mhz(paired.best_theirs),
                paired.best_theirs / paired.best_ours,
                paired.median_ratio
            );
        }
    };
    // The machine group likewise: criterion's two medians, then rounds alternating the two.
    if let (Some(machine), Some(flat)) = (
        fresh_median_ns("machine", "Machine__run 1978 signature", start),
        fresh_median_ns("machine", "Cpu__run flat 1978 signature", start),
    ) {
        let (best_machine, best_flat, median) = machine_alternating(&starts);
        println!(
            "Machine::run against Cpu::run on a flat bus, the 1978 signature: criterion's \
             medians {:.3} s, {:.3} s: {:+.1}% | {MACHINE_ROUNDS} alternating rounds: the best \
             {best_machine:.3} s, {best_flat:.3} s: {:+.1}%; the median round {:+.1}%",
            machine / 1e9,
            flat / 1e9,
            (machine / flat - 1.0) * 100.0,
            (best_machine / best_flat - 1.0) * 100.0,
            (median - 1.0) * 100.0
        );
    }
    ratio(GROUP, "", "workload", &image, tstates);
    for (name, bytes) in STREAMS {
        let image = stream_image(bytes);
        ratio(
            STREAM_GROUP,
            &format!(" {name}"),
            name,
            &image,
            stream_tstates(bytes),
        );
    }
}

/// Rounds of [`alternating`].
const PAIRED_ROUNDS: usize = 300;

/// What [`alternating`] measured: the shortest run of each (ns), and the median over the
/// rounds of z80emu's time over ours.
struct Paired {
    best_ours: f64,
    best_theirs: f64,
    median_ratio: f64,
}

/// [`PAIRED_ROUNDS`] rounds of one run of ours and one of z80emu's on `image`, back to back:
/// each round's ratio compares two runs a fraction of a millisecond apart, so a load that
/// comes and goes on the machine falls on both sides of most rounds.
fn alternating(image: &[u8; 0x10000]) -> Paired {
    let (mut our_bus, mut their_mem) = buses(image);
    let mut rounds: Vec<(f64, f64)> = (0..PAIRED_ROUNDS)
        .map(|_| {
            let ours = time_ours(1, &mut our_bus, image).as_nanos() as f64;
            let theirs = time_theirs(1, &mut their_mem, image).as_nanos() as f64;
            (ours, theirs)
        })
        .collect();
    let (best_ours, best_theirs, median_ratio) = best_and_median(&mut rounds);
    Paired {
        best_ours,
        best_theirs,
        median_ratio,
    }
}

/// Rounds of two timings `(a, b)`: the least `a`, the least `b`, and the median of `b / a`.
fn best_and_median(rounds: &mut [(f64, f64)]) -> (f64, f64, f64) {
    let best_a = rounds.iter().map(|r| r.0).fold(f64::MAX, f64::min);
    let best_b = rounds.iter().map(|r| r.1).fold(f64::MAX, f64::min);
    rounds.sort_by(|x, y| (x.1 / x.0).total_cmp(&(y.1 / y.0)));
    let mid = rounds[rounds.len() / 2];
    (best_a, best_b, mid.1 / mid.0)
}
