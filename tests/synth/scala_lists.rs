//! Scala calls with several parameter lists and implicit arguments (issue #15): members of
//! the Scala standard library with curried lists (`foldLeft(z)(op)`), none (`empty[A]`) or an
//! implicit list (`sorted(using ord)`) are called with every list written, the implicit
//! arguments given explicitly (Scala 3 `(using ev)`, Scala 2.13 `(ev)`). The programs whose
//! call under test has such lists are picked from a synthesized round and compiled with the
//! real scalac 3.9.0 and 2.13.18 (`thalia check`, which installs them through the Maven
//! configuration when missing): well-typed ones must be accepted, ill-typed ones rejected.

use std::path::{Path, PathBuf};

use crate::support::runs;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// Synthesizes every `stride`-th program of a round of `mode` programs in `lang` from the
/// embedded Scala standard library.
fn synth(out: &Path, lang: &str, mode: &str, stride: usize) {
    thalia()
        .args(["synth", "--api", "@scala-library-2.13.18", "--lang", lang])
        .args(["--mode", mode, "--seed", "27", "-j", "2"])
        .args(["--stride", &stride.to_string()])
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// The lines of a program's call under test (`call_lines` of its record).
fn call_text(dir: &Path, rec: &Value) -> String {
    let file = rec["file"].as_str().expect("file");
    let src = std::fs::read_to_string(dir.join(file)).expect("program");
    let line = |k: &str| rec["call_lines"][k].as_u64().map(|n| n as usize);
    // (a record without the lines: none of its calls is picked)
    let (Some(first), Some(last)) = (line("first"), line("last")) else {
        return String::new();
    };
    src.lines()
        .skip(first.saturating_sub(1))
        .take(last + 1 - first)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Copies into `to` (with the run's summary) the programs of `from` whose call under test
/// contains one of `patterns`, at most `per_pattern` for each (a call counts for the first
/// pattern it contains); returns the texts of their calls.
fn pick(from: &Path, to: &Path, patterns: &[&str], per_pattern: usize) -> Vec<String> {
    std::fs::create_dir_all(to).expect("dir");
    std::fs::copy(from.join("summary.json"), to.join("summary.json")).expect("summary");
    let text = std::fs::read_to_string(from.join("programs.jsonl")).expect("programs.jsonl");
    let mut lines = Vec::new();
    let mut calls = Vec::new();
    let mut taken = vec![0usize; patterns.len()];
    for line in text.lines() {
        let rec: Value = serde_json::from_str(line).expect("a JSON line");
        let call = call_text(from, &rec);
        let Some(k) = patterns.iter().position(|p| call.contains(p)) else {
            continue;
        };
        if taken[k] < per_pattern {
            taken[k] += 1;
            let file = rec["file"].as_str().expect("file");
            std::fs::copy(from.join(file), to.join(file)).expect("copy");
            // the Java twin, which judges a mismatch
            if let Some(twin) = rec["twin"].as_str() {
                if from.join(twin).exists() {
                    std::fs::copy(from.join(twin), to.join(twin)).expect("copy the twin");
                }
            }
            lines.push(line.to_string());
            calls.push(call);
        }
    }
    std::fs::write(to.join("programs.jsonl"), lines.join("\n") + "\n").expect("write");
    calls
}

/// Compiles a directory with `compiler` (`thalia check`); returns the number of programs
/// judged and of those whose verdict contradicts the expectation.
fn check(dir: &Path, compiler: &str) -> (usize, usize) {
    thalia()
        // one warm server: a dozen programs do not pay for a second JVM
        .args(["check", "--compiler", compiler, "--server", "-j", "1"])
        // scalac brings its own standard library
        .args(["--classpath", ""])
        .arg(dir)
        .assert()
        .success();
    let results = dir.join(format!(
        "check-{}/results.jsonl",
        compiler.replace('@', "-")
    ));
    runs::mismatches(&results)
}

/// One cell: synthesize, pick the calls with lists, assert their text, compile them.
fn cell(tmp: &Path, lang: &str, mode: &str, patterns: &[&str], compiler: &str) -> Vec<String> {
    let all: PathBuf = tmp.join(format!("{lang}-{mode}"));
    synth(&all, lang, mode, STRIDE);
    let picked = all.join("picked");
    let calls = pick(&all, &picked, patterns, PER_PATTERN);
    assert!(
        calls.len() >= MIN_PER_CELL,
        "{lang} {mode}: only {} calls with parameter lists",
        calls.len()
    );
    let (n, wrong) = check(&picked, compiler);
    assert_eq!(n, calls.len(), "{lang} {mode}: every picked program judged");
    assert!(
        wrong * 100 <= n * MAX_WRONG_PERCENT,
        "{lang} {mode}: {wrong} of {n} programs contradict their expectation"
    );
    calls
}

#[test]
fn curried_and_implicit_calls_compile_as_expected_with_scalac_3_and_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Scala 3 writes implicit arguments `(using ev)`, curried lists `(a)(b)`
    let calls = cell(
        tmp.path(),
        "scala3",
        "well-typed",
        &["(using ", ")("],
        "scala3@3.9.0",
    );
    assert!(calls.iter().any(|c| c.contains("(using ")), "{calls:#?}");
    assert!(
        calls
            .iter()
            .any(|c| c.contains(")(") && !c.contains(")(using")),
        "a curried call: {calls:#?}"
    );
    let ill = cell(
        tmp.path(),
        "scala3",
        "ill-typed",
        &["(using ", ")("],
        "scala3@3.9.0",
    );
    assert!(ill.iter().any(|c| c.contains("(using ")), "{ill:#?}");
    // Scala 2.13 passes implicit arguments as a plain list: `(a)(ev)`
    let calls2 = cell(
        tmp.path(),
        "scala2",
        "well-typed",
        &[")("],
        "scala2@2.13.18",
    );
    assert!(calls2.iter().all(|c| !c.contains("using")), "{calls2:#?}");
    // (Scala 2's ill-typed cell is left to the measured samples: CI's time)
}

/// Every how-many-th program of a round is synthesized.
const STRIDE: usize = 8;

/// Programs compiled per pattern of a cell at most, and per cell at least (the round must
/// have them).
const PER_PATTERN: usize = 6;
const MIN_PER_CELL: usize = 6;

/// Most programs, in percent, whose verdict may contradict the expectation (measured:
/// docs/scala.md).
const MAX_WRONG_PERCENT: usize = 10;
