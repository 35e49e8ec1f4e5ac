//! thalia's extractors: the API JSON schema (which this crate owns and writes), the Maven
//! resolver that fetches libraries, and the bytecode extractor that turns jars into API JSON.

#![deny(missing_docs)]

pub mod bytecode;
pub mod fetch;
pub mod io;
pub mod maven;
pub mod schema;

pub use io::{
    read_api_dir, read_class_file, write_class_doc, write_class_docs, SchemaError, WriteError,
};
pub use schema::{ClassDoc, FieldDoc, MethodDoc};
