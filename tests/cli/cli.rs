//! The `thalia` binary end to end: `api stats`, `api show`, `api check`, `api rewrite`.

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn thalia() -> Command {
    Command::cargo_bin("thalia").unwrap()
}

fn java_samples() -> PathBuf {
    root().join("tests/fixtures/api-samples/java")
}

#[test]
fn version_and_help() {
    thalia()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("thalia "));
    thalia()
        .args(["api", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Table 1"));
}

#[test]
fn api_stats_prints_table_one_for_the_java_samples() {
    let out = thalia()
        .args(["api", "stats"])
        .arg(java_samples())
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for row in [
        "nodes",
        "edges",
        "polymorphic methods / methods",
        "fields",
        "constructors",
        "type constructors / types",
        "mean inheritance-chain size",
        "mean signature size",
    ] {
        assert!(stdout.contains(row), "missing row {row}:\n{stdout}");
    }
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("loaded 6 classes"), "{stderr}");
    assert!(stderr.contains("nothing skipped"), "{stderr}");
}

#[test]
fn api_stats_json_matches_the_model() {
    let out = thalia()
        .args(["api", "stats", "--json"])
        .arg(java_samples())
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let mut api = thalia::api::Api::load_dir(&java_samples()).unwrap();
    let g = thalia::graph::ApiGraph::build(&mut api);
    let s = thalia::stats::GraphStats::compute(&mut api, &g);
    assert_eq!(v["nodes"], s.nodes);
    assert_eq!(v["edges"], s.edges);
    assert_eq!(v["classes"], 6);
    assert_eq!(v["methods"].as_u64().unwrap() as usize, s.methods);
    assert!(s.polymorphic_methods > 0 && s.polymorphic_methods < s.methods);
    assert_eq!(s.nodes, g.node_count());
    // every member is a node
    assert!(s.nodes >= s.methods + s.fields + s.constructors);
}

#[test]
fn api_stats_on_the_embedded_api() {
    thalia()
        .args(["api", "stats"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes"))
        .stderr(predicate::str::contains("<embedded api-json>"));
}

#[test]
fn api_show_resolves_inherited_members_with_substitution() {
    let dir = root().join("tests/fixtures/inherit");
    let out = thalia()
        .args(["api", "show"])
        .arg(&dir)
        .arg("q.Leaf")
        .assert()
        .success();
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        s.starts_with("class q.Leaf <: q.Mid<java.lang.String>"),
        "{s}"
    );
    assert!(s.contains("void q.Leaf.put(java.lang.String)"), "{s}");
    assert!(
        s.contains("inherited from q.Mid<java.lang.String> (1):"),
        "{s}"
    );
    assert!(
        s.contains("java.util.List<java.lang.String> q.Mid.all()"),
        "{s}"
    );
    assert!(
        s.contains("inherited from q.Base<java.util.List<java.lang.String>> (2):"),
        "{s}"
    );
    assert!(
        s.contains("java.util.List<java.lang.String> q.Base.get()"),
        "{s}"
    );
    assert!(
        s.contains("java.util.List<java.lang.String> q.Base.value"),
        "{s}"
    );
    // overridden, static and constructor members of supertypes are not inherited
    assert!(!s.contains("q.Mid.put"), "{s}");
    assert!(!s.contains("make"), "{s}");
    assert!(!s.contains("new q.Base"), "{s}");
}

#[test]
fn api_show_unknown_class_suggests_names() {
    thalia()
        .args(["api", "show"])
        .arg(root().join("tests/fixtures/inherit"))
        .arg("Leaf")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean q.Leaf"));
}

#[test]
fn api_check_lists_problems_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.A.json"), "{ not json").unwrap();
    std::fs::write(
        dir.path().join("x.B.json"),
        r#"{"name":"x.B","language":"java","methods":[{"name":"m","parameters":["x.C<"],"return_type":"void"}]}"#,
    )
    .unwrap();
    thalia()
        .args(["api", "check"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "x.A.json: malformed API JSON at line 1",
        ))
        .stdout(predicate::str::contains("x.B.m(x.C<)"))
        .stderr(predicate::str::contains("skipped 1 of 2 files"));
    thalia()
        .args(["api", "check"])
        .arg(root().join("tests/fixtures/paper/figure7"))
        .assert()
        .success();
}

#[test]
fn api_rewrite_round_trips() {
    let out = tempfile::tempdir().unwrap();
    thalia()
        .args(["api", "rewrite"])
        .arg(java_samples())
        .arg("--out")
        .arg(out.path())
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote 6 files"));
    for e in std::fs::read_dir(java_samples()).unwrap() {
        let p = e.unwrap().path();
        let a: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let b: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.path().join(p.file_name().unwrap())).unwrap(),
        )
        .unwrap();
        assert_eq!(a, b, "{}", p.display());
    }
}

