//! The search's progress between slices (UCI's `currmove`, `currmovenumber` and `seldepth`,
//! [`Engine::progress`]). A level-3 search of bench positions is stopped at every slice
//! boundary of a small budget, and what the host reads is checked against shakmaty's legal
//! moves and against what must hold of a search: a pass numbers the root's moves 1, 2, ...
//! count without going back, one move per number, every legal move (or every move of the full
//! build's set) gets its number in a pass that completes, and the selective depth never falls,
//! never exceeds the firmware's deepest ply, and (full build, where it is exact) is at least
//! every depth completed.

use std::collections::{BTreeMap, BTreeSet};
use z80chess::firmware::{
    max_ply, parse_fen, reference_moves, sargon, Build, Engine, FwMove, Progress, SearchPoll,
};
use z80chess::profile::bench::POSITIONS;

const LEVEL: u8 = 3;
const SLICE: u64 = 20_000;

/// Run the search in slices, checking each sample; the samples with the root's move.
fn run(build: Build, fen: &str, set: Option<&[FwMove]>) -> Vec<Progress> {
    let pos = parse_fen(fen).unwrap();
    let legal = reference_moves(&pos);
    let mut e = Engine::new(build).unwrap();
    sargon::load(&mut e, &pos).unwrap();
    if let Some(set) = set {
        e.restrict_root(set).unwrap();
    }
    let moves: Vec<FwMove> = set.map(|s| s.to_vec()).unwrap_or(legal.clone());
    e.start_search(LEVEL, true);
    let mut samples = Vec::new();
    let mut last_sel = 0;
    // pass -> (number -> move)
    let mut numbered: BTreeMap<u8, BTreeMap<u8, FwMove>> = BTreeMap::new();
    let mut last: Option<(u8, u8)> = None;
    loop {
        let poll = e.poll_search(SLICE).unwrap();
        let p = e.progress();
        let completed = match &poll {
            SearchPoll::Running { depths, .. } => depths.last().map_or(0, |d| d.depth),
            SearchPoll::Done(_) => break,
        };
        if let Some(s) = p.seldepth {
            assert!(
                s >= last_sel,
                "{build} {fen}: seldepth fell {last_sel} -> {s}"
            );
            assert!(s <= max_ply(build, LEVEL), "{build} {fen}: seldepth {s}");
            if p.seldepth_exact {
                assert!(
                    s >= completed,
                    "{build} {fen}: seldepth {s} < depth {completed}"
                );
            }
            last_sel = s;
        }
        assert_eq!(p.seldepth_exact, build == Build::Full);
        if let Some(r) = p.root {
            assert!(
                moves.contains(&r.mv),
                "{build} {fen}: {:?} not a root move",
                r.mv
            );
            assert_eq!(r.count as usize, moves.len(), "{build} {fen}: count");
            assert!((1..=r.count).contains(&r.number), "{build} {fen}: {r:?}");
            if let Some((pass, n)) = last {
                if pass == p.pass {
                    assert!(r.number >= n, "{build} {fen}: number {n} -> {}", r.number);
                }
            }
            last = Some((p.pass, r.number));
            let seen = numbered.entry(p.pass).or_default();
            let m = seen.entry(r.number).or_insert(r.mv);
            assert_eq!(
                *m, r.mv,
                "{build} {fen}: number {} names two moves",
                r.number
            );
            assert!(p.depth >= 1 && p.depth <= LEVEL);
            samples.push(p);
        }
    }
    // The last pass ran through (level 3 completes): every move got its number, once.
    let (_, lastpass) = numbered.iter().next_back().expect("no root move read");
    let all: BTreeSet<u8> = (1..=moves.len() as u8).collect();
    assert_eq!(
        lastpass.keys().copied().collect::<BTreeSet<_>>(),
        all,
        "{build} {fen}: numbers of the last pass"
    );
    let distinct: BTreeSet<_> = lastpass.values().map(|m| (m.from, m.to, m.promo)).collect();
    assert_eq!(
        distinct.len(),
        moves.len(),
        "{build} {fen}: moves of the last pass"
    );
    samples
}

fn check(build: Build) {
    for &(name, fen, _) in &POSITIONS[..3] {
        let s = run(build, fen, None);
        assert!(s.iter().any(|p| p.depth == LEVEL), "{build} {name}");
        let sel = s.iter().filter_map(|p| p.seldepth).max();
        assert!(sel >= Some(LEVEL), "{build} {name}: seldepth {sel:?}");
    }
}

#[test]
fn the_article_build_reports_its_root_move_and_seldepth() {
    check(Build::Article);
}

#[test]
fn the_1978_build_reports_its_root_move_and_seldepth() {
    check(Build::B1978);
}

#[test]
fn the_full_build_reports_its_root_move_and_seldepth() {
    check(Build::Full);
}

#[test]
fn the_full_build_numbers_only_the_set_of_root_moves() {
    let (_, fen, _) = POSITIONS[0];
    let legal = reference_moves(&parse_fen(fen).unwrap());
    let set: Vec<FwMove> = legal.iter().copied().step_by(5).collect();
    assert!(set.len() >= 3);
    run(Build::Full, fen, Some(&set));
}

/// `max_ply`'s full-build bound follows the ROM: its quiescence cap QMAXP and `P_QDEP`'s
/// default (so the bound the tests above hold the seldepth to is the firmware's, not a copy
/// that could drift).
#[test]
fn max_ply_follows_the_rom_s_quiescence_cap() {
    let qmaxp = Build::Full.symbol("QMAXP").expect("QMAXP") as u8;
    let ps = Engine::new(Build::Full).unwrap().params().unwrap();
    let qdep = ps.iter().find(|p| p.def.name == "P_QDEP").unwrap().values[0] as u8;
    for level in 1..=8 {
        assert_eq!(max_ply(Build::Full, level), (level + 2 + qdep).min(qmaxp));
        assert_eq!(max_ply(Build::Article, level), level + 1);
    }
}
