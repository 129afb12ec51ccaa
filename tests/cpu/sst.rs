//! SingleStepTests/z80: 1,604 opcode files x 25 tests = 40,100 single instructions, each checked
//! for every register and hidden latch (MEMPTR, Q, P, EI), memory, port traffic, the T-state
//! count and the position, address and data of every active bus cycle.
//!
//! SST lists one `cycles` entry per T-state, `[address, data, "rwmi"]`. We compare the entries
//! where a pin is active, derived from our bus log (start = T at which the M-cycle begins):
//!
//! | our cycle  | SST entry at | pins   | address | data      |
//! |------------|--------------|--------|---------|-----------|
//! | fetch (M1) | start + 1    | `r-m-` | PC      | null      |
//! | read       | start + 1    | `r-m-` | addr    | null      |
//! | write      | start + 1    | `-wm-` | addr    | the byte  |
//! | port in    | start + 2    | `r--i` | port    | null      |
//! | port out   | start + 2    | `-w-i` | port    | the byte  |
//!
//! and the instruction's length in T-states must equal `cycles.len()`.

use crate::common::bus::{self, Kind, TracingBus};
use serde_json::Value;
use std::collections::VecDeque;
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use z80chess::z80::Cpu;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/z80/sst/");

/// One mismatch: file, test name, field, expected, got.
struct Failure {
    file: String,
    test: String,
    field: String,
    expected: String,
    got: String,
}

fn u(v: &Value, key: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("missing numeric field {key:?}"))
}

/// The 8-bit, 16-bit and flag fields of `initial` / `final`, in the order they are reported.
const FIELDS: [&str; 25] = [
    "pc", "sp", "a", "f", "b", "c", "d", "e", "h", "l", "i", "r", "ix", "iy", "af_", "bc_", "de_",
    "hl_", "wz", "im", "iff1", "iff2", "ei", "p", "q",
];

fn get_field(cpu: &Cpu, key: &str) -> u64 {
    match key {
        "pc" => cpu.pc as u64,
        "sp" => cpu.sp as u64,
        "a" => cpu.a as u64,
        "f" => cpu.f as u64,
        "b" => cpu.b as u64,
        "c" => cpu.c as u64,
        "d" => cpu.d as u64,
        "e" => cpu.e as u64,
        "h" => cpu.h as u64,
        "l" => cpu.l as u64,
        "i" => cpu.i as u64,
        "r" => cpu.r as u64,
        "ix" => cpu.ix as u64,
        "iy" => cpu.iy as u64,
        "af_" => cpu.af_ as u64,
        "bc_" => cpu.bc_ as u64,
        "de_" => cpu.de_ as u64,
        "hl_" => cpu.hl_ as u64,
        "wz" => cpu.wz as u64,
        "im" => cpu.im as u64,
        "iff1" => cpu.iff1 as u64,
        "iff2" => cpu.iff2 as u64,
        "ei" => cpu.ei as u64,
        "p" => cpu.p as u64,
        "q" => cpu.q as u64,
        _ => unreachable!("{key}"),
    }
}

fn set_field(cpu: &mut Cpu, key: &str, v: u64) {
    let (b, w) = (v as u8, v as u16);
    match key {
        "pc" => cpu.pc = w,
        "sp" => cpu.sp = w,
        "a" => cpu.a = b,
        "f" => cpu.f = b,
        "b" => cpu.b = b,
        "c" => cpu.c = b,
        "d" => cpu.d = b,
        "e" => cpu.e = b,
        "h" => cpu.h = b,
        "l" => cpu.l = b,
        "i" => cpu.i = b,
        "r" => cpu.r = b,
        "ix" => cpu.ix = w,
        "iy" => cpu.iy = w,
        "af_" => cpu.af_ = w,
        "bc_" => cpu.bc_ = w,
        "de_" => cpu.de_ = w,
        "hl_" => cpu.hl_ = w,
        "wz" => cpu.wz = w,
        "im" => cpu.im = b,
        "iff1" => cpu.iff1 = v != 0,
        "iff2" => cpu.iff2 = v != 0,
        "ei" => cpu.ei = v != 0,
        "p" => cpu.p = v != 0,
        "q" => cpu.q = b,
        _ => unreachable!("{key}"),
    }
}

