//! Issue #36 item 2, host first: KBNK evaluations fitted to our table's distance to mate
//! (DTM), played by a host alpha-beta search against the table's perfect defence (the longest
//! loss), within the 50-move rule. What a Z80 evaluation must do before it is written.
//!
//! The evaluation that converts ([`Config::edge_triple`]): the bishop brought to a dark
//! square (files mirrored), the board turned by the four symmetries that keep a square's
//! colour so that the bare king stands on its least image; then the plies to mate estimated
//! as the sum of
//! - three pair tables on the bare king's square: with the strong king's, the knight's, the
//!   bishop's (20 bare-king squares × 64 after the symmetries);
//! - a triple table (bare king, strong king, knight) when the bare king is on the edge and
//!   at most 6 king steps from a corner of the bishop's colour (after the symmetries a1..g1:
//!   the wrong corner h1 left out), the strong king as file and rank steps from the bare
//!   king clamped to ±3 (49 cells), the knight's square (64): 7 × 49 × 64 = 21,952 cells,
//!   fitted last as the pair tables' residual and held to 16 levels of 2 plies (4 bits;
//!   7,160 cells are positions: the bare king on rank 1 leaves the strong king 4 of the 7
//!   rank steps, so 7 × 28 × 64 nibbles = 6,272 bytes hold it);
//!
//! least squares over the won positions weighted by 1 / (1 + plies), by backfitting (each
//! table's cell the weighted mean residual of the others). The leaf score is 20,000 − 16 ×
//! the estimate; with no penalty for an unclaimed position (a penalty of 2,048 stops even
//! the exact table from converting: [`a_claim_penalty_stops_even_the_table`]). A leaf with
//! the bare king to move scores its best king step (the least score after each of its
//! moves; 0 when it takes a piece): without it odd depths do not convert (4 of 100 at
//! three plies against 96 with it; 97 at four either way).
//!
//! All tests are `#[ignore]`d (they read every KBNK position of the table: minutes):
//! - `-- --ignored edge_triple`: ≥ 90 of 100 converted at three and at four plies (about
//!   the depth the Z80 completes at 180 s a move), and 100 of 100 draws held;
//! - `-- --ignored explore --nocapture`: any variant from the environment (`KF_*`, see
//!   [`Config::from_env`]) at `KF_DEPTH` plies (a list; 0 = the Z80's budget,
//!   `KF_BUDGET` evaluations a move, the last completed depth's move).

#[path = "common/kbnk_play.rs"]
mod kbnk_play;

use kbnk_play::{after, men_of, starts, Sim};
use std::sync::OnceLock;
use z80chess::luscher::kbnk::{self, Kbnk, Verdict, Weights};
use z80chess::tablebase::men::{legal_moves, BLACK, WHITE};
use z80chess::tablebase::{Metric, Store, Val};

// ---- the table, dense ------------------------------------------------------------------

fn idx(p: &Kbnk) -> usize {
    ((((p.strong_to_move as usize) * 64 + p.sk as usize) * 64 + p.wk as usize) * 64 + p.b as usize)
        * 64
        + p.n as usize
}

fn legal(p: &Kbnk) -> bool {
    let (sk, wk, b, n) = (p.sk, p.wk, p.b, p.n);
    let distinct = sk != wk && sk != b && sk != n && wk != b && wk != n && b != n;
    distinct && kbnk::cheb(sk, wk) > 1 && !(p.strong_to_move && p.check())
}

/// Every legal KBNK position, White strong, either side to move.
fn all() -> impl Iterator<Item = Kbnk> {
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

/// The table byte of every (stm, sk, wk, b, n): 0 draw, 255 not a position, plies + 1
/// (cached in the test's target directory).
fn dense() -> &'static Vec<u8> {
    static D: OnceLock<Vec<u8>> = OnceLock::new();
    D.get_or_init(|| {
        let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
        let cache = tmp.join("kbnk-dense.bin");
        if let Ok(d) = std::fs::read(&cache) {
            if d.len() == 1 << 25 {
                return d;
            }
        }
        let mut s = Store::new(tmp.join("kbnk-tables"), Metric::Dtm);
        s.table("KBNK").unwrap();
        let mut d = vec![255u8; 1 << 25];
        for p in all() {
            let stm = if p.strong_to_move { WHITE } else { BLACK };
            d[idx(&p)] = s.value_of(&men_of(&p), stm, usize::MAX).unwrap().byte();
        }
        std::fs::write(&cache, &d).unwrap();
        d
    })
}

fn val(p: &Kbnk) -> Val {
    Val::of_byte(dense()[idx(p)]).expect("a position")
}

