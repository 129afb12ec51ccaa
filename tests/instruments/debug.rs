//! Scripted debugger sessions against golden transcripts (tests/debug/*.dbg -> *.out).
//!
//! The `prog_*` sessions run tests/debug/prog.asm, a small fixed program, and are compared
//! exactly: addresses, T-states, instruction counts and all. The `fw_*` sessions run the
//! firmware, which keeps changing, so their transcripts are compared after masking what a
//! change of the firmware moves around (addresses, source line numbers, T-states, bytes of
//! code); labels, board, attacker array, move lists, replies and the flow of the session
//! must match exactly.
//!
//! `BLESS=1 cargo test --test instruments debug::` rewrites the .out files from the actual output.

use std::path::Path;
use z80chess::debug::program::Program;
use z80chess::debug::{Session, Start};
use z80chess::firmware::Build;

fn prog_session() -> Session {
    let a = z80chess::asm::assemble_file(Path::new("tests/debug/prog.asm"), &[])
        .expect("tests/debug/prog.asm assembles");
    Session::program(Program::from_assembly("prog.asm", &a, Path::new(".")).unwrap()).unwrap()
}

fn fw_session(start: Start) -> Session {
    Session::firmware(Build::Article, &start).expect("the firmware boots")
}

/// Mask the parts of a firmware transcript that move when the firmware changes.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        let line = if t.starts_with("T +") || t.starts_with("T -") {
            "T ...".to_string()
        } else if t.starts_with("at T-state") {
            "at T-state ...".to_string()
        } else if t.starts_with("T-states ") {
            "T-states ...".to_string()
        } else if t.starts_with("z80chess debugger:") {
            "z80chess debugger: ...".to_string()
        } else {
            mask_line(line)
        };
        // Column padding follows the width of what was masked: compare words, not columns.
        let words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
        let indent = line.len() - line.trim_start().len();
        out.push_str(&" ".repeat(indent.min(1)));
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

fn is_hex4(tok: &str) -> bool {
    tok.len() == 4
        && tok
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
}

fn mask_line(line: &str) -> String {
    // Disassembly lines: "MM AAAA  BYTES...    " -> mask the address and the bytes column.
    let b = line.as_bytes();
    let mut line = line.to_string();
    if b.len() > 20
        && matches!(b[0], b' ' | b'*')
        && is_hex4(&line[4..8])
        && &line[8..10] == "  "
        && line.is_char_boundary(21)
    {
        line = format!("{}####  ..         {}", &line[..4], &line[21..]);
    }
    // Token by token.
    let mut res = String::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            let tok: String = chars[start..i].iter().collect();
            let prev = if start > 0 { chars[start - 1] } else { ' ' };
            let before_plus = start >= 2 && prev == '+' && {
                let p = chars[start - 2];
                p.is_ascii_alphanumeric() || p == '_' || p == '.'
            };
            let digits = !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit());
            let float = tok.contains('.')
                && tok.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                && tok.bytes().any(|b| b.is_ascii_digit());
            if is_hex4(&tok) {
                res.push_str("####");
            } else if tok.len() == 5 && tok.ends_with('h') && is_hex4(&tok[..4]) {
                res.push_str("####h");
            } else if before_plus && digits {
                res.push('#');
            } else if digits && (tok.len() >= 4 || chars[i..].starts_with(&[' ', 'T'])) {
                // Long numbers (T-states, counts of instructions) and "N T" durations.
                res.push('#');
            } else if float {
                res.push('#');
            } else if let Some(p) = tok.find(".asm") {
                // file.asm:LINE keeps the file, masks the line (handled below by ':').
                res.push_str(&tok[..p + 4]);
                if tok.len() > p + 4 {
                    res.push_str(&tok[p + 4..]);
                }
            } else {
                res.push_str(&tok);
            }
            // ".asm:NN"
            if tok.ends_with(".asm") && i + 1 < chars.len() && chars[i] == ':' {
                let mut j = i + 1;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                if j > i + 1 {
                    res.push_str(":#");
                    i = j;
                }
            }
        } else {
            res.push(c);
            i += 1;
        }
    }
    res
}

fn check(name: &str, mut s: Session, masked: bool) {
    let script = std::fs::read_to_string(format!("tests/debug/{name}.dbg")).unwrap();
    let mut actual = s.banner();
    actual.push_str(&s.run_script(&script));
    if masked {
        actual = normalize(&actual);
    }
    let path = format!("tests/debug/{name}.out");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{path} is missing (BLESS=1 writes it)"));
    if expected != actual {
        let e: Vec<&str> = expected.lines().collect();
        let a: Vec<&str> = actual.lines().collect();
        let k = e
            .iter()
            .zip(&a)
            .position(|(x, y)| x != y)
            .unwrap_or(e.len().min(a.len()));
        panic!(
            "{name}: the transcript differs from {path} at line {}:\n  expected: {:?}\n  actual:   {:?}\n--- actual transcript ---\n{actual}",
            k + 1,
            e.get(k).unwrap_or(&"<end>"),
            a.get(k).unwrap_or(&"<end>"),
        );
    }
}

