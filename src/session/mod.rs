//! The session layer: what every front end shares. A game kept in step between the firmware
//! and shakmaty ([`game`]), the one time manager ([`clock`]) and the one search driver
//! ([`search`]), and the engine's reports read the same way for everyone (scores, mates,
//! the principal variation, the firmware's counters).
//!
//! Front ends (`play`: the text and full-screen modes, UCI, xboard, `serve --json`; and
//! `match`) parse their protocol, call this layer and print; they hold no search loop and
//! no time policy of their own.

pub mod clock;
pub mod game;
pub mod pgn;
pub mod search;

use crate::firmware::{DepthReport, Engine, Score};

/// The levels a player chooses from: the 1978 program's "look ahead" (plies).
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=6;
/// The deepest search the firmware runs (UCI `go depth` is capped here).
pub const MAX_DEPTH: u8 = 8;
/// The default level (the 1978 program's default look ahead).
pub const DEFAULT_LEVEL: u8 = 2;

/// The firmware's score byte (80h offset, 1/8 pawn, the engine's view) in centipawns.
pub fn score_cp(score: Score) -> i32 {
    score.centipawns()
}

/// The root's value that the firmware measures its search scores from, in the build's unit
/// (1/8 pawn; the full build 1/256), from the side to move's view: the root's material and
/// board control with development, as the Z80 computed them at the root of its last search
/// (the period builds' MV0 and BC0, material in pawns (article) or half pawns (1978) and
/// control in 1/8 pawns; the full build's MV0W + BC0W in words, the sum its own `ROOTV` takes).
/// A search score plus this is the position's value ([`absolute_cp`]): arithmetic on the Z80's
/// numbers, no evaluation of the host's. None when the build's symbols do not name them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RootValue(pub i32);

/// Read [`RootValue`] from the Z80's RAM: valid once a search has begun at the root (and
/// until the next one); the book answers before the search computes it.
pub fn root_value(engine: &Engine, white_to_move: bool) -> Option<RootValue> {
    let m = &engine.machine.bus.mem;
    let byte = |name: &str| Some(m[symbol(engine, name)? as usize] as i8 as i32);
    let word = |name: &str| {
        let a = symbol(engine, name)? as usize;
        Some(i16::from_le_bytes([m[a], m[a + 1]]) as i32)
    };
    let white = match engine.build {
        crate::firmware::Build::Full => word("MV0W")? + word("BC0W")?,
        crate::firmware::Build::Article => 8 * byte("MV0")? + byte("BC0")?,
        crate::firmware::Build::B1978 => 4 * byte("MV0")? + byte("BC0")?,
    };
    Some(RootValue(if white_to_move { white } else { -white }))
}

/// The Z80's static evaluation of the position it holds (`'Q'`, [`Engine::eval`]) for the side
/// to move, in centipawns: how a move that no search scored (a book move, a search stopped
/// before its first depth) is scored. Run on a copy of the machine, put back after, so the
/// firmware's state (its root, its counters, its clock) is as it was.
pub fn static_cp(engine: &mut Engine) -> Result<i32, crate::firmware::FirmwareError> {
    let saved = engine.machine.clone();
    let e = engine.eval();
    engine.machine = saved;
    let e = e?;
    Ok(e.side_to_move * 100 / e.per_pawn())
}

/// A search score as the position's value for the side to move, in centipawns (a pawn = 100):
/// the firmware's score (measured from the root's value) plus the root's value.
pub fn absolute_cp(score: Score, root: RootValue) -> i32 {
    match score {
        Score::Byte(b) => (b as i32 - 128 + root.0) * 100 / 8,
        Score::Word(w) => (w as i32 + root.0) * 100 / 256,
    }
}

/// Mate scores carry no distance in the firmware (FFh: the engine mates; 01h: it is mated).
/// Convention: the distance, in moves, is estimated from the iterative search's reports: `d` is
/// the first completed depth that gave the final best move (the last report's) the mate
/// score, and the mate is in (d + 1) / 2 moves (the mating move is the last ply searched, and
/// the check extension sees the mate one ply beyond it). All mates score alike in the
/// firmware, so a deeper search may prefer a longer mate; the estimate follows the move it
/// chose. Positive when the engine mates, negative when it is mated; `None` for an ordinary
/// score.
/// The full build's scores carry the distance in plies: the mate is in (plies + 1) / 2 moves.
pub fn mate_in(score: Score, depths: &[DepthReport]) -> Option<i32> {
    let mates = score.mate()?;
    if let Some(plies) = score.mate_plies() {
        let n = ((plies + 1) / 2).max(1);
        return Some(if mates { n } else { -n });
    }
    let best = depths.last().map(|r| r.best);
    let d = depths
        .iter()
        .find(|r| r.score == score && Some(r.best) == best)
        .or(depths.last())
        .map(|r| r.depth as i32)
        .unwrap_or(1);
    let n = ((d + 1) / 2).max(1);
    Some(if mates { n } else { -n })
}

