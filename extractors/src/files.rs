//! Opening input files: regular files only, read with a size limit.
//!
//! An input path (a class file in a directory, a jar on the command line, a documentation
//! page, an API JSON file) may name a FIFO, which blocks a reader forever, a device such as
//! `/dev/zero`, which never ends, or a socket. Every extractor opens its inputs through
//! [`read_regular`] (or [`open_regular`] to stream one): a symbolic link is followed, but only
//! to a regular file; anything else is refused without being opened, and a regular file is
//! read to at most the caller's limit, never trusting its declared size. A directory walk
//! that meets a special file reports it by name and goes on.

use std::fs::{File, FileType};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why an input file was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputFileError {
    /// The path (after symbolic links) is not a regular file.
    #[error("{}: {}", path.display(), self.reason())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead (`a FIFO`, `a character device`, ...).
        kind: &'static str,
    },
    /// The file holds more bytes than the caller's limit.
    #[error("{}: {}", path.display(), self.reason())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit's name, as the error says it (`MAX_CLASS_FILE_BYTES`).
        limit_name: &'static str,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file could not be opened or read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl InputFileError {
    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            InputFileError::NotRegular { path, .. }
            | InputFileError::TooLarge { path, .. }
            | InputFileError::Io { path, .. } => path,
        }
    }

    /// What went wrong, without the path (for reports that name the file already).
    pub fn reason(&self) -> String {
        match self {
            InputFileError::NotRegular { kind, .. } => {
                format!("not a regular file ({kind}); not read")
            }
            InputFileError::TooLarge {
                limit_name, limit, ..
            } => format!("larger than {limit_name} = {limit} bytes; not read"),
            InputFileError::Io { source, .. } => format!("cannot read: {source}"),
        }
    }

    /// The error as an [`std::io::Error`] (for readers whose errors carry one).
    pub fn into_io(self) -> std::io::Error {
        match self {
            InputFileError::Io { source, .. } => source,
            other => std::io::Error::new(std::io::ErrorKind::InvalidInput, other.reason()),
        }
    }
}

/// What a file type is, as an error says it.
pub fn file_kind(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a file"
    }
}

/// Opens `path` for reading if it is a regular file (a symbolic link is followed); returns the
/// file and its size. Anything else is refused before it is opened (opening a device can act
/// on it); the file is opened non-blocking and checked again once open, so that a FIFO put
/// in its place in between cannot block.
pub fn open_regular(path: &Path) -> Result<(File, u64), InputFileError> {
    let io = |source| InputFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(InputFileError::NotRegular {
            path: path.to_path_buf(),
            kind: file_kind(meta.file_type()),
        });
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = opts.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(InputFileError::NotRegular {
            path: path.to_path_buf(),
            kind: file_kind(meta.file_type()),
        });
    }
    Ok((file, meta.len()))
}

/// Reads a regular file ([`open_regular`]) of at most `limit` bytes; `limit_name` names the
/// limit in the error (a constant's name, such as `MAX_CLASS_FILE_BYTES`). The declared size
/// only refuses a file early; reading stops after `limit + 1` bytes whatever it says.
pub fn read_regular(
    path: &Path,
    limit: u64,
    limit_name: &'static str,
) -> Result<Vec<u8>, InputFileError> {
    let too_large = || InputFileError::TooLarge {
        path: path.to_path_buf(),
        limit_name,
        limit,
    };
    let (file, len) = open_regular(path)?;
    if len > limit {
        return Err(too_large());
    }
    let mut buf = Vec::with_capacity(usize::try_from(len).unwrap_or(0).saturating_add(1));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|source| InputFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if buf.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_and_links_to_them_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.txt");
        std::fs::write(&f, b"hello").unwrap();
        assert_eq!(read_regular(&f, 5, "LIMIT").unwrap(), b"hello");
        let err = read_regular(&f, 4, "LIMIT").unwrap_err();
        assert!(matches!(err, InputFileError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("LIMIT = 4"), "{err}");
        #[cfg(unix)]
        {
            let l = dir.path().join("link.txt");
            std::os::unix::fs::symlink(&f, &l).unwrap();
            assert_eq!(read_regular(&l, 5, "LIMIT").unwrap(), b"hello");
        }
    }

    #[test]
    fn directories_and_missing_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_regular(dir.path(), 5, "LIMIT").unwrap_err();
        assert!(
            err.to_string().contains("not a regular file (a directory)"),
            "{err}"
        );
        let err = read_regular(&dir.path().join("none"), 5, "LIMIT").unwrap_err();
        assert!(matches!(err, InputFileError::Io { .. }), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_refused_unopened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("F.class");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success(), "mkfifo");
        let err = read_regular(&fifo, 5, "LIMIT").unwrap_err();
        assert_eq!(err.reason(), "not a regular file (a FIFO); not read");
        let zero = dir.path().join("Zero.class");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let err = read_regular(&zero, 5, "LIMIT").unwrap_err();
        assert_eq!(
            err.reason(),
            "not a regular file (a character device); not read"
        );
        assert_eq!(err.path(), zero);
    }
}
