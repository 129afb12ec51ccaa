//! Expansion memory: the full build's machine with ROM pages behind the 8000h window, the
//! expansion RAM, the page port and the clock port; the assembler's `PAGE`, the symbol file,
//! source map and disassembler naming paged addresses `page:addr`; the period machine
//! unchanged. `tests/banking/banking.asm` is the program.

use z80chess::asm::{assemble_file, assemble_str, Assembly};
use z80chess::disasm::{self, Symbols};
use z80chess::machine::{Fault, Machine, MemoryMap, StopReason, PAGE_SIZE, ROM_SIZE};
use z80chess::z80::Bus;

const PROGRAM: &str = "tests/banking/banking.asm";

fn program() -> Assembly {
    assemble_file(std::path::Path::new(PROGRAM), &[]).expect("banking.asm assembles")
}

/// Run the program to its exit port.
fn run(a: &Assembly) -> Machine {
    let mut m = Machine::expanded(&a.image).unwrap();
    assert!(matches!(m.run(1_000_000), StopReason::Exit(_)));
    m
}

fn sym(a: &Assembly, name: &str) -> u16 {
    a.symbol(name).unwrap_or_else(|| panic!("no symbol {name}")) as u16
}

#[test]
fn the_image_is_the_base_then_the_pages() {
    let a = program();
    assert_eq!(a.pages, 2);
    assert_eq!(a.origin, 0);
    assert_eq!(a.image.len(), ROM_SIZE + 2 * PAGE_SIZE);
    assert_eq!(
        MemoryMap::expanded_for(&a.image),
        MemoryMap::Expanded { pages: 2 }
    );
    // P0MAIN and P1MAIN share an address; their bytes live in their own pages.
    assert_eq!(sym(&a, "P0MAIN"), 0x8000);
    assert_eq!(sym(&a, "P1MAIN"), 0x8000);
    assert_eq!(a.symbol_page("P0MAIN"), Some(0));
    assert_eq!(a.symbol_page("P1DATA"), Some(1));
    assert_eq!(a.symbol_page("FAR0"), None);
    assert_eq!(a.symbol_page("XRAM"), None, "an EQU carries no page");
    assert_eq!(a.page_bytes(0).unwrap()[0x100], 0x11);
    assert_eq!(a.page_bytes(1).unwrap()[0x100], 0x22);
    assert_eq!(a.image[ROM_SIZE + PAGE_SIZE + 0x100], 0x22);
}

#[test]
fn code_and_data_in_two_pages_run_through_the_window() {
    let a = program();
    let m = run(&a);
    let c = &m.cpu;
    assert_eq!(c.b, 0x11, "page 0's code read page 0's data");
    assert_eq!(
        c.c, 0x22,
        "page 1's code, at the same address, read page 1's data"
    );
    assert_eq!(c.d, 1, "IN from the page port reads the selection back");
    assert_eq!(
        c.e, 0x42,
        "page 1 called page 0 through the base and came back"
    );
    let x = 0xC000;
    let xram: Vec<u8> = (0..6).map(|k| m.bus.peek(x + k)).collect();
    assert_eq!(
        xram,
        [0x11, 0x33, 0x42, 0x00, 0xFF, 0x11],
        "expansion RAM read back; 6000h is RAM (zero at power-on); an unfitted page reads FFh; \
         page 0 again"
    );
    assert_eq!(m.bus.page(), 1);
    assert_eq!(m.bus.window_page(), Some(1));
    assert_eq!(
        m.bus.peek(0x8100),
        0x22,
        "the window shows page 1 at the end"
    );
    assert_eq!(
        m.bus.peek_page(0, 0x8100),
        Some(0x11),
        "any page, side-effect free"
    );
    assert_eq!(m.bus.page(), 1, "peek_page selects nothing");
    assert_eq!(m.bus.peek_page(2, 0x8100), None, "page 2 is not fitted");
}

