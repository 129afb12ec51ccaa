//! The one checked FEN reader: the checks of a FEN's text shakmaty does not make (or makes
//! loosely), then shakmaty's parser. Every FEN the crate reads from a user, a file or a
//! protocol goes through [`read_fen`].

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
    fn malformed_fens_are_refused_with_the_field_named() {
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
