//! Batch runs (`thalia batch`): one campaign per library × mode over a list of Maven libraries.
//!
//! A batch directory holds `batch.json` (what the batch is: seed, language, compiler, modes,
//! budget), one directory per library (`<group>_<artifact>_<version>/`) with its fetched API in
//! `api/` and one run directory per mode (`well-typed/`, `well-typed-erased/`, `ill-typed/`,
//! `ill-typed-erased/`), and `summary.json`, rebuilt from those files after every step. A
//! library that could not be fetched has an `error.json` in its directory; a mode whose
//! campaign ended has a `cell.json` in its run directory (a finished cell is never redone), one
//! whose campaign failed an `error.json`. Everything is written through a temporary file and a
//! rename, so a kill at any moment leaves either the old or the new file.

pub mod page;
pub mod run;
pub mod union;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::campaign::report::Report;
use crate::campaign::shard::Shard;
use crate::coverage::{Counts, ALL};
use crate::synth::Mode;

/// `batch.json`: what the batch is.
pub const MANIFEST: &str = "batch.json";
/// `summary.json`: every library and cell with its state and figures.
pub const SUMMARY: &str = "summary.json";
/// A finished cell's record, in its run directory.
pub const CELL: &str = "cell.json";
/// A failed library's (or cell's) error, in its directory.
pub const ERROR: &str = "error.json";
/// The union coverage of all libraries per mode (with `--coverage`).
pub const UNION: &str = "coverage-union.json";
/// Each library's coverage increment per mode over well-typed (with `--coverage`).
pub const INCREMENTS: &str = "coverage-increments.json";
/// The static page of the batch.
pub const PAGE: &str = "index.html";
/// The coverage table (with `--coverage`).
pub const COVERAGE_CSV: &str = "coverage.csv";
/// The fetched API of a library, under its directory.
pub const API_DIR: &str = "api";

