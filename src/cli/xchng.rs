//! `z80chess xchng`: the battle on one square as the Z80 sees it (ATKLST as ATTACK/ATKSAV filled
//! it, XCHNG's residue after each iteration, caught with the machine's observer), beside the
//! textbook SEE of the same square, with the reason when they differ.
//!
//! The functions that run the firmware under the observer are public: the tests use them.

use crate::chess::{Attackers, Colour, Piece};
use crate::disasm::Symbols;
use crate::firmware::protocol::{self, Command, Op, Reply};
use crate::firmware::{mailbox, parse_fen, Build, Engine};
use crate::machine::{Observer, StopReason};
use crate::reference::attack::{self, Filling, Found, Placed};
use crate::reference::compare::{self, unit_cp};
use crate::reference::see;
use crate::reference::xchng::{self, How};
use crate::z80::isa;
use crate::z80::Cpu;
use shakmaty::{Chess, Color, Position, Role, Square};

use super::CliError;

/// `z80chess xchng`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The position.
    #[arg(long)]
    pub fen: String,
    /// The square (e4, or a mailbox index 21..98).
    #[arg(long)]
    pub square: String,
    /// Which firmware.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
}

/// Run `z80chess xchng`: a bad FEN or square is a bad input (3).
pub fn run(a: &Args) -> Result<(), CliError> {
    super::check_position(Some(&a.fen), None)?;
    parse_square(&a.square).map_err(CliError::Input)?;
    cli(&a.fen, &a.square, a.build).map_err(CliError::Run)
}

/// What the firmware answered to `'X'`, and the residue XCHNG stored at each iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Z80Exchange {
    pub atklst: Attackers,
    /// The residue byte (0 on an empty square: the firmware does not run XCHNG there).
    pub residue: u8,
    /// E' each time XCHNG passed the instruction after XC20's `LD E,A`.
    pub trace: Vec<u8>,
}

/// The address of the instruction after `LD E,A` at `XCHNG.xc20` in `build`'s ROM: when the
/// PC reaches it, E (in the register set XCHNG works in, the alternate one of its caller)
/// holds the residue just stored.
pub fn residue_probe(build: Build) -> Result<u16, String> {
    let syms = Symbols::parse(build.symbols(), build.name())?;
    let start = syms
        .value_of("XCHNG.xc20")
        .ok_or_else(|| format!("no XCHNG.xc20 in the {build} symbols"))?;
    let rom = build.rom();
    let mut addr = start;
    for _ in 0..8 {
        let d = isa::decode(|a| rom.get(a as usize).copied().unwrap_or(0), addr);
        let next = addr.wrapping_add(d.len as u16);
        if d.text() == "LD E,A" {
            return Ok(next);
        }
        addr = next;
    }
    Err(format!(
        "no LD E,A within 8 instructions of XCHNG.xc20 ({start:04X}h) in the {build} ROM"
    ))
}

/// Records E whenever the PC reaches one address.
struct Probe {
    at: u16,
    seen: Vec<u8>,
}

impl Observer for Probe {
    fn before(&mut self, cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        if cpu.pc == self.at {
            self.seen.push(cpu.e);
        }
        false
    }
}

/// Send `command` and run the firmware under `obs` until it waits for the host with nothing
/// left to read; the reply, decoded by the protocol's decoder.
pub fn command_observed(
    engine: &mut Engine,
    command: &Command,
    obs: &mut dyn Observer,
) -> Result<Reply, String> {
    let op = command.op();
    let bytes = command.encode().map_err(|e| e.to_string())?;
    engine.machine.take_output();
    engine.machine.send(&bytes);
    loop {
        match engine.machine.run_observed_dyn(u64::MAX, obs) {
            StopReason::InputNeeded if engine.machine.pending_input() == 0 => break,
            StopReason::InputNeeded => continue,
            other => {
                return Err(format!(
                    "the firmware stopped during '{}': {other:?}",
                    op.letter()
                ))
            }
        }
    }
    let out = engine.machine.take_output();
    protocol::status(op.letter(), &out)
        .and_then(|r| Reply::decode(engine.build, op, r))
        .map_err(|e| e.to_string())
}

/// `'X'` on `sq` of the position the engine holds, with XCHNG's residue trace.
pub fn z80_exchange(engine: &mut Engine, sq: Square) -> Result<Z80Exchange, String> {
    let mut probe = Probe {
        at: residue_probe(engine.build)?,
        seen: Vec::new(),
    };
    match command_observed(engine, &Command::Xchng(mailbox(sq)), &mut probe)? {
        Reply::Exchange { attackers, residue } => Ok(Z80Exchange {
            atklst: attackers,
            residue,
            trace: probe.seen,
        }),
        other => Err(protocol::mismatch(Op::Xchng, &other).to_string()),
    }
}

