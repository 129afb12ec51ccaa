//! Expressions: parsing (C-like precedence) and evaluation in 64-bit signed arithmetic.
//!
//! Precedence, loosest first: `||`; `&&`; `|`; `^`; `&`; `= == != <>`; `< > <= >=`;
//! `<< >>`; `+ -`; `* / %`; unary `- + ~ !` and `LOW(x)` / `HIGH(x)`; `PAGEOF(label)` is the
//! expansion page (0..7) of a label defined between `PAGE n` and `ENDPAGE`. Comparisons and the
//! logical operators give **1 for true and 0 for false** (as in C); `!x` is 1 when x is 0.
//! Division truncates toward zero; division by zero is an error, and so is a result outside
//! the 64-bit range (`10000h*10000h*10000h*10000h`) or a shift by a count outside 0..=31.

use super::error::{ErrorKind, LineError};
use super::lexer::{Op, Tok, Token};
use super::parse::is_reserved;

/// Deepest allowed expression tree (keeps recursion bounded on hostile input).
const MAX_DEPTH: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    Neg,
    Not,
    LogNot,
    Low,
    High,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Num(i64),
    /// `$`
    Here,
    /// A symbol as written (a leading `.` marks a local label); `col` for diagnostics.
    Sym {
        name: String,
        col: u32,
    },
    Unary(Unary, Box<Expr>),
    Binary(Op, Box<Expr>, Box<Expr>),
    /// `PAGEOF(name)`: the expansion page of a label.
    PageOf {
        name: String,
        col: u32,
    },
}

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A symbol without a value (yet); the pass machinery decides whether that is an error.
    Unknown { name: String, col: u32 },
    /// A real error (division by zero).
    Error(ErrorKind),
}

/// What evaluation needs from the assembler.
pub trait Env {
    /// The value of a symbol, or None if it has none (yet). `name` is as written.
    fn symbol(&mut self, name: &str) -> Option<i64>;
    /// `$`
    fn here(&self) -> i64;
    /// The expansion page of a symbol: None if it has no value (yet), Some(None) for a symbol
    /// outside the pages.
    fn page_of(&mut self, _name: &str) -> Option<Option<u8>> {
        None
    }
}

impl Expr {
    pub fn eval(&self, env: &mut dyn Env, text: &str) -> Result<i64, EvalError> {
        Ok(match self {
            Expr::Num(v) => *v,
            Expr::Here => env.here(),
            Expr::Sym { name, col } => env.symbol(name).ok_or_else(|| EvalError::Unknown {
                name: name.clone(),
                col: *col,
            })?,
            Expr::PageOf { name, col } => match env.page_of(name) {
                Some(Some(p)) => p as i64,
                Some(None) => {
                    return Err(EvalError::Error(ErrorKind::Other(format!(
                        "PAGEOF({name}): '{name}' is not a label of an expansion page"
                    ))))
                }
                None => {
                    return Err(EvalError::Unknown {
                        name: name.clone(),
                        col: *col,
                    })
                }
            },
            Expr::Unary(op, e) => {
                let v = e.eval(env, text)?;
                match op {
                    Unary::Neg => v
                        .checked_neg()
                        .ok_or_else(|| overflow(format!("-({v})"), text))?,
                    Unary::Not => !v,
                    Unary::LogNot => (v == 0) as i64,
                    Unary::Low => v & 0xFF,
                    Unary::High => (v >> 8) & 0xFF,
                }
            }
            Expr::Binary(op, a, b) => {
                let x = a.eval(env, text)?;
                let y = b.eval(env, text)?;
                let checked = |r: Option<i64>, sym: &str| {
                    r.ok_or_else(|| overflow(format!("{x} {sym} {y}"), text))
                };
                let shift = |left: bool| -> Result<i64, EvalError> {
                    let sym = if left { "<<" } else { ">>" };
                    if !(0..=MAX_SHIFT).contains(&y) {
                        return Err(EvalError::Error(ErrorKind::BadShift {
                            what: format!("{x} {sym} {y}"),
                            text: text.to_string(),
                        }));
                    }
                    if !left {
                        return Ok(x >> y);
                    }
                    let r = x << y;
                    if r >> y != x {
                        return Err(overflow(format!("{x} {sym} {y}"), text));
                    }
                    Ok(r)
                };
                match op {
                    Op::Plus => checked(x.checked_add(y), "+")?,
                    Op::Minus => checked(x.checked_sub(y), "-")?,
                    Op::Star => checked(x.checked_mul(y), "*")?,
                    Op::Slash | Op::Percent => {
                        if y == 0 {
                            return Err(EvalError::Error(ErrorKind::DivisionByZero(
                                text.to_string(),
                            )));
                        }
                        if *op == Op::Slash {
                            checked(x.checked_div(y), "/")?
                        } else {
                            checked(x.checked_rem(y), "%")?
                        }
                    }
                    Op::Amp => x & y,
                    Op::Pipe => x | y,
                    Op::Caret => x ^ y,
                    Op::Shl => shift(true)?,
                    Op::Shr => shift(false)?,
                    Op::Eq => (x == y) as i64,
                    Op::Ne => (x != y) as i64,
                    Op::Lt => (x < y) as i64,
                    Op::Gt => (x > y) as i64,
                    Op::Le => (x <= y) as i64,
                    Op::Ge => (x >= y) as i64,
                    Op::AndAnd => (x != 0 && y != 0) as i64,
                    Op::OrOr => (x != 0 || y != 0) as i64,
                    Op::Tilde | Op::Bang => unreachable!("not binary operators"),
                }
            }
        })
    }
}

