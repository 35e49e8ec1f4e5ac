//! Hostile run, bug and shard directories (issue 34): names read from their files that are
//! paths, symbolic links where thalia writes, FIFOs and devices where it reads, two writers on
//! one directory, a huge program to reduce, and a reader that closes its pipe. Each input is
//! built here; every CLI call has a timeout, so a hang fails the test.

use crate::support::fake;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use fake::install_script;
use serde_json::{json, Value};
use thalia::campaign::setup::{CheckIdentity, RunIdentity, SessionOptions};
use thalia::campaign::shard::Shard;
use thalia::campaign::store::{
    CompilerInfo, FindingCompiler, FindingFile, FindingProgram, FindingRef, Manifest, ResultLine,
    Session, Store,
};
use thalia::campaign::{Expected, FindingKind, TwinStatus};
use thalia::compile::Verdict;
use thalia::rundir::{RunLock, LOCK_FILE};
use thalia::toolchain::Tool;
use thalia_translators::ir::{Expr, Lit, Program, Receiver, Stmt, Ty};
use thalia_translators::{JavaTranslator, Translator};

/// Wall-clock limit of one CLI invocation (a debug build on a shared machine).
const CLI_TIMEOUT: Duration = Duration::from_secs(120);

/// The marker the fake javac rejects: the call under test of every program here.
const MARKER: &str = "requireNonNull";

/// The fake javac's one diagnostic (after the file and line).
const INJECTED: &str = "error: injected rejection of the marker call";

/// `thalia` with its toolchains in `toolchains`, a timeout, and no Maven repository.
fn thalia(toolchains: &Path) -> assert_cmd::Command {
    let mut c = fake::thalia(toolchains);
    c.timeout(CLI_TIMEOUT)
        .env("THALIA_MAVEN_SETTINGS", toolchains.join("no-settings.xml"))
        .env("THALIA_MAVEN_CACHE", toolchains.join("no-cache"))
        .env_remove("THALIA_MAVEN_REPOS");
    c
}

/// Runs `cmd`, expecting exit code 2; returns its stderr.
fn fails(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Installs `javac@marker`: rejects a `.java` file that calls [`MARKER`] at the call's line,
/// accepts anything else (no JVM runs).
fn marker_javac(toolchains: &Path) {
    install_script(
        toolchains,
        "javac",
        "marker",
        "com.sun.tools.javac.Main",
        &format!(
            "#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.java)\n      l=$(grep -n -F -- '{MARKER}' \"$a\" | head -1 | cut -d: -f1)\n      if [ -n \"$l\" ]; then\n        echo \"$a:$l: {INJECTED}\"\n        rc=1\n      fi\n      ;;\n  esac\ndone\nexit $rc\n"
        ),
    );
}

fn compiler(tool: Tool, version: &str) -> CompilerInfo {
    CompilerInfo {
        tool,
        version: version.into(),
        coordinate: None,
        mode: "process".into(),
        command: vec!["javac".into(), "@FILE@".into()],
        classpath: None,
        timeout_seconds: 30.0,
        variant: None,
    }
}

/// A check's manifest for `tool@version`, of shard `shard` when given.
fn manifest(tool: Tool, version: &str, shard: Option<Shard>) -> Manifest {
    Manifest {
        tool: "thalia".into(),
        version: "test".into(),
        kind: "check".into(),
        identity: RunIdentity::Check(CheckIdentity {
            programs: "/programs".into(),
            programs_jsonl_bytes: 0,
            programs_jsonl_hash: "0".into(),
            language: thalia_translators::Language::Java,
            compiler: format!("{}@{version}", tool.name()),
            against: Vec::new(),
            run: false,
            shard,
        }),
        compiler: compiler(tool, version),
        against: Vec::new(),
        merged: Vec::new(),
        sessions: vec![Session {
            started: 0.0,
            seconds: 1.0,
            programs: 1,
            options: SessionOptions {
                batch_size: 1,
                jobs: 1,
                budget: "round".into(),
                timeout_seconds: 30.0,
                server: false,
                command: Vec::new(),
            },
            untranslatable: Default::default(),
        }],
    }
}

/// A results line of program `key`, with a finding of signature `signature` when given.
fn result_line(key: &str, signature: Option<&str>) -> String {
    let finding = signature.map(|s| FindingRef {
        kind: FindingKind::UnexpectedRejection,
        signature: s.into(),
        first: true,
        twin: TwinStatus::NoTwin,
        known: None,
        intended: None,
        twin_reason: None,
    });
    let r = ResultLine {
        key: key.into(),
        id: key.into(),
        mode: "well-typed".into(),
        round: 0,
        member: "java.util.Objects.requireNonNull(T)".into(),
        file: format!("Test_{key}.java"),
        expected: Expected::Accept,
        verdict: if finding.is_some() {
            "rejected"
        } else {
            "accepted"
        }
        .into(),
        diagnostics: Vec::new(),
        matches: finding.is_none(),
        finding,
        differential: Vec::new(),
        twin_verdict: None,
        run: None,
        flags: Vec::new(),
        seconds: 0.5,
        at: 1.0,
    };
    serde_json::to_string(&r).expect("serializes") + "\n"
}

/// Writes a run directory: its manifest and `results.jsonl` made of `lines`.
fn write_run(dir: &Path, m: &Manifest, lines: &[String]) {
    std::fs::create_dir_all(dir.join("bugs")).expect("mkdir");
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(m).expect("JSON"),
    )
    .expect("write manifest");
    std::fs::write(dir.join("results.jsonl"), lines.concat()).expect("write results");
}

