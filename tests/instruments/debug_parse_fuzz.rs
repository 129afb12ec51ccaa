//! The debugger's command line, parse only (tests/instruments/debug_fuzz.rs runs random commands on a
//! machine, 48 sessions; this one is cheap enough for 10,000 cases a property): expressions
//! (`debug::expr::parse`, `Session::eval`), locations (`Session::location`) and every command
//! that does not run the machine (breakpoints, watchpoints, info, print, mem, dis, list, set,
//! write...) on the small test program. Never a panic; an error is a message. The long run is
//! in tests/fuzz_support/mod.rs.

use crate::common::fuzz_support;

use fuzz_support::{case, config};
use proptest::prelude::*;
use std::cell::RefCell;
use std::path::Path;
use z80chess::debug::program::Program;
use z80chess::debug::Session;

fn session() -> Session {
    let a = z80chess::asm::assemble_file(Path::new("tests/debug/prog.asm"), &[]).unwrap();
    Session::program(Program::from_assembly("prog.asm", &a, Path::new(".")).unwrap()).unwrap()
}

thread_local! {
    static SESSION: RefCell<Session> = RefCell::new(session());
}

const ATOMS: &[&str] = &[
    "PC",
    "SP",
    "HL",
    "A",
    "F",
    "IX",
    "IY",
    "(HL)",
    "w(SP)",
    "b(0)",
    "$t",
    "$icount",
    "$depth",
    "$Z",
    "$C",
    "$old",
    "$new",
    "$value",
    "$addr",
    "$port",
    "$",
    "start",
    "loop",
    "main",
    "prog.asm:3",
    "prog.asm:999",
    "nofile.asm:1",
    "0",
    "1",
    "-1",
    "0xFFFF",
    "0x10000",
    "65535",
    "99999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    "0FFh",
    "%101",
    "'A'",
    "'",
    "\"",
    "(",
    ")",
    "[",
    "]",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "~",
    "!",
    "==",
    "!=",
    "<",
    ">=",
    "&&",
    "||",
    "=",
    "if",
    "..",
    ":",
    ",",
    "\t",
    "\u{e9}",
];

fn soup() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::collection::vec(prop::sample::select(ATOMS), 0..8).prop_map(|v| v.join(" ")),
        3 => prop::collection::vec(prop::sample::select(ATOMS), 0..8).prop_map(|v| v.concat()),
        1 => "\\PC{0,30}",
    ]
}

const COMMANDS: &[&str] = &[
    "help",
    "break",
    "b",
    "tbreak",
    "watch",
    "rwatch",
    "awatch",
    "catch",
    "delete",
    "d",
    "disable",
    "enable",
    "ignore",
    "condition",
    "info",
    "info breakpoints",
    "info registers",
    "info line",
    "info symbol",
    "info state",
    "info frame",
    "info stopwatches",
    "limit",
    "regs",
    "dis",
    "list",
    "mem",
    "x",
    "print",
    "p",
    "set",
    "write",
    "bt",
    "stopwatch",
    "quit",
    "#",
    "nonsense",
];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn expressions_parse_or_say_why(text in soup()) {
        let r = case(&text, || {
            SESSION.with(|s| {
                let s = s.borrow();
                let p = z80chess::debug::expr::parse(&text, &s.dbg.prog, true).map(|_| ());
                let q = z80chess::debug::expr::parse_prefix(&text, &s.dbg.prog, false)
                    .map(|(_, used)| used);
                (p, q, s.eval(&text))
            })
        });
        if let (_, Ok(used), _) = &r {
            prop_assert!(*used <= text.len() && text.is_char_boundary(*used));
        }
        if let (_, _, Err(e)) = &r {
            prop_assert!(!e.is_empty());
        }
    }

    #[test]
    fn locations_resolve_or_say_why(text in soup()) {
        let r = case(&text, || SESSION.with(|s| s.borrow().location(&text)));
        if let Err(e) = r {
            prop_assert!(!e.is_empty());
        }
    }

    #[test]
    fn commands_that_do_not_run_answer(cmd in prop::sample::select(COMMANDS), args in soup()) {
        let line = format!("{cmd} {args}");
        let out = case(&line, || {
            SESSION.with(|s| {
                let mut s = s.borrow_mut();
                let out = s.execute(&line);
                s.quit = false;
                if s.dbg.limit == 0 || s.dbg.limit > 200_000 {
                    s.dbg.limit = 20_000;
                }
                out
            })
        });
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') && cmd != "quit" && cmd != "nonsense" {
            // every command answers something (its result or an error) except the silent ones
            let silent = ["delete", "d", "disable", "enable", "set", "write", "limit", "condition", "ignore"];
            prop_assert!(!out.is_empty() || silent.contains(&cmd), "no answer to {:?}", line);
        }
        if cmd == "nonsense" {
            prop_assert!(out.starts_with("error: "), "{:?} -> {:?}", line, out);
        }
    }
}
