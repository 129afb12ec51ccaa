//! The debugger's expressions: numbers, registers, symbols, memory and arithmetic.
//!
//! ```text
//!   numbers    42  0x2A  2Ah  0b101010  101010b  %101010  'A'
//!   registers  A F B C D E H L I R  AF BC DE HL IX IY SP PC  IXH IXL IYH IYL
//!              AF' BC' DE' HL'  WZ (MEMPTR)  IM IFF1 IFF2        (any case)
//!   symbols    GENMOV  CMDLP.find  board                 (exact, else case-insensitive)
//!   memory     (HL) (IX+5) (BOARD+35)  = the byte there;  w(SP) word(ADDR) = 16-bit LE
//!   grouping   [A+1]*2            (parentheses read memory, as in Z80 source)
//!   flags      $S $Z $H $PV $N $C $X $Y   (0 or 1)
//!   counters   $t (T-states)  $icount (instructions)  $depth (call depth)
//!   accesses   $old $new $value $addr $port   (in watchpoint and catchpoint conditions)
//!   operators  unary - ~ !   * / %   + -   << >>   < <= > >=   == !=   &   ^   |   &&   ||
//! ```
//! Values are 64-bit signed integers; comparisons and logic give 0 or 1.

use super::program::Program;
use crate::z80::flags;
use crate::z80::Cpu;

/// A register or a piece of CPU state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    A,
    F,
    B,
    C,
    D,
    E,
    H,
    L,
    I,
    R,
    AF,
    BC,
    DE,
    HL,
    IX,
    IY,
    SP,
    PC,
    IXH,
    IXL,
    IYH,
    IYL,
    AF2,
    BC2,
    DE2,
    HL2,
    WZ,
    IM,
    IFF1,
    IFF2,
}

impl Reg {
    fn from_name(name: &str, prime: bool) -> Option<Reg> {
        let up = name.to_ascii_uppercase();
        use Reg::*;
        Some(match (up.as_str(), prime) {
            ("AF", true) => AF2,
            ("BC", true) => BC2,
            ("DE", true) => DE2,
            ("HL", true) => HL2,
            (_, true) => return None,
            ("A", _) => A,
            ("F", _) => F,
            ("B", _) => B,
            ("C", _) => C,
            ("D", _) => D,
            ("E", _) => E,
            ("H", _) => H,
            ("L", _) => L,
            ("I", _) => I,
            ("R", _) => R,
            ("AF", _) => AF,
            ("BC", _) => BC,
            ("DE", _) => DE,
            ("HL", _) => HL,
            ("IX", _) => IX,
            ("IY", _) => IY,
            ("SP", _) => SP,
            ("PC", _) => PC,
            ("IXH", _) => IXH,
            ("IXL", _) => IXL,
            ("IYH", _) => IYH,
            ("IYL", _) => IYL,
            ("WZ", _) | ("MEMPTR", _) => WZ,
            ("IM", _) => IM,
            ("IFF1", _) => IFF1,
            ("IFF2", _) => IFF2,
            _ => return None,
        })
    }

    /// 8 or 16 bits (IM and the IFFs are small numbers in a byte).
    fn wide(self) -> bool {
        use Reg::*;
        matches!(
            self,
            AF | BC | DE | HL | IX | IY | SP | PC | AF2 | BC2 | DE2 | HL2 | WZ
        )
    }

    pub fn get(self, c: &Cpu) -> u16 {
        use Reg::*;
        match self {
            A => c.a as u16,
            F => c.f as u16,
            B => c.b as u16,
            C => c.c as u16,
            D => c.d as u16,
            E => c.e as u16,
            H => c.h as u16,
            L => c.l as u16,
            I => c.i as u16,
            R => c.r as u16,
            AF => c.af(),
            BC => c.bc(),
            DE => c.de(),
            HL => c.hl(),
            IX => c.ix,
            IY => c.iy,
            SP => c.sp,
            PC => c.pc,
            IXH => c.ix >> 8,
            IXL => c.ix & 0xFF,
            IYH => c.iy >> 8,
            IYL => c.iy & 0xFF,
            AF2 => c.af_,
            BC2 => c.bc_,
            DE2 => c.de_,
            HL2 => c.hl_,
            WZ => c.wz,
            IM => c.im as u16,
            IFF1 => c.iff1 as u16,
            IFF2 => c.iff2 as u16,
        }
    }

