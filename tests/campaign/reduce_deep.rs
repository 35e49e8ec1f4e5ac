//! Deep reduction (`thalia reduce`'s pipeline of passes): findings of Groovy, Kotlin and Scala
//! programs and of `thalia check` shrink to a stated size while they keep their signature and,
//! where the program has a Java twin, javac keeps judging the twin the expected way.
//!
//! The compilers under test are fake: a program whose source contains a marker (a call of
//! `Map.of` with explicit type arguments) is rejected with one fixed message at the marker's
//! line, any other is accepted. So the finding is known in advance, the reduced program must
//! still call the marker, and only the Java twin (the real javac) keeps the steps honest; the
//! reduced Kotlin and Scala programs are then compiled with the real compilers when their
//! classpaths are given (`THALIA_KOTLINC_CP`, `THALIA_SCALA3_CP`).

use crate::support::fake;
use crate::support::require;

use std::path::{Path, PathBuf};

use fake::{install_script, real_javac, sample_api, thalia};
use serde_json::Value;

/// The marker: a call of `java.util.Map.of` with explicit type arguments, in each language
/// (with or without the package: short names keep it).
fn marker(lang: &str) -> &'static str {
    match lang {
        "java" | "groovy" => "Map.<",
        "kotlin" => "Map.of<",
        _ => "Map.of[",
    }
}

/// Installs `TOOL@marker` for `lang`: a program containing the language's marker is
/// rejected with a message in the compiler's format at the marker's line; any other
/// program is accepted (javac: compiled by the real javac).
fn marker_compiler(toolchains: &Path, lang: &str) -> &'static str {
    let m = marker(lang);
    let (tool, ext, main, message) = match lang {
        "java" => (
            "javac",
            "java",
            "com.sun.tools.javac.Main",
            "echo \"$a:$l: error: injected rejection of the marker call\"",
        ),
        "groovy" => (
            "groovy",
            "groovy",
            "org.codehaus.groovy.tools.FileSystemCompiler",
            "echo \"file://$a: $l: [Static type checking] - injected rejection of the marker call @ line $l, column 9.\"",
        ),
        "kotlin" => (
            "kotlin",
            "kt",
            "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
            "echo \"$a:$l:9: error: injected rejection of the marker call\"",
        ),
        _ => (
            "scala3",
            "scala",
            "dotty.tools.dotc.Main",
            "echo \"-- Error: $a:$l:9 ------\"; echo \"$l |  x\"; echo \"  |  ^\"; echo \"  |  injected rejection of the marker call\"",
        ),
    };
    let otherwise = if lang == "java" {
        format!("exec '{}' \"$@\"", real_javac().display())
    } else {
        "exit 0".to_string()
    };
    install_script(
        toolchains,
        tool,
        "marker",
        main,
        &format!(
            "#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.{ext})\n      l=$(grep -n -F -- '{m}' \"$a\" | head -1 | cut -d: -f1)\n      if [ -n \"$l\" ]; then\n        {message}\n        rc=1\n      fi\n      ;;\n  esac\ndone\n[ $rc -ne 0 ] && exit 1\n{otherwise}\n"
        ),
    );
    tool
}

/// Runs a well-typed campaign of `lang` on the sample API with the marker compiler, without
/// reduction: the finding directories of `bugs/`.
fn marker_campaign(toolchains: &Path, lang: &str, run: &Path) -> Vec<PathBuf> {
    let tool = marker_compiler(toolchains, lang);
    thalia(toolchains)
        .args([
            "run",
            "--lang",
            lang,
            "--mode",
            "well-typed",
            "--seed",
            "3",
            "--budget",
            "60",
            "--compiler",
            &format!("{tool}@marker"),
            "-j",
            "1",
            "--no-reduce",
            "--synth-config",
        ])
        .arg(fake::shallow_forms_config(run.parent().expect("a parent")))
        .arg("--api")
        .arg(api_with_a_dependency(run.parent().expect("a parent")))
        .arg("--out")
        .arg(run)
        .assert()
        .success();
    findings(run)
}

/// The coordinates the campaign's API records as fetched (its programs name JDK classes only).
const FETCHED: &str = "org.example:marker-lib:1.0";

/// The sample API as a fetched library's API directory: its `fetch.json` names [`FETCHED`].
fn api_with_a_dependency(dir: &Path) -> PathBuf {
    let api = dir.join("api");
    std::fs::create_dir_all(&api).expect("api dir");
    for e in std::fs::read_dir(sample_api())
        .expect("sample api")
        .flatten()
    {
        std::fs::copy(e.path(), api.join(e.file_name())).expect("copy");
    }
    std::fs::write(
        api.join("fetch.json"),
        serde_json::json!({ "requested": [FETCHED], "resolved": [FETCHED] }).to_string(),
    )
    .expect("fetch.json");
    api
}

