//! Breakpoints, watchpoints and catchpoints: setting, deleting, enabling, conditions.

use super::*;

impl Session {
    pub(super) fn cond(
        &self,
        text: Option<&str>,
        access: bool,
    ) -> Result<Option<(expr::Expr, String)>, String> {
        match text {
            None => Ok(None),
            Some("") => Err("'if' must be followed by a condition".into()),
            Some(c) => {
                let e = expr::parse(c, &self.dbg.prog, access)?;
                Ok(Some((e, c.to_string())))
            }
        }
    }

    pub(super) fn cmd_break(&mut self, rest: &str, temp: bool) -> Result<String, String> {
        let (loc, cond) = split_cond(rest);
        let (addr, desc) = if loc.is_empty() {
            let pc = self.dbg.m.cpu.pc;
            (pc, format!("{pc:04X}h"))
        } else {
            self.location(loc)?
        };
        let cond = self.cond(cond, false)?;
        let p = &self.dbg.prog;
        // A location in an expansion page (P:ADDR, a page's label) hits only in that page;
        // it is described as that page sees it.
        let page = if loc.is_empty() {
            p.page_of_addr(addr)
        } else {
            p.location_page(loc)
        };
        let view = p.page_of_addr(0x8000);
        p.set_view(page.or(view));
        let mut warn = String::new();
        let rom_end = p.image_end(addr);
        if (addr as usize) < rom_end && !p.is_statement(addr) && !p.files.is_empty() {
            warn = "\n  note: no instruction of the source starts there".into();
        } else if (addr as usize) >= rom_end {
            warn = "\n  note: that address is outside the ROM image".into();
        }
        let src = p
            .line_near(addr)
            .map(|(f, l)| format!(", {}", p.line_name(f, l)))
            .unwrap_or_default();
        let at = p.addr_text(addr);
        p.set_view(view);
        let ctext = cond
            .as_ref()
            .map(|c| format!(" if {}", c.1))
            .unwrap_or_default();
        let id = self
            .dbg
            .add_bp(BpKind::Code { addr }, desc.clone(), cond, temp);
        if page.is_some() {
            self.dbg.bp_mut(id)?.page = page;
        }
        Ok(format!(
            "{} {id} at {at}{src}{ctext}{warn}\n",
            if temp {
                "Temporary breakpoint"
            } else {
                "Breakpoint"
            }
        ))
    }

    pub(super) fn cmd_watch(
        &mut self,
        rest: &str,
        read: bool,
        write: bool,
    ) -> Result<String, String> {
        let (range, cond) = split_cond(rest);
        if range.is_empty() {
            return Err("usage: watch ADDR | watch START..END | watch ADDR LEN  [if COND]".into());
        }
        let (start, end) = if let Some((a, b)) = range.split_once("..") {
            let s = self.eval_addr(a)?;
            let e = self.eval(b)?;
            if e <= s as i64 || e > 0x10000 {
                return Err(format!(
                    "'{range}': the end ({e}) must be above the start and at most 0x10000"
                ));
            }
            (s, (e - 1) as u16)
        } else {
            let (s, more) = self.addr_prefix(range)?;
            if more.is_empty() {
                (s, s)
            } else {
                let n = self.count(more, 1)?;
                if n == 0 || s as u64 + n > 0x10000 {
                    return Err(format!(
                        "a length of {n} at {s:04X}h does not fit in the address space"
                    ));
                }
                (s, (s as u64 + n - 1) as u16)
            }
        };
        let cond = self.cond(cond, true)?;
        let kind = match (read, write) {
            (true, true) => "Access watchpoint",
            (true, false) => "Read watchpoint",
            _ => "Watchpoint",
        };
        let p = &self.dbg.prog;
        let what = if start == end {
            p.addr_text(start)
        } else {
            format!(
                "{}..{} ({} bytes)",
                p.addr_text(start),
                p.addr_text(end),
                end as u32 - start as u32 + 1
            )
        };
        let ctext = cond
            .as_ref()
            .map(|c| format!(" if {}", c.1))
            .unwrap_or_default();
        let id = self.dbg.add_bp(
            BpKind::Watch {
                start,
                end,
                read,
                write,
            },
            range.to_string(),
            cond,
            false,
        );
        Ok(format!("{kind} {id}: {what}{ctext}\n"))
    }

