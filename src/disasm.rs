//! The disassembler: a binary image back to Zilog-syntax source, driven by `z80::isa`.
//!
//! Two renderings of the same decoding:
//! - [`disassemble`]: a listing, one line per instruction: address, bytes, source, and the
//!   T-states as a comment (`12/7` for conditionals and block repeats).
//! - [`disassemble_source`]: plain source (`ORG`, label and `EQU` lines, instructions) that the
//!   assembler turns back into the identical bytes.
//!
//! Numbers are written `0x12` / `0x1234`. Encodings that are not the canonical one for their
//! text (ED 4C "NEG", a DD prefix that changes nothing, invalid ED opcodes, bytes cut off by the
//! end of the image) are written as `DB` with a comment saying what they do.
//!
//! Symbol files are `NAME: EQU 0xNNNN` lines (sjasmplus style; `NAME EQU value`, other number
//! syntaxes, blank lines and `;` comments are accepted too). A symbol's name replaces 16-bit
//! immediates and JR/DJNZ targets equal to its value, and labels the instruction at that address.
//!
//! Banked images (the `full` build: base 16 KiB, then expansion ROM pages of 16 KiB seen at
//! 8000h-BFFFh, see `crate::machine`): a label of a page is written `NAME: EQU P:NNNN` (page in
//! decimal, hex address). [`disassemble_page`] lists one page with its own labels first and
//! names its addresses `P:NNNN`; base symbols name everything else, as in any image.

use crate::z80::isa::{self, Decoded, Operand};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// Names for addresses and values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Symbols {
    /// In definition order: (name, value).
    list: Vec<(String, u16)>,
    /// The expansion page of each entry of `list` (None: base).
    pages: Vec<Option<u8>>,
    /// value -> indexes into `list` of base symbols, in definition order.
    by_value: BTreeMap<u16, Vec<usize>>,
    /// (page, value) -> indexes into `list` of page labels, in definition order.
    by_page: BTreeMap<(u8, u16), Vec<usize>>,
}

/// Names the assembler reads as registers or conditions: never substituted for numbers.
const RESERVED: [&str; 27] = [
    "A", "B", "C", "D", "E", "H", "L", "I", "R", "F", "AF", "AF'", "BC", "DE", "HL", "SP", "IX",
    "IY", "IXH", "IXL", "IYH", "IYL", "NZ", "Z", "NC", "PO", "PE",
];

fn is_reserved(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    RESERVED.contains(&up.as_str()) || up == "P" || up == "M"
}

