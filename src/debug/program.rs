//! What the debugger knows about the program it runs: the ROM image, its symbols, which of
//! them are code labels, the source map (address -> file:line) and the source files.
//!
//! Banked programs (the full build's expansion pages, `crate::machine`): labels and source
//! lines of a page are kept apart, keyed by (page, address). Which page an address in the
//! 8000h-BFFFh window means is the *view*: the page the machine shows, set by the debugger
//! after every run ([`Program::set_view`]). Addresses in the window are written `P:ADDR`
//! (`1:8000h <P1MAIN>`).

use crate::asm::{Assembly, SymbolKind};
use crate::disasm::Symbols;
use crate::firmware::Build;
use crate::machine::MemoryMap;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One source file named by the source map.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as the source map writes it (e.g. `asm/movegen.asm`).
    pub path: String,
    /// The file name alone (`movegen.asm`), as the debugger shows it.
    pub short: String,
    /// Its lines (empty if the file could not be read).
    pub lines: Vec<String>,
}

/// The program under the debugger.
#[derive(Clone, Debug)]
pub struct Program {
    /// "article", "1978" or the name of an assembled file.
    pub name: String,
    /// The image, loaded at 0000h.
    pub rom: Vec<u8>,
    pub symbols: Symbols,
    /// Code labels by address (in definition order).
    labels: BTreeMap<u16, Vec<String>>,
    /// Names of all symbols, for case-insensitive look-up: upper-case name -> names.
    folded: HashMap<String, Vec<String>>,
    /// Address -> (file index, line), one entry per instruction or data statement.
    map: BTreeMap<u16, (usize, u32)>,
    /// (file index, line) -> addresses.
    by_line: ByLine,
    pub files: Vec<SourceFile>,
    /// The firmware build, if this is one (enables the protocol commands).
    pub firmware: Option<Build>,
    /// The machine's memory map (Expanded: `rom` is the base 16 KiB and the pages).
    pub memory: MemoryMap,
    /// Code labels of the pages by (page, address).
    page_labels: BTreeMap<(u8, u16), Vec<String>>,
    /// (page, address) -> (file index, line).
    page_map: BTreeMap<(u8, u16), (usize, u32)>,
    /// The page the window shows (see the module documentation).
    view: Cell<Option<u8>>,
}

/// (file index, line) -> the (page, address) of its code.
type ByLine = BTreeMap<(usize, u32), Vec<(Option<u8>, u16)>>;

/// Is `addr` in the expansion ROM window?
fn in_window(addr: u16) -> bool {
    (0x8000..0xC000).contains(&addr)
}

/// The source map of a firmware build (written by `z80chess roms` beside the image).
pub fn build_map(build: Build) -> &'static str {
    build.map()
}

