//! The results store: a run directory that a long campaign writes as it goes and that a
//! killed campaign (even `kill -9`) resumes from.
//!
//! ```text
//! RUN/
//!   manifest.json    what ran: thalia's version, seed, options, the compiler's version and
//!                    command line, and one entry per session (rewritten atomically)
//!   results.jsonl    one line per judged program, appended and flushed as it goes
//!   bugs/<signature>/  one directory per distinct finding: the program, finding.json
//!                    (expected vs actual verdict), compiler-output.txt and repro.sh
//!   known/<signature>/ the same for findings of known bugs (`known-findings/`), labelled
//!                    with the known entry's id and counted apart
//!   intended/<signature>/ the same for differential findings of intended language changes
//!                    (`known-findings/intended-changes.toml`), counted apart
//! ```
//!
//! A bug directory is built under a temporary name and renamed into place before the
//! program's results line is written, so a kill leaves either no trace of the program (it is
//! judged again on resume) or a complete bug directory. A partial last line of
//! `results.jsonl` (the process died mid-write) is cut off on resume.
//!
//! A complete line that is not valid UTF-8, not JSON, or not a well-formed results line
//! (corruption on disk, an edit) is **quarantined** when the store is opened: its raw bytes
//! are appended, each followed by a newline, to `results.quarantine.jsonl` (which is
//! therefore not necessarily valid UTF-8 or JSON), then `results.jsonl` is rewritten without
//! it through a temporary file and a rename, so a kill at any moment leaves either the old or
//! the new file (a line quarantined just before a kill may appear twice in the quarantine
//! file). Its program has no line any more and is judged again. Readers that do not repair
//! ([`scan_results`], `thalia report`) skip such lines with a warning naming the line.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::setup::{RunIdentity, SessionOptions};
use super::signature::{signature, Signature};
use super::{
    judge, judge_differential, judge_with_reason, twin_applies, Candidate, DiffKind, Expected,
    FindingKind, TwinStatus,
};
use crate::compile::Verdict;
use crate::toolchain::Tool;

/// The manifest file's name.
pub const MANIFEST: &str = "manifest.json";
/// The results file's name.
pub const RESULTS: &str = "results.jsonl";
/// The bug directories' parent.
pub const BUGS: &str = "bugs";
/// The parent of the directories of generator-suspect findings (their Java twin got the same
/// unexpected verdict from javac, or an ill-typed program was rejected away from its call).
pub const SUSPECTS: &str = "suspects";
pub use super::intended::INTENDED;
pub use super::known::KNOWN;
/// The file that keeps the raw bytes of corrupt `results.jsonl` lines (see the module docs).
pub const QUARANTINE: &str = "results.quarantine.jsonl";
/// Verdict labels a results line may carry.
const VERDICTS: [&str; 4] = ["accepted", "rejected", "crash", "timeout"];

/// Programs kept per signature beyond its first whose diagnostics (or broken types) differ,
/// in `bugs/<signature>/variants/<hash>/`.
pub const KEPT_VARIANTS: usize = 3;
/// The folder of a signature's variant programs.
pub const VARIANTS: &str = "variants";

/// A diagnostic without what changes from program to program at the same cause's location:
/// the paths up to the program's file name, and line and column numbers after it.
fn strip_location(text: &str, file: &str) -> String {
    text.lines()
        .map(|l| match l.find(file) {
            Some(i) => {
                let rest = &l[i + file.len()..];
                let rest =
                    rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == ':' || c == ' ');
                format!("FILE: {rest}")
            }
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Diagnostics kept per program in `results.jsonl` (the bug directory keeps them all).
const KEPT_DIAGNOSTICS: usize = 3;
/// Characters kept per diagnostic in `results.jsonl`.
const KEPT_CHARS: usize = 400;

/// The compiler a run uses, as recorded in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompilerInfo {
    /// Which compiler.
    pub tool: Tool,
    /// Its version.
    pub version: String,
    /// The Maven coordinate it was installed from.
    pub coordinate: Option<String>,
    /// `process` (a fresh compiler per batch) or `server` (a warm compile server).
    pub mode: String,
    /// The command line of one process-mode compilation, with `@OUT@` for the output
    /// directory and `@FILE@` for the source file.
    pub command: Vec<String>,
    /// The programs' classpath.
    pub classpath: Option<String>,
    /// The per-file time budget in seconds.
    pub timeout_seconds: f64,
    /// The compiler variant (`k1`, `type-checked`, ...; see [`super::variant`]) of an
    /// `--against` compiler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

impl CompilerInfo {
    /// `NAME@VERSION`, with `:VARIANT` for a variant.
    pub fn label(&self) -> String {
        match &self.variant {
            Some(v) => format!("{}@{}:{v}", self.tool.name(), self.version),
            None => format!("{}@{}", self.tool.name(), self.version),
        }
    }

    /// The variant, when it is a known one for this compiler.
    pub fn variant(&self) -> Option<&'static super::variant::Variant> {
        let name = self.variant.as_deref()?;
        super::variant::Variant::find(name, self.tool).ok()
    }
}

/// One invocation of a run (a resumed run has several).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Start, in seconds since the Unix epoch.
    pub started: f64,
    /// Seconds spent so far.
    pub seconds: f64,
    /// Programs judged in this session.
    pub programs: u64,
    /// The options of this session (batch size, jobs, budget, ...).
    pub options: SessionOptions,
    /// Programs the translator could not write in this session (skipped), by reason.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub untranslatable: std::collections::BTreeMap<String, u64>,
}

/// `manifest.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `thalia`.
    pub tool: String,
    /// thalia's version.
    pub version: String,
    /// `run` (synthesized on the fly) or `check` (an existing directory).
    pub kind: String,
    /// What a resumed run must agree on: seed, language, API, modes, synthesis
    /// configuration, compiler and version, or the checked directory's manifest hash.
    pub identity: RunIdentity,
    /// The compiler.
    pub compiler: CompilerInfo,
    /// The other compilers every program is also compiled with (`--against`): a disagreement
    /// with the compiler under test is a differential finding.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<CompilerInfo>,
    /// The run directories `thalia merge` joined into this one (empty for a run of its
    /// own): each with its shard and programs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<super::merge::MergedPart>,
    /// The sessions, oldest first (a merged run: those of every part, in the parts' order).
    pub sessions: Vec<Session>,
}

