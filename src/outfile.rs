//! Writing a file the user named, beside [`crate::userfile`] which reads one. Every command that
//! writes a file goes through this module, so every output behaves alike:
//!
//! - the new content goes to a temporary file in the target's folder (a fresh, random name:
//!   never a file of the user's) and replaces the target by a rename only once it is complete
//!   and synced, so an existing file is never truncated first and a failed write leaves the old
//!   file as it was and no partial or empty file behind;
//! - an existing file is replaced only when the command was told so ([`Replace::Allow`]: the
//!   command's `--force`, or a command whose documented job is to rewrite its files);
//! - [`distinct`] refuses a run whose output names one of its inputs or another of its outputs,
//!   before anything is written;
//! - an error names the file and says that nothing was written there.
//!
//! A file that grows as a run goes (a match's PGN) is an [`Appender`]: whole records only, and
//! the first failed write cuts the file back to its last whole record and stops the run.

use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::{NamedTempFile, TempPath};
use thiserror::Error;

/// Whether an output may replace a file already there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// An existing file is left alone and the write refused (the default).
    Refuse,
    /// An existing file is replaced (the user gave `--force`, or rewriting is the command's job).
    Allow,
}

impl Replace {
    /// [`Replace::Allow`] when the user gave `--force`.
    pub fn force(force: bool) -> Replace {
        if force {
            Replace::Allow
        } else {
            Replace::Refuse
        }
    }
}

/// Why a file was not written.
#[derive(Debug, Error)]
pub enum OutFileError {
    #[error("cannot write {path}: {source}; nothing written there (any file there is as it was)")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} already exists; nothing written{}", if *.force { " (give --force to replace it)" } else { "" })]
    Exists {
        path: PathBuf,
        /// Whether the command has a `--force` that would replace it.
        force: bool,
    },
    #[error("cannot write {path}: it is a directory")]
    Directory { path: PathBuf },
    #[error("{path} is both {first} and {second}; nothing written (name another file)")]
    Same {
        path: PathBuf,
        first: String,
        second: String,
    },
}

/// A file a run reads or writes, and the role it plays (for messages: "the source", "--lst").
pub type Role<'a> = (&'a Path, &'a str);

/// What identifies a file: its canonical path (of the folder, for a file not yet there) and,
/// for a file that exists, its device and inode (so a hard link is the same file too).
#[derive(PartialEq, Eq)]
struct Identity {
    path: Option<PathBuf>,
    inode: Option<(u64, u64)>,
}

fn identity(path: &Path) -> Identity {
    let canonical = std::fs::canonicalize(path).ok().or_else(|| {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(path.file_name()?))
    });
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    };
    #[cfg(not(unix))]
    let inode = None;
    Identity {
        path: canonical,
        inode,
    }
}

fn same(a: &Identity, b: &Identity) -> bool {
    matches!((&a.inode, &b.inode), (Some(x), Some(y)) if x == y)
        || matches!((&a.path, &b.path), (Some(x), Some(y)) if x == y)
}

/// Refuse a run where an output names an input or another output (checked before the run
/// writes anything).
pub fn distinct(outputs: &[Role], inputs: &[Role]) -> Result<(), OutFileError> {
    let outs: Vec<Identity> = outputs.iter().map(|(p, _)| identity(p)).collect();
    let ins: Vec<Identity> = inputs.iter().map(|(p, _)| identity(p)).collect();
    for (i, (path, role)) in outputs.iter().enumerate() {
        let earlier = outputs[..i].iter().zip(&outs[..i]);
        let clash = earlier
            .chain(inputs.iter().zip(&ins))
            .find(|(_, id)| same(id, &outs[i]));
        if let Some(((_, other), _)) = clash {
            return Err(OutFileError::Same {
                path: path.to_path_buf(),
                first: (*other).to_string(),
                second: (*role).to_string(),
            });
        }
    }
    Ok(())
}

