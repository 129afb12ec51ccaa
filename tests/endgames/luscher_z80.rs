//! Lüscher's generated evaluation running in Z80 (`asm/full/luscher.asm`, the full build).
//!
//! The host's model of the module: each man's feature vector by `luscher::features::vector`,
//! its value by walking the exported tables (`luscher::export::walk`) in the full ROM's own
//! expansion pages, found through the ROM's own directory `LUSDIR`, the side to move's men
//! minus the other's, then the engine scale (`luscher::quant::engine_score_at` with the
//! ending's exported threshold). The Z80 routine `LUSEV` is called on the same board and must
//! give the same vectors, E and score on 1,000 random positions per ending (either colour
//! strong, either to move), and `-- --ignored` on every KRK position and 100,000 of each
//! four-man ending.

use z80chess::firmware::{Build, Engine};
use z80chess::luscher::export::walk;
use z80chess::luscher::features::{self, Options};
use z80chess::luscher::quant::engine_score_at;
use z80chess::tablebase::men::*;

/// A small seeded random source (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The endings the module knows, as the strong side's pieces (in the directory's order).
const ENDINGS: &[(&str, &[u8])] = &[
    ("KRK", &[ROOK]),
    ("KBBK", &[BISHOP, BISHOP]),
    ("KBNK", &[BISHOP, KNIGHT]),
];

fn rom() -> &'static [u8] {
    Build::Full.rom()
}

fn sym(name: &str) -> u16 {
    Build::Full
        .symbol(name)
        .unwrap_or_else(|| panic!("no symbol {name}"))
}

fn page(p: u8) -> &'static [u8] {
    let at = 16384 * (1 + p as usize);
    &rom()[at..at + 16384]
}

/// One ending of the ROM's directory: (men as (side, role), per role (page, table, base word)).
type Entry = (Vec<(u8, u8)>, Vec<(u8, u8, u16, i16)>);

/// The ROM's LUSDIR, read by the host (the layout is in src/luscher/export.rs).
fn directory() -> Vec<Entry> {
    let dir_page = rom_page_of("LUSDIR");
    let bytes = page(dir_page);
    let mut a = sym("LUSDIR") as usize - 0x8000;
    let mut out = Vec::new();
    while bytes[a] != 0 {
        let n = bytes[a] as usize;
        let men = (0..n)
            .map(|i| (bytes[a + 1 + 2 * i], bytes[a + 2 + 2 * i]))
            .collect();
        a += 1 + 2 * n;
        let t = bytes[a] as usize;
        a += 1;
        let types = (0..t)
            .map(|k| {
                let r = &bytes[a + 6 * k..a + 6 * k + 6];
                (
                    r[0],
                    r[1],
                    u16::from_le_bytes([r[2], r[3]]),
                    i16::from_le_bytes([r[4], r[5]]),
                )
            })
            .collect();
        a += 6 * t;
        out.push((men, types));
    }
    out
}

/// The page of a label in the full ROM's symbol file ("NAME: EQU p:addr" for paged labels).
fn rom_page_of(name: &str) -> u8 {
    let line = Build::Full
        .symbols()
        .lines()
        .find(|l| l.starts_with(&format!("{name}:")))
        .unwrap_or_else(|| panic!("no {name} in the symbol file"));
    let v = line.rsplit(' ').next().unwrap();
    v.split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{line}"))
}

/// The host's model: (vectors in the Z80's man order, E, engine score).
fn model(men: &Men, stm: u8, dir: &[Entry], ending: usize) -> (Vec<u32>, i16, i32) {
    let (_, types) = &dir[ending];
    let mut e = 0i16;
    let mut vecs = Vec::new();
    for i in 0..men.n {
        let v = features::vector(men, i, stm, Options::default());
        vecs.push(v);
        let &(_, pg, at, base) = types
            .iter()
            .find(|t| t.0 == men.role[i])
            .expect("a table for every role");
        let x = walk(page(pg), at, base, v).expect("well-formed tables");
        e = if men.color[i] == stm {
            e.wrapping_add(x)
        } else {
            e.wrapping_sub(x)
        };
    }
    let name = ENDINGS[ending].0;
    let th = sym(&format!("LT{name}TH")) as i32;
    (vecs, e, engine_score_at(e, th))
}

