//! `thalia batch`: a campaign per library × mode over a list of Maven libraries
//! (`thalia::batch` keeps the directory; this drives `thalia fetch`'s library code and the
//! `thalia run` command for each cell).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use thalia::batch::{
    self, BatchManifest, BatchMode, BatchSummary, CellRecord, ErrorRecord, Library, API_DIR, CELL,
    ERROR,
};
use thalia::campaign::driver::Budget;
use thalia::campaign::report::Report;
use thalia::campaign::setup;
use thalia::campaign::shard::Shard;
use thalia::coverage::{self, Jacoco};
use thalia::server;
use thalia::toolchain::Toolchain;
use thalia_extractors::fetch::{self, FetchOptions};
use thalia_extractors::maven::Coordinate;
use thalia_extractors::view::{AutoViews, View};
use thalia_translators::Language;

use super::{progress, render_error};

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
    /// (`30m`) or `round`.
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
}

impl BatchArgs {
    /// Whether the cells compile in warm servers: `--server`, or `--coverage` without
    /// `--no-server`.
    fn warm(&self) -> bool {
        self.server || (self.coverage && !self.no_server)
    }
}

/// `thalia run`'s arguments alone, to run a cell's campaign as `thalia run` does.
#[derive(Parser, Debug)]
#[command(name = "thalia")]
struct RunOnly {
    #[command(flatten)]
    run: super::campaign::RunArgs,
}

/// What measuring coverage needs: JaCoCo, the compiler and its class files.
struct CoverageSetup {
    jacoco: Jacoco,
    tc: Toolchain,
    classfiles: Vec<PathBuf>,
    filters: Vec<String>,
}

/// Where the warm servers keep their start-up coverage data (`BATCH/.servers/`).
const STARTUP_DIR: &str = ".servers";

/// A cell's execution data written by compiler processes (the agent's `destfile`).
fn exec_file(cdir: &Path) -> PathBuf {
    cdir.join("jacoco.exec")
}

/// Writes the union coverage of every finished cell, per mode and over all modes
/// (`OUT/coverage-union/<mode>/` reports, `coverage-union.json`).
fn write_union(out: &Path, summary: &BatchSummary, cov: &CoverageSetup) -> Result<()> {
    let mut union = std::collections::BTreeMap::new();
    let done: Vec<(BatchMode, PathBuf)> = summary
        .libraries
        .iter()
        .flat_map(|l| &l.cells)
        .filter(|c| c.record.is_some())
        .flat_map(|c| {
            coverage::exec_files(&out.join(&c.dir))
                .into_iter()
                .map(move |e| (c.mode, e))
        })
        .collect();
    if done.is_empty() {
        return Ok(());
    }
    let mut groups: Vec<(String, Vec<PathBuf>)> = summary
        .manifest
        .modes
        .iter()
        .map(|m| {
            (
                m.as_str().to_string(),
                done.iter()
                    .filter(|(dm, _)| dm == m)
                    .map(|(_, e)| e.clone())
                    .collect(),
            )
        })
        .collect();
    groups.push(("all".into(), done.iter().map(|(_, e)| e.clone()).collect()));
    for (name, execs) in groups {
        if execs.is_empty() {
            continue;
        }
        let counts = coverage::report(
            &cov.jacoco,
            &cov.tc,
            &execs,
            &cov.classfiles,
            &cov.filters,
            &out.join("coverage-union").join(&name),
        )?;
        union.insert(name, counts);
    }
    batch::write_json(&out.join(batch::UNION), &union)?;
    Ok(())
}

