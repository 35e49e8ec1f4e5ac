//! Findings a compiler team can file, offline: a Maven-layout repository on 127.0.0.1
//! publishes a fake groovyc in several releases (a Java class compiled by the test whose
//! verdicts depend on its release), a campaign with an old release makes two findings, and the
//! recheck at its end must say that one is still open on the newest release (and no longer in
//! the newest pre-release) and that the other is fixed since the exact release a binary
//! search finds. `report.md` and `thalia report --format` hold no local path; the findings page
//! lists the open finding first and renders in headless chromium; offline, the recheck says
//! it could not check.

use crate::support::{fake, maven_repo, require};

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use fake::{real_javac, sample_api, thalia};
use serde_json::Value;

/// The releases published, and the bugs each has: `odd` rejects the programs whose id ends in
/// an odd digit, `even` the others.
const RELEASES: [(&str, &str); 7] = [
    ("1.0.0", "odd,even"),
    ("1.2.0", "odd,even"),
    ("1.3.0", "odd,even"),
    ("2.0.0", "odd,even"),
    ("2.1.0", "odd"),
    ("2.2.0", "odd"),
    ("3.0.0-rc-1", ""),
];

/// The fake compiler: groovyc's main class, rejecting `.groovy` files by the bugs its jar's
/// `thalia-fake-bugs.txt` lists.
const FAKE_GROOVYC: &str = r#"package org.codehaus.groovy.tools;
public class FileSystemCompiler {
    public static void main(String[] args) throws Exception {
        java.io.InputStream in = FileSystemCompiler.class.getResourceAsStream("/thalia-fake-bugs.txt");
        String bugs = "," + new String(in.readAllBytes(), "UTF-8").trim() + ",";
        int rc = 0;
        for (String a : args) {
            if (!a.endsWith(".groovy")) continue;
            char last = a.charAt(a.length() - ".groovy".length() - 1);
            boolean odd = "13579".indexOf(last) >= 0;
            String bug = odd ? "odd" : "even";
            if (bugs.contains("," + bug + ",")) {
                System.out.println("file://" + a + ": 5: [Static type checking] - " + bug + "-bug rejection @ line 5, column 9.");
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
    build_repository_of(root, FAKE_GROOVYC)
}

/// [`build_repository`] with `compiler` as the fake's source.
fn build_repository_of(root: &Path, compiler: &str) -> PathBuf {
    let src = root.join("src/org/codehaus/groovy/tools");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("FileSystemCompiler.java"), compiler).expect("write");
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
    for (version, bugs) in RELEASES {
        std::fs::write(classes.join("thalia-fake-bugs.txt"), bugs).expect("write");
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
             <artifactId>groovy</artifactId>\n  <versioning>\n    <release>2.2.0</release>\n    \
             <versions>\n{versions}    </versions>\n  </versioning>\n</metadata>\n"
        ),
    )
    .expect("write metadata");
    repo
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

/// The finding directories of a folder of a run.
fn dirs(run: &Path, folder: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(run.join(folder))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.join("finding.json").is_file())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A campaign of ten well-typed groovy programs with the fake groovy 1.3.0 from the
/// repository at `url`, into `run`; returns thalia's standard output.
fn campaign(root: &Path, url: &str, run: &Path) -> String {
    campaign_with(root, url, run, &[])
}

/// [`campaign`] with `extra` arguments (`--run`).
fn campaign_with(root: &Path, url: &str, run: &Path, extra: &[&str]) -> String {
    let out = isolated(root)
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
            "--no-reduce",
            "-j",
            "1",
            "--repo",
            url,
            "--api",
        ])
        .arg(sample_api())
        .args(extra)
        .arg("--out")
        .arg(run)
        .output()
        .expect("thalia runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned() + "\n" + &String::from_utf8_lossy(&out.stderr)
}

/// The finding (of `bugs/`) of the fake's `bug` (`odd` or `even`).
fn finding_of(run: &Path, bug: &str) -> (PathBuf, Value) {
    dirs(run, "bugs")
        .into_iter()
        .map(|d| {
            let f = read_json(&d.join("finding.json"));
            (d, f)
        })
        .find(|(_, f)| {
            f["signature_text"]
                .as_str()
                .is_some_and(|t| t.contains(&format!("{bug}-bug rejection")))
        })
        .unwrap_or_else(|| panic!("no {bug} finding in {}", run.display()))
}

/// Every absolute path a report could leak: the test's directories, the user's home, the
/// temporary directory, `file:` URLs.
fn assert_no_local_path(text: &str, root: &Path, what: &str) {
    let mut needles = vec![
        root.display().to_string(),
        "file:/".to_string(),
        std::env::temp_dir().display().to_string(),
    ];
    if let Some(home) = std::env::var_os("HOME") {
        let home = PathBuf::from(home).display().to_string();
        if home.len() > 1 {
            needles.push(home);
        }
    }
    for n in needles {
        assert!(!text.contains(&n), "{what} holds `{n}`:\n{text}");
    }
    // no word starts with `/` followed by a path (a URL's `//` is not one)
    for w in text.split(|c: char| c.is_whitespace() || "`'\"(".contains(c)) {
        assert!(
            !(w.starts_with('/') && w.len() > 1 && !w.starts_with("//") && w[1..].contains('/')),
            "{what} holds the absolute path `{w}`:\n{text}"
        );
    }
}

#[test]
fn the_recheck_says_which_findings_are_open_on_the_newest_release_and_since_when_the_others_are_fixed(
) {
    let test = "the_recheck_says_which_findings_are_open_on_the_newest_release_and_since_when_the_others_are_fixed";
    if !maven_repo::have_jdk(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let url = maven_repo::serve(build_repository(root.path()));
    let run = root.path().join("run");
    let output = campaign(root.path(), &url, &run);
    assert!(
        output.contains("newest releases: 1 of 2 finding(s) still open on groovy 2.2.0"),
        "{output}"
    );
    // the open one: 2.2.0 (the newest release) still rejects odd programs, the release
    // candidate of 3.0.0 no longer does
    let (odd_dir, odd) = finding_of(&run, "odd");
    let s = &odd["status"];
    assert_eq!(s["state"], "open", "{odd}");
    assert_eq!(s["newest"], "2.2.0", "{odd}");
    assert_eq!(s["newest_pre_release"], "3.0.0-rc-1", "{odd}");
    assert_eq!(s["fixed_in"], Value::Null, "{odd}");
    let check = |f: &Value, v: &str| {
        f["status"]["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["version"] == v)
            .cloned()
            .unwrap_or(Value::Null)
    };
    assert_eq!(check(&odd, "2.2.0")["shows"], true, "{odd}");
    assert_eq!(check(&odd, "3.0.0-rc-1")["shows"], false, "{odd}");
    assert_eq!(check(&odd, "3.0.0-rc-1")["pre_release"], true, "{odd}");
    // the fixed one: first fixed in 2.1.0, found between 1.3.0 and 2.2.0
    let (even_dir, even) = finding_of(&run, "even");
    let s = &even["status"];
    assert_eq!(s["state"], "fixed", "{even}");
    assert_eq!(s["fixed_in"], "2.1.0", "{even}");
    assert_eq!(s["last_affected"], "2.0.0", "{even}");
    for (v, shows) in [("2.0.0", true), ("2.1.0", false), ("2.2.0", false)] {
        assert_eq!(check(&even, v)["shows"], shows, "{v}: {even}");
    }
    // a binary search: releases before the finding's are never compiled
    assert_eq!(check(&even, "1.0.0"), Value::Null, "{even}");
    // the table: open first, then fixed, with their statuses
    let table = isolated(root.path())
        .arg("report")
        .arg(&run)
        .output()
        .expect("report runs");
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let open_at = table.find("[open]").unwrap_or_else(|| panic!("{table}"));
    let fixed_at = table
        .find("[fixed since 2.1.0]")
        .unwrap_or_else(|| panic!("{table}"));
    assert!(open_at < fixed_at, "open first:\n{table}");
    assert!(
        table.contains("on the newest release: 1 open, 1 fixed since, 0 not checked"),
        "{table}"
    );
    assert!(table.contains("where: bugs/ 2 distinct"), "{table}");
    // the reports say so, and hold no local path
    for (dir, words) in [
        (
            &odd_dir,
            "open: groovy 2.2.0 still shows it, 3.0.0-rc-1 no longer does",
        ),
        (&even_dir, "fixed since groovy 2.1.0 (last affected: 2.0.0)"),
    ] {
        let md = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
        assert!(md.contains(words), "{md}");
        assert!(md.starts_with("# A well-typed call of `"), "{md}");
        assert!(md.contains("is rejected in groovyc 1.3.0: "), "{md}");
        assert!(md.contains("## Environment"), "{md}");
        assert!(md.contains("- **Status:** "), "{md}");
        assert!(md.contains("Command: `groovyc "), "{md}");
        assert!(md.contains("JDK: "), "{md}");
        assert!(md.contains("Dependencies: none (the JDK alone)"), "{md}");
        assert_no_local_path(&md, root.path(), "report.md");
    }
    // paste-ready reports: markdown and JIRA, open first, no local path
    for (format, heading) in [("markdown", "# "), ("jira", "h1. ")] {
        let out = isolated(root.path())
            .arg("report")
            .arg(&run)
            .args(["--format", format])
            .output()
            .expect("report runs");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(
            text.matches(&format!("\n{heading}")).count() + 1,
            2,
            "{text}"
        );
        assert!(text.starts_with(heading), "{text}");
        let first_open = text.find("odd-bug rejection").expect("the open finding");
        let first_fixed = text.find("even-bug rejection").expect("the fixed finding");
        assert!(first_open < first_fixed, "open first:\n{text}");
        if format == "jira" {
            assert!(
                text.contains("{code:groovy}") && text.contains("h2. Environment"),
                "{text}"
            );
        }
        assert_no_local_path(&text, root.path(), format);
    }

    // offline: a repository nobody answers, no list read from it before
    let out = isolated(root.path())
        .arg("report")
        .arg(&run)
        .args(["--recheck", "--repo", "http://127.0.0.1:9/"])
        .output()
        .expect("report runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not check"), "{err}");
    // the status of the last check stays, with a note that this one could not be made
    let (_, odd) = finding_of(&run, "odd");
    assert_eq!(odd["status"]["state"], "open", "{odd}");
    assert!(
        odd["status"]["note"]
            .as_str()
            .is_some_and(|n| n.contains("releases cannot be listed")),
        "{odd}"
    );
}

/// The chromium (Debian's package) on the PATH, if any.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        let out = Process::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .ok()?;
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (!p.is_empty()).then(|| PathBuf::from(p))
    })
}

