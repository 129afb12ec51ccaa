//! The period computer around the Z80: 16 KiB of ROM, 8 KiB of RAM, the host ports, a clock;
//! and the same computer with the expansion memory of the `full` build.
//!
//! ```text
//!   MemoryMap::Period (the article and 1978 builds)
//!   0000h-3FFFh  ROM  (writes are a fault)
//!   4000h-5FFFh  RAM
//!   6000h-FFFFh  unmapped (reads FFh, writes are a fault)
//!
//!   MemoryMap::Expanded { pages } (the full build)
//!   0000h-3FFFh  base ROM (writes are a fault)
//!   4000h-5FFFh  RAM
//!   6000h-7FFFh  expansion RAM (8 KiB: the full build's stored parameter blocks)
//!   8000h-BFFFh  window: the expansion ROM page selected by port 04h (0..pages-1, at most 8;
//!                reset selects 0). A page number that is not fitted (pages..255) leaves the
//!                window unmapped: it reads FFh. Writes are a fault (ROM).
//!   C000h-FFFFh  expansion RAM (16 KiB)
//!
//!   port 00h  data: IN = next host byte, OUT = byte to the host
//!   port 01h  status: bit 0 = a host byte is waiting, bit 1 = "move now"
//!   port 02h  poll: bit 1 = "move now" (never stops the machine)
//!   port 04h  page (Expanded only): OUT selects the window's page, IN reads the selection back;
//!             in the Period map OUT is ignored and IN reads FFh
//!   port 06h  clock, every map: IN latches the CPU's T-state counter at the start of the IN's
//!             I/O cycle (IN A,(06h) = the instruction's first T-state + 7) and returns bits 0-7
//!   port 07h..0Bh  IN: bytes 1..5 of the latch (48 bits in all; reading them latches nothing)
//!   port FFh  OUT = stop the machine (routine tests end with it)
//! ```
//!
//! The ROM image of an expanded machine is the base 16 KiB followed by the pages, 16 KiB each
//! (a short last page is padded with FFh, a missing page reads FFh).
//!
//! How the window is emulated: `MachineBus::mem` is always the 64 KiB the CPU sees, so the
//! read path is one array index in both maps and observers see the window as the CPU does.
//! Selecting another page copies its 16 KiB into the window (about a microsecond of host time;
//! writing the page already selected copies nothing). The page and the clock latch are fields
//! of the bus, so a clone of the machine (the debugger's snapshots) carries them.
//!
//! The machine runs whole instructions until something needs the host: the firmware polled
//! the status port with no byte waiting ([`StopReason::InputNeeded`]), a test program wrote
//! the exit port, a fault, a HALT with interrupts off, or the T-state budget ran out. Those are
//! stop reasons, not errors. Knows Z80s, memory and ports, not chess.

use crate::z80::{Bus, Cpu, Exit, TStates};
use std::collections::VecDeque;
use std::sync::Arc;
use thiserror::Error;

pub const ROM_SIZE: usize = 0x4000;
pub const RAM_START: u16 = 0x4000;
pub const RAM_END: u16 = 0x6000;
pub const PORT_DATA: u8 = 0x00;
pub const PORT_STATUS: u8 = 0x01;
pub const PORT_POLL: u8 = 0x02;
/// OUT: select the expansion ROM page seen in the window (Expanded map); IN: read it back.
pub const PORT_PAGE: u8 = 0x04;
/// IN: latch the T-state counter, return its bits 0-7; ports 07h..0Bh return bytes 1..5.
pub const PORT_CLOCK: u8 = 0x06;
/// The last of the clock ports (byte 5 of the latch).
pub const PORT_CLOCK_LAST: u8 = PORT_CLOCK + 5;
/// The expansion ROM window (Expanded map).
pub const WINDOW_START: u16 = 0x8000;
pub const WINDOW_END: u32 = 0xC000;
/// Size of one expansion ROM page (the window).
pub const PAGE_SIZE: usize = 0x4000;
/// Most expansion ROM pages a machine takes.
pub const MAX_PAGES: u8 = 8;
/// The expansion RAM (Expanded map): C000h-FFFFh.
pub const XRAM_START: u16 = 0xC000;
/// The expansion RAM below the window (Expanded map): 6000h-7FFFh.
pub const XRAM_LOW_START: u16 = 0x6000;
pub const PORT_EXIT: u8 = 0xFF;
/// The clock of the period machine.
pub const PERIOD_HZ: u64 = 2_000_000;

