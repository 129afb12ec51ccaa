//! The NMOS Zilog Z80. Knows nothing of the machine around it but the [`Bus`].
//!
//! - `bus`: the bus trait (machine cycles with their T-state positions) and a flat 64 KiB bus.
//! - `cpu`: the register file and interrupt state.
//! - `exec`: the interpreter, decoding each opcode by its x/y/z/p/q fields.
//! - `isa`: the instruction set as data (mnemonic templates, lengths, T-states) for the
//!   disassembler, the assembler's encoder and the listing; a test proves it agrees with `exec`.

pub mod bus;
pub mod cpu;
mod exec;
pub mod flags;
pub mod isa;

pub use bus::{Bus, FlatBus, TStates};
pub use cpu::Cpu;
pub use exec::Exit;
