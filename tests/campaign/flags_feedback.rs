//! Compiler flags as a swarm dimension and the findings fed back into the swarm (issue 36,
//! items 6 and 7), with fake compilers whose verdicts are known in advance.
//!
//! Flags: a fake kotlinc installed as release 2.4.21 (so its flag sets are those of 2.4.21)
//! accepts every program of an invocation given a flag (`-language-version`, `-Xjsr305`) and
//! rejects the others with an error on each line: of the ill-typed programs, those the
//! campaign drew flags for, and only those, are findings, each recorded with its flags in
//! `results.jsonl`, `finding.json`, `repro.sh` and `report.md`, and every invocation gets one
//! flag set.
//!
//! Feedback: a fake javac rejects every program with an inferred local (`var`, one large
//! family: the `inferred_locals` form) and, with another message, every other program
//! calling `valueOf` (a small family); with the feedback on, the large family's share of
//! the findings is lower than with it off.

use crate::support::fake;

use std::path::Path;

use fake::{install_script, lines, sample_api, thalia};
use serde_json::Value;

const KOTLINC: &str = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler";

/// Installs `kotlin@2.4.21`, a fake kotlinc that logs its flags (one line per invocation) in
/// `log`, accepts every `.kt` file of an invocation with flags and rejects the others (an
/// error on each of their lines, so on the call under test too).
fn flag_sensitive_kotlinc(toolchains: &Path, log: &Path) {
    install_script(
        toolchains,
        "kotlin",
        "2.4.21",
        KOTLINC,
        &format!(
            r#"#!/bin/sh
log='{}'
flags=""
prev=""
for a in "$@"; do
  case "$a" in
    -language-version|-Xjsr305=*) flags="$flags $a" ;;
  esac
  case "$prev" in
    -language-version) flags="$flags $a" ;;
  esac
  prev="$a"
done
echo "invocation:$flags" >> "$log"
[ -n "$flags" ] && exit 0
rc=0
for a in "$@"; do
  case "$a" in
    *.kt) n=$(wc -l < "$a"); i=1; while [ $i -le $n ]; do echo "$a:$i:1: error: injected"; i=$((i+1)); done; rc=1 ;;
  esac
done
exit $rc
"#,
            log.display()
        ),
    );
}

fn finding_file(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("finding.json")).expect("finding.json"))
        .expect("JSON")
}

