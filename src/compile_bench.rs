//! `thalia bench compile`: how close a campaign comes to the compiler's own speed, per
//! compiler, well-typed and ill-typed programs apart.
//!
//! The limit is the bare compiler: the campaign's programs (synthesized from the embedded
//! `java.base` as the campaign's source synthesizes them), compiled batch by batch in the warm
//! JVM of the measured server campaign by the compiler's [`RunPlan`](crate::profile::RunPlan),
//! one batch after another, each with the compiler flag sets the campaign draws for its
//! programs (one request per set), timed by the server itself around its compiler runs:
//! `--passes` passes just before the measured campaign and as many just after it, on the same
//! JVM, so that neither the limit nor the campaign gets a luckier JIT (two JVMs of one
//! compiler differed by up to 2× on the same programs). No process start, no synthesis, no
//! attribution, no store, no twins. Against it, two campaigns (`thalia run` of `-n` programs
//! of one mode, twins on, no reduction): one with a fresh compiler process per batch, one with
//! warm compile servers (`--warm-up` untimed campaigns warm the servers up, kept in the
//! [`crate::server::pool`]; the next one is measured). For each: programs per second and
//! their share of the limit (the campaign's rate per round: its round plan, synthesis's first
//! pass, charged per program of the round, as a campaign running whole rounds pays it),
//! compiler starts and invocations per batch, CPU per program (thalia's and
//! its compilers'), and each stage's busy time over the wall time ([`crate::stages`]; synthesis
//! runs on its own thread beside the compile workers, so the shares may add up past 100 %).
//! With several `--jobs`, the campaigns are measured with each number of compile workers (a
//! server each), with the peak memory per server. Every figure carries the machine's load
//! average when it was taken. With `--repeat`, each figure is the fastest of several runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use thalia_translators::{translator_with, GroovyMode};

use crate::api::source::ApiSource;
use crate::campaign::budget::Budget;
use crate::campaign::flags::FlagPlan;
use crate::campaign::launch::{self, LaunchOptions, Programs, SynthPrograms};
use crate::campaign::setup::CompileSettings;
use crate::campaign::source::synth::SynthSource;
use crate::campaign::source::Source;
use crate::compile::{self, CompileOptions};
use crate::server::{self, CompileServer, ServerOptions};
use crate::stages::{self, Stage, StageTimes};
use crate::synth::{self, LanguageRules, SynthConfig};
use crate::toolchain::{self, Tool, Toolchain, ToolchainError};

/// The embedded API the programs are drawn from.
const CORPUS: &str = "@java.base";

/// Options of `thalia bench compile`.
#[derive(Debug, Clone)]
pub struct CompileBenchArgs {
    /// Compilers to measure (`NAME[@VERSION]`, repeatable; default: every installed one, the
    /// newest version of each; javac is installed from the running JDK when missing).
    pub compilers: Vec<String>,
    /// Programs per compiler and mode (well-typed, ill-typed), synthesized from the embedded
    /// `java.base` in the compiler's language.
    pub count: usize,
    /// Programs per compiler invocation (the campaign's `--batch-size`).
    pub batch_size: usize,
    /// Seed of the synthesized programs.
    pub seed: u64,
    /// Untimed campaigns that warm the servers up before the limit and the measured server
    /// campaign (at least one).
    pub warm_up: usize,
    /// Timed passes of the limit before the measured server campaign, and as many after it.
    pub passes: usize,
    /// Compile workers of the campaigns; each number is measured (`1,2`).
    pub jobs: Vec<usize>,
    /// Measure every compiler this many times and keep each figure's fastest run (on a busy
    /// machine other load only ever slows a run down).
    pub repeat: usize,
    /// Per-program time budget in seconds, as for `thalia run`.
    pub timeout: f64,
    /// Write the programs and run directories into DIR and keep them (default: a temporary
    /// directory, removed at the end).
    pub dir: Option<PathBuf>,
}

/// The bare compiler's figures on one mode's programs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LimitFigures {
    /// The server's own seconds on its compiler runs, per pass.
    pub seconds: f64,
    /// Programs judged per second.
    pub programs_per_second: f64,
    /// The server JVM's CPU seconds per program (all its threads), when it says.
    pub cpu_per_program: Option<f64>,
    /// Compiler runs per batch (the sections of its answers).
    pub runs_per_batch: f64,
    /// The 1-minute load average when the figure was taken.
    pub load: f64,
}

/// The share of a campaign's wall time each stage kept a thread busy.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StageShares {
    /// Busy seconds per stage.
    pub seconds: StageTimes,
    /// Busy seconds over wall seconds, per stage.
    pub shares: StageTimes,
}

