//! Compiler toolchains: kotlinc, scalac (3 and 2.13) and groovyc installed from Maven artifacts
//! through thalia's own resolver, and the running JDK's javac; listed, and run.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use thalia_extractors::maven::{
    compare_versions, Coordinate, MavenError, RepoConfig, Resolver, ResolverOptions,
};

use crate::profile::{
    CompilerProfile, Install, Launch, MavenCompiler, VersionMiss, VersionRules, CLASSPATH_FLAGS,
    JVM_FLAGS,
};

pub use crate::profile::Tool;

/// An installed toolchain (`toolchain.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Toolchain {
    /// Which compiler.
    pub tool: Tool,
    /// Its version.
    pub version: String,
    /// The compiler's own classpath (empty for javac).
    pub classpath: Vec<PathBuf>,
    /// The language's runtime library, which compiled programs need on their classpath
    /// (kotlin-stdlib, scala-library, groovy).
    pub runtime: Vec<PathBuf>,
    /// The entry point.
    pub main_class: String,
    /// The `java` that runs it (javac: the `javac` executable).
    pub java: PathBuf,
    /// The Maven coordinate it was installed from.
    pub coordinate: Option<String>,
    /// Extra options of the compiler's JVM for this session (e.g. a `-javaagent:`), not
    /// recorded: given to `java` before the class path, to a JDK tool as `-J<option>`.
    #[serde(skip)]
    pub jvm_options: Vec<String>,
}

/// A toolchain problem.
#[derive(Debug, thiserror::Error)]
pub enum ToolchainError {
    /// The name is not a known compiler.
    #[error("unknown compiler `{0}` (known: {known})", known = CompilerProfile::known_names())]
    UnknownTool(String),
    /// Resolution or download failed.
    #[error("cannot install {tool}: {error}")]
    Maven {
        /// The compiler.
        tool: String,
        /// The resolver's error.
        error: Box<MavenError>,
    },
    /// No release matches the requested version prefix.
    #[error("no release of {tool} matches `{want}` (nearest releases: {available})")]
    NoSuchVersion {
        /// The compiler.
        tool: String,
        /// What was asked for.
        want: String,
        /// Some available versions.
        available: String,
    },
    /// The toolchain is not installed.
    #[error("{0} is not installed; run `thalia toolchain install {0}`")]
    NotInstalled(String),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// No JDK was found.
    #[error("cannot find a JDK (`java`/`javac`): set JAVA_HOME")]
    NoJdk,
    /// A release picked by a version prefix (or as the newest) whose files the repositories
    /// lacked at a recent try: it is not asked for again until the memo expires.
    #[error("{0}")]
    RecentlyMissing(Box<MissingRelease>),
    /// An offline install misses something in the Maven cache.
    #[error("cannot install {tool} offline from the Maven cache {cache}: {what}; install it once with network access into this cache (THALIA_MAVEN_CACHE), then again with --offline")]
    Offline {
        /// The compiler.
        tool: String,
        /// The Maven cache.
        cache: PathBuf,
        /// What is missing.
        what: String,
    },
}

/// The directory holding installed toolchains: `THALIA_TOOLCHAINS`, else
/// `<user cache dir>/thalia/toolchains`.
pub fn toolchains_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("THALIA_TOOLCHAINS") {
        return PathBuf::from(d);
    }
    user_cache_dir().join("thalia").join("toolchains")
}

/// The user's cache directory: `XDG_CACHE_HOME`, else `~/.cache` (the temporary directory
/// when neither is set). thalia keeps its toolchains, Maven cache and fetched APIs there.
pub fn user_cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
}

/// Parses `NAME[@VERSION]`.
pub fn parse_spec(spec: &str) -> Result<(Tool, Option<String>), ToolchainError> {
    let (name, version) = match spec.split_once('@') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (spec, None),
    };
    let tool = Tool::from_name(name).ok_or_else(|| ToolchainError::UnknownTool(name.into()))?;
    Ok((tool, version.filter(|v| !v.is_empty())))
}

