//! The forms of issue #36: functional operands deep in the inhabitant chains (lambdas and
//! references as arguments of the calls on a path), deep inhabitants (programs of about ten
//! API calls), type arguments left to inference (the diamond), test methods whose type
//! variables are bounded by each other or F-bounded, and Groovy's `as` coercion.
//!
//! Each form is forced on (its swarm probability at 1.0) over the embedded `java.base` and
//! must appear in the census; with the forms off it must not. The well-typed Java programs
//! are compiled with javac (all accepted) and the ill-typed ones rejected. Well-typed Groovy
//! programs are compiled with groovyc when `THALIA_GROOVY_CP` is set: a program it rejects
//! must have a Java twin that javac accepts (groovyc's own inference of erased calls in
//! argument position differs from Java's: a finding, not a false alarm); Kotlin ones with
//! kotlinc when `THALIA_KOTLINC_CP` is set (all accepted).

use crate::support::javac;
use crate::support::require;

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use thalia::api::Api;
use thalia::embedded::embedded_corpus;
use thalia::synth::census::{forms_and_counts, Census, DENSE_CALLS};
use thalia::synth::{Mode, Run, Selection, SwarmConfig, SynthConfig, SynthContext, Synthesized};
use thalia_translators::{translator, Language};

/// Seed of every run.
const SEED: u64 = 20_261_128;
/// Programs per run.
const COUNT: usize = 240;

fn java_base() -> Api {
    embedded_corpus("java.base").expect("the embedded java.base")
}

/// The default swarm with the forms of issue #36 on in every program.
fn forced() -> SwarmConfig {
    SwarmConfig {
        deep_inhabitants: 1.0,
        functional_operands: 1.0,
        inferred_type_args: 1.0,
        generic_constructors: 1.0,
        related_type_vars: 1.0,
        as_coercion: 1.0,
        ..SwarmConfig::default()
    }
}

/// The default swarm with the forms of issue #36 off.
fn off() -> SwarmConfig {
    SwarmConfig {
        deep_inhabitants: 0.0,
        functional_operands: 0.0,
        inferred_type_args: 0.0,
        generic_constructors: 0.0,
        related_type_vars: 0.0,
        as_coercion: 0.0,
        ..SwarmConfig::default()
    }
}

fn synth(
    api: &Api,
    ctx: &SynthContext,
    lang: Language,
    mode: Mode,
    swarm: SwarmConfig,
) -> Vec<Synthesized> {
    let cfg = SynthConfig {
        lang,
        mode,
        swarm,
        ..SynthConfig::default()
    };
    let run = Run {
        api,
        ctx,
        cfg: &cfg,
        seed: SEED,
        jobs: 2,
    };
    let plan = run.plan();
    // a sample spread over the round: members from all over java.base
    let stride = (plan.order.len() / COUNT).max(1);
    let mut built = run.build(&plan, &Selection::Stride(stride), &|| {});
    built.truncate(COUNT);
    built
}

fn census(built: &[Synthesized]) -> Census {
    let mut c = Census::default();
    for s in built {
        c.add_record(&s.program, &s.record);
    }
    c
}

#[test]
fn the_forms_are_written_when_on_and_absent_when_off() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    for lang in [Language::Java, Language::Groovy] {
        let on = census(&synth(&api, &ctx, lang, Mode::WellTyped, forced()));
        println!("{lang} forced:\n{}", on.table());
        let mut want = vec![
            "functional-argument",
            "dense",
            "diamond",
            "related-type-vars",
        ];
        if lang == Language::Groovy {
            want.push("as-coercion");
        }
        for form in &want {
            assert!(on.share(form) > 0.0, "{lang}: no {form}\n{}", on.table());
        }
        assert!(
            on.share("related-type-vars") >= 0.10,
            "{lang}: related type variables in {:.1}% of the programs",
            100.0 * on.share("related-type-vars")
        );
        let none_built = synth(&api, &ctx, lang, Mode::WellTyped, off());
        let none = census(&none_built);
        for form in ["diamond", "related-type-vars", "as-coercion"] {
            assert_eq!(none.forms.get(form), None, "{lang}: {form} while off");
        }
        assert_eq!(
            in_place(&none_built),
            0,
            "{lang}: arguments in place while off"
        );
    }
}

