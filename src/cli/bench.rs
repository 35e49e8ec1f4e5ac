//! `thalia bench`: the tool's speed.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;
use thalia::extract_bench::{self, ExtractBenchOptions};
use thalia::synth::{self, SynthConfig, SynthContext};

use super::{load_api, parse_threads, print_json, threads};

/// Options of `thalia bench compile`.
#[derive(clap::Args, Debug)]
pub(super) struct CompileBenchCli {
    /// Compilers to measure (`NAME[@VERSION]`, repeatable; default: every installed one, the
    /// newest version of each; javac is installed from the running JDK when missing).
    #[arg(long = "compiler", value_name = "NAME[@VERSION]")]
    compilers: Vec<String>,
    /// Programs per compiler and mode (well-typed, ill-typed), synthesized from the embedded
    /// `java.base` in the compiler's language as a campaign synthesizes them.
    #[arg(short = 'n', long = "count", default_value_t = 300)]
    count: usize,
    /// Programs per compiler invocation (the campaigns' `--batch-size`).
    #[arg(long, default_value_t = 100)]
    batch_size: usize,
    /// Seed of the synthesized programs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Untimed campaigns that warm the compile servers up (the JIT keeps compiling the
    /// compiler for dozens of requests) before the limit and the measured server campaign
    /// (at least one).
    #[arg(long, default_value_t = 2)]
    warm_up: usize,
    /// Timed passes of the limit on the measured campaign's warm server, before the campaign
    /// and as many after it.
    #[arg(long, default_value_t = 2)]
    passes: usize,
    /// Compile workers of the campaigns, a warm server each with `--server`; each number
    /// given is measured (`--jobs 1,2`).
    #[arg(short, long, value_delimiter = ',', default_value = "1")]
    jobs: Vec<usize>,
    /// Measure every compiler this many times and keep each figure's fastest run (on a busy
    /// machine other load only ever slows a run down).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Per-program time budget in seconds, as for `thalia run`.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    timeout: f64,
    /// Write the programs and the campaigns' run directories into DIR and keep them
    /// (default: a temporary directory, removed at the end).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Print the tables as Markdown (as in docs/results/).
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
}

#[derive(Subcommand, Debug)]
pub(super) enum BenchCommand {
    /// Compilation speed against the compiler's limit: per compiler, well-typed and ill-typed
    /// programs apart, a campaign's programs per second (a process per batch, and warm
    /// servers) against the bare warm compiler on the same programs, with compiler starts per
    /// batch, CPU per program and each stage's share of the wall time.
    Compile(CompileBenchCli),
    /// Extraction and graph-construction speed: extract jars (or the JDK with `--jdk`) on
    /// one core, write the API JSON, load it back and build its API graph, timing each step.
    Extract {
        /// Jars to extract.
        inputs: Vec<PathBuf>,
        /// Extract the running JDK's java.base instead.
        #[arg(long)]
        jdk: bool,
        /// Threads for extraction (default 1: the figure is per core).
        #[arg(short, long, default_value_t = 1, value_parser = parse_threads)]
        jobs: usize,
        /// Timed repetitions (the median is reported).
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Synthesis speed: median time of one program on one core, programs per second on all
    /// cores, and peak memory.
    Synth {
        /// Directory of thalia API JSON files; default: the embedded API.
        #[arg(long)]
        api: Option<PathBuf>,
        /// `well-typed` or `ill-typed`.
        #[arg(long, default_value = "well-typed")]
        mode: synth::Mode,
        /// Erase inferable type arguments.
        #[arg(long)]
        erase: bool,
        /// Programs timed one by one on one core.
        #[arg(long, default_value_t = 2000)]
        single: usize,
        /// Programs of the parallel run.
        #[arg(long, default_value_t = 20000)]
        parallel: usize,
        /// Worker threads of the parallel run (default: all cores).
        #[arg(short, long, value_parser = parse_threads)]
        jobs: Option<usize>,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(cmd: BenchCommand) -> Result<ExitCode> {
    match cmd {
        BenchCommand::Compile(a) => {
            let report = thalia::compile_bench::run(&thalia::compile_bench::CompileBenchArgs {
                compilers: a.compilers,
                count: a.count,
                batch_size: a.batch_size,
                seed: a.seed,
                warm_up: a.warm_up,
                passes: a.passes,
                jobs: a.jobs,
                repeat: a.repeat,
                timeout: a.timeout,
                dir: a.dir,
            })?;
            if a.json {
                print_json(&report)?;
            } else if a.markdown {
                print!("{}", report.markdown());
            } else {
                print!("{}", report.table());
            }
        }
        BenchCommand::Extract {
            inputs,
            jdk,
            jobs,
            repeat,
            json,
        } => {
            let report = extract_bench::run(&ExtractBenchOptions {
                inputs,
                jdk,
                jobs,
                repeat,
            })?;
            if json {
                print_json(&report)?;
            } else {
                print!("{}", report.table());
            }
        }
        BenchCommand::Synth {
            api,
            mode,
            erase,
            single,
            parallel,
            jobs,
            seed,
            json,
        } => {
            let (_, mut api) = load_api(api.as_ref())?;
            let cfg = SynthConfig {
                mode,
                erase,
                ..Default::default()
            };
            let t0 = std::time::Instant::now();
            let ctx = SynthContext::new(&mut api);
            let context_seconds = t0.elapsed().as_secs_f64();
            let run = synth::Run {
                api: &api,
                ctx: &ctx,
                cfg: &cfg,
                seed,
                jobs: threads(jobs),
            };
            let report = synth::bench::bench(&run, context_seconds, single, parallel);
            if json {
                print_json(&report)?;
            } else {
                print!("{}", report.table());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