/// Writes each library's increment per mode over its well-typed cell (`coverage-increments.json`):
/// the checker lines covered by the two cells together minus those of the well-typed cell, in
/// percentage points of the checker's lines, from the cells' XML reports; cells without
/// programs are left out.
fn write_increments(out: &Path, summary: &BatchSummary) -> Result<()> {
    let mut all: std::collections::BTreeMap<String, std::collections::BTreeMap<BatchMode, f64>> =
        std::collections::BTreeMap::new();
    let lines = |dir: &str| -> Result<_> {
        let path = out.join(dir).join("coverage").join("coverage.xml");
        let xml = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok(coverage::xml_lines(&xml))
    };
    for lib in &summary.libraries {
        // a cell without programs (none synthesized in its mode) measures nothing
        let done = |m: BatchMode| {
            lib.cells
                .iter()
                .find(|c| c.mode == m && c.record.as_ref().is_some_and(|r| r.programs > 0))
                .map(|c| c.dir.clone())
        };
        let Some(base_dir) = done(BatchMode::WellTyped) else {
            continue;
        };
        let (base, total) = lines(&base_dir)?;
        if total == 0 {
            continue;
        }
        for &m in summary
            .manifest
            .modes
            .iter()
            .filter(|m| **m != BatchMode::WellTyped)
        {
            let Some(dir) = done(m) else {
                continue;
            };
            let (covered, _) = lines(&dir)?;
            let added = covered.difference(&base).count();
            all.entry(lib.coordinate.clone())
                .or_default()
                .insert(m, 100.0 * added as f64 / total as f64);
        }
    }
    batch::write_json(&out.join(batch::INCREMENTS), &all)?;
    Ok(())
}

/// The views `--view auto` may choose for programs in `lang`: a view of the language's own
/// (Kotlin's for Kotlin, Scala's for Scala 3 and 2), else the Java view.
fn auto_views(lang: Language) -> AutoViews {
    match lang {
        Language::Kotlin => AutoViews {
            kotlin: true,
            scala: false,
        },
        Language::Scala3 | Language::Scala2 => AutoViews {
            kotlin: false,
            scala: true,
        },
        Language::Java | Language::Groovy => AutoViews::JAVA,
    }
}

/// Fetches `lib` into `ldir/api/` unless it is there; records the error and returns `false`
/// when it cannot be had or has no public API.
fn ensure_fetched(lib: &Library, ldir: &Path, args: &BatchArgs) -> Result<bool> {
    let api = ldir.join(API_DIR);
    let error_file = ldir.join(ERROR);
    if api.join("fetch.json").is_file() {
        batch::remove_if_present(&error_file)?;
        return Ok(true);
    }
    let fail = |stage: &str, error: String| -> Result<bool> {
        eprintln!("{}: {stage} failed, skipped: {error}", lib.coordinate());
        batch::write_json(
            &error_file,
            &ErrorRecord {
                stage: stage.to_string(),
                error,
            },
        )?;
        Ok(false)
    };
    let coord: Coordinate = match lib.coordinate().parse() {
        Ok(c) => c,
        Err(e) => return fail("fetch", e.to_string()),
    };
    let opts = FetchOptions {
        repos: args.repos.clone(),
        docs: false,
        api_from_docs: false,
        progress: progress(),
        java_home: None,
        with_deps: false,
        view: args.view,
        auto_views: auto_views(args.lang),
        optional_deps: true,
    };
    let fetched = match fetch::fetch(&[coord], &opts) {
        Ok(f) => f,
        Err(e) => return fail("fetch", render_error(&anyhow::Error::new(e))),
    };
    if fetched.docs.is_empty() {
        let why = fetched
            .problems
            .first()
            .map(|p| format!(" ({}: {}: {})", p.jar.display(), p.entry, p.reason))
            .unwrap_or_default();
        return fail(
            "api",
            format!("no public API: no class could be extracted{why}"),
        );
    }
    for n in &fetched.notes {
        eprintln!("{}: warning: {n}", lib.coordinate());
    }
    // written aside and renamed: `api/` is there whole or not at all
    let tmp = ldir.join(format!("{API_DIR}.tmp-{}", std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp)
            .with_context(|| format!("cannot remove {}", tmp.display()))?;
    }
    fetch::write_fetched(&tmp, &fetched)
        .with_context(|| format!("cannot write the API into {}", tmp.display()))?;
    if api.exists() {
        std::fs::remove_dir_all(&api)
            .with_context(|| format!("cannot remove {}", api.display()))?;
    }
    std::fs::rename(&tmp, &api).with_context(|| format!("cannot rename to {}", api.display()))?;
    batch::remove_if_present(&error_file)?;
    Ok(true)
}

