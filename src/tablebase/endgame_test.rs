//! `z80chess endgame-test`: the Z80 engine plays the side to move in positions drawn at
//! random from a table, against the tablebase's perfect replies.
//!
//! - **win** positions (the engine's side wins): it must mate, or reach a sub-ending (after
//!   a capture or promotion) that it still wins, within the 50-move rule (repetitions are
//!   not claimed: the 1978 program knows none); a move after which the table no longer
//!   says "win" throws the result away.
//! - **draw** positions where it defends (the side to move draws, and at least one of its
//!   moves loses): it must not lose; the game is held at the 50-move rule, a change of
//!   material that keeps the draw, or after 200 plies.
//!
//! The tablebase's side plays its best move by the table (the longest loss when losing);
//! among equal moves it picks the one that leaves the engine the most losing replies, then
//! at random (seeded), so that the test probes the engine's weak spots.

use super::store::{material_name, Store};
use super::verdict::DEFAULT_DIR;
use super::{generate, men, Metric, TablebaseError, Val};
use crate::firmware::params::ParamFile;
use crate::firmware::{sargon, Build, Engine, FwMove};
use crate::machine::PERIOD_HZ;
use shakmaty::{san::SanPlus, Chess, Color, Move, Position};
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct EndgameTestArgs {
    /// The ending (e.g. KQK, KRK, KPK, KPKP).
    pub name: String,
    /// Which firmware plays.
    #[arg(long, value_enum, default_value_t = Build::Article)]
    pub build: Build,
    /// Look-ahead in plies (1-8).
    #[arg(long, default_value_t = 2)]
    pub level: u8,
    /// Games per class (wins to convert, draws to hold).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Seed of the position draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where tables are kept (built there if missing).
    #[arg(long, default_value = DEFAULT_DIR)]
    pub dir: PathBuf,
    /// A scoring parameter file loaded into the engine first (full build only).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Emulated seconds a move (at the period's 2 MHz): the engine iterates (up to 8 plies)
    /// until that much emulated time has passed, then is told "move now". `--level` is not
    /// used then.
    #[arg(long, value_name = "SECS")]
    pub movetime_emulated: Option<f64>,
    /// Games played at once (threads); the results do not depend on it.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// List every game.
    #[arg(long, short)]
    pub verbose: bool,
}

/// A small, seeded random source (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Win,
    Draw,
}

/// A move that threw a result away.
#[derive(Clone, Debug)]
pub struct Throw {
    pub fen: String,
    pub san: String,
    pub before: Val,
    pub after: Val,
}

/// One game.
#[derive(Clone, Debug)]
pub struct Game {
    pub class: Class,
    pub start: String,
    pub start_value: Val,
    pub passed: bool,
    /// How it ended, in words.
    pub end: String,
    pub throw: Option<Throw>,
    pub engine_moves: u32,
    pub engine_tstates: u64,
    /// A win: the fewest plies to mate of any position where the engine was to move (the
    /// progress it made, converted or not).
    pub closest: Option<u8>,
    /// The game's moves in SAN, from the start (`--verbose` prints a failed game's).
    pub moves: Vec<String>,
}

/// Everything `endgame-test` measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: Vec<Game>,
}

impl Report {
    pub fn count(&self, class: Class) -> (usize, usize) {
        let g: Vec<&Game> = self.games.iter().filter(|g| g.class == class).collect();
        (g.iter().filter(|g| g.passed).count(), g.len())
    }
    pub fn passed(&self) -> usize {
        self.games.iter().filter(|g| g.passed).count()
    }
    pub fn failed(&self) -> usize {
        self.games.len() - self.passed()
    }
    /// Over the wins not converted: the mean moves to mate at the start, the mean of the
    /// closest each game came, and how many there were (`None`: every win converted).
    pub fn progress(&self) -> Option<(f64, f64, usize)> {
        let lost: Vec<(f64, f64)> = self
            .games
            .iter()
            .filter(|g| g.class == Class::Win && !g.passed)
            .filter_map(|g| match (g.start_value, g.closest) {
                (s @ Val::Win(_), Some(c)) => {
                    Some((s.moves()? as f64, Val::Win(c).moves()? as f64))
                }
                _ => None,
            })
            .collect();
        if lost.is_empty() {
            return None;
        }
        let n = lost.len() as f64;
        let start = lost.iter().map(|p| p.0).sum::<f64>() / n;
        let closest = lost.iter().map(|p| p.1).sum::<f64>() / n;
        Some((start, closest, lost.len()))
    }
    pub fn tstates_per_move(&self) -> f64 {
        let m: u64 = self.games.iter().map(|g| g.engine_moves as u64).sum();
        let t: u64 = self.games.iter().map(|g| g.engine_tstates).sum();
        if m == 0 {
            0.0
        } else {
            t as f64 / m as f64
        }
    }
}

