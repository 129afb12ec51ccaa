//! One source line -> an optional label and a statement.
//!
//! A label is a name followed by `:` anywhere on the line, or a name in column 1 that is not a
//! mnemonic or directive (so a column-1 label spelled like a mnemonic needs its colon), or a
//! name followed by `EQU` or `=`. Names starting with `.` are local to the previous global label.

use super::error::{ErrorKind, LineError};
use super::expr::{parse_expr, Expr};
use super::lexer::{lex, Op, Tok, Token};

/// Registers and condition codes (upper case). These cannot be symbols.
pub const RESERVED: &[&str] = &[
    "A", "B", "C", "D", "E", "H", "L", "I", "R", "F", "IXH", "IXL", "IYH", "IYL", "AF", "AF'",
    "BC", "DE", "HL", "SP", "IX", "IY", "NZ", "Z", "NC", "PO", "PE", "P", "M",
];

/// Registers that can appear alone in parentheses.
const INDIRECT: &[&str] = &["HL", "BC", "DE", "SP", "C", "IX", "IY"];

pub fn is_reserved(name: &str) -> bool {
    RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name))
}

/// Directive keywords (upper case).
pub const DIRECTIVES: &[&str] = &[
    "EQU", "ORG", "DB", "DEFB", "DM", "DEFM", "DW", "DEFW", "DS", "DEFS", "INCLUDE", "INCBIN",
    "IF", "IFDEF", "IFNDEF", "ELSE", "ELSEIF", "ENDIF", "END", "MACRO", "ENDM", "REPT", "ENDR",
    "PAGE", "ENDPAGE", "ASSERT",
];

/// An expression with its place and text, for diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ex {
    pub expr: Expr,
    pub col: u32,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A register or condition, upper case (`A`, `HL`, `AF'`, `NZ`).
    Reg(String),
    /// `(HL)`, `(BC)`, `(DE)`, `(SP)`, `(C)`, `(IX)`, `(IY)`: the register, upper case.
    Ind(String),
    /// `(IX+d)` / `(IY-d)`: the register and the displacement (sign included).
    Idx(String, Ex),
    /// `(expr)`: memory (or port) addressed by a number.
    Mem(Ex),
    /// A plain expression.
    Imm(Ex),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    pub kind: OperandKind,
    pub col: u32,
    pub text: String,
}

/// A DB item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Bytes(Vec<u8>),
    Value(Ex),
}

/// Which conditional-assembly directive a line is (kept even when its arguments are bad, so
/// that nesting is tracked in skipped blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondKind {
    If,
    ElseIf,
    Else,
    Endif,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Empty,
    Instr {
        mnemonic: String,
        ops: Vec<Operand>,
        text: String,
    },
    Equ(Ex),
    Org(Ex),
    /// `PAGE n`: what follows goes into expansion ROM page n (seen at 8000h-BFFFh).
    Page(Ex),
    /// `ENDPAGE`: back to the base image.
    EndPage,
    Db(Vec<Item>),
    Dw(Vec<Ex>),
    Ds(Ex, Option<Ex>),
    Include {
        path: String,
        col: u32,
    },
    Incbin {
        path: String,
        col: u32,
    },
    If(Ex),
    ElseIf(Ex),
    /// `ASSERT expr, "message"`: a build assertion, checked in the final pass.
    Assert(Ex, String),
    /// IFDEF (`defined` = true) / IFNDEF (false).
    IfDef {
        name: String,
        col: u32,
        defined: bool,
    },
    Else,
    Endif,
    End,
    /// The line is malformed.
    Error(LineError),
    /// A conditional directive with malformed arguments.
    BadCond(CondKind, LineError),
}

