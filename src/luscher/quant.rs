//! Quantised weights: the numbers the Z80 endgame module will hold.
//!
//! Every weight is a signed 16-bit word in units of 1/[`QSCALE`] half-move (64 units a
//! half-move: the largest weight of our KRK, KBBK, KBNK and KPPKP fits, 58.6 half-moves
//! being 3,749 units, against the word's ±512 half-moves), rounded to the nearest unit (ties
//! away from zero). A man's value is the sum of its active configurations' words and the
//! evaluation the side to move's men's minus the other side's, all in 16-bit two's complement
//! that wraps as the Z80's `ADD HL,DE` does: only the total has to fit the word, not the
//! partial sums, and the total is exact as long as |evaluation| < 512 half-moves. `luscher
//! fit` reports the largest |evaluation| of its sets, and refuses a weight outside the word.
//!
//! The host's statistics after quantisation evaluate with the words divided by 64: sums of
//! such numbers below 2⁴⁰ are exact in `f64`, so they are the Z80's totals (see
//! [`Quantised::eval`] and the test that compares the two on every KRK position).
//!
//! **Engine scale** (for the module; the full build scores in signed words, 256 = a pawn, a
//! mate `MATE − plies` with MATE 32000, MATEMIN 31936): the module's value `E` (units above,
//! side to move) becomes `LWIN + E` where the function calls the position won (E above
//! [`win_threshold`], OFFSET/2 half-moves = 177 units), `−LWIN + E` where it calls it lost,
//! and `E / 64` (half-moves, a few units) where it calls it a draw, with `LWIN` = 16384, E
//! first clamped to ±8191 ([`ENGINE_LIMIT`] − 1: 128 half-moves; KRK, KBBK and KBNK stay
//! within 76, only KPPKP's odd positions reach 194 and are clamped). Then a won ending scores
//! 16,562..24,575, above every non-won score of the full build (material and exchange are
//! clamped to ±P_SCLAMP = 3,840, board control and development to ±P_BCCLMP = 192, the
//! knowledge terms a few hundred with the default block) and below MATEMIN, so a mate found by the search still
//! ranks first.

use super::fit::{type_name, Model};
use super::LuscherError;
use crate::tablebase::men::Men;

/// Units per half-move of a quantised weight.
pub const QSCALE: f64 = 64.0;
/// The engine's offset for a won ending (see the module text).
pub const LWIN: i32 = 16384;
/// |quantised evaluation| must stay below this for the engine scale to hold.
pub const ENGINE_LIMIT: i32 = 8192;

/// A weight in units, or `None` when it does not fit a signed 16-bit word.
pub fn quantise(w: f64) -> Option<i16> {
    let q = (w * QSCALE).round();
    if q.is_finite() && (i16::MIN as f64..=i16::MAX as f64).contains(&q) {
        Some(q as i16)
    } else {
        None
    }
}

/// The quantised evaluation's win threshold in units: the function says "win" above it
/// (OFFSET / 2 half-moves, as the float function; `−` it for "loss").
pub fn win_threshold(offset: f64) -> i32 {
    (offset / 2.0 * QSCALE).floor() as i32
}

/// The engine score (256 = a pawn) the module gives a quantised evaluation (module text);
/// E is first clamped to ±([`ENGINE_LIMIT`] − 1), so the order holds for any E.
pub fn engine_score(e: i16, offset: f64) -> i32 {
    engine_score_at(e, win_threshold(offset))
}

/// [`engine_score`] with the win threshold `t` in units (the exported `LT<NAME>TH`).
pub fn engine_score_at(e: i16, t: i32) -> i32 {
    let e = (e as i32).clamp(1 - ENGINE_LIMIT, ENGINE_LIMIT - 1);
    if e > t {
        LWIN + e
    } else if e < -t {
        -LWIN + e
    } else {
        e / QSCALE as i32
    }
}

/// A model's weights as 16-bit words, and the model with those words as its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantised {
    /// Per piece type, in the model's order: the words.
    pub words: Vec<Vec<i16>>,
    /// The same model with every weight replaced by its word / [`QSCALE`].
    pub model: Model,
}

impl Quantised {
    /// Quantise every weight; a weight outside the word is an error, named.
    pub fn of(model: &Model) -> Result<Quantised, LuscherError> {
        let mut words = Vec::with_capacity(model.types.len());
        let mut q = model.clone();
        for (role, cs, w) in q.types.iter_mut() {
            let mut ws = Vec::with_capacity(w.len());
            for (k, x) in w.iter_mut().enumerate() {
                let word = quantise(*x).ok_or_else(|| LuscherError::Range {
                    name: model.name.clone(),
                    what: format!(
                        "{} configuration {:08x} weight {x}",
                        type_name(*role),
                        cs.masks[k]
                    ),
                })?;
                *x = word as f64 / QSCALE;
                ws.push(word);
            }
            words.push(ws);
        }
        Ok(Quantised { words, model: q })
    }

    /// The largest |word| of the model.
    pub fn max_word(&self) -> i32 {
        self.words
            .iter()
            .flatten()
            .map(|&w| (w as i32).abs())
            .max()
            .unwrap_or(0)
    }

    /// One man's value in units, summed with the Z80's wrap-around.
    pub fn man_value(&self, role: u8, v: u32, buf: &mut Vec<u32>) -> i16 {
        match self.model.types.iter().position(|t| t.0 == role) {
            Some(ty) => {
                self.model.types[ty].1.active(v, buf);
                buf.iter()
                    .fold(0i16, |a, &k| a.wrapping_add(self.words[ty][k as usize]))
            }
            None => 0,
        }
    }

    /// The evaluation for the side to move in units, as the Z80 module will compute it
    /// (16-bit wrap-around throughout).
    pub fn eval(&self, men: &Men, stm: u8) -> i16 {
        let mut buf = Vec::new();
        let mut e = 0i16;
        for i in 0..men.n {
            let v = super::features::vector(men, i, stm, self.model.options);
            let x = self.man_value(men.role[i], v, &mut buf);
            e = if men.color[i] == stm {
                e.wrapping_add(x)
            } else {
                e.wrapping_sub(x)
            };
        }
        e
    }
}