/// Programs whose call under test takes a functional argument written in place (`r.m(x ->
/// e)`) or a diamond in place (`r.m(new ArrayList<>())`).
fn in_place(built: &[Synthesized]) -> usize {
    built
        .iter()
        .filter(|s| s.record.shape.inline_functional_args + s.record.shape.inline_diamonds > 0)
        .count()
}

/// Item 8 of issue #36: in a default campaign (the default swarm) over the embedded
/// `java.base`, functional arguments of calls (lambdas and references deep in the operands,
/// through paths to a type variable that a function-taking member reaches) are in at least
/// a tenth of the programs of every language, the diamond in 6 % or more of the Java and
/// Groovy ones, and in a quarter or more of the programs where the API allows it in every
/// language (the operands of a generic class type with a constructible class below: 16–18 %
/// of the programs).
#[test]
fn a_default_campaign_writes_functional_arguments_and_diamonds() {
    let mut api = embedded_corpus("java.base").expect("the embedded java.base");
    let ctx = SynthContext::new(&mut api);
    for lang in [
        Language::Java,
        Language::Groovy,
        Language::Kotlin,
        Language::Scala3,
    ] {
        let cfg = SynthConfig {
            lang,
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
        let n = 3_000;
        let stride = (plan.order.len() / n).max(1);
        let built = run.build(&plan, &Selection::Stride(stride), &|| {});
        let c = census(&built);
        println!("{lang} default ({} programs):\n{}", built.len(), c.table());
        assert!(
            c.share("functional-argument") >= 0.10,
            "{lang}: functional arguments in {:.1}% of the programs",
            100.0 * c.share("functional-argument")
        );
        // only a few typing sequences take a function (the call under test's own
        // arguments): about 0.5 % of the programs
        assert!(in_place(&built) > 0, "{lang}: no argument in place");
        if matches!(lang, Language::Java | Language::Groovy) {
            assert!(
                c.share("diamond") >= 0.06,
                "{lang}: the diamond in {:.1}% of the programs",
                100.0 * c.share("diamond")
            );
        }
        // where the API allows it (an operand of a generic class type that a generic API
        // class's constructor can make), the diamond is in a quarter of the programs or more
        // (Kotlin writes it only in programs that leave other type arguments to inference)
        assert!(
            c.share_among("diamond", "diamond-site") >= 0.25,
            "{lang}: the diamond in {:.1}% of the programs with a diamond site",
            100.0 * c.share_among("diamond", "diamond-site")
        );
    }
}

#[test]
fn deep_inhabitants_make_denser_programs() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let calls = |swarm: SwarmConfig| {
        let built = synth(&api, &ctx, Language::Java, Mode::WellTyped, swarm);
        let per: Vec<usize> = built
            .iter()
            .map(|s| forms_and_counts(&s.program).1.api_calls)
            .collect();
        let mean = per.iter().sum::<usize>() as f64 / per.len().max(1) as f64;
        let dense = per.iter().filter(|&&n| n >= DENSE_CALLS).count();
        (mean, dense)
    };
    let (shallow, _) = calls(off());
    let (deep, dense) = calls(SwarmConfig {
        deep_inhabitants: 1.0,
        ..off()
    });
    println!("API calls per program: {shallow:.2} shallow, {deep:.2} deep ({dense} dense)");
    assert!(deep > shallow * 1.3, "{deep:.2} vs {shallow:.2}");
    assert!(dense > 0, "no program with {DENSE_CALLS} API calls");
}

/// The Java sources of the programs the translator writes.
fn java_sources(built: &[Synthesized], dir: &std::path::Path) -> Vec<PathBuf> {
    let t = translator(Language::Java).expect("Java");
    built
        .iter()
        .filter_map(|s| {
            let src = t.translate(&s.program).ok()?;
            let f = dir.join(t.file_name(&s.program));
            fs::write(&f, src).expect("write");
            Some(f)
        })
        .collect()
}

