//! The period computer around the Z80: 16 KiB of ROM, 8 KiB of RAM, the host ports, a clock.
//!
//! ```text
//!   0000h-3FFFh  ROM  (writes are a fault)
//!   4000h-5FFFh  RAM
//!   6000h-FFFFh  unmapped (reads FFh, writes are a fault)
//!
//!   port 00h  data: IN = next host byte, OUT = byte to the host
//!   port 01h  status: bit 0 = a host byte is waiting, bit 1 = "move now"
//!   port 02h  poll: bit 1 = "move now" (never stops the machine)
//!   port FFh  OUT = stop the machine (routine tests end with it)
//! ```
//!
//! The machine runs whole instructions until something needs the host: the firmware polled
//! the status port with no byte waiting ([`StopReason::InputNeeded`]), a test program wrote
//! the exit port, a fault, a HALT with interrupts off, or the T-state budget ran out. Those are
//! stop reasons, not errors. Knows Z80s, memory and ports, not chess.

use crate::z80::{Bus, Cpu, TStates};
use std::collections::VecDeque;
use thiserror::Error;

pub const ROM_SIZE: usize = 0x4000;
pub const RAM_START: u16 = 0x4000;
pub const RAM_END: u16 = 0x6000;
pub const PORT_DATA: u8 = 0x00;
pub const PORT_STATUS: u8 = 0x01;
pub const PORT_POLL: u8 = 0x02;
pub const PORT_EXIT: u8 = 0xFF;
/// The clock of the period machine.
pub const PERIOD_HZ: u64 = 2_000_000;

/// A bus access the machine's map does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A write into the ROM.
    RomWrite { addr: u16, pc: u16 },
    /// A write to an address no memory answers.
    UnmappedWrite { addr: u16, pc: u16 },
    /// A read of the data port with no host byte waiting (the firmware must poll first).
    DataUnderflow { pc: u16 },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::RomWrite { addr, pc } => {
                write!(f, "write to ROM at {addr:04X}h (instruction at {pc:04X}h)")
            }
            Fault::UnmappedWrite { addr, pc } => {
                write!(
                    f,
                    "write to unmapped memory at {addr:04X}h (instruction at {pc:04X}h)"
                )
            }
            Fault::DataUnderflow { pc } => {
                write!(
                    f,
                    "data port read with no host byte waiting (instruction at {pc:04X}h)"
                )
            }
        }
    }
}

/// Why [`Machine::run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The firmware is waiting for the host (it polled the status port and found nothing).
    InputNeeded,
    /// A program wrote this value to the exit port.
    Exit(u8),
    /// HALT with interrupts disabled: nothing can wake the machine.
    Halted,
    /// The T-state budget of this run is spent.
    CycleLimit,
    /// A bus access outside the memory map.
    Fault(Fault),
    /// The observer asked to stop (a breakpoint, a watchpoint, a step count...).
    Observer,
}

/// Watches a run without changing it: the debugger and the profiler are observers.
/// Every method has a no-op default; `Machine::run` uses none at all, so the plain path
/// pays nothing. Returning `true` from `before`/`after`/`access` stops the run
/// ([`StopReason::Observer`]): before the instruction for `before`, after it otherwise.
pub trait Observer {
    /// Before the instruction at `cpu.pc` (interrupt acceptance counts as an instruction).
    #[inline(always)]
    fn before(&mut self, _cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        false
    }
    /// After it, with the state it left.
    #[inline(always)]
    fn after(&mut self, _cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        false
    }
    /// A bus access during the instruction: memory or port, read or write, with the T-state
    /// at which its machine cycle starts. For a memory write, `old` is the byte it replaces.
    #[inline(always)]
    fn access(&mut self, _access: Access) -> bool {
        false
    }
}

/// One bus access, as an [`Observer`] sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub kind: AccessKind,
    pub addr: u16,
    pub value: u8,
    /// The byte a memory write replaced (equal to `value` otherwise).
    pub old: u8,
    pub t: TStates,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Fetch,
    Read,
    Write,
    PortIn,
    PortOut,
}

/// The machine's bus seen through an observer.
struct ObservedBus<'a, O: Observer> {
    bus: &'a mut MachineBus,
    obs: &'a mut O,
    stop: bool,
}

impl<O: Observer> ObservedBus<'_, O> {
    #[inline(always)]
    fn note(&mut self, kind: AccessKind, addr: u16, value: u8, old: u8, t: TStates) {
        if self.obs.access(Access {
            kind,
            addr,
            value,
            old,
            t,
        }) {
            self.stop = true;
        }
    }
}

impl<O: Observer> Bus for ObservedBus<'_, O> {
    fn fetch(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.bus.fetch(addr, t);
        self.note(AccessKind::Fetch, addr, v, v, t);
        v
    }
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.bus.read(addr, t);
        self.note(AccessKind::Read, addr, v, v, t);
        v
    }
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        let old = self.bus.peek(addr);
        self.bus.write(addr, value, t);
        self.note(AccessKind::Write, addr, value, old, t);
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        let v = self.bus.port_in(port, t);
        self.note(AccessKind::PortIn, port, v, v, t);
        v
    }
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        self.bus.port_out(port, value, t);
        self.note(AccessKind::PortOut, port, value, value, t);
    }
    fn int_ack(&mut self, t: TStates) -> u8 {
        self.bus.int_ack(t)
    }
    fn idle(&mut self, addr: u16, n: u32, t: TStates) {
        self.bus.idle(addr, n, t)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }
}

