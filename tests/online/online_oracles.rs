//! `online_*`: the differential oracle and the reduction on real compilers. A short ill-typed
//! Groovy campaign on groovy 4.0.11 (spring 2023) `--against` the pinned newest groovyc: the
//! old release accepts ill-typed programs that the new one rejects (method references whose
//! result type it does not check, among others), so the campaign must record `fixed-since`
//! differential findings with both verdicts, `thalia report` must count them, and the
//! background reduction must leave reduced programs that still give their finding.

use crate::support::toolchains;

use serde_json::Value;
use toolchains::{install, pinned, thalia};

/// The old release (spring 2023) the campaign runs on.
const OLD: &str = "groovy@4.0.11";
/// Programs of the campaign (about 4 % of them are fixed-since against groovy 5 and 6).
const BUDGET: &str = "400";

#[test]
fn online_an_old_groovyc_against_the_newest_gives_fixed_since_findings_and_reductions() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tc = tmp.path().join("toolchains");
    let newest = pinned()
        .into_iter()
        .find(|s| s.starts_with("groovy@"))
        .expect("a pinned groovy");
    install(&tc, &[OLD, newest]);
    let out = tmp.path().join("run");
    let run = thalia(&tc)
        .args(["run", "--lang", "groovy", "--mode", "ill-typed", "--server"])
        .args(["--compiler", OLD, "--against", newest, "--seed", "21"])
        .args(["--budget", BUDGET, "-j", "1", "--out"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );

    // fixed-since: the old release accepts, the new one rejects, both verdicts recorded
    let results = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    let fixed: Vec<Value> = results
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| {
            r["differential"].as_array().is_some_and(|d| {
                d.iter()
                    .any(|x| x["kind"] == "fixed-since" && x["against"] == newest)
            })
        })
        .collect();
    assert!(!fixed.is_empty(), "no fixed-since finding:\n{stdout}");
    for r in &fixed {
        assert_eq!(r["verdict"], "accepted", "{r}");
        let other = r["differential"]
            .as_array()
            .and_then(|d| d.iter().find(|x| x["against"] == newest))
            .expect("the newest release's verdict");
        assert_eq!(other["verdict"], "rejected", "{r}");
    }
    let report = thalia(&tc)
        .arg("report")
        .arg(&out)
        .output()
        .expect("thalia runs");
    let report = String::from_utf8_lossy(&report.stdout).to_string();
    let line = report
        .lines()
        .find(|l| l.contains("fixed-since vs") && l.contains(newest))
        .unwrap_or_else(|| panic!("no fixed-since count in the report:\n{report}"));
    let counted: usize = line
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert_eq!(counted, fixed.len(), "{report}");

    // reduction: each reduced program still gives its finding (the reducer keeps only such
    // steps) and is no longer than the original
    let mut reduced = 0;
    for folder in ["bugs", "known"] {
        let Ok(dirs) = std::fs::read_dir(out.join(folder)) else {
            continue;
        };
        for d in dirs.flatten() {
            let info = d.path().join("reduced/reduction.json");
            let Ok(text) = std::fs::read_to_string(&info) else {
                continue;
            };
            let j: Value = serde_json::from_str(&text).expect("reduction.json");
            let (before, after) = (
                j["lines_before"].as_u64().expect("lines_before"),
                j["lines_after"].as_u64().expect("lines_after"),
            );
            assert!(after <= before, "{}: {text}", d.path().display());
            assert!(j["compiles"].as_u64().unwrap_or(0) > 0, "{text}");
            let files: Vec<String> = std::fs::read_dir(d.path().join("reduced"))
                .expect("reduced/")
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect();
            assert!(files.iter().any(|f| f.ends_with(".groovy")), "{files:?}");
            assert!(files.iter().any(|f| f.ends_with(".java")), "{files:?}");
            reduced += 1;
        }
    }
    assert!(reduced > 0, "no finding was reduced:\n{stdout}");
    println!(
        "{} fixed-since programs, {reduced} findings reduced\n{report}",
        fixed.len()
    );
}
