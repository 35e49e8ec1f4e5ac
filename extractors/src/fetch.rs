//! `thalia fetch`: resolve Maven coordinates, download the jars (and javadoc), extract the
//! requested artifacts' API, and record the classpath and what was fetched.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::bytecode::{self, ClassPool, ExtractOptions, ExtractProblem};
use crate::classpath::Availability;
use crate::maven::{
    Coordinate, FetchedArtifact, MavenError, RepoConfig, Resolver, ResolverOptions,
};
use crate::ClassDoc;

/// What a fetch should do.
#[derive(Clone, Debug, Default)]
pub struct FetchOptions {
    /// Repositories given on the command line (`--repo`), before any configured ones.
    pub repos: Vec<String>,
    /// Download the `-javadoc.jar` of every artifact too.
    pub docs: bool,
    /// Write the API of the requested artifacts from their `-javadoc.jar` (the documentation
    /// extractor) instead of their bytecode; implies `docs`.
    pub api_from_docs: bool,
    /// Show progress bars.
    pub progress: bool,
    /// The JDK whose classes serve as context (supertypes, functional interfaces); `None`
    /// looks for one, and extraction goes on without it when none is found.
    pub java_home: Option<PathBuf>,
    /// Extract the dependencies' API too (not only the requested artifacts').
    pub with_deps: bool,
    /// Which language's view to write (auto: Kotlin for classes with `kotlin.Metadata`, Scala
    /// for a Scala library whose classes carry TASTy or Scala 2 signatures).
    pub view: crate::view::View,
    /// The views `auto` may choose from (default: all; the Java view when none applies).
    pub auto_views: crate::view::AutoViews,
    /// Put the requested artifacts' own optional and `provided` dependencies (with their
    /// dependencies) on the classpath too: the API's signatures name their classes
    /// (`spring-orm`'s Hibernate and JPA types), which a program cannot compile without.
    /// When they cannot be resolved, the fetch goes on without them and says so.
    pub optional_deps: bool,
}

