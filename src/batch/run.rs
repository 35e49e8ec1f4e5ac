//! The batch loop (`thalia batch`): each library fetched into its directory, each cell's
//! campaign launched in this process through [`crate::campaign::launch()`] (with warm servers
//! kept across cells, and coverage measured per cell), the summary rebuilt after every cell,
//! and the coverage union, `coverage.csv` and `index.html` written at the end.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use thalia_extractors::fetch::{self, FetchOptions};
use thalia_extractors::maven::Coordinate;
use thalia_extractors::view::{AutoViews, View};
use thalia_translators::Language;

use super::union::{write_increments, write_union, CoverageSetup};
use super::{
    error_text, BatchError, BatchManifest, BatchMode, BatchSummary, CellRecord, ErrorRecord,
    Library, API_DIR, CELL, COVERAGE_CSV, ERROR, PAGE,
};
use crate::campaign::budget::Budget;
use crate::campaign::launch::{self, LaunchOptions, Programs, Summary, SynthPrograms};
use crate::campaign::report::Report;
use crate::campaign::setup::{self, CompileSettings};
use crate::campaign::shard::Shard;
use crate::coverage;
use crate::server;
use crate::synth::SynthConfig;

/// Where the warm servers keep their start-up coverage data (`BATCH/.servers/`).
const STARTUP_DIR: &str = ".servers";

/// A batch, as `thalia batch` takes it from its flags.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// The library list: one `group:artifact:version` a line, `#` comments.
    pub libs: PathBuf,
    /// The programs' language.
    pub lang: Language,
    /// The compiler, `NAME[@VERSION]` (default: the language's).
    pub compiler: Option<String>,
    /// The modes, each a campaign per library (empty: all four).
    pub modes: Vec<BatchMode>,
    /// Each cell's budget, as written (`300`, `30m`, `round`).
    pub budget_per_lib: String,
    /// The seed of every campaign (`None`: the batch directory's when resuming, else random).
    pub seed: Option<u64>,
    /// Compiler workers of each campaign (`None`: half the cores).
    pub jobs: Option<usize>,
    /// Programs per compiler invocation.
    pub batch_size: usize,
    /// Warm compile servers kept for the whole batch (`None`: with coverage only).
    pub warm: Option<bool>,
    /// Maven repositories for the libraries and compilers.
    pub repos: Vec<String>,
    /// Only this shard of the library × mode cells.
    pub shard: Option<Shard>,
    /// Measure the coverage of the compiler under test with JaCoCo.
    pub coverage: bool,
    /// The class-name patterns coverage is counted on (empty: the compiler's type checker).
    pub coverage_filters: Vec<String>,
    /// Which language's view of each library the campaigns synthesize from.
    pub view: View,
    /// The batch directory (resumed when it holds the same batch).
    pub out: PathBuf,
    /// Show progress bars.
    pub progress: bool,
    /// The command line recorded in every cell's manifest.
    pub command: Vec<String>,
    /// At the end of every cell, check its findings on the newest release of the compiler
    /// (see [`crate::campaign::recheck`]).
    pub recheck: bool,
    /// Run the programs each compiler accepts (`thalia run --run`).
    pub run: bool,
}

impl BatchOptions {
    /// The batch of `libs` into `out` with the command line's defaults (all four modes,
    /// 300 programs per cell, the `auto` view, no coverage).
    pub fn new(libs: PathBuf, out: PathBuf) -> BatchOptions {
        BatchOptions {
            libs,
            lang: Language::Java,
            compiler: None,
            modes: Vec::new(),
            budget_per_lib: "300".into(),
            seed: None,
            jobs: None,
            batch_size: 100,
            warm: None,
            repos: Vec::new(),
            shard: None,
            coverage: false,
            coverage_filters: Vec::new(),
            view: View::Auto,
            out,
            progress: false,
            command: Vec::new(),
            recheck: true,
            run: false,
        }
    }

    /// Whether the cells compile in warm servers: asked for, or by default with coverage.
    pub fn warm(&self) -> bool {
        self.warm.unwrap_or(self.coverage)
    }
}

/// What the caller hears of a batch as it goes.
pub trait BatchEvents {
    /// A cell's campaign has ended (not after Ctrl-C); `summary` is its session.
    fn cell_done(&self, summary: &Summary) {
        let _ = summary;
    }
}