/// The `java` (or `javac`) executable of the JDK in use.
fn jdk_tool(name: &str) -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        let p = PathBuf::from(home).join("bin").join(name);
        if p.exists() {
            return Some(p);
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.exists())
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> ToolchainError {
    ToolchainError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Installs a compiler: `version` may be exact (`2.1.0`), a prefix (`4` or `4.0` picks the
/// newest matching release), or absent (the latest release). Returns the toolchain.
pub fn install(
    tool: Tool,
    version: Option<&str>,
    repos: &[String],
    progress: bool,
) -> Result<Toolchain, ToolchainError> {
    install_with(tool, version, repos, progress, false)
}

/// The lock file, in a tool's directory of the toolchains directory, that serializes its
/// installs across processes (and machines sharing the directory).
pub const INSTALL_LOCK: &str = ".install.lock";

/// An exclusive advisory lock (`flock`) on a file, released when dropped.
#[derive(Debug)]
pub struct FileLock {
    _file: std::fs::File,
}

impl FileLock {
    /// Waits for the exclusive lock on `path` (created when missing).
    pub fn acquire(path: &Path) -> Result<FileLock, ToolchainError> {
        use std::os::unix::io::AsRawFd;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| io_err(path, e))?;
        loop {
            // SAFETY: flock on a file descriptor this function owns for the call's duration
            let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
            if rc == 0 {
                return Ok(FileLock { _file: file });
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(io_err(path, format!("cannot lock: {e}")));
            }
        }
    }
}

/// [`install`], or with `offline` from the Maven cache alone: no repository is asked, the
/// version is picked among the releases in the cache, and anything missing is an error
/// naming the cache (javac, the running JDK's, needs no network either way).
///
/// Installs of one tool are serialized by a lock file in its directory ([`INSTALL_LOCK`]),
/// and `toolchain.json` is written to a temporary file and renamed into place, so processes
/// on one machine or several sharing the toolchains directory (and the Maven cache, whose
/// downloads are renamed into place complete) leave one valid install.
pub fn install_with(
    tool: Tool,
    version: Option<&str>,
    repos: &[String],
    progress: bool,
    offline: bool,
) -> Result<Toolchain, ToolchainError> {
    let _lock = FileLock::acquire(&toolchains_dir().join(tool.name()).join(INSTALL_LOCK))?;
    let profile = tool.profile();
    let launcher = match profile.install {
        Install::Jdk { executable } => executable,
        Install::Maven { .. } => "java",
    };
    let java = jdk_tool(launcher).ok_or(ToolchainError::NoJdk)?;
    let tc = match profile.install {
        Install::Maven(maven) if offline => install_offline(profile, &maven, version, java)?,
        Install::Maven(maven) => install_maven(profile, &maven, version, repos, progress, java)?,
        Install::Jdk { .. } => {
            let out = Command::new(&java)
                .arg("-version")
                .output()
                .map_err(|e| io_err(&java, e))?;
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            let version = text
                .split_whitespace()
                .nth(1)
                .unwrap_or("unknown")
                .to_string();
            Toolchain {
                tool,
                version,
                classpath: Vec::new(),
                runtime: Vec::new(),
                main_class: profile.main_class.into(),
                java,
                coordinate: None,
                jvm_options: Vec::new(),
            }
        }
    };
    let dir = toolchains_dir().join(tool.name()).join(&tc.version);
    std::fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
    let file = dir.join("toolchain.json");
    let text = serde_json::to_string_pretty(&tc).unwrap_or_default();
    // a temporary file of this process's own, renamed into place complete
    let mut tmp = tempfile::Builder::new()
        .prefix(".toolchain.json.")
        .tempfile_in(&dir)
        .map_err(|e| io_err(&dir, e))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| io_err(tmp.path(), e))?;
    tmp.persist(&file).map_err(|e| io_err(&file, e.error))?;
    Ok(tc)
}

