//! The Slurm recipe of `docs/cluster.md` on a real Slurm (issue #18's real engine): the
//! test reads the recipe's three blocks from the doc (the fenced `bash` block after each of
//! the markers `<!-- slurm:prepare -->`, `<!-- slurm:sbatch -->` and `<!-- slurm:submit -->`,
//! so the doc and the test cannot drift), and runs them as they are written with the recipe's
//! variables pointing at a temporary shared directory and a small javac campaign: the
//! preparation fills the shared caches (it asks Maven Central through the user's Maven
//! configuration, hence `online_*`), the submission puts the job array of four shards and the
//! merge job that depends on it into Slurm, and the merged run must equal the same campaign
//! run on this machine unsharded, program by program (ids, verdicts, finding signatures and
//! counts).
//!
//! Slurm comes from `scripts/slurm-setup.sh` (a single node on this machine; `scripts/test.sh`
//! runs it): without a Slurm that answers, the test skips, or fails under
//! `THALIA_REQUIRE_TOOLS=1`. Slurm hands the submitting environment to the jobs, so they see
//! the test build's `thalia` (first on `PATH`), `javac` and the recipe's variables.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::require;
use crate::support::runs;

use runs::{finding_counts, results};

/// The recipe, as the user reads it.
const CLUSTER_DOC: &str = include_str!("../../docs/cluster.md");

/// The campaign: javac over the embedded API, seed 7, 40 programs.
const COMPILER: &str = "javac";
const SYNTH_LANG: &str = "java";
const SEED: &str = "7";
const BUDGET: &str = "40";
/// The array's tasks (the recipe's `--array=0-3`).
const SHARDS: usize = 4;
/// How long the jobs may take, queueing included (on two cores the four tasks run one after
/// another, 15-20 s each).
const JOBS_TIMEOUT: Duration = Duration::from_secs(300);

/// The fenced `bash` block that follows `<!-- slurm:NAME -->` in `docs/cluster.md`.
fn doc_block(name: &str) -> String {
    let marker = format!("<!-- slurm:{name} -->");
    let after = CLUSTER_DOC
        .split_once(&marker)
        .unwrap_or_else(|| panic!("docs/cluster.md has no {marker}"))
        .1;
    let body = after
        .trim_start()
        .strip_prefix("```bash\n")
        .unwrap_or_else(|| panic!("{marker} is not followed by a ```bash block"));
    let end = body
        .find("\n```")
        .unwrap_or_else(|| panic!("the block after {marker} is not closed"));
    body[..end + 1].to_string()
}

