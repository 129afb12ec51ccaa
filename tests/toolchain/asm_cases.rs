//! Data-driven assembler tests: every `tests/asm/*.asm` with its expectations inline
//! (see `tests/asm/README.md`). One test runs them all and reports each file, so a failure
//! names the file and line; the counts are printed at the end.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use z80chess::asm::{assemble_file, Assembly};

#[derive(Default)]
struct Expect {
    /// line -> bytes
    bytes: BTreeMap<u32, Vec<u8>>,
    /// (file relative to tests/asm, line) -> message fragments
    errors: BTreeMap<(String, u32), Vec<String>>,
    defines: Vec<(String, i64)>,
    /// line -> its references in the cross-reference, each `NAME OP ROUTINE`
    xref: BTreeMap<u32, BTreeSet<String>>,
    /// line (a routine's label) -> the routines it calls
    calls: BTreeMap<u32, BTreeSet<String>>,
}

/// A comma-separated list of an expectation, `-` for none.
fn list(s: &str) -> BTreeSet<String> {
    s.split(',')
        .map(|w| w.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|w| !w.is_empty() && w != "-")
        .collect()
}

fn parse_hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map_while(|w| {
            if w.len() == 2 {
                u8::from_str_radix(w, 16).ok()
            } else {
                None
            }
        })
        .collect()
}

fn expectations(path: &Path, name: &str) -> Result<Expect, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let mut ex = Expect::default();
    for (k, line) in text.lines().enumerate() {
        let n = k as u32 + 1;
        if let Some(d) = line.strip_prefix(";; -D ") {
            let (name, v) = z80chess::asm::parse_define(d.trim()).map_err(|e| e.to_string())?;
            ex.defines.push((name, v));
            continue;
        }
        // The comment: the first ';' outside quotes.
        let mut quote = None;
        let mut comment = None;
        for (i, c) in line.char_indices() {
            match (quote, c) {
                (None, '\'' | '"') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, ';') => {
                    comment = Some(&line[i + 1..]);
                    break;
                }
                _ => {}
            }
        }
        let Some(comment) = comment else { continue };
        let comment = comment.trim();
        let (comment, more) = match comment.split_once(" xref:") {
            Some((c, x)) => (c.trim(), Some(x)),
            None => match comment.strip_prefix("xref:") {
                Some(x) => ("", Some(x)),
                None => (comment, None),
            },
        };
        if let Some(x) = more {
            ex.xref.insert(n, list(x));
        }
        if let Some(c) = comment.strip_prefix("calls:") {
            ex.calls.insert(n, list(c));
        } else if let Some(b) = comment.strip_prefix("=>") {
            ex.bytes.insert(n, parse_hex_bytes(b));
        } else if let Some(msg) = comment.strip_prefix("error:") {
            ex.errors
                .entry((name.to_string(), n))
                .or_default()
                .push(msg.trim().to_string());
        } else if let Some(rest) = comment.strip_prefix("error(") {
            let (place, msg) = rest
                .split_once("):")
                .ok_or_else(|| format!("{name}:{n}: bad error( expectation"))?;
            let (file, l) = place
                .rsplit_once(':')
                .ok_or_else(|| format!("{name}:{n}: bad error( place"))?;
            let l: u32 = l
                .parse()
                .map_err(|_| format!("{name}:{n}: bad line in error("))?;
            ex.errors
                .entry((file.to_string(), l))
                .or_default()
                .push(msg.trim().to_string());
        }
    }
    Ok(ex)
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `xref:` and `calls:` expectations against [`Assembly::xref`] (main file only).
fn check_xref(name: &str, a: &Assembly, ex: &Expect, problems: &mut Vec<String>) {
    let x = a.xref();
    let main = &a.files[0];
    let mut got: BTreeMap<u32, BTreeSet<String>> = BTreeMap::new();
    for s in &x.symbols {
        for r in s.refs.iter().filter(|r| r.file == *main) {
            let routine = r.routine.as_deref().unwrap_or("-");
            let item = format!("{} {} {routine}", s.name, r.op);
            got.entry(r.line).or_default().insert(item);
        }
    }
    for (line, want) in &ex.xref {
        let have = got.remove(line).unwrap_or_default();
        if have != *want {
            problems.push(format!(
                "{name}:{line}: xref expected {want:?}, got {have:?}"
            ));
        }
    }
    let calls = x.calls();
    for (line, want) in &ex.calls {
        let routine = x
            .symbols
            .iter()
            .find(|s| s.routine && s.file.as_ref() == Some(main) && s.line == *line);
        match routine {
            Some(r) if calls[&r.name] == *want => {}
            Some(r) => problems.push(format!(
                "{name}:{line}: {} calls {:?}, expected {want:?}",
                r.name, calls[&r.name]
            )),
            None => problems.push(format!("{name}:{line}: no routine is defined here")),
        }
    }
}

