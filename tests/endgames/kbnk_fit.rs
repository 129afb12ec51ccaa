//! Host first: KBNK evaluations fitted to our table's distance to mate (DTM), played by a host
//! alpha-beta search against the table's perfect defence (the longest loss), within the 50-move
//! rule. The fitting is `z80chess::luscher::kbnk_fit` (shared with the generator of the full
//! build's tables, `z80chess luscher kbnk-tables`); its header says what the evaluation that
//! converts ([`Config::edge_triple`]) is.
//!
//! - `regenerated` (not ignored: 25 s once the table is built): the fit written again is
//!   `asm/full/kbnk_tables.asm` byte for byte, and its host model of the Z80
//!   ([`Tables::score`]) is the fitted model's score;
//!
//! The others are `#[ignore]`d (they play hundreds of games: minutes):
//! - `-- --ignored edge_triple`: ≥ 90 of 100 converted at three and at four plies (about
//!   the depth the Z80 completes at 180 s a move), and 100 of 100 draws held;
//! - `-- --ignored explore --nocapture`: any variant from the environment (`KF_*`, see
//!   [`config_from_env`]) at `KF_DEPTH` plies (a list; 0 = the Z80's budget,
//!   `KF_BUDGET` evaluations a move, the last completed depth's move; `KF_EVEN=1` only
//!   even depths' moves kept, `KF_CAP` no depth beyond it, `KF_CYCLE=4/5` fixed depths
//!   by move, cycled). The budget's depths mixed are what fails: with 20,000 evaluations
//!   (depths 4-6) 32 of 50 seed-1 games convert, 48 keeping only even depths' moves, 31
//!   at depths 4 and 5 alternating, 47 at depth 5 (97 of 100 at 4): the fit's plans at
//!   odd depths (the leaves with the bare king to move) are not its plans at even ones,
//!   and a search that switches between them from move to move wanders. P_KBNK = 4
//!   caps the Z80's iterating KBNK search at 4 plies (`asm/full/kbnk.asm` KBDRW); at 180 s
//!   it converts the same 93 of 100 as P_KBNK = 3 on seed 1: the Z80's failures there
//!   are the fit's own (it plays this model's 4-ply moves, `replay`), not the parity's.

use crate::common::kbnk_play;

use crate::common::tables;
use kbnk_play::{starts, Sim};
use std::sync::OnceLock;
use z80chess::luscher::kbnk::Kbnk;
use z80chess::luscher::kbnk_fit::{all, Config, Dense, Feature, Model};
use z80chess::luscher::kbnk_tables::Tables;
use z80chess::tablebase::Val;

/// Our KBNK table, dense (built and cached in the test's target directory).
fn dense() -> &'static Dense {
    static D: OnceLock<Dense> = OnceLock::new();
    D.get_or_init(|| {
        // The table is built once per test binary (see `common::tables`).
        tables::dtm(&["KBNK"]);
        Dense::load(&tables::dir()).unwrap()
    })
}

fn val(p: &Kbnk) -> Val {
    dense().val(p).expect("a position")
}

fn dtm(p: &Kbnk) -> Option<i32> {
    dense().dtm(p)
}

fn fit(c: Config) -> Model<'static> {
    let m = Model::fit(c, dense());
    for n in &m.notes {
        eprintln!("{n}");
    }
    m
}

/// [`Config::edge_triple`] changed by the environment: `KF_MODEL` (tables, comma
/// separated: men digits such as `10` for a pair, `f` the flight squares and the side to
/// move, `e` the edge triple, `eAB` with the
/// strong king clamped to ±A and the knight to ±B steps; a trailing `s`: per side to
/// move; `oracle`), `KF_SYM` (0/1), `KF_EDGE`, `KF_ONLY` (`s`/`w`), `KF_WEXP`,
/// `KF_PASSES`, `KF_STEP`, `KF_Q`, `KF_BITS`, `KF_UNC`, `KF_REPLY` (0/1).
fn config_from_env() -> Config {
    let mut c = Config::edge_triple();
    let get = |k: &str| std::env::var(k).ok();
    if let Some(m) = get("KF_MODEL") {
        c.oracle = m == "oracle";
        c.per_stm = m.ends_with('s');
        c.feats = m
            .trim_end_matches('s')
            .split(',')
            .filter(|f| !f.is_empty() && *f != "oracle")
            .map(|f| match f.strip_prefix('e') {
                Some("") => Feature::Edge { sk: 0, n: 0 },
                _ if f == "f" => Feature::Flights,
                Some(w) => Feature::Edge {
                    sk: w[..1].parse().unwrap(),
                    n: w[1..].parse().unwrap(),
                },
                None => Feature::Squares(
                    f.chars()
                        .map(|c| c.to_digit(10).unwrap() as usize)
                        .collect(),
                ),
            })
            .collect();
    }
    let num = |k: &str, d: f64| get(k).and_then(|v| v.parse().ok()).unwrap_or(d);
    c.sym = num("KF_SYM", c.sym as u8 as f64) != 0.0;
    c.edge = num("KF_EDGE", c.edge as f64) as u8;
    c.only = get("KF_ONLY").map(|v| v == "s");
    c.wexp = num("KF_WEXP", c.wexp);
    c.passes = num("KF_PASSES", c.passes as f64) as usize;
    c.step = num("KF_STEP", c.step as f64) as usize;
    c.quantum = num("KF_Q", c.quantum as f64) as f32;
    c.bits = num("KF_BITS", c.bits as f64) as u32;
    c.unc = num("KF_UNC", c.unc as f64) as i32;
    c.reply = num("KF_REPLY", c.reply as u8 as f64) != 0.0;
    c
}

