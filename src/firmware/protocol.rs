//! The port protocol, typed: every command the firmware serves ([`Op`], its one-byte code
//! defined here once), the command with its arguments ([`Command`], encoded to and decoded
//! from the bytes the port carries) and the replies ([`Reply`], one decoder per command,
//! used by [`super::Engine`] and the debugger's `send` alike).
//!
//! `asm/io.asm` defines the same codes as `EQU`s (`C_IDENT` .. `C_ROOTS`) and its command
//! table (`CMDTAB`) is built from them; `tests/engine/firmware.rs` reads each ROM's symbol file and
//! command table and checks every code, handler and error code here against it.

use super::board::{self, FwMove, Setup};
use super::search::{DepthReport, Score, SearchKind, SearchResult};
use super::{eval, Build, FirmwareError, TimeBudget, TICK};
use crate::chess::Attackers;
use crate::z80::TStates;
use std::fmt;
use thiserror::Error;

/// A command's code: the byte that starts it on the port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Op {
    Ident = b'I',
    New = b'N',
    Setup = b'S',
    Board = b'B',
    List = b'L',
    Status = b'K',
    Move = b'M',
    Undo = b'U',
    Perft = b'P',
    Attack = b'A',
    Xchng = b'X',
    Xarray = b'Y',
    MoveNo = b'O',
    Search = b'G',
    Eval = b'Q',
    ParamWrite = b'W',
    ParamRead = b'V',
    Halfmove = b'H',
    Time = b'T',
    Roots = b'R',
}

/// What the protocol knows of each command: (op, its `EQU` in `asm/io.asm`, its handler's
/// label in `asm/`, the debugger's `send` word, the full build's alone, its arguments).
const OPS: [(Op, &str, &str, &str, bool, &str); 20] = [
    (Op::Ident, "C_IDENT", "CIDENT", "ident", false, ""),
    (Op::New, "C_NEW", "CNEW", "new", false, ""),
    (Op::Setup, "C_SETUP", "CSETUP", "setup", false, "FEN"),
    (Op::Board, "C_BOARD", "CBOARD", "board", false, ""),
    (Op::List, "C_LIST", "CLIST", "list", false, ""),
    (Op::Status, "C_STAT", "CSTAT", "status", false, ""),
    (Op::Move, "C_MOVE", "CMOVE", "move", false, "UCI"),
    (Op::Undo, "C_UNDO", "CUNDO", "undo", false, ""),
    (Op::Perft, "C_PERFT", "CPERFT", "perft", false, "DEPTH"),
    (Op::Attack, "C_ATTK", "CATTK", "attack", false, "SQ"),
    (Op::Xchng, "C_XCHG", "CXCHG", "xchng", false, "SQ"),
    (
        Op::Xarray,
        "C_XARR",
        "CXARR",
        "xarray",
        false,
        "PIECE B0..B13",
    ),
    (Op::MoveNo, "C_MOVNO", "CMOVNO", "moveno", false, "N"),
    (
        Op::Search,
        "C_SRCH",
        "CSRCH",
        "search",
        false,
        "LEVEL [iterate]",
    ),
    (Op::Eval, "C_EVAL", "CEVAL", "eval", false, ""),
    (
        Op::ParamWrite,
        "C_PARW",
        "CPARW",
        "pwrite",
        true,
        "BLOCK OFFSET B.. | reset",
    ),
    (
        Op::ParamRead,
        "C_PARV",
        "CPARV",
        "pread",
        true,
        "BLOCK OFFSET N",
    ),
    (Op::Halfmove, "C_HALF", "CHALF", "halfmove", true, "N"),
    (Op::Time, "C_TIME", "CTIME", "time", true, "LEFT TOGO INC"),
    (Op::Roots, "C_ROOT", "CROOT", "roots", true, "UCI.."),
];

impl Op {
    /// Every command, in `CMDTAB`'s order.
    pub const ALL: [Op; 20] = {
        let mut all = [Op::Ident; 20];
        let mut i = 0;
        while i < 20 {
            all[i] = OPS[i].0;
            i += 1;
        }
        all
    };

