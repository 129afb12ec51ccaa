//! The full build's quiescence search (`asm/full/quies.asm`, P_FLAGS2 bit 2 F2_QUIES), held to
//! a host model.
//!
//! - On random positions (random games from the start and the bench's middlegames, captures
//!   preferred), every quiescence search a level-1 or level-2 search runs (one per leaf) is the
//!   model's: the Z80 is watched as it searches; at each leaf the model takes the position,
//!   SRCH's window (SCOREW) and P_QDEP, and searches it itself: the static score of each node
//!   is the value the Z80's own POINTS returned there (the model checks that the Z80 scored the
//!   same position after the same move, in the same order: a different tree or order fails),
//!   its captures and queen promotions come from shakmaty's board (pseudo-legal, as GENMOV's),
//!   ordered by MVV/LVA with ties by from then to square, a capture that cannot lift the static
//!   score above the best so far by P_QDELT not made (delta pruning), the illegal ones skipped
//!   and a capture of a defended piece by a more valuable one pruned. The value, the moves made
//!   (NNODE) and the stand-pat count (NSTPAT) must be the Z80's.
//! - The check can fail: the same recordings against a model with the MVV/LVA order reversed,
//!   the stand pat ignored, the depth cap one ply longer, no pruning or no delta pruning
//!   disagree, and so does the Z80 run with P_QDEP one ply shorter than the model's.
//! - The bench's four middlegames at levels 3 and 4 with the bit on give a legal move and a
//!   sane score, and lazy evaluation (F2_LAZY) leaves the searches with quiescence unchanged.

use shakmaty::attacks::{attacks, pawn_attacks};
use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, Piece, Position, Role, Square};
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine, Score};
use z80chess::machine::Observer;
use z80chess::profile::bench::POSITIONS;
use z80chess::tablebase::endgame_test::Rng;
use z80chess::z80::Cpu;

use crate::common::playouts;

fn sym(name: &str) -> u16 {
    Build::Full
        .symbol(name)
        .unwrap_or_else(|| panic!("roms/full.sym has no {name}"))
}

fn word(mem: &[u8; 0x10000], a: u16) -> i32 {
    i16::from_le_bytes([mem[a as usize], mem[a as usize + 1]]) as i32
}

fn long(mem: &[u8; 0x10000], a: u16) -> u32 {
    u32::from_le_bytes(mem[a as usize..a as usize + 4].try_into().unwrap())
}

/// The mailbox square (21..98) of a square.
fn mailbox(sq: Square) -> u8 {
    21 + sq.file() as u8 + 10 * sq.rank() as u8
}

fn square(mb: u8) -> Square {
    Square::new(((mb / 10 - 2) * 8 + mb % 10 - 1) as u32)
}

/// ORDER's values (P1 N3 B3 R5 Q9 K10).
fn value(r: Role) -> i32 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 10,
    }
}

/// The firmware's board (BOARD, 4000h, mailbox) as shakmaty's.
fn z80_board(mem: &[u8; 0x10000]) -> Board {
    let mut b = Board::empty();
    for sq in Square::ALL {
        let byte = mem[0x4000 + mailbox(sq) as usize];
        let role = match byte & 7 {
            1 => Role::Pawn,
            2 => Role::Knight,
            3 => Role::Bishop,
            4 => Role::Rook,
            5 => Role::Queen,
            6 => Role::King,
            _ => continue,
        };
        let color = if byte & 0x80 != 0 {
            Color::Black
        } else {
            Color::White
        };
        b.set_piece_at(sq, Piece { color, role });
    }
    b
}

/// One POINTS call the Z80 made inside a quiescence search: the position, the side that
/// moved last and its move (mailbox from, to), and the value (VALMW).
#[derive(Clone, Debug, PartialEq)]
struct Eval {
    board: Board,
    mover: Color,
    from: u8,
    to: u8,
    value: i32,
}

/// One quiescence search the Z80 ran (QLEAF, from SRCH's leaf).
#[derive(Clone, Debug)]
struct Session {
    board: Board,
    /// The side to move at the quiescence's first node.
    stm: Color,
    ep: Option<Square>,
    /// The leaf's ply n (the first quiescence node is at n + 1).
    ply: u8,
    scorew: [i32; 16],
    qdep: u8,
    qdelt: u8,
    evals: Vec<Eval>,
    result: i32,
    nodes: u32,
    pats: u32,
}

