//! The toolchain and the source's own rules: assembler cases, its command line, fuzzing, the peer
//! check against Debian's z80asm, the routine headers, the disassembler round trip, and the layer
//! walls of `src/`.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod asm_cases;
mod asm_cli;
mod asm_fuzz;
mod asm_headers;
mod asm_peer;
mod disasm_roundtrip;
mod layout;
mod walls;
