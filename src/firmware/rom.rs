//! Building `roms/` from `asm/`: one image, symbol file and source map per build.
//! `z80chess roms` writes them; a test checks that `roms/` is what `asm/` assembles to.

use super::Build;
use crate::asm::{assemble_file, AsmError, Assembly};
use crate::machine::ROM_SIZE;
use std::path::{Path, PathBuf};

/// The firmware's main source, relative to the crate root.
pub const MAIN: &str = "asm/main.asm";

/// Why `roms/` could not be built or checked.
#[derive(Debug, thiserror::Error)]
pub enum RomsError {
    #[error("{} error(s) assembling {} for build {build}:\n{}", errors.len(), main.display(), lines(errors))]
    Assembly {
        main: PathBuf,
        build: Build,
        errors: Vec<AsmError>,
    },
    #[error("build {build}: the image starts at {origin:04X}h, not at 0")]
    Origin { build: Build, origin: u16 },
    #[error("build {build}: uses expansion pages (PAGE); its machine has 16 KiB of ROM only")]
    Pages { build: Build },
    #[error("build {build}: {size} bytes do not fit in 16 KiB of ROM")]
    TooBig { build: Build, size: usize },
    #[error("{0}")]
    Write(#[from] crate::outfile::OutFileError),
    #[error("roms/ is not what asm/ assembles to: {} (run `z80chess roms`)", stale.join(", "))]
    Stale { stale: Vec<String> },
}

fn lines(errors: &[AsmError]) -> String {
    errors.iter().map(|e| format!("{e}\n")).collect()
}

/// Assemble `build` from `root/asm/main.asm` (paths in the source map stay relative to `root`).
pub fn assemble(root: &Path, build: Build) -> Result<Assembly, RomsError> {
    let main = root.join(MAIN);
    assemble_file(&main, &[("BUILD", build.switch())]).map_err(|errors| RomsError::Assembly {
        main,
        build,
        errors,
    })
}

/// The files of one build in `roms/`: (path, contents).
pub fn outputs(root: &Path, build: Build, a: &Assembly) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = root.join("roms");
    let image = a.image.clone();
    // Source map paths relative to the crate root, whatever `root` was.
    let prefix = format!("{}/", root.display());
    let map = a.source_map_text().replace(&prefix, "");
    vec![
        (dir.join(format!("{}.bin", build.name())), image),
        (
            dir.join(format!("{}.sym", build.name())),
            a.symbol_file().into_bytes(),
        ),
        (dir.join(format!("{}.map", build.name())), map.into_bytes()),
    ]
}

/// `z80chess roms [--check]`: assemble every build into `roms/` (or only compare, `check`).
/// The lines say what was written and how full each ROM is; `roms/` differing from `asm/`
/// under `check` is [`RomsError::Stale`], returned after every build was looked at (so the
/// lines come with it).
pub fn build_roms(root: &Path, check: bool) -> (Vec<String>, Result<(), RomsError>) {
    let mut report = Vec::new();
    let mut stale = Vec::new();
    for build in Build::ALL {
        if let Err(e) = build_one(root, build, check, &mut report, &mut stale) {
            return (report, Err(e));
        }
    }
    let done = if stale.is_empty() {
        Ok(())
    } else {
        Err(RomsError::Stale { stale })
    };
    (report, done)
}

/// One build of [`build_roms`].
fn build_one(
    root: &Path,
    build: Build,
    check: bool,
    report: &mut Vec<String>,
    stale: &mut Vec<String>,
) -> Result<(), RomsError> {
    let a = assemble(root, build)?;
    if a.origin != 0 {
        return Err(RomsError::Origin {
            build,
            origin: a.origin,
        });
    }
    // Only the full build's machine has expansion ROM pages (PAGE n in the source).
    if a.pages > 0 && build != Build::Full {
        return Err(RomsError::Pages { build });
    }
    if a.pages == 0 && a.image.len() > ROM_SIZE {
        return Err(RomsError::TooBig {
            build,
            size: a.image.len(),
        });
    }
    for (path, bytes) in outputs(root, build, &a) {
        let same = std::fs::read(&path)
            .map(|old| old == bytes)
            .unwrap_or(false);
        if check {
            if !same {
                stale.push(path.display().to_string());
            }
        } else if !same {
            // Rewriting roms/ from asm/ is the command's job.
            crate::outfile::write(&path, &bytes, crate::outfile::Replace::Allow)?;
            report.push(format!("wrote {} ({} bytes)", path.display(), bytes.len()));
        }
    }
    report.push(if a.pages == 0 {
        format!(
            "build {build}: {} bytes of ROM ({:.1}% of 16 KiB)",
            a.image.len(),
            a.image.len() as f64 / 163.84
        )
    } else {
        // The base ROM's last used byte, and each page's.
        let used = |b: &[u8]| b.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        let base = used(&a.image[..ROM_SIZE]);
        let pages: Vec<String> = (0..a.pages)
            .map(|p| {
                let n = a.page_bytes(p).map_or(0, used);
                format!("page {p}: {n} bytes")
            })
            .collect();
        format!(
            "build {build}: base ROM {base} bytes ({:.1}% of 16 KiB); expansion {}",
            base as f64 / 163.84,
            pages.join(", ")
        )
    });
    Ok(())
}

impl Build {
    /// One line on what the build is (the command line's help lists it beside the name).
    pub fn about(self) -> &'static str {
        match self {
            Build::Article => "The rules of the Spracklens' BYTE article",
            Build::B1978 => "The published 1978 program's choices",
            Build::Full => {
                "The article's program with 16-bit scores and scoring parameter blocks, on a \
                 machine with expansion memory: Cray Blitz's knowledge and search craft, \
                 king-and-pawn endings, a quiescence search and Lüscher's endgame module"
            }
        }
    }
}

/// A build name that is none of [`Build::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a build: one of article, 1978, full")]
pub struct UnknownBuild(pub String);

impl std::str::FromStr for Build {
    type Err = UnknownBuild;
    /// A build by its name in `roms/` (`article`, `1978`, `full`), case ignored.
    fn from_str(s: &str) -> Result<Build, UnknownBuild> {
        Build::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownBuild(s.to_string()))
    }
}
