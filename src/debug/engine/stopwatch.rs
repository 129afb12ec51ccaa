//! Stopwatches: named timers between two addresses (or until the frame returns).

/// A named timer between two addresses.
#[derive(Clone, Debug)]
pub struct Stopwatch {
    pub name: String,
    pub from: u16,
    /// None: until the frame that was current at `from` returns.
    pub to: Option<u16>,
    pub from_text: String,
    pub to_text: String,
    pub count: u64,
    pub total: u128,
    pub min: u64,
    pub max: u64,
    /// Running intervals: (start T, call depth at start).
    pub(super) pending: Vec<(u64, usize)>,
}

impl Stopwatch {
    pub fn new(name: &str, from: u16, to: Option<u16>, from_text: &str, to_text: &str) -> Self {
        Stopwatch {
            name: name.to_string(),
            from,
            to,
            from_text: from_text.to_string(),
            to_text: to_text.to_string(),
            count: 0,
            total: 0,
            min: u64::MAX,
            max: 0,
            pending: Vec::new(),
        }
    }
    pub(super) fn record(&mut self, dt: u64) {
        self.count += 1;
        self.total += dt as u128;
        self.min = self.min.min(dt);
        self.max = self.max.max(dt);
    }
    pub fn reset(&mut self) {
        self.count = 0;
        self.total = 0;
        self.min = u64::MAX;
        self.max = 0;
        self.pending.clear();
    }
    pub fn running(&self) -> usize {
        self.pending.len()
    }
    pub(super) fn observe(&mut self, pc: u16, t: u64, depth: usize) {
        match self.to {
            Some(to) => {
                if pc == to {
                    if let Some((t0, _)) = self.pending.pop() {
                        self.record(t.saturating_sub(t0));
                    }
                }
            }
            None => {
                while let Some(&(t0, d0)) = self.pending.last() {
                    if depth < d0 {
                        self.pending.pop();
                        self.record(t.saturating_sub(t0));
                    } else {
                        break;
                    }
                }
            }
        }
        if pc == self.from && self.pending.len() < 4096 {
            self.pending.push((t, depth));
        }
    }
}
