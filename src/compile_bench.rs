//! `thalia bench compile`: programs checked per second per compiler, a fresh process per batch
//! against the warm compile server.
//!
//! For each compiler, programs are synthesized in its language from the embedded `java.base`
//! API (half ill-typed, half well-typed) and compiled in batches three times: with a fresh
//! compiler process per invocation (`process`), on a freshly started compile server with its
//! start-up included (`server`), and again on that same server, which the previous pass warmed
//! up (`warm`). The per-file verdicts of the three passes must agree; the report counts the
//! files where they do not, and the files whose verdict is not the one synthesis expected.
//! With `--repeat`, each column is the fastest of several runs, which filters out other load
//! on a busy machine.

use std::collections::{BTreeMap, BTreeSet};
use std::mem::discriminant;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::api::Api;
use crate::compile::{CompileOptions, Compiler, Mode, Verdict};
use crate::synth::{self, Selection, SynthConfig, SynthContext};
use crate::toolchain::{self, Tool, Toolchain, ToolchainError};

/// The embedded API the programs are drawn from.
const CORPUS: &str = "java.base";

/// Disagreeing files named on stderr and in the JSON report, at most.
const SHOWN_DISAGREEMENTS: usize = 10;

/// Options of `thalia bench compile`.
#[derive(Debug, Clone)]
pub struct CompileBenchArgs {
    /// Compilers to measure (`NAME[@VERSION]`, repeatable; default: every installed one, the
    /// newest version of each; javac is installed from the running JDK when missing).
    pub compilers: Vec<String>,
    /// Programs per compiler, synthesized from the embedded `java.base` in the compiler's
    /// language: half ill-typed, half well-typed.
    pub count: usize,
    /// Files per compiler invocation (a batch never mixes ill-typed and well-typed files).
    pub batch_size: usize,
    /// Seed of the synthesized programs.
    pub seed: u64,
    /// Timed passes over the programs on the warm server (the server pass before them, whose
    /// time includes the start-up, is their warm-up); the warm figure covers all of them. The
    /// JIT keeps compiling the compiler for dozens of requests, so one pass is not yet warm.
    pub warm_passes: usize,
    /// Measure every compiler this many times and keep each column's fastest run (on a busy
    /// machine other load only ever slows a run down).
    pub repeat: usize,
    /// Per-program time budget in seconds, as for `thalia check` (an invocation on n programs
    /// gets 1 + 0.1 × (n − 1) budgets).
    pub timeout: f64,
    /// Write the programs and classes into DIR and keep them (default: a temporary directory,
    /// removed at the end).
    pub dir: Option<PathBuf>,
}

/// The figures of one timed pass over every program.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PassFigures {
    /// Wall-clock seconds of the pass (server start-up included where the server started).
    pub seconds: f64,
    /// Compiler invocations (a failing batch is compiled again without its rejected files).
    pub calls: usize,
    /// Programs judged per second.
    pub programs_per_second: f64,
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
    /// Programs compiled per pass.
    pub programs: usize,
    /// Of which ill-typed.
    pub ill_typed: usize,
    /// Of which well-typed.
    pub well_typed: usize,
    /// A fresh compiler process per invocation (the fastest of the repeated runs).
    pub process: PassFigures,
    /// A fresh compile server, its start-up included (the fastest of the repeated runs).
    pub server: PassFigures,
    /// The same server after that pass, all warm passes together (the fastest of the
    /// repeated runs).
    pub warm: PassFigures,
    /// `server` programs/s over `process` programs/s.
    pub server_speedup: f64,
    /// `warm` programs/s over `process` programs/s.
    pub warm_speedup: f64,
    /// Most server processes started during one run's server and warm passes (1 unless it
    /// was restarted).
    pub server_starts: usize,
    /// Files whose verdict kind (accepted, rejected, crash, timeout) differs between any two
    /// passes.
    pub disagreements: usize,
    /// The first disagreeing files, with their verdict per pass.
    pub disagreeing: Vec<String>,
    /// Files whose process verdict is not the expected one (well-typed accepted, ill-typed
    /// rejected), crashes and timeouts included.
    pub unexpected: usize,
    /// Process verdicts that are crashes.
    pub crashes: usize,
    /// Process verdicts that are timeouts.
    pub timeouts: usize,
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
    /// Programs asked for per compiler.
    pub count: usize,
    /// Files per compiler invocation.
    pub batch_size: usize,
    /// Seed of the programs.
    pub seed: u64,
    /// Timed warm passes.
    pub warm_passes: usize,
    /// Runs per compiler; each column is the fastest of them.
    pub repeat: usize,
    /// Cores available to this process.
    pub cores: usize,
    /// Per compiler.
    pub compilers: Vec<CompilerFigures>,
    /// Compilers left out.
    pub skipped: Vec<Skipped>,
}

