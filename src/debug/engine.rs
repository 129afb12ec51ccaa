//! The debugger's machine room: run control under an [`Observer`], call tracking,
//! breakpoints, watchpoints and catchpoints, stopwatches, and reverse execution.
//!
//! Time is counted in instructions (`icount`: how many `Cpu::step`s since reset). The machine
//! is deterministic given its state, so any earlier instruction count is reached again by
//! restoring the nearest snapshot at or before it (a clone of the whole `Machine` and of the
//! call tracking) and re-executing forward. Snapshots are taken every `interval`
//! instructions while running (thinned out as history grows) and at every *event*: a change
//! the program did not make itself (bytes sent to the firmware, a register or memory edit).
//! Event snapshots are pinned: re-execution never crosses an event, it restarts from it. An
//! edit made in the past discards the recorded future.

use super::expr::{self, AccessCtx, Env, Expr};
use super::program::Program;
use crate::machine::{Access, AccessKind, Fault, Machine, Observer, StopReason};
use crate::z80::Cpu;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

mod reverse;
mod stopwatch;
pub use stopwatch::Stopwatch;

/// Set by Ctrl-C: a running command stops at the next check.
pub static INTERRUPT: AtomicBool = AtomicBool::new(false);

pub use super::calls::Frame;
use super::calls::{called, CallStack, Pending};

/// What execution derives and the debugger keeps (snapshotted with the machine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    /// Instructions executed since reset.
    pub icount: u64,
    /// Calls in progress, outermost first.
    pub stack: CallStack,
    /// Move lists GENMOV returned, (first entry, end), oldest first.
    pub lists: Vec<(u16, u16)>,
    /// GENMOV is running and has set its write pointer (HL') for the list it builds: before
    /// that, HL' still holds the end of an earlier list.
    pub building: bool,
}

/// Where GENMOV starts, and where its write pointer is set (the top of its square loop).
#[derive(Clone, Copy, Debug)]
pub(super) struct Genmov {
    entry: u16,
    ready: u16,
}

impl Genmov {
    /// From the program's symbols: `GENMOV` and its loop `GENMOV.sq`.
    fn of(prog: &Program) -> Option<Genmov> {
        let entry = prog.symbols.value_of("GENMOV")?;
        let ready = prog.symbols.value_of("GENMOV.sq")?;
        Some(Genmov { entry, ready })
    }
}

const MAX_FRAMES: usize = 4096;
const MAX_LISTS: usize = 64;

impl Default for Track {
    fn default() -> Track {
        Track {
            icount: 0,
            stack: CallStack::new(MAX_FRAMES),
            lists: Vec::new(),
            building: false,
        }
    }
}

impl Track {
    fn after(&mut self, pre: &Pending, cpu: &Cpu, mem: &[u8; 0x10000], genmov: Option<Genmov>) {
        self.icount += 1;
        while let Some(f) = self.stack.pop_left(cpu.sp) {
            if genmov.is_some_and(|g| f.target == g.entry) {
                if self.lists.len() >= MAX_LISTS {
                    self.lists.remove(0);
                }
                self.lists.push((cpu.hl(), cpu.de()));
                self.building = false;
            }
        }
        if genmov.is_some_and(|g| cpu.pc == g.ready) {
            self.building = true;
        }
        if let Some(f) = called(pre, cpu, mem) {
            self.stack.push(f, ());
        }
    }

    /// The calls in progress, outermost first.
    pub fn frames(&self) -> &[Frame] {
        &self.stack.frames
    }

    pub fn depth(&self) -> usize {
        self.stack.depth()
    }
}

