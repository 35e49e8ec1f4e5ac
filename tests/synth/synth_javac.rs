//! `thalia synth` end to end with a real compiler: for each API (the `java.util.*` samples of
//! `tests/fixtures/api-samples/java`, and the embedded default API) and each configuration
//! (well-typed, well-typed `--erase`, ill-typed), synthesize a few hundred programs, compile
//! them all with javac in one batch (see `tests/support/javac.rs`), and check that javac's
//! verdict matches the `expected` verdict of `programs.jsonl` for at least 97 % of them.
//!
//! Run with `cargo test --test synth_javac -- --nocapture` to see the table of rates. Skipped
//! (with a message) if `javac` is not on `PATH`.

use crate::support::javac;
use crate::support::require;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use javac::{compile_batch, javac_available, Verdict};
use serde_json::Value;

/// Programs per cell.
const COUNT: usize = 300;
/// Seed of every cell.
const SEED: &str = "20240917";
/// Minimum share of programs whose javac verdict must match the manifest.
const MIN_RATE: f64 = 0.97;
/// Mismatches shown when a cell fails.
const SHOWN: usize = 10;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An API to synthesize from.
struct ApiSource {
    label: &'static str,
    /// `--api` directory; `None` for the embedded default.
    dir: Option<PathBuf>,
}

/// A synthesis configuration.
#[derive(Clone, Copy)]
struct Config {
    label: &'static str,
    mode: &'static str,
    erase: bool,
}

const CONFIGS: [Config; 3] = [
    Config {
        label: "well-typed",
        mode: "well-typed",
        erase: false,
    },
    Config {
        label: "well-typed --erase",
        mode: "well-typed",
        erase: true,
    },
    Config {
        label: "ill-typed",
        mode: "ill-typed",
        erase: false,
    },
];

/// What one (API, configuration) cell measured.
struct Cell {
    /// The table line.
    line: String,
    /// Why the cell fails, if it does.
    failure: Option<String>,
}

/// Copies the files of the Java samples whose name starts with `java.util.` into `dest`.
fn copy_java_util_samples(dest: &Path) -> usize {
    let src = root().join("tests/fixtures/api-samples/java");
    let mut copied = 0;
    for entry in fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let entry = entry.expect("directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("java.util.") && entry.path().is_file() {
            fs::copy(entry.path(), dest.join(&name)).expect("can copy a sample");
            copied += 1;
        }
    }
    copied
}

/// Runs `thalia synth` for one cell into `out`.
fn synthesize(api: &ApiSource, cfg: Config, out: &Path) {
    let mut cmd = Command::cargo_bin("thalia").expect("the thalia binary");
    cmd.arg("synth");
    if let Some(dir) = &api.dir {
        cmd.arg("--api").arg(dir);
    }
    cmd.args(["--lang", "java", "--mode", cfg.mode]);
    if cfg.erase {
        cmd.arg("--erase");
    }
    cmd.args([
        "-n",
        &COUNT.to_string(),
        "--seed",
        SEED,
        "--jobs",
        "2",
        "--out",
    ])
    .arg(out);
    let output = cmd.output().expect("thalia runs");
    assert!(
        output.status.success(),
        "thalia synth failed for {} / {}:\n{}",
        api.label,
        cfg.label,
        String::from_utf8_lossy(&output.stderr)
    );
}

fn read_manifest(out: &Path) -> Vec<Value> {
    let text = fs::read_to_string(out.join("programs.jsonl")).expect("programs.jsonl exists");
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("programs.jsonl line {}: {e}: {l}", i + 1))
        })
        .collect()
}

fn str_field<'a>(r: &'a Value, key: &str) -> &'a str {
    r[key]
        .as_str()
        .unwrap_or_else(|| panic!("record without string `{key}`: {r}"))
}