#[test]
fn drawn_flags_reach_the_compiler_the_records_and_the_reproduction() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let log = root.path().join("kotlinc.log");
    flag_sensitive_kotlinc(&toolchains, &log);
    let run = root.path().join("run");
    thalia(&toolchains)
        .args([
            "run",
            "--lang",
            "kotlin",
            "--mode",
            "ill-typed",
            "--seed",
            "4",
            "--budget",
            "160",
            "--batch-size",
            "40",
            "--compiler",
            "kotlin@2.4.21",
            "-j",
            "1",
            "--no-twin",
            "--no-oracle",
            "--no-recheck",
            "--no-reduce",
            "--no-feedback",
            "--api",
        ])
        .arg(sample_api())
        .arg("--out")
        .arg(&run)
        .assert()
        .success();
    let results = lines(&run.join("results.jsonl"));
    assert_eq!(results.len(), 160);
    let flags_of = |r: &Value| -> Vec<String> {
        r["flags"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|f| f.as_str().expect("a flag").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let flagged: Vec<&Value> = results.iter().filter(|r| !flags_of(r).is_empty()).collect();
    assert!(
        !flagged.is_empty() && flagged.len() < results.len(),
        "seed 4 draws flags for some blocks of programs, not all: {}",
        flagged.len()
    );
    // the compiler got exactly the flags recorded: it accepted those programs, and only those
    for r in &results {
        let f = flags_of(r);
        if f.is_empty() {
            assert_eq!(r["verdict"], "rejected", "{r}");
            assert!(r["finding"].is_null(), "{r}");
        } else {
            let known = f == ["-Xjsr305=strict"]
                || (f[0] == "-language-version"
                    && ["2.0", "2.1", "2.2", "2.3"].contains(&f[1].as_str()));
            assert!(known, "{r}");
            assert_eq!(r["verdict"], "accepted", "{r}");
        }
    }
    // one flag set per invocation: a batch is split by flag set
    let log = std::fs::read_to_string(&log).expect("the log");
    let invocations: Vec<&str> = log.lines().collect();
    assert!(invocations
        .iter()
        .all(|l| l.matches("-language-version").count() + l.matches("-Xjsr305").count() <= 1));
    assert!(invocations.contains(&"invocation:"), "{log}");
    // every finding keeps its flags: finding.json, repro.sh and report.md
    let bugs: Vec<_> = std::fs::read_dir(run.join("suspects"))
        .into_iter()
        .chain(std::fs::read_dir(run.join("bugs")))
        .flatten()
        .flatten()
        .filter(|e| e.path().join("finding.json").is_file())
        .collect();
    assert!(!bugs.is_empty(), "the rejections are findings");
    for b in &bugs {
        let f = finding_file(&b.path());
        let flags: Vec<&str> = f["program"]["record"]["flags"]
            .as_array()
            .expect("the program's flags")
            .iter()
            .map(|v| v.as_str().expect("a flag"))
            .collect();
        assert!(!flags.is_empty(), "{f}");
        let words = flags.join(" ");
        let repro = std::fs::read_to_string(b.path().join("repro.sh")).expect("repro.sh");
        assert!(repro.contains(&format!("{words} ")), "{repro}");
        assert!(
            repro.contains(&format!("# Compiler flags: {words}.")),
            "{repro}"
        );
        let md = std::fs::read_to_string(b.path().join("report.md")).expect("report.md");
        assert!(
            md.contains("Compiler flags: ") && md.contains(&words),
            "{md}"
        );
        // the reproduction compiles with the flags: the fake accepts again
        let out = crate::support::toolchains::repro(&b.path().join("repro.sh"), &toolchains)
            .output()
            .expect("sh");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // the census of flag sets
    let out = thalia(&toolchains)
        .args(["report", "--json"])
        .arg(&run)
        .output()
        .expect("report");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let sets = report["flag_sets"].as_object().expect("flag sets");
    assert_eq!(
        sets["defaults"]["programs"].as_u64(),
        Some((results.len() - flagged.len()) as u64)
    );
    let flagged_sum: u64 = sets
        .iter()
        .filter(|(k, _)| *k != "defaults")
        .map(|(_, v)| v["programs"].as_u64().expect("programs"))
        .sum();
    assert_eq!(flagged_sum, flagged.len() as u64);
    let share: f64 = sets
        .values()
        .map(|v| v["share"].as_f64().expect("share"))
        .sum();
    assert!((share - 1.0).abs() < 1e-9, "{share}");
}

#[test]
fn without_compiler_flags_every_program_gets_the_defaults() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let log = root.path().join("kotlinc.log");
    flag_sensitive_kotlinc(&toolchains, &log);
    let run = root.path().join("run");
    thalia(&toolchains)
        .args([
            "run",
            "--lang",
            "kotlin",
            "--mode",
            "ill-typed",
            "--seed",
            "4",
            "--budget",
            "160",
            "--batch-size",
            "40",
            "--compiler",
            "kotlin@2.4.21",
            "-j",
            "1",
            "--no-twin",
            "--no-oracle",
            "--no-recheck",
            "--no-reduce",
            "--no-compiler-flags",
            "--api",
        ])
        .arg(sample_api())
        .arg("--out")
        .arg(&run)
        .assert()
        .success();
    let results = lines(&run.join("results.jsonl"));
    assert_eq!(results.len(), 160);
    assert!(results
        .iter()
        .all(|r| r.get("flags").is_none() && r["verdict"] == "rejected"));
    let log = std::fs::read_to_string(&log).expect("the log");
    assert!(log.lines().all(|l| l == "invocation:"), "{log}");
}

/// Installs `javac@families`: rejects every program with an inferred local (message
/// `inferred`) and every other program calling `valueOf` (message `value`).
fn family_javac(toolchains: &Path) {
    install_script(
        toolchains,
        "javac",
        "families",
        "com.sun.tools.javac.Main",
        r#"#!/bin/sh
rc=0
for a in "$@"; do
  case "$a" in
    *.java)
      l=$(grep -n -F -- 'var ' "$a" | head -1 | cut -d: -f1)
      if [ -n "$l" ]; then echo "$a:$l: error: injected rejection inferred"; rc=1; continue; fi
      l=$(grep -n -F -- '.valueOf(' "$a" | head -1 | cut -d: -f1)
      if [ -n "$l" ]; then echo "$a:$l: error: injected rejection value"; rc=1; fi
      ;;
  esac
done
exit $rc
"#,
    );
}

