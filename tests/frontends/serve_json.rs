//! `z80chess serve --json` through the binary: one answer a line, ids echoed, errors named,
//! `stop` obeyed, and the answers checked against shakmaty (legality, perft counts).

use crate::common::child;
use child::Engine;
use serde_json::Value;
use shakmaty::{fen::Fen, perft, CastlingMode, Chess, Position};

fn ask(e: &mut Engine, line: &str) -> Value {
    e.send(line);
    let l = e.line();
    serde_json::from_str(&l).unwrap_or_else(|err| panic!("not JSON ({err}): {l}"))
}

fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

#[test]
fn each_line_gets_one_answer_and_errors_name_the_fault() {
    let mut e = Engine::start_with(&["serve", "--json"]);
    let cases: &[(&str, &str)] = &[
        ("not json at all", "not JSON"),
        ("[1,2]", "expected a JSON object"),
        ("{\"x\":1}", "no \"cmd\""),
        ("{\"cmd\":7}", "\"cmd\" must be a string"),
        ("{\"cmd\":\"fly\"}", "unknown command 'fly'"),
        (
            "{\"cmd\":\"go\",\"depth\":-1}",
            "\"depth\" must be a whole number",
        ),
        (
            "{\"cmd\":\"go\",\"depth\":\"deep\"}",
            "\"depth\" must be a whole number",
        ),
        ("{\"cmd\":\"perft\"}", "\"depth\" must be given"),
        ("{\"cmd\":\"move\",\"move\":\"e2e5\"}", "e2e5"),
        (
            "{\"cmd\":\"position\",\"fen\":\"8/8/8/8 w - - 0 1\"}",
            "FEN",
        ),
        (
            "{\"cmd\":\"position\",\"moves\":[\"e2e4\",\"e2e4\"]}",
            "moves[1]",
        ),
        ("{\"cmd\":\"build\",\"name\":\"1979\"}", "1979"),
        ("{\"cmd\":\"stop\"}", "no search is running"),
    ];
    for (line, says) in cases {
        let v = ask(&mut e, line);
        let err = v["error"].as_str().unwrap_or_else(|| panic!("{line}: {v}"));
        assert!(err.contains(says), "{line}: {err}");
    }
    // A refused position leaves none until `new` (or a good position).
    let v = ask(&mut e, "{\"cmd\":\"moves\"}");
    assert!(v["error"].as_str().unwrap().contains("no position"), "{v}");
    ask(&mut e, "{\"cmd\":\"new\"}");
    let v = ask(&mut e, "{\"cmd\":\"moves\",\"id\":\"m\"}");
    assert_eq!(v["id"], "m");
    assert_eq!(v["moves"].as_array().unwrap().len(), 20);
    // A line that is not UTF-8 is refused by name, and the session goes on.
    e.send_raw(b"{\"cmd\":\"\xff\"}\n");
    let v: Value = serde_json::from_str(&e.line()).unwrap();
    assert!(v["error"].as_str().unwrap().contains("not UTF-8"), "{v}");
    let v = ask(&mut e, r#"{"cmd":"quit","id":"q"}"#);
    assert_eq!(v["id"], "q", "{v}");
    assert!(e.close().is_empty(), "nothing after quit");
}

#[test]
fn positions_searches_and_perft_agree_with_shakmaty() {
    let mut e = Engine::start_with(&["serve", "--json", "--build", "full"]);
    let v = ask(
        &mut e,
        r#"{"cmd":"position","fen":"startpos","moves":["e2e4","e7e5","Nf3"],"id":3}"#,
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["id"], 3);
    let pos = chess(v["fen"].as_str().unwrap());
    let mut want = Chess::default();
    for u in ["e2e4", "e7e5", "g1f3"] {
        let m = u
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&want)
            .unwrap();
        want.play_unchecked(m);
    }
    assert_eq!(pos.board(), want.board());
    for depth in 1..=3u32 {
        let v = ask(&mut e, &format!(r#"{{"cmd":"perft","depth":{depth}}}"#));
        assert_eq!(
            v["nodes"].as_u64(),
            Some(perft(&pos, depth)),
            "depth {depth}: {v}"
        );
    }
    let v = ask(&mut e, r#"{"cmd":"go","depth":2}"#);
    let best = v["bestmove"].as_str().unwrap();
    let m = best
        .parse::<shakmaty::uci::UciMove>()
        .unwrap()
        .to_move(&pos);
    assert!(m.is_ok(), "{best} is not legal in {v}");
    assert_eq!(v["depth"], 2, "{v}");
    assert!(v["tstates"].as_u64().unwrap() > 0, "{v}");
    // The principal variation plays from the position.
    let mut p = pos.clone();
    for u in v["pv"].as_array().unwrap() {
        let m = u
            .as_str()
            .unwrap()
            .parse::<shakmaty::uci::UciMove>()
            .unwrap();
        p.play_unchecked(m.to_move(&p).expect("pv move legal"));
    }
    let v = ask(&mut e, r#"{"cmd":"eval"}"#);
    let sum: i64 = v["terms"]
        .as_object()
        .unwrap()
        .values()
        .map(|t| t.as_i64().unwrap())
        .sum();
    assert_eq!(Some(sum), v["total"].as_i64(), "the terms add up: {v}");
    let v = ask(&mut e, r#"{"cmd":"quit","id":"q"}"#);
    assert_eq!(v["id"], "q", "{v}");
    assert!(e.close().is_empty(), "nothing after quit");
}

#[test]
fn stop_ends_a_deep_search_with_a_move() {
    let mut e = Engine::start_with(&["serve", "--json"]);
    let v = ask(
        &mut e,
        r#"{"cmd":"position","fen":"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}"#,
    );
    assert_eq!(v["ok"], true, "{v}");
    e.send(r#"{"cmd":"go","depth":8,"id":"deep"}"#);
    // A command sent during the search is answered after it, in order.
    e.send(r#"{"cmd":"moves","id":"after"}"#);
    e.send(r#"{"cmd":"stop","id":"s"}"#);
    let stop: Value = serde_json::from_str(&e.line()).unwrap();
    assert_eq!(stop["id"], "s", "{stop}");
    assert_eq!(stop["ok"], true);
    let go: Value = serde_json::from_str(&e.line()).unwrap();
    assert_eq!(go["id"], "deep", "{go}");
    assert_eq!(go["kind"], "stopped", "{go}");
    assert_eq!(go["legal"], true, "{go}");
    let after: Value = serde_json::from_str(&e.line()).unwrap();
    assert_eq!(after["id"], "after", "{after}");
    // The end of input: every line already sent is answered, then a clean exit.
    e.send(r#"{"cmd":"perft","depth":1}"#);
    let rest = e.close();
    assert_eq!(rest.len(), 1, "{rest:?}");
    let v: Value = serde_json::from_str(&rest[0]).unwrap();
    let pos = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert_eq!(v["nodes"].as_u64(), Some(perft(&pos, 1)), "{v}");
}

/// A script's lines, all sent at once through a pipe that then closes.
fn piped(lines: &[&str]) -> Vec<Value> {
    let mut e = Engine::start_with(&["serve", "--json"]);
    for l in lines {
        e.send(l);
    }
    e.close()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|err| panic!("not JSON ({err}): {l}")))
        .collect()
}

#[test]
fn a_piped_script_gets_every_line_answered_in_order_and_its_search_runs_to_its_depth() {
    let script = [
        r#"{"cmd":"position","fen":"startpos","moves":["e2e4","e7e5"]}"#,
        r#"{"cmd":"go","depth":3,"id":7}"#,
        r#"{"cmd":"eval","id":1}"#,
        r#"{"cmd":"perft","depth":3,"id":2}"#,
        r#"{"cmd":"moves","id":3}"#,
        r#"{"cmd":"quit","id":4}"#,
    ];
    let answers = piped(&script);
    let ids: Vec<&Value> = answers.iter().map(|v| &v["id"]).collect();
    assert_eq!(
        ids,
        [
            &Value::Null,
            &Value::from(7),
            &Value::from(1),
            &Value::from(2),
            &Value::from(3),
            &Value::from(4)
        ],
        "{answers:?}"
    );
    let go = &answers[1];
    assert_eq!(
        go["kind"], "searched",
        "only stop cuts a search short: {go}"
    );
    assert_eq!(go["depth"], 3, "{go}");
    let pos = chess("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(
        answers[3]["nodes"].as_u64(),
        Some(perft(&pos, 3)),
        "{answers:?}"
    );
    assert_eq!(
        answers[4]["moves"].as_array().map(Vec::len),
        Some(29),
        "{answers:?}"
    );
    // Moves in UCI, as every move the protocol sends.
    let moves = answers[4]["moves"].as_array().unwrap();
    assert!(moves.contains(&Value::from("g1f3")), "{moves:?}");
    assert!(moves.contains(&Value::from("e1e2")), "{moves:?}");
    assert_eq!(answers[5]["ok"], true, "{answers:?}");

    // Without quit, the end of input lets the search finish and answers it before the exit.
    let answers = piped(&script[..2]);
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[1]["id"], 7, "{answers:?}");
    assert_eq!(answers[1]["kind"], "searched", "{answers:?}");
    assert_eq!(answers[1]["depth"], 3, "{answers:?}");
}

#[test]
fn serve_without_a_protocol_is_a_usage_error() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .arg("serve")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json"));
}

/// A `"fen"` that is not a string is refused by field name, and a refused position leaves none:
/// `go` and the rest refuse until a good one (never an answer for the previous position).
#[test]
fn a_refused_position_leaves_none_and_fen_must_be_a_string() {
    let mut e = Engine::start_with(&["serve", "--json"]);
    for fen in ["4", "null", "true", "[1,2]", "{\"a\":1}"] {
        let good = ask(
            &mut e,
            r#"{"cmd":"position","fen":"startpos","moves":["e2e4"]}"#,
        );
        assert!(good["ok"] == true, "{good}");
        let v = ask(&mut e, &format!(r#"{{"cmd":"position","fen":{fen}}}"#));
        let err = v["error"].as_str().unwrap_or_else(|| panic!("{fen}: {v}"));
        assert!(err.contains("\"fen\" must be a string"), "{fen}: {err}");
        for cmd in ["go", "moves", "eval"] {
            let v = ask(&mut e, &format!(r#"{{"cmd":"{cmd}","depth":1}}"#));
            let err = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{cmd} after {fen}: {v}"));
            assert!(err.contains("no position"), "{cmd} after {fen}: {err}");
        }
    }
    // A bad FEN string or move leaves none too; a good position (or `new`) ends it.
    ask(&mut e, r#"{"cmd":"position","fen":"8/8/8 w - - 0 1"}"#);
    let v = ask(&mut e, r#"{"cmd":"go","depth":1}"#);
    assert!(v["error"].as_str().unwrap().contains("no position"), "{v}");
    ask(&mut e, r#"{"cmd":"new"}"#);
    let v = ask(&mut e, r#"{"cmd":"go","depth":1}"#);
    assert!(v["bestmove"].is_string(), "{v}");
    ask(&mut e, r#"{"cmd":"quit"}"#);
    assert!(e.close().is_empty(), "nothing after quit");
}