/// The IR of a finding's program in its directory (for `thalia reduce`).
pub const PROGRAM_IR: &str = "program.ir.json";

/// `finding.json` in a finding's directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingFile {
    /// The signature's directory name.
    pub signature: String,
    /// The readable signature.
    pub signature_text: String,
    /// The finding's kind.
    pub kind: FindingKind,
    /// The compiler that made it.
    pub compiler: FindingCompiler,
    /// The program.
    pub program: FindingProgram,
    /// What the compiler should have done.
    pub expected: Expected,
    /// What it did (`accepted`, `rejected`, `crash`, `timeout`).
    pub actual: String,
    /// The exit code of a crash.
    pub exit: Option<i32>,
    /// The program's Java twin and what javac said of it.
    pub twin: Option<FindingTwin>,
    /// The known bug it is a finding of (`known-findings/`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<KnownLabel>,
    /// The intended language change it is a finding of (`intended-changes.toml`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended: Option<IntendedLabel>,
    /// The cluster of findings whose reduced programs are the same up to renaming (set by
    /// reduction; see [`super::cluster`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
}

/// The intended language change a differential finding matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntendedLabel {
    /// The entry's id.
    pub id: String,
    /// Why the change is intended.
    pub reason: String,
    /// Where it is documented.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

impl IntendedLabel {
    /// The label of an intended-change entry.
    pub fn of(e: &super::intended::IntendedEntry) -> IntendedLabel {
        IntendedLabel {
            id: e.id.clone(),
            reason: e.reason.clone(),
            link: e.link.clone(),
        }
    }
}

/// The known bug a finding matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownLabel {
    /// The known entry's id (`RB9`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its tracker issue, when filed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracker: Option<String>,
}

impl KnownLabel {
    /// The label of a known entry.
    pub fn of(e: &super::known::KnownEntry) -> KnownLabel {
        KnownLabel {
            id: e.id.clone(),
            title: e.title.clone(),
            tracker: e.tracker.clone(),
        }
    }
}

/// The compiler of a finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingCompiler {
    /// Which compiler.
    pub tool: Tool,
    /// Its version.
    pub version: String,
    /// `process` or `server`.
    pub mode: String,
}

/// The program of a finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingProgram {
    /// Its key in the run.
    pub key: String,
    /// Its id.
    pub id: String,
    /// Its mode label.
    pub mode: String,
    /// The synthesis round.
    pub round: u64,
    /// Its file.
    pub file: String,
    /// The command that regenerates it.
    pub regenerate: Option<String>,
    /// Its record.
    pub record: crate::synth::ProgramRecord,
}

/// The Java twin of a finding's program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingTwin {
    /// The twin's file.
    pub file: String,
    /// `javac`.
    pub compiler: String,
    /// javac's verdict, when the twin was compiled.
    pub verdict: Option<String>,
    /// What it says of the finding.
    pub status: Option<TwinStatus>,
    /// Why the twin cannot judge the program, when it cannot (status `not-applicable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_applicable: Option<String>,
}

impl FindingFile {
    /// Reads `dir/finding.json`.
    pub fn read(dir: &Path) -> Result<FindingFile, StoreError> {
        let path = dir.join("finding.json");
        // rundir: a regular file, size-limited
        let text = crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_JSON_BYTES)
            .map_err(io(&path))?;
        serde_json::from_str(&text).map_err(|e| StoreError::Manifest {
            path,
            message: e.to_string(),
        })
    }
}

/// A disagreement between the compiler under test and another compiler on one program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffRef {
    /// The other compiler (`groovy@4.0.11`).
    pub against: String,
    /// Its verdict.
    pub verdict: String,
    /// Regression, fixed-since, or a disagreement between different compilers.
    pub kind: DiffKind,
    /// When the other compiler is the wrong one: its finding (stored under
    /// `bugs/<compiler>@<version>/`). When the compiler under test is wrong, its finding is
    /// the line's own.
    pub finding: Option<FindingRef>,
    /// The id of the intended language change (`intended-changes.toml`) the disagreement
    /// is, if any: the wrong side's finding is then stored under `intended/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended: Option<String>,
}

/// A finding as recorded on a results line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingRef {
    /// Its kind.
    pub kind: FindingKind,
    /// Its signature's directory under `bugs/` (or `suspects/`).
    pub signature: String,
    /// True when this program's finding created the bug directory (false: a duplicate).
    pub first: bool,
    /// What the program's Java twin says (absent in runs without twins).
    #[serde(default, skip_serializing_if = "is_no_twin")]
    pub twin: TwinStatus,
    /// The id of the known bug (`known-findings/`) the finding matches: it is stored under
    /// `known/`, counted apart, and not reported as new.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
    /// The id of the intended language change (`intended-changes.toml`) the finding is: it
    /// is stored under `intended/` and counted apart from the bugs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended: Option<String>,
    /// Why the program's Java twin cannot judge it (status `not-applicable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin_reason: Option<String>,
}

/// For serde: a finding without twin information.
fn is_no_twin(t: &TwinStatus) -> bool {
    *t == TwinStatus::NoTwin
}

impl FindingRef {
    /// The folder of the finding's directory: `intended` for an intended language change's,
    /// `known` for a known bug's, `suspects` for a generator-suspect finding (kept apart from
    /// the bugs), `bugs` otherwise.
    pub fn folder(&self) -> &'static str {
        if self.intended.is_some() {
            INTENDED
        } else if self.known.is_some() {
            KNOWN
        } else {
            folder(self.twin, self.kind)
        }
    }

    /// The finding's directory relative to the run directory (`bugs/<signature>`); also the
    /// key findings are counted and deduplicated by.
    pub fn path(&self) -> String {
        format!("{}/{}", self.folder(), self.signature)
    }
}

/// The folder of findings of `kind` with twin status `twin`: generator suspects (by their
/// twin, or rejected away from the call under test) apart from the bugs.
fn folder(twin: TwinStatus, kind: FindingKind) -> &'static str {
    match (twin, kind) {
        (TwinStatus::GeneratorSuspect, _) | (_, FindingKind::RejectedElsewhere) => SUSPECTS,
        _ => BUGS,
    }
}