/// A compiler from the Maven cache alone (`thalia toolchain install --offline`): the version
/// picked among the releases whose POM is in the cache, resolved and "downloaded" with the
/// cache as the only repository, so that anything missing is an error.
fn install_offline(
    profile: &CompilerProfile,
    compiler: &MavenCompiler,
    version: Option<&str>,
    java: PathBuf,
) -> Result<Toolchain, ToolchainError> {
    let maven = |error| ToolchainError::Maven {
        tool: profile.name.into(),
        error: Box::new(error),
    };
    let cache = RepoConfig::discover_cache_dir().map_err(maven)?;
    let (group, artifact) = (compiler.group, compiler.artifact);
    let dir = cache.join(Coordinate::new(group, artifact, None).artifact_dir());
    let offline_miss = |what: String| ToolchainError::Offline {
        tool: profile.name.into(),
        cache: cache.clone(),
        what,
    };
    let cached: Vec<String> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|v| dir.join(v).join(format!("{artifact}-{v}.pom")).is_file())
        .collect();
    if cached.is_empty() {
        return Err(offline_miss(format!(
            "no release of {group}:{artifact} is in the cache"
        )));
    }
    let chosen = profile
        .versions
        .pick(&cached, version)
        .map_err(|miss| match miss {
            VersionMiss::Prefix { want, nearest } => ToolchainError::NoSuchVersion {
                tool: profile.name.into(),
                want: format!("{want} (offline: releases in the cache only)"),
                available: nearest.join(", "),
            },
            VersionMiss::NoStable => offline_miss(format!(
                "no stable release of {group}:{artifact} is in the cache ({})",
                cached.join(", ")
            )),
        })?;
    std::fs::create_dir_all(&cache).map_err(|e| io_err(&cache, e))?;
    let repo = thalia_extractors::maven::Repository::from_spec(
        "offline-cache",
        &cache.display().to_string(),
        None,
    )
    .map_err(maven)?;
    let resolver = Resolver::new(
        RepoConfig::new(vec![repo], cache.clone()),
        ResolverOptions::default(),
    )
    .map_err(maven)?;
    let coord = Coordinate::new(group, artifact, Some(&chosen));
    let missing = |e: MavenError| offline_miss(e.to_string());
    let resolution = resolver
        .resolve(std::slice::from_ref(&coord))
        .map_err(missing)?;
    let fetched = resolver.fetch(&resolution, false).map_err(missing)?;
    Ok(Toolchain {
        tool: profile.tool,
        version: chosen,
        classpath: fetched.iter().map(|f| f.jar.clone()).collect(),
        runtime: fetched
            .iter()
            .filter(|f| compiler.runtime.contains(&f.coordinate.artifact.as_str()))
            .map(|f| f.jar.clone())
            .collect(),
        main_class: profile.main_class.into(),
        java,
        coordinate: Some(coord.gav()),
        jvm_options: Vec::new(),
    })
}

/// Resolves and downloads a compiler published on Maven, the version picked by the profile's
/// [`VersionRules::pick`].
fn install_maven(
    profile: &CompilerProfile,
    compiler: &MavenCompiler,
    version: Option<&str>,
    repos: &[String],
    progress: bool,
    java: PathBuf,
) -> Result<Toolchain, ToolchainError> {
    let maven = |error| ToolchainError::Maven {
        tool: profile.name.into(),
        error: Box::new(error),
    };
    let resolver = resolver(repos, progress).map_err(maven)?;
    let (group, artifact) = (compiler.group, compiler.artifact);
    let meta = resolver.metadata(group, artifact).map_err(maven)?;
    let chosen = profile
        .versions
        .pick(&meta.versions, version)
        .map_err(|miss| match miss {
            VersionMiss::Prefix { want, nearest } => ToolchainError::NoSuchVersion {
                tool: profile.name.into(),
                want,
                available: nearest.join(", "),
            },
            VersionMiss::NoStable => ToolchainError::NoSuchVersion {
                tool: profile.name.into(),
                want: "latest".into(),
                available: String::new(),
            },
        })?;
    let coord = Coordinate::new(group, artifact, Some(&chosen));
    let resolution = resolver
        .resolve(std::slice::from_ref(&coord))
        .map_err(maven)?;
    let fetched = resolver.fetch(&resolution, false).map_err(maven)?;
    let classpath: Vec<PathBuf> = fetched.iter().map(|f| f.jar.clone()).collect();
    let runtime = fetched
        .iter()
        .filter(|f| compiler.runtime.contains(&f.coordinate.artifact.as_str()))
        .map(|f| f.jar.clone())
        .collect();
    Ok(Toolchain {
        tool: profile.tool,
        version: chosen,
        classpath,
        runtime,
        main_class: profile.main_class.into(),
        java,
        coordinate: Some(coord.gav()),
        jvm_options: Vec::new(),
    })
}

/// thalia's Maven resolver over `repos` (or the user's configuration).
fn resolver(repos: &[String], progress: bool) -> Result<Resolver, MavenError> {
    let config = RepoConfig::discover(repos)?;
    Resolver::new(
        config,
        ResolverOptions {
            progress,
            ..ResolverOptions::default()
        },
    )
}

