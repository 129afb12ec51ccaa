//! `z80chess help COMMAND` describes every flag and argument of every command and
//! subcommand: no entry is a bare name.

use std::process::Command;

fn help(path: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(path)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{path:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The names listed under `Commands:`.
fn commands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect()
}

/// The entries of the `Arguments:` and `Options:` sections with no description.
fn bare(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut in_list = false;
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("Arguments:") || l.starts_with("Options:") {
            in_list = true;
            continue;
        }
        if !l.starts_with(' ') {
            in_list = false;
        }
        let t = l.trim_start();
        let indent = l.len() - t.len();
        // Entries stand at most 6 columns in ("  -x", "      --fen"); deeper lines describe.
        if !in_list
            || indent > 6
            || !(t.starts_with('-') || t.starts_with('<') || t.starts_with('['))
        {
            continue;
        }
        let same_line = t.contains("  ");
        let next_line = lines
            .get(i + 1)
            .is_some_and(|n| n.len() - n.trim_start().len() > indent && !n.trim().is_empty());
        if !(same_line || next_line) {
            out.push(t.to_string());
        }
    }
    out
}

#[test]
fn every_flag_and_argument_has_a_description() {
    let mut missing = Vec::new();
    for c in commands(&help(&[])) {
        let text = help(&[&c]);
        for e in bare(&text) {
            missing.push(format!("{c}: {e}"));
        }
        for sub in commands(&text) {
            for e in bare(&help(&[&c, &sub])) {
                missing.push(format!("{c} {sub}: {e}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "entries without a description: {missing:#?}"
    );
}
