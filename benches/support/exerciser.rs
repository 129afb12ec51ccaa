//! The CP/M instruction exercisers (zexdoc, zexall: Frank Cringle, GPL) as the `rz80` package
//! ships them, from cargo's registry. Shared by `tests/cpu/zex.rs` and `benches/zexrace.rs`.

use std::path::PathBuf;

/// The bytes of `name` (`zexdoc.com`, `zexall.com`).
pub fn exerciser(name: &str) -> Vec<u8> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("neither CARGO_HOME nor HOME is set");
    let src = home.join("registry").join("src");
    let found = std::fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("{}: {e} (run `cargo fetch`)", src.display()))
        .filter_map(|d| d.ok())
        .map(|d| d.path().join("rz80-0.1.1").join("tests").join(name))
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!(
                "{name} not found under {}/*/rz80-0.1.1/tests (run `cargo fetch`)",
                src.display()
            )
        });
    std::fs::read(&found).unwrap_or_else(|e| panic!("{}: {e}", found.display()))
}
