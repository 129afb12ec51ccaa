//! Hostile input through the real binary: files that are not files (`/dev/zero`, a FIFO) or are
//! too large, assembler arithmetic that overflows, `tablebase probe` on an illegal position,
//! malformed FENs, and the `cpm` cycle limit.
//!
//! Each child runs with its address space capped (so the old behaviour, reading `/dev/zero`
//! until memory runs out, fails fast instead of taking the machine down) and is killed if it
//! has not finished after a generous wait (a guard against a hang, not a timing).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HANG: Duration = Duration::from_secs(120);

pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("z80chess-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run `z80chess ARGS` in `dir`: (success, stdout, stderr). Panics on a hang.
pub(super) fn run_in(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_z80chess"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &cap);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("z80chess {args:?} did not finish (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (out, err) = (t_out.join().unwrap(), t_err.join().unwrap());
    assert!(
        !err.contains("panicked"),
        "z80chess {args:?} panicked: {err}"
    );
    (status.success(), out, err)
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

// ---------- regular files only, and a size cap ----------

#[test]
fn asm_include_and_incbin_of_a_device_or_fifo_are_refused_at_file_line_col() {
    let dir = scratch("asm-dev");
    mkfifo(&dir.join("pipe"));
    for (name, src, what) in [
        (
            "z.asm",
            "INCLUDE \"/dev/zero\"\n",
            "'/dev/zero': it is a character device",
        ),
        (
            "b.asm",
            "  INCBIN \"/dev/zero\"\n",
            "'/dev/zero': it is a character device",
        ),
        ("f.asm", "INCLUDE \"pipe\"\n", "'pipe': it is a FIFO"),
        ("g.asm", " nop\n INCBIN pipe\n", "'pipe': it is a FIFO"),
        ("d.asm", " INCLUDE \"/\"\n", "'/': it is a directory"),
    ] {
        std::fs::write(dir.join(name), src).unwrap();
        let (ok, _, err) = run_in(&dir, &["asm", name, "-o", "out.bin"]);
        assert!(!ok, "{name}: {err}");
        let line = if name == "g.asm" { 2 } else { 1 };
        assert!(
            err.contains(&format!("{name}:{line}:")) && err.contains(what),
            "{name}: {err}"
        );
        assert!(!dir.join("out.bin").exists(), "{name}: nothing written");
    }
    // the source itself
    let (ok, _, err) = run_in(&dir, &["asm", "pipe", "-o", "out.bin"]);
    assert!(!ok && err.contains("FIFO"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn asm_refuses_a_file_over_16_mib_by_name() {
    let dir = scratch("asm-big");
    let big = std::fs::File::create(dir.join("big.bin")).unwrap();
    big.set_len((16 << 20) + 1).unwrap(); // sparse: costs no disk
    drop(big);
    std::fs::write(dir.join("i.asm"), " org 0\n INCBIN \"big.bin\"\n").unwrap();
    let (ok, _, err) = run_in(&dir, &["asm", "i.asm", "-o", "out.bin"]);
    assert!(!ok);
    assert!(
        err.contains("i.asm:2:") && err.contains("big.bin") && err.contains("larger than 16777216"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn params_and_cpm_of_a_device_or_fifo_are_refused_by_name() {
    let dir = scratch("params-dev");
    mkfifo(&dir.join("pipe"));
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    for file in ["/dev/zero", "pipe"] {
        let (ok, _, err) = run_in(
            &dir,
            &["search", "--build", "full", "--params", file, "--fen", fen],
        );
        assert!(!ok, "{err}");
        assert!(
            err.contains("parameter file")
                && err.contains(file)
                && err.contains("not a regular file"),
            "{err}"
        );
        let (ok, _, err) = run_in(&dir, &["cpm", file]);
        assert!(!ok, "{err}");
        assert!(
            err.contains(file) && err.contains("not a regular file"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------- assembler arithmetic ----------

#[test]
fn asm_overflow_and_long_shifts_are_errors_at_file_line_col() {
    let dir = scratch("asm-overflow");
    std::fs::write(
        dir.join("o.asm"),
        " DW 10000h*10000h*10000h*10000h\n DB 1<<100\n DW 7FFFFFFFFFFFFFFFh+1\nX EQU 1>>32\n DW -(-7FFFFFFFFFFFFFFFh-1)\n",
    )
    .unwrap();
    let (ok, _, err) = run_in(&dir, &["asm", "o.asm", "-o", "o.bin"]);
    assert!(!ok, "{err}");
    for want in [
        "o.asm:1:5: error: arithmetic overflow",
        "o.asm:2:5: error: shift count out of range: 1 << 100",
        "o.asm:3:5: error: arithmetic overflow",
        "o.asm:4:7: error: shift count out of range: 1 >> 32",
        "o.asm:5:5: error: arithmetic overflow",
    ] {
        assert!(err.contains(want), "missing '{want}' in:\n{err}");
    }
    assert!(!dir.join("o.bin").exists());
    // in range: fine
    std::fs::write(dir.join("ok.asm"), " DW 1<<15\n DB 80000000h>>31\n").unwrap();
    let (ok, _, err) = run_in(&dir, &["asm", "ok.asm", "-o", "ok.bin"]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(dir.join("ok.bin")).unwrap(),
        [0x00, 0x80, 0x01]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------- tablebase probe ----------

#[test]
fn tablebase_probe_checks_the_position_before_building_anything() {
    let dir = scratch("tb-illegal");
    for (fen, why) in [
        // three pieces give check: impossible
        ("4k3/8/3N1N2/8/8/8/4R3/4K3 b - - 0 1", "impossible check"),
        // the side not to move is in check
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "illegal position"),
        // no black king
        ("8/8/8/8/8/8/4R3/4K3 w - - 0 1", "illegal position"),
    ] {
        let (ok, out, err) = run_in(
            &dir,
            &["tablebase", "probe", "--fen", fen, "--dir", "tables"],
        );
        assert!(!ok, "{fen}: {out}{err}");
        assert!(err.contains(fen) && err.contains(why), "{fen}: {err}");
        assert!(!err.contains("building"), "{fen}: {err}");
        assert!(!dir.join("tables").exists(), "{fen}: nothing written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tablebase_probe_says_what_it_builds_and_where() {
    let dir = scratch("tb-build");
    let (ok, out, err) = run_in(
        &dir,
        &[
            "tablebase",
            "probe",
            "--fen",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            "--dir",
            "tb",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("White"), "{out}");
    let path = Path::new("tb").join("KRK.dtm");
    assert!(
        err.contains("building table KRK (dtm, ")
            && err.contains(&format!("into {}", path.display())),
        "{err}"
    );
    assert!(dir.join(&path).exists());
    // a second probe finds the table and builds nothing
    let (ok, _, err) = run_in(
        &dir,
        &[
            "tablebase",
            "probe",
            "--fen",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
            "--dir",
            "tb",
        ],
    );
    assert!(ok && !err.contains("building"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------- malformed FENs ----------

const BAD_FENS: [(&str, &str); 6] = [
    ("4k3/8/8/8/8/8/8/4K3/ w - - 0 1", "board field"),
    ("4k3/8/8/44/8/8/8/4K3 w - - 0 1", "board field"),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w kqKQ - 0 1",
        "castling field 'kqKQ'",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w kqkq - 0 1",
        "castling field 'kqkq'",
    ),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling field 'KK'"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w QQ - 0 1", "castling field 'QQ'"),
];

#[test]
fn malformed_fens_are_refused_with_the_field_named_by_every_reader() {
    let dir = scratch("fens");
    for (fen, field) in BAD_FENS {
        for args in [
            vec!["perft", "--depth", "1", "--fen", fen],
            vec!["search", "--level", "1", "--fen", fen],
            vec!["tablebase", "probe", "--dir", "tables", "--fen", fen],
            vec!["luscher", "eval", "--dir", "tables", "--fen", fen],
        ] {
            let (ok, out, err) = run_in(&dir, &args);
            assert!(!ok, "{args:?}: accepted:\n{out}");
            assert!(
                err.contains("bad FEN") && err.contains(field),
                "{args:?}: {err}"
            );
        }
        // the library readers the binary does not reach directly
        let e = z80chess::tablebase::store::chess_of(fen)
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "chess_of {fen}: {e}");
        let Err(e) = z80chess::matchplay::openings::read_epd(&format!("{fen}\n")) else {
            panic!("EPD accepted {fen}");
        };
        assert!(e.1.contains(field), "EPD {fen}: {e:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------- cpm's cycle limit ----------

#[test]
fn cpm_has_a_documented_default_limit_and_0_means_none() {
    let dir = scratch("cpm");
    let (ok, help, _) = run_in(&dir, &["cpm", "--help"]);
    assert!(ok);
    assert!(
        help.contains("0 means no limit") && help.contains("[default: 100000000000]"),
        "{help}"
    );
    // zexall needs about 4.6e10 T-states
    const { assert!(z80chess::cpm::DEFAULT_MAX_CYCLES >= 60_000_000_000) };
    // LD A,'!' / LD E,A / LD C,2 / CALL 5 / RET: prints '!' and ends
    let com = [0x3E, b'!', 0x5F, 0x0E, 0x02, 0xCD, 0x05, 0x00, 0xC9];
    std::fs::write(dir.join("BANG.COM"), com).unwrap();
    let (ok, out, err) = run_in(&dir, &["cpm", "BANG.COM", "--max-cycles", "0"]);
    assert!(ok, "--max-cycles 0 is no limit: {err}");
    assert!(out.starts_with('!') && out.contains("warm boot"), "{out}");
    // JR $: loops until the default limit would stop it; a small limit stops it at once
    std::fs::write(dir.join("LOOP.COM"), [0x18, 0xFE]).unwrap();
    let (ok, _, err) = run_in(&dir, &["cpm", "LOOP.COM", "--max-cycles", "1000"]);
    assert!(!ok && err.contains("cycle limit of 1000"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every other file a user names goes through the same checked reader: a FIFO or a device
/// is refused by name, never read until it blocks or fills memory (disasm's image and symbol
/// file, regress's positions, match's openings, tune's games, and play's `load`/`save`). The
/// debugger's script, read once from start to end, may be a pipe or a device: `/dev/zero` is
/// refused at the size cap, a FIFO nobody writes is an empty script, `/dev/null` too.
#[test]
fn every_other_file_reader_refuses_a_device_or_fifo_by_name() {
    let dir = scratch("readers");
    mkfifo(&dir.join("pipe"));
    for file in ["/dev/zero", "pipe"] {
        for args in [
            vec!["disasm", file],
            vec!["regress", file],
            vec![
                "match",
                "article",
                "1978",
                "--games",
                "2",
                "--level",
                "1",
                "--openings",
                file,
            ],
            vec!["tune", file],
        ] {
            let (ok, _, err) = run_in(&dir, &args);
            assert!(!ok, "{args:?}: {err}");
            assert!(
                err.contains(file) && err.contains("not a regular file"),
                "{args:?}: {err}"
            );
        }
        let (ok, out, err) = run_in(&dir, &["debug", "--batch", "-x", file]);
        if file == "pipe" {
            assert!(ok, "an empty script: {out}{err}");
        } else {
            assert!(!ok && err.contains("larger than"), "{err}");
        }
        let (ok, out, err) = run_in(&dir, &["debug", "--batch", "-x", "/dev/null"]);
        assert!(ok, "/dev/null is an empty script: {out}{err}");
        // play: `load` of a FIFO and `save` onto one are refused, and the game goes on.
        let mut child = Command::new(env!("CARGO_BIN_EXE_z80chess"))
            .args([
                "play", "--text", "--turbo", "--color", "white", "--level", "1",
            ])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "load {file}\nsave {file}\ne2e4\nquit").unwrap();
        drop(stdin);
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < HANG, "play hung on {file}");
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.matches("not a regular file").count() >= 2, "{text}");
        assert!(text.contains("E2-E4"), "the game did not go on: {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The debugger's expressions are evaluated by recursion: a flat chain of 100,000 terms is
/// refused by length with a clear message (the session goes on), never a stack overflow.
#[test]
fn a_flat_debugger_expression_of_100000_terms_is_refused_by_length() {
    let dir = scratch("long-expr");
    let long = vec!["1"; 100_000].join("+");
    let fine = vec!["1"; 500].join("+");
    std::fs::write(dir.join("script"), format!("print {long}\nprint {fine}\n")).unwrap();
    let (_, out, err) = run_in(&dir, &["debug", "--batch", "-x", "script"]);
    let all = format!("{out}{err}");
    assert!(
        all.contains("expression too long: more than 1000 operators"),
        "{all}"
    );
    assert!(all.contains("= 500"), "the session did not go on: {all}");
    std::fs::remove_dir_all(&dir).unwrap();
}
