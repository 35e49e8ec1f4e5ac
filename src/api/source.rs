//! Where a command's API comes from: the whole embedded API, one embedded corpus (`@NAME`), or
//! a directory of API JSON; and the library jars its programs need on the classpath.

use std::path::{Path, PathBuf};

use super::{Api, LoadError};
use crate::embedded;

/// An API as a user names it (`--api DIR`, `--api @NAME`, or nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiSource {
    /// The whole API embedded from `api-json/`.
    Embedded,
    /// One embedded corpus (`@java.base`).
    Corpus(String),
    /// A directory of API JSON files, searched recursively.
    Dir(PathBuf),
}

/// A problem finding or loading an API, or its programs' classpath.
#[derive(Debug, thiserror::Error)]
pub enum ApiSourceError {
    /// No embedded corpus (and no fetched API) has that name.
    #[error("no embedded or fetched API named `{name}` (embedded: {available}; fetched APIs are looked up in {})", fetched_apis_dir().display())]
    NoSuchCorpus {
        /// The name asked for.
        name: String,
        /// The embedded corpora.
        available: String,
    },
    /// The directory could not be loaded.
    #[error("cannot load API from {dir}: {source}")]
    Load {
        /// The directory.
        dir: PathBuf,
        /// Why.
        source: LoadError,
    },
    /// A `classpath.txt` could not be read.
    #[error("cannot read {path}: {source}")]
    Classpath {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A compiler release's language library could not be fetched or extracted.
    #[error("cannot fetch the language library {name}: {reason}")]
    Library {
        /// Its coordinates.
        name: String,
        /// Why.
        reason: String,
    },
    /// The embedded API's libraries could not be resolved.
    #[error("cannot resolve the jars of the embedded API's libraries (give --classpath): {0}")]
    Libraries(String),
}

/// The directory `thalia fetch` writes APIs into when no `--out` is given: `THALIA_APIS`,
/// else `<user cache dir>/thalia/api` (beside the toolchains and the Maven cache). An API
/// fetched there is named `@<artifact>-<version>` by `--api`.
pub fn fetched_apis_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("THALIA_APIS") {
        return PathBuf::from(d);
    }
    crate::toolchain::user_cache_dir()
        .join("thalia")
        .join("api")
}

impl ApiSource {
    /// The source a command-line `--api` value names (`None`: the embedded API). `@NAME` is
    /// an embedded corpus, or else an API fetched into [`fetched_apis_dir`] under that name.
    pub fn from_arg(arg: Option<&Path>) -> ApiSource {
        match arg {
            None => ApiSource::Embedded,
            Some(d) => match d.to_str().and_then(|s| s.strip_prefix('@')) {
                Some(name) => {
                    let fetched = fetched_apis_dir().join(name);
                    let plain = !name.is_empty()
                        && !name.contains(['/', '\\'])
                        && name != "."
                        && name != "..";
                    if plain
                        && !embedded::embedded_corpora().iter().any(|c| c == name)
                        && fetched.is_dir()
                    {
                        ApiSource::Dir(fetched)
                    } else {
                        ApiSource::Corpus(name.to_string())
                    }
                }
                None => ApiSource::Dir(d.to_path_buf()),
            },
        }
    }

    /// The source a recorded label names (the inverse of [`ApiSource::label`]).
    pub fn from_label(label: &str) -> ApiSource {
        if label == embedded::EMBEDDED_LABEL || label.is_empty() {
            ApiSource::Embedded
        } else {
            ApiSource::from_arg(Some(Path::new(label)))
        }
    }

    /// How the source is shown and recorded (`<embedded api-json>`, `@NAME` or the path).
    pub fn label(&self) -> String {
        match self {
            ApiSource::Embedded => embedded::EMBEDDED_LABEL.to_string(),
            ApiSource::Corpus(n) => format!("@{n}"),
            ApiSource::Dir(d) => d.display().to_string(),
        }
    }

    /// How `thalia synth --api` names the source (empty for the embedded API).
    pub fn arg(&self) -> String {
        match self {
            ApiSource::Embedded => String::new(),
            other => other.label(),
        }
    }

    /// Loads the API as it is (the embedded default: its Java corpora; a directory without
    /// context), for inspecting it (`thalia api`).
    pub fn load(&self) -> Result<Api, ApiSourceError> {
        self.load_plain(None, false)
    }