/// One campaign's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CampaignFigures {
    /// `process` or `server`.
    pub mode: String,
    /// Compile workers.
    pub jobs: usize,
    /// Programs judged.
    pub programs: u64,
    /// Wall seconds of the campaign's loop.
    pub seconds: f64,
    /// Programs judged per second.
    pub programs_per_second: f64,
    /// Seconds of the campaign's round plans (synthesis's pass 1, once per round; the first
    /// round's before the campaign's clock starts, a later one's before its first batch).
    #[serde(default)]
    pub plan_seconds: f64,
    /// Programs of the rounds planned.
    #[serde(default)]
    pub planned: u64,
    /// Programs judged per second with the plans charged per program of a whole round (what
    /// a campaign that runs whole rounds sees): the plans on the clock taken out, the share
    /// `programs / planned` of all plans put in.
    #[serde(default)]
    pub round_programs_per_second: f64,
    /// Its programs per second (per round) over the limit's.
    pub of_limit: f64,
    /// The limit's CPU per program over its CPU per program: the share of the CPU it spends
    /// that is the bare compiler's, which other load on the machine does not change (0 when
    /// the limit's CPU is unknown).
    pub cpu_of_limit: f64,
    /// Batches compiled.
    pub batches: u64,
    /// Processes of the compiler started per batch to compile it (compiler processes,
    /// one-shot drivers, compile servers; the measured server campaign's servers are already
    /// warm).
    pub starts_per_batch: f64,
    /// Invocations of the compiler per batch to compile it (processes or server requests;
    /// one per flag set drawn in the batch).
    pub invocations_per_batch: f64,
    /// Processes of the compiler started for findings, not batches: each known entry's
    /// program compiled once on the release for its label's evidence, differential oracles.
    #[serde(default)]
    pub other_starts: u64,
    /// CPU seconds per program: this process's (synthesis, judging, the store) and its
    /// compilers' (the twins' javac included).
    pub cpu_per_program: f64,
    /// Each stage's busy time.
    pub stages: StageShares,
    /// Findings of the campaign.
    pub findings: u64,
    /// The highest peak resident memory of one compile server (MiB; server campaigns).
    pub server_memory_mb: Option<f64>,
    /// The 1-minute load average when the figure was taken.
    pub load: f64,
    /// Verdict per program key.
    #[serde(skip)]
    pub verdicts: BTreeMap<String, String>,
}

/// One compiler's figures on one mode's programs.
#[derive(Clone, Debug, Serialize)]
pub struct ModeFigures {
    /// `well-typed` or `ill-typed`.
    pub mode: String,
    /// Programs of the limit (the campaign's).
    pub programs: usize,
    /// Batches of the limit.
    pub batches: usize,
    /// The bare compiler.
    pub limit: LimitFigures,
    /// The campaigns: process, then server, per number of jobs.
    pub campaigns: Vec<CampaignFigures>,
    /// Programs whose verdict differs between two campaigns.
    pub disagreements: usize,
    /// Programs whose verdict (in the first campaign) is not the one expected.
    pub unexpected: usize,
}

/// The figures of one compiler.
#[derive(Clone, Debug, Serialize)]
pub struct CompilerFigures {
    /// The compiler with its version (`kotlinc 2.4.21`).
    pub compiler: String,
    /// The toolchain's name (`kotlin`).
    pub tool: String,
    /// The toolchain's version.
    pub version: String,
    /// The language the programs are written in.
    pub language: String,
    /// How one invocation judges a batch (`together`, `apart`).
    pub run_plan: String,
    /// Well-typed, then ill-typed.
    pub modes: Vec<ModeFigures>,
}

/// A compiler left out, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// The compiler's name.
    pub compiler: String,
    /// Why it was left out.
    pub reason: String,
}

/// The whole report of `thalia bench compile`.
#[derive(Clone, Debug, Serialize)]
pub struct CompileBenchReport {
    /// The embedded API the programs come from.
    pub api: String,
    /// Programs per compiler and mode.
    pub count: usize,
    /// Files per compiler invocation.
    pub batch_size: usize,
    /// Seed of the programs.
    pub seed: u64,
    /// Untimed warm-up campaigns.
    pub warm_up: usize,
    /// Timed passes of the limit before the measured server campaign, and as many after it.
    pub passes: usize,
    /// Compile workers of the campaigns.
    pub jobs: Vec<usize>,
    /// Runs per compiler; each figure is the fastest of them.
    pub repeat: usize,
    /// Cores available to this process.
    pub cores: usize,
    /// The 1-minute load average at the start and at the end.
    pub load: [f64; 2],
    /// Per compiler.
    pub compilers: Vec<CompilerFigures>,
    /// Compilers left out.
    pub skipped: Vec<Skipped>,
}

/// A problem running the benchmark: what failed, and why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BenchError(String);

/// The benchmark's results.
type Result<T, E = BenchError> = std::result::Result<T, E>;

/// Says what failed around an error or a missing value.
trait Context<T> {
    /// The error, prefixed with what `what` says.
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: std::fmt::Display> Context<T> for std::result::Result<T, E> {
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| BenchError(format!("{}: {e}", what())))
    }
}

/// Returns a [`BenchError`] from the enclosing function.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err(BenchError(format!($($arg)*)))
    };
}

/// The 1-minute load average (0 where the system does not say).
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|w| w.parse().ok()))
        .unwrap_or(0.0)
}

