//! `z80chess play --text`: the game as a line-oriented session on stdin/stdout, in the spirit
//! of the 1978 program ("SELECT LOOK AHEAD (1-6)", moves like `E2-E4`, "CHECK", "MATE IN n"),
//! scriptable, with no terminal control codes. When the input is not a terminal each line read
//! is echoed after its prompt, so a transcript reads like the session.
//!
//! Pondering (`--ponder` or `PONDER ON`, the full build): after its move the Z80 plays the reply
//! it expects in the firmware only and searches on while the player types (a reader thread
//! feeds the lines, so the search runs in slices between looks at the input). If the player
//! makes that move the same search goes on as the real one, and only the T-states after the
//! move count as the Z80's time; any other move or a command that changes the game stops it
//! and takes the reply back out of the firmware. When the input is not a terminal the
//! ponder search runs to its end before the next line is read, so a script's transcript does
//! not depend on how fast the lines arrive.

use super::command::Command;
use crate::firmware::{parse_fen, Build, SearchKind};
use crate::session::clock::Pace;
use crate::session::game::{move_prefix, End, Game, Ply, Ponder};
use crate::session::pgn;
use crate::session::search::{Driver, Heard, Listener, Outcome, Search};
use shakmaty::{Chess, Color, Position};
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// What the command line fixed.
#[derive(Clone, Debug)]
pub struct TextOptions {
    pub build: Build,
    /// Asked at the start of each game when not given.
    pub level: Option<u8>,
    /// The human's colour; asked when not given.
    pub colour: Option<Color>,
    pub pace: Pace,
    pub fen: Option<String>,
    /// Print the board after each of the computer's moves.
    pub board: bool,
    /// The full build's parameter file, if any.
    pub params: Option<crate::firmware::params::ParamFile>,
    /// Think on the player's time (the full build).
    pub ponder: bool,
}

const HELP: &str = "\
MOVES: SAN (Nf3, exd5, O-O, e8=Q) OR COORDINATES (g1f3, E2-E4, e7e8q)
COMMANDS:
  BOARD          SHOW THE BOARD
  FLIP           TURN THE BOARD ROUND
  UNDO           TAKE BACK YOUR LAST MOVE (AND MINE)
  NEW            A NEW GAME
  SWITCH         I PLAY YOUR SIDE (ALSO: GO)
  LEVEL n        LOOK AHEAD 1-6
  BUILD b        ARTICLE, 1978, FULL
  FEN f          SET UP A POSITION
  RESIGN         GIVE UP THIS GAME
  SAVE file      ADD THE GAME TO A PGN FILE (A FILE THAT IS NOT PGN IS NEVER TOUCHED)
  LOAD file      READ THE LAST GAME OF A PGN FILE
  HINT           THE TABLEBASE'S VERDICT
  PONDER ON|OFF  FULL BUILD: I THINK ON YOUR TIME
  QUIT           LEAVE";

struct Session<'a> {
    opts: TextOptions,
    out: &'a mut dyn Write,
    lines: &'a Receiver<String>,
    interactive: bool,
    game: Game,
    engine: Color,
    flipped: bool,
    level: Option<u8>,
    colour: Option<Color>,
    /// Pondering is on.
    ponder: bool,
    /// The search on the player's time, while it is theirs to move.
    pondering: Option<Ponder>,
    /// A ponder hit: the search the Z80's next move continues.
    hit: Option<Ponder>,
    /// The question being asked, repeated after a line that is refused.
    prompt: String,
}

enum Flow {
    Continue,
    GameOver,
    Quit,
}

/// Run a session reading `lines` and writing to `out`. `interactive`: the input is a terminal
/// (no echo; a line typed while the computer thinks makes it move now).
pub fn run(
    opts: TextOptions,
    lines: &Receiver<String>,
    out: &mut dyn Write,
    interactive: bool,
) -> Result<(), String> {
    let mut game = Game::new(
        opts.build,
        opts.level.unwrap_or(crate::session::DEFAULT_LEVEL),
    )
    .map_err(|e| e.to_string())?;
    game.set_params(opts.params.clone())
        .map_err(|e| e.to_string())?;
    let mut s = Session {
        level: opts.level,
        colour: opts.colour,
        ponder: opts.ponder,
        pondering: None,
        hit: None,
        opts,
        out,
        lines,
        interactive,
        game,
        engine: Color::Black,
        flipped: false,
        prompt: String::new(),
    };
    s.session().map_err(|e| e.to_string())
}