/// One line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultLine {
    /// The program's key in the run.
    pub key: String,
    /// Its id.
    pub id: String,
    /// Its mode (`well-typed`, `ill-typed`, with `+erase`).
    pub mode: String,
    /// The synthesis round.
    pub round: u64,
    /// The API member under test.
    pub member: String,
    /// The source file's name.
    pub file: String,
    /// The expectation.
    pub expected: Expected,
    /// `accepted`, `rejected`, `crash` or `timeout`.
    pub verdict: String,
    /// The first diagnostics (or the crash output), shortened.
    pub diagnostics: Vec<String>,
    /// True when the verdict is the expected one.
    pub matches: bool,
    /// The finding, when it is not.
    pub finding: Option<FindingRef>,
    /// The other compilers that disagree with the compiler under test on this program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differential: Vec<DiffRef>,
    /// The javac verdict of the program's Java twin, when a finding's twin was compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twin_verdict: Option<String>,
    /// This program's share of its batch's compile time (seconds).
    pub seconds: f64,
    /// When it was judged (seconds since the Unix epoch).
    pub at: f64,
}

/// A problem with the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The manifest cannot be read.
    #[error("{path}: not a thalia run manifest: {message}")]
    Manifest {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A known-findings file cannot be used.
    #[error(transparent)]
    Known(#[from] super::known::KnownError),
    /// An intended-changes file cannot be used.
    #[error(transparent)]
    Intended(#[from] super::intended::IntendedError),
    /// rundir: another process writes the run directory.
    #[error(transparent)]
    Locked(#[from] crate::rundir::LockError),
    /// The directory holds a different run.
    #[error("{dir} holds a different run ({field} was {was}, now {now}); give another output directory to start a new run")]
    Mismatch {
        /// The run directory.
        dir: PathBuf,
        /// The first option that differs.
        field: String,
        /// Its recorded value.
        was: String,
        /// Its value now.
        now: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Seconds since the Unix epoch.
pub fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// An open run directory.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    manifest: Manifest,
    results: fs::File,
    done: HashSet<String>,
    counts: HashMap<String, u64>,
    session_start: Instant,
    recovered_lines: usize,
    known: super::known::KnownSet,
    intended: super::intended::IntendedSet,
    /// rundir: one writer at a time (released when the store is dropped).
    _lock: crate::rundir::RunLock,
}

impl Store {
    /// Opens `dir` for `manifest`'s run: creates it, or resumes the run it holds when the
    /// identities agree (a different run is an error). The manifest's last session is this
    /// one.
    pub fn open(dir: &Path, mut manifest: Manifest) -> Result<Store, StoreError> {
        // rundir: the lock first, before anything in the directory is read, repaired or made
        fs::create_dir_all(dir).map_err(io(dir))?;
        let lock = crate::rundir::RunLock::acquire(dir)?;
        fs::create_dir_all(dir.join(BUGS)).map_err(io(dir))?;
        let manifest_path = dir.join(MANIFEST);
        if manifest_path.exists() {
            let text = crate::rundir::read_to_string_limited(
                &manifest_path,
                crate::rundir::MAX_JSON_BYTES,
            )
            .map_err(io(&manifest_path))?;
            let old: Manifest = serde_json::from_str(&text).map_err(|e| StoreError::Manifest {
                path: manifest_path.clone(),
                message: e.to_string(),
            })?;
            if let Some((field, was, now)) = first_difference(&old.identity, &manifest.identity) {
                return Err(StoreError::Mismatch {
                    dir: dir.to_path_buf(),
                    field,
                    was,
                    now,
                });
            }
            let mut sessions = old.sessions;
            sessions.append(&mut manifest.sessions);
            manifest.sessions = sessions;
        }
        // rundir: no finding is written through a link (`bugs/`, `bugs/<compiler>/`,
        // `bugs/<signature>/variants/`, ... down to a variant)
        for folder in [BUGS, SUSPECTS, KNOWN, INTENDED] {
            let top = dir.join(folder);
            if let Some(link) = crate::rundir::find_link(&top, 3).map_err(io(&top))? {
                return Err(io(&link)(crate::rundir::FileProblem::Symlink.into()));
            }
        }
        // leftovers of a bug directory that was being written when the run was killed
        for folder in [BUGS, SUSPECTS, KNOWN, INTENDED] {
            for e in fs::read_dir(dir.join(folder))
                .into_iter()
                .flatten()
                .flatten()
            {
                if e.file_name().to_string_lossy().starts_with(".tmp-") {
                    let _ = fs::remove_dir_all(e.path());
                }
            }
        }
        let results_path = dir.join(RESULTS);
        // rundir: an existing results file must be a regular file within the limit
        if results_path.exists() {
            crate::rundir::check_regular(&results_path, crate::rundir::MAX_RESULTS_BYTES)
                .map_err(io(&results_path))?;
        }
        let mut results = open_results(&results_path)?;
        let mut bytes = Vec::new();
        results.read_to_end(&mut bytes).map_err(io(&results_path))?;
        let scan = scan_results(&bytes);
        let mut done = HashSet::new();
        let mut counts: HashMap<String, u64> = HashMap::new();
        for (_, _, r) in &scan.lines {
            let own = r.finding.iter();
            let others = r.differential.iter().filter_map(|d| d.finding.as_ref());
            for f in own.chain(others) {
                *counts.entry(f.path()).or_default() += 1;
            }
            done.insert(r.key.clone());
        }
        let mut recovered_lines = scan.corrupt.len();
        if scan.cut.is_some() {
            recovered_lines += 1;
        }
        if !scan.corrupt.is_empty() {
            // keep the raw bytes first: a kill before the rename below leaves the lines in
            // both files, never in neither
            let qpath = dir.join(QUARANTINE);
            crate::rundir::refuse_link(&qpath).map_err(io(&qpath))?; // rundir: no writes through links
            let mut q = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&qpath)
                .map_err(io(&qpath))?;
            let mut raw = Vec::new();
            for c in &scan.corrupt {
                raw.extend_from_slice(&bytes[c.range.clone()]);
                raw.push(b'\n');
            }
            q.write_all(&raw)
                .and_then(|()| q.sync_all())
                .map_err(io(&qpath))?;
            let mut kept = Vec::with_capacity(bytes.len());
            for (_, range, _) in &scan.lines {
                kept.extend_from_slice(&bytes[range.clone()]);
                kept.push(b'\n');
            }
            // rundir: a temporary file beside it, synced, renamed over it
            crate::rundir::write_atomic_durable(&results_path, &kept).map_err(io(&results_path))?;
            if let Ok(d) = fs::File::open(dir) {
                let _ = d.sync_all();
            }
            results = open_results(&results_path)?;
        } else if scan.complete < bytes.len() {
            // everything after the last newline is a line cut short by a kill
            results
                .set_len(scan.complete as u64)
                .map_err(io(&results_path))?;
        }
        results.seek(SeekFrom::End(0)).map_err(io(&results_path))?;
        let mut store = Store {
            dir: dir.to_path_buf(),
            manifest,
            results,
            done,
            counts,
            session_start: Instant::now(),
            recovered_lines,
            known: super::known::KnownSet::embedded()?,
            intended: super::intended::IntendedSet::embedded()?,
            _lock: lock,
        };
        store.checkpoint()?;
        Ok(store)
    }

    /// Replaces the known findings findings are labelled with (by default the embedded
    /// list; `--known FILE` adds to it).
    pub fn set_known(&mut self, known: super::known::KnownSet) {
        self.known = known;
    }

    /// The known findings findings are labelled with.
    pub fn known(&self) -> &super::known::KnownSet {
        &self.known
    }

    /// Replaces the intended language changes differential findings are labelled with (by
    /// default the embedded list; `--intended FILE` adds to it).
    pub fn set_intended(&mut self, intended: super::intended::IntendedSet) {
        self.intended = intended;
    }

    /// The intended language changes differential findings are labelled with.
    pub fn intended(&self) -> &super::intended::IntendedSet {
        &self.intended
    }

    /// The known entry a finding of `kind` with signature `sig` by compiler `c` on `cand`
    /// matches, if any.
    fn known_entry(
        &self,
        c: &CompilerInfo,
        kind: FindingKind,
        sig: &Signature,
        cand: &Candidate,
        verdict: &Verdict,
    ) -> Option<KnownLabel> {
        let diagnostic = match verdict {
            Verdict::Rejected { diagnostics } => diagnostics.first().map(String::as_str),
            Verdict::Crash { output, .. } => Some(output.as_str()),
            _ => None,
        };
        self.known
            .find(&super::known::FindingFacts {
                compiler: c.tool.name(),
                version: &c.version,
                kind,
                signature: &sig.text,
                diagnostic,
                source: &cand.source,
                record: &cand.record,
            })
            .map(KnownLabel::of)
    }

    /// Starts this session's clock now (setting up the programs' source is not judging).
    pub fn start_clock(&mut self) {
        self.session_start = Instant::now();
        if let Some(s) = self.manifest.sessions.last_mut() {
            s.started = now();
        }
    }

    /// The run directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The manifest as last written.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// True when the program with this key has a verdict already.
    pub fn is_done(&self, key: &str) -> bool {
        self.done.contains(key)
    }

    /// Programs with a verdict.
    pub fn done_count(&self) -> usize {
        self.done.len()
    }

    /// Lines of `results.jsonl` that were cut short or unreadable when the store was opened.
    pub fn recovered_lines(&self) -> usize {
        self.recovered_lines
    }

    /// Findings recorded, and distinct signatures among them.
    pub fn findings(&self) -> (u64, usize) {
        (self.counts.values().sum(), self.counts.len())
    }

    /// Judges a program's verdict, stores a new finding's bug directory, and appends the
    /// program's results line.
    pub fn record(
        &mut self,
        cand: &Candidate,
        verdict: &Verdict,
        seconds: f64,
        twin: Option<&Verdict>,
        against: &[Verdict],
    ) -> Result<ResultLine, StoreError> {
        let mut differential = Vec::new();
        for (info, other) in self.manifest.against.clone().iter().zip(against) {
            differential.push(self.differential(cand, verdict, info, other)?);
        }
        let differential: Vec<DiffRef> = differential.into_iter().flatten().collect();
        // the compiler under test is the wrong side of an intended change
        let intended = differential
            .iter()
            .filter(|d| d.finding.is_none())
            .find_map(|d| d.intended.as_deref())
            .and_then(|id| self.intended.entries().find(|e| e.id == id))
            .map(IntendedLabel::of);
        let tool = self.manifest.compiler.tool;
        let format = tool.profile().diagnostics;
        let finding =
            match judge_with_reason(cand.expected, verdict, format, cand.record.call_lines) {
                Some(kind) => {
                    let sig = signature(tool, kind, verdict, &cand.record);
                    let status = twin_status(cand, kind, twin);
                    // a generator suspect stays one: the expectation, not the compiler, is
                    // in doubt
                    let compiler = self.manifest.compiler.clone();
                    let intended = intended.filter(|_| folder(status, kind) == BUGS);
                    let known = match folder(status, kind) {
                        BUGS if intended.is_none() => {
                            self.known_entry(&compiler, kind, &sig, cand, verdict)
                        }
                        _ => None,
                    };
                    let dest = if intended.is_some() {
                        INTENDED
                    } else if known.is_some() {
                        KNOWN
                    } else {
                        folder(status, kind)
                    };
                    let key = format!("{dest}/{}", sig.dir);
                    let bug = self.dir.join(&key);
                    let first = if self.counts.contains_key(&key) {
                        self.keep_variant(&bug, cand, verdict)?;
                        false
                    } else if bug.exists() {
                        // written just before a kill, for this program (judged again now)?
                        FindingFile::read(&bug).is_ok_and(|f| f.program.key == cand.key)
                    } else {
                        self.write_bug(
                            &bug,
                            &sig,
                            kind,
                            cand,
                            verdict,
                            twin,
                            &compiler,
                            &differential,
                            known.as_ref(),
                            intended.as_ref(),
                        )?;
                        true
                    };
                    *self.counts.entry(key).or_default() += 1;
                    Some(FindingRef {
                        kind,
                        signature: sig.dir,
                        first,
                        twin: status,
                        known: known.map(|k| k.id),
                        intended: intended.map(|i| i.id),
                        twin_reason: (status == TwinStatus::NotApplicable)
                            .then(|| cand.record.twin_not_applicable.clone())
                            .flatten(),
                    })
                }
                None => None,
            };
        let diagnostics = match verdict {
            Verdict::Rejected { diagnostics } => diagnostics
                .iter()
                .take(KEPT_DIAGNOSTICS)
                .map(|d| d.chars().take(KEPT_CHARS).collect())
                .collect(),
            Verdict::Crash { output, .. } => vec![output.chars().take(KEPT_CHARS).collect()],
            _ => Vec::new(),
        };
        let line = ResultLine {
            key: cand.key.clone(),
            id: cand.id.clone(),
            mode: cand.mode.clone(),
            round: cand.round,
            member: cand.record.member.clone(),
            file: cand.file.clone(),
            expected: cand.expected,
            verdict: verdict.label().into(),
            diagnostics,
            matches: finding.is_none(),
            differential,
            twin_verdict: twin.map(|t| t.label().to_string()),
            finding,
            seconds,
            at: now(),
        };
        let mut text = serde_json::to_string(&line).map_err(|e| StoreError::Manifest {
            path: self.dir.join(RESULTS),
            message: e.to_string(),
        })?;
        text.push('\n');
        let path = self.dir.join(RESULTS);
        // one write per line: a kill never interleaves two lines
        self.results
            .write_all(text.as_bytes())
            .and_then(|()| self.results.flush())
            .map_err(io(&path))?;
        self.done.insert(cand.key.clone());
        if let Some(s) = self.manifest.sessions.last_mut() {
            s.programs += 1;
        }
        Ok(line)
    }

    /// Records this session's programs that could not be translated, by reason, and writes
    /// the manifest.
    pub fn note_untranslatable(
        &mut self,
        reasons: &std::collections::BTreeMap<String, u64>,
    ) -> Result<(), StoreError> {
        if let Some(s) = self.manifest.sessions.last_mut() {
            s.untranslatable = reasons.clone();
        }
        self.checkpoint()
    }

    /// Rewrites the manifest (atomically) with this session's time so far.
    pub fn checkpoint(&mut self) -> Result<(), StoreError> {
        if let Some(s) = self.manifest.sessions.last_mut() {
            s.seconds = self.session_start.elapsed().as_secs_f64();
        }
        let path = self.dir.join(MANIFEST);
        let text =
            serde_json::to_string_pretty(&self.manifest).map_err(|e| StoreError::Manifest {
                path: path.clone(),
                message: e.to_string(),
            })? + "\n";
        // rundir: a temporary file beside it, renamed over it (never through a link)
        crate::rundir::write_atomic(&path, text.as_bytes()).map_err(io(&path))?;
        let _ = self.results.sync_data();
        Ok(())
    }

    /// Keeps `cand` as an example of the finding in `bug` when what varies between the
    /// programs of a signature (the full diagnostics without locations, or an acceptance's
    /// member and broken types) differs from the examples kept, up to [`KEPT_VARIANTS`]:
    /// one signature may still hold several causes, and its first program shows only one.
    fn keep_variant(
        &self,
        bug: &Path,
        cand: &Candidate,
        verdict: &Verdict,
    ) -> Result<(), StoreError> {
        let variant = match verdict {
            Verdict::Rejected { diagnostics } => diagnostics
                .iter()
                .map(|d| strip_location(d, &cand.file))
                .collect::<Vec<_>>()
                .join("\n"),
            Verdict::Accepted => match &cand.record.broken {
                Some(b) => format!(
                    "{} {}: {} given for {}",
                    cand.record.member, b.position, b.actual, b.formal
                ),
                None => cand.record.member.clone(),
            },
            Verdict::Crash { output, .. } => strip_location(output, &cand.file),
            Verdict::Timeout => cand.record.member.clone(),
        };
        let dir = bug.join(VARIANTS);
        let this = dir.join(format!("{:016x}", crate::hash::fnv1a64(variant.as_bytes())));
        if this.exists() || !bug.exists() {
            return Ok(());
        }
        if kept_variants(&dir) >= KEPT_VARIANTS {
            return Ok(());
        }
        let tmp = fresh_tmp(&dir, "variant")?;
        let write = |name: &str, text: &str| write_in(&tmp, name, text);
        write(&cand.file, &cand.source)?;
        write("variant.txt", &format!("{}\n{variant}\n", cand.key))?;
        publish(&tmp, &this)
    }

    /// The differential finding of `cand` against the compiler `info`, which gave `other`;
    /// when that compiler is the wrong one, its finding's directory is written.
    fn differential(
        &mut self,
        cand: &Candidate,
        verdict: &Verdict,
        info: &CompilerInfo,
        other: &Verdict,
    ) -> Result<Option<DiffRef>, StoreError> {
        let primary = self.manifest.compiler.clone();
        // a variant of a release is not older or newer than the release
        let newer = (primary.tool == info.tool && info.variant.is_none()).then(|| {
            thalia_extractors::maven::version::compare_versions(&primary.version, &info.version)
                == std::cmp::Ordering::Greater
        });
        let Some((kind, other_wrong)) = judge_differential(cand.expected, verdict, other, newer)
        else {
            return Ok(None);
        };
        let label = info.label();
        // the side that got the program wrong, and whether that is an intended change
        let (wrong, wrong_verdict) = if other_wrong {
            (info, other)
        } else {
            (&primary, verdict)
        };
        let intended = judge(cand.expected, wrong_verdict).and_then(|fk| {
            let sig = signature(wrong.tool, fk, wrong_verdict, &cand.record);
            self.intended_entry(&primary, info, fk, &sig, cand, wrong_verdict)
        });
        let finding = match judge(cand.expected, other).filter(|_| other_wrong) {
            Some(fk) => {
                let sig = signature(info.tool, fk, other, &cand.record);
                let known = match intended {
                    Some(_) => None,
                    None => self.known_entry(info, fk, &sig, cand, other),
                };
                let dest = if intended.is_some() {
                    INTENDED
                } else if known.is_some() {
                    KNOWN
                } else {
                    BUGS
                };
                let key = format!("{dest}/{label}/{}", sig.dir);
                let bug = self.dir.join(&key);
                let first = !self.counts.contains_key(&key) && !bug.exists();
                if first {
                    // the program as the variant compiled it
                    let seen = match info.variant() {
                        Some(v) => Candidate {
                            source: v.apply(&cand.source),
                            ..cand.clone()
                        },
                        None => cand.clone(),
                    };
                    self.write_bug(
                        &bug,
                        &sig,
                        fk,
                        &seen,
                        other,
                        None,
                        info,
                        &[],
                        known.as_ref(),
                        intended.as_ref(),
                    )?;
                }
                *self.counts.entry(key).or_default() += 1;
                Some(FindingRef {
                    kind: fk,
                    signature: format!("{label}/{}", sig.dir),
                    first,
                    twin: TwinStatus::NoTwin,
                    known: known.map(|k| k.id),
                    intended: intended.as_ref().map(|i| i.id.clone()),
                    twin_reason: None,
                })
            }
            None => None,
        };
        Ok(Some(DiffRef {
            against: label,
            verdict: other.label().into(),
            kind,
            finding,
            intended: intended.map(|i| i.id),
        }))
    }

    /// The intended change a disagreement between the compiler under test (`primary`) and
    /// `other` on `cand` is, given the wrong side's finding (`kind`, `sig`, `verdict`).
    fn intended_entry(
        &self,
        primary: &CompilerInfo,
        other: &CompilerInfo,
        kind: FindingKind,
        sig: &Signature,
        cand: &Candidate,
        verdict: &Verdict,
    ) -> Option<IntendedLabel> {
        if primary.tool != other.tool {
            return None;
        }
        let diagnostic = match verdict {
            Verdict::Rejected { diagnostics } => diagnostics.first().map(String::as_str),
            Verdict::Crash { output, .. } => Some(output.as_str()),
            _ => None,
        };
        fn side(c: &CompilerInfo) -> super::intended::Side<'_> {
            super::intended::Side {
                version: &c.version,
                variant: c.variant.as_deref(),
            }
        }
        self.intended
            .find(&super::intended::DisagreementFacts {
                compiler: primary.tool.name(),
                primary: side(primary),
                other: side(other),
                kind,
                signature: &sig.text,
                member: &cand.record.member,
                diagnostic,
            })
            .map(IntendedLabel::of)
    }

    #[allow(clippy::too_many_arguments)]
    fn write_bug(
        &self,
        bug: &Path,
        sig: &Signature,
        kind: FindingKind,
        cand: &Candidate,
        verdict: &Verdict,
        twin: Option<&Verdict>,
        c: &CompilerInfo,
        differential: &[DiffRef],
        known: Option<&KnownLabel>,
        intended: Option<&IntendedLabel>,
    ) -> Result<(), StoreError> {
        let parent = bug.parent().unwrap_or(&self.dir);
        fs::create_dir_all(parent).map_err(io(parent))?;
        let tmp = fresh_tmp(parent, &sig.dir)?;
        let write = |name: &str, text: &str| write_in(&tmp, name, text);
        write(&cand.file, &cand.source)?;
        if let Some(t) = &cand.twin {
            write(&t.file, &t.source)?;
        }
        let output = match verdict {
            Verdict::Accepted => "(accepted without diagnostics)\n".to_string(),
            Verdict::Rejected { diagnostics } => diagnostics.join("\n") + "\n",
            Verdict::Crash { output, .. } => output.clone(),
            Verdict::Timeout => format!(
                "(no verdict within the per-file budget of {} s)\n",
                c.timeout_seconds
            ),
        };
        write("compiler-output.txt", &output)?;
        let mut report =
            super::bugreport::report_md(c, kind, &sig.text, cand, &output, twin, differential);
        if let Some(k) = known {
            report.push_str(&known_note(k));
        }
        if let Some(i) = intended {
            report.push_str(&intended_note(i));
        }
        write("report.md", &report)?;
        let finding = FindingFile {
            signature: sig.dir.clone(),
            signature_text: sig.text.clone(),
            kind,
            compiler: FindingCompiler {
                tool: c.tool,
                version: c.version.clone(),
                mode: c.mode.clone(),
            },
            program: FindingProgram {
                key: cand.key.clone(),
                id: cand.id.clone(),
                mode: cand.mode.clone(),
                round: cand.round,
                file: cand.file.clone(),
                regenerate: cand.regenerate.clone(),
                record: cand.record.clone(),
            },
            expected: cand.expected,
            actual: verdict.label().into(),
            exit: match verdict {
                Verdict::Crash { exit, .. } => *exit,
                _ => None,
            },
            twin: cand.twin.as_ref().map(|t| FindingTwin {
                file: t.file.clone(),
                compiler: "javac".into(),
                verdict: twin.map(|v| v.label().to_string()),
                status: match twin_status(cand, kind, twin) {
                    TwinStatus::NoTwin => None,
                    s => Some(s),
                },
                not_applicable: cand
                    .record
                    .twin_not_applicable
                    .clone()
                    .filter(|_| super::twin_applies(kind)),
            }),
            known: known.cloned(),
            intended: intended.cloned(),
            cluster: None,
        };
        if let Some(p) = &cand.program {
            let ir =
                serde_json::to_string_pretty(p.as_ref()).map_err(|e| StoreError::Manifest {
                    path: tmp.join(PROGRAM_IR),
                    message: e.to_string(),
                })?;
            write(PROGRAM_IR, &(ir + "\n"))?;
        }
        write(
            "finding.json",
            &(serde_json::to_string_pretty(&finding).map_err(|e| StoreError::Manifest {
                path: tmp.join("finding.json"),
                message: e.to_string(),
            })? + "\n"),
        )?;
        let repro = tmp.join("repro.sh");
        fs::write(&repro, repro_script(c, kind, cand, verdict, &sig.text)).map_err(io(&repro))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&repro, fs::Permissions::from_mode(0o755)).map_err(io(&repro))?;
        }
        publish(&tmp, bug)
    }
}

