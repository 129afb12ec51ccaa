//! Names of endings and the index of a table: which man sits in which slot, and how a
//! position becomes one number.
//!
//! Slot 0 is the white king, slot 1 the black king, then White's men and Black's men in the
//! order Q R B N P. "White" is the side written first in the name (the stronger one); a
//! position with the colours the other way round is looked up with the board turned over.
//!
//! Index = side to move × positions per side + king pair × Π(codes of the other men):
//! - without pawns the white king is brought into the triangle a1–d1–d4 by the 8 symmetries
//!   of the board (10 squares × 64 for the black king); with pawns only the left–right mirror
//!   applies (white king on files a–d: 32 × 64);
//! - a piece's code is its square (64); a pawn's code (56) is its square on ranks 2–7 (48
//!   codes) or one of 8 codes for "on its fourth rank, having just made its double step, and
//!   takeable en passant", so en passant is part of the position, not a side table.
//!
//! Each position has exactly one index: an index is valid only if it is the canonical index
//! of the position it decodes to (men of one kind in ascending code order, and with the
//! white king on the long diagonal the smaller of the two mirror images); every other index
//! holds [`ILLEGAL`](super::ILLEGAL). One byte per index.

use super::men::*;
use super::TablebaseError;
use crate::chess::PieceType;

/// Men count limits.
pub const MAX_NAME_MEN: usize = 5;

/// The triangle a1-d1-d4: index -> square.
pub const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

fn triangle_index(s: u8) -> Option<usize> {
    TRIANGLE.iter().position(|&t| t == s)
}

fn role_char(r: u8) -> char {
    PieceType::from_bits(r).map_or('?', |t| t.char().to_ascii_uppercase())
}

fn role_of_char(c: char) -> Option<u8> {
    Some(match c {
        'P' => PAWN,
        'N' => KNIGHT,
        'B' => BISHOP,
        'R' => ROOK,
        'Q' => QUEEN,
        _ => return None,
    })
}

/// The canonical name of a material balance; `true` when its first side is Black's men
/// (the position must be turned over to be looked up).
pub fn canonical(white: &[u8], black: &[u8]) -> (String, bool) {
    let mut w = white.to_vec();
    let mut b = black.to_vec();
    w.sort_unstable_by(|a, b| b.cmp(a));
    b.sort_unstable_by(|a, b| b.cmp(a));
    // stronger first: more men, then the stronger men in order
    let swap = (b.len(), &b) > (w.len(), &w);
    let (first, second) = if swap { (&b, &w) } else { (&w, &b) };
    let name = format!(
        "K{}K{}",
        first.iter().map(|&r| role_char(r)).collect::<String>(),
        second.iter().map(|&r| role_char(r)).collect::<String>()
    );
    (name, swap)
}

/// The layout of one table.
#[derive(Clone, Debug)]
pub struct Layout {
    pub name: String,
    /// Men including the kings.
    pub n: usize,
    pub color: [u8; MAX_MEN],
    pub role: [u8; MAX_MEN],
    pub pawns: bool,
    /// Code count of each slot from 2.
    pub dims: [usize; MAX_MEN],
    /// Stride of each slot from 2; the king pair's stride is `kstride`.
    pub stride: [usize; MAX_MEN],
    pub kstride: usize,
    pub per_side: usize,
    /// Material key (see [`material_key`]).
    pub key: u64,
}

/// Material as a number: per colour, the count of each role in 4 bits.
pub fn material_key(white: &[u8], black: &[u8]) -> u64 {
    let mut k = 0u64;
    for &r in white {
        k += 1 << (4 * (r as u64 - 1));
    }
    for &r in black {
        k += 1 << (32 + 4 * (r as u64 - 1));
    }
    k
}

impl Layout {
    /// Parse a name such as "KRKP" (case-insensitive).
    pub fn parse(name: &str) -> Result<Layout, TablebaseError> {
        let bad = |why: &str| TablebaseError::BadName {
            name: name.to_string(),
            why: why.to_string(),
        };
        let up = name.trim().to_ascii_uppercase();
        let rest = up
            .strip_prefix('K')
            .ok_or_else(|| bad("it must start with K (the first king)"))?;
        let (a, b) = rest
            .split_once('K')
            .ok_or_else(|| bad("it needs a second K (the other king)"))?;
        let side = |s: &str| -> Result<Vec<u8>, TablebaseError> {
            s.chars()
                .map(|c| {
                    role_of_char(c).ok_or_else(|| {
                        bad(&format!(
                            "'{c}' is not a man (Q, R, B, N or P after each K)"
                        ))
                    })
                })
                .collect()
        };
        let white = side(a)?;
        let black = side(b)?;
        let men = 2 + white.len() + black.len();
        if men > MAX_NAME_MEN {
            return Err(bad(&format!(
                "{men} men; the tables hold at most {MAX_NAME_MEN}"
            )));
        }
        if white.is_empty() && black.is_empty() {
            return Err(bad("two bare kings: nothing to tabulate (always a draw)"));
        }
        let (canon, swap) = canonical(&white, &black);
        let (w, b) = if swap { (black, white) } else { (white, black) };
        let mut w = w;
        let mut b = b;
        w.sort_unstable_by(|x, y| y.cmp(x));
        b.sort_unstable_by(|x, y| y.cmp(x));
        Ok(Layout::new(canon, &w, &b))
    }