/// Needs Debian's `chromium` (`scripts/test.sh` installs it with apt-get when missing).
#[test]
fn the_findings_page_lists_open_findings_first_and_renders_in_headless_chromium() {
    let test = "the_findings_page_lists_open_findings_first_and_renders_in_headless_chromium";
    if !maven_repo::have_jdk(test) {
        return;
    }
    let Some(browser) = chromium() else {
        require::missing_tool(test, "chromium not found (Debian package `chromium`)");
        return;
    };
    let root = tempfile::tempdir().expect("tempdir");
    let url = maven_repo::serve(build_repository(root.path()));
    let run = root.path().join("run");
    campaign(root.path(), &url, &run);
    let out = isolated(root.path())
        .arg("report")
        .arg(&run)
        .arg("--html")
        .output()
        .expect("report runs");
    assert!(out.status.success());
    let page = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert_eq!(page, run.join("findings.html"));
    let profile = root.path().join("chromium-profile");
    let o = Process::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let dom = String::from_utf8_lossy(&o.stdout);
    let rows: Vec<&str> = dom.split("<tr class=\"finding ").skip(1).collect();
    assert_eq!(rows.len(), 2, "{dom}");
    assert!(rows[0].starts_with("open"), "the open finding first: {dom}");
    assert!(rows[1].starts_with("fixed"), "{dom}");
    assert!(rows[1].contains("fixed since 2.1.0"), "{dom}");
    assert!(
        rows[1].contains("groovy 1.3.0 … 2.0.0; fixed in 2.1.0"),
        "{dom}"
    );
    for r in &rows {
        assert!(r.contains("class Test_p"), "the program is shown: {r}");
        assert!(r.contains("report.md"), "{r}");
        assert!(r.contains(">new<"), "no known label: {r}");
    }
}