/// Hears nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl BatchEvents for Quiet {}

/// What a batch session did.
#[derive(Clone, Debug)]
pub struct BatchOutcome {
    /// The batch as it stands (also in `OUT/summary.json`).
    pub summary: BatchSummary,
    /// Compile servers started by this session (with warm servers).
    pub server_starts: Option<usize>,
    /// Stopped by Ctrl-C in a cell after this many of its programs (the cell stays
    /// unfinished; running the batch again resumes it).
    pub interrupted: Option<u64>,
    /// `OUT/summary.json`.
    pub summary_file: PathBuf,
    /// `OUT/index.html`.
    pub page: PathBuf,
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

/// `std::fs::create_dir_all` with the batch's error.
fn create_dir(dir: &Path) -> Result<(), BatchError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| BatchError::context(format!("cannot create {}", dir.display()), e))
}

/// Writes `text` into `path` through a temporary file `tmp` and a rename.
fn write_through(path: &Path, tmp: &Path, text: &str) -> Result<(), BatchError> {
    std::fs::write(tmp, text)
        .map_err(|e| BatchError::context(format!("cannot write {}", tmp.display()), e))?;
    std::fs::rename(tmp, path)
        .map_err(|e| BatchError::context(format!("cannot write {}", path.display()), e))
}

