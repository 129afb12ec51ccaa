//! KBNK evaluations fitted to our table's distance to mate (DTM): the
//! fitting shared by `tests/endgames/kbnk_fit.rs` (host play against perfect defence) and the
//! generator of the full build's tables (`z80chess luscher kbnk-tables`,
//! [`super::kbnk_tables`]).
//!
//! The evaluation that converts ([`Config::edge_triple`]): the bishop brought to a dark
//! square (files mirrored), the board turned by the four symmetries that keep a square's
//! colour so that the bare king stands on its least image ([`norm`]); then the plies to
//! mate estimated as the sum of
//! - three pair tables on the bare king's square: with the strong king's, the knight's, the
//!   bishop's (20 bare-king squares × 64 after the symmetries);
//! - a triple table (bare king, strong king, knight) when the bare king is on the edge and
//!   at most 6 king steps from a corner of the bishop's colour (after the symmetries a1..g1:
//!   the wrong corner h1 left out), the strong king as file and rank steps from the bare
//!   king clamped to ±3 (49 cells), the knight's square (64): 7 × 49 × 64 cells, fitted last
//!   as the pair tables' residual and held to 32 levels of 1 ply (5 bits; the bare king
//!   on rank 1 leaves the strong king 4 of the 7 rank steps, so 7 × 28 × 64 nibbles =
//!   6,272 bytes and as many fifth bits, 1,568 bytes, hold it); off the edge the triple's
//!   cell 0 (never a position) holds the mean residual there;
//!
//! least squares over the won positions weighted by 1 / (1 + plies), by backfitting (each
//! table's cell the weighted mean residual of the others). The leaf score is 20,000 − 16 ×
//! the estimate, with no penalty for an unclaimed position; a leaf with the bare king to
//! move scores its best king step (the least score after each of its moves; 0 when it
//! takes a piece).

use super::kbnk::{self, Kbnk, Verdict, Weights};
use super::LuscherError;
use crate::tablebase::men::BLACK;
use crate::tablebase::men::WHITE;
use crate::tablebase::{Metric, Store, Val};
use std::path::Path;

// ---- the table, dense ------------------------------------------------------------------

/// Index of a position in [`Dense`].
pub fn idx(p: &Kbnk) -> usize {
    ((((p.strong_to_move as usize) * 64 + p.sk as usize) * 64 + p.wk as usize) * 64 + p.b as usize)
        * 64
        + p.n as usize
}

/// A legal KBNK position (White strong)?
pub fn legal(p: &Kbnk) -> bool {
    let (sk, wk, b, n) = (p.sk, p.wk, p.b, p.n);
    let distinct = sk != wk && sk != b && sk != n && wk != b && wk != n && b != n;
    distinct && kbnk::cheb(sk, wk) > 1 && !(p.strong_to_move && p.check())
}

/// Every legal KBNK position, White strong, either side to move (the bare king's side
/// first, then by the strong king, the bare king, the bishop, the knight).
pub fn all() -> impl Iterator<Item = Kbnk> {
    (0..2 * 64 * 64 * 64 * 64usize).filter_map(|i| {
        let p = Kbnk {
            strong_to_move: i >> 24 == 1,
            sk: (i >> 18 & 63) as u8,
            wk: (i >> 12 & 63) as u8,
            b: (i >> 6 & 63) as u8,
            n: (i & 63) as u8,
        };
        legal(&p).then_some(p)
    })
}

/// Our KBNK table as one byte per (stm, sk, wk, b, n): 0 draw, 255 not a position,
/// plies + 1 ([`Val::byte`]).
pub struct Dense(pub Vec<u8>);

impl Dense {
    /// The table of the store in `dir` (built there if missing), read once into
    /// `dir/KBNK.dense` (32 MiB) and from it after.
    pub fn load(dir: &Path) -> Result<Dense, LuscherError> {
        let cache = dir.join("KBNK.dense");
        if let Ok(d) = std::fs::read(&cache) {
            if d.len() == 1 << 25 {
                return Ok(Dense(d));
            }
        }
        let mut s = Store::new(dir, Metric::Dtm);
        s.table("KBNK")?;
        let mut d = vec![255u8; 1 << 25];
        for p in all() {
            let stm = if p.strong_to_move { WHITE } else { BLACK };
            d[idx(&p)] = s.value_of(&p.men(), stm, usize::MAX)?.byte();
        }
        // The cache is the command's own file, rewritten from the table.
        crate::outfile::write(&cache, &d, crate::outfile::Replace::Allow)?;
        Ok(Dense(d))
    }

