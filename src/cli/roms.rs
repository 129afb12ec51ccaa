//! `z80chess roms [--check]`: [`crate::firmware::rom::build_roms`], its lines printed.

use std::path::Path;

pub fn cli(root: &Path, check: bool) -> Result<(), String> {
    let (report, done) = crate::firmware::rom::build_roms(root, check);
    for line in report {
        println!("{line}");
    }
    done.map_err(|e| e.to_string())
}
