//! `z80chess play`: the full-screen chess computer. The board (Unicode pieces, or letters with
//! `--ascii`), coordinates, the last move and a king in check highlighted, the move list, both
//! clocks (wall time and the Z80's emulated time side by side), and while the Z80 thinks: its
//! best move so far, depth, evaluations and T-states.
//!
//! [`draw`] only reads the [`App`], so a test renders it on ratatui's `TestBackend`
//! ([`render_text`]). The terminal is restored on exit, on an error, on a panic (ratatui's
//! hook) and on Ctrl-C (a key like any other in raw mode).

use crate::firmware::{parse_fen, Build, SearchKind, SearchResult};
use crate::session::clock::{clock, Pace};
use crate::session::game::{move_prefix, Game, Ponder, Thought};
use crate::session::pgn;
use crate::session::search::Driver;
use ratatui::backend::TestBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::{Frame, Terminal};
use shakmaty::{Color, File, Position, Rank, Role, Square};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The command line's choices.
#[derive(Clone, Debug)]
pub struct TuiOptions {
    pub build: Build,
    pub level: u8,
    /// The human's colour.
    pub colour: Color,
    pub pace: Pace,
    pub ascii: bool,
    pub fen: Option<String>,
    /// The full build's parameter file, if any.
    pub params: Option<crate::firmware::params::ParamFile>,
    /// Think on the player's time (the full build, which names the reply it expects).
    pub ponder: bool,
}

/// Everything on the screen, and the game behind it.
pub struct App {
    pub game: Game,
    pub human: Color,
    pub pace: Pace,
    pub ascii: bool,
    pub flipped: bool,
    pub input: String,
    /// The message line, and whether it is an error.
    pub message: (String, bool),
    pub help: bool,
    pub search: Option<Driver>,
    /// Wall time used by White and Black, up to `turn_start`.
    pub used: [Duration; 2],
    /// The Z80's emulated thinking time, over the game.
    pub z80_time: Duration,
    pub turn_start: Instant,
    /// "Now" for the clocks on the screen (set before each draw).
    pub now: Instant,
    pub quit: bool,
    /// The firmware failed: it is not asked to move again until the player does something.
    pub stalled: bool,
    /// Pondering is on (`ponder on|off`; the full build only).
    pub ponder: bool,
    pub pondering: Option<Ponder>,
    /// T-states the running search spent pondering before the player's move (not the Z80's
    /// time: the player's clock was running).
    pub pondered: u64,
}

const HELP: &[&str] = &[
    "Type a move and Enter: Nf3, exd5, O-O, e8=Q",
    "  or coordinates: g1f3, e7e8q",
    "Commands (type them):",
    "  new             a new game",
    "  undo            take back your last move",
    "  flip            turn the board round",
    "  switch          swap sides (also: go)",
    "  color w|b       play White or Black",
    "  level 1-6       the Z80's look ahead",
    "  build article|1978|full",
    "  fen <FEN>       set up a position",
    "  save <file>     add the game to a PGN file",
    "  load <file>     read a PGN file's last game",
    "  hint            the tablebase's verdict",
    "  ponder on|off   full build: think on your time",
    "  resign, ascii, help, quit",
    "Keys: F1 help  F2 new  F3 flip  F4 undo",
    "  F5/Space move now  F6 switch  Esc quit",
];

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// 68447935 -> "68,447,935".
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

impl App {
    pub fn new(opts: &TuiOptions) -> Result<App, String> {
        let mut game = Game::new(opts.build, opts.level)?;
        game.set_level(opts.level)?;
        game.set_params(opts.params.clone())?;
        if let Some(f) = &opts.fen {
            game.set_start(parse_fen(f).map_err(|e| e.to_string())?)?;
        }
        let now = Instant::now();
        Ok(App {
            game,
            human: opts.colour,
            pace: opts.pace,
            ascii: opts.ascii,
            flipped: opts.colour == Color::Black,
            input: String::new(),
            message: (
                "Your move: type it and press Enter (F1: help)".into(),
                false,
            ),
            help: false,
            search: None,
            used: [Duration::ZERO; 2],
            z80_time: Duration::ZERO,
            turn_start: now,
            now,
            quit: false,
            stalled: false,
            ponder: opts.ponder,
            pondering: None,
            pondered: 0,
        })
    }

