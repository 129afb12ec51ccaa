//! The full-screen mode: code (source or disassembly), registers and flags, call stack,
//! memory, the board and the attacker array side by side, and the command line below.
//! [`draw`] only reads the session, so a test renders it on ratatui's `TestBackend`.

use super::commands::{Layout, Session};
use super::views;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout as Split, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::{Frame, Terminal};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// T-states a running command goes on for between two looks at the keyboard (a few
/// milliseconds of the host's time).
pub const SLICE: u64 = 2_000_000;

/// How often the screen is drawn again while a command runs.
pub const REDRAW: Duration = Duration::from_millis(200);

/// The command line and the output log of the full-screen mode.
#[derive(Clone, Debug, Default)]
pub struct TuiState {
    pub input: String,
    /// Cursor position in `input`, in characters.
    pub cursor: usize,
    pub log: Vec<String>,
    /// Lines scrolled back from the end of the log.
    pub scroll: usize,
    history: Vec<String>,
    hist_pos: Option<usize>,
    last: String,
    /// The log says a run is going on.
    told_running: bool,
}

impl TuiState {
    pub fn new() -> TuiState {
        TuiState::default()
    }

    pub fn push_log(&mut self, text: &str) {
        for l in text.lines() {
            self.log.push(l.to_string());
        }
        if self.log.len() > 5000 {
            self.log.drain(..self.log.len() - 5000);
        }
        self.scroll = 0;
    }

    /// Run a command line to its end (a blank line repeats the last command); the command
    /// goes into the session's history too.
    pub fn submit(&mut self, s: &mut Session) {
        self.enter(s);
        while self.tick(s) {}
    }

    /// Start a command line as Enter does: a run command goes on in [`TuiState::tick`]s, and
    /// its report goes into the log when it ends.
    pub fn enter(&mut self, s: &mut Session) {
        let typed = self.input.trim().to_string();
        let cmd = if typed.is_empty() {
            self.last.clone()
        } else {
            typed
        };
        self.input.clear();
        self.cursor = 0;
        self.hist_pos = None;
        if cmd.is_empty() {
            return;
        }
        if self.history.last() != Some(&cmd) {
            self.history.push(cmd.clone());
        }
        if s.history.last() != Some(&cmd) {
            s.history.push(cmd.clone());
        }
        self.push_log(&format!("{}{cmd}", super::repl::PROMPT));
        let out = s.start(&cmd);
        s.tui_requested = false;
        self.push_log(&out);
        self.last = cmd;
    }

    /// One beat of the screen's clock: a run going on advances by [`SLICE`] T-states (its
    /// report goes into the log when it ends). False when no run goes on.
    pub fn tick(&mut self, s: &mut Session) -> bool {
        if !s.running() {
            return false;
        }
        match s.advance(SLICE) {
            Some(out) => {
                self.push_log(&out);
                self.told_running = false;
            }
            None if !self.told_running => {
                self.push_log("Running... (any key stops it)");
                self.told_running = true;
            }
            None => {}
        }
        s.running()
    }

    /// A key pressed. While a run goes on, any key stops it where it is (between two
    /// instructions; its report says `Interrupted.`). Otherwise the command line's keys: true
    /// when the key leaves the full screen (Esc, Ctrl-D on an empty line).
    pub fn key(&mut self, s: &mut Session, k: KeyEvent) -> bool {
        if k.kind != KeyEventKind::Press {
            return false;
        }
        if s.running() {
            if let Some(out) = s.interrupt() {
                self.push_log(&out);
            }
            self.told_running = false;
            return false;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match k.code {
            KeyCode::Esc => return true,
            KeyCode::Char('d') if ctrl && self.input.is_empty() => return true,
            KeyCode::Char('c' | 'u') if ctrl => {
                self.input.clear();
                self.cursor = 0;
            }
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = self.input.chars().count(),
            KeyCode::Char(c) if !ctrl => self.insert(c),
            KeyCode::Enter => self.enter(s),
            KeyCode::F(5) | KeyCode::F(10) | KeyCode::F(11) => {
                self.input = match k.code {
                    KeyCode::F(5) => "continue",
                    KeyCode::F(10) => "next",
                    _ => "step",
                }
                .to_string();
                self.enter(s);
            }
            KeyCode::Backspace => self.backspace(),
            KeyCode::Delete => self.delete(),
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(self.input.chars().count()),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.input.chars().count(),
            KeyCode::Up => self.recall(true),
            KeyCode::Down => self.recall(false),
            KeyCode::PageUp => self.scroll = (self.scroll + 5).min(self.log.len()),
            KeyCode::PageDown => self.scroll = self.scroll.saturating_sub(5),
            _ => {}
        }
        s.quit
    }

    fn insert(&mut self, c: char) {
        let at = self.byte_at(self.cursor);
        self.input.insert(at, c);
        self.cursor += 1;
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.input
            .char_indices()
            .nth(chars)
            .map(|(i, _)| i)
            .unwrap_or(self.input.len())
    }

    fn backspace(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            let at = self.byte_at(self.cursor);
            self.input.remove(at);
        }
    }

