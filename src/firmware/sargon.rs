//! Putting a FEN position into the firmware the way the published 1978 test suite assumes
//! (retro-sargon's `sargon-tests.cpp`, `tests/data/chess/sargon1978_tests.tsv`), including the move number that drives the book
//! and the development terms:
//! - the initial position: a new game (move number 1: the book plays);
//! - the initial position plus one White move: a new game and that move played in the
//!   firmware, so the book sees where it came from;
//! - anything else: set up (moved/castled bits by [`super::board::encode`]) with move number
//!   max(2, (squares of ranks 1, 2, 7, 8 that differ from the initial position) / 2), or the
//!   FEN's full-move number when that is larger than 1.

use super::{parse_fen, Engine, FirmwareError, FwMove};
use shakmaty::{uci::UciMove, Chess, Position, Rank, Square};

/// The move number the 1978 convention gives a position.
pub fn move_number(pos: &Chess) -> u8 {
    if pos.fullmoves().get() > 1 {
        return pos.fullmoves().get().min(255) as u8;
    }
    let start = Chess::default();
    let changed = (0..64)
        .map(Square::new)
        .filter(|sq| {
            matches!(
                sq.rank(),
                Rank::First | Rank::Second | Rank::Seventh | Rank::Eighth
            )
        })
        .filter(|&sq| pos.board().piece_at(sq) != start.board().piece_at(sq))
        .count();
    (changed / 2).max(2) as u8
}

/// Is `pos` one the convention gives move number 1 (the book answers)?
pub fn is_book_position(pos: &Chess) -> bool {
    let start = Chess::default();
    same(pos, &start)
        || start.legal_moves().iter().any(|m| {
            let mut after = start.clone();
            after.play_unchecked(*m);
            same(pos, &after)
        })
}

/// Load `pos` into the engine by the 1978 convention.
pub fn load(engine: &mut Engine, pos: &Chess) -> Result<(), FirmwareError> {
    let start = Chess::default();
    if same(pos, &start) {
        return engine.new_game();
    }
    for m in start.legal_moves() {
        let mut after = start.clone();
        after.play_unchecked(m);
        if same(pos, &after) {
            engine.new_game()?;
            return engine.play(FwMove::from_move(&m));
        }
    }
    engine.set_position(pos)?;
    engine.set_halfmove_clock(pos.halfmoves())?;
    engine.set_move_number(move_number(pos))
}

fn same(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
}

/// Why a position given as a FEN or as moves could not be put into the engine.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("give --fen or --moves, not both")]
    Both,
    #[error("move {number} '{text}': not a move in coordinates or SAN ({reason})")]
    NotUci {
        number: usize,
        text: String,
        reason: String,
    },
    #[error("move {number} '{text}': illegal here ({reason})")]
    Illegal {
        number: usize,
        text: String,
        reason: String,
    },
    #[error(transparent)]
    Firmware(#[from] FirmwareError),
}

/// The moves (coordinates such as `e2e4` or SAN such as `Nf3`, spaces between) played from
/// the initial position, each checked.
pub fn replay(moves: &str) -> Result<(Chess, Vec<shakmaty::Move>), PrepareError> {
    let mut pos = Chess::default();
    let mut played = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let illegal = |reason: String| PrepareError::Illegal {
            number: i + 1,
            text: text.to_string(),
            reason,
        };
        let m = match (
            text.parse::<UciMove>(),
            text.parse::<shakmaty::san::SanPlus>(),
        ) {
            (Ok(uci), _) => uci.to_move(&pos).map_err(|e| illegal(e.to_string()))?,
            (_, Ok(san)) => san.san.to_move(&pos).map_err(|e| illegal(e.to_string()))?,
            (Err(e), Err(_)) => {
                return Err(PrepareError::NotUci {
                    number: i + 1,
                    text: text.to_string(),
                    reason: e.to_string(),
                })
            }
        };
        pos.play_unchecked(m);
        played.push(m);
    }
    Ok((pos, played))
}

/// Put a position into the engine: a FEN by the 1978 convention ([`load`]), or moves from
/// the initial position replayed inside the firmware (so moved bits, en passant and the move
/// number evolve as in a game). Neither: the initial position.
pub fn prepare(
    engine: &mut Engine,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Chess, PrepareError> {
    match (fen, moves) {
        (Some(_), Some(_)) => Err(PrepareError::Both),
        (Some(f), None) => {
            let pos = parse_fen(f)?;
            load(engine, &pos)?;
            Ok(pos)
        }
        (None, m) => {
            let (pos, played) = replay(m.unwrap_or(""))?;
            engine.new_game()?;
            for mv in &played {
                engine.play(FwMove::from_move(mv))?;
            }
            Ok(pos)
        }
    }
}
