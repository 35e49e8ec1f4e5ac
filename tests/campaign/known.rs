//! Known findings end to end: a campaign labels findings that match a known entry `known`
//! (results line, `known/` folder, `finding.json`, `report.md`), counts them apart in
//! `thalia report`, and keeps reporting the others as new; and the Groovy generator no longer
//! avoids RB9 (arguments of calls with explicit type arguments are broken again).

use crate::support::fake;

use fake::{fake_groovyc, lines, synth, thalia};
use serde_json::Value;

/// A user's known-findings file with one entry for the fake compiler's `old-bug` rejection.
const MINE: &str = r#"
[[finding]]
id = "MINE-1"
compiler = "groovy"
title = "the fake compiler's old bug"
kind = "unexpected-rejection"
signatures = ["groovy unexpected-rejection: * old-bug rejection"]
affected = ["fake"]
tracker = "https://example.org/issues/1"
program = "class Main {}"
"#;

#[test]
fn findings_of_known_bugs_are_labelled_kept_apart_and_counted_apart() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 5, 12, &programs);
    // odd program ids hit the known bug, even ones a new one
    fake_groovyc(
        &toolchains,
        "fake",
        "    *[13579].groovy)\n      echo \"file://$a: 5: [Static type checking] - old-bug rejection @ line 5, column 9.\"\n      rc=1\n      ;;\n    *.groovy)\n      echo \"file://$a: 5: [Static type checking] - fresh rejection @ line 5, column 9.\"\n      rc=1\n      ;;",
    );
    let known = root.path().join("mine.toml");
    std::fs::write(&known, MINE).expect("write");
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args([
            "--compiler",
            "groovy@fake",
            "--no-twin",
            "-j",
            "1",
            "--known",
        ])
        .arg(&known)
        .arg("--out")
        .arg(&store)
        .assert()
        .success()
        .stdout(predicates::str::contains("[known MINE-1]"));
    let results = lines(&store.join("results.jsonl"));
    let (mut old, mut fresh) = (0, 0);
    for r in &results {
        let f = &r["finding"];
        let odd = r["id"]
            .as_str()
            .and_then(|id| id.chars().last())
            .is_some_and(|c| "13579".contains(c));
        if odd {
            assert_eq!(f["known"], "MINE-1", "{r}");
            old += 1;
        } else {
            assert_eq!(f["known"], Value::Null, "{r}");
            fresh += 1;
        }
    }
    assert!(old > 0 && fresh > 0, "{old} known, {fresh} new");
    // the known finding's directory is under known/, not bugs/
    let dirs = |folder: &str| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(store.join(folder))
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    let known_dirs = dirs("known");
    assert_eq!(known_dirs.len(), 1, "{known_dirs:?}");
    assert_eq!(dirs("bugs").len(), 1, "the new finding alone in bugs/");
    let finding: Value = serde_json::from_str(
        &std::fs::read_to_string(known_dirs[0].join("finding.json")).expect("finding.json"),
    )
    .expect("JSON");
    assert_eq!(finding["known"]["id"], "MINE-1");
    let report_md = std::fs::read_to_string(known_dirs[0].join("report.md")).expect("report.md");
    assert!(
        report_md.contains("## Known bug") && report_md.contains("example.org/issues/1"),
        "{report_md}"
    );
    // `thalia report` counts them apart
    let out = thalia(&toolchains)
        .arg("report")
        .arg(&store)
        .arg("--json")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["standing"]["known"], old, "{report}");
    assert_eq!(report["standing"]["new_without_twin"], fresh, "{report}");
    assert_eq!(report["known"]["MINE-1"], old, "{report}");
    let table = thalia(&toolchains)
        .arg("report")
        .arg(&store)
        .output()
        .expect("runs");
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains(&format!(
            "{fresh} new without a twin, {old} known (MINE-1 ×{old})"
        )),
        "{table}"
    );
}

#[test]
fn a_broken_known_findings_file_is_refused() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 5, 2, &programs);
    fake_groovyc(&toolchains, "fake", "    *) ;;");
    let known = root.path().join("bad.toml");
    std::fs::write(&known, "[[finding]]\nid = 'X'\ncompiler = 'groovy'\n").expect("write");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@fake", "--no-twin", "--known"])
        .arg(&known)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.toml"));
}

#[test]
fn groovy_ill_typed_programs_break_arguments_fixed_by_explicit_type_arguments() {
    // RB9 is a known bug, not a reason to avoid the shape: an argument whose parameter
    // mentions a method type variable, with explicit type arguments, is broken again
    let root = tempfile::tempdir().expect("tempdir");
    let out = root.path().join("ill");
    synth(&root.path().join("tc"), "groovy", "ill-typed", 7, 400, &out);
    let generic_args = lines(&out.join("programs.jsonl"))
        .into_iter()
        .filter_map(|r| serde_json::from_value::<thalia::synth::ProgramRecord>(r).ok())
        .filter(|r| {
            !r.erased
                && r.broken
                    .as_ref()
                    .is_some_and(|b| b.position.starts_with("arg"))
                && thalia::campaign::known::generic_position(r) == Some(true)
        })
        .count();
    assert!(
        generic_args > 0,
        "no Groovy program breaks an argument typed by a method type variable"
    );
}
