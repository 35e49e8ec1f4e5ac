//! `report.md` of a finding: what a user pastes into the compiler's tracker — a title, the
//! program, expected against actual verdict with the compiler's message, what javac says of
//! the program's Java twin, how other releases judged it, and how to reproduce it.

use std::fmt::Write as _;

use super::candidate::Candidate;
use super::finding::{twin_applies, FindingKind, TwinStatus};
use super::records::{CompilerInfo, DiffRef};
use crate::compile::Verdict;
use crate::synth::Expected;

/// Lines of compiler output quoted in a report (the rest is in `compiler-output.txt`).
const QUOTED_OUTPUT_LINES: usize = 40;

/// The code-fence language of a source file.
fn fence(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("java") => "java",
        Some("kt") => "kotlin",
        Some("scala") => "scala",
        Some("groovy") => "groovy",
        _ => "",
    }
}

/// What the compiler was expected to do, and what it did, in words.
fn verdict_words(kind: FindingKind, expected: Expected) -> (&'static str, &'static str) {
    let expected = match expected {
        Expected::Accept => "accepts the program (it is well-typed)",
        Expected::Reject => "rejects the program at the marked call (it is ill-typed)",
    };
    let actual = match kind {
        FindingKind::UnexpectedRejection => "rejects it",
        FindingKind::UnexpectedAcceptance => "accepts it",
        FindingKind::Crash => "crashes",
        FindingKind::Performance => "does not finish within the time budget",
        FindingKind::RejectedElsewhere => "rejects it, but away from the call under test",
    };
    (expected, actual)
}

/// The report of a finding of `kind` by compiler `c` on `cand`.
#[allow(clippy::too_many_arguments)]
pub fn report_md(
    c: &CompilerInfo,
    kind: FindingKind,
    signature: &str,
    cand: &Candidate,
    output: &str,
    twin: Option<&Verdict>,
    differential: &[DiffRef],
) -> String {
    let compiler = format!("{} {}", c.tool.profile().executable, c.version);
    let (expected, actual) = verdict_words(kind, cand.expected);
    let mut md = String::new();
    let head = cand.record.member.split('(').next().unwrap_or_default();
    let name = head.rsplit(['.', ' ']).next().unwrap_or(head);
    let _ = writeln!(
        md,
        "# {compiler} {actual}: `{}.{name}`\n",
        cand.record.class
    );
    let _ = writeln!(
        md,
        "The program below calls `{}` ({} typing sequence{}). **Expected:** {compiler} {expected}. **Actual:** {compiler} {actual}.\n",
        cand.record.member,
        cand.mode,
        match &cand.record.broken {
            Some(b) => format!(
                "; its {} is a `{}` where `{}` is needed",
                b.position, b.actual, b.formal
            ),
            None => String::new(),
        }
    );
    let _ = writeln!(
        md,
        "## Program (`{}`)\n\n```{}\n{}```\n",
        cand.file,
        fence(&cand.file),
        cand.source
    );
    let quoted: Vec<&str> = output.lines().take(QUOTED_OUTPUT_LINES).collect();
    let _ = writeln!(
        md,
        "## {compiler} says\n\n```\n{}\n```\n",
        quoted.join("\n")
    );
    let not_applicable = cand
        .record
        .twin_not_applicable
        .as_deref()
        .filter(|_| twin_applies(kind));
    if let (None, Some(reason)) = (&cand.twin, not_applicable) {
        let _ = writeln!(
            md,
            "## Java twin\n\nDoes not apply ({reason}): the finding is not judged by javac.\n"
        );
    }
    if let Some(t) = &cand.twin {
        let _ = writeln!(md, "## Java twin (`{}`)\n", t.file);
        if let Some(reason) = not_applicable {
            let _ = writeln!(
                md,
                "Does not apply ({reason}): javac's verdict on it would say nothing of this finding, so it was not asked.\n"
            );
        }
        match twin.filter(|_| twin_applies(kind) && not_applicable.is_none()) {
            Some(v) => {
                let status = TwinStatus::of(cand.expected, v);
                let _ = writeln!(
                    md,
                    "javac {} the same program written in Java: {}.\n",
                    v.label(),
                    match status {
                        TwinStatus::Confirmed =>
                            "the expected verdict, so the difference is the compiler's",
                        _ => "the same unexpected verdict, so the expectation itself is suspect",
                    }
                );
            }
            None if not_applicable.is_some() => {}
            None => {
                let _ = writeln!(md, "Not compiled for this kind of finding.\n");
            }
        }
        let _ = writeln!(md, "```java\n{}```\n", t.source);
    }
    if !differential.is_empty() {
        let _ = writeln!(md, "## Other releases\n");
        for d in differential {
            let _ = writeln!(md, "- {}: {} ({})", d.against, d.verdict, d.kind.as_str());
        }
        md.push('\n');
    }
    let _ = writeln!(
        md,
        "## Reproduce\n\n```sh\nsh repro.sh    # exit 0: the finding reproduces with {compiler}\n```\n\nSignature: `{signature}`"
    );
    if let Some(r) = &cand.regenerate {
        let _ = writeln!(md, "\nRegenerate with thalia: `{r}`");
    }
    md
}
