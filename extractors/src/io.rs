//! Reading and writing directories of API JSON files.

use std::fs;
use std::path::{Path, PathBuf};

use crate::schema::ClassDoc;

/// A file that could not be read as an API JSON document.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid JSON, or not an API JSON document.
    #[error("{path}: malformed API JSON at line {line}, column {column}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What serde reported.
        message: String,
    },
    /// The directory could not be listed.
    #[error("{path}: cannot list directory: {message}")]
    Walk {
        /// The directory or entry.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl SchemaError {
    /// The file or directory the error is about.
    pub fn path(&self) -> &Path {
        match self {
            SchemaError::Io { path, .. }
            | SchemaError::Malformed { path, .. }
            | SchemaError::Walk { path, .. } => path,
        }
    }
}

/// Parses one API JSON document from text; `path` is used in the error.
pub fn parse_class_doc(path: &Path, text: &str) -> Result<ClassDoc, SchemaError> {
    serde_json::from_str(text).map_err(|e| SchemaError::Malformed {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// Reads one API JSON file.
pub fn read_class_file(path: &Path) -> Result<ClassDoc, SchemaError> {
    let text = fs::read_to_string(path).map_err(|source| SchemaError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_class_doc(path, &text)
}

/// The `*.json` files under a directory (recursively), sorted by path.
pub fn list_api_files(dir: &Path) -> (Vec<PathBuf>, Vec<SchemaError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        match entry {
            Ok(e) => {
                // `fetch.json` is the record `thalia fetch` writes beside the API, not a class
                if e.file_type().is_file()
                    && e.path().extension().is_some_and(|x| x == "json")
                    && e.file_name() != "fetch.json"
                {
                    files.push(e.into_path());
                }
            }
            Err(e) => errors.push(SchemaError::Walk {
                path: e.path().unwrap_or(dir).to_path_buf(),
                message: e.to_string(),
            }),
        }
    }
    (files, errors)
}

/// Reads every API JSON file under a directory; unreadable or malformed files are returned as
/// errors beside the documents that did load.
pub fn read_api_dir(dir: &Path) -> (Vec<(PathBuf, ClassDoc)>, Vec<SchemaError>) {
    let (files, mut errors) = list_api_files(dir);
    let mut docs = Vec::with_capacity(files.len());
    for f in files {
        match read_class_file(&f) {
            Ok(d) => docs.push((f, d)),
            Err(e) => errors.push(e),
        }
    }
    (docs, errors)
}

/// The file name of a document: `<name>.json`.
pub fn file_name_for(doc: &ClassDoc) -> String {
    format!("{}.json", doc.name)
}

/// Renders a document as pretty JSON (two-space indent, trailing newline).
pub fn render_class_doc(doc: &ClassDoc) -> String {
    // serializing plain data to a String cannot fail
    let mut s = serde_json::to_string_pretty(doc).unwrap_or_default();
    s.push('\n');
    s
}

/// Checks that a document's file name `<name>.json` is one plain file name, so that the
/// file stays directly under the directory it is written to (a class name is untrusted
/// input: `/../../x` or `a/b` would escape or nest).
pub fn check_file_name(doc: &ClassDoc) -> std::io::Result<String> {
    use std::path::Component;
    let file = file_name_for(doc);
    let plain = !doc.name.is_empty()
        && !doc.name.contains(['/', '\\', '\0'])
        && matches!(
            Path::new(&file).components().collect::<Vec<_>>()[..],
            [Component::Normal(c)] if c == file.as_str()
        );
    if plain {
        Ok(file)
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "class `{}`: its name cannot be a file name (it must not be empty or contain `/`, `\\` or NUL); not written",
                doc.name.escape_debug()
            ),
        ))
    }
}

/// Writes a document into `dir` as `<name>.json`, via a temporary file and a rename. A name
/// that is not a plain file name (see [`check_file_name`]) is an `InvalidInput` error and
/// nothing is written.
pub fn write_class_doc(dir: &Path, doc: &ClassDoc) -> std::io::Result<PathBuf> {
    let file = check_file_name(doc)?;
    fs::create_dir_all(dir)?;
    let path = dir.join(&file);
    let tmp = dir.join(format!(".{file}.tmp"));
    fs::write(&tmp, render_class_doc(doc))?;
    fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Writes documents into `dir` (created if missing), each as `<name>.json` replacing a file
/// of that name; returns how many were written.
pub fn write_class_docs(dir: &Path, docs: &[ClassDoc]) -> Result<usize, WriteError> {
    fs::create_dir_all(dir).map_err(|source| WriteError {
        path: dir.to_path_buf(),
        source,
    })?;
    for d in docs {
        write_class_doc(dir, d).map_err(|source| WriteError {
            path: dir.join(file_name_for(d)),
            source,
        })?;
    }
    Ok(docs.len())
}

/// A document that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct WriteError {
    /// The file or directory.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_json_names_file_and_position() {
        let err = parse_class_doc(
            Path::new("x/A.json"),
            "{\"name\": \"A\",\n  \"methods\": [}",
        )
        .unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("x/A.json: malformed API JSON at line 2"),
            "{msg}"
        );
    }

    #[test]
    fn missing_name_is_malformed() {
        let err = parse_class_doc(Path::new("B.json"), "{\"methods\": []}").unwrap_err();
        assert!(err.to_string().contains("missing field `name`"), "{err}");
    }

    #[test]
    fn names_that_are_not_plain_file_names_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        for bad in ["/../../x/ESCAPED", "../up", "a/b", "a\\b", "", "nul\0"] {
            let doc = parse_class_doc(
                Path::new("A.json"),
                &serde_json::json!({ "name": bad }).to_string(),
            )
            .unwrap();
            let err = write_class_doc(&out, &doc).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{bad:?}");
            assert!(err.to_string().contains("class `"), "{err}");
        }
        assert!(!dir.path().join("x").exists());
        assert!(!dir.path().join("up.json").exists());
        let ok = parse_class_doc(Path::new("A.json"), r#"{"name": "scala.<:<"}"#).unwrap();
        let p = write_class_doc(&out, &ok).unwrap();
        assert_eq!(p, out.join("scala.<:<.json"));
    }

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let text = r#"{"name":"A","language":"java","x_custom":{"k":[1,2]},"methods":[{"name":"m","parameters":[],"return_type":"int","extra_flag":true}],"parent":null}"#;
        let doc = parse_class_doc(Path::new("A.json"), text).unwrap();
        let back: serde_json::Value = serde_json::from_str(&render_class_doc(&doc)).unwrap();
        let orig: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(back, orig);
    }
}
