//! The interpreter.
//!
//! Each opcode is decoded by its fields, as in the classic table:
//!
//! ```text
//!   7 6 5 4 3 2 1 0
//!  [ x ][  y  ][ z ]      p = y >> 1, q = y & 1
//! ```
//!
//! `exec_main` is instantiated three times by a const parameter saying what "HL" means
//! (HL, IX or IY), so the DD/FD pages are the unprefixed page with HL, H, L and (HL) replaced
//! (H/L by IXH/IXL, (HL) by (IX+d) with the real H/L kept beside it), at no run-time cost.
//!
//! The fields are decoded at compile time, not run time: the opcode is a const parameter of
//! the decoders (`exec_main`, `exec_cb_op`, `exec_ed_op`), and `by_opcode!` matches a run-time
//! opcode against its 256 values and calls the (always inlined) decoder for that value in
//! each arm, so each arm is only its own instruction's code and each page (unprefixed, DD, FD,
//! CB, ED) costs one jump through a table. Decoding the fields at run time takes two or three
//! data-dependent jumps per instruction (measured about 1.3x slower on the emulator bench).
//!
//! The opcode is a const parameter rather than a literal argument because rustc emits only
//! the match arms a constant selects: each decoder instance reaches LLVM as one instruction's
//! code, where a literal argument handed LLVM's always-inliner the whole decoder once per
//! opcode, page and bus type to clone and then prune (it was most of the library's build).
//!
//! Two paths run the same instructions with the same bus cycles: [`Cpu::step`] runs one
//! instruction (or accepts an interrupt) through `Core::dispatch`, and [`Cpu::run`] runs the
//! common case (no NMI, /INT not asserted, not halted) in a batch loop of threaded handlers,
//! one function per opcode of each page, each ending in a jump to the next instruction's
//! (see `Cpu::batch`); the bus-equivalence tests check that the two agree on every opcode of
//! every page.
//!
//! Every machine cycle goes through `Bus` with its starting T-state; internal cycles through
//! `Bus::idle`. The T-states of each instruction are the sum of its cycles; `tests/cpu/isa.rs`
//! proves they equal the table in `isa.rs`.

use super::bus::{Bus, TStates};
use super::cpu::{load16, Cpu};
use super::flags::*;

const HL: u8 = 0;
const IX: u8 = 1;
const IY: u8 = 2;

/// `all_opcodes!(m!(args))` is `m!(args; 0x00 0x01 ... 0xFF)`: the 256 opcodes as literals, for
/// the dispatch's `match` and the handler table.
macro_rules! all_opcodes {
    ($m:ident!($($args:tt)*)) => {
        $m!($($args)*;
            0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0A 0x0B 0x0C 0x0D 0x0E 0x0F
            0x10 0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1A 0x1B 0x1C 0x1D 0x1E 0x1F
            0x20 0x21 0x22 0x23 0x24 0x25 0x26 0x27 0x28 0x29 0x2A 0x2B 0x2C 0x2D 0x2E 0x2F
            0x30 0x31 0x32 0x33 0x34 0x35 0x36 0x37 0x38 0x39 0x3A 0x3B 0x3C 0x3D 0x3E 0x3F
            0x40 0x41 0x42 0x43 0x44 0x45 0x46 0x47 0x48 0x49 0x4A 0x4B 0x4C 0x4D 0x4E 0x4F
            0x50 0x51 0x52 0x53 0x54 0x55 0x56 0x57 0x58 0x59 0x5A 0x5B 0x5C 0x5D 0x5E 0x5F
            0x60 0x61 0x62 0x63 0x64 0x65 0x66 0x67 0x68 0x69 0x6A 0x6B 0x6C 0x6D 0x6E 0x6F
            0x70 0x71 0x72 0x73 0x74 0x75 0x76 0x77 0x78 0x79 0x7A 0x7B 0x7C 0x7D 0x7E 0x7F
            0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x87 0x88 0x89 0x8A 0x8B 0x8C 0x8D 0x8E 0x8F
            0x90 0x91 0x92 0x93 0x94 0x95 0x96 0x97 0x98 0x99 0x9A 0x9B 0x9C 0x9D 0x9E 0x9F
            0xA0 0xA1 0xA2 0xA3 0xA4 0xA5 0xA6 0xA7 0xA8 0xA9 0xAA 0xAB 0xAC 0xAD 0xAE 0xAF
            0xB0 0xB1 0xB2 0xB3 0xB4 0xB5 0xB6 0xB7 0xB8 0xB9 0xBA 0xBB 0xBC 0xBD 0xBE 0xBF
            0xC0 0xC1 0xC2 0xC3 0xC4 0xC5 0xC6 0xC7 0xC8 0xC9 0xCA 0xCB 0xCC 0xCD 0xCE 0xCF
            0xD0 0xD1 0xD2 0xD3 0xD4 0xD5 0xD6 0xD7 0xD8 0xD9 0xDA 0xDB 0xDC 0xDD 0xDE 0xDF
            0xE0 0xE1 0xE2 0xE3 0xE4 0xE5 0xE6 0xE7 0xE8 0xE9 0xEA 0xEB 0xEC 0xED 0xEE 0xEF
            0xF0 0xF1 0xF2 0xF3 0xF4 0xF5 0xF6 0xF7 0xF8 0xF9 0xFA 0xFB 0xFC 0xFD 0xFE 0xFF
        )
    };
}

/// `by_opcode!(op, N => body)`: a 256-arm match on `op` in which each arm runs `body` with
/// the const item `N` set to that arm's value (so `body` can pass it as a const parameter),
/// and the match compiles to one jump through a table.
macro_rules! by_opcode {
    ($op:expr, $n:ident => $body:expr) => {
        all_opcodes!(by_opcode!(@arms $op, $n, $body))
    };
    (@arms $op:expr, $n:ident, $body:expr; $($lit:literal)*) => {
        match $op {
            $($lit => {
                const $n: u8 = $lit;
                $body
            })*
        }
    };
}

/// The batch loop's handlers: one function per opcode of each page (the unprefixed page and
/// the CB, ED, DD and FD pages, see [`Handlers`]), called with the T counter, the PC register
/// (PC and the M1 counter, see [`M1_SHIFT`]), A and F in argument registers and returning T
/// and the PC register in two (see [`Cpu::batch`]).
type Handler<B> = fn(&mut Cpu, &mut B, TStates, u64, u32, u32) -> (TStates, u64);

/// Tells the compiler that a handler's A and F arguments are bytes. They are passed as
/// `u32` (each producer converts a `u8`), and this lets a handler that leaves A or F alone
/// pass the register on as it came (an argument of type `u8` would be zero-extended again
/// before every jump, two instructions per handler).
#[inline(always)]
fn known_bytes(a: u32, f: u32) {
    // SAFETY: every `Handler` call passes `u8` values converted to `u32` (the batch loop
    // from the `Cpu`'s fields, each handler from its `Core`'s), so both are below 256.
    unsafe { std::hint::assert_unchecked(a < 0x100 && f < 0x100) }
}

/// The PC register of [`Core`] and of the handlers' chain: PC in bits 0-15, the M1 cycles R has not
/// counted yet from bit 28 up (R counts modulo 128: only the counter's low 7 bits are read), so an
/// opcode fetch is one add (`1 + M1_ONE`, an immediate that fits an x86 `add`, which a counter from
/// bit 31 up would not) and the counter needs no register of its own. Bits 16-27 take the carries
/// of PC wrapping past FFFFh and are never read: at most one per instruction, and the batch loop
/// clears them at each chain's start, whose [`CHAIN_T`] T-states hold at most 513 instructions,
/// well below the 4,096 they can count.
const M1_SHIFT: u32 = 28;
/// One M1 cycle in the PC register.
const M1_ONE: u64 = 1 << M1_SHIFT;
/// The M1 counter's bits of the PC register.
const M1_MASK: u64 = !0 << M1_SHIFT;

macro_rules! handler_table {
    ($f:ident, $B:ty) => {
        all_opcodes!(handler_table!(@list $f, $B))
    };
    ($f:ident, $B:ty, $page:literal) => {
        all_opcodes!(handler_table!(@page $f, $B, $page))
    };
    (@list $f:ident, $B:ty; $($lit:literal)*) => {
        [$($f::<$lit, $B> as Handler<$B>),*]
    };
    (@page $f:ident, $B:ty, $page:literal; $($lit:literal)*) => {
        [$($f::<$page, $lit, $B> as Handler<$B>),*]
    };
}

/// The handler tables of one bus type: the unprefixed page, and the CB, ED, DD and FD pages
/// (whose prefix's handler fetches the second opcode and jumps through them, so each
/// prefixed instruction ends in its own dispatch jump, predicted apart).
struct Handlers<B: ?Sized>(std::marker::PhantomData<B>);

