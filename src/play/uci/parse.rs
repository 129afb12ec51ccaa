//! The UCI protocol's lines parsed into commands ([`parse`]); nothing checked against the
//! position yet (that is the loop's work in `play::uci`).

use crate::session::clock::TimeControl;
use shakmaty::Color;
use std::time::Duration;

/// The starting position of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    Start,
    Fen(String),
}

/// A line of the protocol, parsed (nothing checked against the position yet: that is the
/// loop's work). [`parse`] never panics: any line is a command or a [`UciError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// A blank line.
    Empty,
    Uci,
    IsReady,
    /// `debug`, `register`: accepted, nothing to do.
    Ignored,
    PonderHit,
    Stop,
    Quit,
    UciNewGame,
    SetOption {
        name: String,
        value: String,
    },
    Position {
        base: Base,
        moves: Vec<String>,
    },
    Go(Go),
}

/// A line the protocol cannot take: the loop answers it with an `info string` and goes on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    #[error("a line that is not UTF-8 ({0:?}, bad bytes shown as U+FFFD)")]
    NotUtf8(String),
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    #[error("setoption: expected 'setoption name <id> [value <x>]'")]
    SetOptionSyntax,
    #[error("position: expected 'startpos' or 'fen <FEN>'")]
    PositionBase,
    #[error("position: unexpected '{0}' (expected 'moves')")]
    PositionMoves(String),
}

/// A parsed `go`. Out-of-range numbers are clamped and unknown tokens skipped, each with a
/// line in `notes` (sent as `info string`s), as Stockfish goes on past what it cannot read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u8>,
    pub movetime: Option<u64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// `searchmoves`: the root moves to search, as given (checked against the position when
    /// the search starts).
    pub searchmoves: Vec<String>,
    /// What was skipped or clamped, for `info string`s.
    pub notes: Vec<String>,
}

/// The words of `go`.
const GO_WORDS: [&str; 13] = [
    "depth",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// An integer, saturated at the bounds of i64 (`99999999999999999999` is i64::MAX).
fn saturating_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<i64>() {
        Ok(v) if neg => -v,
        Ok(v) => v,
        Err(_) if neg => i64::MIN,
        Err(_) => i64::MAX,
    })
}

/// Parse the arguments of `go`. Never fails: what it cannot use is skipped or clamped, and
/// said in [`Go::notes`].
pub fn parse_go(args: &[&str]) -> Go {
    let mut g = Go::default();
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        match word {
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "searchmoves" => {
                while i < args.len() && !GO_WORDS.contains(&args[i]) {
                    g.searchmoves.push(args[i].to_string());
                    i += 1;
                }
            }
            "perft" => g
                .notes
                .push("go: 'perft' is not supported (z80chess perft does it); skipped".into()),
            w if GO_WORDS.contains(&w) => {
                let arg = args.get(i).filter(|a| !GO_WORDS.contains(a));
                let Some((a, v)) = arg.and_then(|a| Some((*a, saturating_int(a)?))) else {
                    g.notes.push(match arg {
                        Some(a) => format!("go: '{w} {a}': not a number; skipped"),
                        None => format!("go: '{w}' needs a number; skipped"),
                    });
                    i += arg.is_some() as usize;
                    continue;
                };
                i += 1;
                let mut clamp = |lo: i64, hi: i64, why: &str| {
                    let c = v.clamp(lo, hi);
                    if c != v {
                        g.notes.push(format!("go: {w} {a} clamped to {c} ({why})"));
                    }
                    c
                };
                let max = crate::session::MAX_DEPTH as i64;
                match w {
                    "depth" => {
                        g.depth = Some(clamp(1, max, "the firmware searches 1 to 8 plies") as u8)
                    }
                    "movetime" => g.movetime = Some(clamp(0, i64::MAX, "a time") as u64),
                    "wtime" => g.wtime = Some(v),
                    "btime" => g.btime = Some(v),
                    "winc" => g.winc = Some(clamp(0, i64::MAX, "an increment")),
                    "binc" => g.binc = Some(clamp(0, i64::MAX, "an increment")),
                    "movestogo" => {
                        g.movestogo = Some(clamp(0, 255, "moves to the next control") as u32)
                    }
                    "nodes" => g.nodes = Some(clamp(1, i64::MAX, "a node count") as u64),
                    _ => g.mate = Some(clamp(1, 255, "moves to mate") as u32),
                }
            }
            other => g.notes.push(format!("go: unknown token '{other}' skipped")),
        }
    }
    g
}

/// Parse one line of UCI into a command; never panics.
pub fn parse(line: &str) -> Result<UciCommand, UciError> {
    if crate::play::not_utf8(line) {
        return Err(UciError::NotUtf8(line.chars().take(60).collect()));
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = tokens.split_first() else {
        return Ok(UciCommand::Empty);
    };
    Ok(match cmd {
        "uci" => UciCommand::Uci,
        "isready" => UciCommand::IsReady,
        "debug" | "register" => UciCommand::Ignored,
        "ponderhit" => UciCommand::PonderHit,
        "stop" => UciCommand::Stop,
        "quit" => UciCommand::Quit,
        "ucinewgame" => UciCommand::UciNewGame,
        "setoption" => {
            let text = args.join(" ");
            let rest = text
                .strip_prefix("name ")
                .ok_or(UciError::SetOptionSyntax)?;
            let (name, value) = match rest.split_once(" value ") {
                Some((n, v)) => (n.trim(), v.trim()),
                None => (rest.trim(), ""),
            };
            UciCommand::SetOption {
                name: name.to_string(),
                value: value.to_string(),
            }
        }
        "position" => {
            let (base, rest) = match args.first() {
                Some(&"startpos") => (Base::Start, &args[1..]),
                Some(&"fen") => {
                    let n = args[1..]
                        .iter()
                        .position(|t| *t == "moves")
                        .unwrap_or(args.len() - 1);
                    (Base::Fen(args[1..1 + n].join(" ")), &args[1 + n..])
                }
                _ => return Err(UciError::PositionBase),
            };
            let moves = match rest.split_first() {
                None => Vec::new(),
                Some((&"moves", ms)) => ms.iter().map(|s| s.to_string()).collect(),
                Some((t, _)) => return Err(UciError::PositionMoves(t.to_string())),
            };
            UciCommand::Position { base, moves }
        }
        "go" => UciCommand::Go(parse_go(args)),
        other => return Err(UciError::UnknownCommand(other.chars().take(40).collect())),
    })
}

impl Go {
    /// The clock of `side`: (time left, increment) in milliseconds, if `go` gave one (a
    /// negative time counts as none left).
    pub fn clock(&self, side: Color) -> Option<(u64, u64)> {
        let (t, inc) = match side {
            Color::White => (self.wtime?, self.winc.unwrap_or(0)),
            Color::Black => (self.btime?, self.binc.unwrap_or(0)),
        };
        Some((t.max(0) as u64, inc.max(0) as u64))
    }

    /// What `go` says about time for `side` (a search to be ended by `stop` has none).
    pub fn time_control(&self, side: Color) -> TimeControl {
        if let Some(ms) = self.movetime {
            return TimeControl::MoveTime(Duration::from_millis(ms));
        }
        match self.clock(side) {
            Some((t, inc)) => TimeControl::Clock {
                left: Duration::from_millis(t),
                inc: Duration::from_millis(inc),
                moves_to_go: self.movestogo.unwrap_or(0),
            },
            None => TimeControl::Unlimited,
        }
    }
}
