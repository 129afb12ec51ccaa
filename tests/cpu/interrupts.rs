//! Interrupt behaviour, from *The Undocumented Z80 Documented* (Sean Young, v0.91,
//! chapter 5 "Interrupts" and 6.1 on R) plus the NMOS LD A,I / LD A,R quirk:
//!
//! - accepting an NMI costs 11 T, an IM 0 RST 13 T, IM 1 13 T, IM 2 19 T; all add one to R;
//! - NMI: IFF1 reset, IFF2 kept, call 0066h; INT: both IFFs reset; RETN/RETI copy IFF2 to IFF1;
//! - no INT right after EI (a run of EIs keeps blocking), nor between a DD/FD prefix and its opcode;
//! - HALT: the pushed PC is the address after the HALT;
//! - IM 2 reads the vector at I*256 + the bus byte (bit 0 included);
//! - LD A,I / LD A,R copy IFF2 to P/V; on the NMOS chip an interrupt accepted right after them
//!   resets P/V.
//!
//! `Cpu::step` executes one whole instruction or accepts one interrupt, so every acceptance is
//! the lone effect of one `step`, and its cost is the T-state delta of that step.

use crate::common::bus::{Kind, TracingBus};
use z80chess::z80::flags::{C, H, N, PV, S, Z};
use z80chess::z80::Cpu;

const STACK: u16 = 0x8000;

/// A CPU at `pc` with `code` there, SP = 8000h, interrupts enabled, and T = 0.
fn machine(pc: u16, code: &[u8]) -> (Cpu, TracingBus) {
    let mut bus = TracingBus::new();
    bus.load(pc, code);
    let mut cpu = Cpu::new();
    cpu.pc = pc;
    cpu.sp = STACK;
    cpu.iff1 = true;
    cpu.iff2 = true;
    cpu.im = 1;
    cpu.r = 0;
    cpu.t = 0;
    (cpu, bus)
}

/// One `step`; returns the T-states it took.
fn step(cpu: &mut Cpu, bus: &mut TracingBus) -> u64 {
    let t0 = cpu.t;
    bus.events.clear();
    cpu.step_dyn(bus);
    cpu.t - t0
}

/// The word on top of the stack.
fn top(cpu: &Cpu, bus: &TracingBus) -> u16 {
    u16::from_le_bytes([
        bus.mem[cpu.sp as usize],
        bus.mem[cpu.sp.wrapping_add(1) as usize],
    ])
}

/// Check that the last step pushed `ret` (high byte to SP-1 first, then low byte to SP-2).
fn assert_pushed(cpu: &Cpu, bus: &TracingBus, ret: u16) {
    assert_eq!(cpu.sp, STACK - 2, "SP after the interrupt's push");
    assert_eq!(top(cpu, bus), ret, "pushed return address");
    let writes: Vec<(u16, u8)> = bus
        .of_kind(Kind::Write)
        .iter()
        .map(|e| (e.addr, e.data))
        .collect();
    assert_eq!(
        writes,
        vec![(STACK - 1, (ret >> 8) as u8), (STACK - 2, ret as u8)],
        "the push's write cycles"
    );
}

#[test]
fn nmi_costs_11_t_calls_0066_resets_iff1_keeps_iff2() {
    for iff in [false, true] {
        let (mut cpu, mut bus) = machine(0x1234, &[0x00]);
        cpu.iff1 = iff;
        cpu.iff2 = iff;
        cpu.nmi_pending = true;
        assert_eq!(step(&mut cpu, &mut bus), 11, "NMI acceptance (iff {iff})");
        assert_eq!(cpu.pc, 0x0066);
        assert_pushed(&cpu, &bus, 0x1234);
        assert!(!cpu.iff1, "NMI resets IFF1");
        assert_eq!(cpu.iff2, iff, "NMI keeps IFF2");
        assert!(!cpu.nmi_pending, "the NMI was consumed");
        assert_eq!(cpu.r, 1, "acceptance adds one to R");
        assert!(
            bus.of_kind(Kind::IntAck).is_empty(),
            "an NMI has no acknowledge cycle"
        );
    }
}

#[test]
fn nmi_has_priority_over_int() {
    let (mut cpu, mut bus) = machine(0x1000, &[0x00]);
    cpu.int_line = true;
    cpu.nmi_pending = true;
    assert_eq!(step(&mut cpu, &mut bus), 11);
    assert_eq!(cpu.pc, 0x0066, "NMI taken first");
    // IFF1 is now reset, so the still-active INT is ignored until RETN.
    bus.load(0x0066, &[0x00]);
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x0067, "INT masked inside the NMI routine");
}

