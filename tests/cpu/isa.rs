//! The instruction-set table (`z80::isa`): complete, unambiguous, and timed as the silicon is.

use std::collections::{HashMap, HashSet};
use z80chess::z80::isa::{self, decode_slice, form, templates, Page, Part};
use z80chess::z80::{Cpu, FlatBus};

const SST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/z80/sst-tstates.tsv"
);

/// Every opcode byte sequence: one per table entry, with operand bytes filled by `fill`.
fn all_sequences(fill: u8) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for op in 0..=255u8 {
        match op {
            0xCB | 0xED => {
                for op2 in 0..=255u8 {
                    out.push(vec![op, op2, fill, fill]);
                }
            }
            0xDD | 0xFD => {
                for op2 in 0..=255u8 {
                    if op2 == 0xCB {
                        for op3 in 0..=255u8 {
                            out.push(vec![op, 0xCB, fill, op3]);
                        }
                    } else {
                        out.push(vec![op, op2, fill, fill]);
                    }
                }
            }
            _ => out.push(vec![op, fill, fill, fill]),
        }
    }
    out
}

#[test]
fn canonical_texts_are_unique() {
    let mut seen = HashMap::new();
    for t in templates() {
        if let Some(prev) = seen.insert(t.text.clone(), t.parts.clone()) {
            panic!("'{}' twice: {:?} and {:?}", t.text, prev, t.parts);
        }
    }
    // and byte layouts are unique too
    let layouts: HashSet<_> = templates().iter().map(|t| t.parts.clone()).collect();
    assert_eq!(layouts.len(), templates().len());
}

#[test]
fn template_count() {
    // 252 unprefixed + 256 CB + 78 ED (incl. IN F,(C), OUT (C),0, minus aliases)
    // + 2 x (DD/FD forms that use IX/IY) + 2 x (DDCB: 8 x 8 rotations + 8 BIT + 2 x 64 RES/SET).
    let n = templates().len();
    let by = |f: &dyn Fn(&isa::Template) -> bool| templates().iter().filter(|t| f(t)).count();
    let first = |t: &isa::Template| match t.parts[0] {
        Part::Byte(b) => b,
        _ => unreachable!(),
    };
    assert_eq!(by(&|t| !matches!(first(t), 0xCB | 0xDD | 0xED | 0xFD)), 252);
    assert_eq!(by(&|t| first(t) == 0xCB), 256);
    assert_eq!(
        by(&|t| first(t) == 0xDD && t.parts[1] == Part::Byte(0xCB)),
        8 * 8 + 8 + 2 * 64
    );
    // x=1: IN 8, OUT 8, SBC/ADC 8, LD (nn) 6, NEG, RETN, RETI, IM 3, LD I/R 4, RRD, RLD; block 16
    assert_eq!(
        by(&|t| first(t) == 0xED),
        8 + 8 + 8 + 6 + 1 + 2 + 3 + 6 + 16
    );
    let dd = by(&|t| first(t) == 0xDD);
    let fd = by(&|t| first(t) == 0xFD);
    assert_eq!(dd, fd);
    assert_eq!(n, 252 + 256 + 58 + dd + fd);
    // DD page: 18 (x=0) + 38 (LD) + 24 (ALU) + 5 (x=3) that use IX; DDCB 200.
    assert_eq!(dd, 85 + 200);
}

