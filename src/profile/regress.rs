//! The regression runner: searches over recorded positions, golden files, comparison.
//!
//! Input files:
//! - **EPD**: four FEN fields, then `opcode operands;` operations. Read: `bm` (best moves,
//!   SAN), `am` (moves to avoid), `id`, `level` (this position's search depth; this runner's
//!   own opcode), `hmvc`/`fmvn` (the FEN's clocks). A position passes when the engine's move
//!   is one of `bm` and none of `am`.
//! - **TSV** with a header row naming its columns, as `sargon1978_tests.tsv`: `fen`, and
//!   optionally `id`, the level (`level` or `plymax`) and the expected move (`bm`, `move`,
//!   `expected`, or a column whose name ends in `move_uci`; UCI or SAN). Lines starting with
//!   `#` are comments.
//!
//! A position listed more than once at the same level accepts any of the moves given for it:
//! the 1978 suite lists the initial position twice (SARGON.17 d2d4, SARGON.18 e2e4), because
//! the book picks either by the R register.
//!
//! Every position runs in a freshly booted machine, loaded by the 1978 suite's convention
//! ([`sargon::load`]), so a result never depends on the order or the number of threads.
//! The firmware reports its move and score only: the principal variation is that move alone.

use super::evals::Limit;
use crate::firmware::{parse_fen, sargon, Build, Engine, SearchKind};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// One recorded position and what is expected of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub id: String,
    /// The full FEN (EPD positions get their clocks from `hmvc`/`fmvn`, or "0 1").
    pub fen: String,
    /// The level the file gives it, if any.
    pub level: Option<u8>,
    /// Moves that pass (UCI); empty: any move not in `avoid`.
    pub best: Vec<String>,
    /// Moves that fail (UCI).
    pub avoid: Vec<String>,
    /// file:line, for messages.
    pub origin: String,
}

impl Case {
    /// Does the case say anything about the move?
    pub fn checked(&self) -> bool {
        !self.best.is_empty() || !self.avoid.is_empty()
    }
    /// Does `uci` pass?
    pub fn accepts(&self, uci: &str) -> bool {
        (self.best.is_empty() || self.best.iter().any(|m| m == uci))
            && !self.avoid.iter().any(|m| m == uci)
    }
}

/// A move written in UCI or SAN, as a legal move of `pos` in UCI.
fn resolve(pos: &Chess, text: &str) -> Result<String, String> {
    if let Ok(u) = text.parse::<UciMove>() {
        if let Ok(m) = u.to_move(pos) {
            return Ok(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        }
    }
    let san: SanPlus = text
        .parse()
        .map_err(|_| format!("'{text}' is neither UCI nor SAN"))?;
    let m = san
        .san
        .to_move(pos)
        .map_err(|e| format!("'{text}' is not a legal move here ({e})"))?;
    Ok(m.to_uci(shakmaty::CastlingMode::Standard).to_string())
}

/// EPD operations: `op operand operand; op ...;` (quoted operands may hold spaces or ';').
fn epd_ops(text: &str) -> Vec<(String, Vec<String>)> {
    let mut ops = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut has_word = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                has_word = true;
            }
            ';' if !quoted => {
                if has_word {
                    words.push(std::mem::take(&mut word));
                    has_word = false;
                }
                if !words.is_empty() {
                    let op = words.remove(0);
                    ops.push((op, std::mem::take(&mut words)));
                }
            }
            c if c.is_whitespace() && !quoted => {
                if has_word {
                    words.push(std::mem::take(&mut word));
                    has_word = false;
                }
            }
            c => {
                word.push(c);
                has_word = true;
            }
        }
    }
    if has_word {
        words.push(word);
    }
    if !words.is_empty() {
        let op = words.remove(0);
        ops.push((op, words));
    }
    ops
}

fn parse_level(text: &str, at: &str) -> Result<u8, String> {
    match text.trim().parse::<u8>() {
        Ok(l) if (1..=8).contains(&l) => Ok(l),
        _ => Err(format!("{at}: level '{text}' is not 1..8")),
    }
}

