//! Tests of the javac batch harness in `tests/support/javac.rs`. Skipped (with a message) if
//! `javac` is not on `PATH`.

use crate::support::javac;
use crate::support::require;

use std::fs;
use std::path::{Path, PathBuf};

use javac::{compile_batch, javac_available, BatchResult, Verdict};

/// Whether the test can run; says why not otherwise.
fn have_javac() -> bool {
    let ok = javac_available();
    if !ok {
        require::missing_tool("javac_harness", "javac not found on PATH");
    }
    ok
}

/// Writes `Test_<id>.java` holding class `thalia.<id>.Test_<id>` whose method body is `body`.
fn program(dir: &Path, id: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("Test_{id}.java"));
    let src = format!(
        "package thalia.{id};\n\npublic final class Test_{id} {{\n    \
         public static void test() throws Throwable {{\n        {body}\n    }}\n}}\n"
    );
    fs::write(&path, src).expect("can write a source file");
    path
}

fn diagnostics<'a>(r: &'a BatchResult, name: &str) -> &'a [String] {
    match r.verdicts.get(name) {
        Some(Verdict::Rejected { diagnostics }) => diagnostics,
        other => panic!("{name} should be rejected, got {other:?}\n{r:#?}"),
    }
}

fn assert_accepted(r: &BatchResult, names: &[&str]) {
    for name in names {
        assert_eq!(
            r.verdicts.get(*name),
            Some(&Verdict::Accepted),
            "{name}\n{r:#?}"
        );
    }
}

const GOOD_1: &str = "java.util.List<java.lang.String> l = java.util.List.of(\"a\");";
const GOOD_2: &str = "java.util.function.Consumer<java.lang.String> c = (x) -> {};";

#[test]
fn type_error_rejects_only_its_file() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = vec![
        program(dir.path(), "p000001", GOOD_1),
        program(dir.path(), "p000002", "java.lang.String s = 1;"),
        program(dir.path(), "p000003", GOOD_2),
    ];
    let r = compile_batch(&files, None).expect("javac runs");
    assert_eq!(r.verdicts.len(), 3, "{r:#?}");
    assert_accepted(&r, &["Test_p000001.java", "Test_p000003.java"]);
    let d = diagnostics(&r, "Test_p000002.java");
    assert_eq!(d.len(), 1, "{d:#?}");
    let header = format!("{}:5: error: incompatible types", files[1].display());
    assert!(d[0].starts_with(&header), "{d:#?}");
    // The source excerpt and caret belong to the diagnostic; the summary does not.
    assert!(d[0].contains("java.lang.String s = 1;\n"), "{d:#?}");
    assert!(d[0].trim_end().ends_with('^'), "{d:#?}");
    // One call for the batch, one to confirm the files without diagnostics.
    assert_eq!(r.javac_calls, 2);
}

#[test]
fn all_good_batch_needs_one_call() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files: Vec<PathBuf> = (0..20)
        .map(|i| {
            let body = if i % 2 == 0 { GOOD_1 } else { GOOD_2 };
            program(dir.path(), &format!("p{i:06}"), body)
        })
        .collect();
    let r = compile_batch(&files, None).expect("javac runs");
    assert_eq!(r.javac_calls, 1);
    assert_eq!(r.verdicts.len(), 20);
    assert!(r.verdicts.values().all(Verdict::is_accepted), "{r:#?}");
}

#[test]
fn syntax_error_does_not_hide_good_files() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = vec![
        program(dir.path(), "good1", GOOD_1),
        program(dir.path(), "syntax", "int x = ;"),
        program(dir.path(), "good2", GOOD_2),
        // javac stops after parsing, so this file's type error only shows in the next round.
        program(dir.path(), "typed", "int y = \"s\";"),
    ];
    let r = compile_batch(&files, None).expect("javac runs");
    assert_eq!(r.verdicts.len(), 4, "{r:#?}");
    assert_accepted(&r, &["Test_good1.java", "Test_good2.java"]);
    let d = diagnostics(&r, "Test_syntax.java");
    assert!(
        d[0].contains("error: illegal start of expression"),
        "{d:#?}"
    );
    let d = diagnostics(&r, "Test_typed.java");
    assert!(d[0].contains("error: incompatible types"), "{d:#?}");
    assert_eq!(r.javac_calls, 3);
}

