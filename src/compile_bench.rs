//! `thalia bench compile`: how close a campaign comes to the compiler's own speed, per
//! compiler, well-typed and ill-typed programs apart.
//!
//! The limit is the bare compiler: the campaign's programs (synthesized from the embedded
//! `java.base` as the campaign's source synthesizes them), compiled batch by batch in one warm
//! JVM by the compiler's [`RunPlan`](crate::profile::RunPlan), one batch after another, timed
//! by the server itself around its compiler runs after `--warm-up` passes: no process start,
//! no synthesis, no attribution, no store, no twins. Against it, two campaigns (`thalia run`
//! of `-n` programs of one mode, twins on, no reduction): one with a fresh compiler process per
//! batch, one with warm compile servers (as many campaigns as the limit has warm-up passes warm
//! the servers up, kept in the [`crate::server::pool`]; the next one is measured). For each: programs per second and their
//! share of the limit, compiler starts and invocations per batch, CPU per program (thalia's and
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
use crate::campaign::launch::{self, LaunchOptions, Programs, SynthPrograms};
use crate::campaign::setup::CompileSettings;
use crate::campaign::source::synth::SynthSource;
use crate::campaign::source::Source;
use crate::compile::{self, CompileOptions};
use crate::server::{self, CompileServer};
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
    /// Untimed passes over the programs that warm the limit's server up.
    pub warm_up: usize,
    /// Timed passes of the limit.
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
    /// Its programs per second over the limit's.
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
    /// Untimed passes of the limit.
    pub warm_up: usize,
    /// Timed passes of the limit.
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
    let programs: usize = batches.iter().map(Vec::len).sum();
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
    for r in 0..args.repeat.max(1) {
        let l = measure_limit(tc, &batches, &opts, args, &dir.join("limit"))
            .with_context(|| "the limit".into())?;
        eprintln!(
            "{label}: limit {:.1} programs/s (load {:.1})",
            l.programs_per_second, l.load
        );
        if limit
            .as_ref()
            .is_none_or(|b| l.programs_per_second > b.programs_per_second)
        {
            limit = Some(l);
        }
        let mut k = 0;
        for &jobs in &args.jobs {
            for server in [false, true] {
                let name = format!("{}-{jobs}-{r}", if server { "server" } else { "process" });
                let c = measure_campaign(tc, mode, args, jobs, server, &dir.join(&name))
                    .with_context(|| format!("the campaign {name}"))?;
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
        c.of_limit = ratio(c.programs_per_second, limit.programs_per_second);
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

/// The programs a campaign of `args.count` programs of `mode` judges, written batch by batch
/// under `dir` (the campaign's source, built as `thalia run` builds it).
fn campaign_programs(
    tc: &Toolchain,
    mode: synth::Mode,
    args: &CompileBenchArgs,
    dir: &Path,
) -> Result<Vec<Vec<PathBuf>>> {
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
        let mut files = Vec::new();
        for c in &batch.candidates {
            let p = bdir.join(&c.file);
            std::fs::write(&p, &c.source).with_context(|| format!("{}", p.display()))?;
            files.push(p);
        }
        batches.push(files);
    }
    if batches.is_empty() {
        bail!("no program was synthesized");
    }
    Ok(batches)
}

/// The bare compiler on `batches`: a fresh server, `args.warm_up` untimed passes, then
/// `args.passes` timed ones; the time is the server's own around its compiler runs.
fn measure_limit(
    tc: &Toolchain,
    batches: &[Vec<PathBuf>],
    opts: &CompileOptions,
    args: &CompileBenchArgs,
    dir: &Path,
) -> Result<LimitFigures> {
    let mut server = CompileServer::start(tc).with_context(|| "cannot start a server".into())?;
    let plan = tc.tool.profile().run_plan;
    let passes = args.passes.max(1);
    let mut nanos: u64 = 0;
    let mut cpu: Option<u64> = Some(0);
    let mut runs = 0usize;
    for pass in 0..args.warm_up + passes {
        for (i, files) in batches.iter().enumerate() {
            // a fresh output directory, emptied after the request (outside the server's time)
            let out = dir.join(format!("{pass}-{i}"));
            std::fs::create_dir_all(&out).with_context(|| format!("{}", out.display()))?;
            let compiler_args =
                compile::compiler_args(tc.tool, opts.classpath.as_deref(), &out, files);
            let run = server
                .compile_planned(
                    &compiler_args,
                    Some((plan, files.len())),
                    opts.deadline(files.len()),
                )
                .with_context(|| format!("batch {i}"))?;
            if run.timed_out {
                bail!("batch {i} did not finish in time");
            }
            if pass >= args.warm_up {
                nanos += run.nanos;
                cpu = cpu.zip(run.cpu_nanos).map(|(a, b)| a + b);
                runs += run.output.matches("\u{1e}thalia-run ").count();
            }
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    let programs: usize = batches.iter().map(Vec::len).sum::<usize>() * passes;
    let seconds = nanos as f64 / 1e9;
    Ok(LimitFigures {
        seconds: seconds / passes as f64,
        programs_per_second: rate(programs as f64, seconds),
        cpu_per_program: cpu.map(|c| c as f64 / 1e9 / programs.max(1) as f64),
        runs_per_batch: runs as f64 / (batches.len() * passes).max(1) as f64,
        load: load_average(),
    })
}

/// A campaign of `args.count` programs of `mode` in `dir` with `jobs` workers, in server mode
/// after `args.warm_up` warm-up campaigns (at least one) on the same pooled servers.
fn measure_campaign(
    tc: &Toolchain,
    mode: synth::Mode,
    args: &CompileBenchArgs,
    jobs: usize,
    server: bool,
    dir: &Path,
) -> Result<CampaignFigures> {
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
        // as warm as the limit's server: one warm-up campaign per warm-up pass of the limit
        for k in 0..args.warm_up.max(1) {
            launch_in(dir.with_extension(format!("warm-up{k}")))
                .with_context(|| "the warm-up campaign".into())?;
        }
    }
    let servers = server::pool::idle_pids();
    let cpu_before = cpu_seconds(&servers);
    let stages_before = stages::snapshot();
    let starts_before = compile::starts_of(tc.tool);
    let batch_before = stages::batch_compiles();
    let summary = launch_in(dir.to_path_buf());
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
    Ok(CampaignFigures {
        mode: if server { "server" } else { "process" }.to_string(),
        jobs,
        programs: outcome.judged,
        seconds,
        programs_per_second: rate(outcome.judged as f64, seconds),
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
                compile: share(Stage::Compile),
                attribution: share(Stage::Attribution),
                store: share(Stage::Store),
                twins: share(Stage::Twins),
                run: share(Stage::Run),
            },
        },
        findings: outcome.findings,
        server_memory_mb: memory,
        load,
        verdicts: verdicts(&summary.dir),
    })
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

/// `a / b`, 0 when `b` is 0.
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// The column titles of a compiler's table.
const HEADERS: [&str; 15] = [
    "programs",
    "run",
    "prog/s",
    "of limit",
    "of limit (CPU)",
    "starts/batch",
    "calls/batch",
    "CPU s/prog",
    "synthesis",
    "compile",
    "attribution",
    "store",
    "twins",
    "memory/server",
    "load",
];

impl ModeFigures {
    /// The rows of this mode: the limit, then each campaign.
    fn rows(&self) -> Vec<[String; 15]> {
        let pct = |x: f64| format!("{:.0} %", x * 100.0);
        let mut rows = vec![[
            self.mode.clone(),
            "limit (bare, warm)".to_string(),
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
                pct(c.of_limit),
                pct(c.cpu_of_limit),
                format!("{:.2}", c.starts_per_batch),
                format!("{:.2}", c.invocations_per_batch),
                format!("{:.3}", c.cpu_per_program),
                pct(s.synthesis),
                pct(s.compile),
                pct(s.attribution),
                pct(s.store),
                pct(s.twins),
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
             campaigns with {} job(s); limit: {} warm-up and {} timed pass(es); fastest of {} \
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
            let rows: Vec<[String; 15]> = c.modes.iter().flat_map(ModeFigures::rows).collect();
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

    fn campaign(mode: &str, rate: f64, of_limit: f64) -> CampaignFigures {
        CampaignFigures {
            mode: mode.to_string(),
            jobs: 1,
            programs: 100,
            programs_per_second: rate,
            of_limit,
            starts_per_batch: 1.0,
            ..CampaignFigures::default()
        }
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
                        campaign("process", 10.0, 0.25),
                        campaign("server", 34.0, 0.85),
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
            md.contains("| ill-typed | campaign, server, 1 job | 34.0 | 85 % |"),
            "{md}"
        );
    }
}
