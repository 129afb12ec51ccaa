//! The batch loop ([`Cpu::run`], which [`Machine::run`] uses) against the
//! instruction-by-instruction path ([`Cpu::step`]; `Machine::run_observed`, the path the
//! debugger and profiler take, with its bus that reports every access with its T-state), where
//! timing inside an instruction matters to the firmware: the full build's timed search reading
//! the clock port, ROM-write faults, the expansion window, interrupts, HALT and budgets that
//! end mid-program. Every case compares the whole machine (registers with R, Q and the latches,
//! the counter, memory, the clock latch, the page, the output).

use z80chess::asm::assemble_str;
use z80chess::firmware::{parse_fen, sargon, Build, Engine};
use z80chess::machine::{Access, AccessKind, Fault, Machine, MemoryMap, Observer, StopReason};
use z80chess::z80::{Bus, Cpu, Exit, FlatBus, TStates};

/// Watches nothing, but counts the clock-port reads and page selections it is told of.
#[derive(Default)]
struct Counter {
    clock_reads: u32,
    page_outs: u32,
}

impl Observer for Counter {
    fn access(&mut self, a: Access) -> bool {
        match (a.kind, a.addr as u8) {
            (AccessKind::PortIn, 0x06) => self.clock_reads += 1,
            (AccessKind::PortOut, 0x04) => self.page_outs += 1,
            _ => {}
        }
        false
    }
}

/// Everything a run leaves behind, comparable.
fn state(m: &Machine) -> (Cpu, Vec<u8>, u64, u8, Vec<u8>, usize) {
    (
        m.cpu.clone(),
        m.bus.mem.to_vec(),
        m.bus.clock_latch(),
        m.bus.page(),
        m.output().to_vec(),
        m.pending_input(),
    )
}

/// Run `m` in slices of `slice` T-states on both paths until `stop` says it is done, checking
/// after every slice that both give the same stop and the same machine. Returns the observed
/// counts.
fn both_paths(m: &Machine, slice: TStates, done: impl Fn(StopReason) -> bool) -> Counter {
    let (mut fast, mut traced) = (m.clone(), m.clone());
    let mut obs = Counter::default();
    for _ in 0..100_000 {
        let a = fast.run(slice);
        let b = traced.run_observed_dyn(slice, &mut obs);
        assert_eq!(a, b, "stop reasons differ at T {}", fast.cpu.t);
        assert!(
            state(&fast) == state(&traced),
            "machines differ after {a:?} at T {}",
            fast.cpu.t
        );
        if done(a) {
            return obs;
        }
    }
    panic!("no end after 100,000 slices");
}

#[test]
fn the_full_builds_timed_search_reads_the_same_clock_on_both_paths() {
    let mut e = Engine::new(Build::Full).unwrap();
    let pos =
        parse_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    sargon::load(&mut e, &pos).unwrap();
    e.set_time(4_000_000, 1, 0).unwrap();
    e.start_timed_search(6);
    // Slices of an odd length end runs in the middle of the search (and of its clock reads).
    let obs = both_paths(&e.machine, 1_234_567, |s| s == StopReason::InputNeeded);
    // (This middlegame search keeps to the base ROM: the window's switches are the next test's.)
    assert!(obs.clock_reads > 0, "the timed search never read the clock");
}

#[test]
fn the_signature_search_is_the_same_on_both_paths_in_odd_slices() {
    let mut e = Engine::new(Build::B1978).unwrap();
    let pos =
        parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10").unwrap();
    sargon::load(&mut e, &pos).unwrap();
    e.start_search(2, false);
    both_paths(&e.machine, 99_991, |s| s == StopReason::InputNeeded);
}

/// A machine running `src` (assembled at 0), with `map`.
fn machine(src: &str, map: MemoryMap) -> Machine {
    let a = assemble_str(src, "equiv.asm", &[]).unwrap();
    Machine::with_map(&a.image, map).unwrap()
}

