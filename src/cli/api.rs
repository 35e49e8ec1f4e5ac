//! `thalia api`: inspect an API.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use thalia::api::source::ApiSource;
use thalia::graph::ApiGraph;
use thalia::stats::GraphStats;

use super::{load_api, print_json, report_load};

#[derive(Args, Debug)]
pub(super) struct ApiArg {
    /// Directory of thalia API JSON files (searched recursively), or `@NAME` for one corpus
    /// embedded in the binary (e.g. `@java.base`); default: the whole embedded API from
    /// `api-json/`.
    dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub(super) enum ApiCommand {
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
    /// Compare two APIs member by member (e.g. the documentation and the bytecode extraction
    /// of one library): counts, and the differences grouped by kind (missing class, missing
    /// member, type differs, modifier differs, supertypes differ). Parameter names are not
    /// compared. Exits with 1 when the APIs differ.
    Diff {
        /// API A: a directory of API JSON files (searched recursively).
        a: PathBuf,
        /// API B.
        b: PathBuf,
        /// Print the comparison as JSON.
        #[arg(long)]
        json: bool,
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

pub(super) fn run(cmd: ApiCommand) -> Result<ExitCode> {
    match cmd {
        ApiCommand::Stats { api, json } => {
            let (_, mut api) = load_api(api.dir.as_ref())?;
            let graph = ApiGraph::build(&mut api);
            let stats = GraphStats::compute(&mut api, &graph);
            if json {
                print_json(&stats)?;
            } else {
                print!("{}", stats.table());
            }
        }
        ApiCommand::Show { args } => {
            let (dir, class) = match args.as_slice() {
                [class] => (None, class.clone()),
                [dir, class] => (Some(PathBuf::from(dir)), class.clone()),
                _ => bail!("usage: thalia api show [DIR] CLASS"),
            };
            let source = ApiSource::from_arg(dir.as_deref());
            let mut api = source.load()?;
            let Some(cid) = api.class_by_name(&class) else {
                let near = thalia::api::similar_class_names(&api, &class, 5);
                if near.is_empty() {
                    bail!("class `{class}` is not in {}", source.label());
                }
                bail!(
                    "class `{class}` is not in {}; did you mean {}?",
                    source.label(),
                    near.join(", ")
                );
            };
            print!("{}", thalia::api::show_class(&mut api, cid));
        }
        ApiCommand::Check { api } => {
            let source = ApiSource::from_arg(api.dir.as_deref());
            let api = source.load()?;
            for i in &api.report.issues {
                println!("{i}");
            }
            eprintln!("{}: {}", source.label(), api.report.summary());
            if api.report.error_count() > 0 {
                return Ok(ExitCode::from(1));
            }
        }
        ApiCommand::Diff { a, b, json } => {
            let read = |d: &PathBuf| -> Result<Vec<thalia_extractors::ClassDoc>> {
                if !d.is_dir() {
                    bail!("{}: not a directory of API JSON files", d.display());
                }
                let (docs, errors) = thalia_extractors::read_api_dir(d);
                for e in &errors {
                    eprintln!("warning: {e}");
                }
                Ok(docs.into_iter().map(|(_, doc)| doc).collect())
            };
            let (da, db) = (read(&a)?, read(&b)?);
            let d = thalia_extractors::diff::diff(&da, &db);
            if json {
                print_json(&d)?;
            } else {
                print!(
                    "{}",
                    d.text(&a.display().to_string(), &b.display().to_string())
                );
            }
            if !d.is_empty() {
                return Ok(ExitCode::from(1));
            }
        }
        ApiCommand::Rewrite { api, out } => {
            let source = ApiSource::from_arg(api.dir.as_deref());
            let api = source.load()?;
            report_load(&api, &source);
            let files = api
                .write_dir(&out)
                .with_context(|| format!("cannot write to {}", out.display()))?;
            eprintln!("wrote {} files to {}", files.len(), out.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