fn pairs(v: &Value, key: &str) -> Vec<(u16, u8)> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("missing array {key:?}"))
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as u16, p[1].as_u64().unwrap() as u8))
        .collect()
}

/// An active bus T-state: (index in `cycles`, address, data, pins).
type Active = (usize, u16, Option<u8>, String);

fn fmt_active(a: Option<&Active>) -> String {
    match a {
        None => "nothing".into(),
        Some((i, addr, d, pins)) => match d {
            Some(d) => format!("T{i} {pins} {addr:04X} {d:02X}"),
            None => format!("T{i} {pins} {addr:04X}"),
        },
    }
}

/// Run one test on `bus` (left clean for the next test). Returns the mismatches as
/// (field, expected, got).
fn run_test(bus: &mut TracingBus, test: &Value) -> Vec<(String, String, String)> {
    let mut diffs = Vec::new();
    let init = &test["initial"];

    let mut cpu = Cpu::new();
    for key in FIELDS {
        set_field(&mut cpu, key, u(init, key));
    }
    cpu.halted = false;
    cpu.int_line = false;
    cpu.nmi_pending = false;
    cpu.t = 0;

    let init_ram = pairs(init, "ram");
    for &(a, v) in &init_ram {
        bus.mem[a as usize] = v;
    }
    let ports = ports_of(test);
    bus.port_values = Some(
        ports
            .iter()
            .filter(|p| p.2 == "r")
            .map(|p| p.1)
            .collect::<VecDeque<u8>>(),
    );
    bus.events.clear();

    match bus::catch(|| cpu.step_dyn(bus)) {
        Ok(()) => compare(&cpu, bus, test, &ports, &mut diffs),
        Err(msg) => diffs.push(("step".into(), "no panic".into(), msg)),
    }

    // Leave the bus as found: zero every byte this test set or wrote.
    for &(a, _) in &init_ram {
        bus.mem[a as usize] = 0;
    }
    for e in &bus.events {
        if e.kind == Kind::Write {
            bus.mem[e.addr as usize] = 0;
        }
    }
    diffs
}