/// A fake groovyc that accepts every `.groovy` file and compiles it (through the JDK's javac)
/// into a class whose `test()` throws a linkage error for each bug its release lists:
/// `NoSuchMethodError` (`odd`: programs whose id ends in an odd digit), `AbstractMethodError`
/// (`even`), and returns otherwise: miscompilations that only running shows.
const FAKE_LINKING_GROOVYC: &str = r#"package org.codehaus.groovy.tools;
import java.nio.file.*;
import java.util.*;
public class FileSystemCompiler {
    public static void main(String[] args) throws Exception {
        java.io.InputStream in = FileSystemCompiler.class.getResourceAsStream("/thalia-fake-bugs.txt");
        String bugs = "," + new String(in.readAllBytes(), "UTF-8").trim() + ",";
        String out = null;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("-d=")) out = a.substring(3);
            else if (a.equals("-d") && i + 1 < args.length) out = args[++i];
            else if (a.endsWith(".groovy")) files.add(a);
        }
        if (files.isEmpty() || out == null) System.exit(0);
        Path gen = Files.createTempDirectory("fake-groovyc");
        List<String> javac = new ArrayList<>(List.of("-d", out));
        for (String a : files) {
            String name = Paths.get(a).getFileName().toString();
            String stem = name.substring(0, name.length() - ".groovy".length());
            String pkg = "";
            for (String line : Files.readString(Paths.get(a)).split("\n")) {
                line = line.trim();
                if (line.startsWith("package ")) { pkg = line.substring(8).replace(";", "").trim(); break; }
            }
            boolean odd = "13579".indexOf(stem.charAt(stem.length() - 1)) >= 0;
            String bug = odd ? "odd" : "even";
            String error = odd ? "NoSuchMethodError" : "AbstractMethodError";
            String body = bugs.contains("," + bug + ",") ? "throw new " + error + "(\"" + bug + "\");" : "";
            Path j = gen.resolve(stem + ".java");
            Files.writeString(j, (pkg.isEmpty() ? "" : "package " + pkg + ";\n")
                + "public class " + stem + " { public static void test() { " + body + " } }\n");
            javac.add(j.toString());
        }
        System.exit(javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, javac.toArray(new String[0])));
    }
}
"#;

