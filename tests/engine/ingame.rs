//! Whole-game fidelity of the `1978` build: `tests/data/chess/sargon1978_ingame.tsv` holds six
//! decisions of the original 1978 program (PLYMAX 2) in games against this build.
//!
//! - `in_game`: each row's game replayed in one machine. The opponent's moves go in through
//!   'M'; at every ply of the original's side after the opening line the firmware searches and
//!   must give the move the original played (the one in the move list), then that move is
//!   played; at the decision it must give `original_in_game`.
//! - `rebuilt`: the decision's position, board bytes (moved and castled bits), side, en passant
//!   and move number as the game left them, set up in a fresh machine with 'S': the same
//!   position without the memory of the game. Five rows give the same move there (before this
//!   build ran ATKSAV as the listing does, their difference from the original's moves was the
//!   listing's ATKSAV, a matter of the position); `ingame.05.58` gives another, because its
//!   in-game move comes from POSQ left stale by an earlier search (a promoted queen, moved and
//!   taken back): see the README's notes on the 1978 build.
//!
//! The file's `original_rebuilt` column is not what the original program gives rebuilt. The
//! book's listing (its ATKSAV as printed), run on an emulated Z80 through its own CPTRMV and
//! VALMOV, makes every move of each row's game and then the row's `original_in_game`; rebuilt
//! from INITBD with every move through VALMOV, it gives the moves of `REBUILT` below
//! (`ingame.06.39` rebuilds only with the last move's entry kept out of the list VALMOV
//! generates over it: else ENPSNT reads a new entry there and VALMOV refuses 18.exf6 e.p.). So
//! `rebuilt` checks `REBUILT`, and prints the file's column beside it.

use shakmaty::{uci::UciMove, Chess, Position};
use z80chess::firmware::protocol::CMD_SETUP;
use z80chess::firmware::{Build, Engine, FwMove};

const TSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/chess/sargon1978_ingame.tsv"
);

/// The original's move with the position rebuilt (no memory of the game), per row.
const REBUILT: &[(&str, &str)] = &[
    ("ingame.05.58", "c1g1"),
    ("ingame.06.39", "f6g5"),
    ("ingame.07.32", "d3e4"),
    ("ingame.08.69", "c3d4"),
    ("ingame.09.82", "d3d4"),
    ("ingame.12.17", "g8f6"),
];

struct Row {
    id: String,
    plymax: u8,
    white: bool,
    moves: Vec<String>,
    in_game: String,
    file_rebuilt: String,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(TSV).unwrap_or_else(|e| panic!("{TSV}: {e}"));
    let rows: Vec<Row> = text
        .lines()
        .filter(|l| l.starts_with("ingame."))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "{l}");
            Row {
                id: f[0].into(),
                plymax: f[1].parse().unwrap(),
                white: f[2] == "white",
                moves: f[3].split(' ').map(String::from).collect(),
                in_game: f[4].into(),
                file_rebuilt: f[5].into(),
            }
        })
        .collect();
    assert_eq!(rows.len(), 6, "{TSV}: six rows");
    rows
}

/// Plies of the built-in opening line each game began with (`src/matchplay/openings.rs`: game
/// 2k and 2k+1 play line k): played, not searched.
fn opening_plies(id: &str) -> usize {
    if id == "ingame.05.58" {
        8 // Ruy Lopez, Exchange
    } else {
        10 // Closed, Open, Schliemann
    }
}

/// Replay `row` in one machine, the firmware searching the original's side after the
/// opening. Returns the machine at the decision, the position, and the moves it searched that
/// differ from the game's.
fn replay(row: &Row) -> (Engine, Chess, Vec<String>) {
    let mut e = Engine::new(Build::B1978).unwrap();
    e.new_game().unwrap();
    let mut pos = Chess::default();
    let mut wrong = Vec::new();
    for (i, m) in row.moves.iter().enumerate() {
        let mine = (i % 2 == 0) == row.white;
        if mine && i >= opening_plies(&row.id) {
            let got = e.search(row.plymax, false).unwrap().best.uci();
            if &got != m {
                wrong.push(format!("ply {i}: {got} instead of {m}"));
            }
        }
        let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        e.play(FwMove::from_move(&mv)).unwrap();
        pos.play_unchecked(mv);
    }
    (e, pos, wrong)
}

#[test]
fn in_game() {
    let mut diffs = Vec::new();
    for row in rows() {
        let (mut e, _, wrong) = replay(&row);
        let got = e.search(row.plymax, false).unwrap().best.uci();
        println!("{}: {got} (original in the game {})", row.id, row.in_game);
        diffs.extend(wrong.into_iter().map(|w| format!("{}: {w}", row.id)));
        if got != row.in_game {
            diffs.push(format!("{}: {got} instead of {}", row.id, row.in_game));
        }
    }
    assert!(diffs.is_empty(), "differences:\n{}", diffs.join("\n"));
}

#[test]
fn rebuilt() {
    let mut diffs = Vec::new();
    for row in rows() {
        let (mut e, pos, _) = replay(&row);
        let b = e.board().unwrap();
        let mut fresh = Engine::new(Build::B1978).unwrap();
        let mut args = b.squares.to_vec();
        args.extend([b.side, b.ep]);
        fresh.command(CMD_SETUP, &args).unwrap();
        fresh.set_move_number(pos.fullmoves().get() as u8).unwrap();
        assert_eq!(fresh.board().unwrap(), b, "{}: the same position", row.id);
        let got = fresh.search(row.plymax, false).unwrap().best.uci();
        let want = REBUILT.iter().find(|(id, _)| *id == row.id).unwrap().1;
        println!(
            "{}: rebuilt {got} (the listing rebuilt {want}; the file's column {}; in the game {})",
            row.id, row.file_rebuilt, row.in_game
        );
        if got != want {
            diffs.push(format!("{}: {got} instead of {want}", row.id));
        }
    }
    assert!(diffs.is_empty(), "differences:\n{}", diffs.join("\n"));
}
