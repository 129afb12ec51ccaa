//! `z80chess profile`: calls and T-states per routine in one search, collapsed stacks.

use super::{write, CliError};
use crate::cli::search::{describe_score, prepare};
use crate::firmware::{Build, Engine, SearchResult};
use crate::machine::PERIOD_HZ;
use crate::profile::regress::group;
use crate::profile::{profile_search, Profile};
use shakmaty::san::SanPlus;
use shakmaty::Position;
use std::path::PathBuf;

/// Profile one search: where its T-states go, per routine.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (moved bits and move number by the 1978 test-suite convention);
    /// `startpos` is the initial position.
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// Moves from the start, in coordinates or SAN ("e2e4 e7e5 Nf3"), played in the firmware.
    #[arg(long)]
    pub moves: Option<String>,
    /// Look-ahead in plies (1-8).
    #[arg(long, default_value_t = 3)]
    pub level: u8,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// Search depth 1, 2, ... level (iterative deepening).
    #[arg(long)]
    pub iterate: bool,
    /// Routines in the table (the rest are summed on one line).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Write every routine's line as CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write collapsed stacks (`A;B;C T-states`) for flamegraph tools.
    #[arg(long)]
    pub folded: Option<PathBuf>,
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Replace a --csv or --folded file already there.
    #[arg(long)]
    pub force: bool,
}

/// The profile as a table: the `top` routines by exclusive T-states.
pub fn table(p: &Profile, top: usize) -> String {
    let total = p.total.max(1) as f64;
    let pct = |t: u64| t as f64 * 100.0 / total;
    let mut s = format!(
        "{:<10} {:>9} {:>15} {:>6} {:>15} {:>6} {:>12}\n",
        "routine", "calls", "exclusive T", "%", "inclusive T", "%", "T/call"
    );
    for r in p.routines.iter().take(top) {
        s.push_str(&format!(
            "{:<10} {:>9} {:>15} {:>6.2} {:>15} {:>6.2} {:>12}\n",
            r.name,
            group(r.calls),
            group(r.exclusive),
            pct(r.exclusive),
            group(r.inclusive),
            pct(r.inclusive),
            r.inclusive
                .checked_div(r.calls)
                .map_or_else(|| "-".into(), group)
        ));
    }
    if p.routines.len() > top {
        let rest: u64 = p.routines[top..].iter().map(|r| r.exclusive).sum();
        s.push_str(&format!(
            "{:<10} {:>9} {:>15} {:>6.2}\n",
            format!("({} more)", p.routines.len() - top),
            "",
            group(rest),
            pct(rest)
        ));
    }
    s
}

/// Every routine as CSV.
pub fn csv(p: &Profile) -> String {
    let total = p.total.max(1) as f64;
    let mut s = String::from(
        "routine,address,calls,exclusive_tstates,exclusive_pct,inclusive_tstates,inclusive_pct,tstates_per_call,instructions\n",
    );
    for r in &p.routines {
        s.push_str(&format!(
            "{},{:04X},{},{},{:.4},{},{:.4},{},{}\n",
            r.name,
            r.addr,
            r.calls,
            r.exclusive,
            r.exclusive as f64 * 100.0 / total,
            r.inclusive,
            r.inclusive as f64 * 100.0 / total,
            r.inclusive.checked_div(r.calls).unwrap_or(0),
            r.instructions
        ));
    }
    s
}

/// The search's totals: the move, its T-states and time at 2 MHz, the article's measures.
pub fn totals(r: &SearchResult, san: &str, p: &Profile) -> String {
    format!(
        "bestmove {} ({san}), score {}\n\
         move: {} T-states = {:.1} s at 2 MHz, {} instructions\n\
         evaluations {} (POINTS calls), XCHNG calls {}, positions (moves made) {}\n\
         (the article: \"5,000 to 12,000 positions at 4 ply\", \"up to 60,000 XCHNG calls\")\n",
        r.best.uci(),
        describe_score(r.score),
        group(r.tstates),
        r.tstates as f64 / PERIOD_HZ as f64,
        group(p.instructions),
        group(r.evaluations as u64),
        group(r.xchng_calls as u64),
        group(r.nodes as u64),
    )
}

pub fn profile_cli(a: &Args) -> Result<(), String> {
    if !(1..=8).contains(&a.level) {
        return Err(format!(
            "level {}: the firmware searches 1 to 8 plies",
            a.level
        ));
    }
    let params: Vec<(&std::path::Path, &str)> =
        a.params.iter().map(|p| (p.as_path(), "--params")).collect();
    super::outputs(
        &[
            (a.csv.as_deref(), "--csv"),
            (a.folded.as_deref(), "--folded"),
        ],
        &params,
        a.force,
    )?;
    let mut engine = Engine::new(a.build).map_err(|e| e.to_string())?;
    if let Some(pf) = crate::session::load_params_arg(a.params.as_deref())? {
        engine.load_params(&pf).map_err(|e| e.to_string())?;
    }
    let pos = prepare(&mut engine, a.fen.as_deref(), a.moves.as_deref())?;
    if pos.legal_moves().is_empty() {
        return Err("the side to move has no legal move".into());
    }
    let (r, p) = profile_search(&mut engine, a.level, a.iterate).map_err(|e| e.to_string())?;
    let san = r
        .best
        .to_move(&pos)
        .map(|m| SanPlus::from_move(pos.clone(), m).to_string())
        .ok_or_else(|| format!("the firmware chose {}, not legal here", r.best.uci()))?;
    println!("build {}, level {}", a.build, a.level);
    print!("{}", totals(&r, &san, &p));
    println!();
    print!("{}", table(&p, a.top));
    println!(
        "exclusive: the routine's own instructions; inclusive: while it is on the call stack \
         (recursion counted once);\ncalls: entries at its label (CALL, RST, tail jumps). \
         Deepest call stack {} frames; {} stack resets; {} return addresses thrown away by a \
         POP (early exits).",
        p.max_depth, p.resyncs, p.discards
    );
    if let Some(f) = &a.csv {
        write(f, &csv(&p), a.force)?;
        println!("wrote {}", f.display());
    }
    if let Some(f) = &a.folded {
        write(f, &p.folded_text(), a.force)?;
        println!(
            "wrote {} (collapsed stacks weighted by T-states: flamegraph.pl, inferno-flamegraph, speedscope)",
            f.display()
        );
    }
    Ok(())
}

/// Run `z80chess profile`: a bad position, level or parameter file is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    if !(1..=8).contains(&a.level) {
        return Err(CliError::Input(format!(
            "level {}: the firmware searches 1 to 8 plies",
            a.level
        )));
    }
    super::check_position(a.fen.as_deref(), a.moves.as_deref())?;
    super::load_params(a.params.as_deref())?;
    profile_cli(a).map_err(CliError::Run)
}
