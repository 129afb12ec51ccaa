//! Cray Blitz's pawn races and K+P(s) against K, as the full build's RACE (`asm/full/kpend.asm`)
//! decides them: a model written from the rules below (the seed's Pawn section and the
//! textbook square and key-square rules), which the tests hold against the tablebases on
//! every KPK position and a KPKP sample, and against the Z80 on the same positions.
//!
//! Only kings and pawns are on the board. For each side X (the other is Y), X wins for
//! certain when one of these holds:
//!
//! - **Runner** (the square of the pawn): an X pawn that is passed (no Y pawn ahead on its
//!   file or a neighbour), whose path to the eighth rank is empty, and whose queening square
//!   is more than `n` king steps from Y's king, `n` being the pawn's moves to queen (a pawn on
//!   its second rank counts from the third), one more when Y is to move. When Y has pawns, X
//!   must also queen at least [`RACE_MARGIN`] plies before Y's fastest pawn could, counting
//!   that pawn's moves as if its path were free, and Y's king must not stand next to the
//!   queening square's file... (see the runner's test in `wins`).
//! - **Key square** (Y has no pawns): X's king stands on a key square of an X pawn that is
//!   not a rook pawn (the three squares two ranks in front for a pawn on its 2nd-4th rank;
//!   the six squares one and two ranks in front on the 5th and 6th), and Y, to move, cannot
//!   take that pawn (Y's king not next to it, or X's king next to it too).
//! - **Key square first** (Y has no pawns, not a rook pawn, Y cannot take the pawn at once):
//!   X's king is two king steps nearer to an empty key square than Y's king, counting the
//!   move Y has first when it is to move. (Found by holding candidate rules to the KPK table:
//!   one step is not enough, the defending king in front of the pawn takes the opposition.)
//!
//! Otherwise the routine says nothing. Squares are 0..63 (a1 = 0, h8 = 63).

/// Who wins for certain, if RACE can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    White,
    Black,
}

/// A position with only kings and pawns.
#[derive(Clone, Debug, Default)]
pub struct KpPosition {
    pub kings: [u8; 2],
    /// Pawns by colour: [White, Black].
    pub pawns: [Vec<u8>; 2],
    pub white_to_move: bool,
}

/// The lead in plies X's queening must have over Y's fastest pawn.
pub const RACE_MARGIN: i32 = 4;

fn file(s: u8) -> i32 {
    (s & 7) as i32
}

fn rank(s: u8) -> i32 {
    (s >> 3) as i32
}

fn dist(a: u8, b: u8) -> i32 {
    (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs())
}

/// A square seen from side `x` (0 White, 1 Black): Black's board is mirrored by ranks.
fn rel(s: u8, x: usize) -> u8 {
    if x == 0 {
        s
    } else {
        s ^ 56
    }
}

/// Moves a pawn on own rank `r` (1..6) needs to queen.
fn to_queen(r: i32) -> i32 {
    if r == 1 {
        5
    } else {
        7 - r
    }
}