    fn info(
        self,
    ) -> &'static (
        Op,
        &'static str,
        &'static str,
        &'static str,
        bool,
        &'static str,
    ) {
        OPS.iter()
            .find(|o| o.0 == self)
            .expect("every op is in OPS")
    }
    /// The byte on the port.
    pub const fn code(self) -> u8 {
        self as u8
    }
    /// The command of a code.
    pub fn from_code(code: u8) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.code() == code)
    }
    /// Its `EQU` in `asm/io.asm`.
    pub fn symbol(self) -> &'static str {
        self.info().1
    }
    /// Its handler's label in `asm/`.
    pub fn handler(self) -> &'static str {
        self.info().2
    }
    /// Its name for people (the debugger's `send` word).
    pub fn word(self) -> &'static str {
        self.info().3
    }
    /// The command of a `send` word (`identify` and `fen` are accepted too).
    pub fn from_word(word: &str) -> Option<Op> {
        match word.to_ascii_lowercase().as_str() {
            "identify" => Some(Op::Ident),
            "fen" => Some(Op::Setup),
            w => Op::ALL.into_iter().find(|o| o.word() == w),
        }
    }
    /// Only the full build serves it (the period builds answer "unknown command").
    pub fn full_only(self) -> bool {
        self.info().4
    }
    /// Its arguments as the debugger's `send` takes them ("" for none).
    pub fn usage(self) -> &'static str {
        self.info().5
    }
    /// The code as a character (for messages).
    pub fn letter(self) -> char {
        self.code() as char
    }
}

pub const CMD_IDENT: u8 = Op::Ident.code();
pub const CMD_NEW: u8 = Op::New.code();
pub const CMD_SETUP: u8 = Op::Setup.code();
pub const CMD_BOARD: u8 = Op::Board.code();
pub const CMD_LIST: u8 = Op::List.code();
pub const CMD_STATUS: u8 = Op::Status.code();
pub const CMD_MOVE: u8 = Op::Move.code();
pub const CMD_UNDO: u8 = Op::Undo.code();
pub const CMD_PERFT: u8 = Op::Perft.code();
pub const CMD_ATTACK: u8 = Op::Attack.code();
pub const CMD_XCHNG: u8 = Op::Xchng.code();
pub const CMD_XARRAY: u8 = Op::Xarray.code();
pub const CMD_MOVENO: u8 = Op::MoveNo.code();
/// Full build: the halfmove clock of the position set up (`asm/full/draw.asm`).
pub const CMD_HALFMOVE: u8 = Op::Halfmove.code();
/// Full build: the time for the next timed search (`asm/full/time.asm`).
pub const CMD_TIME: u8 = Op::Time.code();
pub const CMD_SEARCH: u8 = Op::Search.code();
/// Full build: the root moves the next searches of this position consider
/// (`searchmoves`, `asm/full/roots.asm`): n, then n × (from, to, promo); n = 0 lifts the set.
pub const CMD_ROOTS: u8 = Op::Roots.code();
pub const CMD_EVAL: u8 = Op::Eval.code();
pub const CMD_PWRITE: u8 = Op::ParamWrite.code();
pub const CMD_PREAD: u8 = Op::ParamRead.code();

/// A command with its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// -> [`Reply::Ident`]
    Ident,
    /// The initial position, White to move.
    New,
    /// A position: a rejected one leaves the old position untouched.
    Setup(Setup),
    /// -> [`Reply::Board`]
    Board,
    /// -> [`Reply::Moves`], in the firmware's generation order.
    List,
    /// -> [`Reply::Status`]
    Status,
    /// Play a move (the firmware checks it).
    Move(FwMove),
    /// Take back the last move played with [`Command::Move`].
    Undo,
    /// Count the legal move paths of this depth -> [`Reply::Perft`].
    Perft(u8),
    /// PINFND and ATTACK on a square (mailbox) -> [`Reply::Attackers`].
    Attack(u8),
    /// As `Attack`, then XCHNG -> [`Reply::Exchange`].
    Xchng(u8),
    /// XCHNG on a given attacker array for `piece` -> [`Reply::Residue`].
    Xarray { piece: u8, array: [u8; 14] },
    /// The move number (1: the opening book answers).
    MoveNo(u8),
    /// Search to `level` plies; `iterate`: depth 1, 2, .. level, each reported; `timed`: the
    /// full build keeps the time [`Command::Time`] gave -> [`Reply::Search`].
    Search {
        level: u8,
        iterate: bool,
        timed: bool,
    },
    /// The static evaluation, term by term -> [`Reply::Eval`].
    Eval,
    /// Full build: every parameter block back to the ROM's defaults ('W' FFh).
    ParamReset,
    /// Full build: write `bytes` into a stored parameter block at `offset`.
    ParamWrite {
        block: u8,
        offset: u8,
        bytes: Vec<u8>,
    },
    /// Full build: read `len` bytes of a block -> [`Reply::Params`].
    ParamRead { block: u8, offset: u8, len: u8 },
    /// Full build: the halfmove clock of the position set up.
    Halfmove(u8),
    /// Full build: the time for the next timed search, in ticks of [`TICK`] T-states: the
    /// time left (24 bits), the moves to the next control (0: all), the increment -> [`Reply::Time`].
    Time {
        left: u32,
        moves_to_go: u8,
        increment: u16,
    },
    /// Full build: the root moves the next searches consider (none: every move).
    Roots(Vec<FwMove>),
}

