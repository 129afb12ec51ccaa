#![doc = include_str!("README.md")]

pub mod endgame_test;
pub mod generate;
pub mod kpk_bitbase;
pub mod layout;
pub mod men;
pub mod stockfish;
pub mod store;
pub mod verdict;

use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

pub use layout::Layout;
pub use store::{Store, Table};

/// The byte of an index that names no legal position (or not its canonical index).
pub const ILLEGAL: u8 = 255;

/// What a table measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Distance to mate (plies), win/draw/loss: the rules of chess.
    Dtm,
    /// Lüscher's: plies to mate or to any promotion; a promotion is the win.
    Pawn,
}

impl Metric {
    pub fn suffix(self) -> &'static str {
        match self {
            Metric::Dtm => "dtm",
            Metric::Pawn => "pawn",
        }
    }
}

/// A position's value for the side to move; distances in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    Draw,
    /// Mates (or promotes, in the pawn metric) in this many plies (odd).
    Win(u8),
    /// Is mated (or the opponent promotes) in this many plies (even; 0: mated now).
    Loss(u8),
}

impl Val {
    /// The stored byte: 0 draw, plies + 1 otherwise.
    pub fn byte(self) -> u8 {
        match self {
            Val::Draw => 0,
            Val::Win(d) | Val::Loss(d) => d + 1,
        }
    }
    /// The value a stored byte means (`None`: illegal).
    pub fn of_byte(b: u8) -> Option<Val> {
        match b {
            0 => Some(Val::Draw),
            ILLEGAL => None,
            b => {
                let d = b - 1;
                Some(if d % 2 == 1 {
                    Val::Win(d)
                } else {
                    Val::Loss(d)
                })
            }
        }
    }
    /// The value of the position before a move into a position of value `self`.
    pub fn before(self) -> Val {
        match self {
            Val::Draw => Val::Draw,
            Val::Win(d) => Val::Loss(d + 1),
            Val::Loss(d) => Val::Win(d + 1),
        }
    }
    /// Ordering for the side to move: larger is better (short wins, draws, long losses).
    pub fn rank(self) -> i32 {
        match self {
            Val::Win(d) => 1000 - d as i32,
            Val::Draw => 0,
            Val::Loss(d) => -1000 + d as i32,
        }
    }
    /// Moves (not plies) to the end, for wins and losses.
    pub fn moves(self) -> Option<u32> {
        match self {
            Val::Draw => None,
            Val::Win(d) => Some((d as u32).div_ceil(2)),
            Val::Loss(d) => Some(d as u32 / 2),
        }
    }
    /// The same verdict for the other side (not to move): a win for one is a loss for the other.
    pub fn before_turn(self) -> Val {
        match self {
            Val::Draw => Val::Draw,
            Val::Win(d) => Val::Loss(d),
            Val::Loss(d) => Val::Win(d),
        }
    }
    pub fn is_win(self) -> bool {
        matches!(self, Val::Win(_))
    }
    pub fn is_loss(self) -> bool {
        matches!(self, Val::Loss(_))
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Draw => write!(f, "draw"),
            Val::Win(d) => write!(f, "win in {} ({d} plies)", d.div_ceil(2)),
            Val::Loss(0) => write!(f, "mated"),
            Val::Loss(d) => write!(f, "loss in {} ({d} plies)", d / 2),
        }
    }
}

/// What went wrong, named.
#[derive(Debug, Error)]
pub enum TablebaseError {
    #[error("bad ending name '{name}': {why}")]
    BadName { name: String, why: String },
    #[error("bad FEN '{fen}': {why}")]
    BadFen { fen: String, why: String },
    #[error("{0}")]
    Position(String),
    #[error("no table for {name} in {dir} (build it with `z80chess tablebase build {name}`)")]
    Missing { name: String, dir: PathBuf },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Out(#[from] crate::outfile::OutFileError),
    #[error(
        "{path} is not a table for {name}: {why}; it is not used (rebuild it with `{rebuild}`)"
    )]
    Corrupt {
        path: PathBuf,
        name: String,
        why: String,
        /// The command that builds it again.
        rebuild: String,
    },
    #[error("{name}: distance to mate beyond 253 plies")]
    TooDeep { name: String },
    #[error("{0}")]
    Firmware(#[from] crate::firmware::FirmwareError),
    #[error("{0}")]
    Params(#[from] crate::firmware::params::ParamError),
    #[error("stockfish: {0}")]
    Stockfish(String),
    #[error("{0}")]
    Usage(String),
}

/// Worker threads for the generator (all cores, overridable with `Z80CHESS_THREADS`).
pub fn threads() -> usize {
    std::env::var("Z80CHESS_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
}

/// Run `f` over `0..n` in chunks on all threads.
pub(crate) fn par_for(n: usize, f: impl Fn(std::ops::Range<usize>) + Sync) {
    let t = threads();
    if t == 1 || n < 4096 {
        f(0..n);
        return;
    }
    let chunk = 1 << 14;
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..t {
            s.spawn(|| loop {
                let a = next.fetch_add(chunk, std::sync::atomic::Ordering::Relaxed);
                if a >= n {
                    break;
                }
                f(a..(a + chunk).min(n));
            });
        }
    });
}
