//! The language library of a compiler release: the standard library whose API the programs
//! for that release use (kotlin-stdlib N for kotlinc N, scala-library 2.13.N for scalac
//! 2.13.N, scala3-library N and its scala-library for Scala 3 N), embedded when `api-json/`
//! holds that release's view, else fetched once per release into the fetched-API cache.

use std::path::{Path, PathBuf};

use thalia_extractors::ClassDoc;

use super::source::{fetched_apis_dir, ApiSourceError};
use crate::embedded;
use crate::profile::Tool;

/// Where a language library's API comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibraryApi {
    /// An embedded corpus of that name (the newest release's view, shipped in `api-json/`).
    Embedded(String),
    /// A directory `thalia fetch` wrote (in [`fetched_apis_dir`]).
    Fetched(PathBuf),
}

/// The standard library of one compiler release, as an API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageLibrary {
    /// Its name, `<artifact>-<version>` (`kotlin-stdlib-1.8.21`): the embedded corpus or the
    /// fetched API of that name.
    pub name: String,
    /// Where its API is.
    pub api: LibraryApi,
}

/// What a compiler release's language library is: its name, the coordinates to fetch, and
/// whether their dependencies' API is part of it (Scala 3's library and the scala-library it
/// depends on); `None` for a compiler without one of its own (javac, groovyc).
pub fn library_coordinates(tool: Tool, version: &str) -> Option<(String, Vec<String>, bool)> {
    let (group, artifact, with_deps) = match tool {
        Tool::Kotlin => ("org.jetbrains.kotlin", "kotlin-stdlib", false),
        Tool::Scala2 => ("org.scala-lang", "scala-library", false),
        Tool::Scala3 => ("org.scala-lang", "scala3-library_3", true),
        Tool::Javac | Tool::Groovy => return None,
    };
    Some((
        format!("{artifact}-{version}"),
        vec![format!("{group}:{artifact}:{version}")],
        with_deps,
    ))
}

/// Whether the jar file `name` is a language library of `tool` that a compiler of that
/// language puts on the classpath itself (`kotlin-stdlib-1.6.0.jar`,
/// `kotlin-stdlib-jdk8-1.6.0.jar`, `scala-library-2.13.10.jar`,
/// `scala3-library_3-3.3.0.jar`): a library built with another release carries its own, which
/// must not shadow the compiler's.
pub fn is_language_jar(tool: Tool, name: &str) -> bool {
    let prefixes: &[&str] = match tool {
        Tool::Kotlin => &["kotlin-stdlib-"],
        Tool::Scala2 => &["scala-library-"],
        Tool::Scala3 => &["scala-library-", "scala3-library_3-"],
        Tool::Javac | Tool::Groovy => &[],
    };
    name.ends_with(".jar") && prefixes.iter().any(|p| name.starts_with(p))
}

/// `classpath` (entries joined by the platform's separator) without the language library jars
/// of `tool` ([`is_language_jar`]).
pub fn without_language_jars(tool: Tool, classpath: &str) -> String {
    let kept: Vec<PathBuf> = std::env::split_paths(classpath)
        .filter(|p| {
            !p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| is_language_jar(tool, n))
        })
        .collect();
    std::env::join_paths(kept)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| classpath.to_string())
}