/// Watches a search: records every quiescence search with its POINTS calls.
struct Rec {
    qleaf: u16,
    qleaf_v: u16,
    qnode_v: u16,
    qret: u16,
    /// The bytes page 5 holds at QLEAF, QLEAF.v, QNODE.v (the window shows other pages too).
    code: [[u8; 3]; 3],
    /// LASTMV, COLOR, SCOREW, P_QDEP, NNODE, NSTPAT, P_QDELT.
    vars: [u16; 7],
    open: Option<(Session, u32, u32)>,
    done: Vec<Session>,
}

impl Rec {
    fn new() -> Rec {
        let rom = Build::Full.rom();
        let page = |name: &str| {
            let a = sym(name);
            let off = 0x4000 * 6 + (a as usize - 0x8000); // base ROM, pages 0..4, then 5
            [rom[off], rom[off + 1], rom[off + 2]]
        };
        let code = [page("QLEAF"), page("QLEAF.v"), page("QNODE.v")];
        assert_eq!(code[0], [0xDD, 0x7E, 0x00], "QLEAF: LD A,(IX+F_PLY)");
        Rec {
            qleaf: sym("QLEAF"),
            qleaf_v: sym("QLEAF.v"),
            qnode_v: sym("QNODE.v"),
            qret: sym("SRCH.qret"),
            code,
            vars: [
                "LASTMV", "COLOR", "SCOREW", "P_QDEP", "NNODE", "NSTPAT", "P_QDELT",
            ]
            .map(sym),
            open: None,
            done: Vec::new(),
        }
    }

    fn mover(&self, mem: &[u8; 0x10000]) -> Color {
        if mem[self.vars[1] as usize] == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    fn at(&self, mem: &[u8; 0x10000], pc: u16, k: usize) -> bool {
        mem[pc as usize..pc as usize + 3] == self.code[k]
    }

    fn eval(&self, mem: &[u8; 0x10000], hl: u16) -> Eval {
        let e = word(mem, self.vars[0]) as u16;
        Eval {
            board: z80_board(mem),
            mover: self.mover(mem),
            from: mem[e as usize + 2],
            to: mem[e as usize + 3],
            value: hl as i16 as i32,
        }
    }
}

impl Observer for Rec {
    fn only_before_at(&self) -> Option<Vec<u16>> {
        Some(vec![self.qleaf, self.qleaf_v, self.qnode_v, self.qret])
    }
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        let pc = cpu.pc;
        if pc == self.qleaf && self.at(mem, pc, 0) {
            assert!(self.open.is_none(), "QLEAF entered twice");
            let e = word(mem, self.vars[0]) as u16 as usize;
            let (from, to, flags) = (mem[e + 2], mem[e + 3], mem[e + 4]);
            let board = z80_board(mem);
            let mover = self.mover(mem);
            // a pawn's double step: the square it passed over (CALCEP)
            let ep = (flags & 0x10 != 0
                && board.role_at(square(to)) == Some(Role::Pawn)
                && from.abs_diff(to) == 20)
                .then(|| square((from + to) / 2));
            let sc = self.vars[2];
            let mut scorew = [0; 16];
            for (i, s) in scorew.iter_mut().enumerate() {
                *s = word(mem, sc + 2 * i as u16);
            }
            let s = Session {
                board,
                stm: !mover,
                ep,
                ply: mem[cpu.ix as usize],
                scorew,
                qdep: mem[self.vars[3] as usize],
                qdelt: mem[self.vars[6] as usize],
                evals: Vec::new(),
                result: 0,
                nodes: 0,
                pats: 0,
            };
            self.open = Some((s, long(mem, self.vars[4]), long(mem, self.vars[5])));
        } else if (pc == self.qleaf_v && self.at(mem, pc, 1))
            || (pc == self.qnode_v && self.at(mem, pc, 2))
        {
            let e = self.eval(mem, cpu.hl());
            self.open
                .as_mut()
                .expect("POINTS outside QLEAF")
                .0
                .evals
                .push(e);
        } else if pc == self.qret {
            if let Some((mut s, n0, p0)) = self.open.take() {
                s.result = cpu.hl() as i16 as i32;
                s.nodes = long(mem, self.vars[4]) - n0;
                s.pats = long(mem, self.vars[5]) - p0;
                self.done.push(s);
            }
        }
        false
    }
}

/// How the model may be broken (to show the comparison can fail).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Variant {
    Exact,
    Reversed,
    NoStandPat,
    DepthPlusOne,
    NoPruning,
    NoDelta,
}

