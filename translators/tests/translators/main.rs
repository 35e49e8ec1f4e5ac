//! Integration tests: the crate's integration tests. One binary of modules, one per former test file.

mod declared;
mod forms_java_groovy;
mod forms_kotlin_scala;
mod java;
#[path = "../support/mod.rs"]
mod support;
mod targets;
