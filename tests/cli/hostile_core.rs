//! Hostile input against the core: every case must end with a clear error (a `LoadIssue`, a
//! CLI message) within bounded time, never a crash, a hang or a write outside the output.
//! Each input is built here; the CLI cases run the `thalia` binary with a timeout so that a
//! hang fails the test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{json, Value};
use thalia::api::{Api, IssueKind, LoadIssue, Skipped};
use thalia::campaign::report::Report;
use thalia::campaign::setup::{CheckIdentity, RunIdentity, SessionOptions};
use thalia::campaign::store::{CompilerInfo, Manifest, ResultLine, Session, Store, QUARANTINE};
use thalia::campaign::Expected;
use thalia::toolchain::Tool;
use thalia::types::{MAX_ARRAY_DIMENSIONS, MAX_TYPE_DEPTH};

/// Wall-clock limit of one CLI invocation (a debug build on a shared machine).
const CLI_TIMEOUT: Duration = Duration::from_secs(60);

fn thalia() -> Command {
    let mut c = Command::cargo_bin("thalia").expect("the thalia binary");
    c.timeout(CLI_TIMEOUT);
    c
}

/// A method document.
fn method(name: &str, tps: &[&str], params: &[&str], ret: &str) -> Value {
    json!({
        "name": name, "type_parameters": tps, "parameters": params, "return_type": ret,
        "is_static": true, "is_constructor": false, "access_mod": "public", "throws": [],
    })
}

/// A class document.
fn class(name: &str, lang: &str, tps: &[&str], inherits: &[&str], methods: Vec<Value>) -> Value {
    json!({
        "name": name, "language": lang, "type_parameters": tps, "inherits": inherits,
        "implements": [], "class_type": 0, "methods": methods, "fields": [],
    })
}

