//! Whole sessions of the UCI, JSON and xboard front ends on random command sequences
//! (`run_with` over a channel, the loops the binary runs). The test plays the client: it keeps the position
//! it has set (with shakmaty) and checks every answer against it:
//!
//! - every request is answered (JSON: each line exactly once, by its id; xboard: each `ping`
//!   with its `pong`, each move asked for with a `move` or a reason; UCI: each `go` with one
//!   `bestmove`, each `isready` with its `readyok`), and the session ends by
//!   itself, with no panic and no error out of the loop, within a bound that only guards
//!   against a hang (nothing is timed);
//! - every move the engine plays or names is legal in the client's position;
//! - after a position the server refused, nothing is answered for a position: the client has
//!   none, so `go` (and JSON's `move`, `eval`, `moves`) are refused until a good one (UCI:
//!   `bestmove 0000`).
//!
//! A few cases each by default (a session searches); the long run:
//!   PROPTEST_CASES=100000 cargo test --release --test frontends session_fuzz::

use proptest::prelude::*;
use serde_json::{json, Value};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::BTreeMap;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;
use z80chess::firmware::Build;
use z80chess::play::{json as jsonp, uci, xboard};
use z80chess::session::game::Game;

/// Only a guard against a hang: a session of a dozen shallow searches ends in seconds.
const HANG: Duration = Duration::from_secs(300);

