//! `z80chess tune`: fitting the full build's knowledge weights to the results of played games
//! (the method is Peter Österlund's "Texel tuning": make the evaluation predict the game's
//! result through a logistic curve, by least squares).
//!
//! 1. Positions: every position of the given PGN games after a move not marked `{book}`, from
//!    move 6 on, not in check, where the move played next is neither a capture nor a promotion
//!    (quiet positions, whose static evaluation means something), and whose evaluation is
//!    within 8 pawns (decided positions say nothing about small terms).
//! 2. Features: the Z80 evaluates each position once (`Q`, the same reply as `eval`) with the
//!    starting block (the ROM's defaults, or `--params`). Each weight of
//!    [`LINEAR_WEIGHTS`] enters its term as weight x count, so count = term / weight; the rest
//!    of the total (material, the article's terms, the engine-side terms, the clamps) is a
//!    fixed part.
//! 3. Model: P(White wins) = 1 / (1 + exp(-K (fixed + sum w_i count_i + s_White - s_Black))),
//!    with a strength s per player (the players of a match are of unequal strength: without
//!    it a term the stronger player seeks would look like a winning term); the first player
//!    has s = 0. The loss is the mean squared error against the result (1, 1/2, 0).
//! 4. Fit: K and the strengths with the starting weights (K on a grid, the strengths by Adam);
//!    the weights that matter most are those whose removal raises the loss most; they are
//!    refitted (Adam) with a pull toward their starting values, lambda x ((w - w0) / w0)^2
//!    each, for several lambdas, and the lambda whose weights predict a held-out fifth of the
//!    games best wins. A held-out game's positions never train.
//!
//! The result is a parameter file: the starting file with the tuned weights in every block.
//! What it is worth in play is for `match` to say.

use super::params::{def, Block, ParamFile};
use super::{sargon, Build, Engine};
use crate::chess::pgn::parse_pgn;
use shakmaty::{Chess, Position};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Each knowledge term that is its weight times a count (the `eval` line and the weight).
/// The engine-side terms (rams, eight pawns, the queen-pawn knight, moved twice) and the
/// switches are not here: they score one side only or are not products.
pub const LINEAR_WEIGHTS: &[(&str, &str)] = &[
    ("pawns: doubled", "P_DOUBL"),
    ("pawns: isolated, open file", "P_ISOOP"),
    ("pawns: isolated, closed file", "P_ISOCL"),
    ("pawns: backward, open file", "P_BKWOP"),
    ("pawns: backward, closed file", "P_BKWCL"),
    ("pawns: passed", "P_PASS"),
    ("pawns: both centre unmoved", "P_CTR2"),
    ("pawns: one centre unmoved", "P_CTR1"),
    ("rooks: open file", "P_ROPEN"),
    ("rooks: half-open file", "P_RHALF"),
    ("rooks: 7th rank", "P_R7TH"),
    ("bishops: the pair", "P_BPAIR"),
    ("knights: outposts", "P_OUTPO"),
    ("king: open zone file", "P_KOPEN"),
    ("king: zone file, enemy pawn only", "P_KENEM"),
    ("king: zone file half-open", "P_KHALF"),
    ("king: steps from b1/g1", "P_KSQ"),
    ("king: endgame, from centre", "P_KCENT"),
    ("castling: king moved", "P_KMOVE"),
    ("castling: king's rook moved", "P_KRMOV"),
    ("castling: queen's rook moved", "P_QRMOV"),
    ("bishops: own pawns on their colour", "P_BBAD"),
    ("knights: steps from centre", "P_NCEN"),
    ("queen: steps from centre", "P_QCEN"),
    ("rooks: behind a passed pawn", "P_RBEH"),
    ("knights: tropism", "P_NTROP"),
    ("rooks: tropism", "P_RTROP"),
    ("queen: tropism", "P_QTROP"),
    ("king: no luft", "P_LUFT"),
    ("pawns: outside passed", "P_OUTP"),
    ("rooks: no horizontal mobility", "P_RHORZ"),
    ("king: holes in the shelter", "P_HOLE"),
    ("bishops: open diagonal squares", "P_BDIAG"),
    ("queen-pawn opening: c-pawn not yet on c4/c5", "P_QPCP"),
    ("queen: enemy king's zone files without its pawns", "P_QKS"),
];

/// The first move number whose positions are used.
pub const FIRST_MOVE: u32 = 6;
/// Positions evaluated beyond this (in 1/256 pawn) are left out.
pub const DECIDED: i32 = 8 * 256;
/// The pulls toward the starting weights that are tried.
pub const LAMBDAS: [f64; 5] = [0.0, 1e-5, 3e-5, 1e-4, 3e-4];