fn parse_number(s: &str) -> Option<i64> {
    let t = s.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(h) = lower.strip_prefix('$') {
        (h.to_string(), 16)
    } else if let Some(h) = lower.strip_prefix('#') {
        (h.to_string(), 16)
    } else if let Some(h) = lower.strip_suffix('h') {
        (h.to_string(), 16)
    } else if let Some(b) = lower.strip_prefix("0b").or_else(|| lower.strip_prefix('%')) {
        (b.to_string(), 2)
    } else {
        (lower.clone(), 10)
    };
    if digits.is_empty() || !digits.starts_with(|c: char| c.is_ascii_hexdigit()) {
        return None;
    }
    let v = i64::from_str_radix(&digits, radix).ok()?;
    Some(if neg { -v } else { v })
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

impl Symbols {
    pub fn new() -> Symbols {
        Symbols::default()
    }

    /// Add `name` = `value` (a later name for the same value does not replace an earlier one).
    pub fn insert(&mut self, name: &str, value: u16) {
        self.insert_in(None, name, value)
    }

    /// Add `name` = `value` in expansion page `page` (None: base).
    pub fn insert_in(&mut self, page: Option<u8>, name: &str, value: u16) {
        let k = self.list.len();
        match page {
            None => self.by_value.entry(value).or_default().push(k),
            Some(p) => self.by_page.entry((p, value)).or_default().push(k),
        }
        self.list.push((name.to_string(), value));
        self.pages.push(page);
    }

    /// Parse a symbol file's text; `file` names it in error messages (`file:line: ...`).
    pub fn parse(text: &str, file: &str) -> Result<Symbols, String> {
        let mut syms = Symbols::new();
        for (i, raw) in text.lines().enumerate() {
            let at = || format!("{file}:{}", i + 1);
            let line = raw.split(';').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or("");
            let (name, rest): (&str, Vec<&str>) = if let Some(n) = first.strip_suffix(':') {
                (n, words.collect())
            } else if let Some((n, r)) = first.split_once(':') {
                (n, std::iter::once(r).chain(words).collect())
            } else {
                (first, words.collect())
            };
            if !valid_name(name) {
                return Err(format!("{}: '{name}' is not a symbol name", at()));
            }
            let (kw, value) = match rest.split_first() {
                Some((kw, v)) if kw.eq_ignore_ascii_case("EQU") || *kw == "=" => (kw, v.join(" ")),
                _ => {
                    return Err(format!(
                        "{}: expected 'NAME: EQU value', found '{line}'",
                        at()
                    ))
                }
            };
            let _ = kw;
            if let Some((page, addr)) = value.split_once(':') {
                let bad = || format!("{}: '{value}' is not PAGE:ADDRESS (e.g. 1:8123)", at());
                let page: u8 = page.trim().parse().map_err(|_| bad())?;
                let addr = u16::from_str_radix(addr.trim(), 16).map_err(|_| bad())?;
                syms.insert_in(Some(page), name, addr);
                continue;
            }
            let v = parse_number(&value)
                .ok_or_else(|| format!("{}: '{value}' is not a number", at()))?;
            if !(-0x8000..=0xFFFF).contains(&v) {
                return Err(format!("{}: {value} does not fit in 16 bits", at()));
            }
            syms.insert(name, v as u16);
        }
        Ok(syms)
    }

    /// Read and parse a symbol file.
    pub fn load(path: &Path) -> Result<Symbols, String> {
        let text = crate::userfile::read_text(path, crate::userfile::MAX_FILE)
            .map_err(|e| format!("{}: {}", path.display(), e.reason()))?;
        Symbols::parse(&text, &path.display().to_string())
    }

    /// The first name defined for `value` that can stand for a number.
    pub fn name_of(&self, value: u16) -> Option<&str> {
        self.by_value
            .get(&value)?
            .iter()
            .map(|&i| self.list[i].0.as_str())
            .find(|n| !is_reserved(n))
    }

    /// All names for `value`, in definition order.
    pub fn names_of(&self, value: u16) -> impl Iterator<Item = &str> {
        self.by_value
            .get(&value)
            .into_iter()
            .flatten()
            .map(|&i| self.list[i].0.as_str())
    }

    /// Value of `name` (for a page label: its address in the window).
    pub fn value_of(&self, name: &str) -> Option<u16> {
        self.list.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    /// The expansion page of `name` (None: a base symbol, or no such symbol).
    pub fn page_of(&self, name: &str) -> Option<u8> {
        let k = self.list.iter().position(|(n, _)| n == name)?;
        self.pages[k]
    }

    /// Page and value of `name`.
    pub fn lookup(&self, name: &str) -> Option<(Option<u8>, u16)> {
        let k = self.list.iter().position(|(n, _)| n == name)?;
        Some((self.pages[k], self.list[k].1))
    }

    /// All names for `value` as code in `page` sees it: the page's labels first (when `page`
    /// is given), then the base symbols.
    pub fn names_in(&self, page: Option<u8>, value: u16) -> impl Iterator<Item = &str> {
        page.and_then(|p| self.by_page.get(&(p, value)))
            .into_iter()
            .flatten()
            .chain(self.by_value.get(&value).into_iter().flatten())
            .map(|&i| self.list[i].0.as_str())
    }

    /// The first of [`Symbols::names_in`] that can stand for a number.
    pub fn name_in(&self, page: Option<u8>, value: u16) -> Option<&str> {
        self.names_in(page, value).find(|n| !is_reserved(n))
    }

    /// The labels of `page`: (address, name), by address.
    pub fn page_labels(&self, page: u8) -> impl Iterator<Item = (u16, &str)> {
        self.by_page
            .range((page, 0)..=(page, 0xFFFF))
            .flat_map(move |(&(_, v), ks)| ks.iter().map(move |&k| (v, self.list[k].0.as_str())))
    }

    /// Does any symbol name a page?
    pub fn has_pages(&self) -> bool {
        !self.by_page.is_empty()
    }

    /// Every symbol in definition order: (name, page, value).
    pub fn entries(&self) -> impl Iterator<Item = (&str, Option<u8>, u16)> {
        self.list
            .iter()
            .zip(&self.pages)
            .map(|((n, v), &p)| (n.as_str(), p, *v))
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// One decoded line: the instruction and its re-assemblable source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub addr: u16,
    pub bytes: Vec<u8>,
    /// Source: the instruction (labels and numbers substituted) or `DB ...`.
    pub source: String,
    /// What a DB line does (empty for ordinary instructions).
    pub comment: String,
    /// T-states, e.g. `12/7`; empty when the bytes were cut off by the end of the image.
    pub tstates: String,
    /// Symbols used in the source text.
    pub uses: Vec<String>,
}

fn db(bytes: &[u8]) -> String {
    let mut s = String::from("DB ");
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "0x{b:02X}");
    }
    s
}

/// Decode the whole image into lines. Bytes past address 0xFFFF are not decoded.
pub fn lines(image: &[u8], org: u16, symbols: &Symbols) -> Vec<Line> {
    lines_in(image, org, symbols, None)
}

/// [`lines`] for code that runs in expansion page `page` (its labels name numbers first).
pub fn lines_in(image: &[u8], org: u16, symbols: &Symbols, page: Option<u8>) -> Vec<Line> {
    let end = image.len().min(0x10000 - org as usize);
    let image = &image[..end];
    let mut out = Vec::new();
    let mut off = 0usize;
    while off < image.len() {
        let addr = org.wrapping_add(off as u16);
        let d: Decoded = isa::decode_slice(&image[off..], addr);
        let len = d.len as usize;
        if off + len > image.len() {
            let bytes = image[off..].to_vec();
            out.push(Line {
                addr,
                source: db(&bytes),
                bytes,
                comment: format!(
                    "incomplete instruction at the end of the image: {}",
                    d.template
                ),
                tstates: String::new(),
                uses: Vec::new(),
            });
            break;
        }
        let uses = std::cell::RefCell::new(Vec::new());
        let fmt = |op: Operand| -> String {
            if let Operand::NN(v) | Operand::Target(v) = op {
                if let Some(name) = symbols.name_in(page, v) {
                    uses.borrow_mut().push(name.to_string());
                    return name.to_string();
                }
            }
            isa::default_operand(op)
        };
        let bytes = d.bytes().to_vec();
        let (source, comment) = if d.canonical {
            (d.render(&fmt), String::new())
        } else {
            let what = d.text();
            let note = d.note.map(|n| format!(" ({n})")).unwrap_or_default();
            (db(&bytes), format!("{what}{note}"))
        };
        out.push(Line {
            addr,
            bytes,
            source,
            comment,
            tstates: d.timing.to_string(),
            uses: uses.into_inner(),
        });
        off += len;
    }
    out
}

/// The listing: address, bytes, source, `; T-states` (and what a DB line does), one line per
/// instruction, with a `NAME:` line before each instruction a symbol names.
pub fn disassemble(image: &[u8], org: u16, symbols: &Symbols) -> String {
    listing(image, org, symbols, None)
}

/// The listing of expansion page `page` of a banked image (base 16 KiB, then 16 KiB pages):
/// decoded at 8000h, addresses written `page:addr`, the page's labels before the base's.
pub fn disassemble_page(banked: &[u8], page: u8, symbols: &Symbols) -> Result<String, String> {
    let at = PAGE_SIZE * (1 + page as usize);
    let Some(bytes) = banked.get(at..).filter(|b| !b.is_empty()) else {
        return Err(format!(
            "page {page} is not in the image ({} bytes: the base and {} page(s))",
            banked.len(),
            banked.len().saturating_sub(PAGE_SIZE).div_ceil(PAGE_SIZE)
        ));
    };
    let bytes = &bytes[..bytes.len().min(PAGE_SIZE)];
    Ok(listing(bytes, 0x8000, symbols, Some(page)))
}

/// Size of the base ROM and of an expansion page in a banked image.
const PAGE_SIZE: usize = 0x4000;

fn listing(image: &[u8], org: u16, symbols: &Symbols, page: Option<u8>) -> String {
    let mut s = String::new();
    for line in lines_in(image, org, symbols, page) {
        for name in symbols.names_in(page, line.addr) {
            let _ = writeln!(s, "{:18}{name}:", "");
        }
        let hex: Vec<String> = line.bytes.iter().map(|b| format!("{b:02X}")).collect();
        let addr = match page {
            Some(p) => format!("{p}:{:04X}", line.addr),
            None => format!("{:04X}", line.addr),
        };
        let mut text = format!("{addr}  {:<12}    {:<24}", hex.join(" "), line.source);
        let mut comment = line.tstates.clone();
        if !line.comment.is_empty() {
            if !comment.is_empty() {
                comment.push_str("  ");
            }
            comment.push_str(&line.comment);
        }
        if !comment.is_empty() {
            let _ = write!(text, " ; {comment}");
        }
        s.push_str(text.trim_end());
        s.push('\n');
    }
    s
}

/// Plain source for re-assembly: `ORG`, `EQU` lines for symbols used but not defined by a
/// label in the image, then labels and instructions (DB lines keep their explanation comment).
/// Assembling it reproduces `image` byte for byte.
pub fn disassemble_source(image: &[u8], org: u16, symbols: &Symbols) -> String {
    let lines = lines(image, org, symbols);
    let starts: HashSet<u16> = lines.iter().map(|l| l.addr).collect();
    let labelled = |name: &str| symbols.value_of(name).is_some_and(|v| starts.contains(&v));
    let mut s = String::new();
    let mut defined = HashSet::new();
    for line in &lines {
        for name in &line.uses {
            if !labelled(name) && defined.insert(name.clone()) {
                let _ = writeln!(
                    s,
                    "{name}: EQU 0x{:04X}",
                    symbols.value_of(name).unwrap_or(0)
                );
            }
        }
    }
    let _ = writeln!(s, "\tORG 0x{org:04X}");
    for line in &lines {
        for name in symbols.names_of(line.addr) {
            if valid_name(name) && !is_reserved(name) && defined.insert(name.to_string()) {
                let _ = writeln!(s, "{name}:");
            }
        }
        if line.comment.is_empty() {
            let _ = writeln!(s, "\t{}", line.source);
        } else {
            let _ = writeln!(s, "\t{} ; {}", line.source, line.comment);
        }
    }
    s
}

/// `z80chess disasm IMAGE [--org ADDR] [--sym FILE] [--page N]`: print the listing (with a
/// page: that page of a banked image, at 8000h).
pub fn cli(image: &Path, org: u16, sym: Option<&Path>, page: Option<u8>) -> Result<(), String> {
    let bytes = crate::userfile::read(image, crate::userfile::MAX_FILE)
        .map_err(|e| format!("{}: {}", image.display(), e.reason()))?;
    if page.is_none() && bytes.len() > 0x10000 - org as usize {
        return Err(format!(
            "{}: {} bytes at 0x{org:04X} run past 0xFFFF",
            image.display(),
            bytes.len()
        ));
    }
    let symbols = match sym {
        Some(p) => Symbols::load(p)?,
        None => Symbols::new(),
    };
    use std::io::Write;
    let text = match page {
        Some(p) => disassemble_page(&bytes, p, &symbols)?,
        None => disassemble(&bytes, org, &symbols),
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // `z80chess disasm x.bin | head` is not an error
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("writing the listing: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_file() {
        let s = Symbols::parse(
            "START: EQU 0x0100\n; c\n\nLOOP EQU 0105h\nX: equ $10 ; x\n",
            "f.sym",
        )
        .unwrap();
        assert_eq!(s.value_of("LOOP"), Some(0x105));
        assert_eq!(s.name_of(0x10), Some("X"));
        let e = Symbols::parse("A: EQU 1\nB EQU zz\n", "f.sym").unwrap_err();
        assert!(e.starts_with("f.sym:2:"), "{e}");
        let e = Symbols::parse("START 0x100\n", "f.sym").unwrap_err();
        assert!(e.starts_with("f.sym:1:"), "{e}");
        let e = Symbols::parse("1X: EQU 1\n", "g").unwrap_err();
        assert!(e.starts_with("g:1:"), "{e}");
    }

    #[test]
    fn listing_and_source() {
        let mut syms = Symbols::new();
        syms.insert("START", 0x100);
        syms.insert("DATA", 0x1234);
        let img = [0x21, 0x34, 0x12, 0x18, 0xFB, 0xDD, 0x00, 0x20, 0xFE, 0xED];
        let l = disassemble(&img, 0x100, &syms);
        let want = "                  START:\n\
                    0100  21 34 12        LD HL,DATA               ; 10\n\
                    0103  18 FB           JR START                 ; 12\n\
                    0105  DD 00           DB 0xDD,0x00             ; 8  NOP (DDh prefix ignored: NOP with 4 more T-states)\n\
                    0107  20 FE           JR NZ,0x0107             ; 12/7\n\
                    0109  ED              DB 0xED                  ; incomplete instruction at the end of the image: NOP\n";
        assert_eq!(l, want);
        let s = disassemble_source(&img, 0x100, &syms);
        assert_eq!(
            s,
            "DATA: EQU 0x1234\n\tORG 0x0100\nSTART:\n\tLD HL,DATA\n\tJR START\n\
             \tDB 0xDD,0x00 ; NOP (DDh prefix ignored: NOP with 4 more T-states)\n\tJR NZ,0x0107\n\
             \tDB 0xED ; incomplete instruction at the end of the image: NOP\n"
        );
    }

    #[test]
    fn cli_errors() {
        let e = cli(Path::new("/nonexistent/x.bin"), 0, None, None).unwrap_err();
        assert!(e.contains("/nonexistent/x.bin"), "{e}");
        let dir = std::env::temp_dir().join(format!("z80chess-disasm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let img = dir.join("a.bin");
        std::fs::write(&img, [0u8; 16]).unwrap();
        let e = cli(&img, 0xFFF8, None, None).unwrap_err();
        assert!(e.contains("run past"), "{e}");
        let e = cli(&img, 0, Some(&dir.join("missing.sym")), None).unwrap_err();
        assert!(e.contains("missing.sym"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
