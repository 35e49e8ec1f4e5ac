//! Code shared by the translators' integration tests.
#![allow(dead_code)]

pub mod compilers;
#[path = "../../../tests/support/require.rs"]
pub mod require;
