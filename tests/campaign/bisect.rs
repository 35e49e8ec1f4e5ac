//! `thalia bisect` offline: a Maven-layout repository on 127.0.0.1 publishes a fake groovyc in
//! several releases (a Java class compiled by the test whose verdict depends on its release), a
//! campaign with one release makes a finding, and bisection must name the exact release that
//! introduced it and the one that fixed it, with and without pre-releases.

use crate::support::fake;

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use fake::{real_javac, sample_api, thalia};
use serde_json::Value;

/// The releases published, and whether each has the bug (it rejects every program).
const RELEASES: [(&str, bool); 8] = [
    ("1.0.0", false),
    ("1.1.0", false),
    ("1.2.0-rc-1", true),
    ("1.2.0", true),
    ("1.3.0", true),
    ("2.0.0", true),
    ("2.1.0", false),
    ("3.0.0", false),
];

/// The fake compiler: groovyc's main class, rejecting every `.groovy` file when its jar's
/// `thalia-fake-bug.txt` says `true`.
const FAKE_GROOVYC: &str = r#"package org.codehaus.groovy.tools;
public class FileSystemCompiler {
    public static void main(String[] args) throws Exception {
        java.io.InputStream in = FileSystemCompiler.class.getResourceAsStream("/thalia-fake-bug.txt");
        boolean bug = new String(in.readAllBytes(), "UTF-8").trim().equals("true");
        int rc = 0;
        for (String a : args) {
            if (bug && a.endsWith(".groovy")) {
                System.out.println("file://" + a + ": 5: [Static type checking] - injected rejection @ line 5, column 9.");
                rc = 1;
            }
        }
        System.exit(rc);
    }
}
"#;

/// A JDK tool beside javac.
fn jdk_tool(name: &str) -> PathBuf {
    real_javac().parent().expect("javac's directory").join(name)
}

/// Writes the repository: one jar and POM per release, and `maven-metadata.xml`.
fn build_repository(root: &Path) -> PathBuf {
    let src = root.join("src/org/codehaus/groovy/tools");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("FileSystemCompiler.java"), FAKE_GROOVYC).expect("write");
    let classes = root.join("classes");
    let ok = Process::new(real_javac())
        .arg("-d")
        .arg(&classes)
        .arg(src.join("FileSystemCompiler.java"))
        .status()
        .expect("javac runs");
    assert!(ok.success());
    let repo = root.join("repo");
    let dir = repo.join("org/apache/groovy/groovy");
    for (version, bug) in RELEASES {
        std::fs::write(classes.join("thalia-fake-bug.txt"), bug.to_string()).expect("write");
        let vdir = dir.join(version);
        std::fs::create_dir_all(&vdir).expect("mkdir");
        let ok = Process::new(jdk_tool("jar"))
            .arg("--create")
            .arg("--file")
            .arg(vdir.join(format!("groovy-{version}.jar")))
            .arg("-C")
            .arg(&classes)
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
    let versions: String = RELEASES
        .iter()
        .map(|(v, _)| format!("      <version>{v}</version>\n"))
        .collect();
    std::fs::write(
        dir.join("maven-metadata.xml"),
        format!(
            "<?xml version=\"1.0\"?>\n<metadata>\n  <groupId>org.apache.groovy</groupId>\n  \
             <artifactId>groovy</artifactId>\n  <versioning>\n    <release>3.0.0</release>\n    \
             <versions>\n{versions}    </versions>\n  </versioning>\n</metadata>\n"
        ),
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
            let response = if rel.split('/').any(|c| c == "..") || !path.is_file() {
                rq.respond(tiny_http::Response::empty(404))
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                rq.respond(tiny_http::Response::from_data(bytes))
            };
            let _ = response;
        }
    });
    url
}

/// `thalia` with its own toolchains, Maven cache, and no user settings.
fn isolated(root: &Path) -> assert_cmd::Command {
    let mut c = thalia(&root.join("toolchains"));
    c.env("THALIA_MAVEN_CACHE", root.join("cache"))
        .env("THALIA_MAVEN_SETTINGS", root.join("no-settings.xml"))
        .env_remove("THALIA_MAVEN_REPOS");
    c
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON")
}

