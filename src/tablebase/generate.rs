//! The retrograde generator and the self-consistency proof.
//!
//! 1. Every index is decoded and checked (legal, canonical); its legal moves are generated
//!    once: checkmate and stalemate are final, a move that captures or promotes leads into
//!    a sub-ending whose value is already known (or, in the pawn metric, a promotion wins),
//!    and the other moves are counted (distinct successor indices).
//! 2. Level by level (d = 0, 1, 2, … plies), every position of value d is taken back one
//!    move (un-moves: no uncaptures or unpromotions, which belong to bigger tables; a pawn's
//!    double step leads to the en-passant form of a position when the capture is legal).
//!    A predecessor of a loss in d is a win in d + 1; a predecessor of a win in d loses one
//!    count, and when none is left all its moves are checked forward: if every one reaches
//!    a win for the opponent that is final by now, it is a loss in (longest) + 1.
//!    A win through a capture or promotion (known in step 1) stands until a shorter one
//!    appears; a loss whose longest line goes through a capture is written when known and
//!    taken back at its own level.
//! 3. Whatever is left is a draw.
//!
//! [`verify`] then recomputes every position from its successors' values, forward, and
//! compares: the minimax relation over the whole table (the proof each table passes).

use super::layout::Layout;
use super::men::*;
use super::store::Store;
use super::{par_for, Metric, TablebaseError, Val, ILLEGAL};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// A successor: an index of this table, or a value from elsewhere (for its side to move).
#[derive(Clone, Copy, Debug)]
pub enum Child {
    In(usize),
    Out(Val),
}

/// The successors of a position of table `l`; returns the number of legal moves.
#[allow(clippy::too_many_arguments)]
pub fn children(
    l: &Layout,
    metric: Metric,
    store: &Store,
    stm: u8,
    sq: &[u8; MAX_MEN],
    ep: usize,
    buf: &mut Vec<RawMove>,
    mut f: impl FnMut(Child, &RawMove),
) -> Result<usize, TablebaseError> {
    let men = l.men(sq);
    legal_moves(&men, stm, ep, buf);
    for m in buf.iter() {
        if m.capture != usize::MAX || m.promo != 0 {
            if metric == Metric::Pawn && m.promo != 0 {
                f(Child::Out(Val::Loss(0)), m);
                continue;
            }
            let mut after = men;
            after.sq[m.i] = m.to;
            if m.promo != 0 {
                after.role[m.i] = m.promo;
            }
            if m.capture != usize::MAX {
                after.remove(m.capture);
            }
            let v = store.value_of(&after, stm ^ 1, usize::MAX)?;
            f(Child::Out(v), m);
        } else {
            let mut s2 = *sq;
            s2[m.i] = m.to;
            let ep2 = if m.double && ep_capturable(&l.men(&s2), m.i, stm) {
                m.i
            } else {
                usize::MAX
            };
            f(Child::In(l.index(stm ^ 1, &s2, ep2)), m);
        }
    }
    Ok(buf.len())
}

