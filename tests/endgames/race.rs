//! Cray Blitz's pawn races and K+P(s) against K (`asm/full/kpend.asm`'s RACE, modelled in
//! `src/reference/race.rs`), held against our own tablebases.
//!
//! - Every KPK position (either colour's pawn, either side to move): where the model claims a
//!   win, the table says the claimed side wins; how often it is silent is printed.
//! - A KPKP sample, the same, and every KPKP position: both ignored, since the KPKP table and
//!   the twenty it needs (every promotion's ending) take two minutes to build:
//!   `cargo test --release --test endgames race:: -- --ignored`.
//! - The Z80's RACE gives the model's claim on every KPK position and on the KPKP sample.
//! - Data rows: with the default block the full build plays the move RACE's rule carries;
//!   with P_RACE = 0 it does not.

use crate::common::tables;
use shakmaty::{fen::Fen, CastlingMode, Chess, Color, Position};
use z80chess::reference::race::{of_chess, race, Claim};

/// A legal position from kings and pawns, or None.
fn position(wk: u8, bk: u8, wp: &[u8], bp: &[u8], white: bool) -> Option<Chess> {
    let men: Vec<(u8, char)> = [(wk, 'K'), (bk, 'k')]
        .into_iter()
        .chain(wp.iter().map(|&s| (s, 'P')))
        .chain(bp.iter().map(|&s| (s, 'p')))
        .collect();
    position_of(&men, white)
}

/// A legal position from men (square, FEN letter), or None.
fn position_of(men: &[(u8, char)], white: bool) -> Option<Chess> {
    let mut board = [None::<char>; 64];
    for &(s, c) in men {
        if board[s as usize].is_some() {
            return None;
        }
        if c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&s) {
            return None;
        }
        board[s as usize] = Some(c);
    }
    let mut fen = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            match board[r * 8 + f] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if r > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if white { " w - - 0 1" } else { " b - - 0 1" });
    let f: Fen = fen.parse().ok()?;
    f.into_position(CastlingMode::Standard).ok()
}

/// What the claims came to.
#[derive(Default)]
struct Checked {
    positions: usize,
    /// Positions the table says are won (for either side).
    wins: usize,
    claims: usize,
    wrong: Vec<String>,
}

impl Checked {
    fn report(&self, what: &str) {
        println!(
            "{what}: {} positions, {} won for a side; {} claims ({:.1}% of the wins; silent on {}), {} wrong",
            self.positions,
            self.wins,
            self.claims,
            100.0 * self.claims as f64 / self.wins.max(1) as f64,
            self.positions - self.claims,
            self.wrong.len()
        );
        for w in self.wrong.iter().take(40) {
            println!("  {w}");
        }
    }
}

/// Checks every claim on the positions against the table.
fn check(positions: impl Iterator<Item = Chess>) -> Checked {
    let positions: Vec<Chess> = positions.collect();
    let mut names: Vec<String> = positions
        .iter()
        .map(|pos| z80chess::tablebase::store::material_name(pos).unwrap())
        .collect();
    names.sort();
    names.dedup();
    let s = tables::dtm(&names.iter().map(String::as_str).collect::<Vec<_>>());
    let mut c = Checked::default();
    for pos in positions {
        c.positions += 1;
        let v = s.probe(&pos).unwrap();
        if v.is_win() || v.is_loss() {
            c.wins += 1;
        }
        let Some(claim) = race(&of_chess(&pos).unwrap()) else {
            continue;
        };
        c.claims += 1;
        let white_wins = if pos.turn() == Color::White {
            v.is_win()
        } else {
            v.is_loss()
        };
        let black_wins = if pos.turn() == Color::Black {
            v.is_win()
        } else {
            v.is_loss()
        };
        let ok = match claim {
            Claim::White => white_wins,
            Claim::Black => black_wins,
        };
        if !ok {
            c.wrong.push(format!(
                "{}: claims {claim:?}, table {v}",
                shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
            ));
        }
    }
    c
}

fn kpk() -> impl Iterator<Item = Chess> {
    (0..64u8).flat_map(move |wk| {
        (0..64u8).flat_map(move |bk| {
            (8..56u8).flat_map(move |p| {
                [true, false].into_iter().flat_map(move |white| {
                    [
                        position(wk, bk, &[p], &[], white),
                        position(wk, bk, &[], &[p], white),
                    ]
                    .into_iter()
                    .flatten()
                })
            })
        })
    })
}