#[test]
fn im0_executes_the_rst_on_the_bus_in_13_t() {
    for (byte, target) in [(0xCFu8, 0x0008u16), (0xFF, 0x0038), (0xD7, 0x0010)] {
        let (mut cpu, mut bus) = machine(0x4321, &[0x00]);
        cpu.im = 0;
        cpu.i = 0x99;
        cpu.int_line = true;
        bus.int_ack_byte = byte;
        assert_eq!(
            step(&mut cpu, &mut bus),
            13,
            "IM 0 with {byte:02X} on the bus"
        );
        assert_eq!(cpu.pc, target, "IM 0 RST target for {byte:02X}");
        assert_pushed(&cpu, &bus, 0x4321);
        assert!(!cpu.iff1 && !cpu.iff2, "INT resets both IFFs");
        assert_eq!(cpu.r, 1);
        assert_eq!(bus.of_kind(Kind::IntAck).len(), 1, "one acknowledge cycle");
        assert!(
            bus.of_kind(Kind::FetchRead).is_empty(),
            "the opcode comes from the bus, not from memory"
        );
    }
}

#[test]
fn im1_calls_0038_in_13_t_whatever_the_bus_says() {
    for byte in [0x00u8, 0xFF, 0x47] {
        let (mut cpu, mut bus) = machine(0x2000, &[0x00]);
        cpu.im = 1;
        cpu.i = 0x55;
        cpu.int_line = true;
        bus.int_ack_byte = byte;
        assert_eq!(step(&mut cpu, &mut bus), 13, "IM 1");
        assert_eq!(cpu.pc, 0x0038);
        assert_pushed(&cpu, &bus, 0x2000);
        assert!(!cpu.iff1 && !cpu.iff2);
        assert_eq!(cpu.r, 1);
    }
}

#[test]
fn im2_calls_through_the_vector_at_i_times_256_plus_bus_byte_in_19_t() {
    // An odd bus byte is used as is: the doc tested Zilog's "bit 0 is always 0" and refuted it.
    for byte in [0x34u8, 0x35, 0xFF] {
        let (mut cpu, mut bus) = machine(0x3000, &[0x00]);
        cpu.im = 2;
        cpu.i = 0x12;
        cpu.int_line = true;
        bus.int_ack_byte = byte;
        let vec = 0x1200 | byte as u16;
        bus.load(vec, &[0x78, 0x56]);
        assert_eq!(step(&mut cpu, &mut bus), 19, "IM 2");
        assert_eq!(cpu.pc, 0x5678, "IM 2 target read from {vec:04X}");
        assert_pushed(&cpu, &bus, 0x3000);
        let reads: Vec<u16> = bus.of_kind(Kind::Read).iter().map(|e| e.addr).collect();
        assert_eq!(reads, vec![vec, vec.wrapping_add(1)], "vector read cycles");
        assert!(!cpu.iff1 && !cpu.iff2);
        assert_eq!(cpu.r, 1);
    }
}

#[test]
fn acceptance_increments_r_keeping_bit_7() {
    for (r0, r1) in [(0x00u8, 0x01u8), (0x7F, 0x00), (0xFF, 0x80), (0x85, 0x86)] {
        let (mut cpu, mut bus) = machine(0x1000, &[0x00]);
        cpu.r = r0;
        cpu.int_line = true;
        step(&mut cpu, &mut bus);
        assert_eq!(cpu.pc, 0x0038);
        assert_eq!(cpu.r, r1, "INT acceptance: R {r0:02X}");

        let (mut cpu, mut bus) = machine(0x1000, &[0x00]);
        cpu.r = r0;
        cpu.nmi_pending = true;
        step(&mut cpu, &mut bus);
        assert_eq!(cpu.pc, 0x0066);
        assert_eq!(cpu.r, r1, "NMI acceptance: R {r0:02X}");
    }
}

#[test]
fn int_is_ignored_while_iff1_is_reset_or_the_line_is_high() {
    let (mut cpu, mut bus) = machine(0x1000, &[0x00, 0x00]);
    cpu.iff1 = false;
    cpu.iff2 = false;
    cpu.int_line = true;
    assert_eq!(step(&mut cpu, &mut bus), 4);
    assert_eq!(cpu.pc, 0x1001, "masked: NOP executed");

    let (mut cpu, mut bus) = machine(0x1000, &[0x00, 0x00]);
    cpu.int_line = false;
    assert_eq!(step(&mut cpu, &mut bus), 4);
    assert_eq!(cpu.pc, 0x1001, "no request: NOP executed");
}

