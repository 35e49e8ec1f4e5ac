//! The Scala view of jars: API JSON read from the compiled library by the Scala 3 compiler.
//!
//! The compiler ([`SCALA3_COMPILER`], the pinned `scala3@3.9.0`, resolved with its
//! dependencies through thalia's Maven resolver) runs a small helper,
//! `ScalaSignatureDump.scala` (embedded here, compiled with that compiler on first use into
//! `<cache dir>/thalia/scala-signatures/<content hash>/`). The helper sets up a compiler
//! context with the inputs (then `--classpath` jars, then the Scala library) on its class
//! path, looks up every top-level class and object of the inputs and walks their symbols:
//! the compiler's unpicklers read TASTy (Scala 3) and Scala 2 pickles (`ScalaSignature`)
//! alike, so one path serves both. It prints one JSON line per class with its declaration and
//! members as Scala signature text (a class name fully qualified between two U+0001), one per
//! problem, and one per top-level name it read as Scala.
//!
//! This module turns those signatures into documents with the Scaladoc reader's own code
//! (`docs::scala_text`: `build`, `build_member`, `merge_companions`), so that the
//! compiled view and the Scaladoc view of one library follow the same conventions and
//! `thalia api diff` compares them member by member. Extension methods (Scala 3) get their
//! receiver in `receiver` and `is_static: true`, as Kotlin's extensions do. Top-level
//! definitions of a package (`File$package`) go into a document named after the package
//! (`scala_object: true`).
//!
//! Merged with the Java view ([`crate::bytecode`]) of the same inputs: the Java documents
//! of classes read as Scala are replaced; Java classes of a mixed jar keep their Java
//! document, and so do the classes of a top-level name the compiler could not read (a
//! corrupt or too new `.tasty`, a broken pickle): that is an [`ExtractProblem`] naming the
//! class, and the extraction goes on.
//!
//! Limits: only the members a class declares are listed (inherited ones are resolved by the
//! loader through the supertypes); type aliases are written as their expansion
//! (`scala.Predef.String` → `java.lang.String`, `scala.List` →
//! `scala.collection.immutable.List`); `A | Null` (explicit nulls) is written `A`; refinements
//! and annotations of types are dropped; a
//! literal type is written as its widened type; a nested class whose Scala view fails loses
//! its document (the problem names it).

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::bytecode::{self, ExtractOptions, ExtractProblem, Extraction};
use crate::docs::scala_text::{self, SKind, SMember, SPage, STok};
use crate::jvm_helper;
use crate::maven::MavenError;
use crate::schema::ClassDoc;

/// The compiler the helper runs on (thalia's pinned `scala3@3.9.0`).
pub const SCALA3_COMPILER: &str = "org.scala-lang:scala3-compiler_3:3.9.0";

/// The helper's source (compiled on first use).
pub const HELPER_SOURCE: &str = include_str!("ScalaSignatureDump.scala");

/// The helper's main class.
const HELPER_CLASS: &str = "ScalaSignatureDump";

/// Marks a fully-qualified class name in the helper's signatures.
const MARK: char = '\u{1}';