/// What a breakpoint watches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BpKind {
    /// Execution reaching an address.
    Code { addr: u16 },
    /// Memory reads and/or writes in `start..=end`.
    Watch {
        start: u16,
        end: u16,
        read: bool,
        write: bool,
    },
    /// Port input and/or output (all ports, or one by its low byte).
    Catch {
        port: Option<u8>,
        input: bool,
        output: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Breakpoint {
    pub id: u32,
    pub kind: BpKind,
    /// The location as the user wrote it.
    pub what: String,
    /// The condition and its text.
    pub cond: Option<(Expr, String)>,
    pub enabled: bool,
    /// Times the condition held up to the current point of the history (ignored hits
    /// included): part of the history, so going back restores the count of that point.
    pub hits: u64,
    /// Hits still to ignore.
    pub ignore: u64,
    /// Deleted after its first stop.
    pub temp: bool,
    /// A code breakpoint in an expansion page hits only while the window shows that page.
    pub page: Option<u8>,
}

/// What a hit saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitWhat {
    Code {
        pc: u16,
    },
    Mem {
        write: bool,
        addr: u16,
        old: u8,
        new: u8,
        /// The instruction that made the access.
        pc: u16,
    },
    Port {
        input: bool,
        port: u16,
        value: u8,
        pc: u16,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub id: u32,
    pub what: HitWhat,
    /// The condition could not be evaluated (the stop happens anyway).
    pub cond_error: Option<String>,
}

/// Where a run command wants to stop, besides breakpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Only breakpoints, the firmware waiting, a fault, the cycle limit.
    Continue,
    /// After this many more instructions.
    Steps(u64),
    /// Back at this call depth or shallower (over calls); `block_pc`: a repeating block
    /// instruction is stepped over as a whole.
    Next { depth: usize, block_pc: Option<u16> },
    /// When the frame at `depth` returns.
    Finish { depth: usize },
    /// At `addr` in this frame or an outer one (or past `start_pc` in this frame when no
    /// address is given), or when the frame returns.
    Until {
        addr: Option<u16>,
        depth: usize,
        start_pc: u16,
    },
    /// At `addr` at any depth, or when the frame returns.
    Advance { addr: u16, depth: usize },
}

/// Why a run or a reverse command stopped (several can hold at once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stop {
    pub hits: Vec<Hit>,
    /// The command's own goal was reached.
    pub goal: bool,
    /// The machine's reason (InputNeeded: the firmware waits for the host).
    pub machine: Option<StopReason>,
    pub limit: bool,
    pub interrupted: bool,
    /// A reverse command reached the start of the recorded history.
    pub history_start: bool,
}

/// Address lookup tables for the hot path.
struct Maps {
    code: Vec<u64>,
    /// Per address: bit 0 read watch, bit 1 write watch.
    watch: Vec<u8>,
    ports: bool,
    any_code: bool,
}

impl Maps {
    fn new() -> Maps {
        Maps {
            code: vec![0; 1024],
            watch: vec![0; 0x10000],
            ports: false,
            any_code: false,
        }
    }
    fn rebuild(&mut self, bps: &[Breakpoint]) {
        self.code.iter_mut().for_each(|w| *w = 0);
        self.watch.iter_mut().for_each(|w| *w = 0);
        self.ports = false;
        self.any_code = false;
        for bp in bps.iter().filter(|b| b.enabled) {
            match bp.kind {
                BpKind::Code { addr } => {
                    self.code[addr as usize / 64] |= 1 << (addr % 64);
                    self.any_code = true;
                }
                BpKind::Watch {
                    start,
                    end,
                    read,
                    write,
                } => {
                    for a in start..=end {
                        self.watch[a as usize] |= read as u8 | (write as u8) << 1;
                    }
                }
                BpKind::Catch { .. } => self.ports = true,
            }
        }
    }
    #[inline(always)]
    fn code_at(&self, pc: u16) -> bool {
        self.any_code && self.code[pc as usize / 64] & (1 << (pc % 64)) != 0
    }
}

/// What reverse scanning looks for.
#[derive(Clone, Copy, Debug)]
enum Scan {
    AnyHit,
    DepthLe(usize),
    DepthLt(usize),
}

enum Mode<'a> {
    Live {
        goal: &'a mut Goal,
        watches: &'a mut [Stopwatch],
        high_water: u64,
        /// Stop here (a periodic snapshot is due, or a recorded event must be replayed).
        pause_at: u64,
    },
    Replay {
        target: u64,
    },
    Scan {
        scan: Scan,
        end: u64,
    },
}

