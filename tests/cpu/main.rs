//! The CPU and the machine: FUSE, SingleStepTests, the instruction table against the core,
//! interrupts, the ALU, the batch executor against the step path, the z80emu differential,
//! zexdoc/zexall, CP/M, banking and the grown machine.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../benches/support/exerciser.rs"]
mod exerciser;
#[path = "../../benches/support/z80emu_host.rs"]
mod z80emu_host;

mod alu_proptest;
mod banking;
mod bus_equivalence;
mod cpm;
mod fuse;
mod grown_machine;
mod interrupts;
mod isa;
mod sst;
mod z80emu_diff;
mod zex;
