//! Atomic features (Lüscher §3.1): one 32-bit vector per man, computed from the position.
//!
//! Every vector shares the paper's first 17 bits (its king table, with the unused bit 8 and
//! bit 15 given to the king as attacker and defender):
//!
//! | bit | meaning |
//! |---|---|
//! | 0 | the man's side has more material (P 1, N 3, B 3, R 5, Q 9) |
//! | 1 | the man's side has less material |
//! | 2, 3 | attacked by at least 1, at least 2 enemy pawns (thermometer) |
//! | 4 | attacked by an enemy knight |
//! | 5 | attacked by an enemy bishop |
//! | 6 | attacked by an enemy rook |
//! | 7 | attacked by an enemy queen |
//! | 8 | attacked by the enemy king (never set for a king) |
//! | 9, 10 | covered (defended) by at least 1, at least 2 own pawns |
//! | 11 | covered by an own knight |
//! | 12 | covered by an own bishop |
//! | 13 | covered by an own rook |
//! | 14 | covered by an own queen |
//! | 15 | covered by the own king (never set for a king) |
//! | 16 | it is the opponent's turn |
//!
//! Bits 17–31 depend on the man's type; they are listed at [`king`], [`rook`], [`bishop`],
//! [`knight`] and [`pawn`]. Distances are thermometer-coded: bit "≥ n" is set for every n up
//! to the distance, so a configuration can say "at least" or, with a missing bit, "less than".
//! Every feature is invariant under the board symmetries the tablebase index uses (the eight
//! for pawnless endings, the left–right mirror with pawns); pawn features are taken from the
//! pawn's own side, so White and Black share one set of configurations.

use crate::tablebase::men::*;

/// Chebyshev (king-move) distance.
pub fn cheb(a: u8, b: u8) -> u8 {
    let df = (file(a) as i8 - file(b) as i8).unsigned_abs();
    let dr = (rank(a) as i8 - rank(b) as i8).unsigned_abs();
    df.max(dr)
}

/// Manhattan distance.
pub fn manh(a: u8, b: u8) -> u8 {
    (file(a) as i8 - file(b) as i8).unsigned_abs() + (rank(a) as i8 - rank(b) as i8).unsigned_abs()
}

/// Squares to the nearest edge: 0 on the edge, 3 on the four centre squares.
pub fn edge_dist(s: u8) -> u8 {
    let f = file(s).min(7 - file(s));
    let r = rank(s).min(7 - rank(s));
    f.min(r)
}

/// Manhattan distance to the nearest corner (0..6).
pub fn corner_dist(s: u8) -> u8 {
    [0u8, 7, 56, 63]
        .iter()
        .map(|&c| manh(s, c))
        .min()
        .unwrap_or(0)
}

/// Light square (h1 is light).
pub fn light(s: u8) -> bool {
    (file(s) + rank(s)) % 2 == 1
}

/// Set bits `first..` thermometer-style: bit first+j when `value >= thresholds[j]`.
fn thermo(v: &mut u32, first: u32, value: u32, thresholds: &[u32]) {
    for (j, &t) in thresholds.iter().enumerate() {
        if value >= t {
            *v |= 1 << (first + j as u32);
        }
    }
}

fn value(role: u8) -> i32 {
    match role {
        PAWN => 1,
        KNIGHT | BISHOP => 3,
        ROOK => 5,
        QUEEN => 9,
        _ => 0,
    }
}

/// Material of each colour (kings count 0).
pub fn material(men: &Men) -> [i32; 2] {
    let mut m = [0; 2];
    for i in 0..men.n {
        m[men.color[i] as usize] += value(men.role[i]);
    }
    m
}

/// Which features to leave out (for comparing with and without a feature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Leave out the bishop's bits 29–31 (the defending king's distance to a corner of the
    /// bishop's colour), the feature the paper's KBNK evaluation lacked.
    pub no_corner: bool,
}