/// Run one case; Err(description of every mismatch).
fn run_case(dir: &Path, path: &Path) -> Result<usize, String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let ex = expectations(path, &name)?;
    let defines: Vec<(&str, i64)> = ex.defines.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let result = assemble_file(path, &defines);
    let mut problems = Vec::new();
    let checks;
    if ex.errors.is_empty() {
        let a: Assembly = match result {
            Ok(a) => a,
            Err(errs) => {
                let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
                return Err(format!(
                    "{name}: expected success, got:\n    {}",
                    list.join("\n    ")
                ));
            }
        };
        checks = ex.bytes.len() + ex.xref.len() + ex.calls.len();
        check_xref(&name, &a, &ex, &mut problems);
        for (line, want) in &ex.bytes {
            let got = a.bytes_of_line(0, *line).unwrap_or(&[]);
            if got != want.as_slice() {
                problems.push(format!(
                    "{name}:{line}: expected [{}], got [{}]",
                    hex(want),
                    hex(got)
                ));
            }
        }
    } else {
        let errs = match result {
            Ok(_) => return Err(format!("{name}: expected errors, but it assembled")),
            Err(e) => e,
        };
        checks = ex.errors.values().map(|v| v.len()).sum::<usize>();
        // Group the actual errors by (file relative to the case directory, line).
        let mut got: BTreeMap<(String, u32), Vec<String>> = BTreeMap::new();
        for e in &errs {
            let text = e.to_string();
            if !text.contains(": error: ") {
                problems.push(format!("badly formatted error: {text}"));
            }
            let rel = Path::new(&e.file)
                .strip_prefix(dir)
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_else(|_| e.file.clone());
            got.entry((rel, e.line)).or_default().push(text);
        }
        for (place, wants) in &ex.errors {
            let have = got.get(place).cloned().unwrap_or_default();
            for w in wants {
                if !have.iter().any(|h| h.contains(w.as_str())) {
                    problems.push(format!(
                        "{}:{}: expected an error containing '{w}', got {:?}",
                        place.0, place.1, have
                    ));
                }
            }
        }
        for (place, have) in &got {
            if !ex.errors.contains_key(place) {
                problems.push(format!("unexpected error(s): {}", have.join(" | ")));
            }
        }
    }
    if problems.is_empty() {
        Ok(checks)
    } else {
        Err(problems.join("\n  "))
    }
}

#[test]
fn asm_cases() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/asm");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/asm")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in tests/asm");
    let (mut passed, mut failed, mut checks) = (0, 0, 0);
    let mut report = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        match run_case(&dir, f) {
            Ok(n) => {
                passed += 1;
                checks += n;
                println!("ok   {name} ({n} expectations)");
            }
            Err(why) => {
                failed += 1;
                println!("FAIL {name}\n  {why}");
                report.push(format!("{name}:\n  {why}"));
            }
        }
    }
    println!("asm cases: {passed} passed, {failed} failed, {checks} expectations met");
    assert!(
        report.is_empty(),
        "{failed} of {} cases failed:\n{}",
        files.len(),
        report.join("\n")
    );
}