/// Programs of one mode in one directory: a batch never mixes two groups, because their
/// files have the same names and packages.
struct Group {
    mode: synth::Mode,
    files: Vec<PathBuf>,
}

/// Verdicts of one pass, keyed `mode/file`.
type Verdicts = BTreeMap<String, Verdict>;

/// A problem running the benchmark: what failed, and why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BenchError(String);

/// The benchmark's results.
type Result<T, E = BenchError> = std::result::Result<T, E>;

/// Says what failed around an error or a missing value.
trait Context<T> {
    /// The error, prefixed with `what`.
    fn context(self, what: &str) -> Result<T>;
    /// The error, prefixed with what `what` says.
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T, E: std::fmt::Display> Context<T> for std::result::Result<T, E> {
    fn context(self, what: &str) -> Result<T> {
        self.map_err(|e| BenchError(format!("{what}: {e}")))
    }
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| BenchError(format!("{}: {e}", what())))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: &str) -> Result<T> {
        self.ok_or_else(|| BenchError(what.to_string()))
    }
    fn with_context(self, what: impl FnOnce() -> String) -> Result<T> {
        self.ok_or_else(|| BenchError(what()))
    }
}

/// Returns a [`BenchError`] from the enclosing function.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err(BenchError(format!($($arg)*)))
    };
}

/// Runs the benchmark (progress and notes on stderr) and returns its report.
pub fn run(args: &CompileBenchArgs) -> Result<CompileBenchReport> {
    if args.count < 2 {
        bail!("-n must be at least 2 (half ill-typed, half well-typed programs)");
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
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
            temp = tempfile::tempdir().context("cannot create a temporary directory")?;
            temp.path().to_path_buf()
        }
    };
    let mut api = crate::embedded::embedded_corpus(CORPUS)
        .with_context(|| format!("no embedded API named `{CORPUS}`"))?;
    let ctx = SynthContext::new(&mut api);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut figures = Vec::new();
    for tc in &toolchains {
        let label = display_name(tc);
        let groups = synthesize(&api, &ctx, tc.tool, args, cores, &root)
            .with_context(|| format!("{label}: cannot synthesize the programs"))?;
        let f = measure(
            tc,
            &groups,
            args,
            &root.join("classes").join(tc.tool.name()),
        )
        .with_context(|| format!("{label}: benchmark failed"))?;
        figures.push(f);
    }
    let report = CompileBenchReport {
        api: format!("@{CORPUS}"),
        count: args.count,
        batch_size: args.batch_size.max(1),
        seed: args.seed,
        warm_passes: args.warm_passes.max(1),
        repeat: args.repeat.max(1),
        cores,
        compilers: figures,
        skipped,
    };
    Ok(report)
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