/// The generator run again writes `asm/full/kbnk_tables.asm` byte for byte, and the host
/// model of the Z80's evaluation on those bytes ([`Tables::score`], which tests/endgames/kbnk.rs
/// holds the Z80 to) is the fitted model's leaf score on every 7th KBNK position with a
/// move (a mate or a stalemate is the search's, not the leaf's, in the host player).
/// Not ignored: 25 s here once the KBNK table is built (tests/endgames/kbnk.rs builds the same one).
#[test]
fn the_tables_are_regenerated_byte_for_byte() {
    let m = fit(Config::edge_triple());
    let t = Tables::from_model(&m).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/asm/full/kbnk_tables.asm");
    let rom = std::fs::read_to_string(path).unwrap();
    assert!(
        rom == t.asm(),
        "{path} is not the fit's (run `z80chess luscher kbnk-tables`)"
    );
    let mut n = 0;
    for p in all().step_by(7) {
        let stuck = !p.strong_to_move && !p.hangs() && p.flights() == 0;
        if stuck {
            continue;
        }
        n += 1;
        assert_eq!(t.score(&p).unwrap_or(0), m.score(&p), "{p:?}");
    }
    println!("{n} positions: the ROM's tables score as the fitted model");
    assert!(n > 2_000_000, "{n}");
}

// ---- host play ----------------------------------------------------------------------------