/// Resolves library coordinates (`group:artifact:version`) with their dependencies through
/// thalia's resolver and downloads the jars into the Maven cache; returns them in classpath
/// order.
pub fn library_jars(
    coords: &[String],
    repos: &[String],
    progress: bool,
) -> Result<Vec<PathBuf>, ToolchainError> {
    let maven = |error| ToolchainError::Maven {
        tool: coords.join(", "),
        error: Box::new(error),
    };
    let roots = coords
        .iter()
        .map(|c| c.parse::<Coordinate>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(maven)?;
    let resolver = resolver(repos, progress).map_err(maven)?;
    let resolution = resolver.resolve(&roots).map_err(maven)?;
    let fetched = resolver.fetch(&resolution, false).map_err(maven)?;
    Ok(fetched.into_iter().map(|f| f.jar).collect())
}

/// Every installed toolchain, by tool then version (newest last).
pub fn list() -> Vec<Toolchain> {
    let mut out = Vec::new();
    let root = toolchains_dir();
    for tool in Tool::ALL {
        let Ok(entries) = std::fs::read_dir(root.join(tool.name())) else {
            continue;
        };
        let mut found: Vec<Toolchain> = entries
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path().join("toolchain.json")).ok())
            .filter_map(|t| serde_json::from_str(&t).ok())
            .collect();
        found.sort_by(|a, b| compare_versions(&a.version, &b.version));
        out.extend(found);
    }
    out
}

/// How long the release list of a compiler, once read from the repositories, answers "the
/// newest release" before they are asked again (a day's campaigns share one lookup; a new
/// release is seen the next day, or at once with `toolchain install`).
pub const RELEASES_CACHE_SECONDS: u64 = 12 * 3600;

/// The releases of a compiler as last read from the repositories
/// (`<toolchains>/<tool>/releases.json`).
#[derive(Serialize, Deserialize)]
struct CachedReleases {
    /// Seconds since the Unix epoch when they were read.
    checked: u64,
    /// The repositories asked (`--repo` values; empty: the user's configuration).
    repos: Vec<String>,
    /// Every version the metadata listed.
    versions: Vec<String>,
}

/// How long a release whose files the repositories lack (its compiler's POM or a dependency
/// answered "not found") is not asked for again when a version prefix or no version picked
/// it, in seconds: a day, so a campaign's differential oracle `scala3@3.3` falls back to the
/// release before a broken newest one at once on every launch, and a republished release is
/// tried again the next day.
pub const MISSING_RELEASE_TTL: u64 = 24 * 3600;

/// A release found missing from the repositories lately ([`ToolchainError::RecentlyMissing`]).
#[derive(Debug, thiserror::Error)]
#[error("{tool}@{version} could not be installed {age} ago ({reason}); not asked again for {ttl_hours} hours (remove {} to try now, or name the release exactly)", marker.display())]
pub struct MissingRelease {
    /// The compiler.
    pub tool: String,
    /// The release.
    pub version: String,
    /// How long ago it was found missing (`3h`, `12 min`).
    pub age: String,
    /// What was missing.
    pub reason: String,
    /// The memo's lifetime.
    pub ttl_hours: u64,
    /// The memo file.
    pub marker: PathBuf,
}

/// The memo file of a release of `tool` found missing.
fn missing_marker(tool: Tool, version: &str) -> PathBuf {
    toolchains_dir()
        .join(tool.name())
        .join(".missing")
        .join(version)
}

/// Records that release `version` of `tool` could not be installed because the repositories
/// lack a file of it (`why`); a failure to write the memo only costs a retry.
pub fn remember_missing(tool: Tool, version: &str, why: &str) {
    let marker = missing_marker(tool, version);
    if let Some(dir) = marker.parent() {
        if std::fs::create_dir_all(dir).is_ok() {
            let text = format!("{}\n{why}\n", now_seconds());
            let tmp = marker.with_extension("tmp");
            if std::fs::write(&tmp, text).is_ok() {
                let _ = std::fs::rename(&tmp, &marker);
            }
        }
    }
}

