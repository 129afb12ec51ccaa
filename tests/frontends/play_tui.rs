//! The full-screen view rendered on ratatui's test backend and compared with golden screens
//! (tests/play/screen_*.txt); the highlights of the last move and of a king in check; bad
//! input changing nothing. `BLESS=1 cargo test --test frontends play_tui::` rewrites the screens.

use ratatui::style::Color as Tc;
use shakmaty::{Color, Position, Square};
use std::path::Path;
use std::time::Instant;
use z80chess::firmware::Build;
use z80chess::play::tui::{render_text, square_background, App, TuiOptions};
use z80chess::session::clock::Pace;

const W: u16 = 80;
const H: u16 = 24;

fn app(colour: Color, ascii: bool, fen: Option<&str>) -> App {
    App::new(&TuiOptions {
        params: None,
        build: Build::Article,
        level: 1,
        colour,
        pace: Pace {
            clock_hz: 2_000_000,
            realtime: false,
        },
        ascii,
        fen: fen.map(str::to_string),
        ponder: false,
    })
    .unwrap()
}

/// Let the Z80 answer, then stop the clocks so the screen does not depend on the host.
fn z80_moves(a: &mut App) {
    a.maybe_think();
    a.finish_thinking();
}

fn frozen(a: &mut App) -> String {
    a.reset_clocks(Instant::now());
    render_text(a, W, H)
}

