//! The campaign loop: a [`Source`] yields batches of programs on this thread, `jobs` compiler
//! workers (each with its own [`Compiler`], so its own warm server in server mode) compile
//! them, and every verdict goes into the [`Store`] as soon as its batch is done.
//!
//! The order in which a source yields programs depends only on its seed and options, so a
//! resumed run skips exactly the programs the store already judged and, with a program-count
//! budget, ends with the same set of programs as an uninterrupted run.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use thalia_translators::{JavaTranslator, Language, Translator};

use super::shard::{schedule_round, Shard};
use super::store::{Store, StoreError};
use super::variant::Variant;
use super::{judge, Candidate, Expected, Twin};
use crate::api::Api;
use crate::compile::{CompileError, CompileOptions, Compiler, Mode as CompileMode};
use crate::synth::build::rng::RngStream;
use crate::synth::census::Census;
use crate::synth::output::{synth_command, RunSummary};
use crate::synth::{self, Mode, Plan, ProgramRecord, Selection, SynthConfig, SynthContext};
use crate::toolchain::Toolchain;

/// How much a campaign does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Every program of one synthesis round (or of the checked directory).
    OneRound,
    /// This many programs in all (counted over the run, resumed sessions included; programs
    /// the translator cannot write do not count); rounds with derived seeds follow the first
    /// when it has fewer.
    Programs(u64),
    /// Until this much time has passed in this session (batches under way finish).
    Time(Duration),
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::OneRound => write!(f, "one round"),
            Budget::Programs(n) => write!(f, "{n} programs"),
            Budget::Time(d) => write!(f, "{} s", d.as_secs_f64()),
        }
    }
}

/// Largest program-count budget (`--budget N`); more is an error.
pub const MAX_BUDGET_PROGRAMS: u64 = 1_000_000_000_000;

/// Largest time budget (`--budget 90s`, `2h`, `1d`): 366 days; more is an error.
pub const MAX_BUDGET_SECONDS: u64 = 366 * 86_400;

impl std::str::FromStr for Budget {
    type Err = String;
    /// `500` (programs), `90s`, `30m`, `2h`, `1d` (time), or `round`; at most
    /// [`MAX_BUDGET_PROGRAMS`] programs or [`MAX_BUDGET_SECONDS`].
    fn from_str(s: &str) -> Result<Budget, String> {
        let s = s.trim();
        if s == "round" {
            return Ok(Budget::OneRound);
        }
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            return match s.parse::<u64>() {
                Ok(n) if n <= MAX_BUDGET_PROGRAMS => Ok(Budget::Programs(n)),
                _ => Err(format!(
                    "`{s}`: a budget of at most {MAX_BUDGET_PROGRAMS} programs"
                )),
            };
        }
        // the unit is the trailing run of letters (`1.5m`, `1e3s`)
        let (num, unit) = s.split_at(s.trim_end_matches(char::is_alphabetic).len());
        let n: f64 = num
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a budget (e.g. 500, 90s, 30m, 2h, 1d, round)"))?;
        let unit_secs = match unit {
            "s" => 1.0,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            "d" => 86400.0,
            _ => return Err(format!("`{s}`: unknown time unit `{unit}` (s, m, h, d)")),
        };
        let secs = n * unit_secs;
        if !secs.is_finite() || secs < 0.0 {
            return Err(format!("`{s}` is not a budget"));
        }
        if secs > MAX_BUDGET_SECONDS as f64 {
            return Err(format!(
                "`{s}`: a time budget of at most {MAX_BUDGET_SECONDS} s ({} days)",
                MAX_BUDGET_SECONDS / 86_400
            ));
        }
        Duration::try_from_secs_f64(secs)
            .map(Budget::Time)
            .map_err(|e| format!("`{s}` is not a budget: {e}"))
    }
}

/// A problem that stops a campaign (what was recorded before it stays in the store).
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The compiler could not be run at all.
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// The programs could not be read or made.
    #[error("{0}")]
    Source(String),
}

/// Programs yielded by a source: the candidates to compile and the number of positions
/// consumed (candidates plus programs skipped because the store judged them already).
#[derive(Debug, Default)]
pub struct Batch {
    /// Programs to compile.
    pub candidates: Vec<Candidate>,
    /// Positions consumed.
    pub positions: u64,
}

