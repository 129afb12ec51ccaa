//! UCI and xboard through the real binary: what GUIs, bots and scripts send to `z80chess uci`
//! and `z80chess xboard` that is not the happy path. Every `go` gets exactly one `bestmove`; a
//! line that is not UTF-8 is refused by name; a refused position is never answered for the
//! previous one; no score that was not computed; host-speed clocks are wall time; the options
//! lichess-bot sets; xboard's Build full, analyze and bad setboard; the end of input during a
//! search.
//!
//! Nothing here is timed against a deadline: the waits only guard against a hang. Where
//! time is the point (row 5) the engine's own report of the time it spent is read.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::common::child;
use child::Engine;

/// A middlegame position (no book), White to move.
const MIDDLE: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";
/// A quick position: depth 8 ends soon (king and queen against king, mate found early).
const QUICK: &str = "position fen 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1";

fn uci(args: &[&str]) -> Engine {
    let mut e = Engine::start_with(args);
    e.send("uci");
    e.until("uciok");
    e
}

/// Lines up to `readyok` after sending `isready`.
fn ready(e: &mut Engine) -> Vec<String> {
    e.send("isready");
    e.until("readyok")
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

fn pos_of(line: &str) -> Chess {
    let rest = line.strip_prefix("position ").unwrap();
    let (mut pos, moves): (Chess, &str) = if let Some(m) = rest.strip_prefix("startpos") {
        (Chess::default(), m)
    } else {
        let f = rest.strip_prefix("fen ").unwrap();
        let (fen, m) = f.split_once(" moves").unwrap_or((f, ""));
        let fen: Fen = fen.parse().unwrap();
        (fen.into_position(CastlingMode::Standard).unwrap(), m)
    };
    for m in moves.split_whitespace().filter(|m| *m != "moves") {
        let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
    }
    pos
}

fn assert_legal(pos: &Chess, m: &str, lines: &[String]) {
    let ok = m
        .parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(pos).ok())
        .is_some();
    assert!(ok, "{m} is not legal: {lines:?}");
}

/// Row 1: every `go` below gets exactly one bestmove (a legal one), with an info
/// string for what was skipped, clamped or refused; `stop` afterwards adds none.
#[test]
fn row1_every_go_gets_exactly_one_bestmove() {
    let mut e = uci(&["uci"]);
    for (setup, go, says) in [
        (QUICK, "go depth -1", "clamped to 1"),
        (QUICK, "go depth 99999999999999999999", "clamped to 8"),
        (QUICK, "go banana 12", "unknown token 'banana'"),
        (MIDDLE, "go movetime -5", "clamped to 0"),
        (MIDDLE, "go nodes 300", "go nodes 300"),
        (QUICK, "go mate 1", "no mate search"),
        (MIDDLE, "go depth x", "not a number"),
        (MIDDLE, "go depth", "needs a number"),
        (
            MIDDLE,
            "go searchmoves d2d4 b5c6 e7e5 depth 1",
            "'e7e5' is not legal here",
        ),
        (
            MIDDLE,
            "go searchmoves b5a4 depth 1",
            "searches every root move",
        ),
    ] {
        e.send(setup);
        e.send(go);
        e.send("stop");
        let lines = e.until("bestmove");
        let after = ready(&mut e);
        assert_eq!(after, ["readyok"], "{go}: a second bestmove");
        let b = bestmoves(&lines);
        assert_legal(&pos_of(setup), &b[0], &lines);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains(says)),
            "{go}: no info string with {says:?}: {lines:?}"
        );
    }
    e.quit();
}

/// Row 2: a line that is not UTF-8 is refused by name and the session goes on.
#[test]
fn row2_a_line_that_is_not_utf8_is_refused_and_the_session_goes_on() {
    let mut e = Engine::start("uci");
    e.send_raw(b"uci\n\xff\nisready\n");
    let lines = e.until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("not UTF-8")),
        "{lines:?}"
    );
    e.send_raw(b"position startpos moves e2e4 \xc3\x28\n");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains("not UTF-8")), "{lines:?}");
    e.quit();

    let mut x = Engine::start("xboard");
    x.send_raw(b"xboard\nprotover 2\n\xff\xfe\nping 1\n");
    let lines = x.until("pong 1");
    assert!(
        lines.iter().any(|l| l.starts_with("Error (not UTF-8)")),
        "{lines:?}"
    );
    x.quit();
}

