//! The `thalia` command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use thalia::api::Api;
use thalia::embedded::{embedded_api, EMBEDDED_LABEL};
use thalia::graph::ApiGraph;
use thalia::stats::GraphStats;

/// thalia finds bugs in compilers' type checkers: it synthesizes small client programs that
/// call real library APIs in well-typed and ill-typed ways, compiles them with the real
/// compilers, and flags every verdict that contradicts the expectation.
#[derive(Parser, Debug)]
#[command(name = "thalia", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Inspect an API (a directory of thalia API JSON files, or the embedded default).
    #[command(subcommand)]
    Api(ApiCommand),
}

#[derive(Subcommand, Debug)]
enum ApiCommand {
    /// Print the API graph statistics of the paper's Table 1 (nodes, edges, polymorphic
    /// methods / methods, fields, constructors, type constructors / types, mean
    /// inheritance-chain size, mean signature size).
    Stats {
        #[command(flatten)]
        api: ApiArg,
        /// Print the figures as JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print one class with its own and its inherited members, resolved through the
    /// supertypes with substitution. Usage: `thalia api show [DIR] CLASS`.
    Show {
        /// `[DIR] CLASS`: the API directory (default: the embedded API) and the class's
        /// fully-qualified name.
        #[arg(num_args = 1..=2, required = true, value_name = "DIR] [CLASS")]
        args: Vec<String>,
    },
    /// Load an API and list every problem: files, type strings and members that were
    /// skipped, and warnings such as dangling supertypes. Exits with 1 if anything was
    /// skipped.
    Check {
        #[command(flatten)]
        api: ApiArg,
    },
    /// Load an API and write it back out through the model (type strings re-printed in
    /// canonical form; unknown fields and entries that did not load kept as they were).
    Rewrite {
        #[command(flatten)]
        api: ApiArg,
        /// Output directory (created if missing).
        #[arg(long, short)]
        out: PathBuf,
    },
}

#[derive(Args, Debug)]
struct ApiArg {
    /// Directory of thalia API JSON files (searched recursively); default: the API embedded
    /// in the binary from `api-json/`.
    dir: Option<PathBuf>,
}

fn load(dir: Option<&Path>) -> Result<Api> {
    match dir {
        None => Ok(embedded_api()),
        Some(d) => {
            Api::load_dir(d).with_context(|| format!("cannot load API from {}", d.display()))
        }
    }
}

fn describe(dir: Option<&Path>) -> String {
    dir.map_or(EMBEDDED_LABEL.to_string(), |d| d.display().to_string())
}

/// Prints the load summary and the first few errors to stderr.
fn report_load(api: &Api, dir: Option<&Path>) {
    eprintln!("{}: {}", describe(dir), api.report.summary());
    const SHOWN: usize = 10;
    let errors: Vec<_> = api.report.errors().collect();
    for e in errors.iter().take(SHOWN) {
        eprintln!("  {e}");
    }
    if errors.len() > SHOWN {
        eprintln!(
            "  ... and {} more (see `thalia api check`)",
            errors.len() - SHOWN
        );
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Api(ApiCommand::Stats { api: a, json }) => {
            let dir = a.dir.as_deref();
            let mut api = load(dir)?;
            report_load(&api, dir);
            let graph = ApiGraph::build(&mut api);
            let stats = GraphStats::compute(&mut api, &graph);
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print!("{}", stats.table());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Api(ApiCommand::Show { args }) => {
            let (dir, class) = match args.as_slice() {
                [class] => (None, class.clone()),
                [dir, class] => (Some(PathBuf::from(dir)), class.clone()),
                _ => bail!("usage: thalia api show [DIR] CLASS"),
            };
            let mut api = load(dir.as_deref())?;
            let Some(cid) = api.class_by_name(&class) else {
                let mut near: Vec<&str> = api
                    .classes
                    .iter()
                    .map(|c| c.name.as_str())
                    .filter(|n| n.ends_with(&format!(".{class}")) || n.contains(&class))
                    .collect();
                near.truncate(5);
                if near.is_empty() {
                    bail!("class `{class}` is not in {}", describe(dir.as_deref()));
                }
                bail!(
                    "class `{class}` is not in {}; did you mean {}?",
                    describe(dir.as_deref()),
                    near.join(", ")
                );
            };
            print!("{}", thalia::api::show_class(&mut api, cid));
            Ok(ExitCode::SUCCESS)
        }
        Command::Api(ApiCommand::Check { api: a }) => {
            let dir = a.dir.as_deref();
            let api = load(dir)?;
            for i in &api.report.issues {
                println!("{i}");
            }
            eprintln!("{}: {}", describe(dir), api.report.summary());
            Ok(if api.report.error_count() > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Api(ApiCommand::Rewrite { api: a, out }) => {
            let dir = a.dir.as_deref();
            let api = load(dir)?;
            report_load(&api, dir);
            let files = api
                .write_dir(&out)
                .with_context(|| format!("cannot write to {}", out.display()))?;
            eprintln!("wrote {} files to {}", files.len(), out.display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