#[test]
fn javac_gives_the_expected_verdicts_with_the_forms() {
    if !javac::javac_available() {
        require::missing_tool(
            "javac_gives_the_expected_verdicts_with_the_forms",
            "javac not found on PATH",
        );
        return;
    }
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = synth(&api, &ctx, Language::Java, mode, forced());
        let dir = tempfile::tempdir().expect("temp dir");
        let files = java_sources(&built, dir.path());
        assert!(
            files.len() * 10 >= built.len() * 9,
            "{} written",
            files.len()
        );
        let res = javac::compile_batch(&files, None).expect("javac runs");
        let wrong: Vec<String> = res
            .verdicts
            .iter()
            .filter(|(_, v)| v.is_accepted() != (mode == Mode::WellTyped))
            .map(|(name, v)| {
                format!(
                    "{name}: {v:?}\n{}",
                    fs::read_to_string(dir.path().join(name)).unwrap_or_default()
                )
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "{mode:?}: {} of {} programs got the wrong verdict:\n{}",
            wrong.len(),
            files.len(),
            wrong.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}

/// The files a compiler's error output names (`Test_p000001.groovy: 6: ...`).
fn rejected_files(stderr: &str, ext: &str) -> std::collections::BTreeSet<String> {
    stderr
        .split(|c: char| c.is_whitespace() || c == ':' || c == '/')
        .filter(|w| w.starts_with("Test_") && w.ends_with(ext))
        .map(str::to_string)
        .collect()
}

/// Compiles the programs with a JVM compiler from a classpath variable; `None` when unset.
fn compile_with(
    env: &str,
    main: &str,
    lang: Language,
    built: &[Synthesized],
) -> Option<(usize, std::collections::BTreeSet<String>, String)> {
    let Ok(cp) = std::env::var(env) else {
        require::missing_tool(lang.name(), &format!("{env} is not set"));
        return None;
    };
    let t = translator(lang).expect("a translator");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for s in built {
        if let Ok(src) = t.translate(&s.program) {
            let f = dir.path().join(t.file_name(&s.program));
            fs::write(&f, src).expect("write");
            files.push(f);
        }
    }
    let out_dir = dir.path().join("out");
    let mut cmd = Command::new("java");
    cmd.arg("-Xss8m").arg("-cp").arg(&cp).arg(main);
    if lang == Language::Groovy {
        cmd.arg(format!("-d={}", out_dir.display()));
    } else if matches!(lang, Language::Scala3 | Language::Scala2) {
        // (scala-library, on the compiler's classpath, is the programs' too)
        fs::create_dir_all(&out_dir).expect("mkdir");
        cmd.args(["-usejavacp", "-nowarn", "-d"]).arg(&out_dir);
    } else {
        let stdlib = cp
            .split(':')
            .find(|j| j.contains("kotlin-stdlib-") && !j.contains("jdk"))
            .expect("kotlin-stdlib on the classpath")
            .to_string();
        cmd.args([
            "-no-stdlib",
            "-no-reflect",
            "-nowarn",
            "-classpath",
            &stdlib,
        ])
        .arg("-d")
        .arg(&out_dir);
    }
    let out = cmd.args(&files).output().expect("the compiler runs");
    let err =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    let ext = format!(".{}", t.file_name(&built[0].program).rsplit('.').next()?);
    Some((files.len(), rejected_files(&err, &ext), err))
}

#[test]
fn groovyc_rejects_only_well_typed_programs_whose_java_twin_javac_accepts() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let built: Vec<Synthesized> = synth(&api, &ctx, Language::Groovy, Mode::WellTyped, forced());
    let c = census(&built);
    assert!(c.share("as-coercion") > 0.0, "{}", c.table());
    let Some((n, rejected, err)) = compile_with(
        "THALIA_GROOVY_CP",
        "org.codehaus.groovy.tools.FileSystemCompiler",
        Language::Groovy,
        &built,
    ) else {
        return;
    };
    println!("groovyc: {} of {n} rejected:\n{err}", rejected.len());
    // a rejection is groovyc's own where javac accepts the program's Java twin; one that
    // javac rejects too is the generator's false alarm
    if rejected.is_empty() || !javac::javac_available() {
        return;
    }
    let twins: Vec<Synthesized> = built
        .into_iter()
        .filter(|s| rejected.contains(&format!("Test_{}.groovy", s.program.id)))
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let files = java_sources(&twins, dir.path());
    let res = javac::compile_batch(&files, None).expect("javac runs");
    let false_alarms: Vec<&String> = res
        .verdicts
        .iter()
        .filter(|(_, v)| !v.is_accepted())
        .map(|(name, _)| name)
        .collect();
    assert_eq!(files.len(), twins.len(), "every twin is written");
    assert!(
        false_alarms.is_empty(),
        "javac rejects the twins of {false_alarms:?} too: generator false alarms"
    );
}

#[test]
fn kotlinc_accepts_the_well_typed_programs_with_the_forms() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let built: Vec<Synthesized> = synth(&api, &ctx, Language::Kotlin, Mode::WellTyped, forced())
        .into_iter()
        .take(COUNT / 2)
        .collect();
    let c = census(&built);
    assert!(c.share("related-type-vars") > 0.0, "{}", c.table());
    let Some((n, rejected, err)) = compile_with(
        "THALIA_KOTLINC_CP",
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        Language::Kotlin,
        &built,
    ) else {
        return;
    };
    println!("kotlinc: {} of {n} rejected", rejected.len());
    // kotlinc's own TH9 (an `if` of `in`-projected branches as a generic call's argument is
    // typed `F<CapturedType(out Any)>`) is a known bug, not the generator's
    let unexplained: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(": error:") && !l.contains("CapturedType(out "))
        .collect();
    assert!(
        unexplained.is_empty(),
        "kotlinc rejected {rejected:?}:\n{err}"
    );
}

