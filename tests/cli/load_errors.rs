//! Bad input is reported with the file, the member and the offending text, and loading the
//! rest goes on: malformed JSON, an unknown type syntax, a bad type string, a dangling
//! supertype.

use std::fs;
use std::path::Path;

use thalia::api::{Api, IssueKind, Skipped};

fn write(dir: &Path, name: &str, text: &str) {
    fs::write(dir.join(name), text).unwrap();
}

const GOOD: &str = r#"{
  "name": "p.Box", "type_parameters": ["T extends java.lang.Comparable<? super T>"],
  "implements": [], "inherits": ["p.Base<T>"], "class_type": 0,
  "methods": [
    {"name": "get", "parameters": [], "type_parameters": [], "return_type": "T",
     "is_static": false, "is_constructor": false, "access_mod": "public"},
    {"name": "broken", "parameters": ["java.util.List<T"], "type_parameters": [], "return_type": "void",
     "is_static": false, "is_constructor": false, "access_mod": "public"},
    {"name": "Box", "parameters": ["T"], "type_parameters": [], "return_type": null,
     "is_static": false, "is_constructor": true, "access_mod": "public"}
  ],
  "fields": [{"name": "VALUE", "type": "int", "is_static": true, "access_mod": "public"}],
  "parent": null, "access_mod": "public", "language": "java"
}"#;

fn fixture() -> (tempfile::TempDir, Api) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.Box.json", GOOD);
    write(
        dir.path(),
        "p.Bad.json",
        "{\"name\": \"p.Bad\",\n \"methods\": [,]}",
    );
    write(
        dir.path(),
        "p.Rusty.json",
        r#"{"name": "p.Rusty", "methods": [], "language": "rust"}"#,
    );
    let api = Api::load_dir(dir.path()).unwrap();
    (dir, api)
}

#[test]
fn the_good_parts_still_load() {
    let (_d, api) = fixture();
    let cid = api.class_by_name("p.Box").expect("p.Box loads");
    assert_eq!(
        api.class(cid).members.len(),
        3,
        "get, the constructor and VALUE"
    );
    assert!(api.class_by_name("p.Bad").is_none());
    assert!(api.class_by_name("p.Rusty").is_none());
    assert_eq!(api.report.files, 3);
    assert_eq!(api.report.members_seen, 4);
}

#[test]
fn malformed_json_names_the_file_and_position() {
    let (_d, api) = fixture();
    let i = api
        .report
        .issues
        .iter()
        .find(|i| i.kind == IssueKind::MalformedJson)
        .expect("malformed JSON reported");
    assert_eq!(i.skipped, Skipped::File);
    let msg = i.to_string();
    assert!(msg.contains("p.Bad.json"), "{msg}");
    assert!(msg.contains("line 2"), "{msg}");
}

#[test]
fn unknown_type_syntax_is_reported() {
    let (_d, api) = fixture();
    let i = api
        .report
        .issues
        .iter()
        .find(|i| i.kind == IssueKind::UnknownSyntax)
        .expect("unknown syntax reported");
    let msg = i.to_string();
    assert!(msg.contains("p.Rusty.json"), "{msg}");
    assert!(msg.contains("unknown type syntax `rust`"), "{msg}");
}

#[test]
fn bad_type_string_names_file_member_and_text() {
    let (_d, api) = fixture();
    let i = api
        .report
        .issues
        .iter()
        .find(|i| i.kind == IssueKind::BadTypeString)
        .expect("bad type string reported");
    assert_eq!(i.skipped, Skipped::Member);
    let msg = i.to_string();
    assert!(msg.contains("p.Box.json"), "{msg}");
    assert!(msg.contains("p.Box.broken"), "{msg}");
    assert!(msg.contains("`java.util.List<T`"), "{msg}");
    assert!(msg.contains("expected `>`"), "{msg}");
}

#[test]
fn dangling_supertype_is_reported_and_kept_opaque() {
    let (_d, api) = fixture();
    let i = api
        .report
        .issues
        .iter()
        .find(|i| i.kind == IssueKind::DanglingSupertype)
        .expect("dangling supertype reported");
    let msg = i.to_string();
    assert!(msg.contains("p.Box.json"), "{msg}");
    assert!(msg.contains("`p.Base`"), "{msg}");
    let cid = api.class_by_name("p.Box").unwrap();
    assert_eq!(api.class(cid).inherits.len(), 1, "the supertype is kept");
}

#[test]
fn summary_counts_what_was_skipped_and_why() {
    let (_d, api) = fixture();
    let s = api.report.summary();
    assert!(s.contains("skipped 2 of 3 files"), "{s}");
    assert!(s.contains("malformed JSON: 1"), "{s}");
    assert!(s.contains("unknown type syntax: 1"), "{s}");
    assert!(
        s.contains("skipped 1 of 4 members (unparsable type string: 1)"),
        "{s}"
    );
    assert!(s.contains("1 warnings (dangling supertype: 1)"), "{s}");
}

#[test]
fn a_rewrite_keeps_the_member_that_did_not_load() {
    let (_d, api) = fixture();
    let out = tempfile::tempdir().unwrap();
    api.write_dir(out.path()).unwrap();
    let back: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.path().join("p.Box.json")).unwrap()).unwrap();
    let orig: serde_json::Value = serde_json::from_str(GOOD).unwrap();
    assert_eq!(back, orig);
}

#[test]
fn missing_directory_is_an_error() {
    let e = Api::load_dir(Path::new("/nonexistent/api")).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/api"), "{e}");
}
