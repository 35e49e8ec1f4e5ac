//! `--synth-config FILE` (TOML or JSON) and the feature census, end to end through the
//! binary: the effective config lands in `summary.json`, flags override the file, a bad file
//! is a clear error, and a program regenerated with the recorded config is the same program.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary is built")
}

fn summary(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary.json is JSON")
}

fn synth(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "synth",
        "--api",
        "@java.base",
        "--seed",
        "11",
        "-n",
        "300",
        "-o",
    ];
    let out = out.to_str().expect("utf-8 path");
    args.push(out);
    args.extend_from_slice(extra);
    thalia().args(&args).assert().success();
}

#[test]
fn a_toml_config_sets_the_knobs_and_the_swarm_and_lands_in_the_summary() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let cfg = tmp.path().join("cfg.toml");
    std::fs::write(
        &cfg,
        "yen_k = 2\nmax_sequences_per_member = 4\n\n[swarm]\nconditionals = 1.0\nreferences = 0.0\n",
    )
    .expect("write config");
    let out = tmp.path().join("out");
    synth(
        &out,
        &[
            "--synth-config",
            cfg.to_str().expect("utf-8"),
            "--yen-k",
            "5",
        ],
    );
    let s = summary(&out);
    let c = &s["config"];
    // the flag overrides the file; the file overrides the defaults
    assert_eq!(c["yen_k"], 5, "{c}");
    assert_eq!(c["max_sequences_per_member"], 4, "{c}");
    assert_eq!(c["swarm"]["conditionals"], 1.0, "{c}");
    assert_eq!(c["swarm"]["references"], 0.0, "{c}");
    // a field the file leaves out keeps its default
    assert_eq!(c["max_type_depth"], 2, "{c}");
    let census = &s["summary"]["census"];
    assert_eq!(census["programs"], 300, "{census}");
    assert!(census["forms"].is_object(), "{census}");
}

#[test]
fn a_json_config_and_a_summary_json_are_read_alike() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let cfg = tmp.path().join("cfg.json");
    std::fs::write(
        &cfg,
        r#"{"max_type_depth": 1, "swarm": {"inferred_locals": 0.0}}"#,
    )
    .expect("write config");
    let first = tmp.path().join("first");
    synth(&first, &["--synth-config", cfg.to_str().expect("utf-8")]);
    assert_eq!(summary(&first)["config"]["max_type_depth"], 1);
    // a run's summary.json is a config too: the same programs come out again
    let second = tmp.path().join("second");
    let from = first.join("summary.json");
    synth(&second, &["--synth-config", from.to_str().expect("utf-8")]);
    assert_eq!(summary(&second)["config"], summary(&first)["config"]);
    let read = |d: &Path| std::fs::read_to_string(d.join("programs.jsonl")).expect("manifest");
    assert_eq!(read(&first), read(&second));
}

#[test]
fn a_regeneration_command_names_a_non_default_config() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let cfg = tmp.path().join("cfg.toml");
    std::fs::write(&cfg, "[swarm]\nconditionals = 1.0\n").expect("write config");
    let out = tmp.path().join("out");
    synth(&out, &["--synth-config", cfg.to_str().expect("utf-8")]);
    let s: thalia::synth::output::RunSummary =
        thalia::synth::output::RunSummary::read(&out).expect("summary reads");
    let cmd = s.regenerate_command(&out);
    assert!(cmd.contains("--synth-config"), "{cmd}");
    assert!(cmd.contains("summary.json"), "{cmd}");
    // the default config needs no file
    let plain = tmp.path().join("plain");
    synth(&plain, &[]);
    let s = thalia::synth::output::RunSummary::read(&plain).expect("summary reads");
    assert!(!s.regenerate_command(&plain).contains("--synth-config"));
}

