//! Compiling a batch of generated files with a real compiler (a process per invocation, or a
//! warm [`CompileServer`]) and attributing its verdict to each file.
//!
//! A file with no diagnostic in a failing run is not proven accepted: groovyc, and scalac on
//! errors in early phases, stop before type-checking the other files, and no compiler
//! generates code once a file has errors. So one invocation judges the batch by the compiler's
//! [`RunPlan`]: in the warm server's request, or in process mode in the one-shot driver (a
//! fresh JVM running the server class), either the whole batch and then its error-free rest,
//! which still needs its code generated (javac, kotlinc, scalac), or the whole batch and then
//! each file its errors do not name alone (groovyc). The invocation answers one section per
//! compiler run, and each section's files get their verdicts from it. Whatever is left without
//! a verdict (a compiler run as a plain command line, or a run cut short) is compiled again,
//! until a compile succeeds or every remaining file has a diagnostic of its own; a crash, a
//! timeout or output naming no file is bisected down to the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::profile::{Launch, RunPlan, DRIVER_JVM_FLAGS};
use crate::server::{CompileServer, ServerError, ServerOptions, DRIVER_MARKER, DRIVER_UNUSABLE};
use crate::stages::{self, Stage};
use crate::toolchain::{Tool, Toolchain};

/// The verdict of one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// Compiled without error.
    Accepted,
    /// The compiler reported errors in this file.
    Rejected {
        /// The diagnostics attributed to the file.
        diagnostics: Vec<String>,
    },
    /// The compiler crashed (an internal error, an escaped exception, death by a signal) on
    /// a batch containing this file alone.
    Crash {
        /// The exit code (`None`: killed by a signal, or the warm server died).
        exit: Option<i32>,
        /// The compiler's output.
        output: String,
    },
    /// The compiler did not finish within the per-file time budget on this file alone.
    Timeout,
}

impl Verdict {
    /// True for `Accepted`.
    pub fn is_accepted(&self) -> bool {
        matches!(self, Verdict::Accepted)
    }

    /// `accepted`, `rejected`, `crash` or `timeout`.
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Rejected { .. } => "rejected",
            Verdict::Crash { .. } => "crash",
            Verdict::Timeout => "timeout",
        }
    }
}

/// The verdicts of a batch.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BatchResult {
    /// Verdict per file (by file name).
    pub verdicts: BTreeMap<String, Verdict>,
    /// Compiler invocations made: processes in process mode, requests in server mode.
    pub calls: usize,
    /// Compiler runs within them (an invocation that judges by a [`RunPlan`] runs the
    /// compiler once per section of its output).
    pub runs: usize,
    /// Compiler processes started: one per invocation in process mode; in server mode, the
    /// server's (re)starts.
    pub starts: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Of which reading the compiler's output and attributing its diagnostics to files.
    pub attribution_seconds: f64,
}

impl BatchResult {
    /// Adds the counts, times and verdicts of a part of the batch compiled on its own.
    fn absorb(&mut self, part: BatchResult) {
        self.verdicts.extend(part.verdicts);
        self.calls += part.calls;
        self.runs += part.runs;
        self.starts += part.starts;
        self.attribution_seconds += part.attribution_seconds;
    }
}

/// Compiler processes started by [`compile_batch`] and its kin in this process so far, per
/// [`Tool`] (by its index in [`Tool::ALL`]); server processes are counted by the server.
static PROCESS_STARTS: [AtomicUsize; Tool::ALL.len()] =
    [const { AtomicUsize::new(0) }; Tool::ALL.len()];

/// Compiler invocations (processes and server requests) in this process so far, per [`Tool`].
static INVOCATIONS: [AtomicUsize; Tool::ALL.len()] =
    [const { AtomicUsize::new(0) }; Tool::ALL.len()];

/// How many processes of `tool` (compiler processes, one-shot drivers, compile servers) this
/// process started so far.
pub fn starts_of(tool: Tool) -> usize {
    PROCESS_STARTS[tool as usize].load(Ordering::SeqCst) + crate::server::starts_of(tool)
}

/// How many times this process invoked `tool` so far (a process, or a server request).
pub fn invocations_of(tool: Tool) -> usize {
    INVOCATIONS[tool as usize].load(Ordering::SeqCst)
}

/// A problem running the compiler at all.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The process could not be started or waited for.
    #[error("cannot run {tool}: {message}")]
    Spawn {
        /// The compiler.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// The warm compile server failed.
    #[error(transparent)]
    Server(#[from] ServerError),
    /// The compilation was given up at its [`Cutoff`]: its files have no verdict.
    #[error("the compilation was given up before it ended")]
    GivenUp,
}

/// When compilations under way are given up: at a fixed time (a time budget's deadline plus
/// one timeout), as soon as [`Cutoff::fire`] is called, or as soon as a watched flag is set
/// (an interrupt). A compilation given up ends with [`CompileError::GivenUp`], its processes
/// killed; its files get no verdict.
#[derive(Clone, Debug, Default)]
pub struct Cutoff {
    at: Option<Instant>,
    fired: Arc<AtomicBool>,
    watched: Option<&'static AtomicBool>,
}

impl Cutoff {
    /// A cutoff that never comes (unless fired).
    pub fn never() -> Cutoff {
        Cutoff::default()
    }

    /// A cutoff at `at` (or when fired earlier).
    pub fn at(at: Instant) -> Cutoff {
        Cutoff {
            at: Some(at),
            ..Cutoff::default()
        }
    }

    /// This cutoff, come also as soon as `flag` is set (by a signal handler, say).
    pub fn watching(self, flag: &'static AtomicBool) -> Cutoff {
        Cutoff {
            watched: Some(flag),
            ..self
        }
    }

    /// Gives up every compilation that watches this cutoff (or a clone of it) now.
    pub fn fire(&self) {
        self.fired.store(true, Ordering::SeqCst);
    }

    /// Whether the cutoff has come.
    pub fn due(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
            || self.watched.is_some_and(|f| f.load(Ordering::SeqCst))
            || self.at.is_some_and(|t| Instant::now() >= t)
    }

    /// The time left until a fixed cutoff, if there is one.
    fn remaining(&self) -> Option<Duration> {
        self.at.map(|t| t.saturating_duration_since(Instant::now()))
    }
}

/// How the compiler is run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// A fresh compiler process per invocation.
    #[default]
    Process,
    /// A warm compile server ([`CompileServer`]), kept across invocations and batches.
    Server,
}

