//! Training data from a tablebase, the fit, the paper's statistics and the model file.
//!
//! Targets (Lüscher §4): a position the side to move wins in d plies gets
//! `max + OFFSET − d`, a loss in d plies `−(max + OFFSET − d)`, a draw 0, where `max` is the
//! longest distance in the table. [`OFFSET`] was set once so that the untrained average error
//! (the mean |target|, the untrained function returning 0) over all of KRK is the paper's 15.6
//! half-moves, and is used for every ending.
//!
//! The evaluation is Σ over the side to move's men of their active configurations' weights
//! minus the same over the other side's (§3.3); one set of configurations per piece type.
//! Outcome (the win/draw/loss table): the function says "win" above `OFFSET / 2`, "loss"
//! below `−OFFSET / 2`, "draw" between (every win target is at least OFFSET).
//!
//! One-ply search (§6.1, "half move search"): every legal move is scored by the function on
//! the position after it, negated; a move that mates scores `max + OFFSET`, one that
//! stalemates or leaves insufficient material (no pawn, rook or queen and at most one minor)
//! 0, a promotion in the pawn metric `max + OFFSET` (it ends the game there), and a capture
//! adds the material difference (P 1, N 3, B 3, R 5, Q 9) times [`MATERIAL_UNIT`] (the paper's
//! "piece balance"). The first best-scored move in generation order is played; it is a hit
//! when its tablebase value is the best any move reaches (ties count). The random mover's
//! rate is the mean share of optimal moves among the legal moves. Positions without a legal
//! move are left out of both.

use super::cg;
use super::configs::ConfigSet;
use super::features::{self, material, Options};
use super::quant::Quantised;
use super::LuscherError;
use crate::tablebase::men::*;
use crate::tablebase::{generate, Layout, Metric, Store, Table, Val, ILLEGAL};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// See the module text: KRK's untrained average error is 15.6 half-moves with it.
pub const OFFSET: f64 = 5.5446;
/// Half-moves per pawn of material difference in the one-ply search.
pub const MATERIAL_UNIT: f64 = 10.0;

/// The piece types with configurations, by role.
pub const TYPES: [u8; 6] = [KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN];

pub fn type_name(role: u8) -> &'static str {
    match role {
        KING => "king",
        QUEEN => "queen",
        ROOK => "rook",
        BISHOP => "bishop",
        KNIGHT => "knight",
        _ => "pawn",
    }
}

/// The metric a table of this ending is read in: Lüscher's pawn metric when there are pawns.
pub fn metric_for(l: &Layout) -> Metric {
    if l.pawns {
        Metric::Pawn
    } else {
        Metric::Dtm
    }
}

/// Fit settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub threshold: f64,
    pub max_features: u32,
    pub jobs: usize,
    /// Share of the table's positions in the training set (1: all).
    pub train_share: f64,
    /// Share in the test set (disjoint from training; 0: none).
    pub test_share: f64,
    pub max_iter: usize,
    pub options: Options,
    /// The one-ply search and the random mover consider only promotions to a queen (the
    /// paper does not say whether it counted under-promotions, which tie with the queen's in
    /// the pawn metric).
    pub queen_only: bool,
}

impl Settings {
    /// The paper's sets: all of KRK (and KBNK), half of KBBK for training and the other half
    /// for testing, 1% of a pawn ending for training (and another 1% for testing).
    pub fn for_ending(l: &Layout) -> Settings {
        let (train, test) = if l.pawns {
            (0.01, 0.01)
        } else if l.name == "KBBK" {
            (0.5, 0.5)
        } else {
            (1.0, 0.0)
        };
        Settings {
            threshold: 0.001,
            max_features: 3,
            jobs: 1,
            train_share: train,
            test_share: test,
            max_iter: 300,
            options: Options::default(),
            queen_only: false,
        }
    }
}

/// splitmix64: the fixed hash that draws the sets.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Which set an index falls in: 0 training, 1 test, 2 neither.
pub fn set_of(idx: usize, s: &Settings) -> u8 {
    let u = (mix(idx as u64) >> 11) as f64 / (1u64 << 53) as f64;
    if u < s.train_share {
        0
    } else if u < s.train_share + s.test_share {
        1
    } else {
        2
    }
}

