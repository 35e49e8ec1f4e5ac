//! The command line: argument definitions and dispatch only. Every command's work is done by
//! the library; errors become messages and exit codes here (anyhow).

mod api;
mod batch;
mod bench;
mod bisect;
mod campaign;
mod extract;
mod run;
mod synth;
mod toolchain;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use thalia::api::source::ApiSource;
use thalia::api::Api;

/// thalia finds bugs in compilers' type checkers: it synthesizes small client programs that
/// call real library APIs in well-typed and ill-typed ways, compiles them with the real
/// compilers, and flags every verdict that contradicts the expectation.
#[derive(Parser, Debug)]
#[command(name = "thalia", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Inspect an API (a directory of thalia API JSON files, or the embedded default).
    #[command(subcommand)]
    Api(api::ApiCommand),
    /// Synthesize client programs that exercise every member of an API through distinct
    /// typing sequences (well-typed, or ill-typed with exactly one broken position), and
    /// write them with a `programs.jsonl` manifest of their expected verdicts.
    Synth(synth::SynthArgs),
    /// Resolve Maven coordinates (`group:artifact[:version]`; no version = latest release),
    /// download the jars with their dependencies, extract the requested artifacts' API, and
    /// write `classpath.txt` and `fetch.json` beside it. Repositories come from `--repo`,
    /// `THALIA_MAVEN_REPOS`, `~/.m2/settings.xml`, the Maven installation's settings, and the
    /// central repository that the installed Maven declares.
    Fetch(extract::FetchArgs),
    /// Extract the API of jars, jmods or class directories (or of the running JDK) into thalia
    /// API JSON, one file per class.
    Extract(extract::ExtractArgs),
    /// Run a campaign: synthesize programs from an API in one or more modes, compile them in
    /// batches with a real compiler, judge every verdict against its expectation, and keep
    /// the results and every distinct finding (with a `repro.sh`) in a run directory. A run
    /// directory that exists is resumed.
    Run(campaign::RunArgs),
    /// Judge an already synthesized directory: compile its programs with a real compiler and
    /// compare each verdict with the expectation in its `programs.jsonl`; keeps a results
    /// store like `thalia run` (resumable) and prints the rates and the distinct findings.
    Check(campaign::CheckArgs),
    /// Run one compiled program (and its Java twin) in the sandbox (bubblewrap, no network,
    /// the file system read-only but a throwaway directory) and judge the outcome: a linkage
    /// or verification error is a miscompilation, an exception only the program raises that
    /// its types rule out is unsoundness.
    RunProgram(run::RunProgramArgs),
    /// Merge the run directories of a campaign's shards (`thalia run --shard I/N`) into one
    /// run directory: every program once, findings deduplicated by signature with their
    /// counts summed, manifests combined; refuses runs of different campaigns and the same
    /// shard twice; safe to rerun.
    Merge(campaign::MergeArgs),
    /// Run a campaign per library × mode over a list of Maven libraries: each library is
    /// fetched (its dependencies on the classpath), then synthesized from and compiled in each
    /// mode (well-typed, ill-typed, each with and without erasure) as `thalia run` does, into
    /// `OUT/<library>/<mode>/`; a library that fails is recorded in `OUT/summary.json` and
    /// skipped. Resumable: a finished cell is not redone, an unfinished one resumes.
    Batch(batch::BatchArgs),
    /// Summarize a run directory: programs, verdicts per mode, expectation rates, findings by
    /// kind and signature, throughput.
    Report(campaign::ReportArgs),
    /// Shrink findings' programs (of `run` and `check`, in every language) by a pipeline of
    /// passes over the IR (statements dropped, locals inlined, operands made their smallest
    /// inhabitant, chains collapsed, conditionals cut to a branch, library types made JDK
    /// types, opt-ins dropped) and over the source (short names, compact layout) while the
    /// compiler keeps giving each its signature and the finding's own oracle (the Java twin,
    /// an `--against` compiler) its verdict; writes `reduced/` with the program, its Java
    /// twin, `reduction.json` and a `report.md` into each finding's directory.
    Reduce(campaign::ReduceArgs),
    /// Find the releases of a finding's compiler that show it: lists the published versions
    /// through the Maven resolver, installs releases as needed, compiles the finding's program
    /// as the campaign did, and binary-searches the first release that shows the finding and
    /// the first that no longer does; writes `bisect.json` and the range into `report.md`.
    Bisect(bisect::BisectArgs),
    /// Install, list and run the compilers under test (kotlinc, scalac 3 and 2.13, groovyc from
    /// Maven artifacts through thalia's resolver; javac from the running JDK).
    #[command(subcommand)]
    Toolchain(toolchain::ToolchainCommand),
    /// Measure the tool's speed on a real API and print the figures.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