#[derive(Clone, Copy)]
struct Acc {
    kind: AccessKind,
    addr: u16,
    value: u8,
    old: u8,
}

struct Obs<'a> {
    track: &'a mut Track,
    bps: &'a mut [Breakpoint],
    maps: &'a Maps,
    mode: Mode<'a>,
    genmov: Option<Genmov>,
    pre: Pending,
    pending: Vec<Acc>,
    scratch: Vec<Hit>,
    // results
    hits: Vec<Hit>,
    goal_done: bool,
    paused: bool,
    interrupted: bool,
    found: Option<(u64, Vec<Hit>)>,
    /// The page the window shows (told by the machine).
    page: Option<u8>,
}

impl<'a> Obs<'a> {
    fn new(
        track: &'a mut Track,
        bps: &'a mut [Breakpoint],
        maps: &'a Maps,
        mode: Mode<'a>,
        genmov: Option<Genmov>,
    ) -> Obs<'a> {
        Obs {
            track,
            bps,
            maps,
            mode,
            genmov,
            pre: Pending::default(),
            pending: Vec::with_capacity(8),
            scratch: Vec::new(),
            hits: Vec::new(),
            goal_done: false,
            paused: false,
            interrupted: false,
            found: None,
            page: None,
        }
    }

    fn cond_ok(
        bp: &Breakpoint,
        cpu: &Cpu,
        mem: &[u8; 0x10000],
        icount: u64,
        depth: usize,
        access: Option<AccessCtx>,
    ) -> (bool, Option<String>) {
        match &bp.cond {
            None => (true, None),
            Some((e, _)) => {
                let env = Env {
                    cpu,
                    mem,
                    icount,
                    depth,
                    access,
                };
                match expr::eval(e, &env) {
                    Ok(v) => (v != 0, None),
                    Err(msg) => (true, Some(msg)),
                }
            }
        }
    }

    /// Count the hits just collected on their breakpoints, without stopping or ignoring.
    fn count_hits(&mut self) {
        for h in &self.scratch {
            if let Some(bp) = self.bps.iter_mut().find(|b| b.id == h.id) {
                bp.hits += 1;
            }
        }
    }

    /// The breakpoints whose conditions hold in the state just reached.
    fn collect(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) {
        self.scratch.clear();
        let icount = self.track.icount;
        let depth = self.track.depth();
        if self.maps.code_at(cpu.pc) {
            for bp in self.bps.iter() {
                if bp.enabled
                    && bp.kind == (BpKind::Code { addr: cpu.pc })
                    && (bp.page.is_none() || bp.page == self.page)
                {
                    let (ok, err) = Self::cond_ok(bp, cpu, mem, icount, depth, None);
                    if ok {
                        self.scratch.push(Hit {
                            id: bp.id,
                            what: HitWhat::Code { pc: cpu.pc },
                            cond_error: err,
                        });
                    }
                }
            }
        }
        for acc in self.pending.drain(..) {
            for bp in self.bps.iter() {
                if !bp.enabled {
                    continue;
                }
                let what = match (bp.kind.clone(), acc.kind) {
                    (
                        BpKind::Watch {
                            start,
                            end,
                            read,
                            write,
                        },
                        k,
                    ) if (start..=end).contains(&acc.addr)
                        && ((k == AccessKind::Read && read)
                            // `watch` (writes only) stops on a change, as gdb's does;
                            // `awatch` on every access
                            || (k == AccessKind::Write && write && (read || acc.old != acc.value))) =>
                    {
                        HitWhat::Mem {
                            write: k == AccessKind::Write,
                            addr: acc.addr,
                            old: acc.old,
                            new: acc.value,
                            pc: self.pre.pc,
                        }
                    }
                    (
                        BpKind::Catch {
                            port,
                            input,
                            output,
                        },
                        k,
                    ) if port.is_none_or(|p| p == acc.addr as u8)
                        && ((k == AccessKind::PortIn && input)
                            || (k == AccessKind::PortOut && output)) =>
                    {
                        HitWhat::Port {
                            input: k == AccessKind::PortIn,
                            port: acc.addr,
                            value: acc.value,
                            pc: self.pre.pc,
                        }
                    }
                    _ => continue,
                };
                let ctx = AccessCtx {
                    addr: acc.addr,
                    old: acc.old,
                    new: acc.value,
                };
                let (ok, err) = Self::cond_ok(bp, cpu, mem, icount, depth, Some(ctx));
                if ok {
                    self.scratch.push(Hit {
                        id: bp.id,
                        what,
                        cond_error: err,
                    });
                }
            }
        }
    }
}