#[test]
fn flow_errors_hidden_by_type_errors_are_found() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = vec![
        program(dir.path(), "typed", "java.lang.String s = 1;"),
        program(
            dir.path(),
            "flow",
            "int x; java.lang.System.out.println(x);",
        ),
        program(dir.path(), "good", GOOD_1),
    ];
    let r = compile_batch(&files, None).expect("javac runs");
    assert_accepted(&r, &["Test_good.java"]);
    diagnostics(&r, "Test_typed.java");
    let d = diagnostics(&r, "Test_flow.java");
    assert!(d[0].contains("might not have been initialized"), "{d:#?}");
}

#[test]
fn multi_line_diagnostics_and_several_per_file() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = vec![program(
        dir.path(),
        "two",
        "undefined(); java.lang.String s = 1;",
    )];
    let r = compile_batch(&files, None).expect("javac runs");
    let d = diagnostics(&r, "Test_two.java");
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(d[0].contains("error: cannot find symbol"), "{d:#?}");
    assert!(d[0].contains("symbol:   method undefined()"), "{d:#?}");
    assert!(d[1].contains("error: incompatible types"), "{d:#?}");
    assert!(d.iter().all(|d| !d.contains("2 errors")), "{d:#?}");
    assert_eq!(r.javac_calls, 1);
}

#[test]
fn unattributable_failure_falls_back_to_single_files() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = vec![
        program(dir.path(), "good", GOOD_1),
        // javac refuses the whole command line: `error: file not found: ...`.
        dir.path().join("Test_missing.java"),
        program(dir.path(), "bad", "java.lang.String s = 1;"),
    ];
    let r = compile_batch(&files, None).expect("javac runs");
    assert_accepted(&r, &["Test_good.java"]);
    let d = diagnostics(&r, "Test_missing.java");
    assert!(d[0].contains("not found"), "{d:#?}");
    let d = diagnostics(&r, "Test_bad.java");
    assert!(d[0].contains("error: incompatible types"), "{d:#?}");
    assert_eq!(r.javac_calls, 4);
}

#[test]
fn classpath_is_passed_and_duplicates_count_once() {
    if !have_javac() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let lib_src = dir.path().join("lib");
    fs::create_dir_all(lib_src.join("demo")).expect("mkdir");
    let lib_file = lib_src.join("demo/Lib.java");
    fs::write(
        &lib_file,
        "package demo;\npublic class Lib { public static int one() { return 1; } }\n",
    )
    .expect("write");
    let lib_classes = dir.path().join("classes");
    let status = std::process::Command::new("javac")
        .arg("-d")
        .arg(&lib_classes)
        .arg(&lib_file)
        .status()
        .expect("javac runs");
    assert!(status.success());

    let user = program(dir.path(), "user", "int one = demo.Lib.one();");
    let files = vec![user.clone(), user];
    let cp = lib_classes.to_str().expect("utf-8 temp path");
    let r = compile_batch(&files, Some(cp)).expect("javac runs");
    assert_eq!(r.javac_calls, 1);
    assert_eq!(r.verdicts.len(), 1);
    assert_accepted(&r, &["Test_user.java"]);

    let r = compile_batch(&files[..1], None).expect("javac runs");
    let d = diagnostics(&r, "Test_user.java");
    assert!(d[0].contains("does not exist"), "{d:#?}");
}

#[test]
fn same_file_name_in_two_dirs_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a/X.java");
    let b = dir.path().join("b/X.java");
    let err = compile_batch(&[a, b], None).expect_err("names clash");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

#[test]
fn empty_batch_runs_nothing() {
    let r = compile_batch(&[], None).expect("nothing to do");
    assert_eq!(r.javac_calls, 0);
    assert!(r.verdicts.is_empty());
}
