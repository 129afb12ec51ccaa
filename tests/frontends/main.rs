//! The front ends through the binary: UCI, xboard, JSON, the text mode and the full screen,
//! protocol fuzzing, real clients, time management and matches.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod clients;
mod matchplay;
mod multipv;
mod play_game;
mod play_text;
mod play_tui;
mod protocol_fuzz;
mod scores;
mod serve_json;
mod session_fuzz;
mod time;
mod uci;
mod uci_hardening;
mod uci_xboard;