/// The paragraph `report.md` of a known bug's finding ends with.
pub fn known_note(k: &KnownLabel) -> String {
    format!(
        "\n## Known bug\n\nThis is {} in thalia's known findings (`known-findings/`): {}{}. It is counted apart and not reported as new.\n",
        k.id,
        k.title,
        k.tracker
            .as_ref()
            .map(|t| format!(" (tracker: {t})"))
            .unwrap_or_default()
    )
}

/// The paragraph `report.md` of an intended change's finding ends with.
pub fn intended_note(i: &IntendedLabel) -> String {
    format!(
        "\n## Intended language change\n\nThis disagreement is {} in thalia's intended changes (`known-findings/intended-changes.toml`): {}{}. It is counted apart and not reported as a bug.\n",
        i.id,
        i.reason.trim(),
        i.link
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default()
    )
}

/// What the Java twin says of a finding of `kind` on `cand` whose twin got `twin` from javac:
/// not applicable when the program's language model says the twin cannot judge it (whatever
/// javac said), the twin's verdict otherwise, no twin without one.
pub fn twin_status(cand: &Candidate, kind: FindingKind, twin: Option<&Verdict>) -> TwinStatus {
    if !twin_applies(kind) {
        return TwinStatus::NoTwin;
    }
    if cand.record.twin_not_applicable.is_some() {
        return TwinStatus::NotApplicable;
    }
    match twin {
        Some(t) => TwinStatus::of(cand.expected, t),
        None => TwinStatus::NoTwin,
    }
}

