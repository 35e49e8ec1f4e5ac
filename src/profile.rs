//! One [`CompilerProfile`] per compiler: everything thalia knows about a compiler, in one
//! entry of [`PROFILES`].
//!
//! An entry holds how the compiler is installed (Maven coordinates, the language runtime it
//! brings, version rules), the language it compiles, how it is launched in a process (main
//! class, flags, classpath and output flags), how the warm compile server calls it in-process,
//! how its diagnostics look (which lines report errors, where the message is) and how it
//! reports an internal error (exit codes, crash phrases). The rest of thalia asks the profile
//! instead of matching on [`Tool`]; adding a compiler is a `Tool` variant (in [`Tool::ALL`]
//! too) and its profile.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thalia_extractors::maven::compare_versions;
use thalia_translators::Language;

/// A compiler thalia knows: the key of its [`CompilerProfile`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    /// Kotlin's `kotlin-compiler-embeddable`.
    Kotlin,
    /// Scala 3's `scala3-compiler_3`.
    Scala3,
    /// Scala 2.13's `scala-compiler`.
    Scala2,
    /// Apache Groovy (`org.apache.groovy:groovy`, 4.x and 5.x).
    Groovy,
    /// The running JDK's javac.
    Javac,
}

impl Tool {
    /// Every tool, in the order of [`PROFILES`].
    pub const ALL: [Tool; 5] = [
        Tool::Kotlin,
        Tool::Scala3,
        Tool::Scala2,
        Tool::Groovy,
        Tool::Javac,
    ];

    /// The tool's profile.
    pub fn profile(self) -> &'static CompilerProfile {
        // `PROFILES` lists the tools in declaration order (checked by a unit test)
        &PROFILES[self as usize]
    }

    /// The tool's name on the command line.
    pub fn name(self) -> &'static str {
        self.profile().name
    }

    /// The tool for a name or one of its aliases (`scala` means Scala 3).
    pub fn from_name(s: &str) -> Option<Tool> {
        CompilerProfile::by_name(s).map(|p| p.tool)
    }
}

/// The JVM options every compiler JVM starts with (process and server): a deep stack for
/// deeply nested programs, and English messages whatever the machine's locale.
pub const JVM_FLAGS: [&str; 3] = ["-Xss8m", "-Duser.language=en", "-Duser.country=US"];

/// The JVM options of a compiler JVM that lives for one batch (process mode: the one-shot
/// driver, javac): the quick JIT alone. The optimizing JIT's threads burn more CPU in a JVM's
/// first seconds than its code saves before the batch ends (about half the CPU of a batch of
/// 100 programs with kotlinc, scalac and groovyc; the verdicts are the same).
pub const DRIVER_JVM_FLAGS: [&str; 1] = ["-XX:TieredStopAtLevel=1"];

/// Version strings containing one of these (case-insensitively) are not stable releases.
pub const UNSTABLE_MARKERS: [&str; 9] = [
    "snapshot", "-rc", "-m", "alpha", "beta", "nightly", "-dev", "-bin", "-ea",
];

/// Phrases that any compiler run on the JVM (or the compile server) prints on an internal
/// error and never in a diagnostic about a program: they have spaces, so a program's names,
/// which the diagnostics echo, cannot form them.
pub const COMMON_CRASH_PHRASES: [&str; 5] = [
    "Exception in thread",
    "internal compiler error",
    "exception during",
    "exception occurred while",
    "the compile server died",
];

/// Everything thalia knows about one compiler.
#[derive(Debug)]
pub struct CompilerProfile {
    /// The key.
    pub tool: Tool,
    /// The name on the command line and in files (`kotlin`, `scala3`).
    pub name: &'static str,
    /// Other names accepted on the command line (`kotlinc`, `scala`).
    pub aliases: &'static [&'static str],
    /// The compiler's usual executable name, for display (`kotlinc`, `scalac`).
    pub executable: &'static str,
    /// The language it compiles.
    pub language: Language,
    /// The extension of its source files, without the dot.
    pub extension: &'static str,
    /// Whether it is the compiler used for its language when none is named.
    pub default_for_language: bool,
    /// Where it is installed from.
    pub install: Install,
    /// Which versions `install` picks.
    pub versions: VersionRules,
    /// The compiler's command-line entry point (recorded in `toolchain.json`).
    pub main_class: &'static str,
    /// How a process runs it.
    pub launch: Launch,
    /// Its arguments for compiling files.
    pub flags: Flags,
    /// How the warm compile server calls it in-process.
    pub server_entry: ServerEntry,
    /// How one invocation (a server request, a driver process) judges a batch.
    pub run_plan: RunPlan,
    /// JVM options of a compile server for it beyond [`JVM_FLAGS`].
    pub server_jvm_flags: &'static [&'static str],
    /// How its diagnostics look.
    pub diagnostics: DiagnosticFormat,
    /// The lowest exit code that means an internal error rather than a verdict (the
    /// compile server's 3, a Throwable escaped, is at least this for every compiler).
    pub crash_exit: i32,
    /// Phrases it prints on an internal error, beyond [`COMMON_CRASH_PHRASES`].
    pub crash_phrases: &'static [&'static str],
}