    fn say(&mut self, text: impl Into<String>) {
        self.message = (text.into(), false);
    }

    fn complain(&mut self, text: impl Into<String>) {
        self.message = (text.into(), true);
    }

    /// Start all clocks again at `now` (a new game; tests).
    pub fn reset_clocks(&mut self, now: Instant) {
        self.used = [Duration::ZERO; 2];
        self.z80_time = Duration::ZERO;
        self.turn_start = now;
        self.now = now;
    }

    /// Charge the time since the turn started to the side that was to move.
    fn end_turn(&mut self, side: Color) {
        let now = Instant::now();
        self.used[idx(side)] += now.saturating_duration_since(self.turn_start);
        self.turn_start = now;
    }

    /// The wall time `side` has used, counting the running turn.
    pub fn wall(&self, side: Color) -> Duration {
        let mut d = self.used[idx(side)];
        if self.game.pos().turn() == side && self.game.end().is_none() {
            d += self.now.saturating_duration_since(self.turn_start);
        }
        d
    }

    pub fn engine_colour(&self) -> Color {
        !self.human
    }

    /// Start the Z80 thinking when it is its turn.
    pub fn maybe_think(&mut self) {
        if self.search.is_none()
            && !self.stalled
            && self.game.end().is_none()
            && self.game.pos().turn() == self.engine_colour()
        {
            self.search = Some(Driver::depth(
                &mut self.game.engine,
                self.game.level,
                self.pace,
            ));
        }
    }

    /// Run the search for one slice; plays the move when it is done.
    pub fn step(&mut self, budget: u64) {
        let Some(driver) = self.search.as_mut() else {
            return;
        };
        driver.set_slice(budget);
        match driver
            .tick(&mut self.game.engine)
            .map(|_| driver.take_result())
        {
            Err(e) => {
                self.search = None;
                self.stalled = true;
                self.complain(format!("the firmware failed: {e}"));
            }
            Ok(None) => {}
            Ok(Some(r)) => {
                self.search = None;
                self.engine_moves(r);
            }
        }
    }

    /// Play the Z80's answer `r`, then ponder on the reply it expects.
    fn engine_moves(&mut self, r: SearchResult) {
        {
            {
                let side = self.game.pos().turn();
                let prefix = move_prefix(self.game.pos());
                match self.game.play_result(&r) {
                    Err(e) => {
                        self.stalled = true;
                        self.complain(e);
                    }
                    Ok(_) => {
                        let own = r.tstates.saturating_sub(std::mem::take(&mut self.pondered));
                        self.z80_time += self.pace.emulated(own);
                        self.end_turn(side);
                        let ply = self.game.plies.last().expect("played");
                        let mut msg = format!("The Z80 plays {prefix} {}", ply.san);
                        if let Some(t) = &ply.thought {
                            if let Some(n) = t.mate_in {
                                if n > 0 && self.game.end().is_none() {
                                    msg.push_str(&format!(": mate in {n}"));
                                }
                            }
                        }
                        self.after_move(msg);
                        self.start_ponder(&r);
                    }
                }
            }
        }
    }

    /// After the Z80's move `r`: with pondering on, ponder on the reply it expects.
    fn start_ponder(&mut self, r: &SearchResult) {
        if self.ponder {
            self.pondering = self.game.start_ponder(r);
        }
    }

    /// Run the ponder search for one slice (it keeps its answer when it ends).
    pub fn step_ponder(&mut self, budget: u64) {
        let Some(p) = self.pondering.as_mut() else {
            return;
        };
        if let Err(e) = p.step(&mut self.game.engine, budget) {
            self.stop_ponder();
            self.complain(format!("the firmware failed while pondering: {e}"));
        }
    }

