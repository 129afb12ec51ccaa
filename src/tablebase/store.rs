//! Tables on disk and in memory, and the value of any position whose material is held.
//!
//! File format (`DIR/NAME.dtm`, `DIR/NAME.pawn`): one header line
//! `z80chess-tablebase 2 NAME METRIC SIZE crc32 XXXXXXXX generator G`, then SIZE bytes, one per
//! index (see [`super::layout`]): 0 draw, 255 not a position, otherwise plies + 1 (odd plies:
//! the side to move wins). `crc32` is the CRC-32 of the SIZE bytes and `G` is
//! [`GENERATOR`]; a table whose header, size, checksum or generator differs is refused by name
//! (never used) and `tablebase build` rebuilds it.

use super::layout::{canonical, material_key, Layout};
use super::men::*;
use super::{generate, Metric, TablebaseError, Val};
use crate::chess::{Colour, PieceType};
use shakmaty::{Chess, EnPassantMode, Position};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The version of the file format.
pub const FORMAT: u32 = 2;

/// The version of the generator whose tables this build reads: raised whenever a table's
/// content would change, so a table built by another generator is rebuilt, not trusted.
pub const GENERATOR: u32 = 1;

/// A table file's header line (without the newline) for `data`.
fn header(name: &str, metric: Metric, data: &[u8]) -> String {
    format!(
        "z80chess-tablebase {FORMAT} {name} {} {} crc32 {:08x} generator {GENERATOR}",
        metric.suffix(),
        data.len(),
        crc32fast::hash(data)
    )
}

/// One table in memory.
pub struct Table {
    pub layout: Layout,
    pub metric: Metric,
    pub data: Vec<u8>,
}

impl Table {
    /// The value stored at an index (`None`: not a position).
    pub fn get(&self, idx: usize) -> Option<Val> {
        Val::of_byte(self.data[idx])
    }
}

/// What one build cost.
#[derive(Clone, Debug)]
pub struct BuildReport {
    pub name: String,
    pub seconds: f64,
    pub bytes: usize,
}

