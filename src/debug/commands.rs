//! The command language: one line in, text out. Used by the prompt, scripts, the
//! full-screen mode and the tests alike. Errors are reported as `error: ...` and the session
//! goes on.

use super::engine::{BpKind, Debugger, Goal, Hit, HitWhat, Stop, Stopwatch, DEFAULT_LIMIT};
use super::expr::{self, Env};
use super::program::Program;
use super::views;
use crate::firmware::board::{describe, mailbox, FwMove, Setup};
use crate::firmware::eval::CMD_EVAL;
use crate::firmware::protocol::*;
use crate::firmware::{parse_fen, Build};
use crate::machine::StopReason;
use shakmaty::{Chess, Position, Square};
use std::fmt::Write as _;

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
}

const PROMPT_WORDS: &[(&str, &str, &str)] = &[
    ("break", "LOC [if COND]", "breakpoint at an address, label or file:line (alias b)"),
    ("tbreak", "LOC [if COND]", "breakpoint deleted at its first stop"),
    ("watch", "ADDR[..END | LEN] [if COND]", "stop after a write to the range ($old, $new, $addr)"),
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

fn parse_square(s: &str) -> Result<u8, String> {
    let sq: Square = s
        .parse()
        .map_err(|_| format!("'{s}' is not a square (a1..h8)"))?;
    Ok(mailbox(sq))
}

/// A move typed as UCI (e2e4, e7e8q) in the firmware's terms, legality unchecked.
fn parse_uci(s: &str) -> Result<FwMove, String> {
    let s = s.trim();
    if s.len() < 4 || s.len() > 5 || !s.is_ascii() {
        return Err(format!("'{s}' is not a move like e2e4 or e7e8q"));
    }
    let promo = match s.as_bytes().get(4).map(|c| c.to_ascii_lowercase()) {
        None => 0,
        Some(b'q') => 5,
        Some(b'r') => 4,
        Some(b'b') => 3,
        Some(b'n') => 2,
        Some(_) => return Err(format!("'{s}': the promotion piece is one of q r b n")),
    };
    Ok(FwMove {
        from: parse_square(&s[..2])?,
        to: parse_square(&s[2..4])?,
        promo,
    })
}

/// Moves from the initial position (UCI or SAN), checked with shakmaty.
fn parse_moves(text: &str) -> Result<Vec<FwMove>, String> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for tok in text.split_whitespace() {
        let m = if let Ok(u) = tok.parse::<shakmaty::uci::UciMove>() {
            u.to_move(&pos).map_err(|e| format!("move '{tok}': {e}"))?
        } else if let Ok(san) = tok.parse::<shakmaty::san::San>() {
            san.to_move(&pos)
                .map_err(|e| format!("move '{tok}': {e}"))?
        } else {
            return Err(format!(
                "'{tok}' is not a move (UCI like e2e4, or SAN like Nf3)"
            ));
        };
        out.push(FwMove::from_move(&m));
        pos.play_unchecked(m);
    }
    Ok(out)
}

fn error_name(code: u8) -> String {
    ERRORS
        .iter()
        .find(|e| e.0 == code)
        .map(|e| format!("{} ({})", e.1, e.2))
        .unwrap_or_else(|| format!("code {code:02X}h"))
}

