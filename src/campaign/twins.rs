//! The oracles of a batch's findings: their Java twins, compiled with javac (a finding whose
//! twin gets the expected verdict is confirmed, one whose twin does not is suspected to be
//! the generator's), and, where no twin applies (Kotlin- and Scala-native APIs), the
//! differential: other releases and frontends of the compiler (a finding is confirmed when
//! one of them gets the expected verdict, generator-suspect when every one agrees with the
//! compiler under test, unconfirmed when none could judge it).

use std::collections::BTreeMap;
use std::path::Path;

use super::candidate::Candidate;
use super::finding::{twin_applies, TwinStatus};
use super::judge::{judge, judge_with_reason, Judgement};
use super::records::{StoreError, BUGS, SUSPECTS};
use super::variant::Variant;
use crate::compile::{
    compile_batch_until, CompileError, CompileOptions, Compiler, Cutoff, Verdict,
};
use crate::synth::Expected;
use crate::toolchain::Toolchain;

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

/// Whether `c`, which got `verdict` from a compiler whose diagnostics are in `format`, is a
/// finding whose Java twin javac should judge: a verdict a twin can judge (a rejection away
/// from the call under test included), a twin, and no word from the language model that it
/// cannot judge it.
pub fn wanted(c: &Candidate, verdict: &Verdict, format: crate::profile::DiagnosticFormat) -> bool {
    judge_with_reason(c.expected, verdict, format, c.record.call_lines).is_some_and(twin_applies)
        && c.twin.is_some()
        && c.record.twin_not_applicable.is_none()
}

