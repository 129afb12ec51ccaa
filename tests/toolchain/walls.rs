//! The walls between the crate's layers, as a rule a test keeps: every `src/**/*.rs` file's
//! `crate::…` paths (and `super::` paths that climb out of its top-level module) may name only
//! the modules its row of [`ALLOWED`] lists, and the modules of [`QUIET`] use no clap and print
//! nothing. A failure names file:line and the rule crossed.
//!
//! [`ALLOWED`] is the table the README's architecture section draws; change both together.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and the top-level modules it may import.
const ALLOWED: &[(&str, &[&str])] = &[
    // The computer and its toolchain.
    ("z80", &[]),
    ("machine", &["z80"]),
    ("asm", &["z80", "userfile", "outfile"]),
    ("disasm", &["z80", "userfile", "outfile"]),
    ("cpm", &["z80", "userfile", "outfile"]),
    ("userfile", &[]),
    ("outfile", &[]),
    // The chess vocabulary on the firmware's encoding.
    ("chess", &[]),
    // The engine API.
    (
        "firmware",
        &[
            "machine", "z80", "asm", "disasm", "chess", "userfile", "outfile",
        ],
    ),
    // The models: no front end.
    ("reference", MODELS),
    ("tablebase", MODELS),
    ("luscher", MODELS),
    // The session every front end shares: the engine and files, no front end.
    (
        "session",
        &["firmware", "machine", "z80", "chess", "userfile", "outfile"],
    ),
    // Front ends: the session and what lies under it.
    ("play", FRONT),
    ("matchplay", FRONT),
    // Instruments.
    ("debug", INSTRUMENTS),
    ("profile", INSTRUMENTS),
    // Every command: anything.
    ("cli", ALL),
];

/// What a model (reference, tablebase, luscher) may import.
const MODELS: &[&str] = &[
    "firmware",
    "chess",
    "machine",
    "z80",
    "userfile",
    "outfile",
    "reference",
    "tablebase",
    "luscher",
];

/// What a front end (the play modes and protocols, `match`) may import: the session and the
/// layers under it (the tablebase for `play`'s hint), never a command or an instrument.
const FRONT: &[&str] = &[
    "session",
    "firmware",
    "machine",
    "z80",
    "chess",
    "userfile",
    "outfile",
    "tablebase",
    "play",
    "matchplay",
];

/// What an instrument (debugger, profiler) may import: the machine, the toolchain, the engine
/// API and the session's loaders; no front end, no command.
const INSTRUMENTS: &[&str] = &[
    "z80", "machine", "asm", "disasm", "userfile", "outfile", "chess", "firmware", "session",
    "debug", "profile",
];

/// `src/cli/` and `main.rs`: every layer.
const ALL: &[&str] = &[
    "z80",
    "machine",
    "asm",
    "disasm",
    "cpm",
    "userfile",
    "outfile",
    "chess",
    "firmware",
    "reference",
    "tablebase",
    "luscher",
    "session",
    "cli",
    "play",
    "matchplay",
    "debug",
    "profile",
];

/// Modules that use no clap and print nothing (their callers print). The toolchain (`asm`,
/// `disasm`) and `cpm` still hold their commands' printing: theirs to quieten.
const QUIET: &[&str] = &["z80", "machine", "userfile", "outfile", "chess", "firmware"];

/// Modules that use no clap, except in the command files of [`COMMAND_FILES`].
const NO_CLAP: &[&str] = &["reference", "tablebase", "luscher"];

/// Commands still inside a model (the lead moves them to `src/cli/`).
const COMMAND_FILES: &[&str] = &["src/tablebase/endgame_test.rs"];

/// What clap and printing look like in code (comments and strings blanked).
const LOUD: &[&str] = &[
    "clap::",
    "println!",
    "eprintln!",
    "print!",
    "eprint!",
    "dbg!",
    "stdout(",
    "stderr(",
];

