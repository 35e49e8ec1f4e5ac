//! Code shared by the extractors' integration tests.
#![allow(dead_code)]

pub mod classfile;
pub mod maven_repo;
#[path = "../../../tests/support/require.rs"]
pub mod require;