/// The transform of §4.
pub fn target(v: Val, max: u8, offset: f64) -> f64 {
    match v {
        Val::Draw => 0.0,
        Val::Win(d) => max as f64 + offset - d as f64,
        Val::Loss(d) => -(max as f64 + offset - d as f64),
    }
}

/// The longest distance in a table.
pub fn max_distance(t: &Table) -> u8 {
    t.data
        .iter()
        .filter(|&&b| b != ILLEGAL && b != 0)
        .map(|&b| b - 1)
        .max()
        .unwrap_or(0)
}

/// Run `f` on `0..n` split into `jobs` contiguous blocks; the results in index order, so
/// the output does not depend on `jobs`.
pub fn par_map<T: Send>(n: usize, jobs: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let jobs = jobs.max(1).min(n.max(1));
    if jobs == 1 {
        return (0..n).map(&f).collect();
    }
    let per = n.div_ceil(jobs);
    let f = &f;
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..jobs)
            .map(|j| s.spawn(move || (j * per..((j + 1) * per).min(n)).map(f).collect::<Vec<T>>()))
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// A fitted evaluation: configurations and weights per piece type.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub name: String,
    pub max: u8,
    pub offset: f64,
    pub options: Options,
    /// (role, configurations, weights)
    pub types: Vec<(u8, ConfigSet, Vec<f64>)>,
}

impl Model {
    fn set(&self, role: u8) -> Option<&(u8, ConfigSet, Vec<f64>)> {
        self.types.iter().find(|t| t.0 == role)
    }

    /// The sum of one man's active configurations (0 for a type without any).
    pub fn man_value(&self, role: u8, v: u32, buf: &mut Vec<u32>) -> f64 {
        match self.set(role) {
            Some((_, cs, w)) => {
                cs.active(v, buf);
                buf.iter().map(|&k| w[k as usize]).sum()
            }
            None => 0.0,
        }
    }

    /// The evaluation for the side to move, with a per-piece cache keyed by the vector.
    pub fn eval(&self, men: &Men, stm: u8, cache: &mut HashMap<(u8, u32), f64>) -> f64 {
        let mut buf = Vec::new();
        let mut e = 0.0;
        for i in 0..men.n {
            let v = features::vector(men, i, stm, self.options);
            let role = men.role[i];
            let x = *cache
                .entry((role, v))
                .or_insert_with(|| self.man_value(role, v, &mut buf));
            e += if men.color[i] == stm { x } else { -x };
        }
        e
    }

    pub fn path(dir: &Path, name: &str) -> PathBuf {
        dir.join(format!("{name}.luscher"))
    }

    pub fn save(&self, path: &Path) -> Result<(), LuscherError> {
        let io = |source| LuscherError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut s = format!(
            "z80chess-luscher 1 {} max {} offset {:?} no-corner {}\n",
            self.name, self.max, self.offset, self.options.no_corner as u8
        );
        for (role, cs, w) in &self.types {
            s += &format!("type {} {}\n", type_name(*role), cs.len());
            for (m, x) in cs.masks.iter().zip(w) {
                s += &format!("{m:08x} {x:?}\n");
            }
        }
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).map_err(io)?;
        }
        // Refitting replaces the model: that is the command's job.
        Ok(crate::outfile::write(
            path,
            s.as_bytes(),
            crate::outfile::Replace::Allow,
        )?)
    }

    pub fn load(path: &Path) -> Result<Model, LuscherError> {
        let bad = |why: &str| LuscherError::BadModel {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        let text = crate::userfile::read_text(path, crate::userfile::MAX_FILE).map_err(|e| {
            LuscherError::Io {
                path: path.to_path_buf(),
                source: e.into_io(),
            }
        })?;
        let mut lines = text.lines();
        let head: Vec<&str> = lines
            .next()
            .ok_or_else(|| bad("empty"))?
            .split_whitespace()
            .collect();
        if head.len() != 9 || head[0] != "z80chess-luscher" || head[1] != "1" {
            return Err(bad(
                "first line is not `z80chess-luscher 1 NAME max M offset O no-corner B`",
            ));
        }
        let max = head[4].parse().map_err(|_| bad("max is not a number"))?;
        let offset = head[6].parse().map_err(|_| bad("offset is not a number"))?;
        let mut types = Vec::new();
        while let Some(l) = lines.next() {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() != 3 || f[0] != "type" {
                return Err(bad(&format!("expected `type NAME COUNT`, found '{l}'")));
            }
            let role = TYPES
                .iter()
                .copied()
                .find(|&r| type_name(r) == f[1])
                .ok_or_else(|| bad(&format!("unknown piece type '{}'", f[1])))?;
            let n: usize = f[2].parse().map_err(|_| bad("count is not a number"))?;
            let mut masks = Vec::with_capacity(n);
            let mut w = Vec::with_capacity(n);
            for _ in 0..n {
                let l = lines.next().ok_or_else(|| bad("truncated"))?;
                let (m, x) = l
                    .split_once(' ')
                    .ok_or_else(|| bad("bad configuration line"))?;
                masks.push(u32::from_str_radix(m, 16).map_err(|_| bad("bad mask"))?);
                w.push(x.parse().map_err(|_| bad("bad weight"))?);
            }
            let cs = ConfigSet::from_masks(masks.clone());
            if cs.masks != masks {
                return Err(bad("configurations not in jump-table order"));
            }
            types.push((role, cs, w));
        }
        Ok(Model {
            name: head[2].to_string(),
            max,
            offset,
            options: Options {
                no_corner: head[8] == "1",
            },
            types,
        })
    }
}

