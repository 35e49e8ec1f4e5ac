//! The Maven resolver against a real Maven-layout repository served on 127.0.0.1.
//! These tests never reach the internet: every configuration names its repositories.

use crate::support::maven_repo;
use crate::support::require;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use maven_repo::{dep, files_under, java_jars, sha1_hex, some_jar, Fault, RepoDir, RepoServer, G};
use thalia_extractors::maven::{
    find_maven_home, super_pom_central, Coordinate, DiscoverOptions, MavenError, RepoConfig,
    Repository, Resolution, Resolver, ResolverOptions, Scope,
};

fn options() -> ResolverOptions {
    ResolverOptions {
        connect_timeout: Duration::from_secs(5),
        timeout: Duration::from_secs(20),
        initial_backoff: Duration::from_millis(20),
        progress: false,
        ..ResolverOptions::default()
    }
}

fn resolver_for(urls: &[&str], cache: &Path) -> Resolver {
    let repos = urls
        .iter()
        .enumerate()
        .map(|(i, u)| Repository::from_spec(&format!("test-{i}"), u, None).expect("repo"))
        .collect();
    Resolver::new(RepoConfig::new(repos, cache.to_path_buf()), options()).expect("resolver")
}

fn coord(s: &str) -> Coordinate {
    s.parse().expect("coordinate")
}

fn fx(artifact_version: &str) -> Coordinate {
    coord(&format!("{G}:{artifact_version}"))
}

/// `artifact:version` of each artifact, in classpath order.
fn summary(r: &Resolution) -> Vec<String> {
    r.artifacts
        .iter()
        .map(|a| {
            format!(
                "{}:{}",
                a.coordinate.artifact,
                a.coordinate.version.as_deref().unwrap_or("?")
            )
        })
        .collect()
}

fn no_temp_files(cache: &Path) {
    let stray: Vec<String> = files_under(cache)
        .into_iter()
        .filter(|f| f.contains(".part") || f.contains(".thalia-") || f.contains(".tmp"))
        .collect();
    assert!(
        stray.is_empty(),
        "temporary files left in the cache: {stray:?}"
    );
}

/// The repository of the resolution-rules test (see the comments for what each piece tests).
fn rules_repo() -> RepoDir {
    let repo = RepoDir::new();
    let jar = some_jar();
    // The parent defines properties and manages two versions.
    repo.pom(
        "parent",
        "7",
        &format!(
            "  <packaging>pom</packaging>\n  <properties>\n    <lib.version>2.0</lib.version>\n    \
             <tm.version>1.2</tm.version>\n    <sibling.version>${{project.version}}</sibling.version>\n  \
             </properties>\n  <dependencyManagement><dependencies>\n{}{}  </dependencies></dependencyManagement>",
            dep("managed-lib", Some("1.5"), ""),
            dep("transitive-managed", Some("${tm.version}"), ""),
        ),
    );
    // A BOM: manages bom-managed, and a version of managed-lib that must lose to the parent's.
    repo.pom(
        "bom",
        "1",
        &format!(
            "  <packaging>pom</packaging>\n  <dependencyManagement><dependencies>\n{}{}  </dependencies></dependencyManagement>",
            dep("bom-managed", Some("3.1"), ""),
            dep("managed-lib", Some("9.9"), ""),
        ),
    );
    let app_deps = [
        dep("prop-lib", Some("${lib.version}"), ""),
        dep("managed-lib", None, ""),
        dep("bom-managed", None, ""),
        dep(
            "cut",
            Some("1.0"),
            &format!("<exclusions><exclusion><groupId>{G}</groupId><artifactId>excluded-lib</artifactId></exclusion></exclusions>"),
        ),
        dep("mid", Some("1.0"), ""),
        dep("conflict-lib", Some("1.0"), ""),
        dep("near-a", Some("1.0"), ""),
        dep("near-b", Some("1.0"), ""),
        dep("opt-lib", Some("1.0"), "<optional>true</optional>"),
        dep("test-lib", Some("1.0"), "<scope>test</scope>"),
        dep("prov-lib", Some("1.0"), "<scope>provided</scope>"),
        dep(
            "wild",
            Some("1.0"),
            "<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>",
        ),
        dep("rt-direct", Some("1.0"), "<scope>runtime</scope>"),
        dep("sibling", Some("${sibling.version}"), ""),
        dep("parent-versioned", Some("${project.parent.version}"), ""),
    ]
    .concat();
    repo.pom(
        "app",
        "1.0",
        &format!(
            "  <parent><groupId>{G}</groupId><artifactId>parent</artifactId><version>7</version>\
             <relativePath>../nowhere</relativePath></parent>\n  \
             <dependencyManagement><dependencies>\n{}  </dependencies></dependencyManagement>\n  \
             <dependencies>\n{app_deps}  </dependencies>",
            dep("bom", Some("1"), "<type>pom</type><scope>import</scope>"),
        ),
    );
    repo.put(&RepoDir::rel("app", "1.0", None, "jar"), &jar);
    repo.lib(
        "prop-lib",
        "2.0",
        &dep("rt-lib", Some("1.0"), "<scope>runtime</scope>"),
        &jar,
    );
    repo.lib("managed-lib", "1.5", "", &jar);
    repo.lib("bom-managed", "3.1", "", &jar);
    repo.lib(
        "cut",
        "1.0",
        &[
            dep("excluded-lib", Some("1.0"), ""),
            dep("kept-lib", Some("1.0"), ""),
        ]
        .concat(),
        &jar,
    );
    repo.lib(
        "kept-lib",
        "1.0",
        &dep("opt-transitive", Some("1.0"), "<optional>true</optional>"),
        &jar,
    );
    repo.lib(
        "mid",
        "1.0",
        &[
            dep("deep", Some("1.0"), ""),
            dep("conflict-lib", Some("2.0"), ""),
        ]
        .concat(),
        &jar,
    );
    repo.lib(
        "deep",
        "1.0",
        &[
            dep("deeper", Some("1.0"), ""),
            dep("transitive-managed", Some("1.0"), ""),
        ]
        .concat(),
        &jar,
    );
    repo.lib("deeper", "1.0", "", &jar);
    repo.lib("transitive-managed", "1.0", "", &jar);
    repo.lib("transitive-managed", "1.2", "", &jar);
    repo.lib("conflict-lib", "1.0", "", &jar);
    repo.lib("conflict-lib", "2.0", "", &jar);
    repo.lib("near-a", "1.0", &dep("shared", Some("1.0"), ""), &jar);
    repo.lib("near-b", "1.0", &dep("shared", Some("2.0"), ""), &jar);
    repo.lib("shared", "1.0", "", &jar);
    repo.lib("shared", "2.0", "", &jar);
    repo.lib("wild", "1.0", &dep("wild-child", Some("1.0"), ""), &jar);
    repo.lib("rt-direct", "1.0", &dep("rt-child", Some("1.0"), ""), &jar);
    repo.lib("rt-child", "1.0", "", &jar);
    repo.lib("rt-lib", "1.0", "", &jar);
    repo.lib("sibling", "1.0", "", &jar);
    repo.lib("parent-versioned", "7", "", &jar);
    // excluded-lib, opt-lib, test-lib, prov-lib, opt-transitive and wild-child do not exist:
    // following any of them would fail the resolution.
    repo
}