/// A bus access the machine's map does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A write into the ROM.
    RomWrite { addr: u16, pc: u16 },
    /// A write to an address no memory answers.
    UnmappedWrite { addr: u16, pc: u16 },
    /// A read of the data port with no host byte waiting (the firmware must poll first).
    DataUnderflow { pc: u16 },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::RomWrite { addr, pc } => {
                write!(f, "write to ROM at {addr:04X}h (instruction at {pc:04X}h)")
            }
            Fault::UnmappedWrite { addr, pc } => {
                write!(
                    f,
                    "write to unmapped memory at {addr:04X}h (instruction at {pc:04X}h)"
                )
            }
            Fault::DataUnderflow { pc } => {
                write!(
                    f,
                    "data port read with no host byte waiting (instruction at {pc:04X}h)"
                )
            }
        }
    }
}

/// Why [`Machine::run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The firmware is waiting for the host (it polled the status port and found nothing).
    InputNeeded,
    /// A program wrote this value to the exit port.
    Exit(u8),
    /// HALT with interrupts disabled: nothing can wake the machine.
    Halted,
    /// The T-state budget of this run is spent.
    CycleLimit,
    /// A bus access outside the memory map.
    Fault(Fault),
    /// The observer asked to stop (a breakpoint, a watchpoint, a step count...).
    Observer,
}

/// Watches a run without changing it: the debugger and the profiler are observers.
/// Every method has a no-op default; `Machine::run` uses none at all, so the plain path
/// pays nothing. Returning `true` from `before`/`after`/`access` stops the run
/// ([`StopReason::Observer`]): before the instruction for `before`, after it otherwise.
pub trait Observer {
    /// Before the instruction at `cpu.pc` (interrupt acceptance counts as an instruction).
    #[inline(always)]
    fn before(&mut self, _cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        false
    }
    /// After it, with the state it left.
    #[inline(always)]
    fn after(&mut self, _cpu: &Cpu, _mem: &[u8; 0x10000]) -> bool {
        false
    }
    /// A bus access during the instruction: memory or port, read or write, with the T-state
    /// at which its machine cycle starts. For a memory write, `old` is the byte it replaces.
    #[inline(always)]
    fn access(&mut self, _access: Access) -> bool {
        false
    }
    /// The page the 8000h window shows ([`MachineBus::window_page`]; None in the Period map or
    /// when no fitted page is selected): told when a run starts and after every OUT to the page
    /// port, so an observer can name a PC in the window `page:addr`.
    #[inline(always)]
    fn page(&mut self, _page: Option<u8>) {}
    /// The only addresses at which this observer acts, if it acts only in `before` (its
    /// `after` and `access` are the no-op defaults): [`Machine::run_observed_dyn`] then runs
    /// at full speed between them and calls `before` only when the PC is one of them (and
    /// `page` as usual). `None`, the default: every instruction is observed.
    fn only_before_at(&self) -> Option<Vec<u16>> {
        None
    }
}

/// OUT on the machine's bus, then the window's page told to `obs` if the port was the page
/// port (what [`Observer::page`] promises, for every bus that runs an observer).
#[inline(always)]
fn out_telling_page<O: Observer + ?Sized>(
    bus: &mut MachineBus,
    obs: &mut O,
    port: u16,
    value: u8,
    t: TStates,
) {
    bus.port_out(port, value, t);
    if port as u8 == PORT_PAGE {
        obs.page(bus.window_page());
    }
}

