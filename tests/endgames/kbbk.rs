//! The KBBK mating procedure (`asm/full/kbbk.asm`'s KBBKEV, expansion ROM page 7), its host
//! model (here), held against our KBBK table and the Z80 to the model.
//!
//! - Every KBBK position with the bishops on both colours (the strong side White, either side
//!   to move): where the model claims a win the table says the strong side wins, where it
//!   claims a draw the table says draw.
//! - The Z80's KBBKEV gives the model's verdict and score on every 13th KBBK position, either
//!   colour strong (every position: `-- --ignored every`).
//! - Host play (`-- --ignored host_play --nocapture`): the model's move by a d-ply search
//!   against the table's best defence, the conversion rate within the 50-move rule (what
//!   chose the weights; env KBBK_W = "grad,king,flight,unc,area", KBBK_DEPTH, KBBK_GAMES,
//!   KBBK_SEED, KBBK_G a gradient, KBBK_TRACE).

use std::collections::HashSet;
use z80chess::firmware::{Build, Engine};
use z80chess::luscher::kbnk::neighbours;

use crate::common::{paged_call, tables};
use paged_call::{sym, Got, PagedCall};
use z80chess::tablebase::men::{
    attacks, in_check, legal_moves, Men, RawMove, BISHOP, BLACK, KING, MAX_MEN, WHITE,
};
use z80chess::tablebase::{Store, Val};

// ---- the model ------------------------------------------------------------------------

/// A KBBK position: the strong king, the bare king, the bishops (on both colours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Kbbk {
    sk: u8,
    wk: u8,
    b1: u8,
    b2: u8,
    strong_to_move: bool,
}

/// What KBBKEV says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Not scored: the bare king is to move and can take a bishop its king does not cover
    /// (POINTS' exchange evaluator sees the loss, as for Lüscher's module).
    Decline,
    /// A claim: stalemate.
    Draw,
    /// A claim: the strong side wins; the score, the strong side's view.
    Win(i32),
    /// No claim: the score less 256 × `unc`, below every claimed win.
    Likely(i32),
}

/// The weights (parameter block offsets B1h..B5h; `DEFAULT` are DEFPRM's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Weights {
    /// Per unit of [`GRADIENT`] (P_BBGR).
    grad: i32,
    /// Per king step between the kings (P_BBKD).
    king: i32,
    /// Per flight square of the bare king (P_BBFL).
    flight: i32,
    /// An unclaimed position scores 256 times this less (P_BBUNC).
    unc: i32,
    /// Per square of the bare king's area, with the bare king to move (P_BBAR).
    area: i32,
}

impl Weights {
    const DEFAULT: Weights = Weights {
        grad: 8,
        king: 24,
        flight: 16,
        unc: 8,
        area: 4,
    };
}

const BBBASE: i32 = 20_000;
const BBMATE: i32 = 28_000;
const BBFAR: u8 = 3;

/// The bare king's square, rank 1 first: 0 in the centre, rising to the edges and along
/// them to the corners (any corner mates with two bishops).
const GRADIENT: [u8; 64] = [
    90, 80, 70, 60, 60, 70, 80, 90, //
    80, 50, 40, 30, 30, 40, 50, 80, //
    70, 40, 20, 10, 10, 20, 40, 70, //
    60, 30, 10, 0, 0, 10, 30, 60, //
    60, 30, 10, 0, 0, 10, 30, 60, //
    70, 40, 20, 10, 10, 20, 40, 70, //
    80, 50, 40, 30, 30, 40, 50, 80, //
    90, 80, 70, 60, 60, 70, 80, 90, //
];

fn cheb(a: u8, b: u8) -> u8 {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    df.max(dr)
}

