//! One game: the firmware and the host's position kept in step, the moves played, reading a
//! player's move (SAN or coordinates), and the end of the game by the rules.

use crate::firmware::params::ParamError;
use crate::firmware::protocol::code;
use crate::firmware::{sargon, Build, Engine, FirmwareError, FwMove, SearchKind, SearchResult};
use shakmaty::fen::{Epd, Fen};
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Role};

/// Why a game refused what it was asked: each variant carries what it refused.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Firmware(#[from] FirmwareError),
    #[error(transparent)]
    Params(#[from] ParamError),
    #[error("level {0}: choose a look ahead of {lo} to {hi}", lo = super::LEVELS.start(), hi = super::LEVELS.end())]
    Level(u8),
    /// A move that is not legal in the game's position.
    #[error("{mv} is not legal here")]
    Illegal { mv: UciMove },
    #[error("{san}: the 1978 build promotes only to a queen (the article build knows all four)")]
    UnderPromotion { san: String },
    /// The firmware would not play a legal move (and the caller did not ask for leniency).
    #[error("the firmware refused {san}: {source}")]
    Refused { san: String, source: FirmwareError },
    /// The firmware's answer is not a legal move of the position.
    #[error("the firmware chose {mv}, which is not legal in {fen}")]
    IllegalChoice { mv: String, fen: String },
    #[error("no move to take back")]
    NothingToUndo,
}

/// The engine thinking on the player's time: the firmware holds the position after the reply
/// it expects (played there, not in the game) and searches it. On a hit the same search goes
/// on as the real one ([`Game::record`] the move); on anything else [`Game::end_ponder`].
pub struct Ponder {
    /// The reply the engine expects.
    pub reply: Move,
    pub san: String,
    pub search: super::search::Search,
    /// The answer, if the search ended before the player moved.
    pub result: Option<SearchResult>,
}

impl Ponder {
    /// Whether the search is still running.
    pub fn running(&self) -> bool {
        self.result.is_none()
    }

    /// Run the search for at most `budget` T-states (it keeps its answer when it ends).
    pub fn step(&mut self, engine: &mut Engine, budget: u64) -> Result<(), GameError> {
        if self.result.is_none() {
            self.result = self.search.step(engine, budget)?;
        }
        Ok(())
    }

    /// T-states searched so far (all of them, if it has ended).
    pub fn tstates(&self) -> u64 {
        self.result
            .as_ref()
            .map_or(self.search.tstates, |r| r.tstates)
    }
}

/// What the firmware said about a move it chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    pub kind: SearchKind,
    pub score: crate::firmware::Score,
    /// The deepest completed depth (0 for a book move).
    pub depth: u8,
    /// See [`super::mate_in`].
    pub mate_in: Option<i32>,
    pub tstates: u64,
    pub evaluations: u32,
    pub nodes: u32,
}

impl Thought {
    pub fn from_result(r: &SearchResult) -> Thought {
        Thought {
            kind: r.kind,
            score: r.score,
            depth: r.depths.last().map(|d| d.depth).unwrap_or(0),
            mate_in: if r.kind == SearchKind::Book {
                None
            } else {
                super::mate_in(r.score, &r.depths)
            },
            tstates: r.tstates,
            evaluations: r.evaluations,
            nodes: r.nodes,
        }
    }

    /// The score from the engine's view ("+0.75", "mate in 2"), or "book".
    pub fn score_text(&self) -> String {
        if self.kind == SearchKind::Book {
            return "book".into();
        }
        match self.mate_in {
            Some(n) if n > 0 => format!("mate in {n}"),
            Some(n) => format!("mated in {}", -n),
            None => format!("{:+.2}", super::score_cp(self.score) as f64 / 100.0),
        }
    }
}

/// One ply of the game.
#[derive(Clone, Debug)]
pub struct Ply {
    pub mv: Move,
    /// SAN with its check or mate suffix.
    pub san: String,
    pub fw: FwMove,
    /// Set when the engine chose the move.
    pub thought: Option<Thought>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Checkmate { winner: Color },
    Stalemate,
    InsufficientMaterial,
    Threefold,
    FiftyMoves,
    Resigned { winner: Color },
}