/// A set of addresses, one bit each.
struct PcSet(Box<[u64; 1024]>);

impl PcSet {
    fn new(pcs: &[u16]) -> PcSet {
        let mut bits = Box::new([0u64; 1024]);
        for &pc in pcs {
            bits[pc as usize >> 6] |= 1 << (pc & 63);
        }
        PcSet(bits)
    }

    #[inline(always)]
    fn has(&self, pc: u16) -> bool {
        self.0[pc as usize >> 6] & 1 << (pc & 63) != 0
    }
}

/// The machine's bus with breakpoints ([`Bus::stops_before`]) at an observer's addresses,
/// which it tells of page changes as [`ObservedBus`] does; run behind `dyn Bus`, so the batch
/// loop's handlers for it are the ones `Cpu::run_dyn` already has.
struct BreakBus<'a> {
    bus: &'a mut MachineBus,
    obs: &'a mut dyn Observer,
    at: &'a PcSet,
}

impl Bus for BreakBus<'_> {
    fn fetch(&mut self, addr: u16, t: TStates) -> u8 {
        self.bus.fetch(addr, t)
    }
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        self.bus.read(addr, t)
    }
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        self.bus.write(addr, value, t)
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        self.bus.port_in(port, t)
    }
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        out_telling_page(self.bus, self.obs, port, value, t);
    }
    fn int_ack(&mut self, t: TStates) -> u8 {
        self.bus.int_ack(t)
    }
    fn idle(&mut self, addr: u16, n: u32, t: TStates) {
        self.bus.idle(addr, n, t)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }
    fn deadline(&self) -> TStates {
        self.bus.deadline()
    }
    fn stops_before(&self, pc: u16) -> bool {
        self.at.has(pc)
    }
}

/// One bus access, as an [`Observer`] sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub kind: AccessKind,
    pub addr: u16,
    pub value: u8,
    /// The byte a memory write replaced (equal to `value` otherwise).
    pub old: u8,
    pub t: TStates,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    Fetch,
    Read,
    Write,
    PortIn,
    PortOut,
}

/// The machine's bus seen through an observer.
struct ObservedBus<'a, O: Observer + ?Sized> {
    bus: &'a mut MachineBus,
    obs: &'a mut O,
    stop: bool,
}

impl<O: Observer + ?Sized> ObservedBus<'_, O> {
    #[inline(always)]
    fn note(&mut self, kind: AccessKind, addr: u16, value: u8, old: u8, t: TStates) {
        if self.obs.access(Access {
            kind,
            addr,
            value,
            old,
            t,
        }) {
            self.stop = true;
        }
    }
}

impl<O: Observer + ?Sized> Bus for ObservedBus<'_, O> {
    fn fetch(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.bus.fetch(addr, t);
        self.note(AccessKind::Fetch, addr, v, v, t);
        v
    }
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.bus.read(addr, t);
        self.note(AccessKind::Read, addr, v, v, t);
        v
    }
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        let old = self.bus.peek(addr);
        self.bus.write(addr, value, t);
        self.note(AccessKind::Write, addr, value, old, t);
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        let v = self.bus.port_in(port, t);
        self.note(AccessKind::PortIn, port, v, v, t);
        v
    }
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        out_telling_page(self.bus, self.obs, port, value, t);
        self.note(AccessKind::PortOut, port, value, value, t);
    }
    fn int_ack(&mut self, t: TStates) -> u8 {
        self.bus.int_ack(t)
    }
    fn idle(&mut self, addr: u16, n: u32, t: TStates) {
        self.bus.idle(addr, n, t)
    }
    fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }
}

/// A ROM image the machine cannot take.
#[derive(Debug, Error)]
pub enum RomError {
    #[error("the ROM image is empty")]
    Empty,
    #[error("the ROM image is {0} bytes; the machine has {ROM_SIZE} bytes of ROM")]
    TooLarge(usize),
    #[error(
        "the ROM image is {len} bytes; 16 KiB of base ROM and {pages} pages of 16 KiB take {max}"
    )]
    TooLargeExpanded { len: usize, pages: u8, max: usize },
    #[error("{0} expansion pages asked for; the machine takes at most {MAX_PAGES}")]
    TooManyPages(u8),
}