/// The program record of program `p1`.
fn record() -> thalia::synth::ProgramRecord {
    serde_json::from_value(json!({
        "id": "p1", "file": "Test_p1.java", "member": "java.util.Objects.requireNonNull(T)",
        "class": "java.util.Objects", "kind": "method",
        "typing_sequence": {"receiver": null, "args": ["java.lang.String"], "result": null},
        "substitution": {}, "mode": "well-typed", "expected": "accept", "broken": null,
        "erased": false,
    }))
    .expect("a program record")
}

/// A program `p1` of `locals` unused `String` locals before the call under test,
/// `java.util.Objects.requireNonNull(a0)` (`a0` is the first local).
fn program(locals: usize) -> Program {
    let string = Ty::class("java.lang.String", Vec::new());
    let mut stmts: Vec<Stmt> = (0..locals.max(1))
        .map(|i| Stmt::local(format!("a{i}"), string.clone(), Expr::Lit(Lit::Null)))
        .collect();
    stmts.push(Stmt::expr(Expr::Call {
        receiver: Receiver::class("java.util.Objects"),
        name: MARKER.into(),
        type_args: Vec::new(),
        args: vec![Expr::local("a0")],
        declared_in: Vec::new(),
        form: Default::default(),
        lists: None,
    }));
    Program::new("p1", stmts)
}

/// The signature directory the fake javac's rejection gets.
fn marker_signature() -> String {
    let verdict = Verdict::Rejected {
        diagnostics: vec![format!("/w/Test_p1.java:3: {INJECTED}")],
    };
    thalia::campaign::signature::signature(
        Tool::Javac,
        FindingKind::UnexpectedRejection,
        &verdict,
        &record(),
    )
    .dir
}

