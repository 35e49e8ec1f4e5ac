//! Whether a run's findings are still open: at the end of a campaign (unless
//! `--no-recheck`), or with `thalia report RUN --recheck`, every finding of the run's compiler
//! in `bugs/` and `known/` has its program (the reduced one when `reduced/` holds it)
//! compiled with the newest release of that compiler and the newest pre-release newer than
//! it, as the repositories list them (`toolchain::release_list`; releases installed and
//! cached by the tool). A finding the newest release still shows is `open`; one it no longer
//! shows is `fixed`, and a binary search over the stable releases between the finding's own
//! and the newest (all such findings at once, one compilation per release probed) finds the
//! first fixed release. The status goes into `finding.json`; `report.md` is rewritten.
//!
//! A known label is checked again on the releases compiled: when the entry's own program and
//! the finding's behave differently on one of them, they are not the same bug — the label is
//! taken back (`known_disproved`) and the finding moves from `known/` to `bugs/`.
//!
//! [`finalize`] completes the reduced programs' evidence (their compiler output, and javac's
//! verdict on their Java twins) and rewrites every finding's `report.md` from its directory.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use thalia_extractors::maven::compare_versions;

use super::bisect::{candidates, BisectOptions, MAX_PROBES};
use super::bugreport::{self, ReducedTwin, RunContext, REDUCED_OUTPUT, REDUCED_TWIN};
use super::evidence::CompiledEvidence;
use super::judge::{elsewhere_status, judge_with_reason};
use super::known::{Evidence, KnownSet};
use super::records::{
    write_atomic, CompilerInfo, DisprovedLabel, FindingFile, Manifest, ReleaseCheck, ReleaseStatus,
    StatusState, StoreError, BUGS, FOLDERS, KNOWN, MANIFEST, REDUCED, RESULTS,
};
use super::signature::signature;
use super::store::now;
use crate::compile::{CompileOptions, Compiler, Mode, Verdict};
use crate::profile::Install;
use crate::toolchain::{self, Tool, Toolchain};

/// How to recheck.
#[derive(Clone, Debug, Default)]
pub struct RecheckOptions {
    /// Maven repositories (default: the user's configuration).
    pub repos: Vec<String>,
    /// Show download progress.
    pub progress: bool,
    /// Leave the newest pre-release out.
    pub no_pre_release: bool,
    /// The known findings whose labels are checked again (default: the embedded ones).
    pub known: Option<KnownSet>,
}

/// What a recheck did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RecheckSummary {
    /// The compiler (`groovy`).
    pub compiler: String,
    /// The finding's release.
    pub version: String,
    /// The newest release, when known.
    pub newest: Option<String>,
    /// The newest pre-release, when newer than the newest release.
    pub pre_release: Option<String>,
    /// Findings checked.
    pub findings: usize,
    /// Findings the newest release still shows.
    pub open: usize,
    /// Findings it no longer shows.
    pub fixed: usize,
    /// Findings that could not be checked.
    pub unchecked: usize,
    /// Known labels taken back: the finding's directory and the entry's id.
    pub relabelled: Vec<(String, String)>,
    /// Why nothing could be checked, or what answered instead of the repositories.
    pub note: Option<String>,
    /// Releases compiled (besides the finding's own).
    pub releases_compiled: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl RecheckSummary {
    /// One line for people.
    pub fn line(&self) -> String {
        if self.findings == 0 {
            return "newest releases: no finding to check".into();
        }
        let mut s = match (&self.newest, self.open + self.fixed) {
            (Some(n), checked) if checked > 0 => format!(
                "newest releases: {} of {} finding(s) still open on {} {n}{}, {} fixed since",
                self.open,
                self.findings,
                self.compiler,
                self.pre_release
                    .as_ref()
                    .map(|p| format!(" (pre-release {p} checked too)"))
                    .unwrap_or_default(),
                self.fixed
            ),
            _ => format!("newest releases: {} finding(s) not checked", self.unchecked),
        };
        if self.unchecked > 0 && self.open + self.fixed > 0 {
            s.push_str(&format!(", {} not checked", self.unchecked));
        }
        if let Some(n) = &self.note {
            s.push_str(&format!(" ({n})"));
        }
        if !self.relabelled.is_empty() {
            s.push_str(&format!(
                "; {} known label(s) taken back by the newer releases (moved to {BUGS}/)",
                self.relabelled.len()
            ));
        }
        s
    }
}

/// A recheck that could not be made at all.
#[derive(Debug, thiserror::Error)]
pub enum RecheckError {
    /// Reading or writing the run failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Another process writes the run (a campaign, a merge).
    #[error(transparent)]
    Locked(#[from] crate::rundir::LockError),
}

/// One finding being rechecked.
struct Item {
    dir: PathBuf,
    finding: FindingFile,
    /// The program compiled: its file name and source.
    file: String,
    source: String,
    reduced: bool,
    checks: BTreeMap<String, ReleaseCheck>,
}

/// The run's manifest.
fn manifest(run: &Path) -> Result<Manifest, StoreError> {
    let path = run.join(MANIFEST);
    let text = crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_JSON_BYTES)
        .map_err(|source| StoreError::Io {
            path: path.clone(),
            source,
        })?;
    serde_json::from_str(&text).map_err(|e| StoreError::Manifest {
        path,
        message: e.to_string(),
    })
}