/// Writes documents into a fresh directory, one file per document (`<file>.json`).
fn api_dir(docs: &[(&str, Value)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (file, doc) in docs {
        std::fs::write(dir.path().join(format!("{file}.json")), doc.to_string()).expect("write");
    }
    dir
}

fn issues_of(api: &Api, kind: IssueKind) -> Vec<&LoadIssue> {
    api.report
        .issues
        .iter()
        .filter(|i| i.kind == kind)
        .collect()
}

/// `open` repeated `n` times around `atom`, closed by `close`.
fn nest(open: &str, atom: &str, close: &str, n: usize) -> String {
    format!("{}{atom}{}", open.repeat(n), close.repeat(n))
}

/// The hostile type strings of the first item: ~32,700 levels in each syntax, in a type
/// parameter's bound and in a class's, and too many array dimensions.
fn deep_docs() -> Vec<(&'static str, Value)> {
    const N: usize = 32_700;
    let java = nest("java.util.List<", "java.lang.String", ">", N);
    let kotlin = nest("kotlin.collections.List<", "kotlin.String", ">", N);
    let scala = nest(
        "scala.collection.immutable.List[",
        "scala.Predef.String",
        "]",
        N,
    );
    let bound = format!("T extends {java}");
    let ok_dims = format!("int{}", "[]".repeat(MAX_ARRAY_DIMENSIONS));
    let too_many_dims = format!("int{}", "[]".repeat(MAX_ARRAY_DIMENSIONS + 1));
    let vararg_dims = format!("{ok_dims}...");
    let huge_dims = format!("int{}", "[]".repeat(20_000));
    let at_limit = nest("java.util.List<", "java.lang.String", ">", MAX_TYPE_DEPTH);
    let past_limit = nest(
        "java.util.List<",
        "java.lang.String",
        ">",
        MAX_TYPE_DEPTH + 1,
    );
    vec![
        (
            "p.DeepJ",
            class(
                "p.DeepJ",
                "java",
                &[],
                &[],
                vec![
                    method("deep", &[], &[], &java),
                    method("bound", &[&bound], &["T"], "T"),
                    method("dims", &[], &[&huge_dims], "void"),
                    method("tooManyDims", &[], &[&too_many_dims], "void"),
                    method("varargDims", &[], &[&vararg_dims], "void"),
                    method("okDims", &[], &[&ok_dims], "void"),
                    method("atLimit", &[], &[], &at_limit),
                    method("pastLimit", &[], &[], &past_limit),
                    method("fine", &[], &["java.lang.String"], "java.lang.String"),
                ],
            ),
        ),
        (
            "p.DeepK",
            class(
                "p.DeepK",
                "kotlin",
                &[],
                &[],
                vec![
                    method("deep", &[], &[], &kotlin),
                    method("fine", &[], &["kotlin.String"], "kotlin.String"),
                ],
            ),
        ),
        (
            "p.DeepS",
            class(
                "p.DeepS",
                "scala",
                &[],
                &[],
                vec![
                    method("deep", &[], &[], &scala),
                    method("fine", &[], &["scala.Int"], "scala.Int"),
                ],
            ),
        ),
        (
            "p.DeepBound",
            class("p.DeepBound", "java", &[&bound], &[], vec![]),
        ),
    ]
}

#[test]
fn deep_type_strings_and_too_many_dimensions_are_load_issues_in_every_syntax() {
    let dir = api_dir(&deep_docs());
    let start = Instant::now();
    let api = Api::load_dir(dir.path()).expect("loads");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    let bad = issues_of(&api, IssueKind::BadTypeString);
    let find = |item: &str| {
        bad.iter()
            .find(|i| i.item.as_deref().is_some_and(|x| x.starts_with(item)))
            .unwrap_or_else(|| panic!("no issue for {item}: {bad:#?}"))
    };
    for (item, file, needle) in [
        ("p.DeepJ.deep(", "p.DeepJ.json", "nested deeper than 256"),
        ("p.DeepJ.bound(", "p.DeepJ.json", "nested deeper than 256"),
        (
            "p.DeepJ.pastLimit(",
            "p.DeepJ.json",
            "nested deeper than 256",
        ),
        ("p.DeepK.deep(", "p.DeepK.json", "nested deeper than 256"),
        ("p.DeepS.deep(", "p.DeepS.json", "nested deeper than 256"),
        (
            "p.DeepBound type parameter",
            "p.DeepBound.json",
            "nested deeper",
        ),
        ("p.DeepJ.dims(", "p.DeepJ.json", "more than 255 dimensions"),
        (
            "p.DeepJ.tooManyDims(",
            "p.DeepJ.json",
            "more than 255 dimensions",
        ),
        ("p.DeepJ.varargDims(", "p.DeepJ.json", "256 dimensions"),
    ] {
        let i = find(item);
        assert!(i.file.ends_with(file), "{i}");
        assert!(i.reason.contains(needle), "{item}: {i}");
        assert!(i.text.as_ref().is_some_and(|t| !t.is_empty()), "{i}");
    }
    let loaded: Vec<String> = api
        .members
        .iter()
        .map(|m| format!("{}.{}", api.class(m.owner).name, m.name))
        .collect();
    for m in [
        "p.DeepJ.fine",
        "p.DeepJ.okDims",
        "p.DeepJ.atLimit",
        "p.DeepK.fine",
        "p.DeepS.fine",
    ] {
        assert!(loaded.iter().any(|l| l == m), "{m} missing from {loaded:?}");
    }
}

#[test]
fn deep_type_strings_end_in_a_clear_error_from_the_cli_and_synth_survives() {
    let dir = api_dir(&deep_docs());
    let out = thalia()
        .args(["api", "check"])
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string()
        + &String::from_utf8_lossy(&out.get_output().stderr);
    assert!(text.contains("nested deeper than 256 levels"), "{text}");
    assert!(!text.contains("overflow"), "{text}");
    // the offending texts are elided, not printed whole
    assert!(text.len() < 20_000, "{} bytes of output", text.len());
    thalia()
        .args(["api", "stats"])
        .arg(dir.path())
        .assert()
        .success();
    let tmp = tempfile::tempdir().expect("tempdir");
    for mode in ["well-typed", "ill-typed"] {
        thalia()
            .args([
                "synth", "-n", "20", "--seed", "1", "--jobs", "2", "--mode", mode,
            ])
            .arg("--api")
            .arg(dir.path())
            .arg("-o")
            .arg(tmp.path().join(mode))
            .assert()
            .success();
    }
}

fn cyclic_docs() -> Vec<(&'static str, Value)> {
    vec![
        (
            "p.Cyc",
            class(
                "p.Cyc",
                "java",
                &[],
                &[],
                vec![
                    method("mutual", &["T extends U", "U extends T"], &["T"], "U"),
                    method("selfBound", &["T extends T"], &["T"], "T"),
                    method(
                        "three",
                        &["A extends B", "B extends C", "C extends A"],
                        &["A"],
                        "C",
                    ),
                    method("legal", &["T extends java.lang.Comparable<T>"], &["T"], "T"),
                    method("chain", &["T", "U extends T"], &["U"], "T"),
                ],
            ),
        ),
        (
            "p.CycClass",
            class(
                "p.CycClass",
                "java",
                &["T extends U", "U extends T"],
                &[],
                vec![method("get", &[], &[], "T")],
            ),
        ),
        (
            "p.CycK",
            class(
                "p.CycK",
                "kotlin",
                &[],
                &[],
                vec![method(
                    "nullable",
                    &["T : U?", "U : T"],
                    &["T"],
                    "kotlin.Unit",
                )],
            ),
        ),
        (
            "p.CycS",
            class(
                "p.CycS",
                "scala",
                &[],
                &[],
                vec![method("lower", &["A >: B", "B >: A"], &["A"], "scala.Unit")],
            ),
        ),
        (
            "java.lang.Comparable",
            class("java.lang.Comparable", "java", &["T"], &[], vec![]),
        ),
    ]
}

#[test]
fn cyclic_type_variable_bounds_are_reported_and_dropped() {
    let dir = api_dir(&cyclic_docs());
    let api = Api::load_dir(dir.path()).expect("loads");
    let cyc = issues_of(&api, IssueKind::CyclicBound);
    let find = |item: &str| {
        *cyc.iter()
            .find(|i| i.item.as_deref().is_some_and(|x| x.starts_with(item)))
            .unwrap_or_else(|| panic!("no cycle reported for {item}: {cyc:#?}"))
    };
    let i = find("p.Cyc.mutual(");
    assert!(i.file.ends_with("p.Cyc.json"), "{i}");
    assert_eq!(i.skipped, Skipped::Member);
    assert!(i.reason.contains("T → U → T"), "{i}");
    assert!(find("p.Cyc.selfBound(").reason.contains("T → T"));
    assert!(find("p.Cyc.three(").reason.contains("A → B → C → A"));
    assert!(find("p.CycK.nullable(").reason.contains("T → U → T"));
    assert!(find("p.CycS.lower(").reason.contains("A → B → A"));
    let class_issue = find("p.CycClass type parameter");
    assert_eq!(class_issue.skipped, Skipped::HeaderEntry);
    assert!(class_issue.reason.contains("T → U → T"), "{class_issue}");
    let names: Vec<&str> = api.members.iter().map(|m| m.name.as_str()).collect();
    for kept in ["legal", "chain", "get"] {
        assert!(names.contains(&kept), "{kept} dropped: {names:?}");
    }
    for dropped in ["mutual", "selfBound", "three", "nullable", "lower"] {
        assert!(!names.contains(&dropped), "{dropped} kept");
    }
    // no bound of the class's variables reaches itself any more
    let c = api.class(api.class_by_name("p.CycClass").expect("class kept"));
    let bare: usize = c
        .type_params
        .iter()
        .map(|&v| api.ts.arena.var(v).upper.len())
        .sum();
    assert_eq!(bare, 1, "exactly one of the two bounds is dropped");
}

#[test]
fn cyclic_bounds_do_not_crash_synth_in_either_mode() {
    let dir = api_dir(&cyclic_docs());
    let out = thalia()
        .args(["api", "check"])
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("cyclic type-parameter bound"), "{text}");
    let tmp = tempfile::tempdir().expect("tempdir");
    for mode in ["well-typed", "ill-typed"] {
        thalia()
            .args([
                "synth", "-n", "20", "--seed", "1", "--jobs", "2", "--mode", mode,
            ])
            .arg("--api")
            .arg(dir.path())
            .arg("-o")
            .arg(tmp.path().join(mode))
            .assert()
            .success();
    }
}

