//! FUSE's Z80 core tests (1,356 tests): registers, MEMPTR, memory, final T-states and the
//! memory/port events of every test in `tests/data/z80/fuse`, checked against `Cpu::step`.
//!
//! Harness rules (from `tests/data/README.md` and `README.fuse`): memory is filled with the
//! repeating bytes DE AD BE EF, then the test's memory lines and registers are applied; a port
//! read returns the high byte of the port address; no interrupts; whole instructions are run
//! while the T-state counter is below the test's TSTATES.

use crate::common::bus::{self, Kind, TracingBus};
use std::fmt::Write as _;
use z80chess::z80::Cpu;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/z80/fuse/");

/// AF BC DE HL AF' BC' DE' HL' IX IY SP PC MEMPTR, then I R IFF1 IFF2 IM halted tstates.
#[derive(Clone, Debug, Default)]
struct State {
    words: [u16; 13],
    i: u8,
    r: u8,
    iff1: bool,
    iff2: bool,
    im: u8,
    halted: bool,
    tstates: u64,
}

const WORD_NAMES: [&str; 13] = [
    "AF", "BC", "DE", "HL", "AF'", "BC'", "DE'", "HL'", "IX", "IY", "SP", "PC", "MEMPTR",
];

struct Input {
    name: String,
    state: State,
    mem: Vec<(u16, Vec<u8>)>,
}

struct Expected {
    name: String,
    /// (time, type, address, data) for MR/MW/PR/PW lines (MC/PC contention lines dropped).
    events: Vec<(u64, String, u16, Option<u8>)>,
    /// (time, address) of the MC (memory contention) lines.
    mc: Vec<(u64, u16)>,
    state: State,
    mem: Vec<(u16, Vec<u8>)>,
}

fn hex16(s: &str) -> u16 {
    u16::from_str_radix(s, 16).unwrap_or_else(|_| panic!("bad hex word {s:?}"))
}
fn hex8(s: &str) -> u8 {
    u8::from_str_radix(s, 16).unwrap_or_else(|_| panic!("bad hex byte {s:?}"))
}

fn parse_state(l1: &str, l2: &str) -> State {
    let w: Vec<u16> = l1.split_whitespace().map(hex16).collect();
    assert_eq!(w.len(), 13, "register line {l1:?}");
    let f: Vec<&str> = l2.split_whitespace().collect();
    assert_eq!(f.len(), 7, "state line {l2:?}");
    State {
        words: w.try_into().unwrap(),
        i: hex8(f[0]),
        r: hex8(f[1]),
        iff1: f[2] != "0",
        iff2: f[3] != "0",
        im: f[4].parse().unwrap(),
        halted: f[5] != "0",
        tstates: f[6].parse().unwrap(),
    }
}

/// `addr b1 b2 ... -1`
fn parse_mem_line(line: &str) -> (u16, Vec<u8>) {
    let mut it = line.split_whitespace();
    let addr = hex16(it.next().unwrap());
    let mut bytes = Vec::new();
    for tok in it {
        if tok == "-1" {
            return (addr, bytes);
        }
        bytes.push(hex8(tok));
    }
    panic!("memory line without -1: {line:?}");
}

fn parse_inputs(text: &str) -> Vec<Input> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let mut out = Vec::new();
    while let Some(name) = lines.next() {
        let state = parse_state(lines.next().unwrap(), lines.next().unwrap());
        let mut mem = Vec::new();
        loop {
            let l = lines.next().expect("unterminated test in tests.in");
            if l.trim() == "-1" {
                break;
            }
            mem.push(parse_mem_line(l));
        }
        out.push(Input {
            name: name.trim().to_string(),
            state,
            mem,
        });
    }
    out
}

