//! placeholder
use super::store::{Store, Table};
use super::TablebaseError;
use std::path::Path;
pub fn compare(
    _s: &Store,
    _t: &Table,
    _n: usize,
    _nodes: u64,
    _sf: &Path,
    _seed: u64,
) -> Result<(), TablebaseError> {
    Ok(())
}