/// The directories of the findings in `folders` (the run's own compiler's, or with `all`
/// every compiler's), sorted.
fn finding_dirs(run: &Path, folders: &[&str], all: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for folder in folders {
        for e in std::fs::read_dir(run.join(folder))
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = e.path();
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if p.join("finding.json").is_file() {
                out.push(p);
            } else if all {
                out.extend(
                    std::fs::read_dir(&p)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .map(|s| s.path())
                        .filter(|s| s.join("finding.json").is_file()),
                );
            }
        }
    }
    out.sort();
    out
}

/// The toolchain of exactly `tool@version`, installed when missing.
fn installed(tool: Tool, version: &str, opts: &RecheckOptions) -> Result<Toolchain, String> {
    if let Some(tc) = toolchain::list()
        .into_iter()
        .find(|t| t.tool == tool && t.version == version)
    {
        return Ok(tc);
    }
    toolchain::install(tool, Some(version), &opts.repos, opts.progress)
        .map_err(|e| e.to_string())
        .and_then(|tc| {
            if tc.version == version {
                Ok(tc)
            } else {
                Err(format!("asked for {version}, installed {}", tc.version))
            }
        })
}

/// How the run compiled its programs: classpath, time budget and a variant's flags.
fn compile_options(info: &CompilerInfo) -> CompileOptions {
    CompileOptions {
        classpath: info.classpath.clone(),
        timeout: std::time::Duration::from_secs_f64(info.timeout_seconds.max(1.0)),
        flags: info.variant().map(|v| v.flag_list()).unwrap_or_default(),
    }
}

/// Compiles `programs` (file name, source) with `tc` in a fresh directory under `work`, a
/// batch per set of distinct file names (reduced programs of several findings may share
/// theirs); their verdicts in the order of `programs`, or why they could not be compiled.
fn compile_all(
    tc: &Toolchain,
    work: &Path,
    programs: &[(String, String)],
    opts: &CompileOptions,
) -> Result<Vec<Option<Verdict>>, String> {
    compile_and_run_all(tc, work, programs, opts, None).map(|(verdicts, _)| verdicts)
}

/// The programs of a recheck that run when the release accepts them (the run findings':
/// a miscompilation or unsoundness shows only when the program runs), and how they run.
struct RunPlan<'a> {
    settings: &'a crate::run::RunSettings,
    /// Which of the programs (their indices).
    which: &'a HashSet<usize>,
}

/// The verdicts and run outcomes of [`compile_and_run_all`], in the order of its programs.
type VerdictsAndRuns = (Vec<Option<Verdict>>, Vec<Option<crate::run::RunOutcome>>);