#[test]
fn ei_delays_acceptance_by_one_instruction() {
    // EI; NOP; NOP with /INT held low.
    let (mut cpu, mut bus) = machine(0x1000, &[0xFB, 0x00, 0x00]);
    cpu.iff1 = false;
    cpu.iff2 = false;
    cpu.int_line = true;
    assert_eq!(step(&mut cpu, &mut bus), 4, "EI");
    assert_eq!(cpu.pc, 0x1001);
    assert!(cpu.iff1 && cpu.iff2, "EI sets both IFFs");
    assert!(cpu.ei);
    assert_eq!(
        step(&mut cpu, &mut bus),
        4,
        "the instruction after EI runs first"
    );
    assert_eq!(cpu.pc, 0x1002);
    assert_eq!(
        step(&mut cpu, &mut bus),
        13,
        "then the interrupt is accepted"
    );
    assert_eq!(cpu.pc, 0x0038);
    assert_pushed(&cpu, &bus, 0x1002);
}

#[test]
fn a_run_of_eis_keeps_blocking() {
    // Four EIs then NOP: the interrupt comes only after the NOP that follows the last EI.
    let (mut cpu, mut bus) = machine(0x1000, &[0xFB, 0xFB, 0xFB, 0xFB, 0x00, 0x00]);
    cpu.int_line = true;
    cpu.iff1 = false;
    cpu.iff2 = false;
    for k in 1..=4u16 {
        step(&mut cpu, &mut bus);
        assert_eq!(cpu.pc, 0x1000 + k, "EI #{k} executed, no interrupt");
        assert_eq!(cpu.sp, STACK);
    }
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x1005, "the NOP after the last EI runs");
    assert_eq!(step(&mut cpu, &mut bus), 13);
    assert_eq!(cpu.pc, 0x0038);
    assert_pushed(&cpu, &bus, 0x1005);

    // With IFF1 already set, an EI in a run still blocks (the first step accepts, since the
    // instruction before it was not EI).
    let (mut cpu, mut bus) = machine(0x1000, &[0xFB, 0xFB, 0x00]);
    cpu.ei = true; // as if the previous instruction had been EI
    cpu.int_line = true;
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x1001, "blocked by the previous EI");
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x1002, "blocked by EI #1");
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x1003, "blocked by EI #2: NOP runs");
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x0038, "accepted after the NOP");
}

#[test]
fn di_masks_int_but_not_nmi() {
    let (mut cpu, mut bus) = machine(0x1000, &[0xF3, 0x00, 0x00]);
    step(&mut cpu, &mut bus);
    assert!(!cpu.iff1 && !cpu.iff2, "DI resets both IFFs");
    cpu.int_line = true;
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x1002, "INT ignored after DI");
    cpu.nmi_pending = true;
    assert_eq!(step(&mut cpu, &mut bus), 11);
    assert_eq!(cpu.pc, 0x0066, "NMI accepted after DI");
    assert_pushed(&cpu, &bus, 0x1002);
}

#[test]
fn halt_then_int_pushes_the_address_after_halt() {
    for mode in [1u8, 2] {
        let (mut cpu, mut bus) = machine(0x1000, &[0x76, 0x00]);
        cpu.im = mode;
        cpu.i = 0x20;
        bus.int_ack_byte = 0x10;
        bus.load(0x2010, &[0x00, 0x90]);
        assert_eq!(step(&mut cpu, &mut bus), 4, "HALT");
        assert!(cpu.halted);
        assert_eq!(cpu.pc, 0x1001, "PC is past the HALT while halted");
        let r0 = cpu.r;
        for k in 1..=3u64 {
            assert_eq!(step(&mut cpu, &mut bus), 4, "halted: a NOP M1 cycle");
            assert!(cpu.halted);
            assert_eq!(cpu.pc, 0x1001);
            assert_eq!(cpu.r, r0 + k as u8, "each halted M1 cycle refreshes");
        }
        cpu.int_line = true;
        let want_t = if mode == 1 { 13 } else { 19 };
        assert_eq!(
            step(&mut cpu, &mut bus),
            want_t,
            "IM {mode} acceptance from HALT"
        );
        assert!(!cpu.halted, "acceptance leaves the halt state");
        assert_eq!(cpu.pc, if mode == 1 { 0x0038 } else { 0x9000 });
        assert_pushed(&cpu, &bus, 0x1001);
    }
}

