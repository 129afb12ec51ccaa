//! Text views of the machine: registers, disassembly with source, source listing, memory,
//! call stack, and the chess views (board, attacker array, move list). The line-mode
//! commands print them; the full-screen mode shows the same text in its panes.

use super::engine::{BpKind, Debugger, Track};
use super::program::Program;
use crate::firmware::board::square_of;
use crate::machine::PERIOD_HZ;
use crate::z80::flags::*;
use crate::z80::isa::{self, Operand};
use crate::z80::Cpu;
use std::fmt::Write as _;

/// `12345 T (6.172 ms)`.
pub fn tstates(t: u64) -> String {
    format!("{t} T ({})", seconds(t as i128))
}

/// Emulated time of `t` T-states at the period clock, in a readable unit.
pub fn seconds(t: i128) -> String {
    let s = t as f64 / PERIOD_HZ as f64;
    let a = s.abs();
    if a >= 1.0 {
        format!("{s:.3} s")
    } else if a >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{:.1} us", s * 1e6)
    }
}

/// Collapse runs of blanks (sources align with spaces) so a line fits beside others.
pub fn squeeze(s: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for c in s.trim().chars() {
        if c == ' ' || c == '\t' {
            if !blank {
                out.push(' ');
            }
            blank = true;
        } else {
            out.push(c);
            blank = false;
        }
    }
    out
}

/// The flags spelled out: `S:0 Z:1 Y:0 H:0 X:0 P/V:1 N:0 C:0  (Z PE P NC)`.
pub fn flags_text(f: u8) -> String {
    let bit = |m: u8| (f & m != 0) as u8;
    format!(
        "S:{} Z:{} Y:{} H:{} X:{} P/V:{} N:{} C:{}  ({} {} {} {})",
        bit(S),
        bit(Z),
        bit(Y),
        bit(H),
        bit(X),
        bit(PV),
        bit(N),
        bit(C),
        if f & Z != 0 { "Z" } else { "NZ" },
        if f & C != 0 { "C" } else { "NC" },
        if f & PV != 0 { "PE" } else { "PO" },
        if f & S != 0 { "M" } else { "P" },
    )
}

/// `8000`, or `1:8000` when the window shows page 1 (an address of the code in view).
fn paged(prog: &Program, a: u16) -> String {
    match prog.page_of_addr(a) {
        Some(p) => format!("{p}:{a:04X}"),
        None => format!("{a:04X}"),
    }
}

/// All registers, flags, interrupt state and counters.
pub fn regs(prog: &Program, cpu: &Cpu, track: &Track) -> String {
    let mut s = String::new();
    let pcname = prog
        .describe(cpu.pc)
        .map(|d| format!(" <{d}>"))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "PC  {}{pcname}   SP  {:04X}   IX  {:04X}   IY  {:04X}   MEMPTR {:04X}",
        paged(prog, cpu.pc),
        cpu.sp,
        cpu.ix,
        cpu.iy,
        cpu.wz
    );
    let _ = writeln!(
        s,
        "AF  {:04X}   BC  {:04X}   DE  {:04X}   HL  {:04X}",
        cpu.af(),
        cpu.bc(),
        cpu.de(),
        cpu.hl()
    );
    let _ = writeln!(
        s,
        "AF' {:04X}   BC' {:04X}   DE' {:04X}   HL' {:04X}",
        cpu.af_, cpu.bc_, cpu.de_, cpu.hl_
    );
    let _ = writeln!(
        s,
        "I   {:02X}     R   {:02X}     IFF1 {}   IFF2 {}   IM {}   halted {}",
        cpu.i,
        cpu.r,
        cpu.iff1 as u8,
        cpu.iff2 as u8,
        cpu.im,
        if cpu.halted { "yes" } else { "no" }
    );
    let _ = writeln!(s, "F   {:02X}     {}", cpu.f, flags_text(cpu.f));
    let _ = writeln!(
        s,
        "T-states {} ({})   icount {}   depth {}",
        cpu.t,
        seconds(cpu.t as i128),
        track.icount,
        track.depth()
    );
    s
}

