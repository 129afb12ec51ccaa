//! Nothing of the user's is lost, through the real binary: an output never names an input or
//! another output of the same run, an existing file is replaced only with `--force`, a table
//! that fails its checksum is refused by name (never used, never a panic), and a full disk
//! leaves the old file as it was and nothing partial behind (on a 64 KiB tmpfs, where the test
//! can mount one).

use super::hostile_files::{run_in, scratch};
use std::path::Path;
use std::process::Command;

/// The files of `dir`, sorted (a temporary file left behind would show here).
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn asm_outputs_never_name_a_source_each_other_or_an_existing_file() {
    let dir = scratch("asm-outputs");
    std::fs::write(
        dir.join("own.asm"),
        "        org 0\n        include \"inc.asm\"\n        db 1\n",
    )
    .unwrap();
    std::fs::write(dir.join("inc.asm"), "        db 2\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let before = |n: &str| read(&dir, n);
    let (own, inc, notes) = (before("own.asm"), before("inc.asm"), before("notes.txt"));
    for (args, says) in [
        (&["-o", "own.asm"][..], "the source and -o"),
        (
            &["-o", "out.bin", "--lst", "own.asm"][..],
            "the source and --lst",
        ),
        (
            &["-o", "out.bin", "--sym", "./own.asm"][..],
            "the source and --sym",
        ),
        (&["-o", "inc.asm"][..], "includes"),
        (
            &["-o", "x.bin", "--sym", "x.bin", "--lst", "x.bin"][..],
            "-o and --sym",
        ),
        (&["-o", "notes.txt"][..], "--force"),
    ] {
        let mut all = vec!["asm", "own.asm"];
        all.extend_from_slice(args);
        let (ok, _, err) = run_in(&dir, &all);
        assert!(!ok, "{all:?} must be refused");
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(err.contains("nothing written"), "{all:?}: {err}");
        assert_eq!(read(&dir, "own.asm"), own, "{all:?}");
        assert_eq!(read(&dir, "inc.asm"), inc, "{all:?}");
        assert_eq!(read(&dir, "notes.txt"), notes, "{all:?}");
        assert_eq!(
            listing(&dir),
            ["inc.asm", "notes.txt", "own.asm"],
            "{all:?}"
        );
    }
    let (ok, _, err) = run_in(&dir, &["asm", "own.asm", "-o", "notes.txt", "--force"]);
    assert!(ok, "{err}");
    assert_eq!(read(&dir, "notes.txt"), [2, 1]);
    assert_eq!(listing(&dir), ["inc.asm", "notes.txt", "own.asm"]);
}

#[test]
fn asm_literals_beyond_63_bits_are_errors_at_file_line_and_column() {
    let dir = scratch("asm-literals");
    std::fs::write(
        dir.join("big.asm"),
        "        org 0\n        db 0FFFFFFFFFFFFFFFFh\n        ld a,8000000000000000h\n        db 18446744073709551615\n        db $FFFFFFFFFFFFFFFF\n        db 7FFFFFFFFFFFFFFFh & 0FFh\n",
    )
    .unwrap();
    let (ok, _, err) = run_in(&dir, &["asm", "big.asm", "-o", "big.bin"]);
    assert!(!ok, "{err}");
    for (line, text) in [
        ("big.asm:2:12", "0FFFFFFFFFFFFFFFFh"),
        ("big.asm:3:14", "8000000000000000h"),
        ("big.asm:4:12", "18446744073709551615"),
        ("big.asm:5:12", "$FFFFFFFFFFFFFFFF"),
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains(line) && l.contains(&format!("bad number '{text}'"))),
            "{line} {text}: {err}"
        );
    }
    assert!(err.contains("4 errors; nothing written"), "{err}");
    assert!(!dir.join("big.bin").exists());
}

#[test]
fn report_files_never_replace_an_input_or_an_existing_file_without_force() {
    let dir = scratch("reports");
    let epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"one\";\n";
    std::fs::write(dir.join("pos.epd"), epd).unwrap();
    std::fs::write(dir.join("games.pgn"), "[Event \"x\"]\n\n1. e4 e5 *\n").unwrap();
    std::fs::write(dir.join("old.txt"), "keep me\n").unwrap();
    let files = ["games.pgn", "old.txt", "pos.epd"];
    let kept: Vec<Vec<u8>> = files.iter().map(|f| read(&dir, f)).collect();
    for (args, says) in [
        (
            &["regress", "pos.epd", "--record", "pos.epd"][..],
            "an input and --record",
        ),
        (
            &["regress", "pos.epd", "--record", "old.txt"][..],
            "--force",
        ),
        (
            &["tune", "games.pgn", "--out", "games.pgn"][..],
            "a PGN input and --out",
        ),
        (&["tune", "games.pgn", "--out", "old.txt"][..], "--force"),
        (
            &["profile", "--level", "1", "--csv", "old.txt"][..],
            "--force",
        ),
        (
            &["profile", "--level", "1", "--folded", "old.txt"][..],
            "--force",
        ),
        (
            &["luscher", "export", "--dir", ".", "--out", "old.txt"][..],
            "--force",
        ),
        (
            &["tablebase", "kpk-bitbase", "--dir", ".", "--out", "old.txt"][..],
            "--force",
        ),
    ] {
        let (ok, _, err) = run_in(&dir, args);
        assert!(!ok, "{args:?} must be refused");
        assert!(err.contains(says), "{args:?}: {err}");
        for (f, k) in files.iter().zip(&kept) {
            assert_eq!(&read(&dir, f), k, "{args:?} changed {f}");
        }
        assert_eq!(listing(&dir), files, "{args:?}");
    }
    // A fitted model is an input of `luscher export`: never its output.
    std::fs::write(dir.join("KRK.luscher"), "model\n").unwrap();
    let (ok, _, err) = run_in(
        &dir,
        &[
            "luscher",
            "export",
            "KRK",
            "--dir",
            ".",
            "--out",
            "KRK.luscher",
            "--force",
        ],
    );
    assert!(!ok && err.contains("a model and --out"), "{err}");
    assert_eq!(read(&dir, "KRK.luscher"), b"model\n");
}

