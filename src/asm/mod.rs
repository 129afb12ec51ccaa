//! The assembler: Zilog-syntax Z80 source to a binary image, a symbol file, a listing and a
//! source map. The encoder is derived from [`crate::z80::isa::templates`].
//!
//! # Syntax
//!
//! One statement per line: `[label[:]] [mnemonic|directive [operands]] [; comment]`.
//!
//! - **Labels**: a name followed by `:` anywhere, or a name in column 1 (a column-1 label that
//!   spells a mnemonic or directive needs its colon). `NAME EQU expr` and `NAME = expr` need no
//!   colon either. Names: letters, digits, `_`, `.`; not starting with a digit; case-sensitive.
//!   A name starting with `.` is local: `.loop` after the global label `search` is the symbol
//!   `search.loop` (and can be referenced by that name from anywhere). `EQU` does not start a
//!   new scope; only address labels do. Register and condition names are reserved.
//! - **Case**: mnemonics, registers and directives are case-insensitive; symbols are not.
//! - **Directives**: `ORG`, `EQU` / `=`, `DB`/`DEFB`/`DM`/`DEFM` (numbers and strings),
//!   `DW`/`DEFW`, `DS`/`DEFS count[,fill]`, `INCLUDE "file"` (relative to the including file;
//!   the quotes are optional), `INCBIN "file"`, `IF expr` / `ELSEIF expr` / `ELSE` / `ENDIF`,
//!   `IFDEF NAME` / `IFNDEF NAME` (true if NAME is defined *above* the line or by `-D`), `END`
//!   (stops assembly; an operand is checked and ignored).
//!   `ASSERT expr, "message"`: a build assertion; when `expr` is 0 in the final pass the
//!   assembly fails with `file:line:col: assertion failed: message ('expr' is false)`.
//!   `PAGE n` / `ENDPAGE`: see *Expansion pages* below.
//!   Macros (`MACRO`/`ENDM`/`REPT`) are not supported.
//! - **Expressions**: C precedence (loosest first: `||`; `&&`; `|`; `^`; `&`;
//!   `= == != <>`; `< > <= >=`; `<< >>`; `+ -`; `* / %`; unary `- + ~ !`); comparisons and
//!   `&& || !` give **1 for true, 0 for false**. `$` is the address of the current statement.
//!   Numbers `255 0FFh $FF 0xFF %1010 0b1010 1010b 17o 17q 99d`, characters `'A'`,
//!   `LOW(x)`, `HIGH(x)`, `PAGEOF(label)` (a label's expansion page). Values are 64-bit;
//!   forward references resolve everywhere, including in `EQU`, `ORG`, `DS` and `IF`
//!   (and in `PAGEOF`): the passes repeat until the values are stable, and a
//!   symbol that never gets a value is an error (undefined, or circular), never 0.
//! - **Operands**: `(expr)` as a whole operand is memory (`LD A,(5)`); anything else is an
//!   immediate (`LD A,(5)+1`, `LD A,5*(2+1)`). `(IX+d)`, `(IX-d)` with any expression
//!   (`(IX+OFF)` with OFF negative is fine), `(IX)` = `(IX+0)`. 8-bit immediates take
//!   -128..255, 16-bit -32768..65535, displacements -128..127; JR/DJNZ targets must be in reach.
//!   Aliases: `SLI`=`SLL`, `IN (C)`=`IN F,(C)`, `SUB A,r`=`SUB r` (also AND/OR/XOR/CP),
//!   `ADD r`=`ADD A,r` (also ADC/SBC), `EX AF,AF`=`EX AF,AF'`.
//!
//! # Expansion pages
//!
//! The `full` build's machine has up to eight 16 KiB expansion ROM pages seen one at a time
//! through the window 8000h-BFFFh (port 04h selects; `crate::machine`). `PAGE n` (n = 0..7)
//! sends what follows to page n, until `ENDPAGE` (back to the base image) or another `PAGE`.
//! Each segment keeps its own address counter: a page starts at 8000h, returning to a page or
//! to the base continues where it stopped; `ORG` inside a page moves that page's counter. Every
//! byte of a page must lie in 8000h-BFFFh, and once a source has a `PAGE`, every base byte in
//! 0000h-3FFFh (errors with file:line otherwise; a page out of range and bytes written twice in
//! a page are errors too).
//!
//! A label defined in a page carries the page ([`Symbol::page`]); its value is its address in
//! the window, so `CALL label` works once the code has selected the page. `EQU` values and `-D`
//! carry no page. The image of a paged source is the base 16 KiB (gaps 0) followed by pages
//! 0..=the highest `PAGE` used, 16 KiB each ([`Assembly::pages`]); `Machine::expanded` takes
//! it as it is. The symbol file, listing and source map name a paged address `page:addr`
//! (`1:8123`); a source without `PAGE` gives exactly the outputs it always did.
//!
//! # Not accepted
//!
//! Macros (`MACRO`/`ENDM`/`REPT`); `a ? b : c`; backslash escapes in strings; strings longer
//! than one character in expressions or `DW`; several statements on a line; reassignable
//! symbols (`DEFL`, `SET`); `PHASE`, `ALIGN`, `ASSERT` and dotted directives (`.org`);
//! `JP HL` / `JP IX` without parentheses; `IN A,n` / `OUT n,A` without parentheses;
//! `RST 7` for `RST 38h` (RST takes the address); `XH`/`HX`/`IXU`-style names for the index
//! halves (only `IXH IXL IYH IYL`); synthetic instructions (`LD HL,DE`); numbers in `&H`/`@`
//! notation; IF/ENDIF spanning two files (each file balances its own); a column-1 label
//! spelled like a mnemonic or directive without its colon.
//!
//! # Outputs
//!
//! - The image covers the lowest to the highest address written; gaps are 0.
//! - Symbols: `NAME: EQU 0xNNNN` per line (sjasmplus style), sorted by value then name; values
//!   outside 0..=0xFFFF are written as 8 hex digits of their 32-bit two's complement. Then the
//!   labels of pages, `NAME: EQU P:NNNN` (hex address, no `0x`), sorted by page, value, name.
//! - Listing: address, bytes, T-states (`[12/7]` = taken/not taken), line number, source.
//! - Cross-reference (`--xref`): every symbol's definition and references, and the routine
//!   each reference lies in; the format and what counts as a routine and a call are in
//!   [`Xref`]'s module (`asm::xref`), read back by [`Xref::parse`].
//! - Source map: lines starting with `;` are comments; every other line is `ADDR FILE:LINE`
//!   (ADDR: 4 hex digits, upper case, `P:ADDR` in a page; FILE as the assembler opened it; LINE
//!   1-based), one per emitted instruction or data statement, in assembly order.
//!   [`parse_source_map_paged`] reads it; [`parse_source_map`] reads the base entries.

