//! The full build's cheap interior ordering (`asm/full/order.asm`, P_FLAGS2 bit 1 F2_ORDER),
//! held to a host model.
//!
//! - On random legal positions, with random killers and history written into the Z80's RAM
//!   and sometimes a table move, the order ORDER (then TTFRONT) links is the model's: the table
//!   move, captures and promotions by MVV/LVA, the ply's two killers, the rest by history, equal
//!   keys by from then to square, larger first; the model takes each move's pieces from
//!   shakmaty's board, not from the firmware's flags.
//! - The same move set written into the list in a shuffled order comes out in the same order.
//! - A cut-off records what the model says (ORDCUT: killers shift, history + depth²).
//! - Alpha-beta's result does not depend on the order: F2_ORDER on gives the root score (and
//!   move) of F2_ORDER off on the bench positions at level 3, in fewer T-states.

use shakmaty::{Chess, Color, Position, Role, Square};
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine};
use z80chess::tablebase::endgame_test::Rng;

const STUB: u16 = 0x6D00; // order.asm's RAM above ORDTOP: the tests' stubs and frame
const FRAME: u16 = 0x6DE0; // IX: F_PLY
const OUT: u16 = 0x6DF0; // the stubs' results

fn sym(n: &str) -> u16 {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static S: OnceLock<Mutex<HashMap<String, u16>>> = OnceLock::new();
    let mut m = S.get_or_init(Default::default).lock().unwrap();
    *m.entry(n.to_string()).or_insert_with(|| {
        Build::Full
            .symbol(n)
            .unwrap_or_else(|| panic!("no symbol {n}"))
    })
}

/// A move-list entry as the firmware keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    from: u8,
    to: u8,
    flags: u8,
}

fn square(mb: u8) -> Square {
    let (file, rank) = (mb % 10 - 1, mb / 10 - 2);
    Square::new((rank * 8 + file) as u32)
}

fn value(r: Role) -> u16 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 10,
    }
}

fn role_type(r: Role) -> usize {
    match r {
        Role::Pawn => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::Rook => 4,
        Role::Queen => 5,
        Role::King => 6,
    }
}

/// The Z80 with the full build, a position loaded, and stubs to call.
struct Z80 {
    e: Engine,
}

impl Z80 {
    fn new() -> Z80 {
        let mut e = Engine::new(Build::Full).unwrap();
        e.eval().unwrap(); // the active block gets the defaults (SELPRM)
        Z80 { e }
    }

    fn mem(&mut self) -> &mut [u8; 0x10000] {
        &mut self.e.machine.bus.mem
    }

    fn word(&self, a: u16) -> u16 {
        let m = &self.e.machine.bus.mem;
        u16::from_le_bytes([m[a as usize], m[a as usize + 1]])
    }

    fn run(&mut self, code: &[u8]) {
        let m = &mut self.e.machine;
        let saved = m.cpu.clone(); // the command loop, resumed after the stub
        m.bus.mem[STUB as usize..STUB as usize + code.len()].copy_from_slice(code);
        m.cpu.pc = STUB;
        m.cpu.sp = saved.sp; // below the command loop's own frames
        match m.run(50_000_000) {
            z80chess::machine::StopReason::Exit(_) => {}
            other => panic!("the stub did not return: {other:?}"),
        }
        let t = m.cpu.t;
        m.cpu = saved;
        m.cpu.t = t;
    }

    /// GENMOV at MLIST for the side to move: the list's bounds.
    fn generate(&mut self) -> (u16, u16) {
        let (ml, nx, g) = (sym("MLIST"), sym("MLNXT"), sym("GENMOV"));
        let mut code = vec![0x21, ml as u8, (ml >> 8) as u8]; // LD HL,MLIST
        code.extend([0x22, nx as u8, (nx >> 8) as u8]); // LD (MLNXT),HL
        code.extend([0xCD, g as u8, (g >> 8) as u8]); // CALL GENMOV
        code.extend([0x22, OUT as u8, (OUT >> 8) as u8]); // LD (OUT),HL
        code.extend([0xED, 0x53, (OUT + 2) as u8, ((OUT + 2) >> 8) as u8]); // LD (OUT+2),DE
        code.extend([0xD3, 0xFF]);
        self.run(&code);
        (self.word(OUT), self.word(OUT + 2))
    }

