//! Random command lines never panic the debugger: every input gets output or an error
//! message, and the session goes on.

use proptest::prelude::*;
use std::path::Path;
use z80chess::debug::program::Program;
use z80chess::debug::{Session, Start};
use z80chess::firmware::Build;

const WORDS: &[&str] = &[
    "break",
    "b",
    "tbreak",
    "watch",
    "rwatch",
    "awatch",
    "catch",
    "delete",
    "disable",
    "enable",
    "ignore",
    "condition",
    "info",
    "step",
    "s",
    "next",
    "n",
    "finish",
    "until",
    "advance",
    "continue",
    "c",
    "reverse-step",
    "rs",
    "reverse-next",
    "rn",
    "reverse-finish",
    "reverse-continue",
    "rc",
    "goto",
    "limit",
    "regs",
    "dis",
    "list",
    "mem",
    "print",
    "p",
    "set",
    "write",
    "bt",
    "board",
    "attackers",
    "moves",
    "stopwatch",
    "send",
    "layout",
    "help",
    "tui",
    "memview",
    "",
];

const ARGS: &[&str] = &[
    "GENMOV",
    "INNER",
    "XCHNG",
    "BOARD",
    "ATKLST",
    "MLIST",
    "COUNT",
    "PC",
    "SP",
    "HL",
    "A",
    "(HL)",
    "w(SP)",
    "$t",
    "$old",
    "$Z",
    "if",
    "==",
    "&&",
    "+",
    "-",
    "*",
    "/",
    "%",
    "(",
    ")",
    "[",
    "]",
    "..",
    ":",
    "movegen.asm:40",
    "prog.asm:81",
    "in",
    "out",
    "io",
    "perft",
    "list",
    "move",
    "e2e4",
    "e7e8q",
    "raw",
    "xchng",
    "e5",
    "setup",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "breakpoints",
    "state",
    "line",
    "symbol",
    "reset",
    "asm",
    "src",
    "=",
    "0",
    "1",
    "3",
    "0xFFFF",
    "65536",
    "-1",
    "99999999999999999999",
    "'A'",
    "%101",
    "0FFh",
    "\u{e9}",
    "\t",
];

fn arg() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => proptest::sample::select(ARGS).prop_map(str::to_string),
        2 => any::<i32>().prop_map(|v| v.to_string()),
        1 => (0u32..0x10000).prop_map(|v| format!("0x{v:X}")),
        1 => "\\PC{0,12}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (
            proptest::sample::select(WORDS),
            proptest::collection::vec(arg(), 0..5)
        )
            .prop_map(|(w, a)| format!("{w} {}", a.join(" "))),
        1 => "\\PC{0,40}",
    ]
}

fn run(s: &mut Session, lines: &[String]) {
    s.execute("limit 20000");
    for l in lines {
        let _ = s.execute(l);
        // A fuzzed `limit` must not make the next command run for ever.
        if s.dbg.limit == 0 || s.dbg.limit > 200_000 {
            s.dbg.limit = 20_000;
        }
        s.quit = false;
    }
    let _ = s.execute("regs");
    let _ = s.execute("bt");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_commands_on_the_test_program(lines in proptest::collection::vec(line(), 1..25)) {
        let a = z80chess::asm::assemble_file(Path::new("tests/debug/prog.asm"), &[]).unwrap();
        let mut s = Session::program(
            Program::from_assembly("prog.asm", &a, Path::new(".")).unwrap(),
        )
        .unwrap();
        run(&mut s, &lines);
    }

    #[test]
    fn random_commands_on_the_firmware(lines in proptest::collection::vec(line(), 1..25)) {
        let mut s = Session::firmware(Build::Article, &Start::Initial).unwrap();
        run(&mut s, &lines);
    }
}

#[test]
fn bad_start_positions_are_errors_not_panics() {
    assert!(Session::firmware(Build::Article, &Start::Fen("not a fen".into())).is_err());
    assert!(Session::firmware(Build::Article, &Start::Moves("e2e5".into())).is_err());
    assert!(Session::firmware(Build::Article, &Start::Moves("Nf6".into())).is_err());
    assert!(Session::firmware(
        Build::B1978,
        &Start::Fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into())
    )
    .is_ok());
}
