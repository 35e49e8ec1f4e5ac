//! A warm compile server: one long-lived JVM per compiler that runs the compiler's in-process
//! entry point once per request, so a batch does not pay the JVM's start-up and warm-up.
//!
//! The server is `CompileServer.java` (embedded here, compiled with the JDK's `javac` on first
//! use into `<toolchains dir>/server/<content hash>/`). It reads one JSON request per line on
//! stdin (`{"id", "entry", "main", "args", "plan", "files"}`: the compiler profile's
//! [`crate::profile::ServerEntry`] and main class, and how the batch's files are judged, its
//! [`RunPlan`]) and answers one JSON line (`{"id", "exit", "output", "heap_mb", "max_heap_mb",
//! "nanos", "cpu_nanos"}`; with a plan, the output holds one section per compiler run). [`CompileServer`]
//! restarts it transparently when it died (the request is retried once), after a timeout, when
//! the heap it keeps alive grew past a ceiling (the least used heap over [`HEAP_WINDOW`]
//! requests, against the lower of [`ServerOptions::max_heap_mb`] and
//! [`MAX_HEAP_SHARE_PERCENT`] of the JVM's own maximum heap, which the server reports), after an
//! `OutOfMemoryError`, or after a number of requests.
//!
//! The same class is the one-shot driver of process mode ([`driver_command`]): a fresh JVM that
//! judges one batch by its plan and streams the sections to its stdout.
//!
//! With a JaCoCo agent in the server's JVM (`output=none`), [`CompileServer::dump_coverage`]
//! writes the agent's execution data to a file and resets it (JaCoCo's runtime API, called
//! reflectively by the server), and [`CompileServer::set_coverage_dir`] names a directory
//! into which each server process writes the data since the last dump when it retires (the
//! planned restarts: heap, request count) or when thalia goes away; a server killed (a
//! timeout) or dead loses the data since the last dump.
//!
//! A server given a start-up directory ([`pool::set_startup_dir`]) compiles a trivial
//! warm-up program ([`warm_up_source`]) twice as soon as each of its processes starts,
//! dumping the agent's data after each; the probes the first run hit and the second did not
//! are the code the JVM runs once (static initializers, first-use set-up,
//! [`crate::coverage::exec_difference`]), kept in a start-up file of that directory. Every
//! later dump copies the start-up files of the processes that served since the previous dump
//! beside it (`jacoco-startup-*.exec`), so a cell's data is start-up ∪ its own, nearly what a
//! fresh compiler JVM per cell counts.
//!
//! The [`pool`] keeps idle servers for the whole process (a batch of campaigns), keyed by the
//! toolchain and its JVM options, so that a campaign's [`crate::compile::Compiler`] takes a
//! warm server from it and returns it when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::profile::{Launch, RunPlan, DRIVER_JVM_FLAGS, JVM_FLAGS};
use crate::toolchain::{toolchains_dir, Tool, Toolchain};

pub mod cds;
pub use cds::Cds;

/// The server's source, compiled on first use.
pub const SERVER_SOURCE: &str = include_str!("server/CompileServer.java");

/// The warm-up program a server with a start-up directory compiles first (twice), in a file
/// `ThaliaWarmUp.<extension>`: an empty class (in Groovy statically compiled with an empty
/// test method, as thalia's Groovy programs are), so that its code is a part of any cell's.
pub fn warm_up_source(tool: Tool) -> &'static str {
    match tool {
        Tool::Groovy => {
            "@groovy.transform.CompileStatic\nclass ThaliaWarmUp {\n    static void test() {}\n}\n"
        }
        _ => "class ThaliaWarmUp {}\n",
    }
}

/// How long the warm-up compilation may take.
const WARM_UP_TIMEOUT: Duration = Duration::from_secs(300);

/// When a server is replaced by a fresh one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerOptions {
    /// Restart before the next request once the least used heap after a request, over a
    /// window of [`HEAP_WINDOW`] requests, exceeds this (MiB): the heap the compiler keeps
    /// alive between its garbage collections, not its garbage. A JVM whose maximum heap is
    /// smaller has a lower ceiling ([`MAX_HEAP_SHARE_PERCENT`] of it).
    pub max_heap_mb: u64,
    /// Restart after this many requests (a backstop against what the heap does not show).
    pub max_batches: usize,
}

/// Requests over which a server's least used heap is taken. The used heap after a request
/// holds the garbage since the last collection; its least value over a few dozen requests,
/// some of which follow a collection, is the live set a leak would grow.
pub const HEAP_WINDOW: usize = 32;

/// The most of the JVM's maximum heap (`Runtime.maxMemory()`, a quarter of the RAM by default)
/// that a server may keep alive. G1 needs room above the live set for the young generation and
/// the garbage of a request: with the live set past about two thirds of the heap, collections
/// come back to back (full ones at the end) and the next request may run out of memory. On a
/// machine with less than 8 GiB of RAM this, not [`ServerOptions::max_heap_mb`], retires a
/// growing groovyc server.
pub const MAX_HEAP_SHARE_PERCENT: u64 = 60;

/// The ceiling on the heap a server keeps alive (MiB): `configured`, or
/// [`MAX_HEAP_SHARE_PERCENT`] of the JVM's maximum heap `jvm_max_mb` when that is lower (0: the
/// server did not say).
pub fn heap_ceiling_mb(configured: u64, jvm_max_mb: u64) -> u64 {
    if jvm_max_mb == 0 {
        return configured;
    }
    configured.min(jvm_max_mb * MAX_HEAP_SHARE_PERCENT / 100)
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            max_heap_mb: 2048,
            // a fresh JVM runs the compiler slower for thousands of programs while the JIT
            // compiles it: 200 requests (20,000 programs, under a minute of javac) restarted
            // the fast compilers' servers so often that campaigns ran below the warm limit
            max_batches: 5_000,
        }
    }
}