fn parse_epd(text: &str, name: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let mut fields = line.splitn(5, char::is_whitespace);
        let fen4: Vec<&str> = fields.by_ref().take(4).collect();
        if fen4.len() < 4 {
            return Err(format!("{at}: an EPD line starts with four FEN fields"));
        }
        let ops = epd_ops(fields.next().unwrap_or(""));
        let op = |k: &str| ops.iter().find(|(o, _)| o == k).map(|(_, v)| v.clone());
        let clock = |k: &str, d: &str| {
            op(k)
                .and_then(|v| v.first().cloned())
                .unwrap_or_else(|| d.to_string())
        };
        let fen = format!(
            "{} {} {} {} {} {}",
            fen4[0],
            fen4[1],
            fen4[2],
            fen4[3],
            clock("hmvc", "0"),
            clock("fmvn", "1")
        );
        let pos = parse_fen(&fen).map_err(|e| format!("{at}: {e}"))?;
        let moves = |k: &str| -> Result<Vec<String>, String> {
            op(k)
                .unwrap_or_default()
                .iter()
                .map(|m| resolve(&pos, m).map_err(|e| format!("{at}: {k} {e}")))
                .collect()
        };
        let level = match op("level").and_then(|v| v.first().cloned()) {
            Some(l) => Some(parse_level(&l, &at)?),
            None => None,
        };
        cases.push(Case {
            id: op("id")
                .and_then(|v| v.first().cloned())
                .unwrap_or_else(|| format!("{name}:{}", i + 1)),
            fen,
            level,
            best: moves("bm")?,
            avoid: moves("am")?,
            origin: at,
        });
    }
    Ok(cases)
}

fn parse_tsv(text: &str, name: &str) -> Result<Vec<Case>, String> {
    let mut header: Option<Vec<String>> = None;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let cols: Vec<&str> = line.split('\t').collect();
        let Some(h) = &header else {
            header = Some(cols.iter().map(|c| c.trim().to_ascii_lowercase()).collect());
            continue;
        };
        let find = |names: &[&str]| h.iter().position(|c| names.contains(&c.as_str()));
        let fen_col = find(&["fen"]).ok_or(format!("{name}: no 'fen' column"))?;
        let level_col = find(&["level", "plymax"]);
        let move_col = find(&["bm", "move", "expected"])
            .or_else(|| h.iter().position(|c| c.ends_with("move_uci")));
        let get = |k: Option<usize>| {
            k.and_then(|k| cols.get(k))
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
        };
        let fen = get(Some(fen_col)).ok_or(format!("{at}: no FEN"))?;
        let pos = parse_fen(fen).map_err(|e| format!("{at}: {e}"))?;
        let best = match get(move_col) {
            Some(m) => m
                .split_whitespace()
                .map(|m| resolve(&pos, m).map_err(|e| format!("{at}: {e}")))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        cases.push(Case {
            id: get(find(&["id"]))
                .map(str::to_string)
                .unwrap_or_else(|| format!("{name}:{}", i + 1)),
            fen: fen.to_string(),
            level: get(level_col).map(|l| parse_level(l, &at)).transpose()?,
            best,
            avoid: Vec::new(),
            origin: at,
        });
    }
    Ok(cases)
}

/// Parse a file's text (`name` for messages and default ids): TSV when its first line that
/// is not a comment has a tab, EPD otherwise. Positions repeated at the same level accept the
/// union of their moves.
pub fn parse_cases(text: &str, name: &str) -> Result<Vec<Case>, String> {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let mut cases = match first {
        Some(l) if l.contains('\t') => parse_tsv(text, name)?,
        _ => parse_epd(text, name)?,
    };
    type Moves = (Vec<String>, Vec<String>);
    let mut union: HashMap<(String, Option<u8>), Moves> = HashMap::new();
    for c in &cases {
        let e = union.entry((c.fen.clone(), c.level)).or_default();
        e.0.extend(c.best.iter().cloned());
        e.1.extend(c.avoid.iter().cloned());
    }
    for c in &mut cases {
        let (b, a) = &union[&(c.fen.clone(), c.level)];
        let mut b = b.clone();
        b.sort();
        b.dedup();
        let mut a = a.clone();
        a.sort();
        a.dedup();
        c.best = b;
        c.avoid = a;
    }
    Ok(cases)
}