#[test]
fn bad_config_files_are_clear_errors_naming_the_file_and_field() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let cases = [
        ("unknown.toml", "[swarm]\nreferenses = 0.5\n", "referenses"),
        (
            "range.toml",
            "[swarm]\nconditionals = 1.5\n",
            "swarm.conditionals",
        ),
        (
            "prob.json",
            r#"{"true_probability": -1}"#,
            "true_probability",
        ),
        ("zero.json", r#"{"yen_k": 0}"#, "yen_k"),
        ("broken.json", "{ not json", "not a synthesis config"),
        ("broken.toml", "yen_k = = 3", "TOML"),
    ];
    for (name, text, needle) in cases {
        let path = tmp.path().join(name);
        std::fs::write(&path, text).expect("write config");
        thalia()
            .args([
                "synth",
                "--api",
                "@java.base",
                "-n",
                "1",
                "-o",
                tmp.path().join("out").to_str().expect("utf-8"),
                "--synth-config",
                path.to_str().expect("utf-8"),
            ])
            .assert()
            .failure()
            .stderr(predicate::str::contains(name).and(predicate::str::contains(needle)));
    }
    // a missing file
    thalia()
        .args([
            "synth",
            "-n",
            "1",
            "--synth-config",
            "/nonexistent/cfg.toml",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("/nonexistent/cfg.toml"));
}

#[test]
fn forms_off_in_the_config_are_absent_from_the_census() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let cfg = tmp.path().join("none.json");
    let none = thalia::synth::SwarmConfig::none();
    std::fs::write(&cfg, serde_json::json!({ "swarm": none }).to_string()).expect("write config");
    let out = tmp.path().join("out");
    synth(&out, &["--synth-config", cfg.to_str().expect("utf-8")]);
    let forms = summary(&out)["summary"]["census"]["forms"].clone();
    for off in [
        "reference",
        "conditional",
        "inferred-local",
        "generic-test-method",
    ] {
        assert!(forms.get(off).is_none(), "{off} in {forms}");
    }
}

use crate::support::fake;

#[test]
fn a_campaign_records_its_config_and_census_and_regenerates_with_them() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let toolchains = tmp.path().join("toolchains");
    // a groovyc that rejects everything: every well-typed program is a finding
    fake::fake_groovyc(
        &toolchains,
        "9.9.9",
        "    *.groovy) echo \"$a: 1: boom @ line 1, column 1.\"; rc=1 ;;",
    );
    let cfg = tmp.path().join("cfg.toml");
    std::fs::write(&cfg, "[swarm]\nconditionals = 1.0\nuse_probability = 1.0\n").expect("config");
    let out = tmp.path().join("run");
    let api = fake::sample_api();
    fake::thalia(&toolchains)
        .args([
            "run",
            "--lang",
            "groovy",
            "--compiler",
            "groovy@9.9.9",
            "--mode",
            "well-typed",
            "--budget",
            "40",
            "--jobs",
            "1",
            "--seed",
            "5",
            "--no-twin",
            "--no-reduce",
            "--api",
        ])
        .arg(&api)
        .arg("--out")
        .arg(&out)
        .arg("--synth-config")
        .arg(&cfg)
        .assert()
        .success();
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("synth-config.json")).expect("synth-config.json"),
    )
    .expect("JSON");
    assert_eq!(written["swarm"]["conditionals"], 1.0, "{written}");
    let census: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("census.json")).expect("census.json"),
    )
    .expect("JSON");
    assert!(census["programs"].as_u64().unwrap_or(0) >= 40, "{census}");
    // the report shows the census
    fake::thalia(&toolchains)
        .args(["report"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("forms used"));
    // a finding's regeneration command names the recorded config
    let manifest = std::fs::read_to_string(out.join("results.jsonl")).expect("results");
    let bugs: Vec<_> = std::fs::read_dir(out.join("bugs"))
        .expect("bugs/")
        .flatten()
        .collect();
    assert!(!bugs.is_empty(), "no finding: {manifest}");
    let finding = std::fs::read_to_string(bugs[0].path().join("finding.json")).expect("finding");
    assert!(
        finding.contains("--synth-config") && finding.contains("synth-config.json"),
        "{finding}"
    );
}

#[test]
fn a_stride_samples_the_whole_round_with_the_rounds_ids() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("out");
    thalia()
        .args([
            "synth",
            "--api",
            "@java.base",
            "--seed",
            "4",
            "--stride",
            "5000",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(out.join("programs.jsonl")).expect("manifest");
    let ids: Vec<String> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            v["id"].as_str().expect("an id").to_string()
        })
        .collect();
    assert!(ids.len() >= 5, "{ids:?}");
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(id, &format!("p{:06}", i * 5000));
    }
    // the sampled programs are those of the round: regenerated alone they are the same
    let last = ids.last().expect("a last id").clone();
    let alone = tmp.path().join("alone");
    thalia()
        .args([
            "synth",
            "--api",
            "@java.base",
            "--seed",
            "4",
            "--only",
            &last,
            "-o",
        ])
        .arg(&alone)
        .assert()
        .success();
    let file = format!("Test_{last}.java");
    assert_eq!(
        std::fs::read_to_string(out.join(&file)).expect("sampled"),
        std::fs::read_to_string(alone.join(&file)).expect("alone")
    );
}
