//! The files of a run directory: their names and formats (`manifest.json`, `results.jsonl`,
//! a finding's `finding.json`), shared by the store that writes them and the commands that
//! read them (`report`, `merge`, `reduce`, `bisect`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::finding::{DiffKind, FindingKind, TwinStatus};
use super::identity::{RunIdentity, SessionOptions};
use super::shard::Shard;
use crate::synth::Expected;
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
/// Programs kept per signature beyond its first whose diagnostics (or broken types) differ,
/// in `bugs/<signature>/variants/<hash>/`.
pub const KEPT_VARIANTS: usize = 3;
/// The folder of a signature's variant programs.
pub const VARIANTS: &str = "variants";

/// The file of a run directory that holds the census of the programs `thalia run` wrote.
pub const CENSUS_FILE: &str = "census.json";

/// The file of a run directory that holds the effective synthesis config of `thalia run`.
pub const SYNTH_CONFIG_FILE: &str = "synth-config.json";

/// The folder of a finding's reduced program.
pub const REDUCED: &str = "reduced";

/// The marker of a finding whose reduction failed (its text is the error).
pub const REDUCE_FAILED: &str = "reduce-failed.txt";

/// What a reduction that could not reproduce its finding says (in [`REDUCE_FAILED`]).
pub const NOT_REPRODUCED_WORDS: &str = "does not give the program the signature";

/// The directory of a run that holds its workers' compile directories (`w0`, `w1`, ...).
pub const WORK_DIR: &str = "work";

/// The prefix of the temporary directory in a run where the recheck compiles other releases.
pub const RECHECK_DIR_PREFIX: &str = ".recheck-";

/// The prefix of the temporary directory in a run where the final reports' programs compile.
pub const FINALIZE_DIR_PREFIX: &str = ".finalize-";

/// The prefix of the temporary directory in a run where known entries' programs compile.
pub const EVIDENCE_DIR_PREFIX: &str = ".evidence-";

/// The temporary directories a run holds: a path into one is local, never part of a report.
pub const RUN_TEMP_PREFIXES: [&str; 3] =
    [RECHECK_DIR_PREFIX, FINALIZE_DIR_PREFIX, EVIDENCE_DIR_PREFIX];

/// One part of a merged run, as its manifest records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedPart {
    /// The part's run directory, as given to `thalia merge`.
    pub dir: String,
    /// Its shard (none: the whole campaign).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Programs it judged.
    pub programs: u64,
}

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

    /// The compiler's own arguments in [`CompilerInfo::command`]: what follows the launcher
    /// (the JVM, its options, the compiler's classpath and main class; or the JDK
    /// executable), the launch prefix included.
    pub fn own_arguments(&self) -> &[String] {
        let profile = self.tool.profile();
        let start = match profile.launch {
            crate::profile::Launch::Jvm { .. } => self
                .command
                .iter()
                .position(|a| a == profile.main_class)
                .map_or(1, |i| i + 1),
            crate::profile::Launch::JdkExecutable => 1,
        };
        self.command.get(start..).unwrap_or_default()
    }

    /// Whether `arg` is a flag that names the programs' classpath for this compiler.
    pub fn is_classpath_flag(&self, arg: &str) -> bool {
        arg == self.tool.profile().flags.classpath || crate::profile::CLASSPATH_FLAGS.contains(&arg)
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
    pub merged: Vec<MergedPart>,
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
    /// Whether the newest releases of the compiler still show it (set by the recheck at the
    /// end of a campaign, or `thalia report --recheck`; see [`super::recheck`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ReleaseStatus>,
    /// A known label the evidence took back: the entry's program and this finding's behave
    /// differently on a release the recheck compiled both with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_disproved: Option<DisprovedLabel>,
    /// What running the program and its Java twin ended in (`--run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<crate::run::RunRecord>,
}

/// A known label taken back, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisprovedLabel {
    /// The known entry's id.
    pub id: String,
    /// The release on which the entry's program and the finding's behave differently, in
    /// words.
    pub reason: String,
}

/// Where a finding stands on a compiler's newest releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StatusState {
    /// The newest release still shows it: worth filing.
    Open,
    /// It could not be checked (offline, a compiler that comes with the JDK, ...).
    Unchecked,
    /// The newest release no longer shows it.
    Fixed,
}

impl StatusState {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            StatusState::Open => "open",
            StatusState::Unchecked => "unchecked",
            StatusState::Fixed => "fixed",
        }
    }
}

/// One release a finding's program was compiled with by the recheck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseCheck {
    /// The release.
    pub version: String,
    /// Whether it is a pre-release (alpha, beta, release candidate, milestone, nightly).
    #[serde(default)]
    pub pre_release: bool,
    /// Its verdict, when it could be compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Whether it still gets the program wrong the finding's way (same kind); `None`:
    /// untestable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shows: Option<bool>,
    /// Whether it does so with the finding's signature (a changed message still shows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_signature: Option<bool>,
    /// Its first diagnostic, shortened, with local paths taken out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostic: Option<String>,
    /// Why it could not be tested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `finding.json`'s `status`: the finding's program compiled with the newest release and the
