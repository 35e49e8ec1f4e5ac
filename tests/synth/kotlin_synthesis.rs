//! Synthesis from Kotlin-typed APIs (issue #15): Kotlin programs that call the Kotlin
//! standard library's own members (extension and top-level functions, nullable types,
//! Kotlin function types with lambdas, references to top-level and extension functions,
//! lambdas cast to function types), compiled by the real kotlinc, and the embedded
//! default that adds the standard library for Kotlin programs only.
//!
//! `thalia check` installs kotlinc through the Maven configuration when it is missing.

use std::path::Path;

use crate::support::runs;

use assert_cmd::Command;
use serde_json::Value;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// Synthesizes an evenly spread sample of a round of `mode` programs from the embedded
/// Kotlin standard library alone.
fn synth_stdlib(out: &Path, mode: &str, stride: usize) {
    thalia()
        .args([
            "synth",
            "--api",
            "@kotlin-stdlib-2.4.21",
            "--lang",
            "kotlin",
        ])
        .args(["--mode", mode, "--seed", "15", "-j", "2"])
        .args(["--stride", &stride.to_string()])
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

/// Compiles a synthesis directory with kotlinc 2.4.21 (`thalia check`) and returns the
/// number of programs judged and of those whose verdict contradicts the expectation.
fn check(dir: &Path) -> (usize, usize) {
    thalia()
        .args([
            "check",
            "--compiler",
            "kotlin@2.4.21",
            "--server",
            "-j",
            "2",
        ])
        .arg(dir)
        .assert()
        .success();
    runs::mismatches(&dir.join("check-kotlin-2.4.21/results.jsonl"))
}

#[test]
fn kotlin_stdlib_programs_use_its_own_members_and_compile_as_expected() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let well = tmp.path().join("well");
    synth_stdlib(&well, "well-typed", 80);
    let recs = runs::records(&well);
    assert!(recs.len() >= 150, "{} programs", recs.len());
    // the programs call Kotlin's extension and top-level functions (declared in files of
    // top-level members, named after their package) and use its nullable and function types
    let of_files = recs
        .iter()
        .filter(|r| r["class"].as_str().is_some_and(|c| c.starts_with("kotlin")))
        .count();
    assert_eq!(
        of_files,
        recs.len(),
        "only Kotlin's own members are exercised"
    );
    let extensions = recs
        .iter()
        .filter(|r| r["typing_sequence"]["receiver"].is_string())
        .filter(|r| {
            let c = r["class"].as_str().unwrap_or("");
            c.rsplit('.')
                .next()
                .is_some_and(|s| s.starts_with(char::is_lowercase))
        })
        .count();
    assert!(extensions * 4 >= recs.len(), "{extensions} extension calls");
    let sources: Vec<String> = recs
        .iter()
        .map(|r| {
            let f = r["file"].as_str().expect("file");
            std::fs::read_to_string(well.join(f)).expect("program")
        })
        .collect();
    let count = |pat: &str| sources.iter().filter(|s| s.contains(pat)).count();
    assert!(
        count("->") * 10 >= sources.len(),
        "lambdas: {}",
        count("->")
    );
    assert!(
        count("? =") * 10 >= sources.len(),
        "nullable: {}",
        count("? =")
    );
    assert!(
        count("\nimport kotlin.") > 0,
        "an extension outside the default imports"
    );
    // references to top-level and extension functions, through an import alias
    // (`import kotlin.text.trim as trim_`, `String::trim_`), and lambdas cast to their
    // function type (`({ x: String -> .. }) as (String) -> Int`)
    let aliased = sources
        .iter()
        .filter(|s| {
            s.lines()
                .any(|l| l.starts_with("import kotlin.") && l.contains(" as "))
        })
        .count();
    assert!(aliased >= 3, "{aliased} package function references");
    assert!(
        count(") as (") * 20 >= sources.len(),
        "lambdas cast to a function type: {}",
        count(") as (")
    );

    let (n, wrong) = check(&well);
    assert_eq!(n, recs.len());
    // issue #15: at least 99 % of each cell as expected (measured over larger samples in
    // docs/findings.md)
    assert!(
        wrong * 100 <= n,
        "{wrong} of {n} well-typed programs rejected"
    );

    let ill = tmp.path().join("ill");
    synth_stdlib(&ill, "ill-typed", 240);
    let (n, wrong) = check(&ill);
    assert!(n >= 50, "{n} ill-typed programs");
    assert!(
        wrong * 100 <= n,
        "{wrong} of {n} ill-typed programs accepted"
    );
}