/// The error for release `version` of `tool` when it was found missing less than
/// [`MISSING_RELEASE_TTL`] ago.
pub fn recently_missing(tool: Tool, version: &str) -> Option<ToolchainError> {
    let marker = missing_marker(tool, version);
    let text = std::fs::read_to_string(&marker).ok()?;
    let mut lines = text.lines();
    let when: u64 = lines.next()?.trim().parse().ok()?;
    let age = now_seconds().saturating_sub(when);
    (age < MISSING_RELEASE_TTL).then(|| {
        ToolchainError::RecentlyMissing(Box::new(MissingRelease {
            tool: tool.name().into(),
            version: version.into(),
            age: if age >= 3600 {
                format!("{}h", age / 3600)
            } else {
                format!("{} min", age / 60)
            },
            reason: lines.next().unwrap_or("a file not found").to_string(),
            ttl_hours: MISSING_RELEASE_TTL / 3600,
            marker,
        }))
    })
}

/// A compiler named by the user (`NAME[@VERSION]`) resolved to one release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedSpec {
    /// The compiler.
    pub tool: Tool,
    /// The exact release (`None` for the JDK's javac named without a version: the running
    /// JDK's).
    pub version: Option<String>,
    /// How it was chosen, for the user (`None` when the spec named an installed release).
    pub note: Option<String>,
}

impl ResolvedSpec {
    /// `NAME@VERSION` (or `NAME` for the JDK's javac).
    pub fn spec(&self) -> String {
        match &self.version {
            Some(v) => format!("{}@{v}", self.tool.name()),
            None => self.tool.name().to_string(),
        }
    }
}

fn now_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A compiler's releases as read from the repositories (or why they could not be asked),
/// and the last list cached with its age in seconds.
type Releases = (
    Result<Vec<String>, ToolchainError>,
    Option<(Vec<String>, u64)>,
);

/// The releases of `compiler` listed by the repositories, from the cache when it is fresh
/// ([`RELEASES_CACHE_SECONDS`]); with the last cached list and its age.
fn releases(
    profile: &CompilerProfile,
    compiler: &MavenCompiler,
    repos: &[String],
    progress: bool,
) -> Releases {
    let file = toolchains_dir().join(profile.name).join("releases.json");
    let cached = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| serde_json::from_str::<CachedReleases>(&t).ok())
        .filter(|c| c.repos == repos && !c.versions.is_empty())
        .map(|c| (c.versions, now_seconds().saturating_sub(c.checked)));
    if let Some((versions, age)) = &cached {
        if *age < RELEASES_CACHE_SECONDS {
            return (Ok(versions.clone()), None);
        }
    }
    let asked = resolver(repos, progress)
        .and_then(|r| r.metadata(compiler.group, compiler.artifact))
        .map(|m| m.versions.clone())
        .map_err(|error| ToolchainError::Maven {
            tool: profile.name.into(),
            error: Box::new(error),
        });
    if let Ok(versions) = &asked {
        let record = CachedReleases {
            checked: now_seconds(),
            repos: repos.to_vec(),
            versions: versions.clone(),
        };
        // a cache: failing to write it only means asking again next time
        if let (Some(dir), Ok(text)) = (file.parent(), serde_json::to_string(&record)) {
            let tmp = dir.join(format!(".releases.{}.tmp", std::process::id()));
            let _ = std::fs::create_dir_all(dir)
                .and_then(|_| std::fs::write(&tmp, text))
                .and_then(|_| std::fs::rename(&tmp, &file));
        }
    }
    (asked, cached)
}

/// Every release of `tool` the repositories list (their list cached for
/// [`RELEASES_CACHE_SECONDS`], as [`resolve_spec`] reads it), pre-releases included, with a
/// note when the repositories could not be asked and the last list read from them answered.
/// An error when the compiler comes with the JDK, or the repositories cannot be asked and no
/// list was ever read.
pub fn release_list(
    tool: Tool,
    repos: &[String],
    progress: bool,
) -> Result<(Vec<String>, Option<String>), ToolchainError> {
    let profile = tool.profile();
    let Install::Maven(compiler) = profile.install else {
        return Err(ToolchainError::NoSuchVersion {
            tool: profile.name.into(),
            want: "a release list".into(),
            available: "it comes with the JDK".into(),
        });
    };
    let (asked, cached) = releases(profile, &compiler, repos, progress);
    match (asked, cached) {
        (Ok(v), _) => Ok((v, None)),
        (Err(e), Some((v, age))) => Ok((
            v,
            Some(format!(
                "offline: the releases as the repositories listed them {} hours ago ({e})",
                age / 3600
            )),
        )),
        (Err(e), None) => Err(e),
    }
}