#[test]
fn template_text_conventions() {
    for t in templates() {
        let s = &t.text;
        assert_eq!(s.trim(), s);
        assert!(!s.contains(", "), "{s}");
        let (mn, ops) = s.split_once(' ').unwrap_or((s, ""));
        assert!(mn.chars().all(|c| c.is_ascii_uppercase()), "{s}");
        assert!(!ops.contains(' '), "{s}");
        // placeholders agree with the parts
        let words: Vec<&str> = ops
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let count = |w: &str| words.iter().filter(|x| **x == w).count();
        let parts = |p: Part| t.parts.iter().filter(|x| **x == p).count();
        assert_eq!(count("n"), parts(Part::Imm8), "{s}");
        assert_eq!(count("nn"), parts(Part::Imm16), "{s}");
        assert_eq!(count("d"), parts(Part::Disp), "{s}");
        assert_eq!(count("e"), parts(Part::Rel), "{s}");
        if count("d") == 1 {
            assert!(s.contains("(IX+d)") || s.contains("(IY+d)"), "{s}");
        }
    }
    let has = |s: &str| templates().iter().any(|t| t.text == s);
    for s in [
        "RST 38h",
        "RST 00h",
        "BIT 3,(HL)",
        "IM 2",
        "IM 0",
        "IN F,(C)",
        "OUT (C),0",
        "SLL B",
        "RLC (IX+d),B",
        "SET 3,(IX+d),A",
        "LD IXH,IYH",
        "LD HL,(nn)",
        "NEG",
        "RETN",
        "RETI",
        "EX AF,AF'",
        "JP (IY)",
        "LD (IY+d),n",
        "DJNZ e",
        "JR NC,e",
        "ADD A,IYL",
        "SUB (IX+d)",
        "LD H,(IX+d)",
        "LD (IY+d),L",
        "BIT 7,(IY+d)",
    ] {
        if s == "LD IXH,IYH" {
            assert!(!has(s), "mixed index registers do not exist");
        } else {
            assert!(has(s), "missing {s}");
        }
    }
    for s in [
        "IN (C)",
        "IM 0/1",
        "NOP NOP",
        "LD IXH,(IX+d)",
        "BIT 0,(IX+d),B",
    ] {
        assert!(!has(s), "{s} should not be a template");
    }
}

#[test]
fn every_sequence_decodes_with_the_right_length() {
    let mut canonical = 0;
    for fill in [0x00, 0x80, 0xFF] {
        for seq in all_sequences(fill) {
            let d = decode_slice(&seq, 0x4000);
            assert!((1..=4).contains(&d.len), "{seq:02X?}");
            let layout: usize = d.parts.iter().map(|p| p.len()).sum();
            assert_eq!(layout, d.len as usize);
            // the fixed bytes of the layout are the bytes decoded
            let mut k = 0;
            for p in d.parts {
                if let Part::Byte(b) = p {
                    assert_eq!(*b, seq[k], "{seq:02X?}");
                }
                k += p.len();
            }
            // expected length by the structure of the encoding
            let op = seq[0];
            let expect = match op {
                0xCB => 2,
                0xED => {
                    2 + 2
                        * (matches!(
                            seq[1],
                            0x43 | 0x4B | 0x53 | 0x5B | 0x63 | 0x6B | 0x73 | 0x7B
                        ) as usize)
                }
                0xDD | 0xFD if seq[1] == 0xCB => 4,
                0xDD | 0xFD if matches!(seq[1], 0xDD | 0xFD | 0xED) => 1,
                0xDD | 0xFD => 1 + main_len(seq[1]) + uses_disp(seq[1]) as usize,
                _ => main_len(op),
            };
            assert_eq!(d.len as usize, expect, "{seq:02X?} {}", d.template);
            if fill == 0 && d.canonical {
                canonical += 1;
            }
            // non-canonical encodings re-assemble as DB and say what they are
            if !d.canonical {
                assert!(d.source().starts_with("DB "), "{seq:02X?}");
                assert!(d.note.is_some());
            } else {
                assert!(
                    !d.text()
                        .contains(|c: char| c.is_ascii_lowercase() && c != 'h' && c != 'x'),
                    "{}",
                    d.text()
                );
            }
        }
    }
    assert_eq!(canonical, templates().len());
}

