//! thalia: finds bugs in compilers' type checkers by API-driven program synthesis.
//!
//! The core crate: the type language ([`types`]), the API model loaded from thalia's API JSON
//! ([`api`]), and the API graph ([`graph`]). See `ARCHITECTURE.md` for the map.

#![deny(missing_docs)]

pub mod api;
pub mod batch;
pub mod campaign;
pub mod compile;
pub mod compile_bench;
pub mod coverage;
pub mod embedded;
pub mod extract_bench;
pub mod fuzzing;
pub mod graph;
pub mod hash;
pub mod profile;
pub mod progress;
pub mod run;
pub mod rundir;
pub mod scratch;
pub mod server;
pub mod stages;
pub mod stats;
pub mod synth;
pub mod toolchain;
pub mod types;
