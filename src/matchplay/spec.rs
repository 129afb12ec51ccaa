//! What the command line names: the two engines and the time control.

use super::MatchError;
use crate::firmware::Build;
use clap::ValueEnum;
use std::path::PathBuf;

/// One side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// A firmware build, optionally with a parameter file (`full:my.params`).
    Build {
        build: Build,
        params: Option<PathBuf>,
    },
    /// An external UCI engine: `uci:PATH`, with arguments after spaces and options after
    /// commas (`uci:/path/z80chess uci,Level=1`).
    Uci {
        path: PathBuf,
        args: Vec<String>,
        options: Vec<(String, String)>,
    },
}

/// The names of the builds, for messages ("article, 1978").
pub fn build_names() -> String {
    Build::value_variants()
        .iter()
        .filter_map(|b| b.to_possible_value())
        .map(|v| v.get_name().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl EngineSpec {
    /// Parse `article`, `1978`, `full:FILE`, `uci:PATH[,Name=value...]`.
    pub fn parse(spec: &str) -> Result<EngineSpec, MatchError> {
        let bad = |reason: String| MatchError::BadEngine {
            spec: spec.to_string(),
            reason,
        };
        let text = spec.trim();
        if text.is_empty() {
            return Err(bad(format!(
                "empty: name a build ({}), build:PARAMSFILE or uci:PATH",
                build_names()
            )));
        }
        let (head, rest) = match text.split_once(':') {
            Some((h, r)) => (h, Some(r)),
            None => (text, None),
        };
        if head.eq_ignore_ascii_case("uci") {
            let rest = rest.unwrap_or("");
            let mut parts = rest.split(',');
            let mut command = parts.next().unwrap_or("").split_whitespace();
            let path = command.next().unwrap_or("");
            let args = command.map(str::to_string).collect();
            if path.is_empty() {
                return Err(bad(
                    "uci: needs the engine's path (uci:/usr/games/stockfish)".into(),
                ));
            }
            let mut options = Vec::new();
            for p in parts {
                let Some((name, value)) = p.split_once('=') else {
                    return Err(bad(format!(
                        "UCI option '{p}' is not Name=value (uci:PATH,Name=value,...)"
                    )));
                };
                if name.trim().is_empty() {
                    return Err(bad(format!("UCI option '{p}' has no name")));
                }
                options.push((name.trim().to_string(), value.trim().to_string()));
            }
            return Ok(EngineSpec::Uci {
                path: PathBuf::from(path),
                args,
                options,
            });
        }
        let build = Build::from_str(head, true).map_err(|_| {
            bad(format!(
                "'{head}' is not a build: choose {}, or uci:PATH",
                build_names()
            ))
        })?;
        let params = match rest {
            None => None,
            Some(r) if r.trim().is_empty() => {
                return Err(bad(format!(
                    "'{head}:' names no parameter file ({head}:FILE)"
                )))
            }
            Some(r) => Some(PathBuf::from(r.trim())),
        };
        Ok(EngineSpec::Build { build, params })
    }
}

/// How long each side thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed-depth search of this many plies.
    Level(u8),
    /// Seconds of emulated time per move (× the clock rate in T-states), then MOVE-NOW.
    MoveTime(f64),
    /// `moves` moves in `seconds` of emulated time, repeating.
    Tournament { moves: u32, seconds: f64 },
}

impl TimeControl {
    /// `--tc-emulated MOVES/SECONDS`.
    pub fn parse_tournament(text: &str) -> Result<TimeControl, MatchError> {
        let bad = |reason: &str| MatchError::BadTimeControl {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (m, s) = text
            .split_once('/')
            .ok_or_else(|| bad("write MOVES/SECONDS, e.g. 40/7200"))?;
        let moves: u32 = m
            .trim()
            .parse()
            .map_err(|_| bad("MOVES is not a whole number"))?;
        if moves == 0 {
            return Err(bad("MOVES must be at least 1"));
        }
        let seconds = parse_seconds(s).map_err(|r| bad(&r))?;
        Ok(TimeControl::Tournament { moves, seconds })
    }

    /// `--movetime-emulated S`.
    pub fn parse_movetime(text: &str) -> Result<TimeControl, MatchError> {
        parse_seconds(text)
            .map(TimeControl::MoveTime)
            .map_err(|reason| MatchError::BadTimeControl {
                text: text.to_string(),
                reason,
            })
    }

    /// `--level L`.
    pub fn level(level: u8) -> Result<TimeControl, MatchError> {
        if !(1..=crate::session::MAX_DEPTH).contains(&level) {
            return Err(MatchError::BadTimeControl {
                text: format!("--level {level}"),
                reason: format!("choose a depth of 1 to {}", crate::session::MAX_DEPTH),
            });
        }
        Ok(TimeControl::Level(level))
    }

    /// The PGN TimeControl tag: "-" for a fixed depth, "30/move", "40/7200".
    pub fn pgn_tag(&self) -> String {
        match *self {
            TimeControl::Level(_) => "-".into(),
            TimeControl::MoveTime(s) => format!("{}/move", secs(s)),
            TimeControl::Tournament { moves, seconds } => format!("{moves}/{}", secs(seconds)),
        }
    }

    /// In words, for the report.
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Level(l) => format!("level {l}"),
            TimeControl::MoveTime(s) => format!("{} s emulated per move", secs(s)),
            TimeControl::Tournament { moves, seconds } => {
                format!("{moves} moves in {} s emulated", secs(seconds))
            }
        }
    }
}

