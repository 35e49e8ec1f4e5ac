//! What a finding is: the kinds of verdicts that contradict an expectation, what a finding's
//! Java twin says about it, and how two compilers that disagree on a program stand.

use serde::{Deserialize, Serialize};

use crate::compile::Verdict;
use crate::synth::Expected;

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
    /// such a rejection could hide an unexpected acceptance — unless javac judges the
    /// program's Java twin the other way (accepts it, or rejects it at the call only): then
    /// the compiler rejects a statement javac accepts, a bug.
    RejectedElsewhere,
    /// An accepted program, run (`--run`), raised a linkage or verification error
    /// (`NoSuchMethodError`, `VerifyError`, ...): the compiled code does not fit what it runs
    /// against.
    Miscompilation,
    /// An accepted program, run (`--run`), raised an exception its types rule out and its
    /// Java twin does not raise alike (a `ClassCastException` with no cast, a Groovy
    /// `MissingFieldException`): the type checker let through what fails at run time.
    Unsoundness,
}

impl FindingKind {
    /// Every kind, in report order.
    pub const ALL: [FindingKind; 7] = [
        FindingKind::UnexpectedRejection,
        FindingKind::UnexpectedAcceptance,
        FindingKind::Crash,
        FindingKind::Performance,
        FindingKind::RejectedElsewhere,
        FindingKind::Miscompilation,
        FindingKind::Unsoundness,
    ];

    /// The kebab-case name used in files and directory names.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::UnexpectedRejection => "unexpected-rejection",
            FindingKind::UnexpectedAcceptance => "unexpected-acceptance",
            FindingKind::Crash => "crash",
            FindingKind::Performance => "performance",
            FindingKind::RejectedElsewhere => "rejected-elsewhere",
            FindingKind::Miscompilation => "miscompilation",
            FindingKind::Unsoundness => "unsoundness",
        }
    }
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
    /// No twin applies, and another release or frontend of the compiler (the differential
    /// oracle) gives the expected verdict: the finding is the compiler's (`bugs/`).
    Differential,
    /// No twin applies, and no other release or frontend judged the program: the finding is
    /// kept apart from the bugs (`suspects/`).
    Unconfirmed,
}

impl TwinStatus {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            TwinStatus::Confirmed => "confirmed",
            TwinStatus::GeneratorSuspect => "generator-suspect",
            TwinStatus::NotApplicable => "not-applicable",
            TwinStatus::NoTwin => "no-twin",
            TwinStatus::Differential => "differential",
            TwinStatus::Unconfirmed => "unconfirmed",
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
/// expectation, or a rejection away from the call under test, which javac may judge the
/// other way; crashes and timeouts are bugs whatever the expectation).
pub fn twin_applies(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::UnexpectedRejection
            | FindingKind::UnexpectedAcceptance
            | FindingKind::RejectedElsewhere
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