    fn set(self, c: &mut Cpu, v: u16) {
        use Reg::*;
        let b = v as u8;
        match self {
            A => c.a = b,
            F => c.f = b,
            B => c.b = b,
            C => c.c = b,
            D => c.d = b,
            E => c.e = b,
            H => c.h = b,
            L => c.l = b,
            I => c.i = b,
            R => c.r = b,
            AF => c.set_af(v),
            BC => c.set_bc(v),
            DE => c.set_de(v),
            HL => c.set_hl(v),
            IX => c.ix = v,
            IY => c.iy = v,
            SP => c.sp = v,
            PC => c.pc = v,
            IXH => c.ix = (c.ix & 0xFF) | (v << 8),
            IXL => c.ix = (c.ix & 0xFF00) | (v & 0xFF),
            IYH => c.iy = (c.iy & 0xFF) | (v << 8),
            IYL => c.iy = (c.iy & 0xFF00) | (v & 0xFF),
            AF2 => c.af_ = v,
            BC2 => c.bc_ = v,
            DE2 => c.de_ = v,
            HL2 => c.hl_ = v,
            WZ => c.wz = v,
            IM => c.im = b,
            IFF1 => c.iff1 = v != 0,
            IFF2 => c.iff2 = v != 0,
        }
    }
}

/// `$name` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pseudo {
    T,
    Icount,
    Depth,
    /// A flag, by its mask in F.
    Flag(u8),
    Old,
    New,
    Addr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Xor,
    Or,
    LAnd,
    LOr,
}

impl Op {
    fn prec(self) -> u8 {
        use Op::*;
        match self {
            LOr => 1,
            LAnd => 2,
            Or => 3,
            Xor => 4,
            And => 5,
            Eq | Ne => 6,
            Lt | Le | Gt | Ge => 7,
            Shl | Shr => 8,
            Add | Sub => 9,
            Mul | Div | Rem => 10,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Num(i64),
    Reg(Reg),
    Pseudo(Pseudo),
    /// The byte at an address: `(X)`.
    Byte(Box<Expr>),
    /// The little-endian word at an address: `w(X)`.
    Word(Box<Expr>),
    Neg(Box<Expr>),
    /// Bitwise complement.
    Compl(Box<Expr>),
    /// Logical not.
    Not(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
}

/// The bus access a watchpoint or catchpoint condition looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessCtx {
    pub addr: u16,
    pub old: u8,
    pub new: u8,
}

/// What an expression is evaluated against.
pub struct Env<'a> {
    pub cpu: &'a Cpu,
    pub mem: &'a [u8; 0x10000],
    pub icount: u64,
    pub depth: usize,
    pub access: Option<AccessCtx>,
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    prog: &'a Program,
    access_ok: bool,
    /// Binary operators read so far (at most [`MAX_OPERATORS`]).
    ops: usize,
}

/// The most binary operators one expression may hold: its tree is evaluated (and dropped) by
/// recursion, so a longer flat chain (`1+1+...+1`) is refused by length, never overflows the
/// stack.
pub const MAX_OPERATORS: usize = 1000;

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'.'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

/// Parse a number token (no sign).
pub fn parse_number(tok: &str) -> Result<i64, String> {
    let t = tok.replace('_', "");
    let lower = t.to_ascii_lowercase();
    let bad = || format!("'{tok}' is not a number");
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(b) = lower
        .strip_prefix("0b")
        .filter(|b| !b.is_empty() && b.bytes().all(|c| c == b'0' || c == b'1'))
    {
        (b.to_string(), 2)
    } else if let Some(h) = lower.strip_suffix('h') {
        (h.to_string(), 16)
    } else if let Some(b) = lower
        .strip_suffix('b')
        .filter(|b| !b.is_empty() && b.bytes().all(|c| c == b'0' || c == b'1'))
    {
        (b.to_string(), 2)
    } else {
        (lower.clone(), 10)
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let v = u64::from_str_radix(&digits, radix).map_err(|_| bad())?;
    i64::try_from(v).map_err(|_| format!("'{tok}' is too large"))
}

impl<'a> Parser<'a> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn text(&self) -> &str {
        std::str::from_utf8(self.s).unwrap_or("")
    }

    fn rest(&self) -> String {
        String::from_utf8_lossy(&self.s[self.pos.min(self.s.len())..]).into_owned()
    }

    fn starts(&self, t: &str) -> bool {
        self.s[self.pos..].starts_with(t.as_bytes())
    }

    fn ident(&mut self) -> String {
        let start = self.pos;
        while self.pos < self.s.len() && is_ident(self.s[self.pos]) {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.pos]).into_owned()
    }