    fn entries(&self, first: u16, end: u16) -> Vec<Entry> {
        let m = &self.e.machine.bus.mem;
        (first..end)
            .step_by(6)
            .map(|a| Entry {
                from: m[a as usize + 2],
                to: m[a as usize + 3],
                flags: m[a as usize + 4],
            })
            .collect()
    }

    fn write_entries(&mut self, first: u16, list: &[Entry]) {
        for (i, x) in list.iter().enumerate() {
            let a = first as usize + 6 * i;
            let m = self.mem();
            m[a..a + 6].copy_from_slice(&[0xEE, 0xEE, x.from, x.to, x.flags, 0]);
        }
    }

    /// ORDER (through ORDFAR) on [first, end) at `ply`, then TTFRONT with TTHM = `tt`
    /// (an entry's address or 0): the linked order and every entry's score byte.
    fn order(&mut self, first: u16, end: u16, ply: u8, tt: u16) -> (Vec<Entry>, Vec<u8>) {
        let (far, ord, front, thm) = (sym("ORDFAR"), sym("ORDER"), sym("TTFRONT"), sym("TTHM"));
        self.mem()[FRAME as usize] = ply;
        self.mem()[thm as usize..thm as usize + 2].copy_from_slice(&tt.to_le_bytes());
        let mut code = vec![0xDD, 0x21, FRAME as u8, (FRAME >> 8) as u8]; // LD IX,FRAME
        code.extend([0xFD, 0x21, ord as u8, (ord >> 8) as u8]); // LD IY,ORDER
        code.extend([0x21, first as u8, (first >> 8) as u8]); // LD HL,first
        code.extend([0x11, end as u8, (end >> 8) as u8]); // LD DE,end
        code.extend([0xCD, far as u8, (far >> 8) as u8]); // CALL ORDFAR
        code.extend([0xCD, front as u8, (front >> 8) as u8]); // CALL TTFRONT
        code.extend([0x22, OUT as u8, (OUT >> 8) as u8]); // LD (OUT),HL
        code.extend([0xD3, 0xFF]);
        self.run(&code);
        assert_eq!(self.e.machine.bus.page(), 0, "ORDFAR restores the page");
        let mut out = Vec::new();
        let mut at = self.word(OUT);
        let n = (end - first) / 6;
        while at >> 8 != 0 {
            assert!(out.len() < n as usize, "the links loop");
            assert!(
                at >= first && at < end && (at - first).is_multiple_of(6),
                "a link outside the list: {at:04X}"
            );
            let m = &self.e.machine.bus.mem;
            out.push(Entry {
                from: m[at as usize + 2],
                to: m[at as usize + 3],
                flags: m[at as usize + 4],
            });
            at = self.word(at);
        }
        let scores = (first..end)
            .step_by(6)
            .map(|a| self.e.machine.bus.mem[a as usize + 5])
            .collect();
        (out, scores)
    }

    fn killers(&self, ply: u8) -> [(u8, u8); 2] {
        let a = (sym("ORDKIL") + 4 * (ply as u16 & 15)) as usize;
        let m = &self.e.machine.bus.mem;
        [(m[a], m[a + 1]), (m[a + 2], m[a + 3])]
    }

    fn history_addr(colour: Color, role: Role, to: u8) -> u16 {
        let row = (if colour.is_black() { 6 } else { 0 }) + role_type(role) - 1;
        sym("ORDHIS") + row as u16 * 156 + 2 * (to as u16 - 21)
    }
}