/// The 32-bit feature vector of man `i` with `stm` to move.
pub fn vector(men: &Men, i: usize, stm: u8, opt: Options) -> u32 {
    let occ = men.occ();
    let me = men.color[i];
    let s = men.sq[i];
    let mut v = 0u32;
    let mat = material(men);
    let (mine, theirs) = (mat[me as usize], mat[(me ^ 1) as usize]);
    if mine > theirs {
        v |= 1;
    }
    if mine < theirs {
        v |= 2;
    }
    let mut pawns_att = 0u32;
    let mut pawns_cov = 0u32;
    for j in 0..men.n {
        if j == i || !attacks(men.role[j], men.color[j], men.sq[j], s, occ) {
            continue;
        }
        let enemy = men.color[j] != me;
        match men.role[j] {
            PAWN if enemy => pawns_att += 1,
            PAWN => pawns_cov += 1,
            r => {
                let b = match r {
                    KNIGHT => 4,
                    BISHOP => 5,
                    ROOK => 6,
                    QUEEN => 7,
                    _ => 8,
                };
                v |= 1 << if enemy { b } else { b + 7 };
            }
        }
    }
    thermo(&mut v, 2, pawns_att, &[1, 2]);
    thermo(&mut v, 9, pawns_cov, &[1, 2]);
    if stm != me {
        v |= 1 << 16;
    }
    v | match men.role[i] {
        KING => king(men, i),
        ROOK | QUEEN => rook(men, i),
        BISHOP => bishop(men, i, opt),
        KNIGHT => knight(men, i),
        _ => pawn(men, i, stm),
    }
}

/// Squares next to the enemy king that the man on `i` attacks (through `occ` without that king).
fn king_zone_hits(men: &Men, i: usize) -> u32 {
    let ek = men.king(men.color[i] ^ 1);
    let occ = men.occ() & !bit(ek);
    let zone = tables().king[ek as usize];
    (0..64u8)
        .filter(|&t| zone & bit(t) != 0 && attacks(men.role[i], men.color[i], men.sq[i], t, occ))
        .count() as u32
}

/// King, bits 17–31:
///
/// | bit | meaning |
/// |---|---|
/// | 17–20 | Manhattan distance to the nearest corner ≥ 1, 2, 3, 4 |
/// | 21–25 | distance (king moves) to the enemy king ≥ 3, 4, 5, 6, 7 |
/// | 26 | opposition: the kings two squares apart on a file or rank |
/// | 27 | on the edge |
/// | 28, 29 | distance to the nearest edge ≥ 2, ≥ 3 (the centre) |
/// | 30, 31 | safe flight squares (not occupied by an own man, not attacked) ≤ 3, ≤ 1 |
pub fn king(men: &Men, i: usize) -> u32 {
    let s = men.sq[i];
    let me = men.color[i];
    let ek = men.king(me ^ 1);
    let mut v = 0;
    thermo(&mut v, 17, corner_dist(s) as u32, &[1, 2, 3, 4]);
    thermo(&mut v, 21, cheb(s, ek) as u32, &[3, 4, 5, 6, 7]);
    let (df, dr) = (
        (file(s) as i8 - file(ek) as i8).abs(),
        (rank(s) as i8 - rank(ek) as i8).abs(),
    );
    if (df == 2 && dr == 0) || (df == 0 && dr == 2) {
        v |= 1 << 26;
    }
    let e = edge_dist(s) as u32;
    if e == 0 {
        v |= 1 << 27;
    }
    thermo(&mut v, 28, e, &[2, 3]);
    let occ_wo = men.occ() & !bit(s);
    let mut own = 0u64;
    for j in 0..men.n {
        if men.color[j] == me {
            own |= bit(men.sq[j]);
        }
    }
    let mut flights = 0u32;
    let zone = tables().king[s as usize] & !own;
    for t in 0..64u8 {
        if zone & bit(t) == 0 {
            continue;
        }
        // a man standing on t is taken: it no longer attacks
        let hit = (0..men.n).any(|j| {
            men.color[j] != me
                && men.sq[j] != t
                && attacks(men.role[j], men.color[j], men.sq[j], t, occ_wo)
        });
        if !hit {
            flights += 1;
        }
    }
    if flights <= 3 {
        v |= 1 << 30;
    }
    if flights <= 1 {
        v |= 1 << 31;
    }
    v
}

