//! The Kotlin view of jars: API JSON read from each class's `kotlin.Metadata` annotation.
//!
//! The metadata is decoded by JetBrains' `kotlin-metadata-jvm` (the artifact
//! [`METADATA_JVM`], resolved with its dependencies through thalia's Maven resolver into the
//! Maven cache) in a small JVM helper, `KotlinMetadataDump.java` (embedded here, compiled with
//! the JDK's `javac` on first use into `<cache dir>/thalia/kotlin-metadata/<content hash>/`).
//! The helper reads the class files itself and prints one JSON line per class, file facade or
//! multi-file class part, and one per problem; this module parses them and merges them with
//! the Java view ([`crate::bytecode`]) of the same inputs:
//!
//! - Kotlin's builtin classes (`kotlin.Any`, `kotlin.Int`, `kotlin.String`,
//!   `kotlin.collections.List`, ...), which have no class files, are read from the
//!   `.kotlin_builtins` files of the inputs (kotlin-stdlib's) with the decoder's
//!   `KotlinCommonMetadata`; a class that has a class file is read from that;
//! - a class with metadata gets its Kotlin document (`"language": "kotlin"`): Kotlin type
//!   strings (`kotlin.String?`, `(A) -> B`, `R.(A) -> B`, `suspend () -> R`,
//!   `kotlin.Array<out T>`), `vararg T`, declaration-site variance, `reified`, extension
//!   receivers, properties as fields, objects and companions (`"kotlin_kind"`), enum entries;
//! - the top-level functions, properties and type aliases of a package's file facades and
//!   multi-file class parts become one document named after the package (`"is_class":
//!   false`); type aliases are listed in its `"type_aliases"` (types use their expansion);
//! - a class without metadata (Java sources of a mixed jar) keeps its Java document, and so
//!   does a class whose metadata the decoder rejects (malformed `d1`, unknown kind or
//!   version): that is an [`ExtractProblem`] naming the class, and the extraction goes on;
//! - Java documents of Kotlin classes that are not Kotlin API (internal, private, synthetic,
//!   file-facade classes such as `CollectionsKt`) are dropped.
//!
//! Flags Kotlin declares go into `other_metadata`: `is_suspend`, `is_inline`, `is_operator`,
//! `is_infix`, `defaults` (indices of parameters with a default value), `parameter_names`,
//! `is_override`, and `upper_bounds` when a type parameter has more than one bound (the type
//! string keeps the first, the only form thalia's parser reads). The helper prints them as
//! JSON; they are read into the schema's typed facts ([`crate::schema::MethodMetadata`],
//! [`crate::schema::FieldMetadata`], [`crate::schema::KotlinClassFacts`]).
//!
//! Members deprecated with level `ERROR` (or `DeprecatedSinceKotlin(errorSince)`) are kept with
//! `"deprecation_level": "error"`: a call of one does not compile, but Kotlin's overload
//! resolution still sees it (`StateFlow<T>.distinctUntilChanged()` wins over `Flow<T>`'s). The
//! annotations of an interface's properties are read from its `$DefaultImpls` class too.
//!
//! Limits: members with context parameters are left out (a call needs the context); members
//! deprecated with level `HIDDEN` (synthetic in bytecode, annotated `kotlin.Deprecated`) are
//! left out; a definitely non-null type `T & Any` is written `T`; a flexible (platform) type is
//! written as its lower bound; type arguments of an outer class (`Outer<A>.Inner<B>`) are
//! dropped as in the Java view; facades of the root package are skipped (no document name).

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Map;

use crate::bytecode::{self, ExtractOptions, ExtractProblem, Extraction};
use crate::jvm_helper;
use crate::maven::MavenError;
use crate::schema::{ClassDoc, FieldDoc, MethodDoc, TypeAliasDoc};

/// The decoder the helper runs on: JetBrains' maintained reader of `kotlin.Metadata`.
pub const METADATA_JVM: &str = "org.jetbrains.kotlin:kotlin-metadata-jvm:2.4.21";

