//! The CP/M runner. (being written)
use std::path::Path;

/// `z80chess cpm`.
pub fn cli(_program: &Path, _max_cycles: Option<u64>) -> Result<(), String> {
    Err("the CP/M runner is not written yet".into())
}