    /// The side to move's value (None: not a position).
    pub fn val(&self, p: &Kbnk) -> Option<Val> {
        Val::of_byte(self.0[idx(p)])
    }

    /// Plies to mate for the strong side (None: not won).
    pub fn dtm(&self, p: &Kbnk) -> Option<i32> {
        match self.val(p)? {
            Val::Win(d) if p.strong_to_move => Some(d as i32),
            Val::Loss(d) if !p.strong_to_move => Some(d as i32),
            _ => None,
        }
    }
}

// ---- the models --------------------------------------------------------------------------

/// One table of a model. Men: 0 the strong king, 1 the bare king, 2 the bishop, 3 the knight.
#[derive(Clone, Debug)]
pub enum Feature {
    /// The men's squares (after [`norm`]), every position.
    Squares(Vec<usize>),
    /// (bare king, strong king, knight) when the bare king is on the edge near a right
    /// corner ([`Config::edge`]); the strong king and the knight as squares (window 0) or as
    /// file and rank steps from the bare king clamped to ±window. Elsewhere cell 0 (never a
    /// position: the kings on one square).
    Edge { sk: i32, n: i32 },
    /// The bare king's flight squares (0..8), and who is to move (9 × stm).
    Flights,
}

/// Which model, how fitted, how scored.
#[derive(Clone, Debug)]
pub struct Config {
    pub feats: Vec<Feature>,
    /// The four colour-keeping symmetries applied (the bare king to its least image).
    pub sym: bool,
    /// The edge triple's squares: at most this many king steps from a1 or h8.
    pub edge: u8,
    /// Separate tables for each side to move.
    pub per_stm: bool,
    /// Fit only these rows: Some(true) the strong side to move.
    pub only: Option<bool>,
    /// Least-squares weight (1 + plies)^-wexp.
    pub wexp: f64,
    pub passes: usize,
    /// Every `step`-th position fitted.
    pub step: usize,
    /// Cells rounded to this many plies (0: not).
    pub quantum: f32,
    /// The largest table held to 2^bits levels around its median.
    pub bits: u32,
    /// An unclaimed leaf (a piece near the bare king uncovered) scores this much less.
    pub unc: i32,
    /// The exact table instead of a fit (the upper bound).
    pub oracle: bool,
    /// A leaf with the bare king to move scores its best king step (the least score of
    /// the positions after it: 0 when it takes a piece), so that odd depths see what even
    /// depths see.
    pub reply: bool,
}

impl Config {
    /// The model that converts (the module header), the full build's tables.
    pub fn edge_triple() -> Config {
        Config {
            feats: vec![
                Feature::Squares(vec![1, 0]),
                Feature::Squares(vec![1, 3]),
                Feature::Squares(vec![1, 2]),
                Feature::Edge { sk: 3, n: 0 },
            ],
            sym: true,
            edge: 6,
            per_stm: false,
            only: None,
            wexp: 1.0,
            passes: 4,
            step: 3,
            quantum: 1.0,
            bits: 5,
            unc: 0,
            oracle: false,
            reply: true,
        }
    }

    /// The four men's squares after [`norm`] (`sym`), or with only the bishop brought to
    /// a dark square.
    pub fn norm(&self, p: &Kbnk) -> [usize; 4] {
        if self.sym {
            return norm(p);
        }
        let f = if kbnk::dark(p.b) { 0 } else { 7 };
        [p.sk ^ f, p.wk ^ f, p.b ^ f, p.n ^ f].map(|s| s as usize)
    }

    /// Is the (normalised) bare king's square one of the edge triple's?
    pub fn on_edge(&self, x: usize) -> bool {
        let (f, r) = (x & 7, x >> 3);
        let rim = f == 0 || f == 7 || r == 0 || r == 7;
        rim && kbnk::cheb(x as u8, 0).min(kbnk::cheb(x as u8, 63)) <= self.edge
    }
}

/// Square `x` under colour-keeping symmetry `k`: 0 itself, 1 the a1-h8 diagonal's mirror,
/// 2 the a8-h1 diagonal's, 3 the half turn.
pub fn turn(k: usize, x: usize) -> usize {
    let (f, r) = (x & 7, x >> 3);
    match k {
        0 => x,
        1 => r + 8 * f,
        2 => (7 - r) + 8 * (7 - f),
        _ => (7 - f) + 8 * (7 - r),
    }
}

