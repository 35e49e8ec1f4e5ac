//! Campaigns: programs (synthesized on the fly, or read from a synthesized directory) compiled
//! in batches by a real compiler, each verdict judged against the program's expectation, and
//! every finding deduplicated and kept in a results store that survives being killed.
//!
//! - [`judge`] turns an expectation and a [`Verdict`] into a [`FindingKind`] (or none);
//! - [`signature`] gives a finding its deduplication signature;
//! - [`store`] owns the run directory (`manifest.json`, `results.jsonl`, `bugs/`);
//! - [`driver`] feeds batches from a [`driver::Source`] to compiler workers;
//! - [`setup`] turns a user's settings into a run's identity, manifest and options;
//! - [`shard`] splits a campaign into disjoint shards (`--shard I/N`), and [`merge`] joins
//!   their run directories into one;
//! - [`report`] summarizes a run directory;
//! - [`reduce`] shrinks a finding's program while it keeps its signature;
//! - [`bugreport`] writes a finding's ready-to-file `report.md`;
//! - [`known`] recognizes findings of known bugs (`known-findings/`);
//! - [`intended`] recognizes differential findings of intended language changes;
//! - [`cluster`] groups findings whose reduced programs are the same up to renaming;
//! - [`bisect`] finds the releases that introduced and fixed a finding.

pub mod autoreduce;
pub mod bisect;
pub mod bugreport;
pub mod cluster;
pub mod driver;
pub mod intended;
pub mod known;
pub mod merge;
pub mod reduce;
pub mod report;
pub mod setup;
pub mod shard;
pub mod signature;
pub mod store;
pub mod variant;

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
    /// An ill-typed program was rejected, but for an error away from the statement of the
    /// call under test (where its broken position is): a generator defect, kept apart, since
    /// such a rejection could hide an unexpected acceptance.
    RejectedElsewhere,
}

impl FindingKind {
    /// Every kind, in report order.
    pub const ALL: [FindingKind; 5] = [
        FindingKind::UnexpectedRejection,
        FindingKind::UnexpectedAcceptance,
        FindingKind::Crash,
        FindingKind::Performance,
        FindingKind::RejectedElsewhere,
    ];

    /// The kebab-case name used in files and directory names.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::UnexpectedRejection => "unexpected-rejection",
            FindingKind::UnexpectedAcceptance => "unexpected-acceptance",
            FindingKind::Crash => "crash",
            FindingKind::Performance => "performance",
            FindingKind::RejectedElsewhere => "rejected-elsewhere",
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

/// The Java twin of a program: the same IR program written in Java. javac is the reference:
/// a finding whose twin gets the expected verdict from javac is confirmed; one whose twin does
/// not is suspected to be the generator's mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// The twin's file name (`Test_p000042.java`).
    pub file: String,
    /// Its source.
    pub source: String,
}

/// What a finding's Java twin says about it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TwinStatus {
    /// javac gave the twin the expected verdict: the finding is the compiler's alone.
    Confirmed,
    /// javac gave the twin the same unexpected verdict: the expectation itself is suspect
    /// (a generator or language-model mistake); kept apart from the bugs.
    GeneratorSuspect,
    /// The language model says the twin cannot judge the program (a Kotlin program broken
    /// by nullability: Java has no nullable types); the reason is recorded with the finding,
    /// and javac's verdict, if any, is not used.
    NotApplicable,
    /// No twin applies: a Java program, a crash or timeout, a program without a twin, or a
    /// campaign without twins.
    #[default]
    NoTwin,
}

impl TwinStatus {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            TwinStatus::Confirmed => "confirmed",
            TwinStatus::GeneratorSuspect => "generator-suspect",
            TwinStatus::NotApplicable => "not-applicable",
            TwinStatus::NoTwin => "no-twin",
        }
    }

    /// The status a twin's verdict gives a finding of a program expected to be `expected`.
    pub fn of(expected: Expected, twin: &Verdict) -> TwinStatus {
        match (expected, twin) {
            (Expected::Accept, Verdict::Accepted)
            | (Expected::Reject, Verdict::Rejected { .. }) => TwinStatus::Confirmed,
            _ => TwinStatus::GeneratorSuspect,
        }
    }
}

/// Whether a finding of `kind` is one a twin can confirm (a verdict that contradicts the
/// expectation; crashes and timeouts are bugs whatever the expectation).
pub fn twin_applies(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::UnexpectedRejection | FindingKind::UnexpectedAcceptance
    )
}

/// How two compilers (usually two releases of one) that disagree on a program stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffKind {
    /// The newer release gets the program wrong where the older got it right.
    Regression,
    /// The older release gets the program wrong where the newer gets it right (a bug fixed
    /// since).
    FixedSince,
    /// The two compilers are not releases of one compiler; this one gets it wrong where the
    /// other gets it right.
    Disagrees,
}

