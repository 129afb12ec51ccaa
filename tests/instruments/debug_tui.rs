//! The full-screen mode rendered on ratatui's TestBackend: a golden screen of the fixed test
//! program (tests/debug/*.screen; `BLESS=1` rewrites them), and the firmware's panes.

use std::path::Path;
use z80chess::debug::program::Program;
use z80chess::debug::tui::{render_text, TuiState};
use z80chess::debug::{Session, Start};
use z80chess::firmware::Build;

fn prog_session() -> Session {
    let a = z80chess::asm::assemble_file(Path::new("tests/debug/prog.asm"), &[]).unwrap();
    Session::program(Program::from_assembly("prog.asm", &a, Path::new(".")).unwrap()).unwrap()
}

fn golden(name: &str, actual: &str) {
    let path = format!("tests/debug/{name}.screen");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{path} is missing (BLESS=1 writes it)"));
    assert!(
        expected == actual,
        "{name}: the screen differs from {path}:\n{actual}"
    );
}

fn typed(s: &mut Session, st: &mut TuiState, cmds: &[&str]) {
    for c in cmds {
        st.input = c.to_string();
        st.submit(s);
    }
}

#[test]
fn golden_screen_source_layout() {
    let mut s = prog_session();
    let mut st = TuiState::new();
    typed(
        &mut s,
        &mut st,
        &["break INNER", "continue", "continue", "bt"],
    );
    st.input = "print (COUNT)".into();
    st.cursor = 5;
    golden("tui_source", &render_text(&s, &st, 120, 40));
}

#[test]
fn golden_screen_disassembly_layout() {
    let mut s = prog_session();
    let mut st = TuiState::new();
    typed(
        &mut s,
        &mut st,
        &[
            "layout asm",
            "watch BOARD+55",
            "continue",
            "set HL = BOARD+50",
            "memview ATKLST",
        ],
    );
    golden("tui_asm", &render_text(&s, &st, 120, 40));
}

#[test]
fn firmware_screen_shows_board_attackers_and_stack() {
    let mut s =
        Session::firmware(Build::Article, &Start::Moves("e2e4 e7e5 g1f3 b8c6".into())).unwrap();
    let mut st = TuiState::new();
    typed(&mut s, &mut st, &["break XCHNG", "send xchng e5"]);
    let screen = render_text(&s, &st, 120, 40);
    for want in [
        "Source xchng.asm",
        "XCHNG:",
        "Registers",
        "#1",
        "r  .  b  q  k  b  n  r",
        "ATKLST",
        "knights",
        "Breakpoint 1",
        "(z80db)",
    ] {
        assert!(
            screen.contains(want),
            "no '{want}' on the screen:\n{screen}"
        );
    }
}

#[test]
fn any_terminal_size_renders() {
    let mut s = prog_session();
    let mut st = TuiState::new();
    typed(&mut s, &mut st, &["step 100", "layout asm"]);
    for (w, h) in [(1, 1), (10, 4), (40, 12), (80, 24), (200, 60), (300, 100)] {
        let _ = render_text(&s, &st, w, h);
    }
    st.input = "x".repeat(500);
    st.cursor = 500;
    let _ = render_text(&s, &st, 80, 24);
}

/// What is typed in the full screen goes into the session's history, which the prompt
/// recalls and the debugger saves in its history file at the end.
#[test]
fn commands_typed_in_the_full_screen_are_kept_in_the_history() {
    let mut s = prog_session();
    let mut st = TuiState::new();
    typed(&mut s, &mut st, &["regs", "step 3", "step 3", "bt"]);
    assert_eq!(s.history, ["regs", "step 3", "bt"]);
    let dir = std::env::temp_dir().join(format!("z80chess-dbg-hist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("history");
    z80chess::debug::repl::save_history(&file, &s.history).unwrap();
    assert_eq!(z80chess::debug::repl::load_history(&file), s.history);
    let _ = std::fs::remove_dir_all(dir);
}

/// A run that goes on for long is drawn again at each tick of the screen's clock (its
/// T-states grow on the screen) and a key stops it between two instructions, in a state
/// that reverse execution goes back from and comes back to.
#[test]
fn a_long_run_goes_on_in_ticks_and_a_key_stops_it() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent};
    let src = "        ORG     0\n        LD      SP,6000h\nAGAIN:  LD      HL,(4000h)\n        INC     HL\n        LD      (4000h),HL\n        JR      AGAIN\n";
    let a = z80chess::asm::assemble_str(src, "forever.asm", &[]).unwrap();
    let prog = Program::from_assembly("forever.asm", &a, Path::new(".")).unwrap();
    let mut s = Session::program(prog).unwrap();
    let mut st = TuiState::new();
    // A limit far past the few ticks below, so the run could not end by itself in them.
    typed(&mut s, &mut st, &["limit 100000000"]);
    st.input = "continue".into();
    st.enter(&mut s);
    let tstates = |screen: &str| -> u64 {
        let line = screen
            .lines()
            .find_map(|l| l.split("T-states ").nth(1))
            .unwrap_or_else(|| panic!("no T-states on the screen:\n{screen}"));
        line.split_whitespace().next().unwrap().parse().unwrap()
    };
    let mut seen = vec![tstates(&render_text(&s, &st, 120, 40))];
    for _ in 0..3 {
        assert!(st.tick(&mut s), "the run ended by itself: {:?}", st.log);
        seen.push(tstates(&render_text(&s, &st, 120, 40)));
    }
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "T-states {seen:?}");
    assert!(st.log.iter().any(|l| l.contains("any key stops it")));
    assert!(!st.key(&mut s, KeyEvent::from(KeyCode::Char('x'))));
    assert!(!s.running() && !st.tick(&mut s));
    let screen = render_text(&s, &st, 120, 40);
    assert!(screen.contains("Interrupted."), "{screen}");
    let stopped = s.dbg.state_hash();
    let icount = s.dbg.icount();
    typed(&mut s, &mut st, &["reverse-step 7"]);
    assert_eq!(s.dbg.icount(), icount - 7);
    typed(&mut s, &mut st, &["step 7"]);
    assert_eq!(s.dbg.state_hash(), stopped, "{:?}", st.log);
    assert_eq!(s.errors, 0, "{:?}", st.log);
}