#[test]
fn race_claims_on_every_kpk_position_are_the_tables() {
    let c = check(kpk());
    c.report("KPK");
    assert!(c.positions > 300_000, "{} positions", c.positions);
    assert!(c.claims > c.wins / 2, "{} claims", c.claims);
    assert!(c.wrong.is_empty(), "{} wrong claims", c.wrong.len());
}

/// A deterministic sample of KPKP positions (one pawn a side, either side to move).
fn kpkp_sample(n: usize) -> Vec<Chess> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m) as u8
    };
    let mut out = Vec::new();
    while out.len() < n {
        let (wk, bk) = (next(64), next(64));
        let (wp, bp) = (8 + next(48), 8 + next(48));
        if let Some(p) = position(wk, bk, &[wp], &[bp], next(2) == 0) {
            out.push(p);
        }
    }
    out
}

/// Ignored: the KPKP table and its twenty sub-endings take two minutes to build (the Z80's
/// RACE is held to the model on the same sample in every run, which needs no table).
#[test]
#[ignore]
fn race_claims_on_a_kpkp_sample_are_the_tables() {
    let c = check(kpkp_sample(200_000).into_iter());
    c.report("KPKP sample");
    assert!(c.claims > c.wins / 4, "{} claims", c.claims);
    assert!(c.wrong.is_empty(), "{} wrong claims", c.wrong.len());
}

