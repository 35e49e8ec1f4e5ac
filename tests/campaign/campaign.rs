//! Campaign fault handling, with fake compilers used only to inject faults: each is a shell
//! script installed as a `javac` toolchain that crashes, hangs or prints garbage when given a
//! chosen program and runs the real `javac` otherwise. The tests assert that a crash or hang
//! in a batch is bisected down to its program while every other program keeps the real
//! compiler's verdict, that no verdict is lost, that findings are deduplicated into bug
//! directories whose `repro.sh` reproduces them, that a run killed with SIGKILL, or stopped
//! with Ctrl-C (SIGINT: it says how to resume), and resumed ends with exactly the results of
//! an uninterrupted run, and that a time budget is a deadline (a hanging batch is given up one
//! timeout after it, not judged).
//!
//! Programs come from the API JSON samples in `tests/fixtures/api-samples/java` (small, so
//! synthesis is quick).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::fake;

use fake::{install_script, real_javac, sample_api, thalia};

/// Installs a fake `javac` toolchain `javac@<name>` whose script runs `fault` (shell code)
/// when one of its arguments is one of `files`, and the real javac otherwise.
fn fake_javac(toolchains: &Path, name: &str, files: &[&str], fault: &str) {
    let pattern = files
        .iter()
        .map(|f| format!("*/{f}|{f}"))
        .collect::<Vec<_>>()
        .join("|");
    install_script(
        toolchains,
        "javac",
        name,
        "com.sun.tools.javac.Main",
        &format!(
            "#!/bin/sh\n# a fake javac for fault injection\nfor a in \"$@\"; do\n  case \"$a\" in\n    {pattern})\n{fault}\n      ;;\n  esac\ndone\nexec '{}' \"$@\"\n",
            real_javac().display()
        ),
    );
}

const CRASH: &str =
    "      echo 'An exception has occurred in the compiler (17). Please file a bug.'
      echo 'java.lang.IllegalStateException: injected fault'
      echo '	at com.sun.tools.javac.comp.Attr.visitApply(Attr.java:2500)'
      echo '	at com.sun.tools.javac.tree.JCTree$JCMethodInvocation.accept(JCTree.java:1800)'
      exit 4";

struct Fixture {
    root: PathBuf,
    toolchains: PathBuf,
    programs: PathBuf,
}

const PROGRAMS: usize = 24;

/// 24 well-typed Java programs from the samples, and the fake toolchains.
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let root = tempfile::tempdir().expect("tempdir").keep();
        let toolchains = root.join("toolchains");
        let programs = root.join("programs");
        thalia(&toolchains)
            .args(["synth", "--lang", "java", "--seed", "1", "-n"])
            .arg(PROGRAMS.to_string())
            .arg("--api")
            .arg(sample_api())
            .arg("--out")
            .arg(&programs)
            .assert()
            .success();
        fake_javac(
            &toolchains,
            "crash",
            &["Test_p000003.java", "Test_p000007.java"],
            CRASH,
        );
        fake_javac(
            &toolchains,
            "hang",
            &["Test_p000004.java"],
            &format!(
                "      sleep 600 &\n      echo $! > '{}'\n      wait\n      exit 0",
                root.join("hang.pid").display()
            ),
        );
        fake_javac(
            &toolchains,
            "garbage",
            &["Test_p000005.java"],
            "      printf '\\377\\376\\000garbage }{ ::: \\n%%%% error? 12:\\n'\n      exit 1",
        );
        thalia(&toolchains)
            .args(["toolchain", "install", "javac"])
            .assert()
            .success();
        Fixture {
            root,
            toolchains,
            programs,
        }
    })
}

/// `thalia check` of the fixture's programs with `compiler` into `out`; returns stdout.
fn check(compiler: &str, out: &Path, extra: &[&str]) -> String {
    let f = fixture();
    let o = thalia(&f.toolchains)
        .arg("check")
        .arg(&f.programs)
        .args(["--compiler", compiler, "--jobs", "1", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("thalia runs");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "check with {compiler} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// The results of a store: key → (verdict, finding signature).
fn results(dir: &Path) -> BTreeMap<String, (String, Option<String>)> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).expect("results.jsonl");
    let mut m = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("a results line");
        let key = v["key"].as_str().expect("key").to_string();
        let prev = m.insert(
            key.clone(),
            (
                v["verdict"].as_str().expect("verdict").to_string(),
                v["finding"]["signature"].as_str().map(str::to_string),
            ),
        );
        assert!(prev.is_none(), "{key} judged twice");
    }
    m
}