/// The four men's squares [strong king, bare king, bishop, knight] with the bishop brought
/// to a dark square (files mirrored), then the colour-keeping symmetry that brings the bare
/// king to its least image, ties broken by the strong king's, then the knight's.
pub fn norm(p: &Kbnk) -> [usize; 4] {
    let f = if kbnk::dark(p.b) { 0 } else { 7 };
    let s = [p.sk ^ f, p.wk ^ f, p.b ^ f, p.n ^ f].map(|s| s as usize);
    (0..4)
        .map(|k| s.map(|x| turn(k, x)))
        .min_by_key(|t| (t[1], t[0], t[3], t[2]))
        .unwrap()
}

impl Feature {
    pub fn cells(&self) -> usize {
        let n = |w: i32| {
            if w == 0 {
                64
            } else {
                ((2 * w + 1) * (2 * w + 1)) as usize
            }
        };
        match self {
            Feature::Squares(m) => 1 << (6 * m.len()),
            Feature::Edge { sk, n: kn } => 64 * n(*sk) * n(*kn),
            Feature::Flights => 18,
        }
    }

    pub fn cell(&self, c: &Config, s: &[usize; 4], p: &Kbnk) -> usize {
        match self {
            Feature::Flights => p.flights() as usize + 9 * p.strong_to_move as usize,
            Feature::Squares(m) => m.iter().fold(0, |i, &x| i * 64 + s[x]),
            Feature::Edge { sk, n } => {
                if !c.on_edge(s[1]) {
                    return 0;
                }
                let part = |m: usize, w: i32| -> (usize, usize) {
                    if w == 0 {
                        return (s[m], 64);
                    }
                    let step = |a: usize, b: usize| (a as i32 - b as i32).clamp(-w, w) + w;
                    let df = step(s[m] & 7, s[1] & 7);
                    let dr = step(s[m] >> 3, s[1] >> 3);
                    (
                        (df * (2 * w + 1) + dr) as usize,
                        ((2 * w + 1) * (2 * w + 1)) as usize,
                    )
                };
                let (a, na) = part(0, *sk);
                let (b, nb) = part(3, *n);
                (s[1] * na + a) * nb + b
            }
        }
    }
}

/// A fitted model.
pub struct Model<'a> {
    pub c: Config,
    /// `t[stm][table][cell]`, plies.
    pub t: Vec<Vec<Vec<f32>>>,
    /// The fit's progress and the tables' ranges, one line each.
    pub notes: Vec<String>,
    d: &'a Dense,
}