fn inheritance_docs() -> Vec<(&'static str, Value)> {
    vec![
        (
            "p.A",
            class(
                "p.A",
                "java",
                &[],
                &["p.B"],
                vec![method("a", &[], &[], "p.A")],
            ),
        ),
        ("p.B", class("p.B", "java", &[], &["p.A"], vec![])),
        ("p.C", class("p.C", "java", &["T"], &["p.C<T>"], vec![])),
        ("p.D", class("p.D", "java", &[], &["p.A"], vec![])),
        ("p.E", class("p.E", "java", &[], &["p.F"], vec![])),
        ("p.F", class("p.F", "java", &[], &["p.G"], vec![])),
        ("p.G", class("p.G", "java", &[], &["p.E"], vec![])),
    ]
}

#[test]
fn cyclic_inheritance_is_reported_and_the_closing_edge_dropped() {
    let dir = api_dir(&inheritance_docs());
    let mut api = Api::load_dir(dir.path()).expect("loads");
    let cyc = issues_of(&api, IssueKind::CyclicInheritance);
    assert_eq!(cyc.len(), 3, "{cyc:#?}");
    let by_item = |item: &str| {
        *cyc.iter()
            .find(|i| i.item.as_deref() == Some(item))
            .unwrap_or_else(|| panic!("no cycle at {item}: {cyc:#?}"))
    };
    let b = by_item("p.B");
    assert!(b.file.ends_with("p.B.json"), "{b}");
    assert_eq!(b.skipped, Skipped::HeaderEntry);
    assert!(b.reason.contains("p.A → p.B → p.A"), "{b}");
    assert_eq!(b.text.as_deref(), Some("p.A"));
    assert!(by_item("p.C").reason.contains("p.C → p.C"));
    assert!(by_item("p.G").reason.contains("p.E → p.F → p.G → p.E"));
    // what remains is acyclic: D's chain is D, A, B and the root
    let d = api.class(api.class_by_name("p.D").expect("D")).sym;
    let d_ty = api.ts.self_type(d);
    assert!(api.ts.all_supertypes(d_ty).len() <= 4);
    let graph = thalia::graph::ApiGraph::build(&mut api);
    assert_eq!(api.classes_in_inheritance_order().len(), 7);
    assert!(graph.node_count() > 0);
    let stats = thalia::stats::GraphStats::compute(&mut api, &graph);
    assert!(
        stats.mean_inheritance_chain < 3.0,
        "{}",
        stats.mean_inheritance_chain
    );
}