/// Whether side `x` wins for certain by one of the rules.
fn wins(p: &KpPosition, x: usize) -> bool {
    let y = 1 - x;
    let x_to_move = p.white_to_move == (x == 0);
    // Everything in X's view: X's pawns move up the board.
    let xk = rel(p.kings[x], x);
    let yk = rel(p.kings[y], x);
    let xp: Vec<u8> = p.pawns[x].iter().map(|&s| rel(s, x)).collect();
    let yp: Vec<u8> = p.pawns[y].iter().map(|&s| rel(s, x)).collect();
    let occupied = |s: u8| xk == s || yk == s || xp.contains(&s) || yp.contains(&s);
    // Y, to move, may be stalemated: no claim then (its king has no square that is
    // empty, not next to X's king and not guarded by an X pawn; its pawns are not asked)
    if !x_to_move && !king_can_move(yk, xk, &xp, &yp) {
        return false;
    }
    // X, to move, in check by a Y pawn: a tempo lost, no claim
    let checked = yp
        .iter()
        .any(|&t| rank(t) - 1 == rank(xk) && (file(t) - file(xk)).abs() == 1);
    if x_to_move && checked {
        return false;
    }
    // Y's king beside the path of one of its pawns ("unless the other king supports its
    // pawn"): no race is claimed
    let supported = yp
        .iter()
        .any(|&t| (0..rank(t)).any(|rr| dist(yk, (rr * 8 + file(t)) as u8) <= 1));
    // Y's fastest pawn, in Y's moves (its ranks run down the board here).
    let y_fast = yp.iter().map(|&s| to_queen(7 - rank(s))).min();
    for &s in &xp {
        let (f, r) = (file(s), rank(s));
        let n = to_queen(r);
        let q = (56 + f) as u8;
        // runner
        let passed = !yp.iter().any(|&t| (file(t) - f).abs() <= 1 && rank(t) > r);
        let free = (r + 1..8).all(|rr| !occupied((rr * 8 + f) as u8));
        let reach = n + if x_to_move { 0 } else { 1 };
        // Y, to move, takes the pawn at once (when X's king does not guard it)
        let y_takes = !x_to_move && dist(yk, s) == 1 && dist(xk, s) > 1;
        if passed && free && !y_takes && dist(yk, q) > reach {
            match y_fast {
                None => return true,
                Some(_) if supported => {}
                Some(m) => {
                    // plies from now to X's queening and to Y's
                    let px = if x_to_move { 2 * n - 1 } else { 2 * n };
                    let py = if x_to_move { 2 * m } else { 2 * m - 1 };
                    if py - px >= RACE_MARGIN {
                        return true;
                    }
                }
            }
        }
        // key square
        if yp.is_empty() && f != 0 && f != 7 && key_square(xk, f, r) && !y_takes {
            return true;
        }
        // a key square reached first: X's king (moving now, or a move later when Y is to
        // move) two steps nearer to an empty key square than Y's king
        if yp.is_empty() && f != 0 && f != 7 && !y_takes {
            let late = if x_to_move { 0 } else { 1 };
            let first = (0..64u8).any(|k| {
                key_square(k, f, r)
                    && (k == xk || !occupied(k))
                    && dist(xk, k) + late + 2 <= dist(yk, k)
            });
            if first {
                return true;
            }
        }
    }
    false
}

/// Whether Y's king on `yk` has a square to go to (X's pawns move up the board).
fn king_can_move(yk: u8, xk: u8, xp: &[u8], yp: &[u8]) -> bool {
    (-1..=1).any(|df| {
        (-1..=1).any(|dr| {
            let (f, r) = (file(yk) + df, rank(yk) + dr);
            if (df, dr) == (0, 0) || !(0..8).contains(&f) || !(0..8).contains(&r) {
                return false;
            }
            let t = (r * 8 + f) as u8;
            let guarded = xp
                .iter()
                .any(|&p| rank(p) + 1 == r && (file(p) - f).abs() == 1);
            dist(t, xk) > 1 && !guarded && !xp.contains(&t) && !yp.contains(&t)
        })
    })
}

/// Whether `k` is a key square of a pawn on file `f`, own rank `r` (not a rook pawn).
fn key_square(k: u8, f: i32, r: i32) -> bool {
    let (kf, kr) = (file(k), rank(k));
    if (kf - f).abs() > 1 {
        return false;
    }
    if r <= 3 {
        kr == r + 2
    } else if r <= 5 {
        kr == r + 1 || kr == r + 2
    } else {
        false
    }
}

/// What RACE claims for a position with only kings and pawns.
pub fn race(p: &KpPosition) -> Option<Claim> {
    match (wins(p, 0), wins(p, 1)) {
        (true, false) => Some(Claim::White),
        (false, true) => Some(Claim::Black),
        _ => None,
    }
}

/// The position of a shakmaty board, if only kings and pawns are on it.
pub fn of_chess(pos: &shakmaty::Chess) -> Option<KpPosition> {
    use shakmaty::{Color, Position, Role};
    let b = pos.board();
    if (b.occupied() ^ b.kings() ^ b.pawns()).any() {
        return None;
    }
    let mut p = KpPosition {
        white_to_move: pos.turn() == Color::White,
        ..Default::default()
    };
    for (sq, piece) in b.iter() {
        let c = if piece.color == Color::White { 0 } else { 1 };
        match piece.role {
            Role::King => p.kings[c] = u8::from(sq),
            Role::Pawn => p.pawns[c].push(u8::from(sq)),
            _ => return None,
        }
    }
    Some(p)
}

