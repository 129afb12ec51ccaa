//! `z80chess profile`, `z80chess regress`, `z80chess bench`.

use super::regress::{self, group, Options, Verdict};
use super::{bench, profile_search, Profile};
use crate::cli::search::{describe_score, prepare};
use crate::firmware::{Build, Engine, SearchResult};
use crate::machine::PERIOD_HZ;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::san::SanPlus;
use shakmaty::Position;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Profile one search: where its T-states go, per routine.
#[derive(clap::Args, Debug)]
pub struct ProfileArgs {
    /// The position (moved bits and move number by the 1978 test-suite convention).
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// Moves from the start, in UCI notation ("e2e4 e7e5 ..."), played in the firmware.
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
}

/// Search recorded positions and check, record or compare the results.
#[derive(clap::Args, Debug)]
pub struct RegressArgs {
    /// EPD files (bm, am, id, level) or TSV files with a header (fen, id, level|plymax, move).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Which firmware (repeat for several; default article).
    #[arg(long, value_enum)]
    pub build: Vec<Build>,
    /// Level of the positions whose file gives none.
    #[arg(long)]
    pub level: Option<u8>,
    /// Skip positions above this level (book positions always run).
    #[arg(long)]
    pub max_level: Option<u8>,
    /// Run only the first N positions (after --max-level).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Write the results as a golden file.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Compare with a golden file: fail on a changed move or a cost beyond --tolerance.
    #[arg(long)]
    pub compare: Option<PathBuf>,
    /// How much a position's T-states may grow against --compare, in percent.
    #[arg(long, default_value_t = 0.0)]
    pub tolerance: f64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A parameter file for the full build's runs (recorded by hash in --record's file).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Print only failures, changes and the totals.
    #[arg(long, short)]
    pub quiet: bool,
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
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

pub fn profile_cli(a: &ProfileArgs) -> Result<(), String> {
    if !(1..=8).contains(&a.level) {
        return Err(format!(
            "level {}: the firmware searches 1 to 8 plies",
            a.level
        ));
    }
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
         Deepest call stack {} frames; {} stack resets.",
        p.max_depth, p.resyncs
    );
    if let Some(f) = &a.csv {
        write(f, &csv(&p))?;
        println!("wrote {}", f.display());
    }
    if let Some(f) = &a.folded {
        write(f, &p.folded_text())?;
        println!(
            "wrote {} (collapsed stacks weighted by T-states: flamegraph.pl, inferno-flamegraph, speedscope)",
            f.display()
        );
    }
    Ok(())
}

pub fn regress_cli(a: &RegressArgs) -> Result<(), String> {
    let mut cases = Vec::new();
    for f in &a.files {
        cases.extend(regress::load_cases(f)?);
    }
    if let Some(l) = a.level {
        if !(1..=8).contains(&l) {
            return Err(format!("level {l}: the firmware searches 1 to 8 plies"));
        }
    }
    let opts = Options {
        builds: if a.build.is_empty() {
            vec![Build::Article]
        } else {
            a.build.clone()
        },
        level: a.level,
        max_level: a.max_level,
        params: crate::session::load_params_arg(a.params.as_deref())?,
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let baseline = match &a.compare {
        Some(f) => {
            let text = crate::userfile::read_text(f, crate::userfile::MAX_FILE)
                .map_err(|e| format!("{}: {}", f.display(), e.reason()))?;
            Some(regress::parse_golden(&text, &f.display().to_string())?)
        }
        None => None,
    };
    let (mut jobs, skipped) = regress::plan(&cases, &opts)?;
    if let Some(n) = a.limit {
        let mut kept = std::collections::HashSet::new();
        jobs.retain(|j| {
            if kept.len() < n {
                kept.insert(j.case);
            }
            kept.contains(&j.case)
        });
    }
    let bar = if std::io::stderr().is_terminal() && jobs.len() > 1 {
        ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} searches, {elapsed} ({eta} left)")
            .map_err(|e| e.to_string())?,
    );
    let quiet = a.quiet;
    let outcomes = regress::run_with(&cases, &jobs, opts.jobs, opts.params.as_ref(), |_, o| {
        bar.inc(1);
        if !quiet || matches!(o.verdict, Verdict::Fail | Verdict::Error) {
            bar.suspend(|| println!("{}", regress::describe(o)));
        }
    });
    bar.finish_and_clear();
    let mut failed_cmp = false;
    if let Some(base) = &baseline {
        let c = regress::compare(base, &outcomes, a.tolerance);
        for l in &c.lines {
            println!("{l}");
        }
        println!("{}", c.summary());
        failed_cmp = c.failed();
    }
    if let Some(f) = &a.record {
        write(
            f,
            &regress::golden_text_params(&outcomes, opts.params.as_ref()),
        )?;
        println!("recorded {} results in {}", outcomes.len(), f.display());
    }
    let (passed, failed) = regress::tally(&outcomes);
    let unchecked = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Unchecked)
        .count();
    let tstates: u64 = outcomes.iter().map(|o| o.tstates).sum();
    println!(
        "{} searches, {} T-states ({:.1} s at 2 MHz){}{}",
        outcomes.len(),
        group(tstates),
        tstates as f64 / PERIOD_HZ as f64,
        if unchecked > 0 {
            format!(", {unchecked} without an expected move")
        } else {
            String::new()
        },
        if skipped.is_empty() {
            String::new()
        } else {
            format!(", {} positions above --max-level not run", skipped.len())
        }
    );
    println!("{passed} passed, {failed} failed");
    if failed_cmp {
        return Err("the results differ from the baseline (see above)".into());
    }
    if baseline.is_none() && failed > 0 && a.record.is_none() {
        return Err(format!("{failed} positions failed"));
    }
    Ok(())
}

pub fn bench_cli(params: Option<&std::path::Path>) -> Result<(), String> {
    let params = crate::session::load_params_arg(params)?;
    if let Some(pf) = &params {
        println!(
            "the full build with parameters {} (hash {})",
            pf.source,
            pf.hash()
        );
    }
    let start = std::time::Instant::now();
    let mut sigs = Vec::new();
    for build in Build::ALL {
        let s = bench::signature_with(build, params.as_ref())?;
        for l in &s.lines {
            println!(
                "{:<8} {:<9} L{} {:<6} nodes {:>6} evaluations {:>6} XCHNG {:>7} T {:>14}",
                build.name(),
                l.name,
                l.level,
                l.mv,
                l.nodes,
                l.evaluations,
                l.xchng_calls,
                group(l.tstates)
            );
        }
        sigs.push(s);
    }
    let host = start.elapsed().as_secs_f64();
    let all: u64 = sigs.iter().map(|s| s.tstates).sum();
    for s in &sigs {
        println!("{}", s.line());
    }
    println!(
        "{} T-states ({:.0} s at 2 MHz) in {host:.2} s here: {:.0} emulated MHz",
        group(all),
        all as f64 / PERIOD_HZ as f64,
        all as f64 / host / 1e6
    );
    Ok(())
}
