//! Our DTM tables for the tests: built once per test binary, into one scratch folder, behind one
//! lock.
//!
//! A test names the tables it reads and gets a store of its own over that folder with them (and
//! the sub-endings they need) loaded. The lock is held only while a table is built, so tests
//! that probe the same tables run side by side, and no table is built twice in one run.
//!
//! The folder is emptied when a binary first asks for a table, so every run builds its tables
//! (the build is under test too); set `KEEP_TEST_TABLES=1` to keep and reuse them while
//! working on the tests.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use z80chess::tablebase::{Metric, Store};

/// The folder every test table of this binary lives in: one per table format and generator,
/// so a kept table of another version is never met there.
pub fn dir() -> PathBuf {
    use z80chess::tablebase::store::{FORMAT, GENERATOR};
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dtm-tables-{FORMAT}-{GENERATOR}"))
}

fn builder() -> &'static Mutex<Store> {
    static S: OnceLock<Mutex<Store>> = OnceLock::new();
    S.get_or_init(|| {
        let d = dir();
        if std::env::var_os("KEEP_TEST_TABLES").is_none() {
            let _ = std::fs::remove_dir_all(&d);
        }
        Mutex::new(Store::new(d, Metric::Dtm))
    })
}

/// A store of the caller's own over the shared folder, with `names` (any spelling the
/// tablebase reads: "KPK", "KBNK") built if this binary has not built them yet, then loaded.
pub fn dtm(names: &[&str]) -> Store {
    {
        let mut b = builder().lock().unwrap_or_else(|e| e.into_inner());
        for n in names {
            b.table(n)
                .unwrap_or_else(|e| panic!("building the test table {n}: {e}"));
        }
    }
    let mut s = Store::new(dir(), Metric::Dtm);
    for n in names {
        s.open(n)
            .unwrap_or_else(|e| panic!("loading the test table {n}: {e}"))
            .unwrap_or_else(|| panic!("the test table {n} was built but is not in {:?}", dir()));
    }
    s
}
