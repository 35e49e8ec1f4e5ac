//! `thalia bench extract`: how fast extraction, loading the API JSON back and building the API
//! graph are, on jars or the running JDK's `java.base`.

use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;
use thalia_extractors::bytecode::{self, ExtractOptions};

use crate::api::Api;
use crate::graph::ApiGraph;
use crate::stats::GraphStats;

/// What to extract and how often.
#[derive(Clone, Debug)]
pub struct ExtractBenchOptions {
    /// Jars to extract (ignored with `jdk`).
    pub inputs: Vec<PathBuf>,
    /// Extract the running JDK's `java.base` instead.
    pub jdk: bool,
    /// Extraction threads.
    pub jobs: usize,
    /// Timed repetitions (medians are reported).
    pub repeat: usize,
}

/// A problem running the benchmark.
#[derive(Debug, thiserror::Error)]
pub enum ExtractBenchError {
    /// Nothing to extract.
    #[error("give jars to extract, or --jdk")]
    NoInput,
    /// No JDK was found for `--jdk`.
    #[error("cannot find a JDK: set JAVA_HOME")]
    NoJdk,
    /// The thread pool could not start.
    #[error("cannot start the thread pool: {0}")]
    Pool(String),
    /// Extraction failed.
    #[error(transparent)]
    Extract(#[from] bytecode::ExtractError),
    /// Writing or loading the API JSON failed.
    #[error("{0}")]
    Io(String),
}

/// The figures of one benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct ExtractBenchReport {
    /// Extraction threads.
    pub jobs: usize,
    /// Repetitions.
    pub repeat: usize,
    /// Median seconds of extraction.
    pub extract_seconds: f64,
    /// Median seconds of loading the written API JSON.
    pub load_seconds: f64,
    /// Median seconds of building the API graph.
    pub graph_seconds: f64,
    /// Classes extracted.
    pub classes: usize,
    /// Methods extracted.
    pub methods: usize,
    /// Constructors extracted.
    pub constructors: usize,
    /// Fields extracted.
    pub fields: usize,
    /// The graph's statistics.
    pub stats: GraphStats,
}

/// The median of `v` (0 when empty).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Runs the benchmark.
pub fn run(opts: &ExtractBenchOptions) -> Result<ExtractBenchReport, ExtractBenchError> {
    if !opts.jdk && opts.inputs.is_empty() {
        return Err(ExtractBenchError::NoInput);
    }
    let jobs = opts.jobs.max(1);
    let repeat = opts.repeat.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| ExtractBenchError::Pool(e.to_string()))?;
    let extract_once = || -> Result<bytecode::Extraction, ExtractBenchError> {
        let eo = ExtractOptions::default();
        if opts.jdk {
            let home = bytecode::find_java_home().ok_or(ExtractBenchError::NoJdk)?;
            Ok(bytecode::extract_jdk(&home, &["java.base"], &eo)?)
        } else {
            let paths: Vec<&std::path::Path> = opts.inputs.iter().map(PathBuf::as_path).collect();
            Ok(bytecode::extract_paths(&paths, &eo)?)
        }
    };
    let mut ex = Vec::new();
    let mut last = None;
    for _ in 0..repeat {
        let t = Instant::now();
        let e = pool.install(extract_once)?;
        ex.push(t.elapsed().as_secs_f64());
        last = Some(e);
    }
    let extraction = last.ok_or(ExtractBenchError::NoInput)?;
    let dir = tempfile::tempdir().map_err(|e| ExtractBenchError::Io(e.to_string()))?;
    thalia_extractors::write_class_docs(dir.path(), &extraction.docs)
        .map_err(|e| ExtractBenchError::Io(e.to_string()))?;
    let (mut load, mut graph) = (Vec::new(), Vec::new());
    let mut stats = None;
    for _ in 0..repeat {
        let t = Instant::now();
        let mut api =
            Api::load_dir(dir.path()).map_err(|e| ExtractBenchError::Io(e.to_string()))?;
        load.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let g = ApiGraph::build(&mut api);
        graph.push(t.elapsed().as_secs_f64());
        stats = Some(GraphStats::compute(&mut api, &g));
    }
    let stats = stats.ok_or(ExtractBenchError::NoInput)?;
    Ok(ExtractBenchReport {
        jobs,
        repeat,
        extract_seconds: median(ex),
        load_seconds: median(load),
        graph_seconds: median(graph),
        classes: extraction.docs.len(),
        methods: extraction.stats.methods,
        constructors: extraction.stats.constructors,
        fields: extraction.stats.fields,
        stats,
    })
}

impl ExtractBenchReport {
    /// The figures as a table.
    pub fn table(&self) -> String {
        format!(
            "extraction ({} thread{}):   {:.3} s median of {} ({} classes, {} methods, {} constructors, {} fields)\n\
             load API JSON:            {:.3} s median\n\
             build API graph:          {:.3} s median\n{}",
            self.jobs,
            if self.jobs == 1 { "" } else { "s" },
            self.extract_seconds,
            self.repeat,
            self.classes,
            self.methods,
            self.constructors,
            self.fields,
            self.load_seconds,
            self.graph_seconds,
            self.stats.table()
        )
    }
}
