//! Helpers shared by the test groups (each group's `main.rs` includes this module). Not every
//! group uses every helper, hence `dead_code` allowed here.
#![allow(dead_code)]

pub mod bus;
pub mod child;
pub mod fuzz_support;
pub mod kbnk_play;
pub mod paged_call;
pub mod playouts;
pub mod tables;
pub mod terms;
