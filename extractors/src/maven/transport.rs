//! Downloads into the Maven-layout cache: retries, checksums, atomic writes.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use md5::Md5;
use sha1::{Digest, Sha1};

use super::error::{MavenError, Result};
use super::limits::{MAX_CHECKSUM_FILE_BYTES, STALE_PART_AGE};
use super::repo::{is_loopback_url, Repository};

/// The prefix of every temporary file the transport writes in the cache.
const PART_PREFIX: &str = ".thalia-";
/// The suffix of every temporary file the transport writes in the cache.
const PART_SUFFIX: &str = ".part";
/// How much of a file name goes into the name of its temporary file.
const PART_NAME_LEN: usize = 96;

/// How a single attempt failed.
enum Failure {
    /// The repository does not have the file (HTTP 404/410, or no such file).
    NotFound,
    /// Worth retrying: connection errors, timeouts, 5xx, truncated bodies.
    Transient(String),
    /// Not worth retrying (HTTP 401, 403, …).
    Fatal(String),
    /// A local problem (the cache directory), reported as is.
    Local(MavenError),
}

/// SHA-1 (and optionally MD5) of some bytes, computed while they stream past.
struct Digests {
    sha1: Sha1,
    md5: Option<Md5>,
}

impl Digests {
    fn new(with_md5: bool) -> Digests {
        Digests {
            sha1: Sha1::new(),
            md5: with_md5.then(Md5::new),
        }
    }
    fn update(&mut self, b: &[u8]) {
        self.sha1.update(b);
        if let Some(m) = &mut self.md5 {
            m.update(b);
        }
    }
    /// The hex SHA-1, and the hex MD5 when it was computed.
    fn finish(self) -> (String, Option<String>) {
        (
            hex::encode(self.sha1.finalize()),
            self.md5.map(|m| hex::encode(m.finalize())),
        )
    }
}

/// A writer that hashes what goes through it.
struct HashingWriter<W: Write> {
    inner: W,
    digests: Digests,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.digests.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Checksum algorithms, in the order they are tried.
#[derive(Clone, Copy)]
enum Algo {
    Sha1,
    Md5,
}

impl Algo {
    fn ext(self) -> &'static str {
        match self {
            Algo::Sha1 => "sha1",
            Algo::Md5 => "md5",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Algo::Sha1 => "SHA-1",
            Algo::Md5 => "MD5",
        }
    }
    fn hex_len(self) -> usize {
        match self {
            Algo::Sha1 => 40,
            Algo::Md5 => 32,
        }
    }
    /// The checksum in a checksum file: the first token of the right length made of hex digits.
    fn parse(self, content: &str) -> Option<String> {
        content
            .split(|c: char| c.is_whitespace() || c == ':' || c == '=')
            .find(|t| t.len() == self.hex_len() && t.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(str::to_ascii_lowercase)
    }
}

/// A file now present in the cache.
#[derive(Debug, Clone)]
pub(crate) struct CachedFile {
    /// Its path in the cache.
    pub path: PathBuf,
    /// Its SHA-1 (hex).
    pub sha1: String,
    /// The repository URL it was downloaded from, or `None` when it was already cached.
    pub repository: Option<String>,
}

/// A check run on a downloaded file before it enters the cache (e.g. "opens as a zip").
pub(crate) type Check = fn(&Path) -> std::result::Result<(), String>;

/// Settings of the transport.
#[derive(Debug, Clone)]
pub(crate) struct TransportSettings {
    pub connect_timeout: Duration,
    pub timeout: Duration,
    pub attempts: u32,
    pub initial_backoff: Duration,
    /// The size ceiling of one download.
    pub max_download_bytes: u64,
    /// The time one file may take at one repository, all attempts included.
    pub file_deadline: Duration,
    /// An attempt without a byte for this long is abandoned.
    pub stall_timeout: Duration,
}

/// `rel` (a `/`-separated repository path) under `root`, or why it would leave `root`: every
/// segment must be a plain name, and the result must lie under `root` (lexically).
pub(crate) fn join_under(root: &Path, rel: &str) -> std::result::Result<PathBuf, String> {
    let mut out = root.to_path_buf();
    for seg in rel.split('/') {
        let plain = !seg.is_empty()
            && !seg.contains(['\\', '\0'])
            && matches!(
                Path::new(seg).components().collect::<Vec<_>>().as_slice(),
                [Component::Normal(n)] if *n == std::ffi::OsStr::new(seg)
            );
        if !plain {
            return Err(format!(
                "the path `{}` has the segment `{}`, which would not stay under {}",
                rel.escape_debug(),
                seg.escape_debug(),
                root.display()
            ));
        }
        out.push(seg);
    }
    if !out.starts_with(root) || out == root {
        return Err(format!(
            "the path `{}` does not stay under {}",
            rel.escape_debug(),
            root.display()
        ));
    }
    Ok(out)
}

/// The prefix of the temporary files of `target` (`.thalia-<file name>-`).
fn part_prefix(target: &Path) -> String {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut end = name.len().min(PART_NAME_LEN);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{PART_PREFIX}{}-", &name[..end])
}

/// Removes temporary downloads left in `dir` by killed fetches: those of `target` not
/// modified for `own_age` (no live attempt stays silent that long), and any not modified for
/// [`STALE_PART_AGE`]. Best effort: a file that cannot be removed is left.
fn clean_stale_parts(dir: &Path, target: &Path, own_age: Duration) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let own = part_prefix(target);
    let now = SystemTime::now();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(PART_PREFIX) && name.ends_with(PART_SUFFIX)) {
            continue;
        }
        let Ok(meta) = e.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        if (name.starts_with(&own) && age >= own_age) || age >= STALE_PART_AGE {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// A temporary file for `target` in `dir`.
fn part_file(dir: &Path, target: &Path) -> io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(&part_prefix(target))
        .suffix(PART_SUFFIX)
        .tempfile_in(dir)
}