/// A compiler run in a [`Mode`]: in server mode it keeps its server across batches.
#[derive(Debug)]
pub struct Compiler {
    tc: Toolchain,
    mode: Mode,
    server_options: ServerOptions,
    server: Option<CompileServer>,
    cutoff: Cutoff,
    /// The stage its compile time counts towards ([`crate::stages`]).
    stage: Stage,
}

impl Compiler {
    /// The toolchain it runs.
    pub fn toolchain(&self) -> &Toolchain {
        &self.tc
    }

    /// A compiler for `tc`; a server is started on the first batch.
    pub fn new(tc: &Toolchain, mode: Mode) -> Self {
        Compiler {
            tc: tc.clone(),
            mode,
            server_options: ServerOptions::default(),
            server: None,
            cutoff: Cutoff::never(),
            stage: Stage::Compile,
        }
    }

    /// Counts this compiler's compile time (its attribution included) towards `stage`
    /// instead of [`Stage::Compile`] and [`Stage::Attribution`] (a campaign's twins).
    pub fn with_stage(mut self, stage: Stage) -> Self {
        self.stage = stage;
        self
    }

    /// Gives up this compiler's compilations at `cutoff`.
    pub fn with_cutoff(mut self, cutoff: Cutoff) -> Self {
        self.cutoff = cutoff;
        self
    }

    /// Sets when the server is restarted.
    pub fn with_server_options(mut self, options: ServerOptions) -> Self {
        self.server_options = options;
        self
    }

    /// The running server (server mode, after the first batch).
    pub fn server_mut(&mut self) -> Option<&mut CompileServer> {
        self.server.as_mut()
    }

    /// In process mode, compiles everything until [`Compiler::end_batch`] in one server that
    /// lives for that time: a batch compiled in several invocations (one per flag set drawn
    /// in it) then costs one compiler start, not one per invocation. In server mode, and for
    /// a compiler the driver cannot call in-process (or has not called yet in this process),
    /// nothing changes, nor when the server cannot start: a process per invocation then.
    /// Whether it started a server.
    pub fn begin_batch(&mut self) -> bool {
        if self.mode == Mode::Process
            && self.server.is_none()
            && drivable(&self.tc)
            && driver_state(&self.tc) == Some(true)
        {
            self.server = CompileServer::start_with(&self.tc, self.server_options).ok();
        }
        self.mode == Mode::Process && self.server.is_some()
    }

    /// Ends what [`Compiler::begin_batch`] began: the process mode's server exits.
    pub fn end_batch(&mut self) {
        if self.mode == Mode::Process {
            self.server = None;
        }
    }

    /// [`compile_batch`] in this compiler's mode: the verdicts are the same in both modes.
    pub fn compile_batch(
        &mut self,
        files: &[PathBuf],
        out: &Path,
        opts: &CompileOptions,
    ) -> Result<BatchResult, CompileError> {
        if self.mode == Mode::Server && self.server.is_none() {
            self.server = Some(if crate::server::pool::enabled() {
                crate::server::pool::checkout(&self.tc, self.server_options)?
            } else {
                CompileServer::start_with(&self.tc, self.server_options)?
            });
        }
        let result =
            compile_batch_until(&self.tc, &mut self.server, files, out, opts, &self.cutoff)?;
        let seconds = Duration::from_secs_f64(result.seconds);
        if self.stage == Stage::Compile {
            let attribution = Duration::from_secs_f64(result.attribution_seconds);
            stages::add(Stage::Attribution, attribution);
            stages::add(Stage::Compile, seconds.saturating_sub(attribution));
        } else {
            stages::add(self.stage, seconds);
        }
        Ok(result)
    }
}

impl Drop for Compiler {
    /// Returns the server to the [`crate::server::pool`] (which ends it when off).
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            crate::server::pool::checkin(server);
        }
    }
}

/// How a batch is compiled.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// Extra classpath for the programs (e.g. a library's `classpath.txt`).
    pub classpath: Option<String>,
    /// The per-file time budget: a file that takes longer alone is judged [`Verdict::Timeout`]
    /// (a compilation performance finding). An invocation on `n` files is given
    /// [`CompileOptions::deadline`]`(n)`.
    pub timeout: Duration,
    /// Flags added to every compilation, before the source files (a compiler variant's, such
    /// as Kotlin's `-language-version 1.9`).
    pub flags: Vec<String>,
}

/// The share of the per-file budget that each further file of a batch adds to the batch's
/// deadline: generous next to a real compiler's per-file cost (well under a second once
/// started), so that only a hang or a pathological file exhausts it.
pub const BATCH_TIMEOUT_SHARE: f64 = 0.1;

impl CompileOptions {
    /// The time allowed for one invocation on `files` files: the whole per-file budget for
    /// the first file (it pays the start-up), [`BATCH_TIMEOUT_SHARE`] of it for every other.
    pub fn deadline(&self, files: usize) -> Duration {
        self.timeout
            .mul_f64(1.0 + BATCH_TIMEOUT_SHARE * files.saturating_sub(1) as f64)
    }
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            classpath: None,
            timeout: Duration::from_secs(60),
            flags: Vec::new(),
        }
    }
}

/// One compiler run: the files it compiled and how it ended.
struct Run {
    /// The files it judged.
    files: Vec<PathBuf>,
    ok: bool,
    /// The exit code; `None` when killed (by a signal, or after the deadline) or when the
    /// warm server died under the request.
    exit: Option<i32>,
    output: String,
    timed_out: bool,
}

/// One invocation of the compiler (a process, or a server request): its runs, and the
/// processes it started.
struct Invocation {
    runs: Vec<Run>,
    started: usize,
}