/// [`compile_all`], and with `run`, the accepted programs it names run in the sandbox:
/// their verdicts and their run outcomes, in the order of `programs`.
fn compile_and_run_all(
    tc: &Toolchain,
    work: &Path,
    programs: &[(String, String)],
    opts: &CompileOptions,
    run: Option<&RunPlan<'_>>,
) -> Result<VerdictsAndRuns, String> {
    let mut outcomes = vec![None; programs.len()];
    let mut out = vec![None; programs.len()];
    let mut rest: Vec<usize> = (0..programs.len()).collect();
    let mut batch_no = 0;
    while !rest.is_empty() {
        let mut seen = HashSet::new();
        let (batch, later): (Vec<usize>, Vec<usize>) = rest
            .into_iter()
            .partition(|&i| seen.insert(programs[i].0.clone()));
        rest = later;
        let dir = work.join(format!("b{batch_no}"));
        batch_no += 1;
        let classes = dir.join("classes");
        std::fs::create_dir_all(&classes).map_err(|e| format!("{}: {e}", classes.display()))?;
        let mut files = Vec::new();
        for &i in &batch {
            let (f, src) = &programs[i];
            let p = dir.join(f);
            std::fs::write(&p, src).map_err(|e| format!("{}: {e}", p.display()))?;
            files.push(p);
        }
        let mut compiler = Compiler::new(tc, Mode::Process);
        let mut r = compiler
            .compile_batch(&files, &classes, opts)
            .map_err(|e| e.to_string())?;
        if let Some(plan) = run {
            let jobs: Vec<crate::run::Job> = batch
                .iter()
                .filter(|&&i| {
                    plan.which.contains(&i)
                        && r.verdicts
                            .get(&programs[i].0)
                            .is_some_and(Verdict::is_accepted)
                })
                .map(|&i| crate::run::Job {
                    id: i.to_string(),
                    classes: classes.clone(),
                    class: crate::run::test_class(&programs[i].0, &programs[i].1),
                })
                .collect();
            if !jobs.is_empty() {
                let mut ran = plan
                    .settings
                    .runner
                    .run_batch(&dir.join("run"), &plan.settings.shared, &jobs)
                    .map_err(|e| e.to_string())?;
                for &i in &batch {
                    outcomes[i] = ran.outcomes.remove(&i.to_string());
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        for i in batch {
            out[i] = r.verdicts.remove(&programs[i].0);
        }
    }
    Ok((out, outcomes))
}

/// Whether findings of `kind` show only when their program runs (`--run`).
fn is_run_kind(kind: super::finding::FindingKind) -> bool {
    matches!(
        kind,
        super::finding::FindingKind::Miscompilation | super::finding::FindingKind::Unsoundness
    )
}

/// What `v` and `outcome`, the verdict of `tool` on a run finding's program and what running
/// it ended in, say of the finding: it shows when the release accepts the program and its
/// run makes a finding of the same kind (against the Java twin's outcome the campaign
/// recorded), with the same signature for the same cause.
fn run_check_of(
    item: &Item,
    tool: Tool,
    version: &str,
    pre: bool,
    v: &Verdict,
    outcome: Option<&crate::run::RunOutcome>,
) -> ReleaseCheck {
    let f = &item.finding;
    let twin = f.run.as_ref().and_then(|r| r.twin.as_ref());
    let found = outcome.and_then(|o| crate::run::judge_run(o, twin));
    let kind = found.as_ref().map(|rf| match rf.kind {
        crate::run::RunKind::Miscompilation => super::finding::FindingKind::Miscompilation,
        crate::run::RunKind::Unsoundness => super::finding::FindingKind::Unsoundness,
    });
    let shows = kind == Some(f.kind);
    let own = f.signature.rsplit('/').next().unwrap_or(&f.signature);
    let same = shows
        && found
            .as_ref()
            .is_some_and(|rf| super::judge::run_signature(tool, f.kind, &rf.detail).dir == own);
    let diagnostic = match (v, outcome) {
        (_, Some(o)) => Some(bugreport::scrub(
            &format!("ran: {}", o.describe())
                .chars()
                .take(300)
                .collect::<String>(),
        )),
        (Verdict::Rejected { diagnostics }, None) => diagnostics
            .first()
            .map(|d| bugreport::scrub(&d.chars().take(300).collect::<String>())),
        _ => None,
    };
    // accepted but not run (the runner failed for it): this release was not checked
    let ran = !v.is_accepted() || outcome.is_some();
    ReleaseCheck {
        version: version.to_string(),
        pre_release: pre,
        verdict: Some(v.label().to_string()),
        shows: ran.then_some(shows),
        same_signature: ran.then_some(same),
        diagnostic,
        error: (!ran).then(|| "accepted, but the program did not run".to_string()),
    }
}

/// What `v`, the verdict of `tool` on `item`'s program, says of the finding.
fn check_of(item: &Item, tool: Tool, version: &str, pre: bool, v: &Verdict) -> ReleaseCheck {
    let f = &item.finding;
    let call = thalia_translators::call_lines(&item.source);
    let kind = judge_with_reason(f.expected, v, tool.profile().diagnostics, call);
    let shows = kind == Some(f.kind);
    let same = shows
        && kind
            .map(|k| signature(tool, k, v, &f.program.record).dir == f.signature)
            .unwrap_or(false);
    ReleaseCheck {
        version: version.to_string(),
        pre_release: pre,
        verdict: Some(v.label().to_string()),
        shows: Some(shows),
        same_signature: Some(same),
        diagnostic: match v {
            Verdict::Rejected { diagnostics } => diagnostics
                .first()
                .map(|d| bugreport::scrub(&d.chars().take(300).collect::<String>())),
            Verdict::Crash { output, .. } => Some(bugreport::scrub(
                &output.chars().take(300).collect::<String>(),
            )),
            _ => None,
        },
        error: None,
    }
}

/// The checker of releases for a run: installs them, compiles the findings' programs with
/// them and keeps every verdict.
struct Prober<'a> {
    info: &'a CompilerInfo,
    opts: &'a RecheckOptions,
    work: tempfile::TempDir,
    compiled: HashSet<String>,
    evidence: Option<&'a CompiledEvidence>,
}

impl Prober<'_> {
    /// Compiles the programs of `items[which]` with `version` and records the checks.
    fn probe(&mut self, items: &mut [Item], which: &[usize], version: &str, pre: bool) {
        let tool = self.info.tool;
        if version == self.info.version {
            // the finding's own release: its verdict is the finding
            for &i in which {
                let it = &mut items[i];
                it.checks.insert(
                    version.to_string(),
                    ReleaseCheck {
                        version: version.to_string(),
                        pre_release: pre,
                        verdict: Some(it.finding.actual.clone()),
                        shows: Some(true),
                        same_signature: Some(true),
                        diagnostic: None,
                        error: None,
                    },
                );
            }
            return;
        }
        let failed = |items: &mut [Item], e: &str| {
            for &i in which {
                items[i].checks.insert(
                    version.to_string(),
                    ReleaseCheck {
                        version: version.to_string(),
                        pre_release: pre,
                        verdict: None,
                        shows: None,
                        same_signature: None,
                        diagnostic: None,
                        error: Some(e.to_string()),
                    },
                );
            }
        };
        let tc = match installed(tool, version, self.opts) {
            Ok(tc) => tc,
            Err(e) => return failed(items, &e),
        };
        let copts = compile_options(self.info);
        if let Some(ev) = self.evidence {
            ev.add_compiler(
                &release_label(self.info, version),
                tc.clone(),
                copts.clone(),
            );
        }
        self.compiled.insert(version.to_string());
        // the programs with the flags they were drawn, where this release takes them: one
        // compilation per flag set
        let release = CompilerInfo {
            version: version.to_string(),
            ..self.info.clone()
        };
        let mut groups: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
        for &i in which {
            let flags =
                super::flags::compile_flags(&release, &items[i].finding.program.record.flags);
            match groups.iter_mut().find(|(f, _)| *f == flags) {
                Some((_, g)) => g.push(i),
                None => groups.push((flags, vec![i])),
            }
        }
        for (g, (flags, group)) in groups.into_iter().enumerate() {
            let copts = CompileOptions {
                flags,
                ..copts.clone()
            };
            self.probe_group(items, &group, version, pre, &tc, &copts, g);
        }
    }

    /// Compiles the programs of `items[which]` (one flag set) with `tc` at `version` and
    /// records the checks.
    #[allow(clippy::too_many_arguments)]
    fn probe_group(
        &mut self,
        items: &mut [Item],
        which: &[usize],
        version: &str,
        pre: bool,
        tc: &Toolchain,
        copts: &CompileOptions,
        group: usize,
    ) {
        let tool = self.info.tool;
        let programs: Vec<(String, String)> = which
            .iter()
            .map(|&i| (items[i].file.clone(), items[i].source.clone()))
            .collect();
        let dir = self
            .work
            .path()
            .join(format!("r{}-{group}", self.compiled.len()));
        // run findings show only when their programs run: with this release's runtime
        let run_programs: HashSet<usize> = which
            .iter()
            .enumerate()
            .filter(|(_, &i)| is_run_kind(items[i].finding.kind))
            .map(|(k, _)| k)
            .collect();
        let settings = (!run_programs.is_empty())
            .then(|| crate::run::RunSettings::new(tc, copts.classpath.as_deref()));
        let (settings, cannot_run) = match settings {
            Some(Ok(s)) => (Some(s), None),
            Some(Err(e)) => (None, Some(format!("cannot run the program: {e}"))),
            None => (None, None),
        };
        let plan = settings.as_ref().map(|settings| RunPlan {
            settings,
            which: &run_programs,
        });
        match compile_and_run_all(tc, &dir, &programs, copts, plan.as_ref()) {
            Ok((verdicts, outcomes)) => {
                for (k, &i) in which.iter().enumerate() {
                    let run_kind = is_run_kind(items[i].finding.kind);
                    let check = match (verdicts.get(k).and_then(Option::as_ref), &cannot_run) {
                        (Some(_), Some(e)) if run_kind => ReleaseCheck {
                            version: version.to_string(),
                            pre_release: pre,
                            verdict: None,
                            shows: None,
                            same_signature: None,
                            diagnostic: None,
                            error: Some(e.clone()),
                        },
                        (Some(v), _) if run_kind => run_check_of(
                            &items[i],
                            tool,
                            version,
                            pre,
                            v,
                            outcomes.get(k).and_then(Option::as_ref),
                        ),
                        (Some(v), _) => check_of(&items[i], tool, version, pre, v),
                        (None, _) => ReleaseCheck {
                            version: version.to_string(),
                            pre_release: pre,
                            verdict: None,
                            shows: None,
                            same_signature: None,
                            diagnostic: None,
                            error: Some(format!("no verdict for {}", items[i].file)),
                        },
                    };
                    items[i].checks.insert(version.to_string(), check);
                }
            }
            Err(e) => {
                for &i in which {
                    items[i].checks.insert(
                        version.to_string(),
                        ReleaseCheck {
                            version: version.to_string(),
                            pre_release: pre,
                            verdict: None,
                            shows: None,
                            same_signature: None,
                            diagnostic: None,
                            error: Some(e.clone()),
                        },
                    );
                }
            }
        }
    }
}

/// `tool@version` with the run's variant, as evidence is keyed.
fn release_label(info: &CompilerInfo, version: &str) -> String {
    CompilerInfo {
        version: version.to_string(),
        ..info.clone()
    }
    .label()
}

/// The newest pre-release among `versions` newer than `newest` (snapshots never), within the
/// profile's default series when it has one.
fn newest_pre_release(
    versions: &[String],
    rules: &crate::profile::VersionRules,
    newest: &str,
) -> Option<String> {
    versions
        .iter()
        .filter(|v| !rules.is_stable(v) && !v.to_ascii_lowercase().contains("snapshot"))
        .filter(|v| {
            rules
                .default_series
                .is_none_or(|s| v.starts_with(s.trim_end_matches('.')))
        })
        .filter(|v| compare_versions(v, newest) == std::cmp::Ordering::Greater)
        .max_by(|a, b| compare_versions(a, b))
        .cloned()
}

/// Rechecks the findings of the run in `run` on the newest releases of its compiler.
pub fn recheck(run: &Path, opts: &RecheckOptions) -> Result<RecheckSummary, RecheckError> {
    let start = Instant::now();
    // one writer at a time: the findings' files are rewritten, a label taken back moves one
    let _lock = crate::rundir::RunLock::acquire(run)?;
    let manifest = manifest(run)?;
    let info = manifest.compiler.clone();
    let tool = info.tool;
    let profile = tool.profile();
    let mut summary = RecheckSummary {
        compiler: tool.name().to_string(),
        version: info.version.clone(),
        ..RecheckSummary::default()
    };
    let mut items: Vec<Item> = Vec::new();
    for dir in finding_dirs(run, &[BUGS, KNOWN], false) {
        let Ok(finding) = FindingFile::read(&dir) else {
            continue;
        };
        if finding.compiler.tool != tool || finding.compiler.version != info.version {
            continue;
        }
        let (file, source, reduced) = match bugreport::reduced_program(&dir, tool) {
            Some(file) => match bugreport::read(&dir.join(REDUCED), &file) {
                Some(src) => (file, src, true),
                None => continue,
            },
            // a plain file name: it is written into the recheck's own directory
            None => match crate::rundir::check_name(&finding.program.file)
                .ok()
                .and_then(|()| bugreport::read(&dir, &finding.program.file))
            {
                Some(src) => (finding.program.file.clone(), src, false),
                None => continue,
            },
        };
        items.push(Item {
            dir,
            finding,
            file,
            source,
            reduced,
            checks: BTreeMap::new(),
        });
    }
    summary.findings = items.len();
    if items.is_empty() {
        return Ok(summary);
    }
    // a finding checked before keeps that status, noting that this check could not be made
    let unchecked = |items: &[Item], note: String, summary: &mut RecheckSummary| {
        for it in items {
            if let Some(mut old) = it
                .finding
                .status
                .clone()
                .filter(|s| s.state != StatusState::Unchecked)
            {
                old.note = Some(format!(
                    "{note}; the status is that of the check at {} (seconds since the epoch)",
                    old.checked_at as u64
                ));
                write_status(it, old)?;
                continue;
            }
            let status = ReleaseStatus {
                state: StatusState::Unchecked,
                program: program_word(it.reduced),
                newest: None,
                newest_pre_release: None,
                open_on: Vec::new(),
                fixed_in: None,
                last_affected: None,
                checks: Vec::new(),
                note: Some(note.clone()),
                checked_at: now(),
            };
            write_status(it, status)?;
        }
        summary.unchecked = items.len();
        summary.note = Some(note);
        Ok::<(), StoreError>(())
    };
    if !matches!(profile.install, Install::Maven(_)) {
        unchecked(
            &items,
            format!(
                "{} comes with the JDK: thalia does not install its releases",
                profile.name
            ),
            &mut summary,
        )?;
        summary.seconds = start.elapsed().as_secs_f64();
        return Ok(summary);
    }
    if info.coordinate.is_none() {
        unchecked(
            &items,
            format!(
                "{}@{} is a local toolchain, not a release installed from a Maven repository",
                tool.name(),
                info.version
            ),
            &mut summary,
        )?;
        summary.seconds = start.elapsed().as_secs_f64();
        return Ok(summary);
    }
    let (versions, list_note) = match toolchain::release_list(tool, &opts.repos, opts.progress) {
        Ok(v) => v,
        Err(e) => {
            unchecked(
                &items,
                format!(
                    "could not check: {}'s releases cannot be listed ({e})",
                    tool.name()
                ),
                &mut summary,
            )?;
            summary.seconds = start.elapsed().as_secs_f64();
            return Ok(summary);
        }
    };
    let Ok(newest) = profile.versions.pick(&versions, None) else {
        unchecked(
            &items,
            format!("the repositories list no stable release of {}", tool.name()),
            &mut summary,
        )?;
        return Ok(summary);
    };
    // a finding of a release newer than the newest stable one (a pre-release): the newest is
    // its own
    let newest = if compare_versions(&info.version, &newest) == std::cmp::Ordering::Greater {
        info.version.clone()
    } else {
        newest
    };
    let pre = if opts.no_pre_release {
        None
    } else {
        newest_pre_release(&versions, &profile.versions, &newest).filter(|p| *p != info.version)
    };
    summary.newest = Some(newest.clone());
    summary.pre_release = pre.clone();
    summary.note = list_note.clone();
    let known = opts
        .known
        .clone()
        .or_else(|| KnownSet::embedded().ok())
        .unwrap_or_default();
    let evidence = CompiledEvidence::new(run, &opts.repos);
    let mut prober = Prober {
        info: &info,
        opts,
        work: tempfile::Builder::new()
            .prefix(super::records::RECHECK_DIR_PREFIX)
            .tempdir_in(run)
            .map_err(|e| StoreError::Io {
                path: run.to_path_buf(),
                source: e,
            })?,
        compiled: HashSet::new(),
        evidence: Some(&evidence),
    };
    if let Ok(tc) = installed(tool, &info.version, opts) {
        evidence.add_compiler(&info.label(), tc, compile_options(&info));
    }
    let all: Vec<usize> = (0..items.len()).collect();
    prober.probe(&mut items, &all, &newest, false);
    if let Some(p) = &pre {
        prober.probe(&mut items, &all, p, true);
    }
    // the fixed ones: a binary search over the stable releases between theirs and the newest
    let fixed: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].checks.get(&newest).and_then(|c| c.shows) == Some(false))
        .collect();
    // per fixed finding: the newest release known to show it, the oldest known not to
    let mut bounds: HashMap<usize, (String, String)> = fixed
        .iter()
        .map(|&i| (i, (info.version.clone(), newest.clone())))
        .collect();
    if !fixed.is_empty() {
        let mut list = candidates(
            &versions,
            &profile.versions,
            &info.version,
            &BisectOptions {
                from: Some(info.version.clone()),
                to: Some(newest.clone()),
                ..BisectOptions::default()
            },
        );
        if !list.contains(&newest) {
            list.push(newest.clone());
        }
        loop {
            if prober.compiled.len() >= MAX_PROBES {
                break;
            }
            // the middle release of every open interval, grouped
            let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
            for (&i, (lo, hi)) in &bounds {
                let (Some(l), Some(h)) = (
                    list.iter().position(|v| v == lo),
                    list.iter().position(|v| v == hi),
                ) else {
                    continue;
                };
                if h > l + 1 {
                    groups
                        .entry(list[l + (h - l) / 2].clone())
                        .or_default()
                        .push(i);
                }
            }
            if groups.is_empty() {
                break;
            }
            for (version, which) in groups {
                prober.probe(&mut items, &which, &version, false);
                for i in which {
                    let shows = items[i].checks.get(&version).and_then(|c| c.shows);
                    let b = bounds.get_mut(&i).expect("a bounded finding");
                    match shows {
                        Some(true) => b.0 = version.clone(),
                        Some(false) => b.1 = version.clone(),
                        // untestable: left out of the search
                        None => list.retain(|v| *v != version),
                    }
                }
            }
        }
    }
    summary.releases_compiled = prober.compiled.len();
    // statuses, and known labels checked again on every release compiled
    for (i, it) in items.iter_mut().enumerate() {
        let mut checks: Vec<ReleaseCheck> = it.checks.values().cloned().collect();
        checks.sort_by(|a, b| compare_versions(&a.version, &b.version));
        let newest_shows = it.checks.get(&newest).and_then(|c| c.shows);
        let state = match newest_shows {
            Some(true) => StatusState::Open,
            Some(false) => StatusState::Fixed,
            None => StatusState::Unchecked,
        };
        let (last_affected, fixed_in) = match (bounds.get(&i), state) {
            (Some((lo, hi)), StatusState::Fixed) => (Some(lo.clone()), Some(hi.clone())),
            _ => (None, None),
        };
        let note = match state {
            StatusState::Unchecked => it
                .checks
                .get(&newest)
                .and_then(|c| c.error.clone())
                .map(|e| format!("could not check {} {newest}: {e}", tool.name())),
            _ => list_note.clone(),
        };
        let status = ReleaseStatus {
            state,
            program: program_word(it.reduced),
            newest: Some(newest.clone()),
            newest_pre_release: pre.clone(),
            open_on: std::iter::once(info.version.clone())
                .chain(
                    checks
                        .iter()
                        .filter(|c| c.shows == Some(true) && c.version != info.version)
                        .map(|c| c.version.clone()),
                )
                .collect(),
            fixed_in,
            last_affected,
            checks,
            note,
            checked_at: now(),
        };
        match state {
            StatusState::Open => summary.open += 1,
            StatusState::Fixed => summary.fixed += 1,
            StatusState::Unchecked => summary.unchecked += 1,
        }
        if let Some(disproved) = disprove(it, &status, &known, &evidence, &info) {
            summary
                .relabelled
                .push((it.finding.signature.clone(), disproved.id.clone()));
            it.finding.known = None;
            it.finding.known_disproved = Some(disproved);
            it.finding.status = Some(status);
            it.finding.write(&it.dir)?;
            // the signature names a directory: a plain file name only
            if crate::rundir::check_name(&it.finding.signature).is_ok() {
                let dest = run.join(BUGS).join(&it.finding.signature);
                if !dest.exists() && std::fs::rename(&it.dir, &dest).is_ok() {
                    it.dir = dest;
                }
            }
            continue;
        }
        write_status(it, status)?;
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// `reduced` or `original`.
fn program_word(reduced: bool) -> String {
    if reduced { "reduced" } else { "original" }.to_string()
}

/// Writes the finding's status into its `finding.json`.
fn write_status(it: &Item, status: ReleaseStatus) -> Result<(), StoreError> {
    let mut f = FindingFile::read(&it.dir)?;
    f.status = Some(status);
    f.write(&it.dir)
}

/// The known label of `it` taken back, when its entry's program and the finding's behave
/// differently on a release both were compiled with.
fn disprove(
    it: &Item,
    status: &ReleaseStatus,
    known: &KnownSet,
    evidence: &CompiledEvidence,
    info: &CompilerInfo,
) -> Option<DisprovedLabel> {
    let label = it.finding.known.as_ref()?;
    let entry = known.entries().find(|e| e.id == label.id)?;
    for c in &status.checks {
        let (Some(shows), true) = (c.shows, c.version != info.version) else {
            continue;
        };
        let Some(ev) = evidence.verdict(entry, &release_label(info, &c.version)) else {
            continue;
        };
        if ev.verdict.is_none() {
            continue;
        }
        if ev.shows() != shows {
            let (ours, theirs) = if shows {
                ("still shows", "no longer shows its bug")
            } else {
                ("no longer shows", "still shows its bug")
            };
            return Some(DisprovedLabel {
                id: entry.id.clone(),
                reason: format!(
                    "{} {}: this finding's program {ours} it, {}'s own program {theirs}",
                    info.tool.name(),
                    c.version,
                    entry.id
                ),
            });
        }
    }
    None
}

/// How [`finalize`] completes a run's findings.
#[derive(Clone, Debug, Default)]
pub struct FinalizeOptions {
    /// The known findings (for possible duplicates; default: the embedded ones).
    pub known: Option<KnownSet>,
    /// Maven repositories (to install javac when missing).
    pub repos: Vec<String>,
}

/// Completes the reduced programs' evidence of the run in `run` (their compiler output, and
/// javac's verdict on their Java twins, when missing) and rewrites every finding's
/// `report.md` (and its reduced program's) from its directory. Returns the reports written.
pub fn finalize(run: &Path, opts: &FinalizeOptions) -> Result<usize, RecheckError> {
    let _lock = crate::rundir::RunLock::acquire(run)?;
    let manifest = manifest(run)?;
    let known = opts.known.clone().or_else(|| KnownSet::embedded().ok());
    let ctx = RunContext::of(manifest.clone(), known);
    let dirs = finding_dirs(run, &FOLDERS, true);
    complete_reduced(run, &manifest, &dirs, opts);
    let differential = differential_by_key(run);
    let mut written = 0;
    for dir in &dirs {
        let Ok(f) = FindingFile::read(dir) else {
            continue;
        };
        let diff = differential
            .get(&f.program.key)
            .cloned()
            .unwrap_or_default();
        bugreport::write_reports(dir, &ctx, &diff)?;
        written += 1;
    }
    Ok(written)
}

/// The differential verdicts of every program with one, by program key.
fn differential_by_key(run: &Path) -> HashMap<String, Vec<super::records::DiffRef>> {
    let Ok(bytes) =
        crate::rundir::read_limited(&run.join(RESULTS), crate::rundir::MAX_RESULTS_BYTES)
    else {
        return HashMap::new();
    };
    super::store::scan_results(&bytes)
        .lines
        .into_iter()
        .filter(|(_, _, r)| !r.differential.is_empty())
        .map(|(_, _, r)| (r.key, r.differential))
        .collect()
}

/// Compiles the reduced programs that lack their compiler output with their finding's own
/// release, and their Java twins with javac; what cannot be compiled is left as it is.
fn complete_reduced(run: &Path, manifest: &Manifest, dirs: &[PathBuf], opts: &FinalizeOptions) {
    let info = &manifest.compiler;
    let mut own: Vec<(PathBuf, FindingFile, String, String)> = Vec::new();
    let mut twins: Vec<(PathBuf, FindingFile, String, String)> = Vec::new();
    for dir in dirs {
        let Ok(f) = FindingFile::read(dir) else {
            continue;
        };
        if f.compiler.tool != info.tool || f.compiler.version != info.version {
            continue;
        }
        let Some(file) = bugreport::reduced_program(dir, info.tool) else {
            continue;
        };
        let rd = dir.join(REDUCED);
        if !rd.join(REDUCED_OUTPUT).is_file() {
            if let Some(src) = bugreport::read(&rd, &file) {
                own.push((dir.clone(), f.clone(), file.clone(), src));
            }
        }
        let twin = bugreport::reduced_twin(dir, &f);
        let twin = twin.filter(|t| crate::rundir::check_name(t).is_ok());
        if let Some(t) = twin.filter(|_| !rd.join(REDUCED_TWIN).is_file()) {
            if let Some(src) = bugreport::read(&rd, &t) {
                twins.push((dir.clone(), f, t, src));
            }
        }
    }
    let Ok(work) = tempfile::Builder::new()
        .prefix(super::records::FINALIZE_DIR_PREFIX)
        .tempdir_in(run)
    else {
        return;
    };
    if !own.is_empty() {
        let tc = toolchain::list()
            .into_iter()
            .find(|t| t.tool == info.tool && t.version == info.version);
        if let Some(tc) = tc {
            let programs: Vec<(String, String)> = own
                .iter()
                .map(|(_, _, f, s)| (f.clone(), s.clone()))
                .collect();
            if let Ok(verdicts) = compile_all(
                &tc,
                &work.path().join("own"),
                &programs,
                &compile_options(info),
            ) {
                for ((dir, _, _, _), v) in own.iter().zip(&verdicts) {
                    if let Some(v) = v {
                        let text = match v {
                            Verdict::Accepted => "(accepted without diagnostics)\n".to_string(),
                            Verdict::Rejected { diagnostics } => diagnostics.join("\n") + "\n",
                            Verdict::Crash { output, .. } => output.clone(),
                            Verdict::Timeout => "(no verdict within the per-file budget)\n".into(),
                        };
                        let text = bugreport::scrub(&text);
                        let _ = write_atomic(&dir.join(REDUCED).join(REDUCED_OUTPUT), &text);
                    }
                }
            }
        }
    }
    if !twins.is_empty() {
        let javac = toolchain::find("javac")
            .or_else(|_| toolchain::install(Tool::Javac, None, &opts.repos, false));
        if let Ok(javac) = javac {
            let programs: Vec<(String, String)> = twins
                .iter()
                .map(|(_, _, f, s)| (f.clone(), s.clone()))
                .collect();
            let jopts = CompileOptions {
                classpath: info.classpath.clone(),
                ..compile_options(info)
            };
            let jopts = CompileOptions {
                flags: Vec::new(),
                ..jopts
            };
            if let Ok(verdicts) = compile_all(&javac, &work.path().join("twins"), &programs, &jopts)
            {
                for ((dir, f, file, src), v) in twins.iter().zip(&verdicts) {
                    let Some(v) = v else {
                        continue;
                    };
                    let status = match f.kind {
                        super::finding::FindingKind::RejectedElsewhere => {
                            Some(elsewhere_status(v, src))
                        }
                        k if super::finding::twin_applies(k) => {
                            Some(super::finding::TwinStatus::of(f.expected, v))
                        }
                        _ => None,
                    };
                    let message = match v {
                        Verdict::Rejected { diagnostics } => Some(
                            diagnostics
                                .iter()
                                .take(3)
                                .map(|d| bugreport::scrub(d))
                                .collect::<Vec<_>>()
                                .join("\n"),
                        ),
                        _ => None,
                    };
                    let rt = ReducedTwin {
                        file: file.clone(),
                        verdict: v.label().to_string(),
                        message,
                        status,
                    };
                    if let Ok(text) = serde_json::to_string_pretty(&rt) {
                        let _ = write_atomic(&dir.join(REDUCED).join(REDUCED_TWIN), &(text + "\n"));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding of `groovy@1.0.0` labelled `K1`, a rejection.
    fn labelled_finding() -> FindingFile {
        serde_json::from_value(serde_json::json!({
            "signature": "unexpected-rejection-groovy-0000000000000001",
            "signature_text": "groovy unexpected-rejection: [Static type checking] - x",
            "kind": "unexpected-rejection",
            "compiler": {"tool": "groovy", "version": "1.0.0", "mode": "process"},
            "program": {
                "key": "well-typed/r0/p000001", "id": "p000001", "mode": "well-typed",
                "round": 0, "file": "Test_p000001.groovy", "regenerate": null,
                "record": {
                    "id": "p000001", "file": "", "member": "", "class": "", "kind": "method",
                    "typing_sequence": {"receiver": null, "args": [], "result": null},
                    "substitution": {}, "mode": "well-typed", "expected": "accept",
                    "broken": null, "erased": false
                }
            },
            "expected": "accept",
            "actual": "rejected",
            "exit": null,
            "twin": null,
            "known": {"id": "K1", "title": "a known bug"},
            "intended": null,
            "cluster": null
        }))
        .expect("a finding")
    }

    #[test]
    fn a_known_label_is_taken_back_when_the_entrys_program_behaves_otherwise_on_a_release() {
        let run = tempfile::tempdir().expect("tempdir");
        let mut known = KnownSet::default();
        known
            .add_text(
                "[[finding]]\nid = \"K1\"\ncompiler = \"groovy\"\ntitle = \"a known bug\"\nkind = \"unexpected-rejection\"\nsignatures = [\"groovy unexpected-rejection: *\"]\nprogram = \"class Main {}\"\n",
                "test",
            )
            .expect("an entry");
        let entry = known.entries().next().expect("K1").clone();
        let info: CompilerInfo = serde_json::from_value(serde_json::json!({
            "tool": "groovy", "version": "1.0.0", "coordinate": "org.apache.groovy:groovy:1.0.0",
            "mode": "process", "command": [], "classpath": null, "timeout_seconds": 10.0
        }))
        .expect("compiler info");
        // the entry's program, as kept by an earlier compilation: it shows its bug on 2.0.0
        // and no longer on 3.0.0
        let verdict = |shows: bool| super::super::known::EntryVerdict {
            key: entry.evidence_key(),
            verdict: Some(if shows { "rejected" } else { "accepted" }.into()),
            kind: shows.then_some(super::super::FindingKind::UnexpectedRejection),
            signature: None,
            diagnostic: None,
            error: None,
        };
        let cache = serde_json::json!({
            "groovy@2.0.0": {"K1": verdict(true)},
            "groovy@3.0.0": {"K1": verdict(false)},
        });
        std::fs::write(
            run.path().join(super::super::evidence::EVIDENCE_FILE),
            cache.to_string(),
        )
        .expect("write the evidence");
        let evidence = CompiledEvidence::new(run.path(), &[]);
        let item = || Item {
            dir: run.path().join("known/x"),
            finding: labelled_finding(),
            file: "Test_p000001.groovy".into(),
            source: String::new(),
            reduced: false,
            checks: BTreeMap::new(),
        };
        let status = |shows_on_3: bool| ReleaseStatus {
            state: if shows_on_3 {
                StatusState::Open
            } else {
                StatusState::Fixed
            },
            program: "original".into(),
            newest: Some("3.0.0".into()),
            newest_pre_release: None,
            open_on: Vec::new(),
            fixed_in: None,
            last_affected: None,
            checks: [("2.0.0", true), ("3.0.0", shows_on_3)]
                .into_iter()
                .map(|(v, shows)| ReleaseCheck {
                    version: v.into(),
                    pre_release: false,
                    verdict: Some(if shows { "rejected" } else { "accepted" }.into()),
                    shows: Some(shows),
                    same_signature: Some(shows),
                    diagnostic: None,
                    error: None,
                })
                .collect(),
            note: None,
            checked_at: 0.0,
        };
        // fixed on 3.0.0 like the entry's program: the same bug, the label stays
        assert_eq!(
            disprove(&item(), &status(false), &known, &evidence, &info),
            None
        );
        // still there on 3.0.0 where the entry's program no longer shows its bug: another bug
        let d = disprove(&item(), &status(true), &known, &evidence, &info)
            .expect("the label taken back");
        assert_eq!(d.id, "K1");
        assert!(d.reason.contains("groovy 3.0.0"), "{}", d.reason);
    }

    #[test]
    fn the_newest_pre_release_is_newer_than_the_newest_release() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let rules = crate::profile::VersionRules::LATEST_STABLE;
        let versions = v(&[
            "5.1.3",
            "6.0.0-alpha-1",
            "6.0.0",
            "6.1.0-SNAPSHOT",
            "5.2.0-beta-1",
            "6.1.0-rc-1",
        ]);
        assert_eq!(
            newest_pre_release(&versions, &rules, "6.0.0").as_deref(),
            Some("6.1.0-rc-1")
        );
        assert_eq!(newest_pre_release(&versions, &rules, "7.0.0"), None);
        let scala2 = crate::profile::VersionRules {
            unstable_markers: &crate::profile::UNSTABLE_MARKERS,
            default_series: Some("2.13."),
        };
        let versions = v(&["2.13.18", "2.13.19-RC1", "3.0.0-RC1"]);
        assert_eq!(
            newest_pre_release(&versions, &scala2, "2.13.18").as_deref(),
            Some("2.13.19-RC1")
        );
    }
}
