//! Front-end commands that need more than a line in `main.rs`.
pub mod build;
pub mod perft;
pub mod roms;
pub mod search;
pub mod tune;
pub mod xchng;
