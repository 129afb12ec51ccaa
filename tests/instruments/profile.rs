//! The cycle profiler: it never changes the run it measures, its books balance, the
//! firmware's own counters agree with its call counts, and its CALL/RET tracking survives
//! conditional calls, RST, `JP (HL)` dispatch, tail jumps, fall-through and stack resets.

use std::process::Command;
use z80chess::asm::assemble_str;
use z80chess::firmware::{parse_fen, sargon, Build, Engine};
use z80chess::machine::{Machine, StopReason};
use z80chess::profile::{profile_search, Profile, Profiler, Routines};

const MIDDLEGAME: &str = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9";

fn engine(build: Build, fen: &str) -> Engine {
    let mut e = Engine::new(build).unwrap();
    sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
    e
}

fn balanced(p: &Profile) {
    let excl: u64 = p.routines.iter().map(|r| r.exclusive).sum();
    assert_eq!(excl, p.total, "exclusive T-states add up to the total");
    let folded: u64 = p.folded.iter().map(|(_, t)| t).sum();
    assert_eq!(folded, p.total, "collapsed stacks add up to the total");
    for r in &p.routines {
        assert!(
            r.inclusive >= r.exclusive && r.inclusive <= p.total,
            "{}: inclusive {} exclusive {} total {}",
            r.name,
            r.inclusive,
            r.exclusive,
            p.total
        );
    }
}

#[test]
fn profiling_changes_nothing_and_agrees_with_the_firmware() {
    for build in Build::ALL {
        let plain = engine(build, MIDDLEGAME).search(2, false).unwrap();
        let mut e = engine(build, MIDDLEGAME);
        let (r, p) = profile_search(&mut e, 2, false).unwrap();
        assert_eq!(
            r, plain,
            "{build}: the profiled search answers and costs the same"
        );
        assert_eq!(p.total, r.tstates, "{build}");
        balanced(&p);
        // The firmware's counters are calls of its routines.
        let calls = |n: &str| p.routine(n).map_or(0, |r| r.calls);
        assert_eq!(calls("POINTS"), r.evaluations as u64, "{build}: POINTS");
        assert_eq!(calls("XCHNG"), r.xchng_calls as u64, "{build}: XCHNG");
        assert_eq!(calls("MKMOVE"), r.nodes as u64, "{build}: MKMOVE");
        // The search is one command: it is on the stack (nearly) all the time, and no frame
        // is lost to a stack reset.
        let root = p.routine("CSRCH").unwrap();
        assert!(root.inclusive * 1000 > p.total * 999, "{build}: {root:?}");
        assert!(p.routine("SRCH").unwrap().inclusive > p.total / 2);
        assert_eq!(p.resyncs, 0, "{build}");
        // The full build's lazy evaluation (on by default) leaves POINTS from its hook by
        // throwing the hook's return address away; the period builds never do.
        assert_eq!(
            p.discards > 0,
            build == Build::Full,
            "{build}: {}",
            p.discards
        );
        assert!(p.max_depth >= 3, "{build}: depth {}", p.max_depth);
        // Recursion shows in the stacks.
        assert!(
            p.folded
                .iter()
                .any(|(s, _)| s.starts_with("CSRCH;SRCH;SRCH;")),
            "{build}"
        );
        // The engine goes on working after a profiled search.
        assert_eq!(e.search(1, false).unwrap().kind, plain.kind);
    }
}

#[test]
fn routines_are_code_labels_only() {
    for build in Build::ALL {
        let r = Routines::for_build(build).unwrap();
        assert!(r.from_sources, "{build}: asm/ is beside the crate");
        for name in [
            "RESET", "START", "CMDLP", "GENMOV", "POINTS", "XCHNG", "SRCH",
        ] {
            assert!(r.find(name).is_some(), "{build}: {name}");
        }
        // Constants equal to code addresses (PAWN = 1, BLACK = 80h = START), RAM variables
        // and local labels are not routines.
        for name in ["PAWN", "BLACK", "PSTAT", "MLNXT", "BOARD", "CMDLP.find"] {
            assert!(r.find(name).is_none(), "{build}: {name}");
        }
        let start = r.find("START").unwrap();
        assert_eq!(r.name(start), "START");
        assert_eq!(r.at(r.start(start) + 1), start);
        assert_eq!(r.at(0x4100), 0, "RAM is outside every routine");
    }
}

/// A program with every way in and out of a routine.
const TRACKER: &str = "
        ORG     0
RESET:  JP      MAIN
        ORG     8
R8:     NOP                     ; RST 8
        RET
        ORG     10h