/// Fetches repository files over HTTP(S) or from `file://` repositories.
pub(crate) struct Transport {
    client: reqwest::blocking::Client,
    direct: reqwest::blocking::Client,
    settings: TransportSettings,
    cache: PathBuf,
    locks: Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>,
}

fn io_err(coordinate: &str, path: &Path, source: io::Error) -> MavenError {
    MavenError::Io {
        coordinate: coordinate.to_string(),
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a whole regular file of at most `limit` bytes (a FIFO, a device or a larger file is
/// an error, never a hang or an unbounded read).
pub(crate) fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let f = fs::File::open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut out = Vec::new();
    f.take(limit.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than the limit of {limit} bytes"),
        ));
    }
    Ok(out)
}

fn hash_file(path: &Path, with_md5: bool) -> io::Result<(String, Option<String>)> {
    let mut f = fs::File::open(path)?;
    let mut d = Digests::new(with_md5);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        d.update(&buf[..n]);
    }
    Ok(d.finish())
}

/// Writes `content` to `target` through a temporary file in the same directory.
fn write_atomically(coordinate: &str, target: &Path, content: &[u8]) -> Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| io_err(coordinate, dir, e))?;
    let mut tmp = part_file(dir, target).map_err(|e| io_err(coordinate, dir, e))?;
    tmp.write_all(content)
        .map_err(|e| io_err(coordinate, tmp.path(), e))?;
    tmp.persist(target)
        .map_err(|e| io_err(coordinate, target, e.error))?;
    Ok(())
}