/// Where a campaign's programs come from, in a deterministic order.
pub trait Source {
    /// At most `max` next positions, without building programs for which `done` holds;
    /// `None` when there are no more.
    fn next_batch(
        &mut self,
        max: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Batch>, CampaignError>;

    /// Positions in one round, when known.
    fn round_len(&self) -> Option<u64>;
}

/// How a campaign runs.
#[derive(Clone, Debug)]
pub struct CampaignOptions {
    /// Programs per compiler invocation.
    pub batch_size: usize,
    /// Compiler workers running at once.
    pub jobs: usize,
    /// When to stop.
    pub budget: Budget,
    /// Classpath and per-file time budget.
    pub compile: CompileOptions,
    /// A fresh process per batch, or a warm server per worker.
    pub mode: CompileMode,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// The javac that judges the Java twins of findings (none: findings are not checked).
    pub twin: Option<Toolchain>,
    /// Other compilers every program is also compiled with (`--against`), in the order of
    /// the manifest's `against`.
    pub against: Vec<super::setup::Against>,
}

/// What a session did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Outcome {
    /// Programs judged in this session.
    pub judged: u64,
    /// Programs skipped because an earlier session judged them.
    pub resumed: u64,
    /// Findings in this session.
    pub findings: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Runs a campaign until the source or the budget is exhausted.
pub fn run(
    store: Store,
    tc: &Toolchain,
    source: &mut dyn Source,
    opts: &CampaignOptions,
) -> Result<(Outcome, Store), CampaignError> {
    let start = Instant::now();
    let mut store = store;
    store.start_clock();
    let work = store.dir().join("work");
    let store = Mutex::new(store);
    let failure: Mutex<Option<CampaignError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let judged = std::sync::atomic::AtomicU64::new(0);
    let session_findings = std::sync::atomic::AtomicU64::new(0);
    let total = match opts.budget {
        Budget::Programs(n) => Some(n),
        Budget::OneRound => source.round_len(),
        Budget::Time(_) => None,
    };
    let bar = if opts.progress {
        let b = match total {
            Some(n) => indicatif::ProgressBar::new(n),
            None => indicatif::ProgressBar::new_spinner(),
        };
        let template = if total.is_some() {
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} programs ({per_sec}) {msg}"
        } else {
            "{spinner} [{elapsed_precise}] {pos} programs ({per_sec}) {msg}"
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            b.set_style(style);
        }
        b.enable_steady_tick(Duration::from_millis(250));
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let show = |st: &Store| {
        let (n, distinct) = st.findings();
        bar.set_message(format!("{n} findings ({distinct} distinct)"));
    };
    show(&lock(&store));
    let (tx, rx) = mpsc::sync_channel::<Vec<Candidate>>(opts.jobs.max(1));
    let rx = Mutex::new(rx);
    let mut positions: u64 = 0;
    let mut resumed: u64 = 0;
    std::thread::scope(|s| {
        for w in 0..opts.jobs.max(1) {
            let (rx, store, failure, stop, bar, judged, session_findings, work) = (
                &rx,
                &store,
                &failure,
                &stop,
                &bar,
                &judged,
                &session_findings,
                &work,
            );
            s.spawn(move || {
                let mut compiler = Compiler::new(tc, opts.mode);
                let mut against: Vec<(Compiler, Option<&'static Variant>)> = opts
                    .against
                    .iter()
                    .map(|a| (Compiler::new(&a.toolchain, opts.mode), a.variant))
                    .collect();
                let dir = work.join(format!("w{w}"));
                loop {
                    let next = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                    let Ok(batch) = next else { break };
                    if stop.load(Ordering::SeqCst) {
                        continue;
                    }
                    let result =
                        compile_and_record(&mut compiler, &mut against, &dir, &batch, opts, store);
                    match result {
                        Ok(found) => {
                            judged.fetch_add(batch.len() as u64, Ordering::SeqCst);
                            session_findings.fetch_add(found, Ordering::SeqCst);
                            bar.inc(batch.len() as u64);
                            show(&lock(store));
                        }
                        Err(e) => {
                            stop.store(true, Ordering::SeqCst);
                            failure
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(e);
                        }
                    }
                }
                let _ = std::fs::remove_dir_all(&dir);
            });
        }
        // the producer: this thread
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let max = match opts.budget {
                Budget::Programs(n) if positions >= n => break,
                Budget::Programs(n) => (n - positions).min(opts.batch_size as u64) as usize,
                Budget::Time(d) if start.elapsed() >= d => break,
                _ => opts.batch_size,
            };
            let done = |k: &str| lock(&store).is_done(k);
            match source.next_batch(max.max(1), &done) {
                Ok(Some(b)) => {
                    positions += b.positions;
                    let skipped = b.positions - b.candidates.len() as u64;
                    resumed += skipped;
                    bar.inc(skipped);
                    if !b.candidates.is_empty() && tx.send(b.candidates).is_err() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                    break;
                }
            }
        }
        drop(tx);
    });
    bar.finish_and_clear();
    let _ = std::fs::remove_dir(&work);
    let mut store = store.into_inner().unwrap_or_else(|p| p.into_inner());
    store.checkpoint()?;
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let outcome = Outcome {
        judged: judged.into_inner(),
        resumed,
        findings: session_findings.into_inner(),
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((outcome, store))
}

/// Locks the store, even after a worker panicked holding it (its lines are complete).
fn lock(m: &Mutex<Store>) -> std::sync::MutexGuard<'_, Store> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Compiles one batch in `dir` and records every program's verdict; returns the findings.
fn compile_and_record(
    compiler: &mut Compiler,
    against: &mut [(Compiler, Option<&'static Variant>)],
    dir: &Path,
    batch: &[Candidate],
    opts: &CampaignOptions,
    store: &Mutex<Store>,
) -> Result<u64, CampaignError> {
    let src = dir.join("src");
    let classes = dir.join("classes");
    let _ = std::fs::remove_dir_all(dir);
    let mkdir = |p: &Path| {
        std::fs::create_dir_all(p).map_err(|source| StoreError::Io {
            path: p.to_path_buf(),
            source,
        })
    };
    mkdir(&src)?;
    mkdir(&classes)?;
    let mut files = Vec::with_capacity(batch.len());
    for c in batch {
        let p = src.join(&c.file);
        std::fs::write(&p, &c.source).map_err(|source| StoreError::Io {
            path: p.clone(),
            source,
        })?;
        files.push(p);
    }
    let result = compiler.compile_batch(&files, &classes, &opts.compile)?;
    let share = result.seconds / batch.len().max(1) as f64;
    let verdict_of = |c: &Candidate| {
        result.verdicts.get(&c.file).ok_or_else(|| {
            CampaignError::Source(format!("the compiler gave no verdict for {}", c.file))
        })
    };
    // the Java twins of the findings a twin can confirm, judged by javac
    let mut twins = Vec::new();
    for c in batch {
        // a twin the language model says cannot judge the program is not compiled
        let twin_wanted = judge(c.expected, verdict_of(c)?).is_some_and(super::twin_applies)
            && c.twin.is_some()
            && c.record.twin_not_applicable.is_none();
        if twin_wanted {
            twins.push(c);
        }
    }
    let twin_verdicts = match (&opts.twin, twins.is_empty()) {
        (Some(javac), false) => compile_twins(javac, dir, &twins, opts)?,
        _ => std::collections::BTreeMap::new(),
    };
    // the same files with every other compiler
    let mut others = Vec::with_capacity(against.len());
    for (i, (other, variant)) in against.iter_mut().enumerate() {
        let out = dir.join(format!("against-{i}"));
        mkdir(&out)?;
        let Some(v) = variant else {
            others.push(other.compile_batch(&files, &out, &opts.compile)?);
            continue;
        };
        // the variant's flags, and its sources where it rewrites them (same file names)
        let compile = CompileOptions {
            flags: v.flag_list(),
            ..opts.compile.clone()
        };
        let vfiles = if v.rewrite.is_some() {
            let vsrc = dir.join(format!("against-{i}-src"));
            mkdir(&vsrc)?;
            let mut vfiles = Vec::with_capacity(batch.len());
            for c in batch {
                let p = vsrc.join(&c.file);
                std::fs::write(&p, v.apply(&c.source)).map_err(|source| StoreError::Io {
                    path: p.clone(),
                    source,
                })?;
                vfiles.push(p);
            }
            vfiles
        } else {
            files.clone()
        };
        others.push(other.compile_batch(&vfiles, &out, &compile)?);
    }
    let mut st = lock(store);
    let mut found = 0;
    for c in batch {
        let twin = twin_verdicts.get(&c.key);
        let mut other_verdicts = Vec::with_capacity(others.len());
        for r in &others {
            other_verdicts.push(r.verdicts.get(&c.file).cloned().ok_or_else(|| {
                CampaignError::Source(format!("another compiler gave no verdict for {}", c.file))
            })?);
        }
        if st
            .record(c, verdict_of(c)?, share, twin, &other_verdicts)?
            .finding
            .is_some()
        {
            found += 1;
        }
    }
    st.checkpoint()?;
    Ok(found)
}

/// Compiles the Java twins of `cands` with `javac` (one batch, a fresh process: findings are
/// rare) and returns their verdicts by candidate key.
fn compile_twins(
    javac: &Toolchain,
    dir: &Path,
    cands: &[&Candidate],
    opts: &CampaignOptions,
) -> Result<std::collections::BTreeMap<String, crate::compile::Verdict>, CampaignError> {
    let src = dir.join("twin-src");
    let classes = dir.join("twin-classes");
    let mut files = Vec::new();
    let mut keys = Vec::new();
    for p in [&src, &classes] {
        std::fs::create_dir_all(p).map_err(|source| StoreError::Io {
            path: p.clone(),
            source,
        })?;
    }
    for c in cands {
        let Some(t) = &c.twin else { continue };
        let p = src.join(&t.file);
        std::fs::write(&p, &t.source).map_err(|source| StoreError::Io {
            path: p.clone(),
            source,
        })?;
        files.push(p);
        keys.push((t.file.clone(), c.key.clone()));
    }
    let result = crate::compile::compile_batch(javac, &files, &classes, &opts.compile)?;
    Ok(keys
        .into_iter()
        .filter_map(|(file, key)| result.verdicts.get(&file).map(|v| (key, v.clone())))
        .collect())
}

/// The programs of a directory written by `thalia synth`, in manifest order.
pub struct DirSource {
    dir: PathBuf,
    records: Vec<ProgramRecord>,
    next: usize,
    summary: RunSummary,
}

impl DirSource {
    /// Reads `dir/programs.jsonl` and `dir/summary.json` (the programs' language, API and the
    /// command that regenerates them).
    pub fn open(dir: &Path) -> Result<DirSource, CampaignError> {
        let manifest = dir.join("programs.jsonl");
        let text = std::fs::read_to_string(&manifest).map_err(|e| {
            CampaignError::Source(format!("cannot read {}: {e}", manifest.display()))
        })?;
        let mut records = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let r: ProgramRecord = serde_json::from_str(line).map_err(|e| {
                CampaignError::Source(format!(
                    "{}: line {}: not a program record: {e}",
                    manifest.display(),
                    i + 1
                ))
            })?;
            records.push(r);
        }
        let summary = RunSummary::read(dir).map_err(|e| CampaignError::Source(e.to_string()))?;
        Ok(DirSource {
            dir: dir.to_path_buf(),
            records,
            next: 0,
            summary,
        })
    }

    /// Keeps only shard `shard`'s programs: those at positions of `programs.jsonl` it owns
    /// (below `budget`, a program count, when given: the programs the unsharded check with
    /// that budget judges); returns the shard's share of a count budget.
    pub fn set_shard(&mut self, shard: Shard, budget: Option<u64>) -> Option<u64> {
        let limit = budget.map_or(usize::MAX, |b| usize::try_from(b).unwrap_or(usize::MAX));
        let records = std::mem::take(&mut self.records);
        self.records = records
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i < limit && shard.owns(*i))
            .map(|(_, r)| r)
            .collect();
        budget.map(|_| self.records.len() as u64)
    }

    /// The programs' language, from `summary.json`.
    pub fn language(&self) -> Language {
        self.summary.language
    }

    /// The API the programs were synthesized from, as `summary.json` names it (a directory,
    /// `@NAME`, or the embedded API's label).
    pub fn api(&self) -> &str {
        &self.summary.api
    }

    /// Number of programs.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when the directory has no program.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

impl Source for DirSource {
    fn next_batch(
        &mut self,
        max: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Batch>, CampaignError> {
        if self.next >= self.records.len() {
            return Ok(None);
        }
        let end = (self.next + max).min(self.records.len());
        let mut batch = Batch::default();
        let regenerate = self.summary.regenerate_command(&self.dir);
        for r in &self.records[self.next..end] {
            batch.positions += 1;
            if done(&r.id) {
                continue;
            }
            let read = |file: &str| {
                let path = self.dir.join(file);
                std::fs::read_to_string(&path).map_err(|e| {
                    CampaignError::Source(format!("cannot read {}: {e}", path.display()))
                })
            };
            let source = read(&r.file)?;
            let twin = match &r.twin {
                Some(f) => Some(Twin {
                    file: f.clone(),
                    source: read(f)?,
                }),
                None => None,
            };
            batch.candidates.push(Candidate {
                twin,
                program: None,
                key: r.id.clone(),
                regenerate: Some(format!("{regenerate} --only {}", r.id)),
                id: r.id.clone(),
                mode: format!(
                    "{}{}",
                    r.mode.as_str(),
                    if r.erased { "+erase" } else { "" }
                ),
                round: 0,
                file: r.file.clone(),
                source,
                expected: r.expected,
                record: r.clone(),
            });
        }
        self.next = end;
        Ok(Some(batch))
    }

    fn round_len(&self) -> Option<u64> {
        Some(self.records.len() as u64)
    }
}

/// The seed of synthesis round `round` (round 0 uses the run's seed).
pub fn round_seed(seed: u64, round: u64) -> u64 {
    if round == 0 {
        seed
    } else {
        RngStream::Round.seed(seed, round)
    }
}

/// One stream of a synthesis source: a mode with its configuration.
struct Stream {
    label: String,
    cfg: SynthConfig,
    plan: Option<Plan>,
    next: usize,
}

/// Programs synthesized on the fly from an API: the modes' programs interleaved batch by
/// batch, round after round (each round with a seed derived from the run's).
pub struct SynthSource {
    api: Api,
    ctx: SynthContext,
    translator: Box<dyn Translator + Send + Sync>,
    streams: Vec<Stream>,
    seed: u64,
    jobs: usize,
    api_arg: String,
    rounds: bool,
    round: u64,
    turn: usize,
    untranslatable: std::collections::BTreeMap<String, u64>,
    twin: Option<JavaTranslator>,
    untwinned: std::collections::BTreeMap<String, u64>,
    config_file: Option<PathBuf>,
    census: Census,
    census_file: Option<PathBuf>,
    shard: Option<Shard>,
    cap: Option<RoundCap>,
}

/// Where a sharded source stands in the unsharded schedule of a count budget.
#[derive(Clone, Debug)]
struct RoundCap {
    /// The batch size, the unsharded schedule's turns.
    chunk: usize,
    /// Budget left after the current round.
    left: u64,
    /// The unsharded schedule's next stream after the current round.
    turn: usize,
    /// Programs of each stream the current round may take.
    lens: Vec<usize>,
    /// The budget ends in (or with) the current round.
    last: bool,
}

/// The file of a run directory that holds the census of the programs `thalia run` wrote.
pub const CENSUS_FILE: &str = "census.json";

/// The file of a run directory that holds the effective synthesis config of `thalia run`.
pub const SYNTH_CONFIG_FILE: &str = "synth-config.json";

impl SynthSource {
    /// A source over `api` for `modes` (each with the knobs and erasure of `base`), written
    /// by `translator`; `api_arg` is how `thalia synth --api` names the API (for
    /// regeneration commands); `rounds` allows more than one round.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mut api: Api,
        translator: Box<dyn Translator + Send + Sync>,
        modes: &[Mode],
        base: &SynthConfig,
        seed: u64,
        jobs: usize,
        api_arg: &str,
        rounds: bool,
    ) -> SynthSource {
        let lang = translator.language();
        let native = crate::synth::LanguageRules::from(lang).native_syntax();
        let ctx = SynthContext::for_native(&mut api, native);
        let streams = modes
            .iter()
            .map(|&mode| Stream {
                label: format!(
                    "{}{}",
                    mode.as_str(),
                    if base.erase { "+erase" } else { "" }
                ),
                cfg: SynthConfig {
                    mode,
                    lang,
                    ..base.clone()
                },
                plan: None,
                next: 0,
            })
            .collect();
        SynthSource {
            api,
            ctx,
            translator,
            streams,
            seed,
            jobs: jobs.max(1),
            api_arg: api_arg.to_string(),
            rounds,
            round: 0,
            turn: 0,
            untranslatable: Default::default(),
            twin: (lang != Language::Java).then_some(JavaTranslator),
            untwinned: Default::default(),
            config_file: None,
            census: Census::default(),
            census_file: None,
            shard: None,
            cap: None,
        }
    }

    /// Makes this source shard `shard` of its campaign: it yields only the programs whose
    /// index the shard owns (numbered as in the unsharded run). With `budget`, a program
    /// count, it stops where the unsharded run with that budget and batch size `chunk` would
    /// (see [`schedule_round`]), round by round, and then ends.
    pub fn set_shard(&mut self, shard: Shard, budget: Option<u64>, chunk: usize) {
        self.shard = Some(shard);
        if let Some(b) = budget {
            self.cap = Some(RoundCap {
                chunk: chunk.max(1),
                left: b,
                turn: self.turn,
                lens: Vec::new(),
                last: false,
            });
            self.cap_round();
        }
    }

    /// Caps the current round by the unsharded schedule of the budget left.
    fn cap_round(&mut self) {
        let Some(mut cap) = self.cap.take() else {
            return;
        };
        let lens: Vec<usize> = (0..self.streams.len())
            .map(|s| self.plan_of(s).order.len())
            .collect();
        let r = schedule_round(&lens, cap.chunk, cap.turn, cap.left);
        cap.last = r.used >= cap.left;
        cap.left -= r.used.min(cap.left);
        cap.turn = r.turn;
        cap.lens = r.taken;
        self.cap = Some(cap);
    }

    /// Programs of stream `s` in the current round this source may take (the plan's, cut by
    /// a count budget's cap).
    fn stream_len(&mut self, s: usize) -> usize {
        let len = self.plan_of(s).order.len();
        match &self.cap {
            Some(cap) => len.min(cap.lens.get(s).copied().unwrap_or(0)),
            None => len,
        }
    }

    /// Keeps the census of the programs this source writes in `dir/census.json`, adding to
    /// the one there when the run is resumed.
    pub fn keep_census(&mut self, dir: &Path, resuming: bool) -> Result<(), CampaignError> {
        let path = dir.join(CENSUS_FILE);
        if resuming {
            if let Ok(text) = std::fs::read_to_string(&path) {
                match serde_json::from_str::<Census>(&text) {
                    Ok(c) => self.census = c,
                    Err(e) => eprintln!(
                        "warning: {}: {e}; the census restarts from this session",
                        path.display()
                    ),
                }
            }
        }
        self.census_file = Some(path);
        Ok(())
    }

    /// The census of the programs written so far.
    pub fn census(&self) -> &Census {
        &self.census
    }

    fn write_census(&self) -> Result<(), CampaignError> {
        let Some(path) = &self.census_file else {
            return Ok(());
        };
        let text = serde_json::to_string_pretty(&self.census)
            .map_err(|e| CampaignError::Source(format!("{}: {e}", path.display())))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| CampaignError::Source(format!("cannot write {}: {e}", path.display())))
    }

    /// Writes the effective synthesis config into `dir/synth-config.json`, which the
    /// findings' regeneration commands name when its knobs are not the defaults.
    pub fn write_config(&mut self, dir: &Path) -> Result<(), CampaignError> {
        let Some(stream) = self.streams.first() else {
            return Ok(());
        };
        let path = dir.join(SYNTH_CONFIG_FILE);
        let text = serde_json::to_string_pretty(&stream.cfg)
            .map_err(|e| CampaignError::Source(format!("{}: {e}", path.display())))?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| CampaignError::Source(format!("cannot write {}: {e}", path.display())))?;
        self.config_file = Some(path);
        Ok(())
    }

    /// Programs the translator could not write (skipped), in all.
    pub fn untranslatable(&self) -> u64 {
        self.untranslatable.values().sum()
    }

    /// Programs the translator could not write (skipped) and programs written without their
    /// Java twin (`Java twin: ...`), counted by reason.
    pub fn untranslatable_reasons(&self) -> std::collections::BTreeMap<String, u64> {
        let mut all = self.untranslatable.clone();
        all.extend(self.untwinned.iter().map(|(k, v)| (k.clone(), *v)));
        all
    }

    fn plan_of(&mut self, s: usize) -> &Plan {
        let seed = round_seed(self.seed, self.round);
        let (api, ctx, jobs) = (&self.api, &self.ctx, self.jobs);
        let stream = &mut self.streams[s];
        let cfg = &stream.cfg;
        stream.plan.get_or_insert_with(|| {
            synth::Run {
                api,
                ctx,
                cfg,
                seed,
                jobs,
            }
            .plan()
        })
    }
}

impl Source for SynthSource {
    fn next_batch(
        &mut self,
        max: usize,
        done: &dyn Fn(&str) -> bool,
    ) -> Result<Option<Batch>, CampaignError> {
        loop {
            // the next stream with programs left in this round
            let n = self.streams.len();
            let mut pick = None;
            for k in 0..n {
                let s = (self.turn + k) % n;
                let len = self.stream_len(s);
                let next = match self.shard {
                    Some(sh) => sh.first_at(self.streams[s].next),
                    None => self.streams[s].next,
                };
                if next < len {
                    pick = Some((s, len));
                    break;
                }
            }
            let Some((s, len)) = pick else {
                let empty = self
                    .streams
                    .iter()
                    .all(|st| st.plan.as_ref().is_none_or(|p| p.order.is_empty()));
                let capped = self.cap.as_ref().is_some_and(|c| c.last);
                if !self.rounds || empty || capped {
                    return Ok(None);
                }
                self.round += 1;
                for st in &mut self.streams {
                    st.plan = None;
                    st.next = 0;
                }
                self.cap_round();
                continue;
            };
            self.turn = (s + 1) % n;
            let seed = round_seed(self.seed, self.round);
            let round = self.round;
            let start = self.streams[s].next;
            // the positions of this batch: `max` programs of the stream, or of the shard's
            let indices: Vec<usize> = match self.shard {
                None => (start..(start + max).min(len)).collect(),
                Some(sh) => (sh.first_at(start)..len)
                    .step_by(sh.count as usize)
                    .take(max)
                    .collect(),
            };
            let end = indices.last().map_or(len, |&i| i + 1);
            self.streams[s].next = end;
            let label = self.streams[s].label.clone();
            let key = |i: usize| format!("{label}/r{round}/{}", synth::program_id(i));
            let todo: Vec<usize> = indices
                .iter()
                .copied()
                .filter(|&i| !done(&key(i)))
                .collect();
            let mut batch = Batch {
                candidates: Vec::new(),
                positions: indices.len() as u64,
            };
            if todo.is_empty() {
                return Ok(Some(batch));
            }
            let stream = &self.streams[s];
            let Some(plan) = stream.plan.as_ref() else {
                return Ok(Some(batch));
            };
            let run = synth::Run {
                api: &self.api,
                ctx: &self.ctx,
                cfg: &stream.cfg,
                seed,
                jobs: self.jobs,
            };
            let built = run.build(plan, &Selection::Only(todo), &|| {});
            let mut untranslatable = 0;
            let regenerate = synth_command(
                &self.api_arg,
                &stream.cfg,
                seed,
                self.config_file.as_deref(),
            );
            for mut p in built {
                let source = match self.translator.translate(&p.program) {
                    Ok(s) => s,
                    Err(e) => {
                        untranslatable += 1;
                        *self
                            .untranslatable
                            .entry(e.reason().to_string())
                            .or_default() += 1;
                        continue;
                    }
                };
                self.census.add_record(&p.program, &p.record);
                let file = self.translator.file_name(&p.program);
                p.record.file = file.clone();
                p.record.call_lines = self.translator.call_lines(&source);
                let twin = match &self.twin {
                    Some(t) => match t.translate(&p.program) {
                        Ok(source) => {
                            let file = t.file_name(&p.program);
                            p.record.twin = Some(file.clone());
                            Some(Twin { file, source })
                        }
                        Err(e) => {
                            let reason = format!("Java twin: {}", e.reason());
                            p.record
                                .twin_not_applicable
                                .get_or_insert_with(|| reason.clone());
                            *self.untwinned.entry(reason).or_default() += 1;
                            None
                        }
                    },
                    None => None,
                };
                batch.candidates.push(Candidate {
                    twin,
                    program: Some(std::sync::Arc::new(p.program)),
                    key: key(p.index),
                    id: p.record.id.clone(),
                    mode: label.clone(),
                    round,
                    file,
                    source,
                    expected: Expected::of_mode(stream.cfg.mode),
                    regenerate: Some(format!("{regenerate} --only {}", p.record.id)),
                    record: p.record,
                });
            }
            // a program the translator cannot write is no program: it does not count
            batch.positions -= untranslatable;
            self.write_census()?;
            return Ok(Some(batch));
        }
    }