/// Fetches `lib` into `ldir/api/` unless it is there; records the error and returns `false`
/// when it cannot be had or has no public API.
fn ensure_fetched(lib: &Library, ldir: &Path, opts: &BatchOptions) -> Result<bool, BatchError> {
    let api = ldir.join(API_DIR);
    let error_file = ldir.join(ERROR);
    if api.join("fetch.json").is_file() {
        super::remove_if_present(&error_file)?;
        return Ok(true);
    }
    let fail = |stage: &str, error: String| -> Result<bool, BatchError> {
        eprintln!("{}: {stage} failed, skipped: {error}", lib.coordinate());
        super::write_json(
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
    let fopts = FetchOptions {
        repos: opts.repos.clone(),
        docs: false,
        api_from_docs: false,
        progress: opts.progress,
        java_home: None,
        with_deps: false,
        view: opts.view,
        auto_views: auto_views(opts.lang),
        optional_deps: true,
    };
    let fetched = match fetch::fetch(&[coord], &fopts) {
        Ok(f) => f,
        Err(e) => return fail("fetch", error_text(&e)),
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
    let remove = |dir: &Path| {
        std::fs::remove_dir_all(dir)
            .map_err(|e| BatchError::context(format!("cannot remove {}", dir.display()), e))
    };
    if tmp.exists() {
        remove(&tmp)?;
    }
    fetch::write_fetched(&tmp, &fetched).map_err(|e| {
        BatchError::context(format!("cannot write the API into {}", tmp.display()), e)
    })?;
    if api.exists() {
        remove(&api)?;
    }
    std::fs::rename(&tmp, &api)
        .map_err(|e| BatchError::context(format!("cannot rename to {}", api.display()), e))?;
    super::remove_if_present(&error_file)?;
    Ok(true)
}

/// A cell's campaign: the library's API in `mode`, with the batch's compiler, seed, budget
/// and settings, into `cdir`, no reduction (`thalia reduce` does it later).
fn cell_launch(
    api: &Path,
    cdir: &Path,
    mode: BatchMode,
    manifest: &BatchManifest,
    budget: Budget,
    opts: &BatchOptions,
) -> LaunchOptions {
    let programs = SynthPrograms {
        modes: vec![mode.mode()],
        erase: mode.erase(),
        seed: Some(manifest.seed),
        config: SynthConfig::default(),
        reduce: false,
        ..SynthPrograms::new(Some(api.to_path_buf()), opts.lang)
    };
    let settings = CompileSettings {
        classpath: None,
        repos: opts.repos.clone(),
        batch_size: opts.batch_size,
        jobs: opts.jobs,
        budget,
        timeout_seconds: 60.0,
        server: opts.warm(),
        progress: opts.progress,
    };
    LaunchOptions {
        compiler: Some(manifest.compiler.clone()),
        out: Some(cdir.to_path_buf()),
        command: opts.command.clone(),
        recheck: opts.recheck,
        run: opts.run,
        ..LaunchOptions::new(Programs::Synth(Box::new(programs)), settings)
    }
}

/// How a cell ended.
enum CellEnd {
    /// Its campaign ended (recorded in `cell.json`) or failed (recorded in `error.json`).
    Done,
    /// Ctrl-C stopped it after this many programs of this session.
    Interrupted(u64),
}

/// Runs (or resumes) one cell's campaign and records its outcome.
fn run_cell(
    lib: &Library,
    mode: BatchMode,
    manifest: &BatchManifest,
    budget: Budget,
    opts: &BatchOptions,
    cov: Option<&CoverageSetup>,
    events: &dyn BatchEvents,
) -> Result<CellEnd, BatchError> {
    let ldir = opts.out.join(lib.dir_name());
    let cdir = ldir.join(mode.as_str());
    let error_file = cdir.join(ERROR);
    let mut cell = cell_launch(&ldir.join(API_DIR), &cdir, mode, manifest, budget, opts);
    let warm = opts.warm();
    if let Some(c) = cov {
        create_dir(&cdir)?;
        // warm servers kept across cells: the agent attached once, the data dumped per cell
        let agent = if warm {
            coverage::server_agent_option(&c.jacoco, &c.filters)
        } else {
            coverage::agent_option(&c.jacoco, &cdir.join("jacoco.exec"), &c.filters)
        };
        cell.jvm_options.push(agent);
        if warm {
            server::pool::begin_coverage(&cdir)
                .map_err(|e| BatchError::context(format!("coverage of {}", cdir.display()), e))?;
        }
    }
    let starts = server::total_starts();
    let outcome = launch::launch(&cell);
    if cov.is_some() && warm {
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
        Ok(summary) if summary.outcome.interrupted => {
            Ok(CellEnd::Interrupted(summary.outcome.judged))
        }
        Ok(summary) => {
            events.cell_done(&summary);
            let report = Report::load(&cdir).map_err(|e| {
                BatchError::context(format!("cannot read the run in {}", cdir.display()), e)
            })?;
            let rel = format!("{}/{}", lib.dir_name(), mode.as_str());
            let mut record = CellRecord::from_report(&report, &rel);
            if warm {
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
                .map_err(|e| BatchError::context(format!("coverage of {}", cdir.display()), e))?;
            }
            super::write_json(&cdir.join(CELL), &record)?;
            super::remove_if_present(&error_file)?;
            Ok(CellEnd::Done)
        }
        Err(e) => {
            let error = error_text(&e);
            eprintln!(
                "{} {mode}: campaign failed, skipped: {error}",
                lib.coordinate()
            );
            super::write_json(
                &error_file,
                &ErrorRecord {
                    stage: "campaign".into(),
                    error,
                },
            )?;
            Ok(CellEnd::Done)
        }
    }
}

/// Installs JaCoCo and extracts the compiler's class files for `--coverage`.
fn coverage_setup(opts: &BatchOptions, compiler: &str) -> Result<CoverageSetup, BatchError> {
    let tc = setup::toolchain_for(compiler, &opts.repos, opts.progress)?;
    let filters = if opts.coverage_filters.is_empty() {
        coverage::default_filters(tc.tool)
    } else {
        opts.coverage_filters.clone()
    };
    let jacoco = coverage::install(&opts.repos, opts.progress)?;
    let scratch = opts.out.join(".coverage-classes");
    create_dir(&scratch)?;
    let classfiles = coverage::class_files(&tc, &filters, &scratch)?;
    Ok(CoverageSetup {
        jacoco,
        tc,
        classfiles,
        filters,
    })
}

/// Runs (or resumes) the batch `opts` describes: every unfinished cell of its shard, in list
/// order, until the end or Ctrl-C (see [`crate::campaign::interrupt`]); `events` hears of
/// every cell that ends.
pub fn run(opts: &BatchOptions, events: &dyn BatchEvents) -> Result<BatchOutcome, BatchError> {
    let libs = super::read_list(&opts.libs)?;
    let mut modes: Vec<BatchMode> = Vec::new();
    for m in if opts.modes.is_empty() {
        BatchMode::ALL.to_vec()
    } else {
        opts.modes.clone()
    } {
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    let budget = opts
        .budget_per_lib
        .parse::<Budget>()
        .map_err(BatchError::Budget)?;
    create_dir(&opts.out)?;
    let recorded = BatchManifest::read(&opts.out)?;
    let seed = opts
        .seed
        .or(recorded.as_ref().map(|m| m.seed))
        .unwrap_or_else(rand::random);
    let manifest = BatchManifest {
        seed,
        language: opts.lang.to_string(),
        compiler: opts
            .compiler
            .clone()
            .unwrap_or_else(|| setup::default_compiler(opts.lang).to_string()),
        modes: modes.clone(),
        budget: opts.budget_per_lib.trim().to_string(),
        view: opts.view.to_string(),
        coverage: None,
        run: opts.run,
    };
    let cov = if opts.coverage {
        Some(coverage_setup(opts, &manifest.compiler)?)
    } else {
        None
    };
    let manifest = BatchManifest {
        coverage: cov.as_ref().map(|c| c.filters.clone()),
        ..manifest
    };
    manifest.open(&opts.out)?;
    let cells = super::cells(libs.len(), &modes, opts.shard);
    let done_before = cells
        .iter()
        .filter(|(l, m)| {
            opts.out
                .join(libs[*l].dir_name())
                .join(m.as_str())
                .join(CELL)
                .is_file()
        })
        .count();
    eprintln!(
        "batch {} (seed {seed}): {} libraries × {} modes{}, {} with {}, view {}, budget {} per cell{}",
        opts.out.display(),
        libs.len(),
        modes.len(),
        opts.shard
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
    BatchSummary::collect(&opts.out, &manifest, &libs)?.write(&opts.out)?;
    let warm = opts.warm();
    if warm {
        // one warm server per worker for the whole batch, reused by every cell's campaign
        server::pool::enable();
        if opts.coverage {
            // each server process's start-up data, copied into every cell it serves
            let dir = opts.out.join(STARTUP_DIR);
            create_dir(&dir)?;
            server::pool::set_startup_dir(&dir);
        }
    }
    let starts = server::total_starts();
    let bar = ProgressBar::with_draw_target(
        Some(cells.len() as u64),
        if opts.progress {
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
    let mut interrupted = None;
    for (li, mode) in cells {
        let lib = &libs[li];
        let ldir = opts.out.join(lib.dir_name());
        bar.set_message(format!("{} {mode}", lib.coordinate()));
        if ldir.join(mode.as_str()).join(CELL).is_file() {
            bar.inc(1);
            continue;
        }
        let ok = match fetched.get(&li) {
            Some(ok) => *ok,
            None => {
                let ok = bar.suspend(|| ensure_fetched(lib, &ldir, opts))?;
                fetched.insert(li, ok);
                ok
            }
        };
        if ok {
            let end =
                bar.suspend(|| run_cell(lib, mode, &manifest, budget, opts, cov.as_ref(), events))?;
            if let CellEnd::Interrupted(n) = end {
                interrupted = Some(n);
                break;
            }
        }
        BatchSummary::collect(&opts.out, &manifest, &libs)?.write(&opts.out)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let server_starts = warm.then(|| {
        server::pool::shutdown();
        server::total_starts() - starts
    });
    if let (Some(c), None) = (&cov, interrupted) {
        let before = BatchSummary::collect(&opts.out, &manifest, &libs)?;
        write_union(&opts.out, &before, c)?;
        write_increments(&opts.out, &before)?;
    }
    let summary = BatchSummary::collect(&opts.out, &manifest, &libs)?;
    summary.write(&opts.out)?;
    if cov.is_some() {
        let path = opts.out.join(COVERAGE_CSV);
        write_through(
            &path,
            &path.with_extension("csv.tmp"),
            &summary.coverage_csv(),
        )?;
    }
    let page = opts.out.join(PAGE);
    write_through(
        &page,
        &page.with_extension("html.tmp"),
        &super::page::page(&summary),
    )?;
    Ok(BatchOutcome {
        summary,
        server_starts,
        interrupted,
        summary_file: opts.out.join(super::SUMMARY),
        page,
    })
}
