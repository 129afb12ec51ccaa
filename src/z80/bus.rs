//! The Z80's only window on the world: a bus whose methods are named after the
//! machine cycles the chip runs, each told the T-state at which it begins.
//!
//! | method      | M-cycle                      | length | active pins (T after start) |
//! |-------------|------------------------------|--------|-----------------------------|
//! | `fetch`     | M1 opcode fetch + refresh    | 4 T    | RD MREQ M1 at +1            |
//! | `read`      | memory read                  | 3 T    | RD MREQ at +1               |
//! | `write`     | memory write                 | 3 T    | WR MREQ at +1               |
//! | `port_in`   | I/O read (one wait state)    | 4 T    | RD IORQ at +2               |
//! | `port_out`  | I/O write (one wait state)   | 4 T    | WR IORQ at +2               |
//! | `int_ack`   | interrupt acknowledge M1     | 6 T*   | M1 IORQ                     |
//! | `idle`      | internal cycles              | n T    | none                        |
//!
//! (*) the acknowledge cycle is 4 T plus two automatic wait states. The CPU runs it when it
//! accepts an interrupt, before the next instruction of [`Cpu::step`](super::Cpu::step) or
//! [`Cpu::run`](super::Cpu::run): a machine asserts /INT by setting
//! [`Cpu::int_line`](super::Cpu::int_line) (or raises an NMI with
//! [`Cpu::nmi_pending`](super::Cpu::nmi_pending)), and the byte it answers with comes from
//! [`Bus::int_ack`].
//!
//! The CPU adds the cycle lengths to its own counter, so a bus that ignores `t`
//! costs nothing for timing: every method is `#[inline]`-able and generic.

/// A count of Z80 clock periods.
pub type TStates = u64;

/// What the CPU needs from the machine around it.
pub trait Bus {
    /// M1 opcode fetch at `addr`, starting at T-state `t` (4 T).
    #[inline(always)]
    fn fetch(&mut self, addr: u16, t: TStates) -> u8 {
        self.read(addr, t)
    }
    /// Memory read cycle (3 T).
    fn read(&mut self, addr: u16, t: TStates) -> u8;
    /// Memory write cycle (3 T).
    fn write(&mut self, addr: u16, value: u8, t: TStates);
    /// I/O read cycle (4 T); `port` is the full 16-bit address bus.
    fn port_in(&mut self, port: u16, t: TStates) -> u8;
    /// I/O write cycle (4 T).
    fn port_out(&mut self, port: u16, value: u8, t: TStates);
    /// Interrupt acknowledge: the byte the device puts on the data bus
    /// (IM 0: the opcode to execute; IM 2: the low byte of the vector address).
    #[inline(always)]
    fn int_ack(&mut self, _t: TStates) -> u8 {
        0xFF
    }
    /// `n` internal T-states with `addr` on the address bus (no pins active).
    #[inline(always)]
    fn idle(&mut self, _addr: u16, _n: u32, _t: TStates) {}
    /// Side-effect-free read for debuggers and disassemblers.
    fn peek(&self, addr: u16) -> u8;
    /// [`Cpu::run`](super::Cpu::run) stops before an instruction that would start at or after
    /// this T-state. A bus that must stop the machine (a port write, a fault, a watched access)
    /// lowers it to 0 when that happens: the run ends after the instruction in progress, with
    /// no other test per instruction.
    #[inline(always)]
    fn deadline(&self) -> TStates {
        TStates::MAX
    }
    /// [`Cpu::run`](super::Cpu::run) stops before an instruction at `pc` for which this is
    /// true (a breakpoint), returning [`Exit::Break`](super::Exit::Break), except the first
    /// instruction of the run: a run started at a breakpoint leaves it. The default stops
    /// nowhere and folds away; behind `dyn Bus` it costs a call per instruction.
    #[inline(always)]
    fn stops_before(&self, _pc: u16) -> bool {
        false
    }
}

/// The simplest machine: 64 KiB of RAM, ports that read as 0xFF and swallow writes.
#[derive(Clone)]
pub struct FlatBus {
    pub mem: Box<[u8; 0x10000]>,
}

impl Default for FlatBus {
    fn default() -> Self {
        FlatBus {
            mem: Box::new([0; 0x10000]),
        }
    }
}

impl Bus for FlatBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: TStates) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: TStates) {
        self.mem[addr as usize] = value;
    }
    #[inline(always)]
    fn port_in(&mut self, _port: u16, _t: TStates) -> u8 {
        0xFF
    }
    #[inline(always)]
    fn port_out(&mut self, _port: u16, _value: u8, _t: TStates) {}
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}
