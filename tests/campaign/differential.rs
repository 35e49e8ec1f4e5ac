//! The differential oracle of findings that no Java twin judges (issue 35): a Kotlin program
//! broken by nullability has a twin that cannot judge it, so its finding is settled by other
//! releases or frontends (`--oracle`): confirmed (`bugs/`, twin status `differential`) when
//! one of them gives the expected verdict, generator-suspect (`suspects/`) when every one
//! agrees with the compiler under test, unconfirmed (`suspects/`) when none ran. Fake kotlinc
//! releases with verdicts known in advance; the twins go to the real javac.

use crate::support::fake;

use std::path::Path;

use fake::{install_script, lines, synth, thalia};
use serde_json::Value;

/// A seed whose first ill-typed programs include nullability-broken ones.
const SEED: u64 = 5;
const PROGRAMS: usize = 30;
const MAIN: &str = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler";

/// A kotlinc that accepts everything.
const ACCEPTS: &str = "#!/bin/sh\nexit 0\n";

/// A kotlinc that rejects every `.kt` file with an error on each of its lines (so on the
/// call under test too).
const REJECTS: &str = "#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.kt) n=$(wc -l < \"$a\"); i=1; while [ $i -le $n ]; do echo \"$a:$i:1: error: injected\"; i=$((i+1)); done; rc=1 ;;\n  esac\ndone\nexit $rc\n";

/// The findings of the programs whose twin does not apply, after a check of ill-typed
/// programs with `kotlin@accepts-all` and the oracle `oracle` (`None`: `--no-oracle`).
fn not_applicable_findings(oracle: Option<(&str, &str)>) -> (tempfile::TempDir, Vec<Value>) {
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
    install_script(&toolchains, "kotlin", "accepts-all", MAIN, ACCEPTS);
    let store = root.path().join("store");
    let mut cmd = thalia(&toolchains);
    cmd.arg("check")
        .arg(&programs)
        .args(["--compiler", "kotlin@accepts-all", "-j", "1", "--out"])
        .arg(&store);
    match oracle {
        Some((version, script)) => {
            install_script(&toolchains, "kotlin", version, MAIN, script);
            cmd.args(["--oracle", &format!("kotlin@{version}")]);
        }
        None => {
            cmd.arg("--no-oracle");
        }
    }
    cmd.assert().success();
    let findings: Vec<Value> = lines(&store.join("results.jsonl"))
        .into_iter()
        .map(|r| r["finding"].clone())
        .filter(|f| {
            f["twin_reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("kotlin nullability"))
        })
        .collect();
    assert!(
        !findings.is_empty(),
        "seed {SEED} makes nullability-broken programs"
    );
    (root, findings)
}

/// Whether the store's `folder` holds the directory of the finding `f` (a signature may
/// also have one in another folder, from programs another oracle settled).
fn kept_in(store: &Path, folder: &str, f: &Value) -> bool {
    let sig = f["signature"].as_str().expect("signature");
    store.join(folder).join(sig).is_dir()
}

#[test]
fn a_finding_every_release_agrees_on_is_generator_suspect() {
    let (root, findings) = not_applicable_findings(Some(("9.9.9", ACCEPTS)));
    let store = root.path().join("store");
    for f in &findings {
        assert_eq!(f["twin"], "generator-suspect", "{f}");
        let why = f["twin_reason"].as_str().expect("reason");
        assert!(why.contains("kotlin@9.9.9"), "{f}");
        assert!(kept_in(&store, "suspects", f), "{f}");
    }
}

#[test]
fn a_release_that_gets_the_expected_verdict_confirms_a_finding() {
    let (root, findings) = not_applicable_findings(Some(("9.9.9", REJECTS)));
    let store = root.path().join("store");
    for f in &findings {
        assert_eq!(f["twin"], "differential", "{f}");
        let why = f["twin_reason"].as_str().expect("reason");
        assert!(
            why.contains("kotlin@9.9.9 gives the expected verdict"),
            "{f}"
        );
        assert!(kept_in(&store, "bugs", f), "{f}");
    }
    // the report counts them as confirmed by the differential
    let out = thalia(&root.path().join("toolchains"))
        .arg("report")
        .arg(&store)
        .arg("--json")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let rep: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(rep["twin"]["differential"], findings.len(), "{rep}");
}

#[test]
fn without_an_oracle_a_finding_without_a_twin_stays_out_of_bugs() {
    let (root, findings) = not_applicable_findings(None);
    let store = root.path().join("store");
    for f in &findings {
        assert_eq!(f["twin"], "unconfirmed", "{f}");
        assert!(kept_in(&store, "suspects", f), "{f}");
    }
}