/// The most worker threads a command accepts (`--jobs`): more only exhausts memory.
const MAX_THREADS: usize = 1024;

/// Parses a thread count between 1 and [`MAX_THREADS`].
fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of threads"))?;
    if n == 0 || n > MAX_THREADS {
        return Err(format!("must be between 1 and {MAX_THREADS}"));
    }
    Ok(n)
}

/// The worker threads to use: `jobs`, or every core.
fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Whether progress bars and install progress are shown (stderr is a terminal).
fn progress() -> bool {
    std::io::stderr().is_terminal()
}

/// Loads the API named by `--api` as it is (a directory without the platform's context),
/// printing the load summary.
fn load_api(arg: Option<&PathBuf>) -> Result<(ApiSource, Api)> {
    let source = ApiSource::from_arg(arg.map(PathBuf::as_path));
    let api = source.load()?;
    report_load(&api, &source);
    Ok((source, api))
}

/// [`load_api`] for programs of language `lang`: the embedded default includes its own
/// corpora (Kotlin's standard library for Kotlin).
fn load_api_for(
    arg: Option<&PathBuf>,
    lang: Option<thalia_translators::Language>,
) -> Result<(ApiSource, Api)> {
    let source = ApiSource::from_arg(arg.map(PathBuf::as_path));
    let native = lang.and_then(|l| thalia::synth::LanguageRules::from(l).native_syntax());
    let api = source.load_for(native)?;
    report_load(&api, &source);
    Ok((source, api))
}

/// Prints the load summary and the first few errors to stderr.
fn report_load(api: &Api, source: &ApiSource) {
    for line in thalia::campaign::launch::load_lines(api, source) {
        eprintln!("{line}");
    }
}

/// Prints a value as pretty JSON.
fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    println!(
        "{}",
        serde_json::to_string_pretty(value).context("cannot print JSON")?
    );
    Ok(())
}

fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Api(cmd) => api::run(cmd),
        Command::Synth(args) => synth::run(args),
        Command::Fetch(args) => extract::fetch(args),
        Command::Extract(args) => extract::extract(args),
        Command::Run(args) => campaign::run(args),
        Command::Check(args) => campaign::check(args),
        Command::RunProgram(args) => run::run_program(args),
        Command::Merge(args) => campaign::merge(args),
        Command::Batch(args) => batch::batch(args),
        Command::Report(args) => campaign::report(args),
        Command::Reduce(args) => campaign::reduce(args),
        Command::Bisect(args) => bisect::run(args),
        Command::Toolchain(cmd) => toolchain::run(cmd),
        Command::Bench(cmd) => bench::run(cmd),
    }
}

/// The error and its causes, leaving out a cause whose text the message already contains
/// (library errors often include their source in their own message).
fn render_error(e: &anyhow::Error) -> String {
    let mut out = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !out.contains(&c) {
            out.push_str(": ");
            out.push_str(&c);
        }
    }
    out
}

/// Parses the command line, runs the command, and maps errors to exit code 2.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", render_error(&e));
            ExitCode::from(2)
        }
    }
}
