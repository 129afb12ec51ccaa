//! Reverse execution from snapshots and re-execution: going back N instructions and forward
//! N again gives the identical machine (registers, T-states, 64 KiB of memory), across many
//! snapshots, thinning, and the events (bytes sent to the firmware) in the history.

use std::path::Path;
use z80chess::debug::program::Program;
use z80chess::debug::{Session, Start};
use z80chess::firmware::Build;

fn firmware() -> Session {
    let mut s = Session::firmware(Build::Article, &Start::Initial).unwrap();
    // Small numbers, so that re-execution crosses many snapshots and history is thinned.
    s.dbg.set_snapshot_policy(997, 8);
    s
}

fn state(s: &Session) -> (u64, u64, u64) {
    (s.dbg.state_hash(), s.dbg.m.cpu.t, s.dbg.icount())
}

#[test]
fn reverse_step_n_then_step_n_is_the_identity() {
    let mut s = firmware();
    s.execute("send perft 2");
    let end = state(&s);
    let ic = end.2;
    for n in [1, 2, 7, 996, 997, 998, 5_000, 54_321, ic / 2, ic - 1, ic] {
        let out = s.execute(&format!("reverse-step {n}"));
        assert!(!out.starts_with("error"), "{out}");
        assert_eq!(s.dbg.icount(), ic - n);
        let out = s.execute(&format!("step {n}"));
        assert!(!out.starts_with("error"), "{out}");
        assert_eq!(state(&s), end, "after reverse-step {n} and step {n}");
    }
    let (snaps, _, interval) = s.dbg.snapshot_stats();
    assert!(snaps <= 8 + 4, "{snaps} snapshots");
    assert!(interval > 997, "history was thinned");
}

#[test]
fn going_back_to_a_point_gives_the_state_seen_there() {
    let mut s = firmware();
    s.execute("break MOVE");
    s.execute("send perft 2");
    // The first stops, forward.
    let mut seen = vec![state(&s)];
    for _ in 0..6 {
        s.execute("continue");
        seen.push(state(&s));
    }
    // Back through them with reverse-continue, newest first.
    for k in (0..6).rev() {
        let out = s.execute("reverse-continue");
        assert!(out.contains("Breakpoint 1"), "{out}");
        assert_eq!(state(&s), seen[k]);
    }
    // And with goto, in any order.
    for k in [3, 0, 6, 2] {
        s.execute(&format!("goto {}", seen[k].2));
        assert_eq!(state(&s), seen[k]);
    }
}

#[test]
fn replaying_the_past_replays_the_bytes_sent() {
    let mut s = firmware();
    s.execute("send perft 1");
    let after_perft = state(&s);
    s.execute("send list");
    let after_list = state(&s);
    // Back to before 'send list': the firmware waits in its command loop.
    s.execute(&format!("goto {}", after_perft.2));
    assert_eq!(state(&s), after_perft);
    // Running forward from there meets the recorded 'L' again and lists the moves.
    let out = s.execute("continue");
    assert!(out.contains("waiting for the host"), "{out}");
    assert_eq!(state(&s), after_list);
    // From the very beginning too.
    s.execute("goto 0");
    assert_eq!(s.dbg.icount(), 0);
    s.execute(&format!("goto {}", after_list.2));
    assert_eq!(state(&s), after_list);
}

#[test]
fn an_edit_in_the_past_starts_a_new_history() {
    let mut s = firmware();
    s.execute("send perft 1");
    let end = state(&s);
    s.execute("reverse-step 100");
    s.execute("set (BOARD+35) = 0");
    // The old future is gone: it cannot be reached again.
    let out = s.execute(&format!("goto {}", end.2));
    assert!(out.starts_with("error"), "{out}");
    s.execute("continue");
    assert_ne!(state(&s).0, end.0);
}

#[test]
fn reverse_finish_and_next_follow_the_call_stack() {
    let a = z80chess::asm::assemble_file(Path::new("tests/debug/prog.asm"), &[]).unwrap();
    let mut s =
        Session::program(Program::from_assembly("prog.asm", &a, Path::new(".")).unwrap()).unwrap();
    s.execute("break INNER");
    s.execute("continue");
    let inner = s.dbg.m.cpu.pc;
    assert_eq!(s.dbg.track.depth(), 3);
    s.execute("reverse-finish");
    assert_eq!(s.dbg.track.depth(), 2);
    assert_eq!(Some(s.dbg.m.cpu.pc), s.dbg.prog.symbols.value_of("MIDDLE"));
    s.execute("step");
    assert_eq!(s.dbg.m.cpu.pc, inner);
    // finish then reverse-next: back over the whole call to the CALL instruction.
    s.execute("delete");
    s.execute("finish");
    let after = state(&s);
    s.execute("reverse-next");
    assert_eq!(Some(s.dbg.m.cpu.pc), s.dbg.prog.symbols.value_of("MIDDLE"));
    s.execute("next");
    assert_eq!(state(&s), after);
}

/// A breakpoint's hit count is part of the history: going back gives the count of that
/// point, and going forward again counts the same hits once.
#[test]
fn going_back_restores_the_hit_counts() {
    let mut s = firmware();
    s.execute("break MOVE");
    s.execute("watch BOARD+41");
    s.execute("send perft 2");
    let hits = |s: &Session| -> Vec<u64> { s.dbg.bps.iter().map(|b| b.hits).collect() };
    let mut seen = vec![(state(&s), hits(&s))];
    for _ in 0..8 {
        s.execute("continue");
        seen.push((state(&s), hits(&s)));
    }
    assert!(seen[8].1.iter().all(|&h| h > 0), "{:?}", seen[8].1);
    for k in (0..8).rev() {
        s.execute("reverse-continue");
        assert_eq!(
            (state(&s), hits(&s)),
            seen[k],
            "reverse-continue to stop {k}"
        );
    }
    for k in [5, 2, 8, 0, 7] {
        s.execute(&format!("goto {}", seen[k].0 .2));
        assert_eq!((state(&s), hits(&s)), seen[k], "goto stop {k}");
    }
    s.execute(&format!("goto {}", seen[0].0 .2));
    for (k, want) in seen.iter().enumerate().skip(1) {
        s.execute("continue");
        assert_eq!(&(state(&s), hits(&s)), want, "forward again to stop {k}");
    }
}