/// kotlin-stdlib's extensions on collections of a given type (`Collection<UInt>.toUIntArray()`,
/// `Iterable<T>.first()`) reached by deep paths from generic calls (`setOf(e)`): the type the
/// path carries must be the receiver's, or kotlinc rejects `setOf(WARNING).toUIntArray()`.
#[test]
fn kotlinc_accepts_deep_paths_through_kotlin_stdlib_extensions() {
    let mut api = embedded_corpus("kotlin-stdlib-2.4.21").expect("the embedded kotlin-stdlib");
    api.apply_kotlin_nullness();
    let ctx = SynthContext::for_native(&mut api, Some(thalia::types::Syntax::Kotlin));
    let built: Vec<Synthesized> = synth(&api, &ctx, Language::Kotlin, Mode::WellTyped, forced());
    let c = census(&built);
    assert!(c.share("dense") > 0.0, "{}", c.table());
    let Some((n, rejected, err)) = compile_with(
        "THALIA_KOTLINC_CP",
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        Language::Kotlin,
        &built,
    ) else {
        return;
    };
    println!("kotlinc: {} of {n} rejected", rejected.len());
    assert!(n > COUNT / 2, "{n} programs written");
    assert!(rejected.is_empty(), "kotlinc rejected {rejected:?}:\n{err}");
}

/// A member's first typing sequence (the member named by `signature`) with argument `i` of
/// type `ty` instead, a subtype of its parameter, built `n` times with the forms of issue #36
/// forced but conditionals (each program its own draw), numbered from `first`.
#[allow(clippy::too_many_arguments)]
fn built_with_argument(
    api: &Api,
    ctx: &SynthContext,
    lang: Language,
    signature: &str,
    i: usize,
    ty: &dyn Fn(&mut thalia::types::TypeArena) -> thalia::types::TypeId,
    n: usize,
    first: usize,
) -> Vec<Synthesized> {
    // no conditionals: javac 17 crashes on some conditionals of cast method references in
    // generic calls (its own `DeferredAttr` bug, which campaigns report), and a crash in the
    // batch has javac judge every program alone
    let cfg = SynthConfig {
        lang,
        swarm: SwarmConfig {
            conditionals: 0.0,
            ..forced()
        },
        ..SynthConfig::default()
    };
    let mut w = thalia::synth::build::Worker::new(api.clone(), ctx, &cfg);
    let m = ctx
        .testable
        .iter()
        .copied()
        .find(|&m| api.signature(m) == signature)
        .unwrap_or_else(|| panic!("no member {signature}"));
    let mut task = w.enumerate_member(m, SEED).expect("enumerates")[0].clone();
    task.seq.args[i] = ty(&mut w.api.ts.arena);
    (first..first + n)
        .map(|k| {
            let id = thalia::synth::program_id(k);
            let (program, record, _) = w.build_program(&task, &id, SEED, k as u64);
            Synthesized {
                index: k,
                program,
                record,
            }
        })
        .collect()
}