#[test]
fn resolution_follows_maven_rules() {
    let repo = rules_repo();
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("app:1.0")]).expect("resolve");

    assert_eq!(
        summary(&r),
        [
            // depth 0
            "app:1.0",
            // depth 1, in declaration order; versions from a parent property, the parent's
            // management, a BOM import, `${project.version}` and `${project.parent.version}`
            "prop-lib:2.0",
            "managed-lib:1.5",
            "bom-managed:3.1",
            "cut:1.0",
            "mid:1.0",
            "conflict-lib:1.0",
            "near-a:1.0",
            "near-b:1.0",
            "wild:1.0",
            "rt-direct:1.0",
            "sibling:1.0",
            "parent-versioned:7",
            // depth 2: excluded-lib cut, conflict-lib 2.0 loses to the nearer 1.0, shared 2.0
            // loses to the first declaration at equal depth, wild-child cut by `*:*`
            "rt-lib:1.0",
            "kept-lib:1.0",
            "deep:1.0",
            "shared:1.0",
            "rt-child:1.0",
            // depth 3: two levels below mid; a client of `app` gets the declared 1.0 (the
            // root's own management would say 1.2: see below)
            "deeper:1.0",
            "transitive-managed:1.0",
        ]
    );
    // as when `app` itself is the project being built: its management reaches transitives
    let as_project = Resolver::new(
        RepoConfig::new(
            vec![Repository::from_spec("test-0", &server.url, None).expect("repo")],
            cache.path().to_path_buf(),
        ),
        ResolverOptions {
            root_management: true,
            ..options()
        },
    )
    .expect("resolver");
    let rp = as_project.resolve(&[fx("app:1.0")]).expect("resolve");
    assert!(summary(&rp).contains(&"transitive-managed:1.2".to_string()));
    assert_eq!(r.roots.len(), 1);
    assert_eq!(r.roots[0].coordinate, fx("app:1.0"));
    let get = |a: &str| r.find(G, a).unwrap_or_else(|| panic!("{a} resolved"));
    assert_eq!(
        get("rt-lib").scope,
        Scope::Runtime,
        "runtime dep of a compile dep"
    );
    assert_eq!(get("rt-direct").scope, Scope::Runtime);
    assert_eq!(
        get("rt-child").scope,
        Scope::Runtime,
        "compile dep of a runtime dep"
    );
    assert_eq!(get("deep").scope, Scope::Compile);
    assert_eq!(get("deeper").depth, 3);
    assert_eq!(
        get("deeper").path,
        [
            format!("{G}:app:1.0"),
            format!("{G}:mid:1.0"),
            format!("{G}:deep:1.0"),
            format!("{G}:deeper:1.0")
        ]
    );
    assert_eq!(get("deeper").repository, server.url);
    for absent in [
        "excluded-lib",
        "opt-lib",
        "test-lib",
        "prov-lib",
        "opt-transitive",
        "wild-child",
        "parent",
        "bom",
    ] {
        assert!(r.find(G, absent).is_none(), "{absent} must not be resolved");
    }
    let conflicts: Vec<(String, String)> = r
        .conflicts
        .iter()
        .map(|c| (c.rejected.to_string(), c.chosen.clone()))
        .collect();
    assert_eq!(
        conflicts,
        [
            (format!("{G}:conflict-lib:2.0"), "1.0".to_string()),
            (format!("{G}:shared:2.0"), "1.0".to_string()),
        ]
    );

    // The effective POM shows the inherited and imported management.
    let pom = resolver.effective_pom(&fx("app:1.0")).unwrap();
    assert_eq!(pom.parent.as_deref(), Some(&*format!("{G}:parent:7")));
    assert_eq!(
        pom.properties.get("lib.version").map(String::as_str),
        Some("2.0")
    );
    let managed: Vec<String> = pom
        .managed
        .iter()
        .map(|d| format!("{}:{}", d.artifact, d.version.as_deref().unwrap_or("?")))
        .collect();
    assert!(
        managed.contains(&"managed-lib:1.5".to_string()),
        "{managed:?}"
    );
    assert!(
        managed.contains(&"bom-managed:3.1".to_string()),
        "{managed:?}"
    );
    assert!(
        !managed.contains(&"managed-lib:9.9".to_string()),
        "{managed:?}"
    );
    // POMs went into the cache in Maven layout, with their checksums.
    assert!(cache
        .path()
        .join("org/thalia/fixture/parent/7/parent-7.pom")
        .is_file());
    assert!(cache
        .path()
        .join("org/thalia/fixture/bom/1/bom-1.pom.sha1")
        .is_file());
}