use require::have_sandbox;

#[test]
fn the_recheck_runs_the_programs_of_run_findings_on_the_newer_releases() {
    let test = "the_recheck_runs_the_programs_of_run_findings_on_the_newer_releases";
    if !maven_repo::have_jdk(test) || !have_sandbox(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let url = maven_repo::serve(build_repository_of(root.path(), FAKE_LINKING_GROOVYC));
    let run = root.path().join("run");
    let output = campaign_with(root.path(), &url, &run, &["--run"]);
    // every release accepts the programs: only their runs tell the releases apart
    assert!(
        output.contains("newest releases: 1 of 2 finding(s) still open on groovy 2.2.0"),
        "{output}"
    );
    let of = |error: &str| -> Value {
        dirs(&run, "bugs")
            .into_iter()
            .map(|d| read_json(&d.join("finding.json")))
            .find(|f| {
                f["kind"] == "miscompilation"
                    && f["signature_text"]
                        .as_str()
                        .is_some_and(|t| t.contains(error))
            })
            .unwrap_or_else(|| panic!("no {error} finding in {}", run.display()))
    };
    let check = |f: &Value, v: &str| {
        f["status"]["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["version"] == v)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let odd = of("NoSuchMethodError");
    assert_eq!(odd["status"]["state"], "open", "{odd}");
    let newest = check(&odd, "2.2.0");
    assert_eq!(newest["verdict"], "accepted", "{odd}");
    assert_eq!(newest["shows"], true, "{odd}");
    assert_eq!(newest["same_signature"], true, "{odd}");
    assert!(
        newest["diagnostic"]
            .as_str()
            .is_some_and(|d| d.contains("ran: java.lang.NoSuchMethodError")),
        "{odd}"
    );
    assert_eq!(check(&odd, "3.0.0-rc-1")["shows"], false, "{odd}");
    let even = of("AbstractMethodError");
    assert_eq!(even["status"]["state"], "fixed", "{even}");
    assert_eq!(even["status"]["fixed_in"], "2.1.0", "{even}");
    assert_eq!(even["status"]["last_affected"], "2.0.0", "{even}");
}

#[test]
fn a_release_found_missing_is_not_asked_for_again_through_a_prefix() {
    let test = "a_release_found_missing_is_not_asked_for_again_through_a_prefix";
    if !maven_repo::have_jdk(test) {
        return;
    }
    let root = tempfile::tempdir().expect("tempdir");
    let repo = build_repository(root.path());
    // 2.3.0 is listed by the metadata, but its POM and jar are not published
    let metadata = repo.join("org/apache/groovy/groovy/maven-metadata.xml");
    let text = std::fs::read_to_string(&metadata).expect("metadata");
    let text = text.replace(
        "      <version>3.0.0-rc-1</version>",
        "      <version>2.3.0</version>\n      <version>3.0.0-rc-1</version>",
    );
    std::fs::write(&metadata, text).expect("write metadata");
    let url = maven_repo::serve(repo);
    let install = |spec: &str| {
        let out = isolated(root.path())
            .args([
                "run",
                "--lang",
                "groovy",
                "--mode",
                "well-typed",
                "--budget",
                "1",
            ])
            .args([
                "--no-twin",
                "--no-reduce",
                "-j",
                "1",
                "--repo",
                &url,
                "--compiler",
                spec,
            ])
            .arg("--api")
            .arg(sample_api())
            .arg("--out")
            .arg(root.path().join("run"))
            .output()
            .expect("thalia runs");
        assert!(!out.status.success(), "2.3.0 cannot be installed");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let first = install("groovy@2");
    assert!(first.contains("not found in any repository"), "{first}");
    // picked again by the prefix: refused at once, saying why and how to retry
    let second = install("groovy@2");
    assert!(
        second.contains("groovy@2.3.0 could not be installed")
            && second.contains("not asked again for 24 hours")
            && !second.contains("installing groovy@2.3.0"),
        "{second}"
    );
    // named exactly, it is asked for again
    let exact = install("groovy@2.3.0");
    assert!(
        exact.contains("installing groovy@2.3.0") && exact.contains("not found in any repository"),
        "{exact}"
    );
}
