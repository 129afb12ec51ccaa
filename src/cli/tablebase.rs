//! `z80chess tablebase build|probe|stats|verify|compare-stockfish`.

use super::CliError;
use crate::tablebase::generate::{self, verify};
use crate::tablebase::store::{material_name, Store};
use crate::tablebase::verdict::{describe, DEFAULT_DIR};
use crate::tablebase::{Metric, TablebaseError};
use clap::Subcommand;
use std::path::PathBuf;

/// `--metric dtm|pawn` (the trait lives with the command so that the library knows no clap).
impl clap::ValueEnum for Metric {
    fn value_variants<'a>() -> &'a [Self] {
        &[Metric::Dtm, Metric::Pawn]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(
            clap::builder::PossibleValue::new(self.suffix()).help(match self {
                Metric::Dtm => "Distance to mate (plies), win/draw/loss: the rules of chess",
                Metric::Pawn => {
                    "Lüscher's: plies to mate or to any promotion; a promotion is the win"
                }
            }),
        )
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: TbCommand,
}

#[derive(clap::Args, Debug, Clone)]
pub struct Common {
    /// Where tables are kept.
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// dtm: distance to mate (chess); pawn: Lüscher's plies to mate or any promotion.
    #[arg(long, value_enum, default_value_t = Metric::Dtm)]
    pub metric: Metric,
}

#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Build a table and every sub-ending it needs (KPK also builds KQK, KRK, KBK, KNK).
    Build {
        /// The ending: K, the first side's men (QRBNP), K, the other's: KQK, KRKP, KPPKP.
        name: String,
        #[command(flatten)]
        common: Common,
        /// Then check every position against its moves (the self-consistency proof).
        #[arg(long)]
        verify: bool,
    },
    /// The verdict of a position, its distance and every move's value, best first. The
    /// position must be legal (the checks `search` makes); a table it needs that is not in
    /// --dir is built there first, said on stderr (with a progress bar on a terminal).
    Probe {
        /// The position (a FEN; `startpos` is the initial position).
        #[arg(long)]
        fen: String,
        #[command(flatten)]
        common: Common,
    },
    /// Positions per outcome and the longest win (building the table first if missing).
    Stats {
        /// The ending: K, the first side's men (QRBNP), K, the other's: KQK, KRKP.
        name: String,
        #[command(flatten)]
        common: Common,
    },
    /// The self-consistency proof over every position of a table (building it if missing).
    Verify {
        /// The ending: K, the first side's men (QRBNP), K, the other's: KQK, KRKP.
        name: String,
        #[command(flatten)]
        common: Common,
    },
    /// The KPK bitbase for the full build's ROM (a bit per position, the pawn's side to
    /// move), from the KPK table, written as generated assembly.
    KpkBitbase {
        #[command(flatten)]
        common: Common,
        /// The assembly file to write (default asm/full/kpk_bitbase.asm, which the command
        /// rewrites; a file named here must be new unless --force).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Let --out replace a file already there.
        #[arg(long)]
        force: bool,
    },
    /// Random positions against Debian's `stockfish`: verdicts agree wherever it sees a
    /// mate, and its mate distance is never shorter than ours.
    CompareStockfish {
        /// The ending: K, the first side's men (QRBNP), K, the other's: KQK, KRKP.
        name: String,
        #[command(flatten)]
        common: Common,
        /// Positions drawn at random from the table.
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Stockfish's budget per position (`go nodes N`).
        #[arg(long, default_value_t = 2_000_000)]
        nodes: u64,
        /// The Stockfish binary.
        #[arg(long, default_value = "stockfish")]
        stockfish: PathBuf,
        /// The random generator's seed: the same seed draws the same positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

pub fn cli(args: &Args) -> Result<(), String> {
    run_tables(args).map_err(|e| e.to_string())
}

fn open_store(c: &Common) -> Store {
    let mut s = Store::new(&c.dir, c.metric);
    s.verbose = true;
    s
}

use crate::session::group;

fn run_tables(args: &Args) -> Result<(), TablebaseError> {
    match &args.command {
        TbCommand::Build {
            name,
            common,
            verify: check,
        } => {
            let mut store = open_store(common);
            store.rebuild = true;
            let t0 = std::time::Instant::now();
            let t = store.table(name)?;
            println!(
                "{} ({}): {} bytes in {}, {:.2} s",
                t.layout.name,
                common.metric.suffix(),
                group(t.data.len() as u64),
                store.path(&t.layout.name).display(),
                t0.elapsed().as_secs_f64()
            );
            if *check {
                prove(&store, &t.layout.name)?;
            }
            Ok(())
        }
        TbCommand::Verify { name, common } => {
            let mut store = open_store(common);
            let t = store.table(name)?;
            prove(&store, &t.layout.name)
        }
        TbCommand::Stats { name, common } => {
            let mut store = open_store(common);
            let t = store.table(name)?;
            let s = generate::stats(&t.layout, &t.data);
            let total: u64 = s.counts.iter().flatten().sum();
            println!(
                "{} ({}): {} positions (each once, up to symmetry), {} bytes",
                t.layout.name,
                common.metric.suffix(),
                group(total),
                group(t.data.len() as u64)
            );
            let (first, second) = names(&t.layout.name);
            for side in 0..2 {
                let c = s.counts[side];
                println!(
                    "{} ({}) to move: {} wins, {} draws, {} losses",
                    if side == 0 { "White" } else { "Black" },
                    if side == 0 { &first } else { &second },
                    group(c[0]),
                    group(c[1]),
                    group(c[2])
                );
                let (d, fen) = &s.longest[side];
                if !fen.is_empty() {
                    println!("  longest win: {} moves ({d} plies): {fen}", d.div_ceil(2));
                }
            }
            let longest = s
                .longest
                .iter()
                .map(|(d, _)| (*d as u32).div_ceil(2))
                .max()
                .unwrap_or(0);
            println!("longest: {longest} moves");
            Ok(())
        }
        TbCommand::Probe { fen, common } => {
            // the checks `search` makes (the side not to move in check, the kings, an
            // impossible check), before any table is built for the position
            let pos = crate::firmware::parse_fen(fen)
                .map_err(|e| TablebaseError::Position(e.to_string()))?;
            let mut store = open_store(common);
            let name = material_name(&pos)?;
            store.table(&name)?;
            print!("{}", describe(&store, &pos, true)?);
            Ok(())
        }
        TbCommand::KpkBitbase { common, out, force } => {
            use crate::tablebase::kpk_bitbase;
            let (out, replace) = super::generated(out, "asm/full/kpk_bitbase.asm", *force);
            let table = open_store(common).path("KPK");
            crate::outfile::distinct(&[(&out, "--out")], &[(&table, "the KPK table")])?;
            crate::outfile::check(&out, replace)?;
            if common.metric != Metric::Dtm {
                return Err(TablebaseError::Usage(
                    "kpk-bitbase needs the dtm metric".into(),
                ));
            }
            let mut store = open_store(common);
            let bits = kpk_bitbase::generate(&mut store)?;
            let text = kpk_bitbase::asm_text(&bits);
            crate::outfile::write(&out, text.as_bytes(), replace)?;
            let won: u32 = bits.iter().map(|b| b.count_ones()).sum();
            println!(
                "{}: the KPK bitbase, {} bytes, {} positions won",
                out.display(),
                group(bits.len() as u64),
                group(won as u64)
            );
            Ok(())
        }
        TbCommand::CompareStockfish {
            name,
            common,
            positions,
            nodes,
            stockfish,
            seed,
        } => {
            let mut store = open_store(common);
            let t = store.table(name)?;
            if common.metric != Metric::Dtm {
                return Err(TablebaseError::Usage(
                    "compare-stockfish needs the dtm metric".into(),
                ));
            }
            crate::tablebase::stockfish::compare(&store, &t, *positions, *nodes, stockfish, *seed)
        }
    }
}

fn names(name: &str) -> (String, String) {
    let rest = &name[1..];
    let k = rest.find('K').unwrap_or(rest.len());
    (format!("K{}", &rest[..k]), rest[k..].to_string())
}

fn prove(store: &Store, name: &str) -> Result<(), TablebaseError> {
    let t = store.loaded(name).expect("loaded");
    let t0 = std::time::Instant::now();
    let (n, bad) = verify(&t.layout, t.metric, store, &t.data)?;
    println!(
        "self-consistency of {}: {} positions checked in {:.2} s, {} wrong",
        name,
        group(n),
        t0.elapsed().as_secs_f64(),
        bad.len()
    );
    for m in &bad {
        println!(
            "  {}: stored {:?}, its moves give {:?}",
            m.fen, m.stored, m.computed
        );
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(TablebaseError::Usage(format!("{name} is inconsistent")))
    }
}

/// Run `z80chess tablebase`: a bad name, FEN or position, or a table file that is not one,
/// is a bad input (3); anything else that fails, a failed run (1).
pub fn run(a: &Args) -> Result<(), CliError> {
    run_tables(a).map_err(|e| match e {
        TablebaseError::BadName { .. }
        | TablebaseError::BadFen { .. }
        | TablebaseError::Position(_)
        | TablebaseError::Corrupt { .. }
        | TablebaseError::Params(_) => CliError::Input(e.to_string()),
        _ => CliError::Run(e.to_string()),
    })
}