/// Read and parse a file of positions.
pub fn load_cases(path: &std::path::Path) -> Result<Vec<Case>, String> {
    let text = crate::userfile::read_text(path, crate::userfile::MAX_FILE)
        .map_err(|e| format!("{}: {}", path.display(), e.reason()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| path.display().to_string());
    parse_cases(&text, &name)
}

/// What a position gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail,
    /// The case expects nothing.
    Unchecked,
    /// The firmware refused the position or stopped.
    Error,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Unchecked => "-",
            Verdict::Error => "error",
        }
    }
    fn parse(s: &str) -> Option<Verdict> {
        Some(match s {
            "pass" => Verdict::Pass,
            "fail" => Verdict::Fail,
            "-" => Verdict::Unchecked,
            "error" => Verdict::Error,
            _ => return None,
        })
    }
}

/// One position searched by one build: a golden file's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub id: String,
    pub build: Build,
    pub level: u8,
    pub fen: String,
    /// The move (UCI), or the error text.
    pub mv: String,
    /// The move in SAN: also the principal variation, since the firmware reports no more.
    pub san: String,
    pub score: crate::firmware::Score,
    pub kind: SearchKind,
    pub nodes: u32,
    pub evaluations: u32,
    pub xchng_calls: u32,
    pub tstates: u64,
    pub verdict: Verdict,
}

impl Outcome {
    fn key(&self) -> (String, Build, u8, String) {
        (self.id.clone(), self.build, self.level, self.fen.clone())
    }
}

fn kind_word(k: SearchKind) -> &'static str {
    match k {
        SearchKind::Searched => "searched",
        SearchKind::Book => "book",
        SearchKind::Stopped => "stopped",
        SearchKind::Overflow => "overflow",
    }
}

fn kind_parse(s: &str) -> Option<SearchKind> {
    Some(match s {
        "searched" => SearchKind::Searched,
        "book" => SearchKind::Book,
        "stopped" => SearchKind::Stopped,
        "overflow" => SearchKind::Overflow,
        _ => return None,
    })
}

/// The score as pawns from the engine's side ("mate" / "mated" when it is one).
pub fn score_text(score: crate::firmware::Score) -> String {
    match score.mate() {
        Some(true) => "mate".into(),
        Some(false) => "mated".into(),
        None => format!("{:+.3}", score.pawns()),
    }
}

/// Search one position with one build at `level`, in a fresh machine.
pub fn run_case(case: &Case, build: Build, level: u8) -> Outcome {
    run_case_with(case, build, level, None)
}

/// As [`run_case`], with a parameter file for the full build.
pub fn run_case_with(
    case: &Case,
    build: Build,
    level: u8,
    params: Option<&crate::firmware::params::ParamFile>,
) -> Outcome {
    run_case_limited(
        case,
        build,
        Limit::Level {
            level,
            iterate: false,
        },
        params,
    )
}

