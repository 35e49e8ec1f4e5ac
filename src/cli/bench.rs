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
    /// Programs per compiler, synthesized from the embedded `java.base` in the compiler's
    /// language: half ill-typed, half well-typed.
    #[arg(short = 'n', long = "count", default_value_t = 120)]
    count: usize,
    /// Files per compiler invocation (a batch never mixes ill-typed and well-typed files).
    #[arg(long, default_value_t = 20)]
    batch_size: usize,
    /// Seed of the synthesized programs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Timed passes over the programs on the warm server (the server pass before them, whose
    /// time includes the start-up, is their warm-up); the warm figure covers all of them. The
    /// JIT keeps compiling the compiler for dozens of requests, so one pass is not yet warm.
    #[arg(long, default_value_t = 3)]
    warm_passes: usize,
    /// Measure every compiler this many times and keep each column's fastest run (on a busy
    /// machine other load only ever slows a run down).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Per-program time budget in seconds, as for `thalia check` (an invocation on n programs
    /// gets 1 + 0.1 × (n − 1) budgets).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    timeout: f64,
    /// Write the programs and classes into DIR and keep them (default: a temporary directory,
    /// removed at the end).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Print the table as Markdown (as in docs/results/).
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
}

#[derive(Subcommand, Debug)]
pub(super) enum BenchCommand {
    /// Compilation speed: programs checked per second by each compiler, a fresh process per
    /// batch against the warm compile server (start-up included, and warm).
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
                warm_passes: a.warm_passes,
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
