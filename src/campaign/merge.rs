//! `thalia merge RUN... --out MERGED`: the run directories of a campaign's shards (see
//! [`super::shard`]) joined into one run directory that `thalia report`, `thalia reduce` and
//! `thalia bisect` read like any other.
//!
//! - every program once: the `results.jsonl` lines of all parts, ordered by round, program
//!   id and key (a program in two parts is an error: the parts overlap);
//! - findings deduplicated by signature: each finding's directory is copied once, from the
//!   part with the earliest program that hit it (its `first` line), with the variants of the
//!   other parts added up to [`KEPT_VARIANTS`]; counts are the lines', so they add up;
//! - one manifest: the campaign's identity (without a shard), every part's sessions, and
//!   `merged`, the parts with their shards and programs; `census.json` summed;
//! - parts of different campaigns (identities that differ other than in the shard), the same
//!   shard twice and shards of different splits are refused, naming the directories.
//!
//! The merged directory is built under a temporary name beside `MERGED` and renamed into
//! place, so an interrupted merge leaves the old `MERGED` (or none) and rerunning it is safe;
//! the output depends only on the parts, so a rerun gives the same bytes. An existing
//! `MERGED` is replaced only when it is an earlier merge (or an empty directory). One merge
//! into a given `MERGED` at a time: a merge holds `MERGED`'s lock ([`RunLock`]) and removes
//! the temporary directories it finds beside it (left by killed merges); the parts are read
//! under a shared lock, so a part that a run still writes is refused.
//!
//! The parts are data, not trusted: a signature on a results line must be a plain name
//! (such lines are left out with a warning, see [`super::store::parse_result_line`]), a
//! finding's directory is copied only when it is a real directory (never through a symbolic
//! link), links inside it are not copied, and files are read with the size limits of
//! [`crate::rundir`].

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::shard::Shard;
use super::store::{
    first_difference, scan_results, FindingFile, Manifest, ResultLine, StoreError, KEPT_VARIANTS,
    MANIFEST, MAX_SIGNATURE_COMPONENTS, RESULTS, VARIANTS,
};
use crate::rundir::{self, LockError, RunLock, UnsafeName, LOCK_FILE};
use crate::synth::census::Census;

pub use super::records::MergedPart;

