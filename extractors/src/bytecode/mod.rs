//! The bytecode extractor: jars, jmods and JDKs → API JSON documents ([`ClassDoc`]).
//!
//! Every class file is parsed with `cafebabe`; generic types come from `Signature` attributes
//! (parsed by [`signature`]), falling back to descriptors. One extraction works on a *set* of
//! containers at once, because three things need more than one class:
//!
//! - nested-class names: `a/B$C` prints `a.B.C` only if some `InnerClasses` attribute in the
//!   set (or the context) says `C` is a member of `a/B`; otherwise the `$` is kept;
//! - public API inherited through non-public supertypes (`StringBuilder` extends the
//!   package-private `AbstractStringBuilder`): their members are copied into the accessible
//!   subclass (unless overridden there) and the subclass's supertypes become the first
//!   accessible ancestor (with type arguments substituted) plus the hidden classes'
//!   interfaces;
//! - functional interfaces, whose abstract methods may be inherited.
//!
//! Classes the set refers to but does not contain may be supplied as a *context*
//! ([`ExtractOptions::context`], a [`ClassPool`], e.g. the JDK for a library jar): they are
//! consulted for the above, never emitted.
//!
//! What is emitted: public top-level classes, and public or protected member classes of
//! accessible classes (anonymous, local and synthetic classes never); their public and
//! protected constructors, methods and fields, without bridges, synthetic members and class
//! initializers. For modules (jmods, the runtime image, `ct.sym`), only packages exported to
//! everyone (see [`ExtractOptions::exported_only`]). Every document has `language: "java"`.
//!
//! Limits: the type arguments of an enclosing class (`Outer<A>.Inner<B>`) cannot be written
//! in thalia's syntax and are dropped (`pkg.Outer.Inner<B>`); multi-release jar entries
//! (`META-INF/versions/`) are ignored (the base entries are read); compressed runtime images
//! (`jlink --compress`) cannot be read; Kotlin metadata is only detected (`is_kotlin`) here;
//! [`crate::kotlin`] interprets it (the Kotlin view).

mod archive;
mod assemble;
pub mod class;
pub mod signature;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(crate) use archive::read_container;
pub use archive::{
    ct_sym_release_letter, read_ct_sym, read_dir, read_jar, read_jimage, read_jmod, read_path,
    RawArchive, JMOD_MAGIC, MAX_ARCHIVE_CLASS_BYTES, MAX_CONTAINER_BYTES,
};
pub use class::{extract_class, module_exports, RawClass, RawField, RawMethod};

use crate::schema::ClassDoc;
use assemble::{assemble, Lookup};
use signature::NameMap;

/// A failure that stops an extraction.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// A file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file is not a jar/zip (or jmod, or runtime image) at all.
    #[error("{path}: not an archive of class files: {reason}")]
    NotAnArchive {
        /// The file.
        path: PathBuf,
        /// What the zip reader said.
        reason: String,
    },
    /// A class file is malformed (from [`extract_class`]).
    #[error("{entry}: malformed class file: {reason}")]
    Class {
        /// The entry name given to [`extract_class`].
        entry: String,
        /// What is wrong.
        reason: String,
    },
    /// A JDK has neither `jmods/` nor a runtime image with the requested modules.
    #[error("{java_home}: {reason}")]
    Jdk {
        /// The JDK's home directory.
        java_home: PathBuf,
        /// What is missing.
        reason: String,
    },
}

/// A class-file entry that was skipped (or read with a fallback), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractProblem {
    /// The container (jar, jmod, image, directory).
    pub jar: PathBuf,
    /// The entry inside it.
    pub entry: String,
    /// What went wrong.
    pub reason: String,
}

impl std::fmt::Display for ExtractProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}!{}: {}", self.jar.display(), self.entry, self.reason)
    }
}

/// Counts of one extraction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtractStats {
    /// Containers read.
    pub archives: usize,
    /// Class files seen.
    pub class_files: usize,
    /// Classes parsed (not counting anonymous, local, synthetic and info classes).
    pub classes_read: usize,
    /// Classes read twice (the first one, in container order, is used).
    pub duplicates: usize,
    /// Documents produced.
    pub classes_emitted: usize,
    /// Methods in the documents (constructors not counted).
    pub methods: usize,
    /// Constructors in the documents.
    pub constructors: usize,
    /// Fields in the documents.
    pub fields: usize,
    /// Wall-clock time of the whole extraction.
    pub elapsed: Duration,
}

/// The result of an extraction.
#[derive(Clone, Debug, Default)]
pub struct Extraction {
    /// One document per accessible class, sorted by name.
    pub docs: Vec<ClassDoc>,
    /// Entries skipped or read with a fallback.
    pub problems: Vec<ExtractProblem>,
    /// Counts.
    pub stats: ExtractStats,
}