#[derive(Debug, Error)]
pub enum TuneError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {what}")]
    Pgn {
        path: PathBuf,
        line: usize,
        what: String,
    },
    #[error("{0}")]
    Param(#[from] super::params::ParamError),
    #[error("{0}")]
    Firmware(#[from] super::FirmwareError),
    #[error("unknown weight `{0}` (tunable: {1})")]
    UnknownWeight(String, String),
    #[error("{0} is 0 in the starting block: its count cannot be read from the evaluation (start it from a non-zero value with --params)")]
    ZeroWeight(&'static str),
    #[error("the Z80's term `{term}` = {value} is not a multiple of {weight} = {w} in {fen}")]
    NotLinear {
        term: &'static str,
        value: i32,
        weight: &'static str,
        w: i32,
        fen: String,
    },
    #[error("{0} positions with a result: too few to fit (at least 200)")]
    TooFew(usize),
    #[error("{0}")]
    Out(#[from] crate::outfile::OutFileError),
    /// The best fit predicts the held-out games worse than the starting weights: nothing is
    /// written (the report up to the choice is kept for the user).
    #[error("the tuned weights predict the held-out games worse than the starting weights (held-out loss {tuned:.6}, starting weights {start:.6}): nothing written; more games may help, or give --force to write them anyway")]
    Worse {
        tuned: f64,
        start: f64,
        report: String,
    },
}

/// What to tune and from what (the `z80chess tune` command's arguments, `cli::tune`).
#[derive(Clone, Debug, Default)]
pub struct TuneOptions {
    /// PGN files of finished games.
    pub pgn: Vec<PathBuf>,
    /// The starting weights (None: the ROM's); the output is this file with the tuned weights
    /// set in every block.
    pub params: Option<PathBuf>,
    /// The weights to tune, by name (empty: the `top` that matter most).
    pub weights: Vec<String>,
    /// How many weights to tune when `weights` is empty.
    pub top: usize,
    /// Write the tuned parameter file here (None: append it to the report).
    pub out: Option<PathBuf>,
    /// Let `out` replace a file already there, and write weights that predict the held-out
    /// games worse than the starting weights.
    pub force: bool,
}

/// One position: the counts of every linear weight, the fixed part, the result, the players.
#[derive(Clone, Debug)]
pub struct Sample {
    pub counts: Vec<f64>,
    pub fixed: f64,
    /// White's result: 1, 0.5 or 0.
    pub result: f64,
    pub white: usize,
    pub black: usize,
    /// Held out of the training (every fifth game).
    pub holdout: bool,
}

/// The model's state: the scale, the weights (all of [`LINEAR_WEIGHTS`] that were read) and a
/// strength per player.
#[derive(Clone, Debug)]
pub struct Model {
    pub k: f64,
    pub w: Vec<f64>,
    pub s: Vec<f64>,
}

/// The predicted result of an evaluation `e` (White's view) at scale `k`.
fn logistic(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e).exp())
}

impl Model {
    fn predict(&self, x: &Sample) -> f64 {
        let e = x.fixed
            + x.counts
                .iter()
                .zip(&self.w)
                .map(|(c, w)| c * w)
                .sum::<f64>()
            + self.s[x.white]
            - self.s[x.black];
        logistic(self.k, e)
    }

    /// Mean squared error over the samples whose `holdout` is `which`.
    pub fn loss(&self, data: &[Sample], which: bool) -> f64 {
        let (mut sum, mut n) = (0.0, 0usize);
        for x in data.iter().filter(|x| x.holdout == which) {
            let d = x.result - self.predict(x);
            sum += d * d;
            n += 1;
        }
        sum / n.max(1) as f64
    }
}

/// Adam on the chosen weights `idx` and the strengths (player 0 fixed at 0), with the pull
/// `lambda` toward `w0`: full-batch, `iters` steps.
pub fn fit(
    data: &[Sample],
    start: &Model,
    w0: &[f64],
    idx: &[usize],
    lambda: f64,
    iters: usize,
) -> Model {
    let mut m = start.clone();
    let np = idx.len() + m.s.len() - 1;
    let (mut m1, mut m2) = (vec![0.0; np], vec![0.0; np]);
    let train: Vec<&Sample> = data.iter().filter(|x| !x.holdout).collect();
    // The part of each evaluation that does not move: everything but the chosen weights.
    let rest: Vec<f64> = train
        .iter()
        .map(|x| {
            x.fixed
                + (0..x.counts.len())
                    .filter(|i| !idx.contains(i))
                    .map(|i| x.counts[i] * m.w[i])
                    .sum::<f64>()
        })
        .collect();
    let n = train.len().max(1) as f64;
    // Steps of about half a unit for a weight, 8 units (1/32 pawn) for a strength.
    let step = |j: usize| if j < idx.len() { 0.5 } else { 8.0 };
    for it in 1..=iters {
        let mut g = vec![0.0; np];
        for (x, r) in train.iter().zip(&rest) {
            let e = r + idx.iter().map(|&i| x.counts[i] * m.w[i]).sum::<f64>() + m.s[x.white]
                - m.s[x.black];
            let p = logistic(m.k, e);
            let d = -2.0 * (x.result - p) * p * (1.0 - p) * m.k / n;
            for (j, &i) in idx.iter().enumerate() {
                g[j] += d * x.counts[i];
            }
            let o = idx.len();
            if x.white > 0 {
                g[o + x.white - 1] += d;
            }
            if x.black > 0 {
                g[o + x.black - 1] -= d;
            }
        }
        for (j, &i) in idx.iter().enumerate() {
            let s = w0[i].abs().max(1.0);
            g[j] += lambda * 2.0 * (m.w[i] - w0[i]) / (s * s);
        }
        let (b1, b2) = (0.9f64, 0.999f64);
        for j in 0..np {
            m1[j] = b1 * m1[j] + (1.0 - b1) * g[j];
            m2[j] = b2 * m2[j] + (1.0 - b2) * g[j] * g[j];
            let mh = m1[j] / (1.0 - b1.powi(it as i32));
            let vh = m2[j] / (1.0 - b2.powi(it as i32));
            let d = step(j) * mh / (vh.sqrt() + 1e-15);
            if j < idx.len() {
                m.w[idx[j]] -= d;
            } else {
                m.s[j - idx.len() + 1] -= d;
            }
        }
    }
    m
}

/// K on a grid, with the strengths fitted for each K; the starting weights fixed.
pub fn fit_scale(data: &[Sample], w0: &[f64], players: usize) -> Model {
    let mut best: Option<(f64, Model)> = None;
    for i in 1..=40 {
        let start = Model {
            k: 0.0001 * i as f64,
            w: w0.to_vec(),
            s: vec![0.0; players],
        };
        let m = fit(data, &start, w0, &[], 0.0, 300);
        let l = m.loss(data, false);
        if best.as_ref().is_none_or(|(b, _)| l < *b) {
            best = Some((l, m));
        }
    }
    best.expect("the grid is not empty").1
}

/// A quiet position of a game: the position, White's result, White's and Black's names, and the
/// line where the game starts.
pub type GamePosition = (Chess, f64, String, String, usize);

/// Quiet positions of the games, with White's result and the players' names.
pub fn positions(path: &Path, text: &str) -> Result<Vec<GamePosition>, TuneError> {
    let pgn_err = |(line, what): (usize, String)| TuneError::Pgn {
        path: path.to_path_buf(),
        line,
        what,
    };
    let mut out = Vec::new();
    for g in parse_pgn(text).map_err(pgn_err)? {
        let result = match g.tag("Result").as_deref() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue, // unfinished: no result to predict
        };
        let player = |t: &str| g.tag(t).unwrap_or_else(|| "?".into());
        let (white, black) = (player("White"), player("Black"));
        let moves = g.moves().map_err(pgn_err)?;
        let mut pos = g.start().map_err(pgn_err)?;
        for (k, (m, comment)) in moves.iter().enumerate() {
            pos.play_unchecked(*m);
            if comment.is_some_and(|c| c.trim() == "book") {
                continue;
            }
            let Some((next, _)) = moves.get(k + 1) else {
                break;
            };
            if pos.is_check()
                || next.is_capture()
                || next.is_promotion()
                || pos.fullmoves().get() < FIRST_MOVE
            {
                continue;
            }
            out.push((pos.clone(), result, white.clone(), black.clone(), g.line));
        }
    }
    Ok(out)
}