mod encode;
mod error;
mod expr;
mod lexer;
mod parse;
mod pass;
mod xref;

pub use error::{AsmError, ErrorKind};
pub use xref::{SymRef, Xref, XrefError, XrefRef, XrefSymbol, CONTROL_OPS};

use crate::z80::isa::Timing;
use pass::{Ctx, Pass, MAX_PASSES};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where source files come from (the file system, or memory in tests).
pub trait SourceLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>>;
}

/// Reads files from the file system: regular files of at most
/// [`crate::userfile::MAX_FILE`] bytes (a device, FIFO or directory is refused by name).
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        crate::userfile::read(path, crate::userfile::MAX_FILE).map_err(|e| e.into_io())
    }
}

/// In-memory files (paths as given to `assemble_with`, joined with include paths).
impl SourceLoader for HashMap<PathBuf, Vec<u8>> {
    fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.get(path)
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// An address label.
    Label,
    /// `EQU` / `=`.
    Equ,
    /// `-D NAME=VALUE`.
    Define,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub value: i64,
    pub kind: SymbolKind,
    /// Index into [`Assembly::files`] (None for `-D`).
    pub file: Option<usize>,
    /// 1-based line of the definition (0 for `-D`).
    pub line: u32,
    /// The expansion page of a label defined between `PAGE n` and `ENDPAGE` (None: base).
    pub page: Option<u8>,
}

/// One source line as assembled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingLine {
    /// Index into [`Assembly::files`].
    pub file: usize,
    /// 1-based.
    pub line: u32,
    /// Address at the start of the line (None for a blank or comment-only line, or one
    /// skipped by IF).
    pub addr: Option<u16>,
    pub bytes: Vec<u8>,
    /// T-states of an instruction.
    pub timing: Option<Timing>,
    /// The value of an EQU.
    pub value: Option<i64>,
    /// False if skipped by IF/ELSE.
    pub assembled: bool,
    pub text: String,
    /// The expansion page `addr` is in (None: the base image).
    pub page: Option<u8>,
}