/// The answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRun {
    /// The compiler's exit code (0 success, 1 compilation errors, 2 internal error, 3 a
    /// Throwable escaped; -1 after a timeout); with a plan, the highest of its runs'.
    pub exit: i32,
    /// What the compiler printed: its standard output, then its standard error; with a plan,
    /// one section per compiler run.
    pub output: String,
    /// The request did not finish in time (the server was killed and will be restarted).
    pub timed_out: bool,
    /// Nanoseconds the server spent on the request's compiler runs (0 after a timeout).
    pub nanos: u64,
    /// CPU nanoseconds the server's JVM spent meanwhile, all its threads (`None`: unknown).
    pub cpu_nanos: Option<u64>,
}

/// A problem with the server itself (not with the program compiled).
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// No JDK tool (`java`/`javac`) was found.
    #[error("compile server for {tool}: cannot find the JDK's `{program}`")]
    NoJdk {
        /// The compiler.
        tool: String,
        /// The missing executable.
        program: String,
    },
    /// The server class could not be written or compiled.
    #[error("compile server for {tool}: cannot build CompileServer.java: {message}")]
    Build {
        /// The compiler.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// The server process could not be started.
    #[error("compile server for {tool}: cannot start: {message}")]
    Spawn {
        /// The compiler.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// The server died on a request twice (on a fresh server too).
    #[error("compile server for {tool} died: {message}")]
    Died {
        /// The compiler.
        tool: String,
        /// Its last words on stderr, if any.
        message: String,
    },
    /// The coverage agent's data could not be dumped.
    #[error("compile server for {tool}: cannot dump the coverage data to {file}: {message}")]
    Coverage {
        /// The compiler.
        tool: String,
        /// The file asked for.
        file: PathBuf,
        /// What the server said.
        message: String,
    },
    /// The warm-up program did not compile, or its start-up data could not be kept.
    #[error("compile server for {tool}: warm-up for the start-up coverage failed: {message}")]
    WarmUp {
        /// The compiler.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// The server answered something that is not a response to the request.
    #[error("compile server for {tool}: bad response: {message}")]
    Protocol {
        /// The compiler.
        tool: String,
        /// What went wrong.
        message: String,
    },
}

#[derive(Serialize)]
struct Request<'a> {
    id: u64,
    /// The profile's [`crate::profile::ServerEntry`], by name.
    entry: &'a str,
    /// The profile's main class, which the entry calls.
    main: &'a str,
    args: &'a [String],
    /// The [`RunPlan`] by name; empty: one run on all the arguments.
    plan: &'a str,
    /// How many of the last arguments are the source files (with a plan).
    files: usize,
}

#[derive(Deserialize)]
struct Response {
    id: i64,
    exit: i32,
    output: String,
    heap_mb: u64,
    /// The JVM's maximum heap (MiB); 0 from a server that does not say.
    #[serde(default)]
    max_heap_mb: u64,
    #[serde(default)]
    nanos: u64,
    #[serde(default = "unknown_cpu")]
    cpu_nanos: i64,
}

/// A response's CPU time when the server does not say.
fn unknown_cpu() -> i64 {
    -1
}

/// A running server process.
struct Live {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    served: usize,
    /// The least used heap (MiB) of the window under way, and its requests so far.
    window: (u64, usize),
    /// The least used heap of the last whole window ([`HEAP_WINDOW`]), or `u64::MAX` after an
    /// `OutOfMemoryError`.
    heap_floor_mb: u64,
    /// The JVM's maximum heap (MiB) as its last answer said; 0 before it.
    jvm_max_heap_mb: u64,
}

/// How long a retired server has to exit by itself once its stdin is closed.
const GRACE: Duration = Duration::from_secs(10);

/// How long a control request (a coverage dump) may take.
const CONTROL_TIMEOUT: Duration = Duration::from_secs(60);

impl Live {
    /// Notes a request's used heap (MiB) in the window under way.
    fn note_heap(&mut self, heap_mb: u64) {
        let (least, n) = self.window;
        self.window = (least.min(heap_mb), n + 1);
        if self.window.1 >= HEAP_WINDOW {
            self.heap_floor_mb = self.window.0;
            self.window = (u64::MAX, 0);
        }
    }

    /// Ends an idle server: its stdin closed, it exits by itself (its shutdown hooks run, so a
    /// coverage agent writes its data), or is killed after [`GRACE`].
    fn close(self) -> String {
        let Live {
            mut child,
            stdin,
            stderr,
            ..
        } = self;
        drop(stdin);
        let deadline = std::time::Instant::now() + GRACE;
        loop {
            match child.try_wait() {
                Ok(None) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Ok(Some(_)) => break,
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
            }
        }
        let tail = stderr.lock().map(|s| s.clone()).unwrap_or_default();
        tail
    }

    fn kill(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let tail = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        tail
    }
}

/// A warm compiler: a long-lived JVM that compiles on request.
pub struct CompileServer {
    tc: Toolchain,
    options: ServerOptions,
    java: PathBuf,
    class_dir: PathBuf,
    live: Option<Live>,
    next_id: u64,
    starts: usize,
    /// Where each server process writes its coverage data when it retires.
    coverage_dir: Option<PathBuf>,
    /// Where each server process writes its start-up coverage data (after the warm-up).
    startup_dir: Option<PathBuf>,
    /// The start-up data of the processes that served since the last dump (the running
    /// one's last).
    startup_files: Vec<PathBuf>,
}

/// Compile server processes started by this process so far.
static STARTS: AtomicUsize = AtomicUsize::new(0);

/// Compile server processes started by this process so far, per [`Tool`] (by its index in
/// [`Tool::ALL`]).
static STARTS_OF: [AtomicUsize; Tool::ALL.len()] = [const { AtomicUsize::new(0) }; Tool::ALL.len()];

/// How many compile server processes this process started so far (all servers, restarts
/// included).
pub fn total_starts() -> usize {
    STARTS.load(Ordering::SeqCst)
}

/// How many compile server processes for `tool` this process started so far.
pub fn starts_of(tool: Tool) -> usize {
    STARTS_OF[tool as usize].load(Ordering::SeqCst)
}

/// A fresh name for a coverage data file in `dir` (`jacoco-<pid>-<time>-<n>.exec`): every
/// dump and every retiring server writes its own file.
pub fn fresh_exec_file(dir: &Path) -> PathBuf {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let n = SEQ.fetch_add(1, Ordering::SeqCst);
    dir.join(format!("jacoco-{}-{nanos}-{n}.exec", std::process::id()))
}

impl std::fmt::Debug for CompileServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompileServer")
            .field("tool", &self.tc.tool)
            .field("version", &self.tc.version)
            .field("pid", &self.pid())
            .field("starts", &self.starts)
            .finish()
    }
}