/// A failure that stops a Scala extraction (a bad class never does: it is a problem).
#[derive(Debug, thiserror::Error)]
pub enum ScalaError {
    /// No JDK was found.
    #[error("cannot find a JDK for the Scala-signature helper: set JAVA_HOME")]
    NoJdk,
    /// The JDK lacks `java`.
    #[error("{java_home}: no `java` in this JDK's bin/")]
    NoJava {
        /// The JDK's home.
        java_home: PathBuf,
    },
    /// The compiler could not be resolved or downloaded.
    #[error("cannot get {SCALA3_COMPILER} for the Scala-signature helper: {0}")]
    Resolve(#[from] MavenError),
    /// The helper did not compile.
    #[error("cannot build the Scala-signature helper: {0}")]
    Build(String),
    /// The helper failed as a whole.
    #[error("the Scala-signature helper failed ({status}): {stderr}")]
    Helper {
        /// Its exit status.
        status: String,
        /// The end of what it printed on stderr.
        stderr: String,
    },
    /// The Java-view extraction failed.
    #[error(transparent)]
    Extract(#[from] bytecode::ExtractError),
}

impl From<jvm_helper::HelperError> for ScalaError {
    fn from(e: jvm_helper::HelperError) -> Self {
        match e {
            jvm_helper::HelperError::Resolve(e) => ScalaError::Resolve(e),
            jvm_helper::HelperError::Build(m) => ScalaError::Build(m),
            jvm_helper::HelperError::Run { status, stderr } => {
                ScalaError::Helper { status, stderr }
            }
        }
    }
}

/// How to run a Scala extraction.
#[derive(Clone, Debug, Default)]
pub struct ScalaOptions {
    /// Repositories for resolving the compiler (`--repo`; empty: the user's configuration).
    pub repos: Vec<String>,
    /// The JDK running the helper (`None`: `JAVA_HOME`, else the `java` on the `PATH`).
    pub java_home: Option<PathBuf>,
    /// Jars the inputs depend on (on the compiler's class path after the inputs).
    pub classpath: Vec<PathBuf>,
    /// Options of the Java-view extraction of the same inputs.
    pub extract: ExtractOptions,
}

/// Counts of a Scala extraction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScalaStats {
    /// Top-level names read as Scala.
    pub scala_tops: usize,
    /// Scala documents written (after companions are merged).
    pub classes: usize,
    /// Java documents kept (Java classes, or classes whose Scala view failed).
    pub java_classes: usize,
    /// Methods (constructors and extensions included).
    pub methods: usize,
    /// Constructors.
    pub constructors: usize,
    /// Fields (vals, vars, parameterless defs).
    pub fields: usize,
    /// Extension methods.
    pub extensions: usize,
    /// Members whose signature could not be read (left out).
    pub skipped_members: usize,
    /// Wall-clock time of the helper.
    pub helper_time: Duration,
}

/// One line of the helper's output.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Class(Box<ClassLine>),
    Scala(ScalaLine),
    Problem(ProblemLine),
    Stats(serde::de::IgnoredAny),
}

#[derive(Debug, Deserialize)]
struct ClassLine {
    jvm: String,
    fqn: String,
    kind: String,
    modifiers: Vec<String>,
    sig: String,
    deprecated: bool,
    /// Scala 3's `@experimental` (absent from an older helper's lines).
    #[serde(default)]
    experimental: bool,
    members: Vec<MemberLine>,
}

#[derive(Debug, Deserialize)]
struct MemberLine {
    kind: String,
    modifiers: Vec<String>,
    sig: String,
    #[serde(rename = "abstract")]
    is_abstract: bool,
    protected: bool,
    deprecated: bool,
    /// Scala 3's `@experimental`.
    #[serde(default)]
    experimental: bool,
    receiver: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ScalaLine {
    top: String,
}

#[derive(Debug, Deserialize)]
struct ProblemLine {
    top: String,
    name: String,
    source: String,
    reason: String,
}

/// What the helper printed, parsed.
#[derive(Debug, Default)]
pub struct HelperOutput {
    classes: Vec<ClassLine>,
    /// Top-level names read as Scala.
    tops: HashSet<String>,
    /// Top-level names whose Scala view failed as a whole.
    failed_tops: HashSet<String>,
    /// Classes (or members) the helper could not read, and why.
    pub problems: Vec<ExtractProblem>,
    elapsed: Duration,
}

impl HelperOutput {
    fn take(&mut self, n: usize, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Class(c)) => self.classes.push(*c),
            Ok(Line::Scala(s)) => {
                self.tops.insert(s.top);
            }
            Ok(Line::Problem(p)) => {
                if p.name == p.top {
                    self.failed_tops.insert(p.top.clone());
                }
                self.problems.push(ExtractProblem {
                    jar: PathBuf::from(p.source),
                    entry: p.name,
                    reason: format!("no Scala view: {}", p.reason),
                });
            }
            Ok(Line::Stats(_)) => {}
            Err(e) => self.problems.push(ExtractProblem {
                jar: PathBuf::from("<scala-signature helper>"),
                entry: format!("output line {n}"),
                reason: format!("unreadable: {e}"),
            }),
        }
    }
}