impl End {
    /// The PGN result.
    pub fn result(self) -> &'static str {
        match self {
            End::Checkmate { winner } | End::Resigned { winner } => match winner {
                Color::White => "1-0",
                Color::Black => "0-1",
            },
            _ => "1/2-1/2",
        }
    }

    pub fn describe(self) -> String {
        let side = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self {
            End::Checkmate { winner } => format!("checkmate: {} wins", side(winner)),
            End::Resigned { winner } => format!("{} resigns: {} wins", side(!winner), side(winner)),
            End::Stalemate => "draw by stalemate".into(),
            End::InsufficientMaterial => "draw: insufficient material".into(),
            End::Threefold => "draw by threefold repetition".into(),
            End::FiftyMoves => "draw by the 50-move rule".into(),
        }
    }
}

/// The firmware's and the host's view of one game.
pub struct Game {
    pub engine: Engine,
    pub level: u8,
    /// `positions[0]` is the start, the last one the current position.
    positions: Vec<Chess>,
    pub plies: Vec<Ply>,
    keys: Vec<String>,
    pub resigned: Option<Color>,
    /// The parameter file loaded into the full build (kept across builds and new games).
    params: Option<crate::firmware::params::ParamFile>,
}

fn key(pos: &Chess) -> String {
    Epd::from_position(pos, EnPassantMode::Legal).to_string()
}

/// A square name in the 1978 style: `E2`.
fn upper(s: &str) -> String {
    s.to_ascii_uppercase()
}

impl Game {
    /// A new game from the initial position.
    pub fn new(build: Build, level: u8) -> Result<Game, GameError> {
        let mut engine = Engine::new(build)?;
        engine.new_game()?;
        let start = Chess::default();
        Ok(Game {
            engine,
            level,
            keys: vec![key(&start)],
            positions: vec![start],
            plies: Vec::new(),
            resigned: None,
            params: None,
        })
    }

    /// Load a parameter file into the full build's blocks (None: the ROM's defaults). A period
    /// build refuses a file. The file stays with the game: a change of build reloads it.
    pub fn set_params(
        &mut self,
        params: Option<crate::firmware::params::ParamFile>,
    ) -> Result<(), GameError> {
        match &params {
            Some(pf) => self.engine.load_params(pf)?,
            None if self.build() == Build::Full => self.engine.reset_params()?,
            None => {}
        }
        self.params = params;
        Ok(())
    }

    /// The parameter file in use, if any.
    pub fn params(&self) -> Option<&crate::firmware::params::ParamFile> {
        self.params.as_ref()
    }

    /// The hash of the parameters in use (the ROM's defaults hash as the empty file), for PGN
    /// tags; None for a period build.
    pub fn params_hash(&self) -> Option<String> {
        (self.build() == Build::Full).then(|| self.params.clone().unwrap_or_default().hash())
    }

    pub fn build(&self) -> Build {
        self.engine.build
    }

    /// The current position.
    pub fn pos(&self) -> &Chess {
        self.positions.last().expect("a game has a position")
    }

    /// The position the game started from.
    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// The position before ply `i` (0-based).
    pub fn pos_before(&self, i: usize) -> &Chess {
        &self.positions[i]
    }

    /// Did the game start from the initial position?
    pub fn from_initial(&self) -> bool {
        let init = Chess::default();
        key(self.start()) == key(&init) && self.start().fullmoves().get() == 1
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        Fen::from_position(self.pos(), EnPassantMode::Legal).to_string()
    }

    /// The start position as FEN.
    pub fn start_fen(&self) -> String {
        Fen::from_position(self.start(), EnPassantMode::Legal).to_string()
    }

    /// Start again from the initial position.
    pub fn new_game(&mut self) -> Result<(), GameError> {
        self.set_start(Chess::default())
    }

