//! Batch compilation with `javac` for integration tests.
//!
//! Used as `crate::support::javac` by the test binaries.
//!
//! [`compile_batch`] compiles many `.java` files in as few javac invocations as possible (javac
//! takes about a second to start, so one JVM for the whole batch is the point) and gives every
//! file its own [`Verdict`]:
//!
//! 1. All files are compiled together. If javac succeeds, every file is accepted.
//! 2. Otherwise each `error:` diagnostic (its header line and the lines after it, up to the
//!    next diagnostic header or javac's `N errors` summary) is attributed to the file whose
//!    path, exactly as given, starts the header; those files are rejected.
//! 3. A file with no diagnostic in a failing batch is not proven accepted (javac stops before
//!    attribution after a syntax error, and before flow analysis after a type error), so the
//!    remaining files are compiled again, together, and step 2 repeats until a compile of the
//!    remaining files succeeds. Every round rejects at least one file, so this ends after at
//!    most `files.len() + 1` calls.
//! 4. If javac fails without any diagnostic attributable to a file of the round (a crash, a bad
//!    option, an error in a file outside the batch), each remaining file is compiled alone; a
//!    failing file then gets every diagnostic of its compile (or the whole output).
//!
//! javac runs with `-J-Duser.language=en -J-Duser.country=US` so that its messages (`error:`,
//! `N errors`) are not localized.

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// javac's verdict on one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The file compiles.
    Accepted,
    /// The file does not compile.
    Rejected {
        /// Each error diagnostic: its header line (`path:line: error: message`) and the lines
        /// that follow it (source excerpt, caret, `symbol:`/`location:` details), joined by
        /// newlines.
        diagnostics: Vec<String>,
    },
}

impl Verdict {
    /// Whether this is [`Verdict::Accepted`].
    pub fn is_accepted(&self) -> bool {
        matches!(self, Verdict::Accepted)
    }
}

/// The verdicts of one [`compile_batch`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchResult {
    /// Verdict per file, keyed by file name (the last path component, e.g. `Test_p000001.java`).
    pub verdicts: BTreeMap<String, Verdict>,
    /// How many times javac was run.
    pub javac_calls: usize,
}

/// Whether `javac` can be run (checked once per process).
pub fn javac_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        Command::new("javac")
            .arg("-version")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Compiles all `files` (paths to `.java` files) with
/// `javac -d <tmp> -Xmaxerrs 100000 -Xmaxwarns 0 -nowarn -proc:none [-cp classpath]`, in one
/// invocation where possible, and returns a verdict per file (see the module docs for the
/// rounds). Repeated paths count once; two different paths with the same file name are an
/// [`io::ErrorKind::InvalidInput`] error. Fails if javac cannot be started.
pub fn compile_batch(files: &[PathBuf], classpath: Option<&str>) -> io::Result<BatchResult> {
    let mut unique: Vec<&Path> = Vec::with_capacity(files.len());
    let mut names: HashMap<String, &Path> = HashMap::with_capacity(files.len());
    for f in files {
        let name = file_name(f)?;
        match names.get(&name) {
            Some(prev) if *prev == f.as_path() => continue,
            Some(prev) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{} and {} have the same file name",
                        prev.display(),
                        f.display()
                    ),
                ))
            }
            None => {
                names.insert(name, f);
                unique.push(f);
            }
        }
    }

    let out_dir = tempfile::Builder::new().prefix("thalia-javac-").tempdir()?;
    let javac = Javac {
        out_dir: out_dir.path(),
        classpath,
    };
    let mut result = BatchResult {
        verdicts: BTreeMap::new(),
        javac_calls: 0,
    };
    let mut pending = unique;
    // Each round either ends the loop or rejects at least one file.
    let max_rounds = pending.len() + 1;
    for _ in 0..max_rounds {
        if pending.is_empty() {
            break;
        }
        let run = javac.run(&pending, &mut result.javac_calls)?;
        if run.success {
            accept_all(&mut result, &pending)?;
            pending.clear();
            break;
        }
        let mut diags = attribute(&run.output, &pending);
        if diags.iter().all(Vec::is_empty) {
            // Nothing to go on: find out file by file.
            for f in &pending {
                let run = javac.run(&[*f], &mut result.javac_calls)?;
                let verdict = if run.success {
                    Verdict::Accepted
                } else {
                    let diags = attribute(&run.output, &[*f]).swap_remove(0);
                    Verdict::Rejected {
                        diagnostics: if diags.is_empty() {
                            whole_output(&run.output)
                        } else {
                            diags
                        },
                    }
                };
                result.verdicts.insert(file_name(f)?, verdict);
            }
            pending.clear();
            break;
        }
        let mut rest = Vec::with_capacity(pending.len());
        for (f, d) in pending.iter().zip(diags.iter_mut()) {
            if d.is_empty() {
                rest.push(*f);
            } else {
                let diagnostics = std::mem::take(d);
                result
                    .verdicts
                    .insert(file_name(f)?, Verdict::Rejected { diagnostics });
            }
        }
        pending = rest;
    }
    debug_assert!(pending.is_empty(), "the rounds always settle every file");
    Ok(result)
}

