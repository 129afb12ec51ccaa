//! The 8-bit ALU against a plain reference model: random A, operand, F (and Q, which SCF/CCF
//! read) through the real instruction bytes on the CPU, checking the result and all 8 flag bits.
//!
//! The model is written from the flag definitions (result bits, carries computed on wide
//! integers, signed overflow on i32), not from lookup tables, so it shares nothing with the core.

use proptest::prelude::*;
use z80chess::z80::{Cpu, FlatBus};

const S: u8 = 0x80;
const Z: u8 = 0x40;
const Y: u8 = 0x20;
const H: u8 = 0x10;
const X: u8 = 0x08;
const PV: u8 = 0x04;
const N: u8 = 0x02;
const C: u8 = 0x01;

/// (HL) operands live here.
const MEM: u16 = 0x8000;

fn bit(cond: bool, flag: u8) -> u8 {
    if cond {
        flag
    } else {
        0
    }
}

fn even_parity(v: u8) -> bool {
    v.count_ones().is_multiple_of(2)
}

/// S, Z, Y and X of a result.
fn szxy(r: u8) -> u8 {
    bit(r & 0x80 != 0, S) | bit(r == 0, Z) | (r & (Y | X))
}

// ---------- reference model ----------

/// a + b + carry: (result, flags).
fn add8(a: u8, b: u8, carry: bool) -> (u8, u8) {
    let c = carry as i32;
    let sum = a as i32 + b as i32 + c;
    let r = sum as u8;
    let half = (a & 0xF) as i32 + (b & 0xF) as i32 + c > 0xF;
    let signed = a as i8 as i32 + b as i8 as i32 + c;
    let overflow = !(-128..=127).contains(&signed);
    (
        r,
        szxy(r) | bit(half, H) | bit(overflow, PV) | bit(sum > 0xFF, C),
    )
}

/// a - b - carry: (result, flags).
fn sub8(a: u8, b: u8, carry: bool) -> (u8, u8) {
    let c = carry as i32;
    let diff = a as i32 - b as i32 - c;
    let r = diff as u8;
    let half = ((a & 0xF) as i32) - ((b & 0xF) as i32) - c < 0;
    let signed = a as i8 as i32 - b as i8 as i32 - c;
    let overflow = !(-128..=127).contains(&signed);
    (
        r,
        szxy(r) | bit(half, H) | bit(overflow, PV) | N | bit(diff < 0, C),
    )
}

/// ADD ADC SUB SBC AND XOR OR CP (op 0..7): (new A, flags).
fn alu(op: u8, a: u8, b: u8, f: u8) -> (u8, u8) {
    let cy = f & C != 0;
    match op {
        0 => add8(a, b, false),
        1 => add8(a, b, cy),
        2 => sub8(a, b, false),
        3 => sub8(a, b, cy),
        4 => {
            let r = a & b;
            (r, szxy(r) | H | bit(even_parity(r), PV))
        }
        5 => {
            let r = a ^ b;
            (r, szxy(r) | bit(even_parity(r), PV))
        }
        6 => {
            let r = a | b;
            (r, szxy(r) | bit(even_parity(r), PV))
        }
        7 => {
            // CP: flags of the subtraction, but X and Y come from the operand; A unchanged.
            let (_, fl) = sub8(a, b, false);
            (a, (fl & !(X | Y)) | (b & (X | Y)))
        }
        _ => unreachable!(),
    }
}

fn inc8(v: u8, f: u8) -> (u8, u8) {
    let r = v.wrapping_add(1);
    (
        r,
        szxy(r) | bit(v & 0xF == 0xF, H) | bit(v == 0x7F, PV) | (f & C),
    )
}

fn dec8(v: u8, f: u8) -> (u8, u8) {
    let r = v.wrapping_sub(1);
    (
        r,
        szxy(r) | bit(v & 0xF == 0, H) | bit(v == 0x80, PV) | N | (f & C),
    )
}

