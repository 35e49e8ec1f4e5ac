//! The `thalia` command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use thalia::api::Api;
use thalia::embedded::{embedded_api, EMBEDDED_LABEL};
use thalia::graph::ApiGraph;
use thalia::stats::GraphStats;

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
    Api(ApiCommand),
    /// Synthesize client programs that exercise every member of an API through distinct
    /// typing sequences (well-typed, or ill-typed with exactly one broken position), and
    /// write them with a `programs.jsonl` manifest of their expected verdicts.
    Synth(SynthArgs),
    /// Resolve Maven coordinates (`group:artifact[:version]`; no version = latest release),
    /// download the jars with their dependencies, extract the requested artifacts' API, and
    /// write `classpath.txt` and `fetch.json` beside it. Repositories come from `--repo`,
    /// `THALIA_MAVEN_REPOS`, `~/.m2/settings.xml`, the Maven installation's settings, and the
    /// central repository that the installed Maven declares.
    Fetch(FetchArgs),
    /// Extract the API of jars, jmods or class directories (or of the running JDK) into thalia
    /// API JSON, one file per class.
    Extract(ExtractArgs),
    /// Run a campaign: synthesize programs from an API in one or more modes, compile them in
    /// batches with a real compiler, judge every verdict against its expectation, and keep
    /// the results and every distinct finding (with a `repro.sh`) in a run directory. A run
    /// directory that exists is resumed.
    Run(RunArgs),
    /// Judge an already synthesized directory: compile its programs with a real compiler and
    /// compare each verdict with the expectation in its `programs.jsonl`; keeps a results
    /// store like `thalia run` (resumable) and prints the rates and the distinct findings.
    Check(CheckArgs),
    /// Summarize a run directory: programs, verdicts per mode, expectation rates, findings by
    /// kind and signature, throughput.
    Report(ReportArgs),
    /// Install, list and run the compilers under test (kotlinc, scalac 3 and 2.13, groovyc from
    /// Maven artifacts through thalia's resolver; javac from the running JDK).
    #[command(subcommand)]
    Toolchain(ToolchainCommand),
    /// Measure the tool's speed on a real API and print the figures.
    #[command(subcommand)]
    Bench(BenchCommand),
}

/// Options shared by `thalia run` and `thalia check`: how programs are compiled.
#[derive(Args, Debug)]
struct CompileArgs {
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
    budget: thalia::campaign::driver::Budget,
    /// A Maven repository for installing compilers and resolving library jars (repeatable;
    /// default: the user's Maven configuration).
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
}

#[derive(Args, Debug)]
struct CheckArgs {
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
    compile: CompileArgs,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Directory of thalia API JSON files, or `@NAME` for one embedded corpus; default: the
    /// whole embedded API.
    #[arg(long)]
    api: Option<PathBuf>,
    /// Language of the programs.
    #[arg(long, default_value = "java")]
    lang: thalia_translators::Language,
    /// The compiler: `NAME[@VERSION]` (default: the language's); installed first when
    /// missing.
    #[arg(long)]
    compiler: Option<String>,
    /// Modes to synthesize, interleaved batch by batch (repeatable; default: well-typed and
    /// ill-typed).
    #[arg(long = "mode")]
    modes: Vec<thalia::synth::Mode>,
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
    #[command(flatten)]
    compile: CompileArgs,
}

#[derive(Args, Debug)]
struct ReportArgs {
    /// A run directory written by `thalia run` or `thalia check`.
    dir: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand, Debug)]
