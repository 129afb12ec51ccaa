//! The passes: run the whole source with the symbol values of the previous pass until nothing
//! changes, then report the errors of that last pass.
//!
//! A symbol referenced before its definition takes its value from the previous pass; a symbol
//! with no value yet is *unknown*, which is never silently 0: the pass is marked incomplete,
//! and in the final pass every unknown is an error (undefined, or circular). A pass is final
//! when it used no previous-pass value and met no unknown, or when it ended with exactly the
//! symbol values it started with (so every forward reference got its final value).

use super::encode::{Encoder, Pat, Slot};

mod instr;
use super::error::{AsmError, ErrorKind, LineError};
use super::expr::{Env, EvalError};
use super::parse::{parse_line, CondKind, Ex, Item, Line, OperandKind, Stmt};
use super::{ListingLine, MapEntry, SourceLoader, Symbol, SymbolKind};
use crate::z80::isa::{Part, Timing};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// Give up when symbol values still change after this many passes that defined no new symbol.
pub const MAX_PASSES: usize = 30;
/// Deepest include nesting.
const MAX_INCLUDE_DEPTH: usize = 64;

pub struct SourceFile {
    pub path: PathBuf,
    pub name: String,
    pub lines: Vec<String>,
    pub parsed: Vec<Line>,
}

/// Lexically normalize a path: drop `.`, fold `dir/..`.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

pub struct Ctx<'l> {
    pub loader: &'l dyn SourceLoader,
    pub files: Vec<Rc<SourceFile>>,
    by_path: HashMap<PathBuf, Result<usize, String>>,
    bins: HashMap<PathBuf, Result<Rc<Vec<u8>>, String>>,
    pub defines: Vec<(String, i64)>,
    pub enc: &'static Encoder,
}

impl<'l> Ctx<'l> {
    pub fn new(loader: &'l dyn SourceLoader, defines: Vec<(String, i64)>) -> Self {
        Ctx {
            loader,
            files: Vec::new(),
            by_path: HashMap::new(),
            bins: HashMap::new(),
            defines,
            enc: Encoder::global(),
        }
    }

    /// Load and parse a source file (once).
    pub fn source(&mut self, path: &Path) -> Result<usize, String> {
        let path = normalize(path);
        if let Some(r) = self.by_path.get(&path) {
            return r.clone();
        }
        let r = self
            .loader
            .load(&path)
            .map_err(|e| e.to_string())
            .map(|bytes| {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<String> = text
                    .split('\n')
                    .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
                    .collect();
                if text.ends_with('\n') {
                    lines.pop();
                }
                let enc = self.enc;
                let parsed = lines
                    .iter()
                    .map(|l| parse_line(l, &|w| enc.is_mnemonic(w)))
                    .collect();
                let name = path.to_string_lossy().into_owned();
                self.files.push(Rc::new(SourceFile {
                    path: path.clone(),
                    name,
                    lines,
                    parsed,
                }));
                self.files.len() - 1
            });
        self.by_path.insert(path, r.clone());
        r
    }

    fn binary(&mut self, path: &Path) -> Result<Rc<Vec<u8>>, String> {
        let path = normalize(path);
        if let Some(r) = self.bins.get(&path) {
            return r.clone();
        }
        let r = self
            .loader
            .load(&path)
            .map(Rc::new)
            .map_err(|e| e.to_string());
        self.bins.insert(path, r.clone());
        r
    }
}

struct Cond {
    /// Was the enclosing block active?
    parent: bool,
    /// Has a branch been taken?
    taken: bool,
    active: bool,
    seen_else: bool,
    line: u32,
}

/// A reference to a symbol that had no value.
struct Unknown {
    seq: usize,
    file: usize,
    line: u32,
    col: u32,
    name: String,
    /// The EQU being defined, if the reference is in one.
    defining: Option<String>,
}