    /// Loads the API for programs of a language whose own API syntax is `native`: the
    /// embedded default then includes that language's corpora (Kotlin's standard library),
    /// a directory the Java platform's API as its context (`embedded::platform_library`), and for
    /// Kotlin the Java members' annotated-nullable types are nullable
    /// ([`Api::apply_kotlin_nullness`]).
    pub fn load_for(&self, native: Option<crate::types::Syntax>) -> Result<Api, ApiSourceError> {
        let mut api = self.load_plain(native, true)?;
        if native == Some(crate::types::Syntax::Kotlin) {
            api.apply_kotlin_nullness();
        }
        Ok(api)
    }

    /// [`ApiSource::load_for`] for programs compiled by `release` (a compiler and its
    /// version): the language library is that release's ([`super::library::for_release`],
    /// fetched once when the embedded view is another release's) wherever the API takes the
    /// language's standard library, in the embedded default (Kotlin's) and as the context of
    /// a Kotlin or Scala library. `repos` and `progress` are for the fetch.
    pub fn load_for_release(
        &self,
        native: Option<crate::types::Syntax>,
        release: (crate::profile::Tool, &str),
        repos: &[String],
        progress: bool,
    ) -> Result<Api, ApiSourceError> {
        let library = || super::library::for_release(release.0, release.1, repos, progress);
        let mut api = match (self, native) {
            (ApiSource::Embedded, Some(n)) if embedded::default_has_native_corpus(n) => {
                match library()? {
                    Some(lib) if !lib.is_embedded() => {
                        eprintln!(
                            "language library: {} (the API of {}@{})",
                            lib.name,
                            release.0.name(),
                            release.1
                        );
                        embedded::embedded_api_with_library(lib.docs())
                    }
                    _ => embedded::embedded_api_for(native),
                }
            }
            (ApiSource::Dir(dir), Some(n)) if n != crate::types::Syntax::Java => {
                let mut failed = None;
                let api = Api::load_dir_with_context(dir, |docs| {
                    let mut ctx = platform_context(dir, docs);
                    if !docs.iter().any(|(_, d)| d.language.as_deref() == Some(n.as_str())) {
                        return ctx;
                    }
                    ctx.extend(match library() {
                        Ok(Some(lib)) => {
                            eprintln!(
                                "{}: context: {} (the language library of {}@{}: its types and inhabitants; its members are not tested)",
                                dir.display(),
                                lib.name,
                                release.0.name(),
                                release.1
                            );
                            lib.docs()
                        }
                        Ok(None) => Vec::new(),
                        Err(e) => {
                            failed = Some(e);
                            Vec::new()
                        }
                    });
                    ctx
                })
                .map_err(|source| ApiSourceError::Load {
                    dir: dir.clone(),
                    source,
                })?;
                if let Some(e) = failed {
                    return Err(e);
                }
                api
            }
            _ => self.load_plain(native, true)?,
        };
        if native == Some(crate::types::Syntax::Kotlin) {
            api.apply_kotlin_nullness();
        }
        Ok(api)
    }

    /// [`ApiSource::load_for`] without Kotlin's view of Java's nullability annotations, and
    /// without the platform's context unless `platform`.
    fn load_plain(
        &self,
        native: Option<crate::types::Syntax>,
        platform: bool,
    ) -> Result<Api, ApiSourceError> {
        match self {
            ApiSource::Embedded => Ok(embedded::embedded_api_for(native)),
            ApiSource::Corpus(name) => {
                embedded::embedded_corpus(name).ok_or_else(|| ApiSourceError::NoSuchCorpus {
                    name: name.clone(),
                    available: embedded::embedded_corpora().join(", "),
                })
            }
            ApiSource::Dir(dir) => Api::load_dir_with_context(dir, |docs| {
                let mut ctx = if platform {
                    platform_context(dir, docs)
                } else {
                    Vec::new()
                };
                // a Kotlin or Scala library, for programs in its language: its standard
                // library is the context too (its types, supertypes and inhabitants)
                let Some(n) = native.filter(|&n| n != crate::types::Syntax::Java) else {
                    return ctx;
                };
                if !docs.iter().any(|(_, d)| d.language.as_deref() == Some(n.as_str())) {
                    return ctx;
                }
                if let Some((name, lib)) = embedded::standard_library(n) {
                    eprintln!(
                        "{}: context: @{name} (its types and inhabitants; its members are not tested)",
                        dir.display()
                    );
                    ctx.extend(lib);
                }
                ctx
            })
            .map_err(|source| ApiSourceError::Load {
                dir: dir.clone(),
                source,
            }),
        }
    }

