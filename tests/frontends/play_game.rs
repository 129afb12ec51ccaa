//! The game keeper behind every front-end: the firmware and shakmaty in step through moves,
//! take-backs, a full firmware history, a change of build and PGN; the end of a game by the
//! rules.

use shakmaty::Chess;
use std::collections::BTreeSet;
use z80chess::firmware::{parse_fen, reference_moves, Build, FwMove};
use z80chess::session::game::{End, Game, GameError};
use z80chess::session::pgn;

fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        let mv = g.parse_move(m).unwrap();
        g.play(mv, None, false).unwrap();
    }
}

/// The firmware's legal moves are shakmaty's: the two are in step.
fn in_step(g: &mut Game) {
    let fw: BTreeSet<FwMove> = g.engine.legal_moves().unwrap().into_iter().collect();
    let mut reference: Vec<FwMove> = reference_moves(g.pos());
    if g.build() == Build::B1978 {
        reference.retain(|m| m.promo == 0 || m.promo == 5);
    }
    let reference: BTreeSet<FwMove> = reference.into_iter().collect();
    assert_eq!(fw, reference, "out of step at {}", g.fen());
}

#[test]
fn the_rules_end_the_game() {
    let mut g = Game::new(Build::Article, 1).unwrap();
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    play(&mut g, &shuffle);
    assert_eq!(g.end(), None);
    play(&mut g, &shuffle[..3]);
    assert_eq!(g.end(), None);
    play(&mut g, &shuffle[3..]);
    assert_eq!(g.end(), Some(End::Threefold));
    g.undo().unwrap();
    assert_eq!(g.end(), None);

    g.set_start(parse_fen("8/8/8/8/8/5k2/8/R3K3 w - - 99 80").unwrap())
        .unwrap();
    play(&mut g, &["Ra2"]);
    assert_eq!(g.end(), Some(End::FiftyMoves));

    g.set_start(parse_fen("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1").unwrap())
        .unwrap();
    play(&mut g, &["Kxd2"]);
    assert_eq!(g.end(), Some(End::InsufficientMaterial));

    g.set_start(parse_fen("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap())
        .unwrap();
    play(&mut g, &["Qb8"]);
    let end = g.end().unwrap();
    assert_eq!(end.result(), "1-0");
    assert_eq!(g.plies[0].san, "Qb8#");

    g.set_start(parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap())
        .unwrap();
    assert_eq!(g.end(), Some(End::Stalemate));

    g.new_game().unwrap();
    g.resign(shakmaty::Color::White);
    assert_eq!(g.end().unwrap().result(), "0-1");
}

#[test]
fn past_the_firmware_history_and_back() {
    let mut g = Game::new(Build::Article, 1).unwrap();
    play(&mut g, &["e4", "e5"]);
    // 240 more plies: beyond the firmware's 213-ply history.
    for _ in 0..60 {
        play(&mut g, &["Nf3", "Nf6", "Ng1", "Ng8"]);
    }
    assert_eq!(g.plies.len(), 242);
    in_step(&mut g);
    for _ in 0..41 {
        g.undo().unwrap();
    }
    play(&mut g, &["Nc6"]);
    in_step(&mut g);
    let r = g.engine.search(1, false).unwrap();
    assert!(r.best.to_move(g.pos()).is_some());
    while !g.plies.is_empty() {
        g.undo().unwrap();
    }
    in_step(&mut g);
    assert_eq!(g.pos(), &Chess::default());
}

#[test]
fn take_backs_keep_the_firmware_in_step() {
    let mut g = Game::new(Build::Article, 1).unwrap();
    play(
        &mut g,
        &[
            "e4", "d5", "exd5", "c5", "dxc6", "Nf6", "cxb7", "e6", "bxa8=N", "Bc5",
        ],
    );
    in_step(&mut g);
    play(&mut g, &["Nf3", "O-O", "Bc4"]);
    in_step(&mut g);
    for _ in 0..5 {
        g.undo().unwrap();
        in_step(&mut g);
    }
    g.set_build(Build::B1978).unwrap();
    assert_eq!(g.plies.len(), 8);
    in_step(&mut g);
}

#[test]
fn underpromotion_in_the_1978_build() {
    let mut g = Game::new(Build::B1978, 1).unwrap();
    g.set_start(parse_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap())
        .unwrap();
    let knight = g.parse_move("e8=N").unwrap();
    let e = g.play(knight, None, false).unwrap_err();
    assert!(
        matches!(&e, GameError::UnderPromotion { san } if san == "e8=N"),
        "{e:?}"
    );
    assert!(e.to_string().contains("only to a queen"), "{e}");
    assert!(g.plies.is_empty());
    // From a GUI the move must be taken: the position after it is set up instead.
    g.play(knight, None, true).unwrap();
    assert_eq!(g.plies.len(), 1);
    in_step(&mut g);
    g.undo().unwrap();
    in_step(&mut g);
}

#[test]
fn pgn_round_trip() {
    let mut g = Game::new(Build::B1978, 3).unwrap();
    play(&mut g, &["d4", "Nf6", "c4", "e6", "Nc3", "Bb4"]);
    let players = pgn::Players {
        engine: Some(shakmaty::Color::Black),
        human: "Tester".into(),
    };
    let text = pgn::write(&g, &players, "2025.01.02");
    assert!(text.contains("[Black \"z80chess 1978, level 3\"]"));
    assert!(text.contains("[Z80Build \"1978\"]") && text.contains("[Z80Level \"3\"]"));
    assert!(text.contains("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *"), "{text}");

    let mut h = Game::new(Build::Article, 2).unwrap();
    let loaded = pgn::read(&mut h, &text).unwrap();
    assert_eq!(loaded.engine, Some(shakmaty::Color::Black));
    assert_eq!(h.build(), Build::B1978);
    assert_eq!(h.level, 3);
    assert_eq!(h.fen(), g.fen());
    in_step(&mut h);

    // From a set-up position, with a result.
    let mut f = Game::new(Build::Article, 1).unwrap();
    f.set_start(parse_fen("7k/8/6K1/8/8/8/8/1Q6 b - - 0 40").unwrap())
        .unwrap();
    play(&mut f, &["Kg8", "Qb8"]);
    let text = pgn::write(&f, &players, "2025.01.02");
    assert!(
        text.contains("[FEN \"7k/8/6K1/8/8/8/8/1Q6 b - - 0 40\"]"),
        "{text}"
    );
    assert!(text.contains("40... Kg8 41. Qb8# 1-0"), "{text}");
    let mut h = Game::new(Build::Article, 2).unwrap();
    pgn::read(&mut h, &text).unwrap();
    assert_eq!(h.fen(), f.fen());
    assert_eq!(h.end().unwrap().result(), "1-0");

    // A bad file changes nothing.
    let before = h.fen();
    assert!(pgn::read(&mut h, "1. e4 e5 2. Ke3 *")
        .unwrap_err()
        .contains("move 3"));
    assert_eq!(h.fen(), before);
}

#[test]
fn the_engine_answers_through_the_game() {
    let mut g = Game::new(Build::Article, 1).unwrap();
    play(&mut g, &["e4"]);
    let mut s = z80chess::session::search::Search::start(&mut g.engine, 1);
    let r = s.finish(&mut g.engine).unwrap();
    let m = g.play_result(&r).unwrap();
    assert!(m.is_capture() || m.to().rank() == shakmaty::Rank::Fifth);
    let t = g.plies.last().unwrap().thought.clone().unwrap();
    assert_eq!(t.score_text(), "book");
    play(&mut g, &["Nf3"]);
    let mut s = z80chess::session::search::Search::start(&mut g.engine, 2);
    // Move now before anything is done: still a legal move.
    s.stop(&mut g.engine);
    let r = s.finish(&mut g.engine).unwrap();
    g.play_result(&r).unwrap();
    in_step(&mut g);
}

/// A game of the full build saved as PGN loads again (its Z80Build tag "full" was refused),
/// and a text with several games loads the last (what `save` appended last).
#[test]
fn pgn_of_the_full_build_and_of_many_games() {
    let mut g = Game::new(Build::Full, 1).unwrap();
    play(&mut g, &["e4", "c5"]);
    let players = pgn::Players {
        engine: Some(shakmaty::Color::Black),
        human: "Tester".into(),
    };
    let text = pgn::write(&g, &players, "2025.01.02");
    assert!(text.contains("[Z80Build \"full\"]"), "{text}");
    let mut h = Game::new(Build::Article, 2).unwrap();
    pgn::read(&mut h, &text).unwrap();
    assert_eq!(h.build(), Build::Full);
    assert_eq!(h.fen(), g.fen());
    let two = format!("[Event \"first\"]\n\n1. d4 *\n\n{text}");
    let c = pgn::check(&two).unwrap().unwrap();
    assert_eq!((c.number, c.games), (2, 2));
    let mut k = Game::new(Build::Article, 2).unwrap();
    c.apply(&mut k).unwrap();
    assert_eq!(k.fen(), g.fen());
    assert!(pgn::read(&mut k, "").unwrap_err().contains("no game"));
}

#[test]
fn a_refusal_carries_what_was_refused() {
    let mut g = Game::new(Build::Article, 1).unwrap();
    assert!(matches!(g.undo(), Err(GameError::NothingToUndo)));
    assert!(matches!(g.set_level(9), Err(GameError::Level(9))));
    assert_eq!(g.level, 1, "a refused level changes nothing");
    let e2e4 = "e2e4"
        .parse::<shakmaty::uci::UciMove>()
        .unwrap()
        .to_move(g.pos())
        .unwrap();
    g.play(e2e4, None, false).unwrap();
    // e2e4 again, now that Black is to move: not legal here, and the refusal names it
    match g.play(e2e4, None, false) {
        Err(GameError::Illegal { mv }) => assert_eq!(mv.to_string(), "e2e4"),
        other => panic!("{other:?}"),
    }
    assert_eq!(g.plies.len(), 1, "a refused move changes nothing");
}
