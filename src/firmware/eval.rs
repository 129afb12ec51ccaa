//! The static evaluation as the Z80 computes it, term by term: the 'Q' command (`CEVAL` in
//! `asm/evalaux.asm`). The firmware runs PINFND and POINTS on the position as it stands, as if
//! the side not to move had just moved (a dummy last move, so no piece "just moved") with an
//! empty root (so material and board control are absolute), and reads the clock port around it.
//!
//! - The full build leaves every term of its score in `BRKDN` (signed words, 256 = a pawn,
//!   White's view) and lists every battle (square, piece, XCHNG's residue); the host only reads
//!   them.
//! - The period builds send POINTS' byte variables (MTRL, BRDC, PTSL, PTSW1, PTSW2, PTSCK) and
//!   VALM; the host splits the documented formula of `points.asm` into terms (in 1/8 pawns) and
//!   checks that they give the VALM the Z80 computed, so a disagreement is an error, not a
//!   silent difference.

use super::{board, Build, Engine, FirmwareError};
use std::fmt::Write;

/// The 'Q' command.
pub use super::protocol::CMD_EVAL;

/// The full build's knowledge terms (`asm/full/knowledge.asm`), after the total in `BRKDN`: one per
/// counted feature (its weights `P_DOUBL` .. `P_KCENT`, then `P_KMOVE` .. `P_HOLE`, then `P_BDIAG`, then
/// the bytes `P_QPCP`, `P_QPKN`, `P_DVTWC` and `P_QKS`; `P_DVTWC`'s is 0 outside a search), then the change the opposite-coloured bishops make to their sum (`P_OPPB`); White's
/// view, included in the total.
pub const KNOWLEDGE_TERMS: [&str; 40] = [
    "pawns: doubled",
    "pawns: isolated, open file",
    "pawns: isolated, closed file",
    "pawns: backward, open file",
    "pawns: backward, closed file",
    "pawns: passed",
    "pawns: both centre unmoved",
    "pawns: one centre unmoved",
    "pawns: rams (engine's side)",
    "pawns: eight (engine's side)",
    "rooks: open file",
    "rooks: half-open file",
    "rooks: 7th rank",
    "bishops: the pair",
    "knights: outposts",
    "king: open zone file",
    "king: zone file, enemy pawn only",
    "king: zone file half-open",
    "king: steps from b1/g1",
    "king: endgame, from centre",
    "castling: king moved",
    "castling: king's rook moved",
    "castling: queen's rook moved",
    "bishops: own pawns on their colour",
    "knights: steps from centre",
    "queen: steps from centre",
    "rooks: behind a passed pawn",
    "knights: tropism",
    "rooks: tropism",
    "queen: tropism",
    "king: no luft",
    "pawns: outside passed",
    "rooks: no horizontal mobility",
    "king: holes in the shelter",
    "bishops: open diagonal squares",
    "queen-pawn opening: c-pawn not yet on c4/c5",
    "queen-pawn opening: knight before the c-pawn (engine's side)",
    "development: a man moved twice (engine's side, search path)",
    "queen: enemy king's zone files without its pawns",
    "bishops: opposite colours",
];

/// The full build's ending terms (`asm/full/kpend.asm`, `asm/full/endgame.asm`,
/// `asm/full/luscher.asm`), after the knowledge terms in `BRKDN`: 0 unless only kings and pawns
/// are on the board (the last: unless the board holds KRK, KBBK or KBNK).
pub const ENDGAME_TERMS: [&str; 17] = [
    "pawn ending: race won for certain",
    "End-Game: mover's pawns attacked",
    "End-Game: rook pawns",
    "End-Game: advance (rank squared)",
    "End-Game: pawns on one file",
    "End-Game: channel free",
    "End-Game: channel, nearest men",
    "End-Game: channel, pawn majority",
    "End-Game: opposition (mover)",
    "End-Game: king by enemy pawns",
    "End-Game: king by own pawns",
    "End-Game: king in the centre",
    "End-Game: king ripple (engine)",
    "K+RP v K: drawn (cancels the rest)",
    "K+P v K, king in front: drawn (cancels the rest)",
    "K+RP+wrong bishop v K: drawn (cancels the rest)",
    "Lüscher's endgame module: the ending's value (replaces the rest)",
];

/// One term of the score, in the build's unit, White's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub name: &'static str,
    pub value: i32,
}

/// One battle: a piece attacked by the enemy, and its owner's loss by XCHNG (attacker-array
/// units: P1 N3 B3 R5 Q9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battle {
    pub square: u8,
    pub piece: u8,
    pub residue: u8,
}

/// The evaluation of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub build: Build,
    /// The terms, White's view; they add up to `total`.
    pub terms: Vec<Term>,
    /// The score, White's view, in the build's unit.
    pub total: i32,
    /// The score from the side to move's view (VALM / VALMW).
    pub side_to_move: i32,
    /// White is to move.
    pub white_to_move: bool,
    /// Battles the firmware listed (the full build only).
    pub battles: Vec<Battle>,
    /// T-states of PINFND + POINTS, by the clock port.
    pub tstates: u64,
}

