//! `thalia bisect`: the releases of a finding's compiler that show it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use thalia::campaign::bisect::{bisect, BisectOptions, BISECT_FILE};

use super::progress;

#[derive(Args, Debug)]
pub(super) struct BisectArgs {
    /// A finding's directory (`RUN/bugs/<signature>/`), written by `thalia run` or `check`.
    dir: PathBuf,
    /// Consider pre-releases (alphas, betas, release candidates, milestones) too.
    #[arg(long)]
    pre_releases: bool,
    /// The oldest release to consider (inclusive).
    #[arg(long, value_name = "VERSION")]
    from: Option<String>,
    /// The newest release to consider (inclusive).
    #[arg(long, value_name = "VERSION")]
    to: Option<String>,
    /// A Maven repository to list and install releases from (repeatable; default: the
    /// user's Maven configuration).
    #[arg(long = "repo", value_name = "URL")]
    repos: Vec<String>,
}

pub(super) fn run(args: BisectArgs) -> Result<ExitCode> {
    let opts = BisectOptions {
        pre_releases: args.pre_releases,
        from: args.from,
        to: args.to,
        repos: args.repos,
        progress: progress(),
    };
    let b = bisect(&args.dir, &opts)
        .with_context(|| format!("cannot bisect {}", args.dir.display()))?;
    for p in &b.probes {
        let what = match (p.shows, &p.error) {
            (Some(true), _) => "shows the finding",
            (Some(false), _) => "does not show it",
            (None, Some(_)) => "not tested",
            (None, None) => "not tested",
        };
        eprintln!(
            "  {}@{}: {} ({:.1}s){}",
            b.compiler,
            p.version,
            what,
            p.seconds,
            p.error
                .as_ref()
                .map(|e| format!(": {}", e.lines().next().unwrap_or_default()))
                .unwrap_or_default()
        );
    }
    println!("{}", b.range);
    eprintln!(
        "{} releases considered, {} compiled in {:.1}s; {}",
        b.candidates.len(),
        b.probes.len(),
        b.seconds,
        args.dir.join(BISECT_FILE).display()
    );
    Ok(ExitCode::SUCCESS)
}