/// How to extract.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// Emit protected member classes and protected members (marked `protected`). Default on.
    pub include_protected: bool,
    /// For modules, emit only packages exported to everyone. Default on.
    pub exported_only: bool,
    /// Copy the members of non-public supertypes into their accessible subtypes and replace
    /// those supertypes by their accessible ancestors. Default on.
    pub flatten_non_public: bool,
    /// Classes consulted but not emitted (supertypes from dependencies or the JDK).
    pub context: Option<Arc<ClassPool>>,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            include_protected: true,
            exported_only: true,
            flatten_non_public: true,
            context: None,
        }
    }
}

/// Classes by binary name, for use as a context.
#[derive(Clone, Debug, Default)]
pub struct ClassPool {
    classes: HashMap<String, RawClass>,
    hidden: HashSet<String>,
}

impl ClassPool {
    /// The classes of several containers (first occurrence of a name wins); with the problems
    /// met while reading them.
    pub fn from_archives(archives: Vec<RawArchive>) -> (ClassPool, Vec<ExtractProblem>) {
        let mut pool = ClassPool::default();
        let mut problems = Vec::new();
        for a in archives {
            problems.extend(a.problems);
            for c in a.classes {
                if pool.classes.contains_key(&c.name) {
                    continue;
                }
                if let Some(ex) = &a.exports {
                    if !ex.contains(c.package()) {
                        pool.hidden.insert(c.name.clone());
                    }
                }
                pool.classes.insert(c.name.clone(), c);
            }
        }
        (pool, problems)
    }

    /// Reads jars, jmods or class directories into a pool.
    pub fn read(paths: &[&Path]) -> Result<(ClassPool, Vec<ExtractProblem>), ExtractError> {
        let archives = paths
            .iter()
            .map(|p| read_path(p))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ClassPool::from_archives(archives))
    }

    /// Reads modules of a JDK into a pool (see [`read_jdk`]).
    pub fn jdk(
        java_home: &Path,
        modules: &[&str],
    ) -> Result<(ClassPool, Vec<ExtractProblem>), ExtractError> {
        Ok(ClassPool::from_archives(read_jdk(java_home, modules)?))
    }

    /// A class by binary name.
    pub fn get(&self, name: &str) -> Option<&RawClass> {
        self.classes.get(name)
    }

    /// True if the class is in a package its module does not export.
    pub fn is_hidden(&self, name: &str) -> bool {
        self.hidden.contains(name)
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }
}

/// Extracts the API of a set of already-read containers, as one set.
pub fn extract_archives(archives: &[RawArchive], opts: &ExtractOptions) -> Extraction {
    let start = Instant::now();
    let mut stats = ExtractStats {
        archives: archives.len(),
        ..ExtractStats::default()
    };
    let mut problems = Vec::new();
    let mut local: HashMap<&str, &RawClass> = HashMap::new();
    let mut hidden: HashSet<&str> = HashSet::new();
    let mut targets: Vec<&RawClass> = Vec::new();
    let mut names = NameMap::new();
    if let Some(ctx) = &opts.context {
        for c in ctx.classes.values() {
            for (i, o, s) in &c.member_classes {
                names.add(i, o, s);
            }
        }
    }
    for a in archives {
        stats.class_files += a.class_files;
        stats.classes_read += a.classes.len();
        problems.extend(a.problems.iter().cloned());
        for c in &a.classes {
            for (i, o, s) in &c.member_classes {
                names.add(i, o, s);
            }
            if local.contains_key(c.name.as_str()) {
                stats.duplicates += 1;
                continue;
            }
            local.insert(&c.name, c);
            let exported = a.exports.as_ref().is_none_or(|ex| ex.contains(c.package()));
            if !exported {
                hidden.insert(&c.name);
            }
            if exported || !opts.exported_only {
                targets.push(c);
            }
        }
    }
    names.freeze();
    let null_marked_packages = archives
        .iter()
        .flat_map(|a| a.null_marked_packages.iter())
        .map(|(p, m)| (p.as_str(), *m))
        .collect();
    let lookup = Lookup {
        local,
        hidden,
        context: opts.context.as_deref(),
        null_marked_packages,
    };
    let docs = assemble(&targets, &lookup, &names, opts);
    stats.classes_emitted = docs.len();
    for d in &docs {
        for m in d.methods() {
            if m.is_constructor == Some(true) {
                stats.constructors += 1;
            } else {
                stats.methods += 1;
            }
        }
        stats.fields += d.fields().len();
    }
    stats.elapsed = start.elapsed();
    Extraction {
        docs,
        problems,
        stats,
    }
}

fn timed(start: Instant, mut x: Extraction) -> Extraction {
    x.stats.elapsed = start.elapsed();
    x
}