/// One emitted instruction or data statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapEntry {
    pub addr: u16,
    /// Index into [`Assembly::files`].
    pub file: usize,
    /// 1-based.
    pub line: u32,
    /// The expansion page `addr` is in (None: the base image).
    pub page: Option<u8>,
}

/// An address as the symbol file, listing and source map write it: `8123` in the base,
/// `1:8123` in page 1.
pub fn paged_addr(page: Option<u8>, addr: u16) -> String {
    match page {
        Some(p) => format!("{p}:{addr:04X}"),
        None => format!("{addr:04X}"),
    }
}

/// A successful assembly.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// The bytes from `origin` to the highest address written.
    pub image: Vec<u8>,
    /// Address of `image[0]` (the first ORG if nothing was emitted, else 0).
    pub origin: u16,
    pub symbols: BTreeMap<String, Symbol>,
    pub listing: Vec<ListingLine>,
    pub source_map: Vec<MapEntry>,
    /// Source files, as opened (the main file first).
    pub files: Vec<String>,
    /// Passes it took.
    pub passes: usize,
    /// Expansion pages in the image (0: not a paged source). When non-zero, `image` is the
    /// base 16 KiB followed by `pages` pages of 16 KiB, and `origin` is 0.
    pub pages: u8,
    /// Every reference to a symbol, in assembly order (see [`Assembly::xref`]).
    pub refs: Vec<SymRef>,
}

impl Assembly {
    /// The value of a symbol.
    pub fn symbol(&self, name: &str) -> Option<i64> {
        self.symbols.get(name).map(|s| s.value)
    }

    /// First and last address of the image (None if empty).
    pub fn range(&self) -> Option<(u16, u16)> {
        if self.image.is_empty() {
            None
        } else {
            Some((
                self.origin,
                (self.origin as usize + self.image.len() - 1) as u16,
            ))
        }
    }

    /// The bytes one source line produced (`file` as in [`Assembly::files`]).
    pub fn bytes_of_line(&self, file: usize, line: u32) -> Option<&[u8]> {
        self.listing
            .iter()
            .find(|l| l.file == file && l.line == line && l.assembled)
            .map(|l| l.bytes.as_slice())
    }

    /// The page of a label defined in an expansion page.
    pub fn symbol_page(&self, name: &str) -> Option<u8> {
        self.symbols.get(name).and_then(|s| s.page)
    }

    /// The bytes of page `page` (PAGE_SIZE of them), if the image has it.
    pub fn page_bytes(&self, page: u8) -> Option<&[u8]> {
        if page >= self.pages {
            return None;
        }
        let at = pass::PAGE_SIZE * (1 + page as usize);
        self.image.get(at..at + pass::PAGE_SIZE)
    }

    /// The symbol file: `NAME: EQU 0xNNNN` lines, then `NAME: EQU P:NNNN` for page labels.
    pub fn symbol_file(&self) -> String {
        let mut syms: Vec<(&String, i64)> = self
            .symbols
            .iter()
            .filter(|(_, s)| s.page.is_none())
            .map(|(k, s)| (k, s.value))
            .collect();
        syms.sort_by(|a, b| (a.1, a.0).cmp(&(b.1, b.0)));
        let mut paged: Vec<(u8, i64, &String)> = self
            .symbols
            .iter()
            .filter_map(|(k, s)| s.page.map(|p| (p, s.value, k)))
            .collect();
        paged.sort();
        let mut out = String::new();
        for (name, v) in syms {
            if (0..=0xFFFF).contains(&v) {
                let _ = writeln!(out, "{name}: EQU 0x{v:04X}");
            } else {
                let _ = writeln!(out, "{name}: EQU 0x{:08X}", v as u32);
            }
        }
        for (page, v, name) in paged {
            let _ = writeln!(out, "{name}: EQU {}", paged_addr(Some(page), v as u16));
        }
        out
    }

