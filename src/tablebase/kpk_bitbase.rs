//! The KPK bitbase of the period's kind: one bit per position with the pawn's
//! side to move, 1 = it wins, built from our KPK table and exported as generated Z80
//! assembly (`asm/full/kpk_bitbase.asm`, expansion ROM page 4) that `asm/full/kpkbase.asm` probes.
//!
//! The pawn's side is X, the bare king's Y, and the board is seen from X's side (its pawn
//! moving up: Black's ranks mirrored) with the pawn on files a–d (files mirrored otherwise).
//! Index: ((rank − 1) × 4 + file) × 4096 + X's king × 64 + Y's king (squares a1 = 0), the pawn
//! on its 2nd–7th rank: 24 × 64 × 64 bits = 12,288 bytes, bit `index & 7` of byte `index >> 3`.
//! Illegal positions (men on one square, kings touching, Y in check) hold 0.
//!
//! With Y to move the answer is a one-ply look: X wins when Y has no move and is in check
//! (mate), or Y has moves and every one of them leads to a position the bitbase says X wins
//! (taking the pawn is a draw). [`wins`] is that model, the Z80's (`KPKBB` in
//! `asm/full/kpkbase.asm`), and the tests hold it to the table on every KPK position.

use super::men::{Men, BLACK, KING, PAWN, WHITE};
use super::store::Store;
use super::TablebaseError;

/// Bytes of the bitbase.
pub const BYTES: usize = 24 * 64 * 64 / 8;

/// Where the pawn stands (its index 0..24), from X's side with the pawn on files a–d, and the
/// two kings mirrored the same way.
pub fn normalise(xk: u8, yk: u8, pawn: u8) -> (usize, u8, u8) {
    let flip = if pawn & 7 > 3 { 7 } else { 0 };
    let p = pawn ^ flip;
    (
        ((p >> 3) as usize - 1) * 4 + (p & 7) as usize,
        xk ^ flip,
        yk ^ flip,
    )
}

/// The bit's index (X to move; squares from X's side, any file).
pub fn index(xk: u8, yk: u8, pawn: u8) -> usize {
    let (p, xk, yk) = normalise(xk, yk, pawn);
    p * 4096 + xk as usize * 64 + yk as usize
}

fn touch(a: u8, b: u8) -> bool {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    df <= 1 && dr <= 1
}

/// The pawn (X's view, moving up) attacks `s`.
fn pawn_attacks(pawn: u8, s: u8) -> bool {
    s >> 3 == (pawn >> 3) + 1 && (s & 7).abs_diff(pawn & 7) == 1
}

/// A legal placement with X to move (Y not in check).
fn legal_x_to_move(xk: u8, yk: u8, pawn: u8) -> bool {
    xk != yk && xk != pawn && yk != pawn && !touch(xk, yk) && !pawn_attacks(pawn, yk)
}

/// Build the bitbase from the KPK table (built in `store`'s folder if missing).
pub fn generate(store: &mut Store) -> Result<Vec<u8>, TablebaseError> {
    store.table("KPK")?;
    let mut bits = vec![0u8; BYTES];
    for pf in 0..4u8 {
        for pr in 1..7u8 {
            let pawn = pr * 8 + pf;
            for xk in 0..64u8 {
                for yk in 0..64u8 {
                    if !legal_x_to_move(xk, yk, pawn) {
                        continue;
                    }
                    let men = Men {
                        n: 3,
                        sq: [xk, pawn, yk, 0, 0, 0],
                        color: [WHITE, WHITE, BLACK, 0, 0, 0],
                        role: [KING, PAWN, KING, 0, 0, 0],
                    };
                    if store.value_of(&men, WHITE, usize::MAX)?.is_win() {
                        let i = index(xk, yk, pawn);
                        bits[i >> 3] |= 1 << (i & 7);
                    }
                }
            }
        }
    }
    Ok(bits)
}

/// The bit: X (to move) wins.
pub fn bit(bits: &[u8], xk: u8, yk: u8, pawn: u8) -> bool {
    let i = index(xk, yk, pawn);
    bits[i >> 3] & (1 << (i & 7)) != 0
}