/// Extracts the API of one jar. A malformed or unreadable class entry is reported in
/// [`Extraction::problems`] and skipped; a file that is not a zip is an error.
pub fn extract_jar(path: &Path, opts: &ExtractOptions) -> Result<Extraction, ExtractError> {
    let start = Instant::now();
    let a = read_jar(path)?;
    Ok(timed(start, extract_archives(&[a], opts)))
}

/// Extracts the API of one jmod (its exported packages, by default).
pub fn extract_jmod(path: &Path, opts: &ExtractOptions) -> Result<Extraction, ExtractError> {
    let start = Instant::now();
    let a = read_jmod(path)?;
    Ok(timed(start, extract_archives(&[a], opts)))
}

/// Extracts the API of several jars, jmods or class directories as one set (a library with
/// the dependencies its public types extend, say); a name found twice is taken from the
/// first container that has it.
pub fn extract_paths(paths: &[&Path], opts: &ExtractOptions) -> Result<Extraction, ExtractError> {
    let start = Instant::now();
    let archives: Vec<RawArchive> = paths
        .iter()
        .map(|p| read_path(p))
        .collect::<Result<_, _>>()?;
    Ok(timed(start, extract_archives(&archives, opts)))
}

/// Reads modules (all when `modules` is empty) of a JDK: from `<java_home>/jmods/<m>.jmod`
/// when the JDK has jmods, else from its runtime image `<java_home>/lib/modules` (JDK 9+
/// builds without jmods, such as JDK 24+ with linkable runtimes). For the API of an *earlier*
/// release, use [`read_ct_sym`] on `<java_home>/lib/ct.sym`.
pub fn read_jdk(java_home: &Path, modules: &[&str]) -> Result<Vec<RawArchive>, ExtractError> {
    let jmods = java_home.join("jmods");
    if jmods.is_dir() {
        let mut paths: Vec<PathBuf> = Vec::new();
        if modules.is_empty() {
            let rd = std::fs::read_dir(&jmods).map_err(|e| ExtractError::Io {
                path: jmods.clone(),
                source: e,
            })?;
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "jmod") {
                    paths.push(p);
                }
            }
            paths.sort();
        } else {
            for m in modules {
                let p = jmods.join(format!("{m}.jmod"));
                if !p.is_file() {
                    return Err(ExtractError::Jdk {
                        java_home: java_home.to_path_buf(),
                        reason: format!("no module {m} ({} is missing)", p.display()),
                    });
                }
                paths.push(p);
            }
        }
        return paths.iter().map(|p| read_jmod(p)).collect();
    }
    let image = java_home.join("lib").join("modules");
    if image.is_file() {
        let a = read_jimage(&image, modules)?;
        if a.class_files == 0 {
            return Err(ExtractError::Jdk {
                java_home: java_home.to_path_buf(),
                reason: format!("the runtime image has no classes of {modules:?}"),
            });
        }
        return Ok(vec![a]);
    }
    Err(ExtractError::Jdk {
        java_home: java_home.to_path_buf(),
        reason: "neither jmods/ nor lib/modules found (is this a JDK 9+ home?)".into(),
    })
}

/// Extracts the API of JDK modules (all when `modules` is empty) as one set; see
/// [`read_jdk`] for where the classes come from.
pub fn extract_jdk(
    java_home: &Path,
    modules: &[&str],
    opts: &ExtractOptions,
) -> Result<Extraction, ExtractError> {
    let start = Instant::now();
    let archives = read_jdk(java_home, modules)?;
    Ok(timed(start, extract_archives(&archives, opts)))
}

/// Extracts the API of an earlier Java release as recorded in a JDK's `lib/ct.sym` (what
/// `javac --release N` sees), for the given modules (all when empty).
pub fn extract_ct_sym(
    java_home: &Path,
    release: u32,
    modules: &[&str],
    opts: &ExtractOptions,
) -> Result<Extraction, ExtractError> {
    let start = Instant::now();
    let a = read_ct_sym(&java_home.join("lib").join("ct.sym"), release, modules)?;
    Ok(timed(start, extract_archives(&[a], opts)))
}

/// The home of the JDK to use: `$JAVA_HOME` if set, else the `java.home` that the `java`
/// on the `PATH` reports.
pub fn find_java_home() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let h = PathBuf::from(h);
        if h.is_dir() {
            return Some(h);
        }
    }
    let out = std::process::Command::new("java")
        .args(["-XshowSettings:properties", "-version"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    text.lines().find_map(|l| {
        let v = l
            .trim()
            .strip_prefix("java.home")?
            .trim_start()
            .strip_prefix('=')?;
        Some(PathBuf::from(v.trim()))
    })
}
