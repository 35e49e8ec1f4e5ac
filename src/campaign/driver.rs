//! The compile loop: a [`Source`] yields batches of programs on this thread, `jobs` compiler
//! workers (each with its own [`Compiler`], so its own warm server in server mode) compile
//! them, the [`Judge`] judges every verdict and the [`Store`] keeps it as soon as its batch
//! is done. A worker is three threads, each on its own batch: one writes a batch's sources,
//! one compiles batch after batch, one judges and records each compiled batch (its twins,
//! the other compilers, its runs, the store) while the next one compiles and then empties its
//! scratch directory; the compiler waits for nothing but the next batch. The scratch
//! directories are on a RAM file system when there is one ([`crate::scratch`]).
//!
//! The order in which a source yields programs depends only on its seed and options, so a
//! resumed run skips exactly the programs the store already judged and, with a program-count
//! budget, ends with the same set of programs as an uninterrupted run.
//!
//! A time budget is a deadline: no batch is started after it, and a batch under way then gets
//! at most one more per-file timeout before it is given up. Ctrl-C ([`super::interrupt`])
//! gives up the batches under way at once. A batch given up records nothing: its programs
//! are judged by the next session.

use super::records::WORK_DIR;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, TrySendError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::budget::Budget;
use super::candidate::Candidate;
use super::feedback::{FeedbackConfig, Found};
use super::flags::FlagPlan;
use super::interrupt;
use super::judge::Judge;
use super::records::StoreError;
use super::source::{Source, SourceError};
use super::store::Store;
use super::twins;
use super::variant::Variant;
use crate::compile::{
    BatchResult, CompileError, CompileOptions, Compiler, Cutoff, Mode as CompileMode,
};
use crate::profile::DiagnosticFormat;
use crate::stages::{self, Stage};
use crate::toolchain::Toolchain;

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
    #[error(transparent)]
    Source(#[from] SourceError),
    /// Programs could not be run (`--run`).
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    /// A compiler gave no verdict for a program.
    #[error("{0}")]
    NoVerdict(String),
}

impl From<twins::TwinsError> for CampaignError {
    fn from(e: twins::TwinsError) -> CampaignError {
        match e {
            twins::TwinsError::Store(e) => CampaignError::Store(e),
            twins::TwinsError::Compile(e) => CampaignError::Compile(e),
        }
    }
}

/// Another compiler every program is also compiled with (`--against`): a toolchain, run as
/// one of its variants or as it is.
#[derive(Clone, Debug)]
pub struct Against {
    /// The compiler.
    pub toolchain: Toolchain,
    /// How it is run differently (`k1`, `type-checked`, ...).
    pub variant: Option<&'static Variant>,
}

impl Against {
    /// `NAME@VERSION`, with `:VARIANT` for a variant.
    pub fn label(&self) -> String {
        let base = format!("{}@{}", self.toolchain.tool.name(), self.toolchain.version);
        match self.variant {
            Some(v) => format!("{base}:{}", v.name),
            None => base,
        }
    }
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
    pub against: Vec<Against>,
    /// The language runtime of the compiler under test, on the Java twins' classpath.
    pub twin_runtime: Vec<std::path::PathBuf>,
    /// Whether findings that no Java twin judges are settled by the differential oracle
    /// (non-Java programs): confirmed by one of `oracles`, else kept apart.
    pub differential: bool,
    /// The other releases and frontends that judge the findings no Java twin judges (only
    /// those programs are compiled with them).
    pub oracles: Vec<Against>,
    /// Run the programs the compiler accepts, and their Java twins (`--run`).
    pub run: Option<crate::run::RunSettings>,
    /// The compiler flag sets drawn for the programs ([`super::flags`]; a batch is compiled
    /// once per flag set in it).
    pub flags: FlagPlan,
    /// Findings fed back into the source ([`super::feedback`]): the programs that look like
    /// the largest families are drawn less. `None`: off.
    pub feedback: Option<FeedbackConfig>,
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
    /// Seconds of those spent planning rounds ([`crate::stages::Stage::Plan`] in this
    /// process meanwhile; the first round's plan is made before the clock starts).
    pub plan_seconds: f64,
    /// Programs run (`--run`), and those not run (they call a member that acts on the
    /// process or the machine).
    pub ran: u64,
    /// Programs not run.
    pub not_run: u64,
    /// Seconds the workers spent running programs and their twins (`--run`).
    pub run_seconds: f64,
    /// The session was stopped by Ctrl-C ([`super::interrupt`]) before its budget was used.
    pub interrupted: bool,
}