/// Writes `args.count` programs in the compiler's language (ill-typed first, then
/// well-typed) under `root` and returns them by mode.
fn synthesize(
    api: &Api,
    ctx: &SynthContext,
    tool: Tool,
    args: &CompileBenchArgs,
    jobs: usize,
    root: &Path,
) -> Result<Vec<Group>> {
    let lang = tool.profile().language;
    let ill = args.count / 2;
    let mut groups = Vec::new();
    for (mode, n) in [
        (synth::Mode::IllTyped, ill),
        (synth::Mode::WellTyped, args.count - ill),
    ] {
        let spinner = ProgressBar::new_spinner().with_message(format!(
            "synthesizing {n} {} {lang} programs",
            mode.as_str()
        ));
        spinner.enable_steady_tick(Duration::from_millis(120));
        let cfg = SynthConfig {
            mode,
            lang,
            ..SynthConfig::default()
        };
        let run = synth::Run {
            api,
            ctx,
            cfg: &cfg,
            seed: args.seed,
            jobs,
        };
        let plan = run.plan();
        let mut built = run.build(&plan, &Selection::First(n), &|| {});
        let summary = synth::summarize(api, &plan, &built);
        let out = root
            .join("programs")
            .join(format!("{}-{}", tool.name(), mode.as_str()));
        let written = synth::output::write_run(
            &out,
            lang,
            &mut built,
            args.seed,
            &format!("@{CORPUS}"),
            &cfg,
            &summary,
        )
        .with_context(|| {
            format!(
                "cannot write {} programs to {}",
                mode.as_str(),
                out.display()
            )
        })?;
        spinner.finish_and_clear();
        let refused: BTreeSet<&str> = written
            .untranslatable
            .iter()
            .map(|(id, _)| id.as_str())
            .collect();
        let files: Vec<PathBuf> = built
            .iter()
            .filter(|s| !refused.contains(s.record.id.as_str()))
            .map(|s| out.join(&s.record.file))
            .collect();
        if files.len() < n {
            eprintln!(
                "note: {}: {} {} programs instead of {n} ({} untranslatable)",
                tool.name(),
                files.len(),
                mode.as_str(),
                refused.len()
            );
        }
        groups.push(Group { mode, files });
    }
    if groups.iter().all(|g| g.files.is_empty()) {
        bail!("no program was synthesized");
    }
    Ok(groups)
}