/// A draw rule (`model`, and the Z80's routine) against the KPK table: every claim is a draw,
/// it claims at least `min_share` of the draws of its class (`class`), and the Z80 is the model
/// on every KPK position.
fn draw_rule_is_the_table(
    what: &str,
    class: impl Fn(&z80chess::reference::race::KpPosition) -> bool,
    model: impl Fn(&z80chess::reference::race::KpPosition) -> bool,
    z80: impl Fn(&mut Z80Race, &z80chess::reference::race::KpPosition) -> bool,
    min_share: f64,
) {
    let s = tables::dtm(&["KPK"]);
    let (mut claims, mut draws, mut wrong) = (0, 0, Vec::new());
    for pos in kpk() {
        let v = s.probe(&pos).unwrap();
        let rp = of_chess(&pos).unwrap();
        if class(&rp) && !v.is_win() && !v.is_loss() {
            draws += 1;
        }
        if model(&rp) {
            claims += 1;
            if v.is_win() || v.is_loss() {
                wrong.push(format!(
                    "{}: {v}",
                    shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                ));
            }
        }
    }
    println!(
        "{what}: {claims} draws claimed of {draws}, {} wrong",
        wrong.len()
    );
    drop(s);
    let mut z = Z80Race::new();
    let differ: Vec<String> = kpk()
        .filter(|pos| {
            let p = of_chess(pos).unwrap();
            model(&p) != z80(&mut z, &p)
        })
        .take(10)
        .map(|pos| {
            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: the Z80 differs from its model: {differ:?}"
    );
    for w in wrong.iter().take(20) {
        println!("  {w}");
    }
    assert!(
        claims as f64 >= min_share * draws as f64,
        "{what}: {claims} claims of {draws}"
    );
    assert!(wrong.is_empty(), "{what}: {} wrong", wrong.len());
}

#[test]
fn the_rook_pawn_draws_are_the_tables() {
    use z80chess::reference::race::rook_pawn_draw;
    draw_rule_is_the_table(
        "K+RP v K (of the rook-pawn draws)",
        |p| p.pawns.iter().flatten().all(|&q| q % 8 == 0 || q % 8 == 7),
        rook_pawn_draw,
        |z, p| z.rook_pawn_draw(p),
        0.1,
    );
}

#[test]
fn the_wrong_bishop_draws_are_the_tables() {
    use z80chess::firmware::{sargon, Build, Engine};
    use z80chess::reference::race::wrong_bishop_draw;
    let s = tables::dtm(&["KBPK"]);
    // Every position of K+B+rook pawn v K with the bare king within a step of the queening
    // square (either colour strong, either to move): the claims are there, and just beside.
    // The Z80 is held to the model on every 5th claim and every 97th other position: about
    // 60,000 evaluations, each side to move and bishop square in turn (5 and 97 are prime to
    // both cycles); the model is held to the tables on every one.
    let (mut check, mut seen) = (Vec::new(), 0usize);
    let (mut claims, mut wrong) = (0, Vec::new());
    for strong_white in [true, false] {
        for file in [0u8, 7] {
            for rank in 1..7u8 {
                let pawn = rank * 8 + file;
                let q = if strong_white { 56 + file } else { file };
                for yk in (0..64u8)
                    .filter(|&k| (k % 8).abs_diff(q % 8) <= 1 && (k / 8).abs_diff(q / 8) <= 1)
                {
                    for xk in 0..64u8 {
                        for bsq in 0..64u8 {
                            for white in [true, false] {
                                let (k, b, p, y) = if strong_white {
                                    ('K', 'B', 'P', 'k')
                                } else {
                                    ('k', 'b', 'p', 'K')
                                };
                                let pawn = if strong_white { pawn } else { pawn ^ 56 };
                                let men = [(xk, k), (bsq, b), (pawn, p), (yk, y)];
                                let Some(pos) = position_of(&men, white) else {
                                    continue;
                                };
                                let claim = wrong_bishop_draw(&pos);
                                if claim {
                                    claims += 1;
                                    if claims % 5 == 0 {
                                        check.push((pos.clone(), claim));
                                    }
                                    let v = s.probe(&pos).unwrap();
                                    if v.is_win() || v.is_loss() {
                                        wrong.push(format!(
                                            "{}: {v}",
                                            Fen::from_position(
                                                &pos,
                                                shakmaty::EnPassantMode::Legal
                                            )
                                        ));
                                    }
                                }
                                seen += 1;
                                if !claim && seen % 97 == 0 {
                                    check.push((pos, claim));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    drop(s);
    println!(
        "K+RP+wrong bishop v K: {claims} draws claimed of {seen} positions, {} wrong",
        wrong.len()
    );
    for w in wrong.iter().take(20) {
        println!("  {w}");
    }
    assert!(claims > 10_000, "{claims} claims");
    assert!(wrong.is_empty(), "{} wrong", wrong.len());
    // The Z80's WBDRAW (its eval line) is the model on them.
    let mut e = Engine::new(Build::Full).unwrap();
    let differ: Vec<String> = check
        .iter()
        .filter(|(pos, claim)| {
            sargon::load(&mut e, pos).unwrap();
            let ev = e.eval().unwrap();
            let t = ev
                .terms
                .iter()
                .find(|t| t.name.starts_with("K+RP+wrong bishop"))
                .expect("the term")
                .value;
            (t != 0) != *claim
        })
        .take(10)
        .map(|(pos, _)| Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string())
        .collect();
    assert!(
        differ.is_empty(),
        "WBDRAW differs from its model: {differ:?}"
    );
}

#[test]
fn the_king_in_front_draws_are_the_tables() {
    use z80chess::reference::race::front_draw;
    draw_rule_is_the_table(
        "K+P v K, the king in front (of the other draws)",
        |p| p.pawns.iter().flatten().all(|&q| q % 8 != 0 && q % 8 != 7),
        front_draw,
        |z, p| z.front_draw(p),
        0.05,
    );
}

/// Every KPKP position (about 18 million): `cargo test --test endgames race:: -- --ignored --nocapture`.
#[test]
#[ignore]
fn race_claims_on_every_kpkp_position_are_the_tables() {
    let all = (0..64u8).flat_map(move |wk| {
        (0..64u8).flat_map(move |bk| {
            (8..56u8).flat_map(move |wp| {
                (8..56u8).flat_map(move |bp| {
                    [true, false]
                        .into_iter()
                        .filter_map(move |white| position(wk, bk, &[wp], &[bp], white))
                })
            })
        })
    });
    let c = check(all);
    c.report("KPKP");
    assert!(c.wrong.is_empty(), "{} wrong claims", c.wrong.len());
}

/// The full build's RACE, called alone (a stub `CALL RACE; OUT (PEXIT),A` in the
/// expansion RAM), on a position written straight into the board.
struct Z80Race {
    e: z80chess::firmware::Engine,
    stub: u16,
    board: u16,
    color: u16,
    race: i32,
    /// T-states of the last call.
    t: u64,
}

impl Z80Race {
    fn new() -> Z80Race {
        use z80chess::firmware::{Build, Engine};
        let sym = |n: &str| Build::Full.symbol(n).unwrap_or_else(|| panic!("no {n}"));
        let mut e = Engine::new(Build::Full).unwrap();
        e.eval().unwrap(); // the active block gets the defaults (SELPRM)
        let prm = sym("P_RACE") as usize;
        let race = i16::from_le_bytes([e.machine.bus.mem[prm], e.machine.bus.mem[prm + 1]]) as i32;
        assert!(
            race > 1280 && race < 2304,
            "P_RACE {race}: more than a rook, less than a queen"
        );
        // CALL RACE; OUT (PEXIT),A, then the same for RPDRAW and FRDRAW
        let stub = sym("RV") + 0xF0;
        // (5 bytes each, in RV's last 16)
        for (at, routine) in [(stub, "RACE"), (stub + 5, "RPDRAW"), (stub + 10, "FRDRAW")] {
            let target = sym(routine).to_le_bytes();
            let code = [0xCD, target[0], target[1], 0xD3, 0xFF];
            e.machine.bus.mem[at as usize..at as usize + 5].copy_from_slice(&code);
        }
        Z80Race {
            e,
            stub,
            board: sym("BOARD"),
            color: sym("COLOR"),
            race,
            t: 0,
        }
    }

    fn claim(&mut self, p: &z80chess::reference::race::KpPosition) -> Option<Claim> {
        let (v, _) = self.call(p, self.stub);
        match v {
            0 => None,
            v if v == self.race => Some(Claim::White),
            v if v == -self.race => Some(Claim::Black),
            v => panic!("RACE returned {v}"),
        }
    }

    /// RPDRAW's verdict (its carry flag).
    fn rook_pawn_draw(&mut self, p: &z80chess::reference::race::KpPosition) -> bool {
        self.call(p, self.stub + 5).1
    }

    /// FRDRAW's verdict (its carry flag).
    fn front_draw(&mut self, p: &z80chess::reference::race::KpPosition) -> bool {
        self.call(p, self.stub + 10).1
    }

    /// The routine whose stub is at `stub`, on `p`: (HL, carry).
    fn call(&mut self, p: &z80chess::reference::race::KpPosition, stub: u16) -> (i32, bool) {
        let m = &mut self.e.machine;
        for s in 0..64u16 {
            m.bus.mem[(self.board + 21 + 10 * (s / 8) + s % 8) as usize] = 0;
        }
        let put = |m: &mut z80chess::machine::Machine, s: u8, v: u8| {
            m.bus.mem[(self.board + 21 + 10 * (s as u16 / 8) + s as u16 % 8) as usize] = v;
        };
        put(m, p.kings[0], 6);
        put(m, p.kings[1], 0x86);
        for &s in &p.pawns[0] {
            put(m, s, 1);
        }
        for &s in &p.pawns[1] {
            put(m, s, 0x81);
        }
        // POINTS' convention: COLOR is the side that has just moved
        m.bus.mem[self.color as usize] = if p.white_to_move { 0x80 } else { 0 };
        m.cpu.pc = stub;
        m.cpu.sp = 0x6000;
        let t0 = m.cpu.t;
        match m.run(10_000_000) {
            z80chess::machine::StopReason::Exit(_) => {}
            other => panic!("the routine did not return: {other:?}"),
        }
        self.t = m.cpu.t - t0;
        (m.cpu.hl() as i16 as i32, m.cpu.f & 1 != 0)
    }
}

/// Z80 and model on the positions; returns (positions, mean T-states).
fn z80_agrees(positions: impl Iterator<Item = Chess>) -> (usize, f64) {
    let mut z = Z80Race::new();
    let (mut n, mut t) = (0, 0u64);
    let mut bad = Vec::new();
    for pos in positions {
        let p = of_chess(&pos).unwrap();
        let (model, z80) = (race(&p), z.claim(&p));
        n += 1;
        t += z.t;
        if model != z80 && bad.len() < 20 {
            bad.push(format!(
                "{}: model {model:?}, Z80 {z80:?}",
                shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "RACE differs from its model:\n{}",
        bad.join("\n")
    );
    (n, t as f64 / n as f64)
}

#[test]
fn the_z80_race_is_its_model_on_every_kpk_position_and_a_kpkp_sample() {
    let (n, t) = z80_agrees(kpk());
    println!("KPK: the Z80 agrees on {n} positions, {t:.0} T a call");
    let (n, t) = z80_agrees(kpkp_sample(50_000).into_iter());
    println!("KPKP sample: the Z80 agrees on {n} positions, {t:.0} T a call");
}

/// RACE's rows: (what, FEN, level, the default block's move; with P_RACE = 0 the engine plays
/// another, which the table says throws the win away). Found by searching KPK positions for
/// the moves the term alone turns.
/// (idea, the weight set to 0, FEN, level, the default block's move).
const ROWS: &[(&str, &str, &str, u8, &str)] = &[
    // f4-f5: Black's king on c3 is outside the square of the pawn once it stands on f5 (and
    // White's king cannot help); without RACE, Ka1-a2 and the pawn is caught.
    (
        "the square of the pawn",
        "P_RACE",
        "8/8/8/8/5P2/2k5/8/K7 w - - 0 40",
        1,
        "f4f5",
    ),
    // ...Ke3-d4 heads for the key squares of the b7 pawn (a5, b5, c5) two steps ahead of
    // White's king; without RACE, ...b7-b5 runs into it.
    (
        "a key square reached first",
        "P_RACE",
        "8/1p6/8/8/8/4k3/8/1K6 b - - 0 40",
        1,
        "e3d4",
    ),
    // Kc1-b1 keeps White's king in front of the a-pawn (K+RP v K is drawn once the defender
    // reaches the corner, and RPDRAW says so); without the draw term both moves look alike to a
    // short search and Kc1-d2 walks away from the corner: the tables say Black then wins.
    (
        "K+RP v K: the defender heads for the corner",
        "P_RPDRW",
        "8/8/8/p7/8/1k6/8/2K5 w - - 0 40",
        2,
        "c1b1",
    ),
    // Kb3-c4, not e2-e4 (which the tables say throws the win: ...Ke6 stands in front of the
    // pawn): FRDRAW knows the king in front draws.
    (
        "K+P v K: the attacker keeps the king out of the front",
        "P_FRONT",
        "8/3k4/8/8/8/1K6/4P3/8 w - - 0 40",
        2,
        "b3c4",
    ),
    // In check from the c3 pawn: Bd2xc3 lets ...Kc7xb7 into K+RP+wrong bishop v K (the a8
    // corner light, the bishop dark), a draw; Kb2-c2 declines it. Without WBDRAW, Bxc3.
    (
        "K+RP+wrong bishop v K: the draw declined",
        "P_WBDRW",
        "8/1Pk5/8/8/P7/2p5/1K1B4/8 w - - 0 40",
        2,
        "b2c2",
    ),
    (
        "K+RP v K: the defender heads for the corner (h-pawn)",
        "P_RPDRW",
        "8/7p/8/8/8/6k1/8/5K2 w - - 0 40",
        1,
        "f1g1",
    ),
];

#[test]
fn race_changes_the_move_it_should() {
    use z80chess::firmware::params::ParamFile;
    use z80chess::firmware::{parse_fen, sargon, Build, Engine};
    let best = |fen: &str, level: u8, text: &str| {
        // The rules with the KPK bitbase off (P_FLAGS2 = 0), which would score K+P v K alone.
        let mut e = Engine::new(Build::Full).unwrap();
        e.load_params(&ParamFile::parse(&format!("P_FLAGS2 = 0\n{text}"), "t").unwrap())
            .unwrap();
        sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
        e.search(level, false).unwrap().best.uci()
    };
    let mut bad = Vec::new();
    for &(what, weight, fen, level, want) in ROWS {
        let (with, without) = (
            best(fen, level, ""),
            best(fen, level, &format!("{weight} = 0\n")),
        );
        if with != want || without == want {
            bad.push(format!(
                "{what}: default {with}, without {weight} {without}, want {want}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
