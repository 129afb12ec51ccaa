//! Splitting one source line into tokens.
//!
//! Numbers: `255`, `0FFh`, `$FF`, `0xFF`, `0b1010`, `1010b`, `17o`/`17q` (octal), `99d` (decimal). `$` alone is the current address.
//! Strings and character literals use `'` or `"`; a doubled quote stands for itself
//! (`'it''s'`); there are no backslash escapes. `;` starts a comment. `AF'` is one token.

use super::error::{ErrorKind, LineError};

/// Binary and unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Bang,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    AndAnd,
    OrOr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name as written (`AF'` included).
    Ident(String),
    Num(i64),
    /// A quoted string (also a character literal when it has one byte).
    Str(Vec<u8>),
    /// `$` alone: the address of the current instruction.
    Dollar,
    Op(Op),
    LParen,
    RParen,
    Comma,
    Colon,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    /// Byte offsets of the token in the line.
    pub start: usize,
    pub end: usize,
    /// 1-based column (in characters).
    pub col: u32,
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.'
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// Parse the text of a number that starts with a digit.
pub fn parse_number(s: &str) -> Option<i64> {
    let lower = s.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h, 16)
    } else if let Some(h) = lower.strip_suffix('h') {
        (h, 16)
    } else if let Some(b) = lower
        .strip_prefix("0b")
        .filter(|b| !b.is_empty() && b.chars().all(|c| c == '0' || c == '1'))
    {
        (b, 2)
    } else if let Some(b) = lower
        .strip_suffix('b')
        .filter(|b| b.chars().all(|c| c == '0' || c == '1'))
    {
        (b, 2)
    } else if let Some(o) = lower.strip_suffix('o').or_else(|| lower.strip_suffix('q')) {
        (o, 8)
    } else if let Some(d) = lower
        .strip_suffix('d')
        .filter(|d| d.chars().all(|c| c.is_ascii_digit()))
    {
        (d, 10)
    } else {
        (lower.as_str(), 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    // A value that fits the assembler's signed 64 bits; more (from 2^63) is an error, never
    // a wrap to a negative number.
    i64::from_str_radix(digits, radix).ok()
}

/// An operator at `c` (`next` the character after it): the operator and its length.
fn operator(c: char, next: Option<char>) -> Option<(Op, usize)> {
    match (c, next) {
        ('<', Some('<')) => Some((Op::Shl, 2)),
        ('>', Some('>')) => Some((Op::Shr, 2)),
        ('<', Some('=')) => Some((Op::Le, 2)),
        ('>', Some('=')) => Some((Op::Ge, 2)),
        ('<', Some('>')) => Some((Op::Ne, 2)),
        ('!', Some('=')) => Some((Op::Ne, 2)),
        ('=', Some('=')) => Some((Op::Eq, 2)),
        ('&', Some('&')) => Some((Op::AndAnd, 2)),
        ('|', Some('|')) => Some((Op::OrOr, 2)),
        ('+', _) => Some((Op::Plus, 1)),
        ('-', _) => Some((Op::Minus, 1)),
        ('*', _) => Some((Op::Star, 1)),
        ('/', _) => Some((Op::Slash, 1)),
        ('%', _) => Some((Op::Percent, 1)),
        ('&', _) => Some((Op::Amp, 1)),
        ('|', _) => Some((Op::Pipe, 1)),
        ('^', _) => Some((Op::Caret, 1)),
        ('~', _) => Some((Op::Tilde, 1)),
        ('!', _) => Some((Op::Bang, 1)),
        ('=', _) => Some((Op::Eq, 1)),
        ('<', _) => Some((Op::Lt, 1)),
        ('>', _) => Some((Op::Gt, 1)),
        _ => None,
    }
}

/// A string or character literal whose opening quote is `chars[i]`: its bytes (a doubled
/// quote stands for one) and the index after its closing quote.
fn string(line: &str, chars: &[(usize, char)], i: usize) -> Result<(Vec<u8>, usize), LineError> {
    let (start, c) = chars[i];
    let col = i as u32 + 1;
    let peek = |k: usize| chars.get(k).map(|&(_, c)| c);
    let mut bytes = Vec::new();
    let mut j = i + 1;
    loop {
        match chars.get(j) {
            None => {
                let all = line[start..].trim_end();
                let mut rest: String = all.chars().take(40).collect();
                if rest.len() < all.len() {
                    rest.push_str("...");
                }
                return Err(LineError::new(col, ErrorKind::UnterminatedString(rest)));
            }
            Some(&(_, q)) if q == c => {
                if peek(j + 1) == Some(c) {
                    bytes.push(c as u8);
                    j += 2;
                } else {
                    j += 1;
                    break;
                }
            }
            Some(&(_, ch)) => {
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                j += 1;
            }
        }
    }
    Ok((bytes, j))
}

/// Tokenize `line` (without its newline). Stops at a `;` comment.
pub fn lex(line: &str) -> Result<Vec<Token>, LineError> {
    let mut out: Vec<Token> = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut i = 0;
    let byte_at = |k: usize| chars.get(k).map(|&(b, _)| b).unwrap_or(line.len());
    while i < chars.len() {
        let (start, c) = chars[i];
        let col = i as u32 + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == ';' {
            break;
        }
        let peek = |k: usize| chars.get(k).map(|&(_, c)| c);
        let push = |tok: Tok, n_chars: usize, out: &mut Vec<Token>| {
            out.push(Token {
                tok,
                start,
                end: byte_at(i + n_chars),
                col,
            });
        };
        if ident_start(c) {
            let mut j = i + 1;
            while j < chars.len() && ident_char(chars[j].1) {
                j += 1;
            }
            let mut word = line[start..byte_at(j)].to_string();
            if word.eq_ignore_ascii_case("af") && peek(j) == Some('\'') {
                word.push('\'');
                j += 1;
            }
            push(Tok::Ident(word), j - i, &mut out);
            i = j;
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i + 1;
            while j < chars.len() && (chars[j].1.is_ascii_alphanumeric() || chars[j].1 == '_') {
                j += 1;
            }
            let text = &line[start..byte_at(j)];
            let v = parse_number(text)
                .ok_or_else(|| LineError::new(col, ErrorKind::BadNumber(text.into())))?;
            push(Tok::Num(v), j - i, &mut out);
            i = j;
            continue;
        }
        if c == '$' {
            let mut j = i + 1;
            while j < chars.len() && (chars[j].1.is_ascii_alphanumeric() || chars[j].1 == '_') {
                j += 1;
            }
            if j == i + 1 {
                push(Tok::Dollar, 1, &mut out);
            } else {
                let text = &line[start..byte_at(j)];
                let digits = &text[1..];
                let v = if digits.chars().all(|c| c.is_ascii_hexdigit()) {
                    i64::from_str_radix(digits, 16).ok()
                } else {
                    None
                };
                let v = v.ok_or_else(|| LineError::new(col, ErrorKind::BadNumber(text.into())))?;
                push(Tok::Num(v), j - i, &mut out);
            }
            i = j;
            continue;
        }
        if c == '\'' || c == '"' {
            let (bytes, j) = string(line, &chars, i)?;
            push(Tok::Str(bytes), j - i, &mut out);
            i = j;
            continue;
        }
        let two = operator(c, peek(i + 1));
        if let Some((op, n)) = two {
            push(Tok::Op(op), n, &mut out);
            i += n;
            continue;
        }
        let simple = match c {
            '(' => Some(Tok::LParen),
            ')' => Some(Tok::RParen),
            ',' => Some(Tok::Comma),
            ':' => Some(Tok::Colon),
            _ => None,
        };
        match simple {
            Some(tok) => {
                push(tok, 1, &mut out);
                i += 1;
            }
            None => return Err(LineError::new(col, ErrorKind::BadChar(c))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers() {
        for (s, v) in [
            ("255", 255),
            ("0FFh", 255),
            ("0ffH", 255),
            ("$FF", 255),
            ("0xFF", 255),
            ("0XfF", 255),
            ("0b1010", 10),
            ("1010b", 10),
            ("0Bh", 11),
            ("17o", 15),
            ("17q", 15),
            ("99d", 99),
            ("0", 0),
        ] {
            assert_eq!(toks(s), vec![Tok::Num(v)], "{s}");
        }
        for bad in [
            "0FG",
            "12x",
            "$FG",
            "0x",
            "99999999999999999999999",
            "8000000000000000h",
            "0FFFFFFFFFFFFFFFFh",
            "18446744073709551615",
            "$FFFFFFFFFFFFFFFF",
        ] {
            assert!(lex(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strings_quotes_and_af() {
        assert_eq!(toks("'it''s'"), vec![Tok::Str(b"it's".to_vec())]);
        assert_eq!(toks("\"a;b\" ; c"), vec![Tok::Str(b"a;b".to_vec())]);
        assert_eq!(
            toks("ex af,af'"),
            vec![
                Tok::Ident("ex".into()),
                Tok::Ident("af".into()),
                Tok::Comma,
                Tok::Ident("af'".into())
            ]
        );
        assert!(lex("db 'abc").is_err());
    }

    #[test]
    fn operators_and_columns() {
        let t = lex("  ld a,<<>>").unwrap();
        assert_eq!(t[0].col, 3);
        assert_eq!(t[3].tok, Tok::Op(Op::Shl));
        assert_eq!(t[3].col, 8);
        assert_eq!(toks("<> != == = <= >= && ||").len(), 8);
        assert_eq!(lex("ld a,`").unwrap_err().col, 6);
    }
}
