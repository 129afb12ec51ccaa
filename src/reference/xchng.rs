//! XCHNG and NEXTAD, the exchange evaluator of the Spracklens' BYTE article (Listing 1), as a
//! plain Rust model written from a clean reading of that listing and from how the published 1978
//! program uses it, not from the Z80 code. It keeps the listing's register-level behaviour: the
//! values NEXTAD returns, the side parity, 8-bit wrapping arithmetic on the residue, and the Z
//! flag that doubles as "none left".
//!
//! The input is the 14-byte attacker array (Table 1: for each side a count, then the P, N, B, R,
//! Q and K bytes, two 4-bit values per byte, the low nibble used first) and the piece on the
//! square (bit 7 colour, bits 2-0 type). Its owner is the defender. The result is the exchange
//! residue: the points the owner loses, `0 <= residue <= its value` on a well-formed array.
//!
//! `doubled` is the 1978 program: every value (the piece at stake and each value NEXTAD
//! returns) is doubled, so the residue counts half-pawns.

use crate::chess::{Attackers, Piece};

/// Piece values by type (0 empty, 1 P, 2 N, 3 B, 4 R, 5 Q, 6 K), article units.
pub const PVALUE: [u8; 7] = [0, 1, 3, 3, 5, 9, 10];

/// How one iteration of the XC10 loop went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// No recapturer: the piece is lost (`JR Z,XC18`).
    Undefended,
    /// The capturer is worth no more than the piece at stake: the capture pays (`JR NC,XC19`).
    Pays,
    /// The capturer is worth more; the look-ahead (XC15) found the defenders exhausted while
    /// every recapturer so far was worth at least the capturer it met and each had a backer:
    /// the stake is won, and the exchange ends there.
    LookAhead,
    /// The capturer is worth more and the look-ahead met a recapturer worth less than the
    /// capturer (`RET C` at XC15): the capture does not pay; nothing is added.
    CheaperRecapturer,
    /// The capturer is worth more and the look-ahead ran out of backers (`RET Z` after the
    /// NEXTAD at XC15): nothing is added.
    NoBacker,
}

/// One pass of the loop from XC10.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// B: the value of the piece on the square (the points at stake).
    pub stake: u8,
    /// L: the value of the piece about to capture it.
    pub capturer: u8,
    /// The value of the first recapturer NEXTAD found (None: undefended).
    pub recapturer: Option<u8>,
    /// Pairs the look-ahead fetched after that: (next capturer, next recapturer).
    pub lookahead: Vec<(u8, Option<u8>)>,
    pub how: How,
    /// E after XC20, or None when the iteration returned before adding.
    pub residue: Option<u8>,
}

/// Why XCHNG returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// No attacker at all (`RET Z` at XC10 on entry).
    NoAttacker,
    /// After a capture was counted, nobody was left to recapture (`RET Z` after XC20).
    NoMoreDefenders,
    /// `RET C` at XC15.
    CheaperRecapturer,
    /// `RET Z` after the look-ahead's NEXTAD for a backer.
    NoBacker,
}

/// The outcome of XCHNG on one array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// E' on return.
    pub residue: u8,
    /// E' each time XC20 stores it (the residue after each counted iteration).
    pub trace: Vec<u8>,
    pub iterations: Vec<Iteration>,
    pub finish: Finish,
    /// The array as XCHNG left it (NEXTAD consumes it with RRD).
    pub array: Attackers,
    /// How many times NEXTAD was called (the side parity C').
    pub nextad_calls: u8,
}

impl Exchange {
    /// Did any iteration go through the look-ahead at XC15 (the listing's shortcut)?
    pub fn used_lookahead(&self) -> bool {
        self.iterations
            .iter()
            .any(|i| !matches!(i.how, How::Undefended | How::Pays))
    }
}

/// NEXTAD's state: both sections' counts and cursors, swapped on every call (Table 3).
struct Nextad {
    mem: Attackers,
    /// [this side's, the other side's] count and cursor (an index into `mem`).
    count: [u8; 2],
    cursor: [usize; 2],
    /// C': incremented on every call.
    parity: u8,
    doubled: bool,
}