#[test]
fn resolution_options_and_relocations() {
    let repo = rules_repo();
    let jar = some_jar();
    // opt-lib and prov-lib exist here, so following the root's optional and `provided`
    // dependencies can succeed.
    repo.lib("opt-lib", "1.0", "", &jar);
    repo.lib("prov-lib", "1.0", "", &jar);
    // A relocated artifact: its POM points elsewhere, and the new name is what resolves.
    repo.pom(
        "old-name",
        "1.0",
        "  <distributionManagement><relocation><artifactId>new-name</artifactId>\
             </relocation></distributionManagement>",
    );
    repo.lib("new-name", "1.0", "", &jar);
    repo.lib("uses-old", "1.0", &dep("old-name", Some("1.0"), ""), &jar);
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();
    let config = RepoConfig::new(
        vec![Repository::from_spec("test", &server.url, None).unwrap()],
        cache.path().to_path_buf(),
    );

    // As a consumer of the root sees it: the root's management leaves transitive
    // dependencies alone, and the root's optional and `provided` dependencies are followed
    // on request.
    let resolver = Resolver::new(
        config.clone(),
        ResolverOptions {
            root_management: false,
            follow_root_optional: true,
            ..options()
        },
    )
    .unwrap();
    let r = resolver.resolve(&[fx("app:1.0")]).unwrap();
    assert_eq!(
        r.find(G, "transitive-managed")
            .unwrap()
            .coordinate
            .version
            .as_deref(),
        Some("1.0")
    );
    assert!(r.find(G, "opt-lib").is_some());
    assert!(r.find(G, "prov-lib").is_some());
    assert!(
        r.find(G, "opt-transitive").is_none(),
        "only the root's optional deps"
    );

    let resolver = Resolver::new(config, options()).unwrap();
    let r = resolver.resolve(&[fx("uses-old:1.0")]).unwrap();
    assert_eq!(summary(&r), ["uses-old:1.0", "new-name:1.0"]);

    // A single file, without its dependencies.
    let f = resolver.download(&fx("new-name:1.0")).unwrap();
    assert_eq!(f.sha1, sha1_hex(&jar));
    assert!(f
        .jar
        .ends_with("org/thalia/fixture/new-name/1.0/new-name-1.0.jar"));
}