/// Renames the finished directory `tmp` into place as `dest`; when another worker stored
/// `dest` first, `tmp` is removed and that one is kept.
fn publish(tmp: &Path, dest: &Path) -> Result<(), StoreError> {
    match fs::rename(tmp, dest) {
        Ok(()) => Ok(()),
        Err(_) if dest.exists() => {
            let _ = fs::remove_dir_all(tmp);
            Ok(())
        }
        Err(e) => Err(StoreError::Io {
            path: dest.to_path_buf(),
            source: e,
        }),
    }
}

/// A new, empty temporary directory `parent/.tmp-<stem>-<pid>` (removed on resume if a kill
/// leaves it), and a writer of files into it.
fn fresh_tmp(parent: &Path, stem: &str) -> Result<PathBuf, StoreError> {
    let tmp = parent.join(format!(".tmp-{stem}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(io(&tmp))?;
    Ok(tmp)
}

/// Writes `text` into `dir/name`.
fn write_in(dir: &Path, name: &str, text: &str) -> Result<(), StoreError> {
    let p = dir.join(name);
    fs::write(&p, text).map_err(io(&p))
}

/// Opens `results.jsonl` for reading and appending (created if missing).
fn open_results(path: &Path) -> Result<fs::File, StoreError> {
    crate::rundir::refuse_link(path).map_err(io(path))?; // rundir: no writes through links
    fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(io(path))
}

/// A line of `results.jsonl` that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptLine {
    /// 1-based line number.
    pub line: usize,
    /// Its bytes in the file (without the newline).
    pub range: std::ops::Range<usize>,
    /// Why it cannot be used.
    pub reason: String,
}

/// `results.jsonl` read line by line.
#[derive(Clone, Debug, Default)]
pub struct ResultsScan {
    /// The well-formed lines: 1-based line number, bytes (without the newline), parsed line.
    pub lines: Vec<(usize, std::ops::Range<usize>, ResultLine)>,
    /// Complete lines that are not valid UTF-8, not JSON, or not a well-formed results line.
    pub corrupt: Vec<CorruptLine>,
    /// A last line without its newline (cut short by a kill), if any.
    pub cut: Option<CorruptLine>,
    /// Length of the complete lines (up to and including the last newline).
    pub complete: usize,
}

impl ResultsScan {
    /// One warning per unusable line, naming `file` and the line number.
    pub fn warnings(&self, file: &Path) -> Vec<String> {
        self.corrupt
            .iter()
            .chain(&self.cut)
            .map(|c| format!("{}:{}: {}; line skipped", file.display(), c.line, c.reason))
            .collect()
    }
}

/// The most `/`-separated names a finding's signature has (`<compiler>/<signature>` for
/// another compiler's differential finding).
pub const MAX_SIGNATURE_COMPONENTS: usize = 2;

/// Checks one line of `results.jsonl`.
pub fn parse_result_line(bytes: &[u8]) -> Result<ResultLine, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("not valid UTF-8 (at byte {})", e.valid_up_to()))?;
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let r: ResultLine =
        serde_json::from_value(value).map_err(|e| format!("not a results line: {e}"))?;
    if r.key.is_empty() {
        return Err("not a results line: empty `key`".into());
    }
    if !VERDICTS.contains(&r.verdict.as_str()) {
        return Err(format!(
            "not a results line: unknown verdict `{}`",
            r.verdict
        ));
    }
    if r.matches != r.finding.is_none() {
        return Err("not a results line: `matches` contradicts `finding`".into());
    }
    if !r.seconds.is_finite() || !r.at.is_finite() {
        return Err("not a results line: a time is not a finite number".into());
    }
    // rundir: a signature names a directory under the run's
    let others = r.differential.iter().filter_map(|d| d.finding.as_ref());
    for f in r.finding.iter().chain(others) {
        crate::rundir::check_relative(&f.signature, MAX_SIGNATURE_COMPONENTS).map_err(|p| {
            format!(
                "not a results line: `finding.signature` {:?} is not a plain file name: {p}",
                f.signature.chars().take(120).collect::<String>()
            )
        })?;
    }
    Ok(r)
}