/// Where a compiler comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Install {
    /// A Maven artifact, resolved with its dependencies.
    Maven(MavenCompiler),
    /// The running JDK: an executable in its `bin/`, whose version is the second word of
    /// what `-version` prints.
    Jdk {
        /// The executable (`javac`).
        executable: &'static str,
    },
}

/// A compiler published as a Maven artifact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MavenCompiler {
    /// The artifact's group.
    pub group: &'static str,
    /// The artifact.
    pub artifact: &'static str,
    /// The artifacts (among the resolved ones) of the language's runtime library, which
    /// compiled programs need on their classpath.
    pub runtime: &'static [&'static str],
}

/// How `thalia toolchain install` picks a version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionRules {
    /// Versions containing one of these are skipped unless asked for exactly.
    pub unstable_markers: &'static [&'static str],
    /// The version prefix used when none is given (`2.13.`); `None`: the newest stable
    /// release.
    pub default_series: Option<&'static str>,
}

impl VersionRules {
    /// The rules of most compilers: stable releases, the newest by default.
    pub const LATEST_STABLE: VersionRules = VersionRules {
        unstable_markers: &UNSTABLE_MARKERS,
        default_series: None,
    };

    /// Whether `version` is a stable release.
    pub fn is_stable(&self, version: &str) -> bool {
        let l = version.to_ascii_lowercase();
        !self.unstable_markers.iter().any(|m| l.contains(m))
    }

    /// The release to install among `available` (a repository's versions) for `want`: the
    /// version it names exactly, else the newest release it (or the default series) is a
    /// prefix of, at a separator (`4` and `4.` both mean `4.*`; `5.0.0-alpha` means
    /// `5.0.0-alpha-*`), stable releases only unless `want` names a pre-release; else, with no
    /// `want`, the newest stable release.
    pub fn pick(&self, available: &[String], want: Option<&str>) -> Result<String, VersionMiss> {
        if let Some(v) = want.filter(|v| available.iter().any(|x| x == v)) {
            return Ok(v.to_string());
        }
        let newest = |prefix: &str, unstable: bool| {
            available
                .iter()
                .filter(|v| (unstable || self.is_stable(v)) && prefix_at_separator(v, prefix))
                .max_by(|a, b| compare_versions(a, b))
                .cloned()
        };
        match want.or(self.default_series) {
            Some(p) => {
                let p = p.trim_end_matches('.');
                newest(p, !self.is_stable(p)).ok_or_else(|| VersionMiss::Prefix {
                    want: p.into(),
                    nearest: nearest_versions(available, p, NEAREST_SHOWN),
                })
            }
            // the newest stable version (`<release>` may name a beta or release candidate)
            None => newest("", false).ok_or(VersionMiss::NoStable),
        }
    }

    /// Whether an installed `version` is the one `want` asks for: equal, or `want` (without
    /// trailing `.` or `x`: `2.13.x`) is a prefix of it.
    pub fn installed_matches(version: &str, want: &str) -> bool {
        version == want || version.starts_with(&format!("{}.", want.trim_end_matches(['x', '.'])))
    }
}

/// Versions shown when none matches what was asked for.
pub const NEAREST_SHOWN: usize = 10;

/// Whether `version` starts with `prefix` at a version separator (`4` matches `4.0.11`, not
/// `40.1`; `5.0.0-alpha` matches `5.0.0-alpha-2`); an empty prefix matches everything.
pub(crate) fn prefix_at_separator(version: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || version.strip_prefix(prefix).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(['.', '-', '_', '+'])
                || prefix.ends_with(['.', '-'])
        })
}

/// Up to `n` of `available` closest to `want`: those sharing the longest prefix with it, in
/// version order (the versions around where `want` would be).
pub fn nearest_versions(available: &[String], want: &str, n: usize) -> Vec<String> {
    let common = |v: &str| {
        v.chars()
            .zip(want.chars())
            .take_while(|(a, b)| a == b)
            .count()
    };
    let best = available.iter().map(|v| common(v)).max().unwrap_or(0);
    let mut near: Vec<String> = available
        .iter()
        .filter(|v| common(v) == best)
        .cloned()
        .collect();
    near.sort_by(|a, b| compare_versions(a, b));
    if near.len() > n {
        // keep the newest of a large group
        near.drain(..near.len() - n);
    }
    near
}