/// Plies to mate for the strong side (None: not won).
fn dtm(p: &Kbnk) -> Option<i32> {
    match val(p) {
        Val::Win(d) if p.strong_to_move => Some(d as i32),
        Val::Loss(d) if !p.strong_to_move => Some(d as i32),
        _ => None,
    }
}

// ---- the models --------------------------------------------------------------------------

/// One table of a model. Men: 0 the strong king, 1 the bare king, 2 the bishop, 3 the knight.
#[derive(Clone, Debug)]
enum Feature {
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
struct Config {
    feats: Vec<Feature>,
    /// The four colour-keeping symmetries applied (the bare king to its least image).
    sym: bool,
    /// The edge triple's squares: at most this many king steps from a1 or h8.
    edge: u8,
    /// Separate tables for each side to move.
    per_stm: bool,
    /// Fit only these rows: Some(true) the strong side to move.
    only: Option<bool>,
    /// Least-squares weight (1 + plies)^-wexp.
    wexp: f64,
    passes: usize,
    /// Every `step`-th position fitted.
    step: usize,
    /// Cells rounded to this many plies (0: not).
    quantum: f32,
    /// The largest table held to 2^bits levels around its median.
    bits: u32,
    /// An unclaimed leaf (a piece near the bare king uncovered) scores this much less.
    unc: i32,
    /// The exact table instead of a fit (the upper bound).
    oracle: bool,
    /// A leaf with the bare king to move scores its best king step (the least score of
    /// the positions after it: 0 when it takes a piece), so that odd depths see what even
    /// depths see.
    reply: bool,
}

impl Config {
    /// The model that converts (the module header).
    fn edge_triple() -> Config {
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
            quantum: 2.0,
            bits: 4,
            unc: 0,
            oracle: false,
            reply: true,
        }
    }

    /// [`Config::edge_triple`] changed by the environment: `KF_MODEL` (tables, comma
    /// separated: men digits such as `10` for a pair, `f` the flight squares and the side to
    /// move, `e` the edge triple, `eAB` with the
    /// strong king clamped to ±A and the knight to ±B steps; a trailing `s`: per side to
    /// move; `oracle`), `KF_SYM` (0/1), `KF_EDGE`, `KF_ONLY` (`s`/`w`), `KF_WEXP`,
    /// `KF_PASSES`, `KF_STEP`, `KF_Q`, `KF_BITS`, `KF_UNC`, `KF_REPLY` (0/1).
    fn from_env() -> Config {
        let mut c = Config::edge_triple();
        let get = |k: &str| std::env::var(k).ok();
        if let Some(m) = get("KF_MODEL") {
            c.oracle = m == "oracle";
            c.per_stm = m.ends_with('s');
            c.feats = m
                .trim_end_matches('s')
                .split(',')
                .filter(|f| !f.is_empty() && *f != "oracle")
                .map(|f| match f.strip_prefix('e') {
                    Some("") => Feature::Edge { sk: 0, n: 0 },
                    _ if f == "f" => Feature::Flights,
                    Some(w) => Feature::Edge {
                        sk: w[..1].parse().unwrap(),
                        n: w[1..].parse().unwrap(),
                    },
                    None => Feature::Squares(
                        f.chars()
                            .map(|c| c.to_digit(10).unwrap() as usize)
                            .collect(),
                    ),
                })
                .collect();
        }
        let num = |k: &str, d: f64| get(k).and_then(|v| v.parse().ok()).unwrap_or(d);
        c.sym = num("KF_SYM", c.sym as u8 as f64) != 0.0;
        c.edge = num("KF_EDGE", c.edge as f64) as u8;
        c.only = get("KF_ONLY").map(|v| v == "s");
        c.wexp = num("KF_WEXP", c.wexp);
        c.passes = num("KF_PASSES", c.passes as f64) as usize;
        c.step = num("KF_STEP", c.step as f64) as usize;
        c.quantum = num("KF_Q", c.quantum as f64) as f32;
        c.bits = num("KF_BITS", c.bits as f64) as u32;
        c.unc = num("KF_UNC", c.unc as f64) as i32;
        c.reply = num("KF_REPLY", c.reply as u8 as f64) != 0.0;
        c
    }

    /// The four men's squares with the bishop brought to a dark square (files mirrored),
    /// then (`sym`) the colour-keeping symmetry that brings the bare king to its least
    /// image, ties broken by the strong king's, then the knight's.
    fn norm(&self, p: &Kbnk) -> [usize; 4] {
        let f = if kbnk::dark(p.b) { 0 } else { 7 };
        let s = [p.sk ^ f, p.wk ^ f, p.b ^ f, p.n ^ f].map(|s| s as usize);
        if !self.sym {
            return s;
        }
        let g = |k: usize, x: usize| {
            let (f, r) = (x & 7, x >> 3);
            match k {
                0 => x,
                1 => r + 8 * f,
                2 => (7 - r) + 8 * (7 - f),
                _ => (7 - f) + 8 * (7 - r),
            }
        };
        (0..4)
            .map(|k| s.map(|x| g(k, x)))
            .min_by_key(|t| (t[1], t[0], t[3], t[2]))
            .unwrap()
    }