/// A built helper, ready to run.
#[derive(Clone, Debug)]
pub struct Helper {
    java: PathBuf,
    /// The helper's own class path (its classes, the compiler's jars).
    classpath: Vec<PathBuf>,
    /// The Scala library jars put after the inputs on the compiler's class path.
    library: Vec<PathBuf>,
}

impl Helper {
    /// Resolves the compiler, finds the JDK and compiles the helper if it is not cached.
    pub fn prepare(opts: &ScalaOptions) -> Result<Helper, ScalaError> {
        let home = opts
            .java_home
            .clone()
            .or_else(bytecode::find_java_home)
            .ok_or(ScalaError::NoJdk)?;
        let java = home.join("bin").join("java");
        if !java.is_file() {
            return Err(ScalaError::NoJava { java_home: home });
        }
        let jars = compiler_classpath(&opts.repos)?;
        let dir = build(&java, &jars)?;
        let library = jars
            .iter()
            .filter(|j| {
                let n = j.file_name().unwrap_or_default().to_string_lossy();
                n.starts_with("scala-library-") || n.starts_with("scala3-library_3-")
            })
            .cloned()
            .collect();
        let mut classpath = vec![dir];
        classpath.extend(jars);
        Ok(Helper {
            java,
            classpath,
            library,
        })
    }

    /// Runs the helper on jars or class directories, with `deps` on the class path.
    pub fn run(&self, inputs: &[&Path], deps: &[PathBuf]) -> Result<HelperOutput, ScalaError> {
        let start = Instant::now();
        let lib_cp = std::env::join_paths(deps.iter().chain(&self.library))
            .map_err(|e| ScalaError::Build(format!("classpath: {e}")))?;
        let mut args: Vec<OsString> = vec!["--classpath".into(), lib_cp];
        args.extend(inputs.iter().map(|p| p.as_os_str().to_owned()));
        let mut out = HelperOutput::default();
        jvm_helper::run_lines(
            &self.java,
            &self.classpath,
            HELPER_CLASS,
            &args,
            |n, line| out.take(n, line),
        )?;
        out.elapsed = start.elapsed();
        Ok(out)
    }
}

/// The compiler's jars (with the Scala library), resolved and downloaded into the Maven cache.
pub fn compiler_classpath(repos: &[String]) -> Result<Vec<PathBuf>, ScalaError> {
    Ok(jvm_helper::artifact_classpath(repos, SCALA3_COMPILER)?)
}

/// Compiles the helper with the Scala 3 compiler (once per source and jar set).
fn build(java: &Path, jars: &[PathBuf]) -> Result<PathBuf, ScalaError> {
    let root = jvm_helper::cache_root("THALIA_SCALA_HELPER_DIR", "scala-signatures");
    let source = jvm_helper::HelperSource {
        text: HELPER_SOURCE,
        class: HELPER_CLASS,
        extension: "scala",
        compiler: "scalac",
    };
    Ok(jvm_helper::build_once(
        &root,
        &source,
        jars,
        |out, src, cp| {
            Command::new(java)
                .arg("-cp")
                .arg(cp)
                .arg("dotty.tools.dotc.Main")
                .args(["-color:never", "-nowarn", "-classpath"])
                .arg(cp)
                .arg("-d")
                .arg(out)
                .arg(src)
                .output()
        },
    )?)
}

/// True when some class of `paths` carries Scala signatures: a `.tasty` file, or a class
/// file with a `ScalaSig` attribute (Scala 2). Unreadable inputs answer false.
pub fn has_scala(paths: &[&Path]) -> bool {
    paths.iter().any(|p| has_scala_one(p))
}

fn is_scala_class(bytes: &[u8]) -> bool {
    bytes.windows(8).any(|w| w == b"ScalaSig")
}

