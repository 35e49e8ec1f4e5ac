//! `thalia run`, `thalia check` and `thalia report`: campaigns and their run directories.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use thalia::campaign::budget::Budget;
use thalia::campaign::interrupt;
use thalia::campaign::launch::{self, LaunchOptions, Programs, Summary, SynthPrograms};
use thalia::campaign::report::Report;
use thalia::campaign::setup::CompileSettings;
use thalia::campaign::shard::Shard;
use thalia::synth::Mode;
use thalia_translators::Language;

use super::{print_json, progress};

/// Options shared by `thalia run` and `thalia check`: how programs are compiled.
#[derive(Args, Debug)]
pub(super) struct CompileArgs {
    /// Classpath for the programs (default: the API directory's `classpath.txt`, or the
    /// embedded libraries' jars resolved through the Maven configuration).
    #[arg(long)]
    classpath: Option<String>,
    /// Programs per compiler invocation.
    #[arg(long, default_value_t = 100)]
    batch_size: usize,
    /// Per-program time budget in seconds: a program that takes longer alone is a
    /// performance finding (an invocation on n programs gets 1 + 0.1 × (n − 1) budgets).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Compile in a warm compile server (one long-lived JVM per worker calling the
    /// compiler's in-process entry point) instead of a fresh process per batch; verdicts are
    /// identical.
    #[arg(long)]
    server: bool,
    /// Compiler workers running at once (default: half the cores, at least 1).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// When to stop: a program count (`500`), a time (`90s`, `30m`, `2h`, `1d`) or
    /// `round` (every program once). A time is a deadline, counted from when compiling
    /// starts: no batch is started after it, and a batch under way then gets at most one
    /// more `--timeout` before it is given up (its programs are judged when the run is
    /// resumed).
    #[arg(long, default_value = "round")]
    budget: Budget,
    /// A Maven repository for installing compilers and resolving library jars (repeatable;
    /// default: the user's Maven configuration).
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
    /// Also compile every program with this compiler (`NAME@VERSION`, repeatable; installed
    /// when missing): a program on which it and the compiler under test disagree is a
    /// differential finding (`regression` or `fixed-since` between releases of one compiler,
    /// `disagrees` otherwise). `NAME@VERSION:VARIANT` runs it differently, `:VARIANT` alone is
    /// the compiler under test run so: `k1`/`k2` (Kotlin's frontends), `type-checked`/
    /// `compile-static` (Groovy's checking modes).
    #[arg(long = "against", value_name = "NAME@VERSION[:VARIANT]")]
    against: Vec<String>,
    /// Do not compile the Java twins of findings with javac (by default a finding of a
    /// non-Java program is confirmed, or kept apart as generator-suspect, by its twin).
    #[arg(long)]
    no_twin: bool,
    /// A compiler that judges the findings no Java twin judges (Kotlin- and Scala-native
    /// APIs; `NAME@VERSION[:VARIANT]`, repeatable; installed when missing): such a finding is
    /// confirmed when it gives the expected verdict, generator-suspect when every one agrees
    /// with the compiler under test. Default: the newest release and the other frontend
    /// (Kotlin K1/K2), Scala 3's other series (LTS/Next), Scala 2.13's newest release.
    #[arg(
        long = "oracle",
        value_name = "NAME@VERSION[:VARIANT]",
        conflicts_with = "no_oracle"
    )]
    oracle: Vec<String>,
    /// No differential oracle: findings without a Java twin stay unconfirmed (`suspects/`).
    #[arg(long)]
    no_oracle: bool,
    /// A known-findings file (the format of the repository's `known-findings/`) whose
    /// entries are added to the embedded ones (repeatable): matching findings are labelled
    /// `known`, kept in `known/` and counted apart.
    #[arg(long = "known", value_name = "FILE")]
    known: Vec<PathBuf>,
    /// An intended-changes file (the format of the repository's
    /// `known-findings/intended-changes.toml`) whose entries are added to the embedded ones
    /// (repeatable): a differential finding that matches is labelled `intended`, kept in
    /// `intended/` and counted apart from the bugs.
    #[arg(long = "intended", value_name = "FILE")]
    intended: Vec<PathBuf>,
    /// Do not check the findings on the newest release of the compiler at the end (by
    /// default every confirmed finding's program, reduced when it is, is compiled with the
    /// newest release and the newest pre-release, installed when missing: `open` or `fixed
    /// since V` in `finding.json`, `report.md` and `thalia report`).
    #[arg(long)]
    no_recheck: bool,
    /// Run the programs the compiler accepts, and their Java twins, in a sandbox
    /// (bubblewrap, required): a linkage or verification error is a miscompilation finding,
    /// an exception only the program raises that its types rule out an unsoundness finding.
    #[arg(long)]
    run: bool,
    /// Compile every program with the compiler's defaults only (by default blocks of
    /// programs draw one of the compiler's flag sets, such as Kotlin's `-language-version`
    /// or Scala's `-source`, where it cannot change the expected verdict; see
    /// `docs/campaigns.md`).
    #[arg(long)]
    no_compiler_flags: bool,
    /// Do not feed the findings back into the synthesis (`thalia run`; by default the
    /// programs that look like a family of findings that already holds many programs are
    /// drawn less, so that one cause cannot take the campaign).
    #[arg(long)]
    no_feedback: bool,
}

