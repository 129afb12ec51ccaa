//! `z80chess match`: the same command gives the same games whatever `--jobs`; a UCI engine
//! (our own `z80chess uci`) plays the same moves as the build it runs; the closing line's
//! arithmetic; bad command lines are refused with a message, never a panic; every built-in
//! opening is legal and leads to its own position; the EPD and PGN readers.
//!
//! Nothing here is timed: the games are a few, at level 1 or a small emulated move time.

use shakmaty::Position;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use z80chess::matchplay::elo::Tally;
use z80chess::matchplay::openings::{builtin, key, read_epd, read_pgn};

const BIN: &str = env!("CARGO_BIN_EXE_z80chess");

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("z80chess-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).arg("match").args(args).output().unwrap()
}

/// Run a match that must succeed; its stdout and the PGN it wrote.
fn play(args: &[&str], pgn: &Path) -> (String, String) {
    let mut all: Vec<&str> = args.to_vec();
    let p = pgn.to_str().unwrap();
    all.extend(["--pgn", p]);
    let out = run(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        out.status.success(),
        "match {args:?} failed:\n{stdout}\n{stderr}"
    );
    (stdout, std::fs::read_to_string(pgn).unwrap())
}

/// The values of one tag, game by game.
fn tags(pgn: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|v| v.trim_end_matches("\"]").to_string())
        .collect()
}

/// The moves of each game (SAN, without numbers, comments and results).
fn moves(pgn: &str) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    for block in pgn
        .split("\n\n")
        .filter(|b| !b.starts_with('[') && !b.trim().is_empty())
    {
        let mut text = String::new();
        let mut depth = 0;
        for c in block.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => text.push(c),
                _ => {}
            }
        }
        games.push(
            text.split_whitespace()
                .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
                .map(str::to_string)
                .collect(),
        );
    }
    games
}

/// The closing line's counts, checked against the PGN's results (A is White in odd rounds).
fn check_closing(stdout: &str, pgn: &str, a: &str, b: &str) {
    let results = tags(pgn, "Result");
    let mut t = Tally::default();
    for (i, r) in results.iter().enumerate() {
        let a_white = i % 2 == 0;
        match (r.as_str(), a_white) {
            ("1-0", true) | ("0-1", false) => t.wins += 1,
            ("1/2-1/2", _) => t.draws += 1,
            _ => t.losses += 1,
        }
    }
    let last = stdout.lines().last().unwrap();
    assert_eq!(last, t.line(a, b), "{stdout}");
    assert!(last.starts_with(&format!(
        "{a} vs {b}: +{} ={} -{}, score ",
        t.wins, t.draws, t.losses
    )));
    // The line before splits the same games by who first fell behind in material: its three
    // kinds hold every game, and their wins, draws and losses add up to the closing line's.
    let swing = stdout.lines().rev().nth(1).unwrap();
    let prefix = format!("material (2 pawns for 7 plies): {a} behind first in ");
    assert!(swing.starts_with(&prefix), "{stdout}");
    let mut kinds = 0;
    let mut sum = Tally::default();
    for part in swing.split(" in ").skip(1) {
        let games: u32 = part.split(' ').next().unwrap().parse().unwrap();
        let counts = part.split('(').nth(1).unwrap();
        let n = |sign: char| -> u32 {
            counts
                .split(' ')
                .find_map(|w| w.strip_prefix(sign))
                .unwrap()
                .trim_end_matches([',', ')'])
                .parse()
                .unwrap()
        };
        assert_eq!(n('+') + n('=') + n('-'), games, "{swing}");
        sum.wins += n('+');
        sum.draws += n('=');
        sum.losses += n('-');
        kinds += 1;
    }
    assert_eq!(kinds, 3, "{swing}");
    assert_eq!(sum, t, "{swing}");
}

