//! The expression forms of issue #13 items 1-3 in synthesized programs: function references
//! of all five kinds, conditionals joining different subtypes, and lambdas whose bodies call
//! API members on their parameters (block bodies, typed parameters, the alternative forms,
//! casts). Each form is forced on through the swarm configuration (probability 1.0) on the
//! embedded JDK 17 `java.base`; the Java programs are compiled with javac (well-typed: none
//! may be rejected), and synthesis stays deterministic.
//!
//! `cargo test --test synth_forms_expr -- --nocapture` prints the census of each test;
//! `census_of_default_runs` (ignored) prints the share of programs using each form in a
//! default run of 2,000 programs per language.

use crate::support::javac;
use crate::support::require;

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use thalia::api::{Api, MemberId};
use thalia::embedded::embedded_corpus;
use thalia::synth::build::Worker;
use thalia::synth::{
    program_id, Mode, Run, Selection, SwarmConfig, SynthConfig, SynthContext, Synthesized,
};
use thalia::types::TypeId;
use thalia_translators::ir::{Expr, LambdaForm, Program, RefKind, Stmt};
use thalia_translators::{translator, Language, TranslateError};

/// Programs per forced-form run (small: each test stays within seconds).
const COUNT: usize = 300;
/// The seed of every run.
const SEED: u64 = 20_261_123;

fn java_base() -> Api {
    embedded_corpus("java.base").expect("the embedded java.base")
}

/// The swarm with the expression forms of items 1-3 always on and always used where they fit.
fn forced() -> SwarmConfig {
    SwarmConfig {
        references: 1.0,
        method_pointers: 1.0,
        conditionals: 1.0,
        lambda_bodies: 1.0,
        block_lambdas: 1.0,
        typed_lambda_params: 1.0,
        arrow_lambdas: 1.0,
        anonymous_functions: 1.0,
        function_casts: 1.0,
        use_probability: 1.0,
        ..SwarmConfig::none()
    }
}

/// [`forced`] without conditionals, which at probability 1.0 take every position first.
fn forced_functions() -> SwarmConfig {
    SwarmConfig {
        conditionals: 0.0,
        ..forced()
    }
}

/// Every form on, each used at half the places it fits (so that a conditional's branches are
/// not all conditionals again).
fn half() -> SwarmConfig {
    SwarmConfig {
        use_probability: 0.5,
        ..forced()
    }
}

fn config(lang: Language, swarm: SwarmConfig, mode: Mode) -> SynthConfig {
    SynthConfig {
        lang,
        mode,
        swarm,
        ..SynthConfig::default()
    }
}

/// The first `n` programs of a whole run (plan and build, as `thalia synth` does).
fn synthesize(
    api: &Api,
    ctx: &SynthContext,
    lang: Language,
    swarm: SwarmConfig,
    mode: Mode,
    n: usize,
) -> Vec<Synthesized> {
    let cfg = config(lang, swarm, mode);
    let run = Run {
        api,
        ctx,
        cfg: &cfg,
        seed: SEED,
        jobs: 1,
    };
    let plan = run.plan();
    run.build(&plan, &Selection::First(n), &|| {})
}

/// The testable members with a parameter of a functional interface type (where lambdas and
/// references go), in the context's stable order.
fn functional_members(api: &Api, ctx: &SynthContext) -> Vec<MemberId> {
    let functional = |t: TypeId| {
        api.ts
            .arena
            .as_class(t)
            .and_then(|(s, _)| api.class_by_sym(s))
            .is_some_and(|c| api.class(c).functional)
    };
    ctx.testable
        .iter()
        .copied()
        .filter(|&m| api.member(m).params.iter().any(|p| functional(p.ty)))
        .collect()
}

/// One program for each of up to `n` members with a functional parameter.
fn synthesize_functional(
    api: &Api,
    ctx: &SynthContext,
    lang: Language,
    swarm: SwarmConfig,
    n: usize,
) -> Vec<Synthesized> {
    let cfg = config(lang, swarm, Mode::WellTyped);
    synthesize_functional_with(api, ctx, &cfg, n)
}