/// The compiler's arguments for compiling `files` into `out` against `classpath` (the
/// toolchain's [`Toolchain::command`] adds its own classpath and runtime).
pub fn compiler_args(
    tool: Tool,
    classpath: Option<&str>,
    out: &Path,
    files: &[PathBuf],
) -> Vec<String> {
    tool.profile().args(classpath, out, files)
}

/// The whole command line (program first) that compiles `files` into `out` in a fresh
/// process, as [`compile_batch`] runs it.
pub fn command_line(
    tc: &Toolchain,
    classpath: Option<&str>,
    out: &Path,
    files: &[PathBuf],
) -> Vec<String> {
    let cmd = tc.command(&compiler_args(tc.tool, classpath, out, files));
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// Invokes the compiler once on `files`: a request to `server` if there is one, else a
/// process (the one-shot driver for a compiler launched on the JVM, the compiler's command
/// line otherwise). The runs are the sections of the answer ([`split_sections`]).
fn invoke(
    tc: &Toolchain,
    server: Option<&mut CompileServer>,
    files: &[PathBuf],
    out: &Path,
    opts: &CompileOptions,
    cutoff: &Cutoff,
) -> Result<Invocation, CompileError> {
    let _ = std::fs::create_dir_all(out);
    let mut args = compiler_args(tc.tool, opts.classpath.as_deref(), out, files);
    let at = args.len() - files.len();
    args.splice(at..at, opts.flags.iter().cloned());
    let deadline = opts.deadline(files.len());
    let plan = tc.tool.profile().run_plan;
    INVOCATIONS[tc.tool as usize].fetch_add(1, Ordering::SeqCst);
    if let Some(server) = server {
        let timeout = cutoff.remaining().map_or(deadline, |r| r.min(deadline));
        let starts = server.starts();
        let run = server.compile_planned(&args, Some((plan, files.len())), timeout);
        let started = server.starts().saturating_sub(starts);
        if cutoff.due() {
            return Err(CompileError::GivenUp);
        }
        let whole = match run {
            Ok(run) => Whole {
                ok: run.exit == 0 && !run.timed_out,
                exit: (!run.timed_out).then_some(run.exit),
                output: strip_ansi(&run.output),
                timed_out: run.timed_out,
            },
            // it died twice on this request, on a fresh server too: the batch killed it
            Err(ServerError::Died { message, .. }) => Whole {
                ok: false,
                exit: None,
                output: format!("the compile server died: {message}"),
                timed_out: false,
            },
            Err(e) => return Err(e.into()),
        };
        return Ok(Invocation {
            runs: split_sections(whole, files),
            started,
        });
    }
    let mut driven = drivable(tc);
    loop {
        let invocation = invoke_process(tc, &args, plan, files, deadline, cutoff, driven)?;
        match invocation {
            Some(i) => return Ok(i),
            // the driver cannot call this compiler: its command line, from now on
            None => {
                set_driver_state(tc, false);
                driven = false;
            }
        }
    }
}

/// Whether the one-shot driver (the server class) can call `tc`'s compiler in-process: a JDK
/// tool only with its own JDK's `java` (a fake javac has none), and not a compiler it was
/// found unable to call.
fn drivable(tc: &Toolchain) -> bool {
    tc.tool.profile().drives_processes()
        && (tc.tool.profile().launch != Launch::JdkExecutable || crate::server::java_beside(tc))
        && driver_state(tc) != Some(false)
}

/// What the one-shot driver was found to do with each toolchain's compiler (by
/// [`driver_key`]): `true` when it called it (a short-lived server of the same class can call
/// it too, [`Compiler::begin_batch`]), `false` when it cannot.
static DRIVER_STATE: std::sync::Mutex<std::collections::BTreeMap<String, bool>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// What identifies a toolchain's compiler for the one-shot driver.
fn driver_key(tc: &Toolchain) -> String {
    format!(
        "{}\u{0}{}\u{0}{:?}",
        tc.java.display(),
        tc.main_class,
        tc.classpath
    )
}

/// Whether the one-shot driver called `tc`'s compiler (`Some(true)`), was found unable to
/// (`Some(false)`), or has not tried yet in this process.
fn driver_state(tc: &Toolchain) -> Option<bool> {
    DRIVER_STATE
        .lock()
        .ok()
        .and_then(|s| s.get(&driver_key(tc)).copied())
}

/// Remembers whether the one-shot driver can call `tc`'s compiler (a failure is final).
fn set_driver_state(tc: &Toolchain, works: bool) {
    if let Ok(mut s) = DRIVER_STATE.lock() {
        let state = s.entry(driver_key(tc)).or_insert(works);
        *state &= works;
    }
}

/// One compiler process on `files`: the one-shot driver when `driven`, else the compiler's
/// command line (javac given [`crate::profile::DRIVER_JVM_FLAGS`]); `None` when the driver
/// said it cannot call the compiler.
fn invoke_process(
    tc: &Toolchain,
    args: &[String],
    plan: RunPlan,
    files: &[PathBuf],
    deadline: Duration,
    cutoff: &Cutoff,
    driven: bool,
) -> Result<Option<Invocation>, CompileError> {
    let mut cds = crate::server::Cds::Off;
    let mut cmd = if driven {
        match crate::server::driver_command(tc, args, plan, files.len()) {
            Ok((cmd, sharing)) => {
                cds = sharing;
                cmd
            }
            // no JDK beside the compiler's java to build the driver with: its command line
            Err(ServerError::NoJdk { .. }) => {
                set_driver_state(tc, false);
                return invoke_process(tc, args, plan, files, deadline, cutoff, false);
            }
            Err(e) => return Err(e.into()),
        }
    } else if tc.tool.profile().launch == Launch::JdkExecutable {
        let quick: Vec<String> = DRIVER_JVM_FLAGS.iter().map(|f| format!("-J{f}")).collect();
        tc.command(&[quick.as_slice(), args].concat())
    } else {
        tc.command(args)
    };
    let spawn = |e: std::io::Error| CompileError::Spawn {
        tool: tc.tool.name().into(),
        message: e.to_string(),
    };
    // its own process group, so that a timeout kills whatever it started too
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn)?;
    PROCESS_STARTS[tc.tool as usize].fetch_add(1, Ordering::SeqCst);
    // drain both pipes on threads so a chatty compiler never blocks; output that is not
    // UTF-8 is kept lossily
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let t_out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let t_err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
    );
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().map_err(spawn)? {
            Some(s) => break Some(s),
            None if cutoff.due() => {
                kill_group(&mut child);
                let _ = child.wait();
                let _ = (t_out.join(), t_err.join());
                return Err(CompileError::GivenUp);
            }
            None if start.elapsed() > deadline => {
                kill_group(&mut child);
                let _ = child.wait();
                timed_out = true;
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    // an archive of the compiler's classes its exit dumped is kept for the next drivers
    cds.finish(status.is_some());
    // processes the compiler left behind would hold its pipes open
    kill_group(&mut child);
    let stdout = t_out.join().unwrap_or_default();
    let stderr = t_err.join().unwrap_or_default();
    if driven && stdout.contains(DRIVER_UNUSABLE) {
        return Ok(None);
    }
    if driven
        && !stdout.contains(DRIVER_MARKER)
        && stderr.contains("Could not find or load main class CompileServer")
    {
        return Err(CompileError::Spawn {
            tool: tc.tool.name().into(),
            message: format!("the one-shot driver did not start: {}", stderr.trim()),
        });
    }
    if driven && stdout.contains(DRIVER_MARKER) {
        set_driver_state(tc, true);
    }
    let whole = Whole {
        ok: status.is_some_and(|s| s.success()),
        exit: status.and_then(|s| s.code()),
        output: strip_ansi(&(stdout + &stderr)),
        timed_out,
    };
    Ok(Some(Invocation {
        runs: split_sections(whole, files),
        started: 1,
    }))
}

/// How a whole invocation ended, before its sections are told apart.
struct Whole {
    ok: bool,
    exit: Option<i32>,
    output: String,
    timed_out: bool,
}

/// The start of a section's header line: `<marker>thalia-run exit=N files=K`.
const SECTION_START: &str = "\u{1e}thalia-run ";

/// The line that ends a section.
const SECTION_END: &str = "\u{1e}thalia-end";

/// A whole section of a driver's or a planned request's output.
#[derive(Debug, PartialEq, Eq)]
struct Section {
    exit: i32,
    files: Vec<String>,
    output: String,
}

/// The whole sections of `output` (see `CompileServer.java`), and the text outside them (a
/// section cut short included).
fn sections(output: &str) -> (Vec<Section>, String) {
    let mut found = Vec::new();
    let mut outside = String::new();
    let lines: Vec<&str> = output.split_inclusive('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let header = line
            .trim_end_matches(['\n', '\r'])
            .strip_prefix(SECTION_START)
            .and_then(|h| {
                let mut exit = None;
                let mut count = None;
                for word in h.split_whitespace() {
                    if let Some(v) = word.strip_prefix("exit=") {
                        exit = v.parse::<i32>().ok();
                    } else if let Some(v) = word.strip_prefix("files=") {
                        count = v.parse::<usize>().ok();
                    }
                }
                exit.zip(count)
            });
        let Some((exit, count)) = header else {
            if line.trim_end_matches(['\n', '\r']) != DRIVER_MARKER {
                outside.push_str(line);
            }
            i += 1;
            continue;
        };
        let end = lines
            .iter()
            .enumerate()
            .skip(i + 1 + count)
            .find(|(_, l)| l.trim_end_matches(['\n', '\r']) == SECTION_END)
            .map(|(k, _)| k);
        match end {
            Some(end) if i + 1 + count <= lines.len() => {
                let files = lines[i + 1..i + 1 + count]
                    .iter()
                    .map(|l| l.trim_end_matches(['\n', '\r']).to_string())
                    .collect();
                let output: String = lines[i + 1 + count..end].concat();
                found.push(Section {
                    exit,
                    files,
                    output,
                });
                i = end + 1;
            }
            // cut short (the process was killed): its text is the invocation's
            _ => {
                outside.push_str(&lines[i..].concat());
                break;
            }
        }
    }
    (found, outside)
}

/// The runs of an invocation on `files`: one per whole section of its output naming files of
/// `files`, and one for the files no whole section covers, with how the invocation itself
/// ended and the text outside the sections (all the files and the whole output when there
/// are no sections: a compiler's command line, a fake, a request that timed out).
fn split_sections(whole: Whole, files: &[PathBuf]) -> Vec<Run> {
    let (found, outside) = sections(&whole.output);
    if found.is_empty() {
        return vec![Run {
            files: files.to_vec(),
            ok: whole.ok,
            exit: whole.exit,
            output: whole.output,
            timed_out: whole.timed_out,
        }];
    }
    let by_arg: BTreeMap<String, &PathBuf> =
        files.iter().map(|f| (f.display().to_string(), f)).collect();
    let mut covered: std::collections::BTreeSet<&PathBuf> = std::collections::BTreeSet::new();
    let mut runs = Vec::with_capacity(found.len() + 1);
    for sec in found {
        let mine: Vec<PathBuf> = sec
            .files
            .iter()
            .filter_map(|f| by_arg.get(f).map(|p| (*p).clone()))
            .collect();
        if mine.is_empty() {
            continue;
        }
        covered.extend(sec.files.iter().filter_map(|f| by_arg.get(f).copied()));
        runs.push(Run {
            files: mine,
            ok: sec.exit == 0,
            exit: Some(sec.exit),
            output: sec.output,
            timed_out: false,
        });
    }
    let rest: Vec<PathBuf> = files
        .iter()
        .filter(|f| !covered.contains(f))
        .cloned()
        .collect();
    if !rest.is_empty() {
        runs.push(Run {
            files: rest,
            // the driver said nothing of these files
            ok: false,
            exit: whole.exit,
            output: outside,
            timed_out: whole.timed_out,
        });
    }
    runs
}

/// Kills the child's process group (the child and anything it started).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is
            // touched
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
}

