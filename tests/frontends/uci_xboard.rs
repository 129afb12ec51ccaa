//! `z80chess xboard` driven as XBoard drives it (CECP v2): features, new/usermove/move,
//! force and go, setboard, sd, ping/pong during a search, `?`, illegal moves, result lines,
//! and a whole game against itself with every move checked by shakmaty.
//!
//! Nothing here is timed: the waits only guard against a hang.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use crate::common::child;
use child::Engine;

/// A ping answered: everything said before it.
fn sync(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.until(&format!("pong {n}"));
    lines.pop();
    lines
}

fn play(pos: &mut Chess, uci: &str) {
    let m = uci
        .parse::<UciMove>()
        .unwrap()
        .to_move(pos)
        .unwrap_or_else(|_| panic!("{uci} is not legal"));
    pos.play_unchecked(m);
}

#[test]
fn features_moves_and_commands() {
    let mut e = Engine::start("xboard");
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until("feature done=1");
    let all = lines.join("\n");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "myname=\"z80chess",
        "Level -spin",
    ] {
        assert!(all.contains(f), "{f}: {all}");
    }
    e.send("accepted ping");
    e.send("new");
    e.send("sd 1");
    e.send("usermove e2e4");
    let lines = e.until("move ");
    assert_eq!(lines.last().unwrap(), "move e7e5", "the book answers");
    // Thinking output with post.
    e.send("post");
    e.send("usermove g1f3");
    let lines = e.until("move ");
    assert!(lines.iter().any(|l| l.starts_with("1 ")), "{lines:?}");
    let mut pos = Chess::default();
    for m in ["e2e4", "e7e5", "g1f3"] {
        play(&mut pos, m);
    }
    play(
        &mut pos,
        lines.last().unwrap().strip_prefix("move ").unwrap(),
    );
    // Illegal and unknown input.
    e.send("usermove e1e3");
    assert_eq!(e.line(), "Illegal move: e1e3");
    e.send("frobnicate");
    assert!(e.line().starts_with("Error (unknown command): frobnicate"));
    e.send("sd x");
    assert!(e.line().starts_with("Error (bad depth)"));
    e.send("setboard not a fen");
    assert!(e.line().starts_with("tellusererror Illegal position"));
    assert!(e.line().starts_with("Error (bad FEN"));
    assert!(sync(&mut e, 1).is_empty());
    // After a bad setboard the engine has no position: it will not move in the old one.
    e.send("go");
    assert!(e.line().starts_with("Error (no position: bad FEN"));
    e.send(&format!(
        "setboard {}",
        shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
    ));
    // Force mode: moves are taken, nothing is played until go.
    e.send("force");
    e.send("usermove b1c3");
    assert!(sync(&mut e, 2).is_empty());
    e.send("go");
    let lines = e.until("move ");
    play(&mut pos, "b1c3");
    play(
        &mut pos,
        lines.last().unwrap().strip_prefix("move ").unwrap(),
    );
    // undo / remove (the setboard above began a new history: two plies since).
    e.send("force");
    e.send("remove");
    assert!(sync(&mut e, 3).is_empty());
    e.send("undo");
    assert!(sync(&mut e, 4)[0].starts_with("Error (no move to undo)"));
    // The end of a game: the engine mates and says so.
    e.send("setboard 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    e.send("go");
    let lines = e.until("1-0");
    assert!(lines.contains(&"move b1b8".to_string()), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "1-0 {White mates}");
    // Stalemate on the board: claimed when asked to move.
    e.send("setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go");
    assert_eq!(e.line(), "1/2-1/2 {Stalemate}");
    e.quit();
}

#[test]
fn ping_and_move_now_during_a_search() {
    let mut e = Engine::start("xboard");
    e.send("protover 2");
    e.until("feature done=1");
    e.send("new");
    e.send("force");
    for m in ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("sd 8");
    e.send("go");
    // Depth 8 takes far longer than the pings below, whatever the host.
    e.send("ping 7");
    assert_eq!(e.line(), "pong 7");
    e.send("?");
    let lines = e.until("move ");
    let mut pos = Chess::default();
    for m in ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"] {
        play(&mut pos, m);
    }
    play(
        &mut pos,
        lines.last().unwrap().strip_prefix("move ").unwrap(),
    );
    // `force` during a search abandons it: no move is played.
    e.send("go");
    e.send("force");
    assert!(sync(&mut e, 8).iter().all(|l| !l.starts_with("move")));
    e.quit();
}

#[test]
fn a_whole_game_against_itself() {
    let mut e = Engine::start("xboard");
    e.send("protover 2");
    e.until("feature done=1");
    e.send("new");
    e.send("sd 1");
    e.send("option Build=1978");
    e.send("force");
    let mut pos = Chess::default();
    let mut plies = 0;
    let result = loop {
        e.send("go");
        let l = e.line();
        if let Some(m) = l.strip_prefix("move ") {
            play(&mut pos, m);
            plies += 1;
            e.send("force");
            // The result line, if the move ended the game.
            let after = sync(&mut e, plies);
            if let Some(r) = after.iter().find(|l| l.contains(" {")) {
                break r.clone();
            }
            assert!(plies < 1000, "no end after 1000 plies");
        } else {
            break l;
        }
    };
    eprintln!("{plies} plies: {result}");
    assert!(
        ["1-0 {", "0-1 {", "1/2-1/2 {"]
            .iter()
            .any(|p| result.starts_with(p)),
        "{result}"
    );
    if result.contains("mates") {
        assert!(pos.is_checkmate());
    }
    e.quit();
}
