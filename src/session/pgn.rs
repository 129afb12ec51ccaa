//! Saving and loading games as PGN, with the engine's build and level in the tags.

use super::game::{End, Game};
use crate::firmware::{parse_fen, Build, SearchKind};
use shakmaty::{Chess, Color, Position};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Who played what, for the PGN tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    /// The engine's colour (None: nobody, e.g. two players at one board).
    pub engine: Option<Color>,
    /// The name the human goes by.
    pub human: String,
}

/// What a loaded PGN held, besides the moves.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Loaded {
    pub build: Option<Build>,
    pub level: Option<u8>,
    /// The engine's colour, if a White or Black tag names z80chess.
    pub engine: Option<Color>,
    pub result: Option<String>,
}

/// Today as a PGN date (UTC).
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil from days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

/// The engine's name in the tags: "z80chess article, level 2".
pub fn engine_name(build: Build, level: u8) -> String {
    format!("z80chess {build}, level {level}")
}

/// A tag value with its backslashes and quotes escaped.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Movetext tokens joined by spaces into lines of fewer than 80 characters (no final newline).
pub fn wrap(tokens: Vec<String>) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out
}

/// The game as PGN. `date` is a PGN date ("2025.01.31"; see [`today`]).
pub fn write(game: &Game, players: &Players, date: &str) -> String {
    let engine = engine_name(game.build(), game.level);
    let name = |c: Color| {
        if players.engine == Some(c) {
            engine.clone()
        } else {
            players.human.clone()
        }
    };
    let result = game.end().map(End::result).unwrap_or("*");
    let mut tags = vec![
        ("Event", "z80chess game".to_string()),
        ("Site", "?".to_string()),
        ("Date", date.to_string()),
        ("Round", "-".to_string()),
        ("White", name(Color::White)),
        ("Black", name(Color::Black)),
        ("Result", result.to_string()),
    ];
    if !game.from_initial() {
        tags.push(("SetUp", "1".into()));
        tags.push(("FEN", game.start_fen()));
    }
    tags.push(("Z80Build", game.build().to_string()));
    tags.push(("Z80Level", game.level.to_string()));
    if let Some(h) = game.params_hash() {
        tags.push(("Z80Params", h));
    }
    if let Some(end) = game.end() {
        tags.push((
            "Termination",
            match end {
                End::Resigned { .. } => "normal (resignation)".into(),
                e => format!("normal ({})", e.describe()),
            },
        ));
    }
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    for (i, ply) in game.plies.iter().enumerate() {
        let before = game.pos_before(i);
        let n = before.fullmoves().get();
        if before.turn() == Color::White {
            tokens.push(format!("{n}."));
        } else if i == 0 || tokens.last().is_some_and(|t| t.ends_with('}')) {
            tokens.push(format!("{n}..."));
        }
        tokens.push(ply.san.clone());
        if let Some(t) = &ply.thought {
            let secs = t.tstates as f64 / crate::machine::PERIOD_HZ as f64;
            let what = match t.kind {
                SearchKind::Book => "book".to_string(),
                _ => format!("{}/{}", t.score_text(), t.depth),
            };
            tokens.push(format!("{{{what} {secs:.1}s at 2 MHz}}"));
        }
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(tokens));
    out.push('\n');
    out
}

/// What can go wrong saving or loading a game. Each says that nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    #[error("{}: {source}; nothing changed", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} exists and is not a PGN file ({reason}); it is left as it was: give another name",
        path.display()
    )]
    NotPgn { path: PathBuf, reason: String },
    #[error("{0}")]
    Out(Box<crate::outfile::OutFileError>),
    #[error("{} holds no game; nothing changed", path.display())]
    NoGame { path: PathBuf },
    #[error("{}: {reason}; nothing changed", path.display())]
    BadGame { path: PathBuf, reason: String },
}

/// A game read from PGN and checked, not yet put into a [`Game`] ([`Checked::apply`]).
#[derive(Clone, Debug)]
pub struct Checked {
    pub loaded: Loaded,
    start: Chess,
    moves: Vec<shakmaty::Move>,
    /// Which game of the text it is (1-based), and how many games the text holds.
    pub number: usize,
    pub games: usize,
}

impl Checked {
    /// Put the game into `game` (its build and level from the tags when present).
    pub fn apply(self, game: &mut Game) -> Result<Loaded, String> {
        if let Some(b) = self.loaded.build {
            game.set_build(b).map_err(|e| e.to_string())?;
        }
        if let Some(l) = self.loaded.level {
            game.level = l;
        }
        game.set_start(self.start).map_err(|e| e.to_string())?;
        for m in self.moves {
            game.play(m, None, true).map_err(|e| e.to_string())?;
        }
        Ok(self.loaded)
    }
}