impl Observer for Obs<'_> {
    fn page(&mut self, page: Option<u8>) {
        self.page = page;
    }

    #[inline(always)]
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        self.pre = Pending::at(cpu, mem);
        false
    }

    fn after(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        self.track.after(&self.pre, cpu, mem, self.genmov);
        let ic = self.track.icount;
        self.collect(cpu, mem);
        if !matches!(self.mode, Mode::Live { .. }) {
            // Going over recorded history (replaying, scanning back) counts the hits again:
            // going back restored the counts of the snapshot it started from.
            self.count_hits();
        }
        if let Mode::Replay { target } = self.mode {
            return ic >= target;
        }
        let depth = self.track.depth();
        match &mut self.mode {
            Mode::Replay { .. } => false,
            Mode::Scan { scan, end } => {
                let ok = match *scan {
                    Scan::AnyHit => !self.scratch.is_empty(),
                    Scan::DepthLe(d) => depth <= d,
                    Scan::DepthLt(d) => depth < d,
                };
                if ok {
                    self.found = Some((ic, self.scratch.clone()));
                }
                ic >= *end
            }
            Mode::Live {
                goal,
                watches,
                high_water,
                pause_at,
            } => {
                for h in self.scratch.drain(..) {
                    if let Some(bp) = self.bps.iter_mut().find(|b| b.id == h.id) {
                        bp.hits += 1;
                        if bp.ignore > 0 {
                            bp.ignore -= 1;
                            continue;
                        }
                    }
                    self.hits.push(h);
                }
                let pc = cpu.pc;
                self.goal_done = match goal {
                    Goal::Continue => false,
                    Goal::Steps(n) => {
                        *n = n.saturating_sub(1);
                        *n == 0
                    }
                    Goal::Next { depth: d, block_pc } => match block_pc {
                        Some(b) => pc != *b || depth < *d,
                        None => depth <= *d,
                    },
                    Goal::Finish { depth: d } => depth < *d,
                    Goal::Until {
                        addr,
                        depth: d,
                        start_pc,
                    } => {
                        depth < *d
                            || (depth <= *d
                                && match addr {
                                    Some(a) => pc == *a,
                                    None => pc > *start_pc,
                                })
                    }
                    Goal::Advance { addr, depth: d } => pc == *addr || depth < *d,
                };
                if ic > *high_water {
                    for w in watches.iter_mut() {
                        w.observe(pc, cpu.t, depth);
                    }
                }
                if ic >= *pause_at {
                    self.paused = true;
                }
                if ic & 0x3FFF == 0 && INTERRUPT.load(Ordering::Relaxed) {
                    self.interrupted = true;
                }
                !self.hits.is_empty() || self.goal_done || self.paused || self.interrupted
            }
        }
    }

    #[inline(always)]
    fn access(&mut self, a: Access) -> bool {
        let want = match a.kind {
            AccessKind::Fetch => false,
            AccessKind::Read => self.maps.watch[a.addr as usize] & 1 != 0,
            AccessKind::Write => self.maps.watch[a.addr as usize] & 2 != 0,
            AccessKind::PortIn | AccessKind::PortOut => self.maps.ports,
        };
        if want && self.pending.len() < 64 {
            self.pending.push(Acc {
                kind: a.kind,
                addr: a.addr,
                value: a.value,
                old: a.old,
            });
        }
        false
    }
}

