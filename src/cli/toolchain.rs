//! `thalia toolchain`: the compilers under test.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use thalia::toolchain;

use super::progress;

#[derive(Subcommand, Debug)]
pub(super) enum ToolchainCommand {
    /// Install compilers: `kotlin`, `scala3`, `scala2`, `groovy`, `javac`, each optionally
    /// `@VERSION` (exact, or a prefix such as `groovy@4`); no version = the latest release.
    Install {
        /// `NAME[@VERSION]`...
        #[arg(required = true)]
        specs: Vec<String>,
        /// A Maven repository to use (repeatable; default: the user's configuration).
        #[arg(long = "repo", value_name = "URL")]
        repos: Vec<String>,
        /// Use the Maven cache alone (no network): the version is picked among the releases
        /// in the cache, and anything missing is an error (for compute nodes without network
        /// sharing a prepared cache).
        #[arg(long, conflicts_with = "repos")]
        offline: bool,
    },
    /// List installed toolchains with their versions.
    List,
    /// Run an installed compiler: `thalia toolchain exec kotlin@2.1 -- -d out Test.kt`.
    Exec {
        /// `NAME[@VERSION]` (a version prefix picks the newest installed match).
        spec: String,
        /// Arguments for the compiler (after `--`).
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Print the runtime classpath of a toolchain's language (kotlin-stdlib, scala-library,
    /// groovy), for running or compiling against compiled programs.
    Runtime {
        /// `NAME[@VERSION]`.
        spec: String,
    },
    /// Print the compiler's own classpath (its jars), for running it by hand.
    Classpath {
        /// `NAME[@VERSION]`.
        spec: String,
    },
}

/// Joins paths into a classpath.
fn join(paths: &[std::path::PathBuf]) -> Result<String> {
    let joined = std::env::join_paths(paths).context("a path holds the path separator")?;
    Ok(joined.to_string_lossy().into_owned())
}

pub(super) fn run(cmd: ToolchainCommand) -> Result<ExitCode> {
    match cmd {
        ToolchainCommand::Install {
            specs,
            repos,
            offline,
        } => {
            for spec in specs {
                let (tool, version) = toolchain::parse_spec(&spec)?;
                let tc =
                    toolchain::install_with(tool, version.as_deref(), &repos, progress(), offline)?;
                eprintln!(
                    "installed {}@{} ({} jars) in {}",
                    tc.tool.name(),
                    tc.version,
                    tc.classpath.len(),
                    toolchain::toolchains_dir()
                        .join(tc.tool.name())
                        .join(&tc.version)
                        .display()
                );
            }
        }
        ToolchainCommand::List => {
            let all = toolchain::list();
            if all.is_empty() {
                eprintln!(
                    "no toolchains installed in {} (try `thalia toolchain install kotlin`)",
                    toolchain::toolchains_dir().display()
                );
            }
            for t in all {
                println!(
                    "{:<8} {:<14} {}",
                    t.tool.name(),
                    t.version,
                    t.coordinate
                        .as_deref()
                        .unwrap_or(&t.java.display().to_string())
                );
            }
        }
        ToolchainCommand::Exec { spec, args } => {
            let tc = toolchain::find(&spec)?;
            let color = std::io::IsTerminal::is_terminal(&std::io::stdout());
            let status = tc
                .exec_command(&args, color)?
                .status()
                .with_context(|| format!("cannot run {}", tc.java.display()))?;
            // a compiler killed by a signal ends like it would in a shell: 128 + the signal
            #[cfg(unix)]
            let killed = std::os::unix::process::ExitStatusExt::signal(&status).map(|s| 128 + s);
            #[cfg(not(unix))]
            let killed = None;
            return Ok(ExitCode::from(
                status.code().or(killed).unwrap_or(1).clamp(0, 255) as u8,
            ));
        }
        ToolchainCommand::Runtime { spec } => {
            println!("{}", join(&toolchain::find(&spec)?.runtime)?);
        }
        ToolchainCommand::Classpath { spec } => {
            println!("{}", join(&toolchain::find(&spec)?.classpath)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}