/// The helper's source (compiled on first use).
pub const HELPER_SOURCE: &str = include_str!("KotlinMetadataDump.java");

/// The helper's main class.
const HELPER_CLASS: &str = "KotlinMetadataDump";

/// A failure that stops a Kotlin extraction (a bad class never does: it is a problem).
#[derive(Debug, thiserror::Error)]
pub enum KotlinError {
    /// No JDK was found.
    #[error("cannot find a JDK for the Kotlin-metadata helper: set JAVA_HOME")]
    NoJdk,
    /// The JDK lacks `java` or `javac`.
    #[error(
        "{java_home}: no `{tool}` in this JDK's bin/ (the Kotlin-metadata helper needs a full JDK)"
    )]
    NoTool {
        /// The JDK's home.
        java_home: PathBuf,
        /// The missing executable.
        tool: String,
    },
    /// The decoder could not be resolved or downloaded.
    #[error("cannot get {METADATA_JVM} for the Kotlin-metadata helper: {0}")]
    Resolve(#[from] MavenError),
    /// The helper did not compile.
    #[error("cannot build the Kotlin-metadata helper: {0}")]
    Build(String),
    /// The helper failed as a whole.
    #[error("the Kotlin-metadata helper failed ({status}): {stderr}")]
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

impl From<jvm_helper::HelperError> for KotlinError {
    fn from(e: jvm_helper::HelperError) -> Self {
        match e {
            jvm_helper::HelperError::Resolve(e) => KotlinError::Resolve(e),
            jvm_helper::HelperError::Build(m) => KotlinError::Build(m),
            jvm_helper::HelperError::Run { status, stderr } => {
                KotlinError::Helper { status, stderr }
            }
        }
    }
}

/// How to run a Kotlin extraction.
#[derive(Clone, Debug, Default)]
pub struct KotlinOptions {
    /// Repositories for resolving the decoder (`--repo`; empty: the user's configuration).
    pub repos: Vec<String>,
    /// The JDK running the helper (`None`: `JAVA_HOME`, else the `java` on the `PATH`).
    pub java_home: Option<PathBuf>,
    /// Options of the Java-view extraction of the same inputs.
    pub extract: ExtractOptions,
}

/// Counts of a Kotlin extraction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KotlinStats {
    /// Class files the helper read.
    pub class_files: usize,
    /// Of those, the ones carrying `kotlin.Metadata`.
    pub with_metadata: usize,
    /// Kotlin class documents (classes, interfaces, objects, enums).
    pub classes: usize,
    /// Package documents (top-level members).
    pub packages: usize,
    /// Java documents kept (classes without metadata, or whose metadata was rejected).
    pub java_classes: usize,
    /// Functions, extensions included (constructors not counted).
    pub functions: usize,
    /// Constructors.
    pub constructors: usize,
    /// Properties, extensions included (enum entries not counted).
    pub properties: usize,
    /// Extension functions and properties.
    pub extensions: usize,
    /// Type aliases recorded.
    pub type_aliases: usize,
    /// Wall-clock time of the helper.
    pub helper_time: Duration,
}

/// One line of the helper's output.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Class(Box<ClassLine>),
    Facade(FacadeLine),
    Problem(ProblemLine),
    Stats(StatsLine),
}

#[derive(Debug, Deserialize)]
struct ClassLine {
    jvm_name: String,
    doc: ClassDoc,
}

#[derive(Debug, Deserialize)]
struct FacadeLine {
    jvm_name: String,
    package: String,
    methods: Vec<MethodDoc>,
    fields: Vec<FieldDoc>,
    #[serde(default)]
    type_aliases: Vec<TypeAliasDoc>,
}

#[derive(Debug, Deserialize)]
struct ProblemLine {
    jvm_name: String,
    source: String,
    reason: String,
}

#[derive(Debug, Deserialize)]
struct StatsLine {
    class_files: usize,
    with_metadata: usize,
}

