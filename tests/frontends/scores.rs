//! What a GUI, a script or an adjudicator reads as the engine's score is the position's value
//! for the side to move (a pawn = 100), in every build and every protocol; and every UCI `go`
//! prints a scored `info depth` line before its `bestmove`, a book move too.
//!
//! Nothing here is timed: the waits only guard against a hang.

use crate::common::child;
use child::Engine;
use serde_json::Value;

const BUILDS: [&str; 3] = ["article", "1978", "full"];
/// White is a queen up; White to move, then Black to move.
const QUEEN_UP_WHITE: &str = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10";
const QUEEN_UP_BLACK: &str = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 10";

/// The centipawns of every `score cp N` in `lines`.
fn cps(lines: &[String]) -> Vec<i32> {
    lines
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|t| *t == "cp")?;
            w.get(i + 1)?.parse().ok()
        })
        .collect()
}

fn uci_lines(build: &str, fen: &str, go: &str) -> Vec<String> {
    let mut e = Engine::start_with(&["uci", "--build", build]);
    e.send("uci");
    e.until("uciok");
    e.send(&format!("position fen {fen}"));
    e.send(go);
    let lines = e.until("bestmove");
    e.quit();
    lines
}

#[test]
fn uci_scores_are_the_positions_value_for_the_side_to_move() {
    for build in BUILDS {
        for (fen, up) in [(QUEEN_UP_WHITE, true), (QUEEN_UP_BLACK, false)] {
            let lines = uci_lines(build, fen, "go depth 2");
            let got = cps(&lines);
            assert!(!got.is_empty(), "{build}: no score: {lines:?}");
            for cp in got {
                // A queen is 9 pawns in every build; the side to move is up or down one.
                let ok = if up { cp >= 700 } else { cp <= -700 };
                assert!(ok, "{build} {fen}: score cp {cp}: {lines:?}");
            }
        }
    }
}

#[test]
fn xboard_thinking_scores_are_the_positions_value() {
    for build in ["article", "full"] {
        let mut x = Engine::start_with(&["xboard", "--build", build]);
        x.send("protover 2");
        x.until("feature done=1");
        x.send("new");
        x.send("force");
        x.send(&format!("setboard {QUEEN_UP_BLACK}"));
        x.send("post");
        x.send("sd 2");
        x.send("go");
        let lines = x.until("move ");
        let scores: Vec<i32> = lines
            .iter()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        assert!(!scores.is_empty(), "{build}: {lines:?}");
        assert!(
            scores.iter().all(|s| *s <= -700),
            "{build}: Black is a queen down: {lines:?}"
        );
        x.quit();
    }
}

#[test]
fn json_and_search_give_the_positions_value() {
    let mut e = Engine::start_with(&["serve", "--json", "--build", "full"]);
    e.send(&format!(r#"{{"cmd":"position","fen":"{QUEEN_UP_BLACK}"}}"#));
    e.line();
    e.send(r#"{"cmd":"go","depth":2}"#);
    let v: Value = serde_json::from_str(&e.line()).unwrap();
    let cp = v["score_cp"].as_i64().unwrap_or_else(|| panic!("{v}"));
    assert!(cp <= -700, "{v}");
    e.close();

    for build in BUILDS {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
            .args(["search", "--fen", QUEEN_UP_WHITE, "--level", "2"])
            .args(["--build", build])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{build}: {text}");
        let score = text
            .lines()
            .find(|l| l.starts_with("score "))
            .unwrap_or_else(|| panic!("{text}"));
        // The relative word and the absolute figure, both.
        assert!(score.contains("against the root"), "{score}");
        let cp: i32 = score
            .split("(cp ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{build}: no absolute figure: {score}"));
        assert!(cp >= 700, "{build}: {score}");
    }
}

/// Every `go` prints a scored `info depth` line before `bestmove`: a book move (depth 0,
/// the Z80's static value of the position), a search stopped before its first depth, and an
/// ordinary search.
#[test]
fn every_go_prints_a_scored_info_line_before_bestmove() {
    let middlegame =
        "position fen r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9";
    for build in BUILDS {
        let mut e = Engine::start_with(&["uci", "--build", build]);
        e.send("uci");
        e.until("uciok");
        for (position, go) in [
            ("position startpos moves e2e4", "go btime 100"),
            (middlegame, "go wtime 100 btime 100"),
            (middlegame, "go depth 1"),
            ("position startpos moves e2e4", "go depth 3"),
        ] {
            e.send(position);
            e.send(go);
            let lines = e.until("bestmove");
            let scored = lines.iter().find(|l| {
                l.starts_with("info depth ")
                    && (l.contains(" score cp ") || l.contains(" score mate "))
            });
            assert!(
                scored.is_some(),
                "{build}, {position}, {go}: no scored info line: {lines:?}"
            );
        }
        // The book's move is scored at depth 0 with the static value, which the info
        // string names.
        e.send("position startpos moves e2e4");
        e.send("go depth 4");
        let lines = e.until("bestmove");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 0 score cp ")),
            "{build}: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("book move") && l.contains("static evaluation")),
            "{build}: {lines:?}"
        );
        e.quit();
    }
}

/// Each completed depth is told once: the answer repeats no depth line it already sent.
#[test]
fn uci_tells_each_depth_once() {
    for build in ["article", "full"] {
        let lines = uci_lines(
            build,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "go depth 3",
        );
        for d in 1..=3 {
            let n = lines
                .iter()
                .filter(|l| l.starts_with(&format!("info depth {d} ")))
                .count();
            assert_eq!(n, 1, "{build}: depth {d} told {n} times: {lines:?}");
        }
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info ") && l.contains(" nps ")),
            "{build}: the totals: {lines:?}"
        );
    }
}
