//! The Java twins of a batch's findings, compiled with javac: a finding whose twin gets the
//! expected verdict is confirmed, one whose twin does not is suspected to be the generator's.

use std::collections::BTreeMap;
use std::path::Path;

use super::candidate::Candidate;
use super::finding::twin_applies;
use super::judge::judge;
use super::records::StoreError;
use crate::compile::{CompileError, CompileOptions, Compiler, Verdict};

/// Why the twins of a batch could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum TwinsError {
    /// Their files could not be written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// javac could not be run, or was given up.
    #[error(transparent)]
    Compile(#[from] CompileError),
}

/// Whether `c`, which got `verdict`, is a finding whose Java twin javac should judge: a verdict
/// a twin can confirm, a twin, and no word from the language model that it cannot judge it.
pub fn wanted(c: &Candidate, verdict: &Verdict) -> bool {
    judge(c.expected, verdict).is_some_and(twin_applies)
        && c.twin.is_some()
        && c.record.twin_not_applicable.is_none()
}

/// Compiles the Java twins of `cands` with `javac` (the worker's: a process per batch, or its
/// warm server) in `dir` (one batch; given up at the compiler's cutoff) and returns their
/// verdicts by candidate key.
pub fn compile(
    javac: &mut Compiler,
    dir: &Path,
    cands: &[&Candidate],
    opts: &CompileOptions,
) -> Result<BTreeMap<String, Verdict>, TwinsError> {
    let src = dir.join("twin-src");
    let classes = dir.join("twin-classes");
    let mut files = Vec::new();
    let mut keys = Vec::new();
    for p in [&src, &classes] {
        std::fs::create_dir_all(p).map_err(|source| StoreError::Io {
            path: p.clone(),
            source,
        })?;
    }
    for c in cands {
        let Some(t) = &c.twin else { continue };
        let p = src.join(&t.file);
        std::fs::write(&p, &t.source).map_err(|source| StoreError::Io {
            path: p.clone(),
            source,
        })?;
        files.push(p);
        keys.push((t.file.clone(), c.key.clone()));
    }
    let result = javac.compile_batch(&files, &classes, opts)?;
    Ok(keys
        .into_iter()
        .filter_map(|(file, key)| result.verdicts.get(&file).map(|v| (key, v.clone())))
        .collect())
}
