//! thalia's extractors: the API JSON schema (which this crate owns and writes), the Maven
//! resolver that fetches libraries, the bytecode extractor that turns jars into API JSON, the
//! documentation extractor that turns javadoc HTML into the same, and the member-by-member
//! comparison of two APIs.
//!
//! # Limits
//!
//! Repositories, POMs, jars and class files may be hostile. Past these limits an input is an
//! error naming it (a class file becomes a problem of its extraction, which goes on), never a
//! crash, a hang or an unbounded allocation, and nothing is written outside the cache or the
//! output directory.
//!
//! | limit | value | applies to |
//! | --- | --- | --- |
//! | [`maven::limits::DEFAULT_MAX_DOWNLOAD_BYTES`] | 2 GiB | one downloaded file ([`maven::ResolverOptions::max_download_bytes`]) |
//! | [`maven::limits::DEFAULT_FILE_DEADLINE`] | 600 s | one file at one repository, retries included ([`maven::ResolverOptions::file_deadline`]) |
//! | [`maven::limits::DEFAULT_STALL_TIMEOUT`] | 30 s | an attempt without a byte ([`maven::ResolverOptions::stall_timeout`]) |
//! | [`maven::limits::STALE_PART_AGE`] | 1 h | age at which a `.thalia-*.part` left in the cache is removed |
//! | [`maven::limits::MAX_XML_BYTES`] | 16 MiB | a POM, `maven-metadata.xml` or `settings.xml` |
//! | [`maven::limits::MAX_XML_DEPTH`] | 100 | element nesting in those files |
//! | [`maven::limits::MAX_XML_NODES`] | 1,000,000 | XML nodes in those files |
//! | [`maven::limits::MAX_CHECKSUM_FILE_BYTES`] | 4 KiB | a `.sha1` or `.md5` file |
//! | [`maven::limits::MAX_PROPERTY_EXPANSION_BYTES`] | 1 MiB | a POM value once `${…}` are expanded |
//! | [`maven::limits::MAX_POM_SUBSTITUTIONS`] | 100,000 | `${…}` substitutions for one effective POM |
//! | [`maven::limits::MAX_POM_EXPANSION_BYTES`] | 16 MiB | bytes produced by those substitutions |
//! | [`maven::limits::MAX_POM_CHAIN`] | 64 | POM parents, nested BOM imports or relocations in a row |
//! | [`maven::limits::MAX_COORDINATE_PART_LEN`] | 200 bytes | a group segment, artifact, version, classifier or extension |
//! | [`bytecode::class::MAX_CLASS_FILE_BYTES`] | 64 MiB | one class file (never preallocated from a declared size) |
//! | [`bytecode::MAX_ARCHIVE_CLASS_BYTES`] | 2 GiB | all class files read from one jar, jmod or image |
//! | [`bytecode::MAX_CONTAINER_BYTES`] | 2 GiB | one jar, jmod, `-javadoc.jar` or `ct.sym` file (read whole) |
//! | [`io::MAX_API_JSON_BYTES`] | 64 MiB | one API JSON file |
//! | [`bytecode::class::MAX_CLASS_NAME_LEN`] | 1024 bytes | a binary class name |
//! | [`bytecode::signature::MAX_SIGNATURE_DEPTH`] | 256 | nesting of types in a generic signature |
//! | [`docs::MAX_PAGE_BYTES`] | 16 MiB | one documentation page (a larger one is skipped) |
//! | [`docs::MAX_TOTAL_BYTES`] | 2 GiB | all pages read from one javadoc jar or folder |
//! | [`docs::MAX_PAGES`] | 1,000,000 | class pages read from one javadoc jar or folder |
//! | [`docs::BATCH_BYTES`] | 64 MiB | pages held at once (parsed a batch at a time) |
//! | [`docs::html::MAX_TAG_ATTRIBUTES`] | 64 | attributes of one tag in a page (a page with more is skipped) |
//! | [`docs::html::TREE_WORK_PER_BYTE`] | 8 units a byte | HTML tree building of one page, plus [`docs::html::TREE_WORK_FLOOR`] (a page that needs more is skipped) |
//! | [`docs::html::MAX_DOM_DEPTH`] | 256 | element nesting in a parsed page (a deeper page is skipped) |
//!
//! Input files are opened only if they are regular files (a symbolic link is followed to one):
//! a FIFO, a device or a socket, given on the command line or met in a class directory, a
//! documentation folder or an API JSON directory, is refused unread with a problem naming it
//! ([`files`]).
//!
//! A class name becomes a file name percent-encoded where a file name cannot hold it (`/`,
//! `%`, control characters, a leading `.`), cut and hashed past 250 bytes ([`io`]'s "File
//! names"): every class is written, whatever its name.
//!
//! Coordinates (from the command line, POMs or metadata) must be usable as path segments:
//! not empty, not `.` or `..`, no `/`, `\`, `:`, whitespace, control characters or other
//! characters file systems refuse ([`maven::Coordinate::validate`]); every path under the
//! cache is also checked to stay there. A `file://` repository serves regular files only.

#![deny(missing_docs)]

pub mod bytecode;
pub mod classpath;
pub mod diff;
pub mod docs;
pub mod fetch;
pub mod files;
pub mod fuzzing;
pub mod io;
mod jvm_helper;
pub mod kotlin;
pub mod maven;
pub mod scala;
pub mod schema;
pub mod view;

pub use io::{
    read_api_dir, read_class_file, write_class_doc, write_class_docs, SchemaError, WriteError,
};
pub use schema::{
    ClassDoc, DeprecationLevel, FieldDoc, FieldMetadata, KotlinClassFacts, KotlinKind,
    KotlinObjectMark, MethodDoc, MethodMetadata, ParamDefaults, ScalaClassFacts, ScalaFieldFacts,
    ScalaMethodFacts, TypeAliasDoc, TypePathStep,
};