/// [`synthesize_functional`] with a whole configuration.
fn synthesize_functional_with(
    api: &Api,
    ctx: &SynthContext,
    cfg: &SynthConfig,
    n: usize,
) -> Vec<Synthesized> {
    let mut w = Worker::new(api.clone(), ctx, cfg);
    let mut out = Vec::new();
    let all = functional_members(api, ctx);
    // spread over the whole API (members are ordered by class name)
    let step = (all.len() / n.max(1)).max(1);
    for (k, &m) in all.iter().enumerate() {
        if out.len() >= n {
            break;
        }
        if k % step != 0 {
            continue;
        }
        let Ok(tasks) = w.enumerate_member(m, SEED) else {
            continue;
        };
        let Some(task) = tasks.first() else { continue };
        let i = out.len();
        let (program, record, _) = w.build_program(task, &program_id(i), SEED, i as u64);
        out.push(Synthesized {
            index: i,
            program,
            record,
        });
    }
    out
}

/// What a program's expressions use, by form.
#[derive(Default, Debug)]
struct Census {
    forms: BTreeMap<&'static str, usize>,
}

impl Census {
    fn of(programs: &[Synthesized]) -> Census {
        let mut c = Census::default();
        for s in programs {
            for f in forms_of(&s.program) {
                *c.forms.entry(f).or_insert(0) += 1;
            }
        }
        c
    }

    fn get(&self, f: &str) -> usize {
        self.forms.get(f).copied().unwrap_or(0)
    }

    fn table(&self, n: usize) -> String {
        self.forms
            .iter()
            .map(|(f, k)| format!("{f:>22}: {k:>5} ({:.1} %)", 100.0 * *k as f64 / n as f64))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A rough type of an expression, enough to tell two branches apart.
fn shape(e: &Expr) -> Option<String> {
    Some(match e {
        Expr::Lit(l) => format!("{:?}", std::mem::discriminant(l)),
        Expr::Bottom(t) => format!("{t:?}"),
        Expr::New { class, .. } => class.clone(),
        Expr::Cast { ty, .. } => format!("{ty:?}"),
        Expr::NewArray { elem, .. } => format!("{elem:?}[]"),
        _ => return None,
    })
}

/// True when `e` reads the local `name` somewhere.
fn reads(e: &Expr, name: &str) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x, Expr::Local(n) if n == name));
    found
}

/// The forms one program uses (each once).
fn forms_of(p: &Program) -> std::collections::BTreeSet<&'static str> {
    let mut f = std::collections::BTreeSet::new();
    p.walk_exprs(&mut |e| match e {
        Expr::Ref {
            kind,
            method_pointer,
            ..
        } => {
            f.insert("reference");
            f.insert(match kind {
                RefKind::Static { .. } => "ref static",
                RefKind::Bound { .. } => "ref bound",
                RefKind::Unbound { .. } => "ref unbound",
                RefKind::Constructor { .. } => "ref constructor",
                RefKind::ArrayConstructor { .. } => "ref array constructor",
                RefKind::PackageFunction { .. } => "ref package function",
            });
            if let RefKind::Constructor {
                type_args: None, ..
            } = kind
            {
                f.insert("ref constructor inferred");
            }
            if *method_pointer {
                f.insert("method pointer");
            }
        }
        Expr::Cond { then, els, .. } => {
            f.insert("conditional");
            if let (Some(a), Some(b)) = (shape(then), shape(els)) {
                if a != b {
                    f.insert("conditional joining");
                }
            }
            if matches!(**then, Expr::Cond { .. }) || matches!(**els, Expr::Cond { .. }) {
                f.insert("conditional nested");
            }
            let fun = |x: &Expr| matches!(x, Expr::Lambda { .. } | Expr::Ref { .. });
            if fun(then) || fun(els) {
                f.insert("conditional function");
            }
        }
        Expr::Lambda {
            params,
            body,
            block,
            form,
            ..
        } => {
            f.insert("lambda");
            let uses = params
                .iter()
                .any(|(n, _)| reads(body, n) || block.iter().any(|s| reads(s.expr_ref(), n)));
            if uses {
                f.insert("lambda uses param");
            }
            if !block.is_empty() {
                f.insert("lambda block");
                let feeds = block.iter().any(|s| match s {
                    Stmt::Local { name, .. } => reads(body, name),
                    Stmt::Expr(_) => false,
                });
                if feeds {
                    f.insert("lambda block feeds");
                }
            }
            if params.iter().any(|(_, t)| t.is_some()) {
                f.insert("lambda typed params");
            }
            match form {
                LambdaForm::Arrow => {
                    f.insert("lambda arrow");
                }
                LambdaForm::AnonymousFunction => {
                    f.insert("anonymous function");
                }
                LambdaForm::Usual => {}
            }
        }
        Expr::Cast { expr, .. } if matches!(**expr, Expr::Lambda { .. } | Expr::Ref { .. }) => {
            f.insert("function cast");
        }
        _ => {}
    });
    f
}

