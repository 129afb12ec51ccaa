//! Squares, moves and boards in the firmware's format (see `asm/board.asm` and
//! `asm/movegen.asm` for the bit layouts), and the FEN convention for the bits FEN lacks.

use shakmaty::{CastlingSide, Chess, Color, File, Move, Piece, Position, Rank, Role, Square};

/// Mailbox index of a square: 10*(rank+1) + file + 1 (a1 = 21, h8 = 98).
pub fn mailbox(sq: Square) -> u8 {
    21 + 10 * u8::from(sq.rank()) + u8::from(sq.file())
}

/// The square of a mailbox index, if it is on the board.
pub fn square_of(index: u8) -> Option<Square> {
    let i = index.checked_sub(21)?;
    let (rank, file) = (i / 10, i % 10);
    if rank < 8 && file < 8 {
        Some(Square::from_coords(
            File::new(file as u32),
            Rank::new(rank as u32),
        ))
    } else {
        None
    }
}

/// A move as the protocol carries it: mailbox squares and the promotion piece type
/// (0 none, 2 knight, 3 bishop, 4 rook, 5 queen). Castling is the king's two-square move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FwMove {
    pub from: u8,
    pub to: u8,
    pub promo: u8,
}

pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const KING: u8 = 6;
pub const MOVED: u8 = 0x08;
pub const CASTLED: u8 = 0x10;
pub const BLACK: u8 = 0x80;

fn type_of(role: Role) -> u8 {
    match role {
        Role::Pawn => PAWN,
        Role::Knight => KNIGHT,
        Role::Bishop => BISHOP,
        Role::Rook => ROOK,
        Role::Queen => QUEEN,
        Role::King => KING,
    }
}

fn role_of(t: u8) -> Option<Role> {
    Some(match t {
        PAWN => Role::Pawn,
        KNIGHT => Role::Knight,
        BISHOP => Role::Bishop,
        ROOK => Role::Rook,
        QUEEN => Role::Queen,
        KING => Role::King,
        _ => return None,
    })
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
        let Some(Piece { color, role }) = board.piece_at(sq) else {
            continue;
        };
        let colour = if color == Color::White { 0 } else { BLACK };
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
        *b = colour
            | type_of(role)
            | if unmoved { 0 } else { MOVED }
            | if role == Role::King && !unmoved {
                CASTLED
            } else {
                0
            };
    }
    Setup {
        squares,
        side: if pos.turn() == Color::White { 0 } else { BLACK },
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
            let c = match role_of(b & 7) {
                Some(r) => {
                    let ch = r.char();
                    if b & BLACK != 0 {
                        ch
                    } else {
                        ch.to_ascii_uppercase()
                    }
                }
                None => '?',
            };
            s.push(c);
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

/// What is wrong with a FEN's text (the checks shakmaty does not make, or makes loosely).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenTextError {
    #[error("the FEN is empty")]
    Empty,
    #[error("board field: {count} ranks, not 8 ('{field}')")]
    Ranks { count: usize, field: String },
    #[error("board field: a leading, trailing or doubled '/' in '{0}'")]
    StraySlash(String),
    #[error("board field: rank {rank} '{text}' holds '{ch}', not a piece (PNBRQK pnbrqk) or a count 1-8")]
    BadChar { rank: usize, text: String, ch: char },
    #[error("board field: rank {rank} '{text}' has two counts in a row")]
    Digits { rank: usize, text: String },
    #[error("board field: rank {rank} '{text}' has {squares} squares, not 8")]
    Width {
        rank: usize,
        text: String,
        squares: u32,
    },
    #[error("castling field '{0}': expected '-' or some of K, Q, k, q in that order, each once")]
    Castling(String),
}

/// Check the board and castling fields of a FEN as text: 8 ranks of 8 squares each, no
/// empty rank, no two counts in a row; castling `-` or a subsequence of `KQkq`.
pub fn check_fen_text(fen: &str) -> Result<(), FenTextError> {
    let mut fields = fen.split_ascii_whitespace();
    let board = fields.next().ok_or(FenTextError::Empty)?;
    if board.starts_with('/') || board.ends_with('/') || board.contains("//") {
        return Err(FenTextError::StraySlash(board.to_string()));
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenTextError::Ranks {
            count: ranks.len(),
            field: board.to_string(),
        });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 8 - i;
        let mut squares = 0u32;
        let mut last_digit = false;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if last_digit {
                    return Err(FenTextError::Digits {
                        rank,
                        text: text.to_string(),
                    });
                }
                squares += d;
                last_digit = true;
            } else if "PNBRQKpnbrqk".contains(ch) {
                squares += 1;
                last_digit = false;
            } else {
                return Err(FenTextError::BadChar {
                    rank,
                    text: text.to_string(),
                    ch,
                });
            }
        }
        if squares != 8 {
            return Err(FenTextError::Width {
                rank,
                text: text.to_string(),
                squares,
            });
        }
    }
    let _side = fields.next();
    if let Some(castling) = fields.next() {
        if castling != "-" {
            let mut order = "KQkq".chars();
            // each letter must come later in KQkq than the one before it
            let ok = castling.chars().all(|c| order.any(|o| o == c));
            if !ok {
                return Err(FenTextError::Castling(castling.to_string()));
            }
        }
    }
    Ok(())
}

/// Why a FEN was refused: its text, or shakmaty's reading of it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum FenError {
    #[error(transparent)]
    Text(#[from] FenTextError),
    #[error(transparent)]
    Parse(#[from] shakmaty::fen::ParseFenError),
}

/// The one checked FEN reader: [`check_fen_text`], then shakmaty's parser. Every FEN the
/// crate reads from a user, a file or a protocol goes through here (positions are then set up
/// with shakmaty's legality rules by the caller).
pub fn read_fen(fen: &str) -> Result<shakmaty::fen::Fen, FenError> {
    let fen = fen.trim();
    check_fen_text(fen)?;
    Ok(fen.parse()?)
}

#[cfg(test)]
mod fen_tests {
    use super::*;

    #[test]
    fn the_malformed_fens_of_issue_32_are_refused_with_the_field_named() {
        for (fen, field) in [
            ("4k3/8/8/8/8/8/8/4K3/ w - - 0 1", "board field"),
            ("4k3/8/8/44/8/8/8/4K3 w - - 0 1", "board field"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1", "castling field"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w kqkq - 0 1", "castling field"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling field"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w QQ - 0 1", "castling field"),
            ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", "board field"),
            ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "board field"),
            ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "board field"),
            ("4k3/8/8//8/8/8/4K3 w - - 0 1", "board field"),
            ("4k3/8/8/9/8/8/8/4K3 w - - 0 1", "board field"),
            ("4k3/8/8/8/8/8/8/4K3 w Kx - 0 1", "castling field"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w qk - 0 1", "castling field"),
        ] {
            let e = read_fen(fen).expect_err(fen).to_string();
            assert!(e.contains(field), "{fen}: {e}");
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "  4k3/8/8/8/8/8/8/4K3 w - -  ",
        ] {
            read_fen(fen).expect(fen);
        }
    }
}