fn main_len(op: u8) -> usize {
    match op {
        0x01 | 0x11 | 0x21 | 0x31 | 0x22 | 0x2A | 0x32 | 0x3A | 0xC3 | 0xCD => 3,
        _ if op & 0xC7 == 0xC2 || op & 0xC7 == 0xC4 => 3,
        0x10 | 0x18 | 0x20 | 0x28 | 0x30 | 0x38 | 0xD3 | 0xDB => 2,
        _ if op & 0xC7 == 0x06 || op & 0xC7 == 0xC6 => 2,
        _ => 1,
    }
}

/// Does DD/FD op use (IX+d)?
fn uses_disp(op: u8) -> bool {
    let (x, y, z) = (op >> 6, (op >> 3) & 7, op & 7);
    match x {
        0 => matches!(op, 0x34..=0x36),
        1 => (y == 6) != (z == 6),
        2 => z == 6,
        _ => false,
    }
}

#[test]
fn operands_are_extracted() {
    let d = decode_slice(&[0xDD, 0x36, 0x80, 0x12], 0);
    assert_eq!((d.d, d.n), (Some(-128), Some(0x12)));
    assert_eq!(d.text(), "LD (IX-0x80),0x12");
    let d = decode_slice(&[0xFD, 0xCB, 0x7F, 0x06], 0);
    assert_eq!(d.text(), "RLC (IY+0x7F)");
    let d = decode_slice(&[0x10, 0x80], 0x0010);
    assert_eq!(d.target, Some(0x0012u16.wrapping_sub(128)));
    let d = decode_slice(&[0x18, 0x7F], 0xFFF0);
    assert_eq!(d.target, Some(0x0071));
    let d = decode_slice(&[0xED, 0x4B, 0x34, 0x12], 0);
    assert_eq!(d.text(), "LD BC,(0x1234)");
    let d = decode_slice(&[0xED, 0x6B, 0x34, 0x12], 0);
    assert!(!d.canonical);
    assert_eq!(
        d.source(),
        "DB 0xED,0x6B,0x34,0x12 ; LD HL,(0x1234) (ED 6Bh: undocumented duplicate of 2Ah)"
    );
    let d = decode_slice(&[0xDD, 0x00], 0);
    assert!(!d.canonical);
    assert_eq!((d.len, d.timing.base), (2, 8));
    let d = decode_slice(&[0xFD, 0xDD, 0x21, 0, 0], 0);
    assert_eq!((d.len, d.timing.base, d.canonical), (1, 4, false));
    let d = decode_slice(&[0xC7 | 0x38], 0);
    assert_eq!(d.text(), "RST 38h");
    assert_eq!(decode_slice(&[0xED, 0x70], 0).text(), "IN F,(C)");
    assert_eq!(decode_slice(&[0xED, 0x71], 0).text(), "OUT (C),0");
    assert_eq!(decode_slice(&[0xCB, 0x30], 0).text(), "SLL B");
    assert_eq!(
        decode_slice(&[0xDD, 0xCB, 5, 0x9F], 0).text(),
        "RES 3,(IX+0x05),A"
    );
    assert!(!decode_slice(&[0xDD, 0xCB, 5, 0x40], 0).canonical);
    assert!(!decode_slice(&[0xED, 0x4E], 0).canonical);
    assert!(!decode_slice(&[0xED, 0x77], 0).canonical);
    assert!(!decode_slice(&[0xED, 0x00], 0).canonical);
    assert!(decode_slice(&[0xED, 0x46], 0).canonical);
    assert!(decode_slice(&[0xED, 0x4D], 0).canonical);
    assert!(decode_slice(&[0xDD, 0x64], 0).canonical);
    assert!(!decode_slice(&[0xDD, 0xEB], 0).canonical);
}

