//! One instruction: the encoder's forms for its operands, their values checked, its bytes.

use super::*;

impl Pass<'_, '_> {
    pub(super) fn instruction(
        &mut self,
        mnemonic: &str,
        ops: &[super::super::parse::Operand],
        text: &str,
    ) -> Option<(Vec<u8>, Timing)> {
        let enc = self.ctx.enc;
        let kinds: Vec<&OperandKind> = ops.iter().map(|o| &o.kind).collect();
        let matches = enc.find(mnemonic, &kinds);
        if matches.is_empty() {
            self.no_form(mnemonic, ops, text);
            return None;
        }
        // Operand values (None: no value or not a value operand).
        let mut vals: Vec<Option<i64>> = Vec::with_capacity(ops.len());
        for o in ops {
            let v = match &o.kind {
                OperandKind::Imm(e) | OperandKind::Mem(e) | OperandKind::Idx(_, e) => self.value(e),
                OperandKind::Ind(_) => Some(0),
                OperandKind::Reg(_) => None,
            };
            vals.push(v);
        }
        let literal_ok = |m: &super::super::encode::Match| {
            enc.forms[m.form]
                .pats
                .iter()
                .zip(&m.slots)
                .all(|(p, s)| match (p, s) {
                    (Pat::Num(n), Slot::User(k)) => vals[*k].is_none_or(|v| v == *n),
                    _ => true,
                })
        };
        let Some(m) = matches.iter().find(|m| literal_ok(m)) else {
            self.bad_literal(mnemonic, ops, &matches, &vals);
            return None;
        };
        let form = &enc.forms[m.form];
        // Which source operand feeds a part?
        let operand_for = |want: &dyn Fn(&Pat) -> bool| -> Option<usize> {
            form.pats.iter().zip(&m.slots).find_map(|(p, s)| match s {
                Slot::User(k) if want(p) => Some(*k),
                _ => None,
            })
        };
        let mut bytes = Vec::with_capacity(form.len);
        let end = self.pc + form.len as i64;
        for part in &form.parts {
            match part {
                Part::Byte(b) => bytes.push(*b),
                Part::Imm8 => {
                    let k = operand_for(&|p| matches!(p, Pat::Imm8 | Pat::Mem8));
                    let v = self.checked(ops, &vals, k, "8-bit value", "-128..255", -128, 255);
                    bytes.push(v as u8);
                }
                Part::Imm16 => {
                    let k = operand_for(&|p| matches!(p, Pat::Imm16 | Pat::Mem16));
                    let v = self.checked(
                        ops,
                        &vals,
                        k,
                        "16-bit value",
                        "-32768..65535",
                        -32768,
                        65535,
                    );
                    bytes.extend_from_slice(&(v as u16).to_le_bytes());
                }
                Part::Disp => {
                    let k = operand_for(&|p| matches!(p, Pat::Idx(_)));
                    let v =
                        self.checked(ops, &vals, k, "index displacement", "-128..127", -128, 127);
                    bytes.push(v as u8);
                }
                Part::Rel => {
                    let k = operand_for(&|p| matches!(p, Pat::Rel));
                    let off = self.rel_offset(ops, &vals, k, end);
                    bytes.push(off as u8);
                }
            }
        }
        Some((bytes, form.timing))
    }

    #[allow(clippy::too_many_arguments)]
    fn checked(
        &mut self,
        ops: &[super::super::parse::Operand],
        vals: &[Option<i64>],
        k: Option<usize>,
        what: &'static str,
        range: &'static str,
        lo: i64,
        hi: i64,
    ) -> i64 {
        let Some(k) = k else { return 0 };
        match vals[k] {
            Some(v) if range_ok(v, lo, hi) => v,
            Some(v) => {
                let o = &ops[k];
                let text = match &o.kind {
                    OperandKind::Idx(_, e) => e.text.clone(),
                    _ => o.text.clone(),
                };
                self.err(
                    o.col,
                    ErrorKind::OutOfRange {
                        what,
                        range,
                        value: v,
                        text,
                    },
                );
                0
            }
            None => 0,
        }
    }

    /// No form of `mnemonic` takes these operands: say so (and whether dropping parentheses
    /// would have made an immediate).
    fn no_form(&mut self, mnemonic: &str, ops: &[super::super::parse::Operand], text: &str) {
        let enc = self.ctx.enc;
        // A parenthesized number where an immediate would do? Say so.
        let mut hint = String::new();
        let relaxed: Vec<OperandKind> = ops
            .iter()
            .map(|o| match &o.kind {
                OperandKind::Mem(e) => OperandKind::Imm(e.clone()),
                k => k.clone(),
            })
            .collect();
        if relaxed.iter().zip(ops).any(|(r, o)| *r != o.kind)
            && !enc
                .find(mnemonic, &relaxed.iter().collect::<Vec<_>>())
                .is_empty()
        {
            hint =
                " (parentheses mean a memory operand; drop the outer parentheses for an immediate)"
                    .into();
        }
        let col = ops.first().map(|o| o.col).unwrap_or(0);
        self.err(
            col,
            ErrorKind::InvalidOperands {
                mnemonic: mnemonic.to_string(),
                text: text.to_string(),
                hint,
            },
        );
    }

    /// A number that is part of the opcode has a value no form takes.
    fn bad_literal(
        &mut self,
        mnemonic: &str,
        ops: &[super::super::parse::Operand],
        matches: &[super::super::encode::Match],
        vals: &[Option<i64>],
    ) {
        let enc = self.ctx.enc;
        // A number that is part of the opcode has a value no form takes.
        let f0 = &enc.forms[matches[0].form];
        let pos = f0
            .pats
            .iter()
            .position(|p| matches!(p, Pat::Num(_)))
            .unwrap_or(0);
        let k = match matches[0].slots.get(pos) {
            Some(Slot::User(k)) => *k,
            _ => 0,
        };
        let mut allowed: Vec<i64> = matches
            .iter()
            .filter_map(|m| match enc.forms[m.form].pats.get(pos) {
                Some(Pat::Num(n)) => Some(*n),
                _ => None,
            })
            .collect();
        allowed.sort();
        allowed.dedup();
        let hex = mnemonic == "RST";
        let list: Vec<String> = allowed
            .iter()
            .map(|n| {
                if hex {
                    format!("{n:02X}h")
                } else {
                    n.to_string()
                }
            })
            .collect();
        let (col, otext) = ops
            .get(k)
            .map(|o| (o.col, o.text.clone()))
            .unwrap_or((0, String::new()));
        self.err(
            col,
            ErrorKind::BadLiteral {
                mnemonic: mnemonic.to_string(),
                allowed: list.join(", "),
                value: vals.get(k).copied().flatten().unwrap_or(0),
                text: otext,
            },
        );
    }

    /// A relative jump's offset from `end` (the address after it) to its target, checked.
    fn rel_offset(
        &mut self,
        ops: &[super::super::parse::Operand],
        vals: &[Option<i64>],
        k: Option<usize>,
        end: i64,
    ) -> i64 {
        match k.and_then(|k| vals[k]) {
            Some(target) => {
                let off = target.wrapping_sub(end);
                if !range_ok(off, -128, 127) {
                    let o = &ops[k.unwrap_or(0)];
                    self.err(
                        o.col,
                        ErrorKind::JumpOutOfRange {
                            text: o.text.clone(),
                            offset: off,
                        },
                    );
                    0
                } else {
                    off
                }
            }
            None => 0,
        }
    }
}
