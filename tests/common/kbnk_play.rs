//! Shared by tests/endgames/kbnk.rs and tests/endgames/kbnk_fit.rs: a KBNK position as the table's men, and a
//! host alpha-beta search that plays the strong side against the table's perfect defence
//! (the bare king's longest loss) within the 50-move rule.
#![allow(dead_code)]

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use z80chess::luscher::kbnk::{self, Kbnk};
use z80chess::tablebase::men::{in_check, legal_moves, Men, RawMove, BLACK, WHITE};
use z80chess::tablebase::{Metric, Store, Val};

/// Above every evaluation: a mate.
pub const MATE: i32 = 32_000;

/// The position as the table's men: the strong king, the bare king, the bishop, the knight.
pub fn men_of(p: &Kbnk) -> Men {
    p.men()
}

fn key(p: &Kbnk) -> (u8, u8, u8, u8, bool) {
    (p.sk, p.wk, p.b, p.n, p.strong_to_move)
}

/// The position after a move; None when a piece is taken (a draw).
pub fn after(p: &Kbnk, m: &RawMove) -> Option<Kbnk> {
    if m.capture != usize::MAX {
        return None;
    }
    let mut q = *p;
    match m.i {
        0 => q.sk = m.to,
        1 => q.wk = m.to,
        2 => q.b = m.to,
        _ => q.n = m.to,
    }
    q.strong_to_move = !p.strong_to_move;
    Some(q)
}

/// The random words the position draws read (xorshift from `seed`).
pub fn randoms(seed: u64) -> impl Iterator<Item = u64> {
    let mut x = (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
    std::iter::repeat_with(move || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    })
}

/// The position a random word draws: the squares from its low 24 bits, the side to move
/// from its top bit when `either` (else the strong side).
pub fn drawn(r: u64, either: bool) -> Kbnk {
    let sq = |k: u32| ((r >> (6 * k)) & 63) as u8;
    Kbnk {
        sk: sq(0),
        wk: sq(1),
        b: sq(2),
        n: sq(3),
        strong_to_move: !either || r >> 63 == 1,
    }
}

/// `games` random legal positions, the strong side to move, that `keep` accepts.
pub fn starts(games: usize, seed: u64, keep: impl Fn(&Kbnk) -> bool) -> Vec<Kbnk> {
    let mut out = Vec::new();
    for r in randoms(seed) {
        if out.len() == games {
            break;
        }
        let p = drawn(r, false);
        let distinct = [p.sk, p.wk, p.b, p.n].iter().collect::<HashSet<_>>().len() == 4;
        if distinct && kbnk::cheb(p.sk, p.wk) > 1 && !p.check() && keep(&p) {
            out.push(p);
        }
    }
    out
}

/// The strong side played by an alpha-beta search over `leaf` (the strong side's score of a
/// position with moves), the bare king by the table (`value`: the side to move's value).
/// A position seen before in the game or on the path scores 0 (a draw, as the full build's
/// repetition rule).
pub struct Sim<'a> {
    pub leaf: &'a dyn Fn(&Kbnk) -> i32,
    pub value: &'a dyn Fn(&Kbnk) -> Val,
    /// Evaluations a move when playing by a budget (depth 0).
    pub budget: u64,
    /// By a budget: how many moves were chosen by each depth.
    pub depths: [u64; 9],
    /// By a budget, the deepest completed depth at most this (0: any).
    pub cap: usize,
    /// By a budget, only even depths' moves kept (depth 1 aside).
    pub even: bool,
    /// Fixed depths by move, cycled (empty: the `depth` given to `play`).
    pub cycle: Vec<usize>,
    /// The defence as `z80chess endgame-test` plays it: among the longest losses, the move
    /// leaving the strong side the most replies that lose ground, then at random from this
    /// xorshift state (None: the first longest loss).
    pub traps: Option<u64>,
    evals: u64,
    seen: HashSet<(u8, u8, u8, u8, bool)>,
    buf: Vec<Vec<RawMove>>,
}

