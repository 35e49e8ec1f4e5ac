//! The programs of a directory written by `thalia synth` (`thalia check`).

use std::path::{Path, PathBuf};

use thalia_translators::Language;

use super::{Batch, Source, SourceError};
use crate::campaign::candidate::{Candidate, Twin};
use crate::campaign::shard::Shard;
use crate::synth::output::RunSummary;
use crate::synth::ProgramRecord;

/// The programs of a directory written by `thalia synth`, in manifest order.
pub struct DirSource {
    dir: PathBuf,
    records: Vec<ProgramRecord>,
    next: usize,
    summary: RunSummary,
}

impl DirSource {
    /// Reads `dir/programs.jsonl` and `dir/summary.json` (the programs' language, API and the
    /// command that regenerates them).
    pub fn open(dir: &Path) -> Result<DirSource, SourceError> {
        let manifest = dir.join("programs.jsonl");
        // rundir: a regular file, size-limited
        let text =
            crate::rundir::read_to_string_limited(&manifest, crate::rundir::MAX_RESULTS_BYTES)
                .map_err(|e| SourceError(format!("cannot read {}: {e}", manifest.display())))?;
        let mut records = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let r: ProgramRecord = serde_json::from_str(line).map_err(|e| {
                SourceError(format!(
                    "{}: line {}: not a program record: {e}",
                    manifest.display(),
                    i + 1
                ))
            })?;
            records.push(r);
        }
        let summary = RunSummary::read(dir).map_err(|e| SourceError(e.to_string()))?;
        Ok(DirSource {
            dir: dir.to_path_buf(),
            records,
            next: 0,
            summary,
        })
    }

    /// Keeps only shard `shard`'s programs: those at positions of `programs.jsonl` it owns
    /// (below `budget`, a program count, when given: the programs the unsharded check with
    /// that budget judges); returns the shard's share of a count budget.
    pub fn set_shard(&mut self, shard: Shard, budget: Option<u64>) -> Option<u64> {
        let limit = budget.map_or(usize::MAX, |b| usize::try_from(b).unwrap_or(usize::MAX));
        let records = std::mem::take(&mut self.records);
        self.records = records
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i < limit && shard.owns(*i))
            .map(|(_, r)| r)
            .collect();
        budget.map(|_| self.records.len() as u64)
    }

    /// The programs' language, from `summary.json`.
    pub fn language(&self) -> Language {
        self.summary.language
    }

    /// The API the programs were synthesized from, as `summary.json` names it (a directory,
    /// `@NAME`, or the embedded API's label).
    pub fn api(&self) -> &str {
        &self.summary.api
    }

    /// Number of programs.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when the directory has no program.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

impl Source for DirSource {
    fn next_batch(
        &mut self,
        max: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Batch>, SourceError> {
        if self.next >= self.records.len() {
            return Ok(None);
        }
        let end = (self.next + max).min(self.records.len());
        let mut batch = Batch::default();
        let regenerate = self.summary.regenerate_command(&self.dir);
        for r in &self.records[self.next..end] {
            batch.positions += 1;
            if done(&r.id) {
                continue;
            }
            // rundir: a record's file names are plain names under the directory
            let read = |file: &str, field: &str| {
                let path = crate::rundir::join_name(
                    &self.dir,
                    file,
                    &self.dir.join("programs.jsonl"),
                    field,
                )
                .map_err(|e| SourceError(e.to_string()))?;
                crate::rundir::read_to_string_limited(&path, crate::rundir::MAX_SOURCE_BYTES)
                    .map_err(|e| SourceError(format!("cannot read {}: {e}", path.display())))
            };
            let source = read(&r.file, "file")?;
            let twin = match &r.twin {
                Some(f) => Some(Twin {
                    file: f.clone(),
                    source: read(f, "twin")?,
                }),
                None => None,
            };
            batch.candidates.push(Candidate {
                twin,
                program: None,
                key: r.id.clone(),
                regenerate: Some(format!("{regenerate} --only {}", r.id)),
                id: r.id.clone(),
                mode: format!(
                    "{}{}",
                    r.mode.as_str(),
                    if r.erased { "+erase" } else { "" }
                ),
                round: 0,
                file: r.file.clone(),
                source,
                expected: r.expected,
                record: r.clone(),
            });
        }
        self.next = end;
        Ok(Some(batch))
    }

    fn round_len(&self) -> Option<u64> {
        Some(self.records.len() as u64)
    }
}
