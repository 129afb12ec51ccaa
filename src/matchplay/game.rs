//! One match game: two fresh players, the opening played into both, then moves asked of the
//! side to move and judged by the host.

use super::openings::{key, Opening};
use super::player::{Budget, Player, PonderStats, ThinkError};
use super::spec::{EngineSpec, TimeControl};
use crate::firmware::params::ParamFile;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

/// Games are adjudicated drawn after this many moves (each side's, counted from the start
/// position, the opening included).
pub const MAX_MOVES: usize = 150;

/// One side of the match as the games see it.
#[derive(Clone, Debug)]
pub struct Side {
    pub spec: EngineSpec,
    /// The parameter file of `build:FILE`, checked.
    pub params: Option<ParamFile>,
    /// What the PGN and the report call it (the spec as typed).
    pub name: String,
    /// It thinks on the opponent's time (`--ponder`; the full build only).
    pub ponder: bool,
    /// An external engine may stay silent this long past its move's time (`--engine-timeout`).
    pub engine_timeout: std::time::Duration,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// None: a draw.
    pub winner: Option<Color>,
    /// In words: "checkmate", "1978 played e2e5, an illegal move".
    pub reason: String,
    /// The PGN Termination tag: normal, adjudication, time forfeit, rules infraction,
    /// abandoned (an engine stopped answering).
    pub termination: &'static str,
    /// An engine misbehaved (illegal move, error, no answer): reported at the end.
    pub fault: bool,
}

impl Outcome {
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// One ply as written in the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    pub mv: Move,
    pub san: String,
    pub comment: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based.
    pub round: usize,
    pub opening: Opening,
    /// Which side of the match played White: 0 = A, 1 = B.
    pub white: usize,
    pub plies: Vec<PlyRecord>,
    pub outcome: Outcome,
    /// Per side of the match (A, B): its pondering, when it pondered.
    pub ponder: [Option<PonderStats>; 2],
}

