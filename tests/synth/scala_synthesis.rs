//! Synthesis from Scala-typed APIs (issue #15): Scala programs that call the Scala standard
//! library's own members (its classes, companion objects' members as static calls, Scala
//! function and by-name types, `Int` as a type argument), compiled by the real scalac 3 and
//! scalac 2.13 with at least 99 % of each cell as expected, and the members that are skipped
//! with their reason (a method's own higher-kinded parameters; constructors with implicit or
//! several lists). Members of classes with higher-kinded parameters are called; implicit
//! arguments are passed, or left to scalac's search where it surely finds them.
//! `tests/scala_lists.rs` covers the calls with several lists.
//!
//! `thalia check` installs scalac through the Maven configuration when it is missing.

use std::path::Path;

use crate::support::runs;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// Synthesizes an evenly spread sample of a round of `mode` programs from the embedded
/// Scala standard library alone.
fn synth_library(out: &Path, lang: &str, mode: &str, stride: usize) -> Value {
    thalia()
        .args(["synth", "--api", "@scala-library-2.13.18", "--lang", lang])
        .args(["--mode", mode, "--seed", "15", "-j", "2"])
        .args(["--stride", &stride.to_string()])
        .arg("-o")
        .arg(out)
        .assert()
        .success();
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary.json"))
        .expect("summary")
}

/// Compiles a synthesis directory with `compiler` (`thalia check`) and returns the number
/// of programs judged and of those whose verdict contradicts the expectation.
fn check(dir: &Path, compiler: &str) -> (usize, usize) {
    thalia()
        .args([
            "check",
            "--compiler",
            compiler,
            "--server",
            "-j",
            "2",
            // scalac brings its own standard library
            "--classpath",
            "",
        ])
        .arg(dir)
        .assert()
        .success();
    let results = dir.join(format!(
        "check-{}/results.jsonl",
        compiler.replace('@', "-")
    ));
    runs::mismatches(&results)
}

#[test]
fn scala_library_programs_use_its_own_members_and_compile_as_expected() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let well = tmp.path().join("well");
    let summary = synth_library(&well, "scala3", "well-typed", STRIDE);
    let recs = runs::records(&well);
    assert!(recs.len() >= 100, "{} programs", recs.len());
    assert!(
        recs.iter()
            .all(|r| r["class"].as_str().is_some_and(|c| c.starts_with("scala."))),
        "only the Scala library's own members are exercised"
    );
    // members the programs cannot call yet are skipped with their reason
    let skipped = summary["summary"]["skipped"].to_string();
    for reason in [
        "Scala implicit parameters",
        "higher-kinded type parameter (Scala)",
        "several Scala parameter lists, or none",
    ] {
        assert!(skipped.contains(reason), "{reason}: {skipped}");
    }
    // members of classes with a type-constructor parameter (`IterableOps[A, CC[_], C]`) are
    // called, their classes instantiated as a subclass sees them (`CC ↦ List`)
    let hk_owners = [
        "scala.collection.IterableOps",
        "scala.collection.IterableOnceOps",
        "scala.collection.SeqOps",
        "scala.collection.StrictOptimizedIterableOps",
        "scala.collection.StrictOptimizedSeqOps",
        "scala.collection.MapOps",
        "scala.collection.SetOps",
    ];
    let hk_calls = recs
        .iter()
        .filter(|r| r["class"].as_str().is_some_and(|c| hk_owners.contains(&c)))
        .count();
    assert!(
        hk_calls >= 3,
        "{hk_calls} calls of higher-kinded classes' members"
    );
    let sources: Vec<String> = recs
        .iter()
        .map(|r| {
            let f = r["file"].as_str().expect("file");
            std::fs::read_to_string(well.join(f)).expect("program")
        })
        .collect();
    let count = |pat: &str| sources.iter().filter(|s| s.contains(pat)).count();
    // Scala's value classes as type arguments, and its function types with lambdas
    assert!(count("[scala.Int") > 0, "Int as a type argument");
    assert!(
        count(" => ") * 10 >= sources.len(),
        "lambdas: {}",
        count(" => ")
    );

    // implicit arguments passed (`(using ev)`), and left to scalac's search where it surely
    // finds them (a `ClassTag`, the standard `Ordering`s: `xs.sorted[Int]`)
    let forms = &summary["summary"]["census"]["forms"];
    for form in ["implicit-arguments", "implicit-search"] {
        assert!(forms[form].as_u64().unwrap_or(0) >= 1, "{form}: {forms}");
    }

    let (n, wrong) = check(&well, "scala3@3.9.0");
    assert_eq!(n, recs.len());
    assert!(
        wrong * 100 <= n * MAX_WRONG_PERCENT,
        "{wrong} of {n} well-typed programs rejected"
    );

    let ill = tmp.path().join("ill");
    synth_library(&ill, "scala3", "ill-typed", STRIDE * 3);
    let (n, wrong) = check(&ill, "scala3@3.9.0");
    assert!(n >= 100, "{n} ill-typed programs");
    assert!(
        wrong * 100 <= n * MAX_WRONG_PERCENT,
        "{wrong} of {n} ill-typed programs accepted"
    );
}