    /// The listing as text.
    pub fn listing_text(&self) -> String {
        let mut out = String::from("; ADDR  BYTES        T-STATES   LINE  SOURCE\n");
        let mut file = usize::MAX;
        for l in &self.listing {
            if l.file != file {
                file = l.file;
                let _ = writeln!(
                    out,
                    "; file {}",
                    self.files.get(file).map(String::as_str).unwrap_or("?")
                );
            }
            let addr = match (l.addr, l.value) {
                (_, Some(v)) => format!("={:04X}", v as u16),
                (Some(a), None) if l.assembled => format!("{} ", paged_addr(l.page, a)),
                _ => "     ".to_string(),
            };
            let first: Vec<String> = l.bytes.iter().take(4).map(|b| format!("{b:02X}")).collect();
            let t = l.timing.map(|t| format!("[{t}]")).unwrap_or_default();
            let mark = if l.assembled { ' ' } else { '~' };
            let _ = writeln!(
                out,
                "{addr:5}  {:<12} {t:<9} {:>5}{mark} {}",
                first.join(" "),
                l.line,
                l.text
            );
            let mut a = l.addr.unwrap_or(0).wrapping_add(4);
            const MORE: usize = 16;
            if l.bytes.len() > 4 * (MORE + 1) {
                let _ = writeln!(
                    out,
                    "{}   ... ({} bytes in all)",
                    paged_addr(l.page, a),
                    l.bytes.len()
                );
                continue;
            }
            for chunk in l.bytes.chunks(4).skip(1) {
                let more: Vec<String> = chunk.iter().map(|b| format!("{b:02X}")).collect();
                let _ = writeln!(out, "{}   {}", paged_addr(l.page, a), more.join(" "));
                a = a.wrapping_add(4);
            }
        }
        out
    }

    /// The source map as text (see the module documentation).
    pub fn source_map_text(&self) -> String {
        let mut out = String::from(
            "; z80chess source map: ADDR FILE:LINE (one line per instruction or data statement)\n",
        );
        for e in &self.source_map {
            let _ = writeln!(
                out,
                "{} {}:{}",
                paged_addr(e.page, e.addr),
                self.files.get(e.file).map(String::as_str).unwrap_or("?"),
                e.line
            );
        }
        out
    }
}

/// Read a source map written by [`Assembly::source_map_text`]: (address, file, line) of the
/// base image (entries in expansion pages are left out: see [`parse_source_map_paged`]).
pub fn parse_source_map(text: &str) -> Result<Vec<(u16, String, u32)>, String> {
    Ok(parse_source_map_paged(text)?
        .into_iter()
        .filter(|e| e.0.is_none())
        .map(|(_, a, f, l)| (a, f, l))
        .collect())
}

/// Read an address written as `8123` or `1:8123` (hex; the page 0..255 in decimal).
pub fn parse_paged_addr(s: &str) -> Option<(Option<u8>, u16)> {
    match s.split_once(':') {
        Some((p, a)) => Some((Some(p.parse().ok()?), u16::from_str_radix(a, 16).ok()?)),
        None => Some((None, u16::from_str_radix(s, 16).ok()?)),
    }
}

/// One source map entry: (page, address, file, line); page None = the base image.
pub type PagedMapEntry = (Option<u8>, u16, String, u32);

/// Read a source map written by [`Assembly::source_map_text`]: (page, address, file, line).
pub fn parse_source_map_paged(text: &str) -> Result<Vec<PagedMapEntry>, String> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        let bad = || {
            format!(
                "source map line {}: expected 'ADDR FILE:LINE', got '{line}'",
                k + 1
            )
        };
        let (addr, rest) = line.split_once(' ').ok_or_else(bad)?;
        let (file, ln) = rest.rsplit_once(':').ok_or_else(bad)?;
        let (page, addr) = parse_paged_addr(addr).ok_or_else(bad)?;
        let ln = ln.parse::<u32>().map_err(|_| bad())?;
        out.push((page, addr, file.to_string(), ln));
    }
    Ok(out)
}

/// Parse `NAME=VALUE` (VALUE: any number syntax the assembler accepts, or a constant
/// expression) or `NAME` (= 1).
pub fn parse_define(s: &str) -> Result<(String, i64), AsmError> {
    let bad = || AsmError {
        file: "-D".into(),
        line: 0,
        col: 0,
        kind: ErrorKind::BadDefine(s.to_string()),
    };
    let (name, value) = match s.split_once('=') {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (s.trim(), None),
    };
    let ok_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !parse::is_reserved(name);
    if !ok_name {
        return Err(bad());
    }
    let v = match value {
        None => 1,
        Some(v) => {
            let toks = lexer::lex(v).map_err(|_| bad())?;
            let e = expr::parse_expr(&toks, v).map_err(|_| bad())?;
            struct NoSyms;
            impl expr::Env for NoSyms {
                fn symbol(&mut self, _: &str) -> Option<i64> {
                    None
                }
                fn here(&self) -> i64 {
                    0
                }
            }
            e.eval(&mut NoSyms, v).map_err(|_| bad())?
        }
    };
    Ok((name.to_string(), v))
}