/// As [`run_case_with`], the search under `limit` (a level, or an emulated time with the
/// deepest level: the outcome's level).
pub fn run_case_limited(
    case: &Case,
    build: Build,
    limit: Limit,
    params: Option<&crate::firmware::params::ParamFile>,
) -> Outcome {
    let level = limit.level();
    let mut out = Outcome {
        id: case.id.clone(),
        build,
        level,
        fen: case.fen.clone(),
        mv: String::new(),
        san: String::new(),
        score: crate::firmware::Score::Byte(0),
        kind: SearchKind::Searched,
        nodes: 0,
        evaluations: 0,
        xchng_calls: 0,
        tstates: 0,
        verdict: Verdict::Error,
    };
    let result = (|| -> Result<(Chess, crate::firmware::SearchResult), String> {
        let pos = parse_fen(&case.fen).map_err(|e| e.to_string())?;
        if pos.legal_moves().is_empty() {
            return Err("no legal move".into());
        }
        let mut engine = Engine::new(build).map_err(|e| e.to_string())?;
        if let (Build::Full, Some(pf)) = (build, params) {
            engine.load_params(pf).map_err(|e| e.to_string())?;
        }
        sargon::load(&mut engine, &pos).map_err(|e| e.to_string())?;
        let r = limit.search(&mut engine)?;
        Ok((pos, r))
    })();
    match result {
        Err(e) => out.mv = format!("error: {e}"),
        Ok((pos, r)) => {
            out.mv = r.best.uci();
            out.san = match r.best.to_move(&pos) {
                Some(m) => SanPlus::from_move(pos.clone(), m).to_string(),
                None => "(illegal)".into(),
            };
            out.score = r.score;
            out.kind = r.kind;
            out.nodes = r.nodes;
            out.evaluations = r.evaluations;
            out.xchng_calls = r.xchng_calls;
            out.tstates = r.tstates;
            out.verdict = if r.best.to_move(&pos).is_none() {
                Verdict::Fail
            } else if !case.checked() {
                Verdict::Unchecked
            } else if case.accepts(&out.mv) {
                Verdict::Pass
            } else {
                Verdict::Fail
            };
        }
    }
    out
}

/// How to run a set of cases.
#[derive(Clone, Debug)]
pub struct Options {
    pub builds: Vec<Build>,
    /// The level of cases whose file gives none.
    pub level: Option<u8>,
    /// Skip cases above this level (book positions, which cost nothing, always run).
    pub max_level: Option<u8>,
    /// The full build's parameter file (the period builds have none and ignore it).
    pub params: Option<crate::firmware::params::ParamFile>,
    /// Worker threads (each position runs in its own machine).
    pub jobs: usize,
}

/// A unit of work: a case, a build and its level.
#[derive(Clone, Debug)]
pub struct Job {
    pub case: usize,
    pub build: Build,
    pub level: u8,
}

/// The jobs for `cases`, and the cases skipped by `max_level` (by index). A case with no level
/// anywhere is an error.
pub fn plan(cases: &[Case], opts: &Options) -> Result<(Vec<Job>, Vec<usize>), String> {
    let mut jobs = Vec::new();
    let mut skipped = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let level = c
            .level
            .or(opts.level)
            .ok_or_else(|| format!("{}: no level in the file; give one with --level", c.origin))?;
        if let Some(max) = opts.max_level {
            let book = parse_fen(&c.fen)
                .map(|p| sargon::is_book_position(&p))
                .unwrap_or(false);
            if level > max && !book {
                skipped.push(i);
                continue;
            }
        }
        for &build in &opts.builds {
            jobs.push(Job {
                case: i,
                build,
                level,
            });
        }
    }
    Ok((jobs, skipped))
}

/// Run `jobs` on `opts.jobs` threads; `each` sees every outcome in job order as soon as it
/// and all before it are done. Returns the outcomes in job order.
pub fn run(
    cases: &[Case],
    jobs: &[Job],
    threads: usize,
    each: impl FnMut(usize, &Outcome),
) -> Vec<Outcome> {
    run_with(cases, jobs, threads, None, each)
}

/// As [`run`], with a parameter file for the full build's jobs.
pub fn run_with(
    cases: &[Case],
    jobs: &[Job],
    threads: usize,
    params: Option<&crate::firmware::params::ParamFile>,
    each: impl FnMut(usize, &Outcome),
) -> Vec<Outcome> {
    run_timed(cases, jobs, threads, params, None, &|_| {}, each)
}