/// A finding of `tool@version` in `run/bugs/<signature>/` whose program has `locals` locals
/// (its source, IR, `finding.json` and `report.md`); returns its directory.
fn write_finding(run: &Path, tool: Tool, version: &str, locals: usize) -> PathBuf {
    write_run(
        run,
        &manifest(tool, version, None),
        &[result_line("p1", Some(&marker_signature()))],
    );
    let sig = marker_signature();
    let bug = run.join("bugs").join(&sig);
    std::fs::create_dir_all(&bug).expect("mkdir");
    let p = program(locals);
    let source = JavaTranslator.translate(&p).expect("translates");
    assert!(source.contains(MARKER), "{source}");
    std::fs::write(bug.join("Test_p1.java"), &source).expect("write source");
    std::fs::write(
        bug.join("program.ir.json"),
        serde_json::to_string(&p).expect("IR"),
    )
    .expect("write IR");
    let finding = FindingFile {
        signature: sig.clone(),
        signature_text: "javac unexpected-rejection: injected rejection".into(),
        kind: FindingKind::UnexpectedRejection,
        compiler: FindingCompiler {
            tool,
            version: version.into(),
            mode: "process".into(),
        },
        program: FindingProgram {
            key: "p1".into(),
            id: "p1".into(),
            mode: "well-typed".into(),
            round: 0,
            file: "Test_p1.java".into(),
            regenerate: None,
            record: record(),
        },
        expected: Expected::Accept,
        actual: "rejected".into(),
        exit: None,
        twin: None,
        known: None,
        intended: None,
        cluster: None,
        status: None,
        known_disproved: None,
        run: None,
    };
    write_finding_json(&bug, &finding);
    std::fs::write(bug.join("report.md"), "# finding\n").expect("write report");
    bug
}

fn write_finding_json(bug: &Path, f: &FindingFile) {
    std::fs::write(
        bug.join("finding.json"),
        serde_json::to_string_pretty(f).expect("JSON"),
    )
    .expect("write finding.json");
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let ok = Process::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success());
}

/// Every file under `dir` with its content.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        let bytes = std::fs::read(&e).expect("readable");
        out.push((e, bytes));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("a directory").flatten() {
        let p = e.path();
        if e.file_type().expect("type").is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

// ---- item 1: names read from files are data ----

#[test]
fn merge_keeps_a_traversal_signature_inside_the_run_directories() {
    let root = tempfile::tempdir().expect("tempdir");
    let victim = root.path().join("victim");
    std::fs::create_dir_all(&victim).expect("mkdir");
    std::fs::write(victim.join("canary.txt"), "the canary must survive").expect("write");
    std::fs::write(victim.join("finding.json"), "{\"not\": \"a finding\"}").expect("write");
    let secret = root.path().join("secret");
    std::fs::create_dir_all(&secret).expect("mkdir");
    std::fs::write(secret.join("secret.txt"), "not to be copied").expect("write");
    let before = [snapshot(&victim), snapshot(&secret)];

    let shards = root.path().join("shards");
    let (a, b) = (shards.join("a"), shards.join("b"));
    let shard = |index| Some(Shard { index, count: 2 });
    // shard a: a finding whose signature climbs out of `a/bugs/` to the victim folder
    write_run(
        &a,
        &manifest(Tool::Javac, "17", shard(0)),
        &[
            result_line("p1", Some("../../../victim")),
            result_line("p3", None),
        ],
    );
    // shard b: a finding whose directory is a link to a folder outside
    write_run(
        &b,
        &manifest(Tool::Javac, "17", shard(1)),
        &[result_line("p2", Some("linked"))],
    );
    std::os::unix::fs::symlink(&secret, b.join("bugs/linked")).expect("symlink");

    let tc = root.path().join("tc");
    // the output beside the parts (the source would be copied onto itself) and one level
    // deeper (the folder would be copied outside the output)
    for out in [shards.join("merged"), shards.join("deeper/merged")] {
        let assert = thalia(&tc)
            .arg("merge")
            .arg(&a)
            .arg(&b)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert!(
            err.contains("results.jsonl:1:")
                && err.contains("`finding.signature`")
                && err.contains("not a plain file name"),
            "{err}"
        );
        assert_eq!([snapshot(&victim), snapshot(&secret)], before);
        assert!(!shards.join("victim").exists(), "copied outside --out");
        assert!(!root.path().join("deeper").exists());
        // the link is not followed: no copy of the secret folder
        assert!(!out.join("bugs/linked").exists());
        let merged = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
        let keys: Vec<String> = merged
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("JSON")["key"].to_string())
            .collect();
        assert_eq!(keys, ["\"p2\"", "\"p3\""], "the traversal line is left out");
    }
    // the report of a part skips the line too, and reads nothing outside
    let out = thalia(&tc).arg("report").arg(&a).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("`finding.signature`"), "{text}");
    assert!(!text.contains("../../../victim  "), "{text}");
}

