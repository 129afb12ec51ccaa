//! Flag bits and the lookup tables the ALU uses, generated at compile time.
//!
//! ```text
//!  bit  7   6   5   4   3   2    1   0
//!       S   Z   Y   H   X   P/V  N   C
//! ```
//! X and Y (bits 3 and 5) are undocumented copies of result bits, kept exactly.

pub const C: u8 = 0x01;
pub const N: u8 = 0x02;
pub const PV: u8 = 0x04;
pub const X: u8 = 0x08;
pub const H: u8 = 0x10;
pub const Y: u8 = 0x20;
pub const Z: u8 = 0x40;
pub const S: u8 = 0x80;
pub const XY: u8 = X | Y;

const fn build(parity: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let v = i as u8;
        let mut f = v & (S | XY);
        if v == 0 {
            f |= Z;
        }
        if parity && v.count_ones().is_multiple_of(2) {
            f |= PV;
        }
        t[i] = f;
        i += 1;
    }
    t
}

// Constants, not statics: a `pub static` is reached through the GOT in a PIE build (one more
// dependent load before each flag lookup, in every handler); a constant indexed at run time
// is promoted to a local allocation that the code addresses PC-relative.
/// S, Z, Y, X of a result.
pub const SZ53: [u8; 256] = build(false);
/// S, Z, Y, X and even parity (P/V) of a result.
pub const SZ53P: [u8; 256] = build(true);

/// P/V set when `v` has even parity.
#[inline(always)]
pub fn parity(v: u8) -> u8 {
    SZ53P[v as usize] & PV
}