/// The report of a run of 300 well-typed Java programs with `javac@families`, with or
/// without the feedback, on `jobs` workers; and its stderr.
fn family_run(toolchains: &Path, run: &Path, feedback: bool, jobs: &str) -> (Value, String) {
    let mut cmd = thalia(toolchains);
    cmd.args([
        "run",
        "--lang",
        "java",
        "--mode",
        "well-typed",
        "--seed",
        "2",
        "--budget",
        "300",
        "--batch-size",
        "20",
        "--compiler",
        "javac@families",
        "-j",
        jobs,
        "--no-recheck",
        "--no-reduce",
        "--api",
    ])
    .arg(sample_api())
    .arg("--out")
    .arg(run);
    if !feedback {
        cmd.arg("--no-feedback");
    }
    let out = cmd.output().expect("thalia runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    assert_eq!(lines(&run.join("results.jsonl")).len(), 300);
    let out = thalia(toolchains)
        .args(["report", "--json"])
        .arg(run)
        .output()
        .expect("report");
    (serde_json::from_slice(&out.stdout).expect("JSON"), stderr)
}

/// The keys of the programs a run judged, sorted.
fn judged_keys(run: &Path) -> Vec<String> {
    let mut keys: Vec<String> = lines(&run.join("results.jsonl"))
        .iter()
        .map(|r| r["key"].as_str().expect("a key").to_string())
        .collect();
    keys.sort();
    keys
}

#[test]
fn feedback_lowers_the_share_of_the_largest_family() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    family_javac(&toolchains);
    let (off, _) = family_run(&toolchains, &root.path().join("off"), false, "1");
    let (on, said) = family_run(&toolchains, &root.path().join("on"), true, "1");
    let largest = |r: &Value| -> (String, u64, f64) {
        let l = &r["largest_family"];
        let family = l["family"].as_str().expect("a family").to_string();
        let text = r["signatures"]
            .as_array()
            .expect("signatures")
            .iter()
            .find(|s| s["signature"] == family.as_str())
            .and_then(|s| s["text"].as_str())
            .expect("the family's signature")
            .to_string();
        let programs = l["programs"].as_u64().expect("programs");
        (text, programs, l["share"].as_f64().expect("a share"))
    };
    let (off_text, off_programs, off_share) = largest(&off);
    let (on_text, on_programs, on_share) = largest(&on);
    // the inferred-locals family is the largest either way, and takes less of the campaign
    assert!(
        off_text.contains("inferred") && on_text.contains("inferred"),
        "{off_text} / {on_text}"
    );
    assert!(
        on_share + 0.05 < off_share && on_programs < off_programs,
        "feedback on: {on_programs} programs ({on_share}), off: {off_programs} ({off_share})"
    );
    assert!(said.contains("drawn less"), "{said}");
    // the table says it too
    let table = thalia(&toolchains)
        .arg("report")
        .arg(root.path().join("on"))
        .output()
        .expect("report");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("largest family:"), "{text}");
    // the programs drawn do not depend on the number of workers
    family_run(&toolchains, &root.path().join("on-j2"), true, "2");
    assert_eq!(
        judged_keys(&root.path().join("on")),
        judged_keys(&root.path().join("on-j2"))
    );
}