/// Runs the benchmark (progress and notes on stderr) and returns its report.
pub fn run(args: &CompileBenchArgs) -> Result<CompileBenchReport> {
    if args.count == 0 {
        bail!("-n must be at least 1");
    }
    if args.batch_size == 0 {
        bail!("--batch-size must be at least 1");
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
    if args.jobs.is_empty() || args.jobs.contains(&0) {
        bail!("--jobs takes one or more numbers of workers, each at least 1");
    }
    let load_start = load_average();
    let (toolchains, skipped) = resolve(&args.compilers)?;
    for s in &skipped {
        eprintln!("note: skipping {}: {}", s.compiler, s.reason);
    }
    if toolchains.is_empty() {
        bail!(
            "no compiler installed; install some with `thalia toolchain install kotlin scala3 \
             scala2 groovy javac`"
        );
    }
    let temp;
    let root = match &args.dir {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
            d.clone()
        }
        None => {
            temp = tempfile::tempdir()
                .with_context(|| "cannot create a temporary directory".into())?;
            temp.path().to_path_buf()
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut figures = Vec::new();
    for tc in &toolchains {
        let label = display_name(tc);
        let mut modes = Vec::new();
        for mode in [synth::Mode::WellTyped, synth::Mode::IllTyped] {
            let f = measure_mode(tc, mode, args, &root)
                .with_context(|| format!("{label}, {} programs", mode.as_str()))?;
            modes.push(f);
        }
        figures.push(CompilerFigures {
            compiler: label,
            tool: tc.tool.name().to_string(),
            version: tc.version.clone(),
            language: tc.tool.profile().language.to_string(),
            run_plan: tc.tool.profile().run_plan.name().to_string(),
            modes,
        });
    }
    Ok(CompileBenchReport {
        api: CORPUS.to_string(),
        count: args.count,
        batch_size: args.batch_size,
        seed: args.seed,
        warm_up: args.warm_up,
        passes: args.passes.max(1),
        jobs: args.jobs.clone(),
        repeat: args.repeat.max(1),
        cores,
        load: [load_start, load_average()],
        compilers: figures,
        skipped,
    })
}

/// The toolchains to measure, and the ones left out when none were asked for explicitly.
fn resolve(specs: &[String]) -> Result<(Vec<Toolchain>, Vec<Skipped>)> {
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    if specs.is_empty() {
        for tool in Tool::ALL {
            match find_or_install(tool.name()) {
                Ok(tc) => found.push(tc),
                Err(e) => skipped.push(Skipped {
                    compiler: tool.name().to_string(),
                    reason: e.to_string(),
                }),
            }
        }
    } else {
        for spec in specs {
            let tc = find_or_install(spec).with_context(|| format!("compiler `{spec}`"))?;
            found.push(tc);
        }
    }
    Ok((found, skipped))
}

/// The installed toolchain for `spec`; a compiler of the running JDK (javac) is installed
/// when missing.
fn find_or_install(spec: &str) -> Result<Toolchain, ToolchainError> {
    let (tool, _) = toolchain::parse_spec(spec)?;
    match toolchain::find(spec) {
        Err(ToolchainError::NotInstalled(_)) if tool.profile().from_jdk() => {
            toolchain::install(tool, None, &[], false)?;
            // the running JDK may not be the version asked for
            toolchain::find(spec)
        }
        other => other,
    }
}

/// `kotlinc 2.4.21`, `scalac 3.9.0`, `javac 17.0.15`.
fn display_name(tc: &Toolchain) -> String {
    format!("{} {}", tc.tool.profile().executable, tc.version)
}

/// The limit and the campaigns of one compiler on one mode's programs.
fn measure_mode(
    tc: &Toolchain,
    mode: synth::Mode,
    args: &CompileBenchArgs,
    root: &Path,
) -> Result<ModeFigures> {
    let label = format!("{} {}", display_name(tc), mode.as_str());
    let dir = root.join(format!("{}-{}", tc.tool.name(), mode.as_str()));
    let batches = campaign_programs(tc, mode, args, &dir.join("programs"))?;
    let programs: usize = batches.iter().map(LimitBatch::len).sum();
    let classpath = ApiSource::from_arg(Some(Path::new(CORPUS)))
        .classpath(&[], false)
        .with_context(|| "the programs' classpath".into())?;
    let opts = CompileOptions {
        classpath,
        timeout: Duration::from_secs_f64(args.timeout),
        flags: Vec::new(),
    };
    let mut limit: Option<LimitFigures> = None;
    let mut campaigns: Vec<Option<CampaignFigures>> = Vec::new();
    // the limit's class files go where a campaign's go (a RAM file system when there is one)
    let limit_scratch = crate::scratch::dir(&dir.join("limit"));
    let limit_run = LimitRun {
        batches: &batches,
        opts: &opts,
        dir: limit_scratch.path(),
    };
    for r in 0..args.repeat.max(1) {
        let mut k = 0;
        for (j, &jobs) in args.jobs.iter().enumerate() {
            for server in [false, true] {
                let name = format!("{}-{jobs}-{r}", if server { "server" } else { "process" });
                // the limit on the first number of jobs' servers
                let here = (j == 0).then_some(&limit_run);
                let (c, totals) =
                    measure_campaign(tc, mode, args, jobs, server, &dir.join(&name), here)
                        .with_context(|| format!("the campaign {name}"))?;
                if let Some(t) = totals {
                    let l = t.figures();
                    eprintln!(
                        "{label}: limit {:.1} programs/s on the campaign's warm server, before \
                         and after it (load {:.1})",
                        l.programs_per_second, l.load
                    );
                    if limit
                        .as_ref()
                        .is_none_or(|b| l.programs_per_second > b.programs_per_second)
                    {
                        limit = Some(l);
                    }
                }
                eprintln!(
                    "{label}: campaign, {} ({jobs} job(s)): {:.1} programs/s, {:.2} starts and \
                     {:.2} invocations per batch ({} starts for findings), {:.3} CPU s per \
                     program (load {:.1})",
                    c.mode,
                    c.programs_per_second,
                    c.starts_per_batch,
                    c.invocations_per_batch,
                    c.other_starts,
                    c.cpu_per_program,
                    c.load
                );
                if campaigns.len() <= k {
                    campaigns.push(None);
                }
                let best = &mut campaigns[k];
                if best
                    .as_ref()
                    .is_none_or(|b| c.programs_per_second > b.programs_per_second)
                {
                    *best = Some(c);
                }
                k += 1;
            }
        }
    }
    let limit = limit.unwrap_or_default();
    let mut campaigns: Vec<CampaignFigures> = campaigns.into_iter().flatten().collect();
    for c in &mut campaigns {
        c.of_limit = ratio(c.round_programs_per_second, limit.programs_per_second);
        c.cpu_of_limit = ratio(limit.cpu_per_program.unwrap_or(0.0), c.cpu_per_program);
    }
    let disagreements = match campaigns.first() {
        Some(first) => first
            .verdicts
            .iter()
            .filter(|(k, v)| {
                campaigns
                    .iter()
                    .any(|c| c.verdicts.get(*k).is_some_and(|w| w != *v))
            })
            .count(),
        None => 0,
    };
    let expected = match mode {
        synth::Mode::WellTyped => "accepted",
        synth::Mode::IllTyped => "rejected",
    };
    let unexpected = campaigns.first().map_or(0, |c| {
        c.verdicts.values().filter(|v| *v != expected).count()
    });
    Ok(ModeFigures {
        mode: mode.as_str().to_string(),
        programs,
        batches: batches.len(),
        limit,
        campaigns,
        disagreements,
        unexpected,
    })
}

/// One batch of the limit: its programs by the compiler flag set drawn for them, as the
/// campaign compiles them (one invocation per flag set).
struct LimitBatch {
    groups: Vec<(Vec<String>, Vec<PathBuf>)>,
}

impl LimitBatch {
    fn len(&self) -> usize {
        self.groups.iter().map(|(_, f)| f.len()).sum()
    }
}

/// The programs a campaign of `args.count` programs of `mode` judges, written batch by batch
/// under `dir` with the flag sets the campaign draws for them (the campaign's source, built as
/// `thalia run` builds it).
fn campaign_programs(
    tc: &Toolchain,
    mode: synth::Mode,
    args: &CompileBenchArgs,
    dir: &Path,
) -> Result<Vec<LimitBatch>> {
    let lang = tc.tool.profile().language;
    let api_source = ApiSource::from_arg(Some(Path::new(CORPUS)));
    let api = api_source
        .load_for(LanguageRules::from(lang).native_syntax())
        .with_context(|| format!("cannot load {CORPUS}"))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut source = SynthSource::new(
        api,
        translator_with(lang, GroovyMode::CompileStatic),
        &[mode],
        &SynthConfig {
            lang,
            ..SynthConfig::default()
        },
        args.seed,
        threads,
        &api_source.arg(),
        true,
    );
    source.prepare();
    // the flag sets the campaign (same tool, release and seed) draws for each program
    let flags = FlagPlan::new(tc.tool, &tc.version, args.seed, true);
    let mut batches = Vec::new();
    let mut positions = 0u64;
    let total = args.count as u64;
    while positions < total {
        let max = (total - positions).min(args.batch_size as u64) as usize;
        let Some(batch) = source
            .next_batch(max, &|_| false)
            .with_context(|| "synthesis".into())?
        else {
            break;
        };
        positions += batch.positions;
        if batch.candidates.is_empty() {
            continue;
        }
        let bdir = dir.join(format!("b{}", batches.len()));
        std::fs::create_dir_all(&bdir).with_context(|| format!("{}", bdir.display()))?;
        let mut groups: Vec<(Vec<String>, Vec<PathBuf>)> = Vec::new();
        for mut c in batch.candidates {
            flags.assign(&mut c);
            let p = bdir.join(&c.file);
            std::fs::write(&p, &c.source).with_context(|| format!("{}", p.display()))?;
            match groups.iter_mut().find(|(f, _)| *f == c.record.flags) {
                Some((_, files)) => files.push(p),
                None => groups.push((c.record.flags.clone(), vec![p])),
            }
        }
        batches.push(LimitBatch { groups });
    }
    if batches.is_empty() {
        bail!("no program was synthesized");
    }
    Ok(batches)
}

/// What the bare compiler's timed passes add up to.
#[derive(Clone, Copy, Debug, Default)]
struct LimitTotals {
    /// The server's own nanoseconds around its compiler runs.
    nanos: u64,
    /// The server JVM's CPU nanoseconds, when it says.
    cpu: Option<u64>,
    /// Compiler runs (sections of the answers).
    runs: usize,
    /// Programs compiled.
    programs: usize,
    /// Batches compiled.
    batches: usize,
    /// Timed passes.
    passes: usize,
}

impl LimitTotals {
    fn add(&mut self, o: LimitTotals) {
        self.cpu = self.cpu.zip(o.cpu).map(|(a, b)| a + b);
        self.nanos += o.nanos;
        self.runs += o.runs;
        self.programs += o.programs;
        self.batches += o.batches;
        self.passes += o.passes;
    }

    fn figures(&self) -> LimitFigures {
        let seconds = self.nanos as f64 / 1e9;
        LimitFigures {
            seconds: seconds / self.passes.max(1) as f64,
            programs_per_second: rate(self.programs as f64, seconds),
            cpu_per_program: self
                .cpu
                .map(|c| c as f64 / 1e9 / self.programs.max(1) as f64),
            runs_per_batch: self.runs as f64 / self.batches.max(1) as f64,
            load: load_average(),
        }
    }
}

/// Where the limit is measured: the campaign's programs, how they are compiled, and a scratch
/// directory for the classes.
struct LimitRun<'a> {
    batches: &'a [LimitBatch],
    opts: &'a CompileOptions,
    dir: &'a Path,
}

/// The bare compiler on `run.batches` in a warm server of the [`server::pool`] (the one a
/// campaign just used): `args.passes` timed passes; the time is the server's own around its
/// compiler runs.
fn measure_limit(
    tc: &Toolchain,
    run: &LimitRun<'_>,
    args: &CompileBenchArgs,
) -> Result<LimitTotals> {
    let mut server = server::pool::checkout(tc, ServerOptions::default())
        .with_context(|| "cannot start a server".into())?;
    let out = measure_limit_on(tc, &mut server, run, args.passes.max(1));
    server::pool::checkin(server);
    out
}

/// [`measure_limit`] on `server`.
fn measure_limit_on(
    tc: &Toolchain,
    server: &mut CompileServer,
    run: &LimitRun<'_>,
    passes: usize,
) -> Result<LimitTotals> {
    let plan = tc.tool.profile().run_plan;
    let opts = run.opts;
    let mut totals = LimitTotals {
        cpu: Some(0),
        passes,
        ..LimitTotals::default()
    };
    for pass in 0..passes {
        for (i, batch) in run.batches.iter().enumerate() {
            // a fresh output directory, emptied after the request (outside the server's time)
            let out = run.dir.join(format!("{pass}-{i}"));
            std::fs::create_dir_all(&out).with_context(|| format!("{}", out.display()))?;
            // one request per flag set, the flags before the files as the campaign passes them
            for (flags, files) in &batch.groups {
                let mut compiler_args =
                    compile::compiler_args(tc.tool, opts.classpath.as_deref(), &out, files);
                let at = compiler_args.len() - files.len();
                compiler_args.splice(at..at, flags.iter().cloned());
                let answer = server
                    .compile_planned(
                        &compiler_args,
                        Some((plan, files.len())),
                        opts.deadline(files.len()),
                    )
                    .with_context(|| format!("batch {i}"))?;
                if answer.timed_out {
                    bail!("batch {i} did not finish in time");
                }
                totals.nanos += answer.nanos;
                totals.cpu = totals.cpu.zip(answer.cpu_nanos).map(|(a, b)| a + b);
                totals.runs += answer.output.matches("\u{1e}thalia-run ").count();
            }
            totals.programs += batch.len();
            totals.batches += 1;
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    Ok(totals)
}

/// A campaign of `args.count` programs of `mode` in `dir` with `jobs` workers, in server mode
/// after `args.warm_up` warm-up campaigns (at least one) on the same pooled servers; with
/// `limit` (server mode), the limit on one of those warm servers just before the measured
/// campaign and just after it.
fn measure_campaign(
    tc: &Toolchain,
    mode: synth::Mode,
    args: &CompileBenchArgs,
    jobs: usize,
    server: bool,
    dir: &Path,
    limit: Option<&LimitRun<'_>>,
) -> Result<(CampaignFigures, Option<LimitTotals>)> {
    let launch_in = |out: PathBuf| {
        let settings = CompileSettings {
            classpath: None,
            repos: Vec::new(),
            batch_size: args.batch_size,
            jobs: Some(jobs),
            budget: Budget::Programs(args.count as u64),
            timeout_seconds: args.timeout,
            server,
            progress: false,
        };
        let mut programs =
            SynthPrograms::new(Some(PathBuf::from(CORPUS)), tc.tool.profile().language);
        programs.modes = vec![mode];
        programs.seed = Some(args.seed);
        programs.reduce = false;
        let mut opts = LaunchOptions::new(Programs::Synth(Box::new(programs)), settings);
        // the newest releases are asked after the campaign, not by it
        opts.recheck = false;
        opts.compiler = Some(format!("{}@{}", tc.tool.name(), tc.version));
        opts.out = Some(out);
        launch::launch(&opts)
    };
    if server {
        server::pool::enable();
        // the servers warmed up (the JIT keeps compiling the compiler for dozens of requests)
        for k in 0..args.warm_up.max(1) {
            launch_in(dir.with_extension(format!("warm-up{k}")))
                .with_context(|| "the warm-up campaign".into())?;
        }
    }
    let mut limit_totals = None;
    if let (true, Some(run)) = (server, limit) {
        limit_totals = Some(measure_limit(tc, run, args).with_context(|| "the limit".into())?);
    }
    let servers = server::pool::idle_pids();
    let cpu_before = cpu_seconds(&servers);
    let stages_before = stages::snapshot();
    let starts_before = compile::starts_of(tc.tool);
    let batch_before = stages::batch_compiles();
    let planned_before = stages::planned();
    let summary = launch_in(dir.to_path_buf());
    let planned = stages::planned() - planned_before;
    let all_starts = compile::starts_of(tc.tool) - starts_before;
    let batch_after = stages::batch_compiles();
    let (starts, calls) = (
        batch_after.0 - batch_before.0,
        batch_after.1 - batch_before.1,
    );
    let stage_times = stages::snapshot().since(&stages_before);
    let cpu_after = cpu_seconds(&server::pool::idle_pids());
    let memory = server.then(|| {
        server::pool::idle_pids()
            .into_iter()
            .filter_map(peak_rss_mb)
            .fold(0.0, f64::max)
    });
    let load = load_average();
    if let (true, Some(run), Some(totals)) = (server, limit, limit_totals.as_mut()) {
        let after = measure_limit(tc, run, args).with_context(|| "the limit".into());
        match after {
            Ok(t) => totals.add(t),
            Err(e) => {
                server::pool::shutdown();
                return Err(e);
            }
        }
    }
    if server {
        server::pool::shutdown();
    }
    let summary = summary.with_context(|| "the campaign".into())?;
    let outcome = &summary.outcome;
    let seconds = outcome.seconds;
    let batches = (outcome.judged as f64 / args.batch_size as f64)
        .ceil()
        .max(1.0);
    let share = |s: Stage| ratio(stage_times.get(s), seconds);
    let plan_seconds = stage_times.get(Stage::Plan);
    let round_seconds = round_seconds(
        seconds,
        outcome.plan_seconds,
        plan_seconds,
        outcome.judged,
        planned,
    );
    let figures = CampaignFigures {
        mode: if server { "server" } else { "process" }.to_string(),
        jobs,
        programs: outcome.judged,
        seconds,
        programs_per_second: rate(outcome.judged as f64, seconds),
        plan_seconds,
        planned,
        round_programs_per_second: rate(outcome.judged as f64, round_seconds),
        of_limit: 0.0,
        cpu_of_limit: 0.0,
        batches: batches as u64,
        starts_per_batch: starts as f64 / batches,
        invocations_per_batch: calls as f64 / batches,
        other_starts: (all_starts as u64).saturating_sub(starts),
        cpu_per_program: (cpu_after - cpu_before) / (outcome.judged.max(1) as f64),
        stages: StageShares {
            seconds: stage_times,
            shares: StageTimes {
                synthesis: share(Stage::Synthesis),
                plan: share(Stage::Plan),
                compile: share(Stage::Compile),
                attribution: share(Stage::Attribution),
                store: share(Stage::Store),
                twins: share(Stage::Twins),
                run: share(Stage::Run),
                files: share(Stage::Files),
                wait: share(Stage::Wait),
            },
        },
        findings: outcome.findings,
        server_memory_mb: memory,
        load,
        verdicts: verdicts(&summary.dir),
    };
    Ok((figures, limit_totals))
}

/// Verdict per program key in a run directory's results.
fn verdicts(dir: &Path) -> BTreeMap<String, String> {
    let text =
        std::fs::read_to_string(dir.join(crate::campaign::records::RESULTS)).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|r| {
            Some((
                r.get("key")?.as_str()?.to_string(),
                r.get("verdict")?.as_str()?.to_string(),
            ))
        })
        .collect()
}

/// CPU seconds so far of this process, of its finished children, and of the processes
/// `pids` (live compile servers).
fn cpu_seconds(pids: &[u32]) -> f64 {
    let usage = |who| {
        // SAFETY: getrusage(2) fills the struct it is given; a zeroed rusage is a valid value
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `u` is a valid, writable rusage
        if unsafe { libc::getrusage(who, &mut u) } != 0 {
            return 0.0;
        }
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
        t(u.ru_utime) + t(u.ru_stime)
    };
    let own = usage(libc::RUSAGE_SELF) + usage(libc::RUSAGE_CHILDREN);
    // SAFETY: sysconf(3) reads a constant
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let live: f64 = pids
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|stat| {
            // the fields after the command (which may hold spaces), from the state on
            let rest = stat.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let utime: f64 = f.get(11)?.parse().ok()?;
            let stime: f64 = f.get(12)?.parse().ok()?;
            Some((utime + stime) / ticks)
        })
        .sum();
    own + live
}

/// The peak resident memory of process `pid` in MiB (`VmHWM`).
fn peak_rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// `n / seconds`, 0 for no time.
fn rate(n: f64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        n / seconds
    } else {
        0.0
    }
}

