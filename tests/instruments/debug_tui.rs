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
