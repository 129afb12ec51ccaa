//! The KBNK mating procedure (`asm/full/kbnk.asm`'s KBNKEV, modelled in `src/luscher/kbnk.rs`),
//! held against our KBNK table and the Z80 to the model.
//!
//! - Every KBNK position (the strong side White, either side to move): where the model claims
//!   a win the table says the strong side wins, where it claims a draw the table says draw.
//! - The Z80's KBNKEV gives the model's verdict and score on every KBNK position, either
//!   colour strong (`-- --ignored`; a slice by default).
//! - The table path (P_KBNK = 2, KBTAB/KBREP): the Z80 gives the host model's answer
//!   ([`Tables::score`] on the ROM's own tables) on 100,000 random KBNK positions, either
//!   colour strong (every position with `-- --ignored`), and a table changed in one cell
//!   is caught.
//! - P_KBNK = 4 caps an iterating search that evaluates KBNK at P_KBDEP plies.
//! - Host play (`-- --ignored host_play`): the model's move by a d-ply search against the
//!   table's best defence, the conversion rate within the 50-move rule (what chose the
//!   weights; env KBNK_W = "grad,king,knight,flight", KBNK_DEPTH, KBNK_GAMES).

use crate::common::kbnk_play;

use kbnk_play::{drawn, men_of, randoms, starts, Sim};

use crate::common::{paged_call, tables};
use paged_call::{sym, Got, PagedCall};
use z80chess::firmware::{Build, Engine};
use z80chess::luscher::kbnk::{self, eval, Kbnk, Verdict, Weights};
use z80chess::luscher::kbnk_fit::{legal, norm};
use z80chess::luscher::kbnk_tables::{tri_index, Tables};
use z80chess::tablebase::men::{BLACK, WHITE};
use z80chess::tablebase::{Store, Val};

/// A store with our KBNK table in it (built once per test binary, see `common::tables`).
fn store() -> Store {
    tables::dtm(&["KBNK"])
}

/// Every legal KBNK position, White strong.
fn positions() -> impl Iterator<Item = Kbnk> {
    (0..64u8).flat_map(|sk| {
        (0..64u8).flat_map(move |wk| {
            (0..64u8).flat_map(move |b| {
                (0..64u8).flat_map(move |n| {
                    [true, false].into_iter().filter_map(move |stm| {
                        let p = Kbnk {
                            sk,
                            wk,
                            b,
                            n,
                            strong_to_move: stm,
                        };
                        let distinct =
                            sk != wk && sk != b && sk != n && wk != b && wk != n && b != n;
                        (distinct && kbnk::cheb(sk, wk) > 1 && !(stm && p.check())).then_some(p)
                    })
                })
            })
        })
    })
}

fn table_value(s: &Store, p: &Kbnk) -> Val {
    let stm = if p.strong_to_move { WHITE } else { BLACK };
    s.value_of(&men_of(p), stm, usize::MAX).unwrap()
}

