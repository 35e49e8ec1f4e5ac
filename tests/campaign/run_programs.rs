//! Running what the compiler accepts (`thalia run-program`, `thalia check --run`): linkage
//! errors are miscompilations, an exception only the program raises is unsoundness, one its
//! Java twin shares is not a finding, and the sandbox ends a program that exits and keeps
//! one from writing outside its directory.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use serde_json::Value;

use crate::support::fake::{self, real_javac, thalia};
use crate::support::require;

/// Whether bubblewrap and a JDK are here (else the test is skipped, or fails under
/// `THALIA_REQUIRE_TOOLS=1`).
fn have_tools(test: &str) -> bool {
    if !require::have_sandbox(test) {
        return false;
    }
    let jdk = Process::new(real_javac())
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !jdk {
        require::missing_tool(test, "javac not found");
    }
    jdk
}

/// Compiles the Java `sources` (`(file, text)`) in `dir/src` into `dir/out` against
/// `classpath`; returns `dir/out`.
fn javac(dir: &Path, sources: &[(&str, &str)], classpath: Option<&Path>) -> PathBuf {
    let src = dir.join("src");
    let out = dir.join("out");
    std::fs::create_dir_all(&src).expect("mkdir");
    let mut cmd = Process::new(real_javac());
    cmd.arg("-d").arg(&out);
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    for (file, text) in sources {
        let p = src.join(file);
        std::fs::write(&p, text).expect("write");
        cmd.arg(p);
    }
    let o = cmd.output().expect("javac runs");
    assert!(
        o.status.success(),
        "javac: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// `thalia run-program --json` with `args`; its JSON.
fn run_program(toolchains: &Path, args: &[&std::ffi::OsStr]) -> Value {
    let out = thalia(toolchains)
        .arg("run-program")
        .args(args)
        .arg("--json")
        .output()
        .expect("thalia runs");
    assert!(
        out.status.success(),
        "run-program failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

#[test]
fn a_program_run_against_another_version_of_its_library_is_a_miscompilation() {
    if !have_tools("a_program_run_against_another_version_of_its_library_is_a_miscompilation") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    // the library's two versions: `f` in 1, only `g` in 2
    let v1 = javac(
        &r.join("v1"),
        &[(
            "Lib.java",
            "package lib; public class Lib { public static int f() { return 1; } }",
        )],
        None,
    );
    let v2 = javac(
        &r.join("v2"),
        &[(
            "Lib.java",
            "package lib; public class Lib { public static int g() { return 2; } }",
        )],
        None,
    );
    let program = javac(
        &r.join("program"),
        &[(
            "Test_p1.java",
            "package thalia.p1; public final class Test_p1 { public static void test() { int x = lib.Lib.f(); } }",
        )],
        Some(&v1),
    );
    let tc = r.join("toolchains");
    let args = |lib: &Path| {
        vec![
            os("--classes").to_owned(),
            program.clone().into_os_string(),
            os("--class").to_owned(),
            os("thalia.p1.Test_p1").to_owned(),
            os("--classpath").to_owned(),
            lib.as_os_str().to_owned(),
        ]
    };
    let refs = |v: &[std::ffi::OsString]| {
        v.iter()
            .map(|s| s.as_os_str().to_owned())
            .collect::<Vec<_>>()
    };
    let against_v2 = refs(&args(&v2));
    let v = run_program(
        &tc,
        &against_v2.iter().map(|s| s.as_os_str()).collect::<Vec<_>>(),
    );
    assert_eq!(v["run"]["program"]["outcome"], "exception", "{v}");
    assert_eq!(
        v["run"]["program"]["class"], "java.lang.NoSuchMethodError",
        "{v}"
    );
    assert_eq!(v["finding"]["kind"], "miscompilation", "{v}");
    // against the version it was compiled with, it runs to its end: no finding
    let against_v1 = refs(&args(&v1));
    let v = run_program(
        &tc,
        &against_v1.iter().map(|s| s.as_os_str()).collect::<Vec<_>>(),
    );
    assert_eq!(v["run"]["program"]["outcome"], "normal", "{v}");
    assert!(v["finding"].is_null(), "{v}");
}

#[test]
fn a_groovy_field_read_on_a_map_fails_at_run_time_where_its_twin_ends_normally() {
    let test = "a_groovy_field_read_on_a_map_fails_at_run_time_where_its_twin_ends_normally";
    if !have_tools(test) {
        return;
    }
    let Some(groovy_cp) = std::env::var_os("THALIA_GROOVY_CP") else {
        require::missing_tool(test, "THALIA_GROOVY_CP is not set");
        return;
    };
    let root = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    // `@CompileStatic` accepts `.@size` on a `Map`; the read fails at run time
    let source = "package thalia.p2\n\n@groovy.transform.CompileStatic\nfinal class Test_p2 {\n    static void test() {\n        java.util.Map<java.lang.String, java.lang.Integer> r = new java.util.HashMap<java.lang.String, java.lang.Integer>();\n        java.lang.Object res = r.@size;\n    }\n}\n";
    let src = r.join("Test_p2.groovy");
    std::fs::write(&src, source).expect("write");
    let classes = r.join("groovy-out");
    let o = Process::new("java")
        .arg("-cp")
        .arg(&groovy_cp)
        .arg("org.codehaus.groovy.tools.FileSystemCompiler")
        .arg("-d")
        .arg(&classes)
        .arg(&src)
        .output()
        .expect("groovyc runs");
    assert!(
        o.status.success(),
        "groovyc accepts it: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    // the Java twin reads the map as Groovy's property semantics would
    let twin = javac(
        &r.join("twin"),
        &[(
            "Test_p2.java",
            "package thalia.p2; public final class Test_p2 { public static void test() { java.util.Map<String, Integer> r = new java.util.HashMap<String, Integer>(); Object res = r.get(\"size\"); } }",
        )],
        None,
    );
    let v = run_program(
        &r.join("toolchains"),
        &[
            os("--classes"),
            classes.as_os_str(),
            os("--source"),
            src.as_os_str(),
            os("--twin-classes"),
            twin.as_os_str(),
            os("--classpath"),
            &groovy_cp,
        ],
    );
    assert_eq!(
        v["run"]["program"]["class"], "groovy.lang.MissingFieldException",
        "{v}"
    );
    assert_eq!(
        v["run"]["program"]["frame"], "thalia.p2.Test_p2.test:7",
        "{v}"
    );
    assert_eq!(v["run"]["twin"]["outcome"], "normal", "{v}");
    assert_eq!(v["finding"]["kind"], "unsoundness", "{v}");
}

#[test]
fn a_null_receivers_exception_the_twin_shares_is_not_a_finding() {
    if !have_tools("a_null_receivers_exception_the_twin_shares_is_not_a_finding") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    let text = "package thalia.p3; public final class Test_p3 { public static void test() { String s = null; int n = s.length(); } }";
    let program = javac(&r.join("program"), &[("Test_p3.java", text)], None);
    let twin = javac(&r.join("twin"), &[("Test_p3.java", text)], None);
    let v = run_program(
        &r.join("toolchains"),
        &[
            os("--classes"),
            program.as_os_str(),
            os("--class"),
            os("thalia.p3.Test_p3"),
            os("--twin-classes"),
            twin.as_os_str(),
        ],
    );
    assert_eq!(
        v["run"]["program"]["class"], "java.lang.NullPointerException",
        "{v}"
    );
    assert_eq!(
        v["run"]["twin"]["class"], "java.lang.NullPointerException",
        "{v}"
    );
    assert!(v["finding"].is_null(), "a shared NPE is expected: {v}");
}

#[test]
fn the_sandbox_ends_a_program_that_exits_and_keeps_it_from_writing_outside() {
    if !have_tools("the_sandbox_ends_a_program_that_exits_and_keeps_it_from_writing_outside") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    // a host directory outside the sandbox's own (and not under its throwaway /tmp)
    let host = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&host).expect("mkdir");
    let outside = host.join(format!("escaped-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&outside);
    let writer = format!(
        "package thalia.w; public final class Test_w {{ public static void test() throws Exception {{ java.nio.file.Files.writeString(java.nio.file.Path.of({:?}), \"escaped\"); }} }}",
        outside.display().to_string()
    );
    let classes = javac(
        &r.join("programs"),
        &[
            (
                "Test_x.java",
                // the exit hidden from the source filter: the sandbox must stop it
                "package thalia.x; public final class Test_x { public static void test() throws Exception { Class.forName(\"java.lang.Sys\" + \"tem\").getMethod(\"exit\", int.class).invoke(null, 3); } }",
            ),
            ("Test_w.java", &writer),
            (
                "Test_ok.java",
                "package thalia.ok; public final class Test_ok { public static void test() { } }",
            ),
        ],
        None,
    );
    let sandbox = thalia::run::Sandbox::find().expect("a sandbox");
    let runner = thalia::run::Runner::new(sandbox, thalia::run::Limits::default()).expect("runner");
    let job = |id: &str, class: &str| thalia::run::Job {
        id: id.into(),
        classes: classes.clone(),
        class: class.into(),
    };
    let ran = runner
        .run_batch(
            &r.join("sandbox"),
            &[],
            &[
                job("exit", "thalia.x.Test_x"),
                job("write", "thalia.w.Test_w"),
                job("ok", "thalia.ok.Test_ok"),
            ],
        )
        .expect("the batch runs");
    assert_eq!(
        ran.outcomes["exit"],
        thalia::run::RunOutcome::Ended { exit: Some(3) },
        "{ran:?}"
    );
    // the rest of the batch ran in a fresh JVM
    assert_eq!(ran.jvms, 2, "{ran:?}");
    assert_eq!(
        ran.outcomes["ok"],
        thalia::run::RunOutcome::Normal,
        "{ran:?}"
    );
    assert!(
        matches!(&ran.outcomes["write"], thalia::run::RunOutcome::Exception { class, .. } if class.contains("NoSuchFile") || class.contains("IOException") || class.contains("FileSystem")),
        "{ran:?}"
    );
    assert!(!outside.exists(), "the program wrote outside its directory");
    // a source that names System.exit is not run at all
    let src = r.join("Exit.java");
    std::fs::write(
        &src,
        "class Exit { static void test() { System.exit(1); } }",
    )
    .expect("write");
    let v = run_program(
        &r.join("toolchains"),
        &[
            os("--classes"),
            classes.as_os_str(),
            os("--class"),
            os("thalia.ok.Test_ok"),
            os("--source"),
            src.as_os_str(),
        ],
    );
    assert_eq!(v["run"]["program"]["outcome"], "not-run", "{v}");
    assert_eq!(
        v["run"]["program"]["reason"], "calls java.lang.System.exit",
        "{v}"
    );
}

#[test]
fn without_bubblewrap_programs_are_not_run_and_the_error_says_how_to_install_it() {
    let root = tempfile::tempdir().expect("tempdir");
    let out = thalia(&root.path().join("toolchains"))
        .env("THALIA_BWRAP", root.path().join("no-bwrap"))
        .args(["run-program", "--classes"])
        .arg(root.path())
        .args(["--class", "T"])
        .output()
        .expect("thalia runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("apt-get install bubblewrap"), "{err}");
}

#[test]
fn a_check_with_run_runs_the_accepted_programs_and_records_their_outcomes() {
    if !have_tools("a_check_with_run_runs_the_accepted_programs_and_records_their_outcomes") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    let tc = r.join("toolchains");
    fake::install_script(
        &tc,
        "javac",
        "real",
        "com.sun.tools.javac.Main",
        &format!("#!/bin/sh\nexec '{}' \"$@\"\n", real_javac().display()),
    );
    let programs = r.join("programs");
    fake::synth(&tc, "java", "well-typed", 1, 12, &programs);
    let run = r.join("check");
    // relative directories, as a user types them: the sandbox is given absolute ones
    let out = thalia(&tc)
        .current_dir(r)
        .args([
            "check",
            "programs",
            "--compiler",
            "javac@real",
            "-j",
            "1",
            "--no-recheck",
            "--run",
            "--out",
            "check",
        ])
        .output()
        .expect("thalia runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("ran "), "the session reports its runs: {err}");
    let lines = fake::lines(&run.join("results.jsonl"));
    let accepted: Vec<&Value> = lines
        .iter()
        .filter(|l| l["verdict"] == "accepted")
        .collect();
    assert!(!accepted.is_empty());
    for l in &accepted {
        let outcome = l["run"]["program"]["outcome"].as_str().unwrap_or_default();
        assert!(
            ["normal", "exception", "not-run", "timeout"].contains(&outcome),
            "every accepted program has a run outcome: {l}"
        );
    }
    // javac's own code links: no miscompilation among them
    assert!(
        lines
            .iter()
            .all(|l| l["finding"]["kind"] != "miscompilation"),
        "{lines:?}"
    );
}

/// Installs `javac@linkage`: the real javac, except that the class of `Test_p000003.java`
/// is replaced by one that calls `thalia.stub.Stub.f()`, compiled against a `Stub` that has
/// `f` while the output gets a `Stub` without it: that program's compiled form throws
/// `NoSuchMethodError` when run, whatever its source.
fn linkage_javac(toolchains: &Path) {
    let javac = real_javac();
    let javac = javac.display();
    fake::install_script(
        toolchains,
        "javac",
        "linkage",
        "com.sun.tools.javac.Main",
        &format!(
            r#"#!/bin/sh
'{javac}' "$@" || exit $?
out=""; prev=""; hit=""
for a in "$@"; do
  [ "$prev" = "-d" ] && out="$a"
  case "$a" in */Test_p000003.java|Test_p000003.java) hit=1 ;; esac
  prev="$a"
done
[ -n "$hit" ] && [ -n "$out" ] || exit 0
tmp=$(mktemp -d)
mkdir -p "$tmp/a" "$tmp/b"
echo 'package thalia.stub; public class Stub {{ public static void f() {{ }} }}' > "$tmp/a/Stub.java"
echo 'package thalia.stub; public class Stub {{ public static void g() {{ }} }}' > "$tmp/b/Stub.java"
echo 'package thalia.p000003; public final class Test_p000003 {{ public static void test() {{ thalia.stub.Stub.f(); }} }}' > "$tmp/Test_p000003.java"
'{javac}' -d "$tmp/a" "$tmp/a/Stub.java" >/dev/null 2>&1 &&
'{javac}' -cp "$tmp/a" -d "$out" "$tmp/Test_p000003.java" >/dev/null 2>&1 &&
'{javac}' -d "$out" "$tmp/b/Stub.java" >/dev/null 2>&1
rm -rf "$tmp"
exit 0
"#
        ),
    );
}

#[test]
fn a_campaigns_linkage_error_is_a_miscompilation_and_its_reduction_keeps_it() {
    if !have_tools("a_campaigns_linkage_error_is_a_miscompilation_and_its_reduction_keeps_it") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let r = root.path();
    let tc = r.join("toolchains");
    linkage_javac(&tc);
    let programs = r.join("programs");
    fake::synth(&tc, "java", "well-typed", 1, 8, &programs);
    let run = r.join("check");
    let out = thalia(&tc)
        .arg("check")
        .arg(&programs)
        .args([
            "--compiler",
            "javac@linkage",
            "-j",
            "1",
            "--no-recheck",
            "--run",
            "--out",
        ])
        .arg(&run)
        .output()
        .expect("thalia runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = fake::lines(&run.join("results.jsonl"));
    let p3 = lines
        .iter()
        .find(|l| l["id"] == "p000003")
        .expect("p000003 judged");
    assert_eq!(p3["verdict"], "accepted", "{p3}");
    assert_eq!(p3["finding"]["kind"], "miscompilation", "{p3}");
    assert_eq!(
        p3["run"]["program"]["class"], "java.lang.NoSuchMethodError",
        "{p3}"
    );
    // the others link: no other miscompilation
    let misc = lines
        .iter()
        .filter(|l| l["finding"]["kind"] == "miscompilation")
        .count();
    assert_eq!(misc, 1, "{lines:?}");
    let bug = run
        .join("bugs")
        .join(p3["finding"]["signature"].as_str().expect("signature"));
    let finding: Value = serde_json::from_str(
        &std::fs::read_to_string(bug.join("finding.json")).expect("finding.json"),
    )
    .expect("JSON");
    assert_eq!(
        finding["run"]["program"]["class"],
        "java.lang.NoSuchMethodError"
    );
    let report = std::fs::read_to_string(bug.join("report.md")).expect("report.md");
    assert!(report.contains("Running it"), "{report}");
    assert!(report.contains("NoSuchMethodError"), "{report}");
    // reduction runs every candidate: the linkage error must hold on the reduced program
    let red = thalia(&tc)
        .arg("reduce")
        .arg(&bug)
        .output()
        .expect("thalia runs");
    assert!(
        red.status.success(),
        "{}",
        String::from_utf8_lossy(&red.stderr)
    );
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(bug.join("reduced").join("reduction.json"))
            .expect("reduction.json"),
    )
    .expect("JSON");
    assert!(summary["steps"].as_u64().unwrap_or(0) > 0, "{summary}");
    // the report counts the runs
    let rep = thalia(&tc)
        .args(["report", "--json"])
        .arg(&run)
        .output()
        .expect("thalia runs");
    let rep: Value = serde_json::from_slice(&rep.stdout).expect("JSON");
    assert_eq!(
        rep["runs"]["programs"].as_u64(),
        Some(lines.iter().filter(|l| l["verdict"] == "accepted").count() as u64),
        "{rep}"
    );
}
