//! The board byte (`asm/board.asm`): one byte a square.
//!
//! ```text
//!     bit   7      6   5   4         3       2   1   0
//!         +------+---+---+---------+-------+-----------+
//!         |black | - | - | castled | moved |   type    |
//!         +------+---+---+---------+-------+-----------+
//!     type: 0 empty, 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king
//!     castled: kings only; moved: the piece has moved (castling rights, pawn double
//!     steps and development all come from it)
//!     00h: an empty square; FFh: off the board (the mailbox's border)
//! ```

use std::fmt;

/// The byte of an empty square.
pub const EMPTY: u8 = 0x00;
/// The byte of a border square of the mailbox.
pub const OFF: u8 = 0xFF;

/// The type bits as bare bytes, for code that indexes tables with them (the tablebases' inner
/// loops, models written at register level): the numbers of [`PieceType`].
pub mod types {
    use super::PieceType;
    pub const PAWN: u8 = PieceType::Pawn.bits();
    pub const KNIGHT: u8 = PieceType::Knight.bits();
    pub const BISHOP: u8 = PieceType::Bishop.bits();
    pub const ROOK: u8 = PieceType::Rook.bits();
    pub const QUEEN: u8 = PieceType::Queen.bits();
    pub const KING: u8 = PieceType::King.bits();
}

/// A side. On the board its bit is bit 7 of the piece byte ([`Colour::bit`]); as an index
/// (arrays `[White, Black]`, the tablebases) it is 0 or 1 ([`Colour::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// Its bit in a piece byte (and the firmware's side-to-move byte): 00h or 80h.
    pub const fn bit(self) -> u8 {
        match self {
            Colour::White => 0x00,
            Colour::Black => Piece::BLACK,
        }
    }

    /// The colour bit 7 of a byte names.
    pub const fn of_byte(b: u8) -> Colour {
        if b & Piece::BLACK != 0 {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// 0 White, 1 Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub const fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
}

impl std::ops::Not for Colour {
    type Output = Colour;
    fn not(self) -> Colour {
        self.opposite()
    }
}

impl From<shakmaty::Color> for Colour {
    fn from(c: shakmaty::Color) -> Colour {
        match c {
            shakmaty::Color::White => Colour::White,
            shakmaty::Color::Black => Colour::Black,
        }
    }
}

impl From<Colour> for shakmaty::Color {
    fn from(c: Colour) -> shakmaty::Color {
        match c {
            Colour::White => shakmaty::Color::White,
            Colour::Black => shakmaty::Color::Black,
        }
    }
}

/// A piece type as bits 2-0 of the board byte number it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The type of bits 2-0 (`b & 7`): None for 0 (empty) and 7.
    pub const fn from_bits(b: u8) -> Option<PieceType> {
        Some(match b & Piece::TYPE {
            1 => PieceType::Pawn,
            2 => PieceType::Knight,
            3 => PieceType::Bishop,
            4 => PieceType::Rook,
            5 => PieceType::Queen,
            6 => PieceType::King,
            _ => return None,
        })
    }

    /// Its number, 1..=6.
    pub const fn bits(self) -> u8 {
        self as u8
    }

    /// Its value in the BYTE article's units (PVALUE: 1, 3, 3, 5, 9, 10), the values the
    /// attacker array holds.
    pub const fn value(self) -> u8 {
        match self {
            PieceType::Pawn => 1,
            PieceType::Knight | PieceType::Bishop => 3,
            PieceType::Rook => 5,
            PieceType::Queen => 9,
            PieceType::King => 10,
        }
    }

    /// Its letter in lower case (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }
}

impl From<shakmaty::Role> for PieceType {
    fn from(r: shakmaty::Role) -> PieceType {
        match r {
            shakmaty::Role::Pawn => PieceType::Pawn,
            shakmaty::Role::Knight => PieceType::Knight,
            shakmaty::Role::Bishop => PieceType::Bishop,
            shakmaty::Role::Rook => PieceType::Rook,
            shakmaty::Role::Queen => PieceType::Queen,
            shakmaty::Role::King => PieceType::King,
        }
    }
}