enum ToolchainCommand {
    /// Install compilers: `kotlin`, `scala3`, `scala2`, `groovy`, `javac`, each optionally
    /// `@VERSION` (exact, or a prefix such as `groovy@4`); no version = the latest release.
    Install {
        /// `NAME[@VERSION]`...
        #[arg(required = true)]
        specs: Vec<String>,
        /// A Maven repository to use (repeatable; default: the user's configuration).
        #[arg(long = "repo", value_name = "URL")]
        repos: Vec<String>,
    },
    /// List installed toolchains with their versions.
    List,
    /// Run an installed compiler: `thalia toolchain exec kotlin@2.1 -- -d out Test.kt`.
    Exec {
        /// `NAME[@VERSION]` (a version prefix picks the newest installed match).
        spec: String,
        /// Arguments for the compiler (after `--`).
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Print the runtime classpath of a toolchain's language (kotlin-stdlib, scala-library,
    /// groovy), for running or compiling against compiled programs.
    Runtime {
        /// `NAME[@VERSION]`.
        spec: String,
    },
}

#[derive(Args, Debug)]
struct FetchArgs {
    /// Coordinates `group:artifact[:version]`.
    #[arg(required = true)]
    coords: Vec<String>,
    /// Output directory (default: `api-json/<artifact>-<version>/`).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// A repository to use (URL, `file://` URL or directory; repeatable). With any `--repo`,
    /// only the given repositories are used.
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
    /// Download the `-javadoc.jar` of every artifact too.
    #[arg(long)]
    docs: bool,
    /// Extract the dependencies' API too, so that members inherited from their classes are
    /// resolved (by default they only serve as context).
    #[arg(long)]
    with_deps: bool,
}

#[derive(Args, Debug)]
struct ExtractArgs {
    /// Jars, jmods or directories of class files to extract (together, as one set).
    inputs: Vec<PathBuf>,
    /// Extract the JDK's public API instead (its exported packages).
    #[arg(long)]
    jdk: bool,
    /// JDK modules to extract with `--jdk` (repeatable; default: java.base).
    #[arg(long = "module", value_name = "MODULE")]
    modules: Vec<String>,
    /// The JDK to read with `--jdk` (default: JAVA_HOME, else the `java` on PATH).
    #[arg(long)]
    java_home: Option<PathBuf>,
    /// Jars consulted for supertypes but not extracted (e.g. the library's dependencies).
    #[arg(long, value_name = "JAR")]
    context: Vec<PathBuf>,
    /// Output directory (created if missing).
    #[arg(long, short)]
    out: PathBuf,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Compilation speed: programs checked per second by each compiler, a fresh process per
    /// batch against the warm compile server (start-up included, and warm).
    Compile(thalia::compile_bench::CompileBenchArgs),
    /// Extraction and graph-construction speed: extract jars (or the JDK with `--jdk`) on
    /// one core, write the API JSON, load it back and build its API graph, timing each step.
    Extract {
        /// Jars to extract.
        inputs: Vec<PathBuf>,
        /// Extract the running JDK's java.base instead.
        #[arg(long)]
        jdk: bool,
        /// Threads for extraction (default 1: the figure is per core).
        #[arg(short, long, default_value_t = 1)]
        jobs: usize,
        /// Timed repetitions (the median is reported).
        #[arg(long, default_value_t = 5)]
        repeat: usize,
    },
    /// Synthesis speed: median time of one program on one core, programs per second on all
    /// cores, and peak memory.
    Synth {
        /// Directory of thalia API JSON files; default: the embedded API.
        #[arg(long)]
        api: Option<PathBuf>,
        /// `well-typed` or `ill-typed`.
        #[arg(long, default_value = "well-typed")]
        mode: thalia::synth::Mode,
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
        #[arg(short, long)]
        jobs: Option<usize>,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
struct SynthArgs {
    /// Directory of thalia API JSON files, or `@NAME` for one embedded corpus; default: the
    /// whole API embedded from `api-json/`.
    #[arg(long)]
    api: Option<PathBuf>,
    /// Target language of the programs.
    #[arg(long, default_value = "java")]
    lang: thalia_translators::Language,
    /// `well-typed` (the compiler must accept) or `ill-typed` (it must reject).
    #[arg(long, default_value = "well-typed")]
    mode: thalia::synth::Mode,
    /// Drop explicit type arguments of polymorphic calls where inference recovers them
    /// exactly (Section 3.5 of the paper).
    #[arg(long)]
    erase: bool,
    /// Groovy only: annotate the classes `@TypeChecked` instead of `@CompileStatic`.
    #[arg(long)]
    groovy_type_checked: bool,
    /// Number of programs (default: one per typing sequence of every member).
    #[arg(short = 'n', long)]
    count: Option<usize>,
    /// Seed of every random choice; the same seed gives the same programs whatever
    /// `--jobs` is (default: drawn at random and printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Regenerate only these program ids (e.g. `p000042`; repeatable) from the seed.
    #[arg(long, value_name = "ID")]
    only: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Output directory (created if missing).
    #[arg(long, short, default_value = "thalia-out")]
    out: PathBuf,
    /// Maximum nesting depth of the types drawn for type variables.
    #[arg(long, default_value_t = 2)]
    max_type_depth: usize,
    /// Maximum typing sequences per member.
    #[arg(long, default_value_t = 6)]
    max_per_member: usize,
    /// Incompatible types tried per position in ill-typed mode.
    #[arg(long, default_value_t = 5)]
    ill_types_per_position: usize,
    /// k of Yen's k-shortest paths for inhabitants.
    #[arg(long, default_value_t = 3)]
    yen_k: usize,
}

#[derive(Subcommand, Debug)]
enum ApiCommand {
    /// Print the API graph statistics of the paper's Table 1 (nodes, edges, polymorphic
    /// methods / methods, fields, constructors, type constructors / types, mean
    /// inheritance-chain size, mean signature size).
    Stats {
        #[command(flatten)]
        api: ApiArg,
        /// Print the figures as JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print one class with its own and its inherited members, resolved through the
    /// supertypes with substitution. Usage: `thalia api show [DIR] CLASS`.
    Show {
        /// `[DIR] CLASS`: the API directory (default: the embedded API) and the class's
        /// fully-qualified name.
        #[arg(num_args = 1..=2, required = true, value_name = "DIR] [CLASS")]
        args: Vec<String>,
    },
    /// Load an API and list every problem: files, type strings and members that were
    /// skipped, and warnings such as dangling supertypes. Exits with 1 if anything was
    /// skipped.
    Check {
        #[command(flatten)]
        api: ApiArg,
    },
    /// Load an API and write it back out through the model (type strings re-printed in
    /// canonical form; unknown fields and entries that did not load kept as they were).
    Rewrite {
        #[command(flatten)]
        api: ApiArg,
        /// Output directory (created if missing).
        #[arg(long, short)]
        out: PathBuf,
    },
}

#[derive(Args, Debug)]
struct ApiArg {
    /// Directory of thalia API JSON files (searched recursively), or `@NAME` for one corpus
    /// embedded in the binary (e.g. `@java.base`); default: the whole embedded API from
    /// `api-json/`.
    dir: Option<PathBuf>,
}

/// Loads an API: a directory, `@NAME` for one embedded corpus, or the whole embedded API.
fn load(dir: Option<&Path>) -> Result<Api> {
    match dir {
        None => Ok(embedded_api()),
        Some(d) => {
            if let Some(name) = d.to_str().and_then(|s| s.strip_prefix('@')) {
                return thalia::embedded::embedded_corpus(name).with_context(|| {
                    format!(
                        "no embedded API named `{name}` (available: {})",
                        thalia::embedded::embedded_corpora().join(", ")
                    )
                });
            }
            Api::load_dir(d).with_context(|| format!("cannot load API from {}", d.display()))
        }
    }
}

fn describe(dir: Option<&Path>) -> String {
    dir.map_or(EMBEDDED_LABEL.to_string(), |d| d.display().to_string())
}

/// Prints the load summary and the first few errors to stderr.
fn report_load(api: &Api, dir: Option<&Path>) {
    eprintln!("{}: {}", describe(dir), api.report.summary());
    const SHOWN: usize = 10;
    let errors: Vec<_> = api.report.errors().collect();
    for e in errors.iter().take(SHOWN) {
        eprintln!("  {e}");
    }
    if errors.len() > SHOWN {
        eprintln!(
            "  ... and {} more (see `thalia api check`)",
            errors.len() - SHOWN
        );
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Synth(args) => synth(args),
        Command::Extract(args) => extract(args),
        Command::Fetch(args) => fetch(args),
        Command::Toolchain(cmd) => toolchain(cmd),
        Command::Check(args) => check(args),
        Command::Run(args) => campaign_run(args),
        Command::Report(args) => {
            let report = thalia::campaign::report::Report::load(&args.dir)
                .with_context(|| format!("cannot read the run in {}", args.dir.display()))?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.table());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(BenchCommand::Compile(args)) => {
            thalia::compile_bench::main(&args)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(BenchCommand::Extract {
            inputs,
            jdk,
            jobs,
            repeat,
        }) => bench_extract(&inputs, jdk, jobs, repeat),
        Command::Bench(BenchCommand::Synth {
            api: dir,
            mode,
            erase,
            single,
            parallel,
            jobs,
            seed,
            json,
        }) => {
            let mut api = load(dir.as_deref())?;
            report_load(&api, dir.as_deref());
            let cfg = thalia::synth::SynthConfig {
                mode,
                erase,
                ..Default::default()
            };
            let t0 = std::time::Instant::now();
            let ctx = thalia::synth::SynthContext::new(&mut api);
            let context_seconds = t0.elapsed().as_secs_f64();
            let run = thalia::synth::Run {
                api: &api,
                ctx: &ctx,
                cfg: &cfg,
                seed,
                jobs: jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            };
            let report = thalia::synth::bench::bench(&run, context_seconds, single, parallel);
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.table());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Api(ApiCommand::Stats { api: a, json }) => {
            let dir = a.dir.as_deref();
            let mut api = load(dir)?;
            report_load(&api, dir);
            let graph = ApiGraph::build(&mut api);
            let stats = GraphStats::compute(&mut api, &graph);
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print!("{}", stats.table());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Api(ApiCommand::Show { args }) => {
            let (dir, class) = match args.as_slice() {
                [class] => (None, class.clone()),
                [dir, class] => (Some(PathBuf::from(dir)), class.clone()),
                _ => bail!("usage: thalia api show [DIR] CLASS"),
            };
            let mut api = load(dir.as_deref())?;
            let Some(cid) = api.class_by_name(&class) else {
                let mut near: Vec<&str> = api
                    .classes
                    .iter()
                    .map(|c| c.name.as_str())
                    .filter(|n| n.ends_with(&format!(".{class}")) || n.contains(&class))
                    .collect();
                near.truncate(5);
                if near.is_empty() {
                    bail!("class `{class}` is not in {}", describe(dir.as_deref()));
                }
                bail!(
                    "class `{class}` is not in {}; did you mean {}?",
                    describe(dir.as_deref()),
                    near.join(", ")
                );
            };
            print!("{}", thalia::api::show_class(&mut api, cid));
            Ok(ExitCode::SUCCESS)
        }
        Command::Api(ApiCommand::Check { api: a }) => {
            let dir = a.dir.as_deref();
            let api = load(dir)?;
            for i in &api.report.issues {
                println!("{i}");
            }
            eprintln!("{}: {}", describe(dir), api.report.summary());
            Ok(if api.report.error_count() > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Api(ApiCommand::Rewrite { api: a, out }) => {
            let dir = a.dir.as_deref();
            let api = load(dir)?;
            report_load(&api, dir);
            let files = api
                .write_dir(&out)
                .with_context(|| format!("cannot write to {}", out.display()))?;
            eprintln!("wrote {} files to {}", files.len(), out.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The default compiler of a language.
fn default_compiler(lang: thalia_translators::Language) -> &'static str {
    use thalia_translators::Language;
    match lang {
        Language::Java => "javac",
        Language::Kotlin => "kotlin",
        Language::Scala3 => "scala3",
        Language::Scala2 => "scala2",
        Language::Groovy => "groovy",
    }
}

/// The installed toolchain for `spec`, installed first when missing.
fn toolchain_for(spec: &str, repos: &[String]) -> Result<thalia::toolchain::Toolchain> {
    use std::io::IsTerminal;
    use thalia::toolchain;
    match toolchain::find(spec) {
        Ok(t) => Ok(t),
        Err(toolchain::ToolchainError::NotInstalled(_)) => {
            let (tool, version) = toolchain::parse_spec(spec)?;
            eprintln!("installing {spec}");
            Ok(toolchain::install(
                tool,
                version.as_deref(),
                repos,
                std::io::stderr().is_terminal(),
            )?)
        }
        Err(e) => Err(e.into()),
    }
}

/// The compiler part of a run's manifest and the campaign options.
fn campaign_setup(
    tc: &thalia::toolchain::Toolchain,
    args: &CompileArgs,
    classpath: Option<String>,
) -> Result<(
    thalia::campaign::store::CompilerInfo,
    thalia::campaign::driver::CampaignOptions,
)> {
    use std::io::IsTerminal;
    use thalia::compile::{command_line, CompileOptions, Mode};
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!("--timeout must be a positive number of seconds");
    }
    let mode = if args.server {
        Mode::Server
    } else {
        Mode::Process
    };
    let info = thalia::campaign::store::CompilerInfo {
        tool: tc.tool,
        version: tc.version.clone(),
        coordinate: tc.coordinate.clone(),
        mode: if args.server { "server" } else { "process" }.into(),
        command: command_line(
            tc,
            classpath.as_deref(),
            Path::new("@OUT@"),
            &[PathBuf::from("@FILE@")],
        ),
        classpath: classpath.clone(),
        timeout_seconds: args.timeout,
    };
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
    });
    let opts = thalia::campaign::driver::CampaignOptions {
        batch_size: args.batch_size.max(1),
        jobs: jobs.max(1),
        budget: args.budget,
        compile: CompileOptions {
            classpath,
            timeout: std::time::Duration::from_secs_f64(args.timeout),
        },
        mode,
        progress: std::io::stderr().is_terminal(),
    };
    Ok((info, opts))
}

/// The options of a session, as recorded in the manifest.
fn session_options(
    args: &CompileArgs,
    opts: &thalia::campaign::driver::CampaignOptions,
) -> serde_json::Value {
    serde_json::json!({
        "batch_size": opts.batch_size,
        "jobs": opts.jobs,
        "budget": args.budget.to_string(),
        "timeout_seconds": args.timeout,
        "server": args.server,
        "command": std::env::args().collect::<Vec<_>>(),
    })
}

/// Prints the end of a campaign session and the run's report.
fn finish_campaign(
    outcome: &thalia::campaign::driver::Outcome,
    store: &thalia::campaign::store::Store,
) -> Result<()> {
    let (findings, distinct) = store.findings();
    eprintln!(
        "judged {} programs in {:.1}s ({} judged earlier); {} findings in this session, {} in all ({} distinct)",
        outcome.judged, outcome.seconds, outcome.resumed, outcome.findings, findings, distinct
    );
    let report = thalia::campaign::report::Report::load(store.dir())?;
    print!("{}", report.table());
    println!("  results: {}", store.dir().join("results.jsonl").display());
    Ok(())
}

fn check(args: CheckArgs) -> Result<ExitCode> {
    use thalia::campaign::driver::{self, DirSource};
    use thalia::campaign::store::{Manifest, Session, Store};
    let mut source = DirSource::open(&args.dir)?;
    let lang = source.language();
    let spec = args
        .compiler
        .clone()
        .unwrap_or_else(|| default_compiler(lang).to_string());
    let tc = toolchain_for(&spec, &args.compile.repos)?;
    // the programs' libraries: those of the API they were synthesized from
    let classpath = match source.api() {
        Some(thalia::embedded::EMBEDDED_LABEL) => {
            program_classpath(None, args.compile.classpath.as_deref(), &args.compile.repos)?
        }
        Some(api) => program_classpath(
            Some(Path::new(api)),
            args.compile.classpath.as_deref(),
            &args.compile.repos,
        )?,
        None => args.compile.classpath.clone(),
    };
    let (info, opts) = campaign_setup(&tc, &args.compile, classpath)?;
    let out = args.out.clone().unwrap_or_else(|| {
        args.dir
            .join(format!("check-{}-{}", tc.tool.name(), tc.version))
    });
    let programs = std::fs::read(args.dir.join("programs.jsonl"))?;
    let identity = serde_json::json!({
        "programs": args.dir.canonicalize().unwrap_or(args.dir.clone()).display().to_string(),
        "programs_jsonl_bytes": programs.len(),
        "programs_jsonl_hash": format!("{:016x}", programs.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))),
        "language": lang,
        "compiler": format!("{}@{}", tc.tool.name(), tc.version),
    });
    let manifest = Manifest {
        tool: "thalia".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        kind: "check".into(),
        identity,
        compiler: info,
        sessions: vec![Session {
            started: thalia::campaign::store::now(),
            seconds: 0.0,
            programs: 0,
            options: session_options(&args.compile, &opts),
        }],
    };
    let store = Store::open(&out, manifest)?;
    if store.recovered_lines() > 0 {
        eprintln!(
            "{}: dropped {} incomplete line(s) of an interrupted session",
            out.display(),
            store.recovered_lines()
        );
    }
    eprintln!(
        "checking {} programs of {} with {}@{} ({}), results in {}",
        source.len(),
        args.dir.display(),
        tc.tool.name(),
        tc.version,
        if args.compile.server {
            "warm server"
        } else {
            "a process per batch"
        },
        out.display()
    );
    let (outcome, store) = driver::run(store, &tc, &mut source, &opts)?;
    finish_campaign(&outcome, &store)?;
    Ok(ExitCode::SUCCESS)
}

/// The classpath the programs of an API need: given, the API directory's `classpath.txt`,
/// or the embedded libraries' jars.
fn program_classpath(
    api: Option<&Path>,
    given: Option<&str>,
    repos: &[String],
) -> Result<Option<String>> {
    use std::io::IsTerminal;
    if let Some(cp) = given {
        return Ok(Some(cp.to_string()));
    }
    let embedded = match api {
        None => Some(None),
        Some(d) => d.to_str().and_then(|s| s.strip_prefix('@')).map(Some),
    };
    match embedded {
        Some(corpus) => {
            let coords = thalia::embedded::embedded_coordinates(corpus);
            if coords.is_empty() {
                return Ok(None);
            }
            let jars =
                thalia::toolchain::library_jars(&coords, repos, std::io::stderr().is_terminal())
                    .context(
                    "cannot resolve the jars of the embedded API's libraries (give --classpath)",
                )?;
            let sep = if cfg!(windows) { ";" } else { ":" };
            Ok(Some(
                jars.iter()
                    .map(|j| j.display().to_string())
                    .collect::<Vec<_>>()
                    .join(sep),
            ))
        }
        None => {
            let file = api.map(|d| d.join("classpath.txt"));
            match file.filter(|f| f.exists()) {
                Some(f) => Ok(Some(
                    std::fs::read_to_string(&f)
                        .with_context(|| format!("cannot read {}", f.display()))?
                        .trim()
                        .to_string(),
                )),
                None => Ok(None),
            }
        }
    }
}

fn campaign_run(args: RunArgs) -> Result<ExitCode> {
    use thalia::campaign::driver::{self, Budget, SynthSource};
    use thalia::campaign::store::{Manifest, Session, Store, MANIFEST};
    let dir = args.api.as_deref();
    let spec = args
        .compiler
        .clone()
        .unwrap_or_else(|| default_compiler(args.lang).to_string());
    let tc = toolchain_for(&spec, &args.compile.repos)?;
    let modes = if args.modes.is_empty() {
        vec![
            thalia::synth::Mode::WellTyped,
            thalia::synth::Mode::IllTyped,
        ]
    } else {
        let mut m = args.modes.clone();
        m.dedup();
        m
    };
    // the seed: given, the run directory's, or random
    let recorded: Option<u64> = std::fs::read_to_string(args.out.join(MANIFEST))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["identity"]["seed"].as_u64());
    let seed = args.seed.or(recorded).unwrap_or_else(rand::random);
    let classpath = program_classpath(dir, args.compile.classpath.as_deref(), &args.compile.repos)?;
    let (info, opts) = campaign_setup(&tc, &args.compile, classpath)?;
    let api_arg = dir.map_or(String::new(), |d| d.display().to_string());
    let identity = serde_json::json!({
        "seed": seed,
        "language": args.lang,
        "api": describe(dir),
        "modes": modes.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
        "erase": args.erase,
        "groovy_type_checked": args.groovy_type_checked,
        "synth_config": thalia::synth::SynthConfig { lang: args.lang, ..Default::default() },
        "compiler": format!("{}@{}", tc.tool.name(), tc.version),
    });
    let manifest = Manifest {
        tool: "thalia".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        kind: "run".into(),
        identity,
        compiler: info,
        sessions: vec![Session {
            started: thalia::campaign::store::now(),
            seconds: 0.0,
            programs: 0,
            options: session_options(&args.compile, &opts),
        }],
    };
    let store = Store::open(&args.out, manifest)?;
    if store.recovered_lines() > 0 {
        eprintln!(
            "{}: dropped {} incomplete line(s) of an interrupted session",
            args.out.display(),
            store.recovered_lines()
        );
    }
    let api = load(dir)?;
    report_load(&api, dir);
    let translator: Box<dyn thalia_translators::Translator + Send + Sync> =
        if args.groovy_type_checked && args.lang == thalia_translators::Language::Groovy {
            Box::new(thalia_translators::GroovyTranslator {
                mode: thalia_translators::GroovyMode::TypeChecked,
            })
        } else {
            thalia_translators::translator(args.lang)
                .with_context(|| format!("no translator for {}", args.lang))?
        };
    let synth_jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut source = SynthSource::new(
        api,
        translator,
        &modes,
        args.erase,
        seed,
        synth_jobs,
        &api_arg,
        !matches!(args.compile.budget, Budget::OneRound),
    );
    source.prepare();
    eprintln!(
        "run {} (seed {seed}): {} {} programs with {}@{} ({}), budget {}{}",
        args.out.display(),
        modes
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
        args.lang,
        tc.tool.name(),
        tc.version,
        if args.compile.server {
            "warm server"
        } else {
            "a process per batch"
        },
        args.compile.budget,
        if store.done_count() > 0 {
            format!("; resuming after {} judged programs", store.done_count())
        } else {
            String::new()
        }
    );
    let (outcome, store) = driver::run(store, &tc, &mut source, &opts)?;
    if source.untranslatable() > 0 {
        eprintln!(
            "{} programs could not be translated (skipped)",
            source.untranslatable()
        );
    }
    finish_campaign(&outcome, &store)?;
    Ok(ExitCode::SUCCESS)
}

fn toolchain(cmd: ToolchainCommand) -> Result<ExitCode> {
    use std::io::IsTerminal;
    use thalia::toolchain;
    match cmd {
        ToolchainCommand::Install { specs, repos } => {
            for spec in specs {
                let (tool, version) = toolchain::parse_spec(&spec)?;
                let tc = toolchain::install(
                    tool,
                    version.as_deref(),
                    &repos,
                    std::io::stderr().is_terminal(),
                )?;
                eprintln!(
                    "installed {}@{} ({} jars) in {}",
                    tc.tool.name(),
                    tc.version,
                    tc.classpath.len(),
                    toolchain::toolchains_dir()
                        .join(tc.tool.name())
                        .join(&tc.version)
                        .display()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        ToolchainCommand::List => {
            let all = toolchain::list();
            if all.is_empty() {
                eprintln!(
                    "no toolchains installed in {} (try `thalia toolchain install kotlin`)",
                    toolchain::toolchains_dir().display()
                );
            }
            for t in all {
                println!(
                    "{:<8} {:<14} {}",
                    t.tool.name(),
                    t.version,
                    t.coordinate
                        .as_deref()
                        .unwrap_or(&t.java.display().to_string())
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        ToolchainCommand::Exec { spec, args } => {
            let tc = toolchain::find(&spec)?;
            let status = tc
                .command(&args)
                .status()
                .with_context(|| format!("cannot run {}", tc.java.display()))?;
            Ok(ExitCode::from(
                status.code().unwrap_or(1).clamp(0, 255) as u8
            ))
        }
        ToolchainCommand::Runtime { spec } => {
            let tc = toolchain::find(&spec)?;
            let cp: Vec<String> = tc.runtime.iter().map(|p| p.display().to_string()).collect();
            println!("{}", cp.join(":"));
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn fetch(args: FetchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;
    use thalia_extractors::fetch::{self, FetchOptions};
    use thalia_extractors::maven::Coordinate;
    let coords = args
        .coords
        .iter()
        .map(|c| c.parse::<Coordinate>())
        .collect::<Result<Vec<_>, _>>()?;
    let opts = FetchOptions {
        repos: args.repos.clone(),
        docs: args.docs,
        progress: std::io::stderr().is_terminal(),
        java_home: None,
        with_deps: args.with_deps,
    };
    let fetched = fetch::fetch(&coords, &opts)?;
    let out = match &args.out {
        Some(o) => o.clone(),
        None => {
            let name = fetched
                .roots
                .iter()
                .map(|c| {
                    format!(
                        "{}-{}",
                        c.artifact,
                        c.version.as_deref().unwrap_or("unknown")
                    )
                })
                .collect::<Vec<_>>()
                .join("+");
            PathBuf::from("api-json").join(name)
        }
    };
    fetch::write_fetched(&out, &fetched)
        .with_context(|| format!("cannot write the API into {}", out.display()))?;
    for p in &fetched.problems {
        eprintln!("warning: {}: {}: {}", p.jar.display(), p.entry, p.reason);
    }
    let r = &fetched.record;
    eprintln!(
        "fetched {} ({} artifacts on the classpath) in {:.2}s; extracted {} classes in {:.2}s into {}",
        r.resolved.join(", "),
        r.artifacts.len(),
        r.resolve_seconds,
        r.classes,
        r.extract_seconds,
        out.display()
    );
    eprintln!(
        "classpath: {}; record: {}",
        out.join("classpath.txt").display(),
        out.join("fetch.json").display()
    );
    Ok(ExitCode::SUCCESS)
}

fn bench_extract(inputs: &[PathBuf], jdk: bool, jobs: usize, repeat: usize) -> Result<ExitCode> {
    use std::time::Instant;
    use thalia_extractors::bytecode::{self, ExtractOptions};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .context("cannot start the thread pool")?;
    let extract_once = || -> Result<bytecode::Extraction> {
        let opts = ExtractOptions::default();
        if jdk {
            let home = bytecode::find_java_home().context("cannot find a JDK")?;
            Ok(bytecode::extract_jdk(&home, &["java.base"], &opts)?)
        } else {
            let paths: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            Ok(bytecode::extract_paths(&paths, &opts)?)
        }
    };
    if !jdk && inputs.is_empty() {
        bail!("give jars to extract, or --jdk");
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let mut ex = Vec::new();
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let e = pool.install(extract_once)?;
        ex.push(t.elapsed().as_secs_f64());
        last = Some(e);
    }
    let extraction = last.context("no run")?;
    let dir = tempfile::tempdir()?;
    write_docs(dir.path(), &extraction.docs)?;
    let (mut load, mut graph) = (Vec::new(), Vec::new());
    let mut stats = None;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let mut api = Api::load_dir(dir.path())?;
        load.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let g = ApiGraph::build(&mut api);
        graph.push(t.elapsed().as_secs_f64());
        stats = Some(GraphStats::compute(&mut api, &g));
    }
    let s = stats.context("no run")?;
    println!(
        "extraction ({} thread{}):   {:.3} s median of {} ({} classes, {} methods, {} constructors, {} fields)",
        jobs.max(1),
        if jobs.max(1) == 1 { "" } else { "s" },
        median(ex),
        repeat.max(1),
        extraction.docs.len(),
        extraction.stats.methods,
        extraction.stats.constructors,
        extraction.stats.fields
    );
    println!("load API JSON:            {:.3} s median", median(load));
    println!("build API graph:          {:.3} s median", median(graph));
    print!("{}", s.table());
    Ok(ExitCode::SUCCESS)
}

fn extract(args: ExtractArgs) -> Result<ExitCode> {
    use thalia_extractors::bytecode::{self, ClassPool, ExtractOptions};
    let t0 = std::time::Instant::now();
    let mut opts = ExtractOptions::default();
    if !args.context.is_empty() {
        let paths: Vec<&Path> = args.context.iter().map(PathBuf::as_path).collect();
        let (pool, problems) = ClassPool::read(&paths)?;
        for p in problems {
            eprintln!("warning: {}: {}: {}", p.jar.display(), p.entry, p.reason);
        }
        opts.context = Some(std::sync::Arc::new(pool));
    }
    let extraction = if args.jdk {
        if !args.inputs.is_empty() {
            bail!("give either --jdk or input files, not both");
        }
        let home = match args.java_home.clone() {
            Some(h) => h,
            None => bytecode::find_java_home()
                .context("cannot find a JDK: set JAVA_HOME or pass --java-home")?,
        };
        let modules: Vec<&str> = if args.modules.is_empty() {
            vec!["java.base"]
        } else {
            args.modules.iter().map(String::as_str).collect()
        };
        bytecode::extract_jdk(&home, &modules, &opts)
            .with_context(|| format!("cannot extract the JDK at {}", home.display()))?
    } else {
        if args.inputs.is_empty() {
            bail!("nothing to extract: give jars, jmods or class directories, or --jdk");
        }
        let paths: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
        bytecode::extract_paths(&paths, &opts)?
    };
    for p in &extraction.problems {
        eprintln!("warning: {}: {}: {}", p.jar.display(), p.entry, p.reason);
    }
    let written = write_docs(&args.out, &extraction.docs)?;
    let s = &extraction.stats;
    eprintln!(
        "extracted {} classes ({} methods, {} constructors, {} fields) from {} class files into {} in {:.2}s; {} problems",
        written,
        s.methods,
        s.constructors,
        s.fields,
        s.class_files,
        args.out.display(),
        t0.elapsed().as_secs_f64(),
        extraction.problems.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes API JSON documents into a directory (replacing files of the same names).
fn write_docs(out: &Path, docs: &[thalia_extractors::ClassDoc]) -> Result<usize> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for d in docs {
        thalia_extractors::write_class_doc(out, d)
            .with_context(|| format!("cannot write {} into {}", d.name, out.display()))?;
    }
    Ok(docs.len())
}

fn synth(args: SynthArgs) -> Result<ExitCode> {
    use indicatif::{ProgressBar, ProgressStyle};
    use thalia::synth::{self, Selection, SynthConfig, SynthContext};

    let dir = args.api.as_deref();
    let mut api = load(dir)?;
    report_load(&api, dir);
    let cfg = SynthConfig {
        mode: args.mode,
        lang: args.lang,
        erase: args.erase,
        max_type_depth: args.max_type_depth,
        max_sequences_per_member: args.max_per_member.max(1),
        ill_types_per_position: args.ill_types_per_position,
        yen_k: args.yen_k.max(1),
        ..SynthConfig::default()
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = std::time::Instant::now();
    let ctx = SynthContext::new(&mut api);
    let spinner = ProgressBar::new_spinner().with_message("enumerating typing sequences");
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let run = synth::Run {
        api: &api,
        ctx: &ctx,
        cfg: &cfg,
        seed,
        jobs,
    };
    let plan = run.plan();
    spinner.finish_and_clear();
    let selection = if !args.only.is_empty() {
        let mut v = Vec::new();
        for id in &args.only {
            let n = id
                .trim_start_matches('p')
                .parse::<usize>()
                .with_context(|| format!("`{id}` is not a program id (like p000042)"))?;
            if n >= plan.order.len() {
                bail!(
                    "program {id} does not exist: this seed and API give {} programs",
                    plan.order.len()
                );
            }
            v.push(n);
        }
        v.sort_unstable();
        v.dedup();
        Selection::Only(v)
    } else if let Some(n) = args.count {
        Selection::First(n)
    } else {
        Selection::All
    };
    let total = match &selection {
        Selection::All => plan.order.len(),
        Selection::First(n) => plan.order.len().min(*n),
        Selection::Only(v) => v.len(),
    };
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} programs ({per_sec}, eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut built = run.build(&plan, &selection, &|| bar.inc(1));
    bar.finish_and_clear();
    let summary = synth::summarize(&api, &plan, &built);
    let label = describe(dir);
    let groovy;
    let default_tr;
    let tr: &(dyn thalia_translators::Translator + Send + Sync) =
        if args.groovy_type_checked && args.lang == thalia_translators::Language::Groovy {
            groovy = thalia_translators::GroovyTranslator {
                mode: thalia_translators::GroovyMode::TypeChecked,
            };
            &groovy
        } else {
            default_tr = thalia_translators::translator(args.lang)
                .with_context(|| format!("no translator for {}", args.lang))?;
            default_tr.as_ref()
        };
    let written =
        synth::output::write_run_with(&args.out, tr, &mut built, seed, &label, &cfg, &summary)?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "wrote {} {} programs ({}, seed {seed}) to {} in {secs:.2}s; manifest: {}",
        written.files,
        args.lang,
        cfg.mode.as_str(),
        args.out.display(),
        written.manifest.display()
    );
    eprintln!(
        "{} of {} members exercised through {} typing sequences; {} calls with erased type arguments; {} programs use a bottom constant",
        summary.members_exercised, summary.members, summary.sequences, summary.erased, summary.with_bottom
    );
    if !summary.skipped.is_empty() {
        let why: Vec<String> = summary
            .skipped
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        eprintln!("members skipped: {}", why.join(", "));
    }
    for (id, e) in &written.untranslatable {
        eprintln!("warning: program {id} not written: {e}");
    }
    Ok(ExitCode::SUCCESS)
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", render_error(&e));
            ExitCode::from(2)
        }
    }
}