/// The largest shift count: values are 64-bit, but a shift past 31 is a mistake in a Z80
/// source (it would shift every 16-bit value to nothing), so it is refused.
pub const MAX_SHIFT: i64 = 31;

fn overflow(what: String, text: &str) -> EvalError {
    EvalError::Error(ErrorKind::Overflow {
        what,
        text: text.to_string(),
    })
}

/// Parse all of `toks` as one expression; `line` is the source line (for messages).
pub fn parse_expr(toks: &[Token], line: &str) -> Result<Expr, LineError> {
    let mut p = Parser {
        toks,
        pos: 0,
        line,
        nest: 0,
    };
    if toks.is_empty() {
        return Err(LineError::syntax(0, "expected an expression"));
    }
    let (e, _) = p.binary(0)?;
    if p.pos < toks.len() {
        let t = &toks[p.pos];
        let msg = if t.tok == Tok::RParen {
            "')' without '('".to_string()
        } else {
            format!("unexpected '{}' in expression", p.text_of(t))
        };
        return Err(LineError::syntax(t.col, msg));
    }
    Ok(e)
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    line: &'a str,
    /// Current recursion depth through unary operators and parentheses.
    nest: usize,
}

/// Binary operator levels, loosest first.
const LEVELS: &[&[Op]] = &[
    &[Op::OrOr],
    &[Op::AndAnd],
    &[Op::Pipe],
    &[Op::Caret],
    &[Op::Amp],
    &[Op::Eq, Op::Ne],
    &[Op::Lt, Op::Gt, Op::Le, Op::Ge],
    &[Op::Shl, Op::Shr],
    &[Op::Plus, Op::Minus],
    &[Op::Star, Op::Slash, Op::Percent],
];