    /// Is the (normalised) bare king's square one of the edge triple's?
    fn on_edge(&self, x: usize) -> bool {
        let (f, r) = (x & 7, x >> 3);
        let rim = f == 0 || f == 7 || r == 0 || r == 7;
        rim && kbnk::cheb(x as u8, 0).min(kbnk::cheb(x as u8, 63)) <= self.edge
    }
}

impl Feature {
    fn cells(&self) -> usize {
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

    fn cell(&self, c: &Config, s: &[usize; 4], p: &Kbnk) -> usize {
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

struct Model {
    c: Config,
    /// t[stm][table][cell], plies.
    t: Vec<Vec<Vec<f32>>>,
}

impl Model {
    /// Fitted (and quantised) as `c` says; prints the fit's error and the tables' ranges.
    fn fit(c: Config) -> Model {
        let t = vec![c.feats.iter().map(|f| vec![0.0; f.cells()]).collect(); 2];
        let mut m = Model { c, t };
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
    fn est(&self, p: &Kbnk) -> f32 {
        let s = self.c.norm(p);
        let t = &self.t[self.stm(p)];
        let f = self.c.feats.iter().enumerate();
        f.map(|(k, f)| t[k][f.cell(&self.c, &s, p)]).sum()
    }

    /// Backfitting: each table's cell the weighted mean residual of the others.
    fn backfit(&mut self) {
        let rows: Vec<(Kbnk, f32)> = all()
            .step_by(self.c.step)
            .filter(|p| self.c.only.is_none_or(|s| s == p.strong_to_move))
            .filter_map(|p| dtm(&p).map(|d| (p, d as f32)))
            .collect();
        for pass in 0..self.c.passes {
            for k in 0..self.c.feats.len() {
                let size = self.t[0][k].len();
                let mut sum = vec![vec![0f64; size]; 2];
                let mut wt = vec![vec![0f64; size]; 2];
                for (p, d) in &rows {
                    let c = self.c.feats[k].cell(&self.c, &self.c.norm(p), p);
                    let st = self.stm(p);
                    let r = d - self.est(p) + self.t[st][k][c];
                    let w = (1.0 + *d as f64).powf(-self.c.wexp);
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
            let se: f64 = rows
                .iter()
                .map(|(p, d)| ((d - self.est(p)) as f64).powi(2))
                .sum();
            eprintln!(
                "pass {pass}: {} rows, rms {:.3} plies",
                rows.len(),
                (se / rows.len() as f64).sqrt()
            );
        }
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
            eprintln!(
                "table {k}: {} cells used, {lo:.1}..{hi:.1} plies",
                used.len()
            );
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
                eprintln!("table {k}: {clamped} cells clamped to {lo}..{hi} quanta");
            }
            for v in t.iter_mut() {
                *v = ((*v / q).round() as i32).clamp(lo, hi) as f32 * q;
            }
        }
    }

    /// The strong side's score of a leaf: 0 when the bare king takes a piece (KBNKEV
    /// declines and POINTS sees the loss) or is stalemated.
    fn score(&self, p: &Kbnk) -> i32 {
        if self.c.reply && !p.strong_to_move {
            let mut ms = Vec::new();
            legal_moves(&men_of(p), BLACK, usize::MAX, &mut ms);
            return ms
                .iter()
                .map(|m| after(p, m).map_or(0, |q| self.score1(&q)))
                .min()
                .unwrap_or(0);
        }
        self.score1(p)
    }

    /// [`Model::score`] of the position itself.
    fn score1(&self, p: &Kbnk) -> i32 {
        let unc = match kbnk::eval(p, &Weights::DEFAULT) {
            Verdict::Decline | Verdict::Draw => return 0,
            Verdict::Win(kbnk::KBMATE) => return kbnk::KBMATE,
            Verdict::Win(_) => 0,
            Verdict::Likely(_) => self.c.unc,
        };
        let e = if self.c.oracle {
            dtm(p).unwrap_or(80) as f32
        } else {
            self.est(p)
        };
        kbnk::KBBASE - (e * 16.0).round() as i32 - unc
    }
}

// ---- host play ----------------------------------------------------------------------------

/// `games` games from `seed`'s starts at `depth` plies (0: the budget of `budget`
/// evaluations a move): how many were mated within 50 moves; prints the figures.
fn run(m: &Model, depth: usize, games: usize, seed: u64, budget: u64) -> usize {
    let leaf = |p: &Kbnk| m.score(p);
    let mut sim = Sim::new(&leaf, &val);
    sim.budget = budget;
    let (mut won, mut moves, mut start, mut close) = (0, 0, 0, 0);
    let t0 = std::time::Instant::now();
    let ss = starts(games, seed, |p| dtm(p).is_some());
    for p in &ss {
        match sim.play(*p, depth) {
            Ok(n) => {
                won += 1;
                moves += n;
            }
            Err(c) => {
                start += dtm(p).unwrap() as u32;
                close += c;
            }
        }
    }
    let lost = (games - won).max(1) as f64;
    println!(
        "depth {depth} (0: {budget} evaluations a move), seed {seed}: {won} of {games} mated \
         within 50 moves ({:.1} moves on average); not converted: {:.1} -> closest {:.1} \
         plies to mate; {:.0} s",
        moves as f64 / won.max(1) as f64,
        start as f64 / lost,
        close as f64 / lost,
        t0.elapsed().as_secs_f64()
    );
    if depth == 0 {
        println!(
            "  moves on which each depth 1.. completed: {:?}",
            &sim.depths[1..]
        );
    }
    won
}

fn env(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// The evaluation that converts and holds every draw (the bare king by the same search
/// against the hardest drawing strong move) at three and four plies, the depths about the
/// Z80's at 180 s a move (`z80chess search --build full --movetime-emulated 180` completes
/// depth 4 with 8,242-9,570 evaluations a move today, 5 with the bare king in a corner).
#[test]
#[ignore = "fits and plays 400 games: two minutes"]
fn edge_triple_converts_at_three_and_four_plies() {
    let m = Model::fit(Config::edge_triple());
    for depth in [3, 4] {
        let won = run(&m, depth, 100, 1, 0);
        let held = defend(&m, depth, 100, 1);
        assert!(won >= 90, "{won} of 100 converted at {depth} plies");
        assert_eq!(
            held, 100,
            "draws held at {depth} plies (three are lost at one ply)"
        );
    }
}

/// The exact table as the evaluation converts from every start at one ply; with the claim
/// penalty KBNKEV has today (256 × P_KBUNC = 2,048 less for an unclaimed position) it
/// converts at most a few: the strong side keeps its pieces guarded instead of mating.
#[test]
#[ignore = "reads every KBNK position: a minute"]
fn a_claim_penalty_stops_even_the_table() {
    let mut c = Config::edge_triple();
    c.oracle = true;
    let exact = run(&Model::fit(c.clone()), 1, 20, 1, 0);
    c.unc = 2048;
    let penalised = run(&Model::fit(c), 1, 20, 1, 0);
    assert_eq!(exact, 20);
    assert!(penalised <= 5, "{penalised} of 20 with the penalty");
}

/// `games` drawn starts (strong to move) defended by the bare king at `depth` plies:
/// how many held; prints the figures and the first lost start.
fn defend(m: &Model, depth: usize, games: usize, seed: u64) -> usize {
    let leaf = |p: &Kbnk| m.score(p);
    let mut sim = Sim::new(&leaf, &val);
    let ss = starts(games, seed, |p| val(p) == Val::Draw);
    let lost: Vec<&Kbnk> = ss.iter().filter(|p| !sim.defend(**p, depth)).collect();
    println!(
        "draws at depth {depth}, seed {seed}: {} of {games} held; first lost: {:?}",
        games - lost.len(),
        lost.first()
    );
    games - lost.len()
}

/// Any variant (`KF_*`, [`Config::from_env`]); `KF_DEPTH` a list of depths (0: the
/// budget, `KF_BUDGET` evaluations a move, default 8,600), `KF_GAMES`, `KF_SEED`;
/// `KF_DRAWS`: the draws defended too.
#[test]
#[ignore = "exploration: minutes"]
fn explore() {
    let c = Config::from_env();
    eprintln!("{c:?}");
    let m = Model::fit(c);
    let depths = std::env::var("KF_DEPTH").unwrap_or_else(|_| "4".into());
    for d in depths.split(',').map(|d| d.parse::<usize>().unwrap()) {
        let (games, seed) = (env("KF_GAMES", 50), env("KF_SEED", 1) as u64);
        run(&m, d, games, seed, env("KF_BUDGET", 8600) as u64);
        if d > 0 && std::env::var("KF_DRAWS").is_ok() {
            defend(&m, d, games, seed);
        }
    }
}