    fn delete(&mut self) {
        if self.cursor < self.input.chars().count() {
            let at = self.byte_at(self.cursor);
            self.input.remove(at);
        }
    }

    fn recall(&mut self, up: bool) {
        if self.history.is_empty() {
            return;
        }
        let n = self.history.len();
        self.hist_pos = match (self.hist_pos, up) {
            (None, true) => Some(n - 1),
            (Some(0), true) => Some(0),
            (Some(k), true) => Some(k - 1),
            (Some(k), false) if k + 1 < n => Some(k + 1),
            (_, false) => None,
        };
        self.input = self
            .hist_pos
            .map(|k| self.history[k].clone())
            .unwrap_or_default();
        self.cursor = self.input.chars().count();
    }
}

fn pane<'a>(title: &str, lines: Vec<String>, area: Rect, bottom: bool) -> Paragraph<'a> {
    let inner = area.height.saturating_sub(2) as usize;
    let lines = if bottom && lines.len() > inner {
        lines[lines.len() - inner..].to_vec()
    } else {
        lines
    };
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()).block(
        Block::default()
            .borders(Borders::ALL)
            .title(format!(" {title} ")),
    )
}

/// Registers in a narrow column, then the call stack.
fn regs_lines(s: &Session) -> Vec<String> {
    let d = &s.dbg;
    let c = &d.m.cpu;
    let p = &d.prog;
    let f = c.f;
    let bit = |m: u8| (f & m != 0) as u8;
    use crate::z80::flags::*;
    let mut v = vec![
        format!(
            "PC {:04X} {}",
            c.pc,
            p.describe(c.pc)
                .map(|x| format!("<{x}>"))
                .unwrap_or_default()
        ),
        format!(
            "AF {:04X}  BC {:04X}  DE {:04X}  HL {:04X}",
            c.af(),
            c.bc(),
            c.de(),
            c.hl()
        ),
        format!(
            "AF'{:04X}  BC'{:04X}  DE'{:04X}  HL'{:04X}",
            c.af_, c.bc_, c.de_, c.hl_
        ),
        format!(
            "IX {:04X}  IY {:04X}  SP {:04X}  WZ {:04X}",
            c.ix, c.iy, c.sp, c.wz
        ),
        format!(
            "I {:02X}  R {:02X}  IFF {}/{}  IM {}{}",
            c.i,
            c.r,
            c.iff1 as u8,
            c.iff2 as u8,
            c.im,
            if c.halted { "  HALT" } else { "" }
        ),
        "S Z Y H X P N C".to_string(),
        format!(
            "{} {} {} {} {} {} {} {}   {} {} {} {}",
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
            if f & S != 0 { "M" } else { "P" }
        ),
        format!("T-states {} ({})", c.t, views::seconds(c.t as i128)),
        format!("icount {}  depth {}", d.icount(), d.track.depth()),
        String::new(),
    ];
    for l in views::backtrace(p, c, &d.track) {
        // "#1  03A0h  LEGALS+3 ... calls GENMOV, returns to ..." -> keep it short.
        let short: String = l.split("  calls").next().unwrap_or(&l).to_string();
        v.push(views::squeeze(&short));
    }
    v
}

fn code_lines(s: &Session, height: usize) -> (String, Vec<String>) {
    let d = &s.dbg;
    let p = &d.prog;
    let pc = d.m.cpu.pc;
    if s.layout == Layout::Source {
        if let Some((f, l)) = p.line_near(pc) {
            if !p.files[f].lines.is_empty() {
                let before = (height as u32).saturating_sub(1) / 3;
                let after = (height as u32).saturating_sub(before + 1);
                return (
                    format!("Source {}", p.files[f].short),
                    views::listing(d, f, l, before, after),
                );
            }
        }
    }
    let back = height / 3;
    let mut start = p.statements_before(pc, back);
    let mut lines = views::disassembly(d, start, height, None);
    if !lines
        .iter()
        .any(|l| l.starts_with(" =>") || l.starts_with("*=>"))
    {
        start = pc;
        lines = views::disassembly(d, start, height, None);
    }
    // Keep the PC's line in view (label lines take room too).
    if let Some(k) = lines
        .iter()
        .position(|l| l.starts_with(" =>") || l.starts_with("*=>"))
    {
        if k >= height {
            lines.drain(..k + 1 - height.max(1));
        }
    }
    ("Disassembly".to_string(), lines)
}

