//! Lazy evaluation in the full build's POINTS (`asm/full/lazy.asm`, P_FLAGS2 bit 3 F2_LAZY).
//!
//! - The bound is sound: over random positions of every phase (openings, middlegames,
//!   endgames, pawn endings, Lüscher's endings), at every leaf of a level-1 search (every legal
//!   move of the position, and the checking moves' replies), the full POINTS total lies within
//!   the bounds LZTRY computed from the partial score before the exchange analysis, for the
//!   default parameter block and for random valid blocks (the margin follows the weights).
//!   Lüscher's endings and the endings KPEND scores outright (pawn endings, a bare king)
//!   never get a bound: they never leave early. The check can fail: bounds shrunk by a
//!   sixteenth of a pawn fail on every fourth of these positions, and so does a ROM whose
//!   LZTRY leaves the mover's exchange loss (P_XLOST) out of its margin.
//! - It never changes the search: root moves, scores, moves made and POINTS calls at levels 3
//!   and 4 on the bench's four middlegames are those of F2_LAZY off, in fewer T-states.

use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
use std::collections::BTreeMap;
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{sargon, Build, Engine};
use z80chess::machine::Observer;
use z80chess::profile::bench::POSITIONS;
use z80chess::z80::Cpu;

use crate::common::playouts;
use playouts::{observed_search_here, playouts, sym, word, Rng};

/// Positions with the given men (white's uppercase, black's lowercase) placed at random, legal
/// and with a move to make, either side to move.
fn placements(rng: &mut Rng, men: &str, n: usize) -> Vec<Chess> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < n && tries < 100_000 {
        tries += 1;
        let mut board = [None::<char>; 64];
        let mut ok = true;
        for c in men.chars() {
            let mut placed = false;
            for _ in 0..100 {
                let sq = rng.below(64) as usize;
                let rank = sq / 8;
                if board[sq].is_some() || (c.eq_ignore_ascii_case(&'p') && (rank == 0 || rank == 7))
                {
                    continue;
                }
                board[sq] = Some(c);
                placed = true;
                break;
            }
            ok &= placed;
        }
        if !ok {
            continue;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        let text = format!("{fen} {side} - - 0 40");
        let Ok(f) = text.parse::<Fen>() else { continue };
        let Ok(pos) = f.into_position::<Chess>(CastlingMode::Standard) else {
            continue;
        };
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    assert_eq!(out.len(), n, "{men}: only {} placements", out.len());
    out
}

/// The positions of every phase, each with its phase's name.
fn positions() -> Vec<(&'static str, Chess)> {
    let mut rng = Rng(35);
    let mut out = Vec::new();
    let mut add = |name: &'static str, v: Vec<Chess>| out.extend(v.into_iter().map(|p| (name, p)));
    add("opening", playouts(&mut rng, 200, 2, 16));
    add("middlegame", playouts(&mut rng, 300, 20, 60));
    add("late", playouts(&mut rng, 150, 70, 160));
    for men in [
        "KRPkr", "KQkr", "KRBkrn", "KBPPkn", "KNPkbp", "KQPkq", "KRRkrb", "KBPk",
    ] {
        add("endgame", placements(&mut rng, men, 25));
    }
    for men in ["KPk", "KPPkp", "KPPPkpp", "KPkp"] {
        add("pawn ending", placements(&mut rng, men, 25));
    }
    for men in ["KRk", "KBNk", "KBBk", "Kkr"] {
        add("luscher", placements(&mut rng, men, 15));
    }
    out
}

/// Watches POINTS: at its total (`POINTS.lus`, HL = BK_TOT) compares the total with the
/// bounds LZTRY recorded during this call (LZSEQ moved), shrunk by `shrink`.
struct Watch {
    points: u16,
    total_pc: u16,
    seq: u16,
    lo: u16,
    hi: u16,
    part: u16,
    shrink: i32,
    seq0: i16,
    inside: u64,
    outside: Vec<String>,
    unbounded: u64,
    /// Largest |total - partial| and the margin (hi - lo) seen, in 1/256 pawn.
    max_dev: i32,
    margins: Vec<i32>,
}

impl Watch {
    fn new(shrink: i32) -> Watch {
        Watch {
            points: sym("POINTS"),
            total_pc: sym("POINTS.lus"),
            seq: sym("LZSEQ"),
            lo: sym("LZLO"),
            hi: sym("LZHI"),
            part: sym("LZPART"),
            shrink,
            seq0: 0,
            inside: 0,
            outside: Vec::new(),
            unbounded: 0,
            max_dev: 0,
            margins: Vec::new(),
        }
    }
}

impl Observer for Watch {
    fn only_before_at(&self) -> Option<Vec<u16>> {
        Some(vec![self.points, self.total_pc])
    }
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        if cpu.pc == self.points {
            self.seq0 = word(mem, self.seq);
        } else if cpu.pc == self.total_pc {
            if word(mem, self.seq) == self.seq0 {
                self.unbounded += 1;
                return false;
            }
            // never bounded unless both sides have a piece (KPEND's endings set the total)
            let pieces = |colour: u8| {
                (21..=98).any(|sq| {
                    let b = mem[0x4000 + sq];
                    b != 0xFF && b & 0x80 == colour && (2..=5).contains(&(b & 7))
                })
            };
            if !(pieces(0) && pieces(0x80)) {
                self.outside
                    .push("bounded without a piece on each side".to_string());
                return false;
            }
            let total = cpu.hl() as i16 as i32;
            let (lo, hi) = (
                word(mem, self.lo) as i32 + self.shrink,
                word(mem, self.hi) as i32 - self.shrink,
            );
            let part = word(mem, self.part) as i32;
            self.max_dev = self.max_dev.max((total - part).abs());
            self.margins.push(hi - lo);
            if (lo..=hi).contains(&total) {
                self.inside += 1;
            } else if self.outside.len() < 10 {
                self.outside.push(format!(
                    "total {total} outside [{lo}, {hi}] (partial {part})"
                ));
            } else {
                self.outside.push(String::new());
            }
        }
        false
    }
}