#[test]
fn bisect_refuses_a_program_file_outside_the_finding() {
    let root = tempfile::tempdir().expect("tempdir");
    let canary = root.path().join("Canary.groovy");
    std::fs::write(&canary, "the canary must survive\n").expect("write");
    let modified = std::fs::metadata(&canary)
        .expect("meta")
        .modified()
        .expect("mtime");
    let run = root.path().join("run");
    let bug = write_finding(&run, Tool::Groovy, "4.0.0", 1);
    let mut f = FindingFile::read(&bug).expect("finding");
    for file in [
        canary.display().to_string(),
        "../../../Canary.groovy".to_string(),
        String::new(),
    ] {
        f.program.file = file.clone();
        write_finding_json(&bug, &f);
        let err = fails(thalia(&root.path().join("tc")).arg("bisect").arg(&bug));
        assert!(
            err.contains("finding.json")
                && err.contains("`program.file`")
                && err.contains("not a plain file name"),
            "{file}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(&canary).expect("read"),
            "the canary must survive\n"
        );
        assert_eq!(
            std::fs::metadata(&canary)
                .expect("meta")
                .modified()
                .expect("mtime"),
            modified
        );
    }
}

#[test]
fn reduce_goes_on_past_a_finding_it_cannot_reduce() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    marker_javac(&tc);
    // a directory that is no finding, then a finding
    let broken = root.path().join("run0").join("bugs").join("not-a-finding");
    std::fs::create_dir_all(&broken).expect("mkdir");
    let good = write_finding(&root.path().join("run1"), Tool::Javac, "marker", 3);
    let err = fails(thalia(&tc).arg("reduce").arg(&broken).arg(&good));
    assert!(
        err.contains("cannot reduce") && err.contains("not-a-finding"),
        "{err}"
    );
    assert!(
        err.contains("1 of 2 findings could not be reduced"),
        "{err}"
    );
    // the finding after it was reduced all the same
    assert!(
        good.join("reduced").join("reduction.json").is_file(),
        "{err}"
    );
}

#[test]
fn another_release_that_judges_the_program_rightly_checks_the_reduction() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    marker_javac(&tc);
    // a release with the same rejection, and one that accepts the program (a fix)
    let marker = std::fs::read_to_string(tc.join("javac").join("marker").join("fake-javac.sh"))
        .expect("script");
    install_script(&tc, "javac", "also", "com.sun.tools.javac.Main", &marker);
    install_script(
        &tc,
        "javac",
        "fixed",
        "com.sun.tools.javac.Main",
        "#!/bin/sh\nexit 0\n",
    );
    let bug = write_finding(&root.path().join("run"), Tool::Javac, "marker", 3);
    thalia(&tc).arg("reduce").arg(&bug).assert().success();
    let reduction: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(bug.join("reduced").join("reduction.json")).expect("read"),
    )
    .expect("json");
    // the program has no Java twin (it is Java) and the run no other compiler: the fixed
    // release is its differential oracle, the one with the same rejection is not
    assert_eq!(
        reduction["oracles"],
        serde_json::json!(["javac@fixed"]),
        "{reduction}"
    );
}

// ---- item 2: no writes through links, regular files only, with size limits ----

#[test]
fn reduce_writes_nothing_through_a_link() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    marker_javac(&tc);
    // the fixture reduces when nothing is linked
    let clean = write_finding(&root.path().join("clean"), Tool::Javac, "marker", 3);
    thalia(&tc).arg("reduce").arg(&clean).assert().success();
    let programs = std::fs::read_dir(clean.join("reduced"))
        .expect("reduced/")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "java"))
        .count();
    assert_eq!(programs, 1, "the reduced program");

    let outside = root.path().join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    let outside_report = root.path().join("outside-report.md");
    std::fs::write(&outside_report, "keep\n").expect("write");
    // a linked `reduced/`
    let bug = write_finding(&root.path().join("run1"), Tool::Javac, "marker", 3);
    std::os::unix::fs::symlink(&outside, bug.join("reduced")).expect("symlink");
    let err = fails(thalia(&tc).arg("reduce").arg(&bug));
    assert!(
        err.contains("reduced") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&outside).expect("list").count(), 0);
    // a linked `report.md`
    let bug = write_finding(&root.path().join("run2"), Tool::Javac, "marker", 3);
    std::fs::remove_file(bug.join("report.md")).expect("rm");
    std::os::unix::fs::symlink(&outside_report, bug.join("report.md")).expect("symlink");
    let err = fails(thalia(&tc).arg("reduce").arg(&bug));
    assert!(
        err.contains("report.md") && err.contains("symbolic link"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&outside_report).expect("read"),
        "keep\n"
    );
    assert_eq!(std::fs::read_dir(&outside).expect("list").count(), 0);
}