/// Whether X wins, from X's side (its pawn moving up), either side to move: the bitbase, or
/// with Y to move its one-ply look. The position must be legal.
pub fn wins(bits: &[u8], xk: u8, yk: u8, pawn: u8, x_to_move: bool) -> bool {
    if x_to_move {
        return bit(bits, xk, yk, pawn);
    }
    let mut moves = 0;
    for df in -1i8..=1 {
        for dr in -1i8..=1 {
            if df == 0 && dr == 0 {
                continue;
            }
            let (f, r) = ((yk & 7) as i8 + df, (yk >> 3) as i8 + dr);
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                continue;
            }
            let to = (r * 8 + f) as u8;
            if touch(to, xk) || pawn_attacks(pawn, to) {
                continue;
            }
            moves += 1;
            if to == pawn || !bit(bits, xk, to, pawn) {
                return false;
            }
        }
    }
    // no move: mated by the pawn's check, else stalemate
    moves > 0 || pawn_attacks(pawn, yk)
}

/// The table's verdict for X (the pawn's side), from X's side, for comparing with [`wins`].
pub fn table_wins(
    store: &Store,
    xk: u8,
    yk: u8,
    pawn: u8,
    x_to_move: bool,
) -> Result<bool, TablebaseError> {
    let men = Men {
        n: 3,
        sq: [xk, pawn, yk, 0, 0, 0],
        color: [WHITE, WHITE, BLACK, 0, 0, 0],
        role: [KING, PAWN, KING, 0, 0, 0],
    };
    let v = store.value_of(&men, if x_to_move { WHITE } else { BLACK }, usize::MAX)?;
    Ok(if x_to_move { v.is_win() } else { v.is_loss() })
}

/// Every legal KPK position from X's side (pawn moving up, any file): (X's king, Y's king,
/// pawn, X to move).
pub fn positions() -> impl Iterator<Item = (u8, u8, u8, bool)> {
    (8..56u8).flat_map(|pawn| {
        (0..64u8).flat_map(move |xk| {
            (0..64u8).flat_map(move |yk| {
                [true, false].into_iter().filter_map(move |xtm| {
                    let ok = xk != yk
                        && xk != pawn
                        && yk != pawn
                        && !touch(xk, yk)
                        && (!xtm || !pawn_attacks(pawn, yk));
                    ok.then_some((xk, yk, pawn, xtm))
                })
            })
        })
    })
}

/// The generated assembly: a header, the page and `KPKBIT`, 32 bytes a line.
pub fn asm_text(bits: &[u8]) -> String {
    let ones: u32 = bits.iter().map(|b| b.count_ones()).sum();
    let mut s = format!(
        "; ===========================================================================\n\
         ; kpk_bitbase.asm: GENERATED by `z80chess tablebase kpk-bitbase` from our KPK\n\
         ; table (src/tablebase/kpk_bitbase.rs says the layout). Do not edit.\n\
         ; The KPK bitbase: a bit per position with the pawn's side (X) to\n\
         ; move, 1 = X wins; from X's side, the pawn on files a-d; bit (index & 7) of\n\
         ; byte (index >> 3), index = ((rank - 1) * 4 + file) * 4096 + X's king * 64\n\
         ; + Y's king (a1 = 0). {BYTES} bytes, {ones} positions won.\n\
         ; ===========================================================================\n\n\
         \x20       PAGE    4\n\
         \x20       ORG     8000h\n\
         KPKBIT:\n"
    );
    for line in bits.chunks(32) {
        let hex: Vec<String> = line.iter().map(|b| format!("0{b:02X}h")).collect();
        s.push_str("        DB      ");
        s.push_str(&hex.join(","));
        s.push('\n');
    }
    s.push_str("KPKBEND:\n        ENDPAGE\n");
    s
}

fn king_steps(a: u8, b: u8) -> i32 {
    let df = (a & 7).abs_diff(b & 7);
    let dr = (a >> 3).abs_diff(b >> 3);
    df.max(dr) as i32
}

/// The progress a won position scores for X (`KBPROG` in `asm/full/kpkbase.asm`): 32 per rank the
/// pawn has advanced, less 8 per king step from X's king to the pawn's nearest key square
/// (two in front; one in front from the 6th rank), plus 2 per step from Y's king to the pawn.
/// Squares from X's side (a mirrored file changes nothing).
pub fn progress(xk: u8, yk: u8, pawn: u8) -> i32 {
    let key = if pawn + 16 < 56 { pawn + 16 } else { pawn + 8 };
    32 * (pawn >> 3) as i32 - 8 * king_steps(xk, key) + 2 * king_steps(yk, pawn)
}

/// The score `KPKEV` gives a position (X's view): `base + progress` when X wins (`base` =
/// P_RACE + P_PAWN), 0 for a draw.
pub fn score(bits: &[u8], base: i32, xk: u8, yk: u8, pawn: u8, x_to_move: bool) -> i32 {
    if wins(bits, xk, yk, pawn, x_to_move) {
        base + progress(xk, yk, pawn)
    } else {
        0
    }
}
