//! Integration tests: the `thalia` binary and the core library: API loading, types, hostile input, toolchains, the source's architecture. One binary of modules, one per former test file.

mod architecture;
mod cli;
mod fuzz_corpus;
mod hostile_core;
mod load_errors;
mod paper_graphs;
mod readme;
mod samples;
#[path = "../support/mod.rs"]
mod support;
mod toolchain_shared;
mod types_props;
