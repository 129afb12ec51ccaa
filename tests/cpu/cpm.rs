//! The CP/M runner (`z80chess::cpm` and `z80chess cpm`) with small programs of our own,
//! written as tests/cpm/*.asm and assembled here with our assembler (ORG 100h).
//!
//! The real instruction exercisers (zexdoc, zexall) are not obtainable on this machine, so
//! `alucrc.asm` stands in for one: it runs 30 ALU/rotate/BIT instructions over every A and
//! a set of B and F values and prints a CRC-32 of the A and F they leave; the test computes
//! the same CRC from a plain model of those instructions written here.

use std::path::{Path, PathBuf};
use std::process::Command;
use z80chess::cpm::{run, CpmError, CpmExit, CpmRun, MAX_PROGRAM};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cpm")
}

/// Assemble tests/cpm/NAME.asm: (the .COM bytes, the value of `symbol` if asked for).
fn assemble(name: &str, symbol: Option<&str>) -> (Vec<u8>, Option<u16>) {
    let path = dir().join(format!("{name}.asm"));
    let asm = z80chess::asm::assemble_file(&path, &[]).unwrap_or_else(|errs| {
        let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        panic!("{} does not assemble:\n{}", path.display(), text.join("\n"))
    });
    assert_eq!(asm.origin, 0x100, "{name}: a .COM program starts at 0100h");
    let value = symbol.map(|s| {
        asm.symbol(s)
            .unwrap_or_else(|| panic!("{name}: no symbol {s}")) as u16
    });
    (asm.image, value)
}

/// Run a program with a cycle limit; (result, what it printed).
fn run_com(program: &[u8], limit: u64) -> (Result<CpmRun, CpmError>, String) {
    let mut out = Vec::new();
    let r = run(program, Some(limit), &mut out);
    (r, String::from_utf8(out).expect("ASCII output"))
}

const LIMIT: u64 = 10_000_000;

#[test]
fn hello_world_through_bdos_9_and_2_then_bdos_0() {
    let (com, _) = assemble("hello", None);
    let (r, out) = run_com(&com, LIMIT);
    let run = r.expect("hello ends normally");
    assert_eq!(out, "Hello, world!\r\nby BDOS 2\r\n");
    assert_eq!(run.exit, CpmExit::SystemReset);
    assert!(run.tstates > 0 && run.tstates < 10_000, "{} T", run.tstates);
    assert_eq!(run.tstates, run.cpu.t);
}

#[test]
fn ret_from_the_top_level_is_a_warm_boot() {
    let (com, _) = assemble("ret", None);
    let (r, out) = run_com(&com, LIMIT);
    assert_eq!(r.expect("ends").exit, CpmExit::WarmBoot);
    assert_eq!(out, "R");
}

#[test]
fn jp_0_is_a_warm_boot() {
    let (com, _) = assemble("jp0", None);
    let (r, out) = run_com(&com, LIMIT);
    let run = r.expect("ends");
    assert_eq!(run.exit, CpmExit::WarmBoot);
    assert_eq!(run.cpu.pc, 0);
    assert_eq!(out, "J");
}

#[test]
fn an_unknown_bdos_function_names_the_function_and_the_caller() {
    let (com, caller) = assemble("unknown", Some("CALLER"));
    let caller = caller.unwrap();
    let (r, out) = run_com(&com, LIMIT);
    match r {
        Err(CpmError::UnknownBdos {
            function,
            caller: c,
        }) => {
            assert_eq!(function, 15);
            assert_eq!(c, caller, "the address of the CALL 5");
        }
        other => panic!("expected UnknownBdos, got {other:?}"),
    }
    // What it printed before the bad call is not lost.
    assert_eq!(out, "x");
    let (r, _) = run_com(&com, LIMIT);
    let msg = r.unwrap_err().to_string();
    assert!(msg.contains("BDOS function 15"), "{msg}");
    assert!(msg.contains(&format!("{caller:#06x}")), "{msg}");
}

