//! The instruments and the commands around them: the debugger (transcripts, reverse execution, full
//! screen, fuzzing), profile, regress, tune, parameter files, exit codes, hostile files and
//! progress.
//!
//! One test binary for this layer: each file beside this one is a module, as it would be a
//! test file of its own; helpers shared by every group live in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod closed_pipe;
mod command_lines;
mod debug;
mod debug_fuzz;
mod debug_parse_fuzz;
mod debug_reverse;
mod debug_tui;
mod exit_codes;
mod help;
mod hostile_files;
mod params_cli;
mod params_fuzz;
mod profile;
mod progress;
mod regress;
mod safe_writes;
mod tune;
