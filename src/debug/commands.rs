//! The command language: one line in, text out. Used by the prompt, scripts, the
//! full-screen mode and the tests alike. Errors are reported as `error: ...` and the session
//! goes on.

use super::engine::{BpKind, Debugger, Goal, Hit, HitWhat, Stop, Stopwatch, DEFAULT_LIMIT};
use super::expr::{self, Env};
use super::program::Program;
use super::views;
use crate::firmware::{parse_fen, Build};
use crate::machine::StopReason;
use std::fmt::Write as _;

mod breakpoints;
mod inspect;
mod run;
mod send;
use send::decode_reply;

/// How a firmware session starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The initial position.
    Initial,
    /// A FEN, sent with the set-up command.
    Fen(String),
    /// Moves (UCI or SAN) from the initial position, each sent with the move command.
    Moves(String),
}

/// What the code pane of the full-screen mode shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Source,
    Asm,
}

/// A debugging session.
pub struct Session {
    pub dbg: Debugger,
    /// T-state counter at the previous stop.
    last_stop_t: u64,
    /// The firmware command whose reply is awaited: (command byte, what was sent).
    pending: Option<(u8, String)>,
    /// Set by `quit`.
    pub quit: bool,
    /// Set by `tui`: the front end should switch to the full-screen mode.
    pub tui_requested: bool,
    pub layout: Layout,
    /// The memory pane's address in the full-screen mode (None: follow HL).
    pub mem_addr: Option<u16>,
    /// Commands that failed.
    pub errors: usize,
    /// The last thing a stop or a view said, for the full-screen mode's status line.
    pub status: String,
    /// The commands a person typed, at the prompt and in the full-screen mode, oldest first:
    /// the history both recall, saved when the debugger ends.
    pub history: Vec<String>,
    /// The run command in progress, when one goes on in slices ([`Session::start`]).
    running: Option<Running>,
    /// Run commands return at once and go on in [`Session::advance`].
    in_slices: bool,
}

/// A run command going on in slices: its goal, the cycle limit's T-state, what its report
/// begins with, and how many more `next`s it has to run after this one.
struct Running {
    goal: Goal,
    limit_t: u64,
    head: String,
    more_nexts: u64,
}

