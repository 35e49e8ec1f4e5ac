//! Integration tests: campaigns and what they produce: oracles, stores, shards, reduce, bisect, batches. One binary of modules, one per former test file.

mod batch;
mod bench_compile;
mod bisect;
mod campaign;
mod clusters;
mod differential;
mod findings;
mod flags_feedback;
mod hostile_rundir;
mod intended;
mod javac_harness;
mod known;
mod oracles;
mod phases;
mod pipeline;
mod reduce;
mod reduce_deep;
mod run_programs;
mod shard;
#[path = "../support/mod.rs"]
mod support;
mod twin_not_applicable;
mod variants;