/// A score in words, from the engine's view: "+0.75", "mate in 2", "mated in 1".
pub fn describe_score(score: Score, depths: &[DepthReport]) -> String {
    match mate_in(score, depths) {
        Some(n) if n > 0 => format!("mate in {n}"),
        Some(n) => format!("mated in {}", -n),
        None => format!("{:+.2}", score_cp(score) as f64 / 100.0),
    }
}

/// A principal variation in UCI notation, as far as it is legal from `pos` (the firmware's
/// line is replayed with shakmaty; a move that is not legal ends it, so a GUI never gets a
/// line it cannot play). The full build gives its whole line, the period builds the move alone.
pub fn pv_text(pos: &shakmaty::Chess, pv: &[crate::firmware::FwMove]) -> String {
    use shakmaty::Position;
    let mut p = pos.clone();
    let mut out: Vec<String> = Vec::with_capacity(pv.len());
    for m in pv {
        let Some(mv) = m.to_move(&p) else { break };
        out.push(m.uci());
        p.play_unchecked(mv);
    }
    out.join(" ")
}

/// A 32-bit counter of the firmware's (NEVAL: static evaluations, NNODE: moves made by the
/// search), read from its RAM by the address in the build's symbol file, for the progress
/// shown while the engine thinks.
pub fn counter(engine: &Engine, name: &str) -> Option<u32> {
    let addr = symbol(engine, name)? as usize;
    let m = &engine.machine.bus.mem;
    if addr + 4 > m.len() {
        return None;
    }
    Some(u32::from_le_bytes([
        m[addr],
        m[addr + 1],
        m[addr + 2],
        m[addr + 3],
    ]))
}

/// The address of a symbol in the build's symbol file.
pub fn symbol(engine: &Engine, name: &str) -> Option<u16> {
    engine.build.symbols().lines().find_map(|l| {
        let (sym, rest) = l.split_once(':')?;
        if sym.trim() != name {
            return None;
        }
        let hex = rest.trim().strip_prefix("EQU")?.trim().strip_prefix("0x")?;
        u16::from_str_radix(hex, 16).ok()
    })
}

/// A count with its thousands grouped: 68447935 -> "68,447,935".
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Read a `--params FILE` option, if given.
pub fn load_params_arg(
    path: Option<&std::path::Path>,
) -> Result<Option<crate::firmware::params::ParamFile>, String> {
    path.map(|p| crate::firmware::params::ParamFile::load(p).map_err(|e| e.to_string()))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firmware::FwMove;

    fn rep(depth: u8, score: u8) -> DepthReport {
        DepthReport {
            depth,
            best: FwMove {
                from: 35,
                to: 55,
                promo: 0,
            },
            score: Score::Byte(score),
            pv: Vec::new(),
        }
    }

    #[test]
    fn scores() {
        assert_eq!(score_cp(Score::Byte(0x80)), 0);
        assert_eq!(score_cp(Score::Byte(0x86)), 75);
        assert_eq!(score_cp(Score::Byte(0x78)), -100);
        assert_eq!(
            mate_in(
                Score::Byte(0xFF),
                &[rep(1, 0x82), rep(2, 0x90), rep(3, 0xFF)]
            ),
            Some(2)
        );
        assert_eq!(mate_in(Score::Byte(0xFF), &[rep(1, 0xFF)]), Some(1));
        // A deeper search that prefers another mating move: its own distance.
        let mut other = rep(3, 0xFF);
        other.best.to = 56;
        assert_eq!(
            mate_in(Score::Byte(0xFF), &[rep(1, 0xFF), rep(2, 0xFF), other]),
            Some(2)
        );
        assert_eq!(
            mate_in(Score::Byte(0x01), &[rep(1, 0x70), rep(2, 0x01)]),
            Some(-1)
        );
        assert_eq!(mate_in(Score::Byte(0x80), &[]), None);
        assert_eq!(describe_score(Score::Byte(0x86), &[]), "+0.75");
        assert_eq!(
            describe_score(Score::Byte(0xFF), &[rep(3, 0xFF)]),
            "mate in 2"
        );
        // The full build's words carry the distance: 32000 - 3 plies = mate in 2 moves.
        assert_eq!(mate_in(Score::Word(31997), &[]), Some(2));
        assert_eq!(mate_in(Score::Word(-31999), &[]), Some(-1));
        assert_eq!(mate_in(Score::Word(512), &[]), None);
        assert_eq!(score_cp(Score::Word(-384)), -150);
        assert_eq!(describe_score(Score::Word(64), &[]), "+0.25");
        // The root's value added in the build's unit, then converted.
        assert_eq!(absolute_cp(Score::Byte(0x86), RootValue(72)), 975);
        assert_eq!(absolute_cp(Score::Byte(0x7A), RootValue(-8)), -175);
        assert_eq!(absolute_cp(Score::Word(64), RootValue(-2304)), -875);
    }
}