MAIN:   LD      SP,6000h
        CALL    A1
        LD      HL,C1
        CALL    DISP
        XOR     A
        CALL    Z,BB            ; taken
        CALL    NZ,BB           ; not taken
        RST     8
        CALL    F1
        CALL    T1
        CALL    S1
        HALT                    ; never reached: S2 resets the stack
A1:     CALL    BB
        CALL    BB
        RET
BB:     NOP
        RET
DISP:   JP      (HL)
C1:     RET
F1:     NOP                     ; falls into F2
F2:     RET
T1:     JP      BB              ; a tail call
S1:     CALL    S2
        RET
S2:     LD      SP,6000h
        JP      DONE
DONE:   OUT     (0FFh),A
";

#[test]
fn call_tracking_follows_every_kind_of_transfer() {
    let a = assemble_str(TRACKER, "tracker.asm", &[]).unwrap();
    let routines = Routines::from_assembly(&a).unwrap();
    let mut m = Machine::new(&a.image).unwrap();
    let mut prof = Profiler::new(&routines);
    assert_eq!(
        m.run_observed_dyn(1_000_000, &mut prof),
        StopReason::Exit(0)
    );
    prof.finish(&m.cpu);
    let p = prof.profile();
    assert_eq!(p.total, m.cpu.t);
    balanced(&p);
    let get = |n: &str| p.routine(n).unwrap_or_else(|| panic!("{n} ran")).clone();
    let calls = |n: &str| get(n).calls;
    // BB: twice from A1, once by the taken CALL Z, once by T1's tail jump.
    assert_eq!(calls("BB"), 4);
    assert_eq!(get("BB").exclusive, 4 * (4 + 10));
    // A1: CALL, CALL, RET; inclusive adds BB twice.
    assert_eq!(get("A1").exclusive, 17 + 17 + 10);
    assert_eq!(get("A1").inclusive, 17 + 17 + 10 + 2 * 14);
    for n in [
        "A1", "DISP", "C1", "R8", "F1", "F2", "T1", "S1", "S2", "DONE", "MAIN",
    ] {
        assert_eq!(calls(n), 1, "{n}");
    }
    // T1 is replaced on the stack by BB (a tail call); F2 by fall-through from F1.
    assert_eq!(get("T1").inclusive, 10);
    assert_eq!(get("DISP").inclusive, 4);
    let stack = |s: &str| p.folded.iter().find(|(k, _)| k == s).map(|(_, t)| *t);
    assert_eq!(stack("MAIN;A1;BB"), Some(28));
    assert_eq!(stack("MAIN;BB"), Some(28), "CALL Z,BB and T1's JP BB");
    assert_eq!(
        stack("MAIN;C1"),
        Some(10),
        "JP (HL) into C1, which returns to MAIN"
    );
    assert_eq!(stack("MAIN;R8"), Some(14));
    assert_eq!(stack("MAIN;F2"), Some(10));
    assert_eq!(stack("MAIN;S1;S2"), Some(10), "LD SP,6000h");
    // The stack reset drops S1 and S2: what follows runs at the top.
    assert_eq!(p.resyncs, 1);
    assert_eq!(stack("S2"), Some(10), "JP DONE after the reset");
    assert_eq!(stack("DONE"), Some(11));
    assert_eq!(p.max_depth, 2);
    // MAIN: LD SP; 6 CALLs taken (17 each) and one not (10); LD HL; XOR A; RST 8.
    assert_eq!(get("MAIN").exclusive, 10 + 6 * 17 + 10 + 10 + 4 + 11);
}

#[test]
fn profile_command_writes_table_csv_and_stacks() {
    let dir = std::env::temp_dir().join(format!("z80chess-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, folded) = (dir.join("p.csv"), dir.join("p.folded"));
    let out = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args([
            "profile", "--level", "2", "--build", "1978", "--fen", MIDDLEGAME,
        ])
        .arg("--csv")
        .arg(&csv)
        .arg("--folded")
        .arg(&folded)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plain = engine(Build::B1978, MIDDLEGAME).search(2, false).unwrap();
    println!("{text}");
    for want in [
        format!("bestmove {}", plain.best.uci()),
        "at 2 MHz".to_string(),
        "XCHNG calls".to_string(),
        "POINTS".to_string(),
        "inclusive T".to_string(),
    ] {
        assert!(text.contains(&want), "'{want}' missing");
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with("routine,address,calls,exclusive_tstates"));
    let total: u64 = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, plain.tstates);
    let folded = std::fs::read_to_string(&folded).unwrap();
    let total: u64 = folded
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, plain.tstates);
    assert!(folded
        .lines()
        .all(|l| !l.contains(' ') || l.matches(' ').count() == 1));
    std::fs::remove_dir_all(&dir).ok();
}