/// Assemble `main` (read through `loader`) with `-D` style definitions.
pub fn assemble_with(
    main: &Path,
    defines: &[(&str, i64)],
    loader: &dyn SourceLoader,
) -> Result<Assembly, Vec<AsmError>> {
    let mut errors = Vec::new();
    let mut defs: Vec<(String, i64)> = Vec::new();
    for (name, v) in defines {
        match parse_define(name) {
            Ok((n, _)) if !name.contains('=') => {
                if defs.iter().any(|(d, _)| *d == n) {
                    errors.push(AsmError {
                        file: "-D".into(),
                        line: 0,
                        col: 0,
                        kind: ErrorKind::DuplicateSymbol {
                            name: n,
                            first: "-D on the command line".into(),
                        },
                    });
                } else {
                    defs.push((n, *v));
                }
            }
            _ => errors.push(AsmError {
                file: "-D".into(),
                line: 0,
                col: 0,
                kind: ErrorKind::BadDefine(name.to_string()),
            }),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut ctx = Ctx::new(loader, defs);
    let main_id = match ctx.source(main) {
        Ok(id) => id,
        Err(reason) => {
            let path = pass::normalize(main).to_string_lossy().into_owned();
            return Err(vec![AsmError {
                file: path.clone(),
                line: 0,
                col: 0,
                kind: ErrorKind::Include { path, reason },
            }]);
        }
    };
    let mut prev: HashMap<String, i64> = HashMap::new();
    let main_name = ctx.files[main_id].name.clone();
    // Passes that defined no more symbols than an earlier one count toward MAX_PASSES (a
    // chain of EQUs each referring to a later one gains a symbol per pass, however long).
    let (mut n, mut stalled, mut most) = (0, 0, 0);
    loop {
        n += 1;
        let mut p = Pass::new(&mut ctx, &prev);
        p.run(main_id);
        let values = p.values();
        let exact = !p.forward && !p.incomplete();
        if exact || values == prev {
            p.report_unknowns();
            let errs = p.take_errors();
            if !errs.is_empty() {
                return Err(errs);
            }
            let lo = p.written.iter().position(|&w| w);
            let hi = p.written.iter().rposition(|&w| w);
            let (image, origin, pages) = if let Some(top) = p.top_page {
                let pages = top as usize + 1;
                let mut image = p.mem[..pass::PAGE_SIZE].to_vec();
                for page in &p.page_mem[..pages] {
                    image.extend_from_slice(page);
                }
                (image, 0, pages as u8)
            } else {
                match (lo, hi) {
                    (Some(lo), Some(hi)) => (p.mem[lo..=hi].to_vec(), lo as u16, 0),
                    _ => (Vec::new(), p.first_org.unwrap_or(0), 0),
                }
            };
            let symbols = p.symbols();
            let listing = std::mem::take(&mut p.listing);
            let source_map = std::mem::take(&mut p.map);
            let refs = std::mem::take(&mut p.refs);
            drop(p);
            return Ok(Assembly {
                image,
                origin,
                symbols,
                listing,
                source_map,
                files: ctx.files.iter().map(|f| f.name.clone()).collect(),
                passes: n,
                pages,
                refs: xref::references(&ctx, refs),
            });
        }
        if values.len() > most {
            most = values.len();
        } else {
            stalled += 1;
        }
        if stalled == MAX_PASSES {
            // Name a symbol that is still moving, at its definition.
            let mut moving: Vec<&String> = values
                .iter()
                .filter(|(k, v)| prev.get(*k) != Some(v) && !k.contains('\0'))
                .map(|(k, _)| k)
                .collect();
            moving.sort();
            let name = moving.first().map(|s| s.to_string()).unwrap_or_default();
            let (file, line) = p
                .definition(&name)
                .unwrap_or_else(|| (main_name.clone(), 0));
            let kind = ErrorKind::NotConverged {
                passes: MAX_PASSES,
                name,
            };
            return Err(vec![AsmError {
                file,
                line,
                col: 1,
                kind,
            }]);
        }
        drop(p);
        prev = values;
    }
}

/// Assemble a file from the file system. `defines` are `(NAME, value)` pairs, like `-D`.
pub fn assemble_file(path: &Path, defines: &[(&str, i64)]) -> Result<Assembly, Vec<AsmError>> {
    assemble_with(path, defines, &FsLoader)
}

/// Assemble source text; `name` is its file name in messages, and INCLUDEs resolve relative
/// to its directory on the file system.
pub fn assemble_str(
    source: &str,
    name: &str,
    defines: &[(&str, i64)],
) -> Result<Assembly, Vec<AsmError>> {
    struct Str<'a> {
        name: PathBuf,
        source: &'a str,
    }
    impl SourceLoader for Str<'_> {
        fn load(&self, path: &Path) -> std::io::Result<Vec<u8>> {
            if path == self.name {
                Ok(self.source.as_bytes().to_vec())
            } else {
                FsLoader.load(path)
            }
        }
    }
    let name = pass::normalize(Path::new(name));
    assemble_with(
        &name,
        defines,
        &Str {
            name: name.clone(),
            source,
        },
    )
}