/// The real javac's verdicts on the fixture.
fn baseline() -> &'static BTreeMap<String, (String, Option<String>)> {
    static B: OnceLock<BTreeMap<String, (String, Option<String>)>> = OnceLock::new();
    B.get_or_init(|| {
        let out = fixture().root.join("baseline");
        check("javac", &out, &["--batch-size", "24"]);
        let r = results(&out);
        assert_eq!(r.len(), PROGRAMS);
        r
    })
}

/// Runs a bug directory's `repro.sh`; returns (exit code, output).
fn repro(bug: &Path) -> (i32, String) {
    let o = crate::support::toolchains::repro(&bug.join("repro.sh"), &fixture().toolchains)
        .output()
        .expect("repro.sh runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
    )
}

fn bug_dirs(store: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(store.join("bugs"))
        .expect("bugs/")
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

#[test]
fn a_crash_is_bisected_to_its_programs_deduplicated_and_reproduced() {
    let f = fixture();
    let out = f.root.join("crash-store");
    let stdout = check("javac@crash", &out, &["--batch-size", "24"]);
    let got = results(&out);
    let base = baseline();
    assert_eq!(got.len(), PROGRAMS, "a verdict was lost:\n{stdout}");
    for (key, (verdict, finding)) in &got {
        if key == "p000003" || key == "p000007" {
            assert_eq!(verdict, "crash", "{key}");
            assert!(
                finding
                    .as_deref()
                    .is_some_and(|s| s.starts_with("crash-javac-")),
                "{key}: {finding:?}"
            );
        } else {
            assert_eq!(
                verdict, &base[key].0,
                "{key}: the other programs keep the real verdict"
            );
        }
    }
    // the two crashes share a signature: one bug directory, counted twice
    let bugs = bug_dirs(&out);
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    let bug = &bugs[0];
    for file in ["finding.json", "compiler-output.txt", "repro.sh"] {
        assert!(bug.join(file).exists(), "{} lacks {file}", bug.display());
    }
    let finding: Value = serde_json::from_str(
        &std::fs::read_to_string(bug.join("finding.json")).expect("finding.json"),
    )
    .expect("JSON");
    assert_eq!(finding["kind"], "crash");
    assert_eq!(finding["expected"], "accept");
    assert_eq!(finding["actual"], "crash");
    let file = finding["program"]["file"].as_str().expect("file");
    assert!(bug.join(file).exists(), "the program is kept");
    let (code, output) = repro(bug);
    assert_eq!(code, 0, "repro.sh did not reproduce:\n{output}");
    assert!(output.contains("REPRODUCED: crash"), "{output}");
    // a reproduction to file names no path of this machine: not the toolchains', the
    // JDK's or the run's
    let script = std::fs::read_to_string(bug.join("repro.sh")).expect("repro.sh");
    let local = [
        f.root.display().to_string(),
        real_javac().display().to_string(),
        "/usr/".into(),
        "/home/".into(),
        "/root/".into(),
    ];
    for path in &local {
        assert!(
            !script.contains(path.as_str()),
            "repro.sh names {path}:\n{script}"
        );
    }
    // without thalia, another command runs the compiler: the crashing one reproduces, the
    // real javac does not
    let report = std::fs::read_to_string(bug.join("report.md")).expect("report.md");
    assert!(report.contains("COMPILER=javac sh repro.sh"), "{report}");
    let fake = f.toolchains.join("javac/crash/fake-javac.sh");
    for (compiler, code, said) in [
        (fake, 0, "REPRODUCED: crash"),
        (real_javac(), 1, "NOT REPRODUCED: crash"),
    ] {
        let o = std::process::Command::new("sh")
            .arg(bug.join("repro.sh"))
            .env("THALIA", "/nonexistent/thalia")
            .env("COMPILER", &compiler)
            .output()
            .expect("repro.sh runs");
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(code), "{}: {out}", compiler.display());
        assert!(out.contains(said), "{}: {out}", compiler.display());
    }
    let report = thalia(&f.toolchains)
        .args(["report", "--json"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let report: Value = serde_json::from_slice(&report.stdout).expect("report JSON");
    assert_eq!(report["programs"], PROGRAMS);
    let crash = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|k| k["kind"] == "crash")
        .expect("crash counts")
        .clone();
    assert_eq!(crash["occurrences"], 2);
    assert_eq!(crash["distinct"], 1);
}

#[test]
fn a_hang_is_timed_out_alone_and_its_process_group_killed() {
    let f = fixture();
    let out = f.root.join("hang-store");
    let start = Instant::now();
    let stdout = check(
        "javac@hang",
        &out,
        &["--batch-size", "4", "--timeout", "12", "--budget", "8"],
    );
    let got = results(&out);
    assert_eq!(got.len(), 8, "a verdict was lost:\n{stdout}");
    for (key, (verdict, finding)) in &got {
        if key == "p000004" {
            assert_eq!(verdict, "timeout");
            assert!(
                finding
                    .as_deref()
                    .is_some_and(|s| s.starts_with("performance-javac-")),
                "{finding:?}"
            );
        } else {
            assert_eq!(verdict, &baseline()[key].0, "{key}");
        }
    }
    // the compiler's own child (the `sleep`) was killed with it
    let pid = std::fs::read_to_string(f.root.join("hang.pid")).expect("the hang started");
    let pid = pid.trim();
    let alive = Path::new("/proc").join(pid).exists()
        && !std::fs::read_to_string(Path::new("/proc").join(pid).join("stat"))
            .unwrap_or_default()
            .contains(") Z ");
    assert!(!alive, "the hung compiler's child {pid} survived");
    let bugs = bug_dirs(&out);
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    let (code, output) = repro(&bugs[0]);
    assert_eq!(code, 0, "repro.sh did not reproduce:\n{output}");
    assert!(output.contains("REPRODUCED: performance"), "{output}");
    eprintln!("hang handled in {:.1}s", start.elapsed().as_secs_f64());
}

#[test]
fn garbage_output_loses_no_verdict() {
    let f = fixture();
    let out = f.root.join("garbage-store");
    let stdout = check("javac@garbage", &out, &["--batch-size", "12"]);
    let got = results(&out);
    assert_eq!(got.len(), PROGRAMS, "a verdict was lost:\n{stdout}");
    for (key, (verdict, finding)) in &got {
        if key == "p000005" {
            assert_eq!(verdict, "rejected");
            assert!(
                finding
                    .as_deref()
                    .is_some_and(|s| s.starts_with("unexpected-rejection-javac-")),
                "{finding:?}"
            );
        } else {
            assert_eq!(verdict, &baseline()[key].0, "{key}");
        }
    }
    let bugs = bug_dirs(&out);
    assert_eq!(bugs.len(), 1, "{bugs:?}");
    let output = std::fs::read_to_string(bugs[0].join("compiler-output.txt")).expect("output");
    assert!(output.contains("garbage"), "{output}");
    let (code, text) = repro(&bugs[0]);
    assert_eq!(code, 0, "{text}");
}

/// `thalia run` arguments shared by the interrupted and the uninterrupted run.
fn run_args(out: &Path) -> Vec<String> {
    run_args_with(out, "80", "11")
}

fn run_args_with(out: &Path, budget: &str, seed: &str) -> Vec<String> {
    let mut v: Vec<String> = [
        "run",
        "--lang",
        "java",
        "--compiler",
        "javac@crash",
        "--budget",
        budget,
        "--batch-size",
        "4",
        "--jobs",
        "1",
        "--seed",
        seed,
        "--no-reduce",
        // the resumption is the store's; the feedback's draws after a kill can differ
        "--no-feedback",
        "--api",
    ]
    .map(String::from)
    .to_vec();
    v.push(sample_api().display().to_string());
    v.push("--out".into());
    v.push(out.display().to_string());
    v
}

/// The results of the uninterrupted run of [`run_args`] (80 programs, with findings).
fn whole_run() -> &'static BTreeMap<String, (String, Option<String>)> {
    static W: OnceLock<BTreeMap<String, (String, Option<String>)>> = OnceLock::new();
    W.get_or_init(|| {
        let f = fixture();
        let whole = f.root.join("run-whole");
        thalia(&f.toolchains)
            .args(run_args(&whole))
            .assert()
            .success();
        let expected = results(&whole);
        assert_eq!(expected.len(), 80);
        assert!(
            expected.values().any(|(_, s)| s.is_some()),
            "the run has findings to keep"
        );
        expected
    })
}

