//! The warm compile server against the real compilers: `thalia toolchain install` fetches
//! kotlinc, scalac 3 and groovyc from Maven Central through the user's Maven configuration
//! (these tests need that network access) into a temporary `THALIA_TOOLCHAINS`. For each
//! compiler, 30 ill-typed and 30 well-typed programs from `thalia synth` must get the same
//! per-file verdicts from server mode as from process mode; a killed server and a server
//! retired after every request must still answer correctly. Run with `--nocapture` (and
//! `--test-threads=1` for undisturbed timings) to see the process-vs-server benchmark.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use thalia::compile::{compile_batch, CompileOptions, Compiler, Mode, Verdict};
use thalia::server::{CompileServer, ServerOptions};
use thalia::toolchain::{Tool, Toolchain};

use crate::support::toolchains;
use toolchains::{thalia, Setup};

/// The compilers served (pinned like the other online tests).
const PINNED: [&str; 4] = ["kotlin@2.4.21", "scala3@3.9.0", "groovy@5.1.3", "javac"];
const PROGRAMS: usize = 20;
const BATCH: usize = 10;

/// Installs the toolchains once per test binary (the directory is left for the OS to clean).
fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let setup = Setup::new(&PINNED);
        // the library (the server's class cache) reads it too
        std::env::set_var("THALIA_TOOLCHAINS", &setup.toolchains);
        setup
    })
}

fn toolchain(tool: Tool) -> Toolchain {
    let dir = setup().toolchains.join(tool.name());
    let version = std::fs::read_dir(&dir)
        .expect("installed")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("toolchain.json").is_file())
        .expect("a toolchain.json");
    let text = std::fs::read_to_string(version.join("toolchain.json")).expect("read");
    serde_json::from_str(&text).expect("a toolchain")
}

/// 30 ill-typed then 30 well-typed programs for `lang`.
fn programs(lang: &str) -> Vec<PathBuf> {
    let s = setup();
    let mut files = Vec::new();
    for mode in ["ill-typed", "well-typed"] {
        let dir = s.root.join(format!("{lang}-{mode}"));
        let synth = thalia(&s.toolchains)
            .args(["synth", "--api", "@java.base", "--seed", "5"])
            .args(["-n", &PROGRAMS.to_string(), "--lang", lang, "--mode", mode])
            .arg("--out")
            .arg(&dir)
            .output()
            .expect("thalia runs");
        assert!(
            synth.status.success(),
            "synth {lang} {mode}:\n{}",
            String::from_utf8_lossy(&synth.stderr)
        );
        let manifest = std::fs::read_to_string(dir.join("programs.jsonl")).expect("manifest");
        for line in manifest.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json line");
            files.push(dir.join(v["file"].as_str().expect("file")));
        }
    }
    assert_eq!(files.len(), 2 * PROGRAMS);
    files
}

/// Verdicts keyed `mode-dir/file`, with the compile's wall-clock seconds.
fn compile_all(
    files: &[PathBuf],
    mut batch: impl FnMut(&[PathBuf], &Path) -> thalia::compile::BatchResult,
) -> (Vec<(String, Verdict)>, f64) {
    let classes = tempfile::tempdir().expect("tempdir");
    let t0 = Instant::now();
    let mut out = Vec::new();
    // 30 per mode, a multiple of the batch size, so no batch mixes the two directories (their file names are the same)
    for chunk in files.chunks(BATCH) {
        let dir = chunk[0]
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let r = batch(chunk, classes.path());
        out.extend(
            r.verdicts
                .into_iter()
                .map(|(f, v)| (format!("{dir}/{f}"), v)),
        );
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    (out, t0.elapsed().as_secs_f64())
}

fn kind(v: &Verdict) -> &'static str {
    match v {
        Verdict::Accepted => "accepted",
        Verdict::Rejected { .. } => "rejected",
        Verdict::Crash { .. } => "crash",
        Verdict::Timeout => "timeout",
    }
}

