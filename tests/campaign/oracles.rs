//! The oracles beyond the expectation, with fake compilers whose verdicts are known in
//! advance. Java twins: `thalia synth` writes every non-Java program's Java twin beside it, and a
//! campaign compiles the twins of its findings with the real javac. A finding whose twin javac
//! judges as expected is confirmed (kept in `bugs/`); one whose twin javac judges the same
//! unexpected way is generator-suspect (kept apart in `suspects/`). The compiler under test
//! is a fake groovyc (a shell script installed as a `groovy` toolchain) that rejects chosen
//! programs, so that the findings are known in advance. Differentials (`--against`): two fake
//! releases that reject different programs give a regression and a fixed-since finding.

use crate::support::fake;

use std::path::{Path, PathBuf};

use fake::{fake_groovyc, lines, synth, thalia};
use serde_json::Value;

/// Installs `groovy@VERSION`: it reports a groovyc-style error for each of `reject` among its
/// arguments (exit 1) and accepts everything else.
fn fake_groovy_release(toolchains: &Path, version: &str, reject: &[&str]) {
    let pattern = reject
        .iter()
        .map(|f| format!("*/{f}"))
        .collect::<Vec<_>>()
        .join("|");
    fake_groovyc(
        toolchains,
        version,
        &format!(
            "    {pattern})\n      echo \"file://$a: 5: [Static type checking] - injected rejection @ line 5, column 9.\"\n      rc=1\n      ;;"
        ),
    );
}

#[test]
fn synth_writes_a_java_twin_beside_each_non_java_program() {
    let root = tempfile::tempdir().expect("tempdir");
    let out = root.path().join("groovy");
    synth(&root.path().join("tc"), "groovy", "well-typed", 1, 5, &out);
    for r in lines(&out.join("programs.jsonl")) {
        let twin = r["twin"].as_str().expect("a twin is recorded");
        let id = r["id"].as_str().expect("an id");
        assert_eq!(twin, format!("Test_{id}.java"));
        let java = std::fs::read_to_string(out.join(twin)).expect("the twin is written");
        assert!(java.contains(&format!("class Test_{id}")), "{java}");
    }
    let java_out = root.path().join("java");
    synth(
        &root.path().join("tc"),
        "java",
        "well-typed",
        1,
        5,
        &java_out,
    );
    for r in lines(&java_out.join("programs.jsonl")) {
        assert!(r.get("twin").is_none(), "a Java program has no twin: {r}");
    }
}

#[test]
fn findings_are_confirmed_or_kept_apart_by_their_java_twin() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, 8, &programs);
    // p000001 is rejected by the fake groovyc: its twin is valid Java, so javac confirms the
    // finding. p000002 is rejected too, but its twin is broken as a generator bug would break
    // it: javac rejects the twin as well, so the finding is generator-suspect.
    fake_groovy_release(
        &toolchains,
        "fake",
        &["Test_p000001.groovy", "Test_p000002.groovy"],
    );
    std::fs::write(
        programs.join("Test_p000002.java"),
        "package thalia.p000002;\nclass Test_p000002 { int x = \"not an int\"; }\n",
    )
    .expect("break the twin");
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@fake", "--batch-size", "4", "-j", "1"])
        .arg("--out")
        .arg(&store)
        .assert()
        .success();
    let results = lines(&store.join("results.jsonl"));
    assert_eq!(results.len(), 8);
    for r in &results {
        let id = r["id"].as_str().expect("id");
        match id {
            "p000001" => {
                assert_eq!(r["finding"]["twin"], "confirmed", "{r}");
                assert_eq!(r["twin_verdict"], "accepted", "{r}");
            }
            "p000002" => {
                assert_eq!(r["finding"]["twin"], "generator-suspect", "{r}");
                assert_eq!(r["twin_verdict"], "rejected", "{r}");
            }
            _ => {
                assert!(r["finding"].is_null(), "{r}");
                assert!(r.get("twin_verdict").is_none(), "no twin compiled: {r}");
            }
        }
    }
    let dirs = |folder: &str| -> Vec<PathBuf> {
        std::fs::read_dir(store.join(folder))
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    let (bugs, suspects) = (dirs("bugs"), dirs("suspects"));
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    assert_eq!(suspects.len(), 1, "{suspects:?}");
    assert!(bugs[0].join("Test_p000001.java").exists());
    let finding: Value = serde_json::from_str(
        &std::fs::read_to_string(bugs[0].join("finding.json")).expect("finding.json"),
    )
    .expect("JSON");
    assert_eq!(finding["twin"]["status"], "confirmed");
    assert_eq!(finding["twin"]["verdict"], "accepted");
    let report = thalia(&toolchains)
        .args(["report", "--json"])
        .arg(&store)
        .output()
        .expect("report runs");
    let report: Value = serde_json::from_slice(&report.stdout).expect("report JSON");
    assert_eq!(report["twin"]["confirmed"], 1, "{report}");
    assert_eq!(report["twin"]["generator-suspect"], 1, "{report}");
}