/// The progress bar of a campaign: programs, their rate (one decimal), the time left of a
/// time budget, and the findings so far.
fn progress_bar(
    opts: &CampaignOptions,
    total: Option<u64>,
    deadline: Option<Instant>,
) -> indicatif::ProgressBar {
    if !opts.progress {
        return indicatif::ProgressBar::hidden();
    }
    let b = match total {
        Some(n) => indicatif::ProgressBar::new(n),
        None => indicatif::ProgressBar::new_spinner(),
    };
    let template = match (total, deadline) {
        (Some(_), _) => {
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} programs ({rate}) {msg}"
        }
        (None, Some(_)) => {
            "{spinner} [{elapsed_precise}] {pos} programs ({rate}), {left} left; {msg}"
        }
        (None, None) => "{spinner} [{elapsed_precise}] {pos} programs ({rate}) {msg}",
    };
    {
        let style = crate::progress::style(template).with_key(
            "left",
            move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let left =
                    deadline.map_or(0, |d| d.saturating_duration_since(Instant::now()).as_secs());
                let _ = write!(
                    w,
                    "{:02}:{:02}:{:02}",
                    left / 3600,
                    left / 60 % 60,
                    left % 60
                );
            },
        );
        b.set_style(style);
    }
    b.enable_steady_tick(Duration::from_millis(250));
    b
}