#[test]
fn the_default_api_adds_the_kotlin_stdlib_for_kotlin_programs_only() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let members = |lang: &str| -> u64 {
        let out = tmp.path().join(lang);
        thalia()
            .args([
                "synth", "--lang", lang, "--seed", "1", "-n", "1", "-j", "2", "-o",
            ])
            .arg(&out)
            .assert()
            .success();
        let s: Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
        )
        .expect("summary");
        s["summary"]["members"].as_u64().expect("members")
    };
    let (java, kotlin) = (members("java"), members("kotlin"));
    // kotlin-stdlib's 7,000-odd members join the 15,000 of java.base and commons-lang3
    assert!(kotlin > java + 5_000, "java {java}, kotlin {kotlin}");
}

/// Synthesizes `mode` programs from `api` with Kotlin's operator and default-omission forms
/// forced on (`--synth-config`), regenerates at most `max` of those that use a form into
/// `out` (`--only`), and returns their records.
fn synth_forms(api: &Path, tmp: &Path, mode: &str, max: usize) -> (std::path::PathBuf, Vec<Value>) {
    let cfg = tmp.join("forms.toml");
    std::fs::write(
        &cfg,
        "operator_form_probability = 1.0\ndefault_omission_probability = 1.0\n",
    )
    .expect("config");
    let all = tmp.join(format!("{mode}-all"));
    let run = |out: &Path, extra: &[String]| {
        thalia()
            .args(["synth", "--lang", "kotlin", "--seed", "2", "-j", "2"])
            .arg("--api")
            .arg(api)
            .args(["--mode", mode])
            .arg("--synth-config")
            .arg(&cfg)
            .args(extra)
            .arg("-o")
            .arg(out)
            .assert()
            .success();
    };
    run(&all, &["--stride".into(), "4".into()]);
    let uses_form = |r: &Value| {
        r["shape"]["call_form"].is_string() || r["shape"]["defaults_omitted"].as_u64() > Some(0)
    };
    // an even spread of operator, infix and default-omitting programs
    let mut picked: Vec<String> = Vec::new();
    let recs = runs::records(&all);
    for kind in ["operator", "infix", "defaults"] {
        let of_kind = recs.iter().filter(|r| match kind {
            "defaults" => r["shape"]["defaults_omitted"].as_u64() > Some(0),
            k => r["shape"]["call_form"] == k,
        });
        for r in of_kind.take(max / 3) {
            let id = r["id"].as_str().expect("id").to_string();
            if !picked.contains(&id) {
                picked.push(id);
            }
        }
    }
    assert!(recs.iter().filter(|r| uses_form(r)).count() >= picked.len());
    let out = tmp.join(mode);
    let only: Vec<String> = picked
        .iter()
        .flat_map(|id| ["--only".to_string(), id.clone()])
        .collect();
    run(&out, &only);
    (out.clone(), runs::records(&out))
}