#[test]
fn forced_forms_appear_in_java_programs() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    // (twice the usual sample: array constructor references fit few members, those that
    // want an `IntFunction<T[]>`)
    let built = synthesize_functional(&api, &ctx, Language::Java, forced_functions(), 2 * COUNT);
    let c = Census::of(&built);
    println!("{}", c.table(built.len()));
    for f in [
        "ref static",
        "ref bound",
        "ref unbound",
        "ref constructor",
        "ref array constructor",
        "lambda uses param",
        "lambda block feeds",
        "lambda typed params",
        "function cast",
    ] {
        assert!(
            c.get(f) > 0,
            "no program with `{f}`:\n{}",
            c.table(built.len())
        );
    }
    assert_eq!(c.get("conditional"), 0);
    // Java has one lambda form and no method pointers
    assert_eq!(c.get("lambda arrow") + c.get("anonymous function"), 0);
    assert_eq!(c.get("method pointer"), 0);
    let built = synthesize_functional(&api, &ctx, Language::Java, half(), COUNT);
    let c = Census::of(&built);
    println!("{}", c.table(built.len()));
    for f in [
        "conditional joining",
        "conditional nested",
        "conditional function",
    ] {
        assert!(
            c.get(f) > 0,
            "no program with `{f}`:\n{}",
            c.table(built.len())
        );
    }
}

#[test]
fn each_language_gets_its_own_forms() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let groovy = synthesize_functional(&api, &ctx, Language::Groovy, forced_functions(), 150);
    let g = Census::of(&groovy);
    assert!(g.get("lambda arrow") > 0, "{}", g.table(groovy.len()));
    assert!(g.get("method pointer") > 0, "{}", g.table(groovy.len()));
    let kotlin = synthesize_functional(&api, &ctx, Language::Kotlin, forced_functions(), 150);
    let k = Census::of(&kotlin);
    assert!(k.get("anonymous function") > 0, "{}", k.table(kotlin.len()));
    // Kotlin has no reference to an array constructor
    assert_eq!(
        k.get("ref array constructor"),
        0,
        "{}",
        k.table(kotlin.len())
    );
    assert!(k.get("reference") > 0, "{}", k.table(kotlin.len()));
}

#[test]
fn forms_are_off_when_the_swarm_says_so() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let built = synthesize_functional(&api, &ctx, Language::Java, SwarmConfig::none(), COUNT);
    assert!(!built.is_empty());
    let c = Census::of(&built);
    for f in [
        "reference",
        "conditional",
        "lambda block",
        "lambda typed params",
    ] {
        assert_eq!(
            c.get(f),
            0,
            "`{f}` without its feature:\n{}",
            c.table(COUNT)
        );
    }
}

#[test]
fn synthesis_with_the_forms_is_deterministic() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let json = |v: &[Synthesized]| {
        v.iter()
            .map(|s| serde_json::to_string(&s.program).expect("serializes"))
            .collect::<Vec<_>>()
    };
    let a = synthesize_functional(&api, &ctx, Language::Groovy, forced(), 150);
    let b = synthesize_functional(&api, &ctx, Language::Groovy, forced(), 150);
    assert_eq!(json(&a), json(&b));
    // a worker that built other programs first (its caches filled) gives the same ones
    let cfg = config(Language::Groovy, forced(), Mode::WellTyped);
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let mut rebuilt = Vec::new();
    let members = functional_members(&api, &ctx);
    for s in a.iter().rev() {
        let m = members
            .iter()
            .copied()
            .find(|&m| api.signature(m) == s.record.member)
            .expect("the member of a built program");
        let tasks = w.enumerate_member(m, SEED).expect("enumerates as before");
        let (p, _, _) = w.build_program(&tasks[0], &s.program.id, SEED, s.index as u64);
        rebuilt.push(serde_json::to_string(&p).expect("serializes"));
    }
    rebuilt.reverse();
    assert_eq!(json(&a), rebuilt);
}

