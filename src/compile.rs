//! Compiling a batch of generated files with a real compiler (a process per invocation, or a
//! warm [`CompileServer`]) and attributing its verdict to each file.
//!
//! A file with no diagnostic in a failing batch is not proven accepted: groovyc, and scalac
//! on errors in early phases, stop before type-checking the other files. So the error-free
//! rest of a failing batch is compiled again, until a compile succeeds or every remaining file
//! has a diagnostic of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::server::{CompileServer, ServerError, ServerOptions};
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
    /// Compiler invocations made.
    pub calls: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
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
        }
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
        compile_batch_until(&self.tc, &mut self.server, files, out, opts, &self.cutoff)
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

struct Run {
    ok: bool,
    /// The exit code; `None` when killed (by a signal, or after the deadline) or when the
    /// warm server died under the request.
    exit: Option<i32>,
    output: String,
    timed_out: bool,
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

fn run_once(
    tc: &Toolchain,
    server: Option<&mut CompileServer>,
    files: &[PathBuf],
    out: &Path,
    opts: &CompileOptions,
    cutoff: &Cutoff,
) -> Result<Run, CompileError> {
    let _ = std::fs::create_dir_all(out);
    let mut args = compiler_args(tc.tool, opts.classpath.as_deref(), out, files);
    let at = args.len() - files.len();
    args.splice(at..at, opts.flags.iter().cloned());
    let deadline = opts.deadline(files.len());
    if let Some(server) = server {
        let timeout = cutoff.remaining().map_or(deadline, |r| r.min(deadline));
        let run = server.compile(&args, timeout);
        if cutoff.due() {
            return Err(CompileError::GivenUp);
        }
        return match run {
            Ok(run) => Ok(Run {
                ok: run.exit == 0 && !run.timed_out,
                exit: (!run.timed_out).then_some(run.exit),
                output: strip_ansi(&run.output),
                timed_out: run.timed_out,
            }),
            // it died twice on this request, on a fresh server too: the batch killed it
            Err(ServerError::Died { message, .. }) => Ok(Run {
                ok: false,
                exit: None,
                output: format!("the compile server died: {message}"),
                timed_out: false,
            }),
            Err(e) => Err(e.into()),
        };
    }
    let mut cmd = tc.command(&args);
    let spawn = |e: std::io::Error| CompileError::Spawn {
        tool: tc.tool.name().into(),
        message: e.to_string(),
    };
    // its own process group, so that a timeout kills whatever it started too
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn)?;
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
    // processes the compiler left behind would hold its pipes open
    kill_group(&mut child);
    let output =
        strip_ansi(&(t_out.join().unwrap_or_default() + &t_err.join().unwrap_or_default()));
    Ok(Run {
        ok: status.is_some_and(|s| s.success()),
        exit: status.and_then(|s| s.code()),
        output,
        timed_out,
    })
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

/// Attributes error lines (with the lines that follow them) to the files they name.
fn attribute(tool: Tool, output: &str, files: &[PathBuf]) -> BTreeMap<String, Vec<String>> {
    let format = tool.profile().diagnostics;
    let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let lines: Vec<&str> = output.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if !format.is_error_line(line) {
            continue;
        }
        let Some(f) = files.iter().find(|f| {
            let full = f.display().to_string();
            line.contains(&full)
                || f.file_name()
                    .is_some_and(|n| line.contains(&format!("/{}", n.to_string_lossy())))
        }) else {
            continue;
        };
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut text = line.to_string();
        for next in lines.iter().skip(i + 1).take(4) {
            if format.is_error_line(next) {
                break;
            }
            text.push('\n');
            text.push_str(next);
        }
        by.entry(name).or_default().push(text);
    }
    by
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
    let name = |f: &PathBuf| {
        f.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut pending: Vec<PathBuf> = files.to_vec();
    while !pending.is_empty() {
        if cutoff.due() {
            return Err(CompileError::GivenUp);
        }
        let run = run_once(tc, server.as_mut(), &pending, out, opts, cutoff)?;
        result.calls += 1;
        if run.ok {
            for f in &pending {
                result.verdicts.insert(name(f), Verdict::Accepted);
            }
            break;
        }
        let crash = is_crash(tc.tool, &run);
        let errors = attribute(tc.tool, &run.output, &pending);
        if errors.is_empty() || crash || run.timed_out {
            // a crash, a timeout or nothing attributable: bisect down to files alone
            if pending.len() == 1 {
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
                result.verdicts.insert(name(&pending[0]), v);
                break;
            }
            let mid = pending.len() / 2;
            let (a, b) = pending.split_at(mid);
            for half in [a, b] {
                let r = compile_batch_until(tc, server, half, out, opts, cutoff)?;
                result.calls += r.calls;
                result.verdicts.extend(r.verdicts);
            }
            break;
        }
        pending.retain(|f| {
            let n = name(f);
            match errors.get(&n) {
                Some(d) => {
                    result.verdicts.insert(
                        n,
                        Verdict::Rejected {
                            diagnostics: d.clone(),
                        },
                    );
                    false
                }
                None => true,
            }
        });
    }
    result.seconds = start.elapsed().as_secs_f64();
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(exit: Option<i32>, output: &str) -> Run {
        Run {
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