/// The CB-page rotate/shift `op` (0..7: RLC RRC RL RR SLA SRA SLL SRL): (result, carry out).
fn rot(op: u8, v: u8, carry_in: bool) -> (u8, bool) {
    let top = v & 0x80 != 0;
    let low = v & 1 != 0;
    match op {
        0 => ((v << 1) | (top as u8), top),
        1 => ((v >> 1) | ((low as u8) << 7), low),
        2 => ((v << 1) | (carry_in as u8), top),
        3 => ((v >> 1) | ((carry_in as u8) << 7), low),
        4 => (v << 1, top),
        5 => ((v >> 1) | (v & 0x80), low),
        6 => ((v << 1) | 1, top),
        7 => (v >> 1, low),
        _ => unreachable!(),
    }
}

fn cb_rot(op: u8, v: u8, f: u8) -> (u8, u8) {
    let (r, c) = rot(op, v, f & C != 0);
    (r, szxy(r) | bit(even_parity(r), PV) | bit(c, C))
}

/// RLCA RRCA RLA RRA (op 0..3): S, Z, P/V kept; X, Y from the result; H = N = 0.
fn acc_rot(op: u8, a: u8, f: u8) -> (u8, u8) {
    let (r, c) = rot(op, a, f & C != 0);
    (r, (f & (S | Z | PV)) | (r & (X | Y)) | bit(c, C))
}

/// DAA, following the tables of *The Undocumented Z80 Documented* section 4.7.
fn daa(a: u8, f: u8) -> (u8, u8) {
    let (c, h, n) = (f & C != 0, f & H != 0, f & N != 0);
    let lo = a & 0x0F;
    let mut diff = 0u8;
    if h || lo > 9 {
        diff |= 0x06;
    }
    if c || a > 0x99 {
        diff |= 0x60;
    }
    let r = if n {
        a.wrapping_sub(diff)
    } else {
        a.wrapping_add(diff)
    };
    let new_c = c || a > 0x99;
    let new_h = if n { h && lo < 6 } else { lo > 9 };
    (
        r,
        szxy(r) | bit(even_parity(r), PV) | bit(new_h, H) | (f & N) | bit(new_c, C),
    )
}

fn cpl(a: u8, f: u8) -> (u8, u8) {
    let r = !a;
    (r, (f & (S | Z | PV | C)) | (r & (X | Y)) | H | N)
}

/// SCF / CCF: X and Y from (Q ^ F) | A, where Q is the F written by the previous instruction.
fn scf(a: u8, f: u8, q: u8) -> u8 {
    (f & (S | Z | PV)) | (((q ^ f) | a) & (X | Y)) | C
}

fn ccf(a: u8, f: u8, q: u8) -> u8 {
    let c = f & C != 0;
    (f & (S | Z | PV)) | (((q ^ f) | a) & (X | Y)) | bit(c, H) | bit(!c, C)
}

// ---------- running the real instructions ----------

/// Register operand index 0..7 = B C D E H L (HL) A.
const REG_NAMES: [&str; 8] = ["B", "C", "D", "E", "H", "L", "(HL)", "A"];

/// A CPU with `code` at 0, A, F and Q as given, the other registers at fixed values, HL
/// pointing at `MEM`, and register / (HL) operand `reg` holding `v` (for reg 7, v is A).
fn setup(code: &[u8], a: u8, f: u8, q: u8, reg: u8, v: u8) -> (Cpu, FlatBus) {
    let mut bus = FlatBus::default();
    bus.mem[..code.len()].copy_from_slice(code);
    let mut cpu = Cpu::new();
    cpu.pc = 0;
    cpu.sp = 0xF000;
    cpu.a = a;
    cpu.f = f;
    cpu.q = q;
    (cpu.b, cpu.c, cpu.d, cpu.e) = (0x12, 0x34, 0x56, 0x78);
    cpu.set_hl(MEM);
    match reg {
        0 => cpu.b = v,
        1 => cpu.c = v,
        2 => cpu.d = v,
        3 => cpu.e = v,
        4 => cpu.h = v,
        5 => cpu.l = v,
        6 => bus.mem[MEM as usize] = v,
        7 => cpu.a = v,
        _ => unreachable!(),
    }
    (cpu, bus)
}

fn get_reg(cpu: &Cpu, bus: &FlatBus, reg: u8) -> u8 {
    match reg {
        0 => cpu.b,
        1 => cpu.c,
        2 => cpu.d,
        3 => cpu.e,
        4 => cpu.h,
        5 => cpu.l,
        6 => bus.mem[MEM as usize],
        7 => cpu.a,
        _ => unreachable!(),
    }
}