/// Which memory the machine has, chosen when it is built (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryMap {
    /// 16 KiB ROM + 8 KiB RAM: the article and 1978 builds.
    Period,
    /// The full build's machine: the period map plus `pages` expansion ROM pages (0..=8)
    /// behind the 8000h window, 8 KiB of RAM at 6000h and 16 KiB at C000h.
    Expanded { pages: u8 },
}

impl MemoryMap {
    /// The Expanded map that holds `image` (base 16 KiB + pages): as many pages as the image
    /// reaches into, at least none.
    pub fn expanded_for(image: &[u8]) -> MemoryMap {
        MemoryMap::Expanded {
            pages: image.len().saturating_sub(ROM_SIZE).div_ceil(PAGE_SIZE) as u8,
        }
    }

    /// Number of expansion ROM pages fitted (0 for the Period map).
    pub fn pages(self) -> u8 {
        match self {
            MemoryMap::Period => 0,
            MemoryMap::Expanded { pages } => pages,
        }
    }
}

/// Memory and ports as the CPU sees them. Its 64 KiB are inline, so each access is one load
/// from the bus pointer the handlers carry, not a load of a `Box`'s pointer first (the
/// [`Machine`] boxes the whole bus instead).
#[derive(Clone)]
pub struct MachineBus {
    pub mem: [u8; 0x10000],
    input: VecDeque<u8>,
    output: Vec<u8>,
    /// The host asks the search to stop (status bit 1).
    pub move_now: bool,
    stop: Option<StopReason>,
    /// [`Bus::deadline`]: `TStates::MAX`, 0 once `stop` is set.
    deadline: TStates,
    map: MemoryMap,
    /// The expansion ROM pages, `PAGE_SIZE` bytes each (shared: ROM never changes).
    pages: Arc<[u8]>,
    /// The page latch (port 04h); what the window shows when `page < map.pages()`.
    page: u8,
    /// The page table of writes: which 8 KiB pages are RAM (a write elsewhere is a fault).
    writable: [bool; 8],
    /// The clock latch (ports 06h-0Bh).
    clock: TStates,
}

impl MachineBus {
    fn new(map: MemoryMap, pages: Arc<[u8]>) -> Box<Self> {
        let mut mem = [0u8; 0x10000];
        mem[RAM_END as usize..].fill(0xFF);
        let mut writable = [false; 8];
        writable[RAM_START as usize >> 13] = true;
        if let MemoryMap::Expanded { .. } = map {
            mem[XRAM_LOW_START as usize..WINDOW_START as usize].fill(0);
            writable[XRAM_LOW_START as usize >> 13] = true;
            mem[XRAM_START as usize..].fill(0);
            writable[XRAM_START as usize >> 13..].fill(true);
        }
        let mut bus = Box::new(MachineBus {
            mem,
            input: VecDeque::new(),
            output: Vec::new(),
            move_now: false,
            stop: None,
            deadline: TStates::MAX,
            map,
            pages,
            page: 0,
            writable,
            clock: 0,
        });
        bus.show_page();
        bus
    }

    /// The memory map this machine was built with.
    pub fn map(&self) -> MemoryMap {
        self.map
    }

    /// The page latch (port 04h): the page the window shows if it is fitted. 0 in the Period map.
    pub fn page(&self) -> u8 {
        self.page
    }

    /// The page the window shows now: None in the Period map or when the latch selects a page
    /// that is not fitted.
    pub fn window_page(&self) -> Option<u8> {
        (self.page < self.map.pages()).then_some(self.page)
    }

