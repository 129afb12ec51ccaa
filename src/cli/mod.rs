#![doc = include_str!("README.md")]
pub mod perft;
pub mod search;
pub mod xchng;
