//! zexdoc and zexall, ours against z80emu: `cargo bench --bench zexrace [-- RUNS [NAME...]]`.
//!
//! Not criterion: each exerciser is about 46·10⁹ T-states (about a minute of host time), so
//! this runs each program whole on both emulators, alternating ours and z80emu's
//! `execute_with_limit`, RUNS times (default 3), keeps the best (least CPU time) of each and
//! prints emulated MHz and the ratio. NAME is `zexdoc` and/or `zexall` (default both).
//!
//! Both run the same CP/M frame: the program at 0100h, `JP BDOS` at 0005h, and at BDOS an
//! `OUT (FEh),A; RET` that hands the call to the host (functions 2 and 9); 0000h holds
//! `OUT (FFh),A`, the warm boot that ends the run. Both run on the hosts of
//! `benches/support/z80emu_host.rs` (the differential test's): ours in [`Cpu::run`], the batch
//! loop, whose bus lowers its deadline on an OUT; z80emu breaks out of `execute_with_limit`
//! on the OUT. Before timing anything both must print the same text and count the same T-states.

#[path = "support/exerciser.rs"]
mod exerciser;
#[path = "support/z80emu_host.rs"]
mod host;
use exerciser::exerciser;

use host::{Mem64, OurBus};
use std::num::Wrapping;
use std::time::Instant;
use z80chess::z80::{Bus, Cpu, Exit, TStates};
use z80emu::host::TsCounter;
use z80emu::{BreakCause, Clock as _, Cpu as _, StkReg16, Z80NMOS};

const TPA: u16 = 0x0100;
const BDOS: u16 = 0xFE00;
const PORT_BDOS: u8 = 0xFE;
const PORT_EXIT: u8 = 0xFF;

/// The CP/M frame around `program` (see the module documentation).
fn image(program: &[u8]) -> Box<[u8; 0x10000]> {
    let mut mem = Box::new([0u8; 0x10000]);
    mem[TPA as usize..TPA as usize + program.len()].copy_from_slice(program);
    mem[0..2].copy_from_slice(&[0xD3, PORT_EXIT]);
    mem[5] = 0xC3;
    mem[6..8].copy_from_slice(&BDOS.to_le_bytes());
    mem[BDOS as usize..BDOS as usize + 3].copy_from_slice(&[0xD3, PORT_BDOS, 0xC9]);
    mem
}

/// A BDOS call (C = function, DE, E); true when the program asked to end (function 0).
fn bdos(c: u8, de: u16, mem: &[u8; 0x10000], out: &mut Vec<u8>) -> bool {
    match c {
        2 => out.push(de as u8),
        9 => {
            let mut a = de;
            for _ in 0..0x10000 {
                if mem[a as usize] == b'$' {
                    break;
                }
                out.push(mem[a as usize]);
                a = a.wrapping_add(1);
            }
        }
        0 => return true,
        f => panic!("BDOS function {f} not emulated"),
    }
    false
}

/// What one run gives: the text printed and the T-states to the warm boot.
#[derive(PartialEq, Debug)]
struct Outcome {
    text: Vec<u8>,
    tstates: u64,
}

/// Our side of the same host (`OurBus`: flat memory, the same port values, OUTs logged),
/// with a deadline an OUT lowers, so the trap ends [`Cpu::run`]'s batch.
struct ZexBus {
    bus: OurBus,
    deadline: TStates,
}

impl Bus for ZexBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        self.bus.read(addr, t)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        self.bus.write(addr, value, t)
    }
    #[inline(always)]
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        self.bus.port_in(port, t)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        self.bus.port_out(port, value, t);
        self.deadline = 0;
    }
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }
    #[inline(always)]
    fn deadline(&self) -> TStates {
        self.deadline
    }
}

