//! The cycle profiler: an [`Observer`] that charges every instruction's T-states to the routine
//! its PC lies in, and follows CALL/RET to know which routines are on the call stack.
//!
//! - **exclusive**: T-states of the instructions inside the routine.
//! - **inclusive**: T-states while the routine is on the reconstructed call stack, either
//!   running or waiting for a CALL it made; a recursive routine (SRCH) is counted once.
//! - **calls**: entries at the routine's label: CALL/RST into it, plus jumps and fall-through
//!   from another routine to its first byte (tail calls such as `JP MOVE`, `JP SRCH`, the
//!   command loop's `JP (HL)` dispatch, INITBD running into LOADST). Returns are not entries.
//!
//! The call stack is rebuilt from what the CPU does, never from what the code is supposed to
//! do: a CALL or RST whose SP dropped by 2 (and left the return address there) pushes a frame
//! holding the address of that return address; after every instruction, the frames whose
//! return address lies below SP are gone (a RET pops one; `LD SP,...` in CMDLP/CMDERR, or
//! code that drops a return address, pops all they discarded). Frames name the routine the
//! call was made from, so the stack reads like a sampler's: `CSRCH;SRCH;SRCH;POINTS;XCHNG`.
//! The tracking is [`crate::debug::calls`], the debugger's backtrace's own (calls and returns
//! from the ISA's decoding table).
//!
//! All accounting is done in `before` from the difference with the previous instruction, so
//! the instruction that stops a run (its `after` is not called) is charged at the next
//! `before` or by [`Profiler::finish`]. The observer only reads: the run's T-states are the
//! same as an unobserved run's.

use super::routines::Routines;
use crate::debug::calls::{called, CallStack, Flow, Pending};
use crate::machine::Observer;
use crate::z80::Cpu;
use std::collections::HashMap;

/// A node of the tree of call stacks seen (for collapsed stacks).
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    routine: u16,
}

const ROOT: u32 = 0;

/// Watches a run and charges its T-states to routines; see the module documentation.
pub struct Profiler<'a> {
    routines: &'a Routines,
    excl: Vec<u64>,
    incl: Vec<u64>,
    calls: Vec<u64>,
    instructions: Vec<u64>,
    active: Vec<u32>,
    since: Vec<u64>,
    started: bool,
    finished: bool,
    t0: u64,
    last_t: u64,
    /// The instruction that ran last, as the call tracker read it.
    prev: Pending,
    cur: usize,
    cur_node: u32,
    /// The call stack; each frame keeps the stack node of its caller.
    stack: CallStack<u32>,
    nodes: Vec<Node>,
    children: HashMap<(u32, u16), u32>,
    node_t: Vec<u64>,
    max_depth: usize,
    resyncs: u64,
    discards: u64,
    /// The page the window shows (told by the machine).
    page: Option<u8>,
}

/// One routine's line of the profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutineStats {
    pub name: String,
    pub addr: u16,
    pub calls: u64,
    pub exclusive: u64,
    pub inclusive: u64,
    pub instructions: u64,
}

/// What a profiled run cost, per routine and per call stack.
#[derive(Clone, Debug)]
pub struct Profile {
    /// T-states from the first instruction observed to the end of the last.
    pub total: u64,
    /// Instructions observed.
    pub instructions: u64,
    /// Every routine that ran, by exclusive T-states, most first.
    pub routines: Vec<RoutineStats>,
    /// Collapsed stacks (`A;B;C`) and their exclusive T-states, sorted by stack.
    pub folded: Vec<(String, u64)>,
    /// The deepest call stack seen (frames).
    pub max_depth: usize,
    /// Frames dropped by something other than the RET that matches them or a POP (stack
    /// resets).
    pub resyncs: u64,
    /// Frames whose return address a POP threw away (the full build's lazy evaluation leaves
    /// POINTS that way, from its hook: an early exit, not a lost frame).
    pub discards: u64,
}

impl Profile {
    /// The line of the routine called `name`, if it ran.
    pub fn routine(&self, name: &str) -> Option<&RoutineStats> {
        self.routines
            .iter()
            .find(|r| r.name == name || r.name.split('/').any(|p| p == name))
    }

    /// The collapsed stacks as text, one `A;B;C T` line each (flamegraph.pl, inferno,
    /// speedscope read it; the weight is T-states).
    pub fn folded_text(&self) -> String {
        let mut s = String::new();
        for (stack, t) in &self.folded {
            s.push_str(stack);
            s.push(' ');
            s.push_str(&t.to_string());
            s.push('\n');
        }
        s
    }
}