impl CompileArgs {
    /// The settings, checked against their limits.
    fn settings(&self) -> Result<CompileSettings> {
        let settings = CompileSettings {
            classpath: self.classpath.clone(),
            repos: self.repos.clone(),
            batch_size: self.batch_size,
            jobs: self.jobs,
            budget: self.budget,
            timeout_seconds: self.timeout,
            server: self.server,
            progress: progress(),
        };
        settings.validate()?;
        Ok(settings)
    }

    /// The campaign of `programs` with these options and `settings` (theirs).
    fn launch_options(
        &self,
        programs: Programs,
        settings: CompileSettings,
        compiler: Option<String>,
        out: Option<PathBuf>,
        shard: Option<Shard>,
    ) -> LaunchOptions {
        LaunchOptions {
            compiler,
            out,
            shard,
            against: self.against.clone(),
            twin: !self.no_twin,
            oracles: if self.no_oracle {
                Some(Vec::new())
            } else if self.oracle.is_empty() {
                None
            } else {
                Some(self.oracle.clone())
            },
            known: self.known.clone(),
            intended: self.intended.clone(),
            command: std::env::args().collect(),
            recheck: !self.no_recheck,
            run: self.run,
            compiler_flags: !self.no_compiler_flags,
            feedback: !self.no_feedback,
            ..LaunchOptions::new(programs, settings)
        }
    }
}

/// Which shard of a campaign this process is (`run` and `check`).
#[derive(Args, Debug)]
pub(super) struct ShardArgs {
    /// Run shard I of N of the campaign (0-based: `0/4` .. `3/4`): only the programs whose
    /// index (`run`; `check`: position in `programs.jsonl`) is I modulo N, numbered as
    /// unsharded; a count budget is the whole campaign's (the shards together do it),
    /// `round` every shard's part. `thalia merge` joins the shards' run directories.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Split the campaign into N shards, this process's index taken from
    /// `SLURM_ARRAY_TASK_ID` (minus `SLURM_ARRAY_TASK_MIN`) or `JOB_COMPLETION_INDEX`;
    /// `auto` takes N from `SLURM_ARRAY_TASK_COUNT`.
    #[arg(long, value_name = "N|auto")]
    shards: Option<String>,
}

impl ShardArgs {
    /// The shard from the flags and the environment.
    fn resolve(&self) -> Result<Option<Shard>> {
        Ok(Shard::resolve(self.shard, self.shards.as_deref(), &|k| {
            std::env::var(k).ok()
        })?)
    }
}

#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    /// A directory written by `thalia synth`.
    dir: PathBuf,
    /// The compiler: `NAME[@VERSION]` (default: the one matching the programs' language);
    /// installed first when missing.
    #[arg(long)]
    compiler: Option<String>,
    /// The results store (default: `DIR/check-<compiler>-<version>`); an existing one is
    /// resumed.
    #[arg(long, short)]
    out: Option<PathBuf>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    compile: CompileArgs,
}