/// A campaign's wall seconds with its plans' time charged per program of their rounds: its
/// clock saw `plan_in` seconds of plans (a later round's; the first round's is made before the
/// clock starts), of `plan` seconds in all that planned `planned` programs, of which `judged`
/// programs pay their share.
fn round_seconds(seconds: f64, plan_in: f64, plan: f64, judged: u64, planned: u64) -> f64 {
    if planned == 0 {
        return seconds;
    }
    let share = (judged as f64 / planned as f64).min(1.0);
    (seconds - plan_in + plan * share).max(0.0)
}

/// `a / b`, 0 when `b` is 0.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// The column titles of a compiler's table.
const HEADERS: [&str; 19] = [
    "programs",
    "run",
    "prog/s",
    "prog/s per round",
    "of limit",
    "of limit (CPU)",
    "starts/batch",
    "calls/batch",
    "CPU s/prog",
    "synthesis",
    "plan",
    "compile",
    "attribution",
    "store",
    "twins",
    "files",
    "wait",
    "memory/server",
    "load",
];

impl ModeFigures {
    /// The rows of this mode: the limit, then each campaign.
    fn rows(&self) -> Vec<[String; 19]> {
        let pct = |x: f64| format!("{:.0} %", x * 100.0);
        let mut rows = vec![[
            self.mode.clone(),
            "limit (bare, warm)".to_string(),
            format!("{:.1}", self.limit.programs_per_second),
            format!("{:.1}", self.limit.programs_per_second),
            "100 %".to_string(),
            "100 %".to_string(),
            "-".to_string(),
            format!("{:.2} runs", self.limit.runs_per_batch),
            self.limit
                .cpu_per_program
                .map_or("-".to_string(), |c| format!("{c:.3}")),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            format!("{:.1}", self.limit.load),
        ]];
        for c in &self.campaigns {
            let s = &c.stages.shares;
            rows.push([
                self.mode.clone(),
                format!(
                    "campaign, {}, {} job{}",
                    c.mode,
                    c.jobs,
                    if c.jobs == 1 { "" } else { "s" }
                ),
                format!("{:.1}", c.programs_per_second),
                format!("{:.1}", c.round_programs_per_second),
                pct(c.of_limit),
                pct(c.cpu_of_limit),
                format!("{:.2}", c.starts_per_batch),
                format!("{:.2}", c.invocations_per_batch),
                format!("{:.3}", c.cpu_per_program),
                pct(s.synthesis),
                pct(s.plan),
                pct(s.compile),
                pct(s.attribution),
                pct(s.store),
                pct(s.twins),
                pct(s.files),
                pct(s.wait),
                c.server_memory_mb
                    .map_or("-".to_string(), |m| format!("{m:.0} MiB")),
                format!("{:.1}", c.load),
            ]);
        }
        rows
    }
}