impl Nextad {
    /// The value of the next piece of the side whose turn it is, 0 when it has none left.
    /// (The Z flag NEXTAD returns is exactly "the value is 0".)
    fn call(&mut self) -> u8 {
        self.parity = self.parity.wrapping_add(1);
        self.count.swap(0, 1);
        self.cursor.swap(0, 1);
        if self.count[0] == 0 {
            return 0;
        }
        self.count[0] -= 1;
        // INC HL; CP (HL); JR Z: skip empty bytes. A count larger than the pieces in its
        // section would walk past them (on the Z80, into whatever memory follows); the model
        // stops at the end of the array and returns 0 there.
        loop {
            self.cursor[0] += 1;
            match self.mem.bytes().get(self.cursor[0]) {
                None => {
                    self.cursor[0] -= 1;
                    return 0;
                }
                Some(&0) => continue,
                Some(_) => break,
            }
        }
        // RRD with A = 0: A takes the low nibble, the high nibble moves down.
        let byte = self.mem[self.cursor[0]];
        let mut a = byte & 0x0F;
        self.mem[self.cursor[0]] = byte >> 4;
        self.cursor[0] -= 1; // DEC HL: the same byte is looked at again next time
        if self.doubled {
            a = a.wrapping_add(a);
        }
        a
    }
}

/// XCHNG on `array` for `piece` (bit 7 colour, bits 2-0 type 0..=6).
pub fn xchng(piece: Piece, array: &Attackers, doubled: bool) -> Exchange {
    let t = piece.type_bits() as usize;
    let mut stake = PVALUE.get(t).copied().unwrap_or(0);
    if doubled {
        stake = stake.wrapping_add(stake);
    }
    // HL = the defender's section, DE = the attacker's; the first NEXTAD swaps them.
    let owner = piece.colour();
    let (def, att) = (Attackers::base(owner), Attackers::base(!owner));
    let mut nx = Nextad {
        mem: *array,
        count: [array[def], array[att]],
        cursor: [def, att],
        parity: 0,
        doubled,
    };
    let mut residue: u8 = 0;
    let mut trace = Vec::new();
    let mut iterations = Vec::new();
    let mut a = nx.call(); // the first capturer
    let finish = loop {
        // XC10
        if a == 0 {
            break Finish::NoAttacker;
        }
        let mut l = a;
        let d = nx.call();
        let mut it = Iteration {
            stake,
            capturer: l,
            recapturer: (d != 0).then_some(d),
            lookahead: Vec::new(),
            how: How::Pays,
            residue: None,
        };
        // `last`: the defender value EX AF,AF' brings back after XC20 (0 = Z: none left).
        let last;
        if d == 0 {
            it.how = How::Undefended;
            last = 0;
        } else if stake >= l {
            it.how = How::Pays;
            last = d;
        } else {
            // XC15: the capturer is worth more than its prey.
            let mut rec = d;
            let mut stop = None;
            loop {
                if rec < l {
                    stop = Some((How::CheaperRecapturer, Finish::CheaperRecapturer));
                    break;
                }
                let backer = nx.call();
                if backer == 0 {
                    it.lookahead.push((0, None));
                    stop = Some((How::NoBacker, Finish::NoBacker));
                    break;
                }
                l = backer;
                let next = nx.call();
                it.lookahead.push((backer, (next != 0).then_some(next)));
                if next == 0 {
                    break; // XC18
                }
                rec = next;
            }
            if let Some((how, finish)) = stop {
                it.how = how;
                iterations.push(it);
                break finish;
            }
            it.how = How::LookAhead;
            last = 0;
        }
        // XC19 / XC20
        let mut gain = stake;
        if nx.parity & 1 != 0 {
            gain = gain.wrapping_neg();
        }
        residue = gain.wrapping_add(residue);
        trace.push(residue);
        it.residue = Some(residue);
        iterations.push(it);
        if last == 0 {
            break Finish::NoMoreDefenders;
        }
        stake = l; // the capturer now stands on the square
        a = last; // and the recapturer becomes the capturer
    };
    Exchange {
        residue,
        trace,
        iterations,
        finish,
        array: nx.mem,
        nextad_calls: nx.parity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's Figure 4: a black knight on e4.
    const FIG4: Attackers = Attackers([3, 0, 0x33, 0x03, 0, 0, 0, 2, 1, 0, 0, 0, 9, 0]);

    #[test]
    fn figure_4() {
        let x = xchng(Piece(0x82), &FIG4, false);
        assert_eq!(x.trace, vec![3, 0, 1]);
        assert_eq!(x.residue, 1);
        assert_eq!(x.finish, Finish::NoMoreDefenders);
        assert_eq!(x.iterations[2].how, How::LookAhead);
        let y = xchng(Piece(0x82), &FIG4, true);
        assert_eq!(y.trace, vec![6, 0, 2]);
    }

    #[test]
    fn shapes() {
        // Undefended: the whole piece; no attacker: nothing.
        let a = Attackers([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(xchng(Piece(0x85), &a, false).residue, 9);
        assert_eq!(xchng(Piece(0x05), &a, false).residue, 0);
    }
}