#[test]
fn versionless_roots_and_ranges_use_metadata() {
    let repo = RepoDir::new();
    let jar = some_jar();
    // No <release>: the highest non-snapshot version by Maven ordering (1.10 > 1.9).
    repo.metadata(
        "plain",
        &["1.2-alpha", "1.9", "1.10", "2.0-SNAPSHOT", "1.0"],
        None,
    );
    // With <release>.
    repo.metadata("released", &["1.0", "3.0", "2.5"], Some("2.5"));
    repo.metadata("ranged", &["1.0", "1.4", "1.6", "2.0"], None);
    repo.lib("plain", "1.10", "", &jar);
    repo.lib("ranged", "1.6", "", &jar);
    repo.lib("user", "1.0", &dep("ranged", Some("[1.0,2.0)"), ""), &jar);
    repo.lib(
        "bad-range",
        "1.0",
        &dep("ranged", Some("[3.0,4.0)"), ""),
        &jar,
    );
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());

    assert_eq!(resolver.latest_release(G, "plain").unwrap(), "1.10");
    assert_eq!(resolver.latest_release(G, "released").unwrap(), "2.5");
    let err = resolver.latest_release(G, "unknown").unwrap_err();
    assert!(matches!(err, MavenError::NotFound { .. }), "{err}");
    assert!(err.to_string().contains(&server.url), "{err}");

    let r = resolver.resolve(&[fx("plain")]).unwrap();
    assert_eq!(summary(&r), ["plain:1.10"]);
    let r = resolver.resolve(&[fx("user:1.0")]).unwrap();
    assert_eq!(summary(&r), ["user:1.0", "ranged:1.6"]);
    let err = resolver.resolve(&[fx("bad-range:1.0")]).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err.innermost(), MavenError::VersionRange { .. }),
        "{msg}"
    );
    assert!(msg.contains("[3.0,4.0)") && msg.contains("1.6"), "{msg}");
    assert!(msg.contains(&format!("{G}:bad-range:1.0")), "path in {msg}");
}

/// Writes the two compiled libraries (util depends on core) and a javadoc jar for core.
fn java_repo(repo: &RepoDir, core: &[u8], util: &[u8], javadoc: &[u8]) {
    repo.lib("core", "1.0", "", core);
    repo.lib("util", "1.0", &dep("core", Some("1.0"), ""), util);
    repo.put(
        &RepoDir::rel("core", "1.0", Some("javadoc"), "jar"),
        javadoc,
    );
}

#[test]
fn fetch_verifies_checksums_and_reuses_the_cache() {
    let Some(jars) = java_jars() else {
        require::missing_tool(
            "fetch_verifies_checksums_and_reuses_the_cache",
            "javac/jar not found",
        );
        return;
    };
    let repo = RepoDir::new();
    java_repo(&repo, &jars.core, &jars.util, &jars.javadoc);
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();

    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("util:1.0")]).unwrap();
    let fetched = resolver.fetch(&r, true).unwrap();
    assert_eq!(fetched.len(), 2);
    let (util, core) = (&fetched[0], &fetched[1]);
    assert_eq!(util.coordinate, fx("util:1.0"));
    assert_eq!(
        util.jar,
        cache
            .path()
            .join("org/thalia/fixture/util/1.0/util-1.0.jar")
    );
    assert_eq!(
        core.jar,
        cache
            .path()
            .join("org/thalia/fixture/core/1.0/core-1.0.jar")
    );
    assert_eq!(util.sha1, sha1_hex(&jars.util));
    assert_eq!(fs::read(&core.jar).unwrap(), jars.core);
    assert_eq!(
        fs::read_to_string(
            cache
                .path()
                .join("org/thalia/fixture/core/1.0/core-1.0.jar.sha1")
        )
        .unwrap(),
        sha1_hex(&jars.core)
    );
    assert_eq!(util.repository, server.url);
    assert!(
        util.javadoc.is_none(),
        "no javadoc published for util: not an error"
    );
    assert_eq!(
        core.javadoc.as_deref(),
        Some(
            &*cache
                .path()
                .join("org/thalia/fixture/core/1.0/core-1.0-javadoc.jar")
        )
    );
    no_temp_files(cache.path());

    // The fetched classpath is usable: a client compiles against it.
    let src = tempfile::tempdir().unwrap();
    let client = src.path().join("Client.java");
    fs::write(
        &client,
        "import fixture.core.Box; import fixture.util.Boxes; import java.util.List;\n\
         class Client { Box<String> m() { return Boxes.max(List.of(new Box<>(\"a\"), new Box<>(\"b\"))); } }\n",
    )
    .unwrap();
    let cp = std::env::join_paths(fetched.iter().map(|f| f.jar.clone())).unwrap();
    let out = Command::new("javac")
        .arg("-cp")
        .arg(&cp)
        .arg("-d")
        .arg(src.path())
        .arg(&client)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A second resolve + fetch, by a fresh resolver over the same cache, asks nothing.
    let before = server.requests().len();
    let again = resolver_for(&[&server.url], cache.path());
    let r2 = again.resolve(&[fx("util:1.0")]).unwrap();
    let fetched2 = again.fetch(&r2, false).unwrap();
    assert_eq!(
        server.requests()[before..],
        [] as [String; 0],
        "no new downloads"
    );
    assert_eq!(fetched2[0].jar, util.jar);
    assert_eq!(fetched2[0].sha1, util.sha1);
    assert!(fetched2[0].repository.contains("(cache)"));

    // A cached file that no longer matches its cached checksum is downloaded again.
    fs::write(&core.jar, b"garbage").unwrap();
    let third = resolver_for(&[&server.url], cache.path());
    let fetched3 = third.fetch(&r2, false).unwrap();
    assert_eq!(fs::read(&fetched3[1].jar).unwrap(), jars.core);
    assert_eq!(
        server.count(&RepoDir::rel("core", "1.0", None, "jar")),
        2,
        "re-downloaded once"
    );
}