/// Why [`VersionRules::pick`] found no version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionMiss {
    /// No release starts with this prefix.
    Prefix {
        /// What was asked for.
        want: String,
        /// The releases nearest to it.
        nearest: Vec<String>,
    },
    /// There is no stable release at all.
    NoStable,
}

/// How a compiler process is started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Launch {
    /// The JDK's own executable (the toolchain's `java` field names it), given the arguments
    /// as they are.
    JdkExecutable,
    /// `java` [`JVM_FLAGS`] `-cp <compiler classpath> <main class> <prefix> <arguments>`.
    Jvm {
        /// Arguments before the caller's.
        prefix: &'static [&'static str],
        /// Whether the language runtime is appended to the programs' classpath (the first
        /// of [`CLASSPATH_FLAGS`], or a new [`Flags::classpath`] in front): for compilers
        /// that do not find it themselves.
        runtime_on_classpath: bool,
    },
}

/// The spellings of a classpath flag that [`Launch::Jvm::runtime_on_classpath`] extends.
pub const CLASSPATH_FLAGS: [&str; 2] = ["-classpath", "-cp"];

/// A compiler's arguments for compiling files:
/// `<leading> [<classpath> CP] <trailing> <output> FILES…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flags {
    /// Flags first (javac: English messages, no error limit, no warnings or annotation
    /// processing).
    pub leading: &'static [&'static str],
    /// The flag naming the programs' classpath.
    pub classpath: &'static str,
    /// Flags after the classpath (no warnings, no colours, the encoding).
    pub trailing: &'static [&'static str],
    /// How the output directory is given.
    pub output: OutputFlag,
    /// The flag that turns coloured output off, for a compiler that colours by default
    /// (added to hand runs, `thalia toolchain exec`, whose output is not a terminal).
    pub no_color: Option<&'static str>,
}

/// How a compiler is told its output directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFlag {
    /// A flag, then the directory as the next argument (`-d DIR`).
    Separate(&'static str),
    /// A flag joined to the directory (`-d=DIR`).
    Joined(&'static str),
}

/// How the compile server (`server/CompileServer.java`) runs a compiler in its own JVM; the
/// request names the entry and the profile's main class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerEntry {
    /// `new MAIN().exec(PrintStream, String[])`, whose `ExitCode` is the exit code (kotlinc's
    /// `CLICompiler`).
    CliCompilerExec,
    /// The Scala object `MAIN`'s `process(String[])`: a reporter that `hasErrors` (scalac 3)
    /// or a `Boolean` success (scalac 2).
    ScalaProcess,
    /// `MAIN.commandLineCompile(String[], boolean)` (groovyc's `FileSystemCompiler`), a
    /// failure written by Groovy's `ErrorReporter` as groovyc's own `main` does.
    GroovyCommandLine,
    /// The JDK's system Java compiler (`javax.tools`), launcher options (`-J…`) dropped.
    SystemJavaCompiler,
}

impl ServerEntry {
    /// The entry's name in a server request.
    pub fn name(self) -> &'static str {
        match self {
            ServerEntry::CliCompilerExec => "cli-compiler-exec",
            ServerEntry::ScalaProcess => "scala-process",
            ServerEntry::GroovyCommandLine => "groovy-command-line",
            ServerEntry::SystemJavaCompiler => "system-java-compiler",
        }
    }
}

/// How one invocation of a compiler judges a batch of files: the compile server's request, or
/// the one-shot driver process (`CompileServer --once`) that a compiler launched on the JVM
/// runs in process mode. Either way the invocation answers one section per compiler run, so
/// a batch needs no further invocation in the common case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunPlan {
    /// One run on the whole batch, then, when it failed with errors only, one on the files
    /// its output does not name: they passed the type checker, and still need their code
    /// generated (a crash there is a finding too). For compilers that report the errors of
    /// every file of a run (javac, kotlinc, scalac).
    Together,
    /// One run on the whole batch; when it failed with errors only, each file its errors do
    /// not name a compilation of its own, one after another in the same JVM (after a crash,
    /// every file alone). For compilers that stop after the first phase with errors, so that
    /// one file's errors would leave the others unjudged: the files that reached the failing
    /// phase are judged together, the ones stopped earlier apart (groovyc: one
    /// `CompilationUnit` per compilation).
    Apart,
}

impl RunPlan {
    /// The plan's name in a server request.
    pub fn name(self) -> &'static str {
        match self {
            RunPlan::Together => "together",
            RunPlan::Apart => "apart",
        }
    }
}

