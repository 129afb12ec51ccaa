//! Peer check: a corpus with every documented instruction form, generated from
//! `isa::templates()` with several sample operand values each, is assembled by our assembler
//! and by Debian's `z80asm` (package `z80asm`, Bas Wijnen's assembler, 1.8), and the bytes must
//! be identical. Without `z80asm` on PATH the test FAILS (install it: `apt-get install -y z80asm`).
//!
//! Besides the documented forms, three undocumented families that z80asm assembles correctly
//! are compared too: `IN F,(C)`, `OUT (C),0` and `SLL r` (which z80asm 1.8 spells `SLI`: its
//! `sll` is a parse error despite its manual). Left out, because z80asm 1.8 gets them wrong:
//! - ALU operations on IXH/IXL/IYH/IYL encode the other half (`ADD A,IXH` gives DD 85, the
//!   encoding of `ADD A,IXL`; likewise SUB/AND/XOR/OR/CP/ADC/SBC), and it rejects
//!   `LD A,IXH` and `INC`/`DEC` of the halves;
//! - DDCB/FDCB forms with a register (`RLC (IX+d),B`, `SET 2,(IY+d),A`) silently drop the
//!   register and assemble the plain `(IX+d)` form.
//!
//! Syntax differences between the two assemblers (ours / z80asm 1.8):
//! - local labels: `.x` belongs to the previous global label / to the current file or macro;
//! - forward references: allowed everywhere, including EQU, ORG, DS and IF / not in those;
//! - conditionals: IF/ELSEIF/ELSE/ENDIF, IFDEF/IFNDEF, a second ELSE is an error / IF/ELSE/ENDIF
//!   where every further ELSE toggles, `?label` tests definition;
//! - numbers: `0b1010` is binary here but an error there; z80asm also has `@c11`, `&hE`,
//!   `&o16`, `&b1110` and `16o`; both have `%1010`, `1010b`, `0Eh`, `0xE`, `$E`, `16q`;
//! - strings: no backslash escapes here (`''` doubles a quote) / C escapes (`'\n'`);
//! - operators: we add `&&`, `||`, `!`, `<>`, `LOW()`, `HIGH()`; z80asm has `a ? b : c`;
//!   both give 1/0 for comparisons and use C precedence;
//! - aliases: `IN (C)`, `SLL`, `EX AF,AF` and `(IX)` for `(IX+0)` work here; z80asm rejects
//!   `IN (C)` and assembles `LD A,(IX)` to nothing at all (write `(IX+0)` there);
//! - directives: `SEEK` and macros exist only in z80asm; `ELSEIF`, `IFDEF`, `IFNDEF`, `=` only
//!   here; `END` stops the file there and stops assembly here.

use std::fmt::Write as _;
use std::process::Command;
use z80chess::asm::assemble_str;
use z80chess::z80::isa::{templates, Part};

/// Undocumented forms, and whether z80asm can be trusted with them.
fn undocumented(text: &str) -> Option<bool> {
    let halves = ["IXH", "IXL", "IYH", "IYL"]
        .iter()
        .any(|h| text.contains(h));
    let indexed_with_reg = text.contains("+d),");
    let indexed_cb = text.starts_with("RLC ")
        || text.starts_with("RRC ")
        || text.starts_with("RL ")
        || text.starts_with("RR ")
        || text.starts_with("SLA ")
        || text.starts_with("SRA ")
        || text.starts_with("SRL ")
        || text.starts_with("SLL ")
        || text.starts_with("BIT ")
        || text.starts_with("SET ")
        || text.starts_with("RES ");
    if halves || (indexed_with_reg && indexed_cb) {
        Some(false)
    } else if text.starts_with("SLL ") || text == "IN F,(C)" || text == "OUT (C),0" {
        Some(true)
    } else {
        None
    }
}

