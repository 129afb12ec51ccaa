//! The commands a player types in the two interactive modes (`play --text` and the full
//! screen), parsed once. Each mode decides what a command does and how it words the answer
//! (the text mode shouts in capitals as the 1978 program did); what a command is, which words
//! name it and what its argument must be is said here only.
//!
//! A line that is not a command is a move ([`Command::Move`]): the game's move parser (SAN or
//! coordinates) reads it, so `e4`, `Nf3`, `E2-E4` all arrive there.

use crate::firmware::{parse_fen, Build};
use crate::session::LEVELS;
use shakmaty::{Chess, Color};

/// One thing the player asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `help`, `?`
    Help,
    /// `board`: show the board (the full screen always shows it).
    Board,
    /// `hint`: the tablebase's verdict on the position.
    Hint,
    /// `flip`: turn the board round.
    Flip,
    /// `ascii`: letters for pieces (the full screen; the text mode's board is letters).
    Ascii,
    /// `quit`, `exit`, `bye`
    Quit,
    /// `new`: a new game.
    New,
    /// `undo`, `takeback`: back to the player's last turn.
    Undo,
    /// `switch`, `go`: the two sides change hands.
    Switch,
    /// `color white|black` (also `colour`, `w`, `b`): the player's side.
    Colour(Color),
    /// `level n`: the look ahead, one of [`LEVELS`].
    Level(u8),
    /// `build article|1978|full`
    Build(Build),
    /// `fen FEN`: set up a position (checked: legal, the firmware can hold it).
    Fen(Box<Chess>),
    /// `save FILE`: add the game to a PGN file.
    Save(String),
    /// `load FILE`: the last game of a PGN file.
    Load(String),
    /// `ponder on|off` (the full build names the reply it expects).
    Ponder(bool),
    /// `resign`
    Resign,
    /// Anything else: a move, for the game's move parser.
    Move(String),
}

/// A command word with an argument it cannot take. The text says what was wrong and what
/// is wanted; [`CommandError::shout`] gives the text mode's wording.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CommandError {
    #[error("level: please give a look ahead from {lo} to {hi}{typed}", lo = LEVELS.start(), hi = LEVELS.end(), typed = typed(.0))]
    Level(String),
    #[error("build: article, 1978 or full{}", typed(.0))]
    Build(String),
    #[error("color: white or black{}", typed(.0))]
    Colour(String),
    #[error("ponder: on or off{}", typed(.0))]
    Ponder(String),
    #[error("{0}: give a file name")]
    NoFile(&'static str),
    #[error("fen: {0}")]
    Fen(String),
}

/// What the player typed after the command word, when there was something.
fn typed(arg: &str) -> String {
    if arg.is_empty() {
        String::new()
    } else {
        format!(" ('{arg}' is not one)")
    }
}

impl CommandError {
    /// The text mode's wording: the command word and the fixed words in capitals, as the 1978
    /// program printed; what the player typed (a FEN's fault) as typed.
    pub fn shout(&self) -> String {
        match self {
            CommandError::Fen(e) => format!("FEN: {e}"),
            other => other.to_string().to_uppercase(),
        }
    }
}

impl Command {
    /// Read one line (already trimmed of surrounding space; not empty).
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let arg = rest.to_ascii_lowercase();
        Ok(match word.to_ascii_lowercase().as_str() {
            "help" | "?" => Command::Help,
            "board" => Command::Board,
            "hint" => Command::Hint,
            "flip" => Command::Flip,
            "ascii" => Command::Ascii,
            "quit" | "exit" | "bye" => Command::Quit,
            "new" => Command::New,
            "undo" | "takeback" => Command::Undo,
            "switch" | "go" => Command::Switch,
            "resign" => Command::Resign,
            "color" | "colour" => Command::Colour(match arg.as_str() {
                "w" | "white" => Color::White,
                "b" | "black" => Color::Black,
                _ => return Err(CommandError::Colour(rest.into())),
            }),
            "level" => match arg.parse::<u8>() {
                Ok(l) if LEVELS.contains(&l) => Command::Level(l),
                _ => return Err(CommandError::Level(rest.into())),
            },
            "build" => match arg.parse::<Build>() {
                Ok(b) => Command::Build(b),
                Err(_) => return Err(CommandError::Build(rest.into())),
            },
            "fen" => Command::Fen(Box::new(
                parse_fen(rest).map_err(|e| CommandError::Fen(e.to_string()))?,
            )),
            "save" if rest.is_empty() => return Err(CommandError::NoFile("save")),
            "save" => Command::Save(rest.into()),
            "load" if rest.is_empty() => return Err(CommandError::NoFile("load")),
            "load" => Command::Load(rest.into()),
            "ponder" => match arg.as_str() {
                "on" => Command::Ponder(true),
                "off" => Command::Ponder(false),
                _ => return Err(CommandError::Ponder(rest.into())),
            },
            _ => Command::Move(line.into()),
        })
    }

    /// A command that only looks: it leaves a search on the player's time running.
    pub fn only_looks(&self) -> bool {
        matches!(
            self,
            Command::Help
                | Command::Board
                | Command::Hint
                | Command::Flip
                | Command::Ascii
                | Command::Save(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_arguments() {
        let ok = [
            ("help", Command::Help),
            ("?", Command::Help),
            ("BOARD", Command::Board),
            ("Quit", Command::Quit),
            ("bye", Command::Quit),
            ("takeback", Command::Undo),
            ("go", Command::Switch),
            ("colour B", Command::Colour(Color::Black)),
            ("color white", Command::Colour(Color::White)),
            ("LEVEL 6", Command::Level(6)),
            ("build 1978", Command::Build(Build::B1978)),
            ("BUILD Full", Command::Build(Build::Full)),
            ("save my games.pgn", Command::Save("my games.pgn".into())),
            ("LOAD Game.PGN", Command::Load("Game.PGN".into())),
            ("ponder ON", Command::Ponder(true)),
            ("e2-e4", Command::Move("e2-e4".into())),
            ("  Nf3  ", Command::Move("Nf3".into())),
        ];
        for (line, want) in ok {
            assert_eq!(Command::parse(line), Ok(want), "{line}");
        }
        assert!(matches!(
            Command::parse("fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Ok(Command::Fen(_))
        ));
    }

    #[test]
    fn a_bad_argument_is_named() {
        let bad = [
            (
                "level 7",
                "level: please give a look ahead from 1 to 6 ('7' is not one)",
            ),
            ("level", "level: please give a look ahead from 1 to 6"),
            ("ponder", "ponder: on or off"),
            (
                "build z80",
                "build: article, 1978 or full ('z80' is not one)",
            ),
            ("colour red", "color: white or black ('red' is not one)"),
            ("ponder maybe", "ponder: on or off ('maybe' is not one)"),
            ("save", "save: give a file name"),
            ("load  ", "load: give a file name"),
        ];
        for (line, want) in bad {
            assert_eq!(
                Command::parse(line).unwrap_err().to_string(),
                want,
                "{line}"
            );
        }
        let fen = Command::parse("fen 9/8 w").unwrap_err();
        assert!(fen.shout().starts_with("FEN: "), "{}", fen.shout());
        assert_eq!(
            Command::parse("build z80").unwrap_err().shout(),
            "BUILD: ARTICLE, 1978 OR FULL ('Z80' IS NOT ONE)"
        );
    }
}