/// The javac command line shared by all rounds of a batch.
struct Javac<'a> {
    out_dir: &'a Path,
    classpath: Option<&'a str>,
}

/// One javac run: whether it succeeded, and its stderr followed by its stdout.
struct Run {
    success: bool,
    output: String,
}

impl Javac<'_> {
    fn run(&self, files: &[&Path], calls: &mut usize) -> io::Result<Run> {
        let mut cmd = Command::new("javac");
        cmd.arg("-J-Duser.language=en")
            .arg("-J-Duser.country=US")
            .arg("-d")
            .arg(self.out_dir)
            .args([
                "-Xmaxerrs",
                "100000",
                "-Xmaxwarns",
                "0",
                "-nowarn",
                "-proc:none",
            ]);
        if let Some(cp) = self.classpath {
            cmd.arg("-cp").arg(cp);
        }
        cmd.args(files);
        *calls += 1;
        let out = cmd
            .output()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot run javac: {e}")))?;
        let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
        if !output.is_empty() && !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(&String::from_utf8_lossy(&out.stdout));
        Ok(Run {
            success: out.status.success(),
            output,
        })
    }
}

fn accept_all(result: &mut BatchResult, files: &[&Path]) -> io::Result<()> {
    for f in files {
        result.verdicts.insert(file_name(f)?, Verdict::Accepted);
    }
    Ok(())
}

fn file_name(f: &Path) -> io::Result<String> {
    f.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} has no file name", f.display()),
            )
        })
}

/// What a line of javac's output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// A diagnostic header: `path:line: error: ...`, `path: warning: ...`, `error: ...`,
    /// `Note: ...`; `file` is the index of the batch file it names, if any.
    Header { file: Option<usize>, error: bool },
    /// The final `N errors` / `N warnings` count.
    Summary,
    /// Anything else: the continuation of the current diagnostic, or noise.
    Other,
}

/// The error diagnostics of `output`, per file of `files` (same order).
fn attribute(output: &str, files: &[&Path]) -> Vec<Vec<String>> {
    let by_path: HashMap<String, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.to_string_lossy().into_owned(), i))
        .collect();
    // Fallback for paths javac rewrote (e.g. through a symlink): compare canonical forms.
    let mut canonical: Option<HashMap<PathBuf, usize>> = None;
    let mut lookup = |path: &str| -> Option<usize> {
        if let Some(&i) = by_path.get(path) {
            return Some(i);
        }
        let map = canonical.get_or_insert_with(|| {
            files
                .iter()
                .enumerate()
                .filter_map(|(i, f)| Some((f.canonicalize().ok()?, i)))
                .collect()
        });
        Path::new(path)
            .canonicalize()
            .ok()
            .and_then(|p| map.get(&p).copied())
    };

    let mut diags: Vec<Vec<String>> = vec![Vec::new(); files.len()];
    // The file whose error diagnostic the following lines continue.
    let mut current: Option<usize> = None;
    for line in output.lines() {
        match classify(line, &mut lookup) {
            Line::Header {
                file: Some(i),
                error: true,
            } => {
                diags[i].push(line.to_owned());
                current = Some(i);
            }
            Line::Header { .. } | Line::Summary => current = None,
            Line::Other => {
                if let Some(i) = current {
                    let d = diags[i].last_mut().expect("a header opened the diagnostic");
                    d.push('\n');
                    d.push_str(line);
                }
            }
        }
    }
    diags
}

