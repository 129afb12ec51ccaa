//! The full build's KBNK tables: [`Config::edge_triple`]'s fitted model
//! in the bytes the Z80 reads (`asm/full/kbnk_tables.asm`, expansion ROM page 6, written by
//! `z80chess luscher kbnk-tables`), and the host model of the Z80's table evaluation
//! (KBTAB and KBREP in `asm/full/kbnk.asm`, P_KBNK = 2) on those bytes ([`Tables::score`]).
//!
//! Layout (all in quanta of 1 ply: at 2 plies the estimate ties so often that which of
//! the tied moves the search meets first decides the game, `KF_ROOT` in tests/endgames/kbnk_fit.rs):
//! - `KBTMAP`, 64 bytes: the class (0..19) of each square that is its own least image under
//!   the four colour-keeping symmetries ([`super::kbnk_fit::turn`]), FFh elsewhere;
//! - `KBTSK`, `KBTKN`, `KBTBS`, 1,280 bytes each: the pair tables (the bare king's class ×
//!   64 + the strong king's, the knight's, the bishop's normalised square), each less its
//!   least cell;
//! - `KBTTRI`, 6,272 bytes: the triple's nibbles (low nibble first), its cell
//!   ((bare king's file × 28 + (file step + 3) × 4 + rank step) × 64 + knight's square)
//!   with the bare king on a1..g1 after the symmetries, the steps of the strong king from
//!   it clamped to ±3 (the rank step 0..3), less the triple's least level: its low 4 bits;
//! - `KBTHI`, 1,568 bytes: each cell's fifth bit (cell `i` in bit `i & 7` of byte `i >> 3`);
//! - `KBTOFF`, 1 byte: the triple's level (0..31) off the edge;
//! - `KBTBAS`, a word: the score's base, KBBASE − 16 × the four tables' least cells, so that
//!   score = KBTBAS − 16 × (the three pair bytes + the triple's level): 20,000 − 16 × the
//!   plies.

use super::kbnk::{self, Kbnk, KBMATE};
use super::kbnk_fit::{norm, turn, Config, Dense, Feature, Model};
use super::LuscherError;
use std::fmt::Write;

/// Bare-king classes (least images under the symmetries).
pub const CLASSES: usize = 20;
/// Bytes of a pair table.
pub const PAIR_BYTES: usize = CLASSES * 64;
/// Bytes of the triple (7 × 28 × 64 nibbles).
pub const TRIPLE_BYTES: usize = 7 * 28 * 64 / 2;
/// Bytes of the triple's fifth bits.
pub const HI_BYTES: usize = 7 * 28 * 64 / 8;
/// Plies in a quantum.
const QUANTUM: f32 = 1.0;

/// The tables as the Z80 reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    pub class: [u8; 64],
    /// The strong king's, the knight's, the bishop's.
    pub pair: [Vec<u8>; 3],
    pub triple: Vec<u8>,
    /// The triple's fifth bits.
    pub hi: Vec<u8>,
    pub off: u8,
    pub base: u16,
}

/// Fits [`Config::edge_triple`] to the KBNK table of the store in `dir` (built there if
/// missing; a minute or two): the tables and the fit's notes.
pub fn generate(dir: &std::path::Path) -> Result<(Tables, Vec<String>), LuscherError> {
    let d = Dense::load(dir)?;
    let m = Model::fit(Config::edge_triple(), &d);
    Ok((Tables::from_model(&m)?, m.notes))
}

/// Is `x` its own least image?
pub fn least(x: usize) -> bool {
    (0..4).all(|k| turn(k, x) >= x)
}

/// The triple's nibble index of the normalised bare king (on a1..g1), strong king and
/// knight.
pub fn tri_index(wk: usize, sk: usize, n: usize) -> usize {
    let df = ((sk & 7) as i32 - wk as i32).clamp(-3, 3) + 3;
    let dr = (sk >> 3).min(3);
    ((wk * 28 + df as usize * 4 + dr) * 64) + n
}

fn shape_error(why: &str) -> LuscherError {
    LuscherError::Usage(format!(
        "the KBNK tables need Config::edge_triple's shape: {why}"
    ))
}

impl Tables {
    /// The ROM form of a model fitted with [`Config::edge_triple`].
    pub fn from_model(m: &Model) -> Result<Tables, LuscherError> {
        let c: &Config = &m.c;
        let shape = matches!(c.feats.as_slice(),
            [Feature::Squares(a), Feature::Squares(b), Feature::Squares(d), Feature::Edge { sk: 3, n: 0 }]
            if a == &[1, 0] && b == &[1, 3] && d == &[1, 2]);
        if !shape || !c.sym || c.edge != 6 || c.per_stm || c.quantum != QUANTUM || c.oracle {
            return Err(shape_error("three pairs and the edge triple, 1-ply quanta"));
        }
        let t = &m.t[0];
        let q = |v: f32| (v / QUANTUM).round() as i32;
        let mut class = [0xFFu8; 64];
        let squares: Vec<usize> = (0..64).filter(|&x| least(x)).collect();
        if squares.len() != CLASSES {
            return Err(shape_error("20 least images"));
        }
        for (i, &x) in squares.iter().enumerate() {
            class[x] = i as u8;
        }
        let mut base = kbnk::KBBASE;
        let mut top = 0;
        let mut pair: [Vec<u8>; 3] = Default::default();
        for (k, p) in pair.iter_mut().enumerate() {
            let v: Vec<i32> = squares
                .iter()
                .flat_map(|&x| (0..64).map(move |y| (x, y)))
                .map(|(x, y)| q(t[k][x * 64 + y]))
                .collect();
            let (lo, hi) = (*v.iter().min().unwrap(), *v.iter().max().unwrap());
            if hi - lo > 255 {
                return Err(shape_error("a pair table spans more than 255 quanta"));
            }
            *p = v.iter().map(|&x| (x - lo) as u8).collect();
            base -= 16 * lo;
            top += hi - lo;
        }
        let mut cells = vec![0i32; 2 * TRIPLE_BYTES];
        for wk in 0..7 {
            for df in 0..7 {
                for dr in 0..4 {
                    for n in 0..64 {
                        let host = ((wk * 49 + df * 7 + dr + 3) * 64) + n;
                        cells[((wk * 28 + df * 4 + dr) * 64) + n] = q(t[3][host]);
                    }
                }
            }
        }
        let off = q(t[3][0]);
        let lo = *cells.iter().min().unwrap().min(&off);
        let hi = *cells.iter().max().unwrap().max(&off);
        if hi - lo > 31 {
            return Err(shape_error("the triple spans more than 32 levels"));
        }
        let triple = cells
            .chunks(2)
            .map(|c| ((c[0] - lo) & 15 | ((c[1] - lo) & 15) << 4) as u8)
            .collect();
        let hi_bits = cells
            .chunks(8)
            .map(|c| (0..8).fold(0, |b, k| b | ((c[k] - lo) >> 4 & 1) << k) as u8)
            .collect();
        base -= 16 * lo;
        top += 31;
        if !(0..32768).contains(&base) || base - 16 * top <= 0 {
            return Err(shape_error("the scores leave 1..32767"));
        }
        Ok(Tables {
            class,
            pair,
            triple,
            hi: hi_bits,
            off: (off - lo) as u8,
            base: base as u16,
        })
    }