pub struct Pass<'c, 'l> {
    ctx: &'c mut Ctx<'l>,
    prev: &'c HashMap<String, i64>,
    pub syms: HashMap<String, Symbol>,
    pc: i64,
    scope: String,
    /// Errors with the listing index of the line being processed (to keep source order).
    errors: Vec<(usize, AsmError)>,
    /// A previous-pass value was used.
    pub forward: bool,
    unknowns: Vec<Unknown>,
    unresolved: HashSet<String>,
    pub mem: Vec<u8>,
    pub written: Vec<bool>,
    pub listing: Vec<ListingLine>,
    pub map: Vec<MapEntry>,
    include_stack: Vec<usize>,
    ended: bool,
    pub first_org: Option<u16>,
    /// Where the current line is (for diagnostics).
    here_file: usize,
    here_line: u32,
    /// The EQU being defined on the current line.
    defining: Option<String>,
    /// The expansion page being assembled (`PAGE n` .. `ENDPAGE`); None: the base image.
    page: Option<u8>,
    /// The address counters of the segments not current: the base, then pages 0..7.
    seg_pc: [i64; 1 + MAX_PAGES],
    /// The pages' bytes and which of them were written (`PAGE_SIZE` each; index = page).
    pub page_mem: Vec<Vec<u8>>,
    pub page_written: Vec<Vec<bool>>,
    /// The highest page a PAGE directive entered: Some makes the image a paged one.
    pub top_page: Option<u8>,
    /// The first base statement with bytes outside 0000h-3FFFh (an error in a paged image):
    /// (listing index, file, line, address, text).
    base_outside: Option<(usize, usize, u32, i64, String)>,
}

/// Pages an image may have (the machine takes eight: `crate::machine::MAX_PAGES`).
pub const MAX_PAGES: usize = 8;
/// Size of a page and of the base ROM of a paged image.
pub const PAGE_SIZE: usize = 0x4000;
/// The window a page is assembled for.
pub const WINDOW: std::ops::Range<i64> = 0x8000..0xC000;

/// Evaluation environment over a pass.
struct Look<'a, 'c, 'l> {
    pass: &'a mut Pass<'c, 'l>,
    here: i64,
}

impl Env for Look<'_, '_, '_> {
    fn symbol(&mut self, name: &str) -> Option<i64> {
        let full = self.pass.qualify(name);
        if let Some(s) = self.pass.syms.get(&full) {
            return Some(s.value);
        }
        if let Some(v) = self.pass.prev.get(&full) {
            self.pass.forward = true;
            return Some(*v);
        }
        None
    }
    fn here(&self) -> i64 {
        self.here
    }
    fn page_of(&mut self, name: &str) -> Option<Option<u8>> {
        let full = self.pass.qualify(name);
        if let Some(s) = self.pass.syms.get(&full) {
            return Some(s.page);
        }
        // A forward reference: the page the previous pass gave it (see `Pass::values`).
        let prev = self.pass.prev.get(&page_key(&full)).copied();
        if self.pass.prev.contains_key(&full) {
            self.pass.forward = true;
            return Some(prev.map(|p| p as u8));
        }
        None
    }
}

/// The key under which [`Pass::values`] keeps a label's page, so that `PAGEOF` of a forward
/// reference converges like its value (a NUL never appears in a symbol name).
fn page_key(name: &str) -> String {
    format!("{name}\0page")
}

fn range_ok(v: i64, lo: i64, hi: i64) -> bool {
    (lo..=hi).contains(&v)
}

impl<'c, 'l> Pass<'c, 'l> {
    pub fn new(ctx: &'c mut Ctx<'l>, prev: &'c HashMap<String, i64>) -> Self {
        let mut syms = HashMap::new();
        for (name, v) in &ctx.defines {
            syms.insert(
                name.clone(),
                Symbol {
                    value: *v,
                    kind: SymbolKind::Define,
                    file: None,
                    line: 0,
                    page: None,
                },
            );
        }
        Pass {
            ctx,
            prev,
            syms,
            pc: 0,
            scope: String::new(),
            errors: Vec::new(),
            forward: false,
            unknowns: Vec::new(),
            unresolved: HashSet::new(),
            mem: vec![0; 0x10000],
            written: vec![false; 0x10000],
            listing: Vec::new(),
            map: Vec::new(),
            include_stack: Vec::new(),
            ended: false,
            first_org: None,
            here_file: 0,
            here_line: 0,
            defining: None,
            page: None,
            seg_pc: {
                let mut pc = [WINDOW.start; 1 + MAX_PAGES];
                pc[0] = 0;
                pc
            },
            page_mem: vec![vec![0; PAGE_SIZE]; MAX_PAGES],
            page_written: vec![vec![false; PAGE_SIZE]; MAX_PAGES],
            top_page: None,
            base_outside: None,
        }
    }

    /// Make `to` the segment output goes to, keeping the address counter of the one left.
    fn switch_segment(&mut self, to: Option<u8>) {
        let slot = |p: Option<u8>| p.map_or(0, |p| p as usize + 1);
        self.seg_pc[slot(self.page)] = self.pc;
        self.page = to;
        self.pc = self.seg_pc[slot(to)];
    }

