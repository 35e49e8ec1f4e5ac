//! Coverage of the compiler under test with JaCoCo (`thalia batch --coverage`).
//!
//! The JaCoCo agent (`org.jacoco:org.jacoco.agent`, classifier `runtime`) and command-line
//! interface (`org.jacoco:org.jacoco.cli`, classifier `nodeps`) are downloaded through the
//! tool's Maven resolver, as toolchains are. The agent is attached to every JVM of the compiler
//! under test (`-javaagent:` for a compiler run by `java`, `-J-javaagent:` for javac) with
//! `output=file,append=true` and `dumponexit`: each JVM adds its execution data to the cell's
//! `jacoco.exec` when it exits (JaCoCo locks the file), so a cell's data is the union of every
//! compiler run of its campaign, resumed sessions included. Only the classes of the checker's
//! packages (the filters) are instrumented (`includes`). With warm compile servers kept
//! across a batch's cells ([`crate::server::pool`]) the agent is attached once per server
//! without output ([`server_agent_option`]) and each server's data is dumped and reset into a
//! fresh `jacoco-*.exec` of the cell after the cell (and when a server retires), so a cell's
//! data is every `jacoco*.exec` of its directory ([`exec_files`]). Reports are written by the JaCoCo CLI
//! (`report --csv --xml`) against the compiler's class files that match the filters (extracted
//! once from its jars; for javac from the `jdk.compiler` module of the JDK's image with
//! `jimage`), and counted per filter; the XML reports give the covered lines, whose unions
//! make the increments of a mode over the well-typed base.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use thalia_extractors::maven::{Coordinate, RepoConfig, Resolver, ResolverOptions};

use crate::profile::{Launch, Tool};
use crate::toolchain::Toolchain;

/// The JaCoCo release installed.
pub const JACOCO_VERSION: &str = "0.8.15";

/// What can go wrong measuring coverage.
#[derive(Debug, thiserror::Error)]
pub enum CoverageError {
    /// JaCoCo could not be downloaded.
    #[error("cannot install JaCoCo {JACOCO_VERSION}: {0}")]
    Install(String),
    /// A tool could not be run or failed.
    #[error("{tool}: {message}")]
    Tool {
        /// The tool (`jimage`, the JaCoCo CLI).
        tool: String,
        /// What happened.
        message: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A JaCoCo CSV report could not be read.
    #[error("{path}: line {line}: {reason}")]
    Csv {
        /// The report.
        path: PathBuf,
        /// Its 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The installed JaCoCo jars.
#[derive(Clone, Debug)]
pub struct Jacoco {
    /// `org.jacoco.agent-VERSION-runtime.jar`.
    pub agent: PathBuf,
    /// `org.jacoco.cli-VERSION-nodeps.jar`.
    pub cli: PathBuf,
}

/// Downloads the JaCoCo agent and CLI into the Maven cache (once) through the resolver.
pub fn install(repos: &[String], progress: bool) -> Result<Jacoco, CoverageError> {
    let fail = |e: &dyn std::fmt::Display| CoverageError::Install(e.to_string());
    let config = RepoConfig::discover(repos).map_err(|e| fail(&e))?;
    let resolver = Resolver::new(
        config,
        ResolverOptions {
            progress,
            ..ResolverOptions::default()
        },
    )
    .map_err(|e| fail(&e))?;
    let get = |artifact: &str, classifier: &str| -> Result<PathBuf, CoverageError> {
        let coord: Coordinate = format!("org.jacoco:{artifact}:jar:{classifier}:{JACOCO_VERSION}")
            .parse()
            .map_err(|e| fail(&e))?;
        Ok(resolver.download(&coord).map_err(|e| fail(&e))?.jar)
    };
    Ok(Jacoco {
        agent: get("org.jacoco.agent", "runtime")?,
        cli: get("org.jacoco.cli", "nodeps")?,
    })
}

/// The type checker's packages of each compiler, as JaCoCo class-name patterns (`*` any
/// characters): what coverage is counted on unless `--coverage-filter` says otherwise.
pub fn default_filters(tool: Tool) -> Vec<String> {
    let f: &[&str] = match tool {
        Tool::Groovy => &[
            "org.codehaus.groovy.transform.stc*",
            "org.codehaus.groovy.control*",
        ],
        Tool::Kotlin => &[
            "org.jetbrains.kotlin.resolve*",
            "org.jetbrains.kotlin.types*",
            "org.jetbrains.kotlin.fir*",
        ],
        Tool::Scala3 => &["dotty.tools.dotc.typer*", "dotty.tools.dotc.core*"],
        Tool::Scala2 => &["scala.tools.nsc.typechecker*"],
        Tool::Javac => &["com.sun.tools.javac.comp*"],
    };
    f.iter().map(|s| s.to_string()).collect()
}

/// The JVM option that attaches the agent: execution data appended to `exec` at exit, only
/// the classes matching `filters` instrumented.
pub fn agent_option(jacoco: &Jacoco, exec: &Path, filters: &[String]) -> String {
    format!(
        "-javaagent:{}=destfile={},append=true,dumponexit=true,output=file,includes={}",
        jacoco.agent.display(),
        exec.display(),
        filters.join(":")
    )
}

/// The JVM option that attaches the agent to a warm compile server kept across cells: no
/// output of its own (the server dumps the data on request, `CompileServer::dump_coverage`),
/// only the classes matching `filters` instrumented.
pub fn server_agent_option(jacoco: &Jacoco, filters: &[String]) -> String {
    format!(
        "-javaagent:{}=output=none,dumponexit=false,includes={}",
        jacoco.agent.display(),
        filters.join(":")
    )
}

/// A cell's execution data files: `jacoco.exec` (the compiler processes') and the
/// `jacoco-*.exec` dumped by warm servers, in name order.
pub fn exec_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("jacoco") && n.ends_with(".exec"))
        })
        .collect();
    v.sort();
    v
}

