//! Run, bug and shard directories read as data, not trusted: names read from their files are
//! checked before they become paths, inputs are opened only when they are regular files and
//! read up to a size limit, outputs are written through a temporary file and a rename (never
//! through a symbolic link), and one writer at a time holds a run directory's lock.
//!
//! A run directory may come from elsewhere (a shard copied back from a cluster, an archive),
//! so every string in its `results.jsonl`, `finding.json` or `program.ir.json` that names a
//! file is checked with [`check_name`] (one plain file name) or [`check_relative`] (a few of
//! them joined by `/`) before it is joined under the directory it belongs to ([`join_name`],
//! [`join_relative`]).
//!
//! Reads ([`open_regular`], [`read_limited`], [`read_to_string_limited`]) return
//! [`std::io::Result`] so that they replace `std::fs::read` where it stood; what is wrong with
//! a file that opens is a [`FileProblem`] inside the [`std::io::Error`].

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The most bytes of a JSON document of a run directory (`manifest.json`, `finding.json`,
/// `summary.json`, `census.json`, a batch's JSON files).
pub const MAX_JSON_BYTES: u64 = 64 << 20;
/// The most bytes of a program's IR (`program.ir.json`).
pub const MAX_PROGRAM_IR_BYTES: u64 = 64 << 20;
/// The most bytes of a line-per-record file (`results.jsonl`, `programs.jsonl`): read whole,
/// so a bound on memory too.
pub const MAX_RESULTS_BYTES: u64 = 4 << 30;
/// The most bytes of a program's source read back from a finding (`thalia bisect`).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;
/// The most bytes of a finding's `report.md` read back to be extended.
pub const MAX_REPORT_BYTES: u64 = 16 << 20;
/// The most bytes of a list given on the command line (`thalia batch --libs`).
pub const MAX_LIST_BYTES: u64 = 16 << 20;
/// The longest file name accepted (bytes; Linux's `NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;
/// The most characters of a rejected name quoted in an error message.
const SHOWN_CHARS: usize = 120;

/// The lock file a run directory's writer holds ([`RunLock`]).
pub const LOCK_FILE: &str = ".thalia.lock";

/// Why a string is not a plain file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    /// The empty string.
    #[error("it is empty")]
    Empty,
    /// It holds a `/` or `\` (a path, absolute or relative).
    #[error("it holds a path separator")]
    Separator,
    /// `.` or `..`.
    #[error("it is `.` or `..`")]
    Dots,
    /// It holds a NUL character.
    #[error("it holds a NUL character")]
    Nul,
    /// Longer than [`MAX_NAME_BYTES`].
    #[error("it is longer than {MAX_NAME_BYTES} bytes")]
    TooLong,
    /// More `/`-separated components than the field allows.
    #[error("it has more than {0} components")]
    TooDeep(usize),
}

/// A name read from a file that cannot be used as a file name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: `{field}` is {}, not a plain file name: {problem}", file.display(), Shown(value))]
pub struct UnsafeName {
    /// The file the name was read from.
    pub file: PathBuf,
    /// The field that holds it (`finding.signature`, `program.file`).
    pub field: String,
    /// The name.
    pub value: String,
    /// What is wrong with it.
    pub problem: NameProblem,
}

/// A name quoted for a message, shortened.
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short: String = self.0.chars().take(SHOWN_CHARS).collect();
        let more = if short.len() < self.0.len() {
            "…"
        } else {
            ""
        };
        write!(f, "\"{}{more}\"", short.escape_debug())
    }
}

/// Checks that `name` is one plain file name: not empty, no `/` or `\`, not `.` or `..`, no
/// NUL, at most [`MAX_NAME_BYTES`] bytes.
pub fn check_name(name: &str) -> Result<(), NameProblem> {
    if name.is_empty() {
        return Err(NameProblem::Empty);
    }
    if name.contains(['/', '\\']) {
        return Err(NameProblem::Separator);
    }
    if name == "." || name == ".." {
        return Err(NameProblem::Dots);
    }
    if name.contains('\0') {
        return Err(NameProblem::Nul);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameProblem::TooLong);
    }
    Ok(())
}

/// Checks that `path` is 1 to `max_components` plain file names ([`check_name`]) joined by
/// `/` (a differential finding's signature is `<compiler>/<signature>`).
pub fn check_relative(path: &str, max_components: usize) -> Result<(), NameProblem> {
    if path.is_empty() {
        return Err(NameProblem::Empty);
    }
    let mut n = 0;
    for part in path.split('/') {
        check_name(part)?;
        n += 1;
        if n > max_components {
            return Err(NameProblem::TooDeep(max_components));
        }
    }
    Ok(())
}

