#![doc = include_str!("README.md")]
pub mod asm;
pub mod bench;
pub mod build;
pub mod cpm;
pub mod debug;
pub mod disasm;
pub mod endgame_test;
pub mod eval;
pub mod luscher;
pub mod matchplay;
pub mod params;
pub mod perft;
pub mod play;
pub mod profile;
pub mod regress;
pub mod roms;
pub mod search;
pub mod serve;
pub mod tablebase;
pub mod tune;
pub mod uci;
pub mod xboard;
pub mod xchng;

use crate::firmware::params::ParamFile;
use crate::firmware::Build;
use crate::session::game::Game;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// Why a command failed, and so its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The engine or a run failed (exit 1).
    #[error("{0}")]
    Run(String),
    /// The command line asked for something it cannot (exit 2, as clap's own errors).
    #[error("{0}")]
    Usage(String),
    /// A bad input file or position (exit 3).
    #[error("{0}")]
    Input(String),
}

impl CliError {
    /// 1: the engine or a run failed; 2: usage; 3: a bad input file or position.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Run(_) => 1,
            CliError::Usage(_) => 2,
            CliError::Input(_) => 3,
        }
    }
}

impl From<crate::userfile::UserFileError> for CliError {
    fn from(e: crate::userfile::UserFileError) -> CliError {
        CliError::Input(e.to_string())
    }
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Play the Z80 at period speed: full screen, or a line-oriented session with --text.
    Play(play::Args),
    /// The UCI protocol on stdin/stdout, for GUIs and match runners.
    Uci(EngineArgs),
    /// The xboard/WinBoard protocol (CECP v2) on stdin/stdout.
    Xboard(EngineArgs),
    /// A protocol for scripts on stdin/stdout: `--json`, one JSON object a line each way.
    Serve(serve::Args),
    /// Run a CP/M .COM program (e.g. the zexdoc/zexall instruction exercisers).
    Cpm(cpm::Args),
    /// Assemble Z80 source (Zilog syntax) into a binary image.
    Asm(asm::Args),
    /// Count move paths (perft), computed by the Z80 firmware.
    Perft(perft::Args),
    /// The exchange on one square: ATKLST and XCHNG's residue trace from the Z80, beside the
    /// textbook SEE.
    Xchng(xchng::Args),
    /// One search by the Z80 firmware: the move, its score and what it cost.
    Search(search::Args),
    /// The static evaluation of a position as the Z80 computes it, term by term.
    Eval(eval::Args),
    /// The full build's scoring parameters: name, address, value per block, meaning.
    Params(params::Args),
    /// Fit the full build's knowledge weights to the results of played games (Texel's method):
    /// prints what each weight is worth and writes a parameter file.
    Tune(tune::Args),
    /// Step-debug the firmware (or an assembly program) at the source level.
    Debug(debug::Args),
    /// Profile one search: calls and T-states per routine, collapsed stacks.
    Profile(profile::Args),
    /// Search recorded positions (EPD, TSV); record or compare a golden file.
    Regress(regress::Args),
    /// The engine's signature: moves made and T-states over fixed positions, each build.
    Bench(bench::Args),
    /// Games between two engines (builds or UCI) at a fixed depth or equal emulated time.
    Match(matchplay::Args),
    /// Our own endgame tables: build, probe, stats, verify, compare with Stockfish.
    Tablebase(tablebase::Args),
    /// Lüscher's generated evaluation: fit to a tablebase, evaluate a position, export.
    Luscher(luscher::Args),
    /// The engine plays won and drawn endgame positions against the tablebase's perfect replies.
    EndgameTest(endgame_test::Args),
    /// Assemble every firmware build from asm/ into roms/ (or only check with --check).
    Roms(roms::Args),
    /// Disassemble a binary image.
    Disasm(disasm::Args),
}

impl Command {
    /// Whether the command only prints (a closed pipe may end it quietly, as any Unix tool);
    /// the ones that talk to other programs or a terminal report a gone peer instead.
    pub fn only_prints(&self) -> bool {
        !matches!(
            self,
            Command::Play(_)
                | Command::Uci(_)
                | Command::Xboard(_)
                | Command::Serve(_)
                | Command::Cpm(_)
                | Command::Debug(_)
                | Command::Match(_)
                | Command::Tablebase(_)
        )
    }