#[test]
fn file_repositories_work_as_urls_and_paths() {
    let repo = RepoDir::new();
    let jar = some_jar();
    repo.lib("a", "1.0", &dep("b", Some("1.0"), ""), &jar);
    repo.lib("b", "1.0", "", &jar);
    for spec in [
        repo.root().display().to_string(),
        thalia_extractors::maven::repo::path_to_file_url(repo.root()),
    ] {
        let cache = tempfile::tempdir().unwrap();
        let resolver = resolver_for(&[&spec], cache.path());
        let r = resolver.resolve(&[fx("a:1.0")]).unwrap();
        assert_eq!(summary(&r), ["a:1.0", "b:1.0"]);
        let fetched = resolver.fetch(&r, false).unwrap();
        assert_eq!(fs::read(&fetched[1].jar).unwrap(), jar);
        assert!(fetched[1].repository.starts_with("file://"));
        assert!(fetched[1].jar.starts_with(cache.path()));
    }
}

#[test]
fn tampered_checksum_is_an_error_and_nothing_is_cached() {
    let repo = RepoDir::new();
    let jar = some_jar();
    repo.lib("tampered", "1.0", "", &jar);
    let rel = RepoDir::rel("tampered", "1.0", None, "jar");
    repo.put_raw(
        &format!("{rel}.sha1"),
        b"0123456789abcdef0123456789abcdef01234567  tampered-1.0.jar\n",
    );
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("tampered:1.0")]).unwrap();
    let err = resolver.fetch(&r, false).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err.innermost(), MavenError::ChecksumMismatch { .. }),
        "{msg}"
    );
    assert!(msg.contains("tampered-1.0.jar"), "{msg}");
    assert!(
        msg.contains("0123456789abcdef0123456789abcdef01234567"),
        "{msg}"
    );
    assert!(msg.contains(&sha1_hex(&jar)), "{msg}");
    assert!(!cache
        .path()
        .join("org/thalia/fixture/tampered/1.0/tampered-1.0.jar")
        .exists());
    no_temp_files(cache.path());

    // The MD5 is used when there is no SHA-1, and checked as well.
    let repo = RepoDir::new();
    repo.lib("md5only", "1.0", "", &jar);
    let rel = RepoDir::rel("md5only", "1.0", None, "jar");
    fs::remove_file(repo.path(&format!("{rel}.sha1"))).unwrap();
    repo.put_raw(&format!("{rel}.md5"), b"00000000000000000000000000000000");
    let server = RepoServer::start(&repo);
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("md5only:1.0")]).unwrap();
    let err = resolver.fetch(&r, false).unwrap_err();
    assert!(err.to_string().contains("MD5"), "{err}");
    no_temp_files(cache.path());
}

#[test]
fn missing_artifacts_name_the_coordinate_and_every_repository() {
    let repo = RepoDir::new();
    let jar = some_jar();
    repo.lib("holder", "1.0", &dep("ghost", Some("2.0"), ""), &jar);
    let server = RepoServer::start(&repo);
    let other = RepoDir::new();
    let other_url = thalia_extractors::maven::repo::path_to_file_url(other.root());
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url, &other_url], cache.path());

    let err = resolver.resolve(&[fx("nowhere:1.0")]).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, MavenError::NotFound { .. }), "{msg}");
    assert!(msg.contains(&format!("{G}:nowhere:pom:1.0")), "{msg}");
    assert!(
        msg.contains(&server.url) && msg.contains(&other_url),
        "{msg}"
    );

    // A missing transitive dependency: the message also shows how it was reached.
    let err = resolver.resolve(&[fx("holder:1.0")]).unwrap_err();
    let msg = err.to_string();
    assert!(err.is_not_found(), "{msg}");
    assert!(msg.contains(&format!("{G}:ghost:pom:2.0")), "{msg}");
    assert!(
        msg.contains(&format!("{G}:holder:1.0 -> {G}:ghost:2.0")),
        "{msg}"
    );

    // A 404 injected for a jar that exists on disk.
    repo.lib("hidden", "1.0", "", &jar);
    let rel = RepoDir::rel("hidden", "1.0", None, "jar");
    server.fault(&rel, Fault::NotFound);
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("hidden:1.0")]).unwrap();
    let err = resolver.fetch(&r, false).unwrap_err();
    let msg = err.to_string();
    assert!(err.is_not_found(), "{msg}");
    assert!(msg.contains(&format!("{G}:hidden:1.0")), "{msg}");
    assert!(msg.contains(&format!("{}/{rel}", server.url)), "{msg}");
    assert_eq!(server.count(&rel), 1, "a 404 is not retried");

    // A 403 is not retried either, and is reported as such.
    server.fault(&rel, Fault::Status(403));
    let err = resolver.fetch(&r, false).unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");
    assert_eq!(server.count(&rel), 2);
}