#[test]
fn timings() {
    let t = |b: &[u8]| decode_slice(b, 0).timing.to_string();
    assert_eq!(t(&[0x20, 0]), "12/7");
    assert_eq!(t(&[0x10, 0]), "13/8");
    assert_eq!(t(&[0xC4, 0, 0]), "17/10");
    assert_eq!(t(&[0xC0]), "11/5");
    assert_eq!(t(&[0xED, 0xB0]), "21/16");
    assert_eq!(t(&[0xC2, 0, 0]), "10");
}

/// Timing of an SST file name such as `dd cb __ 06.json` or `ed b0.json`.
fn sst_sequence(name: &str) -> Vec<u8> {
    name.trim_end_matches(".json")
        .split(' ')
        .map(|w| {
            if w == "__" {
                0x05
            } else {
                u8::from_str_radix(w, 16).unwrap()
            }
        })
        .collect()
}

#[test]
fn timings_agree_with_singlesteptests() {
    let text = std::fs::read_to_string(SST).unwrap_or_else(|e| panic!("{SST}: {e}"));
    let mut checked = 0;
    let mut bad = Vec::new();
    for line in text.lines().skip(1) {
        let mut cols = line.split('\t');
        let (name, counts) = (cols.next().unwrap(), cols.next().unwrap());
        let mut seq = sst_sequence(name);
        seq.resize(4, 0x05);
        let d = decode_slice(&seq, 0);
        let observed: Vec<u64> = counts
            .split(',')
            .map(|c| c.split('(').next().unwrap().parse().unwrap())
            .collect();
        for &t in &observed {
            if !d.timing.allows(t) {
                bad.push(format!(
                    "{name}: SST {counts}, table {} ({})",
                    d.timing, d.template
                ));
            }
        }
        // both cases of a conditional are seen in SST when it has 1000 random tests of it,
        // unless one case is rare (a block repeat ending; DJNZ reaching 0)
        if observed.len() == 2 {
            assert!(
                d.timing.alt.is_some(),
                "{name}: SST sees two timings, table one"
            );
        }
        checked += 1;
    }
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert_eq!(checked, 1604);
}

#[test]
fn every_page_entry_exists() {
    for page in Page::ALL {
        for op in 0..=255u8 {
            let prefix_byte = match page {
                Page::Main => matches!(op, 0xCB | 0xDD | 0xED | 0xFD),
                Page::Dd | Page::Fd => op == 0xCB,
                _ => false,
            };
            assert_eq!(form(page, op).is_none(), prefix_byte, "{page:?} {op:02X}");
        }
    }
}

/// Where the control flow of a decoded unit may go, given the CPU state before it.
fn targets(d: &isa::Decoded, cpu: &Cpu, bus: &FlatBus) -> Vec<u16> {
    let next = d.addr.wrapping_add(d.len as u16);
    let t = d.template;
    let mn = t.split(' ').next().unwrap();
    let popped = u16::from_le_bytes([
        bus.mem[cpu.sp as usize],
        bus.mem[cpu.sp.wrapping_add(1) as usize],
    ]);
    match mn {
        _ if !d.canonical && t == "NOP" && d.len == 1 => vec![next], // ignored prefix: a unit of its own
        "JR" | "DJNZ" => vec![d.target.unwrap(), next],
        "JP" if t == "JP (HL)" => vec![cpu.hl()],
        "JP" if t == "JP (IX)" => vec![cpu.ix],
        "JP" if t == "JP (IY)" => vec![cpu.iy],
        "JP" | "CALL" => vec![d.nn.unwrap(), next],
        "RET" | "RETN" | "RETI" => vec![popped, next],
        "RST" => vec![u16::from_str_radix(&t[4..6], 16).unwrap()],
        "LDIR" | "LDDR" | "CPIR" | "CPDR" | "INIR" | "INDR" | "OTIR" | "OTDR" => vec![d.addr, next],
        _ => vec![next],
    }
}

