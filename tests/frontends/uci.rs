//! `z80chess uci` driven as a GUI drives it: a child process, lines in and out.
//! Handshake, positions with moves, `go depth`, `isready` and `stop` during a search, bad
//! lines, options, and whole games to the end with every move checked by shakmaty.
//!
//! Nothing here is timed: the waits only guard against a hang.

use shakmaty::fen::Epd;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position};
use std::collections::HashMap;

use crate::common::child;
use child::Engine;

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.strip_prefix("bestmove ")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

fn legal(pos: &Chess, uci: &str) -> shakmaty::Move {
    uci.parse::<UciMove>()
        .unwrap()
        .to_move(pos)
        .unwrap_or_else(|_| {
            panic!(
                "{uci} is not legal in {}",
                Epd::from_position(pos, EnPassantMode::Legal)
            )
        })
}

#[test]
fn handshake_options_and_bad_lines() {
    let mut e = Engine::start("uci");
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name z80chess"));
    for o in [
        "Level",
        "Build",
        "Ponder",
        "PeriodSpeed",
        "ClockHz",
        "MultiPV",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {o} "))),
            "{o}: {lines:?}"
        );
    }
    // The full build's parameters are declared by the build that has them only.
    assert!(
        !lines.iter().any(|l| l.starts_with("option name P_")),
        "article: {lines:?}"
    );
    assert!(
        lines.contains(&"option name MultiPV type spin default 1 min 1 max 1".to_string()),
        "{lines:?}"
    );
    let mut full = Engine::start_with(&["uci", "--build", "full"]);
    full.send("uci");
    let options = full.until("uciok");
    for o in ["P_PAWN", "P_BCSQ"] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {o} "))),
            "{o}: {options:?}"
        );
    }
    assert!(
        options.contains(&"option name MultiPV type spin default 1 min 1 max 8".to_string()),
        "{options:?}"
    );
    full.quit();
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    for (bad, why) in [
        ("frobnicate", "unknown command"),
        ("position", "expected 'startpos'"),
        ("position startpos moves e2e5", "not legal"),
        ("position fen 8/8/8 w - - 0 1", "bad FEN"),
        ("position startpos e2e4", "expected 'moves'"),
        ("setoption name Level value 9", "expected 1 to 6"),
        ("setoption name Build value z80", "article, 1978 or full"),
        ("setoption name P_PAWN value 9999", "out of range"),
        ("setoption name P_PAWN value many", "not a number"),
        (
            "setoption name P_PAWN value 300",
            "takes effect with Build full",
        ),
        ("setoption name Nonsense value 1", "no option"),
        ("setoption Level", "setoption name"),
    ] {
        e.send(bad);
        let l = e.line();
        assert!(
            l.starts_with("info string") && l.contains(why),
            "{bad}: {l}"
        );
    }
    // A refused position leaves none: `go` answers bestmove 0000 until a good one arrives
    // (tests/frontends/uci_hardening.rs has the rest).
    e.send("position startpos moves e2e4 e7e5");
    e.send("position startpos moves e2e4 e7e5 g1g5");
    assert!(e.line().contains("not legal"));
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "0000", "{lines:?}");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    let mut pos = Chess::default();
    for m in ["e2e4", "e7e5"] {
        let mv = legal(&pos, m);
        pos.play_unchecked(mv);
    }
    legal(&pos, &bestmove(&lines));
    e.quit();
}