/// The positions of one set, as distinct feature vectors.
#[derive(Default)]
pub struct Data {
    pub idx: Vec<usize>,
    pub val: Vec<Val>,
    pub target: Vec<f64>,
    /// Per position, `n` entries (one per man): distinct-vector id and sign (+ side to move).
    pub man: Vec<u32>,
    pub sign: Vec<i8>,
}

/// Statistics of a model on a set (the paper's table).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub positions: usize,
    pub avg_before: f64,
    pub quad_before: f64,
    pub avg_after: f64,
    pub quad_after: f64,
    /// [database win/draw/loss][function win/draw/loss] counts.
    pub table: [[u64; 3]; 3],
    pub hit_positions: u64,
    pub hits: u64,
    pub random: f64,
    /// The one-ply figures per database outcome of the position (win, draw, loss for the
    /// side to move): positions searched, hits, and the random mover's expected hits.
    pub class_positions: [u64; 3],
    pub class_hits: [u64; 3],
    pub class_random: [f64; 3],
    /// The largest |evaluation| over the set, in half-moves (for the quantised range).
    pub max_abs: f64,
}

impl Stats {
    pub fn outcome_right(&self) -> f64 {
        let ok: u64 = (0..3).map(|k| self.table[k][k]).sum();
        100.0 * ok as f64 / self.positions.max(1) as f64
    }
    pub fn hit_rate(&self) -> f64 {
        100.0 * self.hits as f64 / self.hit_positions.max(1) as f64
    }
    pub fn random_rate(&self) -> f64 {
        100.0 * self.random / self.hit_positions.max(1) as f64
    }
    /// Hit rate and random mover's rate (%) of the positions of one database outcome.
    pub fn class_rates(&self, class: usize) -> (f64, f64) {
        let n = self.class_positions[class].max(1) as f64;
        (
            100.0 * self.class_hits[class] as f64 / n,
            100.0 * self.class_random[class] / n,
        )
    }
}

/// Everything a fit produces.
pub struct FitResult {
    pub model: Model,
    pub iterations: usize,
    pub train: Stats,
    pub test: Option<Stats>,
    /// The weights as 16-bit words, and the statistics of the model with them.
    pub quantised: Quantised,
    pub train_q: Stats,
    pub test_q: Option<Stats>,
}

struct Vectors {
    list: Vec<(u8, u32)>,
    map: HashMap<(u8, u32), u32>,
}

impl Vectors {
    fn id(&mut self, k: (u8, u32)) -> u32 {
        if let Some(&i) = self.map.get(&k) {
            return i;
        }
        let i = self.list.len() as u32;
        self.list.push(k);
        self.map.insert(k, i);
        i
    }
}