/// Rook (and queen), bits 17–31. "The box" is the rectangle of squares the enemy king may
/// reach without crossing the rook's file or rank (the whole width when it stands on them).
///
/// | bit | meaning |
/// |---|---|
/// | 17 | on the enemy king's file or rank |
/// | 18 | the enemy king is cut off: the rook's file (or rank) lies strictly between the kings' |
/// | 19 | the rook's file or rank is next to the enemy king's |
/// | 20–23 | the box holds ≤ 35, ≤ 20, ≤ 12, ≤ 6 squares |
/// | 24–26 | distance to the enemy king ≥ 2, 3, 5 |
/// | 27–29 | distance to the own king ≥ 2, 3, 5 |
/// | 30 | on the edge |
/// | 31 | the own king is inside the enemy king's box (same side of both rook lines) |
pub fn rook(men: &Men, i: usize) -> u32 {
    let s = men.sq[i];
    let me = men.color[i];
    let ek = men.king(me ^ 1);
    let ok = men.king(me);
    let mut v = 0;
    let (rf, rr) = (file(s) as i32, rank(s) as i32);
    let (ef, er) = (file(ek) as i32, rank(ek) as i32);
    let (of, or) = (file(ok) as i32, rank(ok) as i32);
    if rf == ef || rr == er {
        v |= 1 << 17;
    }
    let between = |r: i32, a: i32, b: i32| (a < r && r < b) || (b < r && r < a);
    if between(rf, ef, of) || between(rr, er, or) {
        v |= 1 << 18;
    }
    if (rf - ef).abs() == 1 || (rr - er).abs() == 1 {
        v |= 1 << 19;
    }
    let side = |r: i32, e: i32| -> i32 {
        if e < r {
            r
        } else if e > r {
            7 - r
        } else {
            8
        }
    };
    let area = side(rf, ef) * side(rr, er);
    for (j, t) in [35, 20, 12, 6].iter().enumerate() {
        if area <= *t {
            v |= 1 << (20 + j);
        }
    }
    thermo(&mut v, 24, cheb(s, ek) as u32, &[2, 3, 5]);
    thermo(&mut v, 27, cheb(s, ok) as u32, &[2, 3, 5]);
    if edge_dist(s) == 0 {
        v |= 1 << 30;
    }
    let same = |r: i32, a: i32, b: i32| (a - r).signum() == (b - r).signum();
    if same(rf, ef, of) && same(rr, er, or) {
        v |= 1 << 31;
    }
    v
}

/// Bishop, bits 17–31:
///
/// | bit | meaning |
/// |---|---|
/// | 17 | the enemy king stands on the bishop's colour |
/// | 18 | another own bishop or knight is on the board, its bishop on the other colour or a knight |
/// | 19–21 | distance to the enemy king ≥ 2, 3, 5 |
/// | 22–24 | distance to the own king ≥ 2, 3, 5 |
/// | 25, 26 | attacks ≥ 1, ≥ 2 squares next to the enemy king |
/// | 27 | on the edge |
/// | 28 | on a long diagonal |
/// | 29–31 | the enemy king's distance (king moves) to the nearest corner of the bishop's colour ≤ 4, ≤ 2, ≤ 1 (left out with `--no-corner`) |
pub fn bishop(men: &Men, i: usize, opt: Options) -> u32 {
    let s = men.sq[i];
    let me = men.color[i];
    let ek = men.king(me ^ 1);
    let ok = men.king(me);
    let mut v = 0;
    if light(ek) == light(s) {
        v |= 1 << 17;
    }
    if (0..men.n).any(|j| {
        j != i
            && men.color[j] == me
            && (men.role[j] == KNIGHT || (men.role[j] == BISHOP && light(men.sq[j]) != light(s)))
    }) {
        v |= 1 << 18;
    }
    thermo(&mut v, 19, cheb(s, ek) as u32, &[2, 3, 5]);
    thermo(&mut v, 22, cheb(s, ok) as u32, &[2, 3, 5]);
    thermo(&mut v, 25, king_zone_hits(men, i), &[1, 2]);
    if edge_dist(s) == 0 {
        v |= 1 << 27;
    }
    if file(s) == rank(s) || file(s) + rank(s) == 7 {
        v |= 1 << 28;
    }
    if !opt.no_corner {
        let d = [0u8, 7, 56, 63]
            .iter()
            .filter(|&&c| light(c) == light(s))
            .map(|&c| cheb(ek, c))
            .min()
            .unwrap_or(7);
        for (j, t) in [4, 2, 1].iter().enumerate() {
            if d <= *t {
                v |= 1 << (29 + j);
            }
        }
    }
    v
}

