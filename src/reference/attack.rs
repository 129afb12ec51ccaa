//! ATTACK in evaluation mode, ATKSAV, PNCK and PINFND as a plain Rust model, written from the
//! documents (the BYTE article, the published 1978 program's ATTACK and PINFND, and the filling
//! rules at the top of the ATTACK part of `asm/attack.asm`), not from the Z80 code; it imports
//! only the crate's chess vocabulary (`crate::chess`), nothing of the firmware.
//!
//! The model works on the 10×12 mailbox (a1 = 21, h8 = 98, [`Square`]) with Sargon's piece bytes
//! ([`Piece`]: bit 7 black, bits 2-0 type) and scans in the order of Sargon's direction table:
//! diagonals +9 +11 −11 −9, orthogonals +10 −10 +1 −1, knight jumps −21 −12 +8 +19 +21 +12 −8 −19.
//!
//! ATTACK, per sliding line, outward from the square:
//! - a piece of the other colour from the first one seen ends the line (x-rays pass only
//!   through a chain of same-coloured pieces);
//! - a piece that does not move along the line ends it: a queen attacks on any line, a rook on
//!   an orthogonal, a bishop on a diagonal, a king and a pawn only next to the square (a white
//!   pawn from square −9/−11, a black one from +9/+11); a knight never;
//! - an attacker is saved (ATKSAV) and the scan goes on behind it, except behind a king;
//! - once a queen is seen on the line, every later attacker on it goes to the queen byte.
//!
//! Then one knight jump each way. Pinned pieces (PNCK) are not saved, but the scan goes on
//! behind them (PNCK returns into ATTACK as ATKSAV would), and a pinned queen still sets the
//! queen flag.
//!
//! Where the documents are silent, the model's choice is written down at that spot.

use super::xchng::PVALUE;
use crate::chess::attackers::{high as hi, low as lo};
use crate::chess::{piece, Attackers, Colour, Piece, PieceType, Square};
use shakmaty::{Board, Color, Role};

/// Off the board in the mailbox.
pub const OFF: u8 = piece::OFF;
const BLACK: u8 = Piece::BLACK;
use crate::chess::piece::types::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// The sliding lines in Sargon's order: 4 diagonals, then 4 orthogonals.
pub const LINES: [i8; 8] = [9, 11, -11, -9, 10, -10, 1, -1];
/// The knight jumps in Sargon's order.
pub const JUMPS: [i8; 8] = [-21, -12, 8, 19, 21, 12, -8, -19];

/// Which ATKSAV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filling {
    /// The article: a later attacker of a type goes in with RLD (new one low, earlier one up);
    /// a piece behind the queen goes in her high nibble, then into the king byte with RLD.
    Article,
    /// The 1978 program: low if free, else high; a third one spills into the king byte with RLD.
    B1978,
}

/// The board as Sargon's mailbox: 120 bytes, 0 empty, FFh off the board, otherwise colour|type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mailbox(pub [u8; 120]);

/// Sargon's type number of a role (the index into [`PVALUE`]).
pub fn type_of(role: Role) -> u8 {
    PieceType::from(role).bits()
}

/// A piece byte (colour|type) of a shakmaty piece.
pub fn piece_byte(color: Color, role: Role) -> Piece {
    Piece::new(color.into(), role.into())
}

impl Mailbox {
    pub fn from_board(board: &Board) -> Mailbox {
        let mut m = [OFF; 120];
        for rank in 0..8 {
            for file in 0..8 {
                m[21 + 10 * rank + file] = 0;
            }
        }
        for (sq, p) in board.iter() {
            m[Square::from(sq).mailbox() as usize] = Piece::from(p).byte();
        }
        Mailbox(m)
    }

    pub fn at(&self, i: u8) -> u8 {
        self.0[i as usize]
    }
}

/// One pin-list entry: the pinned piece's square and the line's step from the king or queen
/// outward (towards the pinner).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin {
    pub square: Square,
    pub dir: i8,
}

/// POSK and POSQ: the squares PINFND starts from (0 = none), [White, Black].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Royals {
    pub kings: [u8; 2],
    pub queens: [u8; 2],
}

