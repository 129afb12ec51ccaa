//! The KBNK mating procedure: the host model of the full build's KBNKEV
//! (`asm/full/kbnk.asm`, expansion ROM page 6), held to it on every KBNK position by
//! `tests/endgames/kbnk.rs`, and to our KBNK table (no claim of a win or a draw is ever wrong).
//!
//! Lüscher's fitted function calls KBNK's outcome right but its gradient does not lead to the
//! mate. This one does what the textbooks do: the bare king is driven to a corner of the
//! bishop's colour (a 64-byte gradient per bishop colour, [`GRADIENT`]), the attacking king
//! and the knight close to it, the bare king's flight squares cut by the three pieces.
//!
//! Squares are 0..63 (a1 = 0), as `tablebase::men`.

use crate::tablebase::men::{attacks, Men, BISHOP, BLACK, KING, KNIGHT, MAX_MEN, WHITE};

/// A KBNK position: the strong king, the bare king, the bishop and the knight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kbnk {
    pub sk: u8,
    pub wk: u8,
    pub b: u8,
    pub n: u8,
    pub strong_to_move: bool,
}

/// What KBNKEV says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not scored: the bare king is to move and can take a piece nothing covers. KBNKEV
    /// returns "not mine": Lüscher's module declines too and POINTS' exchange evaluator
    /// sees the loss.
    Decline,
    /// A claim: stalemate (the bare king to move, not in check, no move).
    Draw,
    /// A claim: the strong side wins; its score (the strong side's view), in the band
    /// [`KBBASE`] + the gradient (or [`KBMATE`]: mated on the board).
    Win(i32),
    /// No claim (a piece the bare king may win or a stalemate trap is near): the same
    /// score less 256 × [`Weights::unc`] (2,048), below every claimed win, so that the search keeps to claimed
    /// positions as a player keeps his pieces guarded.
    Likely(i32),
}

/// The weights (parameter block offsets A1h..A5h; [`Weights::DEFAULT`] are DEFPRM's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per unit of [`GRADIENT`] (P_KBGR).
    pub grad: i32,
    /// Per king step between the kings (P_KBKD).
    pub king: i32,
    /// Per king step from the knight to the bare king (P_KBND).
    pub knight: i32,
    /// Per flight square of the bare king (P_KBFL).
    pub flight: i32,
    /// An unclaimed position scores 256 times this less (P_KBUNC).
    pub unc: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        grad: 8,
        king: 24,
        knight: 8,
        flight: 8,
        unc: 8,
    };
}

/// A won position's base score (the engine scale: above every ordinary score, below a
/// mate's; Lüscher's wins are 16,562..24,575).
pub const KBBASE: i32 = 20_000;
/// The bare king mated on the board (to move, in check, no move): above every gradient.
pub const KBMATE: i32 = 28_000;
/// A piece at least this many king steps from the bare king is safe without cover.
pub const KBFAR: u8 = 4;

/// The gradient for a bishop on a dark square (a1 and h8 are the mating corners): 0 in the
/// centre, 90 in those corners, 20 in the other two, rising along the edges toward the
/// right corners (the shape of Stockfish's classic KBNK table, less 110). A light-squared
/// bishop reads it with the file mirrored (a8 and h1). Rank 1 first.
pub const GRADIENT: [u8; 64] = [
    90, 80, 70, 60, 50, 40, 30, 20, //
    80, 70, 60, 50, 40, 30, 20, 30, //
    70, 60, 45, 30, 30, 15, 30, 40, //
    60, 50, 30, 10, 0, 30, 40, 50, //
    50, 40, 30, 0, 10, 30, 50, 60, //
    40, 30, 15, 30, 30, 45, 60, 70, //
    30, 20, 30, 40, 50, 60, 70, 80, //
    20, 30, 40, 50, 60, 70, 80, 90, //
];

/// King steps between two squares.
pub fn cheb(a: u8, b: u8) -> u8 {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    df.max(dr)
}

/// A dark square (a1's colour).
pub fn dark(s: u8) -> bool {
    ((s & 7) + (s >> 3)).is_multiple_of(2)
}

/// The gradient's value of the bare king's square for this bishop.
pub fn gradient(b: u8, wk: u8) -> u8 {
    GRADIENT[if dark(b) { wk } else { wk ^ 7 } as usize]
}

