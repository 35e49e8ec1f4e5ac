//! Issue #36 item 5 in synthesized programs: anonymous classes (Kotlin object expressions)
//! implementing the API's functional interfaces where a value of one is wanted, their
//! generic methods declared with the type arguments substituted. With the form forced on
//! (`swarm.anonymous_classes = 1.0`), a sample of the embedded API's programs of each language
//! uses it, the census counts it, and the real compiler (`thalia check`, which installs it
//! when missing) judges the programs that use it as expected: no finding that the Java twin
//! or the other compilers blame on the generator.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// The programs drawn: every `STRIDE`-th of a round of the embedded API.
const STRIDE: &str = "150";

/// The most programs compiled per language (a warm compiler judges them in seconds).
const MAX_JUDGED: usize = 8;

/// Synthesizes `lang` programs of `mode` into `out` with anonymous classes forced on;
/// `extra` selects them (`--stride N`, `--only ID`...).
fn synth(lang: &str, mode: &str, cfg: &Path, extra: &[String], out: &Path) {
    thalia()
        .args([
            "synth", "--lang", lang, "--mode", mode, "--seed", "36", "-j", "2",
        ])
        .arg("--synth-config")
        .arg(cfg)
        .args(extra)
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// The ids of the programs of a synthesis directory that hold an anonymous class.
fn with_anonymous_classes(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("programs.ir.jsonl"))
        .expect("programs.ir.jsonl")
        .lines()
        .filter(|l| l.contains("\"anonymous\""))
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            v["id"].as_str().expect("id").to_owned()
        })
        .collect()
}

/// Synthesizes a sample of `lang` programs of `mode`, checks the census and judges up to
/// [`MAX_JUDGED`] programs with anonymous classes with the language's default compiler.
fn anonymous_classes_compile_as_expected(lang: &str, mode: &str) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = tmp.path().join("declared.json");
    std::fs::write(&cfg, r#"{"swarm": {"anonymous_classes": 1.0}}"#).expect("config");
    let all = tmp.path().join("all");
    synth(lang, mode, &cfg, &["--stride".into(), STRIDE.into()], &all);
    let ids = with_anonymous_classes(&all);
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(all.join("summary.json")).expect("summary.json"),
    )
    .expect("summary JSON");
    let counted = summary["summary"]["census"]["forms"]["anonymous-class"]
        .as_u64()
        .unwrap_or(0);
    assert!(
        ids.len() >= 3,
        "{lang} {mode}: only {} programs with an anonymous class",
        ids.len()
    );
    // (the census also counts the programs the language then cannot write)
    assert!(
        counted >= ids.len() as u64,
        "{lang} {mode}: the census counts {counted} programs with an anonymous class, {} \
         written",
        ids.len()
    );
    let picked = tmp.path().join("picked");
    let only: Vec<String> = ids
        .iter()
        .take(MAX_JUDGED)
        .flat_map(|id| ["--only".to_owned(), id.clone()])
        .collect();
    synth(lang, mode, &cfg, &only, &picked);
    let store = tmp.path().join("results");
    thalia()
        .args(["check", "--server", "-j", "2", "-o"])
        .arg(&store)
        .arg(&picked)
        .assert()
        .success();
    let results = std::fs::read_to_string(store.join("results.jsonl")).expect("results.jsonl");
    let lines: Vec<Value> = results
        .lines()
        .map(|l| serde_json::from_str(l).expect("a result line"))
        .collect();
    assert_eq!(
        lines.len(),
        ids.len().min(MAX_JUDGED),
        "{lang}: every program judged"
    );
    // a finding the Java twin confirms is the compiler's; any other is the generator's
    let blamed: Vec<String> = lines
        .iter()
        .filter(|r| !r["finding"].is_null() && r["finding"]["twin"] != "confirmed")
        .map(|r| {
            format!(
                "{} {}: {}",
                r["id"],
                r["member"],
                r["diagnostics"][0].as_str().unwrap_or("")
            )
        })
        .collect();
    assert!(
        blamed.is_empty(),
        "{lang} {mode}: programs with anonymous classes judged against the expectation:\n{}",
        blamed.join("\n")
    );
}

#[test]
fn java_anonymous_classes_compile_as_expected() {
    anonymous_classes_compile_as_expected("java", "well-typed");
    anonymous_classes_compile_as_expected("java", "ill-typed");
}

#[test]
fn groovy_anonymous_classes_compile_as_expected() {
    anonymous_classes_compile_as_expected("groovy", "well-typed");
}

#[test]
fn kotlin_object_expressions_compile_as_expected() {
    anonymous_classes_compile_as_expected("kotlin", "well-typed");
}

#[test]
fn scala3_anonymous_classes_compile_as_expected() {
    anonymous_classes_compile_as_expected("scala3", "well-typed");
}

#[test]
fn scala2_anonymous_classes_compile_as_expected() {
    anonymous_classes_compile_as_expected("scala2", "well-typed");
}