#[test]
fn cyclic_inheritance_from_the_cli() {
    let dir = api_dir(&inheritance_docs());
    let out = thalia()
        .args(["api", "check"])
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("cyclic inheritance p.A → p.B → p.A"),
        "{text}"
    );
    let out = thalia()
        .args(["api", "stats", "--json"])
        .arg(dir.path())
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    let chain = v["mean_inheritance_chain"].as_f64().expect("a number");
    assert!(chain < 3.0, "{v}");
    let tmp = tempfile::tempdir().expect("tempdir");
    thalia()
        .args(["synth", "-n", "10", "--seed", "1", "--jobs", "2", "--api"])
        .arg(dir.path())
        .arg("-o")
        .arg(tmp.path())
        .assert()
        .success();
}

fn duplicate_docs(n: usize) -> Vec<(&'static str, Value)> {
    let mut methods: Vec<Value> = (0..n)
        .map(|_| method("f", &[], &["java.lang.String"], "java.lang.String"))
        .collect();
    methods.push(method("id", &["T"], &["T"], "T"));
    methods.push(method("id", &["U"], &["U"], "U"));
    methods.push(method("id", &["T extends java.lang.String"], &["T"], "T"));
    methods.push(method("f", &[], &["java.lang.Object"], "java.lang.String"));
    vec![
        ("p.Dup", class("p.Dup", "java", &[], &[], methods)),
        (
            "java.lang.String",
            class(
                "java.lang.String",
                "java",
                &[],
                &[],
                vec![
                    json!({"name": "<init>", "is_constructor": true, "parameters": [],
                            "access_mod": "public"}),
                ],
            ),
        ),
    ]
}

