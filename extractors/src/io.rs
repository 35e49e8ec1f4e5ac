//! Reading and writing directories of API JSON files.
//!
//! # File names
//!
//! A class's document is written as `<stem>.json`, where the stem is the class name with the
//! bytes a file name cannot hold percent-encoded ([`file_stem_for`]): `%`, `/`, `\`, NUL and
//! the other ASCII control characters become `%XX` (two upper-case hex digits), and so does a
//! leading `.` (no hidden files, no `.` or `..`) and the `f` of a class named `fetch` (whose
//! file would be `thalia fetch`'s record). Every other character, `<`, `:`, `$` and non-ASCII
//! letters included, is kept: `scala.<:<` is `scala.<:<.json`, Scala's `os./` is
//! `os.%2F.json`. [`class_name_of_stem`] decodes a stem.
//!
//! A name whose file name would pass [`MAX_FILE_NAME_BYTES`] keeps the start of its encoded
//! stem and ends in `%%` and 16 hex digits of its SHA-1 (`%%` cannot occur in an encoded
//! stem, so hashed names never meet plain ones); such a file is found by its content only.
//! Readers never take the class name from the file name: it is the document's `name`.
//!
//! # Reading
//!
//! An API JSON file is read only if it is a regular file (a symbolic link is followed to one)
//! of at most [`MAX_API_JSON_BYTES`] ([`crate::files::read_regular`]); a FIFO, a device or a
//! larger file in a directory is an error naming it, beside the documents that did load.

use std::fs;
use std::path::{Path, PathBuf};

use sha1::{Digest, Sha1};

use crate::schema::ClassDoc;

/// The most bytes of one API JSON file (the largest real one, `kotlin.collections` of the
/// Kotlin standard library, is 1.7 MB).
pub const MAX_API_JSON_BYTES: u64 = 64 << 20;

/// The longest file name written for a document: `NAME_MAX` (255 bytes on Linux, macOS and
/// Windows file systems) less the 5 bytes that the temporary file's name (`.<name>.tmp`) adds.
pub const MAX_FILE_NAME_BYTES: usize = 250;

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

/// Reads one API JSON file: a regular file (symbolic links followed) of at most
/// [`MAX_API_JSON_BYTES`].
pub fn read_class_file(path: &Path) -> Result<ClassDoc, SchemaError> {
    let io = |source| SchemaError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = crate::files::read_regular(path, MAX_API_JSON_BYTES, "MAX_API_JSON_BYTES")
        .map_err(|e| io(e.into_io()))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    parse_class_doc(path, &text)
}

/// The `*.json` files under a directory (recursively), sorted by path. Symbolic links to
/// directories are not followed; a `*.json` that is not a regular file is listed, so that
/// reading it reports what it is.
pub fn list_api_files(dir: &Path) -> (Vec<PathBuf>, Vec<SchemaError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        match entry {
            Ok(e) => {
                // `fetch.json` is the record `thalia fetch` writes beside the API, not a class
                if !e.file_type().is_dir()
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

/// The file name of a document: `<stem>.json`, the stem being its encoded class name
/// ([`file_stem_for`]).
pub fn file_name_for(doc: &ClassDoc) -> String {
    format!("{}.json", file_stem_for(&doc.name))
}

/// Whether a class name's byte is percent-encoded in a file name.
fn reserved(b: u8) -> bool {
    matches!(b, b'%' | b'/' | b'\\' | 0..=0x1F | 0x7F)
}

/// The stem of the file a class's document is written to (see the module's documentation):
/// the name with `%`, `/`, `\`, control characters, a leading `.` and the `f` of `fetch`
/// percent-encoded; a stem that would make the file name longer than
/// [`MAX_FILE_NAME_BYTES`] is cut and ends in `%%` and 16 hex digits of the name's SHA-1.
pub fn file_stem_for(name: &str) -> String {
    let mut stem = String::with_capacity(name.len());
    for (i, c) in name.char_indices() {
        let b = c as u32;
        if b < 0x80 && (reserved(b as u8) || (i == 0 && (c == '.' || name == "fetch"))) {
            stem.push_str(&format!("%{b:02X}"));
        } else {
            stem.push(c);
        }
    }
    const HASH_DIGITS: usize = 16;
    let max_stem = MAX_FILE_NAME_BYTES - ".json".len();
    if !name.is_empty() && stem.len() <= max_stem {
        return stem;
    }
    // cut on a character boundary, not inside a `%XX` (a `%` in the stem starts one)
    let b = stem.as_bytes();
    let mut cut = (max_stem - 2 - HASH_DIGITS).min(stem.len());
    while !stem.is_char_boundary(cut)
        || (cut >= 1 && b[cut - 1] == b'%')
        || (cut >= 2 && b[cut - 2] == b'%')
    {
        cut -= 1;
    }
    let digest = Sha1::digest(name.as_bytes());
    format!("{}%%{}", &stem[..cut], &hex::encode(digest)[..HASH_DIGITS])
}

/// The class name a file stem written by [`file_stem_for`] stands for; `None` when the stem is
/// a cut one (ending in `%%` and a hash: the name is in the file) or not an encoding.
pub fn class_name_of_stem(stem: &str) -> Option<String> {
    let bytes = stem.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = stem.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Renders a document as pretty JSON (two-space indent, trailing newline).
pub fn render_class_doc(doc: &ClassDoc) -> String {
    // serializing plain data to a String cannot fail
    let mut s = serde_json::to_string_pretty(doc).unwrap_or_default();
    s.push('\n');
    s
}

/// A document's file name ([`file_name_for`]), checked to be one plain file name, so that the
/// file stays directly under the directory it is written to (a class name is untrusted
/// input: `/../../x` or `a/b` would escape or nest if they were not encoded). The encoding
/// guarantees it; a name it did not is an `InvalidInput` error.
pub fn check_file_name(doc: &ClassDoc) -> std::io::Result<String> {
    use std::path::Component;
    let file = file_name_for(doc);
    let plain = file.len() <= MAX_FILE_NAME_BYTES
        && !file.contains(['/', '\\', '\0'])
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
                "class `{}`: its file name `{}` is not a plain file name; not written",
                doc.name.escape_debug(),
                file.escape_debug()
            ),
        ))
    }
}