/// PROPTEST_CASES, or `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Positions a client sets: a FEN (None: the start) and moves from it, or a refused one.
const POSITIONS: &[(Option<&str>, &[&str])] = &[
    (None, &[]),
    (None, &["e2e4", "e7e5", "g1f3"]),
    (
        Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        &["f1b5"],
    ),
    // mated, stalemated: no move to answer with
    (Some("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), &[]),
    (Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &[]),
    // a mate in one, a promotion, castling and en passant at hand
    (Some("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"), &[]),
    (Some("8/P6k/8/8/8/8/6K1/8 w - - 0 1"), &[]),
    (
        Some("rnbqk2r/ppp2ppp/5n2/3P4/8/8/PPPP1PPP/RNBQK2R b KQkq - 0 5"),
        &["c7c5"],
    ),
];

/// Positions a client sends that are refused (bad FEN, an illegal move).
const REFUSED: &[(&str, &[&str])] = &[
    ("8/8/8 w - - 0 1", &[]),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["e2e5"],
    ),
    ("7k/8/8/8/8/8/8/K6P b - - 0 1", &[]),
];

/// The client's position after `fen` and `moves` (None: the server must refuse it).
fn client_position(fen: Option<&str>, moves: &[&str]) -> Option<Chess> {
    let mut pos: Chess = match fen {
        None => Chess::default(),
        Some(f) => f
            .parse::<Fen>()
            .ok()?
            .into_position(CastlingMode::Standard)
            .ok()?,
    };
    for m in moves {
        let mv = m.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos = pos.play(mv).ok()?;
    }
    Some(pos)
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The legal move `uci` in `pos`, or why not.
fn legal(pos: &Chess, uci: &str) -> Result<shakmaty::Move, String> {
    let u: UciMove = uci.parse().map_err(|_| format!("'{uci}' is not UCI"))?;
    u.to_move(pos)
        .map_err(|_| format!("'{uci}' is not legal in {}", fen_of(pos)))
}

/// Run `run` on its own thread with `lines` queued and the input then closed: its output,
/// or why the session did not end well (an error out of the loop, a panic, a hang).
fn session(
    lines: Vec<String>,
    run: fn(Game, &Receiver<String>, &mut dyn std::io::Write) -> Result<(), String>,
) -> Result<String, String> {
    let (tx, rx) = channel();
    for l in lines {
        tx.send(l).unwrap();
    }
    drop(tx);
    let (done_tx, done) = channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let r = Game::new(Build::Article, 1)
            .map_err(|e| e.to_string())
            .and_then(|g| run(g, &rx, &mut out));
        let _ = done_tx.send((r, out));
    });
    match done.recv_timeout(HANG) {
        Ok((Ok(()), out)) => String::from_utf8(out).map_err(|e| e.to_string()),
        Ok((Err(e), out)) => Err(format!(
            "the loop failed: {e}\n{}",
            String::from_utf8_lossy(&out)
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err("the session hung".into()),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err("the session panicked".into()),
    }
}

/// What a JSON client does.
#[derive(Clone, Debug)]
enum JAct {
    Position(usize),
    Refused(usize),
    /// The k-th legal move of the client's position (a bad one when it has none).
    Move(usize),
    Go(u8),
    Stop,
    Eval,
    Moves,
    New,
    Level(u8),
    Garbage(String),
}

fn json_action() -> impl Strategy<Value = JAct> {
    prop_oneof![
        3 => (0..POSITIONS.len()).prop_map(JAct::Position),
        1 => (0..REFUSED.len()).prop_map(JAct::Refused),
        3 => (0..64usize).prop_map(JAct::Move),
        3 => (0..4u8).prop_map(JAct::Go),
        1 => Just(JAct::Stop),
        1 => Just(JAct::Eval),
        1 => Just(JAct::Moves),
        1 => Just(JAct::New),
        1 => (1..3u8).prop_map(JAct::Level),
        1 => "[a-z{}\\[\\]\":, ]{0,12}x".prop_map(JAct::Garbage),
    ]
}

/// What the client expects for one request.
#[derive(Debug)]
enum JWant {
    Ok,
    Error,
    /// A search of this position (None: the client has none, so an error).
    Go(Option<Chess>),
    Moves(Option<Chess>),
    /// Either answer (`stop`: a search may or may not be running).
    Any,
}

/// The lines of a JSON session and what the client expects of each request, by id.
fn json_script(acts: &[JAct]) -> (Vec<String>, BTreeMap<u64, JWant>, usize) {
    let mut pos = Some(Chess::default());
    let mut lines = Vec::new();
    let mut want = BTreeMap::new();
    let mut garbage = 0;
    for (id, a) in (1u64..).zip(acts) {
        let (req, w) = match a {
            JAct::Position(k) => {
                let (fen, moves) = POSITIONS[*k];
                pos = client_position(fen, moves);
                assert!(pos.is_some(), "POSITIONS[{k}] is good");
                let fen = fen.map_or(json!("startpos"), |f| json!(f));
                (
                    json!({"cmd": "position", "fen": fen, "moves": moves}),
                    JWant::Ok,
                )
            }
            JAct::Refused(k) => {
                let (fen, moves) = REFUSED[*k];
                assert!(client_position(Some(fen), moves).is_none());
                pos = None;
                (
                    json!({"cmd": "position", "fen": fen, "moves": moves}),
                    JWant::Error,
                )
            }
            JAct::Move(k) => {
                let ms = pos.as_ref().map(|p| p.legal_moves()).unwrap_or_default();
                if ms.is_empty() {
                    (json!({"cmd": "move", "move": "e2e4"}), JWant::Error)
                } else {
                    let m = ms[k % ms.len()];
                    let uci = m.to_uci(CastlingMode::Standard).to_string();
                    pos = pos.map(|p| p.play(m).unwrap());
                    (json!({"cmd": "move", "move": uci}), JWant::Ok)
                }
            }
            JAct::Go(g) => {
                let req = match g {
                    0 => json!({"cmd": "go", "depth": 1}),
                    1 => json!({"cmd": "go", "depth": 2}),
                    2 => json!({"cmd": "go", "nodes": 30}),
                    _ => json!({"cmd": "go", "movetime": 20}),
                };
                (req, JWant::Go(pos.clone()))
            }
            JAct::Stop => (json!({"cmd": "stop"}), JWant::Any),
            JAct::Eval => (
                json!({"cmd": "eval"}),
                if pos.is_some() {
                    JWant::Ok
                } else {
                    JWant::Error
                },
            ),
            JAct::Moves => (json!({"cmd": "moves"}), JWant::Moves(pos.clone())),
            JAct::New => {
                pos = Some(Chess::default());
                (json!({"cmd": "new"}), JWant::Ok)
            }
            JAct::Level(l) => (json!({"cmd": "level", "level": l}), JWant::Ok),
            JAct::Garbage(g) => {
                garbage += 1;
                lines.push(g.clone());
                continue;
            }
        };
        let mut req = req;
        req["id"] = json!(id);
        lines.push(req.to_string());
        want.insert(id, w);
    }
    lines.push(json!({"cmd": "quit", "id": 0}).to_string());
    want.insert(0, JWant::Ok);
    (lines, want, garbage)
}

/// Check one JSON answer against what the client expected.
fn json_check(w: &JWant, a: &Value) -> Result<(), String> {
    let is_error = a.get("error").is_some();
    match w {
        JWant::Any => Ok(()),
        JWant::Ok if a.get("ok") == Some(&json!(true)) || a.get("total").is_some() => Ok(()),
        JWant::Error | JWant::Go(None) | JWant::Moves(None) if is_error => Ok(()),
        JWant::Go(Some(p)) if p.legal_moves().is_empty() => match is_error {
            true => Ok(()),
            false => Err(format!("a search with no legal move: {a}")),
        },
        JWant::Go(Some(p)) => {
            let best = a["bestmove"]
                .as_str()
                .ok_or_else(|| format!("no bestmove: {a}"))?;
            legal(p, best).map(|_| ())
        }
        JWant::Moves(Some(p)) => {
            let mut want: Vec<String> = p
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            let mut got: Vec<String> = a["moves"]
                .as_array()
                .ok_or_else(|| format!("no moves: {a}"))?
                .iter()
                .map(|m| m.as_str().unwrap_or("?").to_string())
                .collect();
            want.sort();
            got.sort();
            match want == got {
                true => Ok(()),
                false => Err(format!("moves {got:?}, the client's position has {want:?}")),
            }
        }
        _ => Err(format!("expected {w:?}, got {a}")),
    }
}

fn json_session(acts: &[JAct]) -> Result<(), String> {
    let (lines, want, garbage) = json_script(acts);
    let out = session(lines.clone(), jsonp::run_with)?;
    let mut seen = BTreeMap::new();
    let mut anonymous = 0;
    for l in out.lines() {
        let a: Value = serde_json::from_str(l).map_err(|e| format!("'{l}' is not JSON: {e}"))?;
        match a.get("id").and_then(Value::as_u64) {
            None => anonymous += 1,
            Some(id) => {
                let w = want
                    .get(&id)
                    .ok_or(format!("an answer to no request: {l}"))?;
                if seen.insert(id, ()).is_some() && !matches!(w, JWant::Any) {
                    return Err(format!("request {id} answered twice: {l}"));
                }
                json_check(w, &a)
                    .map_err(|e| format!("request {id} ({}): {e}", lines_of(&lines, id)))?;
            }
        }
    }
    let unanswered: Vec<&u64> = want.keys().filter(|id| !seen.contains_key(id)).collect();
    if !unanswered.is_empty() {
        return Err(format!("no answer to requests {unanswered:?}:\n{out}"));
    }
    if anonymous != garbage {
        return Err(format!(
            "{garbage} bad lines, {anonymous} answers without an id:\n{out}"
        ));
    }
    Ok(())
}

/// The request line with id `id`.
fn lines_of(lines: &[String], id: u64) -> String {
    lines
        .iter()
        .find(|l| {
            serde_json::from_str::<Value>(l)
                .ok()
                .and_then(|v| v.get("id").and_then(Value::as_u64))
                == Some(id)
        })
        .cloned()
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(12)))]

    /// A JSON session: every line answered once, every answer for the client's position.
    #[test]
    fn json_sessions_answer_for_the_clients_position(
        acts in prop::collection::vec(json_action(), 0..16)
    ) {
        if let Err(e) = json_session(&acts) {
            prop_assert!(false, "{}\nthe session: {:?}", e, acts);
        }
    }
}