/// A command's argument that does not fit the protocol, or bytes that are no command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("'{command}': {argument} = {value} is out of range (at most {max})")]
    OutOfRange {
        command: char,
        argument: &'static str,
        value: u64,
        max: u64,
    },
    #[error("{code:02X}h is not a command of the protocol")]
    UnknownCode { code: u8 },
    #[error("'{command}' needs {needed} bytes of arguments, {given} given")]
    Truncated {
        command: char,
        needed: usize,
        given: usize,
    },
    #[error("no command: nothing was given")]
    Empty,
}

fn fit(command: Op, argument: &'static str, value: usize, max: u64) -> Result<u8, ProtocolError> {
    if value as u64 > max {
        return Err(ProtocolError::OutOfRange {
            command: command.letter(),
            argument,
            value: value as u64,
            max,
        });
    }
    Ok(value as u8)
}

fn move_bytes(m: &FwMove) -> [u8; 3] {
    [m.from, m.to, m.promo]
}

/// A move as the protocol sends it: from, to, promotion (`b` holds at least 3 bytes).
pub fn read_move(b: &[u8]) -> FwMove {
    FwMove {
        from: b[0],
        to: b[1],
        promo: b[2],
    }
}

impl Command {
    /// Its code.
    pub fn op(&self) -> Op {
        match self {
            Command::Ident => Op::Ident,
            Command::New => Op::New,
            Command::Setup(_) => Op::Setup,
            Command::Board => Op::Board,
            Command::List => Op::List,
            Command::Status => Op::Status,
            Command::Move(_) => Op::Move,
            Command::Undo => Op::Undo,
            Command::Perft(_) => Op::Perft,
            Command::Attack(_) => Op::Attack,
            Command::Xchng(_) => Op::Xchng,
            Command::Xarray { .. } => Op::Xarray,
            Command::MoveNo(_) => Op::MoveNo,
            Command::Search { .. } => Op::Search,
            Command::Eval => Op::Eval,
            Command::ParamReset | Command::ParamWrite { .. } => Op::ParamWrite,
            Command::ParamRead { .. } => Op::ParamRead,
            Command::Halfmove(_) => Op::Halfmove,
            Command::Time { .. } => Op::Time,
            Command::Roots(_) => Op::Roots,
        }
    }

    /// The command of an op that takes no argument.
    pub fn plain(op: Op) -> Option<Command> {
        Some(match op {
            Op::Ident => Command::Ident,
            Op::New => Command::New,
            Op::Board => Command::Board,
            Op::List => Command::List,
            Op::Status => Command::Status,
            Op::Undo => Command::Undo,
            Op::Eval => Command::Eval,
            _ => return None,
        })
    }

