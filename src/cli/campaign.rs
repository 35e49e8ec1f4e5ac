//! `thalia run`, `thalia check` and `thalia report`: campaigns and their run directories.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use thalia::api::source::ApiSource;
use thalia::campaign::autoreduce::{self, AutoReducer};
use thalia::campaign::driver::{self, Budget, DirSource, Outcome, SynthSource};
use thalia::campaign::reduce::ReduceOptions;
use thalia::campaign::report::Report;
use thalia::campaign::setup::{self, CheckIdentity, CompileSettings, RunIdentity, SynthIdentity};
use thalia::campaign::shard::Shard;
use thalia::campaign::store::Store;
use thalia::synth::Mode;
use thalia_translators::{translator_with, Language};

use super::synth::groovy_mode;
use super::{load_api_for, print_json, progress, threads};

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
    /// `round` (every program once).
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
}

impl CompileArgs {
    /// The embedded intended changes and those of `--intended` files.
    fn intended(&self) -> Result<thalia::campaign::intended::IntendedSet> {
        let mut set = thalia::campaign::intended::IntendedSet::embedded()?;
        for f in &self.intended {
            set.add_file(f)?;
        }
        Ok(set)
    }

    /// The embedded known findings and those of `--known` files.
    fn known(&self) -> Result<thalia::campaign::known::KnownSet> {
        let mut set = thalia::campaign::known::KnownSet::embedded()?;
        for f in &self.known {
            set.add_file(f)?;
        }
        Ok(set)
    }
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
    #[arg(long, short, default_value = "thalia-run")]
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
    /// A finding's directory (`RUN/bugs/<signature>/`), written by `thalia run`.
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
}

/// The javac that judges the Java twins of `lang` programs' findings, unless disabled.
fn twin_compiler(
    lang: Language,
    args: &CompileArgs,
    settings: &CompileSettings,
) -> Result<Option<thalia::toolchain::Toolchain>> {
    if lang == Language::Java || args.no_twin {
        return Ok(None);
    }
    Ok(Some(setup::toolchain_for(
        "javac",
        &settings.repos,
        settings.progress,
    )?))
}

/// How a session compiles, for the start-up line.
fn compile_mode(settings: &CompileSettings) -> &'static str {
    if settings.server {
        "warm server"
    } else {
        "a process per batch"
    }
}

/// Prints that an interrupted session's cut-off lines were dropped.
fn note_recovery(store: &Store) {
    if store.recovered_lines() > 0 {
        eprintln!(
            "{}: dropped {} incomplete line(s) of an interrupted session",
            store.dir().display(),
            store.recovered_lines()
        );
    }
}

/// Prints the end of a campaign session and the run's report.
fn finish(outcome: &Outcome, store: &Store) -> Result<()> {
    let (findings, distinct) = store.findings();
    eprintln!(
        "judged {} programs in {:.1}s ({} judged earlier); {} findings in this session, {} in all ({} distinct)",
        outcome.judged, outcome.seconds, outcome.resumed, outcome.findings, findings, distinct
    );
    let report = Report::load(store.dir())?;
    print!("{}", report.table());
    println!(
        "  results: {}",
        store.dir().join(thalia::campaign::store::RESULTS).display()
    );
    Ok(())
}