#[test]
fn same_games_whatever_the_jobs() {
    let args = ["article", "1978", "--games", "4", "--level", "1"];
    let mut one = args.to_vec();
    one.extend(["--jobs", "1"]);
    let mut two = args.to_vec();
    two.extend(["--jobs", "2"]);
    let (out1, pgn1) = play(&one, &tmp("l1-j1.pgn"));
    let (_, pgn2) = play(&two, &tmp("l1-j2.pgn"));
    let (_, pgn3) = play(&two, &tmp("l1-j2b.pgn"));
    let undated = |p: &str| {
        p.lines()
            .filter(|l| !l.starts_with("[Date "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        undated(&pgn1),
        undated(&pgn2),
        "--jobs 1 and --jobs 2 differ"
    );
    assert_eq!(
        undated(&pgn2),
        undated(&pgn3),
        "the same command twice differs"
    );
    assert_eq!(tags(&pgn1, "Round"), ["1", "2", "3", "4"]);
    assert_eq!(tags(&pgn1, "White"), ["article", "1978", "article", "1978"]);
    // Dated with the day the match began (the two runs could straddle midnight: each file
    // carries one date, a real one).
    let dates = tags(&pgn1, "Date");
    assert!(
        dates
            .iter()
            .all(|d| *d == dates[0] && d.len() == 10 && d.starts_with("20") && !d.contains('?')),
        "{dates:?}"
    );
    assert_eq!(tags(&pgn1, "Z80Level"), ["1"; 4]);
    // Each opening is played with both colours.
    let o = tags(&pgn1, "Opening");
    assert!(o[0] == o[1] && o[2] == o[3] && o[0] != o[2], "{o:?}");
    let g = moves(&pgn1);
    assert_eq!(g.len(), 4);
    assert_eq!(g[0][..8], g[1][..8], "the same opening");
    assert!(g.iter().all(|m| m.len() > 8), "the engines played");
    check_closing(&out1, &pgn1, "article", "1978");

    // Emulated time, stopped by MOVE-NOW: still the same games.
    let args = [
        "1978",
        "article",
        "--games",
        "2",
        "--movetime-emulated",
        "0.4",
    ];
    let mut one = args.to_vec();
    one.extend(["--jobs", "1"]);
    let mut two = args.to_vec();
    two.extend(["--jobs", "2"]);
    let (out1, pgn1) = play(&one, &tmp("mt-j1.pgn"));
    let (_, pgn2) = play(&two, &tmp("mt-j2.pgn"));
    assert_eq!(pgn1, pgn2, "--jobs 1 and --jobs 2 differ at a move time");
    assert_eq!(tags(&pgn1, "TimeControl"), ["0.4/move"; 2]);
    check_closing(&out1, &pgn1, "1978", "article");
}

#[test]
fn a_uci_engine_plays_as_the_build_it_runs() {
    // Our own UCI front end at `go depth 1` searches exactly as the article build does in
    // the match, so the games are move for move the same as article against article.
    let uci = format!("uci:{BIN} uci");
    let (out, via_uci) = play(
        &[
            "article", &uci, "--games", "2", "--level", "1", "--jobs", "2",
        ],
        &tmp("uci.pgn"),
    );
    let (_, direct) = play(
        &[
            "article", "article", "--games", "2", "--level", "1", "--jobs", "2",
        ],
        &tmp("direct.pgn"),
    );
    assert_eq!(moves(&via_uci), moves(&direct));
    assert_eq!(tags(&via_uci, "Result"), tags(&direct, "Result"));
    assert_eq!(tags(&via_uci, "BlackEngine"), [BIN]);
    check_closing(&out, &via_uci, "article", &uci);
}

#[test]
fn openings_from_a_file() {
    let epd = tmp("two.epd");
    std::fs::write(
        &epd,
        "# two positions\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"Two knights\";\n\
         4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\n",
    )
    .unwrap();
    let (_, pgn) = play(
        &[
            "article",
            "1978",
            "--games",
            "4",
            "--level",
            "1",
            "--jobs",
            "2",
            "--openings",
            epd.to_str().unwrap(),
        ],
        &tmp("epd.pgn"),
    );
    assert_eq!(tags(&pgn, "SetUp"), ["1"; 4]);
    assert_eq!(tags(&pgn, "FEN")[2], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40");
    assert_eq!(tags(&pgn, "Opening")[0], "Two knights");
    // The first move of a game from move 40 is numbered 40.
    assert!(pgn.contains("\n\n40. "), "{pgn}");
}

#[test]
fn a_parameter_file_is_loaded_and_named() {
    let file = tmp("knight.params");
    std::fs::write(&file, "[default]\nP_KNIGHT = 900\n").unwrap();
    let hash = z80chess::firmware::params::ParamFile::load(&file)
        .unwrap()
        .hash();
    let spec = format!("full:{}", file.display());
    let (out, pgn) = play(
        &[&spec, "full", "--games", "2", "--level", "1", "--jobs", "2"],
        &tmp("params.pgn"),
    );
    assert_eq!(tags(&pgn, "WhiteZ80Params"), std::slice::from_ref(&hash));
    assert_eq!(tags(&pgn, "BlackZ80Params"), [hash]);
    assert_eq!(tags(&pgn, "WhiteZ80Build"), ["full"; 2]);
    check_closing(&out, &pgn, &spec, "full");
}

/// A UCI engine as a shell script: it answers the handshake, and every `go` with `go_answer`
/// (or never); the `uci:` spec that runs it.
fn script_engine(name: &str, go_answer: Option<&str>) -> String {
    let script = tmp(&format!("{name}.sh"));
    let go = go_answer
        .map(|a| format!("         go*) echo '{a}';;\n"))
        .unwrap_or_default();
    std::fs::write(
        &script,
        format!(
            "while read line; do\n\
             case \"$line\" in\n\
             uci) echo 'id name {name}'; echo uciok;;\n\
             isready) echo readyok;;\n{go}\
             quit) exit 0;;\n\
             esac\n\
             done\n"
        ),
    )
    .unwrap();
    format!("uci:/bin/sh {}", script.display())
}

#[test]
fn an_illegal_move_loses_and_is_reported() {
    // A UCI engine that answers every `go` with e2e5.
    let liar = script_engine("liar", Some("bestmove e2e5"));
    let (out, pgn) = play(
        &[
            "article", &liar, "--games", "2", "--level", "1", "--jobs", "2",
        ],
        &tmp("liar.pgn"),
    );
    assert_eq!(tags(&pgn, "Result"), ["1-0", "0-1"]);
    assert_eq!(tags(&pgn, "Termination"), ["rules infraction"; 2]);
    assert!(out.contains("2 games lost by an engine's fault"), "{out}");
    assert!(out.contains("played e2e5, an illegal move"), "{out}");
    assert!(
        out.contains(&format!("article vs {liar}: +2 =0 -0, score 100.0%")),
        "{out}"
    );
    check_closing(&out, &pgn, "article", &liar);
}

/// A UCI engine that answers the handshake but never a `go` loses each game after
/// `--engine-timeout` seconds (it used to be waited for 10 minutes a move under --level),
/// tagged "abandoned" and named in the report, and the match goes on to its next game.
#[test]
fn a_mute_engine_loses_after_the_timeout() {
    let mute = script_engine("mute", None);
    let (out, pgn) = play(
        &[
            "article",
            &mute,
            "--games",
            "2",
            "--level",
            "1",
            "--jobs",
            "2",
            "--engine-timeout",
            "1",
        ],
        &tmp("mute.pgn"),
    );
    assert_eq!(tags(&pgn, "Result"), ["1-0", "0-1"]);
    assert_eq!(tags(&pgn, "Termination"), ["abandoned"; 2]);
    assert!(out.contains("2 games lost by an engine's fault"), "{out}");
    assert_eq!(
        out.matches(&format!("engine {mute} did not answer in 1 s"))
            .count(),
        4,
        "{out}"
    );
    assert!(pgn.contains("did not answer in 1 s}"), "{pgn}");
    check_closing(&out, &pgn, "article", &mute);
    // Under a move time: its time and the timeout past it.
    let (out, pgn) = play(
        &[
            &mute,
            "article",
            "--games",
            "1",
            "--movetime-emulated",
            "0.5",
            "--engine-timeout",
            "0.5",
        ],
        &tmp("mute_timed.pgn"),
    );
    assert_eq!(tags(&pgn, "Termination"), ["abandoned"]);
    assert!(out.contains("did not answer in 1 s"), "{out}");
    refused(
        &[
            "article",
            "1978",
            "--games",
            "1",
            "--level",
            "1",
            "--engine-timeout",
            "0",
        ],
        &["--engine-timeout 0", "more than 0"],
    );
    refused(
        &[
            "article",
            "1978",
            "--games",
            "1",
            "--level",
            "1",
            "--engine-timeout",
            "soon",
        ],
        &["--engine-timeout soon"],
    );
}

/// Refused with a message naming what is wrong, a failure status, and no panic.
fn refused(args: &[&str], says: &[&str]) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for s in says {
        assert!(err.contains(s), "{args:?}: '{err}' does not say '{s}'");
    }
}

#[test]
fn period_builds_keep_their_time_past_the_control() {
    // 40 moves in 60 s: 1.5 s a move. The host's share keeps a move in hand, so the slow
    // "move now" of the 1978 build cannot overstep the clock at the 40th move (it did when
    // the share was the whole rest on that move).
    let pgn = tmp("tc.pgn");
    let (out, text) = play(
        &[
            "1978",
            "article",
            "--games",
            "6",
            "--tc-emulated",
            "40/60",
            "--jobs",
            "2",
        ],
        &pgn,
    );
    assert!(!out.contains("on time"), "{out}");
    let long = moves(&text).iter().filter(|g| g.len() > 90).count();
    assert!(long > 0, "no game reached the control:\n{out}");
}

#[test]
fn bad_command_lines() {
    // Each line split at single spaces (two spaces make an empty engine name).
    let cases: [(&str, &[&str]); 14] = [
        (
            "artcle 1978 --games 2 --level 1",
            &["bad engine 'artcle'", "article"],
        ),
        ("article  --games 2 --level 1", &["bad engine"]),
        ("article 1978: --games 2 --level 1", &["no parameter file"]),
        (
            "article uci: --games 2 --level 1",
            &["needs the engine's path"],
        ),
        (
            "article uci:/nonexistent/engine --games 2 --level 1",
            &["'/nonexistent/engine' not found"],
        ),
        (
            "article uci:/bin/true --games 2 --level 1",
            &["/bin/true", "exited"],
        ),
        (
            "article 1978 --games 2 --level 9",
            &["bad time control", "1 to 8"],
        ),
        (
            "article 1978 --games 2 --tc-emulated 40",
            &["MOVES/SECONDS"],
        ),
        ("article 1978 --games 2 --tc-emulated 0/60", &["at least 1"]),
        (
            "article 1978 --games 2 --movetime-emulated=-1",
            &["more than 0"],
        ),
        ("article 1978 --games 2", &["--level"]),
        (
            "article 1978 --games 2 --level 1 --movetime-emulated 1",
            &["cannot be used with"],
        ),
        ("article 1978 --games 0 --level 1", &["at least one game"]),
        ("article 1978 --games 2 --level 1 --clock-hz 0", &["clock"]),
    ];
    for (line, wanted) in cases {
        refused(&line.split(' ').collect::<Vec<_>>(), wanted);
    }
}

#[test]
fn bad_files_named() {
    let bad_params = tmp("bad.params");
    std::fs::write(&bad_params, "[default]\nP_KNIGHT = 900\nP_NOPE = 1\n").unwrap();
    let spec = format!("full:{}", bad_params.display());
    refused(
        &[&spec, "article", "--games", "2", "--level", "1"],
        &["bad.params:3:", "P_NOPE"],
    );
    let good = tmp("good.params");
    std::fs::write(&good, "[default]\nP_KNIGHT = 900\n").unwrap();
    let spec = format!("article:{}", good.display());
    refused(
        &[&spec, "full", "--games", "2", "--level", "1"],
        &["only in the full build"],
    );
    let spec = format!("full:{}", tmp("no.params").display());
    refused(
        &[&spec, "full", "--games", "2", "--level", "1"],
        &["no.params", "cannot read"],
    );
    let missing = tmp("missing.epd");
    refused(
        &[
            "article",
            "1978",
            "--games",
            "2",
            "--level",
            "1",
            "--openings",
            missing.to_str().unwrap(),
        ],
        &["openings file", "missing.epd"],
    );
    let bad = tmp("bad.epd");
    std::fs::write(
        &bad,
        "# ok\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nnot a fen w - -\n",
    )
    .unwrap();
    refused(
        &[
            "article",
            "1978",
            "--games",
            "2",
            "--level",
            "1",
            "--openings",
            bad.to_str().unwrap(),
        ],
        &["bad.epd:3:"],
    );
    let bad_pgn = tmp("bad.pgn");
    std::fs::write(&bad_pgn, "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 *\n").unwrap();
    refused(
        &[
            "article",
            "1978",
            "--games",
            "2",
            "--level",
            "1",
            "--openings",
            bad_pgn.to_str().unwrap(),
        ],
        &["bad.pgn:4:", "Ke3"],
    );
}

#[test]
fn the_closing_line() {
    // 75%: E = 400·log10(3) = 190.85; σ of the mean score = sqrt(0.0625/20) = 0.0559, the
    // interval 0.6404..0.8596 is 100.28..314.72 Elo, half its width 107.22.
    let t = Tally {
        wins: 10,
        draws: 10,
        losses: 0,
    };
    assert_eq!(
        t.line("article", "1978"),
        "article vs 1978: +10 =10 -0, score 75.0% (Elo +190.8 ± 107.2)"
    );
    let t = Tally {
        wins: 12,
        draws: 5,
        losses: 3,
    };
    assert_eq!(
        t.line("a", "b"),
        "a vs b: +12 =5 -3, score 72.5% (Elo +168.4 ± 157.1)"
    );
    let t = Tally {
        wins: 5,
        draws: 10,
        losses: 5,
    };
    assert_eq!(
        t.line("a", "b"),
        "a vs b: +5 =10 -5, score 50.0% (Elo +0.0 ± 111.3)"
    );
    let t = Tally {
        wins: 3,
        draws: 10,
        losses: 12,
    };
    assert_eq!(
        t.line("a", "b"),
        "a vs b: +3 =10 -12, score 32.0% (Elo -130.9 ± 112.6)"
    );
    let t = Tally {
        wins: 4,
        draws: 0,
        losses: 0,
    };
    assert_eq!(
        t.line("a", "b"),
        "a vs b: +4 =0 -0, score 100.0% (Elo +inf ± inf)"
    );
}

#[test]
fn builtin_openings_are_legal_and_distinct() {
    let list = builtin();
    assert!(list.len() >= 100, "{} openings", list.len());
    let mut seen = HashSet::new();
    let mut names = HashSet::new();
    for o in &list {
        assert!(
            (4..=10).contains(&o.moves.len()),
            "{}: {} plies",
            o.name,
            o.moves.len()
        );
        let p = o.position();
        assert!(!p.is_game_over(), "{}", o.name);
        assert!(
            seen.insert(key(&p)),
            "{}: the same position as another line",
            o.name
        );
        assert!(names.insert(o.name.clone()), "{}: the name twice", o.name);
    }
}

#[test]
fn opening_files() {
    let epd = "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
               r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n";
    let l = read_epd(epd).unwrap();
    assert_eq!(l.len(), 2);
    assert_eq!(l[0].name, "e4");
    assert_eq!(l[1].start.fullmoves().get(), 3);
    assert_eq!(read_epd("x\n8/8/8/8 w - -\n").unwrap_err().0, 1);
    assert_eq!(read_epd("\n\n8/8/8/8/8/8/8/8 w - -\n").unwrap_err().0, 3);
    let pgn = "[Event \"a\"]\n[Opening \"Ruy\"]\n\n1. e4 e5 {main} 2. Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 *\n\n\
               [Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 1/2-1/2\n";
    let g = read_pgn(pgn).unwrap();
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].name, "Ruy");
    assert_eq!(g[0].moves.len(), 5);
    assert_eq!(g[1].moves.len(), 2);
    assert!(!g[1].from_initial());
    let bad = "[Event \"a\"]\n\n1. e4 e5\n2. Ke3 *\n";
    assert_eq!(read_pgn(bad).unwrap_err().0, 4);
}