    /// Start again from `pos` (loaded by the 1978 test-suite convention).
    pub fn set_start(&mut self, pos: Chess) -> Result<(), GameError> {
        if Chess::default().board() == pos.board()
            && pos.turn() == Color::White
            && pos.fullmoves().get() == 1
        {
            self.engine.new_game()?;
        } else {
            sargon::load(&mut self.engine, &pos)?;
        }
        self.keys = vec![key(&pos)];
        self.positions = vec![pos];
        self.plies.clear();
        self.resigned = None;
        Ok(())
    }

    /// Change the firmware (a new machine, the game replayed into it).
    pub fn set_build(&mut self, build: Build) -> Result<(), GameError> {
        if build == self.build() {
            return Ok(());
        }
        let mut engine = Engine::new(build)?;
        if let (Build::Full, Some(pf)) = (build, &self.params) {
            engine.load_params(pf)?;
        }
        let old = std::mem::replace(&mut self.engine, engine);
        if let Err(e) = self.resync() {
            self.engine = old;
            self.resync()?;
            return Err(e);
        }
        Ok(())
    }

    pub fn set_level(&mut self, level: u8) -> Result<(), GameError> {
        if !super::LEVELS.contains(&level) {
            return Err(GameError::Level(level));
        }
        self.level = level;
        Ok(())
    }

    /// Put the whole game into the firmware again: the start, then every move (a move the
    /// firmware cannot take, e.g. past its 213-ply history, is replaced by setting up the
    /// position after it).
    pub fn resync(&mut self) -> Result<(), GameError> {
        let start = self.start().clone();
        if Chess::default().board() == start.board()
            && start.turn() == Color::White
            && start.fullmoves().get() == 1
        {
            self.engine.new_game()?;
        } else {
            sargon::load(&mut self.engine, &start)?;
        }
        for i in 0..self.plies.len() {
            let fw = self.plies[i].fw;
            if self.engine.play(fw).is_err() {
                let after = self.positions[i + 1].clone();
                sargon::load(&mut self.engine, &after)?;
            }
        }
        Ok(())
    }

    /// After the engine's move `r`: when this is the full build and the reply it expects is
    /// legal, play that reply in the firmware only and start searching the position after it
    /// (on the player's time). None when there is nothing to ponder on.
    pub fn start_ponder(&mut self, r: &SearchResult) -> Option<Ponder> {
        let level = self.level;
        self.start_ponder_with(r, |engine| {
            Some(super::search::Search::start(engine, level))
        })
    }

    /// [`Game::start_ponder`] with the search started by `start` (a timed one, say), once
    /// the reply is in the firmware. When `start` gives None the reply is taken back out and
    /// there is nothing to ponder on.
    pub fn start_ponder_with(
        &mut self,
        r: &SearchResult,
        start: impl FnOnce(&mut Engine) -> Option<super::search::Search>,
    ) -> Option<Ponder> {
        if self.build() != Build::Full || self.end().is_some() {
            return None;
        }
        let pos = self.pos().clone();
        let y = r.reply.and_then(|y| y.to_move(&pos))?;
        // A reply that ends the game (mate, stalemate) leaves nothing to search.
        let mut after = pos.clone();
        after.play_unchecked(y);
        if after.legal_moves().is_empty() {
            return None;
        }
        // (a full firmware history refuses the move: no pondering this move)
        self.engine.play(FwMove::from_move(&y)).ok()?;
        let san = San::from_move(&pos, y).to_string();
        let Some(search) = start(&mut self.engine) else {
            if self.engine.undo().is_err() {
                self.resync().ok()?;
            }
            return None;
        };
        Some(Ponder {
            reply: y,
            san,
            search,
            result: None,
        })
    }

    /// Stop pondering `p` and take the expected reply back out of the firmware (setting the
    /// whole game up again if the firmware cannot take it back).
    pub fn end_ponder(&mut self, mut p: Ponder) -> Result<(), GameError> {
        if p.result.is_none() {
            p.search.stop(&mut self.engine);
            p.search.finish(&mut self.engine)?;
        }
        if self.engine.undo().is_err() {
            self.resync()?;
        }
        Ok(())
    }

