//! Assembler diagnostics: `file:line:col: error: message`.

use std::fmt;
use thiserror::Error;

/// What went wrong. Every message quotes the offending source text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ErrorKind {
    #[error("syntax error: {0}")]
    Syntax(String),
    #[error("bad number '{0}' (digits of its base, at most 7FFFFFFFFFFFFFFFh)")]
    BadNumber(String),
    #[error("unexpected character '{0}'")]
    BadChar(char),
    #[error("unterminated string or character literal {0}")]
    UnterminatedString(String),
    #[error("unknown instruction or directive '{0}'")]
    UnknownInstruction(String),
    #[error("no form of {mnemonic} takes these operands: '{text}'{hint}")]
    InvalidOperands {
        mnemonic: String,
        text: String,
        hint: String,
    },
    #[error("{mnemonic} takes {allowed} here, not {value} ('{text}')")]
    BadLiteral {
        mnemonic: String,
        allowed: String,
        value: i64,
        text: String,
    },
    #[error("undefined symbol '{0}'")]
    UndefinedSymbol(String),
    #[error("symbol '{0}' has no value: its definition could not be resolved")]
    UnresolvedSymbol(String),
    #[error(
        "cannot resolve '{name}': circular or unresolvable definition (it depends on '{via}')"
    )]
    Circular { name: String, via: String },
    #[error("symbol '{name}' is already defined (at {first})")]
    DuplicateSymbol { name: String, first: String },
    #[error("'{0}' is a register or condition name and cannot be a symbol")]
    ReservedName(String),
    #[error("register or condition '{0}' cannot be used in an expression")]
    RegisterInExpression(String),
    #[error("{what} out of range ({range}): '{text}' = {value}")]
    OutOfRange {
        what: &'static str,
        range: &'static str,
        value: i64,
        text: String,
    },
    #[error("relative jump out of range: target '{text}' is {offset} bytes away (-128..127)")]
    JumpOutOfRange { text: String, offset: i64 },
    #[error("division by zero in '{0}'")]
    DivisionByZero(String),
    #[error("arithmetic overflow: {what} does not fit in 64 bits ('{text}')")]
    Overflow { what: String, text: String },
    #[error("shift count out of range: {what} (shifts take 0..31) ('{text}')")]
    BadShift { what: String, text: String },
    #[error("expression too deeply nested: '{0}'")]
    TooDeep(String),
    #[error("cannot read '{path}': {reason}")]
    Include { path: String, reason: String },
    #[error("'{0}' includes itself")]
    IncludeRecursion(String),
    #[error("ELSE without IF")]
    ElseWithoutIf,
    /// An `ASSERT` whose condition is false (0).
    #[error("assertion failed: {message} ('{text}' is false)")]
    AssertFailed { message: String, text: String },
    #[error("ELSE after ELSE")]
    ElseAfterElse,
    #[error("ENDIF without IF")]
    EndifWithoutIf,
    #[error("IF without ENDIF")]
    UnclosedIf,
    #[error("byte at 0x{0:04X} is written twice (overlapping ORG)")]
    Overlap(u16),
    #[error("code runs past 0xFFFF ('{0}')")]
    AddressOverflow(String),
    #[error("byte at {page}:{addr:04X} is written twice (overlapping ORG in page {page})")]
    PageOverlap { page: u8, addr: u16 },
    #[error("code at {addr:04X}h in page {page} is outside the window 8000h-BFFFh ('{text}')")]
    OutsideWindow { page: u8, addr: i64, text: String },
    #[error("page {0} is out of range: an image has pages 0..7")]
    PageRange(i64),
    #[error("ENDPAGE outside a PAGE")]
    EndPageWithoutPage,
    #[error("code at {addr:04X}h is outside the base ROM 0000h-3FFFh of a paged image ('{text}')")]
    OutsideBase { addr: i64, text: String },
    #[error("{0} needs a name: write 'NAME {0} value'")]
    MissingName(&'static str),
    #[error("symbol values did not settle after {passes} more passes ('{name}' keeps changing)")]
    NotConverged { passes: usize, name: String },
    #[error("{0} is not supported")]
    Unsupported(String),
    #[error("bad definition '{0}': expected NAME=VALUE or NAME")]
    BadDefine(String),
    #[error("{0}")]
    Other(String),
}

/// One diagnostic with its place. `line` and `col` are 1-based; `line == 0` means the whole
/// file (e.g. it cannot be read), `col == 0` the whole line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct AsmError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub kind: ErrorKind,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.col) {
            (0, _) => write!(f, "{}: error: {}", self.file, self.kind),
            (l, 0) => write!(f, "{}:{}: error: {}", self.file, l, self.kind),
            (l, c) => write!(f, "{}:{}:{}: error: {}", self.file, l, c, self.kind),
        }
    }
}

/// An error inside one line, before the file and line are attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineError {
    pub col: u32,
    pub kind: ErrorKind,
}

impl LineError {
    pub fn new(col: u32, kind: ErrorKind) -> Self {
        LineError { col, kind }
    }
    pub fn syntax(col: u32, msg: impl Into<String>) -> Self {
        LineError {
            col,
            kind: ErrorKind::Syntax(msg.into()),
        }
    }
}
