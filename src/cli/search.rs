//! `z80chess search`: one search by the Z80 firmware, with what it cost.

use crate::firmware::{sargon, Build, Engine, FwMove, Score, SearchKind};
use crate::machine::PERIOD_HZ;
use shakmaty::{Chess, Position};

use super::CliError;
use std::path::PathBuf;

/// `z80chess search`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub at: super::PositionArgs,
    /// Look-ahead in plies (1-8; the 1978 program offered 1-6).
    #[arg(long, default_value_t = 2)]
    pub level: u8,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// Search depth 1, 2, ... level and report each.
    #[arg(long)]
    pub iterate: bool,
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

/// Run `z80chess search`: a bad level, position or parameter file is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    if !(1..=8).contains(&a.level) {
        return Err(CliError::Input(format!(
            "level {}: the firmware searches 1 to 8 plies",
            a.level
        )));
    }
    super::check_position(a.at.fen.as_deref(), a.at.moves.as_deref())?;
    super::load_params(a.params.as_deref())?;
    cli(
        a.at.fen.as_deref(),
        a.at.moves.as_deref(),
        a.level,
        a.build,
        a.iterate,
        a.params.as_deref(),
    )
    .map_err(CliError::Run)
}

/// [`sargon::prepare`], its error as the command line's text.
pub fn prepare(
    engine: &mut Engine,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Chess, String> {
    sargon::prepare(engine, fen, moves).map_err(|e| e.to_string())
}

/// The score byte in words: 80h is the root's value.
pub fn describe_score(score: Score) -> String {
    match (score.mate(), score.mate_plies()) {
        (Some(true), Some(n)) => format!("mate for the engine in {n} plies (word {score})"),
        (Some(false), Some(n)) => format!("the engine is mated in {n} plies (word {score})"),
        (Some(true), None) => "mate for the engine".into(),
        (Some(false), None) => "the engine is mated".into(),
        (None, _) => match score {
            Score::Byte(s) => format!(
                "{:+.3} pawns against the root (byte {s:02X}h)",
                score.pawns()
            ),
            Score::Word(w) => format!("{:+.3} pawns (word {w}, 256 = a pawn)", score.pawns()),
        },
    }
}

/// A principal variation played out from `pos` by shakmaty: the moves in UCI and in SAN,
/// or the first move that is not legal where it stands (the host checks the Z80's line,
/// never makes it).
pub fn line_text(pos: &Chess, pv: &[FwMove]) -> Result<(String, String), String> {
    let mut p = pos.clone();
    let (mut uci, mut san) = (Vec::new(), Vec::new());
    for (i, m) in pv.iter().enumerate() {
        let mv = m.to_move(&p).ok_or_else(|| {
            format!(
                "move {} of the line, {}, is not legal there",
                i + 1,
                m.uci()
            )
        })?;
        uci.push(m.uci());
        san.push(shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut p, mv).to_string());
    }
    Ok((uci.join(" "), san.join(" ")))
}

pub fn cli(
    fen: Option<&str>,
    moves: Option<&str>,
    level: u8,
    build: Build,
    iterate: bool,
    params: Option<&std::path::Path>,
) -> Result<(), String> {
    if !(1..=8).contains(&level) {
        return Err(format!("level {level}: the firmware searches 1 to 8 plies"));
    }
    let mut engine = Engine::new(build).map_err(|e| e.to_string())?;
    if let Some(pf) = crate::session::load_params_arg(params)? {
        engine.load_params(&pf).map_err(|e| e.to_string())?;
        println!("parameters {} (hash {})", pf.source, pf.hash());
    }
    let pos = prepare(&mut engine, fen, moves)?;
    if pos.legal_moves().is_empty() {
        return Err(if pos.is_check() {
            "the side to move is checkmated"
        } else {
            "stalemate"
        }
        .into());
    }
    let r = engine.search(level, iterate).map_err(|e| e.to_string())?;
    for d in &r.depths {
        println!(
            "info depth {} best {} score {} pv {}",
            d.depth,
            d.best.uci(),
            describe_score(d.score),
            line_text(&pos, &d.pv)?.0
        );
    }
    let legal = r.best.to_move(&pos).is_some();
    println!("bestmove {}", r.best.uci());
    let (uci, san) = line_text(&pos, &r.pv)?;
    let kept = if build == Build::Full {
        ""
    } else {
        " (the period builds keep no line: the move alone)"
    };
    println!("pv {uci}{kept}");
    println!("pv san {san}");
    let score = match r.kind {
        // A book move is played without a search: the score word is whatever was left there.
        SearchKind::Book => "none (a book move: nothing was searched)".to_string(),
        SearchKind::Stopped => format!("{} (stopped)", describe_score(r.score)),
        SearchKind::Overflow => format!(
            "{} (a move list overflowed: last completed depth)",
            describe_score(r.score)
        ),
        SearchKind::Searched => describe_score(r.score),
    };
    println!("score {score}");
    println!(
        "evaluations {} (POINTS calls), XCHNG calls {}, moves made {}",
        r.evaluations, r.xchng_calls, r.nodes
    );
    println!(
        "tstates {} = {:.1} s at 2 MHz",
        r.tstates,
        r.tstates as f64 / PERIOD_HZ as f64
    );
    if r.evaluations > 0 {
        println!("tstates/evaluation {}", r.tstates / r.evaluations as u64);
    }
    if !legal {
        return Err(format!(
            "the firmware chose {}, which is not legal here",
            r.best.uci()
        ));
    }
    Ok(())
}
