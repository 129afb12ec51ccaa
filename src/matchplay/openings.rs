//! Start positions: a built-in list of well-known opening lines, or a file (EPD or PGN).
//!
//! Each opening is a start position (the initial one, or a FEN) and moves played from it. A
//! match plays each opening twice, once with each engine as White, so an opening's imbalance
//! cancels out.

use super::MatchError;
pub use crate::chess::pgn::{parse_pgn, san_token, MoveWithComment, PgnGame};
use shakmaty::fen::{Epd, Fen};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use std::path::Path;

/// One start position.
#[derive(Clone, Debug)]
pub struct Opening {
    pub name: String,
    /// Where the game starts (the initial position for the built-in lines).
    pub start: Chess,
    /// Played from `start` before the engines take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start from.
    pub fn position(&self) -> Chess {
        let mut p = self.start.clone();
        for m in &self.moves {
            p.play_unchecked(*m);
        }
        p
    }

    /// Does the game start from the initial position (no FEN tag needed)?
    pub fn from_initial(&self) -> bool {
        is_initial(&self.start)
    }
}

/// The initial position, move 1.
pub fn is_initial(p: &Chess) -> bool {
    key(p) == key(&Chess::default()) && p.fullmoves().get() == 1
}

/// A position's identity for repetitions and distinctness (EPD: board, side, castling, a
/// legal en-passant square).
pub fn key(p: &Chess) -> String {
    Epd::from_position(p, EnPassantMode::Legal).to_string()
}