/// Knight, bits 17–31:
///
/// | bit | meaning |
/// |---|---|
/// | 17–19 | distance to the enemy king ≥ 2, 3, 5 |
/// | 20–22 | distance to the own king ≥ 2, 3, 5 |
/// | 23, 24 | attacks ≥ 1, ≥ 2 squares next to the enemy king |
/// | 25 | on the edge |
/// | 26 | ≤ 4 knight moves from its square |
/// | 27 | on the enemy king's colour (it can give check next move only if not) |
/// | 28–30 | distance to the nearest edge ≥ 1, 2, 3 |
/// | 31 | an own bishop is on the board |
pub fn knight(men: &Men, i: usize) -> u32 {
    let s = men.sq[i];
    let me = men.color[i];
    let ek = men.king(me ^ 1);
    let ok = men.king(me);
    let mut v = 0;
    thermo(&mut v, 17, cheb(s, ek) as u32, &[2, 3, 5]);
    thermo(&mut v, 20, cheb(s, ok) as u32, &[2, 3, 5]);
    thermo(&mut v, 23, king_zone_hits(men, i), &[1, 2]);
    let e = edge_dist(s) as u32;
    if e == 0 {
        v |= 1 << 25;
    }
    if tables().knight[s as usize].count_ones() <= 4 {
        v |= 1 << 26;
    }
    if light(s) == light(ek) {
        v |= 1 << 27;
    }
    thermo(&mut v, 28, e, &[1, 2, 3]);
    if (0..men.n).any(|j| men.color[j] == me && men.role[j] == BISHOP) {
        v |= 1 << 31;
    }
    v
}

/// Pawn, bits 17–31, seen from the pawn's own side ("ahead" is towards its promotion):
///
/// | bit | meaning |
/// |---|---|
/// | 17–21 | relative rank ≥ 3, 4, 5, 6, 7 |
/// | 22 | passed: no enemy pawn ahead on its own or a neighbouring file |
/// | 23 | the enemy king is inside the pawn's square (the rule of the square, the move counted) |
/// | 24 | the own king is next to the pawn |
/// | 25 | the own king is ahead of the pawn on its file or a neighbouring one |
/// | 26 | the enemy king is ahead of the pawn on its file |
/// | 27 | blocked: the square ahead is occupied |
/// | 28 | rook's pawn (a or h file) |
/// | 29 | an own pawn on a neighbouring file (connected or a phalanx) |
/// | 30 | an own pawn on the same file (doubled) |
/// | 31 | an enemy pawn on a neighbouring file ahead (they can meet) |
pub fn pawn(men: &Men, i: usize, stm: u8) -> u32 {
    let s = men.sq[i];
    let me = men.color[i];
    let ek = men.king(me ^ 1);
    let ok = men.king(me);
    // relative rank 0..7 and "ahead" in relative terms
    let rel = |x: u8| if me == WHITE { rank(x) } else { 7 - rank(x) };
    let r = rel(s);
    let f = file(s) as i8;
    let mut v = 0;
    thermo(&mut v, 17, r as u32 + 1, &[3, 4, 5, 6, 7]);
    let mut passed = true;
    let mut facing = false;
    let mut blocked = false;
    let ahead = if me == WHITE { s + 8 } else { s - 8 };
    for j in 0..men.n {
        if j == i {
            continue;
        }
        let t = men.sq[j];
        let df = (file(t) as i8 - f).abs();
        if t == ahead {
            blocked = true;
        }
        if men.role[j] == PAWN {
            if men.color[j] != me {
                if df <= 1 && rel(t) > r {
                    passed = false;
                }
                if df == 1 && rel(t) > r {
                    facing = true;
                }
            } else {
                if df == 1 {
                    v |= 1 << 29;
                }
                if df == 0 {
                    v |= 1 << 30;
                }
            }
        }
    }
    if passed {
        v |= 1 << 22;
    }
    // rule of the square: promotion square, distance counted with the move
    let promo = if me == WHITE { 56 + file(s) } else { file(s) };
    let steps = (7 - r).min(if r == 1 { 5 } else { 6 }) as i32; // a double step from the start
    let kd = cheb(ek, promo) as i32 - if stm != me { 1 } else { 0 };
    if kd <= steps {
        v |= 1 << 23;
    }
    if cheb(ok, s) == 1 {
        v |= 1 << 24;
    }
    if rel(ok) > r && (file(ok) as i8 - f).abs() <= 1 {
        v |= 1 << 25;
    }
    if rel(ek) > r && file(ek) as i8 == f {
        v |= 1 << 26;
    }
    if blocked {
        v |= 1 << 27;
    }
    if f == 0 || f == 7 {
        v |= 1 << 28;
    }
    if facing {
        v |= 1 << 31;
    }
    v
}
