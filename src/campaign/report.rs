//! `thalia report RUN`: a run directory summarized — programs, verdicts, expectation rates,
//! findings by kind and signature, and throughput.
//!
//! Files are read with the limits of [`crate::rundir`] (regular files only, never blocking
//! on a FIFO); a results line whose signature is not a plain name is skipped with a warning
//! ([`super::store::parse_result_line`]), so no finding directory outside the run is read.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::finding::{FindingKind, TwinStatus};
use super::records::{locate, FindingFile, StatusState};
use super::store::{scan_results, Manifest, ResultLine, StoreError, MANIFEST, RESULTS};
use crate::rundir;
use crate::synth::Expected;

/// Programs and finding programs compiled with one flag set ([`super::flags`]).
#[derive(Clone, Debug, Default, Serialize)]
pub struct FlagSetCounts {
    /// Programs judged with it.
    pub programs: u64,
    /// Their share of all programs judged.
    pub share: f64,
    /// Finding programs among them.
    pub findings: u64,
}

/// The largest family of findings: the finding programs of one cluster (or of one
/// signature not reduced yet).
#[derive(Clone, Debug, Default, Serialize)]
pub struct LargestFamily {
    /// Its cluster id, or its signature's directory.
    pub family: String,
    /// Its finding programs.
    pub programs: u64,
    /// Their share of all finding programs ([`super::feedback`] keeps it down).
    pub share: f64,
}

/// Verdict counts of one mode.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ModeCounts {
    /// Programs judged.
    pub programs: u64,
    /// Accepted.
    pub accepted: u64,
    /// Rejected.
    pub rejected: u64,
    /// Crashed the compiler.
    pub crash: u64,
    /// Exceeded the per-file time budget.
    pub timeout: u64,
    /// Programs whose verdict is the expected one.
    pub as_expected: u64,
}

/// Findings of one kind.
#[derive(Clone, Debug, Serialize)]
pub struct KindCounts {
    /// The kind.
    pub kind: FindingKind,
    /// Programs with such a finding.
    pub occurrences: u64,
    /// Distinct signatures among them.
    pub distinct: u64,
}

/// One distinct finding.
#[derive(Clone, Debug, Serialize)]
pub struct SignatureCount {
    /// Its directory (`bugs/<signature>` or `suspects/<signature>`).
    pub signature: String,
    /// Its kind.
    pub kind: FindingKind,
    /// Programs that hit it.
    pub count: u64,
    /// The readable signature (from its `finding.json`).
    pub text: String,
    /// The first program that hit it.
    pub first_program: String,
    /// The known bug (`known-findings/`) it is a finding of, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
    /// The intended language change (`intended-changes.toml`) it is, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intended: Option<String>,
    /// Its cluster (findings whose reduced programs are the same up to renaming), once
    /// reduced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// The folder its directory is in (`bugs`, `known`, `suspects`, `intended`).
    pub folder: String,
    /// Whether the newest release still shows it (once rechecked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<StatusState>,
    /// Its status in words: `open`, `fixed since V`, `unchecked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// What its Java twin says (`confirmed`, `generator-suspect`, ...).
    pub twin: TwinStatus,
}

/// Findings whose reduced programs are the same up to renaming: one cause.
#[derive(Clone, Debug, Serialize)]
pub struct Cluster {
    /// The cluster id (`c-` and 16 hex digits).
    pub id: String,
    /// Its findings' directories (`bugs/<signature>`), most frequent first.
    pub findings: Vec<String>,
    /// Programs that hit its findings.
    pub programs: u64,
}

/// The distinct findings of one folder and their programs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FolderCount {
    /// Distinct findings (directories).
    pub distinct: u64,
    /// Programs that hit them.
    pub programs: u64,
}

