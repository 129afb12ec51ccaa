//! The instruction set as data. OWNER: isa/disassembler helper (being written).
//!
//! Interface contract (other modules rely on it):
//! - `templates()` lists every *canonical* encoding once: its text template and byte layout.
//! - Template text: upper-case mnemonic, one space, operands separated by "," without spaces.
//!   Placeholders: `n` (8-bit immediate), `nn` (16-bit immediate, little-endian in the bytes),
//!   `d` (signed index displacement, written `(IX+d)` / `(IY+d)`), `e` (relative jump target of
//!   JR/DJNZ; the byte is target - (address after the instruction)). Numbers that are part of the
//!   opcode are written in decimal for BIT/SET/RES/IM (`BIT 3,(HL)`, `IM 2`) and as two-digit hex
//!   with an `h` suffix for RST (`RST 38h`, `RST 00h`).
//! - `decode()` decodes one instruction from a byte fetcher and says whether the encoding is the
//!   canonical one for its text (non-canonical aliases such as ED 4C "NEG" or a DD prefix that does
//!   nothing are disassembled as DB so that disassemble -> assemble is byte-identical).

/// One element of an instruction's byte layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// A fixed opcode or prefix byte.
    Byte(u8),
    /// `n`: an 8-bit immediate.
    Imm8,
    /// `nn`: a 16-bit immediate, low byte first.
    Imm16,
    /// `d`: a signed 8-bit displacement for (IX+d)/(IY+d).
    Disp,
    /// `e`: a relative jump offset.
    Rel,
}

/// T-states of an instruction: `base` always; `alt` is the other case of a conditional or
/// repeating instruction (condition false / no repeat), when there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timing {
    pub base: u8,
    pub alt: Option<u8>,
}

/// A canonical encoding of one instruction form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub text: String,
    pub parts: Vec<Part>,
    pub timing: Timing,
}
