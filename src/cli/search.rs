//! `z80chess search`: one search by the Z80 firmware, with what it cost.

use crate::firmware::{sargon, Build, Engine, FwMove, Score, SearchKind};
use crate::machine::PERIOD_HZ;
use crate::profile::evals::{emulated_tstates, EvalCost, Limit};
use crate::session::group;
use shakmaty::{Chess, Position};

use super::CliError;
use std::path::PathBuf;

/// `z80chess search`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub at: super::PositionArgs,
    /// Look-ahead in plies (1-8; the 1978 program offered 1-6). Default 2; with
    /// --movetime-emulated, the deepest depth iterated to (default 8).
    #[arg(long)]
    pub level: Option<u8>,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// Search depth 1, 2, ... level and report each.
    #[arg(long)]
    pub iterate: bool,
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Search iteratively for this many seconds of emulated time at 2 MHz, then move now (the
    /// last completed depth's move): the session's driver with a T-state budget, as `match
    /// --movetime-emulated` runs it.
    #[arg(long, value_name = "SECS", value_parser = emulated_seconds, allow_hyphen_values = true)]
    pub movetime_emulated: Option<f64>,
}

/// `--movetime-emulated SECS`: a number of seconds, more than 0 (and at most 10,000,000), by
/// the rule `match --movetime-emulated` uses.
pub fn emulated_seconds(text: &str) -> Result<f64, String> {
    use crate::matchplay::spec::TimeControl;
    match TimeControl::parse_movetime(text) {
        Ok(TimeControl::MoveTime(s)) => Ok(s),
        Ok(other) => Err(format!("'{text}' is not a move time ({other:?})")),
        Err(e) => Err(e.to_string()),
    }
}

/// Run `z80chess search`: a bad level, position or parameter file is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    let limit = match a.movetime_emulated {
        Some(secs) => Limit::Time {
            secs,
            level: a.level.unwrap_or(crate::session::MAX_DEPTH),
        },
        None => Limit::Level {
            level: a.level.unwrap_or(2),
            iterate: a.iterate,
        },
    };
    let level = limit.level();
    if !(1..=8).contains(&level) {
        return Err(CliError::Input(format!(
            "level {level}: the firmware searches 1 to 8 plies"
        )));
    }
    super::check_position(a.at.fen.as_deref(), a.at.moves.as_deref())?;
    super::load_params(a.params.as_deref())?;
    cli_limited(
        a.at.fen.as_deref(),
        a.at.moves.as_deref(),
        limit,
        a.build,
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
            Score::Word(w) => format!(
                "{:+.3} pawns against the root (word {w}, 256 = a pawn)",
                score.pawns()
            ),
        },
    }
}

/// The relative word and the absolute figure: [`describe_score`], then (for a score that is
/// not a mate) the position's value for the side to move, the root's value added.
pub fn both_scores(score: Score, root: crate::session::RootValue) -> String {
    let word = describe_score(score);
    if score.mate().is_some() {
        return word;
    }
    let unit = if matches!(score, Score::Word(_)) {
        256.0
    } else {
        8.0
    };
    format!(
        "{word}; the position's value for the side to move {:+.2} pawns (cp {}: the root's \
         {:+.3} added)",
        crate::session::absolute_cp(score, root) as f64 / 100.0,
        crate::session::absolute_cp(score, root),
        root.0 as f64 / unit
    )
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
    cli_limited(fen, moves, Limit::Level { level, iterate }, build, params)
}

/// `z80chess search` under a [`Limit`].
pub fn cli_limited(
    fen: Option<&str>,
    moves: Option<&str>,
    limit: Limit,
    build: Build,
    params: Option<&std::path::Path>,
) -> Result<(), String> {
    let level = limit.level();
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
    let before = crate::profile::evals::Counters::read(&engine);
    let r = limit.search(&mut engine)?;
    let cost = EvalCost::of(
        &r,
        crate::profile::evals::Counters::read(&engine).since(before),
    );
    let root = crate::session::root_value(&engine, pos.turn().is_white()).unwrap_or_default();
    for d in &r.depths {
        println!(
            "info depth {} best {} score {} pv {}",
            d.depth,
            d.best.uci(),
            both_scores(d.score, root),
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
        SearchKind::Stopped => format!("{} (stopped)", both_scores(r.score, root)),
        SearchKind::Overflow => format!(
            "{} (a move list overflowed: last completed depth)",
            both_scores(r.score, root)
        ),
        SearchKind::Searched => both_scores(r.score, root),
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
        println!(
            "T-states per POINTS call {} (all the search's T-states over every evaluation, \
             lazy exits and stand-pat returns included; the line below counts full ones only)",
            group(r.tstates / r.evaluations as u64)
        );
    }
    if let Limit::Time { secs, .. } = limit {
        let budget = emulated_tstates(secs);
        println!(
            "movetime {secs} s emulated = {} T; depth reached {} ({}); stopped {} T after the budget",
            group(budget),
            r.depths.last().map_or(0, |d| d.depth),
            match r.kind {
                SearchKind::Stopped => "the budget ran out",
                _ => "the search ended first",
            },
            group(r.tstates.saturating_sub(budget))
        );
    }
    println!("{}", cost.line());
    if !legal {
        return Err(format!(
            "the firmware chose {}, which is not legal here",
            r.best.uci()
        ));
    }
    Ok(())
}