/// Findings (occurrences) by what they are: the summary line of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Standing {
    /// New findings (in `bugs/`) their Java twin confirmed.
    pub confirmed_new: u64,
    /// New findings (in `bugs/`) without a twin's verdict (Java programs, crashes, timeouts,
    /// runs without twins).
    pub new_without_twin: u64,
    /// Findings of known bugs (in `known/`), not reported as new.
    pub known: u64,
    /// Differential findings of intended language changes (in `intended/`), not bugs.
    pub intended: u64,
    /// New findings (in `bugs/`) whose Java twin cannot judge them (the language model says
    /// so, or the twin could not be written), whatever javac said.
    pub twin_not_applicable: u64,
    /// Generator suspects (in `suspects/`).
    pub generator_suspect: u64,
    /// Programs on which another compiler (`--against`) disagrees.
    pub differential: u64,
}

/// What running the accepted programs gave (`--run`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunCounts {
    /// Programs with a run outcome (those not run included).
    pub programs: u64,
    /// Programs by outcome: `normal`, `exception`, `timeout`, `ended`, `no-test`, `not-run`.
    pub outcomes: BTreeMap<String, u64>,
    /// Programs not run, by reason (`calls java.lang.System.exit`).
    pub not_run: BTreeMap<String, u64>,
    /// Seconds spent running them and their twins (the workers' time).
    pub seconds: f64,
    /// Those seconds over the sessions' time.
    pub share: f64,
    /// Programs run per second of run time.
    pub programs_per_second: f64,
}

/// The summary of a run directory.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The run directory.
    pub dir: String,
    /// `run` or `check`.
    pub kind: String,
    /// `tool@version`.
    pub compiler: String,
    /// `process` or `server`.
    pub compiler_mode: String,
    /// Seed, language, API, modes... as recorded.
    pub identity: super::setup::RunIdentity,
    /// The run directories `thalia merge` joined into this one, with their shards.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<super::merge::MergedPart>,
    /// Programs judged.
    pub programs: u64,
    /// Verdicts per mode.
    pub modes: BTreeMap<String, ModeCounts>,
    /// Programs expected to be accepted, and how many were.
    pub well_typed_accepted: (u64, u64),
    /// Programs expected to be rejected, and how many were.
    pub ill_typed_rejected: (u64, u64),
    /// Findings per kind.
    pub findings: Vec<KindCounts>,
    /// Programs on which another compiler (`--against`) disagrees, by kind and compiler
    /// (`regression vs groovy@4.0.11`).
    pub differential: BTreeMap<String, u64>,
    /// Findings (occurrences) by what their Java twin says: `confirmed`,
    /// `generator-suspect`, `no-twin`.
    pub twin: BTreeMap<String, u64>,
    /// Findings (occurrences) of known bugs, by the known entry's id.
    pub known: BTreeMap<String, u64>,
    /// Distinct findings and programs by the folder their directories are in: they add up to
    /// the findings per kind.
    pub folders: BTreeMap<String, FolderCount>,
    /// Distinct findings of the compiler by status on its newest release (`open`, `fixed`,
    /// `unchecked`; those not rechecked are not counted).
    pub statuses: BTreeMap<String, u64>,
    /// Findings (occurrences) of intended language changes, by the entry's id.
    pub intended: BTreeMap<String, u64>,
    /// Findings whose Java twin cannot judge them, by reason.
    pub twin_not_applicable: BTreeMap<String, u64>,
    /// Findings by standing: confirmed new, known, generator-suspect, differential.
    pub standing: Standing,
    /// Distinct findings, most frequent first.
    pub signatures: Vec<SignatureCount>,
    /// Clusters of the reduced distinct findings (one cause each), largest first.
    pub clusters: Vec<Cluster>,
    /// The largest family of findings and its share of the finding programs (none without
    /// findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest_family: Option<LargestFamily>,
    /// Programs and findings per compiler flag set (`defaults` for none).
    pub flag_sets: BTreeMap<String, FlagSetCounts>,
    /// Distinct findings not reduced (yet): each its own cluster until it is.
    pub unreduced: u64,
    /// Sessions (a resumed run has several).
    pub sessions: usize,
    /// Seconds spent over all sessions.
    pub seconds: f64,
    /// Programs judged per second over all sessions.
    pub programs_per_second: f64,
    /// What running the accepted programs gave (`--run`; none in a run without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<RunCounts>,
    /// Lines of `results.jsonl` that could not be read (cut short by a kill, corrupt).
    pub unreadable_lines: u64,
    /// One warning per unreadable line, naming the file and the line number.
    pub warnings: Vec<String>,
    /// Which expression forms the synthesized programs use (`census.json` of `thalia run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub census: Option<crate::synth::census::Census>,
}