/// A capture or queen promotion: the move's squares, its victim (None: a promotion's empty
/// square), the mover's role, en passant.
#[derive(Clone, Copy, Debug)]
struct Cap {
    from: Square,
    to: Square,
    victim: Option<Role>,
    mover: Role,
    promo: bool,
    ep: bool,
}

impl Cap {
    /// ORDER's key: 16 * (victim + promotion's gain) + (15 - mover).
    /// The most it can gain, in ORDER's values: the victim, 8 more for a queen promotion.
    fn gain(&self) -> i32 {
        self.victim.map_or(0, value) + if self.promo { 8 } else { 0 }
    }

    /// ORDER's key: 16 * (victim + promotion's gain) + (15 - mover).
    fn key(&self) -> i32 {
        16 * self.gain() + 15 - value(self.mover)
    }

    fn apply(&self, b: &Board, us: Color) -> Board {
        let mut c = b.clone();
        c.discard_piece_at(self.from);
        c.discard_piece_at(self.to);
        if self.ep {
            c.discard_piece_at(Square::from_coords(self.to.file(), self.from.rank()));
        }
        let role = if self.promo { Role::Queen } else { self.mover };
        c.set_piece_at(self.to, Piece { color: us, role });
        c
    }
}

/// The pseudo-legal captures and queen promotions of `us` (GENMOV's, minus the rest).
fn captures(b: &Board, us: Color, ep: Option<Square>) -> Vec<Cap> {
    let them = b.by_color(!us);
    let last = if us == Color::White { 7 } else { 0 };
    let mut out = Vec::new();
    for from in b.by_color(us) {
        let piece = b.piece_at(from).unwrap();
        let targets: Bitboard = if piece.role == Role::Pawn {
            pawn_attacks(us, from) & them
        } else {
            attacks(from, piece, b.occupied()) & them
        };
        for to in targets {
            out.push(Cap {
                from,
                to,
                victim: b.role_at(to),
                mover: piece.role,
                promo: piece.role == Role::Pawn && to.rank() as u32 == last,
                ep: false,
            });
        }
        if piece.role == Role::Pawn {
            let step = if us == Color::White { 8 } else { -8 };
            let to = Square::new((from as i32 + step) as u32);
            if to.rank() as u32 == last && b.piece_at(to).is_none() {
                out.push(Cap {
                    from,
                    to,
                    victim: None,
                    mover: Role::Pawn,
                    promo: true,
                    ep: false,
                });
            }
            if let Some(ep) = ep {
                if pawn_attacks(us, from).contains(ep) {
                    out.push(Cap {
                        from,
                        to: ep,
                        victim: Some(Role::Pawn),
                        mover: Role::Pawn,
                        promo: false,
                        ep: true,
                    });
                }
            }
        }
    }
    out
}

/// The model of QNODE, its static scores taken from the Z80's recorded POINTS calls.
struct Model<'a> {
    s: &'a Session,
    var: Variant,
    qdep: u8,
    next: usize,
    sc: [i32; 16],
    nodes: u32,
    pats: u32,
}

impl Model<'_> {
    fn eval(&mut self, board: &Board, mover: Color, from: u8, to: u8) -> Result<i32, String> {
        let e = self.s.evals.get(self.next).ok_or_else(|| {
            format!(
                "the model scores a {}th position the Z80 did not",
                self.next + 1
            )
        })?;
        if (&e.board, e.mover, e.from, e.to) != (board, mover, from, to) {
            return Err(format!(
                "POINTS call {}: the Z80 scored {}-{} by {:?}, the model {from}-{to} by {mover:?}",
                self.next + 1,
                e.from,
                e.to,
                e.mover
            ));
        }
        self.next += 1;
        Ok(e.value)
    }

    fn pat(&mut self, v: i32) -> Result<i32, String> {
        self.pats += 1;
        Ok(v)
    }

    /// The node at ply m whose side to move is `us`, its static score v.
    fn node(
        &mut self,
        b: &Board,
        us: Color,
        ep: Option<Square>,
        m: u8,
        v: i32,
    ) -> Result<i32, String> {
        let m = m as usize;
        if self.var != Variant::NoStandPat && -v <= self.sc[m - 1] {
            return self.pat(v);
        }
        let cap = self.qdep + u8::from(self.var == Variant::DepthPlusOne);
        if m > 14 || cap as usize <= m - (self.s.ply as usize + 1) {
            return self.pat(v);
        }
        self.sc[m] = if self.var == Variant::NoStandPat {
            self.sc[m - 2]
        } else {
            self.sc[m - 2].max(v)
        };
        let mut caps = captures(b, us, ep);
        caps.sort_by_key(|c| std::cmp::Reverse((c.key(), c.from, c.to)));
        if self.var == Variant::Reversed {
            caps.reverse();
        }
        let mut searched = false;
        for c in caps {
            // delta pruning: v + 256 * gain + P_QDELT / 16 pawn cannot pass the best so far
            let reach = v + 256 * c.gain() + 16 * self.s.qdelt as i32;
            if self.var != Variant::NoDelta
                && self.s.qdelt > 0
                && reach <= 32767
                && reach <= self.sc[m]
            {
                continue;
            }
            self.nodes += 1;
            let child = c.apply(b, us);
            let king = child.king_of(us).expect("a king");
            if child.attacks_to(king, !us, child.occupied()).any() {
                continue;
            }
            if self.var != Variant::NoPruning
                && !c.promo
                && value(c.victim.unwrap()) < value(c.mover)
                && child.attacks_to(c.to, !us, child.occupied()).any()
            {
                continue;
            }
            searched = true;
            let v2 = self.eval(&child, us, mailbox(c.from), mailbox(c.to))?;
            let r = self.node(&child, !us, None, m as u8 + 1, v2)?;
            if r <= self.sc[m - 1] {
                return Ok(-r);
            }
            if -r > self.sc[m] {
                self.sc[m] = -r;
            }
        }
        if !searched {
            self.pats += 1;
        }
        Ok(self.sc[m])
    }
}