#[test]
fn server_errors_are_retried() {
    let repo = RepoDir::new();
    repo.lib("flaky", "1.0", "", &some_jar());
    let rel = RepoDir::rel("flaky", "1.0", None, "jar");
    let server = RepoServer::start(&repo);
    server.fault(&rel, Fault::Status(503));
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("flaky:1.0")]).unwrap();
    let err = resolver.fetch(&r, false).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err.innermost(), MavenError::Transfer { attempts: 3, .. }),
        "{msg}"
    );
    assert!(msg.contains("503") && msg.contains(&rel), "{msg}");
    assert_eq!(server.count(&rel), 3);
}

#[test]
fn corrupt_jar_with_matching_checksum_is_rejected() {
    let repo = RepoDir::new();
    let jar = some_jar();
    // Served complete, with checksums that match the truncated bytes.
    let truncated = &jar[..jar.len() / 2];
    repo.lib("broken", "1.0", "", truncated);
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("broken:1.0")]).unwrap();
    let err = resolver.fetch(&r, false).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err.innermost(), MavenError::CorruptArchive { .. }),
        "{msg}"
    );
    assert!(
        msg.contains("broken-1.0.jar") && msg.contains(&format!("{G}:broken:1.0")),
        "{msg}"
    );
    assert!(!cache
        .path()
        .join("org/thalia/fixture/broken/1.0/broken-1.0.jar")
        .exists());
    no_temp_files(cache.path());
}

#[test]
fn pom_cycles_are_reported_with_the_chain() {
    let repo = RepoDir::new();
    let parent = |a: &str, v: &str| {
        format!(
            "  <parent><groupId>{G}</groupId><artifactId>{a}</artifactId><version>{v}</version></parent>"
        )
    };
    repo.pom("cyc-a", "1", &parent("cyc-b", "1"));
    repo.pom("cyc-b", "1", &parent("cyc-c", "1"));
    repo.pom("cyc-c", "1", &parent("cyc-a", "1"));
    let import = |a: &str| {
        format!(
            "  <dependencyManagement><dependencies>\n{}  </dependencies></dependencyManagement>",
            dep(a, Some("1"), "<type>pom</type><scope>import</scope>")
        )
    };
    repo.pom("bom-x", "1", &import("bom-y"));
    repo.pom("bom-y", "1", &import("bom-x"));
    let server = RepoServer::start(&repo);
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());

    let err = resolver.resolve(&[fx("cyc-a:1")]).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err.innermost(), MavenError::Cycle { .. }), "{msg}");
    assert!(
        msg.contains(&format!(
            "{G}:cyc-a:1 -> {G}:cyc-b:1 -> {G}:cyc-c:1 -> {G}:cyc-a:1"
        )),
        "{msg}"
    );
    assert!(msg.contains("parent"), "{msg}");

    let err = resolver.resolve(&[fx("bom-x:1")]).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err.innermost(), MavenError::Cycle { .. }), "{msg}");
    assert!(
        msg.contains(&format!("{G}:bom-x:1 -> {G}:bom-y:1 -> {G}:bom-x:1")),
        "{msg}"
    );
    assert!(msg.contains("BOM import"), "{msg}");
}

#[test]
fn dropped_connection_is_retried_then_fails_cleanly() {
    let repo = RepoDir::new();
    let jar = some_jar();
    repo.lib("dropped", "1.0", "", &jar);
    let rel = RepoDir::rel("dropped", "1.0", None, "jar");
    let server = RepoServer::start(&repo);
    server.fault(&rel, Fault::DropMidBody);
    let cache = tempfile::tempdir().unwrap();
    let resolver = resolver_for(&[&server.url], cache.path());
    let r = resolver.resolve(&[fx("dropped:1.0")]).unwrap();
    let err = resolver.fetch(&r, false).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err.innermost(), MavenError::Transfer { attempts: 3, .. }),
        "{msg}"
    );
    assert!(msg.contains(&format!("{}/{rel}", server.url)), "{msg}");
    assert_eq!(server.count(&rel), 3, "three attempts");
    assert_eq!(server.dropped(), 3, "each cut mid-body");
    let dir = cache.path().join("org/thalia/fixture/dropped/1.0");
    assert!(!dir.join("dropped-1.0.jar").exists());
    assert_eq!(
        files_under(&dir),
        ["dropped-1.0.pom", "dropped-1.0.pom.sha1"],
        "nothing partial in the cache"
    );
    no_temp_files(cache.path());
}

#[test]
fn default_options_match_the_design() {
    let o = ResolverOptions::default();
    assert_eq!(o.attempts, 3);
    assert_eq!(o.initial_backoff, Duration::from_millis(200));
    assert_eq!(o.connect_timeout, Duration::from_secs(10));
    assert_eq!(o.timeout, Duration::from_secs(120));
}

