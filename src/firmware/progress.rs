//! A running search's progress, read from the firmware's RAM between slices.

use super::{board, Build, FwMove};
use crate::machine::Machine;

/// The root's move being searched (UCI `currmove` and `currmovenumber`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    pub mv: FwMove,
    /// Its place, 1-based, among the root's moves in the order this pass searches them.
    pub number: u8,
    /// How many root moves the pass searches: the legal moves, or the full build's set of
    /// root moves ([`Engine::restrict_root`](super::Engine::restrict_root)) when one stands.
    pub count: u8,
}

/// A running search's progress, read from the firmware's RAM between slices
/// ([`Engine::progress`](super::Engine::progress)); the ROM is not asked (the period ROMs stay byte
/// for byte).
///
/// - **full**: the firmware keeps it (`asm/full/search.asm`: ROOTMV, ROOTN, ROOTP and SELDEP of
///   `asm/vars.asm`). `root` is the move SRCH took up last at ply 1, numbered by the firmware,
///   and `seldepth` is exact: the deepest ply SRCH has entered in this search, extensions
///   included (`seldepth_exact` is true).
/// - **1978, article**: no firmware variable: the host reads the root node's SRCH frame,
///   which sits at a fixed stack address (the search command is always entered at the same
///   stack depth), while the CPU is inside FNDMOV; the frame's entry is the move, and its
///   number is the count of legal moves minus the legal entries left in the frame's chain.
///   The root is `None` while the frame is being set up or does not hold a move of this
///   pass. `seldepth` is the largest current ply (NPLY) seen at the ends of the slices so far:
///   a lower bound of the true one, which a node visited within a slice may exceed
///   (`seldepth_exact` is false). Small slices give a closer bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// The depth being iterated (ITDEP), 0 before the search has set it.
    pub depth: u8,
    /// Changes whenever the root's moves start over: the full build counts the passes over
    /// the root (an aspiration window's re-search is a new pass of the same depth); the
    /// period builds make one pass per depth, and give the depth.
    pub pass: u8,
    pub root: Option<RootMove>,
    /// The deepest ply reached (the root's moves are ply 1), `None` before the first node.
    pub seldepth: Option<u8>,
    pub seldepth_exact: bool,
}

/// The root node's SRCH frame: CMDLP's stack holds one return address (5FFEh), 'G' calls
/// FNDMOV (5FFCh), SRCH pushes IX (5FFAh) and takes SFRAME = 12 bytes: IX = 5FEEh, in
/// every build. Offsets as in `asm/search.asm` (`asm/full/search.asm` for the full build).
pub const ROOT_FRAME: u16 = 0x5FEE;
const F_PLY: u16 = 0;
const F_NEXT: u16 = 5;
const F_ENTRY: u16 = 9;
/// FNDMOV's return address on the stack while it runs.
const FNDMOV_RET_SLOT: u16 = ROOT_FRAME + 12 + 2;
/// The deepest ply the firmware's SRCH enters at `level`: the full build's check extension
/// and End-Game's capture extension go two plies past the level, and its quiescence search
/// (on by default, `asm/full/quies.asm`) at most `P_QDEP` plies (the ROM's default 4) past
/// that leaf, never past ply 14 (QMAXP); the period builds' check extension one.
pub fn max_ply(build: Build, level: u8) -> u8 {
    match build {
        Build::Full => (level + 2 + QDEP_DEFAULT).min(QMAXP),
        _ => level + 1,
    }
}

/// The full build's `P_QDEP` default (`asm/full/params.asm`) and QMAXP (`asm/full/quies.asm`).
const QDEP_DEFAULT: u8 = 4;
const QMAXP: u8 = 14;

/// The host's side of [`Progress`]: the addresses it reads, and what it remembers between
/// slices.
#[derive(Debug, Clone)]
pub(super) struct ProgressState {
    itdep: u16,
    nply: u16,
    nlegal: u16,
    moveno: u16,
    mlist: u16,
    /// full build: ROOTMV (ROOTN, ROOTP, SELDEP follow), RSON, and RTNOTE's code
    /// [start, end): a slice may end between its stores of the move and of its number.
    full: Option<(u16, u16, std::ops::Range<u16>)>,
    /// period builds: the address after CSRCH's `CALL FNDMOV`.
    fndmov_ret: Option<u16>,
    pub(super) root_moves: Option<Vec<FwMove>>,
    pub(super) now: Progress,
}

impl ProgressState {
    pub(super) fn new(build: Build) -> ProgressState {
        let sym = crate::disasm::Symbols::parse(build.symbols(), build.name()).ok();
        let at = |n: &str| sym.as_ref().and_then(|s| s.value_of(n)).unwrap_or(0);
        let full =
            (build == Build::Full).then(|| (at("ROOTMV"), at("RSON"), at("RTNOTE")..at("SCADR")));
        // The period builds' CSRCH calls FNDMOV once: find the call in the ROM.
        let fndmov_ret = (build != Build::Full)
            .then(|| {
                let (f, c) = (at("FNDMOV"), at("CSRCH") as usize);
                let rom = build.rom();
                let call = [0xCD, f as u8, (f >> 8) as u8];
                (c..rom.len().min(c + 0x200))
                    .find(|&i| rom.get(i..i + 3) == Some(&call[..]))
                    .map(|i| i as u16 + 3)
            })
            .flatten();
        ProgressState {
            itdep: at("ITDEP"),
            nply: at("NPLY"),
            nlegal: at("NLEGAL"),
            moveno: at("MOVENO"),
            mlist: at("MLIST"),
            full,
            fndmov_ret,
            root_moves: None,
            now: Progress {
                seldepth_exact: build == Build::Full,
                ..Progress::default()
            },
        }
    }