#[test]
fn tables_keep_a_users_tmp_and_a_corrupt_table_is_refused_by_name_then_rebuilt() {
    let dir = scratch("tables");
    std::fs::create_dir_all(dir.join("d")).unwrap();
    std::fs::write(dir.join("d/KQK.tmp"), "mine\n").unwrap();
    let (ok, _, err) = run_in(&dir, &["tablebase", "build", "KQK", "--dir", "d"]);
    assert!(ok, "{err}");
    assert_eq!(read(&dir, "d/KQK.tmp"), b"mine\n");
    let (ok, good, err) = run_in(&dir, &["tablebase", "stats", "KQK", "--dir", "d"]);
    assert!(ok, "{err}");

    // One byte of the contents changed: every command refuses the table by name.
    let table = dir.join("d/KQK.dtm");
    let mut bytes = std::fs::read(&table).unwrap();
    let at = bytes.len() - 1000;
    bytes[at] ^= 0x5A;
    std::fs::write(&table, &bytes).unwrap();
    for args in [
        &["tablebase", "stats", "KQK", "--dir", "d"][..],
        &[
            "tablebase",
            "probe",
            "--dir",
            "d",
            "--fen",
            "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
        ][..],
    ] {
        let (ok, _, err) = run_in(&dir, args);
        assert!(!ok, "{args:?} used a corrupt table");
        assert!(err.contains("KQK.dtm") && err.contains("checksum"), "{err}");
        assert!(
            err.contains("rebuild it with `z80chess tablebase build KQK --dir d`"),
            "{err}"
        );
    }
    let (ok, _, err) = run_in(&dir, &["tablebase", "build", "KQK", "--dir", "d"]);
    assert!(ok, "{err}");
    let (ok, again, err) = run_in(&dir, &["tablebase", "stats", "KQK", "--dir", "d"]);
    assert!(ok, "{err}");
    assert_eq!(again, good);
    let left = listing(&dir.join("d"));
    assert!(left.contains(&"KQK.tmp".to_string()), "{left:?}");
    assert!(!left.iter().any(|f| f.starts_with('.')), "{left:?}");
}

/// A 64 KiB tmpfs at `dir`, or None (with the reason printed) where this test cannot mount one.
fn small_disk(dir: &Path) -> Option<Unmount> {
    std::fs::create_dir_all(dir).unwrap();
    match Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(dir)
        .output()
    {
        Ok(o) if o.status.success() => Some(Unmount(dir.to_path_buf())),
        Ok(o) => {
            eprintln!(
                "skipped: cannot mount a 64 KiB tmpfs at {} ({})",
                dir.display(),
                String::from_utf8_lossy(&o.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("skipped: cannot run mount ({e})");
            None
        }
    }
}

struct Unmount(std::path::PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Fill the disk at `dir` to the last byte with `filler`.
fn fill(dir: &Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join("filler")).unwrap();
    while f.write_all(&[0u8; 512]).is_ok() {}
    let _ = f.sync_all();
}

#[test]
fn a_full_disk_leaves_the_old_file_and_nothing_partial() {
    let base = scratch("full-disk");
    let disk = base.join("disk");
    let Some(_mounted) = small_disk(&disk) else {
        return;
    };
    std::fs::write(base.join("big.asm"), "        org 0\n        ds 65000,1\n").unwrap();
    std::fs::write(disk.join("old.bin"), "old image").unwrap();
    // The image is larger than the disk: the old one stays, nothing partial is left.
    let (ok, _, err) = run_in(
        &base,
        &[
            "asm",
            "big.asm",
            "-o",
            "disk/old.bin",
            "--lst",
            "disk/big.lst",
            "--force",
        ],
    );
    assert!(!ok, "{err}");
    assert!(
        err.contains("disk/old.bin") && err.contains("nothing written"),
        "{err}"
    );
    assert_eq!(read(&disk, "old.bin"), b"old image");
    assert_eq!(listing(&disk), ["old.bin"]);

    fill(&disk);
    let (ok, _, err) = run_in(&base, &["profile", "--level", "1", "--csv", "disk/p.csv"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("disk/p.csv") && err.contains("nothing written"),
        "{err}"
    );
    assert_eq!(listing(&disk), ["filler", "old.bin"]);

    // A match stops at its first failed write, with no game cut in half in the file.
    let (ok, out, err) = run_in(
        &base,
        &[
            "match",
            "article",
            "1978",
            "--games",
            "6",
            "--level",
            "1",
            "--jobs",
            "1",
            "--pgn",
            "disk/m.pgn",
        ],
    );
    assert!(!ok, "{err}");
    assert!(
        err.contains("disk/m.pgn") && err.contains("stopped after game 1"),
        "{err}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        1,
        "{out}"
    );
    assert_eq!(listing(&disk), ["filler", "old.bin"]);
}