/// The engine's output, line by line, as it is written.
struct Lines {
    tx: Sender<String>,
    buf: Vec<u8>,
}

impl std::io::Write for Lines {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        while let Some(i) = self.buf.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            let _ = self
                .tx
                .send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What an xboard client does.
#[derive(Clone, Debug)]
enum XAct {
    New,
    Force,
    Go,
    PlayOther,
    /// The k-th legal move of the client's position (a refused one when it has none).
    UserMove(usize),
    SetBoard(usize),
    Refused(usize),
    Undo,
    Remove,
    Sd(u8),
    MoveNow,
    Garbage(String),
}

fn xboard_action() -> impl Strategy<Value = XAct> {
    prop_oneof![
        1 => Just(XAct::New),
        1 => Just(XAct::Force),
        2 => Just(XAct::Go),
        1 => Just(XAct::PlayOther),
        4 => (0..64usize).prop_map(XAct::UserMove),
        2 => (0..POSITIONS.len()).prop_map(XAct::SetBoard),
        1 => (0..REFUSED.len()).prop_map(XAct::Refused),
        1 => Just(XAct::Undo),
        1 => Just(XAct::Remove),
        1 => (1..3u8).prop_map(XAct::Sd),
        1 => Just(XAct::MoveNow),
        1 => "zz[a-z]{0,8}".prop_map(XAct::Garbage),
    ]
}

/// The client's side of an xboard session: the positions since the last `new` or `setboard`
/// (None after a refused one), and who moves.
struct XClient {
    tx: Sender<String>,
    rx: Receiver<String>,
    log: Vec<String>,
    game: Option<Vec<Chess>>,
    force: bool,
    engine: shakmaty::Color,
    pings: u32,
}

/// A line that ends a move the engine was asked for: its move, a result it claims instead, or
/// the reason it will not move.
fn ends_a_think(l: &str) -> bool {
    l.starts_with("move ")
        || l.starts_with("1-0 {")
        || l.starts_with("0-1 {")
        || l.starts_with("1/2-1/2 {")
        || l.starts_with("Error (no position")
        || l.starts_with("tellusererror")
}

impl XClient {
    fn send(&mut self, l: &str) {
        self.log.push(format!("> {l}"));
        let _ = self.tx.send(l.to_string());
    }

