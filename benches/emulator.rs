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

use criterion::{BatchSize, Criterion, Throughput};
use host::{reg_diffs, z80emu_from, Mem64};
use std::path::{Path, PathBuf};
use std::time::Duration;
use z80chess::firmware::{parse_fen, sargon, Build, Engine};
use z80chess::machine::{Machine, StopReason};
use z80chess::profile::bench::POSITIONS;
use z80chess::z80::{Bus, Cpu, Exit, FlatBus, TStates};
use z80emu::{host::TsCounter, BreakCause, Clock as _, Cpu as _, Z80NMOS};

const GROUP: &str = "emulator";
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

fn bench(c: &mut Criterion, image: &[u8; 0x10000], tstates: u64) {
    let mut g = c.benchmark_group(GROUP);
    g.throughput(Throughput::Elements(tstates));
    g.sample_size(30);
    g.warm_up_time(Duration::from_secs(2));
    g.measurement_time(Duration::from_secs(8));
    let flat = FlatBus {
        mem: Box::new(*image),
    };
    g.bench_function(OURS, |b| {
        b.iter_batched_ref(
            || flat.clone(),
            |bus| {
                let cpu = run_ours(bus);
                assert_eq!(cpu.t, tstates);
            },
            BatchSize::LargeInput,
        )
    });
    let mem = Mem64::new(image);
    g.bench_function(THEIRS, |b| {
        b.iter_batched_ref(
            || mem.clone(),
            |m| {
                let (_, t) = run_theirs(m);
                assert_eq!(t as u64, tstates);
            },
            BatchSize::LargeInput,
        )
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

fn bench_streams(c: &mut Criterion) {
    let mut g = c.benchmark_group("instruction-stream");
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    for (name, bytes) in STREAMS {
        let image = stream_image(bytes);
        let tstates = differential_check(&image);
        g.throughput(Throughput::Elements(tstates));
        let flat = FlatBus {
            mem: Box::new(*image),
        };
        g.bench_function(format!("{OURS} {name}"), |b| {
            b.iter_batched_ref(
                || flat.clone(),
                |bus| run_ours(bus).t,
                BatchSize::LargeInput,
            )
        });
        let mem = Mem64::new(&image);
        g.bench_function(format!("{THEIRS} {name}"), |b| {
            b.iter_batched_ref(|| mem.clone(), |m| run_theirs(m).1, BatchSize::LargeInput)
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
fn bench_machine(c: &mut Criterion) {
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
}

/// `start`'s CPU and memory on a flat bus, run `t` T-states.
fn run_flat(start: &Machine, t: TStates) -> (Cpu, FlatPorts) {
    let mut cpu = start.cpu.clone();
    let mut bus = FlatPorts(start.bus.mem.clone());
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

/// The median time per iteration (ns) criterion just measured for `id`.
fn median_ns(id: &str) -> Option<f64> {
    let p = criterion_dir()
        .join(GROUP)
        .join(id)
        .join("new/estimates.json");
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
    bench_machine(&mut c);
    c.final_summary();
    // The ratio of this run's medians (only if both were measured just now).
    let fresh = |id: &str| {
        let p = criterion_dir()
            .join(GROUP)
            .join(id)
            .join("new/estimates.json");
        let m = std::fs::metadata(p).and_then(|m| m.modified()).ok()?;
        (m >= start).then(|| median_ns(id)).flatten()
    };
    if let (Some(ours), Some(theirs)) = (fresh(OURS), fresh(THEIRS)) {
        let mhz = |ns: f64| tstates as f64 / ns * 1e3;
        println!(
            "emulated MHz (median): z80chess {:.0}, z80emu {:.0}; ours/z80emu = {:.2}x",
            mhz(ours),
            mhz(theirs),
            theirs / ours
        );
    }
}
