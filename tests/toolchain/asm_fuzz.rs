//! Bad input: random text, random token soup and mutated lines of the real sources never make
//! the assembler panic or hang; it returns an assembly or clean `file:line:col: error:`
//! diagnostics whose line and column lie inside the source. 10,000 cases a property (each
//! assembled in memory); the long run of 10^6 is in tests/fuzz_support/mod.rs.

use crate::common::fuzz_support;

use proptest::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use z80chess::asm::{assemble_with, AsmError};

const TOKENS: &[&str] = &[
    // mnemonics and directives
    "ld",
    "LD",
    "jr",
    "djnz",
    "jp",
    "call",
    "bit",
    "set",
    "res",
    "rst",
    "im",
    "in",
    "out",
    "ex",
    "add",
    "adc",
    "sub",
    "sbc",
    "and",
    "cp",
    "push",
    "pop",
    "inc",
    "dec",
    "rlc",
    "sll",
    "sli",
    "nop",
    "halt",
    "ldir",
    "org",
    "equ",
    "=",
    "db",
    "dw",
    "ds",
    "defb",
    "defm",
    "if",
    "elseif",
    "else",
    "endif",
    "ifdef",
    "ifndef",
    "include",
    "incbin",
    "end",
    "macro",
    "endm", // operands
    "a",
    "b",
    "c",
    "h",
    "l",
    "i",
    "r",
    "f",
    "hl",
    "de",
    "bc",
    "sp",
    "ix",
    "iy",
    "ixh",
    "iyl",
    "af",
    "af'",
    "nz",
    "z",
    "nc",
    "po",
    "pe",
    "p",
    "m",
    "(hl)",
    "(c)",
    "(ix)",
    "(ix+",
    "(iy-",
    "(",
    ")",
    ",",
    ":",
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
    "&&",
    "||",
    "==",
    "<>",
    "<",
    ">=",
    "$",
    "'",
    "\"",
    ";", // numbers
    "0",
    "1",
    "7",
    "255",
    "256",
    "-129",
    "0FFh",
    "$FF",
    "%101",
    "0b11",
    "0x",
    "65536",
    "99999999999999999999999",
    "'a'",
    "\"ab\"",
    "''",
    "low",
    "high", // names
    "x",
    "x:",
    "y",
    ".l",
    ".l:",
    "x.l",
    "lbl",
    "lbl:",
    "\"inc.asm\"",
    "\"main.asm\"",
    "\"nope\"",
];

fn loader(main: &str) -> HashMap<PathBuf, Vec<u8>> {
    let mut files = HashMap::new();
    files.insert(PathBuf::from("main.asm"), main.as_bytes().to_vec());
    // An include that includes the main file back (recursion must be caught).
    files.insert(
        PathBuf::from("inc.asm"),
        b"x equ 1\n include \"main.asm\"\n".to_vec(),
    );
    files
}