#[test]
fn faults_stop_both_paths_at_the_same_instruction_and_t_state() {
    let cases = [
        (
            "ROM",
            "ORG 0\nLD A,5\nLD HL,0100h\nNOP\nLD (HL),A\nLD A,6\nHALT\n",
            MemoryMap::Period,
            Fault::RomWrite {
                addr: 0x0100,
                pc: 6,
            },
        ),
        (
            "unmapped",
            "ORG 0\nLD SP,6002h\nPUSH HL\nHALT\n",
            MemoryMap::Period,
            Fault::UnmappedWrite {
                addr: 0x6001,
                pc: 3,
            },
        ),
        (
            "window",
            "ORG 0\nLD A,0\nOUT (4),A\nLD (8010h),A\nHALT\n",
            MemoryMap::Expanded { pages: 1 },
            Fault::RomWrite {
                addr: 0x8010,
                pc: 4,
            },
        ),
        (
            "underflow",
            "ORG 0\nNOP\nIN A,(0)\nHALT\n",
            MemoryMap::Period,
            Fault::DataUnderflow { pc: 1 },
        ),
        (
            "DD chain",
            "ORG 0\nLD IX,0010h\nDB 0DDh, 0FDh, 0DDh\nLD (IX+2),A\nHALT\n",
            MemoryMap::Period,
            Fault::RomWrite {
                addr: 0x0012,
                pc: 4,
            },
        ),
    ];
    for (name, src, map, fault) in cases {
        for budget in [1_000, 9, 10, 11] {
            let m = machine(src, map);
            let (mut fast, mut traced) = (m.clone(), m);
            let a = fast.run(budget);
            let b = traced.run_observed_dyn(budget, &mut Counter::default());
            assert_eq!(a, b, "{name}, budget {budget}");
            assert!(state(&fast) == state(&traced), "{name}, budget {budget}");
            if budget == 1_000 {
                assert_eq!(a, StopReason::Fault(fault), "{name}");
            }
        }
    }
}

#[test]
fn the_window_switches_the_same_on_both_paths() {
    let src = "
        ORG 0
        LD B,200
    LOOP:
        LD A,B
        AND 3
        OUT (4),A
        LD A,(8000h)
        LD (0C000h),A
        IN A,(4)
        IN A,(6)
        LD (0C001h),A
        DJNZ LOOP
        OUT (0FFh),A
    ";
    let a = assemble_str(src, "window.asm", &[]).unwrap();
    let m = Machine::with_map(&a.image, MemoryMap::Expanded { pages: 3 }).unwrap();
    for slice in [7, 50, 1_000_000] {
        let obs = both_paths(&m, slice, |s| matches!(s, StopReason::Exit(_)));
        assert!(
            obs.page_outs == 200 && obs.clock_reads == 200,
            "slice {slice}"
        );
    }
}

#[test]
fn halt_ends_the_run_on_both_paths_whatever_the_budget() {
    // HALT with interrupts off ends the run even when it ends exactly at the budget; with
    // them on the CPU keeps running NOP cycles until the budget.
    for (src, halts) in [
        ("ORG 0\nNOP\nDI\nHALT\n", true),
        ("ORG 0\nNOP\nEI\nHALT\n", false),
    ] {
        for budget in [7, 8, 12, 13, 100] {
            let m = machine(src, MemoryMap::Period);
            let (mut fast, mut traced) = (m.clone(), m);
            let a = fast.run(budget);
            let b = traced.run_observed_dyn(budget, &mut Counter::default());
            assert_eq!(a, b, "{src:?} budget {budget}");
            assert!(state(&fast) == state(&traced), "{src:?} budget {budget}");
            if budget >= 12 {
                let want = if halts {
                    StopReason::Halted
                } else {
                    StopReason::CycleLimit
                };
                assert_eq!(a, want, "{src:?} budget {budget}");
            }
        }
    }
}

/// A flat bus that logs every machine cycle with its T-state.
#[derive(Clone, Default)]
struct Tracing {
    mem: Vec<u8>,
    log: Vec<(char, u16, u8, TStates)>,
}

