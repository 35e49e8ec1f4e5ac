//! One verdict per program in one compiler start per batch, with fake compilers written in
//! Java (`tests/fixtures/fake-compiler/`): a fake groovyc that stops after the first phase in
//! which a file has an error (leaving the other files unjudged, as groovyc does), and a fake
//! kotlinc that reports the errors of every file of a run but generates classes only when no
//! file has an error. Each source file's first line says in which phase it fails or crashes;
//! the fakes log every JVM start and every class they generate. The tests assert that every
//! program of a batch gets its own verdict, that a batch costs one compiler start (process
//! mode) or none on a warm server, that accepted programs go through class generation, and
//! that a crash there is still caught, with the other programs' verdicts untouched.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::fake;

use fake::{lines, real_javac, synth, thalia};

/// The fake compilers' classes, compiled once.
fn fake_classes() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = tempfile::tempdir().expect("tempdir").keep();
        let classes = root.join("classes");
        let sources =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake-compiler");
        let files: Vec<PathBuf> = walk(&sources)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "java"))
            .collect();
        let out = std::process::Command::new(real_javac())
            .args(["--release", "17", "-nowarn", "-d"])
            .arg(&classes)
            .args(&files)
            .output()
            .expect("javac runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        classes
    })
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).expect("readable").flatten() {
        let p = e.path();
        if p.is_dir() {
            found.extend(walk(&p));
        } else {
            found.push(p);
        }
    }
    found
}

/// A fresh copy of the fake classes (each test its own log), installed as `tool@phases`
/// with `main_class`; returns the log's path.
fn install_fake(toolchains: &Path, tool: &str, main_class: &str) -> PathBuf {
    let dir = toolchains.join(tool).join("phases");
    let classes = dir.join("classes");
    for f in walk(fake_classes()) {
        let rel = f.strip_prefix(fake_classes()).expect("under the classes");
        let to = classes.join(rel);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(&f, &to).expect("copy");
    }
    let java = real_javac().with_file_name("java");
    assert!(java.exists(), "no java beside {}", real_javac().display());
    let tc = serde_json::json!({
        "tool": tool, "version": "phases", "classpath": [classes], "runtime": [],
        "main_class": main_class, "java": java, "coordinate": null,
    });
    std::fs::write(dir.join("toolchain.json"), tc.to_string()).expect("write toolchain");
    dir.join("fake.log")
}

/// What becomes of program `i`: a fake marker line, and the verdict and diagnostic expected.
fn fate(i: usize, with_crash: bool) -> (&'static str, &'static str, &'static str) {
    match i % 6 {
        0 => (
            "// fake: fail-at 1",
            "rejected",
            "injected error in parsing",
        ),
        1 => (
            "// fake: fail-at 2",
            "rejected",
            "injected error in resolving",
        ),
        2 => (
            "// fake: fail-at 3",
            "rejected",
            "injected error in type checking",
        ),
        3 => (
            "// fake: fail-at 4",
            "rejected",
            "injected error in class generation",
        ),
        4 if with_crash => ("// fake: crash-at 4", "crash", "injected internal error"),
        _ => ("", "accepted", ""),
    }
}

/// `n` programs of `lang` in `dir`, each given its fate's marker as its first line.
fn programs(toolchains: &Path, lang: &str, n: usize, with_crash: bool, dir: &Path) {
    synth(toolchains, lang, "well-typed", 1, n, dir);
    for (i, r) in lines(&dir.join("programs.jsonl")).iter().enumerate() {
        let file = dir.join(r["file"].as_str().expect("a file"));
        let source = std::fs::read_to_string(&file).expect("the program");
        let (marker, _, _) = fate(i, with_crash);
        std::fs::write(&file, format!("{marker}\n{source}")).expect("rewrite");
    }
}

/// `thalia check` of `programs` with `tool@phases` in batches of `batch`; returns the results
/// (in manifest order) and the fake's log.
fn check(
    toolchains: &Path,
    tool: &str,
    programs: &Path,
    batch: usize,
    server: bool,
    out: &Path,
) -> Vec<Value> {
    let mut cmd = thalia(toolchains);
    cmd.arg("check")
        .arg(programs)
        .args([
            "--compiler",
            &format!("{tool}@phases"),
            "--no-twin",
            "-j",
            "1",
        ])
        .args(["--batch-size", &batch.to_string(), "--out"])
        .arg(out);
    if server {
        cmd.arg("--server");
    }
    cmd.assert().success();
    let mut results = lines(&out.join("results.jsonl"));
    let order: Vec<String> = lines(&programs.join("programs.jsonl"))
        .iter()
        .map(|r| r["id"].as_str().unwrap_or_default().to_string())
        .collect();
    results.sort_by_key(|r| {
        order
            .iter()
            .position(|id| r["id"].as_str() == Some(id.as_str()))
    });
    results
}