const PROMPT_WORDS: &[(&str, &str, &str)] = &[
    ("break", "LOC [if COND]", "breakpoint at an address, label or file:line (alias b)"),
    ("tbreak", "LOC [if COND]", "breakpoint deleted at its first stop"),
    ("watch", "ADDR[..END | LEN] [if COND]", "stop after a write that changes a byte of the range ($old, $new, $addr)"),
    ("rwatch", "ADDR[..END | LEN] [if COND]", "stop after a read of the range"),
    ("awatch", "ADDR[..END | LEN] [if COND]", "stop after a read or a write"),
    ("catch", "in|out|io [PORT] [if COND]", "stop after port input/output ($port, $value)"),
    ("delete", "[N...]", "delete breakpoints (all without N)"),
    ("disable", "[N...]", "disable breakpoints"),
    ("enable", "[N...]", "enable breakpoints"),
    ("ignore", "N COUNT", "do not stop at breakpoint N for its next COUNT hits"),
    ("condition", "N [COND]", "set or remove breakpoint N's condition"),
    ("info", "breakpoints|registers|stopwatches|snapshots|state|line LOC|symbol ADDR", "what the debugger knows"),
    ("step", "[N]", "one instruction (or N); alias s, si"),
    ("next", "[N]", "one instruction, over CALL/RST and block repeats; alias n, ni"),
    ("finish", "", "run until the current call returns (RET cc included)"),
    ("until", "[LOC]", "run to LOC in this frame, or past this loop; stops when the frame returns"),
    ("advance", "LOC", "run to LOC at any depth (or until the frame returns)"),
    ("continue", "", "run until a breakpoint, the firmware waiting, a fault or the limit; alias c"),
    ("reverse-step", "[N]", "back one instruction (or N); alias rs"),
    ("reverse-next", "[N]", "back over calls; alias rn"),
    ("reverse-finish", "", "back to the CALL of the current frame; alias rf"),
    ("reverse-continue", "", "back to the previous breakpoint/watchpoint hit; alias rc"),
    ("goto", "ICOUNT", "to the state after ICOUNT instructions (within the history)"),
    ("limit", "[T]", "T-states one run command may spend (0 = none)"),
    ("regs", "", "registers, flags, IFF, IM, MEMPTR, T-states; alias r"),
    ("dis", "[ADDR] [N]", "disassemble with labels and source lines (ADDR may be P:ADDR)"),
    ("list", "[LOC]", "source around the PC or LOC; alias l"),
    ("mem", "ADDR [LEN]", "hex dump (ADDR may be P:ADDR); alias x"),
    ("print", "EXPR", "evaluate: registers, symbols, (memory), w(word), arithmetic; alias p"),
    ("set", "TARGET = EXPR", "set a register, flag ($Z), (ADDR) or w(ADDR)"),
    ("write", "ADDR BYTE...", "store bytes into memory"),
    ("bt", "", "call stack from CALL/RET tracking; alias backtrace, where"),
    ("board", "", "the firmware's 10x12 board"),
    ("attackers", "[ADDR]", "the 14-byte attacker array (ATKLST), per side"),
    ("moves", "[ADDR [END]]", "the current ply's move list (or the entries at ADDR)"),
    ("stopwatch", "[NAME FROM [TO] | reset [NAME] | delete NAME]", "T-states between two labels (TO omitted: until FROM's call returns)"),
    ("send", "CMD [ARGS]", "send a firmware command and run it under the debugger: ident, new, board, list, status, undo, eval, perft N, move UCI, setup FEN, attack SQ, xchng SQ, xarray PIECE B0..B13, moveno N, search LEVEL [iterate], raw BYTE..."),
    ("tui", "", "full-screen mode (Esc leaves it)"),
    ("layout", "src|asm", "the full-screen code pane"),
    ("memview", "[ADDR | hl]", "the full-screen memory pane's address (default: follow HL)"),
    ("quit", "", "leave; alias q, exit"),
];

fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

/// Split `... if COND` (the word `if` on its own).
fn split_cond(s: &str) -> (&str, Option<&str>) {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(k) = s[i..].find("if") {
        let at = i + k;
        let before_ok = at == 0 || b[at - 1].is_ascii_whitespace();
        let after_ok = at + 2 == b.len() || b[at + 2].is_ascii_whitespace();
        if before_ok && after_ok {
            return (s[..at].trim(), Some(s[at + 2..].trim()));
        }
        i = at + 2;
    }
    (s.trim(), None)
}

fn hex_bytes(v: &[u8], max: usize) -> String {
    let mut s: Vec<String> = v.iter().take(max).map(|b| format!("{b:02X}")).collect();
    if v.len() > max {
        s.push(format!("... ({} bytes)", v.len()));
    }
    s.join(" ")
}

impl Session {
    fn with(dbg: Debugger) -> Session {
        let t = dbg.m.cpu.t;
        Session {
            dbg,
            last_stop_t: t,
            pending: None,
            quit: false,
            tui_requested: false,
            layout: Layout::Source,
            mem_addr: None,
            errors: 0,
            history: Vec::new(),
            status: String::new(),
            running: None,
            in_slices: false,
        }
    }

    /// A program at reset (PC = 0000h), nothing run yet.
    pub fn program(prog: Program) -> Result<Session, String> {
        Ok(Session::with(Debugger::new(prog)?))
    }

    /// What the session says when it starts.
    pub fn banner(&self) -> String {
        let p = &self.dbg.prog;
        let mut s = format!(
            "z80chess debugger: {} ({} bytes of ROM, {} symbols, {} source files)\n",
            match p.firmware {
                Some(b) => format!("firmware build {b}"),
                None => format!("program {}", p.name),
            },
            p.rom.len(),
            p.symbols.len(),
            p.files.len()
        );
        if p.firmware.is_some() {
            let _ = writeln!(
                s,
                "The firmware is at its command loop, waiting for the host: 'send perft 1', 'send list', 'send move e2e4' ..."
            );
        }
        s.push_str(&self.where_line());
        s.push_str("Type 'help' for the commands.\n");
        s
    }

