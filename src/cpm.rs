//! A minimal CP/M 2.2 environment, enough for the standard instruction exercisers
//! (zexdoc, zexall, prelim) and small test programs:
//!
//! ```text
//!   0000h  JP WBOOT  (a jump to 0000h ends the run: "warm boot")
//!   0005h  JP BDOS   (BDOS entry; functions 0, 2 and 9 are served by the host)
//!   0006h  word: the top of the program area (= BDOS, FE00h)
//!   0100h  the .COM program (the TPA), up to FE00h
//!   FE00h  BDOS: RET (the host serves the call when PC reaches 0005h)
//! ```
//!
//! The host intercepts PC = 0005h before the instruction there runs, so the program's
//! `CALL 5` costs what it costs on a real machine up to the BDOS (the BDOS's own work is free).
//!
//! The program runs in the CPU's batch loop ([`Cpu::run`]): an opcode fetch at 0000h or 0005h
//! reads as HALT, which ends the batch there; the host takes that HALT back (PC, the counter,
//! R, Q: the state before it) and serves the call as if it had stopped before the instruction.

use crate::z80::{Bus, Cpu, Exit, FlatBus, TStates};
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use thiserror::Error;

/// Where .COM programs are loaded.
pub const TPA: u16 = 0x0100;
/// Where the BDOS lives; the word at 0006h points here.
pub const BDOS: u16 = 0xFE00;
/// The largest .COM program that fits between TPA and BDOS.
pub const MAX_PROGRAM: usize = (BDOS - TPA) as usize;

/// The cycle limit of `z80chess cpm` unless `--max-cycles` says otherwise: 10^11 T-states,
/// about twice what zexall takes (4.6 * 10^10), a few minutes of host time.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000_000;

