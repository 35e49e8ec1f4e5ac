//! Program shapes of issue #13 item 6 drawn by the swarm: a generic test method whose type
//! variable appears in the typing sequence and the locals, the creation of an inner class on
//! its enclosing instance (`outer.new Inner()`), and Kotlin's declared nullable types `T?`.
//!
//! Each form is forced on (its swarm probability and the use probability at 1.0, every other
//! form off) and must appear; Java programs are compiled with javac (well-typed: all
//! accepted; ill-typed: all rejected), Kotlin ones with kotlinc when `THALIA_KOTLINC_CP` is
//! set (see `translators/tests/targets.rs`).

use crate::support::javac;
use crate::support::require;

use std::fs;
use std::path::{Path, PathBuf};

use thalia::api::Api;
use thalia::synth::{Mode, Run, Selection, SwarmConfig, SynthConfig, SynthContext, Synthesized};
use thalia_translators::ir::{Expr, Program, Stmt, Ty};
use thalia_translators::{translator, Language};

/// Seed of every run.
const SEED: u64 = 20_261_123;
/// Programs per run.
const COUNT: usize = 150;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Java samples of `tests/fixtures/api-samples/java`.
fn sample_api() -> Api {
    Api::load_dir(&root().join("tests/fixtures/api-samples/java")).expect("sample API")
}

/// A small API with the inner class `AbstractQueuedSynchronizer.ConditionObject` (public
/// constructor) copied from the embedded `java.base`.
fn inner_class_api(dir: &Path) -> Api {
    let files = [
        "java.lang.Object.json",
        "java.io.Serializable.json",
        "java.util.concurrent.locks.AbstractOwnableSynchronizer.json",
        "java.util.concurrent.locks.AbstractQueuedSynchronizer.json",
        "java.util.concurrent.locks.AbstractQueuedSynchronizer.ConditionObject.json",
        "java.util.concurrent.locks.Condition.json",
        "java.util.concurrent.locks.ReentrantLock.json",
        "java.util.concurrent.locks.Lock.json",
    ];
    for f in files {
        fs::copy(root().join("api-json/java.base").join(f), dir.join(f)).expect("copy");
    }
    Api::load_dir(dir).expect("inner-class API")
}

/// Swarm with every form off but `set`'s, and each use certain.
fn swarm(set: impl FnOnce(&mut SwarmConfig)) -> SwarmConfig {
    let mut s = SwarmConfig::none();
    s.cast_locals = 0.0;
    s.use_probability = 1.0;
    set(&mut s);
    s
}

fn synth(api: &Api, lang: Language, mode: Mode, swarm: SwarmConfig) -> Vec<Synthesized> {
    let mut api = api.clone();
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig {
        lang,
        mode,
        swarm,
        ..SynthConfig::default()
    };
    let run = Run {
        api: &api,
        ctx: &ctx,
        cfg: &cfg,
        seed: SEED,
        jobs: 2,
    };
    let plan = run.plan();
    run.build(&plan, &Selection::First(COUNT), &|| {})
}

/// True when a type mentions the type variable `name`.
fn mentions_var(t: &Ty, name: &str) -> bool {
    let mut found = false;
    t.walk(&mut |u| found |= matches!(u, Ty::Var(v) if v == name));
    found
}

fn is_generic(p: &Program) -> bool {
    !p.type_params.is_empty()
        && p.stmts.iter().any(|s| match s {
            Stmt::Local { ty, .. } => mentions_var(ty, &p.type_params[0].name),
            Stmt::Expr(_) => false,
        })
}

fn has_outer_new(p: &Program) -> bool {
    let mut found = false;
    p.walk_exprs(&mut |e| found |= matches!(e, Expr::New { outer: Some(_), .. }));
    found
}

fn nullable_locals(p: &Program) -> usize {
    p.stmts
        .iter()
        .filter(|s| {
            matches!(
                s,
                Stmt::Local {
                    ty: Ty::Nullable(_),
                    ..
                }
            )
        })
        .count()
}

/// The Java source of a program; `None` when the translator cannot write it.
fn java_source(p: &Program) -> Option<String> {
    let tr = translator(Language::Java).expect("Java translator");
    tr.translate(p).ok()
}

