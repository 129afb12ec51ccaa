//! The cheap stage of a quiescence node's static score (`asm/full/ceval.asm`, P_FLAGS2 bit 4
//! F2_CEVAL, margins P_CEMN / P_CEMC).
//!
//! - The Z80 decides as its model at every quiescence node of level-2 searches over random
//!   middlegames and endings and the bench's middlegames, default and random margins,
//!   the transposition table off and on: the material from the board, clamped as POINTS clamps
//!   it, against SCOREW's window with the margins, never without a piece on each side. The
//!   check can fail: the model with a margin one sixteenth of a pawn wider, or without the
//!   piece rule, disagrees.
//! - With both margins 0 the stage changes nothing: the bench's middlegames search as with the
//!   bit off (moves, scores, moves made, POINTS calls, PV).
//! - It is not exact (its margins are no proven bound; `leaf_margins` measures why a proven one
//!   decides almost nothing): the bench's figures with it on are printed, not compared.

use shakmaty::Chess;
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine};
use z80chess::machine::Observer;
use z80chess::profile::bench::POSITIONS;
use z80chess::z80::Cpu;

use crate::common::playouts;
use playouts::{observed_search, observed_search_here, playouts, sym, word, Rng};

/// At POINTS' total, a bounded leaf's parts and window.
struct Margins {
    points: u16,
    total_pc: u16,
    seq: u16,
    seq0: i16,
    rows: Vec<String>,
}

impl Observer for Margins {
    fn only_before_at(&self) -> Option<Vec<u16>> {
        Some(vec![self.points, self.total_pc])
    }
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        if cpu.pc == self.points {
            self.seq0 = word(mem, self.seq);
        } else if cpu.pc == self.total_pc && word(mem, self.seq) != self.seq0 {
            let w = |n: &str| word(mem, sym(n)) as i32;
            let colour = mem[sym("COLOR") as usize];
            let nply = mem[sym("NPLY") as usize] as u16;
            let sc = sym("SCOREW");
            let a = word(mem, sc + 2 * (nply - 1)) as i32;
            let b = word(mem, sc + 2 * nply) as i32;
            let total = cpu.hl() as i16 as i32;
            // total lo hi mc k part colour a b
            self.rows.push(format!(
                "{total}\t{}\t{}\t{}\t{}\t{}\t{colour}\t{a}\t{b}",
                w("LZLO"),
                w("LZHI"),
                w("LZMC"),
                w("LZK"),
                w("LZPART")
            ));
        }
        false
    }
}

#[test]
#[ignore]
fn leaf_margins() {
    let pf = ParamFile::parse("P_FLAGS2 = 15\n", "f15").unwrap();
    let mut out = String::new();
    for level in [3u8, 4] {
        for &(name, fen, _) in &POSITIONS[..4] {
            let pos = parse_fen(fen).unwrap();
            let mut e = Engine::new(Build::Full).unwrap();
            e.load_params(&pf).unwrap();
            sargon::load(&mut e, &pos).unwrap();
            e.machine.bus.mem[sym("LZCHK") as usize] = 1;
            let mut m = Margins {
                points: sym("POINTS"),
                total_pc: sym("POINTS.lus"),
                seq: sym("LZSEQ"),
                seq0: 0,
                rows: Vec::new(),
            };
            observed_search_here(&mut e, level, &mut m);
            println!("{name} L{level}: {} bounded leaves", m.rows.len());
            for r in m.rows {
                out.push_str(&format!("{name}\t{level}\t{r}\n"));
            }
        }
    }
    std::fs::write("/tmp/ce_margins.tsv", out).unwrap();
}

/// The model's variants: the stage as built, a margin 1/16 pawn wider, no piece rule.
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    AsBuilt,
    Wider,
    NoPieceRule,
}

/// The memory the stage reads.
struct Vars {
    mv0w: u16,
    mclamp: u16,
    colour: u16,
    nply: u16,
    plymax: u16,
    scorew: u16,
    flags: u16,
    cemn: u16,
    cemc: u16,
    flags2: u16,
}

