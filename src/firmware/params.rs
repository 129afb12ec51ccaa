//! The full build's scoring parameter blocks, host side: what each parameter means, the
//! parameter file format, and loading a file into the Z80 through the protocol.
//!
//! The blocks themselves live in the firmware's expansion RAM (`asm/params.asm` has the layout
//! and the defaults); the address of each parameter is its `P_NAME` symbol. There are three
//! stored blocks: `default`, `e4` and `d4`; the firmware uses the one the game's first move picks
//! (1.e4, 1.d4, anything else), switched only between moves.
//!
//! # Parameter files
//!
//! ```text
//! # comments start with '#' or ';'
//! [default]          # applies to all three blocks (e4 and d4 start as copies of it)
//! P_PAWN = 256
//! [e4]               # only after 1.e4
//! P_DVCAS = 224
//! [d4]
//! P_FLAGS = 0x01
//! ```
//!
//! Lines before any section belong to `[default]`. Values are decimal (optionally signed) or
//! `0x` hexadecimal. A file is checked whole before anything is sent: a malformed line, an
//! unknown name, a value out of range or a repeated name is an error naming the line, and nothing
//! is loaded.

use super::{Build, Engine, FirmwareError};
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// 'V' block offset n: read a stored block.
pub use super::protocol::CMD_PREAD;
/// 'W' block offset n bytes..: write a stored block.
pub use super::protocol::CMD_PWRITE;
/// The size of one block (`PBLKSZ`).
pub const BLOCK_SIZE: u16 = 0x80;

/// The three stored blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Block {
    Default = 0,
    E4 = 1,
    D4 = 2,
}

impl Block {
    pub const ALL: [Block; 3] = [Block::Default, Block::E4, Block::D4];
    pub fn name(self) -> &'static str {
        match self {
            Block::Default => "default",
            Block::E4 => "e4",
            Block::D4 => "d4",
        }
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a parameter is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A signed word (little-endian).
    Word,
    /// An unsigned byte.
    Byte,
    /// A signed byte (-128..127).
    SByte,
    /// A byte of flag bits.
    Flags,
}

/// One parameter: its symbol, storage, the range the host accepts, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamDef {
    pub name: &'static str,
    pub kind: Kind,
    pub min: i32,
    pub max: i32,
    pub meaning: &'static str,
}

const fn p(name: &'static str, kind: Kind, min: i32, max: i32, meaning: &'static str) -> ParamDef {
    ParamDef {
        name,
        kind,
        min,
        max,
        meaning,
    }
}

