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

use serde_json::Value;

use super::candidate::Candidate;
use super::finding::FindingKind;
use super::judge::{Finding, Judgement};
use crate::compile::Verdict;

use super::records::io;

pub use super::identity::first_difference;
pub use super::records::{
    CompilerInfo, DiffRef, FindingCompiler, FindingFile, FindingProgram, FindingRef, FindingTwin,
    IntendedLabel, KnownLabel, Manifest, ResultLine, Session, StoreError, BUGS, INTENDED,
    KEPT_VARIANTS, KNOWN, MANIFEST, PROGRAM_IR, QUARANTINE, RESULTS, SUSPECTS, VARIANTS,
};

/// Verdict labels a results line may carry.
const VERDICTS: [&str; 4] = ["accepted", "rejected", "crash", "timeout"];

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
    found: Vec<super::feedback::Found>,
    session_start: Instant,
    recovered_lines: usize,
    context: std::sync::OnceLock<super::bugreport::RunContext>,
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
        let mut found = Vec::new();
        for (_, _, r) in &scan.lines {
            if let Some(f) = &r.finding {
                found.push(super::feedback::Found {
                    key: r.key.clone(),
                    member: r.member.clone(),
                    family: f.signature.clone(),
                });
            }
            let own = r.finding.iter();
            let others = r.differential.iter().filter_map(|d| d.finding.as_ref());
            for f in own.chain(others) {
                // where its directory is now (the recheck may have moved it)
                *counts.entry(super::records::locate(dir, f)).or_default() += 1;
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
            found,
            session_start: Instant::now(),
            recovered_lines,
            context: std::sync::OnceLock::new(),
            _lock: lock,
        };
        store.checkpoint()?;
        Ok(store)
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

    /// The known labels of the signatures stored so far (`None`: stored as new, in `bugs/`),
    /// keyed as [`super::judge::PinnedLabels`]: a resumed run keeps one label per signature.
    pub fn pinned_labels(&self) -> super::judge::PinnedLabels {
        let mut out = super::judge::PinnedLabels::new();
        for folder in [BUGS, KNOWN] {
            for e in fs::read_dir(self.dir.join(folder))
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let path = e.path();
                if let Ok(f) = FindingFile::read(&path) {
                    out.insert(name, f.known);
                    continue;
                }
                // another compiler's findings: `<folder>/<label>/<signature>/`
                for s in fs::read_dir(&path).into_iter().flatten().flatten() {
                    if let Ok(f) = FindingFile::read(&s.path()) {
                        let sig = s.file_name().to_string_lossy().into_owned();
                        out.insert(format!("{name}/{sig}"), f.known);
                    }
                }
            }
        }
        out
    }

    /// The finding programs of the earlier sessions, in the order they were recorded (what
    /// a resumed run's feedback starts from).
    pub fn found_before(&self) -> &[super::feedback::Found] {
        &self.found
    }

    /// The share of the largest family (the finding programs of one signature) among all
    /// finding programs recorded, 0 without findings.
    pub fn largest_family_share(&self) -> f64 {
        super::feedback::largest_share(self.counts.values())
    }

    /// Findings recorded, and distinct signatures among them.
    pub fn findings(&self) -> (u64, usize) {
        (self.counts.values().sum(), self.counts.len())
    }

    /// Keeps what `judgement` (of `cand`'s `verdict`, and javac's `twin` verdict on its Java
    /// twin) says: a new finding's directory (of the compiler under test, or of another
    /// compiler that disagrees), an example of a known signature's variant, and the program's
    /// results line, appended.
    pub fn record(
        &mut self,
        cand: &Candidate,
        verdict: &Verdict,
        seconds: f64,
        twin: Option<&Verdict>,
        judgement: &Judgement,
    ) -> Result<ResultLine, StoreError> {
        let mut differential = Vec::with_capacity(judgement.differential.len());
        for d in &judgement.differential {
            let label = d.compiler.label();
            let finding = match &d.finding {
                Some(f) => Some(self.keep_other(cand, &d.verdict, &d.compiler, &label, f)?),
                None => None,
            };
            differential.push(DiffRef {
                against: label,
                verdict: d.verdict.label().into(),
                kind: d.kind,
                finding,
                intended: d.intended.as_ref().map(|i| i.id.clone()),
            });
        }
        let finding = match &judgement.finding {
            Some(f) => {
                let key = format!("{}/{}", f.folder, f.signature.dir);
                let bug = self.dir.join(&key);
                let first = if self.counts.contains_key(&key) {
                    self.keep_variant(&bug, cand, verdict)?;
                    false
                } else if bug.exists() {
                    // written just before a kill, for this program (judged again now)?
                    FindingFile::read(&bug).is_ok_and(|ff| ff.program.key == cand.key)
                } else {
                    let compiler = self.manifest.compiler.clone();
                    self.write_bug(&bug, f, cand, verdict, twin, &compiler, &differential)?;
                    true
                };
                *self.counts.entry(key).or_default() += 1;
                Some(FindingRef {
                    kind: f.kind,
                    signature: f.signature.dir.clone(),
                    first,
                    twin: f.twin,
                    known: f.known.as_ref().map(|k| k.id.clone()),
                    intended: f.intended.as_ref().map(|i| i.id.clone()),
                    twin_reason: f.twin_reason.clone(),
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
            run: judgement.run.clone(),
            flags: cand.record.flags.clone(),
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

    /// Keeps the finding `f` of the other compiler `info` (labelled `label`), which gave
    /// `other` on `cand`: its directory, `<folder>/<label>/<signature>/`, when it is new.
    fn keep_other(
        &mut self,
        cand: &Candidate,
        other: &Verdict,
        info: &CompilerInfo,
        label: &str,
        f: &Finding,
    ) -> Result<FindingRef, StoreError> {
        let key = format!("{}/{label}/{}", f.folder, f.signature.dir);
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
            self.write_bug(&bug, f, &seen, other, None, info, &[])?;
        }
        *self.counts.entry(key).or_default() += 1;
        Ok(FindingRef {
            kind: f.kind,
            signature: format!("{label}/{}", f.signature.dir),
            first,
            twin: f.twin,
            known: f.known.as_ref().map(|k| k.id.clone()),
            intended: f.intended.as_ref().map(|i| i.id.clone()),
            twin_reason: f.twin_reason.clone(),
        })
    }

    /// Writes the directory `bug` of the finding `f` of compiler `c` on `cand`.
    #[allow(clippy::too_many_arguments)]
    fn write_bug(
        &self,
        bug: &Path,
        f: &Finding,
        cand: &Candidate,
        verdict: &Verdict,
        twin: Option<&Verdict>,
        c: &CompilerInfo,
        differential: &[DiffRef],
    ) -> Result<(), StoreError> {
        let (sig, kind) = (&f.signature, f.kind);
        // the command with the program's flags, as it was compiled
        let c = &super::flags::with_flags(c, &cand.record.flags);
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
        // the file a report attaches: no local path in it
        write("compiler-output.txt", &super::bugreport::scrub(&output))?;
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
            twin: f.twin_file.clone(),
            known: f.known.clone(),
            intended: f.intended.clone(),
            cluster: None,
            status: None,
            known_disproved: None,
            run: f.run.clone(),
        };
        let context = self.context.get_or_init(|| {
            super::bugreport::RunContext::of(
                self.manifest.clone(),
                super::known::KnownSet::embedded().ok(),
            )
        });
        let parts = super::bugreport::Parts {
            file: cand.file.clone(),
            source: cand.source.clone(),
            output: output.clone(),
            twin: cand
                .twin
                .as_ref()
                .map(|t| (t.file.clone(), t.source.clone())),
            twin_verdict: f
                .twin_file
                .as_ref()
                .filter(|_| twin.is_some())
                .and_then(|t| t.verdict.clone().map(|v| (v, t.message.clone(), t.status))),
            differential: differential.to_vec(),
            ..super::bugreport::Parts::default()
        };
        let report = super::bugreport::print(
            &super::bugreport::blocks(&finding, &parts, context),
            super::bugreport::Format::Markdown,
        );
        write("report.md", &report)?;
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
        let deps = ProgramClasspath::of(c, &context.dependencies, &cand.source);
        fs::write(
            &repro,
            repro_script(c, kind, cand, verdict, &sig.text, &deps),
        )
        .map_err(io(&repro))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&repro, fs::Permissions::from_mode(0o755)).map_err(io(&repro))?;
        }
        publish(&tmp, bug)
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

/// What a finding's program needs on its classpath, for its `repro.sh`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ProgramClasspath {
    /// The JDK and the language's own library only.
    Nothing,
    /// These Maven coordinates with their dependencies.
    Coordinates(Vec<String>),
    /// A classpath the campaign was given by hand (no coordinates known).
    ByHand,
}

impl ProgramClasspath {
    /// What the program `source`, compiled by `c` in a run whose API comes from the
    /// coordinates `deps`, needs on its classpath: nothing when the campaign gave it none or
    /// the program names no class of them ([`super::bugreport::uses_no_dependency`]).
    pub(crate) fn of(c: &CompilerInfo, deps: &[String], source: &str) -> ProgramClasspath {
        if c.classpath.is_none() || super::bugreport::uses_no_dependency(source) {
            ProgramClasspath::Nothing
        } else if deps.is_empty() {
            ProgramClasspath::ByHand
        } else {
            ProgramClasspath::Coordinates(deps.to_vec())
        }
    }
}

/// The compiler's own arguments of `c` that `thalia toolchain exec` does not add itself (its
/// launch prefix), with every programs' classpath flag and its value left out.
fn compiler_arguments(c: &CompilerInfo) -> Vec<String> {
    let prefix = match c.tool.profile().launch {
        crate::profile::Launch::Jvm { prefix, .. } => prefix.len(),
        crate::profile::Launch::JdkExecutable => 0,
    };
    let mut out = Vec::new();
    let mut args = c.own_arguments().iter().skip(prefix);
    while let Some(a) = args.next() {
        if c.is_classpath_flag(a) {
            args.next();
            continue;
        }
        out.push(a.clone());
    }
    out
}

/// `repro.sh`'s classpath lines for a program that needs no library.
const NO_CLASSPATH: &str =
    "# The program needs nothing on its classpath but the JDK and the language's library;\n\
                            # PROGRAM_CP adds to it.\n";

/// `repro.sh`'s classpath lines for a campaign given its classpath by hand.
const CLASSPATH_BY_HAND: &str = "# The campaign was given the programs' classpath by hand (`--classpath`): PROGRAM_CP\n\
                                 # must give it.\n\
                                 if [ -z \"${PROGRAM_CP+set}\" ]; then echo 'set PROGRAM_CP to the program'\\''s classpath' >&2; exit 2; fi\n";

/// A shell script that compiles the program in a fresh process and exits 0 when the finding
/// reproduces, 1 when it does not, 2 when the compiler cannot be run. It names no local path:
/// the compiler is run by `thalia toolchain exec` (installed through the user's Maven
/// configuration when missing) unless `COMPILER` gives another command, and the programs'
/// classpath is `deps` (coordinates; empty when the program needs none) resolved by `thalia
/// fetch --classpath-only` unless `PROGRAM_CP` gives it.
pub(crate) fn repro_script(
    c: &CompilerInfo,
    kind: FindingKind,
    cand: &Candidate,
    verdict: &Verdict,
    signature: &str,
    deps: &ProgramClasspath,
) -> String {
    let profile = c.tool.profile();
    let words: Vec<String> = compiler_arguments(c)
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
    // the programs' classpath goes where the profile puts it: after the leading flags
    let at = profile.flags.leading.len().min(words.len());
    let mut words = words;
    words.insert(
        at,
        format!(
            "${{PROGRAM_CP:+{} \"$PROGRAM_CP\"}}",
            profile.flags.classpath
        ),
    );
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
        FindingKind::Miscompilation | FindingKind::Unsoundness => (
            "[ \"$code\" -eq 0 ]".to_string(),
            "the compiler accepts the program (`thalia run-program` runs it: see finding.json's `run`)",
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
    let spec = sh_quote(&format!("{}@{}", c.tool.name(), c.version));
    let from = c
        .coordinate
        .as_deref()
        .map_or("the JDK".to_string(), |m| format!("Maven: {m}"));
    // another machine's JDK is another release: the installed javac runs, with a note
    let (install, fallback) = match profile.install {
        crate::profile::Install::Jdk { .. } => (
            sh_quote(c.tool.name()),
            format!(
                "\x20   echo \"note: {tool} {version} is not installed here; running the installed {tool}\" >&2\n\
                 \x20   spec={tool}\n",
                tool = c.tool.name(),
                version = c.version,
            ),
        ),
        crate::profile::Install::Maven(_) => (spec.clone(), String::new()),
    };
    let install = format!(
        "  if ! \"$THALIA\" toolchain classpath {spec} >/dev/null 2>&1; then\n\
         \x20   \"$THALIA\" toolchain install {install} >&2 || {{ echo \"cannot install {install} with $THALIA: set THALIA or COMPILER\" >&2; exit 2; }}\n\
         {fallback}\
         \x20 fi\n"
    );
    let classpath = match deps {
        ProgramClasspath::Nothing => NO_CLASSPATH.to_string(),
        ProgramClasspath::ByHand => CLASSPATH_BY_HAND.to_string(),
        ProgramClasspath::Coordinates(deps) => {
            let coords: Vec<String> = deps.iter().map(|d| sh_quote(d)).collect();
            format!(
                "# The program's classpath: {deps} with {their} dependencies,\n\
                 # resolved by `thalia fetch --classpath-only`; PROGRAM_CP gives it instead.\n\
                 if [ -z \"${{PROGRAM_CP+set}}\" ]; then\n\
                 \x20 PROGRAM_CP=$(\"$THALIA\" fetch --classpath-only --for {tool} {coords}) || {{ echo \"cannot resolve the program's classpath with $THALIA: set THALIA or PROGRAM_CP\" >&2; exit 2; }}\n\
                 fi\n",
                deps = deps.join(", "),
                their = if deps.len() == 1 { "its" } else { "their" },
                tool = c.tool.name(),
                coords = coords.join(" "),
            )
        }
    };
    format!(
        "#!/bin/sh\n\
         # Reproduces a thalia finding with {tool} {version}: {signature}\n\
         # Program {key} ({member}): expected {expected}, thalia saw {actual}.\n\
         # Compiler flags: {flags}.\n\
         # Exit status 0: the finding reproduces ({expect});\n\
         # 1: it does not; 2: the compiler could not be run.\n\
         # The compiler is {tool} {version} ({from}), run by\n\
         # `thalia toolchain exec` (installed through your Maven configuration when missing).\n\
         # THALIA names the thalia binary (default: thalia on PATH); COMPILER, another command\n\
         # that runs {executable} {version}.\n\
         cd \"$(dirname \"$0\")\" || exit 2\n\
         out=$(mktemp -d) || exit 2\n\
         trap 'rm -rf \"$out\"' EXIT\n\
         THALIA=${{THALIA:-thalia}}\n\
         {classpath}\
         if [ -n \"${{COMPILER:-}}\" ]; then\n\
         \x20 set -- $COMPILER\n\
         else\n\
         \x20 spec={spec}\n\
         {install}\
         \x20 set -- \"$THALIA\" toolchain exec \"$spec\" --\n\
         fi\n\
         {timeout}\"$@\" {cmd} >\"$out/output.txt\" 2>&1\n\
         code=$?\n\
         cat \"$out/output.txt\"\n\
         echo \"exit code: $code\"\n\
         if {check}; then\n  echo 'REPRODUCED: {kind}'\n  exit 0\nfi\n\
         echo 'NOT REPRODUCED: {kind}'\n\
         exit 1\n",
        tool = c.tool.name(),
        version = c.version,
        executable = profile.executable,
        key = cand.key,
        member = cand.record.member.replace('\n', " "),
        expected = cand.expected.as_str(),
        actual = verdict.label(),
        cmd = words.join(" "),
        kind = kind.as_str(),
        flags = super::flags::label(&super::flags::for_compiler(c, &cand.record.flags)),
    )
}

/// The run directory above a finding's directory `bug` (the nearest with a manifest) and its
/// manifest, or what is wrong with them.
pub fn finding_run(bug: &Path) -> Result<(PathBuf, Manifest), String> {
    // `.` or `../x` from inside a run: its ancestors are those of the absolute path
    let absolute = fs::canonicalize(bug).unwrap_or_else(|_| bug.to_path_buf());
    let run = absolute
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
}