/// How a compiler's diagnostics look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticFormat {
    /// `path:LINE[:COL]: error: message`, followed by the source line and a caret (javac,
    /// kotlinc, scalac 2).
    Colon {
        /// Errors may also come without a location, as `error: message` (kotlinc).
        unlocated: bool,
        /// A message ending in `;` goes on on the next line (scalac 2's `type mismatch;`
        /// then `found   : X`).
        continued: bool,
        /// Types are printed with type arguments in square brackets (`List[Long]`).
        square_type_arguments: bool,
    },
    /// scalac 3's boxes: `-- [E007] Type Mismatch Error: path:LINE:COL ---`, then the source
    /// line, a caret line and the message lines, all prefixed with `|`; type arguments in
    /// square brackets.
    Boxed,
    /// groovyc's list after `startup failed:`:
    /// `path: LINE: [Static type checking] - message @ line L, column C.`
    Groovy,
}

/// A diagnostic's message, its location stripped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticMessage {
    /// A title naming the kind of error (scalac 3's `[E007] Type Mismatch Error`), to keep
    /// as it is.
    pub title: Option<String>,
    /// What went wrong, with the program's names still in it.
    pub message: String,
}

impl DiagnosticFormat {
    /// The source line a diagnostic is reported at (its first line's `File.ext:LINE`,
    /// `File.ext: LINE`, or groovyc's `@ line LINE`), when it names one.
    pub fn line(self, diagnostic: &str) -> Option<u32> {
        let first = diagnostic.lines().next()?;
        let digits = |s: &str| -> Option<u32> {
            let d: String = s
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            d.parse().ok()
        };
        for ext in [".java:", ".kt:", ".scala:", ".groovy:"] {
            if let Some(n) = first
                .find(ext)
                .and_then(|i| digits(&first[i + ext.len()..]))
            {
                return Some(n);
            }
        }
        let i = diagnostic.find("@ line ")?;
        digits(&diagnostic[i + "@ line ".len()..])
    }

    /// True when an output line reports an error (not a warning) for some location.
    pub fn is_error_line(self, line: &str) -> bool {
        match self {
            DiagnosticFormat::Colon { unlocated, .. } => {
                line.contains(": error:") || unlocated && line.starts_with("error:")
            }
            DiagnosticFormat::Boxed => line.starts_with("-- ") && line.contains("Error"),
            // groovyc prints `path: LINE: message` for every error after "startup failed:"
            DiagnosticFormat::Groovy => line.contains(": ") && !line.contains("warning"),
        }
    }

    /// Whether types in messages have their type arguments in square brackets.
    pub fn square_type_arguments(self) -> bool {
        match self {
            DiagnosticFormat::Colon {
                square_type_arguments,
                ..
            } => square_type_arguments,
            DiagnosticFormat::Boxed => true,
            DiagnosticFormat::Groovy => false,
        }
    }

    /// The message of one diagnostic (its error line and the lines after it).
    pub fn message(self, diagnostic: &str) -> DiagnosticMessage {
        let mut lines = diagnostic.lines();
        let first = lines.next().unwrap_or_default();
        let after_error = |line: &'_ str| -> String {
            match line.find("error:") {
                Some(i) => line[i + "error:".len()..].trim().to_string(),
                None => line.to_string(),
            }
        };
        match self {
            DiagnosticFormat::Colon { continued, .. } => {
                let head = after_error(first);
                let more = if continued && head.ends_with(';') {
                    lines.next().map(str::trim).unwrap_or_default()
                } else {
                    ""
                };
                DiagnosticMessage {
                    title: None,
                    message: if more.is_empty() {
                        head
                    } else {
                        format!("{head} {more}")
                    },
                }
            }
            DiagnosticFormat::Boxed => {
                let head = first.trim_start_matches('-').trim();
                let title = head.split(": ").next().unwrap_or(head).to_string();
                let rest: Vec<&str> = lines.collect();
                // the title names the kind of error, the first line under the caret line
                // what went wrong (`Found: (a0 : java.util.List[Long])`)
                let caret = rest.iter().position(|l| l.contains('^'));
                let message = caret
                    .and_then(|i| rest.get(i + 1))
                    .map(|l| l.trim_start_matches([' ', '|']).trim())
                    .unwrap_or_default();
                DiagnosticMessage {
                    title: Some(title),
                    message: message.to_string(),
                }
            }
            DiagnosticFormat::Groovy => {
                let mut m = first;
                if let Some(i) = m.find(".groovy: ") {
                    m = &m[i + ".groovy: ".len()..];
                    m = m.trim_start_matches(|c: char| c.is_ascii_digit());
                    m = m.trim_start_matches(':').trim();
                }
                let m = match m.rfind(" @ line ") {
                    Some(i) => &m[..i],
                    None => m,
                };
                DiagnosticMessage {
                    title: None,
                    message: m.to_string(),
                }
            }
        }
    }
}