/// newest pre-release of its compiler, and when the newest release no longer shows it, the
/// first release that does not (a binary search between the finding's release and it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReleaseStatus {
    /// Open, fixed, or not checked.
    pub state: StatusState,
    /// The program compiled: `reduced` (the finding's `reduced/` program) or `original`.
    pub program: String,
    /// The newest release, when the repositories could be asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newest: Option<String>,
    /// The newest pre-release, when newer than the newest release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub newest_pre_release: Option<String>,
    /// The releases checked that still show the finding (the finding's own included).
    #[serde(default)]
    pub open_on: Vec<String>,
    /// The first release after the finding's own that no longer shows it (state `fixed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<String>,
    /// The last release before `fixed_in` that still shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_affected: Option<String>,
    /// Every release compiled, oldest first.
    #[serde(default)]
    pub checks: Vec<ReleaseCheck>,
    /// Why it could not be checked, or what answered instead of the repositories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// When it was checked (seconds since the Unix epoch).
    #[serde(default)]
    pub checked_at: f64,
}

impl ReleaseStatus {
    /// The status in words, for `compiler` (`groovy`): `open on 6.0.0`, `fixed in 5.0.0
    /// (last affected: 4.0.33)`, `not checked: ...`.
    pub fn words(&self, compiler: &str) -> String {
        match self.state {
            StatusState::Open => {
                let mut s = format!(
                    "open: {compiler} {} still shows it",
                    self.newest
                        .clone()
                        .or_else(|| self.open_on.last().cloned())
                        .unwrap_or_default()
                );
                if let Some(pre) = &self.newest_pre_release {
                    let shows = self
                        .checks
                        .iter()
                        .find(|c| &c.version == pre)
                        .and_then(|c| c.shows);
                    match shows {
                        Some(true) => s.push_str(&format!(", and so does {pre}")),
                        Some(false) => s.push_str(&format!(", {pre} no longer does")),
                        None => s.push_str(&format!(", {pre} could not be tested")),
                    }
                }
                s
            }
            StatusState::Fixed => match (&self.fixed_in, &self.last_affected) {
                (Some(f), Some(l)) => {
                    format!("fixed since {compiler} {f} (last affected: {l})")
                }
                (Some(f), None) => format!("fixed since {compiler} {f}"),
                _ => format!(
                    "fixed: {compiler} {} no longer shows it",
                    self.newest.clone().unwrap_or_default()
                ),
            },
            StatusState::Unchecked => format!(
                "not checked on the newest release: {}",
                self.note.clone().unwrap_or_default()
            ),
        }
    }

    /// `open`, `fixed since V` or `unchecked`, short.
    pub fn short(&self) -> String {
        match (self.state, &self.fixed_in) {
            (StatusState::Fixed, Some(v)) => format!("fixed since {v}"),
            (s, _) => s.as_str().to_string(),
        }
    }
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
    /// What shows that the finding is this entry: the entry's own program compiled with the
    /// finding's release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
}

impl KnownLabel {
    /// The label of a known entry.
    pub fn of(e: &super::known::KnownEntry) -> KnownLabel {
        KnownLabel {
            id: e.id.clone(),
            title: e.title.clone(),
            tracker: e.tracker.clone(),
            evidence: None,
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
    /// javac's diagnostics on the twin (the first few, shortened), when it rejected it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
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

    /// Writes `dir/finding.json` through a temporary file and a rename (a kill leaves the old
    /// or the new file).
    pub fn write(&self, dir: &Path) -> Result<(), StoreError> {
        let path = dir.join("finding.json");
        let text = serde_json::to_string_pretty(self).map_err(|e| StoreError::Manifest {
            path: path.clone(),
            message: e.to_string(),
        })? + "\n";
        write_atomic(&path, &text)
    }
}

/// Writes `text` into `path` through a temporary file beside it and a rename (never through a
/// symbolic link: [`crate::rundir::write_atomic`]).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), StoreError> {
    crate::rundir::write_atomic(path, text.as_bytes()).map_err(io(path))
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
/// twin, or rejected away from the call under test) apart from the bugs. A program rejected
/// away from its call whose Java twin javac judges the other way (accepts it, or rejects it
/// at the call only) is a bug: the compiler rejects a statement javac accepts.
pub fn folder(twin: TwinStatus, kind: FindingKind) -> &'static str {
    match (twin, kind) {
        (TwinStatus::Confirmed, FindingKind::RejectedElsewhere) => BUGS,
        (TwinStatus::GeneratorSuspect | TwinStatus::Unconfirmed, _)
        | (_, FindingKind::RejectedElsewhere) => SUSPECTS,
        _ => BUGS,
    }
}

/// The folders a finding's directory may be in.
pub const FOLDERS: [&str; 4] = [BUGS, KNOWN, SUSPECTS, INTENDED];

/// Where the directory of the finding `f` (recorded on a results line) is now, relative to
/// `run`: where the line says, unless the recheck moved it to another folder since (a known
/// label the evidence took back); where the line says when it is nowhere.
pub fn locate(run: &Path, f: &FindingRef) -> String {
    let recorded = f.path();
    if run.join(&recorded).join("finding.json").is_file() {
        return recorded;
    }
    FOLDERS
        .iter()
        .map(|folder| format!("{folder}/{}", f.signature))
        .find(|p| run.join(p).join("finding.json").is_file())
        .unwrap_or(recorded)
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
    /// What running the program (and its Java twin) ended in (`--run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<crate::run::RunRecord>,
    /// The compiler flags it was compiled with ([`super::flags`]); empty: the defaults.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
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

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}
