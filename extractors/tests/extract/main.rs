//! Integration tests: extraction through the CLI: fetch, documentation, Kotlin and Scala views. One binary of modules, one per former test file.

mod bytecode;
mod docs;
mod dokka;
mod fuzz_corpus;
mod hostile_classfiles;
mod hostile_downloads;
mod hostile_maven;
mod maven_resolver;
#[path = "../support/mod.rs"]
mod support;
