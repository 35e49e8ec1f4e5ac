//! Sharded campaigns end to end (`thalia run --shard I/N`, `thalia merge`), with the real
//! javac: four shards of a small campaign, run as four processes at once, merged, equal the
//! unsharded run program by program (ids, verdicts, finding signatures and their counts);
//! no shard compiles another's programs; a merge of two campaigns, of one shard twice, or
//! over a directory that is not a merge is refused; a merge rerun gives the same bytes.
//!
//! The compiler is a `javac` toolchain that crashes on two chosen programs (one file name in
//! two shards, in both modes) and runs the real javac otherwise, so that one finding is hit
//! in several shards and must come out of the merge once, with its count summed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::fake;
use crate::support::require;
use crate::support::runs;

use fake::{install_script, lines, real_javac, sample_api, thalia};
use runs::{finding_counts, results};

const SHARDS: u64 = 4;
const BUDGET: &str = "40";

struct Fixture {
    root: PathBuf,
    toolchains: PathBuf,
}

/// True when javac is on PATH (otherwise the test skips or, in CI, fails).
fn have_javac(test: &str) -> bool {
    let ok = std::process::Command::new("sh")
        .args(["-c", "command -v javac"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        require::missing_tool(test, "javac not found on PATH");
    }
    ok
}

/// The toolchains: `javac@crash`, which crashes on programs p000002 and p000003.
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let root = tempfile::tempdir().expect("tempdir").keep();
        let toolchains = root.join("toolchains");
        install_script(
            &toolchains,
            "javac",
            "crash",
            "com.sun.tools.javac.Main",
            &format!(
                "#!/bin/sh\nfor a in \"$@\"; do\n  case \"$a\" in\n    */Test_p000002.java|*/Test_p000003.java)\n      echo 'An exception has occurred in the compiler (17). Please file a bug.'\n      echo 'java.lang.IllegalStateException: injected fault'\n      echo '\tat com.sun.tools.javac.comp.Attr.visitApply(Attr.java:2500)'\n      exit 4;;\n  esac\ndone\nexec '{}' \"$@\"\n",
                real_javac().display()
            ),
        );
        Fixture { root, toolchains }
    })
}

/// `thalia run` arguments of the campaign with `seed` into `out`, plus `extra` (a
/// `--budget` there replaces the campaign's). Without the feedback: the shards of a campaign
/// draw without it (a shard does not see the others' findings), so the unsharded run they
/// add up to does too.
fn run_args(out: &Path, seed: &str, extra: &[&str]) -> Vec<String> {
    let budget = extra
        .iter()
        .position(|a| *a == "--budget")
        .and_then(|i| extra.get(i + 1))
        .copied()
        .unwrap_or(BUDGET);
    let extra: Vec<&str> = match extra.iter().position(|a| *a == "--budget") {
        Some(i) => extra[..i].iter().chain(&extra[i + 2..]).copied().collect(),
        None => extra.to_vec(),
    };
    let mut v: Vec<String> = [
        "run",
        "--lang",
        "java",
        "--compiler",
        "javac@crash",
        "--budget",
        budget,
        "--batch-size",
        "4",
        "--jobs",
        "1",
        "--seed",
        seed,
        "--no-reduce",
        "--no-feedback",
    ]
    .map(String::from)
    .to_vec();
    v.extend(extra.iter().map(|s| s.to_string()));
    v.push("--api".into());
    v.push(sample_api().display().to_string());
    v.push("--out".into());
    v.push(out.display().to_string());
    v
}

/// Runs the `SHARDS` shards of the campaign with `seed` as separate processes at once, into
/// `<root>/<name>-<i>`; returns their directories.
fn run_shards(name: &str, seed: &str) -> Vec<PathBuf> {
    run_shards_with(name, seed, SHARDS, &[])
}