/// Lines of a store's `results.jsonl` so far.
fn lines(store: &Path) -> usize {
    std::fs::read_to_string(store.join("results.jsonl"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Starts `thalia run_args(out)` and waits until it has recorded `n` programs.
fn start_run_until(out: &Path, n: usize, stderr: Stdio) -> std::process::Child {
    let f = fixture();
    let bin = assert_cmd::cargo::cargo_bin("thalia");
    let mut child = std::process::Command::new(&bin)
        .env("THALIA_TOOLCHAINS", &f.toolchains)
        .args(run_args(out))
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("thalia starts");
    let deadline = Instant::now() + Duration::from_secs(600);
    while lines(out) < n {
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the run ended before it could be stopped"
        );
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_uninterrupted_results() {
    let f = fixture();
    let expected = whole_run();
    let cut = f.root.join("run-cut");
    let mut child = start_run_until(&cut, 10, Stdio::null());
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let at_kill = lines(&cut);
    assert!(at_kill < 80, "killed after the end ({at_kill} lines)");
    // as if the kill had come in the middle of writing a line
    use std::io::Write;
    let mut f_results = std::fs::OpenOptions::new()
        .append(true)
        .open(cut.join("results.jsonl"))
        .expect("open");
    f_results
        .write_all(b"{\"key\":\"well-typed/r0/p0")
        .expect("write");
    drop(f_results);

    thalia(&f.toolchains)
        .args(run_args(&cut))
        .assert()
        .success();
    let resumed = results(&cut);
    assert_eq!(&resumed, expected, "killed at {at_kill} lines");
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(cut.join("manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    assert_eq!(manifest["sessions"].as_array().map(Vec::len), Some(2));
    assert_eq!(manifest["identity"]["seed"], 11);
    // the same bug directories
    let names = |d: &Path| {
        bug_dirs(d)
            .iter()
            .map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&cut), names(&f.root.join("run-whole")));
}

#[test]
fn ctrl_c_stops_a_run_with_a_hint_and_the_same_command_resumes_it() {
    let f = fixture();
    let expected = whole_run();
    let cut = f.root.join("run-sigint");
    let child = start_run_until(&cut, 10, Stdio::piped());
    let pid = i32::try_from(child.id()).expect("a pid");
    // SAFETY: kill(2) on the child's pid; no memory is touched
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let waited = Instant::now();
    let out = child.wait_with_output().expect("reaped");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        waited.elapsed() < Duration::from_secs(30),
        "it took {:?} to stop",
        waited.elapsed()
    );
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let at_stop = lines(&cut);
    assert!((10..80).contains(&at_stop), "stopped at {at_stop} lines");
    let hint = format!(
        "interrupted after {} programs; run the same command to resume",
        at_stop
    );
    assert!(stderr.contains(&hint), "{stderr}");
    // what was recorded is whole: every line reads, and the manifest has the session
    assert_eq!(results(&cut).len(), at_stop);
    assert!(std::fs::read_to_string(cut.join("results.jsonl"))
        .expect("results")
        .ends_with('\n'));
    let o = thalia(&f.toolchains)
        .args(run_args(&cut))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("resuming after {at_stop} judged programs")),
        "{stderr}"
    );
    assert_eq!(&results(&cut), expected, "stopped at {at_stop} lines");
    // the end of a run shows the rates and findings; the census of forms is in `thalia report`
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("findings"), "{stdout}");
    assert!(!stdout.contains("forms used"), "{stdout}");
    thalia(&f.toolchains)
        .arg("report")
        .arg(&cut)
        .assert()
        .success()
        .stdout(predicates::str::contains("forms used"));
}

#[test]
fn a_time_budget_is_a_deadline_for_a_batch_under_way() {
    let f = fixture();
    // a compiler that hangs on every batch
    install_script(
        &f.toolchains,
        "javac",
        "sleepy",
        "com.sun.tools.javac.Main",
        "#!/bin/sh\nsleep 60\nexit 0\n",
    );
    let out = f.root.join("deadline");
    let started = Instant::now();
    let o = thalia(&f.toolchains)
        .arg("check")
        .arg(&f.programs)
        .args([
            "--compiler",
            "javac@sleepy",
            "--jobs",
            "1",
            "--batch-size",
            "4",
        ])
        .args(["--budget", "2s", "--timeout", "3", "--out"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    // the deadline (2 s) plus one timeout (3 s) for the batch under way, and start-up
    assert!(
        took < Duration::from_secs(12),
        "the run took {took:?}\n{stderr}"
    );
    assert!(
        took >= Duration::from_secs(2),
        "the run took {took:?}\n{stderr}"
    );
    // the batch given up is not judged: no verdict, no performance finding
    assert_eq!(lines(&out), 0, "{stderr}");
    assert!(bug_dirs(&out).is_empty());
    assert!(stderr.contains("judged 0 programs"), "{stderr}");
}

#[test]
fn a_different_run_in_the_same_directory_is_refused() {
    let f = fixture();
    let out = f.root.join("refuse");
    thalia(&f.toolchains)
        .args(run_args_with(&out, "4", "11"))
        .assert()
        .success();
    let o = thalia(&f.toolchains)
        .args(run_args_with(&out, "4", "12"))
        .output()
        .expect("runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds a different run") && err.contains("seed"),
        "{err}"
    );
}

/// A program on which the real javac 17 crashes (`AssertionError` in `DeferredAttr`'s
/// structural stuck check for a conditional of an explicitly typed lambda and a cast method
/// reference, a candidate javac bug found by a campaign), as `Test_p000001`.
const JAVAC_CRASH: &str = "package thalia.p000001;\n\n\
public final class Test_p000001 {\n\
    static <O> O id(O o) { return o; }\n\
    public static void test(boolean b, java.util.Map<String, String> m) {\n\
        java.net.FileNameMap a = id(b ? (String s) -> s : (java.net.FileNameMap) m::remove);\n\
    }\n\
}\n";

/// javac writes its arguments to `javac.<date>.args` in the current directory when it
/// crashes; a campaign keeps the crash (its verdict and output) and leaves no such file in
/// the directory it was started in, with a warm server and per process alike.
#[test]
fn a_real_javac_crash_is_judged_and_leaves_no_arguments_file() {
    let f = fixture();
    let tmp = tempfile::tempdir().expect("tempdir");
    let programs = tmp.path().join("programs");
    std::fs::create_dir_all(&programs).expect("programs dir");
    for e in std::fs::read_dir(&f.programs).expect("the fixture's programs") {
        let p = e.expect("an entry").path();
        if p.is_file() {
            std::fs::copy(&p, programs.join(p.file_name().expect("a name"))).expect("copy");
        }
    }
    std::fs::write(programs.join("Test_p000001.java"), JAVAC_CRASH).expect("write");
    for server in [false, true] {
        let cwd = tmp.path().join(format!("cwd-{server}"));
        std::fs::create_dir_all(&cwd).expect("cwd");
        let out = tmp.path().join(format!("out-{server}"));
        let mut cmd = thalia(&f.toolchains);
        cmd.current_dir(&cwd)
            .arg("check")
            .arg(&programs)
            .args(["--compiler", "javac", "--jobs", "1", "--no-twin", "--out"])
            .arg(&out);
        if server {
            cmd.arg("--server");
        }
        let o = cmd.output().expect("thalia runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let r = results(&out);
        let (verdict, _) = r.get("p000001").expect("the crash's result");
        assert_eq!(verdict, "crash", "server {server}");
        let left: Vec<String> = std::fs::read_dir(&cwd)
            .expect("cwd")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("javac.") && n.ends_with(".args"))
            .collect();
        assert!(
            left.is_empty(),
            "server {server}: {left:?} left in the directory"
        );
    }
}