#[test]
fn releases_that_disagree_give_regressions_and_fixed_since_findings() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, 6, &programs);
    // the new release wrongly rejects p000001, the old one wrongly rejects p000002
    fake_groovy_release(&toolchains, "2.0", &["Test_p000001.groovy"]);
    fake_groovy_release(&toolchains, "1.0", &["Test_p000002.groovy"]);
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args([
            "--compiler",
            "groovy@2.0",
            "--against",
            "groovy@1.0",
            "--no-twin",
            "-j",
            "1",
        ])
        .arg("--out")
        .arg(&store)
        .assert()
        .success();
    for r in lines(&store.join("results.jsonl")) {
        let id = r["id"].as_str().expect("id");
        let diff = r["differential"].as_array().cloned().unwrap_or_default();
        match id {
            "p000001" => {
                assert_eq!(diff.len(), 1, "{r}");
                assert_eq!(diff[0]["kind"], "regression", "{r}");
                assert_eq!(diff[0]["against"], "groovy@1.0", "{r}");
                assert_eq!(diff[0]["verdict"], "accepted", "{r}");
                assert!(
                    diff[0]["finding"].is_null(),
                    "the new release's own finding: {r}"
                );
                assert_eq!(r["finding"]["kind"], "unexpected-rejection", "{r}");
            }
            "p000002" => {
                assert_eq!(diff.len(), 1, "{r}");
                assert_eq!(diff[0]["kind"], "fixed-since", "{r}");
                assert_eq!(diff[0]["verdict"], "rejected", "{r}");
                assert!(
                    r["finding"].is_null(),
                    "the release under test is right: {r}"
                );
                let sig = diff[0]["finding"]["signature"].as_str().expect("a finding");
                assert!(sig.starts_with("groovy@1.0/"), "{sig}");
                let bug = store.join("bugs").join(sig);
                assert!(bug.join("repro.sh").exists(), "{}", bug.display());
                let repro = std::fs::read_to_string(bug.join("repro.sh")).expect("repro.sh");
                assert!(
                    repro.contains("groovy 1.0"),
                    "the old release reproduces: {repro}"
                );
            }
            _ => assert!(diff.is_empty(), "{r}"),
        }
    }
    let report = thalia(&toolchains)
        .args(["report", "--json"])
        .arg(&store)
        .output()
        .expect("report runs");
    let report: Value = serde_json::from_slice(&report.stdout).expect("report JSON");
    assert_eq!(
        report["differential"]["regression vs groovy@1.0"], 1,
        "{report}"
    );
    assert_eq!(
        report["differential"]["fixed-since vs groovy@1.0"], 1,
        "{report}"
    );
}

#[test]
fn an_ill_typed_program_rejected_away_from_its_call_is_kept_apart() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "ill-typed", 1, 4, &programs);
    // a fake groovyc that rejects every program: p000001 at its package line, the others at
    // their last statement (the call under test, the line before the two closing braces)
    fake_groovyc(
        &toolchains,
        "elsewhere",
        "    *.groovy)\n      rc=1\n      case \"$a\" in\n        */Test_p000001.groovy) l=1 ;;\n        *) l=$(( $(wc -l < \"$a\") - 2 )) ;;\n      esac\n      echo \"file://$a: $l: [Static type checking] - injected @ line $l, column 9.\"\n      ;;",
    );
    for r in lines(&programs.join("programs.jsonl")) {
        assert!(r["call_lines"]["first"].as_u64().is_some(), "{r}");
    }
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@elsewhere", "--no-twin", "-j", "1"])
        .arg("--out")
        .arg(&store)
        .assert()
        .success();
    for r in lines(&store.join("results.jsonl")) {
        if r["id"] == "p000001" {
            assert_eq!(r["finding"]["kind"], "rejected-elsewhere", "{r}");
            assert_eq!(r["matches"], false, "{r}");
        } else {
            assert!(r["finding"].is_null(), "rejected at the call: {r}");
        }
    }
    let suspects: Vec<_> = std::fs::read_dir(store.join("suspects"))
        .expect("suspects/")
        .flatten()
        .collect();
    assert_eq!(suspects.len(), 1);
    assert!(
        !store.join("bugs").exists()
            || std::fs::read_dir(store.join("bugs"))
                .expect("bugs/")
                .next()
                .is_none()
    );
}