#[test]
fn the_models_claims_are_the_tables_on_every_kbnk_position() {
    let s = store();
    let w = Weights::DEFAULT;
    let (mut n, mut won, mut claimed, mut draws, mut declined) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut bad = Vec::new();
    let mut nbad = 0u64;
    let (mut likely, mut lo_win, mut lo_likely) = (0u64, i32::MAX, i32::MIN);
    for p in positions() {
        let v = table_value(&s, &p);
        let strong_wins = if p.strong_to_move {
            v.is_win()
        } else {
            v.is_loss()
        };
        n += 1;
        won += strong_wins as u64;
        let ok = match eval(&p, &w) {
            Verdict::Win(v) => {
                claimed += 1;
                lo_win = lo_win.min(v);
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
            Verdict::Likely(v) => {
                likely += 1;
                lo_likely = lo_likely.max(v);
                true
            }
        };
        if !ok {
            if bad.len() < 400 {
                bad.push(format!("{p:?}: table {v:?}, model {:?}", eval(&p, &w)));
            }
            nbad += 1;
        }
    }
    println!(
        "KBNK: {n} positions, {won} won; the model claims {claimed} wins, {draws} draws, \
         declines {declined}, leaves {likely} unclaimed; wrong: {nbad}"
    );
    assert!(
        lo_likely < lo_win,
        "an unclaimed score {lo_likely} reaches the claimed band {lo_win}"
    );
    assert!(n > 20_000_000, "{n}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

// ---- the Z80 against the model --------------------------------------------------------

/// KBNKEV called on a board holding the position.
struct Z80Kbnk {
    z: PagedCall,
    t: u64,
}

impl Z80Kbnk {
    fn new() -> Z80Kbnk {
        Z80Kbnk::with(0)
    }

    /// With P_KBNK = `mode` in the active block (2: the tables).
    fn with(mode: u8) -> Z80Kbnk {
        // the stub at the top of KBNK's RAM
        let mut z = PagedCall::new(6, "KBNKEV", sym("KNV") + 0xF0);
        z.mem()[sym("P_KBNK") as usize] = mode;
        Z80Kbnk { z, t: 0 }
    }

    /// `p` with the strong side White (or Black: the board's ranks mirrored).
    fn call(&mut self, p: &Kbnk, black: bool) -> Got {
        let flip = if black { 56 } else { 0 };
        let (c, o) = if black { (0x80, 0) } else { (0, 0x80) };
        let men = [
            (p.sk ^ flip, 6 | c),
            (p.wk ^ flip, 6 | o),
            (p.b ^ flip, 3 | c),
            (p.n ^ flip, 2 | c),
        ];
        let got = self.z.ending(&men, p.strong_to_move != black);
        self.t = self.z.t;
        got
    }
}

/// The model's answer in KBNKEV's terms (the side to move's view).
fn want(p: &Kbnk) -> Got {
    let v = match eval(p, &Weights::DEFAULT) {
        Verdict::Decline => return Some(None),
        Verdict::Draw => 0,
        Verdict::Win(v) | Verdict::Likely(v) => v,
    };
    Some(Some(if p.strong_to_move { v } else { -v }))
}

/// Z80 and model on every `step`-th KBNK position, either colour strong: (calls, mean T, max T).
fn z80_agrees(step: usize) -> (u64, f64, u64) {
    let mut z = Z80Kbnk::new();
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
fn the_z80_is_the_model_on_a_slice_of_kbnk_positions() {
    let (n, mean, max) = z80_agrees(97);
    println!("KBNKEV: the Z80 agrees on {n} calls, {mean:.0} T a call on average, {max} at most");
    assert!(n > 500_000, "{n}");
}

/// `cargo test --release --test endgames -- --ignored kbnk::every`: all 49 million calls (about an
/// hour on one core).
#[test]
#[ignore = "every KBNK position, either colour strong: about an hour"]
fn the_z80_is_the_model_on_every_kbnk_position() {
    let (n, mean, max) = z80_agrees(1);
    println!("KBNKEV: the Z80 agrees on {n} calls, {mean:.0} T a call on average, {max} at most");
    assert!(n > 49_000_000, "{n}");
}

// ---- the table path (P_KBNK = 2) against its host model ---------------------------------

/// The ROM's KBNK tables (page 6), read back at their labels.
fn rom_tables() -> Tables {
    let rom = Build::Full.rom();
    let page6 = &rom[0x4000 + 6 * 0x4000..0x4000 + 7 * 0x4000];
    Tables::from_rom(|n, len| {
        let a = (sym(n) - 0x8000) as usize;
        page6[a..a + len].to_vec()
    })
}

/// `n` random legal KBNK positions (White strong, either side to move).
fn random_positions(n: usize, seed: u64) -> Vec<Kbnk> {
    let ps = randoms(seed).map(|r| drawn(r, true)).filter(legal);
    ps.take(n).collect()
}

/// The host model's answer in KBNKEV's terms (the side to move's view).
fn want_tab(t: &Tables, p: &Kbnk) -> Got {
    Some(t.score(p).map(|v| if p.strong_to_move { v } else { -v }))
}

/// The Z80 (P_KBNK = 2) against `t` on `ps`, either colour strong: (calls, mean T, max T,
/// the first disagreements).
fn table_disagreements(t: &Tables, ps: impl Iterator<Item = Kbnk>) -> (u64, f64, u64, Vec<String>) {
    let mut z = Z80Kbnk::with(2);
    let (mut n, mut tt, mut tmax) = (0u64, 0u64, 0u64);
    let mut bad = Vec::new();
    for p in ps {
        let w = want_tab(t, &p);
        for black in [false, true] {
            let got = z.call(&p, black);
            n += 1;
            tt += z.t;
            tmax = tmax.max(z.t);
            if got != w && bad.len() < 20 {
                bad.push(format!(
                    "{p:?} black strong {black}: model {w:?}, Z80 {got:?}"
                ));
            }
        }
    }
    (n, tt as f64 / n.max(1) as f64, tmax, bad)
}

#[test]
fn the_z80_tables_are_the_host_model_on_100000_random_positions() {
    let t = rom_tables();
    let ps = random_positions(100_000, 1);
    let (n, mean, max, bad) = table_disagreements(&t, ps.into_iter());
    println!(
        "KBTAB/KBREP: the Z80 agrees on {n} calls, {mean:.0} T a call on average, {max} at most"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert_eq!(n, 200_000);
}

/// The check can fail: one cell changed in the host's copy of each table (a cell the first
/// positions read) and the Z80 disagrees.
#[test]
fn a_table_changed_in_one_cell_is_caught() {
    let ps = random_positions(2_000, 2);
    let p = ps.iter().find(|p| p.strong_to_move).unwrap();
    let [sk, wk, b, n] = norm(p);
    let c = rom_tables().class[wk] as usize * 64;
    let edge = ps
        .iter()
        .find(|p| p.strong_to_move && norm(p)[1] < 7)
        .unwrap();
    let e = norm(edge);
    let tri = tri_index(e[1], e[0], e[3]);
    type Break = (&'static str, Box<dyn Fn(&mut Tables)>);
    let breaks: [Break; 5] = [
        ("strong king", Box::new(move |t| t.pair[0][c + sk] ^= 1)),
        ("knight", Box::new(move |t| t.pair[1][c + n] ^= 1)),
        ("bishop", Box::new(move |t| t.pair[2][c + b] ^= 1)),
        (
            "triple",
            Box::new(move |t| t.triple[tri >> 1] ^= 1 << (4 * (tri & 1))),
        ),
        ("base", Box::new(|t| t.base += 1)),
    ];
    for (what, f) in breaks {
        let mut t = rom_tables();
        f(&mut t);
        let (_, _, _, bad) = table_disagreements(&t, ps.iter().copied());
        assert!(!bad.is_empty(), "a changed {what} cell went unseen");
        println!("{what}: {}", bad[0]);
    }
}

/// `cargo test --release --test endgames -- --ignored kbnk::every_kbnk_position_by_the_tables`: run
/// on e975e31, 49,072,176 calls agree, 20,603 T a call on average, 47,821 at most, in 1,440 s
/// (niced, on a shared machine).
#[test]
#[ignore = "every KBNK position, either colour strong: 24 minutes"]
fn the_z80_tables_are_the_host_model_on_every_kbnk_position_by_the_tables() {
    let (n, mean, max, bad) = table_disagreements(&rom_tables(), positions());
    println!(
        "KBTAB/KBREP: the Z80 agrees on {n} calls, {mean:.0} T a call on average, {max} at most"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(n > 49_000_000, "{n}");
}

#[test]
fn the_rom_holds_the_models_gradients_and_weights() {
    let rom = Build::Full.rom();
    let page6 = &rom[0x4000 + 6 * 0x4000..0x4000 + 7 * 0x4000];
    let at = |n: &str| (sym(n) - 0x8000) as usize;
    assert_eq!(&page6[at("KBGRD")..at("KBGRD") + 64], &kbnk::GRADIENT[..]);
    let light: Vec<u8> = (0..64).map(|s| kbnk::GRADIENT[s ^ 7]).collect();
    assert_eq!(&page6[at("KBGRL")..at("KBGRL") + 64], &light[..]);
    assert_eq!(Build::Full.symbol("KBNKEV").map(|_| ()), Some(()));
    let mut e = Engine::new(Build::Full).unwrap();
    e.eval().unwrap();
    let b = |n: &str| e.machine.bus.mem[sym(n) as usize] as i32;
    let w = Weights::DEFAULT;
    assert_eq!(
        b("P_KBNK"),
        3,
        "the fitted tables with the leaves' draws by default (91 of 100 at level 3, 62 \
         without the draws; the procedure converts fewer than the module; 4, the timed \
         search's depth cap, converts the same 93 of 100 at 180 s on seed 1)"
    );
    assert_eq!(
        b("P_KBDEP"),
        4,
        "an iterating KBNK search stops after 4 plies"
    );
    assert_eq!(
        [
            b("P_KBGR"),
            b("P_KBKD"),
            b("P_KBND"),
            b("P_KBFL"),
            b("P_KBUNC")
        ],
        [w.grad, w.king, w.knight, w.flight, w.unc]
    );
}

// ---- host play: what chose the weights ------------------------------------------------

/// The gradient's index of the bare king's square (files mirrored for a light bishop).
fn grad_index(p: &Kbnk) -> usize {
    (if kbnk::dark(p.b) { p.wk } else { p.wk ^ 7 }) as usize
}

#[test]
#[ignore = "host play for tuning: minutes"]
fn host_play() {
    let s = store();
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let mut w = Weights::DEFAULT;
    if let Ok(v) = std::env::var("KBNK_W") {
        let x: Vec<i32> = v.split(',').map(|t| t.parse().unwrap()).collect();
        w = Weights {
            grad: x[0],
            king: x[1],
            knight: x[2],
            flight: x[3],
            unc: x[4],
        };
    }
    let depth = env("KBNK_DEPTH", 3);
    let games = env("KBNK_GAMES", 50);
    let all = starts(games, env("KBNK_SEED", 1) as u64, |p| {
        table_value(&s, p).is_win()
    });
    let mut g = kbnk::GRADIENT;
    if let Ok(v) = std::env::var("KBNK_G") {
        let x: Vec<u8> = v.split(',').map(|t| t.trim().parse().unwrap()).collect();
        g.copy_from_slice(&x);
    }
    // the model's score with the gradient replaced by `g`
    let leaf = |p: &Kbnk| match eval(p, &w) {
        Verdict::Win(v) | Verdict::Likely(v) => {
            v + w.grad * (g[grad_index(p)] as i32 - kbnk::gradient(p.b, p.wk) as i32)
        }
        _ => 0,
    };
    let value = |p: &Kbnk| table_value(&s, p);
    let mut sim = Sim::new(&leaf, &value);
    let mut won = 0;
    let mut moves = 0;
    for p in &all {
        if let Ok(m) = sim.play(*p, depth) {
            won += 1;
            moves += m;
        }
    }
    println!(
        "weights {w:?} depth {depth}: {won} of {} mated within 50 moves ({:.1} moves on average)",
        all.len(),
        moves as f64 / won.max(1) as f64
    );
}

/// Least squares of the plies to mate on the bare king's square (one-hot, the bishop's
/// colour folded), the kings' steps, the knight's steps and the flight squares, over the won
/// positions with the strong side to move: what the gradient was fitted with
/// (`-- --ignored fit --nocapture`; prints KBNK_G and KBNK_W for host_play).
#[test]
#[ignore = "fits the gradient: a minute"]
fn fit() {
    let s = store();
    const N: usize = 67;
    let mut a = vec![[0f64; N]; N];
    let mut b = [0f64; N];
    let mut rows = 0u64;
    for p in positions().step_by(5) {
        if !p.strong_to_move {
            continue;
        }
        let Val::Win(d) = table_value(&s, &p) else {
            continue;
        };
        let mut x = [0f64; N];
        x[grad_index(&p)] = 1.0;
        x[64] = kbnk::cheb(p.sk, p.wk) as f64;
        x[65] = kbnk::cheb(p.n, p.wk) as f64;
        x[66] = p.flights() as f64;
        for i in 0..N {
            if x[i] == 0.0 {
                continue;
            }
            b[i] += x[i] * d as f64;
            for j in 0..N {
                a[i][j] += x[i] * x[j];
            }
        }
        rows += 1;
    }
    // Gaussian elimination with partial pivoting
    for c in 0..N {
        let piv = (c..N)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap();
        a.swap(c, piv);
        b.swap(c, piv);
        for r in 0..N {
            if r != c && a[r][c] != 0.0 {
                let f = a[r][c] / a[c][c];
                let pivot = a[c];
                for (x, y) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * y;
                }
                b[r] -= f * b[c];
            }
        }
    }
    let beta: Vec<f64> = (0..N).map(|i| b[i] / a[i][i]).collect();
    let unit: f64 = std::env::var("KBNK_UNIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8.0);
    let max = beta[..64].iter().cloned().fold(f64::MIN, f64::max);
    let g: Vec<String> = beta[..64]
        .iter()
        .map(|v| ((max - v) * unit).round().clamp(0.0, 255.0).to_string())
        .collect();
    println!(
        "{rows} rows; plies per king step {:.2}, knight step {:.2}, flight {:.2}",
        beta[64], beta[65], beta[66]
    );
    for r in (0..8).rev() {
        println!("{}", g[r * 8..r * 8 + 8].join(","));
    }
    println!("KBNK_G={}", g.join(","));
    println!(
        "KBNK_W=1,{},{},{},8",
        (beta[64] * unit).round().max(0.0),
        (beta[65] * unit).round().max(0.0),
        (beta[66] * unit).round().max(0.0)
    );
}

/// Whether the Z80's principal variation at `level` after `moves` (UCI) from `fen`, played
/// into the firmware (so that it sees the game's history), with P_KBNK = `mode`, reaches a
/// position of the game (the same men on the same squares, the same side to move); its
/// move and the whole line (UCI).
fn pv_repeats(fen: &str, moves: &str, mode: u8, level: u8) -> (bool, String, Vec<String>) {
    use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, Position};
    use z80chess::firmware::{params::ParamFile, sargon, FwMove};
    let mut e = Engine::new(Build::Full).unwrap();
    let pf = ParamFile::parse(&format!("[default]\nP_KBNK = {mode}\n"), "test").unwrap();
    e.load_params(&pf).unwrap();
    let f: Fen = fen.parse().unwrap();
    let mut pos: Chess = f.into_position(CastlingMode::Standard).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    let key = |p: &Chess| (p.board().clone(), p.turn());
    let mut seen = vec![key(&pos)];
    for u in moves.split_whitespace() {
        let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        e.play(FwMove::from_move(&m)).unwrap();
        pos.play_unchecked(m);
        seen.push(key(&pos));
    }
    let r = e.search(level, false).unwrap();
    assert!(r.pv.len() >= level as usize, "{:?}", r.pv);
    let mut repeats = false;
    for fm in &r.pv {
        let m = fm.to_move(&pos).unwrap();
        pos.play_unchecked(m);
        repeats |= seen.contains(&key(&pos));
    }
    (
        repeats,
        r.best.uci(),
        r.pv.iter().map(|m| m.uci()).collect(),
    )
}

/// P_KBNK = 3 (KBDRW): a KBNK leaf that repeats a position of the game scores a draw, as
/// a node does (and as the host model's search scores it: tests/endgames/kbnk_fit.rs `replay`).
/// SRCH scores a repetition at a node (DRAWCK), never at a leaf, so the tables alone
/// (P_KBNK = 2) steer for a line that steps there and back: seen first in seed 1's game
/// from 1k6/8/8/8/8/1N2B3/8/2K5 w (`endgame-test kbnk --build full --level 3`, the 2-ply
/// tables of before), which went on to the 50-move rule. Here the history is made to hold
/// the leaf of the tables' own 2-ply line from a position P (the line played, then each move
/// taken back by its reverse, so that P recurs): the tables alone play the same line
/// again, into the game's position; with the leaf's draws the Z80's line reaches none.
#[test]
fn a_kbnk_leaf_that_repeats_a_game_position_is_a_draw() {
    use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, EnPassantMode, Position};
    for p in [
        "1k6/8/8/8/8/1N2B3/8/2K5 w - - 0 1",
        "8/8/8/2k5/8/2N5/3B4/3K4 w - - 0 1",
    ] {
        let (repeats, line) = pv_line(p, "", 2, 2);
        assert!(!repeats, "{p}: no history yet");
        let f: Fen = p.parse().unwrap();
        let mut pos: Chess = f.into_position(CastlingMode::Standard).unwrap();
        for u in &line[..2] {
            let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        let leaf = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let back: Vec<String> = line[..2]
            .iter()
            .map(|u| format!("{}{}", &u[2..4], &u[0..2]))
            .collect();
        let back = back.join(" ");
        let (repeats, again) = pv_line(&leaf, &back, 2, 2);
        assert!(
            repeats,
            "{p}: the tables alone ({again:?}) do not return to {leaf}"
        );
        assert_eq!(again[..2], line[..2], "{p}");
        let (repeats, best) = pv_line(&leaf, &back, 3, 2);
        assert!(
            !repeats,
            "{p}: {best:?}: its line repeats a position of the game"
        );
        assert_ne!(best[0], line[0], "{p}");
    }
}

/// [`pv_repeats`] with the whole principal variation (UCI).
fn pv_line(fen: &str, moves: &str, mode: u8, level: u8) -> (bool, Vec<String>) {
    let (repeats, _, pv) = pv_repeats(fen, moves, mode, level);
    (repeats, pv)
}

/// P_KBNK = 4 (KBDRW): an iterating search from a KBNK position stops after P_KBDEP (4)
/// plies, where P_KBNK = 3 iterates to the level given (5 here): the fitted function's
/// plans at odd and even depths differ, and a timed search that completes depth 5 on some
/// moves and 4 on others switches plans from move to move (tests/endgames/kbnk_fit.rs `explore`
/// with `KF_CYCLE=4/5`: 31 of 50 converted; at depth 4, 97 of 100).
#[test]
fn p_kbnk_4_caps_an_iterating_kbnk_search_at_four_plies() {
    use shakmaty::{fen::Fen, CastlingMode, Chess};
    use z80chess::firmware::{params::ParamFile, sargon};
    let deepest = |mode: u8, iterate: bool| {
        let mut e = Engine::new(Build::Full).unwrap();
        let pf = ParamFile::parse(&format!("[default]\nP_KBNK = {mode}\n"), "test").unwrap();
        e.load_params(&pf).unwrap();
        let f: Fen = "1k6/8/8/8/8/1N2B3/8/2K5 w - - 0 1".parse().unwrap();
        let pos: Chess = f.into_position(CastlingMode::Standard).unwrap();
        sargon::load(&mut e, &pos).unwrap();
        let r = e.search(5, iterate).unwrap();
        (r.depths.iter().map(|d| d.depth).max(), r.best.uci())
    };
    assert_eq!(
        deepest(3, true).0,
        Some(5),
        "P_KBNK = 3 iterates to the level"
    );
    let (capped, best) = deepest(4, true);
    assert_eq!(capped, Some(4), "P_KBNK = 4 stops after P_KBDEP plies");
    assert_eq!(
        deepest(4, false).1,
        deepest(3, false).1,
        "a fixed-level search is not changed"
    );
    assert!(!best.is_empty());
}
