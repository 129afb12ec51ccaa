//! The run commands: step, next, finish, until, advance, continue, their reverse forms,
//! goto and the cycle limit.

use super::*;

impl Session {
    /// A run command's answer (`word`: `cmd` in lower case); any other word is unknown.
    pub(super) fn cmd_run(&mut self, cmd: &str, word: &str, rest: &str) -> Result<String, String> {
        match word {
            "step" | "s" | "si" | "stepi" => {
                let n = self.count(rest, 1)?;
                if n == 0 {
                    return Ok(String::new());
                }
                Ok(self.go(Goal::Steps(n), ""))
            }
            "next" | "n" | "ni" | "nexti" => {
                let n = self.count(rest, 1)?;
                if n == 0 {
                    return Ok(String::new());
                }
                let goal = self.next_goal();
                Ok(self.go_on(goal, "", n - 1))
            }
            "finish" | "fin" => {
                let d = self.dbg.track.depth();
                if d == 0 {
                    return Err(
                        "\"finish\" not meaningful in the outermost frame (no call in progress)"
                            .into(),
                    );
                }
                let f = self.dbg.track.frames()[d - 1];
                let name = self
                    .dbg
                    .prog
                    .label_at(f.target)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{:04X}h", f.target));
                let head = format!("Run till exit from #0 {name}\n");
                Ok(self.go(Goal::Finish { depth: d }, &head))
            }
            "until" | "u" => {
                let depth = self.dbg.track.depth();
                let start_pc = self.dbg.m.cpu.pc;
                let addr = if rest.is_empty() {
                    None
                } else {
                    Some(self.location(rest)?.0)
                };
                Ok(self.go(
                    Goal::Until {
                        addr,
                        depth,
                        start_pc,
                    },
                    "",
                ))
            }
            "advance" => {
                let (addr, _) = self.location(rest)?;
                let depth = self.dbg.track.depth();
                Ok(self.go(Goal::Advance { addr, depth }, ""))
            }
            "continue" | "c" | "cont" | "run" => {
                if !rest.is_empty() {
                    return Err("'continue' takes no argument (use 'ignore N COUNT')".into());
                }
                Ok(self.go(Goal::Continue, ""))
            }
            _ => self.cmd_reverse(cmd, word, rest),
        }
    }

    /// The reverse run commands, `goto` and `limit`; any other word is unknown.
    fn cmd_reverse(&mut self, cmd: &str, word: &str, rest: &str) -> Result<String, String> {
        match word {
            "reverse-step" | "rs" | "rsi" | "reverse-stepi" => {
                let n = self.count(rest, 1)?;
                let stop = self.dbg.reverse_step(n);
                Ok(self.report(&stop, ""))
            }
            "reverse-next" | "rn" | "rni" | "reverse-nexti" => {
                let n = self.count(rest, 1)?;
                if n > 10_000 {
                    return Err("at most 10000 reverse-next steps at a time".into());
                }
                let mut stop = Stop::default();
                for _ in 0..n {
                    stop = self.dbg.reverse_next();
                    if stop.history_start {
                        break;
                    }
                }
                Ok(self.report(&stop, ""))
            }
            "reverse-finish" | "rf" => {
                let stop = self.dbg.reverse_finish()?;
                Ok(self.report(&stop, ""))
            }
            "reverse-continue" | "rc" => {
                let stop = self.dbg.reverse_continue();
                Ok(self.report(&stop, ""))
            }
            "goto" => {
                let n = self.count(rest, u64::MAX)?;
                if n == u64::MAX {
                    return Err("usage: goto ICOUNT".into());
                }
                self.dbg.goto(n)?;
                let stop = Stop {
                    goal: true,
                    ..Stop::default()
                };
                Ok(self.report(&stop, ""))
            }
            "limit" => {
                if !rest.is_empty() {
                    self.dbg.limit = self.count(rest, DEFAULT_LIMIT)?;
                }
                Ok(if self.dbg.limit == 0 {
                    "no cycle limit\n".into()
                } else {
                    format!(
                        "a run command stops after {}\n",
                        views::tstates(self.dbg.limit)
                    )
                })
            }
            _ => Err(format!("unknown command '{cmd}' (try 'help')")),
        }
    }

    /// `memview [ADDR | hl]`: the full-screen memory pane's address.
    pub(super) fn cmd_memview(&mut self, rest: &str) -> Result<String, String> {
        self.mem_addr = if rest.is_empty() || rest.eq_ignore_ascii_case("hl") {
            None
        } else {
            Some(self.eval_addr(rest)?)
        };
        Ok(match self.mem_addr {
            Some(a) => format!("the memory pane shows {}\n", self.dbg.prog.addr_text(a)),
            None => "the memory pane follows HL\n".into(),
        })
    }

    /// `layout src|asm`: the full-screen code pane.
    pub(super) fn cmd_layout(&mut self, rest: &str) -> Result<String, String> {
        self.layout = match rest {
            "src" | "source" => Layout::Source,
            "asm" | "dis" => Layout::Asm,
            _ => return Err("usage: layout src|asm".into()),
        };
        Ok(String::new())
    }
}