    /// Whether a ponder search is still running.
    pub fn pondering_running(&self) -> bool {
        self.pondering.as_ref().is_some_and(Ponder::running)
    }

    /// Stop pondering and take the expected reply back out of the firmware.
    pub fn stop_ponder(&mut self) {
        let Some(p) = self.pondering.take() else {
            return;
        };
        if let Err(e) = self.game.end_ponder(p) {
            self.stalled = true;
            self.complain(e);
        }
    }

    /// Run the current search to its end with no pacing (tests, scripts).
    pub fn finish_thinking(&mut self) {
        while self.search.is_some() {
            self.step(u64::MAX / 4);
        }
    }

    fn after_move(&mut self, msg: String) {
        match self.game.end() {
            Some(end) => self.say(format!(
                "{msg}. Game over: {} ({}). Type 'new' for another game.",
                end.describe(),
                end.result()
            )),
            None if self.game.pos().is_check() => self.say(format!("{msg}. Check!")),
            None => self.say(msg),
        }
    }

    /// Ask the Z80 to move now.
    pub fn move_now(&mut self) {
        if let Some(s) = self.search.as_mut() {
            if !s.search.stopping {
                s.move_now(&mut self.game.engine);
                self.say("Move now!");
            }
        }
    }

    /// Stop a search (or pondering) and throw its move away (before changing the game).
    fn abandon(&mut self) {
        self.stop_ponder();
        self.pondered = 0;
        if let Some(s) = self.search.take() {
            // (its answer is thrown away; a firmware failure shows at the next command)
            let _ = s.abandon(&mut self.game.engine);
        }
    }

    fn new_game(&mut self) {
        self.abandon();
        let start = self.game.start().clone();
        let r = if self.game.from_initial() {
            self.game.new_game()
        } else {
            self.game.set_start(start)
        };
        match r {
            Ok(()) => {
                self.reset_clocks(Instant::now());
                self.say("New game. Your move.");
            }
            Err(e) => self.complain(e),
        }
    }

    fn undo(&mut self) {
        self.abandon();
        if self.game.plies.is_empty() {
            return self.complain("No move to take back.");
        }
        let r = (|| {
            self.game.undo()?;
            while self.game.pos().turn() != self.human && !self.game.plies.is_empty() {
                self.game.undo()?;
            }
            Ok::<(), String>(())
        })();
        match r {
            Ok(()) => self.say("Taken back."),
            Err(e) => self.complain(e),
        }
    }