/// ` (ID ×N, ...)` for counts by id, empty when there are none.
fn by_id(counts: &BTreeMap<String, u64>) -> String {
    if counts.is_empty() {
        return String::new();
    }
    format!(
        " ({})",
        counts
            .iter()
            .map(|(id, n)| format!("{id} ×{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The order of distinct findings: open ones first, then those not (re)checked, then the
/// fixed ones.
fn state_rank(s: Option<StatusState>) -> u8 {
    match s {
        Some(StatusState::Open) => 0,
        Some(StatusState::Unchecked) | None => 1,
        Some(StatusState::Fixed) => 2,
    }
}

/// The run outcomes of `lines` (none when no line has one) in a run of `seconds`.
fn run_counts<'a>(lines: impl Iterator<Item = &'a ResultLine>, seconds: f64) -> Option<RunCounts> {
    let mut c = RunCounts::default();
    for r in lines.filter_map(|l| l.run.as_ref()) {
        c.programs += 1;
        let outcome = match &r.program {
            crate::run::RunOutcome::Exception { .. } => "exception",
            other => other.class(),
        };
        *c.outcomes.entry(outcome.to_string()).or_default() += 1;
        if let crate::run::RunOutcome::NotRun { reason } = &r.program {
            *c.not_run.entry(reason.clone()).or_default() += 1;
        }
        c.seconds += r.seconds;
    }
    if c.programs == 0 {
        return None;
    }
    let ran = c.programs - c.not_run.values().sum::<u64>();
    c.share = if seconds > 0.0 {
        c.seconds / seconds
    } else {
        0.0
    };
    c.programs_per_second = if c.seconds > 0.0 {
        ran as f64 / c.seconds
    } else {
        0.0
    };
    Some(c)
}

impl Report {
    /// Reads `dir`'s manifest, results and bug directories.
    pub fn load(dir: &Path) -> Result<Report, StoreError> {
        let mpath = dir.join(MANIFEST);
        let text =
            rundir::read_to_string_limited(&mpath, rundir::MAX_JSON_BYTES).map_err(|source| {
                StoreError::Io {
                    path: mpath.clone(),
                    source,
                }
            })?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| StoreError::Manifest {
            path: mpath.clone(),
            message: e.to_string(),
        })?;
        let rpath = dir.join(RESULTS);
        let bytes = rundir::read_limited(&rpath, rundir::MAX_RESULTS_BYTES).map_err(|source| {
            StoreError::Io {
                path: rpath.clone(),
                source,
            }
        })?;
        let scan = scan_results(&bytes);
        let warnings = scan.warnings(&rpath);
        let unreadable = warnings.len() as u64;
        let mut lines: HashMap<String, ResultLine> = HashMap::new();
        for (_, _, r) in scan.lines {
            lines.insert(r.key.clone(), r);
        }
        let mut modes: BTreeMap<String, ModeCounts> = BTreeMap::new();
        let (mut wt, mut it) = ((0, 0), (0, 0));
        let mut sigs: HashMap<String, SignatureCount> = HashMap::new();
        let mut twin: BTreeMap<String, u64> = BTreeMap::new();
        let mut differential: BTreeMap<String, u64> = BTreeMap::new();
        let mut known: BTreeMap<String, u64> = BTreeMap::new();
        let mut intended: BTreeMap<String, u64> = BTreeMap::new();
        let mut not_applicable: BTreeMap<String, u64> = BTreeMap::new();
        let mut standing = Standing::default();
        let mut folders: BTreeMap<String, FolderCount> = BTreeMap::new();
        let mut files: HashMap<String, Option<FindingFile>> = HashMap::new();
        let mut sorted: Vec<&ResultLine> = lines.values().collect();
        sorted.sort_by(|a, b| a.at.total_cmp(&b.at).then_with(|| a.key.cmp(&b.key)));
        let mut flag_sets: BTreeMap<String, FlagSetCounts> = BTreeMap::new();
        for r in &sorted {
            let fs = flag_sets.entry(super::flags::label(&r.flags)).or_default();
            fs.programs += 1;
            fs.findings += u64::from(r.finding.is_some());
            let m = modes.entry(r.mode.clone()).or_default();
            m.programs += 1;
            match r.verdict.as_str() {
                "accepted" => m.accepted += 1,
                "rejected" => m.rejected += 1,
                "crash" => m.crash += 1,
                _ => m.timeout += 1,
            }
            m.as_expected += u64::from(r.matches);
            let rate = match r.expected {
                Expected::Accept => &mut wt,
                Expected::Reject => &mut it,
            };
            rate.0 += u64::from(r.matches);
            rate.1 += 1;
            standing.differential += u64::from(!r.differential.is_empty());
            for d in &r.differential {
                let intended = d
                    .intended
                    .as_ref()
                    .map(|i| format!(" (intended {i})"))
                    .unwrap_or_default();
                *differential
                    .entry(format!("{} vs {}{intended}", d.kind.as_str(), d.against))
                    .or_default() += 1;
            }
            if let Some(f) = &r.finding {
                *twin.entry(f.twin.as_str().to_string()).or_default() += 1;
            }
            // the line's own finding and the other compilers' findings on its program, where
            // their directories are now and with their labels as they are now
            let others = r.differential.iter().filter_map(|d| d.finding.as_ref());
            for f in r.finding.iter().chain(others) {
                let path = locate(dir, f);
                let file = files
                    .entry(path.clone())
                    .or_insert_with(|| FindingFile::read(&dir.join(&path)).ok());
                let folder = path.split('/').next().unwrap_or_default().to_string();
                let mut f = f.clone();
                if let Some(ff) = file.as_ref() {
                    f.known = ff.known.as_ref().map(|k| k.id.clone());
                    f.intended = ff.intended.as_ref().map(|i| i.id.clone());
                }
                let f = &f;
                let entry = folders.entry(folder.clone()).or_default();
                entry.programs += 1;
                match (&f.intended, &f.known, folder.as_str()) {
                    (Some(id), _, _) => {
                        standing.intended += 1;
                        *intended.entry(id.clone()).or_default() += 1;
                    }
                    (None, Some(id), _) => {
                        standing.known += 1;
                        *known.entry(id.clone()).or_default() += 1;
                    }
                    (None, None, super::store::SUSPECTS) => standing.generator_suspect += 1,
                    // confirmed by the Java twin or by the differential oracle
                    (None, None, _)
                        if matches!(f.twin, TwinStatus::Confirmed | TwinStatus::Differential) =>
                    {
                        standing.confirmed_new += 1
                    }
                    (None, None, _) if f.twin == TwinStatus::NotApplicable => {
                        standing.twin_not_applicable += 1;
                        let reason = f.twin_reason.clone().unwrap_or_default();
                        *not_applicable.entry(reason).or_default() += 1;
                    }
                    (None, None, _) => standing.new_without_twin += 1,
                }
                let file = files.get(&path).cloned().flatten();
                sigs.entry(path.clone())
                    .or_insert_with(|| SignatureCount {
                        signature: path.clone(),
                        kind: f.kind,
                        count: 0,
                        text: file
                            .as_ref()
                            .map(|f| f.signature_text.clone())
                            .unwrap_or_default(),
                        first_program: r.key.clone(),
                        known: f.known.clone(),
                        intended: f.intended.clone(),
                        cluster: super::cluster::cluster_of(&dir.join(&path)),
                        folder: folder.clone(),
                        state: file
                            .as_ref()
                            .and_then(|f| f.status.as_ref())
                            .map(|s| s.state),
                        status: {
                            let st = file
                                .as_ref()
                                .and_then(|f| f.status.as_ref())
                                .map(|s| s.short());
                            // a finding its program alone does not make says so
                            if super::bugreport::not_reproduced_alone(&dir.join(&path)) {
                                Some(st.map_or("not reproduced alone".into(), |s| {
                                    format!("{s}; not reproduced alone")
                                }))
                            } else {
                                st
                            }
                        },
                        twin: f.twin,
                    })
                    .count += 1;
            }
        }
        let mut signatures: Vec<SignatureCount> = sigs.into_values().collect();
        signatures.sort_by(|a, b| {
            state_rank(a.state)
                .cmp(&state_rank(b.state))
                .then_with(|| b.count.cmp(&a.count))
                .then_with(|| a.signature.cmp(&b.signature))
        });
        let mut statuses: BTreeMap<String, u64> = BTreeMap::new();
        for s in &signatures {
            if let Some(st) = s.state {
                *statuses.entry(st.as_str().to_string()).or_default() += 1;
            }
            folders.entry(s.folder.clone()).or_default().distinct += 1;
        }
        let mut groups: BTreeMap<String, Cluster> = BTreeMap::new();
        for s in &signatures {
            if let Some(c) = &s.cluster {
                let g = groups.entry(c.clone()).or_insert_with(|| Cluster {
                    id: c.clone(),
                    findings: Vec::new(),
                    programs: 0,
                });
                g.findings.push(s.signature.clone());
                g.programs += s.count;
            }
        }
        let mut clusters: Vec<Cluster> = groups.into_values().collect();
        clusters.sort_by(|a, b| {
            b.findings
                .len()
                .cmp(&a.findings.len())
                .then_with(|| b.programs.cmp(&a.programs))
                .then_with(|| a.id.cmp(&b.id))
        });
        let unreduced = signatures.iter().filter(|s| s.cluster.is_none()).count() as u64;
        // families: clusters, and the signatures not reduced yet
        let mut families: BTreeMap<String, u64> = BTreeMap::new();
        for s in &signatures {
            let name = s.cluster.clone().unwrap_or_else(|| s.signature.clone());
            *families.entry(name).or_default() += s.count;
        }
        let total: u64 = families.values().sum();
        let largest_family = families
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .filter(|_| total > 0)
            .map(|(name, &n)| LargestFamily {
                family: name.clone(),
                programs: n,
                share: super::feedback::largest_share(families.values()),
            });
        let judged = sorted.len().max(1) as f64;
        for fs in flag_sets.values_mut() {
            fs.share = fs.programs as f64 / judged;
        }
        let findings = FindingKind::ALL
            .iter()
            .map(|&kind| {
                let of: Vec<&SignatureCount> =
                    signatures.iter().filter(|s| s.kind == kind).collect();
                KindCounts {
                    kind,
                    occurrences: of.iter().map(|s| s.count).sum(),
                    distinct: of.len() as u64,
                }
            })
            .collect();
        let seconds: f64 = manifest.sessions.iter().map(|s| s.seconds).sum();
        let programs = lines.len() as u64;
        let runs = run_counts(lines.values(), seconds);
        Ok(Report {
            dir: dir.display().to_string(),
            kind: manifest.kind.clone(),
            compiler: format!(
                "{}@{}",
                manifest.compiler.tool.name(),
                manifest.compiler.version
            ),
            compiler_mode: manifest.compiler.mode.clone(),
            identity: manifest.identity.clone(),
            merged: manifest.merged.clone(),
            programs,
            modes,
            well_typed_accepted: wt,
            ill_typed_rejected: it,
            findings,
            differential,
            twin,
            known,
            folders,
            statuses,
            intended,
            twin_not_applicable: not_applicable,
            standing,
            signatures,
            clusters,
            largest_family,
            flag_sets,
            unreduced,
            sessions: manifest.sessions.len(),
            seconds,
            programs_per_second: if seconds > 0.0 {
                programs as f64 / seconds
            } else {
                0.0
            },
            runs,
            unreadable_lines: unreadable,
            warnings,
            census: rundir::read_to_string_limited(
                &dir.join(super::records::CENSUS_FILE),
                rundir::MAX_JSON_BYTES,
            )
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok()),
        })
    }

    /// The report as a text table.
    pub fn table(&self) -> String {
        let pct = |(a, n): (u64, u64)| {
            if n == 0 {
                100.0
            } else {
                100.0 * a as f64 / n as f64
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} ({}, {} {}): {} programs in {:.1} s over {} session{} ({:.1} programs/s)",
            self.dir,
            self.kind,
            self.compiler,
            self.compiler_mode,
            self.programs,
            self.seconds,
            self.sessions,
            if self.sessions == 1 { "" } else { "s" },
            self.programs_per_second
        );
        if let Some(shard) = self.identity.shard() {
            let _ = writeln!(
                out,
                "  shard {shard} of its campaign (`thalia merge` joins the shards)"
            );
        }
        if !self.merged.is_empty() {
            let shards: Vec<String> = self
                .merged
                .iter()
                .map(|p| p.shard.map_or("whole".to_string(), |s| s.to_string()))
                .collect();
            let _ = writeln!(
                out,
                "  merged from {} part(s): shards {}",
                self.merged.len(),
                shards.join(", ")
            );
        }
        if self.well_typed_accepted.1 > 0 {
            let (a, n) = self.well_typed_accepted;
            let _ = writeln!(
                out,
                "  well-typed accepted: {a}/{n} ({:.1} %)",
                pct(self.well_typed_accepted)
            );
        }
        if self.ill_typed_rejected.1 > 0 {
            let (a, n) = self.ill_typed_rejected;
            let _ = writeln!(
                out,
                "  ill-typed rejected:  {a}/{n} ({:.1} %)",
                pct(self.ill_typed_rejected)
            );
        }
        let _ = writeln!(
            out,
            "\n  {:<22} {:>9} {:>9} {:>9} {:>9} {:>9} {:>11}",
            "mode", "programs", "accepted", "rejected", "crash", "timeout", "as expected"
        );
        for (mode, m) in &self.modes {
            let _ = writeln!(
                out,
                "  {:<22} {:>9} {:>9} {:>9} {:>9} {:>9} {:>11}",
                mode, m.programs, m.accepted, m.rejected, m.crash, m.timeout, m.as_expected
            );
        }
        let _ = writeln!(
            out,
            "\n  {:<22} {:>11} {:>9}",
            "kind", "programs", "distinct"
        );
        for k in &self.findings {
            let _ = writeln!(
                out,
                "  {:<22} {:>11} {:>9}",
                k.kind.as_str(),
                k.occurrences,
                k.distinct
            );
        }
        if let Some(r) = &self.runs {
            let outcomes: Vec<String> =
                r.outcomes.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(
                out,
                "\n  run (--run): {} programs ({}); {:.1} s running ({:.0} % of the sessions' time, {:.1} programs/s)",
                r.programs,
                outcomes.join(", "),
                r.seconds,
                100.0 * r.share,
                r.programs_per_second
            );
            for (reason, n) in &r.not_run {
                let _ = writeln!(out, "  {n:>9}  not run: {reason}");
            }
        }
        if !self.differential.is_empty() {
            let _ = writeln!(out, "\n  differential (programs):");
            for (k, n) in &self.differential {
                let _ = writeln!(out, "  {n:>9}  {k}");
            }
        }
        if self.twin.keys().any(|k| k != "no-twin") {
            let n = |k: &str| self.twin.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "\n  oracles, programs: {} confirmed by the Java twin (javac) and {} by the differential (another release or frontend) (bugs/), {} generator-suspect, {} unconfirmed (suspects/), {} twin not applicable, {} without a twin",
                n("confirmed"),
                n("differential"),
                n("generator-suspect"),
                n("unconfirmed"),
                n("not-applicable"),
                n("no-twin")
            );
            for (reason, n) in &self.twin_not_applicable {
                let _ = writeln!(out, "  {n:>9}  twin not applicable: {reason}");
            }
        }
        if let Some(l) = &self.largest_family {
            let _ = writeln!(
                out,
                "\n  largest family: {} finding programs ({:.1} % of all), {}",
                l.programs,
                100.0 * l.share,
                l.family
            );
        }
        if self.flag_sets.keys().any(|k| k != "defaults") {
            let _ = writeln!(
                out,
                "\n  {:<34} {:>9} {:>7} {:>9}",
                "compiler flags", "programs", "share", "findings"
            );
            for (label, c) in &self.flag_sets {
                let _ = writeln!(
                    out,
                    "  {:<34} {:>9} {:>6.1}% {:>9}",
                    label,
                    c.programs,
                    100.0 * c.share,
                    c.findings
                );
            }
        }
        let st = &self.standing;
        let _ = writeln!(
            out,
            "\n  findings: {} confirmed new, {} new without a twin, {} known{}, {} intended{}, {} new whose twin does not apply, {} generator-suspect; {} programs differential",
            st.confirmed_new,
            st.new_without_twin,
            st.known,
            by_id(&self.known),
            st.intended,
            by_id(&self.intended),
            st.twin_not_applicable,
            st.generator_suspect,
            st.differential
        );
        if !self.folders.is_empty() {
            let where_: Vec<String> = self
                .folders
                .iter()
                .map(|(folder, c)| {
                    format!(
                        "{folder}/ {} distinct ({} programs)",
                        c.distinct, c.programs
                    )
                })
                .collect();
            let _ = writeln!(out, "  where: {}", where_.join(", "));
        }
        if !self.statuses.is_empty() {
            let n = |k: &str| self.statuses.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "  on the newest release: {} open, {} fixed since, {} not checked (`thalia report --recheck` checks again)",
                n("open"),
                n("fixed"),
                n("unchecked")
            );
        }
        if !self.signatures.is_empty() {
            let _ = writeln!(out, "\n  distinct findings (open first):");
            for s in &self.signatures {
                let _ = writeln!(
                    out,
                    "  {:>6}×  {}{}{}{}{}  (first: {})\n          {}",
                    s.count,
                    s.signature,
                    s.status
                        .as_ref()
                        .map(|st| format!("  [{st}]"))
                        .unwrap_or_default(),
                    s.known
                        .as_ref()
                        .map(|k| format!("  [known {k}]"))
                        .unwrap_or_default(),
                    s.intended
                        .as_ref()
                        .map(|k| format!("  [intended {k}]"))
                        .unwrap_or_default(),
                    s.cluster
                        .as_ref()
                        .map(|c| format!("  [{c}]"))
                        .unwrap_or_default(),
                    s.first_program,
                    s.text
                );
            }
            let reduced: usize = self.clusters.iter().map(|c| c.findings.len()).sum();
            let _ = writeln!(
                out,
                "\n  clusters (by reduced program): {} among {reduced} reduced distinct finding(s); {} not reduced",
                self.clusters.len(),
                self.unreduced
            );
            for c in &self.clusters {
                let _ = writeln!(
                    out,
                    "  {}  {} finding(s), {} program(s)",
                    c.id,
                    c.findings.len(),
                    c.programs
                );
                for f in &c.findings {
                    let _ = writeln!(out, "          {f}");
                }
            }
        }
        if let Some(c) = &self.census {
            let _ = writeln!(
                out,
                "\n  forms used ({} programs synthesized; {}):",
                c.programs,
                c.densities()
            );
            for (name, _) in crate::synth::census::FORMS {
                let n = c.forms.get(name).copied().unwrap_or(0);
                if n > 0 {
                    let _ = writeln!(
                        out,
                        "  {:>6.1} %  {name}{}",
                        100.0 * c.share(name),
                        c.note(name)
                    );
                }
            }
        }
        if self.unreadable_lines > 0 {
            let _ = writeln!(
                out,
                "\n  {} unreadable line(s) in {RESULTS}, skipped:",
                self.unreadable_lines
            );
            for w in &self.warnings {
                let _ = writeln!(out, "  warning: {w}");
            }
        }
        out
    }
}