/// Row 3: after a refused `position`, `go` never answers for the previous position: it
/// answers `bestmove 0000` with an info string, until a good position arrives.
#[test]
fn row3_a_refused_position_is_never_answered_for_the_previous_one() {
    let mut e = uci(&["uci"]);
    for bad in [
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 XXXX",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5",
        // Lines that do not parse as a `position` leave none either.
        "position startpos e2e4 e7e5",
        "position",
        "position xyz",
    ] {
        e.send(MIDDLE);
        e.send(bad);
        e.send("go depth 1");
        let lines = e.until("bestmove");
        assert_eq!(bestmoves(&lines), ["0000"], "{bad}: {lines:?}");
        assert!(
            lines.iter().any(|l| l.contains("no position")),
            "{bad}: {lines:?}"
        );
    }
    // `go infinite` with no position still waits for its stop, then answers once.
    e.send("go infinite");
    let lines = ready(&mut e);
    assert!(bestmoves(&lines).is_empty(), "{lines:?}");
    e.send("stop");
    assert_eq!(bestmoves(&e.until("bestmove")), ["0000"]);
    // A good position ends it.
    e.send(MIDDLE);
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert_legal(&pos_of(MIDDLE), &bestmoves(&lines)[0], &lines);
    e.quit();

    // xboard: a bad setboard leaves no position; the engine will not move in the old one.
    let mut x = Engine::start("xboard");
    x.send("protover 2");
    x.until("feature done=1");
    x.send("new");
    x.send("force");
    x.send("usermove e2e4");
    x.send("setboard 8/8/8 w - - 0 1");
    x.send("go");
    x.send("usermove e7e5");
    x.send("ping 1");
    let lines = x.until("pong 1");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("Error (no position")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move (no position")),
        "{lines:?}"
    );
    x.send("setboard 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    x.send("sd 2");
    x.send("go");
    assert_eq!(x.until("move ").last().unwrap(), "move b1b8");
    x.quit();
}

/// Row 4: a search stopped before depth 1 completes prints no score that was not computed;
/// the move still comes.
#[test]
fn row4_no_score_before_depth_one() {
    for build in ["full", "article"] {
        let mut e = uci(&["uci", "--build", build]);
        let setup = "position fen r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9";
        e.send(setup);
        e.send("go wtime 100 btime 100");
        let lines = e.until("bestmove");
        assert_legal(&pos_of(setup), &bestmoves(&lines)[0], &lines);
        // Every score belongs to a depth reported as it completed.
        for l in lines.iter().filter(|l| l.contains(" score ")) {
            let depth = l.split_whitespace().nth(2).unwrap();
            assert!(
                lines.iter().any(|d| d.starts_with(&format!("info depth {depth} "))
                    && !d.contains(" nps ")),
                "{build}: a score no completed depth gave: {l}; {lines:?}"
            );
        }
        e.quit();
    }
}

/// The `time` field of the final `info` line (milliseconds of wall time at host speed).
fn spent_ms(lines: &[String]) -> u64 {
    let l = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && l.contains(" nps "))
        .unwrap_or_else(|| panic!("no final info line: {lines:?}"));
    let w: Vec<&str> = l.split_whitespace().collect();
    let i = w.iter().position(|t| *t == "time").unwrap();
    w[i + 1].parse().unwrap()
}

