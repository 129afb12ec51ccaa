//! `z80chess tablebase compare-stockfish NAME`: random positions of a table against Debian's
//! `stockfish` (`apt-get install stockfish`; not needed by the tests). Stockfish searches each
//! with `go nodes N` and no tablebases of its own; wherever it reports a mate, the verdict must
//! agree with ours and its distance must not be shorter than ours (a shorter forced mate than
//! the table's would mean the table is wrong; a longer one is only a search that has not found
//! the best line). A mate score is a search result, not a proof: when one disagrees, the
//! position is searched again with four times the nodes, and those that then agree are listed
//! apart.

use super::endgame_test::Rng;
use super::men;
use super::store::{chess_of, Store, Table};
use super::{generate, TablebaseError, Val};
use shakmaty::Position;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &Path) -> Result<Engine, TablebaseError> {
        let mut candidates = vec![path.to_path_buf()];
        if path == Path::new("stockfish") {
            candidates.push(PathBuf::from("/usr/games/stockfish"));
        }
        let mut last = None;
        for p in candidates {
            match Command::new(&p)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
            {
                Ok(mut child) => {
                    let input = child.stdin.take().expect("piped");
                    let output = BufReader::new(child.stdout.take().expect("piped"));
                    let mut e = Engine {
                        child,
                        input,
                        output,
                    };
                    e.send("uci")?;
                    e.until("uciok")?;
                    e.send("setoption name Threads value 1")?;
                    e.send("setoption name Hash value 64")?;
                    e.send("isready")?;
                    e.until("readyok")?;
                    return Ok(e);
                }
                Err(err) => last = Some(format!("cannot run {}: {err}", p.display())),
            }
        }
        Err(TablebaseError::Stockfish(format!(
            "{} (Debian: apt-get install stockfish)",
            last.unwrap_or_default()
        )))
    }

    fn send(&mut self, line: &str) -> Result<(), TablebaseError> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| TablebaseError::Stockfish(format!("writing '{line}': {e}")))
    }

    fn line(&mut self) -> Result<String, TablebaseError> {
        let mut s = String::new();
        let n = self
            .output
            .read_line(&mut s)
            .map_err(|e| TablebaseError::Stockfish(e.to_string()))?;
        if n == 0 {
            return Err(TablebaseError::Stockfish("it closed its output".into()));
        }
        Ok(s.trim().to_string())
    }

    fn until(&mut self, word: &str) -> Result<(), TablebaseError> {
        while !self.line()?.starts_with(word) {}
        Ok(())
    }

    /// The last score of a search: Some(mate in moves, signed) or None (centipawns only).
    fn search(&mut self, fen: &str, nodes: u64) -> Result<Option<i32>, TablebaseError> {
        self.send("ucinewgame")?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go nodes {nodes}"))?;
        let mut mate = None;
        loop {
            let l = self.line()?;
            if l.starts_with("bestmove") {
                return Ok(mate);
            }
            let w: Vec<&str> = l.split_whitespace().collect();
            if let Some(i) = w.iter().position(|&x| x == "score") {
                mate = match (w.get(i + 1), w.get(i + 2)) {
                    (Some(&"mate"), Some(m)) => m.parse().ok(),
                    _ => None,
                };
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

pub fn compare(
    store: &Store,
    table: &Table,
    positions: usize,
    nodes: u64,
    stockfish: &Path,
    seed: u64,
) -> Result<(), TablebaseError> {
    let l = &table.layout;
    let mut sf = Engine::start(stockfish)?;
    let mut rng = Rng::new(seed);
    let (mut n, mut mates, mut equal, mut longer, mut bad) = (0, 0, 0, 0, Vec::new());
    let mut rechecked = Vec::new();
    let mut no_mate = [0usize; 3];
    while n < positions {
        let idx = rng.below(table.data.len());
        let Some(ours) = table.get(idx) else { continue };
        let (stm, sq, ep) = l.decode(idx).expect("a stored position decodes");
        let fen = men::fen(&l.men(&sq), stm, generate::ep_target(l, &sq, ep));
        let pos = chess_of(&fen)?;
        // game over, or a check no move could have given: nothing to ask
        if pos.is_game_over() || crate::firmware::parse_fen(&fen).is_err() {
            continue;
        }
        debug_assert_eq!(store.probe(&pos)?, ours);
        n += 1;
        match sf.search(&fen, nodes)? {
            None => {
                no_mate[match ours {
                    Val::Win(_) => 0,
                    Val::Draw => 1,
                    Val::Loss(_) => 2,
                }] += 1
            }
            Some(m) => {
                mates += 1;
                let agrees = |m: i32| match ours {
                    Val::Win(_) => m > 0 && m as u32 >= ours.moves().unwrap(),
                    Val::Loss(_) => m < 0 && m.unsigned_abs() >= ours.moves().unwrap(),
                    Val::Draw => false,
                };
                let mut m = m;
                if !agrees(m) {
                    // A mate score is not a proof (a pruned defence makes a mate look
                    // shorter): ask again with four times the nodes before calling it wrong.
                    let again = sf.search(&fen, 4 * nodes)?;
                    match again {
                        Some(m2) if agrees(m2) => {
                            rechecked.push(format!(
                                "  {fen}: ours {ours}, stockfish mate {m}, then {m2} with {} nodes",
                                4 * nodes
                            ));
                            m = m2;
                        }
                        _ => {
                            bad.push(format!(
                                "  {fen}: ours {ours}, stockfish mate {m}, then {again:?} with {} nodes",
                                4 * nodes
                            ));
                            continue;
                        }
                    }
                }
                if m.unsigned_abs() == ours.moves().unwrap() {
                    equal += 1;
                } else {
                    longer += 1;
                }
            }
        }
    }
    println!(
        "{} against stockfish (go nodes {nodes}), {n} random positions, seed {seed}:",
        l.name
    );
    println!(
        "stockfish reports a mate in {mates}: {equal} at our distance, {longer} longer, {} wrong",
        bad.len()
    );
    println!(
        "no mate reported in {}: ours {} wins, {} draws, {} losses",
        no_mate.iter().sum::<usize>(),
        no_mate[0],
        no_mate[1],
        no_mate[2]
    );
    if !rechecked.is_empty() {
        println!(
            "{} agreed only on a deeper search (its first mate was shorter than ours):",
            rechecked.len()
        );
        for r in &rechecked {
            println!("{r}");
        }
    }
    for b in &bad {
        println!("{b}");
    }
    println!("{} agree, {} disagree", mates - bad.len(), bad.len());
    if bad.is_empty() {
        Ok(())
    } else {
        Err(TablebaseError::Stockfish(format!(
            "{} positions where stockfish's mate contradicts the table",
            bad.len()
        )))
    }
}
