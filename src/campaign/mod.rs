//! Campaigns: programs (synthesized on the fly, or read from a synthesized directory) compiled
//! in batches by a real compiler, each verdict judged against the program's expectation, and
//! every finding deduplicated and kept in a results store that survives being killed.
//!
//! - [`judge`] turns an expectation and a [`Verdict`] into a [`FindingKind`] (or none);
//! - [`signature`] gives a finding its deduplication signature;
//! - [`store`] owns the run directory (`manifest.json`, `results.jsonl`, `bugs/`);
//! - [`driver`] feeds batches from a [`driver::Source`] to compiler workers;
//! - [`setup`] turns a user's settings into a run's identity, manifest and options;
//! - [`report`] summarizes a run directory.

pub mod driver;
pub mod report;
pub mod setup;
pub mod signature;
pub mod store;

use serde::{Deserialize, Serialize};

use crate::compile::Verdict;
pub use crate::synth::Expected;
use crate::synth::ProgramRecord;

/// The kind of a finding: a verdict that contradicts the expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A well-typed program was rejected (an unexpected compile-time error).
    UnexpectedRejection,
    /// An ill-typed program was accepted.
    UnexpectedAcceptance,
    /// The compiler crashed (an internal error) on the program.
    Crash,
    /// Compiling the program alone exceeded the per-file time budget.
    Performance,
}

impl FindingKind {
    /// Every kind, in report order.
    pub const ALL: [FindingKind; 4] = [
        FindingKind::UnexpectedRejection,
        FindingKind::UnexpectedAcceptance,
        FindingKind::Crash,
        FindingKind::Performance,
    ];

    /// The kebab-case name used in files and directory names.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::UnexpectedRejection => "unexpected-rejection",
            FindingKind::UnexpectedAcceptance => "unexpected-acceptance",
            FindingKind::Crash => "crash",
            FindingKind::Performance => "performance",
        }
    }
}

/// The finding a verdict makes, if it contradicts the expectation: a crash or a timeout is
/// always one; otherwise acceptance must match `expected`.
pub fn judge(expected: Expected, verdict: &Verdict) -> Option<FindingKind> {
    match (verdict, expected) {
        (Verdict::Crash { .. }, _) => Some(FindingKind::Crash),
        (Verdict::Timeout, _) => Some(FindingKind::Performance),
        (Verdict::Accepted, Expected::Reject) => Some(FindingKind::UnexpectedAcceptance),
        (Verdict::Rejected { .. }, Expected::Accept) => Some(FindingKind::UnexpectedRejection),
        _ => None,
    }
}

/// One program of a campaign, ready to compile.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Unique key of the program within the run (`well-typed/r0/p000042`).
    pub key: String,
    /// The program id (`p000042`).
    pub id: String,
    /// `well-typed` / `ill-typed`, with `+erase` when type arguments were erased.
    pub mode: String,
    /// The synthesis round (each round re-synthesizes the API with a derived seed).
    pub round: u64,
    /// The source file's name.
    pub file: String,
    /// The program's source.
    pub source: String,
    /// What the compiler must do with it.
    pub expected: Expected,
    /// Its `programs.jsonl` record.
    pub record: ProgramRecord,
    /// A command that regenerates the program, when known.
    pub regenerate: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_flags_exactly_the_contradicting_verdicts() {
        let rejected = Verdict::Rejected {
            diagnostics: vec!["x".into()],
        };
        let crash = Verdict::Crash {
            exit: Some(4),
            output: String::new(),
        };
        assert_eq!(judge(Expected::Accept, &Verdict::Accepted), None);
        assert_eq!(judge(Expected::Reject, &rejected), None);
        assert_eq!(
            judge(Expected::Accept, &rejected),
            Some(FindingKind::UnexpectedRejection)
        );
        assert_eq!(
            judge(Expected::Reject, &Verdict::Accepted),
            Some(FindingKind::UnexpectedAcceptance)
        );
        for e in [Expected::Accept, Expected::Reject] {
            assert_eq!(judge(e, &crash), Some(FindingKind::Crash));
            assert_eq!(judge(e, &Verdict::Timeout), Some(FindingKind::Performance));
        }
    }
}
