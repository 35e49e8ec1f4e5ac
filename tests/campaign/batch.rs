//! `thalia batch` end to end, offline: libraries built with javac in the test and published on
//! a Maven-layout repository served on 127.0.0.1 (with the JaCoCo jars taken from the local
//! Maven cache: `scripts/test.sh` fetches them), campaigns with the real javac and its coverage
//! measured, a library whose jar is not a jar and one that is not published recorded and
//! skipped, and a batch killed with SIGKILL that resumes to the uninterrupted batch's cells and
//! `coverage.csv`.

use crate::support::fake;
use crate::support::maven_repo;
use crate::support::require;
use crate::support::runs;

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use ::thalia::coverage;
use fake::{real_javac, thalia};
use maven_repo::{have_jdk, pom, publish, serve, ALPHA, BETA};
use serde_json::Value;

/// The library list of the batch: two good libraries, one whose jar is garbage, one missing.
const LIST: &str = "# the test's libraries\n\ng:alpha:1.0\ng:broken:1.0   # its jar is not a jar\n\
                    g:missing:3.0\ng:beta:2.0\n";

/// The JaCoCo jars the batch installs, as repository paths.
const JACOCO: &[&str] = &[
    "org/jacoco/org.jacoco.agent/0.8.15/org.jacoco.agent-0.8.15-runtime.jar",
    "org/jacoco/org.jacoco.cli/0.8.15/org.jacoco.cli-0.8.15-nodeps.jar",
];

/// Copies the JaCoCo jars from the user's Maven cache into `repo`; `false` (after saying why)
/// when they are not there.
fn publish_jacoco(repo: &Path, test: &str) -> bool {
    let Ok(cache) = thalia_extractors::maven::RepoConfig::discover_cache_dir() else {
        require::missing_tool(test, "no Maven cache");
        return false;
    };
    for rel in JACOCO {
        let from = cache.join(rel);
        if !from.is_file() {
            require::missing_tool(
                test,
                &format!(
                    "{} is not in the Maven cache (`thalia fetch org.jacoco:org.jacoco.agent:jar:runtime:0.8.15 org.jacoco:org.jacoco.cli:jar:nodeps:0.8.15 --out DIR` puts it there)",
                    from.display()
                ),
            );
            return false;
        }
        let to = repo.join(rel);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&from, &to).expect("copy");
    }
    true
}

/// The test's world: the repository, its URL, the toolchains, the cache and the list.
struct World {
    root: tempfile::TempDir,
    url: String,
}

impl World {
    /// `None` when the JaCoCo jars are not at hand.
    fn new(test: &str) -> Option<World> {
        let root = tempfile::Builder::new()
            .prefix("thalia-batch-")
            .tempdir()
            .expect("tempdir");
        let repo = root.path().join("repo");
        if !publish_jacoco(&repo, test) {
            return None;
        }
        publish(root.path(), &repo, "alpha", "1.0", ALPHA);
        publish(root.path(), &repo, "beta", "2.0", BETA);
        pom(&repo, "broken", "1.0");
        std::fs::write(
            repo.join("g/broken/1.0/broken-1.0.jar"),
            b"this is not a zip archive\n",
        )
        .expect("write");
        std::fs::write(root.path().join("libs.txt"), LIST).expect("write list");
        let url = serve(repo);
        Some(World { root, url })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// `thalia` with this world's toolchains, cache and no user settings.
    fn command(&self) -> std::process::Command {
        let mut c = Process::new(assert_cmd::cargo::cargo_bin("thalia"));
        c.env("THALIA_TOOLCHAINS", self.path("toolchains"))
            .env("THALIA_MAVEN_CACHE", self.path("cache"))
            .env("THALIA_MAVEN_SETTINGS", self.path("no-settings.xml"))
            .env_remove("THALIA_MAVEN_REPOS");
        c
    }

    /// The `thalia batch` arguments of the test's batch into `out`.
    fn batch_args(&self, out: &Path) -> Vec<String> {
        let mut v: Vec<String> = [
            "batch",
            "--lang",
            "java",
            "--budget-per-lib",
            "12",
            "--batch-size",
            "6",
            "--jobs",
            "1",
            "--seed",
            "5",
            "--coverage",
            "--no-server",
            "--repo",
            &self.url,
            "--libs",
        ]
        .map(String::from)
        .to_vec();
        v.push(self.path("libs.txt").display().to_string());
        v.push("--out".into());
        v.push(out.display().to_string());
        v
    }
}

/// Runs a command to its end, asserting success; returns its stdout.
fn succeed(mut cmd: std::process::Command) -> String {
    let out = cmd.output().expect("thalia runs");
    assert!(
        out.status.success(),
        "exit {:?}\n--- stderr ---\n{}--- stdout ---\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn summary(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary"))
        .expect("JSON")
}

