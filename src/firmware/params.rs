//! The full build's scoring parameter blocks, host side: what each parameter means, the
//! parameter file format, and loading a file into the Z80 through the protocol.
//!
//! The blocks themselves live in the firmware's expansion RAM (`asm/full/params.asm` has the layout
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
/// The size of one block (`PBLKSZ`): 256 bytes (offsets 00h-7Fh the weights of the frame, the
/// knowledge, the search craft and the endings, 80h `P_FLAGS2`, the rest the weights of the
/// later search and of the KBNK and KBBK mating procedures, and free bytes).
pub const BLOCK_SIZE: u16 = 0x100;
/// The most bytes one 'V' or 'W' command moves (its count is a byte).
const CHUNK: u16 = 0x80;

/// `P_FLAGS2`'s bits (`asm/full/params.asm`, the `F2_` masks; a test keeps them in step).
pub mod flags2 {
    /// The KPK bitbase.
    pub const KPKBB: u8 = 0x01;
    /// Cheap interior ordering: no evaluation per move.
    pub const ORDER: u8 = 0x02;
    /// A quiescence search below the nominal depth.
    pub const QUIES: u8 = 0x04;
    /// Lazy evaluation: POINTS' early exit.
    pub const LAZY: u8 = 0x08;
    /// The cheap stage of a quiescence node's score: material against the window.
    pub const CEVAL: u8 = 0x10;
    /// Reserved.
    pub const RESERVED: u8 = 0xE0;
    /// Every bit with its `F2_` symbol.
    pub const ALL: [(&str, u8); 6] = [
        ("F2_KPKBB", KPKBB),
        ("F2_ORDER", ORDER),
        ("F2_QUIES", QUIES),
        ("F2_LAZY", LAZY),
        ("F2_CEVAL", CEVAL),
        ("F2_RSVD", RESERVED),
    ];
}

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

mod table;
pub use table::PARAMS;

/// The definition of a parameter by name.
pub fn def(name: &str) -> Option<&'static ParamDef> {
    let name = ALIASES
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(name))
        .map_or(name, |&(_, p)| p);
    PARAMS.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

/// Other names a parameter answers to (in parameter files and `setoption`), each stored under
/// its `P_` name: plain names for the switches (`LUSCHER` for Lüscher's module).
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

    /// A whole stored block as the Z80 holds it ('V', in chunks of 128 bytes).
    pub fn read_block(&mut self, b: Block) -> Result<Vec<u8>, ParamError> {
        let mut block = Vec::with_capacity(BLOCK_SIZE as usize);
        for offset in (0..BLOCK_SIZE).step_by(CHUNK as usize) {
            let r = self.command(CMD_PREAD, &[b as u8, offset as u8, CHUNK as u8])?;
            if r.len() != CHUNK as usize {
                return Err(FirmwareError::Protocol {
                    command: 'V',
                    detail: format!("{} bytes, not {CHUNK}", r.len()),
                }
                .into());
            }
            block.extend(r);
        }
        Ok(block)
    }

    /// Every parameter as the Z80 holds it, read through the 'V' command.
    pub fn params(&mut self) -> Result<Vec<ParamValue>, ParamError> {
        let (_, layout) = layout(self.build)?;
        let mut blocks = Vec::new();
        for b in Block::ALL {
            blocks.push(self.read_block(b)?);
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