/// Draw a position of `class` uniformly from the table (rejection sampling).
fn sample(store: &Store, name: &str, class: Class, rng: &mut Rng) -> Result<Chess, TablebaseError> {
    let t = store.loaded(name).expect("the table is loaded");
    let l = &t.layout;
    for _ in 0..10_000_000 {
        let idx = rng.below(t.data.len());
        let Some(v) = t.get(idx) else { continue };
        let ok = match class {
            Class::Win => v.is_win(),
            Class::Draw => v == Val::Draw,
        };
        if !ok {
            continue;
        }
        let (stm, sq, ep) = l.decode(idx).expect("a stored position decodes");
        let fen = men::fen(&l.men(&sq), stm, generate::ep_target(l, &sq, ep));
        let pos = super::store::chess_of(&fen)?;
        if class == Class::Draw {
            // it must have something to defend: a move that loses
            let mut defend = false;
            for m in pos.legal_moves() {
                if value_after(store, &pos, &m)?.is_loss() {
                    defend = true;
                    break;
                }
            }
            if !defend {
                continue;
            }
        }
        return Ok(pos);
    }
    Err(TablebaseError::Usage(format!(
        "{name} has no such positions"
    )))
}

/// The value for the mover of playing `m` in `pos`.
fn value_after(store: &Store, pos: &Chess, m: &Move) -> Result<Val, TablebaseError> {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    Ok(store.probe(&after)?.before())
}

/// The tablebase's move: best by the table; among equals, the one leaving the most losing
/// replies, then at random.
fn table_move(store: &Store, pos: &Chess, rng: &mut Rng) -> Result<Move, TablebaseError> {
    let mut best: Vec<(Move, i32)> = Vec::new();
    let mut best_rank = i32::MIN;
    for m in pos.legal_moves() {
        let r = value_after(store, pos, &m)?.rank();
        if r > best_rank {
            best.clear();
            best_rank = r;
        }
        if r == best_rank {
            best.push((m, 0));
        }
    }
    if best.len() > 1 {
        for (m, traps) in best.iter_mut() {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            let now = store.probe(&after)?;
            for reply in after.legal_moves() {
                if value_after(store, &after, &reply)?.rank() < now.rank() {
                    *traps += 1;
                }
            }
        }
        let most = best.iter().map(|(_, t)| *t).max().unwrap_or(0);
        best.retain(|(_, t)| *t == most);
    }
    let k = rng.below(best.len());
    Ok(best.swap_remove(k).0)
}

/// The men of each kind and colour (a promotion changes it, as a capture does).
fn material(pos: &Chess) -> Vec<(bool, u8)> {
    let mut v: Vec<(bool, u8)> = pos
        .board()
        .clone()
        .into_iter()
        .map(|(_, p)| (p.color == Color::White, p.role as u8))
        .collect();
    v.sort_unstable();
    v
}

fn key(pos: &Chess) -> String {
    let f = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
    f.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// How long the engine thinks over a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// This many plies.
    Level(u8),
    /// This many T-states: iterating up to 8 plies, then "move now".
    TStates(u64),
}

impl Limit {
    fn search(self, engine: &mut Engine) -> Result<crate::firmware::SearchResult, TablebaseError> {
        let budget = match self {
            Limit::Level(level) => return Ok(engine.search(level, false)?),
            Limit::TStates(t) => t,
        };
        use crate::firmware::SearchPoll;
        engine.start_search(8, true);
        let (mut spent, mut told) = (0, false);
        loop {
            let slice = if spent < budget {
                budget - spent
            } else {
                if !told {
                    engine.move_now();
                    told = true;
                }
                1_000_000
            };
            match engine.poll_search(slice)? {
                SearchPoll::Done(r) => return Ok(r),
                SearchPoll::Running { tstates, .. } => spent = tstates,
            }
        }
    }
}