/// Every parameter of the full build, in block order. Scores: 256 = one pawn. The ranges keep
/// every sum inside a signed word for any position that can arise in a game.
pub const PARAMS: &[ParamDef] = &[
    p(
        "P_FLAGS",
        Kind::Flags,
        0,
        0xFF,
        "search additions and switches on: bit 0 transposition table, 1 aspiration windows, 2 repetition and 50-move draws scored by ply (P_DRAWW), 3 deep think after a fail low in a timed search, 4 capture extension (captures at the leaves searched up to two plies further when the root is a king-and-pawn ending), 5 best-reply-first at ply 2 (#14), 6 the pawn-structure hash (#11: the same scores and trees in fewer T-states), 7 artificially isolated pawns (#11: a pawn 3 ranks or more beyond every own pawn of the neighbouring files counted as isolated, P_ISOOP / P_ISOCL)",
    ),
    p(
        "P_QPCP",
        Kind::SByte,
        -128,
        127,
        "queen-pawn openings (#11): a side whose rearmost c-pawn still stands on its 2nd or 3rd rank, while the enemy's pieces exceed P_KPHASE (the seed's \"strives to play c4 ... the same is true for d5 as black\"); ROM default -48 in the d4 block, 0 in the others",
    ),
    p("P_PAWN", Kind::Word, 0, 512, "material: a pawn"),
    p("P_KNIGHT", Kind::Word, 0, 1536, "material: a knight"),
    p("P_BISHOP", Kind::Word, 0, 1536, "material: a bishop"),
    p("P_ROOK", Kind::Word, 0, 2560, "material: a rook"),
    p("P_QUEEN", Kind::Word, 0, 4608, "material: a queen"),
    p(
        "P_XLOST",
        Kind::Word,
        0,
        512,
        "the mover's largest exchange loss, per unit of XCHNG's residue (values P1 N3 B3 R5 Q9)",
    ),
    p(
        "P_XWON",
        Kind::Word,
        0,
        512,
        "the side to move's second largest threat, counted won, per residue unit",
    ),
    p(
        "P_MCLAMP",
        Kind::Word,
        0,
        8192,
        "material change from the root clamped to +-this",
    ),
    p(
        "P_SCLAMP",
        Kind::Word,
        0,
        8192,
        "material plus exchange terms clamped to +-this",
    ),
    p(
        "P_BCSQ",
        Kind::Word,
        0,
        128,
        "board control: per net attacked square",
    ),
    p(
        "P_DVMIN",
        Kind::Word,
        -512,
        512,
        "development: an unmoved knight or bishop",
    ),
    p("P_DVCAS", Kind::Word, -512, 512, "development: a castled king"),
    p(
        "P_DVKMV",
        Kind::Word,
        -512,
        512,
        "development: a king moved without castling",
    ),
    p(
        "P_DVMAJ",
        Kind::Word,
        -512,
        512,
        "development: a rook or queen moved before move P_DVMNO",
    ),
    p(
        "P_DVMNO",
        Kind::Byte,
        0,
        255,
        "the move number before which a rook or queen move is early",
    ),
    p(
        "P_QPKN",
        Kind::SByte,
        -128,
        127,
        "queen-pawn openings (#11): the engine's knight on c3 (c6) in front of its c-pawn on c2 (c7), while the enemy's pieces exceed P_KPHASE (the seed's development routine: \"penalizes blocking the c-pawn with a knight in queen-pawn openings\"); ROM default -32 in the d4 block, 0 in the others",
    ),
    p(
        "P_BCCLMP",
        Kind::Word,
        0,
        2048,
        "board control plus development change clamped to +-this",
    ),
    p(
        "P_DRAWW",
        Kind::Word,
        0,
        255,
        "draw window (#12, P_FLAGS bit 2): a repetition or 50-move draw at ply n scores min(n, this) for the engine, and scores positive for the engine move up by this",
    ),
    // Issue #11: Cray Blitz's knowledge (asm/knowledge.asm), offsets 40h.., each a weight per
    // counted feature in White's view (White's count minus Black's).
    p(
        "P_KMOVE",
        Kind::Word,
        -256,
        256,
        "castling (#11, enemy pieces over P_KPHASE): the king moved without castling",
    ),
    p(
        "P_KRMOV",
        Kind::Word,
        -256,
        256,
        "castling (#11): the king unmoved, its king's rook moved or gone",
    ),
    p(
        "P_QRMOV",
        Kind::Word,
        -256,
        256,
        "castling (#11): the king unmoved, its queen's rook moved or gone",
    ),
    p(
        "P_BBAD",
        Kind::Word,
        -64,
        64,
        "bishops (#11): per bishop, each own pawn on squares of its colour (good and bad bishops)",
    ),
    p(
        "P_NCEN",
        Kind::Word,
        -64,
        64,
        "knights (#11): per step from the centre (file + rank steps)",
    ),
    p(
        "P_QCEN",
        Kind::Word,
        -64,
        64,
        "queen (#11): per step from the centre (file + rank steps)",
    ),
    p(
        "P_RBEH",
        Kind::Word,
        -256,
        256,
        "rooks (#11): a rook behind an own passed pawn on its file",
    ),
    p(
        "P_NTROP",
        Kind::Word,
        -64,
        64,
        "knights (#11): tropism, per knight 8 - its steps (file + rank) to the enemy king when fewer than 8",
    ),
    p(
        "P_RTROP",
        Kind::Word,
        -64,
        64,
        "rooks (#11): tropism, per rook 8 - its steps to the enemy king when fewer than 8",
    ),
    p(
        "P_QTROP",
        Kind::Word,
        -64,
        64,
        "queen (#11): tropism, 8 - its steps to the enemy king when fewer than 8",
    ),
    p(
        "P_LUFT",
        Kind::Word,
        -256,
        256,
        "king (#11, enemy pieces over P_KPHASE): on its back rank without luft, each of the three squares in front an own man or attacked by the enemy",
    ),
    p(
        "P_OUTP",
        Kind::Word,
        -256,
        256,
        "pawns (#11): an outside passed pawn, for the side whose passed pawn stands farther in files (3 or more) from every enemy pawn than any of the other side's",
    ),
    p(
        "P_RHORZ",
        Kind::Word,
        -256,
        256,
        "rooks (#11): a rook with no horizontal mobility, the squares beside it on its rank each an own man or off the board",
    ),
    p(
        "P_HOLE",
        Kind::Word,
        -256,
        256,
        "king (#11, enemy pieces over P_KPHASE, on its two back ranks): a hole in its shelter, a square of its 3rd rank on its file or beside that holds no own pawn and that no own pawn can defend any more",
    ),
    p(
        "P_DOUBL",
        Kind::Word,
        -512,
        512,
        "pawns (#11): a doubled pawn, each beyond the first on a file",
    ),
    p(
        "P_ISOOP",
        Kind::Word,
        -512,
        512,
        "pawns (#11): an isolated pawn with no enemy pawn in front (open file)",
    ),
    p(
        "P_ISOCL",
        Kind::Word,
        -512,
        512,
        "pawns (#11): an isolated pawn with an enemy pawn in front",
    ),
    p(
        "P_BKWOP",
        Kind::Word,
        -512,
        512,
        "pawns (#11): a backward pawn on an open file (the seed: as isolated, open)",
    ),
    p(
        "P_BKWCL",
        Kind::Word,
        -512,
        512,
        "pawns (#11): a backward pawn on a closed file (the seed: as isolated, closed)",
    ),
    p(
        "P_PASS",
        Kind::Word,
        -256,
        256,
        "pawns (#11): a passed pawn, times 1 1 2 3 5 8 on ranks 2..7; none for an isolated one while the enemy's pieces exceed P_KPHASE",
    ),
    p(
        "P_CTR2",
        Kind::Word,
        -512,
        512,
        "pawns (#11): both centre pawns (d, e) on their original squares",
    ),
    p(
        "P_CTR1",
        Kind::Word,
        -512,
        512,
        "pawns (#11): one centre pawn on its original square",
    ),
    p(
        "P_RAM",
        Kind::Word,
        -256,
        256,
        "pawns (#11): a pawn ram (pawns face to face), counted against the engine's side only",
    ),
    p(
        "P_EIGHT",
        Kind::Word,
        -512,
        512,
        "pawns (#11): the engine's side still has eight pawns",
    ),
    p(
        "P_ROPEN",
        Kind::Word,
        -512,
        512,
        "rooks (#11): a rook on an open file",
    ),
    p(
        "P_RHALF",
        Kind::Word,
        -512,
        512,
        "rooks (#11): a rook on a half-open file (enemy pawns only)",
    ),
    p(
        "P_R7TH",
        Kind::Word,
        -512,
        512,
        "rooks (#11): a rook on the 7th rank",
    ),
    p(
        "P_BPAIR",
        Kind::Word,
        -512,
        512,
        "bishops (#11): the bishop pair",
    ),
    p(
        "P_OUTPO",
        Kind::Word,
        -512,
        512,
        "knights (#11): an outpost (5th rank or beyond, not a/h file, no enemy pawn can attack it)",
    ),
    p(
        "P_KOPEN",
        Kind::Word,
        -512,
        512,
        "king (#11, middlegame): an open file in its zone (edge to one past the king)",
    ),
    p(
        "P_KENEM",
        Kind::Word,
        -512,
        512,
        "king (#11, middlegame): a zone file with an enemy pawn but no own pawn",
    ),
    p(
        "P_KHALF",
        Kind::Word,
        -512,
        512,
        "king (#11, middlegame): a zone file with an own pawn but no enemy pawn",
    ),
    p(
        "P_KSQ",
        Kind::Word,
        -256,
        256,
        "king (#11, middlegame): per step from b1/g1 (file steps + rank)",
    ),
    p(
        "P_KCENT",
        Kind::Word,
        -256,
        256,
        "king (#11, endgame): per step from the centre (file + rank steps)",
    ),
    p(
        "P_KPHASE",
        Kind::Byte,
        0,
        255,
        "king (#11): middlegame safety while the enemy's pieces (N3 B3 R5 Q9) exceed this, else endgame centralisation (the seed's 13,000 = 13)",
    ),
    p(
        "P_DVTWC",
        Kind::SByte,
        -128,
        127,
        "development (#11, the engine's side only): each of its moves in the search path that moves a man already moved, until move 15 and while a knight or bishop is at home or the king has not castled (the seed's \"penalizes moving any piece twice before moving all pieces once\"); 0 outside a search, so eval shows 0",
    ),
    p(
        "P_RACE",
        Kind::Word,
        0,
        4096,
        "pawn endings (#14): a pawn race or K+P(s) v K won for certain (RACE), for the winner; 0 = off",
    ),
    // Issue #14: End-Game's Table 1 (asm/endgame.asm), signed bytes at offsets 6Ch..77h, each
    // times its count in White's view (White's count minus Black's), only when nothing but kings
    // and pawns is on the board. Defaults: End-Game's constants times 256.
    p(
        "P_EGAPP",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): a pawn of the side that has just moved attacked by the enemy king or an enemy pawn (-CG)",
    ),
    p(
        "P_EGEDG",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): a pawn on the a- or h-file (-1/CH)",
    ),
    p(
        "P_EGADV",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): per Y*Y for a pawn on its own Y-th rank (CC)",
    ),
    p(
        "P_EGDBL",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): per (Y-1)*Y for Y own pawns on one file (-CF)",
    ),
    p(
        "P_EGFRE",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): pawn-advance test, no enemy man in the pawn's three-file channel to the 8th rank (CG)",
    ),
    p(
        "P_EGCH1",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): pawn-advance test, first scan: per unit of the nearest man on each channel file (pawn 1, king 3; own +, enemy -) (1/CH)",
    ),
    p(
        "P_EGCH2",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): pawn-advance test, second scan: own pawns minus enemy pawns in the channel and beside the pawn (1/CM)",
    ),
    p(
        "P_EGOPP",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): the opposition (kings on a file or rank, 1, 3 or 5 squares between), for the side that has just moved (CE)",
    ),
    p(
        "P_EGENE",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): king environment, an enemy pawn next to the king (3/CK)",
    ),
    p(
        "P_EGENO",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): king environment, an own pawn next to the king (1/CK)",
    ),
    p(
        "P_EGCEN",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): the king on the centre 16 squares c3-f6 (1/CJ)",
    ),
    p(
        "P_EGRIP",
        Kind::SByte,
        -128,
        127,
        "End-Game (#14): king ripple, the engine's king only: per (8 - distance) * material (pawn 1, king 3) of the nearest ring holding men (1/(CQ*CL))",
    ),
    p(
        "P_RPDRW",
        Kind::Byte,
        0,
        1,
        "K+RP v K (#11): 1 scores it as a draw when the bare king stands next to the queening square, beyond the pawns (RPDRAW); 0 = off",
    ),
    p(
        "P_LUS",
        Kind::Byte,
        0,
        1,
        "Lüscher's generated evaluation (#15): 1 scores KRK, KBBK (bishops on both colours) and KBNK by the fitted tables in expansion pages 1-2 (luscher.asm), a won ending above every non-won score; 0 = off (also named LUSCHER)",
    ),
    p(
        "P_FRONT",
        Kind::Byte,
        0,
        1,
        "K+P v K (#14): 1 scores it as a draw when the bare king stands on the pawn's file one square in front of it (pawn on its 2nd-6th rank) or two (2nd-5th) (FRDRAW); 0 = off",
    ),
    p(
        "P_WBDRW",
        Kind::Byte,
        0,
        1,
        "K+RP+wrong bishop v K (#11): 1 scores it as a draw when the bare king stands by the queening square the bishop cannot cover, beyond the pawns (WBDRAW); 0 = off",
    ),
    p(
        "P_OPPB",
        Kind::Byte,
        0,
        8,
        "bishops of opposite colours (#11): with one bishop each, no other pieces and neither side two pawns ahead, the knowledge terms' sum reduced by this / 8 (the seed's \"positional score is reduced\"); 0 = off",
    ),
    p(
        "P_BDIAG",
        Kind::Word,
        -64,
        64,
        "bishops (#11): open diagonals, per bishop each square of its two forward diagonals up to a pawn (either side's) or the edge",
    ),
    p(
        "P_QKS",
        Kind::SByte,
        -128,
        127,
        "queen (#11): its worth and the enemy king's safety, per queen each file of the enemy king's zone (the edge to one past the king) without a pawn of the king's side, while that king is in its middlegame (the seed's \"the value of a queen is directly related to the safety of the opponent's king\")",
    ),
];