/// Every cell's record (`cell.json`) by `library/mode`.
fn cell_records(summary: &Value) -> Vec<(String, Value)> {
    let mut v = Vec::new();
    for lib in summary["libraries"].as_array().expect("libraries") {
        for c in lib["cells"].as_array().expect("cells") {
            v.push((
                c["dir"].as_str().expect("dir").to_string(),
                c["record"].clone(),
            ));
        }
    }
    v
}

#[test]
fn a_batch_records_failing_libraries_and_resumes_after_sigkill_to_the_same_cells() {
    let test = "a_batch_records_failing_libraries_and_resumes_after_sigkill_to_the_same_cells";
    if !have_jdk(test) {
        return;
    }
    let Some(w) = World::new(test) else {
        return;
    };
    // the javac toolchain first, so that both batches find it
    let mut install = thalia(&w.path("toolchains"));
    install
        .args(["toolchain", "install", "javac"])
        .assert()
        .success();

    let whole = w.path("whole");
    let mut cmd = w.command();
    cmd.args(w.batch_args(&whole));
    let table = succeed(cmd);
    let s = summary(&whole);
    assert_eq!(s["libraries"].as_array().map(Vec::len), Some(4), "{s}");
    assert_eq!(s["libraries_failed"], 2, "{s}");
    assert_eq!(s["cells_done"], 8, "{s}");
    let libs = s["libraries"].as_array().expect("libraries");
    let by = |coord: &str| {
        libs.iter()
            .find(|l| l["coordinate"] == coord)
            .unwrap_or_else(|| panic!("{coord} in {s}"))
    };
    // `--view auto` for Java programs: the Java view of every library
    assert_eq!(s["manifest"]["view"], "auto", "{s}");
    for good in ["g:alpha:1.0", "g:beta:2.0"] {
        let lib = by(good);
        assert_eq!(lib["state"], "done", "{lib}");
        assert_eq!(lib["view"], "java", "{lib}");
        for c in lib["cells"].as_array().expect("cells") {
            assert_eq!(c["state"], "done", "{c}");
            let programs = c["record"]["programs"].as_u64().expect("programs");
            assert!(programs > 0 && programs <= 12, "{c}");
            // a campaign's run directory, resumable by `thalia run`
            let dir = whole.join(c["dir"].as_str().expect("dir"));
            assert_eq!(
                runs::results(&dir).len() as u64,
                programs,
                "{}",
                dir.display()
            );
        }
        let modes: Vec<&str> = lib["cells"]
            .as_array()
            .expect("cells")
            .iter()
            .filter_map(|c| c["mode"].as_str())
            .collect();
        assert_eq!(
            modes,
            [
                "well-typed",
                "well-typed-erased",
                "ill-typed",
                "ill-typed-erased"
            ]
        );
    }
    // coverage: every cell measured on javac's checker, the union at least as large as any
    let filter = "com.sun.tools.javac.comp*";
    assert_eq!(s["manifest"]["coverage"][0], filter, "{s}");
    let mut best = 0;
    for good in ["g:alpha:1.0", "g:beta:2.0"] {
        for c in by(good)["cells"].as_array().expect("cells") {
            let all = &c["record"]["coverage"]["all"];
            let covered = all["lines_covered"].as_u64().expect("covered");
            let total = all["lines_total"].as_u64().expect("total");
            assert!(covered > 100 && covered < total, "{c}");
            assert_eq!(c["record"]["coverage"][filter], *all, "{c}");
            best = best.max(covered);
            let dir = whole.join(c["dir"].as_str().expect("dir"));
            for f in [
                "jacoco.exec",
                "coverage/coverage.csv",
                "coverage/coverage.xml",
            ] {
                assert!(dir.join(f).is_file(), "{}/{f}", dir.display());
            }
            // findings' repro.sh run the compiler without the agent
            let manifest = std::fs::read_to_string(dir.join("manifest.json")).expect("manifest");
            assert!(manifest.contains("\"command\""), "{manifest}");
            assert!(!manifest.contains("javaagent"), "{manifest}");
        }
    }
    // what each mode adds over the library's well-typed cell
    for good in ["g:alpha:1.0", "g:beta:2.0"] {
        let inc = &s["increments"][good];
        for mode in ["well-typed-erased", "ill-typed", "ill-typed-erased"] {
            let v = inc[mode]
                .as_f64()
                .unwrap_or_else(|| panic!("{good} {mode}: {s}"));
            assert!((0.0..100.0).contains(&v), "{good} {mode}: {v}");
        }
    }
    assert!(
        s["increments"]["g:alpha:1.0"]["ill-typed"]
            .as_f64()
            .is_some_and(|v| v > 0.0),
        "ill-typed programs reach lines well-typed ones do not: {s}"
    );
    let union = s["union"]["all"]["all"]["lines_covered"]
        .as_u64()
        .expect("union");
    assert!(union >= best, "{s}");
    let csv = std::fs::read_to_string(whole.join("coverage.csv")).expect("coverage.csv");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "library,mode,filter,lines_covered,lines_total,branches_covered,branches_total"
    );
    // 8 cells and 5 union groups (4 modes and all), each with its filter and `all`
    assert_eq!(rows.len(), 1 + 8 * 2 + 5 * 2, "{csv}");
    assert!(
        csv.contains("g:alpha:1.0,ill-typed-erased,com.sun.tools.javac.comp*,"),
        "{csv}"
    );
    assert!(csv.contains("union,all,all,"), "{csv}");
    let broken = by("g:broken:1.0");
    assert_eq!(broken["state"], "failed");
    assert_eq!(broken["error"]["stage"], "fetch", "{broken}");
    assert!(
        broken["error"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("not a valid jar")),
        "{broken}"
    );
    let missing = by("g:missing:3.0");
    assert_eq!(missing["state"], "failed");
    assert_eq!(missing["error"]["stage"], "fetch", "{missing}");
    assert!(
        missing["error"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("missing")),
        "{missing}"
    );
    for needle in [
        "g:alpha:1.0",
        "ill-typed-erased",
        "g:missing:3.0",
        "failed",
        "over well-typed",
        "union of all libraries",
    ] {
        assert!(table.contains(needle), "{needle} in\n{table}");
    }
    // a failed library's error ends its row and widens no column of the others
    let failed_row = table
        .lines()
        .find(|l| l.contains("g:broken:1.0"))
        .expect("the failed library's row");
    let error_at = failed_row.find("fetch: ").expect("the error in the row");
    assert!(
        failed_row[error_at..].contains("not a valid jar"),
        "{failed_row}"
    );
    let row = table
        .lines()
        .find(|l| l.contains("g:alpha:1.0") && l.contains("ill-typed-erased"))
        .expect("a cell's row");
    assert!(
        !row.contains(&" ".repeat(12)),
        "a column is widened:\n{table}"
    );
    // the page: the table, the findings linked to directories that exist, the plots
    let page = std::fs::read_to_string(whole.join("index.html")).expect("index.html");
    for needle in [
        "id=\"cells\"",
        "id=\"increments\"",
        "id=\"union\"",
        "<svg id=\"coverage-plot\"",
        "<svg id=\"increment-plot\"",
        "<rect class=\"bar\"",
        "<circle class=\"point\"",
        "g:missing:3.0",
    ] {
        assert!(page.contains(needle), "{needle} in the page");
    }
    assert_eq!(
        page.matches("<rect class=\"bar\"").count(),
        8,
        "a bar per cell"
    );
    for href in page.split("href=\"").skip(1) {
        let target = href.split('"').next().expect("quoted");
        assert!(whole.join(target).is_dir(), "the page links {target}");
    }
    // `thalia report BATCH` prints the same table
    let mut report = w.command();
    report.arg("report").arg(&whole);
    let printed = succeed(report);
    assert!(
        printed.contains("g:beta:2.0") && printed.contains("well-typed-erased"),
        "{printed}"
    );

    // killed with SIGKILL in the middle, then resumed
    let cut = w.path("cut");
    let mut child = w
        .command()
        .args(w.batch_args(&cut))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("thalia starts");
    let deadline = Instant::now() + Duration::from_secs(600);
    // once the second cell of alpha has judged programs
    let second = cut.join("g_alpha_1.0/well-typed-erased/results.jsonl");
    while std::fs::read_to_string(&second).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the batch ended before it could be killed"
        );
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let at_kill = summary(&cut);
    assert!(
        at_kill["cells_done"].as_u64().is_some_and(|n| n < 8),
        "killed after the end: {at_kill}"
    );
    let mut resume = w.command();
    resume.args(w.batch_args(&cut));
    succeed(resume);
    let resumed = summary(&cut);
    assert_eq!(cell_records(&resumed), cell_records(&s));
    assert_eq!(resumed["increments"], s["increments"]);
    assert_eq!(resumed["union"], s["union"]);
    assert_eq!(resumed["cells_done"], 8);
    assert_eq!(resumed["libraries_failed"], 2);
    assert_eq!(
        std::fs::read_to_string(cut.join("coverage.csv")).expect("coverage.csv"),
        csv,
        "the resumed batch's coverage"
    );
    for lib in ["g_alpha_1.0", "g_beta_2.0"] {
        for mode in [
            "well-typed",
            "well-typed-erased",
            "ill-typed",
            "ill-typed-erased",
        ] {
            let rel = format!("{lib}/{mode}");
            assert_eq!(
                runs::results(&cut.join(&rel)),
                runs::results(&whole.join(&rel)),
                "{rel}"
            );
        }
    }
    // a different batch in the same directory is refused
    let mut other = w.command();
    let mut args = w.batch_args(&cut);
    let seed = args.iter().position(|a| a == "--seed").expect("seed") + 1;
    args[seed] = "6".into();
    let out = other.args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("different batch"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // and so is another view of the libraries
    let mut other = w.command();
    let out = other
        .args(w.batch_args(&cut))
        .args(["--view", "java"])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("different batch") && err.contains("view"),
        "{err}"
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
fn the_batch_page_renders_in_headless_chromium() {
    let test = "the_batch_page_renders_in_headless_chromium";
    if !have_jdk(test) {
        return;
    }
    let Some(browser) = chromium() else {
        require::missing_tool(test, "chromium not found (Debian package `chromium`)");
        return;
    };
    let Some(w) = World::new(test) else {
        return;
    };
    std::fs::write(
        w.path("libs.txt"),
        "g:alpha:1.0\ng:beta:2.0\ng:missing:3.0\n",
    )
    .expect("list");
    let out = w.path("page");
    let mut cmd = w.command();
    cmd.args(w.batch_args(&out))
        .args(["--mode", "well-typed", "--mode", "ill-typed"]);
    succeed(cmd);
    // `thalia report BATCH --html` rewrites the page from the cells' runs as they are now
    std::fs::remove_file(out.join("index.html")).expect("the batch wrote its page");
    let mut cmd = w.command();
    cmd.arg("report").arg(&out).arg("--html");
    let printed = succeed(cmd);
    assert_eq!(printed.trim(), out.join("index.html").display().to_string());
    let url = format!("file://{}", out.join("index.html").display());
    let profile = w.path("chromium-profile");
    let headless = |extra: &[&str]| {
        let o = Process::new(&browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(&url)
            .output()
            .expect("chromium runs");
        assert!(
            o.status.success(),
            "chromium failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // the DOM as the browser parsed it
    let dom = headless(&["--dump-dom"]);
    let rows = dom.matches("<tr").count();
    // a header, 2 libraries × 2 modes, the missing library; increments and union tables
    assert!(rows >= 6, "{rows} rows in\n{dom}");
    assert!(dom.contains("g:missing:3.0"), "{dom}");
    // the findings section: one row per distinct finding of the cells' runs
    let distinct: usize = summary(&out)["libraries"]
        .as_array()
        .expect("libraries")
        .iter()
        .flat_map(|l| l["cells"].as_array().cloned().unwrap_or_default())
        .map(|c| c["record"]["links"].as_array().map_or(0, Vec::len))
        .sum();
    let section = dom
        .split("<table id=\"findings\">")
        .nth(1)
        .unwrap_or_else(|| panic!("no findings table in\n{dom}"));
    let section = section.split("</table>").next().unwrap_or_default();
    assert_eq!(
        section.matches("<tr class=\"finding\"").count(),
        distinct,
        "{section}"
    );
    for plot in ["coverage-plot", "increment-plot"] {
        let start = dom
            .find(&format!("<svg id=\"{plot}\""))
            .unwrap_or_else(|| panic!("{plot} in\n{dom}"));
        let end = start + dom[start..].find("</svg>").expect("closed");
        let svg = &dom[start..end];
        let marks = svg.matches("<rect class=\"bar\"").count()
            + svg.matches("<circle class=\"point\"").count();
        assert!(marks >= 2, "{plot} has {marks} marks: {svg}");
        for h in svg.split("height=\"").skip(1) {
            let v: f64 = h
                .split('"')
                .next()
                .and_then(|v| v.parse().ok())
                .expect("a height");
            assert!(v > 0.0, "{plot}: a mark of height {v}");
        }
    }
    // the rendered page, as a picture
    let shot = w.path("page.png");
    headless(&[
        &format!("--screenshot={}", shot.display()),
        "--window-size=1200,1600",
        "--hide-scrollbars",
    ]);
    let png = std::fs::read(&shot).expect("the screenshot");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    // a blank page of that size compresses to a few kilobytes
    assert!(
        png.len() > 20_000,
        "the screenshot is nearly blank ({} bytes)",
        png.len()
    );
    if let Ok(keep) = std::env::var("THALIA_KEEP_SCREENSHOT") {
        let _ = std::fs::copy(&shot, keep);
    }
}

#[test]
fn coverage_in_warm_servers_equals_coverage_in_processes() {
    let test = "coverage_in_warm_servers_equals_coverage_in_processes";
    if !have_jdk(test) {
        return;
    }
    let Some(w) = World::new(test) else {
        return;
    };
    std::fs::write(w.path("libs.txt"), "g:alpha:1.0\n").expect("list");
    // `--coverage` compiles in warm servers unless `--no-server` (the world's batches) says
    let args = |out: &Path, server: bool| {
        let mut v = w.batch_args(out);
        v.extend(["--mode", "well-typed", "--mode", "ill-typed"].map(String::from));
        if server {
            v.retain(|a| a != "--no-server");
        }
        v
    };
    // runs a batch to its end; its cells' records and its stderr
    let batch = |name: &str, server: bool| {
        let out = w.path(name);
        let o = w.command().args(args(&out, server)).output().expect("runs");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "exit {:?}\n{err}", o.status.code());
        let s = summary(&out);
        let cells = s["libraries"][0]["cells"]
            .as_array()
            .expect("cells")
            .iter()
            .map(|c| c["record"].clone())
            .collect::<Vec<_>>();
        (cells, err)
    };
    let (process, _) = batch("process", false);
    let (server, log) = batch("server", true);
    assert_eq!(process.len(), 2);
    for c in &server {
        assert!(
            c["coverage"]["all"]["lines_covered"]
                .as_u64()
                .is_some_and(|n| n > 100),
            "{c}"
        );
    }
    // one warm server for the whole batch: started by the first cell, reused by the second,
    // its data dumped and reset after each cell
    let starts: Vec<Value> = server.iter().map(|c| c["server_starts"].clone()).collect();
    assert_eq!(starts, [1, 0], "{server:?}");
    assert!(log.contains("compile servers started: 1 "), "{log}");
    assert!(
        coverage::exec_files(&w.path("server").join("g_alpha_1.0/ill-typed"))
            .iter()
            .all(|f| f.file_name().is_some_and(|n| n != "jacoco.exec")),
        "the server's data is dumped, not written by the agent"
    );
    // every server's start-up data (the warm-up program compiled before its first request)
    // is copied into every cell the server served
    for mode in ["well-typed", "ill-typed"] {
        let files = coverage::exec_files(&w.path("server").join("g_alpha_1.0").join(mode));
        assert!(
            files.iter().any(|f| f
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("jacoco-startup-"))),
            "{mode}: {files:?}"
        );
    }
    // the first cell: the same lines and branches as a fresh JVM per invocation
    assert_eq!(server[0]["coverage"], process[0]["coverage"]);
    // a later cell runs in a JVM that ran the earlier cells: the code a JVM runs once is
    // counted through the server's start-up data (without it javac's ill-typed cell showed
    // 136 of 3,845 lines less). What remains is first-use code the warm-up does not reach
    // (counted in the cell that ran it first) and the warm-up's own first-use code that a
    // cell would not run (javac's flow analysis in an all-ill-typed cell): measured +6 lines,
    // the same branches, with the library's own API; -29 of 5,054 lines (0.6 %) once the
    // platform's API is the library's context (richer programs reach more first-use code
    // the earlier cell ran); within 1 % of process mode in every cell
    let count = |c: &Value, what: &str| {
        c["coverage"]["all"][what]
            .as_u64()
            .unwrap_or_else(|| panic!("{what} in {c}"))
    };
    for (i, (s, p)) in server.iter().zip(&process).enumerate() {
        for what in ["lines_covered", "branches_covered"] {
            let (s, p) = (count(s, what), count(p, what));
            assert!(
                s.abs_diff(p) * 100 <= p,
                "cell {i}: {what} {s} in a warm server, {p} in processes"
            );
        }
    }
}

/// The running JDK's javac as a toolchain with `jvm_options`, and the arguments that compile a
/// small class `A` in `dir` into `dir/out`.
fn javac_and_a_class(
    dir: &Path,
    jvm_options: Vec<String>,
) -> (::thalia::toolchain::Toolchain, Vec<String>) {
    let tc = ::thalia::toolchain::Toolchain {
        tool: ::thalia::toolchain::Tool::Javac,
        version: "jdk".into(),
        classpath: Vec::new(),
        runtime: Vec::new(),
        main_class: "com.sun.tools.javac.Main".into(),
        java: real_javac(),
        coordinate: None,
        jvm_options,
    };
    let src = dir.join("A.java");
    std::fs::write(&src, "class A {\n    int f() { return 1; }\n}\n").expect("write");
    let args: Vec<String> = vec![
        "-d".into(),
        dir.join("out").display().to_string(),
        src.display().to_string(),
    ];
    (tc, args)
}

#[test]
fn a_restarted_warm_server_records_its_own_start_up_data() {
    use ::thalia::server::{CompileServer, ServerOptions};
    let test = "a_restarted_warm_server_records_its_own_start_up_data";
    if !have_jdk(test) {
        return;
    }
    let Ok(cache) = thalia_extractors::maven::RepoConfig::discover_cache_dir() else {
        require::missing_tool(test, "no Maven cache");
        return;
    };
    let (agent, cli) = (cache.join(JACOCO[0]), cache.join(JACOCO[1]));
    if !agent.is_file() {
        require::missing_tool(
            test,
            &format!("{} is not in the Maven cache", agent.display()),
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let jacoco = coverage::Jacoco { agent, cli };
    let filters = ["com.sun.tools.javac.comp*".to_string()];
    let (tc, args) = javac_and_a_class(
        tmp.path(),
        vec![coverage::server_agent_option(&jacoco, &filters)],
    );
    let (startup, cell, next) = (
        tmp.path().join("startup"),
        tmp.path().join("cell"),
        tmp.path().join("next"),
    );
    for d in [&startup, &cell, &next] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    // retired after two requests (the warm-up's not counted): the third goes to a new process
    let options = ServerOptions {
        max_batches: 2,
        ..ServerOptions::default()
    };
    let mut server = CompileServer::start_full(&tc, options, Some(&startup)).expect("starts");
    for _ in 0..3 {
        let r = server
            .compile(&args, Duration::from_secs(120))
            .expect("compiles");
        assert_eq!(r.exit, 0, "{}", r.output);
    }
    assert_eq!(server.starts(), 2);
    // each process's start-up data: javac's checker classes it ran once
    let names = |dir: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let kept = names(&startup);
    assert_eq!(kept.len(), 2, "{kept:?}");
    for f in &kept {
        assert!(f.starts_with("startup-") && f.ends_with(".exec"), "{f}");
        let bytes = std::fs::read(startup.join(f)).expect("read");
        let needle = b"com/sun/tools/javac/comp/";
        assert!(
            bytes.windows(needle.len()).any(|w| w == needle),
            "{f}: no checker class"
        );
    }
    // a dump copies the start-up data of both processes beside the cell's data ...
    server
        .dump_coverage(&cell.join("jacoco-cell.exec"))
        .expect("dumps");
    let copied: Vec<String> = kept.iter().map(|f| format!("jacoco-{f}")).collect();
    let mut want = copied.clone();
    want.push("jacoco-cell.exec".into());
    want.sort();
    assert_eq!(names(&cell), want);
    // ... and the next one the running process's alone
    let r = server
        .compile(&args, Duration::from_secs(120))
        .expect("compiles");
    assert_eq!(r.exit, 0, "{}", r.output);
    server
        .dump_coverage(&next.join("jacoco-next.exec"))
        .expect("dumps");
    assert_eq!(server.starts(), 2, "the dumps count as no request");
    let mut want = vec![copied[1].clone(), "jacoco-next.exec".to_string()];
    want.sort();
    assert_eq!(names(&next), want);
}

/// A warm server is retired by the heap it keeps alive, not by one request's garbage: with a
/// ceiling of 0 MiB it serves a whole window of requests (each leaves some heap in use, which
/// retired it after its first request before), and the first request after the window goes
/// to a fresh process.
#[test]
fn a_warm_server_is_retired_by_its_least_heap_over_a_window_not_one_request() {
    use ::thalia::server::{CompileServer, ServerOptions, HEAP_WINDOW};
    let test = "a_warm_server_is_retired_by_its_least_heap_over_a_window_not_one_request";
    if !have_jdk(test) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (tc, args) = javac_and_a_class(tmp.path(), Vec::new());
    let options = ServerOptions {
        max_heap_mb: 0,
        ..ServerOptions::default()
    };
    let mut server = CompileServer::start_with(&tc, options).expect("starts");
    let mut pids = Vec::new();
    for _ in 0..=HEAP_WINDOW {
        let r = server
            .compile(&args, Duration::from_secs(120))
            .expect("compiles");
        assert_eq!(r.exit, 0, "{}", r.output);
        pids.push(server.pid().expect("running"));
    }
    assert!(
        pids[..HEAP_WINDOW].iter().all(|p| *p == pids[0]),
        "retired within the window: {pids:?}"
    );
    assert_ne!(pids[HEAP_WINDOW], pids[0], "not retired after the window");
    assert_eq!(server.starts(), 2);
}

/// A server's heap ceiling follows its JVM's maximum heap: with `-Xmx256m` (a small machine's
/// default heap) the configured 2 GiB cannot be reached, so the ceiling is the share of the
/// heap the server reports, and a server keeping more than that alive would be retired.
#[test]
fn a_warm_servers_heap_ceiling_is_a_share_of_its_jvms_maximum_heap() {
    use ::thalia::server::{CompileServer, ServerOptions, MAX_HEAP_SHARE_PERCENT};
    let test = "a_warm_servers_heap_ceiling_is_a_share_of_its_jvms_maximum_heap";
    if !have_jdk(test) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (tc, args) = javac_and_a_class(tmp.path(), vec!["-Xmx256m".into()]);
    let mut server = CompileServer::start_with(&tc, ServerOptions::default()).expect("starts");
    assert_eq!(server.heap_ceiling_mb(), None, "no answer yet");
    let r = server
        .compile(&args, Duration::from_secs(120))
        .expect("compiles");
    assert_eq!(r.exit, 0, "{}", r.output);
    let ceiling = server
        .heap_ceiling_mb()
        .expect("the server reports its heap");
    // Runtime.maxMemory() may be a little below -Xmx (a survivor space)
    let most = 256 * MAX_HEAP_SHARE_PERCENT / 100;
    assert!(
        ceiling <= most && ceiling >= most * 9 / 10,
        "ceiling {ceiling} MiB for a 256 MiB heap"
    );
    // a big heap keeps the configured ceiling
    let (tc, args) = javac_and_a_class(tmp.path(), vec!["-Xmx8g".into()]);
    let mut server = CompileServer::start_with(&tc, ServerOptions::default()).expect("starts");
    let r = server
        .compile(&args, Duration::from_secs(120))
        .expect("compiles");
    assert_eq!(r.exit, 0, "{}", r.output);
    assert_eq!(
        server.heap_ceiling_mb(),
        Some(ServerOptions::default().max_heap_mb)
    );
}

/// `thalia batch --run`: every cell runs the programs javac accepts in the sandbox (each has
/// a run outcome in its results), the setting is recorded in `batch.json` and every cell's
/// identity, and a resume without `--run` is refused, naming it.
#[test]
fn a_batch_with_run_runs_each_cells_accepted_programs_and_keeps_the_setting() {
    let test = "a_batch_with_run_runs_each_cells_accepted_programs_and_keeps_the_setting";
    if !have_jdk(test) {
        return;
    }
    if !require::have_sandbox(test) {
        return;
    }
    let Some(w) = World::new(test) else {
        return;
    };
    std::fs::write(w.path("two.txt"), "g:alpha:1.0\ng:beta:2.0\n").expect("write list");
    let out = w.path("run");
    let args = |run: bool| {
        let mut v: Vec<String> = [
            "batch",
            "--lang",
            "java",
            "--mode",
            "well-typed",
            "--budget-per-lib",
            "8",
            "--batch-size",
            "8",
            "--jobs",
            "1",
            "--seed",
            "5",
            "--no-server",
            "--no-recheck",
            "--repo",
            &w.url,
            "--libs",
        ]
        .map(String::from)
        .to_vec();
        v.push(w.path("two.txt").display().to_string());
        v.push("--out".into());
        v.push(out.display().to_string());
        if run {
            v.push("--run".into());
        }
        v
    };
    let mut cmd = w.command();
    cmd.args(args(true));
    succeed(cmd);
    let s = summary(&out);
    assert_eq!(s["manifest"]["run"], true, "{s}");
    assert_eq!(s["cells_done"], 2, "{s}");
    for lib in ["g_alpha_1.0", "g_beta_2.0"] {
        let cell = out.join(lib).join("well-typed");
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(cell.join("manifest.json")).expect("manifest"),
        )
        .expect("manifest JSON");
        assert_eq!(manifest["identity"]["run"], true, "{manifest}");
        let results = fake::lines(&cell.join("results.jsonl"));
        let accepted: Vec<&Value> = results
            .iter()
            .filter(|r| r["verdict"] == "accepted")
            .collect();
        assert!(!accepted.is_empty(), "{lib}: {results:?}");
        for r in accepted {
            assert!(
                r["run"]["program"]["outcome"].is_string(),
                "{lib}: an accepted program without a run outcome: {r}"
            );
        }
    }
    // the same batch without `--run` is another batch
    let o = w.command().args(args(false)).output().expect("thalia runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("--run"), "{err}");
}