/// The `thalia run` command line of a cell (`run` in the place of the program name).
fn run_command(
    api: &Path,
    cdir: &Path,
    mode: BatchMode,
    manifest: &BatchManifest,
    args: &BatchArgs,
) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "run".into(),
        "--api".into(),
        api.display().to_string(),
        "--lang".into(),
        manifest.language.clone(),
        "--compiler".into(),
        manifest.compiler.clone(),
        "--mode".into(),
        mode.mode().as_str().into(),
        "--seed".into(),
        manifest.seed.to_string(),
        "--budget".into(),
        manifest.budget.clone(),
        "--batch-size".into(),
        args.batch_size.to_string(),
        "--no-reduce".into(),
        "--out".into(),
        cdir.display().to_string(),
    ];
    if mode.erase() {
        v.push("--erase".into());
    }
    if let Some(j) = args.jobs {
        v.extend(["--jobs".into(), j.to_string()]);
    }
    if args.warm() {
        v.push("--server".into());
    }
    for r in &args.repos {
        v.extend(["--repo".into(), r.clone()]);
    }
    v
}

/// Runs (or resumes) one cell's campaign and records its outcome.
fn run_cell(
    out: &Path,
    lib: &Library,
    mode: BatchMode,
    manifest: &BatchManifest,
    args: &BatchArgs,
    cov: Option<&CoverageSetup>,
) -> Result<()> {
    let ldir = out.join(lib.dir_name());
    let cdir = ldir.join(mode.as_str());
    let error_file = cdir.join(ERROR);
    let mut argv = run_command(&ldir.join(API_DIR), &cdir, mode, manifest, args);
    if let Some(c) = cov {
        std::fs::create_dir_all(&cdir)
            .with_context(|| format!("cannot create {}", cdir.display()))?;
        // warm servers kept across cells: the agent attached once, the data dumped per cell
        let agent = if args.warm() {
            coverage::server_agent_option(&c.jacoco, &c.filters)
        } else {
            coverage::agent_option(&c.jacoco, &exec_file(&cdir), &c.filters)
        };
        argv.push(format!("--jvm-option={agent}"));
        if args.warm() {
            server::pool::begin_coverage(&cdir)
                .with_context(|| format!("coverage of {}", cdir.display()))?;
        }
    }
    let starts = server::total_starts();
    let outcome = RunOnly::try_parse_from(argv)
        .context("the cell's `thalia run` arguments")
        .and_then(|r| super::campaign::run(r.run));
    if cov.is_some() && args.warm() {
        // every server of the cell is back in the pool: its data into the cell, reset
        for e in server::pool::end_coverage(&cdir) {
            eprintln!(
                "{} {mode}: warning: {e} (that server's data since the cell began is lost)",
                lib.coordinate()
            );
        }
    }
    let starts = server::total_starts() - starts;
    match outcome {
        Ok(_) => {
            let report = Report::load(&cdir)
                .with_context(|| format!("cannot read the run in {}", cdir.display()))?;
            let rel = format!("{}/{}", lib.dir_name(), mode.as_str());
            let mut record = CellRecord::from_report(&report, &rel);
            if args.warm() {
                record.server_starts = Some(starts);
            }
            if let Some(c) = cov {
                record.coverage = coverage::report(
                    &c.jacoco,
                    &c.tc,
                    &coverage::exec_files(&cdir),
                    &c.classfiles,
                    &c.filters,
                    &cdir.join("coverage"),
                )
                .with_context(|| format!("coverage of {}", cdir.display()))?;
            }
            batch::write_json(&cdir.join(CELL), &record)?;
            batch::remove_if_present(&error_file)?;
        }
        Err(e) => {
            let error = render_error(&e);
            eprintln!(
                "{} {mode}: campaign failed, skipped: {error}",
                lib.coordinate()
            );
            batch::write_json(
                &error_file,
                &ErrorRecord {
                    stage: "campaign".into(),
                    error,
                },
            )?;
        }
    }
    Ok(())
}