    /// The next line of the engine.
    fn read(&mut self) -> Result<String, String> {
        match self.rx.recv_timeout(HANG) {
            Ok(l) => {
                self.log.push(format!("< {l}"));
                self.check(&l)?;
                Ok(l)
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err("the engine hung".into()),
            Err(_) => Err("the engine's output ended early".into()),
        }
    }

    /// Every line as it comes: a move is legal in the client's position and is played there;
    /// a claimed result puts the engine in force mode, as the protocol says.
    fn check(&mut self, l: &str) -> Result<(), String> {
        if let Some(m) = l.strip_prefix("move ") {
            let Some(g) = self.game.as_mut() else {
                return Err(format!(
                    "a move for a position the client does not have: {l}"
                ));
            };
            let pos = g.last().expect("a start").clone();
            let mv = legal(&pos, m)?;
            g.push(pos.play(mv).unwrap());
        } else if l.starts_with("tellusererror") {
            if !l.contains("Illegal position") {
                return Err(format!("the engine failed: {l}"));
            }
        } else if ends_a_think(l) && !l.starts_with("Error") {
            self.force = true;
        }
        Ok(())
    }

    /// Lines up to the answer of a fresh `ping` (everything sent before has been done).
    fn sync(&mut self) -> Result<Vec<String>, String> {
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"));
        let mut got = Vec::new();
        loop {
            let l = self.read()?;
            if l == format!("pong {n}") {
                return Ok(got);
            }
            got.push(l);
        }
    }

    /// The engine was asked to move: wait for the line that ends it, then sync.
    fn think(&mut self) -> Result<Vec<String>, String> {
        let mut got = Vec::new();
        loop {
            let l = self.read()?;
            let end = ends_a_think(&l);
            got.push(l);
            if end {
                break;
            }
        }
        got.extend(self.sync()?);
        Ok(got)
    }

    fn pos(&self) -> Option<&Chess> {
        self.game.as_ref().and_then(|g| g.last())
    }

    fn over(pos: &Chess) -> bool {
        pos.legal_moves().is_empty() || pos.is_insufficient_material()
    }

    /// `setboard` with a good FEN, then the moves after it in force mode, as a GUI replays
    /// a game.
    fn set_board(&mut self, k: usize) -> Result<(), String> {
        let (fen, moves) = POSITIONS[k];
        let pos = client_position(fen, &[]).expect("a good FEN");
        self.send(&format!("setboard {}", fen_of(&pos)));
        self.game = Some(vec![pos]);
        self.sync()?;
        // the moves after it, in force mode, as a GUI replays a game
        if !moves.is_empty() {
            self.send("force");
            self.force = true;
            for m in moves {
                let p = self.pos().expect("set").clone();
                let mv = legal(&p, m)?;
                self.send(&format!("usermove {m}"));
                self.game.as_mut().expect("set").push(p.play(mv).unwrap());
            }
            self.sync()?;
        }
        Ok(())
    }

    fn act(&mut self, a: &XAct) -> Result<(), String> {
        let saw = |got: &[String], p: &str| got.iter().any(|l| l.starts_with(p));
        match a {
            XAct::New => {
                self.send("new");
                self.game = Some(vec![Chess::default()]);
                self.force = false;
                self.engine = shakmaty::Color::Black;
                self.send("sd 2");
                self.sync()?;
            }
            XAct::Force => {
                self.send("force");
                self.force = true;
                self.sync()?;
            }
            XAct::Go => {
                self.send("go");
                match self.pos().cloned() {
                    None => {
                        let got = self.think()?;
                        if !saw(&got, "Error (no position") {
                            return Err(format!("go with no position: {got:?}"));
                        }
                        self.force = true;
                    }
                    Some(p) => {
                        self.force = false;
                        self.engine = p.turn();
                        self.think()?;
                    }
                }
            }
            // (a client with no position has no side to give the engine)
            XAct::PlayOther => {
                if let Some(p) = self.pos() {
                    self.engine = !p.turn();
                    self.force = false;
                    self.send("playother");
                    self.sync()?;
                }
            }
            XAct::UserMove(k) => match self.pos().cloned() {
                Some(p) if !Self::over(&p) => {
                    let ms = p.legal_moves();
                    let m = ms[k % ms.len()];
                    let uci = m.to_uci(CastlingMode::Standard).to_string();
                    self.send(&format!("usermove {uci}"));
                    let after = p.play(m).unwrap();
                    let engine_moves =
                        !self.force && after.turn() == self.engine && !Self::over(&after);
                    self.game.as_mut().expect("a position").push(after);
                    if engine_moves {
                        self.think()?;
                    } else {
                        self.sync()?;
                    }
                }
                _ => {
                    self.send("usermove e2e4");
                    let got = self.sync()?;
                    if !saw(&got, "Illegal move") {
                        return Err(format!("a move with no position to play it in: {got:?}"));
                    }
                }
            },
            XAct::SetBoard(k) => self.set_board(*k)?,
            XAct::Refused(k) => {
                // (setboard takes a FEN alone: the bad FENs)
                let bad: Vec<&str> = REFUSED
                    .iter()
                    .filter(|r| r.1.is_empty())
                    .map(|r| r.0)
                    .collect();
                self.send(&format!("setboard {}", bad[k % bad.len()]));
                self.game = None;
                let got = self.sync()?;
                if !saw(&got, "Error (") {
                    return Err(format!("a bad setboard was not refused: {got:?}"));
                }
            }
            XAct::Undo | XAct::Remove => {
                let n = if matches!(a, XAct::Undo) { 1 } else { 2 };
                self.send(if n == 1 { "undo" } else { "remove" });
                let got = self.sync()?;
                match self.game.as_mut() {
                    Some(g) if g.len() > n => g.truncate(g.len() - n),
                    _ => {
                        if !saw(&got, "Error (no move to undo") {
                            return Err(format!("nothing to undo, yet no error: {got:?}"));
                        }
                    }
                }
            }
            XAct::Sd(d) => {
                self.send(&format!("sd {d}"));
                self.sync()?;
            }
            XAct::MoveNow => {
                self.send("?");
                self.sync()?;
            }
            XAct::Garbage(g) => {
                self.send(g);
                let got = self.sync()?;
                if !saw(&got, "Error (") {
                    return Err(format!("'{g}' got no error: {got:?}"));
                }
            }
        }
        Ok(())
    }
}

/// The loop `run` on its own thread, fed line by line: the sender of the client's lines, the
/// engine's lines as they are written, and the loop's end.
type Ends = Receiver<Result<(), String>>;
fn live_session(
    run: fn(Game, &Receiver<String>, &mut dyn std::io::Write) -> Result<(), String>,
) -> (Sender<String>, Receiver<String>, Ends) {
    let (tx, rx) = channel();
    let (out_tx, out_rx) = channel();
    let (done_tx, done) = channel();
    std::thread::spawn(move || {
        let mut out = Lines {
            tx: out_tx,
            buf: Vec::new(),
        };
        let r = Game::new(Build::Article, 1)
            .map_err(|e| e.to_string())
            .and_then(|g| run(g, &rx, &mut out));
        let _ = done_tx.send(r);
    });
    (tx, out_rx, done)
}

/// How the loop ended once told to quit: well, with an error, a panic, or not at all.
fn ended(done: &Ends) -> Result<(), String> {
    match done.recv_timeout(HANG) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("the loop failed: {e}")),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err("the session hung".into()),
        Err(_) => Err("the session panicked".into()),
    }
}