impl CompilerFigures {
    /// The line under a compiler's table: verdict agreement and expectations.
    fn verdict_line(&self) -> String {
        let parts: Vec<String> = self
            .modes
            .iter()
            .map(|m| {
                let agree = if m.disagreements == 0 {
                    "the campaigns agree on every verdict".to_string()
                } else {
                    format!("{} verdicts differ between campaigns", m.disagreements)
                };
                format!(
                    "{}: {} programs in {} batches, {agree}, {} not as expected",
                    m.mode, m.programs, m.batches, m.unexpected
                )
            })
            .collect();
        parts.join("; ")
    }
}

impl CompileBenchReport {
    /// The settings line.
    fn settings(&self) -> String {
        let jobs: Vec<String> = self.jobs.iter().map(usize::to_string).collect();
        format!(
            "{} programs per compiler and mode from {} (seed {}), batches of {}, {} core(s), \
             campaigns with {} job(s); {} warm-up campaign(s); limit: {} timed pass(es) before the \
             measured server campaign and as many after, on its server; fastest of {} \
             run(s); load {:.1} at the start, {:.1} at the end",
            self.count,
            self.api,
            self.seed,
            self.batch_size,
            self.cores,
            jobs.join(" and "),
            self.warm_up,
            self.passes,
            self.repeat,
            self.load[0],
            self.load[1]
        )
    }

