//! Where a Java twin does not apply, that is recorded: a Kotlin program broken by
//! nullability (a `T?` value where `T` is required) has a Java twin that javac accepts
//! whatever kotlinc must do, since Java has no nullable types. `programs.jsonl` records why
//! (`twin_not_applicable`), and a campaign gives such a finding the twin status
//! `not-applicable` in `finding.json`, with the reason, instead of judging it by javac's
//! meaningless verdict; without a differential oracle (`--no-oracle`) such a finding is
//! unconfirmed and kept in `suspects/` (`differential.rs` has the oracle's other outcomes).
//! The compiler under test is a fake kotlinc that accepts everything, so every ill-typed
//! program is a finding; the twins go to the real javac.

use crate::support::fake;

use std::collections::HashMap;
use std::path::Path;

use fake::{install_script, lines, sample_api, synth, thalia};
use serde_json::Value;

/// The reason recorded for a program broken by nullability.
const REASON: &str = "kotlin nullability: Java has no nullable types";

/// A seed whose first programs include nullability-broken ones (see the assertions).
const SEED: u64 = 5;
const PROGRAMS: usize = 30;

/// Installs `kotlin@accepts-all`, a kotlinc that accepts every program.
fn accepting_kotlinc(toolchains: &Path) {
    install_script(
        toolchains,
        "kotlin",
        "accepts-all",
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        "#!/bin/sh\nexit 0\n",
    );
}

fn report(toolchains: &Path, store: &Path) -> Value {
    let out = thalia(toolchains)
        .arg("report")
        .arg(store)
        .arg("--json")
        .output()
        .expect("runs");
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn nullability_broken(record: &Value) -> bool {
    record["broken"]["actual"]
        .as_str()
        .is_some_and(|a| a.ends_with('?'))
}

#[test]
fn a_nullability_broken_kotlin_finding_is_not_judged_by_its_twin() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(
        &toolchains,
        "kotlin",
        "ill-typed",
        SEED,
        PROGRAMS,
        &programs,
    );
    accepting_kotlinc(&toolchains);
    // synthesis records where the twin does not apply, and only there
    let records: HashMap<String, Value> = lines(&programs.join("programs.jsonl"))
        .into_iter()
        .map(|r| (r["id"].as_str().expect("id").to_string(), r))
        .collect();
    let broken: Vec<&String> = records
        .iter()
        .filter(|(_, r)| nullability_broken(r))
        .map(|(id, _)| id)
        .collect();
    assert!(
        !broken.is_empty(),
        "seed {SEED} makes nullability-broken programs"
    );
    for r in records.values() {
        let reason = r.get("twin_not_applicable").and_then(Value::as_str);
        if nullability_broken(r) {
            assert_eq!(reason, Some(REASON), "{r}");
        } else if r.get("twin").is_some() {
            assert_eq!(reason, None, "{r}");
        }
    }

    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args([
            "--compiler",
            "kotlin@accepts-all",
            "--no-oracle",
            "-j",
            "1",
            "--out",
        ])
        .arg(&store)
        .assert()
        .success();
    let results = lines(&store.join("results.jsonl"));
    assert_eq!(results.len(), records.len());
    let mut not_applicable = 0;
    for r in &results {
        let rec = &records[r["id"].as_str().expect("id")];
        let f = &r["finding"];
        assert_eq!(f["kind"], "unexpected-acceptance", "{r}");
        if nullability_broken(rec) {
            not_applicable += 1;
            assert_eq!(f["twin"], "unconfirmed", "{r}");
            assert!(reason_of(f).starts_with(REASON), "{r}");
            // javac was not asked: its verdict would say nothing
            assert!(r.get("twin_verdict").is_none(), "{r}");
            if f["first"] == true {
                let dir = store
                    .join("suspects")
                    .join(f["signature"].as_str().expect("sig"));
                let finding: Value = serde_json::from_str(
                    &std::fs::read_to_string(dir.join("finding.json")).expect("finding.json"),
                )
                .expect("JSON");
                assert_eq!(finding["twin"]["status"], "not-applicable", "{finding}");
                assert_eq!(finding["twin"]["not_applicable"], REASON, "{finding}");
                let md = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
                assert!(md.contains(&format!("Does not apply ({REASON})")), "{md}");
            }
        } else {
            assert_ne!(f["twin"], "unconfirmed", "{r}");
        }
    }
    assert_eq!(not_applicable, broken.len());
    let rep = report(&toolchains, &store);
    // none of them in bugs/
    assert_eq!(rep["standing"]["twin_not_applicable"], 0, "{rep}");
    assert_eq!(rep["twin"]["unconfirmed"], not_applicable, "{rep}");
}

/// The reason a finding's twin cannot judge it, as its results line records it.
fn reason_of(f: &Value) -> &str {
    f["twin_reason"].as_str().unwrap_or_default()
}

#[test]
fn a_campaign_synthesizing_on_the_fly_records_it_too() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    accepting_kotlinc(&toolchains);
    let store = root.path().join("run");
    thalia(&toolchains)
        .args(["run", "--lang", "kotlin", "--mode", "ill-typed", "--seed"])
        .arg(SEED.to_string())
        .args([
            "--budget",
            "40",
            "--compiler",
            "kotlin@accepts-all",
            "--no-oracle",
        ])
        .args(["-j", "1", "--no-reduce", "--api"])
        .arg(sample_api())
        .arg("--out")
        .arg(&store)
        .assert()
        .success();
    let results = lines(&store.join("results.jsonl"));
    let na: Vec<&Value> = results
        .iter()
        .filter(|r| reason_of(&r["finding"]).starts_with(REASON))
        .collect();
    assert!(!na.is_empty(), "some nullability-broken findings");
    for r in &na {
        assert_eq!(r["finding"]["twin"], "unconfirmed", "{r}");
        assert!(r.get("twin_verdict").is_none(), "{r}");
    }
    // each such signature's first program is nullability-broken
    for r in na.iter().filter(|r| r["finding"]["first"] == true) {
        let dir = store
            .join("suspects")
            .join(r["finding"]["signature"].as_str().expect("sig"));
        let finding: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("finding.json")).expect("finding.json"),
        )
        .expect("JSON");
        assert!(
            nullability_broken(&finding["program"]["record"]),
            "{finding}"
        );
    }
    let rep = report(&toolchains, &store);
    assert_eq!(rep["standing"]["twin_not_applicable"], 0, "{rep}");
}
