//! The encoder, derived from [`crate::z80::isa::templates`]: no opcode table of its own.
//!
//! Each template's text (`LD (IX+d),n`, `JR NZ,e`, `BIT 3,(HL)`, `RST 38h`) is split into a
//! mnemonic and operand patterns. A parsed source operand has a shape (register, `(reg)`,
//! `(IX+d)`, `(expr)`, expression); an instruction matches a template when every shape fits
//! its pattern. Numbers that are part of the opcode (BIT/SET/RES bit, IM mode, RST address,
//! the 0 of `OUT (C),0`) are matched by value once the operand is evaluated.
//!
//! Aliases: `SLI` = `SLL`; `IN (C)` = `IN F,(C)`; `(IX)` = `(IX+0)` (where there is no
//! `(IX)` form, i.e. everywhere but `JP (IX)`); `SUB A,r` etc. = `SUB r` for SUB/AND/OR/XOR/CP;
//! `ADD r` etc. = `ADD A,r` for ADD/ADC/SBC; `EX AF,AF` = `EX AF,AF'`.

use super::parse::{OperandKind, RESERVED};
use crate::z80::isa::{templates, Part, Template, Timing};
use std::collections::HashMap;
use std::sync::OnceLock;

/// One operand of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Reg(String),
    Ind(String),
    Idx(String),
    Imm8,
    Imm16,
    Rel,
    Mem8,
    Mem16,
    Num(i64),
}

impl Pat {
    fn parse(s: &str) -> Option<Pat> {
        Some(match s {
            "n" => Pat::Imm8,
            "nn" => Pat::Imm16,
            "e" => Pat::Rel,
            "(n)" => Pat::Mem8,
            "(nn)" => Pat::Mem16,
            "(IX+d)" => Pat::Idx("IX".into()),
            "(IY+d)" => Pat::Idx("IY".into()),
            _ => {
                if let Some(inner) = s.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
                    if RESERVED.contains(&inner) {
                        return Some(Pat::Ind(inner.into()));
                    }
                    return None;
                }
                if RESERVED.contains(&s) {
                    return Some(Pat::Reg(s.into()));
                }
                if let Some(h) = s.strip_suffix('h') {
                    return i64::from_str_radix(h, 16).ok().map(Pat::Num);
                }
                return s.parse::<i64>().ok().map(Pat::Num);
            }
        })
    }
}

/// A template, split.
#[derive(Clone, Debug)]
pub struct Form {
    /// The template text (kept for diagnostics and tests).
    #[allow(dead_code)]
    pub text: String,
    pub pats: Vec<Pat>,
    pub parts: Vec<Part>,
    pub timing: Timing,
    pub len: usize,
}

/// Where a pattern's operand comes from: the source operand with this index, or a register
/// supplied by an alias (`ADD B` -> `ADD A,B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    User(usize),
    Fixed(&'static str),
}

/// A template whose patterns fit the operand shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub form: usize,
    pub slots: Vec<Slot>,
    /// 0 for an exact fit, 1 when an alias was used.
    pub penalty: u8,
}

pub struct Encoder {
    pub forms: Vec<Form>,
    by_mnemonic: HashMap<String, Vec<usize>>,
    /// Template texts that could not be understood (a test checks there are none).
    #[allow(dead_code)]
    pub rejected: Vec<String>,
}

impl Encoder {
    pub fn new(templates: &[Template]) -> Encoder {
        let mut forms: Vec<Form> = Vec::new();
        let mut by_mnemonic: HashMap<String, Vec<usize>> = HashMap::new();
        let mut rejected = Vec::new();
        for t in templates {
            let (mnemonic, rest) = match t.text.split_once(' ') {
                Some((m, r)) => (m.to_string(), r),
                None => (t.text.clone(), ""),
            };
            let pats: Option<Vec<Pat>> = if rest.is_empty() {
                Some(Vec::new())
            } else {
                rest.split(',').map(Pat::parse).collect()
            };
            let Some(pats) = pats else {
                rejected.push(t.text.clone());
                continue;
            };
            let len = t.parts.iter().map(|p| p.len()).sum();
            by_mnemonic.entry(mnemonic).or_default().push(forms.len());
            forms.push(Form {
                text: t.text.clone(),
                pats,
                parts: t.parts.clone(),
                timing: t.timing,
                len,
            });
        }
        Encoder {
            forms,
            by_mnemonic,
            rejected,
        }
    }

