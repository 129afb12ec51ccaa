//! Saving and loading games as PGN, with the engine's build and level in the tags.

use super::game::{End, Game};
use crate::firmware::{parse_fen, Build, SearchKind};
use shakmaty::{Chess, Color, Position};
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

/// The tags and the SAN moves of the first game in `text`.
/// A PGN's tags (name, value) and its SAN moves.
type Parts = (Vec<(String, String)>, Vec<String>);

fn split(text: &str) -> Result<Parts, String> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('%') {
            continue;
        }
        if !in_moves && l.starts_with('[') {
            let inner = l.trim_start_matches('[').trim_end_matches(']');
            let (k, v) = inner
                .split_once(' ')
                .ok_or_else(|| format!("malformed tag '{l}'"))?;
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("malformed tag '{l}'"))?;
            tags.push((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")));
            continue;
        }
        if l.is_empty() {
            if in_moves {
                break; // the end of the first game
            }
            continue;
        }
        if in_moves && l.starts_with('[') {
            break;
        }
        in_moves = true;
        movetext.push_str(line);
        movetext.push('\n');
    }
    // Strip comments, variations, NAGs, move numbers and results.
    let mut moves = Vec::new();
    let mut depth = 0usize;
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, moves: &mut Vec<String>| {
        let w = std::mem::take(word);
        if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            return;
        }
        let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if w.is_empty() || w.starts_with('$') {
            return;
        }
        moves.push(w.trim_end_matches(['!', '?']).to_string());
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut moves);
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut word, &mut moves);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut moves);
                depth += 1;
            }
            ')' => {
                word.clear();
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    flush(&mut word, &mut moves);
                } else {
                    word.clear();
                }
            }
            c => {
                if depth == 0 {
                    word.push(c)
                }
            }
        }
    }
    if depth == 0 {
        flush(&mut word, &mut moves);
    }
    Ok((tags, moves))
}

/// Load the first game of a PGN text into `game` (its build and level from the tags when
/// present). On an error the game is left as it was.
pub fn read(game: &mut Game, text: &str) -> Result<Loaded, String> {
    let (tags, moves) = split(text)?;
    let tag = |k: &str| tags.iter().find(|t| t.0 == k).map(|t| t.1.clone());
    let mut loaded = Loaded::default();
    if let Some(b) = tag("Z80Build") {
        loaded.build = Some(match b.as_str() {
            "article" => Build::Article,
            "1978" => Build::B1978,
            other => return Err(format!("unknown Z80Build '{other}' (article or 1978)")),
        });
    }
    if let Some(l) = tag("Z80Level") {
        let l: u8 = l
            .parse()
            .ok()
            .filter(|l| super::LEVELS.contains(l))
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
    // Check every move before touching the game.
    let mut pos = start.clone();
    let mut checked = Vec::new();
    for (i, san) in moves.iter().enumerate() {
        let m = super::game::parse_move(&pos, san)
            .map_err(|e| format!("move {} ({san}): {e}", i + 1))?;
        pos.play_unchecked(m);
        checked.push(m);
    }
    if let Some(b) = loaded.build {
        game.set_build(b)?;
    }
    if let Some(l) = loaded.level {
        game.level = l;
    }
    game.set_start(start)?;
    for m in checked {
        game.play(m, None, true)?;
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext() {
        let (tags, moves) = split(
            "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n1. e4 {comment} e5 (1... c5 2. Nf3) 2. Nf3!? $1 Nc6; rest\n3. Bb5 1-0\n",
        )
        .unwrap();
        assert_eq!(tags[1].1, "a \"b\"");
        assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    }

    #[test]
    fn date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
