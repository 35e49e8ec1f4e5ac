//! `thalia run-program`: one compiled program (and its Java twin) run in the sandbox, its
//! outcome judged by the run oracle.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use thalia::run::{self, Job, Limits, RunOutcome, RunRecord, Runner, Sandbox};

#[derive(Args, Debug)]
pub(super) struct RunProgramArgs {
    /// The directory of the program's compiled classes.
    #[arg(long)]
    classes: PathBuf,
    /// The class of its test method (`thalia.p000042.Test_p000042`; default: from
    /// `--source`'s file name and package).
    #[arg(long)]
    class: Option<String>,
    /// The program's source: a program that calls a member acting on the process or the
    /// machine (`System.exit`, `Runtime`, `ProcessBuilder`, ...) is not run.
    #[arg(long)]
    source: Option<PathBuf>,
    /// The directory of its Java twin's compiled classes.
    #[arg(long)]
    twin_classes: Option<PathBuf>,
    /// The class of the twin's test method (default: the program's).
    #[arg(long)]
    twin_class: Option<String>,
    /// The compiler that compiled it (`NAME[@VERSION]`, installed): its language runtime
    /// (groovy, kotlin-stdlib, scala-library) goes on the classpath.
    #[arg(long)]
    compiler: Option<String>,
    /// The API's jars (a classpath), after the runtime.
    #[arg(long)]
    classpath: Option<String>,
    /// Seconds the test method is given.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the program (and its twin) and prints the outcomes and the finding, if any.
pub(super) fn run_program(args: RunProgramArgs) -> Result<ExitCode> {
    let source = match &args.source {
        Some(p) => {
            Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?)
        }
        None => None,
    };
    let class = match (&args.class, &args.source, &source) {
        (Some(c), _, _) => c.clone(),
        (None, Some(p), Some(s)) => {
            run::test_class(&p.file_name().unwrap_or_default().to_string_lossy(), s)
        }
        _ => anyhow::bail!("give --class, or --source to take it from"),
    };
    let mut shared = Vec::new();
    if let Some(spec) = &args.compiler {
        shared.extend(thalia::toolchain::find(spec)?.runtime);
    }
    if let Some(cp) = &args.classpath {
        // absolute: the sandbox binds each entry at its own path
        shared.extend(std::env::split_paths(cp).map(|p| std::fs::canonicalize(&p).unwrap_or(p)));
    }
    let called = source.as_deref().and_then(run::forbidden_call);
    let record = match called {
        Some(member) => RunRecord {
            program: RunOutcome::NotRun {
                reason: format!("calls {member}"),
            },
            twin: None,
            seconds: 0.0,
        },
        None => {
            let sandbox = Sandbox::find()?;
            let mut runner = Runner::new(sandbox, Limits::default())?;
            runner.program_timeout_ms = args.timeout.saturating_mul(1000);
            runner.limits.wall =
                std::time::Duration::from_secs(args.timeout.saturating_mul(3) + 30);
            let mut jobs = vec![Job {
                id: "program".into(),
                classes: std::fs::canonicalize(&args.classes)
                    .with_context(|| args.classes.display().to_string())?,
                class: class.clone(),
            }];
            if let Some(dir) = &args.twin_classes {
                jobs.push(Job {
                    id: "twin".into(),
                    classes: std::fs::canonicalize(dir)
                        .with_context(|| dir.display().to_string())?,
                    class: args.twin_class.clone().unwrap_or_else(|| class.clone()),
                });
            }
            let scratch = tempfile::tempdir().context("a scratch directory")?;
            let start = std::time::Instant::now();
            let mut ran = runner.run_batch(&scratch.path().join("run"), &shared, &jobs)?;
            RunRecord {
                program: ran
                    .outcomes
                    .remove("program")
                    .unwrap_or(RunOutcome::Ended { exit: None }),
                twin: ran.outcomes.remove("twin"),
                seconds: start.elapsed().as_secs_f64(),
            }
        }
    };
    let finding = run::judge_run(&record.program, record.twin.as_ref());
    if args.json {
        let value = serde_json::json!({
            "run": record,
            "finding": finding.as_ref().map(|f| serde_json::json!({
                "kind": match f.kind {
                    run::RunKind::Miscompilation => "miscompilation",
                    run::RunKind::Unsoundness => "unsoundness",
                },
                "detail": f.detail,
            })),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        println!("program: {}", record.program.describe());
        if let Some(t) = &record.twin {
            println!("twin:    {}", t.describe());
        }
        match &finding {
            Some(f) => println!(
                "finding: {}: {}",
                match f.kind {
                    run::RunKind::Miscompilation => "miscompilation",
                    run::RunKind::Unsoundness => "unsoundness",
                },
                f.detail
            ),
            None => println!("no finding"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