/// One game of a PGN text checked: its tags read and every move legal.
fn check_game(g: &crate::chess::pgn::PgnGame) -> Result<Checked, String> {
    let tag = |k: &str| g.tag(k);
    let mut loaded = Loaded::default();
    if let Some(b) = tag("Z80Build") {
        loaded.build = Some(match b.as_str() {
            "article" => Build::Article,
            "1978" => Build::B1978,
            "full" => Build::Full,
            other => {
                return Err(format!(
                    "unknown Z80Build '{other}' (article, 1978 or full)"
                ))
            }
        });
    }
    if let Some(l) = tag("Z80Level") {
        let l: u8 = l
            .parse()
            .ok()
            .filter(|l| crate::session::LEVELS.contains(l))
            .ok_or_else(|| format!("Z80Level '{l}' is not a level 1-6"))?;
        loaded.level = Some(l);
    }
    for (c, k) in [(Color::White, "White"), (Color::Black, "Black")] {
        if tag(k).is_some_and(|n| n.starts_with("z80chess")) {
            loaded.engine = Some(c);
        }
    }
    loaded.result = tag("Result");
    let start = match tag("FEN") {
        Some(f) => parse_fen(&f).map_err(|e| e.to_string())?,
        None => Chess::default(),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (_, token) in &g.tokens {
        if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            break;
        }
        if token.starts_with('$') {
            continue;
        }
        // A move number ("12.", "12...", "12.e4"); "0-0" is a move.
        let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let san = if token[digits..].starts_with('.') {
            token[digits..].trim_start_matches('.')
        } else {
            token.as_str()
        };
        let san = san.trim_end_matches(['!', '?']);
        if san.is_empty() {
            continue;
        }
        let m = crate::session::game::parse_move(&pos, san)
            .map_err(|e| format!("move {} ({san}): {e}", moves.len() + 1))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(Checked {
        loaded,
        start,
        moves,
        number: 0,
        games: 0,
    })
}

/// Every game of a PGN text, each checked; the error names the game that does not read.
pub fn check_all(text: &str) -> Result<Vec<Checked>, String> {
    let games =
        crate::chess::pgn::parse_pgn(text).map_err(|(line, e)| format!("line {line}: {e}"))?;
    let n = games.len();
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            check_game(g)
                .map(|c| Checked {
                    number: i + 1,
                    games: n,
                    ..c
                })
                .map_err(|e| format!("game {} (line {}): {e}", i + 1, g.line))
        })
        .collect()
}

/// The last game of a PGN text (the one `save` added last), checked; None if it holds none.
pub fn check(text: &str) -> Result<Option<Checked>, String> {
    let games =
        crate::chess::pgn::parse_pgn(text).map_err(|(line, e)| format!("line {line}: {e}"))?;
    let n = games.len();
    let Some(g) = games.last() else {
        return Ok(None);
    };
    check_game(g)
        .map(|c| {
            Some(Checked {
                number: n,
                games: n,
                ..c
            })
        })
        .map_err(|e| {
            if n > 1 {
                format!("game {n} (line {}): {e}", g.line)
            } else {
                e
            }
        })
}

/// Load the last game of a PGN text into `game` (its build and level from the tags when
/// present). On an error, or when the text holds no game, the game is left as it was.
pub fn read(game: &mut Game, text: &str) -> Result<Loaded, String> {
    match check(text)? {
        None => Err("no game in it".into()),
        Some(c) => c.apply(game),
    }
}

/// Read and check the last game of the PGN file `path`, changing nothing.
pub fn load_file(path: &Path) -> Result<Checked, PgnError> {
    let text =
        crate::userfile::read_text(path, crate::userfile::MAX_FILE).map_err(|e| PgnError::Io {
            path: path.to_path_buf(),
            source: e.into_io(),
        })?;
    match check(&text) {
        Ok(Some(c)) => Ok(c),
        Ok(None) => Err(PgnError::NoGame {
            path: path.to_path_buf(),
        }),
        Err(reason) => Err(PgnError::BadGame {
            path: path.to_path_buf(),
            reason,
        }),
    }
}

/// How [`save`] wrote the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    /// A new file.
    Created,
    /// Added after the games the file held (PGN files hold many games).
    Appended { before: usize },
}

/// Write `pgn` (one game, see [`write()`]) to `path`: a new file, or appended to a PGN file's
/// games. A file that is not a PGN file (some game in it does not read) is never touched.
/// The file is replaced at once (written beside it, then renamed), so it is never half
/// written.
pub fn save(path: &Path, pgn: &str) -> Result<Saved, PgnError> {
    let io = |source| PgnError::Io {
        path: path.to_path_buf(),
        source,
    };
    // (a FIFO or a device named here is refused, never read until it blocks)
    let (text, saved) = match crate::userfile::read(path, crate::userfile::MAX_FILE)
        .map_err(crate::userfile::UserFileError::into_io)
    {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (pgn.to_string(), Saved::Created),
        Err(e) => return Err(io(e)),
        Ok(bytes) => {
            let not_pgn = |reason: String| PgnError::NotPgn {
                path: path.to_path_buf(),
                reason,
            };
            let old = String::from_utf8(bytes).map_err(|_| not_pgn("it is not text".into()))?;
            if old.trim().is_empty() {
                (pgn.to_string(), Saved::Created)
            } else {
                let games = check_all(&old).map_err(not_pgn)?;
                if games.is_empty() {
                    return Err(not_pgn("it holds no game".into()));
                }
                let sep = if old.ends_with("\n\n") {
                    ""
                } else if old.ends_with('\n') {
                    "\n"
                } else {
                    "\n\n"
                };
                (
                    format!("{old}{sep}{pgn}"),
                    Saved::Appended {
                        before: games.len(),
                    },
                )
            }
        }
    };
    // Appending is `save`'s documented mode: the whole file is written anew beside the old one.
    crate::outfile::write(path, text.as_bytes(), crate::outfile::Replace::Allow)
        .map_err(|e| PgnError::Out(Box::new(e)))?;
    Ok(saved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext() {
        let games = check_all(
            "[Event \"x\"]\n[White \"a \\\"b\\\" c\\\\d\"]\n\n1. e4 {comment} e5 (1... c5 2. Nf3) 2. Nf3!? $1 Nc6; rest\n3.Bb5 1-0\n\n[Event \"y\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n",
        )
        .unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 5);
        assert_eq!(games[1].moves.len(), 7);
        assert!(games[1].moves[6].is_castle());
        assert_eq!(games[0].loaded.result.as_deref(), None);
        assert!(check("").unwrap().is_none());
        assert!(check_all("KEEP\n").unwrap_err().contains("KEEP"));
    }

    #[test]
    fn date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
