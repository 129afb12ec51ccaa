//! The CPU against the references: FUSE, SingleStepTests, the instruction table against the
//! core, interrupts, the ALU, zexdoc/zexall, CP/M and the grown machine.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../benches/support/exerciser.rs"]
mod exerciser;

mod alu_proptest;
mod cpm;
mod fuse;
mod grown_machine;
mod interrupts;
mod isa;
mod sst;
mod zex;