impl Record {
    /// The colour side A played.
    pub fn colour_a(&self) -> Color {
        if self.white == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The score of side A: 1, ½ or 0.
    pub fn score_a(&self) -> f64 {
        let a = self.colour_a();
        match self.outcome.winner {
            None => 0.5,
            Some(c) if c == a => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The end of the game by the rules, or adjudication, in `pos` (with `keys` the positions so
/// far, the last one `pos`'s, and `plies` played since the start position).
pub fn judge(pos: &Chess, keys: &[String], plies: usize) -> Option<Outcome> {
    let end = |winner, reason: &str, termination| Outcome {
        winner,
        reason: reason.to_string(),
        termination,
        fault: false,
    };
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            end(Some(!pos.turn()), "checkmate", "normal")
        } else {
            end(None, "stalemate", "normal")
        });
    }
    if pos.is_insufficient_material() {
        return Some(end(None, "insufficient material", "normal"));
    }
    if let Some(now) = keys.last() {
        if keys.iter().filter(|k| *k == now).count() >= 3 {
            return Some(end(None, "threefold repetition", "normal"));
        }
    }
    if pos.halfmoves() >= 100 {
        return Some(end(None, "50-move rule", "normal"));
    }
    if plies >= 2 * MAX_MOVES {
        return Some(end(
            None,
            &format!("adjudicated drawn after {MAX_MOVES} moves"),
            "adjudication",
        ));
    }
    None
}

/// The opening's moves played from its start: the position, the keys of every position
/// (for repetitions) and the plies, each marked "book".
fn book(opening: &Opening) -> (Chess, Vec<String>, Vec<PlyRecord>) {
    let mut plies: Vec<PlyRecord> = Vec::new();
    let mut pos = opening.start.clone();
    let mut keys = vec![key(&pos)];
    for &m in &opening.moves {
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        keys.push(key(&pos));
        plies.push(PlyRecord {
            mv: m,
            san,
            comment: "book".into(),
        });
    }
    (pos, keys, plies)
}

/// A fresh player for `side`, told the opening.
fn start_player(side: &Side, opening: &Opening, clock_hz: u64) -> Result<Player, String> {
    let mut p = Player::new(side, clock_hz).map_err(|e| e.to_string())?;
    p.new_game(&opening.start, &opening.moves)?;
    Ok(p)
}

/// Play game `round` (1-based) of opening `opening` with `sides[white]` as White.
pub fn play(
    round: usize,
    opening: &Opening,
    sides: &[Side; 2],
    white: usize,
    tc: TimeControl,
    clock_hz: u64,
) -> Record {
    let names = [&sides[white].name, &sides[1 - white].name];
    let colour_of = |i: usize| if i == 0 { Color::White } else { Color::Black };
    let loss = |loser: Color, reason: String, termination: &'static str| Outcome {
        winner: Some(!loser),
        reason,
        termination,
        fault: matches!(termination, "rules infraction" | "abandoned"),
    };
    let (mut pos, mut keys, mut plies) = book(opening);
    let record = |plies: Vec<PlyRecord>, outcome: Outcome, players: &[Player]| {
        let stats = |colour: usize| players.get(colour).and_then(Player::ponder_stats);
        // players[0] is White: side A is White when `white` is 0.
        let ponder = if white == 0 {
            [stats(0), stats(1)]
        } else {
            [stats(1), stats(0)]
        };
        Record {
            round,
            opening: opening.clone(),
            white,
            plies,
            outcome,
            ponder,
        }
    };
    // Fresh players, White's first, both told the opening.
    let mut players: Vec<Player> = Vec::with_capacity(2);
    for i in 0..2 {
        let side = &sides[if i == 0 { white } else { 1 - white }];
        match start_player(side, opening, clock_hz) {
            Ok(p) => players.push(p),
            Err(e) => {
                let why = format!("{} could not start the game: {e}", names[i]);
                return record(plies, loss(colour_of(i), why, "rules infraction"), &players);
            }
        }
    }
    // Tournament clocks: seconds left and moves made, per colour.
    let mut left = [0.0f64; 2];
    let mut made = [0u32; 2];
    if let TimeControl::Tournament { seconds, .. } = tc {
        left = [seconds, seconds];
    }
    let budget_of = |i: usize, left: &[f64; 2], made: &[u32; 2]| match tc {
        TimeControl::Level(l) => Budget::Depth(l),
        TimeControl::MoveTime(s) => Budget::Seconds(s),
        TimeControl::Tournament { moves, .. } => Budget::Clock {
            left: left[i],
            to_go: moves - made[i] % moves,
        },
    };
    loop {
        if let Some(o) = judge(&pos, &keys, plies.len()) {
            return record(plies, o, &players);
        }
        let side = pos.turn();
        let i = if side == Color::White { 0 } else { 1 };
        let budget = budget_of(i, &left, &made);
        let (choice, thought) = match players[i].think(&pos, budget) {
            Ok(c) => c,
            Err(e) => {
                let (why, termination) = match e {
                    ThinkError::Silent { .. } => (format!("engine {} {e}", names[i]), "abandoned"),
                    _ => (format!("{} failed: {e}", names[i]), "rules infraction"),
                };
                return record(plies, loss(side, why, termination), &players);
            }
        };
        let Some(m) = choice.mv else {
            let why = format!("{} played {}, an illegal move", names[i], choice.text);
            return record(plies, loss(side, why, "rules infraction"), &players);
        };
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        keys.push(key(&pos));
        plies.push(PlyRecord {
            mv: m,
            san,
            comment: choice.comment.clone(),
        });
        // The other side pondered while this one thought (for as long as its clock ran).
        if let Err(e) = players[1 - i].ponder_for(choice.seconds) {
            let why = format!("{} failed while pondering: {e}", names[1 - i]);
            return record(
                plies,
                loss(colour_of(1 - i), why, "rules infraction"),
                &players,
            );
        }
        for (k, p) in players.iter_mut().enumerate() {
            let t = if k == i { thought.clone() } else { None };
            if let Err(e) = p.apply(m, t) {
                let o = loss(
                    colour_of(k),
                    format!("{} could not take the move: {e}", names[k]),
                    "rules infraction",
                );
                return record(plies, o, &players);
            }
        }
        if let TimeControl::Tournament { moves, seconds } = tc {
            left[i] -= choice.seconds;
            made[i] += 1;
            if left[i] < 0.0 {
                let o = loss(side, format!("{} lost on time", names[i]), "time forfeit");
                return record(plies, o, &players);
            }
            if made[i].is_multiple_of(moves) {
                left[i] += seconds;
            }
        }
        if let Err(e) = players[i].start_ponder(budget_of(i, &left, &made)) {
            let o = loss(
                side,
                format!("{} failed to start pondering: {e}", names[i]),
                "rules infraction",
            );
            return record(plies, o, &players);
        }
    }
}