/// The stage's decision in the model: the bound taken as the static score, or None.
fn model(mem: &[u8; 0x10000], v: &Vars, variant: Variant) -> Option<i16> {
    let prm = 0xC000u16;
    let (mut m, mut w, mut b) = (0i16, 0, 0);
    for sq in 21..=98usize {
        let x = mem[0x4000 + sq];
        let t = x & 7;
        if x == 0 || x == 0xFF || t == 6 {
            continue;
        }
        if t != 1 {
            if x & 0x80 != 0 {
                b += 1;
            } else {
                w += 1;
            }
        }
        let val = word(mem, prm + 2 * t as u16);
        m = if x & 0x80 != 0 {
            m.wrapping_sub(val)
        } else {
            m.wrapping_add(val)
        };
    }
    if (w == 0 || b == 0) && variant != Variant::NoPieceRule {
        return None;
    }
    let clamp = word(mem, v.mclamp);
    let mut e = m.wrapping_sub(word(mem, v.mv0w)).clamp(-clamp, clamp);
    if mem[v.colour as usize] == 0 {
        e = -e;
    }
    let nply = mem[v.nply as usize] as u16;
    let a = word(mem, v.scorew + 2 * (nply - 1));
    let sn = word(mem, v.scorew + 2 * nply);
    let wide = if variant == Variant::Wider { 1 } else { 0 };
    let (cemn, cemc) = (mem[v.cemn as usize] as i16, mem[v.cemc as usize] as i16);
    if cemc != 0 {
        let hi = e + 16 * (cemc + wide);
        let tt = mem[v.flags as usize] & 1 != 0 && mem[v.nply as usize] == mem[v.plymax as usize];
        if hi <= a && !tt {
            return Some(hi);
        }
    }
    if cemn != 0 {
        let lo = e - 16 * (cemn + wide);
        if lo > a && -lo <= sn {
            return Some(lo);
        }
    }
    None
}

/// Watches CETRY (page 5): its decision against the model's.
struct StageWatch {
    cetry: u16,
    pinfnd: u16,
    ends: [u16; 2],
    /// CETRY's and QLEAF.v's, QNODE.v's first bytes in page 5 (the window shows other pages).
    code: [[u8; 3]; 3],
    vars: Vars,
    pending: Option<[Option<i16>; 3]>,
    agree: u64,
    exits: u64,
    disagree: Vec<String>,
    /// Disagreements of the Wider (exit or not) and NoPieceRule (the bound) models.
    broken: [u64; 2],
}

impl StageWatch {
    fn new() -> StageWatch {
        let rom = Build::Full.rom();
        let page5 = |name: &str| {
            let off = 0x4000 * 6 + (sym(name) as usize - 0x8000);
            [rom[off], rom[off + 1], rom[off + 2]]
        };
        StageWatch {
            cetry: sym("CETRY"),
            pinfnd: sym("PINFND"),
            ends: [sym("QLEAF.v"), sym("QNODE.v")],
            code: [page5("CETRY"), page5("QLEAF.v"), page5("QNODE.v")],
            vars: Vars {
                mv0w: sym("MV0W"),
                mclamp: sym("P_MCLAMP"),
                colour: sym("COLOR"),
                nply: sym("NPLY"),
                plymax: sym("PLYMAX"),
                scorew: sym("SCOREW"),
                flags: sym("P_FLAGS"),
                cemn: sym("P_CEMN"),
                cemc: sym("P_CEMC"),
                flags2: sym("P_FLAGS2"),
            },
            pending: None,
            agree: 0,
            exits: 0,
            disagree: Vec::new(),
            broken: [0; 2],
        }
    }

    fn at(mem: &[u8; 0x10000], pc: u16, code: &[u8; 3]) -> bool {
        mem[pc as usize..pc as usize + 3] == *code
    }

    fn settle(&mut self, got: Option<i16>) {
        let [want, wider, nopiece] = self.pending.take().unwrap();
        if got == want {
            self.agree += 1;
            self.exits += got.is_some() as u64;
        } else if self.disagree.len() < 10 {
            self.disagree
                .push(format!("the Z80 {got:?}, the model {want:?}"));
        } else {
            self.disagree.push(String::new());
        }
        // the wider margin: a decision taken otherwise, not just another bound
        self.broken[0] += (got.is_some() != wider.is_some()) as u64;
        self.broken[1] += (got != nopiece) as u64;
    }
}

impl Observer for StageWatch {
    fn only_before_at(&self) -> Option<Vec<u16>> {
        Some(vec![self.cetry, self.pinfnd, self.ends[0], self.ends[1]])
    }
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        let pc = cpu.pc;
        if pc == self.cetry && Self::at(mem, pc, &self.code[0]) {
            assert!(self.pending.is_none(), "CETRY without an outcome");
            if mem[self.vars.flags2 as usize] & 0x10 != 0 {
                self.pending = Some(
                    [Variant::AsBuilt, Variant::Wider, Variant::NoPieceRule]
                        .map(|v| model(mem, &self.vars, v)),
                );
            }
        } else if self.pending.is_some() {
            if pc == self.pinfnd {
                self.settle(None);
            } else if (pc == self.ends[0] && Self::at(mem, pc, &self.code[1]))
                || (pc == self.ends[1] && Self::at(mem, pc, &self.code[2]))
            {
                self.settle(Some(cpu.hl() as i16));
            }
        }
        false
    }
}