    /// Select a page as OUT (04h),A would (the debugger's `page` command, tests).
    pub fn select_page(&mut self, page: u8) {
        if let MemoryMap::Expanded { .. } = self.map {
            if page != self.page {
                self.page = page;
                self.show_page();
            }
        }
    }

    /// The clock latch (the value ports 06h-0Bh give).
    pub fn clock_latch(&self) -> TStates {
        self.clock
    }

    /// Copy the selected page into the window (FFh when it is not fitted).
    fn show_page(&mut self) {
        if let MemoryMap::Expanded { .. } = self.map {
            let shown = self.window_page();
            let window = &mut self.mem[WINDOW_START as usize..WINDOW_END as usize];
            match shown {
                Some(p) => {
                    let p = p as usize * PAGE_SIZE;
                    window.copy_from_slice(&self.pages[p..p + PAGE_SIZE]);
                }
                None => window.fill(0xFF),
            }
        }
    }

    /// A byte of a page, whichever page is selected (side-effect free). `None`: not fitted.
    pub fn peek_page(&self, page: u8, addr: u16) -> Option<u8> {
        if page >= self.map.pages() || !(WINDOW_START as u32..WINDOW_END).contains(&(addr as u32)) {
            return None;
        }
        Some(self.pages[page as usize * PAGE_SIZE + (addr - WINDOW_START) as usize])
    }
}

impl MachineBus {
    /// Stop the machine after the instruction in progress (the first reason stands). A fault's
    /// `pc` is filled in by the run loop, which knows where the instruction began.
    #[cold]
    fn stop(&mut self, reason: StopReason) {
        if self.stop.is_none() {
            self.stop = Some(reason);
            self.deadline = 0;
        }
    }

    /// The stop reason, if any, with a fault's instruction address; clears it.
    fn take_stop(&mut self, pc: u16) -> Option<StopReason> {
        self.deadline = TStates::MAX;
        self.stop.take().map(|s| match s {
            StopReason::Fault(f) => StopReason::Fault(match f {
                Fault::RomWrite { addr, .. } | Fault::UnmappedWrite { addr, .. } => {
                    self.write_fault(addr, pc)
                }
                Fault::DataUnderflow { .. } => Fault::DataUnderflow { pc },
            }),
            s => s,
        })
    }

    /// The fault of a write to `addr` that no RAM answers: into the ROM (the base ROM, or the
    /// window showing a fitted page) or into nothing. Decided when the run stops, not in
    /// [`Bus::write`]: no instruction both writes memory and selects a page, so the window is
    /// as the write saw it.
    fn write_fault(&self, addr: u16, pc: u16) -> Fault {
        let window = (WINDOW_START as u32..WINDOW_END).contains(&(addr as u32))
            && self.window_page().is_some();
        if (addr as usize) < ROM_SIZE || window {
            Fault::RomWrite { addr, pc }
        } else {
            Fault::UnmappedWrite { addr, pc }
        }
    }
}

impl Bus for MachineBus {
    #[inline(always)]
    fn read(&mut self, addr: u16, _t: TStates) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8, _t: TStates) {
        if self.writable[addr as usize >> 13] {
            self.mem[addr as usize] = value;
        } else if self.deadline != 0 {
            // The first stop stands (`deadline` is 0 exactly when one is recorded). Stored
            // here with no call, so the handlers that write keep their registers (a call on
            // the fault path would cost them a prologue saving four to six); which fault it was
            // is decided by `take_stop`.
            self.stop = Some(StopReason::Fault(Fault::UnmappedWrite { addr, pc: 0 }));
            self.deadline = 0;
        }
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        match port as u8 {
            PORT_STATUS => {
                if self.input.is_empty() {
                    self.stop(StopReason::InputNeeded);
                }
                (!self.input.is_empty()) as u8 | ((self.move_now as u8) << 1)
            }
            PORT_POLL => (self.move_now as u8) << 1,
            PORT_DATA => match self.input.pop_front() {
                Some(b) => b,
                None => {
                    self.stop(StopReason::Fault(Fault::DataUnderflow { pc: 0 }));
                    0xFF
                }
            },
            PORT_CLOCK => {
                self.clock = t;
                t as u8
            }
            p @ PORT_CLOCK..=PORT_CLOCK_LAST => (self.clock >> (8 * (p - PORT_CLOCK))) as u8,
            PORT_PAGE if self.map != MemoryMap::Period => self.page,
            _ => 0xFF,
        }
    }
    fn port_out(&mut self, port: u16, value: u8, _t: TStates) {
        match port as u8 {
            PORT_DATA => self.output.push(value),
            PORT_EXIT => self.stop(StopReason::Exit(value)),
            PORT_PAGE => self.select_page(value),
            _ => {}
        }
    }
    #[inline(always)]
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
    #[inline(always)]
    fn deadline(&self) -> TStates {
        self.deadline
    }
}

