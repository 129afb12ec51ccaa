//! The standard CP/M instruction exercisers, zexdoc and zexall (Frank Cringle, 1994), run
//! unchanged on the CP/M runner. They come in the package of the `rz80` crate (a
//! dev-dependency kept only for these two files), which cargo fetches into its registry.
//! zexall checks every flag bit, undocumented ones included; zexdoc only the documented ones.
//! Each is about 46 billion T-states.

use std::path::PathBuf;
use z80chess::cpm::{run, CpmExit};

fn exerciser(name: &str) -> Vec<u8> {
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

fn check(name: &str) {
    let program = exerciser(name);
    let mut out = Vec::new();
    let r = run(&program, Some(60_000_000_000), &mut out).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = String::from_utf8_lossy(&out);
    let oks = text.matches("OK").count();
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("ERROR")).collect();
    println!(
        "{name}: {oks} tests OK, {} failed, {} T-states, exit {:?}",
        errors.len(),
        r.tstates,
        r.exit
    );
    assert_eq!(
        r.exit,
        CpmExit::WarmBoot,
        "{name} did not end normally:\n{text}"
    );
    assert!(text.contains("Tests complete"), "{name}:\n{text}");
    assert!(errors.is_empty(), "{name} failures:\n{}", errors.join("\n"));
    assert_eq!(oks, 67, "{name}: expected its 67 tests:\n{text}");
}

#[test]
fn zexdoc() {
    check("zexdoc.com");
}

#[test]
fn zexall() {
    check("zexall.com");
}