#[test]
fn a_resumed_run_writes_nothing_through_a_link() {
    let root = tempfile::tempdir().expect("tempdir");
    let outside = root.path().join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("victim.txt"), "keep").expect("write");
    let before = snapshot(&outside);
    let m = || manifest(Tool::Javac, "17", None);
    // another compiler's findings folder, a finding's variants, the lock file: links
    let cases: [(&str, PathBuf); 3] = [
        ("bugs/javac@11", outside.clone()),
        ("bugs/sig/variants", outside.clone()),
        (LOCK_FILE, outside.join("victim.txt")),
    ];
    for (i, (at, target)) in cases.iter().enumerate() {
        let run = root.path().join(format!("run{i}"));
        write_run(&run, &m(), &[result_line("p1", None)]);
        let link = run.join(at);
        std::fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
        std::os::unix::fs::symlink(target, &link).expect("symlink");
        let err = Store::open(&run, m()).expect_err("refused").to_string();
        assert!(
            err.contains(at) && err.contains("symbolic link"),
            "{at}: {err}"
        );
        assert_eq!(snapshot(&outside), before, "{at}");
    }
    // the manifest's temporary file is a fresh one, not a link someone left
    let run = root.path().join("run-tmp");
    write_run(&run, &m(), &[result_line("p1", None)]);
    std::os::unix::fs::symlink(outside.join("victim.txt"), run.join(".manifest.json.tmp"))
        .expect("symlink");
    drop(Store::open(&run, m()).expect("opens"));
    assert_eq!(snapshot(&outside), before);
}

#[test]
fn fifos_and_devices_in_a_run_directory_are_refused_without_blocking() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    marker_javac(&tc);

    // a FIFO `finding.json`: the report goes on without it, reduce and bisect refuse it
    let run = root.path().join("fifo-finding");
    let bug = write_finding(&run, Tool::Javac, "marker", 1);
    std::fs::remove_file(bug.join("finding.json")).expect("rm");
    mkfifo(&bug.join("finding.json"));
    thalia(&tc).arg("report").arg(&run).assert().success();
    for cmd in ["reduce", "bisect"] {
        let err = fails(thalia(&tc).arg(cmd).arg(&bug));
        assert!(
            err.contains("finding.json") && err.contains("FIFO"),
            "{cmd}: {err}"
        );
    }

    // `/dev/zero` as the program's IR
    let run = root.path().join("zero-ir");
    let bug = write_finding(&run, Tool::Javac, "marker", 1);
    std::fs::remove_file(bug.join("program.ir.json")).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", bug.join("program.ir.json")).expect("symlink");
    let err = fails(thalia(&tc).arg("reduce").arg(&bug));
    assert!(
        err.contains("program.ir.json") && err.contains("character device"),
        "{err}"
    );

    // a FIFO manifest, `/dev/zero` results: report and merge refuse them
    let run = root.path().join("fifo-manifest");
    write_run(&run, &manifest(Tool::Javac, "17", None), &[]);
    std::fs::remove_file(run.join("manifest.json")).expect("rm");
    mkfifo(&run.join("manifest.json"));
    let err = fails(thalia(&tc).arg("report").arg(&run));
    assert!(
        err.contains("manifest.json") && err.contains("FIFO"),
        "{err}"
    );
    let run = root.path().join("zero-results");
    write_run(&run, &manifest(Tool::Javac, "17", None), &[]);
    std::fs::remove_file(run.join("results.jsonl")).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", run.join("results.jsonl")).expect("symlink");
    for args in [vec!["report"], vec!["merge", "--out"]] {
        let mut cmd = thalia(&tc);
        cmd.args(&args);
        if args.len() > 1 {
            cmd.arg(root.path().join("merged"));
        }
        let err = fails(cmd.arg(&run));
        assert!(
            err.contains("results.jsonl") && err.contains("character device"),
            "{args:?}: {err}"
        );
    }
    // resuming it (`thalia run`/`check` open the store) refuses it too
    let (tx, rx) = std::sync::mpsc::channel();
    let dir = run.clone();
    std::thread::spawn(move || {
        let r = Store::open(&dir, manifest(Tool::Javac, "17", None)).map(|_| ());
        let _ = tx.send(r.map_err(|e| e.to_string()));
    });
    let r = rx.recv_timeout(CLI_TIMEOUT).expect("Store::open returns");
    let err = r.expect_err("refused");
    assert!(err.contains("character device"), "{err}");

    // `thalia batch --libs` a device or a FIFO
    let fifo = root.path().join("libs.fifo");
    mkfifo(&fifo);
    for libs in [PathBuf::from("/dev/zero"), fifo] {
        let err = fails(
            thalia(&tc)
                .arg("batch")
                .arg("--libs")
                .arg(&libs)
                .arg("--out")
                .arg(root.path().join("batch")),
        );
        assert!(
            err.contains("not a regular file"),
            "{}: {err}",
            libs.display()
        );
    }
}