    /// The bytes on the port, code first; an argument the protocol cannot carry is an error
    /// naming it.
    pub fn encode(&self) -> Result<Vec<u8>, ProtocolError> {
        let op = self.op();
        let mut b = vec![op.code()];
        match self {
            Command::Setup(s) => {
                b.extend_from_slice(&s.squares);
                b.extend([s.side, s.ep]);
            }
            Command::Move(m) => b.extend(move_bytes(m)),
            Command::Perft(n)
            | Command::Attack(n)
            | Command::Xchng(n)
            | Command::MoveNo(n)
            | Command::Halfmove(n) => b.push(*n),
            Command::Xarray { piece, array } => {
                b.push(*piece);
                b.extend_from_slice(array);
            }
            Command::Search {
                level,
                iterate,
                timed,
            } => b.extend([*level, *iterate as u8 | (*timed as u8) << 1]),
            Command::ParamReset => b.push(0xFF),
            Command::ParamWrite {
                block,
                offset,
                bytes,
            } => {
                b.extend([fit(op, "block", *block as usize, 0xFE)?, *offset]);
                b.push(fit(op, "byte count", bytes.len(), 255)?);
                b.extend_from_slice(bytes);
            }
            Command::ParamRead { block, offset, len } => b.extend([*block, *offset, *len]),
            Command::Time {
                left,
                moves_to_go,
                increment,
            } => {
                fit(op, "time left (ticks)", *left as usize, 0xFF_FFFF)?;
                b.extend(&left.to_le_bytes()[..3]);
                b.push(*moves_to_go);
                b.extend(increment.to_le_bytes());
            }
            Command::Roots(moves) => {
                b.push(fit(op, "root moves", moves.len(), 255)?);
                for m in moves {
                    b.extend(move_bytes(m));
                }
            }
            Command::Ident
            | Command::New
            | Command::Board
            | Command::List
            | Command::Status
            | Command::Undo
            | Command::Eval => {}
        }
        Ok(b)
    }

    /// Read one command from the bytes a host sent: the command and the bytes it took.
    pub fn decode(bytes: &[u8]) -> Result<(Command, usize), ProtocolError> {
        let (&code, args) = bytes.split_first().ok_or(ProtocolError::Empty)?;
        let op = Op::from_code(code).ok_or(ProtocolError::UnknownCode { code })?;
        let need = |n: usize| -> Result<&[u8], ProtocolError> {
            args.get(..n).ok_or(ProtocolError::Truncated {
                command: op.letter(),
                needed: n,
                given: args.len(),
            })
        };
        let (cmd, used) = match op {
            Op::Setup => {
                let a = need(66)?;
                let mut squares = [0; 64];
                squares.copy_from_slice(&a[..64]);
                let (side, ep) = (a[64], a[65]);
                (Command::Setup(Setup { squares, side, ep }), 66)
            }
            Op::Move => (Command::Move(read_move(need(3)?)), 3),
            Op::Perft => (Command::Perft(need(1)?[0]), 1),
            Op::Attack => (Command::Attack(need(1)?[0]), 1),
            Op::Xchng => (Command::Xchng(need(1)?[0]), 1),
            Op::MoveNo => (Command::MoveNo(need(1)?[0]), 1),
            Op::Halfmove => (Command::Halfmove(need(1)?[0]), 1),
            Op::Xarray => {
                let a = need(15)?;
                let mut array = [0; 14];
                array.copy_from_slice(&a[1..]);
                (Command::Xarray { piece: a[0], array }, 15)
            }
            Op::Search => {
                let a = need(2)?;
                let (iterate, timed) = (a[1] & 1 != 0, a[1] & 2 != 0);
                let level = a[0];
                (
                    Command::Search {
                        level,
                        iterate,
                        timed,
                    },
                    2,
                )
            }
            Op::ParamWrite if need(1)?[0] == 0xFF => (Command::ParamReset, 1),
            Op::ParamWrite => {
                let n = need(3)?[2] as usize;
                let a = need(3 + n)?;
                let bytes = a[3..].to_vec();
                let (block, offset) = (a[0], a[1]);
                (
                    Command::ParamWrite {
                        block,
                        offset,
                        bytes,
                    },
                    3 + n,
                )
            }
            Op::ParamRead => {
                let a = need(3)?;
                let (block, offset, len) = (a[0], a[1], a[2]);
                (Command::ParamRead { block, offset, len }, 3)
            }
            Op::Time => {
                let a = need(6)?;
                let left = u32::from_le_bytes([a[0], a[1], a[2], 0]);
                let increment = u16::from_le_bytes([a[4], a[5]]);
                let moves_to_go = a[3];
                (
                    Command::Time {
                        left,
                        moves_to_go,
                        increment,
                    },
                    6,
                )
            }
            Op::Roots => {
                let n = need(1)?[0] as usize;
                let a = need(1 + 3 * n)?;
                (
                    Command::Roots(a[1..].chunks(3).map(read_move).collect()),
                    1 + 3 * n,
                )
            }
            plain => (
                Command::plain(plain).expect("the ops left take no argument"),
                0,
            ),
        };
        Ok((cmd, 1 + used))
    }
}

