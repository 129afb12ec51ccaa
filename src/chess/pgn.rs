//! PGN text as games: the tags, the main line's tokens and the comments (variations, NAGs,
//! escape lines skipped), and the main line's moves read as SAN from the game's start.
//! Errors carry the line of the text where they are and what was wrong.

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

/// One PGN game as written: where it starts, its tags, its main line's tokens (moves, move
/// numbers, the result) with their lines, and the comments of the main line, each with the
/// number of tokens before it (so a comment follows token `at - 1`).
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub tokens: Vec<(usize, String)>,
    pub comments: Vec<(usize, String)>,
}

/// A move of a PGN game and the comment after it.
pub type MoveWithComment<'a> = (Move, Option<&'a str>);

impl PgnGame {
    /// A tag's value (names compared without case).
    pub fn tag(&self, name: &str) -> Option<String> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }

    /// Where the game starts: its FEN tag, or the initial position.
    pub fn start(&self) -> Result<Chess, (usize, String)> {
        match self.tag("FEN") {
            Some(f) => {
                let setup: Fen = super::fen::read_fen(&f)
                    .map_err(|e| (self.line, format!("bad FEN tag '{f}': {e}")))?;
                setup
                    .into_position(CastlingMode::Standard)
                    .map_err(|e| (self.line, format!("impossible FEN tag '{f}': {e}")))
            }
            None => Ok(Chess::default()),
        }
    }

    /// The main line's moves from `start()`, each with the comment that follows it (if any).
    pub fn moves(&self) -> Result<Vec<MoveWithComment<'_>>, (usize, String)> {
        let mut pos = self.start()?;
        let mut out: Vec<(Move, Option<&str>)> = Vec::new();
        for (k, (n, t)) in self.tokens.iter().enumerate() {
            if matches!(t.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                break;
            }
            if t.starts_with('$') {
                continue;
            }
            if let Some(m) = san_token(&pos, t).map_err(|e| (*n, e))? {
                pos.play_unchecked(m);
                let comment = self
                    .comments
                    .iter()
                    .find(|(at, _)| *at == k + 1)
                    .map(|(_, c)| c.as_str());
                out.push((m, comment));
            }
        }
        Ok(out)
    }
}

/// Split PGN text into games (tags, the main line's tokens and comments; variations, NAGs
/// and escape lines skipped).
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, (usize, String)> {
    let mut games = Vec::new();
    let mut cur: Option<PgnGame> = None;
    let mut in_moves = false;
    let mut depth = 0usize; // variation nesting
    let mut in_comment = false;
    let mut comment = String::new();
    let new_game = |n: usize| PgnGame {
        line: n,
        ..PgnGame::default()
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if !in_comment && depth == 0 && line.starts_with('[') {
            if in_moves {
                games.extend(cur.take());
                in_moves = false;
            }
            let g = cur.get_or_insert_with(|| new_game(n));
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or((n, format!("'{line}' is not a tag ([Name \"value\"])")))?;
            let (k, v) = inner
                .split_once(' ')
                .ok_or((n, format!("'{line}' is not a tag ([Name \"value\"])")))?;
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or((n, format!("the tag value in '{line}' is not quoted")))?;
            g.tags.push((k.to_string(), unescape(v)));
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        // Movetext.
        let mut tok = String::new();
        let flush = |tok: &mut String, cur: &mut Option<PgnGame>| {
            if !tok.is_empty() {
                let g = cur.get_or_insert_with(|| new_game(n));
                g.tokens.push((n, std::mem::take(tok)));
            }
        };
        for c in line.chars() {
            if in_comment {
                if c == '}' {
                    in_comment = false;
                    let text = std::mem::take(&mut comment);
                    if depth == 0 {
                        let g = cur.get_or_insert_with(|| new_game(n));
                        g.comments.push((g.tokens.len(), text.trim().to_string()));
                    }
                } else {
                    comment.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut tok, &mut cur);
                    in_comment = true;
                }
                ';' => break,
                '(' => {
                    flush(&mut tok, &mut cur);
                    depth += 1;
                }
                ')' => {
                    flush(&mut tok, &mut cur);
                    depth = depth
                        .checked_sub(1)
                        .ok_or((n, "')' closes no variation".to_string()))?;
                }
                c if c.is_whitespace() => {
                    if depth == 0 {
                        flush(&mut tok, &mut cur);
                    } else {
                        tok.clear();
                    }
                }
                c => {
                    if depth == 0 {
                        tok.push(c)
                    }
                }
            }
        }
        if in_comment {
            comment.push(' ');
        }
        if depth == 0 {
            flush(&mut tok, &mut cur);
        }
        in_moves = in_moves || cur.as_ref().is_some_and(|g| !g.tokens.is_empty());
    }
    if in_comment {
        return Err((text.lines().count(), "a comment '{' is never closed".into()));
    }
    games.extend(cur.take());
    Ok(games)
}

/// A tag value with PGN's escapes (`\"`, `\\`) read.
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(n @ ('"' | '\\'))) => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// One movetext token in `pos`: a move (Some), or a move number (None); `!`/`?` suffixes and
/// `+`/`#` marks are read past.
pub fn san_token(pos: &Chess, tok: &str) -> Result<Option<Move>, String> {
    let t = tok.trim_end_matches(['!', '?']);
    let t = match t.rfind('.') {
        Some(i)
            if t[..i]
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit()) =>
        {
            &t[i + 1..]
        }
        _ => t,
    };
    if t.is_empty() {
        return Ok(None);
    }
    let san: San = t
        .trim_end_matches(['+', '#'])
        .parse()
        .map_err(|_| format!("'{tok}' is not a move"))?;
    san.to_move(pos)
        .map(Some)
        .map_err(|e| format!("'{tok}' is not legal in {}: {e}", fen(pos)))
}

fn fen(p: &Chess) -> String {
    Fen::from_position(p, EnPassantMode::Legal).to_string()
}