#[derive(Args, Debug)]
pub(super) struct RunArgs {
    /// Directory of thalia API JSON files, or `@NAME` for one embedded corpus; default: the
    /// whole embedded API.
    #[arg(long)]
    api: Option<PathBuf>,
    /// Language of the programs.
    #[arg(long, default_value = "java")]
    lang: Language,
    /// The compiler: `NAME[@VERSION]` (default: the language's); installed first when
    /// missing.
    #[arg(long)]
    compiler: Option<String>,
    /// Modes to synthesize, interleaved batch by batch (repeatable; default: well-typed and
    /// ill-typed).
    #[arg(long = "mode")]
    modes: Vec<Mode>,
    /// Erase inferable type arguments (Section 3.5 of the paper).
    #[arg(long)]
    erase: bool,
    /// Groovy only: annotate the classes `@TypeChecked` instead of `@CompileStatic`.
    #[arg(long)]
    groovy_type_checked: bool,
    /// Seed of the synthesis (default: the run directory's when resuming, else random).
    #[arg(long)]
    seed: Option<u64>,
    /// The run directory (resumed when it holds a run with the same identity).
    #[arg(long, short, default_value = launch::DEFAULT_RUN_DIR)]
    out: PathBuf,
    /// Do not reduce new findings while the campaign runs (`thalia reduce` does it later).
    #[arg(long)]
    no_reduce: bool,
    /// An option for the JVM of the compiler under test (repeatable; `thalia batch
    /// --coverage` passes the JaCoCo agent so); not part of the run's identity.
    #[arg(
        long = "jvm-option",
        value_name = "OPTION",
        allow_hyphen_values = true,
        hide = true
    )]
    jvm_options: Vec<String>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    knobs: super::synth::KnobArgs,
    #[command(flatten)]
    compile: CompileArgs,
}

#[derive(Args, Debug)]
pub(super) struct ReduceArgs {
    /// A finding's directory (`RUN/bugs/<signature>/`), written by `thalia run` or `thalia
    /// check`.
    dirs: Vec<PathBuf>,
    /// Stop a reduction after this many compiler runs.
    #[arg(long, default_value_t = thalia::campaign::reduce::DEFAULT_MAX_COMPILES)]
    max_compiles: usize,
    /// Compile in a warm compile server.
    #[arg(long)]
    server: bool,
}

#[derive(Args, Debug)]
pub(super) struct MergeArgs {
    /// The run directories of the shards (`thalia run --shard I/N`), or earlier merges.
    runs: Vec<PathBuf>,
    /// The merged run directory (an earlier merge there is replaced).
    #[arg(long, short)]
    out: PathBuf,
    /// Print what was merged as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    /// A run directory written by `thalia run` or `thalia check`, or a batch directory
    /// written by `thalia batch`.
    dir: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Check the findings on the newest release (and newest pre-release) of the compiler
    /// again, installing them when missing, and rewrite their reports.
    #[arg(long)]
    recheck: bool,
    /// Print the paste-ready reports of the new findings (`bugs/`), open ones first, the
    /// reduced program's when there is one: `markdown` (GitHub issues, YouTrack) or `jira`
    /// (Groovy's JIRA).
    #[arg(long, value_name = "markdown|jira")]
    format: Option<thalia::campaign::bugreport::Format>,
    /// Write the findings page (`RUN/findings.html`; a batch's `index.html`) and print its
    /// path.
    #[arg(long)]
    html: bool,
    /// A Maven repository for `--recheck` (repeatable; default: the user's Maven
    /// configuration).
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
    /// A known-findings file whose entries `--recheck` and the reports use besides the
    /// embedded ones (repeatable).
    #[arg(long = "known", value_name = "FILE")]
    known: Vec<PathBuf>,
}