/// Every compiler, in the order of [`Tool::ALL`].
pub static PROFILES: [CompilerProfile; 5] = [
    CompilerProfile {
        tool: Tool::Kotlin,
        name: "kotlin",
        aliases: &["kotlinc"],
        executable: "kotlinc",
        language: Language::Kotlin,
        extension: "kt",
        default_for_language: true,
        install: Install::Maven(MavenCompiler {
            group: "org.jetbrains.kotlin",
            artifact: "kotlin-compiler-embeddable",
            runtime: &["kotlin-stdlib"],
        }),
        versions: VersionRules::LATEST_STABLE,
        main_class: "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        // kotlinc takes one classpath: the standard library is added to the programs'
        launch: Launch::Jvm {
            prefix: &["-no-stdlib", "-no-reflect"],
            runtime_on_classpath: true,
        },
        flags: Flags {
            leading: &[],
            classpath: "-classpath",
            trailing: &["-nowarn"],
            output: OutputFlag::Separate("-d"),
            no_color: None,
        },
        server_entry: ServerEntry::CliCompilerExec,
        run_plan: RunPlan::Together,
        // kotlinc builds an IntelliJ application environment (extension points, the jar file
        // system and its caches) for every compilation and disposes of it after the last
        // one; `kotlin.environment.keepalive` keeps it for the next request, as the Kotlin
        // daemon does. It only caches what does not depend on the sources compiled; the
        // memory it holds is bounded by the server's heap ceiling and request limit.
        server_jvm_flags: &["-Dkotlin.environment.keepalive=true"],
        diagnostics: DiagnosticFormat::Colon {
            unlocated: true,
            continued: false,
            square_type_arguments: false,
        },
        // 2: internal error
        crash_exit: 2,
        crash_phrases: &[],
    },
    CompilerProfile {
        tool: Tool::Scala3,
        name: "scala3",
        aliases: &["scala"],
        executable: "scalac",
        language: Language::Scala3,
        extension: "scala",
        default_for_language: true,
        install: Install::Maven(MavenCompiler {
            group: "org.scala-lang",
            artifact: "scala3-compiler_3",
            runtime: &["scala-library", "scala3-library_3"],
        }),
        versions: VersionRules::LATEST_STABLE,
        main_class: "dotty.tools.dotc.Main",
        // the compiler's own classpath holds the Scala library
        launch: Launch::Jvm {
            prefix: &["-usejavacp"],
            runtime_on_classpath: false,
        },
        flags: Flags {
            leading: &[],
            classpath: "-classpath",
            trailing: &["-color:never", "-nowarn"],
            output: OutputFlag::Separate("-d"),
            no_color: Some("-color:never"),
        },
        server_entry: ServerEntry::ScalaProcess,
        run_plan: RunPlan::Together,
        server_jvm_flags: &[],
        diagnostics: DiagnosticFormat::Boxed,
        crash_exit: 2,
        crash_phrases: &["An unhandled exception was thrown in the compiler"],
    },
    CompilerProfile {
        tool: Tool::Scala2,
        name: "scala2",
        aliases: &["scala2.13"],
        executable: "scalac",
        language: Language::Scala2,
        extension: "scala",
        default_for_language: true,
        install: Install::Maven(MavenCompiler {
            group: "org.scala-lang",
            artifact: "scala-compiler",
            runtime: &["scala-library"],
        }),
        // the latest 2.13 release: thalia's Scala 2 is 2.13
        versions: VersionRules {
            unstable_markers: &UNSTABLE_MARKERS,
            default_series: Some("2.13."),
        },
        main_class: "scala.tools.nsc.Main",
        launch: Launch::Jvm {
            prefix: &["-usejavacp"],
            runtime_on_classpath: false,
        },
        flags: Flags {
            leading: &[],
            classpath: "-classpath",
            trailing: &["-nowarn"],
            output: OutputFlag::Separate("-d"),
            no_color: None,
        },
        server_entry: ServerEntry::ScalaProcess,
        run_plan: RunPlan::Together,
        server_jvm_flags: &[],
        diagnostics: DiagnosticFormat::Colon {
            unlocated: false,
            continued: true,
            square_type_arguments: true,
        },
        crash_exit: 2,
        crash_phrases: &["## Exception when compiling"],
    },
    CompilerProfile {
        tool: Tool::Groovy,
        name: "groovy",
        aliases: &["groovyc"],
        executable: "groovyc",
        language: Language::Groovy,
        extension: "groovy",
        default_for_language: true,
        install: Install::Maven(MavenCompiler {
            group: "org.apache.groovy",
            artifact: "groovy",
            runtime: &["groovy"],
        }),
        versions: VersionRules::LATEST_STABLE,
        main_class: "org.codehaus.groovy.tools.FileSystemCompiler",
        launch: Launch::Jvm {
            prefix: &[],
            runtime_on_classpath: false,
        },
        flags: Flags {
            leading: &[],
            classpath: "-cp",
            trailing: &["--encoding=UTF-8"],
            output: OutputFlag::Joined("-d="),
            no_color: None,
        },
        server_entry: ServerEntry::GroovyCommandLine,
        run_plan: RunPlan::Apart,
        server_jvm_flags: &[],
        diagnostics: DiagnosticFormat::Groovy,
        crash_exit: 2,
        crash_phrases: &[
            "General error during",
            "a serious error occurred",
            "BUG! exception",
        ],
    },
    CompilerProfile {
        tool: Tool::Javac,
        name: "javac",
        aliases: &["java"],
        executable: "javac",
        language: Language::Java,
        extension: "java",
        default_for_language: true,
        install: Install::Jdk {
            executable: "javac",
        },
        versions: VersionRules::LATEST_STABLE,
        main_class: "com.sun.tools.javac.Main",
        launch: Launch::JdkExecutable,
        flags: Flags {
            leading: &[
                "-J-Duser.language=en",
                "-Xmaxerrs",
                "100000",
                "-nowarn",
                "-proc:none",
            ],
            classpath: "-cp",
            trailing: &[],
            output: OutputFlag::Separate("-d"),
            no_color: None,
        },
        server_entry: ServerEntry::SystemJavaCompiler,
        run_plan: RunPlan::Together,
        server_jvm_flags: &[],
        diagnostics: DiagnosticFormat::Colon {
            unlocated: false,
            continued: false,
            square_type_arguments: false,
        },
        // 3: system error, 4: abnormal end (2 is a bad command line)
        crash_exit: 3,
        crash_phrases: &["An exception has occurred in the compiler"],
    },
];

