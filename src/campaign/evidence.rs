//! Evidence for known labels: a known entry's own program (`known-findings/`) compiled with a
//! compiler release when a finding first needs it, and kept in the run directory
//! ([`EVIDENCE_FILE`], by compiler and entry) so that a resumed run and the recheck reuse it,
//! and beside the toolchains ([`SHARED_DIR`], by release, classpath and flags) so that the
//! next campaigns on the release do not start its compiler again for the same entry.
//! The judge labels a finding known only when the entry's program shows the bug the same way
//! on the finding's release ([`super::known::confirms`]).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::judge::judge;
use super::known::{EntryVerdict, Evidence, KnownEntry};
use super::records::write_atomic;
use super::signature::signature;
use crate::compile::{CompileOptions, Compiler, Mode, Verdict};
use crate::synth::ProgramRecord;
use crate::toolchain::Toolchain;

/// The file of a run directory that keeps the known entries' verdicts, by compiler label
/// (`groovy@4.0.11`) and entry id.
pub const EVIDENCE_FILE: &str = "known-evidence.json";

/// The directory under the toolchains' where the entries' verdicts are shared between runs:
/// one file per compiler label, classpath and flags.
pub const SHARED_DIR: &str = ".evidence";

/// The characters of a diagnostic kept with an entry's verdict.
const KEPT_CHARS: usize = 400;

/// The verdicts kept: by compiler label, then entry id.
type Cache = BTreeMap<String, BTreeMap<String, EntryVerdict>>;

/// Known entries' programs compiled with the run's compilers, on demand.
pub struct CompiledEvidence {
    run: PathBuf,
    repos: Vec<String>,
    compilers: Mutex<HashMap<String, (Toolchain, CompileOptions)>>,
    cache: Mutex<Cache>,
}

impl std::fmt::Debug for CompiledEvidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledEvidence")
            .field("run", &self.run)
            .finish_non_exhaustive()
    }
}

/// An empty program record: an entry's program has none (its signature is the compiler's
/// message or stack, which need none).
fn empty_record() -> Option<ProgramRecord> {
    serde_json::from_value(serde_json::json!({
        "id": "known", "file": "", "member": "", "class": "", "kind": "method",
        "typing_sequence": {"receiver": null, "args": [], "result": null},
        "substitution": {}, "mode": "well-typed", "expected": "accept",
        "broken": null, "erased": false
    }))
    .ok()
}

/// What an entry's program gave: its verdict against the entry's expectation, and the
/// signature of a rejection or a crash.
pub fn entry_verdict(
    entry: &KnownEntry,
    tool: crate::toolchain::Tool,
    v: &Verdict,
) -> EntryVerdict {
    let kind = judge(entry.expected(), v);
    let sig = match (kind, v) {
        (Some(k), Verdict::Rejected { .. } | Verdict::Crash { .. }) => {
            empty_record().map(|r| signature(tool, k, v, &r).text)
        }
        _ => None,
    };
    EntryVerdict {
        key: entry.evidence_key(),
        verdict: Some(v.label().to_string()),
        kind,
        signature: sig,
        diagnostic: match v {
            Verdict::Rejected { diagnostics } => diagnostics
                .first()
                .map(|d| super::bugreport::scrub(&d.chars().take(KEPT_CHARS).collect::<String>())),
            Verdict::Crash { output, .. } => Some(super::bugreport::scrub(
                &output.chars().take(KEPT_CHARS).collect::<String>(),
            )),
            _ => None,
        },
        error: None,
    }
}

impl CompiledEvidence {
    /// The evidence of the run in `run` (its kept verdicts read), resolving the entries'
    /// libraries through `repos`.
    pub fn new(run: &Path, repos: &[String]) -> CompiledEvidence {
        let cache: Cache = crate::rundir::read_to_string_limited(
            &run.join(EVIDENCE_FILE),
            crate::rundir::MAX_JSON_BYTES,
        )
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
        CompiledEvidence {
            run: run.to_path_buf(),
            repos: repos.to_vec(),
            compilers: Mutex::new(HashMap::new()),
            cache: Mutex::new(cache),
        }
    }

    /// Adds the compiler `label` (`groovy@4.0.11`, `kotlin@2.4.21:k1`): its toolchain and how
    /// the campaign compiles (classpath, time budget, a variant's flags).
    pub fn add_compiler(&self, label: &str, tc: Toolchain, opts: CompileOptions) {
        self.compilers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(label.to_string(), (tc, opts));
    }