/// As [`run_with`]; with `movetime` (seconds of emulated time at 2 MHz), every job searches
/// iteratively to at most its level and moves after that time (`regress --movetime-emulated`).
/// `started` hears each job's index as a thread takes it up.
pub fn run_timed(
    cases: &[Case],
    jobs: &[Job],
    threads: usize,
    params: Option<&crate::firmware::params::ParamFile>,
    movetime: Option<f64>,
    started: &(dyn Fn(usize) + Sync),
    mut each: impl FnMut(usize, &Outcome),
) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    let mut done: Vec<Option<Outcome>> = vec![None; jobs.len()];
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(jobs.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(j) = jobs.get(k) else { break };
                started(k);
                let limit = match movetime {
                    Some(secs) => Limit::Time {
                        secs,
                        level: j.level,
                    },
                    None => Limit::Level {
                        level: j.level,
                        iterate: false,
                    },
                };
                let o = run_case_limited(&cases[j.case], j.build, limit, params);
                if tx.send((k, o)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut shown = 0;
        for (k, o) in rx {
            done[k] = Some(o);
            while let Some(Some(o)) = done.get(shown) {
                each(shown, o);
                shown += 1;
            }
        }
    });
    done.into_iter()
        .map(|o| o.expect("every job ran"))
        .collect()
}

/// How often the bar is drawn again while a search goes on (its spinner and elapsed time).
const TICK: std::time::Duration = std::time::Duration::from_millis(250);

/// The bar `regress` draws on `target` over `n` searches: a spinner, the searches done, the
/// time elapsed and left, the position the last search started on, then the bar in the
/// width left (so nothing is cut on an 80-column terminal).
pub fn progress_bar(n: usize, target: ProgressDrawTarget) -> Result<ProgressBar, String> {
    let bar = ProgressBar::with_draw_target(Some(n as u64), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {pos}/{len} searches, {elapsed} ({eta} left)  {msg}  {wide_bar}",
        )
        .map_err(|e| e.to_string())?,
    );
    Ok(bar)
}

/// As [`run_timed`], showing the run on `bar` from its start: each search names its position
/// on the bar as it starts (`searching WAC.001 (1 of 30)`), and the bar is drawn again every
/// quarter second while a search goes on. `each` runs with the bar suspended, so what it
/// prints does not mix with the bar.
pub fn run_shown(
    cases: &[Case],
    jobs: &[Job],
    threads: usize,
    params: Option<&crate::firmware::params::ParamFile>,
    movetime: Option<f64>,
    bar: &ProgressBar,
    mut each: impl FnMut(usize, &Outcome),
) -> Vec<Outcome> {
    let n = jobs.len();
    let started = |k: usize| {
        let case = &cases[jobs[k].case];
        let name = if case.id.is_empty() {
            &case.origin
        } else {
            &case.id
        };
        bar.set_message(format!("searching {name} ({} of {n})", k + 1));
    };
    bar.enable_steady_tick(TICK);
    let outcomes = run_timed(cases, jobs, threads, params, movetime, &started, |k, o| {
        bar.inc(1);
        bar.suspend(|| each(k, o));
    });
    bar.finish_and_clear();
    outcomes
}

/// A result as one line of the report.
/// What a checked case wanted, in SAN from its position: `expected Rxb2` (`expected Rxb2 or
/// Qc3`), `expected not Qxb2`; empty for a case that checks nothing.
pub fn expected(case: &Case) -> String {
    use shakmaty::Position;
    let pos = crate::firmware::parse_fen(&case.fen).ok();
    let san = |uci: &String| -> String {
        pos.as_ref()
            .and_then(|p| {
                let m = uci
                    .parse::<shakmaty::uci::UciMove>()
                    .ok()?
                    .to_move(p)
                    .ok()?;
                p.is_legal(m)
                    .then(|| shakmaty::san::SanPlus::from_move(p.clone(), m).to_string())
            })
            .unwrap_or_else(|| uci.clone())
    };
    let list = |ms: &[String]| ms.iter().map(san).collect::<Vec<_>>().join(" or ");
    match (case.best.is_empty(), case.avoid.is_empty()) {
        (false, _) => format!("expected {}", list(&case.best)),
        (true, false) => format!("expected not {}", list(&case.avoid)),
        (true, true) => String::new(),
    }
}