/// Operands named after labels (jump and call targets, 16-bit values that name something;
/// a small immediate of an ordinary instruction stays a number).
fn operand(prog: &Program, op: Operand, jump: bool) -> String {
    match op {
        Operand::NN(v) | Operand::Target(v) => {
            let target = jump || matches!(op, Operand::Target(_));
            if target || v >= 0x100 {
                if let Some(l) = prog.label_at(v) {
                    return l.to_string();
                }
            }
            if v >= 0x100 {
                if let Some(n) = prog.symbols.name_of(v) {
                    return n.to_string();
                }
            }
            if (v as usize) >= prog.rom.len() && matches!(op, Operand::NN(_)) {
                // RAM: as the source writes it, e.g. BOARD+35.
                if let Some(d) = prog.describe(v) {
                    return d;
                }
            }
            isa::default_operand(op)
        }
        _ => isa::default_operand(op),
    }
}

/// One instruction: (text with names, length, T-states).
pub fn instruction(prog: &Program, mem: &[u8; 0x10000], addr: u16) -> (String, u8, String) {
    let d = isa::decode(|a| mem[a as usize], addr);
    let jump = d.template.starts_with("JP") || d.template.starts_with("CALL");
    let text = d.render(&|op| operand(prog, op, jump));
    (text, d.len, d.timing.to_string())
}

/// `n` instructions from `addr`, with label lines, the PC marked `=>`, breakpoints `*`, and
/// each instruction's source line beside it.
pub fn disassembly(dbg: &Debugger, addr: u16, n: usize, width: Option<usize>) -> Vec<String> {
    let prog = &dbg.prog;
    let mem = &dbg.m.bus.mem;
    let pc = dbg.m.cpu.pc;
    let mut out = Vec::new();
    let mut a = addr;
    for _ in 0..n {
        for l in prog.labels_at(a) {
            out.push(format!("         {l}:"));
        }
        let (text, len, t) = instruction(prog, mem, a);
        let bytes: Vec<String> = (0..len as u16)
            .map(|k| format!("{:02X}", mem[a.wrapping_add(k) as usize]))
            .collect();
        let bp = dbg.bps.iter().any(|b| {
            b.enabled
                && b.kind == BpKind::Code { addr: a }
                && (b.page.is_none() || b.page == prog.page_of_addr(a))
        });
        let mark = format!(
            "{}{}",
            if bp { '*' } else { ' ' },
            if a == pc { "=>" } else { "  " }
        );
        let mut line = format!(
            "{mark} {}  {:<11}  {text:<20} {t:>5}",
            paged(prog, a),
            bytes.join(" ")
        );
        if let Some((f, l)) = prog.line_at(a) {
            let src = prog.source_text(f, l).map(squeeze).unwrap_or_default();
            let _ = write!(line, "  {}  {src}", prog.line_name(f, l));
        }
        let line = line.trim_end().to_string();
        out.push(match width {
            Some(w) => line.chars().take(w).collect(),
            None => line,
        });
        a = a.wrapping_add(len as u16);
    }
    out
}

/// Source lines around `line` of `file`, the PC's line marked `=>`, breakpoint lines `*`.
pub fn listing(dbg: &Debugger, file: usize, line: u32, before: u32, after: u32) -> Vec<String> {
    let prog = &dbg.prog;
    let Some(f) = prog.files.get(file) else {
        return vec!["(no such file)".into()];
    };
    if f.lines.is_empty() {
        return vec![format!("(the source {} could not be read)", f.path)];
    }
    let pc_line = prog.line_near(dbg.m.cpu.pc);
    let bp_lines: Vec<(usize, u32)> = dbg
        .bps
        .iter()
        .filter_map(|b| match b.kind {
            BpKind::Code { addr } if b.enabled => prog.line_at(addr),
            _ => None,
        })
        .collect();
    let first = line.saturating_sub(before).max(1);
    let last = (line + after).min(f.lines.len() as u32);
    let mut out = Vec::new();
    for l in first..=last {
        let here = pc_line == Some((file, l));
        let bp = bp_lines.contains(&(file, l));
        out.push(
            format!(
                "{}{}{l:>5}  {}",
                if bp { '*' } else { ' ' },
                if here { "=>" } else { "  " },
                prog.source_text(file, l).unwrap_or("")
            )
            .trim_end()
            .to_string(),
        );
    }
    out
}