#[test]
fn oversized_files_are_refused_by_their_size() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    let run = root.path().join("run");
    write_run(&run, &manifest(Tool::Javac, "17", None), &[]);
    // sparse: nothing is written, the size alone must refuse it
    let f = std::fs::File::options()
        .write(true)
        .open(run.join("manifest.json"))
        .expect("open");
    f.set_len(thalia::rundir::MAX_JSON_BYTES + 1).expect("grow");
    let err = fails(thalia(&tc).arg("report").arg(&run));
    assert!(
        err.contains("manifest.json") && err.contains("more than the 64 MiB"),
        "{err}"
    );
}

// ---- item 3: one writer per run directory ----

/// Environment variable that makes [`lock_holder`] hold a directory's lock.
const HOLD_ENV: &str = "THALIA_TEST_HOLD_LOCK";

/// What [`lock_holder`] prints once it holds the lock.
const LOCKED: &str = "lock-holder: locked";

/// Not a test of its own: run by [`a_locked_run_directory_is_refused_and_a_dead_holders_lock_taken_over`]
/// in a child process, it takes the lock of `$THALIA_TEST_HOLD_LOCK`, says so, and waits to
/// be killed.
#[test]
#[ignore = "a helper process of another test"]
fn lock_holder() {
    let Some(dir) = std::env::var_os(HOLD_ENV) else {
        return;
    };
    let _lock = RunLock::acquire(Path::new(&dir)).expect("the lock is free");
    println!("\n{LOCKED}");
    std::thread::sleep(Duration::from_secs(600));
}

/// This test binary, run as [`lock_holder`] on `dir`; returns once it holds the lock.
fn spawn_holder(dir: &Path) -> std::process::Child {
    let name = module_path!()
        .split_once("::")
        .map(|(_, m)| format!("{m}::lock_holder"))
        .unwrap_or_else(|| "lock_holder".into());
    let mut child = Process::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            &name,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(HOLD_ENV, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawns");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    loop {
        match lines.next() {
            Some(Ok(l)) if l.contains(LOCKED) => break,
            Some(Ok(_)) => continue,
            _ => panic!("the holder ended without taking the lock"),
        }
    }
    child
}