fn xboard_session(acts: &[XAct]) -> Result<(), String> {
    let (tx, out_rx, done) = live_session(xboard::run_with);
    let mut c = XClient {
        tx,
        rx: out_rx,
        log: Vec::new(),
        game: Some(vec![Chess::default()]),
        force: false,
        engine: shakmaty::Color::Black,
        pings: 0,
    };
    let r = (|| -> Result<(), String> {
        for l in ["xboard", "protover 2", "sd 2"] {
            c.send(l);
        }
        c.sync()?;
        for a in acts {
            c.act(a)?;
        }
        c.send("quit");
        ended(&done)
    })();
    r.map_err(|e| format!("{e}\n{}", c.log.join("\n")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(12)))]

    /// An xboard session: every move legal in the client's position, none without one, every
    /// ping answered, and the session ends when told.
    #[test]
    fn xboard_sessions_play_legal_moves_for_the_clients_position(
        acts in prop::collection::vec(xboard_action(), 0..16)
    ) {
        if let Err(e) = xboard_session(&acts) {
            prop_assert!(false, "{}\nthe session: {:?}", e, acts);
        }
    }
}

/// What a UCI client does.
#[derive(Clone, Debug)]
enum UAct {
    /// `position` with one of [`POSITIONS`].
    Position(usize),
    /// The client's line one legal move longer (the k-th), sent whole as a GUI sends it.
    Extend(usize),
    /// A `position` line the engine must refuse: [`REFUSED`], then the malformed ones.
    Refused(usize),
    /// `go` with a limit (`go depth 1`, `go depth 2`, `go nodes 30`, `go movetime 20`,
    /// `go depth 1 searchmoves` with a legal and an illegal move).
    Go(u8),
    /// `go infinite` (or `go ponder depth 2`), then `stop` (or `ponderhit`).
    Stopped(u8),
    NewGame,
    Level(u8),
    IsReady,
    Garbage(String),
}