    /// The current instruction and the counters.
    pub fn where_line(&self) -> String {
        let mut s = String::new();
        let c = &self.dbg.m.cpu;
        let _ = writeln!(
            s,
            "at T-state {} ({}), instruction {}",
            c.t,
            views::seconds(c.t as i128),
            self.dbg.icount()
        );
        s.push_str(&self.here());
        s
    }

    /// Run a script: each line echoed after the prompt, then its output.
    pub fn run_script(&mut self, text: &str) -> String {
        let mut out = String::new();
        for line in text.lines() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if t.starts_with('#') {
                let _ = writeln!(out, "{t}");
                continue;
            }
            let _ = writeln!(out, "(z80db) {t}");
            out.push_str(&self.execute(t));
            if self.quit {
                break;
            }
        }
        out
    }

    /// Execute one command line; its output (errors as `error: ...`). A run command runs to
    /// its end.
    pub fn execute(&mut self, line: &str) -> String {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return String::new();
        }
        if self.running.is_some() {
            self.errors += 1;
            return "error: a run is going on (stop it first)\n".into();
        }
        match self.dispatch(line) {
            Ok(s) => {
                if !s.is_empty() {
                    self.status = s.lines().next().unwrap_or("").to_string();
                }
                s
            }
            Err(e) => {
                self.errors += 1;
                self.status = format!("error: {e}");
                format!("error: {e}\n")
            }
        }
    }

    fn env(&self) -> Env<'_> {
        Env {
            cpu: &self.dbg.m.cpu,
            mem: &self.dbg.m.bus.mem,
            icount: self.dbg.icount(),
            depth: self.dbg.track.depth(),
            access: None,
        }
    }

    /// Evaluate an expression now.
    pub fn eval(&self, text: &str) -> Result<i64, String> {
        let e = expr::parse(text, &self.dbg.prog, false)?;
        expr::eval(&e, &self.env())
    }

    fn eval_addr(&self, text: &str) -> Result<u16, String> {
        let v = self.eval(text)?;
        u16::try_from(v).map_err(|_| format!("address {v} is out of range 0..0xFFFF"))
    }

    /// An address and the rest of the text after it.
    fn addr_prefix<'t>(&self, text: &'t str) -> Result<(u16, &'t str), String> {
        let (e, used) = expr::parse_prefix(text, &self.dbg.prog, false)?;
        let v = expr::eval(&e, &self.env())?;
        let a = u16::try_from(v).map_err(|_| format!("address {v} is out of range 0..0xFFFF"))?;
        Ok((a, text[used..].trim()))
    }

    fn count(&self, text: &str, default: u64) -> Result<u64, String> {
        if text.trim().is_empty() {
            return Ok(default);
        }
        let v = self.eval(text)?;
        u64::try_from(v).map_err(|_| format!("'{text}' is not a count (it is {v})"))
    }

    /// A code location: `file.asm:LINE` or an address expression (labels, numbers...).
    pub fn location(&self, text: &str) -> Result<(u16, String), String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("a location is missing (an address, a label or file.asm:LINE)".into());
        }
        if let Some((page, addr)) = Program::paged_location(text) {
            return Ok((addr, Program::addr_name(Some(page), addr)));
        }
        if let Some((file, line)) = text.rsplit_once(':') {
            let line: u32 = line
                .trim()
                .parse()
                .map_err(|_| format!("'{text}': expected FILE:LINE with a line number"))?;
            let f = self.dbg.prog.find_file(file.trim())?;
            let (addr, l) = self.dbg.prog.addr_of_line(f, line)?;
            let mut desc = self.dbg.prog.line_name(f, l);
            if l != line {
                desc = format!("{desc} (the first code after line {line})");
            }
            return Ok((addr, desc));
        }
        let a = self.eval_addr(text)?;
        Ok((a, text.to_string()))
    }

    fn dispatch(&mut self, line: &str) -> Result<String, String> {
        let (cmd, rest) = split_word(line);
        let word = cmd.to_ascii_lowercase();
        match word.as_str() {
            "help" | "h" | "?" => Ok(self.help(rest)),
            "quit" | "q" | "exit" => {
                self.quit = true;
                Ok(String::new())
            }
            "break" | "b" | "br" => self.cmd_break(rest, false),
            "tbreak" => self.cmd_break(rest, true),
            "watch" => self.cmd_watch(rest, false, true),
            "rwatch" => self.cmd_watch(rest, true, false),
            "awatch" => self.cmd_watch(rest, true, true),
            "catch" => self.cmd_catch(rest),
            "delete" | "d" => self.cmd_delete(rest),
            "disable" => self.cmd_enable(rest, false),
            "enable" => self.cmd_enable(rest, true),
            "ignore" => self.cmd_ignore(rest),
            "condition" | "cond" => self.cmd_condition(rest),
            "info" | "i" => self.cmd_info(rest),
            "regs" | "r" | "registers" => Ok(self.regs()),
            "dis" | "disassemble" | "disas" => self.cmd_dis(rest),
            "list" | "l" => self.cmd_list(rest),
            "mem" | "x" | "m" => self.cmd_mem(rest),
            "print" | "p" => self.cmd_print(rest),
            "set" => self.cmd_set(rest),
            "write" => self.cmd_write(rest),
            "bt" | "backtrace" | "where" => Ok(self.bt()),
            "board" => Ok(views::board(&self.dbg.prog, &self.dbg.m.bus.mem)?.join("\n") + "\n"),
            "attackers" | "atk" => self.cmd_attackers(rest),
            "moves" => self.cmd_moves(rest),
            "stopwatch" | "sw" => self.cmd_stopwatch(rest),
            "send" => self.cmd_send(rest),
            "tui" => {
                self.tui_requested = true;
                Ok(String::new())
            }
            "memview" => self.cmd_memview(rest),
            "layout" => self.cmd_layout(rest),
            _ => self.cmd_run(cmd, &word, rest),
        }
    }

    fn help(&self, topic: &str) -> String {
        let mut s = String::new();
        if !topic.is_empty() {
            let t = topic.to_ascii_lowercase();
            for (name, args, what) in PROMPT_WORDS {
                if *name == t {
                    return format!("{name} {args}\n    {what}\n");
                }
            }
            if t == "expr" || t == "expressions" {
                return EXPR_HELP.to_string();
            }
            return format!("no command '{topic}' (try 'help')\n");
        }
        s.push_str("Commands (a blank line repeats the last one at the prompt):\n");
        for (name, args, what) in PROMPT_WORDS {
            let _ = writeln!(s, "  {:<34} {what}", format!("{name} {args}").trim_end());
        }
        s.push_str("Locations: 0x1234, 1234h, GENMOV, GENMOV+3, movegen.asm:42. 'help expr' for expressions.\n");
        s
    }

    fn next_goal(&self) -> Goal {
        let cpu = &self.dbg.m.cpu;
        let mem = &self.dbg.m.bus.mem;
        let op = |k: u16| mem[cpu.pc.wrapping_add(k) as usize];
        let block = op(0) == 0xED && matches!(op(1), 0xB0..=0xB3 | 0xB8..=0xBB);
        Goal::Next {
            depth: self.dbg.track.depth(),
            block_pc: block.then_some(cpu.pc),
        }
    }

    /// Start a command line as [`Session::execute`] does, except that a run command (`step`,
    /// `next`, `finish`, `until`, `advance`, `continue`, `send`) returns at once with nothing
    /// to say and goes on in [`Session::advance`], which gives its report when it ends.
    pub fn start(&mut self, line: &str) -> String {
        self.in_slices = true;
        let out = self.execute(line);
        self.in_slices = false;
        out
    }

    /// Is a run command going on (started by [`Session::start`])?
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// Go on with the run command in progress for about `slice` T-states: its report when it
    /// ended, `None` while it goes on (or when nothing runs). Between two calls the machine is
    /// between two instructions, its history recorded, as after any stop.
    pub fn advance(&mut self, slice: u64) -> Option<String> {
        let mut r = self.running.take()?;
        let end = self.dbg.m.cpu.t.saturating_add(slice);
        loop {
            let Some(stop) = self.dbg.run_slice(&mut r.goal, r.limit_t, end) else {
                self.running = Some(r);
                return None;
            };
            if r.more_nexts > 0 && stop.goal && stop.hits.is_empty() && !stop.limit {
                r.more_nexts -= 1;
                r.goal = self.next_goal();
                continue;
            }
            let out = self.report(&stop, &r.head);
            self.status = out.lines().next().unwrap_or("").to_string();
            return Some(out);
        }
    }

    /// Stop the run command in progress where it is, between two instructions: its report
    /// (`Interrupted.`), or `None` when nothing runs.
    pub fn interrupt(&mut self) -> Option<String> {
        let r = self.running.take()?;
        let stop = Stop {
            interrupted: true,
            ..Stop::default()
        };
        let out = self.report(&stop, &r.head);
        self.status = out.lines().next().unwrap_or("").to_string();
        Some(out)
    }

    /// Run `goal` (and `more_nexts` further `next`s after it): to its end, or, started by
    /// [`Session::start`], in slices.
    fn go_on(&mut self, goal: Goal, head: &str, more_nexts: u64) -> String {
        super::engine::INTERRUPT.store(false, std::sync::atomic::Ordering::Relaxed);
        self.running = Some(Running {
            goal,
            limit_t: self.dbg.limit_t(),
            head: head.to_string(),
            more_nexts,
        });
        if self.in_slices {
            return String::new();
        }
        self.advance(u64::MAX).unwrap_or_default()
    }

    fn go(&mut self, goal: Goal, head: &str) -> String {
        self.go_on(goal, head, 0)
    }

    fn hit_text(&self, h: &Hit) -> String {
        let p = &self.dbg.prog;
        let mut s = match h.what {
            HitWhat::Code { pc } => {
                let src = p
                    .line_near(pc)
                    .map(|(f, l)| format!(" at {}", p.line_name(f, l)))
                    .unwrap_or_default();
                format!("Breakpoint {}, {}{src}", h.id, p.addr_text(pc))
            }
            HitWhat::Mem {
                write,
                addr,
                old,
                new,
                pc,
            } => {
                if write {
                    format!(
                        "Watchpoint {}: write {}  old {old:02X}h  new {new:02X}h  (by {})",
                        h.id,
                        p.addr_text(addr),
                        p.addr_text(pc)
                    )
                } else {
                    format!(
                        "Watchpoint {}: read {} = {new:02X}h  (by {})",
                        h.id,
                        p.addr_text(addr),
                        p.addr_text(pc)
                    )
                }
            }
            HitWhat::Port {
                input,
                port,
                value,
                pc,
            } => {
                if input {
                    format!(
                        "Catchpoint {}: IN from port {:02X}h -> {value:02X}h  (by {})",
                        h.id,
                        port as u8,
                        p.addr_text(pc)
                    )
                } else {
                    format!(
                        "Catchpoint {}: OUT to port {:02X}h <- {value:02X}h  (by {})",
                        h.id,
                        port as u8,
                        p.addr_text(pc)
                    )
                }
            }
        };
        if let Some(bp) = self.dbg.bps.iter().find(|b| b.id == h.id) {
            if bp.hits > 1 {
                let _ = write!(s, "  [hit {} times]", bp.hits);
            }
        }
        if let Some(e) = &h.cond_error {
            let _ = write!(s, "\n  (error in the condition: {e}; stopped anyway)");
        }
        s
    }

    /// What a stop says: why, the T-states since the last stop and in total, and where.
    pub fn report(&mut self, stop: &Stop, head: &str) -> String {
        let mut s = String::from(head);
        for h in &stop.hits {
            let _ = writeln!(s, "{}", self.hit_text(h));
        }
        match stop.machine {
            Some(StopReason::InputNeeded) => {
                if self.dbg.prog.firmware.is_some() {
                    let _ = writeln!(
                        s,
                        "The firmware is waiting for the host (its command loop polls PSTAT)."
                    );
                } else {
                    let _ = writeln!(s, "The program polled the status port: no input waiting.");
                }
                if let Some((cmd, what)) = self.pending.take() {
                    let out = self.dbg.m.output().to_vec();
                    let _ = writeln!(
                        s,
                        "Reply to '{what}': {}\n  = {}",
                        hex_bytes(&out, 24),
                        decode_reply(self.dbg.prog.firmware.unwrap_or(Build::Article), cmd, &out)
                    );
                }
            }
            Some(StopReason::Exit(v)) => {
                let _ = writeln!(s, "The program wrote {v:02X}h to the exit port.");
            }
            Some(StopReason::Halted) => {
                let _ = writeln!(s, "HALT with interrupts disabled: the machine is stopped.");
            }
            Some(StopReason::Fault(f)) => {
                let _ = writeln!(s, "Fault: {f}.");
            }
            Some(StopReason::CycleLimit) | Some(StopReason::Observer) | None => {}
        }
        if stop.limit {
            let _ = writeln!(
                s,
                "Stopped: the cycle limit of {} was reached ('limit T' changes it, 'limit 0' removes it).",
                views::tstates(self.dbg.limit)
            );
        }
        if stop.interrupted {
            let _ = writeln!(s, "Interrupted.");
        }
        if stop.history_start {
            let _ = writeln!(
                s,
                "No more reverse-execution history: at the start of the recording."
            );
        }
        let t = self.dbg.m.cpu.t;
        let dt = t as i128 - self.last_stop_t as i128;
        self.last_stop_t = t;
        let _ = writeln!(
            s,
            "T {}{dt} ({})   total {}   icount {}",
            if dt >= 0 { "+" } else { "" },
            views::seconds(dt),
            views::tstates(t),
            self.dbg.icount()
        );
        s.push_str(&self.here());
        s
    }

    /// The instruction at the PC (or the HALT the CPU is halted on).
    fn here(&self) -> String {
        let cpu = &self.dbg.m.cpu;
        if cpu.halted {
            let at = cpu.pc.wrapping_sub(1);
            return format!(
                "halted on the HALT at {} (PC = {:04X}h)\n",
                self.dbg.prog.addr_text(at),
                cpu.pc
            );
        }
        let mut s = String::new();
        for l in views::disassembly(&self.dbg, cpu.pc, 1, None) {
            let _ = writeln!(s, "{l}");
        }
        s
    }
}

const EXPR_HELP: &str = "\
Expressions:
  numbers    42  0x2A  2Ah  0b101010  101010b  %101010  'A'
  registers  A F B C D E H L I R  AF BC DE HL IX IY SP PC  IXH IXL IYH IYL
             AF' BC' DE' HL'  WZ (MEMPTR)  IM IFF1 IFF2        (any case)
  symbols    GENMOV  CMDLP.find  board        (exact, else case-insensitive)
  memory     (HL) (IX+5) (BOARD+35): the byte there;  w(SP) word(ADDR): 16-bit
  grouping   [A+1]*2      (parentheses read memory, as in Z80 source)
  flags      $S $Z $H $PV $N $C $X $Y  (0 or 1)
  counters   $t  $icount  $depth
  accesses   $old $new $value $addr $port   (watchpoint and catchpoint conditions)
  operators  - ~ !   * / %   + -   << >>   < <= > >=   == !=   &   ^   |   &&   ||
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cond_split() {
        assert_eq!(split_cond("GENMOV if A == 9"), ("GENMOV", Some("A == 9")));
        assert_eq!(split_cond("DIFFER"), ("DIFFER", None));
        assert_eq!(split_cond("x if"), ("x", Some("")));
    }
}
