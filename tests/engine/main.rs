//! The chess engine in Z80 against the references: the firmware against shakmaty, perft,
//! XCHNG/ATTACK against the models and the SEE suite, the 1978 test positions and in-game
//! decisions, search, searchmoves, draws, the bench signature, measurements, and the FEN and PGN
//! readers' fuzzing.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod draws;
mod fen_fuzz;
mod firmware;
mod ingame;
mod measure;
mod perft;
mod pgn_fuzz;
mod search;
mod searchmoves;
mod signature;
mod xchng;
