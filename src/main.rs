//! `z80chess`: one binary, one subcommand per instrument.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use z80chess::firmware::Build;

#[derive(Parser)]
#[command(
    name = "z80chess",
    version,
    about = "A cycle-exact Z80 computer running a Sargon-style chess program"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play the Z80 at period speed: full screen, or a line-oriented session with --text.
    Play(z80chess::play::PlayArgs),
    /// The UCI protocol on stdin/stdout, for GUIs and match runners.
    Uci(z80chess::play::ProtocolArgs),
    /// The xboard/WinBoard protocol (CECP v2) on stdin/stdout.
    Xboard(z80chess::play::ProtocolArgs),
    /// A protocol for scripts on stdin/stdout: `--json`, one JSON object a line each way.
    Serve(z80chess::play::ServeArgs),
    /// Run a CP/M .COM program (e.g. the zexdoc/zexall instruction exercisers).
    Cpm {
        /// The .COM file, loaded at 0x0100.
        program: PathBuf,
        /// Stop with an error after this many T-states; 0 means no limit. The default, 10^11
        /// (a few minutes here), is about twice what zexall needs.
        #[arg(long, default_value_t = z80chess::cpm::DEFAULT_MAX_CYCLES)]
        max_cycles: u64,
    },
    /// Assemble Z80 source (Zilog syntax) into a binary image.
    Asm {
        /// The source file.
        source: PathBuf,
        /// The image to write.
        #[arg(short = 'o', long)]
        output: PathBuf,
        /// Symbol file (`NAME: EQU 0xNNNN`).
        #[arg(long)]
        sym: Option<PathBuf>,
        /// Listing with addresses, bytes, T-states and source.
        #[arg(long)]
        lst: Option<PathBuf>,
        /// Source map (address -> file:line).
        #[arg(long)]
        map: Option<PathBuf>,
        /// Define a symbol: NAME=VALUE (or NAME, meaning 1).
        #[arg(short = 'D', value_name = "NAME=VALUE")]
        define: Vec<String>,
    },
    /// Count move paths (perft), computed by the Z80 firmware.
    Perft {
        /// The position (default: the starting position).
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long, default_value_t = 3)]
        depth: u8,
        /// Count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Which firmware.
        #[arg(long, value_enum, default_value_t = Build::Article)]
        build: Build,
    },
    /// The exchange on one square: ATKLST and XCHNG's residue trace from the Z80, beside the
    /// textbook SEE.
    Xchng {
        /// The position.
        #[arg(long)]
        fen: String,
        /// The square (e4, or a mailbox index 21..98).
        #[arg(long)]
        square: String,
        /// Which firmware.
        #[arg(long, value_enum, default_value_t = Build::Article)]
        build: Build,
    },
    /// One search by the Z80 firmware: the move, its score and what it cost.
    Search {
        /// The position (moved bits and move number by the 1978 test-suite convention).
        #[arg(long, conflicts_with = "moves")]
        fen: Option<String>,
        /// Moves from the start, in UCI notation ("e2e4 e7e5 ..."), played in the firmware.
        #[arg(long)]
        moves: Option<String>,
        /// Look-ahead in plies (1-8; the 1978 program offered 1-6).
        #[arg(long, default_value_t = 2)]
        level: u8,
        /// Which firmware.
        #[arg(long, value_enum, default_value_t = Build::Article)]
        build: Build,
        /// Search depth 1, 2, ... level and report each.
        #[arg(long)]
        iterate: bool,
        /// A parameter file for the full build.
        #[arg(long)]
        params: Option<PathBuf>,
    },
    /// The static evaluation of a position as the Z80 computes it, term by term.
    Eval {
        /// The position (moved bits and move number by the 1978 test-suite convention).
        #[arg(long, conflicts_with = "moves")]
        fen: Option<String>,
        /// Moves from the start, in UCI notation, played in the firmware.
        #[arg(long)]
        moves: Option<String>,
        /// Which firmware.
        #[arg(long, value_enum, default_value_t = Build::Article)]
        build: Build,
        /// A parameter file (full build).
        #[arg(long)]
        params: Option<PathBuf>,
    },
    /// The full build's scoring parameters: name, address, value per block, meaning.
    Params {
        /// Which firmware (only the full build has parameter blocks).
        #[arg(long, value_enum, default_value_t = Build::Full)]
        build: Build,
        /// Load this parameter file first and show the result.
        #[arg(long)]
        params: Option<PathBuf>,
    },
    /// Fit the full build's knowledge weights to the results of played games (Texel's method):
    /// prints what each weight is worth and writes a parameter file.
    Tune(z80chess::cli::tune::TuneArgs),
    /// Step-debug the firmware (or an assembly program) at the source level.
    Debug(z80chess::debug::DebugArgs),
    /// Profile one search: calls and T-states per routine, collapsed stacks.
    Profile(z80chess::profile::cli::ProfileArgs),
    /// Search recorded positions (EPD, TSV); record or compare a golden file.
    Regress(z80chess::profile::cli::RegressArgs),
    /// The engine's signature: moves made and T-states over fixed positions, each build.
    Bench {
        /// A parameter file for the full build.
        #[arg(long)]
        params: Option<PathBuf>,
    },
    /// Games between two engines (builds or UCI) at a fixed depth or equal emulated time.
    Match(z80chess::matchplay::MatchArgs),
    /// Our own endgame tables: build, probe, stats, verify, compare with Stockfish.
    Tablebase(z80chess::tablebase::cli::TablebaseArgs),
    /// Lüscher's generated evaluation (#15): fit to a tablebase, evaluate a position.
    Luscher(z80chess::luscher::cli::LuscherArgs),
    /// The engine plays won and drawn endgame positions against the tablebase's perfect replies.
    EndgameTest(z80chess::tablebase::endgame_test::EndgameTestArgs),
    /// Assemble every firmware build from asm/ into roms/ (or only check with --check).
    Roms {
        /// Only compare roms/ with what asm/ assembles to.
        #[arg(long)]
        check: bool,
    },
    /// Disassemble a binary image.
    Disasm {
        /// The image.
        image: PathBuf,
        /// Address of the image's first byte.
        #[arg(long, default_value = "0", value_parser = parse_addr)]
        org: u16,
        /// Symbol file to label addresses with.
        #[arg(long)]
        sym: Option<PathBuf>,
        /// A banked image (base 16 KiB, then 16 KiB pages): list this expansion page at 8000h.
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
        page: Option<u8>,
    },
}