/// `'Y'`: XCHNG on a given array for `piece`; (residue, trace).
pub fn z80_array_exchange(
    engine: &mut Engine,
    piece: Piece,
    array: &Attackers,
) -> Result<(u8, Vec<u8>), String> {
    let mut probe = Probe {
        at: residue_probe(engine.build)?,
        seen: Vec::new(),
    };
    let (piece, array) = (piece.byte(), array.0);
    match command_observed(engine, &Command::Xarray { piece, array }, &mut probe)? {
        Reply::Residue(r) => Ok((r, probe.seen)),
        other => Err(protocol::mismatch(Op::Xarray, &other).to_string()),
    }
}

/// A square from `e4` or a mailbox index (21..98): the crate's one square parser.
pub fn parse_square(s: &str) -> Result<Square, String> {
    s.parse::<crate::chess::Square>()
        .map(Square::from)
        .map_err(|e| e.to_string())
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// What a 4-bit value can be in a given byte of a section (1 P .. 6 K).
fn nibble_name(slot: usize, high: bool, v: u8) -> &'static str {
    match (slot, v) {
        (1, 1) => "P",
        (2, 3) => "N",
        (3, 3) => "B",
        (4, 5) => "R",
        (5, 9) if !high => "Q",
        (6, 10) => "K",
        (_, 1) => "P",
        (_, 3) => "N/B",
        (_, 5) => "R",
        (_, 9) => "Q",
        (_, 10) => "K",
        _ => "?",
    }
}

const SLOTS: [&str; 7] = [
    "count", "pawns", "knights", "bishops", "rooks", "queen", "king",
];

/// The section's bytes, then each non-empty slot's nibbles in NEXTAD's order (low first).
fn describe_section(name: &str, s: &[u8]) -> String {
    let bytes = s
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = format!("  {name:<6} {bytes}   count {}\n", s[0]);
    for (k, &b) in s.iter().enumerate().skip(1) {
        if b == 0 {
            continue;
        }
        let mut parts = Vec::new();
        for (high, v) in [(false, b & 0x0F), (true, b >> 4)] {
            if v != 0 {
                parts.push(format!(
                    "{} {} ({})",
                    if high { "high" } else { "low" },
                    v,
                    nibble_name(k, high, v)
                ));
            }
        }
        out.push_str(&format!(
            "         {:<8} {b:02X}  {}\n",
            SLOTS[k],
            parts.join(", ")
        ));
    }
    out
}

fn found_line(f: &Found) -> String {
    let letter = f.piece.char().unwrap_or('?');
    let place = match f.placed {
        Placed::Slot { index, high } => format!(
            "{} {} {}",
            if index < 7 { "White" } else { "Black" },
            SLOTS[index % 7],
            if high { "high" } else { "low" }
        ),
        Placed::Lost => "no room: ignored".into(),
        Placed::Pinned => "pinned: not saved".into(),
    };
    format!(
        "{letter}{} (line {:+}{}) -> {place}",
        f.square,
        f.dir,
        if f.behind_queen {
            ", behind the queen"
        } else {
            ""
        }
    )
}

fn how_text(h: How) -> &'static str {
    match h {
        How::Undefended => "no recapturer: the piece is lost",
        How::Pays => "capturer worth no more than the stake: it pays",
        How::LookAhead => "capturer worth more; look-ahead: the defenders run out first",
        How::CheaperRecapturer => "capturer worth more; a cheaper recapturer: stop",
        How::NoBacker => "capturer worth more; no backer left: stop",
    }
}

/// The reference model's pins and attackers beside the firmware's array.
fn print_model(board: &shakmaty::Board, sq: Square, build: Build, z: &Z80Exchange) {
    let filling = Filling::from(build);
    let pins = attack::pins_of(board, filling);
    let model = attack::atklst(board, sq, filling);
    if pins.is_empty() {
        println!("pins      none");
    } else {
        let list: Vec<String> = pins
            .iter()
            .map(|p| format!("{} (line {:+})", p.square, p.dir))
            .collect();
        println!("pins      {}", list.join(", "));
    }
    if model.found.is_empty() {
        println!("found     nothing attacks {sq}");
    } else {
        println!("found (reference model, in ATTACK's order):");
        for f in &model.found {
            println!("          {}", found_line(f));
        }
    }
    if model.atklst != z.atklst {
        println!(
            "MODEL DIFFERS: the reference model fills {}",
            model.atklst.hex()
        );
    }
    println!();
}

