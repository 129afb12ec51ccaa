//! The debugger's firmware commands: booting a build to its command loop, and `send`, which
//! builds each port command with [`crate::firmware::protocol::Command`] and reads the reply
//! with the protocol's own decoders ([`Reply::decode`]).

use super::*;
use crate::firmware::protocol::{error_name, Command, Op, Reply};
use crate::firmware::FwMove;
use shakmaty::{Chess, Position};

/// A square by name (`e4`) or mailbox index, in the firmware's terms: the crate's one square
/// parser ([`crate::chess::Square`]).
pub(super) fn parse_square(s: &str) -> Result<u8, String> {
    s.parse::<crate::chess::Square>()
        .map(crate::chess::Square::mailbox)
        .map_err(|e| e.to_string())
}

/// A move typed as UCI (e2e4, e7e8q) in the firmware's terms, legality unchecked.
pub(super) fn parse_uci(s: &str) -> Result<FwMove, String> {
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
pub(super) fn parse_moves(text: &str) -> Result<Vec<FwMove>, String> {
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

/// A firmware reply (status byte first) in words: the refusal, or the decoded reply.
pub(super) fn decode_reply(build: Build, cmd: u8, out: &[u8]) -> String {
    let Some((&status, r)) = out.split_first() else {
        return "no reply".into();
    };
    if status != 0 {
        return format!("refused: {}", error_name(status));
    }
    match Op::from_code(cmd) {
        Some(op) => match Reply::decode(build, op, r) {
            Ok(reply) => reply.to_string(),
            Err(e) => e.to_string(),
        },
        None => "done".into(),
    }
}

/// The bytes of a command (its arguments are checked before it is built).
fn wire(c: &Command) -> Result<Vec<u8>, String> {
    c.encode().map_err(|e| e.to_string())
}

const SEND_USAGE: &str = "usage: send WORD [ARGS]: ";

impl Session {
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
        let prog = Program::from_build(build, &super::super::program::source_root())?;
        let mut s = Session::with(Debugger::new(prog)?);
        let mut setup: Vec<Vec<u8>> = match params {
            Some(pf) => pf.commands(build).map_err(|e| e.to_string())?,
            None => Vec::new(),
        };
        match start {
            Start::Initial => {}
            Start::Fen(fen) => {
                let pos = parse_fen(fen).map_err(|e| e.to_string())?;
                setup.push(wire(&Command::Setup(crate::firmware::board::encode(&pos)))?);
            }
            Start::Moves(text) => {
                for m in parse_moves(text)? {
                    setup.push(wire(&Command::Move(m))?);
                }
            }
        }
        s.boot_command(&[], "boot")?;
        let id = s.boot_command(&wire(&Command::Ident)?, "identify")?;
        let ident = crate::firmware::protocol::status('I', &id)
            .and_then(|r| Reply::decode(build, Op::Ident, r));
        match ident {
            Ok(Reply::Ident { build: b, .. }) if b as i64 == build.switch() => {}
            _ => {
                return Err(format!(
                    "the ROM does not identify as build {build}: {}",
                    hex_bytes(&id, 8)
                ))
            }
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
            && d.track.frames().len() == 1
            && d.track.frames()[0].target == getb
            && p.describe(d.track.frames()[0].call_pc)
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

    /// Bytes given as expressions, separated by spaces or commas.
    fn byte_args(&self, args: &str) -> Result<Vec<u8>, String> {
        args.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|tok| {
                let v = self.eval(tok)?;
                u8::try_from(v).map_err(|_| format!("{v} is not a byte"))
            })
            .collect()
    }

    /// The command `send WORD ARGS` names, its arguments checked (errors name the bad one).
    fn send_command(&self, op: Op, args: &str) -> Result<Command, String> {
        let word = op.word();
        let usage = || format!("usage: send {word} {}", op.usage());
        if let Some(c) = Command::plain(op) {
            return match args {
                "" => Ok(c),
                _ => Err(format!("'send {word}' takes no argument")),
            };
        }
        let byte = |text: &str| -> Result<u8, String> {
            let v = self.count(text, u64::MAX)?;
            u8::try_from(v).map_err(|_| format!("{} (0..255)", usage()))
        };
        let words: Vec<&str> = args.split_whitespace().collect();
        Ok(match op {
            Op::Perft => Command::Perft(byte(args)?),
            Op::MoveNo => Command::MoveNo(byte(args)?),
            Op::Halfmove => Command::Halfmove(byte(args)?),
            Op::Move => Command::Move(parse_uci(args)?),
            Op::Setup => {
                let pos = parse_fen(args).map_err(|e| e.to_string())?;
                Command::Setup(crate::firmware::board::encode(&pos))
            }
            Op::Attack => Command::Attack(self.square_arg(args)?),
            Op::Xchng => Command::Xchng(self.square_arg(args)?),
            Op::Xarray => match self.byte_args(args)?[..] {
                [piece, ref array @ ..] if array.len() == 14 => Command::Xarray {
                    piece,
                    array: array.try_into().expect("14 bytes"),
                },
                _ => {
                    return Err(format!(
                        "{} (the piece on the square, then the 14-byte array)",
                        usage()
                    ))
                }
            },
            Op::Search => match words[..] {
                [level] | [level, "iterate"] => Command::Search {
                    level: byte(level).map_err(|_| usage())?,
                    iterate: words.len() == 2,
                    timed: false,
                },
                _ => return Err(usage()),
            },
            Op::Roots => Command::Roots(
                words
                    .iter()
                    .map(|w| parse_uci(w))
                    .collect::<Result<_, _>>()?,
            ),
            Op::Time => match words[..] {
                [left, togo, inc] => Command::Time {
                    left: u32::try_from(self.count(left, u64::MAX)?)
                        .map_err(|_| format!("time left '{left}' is out of range: {}", usage()))?,
                    moves_to_go: byte(togo)?,
                    increment: u16::try_from(self.count(inc, u64::MAX)?)
                        .map_err(|_| format!("increment '{inc}' is out of range: {}", usage()))?,
                },
                _ => return Err(usage()),
            },
            Op::ParamRead => match self.byte_args(args)?[..] {
                [block, offset, len] => Command::ParamRead { block, offset, len },
                _ => return Err(usage()),
            },
            Op::ParamWrite if args.eq_ignore_ascii_case("reset") => Command::ParamReset,
            Op::ParamWrite => match self.byte_args(args)?[..] {
                [block, offset, ref bytes @ ..] => Command::ParamWrite {
                    block,
                    offset,
                    bytes: bytes.to_vec(),
                },
                _ => return Err(usage()),
            },
            _ => return Err(usage()),
        })
    }

    /// `send WORD ARGS` (or `send raw BYTE..`): queue a command for the firmware and run
    /// until it waits for the host again; the reply is decoded when it is complete.
    pub(super) fn cmd_send(&mut self, rest: &str) -> Result<String, String> {
        let (what, args) = split_word(rest);
        let bytes = if what.eq_ignore_ascii_case("raw") {
            let b = self.byte_args(args)?;
            if b.is_empty() {
                return Err("usage: send raw BYTE...".into());
            }
            b
        } else {
            let words: Vec<&str> = Op::ALL.iter().map(|o| o.word()).collect();
            let op = match Op::from_word(what) {
                Some(op) => op,
                None if what.is_empty() => {
                    let forms: Vec<String> = Op::ALL
                        .iter()
                        .map(|o| format!("{} {}", o.word(), o.usage()).trim_end().to_string())
                        .collect();
                    return Err(format!("{SEND_USAGE}{} | raw BYTE...", forms.join(" | ")));
                }
                None => {
                    return Err(format!(
                        "unknown firmware command '{what}' ({} raw)",
                        words.join(" ")
                    ))
                }
            };
            let Some(build) = self.dbg.prog.firmware else {
                return Err(format!(
                    "'send {what}' is a firmware command; this program is not a firmware build (use 'send raw')"
                ));
            };
            if op.full_only() && build != Build::Full {
                return Err(format!(
                    "'send {what}' ('{}') is the full build's alone; this is the {build} build",
                    op.letter()
                ));
            }
            let c = self.send_command(op, args)?;
            self.check_idle()?;
            wire(&c)?
        };
        let what_text = format!("{what} {args}").trim().to_string();
        self.dbg.send(&bytes);
        self.pending = Some((bytes[0], what_text.clone()));
        let head = format!("Sent {what_text}: {}\n", hex_bytes(&bytes, 16));
        Ok(self.go(Goal::Continue, &head))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
