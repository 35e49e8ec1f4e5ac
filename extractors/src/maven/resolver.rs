//! Transitive resolution with Maven's rules, and fetching the resolved jars.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rayon::prelude::*;

use super::coordinate::Coordinate;
use super::error::{MavenError, Result};
use super::limits::{
    DEFAULT_FILE_DEADLINE, DEFAULT_MAX_DOWNLOAD_BYTES, DEFAULT_STALL_TIMEOUT, MAX_POM_CHAIN,
    MAX_XML_BYTES,
};
use super::metadata::Metadata;
use super::pom::{self, Dependency, Exclusion, Pom, RawPom};
use super::repo::RepoConfig;
use super::transport::{read_bounded, Transport, TransportSettings};
use super::version::{is_range, VersionRange};
use super::zipcheck::check_zip;

/// Knobs of the resolver.
#[derive(Debug, Clone)]
pub struct ResolverOptions {
    /// Time allowed to establish a connection.
    pub connect_timeout: Duration,
    /// Time allowed for a whole request, body included.
    pub timeout: Duration,
    /// Attempts per file when failures are transient.
    pub attempts: u32,
    /// The first pause between attempts (doubled each time).
    pub initial_backoff: Duration,
    /// Downloads running at once.
    pub parallelism: usize,
    /// Show a progress bar (only ever on a terminal).
    pub progress: bool,
    /// The size ceiling of one downloaded file, in bytes (default
    /// [`DEFAULT_MAX_DOWNLOAD_BYTES`]; POMs and metadata are further held to
    /// [`MAX_XML_BYTES`]).
    pub max_download_bytes: u64,
    /// The time one file may take at one repository, all attempts included (default
    /// [`DEFAULT_FILE_DEADLINE`]).
    pub file_deadline: Duration,
    /// An attempt that receives no byte for this long is abandoned and retried (default
    /// [`DEFAULT_STALL_TIMEOUT`]).
    pub stall_timeout: Duration,
    /// Follow the optional and `provided` dependencies of the roots themselves (Maven does
    /// not, for a dependency; thalia's roots are libraries the user named, whose public
    /// signatures name those dependencies' classes).
    pub follow_root_optional: bool,
    /// Apply each root's dependency management to its transitive dependencies, as when the
    /// root is the project being built. Off, the result is what a project that depends on the
    /// roots gets (`mvn dependency:list` on such a project).
    pub root_management: bool,
}

impl Default for ResolverOptions {
    fn default() -> Self {
        ResolverOptions {
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(120),
            attempts: 3,
            initial_backoff: Duration::from_millis(200),
            parallelism: 4,
            progress: true,
            max_download_bytes: DEFAULT_MAX_DOWNLOAD_BYTES,
            file_deadline: DEFAULT_FILE_DEADLINE,
            stall_timeout: DEFAULT_STALL_TIMEOUT,
            follow_root_optional: false,
            root_management: false,
        }
    }
}

/// The scope an artifact ends up with on the classpath.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Needed to compile against the roots.
    Compile,
    /// Needed only to run them.
    Runtime,
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scope::Compile => "compile",
            Scope::Runtime => "runtime",
        })
    }
}

/// One artifact of a resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedArtifact {
    /// The artifact, with a concrete version.
    pub coordinate: Coordinate,
    /// Its scope.
    pub scope: Scope,
    /// 0 for a root, 1 for a root's dependency, …
    pub depth: usize,
    /// The coordinates from its root down to it (both included).
    pub path: Vec<String>,
    /// Where its POM came from: a repository URL, or the cache (`<dir> (cache)`).
    pub repository: String,
}

/// A version that lost to a nearer (or earlier) declaration of the same artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The version that was not taken.
    pub rejected: Coordinate,
    /// The version that was taken.
    pub chosen: String,
    /// The path to the rejected declaration.
    pub path: Vec<String>,
}

/// The result of resolving some roots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolution {
    /// The roots, resolved (versions filled in).
    pub roots: Vec<ResolvedArtifact>,
    /// The classpath: roots first, then breadth-first order.
    pub artifacts: Vec<ResolvedArtifact>,
    /// Versions dropped by nearest-wins mediation.
    pub conflicts: Vec<Conflict>,
}

