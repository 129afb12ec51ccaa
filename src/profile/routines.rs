//! Which routine an address belongs to: the firmware's global code labels, sorted by address.
//!
//! The symbol file lists every name the assembler knew: code labels, but also RAM variables
//! (EQUs at 4000h and above) and constants (PAWN = 1, BLACK = 80h...), some of which happen to
//! equal a code address. A name counts as a routine when
//! - it is global (local labels are written `GLOBAL.local`),
//! - its value lies inside the ROM image and starts a statement in the source map, and
//! - the sources (`asm/*.asm`, found beside the crate) define it as a label (`NAME:` not
//!   followed by EQU). Without the sources that last test is skipped, and a constant equal to a
//!   code address may then name a few bytes of code.
//!
//! Every address from one routine's label up to the next label is that routine's.

use crate::firmware::Build;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The name given to addresses below the first label or outside the ROM image.
pub const OUTSIDE: &str = "(outside)";

/// Address -> routine, for one ROM image.
#[derive(Clone, Debug)]
pub struct Routines {
    names: Vec<String>,
    starts: Vec<u16>,
    of_pc: Vec<u16>,
    /// Whether the sources' label definitions were used.
    pub from_sources: bool,
}

/// The source map of a build (written by `z80chess roms` beside the image).
pub fn build_map(build: Build) -> &'static str {
    build.map()
}

/// Where `asm/` lives: the current directory if it has one, else the crate's own.
fn source_root() -> PathBuf {
    if Path::new(crate::firmware::rom::MAIN).exists() {
        PathBuf::from(".")
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

/// `NAME: EQU 0xNNNN` lines -> (name, value), in file order.
pub fn parse_symbols(text: &str) -> Result<Vec<(String, u16)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("symbol file line {}: expected 'NAME: EQU value'", i + 1);
        let (name, rest) = line.split_once(':').ok_or_else(bad)?;
        let rest = rest.trim();
        let value = rest
            .strip_prefix("EQU")
            .or_else(|| rest.strip_prefix("equ"))
            .ok_or_else(bad)?
            .trim();
        let v = if let Some(h) = value
            .strip_prefix("0x")
            .or_else(|| value.strip_prefix("0X"))
        {
            i64::from_str_radix(h, 16)
        } else {
            value.parse::<i64>()
        }
        .map_err(|_| bad())?;
        out.push((name.trim().to_string(), v as u16));
    }
    Ok(out)
}

/// Names defined as labels (`NAME:` at the start of a line, not `NAME: EQU`) in Zilog source.
pub fn label_names(source: &str, out: &mut HashSet<String>) {
    for line in source.lines() {
        let b = line.as_bytes();
        if b.is_empty() || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
            continue;
        }
        let end = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
            .unwrap_or(b.len());
        if b.get(end) != Some(&b':') {
            continue;
        }
        let rest = line[end + 1..].trim_start().to_ascii_uppercase();
        if rest.starts_with("EQU") || rest.starts_with('=') {
            continue;
        }
        out.insert(line[..end].to_string());
    }
}

impl Routines {
    /// The routines of a build's ROM, from its symbol file, its source map and (when found)
    /// the sources under `asm/`.
    pub fn for_build(build: Build) -> Result<Routines, String> {
        let map = crate::asm::parse_source_map(build_map(build))?;
        let mut labels = HashSet::new();
        let root = source_root();
        let mut files: Vec<&str> = map.iter().map(|(_, f, _)| f.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        let mut read_all = !files.is_empty();
        for f in files {
            match std::fs::read_to_string(root.join(f)) {
                Ok(text) => label_names(&text, &mut labels),
                Err(_) => read_all = false,
            }
        }
        Routines::from_parts(
            build.symbols(),
            &map.iter().map(|(a, _, _)| *a).collect::<Vec<_>>(),
            build.rom().len(),
            if read_all { Some(&labels) } else { None },
        )
    }

    /// The routines of an assembled program that starts at 0000h (its labels by kind).
    pub fn from_assembly(a: &crate::asm::Assembly) -> Result<Routines, String> {
        let labels: HashSet<String> = a
            .symbols
            .iter()
            .filter(|(_, s)| s.kind == crate::asm::SymbolKind::Label)
            .map(|(n, _)| n.clone())
            .collect();
        let statements: Vec<u16> = a.source_map.iter().map(|m| m.addr).collect();
        Routines::from_parts(
            &a.symbol_file(),
            &statements,
            a.origin as usize + a.image.len(),
            Some(&labels),
        )
    }

    /// From a symbol file's text, the statement addresses of the source map, the image's
    /// length and (if known) the names the sources define as labels.
    pub fn from_parts(
        symbols: &str,
        statements: &[u16],
        rom_len: usize,
        labels: Option<&HashSet<String>>,
    ) -> Result<Routines, String> {
        let statements: HashSet<u16> = statements.iter().copied().collect();
        let mut by_addr: BTreeMap<u16, Vec<String>> = BTreeMap::new();
        for (name, v) in parse_symbols(symbols)? {
            if name.contains('.')
                || (v as usize) >= rom_len
                || !statements.contains(&v)
                || labels.is_some_and(|l| !l.contains(&name))
            {
                continue;
            }
            by_addr.entry(v).or_default().push(name);
        }
        let mut names = vec![OUTSIDE.to_string()];
        let mut starts = vec![0u16];
        let mut of_pc = vec![0u16; 0x10000];
        let bounds: Vec<(u16, String)> = by_addr
            .into_iter()
            .map(|(a, mut n)| {
                n.sort();
                n.dedup();
                (a, n.join("/"))
            })
            .collect();
        for (k, (addr, name)) in bounds.iter().enumerate() {
            let idx = names.len() as u16;
            names.push(name.clone());
            starts.push(*addr);
            let end = bounds
                .get(k + 1)
                .map(|(a, _)| *a as usize)
                .unwrap_or(rom_len)
                .max(*addr as usize);
            of_pc[*addr as usize..end].fill(idx);
        }
        Ok(Routines {
            names,
            starts,
            of_pc,
            from_sources: labels.is_some(),
        })
    }

    /// The routine index of `pc` (0: outside every routine).
    #[inline(always)]
    pub fn at(&self, pc: u16) -> usize {
        self.of_pc[pc as usize] as usize
    }

    /// How many routines (including [`OUTSIDE`], index 0).
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Never: index 0 is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn name(&self, idx: usize) -> &str {
        &self.names[idx]
    }

    /// The label's address.
    pub fn start(&self, idx: usize) -> u16 {
        self.starts[idx]
    }

    /// The routine called `name` (or one of the names joined with '/').
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|n| n == name || n.split('/').any(|p| p == name))
    }
}
