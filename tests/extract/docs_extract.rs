//! `thalia extract --docs` and `thalia api diff` end to end: the Java sources of
//! `extractors/tests/fixtures/docs/src` (a generic class with bounded type parameters, an
//! interface, an enum, a record, an annotation type, nested static and inner classes, varargs,
//! throws, deprecated members, overloaded constructors, fields and constants, a package-private
//! superclass, a sealed interface with records, a `non-sealed` class and a nested enum) are
//! documented by JDK 17's `javadoc` (on the PATH) and by the Temurin JDK 25's
//! (the JDK 21+ layout), compiled by `javac` and extracted from bytecode; `api diff` finds no
//! difference but the documented ones. Then broken documentation: a truncated page, a page of
//! an unknown layout and a page missing from a jar are named and skipped.

use crate::support::require;

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::Command as Cmd;
use serde_json::Value;

/// The javadoc of the JDK 21+ layout (`THALIA_JAVADOC21` overrides).
const TEMURIN_JAVADOC: &str = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/javadoc";

/// The differences documentation cannot avoid on these sources, as `(kind, class, member)`:
/// none. Parameter names are not compared (bytecode has none). `dx.Sub` implements
/// `Cloneable` through its package-private superclass, which javadoc shows only among "All
/// Implemented Interfaces": the extractor recovers it from there. (On guava the differences
/// that remain are listed in docs/doc-extraction.md.)
const DOCUMENTED_EXCEPTIONS: &[(&str, &str, Option<&str>)] = &[];

fn thalia() -> Cmd {
    Cmd::cargo_bin("thalia").unwrap()
}

fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("extractors/tests/fixtures/docs/src")
}

fn work(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs-extract")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn runs(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(java_files(&p));
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn run_javadoc(javadoc: &str, out: &Path, extra: &[&str]) {
    let o = Command::new(javadoc)
        .args(extra)
        .args(["-quiet", "-d"])
        .arg(out)
        .arg("-sourcepath")
        .arg(sources())
        .args(["-subpackages", "dx"])
        .output()
        .expect("run javadoc");
    assert!(
        o.status.success(),
        "{javadoc} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The bytecode API of the fixture (javac, then `thalia extract`).
fn bytecode_api(dir: &Path) -> PathBuf {
    let classes = dir.join("classes");
    let o = Command::new("javac")
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .args(java_files(&sources()))
        .output()
        .expect("run javac");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let api = dir.join("bytecode");
    thalia()
        .arg("extract")
        .arg(&classes)
        .arg("--out")
        .arg(&api)
        .assert()
        .success();
    api
}

/// Extracts documentation with `thalia extract --docs`, returning the API and stderr.
fn docs_api(html: &Path, out: &Path) -> String {
    let o = thalia()
        .args(["extract", "--docs"])
        .arg(html)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    String::from_utf8_lossy(&o.get_output().stderr).into_owned()
}

fn diff_json(a: &Path, b: &Path) -> Value {
    let o = thalia()
        .args(["api", "diff", "--json"])
        .arg(a)
        .arg(b)
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout).expect("api diff --json prints JSON")
}

fn check_layout(javadoc: &str, extra: &[&str], layout: &str, dir: &Path) {
    let html = dir.join("html");
    run_javadoc(javadoc, &html, extra);
    let bytecode = bytecode_api(dir);
    let docs = dir.join("docs");
    let stderr = docs_api(&html, &docs);
    assert!(stderr.contains(&format!("17 {layout}")), "{stderr}");
    assert!(stderr.contains("0 problems"), "{stderr}");
    let d = diff_json(&docs, &bytecode);
    let diffs: Vec<(String, String, Option<String>)> = d["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["kind"].as_str().unwrap().to_string(),
                x["class"].as_str().unwrap().to_string(),
                x["member"].as_str().map(str::to_string),
            )
        })
        .collect();
    let expected: Vec<(String, String, Option<String>)> = DOCUMENTED_EXCEPTIONS
        .iter()
        .map(|(k, c, m)| (k.to_string(), c.to_string(), m.map(str::to_string)))
        .collect();
    assert_eq!(diffs, expected, "{layout}: {d:#}");
    let c = &d["counts"];
    assert_eq!(c["classes_a"], c["classes_b"]);
    assert_eq!(c["classes_common"], c["classes_a"]);
    assert_eq!(c["members_equal"], c["members_a"], "{c}");
    // every constructor of modern javadoc's "Constructor Details" is there: Box has four
    let box_json: Value =
        serde_json::from_str(&std::fs::read_to_string(docs.join("dx.Box.json")).unwrap()).unwrap();
    let ctors: Vec<&Value> = box_json["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["is_constructor"] == true)
        .collect();
    assert_eq!(ctors.len(), 4);
    let varargs = ctors.iter().find(|m| m["is_varargs"] == true).unwrap();
    assert_eq!(varargs["parameters"], serde_json::json!(["K", "T..."]));
    assert_eq!(
        varargs["parameter_names"],
        serde_json::json!(["key", "rest"])
    );
    // the text report says the same
    let o = thalia()
        .args(["api", "diff"])
        .arg(&docs)
        .arg(&bytecode)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("no differences"), "{text}");
    let sub: Value =
        serde_json::from_str(&std::fs::read_to_string(docs.join("dx.Sub.json")).unwrap()).unwrap();
    assert_eq!(
        sub["implements"],
        serde_json::json!(["java.lang.Cloneable"])
    );
    // a changed API is reported, with the exit code 1
    let changed = dir.join("changed");
    std::fs::create_dir_all(&changed).unwrap();
    for e in std::fs::read_dir(&docs).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, changed.join(p.file_name().unwrap())).unwrap();
    }
    let point = changed.join("dx.Point.json");
    let text = std::fs::read_to_string(&point).unwrap();
    std::fs::write(&point, text.replace("\"origin\"", "\"start\"")).unwrap();
    std::fs::remove_file(changed.join("dx.Marker.json")).unwrap();
    let o = thalia()
        .args(["api", "diff"])
        .arg(&changed)
        .arg(&bytecode)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("missing class (1):\n  dx.Marker: only in B"),
        "{text}"
    );
    assert!(text.contains("dx.Point.start(): only in A"), "{text}");
    assert!(text.contains("dx.Point.origin(): only in B"), "{text}");
}