/// Prints the end of a campaign session: the session's figures and the run's report (its
/// census of forms is in `thalia report`), or after Ctrl-C how to resume (exit code 130).
pub(super) fn finish(summary: &Summary) -> Result<ExitCode> {
    let outcome = &summary.outcome;
    if outcome.interrupted {
        eprintln!(
            "interrupted after {} programs; run the same command to resume",
            outcome.judged
        );
        return Ok(ExitCode::from(130));
    }
    eprintln!(
        "judged {} programs in {:.1}s ({} judged earlier); {} findings in this session, {} in all ({} distinct)",
        outcome.judged,
        outcome.seconds,
        outcome.resumed,
        outcome.findings,
        summary.findings,
        summary.distinct
    );
    if outcome.ran + outcome.not_run > 0 {
        eprintln!(
            "ran {} programs ({:.1}/s of run time; {} not run: they call a member acting on the process or the machine); running took {:.1}s, {:.0}% of the session's time",
            outcome.ran,
            outcome.ran as f64 / outcome.run_seconds.max(1e-9),
            outcome.not_run,
            outcome.run_seconds,
            100.0 * outcome.run_seconds / outcome.seconds.max(1e-9)
        );
    }
    if let Some(r) = &summary.recheck {
        eprintln!("{}", r.line());
    }
    let report = Report::load(&summary.dir)?;
    print!(
        "{}",
        Report {
            census: None,
            ..report
        }
        .table()
    );
    println!(
        "  results: {}",
        summary
            .dir
            .join(thalia::campaign::records::RESULTS)
            .display()
    );
    Ok(ExitCode::SUCCESS)
}

pub(super) fn check(args: CheckArgs) -> Result<ExitCode> {
    interrupt::install();
    let shard = args.shard.resolve()?;
    let settings = args.compile.settings()?;
    let opts = args.compile.launch_options(
        Programs::Dir(args.dir.clone()),
        settings,
        args.compiler.clone(),
        args.out.clone(),
        shard,
    );
    finish(&launch::launch(&opts)?)
}

pub(super) fn run(args: RunArgs) -> Result<ExitCode> {
    interrupt::install();
    let shard = args.shard.resolve()?;
    let settings = args.compile.settings()?;
    let programs = SynthPrograms {
        api: args.api.clone(),
        lang: args.lang,
        modes: args.modes.clone(),
        erase: args.erase,
        groovy_type_checked: args.groovy_type_checked,
        seed: args.seed,
        config: args.knobs.config()?,
        threads: None,
        reduce: !args.no_reduce,
    };
    let mut opts = args.compile.launch_options(
        Programs::Synth(Box::new(programs)),
        settings,
        args.compiler.clone(),
        Some(args.out.clone()),
        shard,
    );
    opts.jvm_options = args.jvm_options.clone();
    finish(&launch::launch(&opts)?)
}

pub(super) fn merge(args: MergeArgs) -> Result<ExitCode> {
    let outcome = thalia::campaign::merge::merge(&args.runs, &args.out)?;
    for w in &outcome.warnings {
        eprintln!("warning: {w}");
    }
    if args.json {
        print_json(&outcome)?;
        return Ok(ExitCode::SUCCESS);
    }
    let shards: Vec<String> = outcome
        .parts
        .iter()
        .map(|p| p.shard.map_or("whole".to_string(), |s| s.to_string()))
        .collect();
    eprintln!(
        "merged {} part(s) (shards {}) into {}: {} programs, {} findings ({} distinct)",
        outcome.parts.len(),
        shards.join(", "),
        outcome.dir.display(),
        outcome.programs,
        outcome.findings,
        outcome.distinct
    );
    Ok(ExitCode::SUCCESS)
}

/// The known findings: the embedded ones and those of `files`.
fn known_set(files: &[PathBuf]) -> Result<thalia::campaign::known::KnownSet> {
    let mut set = thalia::campaign::known::KnownSet::embedded()?;
    for f in files {
        set.add_file(f)?;
    }
    Ok(set)
}

/// `thalia report RUN --format F`: the paste-ready reports of the run's new findings, open
/// ones first.
fn print_reports(
    dir: &std::path::Path,
    report: &Report,
    format: thalia::campaign::bugreport::Format,
    known: thalia::campaign::known::KnownSet,
) -> Result<()> {
    use thalia::campaign::bugreport::{self, RunContext};
    let mut ctx = RunContext::load(dir)?;
    ctx.known = Some(known);
    let filed: Vec<_> = report
        .signatures
        .iter()
        .filter(|s| s.folder == thalia::campaign::records::BUGS)
        .collect();
    let left = report.signatures.len() - filed.len();
    for (i, s) in filed.iter().enumerate() {
        let fdir = dir.join(&s.signature);
        let f = thalia::campaign::records::FindingFile::read(&fdir)?;
        let reduced = bugreport::reduced_program(&fdir, f.compiler.tool).is_some();
        if i > 0 {
            println!(
                "{}",
                match format {
                    bugreport::Format::Markdown => "\n---\n",
                    bugreport::Format::Jira => "\n----\n",
                }
            );
        }
        print!("{}", bugreport::render(&fdir, &ctx, reduced, format)?);
    }
    eprintln!(
        "{} report(s) of new findings printed, open ones first; {left} finding(s) of known/, suspects/ and intended/ left out",
        filed.len()
    );
    Ok(())
}