impl DiffKind {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            DiffKind::Regression => "regression",
            DiffKind::FixedSince => "fixed-since",
            DiffKind::Disagrees => "disagrees",
        }
    }
}

/// The differential finding of a program on which the compiler under test gave `primary` and
/// another compiler gave `other`: `None` unless exactly one of them gets the expected
/// verdict. `primary_newer` is `Some(true)` when the compiler under test is the newer
/// release of the same compiler, `None` for different compilers. The boolean says whether
/// the wrong side is the other compiler.
pub fn judge_differential(
    expected: Expected,
    primary: &Verdict,
    other: &Verdict,
    primary_newer: Option<bool>,
) -> Option<(DiffKind, bool)> {
    let primary_ok = judge(expected, primary).is_none();
    let other_ok = judge(expected, other).is_none();
    if primary_ok == other_ok {
        return None;
    }
    let other_wrong = primary_ok;
    let kind = match primary_newer {
        None => DiffKind::Disagrees,
        // the wrong side is the newer one: a regression
        Some(newer) if newer != other_wrong => DiffKind::Regression,
        Some(_) => DiffKind::FixedSince,
    };
    Some((kind, other_wrong))
}

/// Like [`judge`], and an ill-typed program's rejection counts only when one of its errors
/// is reported on `call` (the lines of the call under test, where the broken position is):
/// otherwise it is [`FindingKind::RejectedElsewhere`]. Errors without a line (`format` finds
/// none) or a program without a known call give the benefit of the doubt.
pub fn judge_with_reason(
    expected: Expected,
    verdict: &Verdict,
    format: crate::profile::DiagnosticFormat,
    call: Option<thalia_translators::LineSpan>,
) -> Option<FindingKind> {
    if let Some(kind) = judge(expected, verdict) {
        return Some(kind);
    }
    let (Verdict::Rejected { diagnostics }, Some(call)) = (verdict, call) else {
        return None;
    };
    let lines: Vec<u32> = diagnostics.iter().filter_map(|d| format.line(d)).collect();
    if lines.is_empty()
        || lines.len() < diagnostics.len()
        || lines.iter().any(|&l| call.contains(l))
    {
        None
    } else {
        Some(FindingKind::RejectedElsewhere)
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
    /// Its Java twin, for a program in another language.
    pub twin: Option<Twin>,
    /// Its IR, when synthesized in this run (kept with a finding for `thalia reduce`).
    pub program: Option<std::sync::Arc<thalia_translators::ir::Program>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ill_typed_program_must_be_rejected_at_its_call() {
        let f = crate::profile::DiagnosticFormat::Groovy;
        let call = Some(thalia_translators::LineSpan { first: 7, last: 8 });
        let at = |line: u32| Verdict::Rejected {
            diagnostics: vec![format!("/w/Test_p1.java:{line}: error: incompatible types")],
        };
        assert_eq!(judge_with_reason(Expected::Reject, &at(7), f, call), None);
        assert_eq!(judge_with_reason(Expected::Reject, &at(8), f, call), None);
        assert_eq!(
            judge_with_reason(Expected::Reject, &at(5), f, call),
            Some(FindingKind::RejectedElsewhere)
        );
        // no known call, or an error without a line: the rejection counts
        assert_eq!(judge_with_reason(Expected::Reject, &at(5), f, None), None);
        let unlocated = Verdict::Rejected {
            diagnostics: vec!["error: something".into()],
        };
        assert_eq!(
            judge_with_reason(Expected::Reject, &unlocated, f, call),
            None
        );
        // well-typed programs are judged as before
        assert_eq!(
            judge_with_reason(Expected::Accept, &at(5), f, call),
            Some(FindingKind::UnexpectedRejection)
        );
    }

    #[test]
    fn differentials_name_the_wrong_release() {
        let rejected = Verdict::Rejected {
            diagnostics: vec!["x".into()],
        };
        let ok = Verdict::Accepted;
        let e = Expected::Accept;
        // the new release (under test) rejects, the old accepts: a regression in the new one
        assert_eq!(
            judge_differential(e, &rejected, &ok, Some(true)),
            Some((DiffKind::Regression, false))
        );
        // the old release (under test) rejects, the new accepts: fixed since
        assert_eq!(
            judge_differential(e, &rejected, &ok, Some(false)),
            Some((DiffKind::FixedSince, false))
        );
        // the other (older) release is wrong: fixed since, on the other side
        assert_eq!(
            judge_differential(e, &ok, &rejected, Some(true)),
            Some((DiffKind::FixedSince, true))
        );
        assert_eq!(
            judge_differential(e, &ok, &rejected, Some(false)),
            Some((DiffKind::Regression, true))
        );
        assert_eq!(
            judge_differential(e, &ok, &rejected, None),
            Some((DiffKind::Disagrees, true))
        );
        assert_eq!(judge_differential(e, &ok, &ok, Some(true)), None);
        assert_eq!(
            judge_differential(e, &rejected, &rejected, Some(true)),
            None
        );
    }

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
