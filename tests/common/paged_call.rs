//! One `full` routine in an expansion page, called on a board the test sets up: the harness
//! `tests/endgames/kbbk.rs` (KBBKEV), `tests/endgames/kbnk.rs` (KBNKEV) and `tests/endgames/kpkbase.rs` (KPKEV) share.
#![allow(dead_code)]

use z80chess::firmware::{Build, Engine};
use z80chess::machine::StopReason;

/// A `full` symbol's address.
pub fn sym(n: &str) -> u16 {
    Build::Full
        .symbol(n)
        .unwrap_or_else(|| panic!("no symbol {n}"))
}

/// An ending routine's answer read from its flags: `None` = not its ending (zero), `Some(None)`
/// = declined (neither), `Some(Some(hl))` = scored (carry, HL the score).
pub type Got = Option<Option<i32>>;

/// A `full` engine whose active block holds the defaults, and a stub in free RAM that selects
/// the routine's page, calls it and stops: `LD A,page; OUT (04h),A; CALL routine; OUT (FFh),A`.
pub struct PagedCall {
    pub e: Engine,
    stub: u16,
    board: u16,
    color: u16,
    /// The T-states the last call took, the stub included.
    pub t: u64,
}

impl PagedCall {
    /// `routine` in expansion page `page`, through a stub written at `stub` (RAM nobody reads).
    pub fn new(page: u8, routine: &str, stub: u16) -> PagedCall {
        let mut e = Engine::new(Build::Full).unwrap();
        e.eval().unwrap(); // the active block gets the defaults (SELPRM)
        let k = sym(routine).to_le_bytes();
        let code = [0x3E, page, 0xD3, 0x04, 0xCD, k[0], k[1], 0xD3, 0xFF];
        e.machine.bus.mem[stub as usize..stub as usize + code.len()].copy_from_slice(&code);
        PagedCall {
            e,
            stub,
            board: sym("BOARD"),
            color: sym("COLOR"),
            t: 0,
        }
    }

    /// The machine's memory (the active block's parameters, the routine's variables).
    pub fn mem(&mut self) -> &mut [u8] {
        &mut self.e.machine.bus.mem[..]
    }

    /// The routine on a board holding only `men` (square 0..63 = a1..h8, the firmware's piece
    /// byte: type 1–6, 80h for Black) with White or Black to move; returns (F, HL). COLOR is
    /// set by POINTS' convention: the side that has just moved.
    pub fn call(&mut self, men: &[(u8, u8)], white_to_move: bool) -> (u8, i32) {
        let board = self.board;
        let at = |s: u8| (board + 21 + 10 * (s as u16 / 8) + s as u16 % 8) as usize;
        let m = &mut self.e.machine;
        for s in 0..64u8 {
            m.bus.mem[at(s)] = 0;
        }
        for &(s, piece) in men {
            m.bus.mem[at(s)] = piece;
        }
        m.bus.mem[self.color as usize] = if white_to_move { 0x80 } else { 0 };
        m.cpu.pc = self.stub;
        m.cpu.sp = 0x6000;
        let t0 = m.cpu.t;
        match m.run(10_000_000) {
            StopReason::Exit(_) => {}
            other => panic!("the routine did not return: {other:?}"),
        }
        self.t = m.cpu.t - t0;
        (m.cpu.f, m.cpu.hl() as i16 as i32)
    }

    /// [`call`](Self::call) read as an ending routine's answer ([`Got`]).
    pub fn ending(&mut self, men: &[(u8, u8)], white_to_move: bool) -> Got {
        let (f, hl) = self.call(men, white_to_move);
        if f & 1 != 0 {
            Some(Some(hl))
        } else if f & 0x40 != 0 {
            None
        } else {
            Some(None)
        }
    }
}