    /// The encoder for the CPU's instruction set.
    pub fn global() -> &'static Encoder {
        static E: OnceLock<Encoder> = OnceLock::new();
        E.get_or_init(|| Encoder::new(templates()))
    }

    fn canonical_mnemonic(upper: &str) -> &str {
        match upper {
            "SLI" => "SLL",
            m => m,
        }
    }

    /// Is `upper` an instruction mnemonic?
    pub fn is_mnemonic(&self, upper: &str) -> bool {
        self.by_mnemonic
            .contains_key(Self::canonical_mnemonic(upper))
    }

    /// Every template of `mnemonic` (upper case) that fits the operand shapes, best first.
    pub fn find(&self, mnemonic: &str, ops: &[&OperandKind]) -> Vec<Match> {
        let m = Self::canonical_mnemonic(mnemonic);
        let Some(list) = self.by_mnemonic.get(m) else {
            return Vec::new();
        };
        let user: Vec<Slot> = (0..ops.len()).map(Slot::User).collect();
        let mut variants: Vec<(Vec<Slot>, u8)> = vec![(user.clone(), 0)];
        let is_reg = |k: usize, r: &str| matches!(ops.get(k), Some(OperandKind::Reg(x)) if x == r);
        match m {
            "SUB" | "AND" | "OR" | "XOR" | "CP" if ops.len() == 2 && is_reg(0, "A") => {
                variants.push((vec![Slot::User(1)], 1));
            }
            "ADD" | "ADC" | "SBC" if ops.len() == 1 => {
                variants.push((vec![Slot::Fixed("A"), Slot::User(0)], 1));
            }
            "IN" if ops.len() == 1 && matches!(ops[0], OperandKind::Ind(r) if r == "C") => {
                variants.push((vec![Slot::Fixed("F"), Slot::User(0)], 1));
            }
            "EX" if ops.len() == 2 && is_reg(0, "AF") && is_reg(1, "AF") => {
                variants.push((vec![Slot::User(0), Slot::Fixed("AF'")], 1));
            }
            _ => {}
        }
        let mut out = Vec::new();
        for (slots, base_penalty) in variants {
            for &fi in list {
                let f = &self.forms[fi];
                if f.pats.len() != slots.len() {
                    continue;
                }
                let mut penalty = base_penalty;
                let fits = f.pats.iter().zip(&slots).all(|(pat, slot)| match slot {
                    Slot::Fixed(r) => matches!(pat, Pat::Reg(p) if p == r),
                    Slot::User(k) => match fits(ops[*k], pat) {
                        Some(p) => {
                            penalty += p;
                            true
                        }
                        None => false,
                    },
                });
                if fits {
                    out.push(Match {
                        form: fi,
                        slots: slots.clone(),
                        penalty,
                    });
                }
            }
        }
        out.sort_by_key(|m| (m.penalty, self.forms[m.form].len));
        out
    }
}

/// Does a source operand shape fit a pattern? Some(penalty) if so.
fn fits(op: &OperandKind, pat: &Pat) -> Option<u8> {
    match (op, pat) {
        (OperandKind::Reg(r), Pat::Reg(p)) if r == p => Some(0),
        (OperandKind::Ind(r), Pat::Ind(p)) if r == p => Some(0),
        (OperandKind::Ind(r), Pat::Idx(p)) if r == p => Some(1),
        (OperandKind::Idx(r, _), Pat::Idx(p)) if r == p => Some(0),
        (OperandKind::Mem(_), Pat::Mem8 | Pat::Mem16) => Some(0),
        (OperandKind::Imm(_), Pat::Imm8 | Pat::Imm16 | Pat::Rel | Pat::Num(_)) => Some(0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_is_understood() {
        let e = Encoder::global();
        assert!(
            e.rejected.is_empty(),
            "templates the assembler cannot parse: {:?}",
            e.rejected
        );
        assert!(e.forms.len() > 600, "{}", e.forms.len());
        // Texts are unique, so every form can be selected.
        let mut seen = std::collections::HashSet::new();
        for f in &e.forms {
            assert!(seen.insert(&f.text), "duplicate template {}", f.text);
        }
    }
}