#[test]
fn the_clock_port_gives_the_t_states_of_the_program() {
    let a = program();
    let m = run(&a);
    // Every instruction runs once: the run's T-states are the listing's sum.
    let total: u64 = a
        .listing
        .iter()
        .filter_map(|l| l.timing)
        .map(|t| t.base as u64)
        .sum();
    assert_eq!(
        m.cpu.t, total,
        "each instruction of banking.asm runs exactly once"
    );
    let clk1 = sym(&a, "CLK1");
    let first = (0..6).fold(0u64, |v, k| v | (m.bus.peek(clk1 + k) as u64) << (8 * k));
    assert_eq!(first, 7, "IN A,(06h) at T=0 latches at its I/O cycle, T=7");
    let clk2 = sym(&a, "CLK2");
    let last = u16::from_le_bytes([m.bus.peek(clk2), m.bus.peek(clk2 + 1)]) as u64;
    assert_eq!(m.bus.clock_latch(), total - 50);
    assert_eq!(last, (total - 50) & 0xFFFF);
    assert!(last > first);
}

#[test]
fn the_clock_reads_48_bits() {
    // Bytes 1..5 of the latch come from the last read of port 06h, whatever the counter does.
    let src = "
        ORG 0
        IN A,(6)
        LD B,A
        IN A,(7)
        LD C,A
        IN A,(0Bh)
        LD D,A
        OUT (0FFh),A
    ";
    let a = assemble_str(src, "clock48.asm", &[]).unwrap();
    let mut m = Machine::new(&a.image).unwrap();
    let start = 0x0000_1234_5678_9A00u64;
    m.cpu.t = start;
    assert_eq!(m.run(1000), StopReason::Exit(0x12));
    assert_eq!(m.bus.clock_latch(), start + 7);
    assert_eq!((m.cpu.b, m.cpu.c, m.cpu.d), (0x07, 0x9A, 0x12));
}

#[test]
fn a_snapshot_keeps_the_page() {
    let a = program();
    let mut m = Machine::expanded(&a.image).unwrap();
    // Stop inside P1MAIN (page 1 selected), keep a clone, run to the end from a page-0 state.
    let mut snap = None;
    while snap.is_none() {
        assert_eq!(m.run(1), StopReason::CycleLimit);
        if m.cpu.pc == 0x8003 && m.bus.window_page() == Some(1) {
            snap = Some(m.clone());
        }
    }
    let snap = snap.unwrap();
    m.bus.select_page(0);
    assert_eq!(m.bus.peek(0x8100), 0x11);
    let mut back = snap.clone();
    assert_eq!(back.bus.page(), 1);
    assert_eq!(
        back.bus.peek(0x8100),
        0x22,
        "the restored window shows page 1"
    );
    assert!(matches!(back.run(1_000_000), StopReason::Exit(_)));
    assert_eq!(back.cpu.e, 0x42);
}

#[test]
fn writes_to_the_window_are_faults() {
    let src = "
        ORG 0
        LD A,5
        LD (0C123h),A   ; expansion RAM: fine
        LD (8000h),A    ; the window is ROM
        OUT (0FFh),A
    ";
    let a = assemble_str(src, "wwin.asm", &[]).unwrap();
    let mut m = Machine::with_map(&a.image, MemoryMap::Expanded { pages: 1 }).unwrap();
    assert_eq!(
        m.run(1000),
        StopReason::Fault(Fault::RomWrite {
            addr: 0x8000,
            pc: 5
        })
    );
    assert_eq!(m.bus.peek(0xC123), 5);
    let m = Machine::with_map(&a.image, MemoryMap::Expanded { pages: 0 }).unwrap();
    assert_eq!(m.bus.peek(0x8000), 0xFF, "no pages: the window is unmapped");
    // With no page fitted the window is unmapped: a write there is not a ROM write.
    let src = "ORG 0\nLD (8000h),A\n";
    let a = assemble_str(src, "w8000.asm", &[]).unwrap();
    let mut m = Machine::with_map(&a.image, MemoryMap::Expanded { pages: 0 }).unwrap();
    assert!(matches!(
        m.run(100),
        StopReason::Fault(Fault::UnmappedWrite { addr: 0x8000, .. })
    ));
}