    /// The report as aligned text tables, one per compiler.
    pub fn table(&self) -> String {
        let mut s = self.settings() + "\n";
        for c in &self.compilers {
            let rows: Vec<[String; 19]> = c.modes.iter().flat_map(ModeFigures::rows).collect();
            let mut widths = HEADERS.map(|h| h.chars().count());
            for r in &rows {
                for (w, cell) in widths.iter_mut().zip(r) {
                    *w = (*w).max(cell.chars().count());
                }
            }
            let line = |cells: &[String]| {
                let parts: Vec<String> = cells
                    .iter()
                    .zip(widths)
                    .map(|(cell, w)| format!("{cell:w$}"))
                    .collect();
                parts.join("  ").trim_end().to_string() + "\n"
            };
            s.push_str(&format!("\n{} (run plan: {})\n", c.compiler, c.run_plan));
            s.push_str(&line(&HEADERS.map(String::from)));
            for r in &rows {
                s.push_str(&line(r));
            }
            s.push_str(&c.verdict_line());
            s.push('\n');
        }
        s
    }

    /// The tables in Markdown, one per compiler.
    pub fn markdown(&self) -> String {
        let mut s = self.settings() + ".\n";
        for c in &self.compilers {
            s.push_str(&format!(
                "\n### {} (run plan: {})\n\n",
                c.compiler, c.run_plan
            ));
            s.push_str(&format!("| {} |\n", HEADERS.join(" | ")));
            s.push_str(&format!("|{}\n", " --- |".repeat(HEADERS.len())));
            for m in &c.modes {
                for r in m.rows() {
                    s.push_str(&format!("| {} |\n", r.join(" | ")));
                }
            }
            s.push_str(&format!("\n{}.\n", c.verdict_line()));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn campaign(mode: &str, rate: f64, round_rate: f64, of_limit: f64) -> CampaignFigures {
        CampaignFigures {
            mode: mode.to_string(),
            jobs: 1,
            programs: 100,
            programs_per_second: rate,
            round_programs_per_second: round_rate,
            of_limit,
            starts_per_batch: 1.0,
            ..CampaignFigures::default()
        }
    }

    #[test]
    fn a_round_plan_is_charged_per_program_of_its_round() {
        // 10 s on the clock, of which 2 s planned a round of 1,000 programs; 100 judged pay
        // a tenth
        assert!((round_seconds(10.0, 2.0, 2.0, 100, 1000) - 8.2).abs() < 1e-9);
        // the plan made before the clock started: 100 programs pay a tenth of it on top
        assert!((round_seconds(10.0, 0.0, 2.0, 100, 1000) - 10.2).abs() < 1e-9);
        // no plan: the wall time; the whole round judged: all of the plan
        assert_eq!(round_seconds(10.0, 0.0, 0.0, 100, 0), 10.0);
        assert_eq!(round_seconds(10.0, 0.0, 2.0, 1000, 1000), 12.0);
    }

    #[test]
    fn the_tables_give_each_campaigns_rate_and_its_share_of_the_limit() {
        let report = CompileBenchReport {
            api: CORPUS.to_string(),
            count: 100,
            batch_size: 100,
            seed: 1,
            warm_up: 2,
            passes: 2,
            jobs: vec![1],
            repeat: 1,
            cores: 2,
            load: [1.0, 1.0],
            compilers: vec![CompilerFigures {
                compiler: "groovyc 5.1.3".into(),
                tool: "groovy".into(),
                version: "5.1.3".into(),
                language: "groovy".into(),
                run_plan: "apart".into(),
                modes: vec![ModeFigures {
                    mode: "ill-typed".into(),
                    programs: 100,
                    batches: 1,
                    limit: LimitFigures {
                        programs_per_second: 40.0,
                        ..LimitFigures::default()
                    },
                    campaigns: vec![
                        campaign("process", 9.0, 10.0, 0.25),
                        campaign("server", 30.0, 34.0, 0.85),
                    ],
                    disagreements: 0,
                    unexpected: 0,
                }],
            }],
            skipped: Vec::new(),
        };
        let table = report.table();
        let row = |needle: &str| {
            table
                .lines()
                .find(|l| l.contains(needle))
                .unwrap_or_else(|| panic!("no row {needle} in\n{table}"))
                .to_string()
        };
        assert!(row("of limit").contains("prog/s"), "{table}");
        assert!(row("limit (bare, warm)").contains("40.0"), "{table}");
        let process = row("campaign, process, 1 job");
        assert!(
            process.contains("10.0") && process.contains("25 %"),
            "{process}"
        );
        let server = row("campaign, server, 1 job");
        assert!(
            server.contains("34.0") && server.contains("85 %"),
            "{server}"
        );
        let md = report.markdown();
        assert!(
            md.contains("| ill-typed | campaign, server, 1 job | 30.0 | 34.0 | 85 % |"),
            "{md}"
        );
    }
}