impl Stmt {
    pub fn cond_kind(&self) -> Option<CondKind> {
        match self {
            Stmt::If(_) | Stmt::IfDef { .. } => Some(CondKind::If),
            Stmt::ElseIf(_) => Some(CondKind::ElseIf),
            Stmt::Else => Some(CondKind::Else),
            Stmt::Endif => Some(CondKind::Endif),
            Stmt::BadCond(k, _) => Some(*k),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub label: Option<(String, u32)>,
    pub stmt: Stmt,
}

fn cond_keyword(word: &str) -> Option<CondKind> {
    match word.to_ascii_uppercase().as_str() {
        "IF" | "IFDEF" | "IFNDEF" => Some(CondKind::If),
        "ELSEIF" => Some(CondKind::ElseIf),
        "ELSE" => Some(CondKind::Else),
        "ENDIF" => Some(CondKind::Endif),
        _ => None,
    }
}

fn is_keyword(word: &str, is_mnemonic: &dyn Fn(&str) -> bool) -> bool {
    let up = word.to_ascii_uppercase();
    DIRECTIVES.contains(&up.as_str()) || is_mnemonic(&up)
}

fn valid_label(name: &str) -> bool {
    let body = name.strip_prefix('.').unwrap_or(name);
    body.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && !body.ends_with('.')
}

/// Parse one line. `is_mnemonic` gets an upper-case word.
pub fn parse_line(text: &str, is_mnemonic: &dyn Fn(&str) -> bool) -> Line {
    let toks = match lex(text) {
        Ok(t) => t,
        Err(e) => {
            // Keep conditional directives recognisable even on a line that does not lex.
            let words: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || c == ':' || c == ';')
                .filter(|w| !w.is_empty())
                .take(2)
                .collect();
            let kind = words.iter().take(2).find_map(|w| cond_keyword(w));
            let stmt = match kind {
                Some(k) => Stmt::BadCond(k, e),
                None => Stmt::Error(e),
            };
            return Line { label: None, stmt };
        }
    };
    let mut label = None;
    let mut i = 0;
    if let Some(Token {
        tok: Tok::Ident(name),
        col,
        start,
        ..
    }) = toks.first()
    {
        let next = toks.get(1).map(|t| &t.tok);
        let is_label = match next {
            Some(Tok::Colon) => {
                i = 2;
                true
            }
            Some(Tok::Op(Op::Eq)) => {
                i = 1;
                true
            }
            Some(Tok::Ident(w))
                if w.eq_ignore_ascii_case("EQU") || w.eq_ignore_ascii_case("MACRO") =>
            {
                i = 1;
                true
            }
            _ if *start == 0 && !is_keyword(name, is_mnemonic) => {
                i = 1;
                true
            }
            _ => false,
        };
        if is_label {
            if is_reserved(name) {
                return Line {
                    label: None,
                    stmt: Stmt::Error(LineError::new(*col, ErrorKind::ReservedName(name.clone()))),
                };
            }
            if !valid_label(name) {
                return Line {
                    label: None,
                    stmt: Stmt::Error(LineError::syntax(*col, format!("bad label '{name}'"))),
                };
            }
            label = Some((name.clone(), *col));
        }
    }
    let stmt = match parse_stmt(text, &toks[i..], label.is_some(), is_mnemonic) {
        Ok(s) => s,
        Err(e) => match toks.get(i) {
            Some(Token {
                tok: Tok::Ident(w), ..
            }) if cond_keyword(w).is_some() => {
                Stmt::BadCond(cond_keyword(w).unwrap_or(CondKind::If), e)
            }
            _ => Stmt::Error(e),
        },
    };
    Line { label, stmt }
}

fn span(text: &str, toks: &[Token]) -> String {
    match (toks.first(), toks.last()) {
        (Some(a), Some(b)) => text.get(a.start..b.end).unwrap_or("").to_string(),
        _ => String::new(),
    }
}

fn ex(text: &str, toks: &[Token]) -> Result<Ex, LineError> {
    let expr = parse_expr(toks, text)?;
    Ok(Ex {
        expr,
        col: toks.first().map(|t| t.col).unwrap_or(0),
        text: span(text, toks),
    })
}

/// Split at top-level commas. An empty piece is an error.
fn split_commas<'a>(
    text: &str,
    toks: &'a [Token],
    after: &Token,
) -> Result<Vec<&'a [Token]>, LineError> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::LParen => depth += 1,
            Tok::RParen => depth -= 1,
            Tok::Comma if depth <= 0 => {
                if k == start {
                    return Err(LineError::syntax(t.col, "missing operand before ','"));
                }
                out.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    if start == toks.len() {
        let col = toks.last().map(|t| t.col).unwrap_or(after.col);
        if !toks.is_empty() {
            return Err(LineError::syntax(
                col,
                format!("missing operand after ',' in '{}'", span(text, toks)),
            ));
        }
    } else {
        out.push(&toks[start..]);
    }
    Ok(out)
}