/// The model's verdict on one recorded quiescence search: None = it agrees.
fn check(s: &Session, var: Variant, qdep: u8) -> Option<String> {
    let mut m = Model {
        s,
        var,
        qdep,
        next: 0,
        sc: s.scorew,
        nodes: 0,
        pats: 0,
    };
    let e = &s.evals[0];
    let got = m
        .eval(&s.board, !s.stm, e.from, e.to)
        .and_then(|v| m.node(&s.board, s.stm, s.ep, s.ply + 1, v));
    let r = match got {
        Err(e) => return Some(e),
        Ok(r) => r,
    };
    if m.next != s.evals.len() {
        return Some(format!(
            "the Z80 scored {} positions, the model {}",
            s.evals.len(),
            m.next
        ));
    }
    if (r, m.nodes, m.pats) != (s.result, s.nodes, s.pats) {
        return Some(format!(
            "value {r} moves made {} stand pats {}; the Z80 {} {} {}",
            m.nodes, m.pats, s.result, s.nodes, s.pats
        ));
    }
    None
}

/// Random positions: random games from the start and the bench's middlegames, a capture
/// preferred half the time (so the positions have captures to search).
fn positions(n: usize, seed: u64) -> Vec<Chess> {
    let mut starts = vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"];
    starts.extend(POSITIONS.iter().map(|&(_, fen, _)| fen));
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = parse_fen(starts[rng.below(starts.len())]).unwrap();
        for _ in 0..rng.below(30) {
            let ms = pos.legal_moves();
            if ms.is_empty() {
                break;
            }
            let caps: Vec<_> = ms.iter().filter(|m| m.is_capture()).collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                *caps[rng.below(caps.len())]
            } else {
                ms[rng.below(ms.len())]
            };
            pos.play_unchecked(m);
        }
        if !pos.legal_moves().is_empty() && pos.halfmoves() < 90 {
            out.push(pos);
        }
    }
    out
}

fn params(text: &str) -> ParamFile {
    ParamFile::parse(&format!("[default]\n{text}"), "quies").unwrap()
}

/// A search of `pos` at `level` with every quiescence search recorded.
fn watched(e: &mut Engine, pos: &Chess, level: u8, rec: &mut Rec) {
    playouts::observed_search(e, pos, level, rec);
    assert!(rec.open.is_none(), "a quiescence search did not return");
}

/// Every quiescence search of searches of `n` random positions (every eighth at level 2).
fn record(n: usize, text: &str) -> Vec<Session> {
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&params(text)).unwrap();
    let mut rec = Rec::new();
    for (i, pos) in positions(n, 35).iter().enumerate() {
        watched(&mut e, pos, if i % 8 == 7 { 2 } else { 1 }, &mut rec);
    }
    rec.done
}

fn failures(sessions: &[Session], var: Variant, qdep: u8) -> Vec<String> {
    sessions
        .iter()
        .filter_map(|s| check(s, var, qdep))
        .collect()
}