#[test]
fn halt_then_nmi_pushes_the_address_after_halt() {
    let (mut cpu, mut bus) = machine(0x1000, &[0x76, 0x00]);
    cpu.iff1 = false;
    cpu.iff2 = false;
    step(&mut cpu, &mut bus);
    assert!(cpu.halted);
    cpu.int_line = true; // masked: must not wake it
    step(&mut cpu, &mut bus);
    assert!(cpu.halted, "a masked INT does not end HALT");
    cpu.nmi_pending = true;
    assert_eq!(step(&mut cpu, &mut bus), 11);
    assert!(!cpu.halted);
    assert_eq!(cpu.pc, 0x0066);
    assert_pushed(&cpu, &bus, 0x1001);
}

#[test]
fn retn_and_reti_copy_iff2_to_iff1() {
    // ED 45 RETN, ED 4D RETI and the undocumented ED x5/xD aliases all copy IFF2 to IFF1.
    for op in [0x45u8, 0x4D, 0x55, 0x5D, 0x65, 0x6D, 0x75, 0x7D] {
        for iff2 in [false, true] {
            let (mut cpu, mut bus) = machine(0x1000, &[0xED, op]);
            cpu.iff1 = !iff2;
            cpu.iff2 = iff2;
            cpu.sp = 0x7000;
            bus.load(0x7000, &[0xCD, 0xAB]);
            assert_eq!(step(&mut cpu, &mut bus), 14, "ED {op:02X}");
            assert_eq!(cpu.pc, 0xABCD, "ED {op:02X} returns");
            assert_eq!(cpu.sp, 0x7002);
            assert_eq!(cpu.iff1, iff2, "ED {op:02X}: IFF1 = IFF2");
            assert_eq!(cpu.iff2, iff2, "ED {op:02X}: IFF2 kept");
        }
    }
}

#[test]
fn nmi_then_retn_restores_the_iffs() {
    let (mut cpu, mut bus) = machine(0x1000, &[0x00]);
    bus.load(0x0066, &[0xED, 0x45]);
    cpu.nmi_pending = true;
    step(&mut cpu, &mut bus);
    assert!(!cpu.iff1 && cpu.iff2);
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x1000);
    assert!(cpu.iff1 && cpu.iff2, "RETN restores IFF1 from IFF2");
}

#[test]
fn ld_a_i_and_ld_a_r_copy_iff2_to_pv() {
    for op in [0x57u8, 0x5F] {
        for iff2 in [false, true] {
            let (mut cpu, mut bus) = machine(0x1000, &[0xED, op]);
            cpu.iff1 = false;
            cpu.iff2 = iff2;
            cpu.i = 0x80;
            cpu.r = 0x7F; // after the instruction's two M1 cycles: 0x01
            cpu.f = C;
            assert_eq!(step(&mut cpu, &mut bus), 9);
            let want_a = if op == 0x57 { 0x80 } else { 0x01 };
            assert_eq!(
                cpu.a, want_a,
                "ED {op:02X} value (R read after its own increment)"
            );
            assert_eq!(cpu.f & PV != 0, iff2, "ED {op:02X}: P/V = IFF2 ({iff2})");
            assert_eq!(
                cpu.f & (S | Z | H | N | C),
                (want_a & S) | C,
                "ED {op:02X}: S Z H N C"
            );
            assert!(cpu.p, "ED {op:02X} sets the P latch");
        }
    }
}