/// A problem of a fetch.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// Resolution or download failed.
    #[error(transparent)]
    Maven(#[from] MavenError),
    /// Extraction failed as a whole (not a single class).
    #[error(transparent)]
    Extract(#[from] bytecode::ExtractError),
    /// Nothing to fetch.
    #[error("no coordinates given")]
    Empty,
    /// The Kotlin view could not be extracted.
    #[error(transparent)]
    Kotlin(#[from] crate::kotlin::KotlinError),
    /// The Scala view could not be extracted.
    #[error(transparent)]
    Scala(#[from] crate::scala::ScalaError),
    /// The requested view is not available.
    #[error("--view {view}: {reason}")]
    View {
        /// The view asked for.
        view: crate::view::View,
        /// Why it cannot be written.
        reason: String,
    },
    /// The documentation of a requested artifact could not be used.
    #[error("{coordinate}: {reason}")]
    Docs {
        /// The artifact.
        coordinate: String,
        /// Why.
        reason: String,
    },
}

/// One artifact of the resolution as recorded in `fetch.json`.
#[derive(Clone, Debug, Serialize)]
pub struct ArtifactRecord {
    /// `group:artifact:version`.
    pub coordinate: String,
    /// `compile` or `runtime`.
    pub scope: String,
    /// Distance from the requested artifact (0 for it).
    pub depth: usize,
    /// How it was reached (`root -> a -> b`).
    pub path: Vec<String>,
    /// The repository it came from.
    pub repository: String,
    /// The jar in the local cache.
    pub jar: PathBuf,
    /// Its SHA-1.
    pub sha1: String,
    /// Its javadoc jar, when asked for and published.
    pub javadoc: Option<PathBuf>,
}

/// The record of a fetch (`fetch.json`).
#[derive(Clone, Debug, Serialize)]
pub struct FetchRecord {
    /// Tool that wrote it.
    pub tool: String,
    /// Warnings about the fetch as a whole ([`Fetched::notes`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The coordinates as requested.
    pub requested: Vec<String>,
    /// The requested coordinates with resolved versions.
    pub resolved: Vec<String>,
    /// Every artifact on the classpath, in classpath order.
    pub artifacts: Vec<ArtifactRecord>,
    /// Versions that lost to a nearer declaration (`group:artifact:version` rejected for the
    /// chosen one).
    pub conflicts: Vec<String>,
    /// The repositories consulted, in order.
    pub repositories: Vec<String>,
    /// The Maven-layout cache used.
    pub cache: PathBuf,
    /// Where the API was extracted from: `bytecode` or `javadoc`.
    pub api_source: String,
    /// The language view written: `java` or `kotlin` (`auto` resolved).
    pub view: String,
    /// Why auto chose the view it chose, when worth saying (a Scala library).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view_note: Option<String>,
    /// Classes extracted.
    pub classes: usize,
    /// Entries of the requested jars that could not be extracted.
    pub problems: Vec<String>,
    /// Seconds spent resolving and downloading.
    pub resolve_seconds: f64,
    /// Seconds spent extracting.
    pub extract_seconds: f64,
}

/// The outcome of a fetch: the extracted API and what to write beside it.
#[derive(Debug)]
pub struct Fetched {
    /// API JSON documents of the requested artifacts.
    pub docs: Vec<ClassDoc>,
    /// The compile classpath (requested jars first, then dependencies).
    pub classpath: Vec<PathBuf>,
    /// The record for `fetch.json`.
    pub record: FetchRecord,
    /// The requested artifacts, resolved (for naming the output directory).
    pub roots: Vec<Coordinate>,
    /// Extraction problems.
    pub problems: Vec<ExtractProblem>,
    /// Documentation pages skipped (with `api_from_docs`).
    pub doc_problems: Vec<crate::docs::DocProblem>,
    /// Warnings about the fetch as a whole (optional dependencies left off the classpath).
    pub notes: Vec<String>,
}

impl Fetched {
    /// The default name of the output directory: `<artifact>-<version>` of the requested
    /// artifacts, joined by `+`.
    pub fn default_name(&self) -> String {
        self.roots
            .iter()
            .map(|c| {
                format!(
                    "{}-{}",
                    c.artifact,
                    c.version.as_deref().unwrap_or("unknown")
                )
            })
            .collect::<Vec<_>>()
            .join("+")
    }
}

/// The jars of `coords` with their dependencies (downloaded into the cache when missing), as
/// a fetch puts them on the programs' classpath, without extracting any API.
pub fn classpath(coords: &[Coordinate], opts: &FetchOptions) -> Result<Vec<PathBuf>, FetchError> {
    if coords.is_empty() {
        return Err(FetchError::Empty);
    }
    let config = RepoConfig::discover(&opts.repos)?;
    let mut notes = Vec::new();
    let (_, fetched) = resolve_and_download(coords, opts, &config, &mut notes)?;
    Ok(fetched.into_iter().map(|f| f.jar).collect())
}

/// Resolves `coords` and downloads their jars (and javadoc when asked): with the requested
/// artifacts' optional dependencies when `opts` wants them and they resolve, else without
/// them and a note in `notes` that says so.
fn resolve_and_download(
    coords: &[Coordinate],
    opts: &FetchOptions,
    config: &RepoConfig,
    notes: &mut Vec<String>,
) -> Result<(crate::maven::Resolution, Vec<FetchedArtifact>), FetchError> {
    let with_docs = opts.docs || opts.api_from_docs;
    let resolve = |follow_root_optional: bool| -> Result<_, MavenError> {
        let resolver = Resolver::new(
            config.clone(),
            ResolverOptions {
                progress: opts.progress,
                follow_root_optional,
                ..ResolverOptions::default()
            },
        )?;
        let resolution = resolver.resolve(coords)?;
        let fetched = resolver.fetch(&resolution, with_docs)?;
        Ok((resolution, fetched))
    };
    Ok(match opts.optional_deps.then(|| resolve(true)) {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            notes.push(format!(
                "the requested artifacts' optional and provided dependencies are not on the \
                 classpath (programs naming their classes will not compile): {e}"
            ));
            resolve(false)?
        }
        None => resolve(false)?,
    })
}

/// Resolves and downloads `coords` with their dependencies and extracts the API of the
/// requested artifacts, using the dependencies and the JDK as context.
pub fn fetch(coords: &[Coordinate], opts: &FetchOptions) -> Result<Fetched, FetchError> {
    if coords.is_empty() {
        return Err(FetchError::Empty);
    }
    let t0 = Instant::now();
    let config = RepoConfig::discover(&opts.repos)?;
    let mut notes = Vec::new();
    let (resolution, fetched) = resolve_and_download(coords, opts, &config, &mut notes)?;
    let resolve_seconds = t0.elapsed().as_secs_f64();

    let t1 = Instant::now();
    let root_keys: Vec<String> = resolution
        .roots
        .iter()
        .map(|r| r.coordinate.conflict_key())
        .collect();
    let is_root =
        |f: &FetchedArtifact| opts.with_deps || root_keys.contains(&f.coordinate.conflict_key());
    if opts.api_from_docs {
        let mut docs = Vec::new();
        let mut doc_problems = Vec::new();
        for f in fetched.iter().filter(|f| is_root(f)) {
            let Some(jar) = &f.javadoc else {
                // a requested artifact must have documentation; a dependency (`--with-deps`)
                // without any is left out, with a problem that says so
                if root_keys.contains(&f.coordinate.conflict_key()) {
                    return Err(FetchError::Docs {
                        coordinate: f.coordinate.gav(),
                        reason: "no -javadoc.jar is published".into(),
                    });
                }
                doc_problems.push(crate::docs::DocProblem {
                    page: f.coordinate.gav(),
                    reason: "no -javadoc.jar is published: its API is left out".into(),
                });
                continue;
            };
            let x = crate::docs::extract_docs(jar).map_err(|e| FetchError::Docs {
                coordinate: f.coordinate.gav(),
                reason: e.to_string(),
            })?;
            if x.docs.is_empty() {
                return Err(FetchError::Docs {
                    coordinate: f.coordinate.gav(),
                    reason: format!(
                        "{}: no class page of a known documentation layout (javadoc of JDK \
                         8-15, 16-20 or 21+, Scaladoc 2 or 3, Dokka; {} pages skipped)",
                        jar.display(),
                        x.problems.len()
                    ),
                });
            }
            for mut p in x.problems {
                p.page = format!("{}!{}", jar.display(), p.page);
                doc_problems.push(p);
            }
            docs.extend(x.docs);
        }
        docs.sort_by(|a, b| a.name.cmp(&b.name));
        docs.dedup_by(|a, b| a.name == b.name);
        let extraction = bytecode::Extraction {
            docs,
            ..bytecode::Extraction::default()
        };
        let mut out = finish(
            coords,
            &config,
            &resolution,
            &fetched,
            extraction,
            doc_problems,
            "javadoc",
            resolve_seconds,
            t1,
        );
        out.record.notes.clone_from(&notes);
        out.notes = notes;
        return Ok(out);
    }
    let root_jars: Vec<&Path> = fetched
        .iter()
        .filter(|f| is_root(f))
        .map(|f| f.jar.as_path())
        .collect();
    let dep_jars: Vec<&Path> = fetched
        .iter()
        .filter(|f| !is_root(f))
        .map(|f| f.jar.as_path())
        .collect();
    let mut context_paths: Vec<PathBuf> = dep_jars.iter().map(|p| p.to_path_buf()).collect();
    let java_home = opts.java_home.clone().or_else(bytecode::find_java_home);
    let mut pool_archives = Vec::new();
    if let Some(home) = &java_home {
        if let Ok(archives) = bytecode::read_jdk(home, &["java.base"]) {
            pool_archives.extend(archives);
        }
    }
    for p in &context_paths {
        if let Ok(a) = bytecode::read_path(p) {
            pool_archives.push(a);
        }
    }
    context_paths.clear();
    // the classes a compiler sees: every module of the JDK, the dependencies, the roots
    let mut avail = None;
    if let Some(home) = &java_home {
        if let Ok(jdk) = bytecode::read_jdk(home, &[]) {
            let mut a = Availability::default();
            a.add(&jdk);
            a.add(&pool_archives);
            for p in &root_jars {
                if let Ok(r) = bytecode::read_path(p) {
                    a.add(std::slice::from_ref(&r));
                }
            }
            avail = Some(a);
        }
    }
    let (pool, _) = ClassPool::from_archives(pool_archives);
    let ext_opts = ExtractOptions {
        context: Some(Arc::new(pool)),
        ..ExtractOptions::default()
    };
    let extraction = if root_jars.is_empty() {
        bytecode::Extraction::default()
    } else {
        bytecode::extract_paths(&root_jars, &ext_opts)?
    };
    let (mut extraction, view, view_note) =
        apply_view(extraction, &root_jars, &fetched, opts, ext_opts)?;
    match &avail {
        Some(a) => notes.extend(a.prune(&mut extraction.docs).note()),
        None => notes.push(
            "no JDK whose modules could be read: classes and members naming classes that are \
             not on the classpath are kept"
                .into(),
        ),
    }
    let mut fetched_out = finish(
        coords,
        &config,
        &resolution,
        &fetched,
        extraction,
        Vec::new(),
        "bytecode",
        resolve_seconds,
        t1,
    );
    fetched_out.record.view = view.into();
    fetched_out.record.view_note = view_note;
    fetched_out.record.notes.clone_from(&notes);
    fetched_out.notes = notes;
    Ok(fetched_out)
}

/// True for the artifacts of Scala's standard library (which every Scala library needs).
fn is_scala_library(f: &FetchedArtifact) -> bool {
    f.coordinate.group == "org.scala-lang"
        && (f.coordinate.artifact == "scala-library"
            || f.coordinate.artifact.starts_with("scala3-library"))
}

/// The view the fetch writes: the Java view as extracted, or the Kotlin view of the same
/// jars; with its name and, for a Scala library under auto, a note.
fn apply_view(
    extraction: bytecode::Extraction,
    root_jars: &[&Path],
    fetched: &[FetchedArtifact],
    opts: &FetchOptions,
    ext_opts: ExtractOptions,
) -> Result<(bytecode::Extraction, &'static str, Option<String>), FetchError> {
    use crate::view::View;
    let scala_lib = fetched.iter().any(is_scala_library);
    let kotlin = match opts.view {
        View::Java => return Ok((extraction, "java", None)),
        View::Kotlin => true,
        View::Scala => false,
        View::Auto => {
            if opts.auto_views.kotlin && crate::kotlin::has_kotlin(&extraction) {
                true
            } else if opts.auto_views.scala && scala_lib && crate::scala::has_scala(root_jars) {
                false
            } else {
                return Ok((extraction, "java", None));
            }
        }
    };
    if root_jars.is_empty() {
        return Ok((extraction, "java", None));
    }
    if kotlin {
        let kopts = crate::kotlin::KotlinOptions {
            repos: opts.repos.clone(),
            java_home: opts.java_home.clone(),
            extract: ext_opts,
        };
        let (x, _) = crate::kotlin::kotlin_view(extraction, root_jars, &kopts)?;
        return Ok((x, "kotlin", None));
    }
    // the Scala view: the other fetched jars are the compiler's class path
    let roots: std::collections::HashSet<&Path> = root_jars.iter().copied().collect();
    let sopts = crate::scala::ScalaOptions {
        repos: opts.repos.clone(),
        java_home: opts.java_home.clone(),
        classpath: fetched
            .iter()
            .map(|f| f.jar.clone())
            .filter(|j| !roots.contains(j.as_path()))
            .collect(),
        extract: ext_opts,
    };
    let (x, _) = crate::scala::scala_view(extraction, root_jars, &sopts)?;
    Ok((x, "scala", None))
}

/// The record and outcome of a fetch once its API is extracted.
#[allow(clippy::too_many_arguments)]
fn finish(
    coords: &[Coordinate],
    config: &RepoConfig,
    resolution: &crate::maven::Resolution,
    fetched: &[FetchedArtifact],
    extraction: bytecode::Extraction,
    doc_problems: Vec<crate::docs::DocProblem>,
    api_source: &str,
    resolve_seconds: f64,
    t1: Instant,
) -> Fetched {
    let extract_seconds = t1.elapsed().as_secs_f64();

    let by_key = |key: &str| {
        resolution
            .artifacts
            .iter()
            .find(|a| a.coordinate.conflict_key() == key)
    };
    let artifacts = fetched
        .iter()
        .map(|f| {
            let r = by_key(&f.coordinate.conflict_key());
            ArtifactRecord {
                coordinate: f.coordinate.gav(),
                scope: r.map_or("compile".into(), |r| {
                    format!("{:?}", r.scope).to_lowercase()
                }),
                depth: r.map_or(0, |r| r.depth),
                path: r.map_or_else(Vec::new, |r| r.path.clone()),
                repository: f.repository.clone(),
                jar: f.jar.clone(),
                sha1: f.sha1.clone(),
                javadoc: f.javadoc.clone(),
            }
        })
        .collect();
    let record = FetchRecord {
        tool: format!("thalia {}", env!("CARGO_PKG_VERSION")),
        notes: Vec::new(),
        requested: coords.iter().map(ToString::to_string).collect(),
        resolved: resolution
            .roots
            .iter()
            .map(|r| r.coordinate.gav())
            .collect(),
        artifacts,
        conflicts: resolution
            .conflicts
            .iter()
            .map(|c| format!("{} (chose {})", c.rejected, c.chosen))
            .collect(),
        repositories: config.repositories.iter().map(|r| r.url.clone()).collect(),
        cache: config.cache.clone(),
        api_source: api_source.into(),
        view: "java".into(),
        view_note: None,
        classes: extraction.docs.len(),
        problems: extraction
            .problems
            .iter()
            .map(|p| format!("{}: {}: {}", p.jar.display(), p.entry, p.reason))
            .collect(),
        resolve_seconds,
        extract_seconds,
    };
    Fetched {
        docs: extraction.docs,
        classpath: fetched.iter().map(|f| f.jar.clone()).collect(),
        record,
        roots: resolution
            .roots
            .iter()
            .map(|r| r.coordinate.clone())
            .collect(),
        problems: extraction.problems,
        doc_problems,
        notes: Vec::new(),
    }
}

/// Writes a fetch into `dir`: one API JSON file per class, `classpath.txt` (the jars joined
/// by the platform's path separator, on one line) and `fetch.json`.
pub fn write_fetched(dir: &Path, f: &Fetched) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for d in &f.docs {
        crate::write_class_doc(dir, d)?;
    }
    let sep = if cfg!(windows) { ";" } else { ":" };
    let cp: Vec<String> = f
        .classpath
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    std::fs::write(dir.join("classpath.txt"), cp.join(sep) + "\n")?;
    let json = serde_json::to_string_pretty(&f.record).unwrap_or_default();
    std::fs::write(dir.join("fetch.json"), json + "\n")
}