/// `games` games from `seed`'s starts at `depth` plies (0: the budget of `budget`
/// evaluations a move): how many were mated within 50 moves; prints the figures.
fn run(m: &Model, depth: usize, games: usize, seed: u64, budget: u64) -> usize {
    let leaf = |p: &Kbnk| m.score(p);
    let mut sim = Sim::new(&leaf, &val);
    sim.budget = budget;
    sim.cap = env("KF_CAP", 0);
    sim.even = env("KF_EVEN", 0) != 0;
    if env("KF_TRAPS", 0) != 0 {
        sim.traps = Some(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    }
    if let Ok(c) = std::env::var("KF_CYCLE") {
        sim.cycle = c.split('/').map(|d| d.parse().unwrap()).collect();
    }
    let (mut won, mut moves, mut start, mut close) = (0, 0, 0, 0);
    let t0 = std::time::Instant::now();
    let ss = match std::env::var("KF_FENS") {
        Ok(f) => f.split(';').map(|f| kbnk_of(&fen(f.trim()))).collect(),
        Err(_) => starts(games, seed, |p| dtm(p).is_some()),
    };
    let games = ss.len();
    for p in &ss {
        match sim.play(*p, depth) {
            Ok(n) => {
                won += 1;
                moves += n;
            }
            Err(c) => {
                if std::env::var("KF_FENS").is_ok() {
                    println!("  not converted: {p:?}, closest {c} plies");
                }
                start += dtm(p).unwrap() as u32;
                close += c;
            }
        }
    }
    let lost = (games - won).max(1) as f64;
    println!(
        "depth {depth} (0: {budget} evaluations a move), seed {seed}: {won} of {games} mated \
         within 50 moves ({:.1} moves on average); not converted: {:.1} -> closest {:.1} \
         plies to mate; {:.0} s",
        moves as f64 / won.max(1) as f64,
        start as f64 / lost,
        close as f64 / lost,
        t0.elapsed().as_secs_f64()
    );
    if depth == 0 {
        println!("  moves chosen by each depth 1..: {:?}", &sim.depths[1..]);
    }
    won
}

fn env(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// The evaluation that converts and holds every draw (the bare king by the same search
/// against the hardest drawing strong move) at three and four plies, the depths about the
/// Z80's at 180 s a move (`z80chess search --build full --movetime-emulated 180` completes
/// depth 4 with 8,242-9,570 evaluations a move today, 5 with the bare king in a corner).
#[test]
#[ignore = "fits and plays 400 games: two minutes"]
fn edge_triple_converts_at_three_and_four_plies() {
    let m = fit(Config::edge_triple());
    for depth in [3, 4] {
        let won = run(&m, depth, 100, 1, 0);
        let held = defend(&m, depth, 100, 1);
        assert!(won >= 90, "{won} of 100 converted at {depth} plies");
        assert_eq!(
            held, 100,
            "draws held at {depth} plies (three are lost at one ply)"
        );
    }
}

/// Why this model converts fewer by a budget than at a fixed depth: a search whose depth
/// changes parity from move to move switches between the fit's odd-depth and even-depth plans
/// and wanders. On seed 1's 50 starts: depths 4 and 5 alternating by move convert 31 (depth 5
/// alone 47, depth 4 alone 48); a budget of 20,000 evaluations a move (depths 4-6 mixed) 32,
/// the same budget keeping only even depths' moves 48. P_KBNK = 4 caps the Z80's iterating KBNK
/// search at 4 plies (at 180 s: no gain on the Z80, whose failures are the fit's).
#[test]
#[ignore = "fits and plays 200 games: three minutes"]
fn switching_depth_parity_from_move_to_move_wanders() {
    let m = fit(Config::edge_triple());
    let leaf = |p: &Kbnk| m.score(p);
    let play = |cycle: Vec<usize>, even: bool| {
        let mut sim = Sim::new(&leaf, &val);
        (sim.budget, sim.cycle, sim.even) = (20_000, cycle, even);
        let ss = starts(50, 1, |p| dtm(p).is_some());
        ss.iter().filter(|p| sim.play(**p, 0).is_ok()).count()
    };
    let (alternating, fixed4) = (play(vec![4, 5], false), play(vec![4], false));
    let (mixed, even) = (play(vec![], false), play(vec![], true));
    println!("4/5 alternating {alternating}, 4 {fixed4}; budget: mixed {mixed}, even {even}");
    assert!(
        alternating + 10 <= fixed4,
        "{alternating} alternating, {fixed4} at depth 4"
    );
    assert!(mixed + 10 <= even, "{mixed} mixed, {even} even depths only");
}

/// The exact table as the evaluation converts from every start at one ply; with the claim
/// penalty KBNKEV has today (256 × P_KBUNC = 2,048 less for an unclaimed position) it
/// converts at most a few: the strong side keeps its pieces guarded instead of mating.
#[test]
#[ignore = "reads every KBNK position: a minute"]
fn a_claim_penalty_stops_even_the_table() {
    let mut c = Config::edge_triple();
    c.oracle = true;
    let exact = run(&fit(c.clone()), 1, 20, 1, 0);
    c.unc = 2048;
    let penalised = run(&fit(c), 1, 20, 1, 0);
    assert_eq!(exact, 20);
    assert!(penalised <= 5, "{penalised} of 20 with the penalty");
}

/// `games` drawn starts (strong to move) defended by the bare king at `depth` plies:
/// how many held; prints the figures and the first lost start.
fn defend(m: &Model, depth: usize, games: usize, seed: u64) -> usize {
    let leaf = |p: &Kbnk| m.score(p);
    let mut sim = Sim::new(&leaf, &val);
    let ss = starts(games, seed, |p| val(p) == Val::Draw);
    let lost: Vec<&Kbnk> = ss.iter().filter(|p| !sim.defend(**p, depth)).collect();
    println!(
        "draws at depth {depth}, seed {seed}: {} of {games} held; first lost: {:?}",
        games - lost.len(),
        lost.first()
    );
    games - lost.len()
}

/// Any variant (`KF_*`, [`config_from_env`]); `KF_DEPTH` a list of depths (0: the
/// budget, `KF_BUDGET` evaluations a move, default 8,600; `KF_EVEN`, `KF_CAP`: only even
/// depths' moves, no depth beyond this), `KF_CYCLE` (`4/5`: fixed depths by move,
/// cycled), `KF_GAMES`, `KF_SEED`; `KF_DRAWS`: the draws defended too; `KF_TRAPS=1`: the
/// defence of `endgame-test` (among the longest losses the one leaving the most losing
/// replies, then at random); `KF_FENS`: these starts (FENs, `;` between, White strong)
/// instead of random ones; `KF_ROOT=rev|pieces`: the root's moves in reverse, or the
/// bishop's and knight's before the king's (which of tied moves the search meets first).
/// At 2-ply quanta the root's order decided games (seed 1, 300 games, 4 plies, `KF_TRAPS`:
/// 293 / 278 / 208 converted with the king's moves first / reversed / last); at 1-ply
/// quanta (the tables since) 295 / 295 / 296.
#[test]
#[ignore = "exploration: minutes"]
fn explore() {
    let c = config_from_env();
    eprintln!("{c:?}");
    let m = fit(c);
    let depths = std::env::var("KF_DEPTH").unwrap_or_else(|_| "4".into());
    for d in depths.split(',').map(|d| d.parse::<usize>().unwrap()) {
        let (games, seed) = (env("KF_GAMES", 50), env("KF_SEED", 1) as u64);
        run(&m, d, games, seed, env("KF_BUDGET", 8600) as u64);
        if d > 0 && std::env::var("KF_DRAWS").is_ok() {
            defend(&m, d, games, seed);
        }
    }
}

/// The strong side White: a shakmaty position as the table's men.
fn kbnk_of(pos: &shakmaty::Chess) -> Kbnk {
    use shakmaty::{Color, Position, Role};
    let b = pos.board();
    let sq = |c: Color, r: Role| {
        let s = (b.by_color(c) & b.by_role(r))
            .first()
            .expect("a KBNK position");
        u32::from(s) as u8
    };
    Kbnk {
        sk: sq(Color::White, Role::King),
        wk: sq(Color::Black, Role::King),
        b: sq(Color::White, Role::Bishop),
        n: sq(Color::White, Role::Knight),
        strong_to_move: pos.turn() == Color::White,
    }
}

/// A game the Z80 played (`KF_FEN`, White strong, and `KF_MOVES`, its SAN movetext as
/// `endgame-test -v` prints it) replayed against the host model's `KF_DEPTH`-ply search
/// (default 3): at each of White's moves, the host's score of the Z80's move, the host's
/// best score and how many moves share it, and the table's plies to mate after each.
/// Prints where the Z80 chose a move the host scores below its best.
#[test]
#[ignore = "a diagnostic: set KF_FEN and KF_MOVES"]
fn replay() {
    use shakmaty::{san::San, Position};
    let (Ok(start), Ok(moves)) = (std::env::var("KF_FEN"), std::env::var("KF_MOVES")) else {
        eprintln!("replay: set KF_FEN and KF_MOVES (and KF_DEPTH) to replay a game");
        return;
    };
    let depth = env("KF_DEPTH", 3);
    let m = fit(Config::edge_triple());
    let leaf = |p: &Kbnk| m.score(p);
    let mut sim = Sim::new(&leaf, &val);
    let mut pos = fen(&start);
    let mut hist = Vec::new();
    let mut n = 0;
    for tok in moves.split_whitespace() {
        if tok.ends_with('.') {
            continue;
        }
        let p = kbnk_of(&pos);
        hist.push(p);
        let mv = tok.parse::<San>().unwrap().to_move(&pos).unwrap();
        let mut next = pos.clone();
        next.play_unchecked(mv);
        if p.strong_to_move {
            n += 1;
            let q = kbnk_of(&next);
            let sc = sim.scores(&hist, &p, depth);
            let best = sc.iter().map(|s| s.1).max().unwrap();
            let ties = sc.iter().filter(|s| s.1 == best).count();
            let mine = sc.iter().find(|s| s.0 == q).map(|s| s.1).unwrap();
            let bests: Vec<String> = sc
                .iter()
                .filter(|s| s.1 == best)
                .map(|s| format!("{}", dtm(&s.0).unwrap_or(-1)))
                .collect();
            println!(
                "{n:2}. {tok:6} host {mine:6} best {best:6} ({ties} share it, plies to mate after \
                 them {}) this {} {}",
                bests.join(","),
                dtm(&q).unwrap_or(-1),
                if mine < best {
                    "<-- below the host's best"
                } else {
                    ""
                }
            );
        }
        pos = next;
    }
}

/// A FEN's position (a test's own input: a bad one is a panic naming it).
fn fen(f: &str) -> shakmaty::Chess {
    use shakmaty::{fen::Fen, CastlingMode};
    let parsed: Fen = f.parse().unwrap_or_else(|e| panic!("{f}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{f}: {e}"))
}
