//! The API corpus shipped inside the binary: everything under `api-json/` at build time.

use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};

use thalia_extractors::{ClassDoc, SchemaError};

use crate::api::Api;

static API_JSON: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/api-json");

/// The label that stands for the embedded corpus in messages and file names.
pub const EMBEDDED_LABEL: &str = "<embedded api-json>";

/// Loads the embedded default API (all `*.json` files of `api-json/`).
pub fn embedded_api() -> Api {
    embedded_api_for(None)
}

/// The embedded default API of programs in a language whose own API syntax is `native`:
/// every corpus of Java's syntax, and the corpora of that language (a corpus names its
/// language in `language.txt`, e.g. `kotlin` for `kotlin-stdlib-2.4.21`) but those that
/// are selectable only by name (an `opt-in.txt` in the folder says why).
pub fn embedded_api_for(native: Option<crate::types::Syntax>) -> Api {
    api_from_files(default_files(native))
}

/// The files of the embedded default API of programs in the language whose API syntax is
/// `native` (see [`embedded_api_for`]).
fn default_files(native: Option<crate::types::Syntax>) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for d in API_JSON.dirs() {
        if is_default_corpus(d, native) {
            collect(d, &mut files);
        }
    }
    files
}

/// Whether the corpus `d` is part of the default API of `native` programs: a Java corpus,
/// or one of that language not marked opt-in.
fn is_default_corpus(d: &Dir<'static>, native: Option<crate::types::Syntax>) -> bool {
    let lang = corpus_language(d);
    let opt_in = d.get_file(d.path().join("opt-in.txt")).is_some();
    lang.is_none() || !opt_in && lang == native.map(|s| s.as_str().to_string())
}

/// Whether the embedded default API of `native` programs includes a corpus of that
/// language (Kotlin's standard library for Kotlin programs; none for Scala's, which is
/// opt-in).
pub fn default_has_native_corpus(native: crate::types::Syntax) -> bool {
    API_JSON
        .dirs()
        .any(|d| corpus_language(d).is_some() && is_default_corpus(d, Some(native)))
}

/// The embedded Java corpora with `library` (a language library's documents, e.g. an older
/// release's standard library): the default API of that language's programs for the
/// release whose library it is, in place of the embedded corpora of the language.
pub fn embedded_api_with_library(library: Vec<(PathBuf, ClassDoc)>) -> Api {
    let mut files = Vec::new();
    for d in API_JSON.dirs() {
        if corpus_language(d).is_none() {
            collect(d, &mut files);
        }
    }
    let (mut docs, errors) = docs_from_files(files);
    docs.extend(library);
    Api::from_docs(docs, errors)
}

/// The documents of one embedded corpus (sorted by path), `None` when there is no such
/// corpus.
pub fn corpus_docs(name: &str) -> Option<Vec<(PathBuf, ClassDoc)>> {
    let dir = API_JSON.get_dir(name)?;
    let mut files = Vec::new();
    collect(dir, &mut files);
    Some(docs_from_files(files).0)
}

/// The language a corpus is for (its `language.txt`), `None` for Java's.
fn corpus_language(d: &Dir<'static>) -> Option<String> {
    let f = d.get_file(d.path().join("language.txt"))?;
    Some(String::from_utf8_lossy(f.contents()).trim().to_string())
}

/// The names of the embedded corpora (the top-level folders of `api-json/`).
pub fn embedded_corpora() -> Vec<String> {
    let mut v: Vec<String> = API_JSON
        .dirs()
        .map(|d| d.path().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Loads one embedded corpus (a top-level folder of `api-json/`, e.g. `java.base`).
pub fn embedded_corpus(name: &str) -> Option<Api> {
    let dir = API_JSON.get_dir(name)?;
    let mut files = Vec::new();
    collect(dir, &mut files);
    Some(api_from_files(files))
}

/// The Maven coordinates of the libraries behind the embedded API (`corpus`: one folder, or
/// `None` for all): each folder may name its artifact in `coordinates.txt`. Programs that
/// use such a library need its jar on the compiler's classpath.
pub fn embedded_coordinates(corpus: Option<&str>) -> Vec<String> {
    let dirs: Vec<&Dir<'static>> = match corpus {
        Some(name) => API_JSON.get_dir(name).into_iter().collect(),
        None => API_JSON.dirs().collect(),
    };
    dirs.iter()
        .filter_map(|d| d.get_file(d.path().join("coordinates.txt")))
        .flat_map(|f| {
            String::from_utf8_lossy(f.contents())
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn api_from_files(files: Vec<(PathBuf, String)>) -> Api {
    let (docs, errors) = docs_from_files(files);
    Api::from_docs(docs, errors)
}

/// The documents of embedded files (sorted by path), and the files that did not parse.
fn docs_from_files(
    mut files: Vec<(PathBuf, String)>,
) -> (Vec<(PathBuf, ClassDoc)>, Vec<SchemaError>) {
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut docs = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in files {
        let shown = Path::new(EMBEDDED_LABEL).join(&path);
        match thalia_extractors::io::parse_class_doc(&shown, &text) {
            Ok(d) => docs.push((shown, d)),
            Err(e) => errors.push(e),
        }
    }
    (docs, errors)
}

/// The embedded corpus of the Java platform's API that a library's API is loaded with, as
/// its context.
pub const PLATFORM_CORPUS: &str = "java.base";

/// The documents of the Java platform's API ([`PLATFORM_CORPUS`]): the context of a
/// library's API, which names the platform's classes as its supertypes (`java.util.Map`),
/// parameters and results.
pub fn platform_library() -> Vec<(PathBuf, ClassDoc)> {
    let Some(dir) = API_JSON.get_dir(PLATFORM_CORPUS) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    collect(dir, &mut files);
    docs_from_files(files).0
}

/// The embedded corpus that is the standard library of the language whose API syntax is
/// `native` (the first by name whose `language.txt` says so: `kotlin-stdlib-2.4.21`,
/// `scala-library-2.13.18`), with its documents: the context of a library of that language.
pub fn standard_library(
    native: crate::types::Syntax,
) -> Option<(String, Vec<(PathBuf, ClassDoc)>)> {
    let mut dirs: Vec<&Dir<'static>> = API_JSON
        .dirs()
        .filter(|d| corpus_language(d).as_deref() == Some(native.as_str()))
        .collect();
    dirs.sort_by_key(|d| d.path());
    let d = dirs.first()?;
    let mut files = Vec::new();
    collect(d, &mut files);
    let (docs, _) = docs_from_files(files);
    Some((d.path().to_string_lossy().into_owned(), docs))
}

/// Number of embedded API JSON files.
pub fn embedded_file_count() -> usize {
    let mut files = Vec::new();
    collect(&API_JSON, &mut files);
    files.len()
}

fn collect(dir: &Dir<'static>, out: &mut Vec<(PathBuf, String)>) {
    for f in dir.files() {
        if f.path().extension().is_some_and(|e| e == "json")
            && f.path().file_name().is_some_and(|n| n != "fetch.json")
        {
            out.push((
                f.path().to_path_buf(),
                String::from_utf8_lossy(f.contents()).into_owned(),
            ));
        }
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}

/// True when `dir` is the folder the embedded corpus is built from (this source tree's
/// `api-json/`): writing there changes the default API of the next build.
pub fn is_corpus_folder(dir: &std::path::Path) -> bool {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("api-json");
    match (dir.canonicalize(), corpus.canonicalize()) {
        (Ok(a), Ok(b)) => a == b || a.starts_with(&b),
        _ => dir == corpus,
    }
}
