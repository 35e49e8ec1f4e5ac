//! `thalia fetch --docs` against the real central repository: commons-lang3 3.12.0 (JDK 8
//! javadoc) and guava 32.0.0-jre (JDK 11 javadoc), each fetched twice (bytecode, then
//! `--docs`) and compared with `thalia api diff --json`: at least 98 % of the documented
//! members of the common classes equal a bytecode member in every type and modifier (the
//! issue's bar), and the numbers are printed (`cargo test --test online_docs -- --nocapture`).
//!
//! Like `tests/online_fetch.rs`, no repository is named: the resolver uses the user's Maven
//! configuration; only the cache is redirected (`THALIA_MAVEN_CACHE`) to a directory shared by
//! the two tests. Every test is named `online_...`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The share of documented members that must equal a bytecode member.
const MIN_EQUAL: f64 = 0.98;

fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("online-docs-cache")
}

fn fetch(coord: &str, docs: bool, out: &Path) {
    let _ = std::fs::remove_dir_all(out);
    let mut cmd = Command::cargo_bin("thalia").unwrap();
    cmd.env("THALIA_MAVEN_CACHE", cache())
        .arg("fetch")
        .arg(coord);
    if docs {
        cmd.arg("--docs");
    }
    let o = cmd.arg("--out").arg(out).output().unwrap();
    assert!(
        o.status.success(),
        "fetch {coord} (docs: {docs}): {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Fetches both views of `coord` and returns the `api diff --json` report of docs vs bytecode.
fn compare(coord: &str, name: &str) -> Value {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("online-docs")
        .join(name);
    let (bytecode, docs) = (dir.join("bytecode"), dir.join("docs"));
    fetch(coord, false, &bytecode);
    fetch(coord, true, &docs);
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(docs.join("fetch.json")).unwrap()).unwrap();
    assert_eq!(record["api_source"], "javadoc");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .args(["api", "diff", "--json"])
        .arg(&docs)
        .arg(&bytecode)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&o.stdout).expect("api diff --json");
    let c = &report["counts"];
    let share = c["members_equal"].as_f64().unwrap() / c["members_a"].as_f64().unwrap();
    println!(
        "{coord}: classes {} docs / {} bytecode / {} common; members {} docs, {} equal ({:.1} %); differences by kind {}",
        c["classes_a"],
        c["classes_b"],
        c["classes_common"],
        c["members_a"],
        c["members_equal"],
        100.0 * share,
        report["by_kind"]
    );
    assert!(
        share >= MIN_EQUAL,
        "{coord}: {:.3} < {MIN_EQUAL}: {report:#}",
        share
    );
    assert!(
        c["classes_common"].as_f64().unwrap() >= MIN_EQUAL * c["classes_b"].as_f64().unwrap(),
        "{c}"
    );
    report
}

#[test]
fn online_commons_lang3_docs_agree_with_its_bytecode() {
    let r = compare("org.apache.commons:commons-lang3:3.12.0", "commons-lang3");
    // every constructor is there (the original tool's converter dropped all of them)
    assert_eq!(r["counts"]["classes_common"], 223);
    let missing = r["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "missing-member")
        .count();
    assert_eq!(missing, 0, "{r:#}");
}

#[test]
fn online_guava_docs_agree_with_its_bytecode() {
    compare("com.google.guava:guava:32.0.0-jre", "guava");
}