impl CompilerProfile {
    /// Every profile.
    pub fn all() -> &'static [CompilerProfile] {
        &PROFILES
    }

    /// The profile named `name` or one of its aliases.
    pub fn by_name(name: &str) -> Option<&'static CompilerProfile> {
        PROFILES
            .iter()
            .find(|p| p.name == name || p.aliases.contains(&name))
    }

    /// The compiler used for `lang` when none is named.
    pub fn for_language(lang: Language) -> Option<&'static CompilerProfile> {
        PROFILES
            .iter()
            .find(|p| p.language == lang && p.default_for_language)
    }

    /// The names of every compiler, comma-separated (for messages).
    pub fn known_names() -> String {
        PROFILES
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The compiler's arguments for compiling `files` into `out` against `classpath` (an
    /// empty classpath is none); the toolchain adds its own classpath and runtime.
    pub fn args(&self, classpath: Option<&str>, out: &Path, files: &[PathBuf]) -> Vec<String> {
        let mut args: Vec<String> = self.flags.leading.iter().map(|f| f.to_string()).collect();
        if let Some(cp) = classpath.filter(|c| !c.is_empty()) {
            args.extend([self.flags.classpath.to_string(), cp.to_string()]);
        }
        args.extend(self.flags.trailing.iter().map(|f| f.to_string()));
        match self.flags.output {
            OutputFlag::Separate(flag) => {
                args.extend([flag.to_string(), out.display().to_string()]);
            }
            OutputFlag::Joined(flag) => args.push(format!("{flag}{}", out.display())),
        }
        args.extend(files.iter().map(|f| f.display().to_string()));
        args
    }

    /// Whether process mode runs the compiler through the one-shot driver (its own JVM,
    /// judging the batch by the [`RunPlan`]) rather than its command line: for compilers
    /// launched on the JVM, and for javac through the JDK's in-process compiler (when the
    /// toolchain's executable has the JDK's `java` beside it).
    pub fn drives_processes(&self) -> bool {
        matches!(self.launch, Launch::Jvm { .. })
            || self.server_entry == ServerEntry::SystemJavaCompiler
    }

    /// True when the compiler is taken from the running JDK (nothing to download).
    pub fn from_jdk(&self) -> bool {
        matches!(self.install, Install::Jdk { .. })
    }

    /// True when `code` is an exit code of an internal error rather than a verdict.
    pub fn is_crash_exit(&self, code: i32) -> bool {
        code >= self.crash_exit
    }

    /// True when `output` holds one of the phrases this compiler (or any) prints on an
    /// internal error.
    pub fn has_crash_phrase(&self, output: &str) -> bool {
        COMMON_CRASH_PHRASES
            .iter()
            .chain(self.crash_phrases)
            .any(|m| output.contains(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn profiles_are_in_tool_order() {
        assert_eq!(PROFILES.len(), Tool::ALL.len());
        for (p, t) in PROFILES.iter().zip(Tool::ALL) {
            assert_eq!(p.tool, t);
            assert_eq!(t.profile().tool, t);
        }
    }

    #[test]
    fn names_and_aliases_are_unique_and_resolve_to_their_compiler() {
        let mut seen = BTreeSet::new();
        for p in &PROFILES {
            for n in std::iter::once(&p.name).chain(p.aliases) {
                assert!(seen.insert(*n), "`{n}` names two compilers");
                assert_eq!(Tool::from_name(n), Some(p.tool), "{n}");
            }
            assert_eq!(p.tool.name(), p.name);
        }
        assert_eq!(Tool::from_name("scalac"), None);
        assert_eq!(
            CompilerProfile::known_names(),
            "kotlin, scala3, scala2, groovy, javac"
        );
    }

    #[test]
    fn every_language_has_one_default_compiler_with_its_extension() {
        for lang in Language::ALL {
            let defaults: Vec<_> = PROFILES
                .iter()
                .filter(|p| p.language == lang && p.default_for_language)
                .collect();
            assert_eq!(defaults.len(), 1, "{lang:?}");
            assert_eq!(
                CompilerProfile::for_language(lang).map(|p| p.tool),
                Some(defaults[0].tool)
            );
        }
        for p in &PROFILES {
            assert_eq!(p.extension, p.language.extension(), "{}", p.name);
        }
    }

    #[test]
    fn every_profile_is_complete() {
        for p in &PROFILES {
            assert!(
                !p.executable.is_empty() && !p.main_class.is_empty(),
                "{}",
                p.name
            );
            assert!(p.main_class.contains('.'), "{}", p.main_class);
            assert!(p.flags.classpath.starts_with('-'), "{}", p.name);
            match p.install {
                Install::Maven(MavenCompiler {
                    group,
                    artifact,
                    runtime,
                }) => {
                    assert!(!group.is_empty() && !artifact.is_empty(), "{}", p.name);
                    assert!(!runtime.is_empty(), "{}: no runtime library", p.name);
                    // a JVM launch: the compiler jars come from Maven
                    assert!(matches!(p.launch, Launch::Jvm { .. }), "{}", p.name);
                }
                Install::Jdk { executable } => {
                    assert!(!executable.is_empty());
                    assert_eq!(p.launch, Launch::JdkExecutable, "{}", p.name);
                }
            }
            // the server's 3 (a Throwable escaped) is a crash of every compiler; 1 (errors
            // in the program) never is
            assert!(p.is_crash_exit(3) && !p.is_crash_exit(1), "{}", p.name);
            assert!(p.versions.is_stable("2.1.0"), "{}", p.name);
            assert!(!p.versions.is_stable("2.1.0-RC1"), "{}", p.name);
            assert!(!p.versions.is_stable("3.0.0-SNAPSHOT"), "{}", p.name);
            for phrase in p.crash_phrases.iter().chain(&COMMON_CRASH_PHRASES) {
                assert!(phrase.contains(' '), "{phrase}");
            }
        }
        let entries: BTreeSet<_> = PROFILES.iter().map(|p| p.server_entry.name()).collect();
        assert_eq!(entries.len(), 4);
    }

    #[test]
    fn version_rules_pick_exact_prefix_or_newest_stable() {
        let available: Vec<String> = [
            "2.12.20",
            "2.13.9",
            "2.13.16",
            "2.13.17-RC1",
            "3.7.0",
            "3.8.0-M1",
        ]
        .map(String::from)
        .to_vec();
        let latest = VersionRules::LATEST_STABLE;
        assert_eq!(latest.pick(&available, None), Ok("3.7.0".into()));
        assert_eq!(latest.pick(&available, Some("2.13")), Ok("2.13.16".into()));
        assert_eq!(latest.pick(&available, Some("2.13.")), Ok("2.13.16".into()));
        // asked for exactly, an unstable release is taken
        assert_eq!(
            latest.pick(&available, Some("3.8.0-M1")),
            Ok("3.8.0-M1".into())
        );
        assert_eq!(
            latest.pick(&available, Some("4")),
            Err(VersionMiss::Prefix {
                want: "4".into(),
                nearest: available.clone()
            })
        );
        assert_eq!(latest.pick(&[], None), Err(VersionMiss::NoStable));
        // `2.1` is not a prefix of `2.13.x` at a separator
        assert!(latest.pick(&available, Some("2.1")).is_err());
        // Scala 2's default series
        let scala2 = Tool::Scala2.profile().versions;
        assert_eq!(scala2.pick(&available, None), Ok("2.13.16".into()));
        assert_eq!(scala2.pick(&available, Some("2.12")), Ok("2.12.20".into()));
        assert!(VersionRules::installed_matches("2.13.16", "2.13"));
        assert!(VersionRules::installed_matches("2.13.16", "2.13.x"));
        assert!(VersionRules::installed_matches("2.13.16", "2.13.16"));
        assert!(!VersionRules::installed_matches("2.130.1", "2.13"));
    }

    #[test]
    fn pre_release_prefixes_match_their_qualified_releases_and_misses_show_the_nearest() {
        let available: Vec<String> = [
            "4.0.10",
            "4.0.11",
            "5.0.0-alpha-1",
            "5.0.0-alpha-2",
            "5.0.0-beta-1",
            "5.0.0",
            "5.0.1",
        ]
        .map(String::from)
        .to_vec();
        let rules = VersionRules::LATEST_STABLE;
        assert_eq!(
            rules.pick(&available, Some("5.0.0-alpha")),
            Ok("5.0.0-alpha-2".into())
        );
        assert_eq!(
            rules.pick(&available, Some("5.0.0-beta")),
            Ok("5.0.0-beta-1".into())
        );
        // a stable prefix still takes stable releases only
        assert_eq!(rules.pick(&available, Some("5")), Ok("5.0.1".into()));
        assert_eq!(rules.pick(&available, Some("5.0.0")), Ok("5.0.0".into()));
        match rules.pick(&available, Some("4.0.12")) {
            Err(VersionMiss::Prefix { want, nearest }) => {
                assert_eq!(want, "4.0.12");
                assert_eq!(nearest, ["4.0.10", "4.0.11"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn diagnostics_name_their_line_in_every_format() {
        let f = DiagnosticFormat::Groovy;
        for (d, line) in [
            ("/w/Test_p1.java:12: error: incompatible types", 12),
            ("/w/Test_p1.kt:7:13: error: type mismatch", 7),
            ("/w/Test_p1.scala:9: error: type mismatch;", 9),
            (
                "-- [E007] Type Mismatch Error: /w/Test_p1.scala:6:29 ---",
                6,
            ),
            (
                "/w/Test_p1.groovy: 8: [Static type checking] - no @ line 8, column 5.",
                8,
            ),
        ] {
            assert_eq!(f.line(d), Some(line), "{d}");
        }
        assert_eq!(f.line("error: unresolved reference"), None);
    }

    /// A real diagnostic of each compiler (with the line after it that is not one), and the
    /// message its format takes out of it.
    const SAMPLES: [(Tool, &str, &str, &str); 5] = [
        (
            Tool::Kotlin,
            "/w/Test_p1.kt:3:9: error: argument type mismatch: actual type is 'String', but 'Int' was expected.",
            "    f(a0)",
            "argument type mismatch: actual type is 'String', but 'Int' was expected.",
        ),
        (
            Tool::Scala3,
            "-- [E007] Type Mismatch Error: /w/Test_p1.scala:3:4 -----------\n3 |  f(a0)\n  |    ^^\n  |    Found:    (a0 : String)\n  |    Required: Int",
            "longer explanation available when compiling with `-explain`",
            "Found:    (a0 : String)",
        ),
        (
            Tool::Scala2,
            "/w/Test_p1.scala:3: error: type mismatch;\n found   : String\n required: Int",
            "  f(a0)",
            "type mismatch; found   : String",
        ),
        (
            Tool::Groovy,
            "/w/Test_p1.groovy: 3: [Static type checking] - Cannot call f(int) with arguments [java.lang.String]\n @ line 3, column 5.",
            "1 error",
            "[Static type checking] - Cannot call f(int) with arguments [java.lang.String]",
        ),
        (
            Tool::Javac,
            "/w/Test_p1.java:3: error: incompatible types: String cannot be converted to int",
            "        f(a0);",
            "incompatible types: String cannot be converted to int",
        ),
    ];

    #[test]
    fn each_compilers_sample_diagnostic_parses() {
        for (tool, diagnostic, other, message) in SAMPLES {
            let p = tool.profile();
            let first = diagnostic.lines().next().unwrap_or_default();
            assert!(p.diagnostics.is_error_line(first), "{}: {first}", p.name);
            assert!(!p.diagnostics.is_error_line(other), "{}: {other}", p.name);
            let m = p.diagnostics.message(diagnostic);
            assert_eq!(m.message, message, "{}", p.name);
            assert_eq!(m.title.is_some(), tool == Tool::Scala3, "{}", p.name);
            // only javac and kotlinc print locations this way, and scalac 2
            let warning = format!("/w/Test_p1.{}:3: warning: unused", p.extension);
            assert!(!p.diagnostics.is_error_line(&warning), "{}", p.name);
        }
        let scala3 = Tool::Scala3.profile().diagnostics.message(SAMPLES[1].1);
        assert_eq!(scala3.title.as_deref(), Some("[E007] Type Mismatch Error"));
        // kotlinc's errors without a location
        let kotlin = Tool::Kotlin.profile().diagnostics;
        assert!(kotlin.is_error_line("error: unresolved reference: Foo"));
        assert!(!Tool::Javac
            .profile()
            .diagnostics
            .is_error_line("error: invalid flag"));
    }
}
