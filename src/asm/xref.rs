//! The cross-reference (`z80chess asm --xref FILE`, [`Assembly::xref`]): every symbol, where it
//! is defined, every reference to it, and the routine each reference lies in.
//!
//! It is built from the assembler's own final pass: a reference is a symbol that an expression
//! of an assembled line looked up and found (lines skipped by `IF` refer to nothing; `IFDEF`
//! names are not references). Its operation is the statement's mnemonic (`CALL`, `JP`, `LD`,
//! ...) or directive (`DW`, `DB`, `EQU`, `IF`, `ASSERT`, ...) as the parser read it.
//!
//! **Routine.** A global address label (no `.`, defined by a line, not `-D` or `EQU`) whose
//! address holds an instruction, and which is either the target of a `CALL` or `RST` somewhere
//! in the assembly, or has a header: the comment block directly above its line names it, a
//! comment line starting `; NAME:`, `; NAME /` or `; NAME,`. A reference lies in the routine
//! whose label was assembled last before it (`-`: none yet), so a fragment that a routine
//! INCLUDEs in its middle lies in that routine.
//!
//! **Calls.** Routine R *calls* routine T when a `CALL`, `RST`, `JP`, `JR` or `DJNZ`
//! ([`CONTROL_OPS`]) lying in R refers to T and T is not R: a `JP` or `JR` to another routine is
//! a tail call. A routine reached only through a table (`DW`) or by falling into it from the
//! one above has no caller.
//!
//! # Text format
//!
//! Lines starting with `;` are comments. For each symbol, sorted by name, one line
//! `NAME KIND FILE:LINE` (KIND `label`, `equ` or `define`; a `-D` symbol's place is `-D:0`),
//! followed by the word `routine` when it is one; then one line per reference, in assembly
//! order, indented by four spaces: `FILE:LINE OP ROUTINE` (ROUTINE `-` when none). Fields are
//! separated by spaces (file names must not contain spaces). [`Xref::parse`] reads it back.

use super::parse::{Line, Stmt};
use super::pass::Ctx;
use super::{Assembly, SymbolKind};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use thiserror::Error;

/// The operations that transfer control: a reference by one of them to a routine is a call.
pub const CONTROL_OPS: [&str; 5] = ["CALL", "RST", "JP", "JR", "DJNZ"];

/// One reference as the final pass met it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymRef {
    /// The symbol, qualified (`SRCH.loop` for `.loop`).
    pub name: String,
    /// Index into [`Assembly::files`].
    pub file: usize,
    /// 1-based.
    pub line: u32,
    /// The mnemonic or directive of the line, upper case.
    pub op: String,
}

/// The references the pass recorded, each (name, file, line) once, with its operation.
pub(super) fn references(ctx: &Ctx, raw: Vec<(String, usize, u32)>) -> Vec<SymRef> {
    let mut seen = HashSet::new();
    raw.into_iter()
        .filter(|r| seen.insert(r.clone()))
        .map(|(name, file, line)| {
            let op = ctx.files[file]
                .parsed
                .get(line as usize - 1)
                .map_or_else(|| "?".to_string(), op_name);
            SymRef {
                name,
                file,
                line,
                op,
            }
        })
        .collect()
}

/// The operation a line performs, as the parser read it.
fn op_name(line: &Line) -> String {
    let s = match &line.stmt {
        Stmt::Instr { mnemonic, .. } => return mnemonic.to_ascii_uppercase(),
        Stmt::Equ(_) => "EQU",
        Stmt::Org(_) => "ORG",
        Stmt::Page(_) => "PAGE",
        Stmt::Db(_) => "DB",
        Stmt::Dw(_) => "DW",
        Stmt::Ds(..) => "DS",
        Stmt::If(_) => "IF",
        Stmt::ElseIf(_) => "ELSEIF",
        Stmt::Assert(..) => "ASSERT",
        _ => "?",
    };
    s.to_string()
}

/// One reference in the cross-reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XrefRef {
    /// The file as the assembler opened it.
    pub file: String,
    pub line: u32,
    /// The mnemonic or directive (`CALL`, `LD`, `DW`, ...).
    pub op: String,
    /// The routine the reference lies in (None: above the file's first routine).
    pub routine: Option<String>,
}

/// One symbol of the cross-reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XrefSymbol {
    pub name: String,
    pub kind: SymbolKind,
    /// Where it is defined (None for `-D`).
    pub file: Option<String>,
    pub line: u32,
    /// Is it a routine (see the module documentation)?
    pub routine: bool,
    /// Its references, in assembly order.
    pub refs: Vec<XrefRef>,
}

/// The cross-reference of an assembly: its symbols sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Xref {
    pub symbols: Vec<XrefSymbol>,
}

/// A line of a cross-reference text that [`Xref::parse`] cannot read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cross-reference line {line}: {reason}: '{text}'")]
pub struct XrefError {
    pub line: usize,
    pub text: String,
    pub reason: &'static str,
}