/// A hex and ASCII dump, `per_row` bytes a row.
pub fn dump(mem: &[u8; 0x10000], addr: u16, len: usize, per_row: usize) -> Vec<String> {
    let per_row = per_row.max(1);
    let mut out = Vec::new();
    let mut off = 0usize;
    while off < len {
        let a = addr as usize + off;
        let n = per_row.min(len - off);
        let mut hex = String::new();
        let mut asc = String::new();
        for k in 0..per_row {
            if k == 8 && per_row > 8 {
                hex.push(' ');
            }
            if k < n {
                let b = mem[(a + k) & 0xFFFF];
                let _ = write!(hex, " {b:02X}");
                asc.push(if (0x20..0x7F).contains(&b) {
                    b as char
                } else {
                    '.'
                });
            } else {
                hex.push_str("   ");
            }
        }
        out.push(format!("{:04X} {hex}  |{asc}|", a & 0xFFFF));
        off += per_row;
    }
    out
}

/// The call stack, innermost first.
pub fn backtrace(prog: &Program, cpu: &Cpu, track: &Track) -> Vec<String> {
    let where_ = |a: u16| {
        let name = prog.describe(a).unwrap_or_else(|| "?".into());
        let src = prog
            .line_near(a)
            .map(|(f, l)| prog.line_name(f, l))
            .unwrap_or_default();
        (name, src)
    };
    let mut out = Vec::new();
    let (n, s) = where_(cpu.pc);
    out.push(
        format!("#0  {}h  {n:<20} {s}", paged(prog, cpu.pc))
            .trim_end()
            .to_string(),
    );
    for (k, f) in track.frames().iter().rev().enumerate() {
        let (n, s) = where_(f.call_pc);
        let callee = prog
            .label_at(f.target)
            .map(str::to_string)
            .unwrap_or_else(|| format!("{:04X}h", f.target));
        out.push(format!(
            "#{:<2} {:04X}h  {n:<20} {s:<16} calls {callee}, returns to {:04X}h",
            k + 1,
            f.call_pc,
            f.ret
        ));
    }
    out
}