/// What can go wrong reading or writing a batch.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A line of a library list is not `group:artifact:version`.
    #[error("{file}:{line}: `{text}` is not a `group:artifact:version` coordinate ({reason})")]
    Malformed {
        /// The list file.
        file: String,
        /// Its 1-based line number.
        line: usize,
        /// The line's text.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A library appears twice in a list.
    #[error("{file}:{line}: `{coordinate}` is listed twice (first on line {first})")]
    Duplicate {
        /// The list file.
        file: String,
        /// The second occurrence's line.
        line: usize,
        /// The first occurrence's line.
        first: usize,
        /// The coordinate.
        coordinate: String,
    },
    /// A list with no library.
    #[error("{0}: no library listed")]
    Empty(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file holds malformed JSON.
    #[error("{path}: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// A campaign cannot be set up (its compiler, a setting).
    #[error(transparent)]
    Setup(#[from] crate::campaign::setup::SetupError),
    /// Coverage cannot be measured.
    #[error(transparent)]
    Coverage(#[from] crate::coverage::CoverageError),
    /// The per-cell budget is not a budget.
    #[error("--budget-per-lib: {0}")]
    Budget(String),
    /// Something failed while doing what `context` says.
    #[error("{context}")]
    Context {
        /// What was being done (`cannot create DIR`).
        context: String,
        /// The failure.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The directory holds a different batch.
    #[error("{dir} holds a different batch ({what}: recorded `{recorded}`, asked `{asked}`); choose another --out")]
    Different {
        /// The batch directory.
        dir: PathBuf,
        /// The setting that differs.
        what: &'static str,
        /// Its recorded value.
        recorded: String,
        /// Its asked value.
        asked: String,
    },
}

impl BatchError {
    /// `source`, which happened while doing what `context` says.
    pub fn context(
        context: String,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> BatchError {
        BatchError::Context {
            context,
            source: Box::new(source),
        }
    }
}

/// An error and its causes in one line, leaving out a cause whose text the message already
/// contains (errors often include their source in their own message).
pub fn error_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let t = c.to_string();
        if !out.contains(&t) {
            out.push_str(": ");
            out.push_str(&t);
        }
        cause = c.source();
    }
    out
}

/// An I/O error on `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BatchError + '_ {
    move |source| BatchError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One library of a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Library {
    /// The group id.
    pub group: String,
    /// The artifact id.
    pub artifact: String,
    /// The pinned version.
    pub version: String,
}

impl Library {
    /// `group:artifact:version`.
    pub fn coordinate(&self) -> String {
        format!("{}:{}:{}", self.group, self.artifact, self.version)
    }

    /// Its directory name in a batch: `group_artifact_version`.
    pub fn dir_name(&self) -> String {
        format!("{}_{}_{}", self.group, self.artifact, self.version)
    }
}

/// Whether `part` may be a coordinate part (and a path component).
fn valid_part(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'))
}

/// Parses a library list: one `group:artifact:version` a line; `#` comments (whole lines or
/// after the coordinate) and blank lines are ignored; anything else is an error naming the
/// line. `file` names the list in errors.
pub fn parse_list(text: &str, file: &str) -> Result<Vec<Library>, BatchError> {
    let mut libs: Vec<Library> = Vec::new();
    // the line of each library listed, to find a duplicate in constant time
    let mut line_of: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason| BatchError::Malformed {
            file: file.to_string(),
            line: i + 1,
            text: raw.trim().to_string(),
            reason,
        };
        let parts: Vec<&str> = line.split(':').collect();
        if parts.len() != 3 {
            return Err(bad(if parts.len() < 3 {
                "a part is missing: the version is required"
            } else {
                "too many parts"
            }));
        }
        if !parts.iter().all(|p| valid_part(p)) {
            return Err(bad(
                "parts are non-empty and made of letters, digits, `.`, `-`, `_` and `+`",
            ));
        }
        let lib = Library {
            group: parts[0].to_string(),
            artifact: parts[1].to_string(),
            version: parts[2].to_string(),
        };
        if let Some(&first) = line_of.get(&lib.coordinate()) {
            return Err(BatchError::Duplicate {
                file: file.to_string(),
                line: i + 1,
                first,
                coordinate: lib.coordinate(),
            });
        }
        line_of.insert(lib.coordinate(), i + 1);
        libs.push(lib);
    }
    if libs.is_empty() {
        return Err(BatchError::Empty(file.to_string()));
    }
    Ok(libs)
}

/// Reads and parses a library list file: a regular file (a FIFO or a device is refused) of at
/// most [`crate::rundir::MAX_LIST_BYTES`].
pub fn read_list(path: &Path) -> Result<Vec<Library>, BatchError> {
    // rundir: a regular file, size-limited
    let text = crate::rundir::read_to_string_limited(path, crate::rundir::MAX_LIST_BYTES)
        .map_err(io(path))?;
    parse_list(&text, &path.display().to_string())
}

/// The four modes of the evaluation: well-typed or ill-typed, with or without erasure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BatchMode {
    /// Well-typed programs.
    WellTyped,
    /// Well-typed programs with inferable type arguments erased.
    WellTypedErased,
    /// Ill-typed programs.
    IllTyped,
    /// Ill-typed programs with inferable type arguments erased.
    IllTypedErased,
}

impl BatchMode {
    /// All four, in the order of the evaluation.
    pub const ALL: [BatchMode; 4] = [
        BatchMode::WellTyped,
        BatchMode::WellTypedErased,
        BatchMode::IllTyped,
        BatchMode::IllTypedErased,
    ];

    /// Its name (and its run directory's).
    pub fn as_str(self) -> &'static str {
        match self {
            BatchMode::WellTyped => "well-typed",
            BatchMode::WellTypedErased => "well-typed-erased",
            BatchMode::IllTyped => "ill-typed",
            BatchMode::IllTypedErased => "ill-typed-erased",
        }
    }

    /// The synthesis mode.
    pub fn mode(self) -> Mode {
        match self {
            BatchMode::WellTyped | BatchMode::WellTypedErased => Mode::WellTyped,
            BatchMode::IllTyped | BatchMode::IllTypedErased => Mode::IllTyped,
        }
    }

    /// Whether inferable type arguments are erased.
    pub fn erase(self) -> bool {
        matches!(self, BatchMode::WellTypedErased | BatchMode::IllTypedErased)
    }
}