    fn new(name: String, white: &[u8], black: &[u8]) -> Layout {
        let mut l = Layout {
            name,
            n: 2 + white.len() + black.len(),
            color: [0; MAX_MEN],
            role: [0; MAX_MEN],
            pawns: white.contains(&PAWN) || black.contains(&PAWN),
            dims: [0; MAX_MEN],
            stride: [0; MAX_MEN],
            kstride: 0,
            per_side: 0,
            key: material_key(white, black),
        };
        l.color[0] = WHITE;
        l.role[0] = KING;
        l.color[1] = BLACK;
        l.role[1] = KING;
        for (i, &r) in white.iter().enumerate() {
            l.color[2 + i] = WHITE;
            l.role[2 + i] = r;
        }
        for (i, &r) in black.iter().enumerate() {
            l.color[2 + white.len() + i] = BLACK;
            l.role[2 + white.len() + i] = r;
        }
        let mut s = 1usize;
        for i in (2..l.n).rev() {
            l.dims[i] = if l.role[i] == PAWN { 56 } else { 64 };
            l.stride[i] = s;
            s *= l.dims[i];
        }
        l.kstride = s;
        l.per_side = s * if l.pawns { 32 * 64 } else { 10 * 64 };
        l
    }

    /// Index entries (both sides to move).
    pub fn size(&self) -> usize {
        2 * self.per_side
    }

    /// The men of a position of this table (slots as above).
    pub fn men(&self, sq: &[u8; MAX_MEN]) -> Men {
        Men {
            n: self.n,
            sq: *sq,
            color: self.color,
            role: self.role,
        }
    }

    /// Every material balance one capture or promotion away (canonical names), for `dtm`
    /// (promotions lead to other tables) or the pawn metric (a promotion ends the game).
    pub fn sub_endings(&self, promotions: bool) -> Vec<String> {
        let white: Vec<u8> = (2..self.n)
            .filter(|&i| self.color[i] == WHITE)
            .map(|i| self.role[i])
            .collect();
        let black: Vec<u8> = (2..self.n)
            .filter(|&i| self.color[i] == BLACK)
            .map(|i| self.role[i])
            .collect();
        let mut out = Vec::new();
        let mut add = |w: &[u8], b: &[u8]| {
            if !(w.is_empty() && b.is_empty()) {
                let (n, _) = canonical(w, b);
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        };
        let remove = |v: &[u8], k: usize| -> Vec<u8> {
            let mut v = v.to_vec();
            v.remove(k);
            v
        };
        for (mine, theirs, white_side) in [(&white, &black, true), (&black, &white, false)] {
            // a capture of one of `theirs`
            for k in 0..theirs.len() {
                let t = remove(theirs, k);
                if white_side {
                    add(mine, &t)
                } else {
                    add(&t, mine)
                }
            }
            if !promotions {
                continue;
            }
            for k in 0..mine.len() {
                if mine[k] != PAWN {
                    continue;
                }
                for p in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    let mut m = remove(mine, k);
                    m.push(p);
                    // plain promotion, or taking a piece on the last rank
                    let mut options = vec![theirs.to_vec()];
                    for j in 0..theirs.len() {
                        if theirs[j] != PAWN {
                            options.push(remove(theirs, j));
                        }
                    }
                    for t in options {
                        if white_side {
                            add(&m, &t)
                        } else {
                            add(&t, &m)
                        }
                    }
                }
            }
        }
        out
    }

    /// The code of a man of slot `i` on square `s` (`ep`: it has just made its double step).
    #[inline]
    fn code(&self, i: usize, s: u8, ep: bool) -> usize {
        if self.role[i] == PAWN {
            if ep {
                48 + file(s) as usize
            } else {
                s as usize - 8
            }
        } else {
            s as usize
        }
    }