/// Read the table's positions of the training (0) and test (1) sets.
fn collect(t: &Table, s: &Settings, offset: f64, max: u8, vecs: &mut Vectors) -> [Data; 2] {
    let l = &t.layout;
    const CHUNK: usize = 1 << 16;
    let chunks = t.data.len().div_ceil(CHUNK);
    let parts = par_map(chunks, s.jobs, |c| {
        let mut out: Vec<(u8, usize, Val, [u32; MAX_MEN])> = Vec::new();
        for idx in c * CHUNK..((c + 1) * CHUNK).min(t.data.len()) {
            let Some(v) = t.get(idx) else { continue };
            let set = set_of(idx, s);
            if set == 2 {
                continue;
            }
            let Some((stm, sq, _)) = l.decode(idx) else {
                continue;
            };
            if !paper_position(l, &sq) {
                continue;
            }
            let men = l.men(&sq);
            let mut fv = [0u32; MAX_MEN];
            for (i, f) in fv.iter_mut().enumerate().take(l.n) {
                *f = features::vector(&men, i, stm, s.options);
            }
            out.push((set, idx, v, fv));
        }
        out
    });
    let mut data: [Data; 2] = Default::default();
    for part in parts {
        for (set, idx, v, fv) in part {
            let (stm, _, _) = l.decode(idx).unwrap_or((0, [0; MAX_MEN], 0));
            let d = &mut data[set as usize];
            d.idx.push(idx);
            d.val.push(v);
            d.target.push(target(v, max, offset));
            for (i, &f) in fv.iter().enumerate().take(l.n) {
                d.man.push(vecs.id((l.role[i], f)));
                d.sign.push(if l.color[i] == stm { 1 } else { -1 });
            }
        }
    }
    data
}

/// Is the position one of the paper's sets? Two bishops of one side stand on squares of
/// different colours (the paper's KBBK has 10.6% draws, ours with same-coloured pairs 49%:
/// its set can only have been the opposite-coloured pairs); every other position counts.
pub fn paper_position(l: &Layout, sq: &[u8; MAX_MEN]) -> bool {
    for a in 2..l.n {
        for b in a + 1..l.n {
            if l.role[a] == BISHOP
                && l.role[b] == BISHOP
                && l.color[a] == l.color[b]
                && features::light(sq[a]) == features::light(sq[b])
            {
                return false;
            }
        }
    }
    true
}

