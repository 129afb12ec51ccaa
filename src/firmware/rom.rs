//! Building `roms/` from `asm/`: one image, symbol file and source map per build.
//! `z80chess roms` writes them; a test checks that `roms/` is what `asm/` assembles to.

use super::Build;
use crate::asm::{assemble_file, Assembly};
use std::path::{Path, PathBuf};

/// The firmware's main source, relative to the crate root.
pub const MAIN: &str = "asm/main.asm";

/// Assemble `build` from `root/asm/main.asm` (paths in the source map stay relative to `root`).
pub fn assemble(root: &Path, build: Build) -> Result<Assembly, String> {
    let main = root.join(MAIN);
    assemble_file(&main, &[("BUILD", build.switch())]).map_err(|errs| {
        let mut s = format!(
            "{} error(s) assembling {} for build {}:\n",
            errs.len(),
            main.display(),
            build
        );
        for e in &errs {
            s.push_str(&format!("{e}\n"));
        }
        s
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

/// `z80chess roms [--check]`: assemble every build into `roms/`, or only compare.
pub fn cli(root: &Path, check: bool) -> Result<(), String> {
    let mut stale = Vec::new();
    for build in Build::ALL {
        let a = assemble(root, build)?;
        if a.origin != 0 {
            return Err(format!(
                "build {build}: the image starts at {:04X}h, not at 0",
                a.origin
            ));
        }
        // Only the full build's machine has expansion ROM pages (PAGE n in the source).
        if a.pages > 0 && build != Build::Full {
            return Err(format!(
                "build {build}: uses expansion pages (PAGE); its machine has 16 KiB of ROM only"
            ));
        }
        if a.pages == 0 && a.image.len() > crate::machine::ROM_SIZE {
            return Err(format!(
                "build {build}: {} bytes do not fit in 16 KiB of ROM",
                a.image.len()
            ));
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
                std::fs::write(&path, &bytes)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                println!("wrote {} ({} bytes)", path.display(), bytes.len());
            }
        }
        if a.pages == 0 {
            println!(
                "build {build}: {} bytes of ROM ({:.1}% of 16 KiB)",
                a.image.len(),
                a.image.len() as f64 / 163.84
            );
        } else {
            // The base ROM's last used byte, and each page's.
            let used = |b: &[u8]| b.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
            let base = used(&a.image[..crate::machine::ROM_SIZE]);
            let pages: Vec<String> = (0..a.pages)
                .map(|p| {
                    let n = a.page_bytes(p).map_or(0, used);
                    format!("page {p}: {n} bytes")
                })
                .collect();
            println!(
                "build {build}: base ROM {base} bytes ({:.1}% of 16 KiB); expansion {}",
                base as f64 / 163.84,
                pages.join(", ")
            );
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "roms/ is not what asm/ assembles to: {} (run `z80chess roms`)",
            stale.join(", ")
        ))
    }
}