/// Removes ANSI colour escapes (`ESC [ ... m`).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// True when an invocation ended in an internal error rather than a verdict: an exit code at
/// least the profile's [`crate::profile::CompilerProfile::crash_exit`] (javac's 3 system error
/// and 4 abnormal end, kotlinc's 2 internal error, the warm server's 3 for an escaped
/// exception), death by a signal, a crash phrase
/// ([`crate::profile::CompilerProfile::has_crash_phrase`]), or a stack trace (a line naming
/// only a throwable, followed by `at` frames).
fn is_crash(tool: Tool, run: &Run) -> bool {
    if run.timed_out || run.ok {
        return false;
    }
    let profile = tool.profile();
    let abnormal = run.exit.is_none_or(|code| profile.is_crash_exit(code));
    abnormal || profile.has_crash_phrase(&run.output) || has_stack_trace(&run.output)
}

/// True when the output holds a stack trace: a line that is a throwable's class (optionally
/// with `: message`, or after `exception: ` / `Caused by: `) followed by a frame line
/// `at pkg.Class.method(...)`. A program's source echoed in a diagnostic never has this shape.
fn has_stack_trace(output: &str) -> bool {
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    lines.windows(2).any(|w| {
        let head = w[0]
            .trim_start_matches("exception: ")
            .trim_start_matches("Caused by: ")
            .trim_start_matches("error: ");
        let class = head.split(": ").next().unwrap_or(head);
        let last = class.rsplit('.').next().unwrap_or(class);
        let is_throwable = class.contains('.')
            && (last.ends_with("Exception") || last.ends_with("Error"))
            && class
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '.' | '$' | '_'));
        let frame = w[1]
            .strip_prefix("at ")
            .is_some_and(|f| f.contains('(') && f.ends_with(')'));
        is_throwable && frame
    })
}

