//! Java nullability annotations as Kotlin sees them (issue #15, item 4): a Java library
//! compiled in the test with the annotations kotlinc honours (JetBrains', JSR-305's
//! `javax.annotation`, a JSpecify type-use annotation), extracted from its jar, and Kotlin
//! programs synthesized from it in both modes and compiled by the real kotlinc.
//!
//! The annotation types are declared in the test under their real names: kotlinc reads them by
//! name, so the library needs no annotation jar.

use crate::support::javac;
use crate::support::require;

use std::path::{Path, PathBuf};
use std::process::Command as Proc;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// The annotation types, and a library whose members carry them.
const SOURCES: &[(&str, &str)] = &[
    (
        "org/jetbrains/annotations/Nullable.java",
        "package org.jetbrains.annotations;\n\
         import java.lang.annotation.*;\n\
         @Retention(RetentionPolicy.CLASS)\n\
         @Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})\n\
         public @interface Nullable {}\n",
    ),
    (
        "org/jetbrains/annotations/NotNull.java",
        "package org.jetbrains.annotations;\n\
         import java.lang.annotation.*;\n\
         @Retention(RetentionPolicy.CLASS)\n\
         @Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})\n\
         public @interface NotNull {}\n",
    ),
    (
        "javax/annotation/CheckForNull.java",
        "package javax.annotation;\n\
         import java.lang.annotation.*;\n\
         @Retention(RetentionPolicy.RUNTIME)\n\
         public @interface CheckForNull {}\n",
    ),
    (
        "org/jspecify/annotations/Nullable.java",
        "package org.jspecify.annotations;\n\
         import java.lang.annotation.*;\n\
         @Retention(RetentionPolicy.RUNTIME)\n\
         @Target(ElementType.TYPE_USE)\n\
         public @interface Nullable {}\n",
    ),
    (
        "org/jspecify/annotations/NullMarked.java",
        "package org.jspecify.annotations;\n\
         import java.lang.annotation.*;\n\
         @Retention(RetentionPolicy.RUNTIME)\n\
         @Target({ElementType.MODULE, ElementType.PACKAGE, ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR})\n\
         public @interface NullMarked {}\n",
    ),
    (
        "org/jspecify/annotations/NullUnmarked.java",
        "package org.jspecify.annotations;\n\
         import java.lang.annotation.*;\n\
         @Retention(RetentionPolicy.RUNTIME)\n\
         @Target({ElementType.PACKAGE, ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR})\n\
         public @interface NullUnmarked {}\n",
    ),
    // a JSpecify `@NullMarked` package: unannotated types are not-null (Kotlin: errors)
    (
        "nm/package-info.java",
        "@org.jspecify.annotations.NullMarked\npackage nm;\n",
    ),
    (
        "nm/Tags.java",
        "package nm;\n\
         public final class Tags {\n\
         \x20   private Tags() {}\n\
         \x20   public static String join(String a, String b) { return a + b; }\n\
         \x20   public static <T> T first(T t) { return t; }\n\
         \x20   public static @org.jspecify.annotations.Nullable String find(String key) { return null; }\n\
         \x20   public static int size(@org.jspecify.annotations.Nullable String s) { return 0; }\n\
         \x20   @org.jspecify.annotations.NullUnmarked public static String loose(String s) { return s; }\n\
         \x20   public static java.util.List<@org.jspecify.annotations.Nullable String> names() { return null; }\n\
         \x20   public static int total(java.util.Map<String, ? extends java.util.List<@org.jspecify.annotations.Nullable Integer>> m) { return 0; }\n\
         \x20   @org.jspecify.annotations.NullUnmarked public static final class Old {\n\
         \x20       private Old() {}\n\
         \x20       public static String trim(String s) { return s; }\n\
         \x20   }\n\
         }\n",
    ),
    // type parameters of a `@NullMarked` scope are not-null unless their bound is annotated
    // nullable (Kotlin: `Cell<String?>` is an error, `Loose<String?>` is not)
    (
        "nm/Cell.java",
        "package nm;\n\
         public class Cell<T> {\n\
         \x20   public Cell(T value) {}\n\
         \x20   public T get() { return null; }\n\
         \x20   public static <U> Cell<U> of(U u) { return new Cell<U>(u); }\n\
         }\n",
    ),
    (
        "nm/Loose.java",
        "package nm;\n\
         public class Loose<T extends @org.jspecify.annotations.Nullable Object> {\n\
         \x20   public Loose(T value) {}\n\
         \x20   public T get() { return null; }\n\
         }\n",
    ),
    // a `@NullMarked` class in a package that is not
    (
        "nl/Marked.java",
        "package nl;\n\
         @org.jspecify.annotations.NullMarked public final class Marked {\n\
         \x20   private Marked() {}\n\
         \x20   public static Box wrap(Box b, int n) { return b; }\n\
         }\n",
    ),
    (
        "nl/Box.java",
        "package nl;\n\
         public class Box {\n\
         \x20   public Box(String label) {}\n\
         \x20   public String label() { return \"\"; }\n\
         \x20   @javax.annotation.CheckForNull public String find(String key) { return null; }\n\
         \x20   public @org.jspecify.annotations.Nullable Box parent() { return null; }\n\
         \x20   @org.jetbrains.annotations.Nullable public Integer size() { return null; }\n\
         \x20   public int count(@org.jetbrains.annotations.Nullable String key) { return 0; }\n\
         \x20   public Box child(String name) { return this; }\n\
         \x20   @org.jetbrains.annotations.Nullable public String note;\n\
         }\n",
    ),
    (
        "nl/Boxes.java",
        "package nl;\n\
         public final class Boxes {\n\
         \x20   private Boxes() {}\n\
         \x20   public static Box of(@org.jetbrains.annotations.NotNull String label) { return new Box(label); }\n\
         \x20   public static @org.jetbrains.annotations.Nullable Box none() { return null; }\n\
         \x20   public static String describe(@org.jetbrains.annotations.NotNull Box b, String suffix) { return \"\"; }\n\
         \x20   public static Box merge(Box a, Box b) { return a; }\n\
         }\n",
    ),
];