/// A string (quoted, or the raw rest of the line) naming a file.
fn file_arg(text: &str, kw: &Token, rest: &[Token]) -> Result<(String, u32), LineError> {
    match rest {
        [] => Err(LineError::syntax(kw.col, "expected a file name")),
        [Token {
            tok: Tok::Str(bytes),
            col,
            ..
        }] => Ok((String::from_utf8_lossy(bytes).into_owned(), *col)),
        _ => Ok((span(text, rest), rest[0].col)),
    }
}

fn no_args(text: &str, kw: &Token, rest: &[Token]) -> Result<(), LineError> {
    match rest.first() {
        None => Ok(()),
        Some(t) => Err(LineError::syntax(
            t.col,
            format!(
                "unexpected '{}' after {}",
                span(text, rest),
                text.get(kw.start..kw.end).unwrap_or("")
            ),
        )),
    }
}

/// `DB`/`DEFB`/`DM`/`DEFM`, `DW`/`DEFW`, `DS`/`DEFS` (`word`, upper case) and their values.
fn data(text: &str, kw: &Token, word: &str, rest: &[Token]) -> Result<Stmt, LineError> {
    Ok(match word {
        "DB" | "DEFB" | "DM" | "DEFM" => {
            let mut items = Vec::new();
            for piece in split_commas(text, rest, kw)? {
                match piece {
                    [Token {
                        tok: Tok::Str(bytes),
                        ..
                    }] => items.push(Item::Bytes(bytes.clone())),
                    _ => items.push(Item::Value(ex(text, piece)?)),
                }
            }
            if items.is_empty() {
                return Err(LineError::syntax(
                    kw.col,
                    format!("{word} needs at least one value"),
                ));
            }
            Stmt::Db(items)
        }
        "DW" | "DEFW" => {
            let mut items = Vec::new();
            for piece in split_commas(text, rest, kw)? {
                items.push(ex(text, piece)?);
            }
            if items.is_empty() {
                return Err(LineError::syntax(
                    kw.col,
                    format!("{word} needs at least one value"),
                ));
            }
            Stmt::Dw(items)
        }
        "DS" | "DEFS" => {
            let pieces = split_commas(text, rest, kw)?;
            match pieces.as_slice() {
                [n] => Stmt::Ds(ex(text, n)?, None),
                [n, fill] => Stmt::Ds(ex(text, n)?, Some(ex(text, fill)?)),
                _ => {
                    return Err(LineError::syntax(
                        kw.col,
                        format!("{word} takes a count and an optional fill byte"),
                    ))
                }
            }
        }
        _ => {
            return Err(LineError::syntax(
                kw.col,
                format!("{word} is not a data directive"),
            ))
        }
    })
}

