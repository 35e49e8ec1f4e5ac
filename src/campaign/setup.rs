//! What a campaign is before it runs, shared by `thalia run` and `thalia check`: the user's
//! compile settings checked against named limits, the run's identity (what a resumed run must
//! agree on), its manifest and session options, and the compiler it uses.

use std::path::Path;
use std::time::Duration;

use thalia_translators::Language;

use super::budget::Budget;
use super::driver::{Against, CampaignOptions};
use super::records::{CompilerInfo, Manifest, Session, MANIFEST};
use super::variant::Variant;
use crate::compile::{command_line, CompileOptions, Mode as CompileMode};
use crate::toolchain::{self, Toolchain, ToolchainError};

pub use super::identity::{
    recorded_synth_config, CheckIdentity, RunIdentity, SessionOptions, SynthIdentity,
};

/// The longest per-file time budget accepted (a week): anything longer is a typo, and larger
/// values overflow the clocks that enforce it.
pub const MAX_TIMEOUT_SECONDS: f64 = 7.0 * 86_400.0;
/// The most compiler workers accepted: each runs a compiler JVM, so more than this would only
/// exhaust memory.
pub const MAX_JOBS: usize = 256;
/// The most programs per compiler invocation accepted (each batch is also held in memory).
pub const MAX_BATCH_SIZE: usize = 100_000;

/// How a user asked a campaign to compile (the command-line flags of `run` and `check`).
#[derive(Clone, Debug)]
pub struct CompileSettings {
    /// The programs' classpath, when given (otherwise the API's).
    pub classpath: Option<String>,
    /// Extra Maven repositories (compilers and library jars are resolved through them).
    pub repos: Vec<String>,
    /// Programs per compiler invocation.
    pub batch_size: usize,
    /// Compiler workers (default: half the cores).
    pub jobs: Option<usize>,
    /// When to stop.
    pub budget: Budget,
    /// Per-file time budget in seconds.
    pub timeout_seconds: f64,
    /// A warm compile server instead of a process per batch.
    pub server: bool,
    /// Show progress bars.
    pub progress: bool,
}

impl CompileSettings {
    /// Checks every setting against its limit.
    pub fn validate(&self) -> Result<(), SetupError> {
        let t = self.timeout_seconds;
        if !(t.is_finite() && t > 0.0 && t <= MAX_TIMEOUT_SECONDS) {
            return Err(SetupError::Setting(format!(
                "--timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECONDS} (got {t})"
            )));
        }
        if self.batch_size == 0 || self.batch_size > MAX_BATCH_SIZE {
            return Err(SetupError::Setting(format!(
                "--batch-size must be between 1 and {MAX_BATCH_SIZE} (got {})",
                self.batch_size
            )));
        }
        if let Some(j) = self.jobs.filter(|&j| j == 0 || j > MAX_JOBS) {
            return Err(SetupError::Setting(format!(
                "--jobs must be between 1 and {MAX_JOBS} (got {j})"
            )));
        }
        Ok(())
    }
}

/// A setting out of range, or a compiler that cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A setting is out of its range.
    #[error("{0}")]
    Setting(String),
    /// The compiler could not be found or installed.
    #[error(transparent)]
    Toolchain(#[from] ToolchainError),
    /// A compiler variant of `--against` is unknown or does not fit.
    #[error("{0}")]
    Variant(String),
    /// The checked directory could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The compiler (`NAME`) of a language's programs (its profile's default).
pub fn default_compiler(lang: Language) -> &'static str {
    // every language has a default compiler (a unit test of `profile` checks it)
    crate::profile::CompilerProfile::for_language(lang).map_or("javac", |p| p.name)
}

/// `NAME@VERSION` of a toolchain.
pub fn compiler_label(tc: &Toolchain) -> String {
    format!("{}@{}", tc.tool.name(), tc.version)
}