pub fn describe(o: &Outcome) -> String {
    if o.verdict == Verdict::Error {
        return format!("{:<12} {:<7} L{} {}", o.id, o.build.name(), o.level, o.mv);
    }
    format!(
        "{:<12} {:<7} L{} {:<6} score {:<7} pv {:<8} nodes {:>7} T {:>15} {}",
        o.id,
        o.build.name(),
        o.level,
        o.mv,
        if o.kind == SearchKind::Book {
            "book".to_string()
        } else {
            score_text(o.score)
        },
        o.san,
        o.nodes,
        group(o.tstates),
        o.verdict.word()
    )
}

pub use crate::session::group;

const GOLDEN_HEADER: &str =
    "id\tbuild\tlevel\tmove\tsan\tscore\tkind\tnodes\tevaluations\txchng\ttstates\tresult\tfen";

/// The outcomes as a golden file, with a comment line naming the full build's parameter file
/// and its hash when one was used.
pub fn golden_text_params(
    outcomes: &[Outcome],
    params: Option<&crate::firmware::params::ParamFile>,
) -> String {
    let text = golden_text(outcomes);
    match params {
        None => text,
        Some(pf) => {
            let at = text.find(GOLDEN_HEADER).unwrap_or(0);
            format!(
                "{}# params: {} (hash {}; the full build's runs)\n{}",
                &text[..at],
                pf.source,
                pf.hash(),
                &text[at..]
            )
        }
    }
}

/// The outcomes as a golden file (TSV).
pub fn golden_text(outcomes: &[Outcome]) -> String {
    let mut s = String::from(
        "# z80chess regress results (z80chess regress FILE... --record OUT).\n\
         # score: the firmware's byte (80h = the root's value), the full build's word (256 = a pawn);\n\
         # nodes: moves made by the search.\n\
         # The firmware reports only its move: the principal variation is that move alone (san).\n",
    );
    s.push_str(GOLDEN_HEADER);
    s.push('\n');
    for o in outcomes {
        s.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            o.id,
            o.build.name(),
            o.level,
            o.mv,
            o.san,
            o.score.raw(),
            kind_word(o.kind),
            o.nodes,
            o.evaluations,
            o.xchng_calls,
            o.tstates,
            o.verdict.word(),
            o.fen
        ));
    }
    s
}

/// Read a golden file.
pub fn parse_golden(text: &str, name: &str) -> Result<Vec<Outcome>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') || line == GOLDEN_HEADER {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 13 {
            return Err(format!("{at}: {} fields, not 13", f.len()));
        }
        let num = |k: usize| -> Result<u64, String> {
            f[k].parse::<u64>()
                .map_err(|_| format!("{at}: field {} '{}' is not a number", k + 1, f[k]))
        };
        let build = match f[1] {
            "article" => Build::Article,
            "1978" => Build::B1978,
            "full" => Build::Full,
            b => return Err(format!("{at}: unknown build '{b}'")),
        };
        out.push(Outcome {
            id: f[0].to_string(),
            build,
            level: num(2)? as u8,
            mv: f[3].to_string(),
            san: f[4].to_string(),
            score: f[5]
                .parse::<i64>()
                .ok()
                .and_then(|v| crate::firmware::Score::from_raw(build, v))
                .ok_or(format!("{at}: field 6 '{}' is not a {build} score", f[5]))?,
            kind: kind_parse(f[6]).ok_or(format!("{at}: unknown kind '{}'", f[6]))?,
            nodes: num(7)? as u32,
            evaluations: num(8)? as u32,
            xchng_calls: num(9)? as u32,
            tstates: num(10)?,
            verdict: Verdict::parse(f[11]).ok_or(format!("{at}: unknown result '{}'", f[11]))?,
            fen: f[12].to_string(),
        });
    }
    Ok(out)
}

