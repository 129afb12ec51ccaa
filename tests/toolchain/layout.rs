//! The test suite's own layout: a handful of binaries, one per layer, each file of a group
//! compiled as one of its modules. A file in a group's folder that its `main.rs` does not name
//! would never be compiled, so its tests would silently not run: this fails naming it.

use std::collections::BTreeSet;
use std::path::Path;

const MAX_BINARIES: usize = 12;

fn tests_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests"))
}

/// The `mod NAME;` lines of a `main.rs`.
fn declared(main: &str) -> BTreeSet<String> {
    main.lines()
        .filter_map(|l| l.trim().strip_prefix("mod "))
        .filter_map(|l| l.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// The groups: folders of `tests/` with a `main.rs`.
fn groups() -> Vec<String> {
    let mut g: Vec<String> = std::fs::read_dir(tests_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("main.rs").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    g.sort();
    g
}

#[test]
fn the_suite_is_a_handful_of_binaries_and_no_loose_test_files() {
    let g = groups();
    assert!(
        (2..=MAX_BINARIES).contains(&g.len()),
        "{} test groups ({g:?}); at most {MAX_BINARIES}",
        g.len()
    );
    let loose: Vec<String> = std::fs::read_dir(tests_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        loose.is_empty(),
        "test files at the top of tests/ build a binary each: move them into a group: {loose:?}"
    );
}

#[test]
fn every_file_of_a_group_is_one_of_its_modules() {
    let mut missing = Vec::new();
    for g in groups() {
        let dir = tests_dir().join(&g);
        let mods = declared(&std::fs::read_to_string(dir.join("main.rs")).unwrap());
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let Some(stem) = p.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                continue;
            };
            if p.extension().is_some_and(|e| e == "rs") && stem != "main" && !mods.contains(&stem) {
                missing.push(format!("tests/{g}/{stem}.rs"));
            }
        }
        for m in &mods {
            let known = dir.join(format!("{m}.rs")).is_file()
                || dir.join(m).join("mod.rs").is_file()
                || m == "common"
                || Path::new("benches/support")
                    .join(format!("{m}.rs"))
                    .is_file();
            assert!(known, "tests/{g}/main.rs names `mod {m};` but no such file");
        }
    }
    assert!(
        missing.is_empty(),
        "not named in their group's main.rs, so never compiled: {missing:?}"
    );
}

#[test]
fn the_layout_check_sees_an_undeclared_file() {
    let mods = declared("//! doc\n#[path = \"../common/mod.rs\"]\nmod common;\nmod a;\n  mod b;\n");
    assert_eq!(
        mods,
        ["a", "b", "common"].map(String::from).into_iter().collect()
    );
    assert!(!mods.contains("c"));
}
