//! The program runner: a small Java class (`ThaliaRunner.java`, compiled once with the JDK's
//! javac and cached by its source's hash) that runs a batch of programs in one sandboxed JVM,
//! each in a class loader of its own, and prints a JSON line per program; a program that ends
//! the JVM (or runs past its time) is recorded, and the rest of its batch runs in a fresh JVM.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::oracle::RunOutcome;
use super::sandbox::{Limits, Sandbox};
use super::RunError;

/// The runner's source.
const RUNNER_SOURCE: &str = include_str!("ThaliaRunner.java");

/// The marker the runner's lines start with (the programs' own output is discarded).
const MARK: &str = "@@thalia-run ";

/// One program to run: its id, the directory of its classes and its class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Unique within the batch.
    pub id: String,
    /// Its classes' directory (others' classes may share it).
    pub classes: PathBuf,
    /// The class of its test method (`thalia.p000042.Test_p000042`).
    pub class: String,
}

/// A runner: the `java` that runs it, its class's directory, the sandbox and limits.
#[derive(Clone, Debug)]
pub struct Runner {
    java: PathBuf,
    class_dir: PathBuf,
    sandbox: Sandbox,
    /// Limits of each JVM.
    pub limits: Limits,
    /// Time each program is given, in milliseconds.
    pub program_timeout_ms: u64,
}

/// How a batch ran.
#[derive(Clone, Debug, Default)]
pub struct BatchRun {
    /// Each job's outcome, by id.
    pub outcomes: BTreeMap<String, RunOutcome>,
    /// JVMs started.
    pub jvms: usize,
}

/// The JDK's `java` and `javac` (`JAVA_HOME`, else the `PATH`).
fn jdk() -> Result<(PathBuf, PathBuf), RunError> {
    let find = |name: &str| {
        std::env::var_os("JAVA_HOME")
            .map(|h| PathBuf::from(h).join("bin").join(name))
            .filter(|p| p.is_file())
            .or_else(|| {
                let path = std::env::var_os("PATH")?;
                std::env::split_paths(&path)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            })
            .ok_or(RunError::NoJdk)
    };
    Ok((find("java")?, find("javac")?))
}