/// Compiles the programs' Java sources with javac; the verdicts, keyed by program id.
fn javac_verdicts(programs: &[&Synthesized]) -> Option<Vec<(String, javac::Verdict)>> {
    if !javac::javac_available() {
        require::missing_tool("javac", "javac not on PATH");
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for s in programs {
        let src = java_source(&s.program).expect("translatable");
        let f = dir.path().join(format!("Test_{}.java", s.program.id));
        fs::write(&f, src).expect("write");
        files.push(f);
    }
    let res = javac::compile_batch(&files, None).expect("javac runs");
    Some(
        programs
            .iter()
            .map(|s| {
                let v = res
                    .verdicts
                    .get(&format!("Test_{}.java", s.program.id))
                    .cloned()
                    .expect("a verdict per file");
                (s.program.id.clone(), v)
            })
            .collect(),
    )
}

/// Every verdict is the expected one (accept in well-typed mode, reject in ill-typed mode).
fn assert_verdicts(programs: &[&Synthesized], mode: Mode) {
    let Some(verdicts) = javac_verdicts(programs) else {
        return;
    };
    let wrong: Vec<String> = verdicts
        .iter()
        .zip(programs)
        .filter(|((_, v), _)| v.is_accepted() != (mode == Mode::WellTyped))
        .map(|((id, v), s)| {
            format!(
                "{id} ({}): {v:?}\n{}",
                s.record.member,
                java_source(&s.program).unwrap_or_default()
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} programs with the wrong javac verdict:\n{}",
        wrong.len(),
        programs.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_generic_test_method_types_the_locals_and_javac_accepts_it() {
    let api = sample_api();
    let built = synth(
        &api,
        Language::Java,
        Mode::WellTyped,
        swarm(|s| s.generic_test_method = 1.0),
    );
    let generic: Vec<&Synthesized> = built.iter().filter(|s| is_generic(&s.program)).collect();
    assert!(
        generic.len() * 10 >= built.len(),
        "{} of {} programs have a generic test method",
        generic.len(),
        built.len()
    );
    // the type variable is in the recorded typing sequence or substitution too
    assert!(generic.iter().any(|s| s
        .record
        .substitution
        .values()
        .any(|t| t.split(|c: char| !c.is_alphanumeric()).any(|w| w == "T"))));
    let all: Vec<&Synthesized> = built.iter().collect();
    assert_verdicts(&all, Mode::WellTyped);
}

#[test]
fn a_generalized_ill_typed_program_is_still_rejected() {
    let api = sample_api();
    let built = synth(
        &api,
        Language::Java,
        Mode::IllTyped,
        swarm(|s| s.generic_test_method = 1.0),
    );
    let generic = built.iter().filter(|s| is_generic(&s.program)).count();
    assert!(generic > 0, "no generalized ill-typed program");
    let all: Vec<&Synthesized> = built.iter().collect();
    assert_verdicts(&all, Mode::IllTyped);
}

#[test]
fn an_inner_class_is_created_on_its_outer_instance() {
    let dir = tempfile::tempdir().expect("temp dir");
    let api = inner_class_api(dir.path());
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth(&api, Language::Java, mode, swarm(|s| s.inner_classes = 1.0));
        let inner: Vec<&Synthesized> = built.iter().filter(|s| has_outer_new(&s.program)).collect();
        assert!(
            !inner.is_empty(),
            "{mode:?}: no `outer.new Inner()` program"
        );
        let broken_outer = inner.iter().any(|s| {
            s.record
                .broken
                .as_ref()
                .is_some_and(|b| b.position == "receiver")
        });
        if mode == Mode::IllTyped {
            assert!(broken_outer, "no program with a wrong enclosing instance");
        }
        let writable: Vec<&Synthesized> = inner
            .iter()
            .copied()
            .filter(|s| java_source(&s.program).is_some())
            .collect();
        assert_eq!(
            writable.len(),
            inner.len(),
            "Java writes `outer.new Inner()`"
        );
        assert_verdicts(&writable, mode);
    }
    // with the form off in the configuration, the constructor is skipped as before
    let mut api2 = api.clone();
    let ctx = SynthContext::new(&mut api2);
    let cfg = SynthConfig {
        swarm: SwarmConfig::none(),
        ..SynthConfig::default()
    };
    let plan = Run {
        api: &api2,
        ctx: &ctx,
        cfg: &cfg,
        seed: SEED,
        jobs: 1,
    }
    .plan();
    assert!(plan
        .skipped
        .iter()
        .any(|(_, r)| *r == thalia::synth::SkipReason::NestedConstructor));
}

#[test]
fn kotlin_programs_declare_nullable_locals_where_null_safety_allows() {
    let api = sample_api();
    let well = synth(
        &api,
        Language::Kotlin,
        Mode::WellTyped,
        swarm(|s| s.nullable_types = 1.0),
    );
    let with = well
        .iter()
        .filter(|s| nullable_locals(&s.program) > 0)
        .count();
    assert!(with * 4 >= well.len(), "{with} of {}", well.len());
    // a nullable receiver is never well-typed
    for s in &well {
        for st in &s.program.stmts {
            if let Stmt::Local { name, ty, .. } = st {
                assert!(
                    !(name == "r" && matches!(ty, Ty::Nullable(_))),
                    "{}: nullable receiver in a well-typed program",
                    s.program.id
                );
            }
        }
    }
    let ill = synth(
        &api,
        Language::Kotlin,
        Mode::IllTyped,
        swarm(|s| s.nullable_types = 1.0),
    );
    let by_null: Vec<&Synthesized> = ill
        .iter()
        .filter(|s| {
            s.record
                .broken
                .as_ref()
                .is_some_and(|b| b.actual.ends_with('?'))
        })
        .collect();
    assert!(!by_null.is_empty(), "no program broken by nullability");
    assert!(by_null.iter().any(|s| s
        .record
        .broken
        .as_ref()
        .is_some_and(|b| b.position == "receiver")));
    // one kotlinc run: the well-typed programs with nullable locals must compile, the
    // programs broken by nullability must not
    let mut batch: Vec<(&Synthesized, bool)> = well
        .iter()
        .filter(|s| nullable_locals(&s.program) > 0)
        .take(KOTLINC_PER_KIND)
        .map(|s| (s, true))
        .collect();
    batch.extend(
        by_null
            .into_iter()
            .take(KOTLINC_PER_KIND)
            .map(|s| (s, false)),
    );
    kotlinc_verdicts(&batch);
}

/// Programs of each expectation compiled by kotlinc (one run takes all of them).
const KOTLINC_PER_KIND: usize = 40;

/// Compiles Kotlin programs in one kotlinc run and checks each file's verdict (`true`:
/// must compile), when `THALIA_KOTLINC_CP` is set.
fn kotlinc_verdicts(programs: &[(&Synthesized, bool)]) {
    let Ok(cp) = std::env::var("THALIA_KOTLINC_CP") else {
        require::missing_tool("kotlinc", "THALIA_KOTLINC_CP is not set");
        return;
    };
    let stdlib = cp
        .split(':')
        .find(|j| j.contains("kotlin-stdlib-") && !j.contains("jdk"))
        .expect("kotlin-stdlib on THALIA_KOTLINC_CP")
        .to_string();
    let tr = translator(Language::Kotlin).expect("Kotlin translator");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (s, accept) in programs {
        // the two runs number their programs alike: one package per expectation
        let mut p = s.program.clone();
        p.id = format!("{}{}", if *accept { "w" } else { "i" }, p.id);
        let src = tr.translate(&p).expect("Kotlin writes nullable locals");
        let f = dir.path().join(format!("Test_{}.kt", p.id));
        fs::write(&f, src).expect("write");
        files.push((p.id, f, *accept));
    }
    let out = std::process::Command::new("java")
        .arg("-cp")
        .arg(&cp)
        .arg("org.jetbrains.kotlin.cli.jvm.K2JVMCompiler")
        .args([
            "-no-stdlib",
            "-no-reflect",
            "-nowarn",
            "-classpath",
            &stdlib,
        ])
        .arg("-d")
        .arg(dir.path().join("out"))
        .args(files.iter().map(|(_, f, _)| f))
        .output()
        .expect("kotlinc runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let wrong: Vec<String> = files
        .iter()
        .filter(|(_, f, accept)| {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let rejected = err
                .lines()
                .any(|l| l.contains(name) && l.contains("error:"));
            rejected == *accept
        })
        .map(|(id, _, accept)| {
            format!(
                "{id} (expected {})",
                if *accept { "accept" } else { "reject" }
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "kotlinc verdicts wrong for {wrong:?}:\n{err}"
    );
}

#[test]
fn the_forms_are_deterministic() {
    let api = sample_api();
    let sw = swarm(|s| {
        s.generic_test_method = 1.0;
        s.nullable_types = 1.0;
    });
    let a = synth(&api, Language::Kotlin, Mode::IllTyped, sw.clone());
    let b = synth(&api, Language::Kotlin, Mode::IllTyped, sw);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.program, y.program);
        assert_eq!(x.record, y.record);
    }
}

/// `n` programs of the embedded API (`java.base` alone with `java_base`, which needs no
/// library classpath).
fn synth_embedded(
    java_base: bool,
    lang: Language,
    mode: Mode,
    swarm: SwarmConfig,
    n: usize,
) -> Vec<Synthesized> {
    synth_embedded_with(java_base, lang, mode, false, swarm, n)
}

/// [`synth_embedded`] with or without erasure of type arguments.
fn synth_embedded_with(
    java_base: bool,
    lang: Language,
    mode: Mode,
    erase: bool,
    swarm: SwarmConfig,
    n: usize,
) -> Vec<Synthesized> {
    let mut api = if java_base {
        thalia::embedded::embedded_corpus("java.base").expect("embedded java.base")
    } else {
        thalia::embedded::embedded_api()
    };
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig {
        lang,
        mode,
        erase,
        swarm,
        ..SynthConfig::default()
    };
    let run = Run {
        api: &api,
        ctx: &ctx,
        cfg: &cfg,
        seed: SEED,
        jobs: 2,
    };
    let plan = run.plan();
    run.build(&plan, &Selection::First(n), &|| {})
}

/// The share of programs using each form in a default 2,000-program run of the embedded API
/// (`cargo test --test synth_forms_program -- --ignored census --nocapture`).
#[test]
#[ignore = "a measurement: 2,000 programs per language and mode"]
fn census_of_the_forms_in_a_default_run() {
    for lang in [Language::Java, Language::Groovy, Language::Kotlin] {
        for mode in [Mode::WellTyped, Mode::IllTyped] {
            let built = synth_embedded(false, lang, mode, SwarmConfig::default(), 2000);
            let n = built.len().max(1) as f64;
            let pct = |k: usize| 100.0 * k as f64 / n;
            let generic = built.iter().filter(|s| is_generic(&s.program)).count();
            let inner = built.iter().filter(|s| has_outer_new(&s.program)).count();
            let nullable = built
                .iter()
                .filter(|s| nullable_locals(&s.program) > 0)
                .count();
            let by_null = built
                .iter()
                .filter(|s| {
                    s.record
                        .broken
                        .as_ref()
                        .is_some_and(|b| b.actual.ends_with('?'))
                })
                .count();
            println!(
                "{lang:?} {mode:?}: {} programs; generic test method {:.1} %, outer.new {:.2} %, \
                 nullable locals {:.1} %, broken by nullability {:.1} %",
                built.len(),
                pct(generic),
                pct(inner),
                pct(nullable),
                pct(by_null)
            );
        }
    }
}

/// javac on embedded-API programs with the generic test method forced on
/// (`cargo test --test synth_forms_program -- --ignored embedded --nocapture`).
#[test]
#[ignore = "a measurement: javac on 3 × 600 programs of the embedded API"]
fn embedded_generic_programs_get_the_expected_javac_verdicts() {
    for (mode, erase) in [
        (Mode::WellTyped, false),
        (Mode::WellTyped, true),
        (Mode::IllTyped, false),
    ] {
        let built = synth_embedded_with(
            true,
            Language::Java,
            mode,
            erase,
            swarm(|s| s.generic_test_method = 1.0),
            600,
        );
        let generic: Vec<&Synthesized> = built.iter().filter(|s| is_generic(&s.program)).collect();
        let dir = tempfile::tempdir().expect("temp dir");
        let mut files = Vec::new();
        for s in &generic {
            if let Some(src) = java_source(&s.program) {
                let f = dir.path().join(format!("Test_{}.java", s.program.id));
                fs::write(&f, src).expect("write");
                files.push((s, f));
            }
        }
        let paths: Vec<PathBuf> = files.iter().map(|(_, f)| f.clone()).collect();
        let res = javac::compile_batch(&paths, None).expect("javac");
        let mut wrong = Vec::new();
        for (s, f) in &files {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let ok = res
                .verdicts
                .get(name)
                .is_some_and(|v| v.is_accepted() == (mode == Mode::WellTyped));
            if !ok {
                wrong.push(format!(
                    "{} {}: {:?}",
                    s.program.id,
                    s.record.member,
                    res.verdicts.get(name)
                ));
            }
        }
        println!(
            "{mode:?} (erase: {erase}): {} generic of {}, {} wrong javac verdicts",
            files.len(),
            built.len(),
            wrong.len()
        );
        for w in wrong.iter().take(15) {
            println!("  {w}");
        }
    }
}

/// kotlinc on embedded `java.base` programs with nullable declarations forced on: the errors
/// of well-typed programs that mention a nullable type, and the programs broken by
/// nullability that kotlinc accepts
/// (`cargo test --test synth_forms_program -- --ignored kotlin_embedded --nocapture`).
#[test]
#[ignore = "a measurement: kotlinc on programs of the embedded java.base"]
fn kotlin_embedded_nullable_programs_get_the_expected_verdicts() {
    let Ok(cp) = std::env::var("THALIA_KOTLINC_CP") else {
        require::missing_tool("kotlinc", "THALIA_KOTLINC_CP is not set");
        return;
    };
    let stdlib = cp
        .split(':')
        .find(|j| j.contains("kotlin-stdlib-") && !j.contains("jdk"))
        .expect("kotlin-stdlib")
        .to_string();
    let tr = translator(Language::Kotlin).expect("Kotlin translator");
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth_embedded(
            true,
            Language::Kotlin,
            mode,
            swarm(|s| s.nullable_types = 1.0),
            400,
        );
        let chosen: Vec<&Synthesized> = built
            .iter()
            .filter(|s| match mode {
                Mode::WellTyped => nullable_locals(&s.program) > 0,
                Mode::IllTyped => s
                    .record
                    .broken
                    .as_ref()
                    .is_some_and(|b| b.actual.ends_with('?')),
            })
            .collect();
        let dir = tempfile::tempdir().expect("temp dir");
        let mut files = Vec::new();
        for s in &chosen {
            if let Ok(src) = tr.translate(&s.program) {
                let f = dir.path().join(format!("Test_{}.kt", s.program.id));
                fs::write(&f, src).expect("write");
                files.push(f);
            }
        }
        let out = std::process::Command::new("java")
            .arg("-cp")
            .arg(&cp)
            .arg("org.jetbrains.kotlin.cli.jvm.K2JVMCompiler")
            .args([
                "-no-stdlib",
                "-no-reflect",
                "-nowarn",
                "-classpath",
                &stdlib,
            ])
            .arg("-d")
            .arg(dir.path().join("out"))
            .args(&files)
            .output()
            .expect("kotlinc runs");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        let rejected: Vec<&PathBuf> = files
            .iter()
            .filter(|f| {
                let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                err.lines()
                    .any(|l| l.contains(name) && l.contains("error:"))
            })
            .collect();
        println!(
            "{mode:?}: {} programs with the form of {}, {} rejected by kotlinc",
            files.len(),
            built.len(),
            rejected.len()
        );
        let shown: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("error:") && (mode == Mode::WellTyped))
            .take(30)
            .collect();
        for l in shown {
            println!("  {l}");
        }
        if mode == Mode::IllTyped {
            for f in files.iter().filter(|f| !rejected.contains(f)).take(10) {
                println!("  accepted: {}", fs::read_to_string(f).unwrap_or_default());
            }
        }
    }
}

/// How the program holds its call under test (`shape.wrapped` of its record).
fn wrapped(s: &Synthesized) -> Option<&str> {
    s.record.shape.wrapped.as_deref()
}

#[test]
fn the_member_under_test_is_written_as_a_function_reference() {
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth_embedded(
            true,
            Language::Java,
            mode,
            swarm(|s| s.call_as_reference = 1.0),
            300,
        );
        let refs: Vec<&Synthesized> = built
            .iter()
            .filter(|s| wrapped(s) == Some("reference"))
            .collect();
        assert!(
            refs.len() * 5 >= built.len(),
            "{mode:?}: {} of {} programs hold the member as a reference",
            refs.len(),
            built.len()
        );
        // the reference is the last statement's initializer, typed by a functional interface
        for s in &refs {
            let Some(Stmt::Local { init, .. }) = s.program.stmts.last() else {
                panic!("{}: no result local", s.program.id);
            };
            assert!(matches!(init, Expr::Ref { .. }), "{}", s.program.id);
        }
        if mode == Mode::WellTyped {
            // every kind the member's kind allows
            let kinds: std::collections::BTreeSet<&str> = refs
                .iter()
                .filter_map(|s| match s.program.stmts.last() {
                    Some(Stmt::Local {
                        init: Expr::Ref { kind, .. },
                        ..
                    }) => Some(match kind {
                        thalia_translators::ir::RefKind::Static { .. } => "static",
                        thalia_translators::ir::RefKind::Bound { .. } => "bound",
                        thalia_translators::ir::RefKind::Unbound { .. } => "unbound",
                        thalia_translators::ir::RefKind::Constructor { .. } => "constructor",
                        thalia_translators::ir::RefKind::ArrayConstructor { .. } => "array",
                        thalia_translators::ir::RefKind::PackageFunction { .. } => "package",
                    }),
                    _ => None,
                })
                .collect();
            for k in ["static", "bound", "unbound", "constructor"] {
                assert!(kinds.contains(k), "no {k} reference to a member under test");
            }
        }
        assert_verdicts(&refs, mode);
    }
}

#[test]
fn the_call_under_test_is_made_inside_a_lambda() {
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth_embedded(
            true,
            Language::Java,
            mode,
            swarm(|s| {
                s.call_in_lambda = 1.0;
                s.block_lambdas = 0.5;
                s.typed_lambda_params = 0.5;
            }),
            300,
        );
        let wrapped_calls: Vec<&Synthesized> = built
            .iter()
            .filter(|s| {
                matches!(
                    wrapped(s),
                    Some("closure" | "receiver-lambda" | "argument-lambda")
                )
            })
            .collect();
        assert!(
            wrapped_calls.len() * 2 >= built.len(),
            "{mode:?}: {} of {} calls inside a lambda",
            wrapped_calls.len(),
            built.len()
        );
        let lambda_of = |s: &Synthesized| match s.program.stmts.last() {
            Some(Stmt::Local {
                init: Expr::Lambda { params, block, .. },
                ..
            }) => Some((params.len(), block.len())),
            _ => None,
        };
        for s in &wrapped_calls {
            assert!(lambda_of(s).is_some(), "{}: no lambda", s.program.id);
        }
        if mode == Mode::WellTyped {
            // operands as the lambda's parameters (the receiver, arguments, two at once), and
            // blocks that declare the other operands
            for how in ["receiver-lambda", "argument-lambda"] {
                assert!(
                    wrapped_calls.iter().any(|s| wrapped(s) == Some(how)),
                    "no {how}"
                );
            }
            assert!(wrapped_calls
                .iter()
                .any(|s| lambda_of(s).is_some_and(|(n, _)| n == 2)));
            assert!(wrapped_calls
                .iter()
                .any(|s| lambda_of(s).is_some_and(|(_, b)| b > 0)));
        }
        assert_verdicts(&wrapped_calls, mode);
    }
}