impl Kbnk {
    fn bit(s: u8) -> u64 {
        1u64 << s
    }
    /// Does the strong side attack `s`? The bare king is transparent (it cannot hide behind
    /// itself); `skip` is a piece left out (a piece does not cover its own square).
    fn covers(&self, s: u8, skip: u8) -> bool {
        let occ = Self::bit(self.sk) | Self::bit(self.b) | Self::bit(self.n);
        (attacks(KING, 0, self.sk, s, occ))
            || (skip != KNIGHT && self.n != s && attacks(KNIGHT, 0, self.n, s, occ))
            || (skip != BISHOP && self.b != s && attacks(BISHOP, 0, self.b, s, occ))
    }

    /// Is the piece on `s` covered by the other strong men? The bare king is transparent
    /// (taking the piece opens the line behind it), so this does not depend on where it is.
    pub fn covered(&self, s: u8) -> bool {
        self.covers(s, if s == self.b { BISHOP } else { KNIGHT })
    }

    /// The bare king's flight squares (neighbours on the board that no strong man attacks;
    /// the pieces' squares are not counted).
    pub fn flights(&self) -> u8 {
        neighbours(self.wk).filter(|&s| self.flight(s)).count() as u8
    }

    /// Is `s` a flight square (neither piece's, no strong man attacking it)? The bare
    /// king's moves, when it cannot take a piece ([`Kbnk::hangs`]), are its neighbours that
    /// are flight squares.
    pub fn flight(&self, s: u8) -> bool {
        s != self.b && s != self.n && !self.covers(s, 0)
    }

    /// The position as the table's men: the strong king, the bare king, the bishop, the
    /// knight (White strong).
    pub fn men(&self) -> Men {
        let mut m = Men {
            n: 4,
            sq: [0; MAX_MEN],
            color: [0; MAX_MEN],
            role: [0; MAX_MEN],
        };
        m.sq[..4].copy_from_slice(&[self.sk, self.wk, self.b, self.n]);
        m.color[..4].copy_from_slice(&[WHITE, BLACK, WHITE, WHITE]);
        m.role[..4].copy_from_slice(&[KING, KING, BISHOP, KNIGHT]);
        m
    }

    /// Is the bare king in check?
    pub fn check(&self) -> bool {
        self.covers(self.wk, 0)
    }

    /// Can the bare king, were it to move, take a piece nothing covers?
    pub fn hangs(&self) -> bool {
        (cheb(self.wk, self.b) == 1 && !self.covered(self.b))
            || (cheb(self.wk, self.n) == 1 && !self.covered(self.n))
    }
}

/// The squares a king step from `s`, in rising order.
pub fn neighbours(s: u8) -> impl Iterator<Item = u8> {
    let (f, r) = ((s & 7) as i8, (s >> 3) as i8);
    (-1..=1i8)
        .flat_map(move |dr| (-1..=1i8).map(move |df| (f + df, r + dr)))
        .filter(move |&(g, q)| (g, q) != (f, r) && (0..8).contains(&g) && (0..8).contains(&q))
        .map(|(g, q)| (q * 8 + g) as u8)
}

/// The model of KBNKEV.
///
/// The claims were proven against our table on every KBNK position (`tests/endgames/kbnk.rs`): a
/// position is claimed won when each piece is covered by another strong man or stands at
/// least [`KBFAR`] king steps from the bare king, and the bishop is not next to it (with
/// the bishop beside a cornered king the strong side can be forced to stalemate or to
/// give the bishop up). Weaker conditions were tried and the table refuted them: the bare
/// king wins a piece the strong king is far from in two moves, or traps the pieces in a
/// corner.
pub fn eval(p: &Kbnk, w: &Weights) -> Verdict {
    if !p.strong_to_move && p.hangs() {
        return Verdict::Decline;
    }
    let fl = p.flights();
    if !p.strong_to_move && fl == 0 {
        return if p.check() {
            Verdict::Win(KBMATE)
        } else {
            Verdict::Draw
        };
    }
    let v = KBBASE + w.grad * gradient(p.b, p.wk) as i32
        - w.king * cheb(p.sk, p.wk) as i32
        - w.knight * cheb(p.n, p.wk) as i32
        - w.flight * fl as i32;
    let safe = |x: u8| p.covered(x) || cheb(p.wk, x) >= KBFAR;
    if safe(p.b) && safe(p.n) && cheb(p.wk, p.b) > 1 {
        Verdict::Win(v)
    } else {
        Verdict::Likely(v - 256 * w.unc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_the_squares_one_king_step_away_in_rising_order() {
        for s in 0..64u8 {
            let by_distance: Vec<u8> = (0..64u8).filter(|&t| cheb(s, t) == 1).collect();
            assert_eq!(neighbours(s).collect::<Vec<_>>(), by_distance, "from {s}");
        }
    }
}