#[test]
fn identical_overloads_are_kept_once_with_a_warning() {
    let dir = api_dir(&duplicate_docs(2_005));
    let api = Api::load_dir(dir.path()).expect("loads");
    let dups = issues_of(&api, IssueKind::DuplicateMember);
    // 2,004 copies of f(String) and the renamed copy of <T> id(T)
    assert_eq!(dups.len(), 2_005, "{:?}", dups.first());
    assert!(dups.iter().all(|i| i.skipped == Skipped::Nothing));
    assert_eq!(api.report.error_count(), 0);
    let d = &dups[0];
    assert!(d.file.ends_with("p.Dup.json"), "{d}");
    assert_eq!(d.item.as_deref(), Some("p.Dup.f(java.lang.String)"));
    let sigs: Vec<String> = api
        .member_ids()
        .filter(|&m| api.owner(m).name == "p.Dup")
        .map(|m| api.signature(m))
        .collect();
    assert_eq!(sigs.len(), 4, "{sigs:?}");
}

#[test]
fn synth_on_identical_overloads_is_quick() {
    let dir = api_dir(&duplicate_docs(2_005));
    let tmp = tempfile::tempdir().expect("tempdir");
    let start = Instant::now();
    thalia()
        .args(["synth", "-n", "50", "--seed", "1", "--jobs", "2", "--api"])
        .arg(dir.path())
        .arg("-o")
        .arg(tmp.path())
        .assert()
        .success();
    let took = start.elapsed();
    eprintln!("synth -n 50 on 2,005 identical overloads: {took:?}");
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn a_class_name_cannot_write_outside_the_rewrite_output() {
    let base = tempfile::tempdir().expect("tempdir");
    let api = base.path().join("api");
    std::fs::create_dir_all(&api).expect("mkdir");
    let docs = [
        ("ok", class("p.Ok", "java", &[], &[], vec![])),
        ("evil1", class("/../../x/ESCAPED", "java", &[], &[], vec![])),
        ("evil2", class("../../escaped2", "java", &[], &[], vec![])),
        ("evil3", class("p/Nested", "java", &[], &[], vec![])),
    ];
    for (f, d) in &docs {
        std::fs::write(api.join(format!("{f}.json")), d.to_string()).expect("write");
    }
    let out_dir = base.path().join("deep").join("out");
    let out = thalia()
        .args(["api", "rewrite"])
        .arg(&api)
        .arg("--out")
        .arg(&out_dir)
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    // every class is written directly under the output, its name's `/` (and a leading `.`)
    // percent-encoded
    let mut written: Vec<PathBuf> = walk(base.path())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| !p.starts_with(&api))
        .collect();
    written.sort();
    let expected: Vec<PathBuf> = [
        "%2E.%2F..%2Fescaped2.json",
        "%2F..%2F..%2Fx%2FESCAPED.json",
        "p%2FNested.json",
        "p.Ok.json",
    ]
    .iter()
    .map(|f| out_dir.join(f))
    .collect();
    assert_eq!(written, expected);
    assert!(!Path::new("/x/ESCAPED.json").exists());
    // and reads back under its own name
    let back = Api::load_dir(&out_dir).expect("the output loads");
    let mut names: Vec<&str> = back.classes.iter().map(|c| c.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        ["../../escaped2", "/../../x/ESCAPED", "p.Ok", "p/Nested"]
    );
}

