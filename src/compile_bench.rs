//! `thalia bench compile`: programs checked per second per compiler, a fresh process per batch
//! against the warm compile server.

use anyhow::Result;

/// Options of `thalia bench compile`.
#[derive(clap::Args, Debug, Clone)]
pub struct CompileBenchArgs {
    /// Compilers to measure (`NAME[@VERSION]`, repeatable; default: every installed one).
    #[arg(long = "compiler", value_name = "NAME[@VERSION]")]
    pub compilers: Vec<String>,
}

/// Runs the benchmark and prints its table.
pub fn main(args: &CompileBenchArgs) -> Result<()> {
    let _ = args;
    anyhow::bail!("not built yet")
}
