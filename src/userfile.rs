//! Reading a file the user named: a regular file only (a FIFO, a device such as `/dev/zero`,
//! a socket or a directory is refused by name, without being opened for reading, so nothing
//! blocks), and at most a given size (a larger file is refused, not read until memory runs
//! out). Every file reader of the command line goes through [`read`].

use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The cap on a source, an included or INCBIN'd file, a .COM program or a table: 16 MiB.
pub const MAX_FILE: u64 = 16 << 20;
/// The cap on a small text file such as a parameter file: 1 MiB.
pub const MAX_TEXT: u64 = 1 << 20;

/// Why a file the user named was not read.
#[derive(Debug, Error)]
pub enum UserFileError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: it is a directory")]
    Directory { path: PathBuf },
    #[error("cannot read {path}: it is a {kind}, not a regular file")]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("cannot read {path}: it is larger than {cap} bytes (the limit for this file)")]
    TooLarge { path: PathBuf, cap: u64 },
}

impl UserFileError {
    /// The reason alone, without the path (for messages that name the file themselves).
    pub fn reason(&self) -> String {
        match self {
            UserFileError::Io { source, .. } => source.to_string(),
            UserFileError::Directory { .. } => "it is a directory".into(),
            UserFileError::NotRegular { kind, .. } => format!("it is a {kind}, not a regular file"),
            UserFileError::TooLarge { cap, .. } => {
                format!("it is larger than {cap} bytes (the limit for this file)")
            }
        }
    }

    /// As an `std::io::Error` carrying the reason (for readers whose errors hold one).
    pub fn into_io(self) -> std::io::Error {
        match self {
            UserFileError::Io { source, .. } => source,
            other => std::io::Error::other(other.reason()),
        }
    }
}

fn kind_of(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "FIFO (named pipe)";
        }
        if ft.is_char_device() {
            return "character device";
        }
        if ft.is_block_device() {
            return "block device";
        }
        if ft.is_socket() {
            return "socket";
        }
    }
    let _ = ft;
    "special file"
}

/// Check that `path` is a regular file of at most `cap` bytes (following symbolic links).
fn check(path: &Path, meta: &std::fs::Metadata, cap: u64) -> Result<(), UserFileError> {
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(UserFileError::Directory {
            path: path.to_path_buf(),
        });
    }
    if !ft.is_file() {
        return Err(UserFileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&ft),
        });
    }
    if meta.len() > cap {
        return Err(UserFileError::TooLarge {
            path: path.to_path_buf(),
            cap,
        });
    }
    Ok(())
}

/// Open the regular file `path` of at most `cap` bytes for reading, checking its metadata
/// before and after opening (without blocking: a file swapped for a FIFO does not hang). A
/// command checks a file the user named this way before its work starts, without reading it.
pub fn open(path: &Path, cap: u64) -> Result<std::fs::File, UserFileError> {
    let io = |source| UserFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    check(path, &std::fs::metadata(path).map_err(io)?, cap)?;
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(io)?;
    check(path, &file.metadata().map_err(io)?, cap)?;
    Ok(file)
}

/// Read the regular file `path`, at most `cap` bytes. Its metadata is checked before it is
/// opened; it is opened without blocking (so a file swapped for a FIFO in between does not
/// hang) and checked again; the read stops one byte past the cap (a file that grows is refused
/// too).
pub fn read(path: &Path, cap: u64) -> Result<Vec<u8>, UserFileError> {
    read_capped(open(path, cap)?, path, cap)
}

/// Everything `file` (opened from `path`) holds, refused once it passes `cap` bytes: the read
/// stops one byte past the cap, so a file that grows or a stream that never ends is refused
/// rather than read until memory runs out.
fn read_capped(file: std::fs::File, path: &Path, cap: u64) -> Result<Vec<u8>, UserFileError> {
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| UserFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > cap {
        return Err(UserFileError::TooLarge {
            path: path.to_path_buf(),
            cap,
        });
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_text(path: &Path, cap: u64) -> Result<String, UserFileError> {
    String::from_utf8(read(path, cap)?).map_err(|_| UserFileError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ),
    })
}

/// A script read once, from start to end: a regular file, a pipe (`<(...)`, a FIFO) or a
/// character device such as `/dev/null` or `/dev/stdin`, at most `cap` bytes as UTF-8 text. A
/// directory or a socket is refused by name, checked before it is opened; a stream longer
/// than the cap (`/dev/zero`) is refused once the cap is passed, not read until memory runs
/// out.
pub fn read_stream_text(path: &Path, cap: u64) -> Result<String, UserFileError> {
    check_stream(path)?;
    let io = |source| UserFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    // Opened without blocking (a FIFO with no writer yet opens at once), then read blocking:
    // a pipe is read to its writer's end; a FIFO nobody writes is an empty script.
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns, reading then setting its flags.
        let cleared = unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) >= 0
        };
        if !cleared {
            return Err(io(std::io::Error::last_os_error()));
        }
    }
    let bytes = read_capped(file, path, cap)?;
    String::from_utf8(bytes).map_err(|_| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// What [`read_stream_text`] checks before it opens `path`: it exists and is neither a
/// directory nor a socket (a command checks its script this way before its work starts).
pub fn check_stream(path: &Path) -> Result<(), UserFileError> {
    let meta = std::fs::metadata(path).map_err(|source| UserFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(UserFileError::Directory {
            path: path.to_path_buf(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_socket() || ft.is_block_device() {
            return Err(UserFileError::NotRegular {
                path: path.to_path_buf(),
                kind: kind_of(&ft),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_may_be_a_pipe_or_a_device_within_the_cap() {
        assert_eq!(read_stream_text(Path::new("/dev/null"), 10).unwrap(), "");
        let e = read_stream_text(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(
            matches!(e, UserFileError::TooLarge { cap: 1000, .. }),
            "{e}"
        );
        let e = read_stream_text(Path::new("/"), 10).unwrap_err();
        assert!(matches!(e, UserFileError::Directory { .. }), "{e}");
    }

    #[test]
    fn devices_directories_and_large_files_are_refused_by_name() {
        let e = read(Path::new("/dev/zero"), MAX_FILE).unwrap_err();
        assert!(matches!(e, UserFileError::NotRegular { .. }), "{e}");
        assert!(e.to_string().contains("/dev/zero"), "{e}");
        assert!(e.to_string().contains("character device"), "{e}");
        let e = read(Path::new("/"), MAX_FILE).unwrap_err();
        assert!(matches!(e, UserFileError::Directory { .. }), "{e}");
        let dir = std::env::temp_dir().join(format!("z80chess-userfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("big");
        std::fs::write(&f, vec![7u8; 100]).unwrap();
        assert!(matches!(
            read(&f, 99).unwrap_err(),
            UserFileError::TooLarge { cap: 99, .. }
        ));
        assert_eq!(read(&f, 100).unwrap().len(), 100);
        let e = read(&dir.join("missing"), 10).unwrap_err();
        assert!(e.to_string().contains("missing"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