/// `dir/name` when `name` (read from `file`'s `field`) is a plain file name.
pub fn join_name(dir: &Path, name: &str, file: &Path, field: &str) -> Result<PathBuf, UnsafeName> {
    check_name(name).map_err(|problem| unsafe_name(file, field, name, problem))?;
    Ok(dir.join(name))
}

/// `dir/path` when `path` (read from `file`'s `field`) is 1 to `max_components` plain file
/// names joined by `/`.
pub fn join_relative(
    dir: &Path,
    path: &str,
    max_components: usize,
    file: &Path,
    field: &str,
) -> Result<PathBuf, UnsafeName> {
    check_relative(path, max_components)
        .map_err(|problem| unsafe_name(file, field, path, problem))?;
    Ok(dir.join(path))
}

/// The error of a name that fails a check.
pub fn unsafe_name(file: &Path, field: &str, value: &str, problem: NameProblem) -> UnsafeName {
    UnsafeName {
        file: file.to_path_buf(),
        field: field.to_string(),
        value: value.to_string(),
        problem,
    }
}

/// What is wrong with a file that exists (inside the [`io::Error`] of the functions below).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    /// Not a regular file: refused without reading.
    #[error("not a regular file (a {0}); refused")]
    NotRegular(&'static str),
    /// Larger than the limit for its kind.
    #[error("{size} bytes, more than the {} this file may have; refused", Bytes(*limit))]
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A symbolic link where a file or directory is to be written.
    #[error("a symbolic link; thalia does not write through links")]
    Symlink,
    /// Something else where a directory is to be written.
    #[error("exists and is not a directory (a {0})")]
    NotADirectory(&'static str),
}

impl From<FileProblem> for io::Error {
    fn from(p: FileProblem) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidInput, p)
    }
}

/// The [`FileProblem`] inside an error of this module's functions, if any.
pub fn file_problem(e: &io::Error) -> Option<&FileProblem> {
    e.get_ref().and_then(|inner| inner.downcast_ref())
}

/// A byte count in words (`64 MiB`).
struct Bytes(u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            n if n >= 1 << 30 && n % (1 << 30) == 0 => write!(f, "{} GiB", n >> 30),
            n if n >= 1 << 20 && n % (1 << 20) == 0 => write!(f, "{} MiB", n >> 20),
            n => write!(f, "{n} bytes"),
        }
    }
}

/// The kind of a file that is not a regular file, by its type.
fn kind_of(t: fs::FileType) -> &'static str {
    if t.is_file() {
        "regular file"
    } else if t.is_dir() {
        "directory"
    } else if t.is_fifo() {
        "FIFO"
    } else if t.is_char_device() {
        "character device"
    } else if t.is_block_device() {
        "block device"
    } else if t.is_socket() {
        "socket"
    } else if t.is_symlink() {
        "symbolic link"
    } else {
        "special file"
    }
}

/// Refuses metadata that is not a regular file's.
fn regular(meta: &fs::Metadata) -> io::Result<()> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(FileProblem::NotRegular(kind_of(meta.file_type())).into())
    }
}

/// Opens `path` for reading when it is a regular file (a link to one is followed): FIFOs,
/// devices, sockets and directories are refused before they are opened, and opening never
/// blocks (`O_NONBLOCK`); the opened file is checked again.
pub fn open_regular(path: &Path) -> io::Result<File> {
    regular(&fs::metadata(path)?)?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    // replaced between the check and the open?
    regular(&file.metadata()?)?;
    Ok(file)
}

/// Checks, without opening it, that `path` is a regular file (a link to one is followed) of
/// at most `limit` bytes.
pub fn check_regular(path: &Path, limit: u64) -> io::Result<()> {
    let meta = fs::metadata(path)?;
    regular(&meta)?;
    if meta.len() > limit {
        return Err(FileProblem::TooLarge {
            size: meta.len(),
            limit,
        }
        .into());
    }
    Ok(())
}

/// The bytes of the regular file `path`, refused when larger than `limit`.
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(FileProblem::TooLarge { size, limit }.into());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // the file may grow while it is read
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileProblem::TooLarge {
            size: bytes.len() as u64,
            limit,
        }
        .into());
    }
    Ok(bytes)
}

/// The text of the regular file `path` (UTF-8), refused when larger than `limit`.
pub fn read_to_string_limited(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_limited(path, limit)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}