fn parse_stmt(
    text: &str,
    toks: &[Token],
    has_label: bool,
    is_mnemonic: &dyn Fn(&str) -> bool,
) -> Result<Stmt, LineError> {
    let Some(kw) = toks.first() else {
        return Ok(Stmt::Empty);
    };
    let word = match &kw.tok {
        Tok::Ident(w) => w.to_ascii_uppercase(),
        Tok::Op(Op::Eq) => "EQU".to_string(),
        _ => {
            return Err(LineError::syntax(
                kw.col,
                format!(
                    "expected an instruction or directive, found '{}'",
                    span(text, toks)
                ),
            ))
        }
    };
    let rest = &toks[1..];
    let one_expr = |what: &str| -> Result<Ex, LineError> {
        if rest.is_empty() {
            return Err(LineError::syntax(kw.col, format!("{what} needs a value")));
        }
        ex(text, rest)
    };
    Ok(match word.as_str() {
        "EQU" => {
            if !has_label {
                return Err(LineError::new(kw.col, ErrorKind::MissingName("EQU")));
            }
            Stmt::Equ(one_expr("EQU")?)
        }
        "ORG" => Stmt::Org(one_expr("ORG")?),
        "PAGE" => Stmt::Page(one_expr("PAGE")?),
        "ENDPAGE" => {
            no_args(text, kw, rest)?;
            Stmt::EndPage
        }
        "IF" => Stmt::If(one_expr("IF")?),
        "ASSERT" => match split_commas(text, rest, kw)?[..] {
            [cond, [Token {
                tok: Tok::Str(msg), ..
            }]] => Stmt::Assert(ex(text, cond)?, String::from_utf8_lossy(msg).into_owned()),
            _ => {
                return Err(LineError::syntax(
                    kw.col,
                    "ASSERT needs a condition and a message: ASSERT expr, \"message\"",
                ))
            }
        },
        "ELSEIF" => Stmt::ElseIf(one_expr("ELSEIF")?),
        "IFDEF" | "IFNDEF" => match rest {
            [Token {
                tok: Tok::Ident(name),
                col,
                ..
            }] => Stmt::IfDef {
                name: name.clone(),
                col: *col,
                defined: word == "IFDEF",
            },
            _ => {
                return Err(LineError::syntax(
                    kw.col,
                    format!("{word} needs one symbol name"),
                ))
            }
        },
        "ELSE" => {
            no_args(text, kw, rest)?;
            Stmt::Else
        }
        "ENDIF" => {
            no_args(text, kw, rest)?;
            Stmt::Endif
        }
        "END" => {
            if !rest.is_empty() {
                ex(text, rest)?; // the entry address, checked for syntax but not used
            }
            Stmt::End
        }
        "DB" | "DEFB" | "DM" | "DEFM" | "DW" | "DEFW" | "DS" | "DEFS" => {
            data(text, kw, &word, rest)?
        }
        "INCLUDE" => {
            let (path, col) = file_arg(text, kw, rest)?;
            Stmt::Include { path, col }
        }
        "INCBIN" => {
            let (path, col) = file_arg(text, kw, rest)?;
            Stmt::Incbin { path, col }
        }
        "MACRO" | "ENDM" | "REPT" | "ENDR" => {
            return Err(LineError::new(
                kw.col,
                ErrorKind::Unsupported(format!("{word} (macros)")),
            ))
        }
        m if is_mnemonic(m) => {
            let mut ops = Vec::new();
            for piece in split_commas(text, rest, kw)? {
                ops.push(operand(text, piece)?);
            }
            Stmt::Instr {
                mnemonic: word.clone(),
                ops,
                text: span(text, toks),
            }
        }
        _ => {
            let w = text.get(kw.start..kw.end).unwrap_or(&word).to_string();
            return Err(LineError::new(kw.col, ErrorKind::UnknownInstruction(w)));
        }
    })
}