/// The arguments after the main class that `Toolchain::command` gives the compiler for
/// `args` (Kotlin's `-no-stdlib -no-reflect -classpath <stdlib>`, Scala's `-usejavacp`), so
/// the server runs the compiler exactly as the process would.
pub fn compiler_args(tc: &Toolchain, args: &[String]) -> Vec<String> {
    let cmd = tc.command(args);
    let all: Vec<String> = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if tc.tool.profile().launch == Launch::JdkExecutable {
        return all;
    }
    match all.iter().position(|a| *a == tc.main_class) {
        Some(i) => all[i + 1..].to_vec(),
        None => args.to_vec(),
    }
}

/// The JDK executable `name` next to `java` (following symlinks), else on the `PATH`.
fn jdk_sibling(java: &Path, name: &str) -> Option<PathBuf> {
    let exe = |p: PathBuf| p.is_file().then_some(p);
    let beside = |j: &Path| j.parent().and_then(|d| exe(d.join(name)));
    if let Some(p) = beside(java) {
        return Some(p);
    }
    if let Some(p) = std::fs::canonicalize(java).ok().and_then(|j| beside(&j)) {
        return Some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|d| exe(d.join(name)))
}

/// Whether `tc`'s executable (a JDK tool such as javac) has the JDK's `java` right beside it,
/// following symlinks: then the one-shot driver runs the same JDK's compiler in-process.
pub fn java_beside(tc: &Toolchain) -> bool {
    let beside = |j: &Path| j.parent().is_some_and(|d| d.join("java").is_file());
    beside(&tc.java) || std::fs::canonicalize(&tc.java).is_ok_and(|j| beside(&j))
}

/// Names the cached server build after its source.
fn content_hash(s: &str) -> u64 {
    crate::hash::fnv1a64(s.as_bytes())
}