    /// Compiles `entry`'s program with `tc` in a fresh directory.
    fn compile(&self, entry: &KnownEntry, tc: &Toolchain, opts: &CompileOptions) -> EntryVerdict {
        let failed = |error: String| EntryVerdict {
            key: entry.evidence_key(),
            verdict: None,
            kind: None,
            signature: None,
            diagnostic: None,
            error: Some(error),
        };
        let mut opts = opts.clone();
        if !entry.libraries.is_empty() {
            match crate::toolchain::library_jars(&entry.libraries, &self.repos, false) {
                Ok(jars) => {
                    let mut all: Vec<PathBuf> = opts
                        .classpath
                        .as_deref()
                        .map(|cp| std::env::split_paths(cp).collect())
                        .unwrap_or_default();
                    all.extend(jars);
                    opts.classpath = std::env::join_paths(&all)
                        .ok()
                        .map(|p| p.to_string_lossy().into_owned());
                }
                Err(e) => return failed(format!("its libraries: {e}")),
            }
        }
        let work = match tempfile::Builder::new()
            .prefix(super::records::EVIDENCE_DIR_PREFIX)
            .tempdir_in(&self.run)
        {
            Ok(w) => w,
            Err(e) => return failed(format!("a temporary directory: {e}")),
        };
        let file = format!("Main.{}", tc.tool.profile().extension);
        let path = work.path().join(&file);
        let classes = work.path().join("classes");
        if let Err(e) =
            std::fs::create_dir_all(&classes).and_then(|()| std::fs::write(&path, &entry.program))
        {
            return failed(e.to_string());
        }
        let mut compiler = Compiler::new(tc, Mode::Process);
        match compiler.compile_batch(std::slice::from_ref(&path), &classes, &opts) {
            Ok(r) => match r.verdicts.get(&file) {
                Some(v) => entry_verdict(entry, tc.tool, v),
                None => failed(format!("no verdict for {file}")),
            },
            Err(e) => failed(e.to_string()),
        }
    }
}

/// The file of the verdicts shared between runs for compiler `label` (`tc`) with `opts`'s
/// classpath and flags: the same entry's program on the same release gives the same verdict.
fn shared_file(label: &str, tc: &Toolchain, opts: &CompileOptions) -> PathBuf {
    let what = format!(
        "{}\u{0}{}\u{0}{:?}\u{0}{:?}\u{0}{}",
        tc.java.display(),
        tc.main_class,
        tc.classpath,
        opts.classpath,
        opts.flags.join("\u{0}")
    );
    let hash = crate::hash::fnv1a64(what.as_bytes());
    let name: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    crate::toolchain::toolchains_dir()
        .join(SHARED_DIR)
        .join(format!("{name}-{hash:016x}.json"))
}

impl Evidence for CompiledEvidence {
    fn verdict(&self, entry: &KnownEntry, label: &str) -> Option<EntryVerdict> {
        if entry.program.trim().is_empty() {
            return None;
        }
        let key = entry.evidence_key();
        // one at a time: a finding waits for the evidence another is computing
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = cache.get(label).and_then(|m| m.get(&entry.id)) {
            if v.key == key {
                return Some(v.clone());
            }
        }
        let compiler = self
            .compilers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(label)
            .cloned();
        let (tc, opts) = compiler?;
        let shared = shared_file(label, &tc, &opts);
        let mut others: BTreeMap<String, EntryVerdict> =
            crate::rundir::read_to_string_limited(&shared, crate::rundir::MAX_JSON_BYTES)
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_default();
        let v = match others.get(&entry.id).filter(|v| v.key == key) {
            Some(v) => v.clone(),
            None => {
                let v = self.compile(entry, &tc, &opts);
                // a verdict, not a failure to get one, is shared (a cache: failing to write
                // it only means compiling again)
                if v.error.is_none() {
                    others.insert(entry.id.clone(), v.clone());
                    if let (Ok(text), Some(dir)) =
                        (serde_json::to_string_pretty(&others), shared.parent())
                    {
                        let _ = std::fs::create_dir_all(dir);
                        let _ = write_atomic(&shared, &(text + "\n"));
                    }
                }
                v
            }
        };
        cache
            .entry(label.to_string())
            .or_default()
            .insert(entry.id.clone(), v.clone());
        // a cache: failing to keep it only means compiling again next time
        if let Ok(text) = serde_json::to_string_pretty(&*cache) {
            let _ = write_atomic(&self.run.join(EVIDENCE_FILE), &(text + "\n"));
        }
        Some(v)
    }
}