    /// Run what the player typed: a command or a move.
    pub fn submit(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if super::not_utf8(text) {
            // (crossterm drops bytes that are not UTF-8 before they are keys; a U+FFFD typed
            // as such is refused as the line front ends refuse one)
            return self.complain(format!(
                "'{text}' is not UTF-8 text (\u{FFFD} marks the bytes that are not): ignored"
            ));
        }
        self.stalled = false;
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "help" | "?" => self.help = !self.help,
            "quit" | "exit" => self.quit = true,
            "new" => self.new_game(),
            "undo" | "takeback" => self.undo(),
            "flip" => self.flipped = !self.flipped,
            "hint" => {
                let h = crate::tablebase::cli::hint(
                    self.game.pos(),
                    std::path::Path::new(crate::tablebase::cli::DEFAULT_DIR),
                );
                self.say(h)
            }
            "ascii" => self.ascii = !self.ascii,
            "ponder" => match rest {
                "on" if self.game.build() == Build::Full => {
                    self.ponder = true;
                    self.say("Pondering on: the Z80 thinks on your time (from its next move).");
                }
                "on" => self.complain("ponder: only the full build names the reply it expects"),
                "off" => {
                    self.stop_ponder();
                    self.ponder = false;
                    self.say("Pondering off.");
                }
                _ => self.complain("ponder: on or off"),
            },
            "switch" | "go" => {
                self.abandon();
                self.human = !self.human;
                self.say(format!("You play {} now.", side_name(self.human)));
            }
            "color" | "colour" => {
                let c = match rest.to_ascii_lowercase().as_str() {
                    "w" | "white" => Color::White,
                    "b" | "black" => Color::Black,
                    _ => return self.complain("color: white or black"),
                };
                if c != self.human {
                    self.abandon();
                    self.human = c;
                    self.flipped = c == Color::Black;
                }
                self.say(format!("You play {}.", side_name(c)));
            }
            "level" => match rest.parse::<u8>() {
                Ok(l) => match self.game.set_level(l) {
                    Ok(()) => self.say(format!("Level {l} (from the Z80's next move).")),
                    Err(e) => self.complain(e),
                },
                Err(_) => self.complain("level: a look ahead from 1 to 6"),
            },
            "build" => {
                let b = match rest.to_ascii_lowercase().as_str() {
                    "article" => Build::Article,
                    "1978" => Build::B1978,
                    "full" => Build::Full,
                    _ => return self.complain("build: article, 1978 or full"),
                };
                self.abandon();
                match self.game.set_build(b) {
                    Ok(()) => self.say(format!("The {b} build.")),
                    Err(e) => self.complain(e),
                }
            }
            "fen" => match parse_fen(rest) {
                Err(e) => self.complain(e.to_string()),
                Ok(pos) => {
                    self.abandon();
                    match self.game.set_start(pos) {
                        Ok(()) => {
                            self.reset_clocks(Instant::now());
                            self.say("Position set up.");
                        }
                        Err(e) => self.complain(e),
                    }
                }
            },
            "save" => {
                if rest.is_empty() {
                    return self.complain("save: give a file name");
                }
                let players = pgn::Players {
                    engine: Some(self.engine_colour()),
                    human: "Player".into(),
                };
                let text = pgn::write(&self.game, &players, &pgn::today());
                match pgn::save(std::path::Path::new(rest), &text) {
                    Ok(pgn::Saved::Created) => self.say(format!("Saved to {rest}.")),
                    Ok(pgn::Saved::Appended { before }) => self.say(format!(
                        "Saved to {rest}, after the {before} game{} already in it.",
                        if before == 1 { "" } else { "s" }
                    )),
                    Err(e) => self.complain(format!("save: {e}")),
                }
            }
            "load" if rest.is_empty() => self.complain("load: give a file name"),
            "load" => match pgn::load_file(std::path::Path::new(rest)) {
                Err(e) => self.complain(format!("load: {e}")),
                Ok(c) => {
                    let which = if c.games > 1 {
                        format!(", game {} of {}", c.number, c.games)
                    } else {
                        String::new()
                    };
                    self.abandon();
                    match c.apply(&mut self.game) {
                        Err(e) => self.complain(format!("load {rest}: {e}")),
                        Ok(l) => {
                            if let Some(c) = l.engine {
                                self.human = !c;
                                self.flipped = self.human == Color::Black;
                            }
                            self.reset_clocks(Instant::now());
                            self.say(format!(
                                "Loaded {} plies ({} build, level {}{which}).",
                                self.game.plies.len(),
                                self.game.build(),
                                self.game.level
                            ));
                        }
                    }
                }
            },
            "resign" => {
                self.abandon();
                self.game.resign(self.human);
                let end = self.game.end().expect("resigned");
                self.say(format!("{} ({}).", end.describe(), end.result()));
            }
            _ => self.user_move(text),
        }
    }

    fn user_move(&mut self, text: &str) {
        if let Some(end) = self.game.end() {
            return self.complain(format!(
                "The game is over ({}). Type 'new' for another.",
                end.describe()
            ));
        }
        if self.search.is_some() || self.game.pos().turn() != self.human {
            return self.complain("It is the Z80's move (Space: make it move now).");
        }
        match self.game.parse_move(text) {
            Err(e) => self.complain(e),
            Ok(m) if self.pondering.as_ref().is_some_and(|p| p.reply == m) => {
                // Ponder hit: the firmware already holds the move; its search goes on as the
                // real one (or its answer, if it has ended, is played at once).
                let p = self.pondering.take().expect("pondering");
                let side = self.game.pos().turn();
                let prefix = move_prefix(self.game.pos());
                if let Err(e) = self.game.record(m) {
                    self.stalled = true;
                    return self.complain(e);
                }
                self.end_turn(side);
                let san = self.game.plies.last().expect("played").san.clone();
                self.after_move(format!("You play {prefix} {san}, as the Z80 expected"));
                self.pondered = p.tstates();
                match p.result {
                    Some(r) => self.engine_moves(r),
                    None => self.search = Some(Driver::new(p.search, self.pace)),
                }
            }
            Ok(m) => {
                self.stop_ponder();
                let side = self.game.pos().turn();
                let prefix = move_prefix(self.game.pos());
                match self.game.play(m, None, false) {
                    Err(e) => self.complain(e),
                    Ok(()) => {
                        self.end_turn(side);
                        let san = self.game.plies.last().expect("played").san.clone();
                        self.after_move(format!("You play {prefix} {san}"));
                    }
                }
            }
        }
    }
}