#[test]
fn a_locked_run_directory_is_refused_and_a_dead_holders_lock_taken_over() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    let part = root.path().join("part");
    write_run(
        &part,
        &manifest(Tool::Javac, "17", None),
        &[result_line("p1", None)],
    );
    let out = root.path().join("merged");
    std::fs::create_dir_all(&out).expect("mkdir");

    let mut holder = spawn_holder(&out);
    let pid = holder.id();
    // a merge into the locked directory
    let err = fails(thalia(&tc).arg("merge").arg(&part).arg("--out").arg(&out));
    assert!(err.contains(&format!("pid {pid}")), "{err}");
    assert!(!out.join("results.jsonl").exists());
    // a run or check (they open a store) on it
    let err = Store::open(&out, manifest(Tool::Javac, "17", None))
        .expect_err("locked")
        .to_string();
    assert!(err.contains(&format!("pid {pid}")), "{err}");
    assert!(!out.join("manifest.json").exists(), "nothing written");

    // a part that a run is still writing is not merged
    let mut part_holder = spawn_holder(&part);
    let err = fails(
        thalia(&tc)
            .arg("merge")
            .arg(&part)
            .arg("--out")
            .arg(root.path().join("other")),
    );
    assert!(err.contains(&format!("pid {}", part_holder.id())), "{err}");
    part_holder.kill().expect("kill");
    part_holder.wait().expect("wait");

    // the holder dies without releasing the lock (kill -9): the next writer takes it over
    holder.kill().expect("kill -9");
    holder.wait().expect("wait");
    let recorded = std::fs::read_to_string(out.join(LOCK_FILE)).expect("lock file");
    assert_eq!(
        recorded.trim(),
        pid.to_string(),
        "the dead holder's pid stays"
    );
    let lock = RunLock::acquire(&out).expect("a dead holder's lock is free");
    assert_eq!(lock.took_over(), Some(pid));
    drop(lock);
    thalia(&tc)
        .arg("merge")
        .arg(&part)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("results.jsonl").is_file());
}

#[test]
fn two_merges_into_one_directory_at_once_leave_one_complete_merge() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    let part = root.path().join("part");
    let lines: Vec<String> = (0..2000)
        .map(|i| result_line(&format!("p{i:05}"), None))
        .collect();
    write_run(&part, &manifest(Tool::Javac, "17", None), &lines);
    let out = root.path().join("merged");
    let spawn = || {
        Process::new(env!("CARGO_BIN_EXE_thalia"))
            .env("THALIA_TOOLCHAINS", &tc)
            .arg("merge")
            .arg(&part)
            .arg("--out")
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns")
    };
    let (a, b) = (spawn(), spawn());
    let outputs = [
        a.wait_with_output().expect("ends"),
        b.wait_with_output().expect("ends"),
    ];
    for o in &outputs {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() || (o.status.code() == Some(2) && err.contains("is in use by")),
            "{err}"
        );
    }
    let merged = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    assert_eq!(merged.lines().count(), 2000, "each program once");
}

// ---- item 4: reduce in bounded memory ----

/// Peak resident memory (bytes) of a process started by `cmd`, its exit status and stderr.
// waited for with `wait4`, which gives its resource usage, not `Child::wait`
#[allow(clippy::zombie_processes)]
fn peak_rss(mut cmd: Process) -> (u64, std::process::ExitStatus, String) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data the call fills in
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; the pointers are valid for the call
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(rc, pid, "wait4: {}", std::io::Error::last_os_error());
    let err = reader.join().expect("stderr");
    (
        usage.ru_maxrss as u64 * 1024,
        std::process::ExitStatus::from_raw(status),
        err,
    )
}

/// A reduction of a 4,000-statement program stays far below the memory the quadratic one
/// took (30 compiles, debug build: 0.76 GB at 1,000 statements, 3.0 GB at 2,000, aborted at
/// a 4 GB address-space limit at 4,000; linear: 16, 19 and 25 MB).
const REDUCE_RSS_BOUND: u64 = 200 << 20;

