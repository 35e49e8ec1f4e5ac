//! Comparing run directories program by program: the results of a store (verdict and finding
//! signature per program key), the findings' counts as `thalia report --json` gives them, and a
//! synthesis directory's records.
//! Shared by `tests/shard.rs`, `tests/online_slurm.rs` and the Kotlin and Scala synthesis
//! tests (`support::runs`).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

/// A program's verdict and its finding's signature, if any.
pub type Judged = (String, Option<String>);

/// A store's results: program key → (verdict, finding signature); a key judged twice fails.
pub fn results(dir: &Path) -> BTreeMap<String, Judged> {
    let text = std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap_or_else(|e| panic!("{}/results.jsonl: {e}", dir.display()));
    let mut m = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        let key = v["key"].as_str().expect("key").to_string();
        let prev = m.insert(
            key.clone(),
            (
                v["verdict"].as_str().expect("verdict").to_string(),
                v["finding"]["signature"].as_str().map(str::to_string),
            ),
        );
        assert!(prev.is_none(), "{key} judged twice in {}", dir.display());
    }
    m
}

/// `thalia report --json` of a run: finding signature → count.
pub fn finding_counts(dir: &Path) -> BTreeMap<String, u64> {
    let o = assert_cmd::Command::cargo_bin("thalia")
        .expect("the thalia binary")
        .args(["report", "--json"])
        .arg(dir)
        .output()
        .expect("report runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    v["signatures"]
        .as_array()
        .expect("signatures")
        .iter()
        .map(|s| {
            (
                s["signature"].as_str().expect("signature").to_string(),
                s["count"].as_u64().expect("count"),
            )
        })
        .collect()
}

/// A `thalia check` results file's programs and those whose verdict contradicts the
/// expectation (a finding), each of those printed with its first diagnostic.
pub fn mismatches(results: &Path) -> (usize, usize) {
    let text =
        std::fs::read_to_string(results).unwrap_or_else(|e| panic!("{}: {e}", results.display()));
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a result line"))
        .collect();
    let wrong: Vec<&Value> = lines.iter().filter(|r| !r["finding"].is_null()).collect();
    for r in &wrong {
        eprintln!(
            "mismatch {} {}: {}",
            r["id"],
            r["member"],
            r["diagnostics"][0].as_str().unwrap_or("")
        );
    }
    (lines.len(), wrong.len())
}

/// The records of a `thalia synth` directory's `programs.jsonl`.
pub fn records(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("programs.jsonl"))
        .expect("programs.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}
