//! `thalia fetch --docs` on Scala libraries against the real repository (the user's Maven
//! configuration; only the cache is redirected, `THALIA_MAVEN_CACHE`): `scala-library` 2.13.18
//! (Scaladoc 2) and `scala-library` 3.9.0 (Scaladoc 3: since Scala 3.8 the standard library is
//! published as `scala-library` 3.x, and `scala3-library_3` 3.9.0 is an empty jar) give
//! Scala-typed APIs that `thalia api check` loads, and `thalia synth --lang scala` runs on
//! them. The figures are printed (`cargo test --test online_scaladoc -- --nocapture`). Every
//! test is named `online_...`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("online-docs-cache")
}

/// Fetches `coord --docs` into a fresh directory; checks the API loads and synthesis runs;
/// returns the fetch record.
fn fetch_docs(coord: &str, name: &str, min_classes: u64) -> Value {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("online-scaladoc")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let api = dir.join("api");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .env("THALIA_MAVEN_CACHE", cache())
        .args(["fetch", "--docs", coord, "--out"])
        .arg(&api)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "fetch --docs {coord}: {stderr}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(api.join("fetch.json")).unwrap()).unwrap();
    assert_eq!(record["api_source"], "javadoc");
    let classes = record["classes"].as_u64().unwrap();
    assert!(classes >= min_classes, "{coord}: {classes} classes");
    let option: Value =
        serde_json::from_str(&std::fs::read_to_string(api.join("scala.Option.json")).unwrap())
            .unwrap();
    assert_eq!(option["language"], "scala");
    assert_eq!(option["type_parameters"][0], "+A");

    let check = Command::cargo_bin("thalia")
        .unwrap()
        .args(["api", "check"])
        .arg(&api)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&check.stdout).to_string()
        + &String::from_utf8_lossy(&check.stderr);
    let summary = report
        .lines()
        .find(|l| l.contains(": loaded "))
        .unwrap_or_else(|| panic!("no summary: {report}"))
        .to_string();
    let loaded: u64 = summary
        .split(": loaded ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    // what the loader cannot take (higher-kinded type parameters, type lambdas) is skipped
    assert!(loaded * 10 >= classes * 9, "{summary}");
    println!(
        "{coord}: {classes} classes in {:.1} s; {summary}",
        record["extract_seconds"].as_f64().unwrap_or_default()
    );

    let out = dir.join("synth");
    let s = Command::cargo_bin("thalia")
        .unwrap()
        .args(["synth", "--lang", "scala", "-n", "3", "--api"])
        .arg(&api)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        s.status.success(),
        "synth: {}",
        String::from_utf8_lossy(&s.stderr)
    );
    assert!(out.join("programs.jsonl").exists());
    record
}

#[test]
fn online_scala_library_2_13_scaladoc_gives_a_scala_api() {
    fetch_docs("org.scala-lang:scala-library:2.13.18", "scala2", 1000);
}

#[test]
fn online_scala_library_3_scaladoc_gives_a_scala_api() {
    fetch_docs("org.scala-lang:scala-library:3.9.0", "scala3", 1500);
}