fn params(text: &str) -> ParamFile {
    ParamFile::parse(text, "ceval").unwrap()
}

#[test]
fn the_stage_decides_as_its_model() {
    let mut rng = Rng(3535);
    let mut positions: Vec<(Chess, u8)> = POSITIONS[..4]
        .iter()
        .map(|&(_, fen, _)| (parse_fen(fen).unwrap(), 2))
        .collect();
    positions.extend(playouts(&mut rng, 40, 20, 60).into_iter().map(|p| (p, 2)));
    positions.extend(playouts(&mut rng, 30, 70, 160).into_iter().map(|p| (p, 2)));
    for fen in [
        "8/8/4k3/8/2P5/8/5K2/3Q4 w - - 0 40",
        "8/5k2/8/3r4/8/2P5/4K3/8 b - - 0 40",
        "3k4/8/8/3PK3/8/8/8/8 w - - 0 40",
        "r5k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
    ] {
        positions.push((parse_fen(fen).unwrap(), 3));
    }
    let mut blocks = vec![
        "P_FLAGS2 = 31\n".to_string(),
        "P_FLAGS2 = 31\nP_FLAGS = 0xFD\n".to_string(),
    ];
    for _ in 0..2 {
        blocks.push(format!(
            "P_FLAGS2 = 31\nP_CEMN = {}\nP_CEMC = {}\nP_QDELT = 0\n",
            rng.range(0, 255),
            rng.range(0, 80)
        ));
    }
    let mut failures = Vec::new();
    let (mut exits, mut broken) = (0, [0; 2]);
    for text in &blocks {
        let mut e = Engine::new(Build::Full).unwrap();
        e.load_params(&params(text)).unwrap();
        let mut w = StageWatch::new();
        for (pos, level) in &positions {
            observed_search(&mut e, pos, *level, &mut w);
        }
        println!(
            "{}: {} decisions agree ({} exits), {} disagree; the wider margin's model disagrees \
             {}, the model without the piece rule {}",
            text.replace('\n', "; "),
            w.agree,
            w.exits,
            w.disagree.len(),
            w.broken[0],
            w.broken[1]
        );
        assert!(w.agree > 1000, "{text}: only {} decisions", w.agree);
        failures.extend(w.disagree.iter().filter(|s| !s.is_empty()).cloned());
        if !w.disagree.is_empty() {
            failures.push(format!("{text}: {} disagree", w.disagree.len()));
        }
        exits += w.exits;
        broken[0] += w.broken[0];
        broken[1] += w.broken[1];
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(exits > 1000, "only {exits} exits");
    assert!(
        broken[0] > 0 && broken[1] > 0,
        "the check cannot fail: {broken:?}"
    );
}

fn bench_search(fen: &str, level: u8, text: &str) -> z80chess::firmware::SearchResult {
    let pos = parse_fen(fen).unwrap();
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&params(text)).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    e.search(level, false).unwrap()
}

#[test]
fn with_both_margins_0_the_stage_changes_nothing() {
    for &(name, fen, _) in &POSITIONS[..4] {
        let off = bench_search(fen, 3, "P_FLAGS2 = 15\n");
        let on = bench_search(fen, 3, "P_FLAGS2 = 31\nP_CEMN = 0\nP_CEMC = 0\n");
        println!(
            "{name} L3: {} {:?}, off {} T, on (margins 0) {} T",
            on.best.uci(),
            on.score,
            off.tstates,
            on.tstates
        );
        assert_eq!(
            (on.best, on.score, on.nodes, on.evaluations, &on.pv),
            (off.best, off.score, off.nodes, off.evaluations, &off.pv),
            "{name}: the stage with margins 0 changed the search"
        );
        assert!(
            on.tstates > off.tstates,
            "{name}: the stage's pass costs nothing?"
        );
    }
}

#[test]
fn the_bench_with_the_stage_on() {
    let (mut t15, mut t31) = (0, 0);
    for &(name, fen, _) in &POSITIONS[..4] {
        let a = bench_search(fen, 3, "P_FLAGS2 = 15\n");
        let b = bench_search(fen, 3, "P_FLAGS2 = 31\n");
        println!(
            "{name} L3: 15 {} {:?} {} T {} moves made; 31 {} {:?} {} T {} moves made",
            a.best.uci(),
            a.score,
            a.tstates,
            a.nodes,
            b.best.uci(),
            b.score,
            b.tstates,
            b.nodes
        );
        t15 += a.tstates;
        t31 += b.tstates;
    }
    println!("T-states at level 3: 15 {t15}, 31 {t31}");
    assert!(t31 < t15, "the stage saves nothing");
}