/// Why a CP/M run did not end normally.
#[derive(Debug, Error)]
pub enum CpmError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("the program is {size} bytes; at most {max} fit between 0100h and the BDOS at FE00h")]
    TooLarge { size: usize, max: usize },
    #[error("the program is empty")]
    Empty,
    #[error("unsupported BDOS function {function} (C = {function:#04x}) called from {caller:#06x}; supported: 0, 2, 9")]
    UnknownBdos { function: u8, caller: u16 },
    #[error(
        "cycle limit of {limit} T-states reached at PC = {pc:#06x} without the program ending"
    )]
    CycleLimit { limit: u64, pc: u16 },
    #[error("the CPU halted at {pc:#06x} with interrupts disabled: it can never continue")]
    Halted { pc: u16 },
    #[error("writing the program's output failed: {0}")]
    Output(#[from] std::io::Error),
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpmExit {
    /// BDOS function 0 (system reset).
    SystemReset,
    /// A jump to 0000h (warm boot).
    WarmBoot,
}

/// The result of a finished run.
#[derive(Debug, Clone)]
pub struct CpmRun {
    pub exit: CpmExit,
    pub tstates: u64,
    pub cpu: Cpu,
}

/// Run `program` (the bytes of a .COM file), writing what it prints to `out`.
pub fn run(
    program: &[u8],
    max_cycles: Option<u64>,
    out: &mut dyn Write,
) -> Result<CpmRun, CpmError> {
    if program.is_empty() {
        return Err(CpmError::Empty);
    }
    if program.len() > MAX_PROGRAM {
        return Err(CpmError::TooLarge {
            size: program.len(),
            max: MAX_PROGRAM,
        });
    }
    let mut bus = CpmBus {
        flat: FlatBus::default(),
        armed: true,
    };
    let mem = &mut bus.flat.mem;
    mem[TPA as usize..TPA as usize + program.len()].copy_from_slice(program);
    mem[0x0000] = 0xC3; // JP 0000h is never executed: PC = 0 ends the run
    mem[0x0005] = 0xC3; // JP BDOS
    mem[0x0006..0x0008].copy_from_slice(&BDOS.to_le_bytes());
    mem[BDOS as usize] = 0xC9; // RET
    let mut cpu = Cpu::new();
    cpu.pc = TPA;
    // The stack starts below the BDOS holding 0000h, so a RET from the program's top level
    // is a warm boot, as CP/M arranges (memory is zero there already).
    cpu.sp = BDOS - 2;
    let limit = max_cycles.unwrap_or(u64::MAX);
    loop {
        match cpu.pc {
            0x0000 => {
                return Ok(CpmRun {
                    exit: CpmExit::WarmBoot,
                    tstates: cpu.t,
                    cpu,
                })
            }
            0x0005 => match cpu.c {
                0 => {
                    return Ok(CpmRun {
                        exit: CpmExit::SystemReset,
                        tstates: cpu.t,
                        cpu,
                    })
                }
                2 => out.write_all(&[cpu.e])?,
                9 => {
                    let mut a = cpu.de();
                    let mut text = Vec::new();
                    // A string without '$' would wrap around memory: stop after 64 KiB.
                    for _ in 0..0x10000 {
                        let ch = bus.peek(a);
                        if ch == b'$' {
                            break;
                        }
                        text.push(ch);
                        a = a.wrapping_add(1);
                    }
                    out.write_all(&text)?;
                }
                function => {
                    let caller =
                        u16::from_le_bytes([bus.peek(cpu.sp), bus.peek(cpu.sp.wrapping_add(1))]);
                    return Err(CpmError::UnknownBdos {
                        function,
                        caller: caller.wrapping_sub(3),
                    });
                }
            },
            _ => {}
        }
        if cpu.halted && !cpu.iff1 {
            return Err(CpmError::Halted {
                pc: cpu.pc.wrapping_sub(1),
            });
        }
        if cpu.t >= limit {
            return Err(CpmError::CycleLimit { limit, pc: cpu.pc });
        }
        if cpu.pc == 0x0005 {
            // The JP BDOS itself, past the trap.
            bus.armed = false;
            cpu.run(&mut bus, cpu.t + 1);
            bus.armed = true;
        } else if let Exit::Halted {
            pc: pc @ (0x0000 | 0x0005),
        } = cpu.run(&mut bus, limit)
        {
            // The trap's HALT, taken back.
            cpu.pc = pc;
            cpu.halted = false;
            cpu.t -= 4;
            cpu.r = (cpu.r & 0x80) | (cpu.r.wrapping_sub(1) & 0x7F);
            cpu.q = cpu.prev_q;
        }
    }
}

/// The CP/M frame's memory: flat, but while armed an opcode fetch at 0000h or 0005h reads as
/// HALT (0x76), which ends [`Cpu::run`]'s batch before the host's trap addresses.
struct CpmBus {
    flat: FlatBus,
    armed: bool,
}

impl Bus for CpmBus {
    #[inline(always)]
    fn fetch(&mut self, addr: u16, _t: TStates) -> u8 {
        if (addr == 0x0000 || addr == 0x0005) && self.armed {
            0x76
        } else {
            self.flat.mem[addr as usize]
        }
    }
    #[inline(always)]
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        self.flat.read(addr, t)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        self.flat.write(addr, value, t)
    }
    #[inline(always)]
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        self.flat.port_in(port, t)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        self.flat.port_out(port, value, t)
    }
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.flat.peek(addr)
    }
}

/// `z80chess cpm PROGRAM.COM [--max-cycles N]`: N T-states at most (0: no limit).
pub fn cli(program: &Path, max_cycles: u64) -> Result<(), String> {
    let max_cycles = (max_cycles != 0).then_some(max_cycles);
    let bytes = crate::userfile::read(program, crate::userfile::MAX_FILE).map_err(|e| {
        CpmError::Read {
            path: program.display().to_string(),
            source: e.into_io(),
        }
        .to_string()
    })?;
    let stdout = std::io::stdout();
    let mut out = LineFlush(stdout.lock());
    let start = Instant::now();
    let result = run(&bytes, max_cycles, &mut out);
    let secs = start.elapsed().as_secs_f64();
    out.flush().map_err(|e| e.to_string())?;
    let run = result.map_err(|e| e.to_string())?;
    let mhz = run.tstates as f64 / secs.max(1e-9) / 1e6;
    println!();
    println!(
        "cpm: {} after {} T-states ({:.3} s at 2 MHz, {:.3} s here: {:.1} emulated MHz)",
        match run.exit {
            CpmExit::SystemReset => "BDOS 0",
            CpmExit::WarmBoot => "warm boot",
        },
        run.tstates,
        run.tstates as f64 / 2e6,
        secs,
        mhz
    );
    Ok(())
}

/// Flush at every newline, so a long exerciser shows its progress.
struct LineFlush<W: Write>(W);

impl<W: Write> Write for LineFlush<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(buf)?;
        if buf[..n].contains(&b'\n') {
            self.0.flush()?;
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
