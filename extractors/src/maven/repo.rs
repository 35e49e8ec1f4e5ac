//! Which repositories to ask, and where the local cache is.
//!
//! Order: `--repo` values, then `THALIA_MAVEN_REPOS`; when either is given, only those.
//! Otherwise the repositories of the active profiles in the user's `settings.xml` and in the
//! Maven installation's `conf/settings.xml`, then the central repository that the installed
//! Maven declares in its super-POM, with the settings' mirrors applied.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::error::{MavenError, Result};
use super::limits::MAX_XML_BYTES;
use super::transport::read_bounded;
use super::xml;

/// A remote (or `file://`) repository in Maven layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repository {
    /// The repository id (`central`, a settings id, or `repo-N` / `env-N` for ad-hoc URLs).
    pub id: String,
    /// The base URL without a trailing slash (`https://…`, `http://…` or `file://…`).
    pub url: String,
}

impl Repository {
    /// A repository from a URL or a plain directory path (made absolute against `cwd`).
    pub fn from_spec(id: &str, spec: &str, cwd: Option<&Path>) -> Result<Repository> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err(MavenError::Config {
                reason: format!("empty repository URL for `{id}`"),
            });
        }
        let lower = spec.to_ascii_lowercase();
        let url = if lower.starts_with("http://") || lower.starts_with("https://") {
            spec.trim_end_matches('/').to_string()
        } else if lower.starts_with("file:") {
            let path = file_url_to_path(spec).ok_or_else(|| MavenError::Config {
                reason: format!("repository `{spec}` is not a usable file URL"),
            })?;
            path_to_file_url(&path)
        } else if spec.contains("://") {
            return Err(MavenError::Config {
                reason: format!(
                    "repository `{spec}`: unsupported URL scheme (use http://, https://, file:// \
                     or a directory path)"
                ),
            });
        } else {
            let p = Path::new(spec);
            let abs = if p.is_absolute() {
                p.to_path_buf()
            } else {
                match cwd {
                    Some(c) => c.join(p),
                    None => std::env::current_dir()
                        .map_err(|e| MavenError::Config {
                            reason: format!(
                                "repository `{spec}`: cannot resolve relative path: {e}"
                            ),
                        })?
                        .join(p),
                }
            };
            if !abs.is_dir() {
                return Err(MavenError::Config {
                    reason: format!("repository `{spec}`: {} is not a directory", abs.display()),
                });
            }
            path_to_file_url(&abs)
        };
        Ok(Repository {
            id: id.to_string(),
            url,
        })
    }

    /// The URL of a repository path (`a/b/c.jar`).
    pub fn url_of(&self, rel: &str) -> String {
        format!("{}/{}", self.url, rel)
    }

    /// The directory of a `file://` repository.
    pub fn local_dir(&self) -> Option<PathBuf> {
        if self.url.to_ascii_lowercase().starts_with("file:") {
            file_url_to_path(&self.url)
        } else {
            None
        }
    }

    /// Whether the repository is on this machine (a file URL or a loopback host).
    pub fn is_local(&self) -> bool {
        self.local_dir().is_some() || is_loopback_url(&self.url)
    }
}

