//! Our DTM tables for the tests: built once per test binary, into one scratch folder.
//!
//! A test names the tables it reads and gets a store of its own over that folder with them (and
//! the sub-endings they need) loaded. Each table is built once per binary behind a lock of its
//! own, so tests that probe run side by side and wait only for the tables they read.
//!
//! The folder is emptied when a binary first asks for a table, so every run builds its tables
//! (the build is under test too); set `KEEP_TEST_TABLES=1` to keep and reuse them while
//! working on the tests.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use z80chess::tablebase::{Metric, Store};

/// The folder every test table of this binary lives in: one per table format and generator,
/// so a kept table of another version is never met there.
pub fn dir() -> PathBuf {
    use z80chess::tablebase::store::{FORMAT, GENERATOR};
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dtm-tables-{FORMAT}-{GENERATOR}"))
}

/// Empties the folder once per binary (unless `KEEP_TEST_TABLES` is set).
fn cleared() {
    static CLEARED: OnceLock<()> = OnceLock::new();
    CLEARED.get_or_init(|| {
        if std::env::var_os("KEEP_TEST_TABLES").is_none() {
            let _ = std::fs::remove_dir_all(dir());
        }
    });
}

/// The once-per-binary build of one table. Each name has its own, so a test waiting for a
/// long build (KPKP) holds up only the tests that read that table. Two builds that share a
/// sub-ending may both build it: each writes a whole file and renames it into place.
fn built(name: &str) -> Arc<OnceLock<()>> {
    static CELLS: OnceLock<Mutex<HashMap<String, Arc<OnceLock<()>>>>> = OnceLock::new();
    let mut cells = CELLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    cells.entry(name.to_string()).or_default().clone()
}

/// A store of the caller's own over the shared folder, with `names` (any spelling the
/// tablebase reads: "KPK", "KBNK") built if this binary has not built them yet, then loaded.
pub fn dtm(names: &[&str]) -> Store {
    cleared();
    for n in names {
        built(n).get_or_init(|| {
            Store::new(dir(), Metric::Dtm)
                .table(n)
                .unwrap_or_else(|e| panic!("building the test table {n}: {e}"));
        });
    }
    let mut s = Store::new(dir(), Metric::Dtm);
    for n in names {
        s.open(n)
            .unwrap_or_else(|e| panic!("loading the test table {n}: {e}"))
            .unwrap_or_else(|| panic!("the test table {n} was built but is not in {:?}", dir()));
    }
    s
}
