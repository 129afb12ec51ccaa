//! `z80chess serve --json`: a protocol for scripts, one JSON object a line each way.
//!
//! Every line in gets exactly one object out, in the order the lines came (a search's line gets
//! its answer when the search ends; a line sent during a search, `quit` too, waits for that
//! answer and runs after it; only `stop` cuts a search short). At the end of input a running
//! search goes on to its end and is answered, the lines already read run, then the session
//! ends. A line that is not a command gets `{"error": ...}` naming what was wrong, and the
//! session goes on. A request's `"id"`, if any, comes back in its answer.
//!
//! | in | out |
//! |---|---|
//! | `{"cmd":"position","fen":"startpos","moves":["e2e4"]}` | `{"ok":true,"fen":...}` |
//! | `{"cmd":"move","move":"Nf3"}` (SAN or coordinates) | `{"ok":true,"fen":...}` |
//! | `{"cmd":"go","depth":2}` (also `movetime` ms, `nodes`) | `{"bestmove":"g1f3","score_cp":..,"mate":..,"depth":..,"nodes":..,"evaluations":..,"tstates":..,"pv":[..],"kind":..}` |
//! | `{"cmd":"stop"}` (during a `go`) | `{"ok":true}`, then the `go`'s answer |
//! | `{"cmd":"eval"}` | `{"total":..,"side_to_move":..,"per_pawn":..,"terms":{..},"tstates":..}` |
//! | `{"cmd":"perft","depth":3}` | `{"nodes":..,"tstates":..}` |
//! | `{"cmd":"moves"}` (UCI: `["a2a3",...]`) / `new` / `build` (`"name"`) / `level` (`"level"`) / `quit` | ... |
//!
//! A thin adapter: the game, the search driver and the time policy are the session layer's.

use super::Wire;
use crate::firmware::{parse_fen, Build, SearchKind, SearchResult};
use crate::session::clock::{plan, Pace, Rate, TimeControl};
use crate::session::game::Game;
use crate::session::search::{DriveError, Driver, Heard, Listener, Outcome, Search};
use serde_json::{json, Map, Value};
use shakmaty::{Chess, Position};
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Run the protocol on `lines` until `quit` or the end of input.
pub fn run_with(
    game: Game,
    lines: &Receiver<String>,
    out: &mut dyn std::io::Write,
) -> Result<(), String> {
    let mut s = Serve {
        wire: Wire::new(out, lines),
        game,
        rate: Rate::default(),
        refused: None,
    };
    while let Some(line) = s.wire.next_command() {
        s.line(&line).map_err(|e| e.to_string())?;
    }
    Ok(())
}

struct Serve<'a> {
    wire: Wire<'a>,
    game: Game,
    rate: Rate,
    /// Why the last `position` was refused: until a good one (or `new`), the commands that
    /// need a position refuse (never an answer for a position the client does not have).
    refused: Option<String>,
}

/// A value as an error shows it: its JSON, cut to 60 characters.
fn shown(v: &Value) -> String {
    let t = v.to_string();
    match t.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t,
    }
}

/// What a request asked, read from its object.
fn request(line: &str) -> Result<(String, Map<String, Value>), String> {
    if super::not_utf8(line) {
        return Err("the line is not UTF-8 text".into());
    }
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(obj) = v else {
        return Err("expected a JSON object".into());
    };
    match obj.get("cmd") {
        Some(Value::String(c)) => Ok((c.clone(), obj)),
        Some(other) => Err(format!("\"cmd\" must be a string, not {other}")),
        None => Err("no \"cmd\" field".into()),
    }
}

/// An unsigned field of a request: absent is None; anything but a whole number is an error.
fn number(obj: &Map<String, Value>, field: &str, max: u64) -> Result<Option<u64>, String> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            _ => Err(format!(
                "\"{field}\" must be a whole number from 0 to {max}, not {v}"
            )),
        },
    }
}

fn text<'o>(obj: &'o Map<String, Value>, field: &str) -> Result<&'o str, String> {
    obj.get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("\"{field}\" must be given as a string"))
}