#[test]
fn a_program_of_4000_statements_reduces_in_bounded_memory() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    marker_javac(&tc);
    let bug = write_finding(&root.path().join("run"), Tool::Javac, "marker", 4000);
    let mut cmd = Process::new(env!("CARGO_BIN_EXE_thalia"));
    cmd.env("THALIA_TOOLCHAINS", &tc)
        .args(["reduce", "--max-compiles", "30"])
        .arg(&bug);
    let (rss, status, err) = peak_rss(cmd);
    eprintln!("reduce of 4,000 statements: peak RSS {} MiB", rss >> 20);
    assert!(status.success(), "{err}");
    assert!(rss < REDUCE_RSS_BOUND, "peak RSS {} MiB", rss >> 20);
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(bug.join("reduced/reduction.json")).expect("reduction.json"),
    )
    .expect("JSON");
    assert_eq!(summary["compiles"], 30, "{summary}");
    assert!(
        summary["lines_after"].as_u64() < summary["lines_before"].as_u64(),
        "{summary}"
    );
}

#[test]
fn a_program_too_large_to_reduce_is_a_clear_error() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    marker_javac(&tc);
    let n = thalia::campaign::reduce::MAX_REDUCE_NODES;
    let bug = write_finding(&root.path().join("run"), Tool::Javac, "marker", n);
    let err = fails(thalia(&tc).arg("reduce").arg(&bug));
    assert!(
        err.contains("program.ir.json") && err.contains(&format!("at most {n} IR nodes")),
        "{err}"
    );
    assert!(!bug.join("reduced").exists());
}

// ---- item 5: a reader that closes its pipe ----

/// Runs `cmd` with its stdout into a pipe that is closed after the first line; the command
/// must end quietly: exit 0 (or 1, a finding), or killed by `SIGPIPE` (141 in a shell), and
/// no panic.
fn closes_early(mut cmd: Process, what: &str) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a first line");
    assert!(!first.is_empty(), "{what}: no output");
    drop(stdout);
    let out = child.wait_with_output().expect("ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{what}: {err}"
    );
    let quiet = matches!(out.status.code(), Some(0) | Some(1))
        || out.status.signal() == Some(libc::SIGPIPE);
    assert!(quiet, "{what}: {:?}: {err}", out.status);
}

/// `thalia` as a plain process.
fn thalia_process(tc: &Path) -> Process {
    let mut c = Process::new(env!("CARGO_BIN_EXE_thalia"));
    c.env("THALIA_TOOLCHAINS", tc);
    c
}

#[test]
fn a_closed_pipe_ends_printing_commands_quietly() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("tc");
    // an API of 3,000 classes, each with a broken type: `api check` prints a line each and
    // `api diff` against an empty API a difference each (both well over 64 KiB)
    let api = root.path().join("api");
    std::fs::create_dir_all(&api).expect("mkdir");
    for i in 0..3000 {
        let doc = json!({
            "name": format!("hostile.pkg.LongClassName{i:05}"), "language": "java",
            "type_parameters": [], "inherits": [], "implements": [], "class_type": 0,
            "methods": [{
                "name": "m", "type_parameters": [], "parameters": ["java.util.List<<"],
                "return_type": "void", "is_static": true, "is_constructor": false,
                "access_mod": "public", "throws": [],
            }],
            "fields": [],
        });
        std::fs::write(api.join(format!("c{i:05}.json")), doc.to_string()).expect("write");
    }
    let empty = root.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let mut check = thalia_process(&tc);
    check.args(["api", "check"]).arg(&api);
    closes_early(check, "api check");
    let mut diff = thalia_process(&tc);
    diff.args(["api", "diff"]).arg(&api).arg(&empty);
    closes_early(diff, "api diff");
    // a run of 3,000 distinct findings: `report --json` lists them
    let run = root.path().join("run");
    let lines: Vec<String> = (0..3000)
        .map(|i| result_line(&format!("p{i:05}"), Some(&format!("sig-{i:05}"))))
        .collect();
    write_run(&run, &manifest(Tool::Javac, "17", None), &lines);
    let mut report = thalia_process(&tc);
    report.args(["report", "--json"]).arg(&run);
    closes_early(report, "report --json");
    let mut table = thalia_process(&tc);
    table.arg("report").arg(&run);
    closes_early(table, "report");
}
