//! The parameter-file reader (`--params FILE`, `ParamFile::parse`) on random and mutated
//! text: never a panic; an error names the file and a line of it; a file it accepts holds
//! only known names, each within its range, each at most once per section, and reads back
//! the same from its canonical form. 10,000 cases a property; the long run is in
//! tests/fuzz_support/mod.rs.

use crate::common::fuzz_support;

use fuzz_support::{case, config};
use proptest::prelude::*;
use z80chess::firmware::params::{def, ParamError, ParamFile, PARAMS};

fn check(text: &str) -> Result<(), TestCaseError> {
    let r = case(text, || ParamFile::parse(text, "fuzz.params"));
    match r {
        Ok(pf) => {
            for (k, v) in pf.default.iter().chain(&pf.e4).chain(&pf.d4) {
                let d = def(k).expect("a known name");
                prop_assert!(d.min <= *v && *v <= d.max, "{} = {} accepted", k, v);
            }
            let again = ParamFile::parse(&pf.canonical(), "canonical")
                .map_err(|e| TestCaseError::fail(format!("canonical form refused: {e}")))?;
            prop_assert_eq!(again.canonical(), pf.canonical());
        }
        Err(ParamError::Line { file, line, what }) => {
            prop_assert_eq!(file, "fuzz.params");
            prop_assert!(line >= 1 && line <= text.lines().count(), "line {}", line);
            prop_assert!(!what.is_empty());
        }
        Err(e) => prop_assert!(false, "unexpected error kind: {}", e),
    }
    Ok(())
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(PARAMS).prop_map(|d| d.name.to_string()),
        1 => prop::sample::select(PARAMS).prop_map(|d| d.name.to_ascii_lowercase()),
        1 => Just("LUSCHER".to_string()),
        1 => "[A-Z_]{0,8}",
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (-300i32..300).prop_map(|v| v.to_string()),
        1 => any::<i32>().prop_map(|v| v.to_string()),
        1 => any::<i64>().prop_map(|v| v.to_string()),
        1 => any::<u32>().prop_map(|v| format!("0x{v:x}")),
        1 => any::<u32>().prop_map(|v| format!("-0x{v:X}")),
        1 => prop::sample::select(&["-0x-80000000", "0x-1", "+-1", "-+1", "--1", "0x", "-", "+", "", "1e3", "٣"][..])
            .prop_map(str::to_string),
    ]
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (name(), prop::sample::select(&["=", " = ", "==", " "][..]), value(),
              prop::sample::select(&["", " # c", " ; c", "#", "\r"][..]))
            .prop_map(|(n, eq, v, c)| format!("{n}{eq}{v}{c}")),
        1 => prop::sample::select(&["[default]", "[e4]", "[d4]", "[E4]", "[ d4 ]", "[x]", "[", "]", "[]", "[e4", ""][..])
            .prop_map(str::to_string),
        1 => "[ -~]{0,30}",
        1 => "\\PC{0,20}",
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_text(text in "[ -~\t\n\r]{0,200}") {
        check(&text)?;
    }

    #[test]
    fn random_unicode(text in "\\PC{0,120}") {
        check(&text)?;
    }

    #[test]
    fn mutated_parameter_files(lines in prop::collection::vec(line(), 0..12)) {
        check(&lines.join("\n"))?;
    }
}

#[test]
fn signs_and_prefixes_that_once_panicked_are_refused() {
    for text in [
        "P_DOUBL = -0x-80000000",
        "P_DOUBL = 0x-1",
        "P_DOUBL = 0x+1",
        "P_DOUBL = -2147483648",
    ] {
        check(text).unwrap();
        assert!(ParamFile::parse(text, "f").is_err(), "{text}");
    }
}
