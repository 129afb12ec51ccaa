//! Lüscher's generated evaluation (issue #15, the host side): atomic features per man,
//! configurations of one piece type's features, weights fitted by conjugate gradients to our
//! own tablebases (Matthias Lüscher, "Automatic Generation of an Evaluation Function for Chess
//! Endgames", ETH Zürich 2000; `../shared/seeds/004_...`).
//!
//! - [`features`]: the 32-bit vector of each man, every bit documented;
//! - [`configs`]: configurations and their jump table;
//! - [`cg`]: conjugate gradients with Jacobi preconditioning;
//! - [`fit`]: training data from a table, the fit, the paper's statistics, the model file;
//! - [`export`]: the quantised models as generated Z80 assembly;
//! - [`quant`]: the weights as the Z80 module's signed 16-bit words, and the engine scale;
//! - [`cli`]: `luscher fit NAME`, `luscher eval --fen F` and `luscher export`.

pub mod cg;

pub mod configs;
pub mod export;
pub mod features;
pub mod fit;
pub mod quant;

use std::path::PathBuf;
use thiserror::Error;

/// What went wrong, named.
#[derive(Debug, Error)]
pub enum LuscherError {
    #[error("{0}")]
    Tablebase(#[from] crate::tablebase::TablebaseError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a Lüscher model: {why}")]
    BadModel { path: PathBuf, why: String },
    #[error("no fitted model for {name} at {path} (run `z80chess luscher fit {name}` first)")]
    NoModel { name: String, path: PathBuf },
    #[error("bad option: {0}")]
    Usage(String),
    #[error("{name}: {what} does not fit a signed 16-bit word at 64 units a half-move")]
    Range { name: String, what: String },
    #[error("{name}: no training positions (train share {share})")]
    Empty { name: String, share: f64 },
}
