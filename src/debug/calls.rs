//! The call-stack tracker both instruments use (the debugger's backtrace and `finish`, the
//! profiler's inclusive times and call stacks).
//!
//! What an instruction does to the call stack comes from the ISA's decoding table
//! ([`crate::z80::isa::form`]): CALL, CALL cc and RST are calls, RET, RET cc, RETI and RETN
//! returns; a table of the unprefixed, ED, DD and FD pages is built from it once. A call is
//! recorded when it happened: after the instruction, SP is 2 lower and holds the address of the
//! instruction after it (a CALL cc not taken pushes nothing). A frame ends when SP rises above
//! the slot of its return address, however the routine left (RET, a POP and JP, a reset stack).

use crate::z80::isa::{self, Page};
use crate::z80::Cpu;
use std::sync::OnceLock;

/// What an instruction does to the call stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flow {
    #[default]
    Other,
    /// CALL, CALL cc or RST.
    Call,
    /// RET, RET cc, RETI or RETN.
    Ret,
    /// POP: a frame it drops had its return address thrown away on purpose (an early exit
    /// through the caller's caller, or a tail jump), not lost to a stack reset.
    Pop,
}

/// (flow, length in bytes) of every opcode of the main, ED, DD and FD pages (`None`: a byte
/// that selects another page).
fn table() -> &'static [Option<(Flow, u8)>; 4 * 256] {
    static TABLE: OnceLock<[Option<(Flow, u8)>; 4 * 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [None; 4 * 256];
        for (p, page) in [Page::Main, Page::Ed, Page::Dd, Page::Fd]
            .into_iter()
            .enumerate()
        {
            for op in 0..=255u8 {
                t[p * 256 + op as usize] = isa::form(page, op).map(|f| {
                    let text = f.template.text.as_str();
                    let word = text.split_whitespace().next().unwrap_or("");
                    let flow = match word {
                        "CALL" | "RST" => Flow::Call,
                        "RET" | "RETI" | "RETN" => Flow::Ret,
                        "POP" => Flow::Pop,
                        _ => Flow::Other,
                    };
                    (flow, f.template.len() as u8)
                });
            }
        }
        t
    })
}

/// The instruction about to run, as call tracking needs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    pub pc: u16,
    pub sp: u16,
    pub flow: Flow,
    /// The address after it (where a call's return address points).
    pub next: u16,
}

impl Pending {
    /// Read the instruction at PC (DD/FD prefixes before it are skipped, as the CPU does).
    #[inline]
    pub fn at(cpu: &Cpu, mem: &[u8; 0x10000]) -> Pending {
        let at = |k: u16| mem[cpu.pc.wrapping_add(k) as usize];
        let mut k = 0u16;
        while k < 4 && matches!(at(k), 0xDD | 0xFD) {
            k += 1;
        }
        let t = table();
        let (page, op, skip) = match (k, at(k)) {
            (0, 0xED) => (1, at(1), 0),
            (0, op) => (0, op, 0),
            (_, op) => (if at(k - 1) == 0xDD { 2 } else { 3 }, op, k - 1),
        };
        let (flow, len) = t[page * 256 + op as usize].unwrap_or((Flow::Other, 1));
        Pending {
            pc: cpu.pc,
            sp: cpu.sp,
            flow: if cpu.halted { Flow::Other } else { flow },
            next: cpu.pc.wrapping_add(skip + len as u16),
        }
    }
}

/// One call in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<T = ()> {
    /// The CALL or RST instruction.
    pub call_pc: u16,
    /// Where it went.
    pub target: u16,
    /// The return address it pushed.
    pub ret: u16,
    /// SP after the push: the frame ends when SP rises above it.
    pub slot: u16,
    /// What the instrument keeps with it.
    pub data: T,
}

/// The frame `pre`'s instruction opened, if it was a call and pushed its return address.
#[inline]
pub fn called(pre: &Pending, cpu: &Cpu, mem: &[u8; 0x10000]) -> Option<Frame> {
    if pre.flow != Flow::Call || cpu.sp != pre.sp.wrapping_sub(2) {
        return None;
    }
    let ret = u16::from_le_bytes([mem[cpu.sp as usize], mem[cpu.sp.wrapping_add(1) as usize]]);
    (ret == pre.next).then_some(Frame {
        call_pc: pre.pc,
        target: cpu.pc,
        ret,
        slot: cpu.sp,
        data: (),
    })
}

/// The calls in progress, outermost first, at most `limit` (the oldest are forgotten).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallStack<T = ()> {
    pub frames: Vec<Frame<T>>,
    limit: usize,
}

impl<T> CallStack<T> {
    pub fn new(limit: usize) -> CallStack<T> {
        CallStack {
            frames: Vec::new(),
            limit,
        }
    }

    /// Open a frame (`f` from [`called`]) carrying `data`.
    #[inline]
    pub fn push(&mut self, f: Frame, data: T) {
        if self.frames.len() >= self.limit {
            self.frames.remove(0);
        }
        self.frames.push(Frame {
            call_pc: f.call_pc,
            target: f.target,
            ret: f.ret,
            slot: f.slot,
            data,
        });
    }

    /// Close the innermost frame if SP (`sp`) has risen above its slot; call until `None`.
    #[inline]
    pub fn pop_left(&mut self, sp: u16) -> Option<Frame<T>> {
        let f = self.frames.last()?;
        if (sp.wrapping_sub(f.slot) as i16) > 0 {
            self.frames.pop()
        } else {
            None
        }
    }

    pub fn depth(&self) -> usize {
        self.frames.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(bytes: &[u8]) -> Pending {
        let mut mem = Box::new([0u8; 0x10000]);
        mem[0x100..0x100 + bytes.len()].copy_from_slice(bytes);
        let cpu = Cpu {
            pc: 0x100,
            sp: 0x8000,
            ..Cpu::default()
        };
        Pending::at(&cpu, &mem)
    }

    #[test]
    fn calls_and_returns_come_from_the_decoding_table() {
        assert_eq!(pending(&[0xCD, 0, 0x20]).flow, Flow::Call);
        assert_eq!(pending(&[0xCD, 0, 0x20]).next, 0x103);
        assert_eq!(pending(&[0xDC, 0, 0x20]).flow, Flow::Call); // CALL C
        assert_eq!(pending(&[0xFF]).next, 0x101); // RST 38h
        assert_eq!(pending(&[0xFF]).flow, Flow::Call);
        assert_eq!(pending(&[0xC9]).flow, Flow::Ret);
        assert_eq!(pending(&[0xD8]).flow, Flow::Ret); // RET C
        assert_eq!(pending(&[0xED, 0x4D]).flow, Flow::Ret); // RETI
        assert_eq!(pending(&[0xED, 0x45]).flow, Flow::Ret); // RETN
        assert_eq!(pending(&[0xD1]).flow, Flow::Pop); // POP DE
        assert_eq!(pending(&[0xDD, 0xE1]).flow, Flow::Pop); // POP IX
        assert_eq!(pending(&[0xC3, 0, 0]).flow, Flow::Other); // JP
        assert_eq!(pending(&[0xE9]).flow, Flow::Other); // JP (HL)
        assert_eq!(pending(&[0xDD, 0xE9]).flow, Flow::Other); // JP (IX)
        assert_eq!(pending(&[0xDD, 0xCD, 0, 0x20]).next, 0x104); // a prefix before CALL
        assert_eq!(pending(&[0xDD, 0xDD, 0xCD, 0, 0x20]).next, 0x105);
        assert_eq!(pending(&[0xCB, 0x00]).flow, Flow::Other);
    }
}