impl<B: Bus + ?Sized> Handlers<B> {
    const MAIN: [Handler<B>; 256] = handler_table!(handle, B);
    const CB: [Handler<B>; 256] = handler_table!(handle_second, B, 0xCB);
    const ED: [Handler<B>; 256] = handler_table!(handle_second, B, 0xED);
    const DD: [Handler<B>; 256] = handler_table!(handle_second, B, 0xDD);
    const FD: [Handler<B>; 256] = handler_table!(handle_second, B, 0xFD);
}

/// The handler of the unprefixed opcode `N`, whose M1 cycle has been put on the bus at `t`
/// from the PC in `pcr` (the PC register, whose M1 counter does not count that fetch yet),
/// with A and F in `a` and `f`: runs the instruction (Q as [`chained_q`] finds it), then,
/// unless the counter has reached `cpu.end` or the bus's deadline, fetches the next opcode
/// and jumps to its handler (a call in tail position: LLVM makes it a jump, so each handler
/// ends in its own indirect jump and no loop is returned to); see [`chain`]. The prefixes CB,
/// ED, DD and FD put their M1 cycle on the bus, fetch the second opcode and jump to its
/// handler on that page ([`handle_second`]). At the chain's end returns the counter and the
/// PC register after its last instruction, and leaves that instruction's address in
/// `cpu.last`, the M1 count in `cpu.m1`, and A, F and Q in `cpu`.
///
/// The chain is bounded by `cpu.end` (see [`Cpu::batch`]), so a build in which the tail calls
/// stay calls still runs, with a frame per instruction (and per prefix) of a chain of at most
/// [`CHAIN_T`] T-states.
fn handle<const N: u8, B: Bus + ?Sized>(
    cpu: &mut Cpu,
    bus: &mut B,
    t: TStates,
    pcr: u64,
    a: u32,
    f: u32,
) -> (TStates, u64) {
    if N == 0xCB || N == 0xED {
        // The prefix's M1 cycle, then the second opcode's handler.
        let (t, pcr) = (t + 4, pcr.wrapping_add(1 + M1_ONE));
        let op = bus.fetch(pcr as u16, t) as usize;
        return if N == 0xCB {
            Handlers::<B>::CB[op](cpu, bus, t, pcr, a, f)
        } else {
            Handlers::<B>::ED[op](cpu, bus, t, pcr, a, f)
        };
    }
    if N == 0xDD || N == 0xFD {
        // The prefix's M1 cycle, then the DD or FD page's handler. The instruction starts
        // here: a run of prefixes (rare) finds its address in `cpu.last`, which the chain's
        // end overwrites.
        cpu.last = pcr as u16;
        // Q as the prefixed instruction sees it (the prefix leaves it as it was), found
        // from the counter here, kept where the next handler (or a run of prefixes) finds it.
        cpu.q = chained_q(cpu, t, f);
        cpu.q_from = t + 4;
        let (t, pcr) = (t + 4, pcr.wrapping_add(1 + M1_ONE));
        let op = bus.fetch(pcr as u16, t) as usize;
        return if N == 0xDD {
            Handlers::<B>::DD[op](cpu, bus, t, pcr, a, f)
        } else {
            Handlers::<B>::FD[op](cpu, bus, t, pcr, a, f)
        };
    }
    let prev_q = chained_q(cpu, t, f);
    let mut k = Core::chained(cpu, t, pcr, a, f);
    k.exec_main::<HL, N, B>(bus, prev_q);
    chain(k, bus, pcr as u16, straight_len(N))
}

/// The length of the unprefixed instruction `n` if the next instruction always follows it
/// (its start is then the next PC minus this), 0 if it can jump (DJNZ, JR, JP, CALL, RET,
/// RST, JP (HL)) or is a prefix.
///
/// It spares the chain's end a register: a handler that knows its instruction's length
/// finds where the instruction began from the next PC when the chain ends, instead of
/// keeping the PC it was entered with live across the instruction (which in handlers such as
/// LD (HL),A's costs a callee-saved register saved and restored around every instruction).
const fn straight_len(n: u8) -> u16 {
    match n {
        // DJNZ, JR, JR cc; RET, JP, CALL, JP (HL); the prefixes.
        0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0xC9 | 0xC3 | 0xCD | 0xE9 => 0,
        0xCB | 0xDD | 0xED | 0xFD => 0,
        // RET cc, JP cc, CALL cc, RST.
        _ if n & 0xC7 == 0xC0 || n & 0xC7 == 0xC2 || n & 0xC7 == 0xC4 || n & 0xC7 == 0xC7 => 0,
        // LD rp,nn; LD (nn),HL; LD HL,(nn); LD (nn),A; LD A,(nn).
        0x01 | 0x11 | 0x21 | 0x31 | 0x22 | 0x2A | 0x32 | 0x3A => 3,
        // LD r,n; ALU A,n; OUT (n),A; IN A,(n).
        _ if n & 0xC7 == 0x06 || n & 0xC7 == 0xC6 => 2,
        0xD3 | 0xDB => 2,
        _ => 1,
    }
}

/// The handler of `N` on the second page `PAGE` (CB, ED, DD or FD; see [`handle`]), entered
/// with `pcr` at `N` and `t` at its M1 cycle. After DD or FD, `N` runs with IX or IY for HL;
/// a further DD or FD starts a run of prefixes, of which the last counts.
fn handle_second<const PAGE: u8, const N: u8, B: Bus + ?Sized>(
    cpu: &mut Cpu,
    bus: &mut B,
    t: TStates,
    pcr: u64,
    a: u32,
    f: u32,
) -> (TStates, u64) {
    let prev_q = chained_q(cpu, t, f);
    if (PAGE == 0xDD || PAGE == 0xFD) && (N == 0xDD || N == 0xFD) {
        // A run of prefixes: the last one counts (as in `Cpu::step`), the instruction starts
        // at the first, whose address the prefix's handler left in `cpu.last`.
        let start = cpu.last;
        let mut k = Core::chained(cpu, t, pcr, a, f);
        k.exec_prefixed(bus, N, prev_q);
        return chain(k, bus, start, 0);
    }
    let mut k = Core::chained(cpu, t, pcr, a, f);
    match PAGE {
        0xCB => k.exec_cb_op::<N, B>(bus),
        0xED => k.exec_ed_op::<N, B>(bus),
        0xDD => k.exec_main::<IX, N, B>(bus, prev_q),
        _ => k.exec_main::<IY, N, B>(bus, prev_q),
    }
    // Every CB instruction is two bytes and none jumps (see `straight_len`).
    let len = if PAGE == 0xCB { 2 } else { 0 };
    chain(k, bus, (pcr as u16).wrapping_sub(1), len)
}

/// Q for the chained instruction whose first M1 cycle is at `t`, with F `f`: the handlers do not
/// store Q each instruction (a store per instruction for the sake of SCF, CCF and HALT alone); one
/// that writes F leaves the counter at its end in `cpu.q_at` (Q is then F, the only write to F
/// after which is POP AF or EX AF,AF', which write no Q), and the first of a chain (or the
/// instruction after a DD/FD prefix) finds Q in `cpu.q`. Only SCF, CCF and HALT read it, so the
/// other handlers drop the loads.
#[inline(always)]
fn chained_q(cpu: &Cpu, t: TStates, f: u32) -> u8 {
    if t == cpu.q_from {
        cpu.q
    } else if t == cpu.q_at {
        f as u8
    } else {
        0
    }
}

/// A handler's end, after the instruction that began at `start` (or, if `len` is not 0, `len`
/// bytes before the next PC: see [`straight_len`]): unless the counter has reached `cpu.end`
/// or the bus's deadline, fetch the next opcode and jump to its handler; else store what the
/// chain carried and return.
#[inline(always)]
fn chain<B: Bus + ?Sized>(k: Core<'_>, bus: &mut B, start: u16, len: u16) -> (TStates, u64) {
    let (t, next, a, f) = (k.t, k.pcr, k.a, k.f);
    let wrote_f = k.wrote_f;
    let cpu = k.cpu;
    if wrote_f {
        cpu.q_at = t;
    }
    if t >= cpu.end || t >= bus.deadline() || bus.stops_before(next as u16) {
        cpu.q = if wrote_f { f } else { 0 };
        cpu.last = if len != 0 {
            (next as u16).wrapping_sub(len)
        } else {
            start
        };
        cpu.m1 = (next >> M1_SHIFT) as u8;
        cpu.a = a;
        cpu.f = f;
        return (t, next);
    }
    let op = bus.fetch(next as u16, t);
    Handlers::<B>::MAIN[op as usize](cpu, bus, t, next, a as u32, f as u32)
}