/// A level-1 search of `pos` (every legal move is a leaf) with the bounds recorded, never
/// leaving early (LZCHK).
fn watched_search(e: &mut Engine, pos: &Chess, w: &mut Watch) {
    sargon::load(e, pos).unwrap();
    e.machine.bus.mem[sym("LZCHK") as usize] = 1;
    observed_search_here(e, 1, w);
}

fn lazy_params(extra: &str) -> ParamFile {
    ParamFile::parse(&format!("P_FLAGS2 = 9\n{extra}"), "lazy").unwrap()
}

/// A random valid block: the weights the bound depends on, and some knowledge weights.
fn random_block(rng: &mut Rng) -> String {
    let mut s = String::new();
    for (name, lo, hi) in [
        ("P_XLOST", 0, 512),
        ("P_XWON", 0, 512),
        ("P_MCLAMP", 0, 8192),
        ("P_SCLAMP", 0, 8192),
        ("P_BCSQ", 0, 128),
        ("P_BCCLMP", 0, 2048),
        ("P_DVMIN", -512, 512),
        ("P_DVCAS", -512, 512),
        ("P_DVKMV", -512, 512),
        ("P_DVMAJ", -512, 512),
        ("P_DRAWW", 0, 255),
        ("P_ROPEN", -512, 512),
        ("P_PASS", -256, 256),
        ("P_KSQ", -256, 256),
        ("P_QKS", -128, 127),
        ("P_PAWN", 0, 512),
        ("P_QUEEN", 0, 4608),
    ] {
        s.push_str(&format!("{name} = {}\n", rng.range(lo, hi)));
    }
    s
}

/// `check_bounds_with` on the full ROM.
fn check_bounds(blocks: &[(String, ParamFile)], shrink: i32, every: usize) -> Vec<String> {
    check_bounds_with(Build::Full.rom(), blocks, shrink, every)
}

/// Every leaf of the level-1 searches of every `every`th position of `positions()` (all of
/// them, of every phase, for 1): the totals outside the bounds, shrunk by `shrink`.
fn check_bounds_with(
    rom: &[u8],
    blocks: &[(String, ParamFile)],
    shrink: i32,
    every: usize,
) -> Vec<String> {
    let all = positions();
    assert!(all.len() >= 1000, "{} positions", all.len());
    let positions: Vec<_> = all.into_iter().step_by(every).collect();
    let mut failures = Vec::new();
    for (name, pf) in blocks {
        let mut e = Engine::with_rom(Build::Full, rom).unwrap();
        e.load_params(pf).unwrap();
        let mut per: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        let mut w = Watch::new(shrink);
        for (phase, pos) in &positions {
            let (i0, u0) = (w.inside + w.outside.len() as u64, w.unbounded);
            watched_search(&mut e, pos, &mut w);
            let c = per.entry(phase).or_default();
            c.0 += w.inside + w.outside.len() as u64 - i0;
            c.1 += w.unbounded - u0;
        }
        let mut m = w.margins.clone();
        m.sort_unstable();
        let median = m.get(m.len() / 2).copied().unwrap_or(0);
        println!(
            "block {name} (shrink {shrink}): {} leaves inside the bounds, {} outside; \
             largest |total - partial| {}, margin median {median} max {} (1/256 pawn); \
             per phase (bounded, never lazy): {per:?}",
            w.inside,
            w.outside.len(),
            w.max_dev,
            m.last().copied().unwrap_or(0),
        );
        if shrink == 0 && every == 1 {
            assert_eq!(
                per["luscher"].0, 0,
                "Lüscher's endings must never be bounded"
            );
            assert!(per["middlegame"].0 > 5_000, "{per:?}");
        }
        failures.extend(
            w.outside
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| format!("block {name}: {s}")),
        );
        if !w.outside.is_empty() {
            failures.push(format!("block {name}: {} leaves outside", w.outside.len()));
        }
    }
    failures
}