/// Writes and compiles the runner class (once per source version) under `root`; returns its
/// directory.
fn build_runner(javac: &Path, root: &Path) -> Result<PathBuf, RunError> {
    let build = |message: String| RunError::Build { message };
    let dir = root.join(format!(
        "{:016x}",
        crate::hash::fnv1a64(RUNNER_SOURCE.as_bytes())
    ));
    if dir.join("ThaliaRunner.class").is_file() {
        return Ok(dir);
    }
    // built aside, then renamed: concurrent first uses never see a half-written class
    let tmp = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in({
            std::fs::create_dir_all(root).map_err(|e| build(format!("{}: {e}", root.display())))?;
            root
        })
        .map_err(|e| build(format!("{}: {e}", root.display())))?;
    let src = tmp.path().join("ThaliaRunner.java");
    std::fs::write(&src, RUNNER_SOURCE).map_err(|e| build(format!("{}: {e}", src.display())))?;
    let out = Command::new(javac)
        .args(["--release", "17", "-nowarn", "-d"])
        .arg(tmp.path())
        .arg(&src)
        .output()
        .map_err(|e| build(format!("{}: {e}", javac.display())))?;
    if !out.status.success() {
        return Err(build(format!(
            "javac failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let tmp = tmp.keep();
    if std::fs::rename(&tmp, &dir).is_err() {
        // another process won the race
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join("ThaliaRunner.class").is_file() {
            return Err(build(format!("cannot create {}", dir.display())));
        }
    }
    Ok(dir)
}

/// One line of the runner: a program started, or its outcome.
#[derive(serde::Deserialize)]
struct Line {
    id: String,
    #[serde(default)]
    event: Option<String>,
    #[serde(flatten)]
    outcome: serde_json::Value,
}

impl Runner {
    /// A runner in `sandbox` (the runner class built under the toolchains' cache if needed).
    pub fn new(sandbox: Sandbox, limits: Limits) -> Result<Runner, RunError> {
        let (java, javac) = jdk()?;
        let class_dir = build_runner(&javac, &crate::toolchain::toolchains_dir().join("runner"))?;
        Ok(Runner {
            java,
            class_dir,
            sandbox,
            limits,
            program_timeout_ms: 3_000,
        })
    }

    /// Runs `jobs` in one sandboxed JVM after another in `dir` (the only writable directory
    /// they see; emptied first), with `shared` (the language runtime and the API's jars) on
    /// a class loader they share; a program that ends its JVM gets [`RunOutcome::Ended`] and
    /// the rest run in a fresh one.
    pub fn run_batch(
        &self,
        dir: &Path,
        shared: &[PathBuf],
        jobs: &[Job],
    ) -> Result<BatchRun, RunError> {
        let io = |p: &Path, e: std::io::Error| RunError::Io {
            path: p.to_path_buf(),
            message: e.to_string(),
        };
        // the sandbox runs in `dir`: every path it is given is absolute (a run directory
        // given as `-o runs/k` is relative)
        let dir = &absolute(dir);
        let shared: Vec<PathBuf> = shared.iter().map(|p| absolute(p)).collect();
        let jobs: Vec<Job> = jobs
            .iter()
            .map(|j| Job {
                classes: absolute(&j.classes),
                ..j.clone()
            })
            .collect();
        let mut run = BatchRun::default();
        let mut rest: Vec<&Job> = jobs.iter().collect();
        let shared_cp = std::env::join_paths(&shared)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        while !rest.is_empty() {
            let _ = std::fs::remove_dir_all(dir);
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
            let list = dir.join("jobs.tsv");
            let text: String = rest
                .iter()
                .map(|j| format!("{}\t{}\t{}\n", j.id, j.classes.display(), j.class))
                .collect();
            std::fs::write(&list, text).map_err(|e| io(&list, e))?;
            let argv = vec![
                self.java.display().to_string(),
                format!("-Xmx{}m", self.limits.heap_mib),
                "-Xss4m".into(),
                "-XX:+UseSerialGC".into(),
                "-XX:TieredStopAtLevel=1".into(),
                "-Xshare:auto".into(),
                "-Djava.awt.headless=true".into(),
                "-cp".into(),
                absolute(&self.class_dir).display().to_string(),
                "ThaliaRunner".into(),
                list.display().to_string(),
                self.program_timeout_ms.to_string(),
                shared_cp.clone(),
            ];
            // the classes and jars readable over the sandbox's empty /tmp
            let mut readable: Vec<PathBuf> = shared.clone();
            readable.push(absolute(&self.class_dir));
            for j in &rest {
                if !readable.contains(&j.classes) {
                    readable.push(j.classes.clone());
                }
            }
            let done = self.sandbox.run(dir, &readable, &argv, &self.limits)?;
            run.jvms += 1;
            let mut started: Option<String> = None;
            for l in done.stdout.lines() {
                let Some(json) = l.strip_prefix(MARK) else {
                    continue;
                };
                let Ok(line) = serde_json::from_str::<Line>(json) else {
                    continue;
                };
                if line.event.as_deref() == Some("start") {
                    started = Some(line.id);
                    continue;
                }
                if let Ok(outcome) = serde_json::from_value::<RunOutcome>(line.outcome) {
                    run.outcomes.insert(line.id, outcome);
                }
                started = None;
            }
            // the program that was running when the JVM ended was ended with it
            match started {
                Some(id) => {
                    let outcome = if done.timed_out {
                        RunOutcome::Timeout
                    } else {
                        RunOutcome::Ended { exit: done.exit }
                    };
                    run.outcomes.insert(id, outcome);
                }
                None => {
                    let left = rest.iter().any(|j| !run.outcomes.contains_key(&j.id));
                    if left && !rest.iter().any(|j| run.outcomes.contains_key(&j.id)) {
                        // the JVM ran none of them: it could not start
                        return Err(RunError::Runner {
                            message: format!(
                                "exit {:?}{}: {}",
                                done.exit,
                                if done.timed_out { " (timed out)" } else { "" },
                                done.stderr.chars().take(2000).collect::<String>()
                            ),
                        });
                    }
                }
            }
            rest.retain(|j| !run.outcomes.contains_key(&j.id));
        }
        let _ = std::fs::remove_dir_all(dir);
        Ok(run)
    }
}

/// `p` made absolute against the current directory (unchanged when it cannot be).
fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}