/// True for a compiler's closing count of errors: `1 error`, `94 errors`, `2 errors found`.
fn is_error_count(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [n, e] | [n, e, "found"] => {
            n.bytes().all(|b| b.is_ascii_digit()) && matches!(*e, "error" | "errors")
        }
        _ => false,
    }
}

/// Attributes error lines (with the lines that follow them) to the files they name.
fn attribute(tool: Tool, output: &str, files: &[PathBuf]) -> BTreeMap<String, Vec<String>> {
    let format = tool.profile().diagnostics;
    let named = NamedFiles::new(files);
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let lines: Vec<&str> = output.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if !format.is_error_line(line) {
            continue;
        }
        let Some(name) = named.first_in(line) else {
            continue;
        };
        let mut text = line.to_string();
        for next in lines.iter().skip(i + 1).take(4) {
            // the next diagnostic, or the compiler's count at the end (`2 errors`), which
            // says nothing about this file
            if format.is_error_line(next) || is_error_count(next) {
                break;
            }
            text.push('\n');
            text.push_str(next);
        }
        by.entry(name.to_string()).or_default().push(text);
    }
    by
}

/// A run's files as a diagnostic line may name them: by their path, or by `/` and their
/// name. Looked up by name, so that attributing a batch's errors is not a search of every
/// file for every line (it runs between two compiler runs).
struct NamedFiles {
    /// Each file's name.
    names: Vec<String>,
    /// The files with a plain name, by name (their indices, in order).
    by_name: rustc_hash::FxHashMap<String, Vec<usize>>,
    /// The lengths of those names.
    lengths: Vec<usize>,
    /// The other files (no parent directory, or a name of other characters), with their
    /// path, searched for in every line.
    others: Vec<(usize, String)>,
}

/// Characters of a plain file name (thalia's programs' files are `Test_p000001.java`).
fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-')
}

impl NamedFiles {
    fn new(files: &[PathBuf]) -> Self {
        let mut named = NamedFiles {
            names: Vec::with_capacity(files.len()),
            by_name: Default::default(),
            lengths: Vec::new(),
            others: Vec::new(),
        };
        for (i, f) in files.iter().enumerate() {
            let name = file_name(f);
            let full = f.display().to_string();
            let plain = !name.is_empty() && name.bytes().all(is_name_char);
            // a path with a directory contains `/name`, which the lookup finds
            if plain && full.ends_with(&format!("/{name}")) {
                if !named.lengths.contains(&name.len()) {
                    named.lengths.push(name.len());
                }
                named.by_name.entry(name.clone()).or_default().push(i);
            } else {
                named.others.push((i, full));
            }
            named.names.push(name);
        }
        named
    }

    /// The name of the first file (in the run's order) that `line` names: its path, or `/`
    /// and its name.
    fn first_in(&self, line: &str) -> Option<&str> {
        let mut first: Option<usize> = None;
        let mut note = |i: usize| first = Some(first.map_or(i, |f| f.min(i)));
        let bytes = line.as_bytes();
        for (p, _) in line.match_indices('/') {
            let rest = &bytes[p + 1..];
            let run = rest.iter().take_while(|&&c| is_name_char(c)).count();
            for &len in &self.lengths {
                if len > run {
                    continue;
                }
                // a plain name is ASCII, so the run's bytes are a string's
                if let Some(at) = line.get(p + 1..p + 1 + len) {
                    if let Some(idx) = self.by_name.get(at) {
                        idx.iter().for_each(|&i| note(i));
                    }
                }
            }
        }
        for (i, full) in &self.others {
            let name = &self.names[*i];
            if line.contains(full.as_str())
                || !name.is_empty() && line.contains(&format!("/{name}"))
            {
                note(*i);
            }
        }
        first.map(|i| self.names[i].as_str())
    }
}

/// Compiles `files` in as few invocations as possible and gives each its verdict.
pub fn compile_batch(
    tc: &Toolchain,
    files: &[PathBuf],
    out: &Path,
    opts: &CompileOptions,
) -> Result<BatchResult, CompileError> {
    compile_batch_with(tc, &mut None, files, out, opts)
}

