//! Judging, without reading or writing anything: a verdict against its program's expectation
//! (a [`FindingKind`] or none), a finding's signature and folder, what its Java twin says, the
//! known bug or intended language change it is, and the differential findings against other
//! compilers. The [`super::store`] keeps what [`Judge::judge`] decides.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::compile::Verdict;
use crate::synth::Expected;

use super::candidate::Candidate;
use super::finding::{twin_applies, DiffKind, FindingKind, TwinStatus};
use super::intended::{DisagreementFacts, IntendedSet, Side};
use super::known::{confirms, Evidence, FindingFacts, KnownSet, NoEvidence};
use super::records::{
    folder, CompilerInfo, FindingTwin, IntendedLabel, KnownLabel, Manifest, BUGS, INTENDED, KNOWN,
};
use super::signature::{signature, Signature};

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

/// A finding as judged: what it is and where it belongs, before the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Its kind.
    pub kind: FindingKind,
    /// Its deduplication signature.
    pub signature: Signature,
    /// What the program's Java twin says, as the results line records it.
    pub twin: TwinStatus,
    /// Why the twin cannot judge the program (status `not-applicable`).
    pub twin_reason: Option<String>,
    /// The program's Java twin and javac's verdict on it, as `finding.json` records them.
    pub twin_file: Option<FindingTwin>,
    /// The known bug (`known-findings/`) it is a finding of.
    pub known: Option<KnownLabel>,
    /// The intended language change it is.
    pub intended: Option<IntendedLabel>,
    /// Its folder in the run directory: `intended`, `known`, `suspects` or `bugs`.
    pub folder: &'static str,
    /// What running the program and its twin ended in (`--run`).
    pub run: Option<crate::run::RunRecord>,
}

/// A disagreement between the compiler under test and another compiler on a program.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    /// The other compiler.
    pub compiler: CompilerInfo,
    /// Its verdict.
    pub verdict: Verdict,
    /// Regression, fixed-since, or a disagreement between different compilers.
    pub kind: DiffKind,
    /// The other compiler's finding, when it is the wrong side (kept under
    /// `<folder>/<compiler>@<version>/`).
    pub finding: Option<Finding>,
    /// The intended language change the disagreement is, if any.
    pub intended: Option<IntendedLabel>,
}

/// Everything judging says of one program's verdicts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Judgement {
    /// The finding of the compiler under test, if its verdict contradicts the expectation.
    pub finding: Option<Finding>,
    /// The other compilers (`--against`) that disagree with it, in the manifest's order.
    pub differential: Vec<Disagreement>,
    /// What running the program and its twin ended in (`--run`).
    pub run: Option<crate::run::RunRecord>,
}

/// The signature of a run finding of `kind` by `tool` whose outcome is `detail` (the
/// exception's class and the call it came from): `<kind>-<tool>-<hash>` like the others.
pub fn run_signature(tool: crate::toolchain::Tool, kind: FindingKind, detail: &str) -> Signature {
    let text = format!("{} {}: {}", tool.name(), kind.as_str(), detail);
    let dir = format!(
        "{}-{}-{:016x}",
        kind.as_str(),
        tool.name(),
        crate::hash::fnv1a64(text.as_bytes())
    );
    Signature { text, dir }
}

/// What the Java twin says of a finding of `kind` on `cand` whose twin got `twin` from javac:
/// not applicable when the program's language model says the twin cannot judge it (whatever
/// javac said), the twin's verdict otherwise, no twin without one.
pub fn twin_status(cand: &Candidate, kind: FindingKind, twin: Option<&Verdict>) -> TwinStatus {
    if !twin_applies(kind) {
        return TwinStatus::NoTwin;
    }
    if cand.record.twin_not_applicable.is_some() {
        return TwinStatus::NotApplicable;
    }
    match (twin, kind, &cand.twin) {
        (Some(t), FindingKind::RejectedElsewhere, Some(tw)) => elsewhere_status(t, &tw.source),
        (Some(t), _, _) => TwinStatus::of(cand.expected, t),
        (None, _, _) => TwinStatus::NoTwin,
    }
}