    /// The binary operator at the cursor, if any (not consumed).
    fn peek_op(&self) -> Option<(Op, usize)> {
        let two = |a: &str| self.starts(a);
        use Op::*;
        Some(if two("&&") {
            (LAnd, 2)
        } else if two("||") {
            (LOr, 2)
        } else if two("<<") {
            (Shl, 2)
        } else if two(">>") {
            (Shr, 2)
        } else if two("<=") {
            (Le, 2)
        } else if two(">=") {
            (Ge, 2)
        } else if two("==") {
            (Eq, 2)
        } else if two("!=") {
            (Ne, 2)
        } else {
            match self.peek()? {
                b'*' => (Mul, 1),
                b'/' => (Div, 1),
                b'%' => (Rem, 1),
                b'+' => (Add, 1),
                b'-' => (Sub, 1),
                b'<' => (Lt, 1),
                b'>' => (Gt, 1),
                b'&' => (And, 1),
                b'^' => (Xor, 1),
                b'|' => (Or, 1),
                b'=' => return None,
                _ => return None,
            }
        })
    }

    fn expr(&mut self, min_prec: u8, depth: u32) -> Result<Expr, String> {
        if depth > 200 {
            return Err("expression nested too deeply".into());
        }
        let mut lhs = self.unary(depth + 1)?;
        loop {
            let save = self.pos;
            self.skip_ws();
            let Some((op, len)) = self.peek_op() else {
                self.pos = save;
                break;
            };
            if op.prec() < min_prec {
                self.pos = save;
                break;
            }
            self.pos += len;
            self.ops += 1;
            if self.ops > MAX_OPERATORS {
                return Err(format!(
                    "expression too long: more than {MAX_OPERATORS} operators"
                ));
            }
            let rhs = self.expr(op.prec() + 1, depth + 1)?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self, depth: u32) -> Result<Expr, String> {
        if depth > 200 {
            return Err("expression nested too deeply".into());
        }
        self.skip_ws();
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                Ok(Expr::Neg(Box::new(self.unary(depth + 1)?)))
            }
            Some(b'+') => {
                self.pos += 1;
                self.unary(depth + 1)
            }
            Some(b'~') => {
                self.pos += 1;
                Ok(Expr::Compl(Box::new(self.unary(depth + 1)?)))
            }
            Some(b'!') => {
                self.pos += 1;
                Ok(Expr::Not(Box::new(self.unary(depth + 1)?)))
            }
            _ => self.primary(depth + 1),
        }
    }

    fn close(&mut self, c: u8, what: &str) -> Result<(), String> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!(
                "expected '{}' to close {what} in '{}'",
                c as char,
                self.text()
            ))
        }
    }

    fn primary(&mut self, depth: u32) -> Result<Expr, String> {
        self.skip_ws();
        let Some(c) = self.peek() else {
            return Err(format!("'{}': an expression is missing", self.text()));
        };
        match c {
            b'(' => {
                self.pos += 1;
                let e = self.expr(0, depth + 1)?;
                self.close(b')', "a memory reference")?;
                Ok(Expr::Byte(Box::new(e)))
            }
            b'[' => {
                self.pos += 1;
                let e = self.expr(0, depth + 1)?;
                self.close(b']', "a group")?;
                Ok(e)
            }
            b'\'' => {
                let b = &self.s[self.pos..];
                if b.len() >= 3 && b[2] == b'\'' && b[1].is_ascii() {
                    self.pos += 3;
                    Ok(Expr::Num(b[1] as i64))
                } else {
                    Err(format!("bad character constant at '{}'", self.rest()))
                }
            }
            b'%' => {
                self.pos += 1;
                let start = self.pos;
                while matches!(self.peek(), Some(b'0' | b'1' | b'_')) {
                    self.pos += 1;
                }
                let tok = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                if tok.is_empty() {
                    return Err(format!("bad binary number at '%{}'", self.rest()));
                }
                parse_number(&format!("0b{tok}"))
                    .map(Expr::Num)
                    .map_err(|_| format!("'%{tok}' is not a number"))
            }
            b'$' => {
                self.pos += 1;
                let name = self.ident();
                self.pseudo(&name)
            }
            c if c.is_ascii_digit() => {
                let start = self.pos;
                while self.pos < self.s.len()
                    && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
                {
                    self.pos += 1;
                }
                let tok = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                parse_number(&tok).map(Expr::Num)
            }
            c if is_ident_start(c) => {
                let name = self.ident();
                let prime = self.peek() == Some(b'\'')
                    && matches!(
                        name.to_ascii_uppercase().as_str(),
                        "AF" | "BC" | "DE" | "HL"
                    );
                if prime {
                    self.pos += 1;
                }
                if let Some(r) = Reg::from_name(&name, prime) {
                    return Ok(Expr::Reg(r));
                }
                let lname = name.to_ascii_lowercase();
                if lname == "w" || lname == "word" || lname == "byte" {
                    self.skip_ws();
                    if self.peek() == Some(b'(') {
                        self.pos += 1;
                        let e = self.expr(0, depth + 1)?;
                        self.close(b')', &format!("{name}("))?;
                        return Ok(if lname == "byte" {
                            Expr::Byte(Box::new(e))
                        } else {
                            Expr::Word(Box::new(e))
                        });
                    }
                }
                self.prog.symbol(&name).map(|v| Expr::Num(v as i64))
            }
            _ => Err(format!(
                "unexpected '{}' in expression '{}'",
                c as char,
                self.text()
            )),
        }
    }

    fn pseudo(&self, name: &str) -> Result<Expr, String> {
        let up = name.to_ascii_uppercase();
        let access = |p: Pseudo| {
            if self.access_ok {
                Ok(Expr::Pseudo(p))
            } else {
                Err(format!(
                    "${name} is only defined in watchpoint and catchpoint conditions"
                ))
            }
        };
        Ok(Expr::Pseudo(match up.as_str() {
            "T" => Pseudo::T,
            "ICOUNT" => Pseudo::Icount,
            "DEPTH" => Pseudo::Depth,
            "S" => Pseudo::Flag(flags::S),
            "Z" => Pseudo::Flag(flags::Z),
            "Y" => Pseudo::Flag(flags::Y),
            "H" => Pseudo::Flag(flags::H),
            "X" => Pseudo::Flag(flags::X),
            "PV" | "P" | "V" => Pseudo::Flag(flags::PV),
            "N" => Pseudo::Flag(flags::N),
            "C" => Pseudo::Flag(flags::C),
            "OLD" => return access(Pseudo::Old),
            "NEW" | "VALUE" => return access(Pseudo::New),
            "ADDR" | "PORT" => return access(Pseudo::Addr),
            "" => return Err("'$' must be followed by a name, e.g. $t or $Z".into()),
            _ => {
                return Err(format!(
                "unknown variable ${name} (known: $t $icount $depth $S $Z $H $PV $N $C $X $Y $old $new $value $addr $port)"
            ))
            }
        }))
    }
}