/// The names of the locals declared in the program's lambda blocks (`l7 `, with the space
/// that follows a declared name).
fn block_locals(p: &Program) -> Vec<String> {
    let mut names = Vec::new();
    p.walk_exprs(&mut |e| {
        if let Expr::Lambda { block, .. } = e {
            for st in block {
                if let Stmt::Local { name, .. } = st {
                    names.push(format!("{name} "));
                }
            }
        }
    });
    names
}

/// Compiles the translatable Java programs with javac; returns (translated, untranslatable by
/// reason, rejected with their first diagnostic).
fn compile_java(built: &[Synthesized]) -> (usize, BTreeMap<String, usize>, Vec<String>) {
    let dir = tempfile::Builder::new()
        .prefix("thalia-forms-")
        .tempdir()
        .expect("tempdir");
    let t = translator(Language::Java).expect("a Java translator");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut untranslatable: BTreeMap<String, usize> = BTreeMap::new();
    for s in built {
        match t.translate(&s.program) {
            // a translator that does not write lambda blocks yet (the Java spelling of the
            // forms is built beside this synthesis) would drop their locals
            Ok(src)
                if !block_locals(&s.program)
                    .iter()
                    .all(|n| src.contains(n.as_str())) =>
            {
                *untranslatable
                    .entry("lambda block not written".into())
                    .or_insert(0) += 1;
            }
            Ok(src) => {
                let f = dir.path().join(t.file_name(&s.program));
                fs::write(&f, src).expect("writes a program");
                files.push(f);
            }
            Err(e @ TranslateError::Unsupported { .. }) => {
                *untranslatable.entry(e.to_string()).or_insert(0) += 1;
            }
            Err(e) => panic!("{}: {e}", s.program.id),
        }
    }
    let res = javac::compile_batch(&files, None).expect("javac runs");
    let rejected: Vec<String> = res
        .verdicts
        .iter()
        .filter_map(|(name, v)| match v {
            javac::Verdict::Accepted => None,
            javac::Verdict::Rejected { diagnostics } => Some(format!(
                "{name}: {}\n{}",
                diagnostics.first().map_or("", String::as_str),
                fs::read_to_string(dir.path().join(name)).unwrap_or_default()
            )),
        })
        .collect();
    (files.len(), untranslatable, rejected)
}

#[test]
fn javac_accepts_the_well_typed_java_programs_with_the_forms() {
    if !javac::javac_available() {
        require::missing_tool(
            "javac_accepts_the_well_typed_java_programs_with_the_forms",
            "javac not found on PATH",
        );
        return;
    }
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let mut built = synthesize_functional(&api, &ctx, Language::Java, forced_functions(), COUNT);
    built.extend(
        // with erasure: a receiver or cast gives no target type to an erased call
        synthesize_functional_with(
            &api,
            &ctx,
            &SynthConfig {
                erase: true,
                ..config(Language::Java, half(), Mode::WellTyped)
            },
            COUNT / 2,
        )
        .into_iter()
        .map(|mut s| {
            s.index += COUNT;
            s.program.id = program_id(s.index);
            s
        }),
    );
    let (translated, untranslatable, rejected) = compile_java(&built);
    println!(
        "{translated} of {} programs translated; untranslatable: {untranslatable:?}; {} rejected",
        built.len(),
        rejected.len()
    );
    assert!(translated > 0, "no program translated: {untranslatable:?}");
    assert!(
        rejected.is_empty(),
        "{} well-typed programs rejected:\n{}",
        rejected.len(),
        rejected
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "a census of 2,000 programs per language; run with --ignored --nocapture"]
fn census_of_default_runs() {
    let mut api = thalia::embedded::embedded_api();
    let ctx = SynthContext::new(&mut api);
    for lang in [Language::Java, Language::Groovy, Language::Kotlin] {
        let built = synthesize(
            &api,
            &ctx,
            lang,
            SwarmConfig::default(),
            Mode::WellTyped,
            2000,
        );
        let c = Census::of(&built);
        println!(
            "== {lang:?}: {} programs\n{}",
            built.len(),
            c.table(built.len())
        );
    }
}