/// The same library's programs in Scala 2.13 syntax (implicit arguments in a plain list,
/// `_` wildcards), compiled by scalac 2.13.18 in both modes.
#[test]
fn scala_library_programs_compile_as_expected_by_scala2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (mode, stride) in [("well-typed", STRIDE * 2), ("ill-typed", STRIDE * 3)] {
        let dir = tmp.path().join(mode);
        synth_library(&dir, "scala2", mode, stride);
        let (n, wrong) = check(&dir, "scala2@2.13.18");
        assert!(n >= 100, "{n} {mode} programs");
        assert!(
            wrong * 100 <= n * MAX_WRONG_PERCENT,
            "{wrong} of {n} {mode} programs not as expected"
        );
    }
}

/// Every how-many-th program of a round the test compiles.
const STRIDE: usize = 100;

/// Most programs, in percent, whose verdict may contradict the expectation (issue #15: 99 %
/// as expected per cell; measured over larger samples in docs/findings.md, "Scala-typed
/// APIs").
const MAX_WRONG_PERCENT: usize = 1;

/// A by-name parameter `=> T` takes an expression of `T`: the unit value `()` for `=> Unit`
/// (`ShutdownHookThread.apply(())`), a literal or call for `=> T`; every program is written
/// and scalac 3 accepts them all.
#[test]
fn by_name_parameters_take_an_expression_of_their_type() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let api = tmp.path().join("api");
    std::fs::create_dir_all(&api).expect("api dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, name) in [
        (
            "api-json/scala-library-2.13.18",
            "scala.sys.ShutdownHookThread.json",
        ),
        ("tests/fixtures/api-samples/scala", "scala.util.Try.json"),
        ("tests/fixtures/api-samples/scala", "scala.Option.json"),
    ] {
        std::fs::copy(root.join(from).join(name), api.join(name)).expect("copy an API file");
    }
    let out = tmp.path().join("synth");
    let o = thalia()
        .args([
            "synth", "--lang", "scala3", "-n", "40", "--seed", "7", "--api",
        ])
        .arg(&api)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("thalia synth");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("not written"), "{stderr}");
    let recs = runs::records(&out);
    assert_eq!(recs.len(), 40, "{stderr}");
    let sources: Vec<String> = recs
        .iter()
        .map(|r| std::fs::read_to_string(out.join(r["file"].as_str().expect("file"))).expect("src"))
        .collect();
    assert!(
        sources
            .iter()
            .any(|s| s.contains("scala.sys.ShutdownHookThread.apply(())")),
        "a `=> Unit` argument is `()`"
    );
    let (n, wrong) = check(&out, "scala3@3.9.0");
    assert_eq!((n, wrong), (40, 0));
}