/// The language library of `tool` release `version`: the embedded corpus of that name, else
/// the API fetched before into [`fetched_apis_dir`], else fetched now (resolved through
/// `repos` and the user's Maven settings, extracted with the language's view and kept there
/// for the next run). `None` for a compiler without a language library.
pub fn for_release(
    tool: Tool,
    version: &str,
    repos: &[String],
    progress: bool,
) -> Result<Option<LanguageLibrary>, ApiSourceError> {
    let Some((name, coords, with_deps)) = library_coordinates(tool, version) else {
        return Ok(None);
    };
    if embedded::embedded_corpora().contains(&name) {
        return Ok(Some(LanguageLibrary {
            api: LibraryApi::Embedded(name.clone()),
            name,
        }));
    }
    let dir = fetched_apis_dir().join(&name);
    if !is_complete(&dir) {
        if dir.join("fetch.json").is_file() {
            eprintln!(
                "language library: {} was extracted by an older thalia (view format {}, now {VIEW_FORMAT}): extracting it again",
                dir.display(),
                view_format(&dir).map_or("1".to_string(), |v| v.to_string()),
            );
        }
        fetch_into(&dir, &coords, with_deps, repos, progress)?;
    }
    Ok(Some(LanguageLibrary {
        api: LibraryApi::Fetched(dir),
        name,
    }))
}

/// The version of the facts a language library's view holds; raise it whenever the
/// extractors add facts that synthesis relies on, so that views kept from an older thalia are
/// extracted again. 2: Kotlin opt-in facts per member (`opt_in`), Kotlin builtins; 3: Scala
/// 3's `@experimental` and context function types (`?=>`).
pub const VIEW_FORMAT: u32 = 3;

/// The file in a fetched language library's directory that holds its [`VIEW_FORMAT`].
const VIEW_FORMAT_FILE: &str = "view-format";

/// Whether `dir` holds a finished fetch (its `fetch.json` is written last) of the current
/// [`VIEW_FORMAT`].
fn is_complete(dir: &Path) -> bool {
    dir.join("fetch.json").is_file() && view_format(dir) == Some(VIEW_FORMAT)
}

/// The view format `dir` was written with (`None`: before formats were recorded, or
/// unreadable).
fn view_format(dir: &Path) -> Option<u32> {
    std::fs::read_to_string(dir.join(VIEW_FORMAT_FILE))
        .ok()
        .and_then(|s| s.trim().parse().ok())
}