/// A class file for an empty public class `binary_name` (`p/A`) extending `Object`.
fn empty_class(binary_name: &str) -> Vec<u8> {
    let utf8 = |s: &str| {
        let mut v = vec![1u8];
        v.extend_from_slice(&(s.len() as u16).to_be_bytes());
        v.extend_from_slice(s.as_bytes());
        v
    };
    let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 5];
    out.extend(utf8(binary_name));
    out.extend([7, 0, 1]);
    out.extend(utf8("java/lang/Object"));
    out.extend([7, 0, 3]);
    // public super, this #2, super #4, no interfaces, fields, methods or attributes
    out.extend([0, 0x21, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
    out
}

/// A javadoc 17 class page of `p.<name>` with one method.
fn javadoc_page(name: &str) -> String {
    format!(
        "<!DOCTYPE HTML>\n<html lang=\"en\">\n<head>\n<!-- Generated by javadoc (17) -->\n\
         <meta name=\"description\" content=\"declaration: package: p, class: {name}\">\n\
         <meta name=\"generator\" content=\"javadoc/ClassWriterImpl\">\n</head>\n\
         <body class=\"class-declaration-page\">\n<main role=\"main\">\n\
         <div class=\"type-signature\"><span class=\"modifiers\">public class </span>\
         <span class=\"element-name type-name-label\">{name}</span></div>\n\
         <section class=\"details\"><ul class=\"details-list\"><li>\
         <section class=\"method-details\" id=\"method-detail\"><ul class=\"member-list\"><li>\
         <section class=\"detail\" id=\"run()\"><h3>run</h3>\
         <div class=\"member-signature\"><span class=\"modifiers\">public</span>&nbsp;\
         <span class=\"return-type\">void</span>&nbsp;<span class=\"element-name\">run</span>()</div>\
         </section></li></ul></section></li></ul></section>\n</main>\n</body>\n</html>\n"
    )
}

/// Puts a FIFO and a link to `/dev/zero` named `<stem>.<ext>` into `dir`.
#[cfg(unix)]
fn add_special_files(dir: &Path, fifo: &str, zero: &str) {
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join(fifo))
        .status()
        .expect("run mkfifo");
    assert!(made.success(), "mkfifo");
    std::os::unix::fs::symlink("/dev/zero", dir.join(zero)).expect("symlink");
}

/// Special files where inputs are read (issue 34): a FIFO `F.class` and a `Zero.class` linked
/// to `/dev/zero` in a class directory, the same as pages of a documentation folder and as
/// files of an API JSON directory. Each command ends at once (the CLI timeout fails a hang)
/// with a warning naming each file, and the other inputs are extracted or loaded.
#[cfg(unix)]
#[test]
fn special_files_are_warned_about_and_skipped_by_extract_and_load() {
    let base = tempfile::tempdir().expect("tempdir");
    let quick = Duration::from_secs(30);
    let stderr = |o: &assert_cmd::assert::Assert| {
        String::from_utf8_lossy(&o.get_output().stderr).to_string()
    };
    // a class directory
    let classes = base.path().join("classes");
    std::fs::create_dir_all(classes.join("p")).expect("mkdir");
    std::fs::write(classes.join("p/A.class"), empty_class("p/A")).expect("write");
    add_special_files(&classes, "F.class", "Zero.class");
    let api = base.path().join("api");
    let start = Instant::now();
    let out = thalia()
        .arg("extract")
        .arg(&classes)
        .arg("--out")
        .arg(&api)
        .assert()
        .success();
    assert!(start.elapsed() < quick, "{:?}", start.elapsed());
    let err = stderr(&out);
    assert!(
        err.contains("F.class: not a regular file (a FIFO); not read"),
        "{err}"
    );
    assert!(
        err.contains("Zero.class: not a regular file (a character device); not read"),
        "{err}"
    );
    assert!(api.join("p.A.json").is_file(), "{err}");
    // a documentation folder
    let docs = base.path().join("docs");
    std::fs::create_dir_all(docs.join("p")).expect("mkdir");
    std::fs::write(docs.join("p/Good.html"), javadoc_page("Good")).expect("write");
    add_special_files(&docs.join("p"), "F.html", "Zero.html");
    let docs_api = base.path().join("docs-api");
    let start = Instant::now();
    let out = thalia()
        .arg("extract")
        .arg("--docs")
        .arg(&docs)
        .arg("--out")
        .arg(&docs_api)
        .assert()
        .success();
    assert!(start.elapsed() < quick, "{:?}", start.elapsed());
    let err = stderr(&out);
    assert!(
        err.contains("p/F.html: not a regular file (a FIFO); not read"),
        "{err}"
    );
    assert!(
        err.contains("p/Zero.html: not a regular file (a character device); not read"),
        "{err}"
    );
    assert!(docs_api.join("p.Good.json").is_file(), "{err}");
    // an API JSON directory
    add_special_files(&api, "F.json", "Zero.json");
    let start = Instant::now();
    let out = thalia().args(["api", "stats"]).arg(&api).assert().success();
    assert!(start.elapsed() < quick, "{:?}", start.elapsed());
    let text = stderr(&out) + &String::from_utf8_lossy(&out.get_output().stdout);
    assert!(
        text.contains("F.json: cannot read: not a regular file (a FIFO); not read"),
        "{text}"
    );
    assert!(
        text.contains("Zero.json: cannot read: not a regular file (a character device)"),
        "{text}"
    );
    assert!(text.contains("loaded 1 classes"), "{text}");
    // a library list of `thalia batch`
    add_special_files(base.path(), "list.txt", "zero.txt");
    for (list, what) in [("list.txt", "a FIFO"), ("zero.txt", "a character device")] {
        let start = Instant::now();
        let out = thalia()
            .args(["batch", "--libs"])
            .arg(base.path().join(list))
            .arg("--out")
            .arg(base.path().join("batch"))
            .assert()
            .failure();
        assert!(start.elapsed() < quick, "{:?}", start.elapsed());
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{list}: not a regular file ({what}); refused")),
            "{err}"
        );
    }
}

