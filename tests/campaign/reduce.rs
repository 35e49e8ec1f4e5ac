//! `thalia reduce`: a finding's program shrinks while the compiler keeps giving it its
//! signature. The compiler is a fake javac that rejects any program calling a marker method
//! (and runs the real javac otherwise), so the finding is known in advance: the reduced
//! program must still call the marker, be smaller, and come with its `report.md`.

use crate::support::fake;

use std::path::{Path, PathBuf};

use fake::{install_script, real_javac, sample_api, thalia};
use serde_json::Value;

/// Installs `javac@marker`: a program whose source contains `marker` is rejected with one
/// fixed message at the marker's line; anything else goes to the real javac.
fn marker_javac(toolchains: &Path, marker: &str) {
    marker_javac_as(toolchains, "marker", marker, "");
}

/// Installs `javac@VERSION` rejecting the marker's programs, running the shell line `then`
/// (with `$a` the file) after its message.
fn marker_javac_as(toolchains: &Path, version: &str, marker: &str, then: &str) {
    install_script(
        toolchains,
        "javac",
        version,
        "com.sun.tools.javac.Main",
        &format!(
            "#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.java)\n      l=$(grep -n -F -- '{marker}' \"$a\" | head -1 | cut -d: -f1)\n      if [ -n \"$l\" ]; then\n        echo \"$a:$l: error: injected rejection of the marker call\"\n        {then}\n        rc=1\n      fi\n      ;;\n  esac\ndone\n[ $rc -ne 0 ] && exit 1\nexec '{}' \"$@\"\n",
            real_javac().display()
        ),
    );
}

/// A campaign of well-typed Java programs of the sample API with `javac@VERSION`, reduction
/// left for later: its one finding's directory.
fn marker_campaign(toolchains: &Path, run: &Path, version: &str) -> PathBuf {
    thalia(toolchains)
        .args([
            "run",
            "--lang",
            "java",
            "--mode",
            "well-typed",
            "--seed",
            "3",
            "--budget",
            "60",
            "--compiler",
            &format!("javac@{version}"),
            "-j",
            "1",
            "--no-reduce",
            "--api",
        ])
        .arg(sample_api())
        .arg("--out")
        .arg(run)
        .assert()
        .success();
    let bugs: Vec<PathBuf> = std::fs::read_dir(run.join("bugs"))
        .expect("a finding")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("program.ir.json").exists())
        .collect();
    assert_eq!(bugs.len(), 1, "one signature: {bugs:?}");
    bugs[0].clone()
}

#[test]
fn a_finding_shrinks_while_it_keeps_its_signature() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    // `Map.of` with explicit type arguments, called with several locals
    let marker = "java.util.Map.<";
    marker_javac(&toolchains, marker);
    let bug = &marker_campaign(&toolchains, &root.path().join("run"), "marker");
    thalia(&toolchains)
        .arg("reduce")
        .arg(bug)
        .assert()
        .success();
    let reduced = bug.join("reduced");
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(reduced.join("reduction.json")).expect("reduction.json"),
    )
    .expect("JSON");
    let (before, after) = (
        summary["size_before"].as_u64().expect("size"),
        summary["size_after"].as_u64().expect("size"),
    );
    assert!(after <= before, "{summary}");
    assert!(
        summary["lines_after"].as_u64() <= summary["lines_before"].as_u64(),
        "{summary}"
    );
    let program = std::fs::read_dir(&reduced)
        .expect("reduced/")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "java"))
        .expect("the reduced program");
    let source = std::fs::read_to_string(&program).expect("source");
    assert!(
        source.contains(marker),
        "the finding's cause stays:\n{source}"
    );
    let report = std::fs::read_to_string(reduced.join("report.md")).expect("report.md");
    assert!(
        report.contains("```java") && report.contains(marker),
        "{report}"
    );
    // the reduced program still gets the finding from the compiler, as it was recorded
    let out = std::process::Command::new(
        std::fs::read_to_string(toolchains.join("javac/marker/toolchain.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["java"].as_str().map(PathBuf::from))
            .expect("the fake javac"),
    )
    .arg("-d")
    .arg(root.path().join("classes"))
    .arg(&program)
    .output()
    .expect("runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("injected rejection"));
}

#[test]
fn a_reduction_step_that_adds_an_error_of_its_own_is_refused() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let marker = "java.util.Map.<";
    // one more error after the marker's for each `null` the program writes: a step that
    // writes a new `null` (its smallest inhabitant) keeps the first diagnostic but adds an
    // error of its own
    marker_javac_as(
        &toolchains,
        "nulls",
        marker,
        "grep -n -o -F null \"$a\" | cut -d: -f1 | while read n; do echo \"$a:$n: error: injected error of a null\"; done",
    );
    let bug = &marker_campaign(&toolchains, &root.path().join("run"), "nulls");
    let java_in = |dir: &Path| {
        let file = std::fs::read_dir(dir)
            .expect("a directory")
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "java"))
            .expect("a program");
        std::fs::read_to_string(file).expect("source")
    };
    let original = java_in(bug);
    thalia(&toolchains)
        .arg("reduce")
        .arg(bug)
        .assert()
        .success();
    let reduced = java_in(&bug.join("reduced"));
    let nulls = |s: &str| s.matches("null").count();
    assert!(reduced.contains(marker), "{reduced}");
    assert!(
        nulls(&reduced) <= nulls(&original),
        "the reduced program has errors the original had not ({} nulls, {} before):\n{reduced}",
        nulls(&reduced),
        nulls(&original)
    );
    assert!(reduced.len() < original.len(), "still reduced:\n{reduced}");
}

#[test]
fn a_directory_without_a_finding_is_a_clear_error() {
    let root = tempfile::tempdir().expect("tempdir");
    thalia(&root.path().join("tc"))
        .arg("reduce")
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("finding.json"));
}

#[test]
fn a_campaign_reduces_its_new_findings_by_itself() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let marker = "java.util.Map.<";
    marker_javac(&toolchains, marker);
    let run = root.path().join("run");
    let out = thalia(&toolchains)
        .args([
            "run",
            "--lang",
            "java",
            "--mode",
            "well-typed",
            "--seed",
            "3",
            "--budget",
            "60",
            "--compiler",
            "javac@marker",
            "-j",
            "1",
            "--api",
        ])
        .arg(sample_api())
        .arg("--out")
        .arg(&run)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("reduced 1 finding"), "{stderr}");
    let bugs: Vec<PathBuf> = std::fs::read_dir(run.join("bugs"))
        .expect("a finding")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("program.ir.json").exists())
        .collect();
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(bugs[0].join("reduced/reduction.json"))
            .expect("the campaign wrote reduced/reduction.json"),
    )
    .expect("JSON");
    assert!(
        summary["lines_after"].as_u64() < summary["lines_before"].as_u64(),
        "{summary}"
    );
    // nothing is pending any more: a resumed run has nothing to reduce
    assert!(thalia::campaign::autoreduce::pending(&run).is_empty());
}