    /// Did anything lack a value?
    pub fn incomplete(&self) -> bool {
        !self.unknowns.is_empty()
    }

    pub fn values(&self) -> HashMap<String, i64> {
        let mut v: HashMap<String, i64> = self
            .syms
            .iter()
            .map(|(k, s)| (k.clone(), s.value))
            .collect();
        for (k, s) in &self.syms {
            if let Some(p) = s.page {
                v.insert(page_key(k), p as i64);
            }
        }
        v
    }

    fn qualify(&self, name: &str) -> String {
        if name.starts_with('.') {
            format!("{}{}", self.scope, name)
        } else {
            name.to_string()
        }
    }

    fn err(&mut self, col: u32, kind: ErrorKind) {
        let f = &self.ctx.files[self.here_file];
        // A whole-line error points at the line's first non-blank character.
        let col = match (col, f.lines.get((self.here_line as usize).wrapping_sub(1))) {
            (0, Some(text)) => text
                .chars()
                .position(|c| !c.is_whitespace())
                .map_or(1, |k| k as u32 + 1),
            _ => col,
        };
        let file = f.name.clone();
        let seq = self.listing.len().saturating_sub(1);
        self.errors.push((
            seq,
            AsmError {
                file,
                line: self.here_line,
                col,
                kind,
            },
        ));
    }

    fn line_err(&mut self, e: &LineError) {
        self.err(e.col, e.kind.clone());
    }

    /// Evaluate; None (with the reason recorded) if there is no value.
    fn value(&mut self, ex: &Ex) -> Option<i64> {
        let here = self.pc;
        let r = ex.expr.eval(&mut Look { pass: self, here }, &ex.text);
        match r {
            Ok(v) => Some(v),
            Err(EvalError::Unknown { name, col }) => {
                let full = self.qualify(&name);
                self.unknowns.push(Unknown {
                    seq: self.listing.len().saturating_sub(1),
                    file: self.here_file,
                    line: self.here_line,
                    col,
                    name: full,
                    defining: self.defining.clone(),
                });
                None
            }
            Err(EvalError::Error(kind)) => {
                self.err(ex.col, kind);
                None
            }
        }
    }

    fn define(&mut self, name: String, col: u32, value: i64, kind: SymbolKind) {
        if let Some(first) = self.syms.get(&name) {
            let first = match first.file {
                Some(f) => format!("{}:{}", self.ctx.files[f].name, first.line),
                None => "-D on the command line".to_string(),
            };
            self.err(col, ErrorKind::DuplicateSymbol { name, first });
            return;
        }
        let sym = Symbol {
            value,
            kind,
            file: Some(self.here_file),
            line: self.here_line,
            page: if kind == SymbolKind::Label {
                self.page
            } else {
                None
            },
        };
        self.syms.insert(name, sym);
    }

    /// Put bytes at the current address.
    fn emit(&mut self, bytes: &[u8], text: &str) {
        if bytes.is_empty() {
            return;
        }
        if let Some(page) = self.page {
            return self.emit_paged(page, bytes, text);
        }
        let start = self.pc;
        if start + bytes.len() as i64 > PAGE_SIZE as i64 && self.base_outside.is_none() {
            let short: String = text.trim().chars().take(60).collect();
            let seq = self.listing.len().saturating_sub(1);
            self.base_outside = Some((seq, self.here_file, self.here_line, start, short));
        }
        if !(0..=0xFFFF).contains(&start) || start + bytes.len() as i64 > 0x10000 {
            let short: String = text.trim().chars().take(60).collect();
            self.err(0, ErrorKind::AddressOverflow(short));
        }
        let mut overlap = None;
        for (k, &b) in bytes.iter().enumerate() {
            let a = start + k as i64;
            if (0..=0xFFFF).contains(&a) {
                let a = a as usize;
                if self.written[a] && overlap.is_none() {
                    overlap = Some(a as u16);
                }
                self.mem[a] = b;
                self.written[a] = true;
            }
        }
        if let Some(a) = overlap {
            self.err(0, ErrorKind::Overlap(a));
        }
        // The statement's listing line is the last one (INCLUDE, which adds lines, emits nothing).
        if let Some(entry) = self.listing.last_mut() {
            entry.bytes.extend_from_slice(bytes);
        }
        if (0..=0xFFFF).contains(&start) {
            self.map.push(MapEntry {
                addr: start as u16,
                file: self.here_file,
                line: self.here_line,
                page: None,
            });
        }
        self.pc += bytes.len() as i64;
    }