fn piece_char(b: u8) -> char {
    let c = match b & 7 {
        1 => 'p',
        2 => 'n',
        3 => 'b',
        4 => 'r',
        5 => 'q',
        6 => 'k',
        _ => '?',
    };
    if b & 0x80 == 0 {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

fn square_name(idx: u8) -> String {
    square_of(idx)
        .map(|s| s.to_string())
        .unwrap_or_else(|| format!("#{idx}"))
}

/// The firmware's 10x12 board decoded (see asm/board.asm for the byte layout).
pub fn board(prog: &Program, mem: &[u8; 0x10000]) -> Result<Vec<String>, String> {
    let base = prog
        .symbols
        .value_of("BOARD")
        .ok_or("this program has no BOARD symbol")?;
    let at = |i: u16| mem[base.wrapping_add(i) as usize];
    let mut out = Vec::new();
    let side = match prog.symbols.value_of("COLOR") {
        Some(c) => match mem[c as usize] {
            0 => "White to move".to_string(),
            0x80 => "Black to move".to_string(),
            v => format!("COLOR = {v:02X}h (neither 00h nor 80h)"),
        },
        None => String::new(),
    };
    out.push(
        format!("BOARD at {base:04X}h  {side}")
            .trim_end()
            .to_string(),
    );
    out.push("     a  b  c  d  e  f  g  h".into());
    let mut odd = Vec::new();
    for rank in (0..8u16).rev() {
        let mut row = format!(" {}  ", rank + 1);
        for file in 0..8u16 {
            let idx = 21 + 10 * rank + file;
            let b = at(idx);
            let cell = if b == 0 {
                " . ".to_string()
            } else if b == 0xFF || b & 7 == 0 || b & 7 == 7 || b & 0x60 != 0 {
                odd.push(format!(
                    "{} ({:04X}h) holds {b:02X}h, not a piece",
                    square_name(idx as u8),
                    base.wrapping_add(idx)
                ));
                " ? ".to_string()
            } else {
                let mark = if b & 0x10 != 0 {
                    '"'
                } else if b & 0x08 != 0 {
                    '\''
                } else {
                    ' '
                };
                format!(" {}{mark}", piece_char(b))
            };
            row.push_str(&cell);
        }
        let _ = write!(row, "  {}", rank + 1);
        out.push(row);
    }
    out.push("     a  b  c  d  e  f  g  h".into());
    out.push("P' moved  K\" castled".to_string());
    if let Some(k) = prog.symbols.value_of("POSK") {
        out.push(format!(
            "kings {} {} (POSK)",
            square_name(mem[k as usize]),
            square_name(mem[k.wrapping_add(1) as usize])
        ));
    }
    for i in 0..120u16 {
        let (r, f) = (i / 10, i % 10);
        let border = !(2..10).contains(&r) || f == 0 || f == 9;
        if border && at(i) != 0xFF {
            odd.push(format!(
                "border index {i} ({:04X}h) holds {:02X}h, not FFh",
                base.wrapping_add(i),
                at(i)
            ));
        }
    }
    for o in odd {
        out.push(format!("warning: {o}"));
    }
    Ok(out)
}

/// One side of the attacker array: (count, slots [P N B R Q K] as (low, high) nibbles).
pub fn atk_side(bytes: &[u8]) -> (u8, [(u8, u8); 6]) {
    let mut slots = [(0, 0); 6];
    for (k, s) in slots.iter_mut().enumerate() {
        let b = bytes.get(k + 1).copied().unwrap_or(0);
        *s = (b & 15, b >> 4);
    }
    (bytes.first().copied().unwrap_or(0), slots)
}

/// The 14-byte attacker array decoded per side, as the article's Table 1 lays it out:
/// a count, then pawn, knight, bishop, rook, queen and king bytes, each with two 4-bit
/// piece values (the first attacker of a type low, a later one shifted up with RLD; a
/// piece attacking through the queen in the queen byte's high nibble).
pub fn attackers(bytes: &[u8; 14], addr: u16) -> Vec<String> {
    let w = atk_side(&bytes[..7]);
    let b = atk_side(&bytes[7..]);
    let names = [
        "pawns",
        "knights",
        "bishops",
        "rooks",
        "queen (+behind)",
        "king (+spill)",
    ];
    let nib = |v: u8| {
        if v == 0 {
            "-".to_string()
        } else {
            v.to_string()
        }
    };
    let mut out = vec![
        format!(
            "{:<18}{:>7}{:>7}",
            format!("ATKLST {addr:04X}h"),
            "White",
            "Black"
        ),
        format!("  {:<16}{:>7}{:>7}", "count", w.0, b.0),
    ];
    for (k, name) in names.iter().enumerate() {
        out.push(format!(
            "  {name:<16}{:>4}{:>3}{:>4}{:>3}",
            nib(w.1[k].0),
            nib(w.1[k].1),
            nib(b.1[k].0),
            nib(b.1[k].1)
        ));
    }
    let order = |s: &(u8, [(u8, u8); 6])| -> Vec<u8> {
        s.1.iter()
            .flat_map(|&(lo, hi)| [lo, hi])
            .filter(|&v| v != 0)
            .collect()
    };
    let (wo, bo) = (order(&w), order(&b));
    let join = |v: &[u8]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    out.push(format!("  White in turn: {}", join(&wo)));
    out.push(format!("  Black in turn: {}", join(&bo)));
    let hex = |v: &[u8]| {
        v.iter()
            .map(|x| format!("{x:02X}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push(format!("  raw W {}", hex(&bytes[..7])));
    out.push(format!("      B {}", hex(&bytes[7..])));
    for (side, s, o) in [("White", &w, &wo), ("Black", &b, &bo)] {
        if s.0 as usize != o.len() {
            out.push(format!(
                "  note: {side} count {} but {} values",
                s.0,
                o.len()
            ));
        }
    }
    out
}

fn flag_text(flags: u8) -> String {
    let mut v: Vec<String> = Vec::new();
    let promo = flags & 0x20 != 0;
    if promo {
        v.push(
            match flags >> 6 {
                0 => "=Q",
                1 => "=R",
                2 => "=B",
                _ => "=N",
            }
            .into(),
        );
    }
    if flags & 7 != 0 {
        let p = if promo {
            piece_char(flags & 7).to_ascii_lowercase()
        } else {
            piece_char((flags & 0x80) | (flags & 7))
        };
        v.push(format!("x{p}"));
    }
    if !promo && flags & 0x40 != 0 {
        v.push("dbl".into());
    }
    if flags & 0x10 != 0 {
        v.push("first".into());
    }
    if flags & 0x08 != 0 {
        v.push("c.mvd".into());
    }
    v.join(" ")
}

fn word(mem: &[u8; 0x10000], a: u16) -> u16 {
    u16::from_le_bytes([mem[a as usize], mem[a.wrapping_add(1) as usize]])
}

/// Move-list entries from `first` (up to `end`, or following the links when `end` is None).
pub fn move_entries(mem: &[u8; 0x10000], first: u16, end: Option<u16>) -> Vec<String> {
    let mut out = vec!["   #  entry  move    flags                link   score".to_string()];
    let mut a = first;
    for k in 1..=300 {
        if let Some(e) = end {
            if a >= e {
                break;
            }
        }
        let e = |i: u16| mem[a.wrapping_add(i) as usize];
        let link = word(mem, a);
        let promo = if e(4) & 0x20 != 0 {
            ["q", "r", "b", "n"][(e(4) >> 6) as usize]
        } else {
            ""
        };
        out.push(format!(
            "{k:>4}  {a:04X}h {:<7} {:02X} {:<16} {link:04X}h  {:02X}",
            format!("{}{}{promo}", square_name(e(2)), square_name(e(3))),
            e(4),
            flag_text(e(4)),
            e(5)
        ));
        match end {
            Some(_) => a = a.wrapping_add(6),
            None => {
                if link == 0 {
                    break;
                }
                a = link;
            }
        }
        if k == 300 {
            out.push("  ... (stopped after 300 entries)".into());
        }
    }
    out
}

/// The current ply's move list: the one GENMOV is building (once it has set its write
/// pointer), or the last one it returned that is still allocated (its end at or below MLNXT).
pub fn current_moves(dbg: &Debugger) -> Result<Vec<String>, String> {
    let prog = &dbg.prog;
    let mem = &dbg.m.bus.mem;
    let mlnxt = prog.symbols.value_of("MLNXT").map(|a| word(mem, a));
    if let Some(start) = mlnxt {
        if dbg.track.building {
            let end = dbg.m.cpu.hl_;
            if end >= start && end - start <= 6 * 300 {
                let mut out = vec![format!(
                    "GENMOV is building this list: {start:04X}h..{end:04X}h (HL' = write pointer), {} entries so far",
                    (end - start) / 6
                )];
                out.extend(move_entries(mem, start, Some(end)));
                return Ok(out);
            }
        }
    }
    let live = dbg
        .track
        .lists
        .iter()
        .rev()
        .find(|&&(first, end)| mlnxt.is_none_or(|m| end <= m && first <= end));
    match live {
        Some(&(first, end)) => {
            let n = end.wrapping_sub(first) / 6;
            let mut out = vec![format!(
                "the current ply's list (GENMOV returned HL = {first:04X}h, DE = {end:04X}h): {n} entries"
            )];
            out.extend(move_entries(mem, first, Some(end)));
            Ok(out)
        }
        None => Err(
            "no move list: GENMOV has not returned a list that is still allocated (try 'moves ADDR')"
                .into(),
        ),
    }
}
