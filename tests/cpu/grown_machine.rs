//! The full machine grows. A 256-byte parameter block (three stored blocks at 6000h in the
//! machine's new RAM, the active one at C000h) with `P_FLAGS2` at offset 80h, read and written
//! through 'W'/'V' at every offset, set by parameter files and copied into the active block by
//! SELPRM; the host's table and bit names in step with `asm/full/params.asm`. (The memory map
//! itself, RAM at 6000h-7FFFh and eight pages: `tests/executor/banking.rs`.)

use z80chess::firmware::params::{flags2, Block, ParamFile, BLOCK_SIZE, CMD_PREAD, CMD_PWRITE};
use z80chess::firmware::{parse_fen, sargon, Build, Engine, FirmwareError};

fn sym(name: &str) -> u16 {
    Build::Full
        .symbol(name)
        .unwrap_or_else(|| panic!("no symbol {name} in the full build"))
}

fn refused(r: Result<Vec<u8>, FirmwareError>) -> u8 {
    match r {
        Err(FirmwareError::Rejected { code, .. }) => code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

const EBADPRM: u8 = 0x10;

#[test]
fn the_block_is_256_bytes_in_the_new_ram() {
    assert_eq!(sym("PBLKSZ"), BLOCK_SIZE);
    assert_eq!(BLOCK_SIZE, 0x100);
    let stored = sym("PRMBLK");
    assert_eq!(stored & 0xFF, 0, "page aligned");
    assert!(
        (0x6000..0x8000).contains(&stored) && stored as u32 + 3 * 0x100 <= 0x8000,
        "the stored blocks lie in 6000h-7FFFh: {stored:04X}h"
    );
    assert_eq!(sym("PRM"), 0xC000, "the active block stays at C000h");
    assert_eq!(sym("P_FLAGS2"), sym("PRM") + 0x80);
    // Every parameter lies in the bytes SELPRM copies (PRMUSED), inside the block.
    let used = sym("PRMUSED");
    assert!(used <= BLOCK_SIZE);
    let ps = Engine::new(Build::Full).unwrap().params().unwrap();
    for p in &ps {
        let size = if p.def.kind == z80chess::firmware::params::Kind::Word {
            2
        } else {
            1
        };
        assert!(
            p.offset + size <= used,
            "{} at {:02X}h lies beyond PRMUSED {used:02X}h: SELPRM would not copy it",
            p.def.name,
            p.offset
        );
    }
    let f2 = ps.iter().find(|p| p.def.name == "P_FLAGS2").unwrap();
    assert_eq!(
        (f2.offset, f2.values),
        (0x80, [DEFAULT_F2 as i32; 3]),
        "the KPK bitbase and the ordering, quiescence and lazy evaluation on, 4-7 off"
    );
}

/// P_FLAGS2's default: the KPK bitbase and the search's ordering, quiescence and lazy
/// evaluation on (since a 40/7200 match against the search without them); the reserved bits
/// off.
const DEFAULT_F2: u8 = flags2::KPKBB | flags2::ORDER | flags2::QUIES | flags2::LAZY;

#[test]
fn the_flags2_bits_are_the_firmware_s() {
    for (name, mask) in flags2::ALL {
        assert_eq!(sym(name), mask as u16, "{name}");
    }
    let all = flags2::ALL.iter().fold(0u8, |a, (_, m)| {
        assert_eq!(a & m, 0, "bits named twice");
        a | m
    });
    assert_eq!(all, 0xFF, "every bit of P_FLAGS2 named");
    assert_eq!(flags2::KPKBB, 1, "bit 0 is the KPK bitbase");
}

#[test]
fn the_grown_block_round_trips_through_w_and_v() {
    let mut e = Engine::new(Build::Full).unwrap();
    // Offsets at and beyond 80h, up to the block's last byte.
    e.command(CMD_PWRITE, &[1, 0x80, 3, 0x0A, 0xB0, 0xC1])
        .unwrap();
    e.command(CMD_PWRITE, &[2, 0xFE, 2, 0x12, 0x34]).unwrap();
    e.command(CMD_PWRITE, &[0, 0xFF, 1, 0x99]).unwrap();
    assert_eq!(
        e.command(CMD_PREAD, &[1, 0x80, 3]).unwrap(),
        [0x0A, 0xB0, 0xC1]
    );
    assert_eq!(e.command(CMD_PREAD, &[2, 0xFE, 2]).unwrap(), [0x12, 0x34]);
    // A range ending exactly at the block's end, n = 0 at the last offset.
    assert_eq!(e.command(CMD_PREAD, &[0, 0x80, 0x80]).unwrap().len(), 0x80);
    assert_eq!(e.command(CMD_PREAD, &[0, 0xFF, 0]).unwrap().len(), 0);
    let blocks: Vec<Vec<u8>> = Block::ALL
        .iter()
        .map(|&b| e.read_block(b).unwrap())
        .collect();
    assert!(blocks.iter().all(|b| b.len() == 0x100));
    assert_eq!(&blocks[1][0x80..0x83], &[0x0A, 0xB0, 0xC1]);
    assert_eq!(&blocks[2][0xFE..], &[0x12, 0x34]);
    assert_eq!(blocks[0][0xFF], 0x99);
    assert_eq!(
        blocks[0][0x80], DEFAULT_F2,
        "block 0's P_FLAGS2 untouched (its default)"
    );
    assert_eq!(
        blocks[1][..0x80],
        blocks[0][..0x80],
        "the low halves untouched"
    );
    // Ranges past the block's end, and a block that does not exist, are refused.
    assert_eq!(refused(e.command(CMD_PREAD, &[0, 0xFF, 2])), EBADPRM);
    assert_eq!(e.command(CMD_PREAD, &[0, 0x01, 0xFF]).unwrap().len(), 0xFF);
    assert_eq!(refused(e.command(CMD_PREAD, &[0, 0x02, 0xFF])), EBADPRM);
    assert_eq!(refused(e.command(CMD_PWRITE, &[0, 0x81, 0x80])), EBADPRM);
    assert_eq!(refused(e.command(CMD_PREAD, &[3])), EBADPRM);
    assert_eq!(
        e.read_block(Block::E4).unwrap(),
        blocks[1],
        "a refused command wrote nothing"
    );
    // 'W' FFh: every block back to the ROM's defaults, the free bytes zero.
    e.command(CMD_PWRITE, &[0xFF]).unwrap();
    let fresh = Engine::new(Build::Full)
        .unwrap()
        .read_block(Block::Default)
        .unwrap();
    for b in Block::ALL {
        let now = e.read_block(b).unwrap();
        assert_eq!(now[0x80], DEFAULT_F2, "{b}: P_FLAGS2's default");
        assert!(
            now[0x83..0x88]
                .iter()
                .chain(&now[0x8A..0xA0])
                .chain(&now[0xA7..0xB0])
                .chain(&now[0xB6..])
                .all(|&x| x == 0),
            "{b}"
        );
        assert_eq!(
            now[0x81..0x83],
            [48, 48],
            "{b}: the cheap stage's margins (P_CEMN, P_CEMC, 3 pawns)"
        );
        assert_eq!(
            now[0x88..0x8A],
            [4, 32],
            "{b}: the quiescence search's defaults (P_QDEP, P_QDELT)"
        );
        assert_eq!(
            now[0xB0..0xB6],
            [2, 8, 24, 16, 4, 8],
            "{b}: the KBBK procedure's defaults (P_KBBK, P_BBGR, P_BBKD, P_BBFL, P_BBAR, P_BBUNC)"
        );
        assert_eq!(
            now[0xA0..0xA7],
            [3, 8, 24, 8, 8, 8, 4],
            "{b}: the KBNK procedure's defaults (P_KBNK, P_KBGR, P_KBKD, P_KBND, P_KBFL, P_KBUNC, P_KBDEP)"
        );
        if b != Block::D4 {
            assert_eq!(now, fresh, "{b}");
        }
    }
}

#[test]
fn a_parameter_file_sets_p_flags2_and_selprm_copies_it() {
    let pf = ParamFile::parse(
        "# the search's switches\nP_FLAGS2 = 0x0A\n[e4]\nP_FLAGS2 = 0x01\n",
        "f2.params",
    )
    .unwrap();
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&pf).unwrap();
    let ps = e.params().unwrap();
    let f2 = ps.iter().find(|p| p.def.name == "P_FLAGS2").unwrap();
    assert_eq!(f2.values, [0x0A, 0x01, 0x0A]);
    assert_eq!(f2.address, sym("P_FLAGS2"));
    let active = |e: &Engine| e.machine.bus.mem[sym("P_FLAGS2") as usize];
    // The active block gets the block the opening picks, at its next evaluation.
    sargon::prepare(&mut e, None, Some("e2e4 e7e5")).unwrap();
    e.eval().unwrap();
    assert_eq!(active(&e), 0x01, "after 1.e4: the e4 block's");
    sargon::prepare(&mut e, None, Some("d2d4")).unwrap();
    e.eval().unwrap();
    assert_eq!(active(&e), 0x0A, "after 1.d4: the d4 block's");
    // A set-up position: the default block's, through a search too.
    let pos = parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 40").unwrap();
    sargon::load(&mut e, &pos).unwrap();
    e.machine.bus.mem[sym("P_FLAGS2") as usize] = 0;
    e.search(1, false).unwrap();
    assert_eq!(active(&e), 0x0A);
    // Out of range and unknown values are refused by line.
    let err = ParamFile::parse("P_FLAGS2 = 256\n", "bad.params").unwrap_err();
    assert!(err.to_string().contains("bad.params:1"), "{err}");
}