/// What the helper printed, parsed.
#[derive(Debug, Default)]
pub struct HelperOutput {
    classes: Vec<ClassLine>,
    facades: Vec<FacadeLine>,
    /// Classes (or members) the helper could not read, and why.
    pub problems: Vec<ExtractProblem>,
    /// JVM names of classes whose metadata was rejected as a whole.
    rejected: HashSet<String>,
    class_files: usize,
    with_metadata: usize,
    elapsed: Duration,
}

/// A built helper, ready to run.
#[derive(Clone, Debug)]
pub struct Helper {
    java: PathBuf,
    classpath: Vec<PathBuf>,
}

impl Helper {
    /// Resolves the decoder, finds the JDK and compiles the helper if it is not cached.
    pub fn prepare(opts: &KotlinOptions) -> Result<Helper, KotlinError> {
        let home = opts
            .java_home
            .clone()
            .or_else(bytecode::find_java_home)
            .ok_or(KotlinError::NoJdk)?;
        let tool = |name: &str| {
            let p = home.join("bin").join(name);
            if p.is_file() {
                Ok(p)
            } else {
                Err(KotlinError::NoTool {
                    java_home: home.clone(),
                    tool: name.into(),
                })
            }
        };
        let java = tool("java")?;
        let javac = tool("javac")?;
        let jars = decoder_classpath(&opts.repos)?;
        let dir = build(&javac, &jars)?;
        let mut classpath = vec![dir];
        classpath.extend(jars);
        Ok(Helper { java, classpath })
    }

    /// Runs the helper on jars or class directories.
    pub fn run(&self, inputs: &[&Path]) -> Result<HelperOutput, KotlinError> {
        let start = Instant::now();
        let mut out = HelperOutput::default();
        let args: Vec<OsString> = inputs.iter().map(|p| p.as_os_str().to_owned()).collect();
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

impl HelperOutput {
    fn take(&mut self, n: usize, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Class(c)) => self.classes.push(*c),
            Ok(Line::Facade(f)) => self.facades.push(f),
            Ok(Line::Problem(p)) => {
                // a member-level problem leaves the class's Kotlin document in place
                if !p.reason.contains(" skipped: ") {
                    self.rejected.insert(p.jvm_name.clone());
                }
                self.problems.push(ExtractProblem {
                    jar: PathBuf::from(p.source),
                    entry: format!("{}.class", p.jvm_name),
                    reason: p.reason,
                });
            }
            Ok(Line::Stats(s)) => {
                self.class_files = s.class_files;
                self.with_metadata = s.with_metadata;
            }
            Err(e) => self.problems.push(ExtractProblem {
                jar: PathBuf::from("<kotlin-metadata helper>"),
                entry: format!("output line {n}"),
                reason: format!("unreadable: {e}"),
            }),
        }
    }
}

/// The decoder's jars (with `kotlin-stdlib`), resolved and downloaded into the Maven cache.
pub fn decoder_classpath(repos: &[String]) -> Result<Vec<PathBuf>, KotlinError> {
    Ok(jvm_helper::artifact_classpath(repos, METADATA_JVM)?)
}

/// Compiles the helper against the decoder's jars (once per source and jar set).
fn build(javac: &Path, jars: &[PathBuf]) -> Result<PathBuf, KotlinError> {
    let root = jvm_helper::cache_root("THALIA_KOTLIN_HELPER_DIR", "kotlin-metadata");
    let source = jvm_helper::HelperSource {
        text: HELPER_SOURCE,
        class: HELPER_CLASS,
        extension: "java",
        compiler: "javac",
    };
    Ok(jvm_helper::build_once(
        &root,
        &source,
        jars,
        |out, src, cp| {
            Command::new(javac)
                .args(["--release", "17", "-nowarn", "-cp"])
                .arg(cp)
                .arg("-d")
                .arg(out)
                .arg(src)
                .output()
        },
    )?)
}

/// True when some class of the extraction carries `kotlin.Metadata`.
pub fn has_kotlin(x: &Extraction) -> bool {
    x.docs.iter().any(|d| d.is_kotlin == Some(true))
}