/// The test's port activity: (port, value, "r" or "w").
fn ports_of(test: &Value) -> Vec<(u16, u8, String)> {
    test.get("ports")
        .and_then(Value::as_array)
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    (
                        p[0].as_u64().unwrap() as u16,
                        p[1].as_u64().unwrap() as u8,
                        p[2].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The registers, memory, ports, bus cycles and T-states after the step, against the test's.
fn compare(
    cpu: &Cpu,
    bus: &TracingBus,
    test: &Value,
    ports: &[(u16, u8, String)],
    diffs: &mut Vec<(String, String, String)>,
) {
    let fin = &test["final"];
    for key in FIELDS {
        let (want, got) = (u(fin, key), get_field(cpu, key));
        if want != got {
            diffs.push((key.to_string(), format!("{want:#X}"), format!("{got:#X}")));
        }
    }
    for (a, v) in pairs(fin, "ram") {
        let got = bus.mem[a as usize];
        if got != v {
            diffs.push((
                format!("ram[{a:04X}]"),
                format!("{v:02X}"),
                format!("{got:02X}"),
            ));
        }
    }

    // Port activity, in order.
    let got_ports: Vec<(u16, u8, String)> = bus
        .events
        .iter()
        .filter_map(|e| match e.kind {
            Kind::PortIn => Some((e.addr, e.data, "r".to_string())),
            Kind::PortOut => Some((e.addr, e.data, "w".to_string())),
            _ => None,
        })
        .collect();
    if got_ports != ports {
        diffs.push((
            "ports".into(),
            format!("{ports:X?}"),
            format!("{got_ports:X?}"),
        ));
    }

    // Bus activity: the active T-states, and the instruction's length.
    let cycles = test["cycles"].as_array().expect("cycles");
    let want_active: Vec<Active> = cycles
        .iter()
        .enumerate()
        .filter(|(_, c)| c[2].as_str() != Some("----"))
        .map(|(i, c)| {
            (
                i,
                c[0].as_u64().unwrap() as u16,
                c[1].as_u64().map(|d| d as u8),
                c[2].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let got_active: Vec<Active> = bus
        .events
        .iter()
        .map(|e| {
            let (dt, pins, data) = match e.kind {
                Kind::FetchRead => (1, "r-m-", None),
                Kind::Read => (1, "r-m-", None),
                Kind::Write => (1, "-wm-", Some(e.data)),
                Kind::PortIn => (2, "r--i", None),
                Kind::PortOut => (2, "-w-i", Some(e.data)),
                Kind::IntAck => (0, "int-ack", Some(e.data)), // never expected here
            };
            (e.start_t as usize + dt, e.addr, data, pins.to_string())
        })
        .collect();
    if let Some(k) = (0..want_active.len().max(got_active.len()))
        .find(|&k| want_active.get(k) != got_active.get(k))
    {
        diffs.push((
            format!("bus cycle #{k}"),
            fmt_active(want_active.get(k)),
            fmt_active(got_active.get(k)),
        ));
    }
    if cpu.t != cycles.len() as u64 {
        diffs.push((
            "T-states".into(),
            cycles.len().to_string(),
            cpu.t.to_string(),
        ));
    }
}

fn run_file(bus: &mut TracingBus, path: &std::path::Path) -> (usize, Vec<Failure>) {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut gz = Vec::new();
    std::fs::File::open(path)
        .unwrap()
        .read_to_end(&mut gz)
        .unwrap();
    let mut json = Vec::with_capacity(gz.len() * 8);
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut json)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let tests: Value = serde_json::from_slice(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
    let tests = tests.as_array().expect("a JSON array of tests");
    let mut failures = Vec::new();
    for test in tests {
        let name = test["name"].as_str().unwrap_or("?").to_string();
        for (field, expected, got) in run_test(bus, test) {
            failures.push(Failure {
                file: file.clone(),
                test: name.clone(),
                field,
                expected,
                got,
            });
        }
    }
    (tests.len(), failures)
}

#[test]
fn single_step_tests() {
    let start = std::time::Instant::now();
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("{DIR}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 1604, "expected 1,604 SST files in {DIR}");

    let next = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut bus = TracingBus::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let (n, f) = run_file(&mut bus, path);
                    total.fetch_add(n, Ordering::Relaxed);
                    failures.lock().unwrap().extend(f);
                }
            });
        }
    });
    let total = total.into_inner();
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by(|a, b| (&a.file, &a.test).cmp(&(&b.file, &b.test)));

    // Per file: failing tests and the first mismatch; then the first mismatches in detail.
    let mut failed_tests: Vec<(&str, &str)> = failures
        .iter()
        .map(|f| (f.file.as_str(), f.test.as_str()))
        .collect();
    failed_tests.dedup();
    let mut per_file: Vec<(&str, usize, &Failure)> = Vec::new();
    for (file, _) in &failed_tests {
        match per_file.last_mut() {
            Some(last) if last.0 == *file => last.1 += 1,
            _ => {
                let first = failures.iter().find(|f| f.file == *file).unwrap();
                per_file.push((file, 1, first));
            }
        }
    }
    const FILE_CAP: usize = 150;
    const DETAIL_CAP: usize = 60;
    for (file, n, f) in per_file.iter().take(FILE_CAP) {
        println!(
            "sst: {file}: {n} tests failed; first: {}: {} expected {} got {}",
            f.test, f.field, f.expected, f.got
        );
    }
    if per_file.len() > FILE_CAP {
        println!(
            "sst: ... and {} more failing files",
            per_file.len() - FILE_CAP
        );
    }
    for f in failures.iter().take(DETAIL_CAP) {
        println!(
            "sst:   {} | {} | {}: expected {} got {}",
            f.file, f.test, f.field, f.expected, f.got
        );
    }
    if failures.len() > DETAIL_CAP {
        println!("sst:   ... {} more mismatches", failures.len() - DETAIL_CAP);
    }
    let passed = total - failed_tests.len();
    println!(
        "sst: {total} tests, {passed} passed ({} files failing, {:.1}s)",
        per_file.len(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(total, 40_100, "expected 1,604 files x 25 tests");
    assert!(
        failed_tests.is_empty(),
        "{} SST tests failed",
        failed_tests.len()
    );
}
