//! From XCHNG's residue to the textbook SEE, one documented difference at a time.
//!
//! A [`Chain`] starts at the Z80's residue and changes one thing per step until it reaches the
//! textbook value: the listing model on the Z80's own array (must not change anything), the
//! textbook swap on the same two lists (the listing's look-ahead shortcuts), the array without
//! pins, the king priced above everything, the textbook's own capture order with x-rays through
//! either colour, promotions. Callers add the last steps (a forced capture, a reference file).
//! Each step that changes the value is blamed on its [`Class`], and carries whether the
//! position shows the feature that class needs (a pin that changes the array, a look-ahead in
//! the trace, ...): a change without its feature, or a change of an undocumented class, is
//! unexplained.
//!
//! Units: everything in centipawns. The article's residue is in pawns (× 100), the 1978 build's
//! in half-pawns (× 50); the array's values are the article's (P 1, N 3, B 3, R 5, Q 9, K 10).

use super::attack::{self, Filling};
use super::see;
use super::xchng::{self, How, PVALUE};
use crate::chess::{Attackers, Colour};
use crate::firmware::Build;
use shakmaty::{Board, Chess, Color, Move, Position, Rank, Role, Square};
use std::fmt;

/// Which filling rule a firmware build follows (the model in [`attack`] knows rules, not builds).
impl From<Build> for Filling {
    fn from(b: Build) -> Filling {
        match b {
            Build::Article | Build::Full => Filling::Article,
            Build::B1978 => Filling::B1978,
        }
    }
}

/// Why two steps of a chain differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The Z80's residue is not the listing model's on the same array: a bug somewhere.
    ResidueMismatch,
    /// The listing stops when the recapturer is worth less than the capturer (`RET C` at
    /// XC15), where the swap may still win by carrying on.
    CheaperRecapturer,
    /// The listing's look-ahead (XC15) gives up when the capturing side runs out of backers
    /// first (`RET Z`), where the swap may still capture and stop earlier.
    NoBacker,
    /// The listing's look-ahead (XC15) credits only the stake and ends the exchange when the
    /// defenders run out first.
    LookAhead,
    /// PINFND/PNCK keep a pinned piece out of the array; the textbook ignores pins.
    Pin,
    /// The array values the king at 10; the textbook never lets him capture into a defended
    /// square.
    King,
    /// The array's order (by type, x-rays only through same-coloured pieces moving along the
    /// line, pieces behind the queen after her) is not the textbook's least-valuable-first
    /// order with x-rays through anything.
    XrayOrder,
    /// A pawn capturing onto its last rank becomes a queen: not modelled by XCHNG.
    Promotion,
    /// En passant: the pawn taken is not on the square XCHNG looks at.
    EnPassant,
    /// The reference move captures with a dearer piece than the cheapest attacker; XCHNG always
    /// starts with the cheapest (and may decline).
    ForcedCapturer,
    /// The reference move captures with another of several equally cheap attackers, which
    /// opens other x-rays.
    EqualAttackersOrder,
    /// The reference value is not the textbook SEE (a convention of the file).
    FileConvention,
}

impl Class {
    /// A difference the documents explain (the others are bugs, on one side or the other).
    pub fn documented(self) -> bool {
        !matches!(self, Class::ResidueMismatch | Class::FileConvention)
    }

    /// One line for a report.
    pub fn reason(self) -> &'static str {
        match self {
            Class::ResidueMismatch => "the Z80's residue is not the listing's (bug)",
            Class::CheaperRecapturer => "the listing stops when the recapturer is worth less",
            Class::NoBacker => "the listing declines when the capturer would have no backer",
            Class::LookAhead => "the listing's look-ahead credits only the stake",
            Class::Pin => "pin (PINFND/PNCK drop the pinned piece; the textbook ignores pins)",
            Class::King => "king (the listing prices him at 10 and lets him capture)",
            Class::XrayOrder => "x-ray order (the array's order and x-rays are not the textbook's)",
            Class::Promotion => "promotion not modelled",
            Class::EnPassant => "en passant (the pawn taken is not on the square)",
            Class::ForcedCapturer => "the reference forces a dearer capturer",
            Class::EqualAttackersOrder => "equal attackers in another order (x-ray order)",
            Class::FileConvention => "the reference value is not the textbook SEE",
        }
    }

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Class::ResidueMismatch => "residue-mismatch",
            Class::CheaperRecapturer => "listing: cheaper recapturer stop",
            Class::NoBacker => "listing: no backer",
            Class::LookAhead => "listing: look-ahead",
            Class::Pin => "pin",
            Class::King => "king",
            Class::XrayOrder => "x-ray order",
            Class::Promotion => "promotion",
            Class::EnPassant => "en passant",
            Class::ForcedCapturer => "forced dearer capturer",
            Class::EqualAttackersOrder => "equal attackers' order",
            Class::FileConvention => "file convention",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub what: &'static str,
    pub cp: i32,
    /// Blamed when `cp` differs from the previous step's.
    pub class: Option<Class>,
    /// The position shows what `class` needs.
    pub feature: bool,
    pub detail: String,
}