impl Resolution {
    /// The artifact with this `group:artifact`, if resolved.
    pub fn find(&self, group: &str, artifact: &str) -> Option<&ResolvedArtifact> {
        self.artifacts
            .iter()
            .find(|a| a.coordinate.group == group && a.coordinate.artifact == artifact)
    }
}

/// A downloaded artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedArtifact {
    /// The artifact.
    pub coordinate: Coordinate,
    /// The jar (or other main file) in the cache.
    pub jar: PathBuf,
    /// The jar's SHA-1 (hex).
    pub sha1: String,
    /// The `-javadoc.jar`, when asked for and published.
    pub javadoc: Option<PathBuf>,
    /// The repository URL it was downloaded from, or the cache (`<dir> (cache)`).
    pub repository: String,
}

/// A node of the breadth-first walk.
#[derive(Debug, Clone)]
struct Node {
    coord: Coordinate,
    scope: Scope,
    path: Vec<String>,
    exclusions: Vec<Exclusion>,
    root: usize,
}

/// Resolves and fetches Maven artifacts from a [`RepoConfig`].
pub struct Resolver {
    config: RepoConfig,
    options: ResolverOptions,
    transport: Transport,
    pool: rayon::ThreadPool,
    raw: Mutex<HashMap<String, Arc<RawPom>>>,
    models: Mutex<HashMap<String, Arc<Pom>>>,
    metadata: Mutex<HashMap<String, Arc<Metadata>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn with_path(path: &[String], e: MavenError) -> MavenError {
    match e {
        already @ MavenError::Needed { .. } => already,
        other if path.len() < 2 => other,
        other => MavenError::Needed {
            path: path.to_vec(),
            source: Box::new(other),
        },
    }
}

/// Validates a coordinate read from a POM or metadata; the error names where it came from.
fn check_declared(c: &Coordinate, origin: impl FnOnce() -> String) -> Result<()> {
    c.validate().map_err(|e| match e {
        MavenError::InvalidCoordinate { coordinate, reason } => MavenError::InvalidCoordinate {
            coordinate,
            reason: format!("{reason} (declared by {})", origin()),
        },
        other => other,
    })
}

/// The error for a chain of `kind` (parents, BOM imports, relocations) past [`MAX_POM_CHAIN`].
fn chain_too_long(kind: &str, chain: &[String]) -> MavenError {
    MavenError::Limit {
        coordinate: chain.first().cloned().unwrap_or_default(),
        location: chain.last().cloned().unwrap_or_default(),
        reason: format!(
            "more than MAX_POM_CHAIN = {MAX_POM_CHAIN} {kind} in a row (the last ones: {})",
            chain[chain.len().saturating_sub(3)..].join(" -> ")
        ),
    }
}

fn is_zip_like(ext: &str) -> bool {
    matches!(ext, "jar" | "war" | "ear" | "rar" | "aar" | "zip")
}

impl Resolver {
    /// A resolver over `config`.
    pub fn new(config: RepoConfig, options: ResolverOptions) -> Result<Resolver> {
        if config.repositories.is_empty() {
            return Err(MavenError::Config {
                reason: "no repositories to resolve from".into(),
            });
        }
        let transport = Transport::new(
            TransportSettings {
                connect_timeout: options.connect_timeout,
                timeout: options.timeout,
                attempts: options.attempts,
                initial_backoff: options.initial_backoff,
                max_download_bytes: options.max_download_bytes,
                file_deadline: options.file_deadline,
                stall_timeout: options.stall_timeout,
            },
            config.cache.clone(),
        )?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.parallelism.max(1))
            .thread_name(|i| format!("thalia-maven-{i}"))
            .build()
            .map_err(|e| MavenError::Config {
                reason: format!("cannot start download threads: {e}"),
            })?;
        Ok(Resolver {
            config,
            options,
            transport,
            pool,
            raw: Mutex::new(HashMap::new()),
            models: Mutex::new(HashMap::new()),
            metadata: Mutex::new(HashMap::new()),
        })
    }

    /// The configuration in use.
    pub fn config(&self) -> &RepoConfig {
        &self.config
    }

    fn origin(&self, repository: &Option<String>) -> String {
        match repository {
            Some(r) => r.clone(),
            None => format!("{} (cache)", self.config.cache.display()),
        }
    }