    fn round_len(&self) -> Option<u64> {
        let lens: Option<Vec<usize>> = self
            .streams
            .iter()
            .map(|s| s.plan.as_ref().map(|p| p.order.len()))
            .collect();
        let mut lens = lens?;
        if let Some(cap) = &self.cap {
            for (l, c) in lens.iter_mut().zip(&cap.lens) {
                *l = (*l).min(*c);
            }
        }
        Some(match self.shard {
            Some(sh) => lens.iter().map(|&l| sh.owned_below(l) as u64).sum(),
            None => lens.iter().sum::<usize>() as u64,
        })
    }
}

impl SynthSource {
    /// Computes the first round's plans (so that [`Source::round_len`] is known).
    pub fn prepare(&mut self) {
        for s in 0..self.streams.len() {
            self.plan_of(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_counts_durations_and_rounds() {
        assert_eq!("500".parse::<Budget>(), Ok(Budget::Programs(500)));
        assert_eq!(
            "90s".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(90)))
        );
        assert_eq!(
            "2h".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(7200)))
        );
        assert_eq!(
            "1.5m".parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(90)))
        );
        assert_eq!("round".parse::<Budget>(), Ok(Budget::OneRound));
        assert!("5x".parse::<Budget>().is_err());
        assert!("soon".parse::<Budget>().is_err());
    }

    #[test]
    fn budgets_beyond_the_maximum_are_errors_not_panics() {
        for huge in [
            "18446744073709551615s",
            "18446744073709551615",
            "99999999999999999999999",
            "1e300s",
            "367d",
            "inf s",
            "NaNs",
            "-1s",
        ] {
            let e = huge.parse::<Budget>().unwrap_err();
            assert!(e.contains(huge.trim()), "{huge}: {e}");
        }
        assert!("18446744073709551615s"
            .parse::<Budget>()
            .unwrap_err()
            .contains("at most"));
        assert_eq!(
            format!("{}d", MAX_BUDGET_SECONDS / 86_400).parse::<Budget>(),
            Ok(Budget::Time(Duration::from_secs(MAX_BUDGET_SECONDS)))
        );
        assert_eq!(
            MAX_BUDGET_PROGRAMS.to_string().parse::<Budget>(),
            Ok(Budget::Programs(MAX_BUDGET_PROGRAMS))
        );
    }

    #[test]
    fn round_zero_uses_the_run_seed_and_later_rounds_differ() {
        assert_eq!(round_seed(7, 0), 7);
        assert_ne!(round_seed(7, 1), 7);
        assert_ne!(round_seed(7, 1), round_seed(7, 2));
    }
}