#[derive(Clone)]
struct Snap {
    machine: Machine,
    track: Track,
    pinned: bool,
    /// Each breakpoint's hit count at this point, by number.
    hits: Vec<(u32, u64)>,
}

/// The machine under the debugger, with its history.
pub struct Debugger {
    pub prog: Program,
    pub m: Machine,
    pub track: Track,
    pub bps: Vec<Breakpoint>,
    next_id: u32,
    maps: Maps,
    snaps: BTreeMap<u64, Snap>,
    /// Instructions between periodic snapshots (doubles when history is thinned).
    interval: u64,
    max_snaps: usize,
    /// The furthest instruction count executed on this timeline.
    pub high_water: u64,
    /// T-states a run command may spend (0: no limit).
    pub limit: u64,
    pub stopwatches: Vec<Stopwatch>,
    genmov: Option<Genmov>,
}

/// Default cycle limit of one run command: 10^10 T (83 minutes of the 2 MHz machine).
pub const DEFAULT_LIMIT: u64 = 10_000_000_000;

impl Debugger {
    /// A reset machine running `prog`'s ROM.
    pub fn new(prog: Program) -> Result<Debugger, String> {
        let m = Machine::with_map(&prog.rom, prog.memory).map_err(|e| e.to_string())?;
        prog.set_view(m.bus.window_page());
        let genmov = Genmov::of(&prog);
        let mut d = Debugger {
            prog,
            m,
            track: Track::default(),
            bps: Vec::new(),
            next_id: 1,
            maps: Maps::new(),
            snaps: BTreeMap::new(),
            interval: 20_000,
            max_snaps: 400,
            high_water: 0,
            limit: DEFAULT_LIMIT,
            stopwatches: Vec::new(),
            genmov,
        };
        d.snapshot(true);
        Ok(d)
    }

    /// Tune the snapshot policy (tests use small numbers to exercise thinning).
    pub fn set_snapshot_policy(&mut self, interval: u64, max_snaps: usize) {
        self.interval = interval.max(1);
        self.max_snaps = max_snaps.max(4);
    }

    pub fn icount(&self) -> u64 {
        self.track.icount
    }

    /// (snapshots, pinned ones, current interval).
    pub fn snapshot_stats(&self) -> (usize, usize, u64) {
        let pinned = self.snaps.values().filter(|s| s.pinned).count();
        (self.snaps.len(), pinned, self.interval)
    }

    fn snapshot(&mut self, pinned: bool) {
        let ic = self.track.icount;
        if !pinned && self.snaps.contains_key(&ic) {
            self.record_hits();
            return;
        }
        self.snaps.insert(
            ic,
            Snap {
                machine: self.m.clone(),
                track: self.track.clone(),
                pinned,
                hits: self.bps.iter().map(|b| (b.id, b.hits)).collect(),
            },
        );
        let unpinned: Vec<u64> = self
            .snaps
            .iter()
            .filter(|(_, s)| !s.pinned)
            .map(|(k, _)| *k)
            .collect();
        if unpinned.len() > self.max_snaps {
            // Thin: drop every other periodic snapshot (never the newest), double the spacing.
            let last = unpinned.len() - 1;
            for (i, k) in unpinned.iter().enumerate() {
                if i % 2 == 1 && i != last {
                    self.snaps.remove(k);
                }
            }
            self.interval = self.interval.saturating_mul(2);
        }
    }

    /// The hit counts now into the snapshot here (passing it again on the way forward, the
    /// breakpoints may have changed since it was taken).
    fn record_hits(&mut self) {
        let hits = self.bps.iter().map(|b| (b.id, b.hits)).collect();
        if let Some(s) = self.snaps.get_mut(&self.track.icount) {
            s.hits = hits;
        }
    }