/// The model's key of an entry in `pos` (the mover and the victim from shakmaty's board).
fn key(pos: &Chess, x: &Entry, killers: [(u8, u8); 2], z: &Z80) -> u16 {
    let board = pos.board();
    let mover = board
        .piece_at(square(x.from))
        .expect("a mover on the from square");
    let promo = (x.flags & 0x20 != 0)
        .then(|| [Role::Queen, Role::Rook, Role::Bishop, Role::Knight][(x.flags >> 6) as usize]);
    let victim = match board.piece_at(square(x.to)) {
        Some(p) => Some(p.role),
        None if mover.role == Role::Pawn && x.from % 10 != x.to % 10 => Some(Role::Pawn), // e.p.
        None => None,
    };
    if victim.is_some() || promo.is_some() {
        let gain = match promo {
            Some(Role::Queen) => 8,
            Some(Role::Rook) => 4,
            Some(Role::Bishop) => 2,
            Some(_) => 1,
            None => 0,
        };
        return 0x8000 + 16 * (victim.map_or(0, value) + gain) + (15 - value(mover.role));
    }
    if (x.from, x.to) == killers[0] {
        return 0x6000;
    }
    if (x.from, x.to) == killers[1] {
        return 0x5000;
    }
    z.word(Z80::history_addr(mover.color, mover.role, x.to))
}

/// The model's order: descending (key, from, to); the table move first.
fn model(
    pos: &Chess,
    list: &[Entry],
    killers: [(u8, u8); 2],
    tt: Option<Entry>,
    z: &Z80,
) -> Vec<Entry> {
    let mut v: Vec<(u16, Entry)> = list.iter().map(|x| (key(pos, x, killers, z), *x)).collect();
    v.sort_by_key(|b| std::cmp::Reverse((b.0, b.1.from, b.1.to)));
    let mut out: Vec<Entry> = v.into_iter().map(|(_, x)| x).collect();
    if let Some(t) = tt {
        let i = out.iter().position(|x| *x == t).unwrap();
        let t = out.remove(i);
        out.insert(0, t);
    }
    out
}

/// Random legal positions: random games from the start and from the bench's middlegames.
fn positions(n: usize, seed: u64) -> Vec<Chess> {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 20",
        "8/P1k5/8/8/8/8/1p4K1/8 w - - 0 50", // promotions both ways
    ];
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = parse_fen(starts[rng.below(starts.len())]).unwrap();
        for _ in 0..rng.below(40) {
            let ms = pos.legal_moves();
            if ms.is_empty() {
                break;
            }
            pos.play_unchecked(ms[rng.below(ms.len())]);
        }
        if !pos.legal_moves().is_empty() && pos.halfmoves() < 90 {
            out.push(pos);
        }
    }
    out
}

/// Random killers (often real quiet moves of the list) and random history words.
fn scramble(z: &mut Z80, rng: &mut Rng, list: &[Entry], ply: u8) {
    let quiet: Vec<&Entry> = list.iter().filter(|x| x.flags & 0x27 == 0).collect();
    let pick = |rng: &mut Rng| -> (u8, u8) {
        if !quiet.is_empty() && rng.below(4) != 0 {
            let x = quiet[rng.below(quiet.len())];
            (x.from, x.to)
        } else {
            (21 + rng.below(78) as u8, 21 + rng.below(78) as u8)
        }
    };
    let (k1, k2) = (pick(rng), pick(rng));
    let a = (sym("ORDKIL") + 4 * (ply as u16 & 15)) as usize;
    z.mem()[a..a + 4].copy_from_slice(&[k1.0, k1.1, k2.0, k2.1]);
    let his = sym("ORDHIS") as usize;
    let zero = rng.below(3) == 0; // a third of the cases: all ties but killers and captures
    for i in 0..12 * 78 {
        let v: u16 = if zero || rng.below(3) == 0 {
            0
        } else {
            rng.below(0x4000) as u16
        };
        z.mem()[his + 2 * i..his + 2 * i + 2].copy_from_slice(&v.to_le_bytes());
    }
}

