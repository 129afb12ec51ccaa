//! The host side of z80emu (royaltm's `z80emu` crate) as a peer of our `Cpu`: 64 KiB of flat
//! RAM and ports, the register file copied across, and a register-by-register comparison.
//!
//! Shared by `benches/emulator.rs` and `tests/executor/z80emu_diff.rs` (included with `#[path]`; a
//! file in a subdirectory of benches/ is not a bench target of its own).

#![allow(dead_code)]

use z80chess::z80::{Bus, Cpu, TStates};
use z80emu::{Cpu as _, InterruptMode, Io, Memory, Prefix, StkReg16, Z80NMOS};

/// What a port read returns on both sides: a function of the whole 16-bit port address, so
/// a difference in which address an instruction puts on the bus shows up in the registers.
#[inline(always)]
pub fn port_value(port: u16) -> u8 {
    ((port >> 8) as u8) ^ (port as u8).rotate_left(3) ^ 0x5A
}

/// Flat RAM for z80emu; port writes are recorded (port, value) when `log_io` is set.
#[derive(Clone)]
pub struct Mem64 {
    pub mem: Box<[u8; 0x10000]>,
    pub log_io: bool,
    pub io: Vec<(u16, u8)>,
    /// An OUT breaks z80emu's execution loop (`BreakCause::WriteIo`): the CP/M traps of
    /// `benches/zexrace.rs`.
    pub break_io: bool,
}

impl Mem64 {
    pub fn new(mem: &[u8; 0x10000]) -> Mem64 {
        Mem64 {
            mem: Box::new(*mem),
            log_io: false,
            io: Vec::new(),
            break_io: false,
        }
    }
}

impl Memory for Mem64 {
    type Timestamp = u32;
    #[inline(always)]
    fn read_mem(&self, address: u16, _ts: u32) -> u8 {
        self.mem[address as usize]
    }
    #[inline(always)]
    fn read_mem16(&self, address: u16, _ts: u32) -> u16 {
        u16::from_le_bytes([
            self.mem[address as usize],
            self.mem[address.wrapping_add(1) as usize],
        ])
    }
    #[inline(always)]
    fn read_opcode(&mut self, pc: u16, _ir: u16, _ts: u32) -> u8 {
        self.mem[pc as usize]
    }
    #[inline(always)]
    fn write_mem(&mut self, address: u16, value: u8, _ts: u32) {
        self.mem[address as usize] = value;
    }
    #[inline(always)]
    fn read_debug(&self, address: u16) -> u8 {
        self.mem[address as usize]
    }
}

impl Io for Mem64 {
    type Timestamp = u32;
    type WrIoBreak = ();
    type RetiBreak = ();
    #[inline(always)]
    fn read_io(&mut self, port: u16, _ts: u32) -> (u8, Option<core::num::NonZeroU16>) {
        (port_value(port), None)
    }
    #[inline(always)]
    fn write_io(
        &mut self,
        port: u16,
        data: u8,
        _ts: u32,
    ) -> (Option<()>, Option<core::num::NonZeroU16>) {
        if self.log_io {
            self.io.push((port, data));
        }
        (self.break_io.then_some(()), None)
    }
}

/// Our side of the same machine: flat RAM, ports as [`port_value`], writes recorded.
#[derive(Clone)]
pub struct OurBus {
    pub mem: Box<[u8; 0x10000]>,
    pub io: Vec<(u16, u8)>,
}

impl Bus for OurBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: TStates) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: TStates) {
        self.mem[addr as usize] = value;
    }
    #[inline(always)]
    fn port_in(&mut self, port: u16, _t: TStates) -> u8 {
        port_value(port)
    }
    #[inline(always)]
    fn port_out(&mut self, port: u16, value: u8, _t: TStates) {
        self.io.push((port, value));
    }
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