/// The longest chain of handlers [`Cpu::batch`] starts, in T-states: its bound on the stack
/// if the tail calls are not made jumps (an unoptimised build), at most 512 frames.
const CHAIN_T: TStates = 2048;
// A chain's PC carries (one per instruction at most) stay below the M1 counter's bits.
const _: () = assert!(CHAIN_T / 4 + 1 < 1 << (M1_SHIFT - 16));

/// Why [`Cpu::run`] returned, with the address of the last instruction it ran (where a fault
/// the bus saw happened).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The counter reached the limit or the bus's deadline.
    Limit { pc: u16 },
    /// The instruction at `pc` left the CPU halted (HALT, or a HALT's NOP cycle).
    Halted { pc: u16 },
    /// The bus stops before the next instruction ([`Bus::stops_before`] of the CPU's PC);
    /// `pc` is the last instruction run.
    Break { pc: u16 },
}

impl Exit {
    /// The address of the last instruction run (or of the PC when an interrupt was accepted).
    pub fn pc(self) -> u16 {
        match self {
            Exit::Limit { pc } | Exit::Halted { pc } | Exit::Break { pc } => pc,
        }
    }
}

impl Cpu {
    /// Execute one instruction (all its prefixes) or accept one pending interrupt.
    ///
    /// Not `#[inline]`: the whole instruction set is one large function per bus type, which an
    /// inline hint would copy into every codegen unit that calls it.
    pub fn step<B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let mut k = Core::new(self);
        // One test for the rare cases (an NMI, the /INT line, HALT) keeps the common path short.
        if !((k.nmi_pending | k.int_line | k.halted) && k.step_event(bus)) {
            k.ei = false;
            k.p = false;
            k.instruction(bus);
        }
        k.finish();
    }

    /// [`Cpu::step`] over a bus behind `dyn Bus`: one copy of the instruction set, compiled
    /// in this crate, for every bus a caller does not need at full speed. Each generic call
    /// with a bus type of its own makes the compiler build the whole instruction set again in
    /// the calling crate (optimized builds share no generic code between crates); the tests'
    /// tracing buses call this one instead, so no test binary builds its own copy.
    #[inline(never)]
    pub fn step_dyn(&mut self, bus: &mut dyn Bus) {
        self.step(bus);
    }

    /// [`Cpu::run`] over a bus behind `dyn Bus`, for the reason [`Cpu::step_dyn`] gives: the
    /// batch loop's handler tables for `dyn Bus` exist once, in this crate.
    #[inline(never)]
    pub fn run_dyn(&mut self, bus: &mut dyn Bus, limit: TStates) -> Exit {
        self.run(bus, limit)
    }

    /// Run whole instructions until the counter reaches `t_end` (or passes it by the last
    /// instruction's length).
    pub fn run_until<B: Bus + ?Sized>(&mut self, bus: &mut B, t_end: u64) {
        while self.t < t_end {
            self.step(bus);
        }
    }

    /// Run whole instructions (and accept interrupts) while the counter is below both `limit`
    /// and the bus's [`Bus::deadline`], until an instruction leaves the CPU halted, or until
    /// the next instruction is one the bus stops before ([`Bus::stops_before`]; not the first).
    ///
    /// The same instructions as repeated [`Cpu::step`], with the same bus cycles, but the
    /// common case (no NMI, /INT not asserted, not halted) runs in a batch loop
    /// (`Cpu::batch`) whose only tests per instruction are the counter against the limit (or
    /// the end of a chain) and against the bus's deadline (a bus that must stop the machine
    /// lowers it, see [`Bus::deadline`]).
    pub fn run<B: Bus + ?Sized>(&mut self, bus: &mut B, limit: TStates) -> Exit {
        let mut last = self.pc;
        let mut first = true;
        loop {
            if self.t >= limit.min(bus.deadline()) {
                return Exit::Limit { pc: last };
            }
            if !first && bus.stops_before(self.pc) {
                return Exit::Break { pc: last };
            }
            first = false;
            if self.nmi_pending | self.int_line | self.halted {
                last = self.pc;
                let mut k = Core::new(self);
                let event = k.step_event(bus);
                k.finish();
                if !event {
                    // /INT is asserted but not accepted (DI, or the instruction after EI):
                    // one instruction, through the batch loop's handlers. Not `Cpu::step`,
                    // whose whole instruction set would be compiled again for every bus.
                    last = self.batch(bus, self.t + 1);
                }
            } else {
                last = self.batch(bus, limit);
            }
            if self.halted {
                return Exit::Halted { pc: last };
            }
        }
    }

    /// The batch loop of [`Cpu::run`]: entered with no NMI pending, /INT not asserted and the
    /// CPU not halted (none of which an instruction can change but HALT), below the limit; or,
    /// with /INT asserted but not accepted, for one instruction (a limit one T-state ahead).
    /// Returns the address of the last instruction it ran.
    ///
    /// It runs chains of threaded handlers, one function per opcode of each page
    /// ([`handle`], [`Handlers`]). A handler takes the T counter, the PC register (PC and the
    /// M1 counter R has not counted yet, [`M1_SHIFT`]), A and F in argument registers, runs its
    /// instruction in a [`Core`], tests the stops, fetches the next opcode and jumps to its
    /// handler (a call in tail position, which LLVM makes a jump: every handler of both buses
    /// ends in `jmp *(table,op,8)`), so there is no call, return or argument shuffle per
    /// instruction and each handler's dispatch jump is predicted apart. Each handler is
    /// register-allocated alone, so no spill choice over 256 opcodes puts PC in a stack slot.
    /// The rest of the register file lives in the `Cpu` behind the pointer (each register
    /// pair read and written as one 16-bit access, see [`Cpu`]); Q is not stored per
    /// instruction but found from the counter ([`chained_q`]).
    ///
    /// The stops are two compares: the counter against `self.end` and against the bus's
    /// deadline (and a bus's breakpoints, [`Bus::stops_before`], which only a bus that has
    /// them compiles in: the tests' and the debugger's behind `dyn Bus`). This loop sets `self.end` to the limit or the end of a chain of
    /// [`CHAIN_T`] T-states, whichever is first, and continues a chain that ended for that
    /// reason alone (so the stack stays bounded if the tail calls are not made jumps); HALT,
    /// EI and LD A,I/R lower it to 0, since their latches matter only when the batch ends.
    ///
    /// To keep it fast, check that every handler still ends in a jump (`objdump -d`: table
    /// jumps, no table calls) and time a change with `cargo bench --bench emulator`, `cargo
    /// bench --bench zexrace` and `z80chess bench`, alternating with the binary before it.
    /// What was tried, kept and dropped, with its figures and commands, is in
    /// `benches/README.md`, "The emulator and the period builds".
    #[inline(never)]
    fn batch<B: Bus + ?Sized>(&mut self, bus: &mut B, limit: TStates) -> u16 {
        debug_assert!(!self.halted);
        // The first instruction clears the EI and LD A,I/R latches; the instructions that set
        // them (and HALT) end the batch by lowering `end` to 0.
        self.ei = false;
        self.p = false;
        let mut t = self.t;
        let mut pc = self.pc;
        loop {
            let end = limit.min(t.saturating_add(CHAIN_T));
            self.end = end;
            self.q_from = t;
            let op = bus.fetch(pc, t);
            let pcr = pc as u64 | (self.m1 as u64) << M1_SHIFT;
            let next;
            (t, next) =
                Handlers::<B>::MAIN[op as usize](self, bus, t, pcr, self.a as u32, self.f as u32);
            pc = next as u16;
            if t >= limit || t >= bus.deadline() || self.end != end || bus.stops_before(pc) {
                break;
            }
        }
        self.pc = pc;
        self.t = t;
        let m1 = self.m1;
        self.r = (self.r & 0x80) | (self.r.wrapping_add(m1) & 0x7F);
        self.m1 = 0;
        self.end = 0;
        self.q_at = 0;
        self.q_from = 0;
        std::mem::take(&mut self.last)
    }
}