/// Runs `count` shards of the campaign with `seed` (and `extra` flags) as separate processes
/// at once, into `<root>/<name>-<i>`; returns their directories.
fn run_shards_with(name: &str, seed: &str, count: u64, extra: &[&str]) -> Vec<PathBuf> {
    let f = fixture();
    let bin = assert_cmd::cargo::cargo_bin("thalia");
    let mut children = Vec::new();
    let mut dirs = Vec::new();
    for i in 0..count {
        let dir = f.root.join(format!("{name}-{i}"));
        let shard = format!("{i}/{count}");
        let mut flags = vec!["--shard", shard.as_str()];
        flags.extend_from_slice(extra);
        let child = std::process::Command::new(&bin)
            .env("THALIA_TOOLCHAINS", &f.toolchains)
            .args(run_args(&dir, seed, &flags))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("thalia starts");
        children.push(child);
        dirs.push(dir);
    }
    for c in children {
        let o = c.wait_with_output().expect("shard ends");
        assert!(
            o.status.success(),
            "a shard failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    dirs
}

/// Every file under `dir` (relative path → bytes).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .expect("under root")
                    .display()
                    .to_string();
                out.insert(rel, std::fs::read(&p).expect("readable"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The merge of `runs` into `out`: (success, stderr).
fn merge(runs: &[PathBuf], out: &Path) -> (bool, String) {
    let o = thalia(&fixture().toolchains)
        .arg("merge")
        .args(runs)
        .arg("--out")
        .arg(out)
        .output()
        .expect("merge runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

#[test]
fn four_shards_merged_equal_the_unsharded_run() {
    if !have_javac("four_shards_merged_equal_the_unsharded_run") {
        return;
    }
    let f = fixture();
    let whole = f.root.join("whole");
    thalia(&f.toolchains)
        .args(run_args(&whole, "5", &[]))
        .assert()
        .success();
    let expected = results(&whole);
    assert_eq!(expected.len(), 40);
    let crashes = expected
        .values()
        .filter(|(v, _)| v.as_str() == "crash")
        .count();
    assert!(
        crashes >= 2,
        "the campaign crashes the fake javac: {expected:?}"
    );

    let shards = run_shards("s", "5");
    // each shard compiled its own programs only, and recorded its shard
    for (i, dir) in shards.iter().enumerate() {
        let r = results(dir);
        assert!(!r.is_empty(), "shard {i} did nothing");
        for key in r.keys() {
            let index: u64 = key
                .rsplit("/p")
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a program index");
            assert_eq!(index % SHARDS, i as u64, "{key} in shard {i}");
        }
        let m: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
        )
        .expect("JSON");
        assert_eq!(m["identity"]["shard"]["index"], i as u64);
        assert_eq!(m["identity"]["shard"]["count"], SHARDS);
    }
    // the crash finding is hit in two shards
    let with_crash = shards
        .iter()
        .filter(|d| results(d).values().any(|(v, _)| v == "crash"))
        .count();
    assert_eq!(with_crash, 2);

    let merged = f.root.join("merged");
    let (ok, err) = merge(&shards, &merged);
    assert!(ok, "{err}");
    assert_eq!(results(&merged), expected, "program by program");
    assert_eq!(finding_counts(&merged), finding_counts(&whole));
    // one directory per finding, and one `first` program per finding
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d.join("bugs"))
            .expect("bugs/")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&merged), names(&whole));
    let mut firsts: BTreeMap<String, u64> = BTreeMap::new();
    for v in lines(&merged.join("results.jsonl")) {
        if v["finding"]["first"] == true {
            *firsts
                .entry(v["finding"]["signature"].as_str().expect("sig").into())
                .or_default() += 1;
        }
    }
    assert!(firsts.values().all(|&n| n == 1), "{firsts:?}");
    assert_eq!(firsts.len(), finding_counts(&whole).len());
    // lines ordered by program id
    let keys: Vec<String> = lines(&merged.join("results.jsonl"))
        .iter()
        .map(|v| v["id"].as_str().expect("id").to_string())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    // the merged manifest: the campaign without a shard, its four parts
    let m: Value = serde_json::from_str(
        &std::fs::read_to_string(merged.join("manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    assert!(m["identity"].get("shard").is_none(), "{m}");
    let parts = m["merged"].as_array().expect("merged parts");
    assert_eq!(parts.len(), SHARDS as usize);
    for (i, p) in parts.iter().enumerate() {
        assert_eq!(p["shard"]["index"], i as u64);
    }
    let report = thalia(&f.toolchains)
        .arg("report")
        .arg(&merged)
        .output()
        .expect("report");
    let text = String::from_utf8_lossy(&report.stdout);
    assert!(text.contains("merged from 4 part(s)"), "{text}");

    // idempotent: a rerun (in another order) gives the same bytes
    let before = tree(&merged);
    let mut reversed = shards.clone();
    reversed.reverse();
    let (ok, err) = merge(&reversed, &merged);
    assert!(ok, "{err}");
    assert_eq!(tree(&merged), before);
    // and a killed merge's leftovers do not matter
    std::fs::create_dir_all(f.root.join(".merged.merge-99999/bugs")).expect("mkdir");
    let (ok, err) = merge(&shards, &merged);
    assert!(ok, "{err}");
    assert_eq!(tree(&merged), before);
    assert!(!f.root.join(".merged.merge-99999").exists());

    // two halves merged, then merged again, give the same run
    let half_a = f.root.join("half-a");
    let half_b = f.root.join("half-b");
    assert!(merge(&shards[..2], &half_a).0);
    assert!(merge(&shards[2..], &half_b).0);
    let again = f.root.join("again");
    let (ok, err) = merge(&[half_a, half_b], &again);
    assert!(ok, "{err}");
    assert_eq!(results(&again), expected);
}

#[test]
fn merges_of_different_campaigns_or_one_shard_twice_are_refused() {
    if !have_javac("merges_of_different_campaigns_or_one_shard_twice_are_refused") {
        return;
    }
    let f = fixture();
    let seed5 = f.root.join("r5-0");
    let seed6 = f.root.join("r6-1");
    for (dir, seed, shard) in [(&seed5, "5", "0/4"), (&seed6, "6", "1/4")] {
        thalia(&f.toolchains)
            .args(run_args(dir, seed, &["--shard", shard, "--budget", "8"]))
            .assert()
            .success();
    }
    let out = f.root.join("refused");
    let (ok, err) = merge(&[seed5.clone(), seed6.clone()], &out);
    assert!(!ok);
    assert!(
        err.contains("different campaigns")
            && err.contains("seed")
            && err.contains(&seed5.display().to_string())
            && err.contains(&seed6.display().to_string()),
        "{err}"
    );
    assert!(!out.exists());

    // the same shard twice (a copy of one run)
    let copy = f.root.join("r5-0-copy");
    let cp = std::process::Command::new("cp")
        .arg("-r")
        .arg(&seed5)
        .arg(&copy)
        .status()
        .expect("cp");
    assert!(cp.success());
    let (ok, err) = merge(&[seed5.clone(), copy], &out);
    assert!(!ok);
    assert!(err.contains("shard 0/4"), "{err}");

    // an output that is a run, not a merge, is not replaced
    let (ok, err) = merge(std::slice::from_ref(&seed5), &seed6);
    assert!(!ok);
    assert!(err.contains("not a merged run"), "{err}");
    assert!(seed6.join("results.jsonl").exists());

    // a resumed shard stays the same shard
    let o = thalia(&f.toolchains)
        .args(run_args(&seed5, "5", &["--shard", "1/4", "--budget", "8"]))
        .output()
        .expect("runs");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds a different run") && err.contains("shard"),
        "{err}"
    );
}

#[test]
fn the_shard_index_comes_from_the_cluster_engine() {
    if !have_javac("the_shard_index_comes_from_the_cluster_engine") {
        return;
    }
    let f = fixture();
    let k8s = f.root.join("k8s");
    thalia(&f.toolchains)
        .env("JOB_COMPLETION_INDEX", "2")
        .args(run_args(&k8s, "5", &["--shards", "4", "--budget", "8"]))
        .assert()
        .success();
    let slurm = f.root.join("slurm");
    thalia(&f.toolchains)
        .env("SLURM_ARRAY_TASK_ID", "4")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "4")
        .args(run_args(
            &slurm,
            "5",
            &["--shards", "auto", "--budget", "8"],
        ))
        .assert()
        .success();
    for (dir, index) in [(&k8s, 2), (&slurm, 3)] {
        let m: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
        )
        .expect("JSON");
        assert_eq!(m["identity"]["shard"]["index"], index, "{}", dir.display());
        assert_eq!(results(dir).len(), 2, "{}", dir.display());
    }
    // a shard without the campaign's seed
    let o = thalia(&f.toolchains)
        .args(["run", "--shard", "0/4", "--budget", "4", "--out"])
        .arg(f.root.join("no-seed"))
        .output()
        .expect("runs");
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--seed"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // without an index in the environment
    let o = thalia(&f.toolchains)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .args(run_args(&f.root.join("none"), "5", &["--shards", "4"]))
        .output()
        .expect("runs");
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("SLURM_ARRAY_TASK_ID"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `thalia run` arguments over the API of `java.util.function.Function` alone (a round of a
/// few dozen programs) with `budget`, into `out`, as shard `shard` when given.
fn small_api_args(budget: &str, out: &Path, shard: Option<String>) -> Vec<String> {
    let f = fixture();
    let api = f.root.join("api-function");
    let class = "java.util.function.Function.json";
    if !api.join(class).exists() {
        std::fs::create_dir_all(&api).expect("mkdir");
        std::fs::copy(sample_api().join(class), api.join(class)).expect("copy");
    }
    let mut v: Vec<String> = [
        "run",
        "--lang",
        "java",
        "--budget",
        budget,
        "--batch-size",
        "4",
        "--jobs",
        "1",
        "--seed",
        "8",
        "--no-reduce",
        "--no-feedback",
        "--compiler",
        "javac@crash",
        "--api",
    ]
    .map(String::from)
    .to_vec();
    v.push(api.display().to_string());
    if let Some(s) = shard {
        v.push("--shard".into());
        v.push(s);
    }
    v.push("--out".into());
    v.push(out.display().to_string());
    v
}

/// The unsharded run and `count` shards (processes at once) over the small API with
/// `budget`, merged: asserts the merge equals the unsharded run; returns its results.
fn shards_equal_whole(
    name: &str,
    budget: &str,
    count: u64,
) -> BTreeMap<String, (String, Option<String>)> {
    let f = fixture();
    let whole = f.root.join(format!("{name}-whole"));
    thalia(&f.toolchains)
        .args(small_api_args(budget, &whole, None))
        .assert()
        .success();
    let expected = results(&whole);
    let bin = assert_cmd::cargo::cargo_bin("thalia");
    let dirs: Vec<PathBuf> = (0..count)
        .map(|i| f.root.join(format!("{name}-{i}")))
        .collect();
    let children: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            std::process::Command::new(&bin)
                .env("THALIA_TOOLCHAINS", &f.toolchains)
                .args(small_api_args(budget, d, Some(format!("{i}/{count}"))))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("starts")
        })
        .collect();
    for c in children {
        assert!(c.wait_with_output().expect("ends").status.success());
    }
    let merged = f.root.join(format!("{name}-merged"));
    let (ok, err) = merge(&dirs, &merged);
    assert!(ok, "{err}");
    assert_eq!(results(&merged), expected);
    assert_eq!(finding_counts(&merged), finding_counts(&whole));
    expected
}

#[test]
fn three_shards_of_a_round_merged_equal_the_round() {
    if !have_javac("three_shards_of_a_round_merged_equal_the_round") {
        return;
    }
    let expected = shards_equal_whole("round", "round", 3);
    assert!(expected.len() > 10, "{}", expected.len());
}

#[test]
fn a_count_budget_over_several_rounds_splits_exactly() {
    if !have_javac("a_count_budget_over_several_rounds_splits_exactly") {
        return;
    }
    let round = shards_equal_whole("rounds", "75", 2);
    assert_eq!(round.len(), 75);
    assert!(
        round.keys().any(|k| k.contains("/r2/")),
        "the budget reaches a third round: {:?}",
        round.keys().collect::<Vec<_>>()
    );
}

#[test]
fn shards_of_a_check_merged_equal_the_whole_check() {
    if !have_javac("shards_of_a_check_merged_equal_the_whole_check") {
        return;
    }
    let f = fixture();
    let programs = f.root.join("check-programs");
    fake::synth(&f.toolchains, "java", "ill-typed", 3, 20, &programs);
    let check = |out: &Path, extra: &[&str]| {
        thalia(&f.toolchains)
            .arg("check")
            .arg(&programs)
            .args([
                "--compiler",
                "javac@crash",
                "--batch-size",
                "4",
                "--jobs",
                "1",
            ])
            .args(extra)
            .arg("--out")
            .arg(out)
            .assert()
            .success();
    };
    let whole = f.root.join("check-whole");
    check(&whole, &[]);
    let expected = results(&whole);
    assert_eq!(expected.len(), 20);
    let dirs: Vec<PathBuf> = (0..2)
        .map(|i| f.root.join(format!("check-shard-{i}")))
        .collect();
    for (i, d) in dirs.iter().enumerate() {
        check(d, &["--shard", &format!("{i}/2")]);
        assert_eq!(results(d).len(), 10);
    }
    let merged = f.root.join("check-merged");
    let (ok, err) = merge(&dirs, &merged);
    assert!(ok, "{err}");
    assert_eq!(results(&merged), expected);
    assert_eq!(finding_counts(&merged), finding_counts(&whole));
}
