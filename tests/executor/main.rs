//! The batch executor against the step path and a peer: every bus the machine uses, the
//! z80emu differential, and the banked machine. Apart from `cpu` because each bus type here
//! compiles the executor once more: two binaries build side by side on two cores.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../../benches/support/z80emu_host.rs"]
mod z80emu_host;

mod banking;
mod breaks;
mod bus_equivalence;
mod z80emu_diff;
