//! The Maven resolver against hostile POMs, metadata and settings served by a real
//! Maven-layout repository on 127.0.0.1: coordinates that would become paths outside the
//! cache, XML nested 200,000 deep or larger than the limit, exponential properties, and a
//! settings file that is a FIFO. Each must give a clear error naming the input, write nothing
//! outside the cache, and leave the resolver able to fetch a good artifact.

use crate::support::maven_repo;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use maven_repo::{dep, files_under, some_jar, RepoDir, RepoServer, G};
use thalia_extractors::maven::limits::{MAX_XML_BYTES, MAX_XML_DEPTH};
use thalia_extractors::maven::{
    Coordinate, DiscoverOptions, RepoConfig, Repository, Resolver, ResolverOptions,
};

/// A sandbox whose cache lies a few levels down, so that a path climbing out of the cache
/// still lands inside the sandbox, where the test can see it.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }
    fn root(&self) -> &Path {
        self.dir.path()
    }
    fn cache(&self) -> PathBuf {
        self.root().join("a").join("b").join("cache")
    }
    /// Files of the sandbox outside the cache.
    fn outside_cache(&self) -> Vec<String> {
        files_under(self.root())
            .into_iter()
            .filter(|f| !f.starts_with("a/b/cache/"))
            .collect()
    }
}

fn options() -> ResolverOptions {
    ResolverOptions {
        connect_timeout: Duration::from_secs(5),
        timeout: Duration::from_secs(20),
        initial_backoff: Duration::from_millis(20),
        progress: false,
        ..ResolverOptions::default()
    }
}

fn resolver(url: &str, cache: &Path) -> Resolver {
    let repo = Repository::from_spec("test", url, None).expect("repo");
    Resolver::new(RepoConfig::new(vec![repo], cache.to_path_buf()), options()).expect("resolver")
}

fn fx(artifact_version: &str) -> Coordinate {
    format!("{G}:{artifact_version}")
        .parse()
        .expect("coordinate")
}

/// Resolves and fetches `coord`; the error message when it fails.
fn fetch_err(r: &Resolver, coord: &Coordinate) -> String {
    let res = r
        .resolve(std::slice::from_ref(coord))
        .and_then(|res| r.fetch(&res, false));
    match res {
        Ok(f) => panic!("{coord} was fetched: {f:?}"),
        Err(e) => e.to_string(),
    }
}

/// The resolver still fetches a good artifact.
fn good_still_works(repo: &RepoDir, r: &Resolver) {
    repo.lib("good", "1.0", "", &some_jar());
    let res = r.resolve(&[fx("good:1.0")]).expect("resolve good");
    let fetched = r.fetch(&res, false).expect("fetch good");
    assert_eq!(fetched.len(), 1);
    assert!(fetched[0].jar.is_file());
}

fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("did not finish within {secs} s"))
}

#[test]
fn coordinates_from_a_pom_never_become_paths_outside_the_cache() {
    let repo = RepoDir::new();
    let server = RepoServer::start(&repo);
    let sandbox = Sandbox::new();
    let r = resolver(&server.url, &sandbox.cache());
    let up = "../".repeat(10);
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "classifier",
            format!(
                "<dependency><groupId>{G}</groupId><artifactId>lib</artifactId>\
                 <version>1.0</version><classifier>x/{up}PWNED</classifier></dependency>"
            ),
            "classifier",
        ),
        (
            "group",
            format!(
                "<dependency><groupId>org.{up}PWNED</groupId><artifactId>lib</artifactId>\
                 <version>1.0</version></dependency>"
            ),
            "group",
        ),
        (
            "group-dots",
            "<dependency><groupId>org....PWNED</groupId><artifactId>lib</artifactId>\
             <version>1.0</version></dependency>"
                .to_string(),
            "group",
        ),
        (
            "artifact",
            format!(
                "<dependency><groupId>{G}</groupId><artifactId>..</artifactId>\
                 <version>1.0</version></dependency>"
            ),
            "artifact",
        ),
        (
            "version",
            format!(
                "<dependency><groupId>{G}</groupId><artifactId>lib</artifactId>\
                 <version>{up}PWNED</version></dependency>"
            ),
            "version",
        ),
        (
            "type",
            format!(
                "<dependency><groupId>{G}</groupId><artifactId>lib</artifactId>\
                 <version>1.0</version><type>x/{up}PWNED</type></dependency>"
            ),
            "extension",
        ),
        (
            "control",
            format!(
                "<dependency><groupId>{G}</groupId><artifactId>lib&#x7F;</artifactId>\
                 <version>1.0</version></dependency>"
            ),
            "artifact",
        ),
    ];
    for (name, dependency, part) in cases {
        let app = format!("app-{name}");
        repo.pom(
            &app,
            "1.0",
            &format!("  <dependencies>\n    {dependency}\n  </dependencies>"),
        );
        let err = fetch_err(&r, &fx(&format!("{app}:1.0")));
        assert!(err.contains("invalid coordinate"), "{name}: {err}");
        assert!(err.contains(&format!("the {part}")), "{name}: {err}");
        assert!(
            err.contains(&format!("declared by the POM of {G}:{app}:1.0")),
            "{name}: {err}"
        );
    }
    // a relocation and a parent are checked the same way
    repo.pom(
        "moved",
        "1.0",
        "  <distributionManagement><relocation><artifactId>../../PWNED</artifactId>\
         </relocation></distributionManagement>",
    );
    let err = fetch_err(&r, &fx("moved:1.0"));
    assert!(
        err.contains("invalid coordinate") && err.contains("relocation"),
        "{err}"
    );
    repo.put(
        &RepoDir::rel("orphan", "1.0", None, "pom"),
        format!(
            "<project><parent><groupId>{G}</groupId><artifactId>p</artifactId>\
             <version>../../../PWNED</version></parent><artifactId>orphan</artifactId></project>"
        )
        .as_bytes(),
    );
    let err = fetch_err(&r, &fx("orphan:1.0"));
    assert!(
        err.contains("invalid coordinate") && err.contains("<parent>"),
        "{err}"
    );

    assert!(
        server.requests().iter().all(|p| !p.contains("PWNED")),
        "{:?}",
        server.requests()
    );
    assert_eq!(sandbox.outside_cache(), Vec::<String>::new());
    assert!(files_under(sandbox.root())
        .iter()
        .all(|f| !f.contains("PWNED")));
    good_still_works(&repo, &r);
}