/// Draw the whole screen.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    if area.width < 64 || area.height < 22 {
        f.render_widget(
            Paragraph::new(format!(
                "z80chess play needs at least 64 x 22 characters (this is {} x {}).\nEsc: quit",
                area.width, area.height
            )),
            area,
        );
        return;
    }
    let [title, main, message, input, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Length(30), Constraint::Min(30)]).areas(main);
    let [board, clocks] =
        Layout::vertical([Constraint::Length(12), Constraint::Min(4)]).areas(left);
    let [moves, engine] =
        Layout::vertical([Constraint::Min(4), Constraint::Length(7)]).areas(right);

    let result = app
        .game
        .end()
        .map(|e| format!(" · {} {}", e.result(), e.describe()))
        .unwrap_or_default();
    f.render_widget(
        Paragraph::new(format!(
            " z80chess · {} build · level {} · {} · you play {}{result}",
            app.game.build(),
            app.game.level,
            app.pace.describe(),
            side_name(app.human)
        ))
        .style(Style::new().add_modifier(Modifier::REVERSED)),
        title,
    );
    draw_board(f, app, board);
    draw_clocks(f, app, clocks);
    draw_moves(f, app, moves);
    draw_engine(f, app, engine);

    let (msg, bad) = &app.message;
    let style = if *bad {
        Style::new().fg(Tc::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    f.render_widget(Paragraph::new(format!(" {msg}")).style(style), message);
    let prompt = if app.search.is_some() {
        " Z80 thinking (Space: move now) > ".to_string()
    } else if app.game.end().is_some() {
        " Game over > ".to_string()
    } else if app.game.pos().turn() == app.human {
        format!(" Your move ({}) > ", side_name(app.human))
    } else {
        " > ".to_string()
    };
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(prompt.clone(), Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(app.input.clone()),
        ])),
        input,
    );
    let cx = input.x + (prompt.chars().count() + app.input.chars().count()) as u16;
    if cx < input.x + input.width {
        f.set_cursor_position((cx, input.y));
    }
    f.render_widget(
        Paragraph::new(" F1 help  F2 new  F3 flip  F4 undo  F5 move now  F6 switch  Esc quit")
            .style(Style::new().fg(Tc::DarkGray)),
        keys,
    );
}

fn glyph(role: Role, white: bool, ascii: bool) -> char {
    if ascii {
        let c = role.char();
        return if white { c.to_ascii_uppercase() } else { c };
    }
    match (role, white) {
        (Role::King, true) => '♔',
        (Role::Queen, true) => '♕',
        (Role::Rook, true) => '♖',
        (Role::Bishop, true) => '♗',
        (Role::Knight, true) => '♘',
        (Role::Pawn, true) => '♙',
        (Role::King, false) => '♚',
        (Role::Queen, false) => '♛',
        (Role::Rook, false) => '♜',
        (Role::Bishop, false) => '♝',
        (Role::Knight, false) => '♞',
        (Role::Pawn, false) => '♟',
    }
}