fn process_vs_server(tool: Tool, lang: &str) -> String {
    let tc = toolchain(tool);
    let files = programs(lang);
    let opts = CompileOptions {
        timeout: Duration::from_secs(300),
        ..CompileOptions::default()
    };
    let (by_process, t_process) = compile_all(&files, |chunk, out| {
        compile_batch(&tc, chunk, out, &opts).expect("process compile")
    });
    let mut compiler = Compiler::new(&tc, Mode::Server);
    let (by_server, t_server) = compile_all(&files, |chunk, out| {
        compiler
            .compile_batch(chunk, out, &opts)
            .expect("server compile")
    });
    // the same files again on the now warm server: the steady state of a long campaign
    let (again, t_warm) = compile_all(&files, |chunk, out| {
        compiler
            .compile_batch(chunk, out, &opts)
            .expect("server compile")
    });
    assert_eq!(
        again, by_server,
        "{tool:?}: the warm server agrees with itself"
    );
    assert_eq!(
        by_process.len(),
        files.len(),
        "{tool:?}: a verdict per file"
    );
    let differ: Vec<String> = by_process
        .iter()
        .zip(&by_server)
        .filter(|(p, s)| p != s)
        .map(|(p, s)| format!("{}: process {:?}\n  server {:?}", p.0, p.1, s.1))
        .collect();
    assert!(
        differ.is_empty(),
        "{tool:?}: {} verdicts differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    let rejected = by_process
        .iter()
        .filter(|(_, v)| kind(v) != "accepted")
        .count();
    let n = files.len() as f64;
    format!(
        "{:<7} {} files in batches of {BATCH} ({rejected} not accepted): process {t_process:6.1}s \
         ({:5.1} programs/s), server {t_server:6.1}s ({:5.1} programs/s), speed-up {:4.1}x; \
         warm server {t_warm:5.1}s ({:5.1} programs/s, {:4.1}x)",
        tool.name(),
        files.len(),
        n / t_process,
        n / t_server,
        t_process / t_server,
        n / t_warm,
        t_process / t_warm
    )
}

#[test]
fn online_server_verdicts_equal_process_verdicts() {
    let mut table = Vec::new();
    for (tool, lang) in [
        (Tool::Kotlin, "kotlin"),
        (Tool::Scala3, "scala"),
        (Tool::Groovy, "groovy"),
        (Tool::Javac, "java"),
    ] {
        let line = process_vs_server(tool, lang);
        println!("{line}");
        table.push(line);
    }
    println!("\n{}", table.join("\n"));
}

/// A type-correct and a type-incorrect Kotlin file.
fn kotlin_pair(dir: &Path) -> (Vec<String>, Vec<String>) {
    let good = dir.join("Good.kt");
    let bad = dir.join("Bad.kt");
    std::fs::write(
        &good,
        "fun main() { val xs: List<Int> = listOf(1); println(xs) }\n",
    )
    .expect("write");
    std::fs::write(&bad, "fun main() { val x: Int = \"no\" }\n").expect("write");
    let out = dir.join("classes").display().to_string();
    let args = |f: &Path| vec!["-d".to_string(), out.clone(), f.display().to_string()];
    (args(&good), args(&bad))
}

#[test]
fn online_server_survives_a_kill_and_restarts_after_max_batches() {
    let tc = toolchain(Tool::Kotlin);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (good, bad) = kotlin_pair(tmp.path());
    let t = Duration::from_secs(300);

    let mut server = CompileServer::start(&tc).expect("server starts");
    let r = server.compile(&good, t).expect("compiles");
    assert_eq!(r.exit, 0, "{}", r.output);
    assert!(tmp.path().join("classes/GoodKt.class").exists());
    // kill it between two requests: the next one goes to a fresh server
    let pid = server.pid().expect("running");
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill runs");
    std::thread::sleep(Duration::from_millis(200));
    let r = server.compile(&bad, t).expect("restarted");
    assert_eq!(r.exit, 1, "{}", r.output);
    assert!(
        r.output.contains("Bad.kt") && r.output.contains("error:"),
        "{}",
        r.output
    );
    assert_eq!(server.starts(), 2);
    assert_ne!(server.pid(), Some(pid));

    // retired after every request, and still right
    let mut server = CompileServer::start_with(
        &tc,
        ServerOptions {
            max_batches: 1,
            ..ServerOptions::default()
        },
    )
    .expect("server starts");
    let mut pids = Vec::new();
    for (args, exit) in [(&good, 0), (&bad, 1), (&good, 0)] {
        let r = server.compile(args, t).expect("compiles");
        assert_eq!(r.exit, exit, "{}", r.output);
        assert!(!r.timed_out);
        pids.push(server.pid().expect("running"));
    }
    assert_eq!(server.starts(), 3);
    pids.dedup();
    assert_eq!(pids.len(), 3, "a fresh server per request");
}

#[test]
fn online_server_times_out_and_recovers() {
    let tc = toolchain(Tool::Kotlin);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (good, _) = kotlin_pair(tmp.path());
    let mut server = CompileServer::start(&tc).expect("server starts");
    // far too short for a cold kotlinc
    let r = server
        .compile(&good, Duration::from_millis(1))
        .expect("answers");
    assert!(r.timed_out);
    let r = server
        .compile(&good, Duration::from_secs(300))
        .expect("compiles");
    assert!(!r.timed_out);
    assert_eq!(r.exit, 0, "{}", r.output);
    assert_eq!(server.starts(), 2);
}

#[test]
fn online_server_reports_javac_and_groovy_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("classes").display().to_string();
    let t = Duration::from_secs(300);
    let java = tmp.path().join("Bad.java");
    std::fs::write(&java, "class Bad { int x = \"no\"; }\n").expect("write");
    let mut javac = CompileServer::start(&toolchain(Tool::Javac)).expect("javac server");
    let r = javac
        .compile(
            &[
                "-J-Duser.language=en".into(),
                "-d".into(),
                out.clone(),
                java.display().to_string(),
            ],
            t,
        )
        .expect("answers");
    assert_eq!(r.exit, 1, "{}", r.output);
    assert!(r.output.contains("Bad.java:1: error:"), "{}", r.output);

    let groovy = tmp.path().join("Bad.groovy");
    std::fs::write(
        &groovy,
        "@groovy.transform.CompileStatic\nclass Bad { int x = \"no\" }\n",
    )
    .expect("write");
    let mut gc = CompileServer::start(&toolchain(Tool::Groovy)).expect("groovy server");
    let r = gc
        .compile(&[format!("-d={out}"), groovy.display().to_string()], t)
        .expect("answers");
    assert_eq!(r.exit, 1, "{}", r.output);
    assert!(r.output.contains("Bad.groovy"), "{}", r.output);
}