/// The three passes over `groups` with one compiler.
fn measure(
    tc: &Toolchain,
    groups: &[Group],
    args: &CompileBenchArgs,
    classes: &Path,
) -> Result<CompilerFigures> {
    let label = display_name(tc);
    let opts = CompileOptions {
        timeout: Duration::from_secs_f64(args.timeout),
        ..Default::default()
    };
    let programs: usize = groups.iter().map(|g| g.files.len()).sum();
    let ctx = PassContext {
        label: &label,
        groups,
        batch: args.batch_size.max(1),
        classes,
        opts: &opts,
        programs,
    };

    let repeat = args.repeat.max(1);
    let warm_passes = args.warm_passes.max(1);
    // every pass's verdicts, named; the first is the reference
    let mut runs: Vec<(String, Verdicts)> = Vec::new();
    let mut best: [Option<PassFigures>; 3] = [None, None, None];
    let mut server_starts = 0;
    for r in 1..=repeat {
        let round = |phase: &str| {
            if repeat > 1 {
                format!("{phase} #{r}")
            } else {
                phase.to_string()
            }
        };
        let mut process = Compiler::new(tc, Mode::Process);
        let name = round("process");
        let (f, v) = ctx
            .pass(&mut process, &name)
            .with_context(|| format!("{name} pass"))?;
        keep_fastest(&mut best[0], f);
        runs.push((name, v));

        let mut server = Compiler::new(tc, Mode::Server);
        let name = round("server");
        let (f, v) = ctx
            .pass(&mut server, &name)
            .with_context(|| format!("{name} pass (start-up included)"))?;
        keep_fastest(&mut best[1], f);
        runs.push((name, v));

        let mut warm = PassFigures::default();
        for i in 1..=warm_passes {
            let name = round(&format!("warm-{i}"));
            let (f, v) = ctx
                .pass(&mut server, &name)
                .with_context(|| format!("{name} pass"))?;
            warm.seconds += f.seconds;
            warm.calls += f.calls;
            runs.push((name, v));
        }
        warm.programs_per_second = rate(programs * warm_passes, warm.seconds);
        keep_fastest(&mut best[2], warm);
        let starts = server.server_mut().map_or(0, |s| s.starts());
        server_starts = server_starts.max(starts);
        if starts > 1 {
            eprintln!(
                "note: {label}: the server was started {starts} times (restarted at its \
                 heap ceiling, request limit, or after dying): warm figures include restarts"
            );
        }
    }
    let [process_fig, server_fig, warm_fig] = best.map(Option::unwrap_or_default);
    let by_process = runs.first().map(|(_, v)| v.clone()).unwrap_or_default();

    // every file: the same kind of verdict in every pass
    let mut keys: BTreeSet<&String> = BTreeSet::new();
    for (_, v) in &runs {
        keys.extend(v.keys());
    }
    let mut disagreeing = Vec::new();
    let mut disagreements = 0;
    for k in keys {
        let p = by_process.get(k).map(discriminant);
        if runs.iter().all(|(_, v)| v.get(k).map(discriminant) == p) {
            continue;
        }
        disagreements += 1;
        if disagreeing.len() < SHOWN_DISAGREEMENTS {
            let shown: Vec<String> = runs
                .iter()
                .map(|(name, v)| format!("{name} {}", kind(v.get(k))))
                .collect();
            disagreeing.push(format!("{k}: {}", shown.join(", ")));
        }
    }
    for d in &disagreeing {
        eprintln!("warning: {label}: verdicts differ: {d}");
    }
    let mut unexpected = 0;
    let mut crashes = 0;
    let mut timeouts = 0;
    for g in groups {
        for f in &g.files {
            let v = by_process.get(&key(g.mode, f));
            let ok = match v {
                Some(v) if g.mode == synth::Mode::WellTyped => v.is_accepted(),
                Some(v) => matches!(v, Verdict::Rejected { .. }),
                None => false,
            };
            unexpected += usize::from(!ok);
            crashes += usize::from(kind(v) == "crash");
            timeouts += usize::from(kind(v) == "timeout");
        }
    }
    let count = |m: synth::Mode| {
        groups
            .iter()
            .filter(|g| g.mode == m)
            .map(|g| g.files.len())
            .sum()
    };
    Ok(CompilerFigures {
        compiler: label,
        tool: tc.tool.name().to_string(),
        version: tc.version.clone(),
        language: tc.tool.profile().language.to_string(),
        programs,
        ill_typed: count(synth::Mode::IllTyped),
        well_typed: count(synth::Mode::WellTyped),
        server_speedup: ratio(
            server_fig.programs_per_second,
            process_fig.programs_per_second,
        ),
        warm_speedup: ratio(
            warm_fig.programs_per_second,
            process_fig.programs_per_second,
        ),
        process: process_fig,
        server: server_fig,
        warm: warm_fig,
        server_starts,
        disagreements,
        disagreeing,
        unexpected,
        crashes,
        timeouts,
    })
}

/// What every pass of one compiler shares.
struct PassContext<'a> {
    label: &'a str,
    groups: &'a [Group],
    batch: usize,
    classes: &'a Path,
    opts: &'a CompileOptions,
    programs: usize,
}