fn check(src: &str) -> Result<(), TestCaseError> {
    let files = loader(src);
    let lines = src.split('\n').count() as u32;
    let r = fuzz_support::case(src, || assemble_with(Path::new("main.asm"), &[], &files));
    match r {
        Ok(a) => {
            if a.pages == 0 {
                prop_assert!(a.image.len() <= 0x10000);
            } else {
                // a paged image: the base 16 KiB and its pages, 16 KiB each
                prop_assert_eq!(a.image.len(), 0x4000 * (1 + a.pages as usize));
            }
        }
        Err(errs) => {
            prop_assert!(!errs.is_empty());
            for e in &errs {
                let AsmError { file, line, .. } = e;
                let text = e.to_string();
                prop_assert!(text.contains(": error: "), "{}", text);
                prop_assert!(text.starts_with(file.as_str()), "{}", text);
                if file == "main.asm" {
                    prop_assert!(*line <= lines, "{} (source has {} lines)", text, lines);
                    if *line > 0 {
                        let width = src
                            .split('\n')
                            .nth(*line as usize - 1)
                            .map_or(0, |l| l.chars().count());
                        prop_assert!(
                            e.col as usize <= width + 1,
                            "{} (the line has {} characters)",
                            text,
                            width
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

fn soup() -> impl Strategy<Value = String> {
    let line = prop::collection::vec(
        (
            prop::sample::select(TOKENS),
            prop::sample::select(&[" ", "", " ", ","][..]),
        ),
        0..12,
    )
    .prop_map(|toks| {
        toks.into_iter()
            .map(|(t, sep)| format!("{t}{sep}"))
            .collect::<String>()
    });
    let indented =
        (any::<bool>(), line).prop_map(|(indent, l)| if indent { format!("  {l}") } else { l });
    prop::collection::vec(indented, 1..20).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(fuzz_support::config())]

    #[test]
    fn random_text(src in "[ -~\t\n]{0,300}") {
        check(&src)?;
    }

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn token_soup(src in soup()) {
        check(&src)?;
    }

    #[test]
    fn mutated_real_lines(src in mutated_lines()) {
        check(&src)?;
    }

    #[test]
    fn arithmetic_at_the_edges(src in edge_expressions()) {
        check(&src)?;
    }
}

/// The lines of the firmware's own sources (read once).
fn real_lines() -> &'static [String] {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("asm");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "asm"))
            .collect();
        names.sort();
        names
            .iter()
            .flat_map(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

/// A few real source lines with characters replaced, inserted or removed.
fn mutated_lines() -> impl Strategy<Value = String> {
    const CHARS: &[char] = &[
        ' ', ',', '(', ')', '+', '-', '*', '<', '>', '$', '\'', '"', ':', ';', '.', '0', '9', 'h',
        'x', 'A', '\t', '\u{e9}',
    ];
    let n = real_lines().len();
    prop::collection::vec((0..n, fuzz_support::edits(CHARS, 0, 3)), 1..8).prop_map(|lines| {
        lines
            .iter()
            .map(|(i, e)| fuzz_support::mutate(&real_lines()[*i], e))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// DB/DW/EQU/DS/ORG/IF with operands near the 64-bit and shift limits.
fn edge_expressions() -> impl Strategy<Value = String> {
    let num = prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| format!("0{v:X}h")),
        prop::sample::select(
            &[
                "7FFFFFFFFFFFFFFFh",
                "8000000000000000h",
                "0FFFFFFFFFFFFFFFFh",
                "10000h",
                "31",
                "32",
                "63",
                "64",
                "-1",
                "0",
                "$"
            ][..]
        )
        .prop_map(str::to_string),
    ];
    let op = prop::sample::select(
        &[
            "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "<", "&&",
        ][..],
    );
    let expr = (
        prop::sample::select(&["", "-", "~", "!", "-(", "high(", "low("][..]),
        num.clone(),
        op,
        num,
    )
        .prop_map(|(u, a, o, b)| {
            let close = if u.ends_with('(') { ")" } else { "" };
            format!("{u}{a}{close}{o}{b}")
        });
    prop::collection::vec(
        (
            prop::sample::select(
                &[
                    " db ", " dw ", "x equ ", " ds ", " org ", " if ", " ld a,", " ld hl,", " jr ",
                ][..],
            ),
            expr,
        ),
        1..5,
    )
    .prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (d, e))| {
                let d = if d == "x equ " {
                    format!("x{i} equ ")
                } else {
                    d.to_string()
                };
                let tail = if d == " if " { "\n endif" } else { "" };
                format!("{d}{e}{tail}")
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

#[test]
fn pathological_inputs() {
    for src in [
        "(".repeat(100_000),
        "-".repeat(100_000) + "1",
        format!(" db {}", "(".repeat(100_000)),
        format!(" ld a,{}1", "~!-+".repeat(30_000)),
        format!(" db {}", "1+".repeat(50_000) + "1"),
        format!(" db {}", "(1),".repeat(20_000) + "1"),
        " include \"main.asm\"".to_string(),
        " include \"inc.asm\"".to_string(),
        "x: if x\n ds 300\n endif\n".to_string(),
        " ds 65536\n db 1".to_string(),
        " org 0FFFFh\n ld hl,0\n".to_string(),
        "a equ 1".to_string(),
        "\u{0}\u{1}\u{7f}".to_string(),
        "'".to_string(),
        " ld a,(ix+".to_string(),
        " jr".to_string(),
    ] {
        check(&src).unwrap();
    }
}
