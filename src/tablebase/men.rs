//! The tablebase's own board: at most six men on a bare 8×8 board (no castling), and the
//! attack and move rules the generator needs in its inner loops. Checked against shakmaty's
//! move generator in `tests/endgames/tablebase.rs`.
//!
//! Its numbers are the chess vocabulary's (`crate::chess`), in the compact forms the inner
//! loops index arrays with: a square is [`Square::index`] (a1 = 0 .. h8 = 63), a colour
//! [`Colour::index`] (White 0, Black 1), a role the type bits of the board byte
//! ([`PieceType::bits`], pawn 1 .. king 6).

pub use crate::chess::piece::types::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::chess::{Colour, PieceType, Square};

pub const WHITE: u8 = Colour::White.index() as u8;
pub const BLACK: u8 = Colour::Black.index() as u8;
/// The most men a table holds.
pub const MAX_MEN: usize = 6;

pub fn file(s: u8) -> u8 {
    s & 7
}
pub fn rank(s: u8) -> u8 {
    s >> 3
}
pub fn bit(s: u8) -> u64 {
    1u64 << s
}

const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

pub fn step(s: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let f = file(s) as i8 + df;
    let r = rank(s) as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as u8)
    } else {
        None
    }
}

/// Precomputed attack sets.
pub struct Tables {
    pub king: [u64; 64],
    pub knight: [u64; 64],
    pub rook: [u64; 64],
    pub bishop: [u64; 64],
    /// Squares strictly between two squares on a line (0 when not on a line).
    pub between: Vec<[u64; 64]>,
}

fn build_tables() -> Tables {
    let mut t = Tables {
        king: [0; 64],
        knight: [0; 64],
        rook: [0; 64],
        bishop: [0; 64],
        between: vec![[0; 64]; 64],
    };
    for s in 0..64u8 {
        for d in KING_STEPS {
            if let Some(x) = step(s, d) {
                t.king[s as usize] |= bit(x);
            }
        }
        for d in KNIGHT_STEPS {
            if let Some(x) = step(s, d) {
                t.knight[s as usize] |= bit(x);
            }
        }
        for (dirs, set) in [(ROOK_DIRS, 0), (BISHOP_DIRS, 1)] {
            for d in dirs {
                let mut path = 0u64;
                let mut x = s;
                while let Some(y) = step(x, d) {
                    if set == 0 {
                        t.rook[s as usize] |= bit(y);
                    } else {
                        t.bishop[s as usize] |= bit(y);
                    }
                    t.between[s as usize][y as usize] = path;
                    path |= bit(y);
                    x = y;
                }
            }
        }
    }
    t
}

pub fn tables() -> &'static Tables {
    static T: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    T.get_or_init(build_tables)
}

/// Men on the board: kings first is not required here; `n` of them are present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Men {
    pub n: usize,
    pub sq: [u8; MAX_MEN],
    pub color: [u8; MAX_MEN],
    pub role: [u8; MAX_MEN],
}

impl Men {
    pub fn occ(&self) -> u64 {
        self.sq[..self.n].iter().fold(0, |o, &s| o | bit(s))
    }
    pub fn at(&self, s: u8) -> Option<usize> {
        self.sq[..self.n].iter().position(|&x| x == s)
    }
    pub fn king(&self, c: u8) -> u8 {
        for i in 0..self.n {
            if self.role[i] == KING && self.color[i] == c {
                return self.sq[i];
            }
        }
        64
    }
    /// Remove man `i` (a capture).
    pub fn remove(&mut self, i: usize) {
        for j in i..self.n - 1 {
            self.sq[j] = self.sq[j + 1];
            self.color[j] = self.color[j + 1];
            self.role[j] = self.role[j + 1];
        }
        self.n -= 1;
    }
}