/// A reply, decoded (after its status byte 00h).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// 00h alone.
    Done,
    /// The firmware's build switch and version.
    Ident {
        build: u8,
        version: u8,
    },
    Board(Setup),
    Moves(Vec<FwMove>),
    Status {
        in_check: bool,
        legal: u8,
    },
    Perft(u32),
    /// ATKLST (White's count and attackers, then Black's).
    Attackers(Attackers),
    Exchange {
        attackers: Attackers,
        residue: u8,
    },
    Residue(u8),
    /// The search's answer; its `tstates` is 0 (the host counts them, not the reply).
    Search(SearchResult),
    Eval(eval::Evaluation),
    Params(Vec<u8>),
    Time(TimeBudget),
}

/// The status byte of a whole reply: the rest when it is 00h, else the refusal.
/// (`command`: the code as a character, for the messages.)
pub fn status(command: char, out: &[u8]) -> Result<&[u8], FirmwareError> {
    match out.split_first() {
        None => Err(FirmwareError::Protocol {
            command,
            detail: "no reply".into(),
        }),
        Some((0, r)) => Ok(r),
        Some((&code, _)) => Err(FirmwareError::Rejected {
            command,
            code,
            reason: error_text(code),
        }),
    }
}

/// A reply of another kind than `op`'s (which [`Reply::decode`] never gives).
pub fn mismatch(op: Op, reply: &Reply) -> FirmwareError {
    malformed(op, format!("not its reply: {reply:?}"))
}

fn malformed(op: Op, detail: String) -> FirmwareError {
    FirmwareError::Protocol {
        command: op.letter(),
        detail,
    }
}

/// `r` has exactly `n` bytes.
fn exactly(op: Op, r: &[u8], n: usize) -> Result<&[u8], FirmwareError> {
    if r.len() == n {
        Ok(r)
    } else {
        Err(malformed(
            op,
            format!("{} bytes, not {n}: {r:02X?}", r.len()),
        ))
    }
}

fn array14(b: &[u8]) -> [u8; 14] {
    let mut a = [0; 14];
    a.copy_from_slice(&b[..14]);
    a
}

impl Reply {
    /// Decode `op`'s reply `r` (after its status byte) from `build`'s firmware.
    pub fn decode(build: Build, op: Op, r: &[u8]) -> Result<Reply, FirmwareError> {
        Ok(match op {
            Op::Ident => {
                let r = exactly(op, r, 3)?;
                if r[0] != b'Z' {
                    return Err(malformed(op, format!("identity {r:02X?}")));
                }
                Reply::Ident {
                    build: r[1],
                    version: r[2],
                }
            }
            Op::Board => {
                let r = exactly(op, r, 66)?;
                let mut squares = [0u8; 64];
                squares.copy_from_slice(&r[..64]);
                Reply::Board(Setup {
                    squares,
                    side: r[64],
                    ep: r[65],
                })
            }
            Op::List => Reply::Moves(decode_moves(r)?),
            Op::Status => {
                let r = exactly(op, r, 2)?;
                Reply::Status {
                    in_check: r[0] != 0,
                    legal: r[1],
                }
            }
            Op::Perft => {
                let r = exactly(op, r, 4)?;
                Reply::Perft(u32::from_le_bytes([r[0], r[1], r[2], r[3]]))
            }
            Op::Attack => Reply::Attackers(array14(exactly(op, r, 14)?).into()),
            Op::Xchng => {
                let r = exactly(op, r, 15)?;
                Reply::Exchange {
                    attackers: array14(r).into(),
                    residue: r[14],
                }
            }
            Op::Xarray => Reply::Residue(exactly(op, r, 1)?[0]),
            Op::Search => Reply::Search(parse_search(build, r, 0)?),
            Op::Eval => Reply::Eval(eval::parse(build, r)?),
            Op::ParamRead => Reply::Params(r.to_vec()),
            Op::Time => {
                let r = exactly(op, r, 4)?;
                let ticks = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]) as TStates * TICK;
                Reply::Time(TimeBudget {
                    target: ticks(0),
                    hard: ticks(2),
                })
            }
            Op::New
            | Op::Setup
            | Op::Move
            | Op::Undo
            | Op::MoveNo
            | Op::ParamWrite
            | Op::Halfmove
            | Op::Roots => {
                exactly(op, r, 0)?;
                Reply::Done
            }
        })
    }
}