/// The text of a file with comments, string and character literals blanked (each replaced by
/// spaces, newlines kept), so that only code is searched.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && at(&c, i + 1) == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && at(&c, i + 1) == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(&c, i + 1) == Some('*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && at(&c, i + 1) == Some('/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r' && matches!(at(&c, i + 1), Some('#' | '"')) && !ident_char(&c, i) {
            // A raw string r"..", r#".."#.
            let mut hashes = 0;
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() {
                if c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &c[i..j.min(c.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c[i] == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                let n = if c[i] == '\\' { 2 } else { 1 };
                for k in 0..n {
                    if let Some(&ch) = c.get(i + k) {
                        out.push(blank(ch));
                    }
                }
                i += n;
            }
            out.push(' ');
            i += 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a) left as it is.
            let end = if at(&c, i + 1) == Some('\\') {
                (i + 2..c.len()).find(|&j| c[j] == '\'')
            } else if at(&c, i + 2) == Some('\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for _ in i..=e {
                        out.push(' ');
                    }
                    i = e + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn at(c: &[char], j: usize) -> Option<char> {
    c.get(j).copied()
}

fn ident_char(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// The identifier starting at byte `at` of `s`.
fn ident_at(s: &str, at: usize) -> &str {
    let end = s[at..]
        .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
        .map_or(s.len(), |e| at + e);
    &s[at..end]
}

/// The top-level modules named by a `crate::{a::x, b}` group starting after its `{`.
fn group_modules(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut expect_ident = true;
    for (k, ch) in s.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => expect_ident = true,
            ch if expect_ident && depth == 0 && (ch.is_alphabetic() || ch == '_') => {
                out.push(ident_at(s, k).to_string());
                expect_ident = false;
            }
            _ => {}
        }
    }
    out
}

/// The top-level module of a file under `src/`, and how deep the file's module is
/// (`src/x.rs`, `src/x/mod.rs`: 1; `src/x/y.rs`: 2; ..). None for the crate root and `main.rs`.
fn module_of(rel: &Path) -> Option<(String, usize)> {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let top = parts.first()?.trim_end_matches(".rs").to_string();
    if top == "lib" || top == "main" {
        return None;
    }
    let depth = if parts.last().is_some_and(|l| l == "mod.rs") {
        parts.len() - 1
    } else {
        parts.len()
    };
    Some((top, depth))
}