/// The definition of a parameter by name.
pub fn def(name: &str) -> Option<&'static ParamDef> {
    let name = ALIASES
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(name))
        .map_or(name, |&(_, p)| p);
    PARAMS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

/// Other names a parameter answers to (in parameter files and `setoption`), each stored under
/// its `P_` name: the issues' own names for the switches.
pub const ALIASES: &[(&str, &str)] = &[("LUSCHER", "P_LUS")];

/// What is wrong with a parameter file, or with loading it.
#[derive(Debug, Error)]
pub enum ParamError {
    #[error("cannot read parameter file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{file}:{line}: {what}")]
    Line {
        file: String,
        line: usize,
        what: String,
    },
    #[error("parameter blocks exist only in the full build, not in {0}")]
    NotFull(Build),
    #[error("the firmware has no symbol {0} (roms/ out of date?)")]
    NoSymbol(&'static str),
    #[error(transparent)]
    Firmware(#[from] FirmwareError),
}

/// A checked parameter file: values per block, each within its range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamFile {
    /// Where it came from (for messages and PGN tags).
    pub source: String,
    /// `[default]` values (applied to all three blocks first).
    pub default: Vec<(&'static str, i32)>,
    pub e4: Vec<(&'static str, i32)>,
    pub d4: Vec<(&'static str, i32)>,
}

impl ParamFile {
    /// Read and check a file.
    pub fn load(path: &Path) -> Result<ParamFile, ParamError> {
        let text = crate::userfile::read_text(path, crate::userfile::MAX_TEXT).map_err(|e| {
            ParamError::Read {
                path: path.to_path_buf(),
                source: e.into_io(),
            }
        })?;
        ParamFile::parse(&text, &path.display().to_string())
    }

    /// Check text in the file format; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<ParamFile, ParamError> {
        let mut pf = ParamFile {
            source: file.to_string(),
            ..ParamFile::default()
        };
        let mut section = Block::Default;
        let err = |line: usize, what: String| ParamError::Line {
            file: file.to_string(),
            line,
            what,
        };
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split(['#', ';']).next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix('[') {
                let Some(name) = rest.strip_suffix(']') else {
                    return Err(err(
                        n,
                        format!("a section header needs a closing ']': {line}"),
                    ));
                };
                section = match name.trim().to_ascii_lowercase().as_str() {
                    "default" => Block::Default,
                    "e4" => Block::E4,
                    "d4" => Block::D4,
                    other => {
                        return Err(err(
                            n,
                            format!("unknown section [{other}] (sections: [default], [e4], [d4])"),
                        ))
                    }
                };
                continue;
            }
            let Some((name, value)) = line.split_once('=') else {
                return Err(err(
                    n,
                    format!("expected `NAME = value` or a [section], found `{line}`"),
                ));
            };
            let name = name.trim();
            let value = value.trim();
            let Some(d) = def(name) else {
                return Err(err(
                    n,
                    format!(
                        "unknown parameter `{name}` (`z80chess params --build full` lists them)"
                    ),
                ));
            };
            let v = parse_value(value)
                .ok_or_else(|| err(n, format!("`{value}` is not a number (for {})", d.name)))?;
            if v < d.min || v > d.max {
                return Err(err(
                    n,
                    format!("{} = {v} is out of range ({}..{})", d.name, d.min, d.max),
                ));
            }
            let list = pf.list_mut(section);
            if list.iter().any(|(k, _)| *k == d.name) {
                return Err(err(n, format!("{} is set twice in [{section}]", d.name)));
            }
            list.push((d.name, v));
        }
        Ok(pf)
    }

    fn list_mut(&mut self, b: Block) -> &mut Vec<(&'static str, i32)> {
        match b {
            Block::Default => &mut self.default,
            Block::E4 => &mut self.e4,
            Block::D4 => &mut self.d4,
        }
    }

    /// The values one block gets from this file (`[default]` first, then its own section).
    pub fn values_for(&self, b: Block) -> Vec<(&'static str, i32)> {
        let mut out = self.default.clone();
        let own = match b {
            Block::Default => &[][..],
            Block::E4 => &self.e4[..],
            Block::D4 => &self.d4[..],
        };
        for &(k, v) in own {
            if let Some(slot) = out.iter_mut().find(|(n, _)| *n == k) {
                slot.1 = v;
            } else {
                out.push((k, v));
            }
        }
        out
    }

    /// The file in canonical form (sections in order, names sorted): what the hash covers.
    pub fn canonical(&self) -> String {
        let mut s = String::new();
        for b in Block::ALL {
            let mut own = match b {
                Block::Default => self.default.clone(),
                Block::E4 => self.e4.clone(),
                Block::D4 => self.d4.clone(),
            };
            if own.is_empty() {
                continue;
            }
            own.sort();
            s.push_str(&format!("[{b}]\n"));
            for (k, v) in own {
                s.push_str(&format!("{k} = {v}\n"));
            }
        }
        s
    }

    /// A short hash of the canonical form (FNV-1a, 64 bits, as 16 hex digits), recorded in PGN
    /// tags and regress records. The empty file (the ROM's defaults) hashes like any other.
    pub fn hash(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.canonical().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }
}

fn parse_value(s: &str) -> Option<i32> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    // digits only after the sign and the prefix: from_str_radix would take a second sign
    // ("-0x-80000000" negated i32::MIN and overflowed)
    let (digits, radix) = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (body, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = i32::from_str_radix(digits, radix).ok()?;
    if neg {
        v.checked_neg()
    } else {
        Some(v)
    }
}

/// A parameter as the Z80 holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamValue {
    pub def: &'static ParamDef,
    /// Its offset in a block.
    pub offset: u16,
    /// The address of the active block's copy (the `P_NAME` symbol).
    pub address: u16,
    /// The value in each stored block: default, e4, d4.
    pub values: [i32; 3],
}

fn encode(d: &ParamDef, v: i32) -> Vec<u8> {
    match d.kind {
        Kind::Word => (v as i16).to_le_bytes().to_vec(),
        Kind::Byte | Kind::Flags => vec![v as u8],
        Kind::SByte => vec![v as i8 as u8],
    }
}

fn decode(d: &ParamDef, b: &[u8]) -> i32 {
    match d.kind {
        Kind::Word => i16::from_le_bytes([b[0], b[1]]) as i32,
        Kind::Byte | Kind::Flags => b[0] as i32,
        Kind::SByte => b[0] as i8 as i32,
    }
}

fn size(d: &ParamDef) -> u16 {
    match d.kind {
        Kind::Word => 2,
        _ => 1,
    }
}

/// Each parameter with its offset in a block and its address, from `build`'s symbols.
type Layout = Vec<(&'static ParamDef, u16, u16)>;

fn layout(build: Build) -> Result<(u16, Layout), ParamError> {
    if build != Build::Full {
        return Err(ParamError::NotFull(build));
    }
    let prm = build.symbol("PRM").ok_or(ParamError::NoSymbol("PRM"))?;
    let mut out = Vec::new();
    for d in PARAMS {
        let a = build.symbol(d.name).ok_or(ParamError::NoSymbol(d.name))?;
        out.push((d, a.wrapping_sub(prm), a));
    }
    Ok((prm, out))
}

impl ParamFile {
    /// The protocol commands (command byte first) that load this file into `build`'s
    /// firmware: 'W' FFh (every block back to the ROM's defaults), then 'W' block offset n
    /// bytes for every value of every block.
    pub fn commands(&self, build: Build) -> Result<Vec<Vec<u8>>, ParamError> {
        let (_, layout) = layout(build)?;
        let mut out = vec![vec![CMD_PWRITE, 0xFF]];
        for b in Block::ALL {
            for (name, v) in self.values_for(b) {
                let &(d, off, _) = layout
                    .iter()
                    .find(|(d, _, _)| d.name == name)
                    .expect("names were checked against PARAMS");
                let bytes = encode(d, v);
                let mut c = vec![CMD_PWRITE, b as u8, off as u8, bytes.len() as u8];
                c.extend(bytes);
                out.push(c);
            }
        }
        Ok(out)
    }

    /// Set one value in `[default]` (so in every block), checked like a file's line: what a UCI
    /// `setoption` does.
    pub fn set_default(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        let err = |what: String| ParamError::Line {
            file: "(option)".into(),
            line: 0,
            what,
        };
        let d = def(name).ok_or_else(|| err(format!("unknown parameter `{name}`")))?;
        if value < d.min || value > d.max {
            return Err(err(format!(
                "{} = {value} is out of range ({}..{})",
                d.name, d.min, d.max
            )));
        }
        match self.default.iter_mut().find(|(n, _)| *n == d.name) {
            Some(slot) => slot.1 = value,
            None => self.default.push((d.name, value)),
        }
        Ok(())
    }
}

impl Engine {
    /// Every stored block back to the ROM's defaults ('W' FFh).
    pub fn reset_params(&mut self) -> Result<(), ParamError> {
        layout(self.build)?;
        self.command(CMD_PWRITE, &[0xFF])?;
        Ok(())
    }

    /// Load a checked parameter file: every block back to the ROM's defaults, then every value
    /// of the file through the 'W' command. The file was checked whole when it was parsed, so
    /// nothing runs with a half-loaded block.
    pub fn load_params(&mut self, pf: &ParamFile) -> Result<(), ParamError> {
        for c in pf.commands(self.build)? {
            self.command(c[0], &c[1..])?;
        }
        Ok(())
    }

    /// Every parameter as the Z80 holds it, read through the 'V' command.
    pub fn params(&mut self) -> Result<Vec<ParamValue>, ParamError> {
        let (_, layout) = layout(self.build)?;
        let mut blocks = Vec::new();
        for b in Block::ALL {
            let r = self.command(CMD_PREAD, &[b as u8, 0, BLOCK_SIZE as u8])?;
            if r.len() != BLOCK_SIZE as usize {
                return Err(FirmwareError::Protocol {
                    command: 'V',
                    detail: format!("{} bytes, not {BLOCK_SIZE}", r.len()),
                }
                .into());
            }
            blocks.push(r);
        }
        Ok(layout
            .into_iter()
            .map(|(d, off, addr)| {
                let o = off as usize;
                let n = size(d) as usize;
                ParamValue {
                    def: d,
                    offset: off,
                    address: addr,
                    values: [0, 1, 2].map(|i| decode(d, &blocks[i][o..o + n])),
                }
            })
            .collect())
    }
}

/// `z80chess params --build B [--params FILE]`: every parameter, its address, value per block
/// and meaning.
pub fn cli(build: Build, file: Option<&Path>) -> Result<String, ParamError> {
    let mut e = Engine::new(build)?;
    if build != Build::Full {
        return Err(ParamError::NotFull(build));
    }
    if let Some(f) = file {
        let pf = ParamFile::load(f)?;
        e.load_params(&pf)?;
    }
    let ps = e.params()?;
    let mut s = format!(
        "{:<9} {:>5}  {:>7} {:>7} {:>7}  meaning (scores: 256 = one pawn)\n",
        "name", "addr", "default", "e4", "d4"
    );
    for p in ps {
        let show = |v: i32| match p.def.kind {
            Kind::Flags => format!("{v:#04x}"),
            _ => v.to_string(),
        };
        s.push_str(&format!(
            "{:<9} {:04X}h {:>7} {:>7} {:>7}  {} [{}..{}]\n",
            p.def.name,
            p.address,
            show(p.values[0]),
            show(p.values[1]),
            show(p.values[2]),
            p.def.meaning,
            p.def.min,
            p.def.max
        ));
    }
    Ok(s)
}