/// [`compile_batch`] through `server` when there is one (else a process per invocation).
pub fn compile_batch_with(
    tc: &Toolchain,
    server: &mut Option<CompileServer>,
    files: &[PathBuf],
    out: &Path,
    opts: &CompileOptions,
) -> Result<BatchResult, CompileError> {
    compile_batch_until(tc, server, files, out, opts, &Cutoff::never())
}

/// [`compile_batch_with`], given up at `cutoff` ([`CompileError::GivenUp`]).
pub fn compile_batch_until(
    tc: &Toolchain,
    server: &mut Option<CompileServer>,
    files: &[PathBuf],
    out: &Path,
    opts: &CompileOptions,
    cutoff: &Cutoff,
) -> Result<BatchResult, CompileError> {
    let start = Instant::now();
    let mut result = BatchResult::default();
    let mut pending: Vec<PathBuf> = files.to_vec();
    while !pending.is_empty() {
        if cutoff.due() {
            return Err(CompileError::GivenUp);
        }
        let invocation = invoke(tc, server.as_mut(), &pending, out, opts, cutoff)?;
        result.calls += 1;
        result.starts += invocation.started;
        result.runs += invocation.runs.len();
        let attributing = Instant::now();
        let before = pending.len();
        let mut split: Vec<Vec<PathBuf>> = Vec::new();
        for run in invocation.runs {
            let mine: Vec<PathBuf> = run
                .files
                .iter()
                .filter(|f| pending.contains(f))
                .cloned()
                .collect();
            if mine.is_empty() {
                continue;
            }
            match judge_run(tc.tool, run, &mine) {
                Judged::Verdicts(verdicts) => {
                    for (file, v) in verdicts {
                        result.verdicts.insert(file_name(&file), v);
                        pending.retain(|p| *p != file);
                    }
                }
                Judged::Split => split.push(mine),
            }
        }
        result.attribution_seconds += attributing.elapsed().as_secs_f64();
        if split.is_empty() && pending.len() == before {
            // nothing judged (a run that named no file of its own): bisect them all
            split.push(pending.clone());
        }
        // a crash, a timeout or nothing attributable: bisect down to files alone
        for set in split {
            let set: Vec<PathBuf> = set.into_iter().filter(|f| pending.contains(f)).collect();
            if set.is_empty() {
                continue;
            }
            let mid = set.len().div_ceil(2);
            for half in [&set[..mid], &set[mid..]] {
                if half.is_empty() {
                    continue;
                }
                let part = compile_batch_until(tc, server, half, out, opts, cutoff)?;
                result.absorb(part);
                pending.retain(|p| !half.contains(p));
            }
        }
    }
    result.seconds = start.elapsed().as_secs_f64();
    Ok(result)
}

/// What javac prints before the file it writes on a crash: its arguments, as
/// `javac.<date>.args` in the current directory (`com.sun.tools.javac.main.Main`).
const JAVAC_ARGS_FILE_LINE: &str = "printing javac parameters to: ";

