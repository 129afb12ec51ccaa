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
//!
//! Banked images (the full build): the labels of each expansion page (`NAME: EQU P:NNNN` in
//! the symbol file, `P:NNNN` in the source map) make a second table per page for the 8000h
//! window; [`Routines::at_in`] looks a PC up in the page the window shows, so a routine of a
//! page gets the cycles spent in that page only.

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
    /// Per expansion page, the routine of each window address (8000h-BFFFh).
    pages: Vec<Vec<u16>>,
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
        let map = crate::asm::parse_source_map_paged(build_map(build))?;
        let mut labels = HashSet::new();
        let root = source_root();
        let mut files: Vec<&str> = map.iter().map(|(_, _, f, _)| f.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        let mut read_all = !files.is_empty();
        for f in files {
            match std::fs::read_to_string(root.join(f)) {
                Ok(text) => label_names(&text, &mut labels),
                Err(_) => read_all = false,
            }
        }
        Routines::from_parts_paged(
            build.symbols(),
            &map.iter().map(|(p, a, _, _)| (*p, *a)).collect::<Vec<_>>(),
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
        let statements: Vec<(Option<u8>, u16)> =
            a.source_map.iter().map(|m| (m.page, m.addr)).collect();
        Routines::from_parts_paged(
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
        let statements: Vec<(Option<u8>, u16)> = statements.iter().map(|&a| (None, a)).collect();
        Routines::from_parts_paged(symbols, &statements, rom_len, labels)
    }

    /// [`Routines::from_parts`] for a program that may have expansion pages: `statements` and
    /// the symbols carry their page; a banked image's `rom_len` counts the pages too.
    pub fn from_parts_paged(
        symbols: &str,
        statements: &[(Option<u8>, u16)],
        rom_len: usize,
        labels: Option<&HashSet<String>>,
    ) -> Result<Routines, String> {
        use crate::machine::{MAX_PAGES, PAGE_SIZE, ROM_SIZE};
        let statements: HashSet<(Option<u8>, u16)> = statements.iter().copied().collect();
        let paged = statements.iter().any(|s| s.0.is_some());
        let base_len = if paged {
            rom_len.min(ROM_SIZE)
        } else {
            rom_len
        };
        // (page, address) -> names
        let mut by_addr: BTreeMap<(Option<u8>, u16), Vec<String>> = BTreeMap::new();
        let symbols = crate::disasm::Symbols::parse(symbols, "the symbol file")?;
        for (name, page, v) in symbols.entries() {
            let inside = match page {
                None => (v as usize) < base_len,
                Some(p) => p < MAX_PAGES && (0x8000..0xC000).contains(&v),
            };
            if name.contains('.')
                || !inside
                || !statements.contains(&(page, v))
                || labels.is_some_and(|l| !l.contains(name))
            {
                continue;
            }
            by_addr.entry((page, v)).or_default().push(name.to_string());
        }
        let mut names = vec![OUTSIDE.to_string()];
        let mut starts = vec![0u16];
        let mut of_pc = vec![0u16; 0x10000];
        let mut pages: Vec<Vec<u16>> = Vec::new();
        let bounds: Vec<((Option<u8>, u16), String)> = by_addr
            .into_iter()
            .map(|(a, mut n)| {
                n.sort();
                n.dedup();
                (a, n.join("/"))
            })
            .collect();
        for (k, ((page, addr), name)) in bounds.iter().enumerate() {
            let idx = names.len() as u16;
            names.push(name.clone());
            starts.push(*addr);
            let next = bounds
                .get(k + 1)
                .filter(|((p, _), _)| p == page)
                .map(|((_, a), _)| *a as usize);
            match page {
                None => {
                    let end = next.unwrap_or(base_len).max(*addr as usize);
                    of_pc[*addr as usize..end].fill(idx);
                }
                Some(p) => {
                    let p = *p as usize;
                    if pages.len() <= p {
                        pages.resize(p + 1, vec![0u16; PAGE_SIZE]);
                    }
                    let end = next.unwrap_or(0xC000).max(*addr as usize);
                    pages[p][*addr as usize - 0x8000..end - 0x8000].fill(idx);
                }
            }
        }
        Ok(Routines {
            names,
            starts,
            of_pc,
            pages,
            from_sources: labels.is_some(),
        })
    }

    /// The routine index of `pc` (0: outside every routine).
    #[inline(always)]
    pub fn at(&self, pc: u16) -> usize {
        self.of_pc[pc as usize] as usize
    }

    /// The routine index of `pc` while the window shows `page` (None: no page).
    #[inline(always)]
    pub fn at_in(&self, page: Option<u8>, pc: u16) -> usize {
        if let Some(p) = page {
            if (0x8000..0xC000).contains(&pc) {
                if let Some(t) = self.pages.get(p as usize) {
                    return t[pc as usize - 0x8000] as usize;
                }
            }
        }
        self.at(pc)
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
