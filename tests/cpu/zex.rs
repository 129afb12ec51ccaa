//! The standard CP/M instruction exercisers, zexdoc and zexall (Frank Cringle, 1994), run
//! unchanged on the CP/M runner. They come in the package of the `rz80` crate (a
//! dev-dependency kept only for these two files), which cargo fetches into its registry.
//! zexall checks every flag bit, undocumented ones included; zexdoc only the documented ones.
//! Each is about 46 billion T-states.

use crate::exerciser;
use exerciser::exerciser;
use z80chess::cpm::{run, CpmExit};

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