fn show(v: &[Entry]) -> String {
    v.iter()
        .map(|x| {
            format!(
                "{}{}{}",
                square(x.from),
                square(x.to),
                if x.flags & 0x20 != 0 { "=" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn order_is_the_models_and_does_not_depend_on_the_lists_order() {
    let mut z = Z80::new();
    let mut rng = Rng::new(35);
    let (mut n, mut moves, mut with_tt, mut killer_hits, mut captures) = (0, 0, 0, 0, 0);
    for pos in positions(400, 1) {
        sargon::load(&mut z.e, &pos).unwrap();
        let (first, end) = z.generate();
        let list = z.entries(first, end);
        // the list is GENMOV's: every legal move is in it
        for m in pos.legal_moves() {
            let (f, t) = (m.from().unwrap(), m.to());
            assert!(
                list.iter()
                    .any(|x| square(x.from) == f && (square(x.to) == t || m.is_castle())),
                "{m} missing from GENMOV's list"
            );
        }
        let ply = 2 + rng.below(8) as u8;
        scramble(&mut z, &mut rng, &list, ply);
        let tt_i = (rng.below(3) == 0).then(|| rng.below(list.len()));
        let tt_addr = tt_i.map_or(0, |i| first + 6 * i as u16);
        let killers = z.killers(ply);
        let want = model(&pos, &list, killers, tt_i.map(|i| list[i]), &z);
        let (got, scores) = z.order(first, end, ply, tt_addr);
        assert!(
            scores.iter().all(|&s| s == 0),
            "ORDER leaves every score byte 0"
        );
        assert_eq!(
            z.entries(first, end),
            list,
            "ORDER keeps every entry's flags"
        );
        // the same set, shuffled (the table move where it lands), links the same order
        let mut shuffled = list.clone();
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i + 1));
        }
        z.write_entries(first, &shuffled);
        let tt2 = tt_i.map_or(0, |i| {
            first + 6 * shuffled.iter().position(|x| *x == list[i]).unwrap() as u16
        });
        let (again, _) = z.order(first, end, ply, tt2);
        let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
        assert_eq!(
            again,
            got,
            "{fen}: the list shuffled orders otherwise\n given   {}\n shuffled {}",
            show(&got),
            show(&again)
        );
        assert_eq!(
            got,
            want,
            "{fen}: ply {ply}, killers {killers:?}\n Z80   {}\n model {}",
            show(&got),
            show(&want)
        );
        n += 1;
        moves += list.len();
        with_tt += tt_i.is_some() as usize;
        killer_hits += list
            .iter()
            .filter(|x| (x.from, x.to) == killers[0] || (x.from, x.to) == killers[1])
            .count();
        captures += list.iter().filter(|x| x.flags & 0x27 != 0).count();
    }
    println!(
        "ORDER = the model on {n} positions ({moves} moves, {captures} captures or promotions, \
         {killer_hits} killers in their lists, {with_tt} with a table move), and again shuffled"
    );
    assert!(n == 400 && captures > 500 && killer_hits > 200 && with_tt > 80);
}

/// ORDCUT on a quiet move at `ply`: killers shift, history grows by depth², and a word past
/// 3FFFh halves the table.
#[test]
fn a_cutoff_records_killers_and_history() {
    let mut z = Z80::new();
    let pos =
        parse_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    sargon::load(&mut z.e, &pos).unwrap();
    let (first, end) = z.generate();
    let list = z.entries(first, end);
    let (cut, far, plymax) = (sym("ORDCUT"), sym("ORDFAR"), sym("PLYMAX"));
    let call_cut = |z: &mut Z80, i: usize, ply: u8, depth_max: u8| {
        let entry = first + 6 * i as u16;
        z.mem()[FRAME as usize] = ply;
        z.mem()[FRAME as usize + 9..FRAME as usize + 11].copy_from_slice(&entry.to_le_bytes());
        z.mem()[plymax as usize] = depth_max;
        let mut code = vec![0xDD, 0x21, FRAME as u8, (FRAME >> 8) as u8];
        code.extend([0xFD, 0x21, cut as u8, (cut >> 8) as u8]);
        code.extend([0xCD, far as u8, (far >> 8) as u8, 0xD3, 0xFF]);
        z.run(&code);
    };
    let quiet: Vec<usize> = (0..list.len())
        .filter(|&i| list[i].flags & 0x27 == 0)
        .collect();
    let capture = (0..list.len())
        .find(|&i| list[i].flags & 0x27 != 0)
        .unwrap();
    let (a, b) = (quiet[0], quiet[1]);
    let hist = |z: &Z80, i: usize| {
        let p = pos.board().piece_at(square(list[i].from)).unwrap();
        z.word(Z80::history_addr(p.color, p.role, list[i].to))
    };
    call_cut(&mut z, a, 2, 4); // depth 3: +9
    assert_eq!(z.killers(2), [(list[a].from, list[a].to), (0, 0)]);
    assert_eq!(hist(&z, a), 9);
    call_cut(&mut z, b, 2, 4);
    assert_eq!(
        z.killers(2),
        [(list[b].from, list[b].to), (list[a].from, list[a].to)]
    );
    call_cut(&mut z, b, 2, 4); // the first killer again: no shift
    assert_eq!(
        z.killers(2),
        [(list[b].from, list[b].to), (list[a].from, list[a].to)]
    );
    assert_eq!(hist(&z, b), 18);
    call_cut(&mut z, a, 6, 4); // beyond PLYMAX + 1: depth 1
    assert_eq!(hist(&z, a), 10);
    assert_eq!(z.killers(6)[0], (list[a].from, list[a].to));
    let before = (z.killers(3), hist(&z, capture));
    call_cut(&mut z, capture, 3, 4); // a capture: nothing
    assert_eq!((z.killers(3), hist(&z, capture)), before);
    // past 3FFFh: every word halves
    let at = {
        let p = pos.board().piece_at(square(list[a].from)).unwrap();
        Z80::history_addr(p.color, p.role, list[a].to)
    };
    z.mem()[at as usize..at as usize + 2].copy_from_slice(&0x3FF0u16.to_le_bytes());
    call_cut(&mut z, a, 1, 4); // depth 4: +16 = 4000h, halved to 2000h
    assert_eq!(hist(&z, a), 0x2000);
    assert_eq!(hist(&z, b), 9);
}

fn searched(fen: &str, level: u8, flags2: u8) -> (z80chess::firmware::SearchResult, u64) {
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&ParamFile::parse(&format!("[default]\nP_FLAGS2 = {flags2}\n"), "test").unwrap())
        .unwrap();
    sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
    let r = e.search(level, false).unwrap();
    let t = r.tstates;
    (r, t)
}

/// The bench's four middlegames at levels 3 and 4: the same root score and move with F2_ORDER
/// on as off (alpha-beta's value does not depend on the order; the table and aspiration are
/// off by default), in fewer T-states and evaluations.
#[test]
fn ordering_keeps_the_root_score_in_fewer_tstates() {
    for level in [3, 4] {
        for &(name, fen, _) in &z80chess::profile::bench::POSITIONS[..4] {
            let (off, t_off) = searched(fen, level, 1);
            let (on, t_on) = searched(fen, level, 3);
            println!(
                "{name} L{level}: {:?} {:?}, off {} moves {} evaluations {t_off} T, \
                 on {} moves {} evaluations {t_on} T",
                on.best, on.score, off.nodes, off.evaluations, on.nodes, on.evaluations
            );
            assert_eq!(
                (on.score, on.best),
                (off.score, off.best),
                "{name} L{level}"
            );
            assert!(t_on < t_off, "{name} L{level}: {t_on} T on, {t_off} off");
            assert!(on.evaluations < off.evaluations, "{name} L{level}");
        }
    }
}