/// The finding directories of a run's `bugs/`.
fn findings(run: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(run.join("bugs"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| p.join("finding.json").is_file());
    out.sort();
    out
}

/// Reduces `bug` and checks what every deep reduction must give: the marker still called,
/// at most 6 lines and at most half the characters of the campaign's program, the
/// signature kept (the reduced program is rejected with the marker's message). Returns
/// `reduction.json` and the reduced program's source.
fn reduce_to_size(toolchains: &Path, bug: &Path, lang: &str, ext: &str) -> (Value, String) {
    thalia(toolchains).arg("reduce").arg(bug).assert().success();
    let reduced = bug.join("reduced");
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(reduced.join("reduction.json")).expect("reduction.json"),
    )
    .expect("JSON");
    let program = std::fs::read_dir(&reduced)
        .expect("reduced/")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == ext))
        .expect("the reduced program");
    let source = std::fs::read_to_string(&program).expect("source");
    let original = std::fs::read_dir(bug)
        .expect("the finding")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == ext))
        .expect("the campaign's program");
    let before = std::fs::read_to_string(&original).expect("source");
    // the cause stays: the marker call, written short or long
    assert!(
        source.contains(marker(lang)),
        "the finding's cause stays:\n{source}"
    );
    assert!(
        source.lines().count() <= 6,
        "at most 6 lines:\n{source}\n{summary}"
    );
    assert!(
        2 * source.chars().count() <= before.chars().count(),
        "at most half the characters of\n{before}\nin\n{source}"
    );
    assert_eq!(
        summary["chars_after"].as_u64(),
        Some(source.chars().count() as u64),
        "{summary}"
    );
    // the report shows the reduced program, and that it needs no dependency
    let report = std::fs::read_to_string(reduced.join("report.md")).expect("report.md");
    assert!(
        report.contains(source.lines().last().unwrap_or("")),
        "{report}"
    );
    assert!(
        report.contains("Dependencies: none after reduction")
            && report.contains(&format!("`{FETCHED}`")),
        "{report}"
    );
    ready_to_file(toolchains, bug, &source, ext);
    (summary, source)
}

/// What a reduced program must be to be filed: no modifier its language does not need, no
/// name longer than one letter for its class (its file named after it, its twin's too) and
/// its locals, and its own `repro.sh`, which reproduces the finding.
fn ready_to_file(toolchains: &Path, bug: &Path, source: &str, ext: &str) {
    let reduced = bug.join("reduced");
    assert!(!source.contains("final "), "{source}");
    let words: Vec<&str> = source
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let class = words
        .windows(2)
        .find(|w| w[0] == "class" || w[0] == "object")
        .map(|w| w[1].to_string())
        .expect("the test class");
    assert_eq!(class.len(), 1, "a one-letter class:\n{source}");
    // the translators' and the synthesizer's names of locals are gone
    let long_local = |w: &&str| {
        w.starts_with("__unused_")
            || *w == "res"
            || (w.len() > 1 && w.starts_with('a') && w[1..].chars().all(|c| c.is_ascii_digit()))
    };
    assert!(!words.iter().any(long_local), "short locals:\n{source}");
    let file = format!("{class}.{ext}");
    assert!(
        reduced.join(&file).is_file(),
        "{file} in {}",
        reduced.display()
    );
    let report = std::fs::read_to_string(reduced.join("report.md")).expect("report.md");
    assert!(report.contains(&format!("({file})")), "{report}");
    if ext != "java" {
        let twin = std::fs::read_to_string(reduced.join(format!("{class}.java")))
            .expect("the twin, named after the class");
        assert!(
            twin.lines().any(|l| l == format!("class {class} {{")),
            "the twin is the same program:\n{twin}"
        );
    }
    let out = crate::support::toolchains::repro(&reduced.join("repro.sh"), toolchains)
        .output()
        .expect("repro.sh runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("REPRODUCED"),
        "the reduced repro.sh reproduces the finding:\n{said}"
    );
}

/// Compiles `file` with the real javac: whether it is accepted.
fn javac_accepts(file: &Path, out: &Path) -> bool {
    std::process::Command::new(real_javac())
        .arg("-d")
        .arg(out)
        .arg(file)
        .status()
        .expect("javac runs")
        .success()
}

/// The reduced program's Java twin.
fn reduced_twin(bug: &Path) -> PathBuf {
    std::fs::read_dir(bug.join("reduced"))
        .expect("reduced/")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "java"))
        .expect("the reduced program's Java twin")
}

/// A finding of a non-Java program: it shrinks to the stated size, and its reduced twin is
/// still well-typed for javac (the oracle that checked every step that may change types).
fn reduces_under_its_twin(lang: &str, ext: &str) -> (tempfile::TempDir, String) {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let run = root.path().join("run");
    let bugs = marker_campaign(&toolchains, lang, &run);
    assert_eq!(bugs.len(), 1, "one signature: {bugs:?}");
    let (summary, source) = reduce_to_size(&toolchains, &bugs[0], lang, ext);
    assert_eq!(
        summary["oracles"],
        serde_json::json!(["javac (Java twin)"]),
        "{summary}"
    );
    let twin = reduced_twin(&bugs[0]);
    assert!(
        javac_accepts(&twin, &root.path().join("twin-classes")),
        "the reduced twin is well-typed:\n{}",
        std::fs::read_to_string(&twin).unwrap_or_default()
    );
    (root, source)
}