fn parse_expected(text: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    loop {
        while lines.peek().is_some_and(|l| l.trim().is_empty()) {
            lines.next();
        }
        let Some(name) = lines.next() else { break };
        let mut events = Vec::new();
        let mut mc = Vec::new();
        while lines
            .peek()
            .is_some_and(|l| l.starts_with(' ') || l.starts_with('\t'))
        {
            let f: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
            let kind = f[1];
            if kind == "MC" {
                mc.push((f[0].parse().unwrap(), hex16(f[2])));
            }
            if kind == "MC" || kind == "PC" {
                continue; // ZX Spectrum contention probes: not part of the Z80's own behaviour
            }
            assert!(matches!(kind, "MR" | "MW" | "PR" | "PW"), "event {f:?}");
            events.push((
                f[0].parse().unwrap(),
                kind.to_string(),
                hex16(f[2]),
                f.get(3).map(|d| hex8(d)),
            ));
        }
        let state = parse_state(lines.next().unwrap(), lines.next().unwrap());
        let mut mem = Vec::new();
        while lines.peek().is_some_and(|l| !l.trim().is_empty()) {
            mem.push(parse_mem_line(lines.next().unwrap()));
        }
        out.push(Expected {
            name: name.trim().to_string(),
            events,
            mc,
            state,
            mem,
        });
    }
    out
}

/// The five tests that stop inside a repeating block instruction and expect the pre-2018 model
/// (see `tests/data/README.md`, "Known quirks"): (name, instruction, file F, file MEMPTR,
/// newer-model F, newer-model MEMPTR). Everything else in them is compared as given.
const OVERRIDES: [(&str, &str, u8, u16, u8, u16); 5] = [
    ("edb2_1", "INIR", 0x0C, 0x0A41, 0x00, 0x0001),
    ("edba_1", "INDR", 0x00, 0x069E, 0x00, 0x0001),
    ("edb3_1", "OTIR", 0x17, 0x02E1, 0x03, 0x0001),
    ("edbb_1", "OTDR", 0x17, 0x033A, 0x03, 0x0001),
    ("edb9_2", "CPDR", 0xA7, 0x7A46, 0xAF, 0x7A46),
];

fn fill_deadbeef(bus: &mut TracingBus) {
    for (i, b) in bus.mem.iter_mut().enumerate() {
        *b = [0xDE, 0xAD, 0xBE, 0xEF][i & 3];
    }
}

/// Opcodes of the conditional relative jumps: DJNZ, JR NZ/Z/NC/C.
const JR_CC: [u8; 5] = [0x10, 0x20, 0x28, 0x30, 0x38];

/// Run one test; `Ok` holds the number of not-taken JR cc/DJNZ displacement reads that FUSE
/// logs as contention only (see below), `Err` the first differing field.
fn run(input: &Input, exp: &Expected) -> Result<usize, String> {
    let mut bus = TracingBus::new();
    fill_deadbeef(&mut bus);
    for (addr, bytes) in &input.mem {
        bus.load(*addr, bytes);
    }
    let initial_mem = bus.mem.clone();
    let mut cpu = cpu_from(&input.state);
    let s = &input.state;

    let mut steps = 0;
    while cpu.t < s.tstates {
        cpu.step_dyn(&mut bus);
        steps += 1;
        if steps > 100_000 {
            return Err("runaway: more than 100000 steps".into());
        }
    }
    let want = expected_state(exp)?;
    check_registers(&cpu, &want)?;
    check_memory(initial_mem, exp, &bus)?;
    check_events(exp, &bus)
}

/// The CPU in a test's initial state.
fn cpu_from(s: &State) -> Cpu {
    let mut cpu = Cpu::new();
    cpu.set_af(s.words[0]);
    cpu.set_bc(s.words[1]);
    cpu.set_de(s.words[2]);
    cpu.set_hl(s.words[3]);
    cpu.af_ = s.words[4];
    cpu.bc_ = s.words[5];
    cpu.de_ = s.words[6];
    cpu.hl_ = s.words[7];
    cpu.ix = s.words[8];
    cpu.iy = s.words[9];
    cpu.sp = s.words[10];
    cpu.pc = s.words[11];
    cpu.wz = s.words[12];
    cpu.i = s.i;
    cpu.r = s.r;
    cpu.iff1 = s.iff1;
    cpu.iff2 = s.iff2;
    cpu.im = s.im;
    cpu.halted = s.halted;
    cpu.q = 0;
    cpu.t = 0;
    cpu
}