    /// The classpath the programs of this API need: the directory's `classpath.txt` (written
    /// by `thalia fetch`), or the embedded libraries' jars resolved through `repos`; `None`
    /// when there is nothing to add.
    pub fn classpath(
        &self,
        repos: &[String],
        progress: bool,
    ) -> Result<Option<String>, ApiSourceError> {
        self.classpath_for(None, repos, progress)
    }

    /// [`ApiSource::classpath`] for programs compiled by `tool`: a fetched library's
    /// classpath without the language library jars it was built with
    /// ([`super::library::is_language_jar`]), since the compiler puts its own there.
    pub fn classpath_for(
        &self,
        tool: Option<crate::profile::Tool>,
        repos: &[String],
        progress: bool,
    ) -> Result<Option<String>, ApiSourceError> {
        let corpus = match self {
            ApiSource::Dir(d) => {
                let f = d.join("classpath.txt");
                if !f.exists() {
                    return Ok(None);
                }
                let text = std::fs::read_to_string(&f)
                    .map_err(|source| ApiSourceError::Classpath { path: f, source })?;
                let cp = text.trim();
                let cp = match tool {
                    Some(t) => super::library::without_language_jars(t, cp),
                    None => cp.to_string(),
                };
                return Ok((!cp.is_empty()).then_some(cp));
            }
            ApiSource::Embedded => None,
            ApiSource::Corpus(n) => Some(n.as_str()),
        };
        let coords = embedded::embedded_coordinates(corpus);
        if coords.is_empty() {
            return Ok(None);
        }
        let jars = crate::toolchain::library_jars(&coords, repos, progress)
            .map_err(|e| ApiSourceError::Libraries(e.to_string()))?;
        let joined = std::env::join_paths(jars.iter())
            .map_err(|e| ApiSourceError::Libraries(e.to_string()))?;
        Ok(Some(joined.to_string_lossy().into_owned()))
    }
}

/// The Java platform's API as the context of the Java library API in `dir` whose documents
/// are `docs`, where its classes extend or implement platform classes it does not hold (its
/// supertypes such as `java.util.AbstractMap` and `java.util.Map`, which Kotlin's mapped types
/// and anonymous classes need, and inhabitants of the platform's types). Not for a directory
/// that holds classes of the platform's API itself (an extract of it, or a part), nor for a
/// Kotlin or Scala library (its standard library is its context).
fn platform_context(
    dir: &std::path::Path,
    docs: &[(std::path::PathBuf, thalia_extractors::ClassDoc)],
) -> Vec<(std::path::PathBuf, thalia_extractors::ClassDoc)> {
    let java_library = docs
        .iter()
        .all(|(_, d)| d.language.as_deref().is_none_or(|l| l == "java"));
    let own: rustc_hash::FxHashSet<&str> = docs.iter().map(|(_, d)| d.name.as_str()).collect();
    let needs_platform = docs.iter().any(|(_, d)| {
        d.inherits
            .iter()
            .chain(&d.implements)
            .flatten()
            .map(|t| t.split('<').next().unwrap_or(t).trim())
            .any(|n| {
                (n.starts_with("java.") || n.starts_with("javax."))
                    && n != "java.lang.Object"
                    && !own.contains(n)
            })
    });
    if !java_library || !needs_platform {
        return Vec::new();
    }
    let platform = embedded::platform_library();
    let names: rustc_hash::FxHashSet<&str> =
        platform.iter().map(|(_, d)| d.name.as_str()).collect();
    if docs.iter().any(|(_, d)| names.contains(d.name.as_str())) {
        return Vec::new();
    }
    eprintln!(
        "{}: context: @{} (the Java platform's types and inhabitants; its members are not tested)",
        dir.display(),
        embedded::PLATFORM_CORPUS
    );
    platform
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_and_labels_round_trip() {
        for s in [
            ApiSource::Embedded,
            ApiSource::Corpus("java.base".into()),
            ApiSource::Dir(PathBuf::from("api-json/guava")),
        ] {
            assert_eq!(ApiSource::from_label(&s.label()), s);
        }
        assert_eq!(
            ApiSource::from_arg(Some(Path::new("@x"))),
            ApiSource::Corpus("x".into())
        );
        assert_eq!(ApiSource::from_arg(None).arg(), "");
    }

    #[test]
    fn an_unknown_corpus_names_the_available_ones() {
        let e = ApiSource::Corpus("nope".into()).load().err();
        let msg = e.map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains("nope") && msg.contains("java.base"), "{msg}");
    }
}