/// Splits the bytes of `results.jsonl` into well-formed, corrupt and cut-short lines; blank
/// lines are ignored.
pub fn scan_results(bytes: &[u8]) -> ResultsScan {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut scan = ResultsScan {
        complete,
        ..ResultsScan::default()
    };
    let mut start = 0;
    let mut line = 0;
    while start < bytes.len() {
        line += 1;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| start + i);
        let range = start..end;
        start = end + 1;
        let raw = &bytes[range.clone()];
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if range.end >= complete {
            scan.cut = Some(CorruptLine {
                line,
                range,
                reason: "cut short (no newline at the end of the file)".into(),
            });
            break;
        }
        match parse_result_line(raw) {
            Ok(r) => scan.lines.push((line, range, r)),
            Err(reason) => scan.corrupt.push(CorruptLine {
                line,
                range,
                reason,
            }),
        }
    }
    scan
}

/// The first top-level field in which two identities differ.
pub(crate) fn first_difference(
    old: &RunIdentity,
    new: &RunIdentity,
) -> Option<(String, String, String)> {
    if old == new {
        return None;
    }
    // identities are plain data: serializing them cannot fail
    let old = serde_json::to_value(old).unwrap_or_default();
    let new = serde_json::to_value(new).unwrap_or_default();
    let show = |v: Option<&Value>| v.map_or("nothing".to_string(), Value::to_string);
    if let (Some(a), Some(b)) = (old.as_object(), new.as_object()) {
        for k in a.keys().chain(b.keys()) {
            if a.get(k) != b.get(k) {
                return Some((k.clone(), show(a.get(k)), show(b.get(k))));
            }
        }
    }
    Some(("identity".into(), old.to_string(), new.to_string()))
}

