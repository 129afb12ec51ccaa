//! UCI `MultiPV`: the full build reports up to 8 lines, each searched by the Z80 with its root
//! restricted to the moves no earlier line took (the host ranks nothing); the period builds
//! declare a maximum of 1 and say so. A change of `Build` says the option list changed.

use crate::common::child;
use child::Engine;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

/// The last `info` line of line `k`: (its score in centipawns, its first move).
fn line_of(lines: &[String], k: u8) -> Option<(i32, String)> {
    let l = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth ") && l.contains(&format!(" multipv {k} ")))?;
    let w: Vec<&str> = l.split_whitespace().collect();
    let at = |t: &str| w.iter().position(|x| *x == t);
    let cp = w[at("cp")? + 1].parse().ok()?;
    Some((cp, w.get(at("pv")? + 1)?.to_string()))
}

#[test]
fn multipv_on_the_full_build_gives_each_line_searched_by_the_z80() {
    let pos: Chess = FEN
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut e = Engine::start_with(&["uci", "--build", "full"]);
    e.send("uci");
    e.until("uciok");
    e.send("setoption name MultiPV value 3");
    e.send(&format!("position fen {FEN}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let got: Vec<(i32, String)> = (1..=3)
        .map(|k| line_of(&lines, k).unwrap_or_else(|| panic!("no line {k}: {lines:?}")))
        .collect();
    assert_eq!(got[0].1, best, "line 1 is the move played: {lines:?}");
    for (k, (_, m)) in got.iter().enumerate() {
        let u: UciMove = m.parse().unwrap();
        assert!(u.to_move(&pos).is_ok(), "line {}: {m} not legal", k + 1);
        assert!(
            got[..k].iter().all(|(_, earlier)| earlier != m),
            "line {} repeats {m}: {lines:?}",
            k + 1
        );
    }
    // Each line is the best of what the earlier lines left: never better than them.
    assert!(
        got[0].0 >= got[1].0 && got[1].0 >= got[2].0,
        "scores out of order: {got:?}; {lines:?}"
    );
    // Back to one line: no multipv tags.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(!lines.iter().any(|l| l.contains(" multipv ")), "{lines:?}");
    e.quit();
}

#[test]
fn the_period_builds_declare_multipv_1_and_say_so() {
    for build in ["article", "1978"] {
        let mut e = Engine::start_with(&["uci", "--build", build]);
        e.send("uci");
        let options = e.until("uciok");
        assert!(
            options.contains(&"option name MultiPV type spin default 1 min 1 max 1".to_string()),
            "{build}: {options:?}"
        );
        e.send("setoption name MultiPV value 3");
        e.send("isready");
        let said = e.until("readyok");
        assert!(
            said.iter()
                .any(|l| l.starts_with("info string MultiPV 3") && l.contains("one line")),
            "{build}: {said:?}"
        );
        e.send(&format!("position fen {FEN}"));
        e.send("go depth 2");
        let lines = e.until("bestmove");
        assert!(
            !lines.iter().any(|l| l.contains(" multipv ")),
            "{build}: {lines:?}"
        );
        // Changing the build says the option list changed.
        e.send("setoption name Build value full");
        e.send("isready");
        let said = e.until("readyok");
        assert!(
            said.iter().any(|l| l.contains("send 'uci' again")),
            "{build}: {said:?}"
        );
        e.quit();
    }
}