/// Like [`read_to_string_limited`], `None` when `path` does not exist.
pub fn read_optional(path: &Path, limit: u64) -> io::Result<Option<String>> {
    match read_to_string_limited(path, limit) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Refuses a symbolic link at `path` (which may be missing).
pub fn refuse_link(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(FileProblem::Symlink.into()),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Whether `base/rel` is a directory reached without a symbolic link below `base`: every
/// component of `rel` is a directory itself (`rel` as [`check_relative`] accepts it).
pub fn is_real_dir_under(base: &Path, rel: &str) -> bool {
    let mut at = base.to_path_buf();
    for part in rel.split('/') {
        at.push(part);
        if !fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir()) {
            return false;
        }
    }
    true
}

/// The first symbolic link (by name order) at `dir` or in the directories below it, down to
/// `depth` levels (`dir`'s entries are level 1); links are not followed. A missing `dir` has
/// none.
pub fn find_link(dir: &Path, depth: usize) -> io::Result<Option<PathBuf>> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return Ok(Some(dir.to_path_buf()));
    }
    if !meta.is_dir() || depth == 0 {
        return Ok(None);
    }
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for e in entries {
        let t = e.file_type()?;
        if t.is_symlink() {
            return Ok(Some(e.path()));
        }
        if t.is_dir() {
            if let Some(l) = find_link(&e.path(), depth - 1)? {
                return Ok(Some(l));
            }
        }
    }
    Ok(None)
}

/// Makes `path` a directory to write into: created when missing; a symbolic link (even to a
/// directory) or anything but a directory there is refused.
pub fn ensure_dir(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(FileProblem::Symlink.into()),
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => Err(FileProblem::NotADirectory(kind_of(m.file_type())).into()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::create_dir(path) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => ensure_dir(path),
            other => other,
        },
        Err(e) => Err(e),
    }
}

/// Writes `bytes` to `path` through a new temporary file beside it, renamed over `path`: a
/// reader sees the old or the new content, never a part, and a symbolic link at `path` is
/// refused, not followed (nor is one in place of the temporary file, created exclusively).
/// The file gets mode `0644`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_through_tmp(path, bytes, false)
}

/// [`write_atomic`], with the new content on disk (`fsync`) before it replaces the old.
pub fn write_atomic_durable(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_through_tmp(path, bytes, true)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file beside it (synced when `sync`).
fn write_through_tmp(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    refuse_link(path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-write-")
        .permissions(fs::Permissions::from_mode(0o644))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    if sync {
        tmp.as_file().sync_all()?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Swaps the directories (or files) `a` and `b` in one step (`renameat2` with
/// `RENAME_EXCHANGE`): both names exist throughout. Where the file system cannot, `b` is
/// renamed to `old` and `a` to `b`, and `old` then holds what `b` held; with the exchange,
/// `a` holds it and `old` is not made.
pub fn exchange_or_replace(a: &Path, b: &Path, old: &Path) -> io::Result<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    };
    let (ca, cb) = (c(a)?, c(b)?);
    // SAFETY: two valid NUL-terminated paths relative to the working directory
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        return Ok(a.to_path_buf());
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP) => {
            fs::rename(b, old)?;
            fs::rename(a, b)?;
            Ok(old.to_path_buf())
        }
        _ => Err(e),
    }
}

/// An advisory lock (`flock`) on a run directory's [`LOCK_FILE`]: one writer (`thalia run`,
/// `check`, `merge`) at a time. The kernel releases it when the holder ends, even by a crash
/// or `kill -9`, so a lock file left by a dead holder is taken over by the next.
#[derive(Debug)]
pub struct RunLock {
    file: Option<File>,
    exclusive: bool,
    took_over: Option<u32>,
    held: bool,
}

/// A lock that could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error("{} is in use by {}: one thalia run, check or merge at a time writes a run directory; wait for it to end, or give another directory", dir.display(), Holder(*pid))]
    Held {
        /// The run directory.
        dir: PathBuf,
        /// The holder's process id, as its lock file records it (when it is still running).
        pid: Option<u32>,
    },
    /// The lock file cannot be opened or locked.
    #[error("{}: cannot lock: {source}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// The holder of a lock in words.
struct Holder(Option<u32>);

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(pid) if pid == std::process::id() => {
                write!(f, "this process (pid {pid}), opened twice")
            }
            Some(pid) => write!(f, "another thalia process (pid {pid})"),
            None => write!(f, "another thalia process"),
        }
    }
}

/// Whether process `pid` exists.
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The process id a lock file records (first line), if any.
fn recorded_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(64).read_to_string(&mut text).ok()?;
    text.lines().next()?.trim().parse().ok()
}