/// A z80emu NMOS CPU holding our CPU's registers (not its Q latch: z80emu's starts as
/// "the last instruction wrote no flags", as ours does after reset).
pub fn z80emu_from(cpu: &Cpu) -> Z80NMOS {
    let mut z = Z80NMOS::default();
    z.reset();
    // The alternate set first, through the exchanges.
    z.set_reg16(StkReg16::AF, cpu.af_);
    z.set_reg16(StkReg16::BC, cpu.bc_);
    z.set_reg16(StkReg16::DE, cpu.de_);
    z.set_reg16(StkReg16::HL, cpu.hl_);
    z.ex_af_af();
    z.exx();
    z.set_reg16(StkReg16::AF, cpu.af());
    z.set_reg16(StkReg16::BC, cpu.bc());
    z.set_reg16(StkReg16::DE, cpu.de());
    z.set_reg16(StkReg16::HL, cpu.hl());
    z.set_index16(Prefix::Xdd, cpu.ix);
    z.set_index16(Prefix::Yfd, cpu.iy);
    z.set_sp(cpu.sp);
    // While halted, z80emu keeps PC on the HALT (and adds 1 when an interrupt ends the halt);
    // ours points past it, as the real PC does.
    z.set_pc(if cpu.halted {
        cpu.pc.wrapping_sub(1)
    } else {
        cpu.pc
    });
    z.set_memptr(cpu.wz);
    z.set_i(cpu.i);
    z.set_r(cpu.r);
    z.set_iffs(cpu.iff1, cpu.iff2);
    z.set_im(match cpu.im {
        0 => InterruptMode::Mode0,
        1 => InterruptMode::Mode1,
        _ => InterruptMode::Mode2,
    });
    if cpu.halted {
        z.halt();
    }
    z
}

/// The registers both emulators model, by name.
pub fn our_regs(cpu: &Cpu) -> Vec<(&'static str, u16)> {
    vec![
        ("AF", cpu.af()),
        ("BC", cpu.bc()),
        ("DE", cpu.de()),
        ("HL", cpu.hl()),
        ("AF'", cpu.af_),
        ("BC'", cpu.bc_),
        ("DE'", cpu.de_),
        ("HL'", cpu.hl_),
        ("IX", cpu.ix),
        ("IY", cpu.iy),
        ("SP", cpu.sp),
        ("PC", cpu.pc),
        ("MEMPTR", cpu.wz),
        ("I", cpu.i as u16),
        ("R", cpu.r as u16),
        ("IFF1", cpu.iff1 as u16),
        ("IFF2", cpu.iff2 as u16),
        ("IM", cpu.im as u16),
        ("HALT", cpu.halted as u16),
    ]
}

/// The same registers of a z80emu CPU, PC in our convention (past the HALT while halted).
pub fn their_regs(z: &Z80NMOS) -> Vec<(&'static str, u16)> {
    let (iff1, iff2) = z.get_iffs();
    let pc = z.get_pc().wrapping_add(z.is_halt() as u16);
    vec![
        ("AF", z.get_reg16(StkReg16::AF)),
        ("BC", z.get_reg16(StkReg16::BC)),
        ("DE", z.get_reg16(StkReg16::DE)),
        ("HL", z.get_reg16(StkReg16::HL)),
        ("AF'", z.get_alt_reg16(StkReg16::AF)),
        ("BC'", z.get_alt_reg16(StkReg16::BC)),
        ("DE'", z.get_alt_reg16(StkReg16::DE)),
        ("HL'", z.get_alt_reg16(StkReg16::HL)),
        ("IX", z.get_index16(Prefix::Xdd)),
        ("IY", z.get_index16(Prefix::Yfd)),
        ("SP", z.get_sp()),
        ("PC", pc),
        ("MEMPTR", z.get_memptr()),
        ("I", z.get_i() as u16),
        ("R", z.get_r() as u16),
        ("IFF1", iff1 as u16),
        ("IFF2", iff2 as u16),
        ("IM", z.get_im() as u16),
        ("HALT", z.is_halt() as u16),
    ]
}

/// Every register that differs, as "NAME ours=XXXX z80emu=XXXX", except those in `skip`.
pub fn reg_diffs(cpu: &Cpu, z: &Z80NMOS, skip: &[&str]) -> Vec<String> {
    our_regs(cpu)
        .into_iter()
        .zip(their_regs(z))
        .filter(|((name, a), (_, b))| a != b && !skip.contains(name))
        .map(|((name, a), (_, b))| format!("{name} ours={a:04X} z80emu={b:04X}"))
        .collect()
}
