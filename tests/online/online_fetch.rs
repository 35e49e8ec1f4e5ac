//! `thalia fetch` against the real central repository.
//!
//! These tests need network access to Maven Central through the user's Maven configuration:
//! they run a plain `thalia fetch org.apache.commons:commons-lang3:3.12.0` with no `--repo`, so
//! the resolver uses the mirrors and repositories of `~/.m2/settings.xml` and of the Maven
//! installation's `conf/settings.xml`, and the central repository that the installed Maven
//! declares in its super-POM (no repository URL is written here). Only the cache is redirected,
//! to a temporary directory per test, through `THALIA_MAVEN_CACHE`. They run in CI; every test
//! is named `online_...`, so `cargo test online_` selects them and `cargo test -- --skip online_`
//! leaves them out.
//!
//! The facts about the commons-lang3 3.12.0 jar asserted below were checked by hand with
//! `javap -cp commons-lang3-3.12.0.jar ...` (and the checksum with `sha1sum`); the class count
//! and the `removeAll` overloads are also cross-checked with `javap` at run time when it is on
//! `PATH`. Programs are compiled with the javac batch harness of `tests/support/javac.rs`; run
//! with `cargo test --test online_fetch -- --nocapture` to see the rates and timings.

use crate::support::javac;
use crate::support::require;

use std::fs;
use std::path::{Path, PathBuf};
use std::process;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use javac::{compile_batch, javac_available, Verdict};
use serde_json::Value;

const COORD: &str = "org.apache.commons:commons-lang3:3.12.0";
/// Minimum share of programs whose javac verdict must match the manifest.
const MIN_RATE: f64 = 0.97;
/// Programs per synthesis cell.
const COUNT: usize = 300;
/// SHA-1 of `commons-lang3-3.12.0.jar` (checked with `sha1sum`).
const JAR_SHA1: &str = "c6842c86792ff03b9f1d1fe2aab8dc23aa6c6f0e";
/// Public classes of the jar: `javap -public` on its 345 class files shows 223 public classes
/// (top-level and nested), and the extractor writes one file for each.
const PUBLIC_CLASSES: usize = 223;

/// What one `thalia` run did.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
}

impl Run {
    fn ok(&self) -> bool {
        self.code == Some(0)
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?} after {:.2}s\n--- stderr ---\n{}--- stdout ---\n{}",
            self.code, self.seconds, self.stderr, self.stdout
        )
    }
}

fn run(mut cmd: Command) -> Run {
    let t0 = Instant::now();
    let out = cmd
        .timeout(Duration::from_secs(900))
        .output()
        .expect("thalia runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        seconds: t0.elapsed().as_secs_f64(),
    }
}

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// A temporary cache and output directory.
struct Work {
    dir: tempfile::TempDir,
}

impl Work {
    fn new() -> Work {
        Work {
            dir: tempfile::Builder::new()
                .prefix("thalia-online-fetch-")
                .tempdir()
                .expect("tempdir"),
        }
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `thalia fetch COORD --out OUT` with this cache and nothing else changed.
    fn fetch(&self, coord: &str, out: &Path) -> Run {
        let mut cmd = thalia();
        cmd.env("THALIA_MAVEN_CACHE", self.cache())
            .arg("fetch")
            .arg(coord)
            .arg("--out")
            .arg(out);
        let r = run(cmd);
        assert!(r.ok(), "thalia fetch {coord}: {r}");
        r
    }
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("not a string: {s}"))
                .to_string()
        })
        .collect()
}

/// The API JSON files of a directory (without `fetch.json`), sorted.
fn api_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && n != "fetch.json")
        .collect();
    v.sort();
    v
}

/// The one jar of `classpath.txt` (commons-lang3 has no compile or runtime dependencies).
fn the_jar(dir: &Path) -> PathBuf {
    let text = fs::read_to_string(dir.join("classpath.txt")).expect("classpath.txt");
    assert_eq!(text.lines().count(), 1, "{text}");
    let entries: Vec<&str> = text
        .trim_end()
        .split(if cfg!(windows) { ';' } else { ':' })
        .collect();
    assert_eq!(entries.len(), 1, "classpath.txt: {text}");
    PathBuf::from(entries[0])
}

/// `javap` output for some classes of a jar, or `None` without javap.
fn javap(jar: &Path, args: &[&str]) -> Option<String> {
    let out = process::Command::new("javap")
        .arg("-J-Duser.language=en")
        .arg("-cp")
        .arg(jar)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The class names in a jar, from `jar tf`, or `None` without the tool.
fn jar_classes(jar: &Path) -> Option<Vec<String>> {
    let out = process::Command::new("jar")
        .arg("tf")
        .arg(jar)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.ends_with(".class") && !l.ends_with("module-info.class"))
            .map(|l| l.trim_end_matches(".class").replace('/', "."))
            .collect(),
    )
}