/// Diagnostic kinds as javac prints them after the position (`error: `, ...).
const KINDS: [(&str, bool); 3] = [("error: ", true), ("warning: ", false), ("Note: ", false)];

fn classify(line: &str, lookup: &mut impl FnMut(&str) -> Option<usize>) -> Line {
    if is_summary(line) {
        return Line::Summary;
    }
    for (kind, error) in KINDS {
        // No position: `error: invalid flag: -x`, `Note: Some input files use ...`.
        if line.starts_with(kind) {
            return Line::Header { file: None, error };
        }
        // `path:line: kind` or, for class files, `path: kind`.
        let sep = format!(": {kind}");
        let Some(at) = line.find(&sep) else {
            continue;
        };
        let prefix = &line[..at];
        let path = match prefix.rsplit_once(':') {
            Some((path, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => path,
            _ => prefix,
        };
        if let Some(i) = lookup(path) {
            return Line::Header {
                file: Some(i),
                error,
            };
        }
        // A file outside the batch; anything else (a source excerpt that happens to contain
        // `: error: `) continues the current diagnostic.
        if path.ends_with(".java") || path.ends_with(".class") || path.ends_with(".jar") {
            return Line::Header { file: None, error };
        }
    }
    Line::Other
}

/// `1 error`, `12 errors`, `3 warnings`.
fn is_summary(line: &str) -> bool {
    let Some((n, what)) = line.split_once(' ') else {
        return false;
    };
    !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && matches!(what, "error" | "errors" | "warning" | "warnings")
}

/// The non-blank lines of `output` (minus the summary), as one diagnostic.
fn whole_output(output: &str) -> Vec<String> {
    let text: Vec<&str> = output
        .lines()
        .filter(|l| !l.trim().is_empty() && !is_summary(l))
        .collect();
    if text.is_empty() {
        vec!["javac failed without output".to_owned()]
    } else {
        vec![text.join("\n")]
    }
}

/// Writes `sources` (path below the source root, text) into `dir/src`, compiles them with
/// javac into `dir/classes` and packs them as `dir/<name>.jar`; panics when a tool fails.
pub fn build_jar(dir: &Path, name: &str, sources: &[(&str, &str)]) -> PathBuf {
    let src = dir.join("src");
    let mut files = Vec::new();
    for (path, text) in sources {
        let p = src.join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("a source directory");
        std::fs::write(&p, text).expect("write a source");
        files.push(p);
    }
    let classes = dir.join("classes");
    let st = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .args(&files)
        .status()
        .expect("javac runs");
    assert!(st.success(), "javac failed");
    let jar = dir.join(format!("{name}.jar"));
    let st = Command::new("jar")
        .arg("cf")
        .arg(&jar)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .expect("jar runs");
    assert!(st.success(), "jar failed");
    jar
}

/// [`build_jar`], then the jar's API extracted with `thalia extract` into `dir/api`: the jar
/// and the API directory.
pub fn library(dir: &Path, name: &str, sources: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let jar = build_jar(dir, name, sources);
    let api = dir.join("api");
    assert_cmd::Command::cargo_bin("thalia")
        .expect("the thalia binary")
        .arg("extract")
        .arg(&jar)
        .arg("-o")
        .arg(&api)
        .assert()
        .success();
    (jar, api)
}