/// Writes and compiles the server class (once per source version); returns its directory.
fn build_server(javac: &Path, tool: Tool) -> Result<PathBuf, ServerError> {
    let build = |message: String| ServerError::Build {
        tool: tool.name().into(),
        message,
    };
    let root = toolchains_dir().join("server");
    let dir = root.join(format!("{:016x}", content_hash(SERVER_SOURCE)));
    if dir.join("CompileServer.class").is_file() {
        return Ok(dir);
    }
    // build aside, then rename: concurrent first uses never see a half-written class
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = root.join(format!(".build-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| build(format!("{}: {e}", tmp.display())))?;
    let src = tmp.join("CompileServer.java");
    std::fs::write(&src, SERVER_SOURCE).map_err(|e| build(format!("{}: {e}", src.display())))?;
    let out = Command::new(javac)
        .args(["--release", "17", "-nowarn", "-d"])
        .arg(&tmp)
        .arg(&src)
        .output()
        .map_err(|e| build(format!("{}: {e}", javac.display())))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(build(format!(
            "javac failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        // another process won the race
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join("CompileServer.class").is_file() {
            return Err(build(format!("cannot create {}", dir.display())));
        }
    }
    Ok(dir)
}

/// The `java` that runs a server for `tc`, and the directory of the server class (built if
/// needed).
fn server_jvm(tc: &Toolchain) -> Result<(PathBuf, PathBuf), ServerError> {
    let missing = |program: &str| ServerError::NoJdk {
        tool: tc.tool.name().into(),
        program: program.into(),
    };
    // a JDK tool's toolchain names its executable (`javac`); the others name `java`
    let java = if tc.tool.profile().launch == Launch::JdkExecutable {
        jdk_sibling(&tc.java, "java").ok_or_else(|| missing("java"))?
    } else {
        tc.java.clone()
    };
    let javac = jdk_sibling(&java, "javac").ok_or_else(|| missing("javac"))?;
    let class_dir = build_server(&javac, tc.tool)?;
    Ok((java, class_dir))
}

/// Whether `tc`'s JVM is given a Java agent (JaCoCo's, for coverage).
fn has_agent(tc: &Toolchain) -> bool {
    tc.jvm_options.iter().any(|o| o.starts_with("-javaagent:"))
}

/// The server JVM's classpath: the compiler's, then the server class's directory.
fn server_classpath(tc: &Toolchain, class_dir: &Path) -> String {
    let sep = if cfg!(windows) { ";" } else { ":" };
    tc.classpath
        .iter()
        .map(PathBuf::as_path)
        .chain(std::iter::once(class_dir))
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The marker line the one-shot driver writes first: output without it is not the driver's
/// (a toolchain whose `java` is not a JVM, such as a test's fake compiler, ran the arguments
/// as a compiler would).
pub const DRIVER_MARKER: &str = "\u{1e}thalia-driver 1";

/// The line start with which the one-shot driver says that the compiler has no in-process
/// entry it can call: the compiler's own command line must do.
pub const DRIVER_UNUSABLE: &str = "\u{1e}thalia-driver-unusable ";

/// The command of the one-shot driver (`CompileServer --once`) that judges the last `files`
/// of `args` (as given to `Toolchain::command`; the source files) by `plan` in a fresh JVM
/// of the compiler, with the JVM options a server would have: process mode for a compiler
/// launched on the JVM ([`crate::profile::CompilerProfile::drives_processes`]), JIT-compiled
/// for a short life ([`DRIVER_JVM_FLAGS`]).
pub fn driver_command(
    tc: &Toolchain,
    args: &[String],
    plan: RunPlan,
    files: usize,
) -> Result<(Command, Cds), ServerError> {
    let (java, class_dir) = server_jvm(tc)?;
    let profile = tc.tool.profile();
    let jvm_flags: Vec<String> = tc
        .jvm_options
        .iter()
        .cloned()
        .chain(JVM_FLAGS.iter().map(|s| s.to_string()))
        .chain(DRIVER_JVM_FLAGS.iter().map(|s| s.to_string()))
        .chain(profile.server_jvm_flags.iter().map(|s| s.to_string()))
        .collect();
    // class-data sharing needs a classpath of jars alone: the driver's class in its jar
    let jar = driver_jar(&class_dir).filter(|_| tc.classpath.iter().all(|p| p.is_file()));
    let classpath = server_classpath(tc, jar.as_deref().unwrap_or(&class_dir));
    let cds = match jar {
        Some(_) => cds::plan(&java, &classpath, &jvm_flags),
        None => Cds::Off,
    };
    let mut c = Command::new(java);
    c.args(&jvm_flags)
        .args(cds.jvm_flags())
        .arg("-cp")
        .arg(classpath)
        .args(["CompileServer", "--once", profile.server_entry.name()])
        .arg(&tc.main_class)
        .arg(plan.name())
        .arg(files.to_string())
        .args(compiler_args(tc, args));
    Ok((c, cds))
}

/// The jar of the server's classes in `class_dir` (made once, atomically), or `None` when it
/// cannot be made.
fn driver_jar(class_dir: &Path) -> Option<PathBuf> {
    let jar = class_dir.join("CompileServer.jar");
    if jar.is_file() {
        return Some(jar);
    }
    let mut classes: Vec<PathBuf> = std::fs::read_dir(class_dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "class"))
        .collect();
    classes.sort();
    if classes.is_empty() {
        return None;
    }
    let tmp = tempfile::NamedTempFile::new_in(class_dir).ok()?;
    let mut zip = zip::ZipWriter::new(tmp.reopen().ok()?);
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for class in &classes {
        let name = class.file_name()?.to_string_lossy().into_owned();
        let bytes = std::fs::read(class).ok()?;
        zip.start_file(name, stored).ok()?;
        zip.write_all(&bytes).ok()?;
    }
    zip.finish().ok()?;
    tmp.persist(&jar).ok()?;
    Some(jar)
}

impl CompileServer {
    /// Builds the server class if needed and starts a server for `tc`.
    pub fn start(tc: &Toolchain) -> Result<Self, ServerError> {
        Self::start_with(tc, ServerOptions::default())
    }

    /// [`CompileServer::start`] with explicit restart limits.
    pub fn start_with(tc: &Toolchain, options: ServerOptions) -> Result<Self, ServerError> {
        Self::start_full(tc, options, None)
    }

    /// [`CompileServer::start_with`] whose every process compiles [`warm_up_source`] first and
    /// dumps its start-up coverage data into a fresh file of `startup_dir`, if given.
    pub fn start_full(
        tc: &Toolchain,
        options: ServerOptions,
        startup_dir: Option<&Path>,
    ) -> Result<Self, ServerError> {
        let (java, class_dir) = server_jvm(tc)?;
        let mut server = CompileServer {
            tc: tc.clone(),
            options,
            java,
            class_dir,
            live: None,
            next_id: 0,
            starts: 0,
            coverage_dir: None,
            startup_dir: startup_dir.map(Path::to_path_buf),
            startup_files: Vec::new(),
        };
        server.spawn()?;
        Ok(server)
    }

    /// The server process's id, when one is running.
    pub fn pid(&self) -> Option<u32> {
        self.live.as_ref().map(|l| l.child.id())
    }

    /// The ceiling on the heap the running server may keep alive (MiB), once it answered a
    /// request ([`heap_ceiling_mb`] of the options' and its JVM's maximum heap).
    pub fn heap_ceiling_mb(&self) -> Option<u64> {
        let live = self.live.as_ref()?;
        (live.jvm_max_heap_mb > 0)
            .then(|| heap_ceiling_mb(self.options.max_heap_mb, live.jvm_max_heap_mb))
    }

    /// How many server processes were started so far.
    pub fn starts(&self) -> usize {
        self.starts
    }

    /// The toolchain served.
    pub fn toolchain(&self) -> &Toolchain {
        &self.tc
    }

    fn spawn(&mut self) -> Result<(), ServerError> {
        let cp = server_classpath(&self.tc, &self.class_dir);
        let spawn = |e: std::io::Error| ServerError::Spawn {
            tool: self.tc.tool.name().into(),
            message: format!("{}: {e}", self.java.display()),
        };
        let mut child = Command::new(&self.java)
            .args(&self.tc.jvm_options)
            .args(JVM_FLAGS)
            .args(self.tc.tool.profile().server_jvm_flags)
            .arg("-cp")
            .arg(cp)
            .arg("CompileServer")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn)?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // the JVM's own complaints (the compiler's output is captured inside the server)
        let tail = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut t) = keep.lock() {
                    t.push_str(&String::from_utf8_lossy(&buf[..n]));
                    if t.len() > 16_384 {
                        let cut = t.len() - 8192;
                        let cut = (cut..t.len()).find(|&i| t.is_char_boundary(i)).unwrap_or(0);
                        t.drain(..cut);
                    }
                }
            }
        });
        self.live = Some(Live {
            child,
            stdin,
            lines,
            stderr: tail,
            served: 0,
            window: (u64::MAX, 0),
            heap_floor_mb: 0,
            jvm_max_heap_mb: 0,
        });
        self.starts += 1;
        STARTS.fetch_add(1, Ordering::SeqCst);
        STARTS_OF[self.tc.tool as usize].fetch_add(1, Ordering::SeqCst);
        if let Some(dir) = self.startup_dir.clone() {
            let file = self.warm_up(&dir)?;
            self.startup_files.push(file);
            // the warm-up's requests do not count towards the restart limit
            if let Some(live) = self.live.as_mut() {
                live.served = 0;
            }
        }
        if let Some(dir) = self.coverage_dir.clone() {
            self.control("jacoco-exit-file", &[fresh_exec_file(&dir)], None)?;
        }
        Ok(())
    }

    /// Compiles [`warm_up_source`] in the fresh process, then dumps (and resets) the agent's data
    /// into a fresh start-up file of `dir`, returned.
    fn warm_up(&mut self, dir: &Path) -> Result<PathBuf, ServerError> {
        let tool = self.tc.tool.name().to_string();
        let fail = |message: String| ServerError::WarmUp {
            tool: tool.clone(),
            message,
        };
        let pid = self.pid().unwrap_or(0);
        let work = dir.join(format!("warm-up-{}-{pid}", std::process::id()));
        let out = work.join("out");
        std::fs::create_dir_all(&out).map_err(|e| fail(format!("{}: {e}", out.display())))?;
        let src = work.join(format!("ThaliaWarmUp.{}", self.tc.tool.profile().extension));
        std::fs::write(&src, warm_up_source(self.tc.tool))
            .map_err(|e| fail(format!("{}: {e}", src.display())))?;
        let args = compiler_args(
            &self.tc,
            &crate::compile::compiler_args(self.tc.tool, None, &out, &[src]),
        );
        let main = self.tc.main_class.clone();
        let entry = self.tc.tool.profile().server_entry.name();
        let name = fresh_exec_file(dir)
            .file_name()
            .map(|n| n.to_string_lossy().replacen("jacoco-", "startup-", 1))
            .unwrap_or_else(|| "startup.exec".into());
        let file = dir.join(&name);
        // the program twice, the data dumped after each: what the first run hit and the
        // second did not is what this JVM runs once
        let mut dumps = Vec::new();
        for k in 0..2 {
            let run = self.send(entry, &main, &args, None, WARM_UP_TIMEOUT);
            match run {
                Ok(Ok(run)) if run.exit == 0 => {}
                Ok(Ok(run)) if run.timed_out => dumps.push(Err(fail("no answer in time".into()))),
                Ok(Ok(run)) => dumps.push(Err(fail(format!(
                    "exit {}: {}",
                    run.exit,
                    run.output.trim()
                )))),
                Ok(Err(last_words)) => {
                    dumps.push(Err(fail(format!("the server died: {last_words}"))))
                }
                Err(e) => dumps.push(Err(e)),
            }
            if dumps.len() > k {
                break;
            }
            let part = work.join(format!("{k}.exec"));
            dumps.push(
                self.control("jacoco-dump", std::slice::from_ref(&part), Some(&part))
                    .and_then(|()| {
                        std::fs::read(&part).map_err(|e| fail(format!("{}: {e}", part.display())))
                    }),
            );
        }
        let _ = std::fs::remove_dir_all(&work);
        let dumps = dumps.into_iter().collect::<Result<Vec<_>, _>>()?;
        let [first, second] = dumps.as_slice() else {
            return Err(fail("no start-up data".into()));
        };
        let once = crate::coverage::exec_difference(first, second).map_err(fail)?;
        std::fs::write(&file, once).map_err(|e| fail(format!("{}: {e}", file.display())))?;
        Ok(file)
    }

    /// Copies the start-up data of the processes that served since the last call into
    /// `dir` (`jacoco-startup-*.exec`) and keeps the running process's for the next.
    fn copy_startup(&mut self, dir: &Path) -> Result<(), ServerError> {
        let mut result = Ok(());
        for f in &self.startup_files {
            let name = f
                .file_name()
                .map(|n| format!("jacoco-{}", n.to_string_lossy()))
                .unwrap_or_else(|| "jacoco-startup.exec".into());
            let target = dir.join(name);
            if let Err(e) = std::fs::copy(f, &target) {
                result = Err(ServerError::Coverage {
                    tool: self.tc.tool.name().into(),
                    file: target,
                    message: format!("cannot copy the start-up data {}: {e}", f.display()),
                });
            }
        }
        let keep = if self.live.is_some() {
            self.startup_files.pop()
        } else {
            None
        };
        self.startup_files = keep.into_iter().collect();
        result
    }

    /// Whether its JVM is given a Java agent (JaCoCo's, for coverage).
    fn has_agent(&self) -> bool {
        has_agent(&self.tc)
    }

    /// Whether this server runs `tc` with the same JVM options and restart limits.
    fn serves(&self, tc: &Toolchain, options: ServerOptions) -> bool {
        self.options == options
            && self.tc.tool == tc.tool
            && self.tc.version == tc.version
            && self.tc.java == tc.java
            && self.tc.classpath == tc.classpath
            && self.tc.main_class == tc.main_class
            && self.tc.jvm_options == tc.jvm_options
    }

    /// Sets (or, with `None`, clears) the directory into which each server process writes
    /// its coverage data since the last dump when it retires or its stdin closes (a fresh
    /// file each time, see [`fresh_exec_file`]).
    pub fn set_coverage_dir(&mut self, dir: Option<&Path>) -> Result<(), ServerError> {
        self.coverage_dir = dir.map(Path::to_path_buf);
        if self.live.is_none() {
            return Ok(());
        }
        let files: Vec<PathBuf> = dir.map(fresh_exec_file).into_iter().collect();
        self.control("jacoco-exit-file", &files, None)
    }

    /// Writes the coverage agent's execution data to `file` and resets it (nothing when no
    /// server is running), beside it the start-up data of the processes that served since
    /// the last dump (with a start-up directory); the server then writes nothing when it
    /// retires until [`CompileServer::set_coverage_dir`] is called again. Fails with a clear
    /// error when no JaCoCo agent is attached.
    pub fn dump_coverage(&mut self, file: &Path) -> Result<(), ServerError> {
        self.coverage_dir = None;
        let copied = match file.parent() {
            Some(dir) => self.copy_startup(dir),
            None => Ok(()),
        };
        if self.live.is_some() {
            self.control("jacoco-dump", &[file.to_path_buf()], Some(file))?;
        }
        copied
    }

    /// A control request to the running server (`entry` with file arguments).
    fn control(
        &mut self,
        entry: &str,
        files: &[PathBuf],
        dump: Option<&Path>,
    ) -> Result<(), ServerError> {
        let args: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        let tool = self.tc.tool.name().to_string();
        let failed = |message: String| match dump {
            Some(file) => ServerError::Coverage {
                tool: tool.clone(),
                file: file.to_path_buf(),
                message,
            },
            None => ServerError::Protocol {
                tool: tool.clone(),
                message,
            },
        };
        // control requests do not count towards the restart limit
        let served = self.live.as_ref().map(|l| l.served);
        let answer = self.send(entry, "", &args, None, CONTROL_TIMEOUT)?;
        if let (Some(n), Some(live)) = (served, self.live.as_mut()) {
            live.served = n;
        }
        match answer {
            Ok(run) if run.exit == 0 => Ok(()),
            Ok(run) if run.timed_out => Err(failed("no answer in time".into())),
            Ok(run) => Err(failed(run.output.trim().to_string())),
            Err(last_words) => Err(failed(format!("the server died: {last_words}"))),
        }
    }

    /// Stops the running server, if any.
    pub fn stop(&mut self) {
        if let Some(live) = self.live.take() {
            live.kill();
        }
    }

    /// Ends an idle server gracefully (see `Live::close`).
    fn retire(&mut self) {
        if let Some(live) = self.live.take() {
            live.close();
        }
    }

    /// Compiles with `args` (as given to `Toolchain::command`), waiting at most `timeout`.
    pub fn compile(
        &mut self,
        args: &[String],
        timeout: Duration,
    ) -> Result<ServerRun, ServerError> {
        self.compile_planned(args, None, timeout)
    }

    /// [`CompileServer::compile`] judging the last `files` arguments (the source files) by
    /// `plan`: the output holds one section per compiler run.
    pub fn compile_planned(
        &mut self,
        args: &[String],
        plan: Option<(RunPlan, usize)>,
        timeout: Duration,
    ) -> Result<ServerRun, ServerError> {
        let full = compiler_args(&self.tc, args);
        match self.request(&full, plan, timeout)? {
            Ok(run) => Ok(run),
            // the server died under this request: once more, on a fresh server
            Err(_) => match self.request(&full, plan, timeout)? {
                Ok(run) => Ok(run),
                Err(last_words) => Err(ServerError::Died {
                    tool: self.tc.tool.name().into(),
                    message: last_words,
                }),
            },
        }
    }

    /// One request; `Ok(Err(stderr))` when the server died before answering.
    fn request(
        &mut self,
        args: &[String],
        plan: Option<(RunPlan, usize)>,
        timeout: Duration,
    ) -> Result<Result<ServerRun, String>, ServerError> {
        // retire a server that is dead, too big or too old
        let retire = match self.live.as_mut() {
            Some(l) => {
                l.served >= self.options.max_batches.max(1)
                    || l.heap_floor_mb
                        > heap_ceiling_mb(self.options.max_heap_mb, l.jvm_max_heap_mb)
                    || !matches!(l.child.try_wait(), Ok(None))
            }
            None => false,
        };
        if retire {
            self.retire();
        }
        if self.live.is_none() {
            self.spawn()?;
        }
        let main = self.tc.main_class.clone();
        self.send(
            self.tc.tool.profile().server_entry.name(),
            &main,
            args,
            plan,
            timeout,
        )
    }

    /// Sends one request to the running server; `Ok(Err(stderr))` when it died before
    /// answering.
    fn send(
        &mut self,
        entry: &str,
        main: &str,
        args: &[String],
        plan: Option<(RunPlan, usize)>,
        timeout: Duration,
    ) -> Result<Result<ServerRun, String>, ServerError> {
        self.next_id += 1;
        let id = self.next_id;
        let tool = self.tc.tool.name();
        let request = Request {
            id,
            entry,
            main,
            args,
            plan: plan.map_or("", |(p, _)| p.name()),
            files: plan.map_or(0, |(_, n)| n),
        };
        let mut line = serde_json::to_string(&request).map_err(|e| ServerError::Protocol {
            tool: tool.into(),
            message: e.to_string(),
        })?;
        line.push('\n');
        let Some(live) = self.live.as_mut() else {
            return Ok(Err("no server running".into()));
        };
        // a dead server's pipe is an error here, not a SIGPIPE that ends thalia
        let sent = without_sigpipe(|| {
            live.stdin
                .write_all(line.as_bytes())
                .and_then(|()| live.stdin.flush())
        });
        if sent.is_err() {
            let words = self.live.take().map(Live::kill).unwrap_or_default();
            return Ok(Err(words));
        }
        match live.lines.recv_timeout(timeout) {
            Ok(text) => {
                let resp: Response =
                    serde_json::from_str(&text).map_err(|e| ServerError::Protocol {
                        tool: tool.into(),
                        message: format!("{e}: {text}"),
                    })?;
                if resp.id != id as i64 {
                    self.stop();
                    return Err(ServerError::Protocol {
                        tool: tool.into(),
                        message: format!("answer to request {} for request {id}", resp.id),
                    });
                }
                live.served += 1;
                live.note_heap(resp.heap_mb);
                live.jvm_max_heap_mb = resp.max_heap_mb;
                // a JVM out of memory is not to be trusted with the next request
                if resp.exit == 3 && resp.output.contains("java.lang.OutOfMemoryError") {
                    live.heap_floor_mb = u64::MAX;
                }
                Ok(Ok(ServerRun {
                    exit: resp.exit,
                    output: resp.output,
                    timed_out: false,
                    nanos: resp.nanos,
                    cpu_nanos: u64::try_from(resp.cpu_nanos).ok(),
                }))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.stop();
                Ok(Ok(ServerRun {
                    exit: -1,
                    output: String::new(),
                    timed_out: true,
                    nanos: 0,
                    cpu_nanos: None,
                }))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let words = self.live.take().map(Live::kill).unwrap_or_default();
                Ok(Err(words))
            }
        }
    }
}

