//! Bad input: random text and random token soup never make the assembler panic or hang;
//! it returns an assembly or clean `file:line:col: error:` diagnostics.

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
    match assemble_with(Path::new("main.asm"), &[], &files) {
        Ok(a) => {
            prop_assert!(a.image.len() <= 0x10000);
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
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

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