/// The reference that holds the member under test (the last statement's initializer).
fn test_reference(s: &Synthesized) -> Option<(&thalia_translators::ir::RefKind, bool)> {
    match s.program.stmts.last() {
        Some(Stmt::Local {
            init:
                Expr::Ref {
                    kind,
                    method_pointer,
                    ..
                },
            ..
        }) => Some((kind, *method_pointer)),
        _ => None,
    }
}

#[test]
fn groovy_writes_method_pointers_to_the_member_under_test_only_in_well_typed_programs() {
    let forced = || {
        swarm(|s| {
            s.call_as_reference = 1.0;
            s.method_pointers = 1.0;
        })
    };
    let well = synth_embedded(true, Language::Groovy, Mode::WellTyped, forced(), 200);
    assert!(
        well.iter()
            .filter_map(test_reference)
            .any(|(_, pointer)| pointer),
        "no method pointer in well-typed Groovy programs"
    );
    // groovyc resolves `r.&m` when it is called: no static checker judges a broken one
    let ill = synth_embedded(true, Language::Groovy, Mode::IllTyped, forced(), 200);
    let refs: Vec<_> = ill.iter().filter_map(test_reference).collect();
    assert!(
        !refs.is_empty(),
        "no reference in ill-typed Groovy programs"
    );
    assert!(refs.iter().all(|(_, pointer)| !pointer));
}