impl<'a> Profiler<'a> {
    pub fn new(routines: &'a Routines) -> Profiler<'a> {
        let n = routines.len();
        Profiler {
            routines,
            excl: vec![0; n],
            incl: vec![0; n],
            calls: vec![0; n],
            instructions: vec![0; n],
            active: vec![0; n],
            since: vec![0; n],
            started: false,
            finished: false,
            t0: 0,
            last_t: 0,
            prev: Pending::default(),
            cur: 0,
            cur_node: ROOT,
            stack: CallStack::new(usize::MAX),
            nodes: vec![Node {
                parent: ROOT,
                routine: u16::MAX,
            }],
            children: HashMap::new(),
            node_t: vec![0],
            max_depth: 0,
            resyncs: 0,
            discards: 0,
            page: None,
        }
    }

    #[inline(always)]
    fn activate(&mut self, r: usize, t: u64) {
        self.active[r] += 1;
        if self.active[r] == 1 {
            self.since[r] = t;
        }
    }

    #[inline(always)]
    fn deactivate(&mut self, r: usize, t: u64) {
        self.active[r] -= 1;
        if self.active[r] == 0 {
            self.incl[r] += t - self.since[r];
        }
    }

    fn child(&mut self, parent: u32, routine: usize) -> u32 {
        let key = (parent, routine as u16);
        if let Some(&c) = self.children.get(&key) {
            return c;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            parent,
            routine: routine as u16,
        });
        self.node_t.push(0);
        self.children.insert(key, id);
        id
    }

    /// The instruction that just ended (`self.prev`) moved control to `cpu`: update the stack.
    #[inline(always)]
    fn transfer(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) {
        let (pc, sp, t) = (cpu.pc, cpu.sp, cpu.t);
        let r = self.routines.at_in(self.page, pc);
        if let Some(f) = called(&self.prev, cpu, mem) {
            self.stack.push(f, self.cur_node);
            self.max_depth = self.max_depth.max(self.stack.depth());
            self.calls[r] += 1;
            self.activate(r, t);
            self.cur = r;
            self.cur_node = self.child(self.cur_node, r);
            return;
        }
        let mut popped = 0;
        while let Some(f) = self.stack.pop_left(sp) {
            popped += 1;
            self.deactivate(self.cur, t);
            self.cur_node = f.data;
            self.cur = self.nodes[f.data as usize].routine as usize;
        }
        if self.prev.flow == Flow::Pop {
            self.discards += popped as u64;
        } else if popped > (self.prev.flow == Flow::Ret) as u32 {
            self.resyncs += 1;
        }
        if r != self.cur {
            if popped == 0 && self.prev.flow != Flow::Ret && pc == self.routines.start(r) {
                self.calls[r] += 1;
            }
            self.deactivate(self.cur, t);
            self.activate(r, t);
            self.cur = r;
            let parent = self.nodes[self.cur_node as usize].parent;
            self.cur_node = self.child(parent, r);
        }
    }

    /// Charge the last instruction (whose `after` a stopping run does not call) and close the
    /// books at the CPU's current T-state. Call once, after the last run.
    pub fn finish(&mut self, cpu: &Cpu) {
        if !self.started || self.finished {
            return;
        }
        self.finished = true;
        let dt = cpu.t - self.last_t;
        self.excl[self.cur] += dt;
        self.node_t[self.cur_node as usize] += dt;
        self.last_t = cpu.t;
        for r in 0..self.active.len() {
            if self.active[r] > 0 {
                self.incl[r] += cpu.t - self.since[r];
                self.since[r] = cpu.t;
            }
        }
    }

    /// The profile so far ([`Profiler::finish`] first).
    pub fn profile(&self) -> Profile {
        let mut routines: Vec<RoutineStats> = (0..self.routines.len())
            .filter(|&r| self.instructions[r] > 0 || self.calls[r] > 0)
            .map(|r| RoutineStats {
                name: self.routines.name(r).to_string(),
                addr: self.routines.start(r),
                calls: self.calls[r],
                exclusive: self.excl[r],
                inclusive: self.incl[r],
                instructions: self.instructions[r],
            })
            .collect();
        routines.sort_by(|a, b| b.exclusive.cmp(&a.exclusive).then(a.addr.cmp(&b.addr)));
        let mut folded = Vec::new();
        for (id, &t) in self.node_t.iter().enumerate() {
            if t == 0 || id as u32 == ROOT {
                continue;
            }
            let mut path = Vec::new();
            let mut n = id as u32;
            while n != ROOT {
                let node = self.nodes[n as usize];
                path.push(self.routines.name(node.routine as usize));
                n = node.parent;
            }
            path.reverse();
            folded.push((path.join(";"), t));
        }
        folded.sort();
        Profile {
            total: self.last_t - self.t0,
            instructions: self.instructions.iter().sum(),
            routines,
            folded,
            max_depth: self.max_depth,
            resyncs: self.resyncs,
            discards: self.discards,
        }
    }
}

impl Observer for Profiler<'_> {
    fn page(&mut self, page: Option<u8>) {
        self.page = page;
    }

    #[inline(always)]
    fn before(&mut self, cpu: &Cpu, mem: &[u8; 0x10000]) -> bool {
        if !self.started {
            self.started = true;
            self.t0 = cpu.t;
            self.last_t = cpu.t;
            self.cur = self.routines.at_in(self.page, cpu.pc);
            self.activate(self.cur, cpu.t);
            self.cur_node = self.child(ROOT, self.cur);
        } else {
            let dt = cpu.t - self.last_t;
            self.excl[self.cur] += dt;
            self.node_t[self.cur_node as usize] += dt;
            self.last_t = cpu.t;
            self.transfer(cpu, mem);
        }
        self.instructions[self.cur] += 1;
        self.prev = Pending::at(cpu, mem);
        false
    }
}
