//! Intended language changes (`known-findings/intended-changes.toml`, `--intended FILE`): two
//! fake groovyc releases disagree on every program (7.0 rejects what 6.0 accepts). Without an
//! entry each disagreement is a `regression` of 7.0, stored in `bugs/`; with an entry saying
//! 6.x → 7.x changed this on purpose, the same findings are labelled `intended`, stored in
//! `intended/` and counted apart in `thalia report`, on whichever side the wrong compiler is.

use crate::support::fake;

use std::path::Path;

use fake::{fake_groovyc, lines, synth, thalia};
use predicates::prelude::PredicateBooleanExt;
use serde_json::Value;

const PROGRAMS: usize = 3;

/// The entry: the 7.x rejection of the marked programs is an intended change since 6.x.
const ENTRY: &str = r#"
[[change]]
id = "G7-INJECTED"
compiler = "groovy"
before = ["[6.0,7.0)"]
after = ["7.*"]
signatures = ["groovy unexpected-rejection: *injected*"]
reason = "groovyc 7 rejects the injected marker on purpose"
link = "https://example.org/groovy-7-changes"
"#;

/// Checks the synthesized programs in `programs` with `groovy@compiler` against
/// `groovy@against` into `store`, with the intended-changes file `intended` when given.
fn check(
    toolchains: &Path,
    programs: &Path,
    compiler: &str,
    against: &str,
    store: &Path,
    intended: Option<&Path>,
) {
    let mut cmd = thalia(toolchains);
    cmd.arg("check")
        .arg(programs)
        .args(["--compiler", &format!("groovy@{compiler}")])
        .args(["--against", &format!("groovy@{against}")])
        .args(["--no-twin", "-j", "1", "--out"])
        .arg(store);
    if let Some(f) = intended {
        cmd.arg("--intended").arg(f);
    }
    cmd.assert().success();
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

fn subdirs(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_disagreement_listed_as_intended_is_labelled_and_counted_apart() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, PROGRAMS, &programs);
    // 7.0 rejects every program with a marked message; 6.0 accepts everything
    fake_groovyc(
        &toolchains,
        "7.0",
        "    *.groovy) echo \"file://$a: 3: [Static type checking] - injected marker @ line 3, column 1.\"; rc=1 ;;",
    );
    fake_groovyc(&toolchains, "6.0", "");
    let file = root.path().join("intended.toml");
    std::fs::write(&file, ENTRY).expect("write");

    // without the entry: a regression of the release under test, a bug
    let plain = root.path().join("plain");
    check(&toolchains, &programs, "7.0", "6.0", &plain, None);
    for r in lines(&plain.join("results.jsonl")) {
        assert_eq!(r["differential"][0]["kind"], "regression", "{r}");
        assert!(r["differential"][0].get("intended").is_none(), "{r}");
        assert!(r["finding"].get("intended").is_none(), "{r}");
    }
    assert!(!subdirs(&plain.join("bugs")).is_empty());
    assert!(subdirs(&plain.join("intended")).is_empty());
    let rep = report(&toolchains, &plain);
    assert_eq!(rep["standing"]["intended"], 0, "{rep}");
    assert_eq!(rep["standing"]["new_without_twin"], PROGRAMS, "{rep}");

    // with it: the same findings are intended, kept apart and counted apart
    let store = root.path().join("with");
    check(&toolchains, &programs, "7.0", "6.0", &store, Some(&file));
    let results = lines(&store.join("results.jsonl"));
    assert_eq!(results.len(), PROGRAMS);
    for r in &results {
        assert_eq!(r["differential"][0]["kind"], "regression", "{r}");
        assert_eq!(r["differential"][0]["intended"], "G7-INJECTED", "{r}");
        assert_eq!(r["finding"]["intended"], "G7-INJECTED", "{r}");
    }
    assert!(subdirs(&store.join("bugs")).is_empty(), "no bug is left");
    let dirs = subdirs(&store.join("intended"));
    assert_eq!(dirs.len(), 1, "one signature: {dirs:?}");
    let finding: Value = serde_json::from_str(
        &std::fs::read_to_string(dirs[0].join("finding.json")).expect("finding.json"),
    )
    .expect("JSON");
    assert_eq!(finding["intended"]["id"], "G7-INJECTED", "{finding}");
    assert!(finding["intended"]["reason"]
        .as_str()
        .is_some_and(|r| r.contains("on purpose")));
    let md = std::fs::read_to_string(dirs[0].join("report.md")).expect("report.md");
    assert!(
        md.contains("## Intended language change") && md.contains("G7-INJECTED"),
        "{md}"
    );
    let rep = report(&toolchains, &store);
    assert_eq!(rep["standing"]["intended"], PROGRAMS, "{rep}");
    assert_eq!(rep["intended"]["G7-INJECTED"], PROGRAMS, "{rep}");
    assert_eq!(rep["standing"]["new_without_twin"], 0, "{rep}");
    assert_eq!(
        rep["differential"]["regression vs groovy@6.0 (intended G7-INJECTED)"], PROGRAMS,
        "{rep}"
    );
    // the table says so too
    let out = thalia(&toolchains)
        .arg("report")
        .arg(&store)
        .output()
        .expect("runs");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains(&format!("{PROGRAMS} intended (G7-INJECTED ×{PROGRAMS})")),
        "{table}"
    );

    // the old release under test, the new one against it: the other side is wrong, and its
    // finding is intended too
    let back = root.path().join("back");
    check(&toolchains, &programs, "6.0", "7.0", &back, Some(&file));
    for r in lines(&back.join("results.jsonl")) {
        assert!(r["finding"].is_null(), "{r}");
        let d = &r["differential"][0];
        assert_eq!(d["kind"], "regression", "{r}");
        assert_eq!(d["intended"], "G7-INJECTED", "{r}");
        assert_eq!(d["finding"]["intended"], "G7-INJECTED", "{r}");
    }
    assert_eq!(subdirs(&back.join("intended").join("groovy@7.0")).len(), 1);
    assert!(subdirs(&back.join("bugs"))
        .iter()
        .all(|d| subdirs(d).is_empty()));
    let rep = report(&toolchains, &back);
    assert_eq!(rep["standing"]["intended"], PROGRAMS, "{rep}");
}

#[test]
fn a_malformed_intended_file_names_the_file_and_the_entry() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, 1, &programs);
    fake_groovyc(&toolchains, "7.0", "");
    let file = root.path().join("bad.toml");
    std::fs::write(
        &file,
        ENTRY.replace(
            "reason = \"groovyc 7 rejects the injected marker on purpose\"",
            "reason = \"\"",
        ),
    )
    .expect("write");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@7.0", "--no-twin", "--intended"])
        .arg(&file)
        .arg("--out")
        .arg(root.path().join("store"))
        .assert()
        .failure()
        .stderr(
            predicates::str::contains("bad.toml")
                .and(predicates::str::contains("G7-INJECTED: no reason")),
        );
}