impl fmt::Display for BatchMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BatchMode {
    type Err = String;
    /// `well-typed`, `well-typed-erased`, `ill-typed`, `ill-typed-erased`.
    fn from_str(s: &str) -> Result<BatchMode, String> {
        BatchMode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown mode `{s}` (one of {})",
                    BatchMode::ALL.map(BatchMode::as_str).join(", ")
                )
            })
    }
}

/// The cells (library index, mode) of a batch, library by library, that `shard` (when given)
/// runs: the cell at position `p` in that order belongs to shard `p mod N`.
pub fn cells(libs: usize, modes: &[BatchMode], shard: Option<Shard>) -> Vec<(usize, BatchMode)> {
    let all = (0..libs).flat_map(|l| modes.iter().map(move |m| (l, *m)));
    all.enumerate()
        .filter(|(p, _)| shard.is_none_or(|s| *p as u64 % s.count == s.index))
        .map(|(_, c)| c)
        .collect()
}

/// `batch.json`: the settings every session of a batch must share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchManifest {
    /// The seed of every cell's campaign.
    pub seed: u64,
    /// The programs' language.
    pub language: String,
    /// The compiler asked for (`NAME[@VERSION]`, or the language's default).
    pub compiler: String,
    /// The modes.
    pub modes: Vec<BatchMode>,
    /// Each cell's campaign budget (as given).
    pub budget: String,
    /// The view of the libraries asked for (`--view`: `auto`, `java`, `kotlin`, `scala`;
    /// `java` in batches written before it could be chosen).
    #[serde(default = "java_view")]
    pub view: String,
    /// With `--coverage`: the filters coverage is counted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Vec<String>>,
    /// With `--run`: the accepted programs are run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub run: bool,
}

/// The view of batches written before `--view`.
fn java_view() -> String {
    "java".into()
}

impl BatchManifest {
    /// Reads `dir/batch.json`, `None` when there is none.
    pub fn read(dir: &Path) -> Result<Option<BatchManifest>, BatchError> {
        let path = dir.join(MANIFEST);
        if !path.exists() {
            return Ok(None);
        }
        read_json(&path).map(Some)
    }

    /// Writes `dir/batch.json`, or checks that the one there is the same batch.
    pub fn open(&self, dir: &Path) -> Result<(), BatchError> {
        if let Some(old) = BatchManifest::read(dir)? {
            let differs = |what, a: String, b: String| {
                (a != b).then(|| BatchError::Different {
                    dir: dir.to_path_buf(),
                    what,
                    recorded: a,
                    asked: b,
                })
            };
            let modes =
                |m: &[BatchMode]| m.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(",");
            let checks = [
                differs("seed", old.seed.to_string(), self.seed.to_string()),
                differs("language", old.language.clone(), self.language.clone()),
                differs("compiler", old.compiler.clone(), self.compiler.clone()),
                differs("modes", modes(&old.modes), modes(&self.modes)),
                differs("budget", old.budget.clone(), self.budget.clone()),
                differs("view", old.view.clone(), self.view.clone()),
                differs("--run", old.run.to_string(), self.run.to_string()),
                differs(
                    "coverage filters",
                    old.coverage.as_ref().map_or("none".into(), |f| f.join(",")),
                    self.coverage
                        .as_ref()
                        .map_or("none".into(), |f| f.join(",")),
                ),
            ];
            if let Some(e) = checks.into_iter().flatten().next() {
                return Err(e);
            }
            return Ok(());
        }
        write_json(&dir.join(MANIFEST), self)
    }
}

/// A finding of a cell, linked to its directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingLink {
    /// Its kind.
    pub kind: String,
    /// Programs that hit it.
    pub count: u64,
    /// Its readable signature.
    pub text: String,
    /// Its directory, relative to the batch directory.
    pub path: String,
    /// The folder it is in (`bugs`, `known`, `suspects`, `intended`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub folder: String,
    /// Its status on the newest release of the compiler (`open`, `fixed since V`,
    /// `unchecked`), once rechecked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The known bug it is, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
}

