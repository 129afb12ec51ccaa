//! Shared by the full build's tests (lazy, ceval, quies, breakpoints): a small deterministic generator, random
//! positions of a phase (random games from the start), a search watched by an observer, and
//! the full ROM's symbols and words.
#![allow(dead_code)]

use shakmaty::{Chess, Position};
use z80chess::firmware::protocol::Command;
use z80chess::firmware::{sargon, Build, Engine};
use z80chess::machine::{Observer, StopReason};

/// A symbol of the full build's ROM.
pub fn sym(name: &str) -> u16 {
    Build::Full
        .symbol(name)
        .unwrap_or_else(|| panic!("roms/full.sym has no {name}"))
}

/// The signed word at `a`.
pub fn word(mem: &[u8; 0x10000], a: u16) -> i16 {
    i16::from_le_bytes([mem[a as usize], mem[a as usize + 1]])
}

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }
}

/// Positions of a phase: random games from the start cut after `lo..=hi` plies.
pub fn playouts(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Vec<Chess> {
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Chess::default();
        let plies = lo + rng.below(hi - lo + 1);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        if !pos.legal_moves().is_empty() && pos.fullmoves().get() > 1 {
            out.push(pos);
        }
    }
    out
}

/// A search to `level` from `pos` (loaded first), watched by `obs` to its end.
pub fn observed_search(e: &mut Engine, pos: &Chess, level: u8, obs: &mut dyn Observer) {
    sargon::load(e, pos).unwrap();
    observed_search_here(e, level, obs);
}

/// A search to `level` from the position loaded, watched by `obs` to its end.
pub fn observed_search_here(e: &mut Engine, level: u8, obs: &mut dyn Observer) {
    let bytes = Command::Search {
        level,
        iterate: false,
        timed: false,
    }
    .encode()
    .unwrap();
    e.machine.take_output();
    e.machine.send(&bytes);
    loop {
        match e.machine.run_observed_dyn(u64::MAX, obs) {
            StopReason::InputNeeded if e.machine.pending_input() == 0 => break,
            StopReason::InputNeeded => continue,
            other => panic!("the search stopped: {other:?}"),
        }
    }
    let out = e.machine.take_output();
    assert_eq!(out.first(), Some(&0), "the search refused: {out:?}");
}
