//! Looking at the machine: info, registers, backtrace, disassembly, source, memory,
//! expressions, writes, the firmware's attackers and moves, stopwatches.

use super::*;

impl Session {
    pub(super) fn cmd_info(&mut self, rest: &str) -> Result<String, String> {
        let (what, arg) = split_word(rest);
        match what.to_ascii_lowercase().as_str() {
            "breakpoints" | "break" | "b" | "watchpoints" | "watch" => Ok(self.info_bps()),
            "registers" | "regs" | "r" => Ok(self.regs()),
            "stopwatches" | "stopwatch" | "sw" => Ok(self.stopwatches()),
            "snapshots" => {
                let (n, pinned, interval) = self.dbg.snapshot_stats();
                Ok(format!(
                    "{n} snapshots ({pinned} at events), one every {interval} instructions; history 0..{} instructions\n",
                    self.dbg.high_water
                ))
            }
            "state" => Ok(format!(
                "state hash {:016X}  (registers, T-states and 64 KiB of memory)   T {}   icount {}\n",
                self.dbg.state_hash(),
                self.dbg.m.cpu.t,
                self.dbg.icount()
            )),
            "line" => {
                let a = if arg.is_empty() {
                    self.dbg.m.cpu.pc
                } else {
                    self.location(arg)?.0
                };
                let p = &self.dbg.prog;
                Ok(match p.line_near(a) {
                    Some((f, l)) => format!(
                        "{} is at {}: {}\n",
                        p.addr_text(a),
                        p.line_name(f, l),
                        views::squeeze(p.source_text(f, l).unwrap_or(""))
                    ),
                    None => format!("no source line for {}\n", p.addr_text(a)),
                })
            }
            "symbol" | "sym" => {
                let a = self.eval_addr(arg)?;
                Ok(format!("{}\n", self.dbg.prog.addr_text(a)))
            }
            "frame" => Ok(self.bt()),
            _ => Err(
                "usage: info breakpoints|registers|stopwatches|snapshots|state|line [LOC]|symbol ADDR"
                    .into(),
            ),
        }
    }

    pub(super) fn info_bps(&self) -> String {
        if self.dbg.bps.is_empty() {
            return "No breakpoints, watchpoints or catchpoints.\n".into();
        }
        let mut s =
            String::from("Num  Type        Enb  Where                               Hits\n");
        let p = &self.dbg.prog;
        for b in &self.dbg.bps {
            let (ty, at) = match b.kind {
                BpKind::Code { addr } => (
                    if b.temp { "tbreak" } else { "breakpoint" },
                    format!(
                        "{}{}",
                        p.addr_text_in(b.page, addr),
                        p.line_at(addr)
                            .map(|(f, l)| format!(" {}", p.line_name(f, l)))
                            .unwrap_or_default()
                    ),
                ),
                BpKind::Watch {
                    start,
                    end,
                    read,
                    write,
                } => (
                    match (read, write) {
                        (true, true) => "awatch",
                        (true, false) => "rwatch",
                        _ => "watch",
                    },
                    if start == end {
                        p.addr_text(start)
                    } else {
                        format!("{start:04X}h..{end:04X}h")
                    },
                ),
                BpKind::Catch {
                    port,
                    input,
                    output,
                } => (
                    "catch",
                    format!(
                        "{} {}",
                        match (input, output) {
                            (true, true) => "io",
                            (true, false) => "in",
                            _ => "out",
                        },
                        port.map(|p| format!("port {p:02X}h"))
                            .unwrap_or_else(|| "any port".into())
                    ),
                ),
            };
            let _ = writeln!(
                s,
                "{:<4} {ty:<11} {:<4} {at:<35} {}",
                b.id,
                if b.enabled { "y" } else { "n" },
                b.hits
            );
            if let Some((_, c)) = &b.cond {
                let _ = writeln!(s, "        stop only if {c}");
            }
            if b.ignore > 0 {
                let _ = writeln!(s, "        will ignore the next {} hits", b.ignore);
            }
        }
        s
    }

    pub fn regs(&self) -> String {
        views::regs(&self.dbg.prog, &self.dbg.m.cpu, &self.dbg.track)
    }

    pub fn bt(&self) -> String {
        views::backtrace(&self.dbg.prog, &self.dbg.m.cpu, &self.dbg.track).join("\n") + "\n"
    }

    /// `P:ADDR [...]` as the first word: the page, and the text with a plain address.
    pub(super) fn paged_arg(rest: &str) -> Option<(u8, String)> {
        let (first, more) = split_word(rest);
        let (page, addr) = Program::paged_location(first)?;
        Some((page, format!("{addr:04X}h {more}")))
    }

    /// Run `f` with the window showing `page`, then select the machine's own page again (the
    /// window is ROM: nothing else changes).
    pub(super) fn in_page<R>(&mut self, page: u8, f: impl FnOnce(&mut Self) -> R) -> R {
        let old = self.dbg.m.bus.page();
        self.dbg.m.bus.select_page(page);
        self.dbg.prog.set_view(self.dbg.m.bus.window_page());
        let r = f(self);
        self.dbg.m.bus.select_page(old);
        self.dbg.prog.set_view(self.dbg.m.bus.window_page());
        r
    }