impl Kbbk {
    fn bit(s: u8) -> u64 {
        1u64 << s
    }
    /// Does the strong side attack `s`, the bishop on `skip` left out (64: none)? The bare
    /// king is transparent.
    fn covers(&self, s: u8, skip: u8) -> bool {
        let occ = Self::bit(self.sk) | Self::bit(self.b1) | Self::bit(self.b2);
        attacks(KING, 0, self.sk, s, occ)
            || [self.b1, self.b2]
                .into_iter()
                .any(|b| b != skip && b != s && attacks(BISHOP, 0, b, s, occ))
    }
    fn covered(&self, b: u8) -> bool {
        self.covers(b, b)
    }
    fn flights(&self) -> u8 {
        neighbours(self.wk)
            .filter(|&s| s != self.b1 && s != self.b2 && !self.covers(s, 64))
            .count() as u8
    }
    fn check(&self) -> bool {
        self.covers(self.wk, 64)
    }
    fn hangs(&self) -> bool {
        [self.b1, self.b2]
            .into_iter()
            .any(|b| cheb(self.wk, b) == 1 && !self.covered(b))
    }
    /// The squares the bare king reaches by king steps through squares no strong man attacks
    /// nor stands on, its own not counted.
    fn area(&self) -> i32 {
        let mut seen = Self::bit(self.wk);
        let mut stack = vec![self.wk];
        while let Some(s) = stack.pop() {
            for t in neighbours(s) {
                if seen & Self::bit(t) == 0
                    && t != self.b1
                    && t != self.b2
                    && t != self.sk
                    && !self.covers(t, 64)
                {
                    seen |= Self::bit(t);
                    stack.push(t);
                }
            }
        }
        seen.count_ones() as i32 - 1
    }
}

fn eval(p: &Kbbk, w: &Weights, g: &[u8; 64]) -> Verdict {
    if !p.strong_to_move && p.hangs() {
        return Verdict::Decline;
    }
    let fl = p.flights();
    if !p.strong_to_move && fl == 0 {
        return if p.check() {
            Verdict::Win(BBMATE)
        } else {
            Verdict::Draw
        };
    }
    let mut v = BBBASE + w.grad * g[p.wk as usize] as i32
        - w.king * cheb(p.sk, p.wk) as i32
        - w.flight * fl as i32;
    if !p.strong_to_move && w.area != 0 {
        v -= w.area * p.area();
    }
    let safe = |b: u8| p.covered(b) || cheb(p.wk, b) >= BBFAR;
    if safe(p.b1) && safe(p.b2) {
        Verdict::Win(v)
    } else {
        Verdict::Likely(v - 256 * w.unc)
    }
}

// ---- the table --------------------------------------------------------------------------

/// A store with our KBBK table in it (built once per test binary, see `common::tables`).
fn store() -> Store {
    tables::dtm(&["KBBK"])
}

fn men_of(p: &Kbbk) -> Men {
    let mut m = Men {
        n: 4,
        sq: [0; MAX_MEN],
        color: [0; MAX_MEN],
        role: [0; MAX_MEN],
    };
    m.sq[..4].copy_from_slice(&[p.sk, p.wk, p.b1, p.b2]);
    m.color[..4].copy_from_slice(&[WHITE, BLACK, WHITE, WHITE]);
    m.role[..4].copy_from_slice(&[KING, KING, BISHOP, BISHOP]);
    m
}

fn table_value(s: &Store, p: &Kbbk) -> Val {
    let stm = if p.strong_to_move { WHITE } else { BLACK };
    s.value_of(&men_of(p), stm, usize::MAX).unwrap()
}

fn dark(s: u8) -> bool {
    ((s & 7) + (s >> 3)).is_multiple_of(2)
}

/// Every legal KBBK position, White strong, the bishops on both colours, b1 < b2 (the order
/// LUSCAN lists them in).
fn positions() -> impl Iterator<Item = Kbbk> {
    (0..64u8).flat_map(|sk| {
        (0..64u8).flat_map(move |wk| {
            (0..64u8).flat_map(move |b1| {
                (b1 + 1..64u8).flat_map(move |b2| {
                    [true, false].into_iter().filter_map(move |stm| {
                        let p = Kbbk {
                            sk,
                            wk,
                            b1,
                            b2,
                            strong_to_move: stm,
                        };
                        let distinct = sk != wk && sk != b1 && sk != b2 && wk != b1 && wk != b2;
                        (distinct
                            && dark(b1) != dark(b2)
                            && cheb(sk, wk) > 1
                            && !(stm && p.check()))
                        .then_some(p)
                    })
                })
            })
        })
    })
}

