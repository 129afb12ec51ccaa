#![doc = include_str!("README.md")]

pub mod cg;

pub mod configs;
pub mod export;
pub mod features;
pub mod fit;
pub mod kbnk;
pub mod kbnk_fit;
pub mod kbnk_tables;
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
    #[error("{0}")]
    Out(#[from] crate::outfile::OutFileError),
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