impl Drop for CompileServer {
    fn drop(&mut self) {
        self.retire();
    }
}

/// A process-wide pool of idle compile servers, off until [`pool::enable`]: a batch of
/// campaigns keeps one warm server per worker across its campaigns.
pub mod pool {
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, MutexGuard};

    use super::{fresh_exec_file, CompileServer, ServerError, ServerOptions};
    use crate::toolchain::Toolchain;

    struct Pool {
        enabled: bool,
        idle: Vec<CompileServer>,
        /// Where the servers write coverage data (the current cell), if anywhere.
        coverage_dir: Option<PathBuf>,
        /// Where new servers write their start-up coverage data, if anywhere.
        startup_dir: Option<PathBuf>,
    }

    static POOL: Mutex<Pool> = Mutex::new(Pool {
        enabled: false,
        idle: Vec::new(),
        coverage_dir: None,
        startup_dir: None,
    });

    fn lock() -> MutexGuard<'static, Pool> {
        POOL.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Turns the pool on: from now on [`crate::compile::Compiler`]s in server mode take
    /// their server from it and return it when dropped.
    pub fn enable() {
        lock().enabled = true;
    }

    /// Whether the pool is on.
    pub fn enabled() -> bool {
        lock().enabled
    }

    /// Makes every server started from now on compile [`super::warm_up_source`] when each of its
    /// processes starts and keep that start-up coverage data in `dir`, copied into every
    /// cell's directory the process serves ([`end_coverage`]).
    pub fn set_startup_dir(dir: &Path) {
        lock().startup_dir = Some(dir.to_path_buf());
    }

    /// An idle server for `tc` (same toolchain, same JVM options, same limits), else a new
    /// one; either writes its coverage data into the pool's coverage directory, if set.
    pub fn checkout(tc: &Toolchain, options: ServerOptions) -> Result<CompileServer, ServerError> {
        let (found, dir, startup) = {
            let mut p = lock();
            let i = p.idle.iter().position(|s| s.serves(tc, options));
            (
                i.map(|i| p.idle.swap_remove(i)),
                p.coverage_dir.clone(),
                p.startup_dir.clone(),
            )
        };
        // start-up coverage only for a compiler measured (with an agent), not for a
        // campaign's twins' javac
        let startup = startup.filter(|_| super::has_agent(tc));
        let mut server = match found {
            Some(s) => s,
            None => CompileServer::start_full(tc, options, startup.as_deref())?,
        };
        if dir.is_some() || server.coverage_dir.is_some() {
            server.set_coverage_dir(dir.as_deref())?;
        }
        Ok(server)
    }

    /// The process ids of the idle servers (for their CPU time and memory).
    pub fn idle_pids() -> Vec<u32> {
        lock().idle.iter().filter_map(CompileServer::pid).collect()
    }

    /// Returns a server to the pool (kept idle, warm), or ends it when the pool is off.
    pub fn checkin(server: CompileServer) {
        let mut p = lock();
        if p.enabled {
            p.idle.push(server);
        } else {
            drop(p);
            drop(server);
        }
    }

    /// Sets the directory the servers write coverage data into (a cell's), telling the idle
    /// ones; servers checked out later get it too.
    pub fn begin_coverage(dir: &Path) -> Result<(), ServerError> {
        let mut p = lock();
        p.coverage_dir = Some(dir.to_path_buf());
        for s in &mut p.idle {
            s.set_coverage_dir(Some(dir))?;
        }
        Ok(())
    }

    /// Dumps every idle server's coverage data into a fresh file of `dir` (resetting it; a
    /// server without a Java agent, such as a campaign's twins' javac, is left alone),
    /// with the start-up data of its processes (see [`set_startup_dir`]), and clears the
    /// coverage directory; returns the problems. A server that cannot dump (dead, no agent)
    /// is ended: its data since the last dump is lost.
    pub fn end_coverage(dir: &Path) -> Vec<ServerError> {
        let mut p = lock();
        p.coverage_dir = None;
        let mut problems = Vec::new();
        for mut s in std::mem::take(&mut p.idle) {
            // a server of another compiler than the one measured (a campaign's twins)
            if !s.has_agent() {
                p.idle.push(s);
                continue;
            }
            match s.dump_coverage(&fresh_exec_file(dir)) {
                Ok(()) => p.idle.push(s),
                Err(e) => {
                    s.stop();
                    problems.push(e);
                }
            }
        }
        problems
    }

    /// Ends every idle server and turns the pool off.
    pub fn shutdown() {
        let idle = {
            let mut p = lock();
            p.enabled = false;
            p.coverage_dir = None;
            p.startup_dir = None;
            std::mem::take(&mut p.idle)
        };
        drop(idle);
    }
}