impl Evaluation {
    /// Units per pawn: 256 (full) or 8 (period builds).
    pub fn per_pawn(&self) -> i32 {
        if self.build.wide_scores() {
            256
        } else {
            8
        }
    }

    /// A readable breakdown.
    pub fn report(&self) -> String {
        let unit = self.per_pawn() as f64;
        let mut s = format!(
            "static evaluation ({} build, {} to move), in pawns from White's view \
             (unit: 1/{} pawn):\n",
            self.build,
            if self.white_to_move { "White" } else { "Black" },
            self.per_pawn()
        );
        // One column for the names, as wide as the longest (counted in characters).
        let w = self
            .terms
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(5);
        for t in &self.terms {
            let _ = writeln!(
                s,
                "  {:<w$} {:>+8.3}  ({:+})",
                t.name,
                t.value as f64 / unit,
                t.value
            );
        }
        let _ = writeln!(
            s,
            "  {:<w$} {:>+8.3}  ({:+})\nfor the side to move: {:+.3} pawns ({:+})",
            "total",
            self.total as f64 / unit,
            self.total,
            self.side_to_move as f64 / unit,
            self.side_to_move
        );
        if !self.battles.is_empty() {
            s.push_str("battles (XCHNG: the owner's loss, in units P1 N3 B3 R5 Q9):\n");
            for b in &self.battles {
                let sq = board::square_of(b.square)
                    .map(|q| q.to_string())
                    .unwrap_or_else(|| format!("#{}", b.square));
                let _ = writeln!(
                    s,
                    "  {sq} {} {}  loss {}",
                    if b.piece & 0x80 != 0 {
                        "black"
                    } else {
                        "white"
                    },
                    match b.piece & 7 {
                        1 => "pawn",
                        2 => "knight",
                        3 => "bishop",
                        4 => "rook",
                        5 => "queen",
                        6 => "king",
                        _ => "?",
                    },
                    b.residue
                );
            }
        }
        let _ = writeln!(
            s,
            "T-states: {} for PINFND + POINTS ({:.1} ms at 2 MHz)",
            self.tstates,
            self.tstates as f64 / 2000.0
        );
        s
    }
}

fn limit(v: i32, b: i32) -> i32 {
    v.clamp(-b, b)
}

impl Engine {
    /// The static evaluation of the current position, term by term.
    pub fn eval(&mut self) -> Result<Evaluation, FirmwareError> {
        let r = self.command(CMD_EVAL, &[])?;
        parse(self.build, &r)
    }
}

/// The 'Q' reply's timer (T-states of the evaluation) and side byte sit around these: MTRL,
/// BRDC, PTSL, PTSW1, PTSW2, PTSCK, VALM, as every build sends them.
struct Period {
    mtrl: i32,
    brdc: i32,
    ptsl: i32,
    ptsw1: i32,
    ptsw2: i32,
    ptsck: bool,
    /// The mover (the side not to move) is White when Black is to move.
    mover_white: bool,
}

impl Period {
    fn sign(&self, mover_gain: i32) -> i32 {
        if self.mover_white {
            mover_gain
        } else {
            -mover_gain
        }
    }

    /// Board control and development as counted (0 when the mover gave check), clamped.
    fn control(&self) -> i32 {
        if self.ptsck {
            0
        } else {
            limit(self.brdc, 6)
        }
    }

    /// The article's terms; the total.
    fn article(&self, terms: &mut Vec<Term>) -> i32 {
        let (mtrl, brdc) = (self.mtrl, self.brdc);
        let m = limit(mtrl, 15);
        let lost = 8 * self.ptsl;
        let won = if self.ptsw1 != 0 { 6 * self.ptsw2 } else { 0 };
        let s1 = 8 * m + self.sign(won - lost);
        let s1c = limit(s1, 120);
        let bc = self.control();
        terms.extend(
            [
                ("material", 8 * mtrl),
                ("material clamp", 8 * (m - mtrl)),
                ("exchange: mover's loss", self.sign(-lost)),
                ("exchange: second threat won", self.sign(won)),
                ("score clamp", s1c - s1),
                ("control + development", brdc),
                ("control clamp", bc - brdc),
            ]
            .map(|(name, value)| Term { name, value }),
        );
        s1c + bc
    }

    /// The 1978 program's terms; the total.
    fn b1978(&self, terms: &mut Vec<Term>) -> i32 {
        let (mtrl, brdc) = (self.mtrl, self.brdc);
        let lost = if self.ptsl > 0 { self.ptsl - 1 } else { 0 };
        let won = if self.ptsw1 != 0 && self.ptsw2 != 0 {
            (self.ptsw2 - 1) / 2
        } else {
            0
        };
        // The program's 8-bit sum, then the clamp to +-30 half pawns, times 4.
        let m = ((mtrl + self.sign(won - lost)) as i8) as i32;
        let mc = limit(m, 30);
        let bc = self.control();
        terms.extend(
            [
                ("material (half pawns x4)", 4 * mtrl),
                ("exchange: mover's loss", 4 * self.sign(-lost)),
                ("exchange: second threat won", 4 * self.sign(won)),
                (
                    "material clamp",
                    4 * (mc - m) + 4 * (m - mtrl - self.sign(won - lost)),
                ),
                ("control + development", brdc),
                ("control clamp", bc - brdc),
            ]
            .map(|(name, value)| Term { name, value }),
        );
        4 * mc + bc
    }
}