impl<'a> Parser<'a> {
    fn text_of(&self, t: &Token) -> &'a str {
        self.line.get(t.start..t.end).unwrap_or("?")
    }

    fn end_col(&self) -> u32 {
        self.toks
            .last()
            .map(|t| t.col + self.text_of(t).chars().count() as u32)
            .unwrap_or(0)
    }

    fn too_deep(&self) -> LineError {
        let col = self.toks.first().map(|t| t.col).unwrap_or(0);
        let text = match (self.toks.first(), self.toks.last()) {
            (Some(a), Some(b)) => self.line.get(a.start..b.end).unwrap_or(""),
            _ => "",
        };
        let mut short: String = text.chars().take(40).collect();
        if short.len() < text.len() {
            short.push_str("...");
        }
        LineError::new(col, ErrorKind::TooDeep(short))
    }

    fn enter(&mut self) -> Result<(), LineError> {
        self.nest += 1;
        if self.nest > MAX_DEPTH {
            Err(self.too_deep())
        } else {
            Ok(())
        }
    }

    /// Returns the expression and the depth of its tree.
    fn binary(&mut self, level: usize) -> Result<(Expr, usize), LineError> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let (mut lhs, mut depth) = self.binary(level + 1)?;
        loop {
            let op = match self.toks.get(self.pos) {
                Some(Token {
                    tok: Tok::Op(op), ..
                }) if LEVELS[level].contains(op) => *op,
                _ => break,
            };
            self.pos += 1;
            let (rhs, d) = self.binary(level + 1)?;
            depth = depth.max(d) + 1;
            if depth + self.nest > MAX_DEPTH {
                return Err(self.too_deep());
            }
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok((lhs, depth))
    }

    fn unary(&mut self) -> Result<(Expr, usize), LineError> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err(LineError::syntax(
                self.end_col(),
                "expression ends too early",
            ));
        };
        let un = match &t.tok {
            Tok::Op(Op::Minus) => Some(Some(Unary::Neg)),
            Tok::Op(Op::Plus) => Some(None),
            Tok::Op(Op::Tilde) => Some(Some(Unary::Not)),
            Tok::Op(Op::Bang) => Some(Some(Unary::LogNot)),
            _ => None,
        };
        if let Some(un) = un {
            self.pos += 1;
            self.enter()?;
            let (e, d) = self.unary()?;
            self.nest -= 1;
            return Ok(match un {
                Some(u) => (Expr::Unary(u, Box::new(e)), d + 1),
                None => (e, d),
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<(Expr, usize), LineError> {
        let t = &self.toks[self.pos];
        self.pos += 1;
        match &t.tok {
            Tok::Num(v) => Ok((Expr::Num(*v), 1)),
            Tok::Dollar => Ok((Expr::Here, 1)),
            Tok::Str(bytes) => match bytes.as_slice() {
                [b] => Ok((Expr::Num(*b as i64), 1)),
                _ => Err(LineError::syntax(
                    t.col,
                    format!("{} in an expression must be one character", self.text_of(t)),
                )),
            },
            Tok::Ident(name) => {
                let func = if name.eq_ignore_ascii_case("low") {
                    Some(Unary::Low)
                } else if name.eq_ignore_ascii_case("high") {
                    Some(Unary::High)
                } else {
                    None
                };
                if let Some(f) = func {
                    if matches!(
                        self.toks.get(self.pos),
                        Some(Token {
                            tok: Tok::LParen,
                            ..
                        })
                    ) {
                        self.pos += 1;
                        let (e, d) = self.paren(t.col)?;
                        return Ok((Expr::Unary(f, Box::new(e)), d + 1));
                    }
                }
                if name.eq_ignore_ascii_case("pageof")
                    && matches!(
                        self.toks.get(self.pos),
                        Some(Token {
                            tok: Tok::LParen,
                            ..
                        })
                    )
                {
                    self.pos += 1;
                    let (e, d) = self.paren(t.col)?;
                    return match e {
                        Expr::Sym { name, col } => Ok((Expr::PageOf { name, col }, d + 1)),
                        _ => Err(LineError::syntax(t.col, "PAGEOF takes a label")),
                    };
                }
                if is_reserved(name) {
                    return Err(LineError::new(
                        t.col,
                        ErrorKind::RegisterInExpression(name.clone()),
                    ));
                }
                Ok((
                    Expr::Sym {
                        name: name.clone(),
                        col: t.col,
                    },
                    1,
                ))
            }
            Tok::LParen => self.paren(t.col),
            // `%1010`: binary, when `%` is glued to binary digits where a value is expected.
            Tok::Op(Op::Percent) => match self.toks.get(self.pos) {
                Some(
                    n @ Token {
                        tok: Tok::Num(_), ..
                    },
                ) if n.start == t.end => {
                    let digits = self.text_of(n);
                    self.pos += 1;
                    match i64::from_str_radix(digits, 2) {
                        Ok(v) if digits.bytes().all(|b| b == b'0' || b == b'1') => {
                            Ok((Expr::Num(v), 1))
                        }
                        _ => Err(LineError::new(
                            t.col,
                            ErrorKind::BadNumber(format!("%{digits}")),
                        )),
                    }
                }
                _ => Err(LineError::syntax(t.col, "unexpected '%' in expression")),
            },
            _ => Err(LineError::syntax(
                t.col,
                format!("unexpected '{}' in expression", self.text_of(t)),
            )),
        }
    }

    /// The inside of `( ... )`, the `(` (at `col`) already consumed.
    fn paren(&mut self, col: u32) -> Result<(Expr, usize), LineError> {
        self.enter()?;
        if matches!(
            self.toks.get(self.pos),
            Some(Token {
                tok: Tok::RParen,
                ..
            })
        ) {
            return Err(LineError::syntax(col, "empty parentheses"));
        }
        let (e, d) = self.binary(0)?;
        match self.toks.get(self.pos) {
            Some(Token {
                tok: Tok::RParen, ..
            }) => self.pos += 1,
            Some(t) => {
                return Err(LineError::syntax(
                    t.col,
                    format!("unexpected '{}' in expression", self.text_of(t)),
                ))
            }
            None => return Err(LineError::syntax(col, "'(' without ')'")),
        }
        self.nest -= 1;
        Ok((e, d))
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;
    use std::collections::HashMap;

    struct E(HashMap<String, i64>);
    impl Env for E {
        fn symbol(&mut self, name: &str) -> Option<i64> {
            self.0.get(name).copied()
        }
        fn here(&self) -> i64 {
            0x100
        }
    }

    fn ev(s: &str) -> Result<i64, EvalError> {
        let toks = lex(s).unwrap();
        let e = parse_expr(&toks, s).map_err(|e| EvalError::Error(e.kind))?;
        let mut env = E([("x".to_string(), 5), ("Y".to_string(), -3)]
            .into_iter()
            .collect());
        e.eval(&mut env, s)
    }

    #[test]
    fn precedence_and_operators() {
        for (s, v) in [
            ("1+2*3", 7),
            ("(1+2)*3", 9),
            ("1<<4|1", 17),
            ("1+1<<2", 8),
            ("10-2-3", 5),
            ("100/7%3", 2),
            ("-7/2", -3),
            ("~0", -1),
            ("!0", 1),
            ("!5", 0),
            ("3=3", 1),
            ("3==4", 0),
            ("3<>4", 1),
            ("3!=3", 0),
            ("2<3", 1),
            ("2>=3", 0),
            ("1 && 0 || 1", 1),
            ("$+2", 0x102),
            ("'A'+1", 66),
            ("x*Y", -15),
            ("low(1234h)", 0x34),
            ("HIGH(1234h)", 0x12),
            ("0FFh & ~0Fh", 0xF0),
            ("5^3", 6),
            ("-(-(3))", 3),
            ("1<<31", 1 << 31),
            ("-1<<31", -(1 << 31)),
            ("(-1)>>31", -1),
            ("-8>>1", -4),
            ("(1<2)+(2<1)", 1),
            ("%1010", 10),
            ("%11%2", 1),
            ("7 % %11", 1),
            ("-%100", -4),
        ] {
            assert_eq!(ev(s), Ok(v), "{s}");
        }
    }

    #[test]
    fn errors() {
        assert!(matches!(
            ev("1/0"),
            Err(EvalError::Error(ErrorKind::DivisionByZero(_)))
        ));
        assert!(matches!(
            ev("1%(x-5)"),
            Err(EvalError::Error(ErrorKind::DivisionByZero(_)))
        ));
        assert!(matches!(ev("zz+1"), Err(EvalError::Unknown { ref name, col: 1 }) if name == "zz"));
        for bad in [
            "%12", "% 101", "%", "1+", "(1", "1)", "()", "1 2", "a+b", "'ab'", ",", "x+(3*)",
        ] {
            assert!(ev(bad).is_err(), "{bad}");
        }
        for bad in [
            "10000h*10000h*10000h*10000h",
            "7FFFFFFFFFFFFFFFh+1",
            "-7FFFFFFFFFFFFFFFh-2",
            "-(-7FFFFFFFFFFFFFFFh-1)",
            "(-7FFFFFFFFFFFFFFFh-1)/-1",
            "(-7FFFFFFFFFFFFFFFh-1)%-1",
            "1FFFFFFFFh<<31",
        ] {
            assert!(
                matches!(ev(bad), Err(EvalError::Error(ErrorKind::Overflow { .. }))),
                "{bad}: {:?}",
                ev(bad)
            );
        }
        for bad in ["1<<100", "1<<32", "1>>32", "1<<-1", "1>>-1"] {
            assert!(
                matches!(ev(bad), Err(EvalError::Error(ErrorKind::BadShift { .. }))),
                "{bad}: {:?}",
                ev(bad)
            );
        }
        let deep = "(".repeat(500) + "1" + &")".repeat(500);
        assert!(matches!(
            ev(&deep),
            Err(EvalError::Error(ErrorKind::TooDeep(_)))
        ));
        let long = "1".to_string() + &"+1".repeat(5000);
        assert!(matches!(
            ev(&long),
            Err(EvalError::Error(ErrorKind::TooDeep(_)))
        ));
        let neg = "-".repeat(5000) + "1";
        assert!(matches!(
            ev(&neg),
            Err(EvalError::Error(ErrorKind::TooDeep(_)))
        ));
    }
}
