//! `thalia fetch` and `thalia extract`: APIs from Maven artifacts, jars and the JDK.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use thalia_extractors::bytecode::{self, ClassPool, ExtractOptions};
use thalia_extractors::fetch::{self, FetchOptions};
use thalia_extractors::maven::Coordinate;
use thalia_extractors::view::View;

use super::progress;

#[derive(Args, Debug)]
pub(super) struct FetchArgs {
    /// Coordinates `group:artifact[:version]`.
    #[arg(required = true)]
    coords: Vec<String>,
    /// Output directory (default: `<artifact>-<version>/` in the user's cache,
    /// `~/.cache/thalia/api/` or `THALIA_APIS`, named `--api @<artifact>-<version>` then).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// A repository to use (URL, `file://` URL or directory; repeatable). With any `--repo`,
    /// only the given repositories are used.
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
    /// Write the API from the requested artifacts' `-javadoc.jar` (the documentation
    /// extractor) instead of their jars' bytecode; the javadoc jars are downloaded too.
    #[arg(long)]
    docs: bool,
    /// Extract the dependencies' API too, so that members inherited from their classes are
    /// resolved (by default they only serve as context).
    #[arg(long)]
    with_deps: bool,
    /// Leave the requested artifacts' own optional and `provided` dependencies off the
    /// classpath (Maven's view of a dependency; by default they are on it, since the API's
    /// signatures name their classes)
    #[arg(long)]
    no_optional_deps: bool,
    /// Only resolve and download the jars, and print the programs' classpath (the jars with
    /// their dependencies, joined like `CLASSPATH`) on standard output: no API is extracted
    /// and nothing is written (a finding's `repro.sh` uses it).
    #[arg(long, conflicts_with_all = ["out", "docs", "with_deps"])]
    classpath_only: bool,
    /// With `--classpath-only`: the classpath for programs compiled by this compiler
    /// (`kotlin`, `scala3`, ...), without the language library jars it puts there itself.
    #[arg(long = "for", value_name = "COMPILER", requires = "classpath_only")]
    for_compiler: Option<String>,
    /// Which language's view of the library to write: auto (Kotlin when its classes carry
    /// `kotlin.Metadata`, Scala for a Scala library with TASTy or Scala 2 signatures, else
    /// Java), java, kotlin or scala.
    #[arg(long, default_value = "auto", value_name = "VIEW")]
    view: View,
}

#[derive(Args, Debug)]
pub(super) struct ExtractArgs {
    /// Jars, jmods or directories of class files to extract (together, as one set).
    inputs: Vec<PathBuf>,
    /// Extract from documentation instead: a folder of javadoc, Scaladoc or Dokka HTML, a
    /// `-javadoc.jar`, or the http(s) URL of a published documentation site.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["inputs", "jdk", "context"])]
    docs: Option<PathBuf>,
    /// Extract the JDK's public API instead (its exported packages).
    #[arg(long)]
    jdk: bool,
    /// JDK modules to extract with `--jdk` (repeatable; default: java.base).
    #[arg(long = "module", value_name = "MODULE")]
    modules: Vec<String>,
    /// The JDK to read with `--jdk` (default: JAVA_HOME, else the `java` on PATH).
    #[arg(long)]
    java_home: Option<PathBuf>,
    /// Jars consulted for supertypes but not extracted (e.g. the library's dependencies).
    #[arg(long, value_name = "JAR")]
    context: Vec<PathBuf>,
    /// Output directory (created if missing).
    #[arg(long, short)]
    out: PathBuf,
    /// Which language's view to write: auto (Kotlin when the classes carry
    /// `kotlin.Metadata`, Scala when they carry TASTy or Scala 2 signatures, else Java),
    /// java, kotlin or scala (the `--context` jars are the Scala compiler's class path).
    #[arg(long, default_value = "auto", value_name = "VIEW")]
    view: View,
}

/// Prints the problems met while reading archives.
fn warn(problems: &[bytecode::ExtractProblem]) {
    for p in problems {
        eprintln!("warning: {}: {}: {}", p.jar.display(), p.entry, p.reason);
    }
}