/// Builds the library's jar in `dir` and extracts its API into `dir/api`: (jar, API directory).
fn library(dir: &Path) -> (PathBuf, PathBuf) {
    javac::library(dir, "nl", SOURCES)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON")
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("read")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The method document named `name` of a class document.
fn method<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["methods"]
        .as_array()
        .and_then(|ms| ms.iter().find(|m| m["name"] == name))
        .unwrap_or_else(|| panic!("no method {name}"))
}

#[test]
fn extraction_records_the_annotations_kotlin_honours() {
    if !javac::javac_available() {
        require::missing_tool("extraction_records_the_annotations_kotlin_honours", "javac");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (_, api) = library(tmp.path());
    let b = read_json(&api.join("nl.Box.json"));
    assert_eq!(
        method(&b, "find")["other_metadata"]["nullable_return"],
        true
    );
    // a type-use annotation on the result (JSpecify)
    assert_eq!(
        method(&b, "parent")["other_metadata"]["nullable_return"],
        true
    );
    assert_eq!(
        method(&b, "size")["other_metadata"]["nullable_return"],
        true
    );
    assert_eq!(
        method(&b, "count")["other_metadata"]["nullable_parameters"],
        serde_json::json!([0])
    );
    // unannotated members carry nothing
    assert!(method(&b, "label")["other_metadata"].is_null());
    assert!(method(&b, "child")["other_metadata"].is_null());
    let note = b["fields"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["name"] == "note"))
        .expect("field note");
    assert_eq!(note["nullable"], true);
    let s = read_json(&api.join("nl.Boxes.json"));
    assert_eq!(
        method(&s, "of")["other_metadata"]["not_null_parameters"],
        serde_json::json!([0])
    );
    assert_eq!(
        method(&s, "describe")["other_metadata"]["not_null_parameters"],
        serde_json::json!([0])
    );
    assert_eq!(
        method(&s, "none")["other_metadata"]["nullable_return"],
        true
    );
    assert!(method(&s, "merge")["other_metadata"].is_null());

    // JSpecify scopes: a `@NullMarked` package and class make unannotated parameters of class
    // types not-null; a type variable's and a primitive's are not; `@NullUnmarked` ends it
    let t = read_json(&api.join("nm.Tags.json"));
    assert_eq!(
        method(&t, "join")["other_metadata"]["not_null_parameters"],
        serde_json::json!([0, 1])
    );
    // a method's own type parameter is not-null there too
    assert_eq!(
        method(&t, "first")["other_metadata"],
        serde_json::json!({"not_null_type_parameters": ["T"]})
    );
    let cell = read_json(&api.join("nm.Cell.json"));
    assert_eq!(cell["not_null_type_parameters"], serde_json::json!(["T"]));
    assert_eq!(
        method(&cell, "of")["other_metadata"]["not_null_type_parameters"],
        serde_json::json!(["U"])
    );
    // but for a bound annotated nullable
    let loose = read_json(&api.join("nm.Loose.json"));
    assert!(loose["not_null_type_parameters"].is_null(), "{loose}");
    let boxes = read_json(&api.join("nl.Box.json"));
    assert!(boxes["not_null_type_parameters"].is_null());
    assert_eq!(
        method(&t, "find")["other_metadata"],
        serde_json::json!({"nullable_return": true, "not_null_parameters": [0]})
    );
    assert_eq!(
        method(&t, "size")["other_metadata"],
        serde_json::json!({"nullable_parameters": [0]})
    );
    assert!(method(&t, "loose")["other_metadata"].is_null());
    // type-use annotations inside a type, by their path (type argument, wildcard bound)
    assert_eq!(
        method(&t, "names")["other_metadata"]["nullable_return_paths"],
        serde_json::json!([[0]])
    );
    assert_eq!(
        method(&t, "total")["other_metadata"]["nullable_parameter_paths"],
        serde_json::json!([[0, [1, "?", 0]]])
    );
    let old = read_json(&api.join("nm.Tags.Old.json"));
    assert!(method(&old, "trim")["other_metadata"].is_null());
    let m = read_json(&api.join("nl.Marked.json"));
    assert_eq!(
        method(&m, "wrap")["other_metadata"]["not_null_parameters"],
        serde_json::json!([0])
    );
}

