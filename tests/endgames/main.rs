//! Endgames: the king-and-pawn module and RACE, our tablebases, KPK/KBNK/KBBK in Z80, the KBNK fit,
//! and Lüscher's module on the host and in Z80.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod endgame;
mod kbbk;
mod kbnk;
mod kbnk_fit;
mod kpkbase;
mod luscher;
mod luscher_z80;
mod race;
mod tablebase;