#[test]
fn the_models_claims_are_the_tables_on_every_kbbk_position() {
    let s = store();
    let w = Weights::DEFAULT;
    let (mut n, mut won, mut claimed, mut draws, mut declined) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut bad = Vec::new();
    let mut nbad = 0u64;
    let (mut likely, mut lo_win, mut hi_likely) = (0u64, i32::MAX, i32::MIN);
    for p in positions() {
        let v = table_value(&s, &p);
        let strong_wins = if p.strong_to_move {
            v.is_win()
        } else {
            v.is_loss()
        };
        n += 1;
        won += strong_wins as u64;
        let e = eval(&p, &w, &GRADIENT);
        let ok = match e {
            Verdict::Win(x) => {
                claimed += 1;
                lo_win = lo_win.min(x);
                strong_wins
            }
            Verdict::Draw => {
                draws += 1;
                v == Val::Draw
            }
            Verdict::Decline => {
                declined += 1;
                true
            }
            Verdict::Likely(x) => {
                likely += 1;
                hi_likely = hi_likely.max(x);
                true
            }
        };
        if !ok {
            if bad.len() < 100 {
                bad.push(format!("{p:?}: table {v:?}, model {e:?}"));
            }
            nbad += 1;
        }
    }
    println!(
        "KBBK: {n} positions, {won} won; the model claims {claimed} wins, {draws} draws, \
         declines {declined}, leaves {likely} unclaimed; wrong: {nbad}"
    );
    assert!(
        hi_likely < lo_win,
        "an unclaimed score {hi_likely} reaches the claimed band {lo_win}"
    );
    assert!(n > 5_900_000, "{n}");
    assert!(bad.is_empty(), "{nbad} wrong:\n{}", bad.join("\n"));
}

// ---- the Z80 against the model --------------------------------------------------------

/// KBBKEV called on a board holding the position.
struct Z80Kbbk {
    z: PagedCall,
    t: u64,
}

impl Z80Kbbk {
    fn new() -> Z80Kbbk {
        // the stub at 7330h, past KBBK's RAM
        let mut z = PagedCall::new(7, "KBBKEV", sym("BBV") + 0x30);
        // P_KBBK = 1: the procedure whoever is to move (2, the default, leaves the strong
        // side to move to Lüscher's module: kbbkev_answers_only_for_kbbk_and_only_when_on)
        z.mem()[sym("P_KBBK") as usize] = 1;
        Z80Kbbk { z, t: 0 }
    }

    /// `p` with the strong side White (or Black: the board's ranks mirrored).
    fn call(&mut self, p: &Kbbk, black: bool) -> Got {
        let flip = if black { 56 } else { 0 };
        let (c, o) = if black { (0x80, 0) } else { (0, 0x80) };
        let men = [
            (p.sk ^ flip, 6 | c),
            (p.wk ^ flip, 6 | o),
            (p.b1 ^ flip, 3 | c),
            (p.b2 ^ flip, 3 | c),
        ];
        let got = self.z.ending(&men, p.strong_to_move != black);
        self.t = self.z.t;
        got
    }
}

/// The model's answer in KBBKEV's terms (the side to move's view).
fn want(p: &Kbbk) -> Got {
    let v = match eval(p, &Weights::DEFAULT, &GRADIENT) {
        Verdict::Decline => return Some(None),
        Verdict::Draw => 0,
        Verdict::Win(v) | Verdict::Likely(v) => v,
    };
    Some(Some(if p.strong_to_move { v } else { -v }))
}