    /// The artifacts of `group` known here: the Maven cache's folders and the repositories'
    /// listings (their directory listings, where a repository serves one; a local
    /// repository's folders), sorted and deduplicated: for "did you mean" messages about a
    /// misspelt artifact. Repositories without listings add nothing.
    pub fn group_artifacts(&self, group: &str) -> Result<Vec<String>> {
        let probe = Coordinate::new(group, "x", None);
        probe.metadata_path()?;
        let rel = format!("{}/", probe.group_path());
        let mut names = std::collections::BTreeSet::new();
        for e in std::fs::read_dir(self.config.cache.join(&rel))
            .into_iter()
            .flatten()
            .flatten()
        {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                names.extend(e.file_name().to_str().map(str::to_string));
            }
        }
        for repo in &self.config.repositories {
            if let Some(dir) = repo.local_dir() {
                for e in std::fs::read_dir(dir.join(&rel))
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    if e.file_type().is_ok_and(|t| t.is_dir()) {
                        names.extend(e.file_name().to_str().map(str::to_string));
                    }
                }
                continue;
            }
            // a listing is a convenience: a repository that fails to give one is skipped
            let Ok(Some(bytes)) = self.transport.get_bytes(group, repo, &rel, MAX_XML_BYTES) else {
                continue;
            };
            let html = String::from_utf8_lossy(&bytes);
            for part in html.split("href=\"").skip(1) {
                let Some(target) = part.split('"').next() else {
                    continue;
                };
                if let Some(name) = target.strip_suffix('/') {
                    if !name.is_empty()
                        && !name.contains(['/', '?', '#', ':'])
                        && name != ".."
                        && name != "."
                    {
                        names.insert(name.to_string());
                    }
                }
            }
        }
        Ok(names.into_iter().collect())
    }

    /// The merged `maven-metadata.xml` of `group:artifact` across all repositories.
    pub fn metadata(&self, group: &str, artifact: &str) -> Result<Arc<Metadata>> {
        let c = Coordinate::new(group, artifact, None);
        let key = c.ga();
        if let Some(m) = lock(&self.metadata).get(&key) {
            return Ok(m.clone());
        }
        let rel = c.metadata_path()?;
        let mut meta = Metadata::default();
        let mut tried = Vec::new();
        for repo in &self.config.repositories {
            let url = repo.url_of(&rel);
            match self.transport.get_bytes(&key, repo, &rel, MAX_XML_BYTES)? {
                Some(bytes) => {
                    meta.merge_file(&String::from_utf8_lossy(&bytes), &key, &url)?;
                }
                None => tried.push(url),
            }
        }
        if meta.sources.is_empty() {
            return Err(MavenError::NotFound {
                coordinate: key,
                file: rel,
                tried,
            });
        }
        let meta = Arc::new(meta);
        lock(&self.metadata).insert(key, meta.clone());
        Ok(meta)
    }

    /// The latest release of `group:artifact` according to the repositories' metadata.
    pub fn latest_release(&self, group: &str, artifact: &str) -> Result<String> {
        let meta = self.metadata(group, artifact)?;
        let v =
            meta.latest_release()
                .map(str::to_string)
                .ok_or_else(|| MavenError::Unresolved {
                    coordinate: format!("{group}:{artifact}"),
                    reason: format!("no release version listed in {}", meta.sources.join(", ")),
                })?;
        check_declared(&Coordinate::new(group, artifact, Some(&v)), || {
            meta.sources.join(", ")
        })?;
        Ok(v)
    }

    /// The concrete version of a coordinate: the latest release when it has none, the highest
    /// available version when it is a range, else its own.
    pub fn resolve_version(&self, coord: &Coordinate) -> Result<String> {
        let Some(v) = coord.version.as_deref() else {
            return self.latest_release(&coord.group, &coord.artifact);
        };
        if !is_range(v) {
            return Ok(v.to_string());
        }
        let range = VersionRange::parse(v).map_err(|reason| MavenError::VersionRange {
            coordinate: coord.ga(),
            range: v.to_string(),
            reason: format!("unsupported or malformed range: {reason}"),
        })?;
        let meta = match self.metadata(&coord.group, &coord.artifact) {
            Ok(m) => m,
            Err(e) if e.is_not_found() => {
                // Without metadata only a pinned `[x]` can be honoured.
                let pinned = v.trim().trim_start_matches('[').trim_end_matches(']');
                if v.trim().starts_with('[') && v.trim().ends_with(']') && !pinned.contains(',') {
                    return Ok(pinned.trim().to_string());
                }
                return Err(MavenError::VersionRange {
                    coordinate: coord.ga(),
                    range: v.to_string(),
                    reason: format!("no maven-metadata.xml to choose a version from: {e}"),
                });
            }
            Err(e) => return Err(e),
        };
        let chosen = range
            .highest(meta.versions.iter().map(String::as_str))
            .map(str::to_string)
            .ok_or_else(|| MavenError::VersionRange {
                coordinate: coord.ga(),
                range: v.to_string(),
                reason: format!(
                    "no available release lies in the range (available: {}; from {})",
                    if meta.versions.is_empty() {
                        "none".to_string()
                    } else {
                        meta.versions.join(", ")
                    },
                    meta.sources.join(", ")
                ),
            })?;
        check_declared(&coord.with_version(&chosen), || meta.sources.join(", "))?;
        Ok(chosen)
    }

    /// The raw POM of `group:artifact:version` (downloaded into the cache when needed).
    fn raw_pom(&self, coord: &Coordinate) -> Result<Arc<RawPom>> {
        let pom_coord = coord.pom();
        let key = pom_coord.gav();
        if let Some(r) = lock(&self.raw).get(&key) {
            return Ok(r.clone());
        }
        let rel = pom_coord.repo_path()?;
        let display = pom_coord.to_string();
        let file = self.transport.fetch(
            &display,
            &rel,
            &self.config.repositories,
            None,
            Some(MAX_XML_BYTES),
        )?;
        let text = read_bounded(&file.path, MAX_XML_BYTES).map_err(|e| MavenError::Io {
            coordinate: display.clone(),
            path: file.path.clone(),
            source: e,
        })?;
        let location = match &file.repository {
            Some(r) => format!("{r}/{rel}"),
            None => file.path.display().to_string(),
        };
        let parsed = RawPom::parse(
            &String::from_utf8_lossy(&text),
            &display,
            &location,
            file.repository.clone(),
        );
        let raw = match parsed {
            Ok(r) => Arc::new(r),
            Err(e) => {
                // a POM that does not parse must not stay in the cache: once the repository
                // is fixed, the next run has to download it again
                if file.repository.is_some() {
                    let _ = std::fs::remove_file(&file.path);
                    let mut sha = file.path.clone().into_os_string();
                    sha.push(".sha1");
                    let _ = std::fs::remove_file(sha);
                }
                return Err(e);
            }
        };
        lock(&self.raw).insert(key, raw.clone());
        Ok(raw)
    }

    /// The effective POM of `group:artifact:version`.
    pub fn effective_pom(&self, coord: &Coordinate) -> Result<Arc<Pom>> {
        let version = self.resolve_version(coord)?;
        self.model(&coord.with_version(&version), &[])
    }

    /// Builds the effective POM; `stack` holds the POMs whose BOM imports led here.
    fn model(&self, coord: &Coordinate, stack: &[String]) -> Result<Arc<Pom>> {
        let key = coord.pom().gav();
        if let Some(m) = lock(&self.models).get(&key) {
            return Ok(m.clone());
        }
        if let Some(pos) = stack.iter().position(|s| *s == key) {
            let mut chain = stack[pos..].to_vec();
            chain.push(key);
            return Err(MavenError::Cycle {
                kind: "BOM import".into(),
                chain,
            });
        }
        if stack.len() >= MAX_POM_CHAIN {
            let mut chain = stack.to_vec();
            chain.push(key);
            return Err(chain_too_long("BOM imports", &chain));
        }
        let mut lineage = vec![self.raw_pom(coord)?];
        let mut chain = vec![key.clone()];
        while let Some((g, a, v)) = lineage.last().and_then(|r| r.parent.clone()) {
            let pk = format!("{g}:{a}:{v}");
            if chain.len() > MAX_POM_CHAIN {
                chain.push(pk);
                return Err(chain_too_long("parents", &chain));
            }
            if chain.contains(&pk) {
                chain.push(pk);
                return Err(MavenError::Cycle {
                    kind: "parent".into(),
                    chain,
                });
            }
            if v.contains("${") || is_range(&v) {
                return Err(MavenError::Unresolved {
                    coordinate: format!("{g}:{a}"),
                    reason: format!(
                        "the parent version `{v}` of {} must be a literal version",
                        chain.last().map(String::as_str).unwrap_or("?")
                    ),
                });
            }
            let parent_coord = Coordinate::new(&g, &a, Some(&v));
            check_declared(&parent_coord, || {
                format!(
                    "the <parent> of {}",
                    chain.last().map(String::as_str).unwrap_or("?")
                )
            })?;
            let parent = self
                .raw_pom(&parent_coord)
                .map_err(|e| with_path(&chain, e))?;
            lineage.push(parent);
            chain.push(pk);
        }
        let location = lineage[0].location.clone();
        let mut pom = pom::assemble(&lineage, coord, &location)?;

        // BOM imports: the POM's own entries win, then the first import that manages a key.
        let mut inner_stack = stack.to_vec();
        inner_stack.push(key.clone());
        let (imports, mut managed): (Vec<Dependency>, Vec<Dependency>) = pom
            .managed
            .drain(..)
            .partition(|d| d.scope() == "import" && d.kind == "pom");
        for imp in imports {
            let bom_coord = Coordinate::new(&imp.group, &imp.artifact, imp.version.as_deref());
            check_declared(&bom_coord, || format!("a BOM import of {key} ({location})"))?;
            let version = self
                .resolve_version(&bom_coord)
                .map_err(|e| with_path(&inner_stack, e))?;
            let bom = self
                .model(&bom_coord.with_version(&version), &inner_stack)
                .map_err(|e| match e {
                    c @ MavenError::Cycle { .. } => c,
                    other => with_path(&inner_stack, other),
                })?;
            for d in &bom.managed {
                let k = d.management_key();
                if !managed.iter().any(|m| m.management_key() == k) {
                    managed.push(d.clone());
                }
            }
        }
        pom.managed = managed;
        pom::inject_management(&mut pom);
        let pom = Arc::new(pom);
        lock(&self.models).insert(key, pom.clone());
        Ok(pom)
    }

    /// Loads the effective POMs of `coords` in parallel.
    fn prefetch(&self, coords: &[Coordinate]) -> HashMap<String, Result<Arc<Pom>>> {
        if coords.len() <= 1 {
            return HashMap::new();
        }
        self.pool.install(|| {
            coords
                .par_iter()
                .map(|c| (c.pom().gav(), self.model(c, &[])))
                .collect()
        })
    }

    /// Resolves the roots and their transitive compile and runtime dependencies.
    ///
    /// Maven's rules: breadth-first, the nearest declaration wins (the first at equal depth),
    /// test/provided/system dependencies and optional dependencies of dependencies are not
    /// followed, exclusions apply to everything below the dependency that declares them, and
    /// each root's dependency management applies to its transitive dependencies.
    pub fn resolve(&self, roots: &[Coordinate]) -> Result<Resolution> {
        let mut level: Vec<Node> = Vec::new();
        for (i, r) in roots.iter().enumerate() {
            let version = self.resolve_version(r)?;
            level.push(Node {
                coord: r.with_version(&version),
                scope: Scope::Compile,
                path: Vec::new(),
                exclusions: Vec::new(),
                root: i,
            });
        }
        let mut out = Resolution::default();
        let mut selected: HashMap<String, usize> = HashMap::new();
        let mut root_models: HashMap<usize, Arc<Pom>> = HashMap::new();
        let mut depth = 0usize;

        while !level.is_empty() {
            let mut seen = HashSet::new();
            let wanted: Vec<Coordinate> = level
                .iter()
                .filter(|n| !selected.contains_key(&n.coord.conflict_key()))
                .filter(|n| seen.insert(n.coord.pom().gav()))
                .map(|n| n.coord.clone())
                .collect();
            let mut prefetched = self.prefetch(&wanted);

            let mut expand: Vec<(Node, Arc<Pom>)> = Vec::new();
            for mut node in level {
                let key = node.coord.conflict_key();
                if let Some(&idx) = selected.get(&key) {
                    let chosen = &out.artifacts[idx].coordinate;
                    if chosen.version != node.coord.version {
                        let mut path = node.path.clone();
                        path.push(node.coord.to_string());
                        out.conflicts.push(Conflict {
                            rejected: node.coord.clone(),
                            chosen: chosen.version.clone().unwrap_or_default(),
                            path,
                        });
                    }
                    continue;
                }
                let mut path_here = node.path.clone();
                path_here.push(node.coord.to_string());
                let load = |c: &Coordinate, pre: &mut HashMap<String, Result<Arc<Pom>>>| {
                    pre.remove(&c.pom().gav())
                        .unwrap_or_else(|| self.model(c, &[]))
                };
                let mut model =
                    load(&node.coord, &mut prefetched).map_err(|e| with_path(&path_here, e))?;
                // Follow relocations.
                let mut hops = vec![node.coord.gav()];
                while let Some(to) = model.relocation.clone() {
                    let target = Coordinate {
                        group: to.group,
                        artifact: to.artifact,
                        version: to.version,
                        classifier: node.coord.classifier.clone(),
                        extension: node.coord.extension.clone(),
                    };
                    if target.gav() == node.coord.gav() {
                        break;
                    }
                    if hops.contains(&target.gav()) {
                        hops.push(target.gav());
                        return Err(MavenError::Cycle {
                            kind: "relocation".into(),
                            chain: hops,
                        });
                    }
                    if hops.len() > MAX_POM_CHAIN {
                        hops.push(target.gav());
                        return Err(chain_too_long("relocations", &hops));
                    }
                    check_declared(&target, || {
                        format!("the relocation in the POM of {}", model.gav())
                    })
                    .map_err(|e| with_path(&path_here, e))?;
                    hops.push(target.gav());
                    node.coord = target;
                    model =
                        load(&node.coord, &mut prefetched).map_err(|e| with_path(&path_here, e))?;
                }
                if depth == 0 && node.coord.extension == "jar" && node.coord.classifier.is_none() {
                    node.coord.extension = pom::packaging_extension(&model.packaging).to_string();
                }
                let new_key = node.coord.conflict_key();
                if new_key != key && selected.contains_key(&new_key) {
                    selected.insert(key, selected[&new_key]);
                    continue;
                }
                let mut path = node.path.clone();
                path.push(node.coord.to_string());
                let artifact = ResolvedArtifact {
                    coordinate: node.coord.clone(),
                    scope: node.scope,
                    depth,
                    path,
                    repository: self.origin(&model.repository),
                };
                let idx = out.artifacts.len();
                selected.insert(key, idx);
                selected.insert(new_key, idx);
                if depth == 0 {
                    root_models.insert(node.root, model.clone());
                    out.roots.push(artifact.clone());
                }
                out.artifacts.push(artifact);
                expand.push((node, model));
            }

            let mut next = Vec::new();
            for (node, model) in expand {
                let root_model = root_models.get(&node.root).cloned();
                let mut path = node.path.clone();
                path.push(node.coord.to_string());
                for declared in &model.dependencies {
                    let mut dep = declared.clone();
                    if depth >= 1 && self.options.root_management {
                        if let Some(m) = root_model.as_ref().and_then(|r| r.managed_for(&dep)) {
                            if m.version.is_some() {
                                dep.version = m.version.clone();
                            }
                            if m.scope.is_some() {
                                dep.scope = m.scope.clone();
                            }
                            for e in &m.exclusions {
                                if !dep.exclusions.contains(e) {
                                    dep.exclusions.push(e.clone());
                                }
                            }
                        }
                    }
                    let root_wide = depth == 0 && self.options.follow_root_optional;
                    let scope = match (node.scope, dep.scope()) {
                        (s, "compile") => s,
                        (s, "provided") if root_wide => s,
                        (_, "runtime") => Scope::Runtime,
                        _ => continue,
                    };
                    if dep.optional && !root_wide {
                        continue;
                    }
                    if node
                        .exclusions
                        .iter()
                        .any(|e| e.matches(&dep.group, &dep.artifact))
                    {
                        continue;
                    }
                    let coord = dep.coordinate();
                    let mut child_path = path.clone();
                    child_path.push(coord.to_string());
                    check_declared(&coord, || {
                        format!(
                            "the POM of {} from {}",
                            model.gav(),
                            self.origin(&model.repository)
                        )
                    })
                    .map_err(|e| with_path(&child_path, e))?;
                    if coord.version.is_none() {
                        return Err(with_path(
                            &child_path,
                            MavenError::Unresolved {
                                coordinate: coord.to_string(),
                                reason: format!(
                                    "{} neither declares nor manages its version",
                                    model.gav()
                                ),
                            },
                        ));
                    }
                    if coord.version.as_deref().is_some_and(|v| v.contains("${")) {
                        return Err(with_path(
                            &child_path,
                            MavenError::Unresolved {
                                coordinate: coord.to_string(),
                                reason: format!(
                                    "undefined property in the version declared by {}",
                                    model.gav()
                                ),
                            },
                        ));
                    }
                    let version = self
                        .resolve_version(&coord)
                        .map_err(|e| with_path(&child_path, e))?;
                    let mut exclusions = node.exclusions.clone();
                    for e in &dep.exclusions {
                        if !exclusions.contains(e) {
                            exclusions.push(e.clone());
                        }
                    }
                    next.push(Node {
                        coord: coord.with_version(&version),
                        scope,
                        path: path.clone(),
                        exclusions,
                        root: node.root,
                    });
                }
            }
            level = next;
            depth += 1;
        }
        Ok(out)
    }

    /// Downloads one artifact (any classifier or extension; no dependencies) into the cache.
    pub fn download(&self, coord: &Coordinate) -> Result<FetchedArtifact> {
        let version = self.resolve_version(coord)?;
        let c = coord.with_version(&version);
        let rel = c.repo_path()?;
        let check = is_zip_like(&c.extension).then_some(check_zip as fn(&Path) -> _);
        let f =
            self.transport
                .fetch(&c.to_string(), &rel, &self.config.repositories, check, None)?;
        Ok(FetchedArtifact {
            coordinate: c,
            jar: f.path,
            sha1: f.sha1,
            javadoc: None,
            repository: self.origin(&f.repository),
        })
    }

    fn fetch_one(&self, a: &ResolvedArtifact, with_javadoc: bool) -> Result<FetchedArtifact> {
        let c = &a.coordinate;
        let rel = c.repo_path()?;
        let check = is_zip_like(&c.extension).then_some(check_zip as fn(&Path) -> _);
        let f = self
            .transport
            .fetch(&c.to_string(), &rel, &self.config.repositories, check, None)
            .map_err(|e| with_path(&a.path, e))?;
        let javadoc = if with_javadoc {
            let jc = c.with_file("jar", Some("javadoc"));
            let jrel = jc.repo_path()?;
            match self.transport.fetch(
                &jc.to_string(),
                &jrel,
                &self.config.repositories,
                Some(check_zip),
                None,
            ) {
                Ok(j) => Some(j.path),
                Err(e) if e.is_not_found() => None,
                Err(e) => return Err(with_path(&a.path, e)),
            }
        } else {
            None
        };
        Ok(FetchedArtifact {
            coordinate: c.clone(),
            jar: f.path,
            sha1: f.sha1,
            javadoc,
            repository: self.origin(&f.repository),
        })
    }

    /// Downloads the resolved artifacts (and their `-javadoc.jar` when asked and published)
    /// into the cache, several at once. POM-only artifacts are skipped. The result follows
    /// the classpath order of `resolution.artifacts`.
    pub fn fetch(
        &self,
        resolution: &Resolution,
        with_javadoc: bool,
    ) -> Result<Vec<FetchedArtifact>> {
        let items: Vec<&ResolvedArtifact> = resolution
            .artifacts
            .iter()
            .filter(|a| a.coordinate.extension != "pom")
            .collect();
        let bar = if self.options.progress && std::io::stderr().is_terminal() {
            let b = indicatif::ProgressBar::new(items.len() as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} fetching {pos}/{len} {wide_bar} {msg}",
            ) {
                b.set_style(style);
            }
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        let results: Vec<Result<FetchedArtifact>> = self.pool.install(|| {
            items
                .par_iter()
                .map(|a| {
                    let r = self.fetch_one(a, with_javadoc);
                    bar.set_message(a.coordinate.to_string());
                    bar.inc(1);
                    r
                })
                .collect()
        });
        bar.finish_and_clear();
        results.into_iter().collect()
    }
}