    /// Read a player's move: coordinates (`g1f3`, `e7e8q`, the 1978 program's `G1-F3`) or
    /// SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`, also in capitals as the 1978 keyboard typed them).
    /// The error says what is wrong and changes nothing.
    pub fn parse_move(&self, input: &str) -> Result<Move, String> {
        parse_move(self.pos(), input)
    }

    /// Play `m` (legal in the current position) in the firmware and on the host. A move the
    /// firmware refuses is an error, except that with `lenient` (a GUI's move, which must be
    /// taken) the position after it is set up in the firmware instead. A full firmware history
    /// is always handled that way.
    pub fn play(
        &mut self,
        m: Move,
        thought: Option<Thought>,
        lenient: bool,
    ) -> Result<(), GameError> {
        let pos = self.pos().clone();
        if !pos.is_legal(m) {
            return Err(GameError::Illegal {
                mv: m.to_uci(CastlingMode::Standard),
            });
        }
        let fw = FwMove::from_move(&m);
        let mut after = pos.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut after, m).to_string();
        if self.build() == Build::B1978
            && matches!(m.promotion(), Some(r) if r != Role::Queen)
            && !lenient
        {
            return Err(GameError::UnderPromotion { san });
        }
        if let Err(e) = self.engine.play(fw) {
            let full = matches!(e, FirmwareError::Rejected { code, .. } if code == code::EHFULL);
            if !(lenient || full) {
                return Err(GameError::Refused { san, source: e });
            }
            sargon::load(&mut self.engine, &after)?;
        }
        self.push(m, after, san, thought);
        Ok(())
    }

    fn push(&mut self, m: Move, after: Chess, san: String, thought: Option<Thought>) {
        self.keys.push(key(&after));
        self.positions.push(after);
        self.plies.push(Ply {
            mv: m,
            san,
            fw: FwMove::from_move(&m),
            thought,
        });
    }

    /// Record `m` (legal here) on the host only: the firmware has already played it (the
    /// reply a ponder search was started on).
    pub fn record(&mut self, m: Move) -> Result<(), GameError> {
        let pos = self.pos().clone();
        if !pos.is_legal(m) {
            return Err(GameError::Illegal {
                mv: m.to_uci(CastlingMode::Standard),
            });
        }
        let mut after = pos;
        let san = SanPlus::from_move_and_play_unchecked(&mut after, m).to_string();
        self.push(m, after, san, None);
        Ok(())
    }

    /// The engine's answer: checked with shakmaty, then played.
    pub fn play_result(&mut self, r: &SearchResult) -> Result<Move, GameError> {
        let m = r
            .best
            .to_move(self.pos())
            .ok_or_else(|| GameError::IllegalChoice {
                mv: r.best.uci(),
                fen: self.fen(),
            })?;
        self.play(m, Some(Thought::from_result(r)), false)?;
        Ok(m)
    }

    /// Take back the last ply.
    pub fn undo(&mut self) -> Result<(), GameError> {
        if self.plies.is_empty() {
            return Err(GameError::NothingToUndo);
        }
        self.plies.pop();
        self.positions.pop();
        self.keys.pop();
        self.resigned = None;
        if self.engine.undo().is_err() {
            self.resync()?;
        }
        Ok(())
    }

    /// The side that resigns.
    pub fn resign(&mut self, side: Color) {
        self.resigned = Some(side);
    }

    /// How the game ended, if it has: by the rules, adjudicated by the host.
    pub fn end(&self) -> Option<End> {
        if let Some(side) = self.resigned {
            return Some(End::Resigned { winner: !side });
        }
        let pos = self.pos();
        if pos.legal_moves().is_empty() {
            return Some(if pos.is_check() {
                End::Checkmate {
                    winner: !pos.turn(),
                }
            } else {
                End::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            return Some(End::InsufficientMaterial);
        }
        let now = self.keys.last().expect("a key per position");
        if self.keys.iter().filter(|k| *k == now).count() >= 3 {
            return Some(End::Threefold);
        }
        if pos.halfmoves() >= 100 {
            return Some(End::FiftyMoves);
        }
        None
    }

    /// The move in the 1978 program's style: `E2-E4`, `O-O`, `E5-D6 EP`, `E7-E8=Q`.
    pub fn coords(pos: &Chess, m: Move) -> String {
        if let Some(side) = m.castling_side() {
            return if side.is_king_side() { "O-O" } else { "O-O-O" }.into();
        }
        let _ = pos;
        let from = m.from().map(|s| s.to_string()).unwrap_or_default();
        let mut s = format!("{}-{}", upper(&from), upper(&m.to().to_string()));
        if let Some(r) = m.promotion() {
            s.push('=');
            s.push(r.upper_char());
        }
        if m.is_en_passant() {
            s.push_str(" EP");
        }
        s
    }
}

/// Read a move in `pos` (see [`Game::parse_move`]).
///
/// SAN and coordinates are told apart by case, as PGN readers do: the text as typed is read
/// as SAN first (`B6f7` is a bishop from the sixth rank, `Bb1c3` a bishop from b1; a piece is
/// a capital, so lowercase text is SAN only for a pawn move, which then means the same as its
/// coordinates), then as coordinates (`b1c3`, `e7e8q`, the 1978 program's `B1-C3`), then as
/// SAN in any case (`NF3`, `BXC3`, as the 1978 keyboard typed them).
pub fn parse_move(pos: &Chess, input: &str) -> Result<Move, String> {
    let text = input.trim();
    if text.is_empty() {
        return Err("type a move, e.g. e2e4 or Nf3".into());
    }
    // SAN exactly as typed ("0-0" read as "O-O").
    let exact = if text.starts_with("0-0") {
        text.replace('0', "O")
    } else {
        text.to_string()
    };
    let mut ambiguous: Option<String> = None;
    if let Ok(san) = exact.parse::<SanPlus>().map(|s| s.san) {
        match san.to_move(pos) {
            Ok(m) => return Ok(m),
            Err(SanError::AmbiguousSan) => ambiguous = Some(ambiguity(pos, &san, text)),
            Err(SanError::IllegalSan) => {}
        }
    }
    // Coordinates: e2e4, e2-e4, E2-E4, e7e8q, e7-e8=Q, e2xe4.
    let lower: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | '=' | 'x' | 'X' | ' ' | '+' | '#' | '!' | '?'))
        .collect::<String>()
        .to_ascii_lowercase();
    let b = lower.as_bytes();
    let square = |i: usize| {
        b.len() > i + 1 && (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1])
    };
    let mut coords_error: Option<String> = None;
    if (b.len() == 4 || b.len() == 5) && square(0) && square(2) {
        match lower.parse::<UciMove>() {
            Err(_) => {
                coords_error = Some(format!(
                    "'{text}' is not a move (a promotion piece is q, r, b or n)"
                ))
            }
            Ok(uci) => match uci.to_move(pos) {
                Ok(m) => return Ok(m),
                Err(_) => coords_error = Some(explain_illegal_coords(pos, &lower, text)),
            },
        }
    }
    // SAN in any case; "0-0" as "O-O".
    let mut candidates = vec![text.replace('0', "O")];
    let c0 = candidates[0].clone();
    let mut chars = c0.chars();
    if let Some(first) = chars.next() {
        let rest: String = chars.as_str().to_ascii_lowercase();
        let rest = rest
            .replace("=q", "=Q")
            .replace("=r", "=R")
            .replace("=b", "=B")
            .replace("=n", "=N");
        let upper_first = first.to_ascii_uppercase();
        if c0.starts_with(['O', 'o']) {
            candidates.push(c0.to_ascii_uppercase());
        } else {
            // "NF3" → "Nf3"; "BXC3" → "Bxc3" and also the pawn capture "bxc3". A lowercase
            // 'b' is the b-file, never a bishop ("b6f7" is coordinates, "B6f7" SAN).
            if "NBRQK".contains(upper_first) && first != 'b' {
                candidates.push(format!("{upper_first}{rest}"));
            }
            candidates.push(format!("{}{rest}", first.to_ascii_lowercase()));
            // A bare "e8Q" / "e8q": the promotion piece without '='.
            let l = candidates.last().expect("pushed").clone();
            if let Some(p) = l.chars().last() {
                if "qrbn".contains(p)
                    && l.len() >= 3
                    && l.is_char_boundary(l.len() - 1)
                    && l.as_bytes()[l.len() - 2].is_ascii_digit()
                {
                    candidates.push(format!("{}={}", &l[..l.len() - 1], p.to_ascii_uppercase()));
                }
            }
        }
    }
    let mut parsed_any = false;
    for c in &candidates {
        let Ok(san) = c.parse::<SanPlus>().map(|s| s.san) else {
            continue;
        };
        parsed_any = true;
        match san.to_move(pos) {
            Ok(m) => return Ok(m),
            Err(SanError::AmbiguousSan) => {
                if ambiguous.is_none() {
                    ambiguous = Some(ambiguity(pos, &san, text));
                }
            }
            Err(SanError::IllegalSan) => {}
        }
    }
    if let Some(a) = ambiguous {
        return Err(a);
    }
    if let Some(e) = coords_error {
        return Err(e);
    }
    if parsed_any {
        // A promotion without its piece?
        let needs_piece = pos.legal_moves().iter().any(|m| {
            m.promotion().is_some() && {
                let s = San::from_move(pos, *m).to_string();
                let base = s.split('=').next().unwrap_or("").to_string();
                candidates
                    .iter()
                    .any(|c| c.trim_end_matches(['+', '#']) == base)
            }
        });
        if needs_piece {
            return Err(format!(
                "'{text}' promotes: say to which piece, e.g. {text}=Q"
            ));
        }
        return Err(format!("'{text}' is not legal here"));
    }
    Err(format!(
        "'{text}' is not a move: type SAN (Nf3, exd5, O-O, e8=Q) or coordinates (g1f3, e7e8q)"
    ))
}