/// Does a man of `role`/`color` on `from` attack `to` with occupancy `occ`?
#[inline]
pub fn attacks(role: u8, color: u8, from: u8, to: u8, occ: u64) -> bool {
    let t = tables();
    let (f, s) = (from as usize, to as usize);
    match role {
        KING => t.king[f] & bit(to) != 0,
        KNIGHT => t.knight[f] & bit(to) != 0,
        ROOK => t.rook[f] & bit(to) != 0 && t.between[f][s] & occ == 0,
        BISHOP => t.bishop[f] & bit(to) != 0 && t.between[f][s] & occ == 0,
        QUEEN => (t.rook[f] | t.bishop[f]) & bit(to) != 0 && t.between[f][s] & occ == 0,
        PAWN => {
            let df = file(to) as i8 - file(from) as i8;
            let dr = rank(to) as i8 - rank(from) as i8;
            df.abs() == 1 && dr == if color == WHITE { 1 } else { -1 }
        }
        _ => false,
    }
}

/// Is square `s` attacked by a man of colour `by` (men with index `skip` ignored)?
#[inline]
pub fn attacked(men: &Men, s: u8, by: u8, occ: u64, skip: usize) -> bool {
    (0..men.n).any(|i| {
        i != skip && men.color[i] == by && attacks(men.role[i], men.color[i], men.sq[i], s, occ)
    })
}

/// Is the king of colour `c` in check?
pub fn in_check(men: &Men, c: u8) -> bool {
    let k = men.king(c);
    k < 64 && attacked(men, k, c ^ 1, men.occ(), usize::MAX)
}

/// A pseudo-move: man `i` to `to`; `capture` the index of the man taken (`usize::MAX` none);
/// `promo` the new role (0 none); `ep`: an en-passant capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawMove {
    pub i: usize,
    pub to: u8,
    pub capture: usize,
    pub promo: u8,
    pub double: bool,
}