/// Quotes a word for a POSIX shell.
fn sh_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+-,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A line of the crash output that a reproduction must print again: the exception's class.
fn crash_needle(output: &str) -> Option<String> {
    output.lines().find_map(|l| {
        l.split(|c: char| c.is_whitespace() || c == ':')
            .find(|w| {
                let last = w.rsplit('.').next().unwrap_or(w);
                w.contains('.') && (last.ends_with("Exception") || last.ends_with("Error"))
            })
            .map(str::to_string)
    })
}

/// A shell script that compiles the program with the installed toolchain in a fresh process
/// and exits 0 when the finding reproduces, 1 when it does not.
fn repro_script(
    c: &CompilerInfo,
    kind: FindingKind,
    cand: &Candidate,
    verdict: &Verdict,
    signature: &str,
) -> String {
    let words: Vec<String> = c
        .command
        .iter()
        .map(|a| {
            let a = a.replace("@FILE@", &cand.file);
            a.split("@OUT@")
                .map(|part| {
                    if part.is_empty() {
                        String::new()
                    } else {
                        sh_quote(part)
                    }
                })
                .collect::<Vec<_>>()
                .join("\"$out\"")
        })
        .collect();
    let budget = c.timeout_seconds.ceil().max(1.0) as u64;
    let timeout = if kind == FindingKind::Performance {
        format!("timeout {budget} ")
    } else {
        String::new()
    };
    let (check, expect) = match kind {
        FindingKind::UnexpectedRejection => (
            "[ \"$code\" -ne 0 ]".to_string(),
            "the compiler rejects the program",
        ),
        FindingKind::RejectedElsewhere => (
            "[ \"$code\" -ne 0 ]".to_string(),
            "the compiler rejects the program, away from the call under test",
        ),
        FindingKind::UnexpectedAcceptance => (
            "[ \"$code\" -eq 0 ]".to_string(),
            "the compiler accepts the program",
        ),
        FindingKind::Crash => {
            let needle = match verdict {
                Verdict::Crash { output, .. } => crash_needle(output),
                _ => None,
            };
            match needle {
                Some(n) => (
                    format!(
                        "[ \"$code\" -ne 0 ] && grep -qF -- {} \"$out/output.txt\"",
                        sh_quote(&n)
                    ),
                    "the compiler fails with the same exception",
                ),
                None => (
                    "[ \"$code\" -ne 0 ] && [ \"$code\" -ne 1 ]".to_string(),
                    "the compiler ends abnormally",
                ),
            }
        }
        FindingKind::Performance => (
            "[ \"$code\" -eq 124 ]".to_string(),
            "the compiler does not finish within the budget",
        ),
    };
    format!(
        "#!/bin/sh\n\
         # Reproduces a thalia finding with {tool} {version}: {signature}\n\
         # Program {key} ({member}): expected {expected}, thalia saw {actual}.\n\
         # Exit status 0: the finding reproduces ({expect}); 1: it does not.\n\
         cd \"$(dirname \"$0\")\" || exit 2\n\
         out=$(mktemp -d) || exit 2\n\
         trap 'rm -rf \"$out\"' EXIT\n\
         {timeout}{cmd} >\"$out/output.txt\" 2>&1\n\
         code=$?\n\
         cat \"$out/output.txt\"\n\
         echo \"exit code: $code\"\n\
         if {check}; then\n  echo 'REPRODUCED: {kind}'\n  exit 0\nfi\n\
         echo 'NOT REPRODUCED: {kind}'\n\
         exit 1\n",
        tool = c.tool.name(),
        version = c.version,
        key = cand.key,
        member = cand.record.member.replace('\n', " "),
        expected = cand.expected.as_str(),
        actual = verdict.label(),
        cmd = words.join(" "),
        kind = kind.as_str(),
    )
}