/// What `flock` said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flock {
    /// Locked.
    Held,
    /// Another holds it.
    Busy,
    /// The file system has no locks (some cluster file systems, mounted without them).
    Unsupported,
}

/// `flock(fd, op | LOCK_NB)`, retried on `EINTR`.
fn try_flock(file: &File, op: libc::c_int) -> io::Result<Flock> {
    loop {
        // SAFETY: flock on a file descriptor owned by `file` for the call's duration
        let rc = unsafe { libc::flock(file.as_raw_fd(), op | libc::LOCK_NB) };
        if rc == 0 {
            return Ok(Flock::Held);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(Flock::Busy),
            Some(libc::EINTR) => continue,
            Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP) | Some(libc::ENOLCK) => {
                return Ok(Flock::Unsupported)
            }
            _ => return Err(e),
        }
    }
}

impl RunLock {
    /// Takes the exclusive lock of the run directory `dir` (which must exist) without
    /// waiting, and records this process's id in it; another holder is an error naming its
    /// process id.
    pub fn acquire(dir: &Path) -> Result<RunLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let err = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        refuse_link(&path).map_err(err)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
            .map_err(err)?;
        regular(&file.metadata().map_err(err)?).map_err(err)?;
        let state = try_flock(&file, libc::LOCK_EX).map_err(err)?;
        if state == Flock::Busy {
            return Err(LockError::Held {
                dir: dir.to_path_buf(),
                pid: recorded_pid(&mut file).filter(|&p| alive(p)),
            });
        }
        let took_over = recorded_pid(&mut file);
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| writeln!(file, "{}", std::process::id()))
            .and_then(|()| file.flush())
            .map_err(err)?;
        Ok(RunLock {
            file: Some(file),
            exclusive: true,
            took_over,
            held: state == Flock::Held,
        })
    }

    /// Takes a shared lock of the run directory `dir`, for reading it whole (`thalia merge`'s
    /// parts): refused while a writer holds it, and keeps writers out until dropped. The lock
    /// file is only read (a directory without one has never had a writer, and nothing is
    /// locked).
    pub fn acquire_shared(dir: &Path) -> Result<RunLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let err = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(RunLock {
                    file: None,
                    exclusive: false,
                    took_over: None,
                    held: false,
                })
            }
            Err(e) => return Err(err(e)),
        };
        regular(&file.metadata().map_err(err)?).map_err(err)?;
        let state = try_flock(&file, libc::LOCK_SH).map_err(err)?;
        if state == Flock::Busy {
            return Err(LockError::Held {
                dir: dir.to_path_buf(),
                pid: recorded_pid(&mut file).filter(|&p| alive(p)),
            });
        }
        Ok(RunLock {
            file: Some(file),
            exclusive: false,
            took_over: None,
            held: state == Flock::Held,
        })
    }

    /// Whether the lock is held: false where the file system has no locks (`flock` fails with
    /// `ENOSYS`, `EOPNOTSUPP` or `ENOLCK`, as on some cluster file systems), where a
    /// directory is then not protected from a second writer, and for a shared lock on a
    /// directory without a lock file.
    pub fn held(&self) -> bool {
        self.held
    }

    /// The process id the lock file recorded when this exclusive lock was taken: a holder
    /// that ended without releasing it (killed), whose lock was taken over.
    pub fn took_over(&self) -> Option<u32> {
        self.took_over.filter(|&p| p != std::process::id())
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // a released lock records no holder; closing the file releases it
        if let (true, Some(f)) = (self.exclusive, &self.file) {
            let _ = f.set_len(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_pass_and_paths_do_not() {
        for ok in [
            "finding.json",
            "Test_p000001.kt",
            "unexpected-rejection-kotlin-0123",
            "a..b",
            ".hidden",
        ] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        let cases = [
            ("", NameProblem::Empty),
            ("..", NameProblem::Dots),
            (".", NameProblem::Dots),
            ("../../../victim", NameProblem::Separator),
            ("/etc/passwd", NameProblem::Separator),
            ("a\\b", NameProblem::Separator),
            ("a\0b", NameProblem::Nul),
        ];
        for (name, problem) in cases {
            assert_eq!(check_name(name), Err(problem), "{name:?}");
        }
        assert_eq!(check_name(&"x".repeat(256)), Err(NameProblem::TooLong));
        assert_eq!(check_relative("groovy@4.0.1/sig", 2), Ok(()));
        assert_eq!(check_relative("a/b/c", 2), Err(NameProblem::TooDeep(2)));
        assert_eq!(check_relative("a//b", 2), Err(NameProblem::Empty));
        assert_eq!(check_relative("a/..", 2), Err(NameProblem::Dots));
        assert_eq!(check_relative("/a", 2), Err(NameProblem::Empty));
        let e = join_name(
            Path::new("/run"),
            "../x",
            Path::new("/run/finding.json"),
            "program.file",
        )
        .expect_err("refused");
        let msg = e.to_string();
        assert!(
            msg.contains("/run/finding.json")
                && msg.contains("`program.file`")
                && msg.contains("\"../x\""),
            "{msg}"
        );
    }

    #[test]
    fn special_files_are_refused_and_sizes_limited() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let e = read_limited(&fifo, 10).expect_err("a FIFO");
        assert_eq!(file_problem(&e), Some(&FileProblem::NotRegular("FIFO")));
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
        let e = read_limited(&zero, 10).expect_err("a device");
        assert_eq!(
            file_problem(&e),
            Some(&FileProblem::NotRegular("character device"))
        );
        let f = dir.path().join("f");
        fs::write(&f, b"0123456789").expect("write");
        assert_eq!(read_limited(&f, 10).expect("at the limit"), b"0123456789");
        let e = read_limited(&f, 9).expect_err("over");
        assert_eq!(
            file_problem(&e),
            Some(&FileProblem::TooLarge { size: 10, limit: 9 })
        );
        assert!(
            e.to_string().contains("10 bytes, more than the 9 bytes"),
            "{e}"
        );
        assert_eq!(Bytes(MAX_JSON_BYTES).to_string(), "64 MiB");
    }

    #[test]
    fn writes_replace_files_and_refuse_links() {
        let dir = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let target = outside.path().join("victim");
        fs::write(&target, "keep").expect("write");
        let link = dir.path().join("report.md");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        let e = write_atomic(&link, b"new").expect_err("a link");
        assert_eq!(file_problem(&e), Some(&FileProblem::Symlink));
        assert_eq!(fs::read_to_string(&target).expect("read"), "keep");
        let plain = dir.path().join("finding.json");
        write_atomic(&plain, b"one").expect("new");
        write_atomic(&plain, b"two").expect("replaced");
        assert_eq!(fs::read_to_string(&plain).expect("read"), "two");
        let meta = fs::metadata(&plain).expect("meta");
        assert_eq!(meta.permissions().mode() & 0o777, 0o644);
        let linked_dir = dir.path().join("reduced");
        std::os::unix::fs::symlink(outside.path(), &linked_dir).expect("symlink");
        let e = ensure_dir(&linked_dir).expect_err("a linked directory");
        assert_eq!(file_problem(&e), Some(&FileProblem::Symlink));
        ensure_dir(&dir.path().join("new")).expect("created");
        ensure_dir(&dir.path().join("new")).expect("exists");
        let e = ensure_dir(&plain).expect_err("a file");
        assert_eq!(
            file_problem(&e),
            Some(&FileProblem::NotADirectory("regular file"))
        );
        assert_eq!(
            find_link(dir.path(), 1).expect("walks"),
            Some(linked_dir.clone())
        );
        assert_eq!(find_link(&dir.path().join("new"), 3).expect("walks"), None);
        let leftovers: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn one_exclusive_holder_and_shared_readers() {
        let dir = tempfile::tempdir().expect("tempdir");
        let shared = RunLock::acquire_shared(dir.path()).expect("no lock file: nothing to lock");
        drop(shared);
        let lock = RunLock::acquire(dir.path()).expect("free");
        assert!(lock.held());
        assert_eq!(lock.took_over(), None);
        let recorded = fs::read_to_string(dir.path().join(LOCK_FILE)).expect("read");
        assert_eq!(recorded.trim(), std::process::id().to_string());
        match RunLock::acquire(dir.path()) {
            Err(LockError::Held { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            RunLock::acquire_shared(dir.path()),
            Err(LockError::Held { .. })
        ));
        drop(lock);
        assert_eq!(
            fs::read_to_string(dir.path().join(LOCK_FILE)).expect("read"),
            ""
        );
        let a = RunLock::acquire_shared(dir.path()).expect("shared");
        let b = RunLock::acquire_shared(dir.path()).expect("shared twice");
        assert!(matches!(
            RunLock::acquire(dir.path()),
            Err(LockError::Held { pid: None, .. })
        ));
        drop((a, b));
        RunLock::acquire(dir.path()).expect("free again");
    }
}
