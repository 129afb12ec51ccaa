//! `z80chess regress`: search recorded positions (EPD, TSV); record or compare a golden file.

use super::{write, CliError};
use crate::firmware::Build;
use crate::machine::PERIOD_HZ;
use crate::profile::regress::{self, group, Options, Verdict};
use indicatif::ProgressDrawTarget;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Search recorded positions and check, record or compare the results.
#[derive(clap::Args, Debug)]
pub struct Args {
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
    /// Write the results as a golden file (a new file; with --force, replacing one).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Let --record replace a file already there.
    #[arg(long)]
    pub force: bool,
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
    /// Search each position iteratively for this many seconds of emulated time at 2 MHz (to at
    /// most its level, or --level, or 8 plies), then move now.
    #[arg(long, value_name = "SECS", value_parser = super::search::emulated_seconds, allow_hyphen_values = true)]
    pub movetime_emulated: Option<f64>,
}

/// `--record` may be written: not an input, not an existing file unless `--force`.
fn check_record(a: &Args) -> Result<(), String> {
    let mut inputs: Vec<(&std::path::Path, &str)> =
        a.files.iter().map(|f| (f.as_path(), "an input")).collect();
    inputs.extend(a.compare.iter().map(|f| (f.as_path(), "--compare")));
    inputs.extend(a.params.iter().map(|f| (f.as_path(), "--params")));
    super::outputs(&[(a.record.as_deref(), "--record")], &inputs, a.force)
}

pub fn regress_cli(a: &Args) -> Result<(), String> {
    check_record(a)?;
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
        level: match (a.level, a.movetime_emulated) {
            (None, Some(_)) => Some(crate::session::MAX_DEPTH),
            (l, _) => l,
        },
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
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = regress::progress_bar(jobs.len(), target)?;
    let quiet = a.quiet;
    let outcomes = regress::run_shown(
        &cases,
        &jobs,
        opts.jobs,
        opts.params.as_ref(),
        a.movetime_emulated,
        &bar,
        |k, o| {
            if !quiet || matches!(o.verdict, Verdict::Fail | Verdict::Error) {
                let mut line = regress::describe(o);
                if o.verdict == Verdict::Fail {
                    line = format!("{line} ({})", regress::expected(&cases[jobs[k].case]));
                }
                println!("{line}");
            }
        },
    );
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
        let mut text = regress::golden_text_params(&outcomes, opts.params.as_ref());
        if let Some(secs) = a.movetime_emulated {
            text.insert_str(
                0,
                &format!("# movetime-emulated: {secs} s a position (level: the deepest)\n"),
            );
        }
        write(f, &text, a.force)?;
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
    if baseline.is_none() && failed > 0 {
        let noun = if failed == 1 { "position" } else { "positions" };
        return Err(format!("{failed} {noun} failed"));
    }
    Ok(())
}

/// Run `z80chess regress`: a file that cannot be read (the positions, the baseline, the
/// parameters) or a level out of range is a bad input (3), checked before the work starts.
pub fn run(a: &Args) -> Result<(), CliError> {
    for f in a.files.iter().chain(&a.compare) {
        super::readable(f)?;
    }
    for f in &a.files {
        regress::load_cases(f).map_err(CliError::Input)?;
    }
    if let Some(f) = &a.compare {
        let text = crate::userfile::read_text(f, crate::userfile::MAX_FILE)?;
        regress::parse_golden(&text, &f.display().to_string()).map_err(CliError::Input)?;
    }
    if let Some(l) = a.level.filter(|l| !(1..=8).contains(l)) {
        return Err(CliError::Input(format!(
            "level {l}: the firmware searches 1 to 8 plies"
        )));
    }
    super::load_params(a.params.as_deref())?;
    regress_cli(a).map_err(CliError::Run)
}