impl Serve<'_> {
    fn line(&mut self, line: &str) -> std::io::Result<()> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let (id, answer) = match request(line) {
            Err(e) => (None, Err(e)),
            Ok((cmd, obj)) => (obj.get("id").cloned(), self.command(&cmd, &obj)),
        };
        let mut out = match answer {
            Ok(Value::Object(m)) => m,
            Ok(other) => Map::from_iter([("value".to_string(), other)]),
            Err(e) => Map::from_iter([("error".to_string(), Value::String(e))]),
        };
        if let Some(id) = id {
            out.insert("id".into(), id);
        }
        self.wire.send(&Value::Object(out).to_string())
    }

    fn ok(&self) -> Value {
        json!({"ok": true, "fen": self.game.fen(), "build": self.game.build().to_string()})
    }

    fn command(&mut self, cmd: &str, obj: &Map<String, Value>) -> Result<Value, String> {
        match cmd {
            "position" => {
                // A refused position leaves none: `go` and the rest refuse until a good one.
                let r = self.position(obj);
                self.refused = r.as_ref().err().cloned();
                r
            }
            "new" => {
                self.refused = None;
                self.game
                    .new_game()
                    .map(|()| self.ok())
                    .map_err(|e| e.to_string())
            }
            _ => self.command_on_position(cmd, obj),
        }
    }

    fn position(&mut self, obj: &Map<String, Value>) -> Result<Value, String> {
        let pos = match obj.get("fen") {
            None => Chess::default(),
            Some(Value::String(f)) if f == "startpos" => Chess::default(),
            Some(Value::String(f)) => parse_fen(f).map_err(|e| e.to_string())?,
            Some(v) => {
                return Err(format!(
                    "\"fen\" must be a string (a FEN or \"startpos\"), not {}",
                    shown(v)
                ))
            }
        };
        let moves = match obj.get("moves") {
            None => Vec::new(),
            Some(Value::Array(a)) => a.clone(),
            Some(v) => return Err(format!("\"moves\" must be an array, not {}", shown(v))),
        };
        // Checked on a copy first: the game is set only from a good position.
        let mut p = pos.clone();
        let mut played = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let t = m
                .as_str()
                .ok_or_else(|| format!("moves[{i}] is not a string"))?;
            let mv = crate::session::game::parse_move(&p, t)
                .map_err(|e| format!("moves[{i}] '{t}': {e}"))?;
            p.play_unchecked(mv);
            played.push(mv);
        }
        self.game.set_start(pos).map_err(|e| e.to_string())?;
        for mv in played {
            self.game.play(mv, None, true).map_err(|e| e.to_string())?;
        }
        Ok(self.ok())
    }

    /// The commands that need a position (refused while the last `position` was refused).
    fn command_on_position(
        &mut self,
        cmd: &str,
        obj: &Map<String, Value>,
    ) -> Result<Value, String> {
        if let (Some(why), "move" | "go" | "eval" | "perft" | "moves") = (&self.refused, cmd) {
            return Err(format!(
                "no position: the last \"position\" was refused ({why}); send a good one (or \"new\")"
            ));
        }
        match cmd {
            "move" => {
                let m = self.game.parse_move(text(obj, "move")?)?;
                self.game.play(m, None, true).map_err(|e| e.to_string())?;
                Ok(self.ok())
            }
            "build" => {
                let b: Build = text(obj, "name")?.parse().map_err(|e| format!("{e}"))?;
                self.game.set_build(b).map(|()| self.ok()).map_err(|e| e.to_string())
            }
            "level" => {
                let l = number(obj, "level", 255)?.ok_or("\"level\" must be given")?;
                (self.game.set_level(l as u8))
                    .map(|()| json!({"ok": true, "level": l}))
                    .map_err(|e| e.to_string())
            }
            "moves" => {
                let pos = self.game.pos();
                let ms: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect();
                Ok(json!({"moves": ms}))
            }
            "eval" => {
                let e = self.game.engine.eval().map_err(|e| e.to_string())?;
                let terms: Map<String, Value> = e.terms.iter().map(|t| (t.name.to_string(), json!(t.value))).collect();
                Ok(json!({"total": e.total, "side_to_move": e.side_to_move, "per_pawn": e.per_pawn(), "terms": terms, "tstates": e.tstates}))
            }
            "perft" => {
                let d = number(obj, "depth", 255)?.ok_or("\"depth\" must be given")?;
                let p = self.game.engine.perft(d as u8).map_err(|e| e.to_string())?;
                Ok(json!({"nodes": p.nodes, "tstates": p.tstates}))
            }
            "go" => self.go(obj),
            "stop" => Err("no search is running".into()),
            "quit" => {
                self.wire.quit = true;
                Ok(json!({"ok": true}))
            }
            other => Err(format!("unknown command '{other}': position, move, go, stop, eval, perft, moves, new, build, level, quit")),
        }
    }

    fn go(&mut self, obj: &Map<String, Value>) -> Result<Value, String> {
        let depth = number(obj, "depth", crate::session::MAX_DEPTH as u64)?.map(|d| d.max(1) as u8);
        let nodes = number(obj, "nodes", u64::MAX)?;
        let tc = match number(obj, "movetime", u64::MAX)? {
            Some(ms) => TimeControl::MoveTime(Duration::from_millis(ms)),
            None => TimeControl::Unlimited,
        };
        let pos = self.game.pos().clone();
        if pos.legal_moves().is_empty() {
            return Err(if pos.is_check() {
                "no legal move: checkmate"
            } else {
                "no legal move: stalemate"
            }
            .into());
        }
        let pace = Pace {
            realtime: false,
            ..Pace::default()
        };
        let build = self.game.build();
        let rate = self.rate.for_pace(&pace, build);
        let p = plan(
            tc,
            depth,
            self.game.level,
            Duration::ZERO,
            &pace,
            build == Build::Full,
            rate,
        );
        let (mut driver, _) = Driver::planned(&mut self.game.engine, &p, pace, rate);
        driver.nodes = nodes;
        let mut ears = Ears {
            wire: &mut self.wire,
        };
        let result = match driver.run(&mut self.game.engine, &mut ears) {
            Ok(Outcome::Move { result, wall, .. }) => {
                self.rate.observe(result.tstates, wall);
                result
            }
            Ok(Outcome::Abandoned) => return Err("the search was abandoned".into()),
            Err(DriveError::Io(e)) => return Err(format!("output failed: {e}")),
            Err(e) => return Err(e.to_string()),
        };
        let root = crate::session::root_value(&self.game.engine, pos.turn().is_white());
        Ok(answer(&pos, &result, root.unwrap_or_default()))
    }
}

