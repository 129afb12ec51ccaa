//! Match games as PGN, each dated with the day the match began (UTC), so the games of one
//! match carry one date.

use super::game::{Record, Side};
use super::spec::{EngineSpec, TimeControl};
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode, Position};

/// What every game of a match shares.
pub struct Header<'a> {
    pub sides: &'a [Side; 2],
    /// Per side: the parameter file's hash, when it has one.
    pub params_hash: [Option<String>; 2],
    pub tc: TimeControl,
    pub clock_hz: u64,
    /// The PGN date the match began ("2026.12.07"; `crate::session::pgn::today`).
    pub date: String,
}

use crate::session::pgn::{escape, wrap};

/// One game.
pub fn write(r: &Record, h: &Header) -> String {
    let (w, b) = (r.white, 1 - r.white);
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "z80chess match".into()),
        ("Site".into(), "?".into()),
        ("Date".into(), h.date.clone()),
        ("Round".into(), r.round.to_string()),
        ("White".into(), h.sides[w].name.clone()),
        ("Black".into(), h.sides[b].name.clone()),
        ("Result".into(), r.outcome.result().into()),
    ];
    if !r.opening.from_initial() {
        tags.push(("SetUp".into(), "1".into()));
        tags.push((
            "FEN".into(),
            Fen::from_position(&r.opening.start, EnPassantMode::Legal).to_string(),
        ));
    }
    for (colour, i) in [("White", w), ("Black", b)] {
        match &h.sides[i].spec {
            EngineSpec::Build { build, .. } => {
                tags.push((format!("{colour}Z80Build"), build.to_string()));
                if let Some(hash) = &h.params_hash[i] {
                    tags.push((format!("{colour}Z80Params"), hash.clone()));
                }
                if h.sides[i].ponder {
                    tags.push((format!("{colour}Z80Ponder"), "on".into()));
                }
            }
            EngineSpec::Uci { path, .. } => {
                tags.push((format!("{colour}Engine"), path.display().to_string()));
            }
        }
    }
    tags.push(("TimeControl".into(), h.tc.pgn_tag()));
    if let TimeControl::Level(l) = h.tc {
        tags.push(("Z80Level".into(), l.to_string()));
    }
    tags.push(("Z80ClockHz".into(), h.clock_hz.to_string()));
    tags.push(("Opening".into(), r.opening.name.clone()));
    tags.push(("Termination".into(), r.outcome.termination.into()));
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
    }
    out.push('\n');
    let mut pos = r.opening.start.clone();
    let mut tokens: Vec<String> = Vec::new();
    let mut after_comment = true;
    for p in &r.plies {
        let n = pos.fullmoves().get();
        if pos.turn() == Color::White {
            tokens.push(format!("{n}."));
        } else if after_comment {
            tokens.push(format!("{n}..."));
        }
        tokens.push(p.san.clone());
        after_comment = !p.comment.is_empty();
        if after_comment {
            tokens.push(format!("{{{}}}", p.comment.replace('}', ")")));
        }
        pos.play_unchecked(p.mv);
    }
    tokens.push(format!("{{{}}}", r.outcome.reason.replace('}', ")")));
    tokens.push(r.outcome.result().into());
    out.push_str(&wrap(tokens));
    out.push_str("\n\n");
    out
}