/// One class's probes in a JaCoCo execution data file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ClassProbes {
    id: u64,
    name: String,
    probes: Vec<bool>,
}

/// The parts of a JaCoCo execution data file (format 0x1007): its sessions, kept as
/// written, and its classes.
#[derive(Debug, Default)]
struct ExecData {
    sessions: Vec<Vec<u8>>,
    classes: Vec<ClassProbes>,
}

const EXEC_HEADER: u8 = 0x01;
const EXEC_SESSION: u8 = 0x10;
const EXEC_CLASS: u8 = 0x11;
const EXEC_MAGIC: u16 = 0xC0C0;
const EXEC_VERSION: u16 = 0x1007;

/// A reader of JaCoCo's compact data output.
struct ExecReader<'a> {
    b: &'a [u8],
    i: usize,
}

impl ExecReader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.i.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(|| format!("cut at byte {}", self.i))?;
        let s = &self.b[self.i..end];
        self.i = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let s = self.take(2)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_be_bytes(a))
    }
    /// Java's `writeUTF`: a 2-byte length and modified UTF-8 (class names are ASCII-like).
    fn utf(&mut self) -> Result<String, String> {
        let n = self.u16()? as usize;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
    fn var_int(&mut self) -> Result<usize, String> {
        let (mut v, mut shift) = (0usize, 0u32);
        loop {
            let b = self.u8()?;
            if shift > 28 {
                return Err(format!("bad length at byte {}", self.i));
            }
            v |= ((b & 0x7F) as usize) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }
    fn probes(&mut self) -> Result<Vec<bool>, String> {
        let n = self.var_int()?;
        let bytes = self.take(n.div_ceil(8))?;
        Ok((0..n).map(|k| bytes[k / 8] & (1 << (k % 8)) != 0).collect())
    }
}

/// Reads a JaCoCo execution data file's bytes.
fn read_exec(bytes: &[u8]) -> Result<ExecData, String> {
    let mut r = ExecReader { b: bytes, i: 0 };
    let mut data = ExecData::default();
    while r.i < bytes.len() {
        let at = r.i;
        match r.u8()? {
            EXEC_HEADER => {
                let (magic, version) = (r.u16()?, r.u16()?);
                if magic != EXEC_MAGIC || version != EXEC_VERSION {
                    return Err(format!(
                        "not JaCoCo execution data of format {EXEC_VERSION:#x} \
                         (magic {magic:#x}, version {version:#x})"
                    ));
                }
            }
            EXEC_SESSION => {
                r.utf()?;
                r.u64()?;
                r.u64()?;
                data.sessions.push(bytes[at..r.i].to_vec());
            }
            EXEC_CLASS => {
                let id = r.u64()?;
                let name = r.utf()?;
                let probes = r.probes()?;
                data.classes.push(ClassProbes { id, name, probes });
            }
            other => return Err(format!("unknown block {other:#x} at byte {at}")),
        }
    }
    Ok(data)
}

/// Writes execution data in JaCoCo's format (classes without a hit left out, as JaCoCo does).
fn write_exec(data: &ExecData) -> Vec<u8> {
    let mut out = vec![EXEC_HEADER];
    out.extend(EXEC_MAGIC.to_be_bytes());
    out.extend(EXEC_VERSION.to_be_bytes());
    for s in &data.sessions {
        out.extend(s);
    }
    for c in data.classes.iter().filter(|c| c.probes.contains(&true)) {
        out.push(EXEC_CLASS);
        out.extend(c.id.to_be_bytes());
        let name = c.name.as_bytes();
        out.extend((name.len().min(u16::MAX as usize) as u16).to_be_bytes());
        out.extend(&name[..name.len().min(u16::MAX as usize)]);
        let mut n = c.probes.len();
        while n >= 0x80 {
            out.push(0x80 | (n & 0x7F) as u8);
            n >>= 7;
        }
        out.push(n as u8);
        for chunk in c.probes.chunks(8) {
            let byte = chunk
                .iter()
                .enumerate()
                .fold(0u8, |b, (k, &hit)| b | (u8::from(hit) << k));
            out.push(byte);
        }
    }
    out
}

/// The probes hit in the execution data `first` and not in `second` (both JaCoCo execution
/// data of one JVM): what a JVM ran in a first compilation and not in the same compilation
/// repeated, i.e. the code it runs once (static initializers, first-use set-up). Keeps
/// `first`'s sessions.
pub fn exec_difference(first: &[u8], second: &[u8]) -> Result<Vec<u8>, String> {
    let (mut a, b) = (read_exec(first)?, read_exec(second)?);
    let again: BTreeMap<(u64, &str), &Vec<bool>> = b
        .classes
        .iter()
        .map(|c| ((c.id, c.name.as_str()), &c.probes))
        .collect();
    for c in &mut a.classes {
        if let Some(p) = again.get(&(c.id, c.name.as_str())) {
            for (hit, &twice) in c.probes.iter_mut().zip(p.iter()) {
                *hit = *hit && !twice;
            }
        }
    }
    Ok(write_exec(&a))
}

/// Whether a class name matches a JaCoCo pattern (`*` any characters, `?` one).
pub fn matches(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // iterative wildcard matching with backtracking to the last `*`
    let (mut i, mut j, mut star, mut mark) = (0usize, 0usize, None::<usize>, 0usize);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

/// The java executable beside a toolchain's (javac's sibling for the JDK's tools).
fn java_of(tc: &Toolchain) -> PathBuf {
    let real = std::fs::canonicalize(&tc.java).unwrap_or_else(|_| tc.java.clone());
    if tc.tool.profile().launch == Launch::JdkExecutable {
        real.with_file_name("java")
    } else {
        real
    }
}

/// Runs a JDK tool, naming it in errors.
fn run_tool(cmd: &mut Command, tool: &str) -> Result<(), CoverageError> {
    let o = cmd.output().map_err(|e| CoverageError::Tool {
        tool: tool.into(),
        message: e.to_string(),
    })?;
    if !o.status.success() {
        return Err(CoverageError::Tool {
            tool: tool.into(),
            message: String::from_utf8_lossy(&o.stderr).into_owned(),
        });
    }
    Ok(())
}

/// Hard-links (or copies) the class files under `from` whose class name matches a filter
/// into `to`, keeping their paths; returns how many.
fn filter_tree(from: &Path, to: &Path, filters: &[String]) -> Result<usize, CoverageError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CoverageError::Io { path, source }
    };
    let mut n = 0;
    let mut stack = vec![from.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(io(&dir))? {
            let path = entry.map_err(io(&dir))?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(rel) = path.strip_prefix(from) else {
                continue;
            };
            let rel_s = rel.to_string_lossy();
            let Some(stem) = rel_s.strip_suffix(".class") else {
                continue;
            };
            let name = stem.replace(['/', '\\'], ".");
            if !filters.iter().any(|f| matches(f, &name)) {
                continue;
            }
            let dest = to.join(rel);
            if let Some(parent) = dest.parent() {
                std::fs::create_dir_all(parent).map_err(io(parent))?;
            }
            if !dest.exists() && std::fs::hard_link(&path, &dest).is_err() {
                std::fs::copy(&path, &dest).map_err(io(&dest))?;
            }
            n += 1;
        }
    }
    Ok(n)
}

