//! What an evaluation costs in a search (a period-strength yardstick, `benches/README.md`), the
//! search's T-states divided
//! by the POINTS calls that ran every term. Lazy exits (POINTS calls that left before the
//! exchange analysis) and stand-pat returns (quiescence nodes that returned their static score)
//! are counted apart, from the full build's cumulative counters `NLAZY` and `NSTPAT`
//! (`asm/vars.asm`): read before and after a search, never cleared by the firmware, 0 in the
//! period builds; `NLAZY` counts lazy evaluation's exits (`F2_LAZY`) and `NSTPAT` the quiescence
//! search's stand-pats (`F2_QUIES`). The search's own counters (POINTS calls,
//! moves made) come from its `E` reply.

use crate::firmware::{Engine, SearchResult};
use crate::machine::PERIOD_HZ;
use crate::session::group;

/// The full build's counters of evaluations that did not run every term, at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// POINTS calls that left early (`NLAZY`; counted among the POINTS calls too).
    pub lazy: u32,
    /// Quiescence nodes that stood pat (`NSTPAT`; their POINTS calls are counted as such).
    pub stand_pat: u32,
}

impl Counters {
    /// The counters as the firmware holds them now (0 where the build has none).
    pub fn read(engine: &Engine) -> Counters {
        Counters {
            lazy: crate::session::counter(engine, "NLAZY").unwrap_or(0),
            stand_pat: crate::session::counter(engine, "NSTPAT").unwrap_or(0),
        }
    }

    /// What was counted since `before` (the counters wrap at 2^32).
    pub fn since(self, before: Counters) -> Counters {
        Counters {
            lazy: self.lazy.wrapping_sub(before.lazy),
            stand_pat: self.stand_pat.wrapping_sub(before.stand_pat),
        }
    }
}

/// A search's cost per evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalCost {
    pub tstates: u64,
    /// POINTS calls, every kind.
    pub evaluations: u64,
    /// Of those, lazy exits.
    pub lazy: u64,
    /// Stand-pat returns (quiescence nodes, reported apart).
    pub stand_pat: u64,
    /// Moves made by the search.
    pub nodes: u64,
}

impl EvalCost {
    /// The cost of search `r`, with the counters counted during it.
    pub fn of(r: &SearchResult, during: Counters) -> EvalCost {
        EvalCost {
            tstates: r.tstates,
            evaluations: r.evaluations as u64,
            lazy: during.lazy as u64,
            stand_pat: during.stand_pat as u64,
            nodes: r.nodes as u64,
        }
    }

    /// The sum of two costs (a bench's searches).
    pub fn plus(self, o: EvalCost) -> EvalCost {
        EvalCost {
            tstates: self.tstates + o.tstates,
            evaluations: self.evaluations + o.evaluations,
            lazy: self.lazy + o.lazy,
            stand_pat: self.stand_pat + o.stand_pat,
            nodes: self.nodes + o.nodes,
        }
    }

    /// POINTS calls that ran every term.
    pub fn full_evaluations(&self) -> u64 {
        self.evaluations.saturating_sub(self.lazy)
    }

    /// The search's T-states per evaluation that ran every term (None when there was none).
    pub fn per_evaluation(&self) -> Option<u64> {
        let n = self.full_evaluations();
        (n > 0).then(|| self.tstates / n)
    }

    /// POINTS calls (every kind) per move made (None when no move was made).
    pub fn evaluations_per_move(&self) -> Option<f64> {
        (self.nodes > 0).then(|| self.evaluations as f64 / self.nodes as f64)
    }

    /// One line: `T-states per evaluation N (T T / E evaluations that ran every term; lazy
    /// exits L, stand-pat returns S); X evaluations per move made`.
    pub fn line(&self) -> String {
        let per = self.per_evaluation().map_or_else(|| "-".to_string(), group);
        let per_move = self
            .evaluations_per_move()
            .map_or_else(|| "-".to_string(), |x| format!("{x:.2}"));
        format!(
            "T-states per evaluation {per} ({} T / {} evaluations that ran every term; lazy exits {}, stand-pat returns {}); {per_move} evaluations per move made",
            group(self.tstates),
            group(self.full_evaluations()),
            group(self.lazy),
            group(self.stand_pat),
        )
    }
}

/// The T-states of `secs` seconds at the period clock (at least 1).
pub fn emulated_tstates(secs: f64) -> u64 {
    ((secs * PERIOD_HZ as f64).round() as u64).max(1)
}

/// How a search is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// To `level` plies, iterating or not.
    Level { level: u8, iterate: bool },
    /// Iterating up to `level` plies, moving now after `secs` of emulated time.
    Time { secs: f64, level: u8 },
}

impl Limit {
    /// The depth searched to (the deepest, for a time limit).
    pub fn level(self) -> u8 {
        match self {
            Limit::Level { level, .. } | Limit::Time { level, .. } => level,
        }
    }

    /// Run the search `self` describes in `engine` (loaded with its position).
    pub fn search(self, engine: &mut Engine) -> Result<SearchResult, String> {
        match self {
            Limit::Level { level, iterate } => {
                engine.search(level, iterate).map_err(|e| e.to_string())
            }
            Limit::Time { secs, level } => {
                use crate::session::search::{Driver, Search};
                let search = Search::start(engine, level);
                Driver::finish_within(search, engine, emulated_tstates(secs))
                    .map_err(|e| e.to_string())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_exits_do_not_count_as_evaluations() {
        let c = EvalCost {
            tstates: 1_000_000,
            evaluations: 30,
            lazy: 10,
            stand_pat: 4,
            nodes: 40,
        };
        assert_eq!(c.full_evaluations(), 20);
        assert_eq!(c.per_evaluation(), Some(50_000));
        assert_eq!(c.evaluations_per_move(), Some(0.75));
        let l = c.line();
        assert!(
            l.starts_with("T-states per evaluation 50,000 (1,000,000 T / 20 "),
            "{l}"
        );
        assert!(l.contains("lazy exits 10, stand-pat returns 4"), "{l}");
        assert!(l.ends_with("0.75 evaluations per move made"), "{l}");
        let none = EvalCost::default();
        assert_eq!(
            (none.per_evaluation(), none.evaluations_per_move()),
            (None, None)
        );
        assert_eq!(c.plus(c).full_evaluations(), 40);
    }

    #[test]
    fn the_counters_wrap() {
        let before = Counters {
            lazy: u32::MAX,
            stand_pat: 7,
        };
        let after = Counters {
            lazy: 2,
            stand_pat: 7,
        };
        assert_eq!(
            after.since(before),
            Counters {
                lazy: 3,
                stand_pat: 0
            }
        );
    }
}
