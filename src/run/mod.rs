//! Running what the compiler accepts: compiled programs (and their Java twins) run in an OS
//! sandbox, batched into one JVM where isolation allows, and their outcomes judged — linkage
//! and verification errors as miscompilations, exceptions the program's types rule out and
//! its twin does not raise as unsoundness.
//!
//! - [`sandbox`]: bubblewrap, limits, the wall-clock timeout;
//! - [`runner`]: the Java runner class and batches of programs in one JVM;
//! - [`oracle`]: outcomes, the members a program meant to run must not call, and the
//!   judgement of an outcome against the twin's.

pub mod oracle;
pub mod runner;
pub mod sandbox;

use std::path::PathBuf;

pub use oracle::{
    comparable_twin, forbidden_call, judge_run, RunFinding, RunKind, RunOutcome, RunRecord,
};
pub use runner::{BatchRun, Job, Runner};
pub use sandbox::{Limits, Sandbox};

/// How accepted programs are run (`--run`).
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// The sandboxed runner.
    pub runner: Runner,
    /// The classpath the programs and twins share: the language runtime, then the API's jars.
    pub shared: Vec<PathBuf>,
}

impl RunSettings {
    /// The settings for programs compiled by `tc` against `classpath` (the API's jars): a
    /// sandbox is required ([`RunError::NoSandbox`] without one).
    pub fn new(
        tc: &crate::toolchain::Toolchain,
        classpath: Option<&str>,
    ) -> Result<RunSettings, RunError> {
        let sandbox = Sandbox::find()?;
        let runner = Runner::new(sandbox, Limits::default())?;
        let mut shared = tc.runtime.clone();
        if let Some(cp) = classpath {
            // absolute: the sandbox binds each entry at its own path
            shared
                .extend(std::env::split_paths(cp).map(|p| std::fs::canonicalize(&p).unwrap_or(p)));
        }
        Ok(RunSettings { runner, shared })
    }
}

/// Why programs could not be run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// No usable sandbox: programs are never run without one.
    #[error("cannot run programs without a sandbox ({reason}); {hint}", hint = sandbox::INSTALL_HINT)]
    NoSandbox {
        /// What is missing or failing.
        reason: String,
    },
    /// No JDK to build or run the runner.
    #[error("cannot find a JDK (`java`/`javac`) to run programs: set JAVA_HOME")]
    NoJdk,
    /// The runner class could not be built.
    #[error("cannot build the program runner: {message}")]
    Build {
        /// javac's output, or the file problem.
        message: String,
    },
    /// A process could not be started.
    #[error("cannot start {program}: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// The OS's error.
        message: String,
    },
    /// The runner's JVM ran no program of its batch.
    #[error("the program runner failed: {message}")]
    Runner {
        /// Its exit and error output.
        message: String,
    },
    /// A file could not be written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// The class of a program's test method: its file's stem in the package its source declares
/// (`package thalia.p000042` in `Test_p000042.groovy` → `thalia.p000042.Test_p000042`).
pub fn test_class(file: &str, source: &str) -> String {
    let stem = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let package = source.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("package ")?;
        Some(rest.trim().trim_end_matches(';').trim().to_string())
    });
    match package {
        Some(p) if !p.is_empty() => format!("{p}.{stem}"),
        _ => stem,
    }
}