fn run_ours(program: &[u8]) -> Outcome {
    let mut bus = ZexBus {
        bus: OurBus {
            mem: image(program),
            io: Vec::new(),
        },
        deadline: TStates::MAX,
    };
    let mut cpu = Cpu::new();
    cpu.pc = TPA;
    cpu.sp = BDOS - 2;
    let mut text = Vec::new();
    loop {
        if let Exit::Halted { pc } = cpu.run(&mut bus, TStates::MAX) {
            panic!("ours halted at {pc:04X}h");
        }
        bus.deadline = TStates::MAX;
        match bus.bus.io.last().map(|&(port, _)| port as u8) {
            Some(PORT_BDOS) if !bdos(cpu.c, cpu.de(), &bus.bus.mem, &mut text) => {}
            _ => {
                return Outcome {
                    text,
                    tstates: cpu.t,
                }
            }
        }
    }
}

fn run_theirs(program: &[u8]) -> Outcome {
    let mut mem = Mem64::new(&image(program));
    mem.log_io = true;
    mem.break_io = true;
    let mut cpu = Z80NMOS::default();
    cpu.reset();
    cpu.set_pc(TPA);
    cpu.set_sp(BDOS - 2);
    // z80emu's counter here is 32 bits (`Mem64`'s timestamps): it runs in spans of 2^31
    // T-states, the passed spans added up in 64 bits.
    const SPAN: u32 = 1 << 31;
    let mut tsc = TsCounter::<u32>::default();
    let mut spans = 0u64;
    let mut text = Vec::new();
    loop {
        match cpu.execute_with_limit(&mut mem, &mut tsc, SPAN) {
            Ok(()) => {
                spans += 1;
                tsc.0 -= Wrapping(SPAN);
            }
            Err(BreakCause::WriteIo(())) => {
                let port = mem.io.last().map_or(0, |&(p, _)| p as u8);
                let [_, c] = cpu.get_reg16(StkReg16::BC).to_be_bytes();
                let de = cpu.get_reg16(StkReg16::DE);
                if port != PORT_BDOS || bdos(c, de, &mem.mem, &mut text) {
                    break;
                }
            }
            Err(other) => panic!("z80emu stopped: {other:?}"),
        }
    }
    Outcome {
        text,
        tstates: spans * SPAN as u64 + tsc.as_timestamp() as u64,
    }
}

/// CPU seconds this process has used (user + system), from /proc: the machine is shared, so
/// time off the CPU must not count against either emulator.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, r)| r)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (ticks(11) + ticks(12)) / hz
}

/// One timed run: (CPU seconds, wall seconds, outcome).
fn timed(f: fn(&[u8]) -> Outcome, program: &[u8]) -> (f64, f64, Outcome) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    let o = f(program);
    (cpu_seconds() - c0, w0.elapsed().as_secs_f64(), o)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let names: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    let names = if names.is_empty() {
        vec!["zexdoc", "zexall"]
    } else {
        names
    };
    for name in names {
        let program = exerciser(&format!("{name}.com"));
        let mut best = [f64::MAX; 2];
        let mut reference: Option<Outcome> = None;
        for run in 1..=runs {
            for (i, (who, f)) in [
                ("z80chess", run_ours as fn(&[u8]) -> Outcome),
                ("z80emu", run_theirs),
            ]
            .into_iter()
            .enumerate()
            {
                let (cpu, wall, o) = timed(f, &program);
                let text = String::from_utf8_lossy(&o.text);
                assert!(
                    text.contains("Tests complete") && !text.contains("ERROR"),
                    "{who} {name}:\n{text}"
                );
                match &reference {
                    None => reference = Some(o),
                    Some(r) => assert_eq!(r, &o, "{name}: z80chess and z80emu disagree"),
                }
                let t = reference.as_ref().map_or(0, |r| r.tstates);
                println!(
                    "{name} run {run} {who:8}: {t} T-states in {cpu:.2} s CPU ({wall:.2} s wall): \
                     {:.0} emulated MHz",
                    t as f64 / cpu / 1e6
                );
                best[i] = best[i].min(cpu);
            }
        }
        let t = reference.map_or(0, |r| r.tstates) as f64;
        println!(
            "{name}: best of {runs}: z80chess {:.0} MHz, z80emu {:.0} MHz; ours/z80emu = {:.2}x",
            t / best[0] / 1e6,
            t / best[1] / 1e6,
            best[1] / best[0]
        );
    }
}
