//! Toolchains and the Maven cache shared by many processes (the nodes of a cluster on one
//! shared volume): four `thalia toolchain install` processes of the same compiler into one
//! fresh toolchains directory and one fresh Maven cache leave one valid install and no
//! temporary files, for the JDK's javac and for a compiler published in a Maven repository
//! served on 127.0.0.1; `toolchain install --offline` installs from that cache alone (the
//! newest release in the cache, not in the repository) and fails clearly when the cache
//! lacks what it needs.

use crate::support::fake;
use crate::support::require;

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use fake::real_javac;
use serde_json::Value;

const PROCESSES: usize = 4;

/// True when a JDK is on PATH (otherwise the test skips or, in CI, fails).
fn have_jdk(test: &str) -> bool {
    let ok = Process::new("sh")
        .args(["-c", "command -v javac && command -v java"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        require::missing_tool(test, "javac/java not found on PATH");
    }
    ok
}

/// `thalia` with its own toolchains and Maven cache, and no user settings.
fn isolated(toolchains: &Path, cache: &Path) -> Process {
    let mut c = Process::new(assert_cmd::cargo::cargo_bin("thalia"));
    c.env("THALIA_TOOLCHAINS", toolchains)
        .env("THALIA_MAVEN_CACHE", cache)
        .env("THALIA_MAVEN_SETTINGS", cache.join("no-settings.xml"))
        .env_remove("THALIA_MAVEN_REPOS");
    c
}

/// Runs `args` in `PROCESSES` processes at once; asserts each succeeds.
fn at_once(toolchains: &Path, cache: &Path, args: &[&str]) {
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            isolated(toolchains, cache)
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("thalia starts")
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().expect("ends");
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Every file under `dir`, relative.
fn files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).expect("under").display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The installed toolchains of `toolchains` (`toolchain list`), one line each.
fn listed(toolchains: &Path, cache: &Path) -> Vec<String> {
    let o = isolated(toolchains, cache)
        .args(["toolchain", "list"])
        .output()
        .expect("list");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn concurrent_javac_installs_leave_one_valid_install() {
    if !have_jdk("concurrent_javac_installs_leave_one_valid_install") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let (toolchains, cache) = (root.path().join("toolchains"), root.path().join("cache"));
    at_once(&toolchains, &cache, &["toolchain", "install", "javac"]);
    assert_eq!(listed(&toolchains, &cache).len(), 1);
    let all = files(&toolchains);
    let json: Vec<&String> = all
        .iter()
        .filter(|f| f.ends_with("toolchain.json"))
        .collect();
    assert_eq!(json.len(), 1, "{all:?}");
    // the lock file and the install, nothing half-written
    assert_eq!(all.len(), 2, "{all:?}");
    let tc: Value =
        serde_json::from_str(&std::fs::read_to_string(toolchains.join(json[0])).expect("readable"))
            .expect("a complete toolchain.json");
    assert_eq!(tc["tool"], "javac");
}

/// Publishes a fake groovy compiler in releases 1.0.0 and 2.0.0 (a jar and a POM each, and
/// `maven-metadata.xml`) under `root/repo`: its main class accepts every program.
fn build_repository(root: &Path) -> PathBuf {
    let content = root.join("content");
    std::fs::create_dir_all(&content).expect("mkdir");
    std::fs::write(content.join("thalia-fake.txt"), "a fake compiler\n").expect("write");
    let src = root.join("FileSystemCompiler.java");
    std::fs::write(
        &src,
        "package org.codehaus.groovy.tools;\npublic class FileSystemCompiler {\n    \
         public static void main(String[] args) {}\n}\n",
    )
    .expect("write source");
    let ok = Process::new(real_javac())
        .args(["--release", "17", "-d"])
        .arg(&content)
        .arg(&src)
        .status()
        .expect("javac runs");
    assert!(ok.success(), "the fake compiler compiles");
    let repo = root.join("repo");
    let dir = repo.join("org/apache/groovy/groovy");
    let jar = real_javac().parent().expect("the JDK's bin").join("jar");
    for version in ["1.0.0", "2.0.0"] {
        let vdir = dir.join(version);
        std::fs::create_dir_all(&vdir).expect("mkdir");
        let ok = Process::new(&jar)
            .arg("--create")
            .arg("--file")
            .arg(vdir.join(format!("groovy-{version}.jar")))
            .arg("-C")
            .arg(&content)
            .arg(".")
            .status()
            .expect("jar runs");
        assert!(ok.success());
        std::fs::write(
            vdir.join(format!("groovy-{version}.pom")),
            format!(
                "<?xml version=\"1.0\"?>\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  \
                 <groupId>org.apache.groovy</groupId>\n  <artifactId>groovy</artifactId>\n  \
                 <version>{version}</version>\n</project>\n"
            ),
        )
        .expect("write pom");
    }
    std::fs::write(
        dir.join("maven-metadata.xml"),
        "<?xml version=\"1.0\"?>\n<metadata>\n  <groupId>org.apache.groovy</groupId>\n  \
         <artifactId>groovy</artifactId>\n  <versioning>\n    <release>2.0.0</release>\n    \
         <versions>\n      <version>1.0.0</version>\n      <version>2.0.0</version>\n    \
         </versions>\n  </versioning>\n</metadata>\n",
    )
    .expect("write metadata");
    repo
}

/// Serves `root` over HTTP on 127.0.0.1; returns its URL.
fn serve(root: PathBuf) -> String {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/", server.server_addr());
    std::thread::spawn(move || {
        for rq in server.incoming_requests() {
            let rel = rq.url().trim_start_matches('/').to_string();
            let path = root.join(&rel);
            let _ = if rel.split('/').any(|c| c == "..") || !path.is_file() {
                rq.respond(tiny_http::Response::empty(404))
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                rq.respond(tiny_http::Response::from_data(bytes))
            };
        }
    });
    url
}

#[test]
fn concurrent_maven_installs_share_one_cache_and_offline_installs_use_it_alone() {
    if !have_jdk("concurrent_maven_installs_share_one_cache_and_offline_installs_use_it_alone") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let repo = build_repository(root.path());
    let url = serve(repo.clone());
    let (toolchains, cache) = (root.path().join("toolchains"), root.path().join("cache"));
    at_once(
        &toolchains,
        &cache,
        &["toolchain", "install", "groovy@1.0.0", "--repo", &url],
    );
    assert_eq!(listed(&toolchains, &cache).len(), 1);
    let all = files(&toolchains);
    assert_eq!(
        all.len(),
        2,
        "the lock file and one toolchain.json: {all:?}"
    );
    let tc: Value = serde_json::from_str(
        &std::fs::read_to_string(toolchains.join("groovy/1.0.0/toolchain.json")).expect("read"),
    )
    .expect("a complete toolchain.json");
    let jar = PathBuf::from(tc["classpath"][0].as_str().expect("a jar"));
    assert!(jar.starts_with(&cache), "{}", jar.display());
    assert_eq!(
        std::fs::read(&jar).expect("the cached jar"),
        std::fs::read(repo.join("org/apache/groovy/groovy/1.0.0/groovy-1.0.0.jar"))
            .expect("the published jar"),
        "the cached jar is whole"
    );
    let leftovers: Vec<String> = files(&cache)
        .into_iter()
        .filter(|f| f.ends_with(".part") || f.contains("/.thalia-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // offline, into fresh toolchains: the cache's newest release (2.0.0 is only in the
    // repository), no repository asked
    let fresh = root.path().join("fresh-toolchains");
    let o = isolated(&fresh, &cache)
        .args(["toolchain", "install", "groovy", "--offline"])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tc: Value = serde_json::from_str(
        &std::fs::read_to_string(fresh.join("groovy/1.0.0/toolchain.json")).expect("read"),
    )
    .expect("JSON");
    assert_eq!(
        tc["classpath"][0].as_str(),
        Some(jar.to_str().expect("utf-8"))
    );
    // a release the cache lacks, and an empty cache: clear errors
    let o = isolated(&fresh, &cache)
        .args(["toolchain", "install", "groovy@2.0.0", "--offline"])
        .output()
        .expect("runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("offline") && err.contains("1.0.0"), "{err}");
    let empty = root.path().join("empty-cache");
    let o = isolated(&fresh, &empty)
        .args(["toolchain", "install", "groovy", "--offline"])
        .output()
        .expect("runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("offline") && err.contains("no release of org.apache.groovy:groovy"),
        "{err}"
    );
    assert!(err.contains(&empty.display().to_string()), "{err}");
    // a jar removed from the cache is named
    std::fs::remove_file(&jar).expect("rm");
    let o = isolated(&root.path().join("third"), &cache)
        .args(["toolchain", "install", "groovy@1.0.0", "--offline"])
        .output()
        .expect("runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("offline") && err.contains("groovy-1.0.0.jar"),
        "{err}"
    );
}

/// A campaign that names a compiler without a version tests the newest release the
/// repositories list, not the newest installed one; offline it falls back to the releases
/// read before, and without those to the newest installed release, saying so.
#[test]
fn a_compiler_without_a_version_is_the_newest_release() {
    if !have_jdk("a_compiler_without_a_version_is_the_newest_release") {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let repo = build_repository(root.path());
    let url = serve(repo.clone());
    let (toolchains, cache) = (root.path().join("toolchains"), root.path().join("cache"));
    let o = isolated(&toolchains, &cache)
        .args(["toolchain", "install", "groovy@1.0.0", "--repo", &url])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let api = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/api-samples/java");
    let campaign = |out: &str, repo: &str| {
        let run = root.path().join(out);
        let o = isolated(&toolchains, &cache)
            .args([
                "run",
                "--lang",
                "groovy",
                "--compiler",
                "groovy",
                "--no-twin",
            ])
            .args([
                "--mode",
                "well-typed",
                "--budget",
                "4",
                "--seed",
                "1",
                "--api",
            ])
            .arg(&api)
            .args(["--repo", repo, "--out"])
            .arg(&run)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(o.status.success(), "{err}");
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(run.join("manifest.json")).expect("a manifest"),
        )
        .expect("JSON");
        (
            manifest["compiler"]["version"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            err,
        )
    };
    let (version, err) = campaign("newest", &url);
    assert_eq!(
        version, "2.0.0",
        "the newest release, not the installed 1.0.0: {err}"
    );
    assert!(
        err.lines()
            .any(|l| l.starts_with("compiler: groovy@2.0.0: the newest release")),
        "the resolved release is printed: {err}"
    );
    assert!(err.contains("per the repositories' metadata"), "{err}");
    // the list is cached: read again only once it is old; when the repository cannot answer
    // then, the old list is used and said to be old
    let cached = toolchains.join("groovy/releases.json");
    let mut list: Value =
        serde_json::from_str(&std::fs::read_to_string(&cached).expect("the cached list"))
            .expect("JSON");
    list["checked"] = Value::from(0);
    std::fs::write(&cached, list.to_string()).expect("age the list");
    std::fs::remove_file(repo.join("org/apache/groovy/groovy/maven-metadata.xml"))
        .expect("rm metadata");
    let (version, err) = campaign("stale", &url);
    assert_eq!(version, "2.0.0", "{err}");
    assert!(
        err.contains("offline: per the repositories' metadata as read"),
        "the stale list is said: {err}"
    );
    // a list read for other repositories does not count; then the newest installed release
    let (version, err) = campaign("installed", "http://127.0.0.1:9/other/");
    assert_eq!(version, "2.0.0", "{err}");
    assert!(
        err.contains("offline: the newest installed release"),
        "the fallback is said: {err}"
    );
}