/// The toolchain for `spec` (`NAME[@VERSION]`), installed first when missing. No version
/// means the newest stable release and a prefix the newest release it starts
/// ([`toolchain::resolve_spec`]: the repositories' metadata, cached; offline the newest
/// installed release); how the release was chosen is printed.
pub fn toolchain_for(
    spec: &str,
    repos: &[String],
    progress: bool,
) -> Result<Toolchain, SetupError> {
    let resolved = toolchain::resolve_spec(spec, repos, progress)?;
    if let Some(note) = &resolved.note {
        eprintln!("compiler: {note}");
    }
    // a release the user did not name exactly, found missing from the repositories lately,
    // is not asked for again (`scala3@3.3` when its newest release lacks a POM)
    let exact = toolchain::parse_spec(spec)?.1 == resolved.version;
    let spec = resolved.spec();
    let spec = spec.as_str();
    match toolchain::find(spec) {
        Ok(t) => Ok(t),
        Err(ToolchainError::NotInstalled(_)) => {
            let (tool, version) = toolchain::parse_spec(spec)?;
            if let (false, Some(v)) = (exact, &version) {
                if let Some(e) = toolchain::recently_missing(tool, v) {
                    return Err(e.into());
                }
            }
            eprintln!("installing {spec}");
            toolchain::install(tool, version.as_deref(), repos, progress).map_err(|e| {
                if let (ToolchainError::Maven { error, .. }, Some(v)) = (&e, &version) {
                    if error.is_not_found() {
                        toolchain::remember_missing(tool, v, &error.to_string());
                    }
                }
                e.into()
            })
        }
        Err(e) => Err(e.into()),
    }
}

/// Checks `settings` against the limits and turns them into the manifest's compiler record
/// and the campaign's options.
pub fn campaign_options(
    tc: &Toolchain,
    settings: &CompileSettings,
    classpath: Option<String>,
) -> Result<(CompilerInfo, CampaignOptions), SetupError> {
    settings.validate()?;
    let t = settings.timeout_seconds;
    let jobs = settings.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
    });
    let info = CompilerInfo {
        tool: tc.tool,
        version: tc.version.clone(),
        coordinate: tc.coordinate.clone(),
        mode: if settings.server { "server" } else { "process" }.into(),
        // the command a finding's `repro.sh` runs: without this session's JVM options (a
        // coverage agent would append a reproduction to the campaign's execution data)
        command: command_line(
            &Toolchain {
                jvm_options: Vec::new(),
                ..tc.clone()
            },
            classpath.as_deref(),
            Path::new("@OUT@"),
            &[std::path::PathBuf::from("@FILE@")],
        ),
        classpath: classpath.clone(),
        timeout_seconds: t,
        variant: None,
    };
    let opts = CampaignOptions {
        batch_size: settings.batch_size,
        jobs,
        budget: settings.budget,
        compile: CompileOptions {
            classpath,
            timeout: Duration::from_secs_f64(t),
            flags: Vec::new(),
        },
        mode: if settings.server {
            CompileMode::Server
        } else {
            CompileMode::Process
        },
        progress: settings.progress,
        twin: None,
        against: Vec::new(),
        twin_runtime: tc.runtime.clone(),
        differential: false,
        oracles: Vec::new(),
        run: None,
        flags: super::flags::FlagPlan::default(),
        feedback: None,
    };
    Ok((info, opts))
}

/// The other compilers of `--against` (`NAME@VERSION[:VARIANT]`; `:VARIANT` alone is the
/// compiler under test, `under_test`, run as the variant), installed when missing, with their
/// manifest records (same settings and classpath as the compiler under test).
pub fn against(
    specs: &[String],
    under_test: &Toolchain,
    settings: &CompileSettings,
    classpath: Option<&str>,
) -> Result<(Vec<Against>, Vec<CompilerInfo>), SetupError> {
    let mut out = Vec::new();
    let mut infos = Vec::new();
    for spec in specs {
        let (compiler, variant) = super::variant::split_spec(spec);
        let tc = if compiler.is_empty() {
            under_test.clone()
        } else {
            toolchain_for(compiler, &settings.repos, settings.progress)?
        };
        let variant = variant
            .map(|v| Variant::find(v, tc.tool))
            .transpose()
            .map_err(|e| SetupError::Variant(e.to_string()))?;
        if variant.is_none() && compiler_label(&tc) == compiler_label(under_test) {
            return Err(SetupError::Variant(format!(
                "--against {spec} is the compiler under test itself: give another release or a variant (`:VARIANT`)"
            )));
        }
        let (mut info, _) = campaign_options(&tc, settings, classpath.map(str::to_string))?;
        if let Some(v) = variant {
            info.variant = Some(v.name.to_string());
            let at = info.command.len() - 1;
            info.command.splice(at..at, v.flag_list());
        }
        out.push(Against {
            toolchain: tc,
            variant,
        });
        infos.push(info);
    }
    Ok((out, infos))
}