    /// Put bytes at the current address of a page: they must lie in the window.
    fn emit_paged(&mut self, page: u8, bytes: &[u8], text: &str) {
        let start = self.pc;
        if start < WINDOW.start || start + bytes.len() as i64 > WINDOW.end {
            let short: String = text.trim().chars().take(60).collect();
            self.err(
                0,
                ErrorKind::OutsideWindow {
                    page,
                    addr: start,
                    text: short,
                },
            );
        }
        let (mem, written) = (
            &mut self.page_mem[page as usize],
            &mut self.page_written[page as usize],
        );
        let mut overlap = None;
        for (k, &b) in bytes.iter().enumerate() {
            let a = start + k as i64;
            if WINDOW.contains(&a) {
                let i = (a - WINDOW.start) as usize;
                if written[i] && overlap.is_none() {
                    overlap = Some(a as u16);
                }
                mem[i] = b;
                written[i] = true;
            }
        }
        if let Some(addr) = overlap {
            self.err(0, ErrorKind::PageOverlap { page, addr });
        }
        if let Some(entry) = self.listing.last_mut() {
            entry.bytes.extend_from_slice(bytes);
        }
        if (0..=0xFFFF).contains(&start) {
            self.map.push(MapEntry {
                addr: start as u16,
                file: self.here_file,
                line: self.here_line,
                page: Some(page),
            });
        }
        self.pc += bytes.len() as i64;
    }

    /// Run the main file.
    pub fn run(&mut self, main: usize) {
        self.run_file(main);
        if self.top_page.is_some() {
            if let Some((seq, file, line, addr, text)) = self.base_outside.take() {
                (self.here_file, self.here_line) = (file, line);
                self.err(0, ErrorKind::OutsideBase { addr, text });
                if let Some(e) = self.errors.last_mut() {
                    e.0 = seq;
                }
            }
        }
    }

    fn run_file(&mut self, fid: usize) {
        let file = Rc::clone(&self.ctx.files[fid]);
        self.include_stack.push(fid);
        let mut conds: Vec<Cond> = Vec::new();
        for (li, line) in file.parsed.iter().enumerate() {
            if self.ended {
                break;
            }
            self.here_file = fid;
            self.here_line = li as u32 + 1;
            let active = conds.last().is_none_or(|c| c.active);
            let start_pc = self.pc;
            let entry = ListingLine {
                file: fid,
                line: li as u32 + 1,
                addr: None,
                bytes: Vec::new(),
                timing: None,
                value: None,
                assembled: active,
                text: file.lines[li].clone(),
                page: self.page,
            };
            let idx = self.listing.len();
            self.listing.push(entry);
            if let Some(kind) = line.stmt.cond_kind() {
                if active {
                    if let Some((_, col)) = &line.label {
                        self.err(
                            *col,
                            ErrorKind::Syntax(
                                "a label cannot stand on an IF/ELSE/ENDIF line".into(),
                            ),
                        );
                    }
                }
                self.conditional(kind, &line.stmt, active, &mut conds);
                continue;
            }
            if !active {
                continue;
            }
            // Blank and comment-only lines get no address in the listing.
            if line.label.is_some() || line.stmt != Stmt::Empty {
                self.listing[idx].addr = u16::try_from(start_pc).ok();
            }
            self.statement(line, &file, idx);
        }
        for c in conds {
            self.here_line = c.line;
            self.here_file = fid;
            self.err(0, ErrorKind::UnclosedIf);
        }
        self.include_stack.pop();
    }

    /// The value of an IF/ELSEIF/IFDEF/IFNDEF condition (false when it has none).
    fn cond_value(&mut self, stmt: &Stmt) -> bool {
        match stmt {
            Stmt::If(ex) | Stmt::ElseIf(ex) => self.value(ex).is_some_and(|v| v != 0),
            Stmt::IfDef { name, defined, .. } => {
                self.syms.contains_key(&self.qualify(name)) == *defined
            }
            _ => false,
        }
    }