type Io = Result<(), Box<dyn std::error::Error>>;

impl Session<'_> {
    fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// Prompt and read one line (None at the end of input).
    fn ask(&mut self, prompt: &str) -> std::io::Result<Option<String>> {
        self.prompt = prompt.to_string();
        write!(self.out, "{prompt} ")?;
        self.out.flush()?;
        self.read()
    }

    /// Wait for one line, echoed when the input is not a terminal (None at the end of input).
    /// A line that is not UTF-8 is refused by name and the question asked again.
    fn read(&mut self) -> std::io::Result<Option<String>> {
        loop {
            match self.lines.recv() {
                Ok(l) => {
                    if !self.interactive {
                        writeln!(self.out, "{l}")?;
                    }
                    if self.refuse_not_utf8(&l)? {
                        continue;
                    }
                    return Ok(Some(l));
                }
                Err(_) => {
                    writeln!(self.out)?;
                    return Ok(None);
                }
            }
        }
    }

    /// A line with bytes that are not UTF-8 (they arrive as U+FFFD) is refused, naming it, and
    /// the question is asked again: nothing reads it as a move, a command or a file name.
    fn refuse_not_utf8(&mut self, line: &str) -> std::io::Result<bool> {
        if !super::not_utf8(line) {
            return Ok(false);
        }
        self.say(&format!(
            "NOT UTF-8 TEXT, IGNORED: '{}' (\u{FFFD} MARKS THE BYTES THAT ARE NOT TEXT)",
            line.trim_end()
        ))?;
        if !self.prompt.is_empty() {
            write!(self.out, "{} ", self.prompt)?;
            self.out.flush()?;
        }
        Ok(true)
    }

    fn session(&mut self) -> Io {
        let build = self.opts.build;
        self.say(&format!(
            "Z80CHESS {} -- A SARGON-STYLE CHESS PROGRAM ON AN EMULATED Z80",
            env!("CARGO_PKG_VERSION")
        ))?;
        self.say(&format!(
            "{} BUILD, {}",
            build.to_string().to_uppercase(),
            self.opts.pace.describe().to_uppercase()
        ))?;
        loop {
            if !self.setup_game()? {
                break;
            }
            match self.play_game()? {
                Flow::Quit => break,
                Flow::GameOver | Flow::Continue => {}
            }
            let again = loop {
                match self.ask("CARE FOR ANOTHER GAME (Y/N)?")? {
                    None => break false,
                    Some(a) => match a.trim().to_ascii_uppercase().as_str() {
                        "Y" | "YES" => break true,
                        "N" | "NO" | "QUIT" => break false,
                        _ => self.say("PLEASE ANSWER Y OR N")?,
                    },
                }
            };
            if !again {
                break;
            }
        }
        self.say("GOODBYE")?;
        Ok(())
    }

    /// Colour, level and the start position; false at the end of input.
    fn setup_game(&mut self) -> Result<bool, Box<dyn std::error::Error>> {
        let colour = match self.colour {
            Some(c) => c,
            None => loop {
                let Some(a) = self.ask("DO YOU WANT TO PLAY WHITE OR BLACK (W/B)?")? else {
                    return Ok(false);
                };
                match a.trim().to_ascii_uppercase().as_str() {
                    "W" | "WHITE" => break Color::White,
                    "B" | "BLACK" => break Color::Black,
                    _ => self.say("PLEASE TYPE W OR B")?,
                }
            },
        };
        let level = match self.level {
            Some(l) => l,
            None => loop {
                let Some(a) = self.ask("SELECT LOOK AHEAD (1-6)?")? else {
                    return Ok(false);
                };
                match a.trim().parse::<u8>() {
                    Ok(l) if crate::session::LEVELS.contains(&l) => break l,
                    _ => self.say("PLEASE TYPE A NUMBER FROM 1 TO 6")?,
                }
            },
        };
        self.engine = !colour;
        self.flipped = colour == Color::Black;
        self.game.level = level;
        self.start_position()?;
        self.say("TYPE MOVES LIKE E2-E4 OR NF3; HELP LISTS THE COMMANDS")?;
        if self.opts.fen.is_some() || self.opts.board {
            self.board()?;
        }
        Ok(true)
    }

    fn play_game(&mut self) -> Result<Flow, Box<dyn std::error::Error>> {
        loop {
            if let Some(end) = self.game.end() {
                self.announce_end(end)?;
                return Ok(Flow::GameOver);
            }
            if self.game.pos().turn() == self.engine {
                match self.think()? {
                    Flow::Continue => continue,
                    other => return Ok(other),
                }
            }
            let Some(line) = self.ask_move()? else {
                self.stop_ponder()?;
                return Ok(Flow::Quit);
            };
            match self.command(line.trim())? {
                Flow::Continue => {}
                other => return Ok(other),
            }
        }
    }

    /// Prompt for the player's move and read it, pondering meanwhile (None at the end of
    /// input).
    fn ask_move(&mut self) -> Result<Option<String>, Box<dyn std::error::Error>> {
        if !self.interactive {
            // A script: the player "thinks" until the ponder search has ended.
            while self.pondering.as_ref().is_some_and(Ponder::running) {
                self.step_ponder(u64::MAX / 4)?;
            }
            return Ok(self.ask("YOUR MOVE?")?);
        }
        self.prompt = "YOUR MOVE?".into();
        write!(self.out, "YOUR MOVE? ")?;
        self.out.flush()?;
        // Ponder in slices, emulated time kept level with wall time, until a line comes.
        let pace = self.opts.pace;
        while let Some(p) = self.pondering.as_ref().filter(|p| p.running()) {
            match self.lines.recv_timeout(p.search.ahead(&pace)) {
                Ok(l) if self.refuse_not_utf8(&l)? => {}
                Ok(l) => return Ok(Some(l)),
                Err(RecvTimeoutError::Timeout) => self.step_ponder(pace.slice())?,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        Ok(self.read()?)
    }

    /// One slice of the ponder search; a failing firmware ends pondering with a message.
    fn step_ponder(&mut self, budget: u64) -> Io {
        let Some(p) = self.pondering.as_mut() else {
            return Ok(());
        };
        if let Err(e) = p.step(&mut self.game.engine, budget) {
            self.stop_ponder()?;
            self.say(&format!("THE FIRMWARE FAILED WHILE PONDERING: {e}"))?;
        }
        Ok(())
    }

    /// Stop pondering and take the expected reply back out of the firmware.
    fn stop_ponder(&mut self) -> Io {
        if let Some(p) = self.pondering.take() {
            self.game.end_ponder(p)?;
        }
        Ok(())
    }

    /// `SAVE file`: the game added to a PGN file (a file that is not PGN is never touched).
    fn save(&mut self, rest: &str) -> std::io::Result<()> {
        let text = pgn::write(&self.game, &self.players(), &pgn::today());
        match pgn::save(std::path::Path::new(rest), &text) {
            Ok(pgn::Saved::Created) => self.say(&format!("SAVED TO {rest}")),
            Ok(pgn::Saved::Appended { before }) => self.say(&format!(
                "SAVED TO {rest}, AFTER THE {before} GAME{} ALREADY IN IT",
                if before == 1 { "" } else { "S" }
            )),
            Err(e) => self.say(&format!("SAVE: {e}")),
        }
    }

    /// `LOAD file`: the last game of a PGN file (nothing changes when it cannot be read).
    fn load(&mut self, rest: &str) -> std::io::Result<()> {
        match pgn::load_file(std::path::Path::new(rest)) {
            Err(e) => self.say(&format!("LOAD: {e}"))?,
            Ok(c) => {
                let which = if c.games > 1 {
                    format!(" (GAME {} OF {})", c.number, c.games)
                } else {
                    String::new()
                };
                match c.apply(&mut self.game) {
                    Err(e) => self.say(&format!("LOAD: {e}"))?,
                    Ok(l) => {
                        if let Some(c) = l.engine {
                            self.engine = c;
                            self.flipped = c == Color::White;
                        }
                        self.say(&format!(
                            "LOADED {} PLIES{which}; {} BUILD, LOOK AHEAD {}",
                            self.game.plies.len(),
                            self.game.build().to_string().to_uppercase(),
                            self.game.level
                        ))?;
                        self.board()?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `PONDER ON|OFF` (the full build names the reply it expects).
    fn set_ponder(&mut self, on: bool) -> std::io::Result<()> {
        match on {
            true if self.game.build() == Build::Full => {
                self.ponder = true;
                self.say("PONDERING ON: I THINK ON YOUR TIME (FROM MY NEXT MOVE)")
            }
            true => self.say("PONDER: ONLY THE FULL BUILD NAMES THE REPLY IT EXPECTS"),
            false => {
                self.ponder = false;
                self.say("PONDERING OFF")
            }
        }
    }

    fn command(&mut self, line: &str) -> Result<Flow, Box<dyn std::error::Error>> {
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        let command = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.say(&e.shout())?;
                return Ok(Flow::Continue);
            }
        };
        if self.pondering.is_some() {
            // Commands that only look leave the ponder search running; the expected move is
            // a hit; anything else stops it first.
            if let Command::Move(text) = &command {
                if let Ok(m) = self.game.parse_move(text) {
                    if self.pondering.as_ref().is_some_and(|p| p.reply == m) {
                        return self.ponder_hit(m);
                    }
                }
            }
            if !command.only_looks() {
                self.stop_ponder()?;
            }
        }
        match command {
            Command::Help => self.say(HELP)?,
            Command::Board => self.board()?,
            Command::Hint => {
                let h = crate::tablebase::verdict::hint(
                    self.game.pos(),
                    std::path::Path::new(crate::tablebase::verdict::DEFAULT_DIR),
                );
                self.say(&h)?
            }
            Command::Flip => {
                self.flipped = !self.flipped;
                self.board()?;
            }
            Command::Ascii => self.say("THE BOARD IS LETTERS HERE")?,
            Command::Quit => return Ok(Flow::Quit),
            Command::New => {
                self.start_position()?;
                self.say("NEW GAME")?;
            }
            Command::Undo => self.undo()?,
            Command::Switch => {
                self.engine = !self.engine;
                self.flipped = !self.flipped;
                self.say(&format!("I PLAY {} NOW", side_name(self.engine)))?;
            }
            Command::Colour(c) => {
                self.engine = !c;
                self.flipped = c == Color::Black;
                self.say(&format!("YOU PLAY {}", side_name(c)))?;
            }
            Command::Level(l) => {
                self.game.level = l;
                self.level = Some(l);
                self.say(&format!("LOOK AHEAD {l}"))?;
            }
            Command::Build(b) => {
                self.game.set_build(b)?;
                self.say(&format!("{} BUILD", b.to_string().to_uppercase()))?;
            }
            Command::Fen(pos) => {
                self.game.set_start(*pos)?;
                self.board()?;
            }
            Command::Save(file) => self.save(&file)?,
            Command::Load(file) => self.load(&file)?,
            Command::Ponder(on) => self.set_ponder(on)?,
            Command::Resign => {
                let me = !self.engine;
                self.game.resign(me);
                let end = self.game.end().expect("resigned");
                self.announce_end(end)?;
                return Ok(Flow::GameOver);
            }
            Command::Move(text) => self.user_move(&text)?,
        }
        Ok(Flow::Continue)
    }

    /// A new game from the command line's position (`--fen`) or the initial one.
    fn start_position(&mut self) -> Io {
        match &self.opts.fen {
            Some(f) => {
                let pos = parse_fen(f).map_err(|e| e.to_string())?;
                self.game.set_start(pos)?;
            }
            None => self.game.new_game()?,
        }
        Ok(())
    }

    /// `UNDO`: back to the last position where it was the player's turn.
    fn undo(&mut self) -> Io {
        if self.game.plies.is_empty() {
            return Ok(self.say("NO MOVE TO TAKE BACK")?);
        }
        self.game.undo()?;
        while self.game.pos().turn() == self.engine && !self.game.plies.is_empty() {
            self.game.undo()?;
        }
        self.say("TAKEN BACK")?;
        if self.opts.board {
            self.board()?;
        }
        Ok(())
    }

    /// A move the player typed (SAN or coordinates).
    fn user_move(&mut self, text: &str) -> Io {
        match self.game.parse_move(text) {
            Err(e) => self.say(&format!("ILLEGAL MOVE: {e}"))?,
            Ok(m) => {
                let before = self.game.pos().clone();
                match self.game.play(m, None, false) {
                    Err(e) => self.say(&format!("ILLEGAL MOVE: {e}"))?,
                    Ok(()) => {
                        let ply = self.game.plies.last().expect("played").clone();
                        self.show_move(&before, &ply, 0)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn players(&self) -> pgn::Players {
        pgn::Players {
            engine: Some(self.engine),
            human: "Player".into(),
        }
    }

    /// The computer's move: a paced search, checked and played.
    fn think(&mut self) -> Result<Flow, Box<dyn std::error::Error>> {
        let pace = self.opts.pace;
        let (driver, done, pondered) = match self.hit.take() {
            Some(p) => {
                let t = p.tstates();
                (Driver::new(p.search, pace), p.result, t)
            }
            None => (
                Driver::depth(&mut self.game.engine, self.game.level, pace),
                None,
                0,
            ),
        };
        if self.interactive && pace.realtime && done.is_none() {
            self.say("I AM THINKING (PRESS ENTER TO MAKE ME MOVE NOW)")?;
        }
        let mut ears = Ears {
            out: &mut *self.out,
            lines: self.lines,
            prompt: &mut self.prompt,
            interactive: self.interactive,
            quit: false,
        };
        let result = match done {
            Some(r) => r,
            None => match driver.run(&mut self.game.engine, &mut ears)? {
                Outcome::Move { result, .. } => result,
                // (the text mode never abandons a search)
                Outcome::Abandoned => return Ok(Flow::Continue),
            },
        };
        let quit = ears.quit;
        let before = self.game.pos().clone();
        self.game.play_result(&result)?;
        let ply = self.game.plies.last().expect("played").clone();
        self.show_move(&before, &ply, pondered)?;
        if quit {
            return Ok(Flow::Quit);
        }
        if let Some(t) = &ply.thought {
            if let Some(n) = t.mate_in {
                if n > 0 && self.game.end().is_none() {
                    self.say(&format!("MATE IN {n}"))?;
                }
            }
        }
        if self.opts.board && self.game.end().is_none() {
            self.board()?;
        }
        if self.ponder {
            self.pondering = self.game.start_ponder(&result);
            if let Some(p) = &self.pondering {
                let text = format!("I EXPECT {} AND THINK ON YOUR TIME", p.san);
                self.say(&text)?;
            }
        }
        Ok(Flow::Continue)
    }

    /// The player made the move the Z80 pondered on: the firmware already holds it, and the
    /// ponder search goes on as the Z80's answer.
    fn ponder_hit(&mut self, m: shakmaty::Move) -> Result<Flow, Box<dyn std::error::Error>> {
        let p = self.pondering.take().expect("pondering");
        let before = self.game.pos().clone();
        self.game.record(m)?;
        let ply = self.game.plies.last().expect("played").clone();
        self.show_move(&before, &ply, 0)?;
        let secs = self.opts.pace.emulated(p.tstates()).as_secs_f64();
        self.say(&format!(
            "AS I EXPECTED (I THOUGHT ON YOUR TIME: {secs:.1} S)"
        ))?;
        self.hit = Some(p);
        Ok(Flow::Continue)
    }

    /// A move and its note; `pondered`: T-states of the search spent on the player's time
    /// (not the Z80's).
    fn show_move(&mut self, before: &Chess, ply: &Ply, pondered: u64) -> std::io::Result<()> {
        let prefix = move_prefix(before);
        let coords = Game::coords(before, ply.mv);
        let (num, dots) = match prefix.strip_suffix("...") {
            Some(n) => (format!("{n}."), " ..."),
            None => (prefix.clone(), ""),
        };
        let note = match &ply.thought {
            None => String::new(),
            Some(t) => {
                let own = t.tstates.saturating_sub(pondered);
                let secs = self.opts.pace.emulated(own).as_secs_f64();
                match t.kind {
                    SearchKind::Book => format!("(BOOK, {secs:.1} S)"),
                    SearchKind::Stopped => {
                        format!(
                            "(STOPPED, SCORE {}, {secs:.1} S)",
                            t.score_text().to_uppercase()
                        )
                    }
                    _ => format!(
                        "(LOOK AHEAD {}, SCORE {}, {secs:.1} S)",
                        t.depth,
                        t.score_text().to_uppercase()
                    ),
                }
            }
        };
        let line = format!("{num:>4}{dots:<4} {coords:<11}{:<9}{note}", ply.san);
        self.say(line.trim_end())?;
        let after = self.game.pos();
        if after.is_check() && !after.is_checkmate() {
            self.say("CHECK")?;
        }
        Ok(())
    }

    fn announce_end(&mut self, end: End) -> std::io::Result<()> {
        let me = self.engine;
        let lines: Vec<String> = match end {
            End::Checkmate { winner } => vec![
                "CHECKMATE".into(),
                if winner == me { "I WIN" } else { "YOU WIN" }.into(),
            ],
            End::Resigned { winner } => vec![if winner == me {
                "YOU RESIGN: I WIN".into()
            } else {
                "I RESIGN: YOU WIN".into()
            }],
            End::Stalemate => vec!["STALEMATE: A DRAW".into()],
            End::InsufficientMaterial => vec!["DRAW: NEITHER SIDE CAN MATE".into()],
            End::Threefold => vec!["DRAW BY THREEFOLD REPETITION".into()],
            End::FiftyMoves => vec!["DRAW BY THE 50-MOVE RULE".into()],
        };
        for l in lines {
            self.say(&l)?;
        }
        self.say(&format!("RESULT {}", end.result()))
    }

    fn board(&mut self) -> std::io::Result<()> {
        let text = board_text(self.game.pos(), self.flipped);
        self.say(text.trim_end())
    }
}

/// The board in letters (capitals White), rank 8 at the top unless `flipped`.
pub fn board_text(pos: &Chess, flipped: bool) -> String {
    let files = if flipped {
        "H G F E D C B A"
    } else {
        "A B C D E F G H"
    };
    let mut s = format!("    {files}\n");
    let ranks: Vec<u32> = if flipped {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    for r in ranks {
        s.push_str(&format!(" {}  ", r + 1));
        let fs: Vec<u32> = if flipped {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        for f in fs {
            let sq = shakmaty::Square::from_coords(shakmaty::File::new(f), shakmaty::Rank::new(r));
            let c = pos.board().piece_at(sq).map(|p| p.char()).unwrap_or('.');
            s.push(c);
            s.push(' ');
        }
        s.push_str(&format!(" {}\n", r + 1));
    }
    s.push_str(&format!("    {files}\n"));
    s.push_str(&format!(
        "    {} TO MOVE\n",
        if pos.turn() == Color::White {
            "WHITE"
        } else {
            "BLACK"
        }
    ));
    s
}
/// The text mode's side of a search: any line makes the Z80 move now (`QUIT` also leaves);
/// a line that is not text is refused by name. Not interactive: the search only keeps pace.
struct Ears<'a> {
    out: &'a mut dyn Write,
    lines: &'a Receiver<String>,
    prompt: &'a mut String,
    interactive: bool,
    quit: bool,
}

impl Listener for Ears<'_> {
    fn listen(&mut self, _: &Search, wait: Option<Duration>) -> std::io::Result<Heard> {
        let wait = wait.unwrap_or(Duration::ZERO);
        if !self.interactive {
            if wait > Duration::ZERO {
                std::thread::sleep(wait);
            }
            return Ok(Heard::Nothing);
        }
        match self.lines.recv_timeout(wait) {
            Ok(l) if super::not_utf8(&l) => {
                self.prompt.clear();
                writeln!(
                    self.out,
                    "NOT UTF-8 TEXT, IGNORED: '{}' (\u{FFFD} MARKS THE BYTES THAT ARE NOT TEXT)",
                    l.trim_end()
                )?;
                self.out.flush()?;
                Ok(Heard::Nothing)
            }
            Ok(l) => {
                if matches!(l.trim().to_ascii_uppercase().as_str(), "QUIT" | "EXIT") {
                    self.quit = true;
                }
                Ok(Heard::MoveNow)
            }
            Err(RecvTimeoutError::Timeout) => Ok(Heard::Nothing),
            Err(RecvTimeoutError::Disconnected) => {
                if wait > Duration::ZERO {
                    std::thread::sleep(wait);
                }
                Ok(Heard::Nothing)
            }
        }
    }
}

/// "WHITE" or "BLACK".
fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "WHITE",
        Color::Black => "BLACK",
    }
}