#[test]
fn positions_and_go_depth() {
    let mut e = Engine::start("uci");
    e.send("uci");
    e.until("uciok");
    e.send("ucinewgame");
    // Move number 1: the book answers.
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "e7e5", "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("book")));
    // Searched: one info line per depth, then the final one.
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(
        depths[0].starts_with("info depth 1 seldepth ") && depths[0].contains(" score cp "),
        "{lines:?}"
    );
    assert!(
        depths.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(depths
        .iter()
        .all(|l| l.contains(" nodes ") && l.contains(" time ") && l.contains(" pv ")));
    let pos = shakmaty_after(&["e2e4", "e7e5", "g1f3"]);
    legal(&pos, &bestmove(&lines));
    // A FEN with moves; a mate in one is announced as one.
    e.send("position fen 7k/8/6K1/8/8/8/8/1Q6 b - - 0 1 moves h8g8");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "b1b8", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    // No legal move: bestmove 0000.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    e.quit();
}

fn shakmaty_after(moves: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for m in moves {
        let mv = legal(&pos, m);
        pos.play_unchecked(mv);
    }
    pos
}

#[test]
fn readyok_and_stop_during_a_search() {
    let mut e = Engine::start("uci");
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6");
    // Infinite: nothing but `stop` ends it, whatever the host's speed.
    e.send("go infinite");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let lines = e.until("bestmove");
    let pos = shakmaty_after(&["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"]);
    legal(&pos, &bestmove(&lines));
    assert!(lines.iter().any(|l| l.contains("stopped")), "{lines:?}");
    // Exactly one bestmove: the next thing said is the answer to isready.
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    // A stop with no search running says nothing.
    e.send("stop");
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    // Time limits: a movetime search answers (its length is not checked here).
    e.send("go movetime 50");
    let lines = e.until("bestmove");
    legal(&pos, &bestmove(&lines));
    e.send("go wtime 1000 btime 1000 winc 0 binc 0");
    let lines = e.until("bestmove");
    legal(&pos, &bestmove(&lines));
    e.quit();
}

#[test]
fn ponder_then_ponderhit_or_stop_gives_one_bestmove() {
    let mut e = Engine::start("uci");
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Ponder value true");
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = shakmaty_after(&moves);
    // Pondering has no limit: only ponderhit (or stop) ends it.
    e.send("go ponder wtime 3000 btime 3000");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // ponderhit: the same search goes on with the clock's time, then answers once.
    e.send("ponderhit");
    let lines = e.until("bestmove");
    legal(&pos, &bestmove(&lines));
    e.send("isready");
    assert_eq!(e.line(), "readyok", "exactly one bestmove after ponderhit");
    // stop during a ponder: one bestmove too.
    e.send("go ponder wtime 3000 btime 3000");
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let lines = e.until("bestmove");
    legal(&pos, &bestmove(&lines));
    e.send("isready");
    assert_eq!(e.line(), "readyok", "exactly one bestmove after stop");
    // The full build under a clock keeps its own time, and names the reply it expects.
    e.send("setoption name Build value full");
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go wtime 20000 btime 20000 movestogo 20");
    let lines = e.until("bestmove");
    let m = legal(&pos, &bestmove(&lines));
    let last = lines.last().unwrap();
    let reply = last
        .split(" ponder ")
        .nth(1)
        .unwrap_or_else(|| panic!("no ponder move: {last}"));
    let mut after = pos.clone();
    after.play_unchecked(m);
    legal(&after, reply.trim());
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    e.quit();
}

/// Both sides played by the engine through UCI until the game ends by the rules.
fn self_play(build: &str, depth: u8) -> (String, usize) {
    let mut e = Engine::start("uci");
    e.send("uci");
    e.until("uciok");
    e.send(&format!("setoption name Build value {build}"));
    e.send("ucinewgame");
    e.send("isready");
    // (a change of build between the period and the full kinds is said in an info string)
    let said = e.until("readyok");
    assert!(
        said[..said.len() - 1]
            .iter()
            .all(|l| l.starts_with("info string Build ")),
        "{said:?}"
    );
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    seen.insert(
        Epd::from_position(&pos, EnPassantMode::Legal).to_string(),
        1,
    );
    let end = loop {
        if pos.is_checkmate() {
            break "checkmate";
        }
        if pos.is_stalemate() {
            break "stalemate";
        }
        if pos.is_insufficient_material() {
            break "insufficient material";
        }
        if pos.halfmoves() >= 100 {
            break "50-move rule";
        }
        assert!(moves.len() < 1000, "no end after 1000 plies");
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(&format!("go depth {depth}"));
        let lines = e.until("bestmove");
        let m = bestmove(&lines);
        let mv = legal(&pos, &m);
        pos.play_unchecked(mv);
        moves.push(m);
        let n = seen
            .entry(Epd::from_position(&pos, EnPassantMode::Legal).to_string())
            .or_insert(0);
        *n += 1;
        if *n >= 3 {
            break "threefold repetition";
        }
    };
    e.send("isready");
    assert_eq!(e.line(), "readyok", "one bestmove per go");
    e.quit();
    (end.to_string(), moves.len())
}

#[test]
fn whole_games_every_move_legal() {
    for build in ["article", "1978"] {
        let (end, plies) = self_play(build, 1);
        eprintln!("{build}: {plies} plies, {end}");
        assert!(plies > 0);
    }
}
