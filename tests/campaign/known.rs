//! Known findings end to end: a campaign labels findings that match a known entry `known`
//! (results line, `known/` folder, `finding.json`, `report.md`) only on evidence — the entry's
//! own program, compiled with the campaign's compiler, gives the same signature — counts them
//! apart in `thalia report` (the counts by folder add up), and keeps reporting the others as
//! new, those that only look alike included; and the Groovy generator no longer avoids RB9
//! (arguments of calls with explicit type arguments are broken again).

use crate::support::fake;

use fake::{fake_groovyc, lines, synth, thalia};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A user's known-findings file: one entry for the fake compiler's `old-bug` rejection (its
/// program shows it), and one whose patterns match the `fresh` rejections but whose program
/// the compiler accepts: it only looks alike.
const MINE: &str = r#"
[[finding]]
id = "MINE-1"
compiler = "groovy"
title = "the fake compiler's old bug"
kind = "unexpected-rejection"
signatures = ["groovy unexpected-rejection: * old-bug rejection"]
affected = ["fake"]
tracker = "https://example.org/issues/1"
program = "class Main { /* OLD_BUG */ }"

[[finding]]
id = "LOOKALIKE"
compiler = "groovy"
title = "a bug whose signature looks like the fresh one"
kind = "unexpected-rejection"
signatures = ["groovy unexpected-rejection: * fresh rejection"]
affected = ["fake"]
program = "class Main { /* FINE */ }"
"#;

/// The fake groovyc: programs with an odd id, and sources that say `OLD_BUG`, hit the old
/// bug; sources that say `FINE` compile; the others hit a fresh bug.
const FAKE: &str = "    *.groovy)\n      if grep -q OLD_BUG \"$a\" || expr \"$a\" : '.*[13579][.]groovy$' >/dev/null; then\n        echo \"file://$a: 5: [Static type checking] - old-bug rejection @ line 5, column 9.\"\n        rc=1\n      elif ! grep -q FINE \"$a\"; then\n        echo \"file://$a: 5: [Static type checking] - fresh rejection @ line 5, column 9.\"\n        rc=1\n      fi\n      ;;";

/// In `root`: the toolchains with groovyc `fake` ([`FAKE`]: odd program ids hit the known
/// bug, even ones a new one), 12 well-typed programs, and the known-findings file [`MINE`].
fn fixture(root: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let toolchains = root.join("toolchains");
    let programs = root.join("programs");
    synth(&toolchains, "groovy", "well-typed", 5, 12, &programs);
    fake_groovyc(&toolchains, "fake", FAKE);
    let known = root.join("mine.toml");
    std::fs::write(&known, MINE).expect("write");
    (toolchains, programs, known)
}

#[test]
fn findings_of_known_bugs_are_labelled_kept_apart_and_counted_apart() {
    let root = tempfile::tempdir().expect("tempdir");
    let (toolchains, programs, known) = fixture(root.path());
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
    assert_eq!(
        dirs("bugs").len(),
        1,
        "the new finding alone in bugs/, not labelled with the look-alike"
    );
    // the evidence: both entries' programs compiled with the campaign's compiler
    let evidence: Value = serde_json::from_str(
        &std::fs::read_to_string(store.join("known-evidence.json")).expect("evidence kept"),
    )
    .expect("JSON");
    let of = |id: &str| evidence["groovy@fake"][id].clone();
    assert_eq!(of("MINE-1")["verdict"], "rejected", "{evidence}");
    assert_eq!(
        of("MINE-1")["signature"],
        "groovy unexpected-rejection: [Static type checking] - old-bug rejection",
        "{evidence}"
    );
    assert_eq!(of("LOOKALIKE")["verdict"], "accepted", "{evidence}");
    assert_eq!(of("LOOKALIKE")["kind"], Value::Null, "{evidence}");
    let finding: Value = serde_json::from_str(
        &std::fs::read_to_string(known_dirs[0].join("finding.json")).expect("finding.json"),
    )
    .expect("JSON");
    assert_eq!(finding["known"]["id"], "MINE-1");
    assert!(
        finding["known"]["evidence"]
            .as_str()
            .is_some_and(|e| e.contains("same signature with groovy@fake")),
        "{finding}"
    );
    // the compiler's output kept with the finding names the file, not where it was compiled
    let output = std::fs::read_to_string(known_dirs[0].join("compiler-output.txt"))
        .expect("compiler-output.txt");
    assert!(output.contains("Test_p"), "{output}");
    assert!(
        !output.contains(&root.path().display().to_string()),
        "{output}"
    );
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
    // the counts by folder add up to the programs with findings
    assert!(
        table.contains(&format!(
            "where: bugs/ 1 distinct ({fresh} programs), known/ 1 distinct ({old} programs)"
        )),
        "{table}"
    );
    assert_eq!(table.matches("findings:").count(), 1, "{table}");
    assert_eq!(table.matches("distinct findings").count(), 1, "{table}");
}

#[test]
fn the_next_campaign_on_a_release_reuses_the_entries_verdicts_without_compiling_them() {
    let root = tempfile::tempdir().expect("tempdir");
    let (toolchains, programs, known) = fixture(root.path());
    let check = |store: &Path| {
        thalia(&toolchains)
            .arg("check")
            .arg(&programs)
            .args([
                "--compiler",
                "groovy@fake",
                "--no-twin",
                "--no-recheck",
                "-j",
                "1",
            ])
            .arg("--known")
            .arg(&known)
            .arg("--out")
            .arg(store)
            .assert()
            .success()
            .stdout(predicates::str::contains("[known MINE-1]"));
    };
    check(&root.path().join("first"));
    // the same compiler, now logging what it compiles
    let log = root.path().join("compiled.log");
    let logging = format!("    *.groovy)\n      echo \"$a\" >> '{}'\n", log.display());
    fake_groovyc(
        &toolchains,
        "fake",
        &FAKE.replacen("    *.groovy)\n", &logging, 1),
    );
    let second = root.path().join("second");
    check(&second);
    let compiled = std::fs::read_to_string(&log).expect("the campaign compiled");
    assert!(compiled.contains("Test_"), "{compiled}");
    // the entries' programs were not compiled again, and their verdicts are the run's
    assert!(!compiled.contains("Main.groovy"), "{compiled}");
    let evidence: Value = serde_json::from_str(
        &std::fs::read_to_string(second.join("known-evidence.json")).expect("evidence kept"),
    )
    .expect("JSON");
    assert_eq!(
        evidence["groovy@fake"]["MINE-1"]["verdict"], "rejected",
        "{evidence}"
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