/// The manifest of a new session of the run `identity` (a resumed run keeps its earlier
/// sessions: the store merges them); `command` is the command line the session records.
pub fn manifest(
    identity: RunIdentity,
    compiler: CompilerInfo,
    settings: &CompileSettings,
    opts: &CampaignOptions,
    command: Vec<String>,
) -> Manifest {
    Manifest {
        tool: "thalia".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        kind: identity.kind().into(),
        identity,
        compiler,
        against: Vec::new(),
        merged: Vec::new(),
        sessions: vec![Session {
            started: super::store::now(),
            seconds: 0.0,
            programs: 0,
            options: SessionOptions {
                batch_size: opts.batch_size,
                jobs: opts.jobs,
                budget: settings.budget.to_string(),
                timeout_seconds: settings.timeout_seconds,
                server: settings.server,
                command,
            },
            untranslatable: Default::default(),
        }],
    }
}

/// The seed recorded in the run directory `dir`, if it holds a synthesizing run.
pub fn recorded_seed(dir: &Path) -> Option<u64> {
    // rundir: a regular file, size-limited
    let text =
        crate::rundir::read_to_string_limited(&dir.join(MANIFEST), crate::rundir::MAX_JSON_BYTES)
            .ok()?;
    let m: Manifest = serde_json::from_str(&text).ok()?;
    m.identity.seed()
}

/// The identity of a check of the synthesized directory `dir` with compiler `compiler`.
pub fn check_identity(
    dir: &Path,
    language: Language,
    compiler: String,
) -> Result<CheckIdentity, SetupError> {
    let path = dir.join("programs.jsonl");
    // rundir: a regular file, size-limited
    let programs = crate::rundir::read_limited(&path, crate::rundir::MAX_RESULTS_BYTES)
        .map_err(|source| SetupError::Io { path, source })?;
    Ok(CheckIdentity {
        programs: dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .display()
            .to_string(),
        programs_jsonl_bytes: programs.len() as u64,
        programs_jsonl_hash: format!("{:016x}", crate::hash::fnv1a64(&programs)),
        language,
        compiler,
        against: Vec::new(),
        run: false,
        shard: None,
    })
}

/// The other releases and frontends that judge the findings of `under_test` that no Java
/// twin judges, by default (`NAME[@VERSION][:VARIANT]`, as `--against` takes them; `newest`
/// is the newest stable release): Kotlin the newest release and the other frontend (K2 for
/// 1.9 with `-language-version 2.0`, K1 for 2.0 to 2.2 with `-language-version 1.9`, and for
/// later releases, which have no K1, the newest 2.2 release's K1); Scala 3 its other series
/// (the LTS 3.3 against Next, the newest against the LTS); Scala 2.13 its newest release.
pub fn default_oracle_specs(
    tool: crate::profile::Tool,
    version: &str,
    newest: &str,
) -> Vec<String> {
    use crate::profile::Tool;
    let num = |i: usize| -> u64 {
        version
            .split(['.', '-'])
            .nth(i)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0)
    };
    let (major, minor) = (num(0), num(1));
    let name = tool.name();
    let mut specs = Vec::new();
    if version != newest {
        specs.push(format!("{name}@{newest}"));
    }
    match tool {
        Tool::Kotlin => match (major, minor) {
            (1, 9) => specs.push(":k2".into()),
            (2, 0..=2) => specs.push(":k1".into()),
            (2, _) | (3.., _) => specs.push(format!("{name}@2.2:k1")),
            _ => {}
        },
        Tool::Scala3 if (major, minor) != (3, 3) => specs.push(format!("{name}@3.3")),
        _ => {}
    }
    specs
}