/// A random legal position of ending `k`: men in the Z80's order (strong king, weak king, the
/// pieces), the strong side's colour and the side to move at random.
fn random_position(rng: &mut Rng, k: usize) -> (Men, u8) {
    loop {
        let strong = rng.below(2) as u8;
        let stm = rng.below(2) as u8;
        let pieces = ENDINGS[k].1;
        let mut men = Men {
            n: 2 + pieces.len(),
            sq: [0; MAX_MEN],
            color: [0; MAX_MEN],
            role: [0; MAX_MEN],
        };
        men.role[0] = KING;
        men.color[0] = strong;
        men.role[1] = KING;
        men.color[1] = strong ^ 1;
        for (j, &r) in pieces.iter().enumerate() {
            men.role[2 + j] = r;
            men.color[2 + j] = strong;
        }
        for i in 0..men.n {
            men.sq[i] = rng.below(64) as u8;
        }
        // two pieces of one role: in the Z80's board order (a1 first)
        if men.n == 4 && men.role[2] == men.role[3] && men.sq[2] > men.sq[3] {
            men.sq.swap(2, 3);
        }
        if let Some(p) = legal(men, stm) {
            return (p, stm);
        }
    }
}

/// The position if legal for the module: distinct squares, kings apart, the side not to move
/// not in check, KBBK's bishops on both colours.
fn legal(men: Men, stm: u8) -> Option<Men> {
    for i in 0..men.n {
        for j in 0..i {
            if men.sq[i] == men.sq[j] {
                return None;
            }
        }
    }
    if features::cheb(men.sq[0], men.sq[1]) < 2 || in_check(&men, stm ^ 1) {
        return None;
    }
    if men.n == 4
        && men.role[2] == BISHOP
        && men.role[3] == BISHOP
        && features::light(men.sq[2]) == features::light(men.sq[3])
    {
        return None;
    }
    Some(men)
}

/// The Z80 side: LUSEV called on a board holding `men`.
struct Z80 {
    e: Engine,
    stub: u16,
    t: u64,
}

impl Z80 {
    fn new() -> Z80 {
        let mut e = Engine::new(Build::Full).unwrap();
        e.eval().unwrap(); // the active block gets the defaults
                           // CALL LUSEV; OUT (PEXIT),A in free expansion RAM (C8F0h, past the cache)
        let stub = sym("LUSRAM") + 0xF0;
        let target = sym("LUSEV").to_le_bytes();
        let code = [0xCD, target[0], target[1], 0xD3, 0xFF];
        e.machine.bus.mem[stub as usize..stub as usize + 5].copy_from_slice(&code);
        Z80 { e, stub, t: 0 }
    }

    /// (recognised, score, E, the men's vectors in LUSMEN order).
    fn eval(&mut self, men: &Men, stm: u8) -> (bool, i32, i16, Vec<u32>) {
        let board = sym("BOARD") as usize;
        let m = &mut self.e.machine;
        for s in 0..64usize {
            m.bus.mem[board + 21 + 10 * (s / 8) + s % 8] = 0;
        }
        for i in 0..men.n {
            let s = men.sq[i] as usize;
            m.bus.mem[board + 21 + 10 * (s / 8) + s % 8] =
                men.role[i] | if men.color[i] == BLACK { 0x80 } else { 0 };
        }
        // POINTS' convention: COLOR is the side that has just moved
        m.bus.mem[sym("COLOR") as usize] = if stm == WHITE { 0x80 } else { 0 };
        m.cpu.pc = self.stub;
        m.cpu.sp = 0x6000;
        let t0 = m.cpu.t;
        match m.run(50_000_000) {
            z80chess::machine::StopReason::Exit(_) => {}
            other => panic!("LUSEV did not return: {other:?}"),
        }
        self.t = m.cpu.t - t0;
        let ok = m.cpu.f & 1 != 0;
        let score = m.cpu.hl() as i16 as i32;
        let lse = sym("LUSE") as usize;
        let e = i16::from_le_bytes([m.bus.mem[lse], m.bus.mem[lse + 1]]);
        let base = sym("LUSMEN") as usize;
        let n = m.bus.mem[sym("LUSN") as usize] as usize;
        let vecs = (0..n)
            .map(|i| {
                let a = base + 16 * i + 11;
                u32::from_le_bytes(m.bus.mem[a..a + 4].try_into().unwrap())
            })
            .collect();
        (ok, score, e, vecs)
    }
}