#[test]
fn the_expanded_map_has_ram_at_6000h() {
    // 8 KiB of RAM at 6000h-7FFFh beside the period RAM, zero at power-on; the window above it
    // is still ROM.
    let src = "
        ORG 0
        LD A,(6000h)
        LD B,A          ; 0: zero at power-on
        LD A,5Ah
        LD (6000h),A
        LD (7FFFh),A
        LD HL,(5FFFh)   ; across the period RAM's end into the expansion RAM
        LD (8000h),A    ; the window is ROM
        OUT (0FFh),A
    ";
    let a = assemble_str(src, "w6000.asm", &[]).unwrap();
    let mut m = Machine::with_map(&a.image, MemoryMap::Expanded { pages: 1 }).unwrap();
    assert!(matches!(
        m.run(1000),
        StopReason::Fault(Fault::RomWrite { addr: 0x8000, .. })
    ));
    assert_eq!(m.cpu.b, 0);
    assert_eq!((m.bus.peek(0x6000), m.bus.peek(0x7FFF)), (0x5A, 0x5A));
    assert_eq!(m.cpu.hl(), 0x5A00, "5FFFh (period RAM, 0) and 6000h");
    // The period machine has none of it.
    let mut m = Machine::new(&a.image).unwrap();
    assert!(matches!(
        m.run(1000),
        StopReason::Fault(Fault::UnmappedWrite { addr: 0x6000, .. })
    ));
    assert_eq!(m.cpu.b, 0xFF, "unmapped reads FFh");
}

#[test]
fn the_expanded_map_takes_eight_pages() {
    use z80chess::machine::MAX_PAGES;
    assert_eq!(MAX_PAGES, 8);
    // A byte in each of eight pages, each seen through the window when selected.
    let mut image = vec![0u8; ROM_SIZE + 8 * PAGE_SIZE];
    for p in 0..8 {
        image[ROM_SIZE + p * PAGE_SIZE + 0x123] = 0x10 + p as u8;
    }
    let mut m = Machine::expanded(&image).unwrap();
    assert_eq!(m.bus.map(), MemoryMap::Expanded { pages: 8 });
    for p in 0..8u8 {
        m.bus.select_page(p);
        assert_eq!(m.bus.window_page(), Some(p));
        assert_eq!(m.bus.peek(0x8123), 0x10 + p);
    }
    m.bus.select_page(8);
    assert_eq!(m.bus.window_page(), None, "page 8 is never fitted");
    assert_eq!(m.bus.peek(0x8123), 0xFF);
    assert!(Machine::with_map(&[0], MemoryMap::Expanded { pages: 9 }).is_err());
    assert!(Machine::expanded(&vec![0; ROM_SIZE + 8 * PAGE_SIZE + 1]).is_err());
    // The assembler takes PAGE 7 and refuses PAGE 8.
    let a = assemble_str("PAGE 7\nDB 77h\nENDPAGE\n", "p7.asm", &[]).unwrap();
    assert_eq!(a.pages, 8);
    assert_eq!(a.page_bytes(7).unwrap()[0], 0x77);
    let e = assemble_str("PAGE 8\nDB 1\nENDPAGE\n", "p8.asm", &[]).unwrap_err();
    let e = format!("{e:?}");
    assert!(e.contains("PageRange(8)"), "{e}");
}

#[test]
fn the_period_machine_is_unchanged() {
    // 6000h-FFFFh unmapped: reads FFh, writes fault; the page port does nothing; the clock works.
    let src = "
        ORG 0
        LD A,1
        OUT (4),A       ; no page port on the period machine
        IN A,(4)
        LD B,A
        LD A,(8000h)
        LD C,A
        LD A,(0C000h)
        LD D,A
        IN A,(6)
        LD E,A
        LD (0C000h),A
    ";
    let a = assemble_str(src, "period.asm", &[]).unwrap();
    let mut m = Machine::new(&a.image).unwrap();
    assert_eq!(m.bus.map(), MemoryMap::Period);
    assert!(matches!(
        m.run(1000),
        StopReason::Fault(Fault::UnmappedWrite { addr: 0xC000, .. })
    ));
    assert_eq!((m.cpu.b, m.cpu.c, m.cpu.d), (0xFF, 0xFF, 0xFF));
    assert_eq!(
        m.cpu.e,
        7 + 7 + 11 + 11 + 4 + 13 + 4 + 13 + 4,
        "the clock port is there"
    );
    assert_eq!(m.bus.window_page(), None);
    assert!((0x6000..=0xFFFFu32).all(|a| m.bus.peek(a as u16) == 0xFF));
    // And a period machine still refuses more than 16 KiB.
    assert!(Machine::new(&vec![0; ROM_SIZE + 1]).is_err());
    assert!(Machine::with_map(
        &vec![0; ROM_SIZE + 2 * PAGE_SIZE + 1],
        MemoryMap::Expanded { pages: 2 }
    )
    .is_err());
    assert!(Machine::with_map(&[0], MemoryMap::Expanded { pages: 9 }).is_err());
}