/// Why a merge cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A part's store cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A part or the output is in use by another process.
    #[error(transparent)]
    Locked(#[from] LockError),
    /// A name read from a part is not a plain file name.
    #[error(transparent)]
    UnsafeName(#[from] UnsafeName),
    /// No run directory was given.
    #[error("give the run directories of the shards to merge")]
    NoRuns,
    /// Two parts are runs of different campaigns.
    #[error("{a} and {b} are runs of different campaigns ({field} is {was} in the first, {now} in the second): only shards of one campaign merge")]
    DifferentCampaigns {
        /// One part.
        a: PathBuf,
        /// The other.
        b: PathBuf,
        /// The first field of their identities that differs.
        field: String,
        /// Its value in `a`.
        was: String,
        /// Its value in `b`.
        now: String,
    },
    /// Two parts hold the same shard (or one holds the whole campaign).
    #[error("{a} and {b} both hold {what}: each shard merges once")]
    DuplicateShard {
        /// One part.
        a: PathBuf,
        /// The other.
        b: PathBuf,
        /// The shard they share.
        what: String,
    },
    /// Two parts are shards of different splits (`1/2` and `1/4`).
    #[error("{a} is shard {sa} and {b} is shard {sb}: shards of different splits overlap and do not merge")]
    MixedSplits {
        /// One part.
        a: PathBuf,
        /// Its shard.
        sa: Shard,
        /// The other.
        b: PathBuf,
        /// Its shard.
        sb: Shard,
    },
    /// A program has results in two parts.
    #[error("{key} has results in both {a} and {b}: the parts overlap")]
    DuplicateProgram {
        /// The program's key.
        key: String,
        /// One part.
        a: PathBuf,
        /// The other.
        b: PathBuf,
    },
    /// The output is one of the parts.
    #[error("--out {0} is one of the runs to merge: give another directory")]
    OutIsPart(PathBuf),
    /// The output exists and is not an earlier merge.
    #[error("{0} exists and is not a merged run (its manifest.json has no `merged`): give another --out, or remove it")]
    OutExists(PathBuf),
}

/// What a merge did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MergeOutcome {
    /// The merged run directory.
    pub dir: PathBuf,
    /// The parts merged, as recorded in the manifest.
    pub parts: Vec<MergedPart>,
    /// Programs in the merged run.
    pub programs: u64,
    /// Findings (programs with one), and distinct findings (directories).
    pub findings: u64,
    /// Distinct findings.
    pub distinct: u64,
    /// Unreadable `results.jsonl` lines of the parts that were left out, one warning each.
    pub warnings: Vec<String>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads a run directory's manifest.
fn read_manifest(dir: &Path) -> Result<Manifest, StoreError> {
    let path = dir.join(MANIFEST);
    let text = rundir::read_to_string_limited(&path, rundir::MAX_JSON_BYTES).map_err(io(&path))?;
    serde_json::from_str(&text).map_err(|e| StoreError::Manifest {
        path,
        message: e.to_string(),
    })
}

/// One part as read: its directory, manifest, and what it holds.
struct Part {
    dir: PathBuf,
    manifest: Manifest,
    holds: Vec<MergedPart>,
    /// Keeps writers out while the part is read.
    _lock: RunLock,
}

/// The order of results lines in a merged run: round, program id, key.
fn line_order(r: &ResultLine) -> (u64, String, String) {
    (r.round, r.id.clone(), r.key.clone())
}

/// Merges the run directories `runs` into `out` (see the module docs).
pub fn merge(runs: &[PathBuf], out: &Path) -> Result<MergeOutcome, MergeError> {
    if runs.is_empty() {
        return Err(MergeError::NoRuns);
    }
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let out_canon = canon(out);
    let mut parts = Vec::new();
    for dir in runs {
        if canon(dir) == out_canon {
            return Err(MergeError::OutIsPart(dir.clone()));
        }
        let lock = RunLock::acquire_shared(dir)?;
        let manifest = read_manifest(dir)?;
        let holds = if manifest.merged.is_empty() {
            vec![MergedPart {
                dir: dir.display().to_string(),
                shard: manifest.identity.shard(),
                programs: manifest.sessions.iter().map(|s| s.programs).sum(),
            }]
        } else {
            manifest.merged.clone()
        };
        parts.push(Part {
            dir: dir.clone(),
            manifest,
            holds,
            _lock: lock,
        });
    }
    // one campaign
    let campaign = parts[0].manifest.identity.campaign();
    for p in &parts[1..] {
        if let Some((field, was, now)) =
            first_difference(&campaign, &p.manifest.identity.campaign())
        {
            return Err(MergeError::DifferentCampaigns {
                a: parts[0].dir.clone(),
                b: p.dir.clone(),
                field,
                was,
                now,
            });
        }
    }
    // each shard once, all of one split
    let mut seen: Vec<(Option<Shard>, &Path)> = Vec::new();
    for p in &parts {
        for h in &p.holds {
            for (s, d) in &seen {
                let dup = match (s, h.shard) {
                    (None, _) | (_, None) => Some("the whole campaign".to_string()),
                    (Some(a), Some(b)) if a.count != b.count => {
                        return Err(MergeError::MixedSplits {
                            a: d.to_path_buf(),
                            sa: *a,
                            b: p.dir.clone(),
                            sb: b,
                        })
                    }
                    (Some(a), Some(b)) if a.index == b.index => Some(format!("shard {a}")),
                    _ => None,
                };
                if let Some(what) = dup {
                    return Err(MergeError::DuplicateShard {
                        a: d.to_path_buf(),
                        b: p.dir.clone(),
                        what,
                    });
                }
            }
            seen.push((h.shard, &p.dir));
        }
    }
    // parts in shard order, so that the output does not depend on the order given
    parts.sort_by(|a, b| {
        let key = |p: &Part| p.holds.iter().map(|h| h.shard).min().flatten();
        key(a).cmp(&key(b)).then_with(|| a.dir.cmp(&b.dir))
    });

    // every program once
    let mut warnings = Vec::new();
    let mut lines: BTreeMap<(u64, String, String), (ResultLine, usize)> = BTreeMap::new();
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    for (i, p) in parts.iter().enumerate() {
        let path = p.dir.join(RESULTS);
        let bytes = rundir::read_limited(&path, rundir::MAX_RESULTS_BYTES).map_err(io(&path))?;
        let scan = scan_results(&bytes);
        warnings.extend(scan.warnings(&path));
        for (_, _, r) in scan.lines {
            if let Some(&j) = owner.get(&r.key) {
                return Err(MergeError::DuplicateProgram {
                    key: r.key,
                    a: parts[j].dir.clone(),
                    b: p.dir.clone(),
                });
            }
            owner.insert(r.key.clone(), i);
            lines.insert(line_order(&r), (r, i));
        }
    }

    // a fresh temporary directory beside the output (leftovers of killed merges go)
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "merged".into());
    fs::create_dir_all(&parent).map_err(io(&parent))?;
    // one merge into `out` at a time: its lock (a missing `out` is created empty to hold it)
    rundir::ensure_dir(out).map_err(io(out))?;
    let out_lock = RunLock::acquire(out)?;
    let tmp_prefix = format!(".{name}.merge-");
    for e in fs::read_dir(&parent).map_err(io(&parent))?.flatten() {
        if e.file_name().to_string_lossy().starts_with(&tmp_prefix) {
            let _ = fs::remove_dir_all(e.path());
        }
    }
    let tmp = parent.join(format!("{tmp_prefix}{}", std::process::id()));
    fs::create_dir_all(tmp.join(super::store::BUGS)).map_err(io(&tmp))?;

    // findings: each directory once, from the part of its earliest program
    let mut source_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut earliest: BTreeMap<String, String> = BTreeMap::new();
    let mut findings = 0u64;
    for (r, i) in lines.values() {
        let others = r.differential.iter().filter_map(|d| d.finding.as_ref());
        for f in r.finding.iter().chain(others) {
            findings += 1;
            source_of.entry(f.path()).or_insert(*i);
            earliest.entry(f.path()).or_insert_with(|| r.key.clone());
        }
    }
    let mut first_key: BTreeMap<String, String> = BTreeMap::new();
    for (path, &i) in &source_of {
        // `<folder>/<signature>`: checked when the line was read, checked again here
        let under = |dir: &Path| {
            rundir::join_relative(
                dir,
                path,
                MAX_SIGNATURE_COMPONENTS + 1,
                &parts[i].dir.join(RESULTS),
                "finding.signature",
            )
        };
        let dest = under(&tmp)?;
        let src = under(&parts[i].dir)?;
        let mut key = earliest.get(path).cloned().unwrap_or_default();
        if rundir::is_real_dir_under(&parts[i].dir, path) {
            copy_dir(&src, &dest)?;
            if let Ok(f) = FindingFile::read(&dest) {
                key = f.program.key;
            }
            // the other parts' variants of the same finding, up to the limit
            for (j, p) in parts.iter().enumerate() {
                let variants = format!("{path}/{VARIANTS}");
                if j != i && rundir::is_real_dir_under(&p.dir, &variants) {
                    add_variants(&under(&p.dir)?.join(VARIANTS), &dest.join(VARIANTS))?;
                }
            }
        }
        first_key.insert(path.clone(), key);
    }

    // results.jsonl, with `first` on the program whose directory was kept
    let mut text = String::new();
    for (r, _) in lines.values_mut() {
        let key = r.key.clone();
        let is_first = |f: &super::store::FindingRef| first_key.get(&f.path()) == Some(&key);
        if let Some(f) = r.finding.as_mut() {
            f.first = is_first(f);
        }
        for d in &mut r.differential {
            if let Some(f) = d.finding.as_mut() {
                f.first = is_first(f);
            }
        }
        let line = serde_json::to_string(r).map_err(|e| StoreError::Manifest {
            path: out.join(RESULTS),
            message: e.to_string(),
        })?;
        text.push_str(&line);
        text.push('\n');
    }
    let rpath = tmp.join(RESULTS);
    rundir::write_atomic(&rpath, text.as_bytes()).map_err(io(&rpath))?;

    // the manifest: the campaign, its parts, their sessions
    let mut manifest = parts[0].manifest.clone();
    manifest.identity = campaign;
    manifest.merged = parts.iter().flat_map(|p| p.holds.clone()).collect();
    manifest.sessions = parts
        .iter()
        .flat_map(|p| p.manifest.sessions.clone())
        .collect();
    write_json(&tmp.join(MANIFEST), &manifest)?;

    // the census of all parts; the synthesis config is the campaign's
    let mut census: Option<Census> = None;
    for p in &parts {
        let path = p.dir.join(super::records::CENSUS_FILE);
        match rundir::read_optional(&path, rundir::MAX_JSON_BYTES) {
            Ok(Some(text)) => match serde_json::from_str::<Census>(&text) {
                Ok(c) => census.get_or_insert_with(Census::default).merge(&c),
                Err(e) => warnings.push(format!("{}: {e}; left out of the census", path.display())),
            },
            Ok(None) => {}
            Err(e) => warnings.push(format!("{}: {e}; left out of the census", path.display())),
        }
    }
    if let Some(c) = census {
        write_json(&tmp.join(super::records::CENSUS_FILE), &c)?;
    }
    let config = parts[0].dir.join(super::records::SYNTH_CONFIG_FILE);
    if let Some(text) =
        rundir::read_optional(&config, rundir::MAX_JSON_BYTES).map_err(io(&config))?
    {
        let dest = tmp.join(super::records::SYNTH_CONFIG_FILE);
        rundir::write_atomic(&dest, text.as_bytes()).map_err(io(&dest))?;
    }

    // into place, locked: the new directory's lock is taken before it is renamed to `out`
    let empty = fs::read_dir(out).is_ok_and(|d| d.flatten().all(|e| e.file_name() == LOCK_FILE));
    let earlier_merge = read_manifest(out).is_ok_and(|m| !m.merged.is_empty());
    if !(empty || earlier_merge) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(MergeError::OutExists(out.to_path_buf()));
    }
    let _new_lock = RunLock::acquire(&tmp)?;
    // swapped in one step where the file system can: `out` always exists, always locked
    let old = parent.join(format!("{tmp_prefix}old-{}", std::process::id()));
    let old = rundir::exchange_or_replace(&tmp, out, &old).map_err(io(out))?;
    let _ = fs::remove_dir_all(&old);
    drop(out_lock);
    Ok(MergeOutcome {
        dir: out.to_path_buf(),
        parts: manifest.merged,
        programs: lines.len() as u64,
        findings,
        distinct: source_of.len() as u64,
        warnings,
    })
}

