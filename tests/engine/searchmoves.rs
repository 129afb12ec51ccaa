//! The full build's root moves (UCI's `go searchmoves`): the host names a set of legal moves
//! with 'R' (`asm/full/roots.asm`) and the Z80 searches only those at the root, choosing among
//! them itself. The oracle for "legal" and "in the set" is shakmaty; the oracle for "the
//! restriction changes nothing else" is the unrestricted search of the same ROM.

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
use shakmaty::{Chess, Position};
use z80chess::firmware::{
    parse_fen, reference_moves, sargon, Build, Engine, FirmwareError, FwMove, SearchKind,
    SearchPoll,
};
use z80chess::profile::bench::POSITIONS;

const PERFT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess/perft.epd");

/// The perft suite's positions that have a legal move (130 FENs, a wide spread of
/// promotions, castling, en passant and crowded boards), then the bench positions.
fn positions() -> Vec<(String, Chess)> {
    let text = std::fs::read_to_string(PERFT).unwrap();
    let mut out: Vec<(String, Chess)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| (format!("perft.epd:{}", i + 1), l.split(';').next().unwrap()))
        // (a few of the suite's positions have a check shakmaty calls impossible: left out)
        .filter_map(|(name, fen)| Some((name, parse_fen(fen).ok()?)))
        .filter(|(_, p)| !p.legal_moves().is_empty())
        .collect();
    assert!(out.len() > 100, "{} perft positions", out.len());
    for (name, fen, _) in POSITIONS {
        out.push((name.to_string(), parse_fen(fen).unwrap()));
    }
    out
}

/// `pos` in a fresh full build, past the book (move number 2 at least: the book answers at
/// move number 1 whatever the position).
fn load(pos: &Chess) -> Engine {
    let mut e = Engine::new(Build::Full).unwrap();
    sargon::load(&mut e, pos).unwrap();
    e.set_move_number(sargon::move_number(pos)).unwrap();
    e
}

/// A deterministic generator, so a failure is the same case again.
fn rng() -> TestRng {
    TestRng::deterministic_rng(RngAlgorithm::ChaCha)
}

/// A random non-empty proper subset of `moves` when it has two or more.
fn subset(rng: &mut TestRng, moves: &[FwMove]) -> Vec<FwMove> {
    loop {
        let s: Vec<FwMove> = moves
            .iter()
            .copied()
            .filter(|_| rng.next_u64().is_multiple_of(3))
            .collect();
        if !s.is_empty() && (s.len() < moves.len() || moves.len() == 1) {
            return s;
        }
    }
}

#[test]
fn a_random_subset_gives_a_move_inside_it() {
    let mut rng = rng();
    let mut proper = 0;
    for (k, (name, pos)) in positions().into_iter().enumerate() {
        let legal = reference_moves(&pos);
        let set = subset(&mut rng, &legal);
        proper += (set.len() < legal.len()) as usize;
        let mut e = load(&pos);
        e.restrict_root(&set).unwrap();
        // Levels 1 (the root is a leaf loop) and 2 (the root's moves sorted by SORTM) by turns.
        let level = 1 + (k % 2) as u8;
        let r = e.search(level, false).unwrap();
        assert!(
            set.contains(&r.best),
            "{name} L{level}: {} is not in the set {:?}",
            r.best.uci(),
            set.iter().map(|m| m.uci()).collect::<Vec<_>>()
        );
        assert_eq!(r.kind, SearchKind::Searched, "{name}");
        assert_eq!(r.pv.first(), Some(&r.best), "{name}");
        // The set stands for the next search of the same position.
        let again = e.search(1, false).unwrap();
        assert!(set.contains(&again.best), "{name}: the second search");
    }
    assert!(proper > 100, "only {proper} proper subsets");
}