/// The member whose first argument the tests below type as they like (any type is an
/// `Object`).
const TO_STRING: &str =
    "static java.lang.String java.util.Objects.toString(java.lang.Object, java.lang.String)";

/// Asserts that javac accepts the Java reading of every program of `built`.
fn assert_javac_accepts(built: &[Synthesized]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = java_sources(built, dir.path());
    assert_eq!(files.len(), built.len(), "every Java program is written");
    let res = javac::compile_batch(&files, None).expect("javac runs");
    let wrong: Vec<String> = res
        .verdicts
        .iter()
        .filter(|(_, v)| !v.is_accepted())
        .map(|(name, v)| {
            format!(
                "{name}: {v:?}\n{}",
                fs::read_to_string(dir.path().join(name)).unwrap_or_default()
            )
        })
        .collect();
    println!(
        "javac rejects {:?}",
        wrong
            .iter()
            .map(|w| w.split(':').next().unwrap_or(""))
            .collect::<Vec<_>>()
    );
    assert!(
        wrong.is_empty(),
        "javac rejects {} of {} programs:\n{}",
        wrong.len(),
        files.len(),
        wrong.iter().take(3).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Operands whose target is another type than the one they were made for are written so that
/// the compiler sees what synthesis assumed:
/// - an argument in place for a parameter of a supertype (`Objects.toString(() -> {}, s)` has
///   no functional interface for its lambda, `scheduleWithFixedDelay(new FutureTask<>(r, () ->
///   {}), ..)` no `V`): such an argument is a local of its own type;
/// - a diamond for a `? extends` target with a generic call among its arguments
///   (`Collection<? extends CharSequence> c = new TreeSet<>(Comparator.comparing(x ->
///   x.length()))`: javac takes `Object` for `x`) keeps its type arguments;
/// - the elements of an array written through its wildcard form (`new Comparator<?>[]
///   {Comparator.comparing(x -> ..)}` gives its elements no `T`) keep theirs.
///
/// javac accepts every such program (and kotlinc the Kotlin ones, where a constructor call in
/// place for an `Any?` parameter, `Objects.toString(java.util.ArrayList(), s)`, cannot infer
/// its `E`).
#[test]
fn operands_whose_target_is_not_their_own_type_compile() {
    if !javac::javac_available() {
        require::missing_tool(
            "operands_whose_target_is_not_their_own_type_compile",
            "javac not found on PATH",
        );
        return;
    }
    /// Programs per case.
    const N: usize = 120;
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let fill = "static void java.util.Arrays.fill(java.lang.Object[], java.lang.Object)";
    let named = |a: &mut thalia::types::TypeArena, n: &str| a.class_named(n, &[]);
    let comparator_of_strings = |a: &mut thalia::types::TypeArena| {
        let s = named(a, "java.lang.String");
        a.class_named("java.util.Comparator", &[s])
    };
    let mut java = built_with_argument(
        &api,
        &ctx,
        Language::Java,
        TO_STRING,
        0,
        &|a| named(a, "java.lang.Runnable"),
        N,
        0,
    );
    java.extend(built_with_argument(
        &api,
        &ctx,
        Language::Java,
        TO_STRING,
        0,
        &|a| {
            let s = named(a, "java.lang.String");
            let w = a.wildcard(thalia::types::Wildcard::Extends(s));
            a.class_named("java.util.Collection", &[w])
        },
        3 * N,
        N,
    ));
    java.extend(built_with_argument(
        &api,
        &ctx,
        Language::Java,
        fill,
        0,
        &|a| {
            let c = comparator_of_strings(a);
            a.array(c)
        },
        N,
        4 * N,
    ));
    // the shapes are there: lambdas for the `Runnable`, diamonds for the wildcard-typed
    // collection, generic calls in the comparator arrays
    let c = census(&java);
    assert!(c.share("lambda") > 0.2, "{}", c.table());
    assert!(c.share("diamond") > 0.05, "{}", c.table());
    assert_javac_accepts(&java);
    let kotlin = built_with_argument(
        &api,
        &ctx,
        Language::Kotlin,
        TO_STRING,
        0,
        &|a| {
            let s = named(a, "java.lang.String");
            a.class_named("java.util.ArrayList", &[s])
        },
        N,
        0,
    );
    assert!(census(&kotlin).share("diamond") > 0.05);
    let Some((n, rejected, err)) = compile_with(
        "THALIA_KOTLINC_CP",
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        Language::Kotlin,
        &kotlin,
    ) else {
        return;
    };
    println!("kotlinc: {} of {n} rejected", rejected.len());
    assert!(rejected.is_empty(), "kotlinc rejected {rejected:?}:\n{err}");
}

/// Nested classes are made where an operand wants their type: a static nested class by its
/// qualified name (`new AbstractMap.SimpleEntry<>(k, v)`, `new Locale.Builder()`), an inner
/// class on an instance of its enclosing class (`outer.new ConditionObject()`, Kotlin's
/// `outer.ConditionObject()`, Scala's `{ val o = ..; new o.ConditionObject() }`), in every
/// language, and every compiler accepts the programs.
#[test]
fn nested_and_inner_classes_are_created_where_an_operand_wants_them_and_compile() {
    if !javac::javac_available() {
        require::missing_tool(
            "nested_and_inner_classes_are_created_where_an_operand_wants_them_and_compile",
            "javac not found on PATH",
        );
        return;
    }
    /// Programs per case.
    const N: usize = 60;
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let condition = "java.util.concurrent.locks.AbstractQueuedSynchronizer.ConditionObject";
    let entry = "java.util.AbstractMap.SimpleEntry";
    let made = regex::Regex::new(
        r"(new |[=(,] *)java\.util\.AbstractMap\.SimpleEntry(<[^()]*>|\[[^()]*\])?\(",
    )
    .expect("a pattern");
    for (lang, compiler) in [
        (Language::Java, None),
        (
            Language::Kotlin,
            Some((
                "THALIA_KOTLINC_CP",
                "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
            )),
        ),
        (
            Language::Groovy,
            Some((
                "THALIA_GROOVY_CP",
                "org.codehaus.groovy.tools.FileSystemCompiler",
            )),
        ),
        (
            Language::Scala3,
            Some(("THALIA_SCALA3_CP", "dotty.tools.dotc.Main")),
        ),
        (
            Language::Scala2,
            Some(("THALIA_SCALA2_CP", "scala.tools.nsc.Main")),
        ),
    ] {
        let mut built = built_with_argument(
            &api,
            &ctx,
            lang,
            TO_STRING,
            0,
            &|a| a.class_named(condition, &[]),
            N,
            0,
        );
        built.extend(built_with_argument(
            &api,
            &ctx,
            lang,
            TO_STRING,
            0,
            &|a| {
                let s = a.class_named("java.lang.String", &[]);
                let i = a.class_named("java.lang.Integer", &[]);
                a.class_named(entry, &[s, i])
            },
            N,
            N,
        ));
        let c = census(&built);
        // the inner class wherever its type is wanted (a program's other operands may want
        // it too): far more than the tenth issue 36 asks for
        assert!(
            c.share_among("inner-class-creation", "inner-class-site") >= 0.25,
            "{lang}: inner-class creation in {:.1}% of the programs with a site\n{}",
            100.0 * c.share_among("inner-class-creation", "inner-class-site"),
            c.table()
        );
        let t = translator(lang).expect("a translator");
        let entries = built[N..]
            .iter()
            .filter(|s| t.translate(&s.program).is_ok_and(|src| made.is_match(&src)))
            .count();
        assert!(
            entries >= N / 4,
            "{lang}: `SimpleEntry` made in {entries} of {N} programs"
        );
        match compiler {
            None => assert_javac_accepts(&built),
            Some((env, main)) => {
                let Some((n, rejected, err)) = compile_with(env, main, lang, &built) else {
                    continue;
                };
                println!("{lang}: {} of {n} rejected", rejected.len());
                assert_eq!(n, built.len(), "{lang}: every program translates");
                if lang != Language::Groovy {
                    assert!(rejected.is_empty(), "{lang} rejected {rejected:?}:\n{err}");
                    continue;
                }
                // groovyc's own bugs (a diamond's arguments typed without their target,
                // TH15's family) are rejections whose Java twin javac accepts
                let twins: Vec<Synthesized> = built
                    .into_iter()
                    .filter(|s| rejected.contains(&format!("Test_{}.groovy", s.program.id)))
                    .collect();
                let dir = tempfile::tempdir().expect("temp dir");
                let files = java_sources(&twins, dir.path());
                assert_eq!(files.len(), twins.len(), "every twin is written");
                let res = javac::compile_batch(&files, None).expect("javac runs");
                let false_alarms: Vec<&String> = res
                    .verdicts
                    .iter()
                    .filter(|(_, v)| !v.is_accepted())
                    .map(|(name, _)| name)
                    .collect();
                assert!(
                    false_alarms.is_empty(),
                    "groovyc and javac reject {false_alarms:?}: generator false alarms\n{err}"
                );
            }
        }
    }
}

/// Scala 2 writes a wildcard as an existential, which may not name the type variable it
/// bounds (`def test[T <: Comparable[_ >: T]]` is an "illegal cyclic reference"): its test
/// methods copy no such bound of the member (`Comparator.naturalOrder()`), where Scala 3's
/// do, and scalac 2 accepts the programs.
#[test]
fn scala2_test_methods_bound_no_variable_through_a_wildcard_of_itself() {
    /// Programs per language.
    const N: usize = 60;
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let cyclic = regex::Regex::new(r"def test\[(\w+) <: java\.lang\.Comparable\[[_?] >: (\w+)\]")
        .expect("a pattern");
    let mut scala2 = Vec::new();
    for lang in [Language::Scala3, Language::Scala2] {
        let cfg = SynthConfig {
            lang,
            swarm: forced(),
            ..SynthConfig::default()
        };
        let mut w = thalia::synth::build::Worker::new(api.clone(), &ctx, &cfg);
        let m = ctx
            .testable
            .iter()
            .copied()
            .find(|&m| {
                api.signature(m)
                    .ends_with("java.util.Comparator.naturalOrder()")
            })
            .expect("Comparator.naturalOrder");
        let task = w.enumerate_member(m, SEED).expect("enumerates")[0].clone();
        let built: Vec<Synthesized> = (0..N)
            .map(|k| {
                let id = thalia::synth::program_id(k);
                let (program, record, _) = w.build_program(&task, &id, SEED, k as u64);
                Synthesized {
                    index: k,
                    program,
                    record,
                }
            })
            .collect();
        let t = translator(lang).expect("a translator");
        let own_bound = built
            .iter()
            .filter_map(|s| t.translate(&s.program).ok())
            .filter(|src| {
                cyclic
                    .captures(src)
                    .is_some_and(|c| c.get(1).map(|x| x.as_str()) == c.get(2).map(|x| x.as_str()))
            })
            .count();
        println!("{lang}: {own_bound} of {N} programs bound T by `Comparable[_ >: T]`");
        if lang == Language::Scala3 {
            assert!(own_bound > 0, "Scala 3 writes the member's own bound");
        } else {
            assert_eq!(own_bound, 0, "Scala 2 cannot write it");
            scala2 = built;
        }
    }
    let Some((n, rejected, err)) = compile_with(
        "THALIA_SCALA2_CP",
        "scala.tools.nsc.Main",
        Language::Scala2,
        &scala2,
    ) else {
        return;
    };
    assert_eq!(n, N, "every program translates");
    assert!(
        rejected.is_empty(),
        "scalac 2 rejected {rejected:?}:\n{err}"
    );
}
