#![doc = include_str!("README.md")]

pub mod bench;
pub mod evals;

pub mod profiler;
pub mod regress;
pub mod routines;

use crate::firmware::{parse_search, protocol, Engine, FirmwareError, SearchResult};
use crate::machine::StopReason;
pub use profiler::{Profile, Profiler, RoutineStats};
pub use routines::Routines;

/// Run the search command ('G' level flags) with the profiler watching; the engine's answer
/// and where its T-states went. `SearchResult::tstates` is measured exactly as
/// [`Engine::search`] measures it, and equals [`Profile::total`].
pub fn profile_search(
    engine: &mut Engine,
    level: u8,
    iterate: bool,
) -> Result<(SearchResult, Profile), FirmwareError> {
    let routines = Routines::for_build(engine.build).map_err(FirmwareError::Position)?;
    let mut profiler = Profiler::new(&routines);
    engine.machine.take_output();
    let t0 = engine.tstates();
    engine
        .machine
        .send(&[protocol::CMD_SEARCH, level, iterate as u8]);
    loop {
        match engine.machine.run_observed_dyn(u64::MAX, &mut profiler) {
            StopReason::InputNeeded if engine.machine.pending_input() == 0 => break,
            StopReason::InputNeeded => continue,
            other => {
                return Err(FirmwareError::Stopped {
                    command: 'G',
                    reason: format!("{other:?}"),
                })
            }
        }
    }
    profiler.finish(&engine.machine.cpu);
    let tstates = engine.tstates() - t0;
    let out = engine.machine.take_output();
    match out.first() {
        None => Err(FirmwareError::Protocol {
            command: 'G',
            detail: "no reply".into(),
        }),
        Some(&0) => Ok((
            parse_search(engine.build, &out[1..], tstates)?,
            profiler.profile(),
        )),
        Some(&code) => Err(FirmwareError::Rejected {
            command: 'G',
            code,
            reason: protocol::error_text(code),
        }),
    }
}