/// Z80 and model on every `step`-th KBBK position, either colour strong: (calls, mean T, max T).
fn z80_agrees(step: usize) -> (u64, f64, u64) {
    let mut z = Z80Kbbk::new();
    let (mut n, mut t, mut tmax) = (0u64, 0u64, 0u64);
    let mut bad = Vec::new();
    for p in positions().step_by(step) {
        let w = want(&p);
        for black in [false, true] {
            let got = z.call(&p, black);
            n += 1;
            t += z.t;
            tmax = tmax.max(z.t);
            if got != w && bad.len() < 20 {
                bad.push(format!(
                    "{p:?} black strong {black}: model {w:?}, Z80 {got:?}"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    (n, t as f64 / n as f64, tmax)
}

#[test]
fn the_z80_is_the_model_on_a_slice_of_kbbk_positions() {
    let (n, mean, max) = z80_agrees(13);
    println!("KBBKEV: the Z80 agrees on {n} calls, {mean:.0} T a call on average, {max} at most");
    assert!(n > 900_000, "{n}");
}

/// `cargo test --release --test endgames -- --ignored kbbk::every`: all 11,946,944 calls (about three
/// minutes; 30,849 T a call on average, 63,349 at most).
#[test]
#[ignore = "every KBBK position, either colour strong: about three minutes"]
fn the_z80_is_the_model_on_every_kbbk_position() {
    let (n, mean, max) = z80_agrees(1);
    println!("KBBKEV: the Z80 agrees on {n} calls, {mean:.0} T a call on average, {max} at most");
    assert!(n > 11_900_000, "{n}");
}

/// KBBKEV with P_KBBK = 0 says "not mine" (Lüscher's module scores KBBK), with 2 only with
/// the bare king to move, and two bishops on one colour are never its.
#[test]
fn kbbkev_answers_only_for_kbbk_and_only_when_on() {
    let mut z = Z80Kbbk::new();
    let p = Kbbk {
        sk: 2,
        wk: 36,
        b1: 10,
        b2: 29,
        strong_to_move: true,
    };
    assert!(dark(p.b1) != dark(p.b2));
    assert_eq!(z.call(&p, false), want(&p));
    assert!(matches!(z.call(&p, false), Some(Some(_))), "scored");
    let same = Kbbk { b2: 30, ..p };
    assert_eq!(dark(same.b1), dark(same.b2));
    assert_eq!(z.call(&same, false), None, "two bishops on one colour");
    let mode = sym("P_KBBK") as usize;
    z.z.mem()[mode] = 2;
    assert_eq!(
        z.call(&p, false),
        None,
        "P_KBBK = 2, the strong side to move"
    );
    let bare = Kbbk {
        strong_to_move: false,
        ..p
    };
    assert_eq!(
        z.call(&bare, false),
        want(&bare),
        "P_KBBK = 2, the bare king to move"
    );
    assert_eq!(z.call(&bare, true), want(&bare), "P_KBBK = 2, Black strong");
    z.z.mem()[mode] = 0;
    assert_eq!(z.call(&p, false), None, "P_KBBK = 0");
    assert_eq!(z.call(&bare, false), None, "P_KBBK = 0");
}

#[test]
fn the_rom_holds_the_models_gradient_and_weights() {
    let rom = Build::Full.rom();
    let page7 = &rom[0x4000 + 7 * 0x4000..0x4000 + 8 * 0x4000];
    let at = |n: &str| (sym(n) - 0x8000) as usize;
    assert_eq!(&page7[at("BBGR")..at("BBGR") + 64], &GRADIENT[..]);
    let mut e = Engine::new(Build::Full).unwrap();
    e.eval().unwrap();
    let b = |n: &str| e.machine.bus.mem[sym(n) as usize] as i32;
    let w = Weights::DEFAULT;
    assert_eq!(
        b("P_KBBK"),
        2,
        "by default with the bare king to move (asm/README.md: what each converts)"
    );
    assert_eq!(
        [
            b("P_BBGR"),
            b("P_BBKD"),
            b("P_BBFL"),
            b("P_BBAR"),
            b("P_BBUNC")
        ],
        [w.grad, w.king, w.flight, w.area, w.unc]
    );
}

// ---- host play: what chose the weights ------------------------------------------------

struct Sim<'a> {
    s: &'a Store,
    w: Weights,
    g: [u8; 64],
    seen: HashSet<Kbbk>,
    buf: Vec<Vec<RawMove>>,
}

const MATE: i32 = 32_000;

fn after(p: &Kbbk, m: &RawMove) -> Option<Kbbk> {
    if m.capture != usize::MAX {
        return None; // a bishop taken: a draw
    }
    let mut q = *p;
    match m.i {
        0 => q.sk = m.to,
        1 => q.wk = m.to,
        2 => q.b1 = m.to,
        _ => q.b2 = m.to,
    }
    q.strong_to_move = !p.strong_to_move;
    Some(q)
}

impl Sim<'_> {
    /// The strong side's view, alpha-beta to `depth` plies.
    fn search(&mut self, p: &Kbbk, depth: usize, ply: usize, mut a: i32, mut b: i32) -> i32 {
        if ply > 0 && self.seen.contains(p) {
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
            if in_check(&men, stm) {
                if p.strong_to_move {
                    -MATE
                } else {
                    MATE - ply as i32
                }
            } else {
                0
            }
        } else if depth == 0 {
            match eval(p, &self.w, &self.g) {
                Verdict::Win(v) | Verdict::Likely(v) => v,
                Verdict::Decline => 0,
                Verdict::Draw => 0,
            }
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

    /// Plays from `p` (strong to move): Some(moves) when mated within 50 moves.
    fn play(&mut self, mut p: Kbbk, depth: usize, trace: bool) -> Option<u32> {
        self.seen.clear();
        for mv in 1..=50 {
            self.seen.insert(p);
            let men = men_of(&p);
            let mut ms = Vec::new();
            legal_moves(&men, WHITE, usize::MAX, &mut ms);
            let mut best = (-MATE - 2, None);
            for m in &ms {
                let Some(q) = after(&p, m) else { continue };
                let v = self.search(&q, depth - 1, 1, -MATE - 1, MATE + 1);
                if v > best.0 {
                    best = (v, Some(q));
                }
            }
            let q = best.1?;
            self.seen.insert(q);
            let men = men_of(&q);
            legal_moves(&men, BLACK, usize::MAX, &mut ms);
            if ms.is_empty() {
                return in_check(&men, BLACK).then_some(mv);
            }
            let mut worst: Option<(Val, Kbbk)> = None;
            for m in &ms {
                let r = after(&q, m)?; // a capture: drawn
                let v = table_value(self.s, &r);
                if !v.is_win() {
                    return None;
                }
                if worst.is_none_or(|(w, _)| v.rank() < w.rank()) {
                    worst = Some((v, r));
                }
            }
            p = worst?.1;
            if trace {
                println!("move {mv}: {:?} {:?}", p, table_value(self.s, &p));
            }
        }
        None
    }
}

fn env_or(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

#[test]
#[ignore = "host play for tuning: minutes"]
fn host_play() {
    let s = store();
    let mut w = Weights::DEFAULT;
    if let Ok(v) = std::env::var("KBBK_W") {
        let x: Vec<i32> = v.split(',').map(|t| t.parse().unwrap()).collect();
        w = Weights {
            grad: x[0],
            king: x[1],
            flight: x[2],
            unc: x[3],
            area: x.get(4).copied().unwrap_or(0),
        };
    }
    let depth = env_or("KBBK_DEPTH", 3);
    let games = env_or("KBBK_GAMES", 50);
    let mut x = (env_or("KBBK_SEED", 1) as u64 * 0x9E37_79B9_7F4A_7C15) | 1;
    let mut all = Vec::new();
    while all.len() < games {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let r = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let sq = |k: u32| ((r >> (6 * k)) & 63) as u8;
        let (b1, b2) = (sq(2).min(sq(3)), sq(2).max(sq(3)));
        let p = Kbbk {
            sk: sq(0),
            wk: sq(1),
            b1,
            b2,
            strong_to_move: true,
        };
        let distinct = [p.sk, p.wk, p.b1, p.b2]
            .iter()
            .collect::<HashSet<_>>()
            .len()
            == 4;
        if distinct
            && dark(b1) != dark(b2)
            && cheb(p.sk, p.wk) > 1
            && !p.check()
            && table_value(&s, &p).is_win()
        {
            all.push(p);
        }
    }
    let mut g = GRADIENT;
    if let Ok(v) = std::env::var("KBBK_G") {
        let x: Vec<u8> = v.split(',').map(|t| t.trim().parse().unwrap()).collect();
        g.copy_from_slice(&x);
    }
    let trace = std::env::var("KBBK_TRACE").is_ok();
    let mut sim = Sim {
        s: &s,
        w,
        g,
        seen: HashSet::new(),
        buf: Vec::new(),
    };
    let (mut won, mut moves) = (0, 0);
    for p in &all {
        match sim.play(*p, depth, trace) {
            Some(m) => {
                won += 1;
                moves += m;
            }
            None => println!("failed: {p:?} {:?}", table_value(&s, p)),
        }
    }
    println!(
        "weights {w:?} depth {depth}: {won} of {} mated within 50 moves ({:.1} moves on average)",
        all.len(),
        moves as f64 / won.max(1) as f64
    );
}