impl From<PieceType> for shakmaty::Role {
    fn from(t: PieceType) -> shakmaty::Role {
        match t {
            PieceType::Pawn => shakmaty::Role::Pawn,
            PieceType::Knight => shakmaty::Role::Knight,
            PieceType::Bishop => shakmaty::Role::Bishop,
            PieceType::Rook => shakmaty::Role::Rook,
            PieceType::Queen => shakmaty::Role::Queen,
            PieceType::King => shakmaty::Role::King,
        }
    }
}

/// A board byte holding a piece (see the module's diagram). Any byte can be wrapped, as a
/// register holds it; [`Piece::kind`] is None when its type bits name no piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// Bit 7: a black piece.
    pub const BLACK: u8 = 0x80;
    /// Bit 4: a king that has castled.
    pub const CASTLED: u8 = 0x10;
    /// Bit 3: the piece has moved.
    pub const MOVED: u8 = 0x08;
    /// Bits 2-0: the type.
    pub const TYPE: u8 = 0x07;

    /// An unmoved piece.
    pub const fn new(colour: Colour, kind: PieceType) -> Piece {
        Piece(colour.bit() | kind.bits())
    }

    pub const fn byte(self) -> u8 {
        self.0
    }

    pub const fn colour(self) -> Colour {
        Colour::of_byte(self.0)
    }

    /// The type bits 2-0, 0..=7.
    pub const fn type_bits(self) -> u8 {
        self.0 & Piece::TYPE
    }

    pub const fn kind(self) -> Option<PieceType> {
        PieceType::from_bits(self.0)
    }

    pub const fn moved(self) -> bool {
        self.0 & Piece::MOVED != 0
    }

    pub const fn castled(self) -> bool {
        self.0 & Piece::CASTLED != 0
    }

    /// The same piece with the moved bit set or cleared.
    pub const fn with_moved(self, moved: bool) -> Piece {
        Piece(if moved {
            self.0 | Piece::MOVED
        } else {
            self.0 & !Piece::MOVED
        })
    }

    /// The same piece with the castled bit set or cleared.
    pub const fn with_castled(self, castled: bool) -> Piece {
        Piece(if castled {
            self.0 | Piece::CASTLED
        } else {
            self.0 & !Piece::CASTLED
        })
    }

    /// Its FEN letter (upper case for White), None when the type bits name no piece.
    pub fn char(self) -> Option<char> {
        let c = self.kind()?.char();
        Some(match self.colour() {
            Colour::White => c.to_ascii_uppercase(),
            Colour::Black => c,
        })
    }

    /// As shakmaty's piece (the moved and castled bits dropped).
    pub fn to_shakmaty(self) -> Option<shakmaty::Piece> {
        Some(shakmaty::Piece {
            color: self.colour().into(),
            role: self.kind()?.into(),
        })
    }
}

impl From<shakmaty::Piece> for Piece {
    /// The unmoved piece byte.
    fn from(p: shakmaty::Piece) -> Piece {
        Piece::new(p.color.into(), p.role.into())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piece({:02X}h", self.0)?;
        if let Some(c) = self.char() {
            write!(f, " {c}")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_is_the_one_board_asm_draws() {
        let k = Piece::new(Colour::Black, PieceType::King);
        assert_eq!(k.byte(), 0x86);
        assert_eq!(k.with_moved(true).with_castled(true).byte(), 0x9E);
        assert_eq!(Piece(0x9E).kind(), Some(PieceType::King));
        assert!(Piece(0x9E).moved() && Piece(0x9E).castled());
        assert_eq!(Piece(0x0C).char(), Some('R'));
        assert_eq!(Piece(0x07).kind(), None);
        assert_eq!(Piece(EMPTY).char(), None);
        for t in PieceType::ALL {
            assert_eq!(PieceType::from_bits(t.bits()), Some(t));
            let r: shakmaty::Role = t.into();
            assert_eq!(PieceType::from(r), t);
            assert_eq!(r.char(), t.char());
        }
        for c in Colour::ALL {
            assert_eq!(Colour::of_byte(c.bit() | 3), c);
            assert_eq!(!!c, c);
            assert_eq!(Colour::from(shakmaty::Color::from(c)), c);
        }
        assert_eq!(Colour::Black.index(), 1);
    }
}