/// CPU + memory + ports + clock. Cloning it is a complete snapshot (the debugger's reverse
/// execution re-runs forward from such clones).
#[derive(Clone)]
pub struct Machine {
    pub cpu: Cpu,
    /// Boxed: the bus holds the 64 KiB of memory inline.
    pub bus: Box<MachineBus>,
}

impl Machine {
    /// A period machine (16 KiB ROM, 8 KiB RAM) with `rom` at 0000h, reset.
    pub fn new(rom: &[u8]) -> Result<Machine, RomError> {
        Machine::with_map(rom, MemoryMap::Period)
    }

    /// An expanded machine for a banked image (base 16 KiB, then the pages): as many pages as
    /// the image reaches into ([`MemoryMap::expanded_for`]).
    pub fn expanded(image: &[u8]) -> Result<Machine, RomError> {
        Machine::with_map(image, MemoryMap::expanded_for(image))
    }

    /// A machine with the given memory map, reset. `image` is the base ROM (Period: at most
    /// 16 KiB), or for Expanded the base ROM padded to 16 KiB followed by the pages.
    pub fn with_map(image: &[u8], map: MemoryMap) -> Result<Machine, RomError> {
        if image.is_empty() {
            return Err(RomError::Empty);
        }
        let npages = map.pages();
        if npages > MAX_PAGES {
            return Err(RomError::TooManyPages(npages));
        }
        let max = ROM_SIZE + npages as usize * PAGE_SIZE;
        if image.len() > max {
            return Err(match map {
                MemoryMap::Period => RomError::TooLarge(image.len()),
                MemoryMap::Expanded { pages } => RomError::TooLargeExpanded {
                    len: image.len(),
                    pages,
                    max,
                },
            });
        }
        let base = image.len().min(ROM_SIZE);
        let mut pages = vec![0xFFu8; npages as usize * PAGE_SIZE];
        if image.len() > ROM_SIZE {
            pages[..image.len() - ROM_SIZE].copy_from_slice(&image[ROM_SIZE..]);
        }
        let mut bus = MachineBus::new(map, pages.into());
        bus.mem[..base].copy_from_slice(&image[..base]);
        Ok(Machine {
            cpu: Cpu::new(),
            bus,
        })
    }

    /// Queue bytes for the firmware to read.
    pub fn send(&mut self, bytes: &[u8]) {
        self.bus.input.extend(bytes);
    }