/// Cray Blitz's "K+RP vs K" draw (its Miscellaneous Scoring): one side has only pawns on
/// one rook file, the other a bare king standing in the pawns' way: next to the queening
/// square (or on it) and beyond the most advanced pawn. Such a position is drawn, whoever is to
/// move (tests/endgames/race.rs holds it to the KPK table).
pub fn rook_pawn_draw(p: &KpPosition) -> bool {
    for x in 0..2 {
        let y = 1 - x;
        if p.pawns[x].is_empty() || !p.pawns[y].is_empty() {
            continue;
        }
        let xp: Vec<u8> = p.pawns[x].iter().map(|&s| rel(s, x)).collect();
        let f = file(xp[0]);
        if (f != 0 && f != 7) || xp.iter().any(|&s| file(s) != f) {
            return false;
        }
        let yk = rel(p.kings[y], x);
        let top = xp.iter().map(|&s| rank(s)).max().unwrap();
        let q = (56 + f) as u8;
        return dist(yk, q) <= 1 && rank(yk) > top;
    }
    false
}

/// K+P v K with the bare king in front (the draws End-Game's two plies lose): one
/// side has a single pawn, not on a rook file, the other a bare king on the pawn's file one
/// square in front of it (the pawn on its 2nd to 6th rank) or two (2nd to 5th). Drawn
/// whoever is to move and wherever the other king stands (tests/endgames/race.rs holds it to the KPK
/// table; the 7th-rank and two-in-front-of-the-6th cases have exceptions, so they are left out).
pub fn front_draw(p: &KpPosition) -> bool {
    for x in 0..2 {
        let y = 1 - x;
        if p.pawns[x].len() != 1 || !p.pawns[y].is_empty() {
            continue;
        }
        let s = rel(p.pawns[x][0], x);
        let f = file(s);
        if f == 0 || f == 7 {
            return false;
        }
        let yk = rel(p.kings[y], x);
        let ahead = rank(yk) - rank(s);
        return file(yk) == f && ((ahead == 1 && rank(s) <= 5) || (ahead == 2 && rank(s) <= 4));
    }
    false
}

/// Cray Blitz's "K+RP+wrong bishop vs K" draw (its Miscellaneous Scoring): one side has
/// one bishop and pawns, all on one rook file, the other a bare king next to (or on) the
/// queening square, beyond the most advanced pawn ([`rook_pawn_draw`] with the bishop left
/// out), and the bishop stands on the other colour than that square, so it can never drive the
/// king out of the corner (tests/endgames/race.rs holds it to the KBPK table).
pub fn wrong_bishop_draw(pos: &shakmaty::Chess) -> bool {
    use shakmaty::{Color, Position, Rank, Square};
    let b = pos.board();
    for x in [Color::White, Color::Black] {
        let (xs, ys) = (b.by_color(x), b.by_color(!x));
        if ys.count() != 1 || xs.count() < 3 {
            continue;
        }
        let bishops = xs & b.bishops();
        if bishops.count() != 1 || (xs & (b.knights() | b.rooks() | b.queens())).any() {
            return false;
        }
        let mut p = KpPosition {
            white_to_move: pos.turn() == Color::White,
            ..Default::default()
        };
        for c in [Color::White, Color::Black] {
            p.kings[c as usize ^ 1] = b.king_of(c).map(u8::from).unwrap_or(0);
        }
        // (shakmaty's Color: Black = 0, White = 1; ours: White 0)
        p.pawns[if x == Color::White { 0 } else { 1 }] =
            (xs & b.pawns()).into_iter().map(u8::from).collect();
        if !rook_pawn_draw(&p) {
            return false;
        }
        let file = p.pawns[if x == Color::White { 0 } else { 1 }][0] % 8;
        let q = Square::from_coords(
            shakmaty::File::new(file as u32),
            if x == Color::White {
                Rank::Eighth
            } else {
                Rank::First
            },
        );
        let bsq = bishops.first().expect("one bishop");
        return bsq.is_light() != q.is_light();
    }
    false
}