/// `cell.json`: a finished cell's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellRecord {
    /// Programs judged.
    pub programs: u64,
    /// Well-typed programs accepted, and well-typed programs.
    pub well_typed_accepted: (u64, u64),
    /// Ill-typed programs rejected, and ill-typed programs.
    pub ill_typed_rejected: (u64, u64),
    /// Findings (occurrences).
    pub findings: u64,
    /// Distinct findings.
    pub distinct: u64,
    /// The share of the largest family (a cluster, or a signature not reduced) among the
    /// finding programs (0 without findings; see `campaign::feedback`).
    #[serde(default)]
    pub largest_family_share: f64,
    /// The distinct findings, linked to their directories.
    pub links: Vec<FindingLink>,
    /// With `--coverage`: the compiler's coverage per filter (and `all`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub coverage: BTreeMap<String, Counts>,
    /// With `--server`: the compile server processes started during the cell's session (0
    /// when it reused the batch's warm servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_starts: Option<usize>,
}

impl CellRecord {
    /// The record of a run directory `run` (relative to the batch directory: `rel`).
    pub fn from_report(report: &Report, rel: &str) -> CellRecord {
        CellRecord {
            programs: report.programs,
            well_typed_accepted: report.well_typed_accepted,
            ill_typed_rejected: report.ill_typed_rejected,
            findings: report.signatures.iter().map(|s| s.count).sum(),
            distinct: report.signatures.len() as u64,
            largest_family_share: report.largest_family.as_ref().map_or(0.0, |l| l.share),
            links: report
                .signatures
                .iter()
                .map(|s| FindingLink {
                    kind: s.kind.as_str().to_string(),
                    count: s.count,
                    text: s.text.clone(),
                    path: format!("{rel}/{}", s.signature),
                    folder: s.folder.clone(),
                    status: s.status.clone(),
                    known: s.known.clone(),
                })
                .collect(),
            coverage: BTreeMap::new(),
            server_starts: None,
        }
    }
}

/// An error recorded for a library or a cell (`error.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorRecord {
    /// What failed: `fetch`, `api` or `campaign`.
    pub stage: String,
    /// The message.
    pub error: String,
}

/// The state of a library or a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Not done yet (or not this shard's).
    Pending,
    /// Done.
    Done,
    /// Failed, with its error recorded; retried by the next session.
    Failed,
}

/// One cell in `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellStatus {
    /// The mode.
    pub mode: BatchMode,
    /// Its state.
    pub state: State,
    /// Its run directory, relative to the batch directory.
    pub dir: String,
    /// Its error, when failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorRecord>,
    /// Its figures, when done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<CellRecord>,
}

/// One library in `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LibraryStatus {
    /// `group:artifact:version`.
    pub coordinate: String,
    /// Its directory, relative to the batch directory.
    pub dir: String,
    /// `done` once fetched, `failed` with its error, else `pending`.
    pub state: State,
    /// The view its API was written in (`java`, `kotlin`, `scala`), once fetched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// Its error, when failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorRecord>,
    /// Its cells.
    pub cells: Vec<CellStatus>,
}

/// `summary.json`: the batch as found on disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchSummary {
    /// The batch's settings.
    pub manifest: BatchManifest,
    /// Every library of the list, in order.
    pub libraries: Vec<LibraryStatus>,
    /// Cells done.
    pub cells_done: usize,
    /// Cells failed.
    pub cells_failed: usize,
    /// Libraries that could not be fetched or have no API.
    pub libraries_failed: usize,
    /// With `--coverage`: the union coverage of all libraries, per mode and over all modes
    /// (`all`), per filter (`coverage-union.json`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub union: BTreeMap<String, BTreeMap<String, Counts>>,
    /// With `--coverage`: each library's increment per mode over its well-typed cell, in
    /// percentage points of the checker's lines (`coverage-increments.json`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub increments: BTreeMap<String, BTreeMap<BatchMode, f64>>,
}

