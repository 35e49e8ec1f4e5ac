//! thalia's extractors: the API JSON schema (which this crate owns and writes) and, over time,
//! the tools that turn Maven coordinates, jars and documentation into it.

pub mod io;
pub mod schema;

pub use io::{read_api_dir, read_class_file, write_class_doc, SchemaError};
pub use schema::{ClassDoc, FieldDoc, MethodDoc};