/// "'Nd5' is ambiguous: Ncd5 or Ned5".
fn ambiguity(pos: &Chess, san: &San, text: &str) -> String {
    let options: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| san.matches(**m))
        .map(|m| San::from_move(pos, *m).to_string())
        .collect();
    format!("'{text}' is ambiguous: {}", join_or(&options))
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        _ => format!(
            "{} or {}",
            items[..items.len() - 1].join(", "),
            items[items.len() - 1]
        ),
    }
}

fn explain_illegal_coords(pos: &Chess, lower: &str, text: &str) -> String {
    let from: shakmaty::Square = lower[..2].parse().expect("checked square");
    let to: shakmaty::Square = lower[2..4].parse().expect("checked square");
    let board = pos.board();
    match board.piece_at(from) {
        None => format!("'{text}': there is no piece on {from}"),
        Some(p) if p.color != pos.turn() => format!(
            "'{text}': the piece on {from} is not yours to move ({} to play)",
            if pos.turn() == Color::White {
                "White"
            } else {
                "Black"
            }
        ),
        Some(_) => {
            let promos = pos
                .legal_moves()
                .iter()
                .any(|m| m.from() == Some(from) && m.to() == to && m.promotion().is_some());
            if promos && lower.len() == 4 {
                format!("'{text}' promotes: add the piece, e.g. {lower}q")
            } else {
                format!("'{text}' is not legal here")
            }
        }
    }
}