    /// Record an event: the state at this instruction count was changed from outside.
    /// The recorded future is discarded.
    fn event(&mut self) {
        let ic = self.track.icount;
        let later: Vec<u64> = self.snaps.range(ic + 1..).map(|(k, _)| *k).collect();
        for k in later {
            self.snaps.remove(&k);
        }
        self.high_water = ic;
        for w in &mut self.stopwatches {
            w.pending.clear();
        }
        self.snapshot(true);
    }

    /// Change the machine from outside (registers, memory, input): an event.
    pub fn edit<R>(&mut self, f: impl FnOnce(&mut Machine) -> R) -> R {
        let r = f(&mut self.m);
        self.prog.set_view(self.m.bus.window_page());
        self.event();
        r
    }

    /// Queue bytes for the firmware (clearing what it wrote before): an event.
    pub fn send(&mut self, bytes: &[u8]) {
        self.edit(|m| {
            m.take_output();
            m.send(bytes);
        });
    }

    /// Go back to the snapshot at `icount`: the machine, the call tracking and the
    /// breakpoints' hit counts as they were there (a breakpoint set since counts from 0).
    fn restore(&mut self, icount: u64) {
        if let Some(s) = self.snaps.get(&icount) {
            for bp in &mut self.bps {
                bp.hits = s.hits.iter().find(|h| h.0 == bp.id).map_or(0, |h| h.1);
            }
        }
        self.restore_machine(icount);
    }

    /// The machine and the call tracking of the snapshot at `icount`, keeping the hit
    /// counts: for replaying a recorded event on the way forward.
    fn restore_machine(&mut self, icount: u64) {
        if let Some(s) = self.snaps.get(&icount) {
            self.m = s.machine.clone();
            self.track = s.track.clone();
        }
        self.prog.set_view(self.m.bus.window_page());
    }

    // ---- breakpoints -----------------------------------------------------------------