#[test]
fn a_version_from_metadata_must_be_a_plain_name() {
    let repo = RepoDir::new();
    let server = RepoServer::start(&repo);
    let sandbox = Sandbox::new();
    let r = resolver(&server.url, &sandbox.cache());
    repo.metadata(
        "meta",
        &["1.0", "../../../../../PWNED"],
        Some("../../../../../PWNED"),
    );
    let err = fetch_err(&r, &fx("meta"));
    assert!(err.contains("invalid coordinate"), "{err}");
    assert!(err.contains("maven-metadata.xml"), "{err}");
    // a range picks from the metadata too
    repo.metadata("ranged", &["1.0", "2.0/../../../../PWNED"], None);
    let err = fetch_err(&r, &fx("ranged:[1.0,)"));
    assert!(err.contains("invalid coordinate"), "{err}");
    assert_eq!(sandbox.outside_cache(), Vec::<String>::new());
    good_still_works(&repo, &r);
}

fn nested(n: usize) -> String {
    format!("{}{}", "<a>".repeat(n), "</a>".repeat(n))
}

#[test]
fn xml_nested_200000_deep_is_an_error_not_a_stack_overflow() {
    let repo = RepoDir::new();
    let server = RepoServer::start(&repo);
    let sandbox = Sandbox::new();
    let r = resolver(&server.url, &sandbox.cache());
    repo.pom(
        "deep",
        "1.0",
        &format!("  <properties>{}</properties>", nested(200_000)),
    );
    let err = fetch_err(&r, &fx("deep:1.0"));
    assert!(err.contains(&format!("{G}:deep:pom:1.0")), "{err}");
    assert!(err.contains("deep-1.0.pom"), "{err}");
    assert!(err.contains("MAX_XML_DEPTH"), "{err}");
    // the bad POM is not kept in the cache
    assert!(files_under(&sandbox.cache())
        .iter()
        .all(|f| !f.contains("deep-1.0.pom")));

    let deep_meta = format!(
        "<metadata><versioning>{}</versioning></metadata>",
        nested(200_000)
    );
    repo.put(
        &format!("{}/deepmeta/maven-metadata.xml", G.replace('.', "/")),
        deep_meta.as_bytes(),
    );
    let err = fetch_err(&r, &fx("deepmeta"));
    assert!(err.contains("deepmeta/maven-metadata.xml"), "{err}");
    assert!(err.contains("MAX_XML_DEPTH"), "{err}");
    good_still_works(&repo, &r);
}

#[test]
fn a_pom_larger_than_the_limit_is_refused() {
    let repo = RepoDir::new();
    let server = RepoServer::start(&repo);
    let sandbox = Sandbox::new();
    let r = resolver(&server.url, &sandbox.cache());
    let filler = "x".repeat(MAX_XML_BYTES as usize + 1);
    repo.pom(
        "big",
        "1.0",
        &format!("  <description>{filler}</description>"),
    );
    let err = fetch_err(&r, &fx("big:1.0"));
    assert!(err.contains("big-1.0.pom"), "{err}");
    assert!(err.contains("MAX_XML_BYTES"), "{err}");
    assert!(files_under(&sandbox.cache())
        .iter()
        .all(|f| !f.contains("big-1.0.pom")));
    good_still_works(&repo, &r);
}

