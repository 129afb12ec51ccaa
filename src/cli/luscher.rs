//! `z80chess luscher fit NAME ...` and `z80chess luscher eval --fen F`.

use super::generated as output;
use super::CliError;
use crate::luscher::configs::bits;
use crate::luscher::export;
use crate::luscher::features::{self, Options};
use crate::luscher::fit::{self, type_name, Model, Settings, Stats};
use crate::luscher::quant;
use crate::luscher::LuscherError;
use crate::outfile::Replace;
use crate::tablebase::{layout::Layout, store, Metric, Store};
use clap::Subcommand;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: LuscherCommand,
}

#[derive(Subcommand, Debug)]
pub enum LuscherCommand {
    /// Fit the evaluation of an ending to its tablebase and print the paper's statistics;
    /// the model is saved as DIR/NAME.luscher.
    Fit {
        /// The ending (KRK, KBBK, KBNK, KPPKP, ...).
        name: String,
        /// Keep a configuration when active in at least this share of the training positions.
        #[arg(long, default_value_t = 0.001)]
        threshold: f64,
        /// At most this many atomic features per configuration.
        #[arg(long, default_value_t = 3)]
        max_features: u32,
        /// Worker threads (the result does not depend on them).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Where tables (and models) are kept.
        #[arg(long, default_value = crate::tablebase::verdict::DEFAULT_DIR)]
        dir: PathBuf,
        /// Share of the positions in the training set (default: the paper's for the ending).
        #[arg(long)]
        train_share: Option<f64>,
        /// Conjugate-gradient steps at most.
        #[arg(long, default_value_t = 300)]
        iterations: usize,
        /// Leave out the bishop's corner-of-its-colour feature (bits 29–31).
        #[arg(long)]
        no_corner: bool,
        /// The one-ply search and the random mover consider promotions to a queen only.
        #[arg(long)]
        queen_only: bool,
    },
    /// Write the fitted models' quantised tables as Z80 assembly (see src/luscher/export.rs).
    Export {
        /// The endings, each fitted first with `luscher fit NAME`.
        #[arg(default_values_t = ["KRK".to_string(), "KBBK".to_string(), "KBNK".to_string()])]
        names: Vec<String>,
        /// Where the models are kept.
        #[arg(long, default_value = crate::tablebase::verdict::DEFAULT_DIR)]
        dir: PathBuf,
        /// The assembly file to write (default asm/full/luscher_tables.asm, which the command
        /// rewrites; a file named here must be new unless --force).
        #[arg(long)]
        out: Option<PathBuf>,
        /// The expansion pages the tables may fill, in order.
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        pages: Vec<u8>,
        /// Let --out replace a file already there.
        #[arg(long)]
        force: bool,
    },
    /// Fit KBNK's edge-triple evaluation to our KBNK table and write the full build's
    /// tables (page 6; src/luscher/kbnk_tables.rs).
    KbnkTables {
        /// Where the KBNK table is kept (built there if missing).
        #[arg(long, default_value = crate::tablebase::verdict::DEFAULT_DIR)]
        dir: PathBuf,
        /// The assembly file to write (default asm/full/kbnk_tables.asm, which the command
        /// rewrites; a file named here must be new unless --force).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Let --out replace a file already there.
        #[arg(long)]
        force: bool,
    },
    /// The active configurations of every man and their weights, with a fitted model.
    Eval {
        /// The position (its ending's model must have been fitted with `luscher fit`).
        #[arg(long)]
        fen: String,
        /// Where the tables and the fitted models are kept.
        #[arg(long, default_value = crate::tablebase::verdict::DEFAULT_DIR)]
        dir: PathBuf,
    },
}

pub fn cli(args: &Args) -> Result<(), String> {
    run_luscher(args).map_err(|e| e.to_string())
}

fn pct(x: u64, n: usize) -> String {
    format!("{:.3}%", 100.0 * x as f64 / n.max(1) as f64)
}

/// The statistics as printed (one set).
pub fn report(label: &str, st: &Stats) -> String {
    let mut s = format!("{label}: {} positions\n", st.positions);
    s += &format!(
        "  average error: before {:.2} half-moves, after {:.2}\n",
        st.avg_before, st.avg_after
    );
    s += &format!(
        "  average quadratic error: before {:.1} half-moves², after {:.2}\n",
        st.quad_before, st.quad_after
    );
    s += "  database \\ function      win       draw       loss\n";
    for (k, name) in ["win", "draw", "loss"].iter().enumerate() {
        s += &format!(
            "  {name:<20} {:>9} {:>10} {:>10}\n",
            pct(st.table[k][0], st.positions),
            pct(st.table[k][1], st.positions),
            pct(st.table[k][2], st.positions)
        );
    }
    s += &format!("  outcome right: {:.2}%\n", st.outcome_right());
    s += &format!(
        "  one-ply hit rate: {:.2}% (random: {:.2}%)\n",
        st.hit_rate(),
        st.random_rate()
    );
    s += "  one-ply hit rate by database outcome:";
    for (k, name) in ["win", "draw", "loss"].iter().enumerate() {
        let (h, r) = st.class_rates(k);
        s += &format!(
            " {name} {h:.2}% (random {r:.2}%, {} positions){}",
            st.class_positions[k],
            if k < 2 { "," } else { "\n" }
        );
    }
    s += &format!("  largest |evaluation|: {:.2} half-moves\n", st.max_abs);
    s
}

