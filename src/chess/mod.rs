//! The chess vocabulary of the crate, on the firmware's own encoding (`asm/board.asm`):
//!
//! - [`Square`]: a square as the firmware numbers it, the 10×12 mailbox index
//!   (a1 = 21, h8 = 98), with the one square parser of the crate (`"e4".parse()`);
//! - [`Colour`], [`PieceType`] and [`Piece`]: the board byte (colour bit 7, castled bit 4,
//!   moved bit 3, type in bits 2-0);
//! - [`Attackers`]: the 14-byte attacker array of the BYTE article (ATKLST), nibble-packed;
//! - [`fen`]: the checked FEN reader every FEN the crate reads goes through;
//! - [`pgn`]: PGN text as games (tags, main-line movetext, comments).
//!
//! Conversions to and from shakmaty's types sit beside each type. This module imports nothing
//! of the crate (a wall test, `tests/toolchain/walls.rs`, keeps it so): firmware, debugger, reference
//! models and tablebases all speak it.

pub mod attackers;
pub mod fen;
pub mod pgn;
pub mod piece;
pub mod square;

pub use attackers::Attackers;
pub use piece::{Colour, Piece, PieceType};
pub use square::{Square, SquareError};
