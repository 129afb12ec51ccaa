//! An observer that names the addresses it acts at (`Observer::only_before_at`) is run at full
//! speed with a breakpoint at each (`Machine::run_observed_dyn`): it must see exactly what it
//! sees when every instruction is observed — the same addresses in the same order, with the
//! same T-states, registers, window page and memory — through the full build's paged search.

use z80chess::firmware::{parse_fen, Build, Engine};
use z80chess::machine::Observer;
use z80chess::profile::bench::POSITIONS;
use z80chess::z80::Cpu;

use crate::common::playouts::{observed_search, sym};

/// What the observer saw at one of its addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    pc: u16,
    t: u64,
    regs: [u16; 4],
    page: Option<u8>,
    /// A checksum of the RAM (the board, the ply stack, the scores).
    ram: u32,
}

/// Records `Seen` at `at`; `declared` says whether it names its addresses (the fast path).
struct Log {
    at: Vec<u16>,
    declared: bool,
    page: Option<u8>,
    calls: u64,
    seen: Vec<Seen>,
}

impl Log {
    fn new(at: &[u16], declared: bool) -> Log {
        Log {
            at: at.to_vec(),
            declared,
            page: None,
            calls: 0,
            seen: Vec::new(),
        }
    }
}

impl Observer for Log {
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        self.calls += 1;
        if self.at.contains(&cpu.pc) {
            let ram = mem[0x4000..0x6000]
                .iter()
                .fold(0u32, |h, &b| h.rotate_left(5) ^ b as u32);
            self.seen.push(Seen {
                pc: cpu.pc,
                t: cpu.t,
                regs: [cpu.hl(), cpu.de(), cpu.bc(), cpu.sp],
                page: self.page,
                ram,
            });
        }
        false
    }
    fn page(&mut self, page: Option<u8>) {
        self.page = page;
    }
    fn only_before_at(&self) -> Option<Vec<u16>> {
        self.declared.then(|| self.at.clone())
    }
}

#[test]
fn an_observer_at_named_addresses_sees_what_it_sees_at_every_instruction() {
    // Routines of the base ROM and of the expansion pages (the 8000h window), and an address
    // inside a routine.
    let at: Vec<u16> = [
        "POINTS",
        "POINTS.lus",
        "GENMOV",
        "MOVE",
        "UNMOVE",
        "QLEAF",
        "LZTRY",
    ]
    .map(sym)
    .to_vec();
    for &(name, fen, _) in &POSITIONS[..2] {
        let pos = parse_fen(fen).unwrap();
        let run = |declared: bool| {
            let mut e = Engine::new(Build::Full).unwrap();
            let mut log = Log::new(&at, declared);
            observed_search(&mut e, &pos, 2, &mut log);
            let end = (
                e.machine.cpu.t,
                e.machine.cpu.pc,
                e.machine.bus.mem.to_vec(),
            );
            (log, end)
        };
        let (every, every_end) = run(false);
        let (named, named_end) = run(true);
        println!(
            "{name}: {} stops at {} addresses; before() called {} times observing every \
             instruction, {} at the named addresses",
            every.seen.len(),
            at.len(),
            every.calls,
            named.calls
        );
        for &a in &at {
            assert!(
                every.seen.iter().any(|s| s.pc == a),
                "{name}: the search never reached {a:04X}h"
            );
        }
        assert_eq!(
            named.calls,
            named.seen.len() as u64,
            "{name}: called away from its addresses"
        );
        assert!(every.calls > 100 * named.calls, "{name}: not the fast path");
        assert_eq!(every.seen.len(), named.seen.len(), "{name}: stop counts");
        if let Some(i) = (0..every.seen.len()).find(|&i| every.seen[i] != named.seen[i]) {
            panic!(
                "{name}: stop {i} differs: every instruction {:?}, named {:?}",
                every.seen[i], named.seen[i]
            );
        }
        assert!(every_end == named_end, "{name}: the machines end apart");
    }
}