pub(super) fn fetch(args: FetchArgs) -> Result<ExitCode> {
    let coords = args
        .coords
        .iter()
        .map(|c| c.parse::<Coordinate>())
        .collect::<Result<Vec<_>, _>>()?;
    let opts = FetchOptions {
        repos: args.repos.clone(),
        docs: args.docs,
        api_from_docs: args.docs,
        progress: progress(),
        java_home: None,
        with_deps: args.with_deps,
        view: args.view,
        auto_views: thalia_extractors::view::AutoViews::ALL,
        optional_deps: !args.no_optional_deps,
    };
    if args.classpath_only {
        return print_classpath(&coords, &opts, args.for_compiler.as_deref());
    }
    let default_root = match &args.out {
        Some(_) => None,
        None => {
            let root = thalia::api::fetched_apis_dir();
            if thalia::embedded::is_corpus_folder(&root) {
                bail!(
                    "THALIA_APIS names the embedded corpus folder {}: the next build would embed what \
                     fetch writes there; give --out to write into it on purpose",
                    root.display()
                );
            }
            Some(root)
        }
    };
    let fetched = match fetch::fetch(&coords, &opts) {
        Ok(f) => f,
        Err(e) => match missing_hint(&coords, &args.repos) {
            Some(hint) => bail!("{e}\n{hint}"),
            None => return Err(e.into()),
        },
    };
    let name = fetched.default_name();
    let out = args.out.clone().unwrap_or_else(|| {
        default_root
            .as_deref()
            .unwrap_or(Path::new("."))
            .join(&name)
    });
    fetch::write_fetched(&out, &fetched)
        .with_context(|| format!("cannot write the API into {}", out.display()))?;
    warn(&fetched.problems);
    for p in &fetched.doc_problems {
        eprintln!("warning: {p}");
    }
    for n in &fetched.notes {
        eprintln!("warning: {n}");
    }
    let r = &fetched.record;
    if let Some(note) = &r.view_note {
        eprintln!("note: {note}");
    }
    eprintln!("view: {}", r.view);
    eprintln!(
        "fetched {} ({} artifacts on the classpath) in {:.2}s; extracted {} classes from {} in {:.2}s into {}",
        r.resolved.join(", "),
        r.artifacts.len(),
        r.resolve_seconds,
        r.classes,
        r.api_source,
        r.extract_seconds,
        out.display()
    );
    eprintln!(
        "classpath: {}; record: {}",
        out.join("classpath.txt").display(),
        out.join("fetch.json").display()
    );
    if default_root.is_some() {
        eprintln!("use it with --api @{name} (or --api {})", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the classpath of `coords` (`thalia fetch --classpath-only`), for programs compiled
/// by `compiler` when one is named.
fn print_classpath(
    coords: &[Coordinate],
    opts: &FetchOptions,
    compiler: Option<&str>,
) -> Result<ExitCode> {
    let tool = compiler
        .map(|name| {
            thalia::profile::Tool::from_name(name)
                .with_context(|| format!("--for {name}: no such compiler"))
        })
        .transpose()?;
    let jars = match fetch::classpath(coords, opts) {
        Ok(j) => j,
        Err(e) => match missing_hint(coords, &opts.repos) {
            Some(hint) => bail!("{e}\n{hint}"),
            None => return Err(e.into()),
        },
    };
    let joined = std::env::join_paths(&jars).context("a jar's path cannot be on a classpath")?;
    let joined = joined.to_string_lossy();
    let cp = match tool {
        Some(t) => thalia::api::library::without_language_jars(t, &joined),
        None => joined.into_owned(),
    };
    println!("{cp}");
    Ok(ExitCode::SUCCESS)
}

/// Artifacts suggested for a misspelt one.
const SUGGESTIONS: usize = 5;

/// Edits (Damerau-Levenshtein) within which an artifact of the same group is suggested for a
/// misspelt one, however short the names.
const SUGGESTION_EDITS: usize = 2;

/// Similarity (normalized Damerau-Levenshtein of `group:artifact`, 0 to 1) above which a
/// known artifact is suggested for a misspelt one.
const SUGGESTION_SIMILARITY: f64 = 0.85;

/// What to tell the user when fetching `coords` failed because one does not exist: the
/// nearest releases of an artifact whose version is wrong, or the artifacts of its group
/// that look like a misspelt one. `None` when every coordinate exists (or the repositories
/// cannot be asked).
fn missing_hint(coords: &[Coordinate], repos: &[String]) -> Option<String> {
    use thalia_extractors::maven::{MavenError, RepoConfig, Resolver, ResolverOptions};
    let config = RepoConfig::discover(repos).ok()?;
    let resolver = Resolver::new(config, ResolverOptions::default()).ok()?;
    let mut hints = Vec::new();
    for c in coords {
        match resolver.metadata(&c.group, &c.artifact) {
            Ok(meta) => {
                let Some(v) = c.version.as_deref() else {
                    continue;
                };
                if meta.versions.iter().any(|x| x == v) {
                    continue;
                }
                let near = thalia::profile::nearest_versions(
                    &meta.versions,
                    v,
                    thalia::profile::NEAREST_SHOWN,
                );
                hints.push(format!(
                    "{}:{} has no release {v}; nearest releases: {} (newest: {})",
                    c.group,
                    c.artifact,
                    near.join(", "),
                    meta.latest_release().unwrap_or("none listed")
                ));
            }
            Err(MavenError::NotFound { .. }) => {
                // known artifacts: the group's in the cache and repository listings, the
                // default batch list's and the embedded API's libraries
                let mut known: std::collections::BTreeSet<String> = resolver
                    .group_artifacts(&c.group)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|a| format!("{}:{a}", c.group))
                    .collect();
                let listed = include_str!("../../maven-list.txt")
                    .lines()
                    .map(str::to_string)
                    .chain(thalia::embedded::embedded_coordinates(None));
                for line in listed {
                    let mut parts = line.trim().split(':');
                    if let (Some(g), Some(a)) = (parts.next(), parts.next()) {
                        if !g.starts_with('#') && !g.is_empty() && !a.is_empty() {
                            known.insert(format!("{g}:{a}"));
                        }
                    }
                }
                let wanted = format!("{}:{}", c.group, c.artifact);
                let mut scored: Vec<(f64, &String)> = known
                    .iter()
                    .map(|ga| (strsim::normalized_damerau_levenshtein(ga, &wanted), ga))
                    .filter(|(s, ga)| {
                        let same_group = ga
                            .strip_prefix(c.group.as_str())
                            .and_then(|r| r.strip_prefix(':'));
                        *s >= SUGGESTION_SIMILARITY
                            || same_group.is_some_and(|a| {
                                a.contains(c.artifact.as_str())
                                    || c.artifact.contains(a)
                                    || strsim::damerau_levenshtein(a, &c.artifact)
                                        <= SUGGESTION_EDITS
                            })
                    })
                    .collect();
                scored.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| x.1.cmp(y.1)));
                let names: Vec<String> = scored
                    .iter()
                    .take(SUGGESTIONS)
                    .map(|(_, ga)| ga.to_string())
                    .collect();
                hints.push(if names.is_empty() {
                    format!(
                        "no artifact {}:{} in the repositories (check the group and artifact names)",
                        c.group, c.artifact
                    )
                } else {
                    format!(
                        "no artifact {}:{} in the repositories; did you mean {}?",
                        c.group,
                        c.artifact,
                        names.join(", ")
                    )
                });
            }
            Err(_) => {}
        }
    }
    (!hints.is_empty()).then(|| hints.join("\n"))
}