#[test]
fn symbol_file_source_map_and_disassembler_name_pages() {
    let a = program();
    let syms = a.symbol_file();
    assert!(syms.contains("P1MAIN: EQU 1:8000\n"), "{syms}");
    assert!(syms.contains("FAR0: EQU 0x0053\n"), "{syms}");
    assert!(
        syms.find("XRAM: EQU").unwrap() < syms.find("P0MAIN: EQU").unwrap(),
        "base symbols first, as before"
    );
    let map = z80chess::asm::parse_source_map_paged(&a.source_map_text()).unwrap();
    assert!(map
        .iter()
        .any(|(p, addr, f, _)| *p == Some(1) && *addr == 0x8000 && f.ends_with("banking.asm")));
    assert!(a.source_map_text().contains("\n1:8000 "));
    let base_only = z80chess::asm::parse_source_map(&a.source_map_text()).unwrap();
    assert!(base_only.iter().all(|e| e.0 < 0x4000));
    assert!(a.listing_text().contains("1:8000   3A 00 81"));

    let s = Symbols::parse(&syms, "banking.sym").unwrap();
    assert_eq!(s.lookup("P1DATA"), Some((Some(1), 0x8100)));
    assert_eq!(s.lookup("FAR0"), Some((None, 0x53)));
    assert_eq!(s.name_in(Some(0), 0x8000), Some("P0MAIN"));
    assert_eq!(s.name_in(Some(1), 0x8000), Some("P1MAIN"));
    assert_eq!(s.name_in(None, 0x8000), None);
    let text = disasm::disassemble_page(&a.image, 1, &s).unwrap();
    assert!(
        text.contains("P1MAIN:\n1:8000  3A 00 81        LD A,(P1DATA)"),
        "{text}"
    );
    assert!(text.contains("CALL FAR0"), "{text}");
    let text = disasm::disassemble_page(&a.image, 0, &s).unwrap();
    assert!(
        text.contains("0:8000  3A 00 81        LD A,(P0DATA)"),
        "{text}"
    );
    assert!(disasm::disassemble_page(&a.image, 2, &s).is_err());
    assert!(Symbols::parse("X: EQU 1:zz\n", "bad.sym").is_err());
}

#[test]
fn a_source_without_pages_is_assembled_as_before() {
    let a = assemble_str("ORG 100h\nX: DB 1\n", "flat.asm", &[]).unwrap();
    assert_eq!((a.pages, a.origin, a.image.len()), (0, 0x100, 1));
    assert_eq!(a.symbol_file(), "X: EQU 0x0100\n");
}

mod debugger {
    use z80chess::debug::commands::Session;
    use z80chess::debug::program::Program;

    fn session() -> Session {
        let prog = Program::from_source(std::path::Path::new(super::PROGRAM)).unwrap();
        Session::program(prog).unwrap()
    }

    #[test]
    fn a_breakpoint_in_a_page_is_shown_and_hit_as_page_addr() {
        let mut s = session();
        // P1MAIN and P0MAIN share 8000h: the breakpoint on page 1's label must skip page 0's.
        let out = s.execute("break P1MAIN");
        assert!(out.contains("Breakpoint 1 at 1:8000h <P1MAIN>"), "{out}");
        assert!(out.contains("banking.asm:70"), "{out}");
        let out = s.execute("info breakpoints");
        assert!(out.contains("1:8000h <P1MAIN>"), "{out}");
        let out = s.execute("continue");
        assert!(out.contains("Breakpoint 1, 1:8000h <P1MAIN>"), "{out}");
        assert_eq!(s.dbg.m.bus.window_page(), Some(1));
        assert_eq!(s.dbg.m.cpu.b, 0x11, "page 0's P0MAIN ran first, unstopped");
        // P:ADDR in page 0: P0TWICE, called from page 1 through FAR0.
        let out = s.execute("break 0:8008");
        assert!(out.contains("at 0:8008h <P0TWICE>"), "{out}");
        let out = s.execute("continue");
        assert!(out.contains("Breakpoint 2, 0:8008h <P0TWICE>"), "{out}");
        assert!(out.contains("banking.asm:62"), "{out}");
        // Back in time: the window shows page 1 again at P1MAIN.
        let out = s.execute("reverse-continue");
        assert!(out.contains("Breakpoint 1, 1:8000h <P1MAIN>"), "{out}");
        assert_eq!(s.dbg.m.bus.window_page(), Some(1));
        assert_eq!(s.dbg.m.bus.peek_page(1, 0x8100), Some(0x22));
        assert!(
            s.where_line().contains("=> 1:8000  3A"),
            "{}",
            s.where_line()
        );
    }