/// Every file under a directory.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_huge_budget_is_a_clear_error_not_a_panic() {
    for budget in ["18446744073709551615s", "18446744073709551615", "1e300d"] {
        let out = thalia()
            .args(["run", "--budget", budget, "-o"])
            .arg(std::env::temp_dir().join("thalia-hostile-never-created"))
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(err.contains("at most"), "{budget}: {err}");
        assert!(!err.contains("panicked"), "{budget}: {err}");
    }
}

fn manifest() -> Manifest {
    Manifest {
        tool: "thalia".into(),
        version: "test".into(),
        kind: "check".into(),
        identity: RunIdentity::Check(CheckIdentity {
            programs: "/programs".into(),
            programs_jsonl_bytes: 0,
            programs_jsonl_hash: "0".into(),
            language: thalia_translators::Language::Java,
            compiler: "javac@17".into(),
            against: Vec::new(),
            run: false,
            shard: None,
        }),
        compiler: CompilerInfo {
            tool: Tool::Javac,
            version: "17".into(),
            coordinate: None,
            mode: "process".into(),
            command: vec!["javac".into(), "@FILE@".into()],
            classpath: None,
            timeout_seconds: 10.0,
            variant: None,
        },
        against: Vec::new(),
        merged: Vec::new(),
        sessions: vec![Session {
            started: 0.0,
            seconds: 0.0,
            programs: 0,
            options: SessionOptions {
                batch_size: 1,
                jobs: 1,
                budget: "round".into(),
                timeout_seconds: 10.0,
                server: false,
                command: Vec::new(),
            },
            untranslatable: Default::default(),
        }],
    }
}

fn result_line(key: &str, verdict: &str) -> Vec<u8> {
    let r = ResultLine {
        key: key.into(),
        id: key.into(),
        mode: "well-typed".into(),
        round: 0,
        member: "m".into(),
        file: format!("{key}.java"),
        expected: Expected::Accept,
        verdict: verdict.into(),
        diagnostics: Vec::new(),
        matches: true,
        finding: None,
        differential: Vec::new(),
        twin_verdict: None,
        run: None,
        flags: Vec::new(),
        seconds: 0.5,
        at: 1.0,
    };
    let mut b = serde_json::to_vec(&r).expect("serializes");
    b.push(b'\n');
    b
}