/// Row 5: at host speed a GUI clock is wall time: from move 3, 60 s + 1 s on the full build
/// spends more than half a second (the yardstick: 0.5 to 4 s; today 14 ms at depth
/// 1), searching past the Level; the info string says the clock is wall time. With
/// PeriodSpeed on, the period machine's time at ClockHz, said too.
#[test]
fn row5_host_speed_clocks_are_wall_time() {
    let mut e = uci(&["uci", "--build", "full"]);
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go wtime 60000 btime 60000 winc 1000 binc 1000");
    let lines = e.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("info string time:") && l.contains("wall time")),
        "{lines:?}"
    );
    let ms = spent_ms(&lines);
    eprintln!("full build, 60 s + 1 s at move 3: {ms} ms");
    assert!(ms >= 500, "{ms} ms: {lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "not past the Level (2): {lines:?}"
    );
    // A period build: the host's share of the clock, also past the Level.
    e.send("setoption name Build value article");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go wtime 30000 btime 30000");
    let lines = e.until("bestmove");
    assert!(spent_ms(&lines) >= 500, "{lines:?}");
    // PeriodSpeed on: emulated time at ClockHz, the Level's depth.
    e.send("setoption name PeriodSpeed value true");
    e.send("setoption name ClockHz value 1000000000");
    e.send("go movetime 100");
    let lines = e.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("emulated time") && l.contains("PeriodSpeed on")),
        "{lines:?}"
    );
    e.quit();

    // xboard at host speed: `level` + `time` on the full build.
    let mut x = Engine::start_with(&["xboard", "--build", "full"]);
    x.send("protover 2");
    x.until("feature done=1");
    x.send("new");
    x.send("level 0 1 1");
    x.send("post");
    x.send("force");
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        x.send(&format!("usermove {m}"));
    }
    x.send("time 6000");
    x.send("otim 6000");
    x.send("go");
    let lines = x.until("move ");
    assert!(lines.iter().any(|l| l.contains("wall time")), "{lines:?}");
    // The last thinking line: depth score centiseconds nodes move.
    let cs: u64 = lines
        .iter()
        .rev()
        .find_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .unwrap();
    let depth: u64 = lines
        .iter()
        .rev()
        .find_map(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap();
    eprintln!("xboard full, 1 min + 1 s at move 3: depth {depth} after {cs} cs");
    assert!(depth >= 3, "not past the Level: {lines:?}");
    x.quit();
}

/// Row 6: the options lichess-bot sets are declared with ranges that hold its defaults, and
/// say what they do; UCI_Chess960 is not declared. Move Overhead is taken off the clock.
#[test]
fn row6_threads_hash_move_overhead() {
    let mut e = Engine::start_with(&["uci", "--build", "full"]);
    e.send("uci");
    let lines = e.until("uciok");
    let spin = |name: &str| -> (i64, i64) {
        let l = lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {name} type spin ")))
            .unwrap_or_else(|| panic!("{name}: {lines:?}"));
        let w: Vec<&str> = l.split_whitespace().collect();
        let at = |k: &str| {
            w[w.iter().position(|t| *t == k).unwrap() + 1]
                .parse()
                .unwrap()
        };
        (at("min"), at("max"))
    };
    assert_eq!(spin("Threads"), (1, 1024));
    assert_eq!(spin("Hash"), (1, 65536));
    let (lo, hi) = spin("Move Overhead");
    assert!(lo <= 0 && hi >= 1000, "{lo}..{hi}");
    assert!(!lines.iter().any(|l| l.contains("UCI_Chess960")));
    for (set, says) in [
        ("setoption name Threads value 2", "one CPU"),
        ("setoption name Hash value 256", "4 KiB"),
    ] {
        e.send(set);
        let l = e.line();
        assert!(
            l.starts_with("info string") && l.contains(says),
            "{set}: {l}"
        );
    }
    e.send("setoption name Move Overhead value 100");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go wtime 1100 btime 1100");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("(1000 ms left)")),
        "the overhead is taken off the clock: {lines:?}"
    );
    e.quit();
}

