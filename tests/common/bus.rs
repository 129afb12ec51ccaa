//! Shared by the CPU test harnesses: a bus that records every machine cycle the CPU runs.

use std::collections::VecDeque;
use z80chess::z80::{Bus, TStates};

/// The kind of machine cycle the CPU asked the bus for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// M1 opcode fetch (4 T).
    FetchRead,
    /// Memory read (3 T).
    Read,
    /// Memory write (3 T).
    Write,
    /// I/O read (4 T).
    PortIn,
    /// I/O write (4 T).
    PortOut,
    /// Interrupt acknowledge (`data` is the byte the bus answered).
    IntAck,
}

/// One machine cycle: its kind, the T-state at which it started, address and data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub kind: Kind,
    pub start_t: TStates,
    pub addr: u16,
    pub data: u8,
}

/// 64 KiB of RAM, a log of every bus cycle, and scriptable port / interrupt answers.
pub struct TracingBus {
    pub mem: Box<[u8; 0x10000]>,
    pub events: Vec<Event>,
    /// `Some(queue)`: port reads take their values from the queue in order (0xFF once it is
    /// empty); `None`: a port read returns the high byte of the port address (FUSE's rule).
    pub port_values: Option<VecDeque<u8>>,
    /// The byte a device puts on the data bus during an interrupt acknowledge.
    pub int_ack_byte: u8,
}

impl Default for TracingBus {
    fn default() -> Self {
        Self::new()
    }
}

impl TracingBus {
    pub fn new() -> Self {
        TracingBus {
            mem: Box::new([0; 0x10000]),
            events: Vec::with_capacity(64),
            port_values: None,
            int_ack_byte: 0xFF,
        }
    }

    /// Copy `bytes` to memory at `addr` (wrapping at 64 KiB).
    pub fn load(&mut self, addr: u16, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            self.mem[addr.wrapping_add(i as u16) as usize] = b;
        }
    }

    fn log(&mut self, kind: Kind, start_t: TStates, addr: u16, data: u8) {
        self.events.push(Event {
            kind,
            start_t,
            addr,
            data,
        });
    }

    /// The events of one kind.
    pub fn of_kind(&self, kind: Kind) -> Vec<Event> {
        self.events
            .iter()
            .copied()
            .filter(|e| e.kind == kind)
            .collect()
    }
}

impl Bus for TracingBus {
    fn fetch(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.mem[addr as usize];
        self.log(Kind::FetchRead, t, addr, v);
        v
    }
    fn read(&mut self, addr: u16, t: TStates) -> u8 {
        let v = self.mem[addr as usize];
        self.log(Kind::Read, t, addr, v);
        v
    }
    fn write(&mut self, addr: u16, value: u8, t: TStates) {
        self.mem[addr as usize] = value;
        self.log(Kind::Write, t, addr, value);
    }
    fn port_in(&mut self, port: u16, t: TStates) -> u8 {
        let v = match &mut self.port_values {
            Some(q) => q.pop_front().unwrap_or(0xFF),
            None => (port >> 8) as u8,
        };
        self.log(Kind::PortIn, t, port, v);
        v
    }
    fn port_out(&mut self, port: u16, value: u8, t: TStates) {
        self.log(Kind::PortOut, t, port, value);
    }
    fn int_ack(&mut self, t: TStates) -> u8 {
        let v = self.int_ack_byte;
        self.log(Kind::IntAck, t, 0, v);
        v
    }
    fn peek(&self, addr: u16) -> u8 {
        self.mem[addr as usize]
    }
}

thread_local! {
    static PANIC_MSG: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Run `f`, turning a panic into `Err("panicked at file:line: message")` without printing it,
/// so a harness can collect every failure instead of stopping at the first.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = PANIC_MSG.with(|m| m.borrow().is_some());
            if quiet {
                let loc = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let payload = info.payload();
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                PANIC_MSG.with(|m| *m.borrow_mut() = Some(format!("panicked at {loc}: {msg}")));
            } else {
                default(info);
            }
        }));
    });
    PANIC_MSG.with(|m| *m.borrow_mut() = Some(String::new()));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let msg = PANIC_MSG
        .with(|m| m.borrow_mut().take())
        .unwrap_or_default();
    r.map_err(|_| msg)
}