impl BatchSummary {
    /// Rebuilds the summary of batch `dir` from its files.
    pub fn collect(
        dir: &Path,
        manifest: &BatchManifest,
        libs: &[Library],
    ) -> Result<BatchSummary, BatchError> {
        let mut libraries = Vec::new();
        for lib in libs {
            let name = lib.dir_name();
            let ldir = dir.join(&name);
            let error: Option<ErrorRecord> = read_opt(&ldir.join(ERROR))?;
            let fetch_json = ldir.join(API_DIR).join("fetch.json");
            let fetched = fetch_json.exists();
            let view = if fetched {
                read_json::<serde_json::Value>(&fetch_json)?
                    .get("view")
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            } else {
                None
            };
            let state = match (&error, fetched) {
                (Some(_), _) => State::Failed,
                (None, true) => State::Done,
                (None, false) => State::Pending,
            };
            let mut cells = Vec::new();
            for &mode in &manifest.modes {
                let cdir = ldir.join(mode.as_str());
                let record: Option<CellRecord> = read_opt(&cdir.join(CELL))?;
                let error: Option<ErrorRecord> = read_opt(&cdir.join(ERROR))?;
                let state = if record.is_some() {
                    State::Done
                } else if error.is_some() {
                    State::Failed
                } else {
                    State::Pending
                };
                cells.push(CellStatus {
                    mode,
                    state,
                    dir: format!("{name}/{}", mode.as_str()),
                    error: if record.is_some() { None } else { error },
                    record,
                });
            }
            libraries.push(LibraryStatus {
                coordinate: lib.coordinate(),
                dir: name,
                state,
                view,
                error,
                cells,
            });
        }
        let count = |s: State| {
            libraries
                .iter()
                .flat_map(|l| &l.cells)
                .filter(|c| c.state == s)
                .count()
        };
        let union = read_opt(&dir.join(UNION))?.unwrap_or_default();
        let increments = read_opt(&dir.join(INCREMENTS))?.unwrap_or_default();
        Ok(BatchSummary {
            union,
            increments,
            manifest: manifest.clone(),
            cells_done: count(State::Done),
            cells_failed: count(State::Failed),
            libraries_failed: libraries
                .iter()
                .filter(|l| l.state == State::Failed)
                .count(),
            libraries,
        })
    }

    /// Reads `dir/summary.json`.
    pub fn read(dir: &Path) -> Result<BatchSummary, BatchError> {
        read_json(&dir.join(SUMMARY))
    }

    /// Writes `dir/summary.json`.
    pub fn write(&self, dir: &Path) -> Result<(), BatchError> {
        write_json(&dir.join(SUMMARY), self)
    }