/// Row 7: xboard offers Build full and takes it, analyzes (`analyze`, `.`, `exit`) without
/// moving, and `?` moves now.
#[test]
fn row7_xboard_build_full_analyze_and_move_now() {
    let mut x = Engine::start("xboard");
    x.send("protover 2");
    let lines = x.until("feature done=1");
    let all = lines.join("\n");
    assert!(all.contains("analyze=1"), "{all}");
    assert!(
        all.contains("Build -combo *article /// 1978 /// full"),
        "{all}"
    );
    x.send("new");
    x.send("option Build=full");
    x.send("ping 1");
    assert_eq!(x.until("pong 1"), ["pong 1"], "Build full accepted");
    x.send("setboard r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
    x.send("analyze");
    // Thinking lines come without `post`; `.` gets a status line.
    let first = x.line();
    assert!(first.starts_with("1 "), "{first}");
    x.send(".");
    x.until("stat01:");
    x.send("usermove b5a4");
    x.send("exit");
    x.send("ping 2");
    let lines = x.until("pong 2");
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // `?` during a deep search: the move comes at once (ping answered first).
    x.send("sd 8");
    x.send("go");
    x.send("ping 3");
    x.until("pong 3");
    x.send("?");
    let m = x.until("move ").last().unwrap().clone();
    let pos = pos_of("position fen r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4 moves b5a4");
    assert_legal(
        &pos,
        m.strip_prefix("move ").unwrap(),
        std::slice::from_ref(&m),
    );
    x.quit();
}

/// Row 8: the end of input during a search ends it with its bestmove / move and exit 0.
#[test]
fn row8_end_of_input_during_a_search_answers_and_exits() {
    for go in ["go infinite", "go depth 8"] {
        let mut e = uci(&["uci"]);
        e.send(MIDDLE);
        e.send(go);
        e.send("isready");
        e.until("readyok");
        let lines = e.close();
        let b = bestmoves(&lines);
        assert_eq!(b.len(), 1, "{go}: {lines:?}");
        assert_legal(&pos_of(MIDDLE), &b[0], &lines);
    }
    let mut x = Engine::start("xboard");
    x.send("protover 2");
    x.until("feature done=1");
    x.send("new");
    x.send("setboard r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
    x.send("sd 8");
    x.send("go");
    x.send("ping 1");
    x.until("pong 1");
    let lines = x.close();
    assert!(
        lines.iter().filter(|l| l.starts_with("move ")).count() == 1,
        "{lines:?}"
    );
}

/// Row 9: `hashfull` where the build has a table (the full build with its flag, P_FLAGS bit
/// 0, on), and a progress line at least once a second of a long search. (`seldepth` and
/// `currmove` are not given: the firmware keeps neither in a variable the host can read.)
#[test]
fn row9_hashfull_and_progress() {
    let mut e = uci(&["uci", "--build", "full"]);
    e.send("setoption name P_FLAGS value 253");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go movetime 2500");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info ") && !l.starts_with("info string") && l.contains(" time "))
        .collect();
    assert!(infos.iter().all(|l| l.contains(" hashfull ")), "{lines:?}");
    // Depth lines carry the selective depth, at least the depth (the full build keeps it in Z80).
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let at = |k: &str| -> u32 {
            let i = w
                .iter()
                .position(|t| *t == k)
                .unwrap_or_else(|| panic!("no {k}: {l}"));
            w[i + 1].parse().unwrap()
        };
        assert!(at("seldepth") >= at("depth"), "{l}");
    }
    check_progress(&mut e);
    // The period builds have no table: no hashfull.
    e.send("setoption name Build value article");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("hashfull")), "{lines:?}");
    // The period builds' root move is read from their search frame (their ROMs unchanged).
    check_progress(&mut e);
    e.quit();
}

/// While the engine searches, a progress line comes (once a second of wall time) with the
/// root move being searched, legal here, its number among the root's moves, and the
/// selective depth. Nothing is timed: `go infinite` runs until such a line has come.
fn check_progress(e: &mut Engine) {
    let setup = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    let pos = pos_of(setup);
    let count = pos.legal_moves().len();
    e.send(setup);
    e.send("go infinite");
    let progress = loop {
        let l = e.line();
        assert!(!l.starts_with("bestmove"), "{l}");
        if l.contains(" currmove ") {
            break l;
        }
    };
    e.send("stop");
    e.until("bestmove");
    let w: Vec<&str> = progress.split_whitespace().collect();
    let after = |k: &str| w[w.iter().position(|t| *t == k).unwrap() + 1];
    assert_legal(&pos, after("currmove"), std::slice::from_ref(&progress));
    let n: usize = after("currmovenumber").parse().unwrap();
    assert!((1..=count).contains(&n), "{progress}");
    assert!(progress.contains(" seldepth "), "{progress}");
}