/// The tables of one directory and one metric, loaded or built as they are asked for.
pub struct Store {
    pub dir: PathBuf,
    pub metric: Metric,
    tables: Vec<Arc<Table>>,
    /// Say on stderr what table is built and where before building it, show progress while
    /// building (when stderr is a terminal), and print a line per table built.
    pub verbose: bool,
    /// Every table built by this store, in order.
    pub built: Vec<BuildReport>,
    /// Build a table again over a file that fails its checks (otherwise it is refused).
    pub rebuild: bool,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TablebaseError + '_ {
    move |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Store {
    pub fn new(dir: impl Into<PathBuf>, metric: Metric) -> Store {
        Store {
            dir: dir.into(),
            metric,
            tables: Vec::new(),
            verbose: false,
            built: Vec::new(),
            rebuild: false,
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.{}", self.metric.suffix()))
    }

    /// The table of `name` (any spelling Layout::parse accepts), loaded from the directory
    /// or built (with every sub-ending it needs) and saved there.
    pub fn table(&mut self, name: &str) -> Result<Arc<Table>, TablebaseError> {
        let layout = Layout::parse(name)?;
        if let Some(t) = self.loaded(&layout.name) {
            return Ok(t);
        }
        for sub in layout.sub_endings(self.metric == Metric::Dtm) {
            self.table(&sub)?;
        }
        match self.load(&layout) {
            Ok(Some(t)) => return Ok(t),
            Ok(None) => {}
            // `tablebase build` replaces a table that failed its checks.
            Err(TablebaseError::Corrupt { .. }) if self.rebuild => {}
            Err(e) => return Err(e),
        }
        if self.verbose {
            eprintln!(
                "building table {} ({}, {} indices) into {}",
                layout.name,
                self.metric.suffix(),
                layout.size(),
                self.path(&layout.name).display()
            );
        }
        let t0 = Instant::now();
        let data = generate::generate(&layout, self.metric, self)?;
        let seconds = t0.elapsed().as_secs_f64();
        let table = Table {
            layout,
            metric: self.metric,
            data,
        };
        self.save(&table)?;
        if self.verbose {
            eprintln!(
                "built {} ({}) in {:.2} s: {} bytes",
                table.layout.name,
                self.metric.suffix(),
                seconds,
                table.data.len()
            );
        }
        self.built.push(BuildReport {
            name: table.layout.name.clone(),
            seconds,
            bytes: table.data.len(),
        });
        let t = Arc::new(table);
        self.tables.push(t.clone());
        Ok(t)
    }

    /// A table already in memory.
    pub fn loaded(&self, canonical_name: &str) -> Option<Arc<Table>> {
        self.tables
            .iter()
            .find(|t| t.layout.name == canonical_name)
            .cloned()
    }

    /// Load `name` and its sub-endings from the directory if they are all there; never builds.
    pub fn open(&mut self, name: &str) -> Result<Option<Arc<Table>>, TablebaseError> {
        let layout = Layout::parse(name)?;
        if let Some(t) = self.loaded(&layout.name) {
            return Ok(Some(t));
        }
        self.load(&layout)
    }

    fn load(&mut self, layout: &Layout) -> Result<Option<Arc<Table>>, TablebaseError> {
        let path = self.path(&layout.name);
        if !path.exists() {
            return Ok(None);
        }
        // a table is its size plus a header line of well under 1 KiB
        let cap = layout.size() as u64 + 1024;
        let bytes = crate::userfile::read(&path, cap).map_err(|e| io(&path)(e.into_io()))?;
        let metric = match self.metric {
            Metric::Dtm => String::new(),
            m => format!(" --metric {}", m.suffix()),
        };
        let corrupt = |why: String| TablebaseError::Corrupt {
            path: path.clone(),
            name: layout.name.clone(),
            why,
            rebuild: format!(
                "z80chess tablebase build {} --dir {}{metric}",
                layout.name,
                self.dir.display()
            ),
        };
        let nl = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| corrupt("no header line".into()))?;
        let found = String::from_utf8_lossy(&bytes[..nl.min(200)]).to_string();
        let data = bytes[nl + 1..].to_vec();
        if data.len() != layout.size() {
            return Err(corrupt(format!(
                "{} bytes of data, expected {}",
                data.len(),
                layout.size()
            )));
        }
        let expect = header(&layout.name, self.metric, &data);
        if found != expect {
            let fields = |h: &str| h.split(' ').map(str::to_string).collect::<Vec<_>>();
            let (f, e) = (fields(&found), fields(&expect));
            let why = if f.len() == e.len() && f[..6] == e[..6] && f[7..] == e[7..] {
                format!(
                    "its contents fail their checksum (crc32 {}, header says {})",
                    e[6], f[6]
                )
            } else {
                format!("header '{found}', expected '{expect}'")
            };
            return Err(corrupt(why));
        }
        let t = Arc::new(Table {
            layout: layout.clone(),
            metric: self.metric,
            data,
        });
        self.tables.push(t.clone());
        // the sub-endings too, so that lookups across a capture work
        // its sub-endings too, so that lookups across a capture work (one deleted by hand
        // is reported as missing when a lookup needs it)
        for sub in layout.sub_endings(self.metric == Metric::Dtm) {
            self.open(&sub)?;
        }
        Ok(Some(t))
    }

    fn save(&self, t: &Table) -> Result<(), TablebaseError> {
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let path = self.path(&t.layout.name);
        let mut bytes = header(&t.layout.name, t.metric, &t.data).into_bytes();
        bytes.push(b'\n');
        bytes.extend_from_slice(&t.data);
        // The store's own file: a table that was refused is rebuilt over.
        crate::outfile::write(&path, &bytes, crate::outfile::Replace::Allow)?;
        Ok(())
    }

    /// The value of men (any order) with `stm` to move and `ep` the index among `men` of a
    /// pawn just double-stepped and takeable (or `usize::MAX`). Bare kings are a draw.
    pub fn value_of(&self, men: &Men, stm: u8, ep: usize) -> Result<Val, TablebaseError> {
        let (w, b) = roles(men);
        if w.is_empty() && b.is_empty() {
            return Ok(Val::Draw);
        }
        let (t, swap) = self.table_for(men)?;
        let l = &t.layout;
        let mut sq = [0u8; MAX_MEN];
        let mut used = [false; MAX_MEN];
        let mut ep_slot = usize::MAX;
        #[allow(clippy::needless_range_loop)]
        for slot in 0..l.n {
            let want_color = l.color[slot] ^ swap as u8;
            let j = (0..men.n)
                .find(|&j| !used[j] && men.color[j] == want_color && men.role[j] == l.role[slot])
                .ok_or_else(|| TablebaseError::Position("material does not match".into()))?;
            used[j] = true;
            sq[slot] = if swap { men.sq[j] ^ 56 } else { men.sq[j] };
            if j == ep {
                ep_slot = slot;
            }
        }
        let idx = l.index(stm ^ swap as u8, &sq, ep_slot);
        t.get(idx).ok_or_else(|| {
            TablebaseError::Position(format!(
                "{} is not a legal position of {}",
                fen(men, stm, None),
                l.name
            ))
        })
    }

    /// The loaded table holding these men's material, and whether colours are swapped.
    fn table_for(&self, men: &Men) -> Result<(Arc<Table>, bool), TablebaseError> {
        let (w, b) = roles(men);
        let k = material_key(&w, &b);
        let ks = material_key(&b, &w);
        for t in &self.tables {
            if t.layout.key == k {
                return Ok((t.clone(), false));
            }
        }
        for t in &self.tables {
            if t.layout.key == ks {
                return Ok((t.clone(), true));
            }
        }
        Err(TablebaseError::Missing {
            name: canonical(&w, &b).0,
            dir: self.dir.clone(),
        })
    }

    /// The value of a shakmaty position (castling rights are outside the tables).
    pub fn probe(&self, pos: &Chess) -> Result<Val, TablebaseError> {
        let (men, stm, ep) = men_of(pos)?;
        self.value_of(&men, stm, ep)
    }
}

/// The roles (kings left out) of each colour.
pub fn roles(men: &Men) -> (Vec<u8>, Vec<u8>) {
    let mut w = Vec::new();
    let mut b = Vec::new();
    for i in 0..men.n {
        if men.role[i] != KING {
            if men.color[i] == WHITE {
                w.push(men.role[i])
            } else {
                b.push(men.role[i])
            }
        }
    }
    (w, b)
}

/// The canonical name of a position's material.
pub fn material_name(pos: &Chess) -> Result<String, TablebaseError> {
    let (men, _, _) = men_of(pos)?;
    let (w, b) = roles(&men);
    Ok(canonical(&w, &b).0)
}

/// Our men from a shakmaty position: (men, side to move, index of a pawn takeable en passant).
pub fn men_of(pos: &Chess) -> Result<(Men, u8, usize), TablebaseError> {
    let board = pos.board();
    let n = board.occupied().count();
    if n > MAX_MEN {
        return Err(TablebaseError::Position(format!(
            "{n} men: the tables hold at most {}",
            super::layout::MAX_NAME_MEN
        )));
    }
    if pos.castles().any() {
        return Err(TablebaseError::Position(
            "castling rights: the tables have no castling".into(),
        ));
    }
    let mut men = Men {
        n: 0,
        sq: [0; MAX_MEN],
        color: [0; MAX_MEN],
        role: [0; MAX_MEN],
    };
    for (sq, piece) in board.clone() {
        let i = men.n;
        men.sq[i] = u8::from(sq);
        men.color[i] = Colour::from(piece.color).index() as u8;
        men.role[i] = PieceType::from(piece.role).bits();
        men.n += 1;
    }
    let stm = Colour::from(pos.turn()).index() as u8;
    let mut ep = usize::MAX;
    if let Some(target) = pos.ep_square(EnPassantMode::Legal) {
        let t = u8::from(target);
        let pawn_sq = if stm == WHITE { t - 8 } else { t + 8 };
        ep = men.at(pawn_sq).unwrap_or(usize::MAX);
    }
    Ok((men, stm, ep))
}

/// A position from a FEN, as the tables see it: a check no last move could give (two
/// bishops, say) is still a position of the table, so shakmaty's "impossible check" is let
/// through; any other fault is named.
pub fn chess_of(fen: &str) -> Result<Chess, TablebaseError> {
    let bad = |why: String| TablebaseError::BadFen {
        fen: fen.to_string(),
        why,
    };
    let parsed = crate::firmware::board::read_fen(fen).map_err(|e| bad(e.to_string()))?;
    parsed
        .into_position::<Chess>(shakmaty::CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .map_err(|e| bad(e.to_string()))
}