/// Groovy programs that groovyc rejects in four different phases, and two it accepts: by
/// name, the verdict and (for a rejection) a phrase of the diagnostic.
const GROOVY_PHASES: [(&str, &str, &str, &str); 6] = [
    // parsing
    ("P1", "class P1 { void f( }\n", "rejected", "Unexpected input"),
    // resolving
    (
        "P2",
        "@groovy.transform.CompileStatic\nclass P2 { static void test() { NoSuchType x = null } }\n",
        "rejected",
        "unable to resolve class NoSuchType",
    ),
    // static type checking
    (
        "P3",
        "@groovy.transform.CompileStatic\nclass P3 { static void test() { int x = \"text\" } }\n",
        "rejected",
        "[Static type checking]",
    ),
    // class generation (a method reference the type checker lets through)
    (
        "P4",
        "@groovy.transform.CompileStatic\nclass P4 { static void test() { java.util.function.Function<java.nio.channels.ClosedSelectorException, Object> f = java.nio.channels.ClosedSelectorException::duplicate } }\n",
        "rejected",
        "Failed to find class method 'duplicate",
    ),
    (
        "P5",
        "@groovy.transform.CompileStatic\nclass P5 { static void test() { int x = 1 + 2 } }\n",
        "accepted",
        "",
    ),
    (
        "P6",
        "@groovy.transform.CompileStatic\nclass P6 { static String test() { \"a\".toUpperCase() } }\n",
        "accepted",
        "",
    ),
];

/// The programs of [`GROOVY_PHASES`] written into `dir`, one file each.
fn groovy_phase_files(dir: &Path) -> Vec<PathBuf> {
    GROOVY_PHASES
        .iter()
        .map(|(name, source, _, _)| {
            let f = dir.join(format!("{name}.groovy"));
            std::fs::write(&f, source).expect("write");
            f
        })
        .collect()
}

#[test]
fn online_groovyc_judges_every_program_of_a_batch_in_one_invocation_and_generates_the_accepted() {
    let tc = toolchain(Tool::Groovy);
    let tmp = tempfile::tempdir().expect("tempdir");
    let files = groovy_phase_files(tmp.path());
    let opts = CompileOptions {
        timeout: Duration::from_secs(300),
        ..CompileOptions::default()
    };
    for mode in [Mode::Process, Mode::Server] {
        let out = tmp.path().join(format!("classes-{mode:?}"));
        let mut compiler = Compiler::new(&tc, mode);
        let r = compiler
            .compile_batch(&files, &out, &opts)
            .expect("compiles");
        // groovyc alone would stop at the parse error; one invocation judges all six
        assert_eq!(r.calls, 1, "{mode:?}: {r:?}");
        assert_eq!(r.runs, files.len(), "{mode:?}: a compilation per program");
        match mode {
            // a fresh JVM for the batch
            Mode::Process => assert_eq!(r.starts, 1, "{mode:?}: one JVM"),
            // the server started for the first batch, and never restarted during it
            Mode::Server => {
                assert_eq!(r.starts, 0, "{mode:?}: no restart");
                assert_eq!(
                    compiler.server_mut().map(|s| s.starts()),
                    Some(1),
                    "{mode:?}: one JVM"
                );
            }
        }
        for (name, _, verdict, phrase) in GROOVY_PHASES {
            let v = &r.verdicts[&format!("{name}.groovy")];
            assert_eq!(kind(v), verdict, "{mode:?} {name}: {v:?}");
            if let Verdict::Rejected { diagnostics } = v {
                let text = diagnostics.join("\n");
                assert!(text.contains(phrase), "{mode:?} {name}: {text}");
                for (other, _, _, _) in GROOVY_PHASES {
                    if other != name {
                        assert!(
                            !text.contains(&format!("{other}.groovy")),
                            "{mode:?} {name}: {text}"
                        );
                    }
                }
            }
            // the accepted ones went through class generation
            assert_eq!(
                out.join(format!("{name}.class")).is_file(),
                verdict == "accepted",
                "{mode:?} {name}"
            );
        }
    }
}