#[test]
fn prog_run_control() {
    check("prog_run", prog_session(), false);
}

#[test]
fn prog_data_views_and_errors() {
    check("prog_data", prog_session(), false);
}

#[test]
fn prog_watchpoints_and_catchpoints() {
    check("prog_watch", prog_session(), false);
}

#[test]
fn prog_reverse_execution() {
    check("prog_reverse", prog_session(), false);
}

#[test]
fn fw_break_at_genmov() {
    check("fw_genmov", fw_session(Start::Initial), true);
}

#[test]
fn fw_watch_a_board_square() {
    check(
        "fw_watch",
        fw_session(Start::Moves("e2e4 e7e5 Nf3".into())),
        true,
    );
}

#[test]
fn fw_xchng_figure_4() {
    check("fw_xchng", fw_session(Start::Initial), true);
}

#[test]
fn normalizer_masks_what_moves() {
    let t = normalize(
        "*=> 031C  CD CC 04     CALL CALCEP             17  movegen.asm:39  GENMOV: CALL CALCEP\n\
         Breakpoint 1, 031Ch <GENMOV+12> at movegen.asm:39\n\
         T +841 (420.5 us)   total 162998 T (81.499 ms)   icount 8997\n\
         = 20 paths",
    );
    assert_eq!(
        t,
        "*=> #### .. CALL CALCEP 17 movegen.asm:# GENMOV: CALL CALCEP\n\
         Breakpoint 1, ####h <GENMOV+#> at movegen.asm:#\n\
         T ...\n\
         = 20 paths\n"
    );
}

/// `send` builds every command with the typed protocol: a bad argument is refused by name
/// before anything is sent, and a reply is decoded by the protocol's decoder.
#[test]
fn send_checks_arguments_and_decodes_with_the_protocol() {
    let mut s = fw_session(Start::Initial);
    let refused = |s: &mut Session, line: &str, want: &str| {
        let before = s.errors;
        let out = s.execute(line);
        assert_eq!(s.errors, before + 1, "'{line}' was accepted: {out}");
        assert!(out.contains(want), "'{line}': {out}");
    };
    refused(&mut s, "send perft 300", "usage: send perft DEPTH (0..255)");
    refused(&mut s, "send undo 3", "'send undo' takes no argument");
    refused(
        &mut s,
        "send xarray 1 2 3",
        "usage: send xarray PIECE B0..B13",
    );
    refused(
        &mut s,
        "send search 3 deep",
        "usage: send search LEVEL [iterate]",
    );
    refused(&mut s, "send move e9e4", "'e9' is not a square");
    refused(
        &mut s,
        "send time 1 2 3",
        "is the full build's alone; this is the article build",
    );
    refused(
        &mut s,
        "send frobnicate",
        "unknown firmware command 'frobnicate'",
    );
    let out = s.execute("send status");
    assert!(out.contains("Sent status: 4B"), "{out}");
    assert!(out.contains("not in check, 20 legal moves"), "{out}");
    let out = s.execute("send identify");
    assert!(out.contains("identity 'Z', build 1, version 1"), "{out}");
}

/// `watch` stops when a write changes the value, as gdb's does; `awatch` stops on every
/// access, a write of the same value included. prog.asm's INIT writes 00h over COUNT's 00h
/// before OUTER counts 00h -> 01h.
#[test]
fn watch_stops_on_a_change_and_awatch_on_every_write() {
    let mut s = prog_session();
    s.execute("watch COUNT");
    let out = s.execute("continue");
    assert!(
        out.contains("write 4110h <COUNT>  old 00h  new 01h  (by 005Fh <OUTER+6>)"),
        "{out}"
    );
    assert_eq!(s.dbg.bps[0].hits, 1, "the unchanged write is no hit");
    s.execute("delete");
    s.execute("goto 0");
    s.execute("awatch COUNT");
    let out = s.execute("continue");
    assert!(
        out.contains("write 4110h <COUNT>  old 00h  new 00h  (by 0047h <INIT.r+24>)"),
        "{out}"
    );
}

/// At GENMOV's first instruction the write pointer (HL') still points past an earlier
/// list: the `moves` view says no list is being built until GENMOV has set it.
#[test]
fn moves_at_genmov_entry_shows_no_list_being_built() {
    let mut s = fw_session(Start::Initial);
    s.execute("send perft 1");
    s.execute("break GENMOV");
    let out = s.execute("send perft 1");
    assert!(out.contains("Breakpoint 1"), "{out}");
    let out = s.execute("moves");
    assert!(!out.contains("building"), "at GENMOV's entry: {out}");
    s.execute("advance GENMOV.sq");
    let out = s.execute("moves");
    assert!(
        out.contains("GENMOV is building this list") && out.contains("0 entries so far"),
        "once the write pointer is set: {out}"
    );
    s.execute("finish");
    let out = s.execute("moves");
    assert!(out.contains("20 entries"), "after the return: {out}");
}