/// The public `removeAll` overloads as `javap` prints them (checked by hand):
/// `public static <ret> removeAll(<params>);`, as (type parameters, parameters, return type).
const REMOVE_ALL: &[(&[&str], &[&str], &str)] = &[
    (&[], &["boolean[]", "int..."], "boolean[]"),
    (&[], &["byte[]", "int..."], "byte[]"),
    (&[], &["char[]", "int..."], "char[]"),
    (&[], &["double[]", "int..."], "double[]"),
    (&[], &["float[]", "int..."], "float[]"),
    (&[], &["int[]", "int..."], "int[]"),
    (&[], &["long[]", "int..."], "long[]"),
    (&[], &["short[]", "int..."], "short[]"),
    (&["T"], &["T[]", "int..."], "T[]"),
];

#[test]
fn online_fetch_commons_lang3_extracts_the_api_javap_shows() {
    let w = Work::new();
    let out = w.path("api");
    let r = w.fetch(COORD, &out);

    // fetch.json: what was asked, what was resolved, where the jar is and its checksum.
    let f = read_json(&out.join("fetch.json"));
    assert_eq!(strings(&f["requested"]), [COORD]);
    assert_eq!(strings(&f["resolved"]), [COORD]);
    assert_eq!(
        f["cache"].as_str(),
        Some(w.cache().to_str().expect("utf-8"))
    );
    let repos = strings(&f["repositories"]);
    assert!(!repos.is_empty(), "no repository recorded: {f}");
    let arts = f["artifacts"].as_array().expect("artifacts");
    assert_eq!(arts.len(), 1, "commons-lang3 has no dependencies: {f}");
    let a = &arts[0];
    assert_eq!(a["coordinate"], COORD);
    assert_eq!(a["depth"], 0);
    assert_eq!(a["sha1"], JAR_SHA1);
    assert!(
        repos.iter().any(|r| a["repository"] == r.as_str()),
        "the jar came from {} (repositories: {repos:?})",
        a["repository"]
    );
    let jar = the_jar(&out);
    assert_eq!(a["jar"].as_str().map(PathBuf::from), Some(jar.clone()));
    let want_jar = w
        .cache()
        .join("org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar");
    assert_eq!(jar, want_jar, "Maven layout in the cache");
    assert!(jar.is_file());
    assert!(
        want_jar.with_extension("pom").is_file(),
        "the POM is cached"
    );
    assert_eq!(f["problems"].as_array().map(Vec::len), Some(0), "{f}");

    // Class count: one file per public class, in a sane range and as javap counts them.
    let files = api_files(&out);
    assert_eq!(f["classes"].as_u64(), Some(files.len() as u64));
    assert!(
        (150..=300).contains(&files.len()),
        "{} classes extracted",
        files.len()
    );
    assert_eq!(files.len(), PUBLIC_CLASSES, "public classes of the jar");
    if let Some(classes) = jar_classes(&jar) {
        let mut args = vec!["-public"];
        args.extend(classes.iter().map(String::as_str));
        if let Some(text) = javap(&jar, &args) {
            let public = text
                .lines()
                .filter(|l| {
                    l.starts_with("public ")
                        && [" class ", " interface ", " enum "]
                            .iter()
                            .any(|k| l.contains(k))
                })
                .count();
            assert_eq!(public, PUBLIC_CLASSES, "javap -public counts {public}");
        }
    }

    // ArrayUtils.removeAll: exactly the public overloads, with exact type strings.
    let au = read_json(&out.join("org.apache.commons.lang3.ArrayUtils.json"));
    let mut got: Vec<(Vec<String>, Vec<String>, String)> = au["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .filter(|m| m["name"] == "removeAll")
        .map(|m| {
            assert_eq!(m["is_static"], true, "{m}");
            assert_eq!(m["access_mod"], "public", "{m}");
            assert_eq!(m["is_varargs"], true, "{m}");
            (
                strings(&m["type_parameters"]),
                strings(&m["parameters"]),
                m["return_type"].as_str().expect("return type").to_string(),
            )
        })
        .collect();
    got.sort();
    let mut want: Vec<(Vec<String>, Vec<String>, String)> = REMOVE_ALL
        .iter()
        .map(|(tp, ps, ret)| {
            (
                tp.iter().map(|s| s.to_string()).collect(),
                ps.iter().map(|s| s.to_string()).collect(),
                ret.to_string(),
            )
        })
        .collect();
    want.sort();
    assert_eq!(
        got, want,
        "ArrayUtils.removeAll (the package-private (Object, int...) and (Object, BitSet) \
         overloads must not be there)"
    );
    if let Some(text) = javap(&jar, &["org.apache.commons.lang3.ArrayUtils"]) {
        let mut lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("public static") && l.contains(" removeAll("))
            .collect();
        lines.sort();
        let mut expected: Vec<String> = REMOVE_ALL
            .iter()
            .map(|(tp, ps, ret)| {
                let tps = if tp.is_empty() {
                    String::new()
                } else {
                    format!("<{}> ", tp.join(", "))
                };
                format!("public static {tps}{ret} removeAll({});", ps.join(", "))
            })
            .collect();
        expected.sort();
        assert_eq!(lines, expected, "javap's public removeAll overloads");
    }

    // Pair<L, R>: type parameters, supertypes, kind.
    let pair = read_json(&out.join("org.apache.commons.lang3.tuple.Pair.json"));
    assert_eq!(strings(&pair["type_parameters"]), ["L", "R"]);
    assert_eq!(
        strings(&pair["implements"]),
        [
            "java.util.Map.Entry<L,R>",
            "java.lang.Comparable<org.apache.commons.lang3.tuple.Pair<L,R>>",
            "java.io.Serializable",
        ]
    );
    assert_eq!(strings(&pair["inherits"]), ["java.lang.Object"]);
    assert_eq!(pair["class_type"], 2, "Pair is abstract");
    let of: Vec<Vec<String>> = pair["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .filter(|m| m["name"] == "of")
        .map(|m| strings(&m["parameters"]))
        .collect();
    assert!(
        of.contains(&vec!["L".to_string(), "R".to_string()]),
        "{of:?}"
    );
    assert!(
        of.contains(&vec!["java.util.Map.Entry<L,R>".to_string()]),
        "{of:?}"
    );

    // The fetched API has the classes of the embedded corpus of the same version.
    let embedded = Path::new(env!("CARGO_MANIFEST_DIR")).join("api-json/commons-lang3-3.12.0");
    if embedded.is_dir() {
        assert_eq!(
            files,
            api_files(&embedded),
            "fetched vs embedded class files"
        );
    }

    let resolve = f["resolve_seconds"].as_f64().unwrap_or(f64::NAN);
    let extract = f["extract_seconds"].as_f64().unwrap_or(f64::NAN);
    println!(
        "online fetch {COORD}: {:.2}s in all (resolve+download {resolve:.2}s, extract {extract:.2}s), \
         {} classes, from {}",
        r.seconds,
        files.len(),
        repos.join(", ")
    );
}

/// Numeric parts of a version (`3.17.0` → `[3, 17, 0]`; a qualifier ends it).
fn numeric(version: &str) -> Vec<u64> {
    version
        .split(['.', '-'])
        .map_while(|p| p.parse::<u64>().ok())
        .collect()
}

#[test]
fn online_fetch_without_a_version_takes_the_latest_release() {
    assert!(numeric("3.12.0") < numeric("3.17.0"));
    assert!(numeric("3.9") < numeric("3.12.0"));
    let w = Work::new();
    let out = w.path("latest");
    let r = w.fetch("org.apache.commons:commons-lang3", &out);
    let f = read_json(&out.join("fetch.json"));
    assert_eq!(
        strings(&f["requested"]),
        ["org.apache.commons:commons-lang3"]
    );
    let resolved = strings(&f["resolved"]);
    assert_eq!(resolved.len(), 1, "{f}");
    let version = resolved[0]
        .strip_prefix("org.apache.commons:commons-lang3:")
        .unwrap_or_else(|| panic!("resolved {}", resolved[0]));
    let v = numeric(version);
    assert!(
        v.len() >= 2 && v >= numeric("3.12.0"),
        "latest release {version} < 3.12.0"
    );
    assert!(
        !version.contains("SNAPSHOT") && !version.contains('-'),
        "the latest release is a release: {version}"
    );
    let jar = &f["artifacts"][0]["jar"];
    assert!(
        jar.as_str()
            .is_some_and(|j| j.ends_with(&format!("commons-lang3-{version}.jar"))),
        "{jar}"
    );
    assert!(!api_files(&out).is_empty());
    println!(
        "online fetch org.apache.commons:commons-lang3 (no version): resolved {version} in {:.2}s",
        r.seconds
    );
}

/// One synthesis + javac cell.
struct Cell {
    line: String,
    failure: Option<String>,
}

fn run_cell(label: &str, api: &Path, mode: &str, classpath: &str) -> Cell {
    let out_dir = tempfile::Builder::new()
        .prefix("thalia-online-synth-")
        .tempdir()
        .expect("tempdir");
    let out = out_dir.path();
    let mut cmd = thalia();
    cmd.arg("synth")
        .arg("--api")
        .arg(api)
        .args([
            "--lang",
            "java",
            "--mode",
            mode,
            "-n",
            &COUNT.to_string(),
            "--seed",
            "1",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(out);
    let synth = run(cmd);
    assert!(
        synth.ok(),
        "thalia synth --api {label} --mode {mode}: {synth}"
    );
    let records: Vec<Value> = fs::read_to_string(out.join("programs.jsonl"))
        .expect("programs.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let files: Vec<PathBuf> = records
        .iter()
        .map(|r| out.join(r["file"].as_str().expect("file")))
        .collect();
    let t = Instant::now();
    let batch = compile_batch(&files, Some(classpath)).expect("javac runs");
    let javac_seconds = t.elapsed().as_secs_f64();
    let mut matched = 0;
    let mut mismatches = String::new();
    let mut shown = 0;
    for r in &records {
        let verdict = batch.verdicts.get(r["file"].as_str().unwrap_or(""));
        let ok = match (r["expected"].as_str(), verdict) {
            (Some("accept"), Some(v)) => v.is_accepted(),
            (Some("reject"), Some(v)) => !v.is_accepted(),
            _ => false,
        };
        if ok {
            matched += 1;
        } else if shown < 10 {
            shown += 1;
            let why = match verdict {
                Some(Verdict::Rejected { diagnostics }) => diagnostics.join("\n    "),
                Some(Verdict::Accepted) => "javac accepted it".into(),
                None => "no verdict".into(),
            };
            mismatches.push_str(&format!(
                "- {} ({}), expected {}: {}\n    {why}\n",
                r["id"], r["member"], r["expected"], r["file"]
            ));
        }
    }
    let total = records.len();
    let rate = if total == 0 {
        0.0
    } else {
        matched as f64 / total as f64
    };
    let verb = if mode == "ill-typed" {
        "rejected"
    } else {
        "accepted"
    };
    let line = format!(
        "{label:<24} {mode:<10} {total:>4} programs  {verb} {:>5.1}%  ({} mismatches; synth \
         {:.1}s, javac {javac_seconds:.1}s in {} calls)",
        100.0 * rate,
        total - matched,
        synth.seconds,
        batch.javac_calls
    );
    let failure = if total < COUNT * 9 / 10 || rate < MIN_RATE {
        let kept = out_dir.keep();
        Some(format!(
            "{label} / {mode}: {matched} of {total} programs as expected ({:.1}%; need {:.0}% of \
             about {COUNT}); output kept in {}\n{mismatches}",
            100.0 * rate,
            100.0 * MIN_RATE,
            kept.display()
        ))
    } else {
        None
    };
    Cell { line, failure }
}

#[test]
fn online_synthesized_programs_compile_against_the_fetched_classpath() {
    if !javac_available() {
        require::missing_tool(
            "online_synthesized_programs_compile_against_the_fetched_classpath",
            "javac not found on PATH",
        );
        return;
    }
    let w = Work::new();
    let out = w.path("api");
    w.fetch(COORD, &out);
    let classpath = fs::read_to_string(out.join("classpath.txt")).expect("classpath.txt");
    let classpath = classpath.trim_end().to_string();

    let embedded = PathBuf::from("@commons-lang3-3.12.0");
    let cells: Vec<(&str, &Path, &str)> = vec![
        ("fetched commons-lang3", out.as_path(), "well-typed"),
        ("fetched commons-lang3", out.as_path(), "ill-typed"),
        ("@commons-lang3-3.12.0", embedded.as_path(), "well-typed"),
        ("@commons-lang3-3.12.0", embedded.as_path(), "ill-typed"),
    ];
    let t0 = Instant::now();
    let results: Vec<Cell> = std::thread::scope(|s| {
        let handles: Vec<_> = cells
            .iter()
            .map(|(label, api, mode)| {
                let cp = classpath.as_str();
                s.spawn(move || run_cell(label, api, mode, cp))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a cell panicked"))
            .collect()
    });
    println!(
        "\njavac -cp <fetched classpath.txt> on synthesized programs (seed 1, -n {COUNT}), {:.1}s:",
        t0.elapsed().as_secs_f64()
    );
    for c in &results {
        println!("  {}", c.line);
    }
    let failures: Vec<&str> = results
        .iter()
        .filter_map(|c| c.failure.as_deref())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