impl Royals {
    /// As the firmware's set-up leaves them (`asm/board.asm`, ROYALT): the king of each colour,
    /// and the last queen of each colour met scanning a1, b1, .., h8 (0 if none).
    pub fn after_setup(m: &Mailbox) -> Royals {
        let mut r = Royals {
            kings: [0; 2],
            queens: [0; 2],
        };
        for i in 21..=98u8 {
            let p = m.at(i);
            if p == OFF || p == 0 {
                continue;
            }
            let side = (p & BLACK != 0) as usize;
            match p & 7 {
                KING => r.kings[side] = i,
                QUEEN => r.queens[side] = i,
                _ => {}
            }
        }
        r
    }
}

/// Where ATKSAV put one attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    /// Counted; `index` is the ATKLST byte (0..14) and `high` the nibble.
    Slot { index: usize, high: bool },
    /// No room: ignored, not counted.
    Lost,
    /// PNCK refused it: pinned along another line, or pinned twice.
    Pinned,
}

/// One attacker ATTACK found, in the order it found them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub square: Square,
    pub piece: Piece,
    /// The step from the attacked square towards it (the line, or the knight jump).
    pub dir: i8,
    /// It attacks through a queen on its line.
    pub behind_queen: bool,
    pub placed: Placed,
}

/// ATKLST and how it was filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attack {
    pub atklst: Attackers,
    pub found: Vec<Found>,
}

/// PNCK: may the piece on `square` attack along `dir`, given the pins?
pub fn pnck(pins: &[Pin], square: Square, dir: i8) -> bool {
    let mut entries = pins.iter().filter(|p| p.square == square);
    match (entries.next(), entries.next()) {
        (None, _) => true,
        (Some(p), None) => p.dir == dir || p.dir == -dir,
        (Some(_), Some(_)) => false, // pinned twice
    }
}

/// RLD with A = v: the new value low, the low nibble up (the high one leaves).
fn rld(b: &mut u8, v: u8) {
    *b = (*b << 4) | (v & 0x0F);
}

/// ATKSAV: add the attacker on `square` to its side's section.
fn atksav(
    m: &Mailbox,
    atk: &mut Attackers,
    pins: &[Pin],
    filling: Filling,
    square: Square,
    dir: i8,
    behind_queen: bool,
) -> Placed {
    if !pins.is_empty() && !pnck(pins, square, dir) {
        return Placed::Pinned;
    }
    let p = m.at(square.mailbox());
    let t = p & 7;
    let v = PVALUE[t as usize];
    let base = Attackers::base(Colour::of_byte(p));
    let slot = base + if behind_queen { QUEEN } else { t } as usize;
    let king = base + KING as usize;
    let placed = match filling {
        Filling::B1978 => {
            if lo(atk[slot]) == 0 {
                atk[slot] |= v;
                Placed::Slot {
                    index: slot,
                    high: false,
                }
            } else if hi(atk[slot]) == 0 {
                atk[slot] |= v << 4;
                Placed::Slot {
                    index: slot,
                    high: true,
                }
            } else if hi(atk[king]) == 0 {
                // The spill enters the king byte low, pushing what was there (the king) up.
                rld(&mut atk[king], v);
                Placed::Slot {
                    index: king,
                    high: false,
                }
            } else {
                Placed::Lost
            }
        }
        Filling::Article if behind_queen => {
            if lo(atk[slot]) == 0 {
                // The documents put a piece behind the queen in her high nibble. When she is not
                // in the array (pinned off this line), a value in the high nibble of an empty
                // byte would reach NEXTAD as 0 ("none left"); the first value of a byte is the
                // low one (Table 1), so the model puts it low.
                atk[slot] |= v;
                Placed::Slot {
                    index: slot,
                    high: false,
                }
            } else if hi(atk[slot]) == 0 {
                atk[slot] |= v << 4;
                Placed::Slot {
                    index: slot,
                    high: true,
                }
            } else if hi(atk[king]) == 0 {
                rld(&mut atk[king], v);
                Placed::Slot {
                    index: king,
                    high: false,
                }
            } else {
                Placed::Lost
            }
        }
        Filling::Article if t == KING => {
            // Table 1 / asm doc: the king byte is [ K | spill ]: the king low when alone,
            // behind (high) a piece that spilled there first.
            if atk[slot] == 0 {
                atk[slot] = v;
                Placed::Slot {
                    index: slot,
                    high: false,
                }
            } else if hi(atk[slot]) == 0 {
                atk[slot] |= v << 4;
                Placed::Slot {
                    index: slot,
                    high: true,
                }
            } else {
                Placed::Lost
            }
        }
        Filling::Article => {
            if atk[slot] == 0 {
                atk[slot] = v;
                Placed::Slot {
                    index: slot,
                    high: false,
                }
            } else if hi(atk[slot]) == 0 {
                rld(&mut atk[slot], v); // the new one low, the earlier one up
                Placed::Slot {
                    index: slot,
                    high: false,
                }
            } else {
                Placed::Lost // a table overflow: the excess piece is ignored
            }
        }
    };
    if placed != Placed::Pinned && placed != Placed::Lost {
        atk[base] += 1;
    }
    placed
}