fn sibling(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

impl Transport {
    /// A transport writing into `cache`.
    pub fn new(settings: TransportSettings, cache: PathBuf) -> Result<Transport> {
        let build = |direct: bool| {
            let mut b = reqwest::blocking::Client::builder()
                .user_agent(concat!("thalia/", env!("CARGO_PKG_VERSION")))
                .connect_timeout(settings.connect_timeout)
                .timeout(settings.timeout);
            if direct {
                b = b.no_proxy();
            }
            b.build().map_err(|e| MavenError::Config {
                reason: format!("cannot create the HTTP client: {e}"),
            })
        };
        Ok(Transport {
            client: build(false)?,
            direct: build(true)?,
            settings,
            cache,
            locks: Mutex::new(HashMap::new()),
        })
    }

    fn lock_for(&self, path: &Path) -> Arc<Mutex<()>> {
        let mut map = self.locks.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(path.to_path_buf()).or_default().clone()
    }

    /// Runs `f` up to `attempts` times while it fails transiently and `deadline` is ahead,
    /// with exponential backoff.
    fn retry<T>(
        &self,
        deadline: Instant,
        mut f: impl FnMut() -> std::result::Result<T, Failure>,
    ) -> (std::result::Result<T, Failure>, u32) {
        let attempts = self.settings.attempts.max(1);
        let mut delay = self.settings.initial_backoff;
        let mut attempt = 1;
        loop {
            match f() {
                Err(Failure::Transient(_))
                    if attempt < attempts && Instant::now() + delay < deadline =>
                {
                    thread::sleep(delay);
                    delay = delay.saturating_mul(2);
                    attempt += 1;
                }
                other => return (other, attempt),
            }
        }
    }

    /// The deadline of a file fetched from now.
    fn deadline(&self) -> Instant {
        Instant::now() + self.settings.file_deadline
    }

    fn deadline_failure(&self, got: u64) -> Failure {
        Failure::Fatal(format!(
            "the download took longer than its deadline of {:?} (file_deadline) after {got} \
             bytes",
            self.settings.file_deadline
        ))
    }

    /// Opens `rel` in `repo` for reading: the body and its announced length. A `file://`
    /// repository serves regular files only (a FIFO or a device would hang or never end).
    fn open(
        &self,
        repo: &Repository,
        rel: &str,
        limit: u64,
        deadline: Instant,
    ) -> std::result::Result<(Box<dyn Read + Send>, Option<u64>), Failure> {
        if let Some(dir) = repo.local_dir() {
            let path = join_under(&dir, rel).map_err(Failure::Fatal)?;
            let meta = match fs::metadata(&path) {
                Ok(m) => m,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Failure::NotFound),
                Err(e) => {
                    return Err(Failure::Fatal(format!(
                        "cannot read {}: {e}",
                        path.display()
                    )))
                }
            };
            if meta.is_dir() {
                return Err(Failure::NotFound);
            }
            if !meta.is_file() {
                return Err(Failure::Fatal(format!(
                    "{} is not a regular file (a FIFO, socket or device); refused",
                    path.display()
                )));
            }
            if meta.len() > limit {
                return Err(Failure::Fatal(too_large(meta.len(), limit)));
            }
            return match fs::File::open(&path) {
                Ok(f) => match f.metadata() {
                    Ok(m) if m.is_file() => Ok((Box::new(f), Some(m.len()))),
                    _ => Err(Failure::Fatal(format!(
                        "{} is not a regular file; refused",
                        path.display()
                    ))),
                },
                Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Failure::NotFound),
                Err(e) => Err(Failure::Fatal(format!(
                    "cannot read {}: {e}",
                    path.display()
                ))),
            };
        }
        let url = repo.url_of(rel);
        let url = url.as_str();
        let client = if is_loopback_url(url) {
            &self.direct
        } else {
            &self.client
        };
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(self.deadline_failure(0));
        }
        let resp = client
            .get(url)
            .timeout(self.settings.timeout.min(remaining))
            .send()
            .map_err(|e| {
                if e.is_redirect() || e.is_builder() {
                    Failure::Fatal(e.to_string())
                } else if e.is_timeout() && Instant::now() >= deadline {
                    self.deadline_failure(0)
                } else {
                    Failure::Transient(error_chain(&e))
                }
            })?;
        let status = resp.status();
        if status == reqwest::StatusCode::NOT_FOUND || status == reqwest::StatusCode::GONE {
            return Err(Failure::NotFound);
        }
        if status.is_server_error()
            || status == reqwest::StatusCode::REQUEST_TIMEOUT
            || status == reqwest::StatusCode::TOO_MANY_REQUESTS
        {
            return Err(Failure::Transient(format!("HTTP {status}")));
        }
        if !status.is_success() {
            return Err(Failure::Fatal(format!("HTTP {status}")));
        }
        let len = resp.content_length();
        if let Some(l) = len.filter(|l| *l > limit) {
            return Err(Failure::Fatal(too_large(l, limit)));
        }
        Ok((Box::new(resp), len))
    }

    /// Copies the body of `rel` into the sink made by `on_open` (called once the repository
    /// answered with data), checking the announced length, the size ceiling `limit`, the
    /// `deadline` and stalls; returns the sink.
    fn copy_body<W: Write>(
        &self,
        repo: &Repository,
        rel: &str,
        limit: u64,
        deadline: Instant,
        on_open: impl FnOnce() -> std::result::Result<W, Failure>,
    ) -> std::result::Result<W, Failure> {
        let (body, len) = self.open(repo, rel, limit, deadline)?;
        let mut sink = on_open()?;
        // The body is read on its own thread so that a stalled read cannot hold this one
        // past the stall timeout or the deadline; the thread ends with its read (bounded by
        // the request timeout) once the receiver is gone.
        let rx = spawn_reader(body)
            .map_err(|e| Failure::Fatal(format!("cannot start a reading thread: {e}")))?;
        let stall = self.settings.stall_timeout;
        let mut got: u64 = 0;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(self.deadline_failure(got));
            }
            let chunk = match rx.recv_timeout(stall.min(remaining)) {
                Ok(Ok(chunk)) if chunk.is_empty() => break,
                Ok(Ok(chunk)) => chunk,
                // the request's own timeout ends at the deadline: a read that fails then
                // (reqwest's "operation timed out") is the deadline's
                Ok(Err(_)) if Instant::now() >= deadline => {
                    return Err(self.deadline_failure(got));
                }
                Ok(Err(e)) => {
                    return Err(Failure::Transient(format!(
                        "connection broken after {got} bytes{}: {}",
                        len.map(|l| format!(" of {l}")).unwrap_or_default(),
                        io_error_chain(&e)
                    )))
                }
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                    return Err(self.deadline_failure(got));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(Failure::Transient(format!(
                        "stalled: no data for {stall:?} (stall_timeout) after {got} bytes"
                    )));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Transient(format!(
                        "connection lost after {got} bytes"
                    )));
                }
            };
            got += chunk.len() as u64;
            if got > limit {
                return Err(Failure::Fatal(format!(
                    "{} (stopped after {got} bytes)",
                    too_large_unknown(limit)
                )));
            }
            sink.write_all(&chunk)
                .map_err(|e| Failure::Fatal(format!("cannot write the downloaded data: {e}")))?;
        }
        sink.flush()
            .map_err(|e| Failure::Fatal(format!("cannot write the downloaded data: {e}")))?;
        if let Some(l) = len {
            if got != l {
                return Err(Failure::Transient(format!(
                    "truncated body: received {got} of {l} bytes"
                )));
            }
        }
        Ok(sink)
    }

    /// Fetches a small file of at most `limit` bytes into memory (`None` when the repository
    /// does not have it).
    pub fn get_bytes(
        &self,
        coordinate: &str,
        repo: &Repository,
        rel: &str,
        limit: u64,
    ) -> Result<Option<Vec<u8>>> {
        let url = repo.url_of(rel);
        let limit = limit.min(self.settings.max_download_bytes);
        let deadline = self.deadline();
        let (res, attempts) = self.retry(deadline, || {
            self.copy_body(repo, rel, limit, deadline, || Ok(Vec::new()))
        });
        match res {
            Ok(v) => Ok(Some(v)),
            Err(Failure::NotFound) => Ok(None),
            Err(Failure::Transient(r) | Failure::Fatal(r)) => Err(MavenError::Transfer {
                coordinate: coordinate.to_string(),
                url,
                attempts,
                reason: r,
            }),
            Err(Failure::Local(e)) => Err(e),
        }
    }

    /// The checksum the repository publishes for `rel` (`.sha1`, else `.md5`), if any.
    fn remote_checksum(
        &self,
        coordinate: &str,
        repo: &Repository,
        rel: &str,
    ) -> Result<Option<(Algo, String, String)>> {
        for algo in [Algo::Sha1, Algo::Md5] {
            let crel = format!("{rel}.{}", algo.ext());
            if let Some(bytes) = self.get_bytes(coordinate, repo, &crel, MAX_CHECKSUM_FILE_BYTES)? {
                let text = String::from_utf8_lossy(&bytes);
                let url = repo.url_of(&crel);
                return match algo.parse(&text) {
                    Some(h) => Ok(Some((algo, h, url))),
                    None => Err(MavenError::BadChecksumFile {
                        coordinate: coordinate.to_string(),
                        url,
                        algorithm: algo.name().to_string(),
                        content: text.chars().take(80).collect(),
                    }),
                };
            }
        }
        Ok(None)
    }

    /// Verifies a cached file against a cached checksum file, returning its SHA-1, or `None`
    /// when the file does not match (it is then removed).
    fn verify_cached(
        &self,
        coordinate: &str,
        target: &Path,
        check: Option<Check>,
    ) -> Result<Option<String>> {
        let read_side = |algo: Algo| {
            read_bounded(&sibling(target, algo.ext()), MAX_CHECKSUM_FILE_BYTES)
                .ok()
                .and_then(|t| algo.parse(&String::from_utf8_lossy(&t)))
        };
        let expected_sha1 = read_side(Algo::Sha1);
        let expected_md5 = match expected_sha1 {
            Some(_) => None,
            None => read_side(Algo::Md5),
        };
        let (sha1, md5) =
            hash_file(target, expected_md5.is_some()).map_err(|e| io_err(coordinate, target, e))?;
        let mut ok = match (&expected_sha1, &expected_md5) {
            (Some(e), _) => *e == sha1,
            (None, Some(e)) => Some(e) == md5.as_ref(),
            (None, None) => true,
        };
        if ok {
            if let Some(check) = check {
                ok = check(target).is_ok();
            }
        }
        if ok {
            return Ok(Some(sha1));
        }
        for p in [
            target.to_path_buf(),
            sibling(target, "sha1"),
            sibling(target, "md5"),
        ] {
            match fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err(coordinate, &p, e)),
            }
        }
        Ok(None)
    }

    /// Makes `rel` present in the cache: reuses a cached copy, else downloads it from the first
    /// repository that has it, verifying checksums and `check` before it enters the cache.
    /// `limit` lowers the size ceiling for this file (POMs are small).
    pub fn fetch(
        &self,
        coordinate: &str,
        rel: &str,
        repos: &[Repository],
        check: Option<Check>,
        limit: Option<u64>,
    ) -> Result<CachedFile> {
        let target =
            join_under(&self.cache, rel).map_err(|reason| MavenError::InvalidCoordinate {
                coordinate: coordinate.to_string(),
                reason: format!("refused to write outside the cache: {reason}"),
            })?;
        let limit = limit
            .unwrap_or(u64::MAX)
            .min(self.settings.max_download_bytes);
        let lock = self.lock_for(&target);
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        if target.is_file() {
            if let Some(sha1) = self.verify_cached(coordinate, &target, check)? {
                return Ok(CachedFile {
                    path: target,
                    sha1,
                    repository: None,
                });
            }
        }
        let mut tried = Vec::new();
        let mut transfer_error = None;
        for repo in repos {
            match self.download(coordinate, repo, rel, &target, check, limit) {
                Ok(Some(f)) => return Ok(f),
                Ok(None) => tried.push(repo.url_of(rel)),
                Err(e @ MavenError::Transfer { .. }) => {
                    tried.push(repo.url_of(rel));
                    transfer_error.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        Err(transfer_error.unwrap_or(MavenError::NotFound {
            coordinate: coordinate.to_string(),
            file: rel.to_string(),
            tried,
        }))
    }

    /// Downloads `rel` from one repository into the cache; `Ok(None)` when it is not there.
    fn download(
        &self,
        coordinate: &str,
        repo: &Repository,
        rel: &str,
        target: &Path,
        check: Option<Check>,
        limit: u64,
    ) -> Result<Option<CachedFile>> {
        let url = repo.url_of(rel);
        let dir = target.parent().unwrap_or(Path::new(".")).to_path_buf();
        if dir.is_dir() {
            clean_stale_parts(&dir, target, self.settings.stall_timeout.saturating_mul(2));
        }
        let mut created_dir = false;
        let deadline = self.deadline();
        let (res, attempts) = self.retry(deadline, || {
            let sink = self.copy_body(repo, rel, limit, deadline, || {
                if !dir.is_dir() {
                    fs::create_dir_all(&dir)
                        .map_err(|e| Failure::Local(io_err(coordinate, &dir, e)))?;
                    created_dir = true;
                }
                let tmp = part_file(&dir, target)
                    .map_err(|e| Failure::Local(io_err(coordinate, &dir, e)))?;
                Ok(HashingWriter {
                    inner: io::BufWriter::new(tmp),
                    digests: Digests::new(true),
                })
            })?;
            let HashingWriter { inner, digests } = sink;
            let tmp = inner
                .into_inner()
                .map_err(|e| Failure::Fatal(format!("cannot write the downloaded data: {e}")))?;
            Ok((tmp, digests))
        });
        let cleanup = |created: bool| {
            if created {
                let _ = fs::remove_dir(&dir);
            }
        };
        let (tmp, digests) = match res {
            Ok(x) => x,
            Err(Failure::NotFound) => {
                cleanup(created_dir);
                return Ok(None);
            }
            Err(Failure::Transient(r) | Failure::Fatal(r)) => {
                cleanup(created_dir);
                return Err(MavenError::Transfer {
                    coordinate: coordinate.to_string(),
                    url,
                    attempts,
                    reason: r,
                });
            }
            Err(Failure::Local(e)) => return Err(e),
        };
        let (sha1, md5) = digests.finish();
        let expected = match self.remote_checksum(coordinate, repo, rel) {
            Ok(x) => x,
            Err(e) => {
                drop(tmp);
                cleanup(created_dir);
                return Err(e);
            }
        };
        if let Some((algo, expected, _)) = &expected {
            let actual = match algo {
                Algo::Sha1 => sha1.clone(),
                Algo::Md5 => md5.clone().unwrap_or_default(),
            };
            if *expected != actual {
                drop(tmp);
                cleanup(created_dir);
                return Err(MavenError::ChecksumMismatch {
                    coordinate: coordinate.to_string(),
                    file: url,
                    algorithm: algo.name().to_string(),
                    expected: expected.clone(),
                    actual,
                });
            }
        }
        if let Some(check) = check {
            if let Err(reason) = check(tmp.path()) {
                drop(tmp);
                cleanup(created_dir);
                return Err(MavenError::CorruptArchive {
                    coordinate: coordinate.to_string(),
                    file: format!("{url} (cache path {})", target.display()),
                    reason,
                });
            }
        }
        tmp.persist(target)
            .map_err(|e| io_err(coordinate, target, e.error))?;
        write_atomically(coordinate, &sibling(target, "sha1"), sha1.as_bytes())?;
        Ok(Some(CachedFile {
            path: target.to_path_buf(),
            sha1,
            repository: Some(repo.url.clone()),
        }))
    }
}

/// A reading thread for a body: chunks, an empty chunk at the end, or the error.
fn spawn_reader(mut body: Box<dyn Read + Send>) -> io::Result<mpsc::Receiver<io::Result<Vec<u8>>>> {
    let (tx, rx) = mpsc::sync_channel(4);
    thread::Builder::new()
        .name("thalia-body".into())
        .spawn(move || {
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                match body.read(&mut buf) {
                    Ok(0) => {
                        let _ = tx.send(Ok(Vec::new()));
                        return;
                    }
                    Ok(n) => {
                        if tx.send(Ok(buf[..n].to_vec())).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        })?;
    Ok(rx)
}

fn too_large(len: u64, limit: u64) -> String {
    format!(
        "the file has {len} bytes, more than the size limit of {limit} bytes for it \
         (max_download_bytes, or MAX_XML_BYTES for a POM or metadata)"
    )
}

fn too_large_unknown(limit: u64) -> String {
    format!(
        "the file is larger than the size limit of {limit} bytes for it (max_download_bytes, \
         or MAX_XML_BYTES for a POM or metadata)"
    )
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let cs = c.to_string();
        if !s.contains(&cs) {
            s.push_str(": ");
            s.push_str(&cs);
        }
        cur = c.source();
    }
    s
}

fn io_error_chain(e: &io::Error) -> String {
    match e.get_ref() {
        Some(inner) => error_chain(inner),
        None => e.to_string(),
    }
}