/// Does the comment block directly above line `line` (1-based) of `lines` name `name`?
fn has_header(lines: &[&str], line: u32, name: &str) -> bool {
    let head = format!("; {name}");
    lines[..(line as usize).saturating_sub(1).min(lines.len())]
        .iter()
        .rev()
        .take_while(|t| t.trim_start().starts_with(';'))
        .filter_map(|t| t.trim_start().strip_prefix(head.as_str()))
        .any(|rest| rest.starts_with(':') || rest.starts_with(" /") || rest.starts_with(','))
}

impl Assembly {
    /// The cross-reference (see the module documentation of `asm::xref`).
    pub fn xref(&self) -> Xref {
        // Each file's text, from the listing (which holds every line of every file read).
        let mut texts: Vec<Vec<&str>> = vec![Vec::new(); self.files.len()];
        for l in &self.listing {
            let t = &mut texts[l.file];
            if t.len() < l.line as usize {
                t.resize(l.line as usize, "");
            }
            t[l.line as usize - 1] = &l.text;
        }
        let code: HashSet<(Option<u8>, u16)> = self
            .listing
            .iter()
            .filter(|l| l.assembled && l.timing.is_some())
            .filter_map(|l| l.addr.map(|a| (l.page, a)))
            .collect();
        let called: HashSet<&str> = self
            .refs
            .iter()
            .filter(|r| r.op == "CALL" || r.op == "RST")
            .map(|r| r.name.as_str())
            .collect();
        let routines: HashSet<&str> = self
            .symbols
            .iter()
            .filter(|(name, s)| {
                s.kind == SymbolKind::Label
                    && !name.contains('.')
                    && (0..=0xFFFF).contains(&s.value)
                    && code.contains(&(s.page, s.value as u16))
                    && s.file.is_some_and(|f| {
                        called.contains(name.as_str()) || has_header(&texts[f], s.line, name)
                    })
            })
            .map(|(name, _)| name.as_str())
            .collect();
        // A reference lies in the routine whose label was assembled last before it.
        let heads: HashMap<(usize, u32), &str> = routines
            .iter()
            .map(|name| {
                let s = &self.symbols[*name];
                ((s.file.unwrap_or(0), s.line), *name)
            })
            .collect();
        let mut inside: HashMap<(usize, u32), &str> = HashMap::new();
        let mut current = None;
        for l in self.listing.iter().filter(|l| l.assembled) {
            if let Some(name) = heads.get(&(l.file, l.line)) {
                current = Some(*name);
            }
            if let Some(name) = current {
                inside.insert((l.file, l.line), name);
            }
        }
        let routine_at = |file: usize, line: u32| inside.get(&(file, line)).map(|s| s.to_string());
        let mut refs: HashMap<&str, Vec<XrefRef>> = HashMap::new();
        for r in &self.refs {
            refs.entry(r.name.as_str()).or_default().push(XrefRef {
                file: self.files[r.file].clone(),
                line: r.line,
                op: r.op.clone(),
                routine: routine_at(r.file, r.line),
            });
        }
        let symbols = self
            .symbols
            .iter()
            .map(|(name, s)| XrefSymbol {
                name: name.clone(),
                kind: s.kind,
                file: s.file.map(|f| self.files[f].clone()),
                line: s.line,
                routine: routines.contains(name.as_str()),
                refs: refs.remove(name.as_str()).unwrap_or_default(),
            })
            .collect();
        Xref { symbols }
    }
}

fn kind_word(k: SymbolKind) -> &'static str {
    match k {
        SymbolKind::Label => "label",
        SymbolKind::Equ => "equ",
        SymbolKind::Define => "define",
    }
}

/// `FILE:LINE` into its parts.
fn place(s: &str) -> Option<(String, u32)> {
    let (f, l) = s.rsplit_once(':')?;
    Some((f.to_string(), l.parse().ok()?))
}

impl Xref {
    /// The text format (see the module documentation).
    pub fn text(&self) -> String {
        let mut out = String::from(
            "; z80chess cross-reference: NAME KIND FILE:LINE [routine], then its references\n\
             ;     FILE:LINE OP ROUTINE (ROUTINE - when none)\n",
        );
        for s in &self.symbols {
            let file = s.file.as_deref().unwrap_or("-D");
            let _ = write!(out, "{} {} {file}:{}", s.name, kind_word(s.kind), s.line);
            out.push_str(if s.routine { " routine\n" } else { "\n" });
            for r in &s.refs {
                let routine = r.routine.as_deref().unwrap_or("-");
                let _ = writeln!(out, "    {}:{} {} {routine}", r.file, r.line, r.op);
            }
        }
        out
    }