/// The stable releases of `spec`'s compiler that start with its version (`scala3@3.3`) and
/// are older than `below`, newest first, at most `n`: what to fall back to when `below`, the
/// newest of the series, cannot be installed (a POM missing from the repositories).
pub fn older_releases(spec: &str, below: &str, n: usize, repos: &[String]) -> Vec<String> {
    let Ok((tool, Some(want))) = parse_spec(spec) else {
        return Vec::new();
    };
    let profile = tool.profile();
    let Install::Maven(compiler) = profile.install else {
        return Vec::new();
    };
    let (asked, cached) = releases(profile, &compiler, repos, false);
    let versions = asked.ok().or(cached.map(|(v, _)| v)).unwrap_or_default();
    older_of(versions, &want, below, n, &profile.versions)
}

/// Of `versions`, the stable ones that start with `want` and are older than `below`, newest
/// first, at most `n` (see [`older_releases`]).
fn older_of(
    versions: Vec<String>,
    want: &str,
    below: &str,
    n: usize,
    rules: &VersionRules,
) -> Vec<String> {
    let prefix = want.trim_end_matches(['.', 'x']);
    let mut older: Vec<String> = versions
        .into_iter()
        .filter(|v| {
            rules.is_stable(v)
                && crate::profile::prefix_at_separator(v, prefix)
                && compare_versions(v, below) == std::cmp::Ordering::Less
        })
        .collect();
    older.sort_by(|a, b| compare_versions(b, a));
    older.truncate(n);
    older
}

/// Resolves `NAME[@VERSION]` to one release the way `toolchain install` does: no version is
/// the newest stable release and a prefix the newest stable release that starts with it,
/// according to the repositories (their list cached for [`RELEASES_CACHE_SECONDS`]); an
/// installed release named exactly needs no lookup. When the repositories cannot be asked,
/// the last list read from them answers, else the newest installed release that matches;
/// the note says which.
pub fn resolve_spec(
    spec: &str,
    repos: &[String],
    progress: bool,
) -> Result<ResolvedSpec, ToolchainError> {
    let (tool, want) = parse_spec(spec)?;
    let profile = tool.profile();
    // the JDK's javac: no release to look up; a version names an installed toolchain
    let Install::Maven(compiler) = profile.install else {
        return Ok(ResolvedSpec {
            tool,
            version: want,
            note: None,
        });
    };
    if let Some(w) = &want {
        if list().iter().any(|t| t.tool == tool && &t.version == w) {
            return Ok(ResolvedSpec {
                tool,
                version: Some(w.clone()),
                note: None,
            });
        }
    }
    let asked_for = match &want {
        Some(w) => format!("the newest release matching `{w}`"),
        None => "the newest release".to_string(),
    };
    let pick = |versions: &[String]| {
        profile
            .versions
            .pick(versions, want.as_deref())
            .map_err(|miss| match miss {
                VersionMiss::Prefix { want, nearest } => ToolchainError::NoSuchVersion {
                    tool: profile.name.into(),
                    want,
                    available: nearest.join(", "),
                },
                VersionMiss::NoStable => ToolchainError::NoSuchVersion {
                    tool: profile.name.into(),
                    want: "latest".into(),
                    available: String::new(),
                },
            })
    };
    let (asked, cached) = releases(profile, &compiler, repos, progress);
    let (version, how) = match asked {
        Ok(versions) => (
            pick(&versions)?,
            "per the repositories' metadata".to_string(),
        ),
        Err(e) => match cached {
            Some((versions, age)) => (
                pick(&versions)?,
                format!(
                    "offline: per the repositories' metadata as read {} hours ago ({e})",
                    age / 3600
                ),
            ),
            None => {
                let installed = list()
                    .into_iter()
                    .filter(|t| t.tool == tool)
                    .map(|t| t.version)
                    .collect::<Vec<_>>();
                match pick(&installed) {
                    Ok(v) => (v, format!("offline: the newest installed release ({e})")),
                    Err(_) => return Err(e),
                }
            }
        },
    };
    Ok(ResolvedSpec {
        tool,
        note: Some(format!(
            "{}@{version}: {asked_for} of {}, {how}",
            tool.name(),
            profile.name
        )),
        version: Some(version),
    })
}