/// Check, before a run starts its work, that `path` can be its output: not a directory, and
/// not an existing file unless `replace` allows it. (The final rename checks again.)
pub fn check(path: &Path, replace: Replace) -> Result<(), OutFileError> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(OutFileError::Directory {
            path: path.to_path_buf(),
        }),
        Ok(_) if replace == Replace::Refuse => Err(OutFileError::Exists {
            path: path.to_path_buf(),
            force: true,
        }),
        _ => Ok(()),
    }
}

/// A sink the staged content is written to: a file, or in tests one that fails.
pub trait Sink: Write {
    /// Make the written content durable (`fsync`).
    fn sync(&self) -> std::io::Result<()>;
}

impl Sink for std::fs::File {
    fn sync(&self) -> std::io::Result<()> {
        self.sync_all()
    }
}

/// The content of one output, complete in a temporary file beside its target and not yet in
/// place: [`Staged::commit`] renames it over the target; dropping it removes it.
pub struct Staged<F: Sink = std::fs::File> {
    tmp: NamedTempFile<F>,
    target: PathBuf,
    shown: PathBuf,
    replace: Replace,
}

/// The file a write to `path` lands on (the target of a symbolic link) and its folder.
fn target_of(path: &Path) -> (PathBuf, PathBuf) {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    (target, dir)
}

/// An empty temporary file in `dir` for the output `target`.
fn temporary(dir: &Path, target: &Path) -> std::io::Result<NamedTempFile> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // The mode a new file gets from `File::create` (less the umask), not the 0600 of a
        // private temporary file.
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// Write `bytes` to a temporary file for `path`, synced, ready to [`Staged::commit`].
pub fn stage(path: &Path, bytes: &[u8], replace: Replace) -> Result<Staged, OutFileError> {
    check(path, replace)?;
    let (target, dir) = target_of(path);
    let tmp = temporary(&dir, &target).map_err(|source| OutFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    fill(tmp, path, target, bytes, replace)
}

/// Write `bytes` to the staged file `tmp` and sync it (on an error the file is removed).
fn fill<F: Sink>(
    mut tmp: NamedTempFile<F>,
    shown: &Path,
    target: PathBuf,
    bytes: &[u8],
    replace: Replace,
) -> Result<Staged<F>, OutFileError> {
    let io = |source| OutFileError::Io {
        path: shown.to_path_buf(),
        source,
    };
    tmp.write_all(bytes).map_err(io)?;
    tmp.flush().map_err(io)?;
    tmp.as_file().sync().map_err(io)?;
    Ok(Staged {
        tmp,
        target,
        shown: shown.to_path_buf(),
        replace,
    })
}

impl<F: Sink> Staged<F> {
    /// Rename the staged content over the target (keeping an existing file's permissions), or
    /// refuse if a file appeared there meanwhile and replacing is not allowed.
    pub fn commit(self) -> Result<(), OutFileError> {
        let Staged {
            tmp,
            target,
            shown,
            replace,
        } = self;
        let io = |source| OutFileError::Io {
            path: shown.clone(),
            source,
        };
        let (_, path): (F, TempPath) = tmp.into_parts();
        if let Ok(m) = std::fs::metadata(&target) {
            std::fs::set_permissions(&path, m.permissions()).map_err(io)?;
        }
        let result = match replace {
            Replace::Allow => path.persist(&target),
            Replace::Refuse => path.persist_noclobber(&target),
        };
        result.map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                OutFileError::Exists {
                    path: shown.clone(),
                    force: true,
                }
            } else {
                io(e.error)
            }
        })
    }
}

/// Write `bytes` to `path` as described in the module's summary.
pub fn write(path: &Path, bytes: &[u8], replace: Replace) -> Result<(), OutFileError> {
    stage(path, bytes, replace)?.commit()
}

/// Write several files, all or none: each is staged complete before any is put in place.
pub fn write_all(files: &[(&Path, &[u8])], replace: Replace) -> Result<(), OutFileError> {
    let staged = files
        .iter()
        .map(|(p, b)| stage(p, b, replace))
        .collect::<Result<Vec<_>, _>>()?;
    staged.into_iter().try_for_each(Staged::commit)
}

