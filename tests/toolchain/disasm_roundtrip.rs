//! disassemble -> assemble reproduces the bytes: every opcode sequence of every page (with
//! several operand fillings), non-canonical encodings (as DB) included, with and without
//! symbols substituted for addresses.

use z80chess::asm::assemble_str;
use z80chess::disasm::{disassemble, disassemble_source, Symbols};

/// Every opcode sequence, each followed by its operand bytes from `fill`.
fn image(fill: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut k = 0;
    let mut f = || {
        k += 1;
        fill[k % fill.len()]
    };
    let mut push = |out: &mut Vec<u8>, head: &[u8]| {
        // decode the head and append exactly the operand bytes its layout needs
        let mut probe = head.to_vec();
        probe.resize(4, 0);
        let d = z80chess::z80::isa::decode_slice(&probe, 0);
        let mut bytes = head.to_vec();
        while bytes.len() < d.len as usize {
            bytes.push(f());
        }
        if head.len() == 4 {
            // DD CB d op: the displacement is the third byte
            bytes[2] = f();
        }
        out.extend_from_slice(&bytes[..d.len as usize]);
    };
    for op in 0..=255u8 {
        match op {
            0xCB | 0xED => (0..=255u8).for_each(|o| push(&mut out, &[op, o])),
            0xDD | 0xFD => {
                for o in 0..=255u8 {
                    if o == 0xCB {
                        (0..=255u8).for_each(|o3| push(&mut out, &[op, 0xCB, 0, o3]));
                    } else {
                        push(&mut out, &[op, o]);
                    }
                }
            }
            _ => push(&mut out, &[op]),
        }
    }
    out
}

fn round_trip(img: &[u8], org: u16, syms: &Symbols) {
    let src = disassemble_source(img, org, syms);
    let asm = match assemble_str(&src, "roundtrip.asm", &[]) {
        Ok(a) => a,
        Err(errs) => {
            let lines: Vec<&str> = src.lines().collect();
            let msgs: Vec<String> = errs
                .iter()
                .take(20)
                .map(|e| {
                    format!(
                        "{e}  <<{}>>",
                        lines.get((e.line as usize).wrapping_sub(1)).unwrap_or(&"")
                    )
                })
                .collect();
            panic!("{} errors:\n{}", errs.len(), msgs.join("\n"));
        }
    };
    assert_eq!(asm.origin, org);
    if asm.image != img {
        let at = asm
            .image
            .iter()
            .zip(img)
            .position(|(a, b)| a != b)
            .unwrap_or(img.len().min(asm.image.len()));
        let listing = disassemble(
            &img[at.saturating_sub(8)..(at + 8).min(img.len())],
            org,
            &Symbols::new(),
        );
        panic!(
            "images differ at 0x{:04X} (lengths {} and {}):\n{listing}",
            org as usize + at,
            asm.image.len(),
            img.len()
        );
    }
}

#[test]
fn every_opcode_round_trips() {
    for fill in [
        &[0x00u8][..],
        &[0xFF],
        &[0x80, 0x7F, 0x01, 0xFE, 0x12, 0x34],
    ] {
        let img = image(fill);
        assert!(img.len() < 0x8000);
        round_trip(&img, 0x0100, &Symbols::new());
        round_trip(&img, 0x8000, &Symbols::new());
    }
}

#[test]
fn round_trips_with_symbols() {
    let img = image(&[0x00, 0x01, 0x02, 0x03, 0x10, 0x20, 0xFE]);
    let mut syms = Symbols::new();
    // labels inside the image (some on instruction starts, some not), and outside it
    for (i, a) in [
        0x0100u16,
        0x0101,
        0x0103,
        0x0200,
        0x0201,
        0x0302,
        0x0100 + 0x0302,
        0x2010,
        0xFE20,
    ]
    .iter()
    .enumerate()
    {
        syms.insert(&format!("L{i}"), *a);
    }
    syms.insert("SECOND_NAME", 0x0100);
    let src = disassemble_source(&img, 0x0100, &syms);
    assert!(src.contains("L0:"), "{}", &src[..400]);
    // names replace 16-bit operands and jump targets; outside / mid-instruction ones get EQU
    let uses = src
        .lines()
        .filter(|l| l.starts_with('\t') && (l.contains(",L") || l.contains(" L")))
        .count();
    assert!(uses > 10, "{uses}");
    assert!(src.contains("L7: EQU 0x2010"), "{}", &src[..400]);
    round_trip(&img, 0x0100, &syms);
}

#[test]
fn truncated_image_round_trips() {
    for tail in [&[0xDDu8][..], &[0xDD, 0xCB, 0x05], &[0x21, 0x34], &[0xED]] {
        let mut img = vec![0x00, 0x3E, 0x12];
        img.extend_from_slice(tail);
        round_trip(&img, 0x1000, &Symbols::new());
    }
}