/// An instruction in progress: the registers most instructions touch (PC, the T counter, the
/// M1 counter R advances by, A, F, Q) in locals the compiler keeps in host registers while it
/// runs, the rest of the register file in the [`Cpu`] behind the pointer (a load or a store
/// where an instruction uses it). [`Cpu::step`] makes one per step; the batch loop's handlers
/// one per instruction, with T, the PC register, A and F carried between them in registers
/// (see [`Cpu::batch`]).
///
/// Its fields shadow the `Cpu` fields of the same names, which are stale while it runs; the
/// others are reached through `Deref` (`self.b`, `self.hl()`, `self.halted`), and so are the
/// `Cpu` methods that touch no hot register (`af`/`set_af` are shadowed below).
struct Core<'a> {
    /// PC in the low 16 bits, the M1 cycles run since R was last brought up to date from bit
    /// [`M1_SHIFT`] up: an opcode fetch is one add for both. Read PC with `pc()`, set
    /// it with `jump()`.
    pcr: u64,
    t: TStates,
    a: u8,
    f: u8,
    q: u8,
    /// The instruction wrote F (set with `q` by `setf`; the chain keeps this, not `q`).
    wrote_f: bool,
    cpu: &'a mut Cpu,
}

impl std::ops::Deref for Core<'_> {
    type Target = Cpu;
    #[inline(always)]
    fn deref(&self) -> &Cpu {
        self.cpu
    }
}

impl std::ops::DerefMut for Core<'_> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Cpu {
        self.cpu
    }
}

impl<'a> Core<'a> {
    #[inline(always)]
    fn new(cpu: &'a mut Cpu) -> Self {
        Core {
            pcr: cpu.pc as u64 | (cpu.m1 as u64) << M1_SHIFT,
            t: cpu.t,
            a: cpu.a,
            f: cpu.f,
            q: cpu.q,
            wrote_f: false,
            cpu,
        }
    }

    /// A handler's instruction, whose opcode at `pcr` has been fetched at `t`, with A and F
    /// carried along the chain.
    #[inline(always)]
    fn chained(cpu: &'a mut Cpu, t: TStates, pcr: u64, a: u32, f: u32) -> Self {
        known_bytes(a, f);
        Core {
            pcr: pcr.wrapping_add(1 + M1_ONE),
            t: t + 4,
            a: a as u8,
            f: f as u8,
            q: 0,
            wrote_f: false,
            cpu,
        }
    }

    /// Write the hot registers back (R brought up to date).
    #[inline(always)]
    fn finish(self) {
        let r = self.r_now();
        let pc = self.pc();
        let cpu = self.cpu;
        cpu.pc = pc;
        cpu.t = self.t;
        cpu.a = self.a;
        cpu.f = self.f;
        cpu.q = self.q;
        cpu.r = r;
        cpu.m1 = 0;
    }

    /// PC, from the PC register.
    #[inline(always)]
    fn pc(&self) -> u16 {
        self.pcr as u16
    }
    /// Set PC, keeping the M1 counter.
    #[inline(always)]
    fn jump(&mut self, to: u16) {
        self.pcr = (self.pcr & !0xFFFF) | to as u64;
    }

    #[inline(always)]
    fn af(&self) -> u16 {
        (self.a as u16) << 8 | self.f as u16
    }
    #[inline(always)]
    fn set_af(&mut self, v: u16) {
        self.a = (v >> 8) as u8;
        self.f = v as u8;
    }

    /// Write F and latch it in Q (every flag-writing instruction goes through here).
    #[inline(always)]
    fn setf(&mut self, f: u8) {
        self.f = f;
        self.q = f;
        self.wrote_f = true;
    }

    /// An M1 cycle: R's counter advances (added to R when the instruction is done).
    #[inline(always)]
    fn inc_r(&mut self) {
        self.pcr = self.pcr.wrapping_add(M1_ONE);
    }

    /// R as the instruction in progress sees it (the counter is R's 7 bits, modulo 128).
    #[inline(always)]
    fn r_now(&self) -> u8 {
        let r = self.cpu.r;
        (r & 0x80) | (r.wrapping_add((self.pcr >> M1_SHIFT) as u8) & 0x7F)
    }

    /// Flag helper: is the condition `cc` (0..7: NZ Z NC C PO PE P M) true?
    #[inline(always)]
    fn cond(&self, cc: u8) -> bool {
        let f = self.f;
        match cc {
            0 => f & Z == 0,
            1 => f & Z != 0,
            2 => f & C == 0,
            3 => f & C != 0,
            4 => f & PV == 0,
            5 => f & PV != 0,
            6 => f & S == 0,
            _ => f & S != 0,
        }
    }