    pub(super) fn cmd_dis(&mut self, rest: &str) -> Result<String, String> {
        if let Some((page, rest)) = Self::paged_arg(rest) {
            return self.in_page(page, |s| s.cmd_dis(&rest));
        }
        let (addr, more) = if rest.is_empty() {
            (self.dbg.m.cpu.pc, "")
        } else if let Some((a, _)) = rest.split_once(':').filter(|(a, _)| a.contains(".asm")) {
            let _ = a;
            let (loc, n) = split_word(rest);
            (self.location(loc)?.0, n)
        } else {
            self.addr_prefix(rest)?
        };
        let n = self.count(more, 10)?;
        if n > 1000 {
            return Err("at most 1000 instructions at a time".into());
        }
        Ok(views::disassembly(&self.dbg, addr, n as usize, None).join("\n") + "\n")
    }

    pub(super) fn cmd_list(&mut self, rest: &str) -> Result<String, String> {
        let p = &self.dbg.prog;
        let (file, line) = if rest.is_empty() {
            p.line_near(self.dbg.m.cpu.pc).ok_or_else(|| {
                format!(
                    "no source line for the PC ({})",
                    p.addr_text(self.dbg.m.cpu.pc)
                )
            })?
        } else if let Some((f, l)) = rest.rsplit_once(':') {
            let f = p.find_file(f.trim())?;
            let l: u32 = l
                .trim()
                .parse()
                .map_err(|_| format!("'{rest}': expected FILE:LINE"))?;
            (f, l)
        } else {
            let a = self.eval_addr(rest)?;
            let p = &self.dbg.prog;
            p.line_near(a)
                .ok_or_else(|| format!("no source line for {}", p.addr_text(a)))?
        };
        let p = &self.dbg.prog;
        let mut s = format!("{}:\n", p.files[file].path);
        s.push_str(&views::listing(&self.dbg, file, line, 5, 6).join("\n"));
        s.push('\n');
        Ok(s)
    }

    pub(super) fn cmd_mem(&mut self, rest: &str) -> Result<String, String> {
        if rest.is_empty() {
            return Err("usage: mem ADDR [LEN]".into());
        }
        if let Some((page, rest)) = Self::paged_arg(rest) {
            return self.in_page(page, |s| s.cmd_mem(&rest));
        }
        let (addr, more) = self.addr_prefix(rest)?;
        let len = self.count(more, 64)?;
        if len > 4096 {
            return Err("at most 4096 bytes at a time".into());
        }
        if addr as u64 + len > 0x10000 {
            return Err(format!(
                "{len} bytes from {addr:04X}h run past the end of the address space"
            ));
        }
        Ok(views::dump(&self.dbg.m.bus.mem, addr, len as usize, 16).join("\n") + "\n")
    }

    pub(super) fn cmd_print(&mut self, rest: &str) -> Result<String, String> {
        if rest.is_empty() {
            return Err("usage: print EXPR".into());
        }
        let v = self.eval(rest)?;
        let mut s = format!("= {v}");
        if v < 0 {
            let _ = write!(s, " (0x{:X})", v as u64);
        } else if v < 0x100 {
            let _ = write!(s, " (0x{v:02X})");
            if (0x20..0x7F).contains(&v) {
                let _ = write!(s, " '{}'", v as u8 as char);
            }
        } else if v <= 0xFFFF {
            let _ = write!(s, " (0x{v:04X})");
            if let Some(d) = self.dbg.prog.describe(v as u16) {
                let _ = write!(s, " <{d}>");
            }
        } else {
            let _ = write!(s, " (0x{v:X})");
        }
        s.push('\n');
        Ok(s)
    }

    pub(super) fn cmd_set(&mut self, rest: &str) -> Result<String, String> {
        let b = rest.as_bytes();
        let eq = (0..b.len()).find(|&i| {
            b[i] == b'='
                && b.get(i + 1) != Some(&b'=')
                && (i == 0 || !matches!(b[i - 1], b'=' | b'<' | b'>' | b'!'))
        });
        let Some(eq) = eq else {
            return Err("usage: set TARGET = EXPR  (a register, $Z..., (ADDR), w(ADDR))".into());
        };
        let target = expr::parse(rest[..eq].trim(), &self.dbg.prog, false)?;
        let value = self.eval(rest[eq + 1..].trim())?;
        let (ic, depth) = (self.dbg.icount(), self.dbg.track.depth());
        // Check on a copy first: a refused assignment must not become an event.
        let mut cpu = self.dbg.m.cpu.clone();
        let mut probe = Box::new(self.dbg.m.bus.mem);
        expr::assign(&target, value, &mut cpu, &mut probe, ic, depth)?;
        let msg = self.dbg.edit(|m| {
            let mem: &mut [u8; 0x10000] = &mut m.bus.mem;
            expr::assign(&target, value, &mut m.cpu, mem, ic, depth)
        })?;
        Ok(format!("{msg}\n"))
    }

