//! Squares, moves and boards in the firmware's format (see `asm/board.asm` and
//! `asm/movegen.asm` for the bit layouts), and the FEN convention for the bits FEN lacks.

use crate::chess::{self, Colour, Piece, PieceType};
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

/// Mailbox index of a square (a1 = 21, h8 = 98; see [`chess::Square`]).
pub fn mailbox(sq: Square) -> u8 {
    chess::Square::from(sq).mailbox()
}

/// The square of a mailbox index, if it is on the board.
pub fn square_of(index: u8) -> Option<Square> {
    chess::Square::from_mailbox(index).map(Square::from)
}

/// A move as the protocol carries it: mailbox squares and the promotion piece type
/// (0 none, 2 knight, 3 bishop, 4 rook, 5 queen). Castling is the king's two-square move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FwMove {
    pub from: u8,
    pub to: u8,
    pub promo: u8,
}

pub use crate::chess::piece::types::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
pub const MOVED: u8 = Piece::MOVED;
pub const CASTLED: u8 = Piece::CASTLED;
pub const BLACK: u8 = Piece::BLACK;

fn type_of(role: Role) -> u8 {
    PieceType::from(role).bits()
}

fn role_of(t: u8) -> Option<Role> {
    PieceType::from_bits(t).map(Role::from)
}

impl FwMove {
    /// From a shakmaty move (castling as the king's move, as UCI writes it).
    pub fn from_move(m: &Move) -> FwMove {
        match m.to_uci(shakmaty::CastlingMode::Standard) {
            shakmaty::uci::UciMove::Normal {
                from,
                to,
                promotion,
            } => FwMove {
                from: mailbox(from),
                to: mailbox(to),
                promo: promotion.map(type_of).unwrap_or(0),
            },
            other => panic!("a standard chess move is never {other:?}"),
        }
    }

    /// The UCI text (`e2e4`, `e7e8q`), or a description of a malformed move.
    pub fn uci(&self) -> String {
        match (square_of(self.from), square_of(self.to)) {
            (Some(f), Some(t)) => {
                let promo = match role_of(self.promo) {
                    Some(r) if self.promo != 0 => r.char().to_string(),
                    _ => String::new(),
                };
                format!("{f}{t}{promo}")
            }
            _ => format!("?{}-{}?", self.from, self.to),
        }
    }

    /// The legal shakmaty move this is in `pos`, if any.
    pub fn to_move(&self, pos: &Chess) -> Option<Move> {
        pos.legal_moves()
            .into_iter()
            .find(|m| FwMove::from_move(m) == *self)
    }
}

/// A position as the set-up command carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board bytes of a1, b1, .., h8.
    pub squares: [u8; 64],
    /// Side to move: 00h White, 80h Black.
    pub side: u8,
    /// En-passant target square (mailbox), 0 = none.
    pub ep: u8,
}

/// The firmware bytes of a position. FEN has no moved/castled bits; the convention (the one
/// the published 1978 test suite assumes, `sargon-1978.md` §3.3):
/// - every piece has moved, except pawns on their second rank, knights, bishops and queens on
///   their original squares, a rook in its corner if that side may still castle on that wing
///   (or if its king is not on e1/e8), and a king on e1/e8 that may still castle;
/// - every other king is "castled and moved" (0x1E / 0x9E).
///
/// So castling rights come out exactly: the firmware castles when king and rook are unmoved.
pub fn encode(pos: &Chess) -> Setup {
    let board = pos.board();
    let castles = pos.castles();
    let mut squares = [0u8; 64];
    for (i, b) in squares.iter_mut().enumerate() {
        let sq = Square::new(i as u32);
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let (color, role) = (piece.color, piece.role);
        let home = color.backrank();
        let unmoved = match role {
            Role::Pawn => sq.rank() == color.relative_rank(Rank::Second),
            Role::Knight => sq.rank() == home && matches!(sq.file(), File::B | File::G),
            Role::Bishop => sq.rank() == home && matches!(sq.file(), File::C | File::F),
            Role::Queen => sq.rank() == home && sq.file() == File::D,
            Role::Rook => {
                let king_home = board.king_of(color) == Some(Square::from_coords(File::E, home));
                let wing = match sq.file() {
                    File::A => Some(CastlingSide::QueenSide),
                    File::H => Some(CastlingSide::KingSide),
                    _ => None,
                };
                sq.rank() == home
                    && match wing {
                        Some(side) => castles.has(color, side) || !king_home,
                        None => false,
                    }
            }
            Role::King => sq == Square::from_coords(File::E, home) && castles.has_color(color),
        };
        *b = Piece::from(piece)
            .with_moved(!unmoved)
            .with_castled(role == Role::King && !unmoved)
            .byte();
    }
    Setup {
        squares,
        side: Colour::from(pos.turn()).bit(),
        ep: pos.maybe_ep_square().map(mailbox).unwrap_or(0),
    }
}

/// The placement and side to move of firmware bytes as a FEN-like text (`board side ep`),
/// for reports; an invalid byte shows as `?`.
pub fn describe(setup: &Setup) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let b = setup.squares[rank * 8 + file];
            if b == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(Piece(b).char().unwrap_or('?'));
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if setup.side == 0 { " w " } else { " b " });
    s.push_str(
        &square_of(setup.ep)
            .map(|q| q.to_string())
            .unwrap_or("-".into()),
    );
    s
}

pub use crate::chess::fen::{check_fen_text, read_fen, FenError, FenTextError};