/// The full build's words (BRKDN) and battles after the side byte at `WORDS`; the total.
fn full_terms(
    r: &[u8],
    terms: &mut Vec<Term>,
    battles: &mut Vec<Battle>,
) -> Result<i32, FirmwareError> {
    const WORDS: usize = 16;
    let bad = |detail: String| FirmwareError::Protocol {
        command: 'Q',
        detail,
    };
    const BK: usize = 2 * (10 + KNOWLEDGE_TERMS.len() + ENDGAME_TERMS.len());
    if r.len() < WORDS + BK + 1 {
        return Err(bad(format!("{} bytes", r.len())));
    }
    let w = |k: usize| i16::from_le_bytes([r[WORDS + 2 * k], r[WORDS + 1 + 2 * k]]) as i32;
    let names = [
        "material",
        "material clamp",
        "exchange: mover's loss",
        "exchange: second threat won",
        "score clamp",
        "board control",
        "development",
        "root's control + development",
        "control clamp",
    ];
    for (k, name) in names.iter().enumerate() {
        terms.push(Term { name, value: w(k) });
    }
    let total = w(9);
    for (k, name) in KNOWLEDGE_TERMS.iter().chain(&ENDGAME_TERMS).enumerate() {
        terms.push(Term {
            name,
            value: w(10 + k),
        });
    }
    let n = r[WORDS + BK] as usize;
    if r.len() != WORDS + 1 + BK + 3 * n {
        return Err(bad(format!("{} bytes for {n} battles", r.len())));
    }
    for b in r[WORDS + 1 + BK..].chunks(3) {
        battles.push(Battle {
            square: b[0],
            piece: b[1],
            residue: b[2],
        });
    }
    Ok(total)
}

/// Parse the 'Q' command's reply (after its status byte), and check it.
pub fn parse(build: Build, r: &[u8]) -> Result<Evaluation, FirmwareError> {
    let bad = |detail: String| FirmwareError::Protocol {
        command: 'Q',
        detail,
    };
    if r.len() < 16 {
        return Err(bad(format!("{} bytes", r.len())));
    }
    let white_to_move = r[15] == 0;
    let t0 = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
    let t1 = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
    let tstates = t1.wrapping_sub(t0) as u64;
    let v = &r[8..15];
    let period = Period {
        mtrl: v[0] as i8 as i32,
        brdc: v[1] as i8 as i32,
        ptsl: v[2] as i32,
        ptsw1: v[3] as i32,
        ptsw2: v[4] as i32,
        ptsck: v[5] != 0,
        mover_white: !white_to_move,
    };
    let valm = v[6] as i32;
    let mut terms = Vec::new();
    let mut battles = Vec::new();
    let total = match build {
        Build::Full => full_terms(r, &mut terms, &mut battles)?,
        Build::Article => period.article(&mut terms),
        Build::B1978 => period.b1978(&mut terms),
    };
    let sum: i32 = terms.iter().map(|t| t.value).sum();
    if sum != total {
        return Err(bad(format!("the terms add up to {sum}, not {total}")));
    }
    let side_to_move = if white_to_move { total } else { -total };
    // What the Z80 itself computed for the side to move must agree.
    let z80 = match build {
        Build::Full => {
            let key = ((side_to_move >> 5).clamp(-127, 127) + 128) as u8;
            if key as i32 != valm {
                return Err(bad(format!("sort key {valm:02X}h, not {key:02X}h")));
            }
            side_to_move
        }
        _ => valm - 0x80,
    };
    if z80 != side_to_move {
        return Err(bad(format!(
            "the Z80's VALM {valm:02X}h disagrees with its terms ({side_to_move:+})"
        )));
    }
    Ok(Evaluation {
        build,
        terms,
        total,
        side_to_move,
        white_to_move,
        battles,
        tstates,
    })
}

/// `z80chess eval`: the breakdown of one position.
pub fn cli(
    fen: Option<&str>,
    moves: Option<&str>,
    build: Build,
    params: Option<&std::path::Path>,
) -> Result<String, String> {
    let mut engine = Engine::new(build).map_err(|e| e.to_string())?;
    if let Some(p) = params {
        let pf = super::params::ParamFile::load(p).map_err(|e| e.to_string())?;
        engine.load_params(&pf).map_err(|e| e.to_string())?;
    }
    super::sargon::prepare(&mut engine, fen, moves).map_err(|e| e.to_string())?;
    let e = engine.eval().map_err(|e| e.to_string())?;
    Ok(e.report())
}