    pub(super) fn cmd_write(&mut self, rest: &str) -> Result<String, String> {
        let (addr, more) = self.addr_prefix(rest)?;
        let mut bytes = Vec::new();
        for tok in more
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let v = self.eval(tok)?;
            if !(-128..=255).contains(&v) {
                return Err(format!("{v} is not a byte"));
            }
            bytes.push(v as u8);
        }
        if bytes.is_empty() {
            return Err("usage: write ADDR BYTE...".into());
        }
        if addr as usize + bytes.len() > 0x10000 {
            return Err("the bytes run past the end of the address space".into());
        }
        self.dbg.edit(|m| {
            m.bus.mem[addr as usize..addr as usize + bytes.len()].copy_from_slice(&bytes)
        });
        Ok(format!(
            "wrote {} byte{} at {}\n",
            bytes.len(),
            if bytes.len() == 1 { "" } else { "s" },
            self.dbg.prog.addr_text(addr)
        ))
    }

    /// The attacker array's address: ATKLST, or a given one.
    pub fn atklst(&self, rest: &str) -> Result<u16, String> {
        if rest.is_empty() {
            self.dbg.prog.symbols.value_of("ATKLST").ok_or_else(|| {
                "this build has no ATKLST symbol yet (give an address: attackers ADDR)".to_string()
            })
        } else {
            self.eval_addr(rest)
        }
    }

    pub(super) fn cmd_attackers(&mut self, rest: &str) -> Result<String, String> {
        let a = self.atklst(rest)?;
        if a as usize + 14 > 0x10000 {
            return Err("the 14-byte array would run past FFFFh".into());
        }
        let mut bytes = [0u8; 14];
        bytes.copy_from_slice(&self.dbg.m.bus.mem[a as usize..a as usize + 14]);
        Ok(views::attackers(&bytes, a).join("\n") + "\n")
    }

    pub(super) fn cmd_moves(&mut self, rest: &str) -> Result<String, String> {
        if rest.is_empty() {
            return Ok(views::current_moves(&self.dbg)?.join("\n") + "\n");
        }
        let (first, more) = self.addr_prefix(rest)?;
        let end = if more.is_empty() {
            None
        } else {
            Some(self.eval_addr(more)?)
        };
        Ok(views::move_entries(&self.dbg.m.bus.mem, first, end).join("\n") + "\n")
    }

    pub(super) fn stopwatches(&self) -> String {
        if self.dbg.stopwatches.is_empty() {
            return "No stopwatches ('stopwatch NAME FROM [TO]').\n".into();
        }
        let mut s = String::from(
            "Name          From -> To                          Count         Min         Max        Mean\n",
        );
        for w in &self.dbg.stopwatches {
            let span = format!("{} -> {}", w.from_text, w.to_text);
            if w.count == 0 {
                let _ = writeln!(s, "{:<13} {span:<30} {:>7}", w.name, 0);
            } else {
                let mean = w.total as f64 / w.count as f64;
                let _ = writeln!(
                    s,
                    "{:<13} {span:<30} {:>7} {:>9} T {:>9} T {:>9.1} T  ({} per call)",
                    w.name,
                    w.count,
                    w.min,
                    w.max,
                    mean,
                    views::seconds(mean.round() as i128)
                );
            }
            if w.running() > 0 {
                let _ = writeln!(s, "              ({} running)", w.running());
            }
        }
        s
    }

    pub(super) fn cmd_stopwatch(&mut self, rest: &str) -> Result<String, String> {
        if rest.is_empty() {
            return Ok(self.stopwatches());
        }
        let (name, args) = split_word(rest);
        match name {
            "reset" => {
                for w in self
                    .dbg
                    .stopwatches
                    .iter_mut()
                    .filter(|w| args.is_empty() || w.name == args)
                {
                    w.reset();
                }
                return Ok(String::new());
            }
            "delete" => {
                let n = self.dbg.stopwatches.len();
                self.dbg.stopwatches.retain(|w| w.name != args);
                if n == self.dbg.stopwatches.len() {
                    return Err(format!("no stopwatch '{args}'"));
                }
                return Ok(String::new());
            }
            _ => {}
        }
        let (from, to) = split_word(args);
        if from.is_empty() {
            return Err("usage: stopwatch NAME FROM [TO]".into());
        }
        let (a, at) = self.location(from)?;
        let (b, bt) = if to.is_empty() {
            (None, "return".to_string())
        } else {
            let (b, bt) = self.location(to)?;
            (Some(b), bt)
        };
        self.dbg.stopwatches.retain(|w| w.name != name);
        self.dbg
            .stopwatches
            .push(Stopwatch::new(name, a, b, &at, &bt));
        Ok(format!(
            "Stopwatch '{name}': from {} to {}\n",
            self.dbg.prog.addr_text(a),
            match b {
                Some(b) => self.dbg.prog.addr_text(b),
                None => "the return of that call".into(),
            }
        ))
    }
}
