//! Shared by the parser property tests (asm_fuzz, fen_fuzz, params_fuzz, debug_parse_fuzz):
//! the number of cases, and a watchdog that time-limits each case.
//!
//! Cases: 10,000 per property in `cargo test`; `PROPTEST_CASES=N` sets another count, e.g. the
//! long run:
//!
//! ```text
//! PROPTEST_CASES=1000000 cargo test --release --test toolchain --test engine --test instruments \
//!     -- asm_fuzz:: fen_fuzz:: params_fuzz:: debug_parse_fuzz::
//! ```
//!
//! Watchdog: every case runs inside [`case`]; a case still running after
//! `FUZZ_CASE_SECONDS` (default 30) of wall time prints its input and aborts the process, so a
//! hang is a failure with the input named, never a run that does not end.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// Cases per property: `PROPTEST_CASES` if set, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The config of a parser property: [`cases`] of 10,000, no failure persistence files
/// written into the source tree, and few shrink steps (an input that fails is small already).
pub fn config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: cases(10_000),
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..proptest::test_runner::Config::default()
    }
}

type Running = Mutex<HashMap<ThreadId, (Instant, String)>>;

fn running() -> &'static Running {
    static RUNNING: OnceLock<Running> = OnceLock::new();
    RUNNING.get_or_init(|| {
        let limit = Duration::from_secs(
            std::env::var("FUZZ_CASE_SECONDS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(30),
        );
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let map = running().lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, (_, input))) = map.iter().find(|(_, (t, _))| t.elapsed() > limit) {
                eprintln!("a case ran for more than {limit:?} (a hang); its input: {input:?}");
                std::process::abort();
            }
        });
        Mutex::new(HashMap::new())
    })
}

/// Run one case under the watchdog; `input` is what it prints if the case hangs.
pub fn case<T>(input: &str, f: impl FnOnce() -> T) -> T {
    struct Done(ThreadId);
    impl Drop for Done {
        fn drop(&mut self) {
            running()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&self.0);
        }
    }
    let id = std::thread::current().id();
    running()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, (Instant::now(), input.to_string()));
    let _done = Done(id);
    f()
}

/// One edit of a text: (where, 0 replace / 1 insert / 2 remove, the character).
pub type Edit = (usize, u8, char);

/// `min..=max` edits with characters from `chars`.
pub fn edits(
    chars: &'static [char],
    min: usize,
    max: usize,
) -> impl proptest::strategy::Strategy<Value = Vec<Edit>> {
    use proptest::prelude::*;
    prop::collection::vec(
        (0usize..200, 0u8..3, prop::sample::select(chars)),
        min..=max,
    )
}

/// `text` with `edits` applied (positions wrap around its length).
pub fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for &(at, how, ch) in edits {
        let at = at % (s.len() + 1);
        match how {
            0 if at < s.len() => s[at] = ch,
            1 => s.insert(at, ch),
            _ if at < s.len() => {
                s.remove(at);
            }
            _ => s.push(ch),
        }
    }
    s.into_iter().collect()
}