/// Synthesizes every program of one round of `mode` from `api` in Kotlin; with `nullable`,
/// every program declares nullable locals wherever Kotlin's null-safety allows them.
fn synth(api: &Path, mode: &str, seed: u64, nullable: bool, out: &Path) {
    let mut cmd = thalia();
    cmd.args(["synth", "--lang", "kotlin", "--mode", mode])
        .args(["--seed", &seed.to_string()])
        .arg("--api")
        .arg(api)
        .arg("-o")
        .arg(out);
    if nullable {
        let cfg = out.with_extension("config.json");
        std::fs::write(
            &cfg,
            r#"{"swarm": {"nullable_types": 1.0, "use_probability": 1.0}}"#,
        )
        .expect("writes the synthesis config");
        cmd.arg("--synth-config").arg(cfg);
    }
    cmd.assert().success();
}

#[test]
fn kotlin_programs_respect_the_annotations_and_kotlinc_agrees() {
    if !javac::javac_available() {
        require::missing_tool(
            "kotlin_programs_respect_the_annotations_and_kotlinc_agrees",
            "javac",
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (jar, api) = library(tmp.path());
    let mut judged = 0;
    let mut nullable_results = 0;
    let mut not_null_breaks = 0;
    let mut null_marked_breaks = 0;
    let mut nullable_arguments = 0;
    let mut cell_breaks = 0;
    let mut flagged = 0;
    let mut nullable_broken = 0;
    for (mode, seed, nullable) in [
        ("well-typed", 3, false),
        ("ill-typed", 4, false),
        ("well-typed", 5, false),
        ("well-typed", 6, true),
        ("ill-typed", 7, true),
    ] {
        let out = tmp.path().join(format!("{mode}-{seed}"));
        synth(&api, mode, seed, nullable, &out);
        for r in lines(&out.join("programs.jsonl")) {
            let member = r["member"].as_str().unwrap_or("");
            // the result of an annotated-nullable member is never taken for a non-null type:
            // its local is declared nullable (or left to be inferred)
            if [" nl.Box.find(", " nl.Box.parent(", " nl.Boxes.none("]
                .iter()
                .any(|m| member.contains(m))
                && mode == "well-typed"
                && !r["typing_sequence"]["result"].is_null()
            {
                let file = out.join(r["file"].as_str().expect("file"));
                let text = std::fs::read_to_string(&file).expect("program");
                let decl = text
                    .lines()
                    .find(|l| l.trim_start().starts_with("val res"))
                    .unwrap_or_else(|| panic!("{}: no result local", file.display()));
                let (head, _) = decl.split_once(" = ").expect("an initializer");
                // (the call as a function: `val res: Supplier<nl.Box?> = Supplier { .. }`)
                assert!(
                    head.trim() == "val res"
                        || head.trim_end().ends_with('?')
                        || head.trim_end().ends_with("?>"),
                    "{member}: {decl}"
                );
                nullable_results += 1;
            }
            if r["broken"]["actual"]
                .as_str()
                .is_some_and(|a| a.ends_with('?') && a.contains("String"))
                && member.contains(" nl.Boxes.of(")
            {
                not_null_breaks += 1;
            }
            // a nullable type argument (a type-use annotation inside the result type) is
            // written where the result's type is
            if member.contains(" nm.Tags.names(") && mode == "well-typed" {
                let file = out.join(r["file"].as_str().expect("file"));
                let text = std::fs::read_to_string(&file).expect("program");
                if let Some(decl) = text
                    .lines()
                    .find(|l| l.trim_start().starts_with("val res:"))
                    // (a supertype's star projection, `MutableList<*>`, writes no element)
                    .filter(|l| l.contains("List<") && !l.contains("List<*>"))
                {
                    assert!(decl.contains("String?>"), "{member}: {decl}");
                    nullable_arguments += 1;
                }
            }
            // a parameter typed by a type parameter of a `@NullMarked` scope is not-null: an
            // ill-typed program may pass it a nullable
            if r["broken"]["actual"]
                .as_str()
                .is_some_and(|a| a.ends_with('?'))
                && member.contains("nm.Cell")
            {
                cell_breaks += 1;
            }
            if r["broken"]["actual"]
                .as_str()
                .is_some_and(|a| a.ends_with('?'))
                && [" nm.Tags.join(", " nm.Tags.find(", " nl.Marked.wrap("]
                    .iter()
                    .any(|m| member.contains(m))
            {
                null_marked_breaks += 1;
            }
        }
        thalia()
            .args([
                "check",
                "--compiler",
                "kotlin@2.4.21",
                "--server",
                "-j",
                "2",
            ])
            .arg("--classpath")
            .arg(&jar)
            .arg(&out)
            .assert()
            .success();
        let results = lines(&out.join("check-kotlin-2.4.21/results.jsonl"));
        // the flag draw is on: kotlinc's language versions below 2.1 read JSpecify's
        // annotations as warnings, so no program broken by nullability gets one
        let nullable_break: std::collections::HashSet<String> = lines(&out.join("programs.jsonl"))
            .iter()
            .filter(|r| {
                r["broken"]["actual"]
                    .as_str()
                    .is_some_and(|a| a.ends_with('?'))
            })
            .filter_map(|r| r["id"].as_str().map(String::from))
            .collect();
        for r in &results {
            let flags: Vec<&str> = r["flags"]
                .as_array()
                .map(|f| f.iter().filter_map(|x| x.as_str()).collect())
                .unwrap_or_default();
            flagged += usize::from(!flags.is_empty());
            if r["id"]
                .as_str()
                .is_some_and(|id| nullable_break.contains(id))
            {
                nullable_broken += 1;
                assert!(
                    flags != ["-language-version", "2.0"],
                    "{}: {} under {flags:?}",
                    r["id"],
                    r["member"]
                );
            }
        }
        for r in &results {
            // a known kotlinc bug is no false alarm of the generator (TH9: a nested `if` of
            // comparators as a generic call's argument, typed `Comparator<CapturedType(out
            // Any!)>`, in a program with paths through function-taking members)
            if !r["finding"]["known"].is_null() {
                continue;
            }
            assert!(
                r["finding"].is_null(),
                "{mode} {}: {} ({})",
                r["id"],
                r["member"],
                r["diagnostics"][0].as_str().unwrap_or("")
            );
        }
        judged += results.len();
    }
    assert!(judged >= 30, "only {judged} programs");
    assert!(flagged > 0, "no program got a drawn flag set");
    assert!(nullable_broken > 0, "no program is broken by nullability");
    assert!(
        nullable_results > 0,
        "no program takes an annotated-nullable result"
    );
    assert!(
        not_null_breaks > 0,
        "no ill-typed program passes a nullable to @NotNull"
    );
    assert!(
        nullable_arguments > 0,
        "no program declares the result of a type with a nullable type argument"
    );
    assert!(
        cell_breaks > 0,
        "no ill-typed program passes a nullable for a not-null type parameter"
    );
    assert!(
        null_marked_breaks > 0,
        "no ill-typed program passes a nullable to a parameter of a @NullMarked scope"
    );
}

/// The flag sets of kotlinc release `version` that read Java's nullability annotations as
/// Kotlin does by default are exactly those `campaign::flags` draws for programs broken by
/// nullability: with the others (`-language-version 2.0`), kotlinc accepts a nullable
/// argument for a parameter a JSpecify `@NullMarked` scope makes not-null.
#[test]
fn kotlinc_reads_jspecify_leniently_under_exactly_the_flag_sets_marked_so() {
    let test = "kotlinc_reads_jspecify_leniently_under_exactly_the_flag_sets_marked_so";
    if !javac::javac_available() {
        require::missing_tool(test, "javac");
        return;
    }
    let Ok(cp) = std::env::var("THALIA_KOTLINC_CP") else {
        require::missing_tool(test, "THALIA_KOTLINC_CP is not set");
        return;
    };
    let jars: Vec<&str> = cp.split(':').collect();
    let version = jars
        .iter()
        .filter_map(|j| j.rsplit('/').next())
        .find_map(|n| {
            n.strip_prefix("kotlin-compiler-embeddable-")
                .and_then(|v| v.strip_suffix(".jar"))
        })
        .expect("kotlin-compiler-embeddable on THALIA_KOTLINC_CP");
    let stdlib = jars
        .iter()
        .find(|j| j.contains("kotlin-stdlib-") && !j.contains("jdk"))
        .expect("kotlin-stdlib on THALIA_KOTLINC_CP");
    let tmp = tempfile::tempdir().expect("tempdir");
    let jar = javac::build_jar(tmp.path(), "nl", SOURCES);
    // `s` is nullable; `first`'s `T` and `join`'s parameters are not-null in `@NullMarked nm`
    let src = tmp.path().join("Use.kt");
    std::fs::write(
        &src,
        "fun use(s: String?) {\n    val a: String? = nm.Tags.first<String>(s)\n    val b = nm.Tags.join(s, \"x\")\n}\n",
    )
    .expect("write the program");
    let accepts = |flags: &[String]| {
        let st = Proc::new("java")
            .arg("-cp")
            .arg(&cp)
            .arg("org.jetbrains.kotlin.cli.jvm.K2JVMCompiler")
            .args(["-no-stdlib", "-no-reflect", "-nowarn", "-classpath"])
            .arg(format!("{stdlib}:{}", jar.display()))
            .arg("-d")
            .arg(tmp.path().join("out"))
            .args(flags)
            .arg(&src)
            .output()
            .expect("kotlinc runs");
        st.status.success()
    };
    assert!(
        !accepts(&[]),
        "kotlinc {version} accepts the nullable argument by default"
    );
    let sets = thalia::campaign::flags::flag_sets(thalia::profile::Tool::Kotlin, version);
    assert!(
        sets.iter().any(|s| s.lenient_java_nullness),
        "no lenient set for {version}"
    );
    for set in sets {
        assert_eq!(
            accepts(&set.flags),
            set.lenient_java_nullness,
            "kotlinc {version} {:?}",
            set.flags
        );
    }
}