fn secs(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of seconds", text.trim()))?;
    if !s.is_finite() || s <= 0.0 {
        return Err("the time must be more than 0 seconds".into());
    }
    if s > 1e7 {
        return Err("the time must be at most 10,000,000 seconds".into());
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            EngineSpec::parse("article").unwrap(),
            EngineSpec::Build {
                build: Build::Article,
                params: None
            }
        );
        assert_eq!(
            EngineSpec::parse("1978:x.params").unwrap(),
            EngineSpec::Build {
                build: Build::B1978,
                params: Some("x.params".into())
            }
        );
        assert_eq!(
            EngineSpec::parse("uci:/usr/games/stockfish,Skill Level=0").unwrap(),
            EngineSpec::Uci {
                path: "/usr/games/stockfish".into(),
                args: vec![],
                options: vec![("Skill Level".into(), "0".into())]
            }
        );
        assert_eq!(
            EngineSpec::parse("uci:z80chess uci,Level=1").unwrap(),
            EngineSpec::Uci {
                path: "z80chess".into(),
                args: vec!["uci".into()],
                options: vec![("Level".into(), "1".into())]
            }
        );
        for bad in [
            "",
            "sargon",
            "article:",
            "uci:",
            "uci:x,noequals",
            "uci:x,=1",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
        let e = EngineSpec::parse("sargon").unwrap_err().to_string();
        assert!(e.contains("sargon") && e.contains("article"), "{e}");
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse_tournament("40/7200").unwrap(),
            TimeControl::Tournament {
                moves: 40,
                seconds: 7200.0
            }
        );
        assert_eq!(
            TimeControl::parse_movetime("0.5").unwrap(),
            TimeControl::MoveTime(0.5)
        );
        for bad in ["40", "0/60", "x/60", "40/0", "40/-1", "40/abc"] {
            assert!(TimeControl::parse_tournament(bad).is_err(), "{bad}");
        }
        for bad in ["0", "-3", "nan", "inf", "x"] {
            assert!(TimeControl::parse_movetime(bad).is_err(), "{bad}");
        }
        assert!(TimeControl::level(0).is_err());
        assert!(TimeControl::level(9).is_err());
        assert_eq!(TimeControl::MoveTime(30.0).pgn_tag(), "30/move");
        assert_eq!(
            TimeControl::parse_tournament("40/7200").unwrap().pgn_tag(),
            "40/7200"
        );
    }
}