/// Play one game from `start`, the engine moving first.
pub fn play_game(
    store: &Store,
    engine: &mut Engine,
    limit: Limit,
    class: Class,
    start: Chess,
    rng: &mut Rng,
) -> Result<Game, TablebaseError> {
    let start_fen = key(&start);
    let start_value = store.probe(&start)?;
    let us = start.turn();
    let mut g = Game {
        class,
        start: start_fen,
        start_value,
        passed: false,
        end: String::new(),
        throw: None,
        engine_moves: 0,
        engine_tstates: 0,
        closest: None,
        moves: Vec::new(),
    };
    let mut pos = start;
    // The game is played into the firmware move by move, so that the full build sees its
    // history (repetitions, the 50-move rule).
    sargon::load(engine, &pos)?;
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut plies = 0;
    let pieces0 = material(&pos);
    loop {
        if pos.is_checkmate() {
            g.passed = pos.turn() != us;
            g.end = if g.passed { "mates" } else { "is mated" }.into();
            return Ok(g);
        }
        if pos.is_stalemate() {
            g.passed = class == Class::Draw;
            g.end = "stalemate".into();
            return Ok(g);
        }
        if material(&pos) != pieces0 {
            // a capture or a promotion: the sub-ending's verdict decides
            let v = store.probe(&pos)?;
            let ours = if pos.turn() == us { v } else { v.before_turn() };
            g.passed = match class {
                Class::Win => ours.is_win(),
                Class::Draw => !ours.is_loss(),
            };
            g.end = format!(
                "{} reached ({ours} for the engine's side)",
                material_name(&pos)?
            );
            return Ok(g);
        }
        if pos.halfmoves() >= 100 {
            g.passed = class == Class::Draw;
            let reps = seen.values().filter(|&&n| n >= 3).count();
            g.end = if reps > 0 {
                format!("50-move rule ({reps} positions seen three times or more)")
            } else {
                "50-move rule".into()
            };
            return Ok(g);
        }
        // repetitions are counted, not ended on: the bound is the 50-move rule
        *seen.entry(key(&pos)).or_insert(0) += 1;
        if plies >= 200 {
            g.passed = class == Class::Draw;
            g.end = "200 plies".into();
            return Ok(g);
        }
        let m = if pos.turn() == us {
            let before = store.probe(&pos)?;
            if let Val::Win(d) = before {
                g.closest = Some(g.closest.map_or(d, |c| c.min(d)));
            }
            let r = limit.search(engine)?;
            g.engine_moves += 1;
            g.engine_tstates += r.tstates;
            let m = r.best.to_move(&pos).ok_or_else(|| {
                TablebaseError::Position(format!(
                    "the engine's move {} is not legal in {}",
                    r.best.uci(),
                    key(&pos)
                ))
            })?;
            let after = value_after(store, &pos, &m)?;
            let thrown = match class {
                Class::Win => !after.is_win(),
                Class::Draw => after.is_loss(),
            };
            if thrown {
                g.throw = Some(Throw {
                    fen: key(&pos),
                    san: SanPlus::from_move(pos.clone(), m).to_string(),
                    before,
                    after,
                });
                g.passed = false;
                g.end = format!("threw it away ({before} -> {after})");
                return Ok(g);
            }
            m
        } else {
            table_move(store, &pos, rng)?
        };
        if engine.play(FwMove::from_move(&m)).is_err() {
            // (the firmware's history is full: the position after the move, set up)
            let mut after = pos.clone();
            after.play_unchecked(m);
            sargon::load(engine, &after)?;
        }
        g.moves.push(SanPlus::from_move(pos.clone(), m).to_string());
        pos.play_unchecked(m);
        plies += 1;
    }
}

/// Numbered movetext of a game's SAN moves (`black_first`: the start has Black to move).
pub fn movetext(moves: &[String], black_first: bool) -> String {
    let mut out = Vec::new();
    let off = black_first as usize;
    for (i, m) in moves.iter().enumerate() {
        let ply = i + off;
        if ply.is_multiple_of(2) {
            out.push(format!("{}. {m}", ply / 2 + 1));
        } else if i == 0 {
            out.push(format!("1... {m}"));
        } else {
            out.push(m.clone());
        }
    }
    out.join(" ")
}

/// What `endgame-test` plays.
#[derive(Clone, Debug)]
pub struct Settings<'a> {
    pub build: Build,
    pub limit: Limit,
    /// Games per class.
    pub games: usize,
    pub seed: u64,
    /// A scoring parameter file (full build only).
    pub params: Option<&'a std::path::Path>,
    /// Games played at once (threads, at least 1); the results do not depend on it.
    pub jobs: usize,
}

