//! `z80chess bench`: the engine's signature: moves made and T-states over fixed positions.

use super::CliError;
use crate::firmware::Build;
use crate::machine::PERIOD_HZ;
use crate::profile::bench;
use crate::profile::regress::group;
use std::path::PathBuf;

/// `z80chess bench`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

/// Run `z80chess bench`.
pub fn run(a: &Args) -> Result<(), CliError> {
    super::load_params(a.params.as_deref())?;
    bench_cli(a.params.as_deref()).map_err(CliError::Run)
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
    for s in &sigs {
        println!("{:<8} {}", s.build.name(), s.cost().line());
    }
    println!(
        "{} T-states ({:.0} s at 2 MHz) in {host:.2} s here: {:.0} emulated MHz",
        group(all),
        all as f64 / PERIOD_HZ as f64,
        all as f64 / host / 1e6
    );
    Ok(())
}