pub(super) fn batch(args: BatchArgs) -> Result<ExitCode> {
    let libs = batch::read_list(&args.libs)?;
    let mut modes: Vec<BatchMode> = Vec::new();
    for m in if args.modes.is_empty() {
        BatchMode::ALL.to_vec()
    } else {
        args.modes.clone()
    } {
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    args.budget_per_lib
        .parse::<Budget>()
        .map_err(|e| anyhow::anyhow!("--budget-per-lib: {e}"))?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let recorded = BatchManifest::read(&args.out)?;
    let seed = args
        .seed
        .or(recorded.as_ref().map(|m| m.seed))
        .unwrap_or_else(rand::random);
    let manifest = BatchManifest {
        seed,
        language: args.lang.to_string(),
        compiler: args
            .compiler
            .clone()
            .unwrap_or_else(|| setup::default_compiler(args.lang).to_string()),
        modes: modes.clone(),
        budget: args.budget_per_lib.trim().to_string(),
        view: args.view.to_string(),
        coverage: None,
    };
    let cov = if args.coverage {
        let tc = setup::toolchain_for(&manifest.compiler, &args.repos, progress())?;
        let filters = if args.coverage_filters.is_empty() {
            coverage::default_filters(tc.tool)
        } else {
            args.coverage_filters.clone()
        };
        let jacoco = coverage::install(&args.repos, progress())?;
        let scratch = args.out.join(".coverage-classes");
        std::fs::create_dir_all(&scratch)
            .with_context(|| format!("cannot create {}", scratch.display()))?;
        let classfiles = coverage::class_files(&tc, &filters, &scratch)?;
        Some(CoverageSetup {
            jacoco,
            tc,
            classfiles,
            filters,
        })
    } else {
        None
    };
    let manifest = BatchManifest {
        coverage: cov.as_ref().map(|c| c.filters.clone()),
        ..manifest
    };
    manifest.open(&args.out)?;
    let cells = batch::cells(libs.len(), &modes, args.shard);
    let done_before = cells
        .iter()
        .filter(|(l, m)| {
            args.out
                .join(libs[*l].dir_name())
                .join(m.as_str())
                .join(CELL)
                .is_file()
        })
        .count();
    eprintln!(
        "batch {} (seed {seed}): {} libraries × {} modes{}, {} with {}, view {}, budget {} per cell{}",
        args.out.display(),
        libs.len(),
        modes.len(),
        args.shard
            .map(|s| format!(", shard {s}: {} cells", cells.len()))
            .unwrap_or_default(),
        manifest.language,
        manifest.compiler,
        manifest.view,
        manifest.budget,
        if done_before > 0 {
            format!("; resuming after {done_before} finished cells")
        } else {
            String::new()
        }
    );
    BatchSummary::collect(&args.out, &manifest, &libs)?.write(&args.out)?;
    if args.warm() {
        // one warm server per worker for the whole batch, reused by every cell's campaign
        server::pool::enable();
        if args.coverage {
            // each server process's start-up data, copied into every cell it serves
            let dir = args.out.join(STARTUP_DIR);
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            server::pool::set_startup_dir(&dir);
        }
    }
    let starts = server::total_starts();
    let bar = ProgressBar::with_draw_target(
        Some(cells.len() as u64),
        if progress() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} cells {elapsed_precise} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut fetched: HashMap<usize, bool> = HashMap::new();
    for (li, mode) in cells {
        let lib = &libs[li];
        let ldir = args.out.join(lib.dir_name());
        bar.set_message(format!("{} {mode}", lib.coordinate()));
        if ldir.join(mode.as_str()).join(CELL).is_file() {
            bar.inc(1);
            continue;
        }
        let ok = match fetched.get(&li) {
            Some(ok) => *ok,
            None => {
                let ok = bar.suspend(|| ensure_fetched(lib, &ldir, &args))?;
                fetched.insert(li, ok);
                ok
            }
        };
        if ok {
            bar.suspend(|| run_cell(&args.out, lib, mode, &manifest, &args, cov.as_ref()))?;
        }
        BatchSummary::collect(&args.out, &manifest, &libs)?.write(&args.out)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.warm() {
        server::pool::shutdown();
        eprintln!(
            "compile servers started: {} (one warm server per worker, kept across cells)",
            server::total_starts() - starts
        );
    }
    if let Some(c) = &cov {
        let before = BatchSummary::collect(&args.out, &manifest, &libs)?;
        write_union(&args.out, &before, c)?;
        write_increments(&args.out, &before)?;
    }
    let summary = BatchSummary::collect(&args.out, &manifest, &libs)?;
    summary.write(&args.out)?;
    if cov.is_some() {
        let path = args.out.join(batch::COVERAGE_CSV);
        let tmp = path.with_extension("csv.tmp");
        std::fs::write(&tmp, summary.coverage_csv())
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let page = args.out.join(batch::PAGE);
    let tmp = page.with_extension("html.tmp");
    std::fs::write(&tmp, batch::page::page(&summary))
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &page).with_context(|| format!("cannot write {}", page.display()))?;
    print!("{}", summary.table());
    println!("  summary: {}", args.out.join(batch::SUMMARY).display());
    Ok(ExitCode::SUCCESS)
}