/// What javac's verdict `twin` on the Java twin (source `twin_source`) of a program rejected
/// away from its call says: javac judges it the other way (it accepts the twin, or rejects
/// it at the call only) — the compiler rejects a statement javac accepts, a bug — or javac
/// too rejects it away from the call (the generator's doing).
pub fn elsewhere_status(twin: &Verdict, twin_source: &str) -> TwinStatus {
    match twin {
        Verdict::Accepted => TwinStatus::Confirmed,
        Verdict::Rejected { .. } => {
            let call = thalia_translators::call_lines(twin_source);
            match judge_with_reason(
                Expected::Reject,
                twin,
                crate::toolchain::Tool::Javac.profile().diagnostics,
                call,
            ) {
                None if call.is_some() => TwinStatus::Confirmed,
                _ => TwinStatus::GeneratorSuspect,
            }
        }
        _ => TwinStatus::NoTwin,
    }
}

/// javac's first diagnostics on a twin it rejected, shortened (the twin's file keeps them
/// whole).
fn twin_message(twin: Option<&Verdict>) -> Option<String> {
    const KEPT: usize = 3;
    const CHARS: usize = 600;
    match twin? {
        Verdict::Rejected { diagnostics } => Some(
            diagnostics
                .iter()
                .take(KEPT)
                .map(|d| d.chars().take(CHARS).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// The `finding.json` record of `cand`'s Java twin for a finding of `kind` (javac gave the
/// twin `twin`, when it was compiled).
fn twin_file(cand: &Candidate, kind: FindingKind, twin: Option<&Verdict>) -> Option<FindingTwin> {
    cand.twin.as_ref().map(|t| FindingTwin {
        message: twin_message(twin),
        file: t.file.clone(),
        compiler: "javac".into(),
        verdict: twin.map(|v| v.label().to_string()),
        status: match twin_status(cand, kind, twin) {
            TwinStatus::NoTwin => None,
            s => Some(s),
        },
        not_applicable: cand
            .record
            .twin_not_applicable
            .clone()
            .filter(|_| twin_applies(kind)),
    })
}

/// The first diagnostic of a rejection, or a crash's output: what known bugs and intended
/// changes are matched against.
fn first_diagnostic(verdict: &Verdict) -> Option<&str> {
    match verdict {
        Verdict::Rejected { diagnostics } => diagnostics.first().map(String::as_str),
        Verdict::Crash { output, .. } => Some(output.as_str()),
        _ => None,
    }
}

/// The known labels decided so far, by signature (`<signature dir>` for the compiler under
/// test, `<label>/<signature dir>` for another): one label per signature.
pub type PinnedLabels = HashMap<String, Option<KnownLabel>>;

/// Judges a campaign's verdicts: the compiler under test, the other compilers (`--against`),
/// and the known bugs and intended changes findings are labelled with.
#[derive(Clone)]
pub struct Judge {
    compiler: CompilerInfo,
    against: Vec<CompilerInfo>,
    known: KnownSet,
    intended: IntendedSet,
    evidence: Arc<dyn Evidence>,
    pinned: Arc<Mutex<PinnedLabels>>,
}

impl std::fmt::Debug for Judge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Judge")
            .field("compiler", &self.compiler)
            .field("against", &self.against)
            .field("known", &self.known.len())
            .finish_non_exhaustive()
    }
}

/// What the evidence label of `entry` says, for `finding.json` and `report.md`.
fn evidence_words(entry_id: &str, label: &str, kind: FindingKind) -> String {
    match kind {
        FindingKind::UnexpectedAcceptance | FindingKind::Performance => format!(
            "{entry_id}'s own program shows the same kind of finding ({}) with {label}",
            kind.as_str()
        ),
        _ => format!("{entry_id}'s own program gives the same signature with {label}"),
    }
}

impl Judge {
    /// The judge of the run `manifest` describes (its compiler and `against` compilers),
    /// labelling findings with `known` and `intended`; without evidence (see
    /// [`Judge::with_evidence`]) no finding is labelled known.
    pub fn new(manifest: &Manifest, known: KnownSet, intended: IntendedSet) -> Judge {
        Judge {
            compiler: manifest.compiler.clone(),
            against: manifest.against.clone(),
            known,
            intended,
            evidence: Arc::new(NoEvidence),
            pinned: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The judge with `evidence` for known labels.
    pub fn with_evidence(mut self, evidence: Arc<dyn Evidence>) -> Judge {
        self.evidence = evidence;
        self
    }

    /// The judge with the labels already decided for signatures (a resumed run's).
    pub fn with_pinned(self, pinned: PinnedLabels) -> Judge {
        *self.pinned.lock().unwrap_or_else(|p| p.into_inner()) = pinned;
        self
    }

    /// The diagnostic format of the compiler under test.
    pub fn diagnostics(&self) -> crate::profile::DiagnosticFormat {
        self.compiler.tool.profile().diagnostics
    }

    /// The known entry a finding of `kind` with signature `sig` by compiler `c` on `cand`
    /// is, if any: the first entry (in file order) that matches it by its patterns and whose
    /// own program, compiled with `c`, confirms it. A signature keeps the label its first
    /// program decided (`pin`: its key).
    fn known_entry(
        &self,
        c: &CompilerInfo,
        kind: FindingKind,
        sig: &Signature,
        cand: &Candidate,
        verdict: &Verdict,
        pin: &str,
    ) -> Option<KnownLabel> {
        if let Some(decided) = self
            .pinned
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(pin)
        {
            return decided.clone();
        }
        let label = c.label();
        let facts = FindingFacts {
            compiler: c.tool.name(),
            version: &c.version,
            kind,
            signature: &sig.text,
            diagnostic: first_diagnostic(verdict),
            source: &cand.source,
            record: &cand.record,
        };
        let found = self.known.candidates(&facts).into_iter().find_map(|e| {
            let ev = self.evidence.verdict(e, &label)?;
            confirms(&ev, kind, &sig.text).then(|| KnownLabel {
                evidence: Some(evidence_words(&e.id, &label, kind)),
                ..KnownLabel::of(e)
            })
        });
        self.pinned
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(pin.to_string())
            .or_insert(found)
            .clone()
    }

    /// The intended change a disagreement between the compiler under test and `other` on
    /// `cand` is, given the wrong side's finding (`kind`, `sig`, `verdict`).
    fn intended_entry(
        &self,
        other: &CompilerInfo,
        kind: FindingKind,
        sig: &Signature,
        cand: &Candidate,
        verdict: &Verdict,
    ) -> Option<IntendedLabel> {
        let primary = &self.compiler;
        if primary.tool != other.tool {
            return None;
        }
        fn side(c: &CompilerInfo) -> Side<'_> {
            Side {
                version: &c.version,
                variant: c.variant.as_deref(),
            }
        }
        self.intended
            .find(&DisagreementFacts {
                compiler: primary.tool.name(),
                primary: side(primary),
                other: side(other),
                kind,
                signature: &sig.text,
                member: &cand.record.member,
                diagnostic: first_diagnostic(verdict),
            })
            .map(IntendedLabel::of)
    }

    /// What the verdicts of one program say: the compiler under test gave `verdict`, javac
    /// gave its Java twin `twin` (when compiled), the other compilers gave `against` (in the
    /// manifest's order).
    pub fn judge(
        &self,
        cand: &Candidate,
        verdict: &Verdict,
        twin: Option<&Verdict>,
        against: &[Verdict],
    ) -> Judgement {
        let differential: Vec<Disagreement> = self
            .against
            .iter()
            .zip(against)
            .filter_map(|(info, other)| self.differential(cand, verdict, info, other))
            .collect();
        // the compiler under test is the wrong side of an intended change
        let intended = differential
            .iter()
            .filter(|d| d.finding.is_none())
            .find_map(|d| d.intended.as_ref())
            .and_then(|i| self.intended.entries().find(|e| e.id == i.id))
            .map(IntendedLabel::of);
        let tool = self.compiler.tool;
        let format = tool.profile().diagnostics;
        let finding = judge_with_reason(cand.expected, verdict, format, cand.record.call_lines)
            .map(|kind| {
                let sig = signature(tool, kind, verdict, &cand.record);
                let status = twin_status(cand, kind, twin);
                // a generator suspect stays one: the expectation, not the compiler, is in
                // doubt
                let intended = intended.filter(|_| folder(status, kind) == BUGS);
                let known = match folder(status, kind) {
                    BUGS if intended.is_none() => {
                        self.known_entry(&self.compiler, kind, &sig, cand, verdict, &sig.dir)
                    }
                    _ => None,
                };
                let dest = if intended.is_some() {
                    INTENDED
                } else if known.is_some() {
                    KNOWN
                } else {
                    folder(status, kind)
                };
                Finding {
                    kind,
                    signature: sig,
                    twin: status,
                    twin_reason: (status == TwinStatus::NotApplicable)
                        .then(|| cand.record.twin_not_applicable.clone())
                        .flatten(),
                    twin_file: twin_file(cand, kind, twin),
                    known,
                    intended,
                    folder: dest,
                    run: None,
                }
            });
        Judgement {
            finding,
            differential,
            run: None,
        }
    }

    /// Adds what running `cand` (and its Java twin) ended in to `judgement`; when its
    /// verdict made no finding, a run outcome the run oracle ([`crate::run::judge_run`])
    /// judges a finding becomes one: a miscompilation is a bug, unsoundness is one when the
    /// twin ran (and ended otherwise), a suspect when no twin did.
    pub fn add_run(&self, cand: &Candidate, judgement: &mut Judgement, run: crate::run::RunRecord) {
        if judgement.finding.is_none() {
            if let Some(rf) = crate::run::judge_run(&run.program, run.twin.as_ref()) {
                let kind = match rf.kind {
                    crate::run::RunKind::Miscompilation => FindingKind::Miscompilation,
                    crate::run::RunKind::Unsoundness => FindingKind::Unsoundness,
                };
                let sig = run_signature(self.compiler.tool, kind, &rf.detail);
                let twin = match (crate::run::comparable_twin(run.twin.as_ref()), kind) {
                    (Some(_), _) => TwinStatus::Confirmed,
                    (None, FindingKind::Miscompilation) => TwinStatus::NoTwin,
                    (None, _) => TwinStatus::Unconfirmed,
                };
                judgement.finding = Some(Finding {
                    kind,
                    signature: sig,
                    twin,
                    twin_reason: None,
                    twin_file: cand.twin.as_ref().map(|t| FindingTwin {
                        message: None,
                        file: t.file.clone(),
                        compiler: "javac".into(),
                        verdict: run.twin.as_ref().map(|_| "accepted".to_string()),
                        status: crate::run::comparable_twin(run.twin.as_ref())
                            .map(|_| TwinStatus::Confirmed),
                        not_applicable: None,
                    }),
                    known: None,
                    intended: None,
                    folder: folder(twin, kind),
                    run: Some(run.clone()),
                });
            }
        } else if let Some(f) = judgement.finding.as_mut() {
            f.run = Some(run.clone());
        }
        judgement.run = Some(run);
    }

    /// The disagreement of `cand` with the compiler `info`, which gave `other`, if any.
    fn differential(
        &self,
        cand: &Candidate,
        verdict: &Verdict,
        info: &CompilerInfo,
        other: &Verdict,
    ) -> Option<Disagreement> {
        let primary = &self.compiler;
        // a variant of a release is not older or newer than the release
        let newer = (primary.tool == info.tool && info.variant.is_none()).then(|| {
            thalia_extractors::maven::version::compare_versions(&primary.version, &info.version)
                == std::cmp::Ordering::Greater
        });
        let (kind, other_wrong) = judge_differential(cand.expected, verdict, other, newer)?;
        // the side that got the program wrong, and whether that is an intended change
        let (wrong, wrong_verdict) = if other_wrong {
            (info, other)
        } else {
            (primary, verdict)
        };
        let intended = judge(cand.expected, wrong_verdict).and_then(|fk| {
            let sig = signature(wrong.tool, fk, wrong_verdict, &cand.record);
            self.intended_entry(info, fk, &sig, cand, wrong_verdict)
        });
        let finding = judge(cand.expected, other)
            .filter(|_| other_wrong)
            .map(|fk| {
                let sig = signature(info.tool, fk, other, &cand.record);
                let known = match intended {
                    Some(_) => None,
                    None => {
                        let pin = format!("{}/{}", info.label(), sig.dir);
                        self.known_entry(info, fk, &sig, cand, other, &pin)
                    }
                };
                let dest = if intended.is_some() {
                    INTENDED
                } else if known.is_some() {
                    KNOWN
                } else {
                    BUGS
                };
                Finding {
                    kind: fk,
                    signature: sig,
                    twin: TwinStatus::NoTwin,
                    twin_reason: None,
                    twin_file: twin_file(cand, fk, None),
                    known,
                    intended: intended.clone(),
                    folder: dest,
                    run: None,
                }
            });
        Some(Disagreement {
            compiler: info.clone(),
            verdict: other.clone(),
            kind,
            finding,
            intended,
        })
    }
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
