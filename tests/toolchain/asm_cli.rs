//! `z80chess asm` end to end: what it writes on success, and that it writes nothing on error.

use std::path::{Path, PathBuf};
use z80chess::asm::{cli, parse_source_map, Outputs, Xref};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("z80chess-asm-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn outputs(dir: &Path) -> [PathBuf; 4] {
    ["out.bin", "out.sym", "out.lst", "out.map"].map(|f| dir.join(f))
}

#[test]
fn writes_image_symbols_listing_and_map() {
    let dir = scratch("ok");
    let src = dir.join("prog.asm");
    std::fs::write(
        &src,
        "        org 100h\nstart:  ld a,VALUE\n.wait:  jr nz,.wait\n        if FAST\n        db 1\n        else\n        db 2\n        endif\n        ds 2,0FFh\n        org 108h\n        dw start\n",
    )
    .unwrap();
    let [bin, sym, lst, map] = outputs(&dir);
    let defines = vec!["VALUE=0x42".to_string(), "FAST".to_string()];
    let xref = dir.join("prog.xref");
    let outs = Outputs {
        sym: Some(&sym),
        lst: Some(&lst),
        map: Some(&map),
        xref: Some(&xref),
        force: false,
    };
    cli(&src, &bin, outs, &defines).unwrap();
    // The cross-reference: `start` is referenced by the DW on line 11.
    let x = Xref::parse(&std::fs::read_to_string(&xref).unwrap()).unwrap();
    let start = x.symbol("start").unwrap();
    assert_eq!((start.line, start.refs.len()), (2, 1));
    assert_eq!((start.refs[0].line, start.refs[0].op.as_str()), (11, "DW"));

    // 0100: 3E 42, 0102: 20 FE, 0104: 01, 0105: FF FF, gap, 0108: 00 01
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        [0x3E, 0x42, 0x20, 0xFE, 0x01, 0xFF, 0xFF, 0x00, 0x00, 0x01]
    );
    let sym = std::fs::read_to_string(&sym).unwrap();
    assert!(sym.contains("start: EQU 0x0100\n"), "{sym}");
    assert!(sym.contains("start.wait: EQU 0x0102\n"), "{sym}");
    assert!(sym.contains("VALUE: EQU 0x0042\n"), "{sym}");
    let lst = std::fs::read_to_string(&lst).unwrap();
    assert!(
        lst.lines()
            .any(|l| l.starts_with("0102") && l.contains("20 FE") && l.contains("[12/7]")),
        "{lst}"
    );
    assert!(
        lst.lines().any(|l| l.contains("~") && l.contains("db 2")),
        "skipped lines are marked:\n{lst}"
    );
    let map = parse_source_map(&std::fs::read_to_string(&map).unwrap()).unwrap();
    let lines: Vec<(u16, u32)> = map.iter().map(|(a, _, l)| (*a, *l)).collect();
    assert_eq!(
        lines,
        [(0x100, 2), (0x102, 3), (0x104, 5), (0x105, 9), (0x108, 11)]
    );
    assert!(map.iter().all(|(_, f, _)| f.ends_with("prog.asm")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn writes_nothing_on_error() {
    let dir = scratch("err");
    let src = dir.join("bad.asm");
    std::fs::write(&src, " ld a,1\n ld a,300\n jr nowhere\n").unwrap();
    let [bin, sym, lst, map] = outputs(&dir);
    // A stale image from an earlier run stays as it was.
    std::fs::write(&bin, b"old").unwrap();
    let outs = Outputs {
        sym: Some(&sym),
        lst: Some(&lst),
        map: Some(&map),
        xref: None,
        force: false,
    };
    let err = cli(&src, &bin, outs, &[]).unwrap_err();
    assert!(err.contains("2 errors"), "{err}");
    assert_eq!(std::fs::read(&bin).unwrap(), b"old");
    assert!(!sym.exists() && !lst.exists() && !map.exists());

    let err = cli(&dir.join("missing.asm"), &bin, Outputs::default(), &[]).unwrap_err();
    assert!(err.contains("1 error"), "{err}");
    let err = cli(&src, &bin, Outputs::default(), &["9X=1".to_string()]).unwrap_err();
    assert!(err.contains("1 error"), "{err}");
    assert_eq!(std::fs::read(&bin).unwrap(), b"old");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_assert_prints_its_message_at_file_and_line() {
    let dir = scratch("assert");
    let src = dir.join("layout.asm");
    std::fs::write(
        &src,
        "        org 100h\ntable:  ds 300\n        assert (table & 0FFh) + 300 <= 100h, \"table must not cross a page\"\n        assert table == 100h, \"table is at 100h\"\n",
    )
    .unwrap();
    let [bin, ..] = outputs(&dir);
    let err = cli(&src, &bin, Outputs::default(), &[]).unwrap_err();
    assert!(err.contains("1 error"), "{err}");
    assert!(!bin.exists());
    // The diagnostic `z80chess asm` prints: file:line:col, then the message.
    let errors = z80chess::asm::assemble_file(&src, &[]).unwrap_err();
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 1, "{text:?}");
    assert!(
        text[0].contains("layout.asm:3:")
            && text[0].contains("assertion failed: table must not cross a page"),
        "{text:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