/// A player's name for the strengths: a full build with any parameter file is `full`.
fn player_key(name: &str) -> String {
    name.split(':').next().unwrap_or(name).to_string()
}

/// The weights to read (every non-zero one of [`LINEAR_WEIGHTS`] in `values`) and the asked
/// ones among them (each must be known and non-zero).
fn weights(
    values: &[super::params::ParamValue],
    asked: &[String],
) -> Result<(Vec<&'static str>, Vec<Weight>), TuneError> {
    let start_of = |name: &str| {
        values
            .iter()
            .find(|v| v.def.name == name)
            .map(|v| v.values[Block::Default as usize])
            .expect("LINEAR_WEIGHTS names parameters of the full build")
    };
    // The weights to read: the asked ones must be readable; by default every non-zero one.
    let asked: Vec<&'static str> = asked
        .iter()
        .map(|n| {
            LINEAR_WEIGHTS
                .iter()
                .find(|(_, p)| p.eq_ignore_ascii_case(n.trim()))
                .map(|&(_, p)| p)
                .ok_or_else(|| {
                    TuneError::UnknownWeight(
                        n.clone(),
                        LINEAR_WEIGHTS
                            .iter()
                            .map(|(_, p)| *p)
                            .collect::<Vec<_>>()
                            .join(", "),
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    for &p in &asked {
        if start_of(p) == 0 {
            return Err(TuneError::ZeroWeight(def(p).expect("a parameter").name));
        }
    }
    let read: Vec<Weight> = LINEAR_WEIGHTS
        .iter()
        .map(|&(t, p)| (t, p, start_of(p)))
        .filter(|&(_, _, w)| w != 0)
        .collect();
    Ok((asked, read))
}

/// A linear weight being read: its `eval` line, its parameter, its starting value.
type Weight = (&'static str, &'static str, i32);

/// The samples of the games in `pgn` (positions, their features read by the Z80), how many
/// games, and the players' names.
fn samples(
    engine: &mut Engine,
    pgn: &[PathBuf],
    read: &[Weight],
) -> Result<(Vec<Sample>, usize, Vec<String>), TuneError> {
    let mut players: Vec<String> = Vec::new();
    let mut data = Vec::new();
    let mut games = 0usize;
    let mut last_game = (usize::MAX, 0usize);
    for (file, path) in pgn.iter().enumerate() {
        let text = crate::userfile::read_text(path, crate::userfile::MAX_FILE).map_err(|e| {
            TuneError::Read {
                path: path.clone(),
                source: e.into_io(),
            }
        })?;
        for (pos, result, white, black, line) in positions(path, &text)? {
            if last_game != (file, line) {
                last_game = (file, line);
                games += 1;
            }
            let mut id = |name: &str| {
                let k = player_key(name);
                match players.iter().position(|p| *p == k) {
                    Some(i) => i,
                    None => {
                        players.push(k);
                        players.len() - 1
                    }
                }
            };
            let (white, black) = (id(&white), id(&black));
            sargon::load(engine, &pos)?;
            let e = engine.eval()?;
            if e.total.abs() > DECIDED {
                continue;
            }
            let mut counts = Vec::with_capacity(read.len());
            let mut linear = 0i32;
            for &(term, weight, w) in read {
                let value = e
                    .terms
                    .iter()
                    .find(|t| t.name == term)
                    .map(|t| t.value)
                    .expect("LINEAR_WEIGHTS names eval lines");
                if value % w != 0 {
                    return Err(TuneError::NotLinear {
                        term,
                        value,
                        weight,
                        w,
                        fen: shakmaty::fen::Fen::from_position(
                            &pos,
                            shakmaty::EnPassantMode::Legal,
                        )
                        .to_string(),
                    });
                }
                counts.push((value / w) as f64);
                linear += value;
            }
            data.push(Sample {
                counts,
                fixed: (e.total - linear) as f64,
                result,
                white,
                black,
                holdout: games.is_multiple_of(5),
            });
        }
    }
    Ok((data, games, players))
}

/// `base` with the tuned weights `idx` of `m` set in every block (each clamped to its range),
/// a line for each in the report `r`.
fn tuned_file(
    base: &ParamFile,
    read: &[Weight],
    idx: &[usize],
    m: &Model,
    r: &mut String,
) -> ParamFile {
    let mut tuned = base.clone();
    for &i in idx {
        let d = def(read[i].1).expect("a parameter");
        let v = (m.w[i] as i32).clamp(d.min, d.max);
        let _ = writeln!(r, "  {:<9} {:>5} -> {:>5}", d.name, read[i].2, v);
        for b in Block::ALL {
            let list = match b {
                Block::Default => &mut tuned.default,
                Block::E4 => &mut tuned.e4,
                Block::D4 => &mut tuned.d4,
            };
            match list.iter_mut().find(|(n, _)| *n == d.name) {
                Some(slot) => slot.1 = v,
                None => list.push((d.name, v)),
            }
        }
    }
    tuned
}

/// `--out` may be written: not an input, not an existing file unless `force`.
fn check_out(args: &TuneOptions) -> Result<crate::outfile::Replace, TuneError> {
    let replace = crate::outfile::Replace::force(args.force);
    if let Some(out) = &args.out {
        let mut inputs: Vec<crate::outfile::Role> = args
            .pgn
            .iter()
            .map(|p| (p.as_path(), "a PGN input"))
            .collect();
        inputs.extend(args.params.iter().map(|p| (p.as_path(), "--params")));
        crate::outfile::distinct(&[(out, "--out")], &inputs)?;
        crate::outfile::check(out, replace)?;
    }
    Ok(replace)
}

/// `z80chess tune`: the report, and the tuned file (written to `out` or appended).
pub fn tune(args: &TuneOptions) -> Result<String, TuneError> {
    let replace = check_out(args)?;
    let mut engine = Engine::new(Build::Full)?;
    let mut base = ParamFile::default();
    if let Some(p) = &args.params {
        base = ParamFile::load(p)?;
        engine.load_params(&base)?;
    }
    let values = engine.params()?;
    let (asked, read) = weights(&values, &args.weights)?;
    let w0: Vec<f64> = read.iter().map(|&(_, _, w)| w as f64).collect();

    let (data, games, players) = samples(&mut engine, &args.pgn, &read)?;
    if data.len() < 200 {
        return Err(TuneError::TooFew(data.len()));
    }
    let held = data.iter().filter(|x| x.holdout).count();
    let mut r = String::new();
    let _ = writeln!(
        r,
        "{} positions from {} games ({} positions of every fifth game held out); players: {}",
        data.len(),
        games,
        held,
        players.join(", ")
    );

    let base_model = fit_scale(&data, &w0, players.len().max(1));
    let base_train = base_model.loss(&data, false);
    let base_held = base_model.loss(&data, true);
    let _ = writeln!(
        r,
        "starting weights: K = {:.4} per 1/256 pawn, loss {:.6} (held out {:.6})",
        base_model.k, base_train, base_held
    );
    for (i, p) in players.iter().enumerate().skip(1) {
        let _ = writeln!(
            r,
            "  strength of {p} against {}: {:+.2} pawns",
            players[0],
            base_model.s[i] / 256.0
        );
    }
    // What matters most: the loss's rise when a weight is taken out.
    let mut rise: Vec<(f64, usize)> = (0..read.len())
        .map(|i| {
            let mut m = base_model.clone();
            m.w[i] = 0.0;
            (m.loss(&data, false) - base_train, i)
        })
        .collect();
    rise.sort_by(|a, b| b.0.total_cmp(&a.0));
    let _ = writeln!(
        r,
        "the loss's rise with one weight at 0 (training positions):"
    );
    for &(d, i) in &rise {
        let _ = writeln!(r, "  {:<9} {:>+10.2}e-6  {}", read[i].1, d * 1e6, read[i].0);
    }
    let idx: Vec<usize> = if asked.is_empty() {
        rise.iter().take(args.top).map(|&(_, i)| i).collect()
    } else {
        asked
            .iter()
            .map(|p| {
                read.iter()
                    .position(|&(_, q, _)| q == *p)
                    .expect("non-zero")
            })
            .collect()
    };
    let mut best: Option<(f64, f64, Model)> = None;
    for lambda in LAMBDAS {
        let m = fit(&data, &base_model, &w0, &idx, lambda, 1500);
        let mut rounded = m.clone();
        for &i in &idx {
            rounded.w[i] = rounded.w[i].round();
        }
        let (lt, lh) = (rounded.loss(&data, false), rounded.loss(&data, true));
        let _ = writeln!(
            r,
            "lambda {lambda:<7}: loss {lt:.6} (held out {lh:.6}): {}",
            idx.iter()
                .map(|&i| format!("{} {}", read[i].1, rounded.w[i]))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if best.as_ref().is_none_or(|(b, _, _)| lh < *b) {
            best = Some((lh, lambda, rounded));
        }
    }
    let (lh, lambda, m) = best.expect("LAMBDAS is not empty");
    let _ = writeln!(
        r,
        "chosen: lambda {lambda} (held-out loss {lh:.6}, starting weights {base_held:.6})"
    );
    if lh > base_held && !args.force {
        return Err(TuneError::Worse {
            tuned: lh,
            start: base_held,
            report: r,
        });
    }
    let tuned = tuned_file(&base, &read, &idx, &m, &mut r);
    let file = format!(
        "# z80chess tune: {} positions, {} games, lambda {lambda}\n{}",
        data.len(),
        games,
        tuned.canonical()
    );
    match &args.out {
        Some(p) => {
            crate::outfile::write(p, file.as_bytes(), replace)?;
            let _ = writeln!(r, "written to {}", p.display());
        }
        None => r.push_str(&file),
    }
    Ok(r)
}