/// What `luscher fit` found, and the model saved.
fn print_fit(
    name: &str,
    s: &Settings,
    r: &fit::FitResult,
    dir: &std::path::Path,
) -> Result<(), LuscherError> {
    println!(
        "{}: offset {}, longest distance {} plies, threshold {}, at most {} features",
        name, r.model.offset, r.model.max, s.threshold, s.max_features
    );
    println!("configurations:");
    for (role, cs, _) in &r.model.types {
        println!("  {}: {}", type_name(*role), cs.len());
    }
    println!("conjugate-gradient steps: {}", r.iterations);
    print!("{}", report("training set", &r.train));
    if let Some(t) = &r.test {
        print!("{}", report("test set", t));
    }
    let q = &r.quantised;
    println!(
        "quantised weights: signed 16-bit words, {} units a half-move; largest |weight| {} units",
        quant::QSCALE,
        q.max_word()
    );
    print!("{}", report("training set, quantised", &r.train_q));
    if let Some(t) = &r.test_q {
        print!("{}", report("test set, quantised", t));
    }
    let largest = r
        .test_q
        .as_ref()
        .map_or(r.train_q.max_abs, |t| t.max_abs.max(r.train_q.max_abs));
    let units = (largest * quant::QSCALE).round();
    println!(
        "quantised evaluation: largest |E| {units} units, {} the engine's limit {}{} (won endings at {} + E)",
        if units < quant::ENGINE_LIMIT as f64 { "within" } else { "beyond" },
        quant::ENGINE_LIMIT,
        if units < quant::ENGINE_LIMIT as f64 { "" } else { ", clamped to it there" },
        quant::LWIN
    );
    let path = Model::path(dir, name);
    r.model.save(&path)?;
    println!("model saved to {}", path.display());
    println!(
        "quantised: outcome right {:.2}%, one-ply hit rate {:.2}% (random: {:.2}%)",
        r.train_q.outcome_right(),
        r.train_q.hit_rate(),
        r.train_q.random_rate()
    );
    println!("outcome right: {:.2}%", r.train.outcome_right());
    println!(
        "one-ply hit rate: {:.2}% (random: {:.2}%)",
        r.train.hit_rate(),
        r.train.random_rate()
    );
    Ok(())
}

/// `luscher export`: the models' quantised tables as assembler source for the expansion pages.
fn export_models(
    names: &[String],
    dir: &std::path::Path,
    (out, replace): (PathBuf, Replace),
    pages: &[u8],
) -> Result<(), LuscherError> {
    let out = out.as_path();
    let paths: Vec<PathBuf> = names
        .iter()
        .map(|n| Ok(Model::path(dir, &Layout::parse(n)?.name)))
        .collect::<Result<_, LuscherError>>()?;
    let inputs: Vec<crate::outfile::Role> =
        paths.iter().map(|p| (p.as_path(), "a model")).collect();
    crate::outfile::distinct(&[(out, "--out")], &inputs)?;
    crate::outfile::check(out, replace)?;
    let mut models = Vec::new();
    for n in names {
        let l = Layout::parse(n)?;
        let path = Model::path(dir, &l.name);
        if !path.exists() {
            return Err(LuscherError::NoModel { name: l.name, path });
        }
        let m = Model::load(&path)?;
        if m.name != l.name {
            return Err(LuscherError::BadModel {
                path,
                why: format!("it holds {}, not {}", m.name, l.name),
            });
        }
        models.push(m);
    }
    let e = export::export(&models, pages)?;
    crate::outfile::write(out, e.text.as_bytes(), replace)?;
    println!("{}: {} lines", out.display(), e.text.lines().count());
    for (p, f) in &e.fill {
        println!("  page {p}: {f} bytes of {}", export::PAGE_SIZE);
    }
    Ok(())
}