/// Every opcode sequence runs on the CPU in the states that take and do not take its branch
/// (or repeat): the T-states and the PC movement are the table's.
#[test]
fn cpu_agrees_with_the_table() {
    const AT: u16 = 0x4000;
    let mut failures = Vec::new();
    let mut units = 0;
    for fill in [0x00u8, 0x05, 0xFB] {
        for seq in all_sequences(fill) {
            let mut seen = HashMap::<usize, HashSet<u64>>::new();
            let mut decoded_units = Vec::new();
            for f in [0x00u8, 0xFF] {
                for bc in [0x0001u16, 0x0101, 0x0202] {
                    let mut bus = FlatBus::default();
                    bus.mem[AT as usize..AT as usize + 4].copy_from_slice(&seq);
                    bus.mem[0x8000] = 0x34;
                    bus.mem[0x8001] = 0x12;
                    let mut cpu = Cpu::new();
                    cpu.pc = AT;
                    cpu.sp = 0x8000;
                    cpu.a = 0x55;
                    cpu.f = f;
                    cpu.set_bc(bc);
                    cpu.set_de(0xC300);
                    cpu.set_hl(0xC000);
                    cpu.ix = 0xC100;
                    cpu.iy = 0xC200;
                    // The table's units this step covers: an ignored DD/FD before DD/FD is
                    // a unit of its own, the CPU runs the whole prefix chain in one step.
                    let mut us = Vec::new();
                    let mut a = AT;
                    loop {
                        let d = isa::decode(|x| bus.mem[x as usize], a);
                        let own = !d.canonical && d.len == 1 && matches!(d.raw[0], 0xDD | 0xFD);
                        a = a.wrapping_add(d.len as u16);
                        us.push(d);
                        if !own {
                            break;
                        }
                    }
                    let last = us.last().unwrap().clone();
                    let fixed: u64 = us[..us.len() - 1]
                        .iter()
                        .map(|d| d.timing.base as u64)
                        .sum();
                    let before = cpu.clone();
                    let t0 = cpu.t;
                    cpu.step_dyn(&mut bus);
                    let dt = cpu.t - t0;
                    let name = format!("{:02X?} F={f:02X} BC={bc:04X}", &seq[..(a - AT) as usize]);
                    let own_t = dt.wrapping_sub(fixed);
                    if !last.timing.allows(own_t) {
                        failures.push(format!(
                            "{name}: CPU {dt} T, table {} ({})",
                            last.timing, last.template
                        ));
                    }
                    let ok_pc = targets(&last, &before, &bus);
                    if !ok_pc.contains(&cpu.pc) {
                        failures.push(format!(
                            "{name}: CPU PC {:04X}, table {:04X?} ({})",
                            cpu.pc, ok_pc, last.template
                        ));
                    }
                    // the fall-through case is the alt timing, the taken / repeating one the base
                    // (unless the taken target is the next instruction: JR with e = 0)
                    let ambiguous = ok_pc.len() == 2 && ok_pc[0] == ok_pc[1];
                    if let (Some(alt), false) = (last.timing.alt, ambiguous) {
                        let fell = cpu.pc == last.addr.wrapping_add(last.len as u16);
                        let want = if fell { alt } else { last.timing.base };
                        if own_t != want as u64 {
                            failures.push(format!(
                                "{name}: PC {:04X} after {own_t} T ({})",
                                cpu.pc, last.template
                            ));
                        }
                    }
                    seen.entry(0).or_default().insert(own_t);
                    decoded_units = us;
                }
            }
            let last = decoded_units.last().unwrap();
            units += 1;
            // both cases of every conditional were exercised
            let s = &seen[&0];
            if let Some(alt) = last.timing.alt {
                if !(s.contains(&(alt as u64)) && s.contains(&(last.timing.base as u64))) {
                    failures.push(format!(
                        "{seq:02X?}: saw only {s:?} of {} ({})",
                        last.timing, last.template
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(60)].join("\n")
    );
    assert_eq!(units, 3 * (252 + 256 + 256 + 2 * (255 + 256)));
}