/// The class files of the compiler under test that match `filters`, for the reports (so that
/// they hold the checker alone): extracted once into `scratch` from its jars, or for javac
/// from the `jdk.compiler` module of the JDK's image (`jimage`).
pub fn class_files(
    tc: &Toolchain,
    filters: &[String],
    scratch: &Path,
) -> Result<Vec<PathBuf>, CoverageError> {
    let key = crate::hash::fnv1a64(
        format!("{}@{}:{}", tc.tool.name(), tc.version, filters.join(":")).as_bytes(),
    );
    let out = scratch.join(format!("{key:016x}"));
    let done = scratch.join(format!("{key:016x}.done"));
    if done.exists() {
        return Ok(vec![out]);
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CoverageError::Io { path, source }
    };
    let tmp = scratch.join(format!("extract-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(io(&tmp))?;
    let java = java_of(tc);
    let bin = java.parent().map(Path::to_path_buf).unwrap_or_default();
    let roots: Vec<PathBuf> = if tc.tool.profile().launch == Launch::JdkExecutable {
        let modules = bin
            .parent()
            .map(|home| home.join("lib").join("modules"))
            .unwrap_or_default();
        run_tool(
            Command::new(bin.join("jimage"))
                .arg("extract")
                .arg("--include")
                .arg("regex:/jdk.compiler/.*")
                .arg("--dir")
                .arg(&tmp)
                .arg(&modules),
            "jimage",
        )?;
        vec![tmp.join("jdk.compiler")]
    } else {
        let mut roots = Vec::new();
        for (i, jar) in tc.classpath.iter().enumerate() {
            let d = tmp.join(i.to_string());
            std::fs::create_dir_all(&d).map_err(io(&d))?;
            run_tool(
                Command::new(bin.join("jar"))
                    .arg("xf")
                    .arg(jar)
                    .current_dir(&d),
                "jar",
            )?;
            roots.push(d);
        }
        roots
    };
    let staged = scratch.join(format!("{key:016x}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staged);
    std::fs::create_dir_all(&staged).map_err(io(&staged))?;
    let mut n = 0;
    for r in &roots {
        n += filter_tree(r, &staged, filters)?;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    if n == 0 {
        return Err(CoverageError::Tool {
            tool: tc.tool.name().into(),
            message: format!(
                "no class of the compiler matches the coverage filters {}",
                filters.join(", ")
            ),
        });
    }
    let _ = std::fs::remove_dir_all(&out);
    std::fs::rename(&staged, &out).map_err(io(&out))?;
    std::fs::write(&done, b"").map_err(io(&done))?;
    Ok(vec![out])
}

/// The covered lines of a JaCoCo XML report (`(package/sourcefile, line)`) and how many
/// lines it has in all.
pub fn xml_lines(xml: &str) -> (std::collections::BTreeSet<(String, u32)>, u64) {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let at = tag.find(&key)? + key.len();
        let end = tag[at..].find('"')?;
        Some(tag[at..at + end].to_string())
    };
    let (mut package, mut source) = (String::new(), String::new());
    let mut covered = std::collections::BTreeSet::new();
    let mut total = 0;
    for tag in xml.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap_or("");
        if tag.starts_with("package ") {
            package = attr(tag, "name").unwrap_or_default();
        } else if tag.starts_with("sourcefile ") {
            source = attr(tag, "name").unwrap_or_default();
        } else if tag.starts_with("line ") {
            let nr = attr(tag, "nr").and_then(|v| v.parse::<u32>().ok());
            let ci = attr(tag, "ci").and_then(|v| v.parse::<u64>().ok());
            if let (Some(nr), Some(ci)) = (nr, ci) {
                total += 1;
                if ci > 0 {
                    covered.insert((format!("{package}/{source}"), nr));
                }
            }
        }
    }
    (covered, total)
}

/// Lines and branches covered and in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Lines with at least one instruction executed.
    pub lines_covered: u64,
    /// Lines.
    pub lines_total: u64,
    /// Branches taken.
    pub branches_covered: u64,
    /// Branches.
    pub branches_total: u64,
}

impl Counts {
    /// Covered lines in percent (0 when there are none).
    pub fn line_percent(&self) -> f64 {
        if self.lines_total == 0 {
            0.0
        } else {
            100.0 * self.lines_covered as f64 / self.lines_total as f64
        }
    }

    fn add(&mut self, o: &Counts) {
        self.lines_covered += o.lines_covered;
        self.lines_total += o.lines_total;
        self.branches_covered += o.branches_covered;
        self.branches_total += o.branches_total;
    }
}

/// The name of the row counting the classes that match any filter.
pub const ALL: &str = "all";

/// Runs the JaCoCo CLI's `report` on `execs` (absent ones left out) against `classfiles`,
/// writing `out/coverage.csv` and `out/coverage.xml`; returns the counts per filter and `all`.
pub fn report(
    jacoco: &Jacoco,
    tc: &Toolchain,
    execs: &[PathBuf],
    classfiles: &[PathBuf],
    filters: &[String],
    out: &Path,
) -> Result<BTreeMap<String, Counts>, CoverageError> {
    std::fs::create_dir_all(out).map_err(|source| CoverageError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let csv = out.join("coverage.csv");
    let mut cmd = Command::new(java_of(tc));
    cmd.arg("-jar")
        .arg(&jacoco.cli)
        .arg("report")
        .arg("--quiet");
    for e in execs.iter().filter(|e| e.is_file()) {
        cmd.arg(e);
    }
    for c in classfiles {
        cmd.arg("--classfiles").arg(c);
    }
    cmd.arg("--csv")
        .arg(&csv)
        .arg("--xml")
        .arg(out.join("coverage.xml"));
    let o = cmd.output().map_err(|e| CoverageError::Tool {
        tool: "JaCoCo CLI".into(),
        message: e.to_string(),
    })?;
    if !o.status.success() {
        return Err(CoverageError::Tool {
            tool: "JaCoCo CLI".into(),
            message: format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        });
    }
    let text = std::fs::read_to_string(&csv).map_err(|source| CoverageError::Io {
        path: csv.clone(),
        source,
    })?;
    count_csv(&text, filters, &csv)
}

/// Sums a JaCoCo CSV report's rows per filter (and over any filter, `all`).
pub fn count_csv(
    text: &str,
    filters: &[String],
    path: &Path,
) -> Result<BTreeMap<String, Counts>, CoverageError> {
    let mut lines = text.lines().enumerate();
    let bad = |line: usize, reason: String| CoverageError::Csv {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let header: Vec<&str> = match lines.next() {
        Some((_, h)) => h.split(',').collect(),
        None => return Err(bad(1, "empty report".into())),
    };
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| bad(1, format!("no column {name}")))
    };
    let (pkg, class) = (col("PACKAGE")?, col("CLASS")?);
    let (lm, lc, bm, bc) = (
        col("LINE_MISSED")?,
        col("LINE_COVERED")?,
        col("BRANCH_MISSED")?,
        col("BRANCH_COVERED")?,
    );
    let mut out: BTreeMap<String, Counts> = filters
        .iter()
        .map(|f| (f.clone(), Counts::default()))
        .collect();
    out.insert(ALL.into(), Counts::default());
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split(',').collect();
        let num = |c: usize| -> Result<u64, CoverageError> {
            cells
                .get(c)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad(i + 1, format!("column {} is not a count", c + 1)))
        };
        let name = format!(
            "{}.{}",
            cells.get(pkg).copied().unwrap_or(""),
            cells.get(class).copied().unwrap_or("")
        );
        let (missed_l, covered_l, missed_b, covered_b) = (num(lm)?, num(lc)?, num(bm)?, num(bc)?);
        let c = Counts {
            lines_covered: covered_l,
            lines_total: missed_l + covered_l,
            branches_covered: covered_b,
            branches_total: missed_b + covered_b,
        };
        let mut any = false;
        for f in filters {
            if matches(f, &name) {
                any = true;
                if let Some(e) = out.get_mut(f) {
                    e.add(&c);
                }
            }
        }
        if any {
            if let Some(e) = out.get_mut(ALL) {
                e.add(&c);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Execution data as JaCoCo's `ExecutionDataWriter` writes it: a header, a session, and
    /// each class with a hit.
    fn exec(classes: &[(u64, &str, &[bool])]) -> Vec<u8> {
        let mut b = vec![0x01, 0xC0, 0xC0, 0x10, 0x07];
        b.push(0x10);
        b.extend(4u16.to_be_bytes());
        b.extend(b"host");
        b.extend(1u64.to_be_bytes());
        b.extend(2u64.to_be_bytes());
        for (id, name, probes) in classes {
            b.push(0x11);
            b.extend(id.to_be_bytes());
            b.extend((name.len() as u16).to_be_bytes());
            b.extend(name.as_bytes());
            // a var-int length (two bytes from 128 probes on), eight probes a byte
            let n = probes.len();
            if n < 0x80 {
                b.push(n as u8);
            } else {
                b.extend([0x80 | (n & 0x7F) as u8, (n >> 7) as u8]);
            }
            for chunk in probes.chunks(8) {
                b.push(
                    chunk
                        .iter()
                        .enumerate()
                        .fold(0, |x, (k, &p)| x | (u8::from(p) << k)),
                );
            }
        }
        b
    }

    #[test]
    fn execution_data_is_read_and_written_back_byte_for_byte() {
        let long: Vec<bool> = (0..200).map(|k| k % 3 == 0).collect();
        let bytes = exec(&[(7, "a/B", &[true, false, true]), (9, "a/C", &long)]);
        let data = read_exec(&bytes).expect("reads");
        assert_eq!(data.classes.len(), 2);
        assert_eq!(data.classes[1].probes, long);
        assert_eq!(write_exec(&data), bytes);
        // a merged file repeats the header
        let mut twice = bytes.clone();
        twice.extend(&bytes);
        assert_eq!(read_exec(&twice).expect("reads").classes.len(), 4);
        assert!(read_exec(&bytes[..bytes.len() - 1]).is_err());
        assert!(read_exec(b"\x01\xC0\xC0\x10\x06").is_err());
    }

    #[test]
    fn the_difference_keeps_what_only_the_first_run_hit() {
        let first = exec(&[
            (1, "a/Once", &[true, true]),
            (2, "a/Both", &[true, true, false, true]),
        ]);
        let second = exec(&[(2, "a/Both", &[true, false, false, false])]);
        let once = exec_difference(&first, &second).expect("difference");
        assert_eq!(
            once,
            exec(&[
                (1, "a/Once", &[true, true]),
                (2, "a/Both", &[false, true, false, true]),
            ])
        );
        // nothing run once: no class left
        assert_eq!(
            exec_difference(&second, &second).expect("difference"),
            exec(&[])
        );
    }

    #[test]
    fn patterns_match_as_jacoco_does() {
        assert!(matches(
            "com.sun.tools.javac.comp*",
            "com.sun.tools.javac.comp.Attr"
        ));
        assert!(matches("a.?.C*", "a.b.Cx"));
        assert!(!matches(
            "com.sun.tools.javac.comp*",
            "com.sun.tools.javac.code.Type"
        ));
        assert!(matches("*", ""));
    }

    #[test]
    fn xml_reports_give_their_covered_lines() {
        let xml = "<?xml version=\"1.0\"?><report name=\"r\"><package name=\"a/b\"><sourcefile name=\"C.java\">\
                   <line nr=\"3\" mi=\"0\" ci=\"2\" mb=\"0\" cb=\"0\"/><line nr=\"4\" mi=\"1\" ci=\"0\" mb=\"0\" cb=\"0\"/>\
                   </sourcefile></package></report>";
        let (covered, total) = xml_lines(xml);
        assert_eq!(total, 2);
        assert_eq!(
            covered.into_iter().collect::<Vec<_>>(),
            vec![("a/b/C.java".to_string(), 3)]
        );
    }

    #[test]
    fn reports_are_counted_per_filter() {
        let csv = "GROUP,PACKAGE,CLASS,INSTRUCTION_MISSED,INSTRUCTION_COVERED,BRANCH_MISSED,BRANCH_COVERED,LINE_MISSED,LINE_COVERED,COMPLEXITY_MISSED,COMPLEXITY_COVERED,METHOD_MISSED,METHOD_COVERED\n\
                   g,a.b,C,1,2,3,4,5,6,0,0,0,0\ng,a.x,D,1,2,1,1,2,2,0,0,0,0\ng,z,E,1,1,1,1,1,1,0,0,0,0\n";
        let f = vec!["a.b*".to_string(), "a*".to_string()];
        let c = count_csv(csv, &f, Path::new("r.csv")).expect("parses");
        assert_eq!(c["a.b*"].lines_covered, 6);
        assert_eq!(c["a.b*"].lines_total, 11);
        assert_eq!(c["a*"].branches_total, 9);
        assert_eq!(c[ALL].lines_total, 15);
        assert!(count_csv("X\n", &f, Path::new("r.csv")).is_err());
    }
}