#[test]
fn operator_infix_and_default_forms_are_written_and_compile_as_expected() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // a few of the standard library's packages under test (the rest is their context)
    let api = tmp.path().join("api");
    std::fs::create_dir(&api).expect("api dir");
    let stdlib = Path::new(env!("CARGO_MANIFEST_DIR")).join("api-json/kotlin-stdlib-2.4.21");
    for f in [
        "language.txt",
        "kotlin.ranges.json",
        "kotlin.text.json",
        "kotlin.sequences.json",
    ] {
        std::fs::copy(stdlib.join(f), api.join(f)).expect("copy a stdlib document");
    }
    let (well, recs) = synth_forms(&api, tmp.path(), "well-typed", 36);
    let source = |r: &Value| {
        std::fs::read_to_string(well.join(r["file"].as_str().expect("file"))).expect("program")
    };
    let mut operators = 0;
    let mut infix = 0;
    let mut omitted = 0;
    for r in &recs {
        let src = source(r);
        let tokens: Vec<&str> = src
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .collect();
        let member = r["member"].as_str().expect("member");
        let name = member
            .split('(')
            .next()
            .and_then(|s| s.rsplit('.').next())
            .expect("a member name");
        match r["shape"]["call_form"].as_str() {
            Some("operator") => {
                operators += 1;
                // the call under test is the test function's last statement (lambdas of
                // its inhabitants may call the same member as a call)
                let last = src
                    .lines()
                    .rfind(|l| l.starts_with("        ") && !l.trim().is_empty())
                    .unwrap_or(&src);
                assert!(
                    !last.contains(&format!(".{name}(")),
                    "{} calls {name} as a call:\n{src}",
                    r["id"]
                );
            }
            Some("infix") => {
                infix += 1;
                assert!(
                    src.contains(&format!(" {name} ")),
                    "{} infix:\n{src}",
                    r["id"]
                );
            }
            _ => {}
        }
        if r["shape"]["defaults_omitted"].as_u64() > Some(0) {
            omitted += 1;
            // an argument left out: its local is declared and never used
            let n_args = r["typing_sequence"]["args"].as_array().map_or(0, Vec::len);
            let unused = (0..n_args).any(|i| {
                let local = format!("a{i}");
                tokens.iter().filter(|t| **t == local).count() == 1
            });
            assert!(unused, "{} leaves out no argument:\n{src}", r["id"]);
        }
    }
    assert!(
        operators > 0 && infix > 0 && omitted > 0,
        "{operators} operator, {infix} infix, {omitted} omitting programs"
    );
    let (n, wrong) = check(&well);
    assert_eq!(n, recs.len());
    assert_eq!(
        wrong, 0,
        "well-typed programs with operator/default forms rejected"
    );

    let (ill, recs) = synth_forms(&api, tmp.path(), "ill-typed", 30);
    assert!(!recs.is_empty());
    let (n, wrong) = check(&ill);
    assert_eq!(n, recs.len());
    assert_eq!(
        wrong, 0,
        "ill-typed programs with operator/default forms accepted"
    );
}

/// The class documents of the embedded Kotlin standard library.
fn stdlib_docs() -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("api-json/kotlin-stdlib-2.4.21");
    let mut docs = Vec::new();
    for e in std::fs::read_dir(&dir).expect("the embedded stdlib") {
        let p = e.expect("entry").path();
        if p.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("doc");
        docs.push(serde_json::from_str(&text).expect("json"));
    }
    docs
}

/// The opt-in markers of the embedded Kotlin standard library, and each class's own.
fn stdlib_markers() -> (Vec<String>, std::collections::BTreeMap<String, Vec<String>>) {
    let mut markers = Vec::new();
    let mut of_class = std::collections::BTreeMap::new();
    for d in stdlib_docs() {
        let name = d["name"].as_str().expect("name").to_string();
        if d["opt_in_marker"] == Value::Bool(true) {
            markers.push(name.clone());
        }
        if let Some(o) = d["opt_in"].as_array() {
            let o = o.iter().filter_map(|m| m.as_str().map(String::from));
            of_class.insert(name, o.collect());
        }
    }
    (markers, of_class)
}

