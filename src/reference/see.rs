//! The textbook static exchange evaluation (the chessprogramming wiki's recursive `see()` and
//! `seeCapture()`, on its Static Exchange Evaluation page), on shakmaty boards: the least
//! valuable attacker captures first (equal values: the lower square first), x-rays appear as
//! pieces leave their squares (through pieces of either colour), either side may stop, pins are
//! ignored. Values P=100, N=B=300, R=500, Q=900 and a king worth more than everything else (so
//! he never captures into a defended square).
//!
//! With `promotions`, a pawn that captures onto its last rank becomes a queen and the capture
//! gains Q−P more, as the reference SEE of `tests/data/chess/see.tsv` counts it.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Piece, Position, Rank, Role, Square};

pub const PAWN_CP: i32 = 100;
pub const KNIGHT_CP: i32 = 300;
pub const BISHOP_CP: i32 = 300;
pub const ROOK_CP: i32 = 500;
pub const QUEEN_CP: i32 = 900;
pub const KING_CP: i32 = 20_000;

/// Textbook value of a role, centipawns.
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => PAWN_CP,
        Role::Knight => KNIGHT_CP,
        Role::Bishop => BISHOP_CP,
        Role::Rook => ROOK_CP,
        Role::Queen => QUEEN_CP,
        Role::King => KING_CP,
    }
}

const ORDER: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

fn last_rank(side: Color) -> Rank {
    match side {
        Color::White => Rank::Eighth,
        Color::Black => Rank::First,
    }
}

/// `side`'s least valuable piece attacking `sq` on `board` (lower square first among equals).
pub fn least_valuable_attacker(board: &Board, sq: Square, side: Color) -> Option<(Square, Role)> {
    let attackers = board.attacks_to(sq, side, board.occupied());
    ORDER.iter().find_map(|&role| {
        (attackers & board.by_role(role))
            .first()
            .map(|from| (from, role))
    })
}

/// Play `side`'s capture from `from` onto `sq`: the gain (the piece taken, plus Q−P for a
/// promotion) and the board after it.
fn capture(board: &Board, from: Square, sq: Square, side: Color, promotions: bool) -> (i32, Board) {
    let mut b = board.clone();
    let taken = b.role_at(sq).map(value).unwrap_or(0);
    let mover = b.remove_piece_at(from).expect("a piece on the from square");
    let mut role = mover.role;
    let mut gain = taken;
    if promotions && role == Role::Pawn && sq.rank() == last_rank(side) {
        role = Role::Queen;
        gain += QUEEN_CP - PAWN_CP;
    }
    b.set_piece_at(sq, Piece { color: side, role });
    (gain, b)
}

/// `see(square, side)`: what `side` gains by starting captures on `sq`, or 0 if it had better
/// not. The piece on `sq` (if any) is the other side's.
pub fn see(board: &Board, sq: Square, side: Color, promotions: bool) -> i32 {
    match least_valuable_attacker(board, sq, side) {
        None => 0,
        Some((from, _)) => {
            let (gain, after) = capture(board, from, sq, side, promotions);
            (gain - see(&after, sq, side.other(), promotions)).max(0)
        }
    }
}

/// `seeCapture(from, to, side)`, generalised to any move: the move is forced, then the
/// opponent's `see()` on its destination. Castling is worth 0. En passant takes the pawn
/// behind the square.
pub fn see_move(pos: &Chess, m: &Move, promotions: bool) -> i32 {
    let side = pos.turn();
    match *m {
        Move::Castle { .. } | Move::Put { .. } => 0,
        Move::EnPassant { from, to } => {
            let mut b = pos.board().clone();
            let behind = Square::from_coords(to.file(), from.rank());
            b.discard_piece_at(behind);
            let pawn = b.remove_piece_at(from).expect("the capturing pawn");
            b.set_piece_at(to, pawn);
            PAWN_CP - see(&b, to, side.other(), promotions)
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut b = pos.board().clone();
            let mut gain = capture.map(value).unwrap_or(0);
            b.discard_piece_at(from);
            b.discard_piece_at(to);
            let mut now = role;
            if let Some(p) = promotion {
                if promotions {
                    gain += value(p) - PAWN_CP;
                }
                now = p;
            }
            b.set_piece_at(
                to,
                Piece {
                    color: side,
                    role: now,
                },
            );
            gain - see(&b, to, side.other(), promotions)
        }
    }
}

/// The whole sequence of captures on `sq` when both sides always take with their least
/// valuable attacker, `first` starting, until one side has none: (side, from, role) each.
pub fn sequence(
    board: &Board,
    sq: Square,
    first: Color,
    promotions: bool,
) -> Vec<(Color, Square, Role)> {
    let mut b = board.clone();
    let mut side = first;
    let mut out = Vec::new();
    while let Some((from, role)) = least_valuable_attacker(&b, sq, side) {
        out.push((side, from, role));
        b = capture(&b, from, sq, side, promotions).1;
        side = side.other();
        if out.len() > 32 {
            break;
        }
    }
    out
}

/// The textbook swap on explicit lists: `stake` on the square, the side to capture has
/// `capturers` (in the order it would use them), the other side `recapturers`. Either side
/// may stop. All in the same units.
pub fn swap(stake: i32, capturers: &[i32], recapturers: &[i32]) -> i32 {
    match capturers.split_first() {
        None => 0,
        Some((&first, rest)) => (stake - swap(first, recapturers, rest)).max(0),
    }
}

/// Squares whose pieces attack `sq` only through another piece (x-rays), for reports.
pub fn xray_only(board: &Board, sq: Square) -> Bitboard {
    let direct = board.attacks_to(sq, Color::White, board.occupied())
        | board.attacks_to(sq, Color::Black, board.occupied());
    let sliders =
        board.by_role(Role::Bishop) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
    let through = board.attacks_to(sq, Color::White, Bitboard::EMPTY)
        | board.attacks_to(sq, Color::Black, Bitboard::EMPTY);
    (through & sliders) & !direct
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn swap_algorithm_page_example() {
        // chessprogramming.org "SEE - The Swap Algorithm", position 1: Rxe5 wins a pawn.
        let p = pos("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1");
        assert_eq!(see(p.board(), Square::E5, Color::White, true), 100);
        let m = "e1e5".parse::<UciMove>().unwrap().to_move(&p).unwrap();
        assert_eq!(see_move(&p, &m, true), 100);
    }

    #[test]
    fn swap_lists() {
        // Figure 4 in pawns: N on the square, White N N B against Black P Q.
        assert_eq!(swap(3, &[3, 3, 3], &[1, 9]), 1);
        assert_eq!(swap(1, &[9], &[1]), 0);
    }
}
