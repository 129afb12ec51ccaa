#![doc = include_str!("README.md")]

pub mod calls;
pub mod commands;
pub mod engine;
pub mod expr;
pub mod program;
pub mod repl;
pub mod tui;
pub mod views;

pub use commands::{Layout, Session, Start};

use crate::firmware::Build;
use std::path::PathBuf;

/// `z80chess debug` options.
#[derive(clap::Args, Debug, Clone)]
pub struct DebugArgs {
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// Start from this position (sent with the firmware's set-up command).
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// Start after these moves from the initial position (UCI or SAN, space-separated).
    #[arg(long)]
    pub moves: Option<String>,
    /// Run the commands in this file first.
    #[arg(short = 'x', value_name = "SCRIPT")]
    pub script: Option<PathBuf>,
    /// Exit after the script (no prompt); the exit status is 1 if a command failed.
    #[arg(long)]
    pub batch: bool,
    /// Start in the full-screen mode.
    #[arg(long)]
    pub tui: bool,
    /// Debug this assembly source instead of a firmware build (it is assembled and loaded
    /// at 0000h; the machine starts at reset).
    #[arg(long, value_name = "SOURCE", conflicts_with_all = ["fen", "moves"])]
    pub asm: Option<PathBuf>,
    /// A parameter file for the full build, loaded through the protocol at boot.
    #[arg(long, conflicts_with = "asm")]
    pub params: Option<PathBuf>,
}

/// Run the debugger.
pub fn cli(args: &DebugArgs) -> Result<(), String> {
    repl::run(args)
}