    /// The index of a position as it stands (no symmetry applied), with men of one kind put
    /// in ascending code order. `map` transforms each square first.
    #[inline]
    fn index_mapped(
        &self,
        stm: u8,
        sq: &[u8; MAX_MEN],
        ep: usize,
        map: impl Fn(u8) -> u8,
    ) -> usize {
        let wk = map(sq[0]);
        let bk = map(sq[1]);
        let k = if self.pawns {
            (rank(wk) as usize * 4 + file(wk) as usize) * 64 + bk as usize
        } else {
            triangle_index(wk).unwrap_or(0) * 64 + bk as usize
        };
        let mut codes = [0usize; MAX_MEN];
        for i in 2..self.n {
            codes[i] = self.code(i, map(sq[i]), i == ep);
        }
        // men of one kind: ascending codes
        let mut i = 2;
        while i < self.n {
            let mut j = i + 1;
            while j < self.n && self.role[j] == self.role[i] && self.color[j] == self.color[i] {
                j += 1;
            }
            if j - i > 1 {
                codes[i..j].sort_unstable();
            }
            i = j;
        }
        let mut idx = stm as usize * self.per_side + k * self.kstride;
        for (c, s) in codes[2..self.n].iter().zip(&self.stride[2..self.n]) {
            idx += c * s;
        }
        idx
    }

    /// The one index of a position: `sq` by slot, `ep` the slot of a pawn that has just made
    /// a takeable double step (or `usize::MAX`).
    #[inline]
    pub fn index(&self, stm: u8, sq: &[u8; MAX_MEN], ep: usize) -> usize {
        let wk = sq[0];
        if self.pawns {
            if file(wk) > 3 {
                self.index_mapped(stm, sq, ep, |s| s ^ 7)
            } else {
                self.index_mapped(stm, sq, ep, |s| s)
            }
        } else {
            let ff = if file(wk) > 3 { 7 } else { 0 };
            let rf = if rank(wk) > 3 { 56 } else { 0 };
            let w = wk ^ ff ^ rf;
            let tr = rank(w) > file(w);
            let t = move |s: u8| {
                let s = s ^ ff ^ rf;
                if tr {
                    transpose(s)
                } else {
                    s
                }
            };
            let a = self.index_mapped(stm, sq, ep, t);
            if rank(w) == file(w) {
                let b = self.index_mapped(stm, sq, ep, move |s| transpose(t(s)));
                a.min(b)
            } else {
                a
            }
        }
    }

    /// The position an index names, before any check of validity: (side to move, squares,
    /// en-passant slot), or `None` when two men would share a square or two pawns claim the
    /// en-passant code.
    #[inline]
    pub fn decode(&self, idx: usize) -> Option<(u8, [u8; MAX_MEN], usize)> {
        let stm = (idx / self.per_side) as u8;
        let mut rem = idx % self.per_side;
        let mut sq = [0u8; MAX_MEN];
        let mut ep = usize::MAX;
        for i in (2..self.n).rev() {
            let c = rem % self.dims[i];
            rem /= self.dims[i];
            sq[i] = if self.role[i] == PAWN {
                if c >= 48 {
                    if ep != usize::MAX {
                        return None;
                    }
                    ep = i;
                    (if self.color[i] == WHITE { 24 } else { 32 }) + (c as u8 - 48)
                } else {
                    c as u8 + 8
                }
            } else {
                c as u8
            };
        }
        let bk = (rem % 64) as u8;
        let w = rem / 64;
        let wk = if self.pawns {
            ((w / 4) * 8 + w % 4) as u8
        } else {
            TRIANGLE[w]
        };
        sq[0] = wk;
        sq[1] = bk;
        let mut occ = 0u64;
        for &s in &sq[..self.n] {
            if occ & bit(s) != 0 {
                return None;
            }
            occ |= bit(s);
        }
        Some((stm, sq, ep))
    }

    /// Is the decoded position a legal one, and this its canonical index?
    pub fn valid(&self, idx: usize, stm: u8, sq: &[u8; MAX_MEN], ep: usize) -> bool {
        if self.index(stm, sq, ep) != idx {
            return false;
        }
        let men = self.men(sq);
        // the side not to move is not in check (kings apart included)
        let them = stm ^ 1;
        let k = men.king(them);
        if attacked(&men, k, stm, men.occ(), usize::MAX) {
            return false;
        }
        if ep != usize::MAX && !self.ep_valid(&men, stm, ep) {
            return false;
        }
        true
    }

    /// Can the pawn in slot `ep` (of the side not to move) have just made its double step,
    /// and can it be taken en passant now?
    pub fn ep_valid(&self, men: &Men, stm: u8, ep: usize) -> bool {
        let mover = stm ^ 1;
        if self.color[ep] != mover {
            return false;
        }
        let s = men.sq[ep];
        let (mid, start) = if mover == WHITE {
            (s - 8, s - 16)
        } else {
            (s + 8, s + 16)
        };
        let occ = men.occ();
        if occ & (bit(mid) | bit(start)) != 0 {
            return false;
        }
        // before the step the side now to move was not in check
        let mut before = *men;
        before.sq[ep] = start;
        let k = before.king(stm);
        let occ_b = (occ & !bit(s)) | bit(start);
        if attacked(&before, k, mover, occ_b, usize::MAX) {
            return false;
        }
        ep_capturable(men, ep, mover)
    }
}

pub fn transpose(s: u8) -> u8 {
    ((s & 7) << 3) | (s >> 3)
}