fn has_scala_one(path: &Path) -> bool {
    use crate::files::{open_regular, read_regular};
    use bytecode::class::MAX_CLASS_FILE_BYTES;
    if path.is_dir() {
        // symbolic links to directories are not followed (a link to an ancestor would loop);
        // special files are not read (`read_dir` of the bytecode extractor reports them)
        for e in walkdir::WalkDir::new(path).into_iter().flatten() {
            let p = e.path();
            if e.file_type().is_dir() {
                continue;
            }
            if p.extension().is_some_and(|x| x == "tasty")
                || (p.extension().is_some_and(|x| x == "class")
                    && read_regular(p, MAX_CLASS_FILE_BYTES, "MAX_CLASS_FILE_BYTES")
                        .is_ok_and(|b| is_scala_class(&b)))
            {
                return true;
            }
        }
        return false;
    }
    let Ok((f, _)) = open_regular(path) else {
        return false;
    };
    let Ok(mut zip) = zip::ZipArchive::new(f) else {
        return false;
    };
    let names: Vec<String> = zip.file_names().map(str::to_string).collect();
    if names.iter().any(|n| n.ends_with(".tasty")) {
        return true;
    }
    // Scala 2: the first few class files tell (a Scala jar's classes nearly all carry it)
    for n in names.iter().filter(|n| n.ends_with(".class")).take(64) {
        let Ok(mut e) = zip.by_name(n) else { continue };
        let mut buf = Vec::new();
        if e.by_ref()
            .take(bytecode::class::MAX_CLASS_FILE_BYTES)
            .read_to_end(&mut buf)
            .is_ok()
            && is_scala_class(&buf)
        {
            return true;
        }
    }
    false
}

/// The tokens of a signature: text lexed as Scaladoc's, marked names as references.
fn tokens(sig: &str) -> Vec<STok> {
    let mut out = Vec::new();
    for (i, part) in sig.split(MARK).enumerate() {
        if i % 2 == 1 {
            out.push(STok::Ref(part.to_string(), part.to_string()));
        } else {
            scala_text::lex(part, &mut out);
        }
    }
    out
}

fn member(m: &MemberLine) -> Option<SMember> {
    let kind = match m.kind.as_str() {
        "def" => SKind::Def,
        "val" => SKind::Val,
        "var" => SKind::Var,
        "ctor" => SKind::Constructor,
        _ => return None,
    };
    Some(SMember {
        kind,
        modifiers: m.modifiers.clone(),
        toks: tokens(&m.sig),
        is_abstract: m.is_abstract,
        protected: m.protected,
        deprecated: m.deprecated,
        experimental: m.experimental,
        // the receiver's type as the clause `(x: T)` (the clause's type parameters are
        // the method's own here)
        extension: m.receiver.as_deref().map(|r| tokens(&format!("(x: {r})"))),
    })
}

/// The document of one class line; members that cannot be read are named in the second value.
fn class_doc(c: &ClassLine) -> Result<(ClassDoc, Vec<String>), String> {
    let page = SPage {
        fqn: c.fqn.clone(),
        kind: c.kind.clone(),
        modifiers: c.modifiers.clone(),
        toks: tokens(&c.sig),
        deprecated: c.deprecated,
        experimental: c.experimental,
        // extension methods after the others, as they were always written
        members: c
            .members
            .iter()
            .filter(|m| m.receiver.is_none())
            .chain(c.members.iter().filter(|m| m.receiver.is_some()))
            .filter_map(member)
            .collect(),
        skipped: Vec::new(),
    };
    scala_text::build(&page)
}

/// `a.B$C` → the top-level name the helper keys it by (`a.B`; `a.F$package` stays;
/// `scala.$less$colon$less$` is `scala.<:<`).
fn top_of(java_name: &str) -> String {
    let name = scala_text::decode_name(java_name);
    if let Some(i) = name.find("$package") {
        return name[..i + "$package".len()].to_string();
    }
    match name.find('$') {
        Some(i) => name[..i].to_string(),
        None => name,
    }
}