    /// The table `thalia report BATCH` prints: one row per library × mode.
    pub fn table(&self) -> String {
        let pct = |(k, n): (u64, u64)| {
            if n == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * k as f64 / n as f64)
            }
        };
        let mut rows = vec![[
            "library".to_string(),
            "mode".to_string(),
            "state".to_string(),
            "programs".to_string(),
            "as expected".to_string(),
            "findings".to_string(),
            "distinct".to_string(),
            "checker lines".to_string(),
        ]];
        for lib in &self.libraries {
            if let (State::Failed, Some(e)) = (lib.state, &lib.error) {
                rows.push([
                    lib.coordinate.clone(),
                    "-".into(),
                    "failed".into(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    // (last, so that a long message widens no column)
                    format!("{}: {}", e.stage, first_line(&e.error)),
                ]);
                continue;
            }
            for c in &lib.cells {
                let lines = c
                    .record
                    .as_ref()
                    .and_then(|r| r.coverage.get(ALL))
                    .map(coverage_cell)
                    .unwrap_or_default();
                let (programs, rate, findings, distinct) = match &c.record {
                    Some(r) => (
                        r.programs.to_string(),
                        pct(if c.mode.mode() == Mode::WellTyped {
                            r.well_typed_accepted
                        } else {
                            r.ill_typed_rejected
                        }),
                        r.findings.to_string(),
                        r.distinct.to_string(),
                    ),
                    None => Default::default(),
                };
                // a cell's error in the last column, so that it widens no column
                let lines = match (&c.record, &c.error) {
                    (None, Some(e)) => format!("{}: {}", e.stage, first_line(&e.error)),
                    _ => lines,
                };
                rows.push([
                    lib.coordinate.clone(),
                    c.mode.to_string(),
                    state_name(c.state).into(),
                    programs,
                    rate,
                    findings,
                    distinct,
                    lines,
                ]);
            }
        }
        let widths: Vec<usize> = (0..8)
            .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = format!(
            "batch: {} libraries ({} failed), {} cells done, {} failed; {} {} seed {}, budget {} per cell\n",
            self.libraries.len(),
            self.libraries_failed,
            self.cells_done,
            self.cells_failed,
            self.manifest.language,
            self.manifest.compiler,
            self.manifest.seed,
            self.manifest.budget
        );
        for r in &rows {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect();
            out.push_str("  ");
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        if let Some(filters) = &self.manifest.coverage {
            out.push_str(&format!(
                "coverage counted on {} (`checker lines`: classes matching any)\n",
                filters.join(", ")
            ));
            for inc in self.increments() {
                out.push_str(&format!(
                    "  {} over well-typed ({} libraries): lines {} min, {} max, {} median, {} mean, std {:.2} (points of the checker's lines)\n",
                    inc.mode,
                    inc.libraries,
                    inc.show(inc.min),
                    inc.show(inc.max),
                    inc.show(inc.median),
                    inc.show(inc.mean),
                    inc.std
                ));
            }
            for (mode, counts) in &self.union {
                if let Some(c) = counts.get(ALL) {
                    out.push_str(&format!(
                        "  union of all libraries, {mode}: {}\n",
                        coverage_cell(c)
                    ));
                }
            }
        }
        out
    }

    /// The increment of each mode over the well-typed base, over the libraries that have both
    /// cells: the checker lines the two cells cover together minus those of the well-typed
    /// cell, in percentage points of the checker's lines (what the mode adds); min, max,
    /// median, mean.
    pub fn increments(&self) -> Vec<Increment> {
        let mut out = Vec::new();
        // the checker's lines: the same in every cell (one compiler, one filter set)
        let total = self
            .libraries
            .iter()
            .flat_map(|l| &l.cells)
            .filter_map(|c| c.record.as_ref()?.coverage.get(ALL))
            .map(|c| c.lines_total)
            .next();
        for &mode in self
            .manifest
            .modes
            .iter()
            .filter(|m| **m != BatchMode::WellTyped)
        {
            let mut d: Vec<f64> = self
                .libraries
                .iter()
                .filter_map(|l| self.increments.get(&l.coordinate)?.get(&mode).copied())
                .collect();
            if d.is_empty() {
                continue;
            }
            d.sort_by(f64::total_cmp);
            let n = d.len();
            let median = if n % 2 == 1 {
                d[n / 2]
            } else {
                (d[n / 2 - 1] + d[n / 2]) / 2.0
            };
            let mean = d.iter().sum::<f64>() / n as f64;
            let std = (d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64).sqrt();
            out.push(Increment {
                mode,
                libraries: n,
                min: d[0],
                max: d[n - 1],
                median,
                mean,
                std,
                checker_lines: total,
                per_library: d,
            });
        }
        out
    }

    /// `coverage.csv`: one row per finished cell and filter (and `all`), then the union rows
    /// (library `union`).
    pub fn coverage_csv(&self) -> String {
        let mut out = String::from(
            "library,mode,filter,lines_covered,lines_total,branches_covered,branches_total\n",
        );
        let mut row = |lib: &str, mode: &str, filter: &str, c: &Counts| {
            out.push_str(&format!(
                "{lib},{mode},{filter},{},{},{},{}\n",
                c.lines_covered, c.lines_total, c.branches_covered, c.branches_total
            ));
        };
        for lib in &self.libraries {
            for c in &lib.cells {
                if let Some(r) = &c.record {
                    for (f, counts) in &r.coverage {
                        row(&lib.coordinate, c.mode.as_str(), f, counts);
                    }
                }
            }
        }
        for (mode, counts) in &self.union {
            for (f, c) in counts {
                row("union", mode, f, c);
            }
        }
        out
    }
}