    fn conditional(&mut self, kind: CondKind, stmt: &Stmt, active: bool, conds: &mut Vec<Cond>) {
        // Is the block this directive belongs to assembled? (A malformed directive is only
        // reported there, as in a false block nothing but the nesting is looked at.)
        let outer = match kind {
            CondKind::If => active,
            _ => conds.last().map_or(active, |c| c.parent),
        };
        if let Stmt::BadCond(_, e) = stmt {
            if outer {
                self.line_err(e);
            }
        }
        match kind {
            CondKind::If => {
                let c = active && self.cond_value(stmt);
                conds.push(Cond {
                    parent: active,
                    taken: c,
                    active: c,
                    seen_else: false,
                    line: self.here_line,
                });
            }
            CondKind::ElseIf | CondKind::Else => {
                let Some(top) = conds.len().checked_sub(1) else {
                    if active {
                        self.err(0, ErrorKind::ElseWithoutIf);
                    }
                    return;
                };
                let (parent, taken, seen_else) =
                    (conds[top].parent, conds[top].taken, conds[top].seen_else);
                if seen_else && parent {
                    self.err(0, ErrorKind::ElseAfterElse);
                }
                let now = parent && !taken && (kind == CondKind::Else || self.cond_value(stmt));
                let c = &mut conds[top];
                c.active = now;
                c.taken |= now;
                c.seen_else |= kind == CondKind::Else;
            }
            CondKind::Endif => {
                if conds.pop().is_none() && active {
                    self.err(0, ErrorKind::EndifWithoutIf);
                }
            }
        }
    }

    /// Define the line's label; true when the line was an `EQU` (wholly handled).
    fn label(&mut self, line: &Line, idx: usize) -> bool {
        if let Some((name, col)) = &line.label {
            let full = self.qualify(name);
            if let Stmt::Equ(ex) = &line.stmt {
                self.defining = Some(full.clone());
                let v = self.value(ex);
                self.defining = None;
                match v {
                    Some(v) => {
                        self.listing[idx].value = Some(v);
                        self.define(full, *col, v, SymbolKind::Equ);
                    }
                    None => {
                        self.unresolved.insert(full);
                    }
                }
                return true;
            }
            if !name.starts_with('.') {
                self.scope = name.clone();
            }
            self.define(full, *col, self.pc, SymbolKind::Label);
        }
        false
    }

    fn statement(&mut self, line: &Line, file: &SourceFile, idx: usize) {
        if self.label(line, idx) {
            return;
        }
        let text = &file.lines[self.here_line as usize - 1];
        match &line.stmt {
            Stmt::Empty | Stmt::Equ(_) => {}
            Stmt::Error(e) => self.line_err(e),
            Stmt::BadCond(..)
            | Stmt::If(_)
            | Stmt::ElseIf(_)
            | Stmt::IfDef { .. }
            | Stmt::Else
            | Stmt::Endif => {}
            Stmt::End => self.ended = true,
            Stmt::Assert(ex, message) => {
                if self.value(ex) == Some(0) {
                    let (message, text) = (message.clone(), ex.text.clone());
                    self.err(ex.col, ErrorKind::AssertFailed { message, text });
                }
            }
            Stmt::Page(_) | Stmt::EndPage | Stmt::Org(_) => self.layout(&line.stmt, idx),
            Stmt::Db(items) => {
                let mut bytes = Vec::new();
                for item in items {
                    match item {
                        Item::Bytes(b) => bytes.extend_from_slice(b),
                        Item::Value(ex) => bytes.push(self.byte(ex, "byte value", -128, 255) as u8),
                    }
                }
                self.emit(&bytes, text);
            }
            Stmt::Dw(items) => {
                let mut bytes = Vec::new();
                for ex in items {
                    let v = self.byte(ex, "word value", -32768, 65535) as u16;
                    bytes.extend_from_slice(&v.to_le_bytes());
                }
                self.emit(&bytes, text);
            }
            Stmt::Ds(count, fill) => {
                let n = self.byte(count, "DS count", 0, 65536);
                let f = fill
                    .as_ref()
                    .map(|f| self.byte(f, "DS fill byte", -128, 255))
                    .unwrap_or(0) as u8;
                self.emit(&vec![f; n as usize], text);
            }
            Stmt::Include { path, col } => self.include(path, *col, file),
            Stmt::Incbin { path, col } => {
                let full = file.path.parent().unwrap_or(Path::new("")).join(path);
                match self.ctx.binary(&full) {
                    Ok(bytes) => self.emit(&bytes, text),
                    Err(reason) => {
                        let path = normalize(&full).to_string_lossy().into_owned();
                        self.err(*col, ErrorKind::Include { path, reason })
                    }
                }
            }
            Stmt::Instr {
                mnemonic,
                ops,
                text,
            } => {
                if let Some((bytes, timing)) = self.instruction(mnemonic, ops, text) {
                    self.listing[idx].timing = Some(timing);
                    self.emit(&bytes, text);
                }
            }
        }
    }