fn run(cpu: &mut Cpu, bus: &mut FlatBus, len: u16) {
    cpu.step_dyn(bus);
    assert_eq!(cpu.pc, len, "instruction length");
}

fn flags_str(f: u8) -> String {
    "SZYHXPNC"
        .chars()
        .enumerate()
        .map(|(i, ch)| if f & (0x80 >> i) != 0 { ch } else { '-' })
        .collect()
}

/// Compare a result and F, and that Q latched the new F.
fn check(what: &str, got: (u8, u8), want: (u8, u8), q: u8) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.0, want.0, "{}: result", what);
    prop_assert_eq!(
        got.1,
        want.1,
        "{}: F got {} want {}",
        what,
        flags_str(got.1),
        flags_str(want.1)
    );
    prop_assert_eq!(q, got.1, "{}: Q must latch the F it wrote", what);
    Ok(())
}

const ALU_NAMES: [&str; 8] = ["ADD", "ADC", "SUB", "SBC", "AND", "XOR", "OR", "CP"];
const ROT_NAMES: [&str; 8] = ["RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,r (r = B..A and (HL)) and A,n.
    #[test]
    fn alu_a_r_and_a_n(a: u8, n: u8, f: u8, q: u8, op in 0u8..8, reg in 0u8..9) {
        let (mut cpu, mut bus, operand, len, what);
        if reg == 8 {
            (cpu, bus) = setup(&[0xC6 | (op << 3), n], a, f, q, 0, 0x12);
            (operand, len) = (n, 2);
            what = format!("{} A,{n:02X}h (A={a:02X} F={f:02X})", ALU_NAMES[op as usize]);
        } else {
            (cpu, bus) = setup(&[0x80 | (op << 3) | reg], a, f, q, reg, n);
            let a_in = cpu.a;
            operand = if reg == 7 { a_in } else { n };
            len = 1;
            what = format!(
                "{} A,{} (A={a_in:02X} op={operand:02X} F={f:02X})",
                ALU_NAMES[op as usize], REG_NAMES[reg as usize]
            );
        }
        let a_in = cpu.a;
        let want = alu(op, a_in, operand, f);
        run(&mut cpu, &mut bus, len);
        check(&what, (cpu.a, cpu.f), want, cpu.q)?;
        if reg < 8 && reg != 7 {
            prop_assert_eq!(get_reg(&cpu, &bus, reg), operand, "{}: operand unchanged", what);
        }
    }

    /// INC r / DEC r, including (HL) and A.
    #[test]
    fn inc_dec_r(v: u8, a: u8, f: u8, q: u8, dec: bool, reg in 0u8..8) {
        let opcode = (reg << 3) | if dec { 0x05 } else { 0x04 };
        let (mut cpu, mut bus) = setup(&[opcode], a, f, q, reg, v);
        let want = if dec { dec8(v, f) } else { inc8(v, f) };
        run(&mut cpu, &mut bus, 1);
        let what = format!("{} {} (v={v:02X} F={f:02X})", if dec { "DEC" } else { "INC" }, REG_NAMES[reg as usize]);
        check(&what, (get_reg(&cpu, &bus, reg), cpu.f), want, cpu.q)?;
        if reg != 7 {
            prop_assert_eq!(cpu.a, a, "{}: A unchanged", what);
        }
    }

    /// NEG (ED 44).
    #[test]
    fn neg(a: u8, f: u8, q: u8) {
        let (mut cpu, mut bus) = setup(&[0xED, 0x44], a, f, q, 0, 0x12);
        run(&mut cpu, &mut bus, 2);
        check(&format!("NEG (A={a:02X} F={f:02X})"), (cpu.a, cpu.f), sub8(0, a, false), cpu.q)?;
    }

    /// DAA (27).
    #[test]
    fn daa_(a: u8, f: u8, q: u8) {
        let (mut cpu, mut bus) = setup(&[0x27], a, f, q, 0, 0x12);
        run(&mut cpu, &mut bus, 1);
        check(&format!("DAA (A={a:02X} F={f:02X})"), (cpu.a, cpu.f), daa(a, f), cpu.q)?;
    }

    /// CPL (2F).
    #[test]
    fn cpl_(a: u8, f: u8, q: u8) {
        let (mut cpu, mut bus) = setup(&[0x2F], a, f, q, 0, 0x12);
        run(&mut cpu, &mut bus, 1);
        check(&format!("CPL (A={a:02X} F={f:02X})"), (cpu.a, cpu.f), cpl(a, f), cpu.q)?;
    }

    /// SCF (37) and CCF (3F), with Q the F of the "previous instruction".
    #[test]
    fn scf_ccf(a: u8, f: u8, q: u8, is_ccf: bool) {
        let (mut cpu, mut bus) = setup(&[if is_ccf { 0x3F } else { 0x37 }], a, f, q, 0, 0x12);
        run(&mut cpu, &mut bus, 1);
        let want_f = if is_ccf { ccf(a, f, q) } else { scf(a, f, q) };
        let what = format!("{} (A={a:02X} F={f:02X} Q={q:02X})", if is_ccf { "CCF" } else { "SCF" });
        check(&what, (cpu.a, cpu.f), (a, want_f), cpu.q)?;
    }

    /// RLC RRC RL RR SLA SRA SLL SRL r (CB 00-3F), including (HL) and A.
    #[test]
    fn cb_rotates_shifts(v: u8, a: u8, f: u8, q: u8, op in 0u8..8, reg in 0u8..8) {
        let (mut cpu, mut bus) = setup(&[0xCB, (op << 3) | reg], a, f, q, reg, v);
        run(&mut cpu, &mut bus, 2);
        let what = format!("{} {} (v={v:02X} F={f:02X})", ROT_NAMES[op as usize], REG_NAMES[reg as usize]);
        check(&what, (get_reg(&cpu, &bus, reg), cpu.f), cb_rot(op, v, f), cpu.q)?;
        if reg != 7 {
            prop_assert_eq!(cpu.a, a, "{}: A unchanged", what);
        }
    }

    /// RLCA RRCA RLA RRA (07 0F 17 1F).
    #[test]
    fn accumulator_rotates(a: u8, f: u8, q: u8, op in 0u8..4) {
        let (mut cpu, mut bus) = setup(&[0x07 | (op << 3)], a, f, q, 0, 0x12);
        run(&mut cpu, &mut bus, 1);
        let what = format!("{}A (A={a:02X} F={f:02X})", ROT_NAMES[op as usize]);
        check(&what, (cpu.a, cpu.f), acc_rot(op, a, f), cpu.q)?;
    }
}