    /// One instruction (all its prefixes): Q kept for SCF/CCF, then fetch and execute. (The
    /// EI and LD A,I/R latches are cleared by the caller: per step, or once per batch.)
    #[inline(always)]
    fn instruction<B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let prev_q = self.q;
        self.q = 0;
        let op = self.fetch_op(bus);
        self.dispatch::<HL, B>(bus, op, prev_q);
    }

    /// The step when an NMI is pending, /INT is asserted or the CPU is halted: accept the
    /// interrupt or run a HALT's NOP cycle and return true; false if the instruction at PC
    /// runs as usual (a masked /INT).
    #[cold]
    #[inline(never)]
    fn step_event<B: Bus + ?Sized>(&mut self, bus: &mut B) -> bool {
        if self.nmi_pending {
            self.accept_nmi(bus);
            return true;
        }
        if self.int_line && self.iff1 && !self.ei {
            self.accept_int(bus);
            return true;
        }
        if self.halted {
            self.ei = false;
            self.p = false;
            self.prev_q = self.q;
            self.q = 0;
            // HALT repeats NOP M1 cycles at the address after the HALT.
            let _ = bus.fetch(self.pc(), self.t);
            self.t += 4;
            self.inc_r();
            return true;
        }
        false
    }

    /// After a DD or FD prefix (`first`): any further DD/FD are ignored but the last, then the
    /// instruction runs with IX or IY for HL.
    #[inline(always)]
    fn exec_prefixed<B: Bus + ?Sized>(&mut self, bus: &mut B, first: u8, prev_q: u8) {
        let mut prefix = first;
        let mut op = self.fetch_op(bus);
        while op == 0xDD || op == 0xFD {
            prefix = op;
            op = self.fetch_op(bus);
        }
        if prefix == 0xDD {
            self.dispatch::<IX, B>(bus, op, prev_q);
        } else {
            self.dispatch::<IY, B>(bus, op, prev_q);
        }
    }

    /// `exec_main` with the opcode a constant in each arm: one jump through a 256-entry table,
    /// and each arm is that opcode's code alone (the field decoding folds away).
    #[inline(always)]
    fn dispatch<const I: u8, B: Bus + ?Sized>(&mut self, bus: &mut B, op: u8, prev_q: u8) {
        by_opcode!(op, OP => self.exec_main::<I, OP, B>(bus, prev_q))
    }
    // ----- machine cycles -------------------------------------------------------------

    #[inline(always)]
    fn fetch_op<B: Bus + ?Sized>(&mut self, bus: &mut B) -> u8 {
        let v = bus.fetch(self.pc(), self.t);
        // The next byte and one more M1 cycle for R, in one add.
        self.pcr = self.pcr.wrapping_add(1 + M1_ONE);
        self.t += 4;
        v
    }
    #[inline(always)]
    fn rd<B: Bus + ?Sized>(&mut self, bus: &mut B, addr: u16) -> u8 {
        let v = bus.read(addr, self.t);
        self.t += 3;
        v
    }
    #[inline(always)]
    fn wr<B: Bus + ?Sized>(&mut self, bus: &mut B, addr: u16, v: u8) {
        bus.write(addr, v, self.t);
        self.t += 3;
    }
    #[inline(always)]
    fn imm8<B: Bus + ?Sized>(&mut self, bus: &mut B) -> u8 {
        let v = self.rd(bus, self.pc());
        self.pcr = self.pcr.wrapping_add(1);
        v
    }
    #[inline(always)]
    fn imm16<B: Bus + ?Sized>(&mut self, bus: &mut B) -> u16 {
        let lo = self.imm8(bus);
        let hi = self.imm8(bus);
        u16::from_le_bytes([lo, hi])
    }
    #[inline(always)]
    fn idle<B: Bus + ?Sized>(&mut self, bus: &mut B, addr: u16, n: u32) {
        bus.idle(addr, n, self.t);
        self.t += n as u64;
    }
    #[inline(always)]
    fn pin<B: Bus + ?Sized>(&mut self, bus: &mut B, port: u16) -> u8 {
        let v = bus.port_in(port, self.t);
        self.t += 4;
        v
    }
    #[inline(always)]
    fn pout<B: Bus + ?Sized>(&mut self, bus: &mut B, port: u16, v: u8) {
        bus.port_out(port, v, self.t);
        self.t += 4;
    }
    #[inline(always)]
    fn push16<B: Bus + ?Sized>(&mut self, bus: &mut B, v: u16) {
        let [hi, lo] = v.to_be_bytes();
        let sp = load16(&self.sp).wrapping_sub(1);
        self.sp = sp;
        self.wr(bus, sp, hi);
        let sp = sp.wrapping_sub(1);
        self.sp = sp;
        self.wr(bus, sp, lo);
    }
    #[inline(always)]
    fn pop16<B: Bus + ?Sized>(&mut self, bus: &mut B) -> u16 {
        let sp = load16(&self.sp);
        let lo = self.rd(bus, sp);
        let sp = sp.wrapping_add(1);
        self.sp = sp;
        let hi = self.rd(bus, sp);
        self.sp = sp.wrapping_add(1);
        u16::from_le_bytes([lo, hi])
    }
    #[inline(always)]
    fn ir(&self) -> u16 {
        u16::from_be_bytes([self.i, self.r_now()])
    }

    // ----- registers as the prefix sees them --------------------------------------------

    #[inline(always)]
    fn xy<const I: u8>(&self) -> u16 {
        match I {
            HL => self.hl(),
            IX => load16(&self.ix),
            _ => load16(&self.iy),
        }
    }
    #[inline(always)]
    fn set_xy<const I: u8>(&mut self, v: u16) {
        match I {
            HL => self.set_hl(v),
            IX => self.ix = v,
            _ => self.iy = v,
        }
    }
    /// `r[z]` for z != 6: B C D E H L - A, with H/L read through the prefix.
    #[inline(always)]
    fn reg8<const I: u8>(&self, r: u8) -> u8 {
        match r {
            0 => self.b,
            1 => self.c,
            2 => self.d,
            3 => self.e,
            4 => (self.xy::<I>() >> 8) as u8,
            5 => self.xy::<I>() as u8,
            _ => self.a,
        }
    }
    #[inline(always)]
    fn set_reg8<const I: u8>(&mut self, r: u8, v: u8) {
        match r {
            0 => self.b = v,
            1 => self.c = v,
            2 => self.d = v,
            3 => self.e = v,
            4 => {
                let w = self.xy::<I>();
                self.set_xy::<I>((w & 0x00FF) | ((v as u16) << 8));
            }
            5 => {
                let w = self.xy::<I>();
                self.set_xy::<I>((w & 0xFF00) | v as u16);
            }
            _ => self.a = v,
        }
    }
    /// `rp[p]`: BC DE HL SP.
    #[inline(always)]
    fn rp<const I: u8>(&self, p: u8) -> u16 {
        match p {
            0 => self.bc(),
            1 => self.de(),
            2 => self.xy::<I>(),
            _ => load16(&self.sp),
        }
    }
    #[inline(always)]
    fn set_rp<const I: u8>(&mut self, p: u8, v: u16) {
        match p {
            0 => self.set_bc(v),
            1 => self.set_de(v),
            2 => self.set_xy::<I>(v),
            _ => self.sp = v,
        }
    }
    /// The address of the `(HL)` operand: HL, or IX+d / IY+d after reading d and the
    /// five internal T-states that add it (MEMPTR takes the sum).
    #[inline(always)]
    fn ea<const I: u8, B: Bus + ?Sized>(&mut self, bus: &mut B) -> u16 {
        if I == HL {
            self.hl()
        } else {
            let d = self.imm8(bus) as i8;
            let pc = self.pc().wrapping_sub(1);
            self.idle(bus, pc, 5);
            let a = self.xy::<I>().wrapping_add(d as u16);
            self.wz = a;
            a
        }
    }

    // ----- the ALU --------------------------------------------------------------------

    #[inline(always)]
    fn add8(&mut self, v: u8, carry: u8) {
        let a = self.a;
        let r16 = a as u16 + v as u16 + carry as u16;
        let r = r16 as u8;
        let f = SZ53[r as usize]
            | (r16 >> 8) as u8
            | ((a ^ v ^ r) & H)
            | ((((a ^ v ^ 0x80) & (v ^ r)) >> 5) & PV);
        self.a = r;
        self.setf(f);
    }
    #[inline(always)]
    fn sub8(&mut self, v: u8, carry: u8) -> u8 {
        let a = self.a;
        let r16 = (a as u16).wrapping_sub(v as u16).wrapping_sub(carry as u16);
        let r = r16 as u8;
        let f = SZ53[r as usize]
            | N
            | ((r16 >> 8) as u8 & C)
            | ((a ^ v ^ r) & H)
            | ((((a ^ v) & (a ^ r)) >> 5) & PV);
        self.setf(f);
        r
    }
    #[inline(always)]
    fn alu(&mut self, y: u8, v: u8) {
        match y {
            0 => self.add8(v, 0),
            1 => self.add8(v, self.f & C),
            2 => self.a = self.sub8(v, 0),
            3 => self.a = self.sub8(v, self.f & C),
            4 => {
                self.a &= v;
                self.setf(SZ53P[self.a as usize] | H);
            }
            5 => {
                self.a ^= v;
                self.setf(SZ53P[self.a as usize]);
            }
            6 => {
                self.a |= v;
                self.setf(SZ53P[self.a as usize]);
            }
            _ => {
                // CP: X and Y come from the operand, not the result.
                self.sub8(v, 0);
                let f = (self.f & !XY) | (v & XY);
                self.setf(f);
            }
        }
    }
    #[inline(always)]
    fn inc8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        let mut f = (self.f & C) | SZ53[r as usize];
        if r & 0x0F == 0 {
            f |= H;
        }
        if r == 0x80 {
            f |= PV;
        }
        self.setf(f);
        r
    }
    #[inline(always)]
    fn dec8(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        let mut f = (self.f & C) | N | SZ53[r as usize];
        if v & 0x0F == 0 {
            f |= H;
        }
        if v == 0x80 {
            f |= PV;
        }
        self.setf(f);
        r
    }
    #[inline(always)]
    fn add16(&mut self, a: u16, v: u16) -> u16 {
        let r32 = a as u32 + v as u32;
        let r = r32 as u16;
        let f = (self.f & (S | Z | PV))
            | ((r >> 8) as u8 & XY)
            | ((((a ^ v ^ r) >> 8) as u8) & H)
            | (r32 >> 16) as u8;
        self.setf(f);
        self.wz = a.wrapping_add(1);
        r
    }
    #[inline(always)]
    fn adc16(&mut self, v: u16) {
        let a = self.hl();
        let r32 = a as u32 + v as u32 + (self.f & C) as u32;
        let r = r32 as u16;
        let mut f = ((r >> 8) as u8 & (S | XY))
            | ((((a ^ v ^ r) >> 8) as u8) & H)
            | (r32 >> 16) as u8
            | (((((a ^ v ^ 0x8000) & (v ^ r)) >> 13) as u8) & PV);
        if r == 0 {
            f |= Z;
        }
        self.setf(f);
        self.wz = a.wrapping_add(1);
        self.set_hl(r);
    }
    #[inline(always)]
    fn sbc16(&mut self, v: u16) {
        let a = self.hl();
        let r32 = (a as u32)
            .wrapping_sub(v as u32)
            .wrapping_sub((self.f & C) as u32);
        let r = r32 as u16;
        let mut f = ((r >> 8) as u8 & (S | XY))
            | N
            | ((((a ^ v ^ r) >> 8) as u8) & H)
            | ((r32 >> 16) as u8 & C)
            | (((((a ^ v) & (a ^ r)) >> 13) as u8) & PV);
        if r == 0 {
            f |= Z;
        }
        self.setf(f);
        self.wz = a.wrapping_add(1);
        self.set_hl(r);
    }
    /// The CB-page rotates and shifts: RLC RRC RL RR SLA SRA SLL SRL.
    #[inline(always)]
    fn rot(&mut self, y: u8, v: u8) -> u8 {
        let (r, c) = match y {
            0 => (v.rotate_left(1), v >> 7),
            1 => (v.rotate_right(1), v & 1),
            2 => ((v << 1) | (self.f & C), v >> 7),
            3 => ((v >> 1) | ((self.f & C) << 7), v & 1),
            4 => (v << 1, v >> 7),
            5 => ((v >> 1) | (v & 0x80), v & 1),
            6 => ((v << 1) | 1, v >> 7),
            _ => (v >> 1, v & 1),
        };
        self.setf(SZ53P[r as usize] | c);
        r
    }
    /// BIT n: X and Y from `xy_src` (the register, or MEMPTR's high byte for memory).
    #[inline(always)]
    fn bit(&mut self, n: u8, v: u8, xy_src: u8) {
        let r = v & (1 << n);
        let mut f = (self.f & C) | H | (xy_src & XY) | (r & S);
        if r == 0 {
            f |= Z | PV;
        }
        self.setf(f);
    }
    #[inline(always)]
    fn daa(&mut self) {
        let a = self.a;
        let f = self.f;
        let mut diff = 0u8;
        let mut c = f & C;
        if f & H != 0 || a & 0x0F > 9 {
            diff |= 0x06;
        }
        if c != 0 || a > 0x99 {
            diff |= 0x60;
            c = C;
        }
        let (r, h) = if f & N != 0 {
            (a.wrapping_sub(diff), f & H != 0 && a & 0x0F < 6)
        } else {
            (a.wrapping_add(diff), a & 0x0F > 9)
        };
        self.a = r;
        self.setf(SZ53P[r as usize] | c | (f & N) | if h { H } else { 0 });
    }

    // ----- the unprefixed page (and DD/FD through I) --------------------------------

    // The CPU's executor is one decode by x/y/z: a function per page keeps the dispatch one
    // jump, so it is exempt from the crate's 120-line limit (clippy.toml).
    #[allow(clippy::too_many_lines)]
    #[inline(always)]
    /// `prev_q`: Q as it was when the instruction began (SCF and CCF read it).
    fn exec_main<const I: u8, const OP: u8, B: Bus + ?Sized>(&mut self, bus: &mut B, prev_q: u8) {
        let op = OP;
        let y = (op >> 3) & 7;
        let z = op & 7;
        let p = y >> 1;
        let q = y & 1;
        match op >> 6 {
            0 => match z {
                0 => match y {
                    0 => {}
                    1 => {
                        let af = self.af();
                        self.set_af(load16(&self.af_));
                        self.af_ = af;
                    }
                    2 => {
                        let ir = self.ir();
                        self.idle(bus, ir, 1);
                        self.b = self.b.wrapping_sub(1);
                        let e = self.imm8(bus) as i8;
                        if self.b != 0 {
                            self.jr(bus, e);
                        }
                    }
                    3 => {
                        let e = self.imm8(bus) as i8;
                        self.jr(bus, e);
                    }
                    _ => {
                        let e = self.imm8(bus) as i8;
                        if self.cond(y - 4) {
                            self.jr(bus, e);
                        }
                    }
                },
                1 => {
                    if q == 0 {
                        let v = self.imm16(bus);
                        self.set_rp::<I>(p, v);
                    } else {
                        let ir = self.ir();
                        self.idle(bus, ir, 7);
                        let r = self.add16(self.xy::<I>(), self.rp::<I>(p));
                        self.set_xy::<I>(r);
                    }
                }
                2 => match y {
                    0 | 2 => {
                        let a = if y == 0 { self.bc() } else { self.de() };
                        self.wr(bus, a, self.a);
                        self.wz = ((self.a as u16) << 8) | (a.wrapping_add(1) & 0xFF);
                    }
                    1 | 3 => {
                        let a = if y == 1 { self.bc() } else { self.de() };
                        self.a = self.rd(bus, a);
                        self.wz = a.wrapping_add(1);
                    }
                    4 => {
                        let a = self.imm16(bus);
                        let [hi, lo] = self.xy::<I>().to_be_bytes();
                        self.wr(bus, a, lo);
                        self.wr(bus, a.wrapping_add(1), hi);
                        self.wz = a.wrapping_add(1);
                    }
                    5 => {
                        let a = self.imm16(bus);
                        let lo = self.rd(bus, a);
                        let hi = self.rd(bus, a.wrapping_add(1));
                        self.set_xy::<I>(u16::from_le_bytes([lo, hi]));
                        self.wz = a.wrapping_add(1);
                    }
                    6 => {
                        let a = self.imm16(bus);
                        self.wr(bus, a, self.a);
                        self.wz = ((self.a as u16) << 8) | (a.wrapping_add(1) & 0xFF);
                    }
                    _ => {
                        let a = self.imm16(bus);
                        self.a = self.rd(bus, a);
                        self.wz = a.wrapping_add(1);
                    }
                },
                3 => {
                    let ir = self.ir();
                    self.idle(bus, ir, 2);
                    let v = self.rp::<I>(p);
                    let v = if q == 0 {
                        v.wrapping_add(1)
                    } else {
                        v.wrapping_sub(1)
                    };
                    self.set_rp::<I>(p, v);
                }
                4 | 5 => {
                    if y == 6 {
                        let a = self.ea::<I, B>(bus);
                        let v = self.rd(bus, a);
                        self.idle(bus, a, 1);
                        let r = if z == 4 { self.inc8(v) } else { self.dec8(v) };
                        self.wr(bus, a, r);
                    } else {
                        let v = self.reg8::<I>(y);
                        let r = if z == 4 { self.inc8(v) } else { self.dec8(v) };
                        self.set_reg8::<I>(y, r);
                    }
                }
                6 => {
                    if y == 6 {
                        if I == HL {
                            let n = self.imm8(bus);
                            let a = self.hl();
                            self.wr(bus, a, n);
                        } else {
                            let d = self.imm8(bus) as i8;
                            let n = self.imm8(bus);
                            let pc = self.pc().wrapping_sub(1);
                            self.idle(bus, pc, 2);
                            let a = self.xy::<I>().wrapping_add(d as u16);
                            self.wz = a;
                            self.wr(bus, a, n);
                        }
                    } else {
                        let n = self.imm8(bus);
                        self.set_reg8::<I>(y, n);
                    }
                }
                _ => self.exec_acc_op(y, prev_q),
            },
            1 => {
                if op == 0x76 {
                    self.halted = true;
                    self.prev_q = prev_q;
                    self.end = 0;
                } else if y == 6 {
                    let a = self.ea::<I, B>(bus);
                    let v = self.reg8::<HL>(z);
                    self.wr(bus, a, v);
                } else if z == 6 {
                    let a = self.ea::<I, B>(bus);
                    let v = self.rd(bus, a);
                    self.set_reg8::<HL>(y, v);
                } else {
                    let v = self.reg8::<I>(z);
                    self.set_reg8::<I>(y, v);
                }
            }
            2 => {
                let v = if z == 6 {
                    let a = self.ea::<I, B>(bus);
                    self.rd(bus, a)
                } else {
                    self.reg8::<I>(z)
                };
                self.alu(y, v);
            }
            _ => match z {
                0 => {
                    let ir = self.ir();
                    self.idle(bus, ir, 1);
                    if self.cond(y) {
                        let v = self.pop16(bus);
                        self.jump(v);
                        self.wz = self.pc();
                    }
                }
                1 => {
                    if q == 0 {
                        let v = self.pop16(bus);
                        match p {
                            0 => self.set_bc(v),
                            1 => self.set_de(v),
                            2 => self.set_xy::<I>(v),
                            _ => self.set_af(v),
                        }
                    } else {
                        match p {
                            0 => {
                                let v = self.pop16(bus);
                                self.jump(v);
                                self.wz = self.pc();
                            }
                            1 => {
                                let (bc, de, hl) = (self.bc(), self.de(), self.hl());
                                let (bc_, de_, hl_) =
                                    (load16(&self.bc_), load16(&self.de_), load16(&self.hl_));
                                self.set_bc(bc_);
                                self.set_de(de_);
                                self.set_hl(hl_);
                                (self.bc_, self.de_, self.hl_) = (bc, de, hl);
                            }
                            2 => {
                                let v = self.xy::<I>();
                                self.jump(v);
                            }
                            _ => {
                                let ir = self.ir();
                                self.idle(bus, ir, 2);
                                self.sp = self.xy::<I>();
                            }
                        }
                    }
                }
                2 => {
                    let a = self.imm16(bus);
                    self.wz = a;
                    if self.cond(y) {
                        self.jump(a);
                    }
                }
                3 => match y {
                    0 => {
                        let a = self.imm16(bus);
                        self.wz = a;
                        self.jump(a);
                    }
                    1 => {
                        if I == HL {
                            self.exec_cb(bus);
                        } else {
                            self.exec_xycb::<I, B>(bus);
                        }
                    }
                    2 => {
                        let n = self.imm8(bus);
                        let port = ((self.a as u16) << 8) | n as u16;
                        self.pout(bus, port, self.a);
                        self.wz = ((self.a as u16) << 8) | (n.wrapping_add(1) as u16);
                    }
                    3 => {
                        let n = self.imm8(bus);
                        let port = ((self.a as u16) << 8) | n as u16;
                        self.a = self.pin(bus, port);
                        self.wz = port.wrapping_add(1);
                    }
                    4 => {
                        let sp = load16(&self.sp);
                        let lo = self.rd(bus, sp);
                        let sp1 = sp.wrapping_add(1);
                        let hi = self.rd(bus, sp1);
                        self.idle(bus, sp1, 1);
                        let [oh, ol] = self.xy::<I>().to_be_bytes();
                        self.wr(bus, sp1, oh);
                        self.wr(bus, sp, ol);
                        self.idle(bus, sp, 2);
                        let v = u16::from_le_bytes([lo, hi]);
                        self.set_xy::<I>(v);
                        self.wz = v;
                    }
                    5 => {
                        let de = self.de();
                        let hl = self.hl();
                        self.set_de(hl);
                        self.set_hl(de);
                    }
                    6 => {
                        self.iff1 = false;
                        self.iff2 = false;
                    }
                    _ => {
                        self.iff1 = true;
                        self.iff2 = true;
                        self.ei = true;
                        self.end = 0;
                    }
                },
                4 => {
                    let a = self.imm16(bus);
                    self.wz = a;
                    if self.cond(y) {
                        let pc = self.pc().wrapping_sub(1);
                        self.idle(bus, pc, 1);
                        self.push16(bus, self.pc());
                        self.jump(a);
                    }
                }
                5 => {
                    if q == 0 {
                        let ir = self.ir();
                        self.idle(bus, ir, 1);
                        let v = match p {
                            0 => self.bc(),
                            1 => self.de(),
                            2 => self.xy::<I>(),
                            _ => self.af(),
                        };
                        self.push16(bus, v);
                    } else {
                        match p {
                            0 => {
                                let a = self.imm16(bus);
                                self.wz = a;
                                let pc = self.pc().wrapping_sub(1);
                                self.idle(bus, pc, 1);
                                self.push16(bus, self.pc());
                                self.jump(a);
                            }
                            2 => self.exec_ed(bus),
                            // DD, FD: a prefix. After one, `exec_prefixed` has consumed the rest.
                            _ if I == HL => self.exec_prefixed(bus, op, prev_q),
                            _ => unreachable!("DD/FD prefix reached exec_main"),
                        }
                    }
                }
                6 => {
                    let n = self.imm8(bus);
                    self.alu(y, n);
                }
                _ => {
                    let ir = self.ir();
                    self.idle(bus, ir, 1);
                    self.push16(bus, self.pc());
                    self.jump((y as u16) * 8);
                    self.wz = self.pc();
                }
            },
        }
    }

    #[inline(always)]
    fn jr<B: Bus + ?Sized>(&mut self, bus: &mut B, e: i8) {
        let pc = self.pc().wrapping_sub(1);
        self.idle(bus, pc, 5);
        let pc = self.pc().wrapping_add(e as u16);
        self.jump(pc);
        self.wz = self.pc();
    }

    /// x=0, z=7: RLCA RRCA RLA RRA DAA CPL SCF CCF.
    #[inline(always)]
    fn exec_acc_op(&mut self, y: u8, prev_q: u8) {
        let a = self.a;
        let keep = self.f & (S | Z | PV);
        match y {
            0 => {
                self.a = a.rotate_left(1);
                self.setf(keep | (self.a & (XY | C)));
            }
            1 => {
                self.a = a.rotate_right(1);
                self.setf(keep | (self.a & XY) | (a & C));
            }
            2 => {
                self.a = (a << 1) | (self.f & C);
                self.setf(keep | (self.a & XY) | (a >> 7));
            }
            3 => {
                self.a = (a >> 1) | ((self.f & C) << 7);
                self.setf(keep | (self.a & XY) | (a & C));
            }
            4 => self.daa(),
            5 => {
                self.a = !a;
                self.setf((self.f & (S | Z | PV | C)) | H | N | (self.a & XY));
            }
            6 => {
                let xy = ((prev_q ^ self.f) | a) & XY;
                self.setf(keep | C | xy);
            }
            _ => {
                let xy = ((prev_q ^ self.f) | a) & XY;
                let c = self.f & C;
                self.setf(keep | xy | if c != 0 { H } else { C });
            }
        }
    }

    // ----- CB page ----------------------------------------------------------------------

    #[inline(always)]
    fn exec_cb<B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let op = self.fetch_op(bus);
        by_opcode!(op, OP => self.exec_cb_op::<OP, B>(bus))
    }

    #[inline(always)]
    fn exec_cb_op<const OP: u8, B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let op = OP;
        let x = op >> 6;
        let y = (op >> 3) & 7;
        let z = op & 7;
        if z == 6 {
            let a = self.hl();
            let v = self.rd(bus, a);
            self.idle(bus, a, 1);
            match x {
                0 => {
                    let r = self.rot(y, v);
                    self.wr(bus, a, r);
                }
                1 => self.bit(y, v, (self.wz >> 8) as u8),
                2 => self.wr(bus, a, v & !(1 << y)),
                _ => self.wr(bus, a, v | (1 << y)),
            }
        } else {
            let v = self.reg8::<HL>(z);
            match x {
                0 => {
                    let r = self.rot(y, v);
                    self.set_reg8::<HL>(z, r);
                }
                1 => self.bit(y, v, v),
                2 => self.set_reg8::<HL>(z, v & !(1 << y)),
                _ => self.set_reg8::<HL>(z, v | (1 << y)),
            }
        }
    }

    /// DD CB d op / FD CB d op: d and op are plain memory reads (R counts two M1s).
    /// Every form works on (IX+d); forms with z != 6 also copy the result into `r[z]`
    /// (the real H and L, not IXH/IXL).
    #[inline(always)]
    fn exec_xycb<const I: u8, B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let d = self.imm8(bus) as i8;
        let op = self.imm8(bus);
        let pc = self.pc().wrapping_sub(1);
        self.idle(bus, pc, 2);
        let a = self.xy::<I>().wrapping_add(d as u16);
        self.wz = a;
        let x = op >> 6;
        let y = (op >> 3) & 7;
        let z = op & 7;
        let v = self.rd(bus, a);
        self.idle(bus, a, 1);
        let r = match x {
            0 => self.rot(y, v),
            1 => {
                self.bit(y, v, (a >> 8) as u8);
                return;
            }
            2 => v & !(1 << y),
            _ => v | (1 << y),
        };
        self.wr(bus, a, r);
        if z != 6 {
            self.set_reg8::<HL>(z, r);
        }
    }

    // ----- ED page ----------------------------------------------------------------------

    #[inline(always)]
    fn exec_ed<B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let op = self.fetch_op(bus);
        by_opcode!(op, OP => self.exec_ed_op::<OP, B>(bus))
    }

    #[inline(always)]
    fn exec_ed_op<const OP: u8, B: Bus + ?Sized>(&mut self, bus: &mut B) {
        let op = OP;
        let x = op >> 6;
        let y = (op >> 3) & 7;
        let z = op & 7;
        let p = y >> 1;
        let q = y & 1;
        if x == 1 {
            match z {
                0 => {
                    let bc = self.bc();
                    let v = self.pin(bus, bc);
                    self.wz = bc.wrapping_add(1);
                    self.setf((self.f & C) | SZ53P[v as usize]);
                    if y != 6 {
                        self.set_reg8::<HL>(y, v);
                    }
                }
                1 => {
                    let bc = self.bc();
                    let v = if y == 6 { 0 } else { self.reg8::<HL>(y) };
                    self.pout(bus, bc, v);
                    self.wz = bc.wrapping_add(1);
                }
                2 => {
                    let ir = self.ir();
                    self.idle(bus, ir, 7);
                    let v = self.rp::<HL>(p);
                    if q == 0 {
                        self.sbc16(v);
                    } else {
                        self.adc16(v);
                    }
                }
                3 => {
                    let a = self.imm16(bus);
                    if q == 0 {
                        let [hi, lo] = self.rp::<HL>(p).to_be_bytes();
                        self.wr(bus, a, lo);
                        self.wr(bus, a.wrapping_add(1), hi);
                    } else {
                        let lo = self.rd(bus, a);
                        let hi = self.rd(bus, a.wrapping_add(1));
                        self.set_rp::<HL>(p, u16::from_le_bytes([lo, hi]));
                    }
                    self.wz = a.wrapping_add(1);
                }
                4 => {
                    let v = self.a;
                    self.a = 0;
                    self.a = self.sub8(v, 0);
                }
                5 => {
                    // RETN and RETI both copy IFF2 to IFF1.
                    self.iff1 = self.iff2;
                    let v = self.pop16(bus);
                    self.jump(v);
                    self.wz = self.pc();
                }
                6 => self.im = [0, 0, 1, 2][(y & 3) as usize],
                _ => match y {
                    0 | 1 => {
                        let ir = self.ir();
                        self.idle(bus, ir, 1);
                        if y == 0 {
                            self.i = self.a;
                        } else {
                            self.r = self.a;
                            self.pcr &= !M1_MASK;
                        }
                    }
                    2 | 3 => {
                        let ir = self.ir();
                        self.idle(bus, ir, 1);
                        self.a = if y == 2 { self.i } else { self.r_now() };
                        let pv = if self.iff2 { PV } else { 0 };
                        self.setf((self.f & C) | SZ53[self.a as usize] | pv);
                        self.p = true;
                        self.end = 0;
                    }
                    4 | 5 => {
                        let hl = self.hl();
                        let v = self.rd(bus, hl);
                        self.idle(bus, hl, 4);
                        let a = self.a;
                        let (m, na) = if y == 4 {
                            ((a << 4) | (v >> 4), (a & 0xF0) | (v & 0x0F))
                        } else {
                            ((v << 4) | (a & 0x0F), (a & 0xF0) | (v >> 4))
                        };
                        self.wr(bus, hl, m);
                        self.a = na;
                        self.setf((self.f & C) | SZ53P[na as usize]);
                        self.wz = hl.wrapping_add(1);
                    }
                    _ => {}
                },
            }
        } else if x == 2 && z <= 3 && y >= 4 {
            self.exec_block(bus, y, z);
        }
        // Every other ED opcode is an 8 T-state no-operation.
    }

    /// LDI/LDD/LDIR/LDDR, CPI.., INI.., OUTI..: y = 4 (I), 5 (D), 6 (IR), 7 (DR).
    #[inline(always)]
    fn exec_block<B: Bus + ?Sized>(&mut self, bus: &mut B, y: u8, z: u8) {
        let dec = y & 1 != 0;
        let repeat = y >= 6;
        let step = if dec { 0xFFFFu16 } else { 1 };
        match z {
            0 => {
                let hl = self.hl();
                let de = self.de();
                let v = self.rd(bus, hl);
                self.wr(bus, de, v);
                self.idle(bus, de, 2);
                self.set_hl(hl.wrapping_add(step));
                self.set_de(de.wrapping_add(step));
                let bc = self.bc().wrapping_sub(1);
                self.set_bc(bc);
                let n = v.wrapping_add(self.a);
                let mut f = (self.f & (S | Z | C)) | (n & X) | ((n << 4) & Y);
                if bc != 0 {
                    f |= PV;
                }
                self.setf(f);
                if repeat && bc != 0 {
                    self.idle(bus, de, 5);
                    self.repeat();
                }
            }
            1 => {
                let hl = self.hl();
                let v = self.rd(bus, hl);
                self.idle(bus, hl, 5);
                let a = self.a;
                let r = a.wrapping_sub(v);
                let hf = (a ^ v ^ r) & H;
                let n = r.wrapping_sub(hf >> 4);
                self.set_hl(hl.wrapping_add(step));
                let bc = self.bc().wrapping_sub(1);
                self.set_bc(bc);
                self.wz = self.wz.wrapping_add(step);
                let mut f =
                    (self.f & C) | N | (SZ53[r as usize] & (S | Z)) | hf | (n & X) | ((n << 4) & Y);
                if bc != 0 {
                    f |= PV;
                }
                self.setf(f);
                if repeat && bc != 0 && r != 0 {
                    self.idle(bus, hl, 5);
                    self.repeat();
                }
            }
            2 => {
                let ir = self.ir();
                self.idle(bus, ir, 1);
                let bc = self.bc();
                let v = self.pin(bus, bc);
                let hl = self.hl();
                self.wr(bus, hl, v);
                self.wz = bc.wrapping_add(step);
                self.b = self.b.wrapping_sub(1);
                self.set_hl(hl.wrapping_add(step));
                let k = v as u16 + self.c.wrapping_add(step as u8) as u16;
                self.block_io_flags(v, k);
                if repeat && self.b != 0 {
                    self.idle(bus, hl, 5);
                    self.repeat();
                    self.block_io_repeat_flags(v);
                }
            }
            _ => {
                let ir = self.ir();
                self.idle(bus, ir, 1);
                let hl = self.hl();
                let v = self.rd(bus, hl);
                self.b = self.b.wrapping_sub(1);
                let bc = self.bc();
                self.wz = bc.wrapping_add(step);
                self.pout(bus, bc, v);
                self.set_hl(hl.wrapping_add(step));
                let k = v as u16 + self.l as u16;
                self.block_io_flags(v, k);
                if repeat && self.b != 0 {
                    self.idle(bus, bc, 5);
                    self.repeat();
                    self.block_io_repeat_flags(v);
                }
            }
        }
    }

    /// A repeating block instruction goes back to its ED byte: MEMPTR = that address + 1,
    /// X and Y from bits 11 and 13 of it.
    #[inline(always)]
    fn repeat(&mut self) {
        let pc = self.pc().wrapping_sub(2);
        self.jump(pc);
        self.wz = self.pc().wrapping_add(1);
        let f = (self.f & !XY) | ((self.pc() >> 8) as u8 & XY);
        self.setf(f);
    }

    #[inline(always)]
    fn block_io_flags(&mut self, v: u8, k: u16) {
        let b = self.b;
        let mut f = SZ53[b as usize] | ((v >> 6) & N) | parity((k as u8 & 7) ^ b);
        if k > 0xFF {
            f |= H | C;
        }
        self.setf(f);
    }

    /// The extra adjustment of H and P/V in a repeating INIR/INDR/OTIR/OTDR (David Banks, 2018).
    #[inline(always)]
    fn block_io_repeat_flags(&mut self, v: u8) {
        let b = self.b;
        let mut f = self.f;
        if f & C != 0 {
            let t = if v & 0x80 != 0 {
                if b & 0x0F == 0x00 {
                    f |= H;
                } else {
                    f &= !H;
                }
                b.wrapping_sub(1)
            } else {
                if b & 0x0F == 0x0F {
                    f |= H;
                } else {
                    f &= !H;
                }
                b.wrapping_add(1)
            };
            f ^= parity(t & 7) ^ PV;
        } else {
            f ^= parity(b & 7) ^ PV;
        }
        self.setf(f);
    }

    // ----- interrupts ---------------------------------------------------------------------

    fn interrupt_entry(&mut self) {
        self.halted = false;
        self.ei = false;
        self.p = false;
        self.prev_q = self.q;
        self.q = 0;
        self.inc_r();
    }

    /// NMI: an M1 cycle whose opcode is ignored (5 T), PC pushed, jump to 0066h. 11 T.
    fn accept_nmi<B: Bus + ?Sized>(&mut self, bus: &mut B) {
        self.nmi_pending = false;
        if self.p {
            self.f &= !PV;
        }
        self.interrupt_entry();
        let _ = bus.fetch(self.pc(), self.t);
        self.t += 4;
        let ir = self.ir();
        self.idle(bus, ir, 1);
        self.iff1 = false;
        self.push16(bus, self.pc());
        self.jump(0x0066);
        self.wz = self.pc();
    }

    /// INT: an acknowledge M1 of 6 T (two automatic wait states) fetching the bus byte, then
    /// IM 0: the byte is executed (RST n: 13 T in all); IM 1: RST 38h (13 T);
    /// IM 2: jump through the word at I*256 + byte (19 T).
    fn accept_int<B: Bus + ?Sized>(&mut self, bus: &mut B) {
        // NMOS quirk: P/V of LD A,I / LD A,R reads IFF2 after it was cleared.
        if self.p {
            self.f &= !PV;
        }
        self.interrupt_entry();
        self.iff1 = false;
        self.iff2 = false;
        let data = bus.int_ack(self.t);
        self.t += 6;
        match self.im {
            0 | 3 => {
                if data & 0xC7 == 0xC7 {
                    let ir = self.ir();
                    self.idle(bus, ir, 1);
                    self.push16(bus, self.pc());
                    self.jump((data & 0x38) as u16);
                    self.wz = self.pc();
                } else if data != 0xDD && data != 0xFD {
                    // Any other byte is executed as an opcode whose operands come from memory
                    // at PC (a device that supplies them is not modelled; a DD/FD prefix on
                    // the bus is ignored).
                    self.t -= 2;
                    self.dispatch::<HL, B>(bus, data, self.prev_q);
                }
            }
            1 => {
                let ir = self.ir();
                self.idle(bus, ir, 1);
                self.push16(bus, self.pc());
                self.jump(0x0038);
                self.wz = self.pc();
            }
            _ => {
                let ir = self.ir();
                self.idle(bus, ir, 1);
                self.push16(bus, self.pc());
                let vec = ((self.i as u16) << 8) | data as u16;
                let lo = self.rd(bus, vec);
                let hi = self.rd(bus, vec.wrapping_add(1));
                self.jump(u16::from_le_bytes([lo, hi]));
                self.wz = self.pc();
            }
        }
    }
}