impl PassContext<'_> {
    /// Compiles every group in batches with `compiler`; the time runs from the first batch
    /// (a server compiler starts its server there) to the last verdict.
    fn pass(&self, compiler: &mut Compiler, phase: &str) -> Result<(PassFigures, Verdicts)> {
        let bar = ProgressBar::new(self.programs as u64)
            .with_prefix(format!("{} {phase}", self.label))
            .with_style(
                ProgressStyle::with_template(
                    "{prefix} [{elapsed_precise}] {bar:30} {pos}/{len} programs ({per_sec})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        let mut verdicts = Verdicts::new();
        let mut calls = 0;
        let start = Instant::now();
        for g in self.groups {
            for (i, chunk) in g.files.chunks(self.batch).enumerate() {
                // fresh output directories: no pass sees classes of an earlier one
                let out = self
                    .classes
                    .join(phase)
                    .join(format!("{}-{i}", g.mode.as_str()));
                let r = compiler
                    .compile_batch(chunk, &out, self.opts)
                    .with_context(|| format!("{} batch {i}", g.mode.as_str()))?;
                calls += r.calls;
                for (file, v) in r.verdicts {
                    verdicts.insert(format!("{}/{file}", g.mode.as_str()), v);
                }
                bar.inc(chunk.len() as u64);
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        bar.finish_and_clear();
        let rate = rate(self.programs, seconds);
        eprintln!(
            "{} {phase}: {} programs in {seconds:.1} s ({rate:.1} programs/s, {calls} compiler calls)",
            self.label, self.programs
        );
        Ok((
            PassFigures {
                seconds,
                calls,
                programs_per_second: rate,
            },
            verdicts,
        ))
    }
}

/// The verdict key of a file.
fn key(mode: synth::Mode, file: &Path) -> String {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{}/{name}", mode.as_str())
}

/// The kind of a verdict (`accepted`, `rejected`, `crash`, `timeout`), `missing` for none.
fn kind(v: Option<&Verdict>) -> &'static str {
    v.map_or("missing", Verdict::label)
}

/// Keeps the faster of two figures of the same pass (other load only ever slows a pass).
fn keep_fastest(best: &mut Option<PassFigures>, f: PassFigures) {
    if best.as_ref().is_none_or(|b| f.seconds < b.seconds) {
        *best = Some(f);
    }
}

/// `n / seconds`, 0 for no time.
fn rate(n: usize, seconds: f64) -> f64 {
    if seconds > 0.0 {
        n as f64 / seconds
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

impl CompilerFigures {
    /// The cells of its table row: compiler, programs, process, server, warm, verdicts.
    fn cells(&self, unit: &str) -> [String; 6] {
        let verdicts = if self.disagreements == 0 {
            "agree".to_string()
        } else {
            format!("{} differ", self.disagreements)
        };
        [
            self.compiler.clone(),
            self.programs.to_string(),
            format!("{:.1} {unit}", self.process.programs_per_second),
            format!(
                "{:.1} {unit} ({:.1}×)",
                self.server.programs_per_second, self.server_speedup
            ),
            format!(
                "{:.1} {unit} ({:.1}×)",
                self.warm.programs_per_second, self.warm_speedup
            ),
            format!(
                "{verdicts}; {}/{} as expected",
                self.programs - self.unexpected.min(self.programs),
                self.programs
            ),
        ]
    }
}

/// The column titles of the table.
const HEADERS: [&str; 6] = [
    "compiler",
    "programs",
    "process",
    "server, start-up included",
    "server, warm",
    "verdicts",
];

impl CompileBenchReport {
    /// The report as an aligned text table.
    pub fn table(&self) -> String {
        let rows: Vec<[String; 6]> = self.compilers.iter().map(|c| c.cells("prog/s")).collect();
        let mut widths = HEADERS.map(|h| h.chars().count());
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let parts: Vec<String> = cells
                .iter()
                .zip(widths)
                .enumerate()
                .map(|(i, (c, w))| {
                    let pad = w.saturating_sub(c.chars().count());
                    if i == 1 {
                        format!("{}{c}", " ".repeat(pad))
                    } else {
                        format!("{c}{}", " ".repeat(pad))
                    }
                })
                .collect();
            parts.join("  ").trim_end().to_string() + "\n"
        };
        let mut s = format!(
            "{} programs per compiler from {} (seed {}, half ill-typed), batches of {}, {} \
             core(s); warm: {} pass(es) after the server pass; fastest of {} run(s)\n",
            self.count,
            self.api,
            self.seed,
            self.batch_size,
            self.cores,
            self.warm_passes,
            self.repeat
        );
        s.push_str(&line(&HEADERS.map(String::from)));
        for r in &rows {
            s.push_str(&line(r));
        }
        s
    }

    /// The table in Markdown.
    pub fn markdown(&self) -> String {
        let mut s = format!("| {} |\n", HEADERS.join(" | "));
        s.push_str(&format!("|{}\n", " --- |".repeat(HEADERS.len())));
        for c in &self.compilers {
            s.push_str(&format!("| {} |\n", c.cells("programs/s").join(" | ")));
        }
        s
    }
}
