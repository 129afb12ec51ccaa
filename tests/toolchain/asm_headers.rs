//! Every routine header of the firmware carries CALLED BY and CALLS lines, and they agree
//! with the assembler's cross-reference ([`z80chess::asm::Xref`]; what a routine and a call
//! are is defined there).
//!
//! The firmware is assembled once per build (article, 1978, full); the lists of a routine
//! (a label at one file:line) are the union over the builds in which it is assembled. A name
//! that holds in only some of those builds carries them in parentheses: `TTPRB (full)`,
//! `SQATK (article+1978)` (the builds written in the order article, 1978, full). The header
//! is the comment block directly above the routine's label:
//!
//! ```text
//! ; NAME: what it does ...
//! ;   CALLED BY: A, B (full)
//! ;   CALLS:     C, D, E,
//! ;              F
//! ```
//!
//! A list is names separated by commas; a comment line whose text after `;` starts with at
//! least eight spaces continues the list above it. `-` alone means none, and may be followed
//! by a note (`- (CMDLP, through CMDTAB)`). Every CALLED BY line must belong to a routine's
//! header, so a list left behind by a label that is no longer a routine fails too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use z80chess::asm::assemble_file;

const BUILDS: [(i64, &str); 3] = [(1, "article"), (2, "1978"), (3, "full")];

/// What the cross-references say of one routine: the builds it is in, and per name the
/// builds in which it calls / is called by it.
#[derive(Default)]
struct Facts {
    builds: BTreeSet<&'static str>,
    calls: BTreeMap<String, BTreeSet<&'static str>>,
    callers: BTreeMap<String, BTreeSet<&'static str>>,
}

/// (file, line, name) -> facts, over the three builds.
fn facts() -> BTreeMap<(String, u32, String), Facts> {
    let mut out: BTreeMap<(String, u32, String), Facts> = BTreeMap::new();
    for (n, build) in BUILDS {
        let a = assemble_file(Path::new("asm/main.asm"), &[("BUILD", n)])
            .unwrap_or_else(|e| panic!("build {build}: {e:?}"));
        let x = a.xref();
        let (calls, callers) = (x.calls(), x.callers());
        for s in x.symbols.iter().filter(|s| s.routine) {
            let key = (s.file.clone().unwrap(), s.line, s.name.clone());
            let f = out.entry(key).or_default();
            f.builds.insert(build);
            for t in &calls[&s.name] {
                f.calls.entry(t.clone()).or_default().insert(build);
            }
            for t in &callers[&s.name] {
                f.callers.entry(t.clone()).or_default().insert(build);
            }
        }
    }
    out
}

/// The list a header should show: each name, with its builds when not all of the routine's.
fn expected(names: &BTreeMap<String, BTreeSet<&str>>, all: &BTreeSet<&str>) -> BTreeSet<String> {
    names
        .iter()
        .map(|(name, bs)| {
            if bs == all {
                name.clone()
            } else {
                let order = BUILDS.iter().map(|b| b.1).filter(|b| bs.contains(b));
                format!("{name} ({})", order.collect::<Vec<_>>().join("+"))
            }
        })
        .collect()
}

/// The list after `KEY:` in a header block (lines of the block, top to bottom), if any.
fn header_list(block: &[&str], key: &str) -> Option<BTreeSet<String>> {
    let at = block
        .iter()
        .position(|l| l.trim_start_matches(';').trim_start().starts_with(key))?;
    let first = block[at].split_once(key).unwrap().1;
    let mut text = first.to_string();
    for l in &block[at + 1..] {
        let body = l.trim_start().trim_start_matches(';');
        if !body.starts_with("        ") {
            break;
        }
        text.push(' ');
        text.push_str(body);
    }
    let text = text.trim();
    if text.starts_with('-') {
        return Some(BTreeSet::new());
    }
    Some(
        text.split(',')
            .map(|w| w.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|w| !w.is_empty())
            .collect(),
    )
}

fn describe(want: &BTreeSet<String>, have: &BTreeSet<String>) -> String {
    let missing: Vec<&String> = want.difference(have).collect();
    let extra: Vec<&String> = have.difference(want).collect();
    format!("missing {missing:?}, not in the cross-reference {extra:?}")
}

#[test]
fn routine_headers_match_the_cross_reference() {
    let facts = facts();
    assert!(facts.len() > 100, "too few routines: {}", facts.len());
    let mut texts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for ((file, line, name), f) in &facts {
        let lines = texts.entry(file.clone()).or_insert_with(|| {
            let t = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
            t.lines().map(str::to_string).collect()
        });
        let above = &lines[..*line as usize - 1];
        let start = above
            .iter()
            .rposition(|l| !l.trim_start().starts_with(';'))
            .map_or(0, |k| k + 1);
        let block: Vec<&str> = above[start..].iter().map(String::as_str).collect();
        for (key, names) in [("CALLED BY:", &f.callers), ("CALLS:", &f.calls)] {
            let want = expected(names, &f.builds);
            match header_list(&block, key) {
                None => problems.push(format!("{file}:{line}: {name}: no '{key}' line")),
                Some(have) if have != want => problems.push(format!(
                    "{file}:{line}: {name}: {key} {}",
                    describe(&want, &have)
                )),
                Some(_) => {}
            }
        }
    }
    // Every CALLED BY line heads a routine.
    let routines: BTreeSet<(&str, usize)> = facts
        .keys()
        .map(|(f, l, _)| (f.as_str(), *l as usize))
        .collect();
    for dir in ["asm", "asm/full"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "asm") {
                continue;
            }
            let file = path.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (k, l) in lines.iter().enumerate() {
                if !l
                    .trim_start_matches(';')
                    .trim_start()
                    .starts_with("CALLED BY:")
                {
                    continue;
                }
                let end = k + lines[k..]
                    .iter()
                    .position(|l| !l.trim_start().starts_with(';'))
                    .unwrap_or(lines.len() - k);
                if !routines.contains(&(file.as_str(), end + 1)) {
                    problems.push(format!(
                        "{file}:{}: a CALLED BY list, but line {} is no routine's label",
                        k + 1,
                        end + 1
                    ));
                }
            }
        }
    }
    println!("{} routines checked", facts.len());
    assert!(
        problems.is_empty(),
        "{} routine header(s) disagree with the cross-reference (assembler --xref):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