/// Merges the helper's output into the Java view of the same inputs (see the module
/// documentation).
pub fn merge(java: Extraction, out: HelperOutput) -> (Extraction, ScalaStats) {
    let mut stats = ScalaStats {
        scala_tops: out.tops.len(),
        helper_time: out.elapsed,
        ..ScalaStats::default()
    };
    let mut problems = java.problems;
    problems.extend(out.problems);
    let replaced: HashSet<&str> = out
        .tops
        .iter()
        .filter(|t| !out.failed_tops.contains(*t))
        .map(String::as_str)
        .collect();
    let mut docs: Vec<ClassDoc> = Vec::new();
    for c in &out.classes {
        let top = top_of(&c.jvm);
        if out.failed_tops.contains(&top) {
            continue;
        }
        match class_doc(c) {
            Ok((doc, skipped)) => {
                stats.skipped_members += skipped.len();
                problems.extend(skipped.into_iter().map(|reason| ExtractProblem {
                    jar: PathBuf::from("<scala-signature helper>"),
                    entry: c.fqn.clone(),
                    reason,
                }));
                docs.push(doc);
            }
            Err(e) => problems.push(ExtractProblem {
                jar: PathBuf::from("<scala-signature helper>"),
                entry: c.fqn.clone(),
                reason: format!("no Scala view: {e}"),
            }),
        }
    }
    docs.sort_by(|a, b| a.name.cmp(&b.name));
    scala_text::merge_companions(&mut docs);
    stats.classes = docs.len();
    for d in java.docs {
        // a nested class's Java name is dotted (`a.B.C`): its top-level is a prefix
        let top = top_of(&d.name);
        let covered = replaced.contains(top.as_str())
            || replaced.iter().any(|t| {
                top.len() > t.len() && top.starts_with(t) && top[t.len()..].starts_with('.')
            });
        if !covered {
            stats.java_classes += 1;
            docs.push(d);
        }
    }
    docs.sort_by(|a, b| a.name.cmp(&b.name));
    for d in docs
        .iter()
        .filter(|d| d.language.as_deref() == Some("scala"))
    {
        for m in d.methods() {
            stats.methods += 1;
            if m.is_constructor == Some(true) {
                stats.constructors += 1;
            }
            if m.receiver().is_some() {
                stats.extensions += 1;
            }
        }
        stats.fields += d.fields().len();
    }
    let mut xstats = java.stats;
    xstats.classes_emitted = docs.len();
    xstats.methods = 0;
    xstats.constructors = 0;
    xstats.fields = 0;
    for d in &docs {
        for m in d.methods() {
            if m.is_constructor == Some(true) {
                xstats.constructors += 1;
            } else {
                xstats.methods += 1;
            }
        }
        xstats.fields += d.fields().len();
    }
    (
        Extraction {
            docs,
            problems,
            stats: xstats,
        },
        stats,
    )
}

/// The Scala view of `paths` given their Java view: runs the helper on them and merges.
pub fn scala_view(
    java: Extraction,
    paths: &[&Path],
    opts: &ScalaOptions,
) -> Result<(Extraction, ScalaStats), ScalaError> {
    let start = Instant::now();
    let helper = Helper::prepare(opts)?;
    let out = helper.run(paths, &opts.classpath)?;
    let java_elapsed = java.stats.elapsed;
    let (mut x, stats) = merge(java, out);
    x.stats.elapsed = java_elapsed + start.elapsed();
    Ok((x, stats))
}