#[test]
fn javadoc_17_agrees_with_bytecode() {
    if !runs("javadoc") || !runs("javac") {
        require::missing_tool(
            "javadoc_17_agrees_with_bytecode",
            "javadoc/javac not on PATH",
        );
        return;
    }
    check_layout("javadoc", &[], "javadoc-17", &work("jdk17"));
}

/// Without links to the JDK's documentation, javadoc prints the JDK's types unlinked:
/// qualified, but for `java.lang`'s.
#[test]
fn javadoc_17_without_platform_links_agrees_with_bytecode() {
    if !runs("javadoc") || !runs("javac") {
        require::missing_tool(
            "javadoc_17_without_platform_links_agrees_with_bytecode",
            "javadoc/javac not on PATH",
        );
        return;
    }
    check_layout(
        "javadoc",
        &["--no-platform-links"],
        "javadoc-17",
        &work("jdk17-unlinked"),
    );
}

#[test]
fn javadoc_21_plus_agrees_with_bytecode() {
    let javadoc = std::env::var("THALIA_JAVADOC21").unwrap_or_else(|_| TEMURIN_JAVADOC.into());
    if !runs(&javadoc) || !runs("javac") {
        require::missing_tool(
            "javadoc_21_plus_agrees_with_bytecode",
            &format!("{javadoc} (a JDK 21+ javadoc; THALIA_JAVADOC21) or javac missing"),
        );
        return;
    }
    check_layout(&javadoc, &[], "javadoc-21+", &work("jdk21"));
}

#[test]
fn broken_pages_are_named_and_skipped() {
    if !runs("javadoc") || !runs("jar") {
        require::missing_tool(
            "broken_pages_are_named_and_skipped",
            "javadoc/jar not on PATH",
        );
        return;
    }
    let dir = work("broken");
    let html = dir.join("html");
    run_javadoc("javadoc", &html, &[]);
    // a truncated page, a page of no known layout, a page missing
    let bx = html.join("dx/Box.html");
    let text = std::fs::read_to_string(&bx).unwrap();
    std::fs::write(&bx, &text[..text.len() / 2]).unwrap();
    std::fs::write(
        html.join("dx/Shape.html"),
        "<!DOCTYPE html><html><head><title>Shape</title></head><body><p>hand-written</p></body></html>",
    )
    .unwrap();
    std::fs::remove_file(html.join("dx/Color.html")).unwrap();
    let jar = dir.join("broken-javadoc.jar");
    let o = Command::new("jar")
        .arg("cf")
        .arg(&jar)
        .arg("-C")
        .arg(&html)
        .arg(".")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (input, out) in [
        (&html, dir.join("from-folder")),
        (&jar, dir.join("from-jar")),
    ] {
        let stderr = docs_api(input, &out);
        for (page, why) in [
            ("dx/Box.html", "truncated"),
            ("dx/Shape.html", "unknown documentation layout"),
            (
                "dx/Color.html",
                "listed in allclasses-index.html but missing",
            ),
        ] {
            assert!(
                stderr.lines().any(|l| l.contains(page) && l.contains(why)),
                "no `{why}` for {page}:\n{stderr}"
            );
        }
        assert!(stderr.contains("3 problems"), "{stderr}");
        // the others are extracted
        for class in ["dx.Point", "dx.Marker", "dx.Box.Inner", "dx.util.Pair"] {
            assert!(
                out.join(format!("{class}.json")).is_file(),
                "{class} missing from {}",
                out.display()
            );
        }
        assert!(!out.join("dx.Box.json").exists());
    }
    // not documentation at all: a clear error
    let o = thalia()
        .args(["extract", "--docs"])
        .arg(dir.join("nothing-here"))
        .arg("--out")
        .arg(dir.join("x"))
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&o.get_output().stderr);
    assert!(stderr.contains("nothing-here"), "{stderr}");
}