/// Every way `file` (path relative to `src/`, contents `text`) crosses the walls.
fn violations(rel: &Path, text: &str) -> Vec<String> {
    let Some((module, file_depth)) = module_of(rel) else {
        return Vec::new();
    };
    let shown = Path::new("src").join(rel);
    let Some(&(_, allowed)) = ALLOWED.iter().find(|(m, _)| *m == module) else {
        return vec![format!(
            "{}: module '{module}' has no row in tests/toolchain/walls.rs ALLOWED (and the README's \
             architecture table)",
            shown.display()
        )];
    };
    let quiet = QUIET.contains(&module.as_str());
    let no_clap = quiet
        || (NO_CLAP.contains(&module.as_str())
            && !COMMAND_FILES.iter().any(|f| Path::new(f) == shown));
    let mut out = Vec::new();
    let code = code_only(text);
    // Inline modules (`mod tests { .. }`) deepen `super::`; tracked by brace depth.
    let mut braces = 0usize;
    let mut inline: Vec<usize> = Vec::new();
    let mut pending_mod = false;
    for (n, line) in code.lines().enumerate() {
        let at = format!("{}:{}", shown.display(), n + 1);
        let mut named: Vec<String> = Vec::new();
        let mut i = 0;
        while i < line.len() {
            let rest = &line[i..];
            let boundary = i == 0
                || !line[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|p| p.is_alphanumeric() || p == '_' || p == '$');
            if boundary && rest.starts_with("crate::") {
                let after = i + "crate::".len();
                if line[after..].starts_with('{') {
                    named.extend(group_modules(&line[after + 1..]));
                } else {
                    named.push(ident_at(line, after).to_string());
                }
                i = after;
                continue;
            }
            if boundary && rest.starts_with("super::") {
                let mut k = 0;
                let mut j = i;
                while line[j..].starts_with("super::") {
                    k += 1;
                    j += "super::".len();
                }
                let depth = file_depth + inline.len();
                if k >= depth {
                    // Climbs to the crate root: the next name is a top-level module.
                    named.push(ident_at(line, j).to_string());
                }
                i = j;
                continue;
            }
            if boundary && rest.starts_with("mod ") {
                pending_mod = true;
            }
            match rest.chars().next() {
                Some('{') => {
                    braces += 1;
                    if pending_mod {
                        inline.push(braces);
                        pending_mod = false;
                    }
                }
                Some('}') => {
                    if inline.last() == Some(&braces) {
                        inline.pop();
                    }
                    braces = braces.saturating_sub(1);
                }
                Some(';') => pending_mod = false,
                _ => {}
            }
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
        for m in named {
            if m.is_empty() || m == module || m == "self" || m == "super" {
                continue;
            }
            let known = ALLOWED.iter().any(|(top, _)| *top == m);
            if known && !allowed.contains(&m.as_str()) {
                out.push(format!(
                    "{at}: '{module}' imports '{m}', which its row of ALLOWED does not list \
                     ({})",
                    allowed.join(", ")
                ));
            }
        }
        for word in LOUD {
            let clap = *word == "clap::";
            if (clap && no_clap) || (!clap && quiet) {
                let found = line.match_indices(word).any(|(k, _)| {
                    k == 0
                        || !line[..k]
                            .chars()
                            .next_back()
                            .is_some_and(|p| p.is_alphanumeric() || p == '_')
                });
                if found {
                    out.push(format!(
                        "{at}: '{module}' {} ('{word}')",
                        if clap { "uses clap" } else { "prints" }
                    ));
                }
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_module_crosses_the_table_of_allowed_imports() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "only {} files under src/", files.len());
    let mut per_module: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src/");
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if let Some((m, _)) = module_of(rel) {
            *per_module.entry(m).or_default() += 1;
        }
        all.extend(violations(rel, &text));
    }
    for must in [
        "z80",
        "machine",
        "chess",
        "firmware",
        "reference",
        "tablebase",
    ] {
        assert!(
            per_module.contains_key(must),
            "no src/{must}: {per_module:?}"
        );
    }
    assert!(
        all.is_empty(),
        "{} crossing(s):\n{}",
        all.len(),
        all.join("\n")
    );
}

/// The checker sees what it must: a forbidden import (plain, grouped, through `super::`),
/// printing and clap where they are banned; and not what it must not (comments, strings,
/// a test module's `super::`).
#[test]
fn the_checker_can_fail() {
    let bad = "use crate::play::Game;\n\
               use crate::{machine::Machine, matchplay::X};\n\
               fn f() { println!(\"hi\"); let _ = clap::Command::new(\"x\"); }\n";
    let v = violations(Path::new("firmware/eval.rs"), bad);
    assert_eq!(v.len(), 4, "{v:#?}");
    assert!(v[0].starts_with("src/firmware/eval.rs:1: 'firmware' imports 'play'"));
    assert!(
        v[1].contains(":2: 'firmware' imports 'matchplay'"),
        "{}",
        v[1]
    );
    assert!(v.iter().any(|s| s.contains(":3: 'firmware' prints")));
    assert!(v.iter().any(|s| s.contains(":3: 'firmware' uses clap")));
    // `super::` out of a top-level module's root file is the crate root.
    let v = violations(Path::new("chess/mod.rs"), "use super::firmware::Build;\n");
    assert_eq!(v.len(), 1, "{v:#?}");
    let v = violations(
        Path::new("z80/cpu.rs"),
        "fn f() {}\nmod tests {\n    use super::super::super::machine::X;\n}\n",
    );
    assert_eq!(v.len(), 1, "{v:#?}");
    // Not code: comments, strings, characters; and `super::` staying inside the module.
    let fine = "// use crate::play::X;\n\
                /* crate::debug */ const S: &str = \"crate::play println!\";\n\
                const C: char = '{';\n\
                mod tests { use super::super::board::X; }\n\
                use crate::machine::Machine;\n";
    let v = violations(Path::new("firmware/eval.rs"), fine);
    assert!(v.is_empty(), "{v:#?}");
    // A module without a row fails by name.
    let v = violations(Path::new("newthing/mod.rs"), "");
    assert!(v[0].contains("module 'newthing' has no row"), "{v:?}");
}