/// The expected state, with the README's newer-model F / MEMPTR for the five block tests.
fn expected_state(exp: &Expected) -> Result<State, String> {
    let mut want = exp.state.clone();
    if let Some(o) = OVERRIDES.iter().find(|o| o.0 == exp.name) {
        let (name, insn, file_f, file_wz, new_f, new_wz) = *o;
        if want.words[0] as u8 != file_f || want.words[12] != file_wz {
            return Err(format!(
                "override table out of date for {name}: file has F {:02X} MEMPTR {:04X}",
                want.words[0] as u8, want.words[12]
            ));
        }
        want.words[0] = (want.words[0] & 0xFF00) | new_f as u16;
        want.words[12] = new_wz;
        println!(
            "fuse: override {name} ({insn}): F {file_f:02X} -> {new_f:02X}, MEMPTR {file_wz:04X} -> \
             {new_wz:04X} (newer block-instruction model, tests/data/README.md)"
        );
    }
    Ok(want)
}

/// Every register, the interrupt state and the T-states against the expected state.
fn check_registers(cpu: &Cpu, want: &State) -> Result<(), String> {
    // FUSE keeps PC on a HALT; our core (like SST) leaves PC past the HALT byte while halted,
    // so the PC FUSE reports for a halted CPU is ours minus one.
    let fuse_pc = if cpu.halted {
        cpu.pc.wrapping_sub(1)
    } else {
        cpu.pc
    };
    let got_words = [
        cpu.af(),
        cpu.bc(),
        cpu.de(),
        cpu.hl(),
        cpu.af_,
        cpu.bc_,
        cpu.de_,
        cpu.hl_,
        cpu.ix,
        cpu.iy,
        cpu.sp,
        fuse_pc,
        cpu.wz,
    ];
    for k in 0..13 {
        if got_words[k] != want.words[k] {
            return Err(format!(
                "{}: expected {:04X}, got {:04X}",
                WORD_NAMES[k], want.words[k], got_words[k]
            ));
        }
    }
    let small = [
        ("I", want.i as u64, cpu.i as u64),
        ("R", want.r as u64, cpu.r as u64),
        ("IFF1", want.iff1 as u64, cpu.iff1 as u64),
        ("IFF2", want.iff2 as u64, cpu.iff2 as u64),
        ("IM", want.im as u64, cpu.im as u64),
        ("halted", want.halted as u64, cpu.halted as u64),
        ("tstates", want.tstates, cpu.t),
    ];
    for (name, w, g) in small {
        if w != g {
            return Err(format!("{name}: expected {w:X}, got {g:X}"));
        }
    }
    Ok(())
}