/// Whether an http(s) URL points at a loopback host.
pub(crate) fn is_loopback_url(url: &str) -> bool {
    let rest = match url.split_once("://") {
        Some((_, r)) => r,
        None => return false,
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = if let Some(h) = host.strip_prefix('[') {
        h.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    host.eq_ignore_ascii_case("localhost") || host == "::1" || host.starts_with("127.")
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
}

/// `file://` URL of an absolute path, percent-encoding what needs it.
pub fn path_to_file_url(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.trim_end_matches('/').bytes() {
        if is_unreserved(b) || b == b':' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out == "file://" {
        out.push('/');
    }
    out
}

/// The path of a `file:` URL (`file:///x`, `file://localhost/x`, `file:/x`), percent-decoded.
pub fn file_url_to_path(url: &str) -> Option<PathBuf> {
    let rest = url.get(5..)?;
    if !url[..5].eq_ignore_ascii_case("file:") {
        return None;
    }
    let path = if let Some(r) = rest.strip_prefix("//") {
        if r.starts_with('/') {
            r
        } else {
            r.strip_prefix("localhost")?
        }
    } else {
        rest
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let s = String::from_utf8(out).ok()?;
    Some(PathBuf::from(s))
}

/// The environment that repository discovery reads; tests pass their own.
#[derive(Debug, Clone, Default)]
pub struct DiscoverOptions {
    /// `--repo` values, in order.
    pub cli_repos: Vec<String>,
    /// Environment variables (`THALIA_MAVEN_REPOS`, `THALIA_MAVEN_SETTINGS`,
    /// `THALIA_MAVEN_CACHE`, `MAVEN_HOME`, `M2_HOME`, `PATH`).
    pub env: BTreeMap<String, String>,
    /// The home directory (for `~/.m2`).
    pub home: Option<PathBuf>,
    /// The directory relative repository paths are resolved against.
    pub cwd: Option<PathBuf>,
    /// The cache used when nothing else is configured (normally `<cache dir>/thalia/maven`).
    pub default_cache: Option<PathBuf>,
}

impl DiscoverOptions {
    /// Options read from this process: its environment, home, working and cache directories.
    pub fn from_process(cli_repos: &[String]) -> DiscoverOptions {
        let env: BTreeMap<String, String> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        let home = env
            .get("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(dirs::home_dir);
        DiscoverOptions {
            cli_repos: cli_repos.to_vec(),
            env,
            home,
            cwd: std::env::current_dir().ok(),
            default_cache: dirs::cache_dir().map(|d| d.join("thalia").join("maven")),
        }
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.env
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }
}

/// Where artifacts come from and where they are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoConfig {
    /// Repositories in the order they are asked.
    pub repositories: Vec<Repository>,
    /// The local Maven-layout cache.
    pub cache: PathBuf,
}

/// A `<mirror>` from a settings file.
#[derive(Debug, Clone)]
struct Mirror {
    id: String,
    url: String,
    mirror_of: String,
}

/// What thalia reads from a `settings.xml`.
#[derive(Debug, Default)]
pub(crate) struct Settings {
    local_repository: Option<String>,
    mirrors: Vec<Mirror>,
    repositories: Vec<Repository>,
}

/// Expands `${user.home}` and `${env.NAME}` once, left to right: replaced text is not
/// scanned again (a variable whose value mentions itself cannot loop).
fn interpolate_settings(value: &str, opts: &DiscoverOptions) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let name = &after[..end];
        match (name, name.strip_prefix("env.")) {
            ("user.home", _) if opts.home.is_some() => {
                if let Some(h) = &opts.home {
                    out.push_str(&h.to_string_lossy());
                }
            }
            (_, Some(var)) => out.push_str(opts.env.get(var).map_or("", String::as_str)),
            _ => {
                out.push_str("${");
                out.push_str(name);
                out.push('}');
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

fn read_settings(path: &Path, opts: &DiscoverOptions) -> Result<Option<Settings>> {
    let text = match read_bounded(path, MAX_XML_BYTES) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(MavenError::Io {
                coordinate: "settings".into(),
                path: path.to_path_buf(),
                source: e,
            })
        }
    };
    parse_settings(&text, path, opts).map(Some)
}

/// Parses the text of a `settings.xml`; `path` names it in errors.
pub(crate) fn parse_settings(text: &str, path: &Path, opts: &DiscoverOptions) -> Result<Settings> {
    let bad = |reason: String| MavenError::Parse {
        coordinate: "settings".into(),
        location: path.display().to_string(),
        reason,
    };
    let doc = xml::parse(text).map_err(bad)?;
    let root = doc.root_element();
    if root.tag_name().name() != "settings" {
        return Err(bad(format!(
            "root element is <{}>, not <settings>",
            root.tag_name().name()
        )));
    }
    let mut s = Settings {
        local_repository: xml::text(root, "localRepository")
            .map(|v| interpolate_settings(&v, opts)),
        ..Settings::default()
    };
    if let Some(mirrors) = xml::child(root, "mirrors") {
        for m in xml::children(mirrors, "mirror") {
            let (Some(url), Some(mirror_of)) = (xml::text(m, "url"), xml::text(m, "mirrorOf"))
            else {
                return Err(bad("a <mirror> needs <url> and <mirrorOf>".into()));
            };
            s.mirrors.push(Mirror {
                id: xml::text(m, "id").unwrap_or_else(|| "mirror".into()),
                url: interpolate_settings(&url, opts),
                mirror_of,
            });
        }
    }
    let active: Vec<String> = xml::child(root, "activeProfiles")
        .map(|a| {
            xml::children(a, "activeProfile")
                .filter_map(xml::node_text)
                .collect()
        })
        .unwrap_or_default();
    // Maven's rule: profiles active by default count only when no other profile is active.
    let profiles: Vec<_> = xml::child(root, "profiles")
        .map(|ps| xml::children(ps, "profile").collect())
        .unwrap_or_default();
    let id_of = |p: roxmltree::Node<'_, '_>| xml::text(p, "id").unwrap_or_default();
    let explicit: Vec<_> = profiles
        .iter()
        .filter(|p| active.contains(&id_of(**p)))
        .copied()
        .collect();
    let chosen = if explicit.is_empty() {
        profiles
            .iter()
            .filter(|p| {
                xml::path(**p, &["activation", "activeByDefault"])
                    .and_then(xml::node_text)
                    .is_some_and(|v| v == "true")
            })
            .copied()
            .collect()
    } else {
        explicit
    };
    for p in chosen {
        let id = id_of(p);
        let Some(repos) = xml::child(p, "repositories") else {
            continue;
        };
        for r in xml::children(repos, "repository") {
            let releases_enabled = xml::path(r, &["releases", "enabled"])
                .and_then(xml::node_text)
                .is_none_or(|v| v != "false");
            if !releases_enabled {
                continue;
            }
            let Some(url) = xml::text(r, "url") else {
                return Err(bad(format!("repository in profile `{id}` has no <url>")));
            };
            let rid = xml::text(r, "id").unwrap_or_else(|| format!("{id}-repository"));
            let url = interpolate_settings(&url, opts);
            let repo = Repository::from_spec(&rid, &url, opts.cwd.as_deref())
                .map_err(|e| bad(e.to_string()))?;
            s.repositories.push(repo);
        }
    }
    Ok(s)
}

fn mirror_matches(pattern: &str, repo: &Repository) -> bool {
    let mut matched = false;
    for p in pattern.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some(neg) = p.strip_prefix('!') {
            if neg == repo.id {
                return false;
            }
        } else if p == "*" || p == repo.id {
            matched = true;
        } else if p == "external:*" {
            matched |= !repo.is_local();
        } else if p == "external:http:*" {
            matched |= !repo.is_local() && repo.url.to_ascii_lowercase().starts_with("http://");
        }
    }
    matched
}

/// The mirror that serves `repo`: an exact id match first, then the first pattern match.
fn find_mirror<'m>(mirrors: &'m [Mirror], repo: &Repository) -> Option<&'m Mirror> {
    mirrors
        .iter()
        .find(|m| m.mirror_of.trim() == repo.id)
        .or_else(|| mirrors.iter().find(|m| mirror_matches(&m.mirror_of, repo)))
}

/// Finds the Maven installation: `MAVEN_HOME`, `M2_HOME`, or `mvn` on `PATH` followed through
/// symbolic links to `<maven home>/bin/mvn`.
pub fn find_maven_home(opts: &DiscoverOptions) -> Option<PathBuf> {
    for var in ["MAVEN_HOME", "M2_HOME"] {
        if let Some(h) = opts.var(var) {
            let h = PathBuf::from(h);
            if h.join("lib").is_dir() {
                return Some(h);
            }
        }
    }
    let path = OsString::from(opts.var("PATH")?);
    for dir in std::env::split_paths(&path) {
        let mvn = dir.join("mvn");
        if !mvn.is_file() {
            continue;
        }
        let Ok(real) = fs::canonicalize(&mvn) else {
            continue;
        };
        let Some(bin) = real.parent() else { continue };
        let Some(home) = bin.parent() else { continue };
        if home.join("lib").is_dir() {
            return Some(home.to_path_buf());
        }
    }
    None
}

const SUPER_POM_ENTRY: &str = "org/apache/maven/model/pom-4.0.0.xml";

fn read_zip_entry(jar: &Path, entry: &str) -> Option<String> {
    let file = fs::File::open(jar).ok()?;
    let mut zip = zip::ZipArchive::new(file).ok()?;
    let e = zip.by_name(entry).ok()?;
    let mut s = String::new();
    e.take(MAX_XML_BYTES).read_to_string(&mut s).ok()?;
    Some(s)
}

/// The URL of the central repository declared by the super-POM of the Maven installed at
/// `maven_home` (inside its `lib/maven-model-builder-*.jar`).
pub fn super_pom_central(maven_home: &Path) -> Result<String> {
    let lib = maven_home.join("lib");
    let entries = fs::read_dir(&lib).map_err(|e| MavenError::Io {
        coordinate: "Maven installation".into(),
        path: lib.clone(),
        source: e,
    })?;
    let mut jars: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("maven-model-builder") && n.ends_with(".jar"))
        })
        .collect();
    jars.sort();
    let bad = |location: String, reason: String| MavenError::Parse {
        coordinate: "Maven super-POM".into(),
        location,
        reason,
    };
    let Some((jar, text)) = jars
        .iter()
        .find_map(|j| read_zip_entry(j, SUPER_POM_ENTRY).map(|t| (j.clone(), t)))
    else {
        return Err(bad(
            lib.join("maven-model-builder-*.jar").display().to_string(),
            format!("no jar there contains {SUPER_POM_ENTRY}"),
        ));
    };
    let location = format!("{}!/{SUPER_POM_ENTRY}", jar.display());
    let doc = xml::parse(&text).map_err(|e| bad(location.clone(), e))?;
    let repos = xml::child(doc.root_element(), "repositories")
        .ok_or_else(|| bad(location.clone(), "no <repositories>".into()))?;
    let all: Vec<_> = xml::children(repos, "repository").collect();
    let central = all
        .iter()
        .find(|r| xml::text(**r, "id").as_deref() == Some("central"))
        .or(all.first())
        .and_then(|r| xml::text(*r, "url"))
        .ok_or_else(|| bad(location.clone(), "no repository with a <url>".into()))?;
    Ok(central.trim_end_matches('/').to_string())
}