/// `position` lines that do not parse: none leaves a position.
const MALFORMED: &[&str] = &[
    "position startpos e2e4 e7e5",
    "position",
    "position xyz",
    "position fen",
    "position startpos e2e4",
];

fn uci_action() -> impl Strategy<Value = UAct> {
    prop_oneof![
        3 => (0..POSITIONS.len()).prop_map(UAct::Position),
        3 => (0..64usize).prop_map(UAct::Extend),
        2 => (0..REFUSED.len() + MALFORMED.len()).prop_map(UAct::Refused),
        4 => (0..5u8).prop_map(UAct::Go),
        1 => (0..2u8).prop_map(UAct::Stopped),
        1 => Just(UAct::NewGame),
        1 => (1..3u8).prop_map(UAct::Level),
        1 => Just(UAct::IsReady),
        1 => "zz[a-z ]{0,8}".prop_map(UAct::Garbage),
    ]
}

/// The client's side of a UCI session: the position it set as a start and its moves (None
/// after a refused one).
struct UClient {
    tx: Sender<String>,
    rx: Receiver<String>,
    log: Vec<String>,
    game: Option<(Option<&'static str>, Vec<String>)>,
}

impl UClient {
    fn send(&mut self, l: &str) {
        self.log.push(format!("> {l}"));
        let _ = self.tx.send(l.to_string());
    }

