//! `thalia bench compile` end to end with the real javac (installed from the running JDK into
//! the test's toolchains): the report sets each campaign's programs per second against the
//! compiler's limit measured in the same run on the same programs, per mode, with compiler
//! starts per batch and each stage's share of the wall time.

use serde_json::Value;

use crate::support::fake::thalia;

/// A report's number at `path` (keys), failing with the report when it is missing.
fn num(v: &Value, path: &[&str]) -> f64 {
    let mut at = v;
    for k in path {
        at = &at[*k];
    }
    at.as_f64()
        .unwrap_or_else(|| panic!("no number at {path:?} in {v}"))
}

#[test]
fn bench_compile_prints_each_campaigns_share_of_the_limit() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let out = thalia(&toolchains)
        .args(["bench", "compile", "--compiler", "javac", "-n", "4"])
        .args([
            "--batch-size",
            "2",
            "--warm-up",
            "0",
            "--passes",
            "1",
            "--json",
        ])
        .output()
        .expect("thalia runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let compilers = report["compilers"].as_array().expect("compilers");
    assert_eq!(compilers.len(), 1, "{report}");
    let modes = compilers[0]["modes"].as_array().expect("modes");
    let names: Vec<&str> = modes.iter().filter_map(|m| m["mode"].as_str()).collect();
    assert_eq!(names, ["well-typed", "ill-typed"]);
    for m in modes {
        assert_eq!(m["programs"], 4, "{m}");
        let limit = num(m, &["limit", "programs_per_second"]);
        assert!(limit > 0.0, "{m}");
        let campaigns = m["campaigns"].as_array().expect("campaigns");
        let kinds: Vec<&str> = campaigns
            .iter()
            .filter_map(|c| c["mode"].as_str())
            .collect();
        assert_eq!(kinds, ["process", "server"], "{m}");
        for c in campaigns {
            assert_eq!(c["programs"], 4, "{c}");
            let rate = num(c, &["programs_per_second"]);
            let per_round = num(c, &["round_programs_per_second"]);
            let of_limit = num(c, &["of_limit"]);
            assert!(rate > 0.0 && per_round > 0.0, "{c}");
            // the ratio is the campaign's rate per round over the limit's of the same run
            assert!(
                (of_limit - per_round / limit).abs() < 1e-9,
                "{c} against {limit}"
            );
            // the round was planned (before the campaign's clock): 4 programs of a round of
            // thousands pay a little of its plan, so the rate per round is a little lower
            assert!(num(c, &["planned"]) > 4.0, "{c}");
            assert!(num(c, &["plan_seconds"]) > 0.0, "{c}");
            assert!(per_round <= rate, "{c}");
            // every batch judged in one compiler start (a fresh JVM per batch; the measured
            // server campaign's server was warmed up before)
            let starts = num(c, &["starts_per_batch"]);
            match c["mode"].as_str() {
                Some("process") => assert_eq!(starts, 1.0, "{c}"),
                _ => assert_eq!(starts, 0.0, "{c}"),
            }
            assert!(num(c, &["stages", "shares", "compile"]) > 0.0, "{c}");
            assert!(num(c, &["stages", "seconds", "synthesis"]) > 0.0, "{c}");
        }
        // the campaigns and the limit judge alike: no verdict differs between campaigns
        assert_eq!(m["disagreements"], 0, "{m}");
    }
}