/// Runs `f` (a write to a child's pipe) with `SIGPIPE` blocked in this thread and discards
/// the signal `f` raised, if any: the write fails with `EPIPE` instead. The `thalia` binary
/// gives `SIGPIPE` its default action (which ends the process) so that a closed stdout ends
/// it quietly; a compile server that died must not.
fn without_sigpipe<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: signal-set manipulation on local, initialized sets; the mask is this thread's
    // and is restored before returning
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        let r = f();
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pending);
        if libc::sigismember(&old, libc::SIGPIPE) == 0
            && libc::sigpending(&mut pending) == 0
            && libc::sigismember(&pending, libc::SIGPIPE) == 1
        {
            let now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::sigtimedwait(&pipe, std::ptr::null_mut(), &now);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heap_ceiling_is_the_lower_of_the_configured_and_a_share_of_the_jvms_heap() {
        // a quarter of 4 GiB of RAM: 1 GiB of heap, 60 % of it
        assert_eq!(heap_ceiling_mb(2048, 1024), 614);
        // a quarter of 23 GiB: the configured ceiling
        assert_eq!(heap_ceiling_mb(2048, 5888), 2048);
        // a server that does not say
        assert_eq!(heap_ceiling_mb(2048, 0), 2048);
    }

    #[test]
    fn a_write_to_a_closed_pipe_fails_instead_of_killing_the_process() {
        use std::os::fd::FromRawFd;
        // in a child process: the default SIGPIPE action, as the `thalia` binary has it
        // SAFETY: the child only makes system calls and ends with `_exit`
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork");
        if pid == 0 {
            // SAFETY: see above
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                let mut fds = [0; 2];
                if libc::pipe(fds.as_mut_ptr()) != 0 {
                    libc::_exit(3);
                }
                libc::close(fds[0]);
                let mut w = std::fs::File::from_raw_fd(fds[1]);
                let r = without_sigpipe(|| w.write_all(b"x"));
                let code = match r {
                    Err(e) if e.raw_os_error() == Some(libc::EPIPE) => 0,
                    _ => 1,
                };
                // (a signal left pending would have ended the child when the mask was
                // restored)
                libc::_exit(code);
            }
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "status {status:#x} (signal {})",
            libc::WTERMSIG(status)
        );
    }

    fn fake(tool: Tool, main_class: &str, java: &str) -> Toolchain {
        Toolchain {
            tool,
            version: "1.0".into(),
            classpath: vec!["/c/a.jar".into()],
            runtime: vec!["/c/rt.jar".into()],
            main_class: main_class.into(),
            java: java.into(),
            coordinate: None,
            jvm_options: Vec::new(),
        }
    }

    #[test]
    fn the_server_gets_the_arguments_after_the_main_class() {
        let args: Vec<String> = ["-nowarn", "-d", "/o", "/s/A.x"].map(String::from).to_vec();
        let kotlin = fake(
            Tool::Kotlin,
            "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
            "/jdk/bin/java",
        );
        assert_eq!(
            compiler_args(&kotlin, &args).join(" "),
            "-no-stdlib -no-reflect -classpath /c/rt.jar -nowarn -d /o /s/A.x"
        );
        let scala = fake(Tool::Scala2, "scala.tools.nsc.Main", "/jdk/bin/java");
        assert_eq!(
            compiler_args(&scala, &args).join(" "),
            "-usejavacp -nowarn -d /o /s/A.x"
        );
        let groovy = fake(
            Tool::Groovy,
            "org.codehaus.groovy.tools.FileSystemCompiler",
            "/jdk/bin/java",
        );
        assert_eq!(compiler_args(&groovy, &args), args);
        let javac = fake(Tool::Javac, "com.sun.tools.javac.Main", "/jdk/bin/javac");
        assert_eq!(compiler_args(&javac, &args), args);
    }
}