/// The squares of the last move (from, to; castling: the king's).
fn last_move_squares(app: &App) -> Vec<Square> {
    let Some(p) = app.game.plies.last() else {
        return Vec::new();
    };
    let uci = p.fw.uci();
    [&uci[0..2], &uci[2..4]]
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect()
}

fn draw_board(f: &mut Frame, app: &App, area: Rect) {
    let pos = app.game.pos();
    let last = last_move_squares(app);
    let check = if pos.is_check() {
        pos.board().king_of(pos.turn())
    } else {
        None
    };
    let files: Vec<u32> = if app.flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let ranks: Vec<u32> = if app.flipped {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let mut lines = Vec::new();
    for &r in &ranks {
        let mut spans = vec![Span::raw(format!(" {} ", r + 1))];
        for &fl in &files {
            let sq = Square::from_coords(File::new(fl), Rank::new(r));
            let light = (fl + r) % 2 == 1;
            let bg = if Some(sq) == check {
                Tc::Rgb(220, 60, 60)
            } else if last.contains(&sq) {
                if light {
                    Tc::Rgb(206, 210, 107)
                } else {
                    Tc::Rgb(170, 162, 58)
                }
            } else if light {
                Tc::Rgb(240, 217, 181)
            } else {
                Tc::Rgb(181, 136, 99)
            };
            let (text, fg) = match pos.board().piece_at(sq) {
                Some(p) => {
                    let white = p.color == Color::White;
                    let fg = if app.ascii && white {
                        Tc::White
                    } else {
                        Tc::Black
                    };
                    (format!(" {} ", glyph(p.role, white, app.ascii)), fg)
                }
                None => ("   ".to_string(), Tc::Black),
            };
            spans.push(Span::styled(
                text,
                Style::new().bg(bg).fg(fg).add_modifier(Modifier::BOLD),
            ));
        }
        lines.push(Line::from(spans));
    }
    let letters: String = files
        .iter()
        .map(|&fl| format!(" {} ", (b'a' + fl as u8) as char))
        .collect();
    lines.push(Line::from(format!("   {letters}")));
    let status = match app.game.end() {
        Some(e) => e.describe(),
        None if pos.is_check() => format!("{} to move: check!", side_name(pos.turn())),
        None => format!("{} to move", side_name(pos.turn())),
    };
    lines.push(Line::from(format!(" {status}")));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Board ")),
        area,
    );
}

fn draw_clocks(f: &mut Frame, app: &App, area: Rect) {
    let mut lines = vec![Line::from("         wall      Z80 time")];
    for c in [Color::White, Color::Black] {
        let who = if c == app.human { "you" } else { "Z80" };
        let z80 = if c == app.engine_colour() {
            let running = app
                .search
                .as_ref()
                .map(|s| {
                    app.pace
                        .emulated(s.search.tstates.saturating_sub(app.pondered))
                })
                .unwrap_or_default();
            clock(app.z80_time + running)
        } else {
            String::new()
        };
        let mark = if app.game.pos().turn() == c && app.game.end().is_none() {
            "▸"
        } else {
            " "
        };
        lines.push(Line::from(format!(
            "{mark}{:<6} {:>8}  {:>8}  {who}",
            side_name(c),
            clock(app.wall(c)),
            z80
        )));
    }
    lines.push(Line::from(format!(" Z80 at {}", app.pace.clock_text())));
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Clocks ")),
        area,
    );
}

fn draw_moves(f: &mut Frame, app: &App, area: Rect) {
    let inner_h = area.height.saturating_sub(2) as usize;
    if app.help {
        let lines: Vec<Line> = HELP.iter().map(|l| Line::from(format!(" {l}"))).collect();
        f.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Help (F1 or 'help' to close) "),
            ),
            area,
        );
        return;
    }
    // Rows of "n. white black".
    let mut rows: Vec<String> = Vec::new();
    for (i, ply) in app.game.plies.iter().enumerate() {
        let before = app.game.pos_before(i);
        let n = before.fullmoves().get();
        match before.turn() {
            Color::White => rows.push(format!("{n:>4}. {:<9}", ply.san)),
            Color::Black => {
                if i == 0 {
                    rows.push(format!("{n:>4}. {:<9}", "..."));
                }
                let last = rows.last_mut().expect("a row");
                last.push_str(&format!("{:<9}", ply.san));
            }
        }
    }
    let skip = rows.len().saturating_sub(inner_h);
    let lines: Vec<Line> = rows[skip..].iter().map(|r| Line::from(r.clone())).collect();
    let title = if app.game.from_initial() {
        " Moves ".to_string()
    } else {
        " Moves (from a set-up position) ".to_string()
    };
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        area,
    );
}