/// A chain of values from the Z80's answer to a reference.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    pub steps: Vec<Step>,
    /// The Z80's ATKLST is not the attack model's (a bug on one side).
    pub array_mismatch: Option<String>,
}

impl Chain {
    pub fn push(
        &mut self,
        what: &'static str,
        cp: i32,
        class: Option<Class>,
        feature: bool,
        detail: String,
    ) {
        self.steps.push(Step {
            what,
            cp,
            class,
            feature,
            detail,
        });
    }

    pub fn first(&self) -> i32 {
        self.steps.first().map_or(0, |s| s.cp)
    }

    pub fn last(&self) -> i32 {
        self.steps.last().map_or(0, |s| s.cp)
    }

    /// The steps that changed the value: (class, before, after, step).
    pub fn changes(&self) -> Vec<(Option<Class>, i32, i32, &Step)> {
        self.steps
            .windows(2)
            .filter(|w| w[0].cp != w[1].cp)
            .map(|w| (w[1].class, w[0].cp, w[1].cp, &w[1]))
            .collect()
    }

    /// The classes of the changes, in chain order, without repeats.
    pub fn classes(&self) -> Vec<Class> {
        let mut out: Vec<Class> = Vec::new();
        for (c, ..) in self.changes() {
            if let Some(c) = c {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// What no documented difference explains.
    pub fn unexplained(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(m) = &self.array_mismatch {
            out.push(format!("ATKLST: {m}"));
        }
        for (class, a, b, step) in self.changes() {
            match class {
                Some(c) if c.documented() && step.feature => {}
                Some(c) if c.documented() => out.push(format!(
                    "{} changed {a} -> {b} cp without the feature of '{c}' ({})",
                    step.what, step.detail
                )),
                Some(c) => out.push(format!("{}: {a} -> {b} cp: {}", step.what, c.reason())),
                None => out.push(format!("{}: {a} -> {b} cp", step.what)),
            }
        }
        out
    }

    /// The steps as text, one per line.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let mut prev: Option<i32> = None;
        for st in &self.steps {
            let mark = match (prev, st.class) {
                (Some(p), Some(c)) if p != st.cp => format!("   <- {}", c.reason()),
                (Some(p), None) if p != st.cp => "   <- ?".to_string(),
                _ => String::new(),
            };
            let detail = if st.detail.is_empty() {
                String::new()
            } else {
                format!(" [{}]", st.detail)
            };
            s.push_str(&format!("{:>6} cp  {}{}{}\n", st.cp, st.what, detail, mark));
            prev = Some(st.cp);
        }
        s
    }
}

/// Centipawns per unit of the build's residue.
pub fn unit_cp(build: Build) -> i32 {
    match build {
        Build::Article | Build::Full => 100,
        Build::B1978 => 50,
    }
}

fn interleave(capturers: &[i32], recapturers: &[i32]) -> Vec<i32> {
    let mut out = Vec::new();
    let lists = [capturers, recapturers];
    let mut k = 0;
    loop {
        let side = k % 2;
        let Some(&v) = lists[side].get(k / 2) else {
            break;
        };
        out.push(v);
        k += 1;
    }
    out
}

fn king_priced(list: &[i32]) -> Vec<i32> {
    list.iter()
        .map(|&v| if v == 1000 { see::KING_CP } else { v })
        .collect()
}

/// The (capturers, recapturers) value lists of an array, in NEXTAD's order, centipawns.
fn lists(array: &Attackers, attacker: Color) -> (Vec<i32>, Vec<i32>) {
    let cp = |c: Colour| -> Vec<i32> {
        array
            .values(c)
            .into_iter()
            .map(|v| v as i32 * 100)
            .collect()
    };
    let attacker = Colour::from(attacker);
    (cp(attacker), cp(!attacker))
}

fn values(l: &[i32]) -> String {
    l.iter()
        .map(|v| (v / 100).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The chain for the exchange on the occupied square `sq`, from the Z80's array and residue
/// to the textbook `see()` of the square for the side that does not own the piece there
/// (cheapest attacker first, with promotions). None when the square is empty.
pub fn square_chain(
    board: &Board,
    sq: Square,
    build: Build,
    z80_array: &Attackers,
    z80_residue: u8,
) -> Option<Chain> {
    let piece = board.piece_at(sq)?;
    let byte = attack::piece_byte(piece.color, piece.role);
    let attacker = piece.color.other();
    let filling = Filling::from(build);
    let doubled = build == Build::B1978;
    let unit = unit_cp(build);
    let stake = PVALUE[byte.type_bits() as usize] as i32 * 100;

    let mut chain = Chain::default();
    let model = attack::atklst(board, sq, filling);
    if model.atklst != *z80_array {
        chain.array_mismatch = Some(format!(
            "Z80 {} vs model {}",
            z80_array.hex(),
            model.atklst.hex()
        ));
    }
    chain.push(
        "Z80 XCHNG",
        z80_residue as i32 * unit,
        None,
        false,
        format!("residue {z80_residue}"),
    );
    let ex = xchng::xchng(byte, z80_array, doubled);
    chain.push(
        "listing model on the Z80's array",
        ex.residue as i32 * unit,
        Some(Class::ResidueMismatch),
        false,
        format!("trace {:?}", ex.trace),
    );

    let (cap, rec) = lists(z80_array, attacker);
    let shortcut = match ex.iterations.last().map(|i| i.how) {
        Some(How::CheaperRecapturer) => Class::CheaperRecapturer,
        Some(How::NoBacker) => Class::NoBacker,
        _ => Class::LookAhead,
    };
    chain.push(
        "swap on the array's lists",
        see::swap(stake, &cap, &rec),
        Some(shortcut),
        ex.used_lookahead(),
        format!("capturers {} / recapturers {}", values(&cap), values(&rec)),
    );

    let free = attack::atklst_unpinned(board, sq, filling);
    let (fcap, frec) = lists(&free.atklst, attacker);
    chain.push(
        "... without pins",
        see::swap(stake, &fcap, &frec),
        Some(Class::Pin),
        free.atklst != model.atklst,
        format!(
            "capturers {} / recapturers {}",
            values(&fcap),
            values(&frec)
        ),
    );

    let (kcap, krec) = (king_priced(&fcap), king_priced(&frec));
    chain.push(
        "... king above everything",
        see::swap(stake, &kcap, &krec),
        Some(Class::King),
        fcap.contains(&1000) || frec.contains(&1000),
        String::new(),
    );

    let dynamic = see::sequence(board, sq, attacker, false);
    let dyn_values: Vec<i32> = dynamic
        .iter()
        .map(|&(_, _, r)| PVALUE[attack::type_of(r) as usize] as i32 * 100)
        .collect();
    let ours = interleave(&fcap, &frec);
    // Does the textbook use a piece the array does not have (an x-ray through a piece of the
    // other colour, which ends ATTACK's line)?
    let mut pool = [fcap.clone(), frec.clone()];
    let mut missing = false;
    for (k, v) in dyn_values.iter().enumerate() {
        let side = &mut pool[k % 2];
        match side.iter().position(|x| x == v) {
            Some(i) => {
                side.remove(i);
            }
            None => missing = true,
        }
    }
    chain.push(
        "textbook order, x-rays through either colour",
        see::see(board, sq, attacker, false),
        Some(Class::XrayOrder),
        dyn_values != ours,
        format!(
            "textbook {} / array {}{}",
            values(&dyn_values),
            values(&ours),
            if missing {
                "; the textbook x-rays through a piece of the other colour"
            } else {
                ""
            }
        ),
    );

    let promoting = see::sequence(board, sq, attacker, true)
        .iter()
        .any(|&(side, _, r)| r == Role::Pawn && sq.rank() == last_rank(side));
    chain.push(
        "textbook see() with promotions",
        see::see(board, sq, attacker, true),
        Some(Class::Promotion),
        promoting,
        String::new(),
    );
    Some(chain)
}

fn last_rank(side: Color) -> Rank {
    match side {
        Color::White => Rank::Eighth,
        Color::Black => Rank::First,
    }
}

/// Add the step from the textbook `see()` of the square to the reference move `m` forced
/// (`seeCapture`, floored at 0 as XCHNG's attacker may decline).
pub fn push_forced(chain: &mut Chain, pos: &Chess, m: &Move) {
    let forced = see::see_move(pos, m, true).max(0);
    let to = m.to();
    let lva = see::least_valuable_attacker(pos.board(), to, pos.turn());
    let from = m.from();
    let (class, feature) = match lva {
        Some((sq, role)) if see::value(role) != see::value(m.role()) => {
            (Class::ForcedCapturer, Some(sq) != from)
        }
        Some((sq, _)) => (Class::EqualAttackersOrder, Some(sq) != from),
        None => (Class::ForcedCapturer, false),
    };
    chain.push(
        "the reference move forced (seeCapture, >= 0)",
        forced,
        Some(class),
        feature,
        format!(
            "{} from {}; cheapest {:?}",
            m.role().char().to_ascii_uppercase(),
            from.map_or("-".into(), |s| s.to_string()),
            lva.map(|(s, r)| format!("{}{}", r.char().to_ascii_uppercase(), s))
        ),
    );
}