/// `a/B$C` → `a.B.C` (how the Java view names a member class).
fn java_doc_name(jvm_name: &str) -> String {
    jvm_name.replace(['/', '$'], ".")
}

/// Merges the helper's output into the Java view of the same inputs: Kotlin documents for
/// classes with metadata, one document per package of top-level members, Java documents
/// for the rest (see the module documentation).
pub fn merge(java: Extraction, out: HelperOutput) -> (Extraction, KotlinStats) {
    let mut stats = KotlinStats {
        class_files: out.class_files,
        with_metadata: out.with_metadata,
        helper_time: out.elapsed,
        ..KotlinStats::default()
    };
    let rejected: HashSet<String> = out.rejected.iter().map(|n| java_doc_name(n)).collect();
    let mut docs: Vec<ClassDoc> = Vec::new();
    let mut kotlin_names: HashSet<String> = HashSet::new();
    for c in out.classes {
        if out.rejected.contains(&c.jvm_name) {
            continue;
        }
        kotlin_names.insert(c.doc.name.clone());
        docs.push(c.doc);
    }
    let mut problems = java.problems;
    problems.extend(out.problems);
    for d in java.docs {
        let keep = d.is_kotlin != Some(true) || rejected.contains(&d.name);
        if keep && !kotlin_names.contains(&d.name) {
            stats.java_classes += 1;
            docs.push(d);
        }
    }
    // one document per package: its facades' members, in the order read
    let mut packages: BTreeMap<String, ClassDoc> = BTreeMap::new();
    for f in out.facades {
        if out.rejected.contains(&f.jvm_name) {
            continue;
        }
        if f.package.is_empty() {
            problems.push(ExtractProblem {
                jar: PathBuf::from("<kotlin-metadata helper>"),
                entry: format!("{}.class", f.jvm_name),
                reason: "top-level members of the root package are skipped (a package \
                         document needs a name)"
                    .into(),
            });
            continue;
        }
        let doc = packages
            .entry(f.package.clone())
            .or_insert_with(|| package_doc(&f.package));
        // a declaration found twice (a builtins file and a facade both declare
        // `emptyArray`) is written once
        let methods = doc.methods.get_or_insert_with(Vec::new);
        for m in f.methods {
            if !methods.contains(&m) {
                methods.push(m);
            }
        }
        let fields = doc.fields.get_or_insert_with(Vec::new);
        for x in f.fields {
            if !fields.contains(&x) {
                fields.push(x);
            }
        }
        if !f.type_aliases.is_empty() {
            doc.kotlin
                .type_aliases
                .get_or_insert_with(Vec::new)
                .extend(f.type_aliases);
        }
    }
    stats.packages = packages.len();
    docs.extend(packages.into_values());
    docs.sort_by(|a, b| a.name.cmp(&b.name));
    for d in &docs {
        if d.language.as_deref() != Some("kotlin") {
            continue;
        }
        if d.is_class == Some(true) {
            stats.classes += 1;
        }
        for m in d.methods() {
            if m.is_constructor == Some(true) {
                stats.constructors += 1;
            } else {
                stats.functions += 1;
            }
            if m.receiver().is_some() {
                stats.extensions += 1;
            }
        }
        for f in d.fields() {
            if f.is_enum_constant == Some(true) {
                continue;
            }
            stats.properties += 1;
            if f.receiver().is_some() {
                stats.extensions += 1;
            }
        }
        stats.type_aliases += d.kotlin.type_aliases.as_ref().map_or(0, Vec::len);
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

/// An empty document for the top-level members of `package`.
fn package_doc(package: &str) -> ClassDoc {
    let mut d = ClassDoc::new(package, "kotlin");
    d.implements = None;
    d.inherits = None;
    d.class_type = None;
    d.parent = None;
    d.access_mod = None;
    d.is_class = Some(false);
    d.extra = Map::new();
    d
}

/// The Kotlin view of `paths` given their Java view: runs the helper on them and merges.
pub fn kotlin_view(
    java: Extraction,
    paths: &[&Path],
    opts: &KotlinOptions,
) -> Result<(Extraction, KotlinStats), KotlinError> {
    let start = Instant::now();
    let helper = Helper::prepare(opts)?;
    let out = helper.run(paths)?;
    let java_elapsed = java.stats.elapsed;
    let (mut x, stats) = merge(java, out);
    x.stats.elapsed = java_elapsed + start.elapsed();
    Ok((x, stats))
}

/// Extracts the Kotlin view of jars or class directories (taken as one set).
pub fn extract_kotlin(
    paths: &[&Path],
    opts: &KotlinOptions,
) -> Result<(Extraction, KotlinStats), KotlinError> {
    let java = bytecode::extract_paths(paths, &opts.extract)?;
    kotlin_view(java, paths, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java_doc(name: &str, kotlin: bool) -> ClassDoc {
        let mut d = ClassDoc::new(name, "java");
        d.is_kotlin = kotlin.then_some(true);
        d
    }

    fn output(lines: &[&str]) -> HelperOutput {
        let mut out = HelperOutput::default();
        for (i, l) in lines.iter().enumerate() {
            out.take(i + 1, l);
        }
        out
    }

    #[test]
    fn merge_keeps_java_documents_without_metadata_or_with_rejected_metadata() {
        let java = Extraction {
            docs: vec![
                java_doc("a.B", true),
                java_doc("a.BKt", true),
                java_doc("a.Internal", true),
                java_doc("a.Broken", true),
                java_doc("a.J", false),
            ],
            ..Extraction::default()
        };
        let out = output(&[
            r#"{"class":{"jvm_name":"a/B","doc":{"name":"a.B","language":"kotlin","is_class":true,"methods":[],"fields":[]}}}"#,
            r#"{"facade":{"jvm_name":"a/BKt","package":"a","methods":[{"name":"f","parameters":[],"return_type":"kotlin.Int","receiver":"kotlin.String"}],"fields":[],"type_aliases":[{"name":"a.N","type":"kotlin.Int"}]}}"#,
            r#"{"problem":{"jvm_name":"a/Broken","source":"x.jar","reason":"the decoder rejects its kotlin.Metadata (version 2.4.0): boom"}}"#,
            r#"{"problem":{"jvm_name":"a/B","source":"x.jar","reason":"function g skipped: local class"}}"#,
            "not json",
            r#"{"stats":{"class_files":6,"with_metadata":5}}"#,
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
                ("a", Some("kotlin")),
                ("a.B", Some("kotlin")),
                ("a.Broken", Some("java")),
                ("a.J", Some("java")),
            ]
        );
        assert_eq!(x.problems.len(), 3, "{:?}", x.problems);
        assert!(x.problems[0].to_string().contains("a/Broken.class"));
        assert!(x.problems[2].entry.contains("output line 5"));
        assert_eq!(stats.packages, 1);
        assert_eq!(stats.extensions, 1);
        assert_eq!(stats.type_aliases, 1);
        assert_eq!(stats.java_classes, 2);
        assert_eq!(stats.with_metadata, 5);
        assert_eq!(x.docs[0].is_class, Some(false));
    }

    #[test]
    fn a_jdk_without_javac_is_a_clear_error() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let opts = KotlinOptions {
            java_home: Some(tmp.path().to_path_buf()),
            ..KotlinOptions::default()
        };
        let e = Helper::prepare(&opts).expect_err("no java");
        assert!(e.to_string().contains("no `java`"), "{e}");
        std::fs::create_dir_all(tmp.path().join("bin")).expect("mkdir");
        std::fs::write(tmp.path().join("bin").join("java"), "").expect("write");
        let e = Helper::prepare(&opts).expect_err("no javac");
        assert!(e.to_string().contains("no `javac`"), "{e}");
        assert!(
            e.to_string().contains(&tmp.path().display().to_string()),
            "{e}"
        );
    }
}
