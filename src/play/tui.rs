//! `z80chess play`: the full-screen chess computer. The board (Unicode pieces, or letters with
//! `--ascii`), coordinates, the last move and a king in check highlighted, the move list, both
//! clocks (wall time and the Z80's emulated time side by side), and while the Z80 thinks: its
//! best move so far, depth, evaluations and T-states.
//!
//! [`draw()`] only reads the [`App`], so a test renders it on ratatui's `TestBackend`
//! ([`render_text`]). The terminal is restored on exit, on an error, on a panic (ratatui's
//! hook) and on Ctrl-C (a key like any other in raw mode).

use super::command::Command;
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

mod draw;
pub use draw::{draw, render_text, square_background};

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
    /// The running search's pass over the root moves and its T-states when the pass began
    /// (for the estimate of the time the pass still needs).
    pub pass_start: Option<(u8, u64)>,
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

pub use crate::session::group;

impl App {
    pub fn new(opts: &TuiOptions) -> Result<App, String> {
        let mut game = Game::new(opts.build, opts.level).map_err(|e| e.to_string())?;
        game.set_level(opts.level).map_err(|e| e.to_string())?;
        game.set_params(opts.params.clone())
            .map_err(|e| e.to_string())?;
        if let Some(f) = &opts.fen {
            game.set_start(parse_fen(f).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?;
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
            pass_start: None,
        })
    }

    fn say(&mut self, text: impl Into<String>) {
        self.message = (text.into(), false);
    }

    fn complain(&mut self, text: impl std::fmt::Display) {
        self.message = (text.to_string(), true);
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
            Ok(None) => {
                let pass = self.game.engine.progress().pass;
                if self.pass_start.is_none_or(|(p, _)| p != pass) {
                    self.pass_start = Some((pass, driver.search.tstates));
                }
            }
            Ok(Some(r)) => {
                self.search = None;
                self.pass_start = None;
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
        self.pass_start = None;
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
            self.game.undo().map_err(|e| e.to_string())?;
            while self.game.pos().turn() != self.human && !self.game.plies.is_empty() {
                self.game.undo().map_err(|e| e.to_string())?;
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
        let command = match Command::parse(text) {
            Ok(c) => c,
            Err(e) => return self.complain(e.to_string()),
        };
        match command {
            Command::Help => self.help = !self.help,
            Command::Board => self.say("The board is on the screen (flip turns it round)."),
            Command::Quit => self.quit = true,
            Command::New => self.new_game(),
            Command::Undo => self.undo(),
            Command::Flip => {
                self.flipped = !self.flipped;
                let below = if self.flipped { "Black" } else { "White" };
                self.say(format!("Board turned round: {below} at the bottom."));
            }
            Command::Hint => {
                let h = crate::tablebase::verdict::hint(
                    self.game.pos(),
                    std::path::Path::new(crate::tablebase::verdict::DEFAULT_DIR),
                );
                self.say(h)
            }
            Command::Ascii => self.ascii = !self.ascii,
            Command::Ponder(true) if self.game.build() == Build::Full => {
                self.ponder = true;
                self.say("Pondering on: the Z80 thinks on your time (from its next move).");
            }
            Command::Ponder(true) => {
                self.complain("ponder: only the full build names the reply it expects")
            }
            Command::Ponder(false) => {
                self.stop_ponder();
                self.ponder = false;
                self.say("Pondering off.");
            }
            Command::Switch => {
                self.abandon();
                self.human = !self.human;
                // The player's side at the bottom, as at the start of a game.
                self.flipped = self.human == Color::Black;
                self.say(format!("You play {} now.", side_name(self.human)));
            }
            Command::Colour(c) => {
                if c != self.human {
                    self.abandon();
                    self.human = c;
                    self.flipped = c == Color::Black;
                }
                self.say(format!("You play {}.", side_name(c)));
            }
            Command::Level(l) => match self.game.set_level(l) {
                Ok(()) => self.say(format!("Level {l} (from the Z80's next move).")),
                Err(e) => self.complain(e),
            },
            Command::Build(b) => {
                self.abandon();
                match self.game.set_build(b) {
                    Ok(()) => self.say(format!("The {b} build.")),
                    Err(e) => self.complain(e),
                }
            }
            Command::Fen(pos) => {
                self.abandon();
                match self.game.set_start(*pos) {
                    Ok(()) => {
                        self.reset_clocks(Instant::now());
                        self.say("Position set up.");
                    }
                    Err(e) => self.complain(e),
                }
            }
            Command::Save(file) => self.save(&file),
            Command::Load(file) => self.load(&file),
            Command::Resign => {
                self.abandon();
                self.game.resign(self.human);
                let end = self.game.end().expect("resigned");
                self.say(format!("{} ({}).", end.describe(), end.result()));
            }
            Command::Move(text) => self.user_move(&text),
        }
    }

    /// `save FILE`: the game added to a PGN file (a file that is not PGN is never touched).
    fn save(&mut self, rest: &str) {
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

    /// `load FILE`: the last game of a PGN file (nothing changes when it cannot be read); the
    /// clocks go on from where they were.
    fn load(&mut self, rest: &str) {
        match pgn::load_file(std::path::Path::new(rest)) {
            Err(e) => self.complain(format!("load: {e}")),
            Ok(c) => {
                let which = if c.games > 1 {
                    format!(", game {} of {}", c.number, c.games)
                } else {
                    String::new()
                };
                self.abandon();
                let side_before = self.game.pos().turn();
                match c.apply(&mut self.game) {
                    Err(e) => self.complain(format!("load {rest}: {e}")),
                    Ok(l) => {
                        if let Some(c) = l.engine {
                            self.human = !c;
                            self.flipped = self.human == Color::Black;
                        }
                        // The clocks keep what each side has used at this board (a PGN file
                        // carries no clock times): the running turn is charged to the side
                        // that was to move, and the loaded position's side starts afresh.
                        self.end_turn(side_before);
                        self.say(format!(
                            "Loaded {} plies ({} build, level {}{which}).",
                            self.game.plies.len(),
                            self.game.build(),
                            self.game.level
                        ));
                    }
                }
            }
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