/// The pinned version of `tool` (`tests/support/pinned-toolchains.txt`).
fn pinned(tool: &str) -> String {
    let text = include_str!("../support/pinned-toolchains.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(&format!("{tool}@")))
        .expect("a pinned release")
        .to_string()
}

/// Every flag set derived for the pinned kotlinc is one the real compiler takes, and with it
/// the compiler still rejects every ill-typed program it rejects with its defaults (the
/// flags only add errors: the expectation holds), when `THALIA_KOTLINC_CP` is set.
#[test]
fn the_real_kotlinc_takes_its_flag_sets_and_still_rejects_ill_typed_programs() {
    use thalia::campaign::flags::{flag_sets, Applies};
    use thalia::profile::Tool;
    let Ok(cp) = std::env::var("THALIA_KOTLINC_CP") else {
        crate::support::require::missing_tool("kotlinc", "THALIA_KOTLINC_CP is not set");
        return;
    };
    let stdlib = cp
        .split(':')
        .find(|j| j.contains("kotlin-stdlib-") && !j.contains("jdk"))
        .expect("kotlin-stdlib on THALIA_KOTLINC_CP")
        .to_string();
    let root = tempfile::tempdir().expect("tempdir");
    let programs = root.path().join("programs");
    fake::synth(
        &root.path().join("toolchains"),
        "kotlin",
        "ill-typed",
        6,
        24,
        &programs,
    );
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(&programs)
        .expect("programs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "kt"))
        .collect();
    assert!(!files.is_empty());
    let sets = flag_sets(Tool::Kotlin, &pinned("kotlin"));
    assert!(!sets.is_empty());
    assert!(
        sets.iter().all(|s| s.applies == Applies::Reject),
        "{sets:?}"
    );
    // the files kotlinc rejects with `flags`, and its output
    let compile = |flags: &[String]| -> (std::collections::BTreeSet<String>, String) {
        let out = std::process::Command::new("java")
            .arg("-cp")
            .arg(&cp)
            .arg("org.jetbrains.kotlin.cli.jvm.K2JVMCompiler")
            .args([
                "-no-stdlib",
                "-no-reflect",
                "-nowarn",
                "-classpath",
                &stdlib,
            ])
            .args(flags)
            .arg("-d")
            .arg(root.path().join("out"))
            .args(&files)
            .output()
            .expect("kotlinc runs");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        let rejected = files
            .iter()
            .filter_map(|f| f.file_name().and_then(|n| n.to_str()))
            .filter(|name| {
                err.lines()
                    .any(|l| l.contains(name) && l.contains("error:"))
            })
            .map(str::to_string)
            .collect();
        (rejected, err)
    };
    let (defaults, _) = compile(&[]);
    assert!(
        !defaults.is_empty(),
        "the defaults reject ill-typed programs"
    );
    // the oldest and the newest language version, and every other kind of flag
    let versions: Vec<&Vec<String>> = sets
        .iter()
        .map(|s| &s.flags)
        .filter(|f| f[0] == "-language-version")
        .collect();
    let mut chosen: Vec<&Vec<String>> = Vec::new();
    chosen.extend(versions.first());
    chosen.extend(versions.last());
    chosen.extend(
        sets.iter()
            .map(|s| &s.flags)
            .filter(|f| f[0] != "-language-version"),
    );
    for flags in chosen {
        let (rejected, err) = compile(flags);
        // a flag the release does not take is an error on no file
        let own_errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert!(own_errors.is_empty(), "kotlinc {flags:?}: {own_errors:?}");
        let lost: Vec<&String> = defaults.difference(&rejected).collect();
        assert!(
            lost.is_empty(),
            "kotlinc {flags:?} accepts ill-typed programs its defaults reject: {lost:?}\n{err}"
        );
    }
}