/// The legal-move list reply: n, then n moves.
pub fn decode_moves(r: &[u8]) -> Result<Vec<FwMove>, FirmwareError> {
    let n = *r.first().ok_or(malformed(Op::List, "no count".into()))? as usize;
    if r.len() != 1 + 3 * n {
        return Err(malformed(
            Op::List,
            format!("{} bytes for {} moves", r.len(), n),
        ));
    }
    Ok(r[1..].chunks(3).map(read_move).collect())
}

fn hex(v: &[u8]) -> String {
    v.iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reply in words (the debugger's `send` prints this).
impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Done => f.write_str("done"),
            Reply::Ident { build, version } => {
                write!(f, "identity 'Z', build {build}, version {version}")
            }
            Reply::Board(s) => f.write_str(&board::describe(s)),
            Reply::Moves(m) => {
                let moves: Vec<String> = m.iter().map(|m| m.uci()).collect();
                write!(f, "{} legal moves: {}", m.len(), moves.join(" "))
            }
            Reply::Status { in_check, legal } => {
                let check = if *in_check {
                    "in check"
                } else {
                    "not in check"
                };
                write!(f, "{check}, {legal} legal moves")
            }
            Reply::Perft(n) => write!(f, "{n} paths"),
            Reply::Attackers(a) => write!(
                f,
                "ATKLST {}  (White {} attackers, Black {})",
                hex(&a.0),
                a[0],
                a[7]
            ),
            Reply::Exchange { attackers, residue } => {
                write!(f, "ATKLST {}, residue {residue}", hex(&attackers.0))
            }
            Reply::Residue(r) => write!(f, "residue {r}"),
            Reply::Search(res) => write!(
                f,
                "best {} score {} ({:?}), {} evaluations, {} exchanges, {} nodes",
                res.best.uci(),
                res.score,
                res.kind,
                res.evaluations,
                res.xchng_calls,
                res.nodes
            ),
            Reply::Eval(e) => f.write_str(&e.report()),
            Reply::Params(b) => write!(f, "{} bytes: {}", b.len(), hex(b)),
            Reply::Time(t) => write!(f, "target {} T-states, hard limit {}", t.target, t.hard),
        }
    }
}

/// A line at `r[at]`: n, then n moves; with the index after it. None if incomplete.
fn parse_line(r: &[u8], at: usize) -> Option<(Vec<FwMove>, usize)> {
    let n = *r.get(at)? as usize;
    let end = at + 1 + 3 * n;
    let b = r.get(at + 1..end)?;
    Some((b.chunks(3).map(read_move).collect(), end))
}

/// One per-depth report `'R' depth from to promo score` at `r[at]` (the full build's
/// followed by its line), with the index after it; None if there is none, or not all of it.
pub fn parse_depth(build: Build, r: &[u8], at: usize) -> Option<(DepthReport, usize)> {
    let w = Score::width(build);
    let b = r.get(at..at + 5 + w).filter(|b| b[0] == b'R')?;
    let best = read_move(&b[2..]);
    let (pv, next) = match build {
        Build::Full => parse_line(r, at + 5 + w)?,
        _ => (vec![best], at + 5 + w),
    };
    let report = DepthReport {
        depth: b[1],
        best,
        score: Score::read(build, &b[5..]),
        pv,
    };
    Some((report, next))
}

/// The per-depth reports at the start of a search reply, and the index after them.
pub fn parse_depths(build: Build, r: &[u8], mut at: usize) -> (Vec<DepthReport>, usize) {
    let mut depths = Vec::new();
    while let Some((d, next)) = parse_depth(build, r, at) {
        depths.push(d);
        at = next;
    }
    (depths, at)
}