/// Checks the output directory against its manifest; returns the problems found.
fn check_manifest(out: &Path, records: &[Value], cfg: Config) -> Vec<String> {
    let mut problems = Vec::new();
    let java_files: BTreeSet<String> = fs::read_dir(out)
        .expect("output dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".java"))
        .collect();
    if records.len() != java_files.len() {
        problems.push(format!(
            "programs.jsonl has {} lines but there are {} .java files",
            records.len(),
            java_files.len()
        ));
    }
    let summary: Value = serde_json::from_str(
        &fs::read_to_string(out.join("summary.json")).expect("summary.json exists"),
    )
    .expect("summary.json is JSON");
    let untranslatable = summary["untranslatable"].as_array().map_or(0, Vec::len);
    if records.len() + untranslatable != COUNT {
        problems.push(format!(
            "{} records + {untranslatable} untranslatable programs, expected {COUNT} programs",
            records.len()
        ));
    }
    let mut ids = BTreeSet::new();
    for r in records {
        let id = str_field(r, "id");
        if !ids.insert(id.to_owned()) {
            problems.push(format!("{id}: duplicate id"));
        }
        let file = str_field(r, "file");
        if !out.join(file).is_file() {
            problems.push(format!("{id}: file {file} does not exist"));
        }
        if str_field(r, "mode") != cfg.mode {
            problems.push(format!("{id}: mode {} in a {} run", r["mode"], cfg.mode));
        }
        let want = if cfg.mode == "ill-typed" {
            "reject"
        } else {
            "accept"
        };
        if str_field(r, "expected") != want {
            problems.push(format!(
                "{id}: expected {} in a {} run",
                r["expected"], cfg.mode
            ));
        }
        match (cfg.mode, r.get("broken")) {
            ("ill-typed", Some(b)) if b.is_object() => {}
            ("ill-typed", b) => problems.push(format!("{id}: ill-typed but broken is {b:?}")),
            (_, Some(Value::Null)) => {}
            (_, b) => problems.push(format!("{id}: well-typed but broken is {b:?}")),
        }
        // without --erase a program is erased only where the swarm leaves its type arguments
        // to inference (`SwarmConfig::inferred_type_args`); javac then judges it as any other
        let swarm_infers = thalia::synth::SwarmConfig::default().inferred_type_args > 0.0;
        if !r["erased"].is_boolean() || (!cfg.erase && !swarm_infers && r["erased"] != false) {
            problems.push(format!("{id}: erased is {} without --erase", r["erased"]));
        }
    }
    problems
}

/// One mismatch, for the failure message.
fn describe_mismatch(out: &Path, r: &Value, verdict: Option<&Verdict>) -> String {
    let mut s = format!(
        "- {} ({}), expected {}\n  member: {}\n  broken: {}\n",
        r["id"].as_str().unwrap_or("?"),
        r["file"].as_str().unwrap_or("?"),
        r["expected"].as_str().unwrap_or("?"),
        r["member"].as_str().unwrap_or("?"),
        r["broken"],
    );
    match verdict {
        Some(Verdict::Rejected { diagnostics }) => {
            s.push_str("  javac rejected it:\n");
            for d in diagnostics {
                for l in d.lines() {
                    let _ = writeln!(s, "    {l}");
                }
            }
        }
        Some(Verdict::Accepted) => {
            s.push_str("  javac accepted it:\n");
            let src =
                fs::read_to_string(out.join(r["file"].as_str().unwrap_or(""))).unwrap_or_default();
            for l in src.lines() {
                let _ = writeln!(s, "    {l}");
            }
        }
        None => s.push_str("  javac gave no verdict for it\n"),
    }
    s
}

fn run_cell(api: &ApiSource, cfg: Config) -> Cell {
    let out_dir = tempfile::Builder::new()
        .prefix("thalia-synth-javac-")
        .tempdir()
        .expect("tempdir");
    let out = out_dir.path();
    synthesize(api, cfg, out);
    let records = read_manifest(out);
    let mut problems = check_manifest(out, &records, cfg);

    let files: Vec<PathBuf> = records
        .iter()
        .map(|r| out.join(str_field(r, "file")))
        .collect();
    let batch = compile_batch(&files, None).expect("javac runs");
    let mut matched = 0;
    let mut mismatches = Vec::new();
    for r in &records {
        let verdict = batch.verdicts.get(str_field(r, "file"));
        let ok = match (str_field(r, "expected"), verdict) {
            ("accept", Some(v)) => v.is_accepted(),
            ("reject", Some(v)) => !v.is_accepted(),
            _ => false,
        };
        if ok {
            matched += 1;
        } else {
            mismatches.push((r, verdict));
        }
    }
    let total = records.len();
    let rate = if total == 0 {
        0.0
    } else {
        matched as f64 / total as f64
    };
    let verb = if cfg.mode == "ill-typed" {
        "rejected"
    } else {
        "accepted"
    };
    let line = format!(
        "{:<18} {:<19} {:>4} programs  {verb} {:>5.1}%  ({} mismatches, {} javac calls)",
        api.label,
        cfg.label,
        total,
        100.0 * rate,
        mismatches.len(),
        batch.javac_calls
    );
    if rate < MIN_RATE {
        let mut msg = format!(
            "{} / {}: javac's verdict matches `expected` for {matched} of {total} programs \
             ({:.1}% < {:.0}%); first mismatches:\n",
            api.label,
            cfg.label,
            100.0 * rate,
            100.0 * MIN_RATE
        );
        for (r, v) in mismatches.iter().take(SHOWN) {
            msg.push_str(&describe_mismatch(out, r, *v));
        }
        problems.push(msg);
    }
    let failure = if problems.is_empty() {
        None
    } else {
        // Keep the programs of a failing cell around for inspection.
        let kept = out_dir.keep();
        Some(format!(
            "{} / {} (output kept in {}):\n{}",
            api.label,
            cfg.label,
            kept.display(),
            problems.join("\n")
        ))
    };
    Cell { line, failure }
}

#[test]
fn synthesized_programs_get_the_expected_javac_verdicts() {
    if !javac_available() {
        require::missing_tool(
            "synthesized_programs_get_the_expected_javac_verdicts",
            "javac not found on PATH",
        );
        return;
    }
    let samples = tempfile::Builder::new()
        .prefix("thalia-java-util-")
        .tempdir()
        .expect("tempdir");
    let copied = copy_java_util_samples(samples.path());
    assert!(copied > 0, "no java.util.* files among the Java samples");
    let apis = [
        ApiSource {
            label: "java.util samples",
            dir: Some(samples.path().to_path_buf()),
        },
        // the embedded java.base needs no classpath; the embedded commons-lang3 is checked
        // against its fetched jar in `tests/online_fetch.rs`
        ApiSource {
            label: "embedded java.base",
            dir: Some(PathBuf::from("@java.base")),
        },
    ];
    let cells: Vec<(&ApiSource, Config)> = apis
        .iter()
        .flat_map(|a| CONFIGS.iter().map(move |c| (a, *c)))
        .collect();
    // The cells are independent; run them side by side (javac is mostly single-threaded).
    let results: Vec<Cell> = std::thread::scope(|s| {
        let handles: Vec<_> = cells
            .iter()
            .map(|(a, c)| s.spawn(move || run_cell(a, *c)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a cell panicked"))
            .collect()
    });

    println!("\njavac verdicts on synthesized programs (seed {SEED}, -n {COUNT}):");
    for cell in &results {
        println!("  {}", cell.line);
    }
    let failures: Vec<&str> = results
        .iter()
        .filter_map(|c| c.failure.as_deref())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cells failed:\n\n{}",
        failures.len(),
        results.len(),
        failures.join("\n\n")
    );
}