pub(super) fn check(args: CheckArgs) -> Result<ExitCode> {
    let shard = args.shard.resolve()?;
    let settings = args.compile.settings()?;
    let mut source = DirSource::open(&args.dir)?;
    let lang = source.language();
    let spec = args
        .compiler
        .clone()
        .unwrap_or_else(|| setup::default_compiler(lang).to_string());
    let tc = setup::toolchain_for(&spec, &settings.repos, settings.progress)?;
    // the programs' libraries: those of the API they were synthesized from
    let classpath = match &settings.classpath {
        Some(cp) => Some(cp.clone()),
        None => {
            ApiSource::from_label(source.api()).classpath(&settings.repos, settings.progress)?
        }
    };
    let (info, mut opts) = setup::campaign_options(&tc, &settings, classpath.clone())?;
    opts.twin = twin_compiler(lang, &args.compile, &settings)?;
    let (against, against_info) =
        setup::against(&args.compile.against, &tc, &settings, classpath.as_deref())?;
    opts.against = against;
    // each shard its own store by default
    let out = args.out.clone().unwrap_or_else(|| {
        let suffix = shard
            .map(|s| format!("-shard-{}-of-{}", s.index, s.count))
            .unwrap_or_default();
        args.dir
            .join(format!("check-{}-{}{suffix}", tc.tool.name(), tc.version))
    });
    let mut identity: CheckIdentity =
        setup::check_identity(&args.dir, lang, setup::compiler_label(&tc))?;
    identity.against = opts.against.iter().map(setup::Against::label).collect();
    identity.shard = shard;
    if let Some(sh) = shard {
        let count = match settings.budget {
            Budget::Programs(n) => Some(n),
            _ => None,
        };
        // a count budget is the check's: this shard judges its share of it
        if let Some(share) = source.set_shard(sh, count) {
            opts.budget = Budget::Programs(share);
        }
    }
    let mut manifest = setup::manifest(RunIdentity::Check(identity), info, &settings, &opts);
    manifest.against = against_info;
    let known = args.compile.known()?;
    let intended = args.compile.intended()?;
    let mut store = Store::open(&out, manifest)?;
    store.set_known(known);
    store.set_intended(intended);
    note_recovery(&store);
    eprintln!(
        "checking {} programs of {} with {} ({}), results in {}",
        source.len(),
        args.dir.display(),
        setup::compiler_label(&tc),
        compile_mode(&settings),
        out.display()
    );
    let (outcome, store) = driver::run(store, &tc, &mut source, &opts)?;
    finish(&outcome, &store)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn run(args: RunArgs) -> Result<ExitCode> {
    let shard = args.shard.resolve()?;
    let settings = args.compile.settings()?;
    let spec = args
        .compiler
        .clone()
        .unwrap_or_else(|| setup::default_compiler(args.lang).to_string());
    let mut tc = setup::toolchain_for(&spec, &settings.repos, settings.progress)?;
    tc.jvm_options = args.jvm_options.clone();
    let mut modes = if args.modes.is_empty() {
        vec![Mode::WellTyped, Mode::IllTyped]
    } else {
        args.modes.clone()
    };
    modes.dedup();
    let base = args.knobs.config()?;
    // the seed: given, the run directory's, or random
    let seed = args.seed.or_else(|| setup::recorded_seed(&args.out));
    // the shards of one campaign share its seed: a random one each would make N campaigns
    if let (Some(sh), None) = (shard, seed) {
        anyhow::bail!("shard {sh} needs the campaign's --seed (every shard must use the same one)");
    }
    let seed = seed.unwrap_or_else(rand::random);
    let api_source = ApiSource::from_arg(args.api.as_deref());
    let classpath = match &settings.classpath {
        Some(cp) => Some(cp.clone()),
        None => api_source.classpath(&settings.repos, settings.progress)?,
    };
    let (info, mut opts) = setup::campaign_options(&tc, &settings, classpath.clone())?;
    opts.twin = twin_compiler(args.lang, &args.compile, &settings)?;
    let (against, against_info) =
        setup::against(&args.compile.against, &tc, &settings, classpath.as_deref())?;
    opts.against = against;
    let identity = RunIdentity::Run(Box::new(SynthIdentity {
        seed,
        language: args.lang,
        api: api_source.label(),
        modes: modes.clone(),
        erase: args.erase,
        groovy_type_checked: args.groovy_type_checked,
        synth_config: setup::recorded_synth_config(args.lang, &base),
        compiler: setup::compiler_label(&tc),
        against: opts.against.iter().map(setup::Against::label).collect(),
        shard,
    }));
    let mut manifest = setup::manifest(identity, info, &settings, &opts);
    manifest.against = against_info;
    let known = args.compile.known()?;
    let intended = args.compile.intended()?;
    let mut store = Store::open(&args.out, manifest)?;
    store.set_known(known);
    store.set_intended(intended);
    note_recovery(&store);
    let (api_source, api) = load_api_for(args.api.as_ref(), Some(args.lang))?;
    let translator = translator_with(args.lang, groovy_mode(args.groovy_type_checked));
    let mut source = SynthSource::new(
        api,
        translator,
        &modes,
        &thalia::synth::SynthConfig {
            erase: args.erase,
            lang: args.lang,
            ..base.clone()
        },
        seed,
        threads(None),
        &api_source.arg(),
        !matches!(settings.budget, Budget::OneRound),
    );
    source.write_config(&args.out)?;
    source.keep_census(&args.out, store.done_count() > 0)?;
    source.prepare();
    if let Some(sh) = shard {
        // a count budget is the campaign's: the source stops where the unsharded run would,
        // and this shard does its own programs up to there
        if let Budget::Programs(n) = settings.budget {
            source.set_shard(sh, Some(n), settings.batch_size);
            opts.budget = Budget::OneRound;
        } else {
            source.set_shard(sh, None, settings.batch_size);
        }
    }
    eprintln!(
        "run {}{} (seed {seed}): {} {} programs with {} ({}), budget {}{}",
        args.out.display(),
        shard.map(|s| format!(", shard {s}")).unwrap_or_default(),
        modes
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        args.lang,
        setup::compiler_label(&tc),
        compile_mode(&settings),
        settings.budget,
        if store.done_count() > 0 {
            format!("; resuming after {} judged programs", store.done_count())
        } else {
            String::new()
        }
    );
    let reducer = (!args.no_reduce).then(|| {
        AutoReducer::start(
            args.out.clone(),
            ReduceOptions {
                server: settings.server,
                ..ReduceOptions::default()
            },
        )
    });
    let (outcome, mut store) = driver::run(store, &tc, &mut source, &opts)?;
    if let Some(r) = reducer {
        if !autoreduce::pending(&args.out).is_empty() {
            eprintln!(
                "reducing the new findings (at most {} s more; --no-reduce skips this)",
                autoreduce::REDUCE_AFTER_RUN.as_secs()
            );
        }
        let done = r.finish();
        if done.reduced + done.failed + done.pending > 0 {
            eprintln!("{}", done.line());
        }
    }
    store.note_untranslatable(&source.untranslatable_reasons())?;
    for (reason, n) in source.untranslatable_reasons() {
        eprintln!("{n} programs could not be translated ({reason}): skipped");
    }
    finish(&outcome, &store)?;
    Ok(ExitCode::SUCCESS)
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

pub(super) fn report(args: ReportArgs) -> Result<ExitCode> {
    if thalia::batch::is_batch(&args.dir) {
        let summary = thalia::batch::BatchSummary::read(&args.dir)
            .with_context(|| format!("cannot read the batch in {}", args.dir.display()))?;
        if args.json {
            print_json(&summary)?;
        } else {
            print!("{}", summary.table());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = Report::load(&args.dir)
        .with_context(|| format!("cannot read the run in {}", args.dir.display()))?;
    if args.json {
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
    for dir in &args.dirs {
        let r = reduce(dir, &opts).with_context(|| format!("cannot reduce {}", dir.display()))?;
        eprintln!(
            "{}: {} → {} lines ({} → {} IR nodes) in {} steps, {} compiler runs, {:.1}s; {}",
            dir.display(),
            r.lines_before,
            r.lines_after,
            r.size_before,
            r.size_after,
            r.steps,
            r.compiles,
            r.seconds,
            r.dir.join("report.md").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