/// The ponder line of the report: (hits, tries) for `name`.
fn ponder_counts(stdout: &str, name: &str) -> (u32, u32) {
    let prefix = format!("{name} pondered: ");
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no ponder line for {name}:\n{stdout}"));
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((w[1], w[3]), ("of", "replies"), "{line}");
    (w[0].parse().unwrap(), w[2].parse().unwrap())
}

#[test]
fn pondering_in_a_match() {
    // At a fixed depth a predicted reply's search, carried on, is the search the move would
    // have started: pondering changes no move, only what the clock is charged.
    let args = [
        "full", "full", "--games", "2", "--level", "2", "--jobs", "1",
    ];
    let (_, plain) = play(&args, &tmp("pl-plain.pgn"));
    let mut with = args.to_vec();
    with.extend(["--ponder", "both"]);
    let (out, pondered) = play(&with, &tmp("pl-ponder.pgn"));
    assert_eq!(
        moves(&plain),
        moves(&pondered),
        "pondering changed a move at level 2"
    );
    let (hits, tries) = ponder_counts(&out, "full");
    assert!(0 < hits && hits <= tries, "{out}");
    assert!(pondered.contains(", pondered "), "no hit in the PGN");
    assert!(!plain.contains("pondered"));
    assert_eq!(tags(&pondered, "WhiteZ80Ponder"), ["on"; 2]);
    assert_eq!(tags(&plain, "WhiteZ80Ponder"), Vec::<String>::new());

    // Under a clock: the same games whatever --jobs, nobody over time, A alone ponders and
    // some of its moves are answered with clock time saved.
    let b = concat!(
        "full:",
        env!("CARGO_MANIFEST_DIR"),
        "/tests/full/article.params"
    );
    let args = [
        "full",
        b,
        "--games",
        "2",
        "--tc-emulated",
        "40/300",
        "--ponder",
        "a",
    ];
    let mut one = args.to_vec();
    one.extend(["--jobs", "1"]);
    let mut two = args.to_vec();
    two.extend(["--jobs", "2"]);
    let (out1, pgn1) = play(&one, &tmp("tc-ponder-j1.pgn"));
    let (out2, pgn2) = play(&two, &tmp("tc-ponder-j2.pgn"));
    assert_eq!(pgn1, pgn2, "--jobs 1 and --jobs 2 differ with pondering");
    assert!(!out1.contains("on time"), "{out1}");
    let (hits, tries) = ponder_counts(&out1, "full");
    assert_eq!((hits, tries), ponder_counts(&out2, "full"));
    assert!(0 < hits && hits <= tries, "{out1}");
    assert!(!out1.contains(&format!("{} pondered", args[1])), "{out1}");
    // A's moves (White in game 1, Black in game 2) carry the hits; B's never.
    assert_eq!(tags(&pgn1, "WhiteZ80Ponder"), ["on"]);
    assert_eq!(tags(&pgn1, "BlackZ80Ponder"), ["on"]);
    let hits_in_pgn = pgn1.matches(", pondered ").count();
    assert_eq!(hits_in_pgn as u32, hits, "{pgn1}");
    check_closing(&out1, &pgn1, args[0], args[1]);
}

#[test]
fn only_the_full_build_ponders() {
    refused(
        &[
            "article", "full", "--games", "2", "--level", "1", "--ponder", "A",
        ],
        &["--ponder a", "engine A 'article'", "only the full build"],
    );
    refused(
        &[
            "full", "1978", "--games", "2", "--level", "1", "--ponder", "both",
        ],
        &["engine B '1978'"],
    );
    refused(
        &[
            "full", "full", "--games", "2", "--level", "1", "--ponder", "c",
        ],
        &["--ponder"],
    );
}

/// `--pgn` never writes over a file the user has: the match is refused before any game, with
/// the reason, and the file keeps what it held.
#[test]
fn an_existing_pgn_file_is_never_overwritten() {
    let p = tmp("keep.pgn");
    std::fs::write(&p, "KEEP\n").unwrap();
    let out = run(&[
        "article",
        "1978",
        "--games",
        "2",
        "--level",
        "1",
        "--pgn",
        p.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("never overwrites"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "KEEP\n");
}