    /// Run the command.
    pub fn run(&self) -> Result<(), CliError> {
        match self {
            Command::Play(a) => play::run(a),
            Command::Uci(a) => uci::run(a),
            Command::Xboard(a) => xboard::run(a),
            Command::Serve(a) => serve::run(a),
            Command::Cpm(a) => cpm::run(a),
            Command::Asm(a) => asm::run(a),
            Command::Perft(a) => perft::run(a),
            Command::Xchng(a) => xchng::run(a),
            Command::Search(a) => search::run(a),
            Command::Eval(a) => eval::run(a),
            Command::Params(a) => params::run(a),
            Command::Tune(a) => tune::run(a),
            Command::Debug(a) => debug::run(a),
            Command::Profile(a) => profile::run(a),
            Command::Regress(a) => regress::run(a),
            Command::Bench(a) => bench::run(a),
            Command::Match(a) => matchplay::run(a),
            Command::Tablebase(a) => tablebase::run(a),
            Command::Luscher(a) => luscher::run(a),
            Command::EndgameTest(a) => endgame_test::run(a),
            Command::Roms(a) => roms::run(a),
            Command::Disasm(a) => disasm::run(a),
        }
    }
}

/// The engine a protocol front end (`uci`, `xboard`, `serve`) starts with (UCI can change
/// both with `setoption`).
#[derive(Clone, Debug, clap::Args)]
pub struct EngineArgs {
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// A parameter file for the full build.
    #[arg(long)]
    pub params: Option<std::path::PathBuf>,
}

impl EngineArgs {
    /// The game these arguments start with (a bad parameter file is a bad input).
    pub fn game(&self) -> Result<Game, CliError> {
        let params = load_params(self.params.as_deref())?;
        let mut g = Game::new(self.build, crate::session::DEFAULT_LEVEL)
            .map_err(|e| CliError::Run(e.to_string()))?;
        g.set_params(params)
            .map_err(|e| CliError::Input(e.to_string()))?;
        Ok(g)
    }
}

/// Where a one-position command starts: `--fen`, or `--moves` from the start.
#[derive(Clone, Debug, clap::Args)]
pub struct PositionArgs {
    /// The position (moved bits and move number by the 1978 test-suite convention);
    /// `startpos` is the initial position.
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// Moves from the start, in coordinates or SAN ("e2e4 e7e5 Nf3"), played in the firmware.
    #[arg(long)]
    pub moves: Option<String>,
}

/// Read `--params FILE`, if given (a bad one is a bad input).
pub fn load_params(path: Option<&Path>) -> Result<Option<ParamFile>, CliError> {
    path.map(|p| ParamFile::load(p).map_err(|e| CliError::Input(e.to_string())))
        .transpose()
}

/// `--fen` / `--moves` checked before a run: the FEN by the one checked reader, each move
/// legal in turn (coordinates or SAN, from the start).
pub fn check_position(fen: Option<&str>, moves: Option<&str>) -> Result<(), CliError> {
    if let Some(f) = fen {
        crate::firmware::parse_fen(f).map_err(|e| CliError::Input(e.to_string()))?;
    }
    if let Some(ms) = moves {
        crate::firmware::sargon::replay(ms)
            .map_err(|e| CliError::Input(format!("--moves: {e}")))?;
    }
    Ok(())
}

/// Write a report file the user asked for (through [`crate::outfile`]: replacing a file
/// already there only with `--force`).
pub fn write(path: &Path, text: &str, force: bool) -> Result<(), String> {
    crate::outfile::write(path, text.as_bytes(), crate::outfile::Replace::force(force))
        .map_err(|e| e.to_string())
}

/// Where a generator of a project file writes: its default file (the command's to rewrite:
/// `asm/full/...`) or a file the user named with `--out` (new, unless `--force`).
pub fn generated(
    out: &Option<PathBuf>,
    default: &str,
    force: bool,
) -> (PathBuf, crate::outfile::Replace) {
    match out {
        Some(p) => (p.clone(), crate::outfile::Replace::force(force)),
        None => (PathBuf::from(default), crate::outfile::Replace::Allow),
    }
}

/// Before a run does its work: each output (path, the flag that names it) may be written (not
/// a directory, not an existing file without `--force`) and names no input and no other output.
pub fn outputs(
    outputs: &[(Option<&Path>, &str)],
    inputs: &[(&Path, &str)],
    force: bool,
) -> Result<(), String> {
    let outs: Vec<(&Path, &str)> = outputs
        .iter()
        .filter_map(|(p, role)| p.map(|p| (p, *role)))
        .collect();
    crate::outfile::distinct(&outs, inputs).map_err(|e| e.to_string())?;
    for (p, _) in &outs {
        crate::outfile::check(p, crate::outfile::Replace::force(force))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A file the user named must be a regular file we may open (the user-file rules, checked
/// before the run starts; the command reads it then).
pub fn readable(path: &Path) -> Result<(), CliError> {
    crate::userfile::open(path, crate::userfile::MAX_FILE)?;
    Ok(())
}