/// Where `asm/` lives: the current directory if it has one, else the crate's own.
pub fn source_root() -> PathBuf {
    if Path::new(crate::firmware::rom::MAIN).exists() {
        PathBuf::from(".")
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

fn short_name(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_string()
}

fn read_lines(root: &Path, path: &str) -> Vec<String> {
    let p = Path::new(path);
    let full = if p.is_absolute() {
        p.to_path_buf()
    } else {
        root.join(p)
    };
    match crate::userfile::read(&full, crate::userfile::MAX_FILE) {
        Ok(bytes) => String::from_utf8_lossy(&bytes)
            .lines()
            .map(|l| l.replace('\t', "        ").trim_end().to_string())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Label definitions in Zilog source: `NAME:` at the start of a line (not `NAME: EQU`);
/// local labels (`.x:`) are qualified with the global label before them (`PARENT.x`).
fn scan_labels(lines: &[String], out: &mut HashSet<String>) {
    let mut global = String::new();
    for line in lines {
        let b = line.as_bytes();
        if b.is_empty() || !(b[0].is_ascii_alphabetic() || b[0] == b'_' || b[0] == b'.') {
            continue;
        }
        let end = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'.'))
            .unwrap_or(b.len());
        if b.get(end) != Some(&b':') {
            continue;
        }
        let name = &line[..end];
        let rest = line[end + 1..].trim_start().to_ascii_uppercase();
        if rest.starts_with("EQU") || rest.starts_with('=') {
            continue;
        }
        if name.starts_with('.') {
            out.insert(format!("{global}{name}"));
        } else {
            global = name.to_string();
            out.insert(name.to_string());
        }
    }
}

impl Program {
    fn assemble(
        name: String,
        rom: Vec<u8>,
        symbols: Symbols,
        map_entries: Vec<crate::asm::PagedMapEntry>,
        label_names: Option<HashSet<String>>,
        root: &Path,
        firmware: Option<Build>,
    ) -> Program {
        let mut files: Vec<SourceFile> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut map = BTreeMap::new();
        let mut page_map = BTreeMap::new();
        let mut by_line: ByLine = BTreeMap::new();
        for (page, addr, file, line) in map_entries {
            let k = *index.entry(file.clone()).or_insert_with(|| {
                files.push(SourceFile {
                    short: short_name(&file),
                    lines: read_lines(root, &file),
                    path: file.clone(),
                });
                files.len() - 1
            });
            by_line.entry((k, line)).or_default().push((page, addr));
            match page {
                Some(p) => page_map.insert((p, addr), (k, line)),
                None => map.insert(addr, (k, line)),
            };
        }
        let label_names = label_names.unwrap_or_else(|| {
            let mut set = HashSet::new();
            for f in &files {
                scan_labels(&f.lines, &mut set);
            }
            set
        });
        let mut labels: BTreeMap<u16, Vec<String>> = BTreeMap::new();
        let mut folded: HashMap<String, Vec<String>> = HashMap::new();
        let mut all: Vec<(String, u16)> = Vec::new();
        let mut seen = HashSet::new();
        for v in 0..=0xFFFFu16 {
            for n in symbols.names_of(v) {
                if seen.insert(n.to_string()) {
                    all.push((n.to_string(), v));
                }
            }
        }
        for (n, v) in &all {
            folded
                .entry(n.to_ascii_uppercase())
                .or_default()
                .push(n.clone());
            let is_label = if label_names.is_empty() {
                // No sources and no kinds: names of instruction addresses in the image.
                (*v as usize) < rom.len() && map.contains_key(v)
            } else {
                label_names.contains(n)
            };
            if is_label {
                labels.entry(*v).or_default().push(n.clone());
            }
        }
        let mut page_labels: BTreeMap<(u8, u16), Vec<String>> = BTreeMap::new();
        for p in 0..crate::machine::MAX_PAGES {
            for (v, n) in symbols.page_labels(p) {
                folded
                    .entry(n.to_ascii_uppercase())
                    .or_default()
                    .push(n.to_string());
                if label_names.is_empty() || label_names.contains(n) {
                    page_labels.entry((p, v)).or_default().push(n.to_string());
                }
            }
        }
        // Prefer global labels over local ones at the same address.
        for names in labels.values_mut().chain(page_labels.values_mut()) {
            names.sort_by_key(|n| n.contains('.'));
        }
        // The full build's machine has the expansion memory, paged or not.
        let memory = if rom.len() > crate::machine::ROM_SIZE || firmware == Some(Build::Full) {
            MemoryMap::expanded_for(&rom)
        } else {
            MemoryMap::Period
        };
        Program {
            name,
            rom,
            symbols,
            labels,
            folded,
            map,
            by_line,
            files,
            firmware,
            memory,
            page_labels,
            page_map,
            view: Cell::new(None),
        }
    }

    /// The page the window shows (the debugger sets it from the machine).
    pub fn set_view(&self, page: Option<u8>) {
        self.view.set(page);
    }

    /// The end of the ROM image as the CPU sees it around `addr`: the base image's end, or
    /// in the window of a banked program the window's end when a page is in view.
    pub fn image_end(&self, addr: u16) -> usize {
        match self.page_of_addr(addr) {
            Some(p) if p < self.memory.pages() => 0xC000,
            _ => self.rom.len().min(crate::machine::ROM_SIZE),
        }
    }

    /// The page an address means now: the view for the window, None elsewhere.
    pub fn page_of_addr(&self, addr: u16) -> Option<u8> {
        if in_window(addr) {
            self.view.get()
        } else {
            None
        }
    }

    /// `8000h`, or `1:8000h` for an address of a page.
    pub fn addr_name(page: Option<u8>, addr: u16) -> String {
        match page {
            Some(p) => format!("{p}:{addr:04X}h"),
            None => format!("{addr:04X}h"),
        }
    }

    /// [`Program::addr_text`] for an address of a given page (None: as the view says).
    pub fn addr_text_in(&self, page: Option<u8>, addr: u16) -> String {
        let old = self.view.get();
        if page.is_some() {
            self.view.set(page);
        }
        let s = self.addr_text(addr);
        self.view.set(old);
        s
    }

    /// A firmware build: its ROM, symbol file and source map from `roms/`, sources from `root`.
    pub fn from_build(build: Build, root: &Path) -> Result<Program, String> {
        let symbols = Symbols::parse(build.symbols(), &format!("roms/{}.sym", build.name()))?;
        let map = crate::asm::parse_source_map_paged(build_map(build))?;
        Ok(Program::assemble(
            build.name().to_string(),
            build.rom().to_vec(),
            symbols,
            map,
            None,
            root,
            Some(build),
        ))
    }

    /// A freshly assembled program (its image must start at 0000h).
    pub fn from_assembly(name: &str, a: &Assembly, root: &Path) -> Result<Program, String> {
        if a.origin != 0 && !a.image.is_empty() {
            return Err(format!(
                "{name}: the image starts at {:04X}h; the machine boots at 0000h",
                a.origin
            ));
        }
        if a.image.is_empty() {
            return Err(format!("{name}: the program is empty"));
        }
        if a.image.len() > crate::machine::ROM_SIZE && a.pages == 0 {
            return Err(format!(
                "{name}: {} bytes do not fit in the 16 KiB ROM",
                a.image.len()
            ));
        }
        let mut symbols = Symbols::new();
        let mut labels = HashSet::new();
        let mut syms: Vec<(&String, i64, SymbolKind, Option<u8>)> = a
            .symbols
            .iter()
            .map(|(k, s)| (k, s.value, s.kind, s.page))
            .collect();
        syms.sort_by(|x, y| (x.1, x.0).cmp(&(y.1, y.0)));
        for (n, v, kind, page) in syms {
            if (0..=0xFFFF).contains(&v) {
                symbols.insert_in(page, n, v as u16);
                if kind == SymbolKind::Label {
                    labels.insert(n.clone());
                }
            }
        }
        let map = a
            .source_map
            .iter()
            .map(|e| {
                (
                    e.page,
                    e.addr,
                    a.files.get(e.file).cloned().unwrap_or_else(|| "?".into()),
                    e.line,
                )
            })
            .collect();
        // An empty label set would mean "guess": keep at least a marker.
        if labels.is_empty() {
            labels.insert(String::new());
        }
        Ok(Program::assemble(
            name.to_string(),
            a.image.clone(),
            symbols,
            map,
            Some(labels),
            root,
            None,
        ))
    }

    /// Assemble a source file and load it.
    pub fn from_source(path: &Path) -> Result<Program, String> {
        let a = crate::asm::assemble_file(path, &[]).map_err(|errs| {
            let mut s = format!("{} error(s) assembling {}:", errs.len(), path.display());
            for e in &errs {
                s.push_str(&format!("\n{e}"));
            }
            s
        })?;
        Program::from_assembly(&path.display().to_string(), &a, Path::new("."))
    }

    /// The value of a symbol: exact name first, then a case-insensitive match if it is unique.
    pub fn symbol(&self, name: &str) -> Result<u16, String> {
        if let Some(v) = self.symbols.value_of(name) {
            return Ok(v);
        }
        match self.folded.get(&name.to_ascii_uppercase()) {
            Some(names) if names.len() == 1 => Ok(self.symbols.value_of(&names[0]).unwrap_or(0)),
            Some(names) => Err(format!(
                "'{name}' is ambiguous: {} (symbols are case-sensitive)",
                names.join(", ")
            )),
            None => {
                let up = name.to_ascii_uppercase();
                let mut near: Vec<&str> = self
                    .folded
                    .iter()
                    .filter(|(k, _)| {
                        up.len() >= 2 && (k.starts_with(&up) || (k.len() >= 3 && up.contains(*k)))
                    })
                    .flat_map(|(_, v)| v.iter().map(String::as_str))
                    .collect();
                near.sort();
                near.truncate(5);
                if near.is_empty() {
                    Err(format!("unknown symbol '{name}'"))
                } else {
                    Err(format!(
                        "unknown symbol '{name}' (did you mean {}?)",
                        near.join(", ")
                    ))
                }
            }
        }
    }

    /// The code label at exactly `addr` (a global one if there is one).
    pub fn label_at(&self, addr: u16) -> Option<&str> {
        self.labels_at(addr).first().map(String::as_str)
    }

    /// All code labels at `addr` (in the window: the view's page's).
    pub fn labels_at(&self, addr: u16) -> &[String] {
        let names = match self.page_of_addr(addr) {
            Some(p) => self.page_labels.get(&(p, addr)),
            None => self.labels.get(&addr),
        };
        names.map(Vec::as_slice).unwrap_or(&[])
    }

    /// `LABEL`, `LABEL+n` (code: the nearest label at or below, inside the image; data: the
    /// nearest symbol at or below within 256 bytes), or None.
    pub fn describe(&self, addr: u16) -> Option<String> {
        let plus = |name: &str, base: u16| {
            let off = addr - base;
            if off == 0 {
                name.to_string()
            } else {
                format!("{name}+{off}")
            }
        };
        if let Some(p) = self.page_of_addr(addr) {
            let (&(_, base), names) = self
                .page_labels
                .range((p, 0x8000)..=(p, addr))
                .next_back()?;
            return Some(plus(names.first()?, base));
        }
        if (addr as usize) < self.rom.len().min(crate::machine::ROM_SIZE) {
            let (&base, names) = self.labels.range(..=addr).next_back()?;
            return Some(plus(names.first()?, base));
        }
        // Data: symbols below 100h are constants, not places.
        for v in (addr.saturating_sub(255).max(0x100)..=addr).rev() {
            if let Some(name) = self.symbols.names_of(v).next() {
                return Some(plus(name, v));
            }
        }
        None
    }

    /// `1234h` followed by ` <LABEL+n>` when there is a name for it.
    pub fn addr_text(&self, addr: u16) -> String {
        let name = Program::addr_name(self.page_of_addr(addr), addr);
        match self.describe(addr) {
            Some(d) => format!("{name} <{d}>"),
            None => name,
        }
    }

    /// The source line of the instruction or data statement starting at `addr`.
    pub fn line_at(&self, addr: u16) -> Option<(usize, u32)> {
        match self.page_of_addr(addr) {
            Some(p) => self.page_map.get(&(p, addr)).copied(),
            None => self.map.get(&addr).copied(),
        }
    }

    /// The source line of the statement that contains `addr` (the nearest at or below it).
    pub fn line_near(&self, addr: u16) -> Option<(usize, u32)> {
        if let Some(p) = self.page_of_addr(addr) {
            return self
                .page_map
                .range((p, 0x8000)..=(p, addr))
                .next_back()
                .map(|(_, &l)| l);
        }
        if (addr as usize) >= self.rom.len().min(crate::machine::ROM_SIZE) {
            return None;
        }
        self.map.range(..=addr).next_back().map(|(_, &l)| l)
    }

    /// `movegen.asm:42`.
    pub fn line_name(&self, file: usize, line: u32) -> String {
        match self.files.get(file) {
            Some(f) => format!("{}:{line}", f.short),
            None => format!("?:{line}"),
        }
    }

    /// The text of a source line, if the file was readable.
    pub fn source_text(&self, file: usize, line: u32) -> Option<&str> {
        self.files
            .get(file)?
            .lines
            .get((line as usize).checked_sub(1)?)
            .map(String::as_str)
    }

    /// The file a user's name means: the map's path, its tail after a `/`, or its file name.
    pub fn find_file(&self, name: &str) -> Result<usize, String> {
        let hits: Vec<usize> = (0..self.files.len())
            .filter(|&k| {
                let p = &self.files[k].path;
                p == name || p.ends_with(&format!("/{name}")) || self.files[k].short == name
            })
            .collect();
        match hits[..] {
            [k] => Ok(k),
            [] => {
                let names: Vec<&str> = self.files.iter().map(|f| f.short.as_str()).collect();
                Err(format!(
                    "no source file '{name}' in the program (files: {})",
                    names.join(", ")
                ))
            }
            _ => Err(format!("'{name}' names more than one source file")),
        }
    }

    /// The first address of code at `file:line`, or of the next line that has some.
    pub fn addr_of_line(&self, file: usize, line: u32) -> Result<(u16, u32), String> {
        self.line_location(file, line).map(|(_, a, l)| (a, l))
    }

    /// [`Program::addr_of_line`] with the expansion page the code is in (None: base).
    pub fn line_location(&self, file: usize, line: u32) -> Result<(Option<u8>, u16, u32), String> {
        match self.by_line.range((file, line)..=(file, u32::MAX)).next() {
            Some((&(_, l), addrs)) => {
                let (p, a) = addrs.iter().copied().min().unwrap_or((None, 0));
                Ok((p, a, l))
            }
            None => Err(format!(
                "no code at or after {}",
                self.line_name(file, line)
            )),
        }
    }

    /// The address of the statement `n` statements before `addr` (or the earliest there is),
    /// when `addr` is a statement of the map; else `addr`.
    pub fn statements_before(&self, addr: u16, n: usize) -> u16 {
        if !self.map.contains_key(&addr) {
            return addr;
        }
        self.map
            .range(..addr)
            .rev()
            .take(n)
            .last()
            .map(|(&a, _)| a)
            .unwrap_or(addr)
    }

    /// Is there a map entry (an instruction or data statement) starting at `addr`?
    pub fn is_statement(&self, addr: u16) -> bool {
        self.line_at(addr).is_some()
    }

    /// The page and address of a location the user wrote as `P:ADDR` (`1:8100`, `1:8100h`).
    pub fn paged_location(text: &str) -> Option<(u8, u16)> {
        let (p, a) = text.trim().split_once(':')?;
        let p: u8 = p.trim().parse().ok()?;
        let a = a.trim();
        let a = a.strip_suffix(['h', 'H']).unwrap_or(a);
        let a = a.strip_prefix("0x").unwrap_or(a);
        u16::from_str_radix(a, 16).ok().map(|a| (p, a))
    }

    /// The page of a location given as a label of a page (`P1MAIN`, `P1MAIN+3`,
    /// `P1MAIN.loop`), or `P:ADDR`.
    pub fn location_page(&self, text: &str) -> Option<u8> {
        if let Some((p, _)) = Program::paged_location(text) {
            return Some(p);
        }
        if let Some((file, line)) = text.trim().rsplit_once(':') {
            let f = self.find_file(file.trim()).ok()?;
            let line: u32 = line.trim().parse().ok()?;
            return self.line_location(f, line).ok()?.0;
        }
        let name: String = text
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        if let Some(p) = self.symbols.page_of(&name) {
            return Some(p);
        }
        match self.folded.get(&name.to_ascii_uppercase()) {
            Some(names) if names.len() == 1 => self.symbols.page_of(&names[0]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_from_source_text() {
        let lines: Vec<String> = [
            "GENMOV: CALL CALCEP",
            ".sq:    LD A,(HL)",
            "PAWN    EQU 1",
            "VARS:   EQU 4100h",
            "        RET",
            "ROMEND:",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut set = HashSet::new();
        scan_labels(&lines, &mut set);
        let mut v: Vec<_> = set.into_iter().collect();
        v.sort();
        assert_eq!(v, ["GENMOV", "GENMOV.sq", "ROMEND"]);
    }

    #[test]
    fn firmware_program_knows_its_labels() {
        let p = Program::from_build(Build::Article, &source_root()).unwrap();
        let g = p.symbol("GENMOV").unwrap();
        assert_eq!(p.label_at(g), Some("GENMOV"));
        assert_eq!(p.symbol("genmov").unwrap(), g);
        assert!(p.symbol("NOSUCH").is_err());
        let (f, _) = p.line_at(g).unwrap();
        assert_eq!(p.files[f].short, "movegen.asm");
        assert_eq!(p.describe(g + 1).unwrap(), "GENMOV+1");
    }
}