#[test]
fn exactly_one_move_is_the_move_played() {
    let mut rng = rng();
    for (name, pos) in positions().into_iter().step_by(3) {
        let legal = reference_moves(&pos);
        let only = legal[(rng.next_u64() % legal.len() as u64) as usize];
        let mut e = load(&pos);
        e.restrict_root(&[only]).unwrap();
        let r = e.search(2, true).unwrap();
        assert_eq!(r.best, only, "{name}");
        assert!(r.depths.iter().all(|d| d.best == only), "{name}");
        assert_eq!(r.pv[0], only, "{name}");
    }
}

#[test]
fn every_legal_move_is_the_unrestricted_search() {
    for (name, pos) in positions().into_iter().step_by(4) {
        let mut legal = reference_moves(&pos);
        legal.reverse(); // (the order the host names them in does not matter)
        for level in [1, 2] {
            let mut free = load(&pos);
            let mut all = load(&pos);
            all.restrict_root(&legal).unwrap();
            let a = free.search(level, true).unwrap();
            let b = all.search(level, true).unwrap();
            let key = |r: &z80chess::firmware::SearchResult| {
                (
                    r.best,
                    r.score,
                    r.evaluations,
                    r.xchng_calls,
                    r.nodes,
                    r.pv.clone(),
                    r.depths.clone(),
                )
            };
            assert_eq!(key(&a), key(&b), "{name} L{level}");
        }
    }
}

/// The bench's first position and a set that excludes the unrestricted best move.
fn without_best() -> (Chess, FwMove, Vec<FwMove>, Engine) {
    let pos = parse_fen(POSITIONS[0].1).unwrap();
    let mut e = load(&pos);
    let free = e.search(2, false).unwrap().best;
    let others: Vec<FwMove> = reference_moves(&pos)
        .into_iter()
        .filter(|m| *m != free)
        .collect();
    (pos, free, others, e)
}

#[test]
fn a_new_position_a_move_or_an_empty_set_lifts_the_restriction() {
    let (pos, free, others, mut e) = without_best();
    let only = &others[..1];
    let restricted = |e: &mut Engine| {
        e.restrict_root(only).unwrap();
        assert_eq!(e.search(2, false).unwrap().best, only[0]);
    };
    // An empty set.
    restricted(&mut e);
    e.restrict_root(&[]).unwrap();
    assert_eq!(e.search(2, false).unwrap().best, free, "after an empty 'R'");
    // A set-up ('S') of the same position.
    restricted(&mut e);
    sargon::load(&mut e, &pos).unwrap();
    assert_eq!(e.search(2, false).unwrap().best, free, "after 'S'");
    // A move played and taken back ('M', 'U').
    restricted(&mut e);
    e.play(only[0]).unwrap();
    e.undo().unwrap();
    assert_eq!(e.search(2, false).unwrap().best, free, "after 'M' and 'U'");
    // A new game ('N'): the book answers again at move number 1.
    restricted(&mut e);
    e.new_game().unwrap();
    assert_eq!(
        e.search(2, false).unwrap().kind,
        SearchKind::Book,
        "after 'N'"
    );
}

#[test]
fn a_refused_set_names_the_fault_and_keeps_the_set_before() {
    let (pos, _, others, mut e) = without_best();
    let only = others[0];
    e.restrict_root(&[only]).unwrap();
    // Not a move of the position: e2e5. Leaves the king in check: none in the italian, so a
    // pinned piece's move from another position is not tried; a move of the other side is.
    let bad = [
        FwMove {
            from: 35,
            to: 65,
            promo: 0,
        },
        FwMove {
            from: 82,
            to: 72,
            promo: 0,
        },
    ];
    for b in bad {
        assert!(b.to_move(&pos).is_none());
        match e.restrict_root(&[others[1], b]) {
            Err(FirmwareError::Rejected {
                command: 'R',
                code: 0x01,
                ..
            }) => {}
            other => panic!("{}: {other:?}", b.uci()),
        }
        assert_eq!(
            e.search(2, false).unwrap().best,
            only,
            "the set before stands"
        );
    }
    // The protocol stays in step: the next commands are answered.
    assert_eq!(e.legal_moves().unwrap().len(), reference_moves(&pos).len());
}

