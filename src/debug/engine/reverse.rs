//! Going back: replaying to an instruction count from the nearest snapshot, and the reverse
//! run commands built on it (reverse-step, -next, -finish, -continue, goto).

use super::*;

impl Debugger {
    /// Execute forward without looking at breakpoints until `target` instructions.
    pub(super) fn replay_to(&mut self, target: u64) {
        while self.track.icount < target {
            let mut obs = Obs::new(
                &mut self.track,
                &mut self.bps,
                &self.maps,
                Mode::Replay { target },
                self.genmov,
            );
            let r = self.m.run_observed_dyn(u64::MAX, &mut obs);
            if matches!(
                r,
                StopReason::InputNeeded | StopReason::Exit(_) | StopReason::Fault(_)
            ) {
                obs.after(&self.m.cpu, &self.m.bus.mem);
            }
        }
        self.prog.set_view(self.m.bus.window_page());
    }

    // ---- backward --------------------------------------------------------------------

    /// Go to the state after `target` instructions (at most the current count).
    pub fn goto(&mut self, target: u64) -> Result<(), String> {
        let cur = self.track.icount;
        if target > self.high_water {
            return Err(format!(
                "instruction {target} has not been executed yet (the history ends at {})",
                self.high_water
            ));
        }
        let from = self
            .snaps
            .range(..=target)
            .next_back()
            .map(|(k, _)| *k)
            .ok_or("no snapshot before that point")?;
        if !(target >= cur && cur >= from) {
            self.restore(from);
        }
        self.replay_to(target);
        Ok(())
    }

    /// The latest state before the current one that `scan` accepts.
    pub(super) fn scan_back(&mut self, scan: Scan) -> Option<(u64, Vec<Hit>)> {
        let cur = self.track.icount;
        if cur == 0 {
            return None;
        }
        let hi = cur - 1;
        let keys: Vec<u64> = self.snaps.range(..cur).map(|(k, _)| *k).collect();
        let mut found = None;
        for idx in (0..keys.len()).rev() {
            let start = keys[idx];
            let end = keys.get(idx + 1).copied().unwrap_or(hi).min(hi);
            if end <= start {
                continue;
            }
            self.restore(start);
            let mut obs = Obs::new(
                &mut self.track,
                &mut self.bps,
                &self.maps,
                Mode::Scan { scan, end },
                self.genmov,
            );
            while obs.track.icount < end {
                let r = self.m.run_observed_dyn(u64::MAX, &mut obs);
                if matches!(
                    r,
                    StopReason::InputNeeded | StopReason::Exit(_) | StopReason::Fault(_)
                ) {
                    obs.after(&self.m.cpu, &self.m.bus.mem);
                }
            }
            found = obs.found.take();
            if found.is_some() {
                break;
            }
        }
        found
    }

    pub(super) fn land(&mut self, at: Option<(u64, Vec<Hit>)>, cur: u64) -> Stop {
        let mut stop = Stop::default();
        match at {
            Some((ic, hits)) => {
                let _ = self.goto(ic);
                stop.goal = hits.is_empty();
                stop.hits = hits;
            }
            None => {
                let first = self.snaps.keys().next().copied().unwrap_or(0);
                let _ = self.goto(first.min(cur));
                stop.history_start = true;
            }
        }
        stop
    }

    /// Back `n` instructions.
    pub fn reverse_step(&mut self, n: u64) -> Stop {
        let cur = self.track.icount;
        let first = self.snaps.keys().next().copied().unwrap_or(0);
        let target = cur.saturating_sub(n).max(first);
        let mut stop = Stop::default();
        let _ = self.goto(target);
        if cur - target < n {
            stop.history_start = true;
        } else {
            stop.goal = true;
        }
        stop
    }

    /// Back to the previous instruction at this call depth or shallower (over calls).
    pub fn reverse_next(&mut self) -> Stop {
        let cur = self.track.icount;
        let d = self.track.depth();
        let at = self
            .scan_back(Scan::DepthLe(d))
            .map(|(ic, _)| (ic, Vec::new()));
        self.land(at, cur)
    }

    /// Back to the CALL that entered the current frame.
    pub fn reverse_finish(&mut self) -> Result<Stop, String> {
        let cur = self.track.icount;
        let d = self.track.depth();
        if d == 0 {
            return Err("\"reverse-finish\" not meaningful in the outermost frame".into());
        }
        let at = self
            .scan_back(Scan::DepthLt(d))
            .map(|(ic, _)| (ic, Vec::new()));
        Ok(self.land(at, cur))
    }

    /// Back to the latest breakpoint, watchpoint or catchpoint hit before now.
    pub fn reverse_continue(&mut self) -> Stop {
        let cur = self.track.icount;
        let at = self.scan_back(Scan::AnyHit);
        let mut stop = self.land(at, cur);
        stop.goal = false;
        stop
    }
}