#[test]
fn exponential_properties_are_an_error_naming_the_pom_and_the_property() {
    let repo = RepoDir::new();
    let server = RepoServer::start(&repo);
    let sandbox = Sandbox::new();
    let r = resolver(&server.url, &sandbox.cache());
    let mut props = String::from("<p0>0123456789abcdef</p0>");
    for i in 1..=64 {
        props.push_str(&format!("<p{i}>${{p{}}}${{p{}}}</p{i}>", i - 1, i - 1));
    }
    repo.pom(
        "bomb",
        "1.0",
        &format!(
            "  <properties>{props}</properties>\n  <dependencies>\n{}  </dependencies>",
            dep("lib", Some("${p64}"), "")
        ),
    );
    let err = within(30, move || {
        let e = fetch_err(&r, &fx("bomb:1.0"));
        good_still_works(&repo, &r);
        e
    });
    assert!(err.contains(&format!("{G}:bomb:1.0")), "{err}");
    assert!(err.contains("bomb-1.0.pom"), "{err}");
    assert!(err.contains("property `p"), "{err}");
    assert!(
        [
            "MAX_PROPERTY_EXPANSION_BYTES",
            "MAX_POM_SUBSTITUTIONS",
            "MAX_POM_EXPANSION_BYTES"
        ]
        .iter()
        .any(|l| err.contains(l)),
        "{err}"
    );
    drop(server);
}

fn discover(settings: &Path, repo_url: &str, cache: &Path) -> Result<RepoConfig, String> {
    let mut opts = DiscoverOptions {
        cli_repos: vec![repo_url.to_string()],
        ..DiscoverOptions::default()
    };
    opts.env.insert(
        "THALIA_MAVEN_SETTINGS".into(),
        settings.display().to_string(),
    );
    opts.env
        .insert("THALIA_MAVEN_CACHE".into(), cache.display().to_string());
    RepoConfig::discover_with(&opts).map_err(|e| e.to_string())
}

#[test]
fn deep_or_endless_settings_are_an_error_not_a_crash_or_a_hang() {
    let sandbox = Sandbox::new();
    let settings = sandbox.root().join("settings.xml");
    std::fs::write(
        &settings,
        format!(
            "<settings><profiles>{}</profiles></settings>",
            nested(200_000)
        ),
    )
    .expect("write settings");
    let err = discover(&settings, "http://127.0.0.1:9/repo", &sandbox.cache()).unwrap_err();
    assert!(err.contains("settings.xml"), "{err}");
    assert!(
        err.contains(&format!("MAX_XML_DEPTH = {MAX_XML_DEPTH}")),
        "{err}"
    );

    // a settings file that expands a variable into itself
    std::fs::write(
        &settings,
        "<settings><localRepository>${env.LOOP}</localRepository></settings>",
    )
    .expect("write settings");
    let mut opts = DiscoverOptions {
        cli_repos: vec!["http://127.0.0.1:9/repo".into()],
        ..DiscoverOptions::default()
    };
    opts.env.insert(
        "THALIA_MAVEN_SETTINGS".into(),
        settings.display().to_string(),
    );
    opts.env.insert("LOOP".into(), "${env.LOOP}/x".into());
    let config = within(10, move || {
        RepoConfig::discover_with(&opts).expect("discover")
    });
    assert_eq!(config.cache, PathBuf::from("${env.LOOP}/x"));

    #[cfg(unix)]
    {
        let fifo = sandbox.root().join("fifo-settings.xml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let cache = sandbox.cache();
            let err = within(10, move || {
                discover(&fifo, "http://127.0.0.1:9/repo", &cache)
            })
            .unwrap_err();
            assert!(err.contains("fifo-settings.xml"), "{err}");
            assert!(err.contains("not a regular file"), "{err}");
        }
    }
}

#[test]
fn an_endless_parent_chain_stops_at_the_limit() {
    use thalia_extractors::maven::limits::MAX_POM_CHAIN;
    let repo = RepoDir::new();
    let server = RepoServer::start(&repo);
    let sandbox = Sandbox::new();
    let r = resolver(&server.url, &sandbox.cache());
    // p0 -> p1 -> ... each the parent of the previous, longer than the limit
    for i in 0..MAX_POM_CHAIN + 10 {
        repo.put(
            &RepoDir::rel(&format!("p{i}"), "1.0", None, "pom"),
            format!(
                "<project><parent><groupId>{G}</groupId><artifactId>p{}</artifactId>\
                 <version>1.0</version></parent><artifactId>p{i}</artifactId></project>",
                i + 1
            )
            .as_bytes(),
        );
    }
    let err = fetch_err(&r, &fx("p0:1.0"));
    assert!(
        err.contains(&format!("MAX_POM_CHAIN = {MAX_POM_CHAIN} parents")),
        "{err}"
    );
    assert!(err.contains(&format!("{G}:p0")), "{err}");
    good_still_works(&repo, &r);
}