    pub(super) fn cmd_catch(&mut self, rest: &str) -> Result<String, String> {
        let (spec, cond) = split_cond(rest);
        let (dir, port) = split_word(spec);
        let (input, output) = match dir.to_ascii_lowercase().as_str() {
            "in" => (true, false),
            "out" => (false, true),
            "io" | "port" => (true, true),
            _ => return Err("usage: catch in|out|io [PORT] [if COND]".into()),
        };
        let port = if port.is_empty() {
            None
        } else {
            let v = self.eval(port)?;
            Some(u8::try_from(v).map_err(|_| format!("port {v} is out of range 0..0xFF"))?)
        };
        let cond = self.cond(cond, true)?;
        let ctext = cond
            .as_ref()
            .map(|c| format!(" if {}", c.1))
            .unwrap_or_default();
        let id = self.dbg.add_bp(
            BpKind::Catch {
                port,
                input,
                output,
            },
            spec.to_string(),
            cond,
            false,
        );
        Ok(format!(
            "Catchpoint {id}: {} {}{ctext}\n",
            match (input, output) {
                (true, true) => "IN and OUT",
                (true, false) => "IN",
                _ => "OUT",
            },
            port.map(|p| format!("port {p:02X}h"))
                .unwrap_or_else(|| "any port".into())
        ))
    }

    pub(super) fn ids(&self, rest: &str) -> Result<Vec<u32>, String> {
        if rest.is_empty() {
            return Ok(self.dbg.bps.iter().map(|b| b.id).collect());
        }
        rest.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                let id: u32 = t
                    .parse()
                    .map_err(|_| format!("'{t}' is not a breakpoint number"))?;
                self.dbg
                    .bps
                    .iter()
                    .any(|b| b.id == id)
                    .then_some(id)
                    .ok_or_else(|| format!("no breakpoint number {id}"))
            })
            .collect()
    }

    pub(super) fn cmd_delete(&mut self, rest: &str) -> Result<String, String> {
        let ids = self.ids(rest)?;
        self.dbg.bps.retain(|b| !ids.contains(&b.id));
        self.dbg.bps_changed();
        Ok(match ids.len() {
            0 => "no breakpoints to delete\n".into(),
            1 => format!("deleted breakpoint {}\n", ids[0]),
            n => format!("deleted {n} breakpoints\n"),
        })
    }

    pub(super) fn cmd_enable(&mut self, rest: &str, on: bool) -> Result<String, String> {
        let ids = self.ids(rest)?;
        for b in self.dbg.bps.iter_mut().filter(|b| ids.contains(&b.id)) {
            b.enabled = on;
        }
        self.dbg.bps_changed();
        Ok(String::new())
    }

    pub(super) fn cmd_ignore(&mut self, rest: &str) -> Result<String, String> {
        let (id, n) = split_word(rest);
        let id: u32 = id
            .parse()
            .map_err(|_| "usage: ignore N COUNT".to_string())?;
        let n = self.count(n, u64::MAX)?;
        if n == u64::MAX {
            return Err("usage: ignore N COUNT".into());
        }
        self.dbg.bp_mut(id)?.ignore = n;
        Ok(format!(
            "Will ignore the next {n} crossings of breakpoint {id}.\n"
        ))
    }

    pub(super) fn cmd_condition(&mut self, rest: &str) -> Result<String, String> {
        let (id, c) = split_word(rest);
        let id: u32 = id
            .parse()
            .map_err(|_| "usage: condition N [COND]".to_string())?;
        let access = !matches!(self.dbg.bp_mut(id)?.kind, BpKind::Code { .. });
        let cond = if c.is_empty() {
            None
        } else {
            self.cond(Some(c), access)?
        };
        let bp = self.dbg.bp_mut(id)?;
        bp.cond = cond;
        Ok(if c.is_empty() {
            format!("Breakpoint {id} now unconditional.\n")
        } else {
            String::new()
        })
    }
}