/// The installed toolchain for `NAME[@VERSION]` (a version prefix picks the newest match;
/// no version picks the newest installed).
pub fn find(spec: &str) -> Result<Toolchain, ToolchainError> {
    let (tool, version) = parse_spec(spec)?;
    let all: Vec<Toolchain> = list().into_iter().filter(|t| t.tool == tool).collect();
    let pick = match &version {
        None => all.last().cloned(),
        Some(v) => all
            .iter()
            .rev()
            .find(|t| VersionRules::installed_matches(&t.version, v))
            .cloned(),
    };
    pick.ok_or_else(|| ToolchainError::NotInstalled(spec.to_string()))
}

impl Toolchain {
    /// The command that runs the compiler by hand (`thalia toolchain exec`) on `args`: the
    /// output directory given with the profile's output flag is created first (Scala and
    /// Kotlin refuse a missing one), and a compiler that colours its output by default is
    /// told not to unless `color`.
    pub fn exec_command(&self, args: &[String], color: bool) -> Result<Command, ToolchainError> {
        let flags = &self.tool.profile().flags;
        let out = match flags.output {
            crate::profile::OutputFlag::Separate(f) => args
                .iter()
                .position(|a| a == f)
                .and_then(|i| args.get(i + 1))
                .map(PathBuf::from),
            crate::profile::OutputFlag::Joined(f) => args
                .iter()
                .find_map(|a| a.strip_prefix(f).map(PathBuf::from)),
        };
        if let Some(dir) = out {
            std::fs::create_dir_all(&dir).map_err(|e| ToolchainError::Io {
                path: dir.clone(),
                message: e.to_string(),
            })?;
        }
        let mut args = args.to_vec();
        if let Some(flag) = flags.no_color.filter(|_| !color) {
            let stem = flag.split(':').next().unwrap_or(flag);
            if !args.iter().any(|a| a.starts_with(stem)) {
                args.insert(0, flag.to_string());
            }
        }
        Ok(self.command(&args))
    }

    /// The command that runs this compiler with `args` (the language's runtime library is
    /// added to the classpath the program is compiled against).
    pub fn command(&self, args: &[String]) -> Command {
        let mut c = Command::new(&self.java);
        let Launch::Jvm {
            prefix,
            runtime_on_classpath,
        } = self.tool.profile().launch
        else {
            c.args(self.jvm_options.iter().map(|o| format!("-J{o}")));
            c.args(args);
            return c;
        };
        let sep = if cfg!(windows) { ";" } else { ":" };
        let join = |v: &[PathBuf]| {
            v.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(sep)
        };
        c.args(&self.jvm_options)
            .args(JVM_FLAGS)
            .arg("-cp")
            .arg(join(&self.classpath))
            .arg(&self.main_class)
            .args(prefix);
        if !runtime_on_classpath {
            c.args(args);
            return c;
        }
        // one classpath: the runtime library is added to the programs'
        let runtime = join(&self.runtime);
        let mut args = args.to_vec();
        match args
            .iter()
            .position(|a| CLASSPATH_FLAGS.contains(&a.as_str()))
        {
            Some(i) if i + 1 < args.len() => {
                args[i + 1] = format!("{}{sep}{runtime}", args[i + 1]);
            }
            _ => {
                args.insert(0, runtime);
                args.insert(0, self.tool.profile().flags.classpath.into());
            }
        }
        c.args(args);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_falls_back_to_its_older_stable_releases_newest_first() {
        let versions: Vec<String> = [
            "3.3.0",
            "3.3.8",
            "3.3.9",
            "3.3.10-RC1",
            "3.3.7",
            "3.4.0",
            "3.30.1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let rules = VersionRules::LATEST_STABLE;
        assert_eq!(
            older_of(versions.clone(), "3.3", "3.3.9", 2, &rules),
            ["3.3.8", "3.3.7"]
        );
        // `3.3` is not a prefix of `3.30.1`; nothing older than the oldest
        assert_eq!(
            older_of(versions.clone(), "3.3.x", "3.3.1", 2, &rules),
            ["3.3.0"]
        );
        assert!(older_of(versions, "3.3", "3.3.0", 2, &rules).is_empty());
    }
}