fn split_list(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
}

impl RepoConfig {
    /// A configuration with exactly these repositories and this cache.
    pub fn new(repositories: Vec<Repository>, cache: PathBuf) -> RepoConfig {
        RepoConfig {
            repositories,
            cache,
        }
    }

    /// Discovers the configuration from this process's environment (see the module docs).
    pub fn discover(cli_repos: &[String]) -> Result<RepoConfig> {
        RepoConfig::discover_with(&DiscoverOptions::from_process(cli_repos))
    }

    /// Discovers the configuration from explicit options (see the module docs).
    pub fn discover_with(opts: &DiscoverOptions) -> Result<RepoConfig> {
        let mut explicit = Vec::new();
        for (i, spec) in opts.cli_repos.iter().enumerate() {
            explicit.push(Repository::from_spec(
                &format!("repo-{}", i + 1),
                spec,
                opts.cwd.as_deref(),
            )?);
        }
        if let Some(list) = opts.var("THALIA_MAVEN_REPOS") {
            for (i, spec) in split_list(list).enumerate() {
                let repo =
                    Repository::from_spec(&format!("env-{}", i + 1), spec, opts.cwd.as_deref())
                        .map_err(|e| MavenError::Config {
                            reason: format!("THALIA_MAVEN_REPOS: {e}"),
                        })?;
                explicit.push(repo);
            }
        }

        let user_settings_path = user_settings_path(opts);
        let user = match &user_settings_path {
            Some(p) => read_settings(p, opts)?,
            None => None,
        };
        let maven_home = find_maven_home(opts);
        let global = match &maven_home {
            Some(h) => read_settings(&h.join("conf").join("settings.xml"), opts)?,
            None => None,
        };

        let cache = Self::discover_cache(opts, user.as_ref(), global.as_ref())?;

        let repositories = if !explicit.is_empty() {
            explicit
        } else {
            let mut declared: Vec<Repository> = Vec::new();
            let mut mirrors: Vec<Mirror> = Vec::new();
            for s in [&user, &global].into_iter().flatten() {
                declared.extend(s.repositories.iter().cloned());
                mirrors.extend(s.mirrors.iter().cloned());
            }
            // Central comes last. Its URL is only needed when no mirror covers it.
            let central_placeholder = Repository {
                id: "central".into(),
                url: String::new(),
            };
            let mut out: Vec<Repository> = Vec::new();
            let mut push = |r: Repository| {
                if !out.iter().any(|o| o.url == r.url) {
                    out.push(r);
                }
            };
            for r in declared {
                match find_mirror(&mirrors, &r) {
                    Some(m) => push(Repository::from_spec(&m.id, &m.url, opts.cwd.as_deref())?),
                    None => push(r),
                }
            }
            let central_mirror = find_mirror(&mirrors, &central_placeholder);
            match central_mirror {
                Some(m) => push(Repository::from_spec(&m.id, &m.url, opts.cwd.as_deref())?),
                None => {
                    let home = maven_home.as_ref().ok_or_else(|| MavenError::Config {
                        reason: "no repository configured and no Maven installation found \
                                 (looked at MAVEN_HOME, M2_HOME and `mvn` on PATH) to read the \
                                 central repository from: pass --repo URL or set \
                                 THALIA_MAVEN_REPOS"
                            .into(),
                    })?;
                    let url = super_pom_central(home)?;
                    push(Repository::from_spec("central", &url, None)?);
                }
            }
            out
        };
        Ok(RepoConfig {
            repositories,
            cache,
        })
    }