    /// Read the text format back.
    pub fn parse(text: &str) -> Result<Xref, XrefError> {
        let mut symbols: Vec<XrefSymbol> = Vec::new();
        for (k, raw) in text.lines().enumerate() {
            let t = raw.trim();
            if t.is_empty() || t.starts_with(';') {
                continue;
            }
            let bad = |reason| XrefError {
                line: k + 1,
                text: raw.to_string(),
                reason,
            };
            let w: Vec<&str> = t.split_whitespace().collect();
            if raw.starts_with(char::is_whitespace) {
                let [at, op, routine] = w[..] else {
                    return Err(bad("a reference is FILE:LINE OP ROUTINE"));
                };
                let (file, line) = place(at).ok_or_else(|| bad("expected FILE:LINE"))?;
                let sym = symbols
                    .last_mut()
                    .ok_or_else(|| bad("a reference before any symbol"))?;
                sym.refs.push(XrefRef {
                    file,
                    line,
                    op: op.to_string(),
                    routine: (routine != "-").then(|| routine.to_string()),
                });
                continue;
            }
            let (name, kind, at, routine) = match w[..] {
                [n, k, a] => (n, k, a, false),
                [n, k, a, "routine"] => (n, k, a, true),
                _ => return Err(bad("a symbol is NAME KIND FILE:LINE [routine]")),
            };
            let kind = match kind {
                "label" => SymbolKind::Label,
                "equ" => SymbolKind::Equ,
                "define" => SymbolKind::Define,
                _ => return Err(bad("KIND is label, equ or define")),
            };
            let (file, line) = place(at).ok_or_else(|| bad("expected FILE:LINE"))?;
            symbols.push(XrefSymbol {
                name: name.to_string(),
                kind,
                file: (file != "-D").then_some(file),
                line,
                routine,
                refs: Vec::new(),
            });
        }
        Ok(Xref { symbols })
    }

    /// A symbol by name.
    pub fn symbol(&self, name: &str) -> Option<&XrefSymbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// For every routine, the routines it calls (see the module documentation).
    pub fn calls(&self) -> BTreeMap<String, BTreeSet<String>> {
        let routines: HashSet<&str> = self
            .symbols
            .iter()
            .filter(|s| s.routine)
            .map(|s| s.name.as_str())
            .collect();
        let mut out: BTreeMap<String, BTreeSet<String>> = routines
            .iter()
            .map(|r| (r.to_string(), BTreeSet::new()))
            .collect();
        for s in self.symbols.iter().filter(|s| s.routine) {
            for r in &s.refs {
                let Some(from) = &r.routine else { continue };
                if *from != s.name && CONTROL_OPS.contains(&r.op.as_str()) {
                    out.entry(from.clone()).or_default().insert(s.name.clone());
                }
            }
        }
        out
    }

    /// For every routine, the routines that call it: [`Xref::calls`] turned round.
    pub fn callers(&self) -> BTreeMap<String, BTreeSet<String>> {
        let calls = self.calls();
        let mut out: BTreeMap<String, BTreeSet<String>> =
            calls.keys().map(|k| (k.clone(), BTreeSet::new())).collect();
        for (from, tos) in calls {
            for to in tos {
                out.entry(to).or_default().insert(from.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble_str;

    const SRC: &str = "\
; MAIN: the program.
MAIN:   CALL    SUB
        JP      TAIL
; SUB: a routine called.
SUB:    LD      A,(DATA)
.l:     DJNZ    .l
        RET
; TAIL: reached by a jump only, named by its header.
TAIL:   JR      TAIL
NOHEAD: JP      SUB
DATA:   DW      SUB
";

    #[test]
    fn references_routines_and_calls() {
        let a = assemble_str(SRC, "x.asm", &[]).unwrap();
        let x = a.xref();
        let sub = x.symbol("SUB").unwrap();
        assert!(sub.routine && sub.line == 5);
        let refs: Vec<(u32, &str, Option<&str>)> = sub
            .refs
            .iter()
            .map(|r| (r.line, r.op.as_str(), r.routine.as_deref()))
            .collect();
        assert_eq!(
            refs,
            [
                (2, "CALL", Some("MAIN")),
                (10, "JP", Some("TAIL")),
                (11, "DW", Some("TAIL"))
            ]
        );
        assert!(x.symbol("TAIL").unwrap().routine);
        // Neither called nor headed; DATA holds no instruction.
        assert!(!x.symbol("NOHEAD").unwrap().routine);
        assert!(!x.symbol("DATA").unwrap().routine);
        assert_eq!(x.symbol("SUB.l").unwrap().refs[0].op, "DJNZ");
        let calls = x.calls();
        assert_eq!(
            calls["MAIN"],
            BTreeSet::from(["SUB".to_string(), "TAIL".to_string()])
        );
        // TAIL's JR to itself is no call; NOHEAD lies in TAIL, so TAIL calls SUB.
        assert_eq!(calls["TAIL"], BTreeSet::from(["SUB".to_string()]));
        assert_eq!(
            x.callers()["SUB"],
            BTreeSet::from(["MAIN".to_string(), "TAIL".to_string()])
        );
        assert_eq!(Xref::parse(&x.text()).unwrap(), x);
    }

    #[test]
    fn bad_text_names_the_line() {
        let e = Xref::parse("A label x.asm:1\n    x.asm:2 CALL\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Xref::parse("    x.asm:2 CALL A\n").unwrap_err();
        assert_eq!(e.reason, "a reference before any symbol");
        assert!(Xref::parse("A thing x.asm:1\n").is_err());
    }
}