fn thought_lines(t: &Thought, san: &str, prefix: &str, pace: &Pace) -> Vec<String> {
    let secs = pace.emulated(t.tstates).as_secs_f64();
    let what = match t.kind {
        SearchKind::Book => "from the book".to_string(),
        SearchKind::Stopped => format!("moved now at depth {}, score {}", t.depth, t.score_text()),
        SearchKind::Overflow => format!(
            "depth {} (a list overflowed), score {}",
            t.depth,
            t.score_text()
        ),
        SearchKind::Searched => format!("depth {}, score {}", t.depth, t.score_text()),
    };
    vec![
        format!("Last: {prefix} {san}, {what}"),
        format!(
            "evaluations {}, moves made {}",
            group(t.evaluations as u64),
            group(t.nodes as u64)
        ),
        format!(
            "T-states {} = {secs:.1} s at {}",
            group(t.tstates),
            pace.clock_text()
        ),
    ]
}

fn draw_engine(f: &mut Frame, app: &App, area: Rect) {
    let mut lines: Vec<String> = Vec::new();
    if let Some(s) = app.search.as_ref().map(|d| &d.search) {
        let pos = app.game.pos();
        lines.push(format!(
            "Thinking at level {}{}",
            s.level,
            if s.stopping { ": moving now" } else { "" }
        ));
        match s.depths.last() {
            Some(d) => {
                let san = d
                    .best
                    .to_move(pos)
                    .map(|m| shakmaty::san::San::from_move(pos, m).to_string())
                    .unwrap_or_else(|| d.best.uci());
                lines.push(format!(
                    "depth {} done: best {san}, score {}",
                    d.depth,
                    crate::session::describe_score(d.score, &s.depths)
                ));
            }
            None => lines.push("depth 1 not done yet".into()),
        }
        lines.push(format!(
            "evaluations {}, moves made {}",
            group(s.evaluations as u64),
            group(s.nodes as u64)
        ));
        let wall = app.now.saturating_duration_since(s.wall_start);
        lines.push(format!(
            "T-states {}: {:.1} s emulated, {:.1} s wall",
            group(s.tstates),
            s.emulated(&app.pace).as_secs_f64(),
            wall.as_secs_f64()
        ));
    } else if let Some(p) = &app.pondering {
        lines.push(format!("Pondering on your {}", p.san));
        match (&p.result, p.search.depths.last()) {
            (Some(_), _) => lines.push("its answer is ready".into()),
            (None, Some(d)) => lines.push(format!("depth {} done", d.depth)),
            (None, None) => lines.push("depth 1 not done yet".into()),
        }
        lines.push(format!(
            "T-states {}: {:.1} s emulated",
            group(p.search.tstates),
            p.search.emulated(&app.pace).as_secs_f64()
        ));
    } else if let Some((i, ply)) = app
        .game
        .plies
        .iter()
        .enumerate()
        .rev()
        .find(|(_, p)| p.thought.is_some())
    {
        let t = ply.thought.as_ref().expect("found");
        let prefix = move_prefix(app.game.pos_before(i));
        lines = thought_lines(t, &ply.san, &prefix, &app.pace);
    } else {
        lines.push(format!(
            "The Z80 plays {} at level {}.",
            side_name(app.engine_colour()),
            app.game.level
        ));
    }
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| Line::from(format!(" {l}")))
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Z80 ")),
        area,
    );
}

