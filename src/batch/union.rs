//! Coverage of a batch (`--coverage`): what measuring it needs (JaCoCo, the compiler's class
//! files, the filters), the union over every finished cell per mode and over all modes, and
//! each library's increment per mode over its well-typed cell.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{BatchError, BatchMode, BatchSummary, INCREMENTS, UNION};
use crate::coverage::{self, Jacoco};
use crate::toolchain::Toolchain;

/// What measuring coverage needs: JaCoCo, the compiler and its class files.
#[derive(Clone, Debug)]
pub struct CoverageSetup {
    /// The installed JaCoCo.
    pub jacoco: Jacoco,
    /// The compiler under test.
    pub tc: Toolchain,
    /// Its class files that match the filters.
    pub classfiles: Vec<PathBuf>,
    /// The JaCoCo class-name patterns coverage is counted on.
    pub filters: Vec<String>,
}

/// Writes the union coverage of every finished cell, per mode and over all modes
/// (`OUT/coverage-union/<mode>/` reports, `coverage-union.json`).
pub fn write_union(
    out: &Path,
    summary: &BatchSummary,
    cov: &CoverageSetup,
) -> Result<(), BatchError> {
    let mut union = BTreeMap::new();
    let done: Vec<(BatchMode, PathBuf)> = summary
        .libraries
        .iter()
        .flat_map(|l| &l.cells)
        .filter(|c| c.record.is_some())
        .flat_map(|c| {
            coverage::exec_files(&out.join(&c.dir))
                .into_iter()
                .map(move |e| (c.mode, e))
        })
        .collect();
    if done.is_empty() {
        return Ok(());
    }
    let mut groups: Vec<(String, Vec<PathBuf>)> = summary
        .manifest
        .modes
        .iter()
        .map(|m| {
            (
                m.as_str().to_string(),
                done.iter()
                    .filter(|(dm, _)| dm == m)
                    .map(|(_, e)| e.clone())
                    .collect(),
            )
        })
        .collect();
    groups.push(("all".into(), done.iter().map(|(_, e)| e.clone()).collect()));
    for (name, execs) in groups {
        if execs.is_empty() {
            continue;
        }
        let counts = coverage::report(
            &cov.jacoco,
            &cov.tc,
            &execs,
            &cov.classfiles,
            &cov.filters,
            &out.join("coverage-union").join(&name),
        )?;
        union.insert(name, counts);
    }
    super::write_json(&out.join(UNION), &union)?;
    Ok(())
}

/// Writes each library's increment per mode over its well-typed cell (`coverage-increments.json`):
/// the checker lines covered by the two cells together minus those of the well-typed cell, in
/// percentage points of the checker's lines, from the cells' XML reports; cells without
/// programs are left out.
pub fn write_increments(out: &Path, summary: &BatchSummary) -> Result<(), BatchError> {
    let mut all: BTreeMap<String, BTreeMap<BatchMode, f64>> = BTreeMap::new();
    let lines = |dir: &str| -> Result<_, BatchError> {
        let path = out.join(dir).join("coverage").join("coverage.xml");
        let xml = std::fs::read_to_string(&path)
            .map_err(|e| BatchError::context(format!("cannot read {}", path.display()), e))?;
        Ok(coverage::xml_lines(&xml))
    };
    for lib in &summary.libraries {
        // a cell without programs (none synthesized in its mode) measures nothing
        let done = |m: BatchMode| {
            lib.cells
                .iter()
                .find(|c| c.mode == m && c.record.as_ref().is_some_and(|r| r.programs > 0))
                .map(|c| c.dir.clone())
        };
        let Some(base_dir) = done(BatchMode::WellTyped) else {
            continue;
        };
        let (base, total) = lines(&base_dir)?;
        if total == 0 {
            continue;
        }
        for &m in summary
            .manifest
            .modes
            .iter()
            .filter(|m| **m != BatchMode::WellTyped)
        {
            let Some(dir) = done(m) else {
                continue;
            };
            let (covered, _) = lines(&dir)?;
            let added = covered.difference(&base).count();
            all.entry(lib.coordinate.clone())
                .or_default()
                .insert(m, 100.0 * added as f64 / total as f64);
        }
    }
    super::write_json(&out.join(INCREMENTS), &all)?;
    Ok(())
}