/// The queen flag ATKSAV files an attacker by. The 1978 listing reads it after PNCK has loaded
/// the line's step into the same register, so while any pin is listed it is the sign of the
/// step from the attacked square (a knight's jump too): an attacker below or left of the square
/// goes into the queen's byte, as the listing does.
fn queen_flag(filling: Filling, pins: &[Pin], dir: i8, queen: bool) -> bool {
    match filling {
        Filling::B1978 if !pins.is_empty() => dir < 0,
        _ => queen,
    }
}

/// ATTACK in evaluation mode: every attacker of `square`, of both colours, given the pin list.
pub fn attack(m: &Mailbox, square: Square, pins: &[Pin], filling: Filling) -> Attack {
    let mut atk = Attackers::default();
    let mut found = Vec::new();
    for (k, &dir) in LINES.iter().enumerate() {
        let diagonal = k < 4;
        let mut first: Option<u8> = None; // colour of the first piece seen
        let mut queen = false;
        let mut at = square.mailbox();
        let mut dist = 0;
        loop {
            at = (at as i16 + dir as i16) as u8;
            dist += 1;
            let p = m.at(at);
            if p == 0 {
                continue;
            }
            // OFF is the border: the line ends there.
            let (false, Some(sq)) = (p == OFF, Square::from_mailbox(at)) else {
                break;
            };
            let colour = p & BLACK;
            if first.is_some_and(|c| c != colour) {
                break;
            }
            first = Some(colour);
            let t = p & 7;
            let attacks = match t {
                QUEEN => true,
                ROOK => !diagonal,
                BISHOP => diagonal,
                KING => dist == 1,
                // A white pawn attacks from below (a negative step from the square), a black
                // one from above.
                PAWN => dist == 1 && diagonal && ((colour == BLACK) == (dir > 0)),
                _ => false,
            };
            if !attacks {
                break;
            }
            let behind_queen = queen_flag(filling, pins, dir, queen);
            let placed = atksav(m, &mut atk, pins, filling, sq, dir, behind_queen);
            found.push(Found {
                square: sq,
                piece: Piece(p),
                dir,
                behind_queen,
                placed,
            });
            if t == QUEEN {
                queen = true;
            }
            if t == KING {
                break;
            }
        }
    }
    for &dir in &JUMPS {
        let at = (square.mailbox() as i16 + dir as i16) as u8;
        let p = m.at(at);
        if let (false, KNIGHT, Some(sq)) = (p == OFF, p & 7, Square::from_mailbox(at)) {
            let behind_queen = queen_flag(filling, pins, dir, false);
            let placed = atksav(m, &mut atk, pins, filling, sq, dir, behind_queen);
            found.push(Found {
                square: sq,
                piece: Piece(p),
                dir,
                behind_queen,
                placed,
            });
        }
    }
    Attack { atklst: atk, found }
}