#[test]
fn bisection_names_the_releases_that_introduced_and_fixed_a_finding() {
    let root = tempfile::tempdir().expect("tempdir");
    let url = serve(build_repository(root.path()));
    let run = root.path().join("run");
    isolated(root.path())
        .args([
            "run",
            "--lang",
            "groovy",
            "--mode",
            "well-typed",
            "--seed",
            "1",
            "--budget",
            "10",
            "--compiler",
            "groovy@1.3.0",
            "--no-twin",
            "-j",
            "1",
            "--repo",
            &url,
            "--api",
        ])
        .arg(sample_api())
        .arg("--out")
        .arg(&run)
        .assert()
        .success();
    let bugs: Vec<PathBuf> = std::fs::read_dir(run.join("bugs"))
        .expect("bugs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("finding.json").is_file())
        .collect();
    assert_eq!(bugs.len(), 1, "one signature: {bugs:?}");
    let bug = &bugs[0];

    // stable releases only
    isolated(root.path())
        .arg("bisect")
        .arg(bug)
        .args(["--repo", &url])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "introduced in 1.2.0 (not in 1.1.0); fixed in 2.1.0",
        ));
    let b = read_json(&bug.join("bisect.json"));
    assert_eq!(b["introduced"], "1.2.0", "{b}");
    assert_eq!(b["last_clean"], "1.1.0", "{b}");
    assert_eq!(b["fixed"], "2.1.0", "{b}");
    assert_eq!(b["last_affected"], "2.0.0", "{b}");
    let probed: Vec<&str> = b["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .map(|p| p["version"].as_str().expect("version"))
        .collect();
    // a binary search: neither end of the list was needed, and no pre-release was tried
    assert!(
        !probed.contains(&"1.0.0") && !probed.contains(&"3.0.0"),
        "{probed:?}"
    );
    assert!(!probed.contains(&"1.2.0-rc-1"), "{probed:?}");
    for p in b["probes"].as_array().expect("probes") {
        let buggy = RELEASES
            .iter()
            .find(|(v, _)| p["version"] == *v)
            .expect("a published release")
            .1;
        assert_eq!(p["shows"], buggy, "every verdict recorded: {p}");
    }
    let report = std::fs::read_to_string(bug.join("report.md")).expect("report.md");
    assert!(
        report.contains("## Affected releases") && report.contains("fixed in 2.1.0"),
        "{report}"
    );

    // pre-releases: the release candidate already had it
    isolated(root.path())
        .arg("bisect")
        .arg(bug)
        .args(["--repo", &url, "--pre-releases"])
        .assert()
        .success();
    let b = read_json(&bug.join("bisect.json"));
    assert_eq!(b["introduced"], "1.2.0-rc-1", "{b}");
    assert_eq!(b["last_clean"], "1.1.0", "{b}");
    assert_eq!(b["fixed"], "2.1.0", "{b}");
    let report = std::fs::read_to_string(bug.join("report.md")).expect("report.md");
    assert_eq!(
        report.matches("## Affected releases").count(),
        1,
        "{report}"
    );
    assert!(report.contains("1.2.0-rc-1"), "{report}");

    // bounds: from 1.2.0 on, the oldest release tested already has it
    isolated(root.path())
        .arg("bisect")
        .arg(bug)
        .args(["--repo", &url, "--from", "1.2.0", "--to", "2.0.0"])
        .assert()
        .success();
    let b = read_json(&bug.join("bisect.json"));
    assert_eq!(b["introduced"], "1.2.0", "{b}");
    assert_eq!(b["last_clean"], Value::Null, "{b}");
    assert_eq!(b["fixed"], Value::Null, "{b}");
    assert_eq!(b["last_affected"], "2.0.0", "{b}");
}

#[test]
fn a_directory_without_a_finding_is_a_clear_error() {
    let root = tempfile::tempdir().expect("tempdir");
    isolated(root.path())
        .arg("bisect")
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("finding.json"));
}