#[test]
fn int_right_after_ld_a_i_or_ld_a_r_resets_pv() {
    for op in [0x57u8, 0x5F] {
        // EI; LD A,I (or R) with /INT low: the EI delay lets LD A,I run, then INT is accepted.
        let (mut cpu, mut bus) = machine(0x1000, &[0xFB, 0xED, op, 0x00]);
        cpu.int_line = true;
        cpu.iff1 = false;
        cpu.iff2 = false;
        cpu.i = 0x42;
        step(&mut cpu, &mut bus); // EI
        step(&mut cpu, &mut bus); // LD A,I: IFF2 = 1 so P/V = 1
        assert_eq!(cpu.pc, 0x1003);
        assert!(cpu.f & PV != 0, "ED {op:02X}: P/V = IFF2 = 1");
        let f_before = cpu.f;
        assert_eq!(step(&mut cpu, &mut bus), 13);
        assert_eq!(cpu.pc, 0x0038, "interrupt accepted");
        assert_pushed(&cpu, &bus, 0x1003);
        assert_eq!(
            cpu.f,
            f_before & !PV,
            "ED {op:02X}: the NMOS quirk resets only P/V"
        );

        // Control: one instruction in between and P/V survives the acceptance.
        let (mut cpu, mut bus) = machine(0x1000, &[0xED, op, 0x00, 0x00]);
        cpu.i = 0x42;
        step(&mut cpu, &mut bus); // LD A,I (no request yet)
        step(&mut cpu, &mut bus); // NOP
        assert!(!cpu.p, "NOP clears the P latch");
        cpu.int_line = true;
        let f_before = cpu.f;
        assert!(f_before & PV != 0);
        step(&mut cpu, &mut bus);
        assert_eq!(cpu.pc, 0x0038);
        assert_eq!(
            cpu.f, f_before,
            "ED {op:02X}: F untouched when not right after LD A,I/R"
        );
    }
}

#[test]
fn no_acceptance_between_dd_fd_prefixes_and_their_opcode() {
    // EI; DD DD FD 21 34 12 (LD IY,1234h after two ignored prefixes); NOP. /INT held low.
    // Whether the core treats the redundant prefixes as one step or several, no step may
    // accept the interrupt before LD IY,nn has completed.
    let code = [0xFB, 0xDD, 0xDD, 0xFD, 0x21, 0x34, 0x12, 0x00];
    let (mut cpu, mut bus) = machine(0x1000, &code);
    cpu.iff1 = false;
    cpu.iff2 = false;
    cpu.int_line = true;
    cpu.ix = 0xAAAA;
    cpu.iy = 0xBBBB;
    step(&mut cpu, &mut bus); // EI
    let mut steps = 0;
    let mut t = 0;
    while cpu.pc != 0x1007 {
        t += step(&mut cpu, &mut bus);
        steps += 1;
        assert_eq!(
            cpu.sp, STACK,
            "interrupt accepted inside a prefixed instruction"
        );
        assert!((0x1002..=0x1007).contains(&cpu.pc), "PC {:04X}", cpu.pc);
        assert!(steps <= 3, "too many steps");
    }
    assert_eq!(t, 4 + 4 + 14, "DD, DD, then FD 21 nn nn");
    assert_eq!(cpu.iy, 0x1234, "the last prefix wins");
    assert_eq!(cpu.ix, 0xAAAA);
    assert_eq!(
        step(&mut cpu, &mut bus),
        13,
        "accepted after the instruction"
    );
    assert_pushed(&cpu, &bus, 0x1007);

    // The same for an NMI raised before the prefixed instruction starts: it is accepted at
    // once (before the DD), and then the whole instruction runs after RETN.
    let (mut cpu, mut bus) = machine(0x1000, &[0xDD, 0x21, 0x34, 0x12, 0x00]);
    bus.load(0x0066, &[0xED, 0x45]);
    cpu.nmi_pending = true;
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.pc, 0x0066);
    assert_eq!(
        top(&cpu, &bus),
        0x1000,
        "NMI accepted before the prefix, not after it"
    );
    step(&mut cpu, &mut bus); // RETN
    step(&mut cpu, &mut bus);
    assert_eq!(cpu.ix, 0x1234);
    assert_eq!(cpu.pc, 0x1004);
}

#[test]
fn acceptance_between_ed_cb_instructions_and_block_iterations() {
    // ED and CB instructions are whole instructions: INT is accepted after them. An LDIR
    // iteration sets PC back to the LDIR, which is what the interrupt pushes.
    let (mut cpu, mut bus) = machine(0x1000, &[0xED, 0xB0, 0x00]);
    cpu.set_hl(0x4000);
    cpu.set_de(0x5000);
    cpu.set_bc(3);
    cpu.ei = true; // let the first iteration run
    cpu.int_line = true;
    assert_eq!(step(&mut cpu, &mut bus), 21, "one repeating LDIR iteration");
    assert_eq!(cpu.pc, 0x1000);
    assert_eq!(cpu.bc(), 2);
    assert_eq!(step(&mut cpu, &mut bus), 13);
    assert_eq!(cpu.pc, 0x0038);
    assert_pushed(&cpu, &bus, 0x1000);
}