/// The template text with placeholders replaced by sample values (variant `k`).
fn instantiate(text: &str, k: usize) -> String {
    const N: [i64; 4] = [0x00, 0x7F, 0xA5, 0xFF];
    const NN: [i64; 4] = [0x0000, 0x1234, 0xFFFF, 0x8001];
    const D: [i64; 5] = [0, 5, 127, -128, -1];
    const E: [i64; 4] = [-128, 0, 127, -1];
    let mut out = String::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphanumeric() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word = &text[start..i];
            match word {
                "n" => {
                    let _ = write!(out, "0x{:02X}", N[k % N.len()]);
                }
                "nn" => {
                    let _ = write!(out, "0x{:04X}", NN[k % NN.len()]);
                }
                "e" => {
                    // JR/DJNZ are 2 bytes: the offset is relative to $+2.
                    let _ = write!(out, "$+2{:+}", E[k % E.len()]);
                }
                "d" if out.ends_with('+') => {
                    out.pop();
                    let d = D[k % D.len()];
                    let _ = write!(
                        out,
                        "{}0x{:02X}",
                        if d < 0 { '-' } else { '+' },
                        d.unsigned_abs()
                    );
                }
                w => out.push_str(w),
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn z80asm_agrees_on_every_documented_form() {
    let version = Command::new("z80asm").arg("--version").output();
    assert!(
        version.is_ok(),
        "Debian's z80asm is not installed; this test needs it: apt-get install -y z80asm"
    );

    // (our text, z80asm text, expected length)
    let mut corpus: Vec<(String, String, usize)> = Vec::new();
    let (mut documented, mut undoc_checked, mut undoc_skipped) = (0, 0, 0);
    for t in templates() {
        match undocumented(&t.text) {
            Some(false) => {
                undoc_skipped += 1;
                continue;
            }
            Some(true) => undoc_checked += 1,
            None => documented += 1,
        }
        let has_operands = t.parts.iter().any(|p| !matches!(p, Part::Byte(_)));
        let variants = if has_operands { 5 } else { 1 };
        for k in 0..variants {
            let ours = instantiate(&t.text, k);
            let theirs = if let Some(r) = ours.strip_prefix("SLL ") {
                format!("SLI {r}")
            } else {
                ours.clone()
            };
            corpus.push((ours, theirs, t.len()));
        }
    }
    assert!(documented > 600, "only {documented} documented templates?");

    let ours_src: String = corpus
        .iter()
        .map(|(o, _, _)| format!("        {o}\n"))
        .collect();
    let theirs_src: String = corpus
        .iter()
        .map(|(_, t, _)| format!("        {t}\n"))
        .collect();

    let ours = match assemble_str(&ours_src, "peer.asm", &[]) {
        Ok(a) => a,
        Err(errs) => panic!(
            "our assembler rejects the corpus:\n{}",
            errs.iter()
                .take(20)
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    };

    let dir = std::env::temp_dir().join(format!("z80chess-peer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("peer.asm");
    let bin = dir.join("peer.bin");
    std::fs::write(&src, &theirs_src).unwrap();
    let out = Command::new("z80asm")
        .arg("-o")
        .arg(&bin)
        .arg(&src)
        .output()
        .expect("run z80asm");
    let theirs = std::fs::read(&bin).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "z80asm rejects the corpus:\n{}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
    );

    // Compare instruction by instruction (our lengths come from the templates).
    let mut mismatches = Vec::new();
    let mut at = 0usize;
    for (line, (text, _, len)) in corpus.iter().enumerate() {
        let mine = ours.bytes_of_line(0, line as u32 + 1).unwrap_or(&[]);
        if mine.len() != *len {
            mismatches.push(format!(
                "{text}: we emit {} bytes, the template says {len}",
                mine.len()
            ));
        }
        let end = (at + mine.len()).min(theirs.len());
        let peer = &theirs[at.min(end)..end];
        if mine != peer {
            mismatches.push(format!(
                "{text}: ours [{}], z80asm [{}]",
                hex(mine),
                hex(peer)
            ));
        }
        at += mine.len();
    }
    if theirs.len() != ours.image.len() {
        mismatches.push(format!(
            "image sizes differ: ours {}, z80asm {}",
            ours.image.len(),
            theirs.len()
        ));
    }
    println!(
        "peer corpus: {} lines, {documented} documented forms, {undoc_checked} undocumented forms checked, \
         {undoc_skipped} undocumented forms left out (z80asm bugs); {} bytes",
        corpus.len(),
        ours.image.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches with z80asm (first 30):\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