impl<'a> Sim<'a> {
    pub fn new(leaf: &'a dyn Fn(&Kbnk) -> i32, value: &'a dyn Fn(&Kbnk) -> Val) -> Sim<'a> {
        Sim {
            leaf,
            value,
            budget: 0,
            depths: [0; 9],
            cap: 0,
            even: false,
            cycle: Vec::new(),
            traps: None,
            evals: 0,
            seen: HashSet::new(),
            buf: Vec::new(),
        }
    }

    /// The strong side's view, alpha-beta to `depth` plies.
    fn search(&mut self, p: &Kbnk, depth: usize, ply: usize, mut a: i32, mut b: i32) -> i32 {
        if ply > 0 && self.seen.contains(&key(p)) {
            return 0;
        }
        let men = men_of(p);
        let stm = if p.strong_to_move { WHITE } else { BLACK };
        while self.buf.len() <= ply {
            self.buf.push(Vec::new());
        }
        let mut ms = std::mem::take(&mut self.buf[ply]);
        legal_moves(&men, stm, usize::MAX, &mut ms);
        let r = if ms.is_empty() {
            match (in_check(&men, stm), p.strong_to_move) {
                (false, _) => 0,
                (true, true) => -MATE,
                (true, false) => MATE - ply as i32,
            }
        } else if depth == 0 {
            self.evals += 1;
            (self.leaf)(p)
        } else {
            let mut best = if p.strong_to_move {
                -MATE - 1
            } else {
                MATE + 1
            };
            for m in ms.iter() {
                let v = match after(p, m) {
                    None => 0,
                    Some(q) => self.search(&q, depth - 1, ply + 1, a, b),
                };
                if p.strong_to_move {
                    best = best.max(v);
                    a = a.max(v);
                } else {
                    best = best.min(v);
                    b = b.min(v);
                }
                if a >= b {
                    break;
                }
            }
            best
        };
        self.buf[ply] = ms;
        r
    }

    /// The strong side's move: a `depth`-ply search, or (depth 0) the deepest iteration
    /// whose evaluations, summed from depth 1, stay within the budget (as the Z80's time
    /// control keeps the last completed depth's move).
    fn choose(&mut self, p: &Kbnk, ms: &[RawMove], depth: usize) -> Option<Kbnk> {
        let order: Vec<&RawMove> = match std::env::var("KF_ROOT").as_deref() {
            Ok("rev") => ms.iter().rev().collect(),
            Ok("pieces") => ms
                .iter()
                .filter(|m| m.i != 0)
                .chain(ms.iter().filter(|m| m.i == 0))
                .collect(),
            _ => ms.iter().collect(),
        };
        let one = |sim: &mut Self, d: usize| {
            let mut best = (-MATE - 2, None);
            for m in order.iter().copied() {
                let Some(q) = after(p, m) else { continue };
                let v = sim.search(&q, d - 1, 1, -MATE - 1, MATE + 1);
                if v > best.0 {
                    best = (v, Some(q));
                }
            }
            best.1
        };
        if depth > 0 {
            return one(self, depth);
        }
        self.evals = 0;
        let mut chosen = None;
        let mut deepest = 0;
        for d in 1..=8 {
            if self.cap > 0 && d > self.cap {
                break;
            }
            let q = one(self, d);
            if self.evals > self.budget && d > 1 {
                break;
            }
            if !self.even || d == 1 || d % 2 == 0 {
                chosen = q;
                deepest = d;
            }
        }
        self.depths[deepest] += 1;
        chosen
    }

    /// Each strong move's `depth`-ply score from `p` (strong to move), the positions of
    /// `history` (the game so far, `p` included) counting as seen (a draw), as in `play`.
    pub fn scores(&mut self, history: &[Kbnk], p: &Kbnk, depth: usize) -> Vec<(Kbnk, i32)> {
        self.seen = history.iter().map(key).collect();
        let mut ms = Vec::new();
        legal_moves(&men_of(p), WHITE, usize::MAX, &mut ms);
        let mut out = Vec::new();
        for m in &ms {
            let Some(q) = after(p, m) else { continue };
            let v = self.search(&q, depth - 1, 1, -MATE - 1, MATE + 1);
            out.push((q, v));
        }
        out
    }

    /// Plays from `p` (strong to move): Ok(moves) when mated within 50 moves, else
    /// Err(the fewest plies to mate reached).
    pub fn play(&mut self, mut p: Kbnk, depth: usize) -> Result<u32, u32> {
        self.seen.clear();
        let plies = |v: Val| match v {
            Val::Win(d) => d as u32,
            _ => 999,
        };
        let mut closest = plies((self.value)(&p));
        for mv in 1..=50 {
            self.seen.insert(key(&p));
            let men = men_of(&p);
            let mut ms = Vec::new();
            legal_moves(&men, WHITE, usize::MAX, &mut ms);
            let d = match self.cycle.len() {
                0 => depth,
                k => self.cycle[(mv as usize - 1) % k],
            };
            let q = self.choose(&p, &ms, d).ok_or(closest)?;
            self.seen.insert(key(&q));
            let men = men_of(&q);
            legal_moves(&men, BLACK, usize::MAX, &mut ms);
            if ms.is_empty() {
                return if in_check(&men, BLACK) {
                    Ok(mv)
                } else {
                    Err(closest)
                };
            }
            let mut worst: Vec<(Val, Kbnk)> = Vec::new();
            for m in &ms {
                let r = after(&q, m).ok_or(closest)?; // a piece taken: drawn
                let v = (self.value)(&r);
                if !v.is_win() {
                    return Err(closest);
                }
                if worst.first().is_none_or(|(w, _)| v.rank() < w.rank()) {
                    worst.clear();
                }
                if worst.first().is_none_or(|(w, _)| v.rank() == w.rank()) {
                    worst.push((v, r));
                }
            }
            let (v, r) = match self.traps.as_mut() {
                Some(x) if worst.len() > 1 => {
                    let traps = |r: &Kbnk| {
                        let mut rs = Vec::new();
                        legal_moves(&men_of(r), WHITE, usize::MAX, &mut rs);
                        let now = (self.value)(r).rank();
                        rs.iter()
                            .filter(|m| match after(r, m) {
                                None => true,
                                Some(q2) => {
                                    let d = match (self.value)(&q2) {
                                        Val::Loss(d) => d as i32 + 1,
                                        _ => return true,
                                    };
                                    1000 - d < now
                                }
                            })
                            .count()
                    };
                    let most = worst.iter().map(|(_, r)| traps(r)).max().unwrap_or(0);
                    worst.retain(|(_, r)| traps(r) == most);
                    *x ^= *x >> 12;
                    *x ^= *x << 25;
                    *x ^= *x >> 27;
                    let k = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % worst.len();
                    worst.swap_remove(k)
                }
                _ => *worst.first().ok_or(closest)?,
            };
            closest = closest.min(plies(v));
            p = r;
            if std::env::var("KBNK_TRACE").is_ok() {
                println!("move {mv}: {p:?} {v:?}");
            }
        }
        Err(closest)
    }

    /// Plays the bare king by the search from a drawn position `p` (strong to move) for 50
    /// moves against the table's strong side (the drawing move that leaves the bare king
    /// the fewest moves that keep the draw): true when the draw is held (a piece taken, a
    /// stalemate, or 50 moves), false when the bare king steps into a lost position.
    pub fn defend(&mut self, mut p: Kbnk, depth: usize) -> bool {
        self.seen.clear();
        let mut ms = Vec::new();
        let mut rs = Vec::new();
        for _ in 1..=50 {
            self.seen.insert(key(&p));
            legal_moves(&men_of(&p), WHITE, usize::MAX, &mut ms);
            // the strong side: a drawing move that is hardest to meet
            let mut pick: Option<(usize, Kbnk)> = None;
            for m in &ms {
                let Some(q) = after(&p, m) else { continue };
                if (self.value)(&q) != Val::Draw {
                    continue;
                }
                legal_moves(&men_of(&q), BLACK, usize::MAX, &mut rs);
                let keep = rs
                    .iter()
                    .filter(|r| after(&q, r).is_none_or(|x| (self.value)(&x) == Val::Draw))
                    .count();
                if pick.is_none_or(|(k, _)| keep < k) {
                    pick = Some((keep, q));
                }
            }
            let Some((_, q)) = pick else { return true };
            self.seen.insert(key(&q));
            legal_moves(&men_of(&q), BLACK, usize::MAX, &mut rs);
            // the bare king: the least score (a piece taken scores 0)
            let mut best: Option<(i32, Option<Kbnk>)> = None;
            for m in &rs {
                let r = after(&q, m);
                let v = match r {
                    None => 0,
                    Some(x) => self.search(&x, depth - 1, 1, -MATE - 1, MATE + 1),
                };
                if best.is_none_or(|(b, _)| v < b) {
                    best = Some((v, r));
                }
            }
            match best {
                None => return true,            // stalemate
                Some((_, None)) => return true, // a piece taken
                Some((_, Some(r))) => {
                    if (self.value)(&r) != Val::Draw {
                        return false;
                    }
                    p = r;
                }
            }
        }
        true
    }
}

/// Where the KBNK table of the tests is kept: the target's temporary folder, so it is built once
/// and reused by later runs (a folder per table format and generator, so a table of another
/// version is never met there).
pub fn kbnk_tables_dir() -> PathBuf {
    use z80chess::tablebase::store::{FORMAT, GENERATOR};
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("kbnk-tables-{FORMAT}-{GENERATOR}"))
}

/// Our KBNK table, built on first use behind one lock, so no two tests of a binary build it
/// into the same folder at once.
pub fn kbnk_store() -> &'static Mutex<Store> {
    static S: OnceLock<Mutex<Store>> = OnceLock::new();
    S.get_or_init(|| {
        let mut s = Store::new(kbnk_tables_dir(), Metric::Dtm);
        s.table("KBNK").unwrap();
        Mutex::new(s)
    })
}