/// The model itself against values from the documentation and well-known cases, so that a
/// wrong model cannot agree with a wrong core unnoticed.
#[test]
fn reference_model_sanity() {
    assert_eq!(add8(0x7F, 0x01, false), (0x80, S | H | PV));
    assert_eq!(add8(0xFF, 0x01, false), (0x00, Z | H | C));
    assert_eq!(add8(0x80, 0x80, false), (0x00, Z | PV | C));
    assert_eq!(sub8(0x80, 0x01, false), (0x7F, Y | H | X | PV | N));
    assert_eq!(sub8(0x00, 0x01, false), (0xFF, S | Y | H | X | N | C));
    assert_eq!(sub8(0x10, 0x0F, true), (0x00, Z | H | N));
    assert_eq!(alu(7, 0x10, 0x28, 0), (0x10, S | Y | H | X | N | C));
    assert_eq!(daa(0x9A, 0), (0x00, Z | H | PV | C));
    assert_eq!(daa(0x15, N | H), (0x0F, H | X | PV | N));
    assert_eq!(inc8(0x7F, C), (0x80, S | H | PV | C));
    assert_eq!(dec8(0x80, 0), (0x7F, Y | H | X | PV | N));
    assert_eq!(cb_rot(2, 0x80, C), (0x01, C));
    assert_eq!(cb_rot(5, 0x81, 0), (0xC0, S | PV | C));
    assert_eq!(scf(0x00, 0x28, 0x28), C);
    assert_eq!(scf(0x00, 0x28, 0x00), Y | X | C);
}