fn fen(men: &Men, stm: u8) -> String {
    let mut rows = Vec::new();
    for r in (0..8u8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..8u8 {
            match men.at(r * 8 + f) {
                Some(i) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    let c = b" pnbrqk"[men.role[i] as usize] as char;
                    row.push(if men.color[i] == WHITE {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    format!(
        "{} {} - - 0 1",
        rows.join("/"),
        if stm == WHITE { 'w' } else { 'b' }
    )
}

/// Z80 and host on `n` random positions of each ending; returns per ending the mean T-states.
fn agree(n: usize, seed: u64) -> Vec<(usize, f64, usize)> {
    let dir = directory();
    assert_eq!(
        dir.len(),
        ENDINGS.len(),
        "the ROM's directory holds three endings"
    );
    for (k, (name, pieces)) in ENDINGS.iter().enumerate() {
        let men: Vec<(u8, u8)> = [(0, KING), (1, KING)]
            .into_iter()
            .chain(pieces.iter().map(|&r| (0, r)))
            .collect();
        assert_eq!(dir[k].0, men, "{name}: the directory's men");
    }
    let mut z = Z80::new();
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for (k, (name, _)) in ENDINGS.iter().enumerate() {
        let (mut t, mut won) = (0u64, 0);
        let mut bad = Vec::new();
        for _ in 0..n {
            let (men, stm) = random_position(&mut rng, k);
            let (vecs, e, score) = model(&men, stm, &dir, k);
            let got = z.eval(&men, stm);
            t += z.t;
            if !(-16384..=16384).contains(&score) {
                won += 1;
            }
            if got != (true, score, e, vecs.clone()) && bad.len() < 10 {
                let v: Vec<String> = vecs.iter().map(|v| format!("{v:08x}")).collect();
                let g: Vec<String> = got.3.iter().map(|v| format!("{v:08x}")).collect();
                bad.push(format!(
                    "{}: host E {e} score {score} vectors {v:?}; Z80 recognised {} E {} score {} vectors {g:?}",
                    fen(&men, stm),
                    got.0,
                    got.2,
                    got.1
                ));
            }
        }
        assert!(
            bad.is_empty(),
            "{name}: the Z80 differs from the host:\n{}",
            bad.join("\n")
        );
        out.push((n, t as f64 / n as f64, won));
    }
    out
}

#[test]
fn the_z80_module_is_the_host_model_on_1000_positions_per_ending() {
    let r = agree(1000, 15);
    for ((name, _), (n, t, won)) in ENDINGS.iter().zip(r) {
        println!("{name}: {n} positions agree, {t:.0} T a call, {won} scored as won or lost");
        assert!(won > 0, "{name}: no position scored as decided");
    }
}

/// Positions that are not the module's: it says so (carry clear) and leaves the board as it was.
#[test]
fn other_material_is_not_the_modules() {
    let mut z = Z80::new();
    type Case<'a> = (&'a [(u8, u8, u8)], u8);
    let cases: &[Case] = &[
        // (square, role, colour)
        (&[(4, KING, WHITE), (60, KING, BLACK)], WHITE), // K v K
        (
            &[(4, KING, WHITE), (60, KING, BLACK), (0, QUEEN, WHITE)],
            BLACK,
        ), // KQK
        (
            &[(4, KING, WHITE), (60, KING, BLACK), (12, PAWN, WHITE)],
            BLACK,
        ), // KPK
        (
            &[
                (4, KING, WHITE),
                (60, KING, BLACK),
                (0, ROOK, WHITE),
                (63, KNIGHT, BLACK),
            ],
            WHITE,
        ), // KRKN
        (
            &[
                (4, KING, WHITE),
                (60, KING, BLACK),
                (2, BISHOP, WHITE),
                (20, BISHOP, WHITE),
            ],
            WHITE,
        ), // KBBK, both bishops on dark squares
        (
            &[
                (4, KING, WHITE),
                (60, KING, BLACK),
                (1, KNIGHT, WHITE),
                (6, KNIGHT, WHITE),
            ],
            WHITE,
        ), // KNNK: no table
        (
            &[
                (4, KING, WHITE),
                (60, KING, BLACK),
                (0, ROOK, WHITE),
                (7, ROOK, WHITE),
                (8, BISHOP, WHITE),
            ],
            WHITE,
        ), // five men
    ];
    for (men_of, stm) in cases {
        let mut men = Men {
            n: men_of.len(),
            sq: [0; MAX_MEN],
            color: [0; MAX_MEN],
            role: [0; MAX_MEN],
        };
        for (i, &(s, r, c)) in men_of.iter().enumerate() {
            men.sq[i] = s;
            men.role[i] = r;
            men.color[i] = c;
        }
        let board = sym("BOARD") as usize;
        let got = z.eval(&men, *stm);
        assert!(!got.0, "{}: recognised", fen(&men, *stm));
        let m = &z.e.machine;
        for i in 0..men.n {
            let s = men.sq[i] as usize;
            assert_eq!(
                m.bus.mem[board + 21 + 10 * (s / 8) + s % 8] & 7,
                men.role[i],
                "the board changed"
            );
        }
    }
    // and a KRK the module knows, with the page selected before kept
    let mut men = Men {
        n: 3,
        sq: [0; MAX_MEN],
        color: [0; MAX_MEN],
        role: [0; MAX_MEN],
    };
    for (i, (s, r, c)) in [(4, KING, BLACK), (44, KING, WHITE), (0, ROOK, BLACK)]
        .into_iter()
        .enumerate()
    {
        men.sq[i] = s;
        men.role[i] = r;
        men.color[i] = c;
    }
    assert!(z.eval(&men, WHITE).0, "KRK with Black strong");
}

/// `z80chess eval`: the module's line carries the value, and P_LUS = 0 (or LUSCHER = 0) silences it.
#[test]
fn eval_shows_the_module_and_p_lus_turns_it_off() {
    let fen = "8/8/8/4k3/8/8/8/R3K3 b - - 0 40";
    let run = |params: Option<&std::path::Path>, fen: &str| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"));
        cmd.args(["eval", "--build", "full", "--fen", fen]);
        if let Some(p) = params {
            cmd.arg("--params").arg(p);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let line = |text: &str| -> i32 {
        let l = text
            .lines()
            .find(|l| l.contains("Lüscher's endgame module"))
            .unwrap_or_else(|| panic!("no module line:\n{text}"));
        l.split_whitespace()
            .find_map(|w| w.trim_matches(|c| c == '(' || c == ')').parse::<i32>().ok())
            .unwrap_or_else(|| panic!("{l}"))
    };
    let on = run(None, fen);
    assert_ne!(line(&on), 0, "{on}");
    // the module alone scores the position: POINTS' other terms are not computed
    let material = on
        .lines()
        .find(|l| l.trim_start().starts_with("material "))
        .unwrap_or_else(|| panic!("no material line:\n{on}"));
    assert!(
        material.contains("(+0)") || material.contains("(0)"),
        "{material}"
    );
    let dir = std::env::temp_dir().join(format!("z80chess-lus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // P_LUS, or its alias, LUSCHER
    for text in ["P_LUS = 0\n", "LUSCHER = 0\n"] {
        let p = dir.join("off.params");
        std::fs::write(&p, text).unwrap();
        let off = run(Some(&p), fen);
        assert_eq!(line(&off), 0, "{text}{off}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// One engine evaluating one position after another (as `tune` does): the module's word, and
/// the wrong-bishop draw's, belong to the position that set them and are 0 in the next
/// (they were left standing in BRKDN, and the next breakdown no longer added up to its total).
#[test]
fn a_module_position_leaves_nothing_in_the_next_breakdown() {
    use z80chess::firmware::{parse_fen, sargon};
    let mut e = Engine::new(Build::Full).unwrap();
    let mut eval = |fen: &str| {
        sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
        e.eval().unwrap_or_else(|err| panic!("{fen}: {err}"))
    };
    let term = |ev: &z80chess::firmware::eval::Evaluation, name: &str| {
        ev.terms
            .iter()
            .find(|t| t.name.starts_with(name))
            .unwrap_or_else(|| panic!("no term {name}"))
            .value
    };
    let krk = eval("8/8/8/4k3/8/8/8/R3K3 b - - 0 40");
    assert_ne!(term(&krk, "Lüscher"), 0);
    // a middlegame (KNOW and KPEND's other path) and a pawn ending (KPEND's pawn path)
    for fen in [
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
        "8/8/8/4k3/8/8/8/R3K3 b - - 0 40",
        "8/5pk1/8/8/8/8/5PK1/8 w - - 0 40",
    ] {
        let ev = eval(fen);
        if !fen.starts_with("8/8/8/4k3") {
            assert_eq!(term(&ev, "Lüscher"), 0, "{fen}");
        }
    }
    // K+RP+wrong bishop v K, then a pawn ending
    let wb = eval("1k6/8/8/8/P7/8/8/2B1K3 b - - 0 50");
    assert_ne!(term(&wb, "K+RP+wrong bishop"), 0, "the draw applies");
    let kp = eval("8/5pk1/8/8/8/8/5PK1/8 w - - 0 40");
    assert_eq!(term(&kp, "K+RP+wrong bishop"), 0);
}

/// K+B or K+N against a bare king cannot be won: POINTS scores 0 there (LUSPRE's `.kmin`), not
/// the minor's material, which made the search give a piece up rather than allow a repetition
/// (`8/4kB2/3N4/8/5K2/8/8/8 w`: Nf5+ and the bishop falls). The module's KRK, K+N+N v K and
/// P_LUS = 0 keep their scores.
#[test]
fn a_lone_minor_against_a_bare_king_is_a_draw() {
    use z80chess::firmware::params::ParamFile;
    use z80chess::firmware::{parse_fen, sargon};
    let mut e = Engine::new(Build::Full).unwrap();
    let eval = |e: &mut Engine, fen: &str| {
        sargon::load(e, &parse_fen(fen).unwrap()).unwrap();
        e.eval().unwrap_or_else(|err| panic!("{fen}: {err}"))
    };
    let draws = [
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 40",
        "8/8/8/4k3/8/8/8/2B1K3 b - - 0 40",
        "8/4kb2/8/8/8/8/8/4K3 w - - 0 40",
        "8/8/3n4/4k3/8/8/8/4K3 b - - 0 40",
        "7k/8/8/8/8/8/6N1/K7 w - - 0 60",
        "8/8/8/8/8/2k5/8/K1n5 w - - 0 60",
    ];
    for fen in draws {
        let ev = eval(&mut e, fen);
        assert_eq!(
            (ev.total, ev.side_to_move),
            (0, 0),
            "{fen}: {}",
            ev.report()
        );
    }
    let krk = eval(&mut e, "8/8/8/4k3/8/8/8/R3K3 b - - 0 40");
    assert!(krk.total > 10 * 256, "KRK: {}", krk.report());
    let knnk = eval(&mut e, "8/8/8/4k3/8/8/8/1N2KN2 b - - 0 40");
    assert!(
        knnk.total > 5 * 256,
        "K+N+N v K keeps its material: {}",
        knnk.report()
    );
    // the module off: the minor's material again
    let off = ParamFile::parse("[default]\nP_LUS = 0\n", "off").unwrap();
    e.load_params(&off).unwrap();
    for fen in &draws[..2] {
        let ev = eval(&mut e, fen);
        assert!(ev.total > 2 * 256, "P_LUS = 0, {fen}: {}", ev.report());
    }
}

#[test]
#[ignore = "every KRK position and 100,000 of each four-man ending: about 50 minutes"]
fn the_z80_module_is_the_host_model_on_every_krk_position() {
    let dir = directory();
    let mut z = Z80::new();
    let (mut n, mut t) = (0u64, 0u64);
    for strong in [WHITE, BLACK] {
        for stm in [WHITE, BLACK] {
            for a in 0..64u8 {
                for b in 0..64u8 {
                    for c in 0..64u8 {
                        let mut men = Men {
                            n: 3,
                            sq: [0; MAX_MEN],
                            color: [0; MAX_MEN],
                            role: [0; MAX_MEN],
                        };
                        men.sq[..3].copy_from_slice(&[a, b, c]);
                        men.role[..3].copy_from_slice(&[KING, KING, ROOK]);
                        men.color[..3].copy_from_slice(&[strong, strong ^ 1, strong]);
                        let Some(men) = legal(men, stm) else { continue };
                        let (vecs, e, score) = model(&men, stm, &dir, 0);
                        let got = z.eval(&men, stm);
                        assert_eq!(got, (true, score, e, vecs), "{}", fen(&men, stm));
                        n += 1;
                        t += z.t;
                    }
                }
            }
        }
    }
    println!(
        "KRK: every position ({n}) agrees, {:.0} T a call",
        t as f64 / n as f64
    );
    for ((name, _), (n, t, _)) in ENDINGS.iter().zip(agree(100_000, 99)).skip(1) {
        println!("{name}: {n} random positions agree, {t:.0} T a call");
    }
}