    /// Bytes the firmware has written since the last call.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bus.output)
    }

    /// Bytes the firmware has written since the last [`Machine::take_output`] (not taken).
    pub fn output(&self) -> &[u8] {
        &self.bus.output
    }

    /// Bytes queued for the firmware and not read yet.
    pub fn pending_input(&self) -> usize {
        self.bus.input.len()
    }

    /// Run whole instructions until a stop reason, spending at most `budget` T-states.
    ///
    /// The CPU's batch loop ([`Cpu::run`]) runs until the budget is spent, the bus asks to stop
    /// (it lowers its deadline) or a HALT; nothing is polled after each instruction.
    pub fn run(&mut self, budget: TStates) -> StopReason {
        let limit = self.cpu.t.saturating_add(budget);
        loop {
            if self.cpu.t >= limit {
                return StopReason::CycleLimit;
            }
            let exit = self.cpu.run(&mut *self.bus, limit);
            if let Some(stop) = self.stop_after(exit) {
                return stop;
            }
        }
    }

    /// What a batch run's end means for the machine: the stop its bus recorded, HALT with
    /// interrupts disabled, or nothing (the run goes on).
    #[inline]
    fn stop_after(&mut self, exit: Exit) -> Option<StopReason> {
        if let Some(stop) = self.bus.take_stop(exit.pc()) {
            return Some(stop);
        }
        match exit {
            Exit::Halted { .. } if !self.cpu.iff1 => Some(StopReason::Halted),
            _ => None,
        }
    }

    /// [`Machine::run`] with an observer watching every instruction and bus access.
    pub fn run_observed<O: Observer + ?Sized>(
        &mut self,
        budget: TStates,
        obs: &mut O,
    ) -> StopReason {
        let limit = self.cpu.t.saturating_add(budget);
        obs.page(self.bus.window_page());
        loop {
            if self.cpu.t >= limit {
                return StopReason::CycleLimit;
            }
            if obs.before(&self.cpu, &self.bus.mem) {
                return StopReason::Observer;
            }
            let pc = self.cpu.pc;
            let mut ob = ObservedBus {
                bus: &mut self.bus,
                obs,
                stop: false,
            };
            self.cpu.step(&mut ob);
            let watch = ob.stop;
            if let Some(stop) = self.bus.take_stop(pc) {
                return stop;
            }
            if obs.after(&self.cpu, &self.bus.mem) || watch {
                return StopReason::Observer;
            }
            if self.cpu.halted && !self.cpu.iff1 {
                return StopReason::Halted;
            }
        }
    }

    /// [`Machine::run_observed`] with the observer behind `dyn Observer`: compiled once, in
    /// this crate, for every observer (the profiler's, the debugger's, the tests'), where each
    /// observer type of its own would build the instruction set again (see [`Cpu::step_dyn`]).
    /// The price is a call through the vtable per hook: about 10-15% of an observed search.
    ///
    /// An observer that names the only addresses it acts at ([`Observer::only_before_at`])
    /// is run at full speed, through the batch loop, with a breakpoint at each: its `before`
    /// is called at those addresses exactly as [`Machine::run_observed`] would call it there.
    #[inline(never)]
    pub fn run_observed_dyn(&mut self, budget: TStates, obs: &mut dyn Observer) -> StopReason {
        match obs.only_before_at() {
            Some(pcs) => self.run_breaking(budget, &PcSet::new(&pcs), obs),
            None => self.run_observed(budget, obs),
        }
    }

    /// [`Machine::run`] with `obs.before` called before each instruction at an address in
    /// `at`: the run stops there ([`Exit::Break`]), the observer looks, the run goes on.
    fn run_breaking(&mut self, budget: TStates, at: &PcSet, obs: &mut dyn Observer) -> StopReason {
        let limit = self.cpu.t.saturating_add(budget);
        obs.page(self.bus.window_page());
        loop {
            if self.cpu.t >= limit {
                return StopReason::CycleLimit;
            }
            // Every run starts at an instruction not yet observed: the first of this call,
            // or the one a breakpoint, the limit or the bus's deadline stopped before.
            if at.has(self.cpu.pc) && obs.before(&self.cpu, &self.bus.mem) {
                return StopReason::Observer;
            }
            let mut bus = BreakBus {
                bus: &mut self.bus,
                obs: &mut *obs,
                at,
            };
            let exit = self.cpu.run_dyn(&mut bus, limit);
            if let Some(stop) = self.stop_after(exit) {
                return stop;
            }
        }
    }

    /// Emulated seconds of `t` T-states at the period clock.
    pub fn seconds(t: TStates, clock_hz: u64) -> f64 {
        t as f64 / clock_hz as f64
    }
}