/// Removes the arguments file that a crashing javac wrote into the current directory (the
/// directory thalia was started in, whether javac ran in a server or its own process): its
/// output names it, and the campaign keeps the arguments and the crash report itself. Only
/// a file named `javac.*.args` is removed.
fn remove_crash_args_file(output: &str) {
    for line in output.lines() {
        let line = line.trim();
        let n = JAVAC_ARGS_FILE_LINE.len();
        let path = match (line.get(..n), line.get(n..)) {
            (Some(head), Some(path)) if head.eq_ignore_ascii_case(JAVAC_ARGS_FILE_LINE) => path,
            _ => continue,
        };
        let path = Path::new(path.trim());
        let ours = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("javac.") && n.ends_with(".args"));
        if ours {
            // already gone (another run's output named it too) is fine
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A file's name, the key of its verdict.
fn file_name(f: &Path) -> String {
    f.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What one run says about its files still without a verdict.
enum Judged {
    /// These files' verdicts (the others stay without one).
    Verdicts(Vec<(PathBuf, Verdict)>),
    /// Nothing sound about any of them alone: a crash, a timeout or errors that name none of
    /// them, on several files.
    Split,
}

/// Judges `mine` (the run's files still without a verdict) by `run`: all accepted when it
/// succeeded; the files its errors name rejected; a crash, a timeout or unattributable errors
/// on one file are that file's verdict, on several a reason to split them.
fn judge_run(tool: Tool, run: Run, mine: &[PathBuf]) -> Judged {
    if run.ok {
        return Judged::Verdicts(
            mine.iter()
                .map(|f| (f.clone(), Verdict::Accepted))
                .collect(),
        );
    }
    let crash = is_crash(tool, &run);
    if crash {
        remove_crash_args_file(&run.output);
    }
    let errors = attribute(tool, &run.output, mine);
    if errors.is_empty() || crash || run.timed_out {
        let [file] = mine else {
            return Judged::Split;
        };
        let v = if run.timed_out {
            Verdict::Timeout
        } else if crash {
            Verdict::Crash {
                exit: run.exit,
                output: run.output,
            }
        } else {
            Verdict::Rejected {
                diagnostics: vec![run.output],
            }
        };
        return Judged::Verdicts(vec![(file.clone(), v)]);
    }
    Judged::Verdicts(
        mine.iter()
            .filter_map(|f| {
                errors.get(&file_name(f)).map(|d| {
                    (
                        f.clone(),
                        Verdict::Rejected {
                            diagnostics: d.clone(),
                        },
                    )
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lookup by name finds the first file (in the run's order) that a line names by
    /// its path or by `/` and its name, as a search of every file does.
    #[test]
    fn a_diagnostic_line_is_attributed_to_the_first_file_it_names() {
        let files: Vec<PathBuf> = [
            "/s/g0/src/Test_p000002.java",
            "/s/g0/src/Test_p000001.java",
            "/s/g0/src/A.java",
            "A.java",
            "/s/g0/src/B c.java",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let named = NamedFiles::new(&files);
        let brute = |line: &str| {
            files
                .iter()
                .find(|f| {
                    let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
                    line.contains(&f.display().to_string())
                        || name.is_some_and(|n| line.contains(&format!("/{n}")))
                })
                .and_then(|f| f.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        };
        for line in [
            "/s/g0/src/Test_p000001.java:3: error: incompatible types",
            "-- [E007] Type Mismatch Error: /s/g0/src/Test_p000002.java:4:8 ---",
            // two files named: the first in the run's order
            "/s/g0/src/Test_p000001.java:1: error: class Test_p000002 is public, see /x/Test_p000002.java.",
            // a longer name that ends like a shorter one is not the shorter one
            "/s/g0/src/XA.java:1: error: x",
            "/s/g0/src/A.javax: error: x",
            "A.java:2: error: a relative path",
            "/s/g0/src/B c.java:2: error: a name with a space",
            "error: no file at all",
            "/s/g0/src/Test_p000001.java.bak: error: a longer name",
        ] {
            assert_eq!(named.first_in(line).map(str::to_string), brute(line), "{line}");
        }
    }

    fn run(exit: Option<i32>, output: &str) -> Run {
        Run {
            files: Vec::new(),
            ok: exit == Some(0),
            exit,
            output: output.into(),
            timed_out: false,
        }
    }

    /// A toolchain as `thalia toolchain install` would record it, at made-up paths.
    fn fake_toolchain(tool: Tool, main_class: &str) -> Toolchain {
        let javac = main_class == "com.sun.tools.javac.Main";
        Toolchain {
            tool,
            version: "1.0".into(),
            classpath: if javac {
                Vec::new()
            } else {
                vec!["/c/a.jar".into(), "/c/b.jar".into()]
            },
            runtime: if javac {
                Vec::new()
            } else {
                vec!["/c/rt.jar".into()]
            },
            main_class: main_class.into(),
            java: if javac {
                "/jdk/bin/javac"
            } else {
                "/jdk/bin/java"
            }
            .into(),
            coordinate: None,
            jvm_options: Vec::new(),
        }
    }

    #[test]
    fn the_args_file_of_a_javac_crash_is_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let args = dir.path().join("javac.20261129_122906.args");
        let other = dir.path().join("notes.txt");
        std::fs::write(&args, "-d\nout\nT.java\n").expect("write");
        std::fs::write(&other, "keep").expect("write");
        let output = format!(
            "An exception has occurred in the compiler (17.0.15). Please file a bug\n\
             printing javac parameters to: {}\nPrinting javac parameters to: {}\n",
            args.display(),
            other.display()
        );
        judge_run(
            Tool::Javac,
            run(Some(4), &output),
            &[PathBuf::from("T.java")],
        );
        assert!(!args.exists(), "the crash's arguments file is removed");
        assert!(other.exists(), "a file of another name is left alone");
    }

    #[test]
    fn process_command_lines_of_every_compiler() {
        let jvm = "/jdk/bin/java -Xss8m -Duser.language=en -Duser.country=US -cp /c/a.jar:/c/b.jar";
        let cases = [
            (
                Tool::Kotlin,
                "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
                "A.kt",
                format!("{jvm} org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -no-stdlib -no-reflect -classpath /lib/x.jar:/c/rt.jar -nowarn -d /o /s/A.kt"),
                format!("{jvm} org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -no-stdlib -no-reflect -classpath /c/rt.jar -nowarn -d /o /s/A.kt"),
            ),
            (
                Tool::Scala3,
                "dotty.tools.dotc.Main",
                "A.scala",
                format!("{jvm} dotty.tools.dotc.Main -usejavacp -classpath /lib/x.jar -color:never -nowarn -d /o /s/A.scala"),
                format!("{jvm} dotty.tools.dotc.Main -usejavacp -color:never -nowarn -d /o /s/A.scala"),
            ),
            (
                Tool::Scala2,
                "scala.tools.nsc.Main",
                "A.scala",
                format!("{jvm} scala.tools.nsc.Main -usejavacp -classpath /lib/x.jar -nowarn -d /o /s/A.scala"),
                format!("{jvm} scala.tools.nsc.Main -usejavacp -nowarn -d /o /s/A.scala"),
            ),
            (
                Tool::Groovy,
                "org.codehaus.groovy.tools.FileSystemCompiler",
                "A.groovy",
                format!("{jvm} org.codehaus.groovy.tools.FileSystemCompiler -cp /lib/x.jar --encoding=UTF-8 -d=/o /s/A.groovy"),
                format!("{jvm} org.codehaus.groovy.tools.FileSystemCompiler --encoding=UTF-8 -d=/o /s/A.groovy"),
            ),
            (
                Tool::Javac,
                "com.sun.tools.javac.Main",
                "A.java",
                "/jdk/bin/javac -J-Duser.language=en -Xmaxerrs 100000 -nowarn -proc:none -cp /lib/x.jar -d /o /s/A.java".to_string(),
                "/jdk/bin/javac -J-Duser.language=en -Xmaxerrs 100000 -nowarn -proc:none -d /o /s/A.java".to_string(),
            ),
        ];
        for (tool, main, file, with_cp, without_cp) in cases {
            let tc = fake_toolchain(tool, main);
            let files = [PathBuf::from("/s").join(file)];
            let line = |cp| command_line(&tc, cp, Path::new("/o"), &files).join(" ");
            assert_eq!(line(Some("/lib/x.jar")), with_cp, "{tool:?}");
            assert_eq!(line(None), without_cp, "{tool:?}");
            assert_eq!(line(Some("")), without_cp, "{tool:?}");
        }
    }

    /// A section as the driver writes it.
    fn section(exit: i32, files: &[&str], output: &str) -> String {
        let mut s = format!("{SECTION_START}exit={exit} files={}\n", files.len());
        for f in files {
            s.push_str(f);
            s.push('\n');
        }
        s.push_str(output);
        s.push_str(SECTION_END);
        s.push('\n');
        s
    }

    #[test]
    fn sections_are_read_whole_and_a_section_cut_short_is_left_outside() {
        let text = format!(
            "{DRIVER_MARKER}\n{}{}JVM noise\n{SECTION_START}exit=0 files=1\n/s/C.groovy\nhalf",
            section(1, &["/s/A.groovy"], "/s/A.groovy: 3: error\n"),
            section(0, &["/s/B.groovy"], "")
        );
        let (found, outside) = sections(&text);
        assert_eq!(
            found,
            vec![
                Section {
                    exit: 1,
                    files: vec!["/s/A.groovy".into()],
                    output: "/s/A.groovy: 3: error\n".into()
                },
                Section {
                    exit: 0,
                    files: vec!["/s/B.groovy".into()],
                    output: String::new()
                }
            ]
        );
        assert!(outside.starts_with("JVM noise\n"), "{outside}");
        assert!(outside.contains("half"), "{outside}");
        assert!(!outside.contains(DRIVER_MARKER), "{outside}");
    }

    #[test]
    fn files_no_whole_section_covers_get_the_invocations_own_end() {
        let files: Vec<PathBuf> = ["/s/A.kt", "/s/B.kt", "/s/C.kt"]
            .map(PathBuf::from)
            .to_vec();
        let whole = |output: String, timed_out: bool| Whole {
            ok: false,
            exit: None,
            output,
            timed_out,
        };
        // a plain compiler's output: one run on every file
        let runs = split_sections(whole("/s/A.kt:1:1: error: x".into(), false), &files);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].files, files);
        // the first two judged in sections, the third cut short by the deadline
        let text = section(1, &["/s/A.kt", "/s/B.kt"], "/s/A.kt:1:1: error: x\n")
            + &section(0, &["/s/B.kt"], "");
        let runs = split_sections(whole(text, true), &files);
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0].files, files[..2].to_vec());
        assert!(!runs[0].ok && !runs[0].timed_out);
        assert_eq!(runs[1].files, files[1..2].to_vec());
        assert!(runs[1].ok);
        assert_eq!(runs[2].files, files[2..].to_vec());
        assert!(runs[2].timed_out && !runs[2].ok);
        // a section naming files the invocation was not given is ignored
        let text = section(0, &["/elsewhere/X.kt"], "")
            + &section(0, &["/s/A.kt", "/s/B.kt", "/s/C.kt"], "");
        let runs = split_sections(whole(text, false), &files);
        assert_eq!(runs.len(), 1);
        assert!(runs[0].ok);
    }

    #[test]
    fn a_run_judges_the_files_its_errors_name_and_splits_what_it_cannot_tell_apart() {
        let files: Vec<PathBuf> = ["/s/A.java", "/s/B.java"].map(PathBuf::from).to_vec();
        let mut errors = run(Some(1), "/s/A.java:3: error: incompatible types\n1 error");
        errors.files = files.clone();
        let Judged::Verdicts(v) = judge_run(Tool::Javac, errors, &files) else {
            panic!("errors naming a file are verdicts");
        };
        assert_eq!(v.len(), 1, "B stays without a verdict: {v:?}");
        assert_eq!(v[0].0, files[0]);
        assert_eq!(
            v[0].1,
            Verdict::Rejected {
                // the closing count is no part of A's diagnostic
                diagnostics: vec!["/s/A.java:3: error: incompatible types".into()]
            }
        );
        let crash = run(Some(4), "");
        assert!(matches!(
            judge_run(Tool::Javac, crash, &files),
            Judged::Split
        ));
        let crash = run(Some(4), "boom");
        let Judged::Verdicts(v) = judge_run(Tool::Javac, crash, &files[..1]) else {
            panic!("a crash on one file is its verdict");
        };
        assert!(
            matches!(v[0].1, Verdict::Crash { exit: Some(4), .. }),
            "{v:?}"
        );
        let Judged::Verdicts(v) = judge_run(Tool::Javac, run(Some(0), ""), &files) else {
            panic!("success is a verdict");
        };
        assert!(v.iter().all(|(_, v)| v.is_accepted()) && v.len() == 2);
    }

    #[test]
    fn closing_error_counts_are_told_from_diagnostics() {
        for line in ["1 error", "94 errors", "2 errors found", "  3 errors"] {
            assert!(is_error_count(line), "{line}");
        }
        for line in [
            "error: 1",
            "1 error in A.java",
            "/s/A.java:1: error: x",
            "errors",
        ] {
            assert!(!is_error_count(line), "{line}");
        }
    }

    #[test]
    fn a_program_naming_an_exception_class_is_no_crash() {
        let echo = "/w/Test_p1.java:5: error: incompatible types: StackOverflowError cannot be converted to List<T>\n        java.util.List<T> res = new java.lang.StackOverflowError();\n                                ^\n1 error";
        assert!(!is_crash(Tool::Javac, &run(Some(1), echo)));
        let code = "java.lang.StackOverflowError x = f();\n  at least(this)";
        assert!(!is_crash(Tool::Javac, &run(Some(1), code)));
    }

    #[test]
    fn stack_traces_phrases_exit_codes_and_signals_are_crashes() {
        let trace = "exception: java.lang.IllegalStateException: boom\n\tat org.x.Y.z(Y.kt:1)";
        assert!(is_crash(Tool::Kotlin, &run(Some(1), trace)));
        let so = "error: java.lang.StackOverflowError\n\tat scala.tools.Foo.bar(Foo.scala:3)";
        assert!(is_crash(Tool::Scala2, &run(Some(1), so)));
        assert!(is_crash(
            Tool::Groovy,
            &run(
                Some(1),
                ">>> a serious error occurred: BUG! exception in phase 'x'"
            )
        ));
        assert!(is_crash(Tool::Javac, &run(Some(4), "")));
        assert!(is_crash(Tool::Kotlin, &run(Some(2), "")));
        assert!(is_crash(Tool::Groovy, &run(None, "")));
        assert!(!is_crash(Tool::Javac, &run(Some(1), "T.java:1: error: x")));
        assert!(!is_crash(Tool::Javac, &run(Some(2), "javac: invalid flag")));
    }
}
