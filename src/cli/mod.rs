//! Front-end commands that need more than a line in `main.rs`.
pub mod perft;
pub mod search;
pub mod xchng;
