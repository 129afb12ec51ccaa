//! The full build's knowledge and search craft: the Cray Blitz terms, lazy and staged evaluation,
//! move ordering, the pawn hash, the principal variation, quiescence, the search craft, and the
//! full machine as a whole.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod breakpoints;
mod ceval;
mod full;
mod knowledge;
mod lazy;
mod ordering;
mod pawn_hash;
mod pv;
mod quies;
mod search_craft;