/// Runs a campaign until the source or the budget is exhausted, or Ctrl-C; `judge` judges
/// every verdict.
pub fn run(
    store: Store,
    tc: &Toolchain,
    source: &mut dyn Source,
    judge: &Judge,
    opts: &CampaignOptions,
) -> Result<(Outcome, Store), CampaignError> {
    let start = Instant::now();
    let plan_before = stages::snapshot().plan;
    let mut store = store;
    store.start_clock();
    // the workers' scratch directories: on a RAM file system when there is one
    let scratch = crate::scratch::dir(&store.dir().join(WORK_DIR));
    if let crate::scratch::Scratch::Temp(_) = scratch {
        // left by an earlier session of the run that was killed
        let _ = std::fs::remove_dir_all(store.dir().join(WORK_DIR));
    }
    let work = scratch.path().to_path_buf();
    let store = Mutex::new(store);
    let failure: Mutex<Option<CampaignError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let judged = AtomicU64::new(0);
    let ran = AtomicU64::new(0);
    let not_run = AtomicU64::new(0);
    let run_nanos = AtomicU64::new(0);
    let session_findings = AtomicU64::new(0);
    let deadline = match opts.budget {
        Budget::Time(d) => Some(start + d),
        _ => None,
    };
    let past_deadline = || deadline.is_some_and(|d| Instant::now() >= d);
    // a batch under way at the deadline gets one more timeout; Ctrl-C gives it up at once
    let cutoff = match deadline {
        Some(d) => Cutoff::at(d + opts.compile.timeout),
        None => Cutoff::never(),
    }
    .watching(interrupt::flag());
    let armed = interrupt::arm();
    let total = match opts.budget {
        Budget::Programs(n) => Some(n),
        Budget::OneRound => source.round_len(),
        Budget::Time(_) => None,
    };
    let bar = progress_bar(opts, total, deadline);
    let show = |st: &Store| {
        let (n, distinct) = st.findings();
        bar.set_message(format!("{n} findings ({distinct} distinct)"));
    };
    show(&lock(&store));
    // the findings of the earlier sessions, learnt where an uninterrupted run learnt them:
    // with the batch that skips their programs
    let before: std::collections::HashMap<String, Vec<Found>> = if opts.feedback.is_some() {
        let mut m: std::collections::HashMap<String, Vec<Found>> = Default::default();
        for f in lock(&store).found_before() {
            m.entry(f.key.clone()).or_default().push(f.clone());
        }
        m
    } else {
        Default::default()
    };
    let (tx, rx) = mpsc::sync_channel::<(u64, Vec<Candidate>)>(opts.jobs.max(1));
    let rx = Mutex::new(rx);
    // every batch's findings, back to the producer for the feedback (empty when not judged)
    let (found_tx, found_rx) = mpsc::channel::<(u64, Vec<Found>)>();
    let mut positions: u64 = 0;
    let mut resumed: u64 = 0;
    std::thread::scope(|s| {
        for w in 0..opts.jobs.max(1) {
            let run_counts = (&ran, &not_run, &run_nanos);
            let (rx, store, failure, stop, bar, judged, session_findings, work, cutoff) = (
                &rx,
                &store,
                &failure,
                &stop,
                &bar,
                &judged,
                &session_findings,
                &work,
                &cutoff,
            );
            let past_deadline = &past_deadline;
            let found_tx = found_tx.clone();
            // the worker's three threads: one writes each batch's sources, one compiles batch
            // after batch, one judges and records each compiled batch and empties its scratch
            // directory, each on its own batch (three scratch directories in turn)
            let (ready_tx, ready_rx) = mpsc::sync_channel::<(u64, Vec<Prepared>)>(0);
            let (done_tx, done_rx) = mpsc::sync_channel::<(u64, Vec<Compiled>)>(0);
            let home = work.join(format!("w{w}"));
            let slots: [PathBuf; 3] = ["a", "b", "c"].map(|n| home.join(n));
            let (prep_found, post_found) = (found_tx.clone(), found_tx.clone());
            let give_up = move |seq: u64, e: Option<CampaignError>| {
                let _ = found_tx.send((seq, Vec::new()));
                if let Some(e) = e {
                    stop.store(true, Ordering::SeqCst);
                    failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                }
            };
            let give_up_too = give_up.clone();
            s.spawn(move || {
                let found_tx = prep_found;
                let mut turn = 0usize;
                loop {
                    let next = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                    let Ok((seq, batch)) = next else { break };
                    // no batch is started after a failure, the deadline or Ctrl-C
                    if stop.load(Ordering::SeqCst) || past_deadline() || cutoff.due() {
                        let _ = found_tx.send((seq, Vec::new()));
                        continue;
                    }
                    let slot = &slots[turn % slots.len()];
                    turn += 1;
                    match prepare(batch, slot) {
                        // waits for the compiling thread to be done with the batch before
                        Ok(prepared) => {
                            if ready_tx.send((seq, prepared)).is_err() {
                                break;
                            }
                        }
                        Err(e) => give_up(seq, Some(e)),
                    }
                }
            });
            s.spawn(move || {
                let give_up = give_up_too;
                let mut compiler = Compiler::new(tc, opts.mode).with_cutoff(cutoff.clone());
                let mut compiling = Compiling {
                    compiler: &mut compiler,
                    opts,
                };
                loop {
                    let next = stages::time(Stage::Wait, || ready_rx.recv());
                    let Ok((seq, prepared)) = next else { break };
                    if stop.load(Ordering::SeqCst) || past_deadline() || cutoff.due() {
                        give_up(seq, None);
                        continue;
                    }
                    match compiling.compile(prepared) {
                        // waits for the recording thread to be done with the batch before
                        Ok(compiled) => {
                            if done_tx.send((seq, compiled)).is_err() {
                                break;
                            }
                        }
                        // given up at the cutoff: nothing recorded, judged next session
                        Err(CampaignError::Compile(CompileError::GivenUp)) => give_up(seq, None),
                        Err(e) => give_up(seq, Some(e)),
                    }
                }
            });
            let found_tx = post_found;
            s.spawn(move || {
                let mut against: Vec<(Compiler, Option<&'static Variant>)> = opts
                    .against
                    .iter()
                    .map(|a| {
                        (
                            Compiler::new(&a.toolchain, opts.mode).with_cutoff(cutoff.clone()),
                            a.variant,
                        )
                    })
                    .collect();
                // the twins' javac: a warm server of its own in server mode
                let mut twin = opts.twin.as_ref().map(|javac| {
                    Compiler::new(javac, opts.mode)
                        .with_cutoff(cutoff.clone())
                        .with_stage(Stage::Twins)
                });
                let mut recording = Recording {
                    twin: twin.as_mut(),
                    against: &mut against,
                    format: tc.tool.profile().diagnostics,
                    opts,
                    judge,
                    cutoff,
                    run_counts,
                };
                for (seq, compiled) in done_rx.iter() {
                    let n: usize = compiled.iter().map(|c| c.group.batch.len()).sum();
                    let done = recording.record(&compiled, store);
                    // the batch's scratch directory, empty for the batch after the next
                    if let Some(slot) = compiled.first().and_then(|c| c.group.dir.parent()) {
                        stages::time(Stage::Files, || std::fs::remove_dir_all(slot)).ok();
                    }
                    let found = done.as_ref().map(Vec::len).unwrap_or(0) as u64;
                    let _ = found_tx.send((seq, done.as_ref().cloned().unwrap_or_default()));
                    match done {
                        Ok(_) => {
                            judged.fetch_add(n as u64, Ordering::SeqCst);
                            session_findings.fetch_add(found, Ordering::SeqCst);
                            bar.inc(n as u64);
                            show(&lock(store));
                        }
                        // given up at the cutoff: nothing recorded, judged next session
                        Err(CampaignError::Compile(CompileError::GivenUp)) => {}
                        Err(e) => {
                            stop.store(true, Ordering::SeqCst);
                            failure
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(e);
                        }
                    }
                }
                let _ = std::fs::remove_dir_all(&home);
            });
        }
        drop(found_tx);
        // the producer: this thread
        let mut sent: u64 = 0;
        let mut learnt: u64 = 0;
        let mut early: std::collections::BTreeMap<u64, Vec<Found>> = Default::default();
        // the findings of earlier sessions in batches under way, added to their results
        let mut pending: std::collections::BTreeMap<u64, Vec<Found>> = Default::default();
        'produce: loop {
            if stop.load(Ordering::SeqCst) || interrupt::requested() {
                break;
            }
            // the feedback: the findings of every batch `lag` batches back, waited for
            if let Some(fb) = &opts.feedback {
                while learnt + fb.lag <= sent {
                    if let Some(found) = early.remove(&learnt) {
                        source.learn(&found);
                        learnt += 1;
                        continue;
                    }
                    if stop.load(Ordering::SeqCst) || interrupt::requested() || past_deadline() {
                        break 'produce;
                    }
                    match found_rx.recv_timeout(Duration::from_millis(20)) {
                        Ok((seq, mut found)) => {
                            found.extend(pending.remove(&seq).unwrap_or_default());
                            early.insert(seq, found);
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => break 'produce,
                    }
                }
            }
            let max = match opts.budget {
                Budget::Programs(n) if positions >= n => break,
                Budget::Programs(n) => (n - positions).min(opts.batch_size as u64) as usize,
                Budget::Time(_) if past_deadline() => break,
                _ => opts.batch_size,
            };
            let done = |k: &str| lock(&store).is_done(k);
            let next = stages::time(Stage::Synthesis, || source.next_batch(max.max(1), &done));
            match next {
                Ok(Some(b)) => {
                    positions += b.positions;
                    let skipped = b.positions - b.candidates.len() as u64;
                    resumed += skipped;
                    bar.inc(skipped);
                    // every batch the source yields has its number, as in an uninterrupted
                    // run: the findings of its programs judged earlier are learnt with it
                    let seq = sent;
                    sent += 1;
                    let earlier: Vec<Found> = b
                        .done
                        .iter()
                        .filter_map(|k| before.get(k))
                        .flatten()
                        .cloned()
                        .collect();
                    if b.candidates.is_empty() {
                        early.insert(seq, earlier);
                        continue;
                    }
                    if !earlier.is_empty() {
                        pending.insert(seq, earlier);
                    }
                    // waits for a free worker, but not past the deadline or Ctrl-C
                    let mut candidates = b.candidates;
                    for c in &mut candidates {
                        opts.flags.assign(c);
                    }
                    let mut batch = (seq, candidates);
                    loop {
                        match tx.try_send(batch) {
                            Ok(()) => break,
                            Err(TrySendError::Full(back)) => {
                                if past_deadline() || interrupt::requested() {
                                    break 'produce;
                                }
                                batch = back;
                                std::thread::sleep(Duration::from_millis(10));
                            }
                            Err(TrySendError::Disconnected(_)) => break 'produce,
                        }
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e.into());
                    break;
                }
            }
        }
        drop(tx);
    });
    let interrupted = interrupt::requested();
    drop(armed);
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
        ran: ran.into_inner(),
        not_run: not_run.into_inner(),
        run_seconds: run_nanos.into_inner() as f64 / 1e9,
        seconds: start.elapsed().as_secs_f64(),
        plan_seconds: stages::snapshot().plan - plan_before,
        interrupted,
    };
    Ok((outcome, store))
}