#[test]
fn quiescence_is_the_models_on_random_positions() {
    let sessions = record(1000, "P_FLAGS2 = 5\n");
    let evals: usize = sessions.iter().map(|s| s.evals.len()).sum();
    let deep = sessions.iter().filter(|s| s.evals.len() > 1).count();
    let nodes: u32 = sessions.iter().map(|s| s.nodes).sum();
    let pats: u32 = sessions.iter().map(|s| s.pats).sum();
    println!(
        "{} quiescence searches, {deep} searched a capture; {evals} evaluations, {nodes} moves \
         made, {pats} stand pats",
        sessions.len()
    );
    assert!(
        sessions.iter().all(|s| (s.qdep, s.qdelt) == (4, 32)),
        "P_QDEP's default is 4, P_QDELT's 32"
    );
    let bad = failures(&sessions, Variant::Exact, 4);
    assert!(
        bad.is_empty(),
        "{} of {} differ, the first: {:?}",
        bad.len(),
        sessions.len(),
        bad.first()
    );
    assert!(
        sessions.len() > 20_000 && deep > 3_000,
        "too few searches with captures"
    );
    for var in [
        Variant::Reversed,
        Variant::NoStandPat,
        Variant::DepthPlusOne,
        Variant::NoPruning,
        Variant::NoDelta,
    ] {
        let n = failures(&sessions, var, 4).len();
        println!("model {var:?}: {n} of {} differ", sessions.len());
        assert!(n > 0, "a model with {var:?} agrees with the Z80");
    }
}

/// The Z80 with its depth cap one ply shorter than the model's disagrees.
#[test]
fn a_shorter_depth_cap_disagrees() {
    let sessions = record(150, "P_FLAGS2 = 5\nP_QDEP = 3\n");
    assert!(sessions.iter().all(|s| s.qdep == 3));
    assert!(
        failures(&sessions, Variant::Exact, 3).is_empty(),
        "P_QDEP = 3 is not the model's 3"
    );
    let n = failures(&sessions, Variant::Exact, 4).len();
    println!(
        "P_QDEP 3 against the model's 4: {n} of {} differ",
        sessions.len()
    );
    assert!(n > 0);
}

fn bench_search(fen: &str, level: u8, flags2: u8, extra: &str) -> z80chess::firmware::SearchResult {
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&params(&format!("P_FLAGS2 = {flags2}\n{extra}")))
        .unwrap();
    sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
    e.search(level, false).unwrap()
}

/// The bench's four middlegames at levels 3 and 4 with quiescence: a legal move, a score
/// within five pawns (or wac001's mate). Lazy evaluation (F2_LAZY) searches the same tree
/// without delta pruning (P_QDELT = 0): its bounds are used only as SRCH's leaf rule would.
/// With delta pruning it may search more: a lazy score below alpha is an upper bound, so
/// QDELTA prunes a subset of what the exact score prunes; the move and score stay.
#[test]
fn the_bench_middlegames_with_quiescence_give_legal_moves_and_sane_scores() {
    for level in [3, 4] {
        for &(name, fen, _) in &POSITIONS[..4] {
            let pos = parse_fen(fen).unwrap();
            let r = bench_search(fen, level, 5, "");
            let legal: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            println!(
                "{name} L{level}: {} {:?}, {} moves made, {} evaluations, {} T",
                r.best.uci(),
                r.score,
                r.nodes,
                r.evaluations,
                r.tstates
            );
            assert!(
                legal.contains(&r.best.uci()),
                "{name} L{level}: {} is not legal",
                r.best.uci()
            );
            // within five pawns, or a mate (wac001: Qg6 mates)
            match r.score {
                Score::Word(w) => assert!(
                    w.abs() <= 5 * 256
                        || (name == "wac001"
                            && r.best.uci() == "g3g6"
                            && w as i32 >= Score::MATE_MIN),
                    "{name} L{level}: score {w}"
                ),
                other => panic!("{other:?}"),
            }
            if level == 3 {
                let lazy = bench_search(fen, level, 13, "");
                assert_eq!(
                    (lazy.best, lazy.score),
                    (r.best, r.score),
                    "{name} L3 F2_LAZY"
                );
                let exact = bench_search(fen, level, 5, "P_QDELT = 0\n");
                let lazy = bench_search(fen, level, 13, "P_QDELT = 0\n");
                assert_eq!(
                    (lazy.best, lazy.score, lazy.nodes, lazy.evaluations),
                    (exact.best, exact.score, exact.nodes, exact.evaluations),
                    "{name} L{level}: F2_LAZY changed the search with quiescence"
                );
                assert!(lazy.tstates < exact.tstates, "{name}: lazy saved nothing");
            }
        }
    }
}