    /// `PAGE`, `ENDPAGE` and `ORG`: where the next bytes go.
    fn layout(&mut self, stmt: &Stmt, idx: usize) {
        match stmt {
            Stmt::Page(ex) => {
                if let Some(v) = self.value(ex) {
                    if (0..MAX_PAGES as i64).contains(&v) {
                        self.switch_segment(Some(v as u8));
                        self.top_page = self.top_page.max(Some(v as u8));
                        self.listing[idx].page = self.page;
                        self.listing[idx].addr = u16::try_from(self.pc).ok();
                    } else {
                        self.err(ex.col, ErrorKind::PageRange(v));
                    }
                }
            }
            Stmt::EndPage => {
                if self.page.is_none() {
                    self.err(0, ErrorKind::EndPageWithoutPage);
                } else {
                    self.switch_segment(None);
                    self.listing[idx].page = None;
                    self.listing[idx].addr = u16::try_from(self.pc).ok();
                }
            }
            Stmt::Org(ex) => {
                if let Some(v) = self.value(ex) {
                    if range_ok(v, 0, 0xFFFF) {
                        self.pc = v;
                        self.listing[idx].addr = Some(v as u16);
                        self.first_org.get_or_insert(v as u16);
                    } else {
                        self.err(
                            ex.col,
                            ErrorKind::OutOfRange {
                                what: "ORG address",
                                range: "0..65535",
                                value: v,
                                text: ex.text.clone(),
                            },
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// Evaluate a data value and check its range; 0 when it has no value.
    fn byte(&mut self, ex: &Ex, what: &'static str, lo: i64, hi: i64) -> i64 {
        match self.value(ex) {
            Some(v) if range_ok(v, lo, hi) => v,
            Some(v) => {
                let range = match (lo, hi) {
                    (-128, 255) => "-128..255",
                    (-32768, 65535) => "-32768..65535",
                    _ => "0..65536",
                };
                self.err(
                    ex.col,
                    ErrorKind::OutOfRange {
                        what,
                        range,
                        value: v,
                        text: ex.text.clone(),
                    },
                );
                0
            }
            None => 0,
        }
    }

    fn include(&mut self, path: &str, col: u32, from: &SourceFile) {
        let full = from.path.parent().unwrap_or(Path::new("")).join(path);
        match self.ctx.source(&full) {
            Ok(fid) => {
                if self.include_stack.contains(&fid)
                    || self.include_stack.len() >= MAX_INCLUDE_DEPTH
                {
                    let name = self.ctx.files[fid].name.clone();
                    self.err(col, ErrorKind::IncludeRecursion(name));
                    return;
                }
                let (f, l) = (self.here_file, self.here_line);
                self.run_file(fid);
                self.here_file = f;
                self.here_line = l;
            }
            Err(reason) => {
                let path = normalize(&full).to_string_lossy().into_owned();
                self.err(col, ErrorKind::Include { path, reason });
            }
        }
    }

    /// Turn the unknown references of a final pass into errors.
    pub fn report_unknowns(&mut self) {
        let unknowns = std::mem::take(&mut self.unknowns);
        let mut seen = HashSet::new();
        for u in unknowns {
            let kind = if self.unresolved.contains(&u.name) {
                match &u.defining {
                    Some(d) => ErrorKind::Circular {
                        name: d.clone(),
                        via: u.name.clone(),
                    },
                    None => ErrorKind::UnresolvedSymbol(u.name.clone()),
                }
            } else {
                ErrorKind::UndefinedSymbol(u.name.clone())
            };
            if seen.insert((u.file, u.line, u.col)) {
                let file = self.ctx.files[u.file].name.clone();
                self.errors.push((
                    u.seq,
                    AsmError {
                        file,
                        line: u.line,
                        col: u.col,
                        kind,
                    },
                ));
            }
        }
    }

    /// The errors in source order (as the lines were assembled).
    pub fn take_errors(&mut self) -> Vec<AsmError> {
        let mut errors = std::mem::take(&mut self.errors);
        errors.sort_by_key(|(seq, e)| (*seq, e.col));
        let mut out: Vec<AsmError> = errors.into_iter().map(|(_, e)| e).collect();
        out.dedup();
        out
    }

    /// Where a symbol was defined in this pass: (file name, line).
    pub fn definition(&self, name: &str) -> Option<(String, u32)> {
        let s = self.syms.get(name)?;
        Some((self.ctx.files[s.file?].name.clone(), s.line))
    }

    pub fn symbols(&self) -> BTreeMap<String, Symbol> {
        self.syms
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}