    /// The bytes as they stand in the ROM (see the module header), each table at its label.
    pub fn from_rom(at: impl Fn(&str, usize) -> Vec<u8>) -> Tables {
        let base = at("KBTBAS", 2);
        Tables {
            class: at("KBTMAP", 64).try_into().unwrap(),
            pair: [
                at("KBTSK", PAIR_BYTES),
                at("KBTKN", PAIR_BYTES),
                at("KBTBS", PAIR_BYTES),
            ],
            triple: at("KBTTRI", TRIPLE_BYTES),
            hi: at("KBTHI", HI_BYTES),
            off: at("KBTOFF", 1)[0],
            base: u16::from_le_bytes([base[0], base[1]]),
        }
    }

    /// The estimate in quanta less the tables' least cells (what KBTAB sums).
    pub fn sum(&self, p: &Kbnk) -> i32 {
        let [sk, wk, b, n] = norm(p);
        let c = self.class[wk] as usize * 64;
        let pairs =
            self.pair[0][c + sk] as i32 + self.pair[1][c + n] as i32 + self.pair[2][c + b] as i32;
        let level = if wk < 7 {
            let i = tri_index(wk, sk, n);
            (self.triple[i >> 1] >> (4 * (i & 1)) & 15) + 16 * (self.hi[i >> 3] >> (i & 7) & 1)
        } else {
            self.off
        };
        pairs + level as i32
    }

    /// KBTAB: the position's score (the strong side's view), whoever is to move.
    pub fn table(&self, p: &Kbnk) -> i32 {
        self.base as i32 - 16 * self.sum(p)
    }

    /// KBNKEV with P_KBNK = 2 (the strong side's view; None: declined, the bare king to
    /// move takes a piece): the strong side to move, [`Tables::table`]; the bare king to
    /// move, mated [`KBMATE`], stalemated 0, else the least table score after each of its
    /// steps (KBREP).
    pub fn score(&self, p: &Kbnk) -> Option<i32> {
        if p.strong_to_move {
            return Some(self.table(p));
        }
        if p.hangs() {
            return None;
        }
        let steps = kbnk::neighbours(p.wk).filter(|&s| p.flight(s));
        let after = steps.map(|s| {
            self.table(&Kbnk {
                wk: s,
                strong_to_move: true,
                ..*p
            })
        });
        Some(after.min().unwrap_or(if p.check() { KBMATE } else { 0 }))
    }

    /// The tables as assembler source (`asm/full/kbnk_tables.asm`).
    pub fn asm(&self) -> String {
        let mut s = String::new();
        let bytes = |s: &mut String, label: &str, b: &[u8]| {
            let _ = writeln!(s, "{label}:");
            for row in b.chunks(16) {
                let v: Vec<String> = row.iter().map(|x| x.to_string()).collect();
                let _ = writeln!(s, "        DB      {}", v.join(","));
            }
        };
        let _ = write!(
            s,
            "; ===========================================================================\n\
             ; full/kbnk_tables.asm: GENERATED by `z80chess luscher kbnk-tables` from our\n\
             ; KBNK table (src/luscher/kbnk_fit.rs fits, src/luscher/kbnk_tables.rs lays\n\
             ; out). Do not edit. Page 6, after full/kbnk.asm (KBTAB reads it):\n\
             ; plies to mate in quanta of 1 ply, score = KBTBAS - 16 * (KBTSK + KBTKN\n\
             ; + KBTBS + the triple's level: its nibble + 16 * its KBTHI bit). {} bytes.\n\
             ; ===========================================================================\n\n",
            64 + 3 * PAIR_BYTES + TRIPLE_BYTES + HI_BYTES + 3
        );
        let _ = writeln!(s, "KBTBAS: DW      {}", self.base);
        let _ = writeln!(s, "KBTOFF: DB      {}", self.off);
        bytes(&mut s, "KBTMAP", &self.class);
        for (l, p) in ["KBTSK", "KBTKN", "KBTBS"].iter().zip(&self.pair) {
            bytes(&mut s, l, p);
        }
        bytes(&mut s, "KBTTRI", &self.triple);
        bytes(&mut s, "KBTHI", &self.hi);
        s
    }
}