/// A search's answer as an object; `score_cp` is the position's value for the side to move
/// (the firmware's score plus the root's value it is measured from).
fn answer(pos: &Chess, r: &SearchResult, root: crate::session::RootValue) -> Value {
    let pv: Vec<String> = crate::session::pv_text(pos, &r.pv)
        .split_whitespace()
        .map(String::from)
        .collect();
    let kind = match r.kind {
        SearchKind::Book => "book",
        SearchKind::Stopped => "stopped",
        SearchKind::Overflow => "overflow",
        SearchKind::Searched => "searched",
    };
    let scored = !r.depths.is_empty();
    json!({
        "bestmove": r.best.uci(),
        "legal": r.best.to_move(pos).is_some(),
        "score_cp": scored.then(|| crate::session::absolute_cp(r.score, root)),
        "mate": if scored { crate::session::mate_in(r.score, &r.depths) } else { None },
        "depth": r.depths.last().map(|d| d.depth),
        "nodes": r.nodes,
        "evaluations": r.evaluations,
        "tstates": r.tstates,
        "pv": pv,
        "kind": kind,
    })
}

/// Lines during a search: `stop` answers `{"ok":true}` and moves now; every other line
/// (`quit` too) waits for the search's answer and then runs in turn. At the end of input the
/// search runs to its end, is answered, and the lines already read run before the session ends.
struct Ears<'a, 'w> {
    wire: &'a mut Wire<'w>,
}

impl Listener for Ears<'_, '_> {
    fn listen(&mut self, _: &Search, wait: Option<Duration>) -> std::io::Result<Heard> {
        if self.wire.eof {
            // Nothing more can come: a held answer (none is held here) is given now.
            return Ok(if wait.is_none() {
                Heard::MoveNow
            } else {
                Heard::Nothing
            });
        }
        let l = match super::next_line(self.wire.lines, wait) {
            super::Input::Line(l) => l,
            super::Input::Quiet => return Ok(Heard::Nothing),
            super::Input::Ended => {
                self.wire.eof = true;
                return Ok(Heard::Nothing);
            }
        };
        match request(&l) {
            Ok((cmd, obj)) if cmd == "stop" => {
                let mut m = Map::from_iter([("ok".to_string(), Value::Bool(true))]);
                if let Some(id) = obj.get("id") {
                    m.insert("id".into(), id.clone());
                }
                self.wire.send(&Value::Object(m).to_string())?;
                Ok(Heard::MoveNow)
            }
            _ => {
                self.wire.pending.push_back(l);
                Ok(Heard::Nothing)
            }
        }
    }
}