/// The files `z80chess asm` writes beside the image (None: not wanted).
#[derive(Clone, Copy, Debug, Default)]
pub struct Outputs<'a> {
    /// Symbol file ([`Assembly::symbol_file`]).
    pub sym: Option<&'a Path>,
    /// Listing ([`Assembly::listing_text`]).
    pub lst: Option<&'a Path>,
    /// Source map ([`Assembly::source_map_text`]).
    pub map: Option<&'a Path>,
    /// Cross-reference ([`Assembly::xref`], [`Xref::text`]).
    pub xref: Option<&'a Path>,
    /// Replace files already there (otherwise an existing output is refused).
    pub force: bool,
}

/// Write the image and the files beside it, all or none, after checking that none names a
/// source file or another output.
fn write_outputs(a: &Assembly, output: &Path, outputs: &Outputs) -> Result<(), String> {
    let sym = outputs.sym.map(|p| (p, "--sym", a.symbol_file()));
    let lst = outputs.lst.map(|p| (p, "--lst", a.listing_text()));
    let map = outputs.map.map(|p| (p, "--map", a.source_map_text()));
    let xref = outputs.xref.map(|p| (p, "--xref", a.xref().text()));
    let texts: Vec<(&Path, &str, String)> = [sym, lst, map, xref].into_iter().flatten().collect();
    let mut files: Vec<(&Path, &str, &[u8])> = vec![(output, "-o", &a.image)];
    files.extend(texts.iter().map(|(p, r, t)| (*p, *r, t.as_bytes())));
    let roles: Vec<crate::outfile::Role> = files.iter().map(|(p, r, _)| (*p, *r)).collect();
    let sources: Vec<(&Path, String)> = a
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let role = if i == 0 {
                "the source".to_string()
            } else {
                format!("a file the source includes ({f})")
            };
            (Path::new(f.as_str()), role)
        })
        .collect();
    let inputs: Vec<crate::outfile::Role> = sources.iter().map(|(p, r)| (*p, r.as_str())).collect();
    crate::outfile::distinct(&roles, &inputs).map_err(|e| e.to_string())?;
    let contents: Vec<(&Path, &[u8])> = files.iter().map(|(p, _, b)| (*p, *b)).collect();
    crate::outfile::write_all(&contents, crate::outfile::Replace::force(outputs.force))
        .map_err(|e| e.to_string())
}

/// `z80chess asm`: assemble `source`, writing nothing unless every pass succeeds.
pub fn cli(
    source: &Path,
    output: &Path,
    outputs: Outputs,
    define: &[String],
) -> Result<(), String> {
    let mut defs = Vec::new();
    let mut errors = Vec::new();
    for d in define {
        match parse_define(d) {
            Ok(nv) => defs.push(nv),
            Err(e) => errors.push(e),
        }
    }
    let result = if errors.is_empty() {
        let pairs: Vec<(&str, i64)> = defs.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        assemble_file(source, &pairs)
    } else {
        Err(errors)
    };
    let a = match result {
        Ok(a) => a,
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            let n = errors.len();
            return Err(format!(
                "{n} error{}; nothing written",
                if n == 1 { "" } else { "s" }
            ));
        }
    };
    write_outputs(&a, output, &outputs)?;
    match a.range() {
        Some((lo, hi)) => println!(
            "{}: 0x{lo:04X}..0x{hi:04X} ({} bytes, {} symbols, {} passes)",
            output.display(),
            a.image.len(),
            a.symbols.len(),
            a.passes
        ),
        None => println!("{}: empty image", output.display()),
    }
    Ok(())
}