/// PINFND: the pin list, from the kings and queens in `royals` (White's king, Black's king,
/// White's queen, Black's queen), each of the 8 lines in order.
pub fn pinfnd(m: &Mailbox, royals: &Royals, filling: Filling) -> Vec<Pin> {
    let mut pins: Vec<Pin> = Vec::new();
    let starts = [
        royals.kings[0],
        royals.kings[1],
        royals.queens[0],
        royals.queens[1],
    ];
    for &from in &starts {
        if from == 0 {
            continue;
        }
        let royal = m.at(from);
        let rt = royal & 7;
        if royal == OFF || (rt != KING && rt != QUEEN) {
            continue; // a stale POSQ: nothing stands there to pin against
        }
        for (k, &dir) in LINES.iter().enumerate() {
            let diagonal = k < 4;
            let mut candidate: Option<Square> = None;
            let mut at = from;
            loop {
                at = (at as i16 + dir as i16) as u8;
                let p = m.at(at);
                if p == 0 {
                    continue;
                }
                if p == OFF {
                    break;
                }
                if (p ^ royal) & BLACK == 0 {
                    if candidate.is_some() {
                        break; // a second friend: no pin
                    }
                    candidate = Square::from_mailbox(at);
                    continue;
                }
                let Some(c) = candidate else {
                    break; // an enemy first: no pin on this line
                };
                let t = p & 7;
                let pin = match t {
                    QUEEN if rt == QUEEN => {
                        // An enemy queen pinning against our queen counts only while our queen
                        // has no more defenders than attackers (a full ATTACK with the pins
                        // found so far decides).
                        let Some(at_royal) = Square::from_mailbox(from) else {
                            break;
                        };
                        let a = attack(m, at_royal, &pins, filling).atklst;
                        let ours = Colour::of_byte(royal);
                        a.count(ours) <= a.count(!ours)
                    }
                    QUEEN => true,
                    BISHOP => diagonal,
                    ROOK => !diagonal,
                    _ => false,
                };
                if pin {
                    pins.push(Pin { square: c, dir });
                }
                break;
            }
        }
    }
    pins
}

/// The `'A'` command's work on a position: PINFND from the set-up's kings and queens, then
/// ATTACK on `sq`.
pub fn atklst(board: &Board, sq: shakmaty::Square, filling: Filling) -> Attack {
    let m = Mailbox::from_board(board);
    let pins = pinfnd(&m, &Royals::after_setup(&m), filling);
    attack(&m, sq.into(), &pins, filling)
}

/// The same without pins (as if PINFND had found none).
pub fn atklst_unpinned(board: &Board, sq: shakmaty::Square, filling: Filling) -> Attack {
    let m = Mailbox::from_board(board);
    attack(&m, sq.into(), &[], filling)
}

/// The pin list PINFND builds for a set-up position.
pub fn pins_of(board: &Board, filling: Filling) -> Vec<Pin> {
    let m = Mailbox::from_board(board);
    pinfnd(&m, &Royals::after_setup(&m), filling)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Square};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        pos.board().clone()
    }

    #[test]
    fn figure_4() {
        let b = board("r1r3k1/pp1nqb1p/5pp1/1PNp4/1Q1Pn3/3BP2P/3N1PP1/1RR3K1 w - - 5 24");
        let a = atklst(&b, Square::E4, Filling::Article);
        assert_eq!(a.atklst, [3, 0, 0x33, 0x03, 0, 0, 0, 2, 1, 0, 0, 0, 9, 0]);
        assert_eq!(atklst(&b, Square::E4, Filling::B1978).atklst, a.atklst);
    }

    #[test]
    fn queen_flag_and_king_byte_spill() {
        // White Qd2 with Rd1 behind her on the d-file: the queen byte is [R|Q].
        let b = board("4k3/8/8/3p4/8/8/3Q4/3RK3 w - - 0 1");
        let a = atklst(&b, Square::D5, Filling::Article).atklst;
        assert_eq!(a.section(Colour::White), [2, 0, 0, 0, 0, 0x59, 0]);
        // Kc7 next to d8 (found first, on a diagonal), then Qd7, Rd6, Rd5 on the file: the
        // second rook behind the queen goes into the king byte, pushing the king up: [K|R].
        let b = board("3n3k/2KQ4/3R4/3R4/8/8/8/8 w - - 0 1");
        for f in [Filling::Article, Filling::B1978] {
            let a = atklst(&b, Square::D8, f).atklst;
            assert_eq!(
                a.section(Colour::White),
                [4, 0, 0, 0, 0, 0x59, 0xA5],
                "{f:?}"
            );
        }
    }

    #[test]
    fn pin_against_the_king() {
        // The e2 knight is pinned by the e8 rook: it does not attack c3.
        let b = board("4r1k1/8/8/8/8/2p5/4N3/4K3 w - - 0 1");
        let pins = pins_of(&b, Filling::Article);
        assert_eq!(
            pins,
            vec![Pin {
                square: "e2".parse().unwrap(),
                dir: 10
            }]
        );
        assert_eq!(atklst(&b, Square::C3, Filling::Article).atklst[0], 0);
        assert_eq!(
            atklst_unpinned(&b, Square::C3, Filling::Article).atklst[0],
            1
        );
    }
}