/// A firmware reply in words.
fn decode_reply(build: Build, cmd: u8, out: &[u8]) -> String {
    let Some((&status, r)) = out.split_first() else {
        return "no reply".into();
    };
    if status != 0 {
        return format!("refused: {}", error_name(status));
    }
    match cmd {
        CMD_EVAL => match crate::firmware::eval::parse(build, r) {
            Ok(e) => e.report(),
            Err(e) => e.to_string(),
        },
        CMD_IDENT if r.len() == 3 => format!(
            "identity '{}', build {}, version {}",
            r[0] as char, r[1], r[2]
        ),
        CMD_LIST if !r.is_empty() => {
            let moves: Vec<String> = r[1..]
                .chunks(3)
                .filter(|c| c.len() == 3)
                .map(|c| {
                    FwMove {
                        from: c[0],
                        to: c[1],
                        promo: c[2],
                    }
                    .uci()
                })
                .collect();
            format!("{} legal moves: {}", r[0], moves.join(" "))
        }
        CMD_STATUS if r.len() == 2 => format!(
            "{}, {} legal moves",
            if r[0] != 0 {
                "in check"
            } else {
                "not in check"
            },
            r[1]
        ),
        CMD_PERFT if r.len() == 4 => {
            format!("{} paths", u32::from_le_bytes([r[0], r[1], r[2], r[3]]))
        }
        CMD_BOARD if r.len() == 66 => {
            let mut squares = [0u8; 64];
            squares.copy_from_slice(&r[..64]);
            describe(&Setup {
                squares,
                side: r[64],
                ep: r[65],
            })
        }
        CMD_ATTACK if r.len() == 14 => format!(
            "ATKLST {}  (White {} attackers, Black {})",
            hex_bytes(r, 14),
            r[0],
            r[7]
        ),
        CMD_XCHNG if r.len() == 15 => {
            format!("ATKLST {}, residue {}", hex_bytes(&r[..14], 14), r[14])
        }
        CMD_XARRAY if r.len() == 1 => format!("residue {}", r[0]),
        CMD_SEARCH => match crate::firmware::parse_search(build, r, 0) {
            Ok(res) => format!(
                "best {} score {} ({:?}), {} evaluations, {} exchanges, {} nodes",
                res.best.uci(),
                res.score,
                res.kind,
                res.evaluations,
                res.xchng_calls,
                res.nodes
            ),
            Err(e) => e.to_string(),
        },
        _ => "done".into(),
    }
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
            status: String::new(),
        }
    }

    /// A program at reset (PC = 0000h), nothing run yet.
    pub fn program(prog: Program) -> Result<Session, String> {
        Ok(Session::with(Debugger::new(prog)?))
    }

    /// Boot a firmware build, let it reach its command loop, and set up the position.
    pub fn firmware(build: Build, start: &Start) -> Result<Session, String> {
        Session::firmware_with(build, start, None)
    }

    /// As [`Session::firmware`], with the full build's parameter file loaded first (the 'W'
    /// commands run under the debugger like the set-up).
    pub fn firmware_with(
        build: Build,
        start: &Start,
        params: Option<&crate::firmware::params::ParamFile>,
    ) -> Result<Session, String> {
        let prog = Program::from_build(build, &super::program::source_root())?;
        let mut s = Session::with(Debugger::new(prog)?);
        let mut setup: Vec<Vec<u8>> = match params {
            Some(pf) => pf.commands(build).map_err(|e| e.to_string())?,
            None => Vec::new(),
        };
        setup.extend(match start {
            Start::Initial => Vec::new(),
            Start::Fen(fen) => {
                let pos = parse_fen(fen).map_err(|e| e.to_string())?;
                let enc = crate::firmware::board::encode(&pos);
                let mut b = vec![CMD_SETUP];
                b.extend_from_slice(&enc.squares);
                b.push(enc.side);
                b.push(enc.ep);
                vec![b]
            }
            Start::Moves(text) => parse_moves(text)?
                .into_iter()
                .map(|m| vec![CMD_MOVE, m.from, m.to, m.promo])
                .collect(),
        });
        s.boot_command(&[], "boot")?;
        let id = s.boot_command(&[CMD_IDENT], "identify")?;
        if id.len() != 4 || id[1] != b'Z' || id[2] as i64 != build.switch() {
            return Err(format!(
                "the ROM does not identify as build {build}: {}",
                hex_bytes(&id, 8)
            ));
        }
        for b in setup {
            let r = s.boot_command(&b, "set-up")?;
            if r.first() != Some(&0) {
                return Err(format!(
                    "the firmware refused the set-up ('{}'): {}",
                    b[0] as char,
                    decode_reply(build, b[0], &r)
                ));
            }
        }
        s.last_stop_t = s.dbg.m.cpu.t;
        Ok(s)
    }

    /// Run a command to completion while starting up; the reply bytes.
    fn boot_command(&mut self, bytes: &[u8], what: &str) -> Result<Vec<u8>, String> {
        if !bytes.is_empty() {
            self.dbg.send(bytes);
        }
        let stop = self.dbg.run(Goal::Continue);
        match stop.machine {
            Some(StopReason::InputNeeded) => Ok(self.dbg.m.output().to_vec()),
            _ => Err(format!(
                "the firmware did not get back to its command loop during {what}: {stop:?}"
            )),
        }
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

    /// Execute one command line; its output (errors as `error: ...`).
    pub fn execute(&mut self, line: &str) -> String {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return String::new();
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
        match cmd.to_ascii_lowercase().as_str() {
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
            "step" | "s" | "si" | "stepi" => {
                let n = self.count(rest, 1)?;
                if n == 0 {
                    return Ok(String::new());
                }
                Ok(self.go(Goal::Steps(n), ""))
            }
            "next" | "n" | "ni" | "nexti" => {
                let n = self.count(rest, 1)?;
                let t0 = self.dbg.m.cpu.t;
                let mut out = String::new();
                for k in 0..n {
                    let goal = self.next_goal();
                    let mut stop = self.dbg.run(goal);
                    let spent = self.dbg.m.cpu.t - t0;
                    if self.dbg.limit != 0 && spent >= self.dbg.limit && k + 1 < n {
                        stop.limit = true;
                    }
                    if k + 1 == n || !stop.hits.is_empty() || !stop.goal || stop.limit {
                        out = self.report(&stop, "");
                        break;
                    }
                }
                Ok(out)
            }
            "finish" | "fin" => {
                let d = self.dbg.track.depth();
                if d == 0 {
                    return Err(
                        "\"finish\" not meaningful in the outermost frame (no call in progress)"
                            .into(),
                    );
                }
                let f = self.dbg.track.frames[d - 1];
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
            "memview" => {
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
            "layout" => {
                self.layout = match rest {
                    "src" | "source" => Layout::Source,
                    "asm" | "dis" => Layout::Asm,
                    _ => return Err("usage: layout src|asm".into()),
                };
                Ok(String::new())
            }
            _ => Err(format!("unknown command '{cmd}' (try 'help')")),
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

    fn go(&mut self, goal: Goal, head: &str) -> String {
        let stop = self.dbg.run(goal);
        self.report(&stop, head)
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

    fn cond(
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

    fn cmd_break(&mut self, rest: &str, temp: bool) -> Result<String, String> {
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

    fn cmd_watch(&mut self, rest: &str, read: bool, write: bool) -> Result<String, String> {
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

    fn cmd_catch(&mut self, rest: &str) -> Result<String, String> {
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

    fn ids(&self, rest: &str) -> Result<Vec<u32>, String> {
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

    fn cmd_delete(&mut self, rest: &str) -> Result<String, String> {
        let ids = self.ids(rest)?;
        self.dbg.bps.retain(|b| !ids.contains(&b.id));
        self.dbg.bps_changed();
        Ok(match ids.len() {
            0 => "no breakpoints to delete\n".into(),
            1 => format!("deleted breakpoint {}\n", ids[0]),
            n => format!("deleted {n} breakpoints\n"),
        })
    }

    fn cmd_enable(&mut self, rest: &str, on: bool) -> Result<String, String> {
        let ids = self.ids(rest)?;
        for b in self.dbg.bps.iter_mut().filter(|b| ids.contains(&b.id)) {
            b.enabled = on;
        }
        self.dbg.bps_changed();
        Ok(String::new())
    }

    fn cmd_ignore(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_condition(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_info(&mut self, rest: &str) -> Result<String, String> {
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

    fn info_bps(&self) -> String {
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
    fn paged_arg(rest: &str) -> Option<(u8, String)> {
        let (first, more) = split_word(rest);
        let (page, addr) = Program::paged_location(first)?;
        Some((page, format!("{addr:04X}h {more}")))
    }

    /// Run `f` with the window showing `page`, then select the machine's own page again (the
    /// window is ROM: nothing else changes).
    fn in_page<R>(&mut self, page: u8, f: impl FnOnce(&mut Self) -> R) -> R {
        let old = self.dbg.m.bus.page();
        self.dbg.m.bus.select_page(page);
        self.dbg.prog.set_view(self.dbg.m.bus.window_page());
        let r = f(self);
        self.dbg.m.bus.select_page(old);
        self.dbg.prog.set_view(self.dbg.m.bus.window_page());
        r
    }

    fn cmd_dis(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_list(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_mem(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_print(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_set(&mut self, rest: &str) -> Result<String, String> {
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
        let mut probe = self.dbg.m.bus.mem.clone();
        expr::assign(&target, value, &mut cpu, &mut probe, ic, depth)?;
        let msg = self.dbg.edit(|m| {
            let mem: &mut [u8; 0x10000] = &mut m.bus.mem;
            expr::assign(&target, value, &mut m.cpu, mem, ic, depth)
        })?;
        Ok(format!("{msg}\n"))
    }

    fn cmd_write(&mut self, rest: &str) -> Result<String, String> {
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

    fn cmd_attackers(&mut self, rest: &str) -> Result<String, String> {
        let a = self.atklst(rest)?;
        if a as usize + 14 > 0x10000 {
            return Err("the 14-byte array would run past FFFFh".into());
        }
        let mut bytes = [0u8; 14];
        bytes.copy_from_slice(&self.dbg.m.bus.mem[a as usize..a as usize + 14]);
        Ok(views::attackers(&bytes, a).join("\n") + "\n")
    }

    fn cmd_moves(&mut self, rest: &str) -> Result<String, String> {
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

    fn stopwatches(&self) -> String {
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

    fn cmd_stopwatch(&mut self, rest: &str) -> Result<String, String> {
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

    /// Is the firmware at its command loop, waiting for a command (GETB called from CMDLP,
    /// nothing queued)? A command sent otherwise would be read as part of the running one.
    fn check_idle(&self) -> Result<(), String> {
        let d = &self.dbg;
        let p = &d.prog;
        let (Some(getb), Some(_)) = (p.symbols.value_of("GETB"), p.symbols.value_of("CMDLP"))
        else {
            return Ok(());
        };
        let idle = d.m.pending_input() == 0
            && d.track.frames.len() == 1
            && d.track.frames[0].target == getb
            && p.describe(d.track.frames[0].call_pc)
                .is_some_and(|n| n.starts_with("CMDLP"));
        if idle {
            Ok(())
        } else {
            Err(format!(
                "the firmware is busy with a command (at {}): 'continue' until it waits for the host, or 'send raw' to queue bytes anyway",
                p.addr_text(d.m.cpu.pc)
            ))
        }
    }

    /// A square: `e4`, or a mailbox index (21..98) as an expression.
    fn square_arg(&self, text: &str) -> Result<u8, String> {
        if text.is_empty() {
            return Err("a square is missing (e4, or a mailbox index 21..98)".into());
        }
        if let Ok(sq) = parse_square(text) {
            return Ok(sq);
        }
        let b = text.as_bytes();
        if b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit() {
            return Err(format!("'{text}' is not a square (a1..h8)"));
        }
        let v = self.eval(text)?;
        u8::try_from(v).map_err(|_| format!("{v} is not a square index"))
    }

    fn cmd_send(&mut self, rest: &str) -> Result<String, String> {
        let (what, args) = split_word(rest);
        let fw = self.dbg.prog.firmware.is_some();
        let need_fw = |name: &str| {
            if fw {
                Ok(())
            } else {
                Err(format!(
                    "'send {name}' is a firmware command; this program is not a firmware build (use 'send raw')"
                ))
            }
        };
        let no_args = |name: &str| {
            if args.is_empty() {
                Ok(())
            } else {
                Err(format!("'send {name}' takes no argument"))
            }
        };
        let (cmd, bytes): (u8, Vec<u8>) = match what.to_ascii_lowercase().as_str() {
            "ident" | "identify" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_IDENT, vec![CMD_IDENT])
            }
            "new" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_NEW, vec![CMD_NEW])
            }
            "board" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_BOARD, vec![CMD_BOARD])
            }
            "list" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_LIST, vec![CMD_LIST])
            }
            "status" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_STATUS, vec![CMD_STATUS])
            }
            "undo" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_UNDO, vec![CMD_UNDO])
            }
            "eval" => {
                need_fw(what)?;
                no_args(what)?;
                (CMD_EVAL, vec![CMD_EVAL])
            }
            "perft" => {
                need_fw(what)?;
                let d = self.count(args, u64::MAX)?;
                if d > 255 {
                    return Err("usage: send perft DEPTH (0..255)".into());
                }
                (CMD_PERFT, vec![CMD_PERFT, d as u8])
            }
            "move" => {
                need_fw(what)?;
                let m = parse_uci(args)?;
                (CMD_MOVE, vec![CMD_MOVE, m.from, m.to, m.promo])
            }
            "setup" | "fen" => {
                need_fw(what)?;
                let pos = parse_fen(args).map_err(|e| e.to_string())?;
                let enc = crate::firmware::board::encode(&pos);
                let mut b = vec![CMD_SETUP];
                b.extend_from_slice(&enc.squares);
                b.push(enc.side);
                b.push(enc.ep);
                (CMD_SETUP, b)
            }
            "attack" | "xchng" => {
                need_fw(what)?;
                let sq = self.square_arg(args)?;
                let c = if what.eq_ignore_ascii_case("attack") {
                    CMD_ATTACK
                } else {
                    CMD_XCHNG
                };
                (c, vec![c, sq])
            }
            "xarray" => {
                need_fw(what)?;
                let mut b = vec![CMD_XARRAY];
                for tok in args
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|t| !t.is_empty())
                {
                    let v = self.eval(tok)?;
                    b.push(u8::try_from(v).map_err(|_| format!("{v} is not a byte"))?);
                }
                if b.len() != 16 {
                    return Err(
                        "usage: send xarray PIECE B0 .. B13 (the piece on the square, then the 14-byte array)"
                            .into(),
                    );
                }
                (CMD_XARRAY, b)
            }
            "moveno" => {
                need_fw(what)?;
                let n = self.count(args, u64::MAX)?;
                if n > 255 {
                    return Err("usage: send moveno N (0..255)".into());
                }
                (CMD_MOVENO, vec![CMD_MOVENO, n as u8])
            }
            "search" => {
                need_fw(what)?;
                let (level, more) = split_word(args);
                let level = self.count(level, u64::MAX)?;
                if level > 255 {
                    return Err("usage: send search LEVEL [iterate]".into());
                }
                let flags = match more {
                    "" => 0,
                    "iterate" => 1,
                    _ => return Err("usage: send search LEVEL [iterate]".into()),
                };
                (CMD_SEARCH, vec![CMD_SEARCH, level as u8, flags])
            }
            "raw" => {
                let mut b = Vec::new();
                for tok in args
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|t| !t.is_empty())
                {
                    let v = self.eval(tok)?;
                    b.push(u8::try_from(v).map_err(|_| format!("{v} is not a byte"))?);
                }
                if b.is_empty() {
                    return Err("usage: send raw BYTE...".into());
                }
                (b[0], b)
            }
            "" => {
                return Err(
                    "usage: send ident|new|board|list|status|undo|eval|perft N|move UCI|setup FEN|attack SQ|xchng SQ|xarray PIECE B0..B13|moveno N|search LEVEL [iterate]|raw BYTE..."
                        .into(),
                )
            }
            other => {
                return Err(format!(
                    "unknown firmware command '{other}' (ident new board list status undo eval perft move setup attack xchng xarray moveno search raw)"
                ))
            }
        };
        if !what.eq_ignore_ascii_case("raw") {
            self.check_idle()?;
        }
        let what_text = format!("{what} {args}").trim().to_string();
        self.dbg.send(&bytes);
        self.pending = Some((cmd, what_text.clone()));
        let head = format!("Sent {what_text}: {}\n", hex_bytes(&bytes, 16));
        Ok(self.go(Goal::Continue, &head))
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

    #[test]
    fn uci_parse() {
        assert_eq!(
            parse_uci("e7e8q"),
            Ok(FwMove {
                from: 85,
                to: 95,
                promo: 5
            })
        );
        assert!(parse_uci("e9e4").is_err());
        assert!(parse_moves("e4 e5 Nf3").is_ok());
        assert!(parse_moves("e2e5").is_err());
    }
}