#[test]
fn the_cycle_limit_is_an_error_with_the_pc() {
    let (com, _) = assemble("forever", None);
    let (r, _) = run_com(&com, 100_000);
    match r {
        Err(CpmError::CycleLimit { limit, pc }) => {
            assert_eq!(limit, 100_000);
            assert!((0x100..0x104).contains(&pc), "pc {pc:04X}");
        }
        other => panic!("expected CycleLimit, got {other:?}"),
    }
}

#[test]
fn halt_with_interrupts_disabled_is_an_error() {
    let (com, stop) = assemble("halt", Some("STOP"));
    let (r, _) = run_com(&com, LIMIT);
    match r {
        Err(CpmError::Halted { pc }) => assert_eq!(pc, stop.unwrap()),
        other => panic!("expected Halted, got {other:?}"),
    }
}

#[test]
fn empty_and_too_large_programs_are_refused() {
    let mut out = Vec::new();
    assert!(matches!(run(&[], None, &mut out), Err(CpmError::Empty)));
    let big = vec![0u8; MAX_PROGRAM + 1];
    match run(&big, None, &mut out) {
        Err(CpmError::TooLarge { size, max }) => {
            assert_eq!((size, max), (MAX_PROGRAM + 1, MAX_PROGRAM));
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(out.is_empty());
    // The largest program that fits is accepted (a RET at 0100h, NOPs after it).
    let mut fits = vec![0u8; MAX_PROGRAM];
    fits[0] = 0xC9;
    assert_eq!(
        run(&fits, Some(LIMIT), &mut out).unwrap().exit,
        CpmExit::WarmBoot
    );
}

fn cli(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn cli_missing_file_fails_cleanly() {
    let missing = dir().join("no-such-program.com");
    let (ok, out, err) = cli(&["cpm", missing.to_str().unwrap()]);
    assert!(!ok, "a missing file must fail");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("cannot read"), "{err}");
    assert!(err.contains("no-such-program.com"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn cli_runs_a_program_and_reports_errors() {
    let tmp = std::env::temp_dir().join(format!("z80chess-cpm-test-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let hello = tmp.join("HELLO.COM");
    std::fs::write(&hello, assemble("hello", None).0).unwrap();
    let (ok, out, err) = cli(&["cpm", hello.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.starts_with("Hello, world!\r\nby BDOS 2\r\n"), "{out}");
    assert!(out.contains("BDOS 0 after"), "{out}");

    let forever = tmp.join("FOREVER.COM");
    std::fs::write(&forever, assemble("forever", None).0).unwrap();
    let (ok, _, err) = cli(&["cpm", forever.to_str().unwrap(), "--max-cycles", "5000"]);
    assert!(!ok);
    assert!(err.contains("cycle limit of 5000"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let empty = tmp.join("EMPTY.COM");
    std::fs::write(&empty, b"").unwrap();
    let (ok, _, err) = cli(&["cpm", empty.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("empty"), "{err}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

// ---------- the exerciser and its model ----------

const S: u8 = 0x80;
const Z: u8 = 0x40;
const Y: u8 = 0x20;
const H: u8 = 0x10;
const X: u8 = 0x08;
const PV: u8 = 0x04;
const N: u8 = 0x02;
const C: u8 = 0x01;

fn flag(cond: bool, f: u8) -> u8 {
    if cond {
        f
    } else {
        0
    }
}

/// S, Z, Y, X of a result, and P/V as its parity.
fn szxy(r: u8) -> u8 {
    flag(r & 0x80 != 0, S) | flag(r == 0, Z) | (r & (Y | X))
}
fn szxyp(r: u8) -> u8 {
    szxy(r) | flag(r.count_ones().is_multiple_of(2), PV)
}

fn add(a: u8, b: u8, c: u8) -> (u8, u8) {
    let wide = a as u16 + b as u16 + c as u16;
    let r = wide as u8;
    let half = (a & 15) + (b & 15) + c > 15;
    let signed = a as i8 as i16 + b as i8 as i16 + c as i16;
    let f =
        szxy(r) | flag(half, H) | flag(!(-128..=127).contains(&signed), PV) | flag(wide > 255, C);
    (r, f)
}

fn sub(a: u8, b: u8, c: u8) -> (u8, u8) {
    let wide = a as i16 - b as i16 - c as i16;
    let r = wide as u8;
    let half = (a & 15) as i16 - (b & 15) as i16 - (c as i16) < 0;
    let signed = a as i8 as i16 - b as i8 as i16 - c as i16;
    let f =
        szxy(r) | flag(half, H) | flag(!(-128..=127).contains(&signed), PV) | N | flag(wide < 0, C);
    (r, f)
}

/// The instruction `op` (as in alucrc.asm's OPS table) on A, F and B: the new A and F.
fn model(op: &[u8], a: u8, f: u8, b: u8) -> (u8, u8) {
    let c = f & C;
    let keep = f & (S | Z | PV);
    match op {
        [0x80] => add(a, b, 0),
        [0x88] => add(a, b, c),
        [0x90] => sub(a, b, 0),
        [0x98] => sub(a, b, c),
        [0xA0] => (a & b, szxyp(a & b) | H),
        [0xA8] => (a ^ b, szxyp(a ^ b)),
        [0xB0] => (a | b, szxyp(a | b)),
        [0xB8] => {
            // CP: flags of A - B, but X and Y from B.
            let (_, fl) = sub(a, b, 0);
            (a, (fl & !(X | Y)) | (b & (X | Y)))
        }
        [0x3C] => {
            let r = a.wrapping_add(1);
            (r, szxy(r) | flag(a & 15 == 15, H) | flag(a == 0x7F, PV) | c)
        }
        [0x3D] => {
            let r = a.wrapping_sub(1);
            (
                r,
                szxy(r) | flag(a & 15 == 0, H) | flag(a == 0x80, PV) | N | c,
            )
        }
        [0x07] => {
            let r = a.rotate_left(1);
            (r, keep | (r & (X | Y)) | (a >> 7))
        }
        [0x0F] => {
            let r = a.rotate_right(1);
            (r, keep | (r & (X | Y)) | (a & 1))
        }
        [0x17] => {
            let r = (a << 1) | c;
            (r, keep | (r & (X | Y)) | (a >> 7))
        }
        [0x1F] => {
            let r = (a >> 1) | (c << 7);
            (r, keep | (r & (X | Y)) | (a & 1))
        }
        [0x27] => {
            // DAA: the correction from the low and high digits, added or subtracted by N.
            let n = f & N != 0;
            let low = f & H != 0 || a & 15 > 9;
            let high = c != 0 || a > 0x99;
            let corr = flag(low, 0x06) | flag(high, 0x60);
            let r = if n {
                a.wrapping_sub(corr)
            } else {
                a.wrapping_add(corr)
            };
            let h = if n {
                f & H != 0 && a & 15 <= 5
            } else {
                a & 15 > 9
            };
            (r, szxyp(r) | flag(h, H) | (f & N) | flag(high, C))
        }
        [0x2F] => {
            let r = !a;
            (r, (f & (S | Z | PV | C)) | H | N | (r & (X | Y)))
        }
        // SCF and CCF after POP AF (Q = 0): X and Y from A OR F.
        [0x37] => (a, keep | ((a | f) & (X | Y)) | C),
        [0x3F] => (a, keep | ((a | f) & (X | Y)) | flag(c != 0, H) | (c ^ 1)),
        [0xED, 0x44] => sub(0, a, 0),
        [0xCB, y] if y & 0xC0 == 0 => {
            let (r, out) = match y >> 3 {
                0 => (a.rotate_left(1), a >> 7),
                1 => (a.rotate_right(1), a & 1),
                2 => ((a << 1) | c, a >> 7),
                3 => ((a >> 1) | (c << 7), a & 1),
                4 => (a << 1, a >> 7),
                5 => ((a >> 1) | (a & 0x80), a & 1),
                6 => ((a << 1) | 1, a >> 7),
                _ => (a >> 1, a & 1),
            };
            (r, szxyp(r) | out)
        }
        [0xCB, y] if y & 0xC0 == 0x40 => {
            // BIT n,A: Z and P/V = the bit is 0, S = bit 7 set and tested, X and Y from A.
            let n = (y >> 3) & 7;
            let set = a & (1 << n) != 0;
            let fl = flag(!set, Z | PV) | flag(n == 7 && set, S) | H | (a & (X | Y)) | c;
            (a, fl)
        }
        _ => panic!("no model for {op:02X?}"),
    }
}

/// CRC-32 (reflected EDB88320h), as alucrc.asm computes it.
struct Crc32 {
    table: [u32; 256],
    value: u32,
}

impl Crc32 {
    fn new() -> Self {
        let table = std::array::from_fn(|i| {
            (0..8).fold(i as u32, |c, _| {
                if c & 1 != 0 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                }
            })
        });
        Crc32 {
            table,
            value: 0xFFFF_FFFF,
        }
    }
    fn byte(&mut self, b: u8) {
        self.value = (self.value >> 8) ^ self.table[((self.value ^ b as u32) & 0xFF) as usize];
    }
    fn finish(&self) -> u32 {
        !self.value
    }
}

/// The ops, F values and B values of alucrc.asm, read from its source, so the model runs
/// exactly the table the program runs.
fn exerciser_tables() -> (Vec<Vec<u8>>, Vec<u8>, Vec<u8>) {
    let (com, ops) = assemble("alucrc", Some("OPS"));
    let addr = |name: &str| assemble("alucrc", Some(name)).1.unwrap() as usize - 0x100;
    let mut list = Vec::new();
    let mut p = ops.unwrap() as usize - 0x100;
    while com[p] != 0 {
        let len = com[p] as usize;
        list.push(com[p + 1..p + 1 + len].to_vec());
        p += 3;
    }
    let f = addr("FVALS");
    let b = addr("BVALS");
    let fvals = com[f..b].to_vec();
    let bvals = com[b..addr("INA")].to_vec();
    (list, fvals, bvals)
}

fn model_crc() -> u32 {
    let (ops, fvals, bvals) = exerciser_tables();
    assert_eq!(ops.len(), 30);
    assert_eq!((fvals.len(), bvals.len()), (6, 8));
    let mut crc = Crc32::new();
    for op in &ops {
        for &f in &fvals {
            for &b in &bvals {
                for a in 0..=255u8 {
                    let (ra, rf) = model(op, a, f, b);
                    crc.byte(ra);
                    crc.byte(rf);
                }
            }
        }
    }
    crc.finish()
}

#[test]
fn the_crc_model_is_crc32() {
    let mut c = Crc32::new();
    for &b in b"123456789" {
        c.byte(b);
    }
    assert_eq!(c.finish(), 0xCBF4_3926, "the CRC-32 check value");
}

#[test]
fn model_spot_checks() {
    // A few values from the Z80 manual and the undocumented-flags literature.
    assert_eq!(model(&[0x80], 0x7F, 0, 0x01), (0x80, S | H | PV));
    assert_eq!(model(&[0x90], 0x00, 0, 0x01), (0xFF, S | Y | H | X | N | C));
    assert_eq!(model(&[0x27], 0x9A, 0, 0), (0x00, Z | H | PV | C));
    assert_eq!(model(&[0x27], 0x15, N | H, 0), (0x0F, X | H | PV | N));
    assert_eq!(model(&[0xED, 0x44], 0x80, 0, 0), (0x80, S | PV | N | C));
    assert_eq!(model(&[0x3F], 0x00, C, 0), (0x00, H));
}

#[test]
fn alucrc_prints_the_crc_of_the_model() {
    let (com, _) = assemble("alucrc", None);
    let (r, out) = run_com(&com, 1_000_000_000);
    let run = r.expect("alucrc ends normally");
    assert_eq!(run.exit, CpmExit::SystemReset);
    let expected = format!("CRC {:08X}\r\n", model_crc());
    assert_eq!(
        out, expected,
        "the Z80's CRC (left) against the model's (right)"
    );
}
