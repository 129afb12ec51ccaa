//! Breakpoints in the batch loop (`Bus::stops_before`, `Exit::Break`): `Cpu::run` stops before
//! each instruction at a breakpoint, not before the first of a run, and in the state
//! `Cpu::step` reaches there: at prefixed instructions, inside a repeating LDIR, after EI, at a
//! subroutine's entry and return, and past an interrupt accepted at a breakpoint.

use z80chess::asm::assemble_str;
use z80chess::z80::{Bus, Cpu, Exit, FlatBus, TStates};

/// A flat 64 KiB with breakpoints.
struct Breaking {
    flat: FlatBus,
    at: Vec<u16>,
}

impl Bus for Breaking {
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        self.flat.read(addr, t)
    }
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        self.flat.write(addr, value, t)
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        self.flat.port_in(port, t)
    }
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        self.flat.port_out(port, value, t)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.flat.peek(addr)
    }
    fn stops_before(&self, pc: u16) -> bool {
        self.at.contains(&pc)
    }
}

const PROGRAM: &str = "
        ORG 0
        LD SP,0F000h
        IM 1
loop:   LD HL,data
        LD DE,copy
        LD BC,5
b_ldir: LDIR                    ; a breakpoint inside the repeats
        LD IX,data
        LD A,(IX+2)             ; DD page
b_ddcb: RLC (IX+1)              ; DD CB page
        LD IY,copy
b_fd:   INC (IY+3)              ; FD page
        EI
b_ei:   NOP                     ; the instruction after EI
        DI
        CALL sub
b_back: LD HL,count
        DEC (HL)
        JR NZ,loop
        HALT
sub:    ADD A,7
        SRL A                   ; CB page
        NEG                     ; ED page
        LD C,A
b_ret:  RET
        ORG 0038h
        RET                     ; IM 1's handler
        ORG 0200h
data:   DB 1,2,3,4,5
copy:   DS 5
count:  DB 12
";

/// What the CPU holds at a stop.
fn state(cpu: &Cpu) -> (u16, TStates, [u16; 5], u8, bool) {
    (
        cpu.pc,
        cpu.t,
        [cpu.af(), cpu.bc(), cpu.de(), cpu.hl(), cpu.sp],
        cpu.r,
        cpu.iff1,
    )
}

#[test]
fn run_stops_before_each_breakpoint_where_step_arrives() {
    let asm = assemble_str(PROGRAM, "breaks.asm", &[]).unwrap();
    let image = asm.image;
    let addr = |label: &str| asm.symbols[label].value as u16;
    let at: Vec<u16> = ["b_ldir", "b_ddcb", "b_fd", "b_ei", "sub", "b_ret", "b_back"]
        .map(addr)
        .into_iter()
        .chain([0x0038])
        .collect();
    let fresh = || {
        let mut flat = FlatBus::default();
        flat.mem[..image.len()].copy_from_slice(&image);
        Breaking {
            flat,
            at: at.clone(),
        }
    };
    // An interrupt is asserted while the CPU is at the instruction after EI, every third pass.
    let assert_int = |cpu: &mut Cpu, pass: &mut u32| {
        if cpu.pc == addr("b_ei") && cpu.iff1 {
            *pass += 1;
            cpu.int_line = pass.is_multiple_of(3);
        } else if cpu.pc == 0x0038 {
            cpu.int_line = false;
        }
    };

    // Every instruction by `step`, noting the state before each one at a breakpoint.
    let (mut cpu, mut bus, mut pass) = (Cpu::default(), fresh(), 0);
    let mut stepped = Vec::new();
    while !cpu.halted {
        assert!(cpu.t < 1_000_000, "the program does not end");
        assert_int(&mut cpu, &mut pass);
        if at.contains(&cpu.pc) {
            stepped.push(state(&cpu));
        }
        cpu.step_dyn(&mut bus);
    }
    let step_end = (state(&cpu), bus.flat.mem.clone());

    // The batch loop, stopping at the breakpoints.
    let (mut cpu, mut bus, mut pass) = (Cpu::default(), fresh(), 0);
    let mut ran = Vec::new();
    if at.contains(&cpu.pc) {
        ran.push(state(&cpu));
    }
    loop {
        assert_int(&mut cpu, &mut pass);
        match cpu.run_dyn(&mut bus, TStates::MAX) {
            Exit::Break { .. } => ran.push(state(&cpu)),
            Exit::Halted { .. } => break,
            Exit::Limit { pc } => panic!("a limit at {pc:04X}h"),
        }
    }
    assert!(pass >= 6, "{pass} passes");
    assert!(
        stepped.iter().any(|s| s.0 == 0x0038),
        "no interrupt accepted"
    );
    assert!(stepped.len() > 60, "{} stops", stepped.len());
    assert_eq!(ran.len(), stepped.len(), "stop counts");
    for (i, (r, s)) in ran.iter().zip(&stepped).enumerate() {
        assert_eq!(r, s, "stop {i}");
    }
    assert!(
        (state(&cpu), bus.flat.mem) == step_end,
        "the runs end apart"
    );
}