/// The indices of the successors within the table (moves that neither capture nor promote),
/// without sub-tables: for checking the un-move generator against the move generator.
pub fn successors_in_table(
    l: &Layout,
    stm: u8,
    sq: &[u8; MAX_MEN],
    ep: usize,
    buf: &mut Vec<RawMove>,
    out: &mut Vec<usize>,
) {
    out.clear();
    legal_moves(&l.men(sq), stm, ep, buf);
    for m in buf.iter() {
        if m.capture == usize::MAX && m.promo == 0 {
            let mut s2 = *sq;
            s2[m.i] = m.to;
            let ep2 = if m.double && ep_capturable(&l.men(&s2), m.i, stm) {
                m.i
            } else {
                usize::MAX
            };
            out.push(l.index(stm ^ 1, &s2, ep2));
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// The predecessors (by un-moves within the table) of a position, as indices.
pub fn predecessors(l: &Layout, stm: u8, sq: &[u8; MAX_MEN], ep: usize, out: &mut Vec<usize>) {
    out.clear();
    let o = stm ^ 1; // who made the last move
    let s = stm;
    let men = l.men(sq);
    let occ = men.occ();
    let emit = |psq: &[u8; MAX_MEN], out: &mut Vec<usize>| {
        let pm = l.men(psq);
        let pocc = pm.occ();
        if attacked(&pm, pm.king(s), o, pocc, usize::MAX) {
            return;
        }
        out.push(l.index(o, psq, usize::MAX));
        // ... or the same with `s` having just made a double step, takeable now
        let r4 = if s == WHITE { 3 } else { 4 };
        for j in 2..l.n {
            if l.color[j] == s && l.role[j] == PAWN && rank(psq[j]) == r4 && l.ep_valid(&pm, o, j) {
                out.push(l.index(o, psq, j));
            }
        }
    };
    if ep != usize::MAX {
        let mut p = *sq;
        p[ep] = if o == WHITE { sq[ep] - 16 } else { sq[ep] + 16 };
        emit(&p, out);
    } else {
        let t = tables();
        for i in 0..l.n {
            if l.color[i] != o {
                continue;
            }
            let from = sq[i];
            let mut p = *sq;
            match l.role[i] {
                KING | KNIGHT => {
                    let mut set = if l.role[i] == KING {
                        t.king[from as usize]
                    } else {
                        t.knight[from as usize]
                    } & !occ;
                    while set != 0 {
                        p[i] = set.trailing_zeros() as u8;
                        set &= set - 1;
                        emit(&p, out);
                    }
                }
                ROOK | BISHOP | QUEEN => {
                    let r = l.role[i];
                    for (k, d) in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()).enumerate() {
                        if (k < 4 && r == BISHOP) || (k >= 4 && r == ROOK) {
                            continue;
                        }
                        let mut x = from;
                        while let Some(y) = step(x, *d) {
                            if occ & bit(y) != 0 {
                                break;
                            }
                            p[i] = y;
                            emit(&p, out);
                            x = y;
                        }
                    }
                }
                PAWN => {
                    let (back, r4): (i8, u8) = if o == WHITE { (-8, 3) } else { (8, 4) };
                    let b1 = (from as i8 + back) as u8;
                    if (1..=6).contains(&rank(b1)) && occ & bit(b1) == 0 {
                        p[i] = b1;
                        emit(&p, out);
                        if rank(from) == r4 {
                            let b2 = (b1 as i8 + back) as u8;
                            if occ & bit(b2) == 0 && !ep_capturable(&men, i, o) {
                                p[i] = b2;
                                emit(&p, out);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out.sort_unstable();
    out.dedup();
}

struct Gen<'a> {
    l: &'a Layout,
    metric: Metric,
    store: &'a Store,
    val: Vec<AtomicU8>,
    cnt: Vec<AtomicU8>,
    max_byte: AtomicU8,
    too_deep: AtomicBool,
    anomalies: AtomicU64,
    error: std::sync::Mutex<Option<TablebaseError>>,
}

impl Gen<'_> {
    fn raise(&self, b: u8) {
        if b >= ILLEGAL - 1 {
            self.too_deep.store(true, Relaxed);
        }
        self.max_byte.fetch_max(b, Relaxed);
    }

    fn fail(&self, e: TablebaseError) {
        let mut g = self.error.lock().unwrap();
        if g.is_none() {
            *g = Some(e);
        }
    }

    fn init(&self, idx: usize, buf: &mut Vec<RawMove>, kids: &mut Vec<usize>) {
        let l = self.l;
        let Some((stm, sq, ep)) = l.decode(idx) else {
            self.val[idx].store(ILLEGAL, Relaxed);
            return;
        };
        if !l.valid(idx, stm, &sq, ep) {
            self.val[idx].store(ILLEGAL, Relaxed);
            return;
        }
        kids.clear();
        let mut best: Option<Val> = None;
        let r = children(
            l,
            self.metric,
            self.store,
            stm,
            &sq,
            ep,
            buf,
            |c, _| match c {
                Child::In(i) => kids.push(i),
                Child::Out(v) => {
                    let v = v.before();
                    if best.is_none_or(|b| v.rank() > b.rank()) {
                        best = Some(v);
                    }
                }
            },
        );
        let n = match r {
            Ok(n) => n,
            Err(e) => return self.fail(e),
        };
        let v = if n == 0 {
            if in_check(&l.men(&sq), stm) {
                Some(Val::Loss(0))
            } else {
                Some(Val::Draw)
            }
        } else if kids.is_empty() {
            best
        } else {
            kids.sort_unstable();
            kids.dedup();
            self.cnt[idx].store(kids.len().min(255) as u8, Relaxed);
            // a win through a capture or promotion stands until a shorter one appears
            best.filter(|b| b.is_win())
        };
        if let Some(v) = v {
            self.val[idx].store(v.byte(), Relaxed);
            self.raise(v.byte());
        }
    }

    fn set_win(&self, p: usize, d: u8) {
        let w = Val::Win(d).byte();
        let mut cur = self.val[p].load(Relaxed);
        loop {
            let better = match Val::of_byte(cur) {
                None => {
                    self.anomalies.fetch_add(1, Relaxed);
                    return;
                }
                Some(Val::Draw) => true,
                Some(Val::Win(x)) => x > d,
                Some(Val::Loss(_)) => false,
            };
            if !better {
                return;
            }
            match self.val[p].compare_exchange(cur, w, Relaxed, Relaxed) {
                Ok(_) => {
                    self.raise(w);
                    return;
                }
                Err(now) => cur = now,
            }
        }
    }

    /// All moves of `p` checked forward at level `d`: a loss if every one reaches a final win.
    fn try_loss(&self, p: usize, d: u8, buf: &mut Vec<RawMove>) {
        let l = self.l;
        let Some((stm, sq, ep)) = l.decode(p) else {
            return;
        };
        let mut longest = 0u8;
        let mut all = true;
        let r = children(l, self.metric, self.store, stm, &sq, ep, buf, |c, _| {
            let v = match c {
                Child::In(i) => match Val::of_byte(self.val[i].load(Relaxed)) {
                    Some(Val::Win(w)) if w <= d => Some(w),
                    _ => None,
                },
                Child::Out(Val::Win(w)) => Some(w),
                Child::Out(_) => None,
            };
            match v {
                Some(w) => longest = longest.max(w),
                None => all = false,
            }
        });
        if let Err(e) = r {
            return self.fail(e);
        }
        if all {
            let b = Val::Loss(longest + 1).byte();
            if self.val[p].compare_exchange(0, b, Relaxed, Relaxed).is_ok() {
                self.raise(b);
            }
        }
    }

    fn propagate(&self, x: usize, d: u8, buf: &mut Vec<RawMove>, preds: &mut Vec<usize>) {
        let l = self.l;
        let Some((stm, sq, ep)) = l.decode(x) else {
            return;
        };
        predecessors(l, stm, &sq, ep, preds);
        if d.is_multiple_of(2) {
            for &p in preds.iter() {
                self.set_win(p, d + 1);
            }
        } else {
            for &p in preds.iter() {
                match self.val[p].load(Relaxed) {
                    0 => {}
                    ILLEGAL => {
                        self.anomalies.fetch_add(1, Relaxed);
                        continue;
                    }
                    _ => continue,
                }
                let before = self.cnt[p].fetch_sub(1, Relaxed);
                if before == 1 {
                    self.try_loss(p, d, buf);
                } else if before == 0 {
                    self.cnt[p].store(0, Relaxed);
                    self.anomalies.fetch_add(1, Relaxed);
                }
            }
        }
    }
}

/// A bar for one pass over a table's `n` indices, on stderr when `shown` and stderr is a
/// terminal (hidden otherwise: logs and pipes get the one line [`Store::table`] prints).
fn progress_bar(shown: bool, n: usize, name: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !shown || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(n as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{name}: {{bar:30}} {{percent:>3}}% {{msg}}, {{elapsed}}"
    )) {
        bar.set_style(style);
    }
    bar
}

/// Build the table of `l` (its sub-endings must be in `store`).
pub fn generate(l: &Layout, metric: Metric, store: &Store) -> Result<Vec<u8>, TablebaseError> {
    let n = l.size();
    let g = Gen {
        l,
        metric,
        store,
        val: (0..n).map(|_| AtomicU8::new(0)).collect(),
        cnt: (0..n).map(|_| AtomicU8::new(0)).collect(),
        max_byte: AtomicU8::new(0),
        too_deep: AtomicBool::new(false),
        anomalies: AtomicU64::new(0),
        error: std::sync::Mutex::new(None),
    };
    let bar = progress_bar(store.verbose, n, &l.name);
    bar.set_message("every position and its moves");
    par_for(n, |r| {
        let mut buf = Vec::with_capacity(64);
        let mut kids = Vec::with_capacity(64);
        let len = r.len() as u64;
        for idx in r {
            g.init(idx, &mut buf, &mut kids);
        }
        bar.inc(len);
    });
    if let Some(e) = g.error.lock().unwrap().take() {
        return Err(e);
    }
    let mut level = 1u8; // the byte of a loss in 0
    while level <= g.max_byte.load(Relaxed) && level < ILLEGAL {
        let d = level - 1;
        bar.set_position(0);
        bar.set_message(format!("back from the positions {d} plies from the end"));
        par_for(n, |r| {
            let mut buf = Vec::with_capacity(64);
            let mut preds = Vec::with_capacity(128);
            let len = r.len() as u64;
            bar.inc(len);
            for idx in r {
                if g.val[idx].load(Relaxed) == level {
                    g.propagate(idx, d, &mut buf, &mut preds);
                }
            }
        });
        if let Some(e) = g.error.lock().unwrap().take() {
            return Err(e);
        }
        level += 1;
    }
    bar.finish_and_clear();
    if g.too_deep.load(Relaxed) {
        return Err(TablebaseError::TooDeep {
            name: l.name.clone(),
        });
    }
    let anomalies = g.anomalies.load(Relaxed);
    if anomalies > 0 {
        // never seen; verify() would name the positions
        eprintln!("warning: {}: {anomalies} generator anomalies", l.name);
    }
    Ok(g.val.into_iter().map(|a| a.into_inner()).collect())
}

/// A position whose stored value is not what its moves give.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub fen: String,
    pub stored: Option<Val>,
    pub computed: Option<Val>,
}

/// The proof over every index: illegal exactly where the index names no canonical legal
/// position; otherwise the stored value equals the best of its successors' (a win in n has a
/// move into a loss in n−1 and none into a shorter loss; a loss in n has only moves into wins,
/// the longest n−1; a draw has no move into a loss and one into a draw, or is stalemate).
/// Returns (positions checked, the first mismatches).
pub fn verify(
    l: &Layout,
    metric: Metric,
    store: &Store,
    data: &[u8],
) -> Result<(u64, Vec<Mismatch>), TablebaseError> {
    let checked = AtomicU64::new(0);
    let bad = std::sync::Mutex::new(Vec::new());
    let error = std::sync::Mutex::new(None);
    par_for(data.len(), |r| {
        let mut buf = Vec::with_capacity(64);
        for idx in r {
            let stored = Val::of_byte(data[idx]);
            let pos = l.decode(idx).filter(|(s, q, e)| l.valid(idx, *s, q, *e));
            let computed = match pos {
                None => None,
                Some((stm, sq, ep)) => {
                    checked.fetch_add(1, Relaxed);
                    let mut best: Option<Val> = None;
                    let mut broken = false;
                    let r = children(l, metric, store, stm, &sq, ep, &mut buf, |c, _| {
                        let v = match c {
                            Child::In(i) => Val::of_byte(data[i]),
                            Child::Out(v) => Some(v),
                        };
                        match v {
                            Some(v) => {
                                let v = v.before();
                                if best.is_none_or(|b| v.rank() > b.rank()) {
                                    best = Some(v);
                                }
                            }
                            None => broken = true,
                        }
                    });
                    match r {
                        Ok(0) => Some(if in_check(&l.men(&sq), stm) {
                            Val::Loss(0)
                        } else {
                            Val::Draw
                        }),
                        Ok(_) if broken => None,
                        Ok(_) => best,
                        Err(e) => {
                            *error.lock().unwrap() = Some(e);
                            return;
                        }
                    }
                }
            };
            if stored != computed || (pos.is_some() && computed.is_none()) {
                let mut b = bad.lock().unwrap();
                if b.len() < 20 {
                    let fen = match pos {
                        Some((stm, sq, ep)) => fen(&l.men(&sq), stm, ep_target(l, &sq, ep)),
                        None => format!("(index {idx})"),
                    };
                    b.push(Mismatch {
                        fen,
                        stored,
                        computed,
                    });
                }
            }
        }
    });
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    Ok((checked.into_inner(), bad.into_inner().unwrap()))
}

/// The FEN en-passant target of a position with a pawn in slot `ep` just double-stepped.
pub fn ep_target(l: &Layout, sq: &[u8; MAX_MEN], ep: usize) -> Option<u8> {
    (ep != usize::MAX).then(|| {
        if l.color[ep] == WHITE {
            sq[ep] - 8
        } else {
            sq[ep] + 8
        }
    })
}

/// Counts per outcome and the longest wins.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// [side to move][win, draw, loss]: positions (each counted once, up to symmetry).
    pub counts: [[u64; 3]; 2],
    /// Longest win (plies) per side to move, and an example.
    pub longest: [(u8, String); 2],
}

pub fn stats(l: &Layout, data: &[u8]) -> Stats {
    let mut s = Stats::default();
    for (idx, &b) in data.iter().enumerate() {
        let Some(v) = Val::of_byte(b) else { continue };
        let side = idx / l.per_side;
        let k = match v {
            Val::Win(_) => 0,
            Val::Draw => 1,
            Val::Loss(_) => 2,
        };
        s.counts[side][k] += 1;
        if let Val::Win(d) = v {
            if d > s.longest[side].0 || s.longest[side].1.is_empty() {
                let (stm, sq, ep) = l.decode(idx).expect("a stored position decodes");
                s.longest[side] = (d, fen(&l.men(&sq), stm, ep_target(l, &sq, ep)));
            }
        }
    }
    s
}