/// A mode's coverage increment over the well-typed base.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Increment {
    /// The mode.
    pub mode: BatchMode,
    /// Libraries with both cells measured.
    pub libraries: usize,
    /// The smallest increment (percentage points of checker lines).
    pub min: f64,
    /// The largest.
    pub max: f64,
    /// The median.
    pub median: f64,
    /// The mean.
    pub mean: f64,
    /// The standard deviation (of the population of libraries).
    pub std: f64,
    /// The checker's lines (the 100 % of the points), when known.
    pub checker_lines: Option<u64>,
    /// Every library's increment, sorted.
    pub per_library: Vec<f64>,
}

impl Increment {
    /// `+p.pp (+n lines)`: an increment in points and, when the checker's lines are known, in
    /// lines.
    pub fn show(&self, points: f64) -> String {
        match self.checker_lines {
            Some(t) => format!("{points:+.2} (+{:.0} lines)", points * t as f64 / 100.0),
            None => format!("{points:+.2}"),
        }
    }
}

/// `covered/total (p%)` of lines.
fn coverage_cell(c: &Counts) -> String {
    format!(
        "{}/{} ({:.2}%)",
        c.lines_covered,
        c.lines_total,
        c.line_percent()
    )
}

/// A state's name in tables.
fn state_name(s: State) -> &'static str {
    match s {
        State::Pending => "pending",
        State::Done => "done",
        State::Failed => "failed",
    }
}

/// The first line of a message.
fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Reads every done cell's run in the batch directory `dir` again and refreshes its findings
/// in `summary` and its `cell.json` (their statuses and labels after `thalia report BATCH
/// --recheck`, or a recheck of one cell); then writes `summary.json`. Returns the cells
/// refreshed.
pub fn refresh_findings(dir: &Path, summary: &mut BatchSummary) -> Result<usize, BatchError> {
    let mut n = 0;
    for cell in summary
        .libraries
        .iter_mut()
        .flat_map(|l| l.cells.iter_mut())
    {
        let Some(record) = cell.record.as_mut() else {
            continue;
        };
        // the cell's directory as `summary.json` names it: checked before it is a path
        if crate::rundir::check_relative(&cell.dir, 2).is_err() {
            continue;
        }
        let cdir = dir.join(&cell.dir);
        let report = Report::load(&cdir).map_err(|e| {
            BatchError::context(format!("cannot read the run in {}", cdir.display()), e)
        })?;
        let fresh = CellRecord::from_report(&report, &cell.dir);
        record.findings = fresh.findings;
        record.distinct = fresh.distinct;
        record.largest_family_share = fresh.largest_family_share;
        record.links = fresh.links;
        write_json(&cdir.join(CELL), record)?;
        n += 1;
    }
    summary.write(dir)?;
    Ok(n)
}

/// The run directories of the done cells of `summary` in the batch directory `dir`.
pub fn cell_dirs(dir: &Path, summary: &BatchSummary) -> Vec<PathBuf> {
    summary
        .libraries
        .iter()
        .flat_map(|l| &l.cells)
        .filter(|c| c.record.is_some() && crate::rundir::check_relative(&c.dir, 2).is_ok())
        .map(|c| dir.join(&c.dir))
        .collect()
}

/// Writes the batch page of `summary` into the batch directory `dir`; returns its path.
pub fn write_page(dir: &Path, summary: &BatchSummary) -> Result<PathBuf, BatchError> {
    let page = dir.join(PAGE);
    // through a temporary file and a rename, never through a link
    crate::rundir::write_atomic(&page, page::page(summary).as_bytes()).map_err(io(&page))?;
    Ok(page)
}