/// Writes `value` as pretty JSON into `path`.
fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| StoreError::Manifest {
        path: path.to_path_buf(),
        message: e.to_string(),
    })? + "\n";
    rundir::write_atomic(path, text.as_bytes()).map_err(io(path))
}

/// Whether `path` is a directory itself, not a symbolic link to one.
fn is_real_dir(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// Copies the directory `src` into `dest`: its directories and regular files (permissions
/// kept), not its symbolic links, FIFOs, devices or sockets, nor hidden temporary entries.
fn copy_dir(src: &Path, dest: &Path) -> Result<(), StoreError> {
    fs::create_dir_all(dest).map_err(io(dest))?;
    let mut entries: Vec<_> = fs::read_dir(src).map_err(io(src))?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        if name.to_string_lossy().starts_with(".tmp-") {
            continue;
        }
        let (from, to) = (e.path(), dest.join(&name));
        let ty = e.file_type().map_err(io(&from))?;
        if ty.is_dir() {
            copy_dir(&from, &to)?;
        } else if ty.is_file() {
            fs::copy(&from, &to).map_err(io(&to))?;
        }
    }
    Ok(())
}

/// Adds the variant directories of `src` missing from `dest`, in name order, until `dest`
/// holds [`KEPT_VARIANTS`].
fn add_variants(src: &Path, dest: &Path) -> Result<(), StoreError> {
    let Ok(rd) = fs::read_dir(src) else {
        return Ok(());
    };
    let mut names: Vec<_> = rd
        .flatten()
        .filter(|e| is_real_dir(&e.path()) && !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.file_name())
        .collect();
    names.sort();
    for n in names {
        if super::store::kept_variants(dest) >= KEPT_VARIANTS {
            break;
        }
        let to = dest.join(&n);
        if !to.exists() {
            copy_dir(&src.join(&n), &to)?;
        }
    }
    Ok(())
}
