//! Clusters by reduced program: one cause is one entry. A fake javac rejects every program
//! calling `String.concat` (and, with another message, `String.endsWith`); the first program
//! calling `concat` it sees gets the message `alpha`, every later one `beta` (it remembers
//! the programs by id, so reduction sees the same message), so one cause makes two
//! signatures. A campaign reduces its findings by itself: the two `concat` findings reduce to
//! the same program up to the program id and the names of locals, and share a cluster; the
//! `endsWith` finding is a cluster of its own. `finding.json`, `report.md` and `thalia report`
//! say so.

use crate::support::fake;

use std::path::Path;

use fake::{install_script, lines, sample_api, thalia};
use serde_json::Value;

/// A seed whose first 260 programs call `concat` twice and `endsWith` once.
const SEED: &str = "3";
const BUDGET: &str = "260";

/// Installs `javac@marker` (see the module docs); it keeps the ids it has seen in `dir`.
fn marker_javac(toolchains: &Path) {
    let state = toolchains.join("seen.txt");
    install_script(
        toolchains,
        "javac",
        "marker",
        "com.sun.tools.javac.Main",
        &format!(
            r#"#!/bin/sh
state='{}'
touch "$state"
rc=0
for a in "$@"; do
  case "$a" in
    *.java)
      id=$(basename "$a" .java)
      l=$(grep -n -F -- '.concat(' "$a" | head -1 | cut -d: -f1)
      if [ -n "$l" ]; then
        grep -q -x -F -- "$id" "$state" || echo "$id" >> "$state"
        n=$(grep -n -x -F -- "$id" "$state" | cut -d: -f1)
        case $n in 1) w=alpha ;; *) w=beta ;; esac
        echo "$a:$l: error: injected rejection $w"; rc=1; continue
      fi
      l=$(grep -n -F -- '.endsWith(' "$a" | head -1 | cut -d: -f1)
      if [ -n "$l" ]; then echo "$a:$l: error: injected rejection gamma"; rc=1; fi
      ;;
  esac
done
exit $rc
"#,
            state.display()
        ),
    );
}

fn finding(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("finding.json")).expect("finding.json"))
        .expect("JSON")
}

#[test]
fn findings_whose_programs_reduce_alike_form_one_cluster() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    marker_javac(&toolchains);
    let run = root.path().join("run");
    thalia(&toolchains)
        .args([
            "run",
            "--lang",
            "java",
            "--mode",
            "well-typed",
            "--seed",
            SEED,
        ])
        .args([
            "--budget",
            BUDGET,
            "--compiler",
            "javac@marker",
            "-j",
            "1",
            "--synth-config",
        ])
        .arg(fake::shallow_forms_config(root.path()))
        .arg("--api")
        .arg(sample_api())
        .arg("--out")
        .arg(&run)
        .assert()
        .success();
    // three signatures, one per message
    let mut by_message: std::collections::BTreeMap<String, Value> = Default::default();
    for entry in std::fs::read_dir(run.join("bugs"))
        .expect("bugs/")
        .flatten()
    {
        let f = finding(&entry.path());
        let text = f["signature_text"].as_str().expect("text").to_string();
        let word = text.rsplit(' ').next().expect("a word").to_string();
        let md = std::fs::read_to_string(entry.path().join("report.md")).expect("report.md");
        let cluster = f["cluster"]
            .as_str()
            .expect("reduced, with a cluster")
            .to_string();
        assert!(md.contains("## Cluster") && md.contains(&cluster), "{md}");
        by_message.insert(word, f);
    }
    let words: Vec<&str> = by_message.keys().map(String::as_str).collect();
    assert_eq!(words, ["alpha", "beta", "gamma"]);
    let (a, b, g) = (
        &by_message["alpha"],
        &by_message["beta"],
        &by_message["gamma"],
    );
    assert_ne!(a["program"]["id"], b["program"]["id"], "two programs");
    assert_ne!(a["signature"], b["signature"], "two signatures");
    let reduced = |f: &Value| {
        let dir = run
            .join("bugs")
            .join(f["signature"].as_str().unwrap_or_default());
        std::fs::read_dir(dir.join("reduced"))
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.path().extension().is_some_and(|x| x == "java"))
                    .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                    .collect::<String>()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        a["cluster"],
        b["cluster"],
        "one cause; reduced programs:\n{}\n{}",
        reduced(a),
        reduced(b)
    );
    assert_ne!(a["cluster"], g["cluster"], "another cause");
    // `thalia report` groups them
    let out = thalia(&toolchains)
        .arg("report")
        .arg(&run)
        .arg("--json")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let rep: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let clusters = rep["clusters"].as_array().expect("clusters");
    assert_eq!(clusters.len(), 2, "{rep}");
    assert_eq!(clusters[0]["id"], a["cluster"], "{rep}");
    assert_eq!(
        clusters[0]["findings"].as_array().map(Vec::len),
        Some(2),
        "{rep}"
    );
    assert_eq!(clusters[1]["id"], g["cluster"], "{rep}");
    assert_eq!(rep["unreduced"], 0, "{rep}");
    let out = thalia(&toolchains)
        .arg("report")
        .arg(&run)
        .output()
        .expect("runs");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("clusters (by reduced program): 2 among 3 reduced"),
        "{table}"
    );
    // every finding of the run is one of them
    assert!(lines(&run.join("results.jsonl"))
        .iter()
        .filter(|r| !r["finding"].is_null())
        .all(|r| r["finding"]["kind"] == "unexpected-rejection"));
}