/// Locks the store, even after a worker panicked holding it (its lines are complete).
fn lock(m: &Mutex<Store>) -> std::sync::MutexGuard<'_, Store> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A compile worker's compiling thread: its compiler and the campaign's options.
struct Compiling<'a> {
    compiler: &'a mut Compiler,
    opts: &'a CampaignOptions,
}

/// The programs of one flag set of a batch, written: what the worker's compiling thread
/// compiles.
struct Prepared {
    /// The flag set (added to the run's own).
    flags: Vec<String>,
    /// Its programs.
    batch: Vec<Candidate>,
    /// Their scratch directory (`src/`, `classes/`; the twins' and other compilers' beside).
    dir: PathBuf,
    /// Their source files, in `batch`'s order.
    files: Vec<PathBuf>,
}

/// The programs of one flag set of a batch, compiled: what the worker's recording thread
/// judges and keeps.
struct Compiled {
    group: Prepared,
    /// The compiler's verdicts.
    result: BatchResult,
}

/// A compile worker's recording thread: what it judges with, its twins' javac and the other
/// compilers (`--against`).
struct Recording<'a> {
    twin: Option<&'a mut Compiler>,
    against: &'a mut [(Compiler, Option<&'static Variant>)],
    /// The diagnostics' format of the compiler under test.
    format: DiagnosticFormat,
    opts: &'a CampaignOptions,
    judge: &'a Judge,
    cutoff: &'a Cutoff,
    /// Programs run, not run, and nanoseconds spent running (`--run`).
    run_counts: (&'a AtomicU64, &'a AtomicU64, &'a AtomicU64),
}