/// Draw the whole screen.
pub fn draw(f: &mut Frame, s: &Session, st: &TuiState) {
    let area = f.area();
    let rows = Split::vertical([
        Constraint::Min(6),
        Constraint::Length(15),
        Constraint::Length(9),
    ])
    .split(area);
    let top = Split::horizontal([Constraint::Min(30), Constraint::Length(40)]).split(rows[0]);
    let mid = Split::horizontal([
        Constraint::Length(42),
        Constraint::Length(33),
        Constraint::Min(20),
    ])
    .split(rows[1]);

    let h = top[0].height.saturating_sub(2) as usize;
    let (title, code) = code_lines(s, h);
    f.render_widget(pane(&title, code, top[0], false), top[0]);
    f.render_widget(pane("Registers", regs_lines(s), top[1], false), top[1]);

    let mem = &s.dbg.m.bus.mem;
    let maddr = s.mem_addr.unwrap_or(s.dbg.m.cpu.hl());
    let rows_n = mid[0].height.saturating_sub(2) as usize;
    let start = maddr & !7;
    let len = (rows_n * 8).min(0x10000 - start as usize);
    f.render_widget(
        pane(
            &format!("Memory {start:04X}h"),
            views::dump(mem, start, len, 8),
            mid[0],
            false,
        ),
        mid[0],
    );
    let board = views::board(&s.dbg.prog, mem).unwrap_or_else(|e| vec![e]);
    f.render_widget(pane("Board", board, mid[1], false), mid[1]);
    let atk = match s.atklst("") {
        Ok(a) if a as usize + 14 <= 0x10000 => {
            let mut b = [0u8; 14];
            b.copy_from_slice(&mem[a as usize..a as usize + 14]);
            views::attackers(&b, a)
        }
        Ok(_) => vec!["ATKLST out of range".into()],
        Err(_) => vec!["no ATKLST symbol in this build".into()],
    };
    f.render_widget(pane("Attackers", atk, mid[2], false), mid[2]);

    // Output log and the command line.
    let out = rows[2];
    let inner = out.height.saturating_sub(3) as usize;
    let end = st.log.len().saturating_sub(st.scroll);
    let first = end.saturating_sub(inner);
    let mut lines: Vec<Line> = st.log[first..end]
        .iter()
        .map(|l| Line::from(l.clone()))
        .collect();
    while lines.len() < inner {
        lines.insert(0, Line::from(""));
    }
    lines.push(Line::styled(
        format!("{}{}", super::repl::PROMPT, st.input),
        Style::default().add_modifier(Modifier::BOLD),
    ));
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Output  (Enter run, Up/Down history, PgUp/PgDn scroll, F5 continue, F10 next, F11 step, Esc leave) "),
        ),
        out,
    );
    let cx = out.x + 1 + (super::repl::PROMPT.len() + st.cursor) as u16;
    let cy = out.y + out.height.saturating_sub(2);
    if cx < out.x + out.width.saturating_sub(1) {
        f.set_cursor_position((cx, cy));
    }
}

/// The screen as text (for tests and for checking a layout without a terminal).
pub fn render_text(s: &Session, st: &TuiState, width: u16, height: u16) -> String {
    let Ok(mut term) = Terminal::new(TestBackend::new(width, height));
    if term.draw(|f| draw(f, s, st)).is_err() {
        return String::new();
    }
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buf.cell((x, y)).map(|c| c.symbol()).unwrap_or(" "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The interactive full-screen loop; returns when the user leaves it (Esc) or quits. While a
/// run goes on, the screen is drawn again every [`REDRAW`] and a key stops the run.
pub fn run(s: &mut Session) -> Result<(), String> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err("the full-screen mode needs a terminal".into());
    }
    let mut term = ratatui::try_init().map_err(|e| e.to_string())?;
    let mut st = TuiState::new();
    st.history = s.history.clone();
    st.push_log(&s.where_line());
    let result = event_loop(&mut term, s, &mut st);
    let _ = ratatui::try_restore();
    // A run left going (an error while drawing) stops where it is.
    let _ = s.interrupt();
    result
}

fn event_loop(
    term: &mut ratatui::DefaultTerminal,
    s: &mut Session,
    st: &mut TuiState,
) -> Result<(), String> {
    let mut drawn: Option<Instant> = None;
    loop {
        let running = s.running();
        if !running || drawn.is_none_or(|d| d.elapsed() >= REDRAW) {
            term.draw(|f| draw(f, s, st)).map_err(|e| e.to_string())?;
            drawn = Some(Instant::now());
        }
        // While a run goes on, look for a key without waiting, then run a slice.
        if running && !event::poll(Duration::ZERO).map_err(|e| e.to_string())? {
            st.tick(s);
            continue;
        }
        if let Event::Key(k) = event::read().map_err(|e| e.to_string())? {
            if st.key(s, k) {
                return Ok(());
            }
        }
    }
}