    fn read(&mut self) -> Result<String, String> {
        match self.rx.recv_timeout(HANG) {
            Ok(l) => {
                self.log.push(format!("< {l}"));
                Ok(l)
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err("the engine hung".into()),
            Err(_) => Err("the engine's output ended early".into()),
        }
    }

    /// The client's position (None: it has none).
    fn pos(&self) -> Option<Chess> {
        let (fen, moves) = self.game.as_ref()?;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        Some(client_position(*fen, &moves).expect("the client's own moves are legal"))
    }

    /// The client's position as a `position` line.
    fn position_line(&self) -> String {
        let (fen, moves) = self.game.as_ref().expect("a position");
        let mut l = match fen {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        if !moves.is_empty() {
            l += &format!(" moves {}", moves.join(" "));
        }
        l
    }

    /// `isready`, and the lines up to its `readyok`: none of them may be a `bestmove`.
    fn sync(&mut self) -> Result<Vec<String>, String> {
        self.send("isready");
        let mut got = Vec::new();
        loop {
            let l = self.read()?;
            if l == "readyok" {
                return Ok(got);
            }
            if l.starts_with("bestmove") {
                return Err(format!("a bestmove no go asked for: {l}"));
            }
            got.push(l);
        }
    }

    /// Lines up to the `bestmove` of the search just started in `pos` (None: the client has
    /// no position), each checked: every move of an `info` line and the best move (and the
    /// move to ponder on after it) legal in the client's position; no move at all when it has
    /// none or the position has no legal move.
    fn search(&mut self, pos: Option<Chess>) -> Result<(), String> {
        loop {
            let l = self.read()?;
            let toks: Vec<&str> = l.split_whitespace().collect();
            match toks.first() {
                Some(&"info") => {
                    let Some(p) = &pos else {
                        if toks.contains(&"pv") || toks.contains(&"currmove") {
                            return Err(format!("a line for a position the client lacks: {l}"));
                        }
                        continue;
                    };
                    if let Some(i) = toks.iter().position(|t| *t == "currmove") {
                        legal(p, toks.get(i + 1).copied().unwrap_or(""))?;
                    }
                    if let Some(i) = toks.iter().position(|t| *t == "pv") {
                        let pv: Vec<&str> = toks[i + 1..]
                            .iter()
                            .take_while(|t| !["multipv", "score", "nodes"].contains(t))
                            .copied()
                            .collect();
                        line_is_legal(p, &pv)?;
                    }
                }
                Some(&"bestmove") => {
                    let best = toks.get(1).copied().unwrap_or("");
                    let none = pos.as_ref().is_none_or(|p| p.legal_moves().is_empty());
                    return match (none, best) {
                        (true, "0000") => Ok(()),
                        (true, _) => Err(format!("a move with no move to make: {l}")),
                        (false, _) => {
                            let mut line = vec![best];
                            if toks.get(2) == Some(&"ponder") {
                                line.extend(toks.get(3));
                            }
                            line_is_legal(pos.as_ref().expect("a position"), &line)
                        }
                    };
                }
                _ => {}
            }
        }
    }

    fn act(&mut self, a: &UAct) -> Result<(), String> {
        match a {
            UAct::Position(k) => {
                let (fen, moves) = POSITIONS[*k];
                self.game = Some((fen, moves.iter().map(|m| m.to_string()).collect()));
                let l = self.position_line();
                self.send(&l);
                self.sync()?;
            }
            UAct::Extend(k) => {
                let Some(p) = self.pos() else { return Ok(()) };
                let ms = p.legal_moves();
                if ms.is_empty() {
                    return Ok(());
                }
                let uci = ms[k % ms.len()].to_uci(CastlingMode::Standard).to_string();
                self.game.as_mut().expect("a position").1.push(uci);
                let l = self.position_line();
                self.send(&l);
                self.sync()?;
            }
            UAct::Refused(k) => {
                let l = match REFUSED.get(*k) {
                    Some((fen, [])) => format!("position fen {fen}"),
                    Some((fen, moves)) => format!("position fen {fen} moves {}", moves.join(" ")),
                    None => MALFORMED[k - REFUSED.len()].to_string(),
                };
                self.game = None;
                self.send(&l);
                self.sync()?;
            }
            UAct::Go(g) => {
                let pos = self.pos();
                let l = match g {
                    0 => "go depth 1".to_string(),
                    1 => "go depth 2".to_string(),
                    2 => "go nodes 30".to_string(),
                    3 => "go movetime 20".to_string(),
                    _ => {
                        let first = pos.as_ref().and_then(|p| p.legal_moves().first().copied());
                        let m = first.map(|m| m.to_uci(CastlingMode::Standard).to_string());
                        format!("go depth 1 searchmoves {} a1a8", m.unwrap_or_default())
                    }
                };
                self.send(&l);
                self.search(pos)?;
                self.sync()?;
            }
            UAct::Stopped(s) => {
                let pos = self.pos();
                if *s == 0 {
                    self.send("go infinite");
                    self.send("stop");
                } else {
                    self.send("go ponder depth 2");
                    self.send("ponderhit");
                }
                self.search(pos)?;
                self.sync()?;
            }
            UAct::NewGame => {
                self.send("ucinewgame");
                self.game = Some((None, Vec::new()));
                let l = self.position_line();
                self.send(&l);
                self.sync()?;
            }
            UAct::Level(n) => {
                self.send(&format!("setoption name Level value {n}"));
                self.sync()?;
            }
            UAct::IsReady => {
                self.sync()?;
            }
            UAct::Garbage(g) => {
                self.send(g);
                self.sync()?;
            }
        }
        Ok(())
    }
}

/// Are `moves` legal one after the other from `pos`?
fn line_is_legal(pos: &Chess, moves: &[&str]) -> Result<(), String> {
    let mut p = pos.clone();
    for m in moves {
        let mv = legal(&p, m)?;
        p = p.play(mv).unwrap();
    }
    Ok(())
}

fn uci_session(acts: &[UAct]) -> Result<(), String> {
    let (tx, out_rx, done) = live_session(uci::run_with);
    let mut c = UClient {
        tx,
        rx: out_rx,
        log: Vec::new(),
        game: Some((None, Vec::new())),
    };
    let r = (|| -> Result<(), String> {
        c.send("uci");
        loop {
            if c.read()? == "uciok" {
                break;
            }
        }
        c.send("setoption name Level value 1");
        c.sync()?;
        for a in acts {
            c.act(a)?;
        }
        c.send("quit");
        ended(&done)
    })();
    r.map_err(|e| format!("{e}\n{}", c.log.join("\n")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(12)))]

    /// A UCI session: one `bestmove` for each `go`, every move in it and in its `info` lines
    /// legal in the client's position, `bestmove 0000` when the client has none (after a
    /// refused or malformed `position`), every `isready` answered, and the session ends when
    /// told.
    #[test]
    fn uci_sessions_answer_for_the_clients_position(
        acts in prop::collection::vec(uci_action(), 0..16)
    ) {
        if let Err(e) = uci_session(&acts) {
            prop_assert!(false, "{}\nthe session: {:?}", e, acts);
        }
    }
}
