//! `thalia batch`: a campaign per library × mode over a list of Maven libraries; the flags
//! become a [`BatchOptions`] for `thalia::batch::run`, which fetches the libraries and
//! launches every cell's campaign in this process.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use thalia::batch::run::{BatchEvents, BatchOptions};
use thalia::batch::BatchMode;
use thalia::campaign::interrupt;
use thalia::campaign::launch::Summary;
use thalia::campaign::shard::Shard;
use thalia_extractors::view::View;
use thalia_translators::Language;

use super::progress;

#[derive(Args, Debug)]
pub(super) struct BatchArgs {
    /// The libraries: one `group:artifact:version` a line, `#` comments.
    #[arg(long, default_value = "maven-list.txt")]
    libs: PathBuf,
    /// Language of the programs.
    #[arg(long, default_value = "java")]
    lang: Language,
    /// The compiler: `NAME[@VERSION]` (default: the language's); installed first when
    /// missing.
    #[arg(long)]
    compiler: Option<String>,
    /// Modes to run, each a campaign per library (repeatable; default all four):
    /// `well-typed`, `well-typed-erased`, `ill-typed`, `ill-typed-erased`.
    #[arg(long = "mode")]
    modes: Vec<BatchMode>,
    /// The budget of each library's campaign in each mode: a program count (`300`), a time
    /// (`30m`: a deadline, as `thalia run --budget` says) or `round`.
    #[arg(long, default_value = "300")]
    budget_per_lib: String,
    /// Seed of every campaign (default: the batch directory's when resuming, else random).
    #[arg(long)]
    seed: Option<u64>,
    /// Compiler workers of each campaign (default: half the cores, at least 1).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Programs per compiler invocation.
    #[arg(long, default_value_t = 100)]
    batch_size: usize,
    /// Compile in warm compile servers, one per worker kept for the whole batch (the default
    /// with `--coverage`).
    #[arg(long, conflicts_with = "no_server")]
    server: bool,
    /// Compile in a fresh compiler process per invocation, also with `--coverage` (whose
    /// default is `--server`): the reference the warm servers' coverage is measured against.
    #[arg(long)]
    no_server: bool,
    /// A Maven repository for the libraries and compilers (repeatable; default: the user's
    /// Maven configuration).
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
    /// Run only shard I of N of the batch's library × mode cells (0-based): the cell at
    /// position p (libraries in list order, modes within) belongs to shard p mod N. Shards
    /// may share one batch directory.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Measure the coverage of the compiler under test with JaCoCo (installed through the
    /// Maven resolver): each cell's `jacoco.exec` and reports, `OUT/coverage.csv`, the union
    /// over all libraries.
    #[arg(long)]
    coverage: bool,
    /// The packages coverage is counted on, as JaCoCo class-name patterns (repeatable;
    /// default: the compiler's type checker, e.g. `com.sun.tools.javac.comp*` for javac).
    #[arg(
        long = "coverage-filter",
        value_name = "PATTERN",
        requires = "coverage"
    )]
    coverage_filters: Vec<String>,
    /// Which language's view of each library the campaigns synthesize from: auto (as
    /// `thalia fetch --view auto`, narrowed to the programs' language: the Kotlin view of a
    /// Kotlin library for `--lang kotlin`, the Scala view of a Scala library for `--lang scala`
    /// and `scala2`, else the Java view), java, kotlin or scala.
    #[arg(long, default_value = "auto", value_name = "VIEW")]
    view: View,
    /// The batch directory (resumed when it holds the same batch).
    #[arg(long, short)]
    out: PathBuf,
    /// Do not check each cell's findings on the newest release of the compiler.
    #[arg(long)]
    no_recheck: bool,
    /// Run the programs each compiler accepts in a sandbox and judge how they end, as
    /// `thalia run --run` does (needs bubblewrap).
    #[arg(long)]
    run: bool,
}

/// Prints the end of every cell's campaign as `thalia run` does.
struct Printer;

impl BatchEvents for Printer {
    fn cell_done(&self, summary: &Summary) {
        if let Err(e) = super::campaign::finish(summary) {
            eprintln!("warning: {}", super::render_error(&e));
        }
    }
}

pub(super) fn batch(args: BatchArgs) -> Result<ExitCode> {
    interrupt::install();
    let opts = BatchOptions {
        libs: args.libs,
        lang: args.lang,
        compiler: args.compiler,
        modes: args.modes,
        budget_per_lib: args.budget_per_lib,
        seed: args.seed,
        jobs: args.jobs,
        batch_size: args.batch_size,
        warm: if args.server {
            Some(true)
        } else if args.no_server {
            Some(false)
        } else {
            None
        },
        repos: args.repos,
        shard: args.shard,
        coverage: args.coverage,
        coverage_filters: args.coverage_filters,
        view: args.view,
        out: args.out,
        progress: progress(),
        command: std::env::args().collect(),
        recheck: !args.no_recheck,
        run: args.run,
    };
    let outcome = thalia::batch::run::run(&opts, &Printer)?;
    if let Some(n) = outcome.server_starts {
        eprintln!("compile servers started: {n} (one warm server per worker, kept across cells)");
    }
    if let Some(n) = outcome.interrupted {
        eprintln!("interrupted after {n} programs; run the same command to resume");
        return Ok(ExitCode::from(130));
    }
    print!("{}", outcome.summary.table());
    println!("  summary: {}", outcome.summary_file.display());
    println!("  page: {}", outcome.page.display());
    Ok(ExitCode::SUCCESS)
}
