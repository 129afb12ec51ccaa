//! What the one-position commands read and print: moves in SAN or coordinates and
//! `--fen startpos` everywhere, names that say what each figure is, columns that line up.

use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn san_coordinates_and_startpos_are_read_by_every_command() {
    for args in [
        &["search", "--level", "1", "--moves", "e4 e5 Nf3"][..],
        &["search", "--level", "1", "--moves", "e2e4 e7e5 g1f3"],
        &["eval", "--moves", "e4"],
        &["eval", "--moves", "e4 Nc6 Bb5"],
        &["profile", "--level", "1", "--moves", "e4 e5"],
        &["search", "--level", "1", "--fen", "startpos"],
        &["eval", "--fen", "startpos"],
        &["profile", "--level", "1", "--fen", "startpos"],
        &["perft", "--depth", "2", "--fen", "startpos"],
        &["xchng", "--fen", "startpos", "--square", "e2"],
        &["debug", "--batch", "--fen", "startpos", "-x", "/dev/null"],
        &[
            "debug",
            "--batch",
            "--moves",
            "e4 e5 Nf3",
            "-x",
            "/dev/null",
        ],
    ] {
        run(args);
    }
    // The same moves either way: the same position.
    let san = run(&["eval", "--moves", "e4 e5 Nf3 Nc6"]);
    let coords = run(&["eval", "--moves", "e2e4 e7e5 g1f3 b8c6"]);
    let strip = |t: &str| {
        t.lines()
            .filter(|l| !l.contains("T-states"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&san), strip(&coords));
}

#[test]
fn search_names_its_two_per_evaluation_figures_apart() {
    let text = run(&[
        "search",
        "--build",
        "full",
        "--level",
        "2",
        "--fen",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ]);
    assert!(!text.contains("tstates/evaluation"), "{text}");
    assert!(text.contains("T-states per POINTS call "), "{text}");
    assert_eq!(
        text.matches("T-states per evaluation ").count(),
        1,
        "{text}"
    );
}

#[test]
fn eval_keeps_its_columns_on_long_names() {
    let text = run(&["eval", "--build", "full", "--fen", "startpos"]);
    let cols: Vec<usize> = text
        .lines()
        .filter(|l| l.starts_with("  ") && l.ends_with(')'))
        // (in characters: a name may hold a non-ASCII letter, as Lüscher's does)
        .map(|l| l[..l.rfind('(').unwrap()].chars().count())
        .collect();
    assert!(cols.len() > 60, "{text}");
    assert!(
        cols.iter().all(|c| *c == cols[0]),
        "columns {cols:?}: {text}"
    );
}