fn parse_addr(s: &str) -> Result<u16, String> {
    let t = s.trim();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(h) = t.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = t.strip_suffix('h').or_else(|| t.strip_suffix('H')) {
        (h, 16)
    } else {
        (t, 10)
    };
    u16::from_str_radix(digits, radix).map_err(|_| format!("'{s}' is not an address 0..=0xFFFF"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Rust ignores SIGPIPE, so printing to a closed pipe (`z80chess search ... | head`) would
    // panic; the commands that only print take the default action, as every Unix tool does:
    // they end quietly. Not the ones that talk to other programs through pipes (`match` with
    // UCI engines, `tablebase` with Stockfish, the protocols, play, the debugger, CP/M): a
    // child that has gone must be an error they report, not the end of the process.
    #[cfg(unix)]
    if matches!(
        cli.command,
        Command::Perft { .. }
            | Command::Xchng { .. }
            | Command::Search { .. }
            | Command::Eval { .. }
            | Command::Params { .. }
            | Command::Tune(_)
            | Command::Profile(_)
            | Command::Regress(_)
            | Command::Bench { .. }
            | Command::Luscher(_)
            | Command::EndgameTest(_)
            | Command::Roms { .. }
            | Command::Disasm { .. }
            | Command::Asm { .. }
    ) {
        // SAFETY: setting a signal's disposition to SIG_DFL at the start of main, before any
        // thread exists, has no memory-safety preconditions.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let result: Result<(), String> = match cli.command {
        Command::Play(args) => z80chess::play::cli(&args),
        Command::Uci(a) => z80chess::play::uci_cli(&a),
        Command::Xboard(a) => z80chess::play::xboard_cli(&a),
        Command::Serve(a) => z80chess::play::serve_cli(&a),
        Command::Cpm {
            program,
            max_cycles,
        } => z80chess::cpm::cli(&program, max_cycles),
        Command::Asm {
            source,
            output,
            sym,
            lst,
            map,
            define,
        } => z80chess::asm::cli(
            &source,
            &output,
            sym.as_deref(),
            lst.as_deref(),
            map.as_deref(),
            &define,
        ),
        Command::Disasm {
            image,
            org,
            sym,
            page,
        } => z80chess::disasm::cli(&image, org, sym.as_deref(), page),
        Command::Perft {
            fen,
            depth,
            divide,
            build,
        } => z80chess::cli::perft::cli(fen.as_deref(), depth, divide, build),
        Command::Xchng { fen, square, build } => z80chess::cli::xchng::cli(&fen, &square, build),
        Command::Search {
            fen,
            moves,
            level,
            build,
            iterate,
            params,
        } => z80chess::cli::search::cli(
            fen.as_deref(),
            moves.as_deref(),
            level,
            build,
            iterate,
            params.as_deref(),
        ),
        Command::Eval {
            fen,
            moves,
            build,
            params,
        } => z80chess::firmware::eval::cli(
            fen.as_deref(),
            moves.as_deref(),
            build,
            params.as_deref(),
        )
        .map(|s| print!("{s}")),
        Command::Params { build, params } => {
            z80chess::firmware::params::cli(build, params.as_deref())
                .map(|s| print!("{s}"))
                .map_err(|e| e.to_string())
        }
        Command::Tune(args) => z80chess::cli::tune::cli(&args)
            .map(|s| print!("{s}"))
            .map_err(|e| e.to_string()),
        Command::Debug(args) => z80chess::debug::cli(&args),
        Command::Profile(args) => z80chess::profile::cli::profile_cli(&args),
        Command::Regress(args) => z80chess::profile::cli::regress_cli(&args),
        Command::Bench { params } => z80chess::profile::cli::bench_cli(params.as_deref()),
        Command::Match(args) => z80chess::matchplay::cli(&args),
        Command::Tablebase(args) => z80chess::tablebase::cli::cli(&args),
        Command::Luscher(args) => z80chess::luscher::cli::cli(&args),
        Command::EndgameTest(args) => z80chess::tablebase::endgame_test::cli(&args),
        Command::Roms { check } => {
            let root = if std::path::Path::new(z80chess::firmware::rom::MAIN).exists() {
                PathBuf::from(".")
            } else {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            };
            z80chess::cli::roms::cli(&root, check)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("z80chess: {msg}");
            ExitCode::FAILURE
        }
    }
}