#[test]
fn malformed_coordinates_are_rejected_clearly() {
    for bad in ["commons-lang3", "a::b", "a b:c:1", "g:a:1:2:3:4"] {
        let err = bad.parse::<Coordinate>().unwrap_err();
        assert!(matches!(err, MavenError::BadCoordinate { .. }), "{bad}");
        assert!(err.to_string().contains(bad), "{err}");
    }
    let c = coord("g:a:pom:classy:1.0");
    assert_eq!(c.extension, "pom");
    assert_eq!(c.classifier.as_deref(), Some("classy"));
}

// ---- repository discovery ----------------------------------------------------------------

/// Options that see only what the test gives them (no Maven on PATH, an empty home).
fn isolated(home: &Path, cli: &[&str], env: &[(&str, &str)]) -> DiscoverOptions {
    let mut e: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    e.entry("PATH".into()).or_default();
    DiscoverOptions {
        cli_repos: cli.iter().map(|s| s.to_string()).collect(),
        env: e,
        home: Some(home.to_path_buf()),
        cwd: Some(home.to_path_buf()),
        default_cache: Some(home.join("default-cache")),
    }
}

fn urls(c: &RepoConfig) -> Vec<String> {
    c.repositories.iter().map(|r| r.url.clone()).collect()
}

#[test]
fn discovery_uses_cli_then_env_repositories_only() {
    let home = tempfile::tempdir().unwrap();
    fs::create_dir_all(home.path().join("local-repo")).unwrap();
    let opts = isolated(
        home.path(),
        &["http://127.0.0.1:9/first/", "local-repo"],
        &[
            (
                "THALIA_MAVEN_REPOS",
                "http://127.0.0.1:9/env-a, http://127.0.0.1:9/env-b\nfile:///tmp/env-c",
            ),
            ("THALIA_MAVEN_CACHE", "/tmp/thalia-test-cache"),
        ],
    );
    let c = RepoConfig::discover_with(&opts).unwrap();
    assert_eq!(
        urls(&c),
        [
            "http://127.0.0.1:9/first".to_string(),
            thalia_extractors::maven::repo::path_to_file_url(&home.path().join("local-repo")),
            "http://127.0.0.1:9/env-a".to_string(),
            "http://127.0.0.1:9/env-b".to_string(),
            "file:///tmp/env-c".to_string(),
        ]
    );
    assert_eq!(c.cache, PathBuf::from("/tmp/thalia-test-cache"));

    // Only the environment variable.
    let opts = isolated(
        home.path(),
        &[],
        &[("THALIA_MAVEN_REPOS", "http://127.0.0.1:9/only")],
    );
    let c = RepoConfig::discover_with(&opts).unwrap();
    assert_eq!(urls(&c), ["http://127.0.0.1:9/only"]);
    assert_eq!(c.cache, home.path().join("default-cache"));

    // ~/.m2/repository is reused when it exists.
    fs::create_dir_all(home.path().join(".m2/repository")).unwrap();
    let c = RepoConfig::discover_with(&opts).unwrap();
    assert_eq!(c.cache, home.path().join(".m2/repository"));

    // Bad values are reported with the value.
    let opts = isolated(home.path(), &["no-such-dir"], &[]);
    let err = RepoConfig::discover_with(&opts).unwrap_err();
    assert!(err.to_string().contains("no-such-dir"), "{err}");
    let opts = isolated(home.path(), &["ftp://127.0.0.1/x"], &[]);
    assert!(RepoConfig::discover_with(&opts).is_err());
}

const SETTINGS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<settings xmlns="urn:example:settings">
  <localRepository>${user.home}/custom-local</localRepository>
  <mirrors>
    <mirror>
      <id>company</id>
      <mirrorOf>MIRROR_OF</mirrorOf>
      <url>http://127.0.0.1:9/mirror/</url>
    </mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>extra</id>
      <repositories>
        <repository><id>internal</id><url>http://127.0.0.1:9/internal</url></repository>
      </repositories>
    </profile>
    <profile>
      <id>by-default</id>
      <activation><activeByDefault>true</activeByDefault></activation>
      <repositories>
        <repository><id>defaulted</id><url>http://127.0.0.1:9/defaulted</url></repository>
        <repository><id>snapshots-only</id><url>http://127.0.0.1:9/snap</url>
          <releases><enabled>false</enabled></releases></repository>
      </repositories>
    </profile>
    <profile>
      <id>inactive</id>
      <repositories>
        <repository><id>never</id><url>http://127.0.0.1:9/never</url></repository>
      </repositories>
    </profile>
  </profiles>
  ACTIVE
</settings>
"#;

