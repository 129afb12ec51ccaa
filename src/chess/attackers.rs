//! The attacker array of the BYTE article (Table 1; ATKLST in `asm/attack.asm`): every piece
//! attacking one square, of both colours, as ATTACK fills it and XCHNG/NEXTAD consumes it.
//!
//! ```text
//!   byte   0      1    2    3    4    5    6     7      8    9   10   11   12   13
//!        +------+----+----+----+----+----+----+------+----+----+----+----+----+----+
//!        |count | P  | N  | B  | R  | Q  | K  |count | P  | N  | B  | R  | Q  | K  |
//!        +------+----+----+----+----+----+----+------+----+----+----+----+----+----+
//!        \________ White's section _________/ \________ Black's section _________/
//!
//!   each P..K byte, two attackers' values (PVALUE: P 1, N 3, B 3, R 5, Q 9, K 10):
//!        bit  7   6   5   4   3   2   1   0
//!           +---------------+---------------+
//!           |  second value |  first value  |    NEXTAD takes the low nibble first (RRD)
//!           +---------------+---------------+
//!   count: the number of values in the section.
//!   Q byte: a piece attacking through the queen goes in her high nibble;
//!   K byte: the king, and a third piece of a type spilled there (the filling rules of the
//!   two builds differ; `asm/attack.asm` and `reference::attack` give them).
//! ```
//!
//! The article's Figure 4 (a black knight on e4): White has 3 attackers, two knights (3, 3)
//! and a bishop (3); Black a pawn (1) and the queen (9): `03 00 33 03 00 00 00 | 02 01 00 00
//! 00 09 00`.

use super::piece::{Colour, PieceType};
use std::fmt;

/// The 14 bytes of ATKLST (see the module's diagram).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Attackers(pub [u8; 14]);

impl Attackers {
    /// Its size in bytes.
    pub const LEN: usize = 14;
    /// The bytes of one side's section: the count and six type bytes.
    pub const SECTION: usize = 7;

    /// The index of `colour`'s count byte (0 White, 7 Black).
    pub const fn base(colour: Colour) -> usize {
        colour.index() * Attackers::SECTION
    }

    /// The index of `colour`'s byte for pieces of type `kind`.
    pub const fn slot(colour: Colour, kind: PieceType) -> usize {
        Attackers::base(colour) + kind.bits() as usize
    }

    /// The array from memory (the first 14 bytes of `bytes`), if there are that many.
    pub fn from_slice(bytes: &[u8]) -> Option<Attackers> {
        Some(Attackers(bytes.get(..Attackers::LEN)?.try_into().ok()?))
    }

    pub const fn bytes(&self) -> &[u8; 14] {
        &self.0
    }

    /// How many attackers `colour` has (its section's count byte).
    pub const fn count(&self, colour: Colour) -> u8 {
        self.0[Attackers::base(colour)]
    }

    /// `colour`'s byte for `kind`: the first value low, the second high.
    pub const fn byte(&self, colour: Colour, kind: PieceType) -> u8 {
        self.0[Attackers::slot(colour, kind)]
    }

    /// `colour`'s section: the count, then the P, N, B, R, Q and K bytes.
    pub fn section(&self, colour: Colour) -> &[u8] {
        let b = Attackers::base(colour);
        &self.0[b..b + Attackers::SECTION]
    }

    /// The values NEXTAD would hand out for `colour`, in order: the bytes in turn, in each the
    /// low nibble first; at most `count` values; article units (not doubled).
    pub fn values(&self, colour: Colour) -> Vec<u8> {
        let section = self.section(colour);
        let count = section[0] as usize;
        let mut out = Vec::new();
        for &byte in &section[1..] {
            for v in [low(byte), high(byte)] {
                if out.len() < count && v != 0 {
                    out.push(v);
                }
                if v == 0 {
                    break; // RRD leaves a zero byte: NEXTAD moves on to the next one
                }
            }
        }
        out
    }

    /// Does every section's count equal the number of values in it, with no value sitting in
    /// a high nibble above an empty low one? (What ATKSAV produces; XCHNG is defined on these.)
    pub fn well_formed(&self) -> bool {
        Colour::ALL.iter().all(|&c| {
            let s = self.section(c);
            let mut n = 0usize;
            for &b in &s[1..] {
                if low(b) == 0 && b != 0 {
                    return false;
                }
                n += (low(b) != 0) as usize + (high(b) != 0) as usize;
            }
            n == s[0] as usize
        })
    }

    /// The 14 bytes as hex, the two sections apart: `03 00 33 .. | 02 01 ..`.
    pub fn hex(&self) -> String {
        let h = |s: &[u8]| {
            s.iter()
                .map(|b| format!("{b:02X}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{} | {}",
            h(self.section(Colour::White)),
            h(self.section(Colour::Black))
        )
    }
}

/// The low nibble of a byte of the array (the value NEXTAD takes first).
pub const fn low(b: u8) -> u8 {
    b & 0x0F
}

/// The high nibble (the value that moves down when the low one is taken).
pub const fn high(b: u8) -> u8 {
    b >> 4
}

impl std::ops::Index<usize> for Attackers {
    type Output = u8;
    fn index(&self, i: usize) -> &u8 {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for Attackers {
    fn index_mut(&mut self, i: usize) -> &mut u8 {
        &mut self.0[i]
    }
}

impl From<[u8; 14]> for Attackers {
    fn from(bytes: [u8; 14]) -> Attackers {
        Attackers(bytes)
    }
}

impl From<Attackers> for [u8; 14] {
    fn from(a: Attackers) -> [u8; 14] {
        a.0
    }
}

impl PartialEq<[u8; 14]> for Attackers {
    fn eq(&self, other: &[u8; 14]) -> bool {
        self.0 == *other
    }
}

impl PartialEq<Attackers> for [u8; 14] {
    fn eq(&self, other: &Attackers) -> bool {
        *self == other.0
    }
}

impl fmt::Debug for Attackers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Attackers({})", self.hex())
    }
}

impl fmt::Display for Attackers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG4: Attackers = Attackers([3, 0, 0x33, 0x03, 0, 0, 0, 2, 1, 0, 0, 0, 9, 0]);

    #[test]
    fn figure_4_reads_as_the_article_says() {
        assert_eq!(FIG4.count(Colour::White), 3);
        assert_eq!(FIG4.count(Colour::Black), 2);
        assert_eq!(FIG4.byte(Colour::White, PieceType::Knight), 0x33);
        assert_eq!(FIG4.byte(Colour::Black, PieceType::Queen), 9);
        assert_eq!(FIG4.values(Colour::White), vec![3, 3, 3]);
        assert_eq!(FIG4.values(Colour::Black), vec![1, 9]);
        assert!(FIG4.well_formed());
        assert_eq!(FIG4.hex(), "03 00 33 03 00 00 00 | 02 01 00 00 00 09 00");
        assert_eq!(Attackers::from_slice(&FIG4.0[..13]), None);
        assert_eq!(
            Attackers::from_slice(&[FIG4.0, [0; 14]].concat()),
            Some(FIG4)
        );
        let mut bad = FIG4;
        bad[1] = 0x10; // a value high above an empty low nibble
        assert!(!bad.well_formed());
        bad[1] = 0;
        bad[0] = 4; // a count that is not the number of values
        assert!(!bad.well_formed());
    }
}