/// The run directory above a finding's directory `bug` (the nearest with a manifest) and its
/// manifest, or what is wrong with them.
pub fn finding_run(bug: &Path) -> Result<(PathBuf, Manifest), String> {
    let run = bug
        .ancestors()
        .skip(1)
        .find(|d| d.join(MANIFEST).is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("{}: no run directory above it", bug.display()))?;
    let path = run.join(MANIFEST);
    let text = crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_JSON_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((run, manifest))
}

/// The variants kept in a finding's `variants/` directory (hidden temporary entries not
/// counted).
pub(crate) fn kept_variants(dir: &Path) -> usize {
    fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .count()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting_keeps_plain_words_and_quotes_the_rest() {
        assert_eq!(sh_quote("-d"), "-d");
        assert_eq!(sh_quote("/a/b.jar:/c.jar"), "/a/b.jar:/c.jar");
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("it's"), "'it'\\''s'");
        assert_eq!(sh_quote(""), "''");
    }

    #[test]
    fn identities_differ_at_the_first_changed_field() {
        let run = |seed: u64| {
            RunIdentity::Run(Box::new(super::super::setup::SynthIdentity {
                seed,
                language: thalia_translators::Language::Kotlin,
                api: "@java.base".into(),
                modes: vec![crate::synth::Mode::WellTyped],
                erase: false,
                groovy_type_checked: false,
                synth_config: super::super::setup::recorded_synth_config(
                    thalia_translators::Language::Kotlin,
                    &crate::synth::SynthConfig::default(),
                ),
                compiler: "kotlin@2.4.21".into(),
                against: Vec::new(),
                shard: None,
            }))
        };
        let (a, b) = (run(1), run(2));
        assert_eq!(first_difference(&a, &a), None);
        assert_eq!(
            first_difference(&a, &b),
            Some(("seed".into(), "1".into(), "2".into()))
        );
    }
}
