//! `z80chess luscher export`: the fitted models as generated Z80 assembly
//! (`asm/full/luscher_tables.asm` by default) for the endgame module of the `full` build. The
//! file is not included in any build yet; this module writes it and reads it back (the tests
//! walk the assembled bytes as the Z80 will and compare with [`Quantised::man_value`]).
//!
//! # Layout
//!
//! The tables go into expansion ROM pages (by default 1 and 2: page 0 holds the parameter
//! defaults, page 3 the Zobrist keys), each piece type's table whole in one page, the pages
//! filled in order (first fit). The directory `LUSDIR` opens the first page:
//!
//! ```text
//! LUSDIR:  per ending: DB men, then per man in the table layout's order (the two kings
//!          first, then the name's men): DB colour (0 White, 1 Black), role (1 P .. 6 K);
//!          then DB types; per type: DB role, DB PAGEOF(table), DW table
//!          (the window address), DW the empty configuration's weight (always active)
//!          ... the endings in the order given; DB 0 ends the directory.
//! ```
//!
//! A type's table is a list of records in jump-table order (the empty configuration left
//! out), ended by a byte 0FFh:
//!
//! - `DB b | 80h·x`: the configuration is its parent (the record's prefix, already known to be
//!   active when the walk reaches it) plus feature bit `b` (0–31); `x` is set when the
//!   configuration has extensions;
//! - `DW w`: its weight, a signed word at 64 units a half-move ([`super::quant`]);
//! - when `x`: `DW skip`, the window address of the record to test next when this one is
//!   inactive (past all its extensions; possibly the 0FFh).
//!
//! The walk: if the man's feature vector has bit `b`, add `w` and go to the next record;
//! otherwise go to `skip` (or the next record when `x` is clear). Every configuration's
//! prefix is kept and precedes it, so testing one bit per record is exact ([`super::configs`]).
//! Sums wrap in 16 bits; the evaluation is the side to move's men's sums minus the other
//! side's.

use super::configs::ConfigSet;
use super::fit::{type_name, Model};
use super::quant::{win_threshold, Quantised, ENGINE_LIMIT, LWIN, QSCALE};
use super::LuscherError;
use crate::tablebase::Layout;
use std::fmt::Write;

/// Bytes of one expansion page.
pub const PAGE_SIZE: usize = 16384;

/// One type's table as records (bit byte, weight, optional skip as a record index; `n`
/// stands for the 0FFh end).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub bit: u8,
    pub weight: i16,
    /// The record index to go to when inactive, when the configuration has extensions.
    pub skip: Option<usize>,
}

/// The records of one configuration set with its words (the empty configuration first in
/// `masks`, left out), or why they cannot be written.
pub fn records(cs: &ConfigSet, words: &[i16]) -> Result<Vec<Record>, String> {
    if cs.masks.first() != Some(&0) {
        return Err("the empty configuration is not first".into());
    }
    let mut out = Vec::with_capacity(cs.len() - 1);
    for (k, (&m, &word)) in cs.masks.iter().zip(words).enumerate().skip(1) {
        let bit = 31 - m.leading_zeros() as u8;
        let parent = m & !(1u32 << bit);
        if !cs.masks[..k].contains(&parent) {
            return Err(format!(
                "configuration {m:08x} comes without its prefix {parent:08x}"
            ));
        }
        let skip = cs.skip[k] as usize;
        out.push(Record {
            bit,
            weight: word,
            // record indices are configuration indices less the empty one
            skip: (skip != k + 1).then_some(skip - 1),
        });
    }
    Ok(out)
}

/// Byte offsets of each record (and of the end marker, last).
fn offsets(recs: &[Record]) -> Vec<usize> {
    let mut at = Vec::with_capacity(recs.len() + 1);
    let mut o = 0;
    for r in recs {
        at.push(o);
        o += if r.skip.is_some() { 5 } else { 3 };
    }
    at.push(o);
    at
}

/// The table's size in bytes, the end marker included.
pub fn table_size(recs: &[Record]) -> usize {
    offsets(recs).last().copied().unwrap_or(0) + 1
}

fn label(name: &str, role: u8) -> String {
    format!("LT{name}{}", type_name(role).to_uppercase())
}

/// One type's table as assembly text (its label first).
fn table_text(lbl: &str, recs: &[Record]) -> String {
    let at = offsets(recs);
    let mut s = format!("{lbl}:\n");
    let mut line: Vec<String> = Vec::new();
    let flush = |s: &mut String, line: &mut Vec<String>| {
        if !line.is_empty() {
            let _ = writeln!(s, "        DB      {}", line.join(","));
            line.clear();
        }
    };
    for r in recs {
        let w = r.weight as u16;
        let head = [
            (r.bit | if r.skip.is_some() { 0x80 } else { 0 }).to_string(),
            (w & 0xFF).to_string(),
            (w >> 8).to_string(),
        ];
        match r.skip {
            None => {
                line.extend(head);
                if line.len() >= 24 {
                    flush(&mut s, &mut line);
                }
            }
            Some(j) => {
                line.extend(head);
                flush(&mut s, &mut line);
                let _ = writeln!(s, "        DW      {lbl}+{}", at[j]);
            }
        }
    }
    line.push("0FFh".into());
    flush(&mut s, &mut line);
    s
}

/// The generated assembly and the bytes it fills in each page.
pub struct Exported {
    pub text: String,
    pub fill: Vec<(u8, usize)>,
}

/// The expansion pages asked for: one or more, each of 0..3, none twice.
fn check_pages(pages: &[u8]) -> Result<(), String> {
    if pages.is_empty()
        || pages.iter().any(|&p| p > 3)
        || (1..pages.len()).any(|i| pages[..i].contains(&pages[i]))
    {
        return Err(format!(
            "pages {pages:?}: give one or more different pages of 0..3"
        ));
    }
    Ok(())
}