/// Run the bench: `games` positions per class. The start positions are drawn first (one
/// seeded stream), then each game is played by a fresh engine with its own seed for the
/// table's choices, so that the games are the same whatever the number of `jobs`; `progress`
/// sees them in order.
pub fn run(
    store: &mut Store,
    name: &str,
    s: &Settings,
    mut progress: impl FnMut(&Game),
) -> Result<Report, TablebaseError> {
    if let Limit::Level(level) = s.limit {
        if !(1..=8).contains(&level) {
            return Err(TablebaseError::Usage(format!(
                "level {level}: the firmware searches 1 to 8 plies"
            )));
        }
    }
    if s.jobs == 0 {
        return Err(TablebaseError::Usage(
            "--jobs 0: at least one game at a time".into(),
        ));
    }
    if store.metric != Metric::Dtm {
        return Err(TablebaseError::Usage(
            "endgame-test plays by the dtm tables".into(),
        ));
    }
    let t = store.table(name)?;
    let name = t.layout.name.clone();
    let params = s.params.map(ParamFile::load).transpose()?;
    let mut rng = Rng::new(s.seed);
    let mut starts = Vec::new();
    for class in [Class::Win, Class::Draw] {
        for _ in 0..s.games {
            starts.push((class, sample(store, &name, class, &mut rng)?));
        }
    }
    let store: &Store = store;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut done: Vec<Option<Game>> = vec![None; starts.len()];
    let mut report = Report::default();
    std::thread::scope(|scope| -> Result<(), TablebaseError> {
        for _ in 0..s.jobs.min(starts.len()).max(1) {
            let (tx, next, starts, params) = (tx.clone(), &next, &starts, &params);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((class, pos)) = starts.get(i) else {
                    return;
                };
                let game = (|| {
                    let mut engine = Engine::new(s.build)?;
                    if let Some(pf) = params {
                        engine.load_params(pf)?;
                    }
                    let mut rng = Rng::new(s.seed ^ ((i as u64 + 1) << 32));
                    play_game(store, &mut engine, s.limit, *class, pos.clone(), &mut rng)
                })();
                let stop = game.is_err();
                if tx.send((i, game)).is_err() || stop {
                    next.store(usize::MAX / 2, std::sync::atomic::Ordering::Relaxed);
                    return;
                }
            });
        }
        drop(tx);
        let mut shown = 0;
        for (i, game) in rx {
            done[i] = Some(game?);
            while let Some(Some(g)) = done.get(shown) {
                progress(g);
                shown += 1;
            }
        }
        Ok(())
    })?;
    report.games = done.into_iter().flatten().collect();
    Ok(report)
}

pub fn cli(args: &EndgameTestArgs) -> Result<(), String> {
    let mut store = Store::new(&args.dir, Metric::Dtm);
    store.verbose = true;
    let verbose = args.verbose;
    let limit = match args.movetime_emulated {
        Some(secs) if !(secs > 0.0 && secs.is_finite()) => {
            return Err(format!(
                "--movetime-emulated {secs}: give a positive number of seconds"
            ))
        }
        Some(secs) => Limit::TStates((secs * PERIOD_HZ as f64) as u64),
        None => Limit::Level(args.level),
    };
    let settings = Settings {
        build: args.build,
        limit,
        games: args.games,
        seed: args.seed,
        params: args.params.as_deref(),
        jobs: args.jobs,
    };
    let report = run(&mut store, &args.name, &settings, |g| {
        if verbose {
            println!(
                "{:5} {} {:50} {} — {}",
                match g.class {
                    Class::Win => "win",
                    Class::Draw => "draw",
                },
                if g.passed { "ok  " } else { "FAIL" },
                g.start,
                g.start_value,
                g.end
            );
        }
    })
    .map_err(|e| e.to_string())?;
    let name = store
        .table(&args.name)
        .map_err(|e| e.to_string())?
        .layout
        .name
        .clone();
    println!(
        "endgame-test {name}: build {}, {}, seed {}{}",
        args.build,
        match args.movetime_emulated {
            Some(secs) => format!("{secs} emulated seconds a move"),
            None => format!("level {}", args.level),
        },
        args.seed,
        match &args.params {
            Some(p) => format!(", parameters {}", p.display()),
            None => String::new(),
        }
    );
    let (c, n) = report.count(Class::Win);
    println!("wins to convert: {c} converted of {n}");
    if let Some((start, closest, k)) = report.progress() {
        println!(
            "wins not converted: {k}, mate in {start:.1} moves at the start on average, \
             the closest reached mate in {closest:.1}"
        );
    }
    let (h, n) = report.count(Class::Draw);
    println!("draws to hold:   {h} held of {n}");
    let failed: Vec<&Game> = report.games.iter().filter(|g| !g.passed).collect();
    if !failed.is_empty() {
        println!("failed games:");
        for g in &failed {
            match &g.throw {
                Some(t) => println!("  {}  {}: {} -> {}", t.fen, t.san, t.before, t.after),
                None => println!("  {}  ({}): {}", g.start, g.start_value, g.end),
            }
            if verbose {
                println!("    {}", movetext(&g.moves, g.start.ends_with(" b - -")));
            }
        }
    }
    let t = report.tstates_per_move();
    let moves: u32 = report.games.iter().map(|g| g.engine_moves).sum();
    println!(
        "T-states per engine move: {:.0} ({:.2} s at 2 MHz) over {moves} moves",
        t,
        t / PERIOD_HZ as f64
    );
    println!("{} passed, {} failed", report.passed(), report.failed());
    if report.failed() > 0 {
        return Err(format!(
            "{} of {} games failed (see above)",
            report.failed(),
            report.games.len()
        ));
    }
    Ok(())
}