/// Parse an expression at the start of `text`; returns it and how many bytes it used
/// (parsing stops before anything that cannot continue it, such as ` if`).
pub fn parse_prefix(text: &str, prog: &Program, access_ok: bool) -> Result<(Expr, usize), String> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        prog,
        access_ok,
        ops: 0,
    };
    let e = p.expr(0, 0)?;
    Ok((e, p.pos))
}

/// Parse a whole expression (trailing text is an error).
pub fn parse(text: &str, prog: &Program, access_ok: bool) -> Result<Expr, String> {
    let (e, used) = parse_prefix(text, prog, access_ok)?;
    let rest = text[used..].trim();
    if rest.is_empty() {
        Ok(e)
    } else {
        Err(format!(
            "unexpected '{rest}' after the expression '{}'",
            text[..used].trim()
        ))
    }
}

fn addr_of(v: i64) -> Result<u16, String> {
    u16::try_from(v).map_err(|_| format!("address {v} is out of range 0..0xFFFF"))
}

/// Evaluate an expression.
pub fn eval(e: &Expr, env: &Env) -> Result<i64, String> {
    Ok(match e {
        Expr::Num(v) => *v,
        Expr::Reg(r) => r.get(env.cpu) as i64,
        Expr::Pseudo(p) => match p {
            Pseudo::T => i64::try_from(env.cpu.t).unwrap_or(i64::MAX),
            Pseudo::Icount => i64::try_from(env.icount).unwrap_or(i64::MAX),
            Pseudo::Depth => env.depth as i64,
            Pseudo::Flag(m) => (env.cpu.f & m != 0) as i64,
            Pseudo::Old | Pseudo::New | Pseudo::Addr => {
                let a = env
                    .access
                    .ok_or("$old/$new/$addr have no value outside a watchpoint hit")?;
                match p {
                    Pseudo::Old => a.old as i64,
                    Pseudo::New => a.new as i64,
                    _ => a.addr as i64,
                }
            }
        },
        Expr::Byte(a) => env.mem[addr_of(eval(a, env)?)? as usize] as i64,
        Expr::Word(a) => {
            let a = addr_of(eval(a, env)?)?;
            u16::from_le_bytes([env.mem[a as usize], env.mem[a.wrapping_add(1) as usize]]) as i64
        }
        Expr::Neg(x) => eval(x, env)?.wrapping_neg(),
        Expr::Compl(x) => !eval(x, env)?,
        Expr::Not(x) => (eval(x, env)? == 0) as i64,
        Expr::Bin(op, a, b) => {
            let x = eval(a, env)?;
            // Short-circuit logic.
            match op {
                Op::LAnd if x == 0 => return Ok(0),
                Op::LOr if x != 0 => return Ok(1),
                _ => {}
            }
            let y = eval(b, env)?;
            use Op::*;
            match op {
                Mul => x.wrapping_mul(y),
                Div | Rem if y == 0 => return Err("division by zero".into()),
                Div => x.wrapping_div(y),
                Rem => x.wrapping_rem(y),
                Add => x.wrapping_add(y),
                Sub => x.wrapping_sub(y),
                Shl => {
                    if (0..64).contains(&y) {
                        x.wrapping_shl(y as u32)
                    } else {
                        0
                    }
                }
                Shr => {
                    if (0..64).contains(&y) {
                        x.wrapping_shr(y as u32)
                    } else if x < 0 {
                        -1
                    } else {
                        0
                    }
                }
                Lt => (x < y) as i64,
                Le => (x <= y) as i64,
                Gt => (x > y) as i64,
                Ge => (x >= y) as i64,
                Eq => (x == y) as i64,
                Ne => (x != y) as i64,
                And => x & y,
                Xor => x ^ y,
                Or => x | y,
                LAnd | LOr => (y != 0) as i64,
            }
        }
    })
}