/// Mask what a change of the firmware's speed moves around: T-states, emulated times and the
/// counters of a search stopped at a fixed T-state budget.
fn mask(screen: &str) -> String {
    screen
        .lines()
        .map(|l| {
            if let Some(i) = l.find("T-states ").or_else(|| l.find("evaluations ")) {
                format!("{}...\n", &l[..i])
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

fn golden(name: &str, screen: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/play/{name}.txt"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, screen).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing (BLESS=1 writes it)", path.display()));
    assert_eq!(
        mask(screen),
        mask(&want),
        "the screen differs from {} (BLESS=1 rewrites it); it is now:\n{screen}",
        path.display()
    );
}

#[test]
fn a_game_on_the_screen() {
    let mut a = app(Color::White, false, None);
    golden("screen_start", &frozen(&mut a));
    a.submit("e4");
    z80_moves(&mut a); // the book
    a.submit("Nf3");
    z80_moves(&mut a);
    let s = frozen(&mut a);
    assert!(s.contains("1. e4       e5"), "{s}");
    assert!(s.contains("♘"), "{s}");
    golden("screen_game", &s);
    // The last move's squares are highlighted, the others not.
    let last = a.game.plies.last().unwrap().fw.uci();
    let to: Square = last[2..4].parse().unwrap();
    let bg = square_background(&a, W, H, to).unwrap();
    assert!(
        matches!(bg, Tc::Rgb(206, 210, 107) | Tc::Rgb(170, 162, 58)),
        "{bg:?}"
    );
    assert!(matches!(
        square_background(&a, W, H, Square::A1).unwrap(),
        Tc::Rgb(181, 136, 99)
    ));
}

#[test]
fn thinking_check_and_ascii() {
    // White (the Z80) to move in a middlegame; the screen while it thinks.
    let mut a = app(
        Color::Black,
        true,
        Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
    );
    a.submit("level 3");
    a.maybe_think();
    for _ in 0..2 {
        a.step(2_000_000);
    }
    assert!(a.search.is_some(), "still thinking after 4 M T-states");
    a.search.as_mut().unwrap().search.wall_start = a.now;
    let s = frozen(&mut a);
    assert!(s.contains("Thinking at level 3"), "{s}");
    assert!(s.contains(" r "), "ascii pieces: {s}");
    golden("screen_thinking", &s);
    // Typing a move while the Z80 thinks changes nothing.
    a.submit("a6");
    assert!(
        a.message.1 && a.message.0.contains("Z80's move"),
        "{:?}",
        a.message
    );
    a.move_now();
    a.finish_thinking();
    assert_eq!(a.game.plies.len(), 1);

    // A king in check is highlighted.
    let mut c = app(Color::Black, false, Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
    c.submit("switch");
    c.submit("Ra8");
    assert!(c.game.pos().is_check(), "{}", c.message.0);
    assert_eq!(
        square_background(&c, W, H, Square::E8),
        Some(Tc::Rgb(220, 60, 60))
    );
    assert!(frozen(&mut c).contains("Black to move: check!"));
}

#[test]
fn bad_input_changes_nothing() {
    let mut a = app(Color::White, false, None);
    for bad in [
        "e5",
        "xyz",
        "Ke2",
        "level 9",
        "build z80",
        "fen 8/8 w",
        "load /nonexistent.pgn",
    ] {
        a.submit(bad);
        assert!(a.message.1, "{bad}: {:?}", a.message);
        assert!(a.game.plies.is_empty());
    }
    a.submit("help");
    assert!(render_text(&a, W, H).contains("Help"));
    a.submit("flip");
    assert!(a.flipped);
    a.submit("undo");
    assert!(a.message.1);
    // A tiny terminal gets a message, not a broken layout.
    assert!(render_text(&a, 40, 10).contains("needs at least"));
}

/// The full build at level 2, pondering or not, after 1...e5 2.Nf3 Nc6 with White to move.
fn full_app(ponder: bool) -> App {
    App::new(&TuiOptions {
        params: None,
        build: Build::Full,
        level: 2,
        colour: Color::White,
        pace: Pace {
            clock_hz: 2_000_000,
            realtime: false,
        },
        ascii: false,
        fen: Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into()),
        ponder,
    })
    .unwrap()
}

/// The player's move, the Z80's answer, then the player's `second` (None: the reply the Z80
/// expects); returns the Z80's second answer (SAN), its T-states and its score.
fn second_answer(ponder: bool, second: Option<&str>) -> (String, u64, i32, App) {
    let mut a = full_app(ponder);
    a.submit("Bc4");
    z80_moves(&mut a);
    let expected = a.pondering.as_ref().map(|p| p.san.clone());
    assert_eq!(expected.is_some(), ponder, "pondering after the Z80's move");
    while a.pondering_running() {
        a.step_ponder(u64::MAX / 4);
    }
    let mv = match second {
        Some(m) => m.to_string(),
        None => expected.expect("a ponder move"),
    };
    a.submit(&mv);
    z80_moves(&mut a);
    let ply = a.game.plies.last().unwrap();
    let t = ply.thought.as_ref().expect("the Z80 moved");
    (ply.san.clone(), t.tstates, t.score.raw(), a)
}

#[test]
fn pondering_in_the_full_screen() {
    // The reply the Z80 expects: while the player thinks, the screen says so.
    let mut a = full_app(true);
    a.submit("Bc4");
    z80_moves(&mut a);
    let reply = a.pondering.as_ref().expect("pondering").san.clone();
    a.step_ponder(50_000);
    let screen = render_text(&a, W, H);
    assert!(
        screen.contains(&format!("Pondering on your {reply}")),
        "{screen}"
    );

    // A ponder hit: the search already made is the answer, the same move and T-states as a
    // search started after the move, and none of it is charged to the Z80's clock.
    let (hit, hit_t, hit_s, a) = second_answer(true, None);
    let (plain, plain_t, plain_s, b) = second_answer(false, Some(&reply));
    assert_eq!(
        (hit.as_str(), hit_t, hit_s),
        (plain.as_str(), plain_t, plain_s)
    );
    assert!(
        a.z80_time < b.z80_time,
        "pondered time charged: {:?} vs {:?}",
        a.z80_time,
        b.z80_time
    );
    assert!(a.message.0.contains("as the Z80 expected") || a.message.0.contains(&hit));

    // Another move: the pondered reply is taken back out of the firmware, which then answers
    // with the move and score it gives without pondering (the T-states may differ by a few:
    // the ponder search left its move-ordering state behind).
    let other = if reply == "d3" { "c3" } else { "d3" };
    let (miss, miss_t, miss_s, _) = second_answer(true, Some(other));
    let (fresh, fresh_t, fresh_s, _) = second_answer(false, Some(other));
    assert_eq!((&miss, miss_s), (&fresh, fresh_s));
    assert!(
        miss_t.abs_diff(fresh_t) * 1000 < fresh_t,
        "{miss_t} vs {fresh_t} T-states"
    );

    // Taking back during pondering leaves the firmware in step with the game.
    let mut c = full_app(true);
    c.submit("Bc4");
    z80_moves(&mut c);
    assert!(c.pondering.is_some());
    c.submit("undo");
    assert!(c.pondering.is_none());
    assert_eq!(c.game.plies.len(), 0);
    let men = |s: &z80chess::firmware::board::Setup| s.squares.map(|b| b & 0x87);
    let fw = c.game.engine.board().unwrap();
    let host = z80chess::firmware::board::encode(c.game.pos());
    assert_eq!(
        men(&fw),
        men(&host),
        "the firmware's men after the take-back"
    );
    assert_eq!(fw.side, host.side, "the side to move after the take-back");
}

#[test]
fn no_pondering_on_a_reply_that_ends_the_game() {
    // White (the Z80) can only push the a-pawn; every reply it expects mates it (...Re1# or
    // ...Rh8#). Pondering on that reply would ask the firmware to search a position with no
    // legal move (ENOLEGL: in `match --ponder` it lost games as faults).
    let mut a = App::new(&TuiOptions {
        params: None,
        build: Build::Full,
        level: 2,
        colour: Color::Black,
        pace: Pace {
            clock_hz: 2_000_000,
            realtime: false,
        },
        ascii: false,
        fen: Some("4r3/8/8/8/8/6p1/P4kP1/7K w - - 0 40".into()),
        ponder: true,
    })
    .unwrap();
    z80_moves(&mut a);
    assert_eq!(a.game.plies.len(), 1, "the Z80 moved");
    assert!(a.pondering.is_none(), "pondered on a mating reply");
    a.submit("Re1#");
    assert!(a.game.pos().is_checkmate(), "{}", a.game.fen());
}

/// In the full screen: crossterm drops bytes that are not UTF-8 before they become keys, and a
/// line holding U+FFFD is refused by name; `save` never overwrites a file that is not PGN and
/// appends to one that is; a `load` that finds no game changes nothing.
#[test]
fn the_full_screen_loses_nothing() {
    let dir = std::env::temp_dir().join(format!("z80chess-tui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let notes = dir.join("notes.pgn");
    let empty = dir.join("empty.pgn");
    let games = dir.join("games.pgn");
    std::fs::write(&notes, "KEEP\n").unwrap();
    std::fs::write(&empty, "").unwrap();
    let mut a = app(Color::White, false, None);
    a.submit("e2\u{FFFD}e4");
    assert!(
        a.message.1 && a.message.0.contains("not UTF-8"),
        "{:?}",
        a.message
    );
    assert!(a.game.plies.is_empty());
    a.submit("e4");
    z80_moves(&mut a);
    assert_eq!(a.game.plies.len(), 2);
    a.submit(&format!("save {}", notes.display()));
    assert!(
        a.message.1 && a.message.0.contains("is not a PGN file"),
        "{:?}",
        a.message
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "KEEP\n");
    a.submit(&format!("save {}", games.display()));
    assert!(!a.message.1, "{:?}", a.message);
    a.submit(&format!("save {}", games.display()));
    assert!(
        a.message.0.contains("after the 1 game already in it"),
        "{:?}",
        a.message
    );
    for bad in [&empty, &notes] {
        a.submit(&format!("load {}", bad.display()));
        assert!(
            a.message.1 && a.message.0.contains("nothing changed"),
            "{:?}",
            a.message
        );
        assert_eq!(a.game.plies.len(), 2);
    }
    a.submit("new");
    a.submit(&format!("load {}", games.display()));
    assert!(a.message.0.contains("game 2 of 2"), "{:?}", a.message);
    assert_eq!(a.game.plies.len(), 2);
    let _ = std::fs::remove_dir_all(dir);
}

/// The full screen reads its commands with the text mode's parser (`play::command`): a bad
/// argument is refused naming what was typed, and nothing changes.
#[test]
fn the_full_screen_names_a_bad_argument() {
    let mut a = app(Color::White, false, None);
    let level = a.game.level;
    for (line, want) in [
        ("level 9", "'9' is not one"),
        ("LEVEL", "a look ahead from 1 to 6"),
        ("build z80", "'z80' is not one"),
        ("colour red", "'red' is not one"),
        ("ponder maybe", "on or off"),
        ("save", "give a file name"),
    ] {
        a.submit(line);
        assert!(
            a.message.1 && a.message.0.contains(want),
            "{line}: {:?}",
            a.message
        );
    }
    assert_eq!(a.game.level, level);
    assert!(a.game.plies.is_empty());
    a.submit("level 3");
    assert_eq!(a.game.level, 3);
    a.submit("colour black");
    assert!(a.message.0.contains("You play Black"), "{:?}", a.message);
}

/// A move that cannot be played is refused with its reason on the screen (in check, `a3`);
/// the clocks say the Z80's pace as it is (turbo here, not "2 MHz" as if real time).
#[test]
fn an_illegal_move_gives_its_reason_and_the_pace_is_named() {
    let mut a = app(
        Color::White,
        false,
        Some("4k3/8/8/8/8/8/P3q3/4K3 w - - 0 1"),
    );
    a.submit("a3");
    assert!(a.message.1, "{:?}", a.message);
    assert!(a.game.plies.is_empty());
    let screen = frozen(&mut a);
    assert!(screen.contains("'a3' is not legal here"), "{screen}");
    assert!(screen.contains("Z80: turbo (2 MHz clock)"), "{screen}");
}

/// `flip` says what it did (the status line no longer tells of the move taken back before);
/// `switch` puts the player's new side at the bottom; a terminal too small is told so in full.
#[test]
fn flip_switch_and_a_small_terminal() {
    let mut a = app(Color::White, false, None);
    a.submit("e4");
    z80_moves(&mut a);
    a.submit("undo");
    a.submit("flip");
    assert!(a.flipped);
    assert!(
        a.message.0.contains("Black at the bottom"),
        "{:?}",
        a.message
    );
    a.submit("flip");
    assert!(!a.flipped);
    a.submit("switch");
    assert!(a.flipped, "the player is Black now: Black at the bottom");
    a.submit("switch");
    assert!(!a.flipped);
    let small = render_text(&a, 40, 10);
    for word in [
        "needs at least",
        "64 x 22",
        "(this is 40 x 10)",
        "Esc: quit",
    ] {
        assert!(small.contains(word), "{word}: {small}");
    }
}

/// `load` keeps the clocks: what each side has used at this board and the Z80's emulated time
/// go on from where they were (a PGN file carries no clock times).
#[test]
fn load_keeps_the_clocks() {
    use std::time::Duration;
    let dir = std::env::temp_dir().join(format!("z80chess-tui-clocks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.pgn");
    let mut a = app(Color::White, false, None);
    a.submit("e4");
    z80_moves(&mut a);
    a.submit(&format!("save {}", games.display()));
    assert!(!a.message.1, "{:?}", a.message);
    a.submit("new");
    a.used = [Duration::from_secs(65), Duration::from_secs(42)];
    a.z80_time = Duration::from_secs(9);
    a.submit(&format!("load {}", games.display()));
    assert!(a.message.0.contains("Loaded 2 plies"), "{:?}", a.message);
    assert!(a.used[0] >= Duration::from_secs(65), "{:?}", a.used);
    assert_eq!(a.used[1], Duration::from_secs(42));
    assert_eq!(a.z80_time, Duration::from_secs(9));
    let _ = std::fs::remove_dir_all(dir);
}

/// While the Z80 thinks, the screen names the root move it searches now (its place among the
/// root's moves) and, once a move of the pass is done, the time the pass still needs.
#[test]
fn a_long_think_shows_the_root_move_and_the_time_left() {
    let mut a = app(
        Color::Black,
        false,
        Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
    );
    a.submit("level 4");
    a.maybe_think();
    let mut seen_first = false;
    for _ in 0..2000 {
        a.step(200_000);
        assert!(
            a.search.is_some(),
            "the search ended before its second root move"
        );
        let screen = render_text(&a, W, H);
        if screen.contains("(timing it)") {
            seen_first = true;
        }
        let Some(line) = screen.lines().find(|l| l.contains(" ends in ~")) else {
            continue;
        };
        let root = a.game.engine.progress().root.expect("a root move");
        assert!(root.number >= 2, "{line}");
        assert!(
            line.contains(&format!("move {}/{} ", root.number, root.count))
                && line.contains(&format!(
                    "depth {} ends in ~",
                    a.game.engine.progress().depth
                )),
            "{line}\n{screen}"
        );
        assert!(seen_first, "the first move of a pass has no estimate yet");
        return;
    }
    panic!("no estimate of the time left in 400 M T-states");
}