/// `luscher kbnk-tables`: fit KBNK's tables and write them as assembly.
fn kbnk_tables(
    dir: &std::path::Path,
    out: &Option<PathBuf>,
    force: bool,
) -> Result<(), LuscherError> {
    let (out, replace) = output(out, "asm/full/kbnk_tables.asm", force);
    let table = Store::new(dir, Metric::Dtm).path("KBNK");
    let dense = dir.join("KBNK.dense");
    crate::outfile::distinct(
        &[(&out, "--out")],
        &[(&table, "the KBNK table"), (&dense, "the KBNK cache")],
    )?;
    crate::outfile::check(&out, replace)?;
    let (t, notes) = crate::luscher::kbnk_tables::generate(dir)?;
    for n in notes {
        println!("{n}");
    }
    let text = t.asm();
    crate::outfile::write(&out, text.as_bytes(), replace)?;
    println!("{}: {} lines", out.display(), text.lines().count());
    Ok(())
}

fn run_luscher(args: &Args) -> Result<(), LuscherError> {
    match &args.command {
        LuscherCommand::Fit {
            name,
            threshold,
            max_features,
            jobs,
            dir,
            train_share,
            iterations,
            no_corner,
            queen_only,
        } => {
            let l = Layout::parse(name)?;
            if !(0.0..=1.0).contains(threshold) {
                return Err(LuscherError::Usage(format!(
                    "--threshold {threshold} is not a share in 0..1"
                )));
            }
            let mut s = Settings::for_ending(&l);
            s.threshold = *threshold;
            s.max_features = *max_features;
            s.jobs = (*jobs).max(1);
            s.max_iter = *iterations;
            s.queen_only = *queen_only;
            s.options = Options {
                no_corner: *no_corner,
            };
            if let Some(t) = train_share {
                if !(0.0 < *t && *t <= 1.0) {
                    return Err(LuscherError::Usage(format!(
                        "--train-share {t} is not in (0, 1]"
                    )));
                }
                s.train_share = *t;
                s.test_share = s.test_share.min(1.0 - t);
            }
            let r = fit::fit(dir, &l.name, &s)?;
            print_fit(&l.name, &s, &r, dir)
        }
        LuscherCommand::Export {
            names,
            dir,
            out,
            pages,
            force,
        } => export_models(
            names,
            dir,
            output(out, "asm/full/luscher_tables.asm", *force),
            pages,
        ),
        LuscherCommand::KbnkTables { dir, out, force } => kbnk_tables(dir, out, *force),
        LuscherCommand::Eval { fen, dir } => {
            let pos = store::chess_of(fen)?;
            let name = store::material_name(&pos)?;
            let path = Model::path(dir, &name);
            if !path.exists() {
                return Err(LuscherError::NoModel { name, path });
            }
            let model = Model::load(&path)?;
            let (men, stm, _) = store::men_of(&pos)?;
            let mut buf = Vec::new();
            let mut total = 0.0;
            println!(
                "{name} model {}, {} to move",
                path.display(),
                if stm == 0 { "White" } else { "Black" }
            );
            for i in 0..men.n {
                let v = features::vector(&men, i, stm, model.options);
                let role = men.role[i];
                let sign = if men.color[i] == stm { 1.0 } else { -1.0 };
                let x = model.man_value(role, v, &mut buf);
                println!(
                    "{} {} on {}: features {:08x} = bits {:?}; {} active, sum {:+.3} (counts {})",
                    if men.color[i] == 0 { "White" } else { "Black" },
                    type_name(role),
                    crate::tablebase::men::square_name(men.sq[i]),
                    v,
                    bits(v),
                    buf.len(),
                    x,
                    if sign > 0.0 { "+" } else { "-" }
                );
                if let Some((_, cs, w)) = model.types.iter().find(|t| t.0 == role) {
                    for &k in &buf {
                        println!("    {:?} {:+.4}", bits(cs.masks[k as usize]), w[k as usize]);
                    }
                }
                total += sign * x;
            }
            let mut cache = HashMap::new();
            let e = model.eval(&men, stm, &mut cache);
            println!("evaluation for the side to move: {total:+.3} half-moves (through the cache: {e:+.3})");
            let q = quant::Quantised::of(&model)?;
            let eq = q.eval(&men, stm);
            println!(
                "quantised: {eq} units ({:+.3} half-moves), engine score {}",
                eq as f64 / quant::QSCALE,
                quant::engine_score(eq, model.offset)
            );
            let l = Layout::parse(&name)?;
            let mut st = Store::new(dir, if l.pawns { Metric::Pawn } else { Metric::Dtm });
            if let Ok(Some(_)) = st.open(&name) {
                let v = st.probe(&pos)?;
                println!(
                    "tablebase: {v}, target {:+.1}",
                    fit::target(v, model.max, model.offset)
                );
            }
            Ok(())
        }
    }
}

/// Run `z80chess luscher`.
pub fn run(a: &Args) -> Result<(), CliError> {
    cli(a).map_err(CliError::Run)
}