    pub fn add_bp(
        &mut self,
        kind: BpKind,
        what: String,
        cond: Option<(Expr, String)>,
        temp: bool,
    ) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.bps.push(Breakpoint {
            id,
            kind,
            what,
            cond,
            enabled: true,
            hits: 0,
            ignore: 0,
            temp,
            page: None,
        });
        self.maps.rebuild(&self.bps);
        id
    }

    pub fn bp_mut(&mut self, id: u32) -> Result<&mut Breakpoint, String> {
        self.bps
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or_else(|| format!("no breakpoint number {id}"))
    }

    /// Call after changing `bps` (enable, disable, delete).
    pub fn bps_changed(&mut self) {
        self.maps.rebuild(&self.bps);
    }

    // ---- forward ---------------------------------------------------------------------

    /// Run forward until the goal, a breakpoint, the firmware waiting, or the limit.
    pub fn run(&mut self, mut goal: Goal) -> Stop {
        INTERRUPT.store(false, Ordering::Relaxed);
        let limit_t = self.limit_t();
        // No slice ends before u64::MAX T-states, past any cycle limit: the run ends with a
        // stop.
        self.run_slice(&mut goal, limit_t, u64::MAX)
            .unwrap_or(Stop {
                limit: true,
                ..Stop::default()
            })
    }

    /// The T-state at which a run command starting now meets the cycle limit.
    pub fn limit_t(&self) -> u64 {
        if self.limit == 0 {
            u64::MAX
        } else {
            self.m.cpu.t.saturating_add(self.limit)
        }
    }

    /// Run forward as [`Debugger::run`] does, with the cycle limit at T-state `limit_t`, and
    /// pause at the first instruction boundary at or past T-state `slice_end`: `None` then, and
    /// calling again with the same goal goes on as if the run had never paused (breakpoints are
    /// checked after each instruction, snapshots are taken where they fall). Ctrl-C's flag is
    /// left as it is, so a run in slices still stops on it.
    pub fn run_slice(&mut self, goal: &mut Goal, limit_t: u64, slice_end: u64) -> Option<Stop> {
        let mut stop = Stop::default();
        let mut sliced = false;
        loop {
            if self.m.cpu.t >= limit_t {
                stop.limit = true;
                break;
            }
            if self.m.cpu.t >= slice_end {
                sliced = true;
                break;
            }
            let budget = limit_t.min(slice_end) - self.m.cpu.t;
            let ic = self.track.icount;
            let last_snap = self.snaps.range(..=ic).next_back().map(|(k, _)| *k);
            let next_periodic = last_snap.unwrap_or(0).saturating_add(self.interval);
            let next_event = self
                .snaps
                .range(ic + 1..)
                .find(|(_, s)| s.pinned)
                .map(|(k, _)| *k);
            let pause_at = next_event.map_or(next_periodic, |e| e.min(next_periodic));
            let mut obs = Obs::new(
                &mut self.track,
                &mut self.bps,
                &self.maps,
                Mode::Live {
                    goal,
                    watches: &mut self.stopwatches,
                    high_water: self.high_water,
                    pause_at,
                },
                self.genmov,
            );
            let r = self.m.run_observed_dyn(budget, &mut obs);
            let machine = match r {
                StopReason::InputNeeded | StopReason::Exit(_) | StopReason::Fault(_) => {
                    // The machine stopped before the observer saw the instruction's end.
                    obs.after(&self.m.cpu, &self.m.bus.mem);
                    Some(r)
                }
                StopReason::Halted => Some(r),
                // The limit or the slice's end: the loop's top tells which.
                StopReason::CycleLimit | StopReason::Observer => None,
            };
            let hits = std::mem::take(&mut obs.hits);
            let (goal_done, paused, interrupted) = (obs.goal_done, obs.paused, obs.interrupted);
            drop(obs);
            self.high_water = self.high_water.max(self.track.icount);
            let at_event = paused && Some(self.track.icount) == next_event;
            // Replaying history: the firmware polled for input, and the recorded input
            // arrives right here, so it does not wait.
            let machine = if at_event && machine == Some(StopReason::InputNeeded) {
                None
            } else {
                machine
            };
            stop.hits = hits;
            stop.goal = goal_done;
            stop.interrupted = interrupted;
            stop.machine = machine;
            if !stop.hits.is_empty()
                || goal_done
                || interrupted
                || stop.limit
                || stop.machine.is_some()
            {
                if paused && Some(self.track.icount) == next_event {
                    self.restore_machine(self.track.icount);
                }
                break;
            }
            if paused {
                let now = self.track.icount;
                if Some(now) == next_event {
                    // Replaying recorded history: the event happens again here.
                    self.restore_machine(now);
                    self.record_hits();
                } else {
                    self.snapshot(false);
                }
            }
        }
        // Temporary breakpoints go after their first stop.
        let before = self.bps.len();
        let hit: Vec<u32> = stop.hits.iter().map(|h| h.id).collect();
        self.bps.retain(|b| !(b.temp && hit.contains(&b.id)));
        if self.bps.len() != before {
            self.maps.rebuild(&self.bps);
        }
        self.prog.set_view(self.m.bus.window_page());
        (!sliced).then_some(stop)
    }

    /// A hash of the registers, the T-state counter and all of memory (FNV-1a, 64 bits).
    pub fn state_hash(&self) -> u64 {
        let c = &self.m.cpu;
        let mut h: u64 = 0xcbf29ce484222325;
        let mut eat = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        };
        for b in [
            c.a,
            c.f,
            c.b,
            c.c,
            c.d,
            c.e,
            c.h,
            c.l,
            c.i,
            c.r,
            c.im,
            c.iff1 as u8,
            c.iff2 as u8,
            c.halted as u8,
            c.q,
            c.ei as u8,
            c.p as u8,
        ] {
            eat(b);
        }
        for w in [c.af_, c.bc_, c.de_, c.hl_, c.ix, c.iy, c.sp, c.pc, c.wz] {
            eat(w as u8);
            eat((w >> 8) as u8);
        }
        for b in c.t.to_le_bytes() {
            eat(b);
        }
        for &b in self.m.bus.mem.iter() {
            eat(b);
        }
        h
    }
}

/// A fault's text, for stop reports.
pub fn fault_text(f: &Fault) -> String {
    f.to_string()
}
