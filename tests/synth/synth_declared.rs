//! Issue #36 items 3 and 5 in synthesized programs: anonymous classes (Kotlin object
//! expressions) implementing the API's interfaces or extending its abstract classes where a
//! value of one or of a supertype is wanted, their generic methods declared with the type
//! arguments substituted, a class's constructor arguments given; Kotlin type aliases and
//! Scala type members through which locals are declared; constructor calls of generic
//! classes below a wanted type whose type arguments inference recovers (the diamond). With a
//! form forced on (`swarm.anonymous_classes = 1.0`, ...), a sample of the embedded
//! API's programs of each language uses it, the census counts it, and the real compiler
//! (`thalia check`, which installs it when missing) judges the programs that use it as
//! expected: no finding that the Java twin does not confirm (the generator's).

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// The programs drawn: every `STRIDE`-th of a round of the embedded API.
const STRIDE: &str = "150";

/// The most programs compiled per language (a warm compiler judges them in seconds).
const MAX_JUDGED: usize = 4;

/// Synthesizes `lang` programs of `mode` into `out` with anonymous classes forced on;
/// `extra` selects them (`--stride N`, `--only ID`...).
fn synth(lang: &str, mode: &str, cfg: &Path, extra: &[String], out: &Path) {
    thalia()
        .args([
            "synth", "--lang", lang, "--mode", mode, "--seed", "36", "-j", "2",
        ])
        .arg("--synth-config")
        .arg(cfg)
        .args(extra)
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// A declared-type form: its swarm field, the key that marks it in a program's IR and its
/// name in the census.
struct Form {
    swarm: &'static str,
    ir_key: &'static str,
    census: &'static str,
}

/// Anonymous classes (Kotlin object expressions).
const ANONYMOUS: Form = Form {
    swarm: "anonymous_classes",
    ir_key: "\"anonymous\"",
    census: "anonymous-class",
};

/// Anonymous subclasses of abstract classes, with their constructor arguments.
const SUBCLASSES: Form = Form {
    swarm: "anonymous_classes",
    ir_key: "\"super_args\"",
    census: "anonymous-subclass",
};

/// Kotlin type aliases and Scala type members.
const ALIASES: Form = Form {
    swarm: "type_aliases",
    ir_key: "\"aliases\"",
    census: "type-alias",
};

/// Constructor calls of generic classes without type arguments (the diamond; Kotlin's and
/// Scala's constructor calls that leave them to inference).
const DIAMONDS: Form = Form {
    swarm: "generic_constructors",
    ir_key: "\"type_args\":null,\"args\"",
    census: "diamond",
};

/// The ids of the programs of a synthesis directory whose IR holds `key`.
fn with_form(dir: &Path, key: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join("programs.ir.jsonl"))
        .expect("programs.ir.jsonl")
        .lines()
        .filter(|l| l.contains(key))
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            v["id"].as_str().expect("id").to_owned()
        })
        .collect()
}

/// Synthesizes a sample of `lang` programs of `mode` with `form` forced on, checks the
/// census and judges up to [`MAX_JUDGED`] programs that use it with the language's default
/// compiler.
fn form_compiles_as_expected(form: &Form, lang: &str, mode: &str) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = tmp.path().join("declared.json");
    std::fs::write(&cfg, format!(r#"{{"swarm": {{"{}": 1.0}}}}"#, form.swarm)).expect("config");
    let all = tmp.path().join("all");
    synth(lang, mode, &cfg, &["--stride".into(), STRIDE.into()], &all);
    let ids = with_form(&all, form.ir_key);
    let summary: Value = serde_json::from_str(
        &std::fs::read_to_string(all.join("summary.json")).expect("summary.json"),
    )
    .expect("summary JSON");
    let counted = summary["summary"]["census"]["forms"][form.census]
        .as_u64()
        .unwrap_or(0);
    assert!(
        ids.len() >= 3,
        "{lang} {mode}: only {} programs with {}",
        ids.len(),
        form.census
    );
    // (the census also counts the programs the language then cannot write)
    assert!(
        counted >= ids.len() as u64,
        "{lang} {mode}: the census counts {counted} programs with {}, {} written",
        form.census,
        ids.len()
    );
    let picked = tmp.path().join("picked");
    let only: Vec<String> = ids
        .iter()
        .take(MAX_JUDGED)
        .flat_map(|id| ["--only".to_owned(), id.clone()])
        .collect();
    synth(lang, mode, &cfg, &only, &picked);
    let store = tmp.path().join("results");
    thalia()
        .args(["check", "--server", "--no-recheck", "-j", "2", "-o"])
        .arg(&store)
        .arg(&picked)
        .assert()
        .success();
    let results = std::fs::read_to_string(store.join("results.jsonl")).expect("results.jsonl");
    let lines: Vec<Value> = results
        .lines()
        .map(|l| serde_json::from_str(l).expect("a result line"))
        .collect();
    assert_eq!(
        lines.len(),
        ids.len().min(MAX_JUDGED),
        "{lang}: every program judged"
    );
    // a finding the Java twin confirms is the compiler's; any other is the generator's
    let blamed: Vec<String> = lines
        .iter()
        .filter(|r| !r["finding"].is_null() && r["finding"]["twin"] != "confirmed")
        .map(|r| {
            format!(
                "{} {}: {}",
                r["id"],
                r["member"],
                r["diagnostics"][0].as_str().unwrap_or("")
            )
        })
        .collect();
    assert!(
        blamed.is_empty(),
        "{lang} {mode}: programs with {} judged against the expectation:\n{}",
        form.census,
        blamed.join("\n")
    );
}

#[test]
fn java_anonymous_classes_compile_as_expected() {
    form_compiles_as_expected(&ANONYMOUS, "java", "well-typed");
    form_compiles_as_expected(&ANONYMOUS, "java", "ill-typed");
}

#[test]
fn kotlin_object_expressions_compile_as_expected() {
    form_compiles_as_expected(&ANONYMOUS, "kotlin", "well-typed");
}

// (Groovy writes Java's form and Scala 2 Scala 3's: the translators' golden tests compile
// them with groovyc and scalac 2.13)
#[test]
fn scala3_anonymous_classes_compile_as_expected() {
    form_compiles_as_expected(&ANONYMOUS, "scala3", "well-typed");
}

#[test]
fn anonymous_subclasses_compile_as_expected_in_every_language() {
    form_compiles_as_expected(&SUBCLASSES, "java", "well-typed");
    form_compiles_as_expected(&SUBCLASSES, "groovy", "well-typed");
    form_compiles_as_expected(&SUBCLASSES, "kotlin", "well-typed");
    form_compiles_as_expected(&SUBCLASSES, "scala3", "well-typed");
}

#[test]
fn kotlin_type_aliases_compile_as_expected() {
    form_compiles_as_expected(&ALIASES, "kotlin", "well-typed");
}

#[test]
fn scala_type_members_compile_as_expected() {
    form_compiles_as_expected(&ALIASES, "scala3", "well-typed");
    form_compiles_as_expected(&ALIASES, "scala2", "ill-typed");
}

#[test]
fn generic_constructor_calls_compile_as_expected_in_every_language() {
    form_compiles_as_expected(&DIAMONDS, "java", "well-typed");
    form_compiles_as_expected(&DIAMONDS, "java", "ill-typed");
    form_compiles_as_expected(&DIAMONDS, "groovy", "well-typed");
    form_compiles_as_expected(&DIAMONDS, "kotlin", "well-typed");
    form_compiles_as_expected(&DIAMONDS, "scala3", "well-typed");
    form_compiles_as_expected(&DIAMONDS, "scala2", "well-typed");
}