    #[test]
    fn a_page_breakpoint_does_not_hit_in_another_page() {
        let mut s = session();
        // 1:8008 is inside P1MAIN's first instructions' page; 0:8008 (P0TWICE) runs, 1:8008 runs.
        s.execute("break 1:8008");
        let out = s.execute("continue");
        assert!(out.contains("Breakpoint 1, 1:8008h <P1MAIN+8>"), "{out}");
        assert_eq!(s.dbg.m.bus.window_page(), Some(1));
        // Page 2 is never selected: a breakpoint there never hits.
        let mut s = session();
        s.execute("break 2:8000");
        let out = s.execute("continue");
        assert!(!out.contains("Breakpoint 1,"), "{out}");
    }
}

#[test]
fn the_profiler_charges_each_page_s_routine() {
    use z80chess::profile::profiler::Profiler;
    use z80chess::profile::routines::Routines;
    let a = program();
    let routines = Routines::from_assembly(&a).unwrap();
    let mut m = Machine::expanded(&a.image).unwrap();
    let mut prof = Profiler::new(&routines);
    assert!(matches!(
        m.run_observed_dyn(1_000_000, &mut prof),
        StopReason::Exit(_)
    ));
    prof.finish(&m.cpu);
    let p = prof.profile();
    assert_eq!(p.total, m.cpu.t);
    let get = |n: &str| p.routine(n).unwrap_or_else(|| panic!("{n} ran")).clone();
    // P0MAIN and P1MAIN both start at 8000h: each gets its own page's instructions.
    assert_eq!(get("P0MAIN").exclusive, 13 + 4 + 13 + 10);
    assert_eq!(get("P0MAIN").calls, 1);
    assert_eq!(
        get("P1MAIN").exclusive,
        13 + 4 + 10 + 7 + 13 + 11 + 4 + 7 + 17 + 4 + 13 + 10
    );
    assert_eq!(get("P0TWICE").exclusive, 4 + 4 + 4 + 10);
    assert_eq!(get("P0TWICE").calls, 1);
    assert_eq!(get("FAR0").calls, 1);
    let stack = |s: &str| p.folded.iter().find(|(k, _)| k == s).map(|(_, t)| *t);
    assert_eq!(stack("START;P1MAIN;FAR0;P0TWICE"), Some(22));
}

#[test]
fn a_breakpoint_on_a_source_line_in_a_page() {
    use z80chess::debug::commands::Session;
    use z80chess::debug::program::Program;
    let prog = Program::from_source(std::path::Path::new(PROGRAM)).unwrap();
    let mut s = Session::program(prog).unwrap();
    // Line 79 is LD A,E in P1MAIN, after the far call: 1:8013.
    let out = s.execute("break banking.asm:79");
    assert!(out.contains("at 1:8013h <P1MAIN+19>"), "{out}");
    let out = s.execute("continue");
    assert!(
        out.contains("Breakpoint 1, 1:8013h <P1MAIN+19> at banking.asm:79"),
        "{out}"
    );
    assert_eq!(s.dbg.m.cpu.e, 0x42);
}

#[test]
fn the_debugger_shows_another_page_without_selecting_it() {
    use z80chess::debug::commands::Session;
    use z80chess::debug::program::Program;
    let prog = Program::from_source(std::path::Path::new(PROGRAM)).unwrap();
    let mut s = Session::program(prog).unwrap();
    assert_eq!(s.dbg.m.bus.page(), 0);
    let out = s.execute("dis 1:8000 2");
    assert!(out.contains("P1MAIN:"), "{out}");
    assert!(out.contains("1:8000  3A 00 81"), "{out}");
    let out = s.execute("mem 1:8100 1");
    assert!(out.contains("8100  22"), "{out}");
    let out = s.execute("mem 8100h 1");
    assert!(out.contains("8100  11"), "{out}");
    assert_eq!(s.dbg.m.bus.page(), 0, "the machine's page is unchanged");
    assert_eq!(s.dbg.m.bus.peek(0x8100), 0x11);
}