/// `go searchmoves` on the full build: the Z80 searches only the moves given (its move is one
/// of them, however poor), the set lasts for that `go` alone, and the period builds say they
/// search every move. Positions from the bench and the opening.
#[test]
fn searchmoves_is_honoured_by_the_full_build() {
    let mut e = uci(&["uci", "--build", "full"]);
    for (setup, set) in [
        (MIDDLE, vec!["a2a3", "h2h3"]),
        (MIDDLE, vec!["b5a4"]),
        ("position startpos moves e2e4 e7e5", vec!["a2a3"]),
        (
            "position fen r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
            vec!["a7a6", "h7h5", "g8h8"],
        ),
    ] {
        e.send(setup);
        e.send(&format!("go depth 2 searchmoves {}", set.join(" ")));
        let lines = e.until("bestmove");
        let b = bestmoves(&lines);
        assert!(set.contains(&b[0].as_str()), "{set:?}: {lines:?}");
        assert!(
            !lines.iter().any(|l| l.contains("searches every root move")),
            "{lines:?}"
        );
        // The same position without searchmoves: the set is gone, the answer is the
        // unrestricted search's (a fresh engine's).
        e.send(setup);
        e.send("go depth 2");
        let free = bestmoves(&e.until("bestmove"));
        let mut fresh = uci(&["uci", "--build", "full"]);
        fresh.send(setup);
        fresh.send("go depth 2");
        let want = bestmoves(&fresh.until("bestmove"));
        fresh.quit();
        assert_eq!(free, want, "{setup}: the set outlived its go");
    }
    e.quit();
    let mut p = uci(&["uci", "--build", "1978"]);
    p.send(MIDDLE);
    p.send("go depth 1 searchmoves a2a3");
    let lines = p.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("searches every root move")),
        "{lines:?}"
    );
    p.quit();
}

/// The full build's `info ... pv` is its whole line, legal from the position (shakmaty), first
/// move the depth's best; at depth 3 the line has 3 moves. The period builds give the move.
#[test]
fn the_full_build_prints_its_principal_variation() {
    for (build, min_len) in [("full", 3), ("article", 1)] {
        let mut e = uci(&["uci", "--build", build]);
        e.send(MIDDLE);
        e.send("go depth 3");
        let lines = e.until("bestmove");
        let pos = pos_of(MIDDLE);
        let mut longest = 0;
        for l in lines.iter().filter(|l| l.starts_with("info depth")) {
            let pv: Vec<&str> = l
                .split(" pv ")
                .nth(1)
                .unwrap_or_else(|| panic!("no pv: {l}"))
                .split_whitespace()
                .collect();
            let mut p = pos.clone();
            for m in &pv {
                let mv = m
                    .parse::<UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(&p).ok())
                    .unwrap_or_else(|| panic!("{m} not legal in the pv of {l}"));
                p.play_unchecked(mv);
            }
            longest = longest.max(pv.len());
        }
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap();
        let first = last
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        assert_eq!(first, bestmoves(&lines)[0], "{lines:?}");
        assert!(
            longest >= min_len,
            "{build}: pv of {longest} moves: {lines:?}"
        );
        if build == "article" {
            assert_eq!(longest, 1, "{lines:?}");
        }
        e.quit();
    }
}

/// xboard reads a line with one tokenizer whether idle or thinking: ` ping 7` (or a leading
/// `\r`) during a search gets `pong 7`. An error line echoes control characters escaped (a `\r`
/// cannot forge a line for a reader splitting on it) and cut to a sane length.
#[test]
fn xboard_tokenizes_alike_while_thinking_and_escapes_its_echoes() {
    let mut x = Engine::start("xboard");
    x.send("xboard");
    x.send("protover 2");
    x.send("setboard r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    x.send("sd 8");
    x.send("go");
    x.send(" ping 7");
    x.send_raw(b"\rping 8\n");
    x.send("?");
    let lines = x.until("move ");
    assert!(lines.iter().any(|l| l == "pong 7"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "pong 8"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("pong ping")), "{lines:?}");
    x.send_raw(b"foo\rmove e2e4\n");
    let long = format!("{}\n", "z".repeat(1 << 20));
    x.send_raw(long.as_bytes());
    x.send("ping 9");
    let lines = x.until("pong 9");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(
        errors[0].contains("foo\\rmove e2e4") && !errors[0].contains('\r'),
        "{lines:?}"
    );
    assert!(
        errors[1].len() < 400,
        "an echo of {} bytes",
        errors[1].len()
    );
    x.quit();
}