/// The markers of a Kotlin source's `@file:OptIn(..)` (empty without one).
fn opt_ins(source: &str) -> Vec<String> {
    source
        .lines()
        .find_map(|l| l.strip_prefix("@file:OptIn(")?.strip_suffix(')'))
        .map(|l| {
            l.split(", ")
                .map(|m| m.trim_end_matches("::class").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn programs_opt_in_only_to_their_markers_and_twins_call_package_functions_on_their_facades() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let well = tmp.path().join("well");
    synth_stdlib(&well, "well-typed", 80);
    let recs = runs::records(&well);
    let (markers, of_class) = stdlib_markers();
    assert!(markers.len() >= 10, "{} markers", markers.len());
    let (mut without, mut with) = (0, 0);
    for r in &recs {
        let source =
            std::fs::read_to_string(well.join(r["file"].as_str().expect("file"))).expect("program");
        let opted = opt_ins(&source);
        // only markers of the API, never all of them
        assert!(opted.iter().all(|m| markers.contains(m)), "{source}");
        assert!(opted.len() < markers.len(), "{source}");
        // the call under test's class needs its markers (`kotlin.UIntArray`:
        // `ExperimentalUnsignedTypes`)
        let receiver = r["typing_sequence"]["receiver"].as_str().unwrap_or("");
        let class = r["class"].as_str().expect("class");
        for c in [class, receiver.split('<').next().unwrap_or("")] {
            for m in of_class.get(c).into_iter().flatten() {
                assert!(opted.contains(m), "{c} needs {m}:\n{source}");
            }
        }
        if opted.is_empty() {
            without += 1;
        } else {
            with += 1;
        }
    }
    // most programs use no experimental member and opt in to nothing
    assert!(without > with && with > 0, "{without} without, {with} with");
    // kotlinc rejects none of them for a missing opt-in (the share of programs judged as
    // expected is `kotlin_stdlib_programs_use_its_own_members_and_compile_as_expected`'s)
    let (n, _) = check(&well);
    assert_eq!(n, recs.len());
    let results =
        std::fs::read_to_string(well.join("check-kotlin-2.4.21/results.jsonl")).expect("results");
    let opt_in_errors: Vec<&str> = results
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).expect("result");
            v["diagnostics"].as_array().into_iter().flatten().any(|d| {
                let d = d.as_str().unwrap_or("");
                d.contains("opt-in") || d.contains("experimental")
            })
        })
        .collect();
    assert!(opt_in_errors.is_empty(), "{opt_in_errors:#?}");

    // the twins that judge: every one compiles with javac, those of package functions call
    // the static method of its facade class (`kotlin.text.StringsKt.trim(s)`)
    if !crate::support::javac::javac_available() {
        crate::support::require::missing_tool("twins", "javac");
        return;
    }
    let Ok(kotlin) = thalia::toolchain::find("kotlin@2.4.21") else {
        crate::support::require::missing_tool("twins", "kotlin@2.4.21");
        return;
    };
    let twins: Vec<std::path::PathBuf> = recs
        .iter()
        .filter(|r| r["twin_not_applicable"].is_null())
        .filter_map(|r| r["twin"].as_str().map(|t| well.join(t)))
        .collect();
    let facade_calls = twins
        .iter()
        .filter(|t| {
            let s = std::fs::read_to_string(t).expect("twin");
            calls_facade(&s)
        })
        .count();
    assert!(
        facade_calls >= 5,
        "{facade_calls} twins call facade methods"
    );
    let cp = std::env::join_paths(&kotlin.runtime).expect("runtime classpath");
    let result = crate::support::javac::compile_batch(&twins, cp.to_str()).expect("javac");
    let rejected: Vec<_> = result
        .verdicts
        .iter()
        .filter(|(_, v)| !v.is_accepted())
        .collect();
    assert!(rejected.is_empty(), "{rejected:?}");
}

/// Whether Java source `s` calls a static method of a Kotlin standard-library facade class
/// (`kotlin.text.StringsKt.trim(`).
fn calls_facade(s: &str) -> bool {
    s.match_indices("Kt.").any(|(i, _)| {
        let before = &s[..i];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
            .map_or(0, |j| j + 1);
        let after = &s[i + 3..];
        before[start..].starts_with("kotlin.")
            && after
                .find('(')
                .is_some_and(|k| after[..k].chars().all(|c| c.is_ascii_alphanumeric()))
    })
}

/// The generator offers Kotlin no form that its translator must refuse for Kotlin's mapped
/// types: no callable reference for Kotlin's own `Iterable`, `Comparable` or `Annotation`
/// (no fun interfaces), no constructor reference to a mapped class (`::String`), no lambda
/// for `Annotation` (no abstract method). Such programs were drawn and then not written
/// (42 of a sample of 6,000 programs of the embedded API, 41 of 2,585 of commons-collections4).
#[test]
fn kotlin_programs_get_no_reference_or_lambda_for_kotlins_own_interfaces() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("synth");
    let o = thalia()
        .args(["synth", "--lang", "kotlin", "--mode", "well-typed"])
        .args(["--seed", "9", "--stride", "20", "-j", "2", "-o"])
        .arg(&out)
        .output()
        .expect("thalia synth");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let refused: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("not written"))
        .filter(|l| {
            l.contains("which Kotlin maps to its own")
                || l.contains("kotlin.Annotation has no abstract method")
        })
        .collect();
    assert!(refused.is_empty(), "{refused:#?}");
    let written = runs::records(&out).len();
    assert!(written >= 2_500, "{written} programs written");
    let not_written = stderr.lines().filter(|l| l.contains("not written")).count();
    assert!(
        not_written * 1000 <= written,
        "{not_written} of {written} programs not written: {stderr}"
    );
}