/// Compiles the Java twins of `cands` with `javac` (the worker's: a process per batch, or its
/// warm server) in `dir` (one batch; given up at the compiler's cutoff) and returns their
/// verdicts by candidate key. `runtime` (the language runtime of the compiler under test:
/// kotlin-stdlib, the Scala libraries) is added to the classpath, since the twins name its
/// classes as Java sees them.
pub fn compile(
    javac: &mut Compiler,
    dir: &Path,
    cands: &[&Candidate],
    opts: &CompileOptions,
    runtime: &[std::path::PathBuf],
) -> Result<BTreeMap<String, Verdict>, TwinsError> {
    let opts = &with_runtime(opts, runtime);
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

/// `opts` with `runtime` appended to its classpath.
fn with_runtime(opts: &CompileOptions, runtime: &[std::path::PathBuf]) -> CompileOptions {
    if runtime.is_empty() {
        return opts.clone();
    }
    let mut parts: Vec<std::path::PathBuf> = opts
        .classpath
        .as_deref()
        .map(|cp| std::env::split_paths(cp).collect())
        .unwrap_or_default();
    parts.extend(runtime.iter().cloned());
    CompileOptions {
        classpath: std::env::join_paths(parts)
            .ok()
            .map(|s| s.to_string_lossy().into_owned())
            .or_else(|| opts.classpath.clone()),
        ..opts.clone()
    }
}

/// Whether `c`, which got `verdict`, is a finding that no Java twin judges (the language
/// model says the twin cannot, or it has none) and whose verdict a twin could have
/// confirmed: the differential oracle judges it.
pub fn wants_differential(c: &Candidate, verdict: &Verdict) -> bool {
    judge(c.expected, verdict).is_some_and(twin_applies)
        && (c.twin.is_none() || c.record.twin_not_applicable.is_some())
}

/// One compiler of the differential oracle: its label (`NAME@VERSION[:VARIANT]`), its
/// toolchain and its variant.
pub type Oracle<'a> = (String, &'a Toolchain, Option<&'static Variant>);

/// Compiles the sources of `cands` with every compiler of `oracles` (each in its own
/// directory under `dir`, a fresh process; a variant's flags and rewrite applied, else the
/// programs' flags `opts.flags` where that release accepts them) and
/// returns each candidate's verdicts by key, `(compiler label, verdict)` in the order of
/// `oracles`.
pub fn compile_differential(
    oracles: &[Oracle<'_>],
    dir: &Path,
    cands: &[&Candidate],
    opts: &CompileOptions,
    cutoff: &Cutoff,
) -> Result<BTreeMap<String, Vec<(String, Verdict)>>, TwinsError> {
    let mut out: BTreeMap<String, Vec<(String, Verdict)>> = BTreeMap::new();
    for (i, (label, toolchain, variant)) in oracles.iter().enumerate() {
        let src = dir.join(format!("oracle-{i}-src"));
        let classes = dir.join(format!("oracle-{i}-classes"));
        let mut files = Vec::new();
        for p in [&src, &classes] {
            std::fs::create_dir_all(p).map_err(|source| StoreError::Io {
                path: p.clone(),
                source,
            })?;
        }
        for c in cands {
            let p = src.join(&c.file);
            let source = match variant {
                Some(v) => v.apply(&c.source),
                None => c.source.clone(),
            };
            std::fs::write(&p, source).map_err(|source| StoreError::Io {
                path: p.clone(),
                source,
            })?;
            files.push(p);
        }
        // a variant's flags choose its frontend; else the programs' flags where it has them
        let flags = match variant {
            Some(v) if !v.flags.is_empty() => v.flag_list(),
            _ => super::flags::for_release(toolchain.tool, &toolchain.version, &opts.flags),
        };
        let compile = CompileOptions {
            flags,
            ..opts.clone()
        };
        let result = compile_batch_until(toolchain, &mut None, &files, &classes, &compile, cutoff)?;
        for c in cands {
            if let Some(v) = result.verdicts.get(&c.file) {
                out.entry(c.key.clone())
                    .or_default()
                    .push((label.clone(), v.clone()));
            }
        }
    }
    Ok(out)
}

/// What the differential oracle says of a finding of a program expected to be `expected`
/// that the compilers `others` judged: the first compiler that gets the expected verdict
/// confirms it; when every one of them gets the unexpected verdict of the compiler under test
/// the expectation is in doubt. An expected rejection counts only when an error is reported
/// on the call under test (`call_lines`; a compiler that rejects everything, e.g. a frontend
/// flag it does not know, confirms nothing). `None`: no compiler judged it.
pub fn differential_status(
    expected: Expected,
    others: &[(String, Verdict)],
    format: crate::profile::DiagnosticFormat,
    call_lines: Option<thalia_translators::LineSpan>,
) -> Option<(TwinStatus, String)> {
    let at_call = |d: &[String]| match call_lines {
        Some(span) => d
            .iter()
            .any(|x| format.line(x).is_some_and(|l| span.contains(l))),
        None => !d.is_empty(),
    };
    let mut judged = Vec::new();
    for (label, v) in others {
        let expected_verdict = match (expected, v) {
            (Expected::Accept, Verdict::Accepted) => Some(true),
            (Expected::Reject, Verdict::Rejected { diagnostics }) if at_call(diagnostics) => {
                Some(true)
            }
            (Expected::Reject, Verdict::Accepted)
            | (Expected::Accept, Verdict::Rejected { .. }) => Some(false),
            // a crash, a timeout, or a rejection elsewhere: no word on the expectation
            _ => None,
        };
        match expected_verdict {
            Some(true) => {
                return Some((
                    TwinStatus::Differential,
                    format!("{label} gives the expected verdict ({})", v.label()),
                ))
            }
            Some(false) => judged.push(label.as_str()),
            None => {}
        }
    }
    (!judged.is_empty()).then(|| {
        (
            TwinStatus::GeneratorSuspect,
            format!("every other compiler agrees with it: {}", judged.join(", ")),
        )
    })
}

/// Settles the finding of `judgement` (of `cand`, by the compiler under test whose
/// diagnostics are in `format`) that no Java twin judged, by the differential verdicts
/// `others` (empty: no oracle compiler ran): confirmed by another release or frontend
/// (`bugs/`), generator-suspect when every one agrees with the compiler under test, else
/// unconfirmed (`suspects/`). Findings a twin judged, known or intended findings, crashes
/// and timeouts are left as they are.
pub fn settle(
    judgement: &mut Judgement,
    cand: &Candidate,
    verdict: &Verdict,
    others: &[(String, Verdict)],
    format: crate::profile::DiagnosticFormat,
) {
    let Some(f) = judgement.finding.as_mut() else {
        return;
    };
    if f.folder != BUGS || !twin_applies(f.kind) || !wants_differential(cand, verdict) {
        return;
    }
    if !matches!(f.twin, TwinStatus::NotApplicable | TwinStatus::NoTwin) {
        return;
    }
    let why_no_twin = f
        .twin_reason
        .clone()
        .unwrap_or_else(|| "no Java twin".into());
    let (status, oracle) =
        differential_status(cand.expected, others, format, cand.record.call_lines).unwrap_or_else(
            || {
                (
                    TwinStatus::Unconfirmed,
                    "no other release or frontend judged it".into(),
                )
            },
        );
    f.twin = status;
    f.twin_reason = Some(format!("{why_no_twin}; differential: {oracle}"));
    f.folder = if status == TwinStatus::Differential {
        BUGS
    } else {
        SUSPECTS
    };
}

/// The `report.md` section that says which oracle settled the finding `f` when no Java twin
/// judged it (empty otherwise).
pub fn oracle_note(f: &super::judge::Finding) -> String {
    let what = match f.twin {
        TwinStatus::Differential => "confirmed by the differential",
        TwinStatus::Unconfirmed => "unconfirmed (kept apart from the bugs)",
        TwinStatus::GeneratorSuspect if f.twin_reason.is_some() => {
            "generator-suspect by the differential"
        }
        _ => return String::new(),
    };
    format!(
        "## Oracle\n\n{what}: {}.\n",
        f.twin_reason.as_deref().unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::DiagnosticFormat;
    use thalia_translators::LineSpan;

    const KOTLINC: DiagnosticFormat = DiagnosticFormat::Colon {
        unlocated: true,
        continued: false,
        square_type_arguments: false,
    };

    fn rejected_at(line: u32) -> Verdict {
        Verdict::Rejected {
            diagnostics: vec![format!("/w/Test_p1.kt:{line}:5: error: type mismatch")],
        }
    }

    #[test]
    fn one_release_with_the_expected_verdict_confirms_a_finding() {
        let call = Some(LineSpan { first: 7, last: 7 });
        let others = [
            ("kotlin@2.4.21".to_string(), Verdict::Accepted),
            ("kotlin@2.2.21:k1".to_string(), rejected_at(7)),
        ];
        let (status, why) =
            differential_status(Expected::Reject, &others, KOTLINC, call).expect("judged");
        assert_eq!(status, TwinStatus::Differential);
        assert!(why.starts_with("kotlin@2.2.21:k1"), "{why}");
        // an expected acceptance is confirmed by any release that accepts
        let (status, _) =
            differential_status(Expected::Accept, &others, KOTLINC, call).expect("judged");
        assert_eq!(status, TwinStatus::Differential);
    }

    #[test]
    fn every_release_agreeing_with_the_compiler_makes_the_finding_suspect() {
        let call = Some(LineSpan { first: 7, last: 7 });
        let others = [
            ("kotlin@2.4.21".to_string(), Verdict::Accepted),
            ("kotlin@1.8.21".to_string(), Verdict::Accepted),
        ];
        let (status, why) =
            differential_status(Expected::Reject, &others, KOTLINC, call).expect("judged");
        assert_eq!(status, TwinStatus::GeneratorSuspect);
        assert!(why.contains("kotlin@2.4.21, kotlin@1.8.21"), "{why}");
    }

    #[test]
    fn a_rejection_away_from_the_call_or_without_a_line_confirms_nothing() {
        let call = Some(LineSpan { first: 7, last: 7 });
        // a frontend flag the release does not know: an error without a line
        let flag = Verdict::Rejected {
            diagnostics: vec!["error: language version 1.9 is no longer supported".into()],
        };
        let others = [
            ("kotlin@2.4.21:k1".to_string(), flag),
            ("kotlin@2.2.21".to_string(), rejected_at(3)),
        ];
        assert_eq!(
            differential_status(Expected::Reject, &others, KOTLINC, call),
            None
        );
        assert_eq!(
            differential_status(Expected::Reject, &[], KOTLINC, call),
            None
        );
    }
}