/// Fetches `coords` into `dir` through a scratch directory renamed into place, so that an
/// interrupted fetch leaves no half-written API and two runs fetching at once both end with
/// a whole one.
fn fetch_into(
    dir: &Path,
    coords: &[String],
    with_deps: bool,
    repos: &[String],
    progress: bool,
) -> Result<(), ApiSourceError> {
    let fail = |reason: String| ApiSourceError::Library {
        name: coords.join(" "),
        reason,
    };
    let parsed = coords
        .iter()
        .map(|c| c.parse::<thalia_extractors::maven::Coordinate>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(e.to_string()))?;
    eprintln!(
        "language library: fetching {} into {} (once per release)",
        coords.join(", "),
        dir.display()
    );
    let opts = thalia_extractors::fetch::FetchOptions {
        repos: repos.to_vec(),
        progress,
        with_deps,
        auto_views: thalia_extractors::view::AutoViews::ALL,
        ..Default::default()
    };
    let fetched =
        thalia_extractors::fetch::fetch(&parsed, &opts).map_err(|e| fail(e.to_string()))?;
    let parent = dir.parent().unwrap_or(Path::new("."));
    let io = |e: std::io::Error| fail(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(parent).map_err(io)?;
    let scratch = tempfile::Builder::new()
        .prefix(".fetching-")
        .tempdir_in(parent)
        .map_err(io)?;
    thalia_extractors::fetch::write_fetched(scratch.path(), &fetched).map_err(io)?;
    std::fs::write(
        scratch.path().join(VIEW_FORMAT_FILE),
        format!("{VIEW_FORMAT}\n"),
    )
    .map_err(io)?;
    let scratch = scratch.keep();
    // a view of an older format is set aside first (and removed), so the new one takes its
    // place whole
    if dir.exists() && !is_complete(dir) {
        let old = parent.join(format!(
            ".stale-{}-{}",
            dir.file_name()
                .map_or("api".into(), |n| n.to_string_lossy()),
            std::process::id()
        ));
        if std::fs::rename(dir, &old).is_ok() {
            let _ = std::fs::remove_dir_all(&old);
        }
    }
    if let Err(e) = std::fs::rename(&scratch, dir) {
        let _ = std::fs::remove_dir_all(&scratch);
        // another run fetched the same release meanwhile
        if !is_complete(dir) {
            return Err(io(e));
        }
    }
    Ok(())
}

impl LanguageLibrary {
    /// The library's documents (the embedded corpus's, or the fetched directory's).
    pub fn docs(&self) -> Vec<(PathBuf, ClassDoc)> {
        match &self.api {
            LibraryApi::Embedded(name) => embedded::corpus_docs(name).unwrap_or_default(),
            LibraryApi::Fetched(dir) => thalia_extractors::read_api_dir(dir).0,
        }
    }

    /// Whether it is the embedded corpus that the embedded default API already includes.
    pub fn is_embedded(&self) -> bool {
        matches!(self.api, LibraryApi::Embedded(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_compiler_release_names_its_own_library() {
        let (name, coords, deps) = library_coordinates(Tool::Kotlin, "1.8.21").unwrap();
        assert_eq!(name, "kotlin-stdlib-1.8.21");
        assert_eq!(coords, ["org.jetbrains.kotlin:kotlin-stdlib:1.8.21"]);
        assert!(!deps);
        let (name, _, deps) = library_coordinates(Tool::Scala3, "3.3.0").unwrap();
        assert_eq!(name, "scala3-library_3-3.3.0");
        assert!(
            deps,
            "Scala 3's library comes with the scala-library it depends on"
        );
        assert_eq!(
            library_coordinates(Tool::Scala2, "2.13.10").unwrap().0,
            "scala-library-2.13.10"
        );
        assert!(library_coordinates(Tool::Javac, "17").is_none());
    }

    #[test]
    fn a_view_of_an_older_format_is_not_complete() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("fetch.json"), "{}").unwrap();
        assert!(
            !is_complete(d.path()),
            "no format recorded: an older thalia's"
        );
        std::fs::write(d.path().join(VIEW_FORMAT_FILE), "1\n").unwrap();
        assert!(!is_complete(d.path()));
        std::fs::write(d.path().join(VIEW_FORMAT_FILE), format!("{VIEW_FORMAT}\n")).unwrap();
        assert!(is_complete(d.path()));
        std::fs::remove_file(d.path().join("fetch.json")).unwrap();
        assert!(!is_complete(d.path()), "an unfinished fetch");
    }

    #[test]
    fn the_newest_release_uses_the_embedded_view() {
        let lib = for_release(Tool::Kotlin, "2.4.21", &[], false)
            .unwrap()
            .unwrap();
        assert_eq!(lib.api, LibraryApi::Embedded("kotlin-stdlib-2.4.21".into()));
        assert!(lib.docs().iter().any(|(_, d)| d.name == "kotlin.text"));
    }

    #[test]
    fn a_library_classpath_loses_its_own_standard_library() {
        let sep = if cfg!(windows) { ";" } else { ":" };
        let cp = [
            "/m/okio-jvm-3.9.0.jar",
            "/m/kotlin-stdlib-1.9.21.jar",
            "/m/kotlin-stdlib-jdk8-1.9.21.jar",
            "/m/annotations-13.0.jar",
        ]
        .join(sep);
        assert_eq!(
            without_language_jars(Tool::Kotlin, &cp),
            ["/m/okio-jvm-3.9.0.jar", "/m/annotations-13.0.jar"].join(sep)
        );
        let cp = [
            "/m/cats-core_3-2.10.0.jar",
            "/m/scala3-library_3-3.3.1.jar",
            "/m/scala-library-2.13.12.jar",
        ]
        .join(sep);
        assert_eq!(
            without_language_jars(Tool::Scala3, &cp),
            "/m/cats-core_3-2.10.0.jar"
        );
        // a Java compiler keeps everything
        assert_eq!(without_language_jars(Tool::Javac, &cp), cp);
    }
}