#[test]
fn a_result_broken_with_unit_is_never_the_result_of_a_lambda() {
    // `Supplier<Unit> { -> anInt }` compiles in Kotlin (a lambda whose result is `Unit`
    // takes any body), so an ill-typed program whose result is broken with `Unit` keeps its
    // call out of a lambda; seed 41 of the default API drew one such lambda in 30,000
    // programs before the rule
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("ill");
    thalia()
        .args([
            "synth",
            "--lang",
            "kotlin",
            "--mode",
            "ill-typed",
            "--seed",
            "41",
        ])
        .args(["-n", "30000", "-j", "2", "-o"])
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(out.join("programs.jsonl")).expect("programs.jsonl");
    let mut broken_with_unit = 0;
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).expect("a JSON line");
        let b = &r["broken"];
        if b["position"] == "result" && b["actual"] == "kotlin.Unit" {
            broken_with_unit += 1;
            let wrapped = r["shape"]["wrapped"].as_str().unwrap_or("none");
            assert!(
                matches!(wrapped, "none" | "reference"),
                "{}: a result broken with Unit inside a {wrapped}",
                r["id"]
            );
        }
    }
    assert!(broken_with_unit > 0, "the seed breaks results with Unit");
}

/// Per package function of the embedded standard library (`(package, name)`), the opt-in
/// markers every overload of that name needs (its own and its package class's).
fn package_function_markers(
) -> std::collections::BTreeMap<(String, String), std::collections::BTreeSet<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut each: BTreeMap<(String, String), Vec<BTreeSet<String>>> = BTreeMap::new();
    let strings = |v: &Value| -> BTreeSet<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(String::from))
            .collect()
    };
    for d in stdlib_docs() {
        let class = d["name"].as_str().expect("name").to_string();
        let own = strings(&d["opt_in"]);
        for m in d["methods"].as_array().into_iter().flatten() {
            let mut needs = strings(&m["other_metadata"]["opt_in"]);
            needs.extend(own.iter().cloned());
            let name = m["name"].as_str().expect("method name").to_string();
            each.entry((class.clone(), name)).or_default().push(needs);
        }
    }
    each.into_iter()
        .filter_map(|(k, sets)| {
            let first = sets.first()?.clone();
            let all: BTreeSet<String> = sets
                .iter()
                .fold(first, |acc, s| acc.intersection(s).cloned().collect());
            (!all.is_empty()).then_some((k, all))
        })
        .collect()
}

#[test]
fn a_program_that_refers_to_an_experimental_function_opts_in_to_its_markers() {
    // references wherever one fits: a reference to `kotlin.collections.allEqual` (an
    // `@ExperimentalStdlibApi` extension) once went without the program's `@OptIn`
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = tmp.path().join("refs.json");
    std::fs::write(
        &cfg,
        r#"{"swarm": {"references": 1.0, "use_probability": 1.0}}"#,
    )
    .expect("config");
    let out = tmp.path().join("refs");
    thalia()
        .args(["synth", "--lang", "kotlin", "--seed", "41", "--stride", "3"])
        .args(["-j", "2", "--synth-config"])
        .arg(&cfg)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let markers = package_function_markers();
    let ir = std::fs::read_to_string(out.join("programs.ir.jsonl")).expect("programs.ir.jsonl");
    let files: std::collections::BTreeMap<String, String> = runs::records(&out)
        .iter()
        .map(|r| {
            (
                r["id"].as_str().expect("id").to_string(),
                r["file"].as_str().expect("file").to_string(),
            )
        })
        .collect();
    let (mut seen, mut missing) = (0, Vec::new());
    for line in ir.lines() {
        let p: Value = serde_json::from_str(line).expect("an IR line");
        let mut refs = Vec::new();
        collect_package_refs(&p, &mut refs);
        let id = p["id"].as_str().expect("id");
        for key in refs {
            let Some(needs) = markers.get(&key) else {
                continue;
            };
            seen += 1;
            let file = files.get(id).expect("the program's record");
            let source = std::fs::read_to_string(out.join(file)).expect("program");
            let opted = opt_ins(&source);
            if !needs.iter().all(|m| opted.contains(m)) {
                missing.push(format!("{id}: {}.{} needs {needs:?}", key.0, key.1));
            }
        }
    }
    assert!(
        seen > 0,
        "no reference to an experimental function in the sample: the test checks nothing"
    );
    assert!(missing.is_empty(), "{missing:#?}");
}

/// The `(package, name)` of every reference to a package function in an IR value.
fn collect_package_refs(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            if let Some(f) = m.get("package_function") {
                if let (Some(p), Some(n)) = (f["package"].as_str(), f["name"].as_str()) {
                    out.push((p.to_string(), n.to_string()));
                }
            }
            m.values().for_each(|x| collect_package_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_package_refs(x, out)),
        _ => {}
    }
}