/// The screen as text, one line per row, trailing spaces removed (for tests).
pub fn render_text(app: &App, width: u16, height: u16) -> String {
    let Ok(mut term) = Terminal::new(TestBackend::new(width, height));
    if term.draw(|f| draw(f, app)).is_err() {
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

/// The background colour of a board square on the rendered screen (for tests).
pub fn square_background(app: &App, width: u16, height: u16, sq: Square) -> Option<Tc> {
    let mut term = Terminal::new(TestBackend::new(width, height)).ok()?;
    term.draw(|f| draw(f, app)).ok()?;
    let buf = term.backend().buffer();
    let (fl, r) = (u32::from(sq.file()) as u16, u32::from(sq.rank()) as u16);
    let col = if app.flipped { 7 - fl } else { fl };
    let row = if app.flipped { r } else { 7 - r };
    // The board block starts at (0, 1); inside its border, 3 columns of rank label.
    let x = 1 + 3 + col * 3 + 1;
    let y = 1 + 1 + row;
    buf.cell((x, y)).map(|c| c.bg)
}

/// Restores the terminal when dropped (normal exit, error or unwinding).
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = ratatui::try_restore();
    }
}

/// The interactive loop.
pub fn run(opts: &TuiOptions) -> Result<(), String> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(
            "the full-screen mode needs a terminal (try 'z80chess play --text' for a line-oriented session)"
                .into(),
        );
    }
    let mut app = App::new(opts)?;
    let mut term = ratatui::try_init().map_err(|e| e.to_string())?;
    let _restore = Restore;
    app.reset_clocks(Instant::now());
    let mut last_draw: Option<Instant> = None;
    loop {
        app.now = Instant::now();
        if last_draw.is_none_or(|t| app.now.duration_since(t) >= Duration::from_millis(50)) {
            term.draw(|f| draw(f, &app)).map_err(|e| e.to_string())?;
            last_draw = Some(app.now);
        }
        if app.quit {
            break;
        }
        app.maybe_think();
        let timeout = match &app.search {
            Some(_) => {
                app.step(app.pace.slice());
                match &app.search {
                    Some(s) => s.wait().min(Duration::from_millis(50)),
                    None => {
                        last_draw = None;
                        Duration::ZERO
                    }
                }
            }
            None if app.pondering_running() => {
                app.step_ponder(app.pace.slice());
                match &app.pondering {
                    Some(p) if p.result.is_none() => {
                        p.search.ahead(&app.pace).min(Duration::from_millis(50))
                    }
                    _ => Duration::ZERO,
                }
            }
            None => Duration::from_millis(200),
        };
        if !event::poll(timeout).map_err(|e| e.to_string())? {
            continue;
        }
        last_draw = None;
        let Event::Key(k) = event::read().map_err(|e| e.to_string())? else {
            continue;
        };
        if k.kind != KeyEventKind::Press {
            continue;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if app.help && k.code != KeyCode::F(1) {
            app.help = false;
        }
        match k.code {
            KeyCode::Char('c') | KeyCode::Char('q') | KeyCode::Char('d') if ctrl => app.quit = true,
            KeyCode::Char(' ') if app.search.is_some() && app.input.is_empty() => app.move_now(),
            KeyCode::Char(c) if !ctrl => app.input.push(c),
            KeyCode::Backspace => {
                app.input.pop();
            }
            KeyCode::Enter => {
                if app.input.trim().is_empty() {
                    app.move_now();
                } else {
                    let text = std::mem::take(&mut app.input);
                    app.submit(&text);
                }
            }
            KeyCode::Esc => {
                if app.input.is_empty() {
                    app.quit = true;
                } else {
                    app.input.clear();
                }
            }
            KeyCode::F(1) => app.help = !app.help,
            KeyCode::F(2) => app.submit("new"),
            KeyCode::F(3) => app.submit("flip"),
            KeyCode::F(4) => app.submit("undo"),
            KeyCode::F(5) => app.move_now(),
            KeyCode::F(6) => app.submit("switch"),
            _ => {}
        }
    }
    drop(term);
    Ok(())
}
