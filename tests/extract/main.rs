//! Integration tests: extraction through the CLI: fetch, documentation, Kotlin and Scala views. One binary of modules, one per former test file.

mod docs_extract;
mod docs_url;
mod fetch;
mod kotlin_metadata;
mod scala_view;
mod scaladoc_extract;
#[path = "../support/mod.rs"]
mod support;