/// The differential oracles of a campaign on `under_test`: `specs` (`None`: the defaults of
/// [`default_oracle_specs`]) resolved and installed when missing. An oracle that cannot be
/// had is left out with a warning: the findings it would judge stay unconfirmed.
pub fn oracles(
    specs: Option<&[String]>,
    under_test: &Toolchain,
    settings: &CompileSettings,
    classpath: Option<&str>,
) -> Vec<Against> {
    let specs: Vec<String> = match specs {
        Some(s) => s.to_vec(),
        None => {
            let tool = under_test.tool;
            if crate::api::library::library_coordinates(tool, &under_test.version).is_none() {
                return Vec::new();
            }
            match toolchain::resolve_spec(tool.name(), &settings.repos, settings.progress) {
                Ok(r) => match r.version {
                    Some(newest) => default_oracle_specs(tool, &under_test.version, &newest),
                    None => Vec::new(),
                },
                Err(e) => {
                    eprintln!(
                        "warning: differential oracle: cannot find the newest {} release ({e}): findings without a Java twin stay unconfirmed",
                        tool.name()
                    );
                    Vec::new()
                }
            }
        }
    };
    let mut out = Vec::new();
    for spec in &specs {
        match against(std::slice::from_ref(spec), under_test, settings, classpath) {
            Ok((mut a, _)) => out.append(&mut a),
            // a series whose newest release cannot be installed: the one before it
            Err(e) => match series_fallback(spec, under_test, settings, classpath) {
                Some((mut a, used)) => {
                    eprintln!("warning: differential oracle {spec}: {e}; {used} instead");
                    out.append(&mut a);
                }
                None => eprintln!(
                    "warning: differential oracle {spec} left out ({e}): the findings only it would judge stay unconfirmed"
                ),
            },
        }
    }
    out
}

/// For an oracle `spec` naming a series (`scala3@3.3`) whose newest release could not be
/// had, the oracle of the newest of the two releases before it that can, and its spec.
fn series_fallback(
    spec: &str,
    under_test: &Toolchain,
    settings: &CompileSettings,
    classpath: Option<&str>,
) -> Option<(Vec<Against>, String)> {
    let (compiler, variant) = super::variant::split_spec(spec);
    let newest = toolchain::resolve_spec(compiler, &settings.repos, false)
        .ok()?
        .version?;
    let name = compiler.split('@').next()?;
    toolchain::older_releases(compiler, &newest, 2, &settings.repos)
        .into_iter()
        .find_map(|v| {
            let exact = match variant {
                Some(var) => format!("{name}@{v}:{var}"),
                None => format!("{name}@{v}"),
            };
            against(
                std::slice::from_ref(&exact),
                under_test,
                settings,
                classpath,
            )
            .ok()
            .map(|(a, _)| (a, exact))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Tool;

    #[test]
    fn each_release_has_its_differential() {
        let s = |t, v: &str| {
            default_oracle_specs(t, v, if t == Tool::Kotlin { "2.4.21" } else { "3.9.0" })
        };
        assert_eq!(s(Tool::Kotlin, "1.8.21"), ["kotlin@2.4.21"]);
        assert_eq!(s(Tool::Kotlin, "1.9.24"), ["kotlin@2.4.21", ":k2"]);
        assert_eq!(s(Tool::Kotlin, "2.1.0"), ["kotlin@2.4.21", ":k1"]);
        assert_eq!(s(Tool::Kotlin, "2.4.21"), ["kotlin@2.2:k1"]);
        assert_eq!(s(Tool::Scala3, "3.3.0"), ["scala3@3.9.0"]);
        assert_eq!(s(Tool::Scala3, "3.9.0"), ["scala3@3.3"]);
        assert_eq!(s(Tool::Scala3, "3.5.0"), ["scala3@3.9.0", "scala3@3.3"]);
        assert_eq!(
            default_oracle_specs(Tool::Scala2, "2.13.10", "2.13.18"),
            ["scala2@2.13.18"]
        );
        assert!(default_oracle_specs(Tool::Scala2, "2.13.18", "2.13.18").is_empty());
    }
}