/// A ROM image the machine cannot take.
#[derive(Debug, Error)]
pub enum RomError {
    #[error("the ROM image is empty")]
    Empty,
    #[error("the ROM image is {0} bytes; the machine has {ROM_SIZE} bytes of ROM")]
    TooLarge(usize),
}

/// Memory and ports as the CPU sees them.
#[derive(Clone)]
pub struct MachineBus {
    pub mem: Box<[u8; 0x10000]>,
    input: VecDeque<u8>,
    output: Vec<u8>,
    /// The host asks the search to stop (status bit 1).
    pub move_now: bool,
    stop: Option<StopReason>,
    /// PC of the instruction being executed (for fault reports).
    pc: u16,
}

impl MachineBus {
    fn new() -> Self {
        let mut mem = Box::new([0u8; 0x10000]);
        mem[RAM_END as usize..].fill(0xFF);
        MachineBus {
            mem,
            input: VecDeque::new(),
            output: Vec::new(),
            move_now: false,
            stop: None,
            pc: 0,
        }
    }
}

impl Bus for MachineBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: TStates) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: TStates) {
        if (RAM_START..RAM_END).contains(&addr) {
            self.mem[addr as usize] = value;
        } else if self.stop.is_none() {
            let pc = self.pc;
            self.stop = Some(StopReason::Fault(if (addr as usize) < ROM_SIZE {
                Fault::RomWrite { addr, pc }
            } else {
                Fault::UnmappedWrite { addr, pc }
            }));
        }
    }
    fn port_in(&mut self, port: u16, _t: TStates) -> u8 {
        match port as u8 {
            PORT_STATUS => {
                if self.input.is_empty() && self.stop.is_none() {
                    self.stop = Some(StopReason::InputNeeded);
                }
                (!self.input.is_empty()) as u8 | ((self.move_now as u8) << 1)
            }
            PORT_POLL => (self.move_now as u8) << 1,
            PORT_DATA => match self.input.pop_front() {
                Some(b) => b,
                None => {
                    if self.stop.is_none() {
                        self.stop = Some(StopReason::Fault(Fault::DataUnderflow { pc: self.pc }));
                    }
                    0xFF
                }
            },
            _ => 0xFF,
        }
    }
    fn port_out(&mut self, port: u16, value: u8, _t: TStates) {
        match port as u8 {
            PORT_DATA => self.output.push(value),
            PORT_EXIT => {
                if self.stop.is_none() {
                    self.stop = Some(StopReason::Exit(value));
                }
            }
            _ => {}
        }
    }
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

/// CPU + memory + ports + clock. Cloning it is a complete snapshot (the debugger's reverse
/// execution re-runs forward from such clones).
#[derive(Clone)]
pub struct Machine {
    pub cpu: Cpu,
    pub bus: MachineBus,
}

impl Machine {
    /// A machine with `rom` at 0000h, reset.
    pub fn new(rom: &[u8]) -> Result<Machine, RomError> {
        if rom.is_empty() {
            return Err(RomError::Empty);
        }
        if rom.len() > ROM_SIZE {
            return Err(RomError::TooLarge(rom.len()));
        }
        let mut bus = MachineBus::new();
        bus.mem[..rom.len()].copy_from_slice(rom);
        Ok(Machine {
            cpu: Cpu::new(),
            bus,
        })
    }

    /// Queue bytes for the firmware to read.
    pub fn send(&mut self, bytes: &[u8]) {
        self.bus.input.extend(bytes);
    }

    /// Bytes the firmware has written since the last call.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bus.output)
    }

    /// Bytes the firmware has written since the last [`Machine::take_output`] (not taken).
    pub fn output(&self) -> &[u8] {
        &self.bus.output
    }

    /// Bytes queued for the firmware and not read yet.
    pub fn pending_input(&self) -> usize {
        self.bus.input.len()
    }

    /// Run whole instructions until a stop reason, spending at most `budget` T-states.
    pub fn run(&mut self, budget: TStates) -> StopReason {
        let limit = self.cpu.t.saturating_add(budget);
        loop {
            if self.cpu.t >= limit {
                return StopReason::CycleLimit;
            }
            self.bus.pc = self.cpu.pc;
            self.cpu.step(&mut self.bus);
            if let Some(stop) = self.bus.stop.take() {
                return stop;
            }
            if self.cpu.halted && !self.cpu.iff1 {
                return StopReason::Halted;
            }
        }
    }

    /// [`Machine::run`] with an observer watching every instruction and bus access.
    pub fn run_observed<O: Observer>(&mut self, budget: TStates, obs: &mut O) -> StopReason {
        let limit = self.cpu.t.saturating_add(budget);
        loop {
            if self.cpu.t >= limit {
                return StopReason::CycleLimit;
            }
            if obs.before(&self.cpu, &self.bus.mem) {
                return StopReason::Observer;
            }
            self.bus.pc = self.cpu.pc;
            let mut ob = ObservedBus {
                bus: &mut self.bus,
                obs,
                stop: false,
            };
            self.cpu.step(&mut ob);
            let watch = ob.stop;
            if let Some(stop) = self.bus.stop.take() {
                return stop;
            }
            if obs.after(&self.cpu, &self.bus.mem) || watch {
                return StopReason::Observer;
            }
            if self.cpu.halted && !self.cpu.iff1 {
                return StopReason::Halted;
            }
        }
    }

    /// Emulated seconds of `t` T-states at the period clock.
    pub fn seconds(t: TStates, clock_hz: u64) -> f64 {
        t as f64 / clock_hz as f64
    }
}