/// A file that grows by whole records as a run goes (a match's PGN, a game after game), so
/// that a run stopped at any point leaves whole records. It never opens an existing file. A
/// failed write cuts the file back to its last whole record (removing it if it has none) and
/// the run is to stop.
pub struct Appender {
    file: std::fs::File,
    path: PathBuf,
    len: u64,
}

impl Appender {
    /// Create `path`, which must not exist.
    pub fn create(path: &Path) -> Result<Appender, OutFileError> {
        let file = std::fs::File::create_new(path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::AlreadyExists {
                OutFileError::Exists {
                    path: path.to_path_buf(),
                    force: false,
                }
            } else {
                OutFileError::Io {
                    path: path.to_path_buf(),
                    source,
                }
            }
        })?;
        Ok(Appender {
            file,
            path: path.to_path_buf(),
            len: 0,
        })
    }

    /// Append one whole record and sync it; on an error the file is cut back as it was.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), OutFileError> {
        let result = self
            .file
            .write_all(bytes)
            .and_then(|_| self.file.flush())
            .and_then(|_| self.file.sync_data());
        match result {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(source) => {
                if self.len == 0 {
                    let _ = std::fs::remove_file(&self.path);
                } else {
                    let _ = self.file.set_len(self.len);
                }
                Err(OutFileError::Io {
                    path: self.path.clone(),
                    source,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that takes `room` bytes and then fails as a full disk does.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::Error::from_raw_os_error(28));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink for Full {
        fn sync(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("z80chess-outfile-{name}"))
            .tempdir()
            .unwrap()
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_failing_sink_leaves_the_old_file_and_nothing_else() {
        let dir = scratch("full");
        let target = dir.path().join("out.bin");
        std::fs::write(&target, b"old content").unwrap();
        let (target_path, folder) = target_of(&target);
        let (_, path) = temporary(&folder, &target_path).unwrap().into_parts();
        let tmp = NamedTempFile::from_parts(Full { room: 4 }, path);
        let e = fill(tmp, &target, target_path, b"new content", Replace::Allow)
            .err()
            .expect("a full sink fails the write");
        let msg = e.to_string();
        assert!(msg.contains("out.bin"), "{msg}");
        assert!(msg.contains("nothing written"), "{msg}");
        assert_eq!(std::fs::read(&target).unwrap(), b"old content");
        assert_eq!(listing(dir.path()), ["out.bin"]);
    }

    #[test]
    fn an_existing_file_is_replaced_only_when_allowed() {
        let dir = scratch("exists");
        let target = dir.path().join("out.txt");
        write(&target, b"one", Replace::Refuse).unwrap();
        let e = write(&target, b"two", Replace::Refuse).unwrap_err();
        assert!(matches!(e, OutFileError::Exists { .. }), "{e}");
        assert!(e.to_string().contains("--force"), "{e}");
        assert_eq!(std::fs::read(&target).unwrap(), b"one");
        write(&target, b"three", Replace::Allow).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"three");
        assert_eq!(listing(dir.path()), ["out.txt"]);
    }

    #[test]
    fn an_output_may_not_name_an_input_or_another_output() {
        let dir = scratch("same");
        let src = dir.path().join("a.asm");
        std::fs::write(&src, b"x").unwrap();
        let via_dots = dir.path().join(".").join("a.asm");
        let e = distinct(&[(&via_dots, "-o")], &[(&src, "the source")]).unwrap_err();
        assert!(e.to_string().contains("the source and -o"), "{e}");
        let new = dir.path().join("new.bin");
        let e = distinct(&[(&new, "-o"), (&new, "--sym")], &[]).unwrap_err();
        assert!(e.to_string().contains("-o and --sym"), "{e}");
        distinct(&[(&new, "-o")], &[(&src, "the source")]).unwrap();
    }

    #[test]
    fn several_files_are_written_all_or_none() {
        let dir = scratch("all");
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(&b, b"keep").unwrap();
        assert!(write_all(&[(&a, b"1"), (&b, b"2")], Replace::Refuse).is_err());
        assert_eq!(listing(dir.path()), ["b"]);
        write_all(&[(&a, b"1"), (&b, b"2")], Replace::Allow).unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), b"2");
    }
}