/// `--recheck` of one run: its findings on the newest releases, then every report rewritten.
fn recheck_run(
    dir: &std::path::Path,
    args: &ReportArgs,
    known: &thalia::campaign::known::KnownSet,
) -> Result<()> {
    use thalia::campaign::recheck::{self, FinalizeOptions, RecheckOptions};
    let r = recheck::recheck(
        dir,
        &RecheckOptions {
            repos: args.repos.clone(),
            progress: progress(),
            no_pre_release: false,
            known: Some(known.clone()),
        },
    )
    .with_context(|| format!("cannot recheck the run in {}", dir.display()))?;
    eprintln!("{}: {}", dir.display(), r.line());
    recheck::finalize(
        dir,
        &FinalizeOptions {
            known: Some(known.clone()),
            repos: args.repos.clone(),
        },
    )
    .with_context(|| format!("cannot rewrite the reports of {}", dir.display()))?;
    Ok(())
}

pub(super) fn report(args: ReportArgs) -> Result<ExitCode> {
    if thalia::batch::is_batch(&args.dir) {
        let mut summary = thalia::batch::BatchSummary::read(&args.dir)
            .with_context(|| format!("cannot read the batch in {}", args.dir.display()))?;
        if args.format.is_some() {
            anyhow::bail!(
                "--format prints the reports of one run: give a cell's directory ({}/LIBRARY/MODE)",
                args.dir.display()
            );
        }
        if args.recheck {
            let known = known_set(&args.known)?;
            for cell in thalia::batch::cell_dirs(&args.dir, &summary) {
                recheck_run(&cell, &args, &known)?;
            }
        }
        if args.recheck || args.html {
            // the cells' findings as their runs hold them now
            thalia::batch::refresh_findings(&args.dir, &mut summary)?;
        }
        if args.html {
            let page = thalia::batch::write_page(&args.dir, &summary)?;
            println!("{}", page.display());
            return Ok(ExitCode::SUCCESS);
        }
        if args.json {
            print_json(&summary)?;
        } else {
            print!("{}", summary.table());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let known = known_set(&args.known)?;
    if args.recheck {
        recheck_run(&args.dir, &args, &known)?;
    }
    let report = Report::load(&args.dir)
        .with_context(|| format!("cannot read the run in {}", args.dir.display()))?;
    if args.html {
        let page = thalia::campaign::page::write(&args.dir)?;
        println!("{}", page.display());
    } else if let Some(format) = args.format {
        print_reports(&args.dir, &report, format, known)?;
    } else if args.json {
        print_json(&report)?;
    } else {
        print!("{}", report.table());
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn reduce(args: ReduceArgs) -> Result<ExitCode> {
    use thalia::campaign::reduce::{reduce, ReduceOptions};
    if args.dirs.is_empty() {
        anyhow::bail!("give the directories of findings to reduce (RUN/bugs/<signature>/)");
    }
    let opts = ReduceOptions {
        max_compiles: args.max_compiles.max(1),
        server: args.server,
    };
    // a finding that cannot be reduced does not stop the others: each is said, and the exit
    // code tells there were some
    let mut failed = 0usize;
    for dir in &args.dirs {
        let r = match reduce(dir, &opts) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: cannot reduce {}: {e}", dir.display());
                failed += 1;
                continue;
            }
        };
        eprintln!(
            "{}: {} → {} lines, {} → {} characters ({} → {} IR nodes) in {} steps, {} compiler runs, {:.1}s; {}",
            dir.display(),
            r.lines_before,
            r.lines_after,
            r.chars_before,
            r.chars_after,
            r.size_before,
            r.size_after,
            r.steps,
            r.compiles,
            r.seconds,
            r.dir.join("report.md").display()
        );
    }
    if failed > 0 {
        anyhow::bail!(
            "{failed} of {} findings could not be reduced (above)",
            args.dirs.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
