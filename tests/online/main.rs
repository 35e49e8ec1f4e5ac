//! Integration tests: tests that need the network (Maven Central through the user's Maven configuration), real compilers or root. One binary of modules, one per former test file.

mod online_batch;
mod online_bisect;
mod online_campaign;
mod online_compilers;
mod online_docs;
mod online_dokka;
mod online_fetch;
mod online_groovy_extensions;
mod online_known;
mod online_oracles;
mod online_readme;
mod online_releases;
mod online_scaladoc;
mod online_server;
mod online_slurm;
mod online_toolchains;
#[path = "../support/mod.rs"]
mod support;