/// Writes a document into `dir` as `<stem>.json` ([`file_name_for`]), via a temporary file
/// and a rename.
pub fn write_class_doc(dir: &Path, doc: &ClassDoc) -> std::io::Result<PathBuf> {
    let file = check_file_name(doc)?;
    fs::create_dir_all(dir)?;
    let path = dir.join(&file);
    let tmp = dir.join(format!(".{file}.tmp"));
    fs::write(&tmp, render_class_doc(doc))?;
    fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Writes documents into `dir` (created if missing), each as `<stem>.json`
/// ([`file_name_for`]) replacing a file of that name; returns how many were written.
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

    fn doc_named(name: &str) -> ClassDoc {
        parse_class_doc(
            Path::new("A.json"),
            &serde_json::json!({ "name": name }).to_string(),
        )
        .unwrap()
    }

    #[test]
    fn names_that_are_not_plain_file_names_are_encoded() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let cases = [
            ("/../../x/ESCAPED", "%2F..%2F..%2Fx%2FESCAPED.json"),
            ("../up", "%2E.%2Fup.json"),
            (".", "%2E.json"),
            ("..", "%2E..json"),
            ("a/b", "a%2Fb.json"),
            ("a\\b", "a%5Cb.json"),
            ("nul\0", "nul%00.json"),
            ("tab\there", "tab%09here.json"),
            ("100%", "100%25.json"),
            ("os./", "os.%2F.json"),
            ("fetch", "%66etch.json"),
            ("p.fetch", "p.fetch.json"),
            ("scala.<:<", "scala.<:<.json"),
            ("p.Ünïcode$1", "p.Ünïcode$1.json"),
        ];
        for (name, file) in cases {
            let p = write_class_doc(&out, &doc_named(name)).unwrap();
            assert_eq!(p, out.join(file), "{name:?}");
            let stem = file.strip_suffix(".json").unwrap();
            assert_eq!(class_name_of_stem(stem).as_deref(), Some(name), "{stem}");
            assert_eq!(read_class_file(&p).unwrap().name, name);
        }
        assert!(!dir.path().join("x").exists());
        assert!(!dir.path().join("up.json").exists());
        let (docs, errors) = read_api_dir(&out);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(docs.len(), cases.len());
    }

    #[test]
    fn long_and_empty_names_get_a_hashed_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let long = format!("p.{}", "Operator$".repeat(60));
        let longer = format!("{long}X");
        let slashes = "/".repeat(300);
        let mut files = std::collections::HashSet::new();
        for name in [
            long.as_str(),
            longer.as_str(),
            slashes.as_str(),
            "",
            "é".repeat(200).as_str(),
        ] {
            let p = write_class_doc(dir.path(), &doc_named(name)).unwrap();
            let file = p.file_name().unwrap().to_str().unwrap().to_string();
            assert!(file.len() <= MAX_FILE_NAME_BYTES, "{file}");
            let stem = file.strip_suffix(".json").unwrap();
            let (_, hash) = stem.rsplit_once("%%").expect("hashed");
            assert_eq!(hash.len(), 16);
            assert_eq!(class_name_of_stem(stem), None, "a cut stem does not decode");
            assert_eq!(read_class_file(&p).unwrap().name, name);
            assert!(files.insert(file), "distinct names, distinct files");
        }
        // at the limit, a name is kept whole
        let fits = "a".repeat(MAX_FILE_NAME_BYTES - ".json".len());
        assert_eq!(file_stem_for(&fits), fits);
        assert!(file_stem_for(&format!("{fits}a")).contains("%%"));
    }
    /// A FIFO, a link to `/dev/zero` and a file past the limit in an API JSON directory are
    /// errors naming them (read without blocking), beside the document that loads.
    #[cfg(unix)]
    #[test]
    fn special_and_huge_files_in_an_api_dir_are_errors_naming_them() {
        let dir = tempfile::tempdir().unwrap();
        write_class_doc(dir.path(), &doc_named("p.Good")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join("F.json"))
            .status();
        assert!(made.unwrap().success(), "mkfifo");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("Zero.json")).unwrap();
        let huge = fs::File::create(dir.path().join("Huge.json")).unwrap();
        huge.set_len(MAX_API_JSON_BYTES + 1).unwrap();
        let (docs, errors) = read_api_dir(dir.path());
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].1.name, "p.Good");
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        let d = dir.path().display();
        assert_eq!(
            errors,
            [
                format!("{d}/F.json: cannot read: not a regular file (a FIFO); not read"),
                format!(
                    "{d}/Huge.json: cannot read: larger than MAX_API_JSON_BYTES = {MAX_API_JSON_BYTES} bytes; not read"
                ),
                format!(
                    "{d}/Zero.json: cannot read: not a regular file (a character device); not read"
                ),
            ]
        );
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
