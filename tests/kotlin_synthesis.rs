//! Synthesis from Kotlin-typed APIs (issue #15): Kotlin programs that call the Kotlin
//! standard library's own members (extension and top-level functions, nullable types,
//! Kotlin function types with lambdas), compiled by the real kotlinc, and the embedded
//! default that adds the standard library for Kotlin programs only.
//!
//! `thalia check` installs kotlinc through the Maven configuration when it is missing.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// The records of a `thalia synth` directory's `programs.jsonl`.
fn records(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("programs.jsonl"))
        .expect("programs.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Synthesizes an evenly spread sample of a round of `mode` programs from the embedded
/// Kotlin standard library alone.
fn synth_stdlib(out: &Path, mode: &str, stride: usize) {
    thalia()
        .args([
            "synth",
            "--api",
            "@kotlin-stdlib-2.4.21",
            "--lang",
            "kotlin",
        ])
        .args(["--mode", mode, "--seed", "15", "-j", "2"])
        .args(["--stride", &stride.to_string()])
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// Compiles a synthesis directory with kotlinc 2.4.21 (`thalia check`) and returns the
/// number of programs judged and of those whose verdict contradicts the expectation.
fn check(dir: &Path) -> (usize, usize) {
    thalia()
        .args([
            "check",
            "--compiler",
            "kotlin@2.4.21",
            "--server",
            "-j",
            "2",
        ])
        .arg(dir)
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.join("check-kotlin-2.4.21/results.jsonl"))
        .expect("results.jsonl");
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

#[test]
fn kotlin_stdlib_programs_use_its_own_members_and_compile_as_expected() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let well = tmp.path().join("well");
    synth_stdlib(&well, "well-typed", 80);
    let recs = records(&well);
    assert!(recs.len() >= 150, "{} programs", recs.len());
    // the programs call Kotlin's extension and top-level functions (declared in files of
    // top-level members, named after their package) and use its nullable and function types
    let of_files = recs
        .iter()
        .filter(|r| r["class"].as_str().is_some_and(|c| c.starts_with("kotlin")))
        .count();
    assert_eq!(
        of_files,
        recs.len(),
        "only Kotlin's own members are exercised"
    );
    let extensions = recs
        .iter()
        .filter(|r| r["typing_sequence"]["receiver"].is_string())
        .filter(|r| {
            let c = r["class"].as_str().unwrap_or("");
            c.rsplit('.')
                .next()
                .is_some_and(|s| s.starts_with(char::is_lowercase))
        })
        .count();
    assert!(extensions * 4 >= recs.len(), "{extensions} extension calls");
    let sources: Vec<String> = recs
        .iter()
        .map(|r| {
            let f = r["file"].as_str().expect("file");
            std::fs::read_to_string(well.join(f)).expect("program")
        })
        .collect();
    let count = |pat: &str| sources.iter().filter(|s| s.contains(pat)).count();
    assert!(
        count("->") * 10 >= sources.len(),
        "lambdas: {}",
        count("->")
    );
    assert!(
        count("? =") * 10 >= sources.len(),
        "nullable: {}",
        count("? =")
    );
    assert!(
        count("\nimport kotlin.") > 0,
        "an extension outside the default imports"
    );

    let (n, wrong) = check(&well);
    assert_eq!(n, recs.len());
    // measured: 0-1.5 % of a whole round's well-typed programs are rejected (docs/findings.md)
    assert!(
        wrong * 100 <= n * 3,
        "{wrong} of {n} well-typed programs rejected"
    );

    let ill = tmp.path().join("ill");
    synth_stdlib(&ill, "ill-typed", 240);
    let (n, wrong) = check(&ill);
    assert!(n >= 50, "{n} ill-typed programs");
    assert!(
        wrong * 100 <= n * 3,
        "{wrong} of {n} ill-typed programs accepted"
    );
}

#[test]
fn the_default_api_adds_the_kotlin_stdlib_for_kotlin_programs_only() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let members = |lang: &str| -> u64 {
        let out = tmp.path().join(lang);
        thalia()
            .args([
                "synth", "--lang", lang, "--seed", "1", "-n", "1", "-j", "2", "-o",
            ])
            .arg(&out)
            .assert()
            .success();
        let s: Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
        )
        .expect("summary");
        s["summary"]["members"].as_u64().expect("members")
    };
    let (java, kotlin) = (members("java"), members("kotlin"));
    // kotlin-stdlib's 7,000-odd members join the 15,000 of java.base and commons-lang3
    assert!(kotlin > java + 5_000, "java {java}, kotlin {kotlin}");
}
