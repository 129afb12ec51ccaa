//! z80chess: a cycle-exact Z80 computer, its toolchain, and the instruments around
//! a Sargon-style chess program that runs on it.

pub mod asm;
pub mod chess;
pub mod cli;
pub mod cpm;
pub mod debug;
pub mod disasm;
pub mod firmware;
pub mod luscher;
pub mod machine;
pub mod matchplay;
pub mod outfile;
pub mod play;
pub mod profile;
pub mod reference;
pub mod session;
pub mod tablebase;
pub mod userfile;
pub mod z80;