/// Memory: the initial image with the expected changes applied must equal ours, everywhere.
fn check_memory(
    initial_mem: Box<[u8; 0x10000]>,
    exp: &Expected,
    bus: &TracingBus,
) -> Result<(), String> {
    let mut want_mem = initial_mem;
    for (addr, bytes) in &exp.mem {
        for (i, &b) in bytes.iter().enumerate() {
            want_mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }
    if let Some(a) = (0..0x10000).find(|&a| want_mem[a] != bus.mem[a]) {
        return Err(format!(
            "memory {a:04X}: expected {:02X}, got {:02X}",
            want_mem[a], bus.mem[a]
        ));
    }
    Ok(())
}

/// Bus events, mapped from start-of-cycle T to FUSE's event times.
///
/// One known gap in FUSE's log: when a JR cc or DJNZ is not taken, FUSE's core only
/// "contends" the displacement byte (an `MC` line at the cycle's start, no `MR`), while the
/// chip really runs the 3 T read cycle (SST lists it as an active `r-m-` cycle, and FUSE's
/// own timing counts the 3 T). Such a read of ours is accepted only if it is the byte after a
/// JR cc/DJNZ opcode fetch, FUSE has no MR for it and has the MC line at its exact start.
fn check_events(exp: &Expected, bus: &TracingBus) -> Result<usize, String> {
    let mut contention_only = 0;
    let mut prev_fetch: Option<(u16, u8)> = None;
    let mut kept = Vec::new();
    for e in &bus.events {
        if e.kind == Kind::Read {
            if let Some((fa, op)) = prev_fetch {
                let is_disp = JR_CC.contains(&op) && e.addr == fa.wrapping_add(1);
                let fuse_mr = exp
                    .events
                    .iter()
                    .any(|(t, k, a, _)| *t == e.start_t + 3 && k == "MR" && *a == e.addr);
                let fuse_mc = exp.mc.contains(&(e.start_t, e.addr));
                if is_disp && !fuse_mr && fuse_mc {
                    contention_only += 1;
                    prev_fetch = None;
                    continue;
                }
            }
        }
        prev_fetch = (e.kind == Kind::FetchRead).then_some((e.addr, e.data));
        kept.push(*e);
    }
    let got_events: Vec<(u64, String, u16, Option<u8>)> = kept
        .iter()
        .map(|e| {
            let (dt, kind) = match e.kind {
                Kind::FetchRead => (4, "MR"),
                Kind::Read => (3, "MR"),
                Kind::Write => (3, "MW"),
                Kind::PortIn => (1, "PR"),
                Kind::PortOut => (1, "PW"),
                Kind::IntAck => (0, "INTACK"), // never expected: FUSE tests raise no interrupts
            };
            (e.start_t + dt, kind.to_string(), e.addr, Some(e.data))
        })
        .collect();
    let fmt = |e: Option<&(u64, String, u16, Option<u8>)>| match e {
        None => "nothing".to_string(),
        Some((t, k, a, d)) => match d {
            Some(d) => format!("{t} {k} {a:04X} {d:02X}"),
            None => format!("{t} {k} {a:04X}"),
        },
    };
    for i in 0..got_events.len().max(exp.events.len()) {
        let (w, g) = (exp.events.get(i), got_events.get(i));
        if w != g {
            return Err(format!("event #{i}: expected {}, got {}", fmt(w), fmt(g)));
        }
    }
    Ok(contention_only)
}

#[test]
fn fuse_tests() {
    let inputs = parse_inputs(&std::fs::read_to_string(format!("{DIR}tests.in")).unwrap());
    let expected =
        parse_expected(&std::fs::read_to_string(format!("{DIR}tests.expected")).unwrap());
    assert_eq!(inputs.len(), 1356, "tests.in should hold 1,356 tests");
    assert_eq!(
        inputs.len(),
        expected.len(),
        "tests.in and tests.expected disagree in length"
    );

    let mut failures = Vec::new();
    let mut contention_only = Vec::new();
    for (input, exp) in inputs.iter().zip(&expected) {
        assert_eq!(
            input.name, exp.name,
            "test order differs between the two files"
        );
        let r = bus::catch(|| run(input, exp)).and_then(|r| r);
        match r {
            Ok(0) => {}
            Ok(n) => contention_only.push(format!("{} ({n})", input.name)),
            Err(e) => failures.push(format!("{}: {e}", input.name)),
        }
    }
    let n = inputs.len();
    println!(
        "fuse: {} tests with not-taken JR cc/DJNZ displacement reads that FUSE logs as MC only, \
         accepted: {}",
        contention_only.len(),
        contention_only.join(", ")
    );
    println!("fuse: {n} tests, {} passed", n - failures.len());
    if !failures.is_empty() {
        let mut msg = String::new();
        for f in &failures {
            writeln!(msg, "  {f}").unwrap();
        }
        panic!("{} FUSE tests failed:\n{msg}", failures.len());
    }
}