/// Store `value` into what `target` names (a register, a flag, `(ADDR)` or `w(ADDR)`);
/// returns a description of what changed.
pub fn assign(
    target: &Expr,
    value: i64,
    cpu: &mut Cpu,
    mem: &mut [u8; 0x10000],
    icount: u64,
    depth: usize,
) -> Result<String, String> {
    let fits = |bits: u32| {
        let max = (1i64 << bits) - 1;
        let min = -(1i64 << (bits - 1));
        if (min..=max).contains(&value) {
            Ok(value & max)
        } else {
            Err(format!("{value} does not fit in {bits} bits"))
        }
    };
    match target {
        Expr::Reg(r) => {
            let v = fits(if r.wide() { 16 } else { 8 })? as u16;
            r.set(cpu, v);
            Ok(format!("{r:?} = {v:X}h"))
        }
        Expr::Pseudo(Pseudo::Flag(m)) => {
            if value != 0 && value != 1 {
                return Err("a flag is 0 or 1".into());
            }
            if value != 0 {
                cpu.f |= m;
            } else {
                cpu.f &= !m;
            }
            Ok(format!("F = {:02X}h", cpu.f))
        }
        Expr::Byte(a) | Expr::Word(a) => {
            let addr = {
                let env = Env {
                    cpu,
                    mem,
                    icount,
                    depth,
                    access: None,
                };
                addr_of(eval(a, &env)?)?
            };
            if matches!(target, Expr::Byte(_)) {
                let v = fits(8)? as u8;
                mem[addr as usize] = v;
                Ok(format!("({addr:04X}h) = {v:02X}h"))
            } else {
                let v = fits(16)? as u16;
                let [lo, hi] = v.to_le_bytes();
                mem[addr as usize] = lo;
                mem[addr.wrapping_add(1) as usize] = hi;
                Ok(format!("w({addr:04X}h) = {v:04X}h"))
            }
        }
        _ => Err("can only assign to a register, a flag ($Z ...), (ADDR) or w(ADDR)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firmware::Build;

    fn prog() -> Program {
        Program::from_build(Build::Article, &super::super::program::source_root()).unwrap()
    }

    fn ev(text: &str, cpu: &Cpu, mem: &[u8; 0x10000]) -> Result<i64, String> {
        let p = prog();
        let e = parse(text, &p, false)?;
        eval(
            &e,
            &Env {
                cpu,
                mem,
                icount: 7,
                depth: 2,
                access: None,
            },
        )
    }

    #[test]
    fn numbers_registers_memory() {
        let mut cpu = Cpu::new();
        let mut mem = Box::new([0u8; 0x10000]);
        cpu.a = 9;
        cpu.set_hl(0x4010);
        mem[0x4010] = 3;
        mem[0x4011] = 0x12;
        assert_eq!(ev("A == 9 && (HL) != 0", &cpu, &mem), Ok(1));
        assert_eq!(ev("w(HL)", &cpu, &mem), Ok(0x1203));
        assert_eq!(ev("[1+2]*3", &cpu, &mem), Ok(9));
        assert_eq!(
            ev("0FFh + 0x10 + %11 + 101b + 'A'", &cpu, &mem),
            Ok(255 + 16 + 3 + 5 + 65)
        );
        assert_eq!(ev("(HL+1) << 4", &cpu, &mem), Ok(0x120));
        assert_eq!(ev("$icount + $depth", &cpu, &mem), Ok(9));
        assert!(ev("GENMOV", &cpu, &mem).is_ok());
        assert!(ev("1/0", &cpu, &mem).is_err());
        assert!(ev("(0-1)", &cpu, &mem).is_err());
        assert!(ev("NOSUCHLABEL", &cpu, &mem).is_err());
        assert!(ev("$old", &cpu, &mem).is_err());
        assert!(ev("1 +", &cpu, &mem).is_err());
        assert!(ev("(1", &cpu, &mem).is_err());
        assert_eq!(ev("-1 >> 70", &cpu, &mem), Ok(-1));
    }

    #[test]
    fn prefix_stops_before_keywords() {
        let p = prog();
        let (_, used) = parse_prefix("BOARD+35 if $new == 0", &p, true).unwrap();
        assert_eq!(&"BOARD+35 if $new == 0"[used..], " if $new == 0");
    }
}