#[test]
fn kotlin_references_no_static_method_of_a_generic_class() {
    let api = thalia::embedded::embedded_api();
    let built = synth_embedded(
        false,
        Language::Kotlin,
        Mode::WellTyped,
        swarm(|s| s.call_as_reference = 1.0),
        300,
    );
    let statics: Vec<&str> = built
        .iter()
        .filter_map(test_reference)
        .filter_map(|(k, _)| match k {
            thalia_translators::ir::RefKind::Static { class, .. } => Some(class.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        !statics.is_empty(),
        "no static reference in Kotlin programs"
    );
    for c in statics {
        let id = api.class_by_name(c).expect("an API class");
        assert!(
            api.class(id).type_params.is_empty(),
            "Kotlin cannot write `{c}::m` for a generic class"
        );
    }
}

#[test]
fn the_function_holding_the_call_under_test_is_cast_to_its_interface() {
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth_embedded(
            true,
            Language::Java,
            mode,
            swarm(|s| {
                s.call_as_reference = 0.5;
                s.call_in_lambda = 1.0;
                s.function_casts = 1.0;
                s.inferred_locals = 0.5;
            }),
            300,
        );
        // `F res = (F) <reference or lambda>;`, or `var res = (F) ..;`
        let cast_of = |s: &Synthesized| match s.program.stmts.last() {
            Some(Stmt::Local {
                init: Expr::Cast { expr, ty, .. },
                ty: declared,
                inferred,
                ..
            }) if ty == declared && matches!(**expr, Expr::Ref { .. } | Expr::Lambda { .. }) => {
                Some((matches!(**expr, Expr::Ref { .. }), *inferred))
            }
            _ => None,
        };
        let cast: Vec<&Synthesized> = built.iter().filter(|s| cast_of(s).is_some()).collect();
        let held = built.iter().filter(|s| wrapped(s).is_some()).count();
        assert!(
            cast.len() * 10 >= held * 9 && !cast.is_empty(),
            "{mode:?}: {} of {held} functions holding the call under test are cast",
            cast.len()
        );
        for (reference, inferred) in [(true, false), (false, false), (false, true)] {
            assert!(
                cast.iter()
                    .any(|s| cast_of(s) == Some((reference, inferred))),
                "{mode:?}: no cast {} with inferred local {inferred}",
                if reference { "reference" } else { "lambda" }
            );
        }
        assert_verdicts(&cast, mode);
    }
}

#[test]
fn kotlin_references_reach_java_members_below_mapped_types_and_kotlinc_agrees() {
    let mut api = thalia::embedded::embedded_corpus("java.base").expect("embedded java.base");
    let mut checked: Vec<(&Synthesized, bool)> = Vec::new();
    let mut built_all = Vec::new();
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth_embedded(
            true,
            Language::Kotlin,
            mode,
            swarm(|s| s.call_as_reference = 1.0),
            400,
        );
        built_all.push((mode, built));
    }
    // a member whose class is below one of Kotlin's mapped types (a `Comparable`, an
    // `Iterable`, a `Throwable`, ...) but that no mapped class declares
    let mapped = [
        "java.lang.Comparable",
        "java.lang.Iterable",
        "java.lang.Throwable",
        "java.lang.Enum",
        "java.lang.CharSequence",
        "java.util.Map",
    ];
    let mut below_mapped = 0;
    for (mode, built) in &built_all {
        let refs: Vec<&Synthesized> = built
            .iter()
            .filter(|s| wrapped(s) == Some("reference"))
            .collect();
        assert!(
            refs.len() >= 10,
            "{mode:?}: {} Kotlin references",
            refs.len()
        );
        for s in &refs {
            let Some(id) = api.class_by_name(&s.record.class) else {
                continue;
            };
            let sym = api.class(id).sym;
            let t = api.ts.self_type(sym);
            let sups = api.ts.all_supertypes(t);
            if sups.iter().any(|&u| {
                api.ts
                    .arena
                    .as_class(u)
                    .is_some_and(|(n, _)| mapped.contains(&api.ts.arena.name(n)))
            }) {
                below_mapped += 1;
            }
        }
        // programs Kotlin cannot write (a reference for a mapped interface) are not written
        let tr = translator(Language::Kotlin).expect("Kotlin translator");
        checked.extend(
            refs.into_iter()
                .filter(|s| tr.translate(&s.program).is_ok())
                .take(KOTLINC_PER_KIND)
                .map(|s| (s, *mode == Mode::WellTyped)),
        );
    }
    assert!(
        below_mapped > 0,
        "no reference to a member below a mapped type"
    );
    kotlinc_verdicts(&checked);
}