/// The assembly for `models`, their tables in `pages` (first fit, in order).
pub fn export(models: &[Model], pages: &[u8]) -> Result<Exported, LuscherError> {
    let bad = |why: String| LuscherError::Usage(format!("luscher export: {why}"));
    check_pages(pages).map_err(bad)?;
    // the directory's size, then each table placed
    let mut dir_size = 1;
    let mut tables = Vec::new(); // (model index, role, label, records, base word)
    for (mi, m) in models.iter().enumerate() {
        let l = Layout::parse(&m.name)?;
        let q = Quantised::of(m)?;
        dir_size += 2 + 2 * l.n + 6 * m.types.len();
        for ((role, cs, _), words) in m.types.iter().zip(&q.words) {
            let recs = records(cs, words)
                .map_err(|why| bad(format!("{} {}: {why}", m.name, type_name(*role))))?;
            tables.push((mi, *role, label(&m.name, *role), recs, words[0]));
        }
    }
    let mut fill: Vec<usize> = vec![0; pages.len()];
    fill[0] = dir_size;
    let mut placed: Vec<Vec<usize>> = vec![Vec::new(); pages.len()];
    for (ti, t) in tables.iter().enumerate() {
        let size = table_size(&t.3);
        let Some(p) = (0..pages.len()).find(|&p| fill[p] + size <= PAGE_SIZE) else {
            return Err(bad(format!(
                "{} ({size} bytes) does not fit in pages {pages:?} (filled {fill:?})",
                t.2
            )));
        };
        fill[p] += size;
        placed[p].push(ti);
    }
    let mut s = String::new();
    let names: Vec<&str> = models.iter().map(|m| m.name.as_str()).collect();
    let _ = write!(
        s,
        "; ===========================================================================
; luscher_tables.asm: GENERATED by `z80chess luscher export {} --pages {}` from
; the fitted models (`luscher fit NAME`; src/luscher/TABLES.md). Do not edit.
; Lüscher's generated evaluation for the endgame module: per
; ending, per piece type, the configurations in jump-table order with their
; weights as signed words, {} units a half-move. The layout and the walk are
; described in src/luscher/export.rs. Bytes per page: {}.
; ===========================================================================

LUSCALE         EQU     {}      ; units a half-move
LUSWIN          EQU     {}   ; a won ending scores LUSWIN + E (E clamped to +-LUSLIM)
LUSLIM          EQU     {}
",
        names.join(" "),
        pages
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(","),
        QSCALE,
        pages
            .iter()
            .zip(&fill)
            .map(|(p, f)| format!("page {p} {f}"))
            .collect::<Vec<_>>()
            .join(", "),
        QSCALE,
        LWIN,
        ENGINE_LIMIT - 1
    );
    for m in models {
        let _ = writeln!(
            s,
            "{:<16}EQU     {}     ; {}: the function says win above this (units), loss below -it;\n                                ; longest {} plies, corner feature {}",
            format!("LT{}TH", m.name),
            win_threshold(m.offset),
            m.name,
            m.max,
            if m.options.no_corner { "off" } else { "on" }
        );
    }
    for (pi, &page) in pages.iter().enumerate() {
        if placed[pi].is_empty() && pi > 0 {
            continue;
        }
        let _ = writeln!(s, "\n        PAGE    {page}");
        if pi == 0 {
            s += "LUSDIR:\n";
            for (mi, m) in models.iter().enumerate() {
                let l = Layout::parse(&m.name)?;
                let men: Vec<String> = (0..l.n)
                    .map(|i| format!("{},{}", l.color[i], l.role[i]))
                    .collect();
                let _ = writeln!(
                    s,
                    "        DB      {},{},{}        ; {}",
                    l.n,
                    men.join(","),
                    m.types.len(),
                    m.name
                );
                for t in tables.iter().filter(|t| t.0 == mi) {
                    let _ = writeln!(s, "        DB      {},PAGEOF({})", t.1, t.2);
                    let _ = writeln!(s, "        DW      {},{}", t.2, t.4);
                }
            }
            s += "        DB      0\n";
        }
        for &ti in &placed[pi] {
            let t = &tables[ti];
            let _ = writeln!(
                s,
                "; {} {}: {} configurations, {} bytes",
                models[t.0].name,
                type_name(t.1),
                t.3.len() + 1,
                table_size(&t.3)
            );
            s += &table_text(&t.2, &t.3);
        }
        s += "        ENDPAGE\n";
    }
    Ok(Exported {
        text: s,
        fill: pages.iter().copied().zip(fill).collect(),
    })
}

/// Walk one table's bytes as the Z80 will: `bytes` is the page, `start` the table's window
/// address, `v` the feature vector; returns the sum of the active records' words (wrapping)
/// plus `base`, or None when the bytes are malformed.
pub fn walk(bytes: &[u8], start: u16, base: i16, v: u32) -> Option<i16> {
    let rd = |a: usize| -> Option<u8> { bytes.get(a.checked_sub(0x8000)?).copied() };
    let word = |a: usize| -> Option<u16> { Some(rd(a)? as u16 | (rd(a + 1)? as u16) << 8) };
    let mut a = start as usize;
    let mut e = base;
    for _ in 0..PAGE_SIZE {
        let b = rd(a)?;
        if b == 0xFF {
            return Some(e);
        }
        let ext = b & 0x80 != 0;
        if v >> (b & 0x1F) & 1 == 1 {
            e = e.wrapping_add(word(a + 1)? as i16);
            a += if ext { 5 } else { 3 };
        } else if ext {
            a = word(a + 3)? as usize;
        } else {
            a += 3;
        }
    }
    None
}