/// The JVM starts and the classes generated, from a fake's log.
fn log(path: &Path) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let starts = text.lines().filter(|l| l.starts_with("start ")).count();
    let classes = text
        .lines()
        .filter_map(|l| l.strip_prefix("classgen "))
        .map(String::from)
        .collect();
    (starts, classes)
}

/// Checks every program's verdict against its fate, and that exactly the accepted ones had
/// their classes generated (once each when `once`).
fn assert_verdicts(results: &[Value], with_crash: bool, generated: &[String], once: bool) {
    assert_eq!(results.len(), 12, "every program judged");
    for (i, r) in results.iter().enumerate() {
        let (_, verdict, diagnostic) = fate(i, with_crash);
        assert_eq!(r["verdict"], verdict, "program {i}: {r}");
        let text = r.to_string();
        assert!(text.contains(diagnostic), "program {i}: {r}");
        // a program's diagnostics are its own
        for j in 0..4 {
            let (_, _, other) = fate(j, with_crash);
            if j != i % 6 {
                assert!(!text.contains(other), "program {i} has {other}: {r}");
            }
        }
        let file = r["file"].as_str().expect("a file").to_string();
        let n = generated.iter().filter(|g| **g == file).count();
        if verdict == "accepted" {
            assert!(n >= 1, "accepted program {i} was never generated");
            if once {
                assert_eq!(n, 1, "program {i} generated {n} times");
            }
        } else {
            assert_eq!(n, 0, "program {i} ({verdict}) was generated");
        }
    }
}

#[test]
fn a_compiler_that_stops_at_the_first_failing_phase_judges_every_program_in_one_start_per_batch() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let log_file = install_fake(&toolchains, "groovy", "fake.Groovyc");
    let dir = root.path().join("programs");
    programs(&toolchains, "groovy", 12, true, &dir);

    // a process per batch: two batches, two starts, though the batches hold errors of four
    // phases (the compiler's command line would need a run per phase, and a crash bisected)
    let results = check(
        &toolchains,
        "groovy",
        &dir,
        6,
        false,
        &root.path().join("p"),
    );
    let (starts, generated) = log(&log_file);
    assert_eq!(starts, 2, "one compiler start per batch");
    assert_verdicts(&results, true, &generated, true);

    // warm: one server for both batches, the same verdicts
    std::fs::remove_file(&log_file).expect("log");
    let warm = check(&toolchains, "groovy", &dir, 6, true, &root.path().join("s"));
    let (starts, generated) = log(&log_file);
    assert_eq!(starts, 1, "one server");
    assert_verdicts(&warm, true, &generated, true);
}

#[test]
fn a_compiler_that_checks_every_file_generates_the_accepted_ones_in_the_same_start() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let log_file = install_fake(&toolchains, "kotlin", "fake.Kotlinc");
    let dir = root.path().join("programs");
    programs(&toolchains, "kotlin", 12, false, &dir);

    // each batch: one run reports the errors of every file, a second run in the same JVM
    // generates the classes of the files without any; a batch with an error in class
    // generation (after the others passed) needs no more starts
    let results = check(
        &toolchains,
        "kotlin",
        &dir,
        6,
        false,
        &root.path().join("p"),
    );
    let (starts, generated) = log(&log_file);
    assert_eq!(starts, 2, "one compiler start per batch");
    assert_verdicts(&results, false, &generated, true);

    std::fs::remove_file(&log_file).expect("log");
    let warm = check(&toolchains, "kotlin", &dir, 6, true, &root.path().join("s"));
    let (starts, generated) = log(&log_file);
    assert_eq!(starts, 1, "one server");
    assert_verdicts(&warm, false, &generated, true);
}

#[test]
fn a_crash_in_class_generation_of_an_accepted_program_is_caught_and_kept_to_it() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let log_file = install_fake(&toolchains, "kotlin", "fake.Kotlinc");
    let dir = root.path().join("programs");
    programs(&toolchains, "kotlin", 12, true, &dir);
    for server in [false, true] {
        let _ = std::fs::remove_file(&log_file);
        let out = root.path().join(if server { "s" } else { "p" });
        let results = check(&toolchains, "kotlin", &dir, 12, server, &out);
        // the crash of one accepted program in the shared run of the error-free ones is
        // bisected down to it; the others are generated
        assert_verdicts(&results, true, &log(&log_file).1, false);
    }
}
