//! `thalia synth` output depends only on the seed (and API and options), never on `--jobs`;
//! `-n` selects a prefix of the run; `--only` regenerates single programs byte for byte; bad
//! ids and languages fail clearly.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// Runs `thalia synth <args> --out <out>` on the embedded API and expects success.
fn synth(args: &[&str], out: &Path) {
    let output = thalia()
        .arg("synth")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("thalia runs");
    assert!(
        output.status.success(),
        "thalia synth {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every file of `dir` (no subdirectories are expected), by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let e = e.expect("directory entry");
            assert!(
                e.path().is_file(),
                "unexpected non-file {}",
                e.path().display()
            );
            let name = e.file_name().to_string_lossy().into_owned();
            (name, fs::read(e.path()).expect("readable file"))
        })
        .collect()
}

fn java_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files(dir)
        .into_iter()
        .filter(|(n, _)| n.ends_with(".java"))
        .collect()
}

fn manifest(dir: &Path) -> String {
    fs::read_to_string(dir.join("programs.jsonl")).expect("programs.jsonl exists")
}

/// The manifest's lines by program id.
fn manifest_lines(dir: &Path) -> BTreeMap<String, String> {
    manifest(dir)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON record");
            let id = v["id"].as_str().expect("an id").to_owned();
            (id, l.to_owned())
        })
        .collect()
}

/// Asserts that two output directories hold the same files with the same bytes.
fn assert_same_dirs(a: &Path, b: &Path, what: &str) {
    let fa = files(a);
    let fb = files(b);
    let names_a: Vec<&String> = fa.keys().collect();
    let names_b: Vec<&String> = fb.keys().collect();
    assert_eq!(names_a, names_b, "{what}: different file sets");
    for (name, bytes) in &fa {
        assert!(
            bytes == &fb[name],
            "{what}: {name} differs:\n--- {}\n{}\n--- {}\n{}",
            a.display(),
            String::from_utf8_lossy(bytes),
            b.display(),
            String::from_utf8_lossy(&fb[name])
        );
    }
}

fn jobs_do_not_change_the_output(mode_args: &[&str]) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let one = tmp.path().join("jobs1");
    let four = tmp.path().join("jobs4");
    let base = [&["-n", "400", "--seed", "4242"][..], mode_args].concat();
    synth(&[&base[..], &["--jobs", "1"][..]].concat(), &one);
    synth(&[&base[..], &["--jobs", "4"][..]].concat(), &four);
    let what = format!("{mode_args:?}, --jobs 1 vs --jobs 4");
    let java = java_files(&one);
    assert_eq!(java.len(), 400, "{what}: expected 400 programs");
    assert_eq!(manifest(&one).lines().count(), 400, "{what}");
    assert!(
        one.join("summary.json").is_file(),
        "{what}: no summary.json"
    );
    // Every .java file, programs.jsonl and summary.json.
    assert_same_dirs(&one, &four, &what);
}

#[test]
fn jobs_do_not_change_ill_typed_output() {
    jobs_do_not_change_the_output(&["--mode", "ill-typed"]);
}

#[test]
fn jobs_do_not_change_erased_well_typed_output() {
    jobs_do_not_change_the_output(&["--mode", "well-typed", "--erase"]);
}

#[test]
fn different_seeds_give_different_programs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    synth(&["-n", "100", "--seed", "1", "--jobs", "2"], &a);
    synth(&["-n", "100", "--seed", "2", "--jobs", "2"], &b);
    assert_ne!(
        manifest(&a),
        manifest(&b),
        "seeds 1 and 2 gave the same manifest"
    );
}

#[test]
fn smaller_count_is_a_prefix() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let small = tmp.path().join("n50");
    let large = tmp.path().join("n200");
    synth(&["-n", "50", "--seed", "77", "--jobs", "2"], &small);
    synth(&["-n", "200", "--seed", "77", "--jobs", "2"], &large);

    let small_java = java_files(&small);
    let large_java = java_files(&large);
    assert_eq!(small_java.len(), 50);
    assert_eq!(large_java.len(), 200);
    for (name, bytes) in &small_java {
        let other = large_java
            .get(name)
            .unwrap_or_else(|| panic!("{name} of -n 50 is missing from -n 200"));
        assert!(
            bytes == other,
            "{name} differs between -n 50 and -n 200:\n{}\n---\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(other)
        );
    }
    let small_lines: Vec<String> = manifest(&small).lines().map(str::to_owned).collect();
    let large_lines: Vec<String> = manifest(&large).lines().map(str::to_owned).collect();
    assert_eq!(small_lines.len(), 50);
    assert_eq!(
        small_lines[..],
        large_lines[..50],
        "programs.jsonl of -n 50 is not a prefix of -n 200's"
    );
}

#[test]
fn only_regenerates_single_programs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let full = tmp.path().join("full");
    let again = tmp.path().join("again");
    synth(&["-n", "200", "--seed", "99", "--jobs", "2"], &full);
    let ids = ["p000003", "p000117", "p000199"];
    let full_lines = manifest_lines(&full);
    for id in ids {
        assert!(full_lines.contains_key(id), "{id} not in the -n 200 run");
    }

    synth(
        &[
            "--seed", "99", "--jobs", "2", "--only", ids[2], "--only", ids[0], "--only", ids[1],
        ],
        &again,
    );
    let regenerated = java_files(&again);
    let names: Vec<&String> = regenerated.keys().collect();
    let expected: Vec<String> = ids.iter().map(|id| format!("Test_{id}.java")).collect();
    assert_eq!(
        names,
        expected.iter().collect::<Vec<_>>(),
        "--only wrote other files"
    );
    let originals = java_files(&full);
    for (name, bytes) in &regenerated {
        assert!(
            bytes == &originals[name],
            "regenerated {name} differs from the original:\n{}\n---\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&originals[name])
        );
    }
    let lines = manifest(&again);
    assert_eq!(lines.lines().count(), 3, "programs.jsonl:\n{lines}");
    let again_lines = manifest_lines(&again);
    for id in ids {
        assert_eq!(
            again_lines.get(id),
            full_lines.get(id),
            "the manifest line of {id} differs"
        );
    }
}

#[test]
fn only_beyond_the_run_fails_clearly() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let output = thalia()
        .args(["synth", "--seed", "5", "--only", "p999999", "--out"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "succeeded:\n{stderr}");
    assert!(
        stderr.contains("p999999"),
        "the error does not name the id:\n{stderr}"
    );
    assert!(
        stderr.contains("does not exist"),
        "unclear error:\n{stderr}"
    );
    assert!(!out.join("Test_p999999.java").exists());
}

#[test]
fn unknown_language_fails_clearly() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let output = thalia()
        .args([
            "synth", "--lang", "cobol", "-n", "5", "--seed", "1", "--out",
        ])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "succeeded:\n{stderr}");
    assert!(
        stderr.contains("cobol") && stderr.contains("--lang"),
        "unclear error:\n{stderr}"
    );
    assert!(!out.exists(), "no output directory for a refused run");
}