/// What changed against a baseline.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// One line per change (moves, T-states), then positions new or missing.
    pub lines: Vec<String>,
    pub same: usize,
    pub moves_changed: usize,
    pub dearer: usize,
    pub beyond_tolerance: usize,
    pub cheaper: usize,
    pub new: usize,
    pub missing: usize,
    /// Positions (id, build, level, FEN) both in the run and in the baseline.
    pub common: usize,
}

impl Comparison {
    /// A move changed, a cost grew beyond the tolerance, or nothing was compared (no position
    /// of the run is in the baseline: another file, build or level).
    pub fn failed(&self) -> bool {
        self.moves_changed > 0 || self.beyond_tolerance > 0 || self.common == 0
    }
    pub fn summary(&self) -> String {
        format!(
            "compare: {} unchanged, {} moves changed, {} dearer ({} beyond tolerance), {} cheaper, {} new, {} not run",
            self.same,
            self.moves_changed,
            self.dearer,
            self.beyond_tolerance,
            self.cheaper,
            self.new,
            self.missing
        )
    }
}

/// Compare `current` with `baseline`: every changed move, every T-state change with its
/// percentage; growth beyond `tolerance_pct` percent fails.
pub fn compare(baseline: &[Outcome], current: &[Outcome], tolerance_pct: f64) -> Comparison {
    let mut c = Comparison::default();
    let base: HashMap<_, &Outcome> = baseline.iter().map(|o| (o.key(), o)).collect();
    let mut seen = std::collections::HashSet::new();
    for o in current {
        let label = format!("{} {} L{}", o.id, o.build.name(), o.level);
        let Some(b) = base.get(&o.key()) else {
            c.new += 1;
            c.lines
                .push(format!("{label}: new (not in the baseline): {}", o.mv));
            continue;
        };
        seen.insert(o.key());
        c.common += 1;
        let mut changed = false;
        if b.mv != o.mv {
            changed = true;
            c.moves_changed += 1;
            c.lines.push(format!(
                "{label}: MOVE CHANGED {} ({}) -> {} ({}), {} -> {}",
                b.san,
                b.mv,
                o.san,
                o.mv,
                b.verdict.word(),
                o.verdict.word()
            ));
        }
        if b.tstates != o.tstates {
            changed = true;
            let pct = if b.tstates == 0 {
                f64::INFINITY
            } else {
                (o.tstates as f64 - b.tstates as f64) * 100.0 / b.tstates as f64
            };
            let beyond = o.tstates > b.tstates && pct > tolerance_pct;
            if o.tstates > b.tstates {
                c.dearer += 1;
            } else {
                c.cheaper += 1;
            }
            if beyond {
                c.beyond_tolerance += 1;
            }
            c.lines.push(format!(
                "{label}: T-states {} -> {} ({pct:+.2}%){}",
                group(b.tstates),
                group(o.tstates),
                if beyond {
                    format!(" beyond the tolerance of {tolerance_pct}%")
                } else {
                    String::new()
                }
            ));
        }
        if !changed {
            c.same += 1;
        }
    }
    for b in baseline {
        if !seen.contains(&b.key()) {
            c.missing += 1;
            c.lines.push(format!(
                "{} {} L{}: in the baseline, not run",
                b.id,
                b.build.name(),
                b.level
            ));
        }
    }
    if c.common == 0 {
        c.lines.push(
            "nothing compared: no position of this run (id, build, level, FEN) is in the \
             baseline"
                .into(),
        );
    }
    c
}

/// Count (passed, failed) outcomes; errors count as failed, unchecked ones as neither.
pub fn tally(outcomes: &[Outcome]) -> (usize, usize) {
    let passed = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Pass)
        .count();
    let failed = outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Fail | Verdict::Error))
        .count();
    (passed, failed)
}