/// The pieces a pawn promotes to, in the order moves are listed.
const PROMOTIONS: [u8; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

/// Every legal move of colour `stm`. `ep_pawn`: index of the enemy pawn that has just made a
/// double step (it may be taken en passant), or `usize::MAX`.
pub fn legal_moves(men: &Men, stm: u8, ep_pawn: usize, out: &mut Vec<RawMove>) {
    out.clear();
    let occ = men.occ();
    let mut own = 0u64;
    for i in 0..men.n {
        if men.color[i] == stm {
            own |= bit(men.sq[i]);
        }
    }
    let push =
        |i: usize, to: u8, promo: u8, double: bool, ep_cap: usize, out: &mut Vec<RawMove>| {
            let capture = if ep_cap != usize::MAX {
                ep_cap
            } else {
                men.at(to).unwrap_or(usize::MAX)
            };
            // legality: make it on a copy of the squares and look at our king
            let mut after = *men;
            after.sq[i] = to;
            let mut occ2 = (occ & !bit(men.sq[i])) | bit(to);
            if capture != usize::MAX {
                occ2 &= !bit(men.sq[capture]);
                if ep_cap != usize::MAX {
                    occ2 &= !bit(men.sq[ep_cap]);
                }
                after.sq[capture] = 255; // gone: never matches a square
            }
            let k = if men.role[i] == KING {
                to
            } else {
                men.king(stm)
            };
            let safe = !(0..men.n).any(|j| {
                j != capture
                    && after.color[j] != stm
                    && attacks(after.role[j], after.color[j], after.sq[j], k, occ2)
            });
            if safe {
                let promos: &[u8] = if promo != 0 { &PROMOTIONS } else { &[0] };
                for p in promos {
                    out.push(RawMove {
                        i,
                        to,
                        capture,
                        promo: *p,
                        double,
                    });
                }
            }
        };
    let t = tables();
    for i in 0..men.n {
        if men.color[i] != stm {
            continue;
        }
        let from = men.sq[i];
        match men.role[i] {
            KING | KNIGHT => {
                let set = if men.role[i] == KING {
                    t.king[from as usize]
                } else {
                    t.knight[from as usize]
                } & !own;
                let mut s = set;
                while s != 0 {
                    let to = s.trailing_zeros() as u8;
                    s &= s - 1;
                    push(i, to, 0, false, usize::MAX, out);
                }
            }
            ROOK | BISHOP | QUEEN => {
                let r = men.role[i];
                for (k, d) in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()).enumerate() {
                    if (k < 4 && r == BISHOP) || (k >= 4 && r == ROOK) {
                        continue;
                    }
                    let mut x = from;
                    while let Some(y) = step(x, *d) {
                        if own & bit(y) != 0 {
                            break;
                        }
                        push(i, y, 0, false, usize::MAX, out);
                        if occ & bit(y) != 0 {
                            break;
                        }
                        x = y;
                    }
                }
            }
            PAWN => {
                let (dir, start, last): (i8, u8, u8) =
                    if stm == WHITE { (8, 1, 7) } else { (-8, 6, 0) };
                let one = (from as i8 + dir) as u8;
                if occ & bit(one) == 0 {
                    let promo = if rank(one) == last { 1 } else { 0 };
                    push(i, one, promo, false, usize::MAX, out);
                    if rank(from) == start {
                        let two = (one as i8 + dir) as u8;
                        if occ & bit(two) == 0 {
                            push(i, two, 0, true, usize::MAX, out);
                        }
                    }
                }
                for df in [-1i8, 1] {
                    let f = file(from) as i8 + df;
                    if !(0..8).contains(&f) {
                        continue;
                    }
                    let to = (one as i8 + df) as u8;
                    if let Some(j) = men.at(to) {
                        if men.color[j] != stm {
                            let promo = if rank(to) == last { 1 } else { 0 };
                            push(i, to, promo, false, usize::MAX, out);
                        }
                    } else if ep_pawn != usize::MAX && men.sq[ep_pawn] as i8 == to as i8 - dir {
                        push(i, to, 0, false, ep_pawn, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// After a double step by the pawn `i` (colour `mover`), can the other side take it en passant
/// legally? (The en-passant right of a FEN is then real.)
pub fn ep_capturable(men: &Men, i: usize, mover: u8) -> bool {
    let them = mover ^ 1;
    let ps = men.sq[i];
    let behind = if mover == WHITE { ps - 8 } else { ps + 8 };
    for j in 0..men.n {
        if men.color[j] == them
            && men.role[j] == PAWN
            && rank(men.sq[j]) == rank(ps)
            && (file(men.sq[j]) as i8 - file(ps) as i8).abs() == 1
        {
            // make the capture and look at their king
            let mut after = *men;
            after.sq[j] = behind;
            after.sq[i] = 255;
            let occ = (men.occ() & !bit(men.sq[j]) & !bit(ps)) | bit(behind);
            let k = men.king(them);
            let safe = !(0..men.n).any(|x| {
                x != i
                    && after.color[x] != them
                    && attacks(after.role[x], after.color[x], after.sq[x], k, occ)
            });
            if safe {
                return true;
            }
        }
    }
    false
}

/// Square name of a 0..64 index, e.g. "e4" (`#n` for an index off the board).
pub fn square_name(s: u8) -> String {
    Square::from_index(s).map_or_else(|| format!("#{s}"), |sq| sq.to_string())
}

/// A FEN of men, side to move and en-passant target.
pub fn fen(men: &Men, stm: u8, ep_target: Option<u8>) -> String {
    let mut board = [' '; 64];
    for i in 0..men.n {
        let c = PieceType::from_bits(men.role[i]).map_or('?', PieceType::char);
        board[men.sq[i] as usize] = if men.color[i] == WHITE {
            c.to_ascii_uppercase()
        } else {
            c
        };
    }
    let mut s = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            let c = board[r * 8 + f];
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push(c);
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if r > 0 {
            s.push('/');
        }
    }
    let ep = ep_target.map(square_name).unwrap_or_else(|| "-".into());
    format!("{s} {} - {ep} 0 1", if stm == WHITE { 'w' } else { 'b' })
}