/// Extracts the Scala view of jars or class directories (taken as one set).
pub fn extract_scala(
    paths: &[&Path],
    opts: &ScalaOptions,
) -> Result<(Extraction, ScalaStats), ScalaError> {
    let java = bytecode::extract_paths(paths, &opts.extract)?;
    scala_view(java, paths, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java_doc(name: &str) -> ClassDoc {
        ClassDoc::new(name, "java")
    }

    fn output(lines: &[&str]) -> HelperOutput {
        let mut out = HelperOutput::default();
        for (i, l) in lines.iter().enumerate() {
            out.take(i + 1, l);
        }
        out
    }

    #[test]
    fn merge_replaces_scala_classes_and_keeps_java_and_failed_ones() {
        let java = Extraction {
            docs: [
                "a.B",
                "a.B$",
                "a.B.Inner",
                "a.Broken",
                "a.J",
                "a.$less$colon$less",
            ]
            .into_iter()
            .map(java_doc)
            .collect(),
            ..Extraction::default()
        };
        let out = output(&[
            r#"{"scala":{"top":"a.B"}}"#,
            r#"{"scala":{"top":"a.<:<"}}"#,
            "{\"class\":{\"jvm\":\"a.B\",\"fqn\":\"a.B\",\"kind\":\"class\",\"modifiers\":[],\"sig\":\"B[+A]\",\"deprecated\":false,\"members\":[{\"kind\":\"def\",\"modifiers\":[],\"sig\":\"get : A\",\"abstract\":false,\"protected\":false,\"deprecated\":false,\"receiver\":null}]}}",
            "{\"class\":{\"jvm\":\"a.B$\",\"fqn\":\"a.B\",\"kind\":\"object\",\"modifiers\":[\"final\"],\"sig\":\"B\",\"deprecated\":false,\"members\":[{\"kind\":\"def\",\"modifiers\":[],\"sig\":\"shout : \\u0001java.lang.String\\u0001\",\"abstract\":false,\"protected\":false,\"deprecated\":false,\"receiver\":\"\\u0001java.lang.String\\u0001\"},{\"kind\":\"def\",\"modifiers\":[],\"sig\":\"f(x: \\u0001scala.<:<\\u0001[A, \\u0001scala.Int\\u0001])(y: => A) : A\",\"abstract\":false,\"protected\":false,\"deprecated\":false,\"receiver\":null}]}}",
            r#"{"problem":{"top":"a.Broken","name":"a.Broken","source":"x.jar","reason":"error while loading Broken, TASTy file could not be read"}}"#,
            "not json",
            r#"{"stats":{"classes":2,"problems":1}}"#,
        ]);
        let (x, stats) = merge(java, out);
        let names: Vec<(&str, Option<&str>)> = x
            .docs
            .iter()
            .map(|d| (d.name.as_str(), d.language.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                ("a.B", Some("scala")),
                ("a.Broken", Some("java")),
                ("a.J", Some("java")),
            ]
        );
        assert_eq!(x.problems.len(), 2, "{:?}", x.problems);
        assert!(x.problems[0].to_string().contains("a.Broken"));
        assert!(x.problems[1].entry.contains("output line 6"));
        let b = &x.docs[0];
        type Sig = (String, Vec<String>, Option<String>, Option<String>, bool);
        let sigs: Vec<Sig> = b
            .methods()
            .iter()
            .map(|m| {
                (
                    m.name.clone(),
                    m.parameters.clone(),
                    m.return_type.clone().flatten(),
                    m.receiver().map(str::to_string),
                    m.is_static == Some(true),
                )
            })
            .collect();
        assert_eq!(
            sigs,
            [
                (
                    "f".to_string(),
                    vec!["scala.<:<[A, scala.Int]".to_string()],
                    Some("(=> A) => A".to_string()),
                    None,
                    true
                ),
                (
                    "shout".to_string(),
                    vec![],
                    Some("java.lang.String".to_string()),
                    Some("java.lang.String".to_string()),
                    true
                ),
            ]
        );
        assert_eq!(b.fields().len(), 1, "`get` is a field");
        assert_eq!(stats.extensions, 1);
        assert_eq!(stats.java_classes, 2);
    }

    #[test]
    fn java_names_map_to_the_helpers_top_level_names() {
        assert_eq!(top_of("a.B$"), "a.B");
        assert_eq!(top_of("a.B$Inner"), "a.B");
        assert_eq!(top_of("a.F$package$"), "a.F$package");
        assert_eq!(top_of("scala.$less$colon$less$"), "scala.<:<");
    }
}