    /// The local cache alone, found as [`RepoConfig::discover`] finds it
    /// (`THALIA_MAVEN_CACHE`, the settings' `localRepository`, `~/.m2/repository`, the user
    /// cache directory), without needing any repository (offline installs).
    pub fn discover_cache_dir() -> Result<PathBuf> {
        let opts = DiscoverOptions::from_process(&[]);
        let user_settings_path = user_settings_path(&opts);
        let user = match &user_settings_path {
            Some(p) => read_settings(p, &opts)?,
            None => None,
        };
        let global = match &find_maven_home(&opts) {
            Some(h) => read_settings(&h.join("conf").join("settings.xml"), &opts)?,
            None => None,
        };
        Self::discover_cache(&opts, user.as_ref(), global.as_ref())
    }

    fn discover_cache(
        opts: &DiscoverOptions,
        user: Option<&Settings>,
        global: Option<&Settings>,
    ) -> Result<PathBuf> {
        if let Some(c) = opts.var("THALIA_MAVEN_CACHE") {
            return Ok(PathBuf::from(c));
        }
        let from_settings = user
            .and_then(|s| s.local_repository.clone())
            .or_else(|| global.and_then(|s| s.local_repository.clone()));
        if let Some(l) = from_settings {
            return Ok(PathBuf::from(l));
        }
        if let Some(h) = &opts.home {
            let m2 = h.join(".m2").join("repository");
            if m2.is_dir() {
                return Ok(m2);
            }
        }
        opts.default_cache
            .clone()
            .ok_or_else(|| MavenError::Config {
                reason: "no cache directory: set THALIA_MAVEN_CACHE".into(),
            })
    }
}