#[test]
fn missing_directory_is_a_clear_error() {
    thalia()
        .args(["api", "stats", "/no/such/dir"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/dir: not a directory"));
}

#[test]
fn synth_writes_each_language_and_groovy_type_checked() {
    for (lang, ext, marker) in [
        ("kotlin", "kt", "object Test_p000000"),
        ("scala", "scala", "object Test_p000000"),
        ("scala2", "scala", "object Test_p000000"),
        ("groovy", "groovy", "@groovy.transform.CompileStatic"),
        ("java", "java", "public final class Test_p000000"),
    ] {
        let out = tempfile::tempdir().unwrap();
        thalia()
            .args([
                "synth",
                "--api",
                "@java.base",
                "--seed",
                "3",
                "-n",
                "2",
                "--lang",
                lang,
            ])
            .arg("--out")
            .arg(out.path())
            .assert()
            .success();
        let src = std::fs::read_to_string(out.path().join(format!("Test_p000000.{ext}"))).unwrap();
        assert!(src.contains(marker), "{lang}:\n{src}");
    }
    let out = tempfile::tempdir().unwrap();
    thalia()
        .args([
            "synth",
            "--api",
            "@java.base",
            "--seed",
            "3",
            "-n",
            "2",
            "--lang",
            "groovy",
        ])
        .arg("--groovy-type-checked")
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    let src = std::fs::read_to_string(out.path().join("Test_p000000.groovy")).unwrap();
    assert!(src.contains("@groovy.transform.TypeChecked"), "{src}");
}

/// A synthesized directory of two Java programs.
fn synthesized() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    thalia()
        .args(["synth", "--api", "@java.base", "--seed", "3", "-n", "2"])
        .arg("--out")
        .arg(out.path())
        .assert()
        .success();
    out
}

#[test]
fn check_without_summary_json_is_a_clear_error() {
    let dir = synthesized();
    std::fs::remove_file(dir.path().join("summary.json")).unwrap();
    thalia()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("summary.json"));
}

#[test]
fn check_refuses_a_program_record_with_a_missing_field() {
    let dir = synthesized();
    let path = dir.path().join("programs.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    // the typed record: a renamed field is an error naming the line, never an empty value
    let renamed = text.replacen("\"expected\"", "\"expectation\"", 1);
    std::fs::write(&path, renamed).unwrap();
    thalia()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1: not a program record"))
        .stderr(predicate::str::contains("expected"));
}

#[test]
fn out_of_range_counts_are_refused_before_any_work() {
    for args in [
        vec!["synth", "-j", "4294967296"],
        vec!["synth", "-j", "0"],
        vec!["synth", "--max-type-depth", "100000"],
        vec!["run", "-j", "4294967296"],
        vec!["run", "--timeout", "18446744073709551615"],
        vec!["run", "--batch-size", "0"],
    ] {
        let out = tempfile::tempdir().unwrap();
        let assert = thalia()
            .args(&args)
            .arg("--out")
            .arg(out.path().join("o"))
            .env("THALIA_TOOLCHAINS", out.path().join("no-toolchains"))
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .failure();
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.contains("must be") || stderr.contains("invalid value"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
