//! `online_*`: bisection of a real groovyc finding over the releases on Maven Central (through
//! the user's Maven configuration). A groovy 4.0.11 campaign judges a program that assigns an
//! enum's `values()` array to `Cloneable` (RB4 in `known-findings/`: groovyc 4 rejects arrays
//! assigned to `Cloneable`); bisection over the stable 4.0.x-5.x releases must find it present
//! in 4.0.11 and fixed in a 5.x release, and print the range.

use crate::support::fake;

use fake::{lines, sample_api, thalia};
use serde_json::Value;

/// The program: well-typed Java, rejected by groovyc 4.0.11.
const RB4: &str = "java.lang.Cloneable x = java.time.DayOfWeek.values();";

#[test]
fn online_a_real_groovyc_finding_is_bisected_over_maven_releases() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("toolchains");
    let programs = root.path().join("programs");
    thalia(&tc)
        .args([
            "synth",
            "--lang",
            "groovy",
            "--mode",
            "well-typed",
            "-n",
            "1",
            "--seed",
            "1",
            "--api",
        ])
        .arg(sample_api())
        .arg("--out")
        .arg(&programs)
        .assert()
        .success();
    // the one program's body becomes the RB4 statement
    let record = lines(&programs.join("programs.jsonl")).remove(0);
    let file = programs.join(record["file"].as_str().expect("file"));
    let source = std::fs::read_to_string(&file).expect("source");
    // the test method may be generic (`static <T> void test()`): its body opens after `test(`
    let head = source.find(" void test(").expect("a test method");
    let open = head + source[head..].find("{\n").expect("its body") + 1;
    let close = open + source[open..].find("\n    }").expect("its end");
    let patched = format!("{}\n        {RB4}{}", &source[..open], &source[close..]);
    std::fs::write(&file, patched).expect("write");
    let store = root.path().join("store");
    thalia(&tc)
        .arg("check")
        .arg(&programs)
        .args([
            "--compiler",
            "groovy@4.0.11",
            "--no-twin",
            "-j",
            "1",
            "--out",
        ])
        .arg(&store)
        .assert()
        .success();
    // RB4 is a known bug: its finding is under known/
    let bug = std::fs::read_dir(store.join("known"))
        .expect("a known finding")
        .flatten()
        .map(|e| e.path())
        .next()
        .expect("one known finding");
    let out = thalia(&tc)
        .arg("bisect")
        .arg(&bug)
        .args(["--from", "4.0.0", "--to", "5.99"])
        .output()
        .expect("runs");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success());
    let range = String::from_utf8_lossy(&out.stdout);
    println!("RB4 range: {range}");
    let b: Value = serde_json::from_str(
        &std::fs::read_to_string(bug.join("bisect.json")).expect("bisect.json"),
    )
    .expect("JSON");
    let fixed = b["fixed"].as_str().expect("a release fixed it");
    assert!(fixed.starts_with('5'), "{b}");
    assert!(
        b["last_affected"]
            .as_str()
            .is_some_and(|v| v.starts_with('4')),
        "{b}"
    );
}