/// The user's Maven settings file: `THALIA_MAVEN_SETTINGS`, else `~/.m2/settings.xml`.
fn user_settings_path(opts: &DiscoverOptions) -> Option<PathBuf> {
    match opts.var("THALIA_MAVEN_SETTINGS") {
        Some(p) => Some(PathBuf::from(p)),
        None => opts
            .home
            .as_ref()
            .map(|h| h.join(".m2").join("settings.xml")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_round_trip() {
        let p = Path::new("/tmp/a dir/x%y");
        let u = path_to_file_url(p);
        assert_eq!(u, "file:///tmp/a%20dir/x%25y");
        assert_eq!(file_url_to_path(&u).unwrap(), p);
        assert_eq!(file_url_to_path("file:/x/y").unwrap(), Path::new("/x/y"));
        assert_eq!(
            file_url_to_path("file://localhost/x").unwrap(),
            Path::new("/x")
        );
        assert!(file_url_to_path("file://host/x").is_none());
    }

    #[test]
    fn settings_variables_expand_once() {
        let mut opts = DiscoverOptions {
            home: Some(PathBuf::from("/home/u")),
            ..DiscoverOptions::default()
        };
        opts.env.insert("LOOP".into(), "${env.LOOP}x".into());
        opts.env.insert("D".into(), "/d".into());
        assert_eq!(
            interpolate_settings(
                "${user.home}/r${env.D}/${env.LOOP}${env.NONE}${x}${open",
                &opts
            ),
            "/home/u/r/d/${env.LOOP}x${x}${open"
        );
    }

    #[test]
    fn loopback() {
        assert!(is_loopback_url("http://127.0.0.1:8080/repo"));
        assert!(is_loopback_url("http://localhost/repo"));
        assert!(is_loopback_url("http://[::1]:80/"));
        assert!(!is_loopback_url("https://example.org/repo"));
    }

    #[test]
    fn mirror_patterns() {
        let r = Repository {
            id: "central".into(),
            url: "https://example.org".into(),
        };
        assert!(mirror_matches("*", &r));
        assert!(mirror_matches("central", &r));
        assert!(mirror_matches("external:*", &r));
        assert!(!mirror_matches("*,!central", &r));
        assert!(!mirror_matches("other", &r));
    }
}