impl Bus for Tracing {
    fn fetch(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.mem[addr as usize];
        self.log.push(('f', addr, v, t));
        v
    }
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.mem[addr as usize];
        self.log.push(('r', addr, v, t));
        v
    }
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        self.mem[addr as usize] = value;
        self.log.push(('w', addr, value, t));
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        self.log.push(('i', port, 0, t));
        (t as u8) ^ 0x5A
    }
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        self.log.push(('o', port, value, t));
    }
    fn int_ack(&mut self, t: TStates) -> u8 {
        self.log.push(('a', 0, 0, t));
        0x10
    }
    fn idle(&mut self, addr: u16, n: u32, t: TStates) {
        self.log.push(('n', addr, n as u8, t));
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

#[test]
fn interrupts_between_batches_are_taken_at_the_same_t_states() {
    // IM 2 through a table at 3F10h, a handler that counts, reads R and the clock, and returns
    // with EI; RETI; a main loop of LD A,R / LD A,I (the P/V quirk), EI, DI, HALT and block
    // instructions. The /INT line and NMIs change between runs of odd lengths.
    let src = "
        ORG 0
        LD SP,0F000h
        LD IX,3100h
        LD A,3Fh
        LD I,A
        IM 2
        EI
    MAIN:
        LD A,R
        LD A,I
        LD HL,1000h
        LD DE,2000h
        LD BC,20
        LDIR
        SCF
        CCF
        INC (IX+5)
        DI
        EI
        HALT
        JR MAIN
        ORG 66h
        PUSH AF
        LD A,R
        LD (3000h),A
        POP AF
        RETN
        ORG 200h
    HANDLER:
        PUSH AF
        IN A,(6)
        LD A,(3001h)
        INC A
        LD (3001h),A
        POP AF
        EI
        RETI
        ORG 3F10h
        DW HANDLER
    ";
    let a = assemble_str(src, "ints.asm", &[]).unwrap();
    let mut mem = vec![0u8; 0x10000];
    mem[..a.image.len()].copy_from_slice(&a.image);
    let mut fast = (
        Cpu::new(),
        Tracing {
            mem,
            log: Vec::new(),
        },
    );
    let mut slow = fast.clone();
    let mut seed = 12345u32;
    for i in 0..3000 {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let len = 1 + (seed >> 16) as u64 % 97;
        let line = (seed >> 8) & 3 == 0;
        let nmi = i % 101 == 50;
        for (cpu, _) in [&mut fast, &mut slow] {
            cpu.int_line = line;
            cpu.nmi_pending |= nmi;
        }
        let limit = fast.0.t + len;
        while fast.0.t < limit {
            if let Exit::Halted { .. } = fast.0.run_dyn(&mut fast.1, limit) {
                // A halted CPU runs NOP cycles (the interrupt that wakes it comes with the line).
            }
        }
        while slow.0.t < limit {
            slow.0.step_dyn(&mut slow.1);
        }
        assert_eq!(fast.0, slow.0, "registers differ after slice {i}");
        assert!(fast.1.log == slow.1.log, "bus cycles differ in slice {i}");
        assert!(fast.1.mem == slow.1.mem, "memory differs after slice {i}");
        fast.1.log.clear();
        slow.1.log.clear();
    }
    let handled = fast.1.mem[0x3001];
    assert!(handled > 10, "only {handled} interrupts were taken");
    assert!(fast.0.t > 100_000);
}

/// The address [`Cpu::run`] returns (the one a fault or a watchpoint is reported at) is where
/// the last instruction began, for every opcode of every page, taken or not, at addresses
/// where the instruction wraps past FFFFh: the batch loop's handlers find it from the next
/// PC and the instruction's length where the instruction cannot jump, so this holds
/// the lengths to the instructions'.
#[test]
fn the_batch_loop_names_the_instruction_it_ended_after() {
    let mut checked = 0;
    for prefix in [None, Some(0xCB), Some(0xED), Some(0xDD), Some(0xFD)] {
        for op in 0..=255u8 {
            for start in [0x8000u16, 0xFFFF, 0xFFFE, 0xFFFD] {
                for flags in [0x00, 0xFF] {
                    let mut mem = Box::new([0u8; 0x10000]);
                    // Operands and a DDCB/FDCB opcode that are not prefixes themselves.
                    let bytes: Vec<u8> = prefix.into_iter().chain([op, 0x12, 0x34, 0x46]).collect();
                    for (i, b) in bytes.iter().enumerate() {
                        mem[start.wrapping_add(i as u16) as usize] = *b;
                    }
                    let mut bus = FlatBus { mem };
                    let mut cpu = Cpu::new();
                    (cpu.pc, cpu.f, cpu.sp) = (start, flags, 0x4000);
                    cpu.set_bc(0x0102);
                    let exit = cpu.run_dyn(&mut bus, 1);
                    let what = format!("{prefix:02X?} {op:02X} at {start:04X}h, F {flags:02X}h");
                    assert_eq!(exit.pc(), start, "{what}: {exit:?}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 5 * 256 * 4 * 2);
}

/// SCF and CCF take X and Y from ((Q ^ F) | A), Q being the F the instruction before wrote (0
/// if it wrote none), which SingleStepTests check through [`Cpu::step`]. The batch loop's
/// handlers do not store Q each instruction but find it from the counter, so every
/// opcode of every page, followed by SCF or CCF directly, behind a DD or FD prefix and after
/// a NOP, must leave `Cpu::run` (in slices of odd lengths, so the chains start and end
/// everywhere) in the same state as `Cpu::step`: registers with Q, the counter and memory.
#[test]
fn q_reaches_scf_and_ccf_on_the_batch_loop_as_on_the_step() {
    let tails: [&[u8]; 5] = [
        &[0x37],
        &[0x3F],
        &[0xDD, 0x37],
        &[0xFD, 0x3F],
        &[0x00, 0x37],
    ];
    let mut seed = 7u32;
    let mut scf_after_a_flag_write = 0;
    for prefix in [None, Some(0xCB), Some(0xED), Some(0xDD)] {
        for op in 0..=255u8 {
            for tail in tails {
                let unit: Vec<u8> = prefix
                    .into_iter()
                    .chain([op])
                    .chain(tail.iter().copied())
                    .collect();
                let mut mem = Box::new([0u8; 0x10000]);
                for (i, b) in mem.iter_mut().enumerate() {
                    *b = unit[i % unit.len()];
                }
                let mut fast = (Cpu::new(), FlatBus { mem });
                fast.0.a = 0x00;
                fast.0.f = 0x00;
                let mut slow = fast.clone();
                let mut limit = 0;
                for slice in 0..40 {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    limit += 1 + (seed >> 16) as u64 % 37;
                    while fast.0.t < limit {
                        fast.0.run_dyn(&mut fast.1, limit);
                    }
                    while slow.0.t < limit {
                        let q = slow.0.q;
                        let scf = matches!(slow.1.mem[slow.0.pc as usize], 0x37 | 0x3F);
                        slow.0.step_dyn(&mut slow.1);
                        scf_after_a_flag_write += (scf && q & 0x28 != 0) as u32;
                    }
                    assert_eq!(
                        fast.0, slow.0,
                        "{unit:02X?}: the registers differ after slice {slice}"
                    );
                }
                assert!(fast.1.mem == slow.1.mem, "{unit:02X?}: memory differs");
            }
        }
    }
    // Not vacuous: SCF or CCF often ran where Q's X or Y bit was set.
    assert!(scf_after_a_flag_write > 1000, "{scf_after_a_flag_write}");
}

/// The batch loop counts R's M1 cycles in the PC register's upper bits, above 12 bits that
/// take PC's carries past FFFFh. A loop whose every pass wraps PC (INC A at FFFFh, then
/// JP FFFFh at 0000h: 14 T, so a chain of 2,048 T wraps 146 times) must leave R, and the
/// rest, as the step does, whatever the slices.
#[test]
fn r_counts_the_same_when_pc_wraps_past_ffffh_in_every_instruction_pair() {
    let mut mem = Box::new([0u8; 0x10000]);
    mem[0xFFFF] = 0x3C; // INC A
    mem[..3].copy_from_slice(&[0xC3, 0xFF, 0xFF]); // JP FFFFh
    let mut fast = (Cpu::new(), FlatBus { mem });
    fast.0.pc = 0xFFFF;
    fast.0.r = 0x80;
    let mut slow = fast.clone();
    for limit in [3, 100_000, 100_001, 250_000, 1_000_000] {
        while fast.0.t < limit {
            fast.0.run_dyn(&mut fast.1, limit);
        }
        while slow.0.t < limit {
            slow.0.step_dyn(&mut slow.1);
        }
        assert_eq!(fast.0, slow.0, "the registers differ at limit {limit}");
    }
    // Not vacuous: R went round many times and kept its bit 7.
    assert_eq!(slow.0.r & 0x80, 0x80);
    assert!(slow.0.a != 0 && slow.0.t >= 1_000_000);
}