/// Whether `dir` is a batch directory (it holds `batch.json`).
pub fn is_batch(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

/// Reads a JSON file.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, BatchError> {
    // rundir: a regular file, size-limited
    let text = crate::rundir::read_to_string_limited(path, crate::rundir::MAX_JSON_BYTES)
        .map_err(io(path))?;
    serde_json::from_str(&text).map_err(|source| BatchError::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a JSON file, `None` when it does not exist.
fn read_opt<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, BatchError> {
    if !path.exists() {
        return Ok(None);
    }
    read_json(path).map(Some)
}

/// Writes a value as pretty JSON through a temporary file and a rename.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), BatchError> {
    let text = serde_json::to_string_pretty(value).map_err(|source| BatchError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    // rundir: a temporary file beside it, renamed over it (never through a link)
    crate::rundir::write_atomic(path, (text + "\n").as_bytes()).map_err(io(path))
}

/// Removes a file if it exists.
pub fn remove_if_present(path: &Path) -> Result<(), BatchError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(path)(e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keep_comments_and_blanks_and_name_bad_lines() {
        let libs = parse_list("# c\n\n a:b:1 # trailing\nx.y:z-w:2.0-jre\n", "L").expect("ok");
        assert_eq!(libs.len(), 2);
        assert_eq!(libs[1].coordinate(), "x.y:z-w:2.0-jre");
        let e = parse_list("a:b:1\na:b\n", "L").expect_err("missing version");
        assert!(e.to_string().starts_with("L:2: `a:b`"), "{e}");
        let e = parse_list("a:b:1:jar\n", "L").expect_err("four parts");
        assert!(e.to_string().contains("L:1"), "{e}");
        let e = parse_list("a:../b:1\n", "L").expect_err("path");
        assert!(e.to_string().contains("L:1"), "{e}");
        let e = parse_list("a:b:1\na:b:1\n", "L").expect_err("twice");
        assert!(e.to_string().contains("first on line 1"), "{e}");
        assert!(parse_list("# only\n", "L").is_err());
    }

    #[test]
    fn the_repository_list_parses() {
        let text = include_str!("../maven-list.txt");
        let libs = parse_list(text, "maven-list.txt").expect("the default list parses");
        assert_eq!(libs.len(), 95);
    }

    #[test]
    fn tables_give_the_rate_as_expected() {
        let record = CellRecord {
            programs: 100,
            well_typed_accepted: (0, 0),
            ill_typed_rejected: (97, 100),
            findings: 3,
            distinct: 2,
            largest_family_share: 0.5,
            links: Vec::new(),
            coverage: BTreeMap::new(),
            server_starts: None,
        };
        let summary = BatchSummary {
            manifest: BatchManifest {
                seed: 1,
                language: "java".into(),
                compiler: "javac".into(),
                modes: vec![BatchMode::IllTyped],
                budget: "100".into(),
                view: "auto".into(),
                coverage: None,
                run: false,
            },
            libraries: vec![LibraryStatus {
                coordinate: "g:a:1".into(),
                dir: "g_a_1".into(),
                state: State::Done,
                view: Some("java".into()),
                error: None,
                cells: vec![CellStatus {
                    mode: BatchMode::IllTyped,
                    state: State::Done,
                    dir: "g_a_1/ill-typed".into(),
                    error: None,
                    record: Some(record),
                }],
            }],
            cells_done: 1,
            cells_failed: 0,
            libraries_failed: 0,
            union: BTreeMap::new(),
            increments: BTreeMap::new(),
        };
        assert!(summary.table().contains("97.0%"), "{}", summary.table());
        assert!(page::page(&summary).contains(">97.0%<"));
    }

    #[test]
    fn shards_split_cells() {
        let m = BatchMode::ALL;
        let all = cells(3, &m, None);
        assert_eq!(all.len(), 12);
        let mut joined: Vec<_> = (0..5)
            .flat_map(|i| cells(3, &m, Some(Shard { index: i, count: 5 })))
            .collect();
        joined.sort();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(joined, sorted);
        assert_eq!(
            "ill-typed-erased".parse::<BatchMode>(),
            Ok(BatchMode::IllTypedErased)
        );
    }
}