/// Parse the search command's reply (after its status byte).
pub fn parse_search(
    build: Build,
    r: &[u8],
    tstates: TStates,
) -> Result<SearchResult, FirmwareError> {
    let w = Score::width(build);
    // The full build ends 'E' with the expected reply (the move to ponder on) and the
    // move's line (n, then n moves).
    let reply_len = if build == Build::Full { 3 } else { 0 };
    let bad = |detail: String| malformed(Op::Search, detail);
    let (depths, i) = parse_depths(build, r, 0);
    let pv_at = i + 17 + w + reply_len;
    let line = match build {
        Build::Full => parse_line(r, pv_at),
        _ => Some((Vec::new(), pv_at)),
    };
    let line = match (r.get(i), line) {
        (Some(b'E'), Some((line, end))) if r.len() == end => line,
        _ => {
            return Err(bad(format!(
                "unexpected bytes at {i}: {:02X?}",
                &r[i.min(r.len())..]
            )))
        }
    };
    let score = Score::read(build, &r[i + 4..]);
    let e = &r[i + w..]; // counters and kind as if the score were one byte
    let word = |k: usize| u32::from_le_bytes([e[k], e[k + 1], e[k + 2], e[k + 3]]);
    let kind = match e[4] {
        0 => SearchKind::Searched,
        1 => SearchKind::Book,
        2 => SearchKind::Stopped,
        3 => SearchKind::Overflow,
        k => return Err(bad(format!("unknown result kind {k}"))),
    };
    let reply = Some(&r[i + 17 + w..pv_at])
        .filter(|b| b.len() == 3 && b[0] != 0)
        .map(read_move);
    let best = read_move(&r[i + 1..]);
    let pv = if build == Build::Full {
        line
    } else {
        vec![best]
    };
    Ok(SearchResult {
        best,
        score,
        kind,
        depths,
        evaluations: word(5),
        xchng_calls: word(9),
        nodes: word(13),
        tstates,
        reply,
        pv,
    })
}

/// The firmware's error codes, by their names in io.asm (`ERRORS` says what each means).
pub mod code {
    /// The game history is full: the firmware keeps no more moves.
    pub const EHFULL: u8 = 0x03;
}

/// (code, symbol in io.asm, meaning)
pub const ERRORS: &[(u8, &str, &str)] = &[
    (
        0x01,
        "ENOMOVE",
        "the move is not one of the position's moves",
    ),
    (
        0x02,
        "EINCHK",
        "the move would leave the mover's king in check",
    ),
    (code::EHFULL, "EHFULL", "the game history is full"),
    (0x04, "ENOUNDO", "nothing to take back"),
    (0x05, "EPIECE", "set-up: a byte is not a piece"),
    (0x06, "EKINGS", "set-up: not exactly one king per side"),
    (0x07, "EPAWN", "set-up: a pawn on the first or last rank"),
    (0x08, "EEPSQ", "set-up: impossible en-passant square"),
    (0x09, "ECHECK", "set-up: the side not to move is in check"),
    (
        0x0A,
        "EDEPTH",
        "perft: depth beyond the firmware's limit (PMAXD)",
    ),
    (
        0x0B,
        "EOVFLW",
        "a move list overflowed MLIST or the stack reached its limit",
    ),
    (0x0D, "ESQUARE", "not a square of the board"),
    (
        0x0E,
        "ENOLEGL",
        "search: the side to move has no legal move",
    ),
    (
        0x10,
        "EBADPRM",
        "parameters: a block or range outside the blocks (full build)",
    ),
    (0xFF, "EUNKNWN", "unknown command"),
];

/// The meaning of a firmware error code.
pub fn error_text(code: u8) -> &'static str {
    ERRORS
        .iter()
        .find(|e| e.0 == code)
        .map(|e| e.2)
        .unwrap_or("an error code the host does not know")
}

/// An error code's symbol and meaning, `ENOMOVE (the move is not ..)`, or its value.
pub fn error_name(code: u8) -> String {
    ERRORS
        .iter()
        .find(|e| e.0 == code)
        .map(|e| format!("{} ({})", e.1, e.2))
        .unwrap_or_else(|| format!("code {code:02X}h"))
}