    /// A search begins: forget the last one's.
    pub(super) fn begin(&mut self, build: Build) {
        self.root_moves = None;
        self.now = Progress {
            seldepth_exact: build == Build::Full,
            ..Progress::default()
        };
    }

    /// A period build's search that will search (not answer from the book at move 1).
    pub(super) fn wants_root_moves(&self, mem: &[u8; 0x10000]) -> bool {
        self.full.is_none() && self.fndmov_ret.is_some() && mem[self.moveno as usize] != 1
    }

    /// Read the search's state at the end of a slice.
    pub(super) fn sample(&mut self, machine: &Machine) {
        let m = &machine.bus.mem;
        let b = |a: u16| m[a as usize];
        let w = |a: u16| u16::from_le_bytes([m[a as usize], m[a.wrapping_add(1) as usize]]);
        let entry_move = |e: u16| FwMove {
            from: b(e + 2),
            to: b(e + 3),
            promo: promo_of(b(e + 4)),
        };
        self.now.depth = b(self.itdep);
        if let Some((rootmv, rson, rtnote)) = self.full.clone() {
            if rtnote.contains(&machine.cpu.pc) {
                // The move and its number half written: keep the last sample's.
                return;
            }
            let (n, pass, sel) = (b(rootmv + 2), b(rootmv + 3), b(rootmv + 4));
            self.now.pass = pass;
            self.now.seldepth = (sel > 0).then_some(sel);
            let count = match b(rson) {
                0 => b(self.nlegal),
                k => k,
            };
            let e = w(rootmv);
            self.now.root = (n > 0 && e >= self.mlist).then(|| RootMove {
                mv: entry_move(e),
                number: n,
                count,
            });
            return;
        }
        // Period builds: only while FNDMOV runs (its return address is on the stack and the
        // stack is below it) and the search has entered a node.
        let (Some(ret), Some(legal)) = (self.fndmov_ret, self.root_moves.as_ref()) else {
            return;
        };
        let sp = machine.cpu.sp;
        if sp > FNDMOV_RET_SLOT || w(FNDMOV_RET_SLOT) != ret {
            self.now.root = None;
            return;
        }
        if self.now.pass != self.now.depth {
            self.now.pass = self.now.depth;
            self.now.root = None;
        }
        let ply = b(self.nply);
        if sp <= ROOT_FRAME && b(ROOT_FRAME + F_PLY) == 1 && ply >= 1 {
            self.now.seldepth = Some(self.now.seldepth.unwrap_or(0).max(ply));
        }
        self.now.root = self.root_of_frame(m, legal, sp);
    }

    /// The root frame's move and its number, if the frame holds a move of the root's chain:
    /// its entry lies in the root's list and links to the frame's next entry (as SRCH's
    /// loop leaves them), and every entry of the chain is one of the root's.
    fn root_of_frame(&self, m: &[u8; 0x10000], legal: &[FwMove], sp: u16) -> Option<RootMove> {
        let b = |a: u16| m[a as usize];
        let w = |a: u16| u16::from_le_bytes([m[a as usize], m[a.wrapping_add(1) as usize]]);
        if sp > ROOT_FRAME || b(ROOT_FRAME + F_PLY) != 1 {
            return None;
        }
        let count = u8::try_from(legal.len()).ok()?;
        // The root's list: from MLIST, at most one entry per pseudo-legal move.
        let end = self.mlist + 6 * 256;
        let in_list = |e: u16| e >= self.mlist && e < end && (e - self.mlist).is_multiple_of(6);
        let mv = |e: u16| FwMove {
            from: b(e + 2),
            to: b(e + 3),
            promo: promo_of(b(e + 4)),
        };
        let entry = w(ROOT_FRAME + F_ENTRY);
        if !in_list(entry) || w(entry) != w(ROOT_FRAME + F_NEXT) || !legal.contains(&mv(entry)) {
            return None;
        }
        let mut left = 0u8;
        let mut e = w(entry);
        let mut steps = 0;
        while e >> 8 != 0 {
            if !in_list(e) || steps > 255 {
                return None;
            }
            if legal.contains(&mv(e)) {
                left += 1;
            }
            e = w(e);
            steps += 1;
        }
        let number = count.checked_sub(left)?;
        (number >= 1).then_some(RootMove {
            mv: mv(entry),
            number,
            count,
        })
    }
}

/// The promotion piece of a move-list entry's flags byte (`asm/perft.asm` PROMOT): 0 for none.
fn promo_of(flags: u8) -> u8 {
    if flags & 0x20 == 0 {
        0
    } else {
        board::QUEEN - ((flags >> 6) & 3)
    }
}