/// `thalia extract --docs PATH`: the documentation extractor.
fn extract_docs(path: &Path, out: &Path) -> Result<ExitCode> {
    let x = match path.to_str().filter(|s| thalia_extractors::docs::is_url(s)) {
        Some(url) => thalia_extractors::docs::extract_url(url)
            .with_context(|| format!("cannot extract the documentation site {url}"))?,
        None => thalia_extractors::docs::extract_docs(path)
            .with_context(|| format!("cannot extract the documentation {}", path.display()))?,
    };
    for p in &x.problems {
        eprintln!("warning: {}: {p}", path.display());
    }
    let written = thalia_extractors::write_class_docs(out, &x.docs)?;
    let s = &x.stats;
    let layouts: Vec<String> = s.layouts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    eprintln!(
        "extracted {} classes ({} methods, {} constructors, {} fields) from {} pages ({}) into {} in {:.2}s; {} problems",
        written,
        s.methods,
        s.constructors,
        s.fields,
        s.pages,
        if layouts.is_empty() { "no class pages".to_string() } else { layouts.join(", ") },
        out.display(),
        s.elapsed.as_secs_f64(),
        x.problems.len()
    );
    if written == 0 {
        bail!(
            "{}: no class page of a known documentation layout",
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn extract(args: ExtractArgs) -> Result<ExitCode> {
    if let Some(docs) = &args.docs {
        return extract_docs(docs, &args.out);
    }
    let t0 = std::time::Instant::now();
    let mut opts = ExtractOptions::default();
    if !args.context.is_empty() {
        let paths: Vec<&Path> = args.context.iter().map(PathBuf::as_path).collect();
        let (pool, problems) = ClassPool::read(&paths)?;
        warn(&problems);
        opts.context = Some(std::sync::Arc::new(pool));
    }
    let extraction = if args.jdk {
        if !args.inputs.is_empty() {
            bail!("give either --jdk or input files, not both");
        }
        let home = match args.java_home.clone() {
            Some(h) => h,
            None => bytecode::find_java_home()
                .context("cannot find a JDK: set JAVA_HOME or pass --java-home")?,
        };
        let modules: Vec<&str> = if args.modules.is_empty() {
            vec!["java.base"]
        } else {
            args.modules.iter().map(String::as_str).collect()
        };
        bytecode::extract_jdk(&home, &modules, &opts)
            .with_context(|| format!("cannot extract the JDK at {}", home.display()))?
    } else {
        if args.inputs.is_empty() {
            bail!("nothing to extract: give jars, jmods or class directories, or --jdk");
        }
        let paths: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
        let java = bytecode::extract_paths(&paths, &opts)?;
        let kotlin = match args.view {
            View::Java | View::Scala => false,
            View::Kotlin => true,
            View::Auto => thalia_extractors::kotlin::has_kotlin(&java),
        };
        let scala = match args.view {
            View::Scala => true,
            View::Auto => !kotlin && thalia_extractors::scala::has_scala(&paths),
            View::Java | View::Kotlin => false,
        };
        if scala {
            let sopts = thalia_extractors::scala::ScalaOptions {
                classpath: args.context.clone(),
                java_home: args.java_home.clone(),
                extract: opts,
                ..Default::default()
            };
            let (x, s) = thalia_extractors::scala::scala_view(java, &paths, &sopts)
                .context("cannot extract the Scala view")?;
            eprintln!(
                "scala view: {} top-level names read as Scala, {} classes, {} methods ({} constructors, {} extensions), {} fields; {} members skipped; {} Java documents kept; helper {:.2}s",
                s.scala_tops,
                s.classes,
                s.methods,
                s.constructors,
                s.extensions,
                s.fields,
                s.skipped_members,
                s.java_classes,
                s.helper_time.as_secs_f64()
            );
            x
        } else if kotlin {
            let kopts = thalia_extractors::kotlin::KotlinOptions {
                extract: opts,
                ..Default::default()
            };
            let (x, k) = thalia_extractors::kotlin::kotlin_view(java, &paths, &kopts)
                .context("cannot extract the Kotlin view")?;
            eprintln!(
                "kotlin view: {} classes, {} packages of top-level members, {} functions, {} constructors, {} properties ({} extensions), {} type aliases; {} Java documents kept; helper {:.2}s",
                k.classes,
                k.packages,
                k.functions,
                k.constructors,
                k.properties,
                k.extensions,
                k.type_aliases,
                k.java_classes,
                k.helper_time.as_secs_f64()
            );
            x
        } else {
            java
        }
    };
    warn(&extraction.problems);
    let written = thalia_extractors::write_class_docs(&args.out, &extraction.docs)?;
    let s = &extraction.stats;
    eprintln!(
        "extracted {} classes ({} methods, {} constructors, {} fields) from {} class files into {} in {:.2}s; {} problems",
        written,
        s.methods,
        s.constructors,
        s.fields,
        s.class_files,
        args.out.display(),
        t0.elapsed().as_secs_f64(),
        extraction.problems.len()
    );
    Ok(ExitCode::SUCCESS)
}