#[test]
fn a_move_that_leaves_the_king_in_check_is_refused_by_name() {
    // The white bishop on d2 is pinned by the queen on b4: Bd2-e3 is pseudo-legal only.
    let pos = parse_fen("4k3/8/8/8/1q6/8/3B4/4K3 w - - 0 10").unwrap();
    let mut e = load(&pos);
    let pinned = FwMove {
        from: 34,
        to: 45,
        promo: 0,
    };
    assert!(pinned.to_move(&pos).is_none());
    match e.restrict_root(&[pinned]) {
        Err(FirmwareError::Rejected {
            command: 'R',
            code: 0x02,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_book_answers_only_with_a_move_of_the_set() {
    let mut e = Engine::new(Build::Full).unwrap();
    e.new_game().unwrap();
    let nf3 = FwMove {
        from: 27,
        to: 46,
        promo: 0,
    };
    e.restrict_root(&[nf3]).unwrap();
    let r = e.search(2, true).unwrap();
    assert_eq!((r.best, r.kind), (nf3, SearchKind::Searched));
    // Both book moves in the set: the book answers.
    let e4 = FwMove {
        from: 35,
        to: 55,
        promo: 0,
    };
    let d4 = FwMove {
        from: 34,
        to: 54,
        promo: 0,
    };
    e.restrict_root(&[e4, d4, nf3]).unwrap();
    let r = e.search(2, true).unwrap();
    assert_eq!(r.kind, SearchKind::Book);
    assert!(r.best == e4 || r.best == d4);
}

#[test]
fn stopped_before_the_first_depth_it_plays_a_move_of_the_set() {
    let pos = parse_fen(POSITIONS[1].1).unwrap(); // the dragon
    let legal = reference_moves(&pos);
    let mut e = load(&pos);
    // The unrestricted fallback is the first legal move: name the last one.
    let last = *e.legal_moves().unwrap().last().unwrap();
    assert!(legal.contains(&last));
    e.restrict_root(&[last]).unwrap();
    e.start_search(4, true);
    let mut polls = 0;
    e.move_now();
    let r = loop {
        match e.poll_search(1_000_000).unwrap() {
            SearchPoll::Done(r) => break r,
            SearchPoll::Running { .. } => polls += 1,
        }
        assert!(polls < 10_000, "no answer");
    };
    assert_eq!(r.kind, SearchKind::Stopped);
    assert_eq!(r.best, last);
    assert_eq!(r.pv, vec![last]);
}

#[test]
fn the_period_builds_refuse_by_name_and_answer_on() {
    for build in Build::PERIOD {
        let mut e = Engine::new(build).unwrap();
        e.new_game().unwrap();
        let e4 = FwMove {
            from: 35,
            to: 55,
            promo: 0,
        };
        match e.restrict_root(&[e4]) {
            Err(FirmwareError::NotInBuild {
                command: 'R',
                build: b,
                ..
            }) => assert_eq!(b, build),
            other => panic!("{build}: {other:?}"),
        }
        // Still in step: a search of the position answers.
        e.set_move_number(2).unwrap();
        let r = e.search(1, false).unwrap();
        assert!(r.best.to_move(&Chess::default()).is_some(), "{build}");
    }
}

#[test]
fn too_many_moves_are_refused_before_anything_is_sent() {
    let mut e = Engine::new(Build::Full).unwrap();
    let many: Vec<FwMove> = (0..=255u16)
        .map(|i| FwMove {
            from: (i % 200) as u8,
            to: (i / 200) as u8 + 21,
            promo: 0,
        })
        .collect();
    match e.restrict_root(&many) {
        Err(FirmwareError::TooManyRootMoves { given: 256 }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(e.legal_moves().unwrap().len(), 20);
}
