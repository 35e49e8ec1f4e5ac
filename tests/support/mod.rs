//! Code shared by the integration-test binaries of `tests/` (each declares `mod support`).
#![allow(dead_code)]

pub mod fake;
pub mod javac;
pub mod maven_repo;
pub mod readme;
pub mod require;
pub mod runs;
pub mod toolchains;