/// Well-known, balanced lines of 6 to 10 plies (a few gambits, played with both colours).
pub const BUILTIN: &[(&str, &str)] = &[
    ("Ruy Lopez, Morphy Defence", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"),
    (
        "Ruy Lopez, Berlin Defence",
        "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4",
    ),
    ("Ruy Lopez, Exchange", "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6"),
    ("Ruy Lopez, Closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("Ruy Lopez, Open", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Nxe4"),
    ("Ruy Lopez, Steinitz Defence", "e4 e5 Nf3 Nc6 Bb5 d6 d4 Bd7"),
    (
        "Ruy Lopez, Schliemann",
        "e4 e5 Nf3 Nc6 Bb5 f5 Nc3 fxe4 Nxe4 d5",
    ),
    ("Italian, Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6"),
    (
        "Italian, Giuoco Pianissimo",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 d3 Nf6 O-O d6",
    ),
    (
        "Italian, Evans Gambit",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5",
    ),
    ("Two Knights Defence", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7"),
    ("Hungarian Defence", "e4 e5 Nf3 Nc6 Bc4 Be7 d4 d6"),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6"),
    ("Scotch Game, Classical", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Bc5"),
    ("Scotch Gambit", "e4 e5 Nf3 Nc6 d4 exd4 Bc4 Nf6 e5 d5"),
    ("Four Knights, Spanish", "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4"),
    (
        "Four Knights, Scotch",
        "e4 e5 Nf3 Nc6 Nc3 Nf6 d4 exd4 Nxd4 Bb4",
    ),
    ("Ponziani Opening", "e4 e5 Nf3 Nc6 c3 Nf6 d4 Nxe4"),
    ("Petrov Defence", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    (
        "Petrov Defence, Steinitz",
        "e4 e5 Nf3 Nf6 d4 Nxe4 Bd3 d5 Nxe5 Nd7",
    ),
    ("Philidor Defence", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"),
    ("Vienna Game", "e4 e5 Nc3 Nf6 g3 d5 exd5 Nxd5"),
    ("Vienna Game, Bc4", "e4 e5 Nc3 Nc6 Bc4 Nf6 d3 Bb4"),
    ("King's Gambit Accepted", "e4 e5 f4 exf4 Nf3 d6"),
    ("King's Gambit Declined", "e4 e5 f4 Bc5 Nf3 d6 c3 Nf6"),
    ("Bishop's Opening", "e4 e5 Bc4 Nf6 d3 c6"),
    ("Centre Game", "e4 e5 d4 exd4 Qxd4 Nc6 Qe3 Nf6"),
    ("Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("Sicilian, Dragon", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6"),
    (
        "Sicilian, Classical",
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 Nc6",
    ),
    (
        "Sicilian, Scheveningen",
        "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 d6",
    ),
    (
        "Sicilian, Taimanov",
        "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7",
    ),
    ("Sicilian, Kan", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6 Bd3 Nf6"),
    (
        "Sicilian, Four Knights",
        "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 Nc6",
    ),
    (
        "Sicilian, Pin Variation",
        "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nf6 Nc3 Bb4",
    ),
    (
        "Sicilian, Sveshnikov",
        "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5",
    ),
    (
        "Sicilian, Kalashnikov",
        "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 e5 Nb5 d6",
    ),
    (
        "Sicilian, Accelerated Dragon",
        "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6 Nc3 Bg7",
    ),
    ("Sicilian, Rossolimo", "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7"),
    ("Sicilian, Rossolimo e6", "e4 c5 Nf3 Nc6 Bb5 e6 O-O Nge7"),
    ("Sicilian, Moscow", "e4 c5 Nf3 d6 Bb5+ Bd7 Bxd7+ Qxd7"),
    ("Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4"),
    ("Sicilian, Alapin d5", "e4 c5 c3 d5 exd5 Qxd5 d4 Nf6"),
    ("Sicilian, Closed", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6"),
    ("Sicilian, Grand Prix", "e4 c5 Nc3 Nc6 f4 g6 Nf3 Bg7"),
    ("French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5"),
    ("French, Classical", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7"),
    ("French, Steinitz", "e4 e6 d4 d5 Nc3 Nf6 e5 Nfd7 f4 c5"),
    ("French, Tarrasch", "e4 e6 d4 d5 Nd2 Nf6 e5 Nfd7"),
    ("French, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"),
    ("French, Exchange", "e4 e6 d4 d5 exd5 exd5 Bd3 Bd6"),
    ("French, Rubinstein", "e4 e6 d4 d5 Nc3 dxe4 Nxe4 Nd7"),
    (
        "King's Indian Attack v French",
        "e4 e6 d3 d5 Nd2 Nf6 Ngf3 c5 g3 Nc6",
    ),
    (
        "Caro-Kann, Classical",
        "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6",
    ),
    (
        "Caro-Kann, Karpov",
        "e4 c6 d4 d5 Nd2 dxe4 Nxe4 Nd7 Nf3 Ngf6",
    ),
    ("Caro-Kann, Advance", "e4 c6 d4 d5 e5 Bf5 Nf3 e6"),
    ("Caro-Kann, Exchange", "e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6"),
    ("Caro-Kann, Panov", "e4 c6 d4 d5 exd5 cxd5 c4 Nf6 Nc3 e6"),
    (
        "Caro-Kann, Two Knights",
        "e4 c6 Nc3 d5 Nf3 Bg4 h3 Bxf3 Qxf3 e6",
    ),
    ("Scandinavian, Qa5", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6"),
    ("Scandinavian, Qd6", "e4 d5 exd5 Qxd5 Nc3 Qd6 d4 Nf6"),
    ("Scandinavian, Modern", "e4 d5 exd5 Nf6 d4 Nxd5 Nf3 g6"),
    ("Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7"),
    (
        "Pirc, Austrian Attack",
        "e4 d6 d4 Nf6 Nc3 g6 f4 Bg7 Nf3 O-O",
    ),
    ("Modern Defence", "e4 g6 d4 Bg7 Nc3 d6 Be3 a6"),
    ("Alekhine, Modern", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4"),
    ("Alekhine, Exchange", "e4 Nf6 e5 Nd5 d4 d6 exd6 cxd6"),
    ("QGD, Orthodox", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O"),
    ("QGD, Exchange", "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5 Bg5 c6"),
    ("QGD, Ragozin", "d4 d5 c4 e6 Nc3 Nf6 Nf3 Bb4"),
    ("QGD, Tarrasch", "d4 d5 c4 e6 Nc3 c5 cxd5 exd5 Nf3 Nc6"),
    ("QGD, Semi-Tarrasch", "d4 Nf6 c4 e6 Nf3 d5 Nc3 c5 cxd5 Nxd5"),
    (
        "Queen's Gambit Accepted",
        "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5",
    ),
    ("Slav, Main Line", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5"),
    ("Slav, Exchange", "d4 d5 c4 c6 cxd5 cxd5 Nc3 Nf6 Bf4 Nc6"),
    ("Slav, Chebanenko", "d4 d5 c4 c6 Nf3 Nf6 Nc3 a6"),
    ("Semi-Slav", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6 e3 Nbd7"),
    ("Semi-Slav, Moscow", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6 Bg5 h6"),
    (
        "Chigorin Defence",
        "d4 d5 c4 Nc6 Nf3 Bg4 cxd5 Bxf3 gxf3 Qxd5",
    ),
    ("Catalan, Closed", "d4 Nf6 c4 e6 g3 d5 Bg2 Be7 Nf3 O-O"),
    ("Catalan, Open", "d4 Nf6 c4 e6 g3 d5 Bg2 dxc4 Nf3 c5"),
    (
        "Nimzo-Indian, Rubinstein",
        "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5",
    ),
    ("Nimzo-Indian, Classical", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 d5"),
    (
        "Nimzo-Indian, Leningrad",
        "d4 Nf6 c4 e6 Nc3 Bb4 Bg5 h6 Bh4 c5",
    ),
    ("Queen's Indian", "d4 Nf6 c4 e6 Nf3 b6 g3 Bb7 Bg2 Be7"),
    ("Queen's Indian, Petrosian", "d4 Nf6 c4 e6 Nf3 b6 a3 Ba6"),
    ("Bogo-Indian", "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7"),
    (
        "King's Indian, Classical",
        "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O",
    ),
    (
        "King's Indian, Saemisch",
        "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 f3 O-O",
    ),
    (
        "King's Indian, Averbakh",
        "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Be2 O-O",
    ),
    (
        "King's Indian, Fianchetto",
        "d4 Nf6 c4 g6 Nf3 Bg7 g3 O-O Bg2 d6",
    ),
    ("Gruenfeld, Exchange", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5"),
    ("Gruenfeld, Bf4", "d4 Nf6 c4 g6 Nc3 d5 Nf3 Bg7 Bf4 O-O"),
    ("Modern Benoni", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5 cxd5 d6"),
    ("Benko Gambit", "d4 Nf6 c4 c5 d5 b5 cxb5 a6"),
    ("Old Indian", "d4 Nf6 c4 d6 Nc3 Nbd7 e4 e5"),
    ("Budapest Gambit", "d4 Nf6 c4 e5 dxe5 Ng4 Bf4 Nc6"),
    ("Dutch, Leningrad", "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7"),
    ("Dutch, Stonewall", "d4 f5 g3 Nf6 Bg2 e6 Nf3 d5 O-O Bd6"),
    ("Dutch, Classical", "d4 e6 c4 f5 Nf3 Nf6 g3 Be7"),
    ("London System", "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6"),
    (
        "London System v King's Indian",
        "d4 Nf6 Nf3 g6 Bf4 Bg7 e3 O-O",
    ),
    ("Colle System", "d4 d5 Nf3 Nf6 e3 e6 Bd3 c5"),
    ("Torre Attack", "d4 Nf6 Nf3 e6 Bg5 c5 e3 h6"),
    ("Trompowsky", "d4 Nf6 Bg5 Ne4 Bf4 c5"),
    ("Veresov", "d4 Nf6 Nc3 d5 Bg5 Nbd7"),
    ("English, Symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("English, Hedgehog", "c4 c5 Nf3 Nf6 g3 b6 Bg2 Bb7 O-O e6"),
    (
        "English, Reversed Sicilian",
        "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5 Bg2 Nb6",
    ),
    ("English, Four Knights", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5"),
    ("English, Closed", "c4 e5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6"),
    ("English, Botvinnik", "c4 e5 Nc3 Nc6 g3 g6 Bg2 Bg7 e4 d6"),
    ("English, Anglo-Indian", "c4 Nf6 Nc3 e6 e4 d5 e5 Ne4"),
    ("English v King's Indian", "c4 Nf6 Nc3 g6 e4 d6 d4 Bg7"),
    ("Reti Opening", "Nf3 d5 c4 e6 g3 Nf6 Bg2 Be7"),
    ("Reti, Slav set-up", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4"),
    (
        "King's Indian Attack",
        "Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7 d3 O-O",
    ),
    ("Nimzo-Larsen Attack", "Nf3 Nf6 b3 g6 Bb2 Bg7"),
    ("Larsen's Opening", "b3 e5 Bb2 Nc6 e3 d5"),
    ("Bird's Opening", "f4 d5 Nf3 Nf6 e3 g6"),
];

/// The built-in openings, parsed.
pub fn builtin() -> Vec<Opening> {
    BUILTIN
        .iter()
        .enumerate()
        .map(|(i, (name, line))| {
            let moves = san_line(&Chess::default(), line)
                .unwrap_or_else(|e| panic!("built-in opening {} ({name}): {e}", i + 1));
            Opening {
                name: name.to_string(),
                start: Chess::default(),
                moves,
            }
        })
        .collect()
}

/// Moves in SAN separated by spaces (move numbers allowed), from `start`.
pub fn san_line(start: &Chess, line: &str) -> Result<Vec<Move>, String> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for tok in line.split_whitespace() {
        if let Some(m) = san_token(&pos, tok)? {
            pos.play_unchecked(m);
            out.push(m);
        }
    }
    Ok(out)
}

/// Read `--openings FILE`: PGN when it ends in .pgn or starts with a tag, else EPD (one
/// position a line; FEN's move counters may follow the four EPD fields; operations after them
/// are ignored except `id "name"`). Blank lines and lines starting with '#' are skipped.
pub fn load(path: &Path) -> Result<Vec<Opening>, MatchError> {
    let text = crate::userfile::read_text(path, crate::userfile::MAX_FILE).map_err(|e| {
        MatchError::OpeningsFile {
            path: path.to_path_buf(),
            line: None,
            reason: e.reason(),
        }
    })?;
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        || text.trim_start().starts_with('[');
    let list = if is_pgn {
        read_pgn(&text)
    } else {
        read_epd(&text)
    }
    .map_err(|(line, reason)| MatchError::OpeningsFile {
        path: path.to_path_buf(),
        line: Some(line),
        reason,
    })?;
    if list.is_empty() {
        return Err(MatchError::OpeningsFile {
            path: path.to_path_buf(),
            line: None,
            reason: "no positions in it".into(),
        });
    }
    Ok(list)
}

/// A start position must leave the engines something to play.
fn playable(p: &Chess) -> Result<(), String> {
    if p.is_game_over() {
        Err("the game is already over in this position".into())
    } else {
        Ok(())
    }
}

/// EPD lines; errors carry the 1-based line number.
pub fn read_epd(text: &str) -> Result<Vec<Opening>, (usize, String)> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err((
                n,
                format!("'{line}' has {} fields; EPD needs 4", fields.len()),
            ));
        }
        let counters = fields.len() >= 6 && fields[4..6].iter().all(|f| f.parse::<u32>().is_ok());
        let text = if counters {
            fields[..6].join(" ")
        } else {
            fields[..4].join(" ")
        };
        let setup: Fen = crate::firmware::board::read_fen(&text)
            .map_err(|e| (n, format!("bad FEN '{text}': {e}")))?;
        let pos: Chess = setup
            .into_position(CastlingMode::Standard)
            .map_err(|e| (n, format!("impossible position '{text}': {e}")))?;
        playable(&pos).map_err(|e| (n, e))?;
        let name = line
            .split_once("id \"")
            .and_then(|(_, r)| r.split_once('"'))
            .map(|(id, _)| id.to_string())
            .unwrap_or_else(|| format!("line {n}"));
        out.push(Opening {
            name,
            start: pos,
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// PGN games (tags, movetext with comments, variations and NAGs skipped); each game's moves
/// from its start (its FEN tag, or the initial position) make one opening.
pub fn read_pgn(text: &str) -> Result<Vec<Opening>, (usize, String)> {
    let games = parse_pgn(text)?;
    let mut out = Vec::new();
    for g in games {
        let start = g.start()?;
        let moves: Vec<Move> = g.moves()?.into_iter().map(|(m, _)| m).collect();
        let name = g
            .tag("Opening")
            .or_else(|| g.tag("Event"))
            .filter(|s| !s.is_empty() && s != "?")
            .unwrap_or_else(|| format!("game at line {}", g.line));
        let opening = Opening { name, start, moves };
        playable(&opening.position()).map_err(|e| (g.line, e))?;
        out.push(opening);
    }
    Ok(out)
}

// Tests: tests/frontends/matchplay.rs (every built-in line legal and distinct; the file readers).