#[test]
fn a_rejection_elsewhere_that_only_a_batch_shows_is_no_finding() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "ill-typed", 1, 4, &programs);
    // a fake groovyc that rejects every program at its call under test, but p000001 at its
    // package line when other files are compiled with it (as groovyc 6.0.0 left out a
    // file's error at the call in a large compilation)
    crate::support::fake::install_script(
        &toolchains,
        "groovy",
        "batchy",
        "org.codehaus.groovy.tools.FileSystemCompiler",
        "#!/bin/sh\nn=0\nfor a in \"$@\"; do case \"$a\" in *.groovy) n=$((n+1)) ;; esac; done\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.groovy)\n      rc=1\n      l=$(( $(wc -l < \"$a\") - 2 ))\n      case \"$a\" in */Test_p000001.groovy) [ $n -gt 1 ] && l=1 ;; esac\n      echo \"file://$a: $l: [Static type checking] - injected @ line $l, column 9.\"\n      ;;\n  esac\ndone\nexit $rc\n",
    );
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@batchy", "--no-twin", "-j", "1"])
        .args(["--batch-size", "4"])
        .arg("--out")
        .arg(&store)
        .assert()
        .success();
    let results = lines(&store.join("results.jsonl"));
    assert_eq!(results.len(), 4);
    for r in &results {
        // compiled alone, p000001 is rejected at its call: no finding
        assert!(r["finding"].is_null(), "{r}");
        assert_eq!(r["verdict"], "rejected", "{r}");
    }
}

#[test]
fn a_signature_keeps_a_few_programs_whose_diagnostics_differ() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, 8, &programs);
    // every program rejected with one signature; the message names the program's file, so
    // the full diagnostics differ: the first program is the finding, three more are variants
    fake_groovyc(
        &toolchains,
        "variants",
        "    *.groovy)\n      rc=1\n      n=$(basename \"$a\" .groovy)\n      echo \"file://$a: 3: [Static type checking] - Cannot find matching method '$n' @ line 3, column 9.\"\n      ;;",
    );
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@variants", "--no-twin", "-j", "1"])
        .arg("--out")
        .arg(&store)
        .assert()
        .success();
    let bugs: Vec<PathBuf> = std::fs::read_dir(store.join("bugs"))
        .expect("bugs/")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(bugs.len(), 1, "one signature: {bugs:?}");
    let variants: Vec<PathBuf> = std::fs::read_dir(bugs[0].join("variants"))
        .expect("variants/")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(variants.len(), 3, "{variants:?}");
    for v in &variants {
        let text = std::fs::read_to_string(v.join("variant.txt")).expect("variant.txt");
        assert!(text.contains("Cannot find matching method"), "{text}");
    }
}

/// Installs a fake javac `javac@99` (newer than the JDK's, so campaigns take it for the
/// twins) from the body of a shell `case "$a"` over its arguments.
fn fake_javac(toolchains: &Path, cases: &str) {
    fake::install_script(
        toolchains,
        "javac",
        "99",
        "com.sun.tools.javac.Main",
        &format!("#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n{cases}\n  esac\ndone\nexit $rc\n"),
    );
}

#[test]
fn a_program_rejected_away_from_its_call_whose_twin_javac_judges_the_other_way_is_a_bug() {
    // the fake groovyc rejects p000001 at its package line, away from the call; javac is
    // asked about the twin: accepting it (or rejecting it at the call) says the compiler
    // rejects a statement javac accepts (bugs/); rejecting it away from the call as well
    // says the generator wrote it so (suspects/)
    for (javac, folder, status) in [
        ("    *) ;;", "bugs", "confirmed"),
        (
            "    *Test_p000001.java)\n      echo \"$a:1: error: injected\"\n      rc=1\n      ;;",
            "suspects",
            "generator-suspect",
        ),
    ] {
        let root = tempfile::tempdir().expect("tempdir");
        let toolchains = root.path().join("toolchains");
        let programs = root.path().join("programs");
        synth(&toolchains, "groovy", "ill-typed", 1, 4, &programs);
        fake_groovyc(
            &toolchains,
            "elsewhere",
            "    *.groovy)\n      rc=1\n      case \"$a\" in\n        */Test_p000001.groovy) l=1 ;;\n        *) l=$(( $(wc -l < \"$a\") - 2 )) ;;\n      esac\n      echo \"file://$a: $l: [Static type checking] - injected @ line $l, column 9.\"\n      ;;",
        );
        fake_javac(&toolchains, javac);
        let store = root.path().join("store");
        thalia(&toolchains)
            .arg("check")
            .arg(&programs)
            .args(["--compiler", "groovy@elsewhere", "-j", "1"])
            .arg("--out")
            .arg(&store)
            .assert()
            .success();
        let line = lines(&store.join("results.jsonl"))
            .into_iter()
            .find(|r| r["id"] == "p000001")
            .expect("p000001 judged");
        assert_eq!(line["finding"]["kind"], "rejected-elsewhere", "{line}");
        assert_eq!(line["finding"]["twin"], status, "{line}");
        assert!(
            line["twin_verdict"].is_string(),
            "the twin was compiled: {line}"
        );
        let dirs: Vec<PathBuf> = std::fs::read_dir(store.join(folder))
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        assert_eq!(dirs.len(), 1, "{folder}: {dirs:?}");
        let finding: Value = serde_json::from_str(
            &std::fs::read_to_string(dirs[0].join("finding.json")).expect("finding.json"),
        )
        .expect("JSON");
        assert_eq!(finding["twin"]["status"], status, "{finding}");
        let report = std::fs::read_to_string(dirs[0].join("report.md")).expect("report.md");
        assert!(report.contains("What javac says"), "{report}");
    }
}