/// Writes a batch's sources into `slot` (emptied first), a directory per flag set of its
/// programs (in the order the sets first occur): what a compiling thread compiles.
fn prepare(batch: Vec<Candidate>, slot: &Path) -> Result<Vec<Prepared>, CampaignError> {
    let writing = Instant::now();
    let mut groups: Vec<(Vec<String>, Vec<Candidate>)> = Vec::new();
    for c in batch {
        match groups.iter_mut().find(|(f, _)| *f == c.record.flags) {
            Some((_, g)) => g.push(c),
            None => groups.push((c.record.flags.clone(), vec![c])),
        }
    }
    // left by a session that was killed (a finished batch's slot is emptied after it)
    let _ = std::fs::remove_dir_all(slot);
    let mkdir = |p: &Path| {
        std::fs::create_dir_all(p).map_err(|source| StoreError::Io {
            path: p.to_path_buf(),
            source,
        })
    };
    let mut prepared = Vec::with_capacity(groups.len());
    for (i, (flags, batch)) in groups.into_iter().enumerate() {
        let dir = slot.join(format!("g{i}"));
        let src = dir.join("src");
        mkdir(&src)?;
        mkdir(&dir.join("classes"))?;
        let mut files = Vec::with_capacity(batch.len());
        for c in &batch {
            let p = src.join(&c.file);
            std::fs::write(&p, &c.source).map_err(|source| StoreError::Io {
                path: p.clone(),
                source,
            })?;
            files.push(p);
        }
        prepared.push(Prepared {
            flags,
            batch,
            dir,
            files,
        });
    }
    stages::add(Stage::Files, writing.elapsed());
    Ok(prepared)
}