#[test]
fn online_process_mode_shares_the_compilers_classes_through_an_archive_and_judges_alike() {
    let tc = toolchain(Tool::Groovy);
    let tmp = tempfile::tempdir().expect("tempdir");
    let files = groovy_phase_files(tmp.path());
    let opts = CompileOptions {
        timeout: Duration::from_secs(300),
        ..CompileOptions::default()
    };
    // the first driver dumps the archive at its exit (unless another test's is dumping
    // it), the later ones map it: every run judges every program the same way
    for round in 0..3 {
        let out = tmp.path().join(format!("classes-{round}"));
        let r = Compiler::new(&tc, Mode::Process)
            .compile_batch(&files, &out, &opts)
            .expect("compiles");
        assert_eq!((r.calls, r.starts), (1, 1), "round {round}: {r:?}");
        for (name, _, verdict, phrase) in GROOVY_PHASES {
            let v = &r.verdicts[&format!("{name}.groovy")];
            assert_eq!(kind(v), verdict, "round {round} {name}: {v:?}");
            if let Verdict::Rejected { diagnostics } = v {
                // nothing of the JVM's class-data sharing in the compiler's output
                let text = diagnostics.join("\n");
                assert!(text.contains(phrase), "round {round} {name}: {text}");
                assert!(!text.contains("cds"), "round {round} {name}: {text}");
            }
        }
    }
    let archives = std::fs::read_dir(thalia::toolchain::toolchains_dir().join(".cds"))
        .expect("the archives' directory")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsa"))
        .count();
    assert!(archives > 0, "no archive was dumped");
}

#[test]
fn online_process_mode_compiles_a_batchs_flag_sets_in_one_compiler_start() {
    let tc = toolchain(Tool::Javac);
    let tmp = tempfile::tempdir().expect("tempdir");
    let files: Vec<PathBuf> = [
        ("Ok", "class Ok { int f() { return 1; } }\n"),
        ("Bad", "class Bad { int f() { return \"s\"; } }\n"),
    ]
    .iter()
    .map(|(name, source)| {
        let f = tmp.path().join(format!("{name}.java"));
        std::fs::write(&f, source).expect("write");
        f
    })
    .collect();
    let opts = |flags: &[&str]| CompileOptions {
        timeout: Duration::from_secs(120),
        flags: flags.iter().map(|f| f.to_string()).collect(),
        ..CompileOptions::default()
    };
    let judged = |r: &thalia::compile::BatchResult, what: &str| {
        assert_eq!(kind(&r.verdicts["Ok.java"]), "accepted", "{what}: {r:?}");
        assert_eq!(kind(&r.verdicts["Bad.java"]), "rejected", "{what}: {r:?}");
    };
    let mut compiler = Compiler::new(&tc, Mode::Process);
    // the one-shot driver first: it shows the compiler can be called in-process
    let r = compiler
        .compile_batch(&files, &tmp.path().join("c0"), &opts(&[]))
        .expect("compiles");
    assert_eq!(r.starts, 1, "{r:?}");
    judged(&r, "the driver");
    // a batch of two flag sets: one server for both
    assert!(compiler.begin_batch(), "a server for the batch");
    for (i, flags) in [&[][..], &["-g"][..]].into_iter().enumerate() {
        let r = compiler
            .compile_batch(&files, &tmp.path().join(format!("b{i}")), &opts(flags))
            .expect("compiles");
        assert_eq!((r.calls, r.starts), (1, 0), "flags {flags:?}: {r:?}");
        judged(&r, &format!("flags {flags:?}"));
    }
    compiler.end_batch();
    assert!(compiler.server_mut().is_none(), "the batch's server exited");
    // then a process per invocation again
    let r = compiler
        .compile_batch(&files, &tmp.path().join("c1"), &opts(&[]))
        .expect("compiles");
    assert_eq!(r.starts, 1, "{r:?}");
    judged(&r, "after the batch");
}