/// The move number and side as a PGN-style prefix of ply `i`: "12." or "12...".
pub fn move_prefix(pos_before: &Chess) -> String {
    let n = pos_before.fullmoves().get();
    match pos_before.turn() {
        Color::White => format!("{n}."),
        Color::Black => format!("{n}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firmware::parse_fen;

    #[test]
    fn reading_moves() {
        let p = Chess::default();
        for t in ["e2e4", "e2-e4", "E2-E4", "e4", "E4"] {
            assert_eq!(parse_move(&p, t).unwrap().to().to_string(), "e4", "{t}");
        }
        for t in ["Nf3", "NF3", "g1f3", "G1-F3", "ng1f3"] {
            assert_eq!(parse_move(&p, t).unwrap().to().to_string(), "f3", "{t}");
        }
        assert!(parse_move(&p, "e5").unwrap_err().contains("not legal"));
        assert!(parse_move(&p, "hello").unwrap_err().contains("not a move"));
        assert!(parse_move(&p, "e3e4")
            .unwrap_err()
            .contains("no piece on e3"));
        assert!(parse_move(&p, "e7e5").unwrap_err().contains("not yours"));
        let amb = parse_fen("4k3/8/8/8/8/2N1N3/8/4K3 w - - 0 1").unwrap();
        let e = parse_move(&amb, "Nd5").unwrap_err();
        assert!(
            e.contains("ambiguous") && e.contains("Ncd5") && e.contains("Ned5"),
            "{e}"
        );
        let promo = parse_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        assert_eq!(
            parse_move(&promo, "e8=Q").unwrap().promotion(),
            Some(Role::Queen)
        );
        assert_eq!(
            parse_move(&promo, "e8N").unwrap().promotion(),
            Some(Role::Knight)
        );
        assert_eq!(
            parse_move(&promo, "e7e8r").unwrap().promotion(),
            Some(Role::Rook)
        );
        assert_eq!(
            parse_move(&promo, "E7-E8=Q").unwrap().promotion(),
            Some(Role::Queen)
        );
        assert!(parse_move(&promo, "e8").unwrap_err().contains("promotes"));
        assert!(parse_move(&promo, "e7e8").unwrap_err().contains("promotes"));
        let castle = parse_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert!(parse_move(&castle, "O-O").unwrap().is_castle());
        assert!(parse_move(&castle, "0-0-0").unwrap().is_castle());
        assert!(parse_move(&castle, "e1g1").unwrap().is_castle());
        let bishop = parse_fen("4k3/8/8/8/8/1p6/P1B5/4K3 w - - 0 1").unwrap();
        assert_eq!(parse_move(&bishop, "axb3").unwrap().role(), Role::Pawn);
        assert_eq!(parse_move(&bishop, "Bxb3").unwrap().role(), Role::Bishop);
        assert_eq!(parse_move(&bishop, "BXB3").unwrap().role(), Role::Bishop);
        // SAN and coordinates told apart by case: B6f7 is the bishop on the sixth rank.
        let two = parse_fen("4B2k/8/4B3/8/8/8/P7/K7 w - - 0 40").unwrap();
        for t in ["B6f7", "Be6f7", "B6f7+"] {
            let m = parse_move(&two, t).unwrap();
            assert_eq!(
                (m.role(), m.from().unwrap().to_string()),
                (Role::Bishop, "e6".into()),
                "{t}"
            );
        }
        assert!(parse_move(&two, "Bf7").unwrap_err().contains("ambiguous"));
        assert!(parse_move(&two, "b6f7")
            .unwrap_err()
            .contains("no piece on b6"));
        let knight = parse_fen("4k3/8/8/8/8/8/8/BN2K3 w - - 0 1").unwrap();
        // b1c3 is the knight's coordinates; Bb1c3 names a bishop that is not on b1.
        assert_eq!(parse_move(&knight, "b1c3").unwrap().role(), Role::Knight);
        assert_eq!(parse_move(&knight, "B1-C3").unwrap().role(), Role::Knight);
        assert!(parse_move(&knight, "Bb1c3").is_err());
        assert_eq!(parse_move(&knight, "Ba1c3").unwrap().role(), Role::Bishop);
        assert_eq!(parse_move(&knight, "B1c3").unwrap().role(), Role::Bishop);
        assert!(parse_move(&castle, "0-0").unwrap().is_castle());
        assert_eq!(
            parse_move(&promo, "e7e8q").unwrap().promotion(),
            Some(Role::Queen)
        );
    }
}