impl Compiling<'_> {
    /// Compiles a prepared batch, one invocation per flag set. A batch given up at the
    /// cutoff is [`CompileError::GivenUp`].
    fn compile(&mut self, prepared: Vec<Prepared>) -> Result<Vec<Compiled>, CampaignError> {
        // several flag sets in process mode: one compiler start for all of them
        let scoped = prepared.len() > 1 && self.compiler.begin_batch();
        if scoped {
            crate::stages::add_batch_compiles(1, 0);
        }
        let mut compiled = Vec::with_capacity(prepared.len());
        let mut failed = None;
        for group in prepared {
            match self.compile_group(&group) {
                Ok(result) => compiled.push(Compiled { group, result }),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if scoped {
            self.compiler.end_batch();
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(compiled),
        }
    }

    /// Compiles the programs of one flag set (its flags added to the run's own).
    fn compile_group(&mut self, group: &Prepared) -> Result<BatchResult, CampaignError> {
        let mut compile = self.opts.compile.clone();
        compile.flags.extend(group.flags.iter().cloned());
        let classes = group.dir.join("classes");
        let mut result = self
            .compiler
            .compile_batch(&group.files, &classes, &compile)?;
        crate::stages::add_batch_compiles(result.starts, result.calls);
        self.rejudge_alone(&group.batch, &group.files, &classes, &compile, &mut result)?;
        Ok(result)
    }

    /// Compiles alone each program of a batch of several that the batch rejected elsewhere
    /// than at its call under test, and takes that verdict: in a compilation of many files a
    /// compiler may leave out some of a file's errors (groovyc 6.0.0 reported only an earlier
    /// error of a file whose call under test it rejected too when compiled alone), and a
    /// finding must be the program's own.
    fn rejudge_alone(
        &mut self,
        batch: &[Candidate],
        files: &[std::path::PathBuf],
        classes: &Path,
        opts: &CompileOptions,
        result: &mut BatchResult,
    ) -> Result<(), CampaignError> {
        if batch.len() < 2 {
            return Ok(());
        }
        let format = self.compiler.toolchain().tool.profile().diagnostics;
        for (c, file) in batch.iter().zip(files) {
            let Some(v) = result.verdicts.get(&c.file) else {
                continue;
            };
            let elsewhere =
                super::judge::judge_with_reason(c.expected, v, format, c.record.call_lines)
                    == Some(super::finding::FindingKind::RejectedElsewhere);
            if !elsewhere {
                continue;
            }
            let alone = self
                .compiler
                .compile_batch(std::slice::from_ref(file), classes, opts)?;
            if let Some(v) = alone.verdicts.get(&c.file) {
                result.verdicts.insert(c.file.clone(), v.clone());
            }
        }
        Ok(())
    }
}

impl Recording<'_> {
    /// Runs the programs of `batch` the compiler accepted (their classes in `classes`) and
    /// their Java twins (compiled with the worker's javac, when it has one) in the sandbox;
    /// returns what each ended in, by key. A program that calls a member acting on the
    /// process or the machine is not run.
    fn run_accepted(
        &mut self,
        settings: &crate::run::RunSettings,
        scratch: &Path,
        batch: &[Candidate],
        verdicts: &std::collections::BTreeMap<String, crate::compile::Verdict>,
        classes: &Path,
    ) -> Result<std::collections::BTreeMap<String, crate::run::RunRecord>, CampaignError> {
        use crate::run::{forbidden_call, test_class, Job, RunOutcome, RunRecord};
        let start = Instant::now();
        let dir = scratch.join("run");
        let mut out = std::collections::BTreeMap::new();
        let mut runnable = Vec::new();
        for c in batch {
            if !verdicts.get(&c.file).is_some_and(|v| v.is_accepted()) {
                continue;
            }
            let called = forbidden_call(&c.source)
                .or_else(|| c.twin.as_ref().and_then(|t| forbidden_call(&t.source)));
            match called {
                Some(member) => {
                    out.insert(
                        c.key.clone(),
                        RunRecord {
                            program: RunOutcome::NotRun {
                                reason: format!("calls {member}"),
                            },
                            twin: None,
                            seconds: 0.0,
                        },
                    );
                }
                None => runnable.push(c),
            }
        }
        self.run_counts
            .1
            .fetch_add(out.len() as u64, Ordering::SeqCst);
        if runnable.is_empty() {
            return Ok(out);
        }
        // the twins javac accepts run beside their programs
        let with_twin: Vec<&Candidate> = runnable
            .iter()
            .copied()
            .filter(|c| c.twin.is_some() && c.record.twin_not_applicable.is_none())
            .collect();
        let twin_verdicts = match (self.twin.as_deref_mut(), with_twin.is_empty()) {
            (Some(javac), false) => twins::compile(
                javac,
                &dir.join("twins"),
                &with_twin,
                &self.opts.compile,
                &self.opts.twin_runtime,
            )?,
            _ => std::collections::BTreeMap::new(),
        };
        let twin_classes = dir.join("twins").join("twin-classes");
        let mut jobs = Vec::new();
        for c in &runnable {
            jobs.push(Job {
                id: format!("p:{}", c.key),
                classes: classes.to_path_buf(),
                class: test_class(&c.file, &c.source),
            });
            if let (Some(t), Some(v)) = (&c.twin, twin_verdicts.get(&c.key)) {
                if v.is_accepted() {
                    jobs.push(Job {
                        id: format!("t:{}", c.key),
                        classes: twin_classes.clone(),
                        class: test_class(&t.file, &t.source),
                    });
                }
            }
        }
        let ran = settings
            .runner
            .run_batch(&dir.join("sandbox"), &settings.shared, &jobs)?;
        let seconds = start.elapsed().as_secs_f64() / runnable.len() as f64;
        for c in &runnable {
            let Some(program) = ran.outcomes.get(&format!("p:{}", c.key)) else {
                continue;
            };
            out.insert(
                c.key.clone(),
                RunRecord {
                    program: program.clone(),
                    twin: ran.outcomes.get(&format!("t:{}", c.key)).cloned(),
                    seconds,
                },
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
        self.run_counts
            .0
            .fetch_add(runnable.len() as u64, Ordering::SeqCst);
        let spent = start.elapsed();
        self.run_counts.2.fetch_add(
            u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX),
            Ordering::SeqCst,
        );
        stages::add(Stage::Run, spent);
        Ok(out)
    }

    /// Judges and records the verdicts of a compiled batch, one flag set after another;
    /// returns the findings' (key, member, family). A batch whose compilation was given up
    /// at the cutoff records nothing ([`CompileError::GivenUp`]).
    fn record(
        &mut self,
        compiled: &[Compiled],
        store: &Mutex<Store>,
    ) -> Result<Vec<Found>, CampaignError> {
        compiled.iter().try_fold(Vec::new(), |mut found, group| {
            found.extend(self.record_group(group, store)?);
            Ok(found)
        })
    }

    /// Judges and records the verdicts of one flag set's programs: their twins, the other
    /// compilers and oracles, their runs (`--run`).
    fn record_group(
        &mut self,
        compiled: &Compiled,
        store: &Mutex<Store>,
    ) -> Result<Vec<Found>, CampaignError> {
        let Compiled {
            group:
                Prepared {
                    flags,
                    batch,
                    dir,
                    files,
                },
            result,
        } = compiled;
        let (dir, files) = (dir.as_path(), files.as_slice());
        let base = self.opts;
        let mut compile = base.compile.clone();
        compile.flags.extend(flags.iter().cloned());
        let opts = &CampaignOptions {
            compile,
            ..base.clone()
        };
        let classes = dir.join("classes");
        let mkdir = |p: &Path| {
            std::fs::create_dir_all(p).map_err(|source| StoreError::Io {
                path: p.to_path_buf(),
                source,
            })
        };
        let share = result.seconds / batch.len().max(1) as f64;
        let verdict_of = |c: &Candidate| {
            result.verdicts.get(&c.file).ok_or_else(|| {
                CampaignError::NoVerdict(format!("the compiler gave no verdict for {}", c.file))
            })
        };
        // the Java twins of the findings a twin can confirm, judged by javac
        let mut wanted = Vec::new();
        for c in batch {
            if twins::wanted(c, verdict_of(c)?, self.judge.diagnostics()) {
                wanted.push(c);
            }
        }
        let twin_verdicts = match (self.twin.as_deref_mut(), wanted.is_empty()) {
            // the twins are Java: javac gets none of the programs' flags
            (Some(javac), false) => {
                twins::compile(javac, dir, &wanted, &base.compile, &opts.twin_runtime)?
            }
            _ => std::collections::BTreeMap::new(),
        };
        // the findings no twin judges, judged by other releases and frontends
        let mut untwinned = Vec::new();
        if opts.differential && !opts.oracles.is_empty() {
            for c in batch {
                if twins::wants_differential(c, verdict_of(c)?) {
                    untwinned.push(c);
                }
            }
        }
        let oracle_verdicts = if untwinned.is_empty() {
            std::collections::BTreeMap::new()
        } else {
            let oracles: Vec<twins::Oracle<'_>> = opts
                .oracles
                .iter()
                .map(|o| (o.label(), &o.toolchain, o.variant))
                .collect();
            twins::compile_differential(&oracles, dir, &untwinned, &opts.compile, self.cutoff)?
        };
        let format = self.format;
        // the accepted programs run, with their twins (`--run`)
        let mut runs = match &opts.run {
            Some(settings) => {
                self.run_accepted(settings, dir, batch, &result.verdicts, &classes)?
            }
            None => std::collections::BTreeMap::new(),
        };
        // the same files with every other compiler
        let mut others = Vec::with_capacity(self.against.len());
        for (i, (other, variant)) in self.against.iter_mut().enumerate() {
            let out = dir.join(format!("against-{i}"));
            mkdir(&out)?;
            let tc = other.toolchain();
            let own = super::flags::for_release(tc.tool, &tc.version, flags);
            let Some(v) = variant else {
                let compile = CompileOptions {
                    flags: own,
                    ..base.compile.clone()
                };
                others.push(other.compile_batch(files, &out, &compile)?);
                continue;
            };
            // the variant's flags (they choose its frontend; else the programs'), and its
            // sources where it rewrites them (same file names)
            let compile = CompileOptions {
                flags: if v.flags.is_empty() {
                    own
                } else {
                    v.flag_list()
                },
                ..base.compile.clone()
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
                files.to_vec()
            };
            others.push(other.compile_batch(&vfiles, &out, &compile)?);
        }
        // judged outside the store's lock
        let judging = Instant::now();
        let mut judged = Vec::with_capacity(batch.len());
        for c in batch {
            let twin = twin_verdicts.get(&c.key);
            let mut other_verdicts = Vec::with_capacity(others.len());
            for r in &others {
                other_verdicts.push(r.verdicts.get(&c.file).cloned().ok_or_else(|| {
                    CampaignError::NoVerdict(format!(
                        "another compiler gave no verdict for {}",
                        c.file
                    ))
                })?);
            }
            let verdict = verdict_of(c)?;
            let mut judgement = self.judge.judge(c, verdict, twin, &other_verdicts);
            if let Some(run) = runs.remove(&c.key) {
                self.judge.add_run(c, &mut judgement, run);
            }
            if opts.differential {
                let others = oracle_verdicts.get(&c.key).map_or(&[][..], Vec::as_slice);
                twins::settle(&mut judgement, c, verdict, others, format);
            }
            judged.push((c, verdict, twin, judgement));
        }
        // a stop asked for while the batch compiled: its verdicts may be the stop's doing
        if self.cutoff.due() {
            return Err(CompileError::GivenUp.into());
        }
        let mut st = lock(store);
        let mut found = Vec::new();
        for (c, verdict, twin, judgement) in &judged {
            if let Some(f) = st.record(c, verdict, share, *twin, judgement)?.finding {
                found.push(Found {
                    key: c.key.clone(),
                    member: c.record.member.clone(),
                    family: f.signature,
                });
            }
        }
        st.checkpoint()?;
        stages::add(Stage::Store, judging.elapsed());
        Ok(found)
    }
}