impl<'a> Model<'a> {
    /// Fitted (and quantised) as `c` says.
    pub fn fit(c: Config, d: &'a Dense) -> Model<'a> {
        let t = vec![c.feats.iter().map(|f| vec![0.0; f.cells()]).collect(); 2];
        let mut m = Model {
            c,
            t,
            notes: Vec::new(),
            d,
        };
        if !m.c.oracle {
            m.backfit();
            m.quantise();
        }
        m
    }

    fn stm(&self, p: &Kbnk) -> usize {
        (self.c.per_stm && p.strong_to_move) as usize
    }

    /// Estimated plies to mate.
    pub fn est(&self, p: &Kbnk) -> f32 {
        let s = self.c.norm(p);
        let t = &self.t[self.stm(p)];
        let f = self.c.feats.iter().enumerate();
        f.map(|(k, f)| t[k][f.cell(&self.c, &s, p)]).sum()
    }

    /// Backfitting: each table's cell the weighted mean residual of the others.
    ///
    /// Each row's plies, side-to-move table and cells are worked out once (the cells in one
    /// flat array, `nf` a row); a row's estimate is summed over its cells in the features'
    /// order, as [`Model::est`] sums it, so the fit is the same number for number.
    fn backfit(&mut self) {
        let nf = self.c.feats.len();
        let mut cells: Vec<u32> = Vec::new();
        let rows: Vec<(u16, u8)> = all()
            .step_by(self.c.step)
            .filter(|p| self.c.only.is_none_or(|s| s == p.strong_to_move))
            .filter_map(|p| {
                let d = u16::try_from(self.d.dtm(&p)?).expect("a mate within 65,535 plies");
                let s = self.c.norm(&p);
                let cell = |f: &Feature| f.cell(&self.c, &s, &p) as u32;
                cells.extend(self.c.feats.iter().map(cell));
                Some((d, self.stm(&p) as u8))
            })
            .collect();
        let longest = rows.iter().map(|r| r.0).max().unwrap_or(0) as usize;
        let weight: Vec<f64> = (0..=longest)
            .map(|d| (1.0 + d as f32 as f64).powf(-self.c.wexp))
            .collect();
        let row = |i: usize| &cells[i * nf..(i + 1) * nf];
        for pass in 0..self.c.passes {
            for k in 0..nf {
                let size = self.t[0][k].len();
                let mut sum = vec![vec![0f64; size]; 2];
                let mut wt = vec![vec![0f64; size]; 2];
                for (i, &(d, st)) in rows.iter().enumerate() {
                    let (st, c) = (st as usize, row(i)[k] as usize);
                    let r = d as f32 - self.est_cells(st, row(i)) + self.t[st][k][c];
                    let w = weight[d as usize];
                    sum[st][c] += w * r as f64;
                    wt[st][c] += w;
                }
                for st in 0..2 {
                    for c in 0..size {
                        if wt[st][c] > 0.0 {
                            self.t[st][k][c] = (sum[st][c] / wt[st][c]) as f32;
                        }
                    }
                }
            }
            let se: f64 = (rows.iter().enumerate())
                .map(|(i, &(d, st))| {
                    ((d as f32 - self.est_cells(st as usize, row(i))) as f64).powi(2)
                })
                .sum();
            self.notes.push(format!(
                "pass {pass}: {} rows, rms {:.3} plies",
                rows.len(),
                (se / rows.len() as f64).sqrt()
            ));
        }
    }

    /// [`Model::est`] of a row whose cells are known.
    fn est_cells(&self, st: usize, cells: &[u32]) -> f32 {
        let t = &self.t[st];
        cells
            .iter()
            .enumerate()
            .map(|(k, &c)| t[k][c as usize])
            .sum()
    }

    /// Cells rounded to `quantum` plies; the largest table held to 2^bits levels.
    fn quantise(&mut self) {
        let q = self.c.quantum;
        for (k, t) in self.t.iter_mut().flatten().enumerate() {
            let used: Vec<f32> = t.iter().copied().filter(|&v| v != 0.0).collect();
            let lo = used.iter().copied().fold(f32::MAX, f32::min);
            let hi = used.iter().copied().fold(f32::MIN, f32::max);
            if used.is_empty() {
                continue;
            }
            self.notes.push(format!(
                "table {k}: {} cells used, {lo:.1}..{hi:.1} plies",
                used.len()
            ));
            if q <= 0.0 {
                continue;
            }
            let mut u: Vec<i32> = used.iter().map(|v| (v / q).round() as i32).collect();
            u.sort_unstable();
            let med = u.get(u.len() / 2).copied().unwrap_or(0);
            let levels = 1i32 << self.c.bits.min(30);
            let (lo, hi) = if t.len() > 4096 {
                (med - levels / 2, med + levels / 2 - 1)
            } else {
                (i32::MIN, i32::MAX)
            };
            let clamped = u.iter().filter(|&&v| v < lo || v > hi).count();
            if clamped > 0 {
                self.notes.push(format!(
                    "table {k}: {clamped} cells clamped to {lo}..{hi} quanta"
                ));
            }
            for v in t.iter_mut() {
                *v = ((*v / q).round() as i32).clamp(lo, hi) as f32 * q;
            }
        }
    }

    /// The strong side's score of a leaf: 0 when the bare king takes a piece (KBNKEV
    /// declines and POINTS sees the loss) or has no move (the search scores those).
    pub fn score(&self, p: &Kbnk) -> i32 {
        if self.c.reply && !p.strong_to_move {
            if p.hangs() {
                return 0;
            }
            let steps = kbnk::neighbours(p.wk).filter(|&s| p.flight(s));
            let after = steps.map(|s| {
                self.score1(&Kbnk {
                    wk: s,
                    strong_to_move: true,
                    ..*p
                })
            });
            return after.min().unwrap_or(0);
        }
        self.score1(p)
    }

    /// [`Model::score`] of the position itself.
    pub fn score1(&self, p: &Kbnk) -> i32 {
        let unc = match kbnk::eval(p, &Weights::DEFAULT) {
            Verdict::Decline | Verdict::Draw => return 0,
            Verdict::Win(kbnk::KBMATE) => return kbnk::KBMATE,
            Verdict::Win(_) => 0,
            Verdict::Likely(_) => self.c.unc,
        };
        let e = if self.c.oracle {
            self.d.dtm(p).unwrap_or(80) as f32
        } else {
            self.est(p)
        };
        kbnk::KBBASE - (e * 16.0).round() as i32 - unc
    }
}
