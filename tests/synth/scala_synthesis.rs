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

use crate::support::{javac, require, runs};

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
    // scalac brings its own standard library
    check_with(dir, compiler, "")
}

/// [`check`] with the programs' classpath `classpath`.
fn check_with(dir: &Path, compiler: &str, classpath: &str) -> (usize, usize) {
    thalia()
        .args(["check", "--compiler", compiler, "--server", "-j", "2"])
        .args(["--classpath", classpath])
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

/// A library whose static factories are overloaded on two numeric boxes (`Float`, `Double`;
/// `Long`, `Integer`), as commons-lang3's `NumberUtils.toScaledBigDecimal` is, and a class
/// they make, so that the receivers of its methods are made by calls with literal arguments;
/// and a method overloaded on two functional interfaces of `? extends Character`, whose
/// argument is a generic class made from a `char` (commons-collections4's `ListUtils.lazyList`
/// with a `ConstantFactory`).
const BOXED_OVERLOADS: &[(&str, &str)] = &[
    (
        "lit/Num.java",
        "package lit;\n\
         public final class Num {\n\
         \x20   private Num() {}\n\
         \x20   public static Scaled scaled(Float f, int scale) { return new Scaled(); }\n\
         \x20   public static Scaled scaled(Double d, int scale) { return new Scaled(); }\n\
         \x20   public static Scaled scaled(String s, int scale) { return new Scaled(); }\n\
         \x20   public static Scaled boxed(Long l) { return new Scaled(); }\n\
         \x20   public static Scaled boxed(Integer i) { return new Scaled(); }\n\
         \x20   public static Scaled ch(Character c) { return new Scaled(); }\n\
         }\n",
    ),
    (
        "lit/Factory.java",
        "package lit;\npublic interface Factory<T> { T create(); }\n",
    ),
    (
        "lit/Maker.java",
        "package lit;\npublic interface Maker<T> { T make(int i); }\n",
    ),
    (
        "lit/Const.java",
        "package lit;\n\
         public final class Const<T> implements Factory<T> {\n\
         \x20   public Const(T t) {}\n\
         \x20   public T create() { return null; }\n\
         }\n",
    ),
    (
        "lit/Lazy.java",
        "package lit;\n\
         public final class Lazy {\n\
         \x20   private Lazy() {}\n\
         \x20   public static Scaled of(Factory<? extends Character> f) { return null; }\n\
         \x20   public static Scaled of(Maker<? extends Character> m) { return null; }\n\
         }\n",
    ),
    (
        "lit/Scaled.java",
        "package lit;\n\
         public final class Scaled {\n\
         \x20   Scaled() {}\n\
         \x20   public int value() { return 0; }\n\
         \x20   public Scaled plus(Scaled other) { return this; }\n\
         }\n",
    ),
];

/// Seeds tried for programs that hold both of the shapes
/// `literals_for_overloads_on_two_numeric_boxes_compile_as_expected` needs (4 of the first 8
/// had one of them when it was written, 1 both).
const SEEDS: u64 = 16;

/// Literal arguments for boxed parameters of calls overloaded on two numeric boxes: Scala 3
/// adapts a literal to either box (`scaled(1.5f, 8)` is ambiguous), so its programs ascribe
/// it (`(1.5f: Float)`); Scala 2 converts a `Float` value to either box, so its programs cast
/// it to the box. In an argument of an overloaded call Scala 3 fixes a type variable by a
/// `char` to `Char` (`Lazy.of(new Const('z'))` matches no candidate), so the generic call
/// there keeps its type arguments. Both compilers judge every program of both modes as
/// expected (the campaigns' false alarms on `toScaledBigDecimal(0.0f, 0, null)` and
/// `lazyList(.., new ConstantFactory('z'))`).
#[test]
fn literals_for_overloads_on_two_numeric_boxes_compile_as_expected() {
    let name = "literals_for_overloads_on_two_numeric_boxes_compile_as_expected";
    if !javac::javac_available() {
        require::missing_tool(name, "javac");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (jar, api) = javac::library(tmp.path(), "lit", BOXED_OVERLOADS);
    // the boxes' classes without their members: overload resolution knows their supertypes
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for class in ["Float", "Double", "Integer", "Long", "Character", "Number"] {
        let doc = format!("java.lang.{class}.json");
        let text = std::fs::read_to_string(root.join("api-json/java.base").join(&doc))
            .expect("a box's document");
        let mut v: Value = serde_json::from_str(&text).expect("JSON");
        v["methods"] = Value::Array(vec![]);
        v["fields"] = Value::Array(vec![]);
        std::fs::write(api.join(&doc), v.to_string()).expect("write a box's document");
    }
    let classpath = jar.to_str().expect("a UTF-8 path");
    for (lang, compiler, literal) in [
        ("scala3", "scala3@3.9.0", "f: Float), ("),
        (
            "scala2",
            "scala2@2.13.18",
            "f).asInstanceOf[java.lang.Float], (",
        ),
    ] {
        // the first seed whose well-typed programs hold both shapes (each program's
        // shape depends on the seed alone)
        let synth = |mode: &str, seed: u64| {
            let out = tmp.path().join(format!("{lang}-{mode}-{seed}"));
            thalia()
                .args(["synth", "--lang", lang, "--mode", mode])
                .args(["--seed", &seed.to_string(), "--api"])
                .arg(&api)
                .arg("-o")
                .arg(&out)
                .assert()
                .success();
            let sources: String = runs::records(&out)
                .iter()
                .map(|r| {
                    std::fs::read_to_string(out.join(r["file"].as_str().expect("file")))
                        .expect("a program")
                })
                .collect();
            (out, sources)
        };
        // `lit.Num.scaled((1.5f: Float), (83: Int))`
        let scaled = |sources: &str| {
            sources
                .split("lit.Num.scaled((")
                .skip(1)
                .any(|rest| rest.lines().next().is_some_and(|l| l.contains(literal)))
        };
        // `Lazy.of(new lit.Const[java.lang.Character](('z': Char)))`
        let made = |sources: &str| -> Vec<String> {
            sources
                .lines()
                .filter(|l| l.contains("lit.Lazy.of(new lit.Const"))
                .map(str::to_owned)
                .collect()
        };
        let seed = (1..=SEEDS)
            .find(|&seed| {
                let (_, sources) = synth("well-typed", seed);
                scaled(&sources) && !made(&sources).is_empty()
            })
            .unwrap_or_else(|| panic!("{lang}: no seed up to {SEEDS} makes both shapes"));
        for mode in ["well-typed", "ill-typed"] {
            let (out, sources) = synth(mode, seed);
            for l in made(&sources) {
                assert!(l.contains("lit.Lazy.of(new lit.Const["), "{lang}: {l}");
            }
            let (n, wrong) = check_with(&out, compiler, classpath);
            assert!(n >= 20, "{n} {lang} {mode} programs");
            assert_eq!(wrong, 0, "{lang} {mode}: {wrong} of {n} not as expected");
        }
    }
}