#[test]
fn corrupt_results_lines_are_quarantined_and_judged_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = dir.path();
    drop(Store::open(run, manifest()).expect("a new store"));
    let invalid_utf8: &[u8] = b"{\"key\": \"p2\xff\xfe\", \"verdict\": \"accepted\"}\n";
    let json_not_result: &[u8] = b"{\"key\": \"p3\", \"hello\": 1}\n";
    let mut bogus_verdict = result_line("p5", "accepted");
    let at = bogus_verdict
        .windows(8)
        .position(|w| w == b"accepted")
        .expect("verdict");
    bogus_verdict[at..at + 8].copy_from_slice(b"accepteX");
    let mut file = Vec::new();
    file.extend(result_line("p1", "accepted"));
    file.extend(invalid_utf8);
    file.extend(json_not_result);
    file.extend(result_line("p4", "rejected"));
    file.extend(&bogus_verdict);
    file.extend(b"{\"key\": \"p6\", \"verd"); // cut short by a kill
    std::fs::write(run.join("results.jsonl"), &file).expect("write");

    // a reader skips the corrupt lines with a warning naming the file and line
    let report = Report::load(run).expect("the report reads the rest");
    assert_eq!(report.programs, 2);
    assert_eq!(report.unreadable_lines, 4);
    let w = report.warnings.join("\n");
    for line in [2, 3, 5, 6] {
        assert!(w.contains(&format!("results.jsonl:{line}: ")), "{w}");
    }
    assert!(w.contains("not valid UTF-8"), "{w}");
    assert!(report.table().contains("warning: "), "{}", report.table());
    let out = thalia().arg("report").arg(run).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("results.jsonl:2: not valid UTF-8"), "{text}");

    // opening the store quarantines them and cuts the partial line
    let store = Store::open(run, manifest()).expect("resumes");
    assert_eq!(store.recovered_lines(), 4);
    assert!(store.is_done("p1") && store.is_done("p4"));
    for again in ["p2", "p3", "p5", "p6"] {
        assert!(!store.is_done(again), "{again} must be judged again");
    }
    drop(store);
    let results = std::fs::read(run.join("results.jsonl")).expect("read");
    assert!(!results.contains(&0), "no NUL padding");
    let mut expected = result_line("p1", "accepted");
    expected.extend(result_line("p4", "rejected"));
    assert_eq!(results, expected);
    let quarantine = std::fs::read(run.join(QUARANTINE)).expect("quarantine file");
    let mut raw = invalid_utf8.to_vec();
    raw.extend(json_not_result);
    raw.extend(&bogus_verdict);
    assert_eq!(quarantine, raw, "the raw bytes, each line once");
    assert!(!run.join(".results.jsonl.tmp").exists());

    // a second resume finds nothing to repair
    let store = Store::open(run, manifest()).expect("resumes again");
    assert_eq!(store.recovered_lines(), 0);
    assert_eq!(store.done_count(), 2);
    drop(store);
    assert_eq!(std::fs::read(run.join(QUARANTINE)).expect("read"), raw);
    let report = Report::load(run).expect("reads");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn real_apis_load_without_new_issues_far_below_the_limits() {
    let samples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/api-samples");
    let mut apis = vec![("embedded".to_string(), thalia::embedded::embedded_api())];
    for lang in ["java", "kotlin", "scala"] {
        let api = Api::load_dir(&samples.join(lang)).expect("the samples load");
        apis.push((lang.to_string(), api));
    }
    for (name, api) in &apis {
        let new: Vec<&LoadIssue> = api
            .report
            .issues
            .iter()
            .filter(|i| {
                matches!(
                    i.kind,
                    IssueKind::CyclicBound
                        | IssueKind::CyclicInheritance
                        | IssueKind::DuplicateMember
                ) || i.reason.contains("nested")
                    || i.reason.contains("dimensions")
            })
            .collect();
        assert!(new.is_empty(), "{name}: {new:#?}");
        let a = &api.ts.arena;
        let deepest = api
            .members
            .iter()
            .flat_map(|m| m.params.iter().map(|p| p.ty).chain([m.ret]))
            .map(|t| a.depth(t))
            .max()
            .unwrap_or(0);
        eprintln!("{name}: deepest member type has depth {deepest}");
        assert!(deepest * 8 <= MAX_TYPE_DEPTH, "{name}: {deepest}");
    }
}
