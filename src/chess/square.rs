//! A square as the firmware numbers it: the index into its 10×12 mailbox (`asm/board.asm`).
//!
//! ```text
//!          a   b   c   d   e   f   g   h
//!     8 | 91  92  93  94  95  96  97  98 |      index = 10 × (rank + 1) + file + 1,
//!     7 | 81  ..                      88 |      rank and file counted from 0;
//!       |  ...                           |      the border (rows 0-1 and 10-11,
//!     2 | 31  ..                      38 |      columns 0 and 9) is off the board
//!     1 | 21  22  23  24  25  26  27  28 |      (the byte FFh there).
//! ```
//!
//! A mailbox step between neighbours: ±1 along a rank, ±10 along a file, ±9 and ±11 on the
//! diagonals; a knight's jump is ±8, ±12, ±19 or ±21, and never lands inside the board from
//! the board across the border.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A square of the board, as its mailbox index (21..=98, never a border index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a text is not a square.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a square: expected a1..h8 or a mailbox index 21..98 (a1 = 21, h8 = 98)")]
pub struct SquareError(pub String);

impl Square {
    pub const A1: Square = Square(21);
    pub const E1: Square = Square(25);
    pub const H1: Square = Square(28);
    pub const A8: Square = Square(91);
    pub const E8: Square = Square(95);
    pub const H8: Square = Square(98);

    /// The square of a mailbox index, if the index is on the board.
    pub const fn from_mailbox(index: u8) -> Option<Square> {
        if index < 21 || index > 98 {
            return None;
        }
        let file = (index - 21) % 10;
        if file < 8 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` and `rank` (each 0..8; a1 is (0, 0)).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(21 + 10 * rank + file))
        } else {
            None
        }
    }

    /// The square of a 0..64 index (a1 = 0, b1 = 1, .., h8 = 63), as shakmaty and the
    /// tablebases number squares.
    pub const fn from_index(index: u8) -> Option<Square> {
        Square::new(index % 8, if index < 64 { index / 8 } else { 8 })
    }

    /// The firmware's mailbox index (21..=98).
    pub const fn mailbox(self) -> u8 {
        self.0
    }

    /// The 0..64 index (a1 = 0, h8 = 63).
    pub const fn index(self) -> u8 {
        self.rank() * 8 + self.file()
    }

    /// The file, 0 (a) to 7 (h).
    pub const fn file(self) -> u8 {
        (self.0 - 21) % 10
    }

    /// The rank, 0 (the first) to 7 (the eighth).
    pub const fn rank(self) -> u8 {
        (self.0 - 21) / 10
    }

    /// The square `step` mailbox places away, if it is on the board.
    pub fn offset(self, step: i8) -> Option<Square> {
        u8::try_from(self.0 as i16 + step as i16)
            .ok()
            .and_then(Square::from_mailbox)
    }

    /// Every square, a1, b1, .., h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).filter_map(Square::from_index)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The crate's one square parser: a name (`e4`, `E4`) or a mailbox index (`55`), spaces
/// around it ignored.
impl FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let bad = || SquareError(s.to_string());
        let t = s.trim();
        if let [f @ (b'a'..=b'h' | b'A'..=b'H'), r @ b'1'..=b'8'] = t.as_bytes() {
            return Square::new(f.to_ascii_lowercase() - b'a', r - b'1').ok_or_else(bad);
        }
        if !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()) {
            return t
                .parse::<u8>()
                .ok()
                .and_then(Square::from_mailbox)
                .ok_or_else(bad);
        }
        Err(bad())
    }
}

impl From<shakmaty::Square> for Square {
    fn from(sq: shakmaty::Square) -> Square {
        Square(21 + 10 * u8::from(sq.rank()) + u8::from(sq.file()))
    }
}

impl From<Square> for shakmaty::Square {
    fn from(sq: Square) -> shakmaty::Square {
        shakmaty::Square::new(u32::from(sq.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailbox_numbering_matches_board_asm() {
        assert_eq!(Square::from_mailbox(21), Some(Square::A1));
        assert_eq!("h8".parse::<Square>().unwrap().mailbox(), 98);
        assert_eq!("e4".parse::<Square>().unwrap().mailbox(), 55);
        for border in [0, 20, 29, 30, 39, 99, 100, 119, 255] {
            assert_eq!(Square::from_mailbox(border), None, "{border}");
        }
        assert_eq!(Square::all().count(), 64);
        for (i, sq) in Square::all().enumerate() {
            assert_eq!(sq.index() as usize, i);
            let s = shakmaty::Square::from(sq);
            assert_eq!(s.to_string(), sq.to_string());
            assert_eq!(Square::from(s), sq);
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.mailbox().to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::A1.offset(-1), None);
        assert_eq!(
            Square::A1.offset(11).map(|s| s.to_string()),
            Some("b2".into())
        );
    }

    #[test]
    fn the_parser_names_what_it_refused() {
        for bad in ["", "i1", "a9", "a0", "e44", "29", "99", "300", "-5", "e 4"] {
            let e = bad.parse::<Square>().unwrap_err();
            assert_eq!(e, SquareError(bad.to_string()));
            assert!(e.to_string().contains(&format!("'{bad}'")), "{e}");
        }
        assert_eq!(" E2 ".parse::<Square>().map(|s| s.mailbox()), Ok(35));
    }
}