/// Index of the `)` matching the `(` at 0, if any.
fn matching_paren(toks: &[Token]) -> Option<usize> {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::LParen => depth += 1,
            Tok::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

fn operand(text: &str, toks: &[Token]) -> Result<Operand, LineError> {
    let col = toks[0].col;
    let op_text = span(text, toks);
    let mk = |kind| {
        Ok(Operand {
            kind,
            col,
            text: op_text.clone(),
        })
    };
    if let [Token {
        tok: Tok::Ident(name),
        ..
    }] = toks
    {
        let up = name.to_ascii_uppercase();
        if is_reserved(&up) {
            return mk(OperandKind::Reg(up));
        }
    }
    if toks[0].tok == Tok::LParen && matching_paren(toks) == Some(toks.len() - 1) {
        let inner = &toks[1..toks.len() - 1];
        if let Some(Token {
            tok: Tok::Ident(name),
            ..
        }) = inner.first()
        {
            let up = name.to_ascii_uppercase();
            if inner.len() == 1 && INDIRECT.contains(&up.as_str()) {
                return mk(OperandKind::Ind(up));
            }
            if (up == "IX" || up == "IY")
                && matches!(
                    inner.get(1).map(|t| &t.tok),
                    Some(Tok::Op(Op::Plus | Op::Minus))
                )
            {
                return mk(OperandKind::Idx(up, ex(text, &inner[1..])?));
            }
            if inner.len() == 1 && is_reserved(&up) {
                return Err(LineError::syntax(
                    col,
                    format!("'{op_text}' is not an addressing mode"),
                ));
            }
        }
        if inner.is_empty() {
            return Err(LineError::syntax(col, "empty parentheses"));
        }
        return mk(OperandKind::Mem(ex(text, inner)?));
    }
    mk(OperandKind::Imm(ex(text, toks)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mn(w: &str) -> bool {
        ["LD", "NOP", "JP", "JR", "EX", "ADD", "IN", "OUT", "BIT"].contains(&w)
    }

    fn p(s: &str) -> Line {
        parse_line(s, &mn)
    }

    fn ops(s: &str) -> Vec<OperandKind> {
        match p(s).stmt {
            Stmt::Instr { ops, .. } => ops.into_iter().map(|o| o.kind).collect(),
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn labels() {
        assert_eq!(p("start: nop").label, Some(("start".into(), 1)));
        assert_eq!(p("start nop").label, Some(("start".into(), 1)));
        assert_eq!(p("  start: nop").label, Some(("start".into(), 3)));
        assert_eq!(p("nop").label, None);
        assert_eq!(p("  nop").label, None);
        assert_eq!(p("LD: nop").label, Some(("LD".into(), 1)));
        assert_eq!(p("  FOO equ 5").label, Some(("FOO".into(), 3)));
        assert_eq!(p("FOO = 5").label, Some(("FOO".into(), 1)));
        assert_eq!(p(".loop: jr .loop").label, Some((".loop".into(), 1)));
        assert!(matches!(
            p("hl: nop").stmt,
            Stmt::Error(LineError {
                kind: ErrorKind::ReservedName(_),
                ..
            })
        ));
        assert!(matches!(p("x: equ").stmt, Stmt::Error(_)));
        assert!(matches!(
            p("  equ 5").stmt,
            Stmt::Error(LineError {
                kind: ErrorKind::MissingName(_),
                ..
            })
        ));
    }

    #[test]
    fn operand_shapes() {
        use OperandKind::*;
        assert!(matches!(ops("ld a,(5)")[1], Mem(_)));
        assert!(matches!(ops("ld a,(5)+1")[1], Imm(_)));
        assert!(matches!(ops("ld a,5*(2+1)")[1], Imm(_)));
        assert!(matches!(ops("ld a,(2+1)*(3)")[1], Imm(_)));
        assert_eq!(ops("jp (hl)"), vec![Ind("HL".into())]);
        assert_eq!(ops("ld a,(ix)")[1], Ind("IX".into()));
        assert!(matches!(&ops("ld a,(ix-OFF)")[1], Idx(r, _) if r == "IX"));
        assert!(matches!(&ops("ld (iy + 5),a")[0], Idx(r, _) if r == "IY"));
        assert_eq!(ops("ex af,af'"), vec![Reg("AF".into()), Reg("AF'".into())]);
        assert_eq!(ops("in a,(c)")[1], Ind("C".into()));
        assert!(matches!(p("ld a,(b)").stmt, Stmt::Error(_)));
        assert!(matches!(p("ld a,").stmt, Stmt::Error(_)));
        assert!(matches!(p("ld ,a").stmt, Stmt::Error(_)));
        assert!(matches!(p("ld a,b+1").stmt, Stmt::Error(_)));
    }

    #[test]
    fn directives() {
        assert!(matches!(p(" db 'abc',1,'x'+1").stmt, Stmt::Db(ref v) if v.len() == 3));
        assert!(matches!(p(" ds 10,0FFh").stmt, Stmt::Ds(_, Some(_))));
        assert!(
            matches!(p(" include \"a b.asm\"").stmt, Stmt::Include { ref path, .. } if path == "a b.asm")
        );
        assert!(
            matches!(p(" include inc/x.asm").stmt, Stmt::Include { ref path, .. } if path == "inc/x.asm")
        );
        assert_eq!(p(" if 1+").stmt.cond_kind(), Some(CondKind::If));
        assert_eq!(p(" else garbage").stmt.cond_kind(), Some(CondKind::Else));
        assert_eq!(p(" endif `").stmt.cond_kind(), Some(CondKind::Endif));
        assert_eq!(p("lbl: if `").stmt.cond_kind(), Some(CondKind::If));
        assert!(matches!(
            p(" frob a").stmt,
            Stmt::Error(LineError {
                kind: ErrorKind::UnknownInstruction(_),
                col: 2
            })
        ));
        assert!(matches!(
            p("mymac macro x").stmt,
            Stmt::Error(LineError {
                kind: ErrorKind::Unsupported(_),
                ..
            })
        ));
    }
}