/// One iteration of XCHNG's loop, in words.
fn iteration_text(it: &xchng::Iteration) -> String {
    let rec = it.recapturer.map_or("none".into(), |v| v.to_string());
    let ahead = if it.lookahead.is_empty() {
        String::new()
    } else {
        let pairs: Vec<String> = it
            .lookahead
            .iter()
            .map(|(a, d)| {
                format!(
                    "{}/{}",
                    if *a == 0 { "-".into() } else { a.to_string() },
                    d.map_or("-".into(), |v| v.to_string())
                )
            })
            .collect();
        format!(" (then {})", pairs.join(", "))
    };
    format!(
        "stake {}, capturer {}, recapturer {}{}: {}{}",
        it.stake,
        it.capturer,
        rec,
        ahead,
        how_text(it.how),
        it.residue
            .map_or(String::new(), |r| format!(" -> residue {r}"))
    )
}

/// `z80chess xchng --fen FEN --square SQ [--build B]`.
pub fn cli(fen: &str, square: &str, build: Build) -> Result<(), String> {
    let pos: Chess = parse_fen(fen).map_err(|e| e.to_string())?;
    let sq = parse_square(square)?;
    let mut engine = Engine::new(build).map_err(|e| e.to_string())?;
    engine.set_position(&pos).map_err(|e| e.to_string())?;
    let z = z80_exchange(&mut engine, sq)?;
    let board = pos.board();
    let unit = unit_cp(build);
    let doubled = build == Build::B1978;

    println!("position  {}", fen.trim());
    let piece = board.piece_at(sq);
    match piece {
        Some(p) => println!(
            "square    {sq} (mailbox {}): {} {}; attackers {}, defenders {}",
            mailbox(sq),
            colour_name(p.color).to_ascii_lowercase(),
            role_name(p.role),
            colour_name(p.color.other()),
            colour_name(p.color)
        ),
        None => println!("square    {sq} (mailbox {}): empty", mailbox(sq)),
    }
    println!(
        "build     {build} (values P{} N{} B{} R{} Q{} K{}; residue in {})",
        if doubled { 2 } else { 1 },
        if doubled { 6 } else { 3 },
        if doubled { 6 } else { 3 },
        if doubled { 10 } else { 5 },
        if doubled { 18 } else { 9 },
        if doubled { 20 } else { 10 },
        if doubled { "half-pawns" } else { "pawns" }
    );
    println!();
    println!("ATKLST as the firmware filled it (PINFND, then ATTACK with ATKSAV):");
    print!(
        "{}",
        describe_section("White", z.atklst.section(Colour::White))
    );
    print!(
        "{}",
        describe_section("Black", z.atklst.section(Colour::Black))
    );

    print_model(board, sq, build, &z);

    let Some(p) = piece else {
        println!("empty square: no exchange (the firmware answers residue 0 without XCHNG)");
        return Ok(());
    };
    let residue = z.residue;
    let byte = attack::piece_byte(p.color, p.role);
    let ex = xchng::xchng(byte, &z.atklst, doubled);
    println!(
        "XCHNG, step by step (reference model on this array; values in {}):",
        if doubled { "half-pawns" } else { "pawns" }
    );
    if ex.iterations.is_empty() {
        println!("  no attacker");
    }
    for (k, it) in ex.iterations.iter().enumerate() {
        println!("  {}: {}", k + 1, iteration_text(it));
    }
    let trace: Vec<String> = z.trace.iter().map(|v| v.to_string()).collect();
    println!(
        "residue trace (E' at XC20, Z80): {}",
        if trace.is_empty() {
            "-".into()
        } else {
            trace.join(", ")
        }
    );
    println!(
        "residue   {residue} {} = {} cp lost by {}",
        if doubled { "half-pawns" } else { "pawns" },
        residue as i32 * unit,
        colour_name(p.color)
    );
    if ex.residue != residue || ex.trace != z.trace {
        println!(
            "MODEL DIFFERS: the listing model gives {} (trace {:?})",
            ex.residue, ex.trace
        );
    }

    if p.role == Role::King {
        println!("textbook  n/a: a king is never captured (XCHNG prices him at 10)");
        return Ok(());
    }
    let textbook = see::see(board, sq, p.color.other(), true);
    println!(
        "textbook  see({sq}) for {} (cheapest first, either side may stop): {textbook} cp",
        colour_name(p.color.other())
    );
    let chain =
        compare::square_chain(board, sq, build, &z.atklst, residue).ok_or("the square emptied")?;
    if chain.first() == textbook {
        println!("agree");
    } else {
        let reasons: Vec<&str> = chain.classes().iter().map(|c| c.reason()).collect();
        println!("differ    {}", reasons.join("; "));
        print!("{}", indent(&chain.describe()));
        for u in chain.unexplained() {
            println!("UNEXPLAINED {u}");
        }
    }
    Ok(())
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("          {l}\n")).collect()
}