/// The untrained average error (the mean |target|) over a table's positions of the paper's
/// set for an offset: what [`OFFSET`] was solved with on KRK.
pub fn untrained_error(t: &Table, offset: f64) -> f64 {
    let max = max_distance(t);
    let (mut sum, mut n) = (0.0, 0u64);
    for (idx, &b) in t.data.iter().enumerate() {
        let Some(v) = Val::of_byte(b) else { continue };
        match t.layout.decode(idx) {
            Some((_, sq, _)) if paper_position(&t.layout, &sq) => {}
            _ => continue,
        }
        sum += target(v, max, offset).abs();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// Load (or build) the table of an ending.
pub fn table(dir: &Path, name: &str) -> Result<(Store, Arc<Table>), LuscherError> {
    let l = Layout::parse(name)?;
    let mut store = Store::new(dir, metric_for(&l));
    store.verbose = true;
    let t = store.table(&l.name)?;
    Ok((store, t))
}

/// Fit an ending.
pub fn fit(dir: &Path, name: &str, s: &Settings) -> Result<FitResult, LuscherError> {
    let (store, t) = table(dir, name)?;
    fit_table(&store, &t, s)
}

/// The configurations of each piece type, from the histogram of its vectors over the
/// training set (`count`): the sets, the first global index of each, and their total.
fn configurations(
    roles: &[u8],
    list: &[(u8, u32)],
    count: &[u64],
    np: usize,
    s: &Settings,
) -> (Vec<(u8, ConfigSet)>, Vec<usize>, usize) {
    let mut types = Vec::new();
    let mut base = Vec::new();
    let mut total = 0usize;
    for &r in roles {
        let mut hist: Vec<(u32, u64)> = list
            .iter()
            .zip(count)
            .filter(|((role, _), &c)| *role == r && c > 0)
            .map(|((_, v), &c)| (*v, c))
            .collect();
        hist.sort_unstable();
        let cs = ConfigSet::generate(&hist, np as u64, s.threshold, s.max_features);
        base.push(total);
        total += cs.len();
        types.push((r, cs));
    }
    (types, base, total)
}

/// A model's statistics on the training set and, when there is one, the test set.
fn train_and_test(
    store: &Store,
    t: &Table,
    m: &Model,
    [train, test]: [&Data; 2],
    s: &Settings,
) -> Result<(Stats, Option<Stats>), LuscherError> {
    let tr = stats(store, t, m, train, s)?;
    let te = if test.idx.is_empty() {
        None
    } else {
        Some(stats(store, t, m, test, s)?)
    };
    Ok((tr, te))
}

/// The training set transposed: for each distinct vector `v`, its occurrences
/// `occ[start[v]..start[v + 1]]` as (position, sign).
fn occurrences(train: &Data, n: usize, vectors: usize) -> (Vec<usize>, Vec<(u32, i8)>) {
    let mut occ_start = vec![0usize; vectors + 1];
    for &m in &train.man {
        occ_start[m as usize + 1] += 1;
    }
    for v in 0..vectors {
        occ_start[v + 1] += occ_start[v];
    }
    let mut fill = occ_start.clone();
    let mut occ = vec![(0u32, 0i8); train.man.len()];
    for (j, (&m, &sg)) in train.man.iter().zip(&train.sign).enumerate() {
        occ[fill[m as usize]] = ((j / n) as u32, sg);
        fill[m as usize] += 1;
    }
    (occ_start, occ)
}

/// The Jacobi diagonal's pair terms: for two men of one type in a position, 2 s_a s_b on
/// every configuration active on both (the AND of their vectors), summed by (type, AND).
fn same_type_pairs(train: &Data, n: usize, list: &[(u8, u32)]) -> Vec<((u8, u32), f64)> {
    let np = train.idx.len();
    let mut pairs: HashMap<(u8, u32), f64> = HashMap::new();
    for p in 0..np {
        for a in 0..n {
            for b in a + 1..n {
                let (ra, va) = list[train.man[p * n + a] as usize];
                let (rb, vb) = list[train.man[p * n + b] as usize];
                if ra == rb {
                    *pairs.entry((ra, va & vb)).or_default() +=
                        2.0 * (train.sign[p * n + a] * train.sign[p * n + b]) as f64;
                }
            }
        }
    }
    let mut pairs: Vec<((u8, u32), f64)> = pairs.into_iter().collect();
    pairs.sort_unstable_by_key(|p| p.0);
    pairs
}

pub fn fit_table(store: &Store, t: &Table, s: &Settings) -> Result<FitResult, LuscherError> {
    let l = &t.layout;
    let n = l.n;
    let max = max_distance(t);
    let offset = OFFSET;
    let mut vecs = Vectors {
        list: Vec::new(),
        map: HashMap::new(),
    };
    let [train, test] = collect(t, s, offset, max, &mut vecs);
    let np = train.idx.len();
    if np == 0 {
        return Err(LuscherError::Empty {
            name: l.name.clone(),
            share: s.train_share,
        });
    }
    let mut count = vec![0u64; vecs.list.len()];
    for &m in &train.man {
        count[m as usize] += 1;
    }
    let roles: Vec<u8> = {
        let mut r: Vec<u8> = TYPES
            .iter()
            .copied()
            .filter(|r| l.role[..n].contains(r))
            .collect();
        r.dedup();
        r
    };
    let (types, base, total) = configurations(&roles, &vecs.list, &count, np, s);
    let type_of = |role: u8| roles.iter().position(|&r| r == role).unwrap_or(0);
    // active configurations (global indices) of every distinct vector: the per-piece cache
    let lists = par_map(vecs.list.len(), s.jobs, |v| {
        let (role, f) = vecs.list[v];
        let ti = type_of(role);
        let mut buf = Vec::new();
        types[ti].1.active(f, &mut buf);
        buf.iter()
            .map(|&k| k + base[ti] as u32)
            .collect::<Vec<u32>>()
    });
    // occurrences of each vector in the training set (the transpose)
    let (occ_start, occ) = occurrences(&train, n, vecs.list.len());
    // Jacobi diagonal: Σ_i h_ik² = Σ over men [k active] + 2 Σ over same-type pairs s_a s_b [k active on both]
    let mut diag = vec![0.0f64; total];
    for (v, list) in lists.iter().enumerate() {
        for &k in list {
            diag[k as usize] += count[v] as f64;
        }
    }
    let mut buf = Vec::new();
    for ((role, u), c) in same_type_pairs(&train, n, &vecs.list) {
        let ti = type_of(role);
        types[ti].1.active(u, &mut buf);
        for &k in &buf {
            diag[k as usize + base[ti]] += c;
        }
    }
    // A w, then Aᵀ x
    let apply = |w: &[f64]| -> Vec<f64> {
        let sv = par_map(lists.len(), s.jobs, |v| {
            lists[v].iter().map(|&k| w[k as usize]).sum::<f64>()
        });
        par_map(np, s.jobs, |p| {
            (0..n)
                .map(|j| train.sign[p * n + j] as f64 * sv[train.man[p * n + j] as usize])
                .sum()
        })
    };
    let apply_t = |x: &[f64]| -> Vec<f64> {
        let g = par_map(lists.len(), s.jobs, |v| {
            occ[occ_start[v]..occ_start[v + 1]]
                .iter()
                .map(|&(p, sg)| sg as f64 * x[p as usize])
                .sum::<f64>()
        });
        let mut out = vec![0.0; total];
        for (v, list) in lists.iter().enumerate() {
            for &k in list {
                out[k as usize] += g[v];
            }
        }
        out
    };
    let rhs = apply_t(&train.target);
    let mut normal = |p: &[f64], q: &mut [f64]| {
        let ap = apply(p);
        q.copy_from_slice(&apply_t(&ap));
    };
    let (w, iterations) = cg::pcg(&mut normal, &diag, &rhs, s.max_iter, 1e-9);
    // Each type's weights: its slice of the solution.
    let weights = types
        .iter()
        .zip(&base)
        .map(|((_, cs), &b)| w[b..b + cs.len()].to_vec());
    let weights: Vec<Vec<f64>> = weights.collect();
    let model = Model {
        name: l.name.clone(),
        max,
        offset,
        options: s.options,
        types: types
            .into_iter()
            .zip(weights)
            .map(|((r, cs), ws)| (r, cs, ws))
            .collect(),
    };
    let quantised = Quantised::of(&model)?;
    let both = |m: &Model| train_and_test(store, t, m, [&train, &test], s);
    let (train_stats, test_stats) = both(&model)?;
    let (train_q, test_q) = both(&quantised.model)?;
    Ok(FitResult {
        model,
        iterations,
        train: train_stats,
        test: test_stats,
        quantised,
        train_q,
        test_q,
    })
}

fn outcome(e: f64, offset: f64) -> usize {
    if e > offset / 2.0 {
        0
    } else if e < -offset / 2.0 {
        2
    } else {
        1
    }
}

fn val_class(v: Val) -> usize {
    match v {
        Val::Win(_) => 0,
        Val::Draw => 1,
        Val::Loss(_) => 2,
    }
}

fn insufficient(men: &Men) -> bool {
    let mut minors = 0;
    for i in 0..men.n {
        match men.role[i] {
            PAWN | ROOK | QUEEN => return false,
            KNIGHT | BISHOP => minors += 1,
            _ => {}
        }
    }
    minors <= 1
}

/// The one-ply score of the position after a move, for the mover.
pub fn move_score(
    model: &Model,
    after: &Men,
    mover: u8,
    promoted: bool,
    metric: Metric,
    cache: &mut HashMap<(u8, u32), f64>,
) -> f64 {
    let big = model.max as f64 + model.offset;
    if promoted && metric == Metric::Pawn {
        return big;
    }
    let mut buf = Vec::new();
    legal_moves(after, mover ^ 1, usize::MAX, &mut buf);
    if buf.is_empty() {
        return if in_check(after, mover ^ 1) { big } else { 0.0 };
    }
    if insufficient(after) {
        return 0.0;
    }
    let m = material(after);
    -model.eval(after, mover ^ 1, cache)
        + (m[mover as usize] - m[(mover ^ 1) as usize]) as f64 * MATERIAL_UNIT
}

/// The paper's statistics of a model on a set.
pub fn stats(
    store: &Store,
    t: &Table,
    model: &Model,
    d: &Data,
    s: &Settings,
) -> Result<Stats, LuscherError> {
    let l = &t.layout;
    const CHUNK: usize = 4096;
    let chunks = d.idx.len().div_ceil(CHUNK);
    let parts = par_map(
        chunks,
        s.jobs,
        |c| -> Result<Stats, crate::tablebase::TablebaseError> {
            let mut st = Stats::default();
            let mut cache = HashMap::new();
            let mut buf = Vec::new();
            let (mut sa, mut sq2, mut ba, mut bq) = (0.0, 0.0, 0.0, 0.0);
            for p in c * CHUNK..((c + 1) * CHUNK).min(d.idx.len()) {
                let idx = d.idx[p];
                let Some((stm, sq, ep)) = l.decode(idx) else {
                    continue;
                };
                let men = l.men(&sq);
                let e = model.eval(&men, stm, &mut cache);
                st.max_abs = st.max_abs.max(e.abs());
                let r = d.target[p];
                sa += (r - e).abs();
                sq2 += (r - e) * (r - e);
                ba += r.abs();
                bq += r * r;
                st.table[val_class(d.val[p])][outcome(e, model.offset)] += 1;
                // one-ply search
                let mut moves: Vec<(f64, i32)> = Vec::new();
                generate::children(l, t.metric, store, stm, &sq, ep, &mut buf, |child, m| {
                    if s.queen_only && m.promo != 0 && m.promo != QUEEN {
                        return;
                    }
                    let v = match child {
                        generate::Child::In(i) => t.get(i).unwrap_or(Val::Draw),
                        generate::Child::Out(v) => v,
                    };
                    let mut after = men;
                    after.sq[m.i] = m.to;
                    if m.promo != 0 {
                        after.role[m.i] = m.promo;
                    }
                    if m.capture != usize::MAX {
                        after.remove(m.capture);
                    }
                    let score = move_score(model, &after, stm, m.promo != 0, t.metric, &mut cache);
                    moves.push((score, v.before().rank()));
                })?;
                if moves.is_empty() {
                    continue;
                }
                let best = moves.iter().map(|m| m.1).max().unwrap_or(0);
                let mut pick = 0;
                for (j, m) in moves.iter().enumerate() {
                    if m.0 > moves[pick].0 {
                        pick = j;
                    }
                }
                let class = val_class(d.val[p]);
                let hit = (moves[pick].1 == best) as u64;
                let random =
                    moves.iter().filter(|m| m.1 == best).count() as f64 / moves.len() as f64;
                st.hit_positions += 1;
                st.hits += hit;
                st.random += random;
                st.class_positions[class] += 1;
                st.class_hits[class] += hit;
                st.class_random[class] += random;
            }
            st.positions = (c * CHUNK..((c + 1) * CHUNK).min(d.idx.len())).len();
            st.avg_after = sa;
            st.quad_after = sq2;
            st.avg_before = ba;
            st.quad_before = bq;
            Ok(st)
        },
    );
    let mut total = Stats::default();
    for part in parts {
        let p = part?;
        total.positions += p.positions;
        total.avg_after += p.avg_after;
        total.quad_after += p.quad_after;
        total.avg_before += p.avg_before;
        total.quad_before += p.quad_before;
        for a in 0..3 {
            for b in 0..3 {
                total.table[a][b] += p.table[a][b];
            }
        }
        total.hit_positions += p.hit_positions;
        total.hits += p.hits;
        total.random += p.random;
        for k in 0..3 {
            total.class_positions[k] += p.class_positions[k];
            total.class_hits[k] += p.class_hits[k];
            total.class_random[k] += p.class_random[k];
        }
        total.max_abs = total.max_abs.max(p.max_abs);
    }
    let np = total.positions.max(1) as f64;
    total.avg_after /= np;
    total.quad_after /= np;
    total.avg_before /= np;
    total.quad_before /= np;
    Ok(total)
}