fn blocks() -> Vec<(String, ParamFile)> {
    let mut rng = Rng(3);
    let mut v = vec![("default".to_string(), lazy_params(""))];
    for i in 0..3 {
        let text = random_block(&mut rng);
        v.push((format!("random {i}"), lazy_params(&text)));
    }
    v
}

#[test]
fn the_full_score_lies_within_the_bounds_of_every_phase_and_block() {
    let failures = check_bounds(&blocks(), 0, 1);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bounds_shrunk_by_a_sixteenth_of_a_pawn_fail() {
    // every fourth position, of every phase: a failure is all it needs
    let failures = check_bounds(&blocks()[..1], 16, 4);
    assert!(
        !failures.is_empty(),
        "the check cannot fail: every total is 16/256 pawn inside the bounds"
    );
}

#[test]
fn a_z80_margin_without_the_exchange_loss_fails() {
    // LZTRY's `LD DE,(P_XLOST)` (ED 5B nn) in page 7 made to read a zero word of the active
    // block: the mover's possible exchange loss drops out of the Z80's margin
    let mut rom = Build::Full.rom().to_vec();
    let page7 = 0x4000 + 7 * 0x4000;
    let [lo, hi] = sym("P_XLOST").to_le_bytes();
    let pat = [0xED, 0x5B, lo, hi];
    let at: Vec<usize> = (page7..page7 + 0x4000 - 4)
        .filter(|&i| rom[i..i + 4] == pat)
        .collect();
    assert_eq!(at.len(), 1, "LD DE,(P_XLOST) in page 7: {at:?}");
    let zero = sym("PRM") + 0xFE;
    rom[at[0] + 2..at[0] + 4].copy_from_slice(&zero.to_le_bytes());
    let failures = check_bounds_with(&rom, &blocks()[..1], 0, 4);
    println!(
        "{} failures, the first: {:?}",
        failures.len(),
        failures.first()
    );
    assert!(!failures.is_empty(), "the check cannot fail");
}

fn bench_search(fen: &str, level: u8, lazy: bool) -> (z80chess::firmware::SearchResult, u32) {
    let pos = z80chess::firmware::parse_fen(fen).unwrap();
    let mut e = Engine::new(Build::Full).unwrap();
    // The bit alone against the search of before the period-strength work (`P_FLAGS2 = 1`: the
    // ROM's defaults now have it on, with ordering and quiescence).
    let text = if lazy {
        "P_FLAGS2 = 9\n"
    } else {
        "P_FLAGS2 = 1\n"
    };
    e.load_params(&ParamFile::parse(text, "lazy").unwrap())
        .unwrap();
    sargon::load(&mut e, &pos).unwrap();
    let nlazy = |e: &Engine| {
        let a = sym("NLAZY") as usize;
        u32::from_le_bytes(e.machine.bus.mem[a..a + 4].try_into().unwrap())
    };
    let before = nlazy(&e);
    let r = e.search(level, false).unwrap();
    let n = nlazy(&e) - before;
    (r, n)
}

#[test]
fn lazy_evaluation_never_changes_the_search() {
    let (mut t_off, mut t_on, mut lazy) = (0, 0, 0);
    for level in [3, 4] {
        // the bench's four middlegames (not its pawn race)
        for &(name, fen, _) in &POSITIONS[..4] {
            let (off, n_off) = bench_search(fen, level, false);
            let (on, n_on) = bench_search(fen, level, true);
            println!(
                "{name} L{level}: {} score {:?}; off {} T {} evaluations, on {} T {} evaluations \
                 of which {n_on} lazy ({:.1}% of the T-states saved)",
                on.best.uci(),
                on.score,
                off.tstates,
                off.evaluations,
                on.tstates,
                on.evaluations,
                100.0 * (off.tstates as f64 - on.tstates as f64) / off.tstates as f64,
            );
            assert_eq!(n_off, 0, "{name}: lazy exits with the bit off");
            assert_eq!(
                (on.best, on.score, on.nodes, on.evaluations, &on.pv),
                (off.best, off.score, off.nodes, off.evaluations, &off.pv),
                "{name} level {level}: F2_LAZY changed the search"
            );
            t_off += off.tstates;
            t_on += on.tstates;
            lazy += n_on;
        }
    }
    println!("lazy exits {lazy}; T-states off {t_off}, on {t_on}");
    assert!(lazy > 0 && t_on < t_off, "no saving");
}