#[test]
fn discovery_reads_settings_and_mirrors() {
    let home = tempfile::tempdir().unwrap();
    let m2 = home.path().join(".m2");
    fs::create_dir_all(&m2).unwrap();

    let settings = |mirror_of: &str, active: &str| {
        SETTINGS
            .replace("MIRROR_OF", mirror_of)
            .replace("ACTIVE", active)
    };
    let extra = "<activeProfiles><activeProfile>extra</activeProfile></activeProfiles>";

    // A mirror of central: the settings' repositories first, the mirror instead of central.
    // No Maven installation is visible, and none is needed. Without an explicitly active
    // profile, the profile active by default counts.
    fs::write(m2.join("settings.xml"), settings("central", "")).unwrap();
    let c = RepoConfig::discover_with(&isolated(home.path(), &[], &[])).unwrap();
    assert_eq!(
        urls(&c),
        ["http://127.0.0.1:9/defaulted", "http://127.0.0.1:9/mirror"]
    );
    assert_eq!(c.repositories[1].id, "company");
    assert_eq!(c.cache, home.path().join("custom-local"));

    // An explicitly active profile switches the default one off (as in Maven).
    fs::write(m2.join("settings.xml"), settings("central", extra)).unwrap();
    let c = RepoConfig::discover_with(&isolated(home.path(), &[], &[])).unwrap();
    assert_eq!(
        urls(&c),
        ["http://127.0.0.1:9/internal", "http://127.0.0.1:9/mirror"]
    );

    // `*` mirrors everything, so one repository remains.
    fs::write(m2.join("settings.xml"), settings("*", extra)).unwrap();
    let c = RepoConfig::discover_with(&isolated(home.path(), &[], &[])).unwrap();
    assert_eq!(urls(&c), ["http://127.0.0.1:9/mirror"]);

    // THALIA_MAVEN_SETTINGS points elsewhere; `*,!internal` leaves internal alone.
    let other = home.path().join("other-settings.xml");
    fs::write(&other, settings("*,!internal", extra)).unwrap();
    let opts = isolated(
        home.path(),
        &[],
        &[
            ("THALIA_MAVEN_SETTINGS", other.to_str().unwrap()),
            ("THALIA_MAVEN_CACHE", "/tmp/explicit-cache"),
        ],
    );
    let c = RepoConfig::discover_with(&opts).unwrap();
    assert_eq!(
        urls(&c),
        ["http://127.0.0.1:9/internal", "http://127.0.0.1:9/mirror"]
    );
    assert_eq!(c.cache, PathBuf::from("/tmp/explicit-cache"));

    // --repo overrides the settings entirely.
    let opts = isolated(home.path(), &["http://127.0.0.1:9/cli"], &[]);
    let c = RepoConfig::discover_with(&opts).unwrap();
    assert_eq!(urls(&c), ["http://127.0.0.1:9/cli"]);

    // A malformed settings file is reported with its path.
    fs::write(m2.join("settings.xml"), "<settings><mirrors>").unwrap();
    let err = RepoConfig::discover_with(&isolated(home.path(), &[], &[])).unwrap_err();
    assert!(err.to_string().contains("settings.xml"), "{err}");

    // Without repositories, mirrors or Maven, the error says what to do.
    fs::remove_file(m2.join("settings.xml")).unwrap();
    let err = RepoConfig::discover_with(&isolated(home.path(), &[], &[])).unwrap_err();
    assert!(err.to_string().contains("--repo"), "{err}");
}

#[test]
fn central_comes_from_the_installed_maven_super_pom() {
    // The real PATH and Maven variables, but an empty home and no THALIA_* variables.
    let home = tempfile::tempdir().unwrap();
    let mut env = BTreeMap::new();
    for k in ["PATH", "MAVEN_HOME", "M2_HOME"] {
        if let Ok(v) = std::env::var(k) {
            env.insert(k.to_string(), v);
        }
    }
    let opts = DiscoverOptions {
        cli_repos: Vec::new(),
        env,
        home: Some(home.path().to_path_buf()),
        cwd: Some(home.path().to_path_buf()),
        default_cache: Some(home.path().join("cache")),
    };
    let Some(maven_home) = find_maven_home(&opts) else {
        require::missing_tool(
            "central_comes_from_the_installed_maven_super_pom",
            "no Maven installed",
        );
        return;
    };
    assert!(
        maven_home.join("bin").join("mvn").exists(),
        "{}",
        maven_home.display()
    );
    let central = super_pom_central(&maven_home).expect("super-POM");
    assert!(
        central.starts_with("https://") && central.len() > "https://".len(),
        "{central}"
    );
    let c = RepoConfig::discover_with(&opts).expect("discover");
    let last = c.repositories.last().expect("a repository");
    // Unless the installation's own settings mirror it, central is the last repository.
    if last.id == "central" {
        assert_eq!(last.url, central);
    }
    assert!(last.url.starts_with("http"), "{}", last.url);

    // A Maven home found through MAVEN_HOME gives the same answer.
    let mut env = BTreeMap::new();
    env.insert("MAVEN_HOME".to_string(), maven_home.display().to_string());
    let opts = DiscoverOptions { env, ..opts };
    assert_eq!(
        find_maven_home(&opts).as_deref(),
        Some(maven_home.as_path())
    );
}