#[test]
fn a_groovy_rejection_shrinks_to_a_few_lines_under_its_java_twin() {
    let (_dir, source) = reduces_under_its_twin("groovy", "groovy");
    // short names: the marker call is written `Map.<..>of` (Groovy imports `java.util`)
    assert!(
        source.contains("Map.<") && !source.contains("java.util.Map"),
        "{source}"
    );
    // what is left around the call is the smallest skeleton Groovy takes
    let lines: Vec<&str> = source.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "@groovy.transform.CompileStatic class T {",
            "    static void test() {"
        ],
        "{source}"
    );
    // the skeleton (75 characters) and the call (56): the campaign's skeleton alone is 116
    assert!(
        source.chars().count() <= 135,
        "{}: {source}",
        source.chars().count()
    );
}

/// Compiles `source` (a reduced program in `ext`) with the real compiler whose classpath is
/// in `env`: whether it is accepted.
fn real_compiler_accepts(env: &str, main: &str, source: &str, file: &str) -> Option<bool> {
    let Ok(cp) = std::env::var(env) else {
        require::missing_tool(
            "the real compiler of a reduced program",
            &format!("{env} is not set"),
        );
        return None;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(file);
    std::fs::write(&path, source).expect("write");
    std::fs::create_dir_all(dir.path().join("out")).expect("mkdir");
    let mut cmd = std::process::Command::new("java");
    cmd.arg("-cp").arg(&cp).arg(main);
    if main.contains("kotlin") {
        let stdlib = cp
            .split(':')
            .find(|j| j.contains("kotlin-stdlib-") && !j.contains("jdk"))
            .expect("kotlin-stdlib on the classpath")
            .to_string();
        cmd.args([
            "-no-stdlib",
            "-no-reflect",
            "-nowarn",
            "-classpath",
            &stdlib,
        ]);
    } else {
        cmd.args(["-usejavacp", "-color:never", "-nowarn"]);
    }
    let out = cmd
        .arg("-d")
        .arg(dir.path().join("out"))
        .arg(&path)
        .output()
        .expect("java runs");
    if !out.status.success() {
        eprintln!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(out.status.success())
}

#[test]
fn a_kotlin_finding_shrinks_and_stays_valid_kotlin() {
    let (_dir, source) = reduces_under_its_twin("kotlin", "kt");
    let file = source
        .lines()
        .find_map(|l| l.trim().strip_prefix("object "))
        .and_then(|l| l.split_whitespace().next())
        .map(|name| format!("{name}.kt"))
        .expect("the test object");
    if let Some(ok) = real_compiler_accepts(
        "THALIA_KOTLINC_CP",
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        &source,
        &file,
    ) {
        assert!(ok, "kotlinc accepts the reduced program:\n{source}");
    }
}

#[test]
fn a_scala_finding_shrinks_and_stays_valid_scala() {
    let (_dir, source) = reduces_under_its_twin("scala", "scala");
    if let Some(ok) = real_compiler_accepts(
        "THALIA_SCALA3_CP",
        "dotty.tools.dotc.Main",
        &source,
        "Test.scala",
    ) {
        assert!(ok, "scalac accepts the reduced program:\n{source}");
    }
}

#[test]
fn a_finding_of_check_is_reduced_from_the_checked_directorys_ir() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    marker_compiler(&toolchains, "java");
    let programs = root.path().join("programs");
    thalia(&toolchains)
        .args([
            "synth",
            "--lang",
            "java",
            "--mode",
            "well-typed",
            "--seed",
            "3",
            "-n",
            "60",
        ])
        .arg("--synth-config")
        .arg(fake::shallow_forms_config(root.path()))
        .arg("--api")
        .arg(api_with_a_dependency(root.path()))
        .arg("--out")
        .arg(&programs)
        .assert()
        .success();
    assert!(programs.join("programs.ir.jsonl").is_file());
    let run = root.path().join("check");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "javac@marker", "-j", "1", "--out"])
        .arg(&run)
        .assert()
        .success();
    let bugs = findings(&run);
    assert_eq!(bugs.len(), 1, "one signature: {bugs:?}");
    // a finding of check keeps no IR of its own: it comes from the checked directory
    assert!(!bugs[0].join("program.ir.json").exists());
    let (summary, _) = reduce_to_size(&toolchains, &bugs[0], "java", "java");
    assert!(
        summary["size_after"].as_u64() < summary["size_before"].as_u64(),
        "{summary}"
    );
    // without the IR, the refusal says how to get it
    std::fs::remove_file(programs.join("programs.ir.jsonl")).expect("rm");
    std::fs::remove_dir_all(bugs[0].join("reduced")).expect("rm");
    thalia(&toolchains)
        .arg("reduce")
        .arg(&bugs[0])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("programs.ir.jsonl"));
}
