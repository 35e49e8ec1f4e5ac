//! `thalia fetch --docs` on Kotlin libraries against the real repository (the user's Maven
//! configuration; only the cache is redirected, `THALIA_MAVEN_CACHE`): the Dokka HTML of
//! `io.ktor:ktor-server-core-jvm:3.5.2`'s and `io.ktor:ktor-http-jvm:3.5.2`'s `-javadoc.jar`
//! gives Kotlin-typed APIs that `Api::load_dir` loads (its issues listed and bounded) and
//! `thalia synth --lang kotlin` synthesizes from, compared with the bytecode extraction of the
//! same artifact (`thalia api diff`: every documented class is in the jar). The `-javadoc.jar` of
//! `org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm` (1.10.2, like 1.10.1 and 1.11.0) is an
//! empty stub (a manifest only): `fetch --docs` says so, naming the jar. The figures are
//! printed (`cargo test --test online_dokka -- --nocapture`). Every test is named `online_...`.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use thalia::api::Api;

fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("online-docs-cache")
}

fn fetch(coord: &str, docs: bool, out: &Path) -> (bool, String) {
    let _ = std::fs::remove_dir_all(out);
    let mut cmd = Command::cargo_bin("thalia").unwrap();
    cmd.env("THALIA_MAVEN_CACHE", cache())
        .arg("fetch")
        .arg(coord);
    if docs {
        cmd.arg("--docs");
    }
    let o = cmd.arg("--out").arg(out).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("online-dokka")
        .join(name)
}

/// Fetches `coord` twice (Dokka, bytecode), loads the Dokka API and compares the two.
fn check(coord: &str, name: &str, min_classes: usize) {
    let docs = dir(name).join("docs");
    let (ok, stderr) = fetch(coord, true, &docs);
    assert!(ok, "fetch --docs {coord}: {stderr}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(docs.join("fetch.json")).unwrap()).unwrap();
    assert_eq!(record["api_source"], "javadoc");
    let problems: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    for p in &problems {
        println!("{coord}: {p}");
    }
    // members Dokka prints in forms the reader leaves out, named one by one
    assert!(problems.len() <= 10, "{} problems", problems.len());

    let api = Api::load_dir(&docs).expect("load the Dokka API");
    let r = &api.report;
    assert!(r.classes >= min_classes, "{}", r.summary());
    for i in &r.issues {
        println!("{coord}: load issue: {i}");
    }
    // nothing is skipped; warnings (supertypes outside the artifact, overloads Dokka
    // prints once per source set) are bounded
    assert_eq!(r.error_count(), 0, "{}", r.summary());
    assert!(r.issues.len() * 4 <= r.classes, "{}", r.summary());
    let mut kotlin = 0;
    let mut top_level = 0;
    for e in std::fs::read_dir(&docs).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "json") || p.ends_with("fetch.json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        if v["language"] == "kotlin" {
            kotlin += 1;
        }
        if v["is_class"] == false {
            top_level += 1;
        }
    }
    assert_eq!(kotlin, record["classes"].as_u64().unwrap() as usize);
    assert!(top_level >= 3, "{top_level} package documents");
    println!(
        "{coord}: {} documents ({top_level} packages of top-level declarations) in {:.2} s; {}",
        record["classes"],
        record["extract_seconds"].as_f64().unwrap_or_default(),
        r.summary()
    );

    // programs are synthesized from it
    let synth = dir(name).join("synth");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .args(["synth", "--lang", "kotlin", "-n", "3", "--api"])
        .arg(&docs)
        .arg("--out")
        .arg(&synth)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "synth: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let kt = std::fs::read_dir(&synth)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "kt"))
        })
        .count();
    assert_eq!(kt, 3);

    // the bytecode view of the same artifact: Kotlin's declarations in the JVM's terms
    let bytecode = dir(name).join("bytecode");
    let (ok, stderr) = fetch(coord, false, &bytecode);
    assert!(ok, "fetch {coord}: {stderr}");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .args(["api", "diff"])
        .arg(&docs)
        .arg(&bytecode)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    // every class Dokka documents is a class of the jar (Dokka's package documents are the
    // bytecode's `…Kt` file classes; properties are getters there, suspend functions take a
    // `Continuation`, and types are in Java's terms, so members are not compared)
    let counts = text
        .lines()
        .find(|l| l.starts_with("classes: "))
        .unwrap_or_else(|| panic!("no counts in {text}"));
    let num = |label: &str| -> usize {
        counts
            .split(", ")
            .find_map(|p| p.strip_suffix(label))
            .and_then(|p| p.trim_start_matches("classes: ").trim().parse().ok())
            .unwrap_or_else(|| panic!("{label} in {counts}"))
    };
    let (in_docs, in_both) = (num(" in A"), num(" in both"));
    let class_docs = in_docs - top_level;
    assert!(
        in_both * 100 >= class_docs * 98,
        "{in_both} of {class_docs} documented classes in the jar: {counts}"
    );
    println!(
        "{coord}: api diff docs bytecode:\n{}",
        text.lines().take(12).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn online_ktor_server_core_gives_a_kotlin_api() {
    check(
        "io.ktor:ktor-server-core-jvm:3.5.2",
        "ktor-server-core",
        150,
    );
}

#[test]
fn online_ktor_http_gives_a_kotlin_api() {
    check("io.ktor:ktor-http-jvm:3.5.2", "ktor-http", 50);
}

#[test]
fn online_kotlinx_coroutines_javadoc_jar_is_an_empty_stub() {
    let out = dir("coroutines");
    let (ok, stderr) = fetch(
        "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:1.10.2",
        true,
        &out,
    );
    assert!(!ok);
    assert!(
        stderr.contains("kotlinx-coroutines-core-jvm-1.10.2-javadoc.jar")
            && stderr.contains("no class page of a known documentation layout")
            && stderr.contains("0 pages skipped"),
        "{stderr}"
    );
}