/// Why Slurm cannot run jobs here, or `None` when a node is up.
fn slurm_missing() -> Option<String> {
    match Command::new("sinfo").args(["-h", "-o", "%t"]).output() {
        Err(e) => Some(format!("sinfo cannot run ({e}): Slurm is not installed")),
        Ok(o) if !o.status.success() => Some(format!(
            "sinfo fails: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => {
            let states = String::from_utf8_lossy(&o.stdout).to_string();
            let up = states.lines().any(|s| {
                ["idle", "mix", "alloc", "comp"]
                    .iter()
                    .any(|u| s.trim().starts_with(u))
            });
            (!up).then(|| format!("no Slurm node is up (sinfo: {})", states.trim()))
        }
    }
}

/// True when javac is on PATH.
fn have_javac() -> bool {
    Command::new("sh")
        .args(["-c", "command -v javac"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The recipe's environment: the test build's `thalia` first on `PATH`, the shared
/// directory, the campaign's directory and its settings.
fn recipe_env(cmd: &mut Command, shared: &Path, campaign: &Path) {
    let thalia = assert_cmd::cargo::cargo_bin("thalia");
    let bin = thalia.parent().expect("the binary's directory");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    cmd.env("PATH", std::env::join_paths(dirs).expect("a PATH"))
        .env("SHARED", shared)
        .env("CAMPAIGN", campaign)
        .env("COMPILER", COMPILER)
        .env("SYNTH_LANG", SYNTH_LANG)
        .env("SEED", SEED)
        .env("BUDGET", BUDGET)
        .env_remove("THALIA_TOOLCHAINS")
        .env_remove("THALIA_MAVEN_CACHE")
        .env_remove("THALIA_MAVEN_REPOS");
}

/// Runs `script` with bash (`-e`, as a user pasting it into a shell that stops at an
/// error) in `dir`; returns its stdout, failing with its output otherwise.
fn run_block(what: &str, script: &Path, dir: &Path, shared: &Path, campaign: &Path) -> String {
    let mut cmd = Command::new("bash");
    cmd.arg("-e").arg(script).current_dir(dir);
    recipe_env(&mut cmd, shared, campaign);
    let o = cmd.output().expect("bash runs");
    assert!(
        o.status.success(),
        "the {what} block of docs/cluster.md failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every `*.log` in `dir` (the jobs' outputs), for a failure's message.
fn logs(dir: &Path) -> String {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    names.retain(|p| p.extension().is_some_and(|e| e == "log"));
    names.sort();
    names
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!("== {}\n{}\n", p.display(), tail.join("\n"))
        })
        .collect()
}

/// The states of a job's tasks as `scontrol show job` gives them (empty once Slurm has
/// forgotten the job).
fn job_states(id: &str) -> Vec<String> {
    let o = Command::new("scontrol")
        .args(["show", "job", id])
        .output()
        .expect("scontrol runs");
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("JobState="))
        .map(str::to_string)
        .collect()
}

/// Waits until none of `ids` is queued or running; cancels them and fails past the timeout.
fn wait_for(ids: &[&str], work: &Path) {
    let start = Instant::now();
    let list = ids.join(",");
    loop {
        let o = Command::new("squeue")
            .args(["-h", "-o", "%i %T %r", "-j", &list])
            .output()
            .expect("squeue runs");
        let queued = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if queued.is_empty() {
            return;
        }
        if queued.contains("DependencyNeverSatisfied") || start.elapsed() > JOBS_TIMEOUT {
            let _ = Command::new("scancel").args(ids).status();
            panic!(
                "the jobs did not finish after {:?}:\n{queued}\n{}",
                start.elapsed(),
                logs(work)
            );
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

#[test]
fn the_slurm_recipe_merged_equals_the_unsharded_run() {
    let test = "the_slurm_recipe_merged_equals_the_unsharded_run";
    // the blocks are read first: a doc without them fails wherever the test runs
    let prepare = doc_block("prepare");
    let sbatch = doc_block("sbatch");
    let submit = doc_block("submit");
    if let Some(why) = slurm_missing() {
        require::missing_tool(
            test,
            &format!("{why} (scripts/slurm-setup.sh sets up a single-node Slurm)"),
        );
        return;
    }
    if !have_javac() {
        require::missing_tool(test, "javac not found on PATH");
        return;
    }
    let started = Instant::now();
    let root = tempfile::tempdir().expect("tempdir");
    let shared = root.path().join("shared");
    let campaign = shared.join("runs/javac-seed7");
    let work = root.path().join("work");
    std::fs::create_dir_all(&work).expect("mkdir");
    for (name, text) in [
        ("prepare.sh", &prepare),
        ("thalia-shard.sbatch", &sbatch),
        ("submit.sh", &submit),
    ] {
        std::fs::write(work.join(name), text).expect("write the block");
    }

    // once, with network: the shared caches
    run_block(
        "prepare",
        &work.join("prepare.sh"),
        &work,
        &shared,
        &campaign,
    );
    let prepared = started.elapsed();

    // the array and the merge, submitted as the doc writes it
    let out = run_block("submit", &work.join("submit.sh"), &work, &shared, &campaign);
    let ids: Vec<&str> = out
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .collect();
    assert_eq!(ids.len(), 2, "the submission prints the two job ids: {out}");
    let (array, merge) = (ids[0], ids[1]);

    // meanwhile, the same campaign on this machine, unsharded (the flags of the script)
    let whole = root.path().join("whole");
    let mut single = Command::new(assert_cmd::cargo::cargo_bin("thalia"));
    single
        .args(["run", "--lang", SYNTH_LANG, "--compiler", COMPILER])
        .args([
            "--seed", SEED, "--budget", BUDGET, "--server", "--jobs", "1",
        ])
        .arg("--out")
        .arg(&whole)
        .env("THALIA_TOOLCHAINS", shared.join("toolchains"))
        .env("THALIA_MAVEN_CACHE", shared.join("maven"))
        .env("THALIA_MAVEN_REPOS", shared.join("maven"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let single = single.spawn().expect("thalia starts");

    wait_for(&[array, merge], &work);
    let jobs_done = started.elapsed();
    let o = single.wait_with_output().expect("the single run ends");
    assert!(
        o.status.success(),
        "the unsharded run failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    // every task and the merge completed (while Slurm remembers them)
    for id in [array, merge] {
        let states = job_states(id);
        assert!(
            states.iter().all(|s| s == "COMPLETED"),
            "job {id}: {states:?}\n{}",
            logs(&work)
        );
    }
    let merged = campaign.join("merged");
    assert!(
        merged.join("manifest.json").exists(),
        "no merged run in {}:\n{}",
        merged.display(),
        logs(&work)
    );
    // each task ran its own shard, taking the index from Slurm
    for i in 0..SHARDS {
        let dir = campaign.join(format!("shard-{i}"));
        let m: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("manifest.json")).expect("a shard's manifest"),
        )
        .expect("JSON");
        assert_eq!(
            m["identity"]["shard"]["index"],
            i as u64,
            "{}",
            dir.display()
        );
        assert_eq!(m["identity"]["shard"]["count"], SHARDS as u64);
        assert!(!results(&dir).is_empty(), "shard {i} did nothing");
    }
    let m: Value = serde_json::from_str(
        &std::fs::read_to_string(merged.join("manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    assert_eq!(
        m["merged"].as_array().map(Vec::len),
        Some(SHARDS),
        "the merge's parts: {m}"
    );
    // the merge job's report
    let merge_log = std::fs::read_to_string(work.join(format!("thalia-merge-{merge}.log")))
        .expect("the merge job's log");
    assert!(
        merge_log.contains(&format!("merged from {SHARDS} part(s)")),
        "{merge_log}"
    );

    // the merged run is the single-machine run
    let expected = results(&whole);
    assert_eq!(expected.len(), BUDGET.parse::<usize>().expect("a count"));
    assert_eq!(results(&merged), expected, "program by program");
    assert_eq!(finding_counts(&merged), finding_counts(&whole));
    eprintln!(
        "slurm recipe: caches prepared in {:.1?}, jobs done after {:.1?}, all in {:.1?}; {} programs, {} distinct findings",
        prepared,
        jobs_done,
        started.elapsed(),
        expected.len(),
        finding_counts(&whole).len()
    );
}
