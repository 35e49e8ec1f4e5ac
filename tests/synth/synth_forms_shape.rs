//! Program shapes and inference pressure (issue #13 items 4-6) on the embedded JDK 17
//! `java.base`: with each swarm feature forced on, its form appears (locals without a declared
//! type, the call under test on a call result, varargs calls with zero, one or several
//! elements, explicit type arguments kept); Java programs with every shape on compile with
//! javac in well-typed mode and are all rejected in ill-typed mode; a Groovy program casts an
//! operand to its declared type only where its flow type could change the verdict.
//!
//! `cargo test --test synth_forms_shape -- --nocapture` prints the casts per Groovy program
//! before and after; `-- --ignored --nocapture` also prints the share of programs using each
//! form in default 2,000-program runs (Java, Groovy, Kotlin).

use crate::support::javac;
use crate::support::require;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use thalia::api::{Api, MemberKind};
use thalia::embedded::embedded_corpus;
use thalia::synth::build::ProgramRecord;
use thalia::synth::{
    Mode, Plan, Run, Selection, SwarmConfig, SynthConfig, SynthContext, Synthesized,
};
use thalia_translators::ir::{Expr, Lit, Program, Receiver, Stmt, Ty};
use thalia_translators::{translator, Language};

/// The seed of every run here.
const SEED: u64 = 2026;

/// The embedded `java.base` with its synthesis context (built once).
fn java_base() -> &'static (Api, SynthContext) {
    static API: OnceLock<(Api, SynthContext)> = OnceLock::new();
    API.get_or_init(|| {
        let mut api = embedded_corpus("java.base").expect("the embedded java.base");
        let ctx = SynthContext::new(&mut api);
        (api, ctx)
    })
}

/// Every form off (no casts of every use either), then `set` turns some on.
fn swarm(set: impl FnOnce(&mut SwarmConfig)) -> SwarmConfig {
    let mut s = SwarmConfig::none();
    s.cast_locals = 0.0;
    set(&mut s);
    s
}

/// Plans by language, mode and erasure.
type Plans = HashMap<(Language, Mode, bool), Arc<Plan>>;

/// The plan of a run over `java.base` (it does not depend on the swarm draw), made once per
/// language, mode and erasure.
fn plan(cfg: &SynthConfig) -> Arc<Plan> {
    static PLANS: OnceLock<Mutex<Plans>> = OnceLock::new();
    let key = (cfg.lang, cfg.mode, cfg.erase);
    // held while planning: tests that want the same plan wait for it instead of making it too
    let mut plans = PLANS.get_or_init(Mutex::default).lock().expect("plans");
    let (api, ctx) = java_base();
    let run = Run {
        api,
        ctx,
        cfg,
        seed: SEED,
        jobs: 2,
    };
    Arc::clone(plans.entry(key).or_insert_with(|| Arc::new(run.plan())))
}

/// The programs of a run (seed [`SEED`]) that `pick` selects from its plan.
fn build_with(
    lang: Language,
    mode: Mode,
    erase: bool,
    swarm: SwarmConfig,
    pick: impl FnOnce(&Plan) -> Selection,
) -> Vec<Synthesized> {
    let (api, ctx) = java_base();
    let cfg = SynthConfig {
        lang,
        mode,
        erase,
        swarm,
        ..SynthConfig::default()
    };
    let plan = plan(&cfg);
    let run = Run {
        api,
        ctx,
        cfg: &cfg,
        seed: SEED,
        jobs: 2,
    };
    run.build(&plan, &pick(&plan), &|| {})
}

/// The first `n` programs of a run.
fn build(
    lang: Language,
    mode: Mode,
    erase: bool,
    swarm: SwarmConfig,
    n: usize,
) -> Vec<Synthesized> {
    build_with(lang, mode, erase, swarm, |_| Selection::First(n))
}

/// The statement of the call under test (the last one) and its call expression.
fn call_under_test(p: &Program) -> &Expr {
    match p.stmts.last().expect("a program has statements") {
        Stmt::Local { init, .. } => init,
        Stmt::Expr(e) => e,
    }
}

/// The local declarations of a program by name.
fn locals(p: &Program) -> BTreeMap<&str, (&Ty, &Expr, bool)> {
    p.stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Local {
                name,
                ty,
                init,
                inferred,
            } => Some((name.as_str(), (ty, init, *inferred))),
            Stmt::Expr(_) => None,
        })
        .collect()
}

/// The local a position of the typing sequence is declared in (`receiver`, `arg0`, `result`).
fn local_of(position: &str) -> String {
    match position {
        "receiver" => "r".into(),
        "result" => "res".into(),
        arg => format!("a{}", arg.trim_start_matches("arg")),
    }
}

fn share(part: usize, all: usize) -> f64 {
    if all == 0 {
        0.0
    } else {
        100.0 * part as f64 / all as f64
    }
}

#[test]
fn inferred_locals_appear_and_keep_their_limits() {
    let forced = swarm(|s| {
        s.inferred_locals = 1.0;
        s.use_probability = 1.0;
    });
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = build(Language::Java, mode, true, forced.clone(), 300);
        let mut with = 0;
        for s in &built {
            let ls = locals(&s.program);
            let n = ls.values().filter(|(_, _, inferred)| *inferred).count();
            assert_eq!(n, s.record.shape.inferred_locals, "{}", s.record.id);
            with += usize::from(n > 0);
            for (name, (_, init, inferred)) in &ls {
                if !inferred || *name == "res" {
                    continue;
                }
                let allowed = match init {
                    Expr::Lit(Lit::Null) => false,
                    Expr::Lit(_)
                    | Expr::Bottom(_)
                    | Expr::Call { .. }
                    | Expr::Field { .. }
                    | Expr::New {
                        type_args: Some(_), ..
                    }
                    | Expr::NewArray { .. }
                    | Expr::Cast { .. } => true,
                    _ => false,
                };
                assert!(
                    allowed,
                    "{}: {name} has no declared type but is initialized with {init:?}",
                    s.record.id
                );
                if let Expr::Bottom(Ty::Prim(_)) = init {
                    panic!("{}: {name} = a primitive's default value", s.record.id);
                }
            }
            if let Some(b) = &s.record.broken {
                let (_, _, inferred) = ls[local_of(&b.position).as_str()];
                assert!(
                    !inferred,
                    "{}: the broken {} is inferred",
                    s.record.id, b.position
                );
            }
        }
        assert!(
            with * 2 > built.len(),
            "{mode:?}: only {with} of {} programs have a local without a declared type",
            built.len()
        );
    }
}

#[test]
fn call_chains_put_a_call_result_in_the_receiver() {
    let forced = swarm(|s| {
        s.call_chains = 1.0;
        s.use_probability = 1.0;
    });
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = build(Language::Java, mode, false, forced.clone(), 300);
        let mut chains = 0;
        for s in &built {
            let recv = match call_under_test(&s.program) {
                Expr::Call {
                    receiver: Receiver::Expr(r),
                    ..
                }
                | Expr::Field {
                    receiver: Receiver::Expr(r),
                    ..
                } => Some(r.as_ref()),
                _ => None,
            };
            let inlined = recv.is_some_and(|r| {
                matches!(r, Expr::Call { .. } | Expr::Field { .. } | Expr::New { .. })
            });
            assert_eq!(inlined, s.record.shape.call_chain, "{}", s.record.id);
            if inlined {
                chains += 1;
                assert!(
                    !locals(&s.program).contains_key("r"),
                    "{}: a chained receiver is not a local",
                    s.record.id
                );
            }
        }
        let with_receiver = built
            .iter()
            .filter(|s| s.record.typing_sequence.receiver.is_some())
            .count();
        assert!(
            chains * 3 > with_receiver,
            "{mode:?}: {chains} call chains among {with_receiver} programs with a receiver"
        );
    }
}

#[test]
fn varargs_calls_take_zero_one_or_several_elements() {
    let forced = swarm(|s| {
        s.varargs_elements = 1.0;
        s.use_probability = 1.0;
    });
    let (api, _) = java_base();
    // every varargs member, with its number of parameters
    let varargs: BTreeMap<String, usize> = api
        .member_ids()
        .filter(|&m| api.member(m).params.last().is_some_and(|p| p.vararg))
        .map(|m| (api.signature(m), api.member(m).params.len()))
        .collect();
    // the programs of varargs members among the first 20,000
    let built = build_with(Language::Java, Mode::WellTyped, true, forced, |plan| {
        let (api, _) = java_base();
        Selection::Only(
            plan.order
                .iter()
                .take(20_000)
                .enumerate()
                .filter(|(_, (m, _))| api.member(*m).params.last().is_some_and(|p| p.vararg))
                .map(|(i, _)| i)
                .take(300)
                .collect(),
        )
    });
    let mut counts: BTreeSet<usize> = BTreeSet::new();
    let mut as_array = 0;
    for s in &built {
        let Some(&arity) = varargs.get(&s.record.member) else {
            assert_eq!(s.record.typing_sequence.varargs_elements, None);
            continue;
        };
        let args = match call_under_test(&s.program) {
            Expr::Call { args, .. } | Expr::New { args, .. } => args,
            _ => continue,
        };
        match s.record.typing_sequence.varargs_elements {
            Some(n) => {
                counts.insert(n);
                assert_eq!(args.len(), arity - 1 + n, "{}", s.record.id);
                assert!(
                    !args.iter().any(|a| matches!(a, Expr::Spread(_))),
                    "{}: elements are not spread",
                    s.record.id
                );
            }
            None => as_array += 1,
        }
    }
    assert_eq!(
        counts,
        BTreeSet::from([0, 1, 2, 3]),
        "element counts written ({as_array} calls kept their array)"
    );
}

#[test]
fn calls_in_operands_write_their_varargs_elements_too() {
    let forced = swarm(|s| {
        s.varargs_elements = 1.0;
        s.use_probability = 1.0;
    });
    let built = build(Language::Java, Mode::WellTyped, true, forced, 1500);
    let with = built
        .iter()
        .filter(|s| s.record.shape.varargs_element_calls > 0)
        .count();
    assert!(
        with > 0,
        "no operand call written with its varargs elements"
    );
    // off in the swarm draw, no call is
    let off = build(
        Language::Java,
        Mode::WellTyped,
        true,
        swarm(|s| s.varargs_elements = 0.0),
        1500,
    );
    assert!(off.iter().all(|s| !s.record.uses_varargs_elements()));
}

#[test]
fn explicit_type_arguments_are_kept_where_erasure_was_allowed() {
    let keep = swarm(|s| {
        s.explicit_type_args = 1.0;
        s.use_probability = 1.0;
    });
    let built = build(Language::Java, Mode::WellTyped, true, keep, 400);
    let kept = built
        .iter()
        .filter(|s| s.record.shape.explicit_type_args)
        .count();
    assert!(built.iter().all(|s| !s.record.erased), "nothing is erased");
    assert!(kept > 10, "{kept} calls kept erasable type arguments");
    // the same run without the feature erases exactly those calls
    let plain = build(Language::Java, Mode::WellTyped, true, swarm(|_| {}), 400);
    let erased: BTreeSet<&str> = plain
        .iter()
        .filter(|s| s.record.erased)
        .map(|s| s.record.id.as_str())
        .collect();
    let kept_ids: BTreeSet<&str> = built
        .iter()
        .filter(|s| s.record.shape.explicit_type_args)
        .map(|s| s.record.id.as_str())
        .collect();
    assert_eq!(erased, kept_ids);
    // a kept constructor call writes its type arguments, not the diamond
    for s in built.iter().filter(|s| s.record.shape.explicit_type_args) {
        if let Expr::New { type_args, .. } = call_under_test(&s.program) {
            assert!(
                type_args.as_ref().is_some_and(|t| !t.is_empty()),
                "{}",
                s.record.id
            );
        }
    }
}

/// The casts written on the operands of the call under test (receiver and arguments).
fn operand_casts(p: &Program) -> Vec<&Expr> {
    let mut out = Vec::new();
    match call_under_test(p) {
        Expr::Call { receiver, args, .. } => {
            if let Receiver::Expr(r) = receiver {
                if let Expr::Cast { expr, .. } = r.as_ref() {
                    out.push(expr.as_ref());
                }
            }
            for a in args {
                let a = match a {
                    Expr::Spread(inner) => inner.as_ref(),
                    a => a,
                };
                if let Expr::Cast { expr, .. } = a {
                    out.push(expr.as_ref());
                }
            }
        }
        Expr::New { args, .. } => {
            for a in args {
                if let Expr::Cast { expr, .. } = a {
                    out.push(expr.as_ref());
                }
            }
        }
        Expr::Field {
            receiver: Receiver::Expr(r),
            ..
        } => {
            if let Expr::Cast { expr, .. } = r.as_ref() {
                out.push(expr.as_ref());
            }
        }
        _ => {}
    }
    out
}

/// True when a local declared `ty` and initialized with `init` has exactly its declared type
/// in Groovy: a literal of a primitive or `String`, a reference type's bottom constant, a
/// constructor call or an array creation of exactly that type.
fn exact_init(ty: &Ty, init: &Expr) -> bool {
    let prim = matches!(ty, Ty::Prim(_));
    match init {
        Expr::Lit(Lit::Null) => false,
        Expr::Lit(_) => prim || *ty == Ty::string(),
        Expr::Bottom(t) | Expr::Cast { ty: t, .. } => !prim && t == ty,
        Expr::New {
            class,
            type_args: Some(args),
            outer: None,
            ..
        } => *ty == Ty::class(class.clone(), args.clone()),
        Expr::NewArray { elem, .. } => *ty == Ty::array(elem.clone()),
        _ => false,
    }
}

/// True when `record`'s member has another member of the same name, kind and arity in its
/// class (inherited ones too) or in the receiver's class.
fn overloaded(record: &ProgramRecord) -> bool {
    let (api, ctx) = java_base();
    let Some(m) = api
        .member_ids()
        .find(|&m| api.signature(m) == record.member)
    else {
        return true;
    };
    let mem = api.member(m);
    let receiver_class = record
        .typing_sequence
        .receiver
        .as_deref()
        .map(|r| r.split('<').next().unwrap_or(r))
        .and_then(|r| api.class_by_name(r));
    [Some(mem.owner), receiver_class]
        .into_iter()
        .flatten()
        .filter_map(|c| ctx.members_by_name.get(&c)?.get(&mem.name))
        .flatten()
        .any(|r| {
            let x = api.member(r.member);
            r.member != m
                && x.kind == mem.kind
                && x.kind != MemberKind::Field
                && x.params.len() == mem.params.len()
        })
}

/// Casts per program the old shape wrote (every use of a local: the receiver and each
/// argument) and the new one writes.
fn casts_before_after(built: &[Synthesized]) -> (f64, f64) {
    let before: usize = built
        .iter()
        .map(|s| {
            usize::from(s.record.typing_sequence.receiver.is_some())
                + s.record.typing_sequence.args.len()
        })
        .sum();
    let after: usize = built.iter().map(|s| s.record.shape.casts).sum();
    let n = built.len().max(1) as f64;
    (before as f64 / n, after as f64 / n)
}

#[test]
fn groovy_casts_an_operand_only_where_its_flow_type_matters() {
    let mut table = Vec::new();
    for mode in [Mode::WellTyped, Mode::IllTyped] {
        let built = build(Language::Groovy, mode, false, swarm(|_| {}), 300);
        for s in &built {
            let casts = operand_casts(&s.program);
            assert_eq!(casts.len(), s.record.shape.casts, "{}", s.record.id);
            // every cast is of a local (no call chains here) whose initializer the language
            // may see narrower than declared
            let ls = locals(&s.program);
            for c in &casts {
                let Expr::Local(name) = c else {
                    panic!("{}: a cast of {c:?}", s.record.id)
                };
                let (ty, init, _) = ls[name.as_str()];
                assert!(
                    !exact_init(ty, init),
                    "{}: {name} is cast but has its exact type",
                    s.record.id
                );
            }
            let needed = overloaded(&s.record) || s.record.broken.is_some();
            if !needed {
                assert!(
                    casts.is_empty(),
                    "{}: {} casts in a well-typed call of a member without overloads",
                    s.record.id,
                    casts.len()
                );
            }
            // (a) the broken receiver or argument is cast unless its initializer has exactly
            // the broken type
            if let Some(b) = &s.record.broken {
                if b.position != "result" {
                    let name = local_of(&b.position);
                    let (ty, init, _) = ls[name.as_str()];
                    let exact = exact_init(ty, init);
                    let cast = casts
                        .iter()
                        .any(|c| matches!(c, Expr::Local(n) if *n == name));
                    assert!(
                        exact || cast,
                        "{}: the broken {} ({name} = {init:?}) is not cast",
                        s.record.id,
                        b.position
                    );
                }
            }
        }
        let (before, after) = casts_before_after(&built);
        table.push(format!(
            "  groovy {mode:?}: {before:.2} casts per program before, {after:.2} after"
        ));
    }
    // (c) the old shape, as one swarm option: every use cast
    let old = build(
        Language::Groovy,
        Mode::WellTyped,
        false,
        swarm(|s| s.cast_locals = 1.0),
        200,
    );
    for s in &old {
        let operands = usize::from(s.record.typing_sequence.receiver.is_some())
            + s.record.typing_sequence.args.len();
        assert_eq!(s.record.shape.casts, operands, "{}", s.record.id);
    }
    println!(
        "\ncasts of the call under test's operands:\n{}",
        table.join("\n")
    );
}

#[test]
fn no_language_but_groovy_casts_its_locals() {
    for lang in [Language::Java, Language::Kotlin] {
        let built = build(lang, Mode::IllTyped, false, SwarmConfig::default(), 200);
        for s in &built {
            assert_eq!(s.record.shape.casts, 0, "{lang}: {}", s.record.id);
        }
    }
}

/// Java source of a program. The Java translator of this branch does not write `var` yet
/// (another engineer adds it): until then a local without a declared type is translated with
/// its type, which is then replaced by `var` on its line.
fn java_source(p: &Program) -> String {
    let java = translator(Language::Java).expect("a Java translator");
    if let Ok(src) = java.translate(p) {
        return src;
    }
    let mut typed = p.clone();
    let mut inferred = Vec::new();
    for s in &mut typed.stmts {
        if let Stmt::Local {
            name,
            inferred: inf,
            ..
        } = s
        {
            if *inf {
                *inf = false;
                inferred.push(name.clone());
            }
        }
    }
    let src = java
        .translate(&typed)
        .unwrap_or_else(|e| panic!("{}: {e}", p.id));
    let mut lines: Vec<String> = src.lines().map(str::to_owned).collect();
    for name in inferred {
        let key = format!(" {name} = ");
        let Some(line) = lines.iter_mut().find(|l| {
            l.find(&key)
                .is_some_and(|i| !l[..i].contains('=') && !l[..i].contains('('))
        }) else {
            panic!("{}: no declaration of {name} in\n{src}", p.id);
        };
        let at = line.find(&key).unwrap_or(0);
        let indent = line.len() - line.trim_start().len();
        *line = format!("{}var{}", &line[..indent], &line[at..]);
    }
    lines.join("\n") + "\n"
}

/// Compiles the programs with javac; the ids whose verdict is not `expected`, with the
/// diagnostics or the source.
fn javac_mismatches(built: &[Synthesized], accept: bool) -> Vec<String> {
    let dir = tempfile::Builder::new()
        .prefix("thalia-forms-shape-")
        .tempdir()
        .expect("tempdir");
    let mut files = Vec::new();
    for s in built {
        let path: PathBuf = dir.path().join(format!("Test_{}.java", s.record.id));
        fs::write(&path, java_source(&s.program)).expect("write a program");
        files.push(path);
    }
    let batch = javac::compile_batch(&files, None).expect("javac runs");
    let mut bad = Vec::new();
    for (s, f) in built.iter().zip(&files) {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let verdict = batch.verdicts.get(&name);
        let ok = verdict.is_some_and(|v| v.is_accepted() == accept);
        if !ok {
            let detail = match verdict {
                Some(javac::Verdict::Rejected { diagnostics }) => diagnostics.join("\n"),
                _ => fs::read_to_string(f).unwrap_or_default(),
            };
            bad.push(format!("{} ({}):\n{detail}", s.record.id, s.record.member));
        }
    }
    bad
}

/// Every shape of this file on, each used at half of the places it fits.
fn every_shape() -> SwarmConfig {
    swarm(|s| {
        s.inferred_locals = 1.0;
        s.call_chains = 1.0;
        s.varargs_elements = 1.0;
        s.explicit_type_args = 0.5;
        s.use_probability = 0.5;
    })
}

#[test]
fn java_programs_with_every_shape_get_the_expected_javac_verdicts() {
    if !javac::javac_available() {
        require::missing_tool(
            "java_programs_with_every_shape_get_the_expected_javac_verdicts",
            "javac not found on PATH",
        );
        return;
    }
    let well = build(Language::Java, Mode::WellTyped, true, every_shape(), 300);
    let ill = build(Language::Java, Mode::IllTyped, false, every_shape(), 300);
    let shaped = |b: &[Synthesized]| {
        b.iter()
            .filter(|s| {
                s.record.shape.inferred_locals > 0
                    || s.record.shape.call_chain
                    || s.record.uses_varargs_elements()
            })
            .count()
    };
    let (bad_well, bad_ill) = std::thread::scope(|sc| {
        let w = sc.spawn(|| javac_mismatches(&well, true));
        let i = sc.spawn(|| javac_mismatches(&ill, false));
        (
            w.join().expect("well-typed batch"),
            i.join().expect("ill-typed batch"),
        )
    });
    println!(
        "\njavac: well-typed {} of {} accepted ({} with a new shape), ill-typed {} of {} \
         rejected ({} with a new shape)",
        well.len() - bad_well.len(),
        well.len(),
        shaped(&well),
        ill.len() - bad_ill.len(),
        ill.len(),
        shaped(&ill)
    );
    assert!(
        bad_well.is_empty(),
        "{} well-typed programs rejected by javac:\n{}",
        bad_well.len(),
        bad_well.join("\n\n")
    );
    assert!(
        bad_ill.is_empty(),
        "{} ill-typed programs accepted by javac:\n{}",
        bad_ill.len(),
        bad_ill.join("\n\n")
    );
}

/// The share of programs using each form of this file.
fn census(built: &[Synthesized]) -> String {
    let n = built.len();
    let count = |f: &dyn Fn(&Synthesized) -> bool| built.iter().filter(|s| f(s)).count();
    let inferred = count(&|s| s.record.shape.inferred_locals > 0);
    let chains = count(&|s| s.record.shape.call_chain);
    let varargs = count(&|s| s.record.uses_varargs_elements());
    let kept = count(&|s| s.record.shape.explicit_type_args);
    let erased = count(&|s| s.record.erased);
    let casts: usize = built.iter().map(|s| s.record.shape.casts).sum();
    format!(
        "{n} programs: inferred locals {:.1}%, call chains {:.1}%, varargs elements {:.1}%, \
         explicit type args kept {:.1}%, erased {:.1}%, casts/program {:.2}",
        share(inferred, n),
        share(chains, n),
        share(varargs, n),
        share(kept, n),
        share(erased, n),
        casts as f64 / n.max(1) as f64
    )
}

#[test]
#[ignore = "a census of 12,000 programs: run with --ignored --nocapture"]
fn census_of_default_runs() {
    for lang in [Language::Java, Language::Groovy, Language::Kotlin] {
        for (mode, erase) in [
            (Mode::WellTyped, false),
            (Mode::WellTyped, true),
            (Mode::IllTyped, false),
        ] {
            let built = build(lang, mode, erase, SwarmConfig::default(), 2000);
            println!(
                "{lang} {mode:?}{}: {}",
                if erase { " --erase" } else { "" },
                census(&built)
            );
        }
    }
}

/// Builds a call of the static method `class.name` with `arity` parameters under type
/// arguments `targs` (Java syntax), arguments `args` (a Java type: a standalone local of that
/// type; `None`: a lambda) and target type `goal`; returns whether its type arguments were
/// erased.
fn erased(
    class: &str,
    name: &str,
    targs: &[&str],
    args: &[Option<&str>],
    goal: Option<&str>,
) -> bool {
    use thalia::synth::build::Inhabitant;
    use thalia::synth::build::Worker;
    use thalia::synth::typing::InferInfo;
    use thalia::types::{parse_type, Subst, Syntax};
    let (api, ctx) = java_base();
    let cfg = SynthConfig {
        erase: true,
        ..SynthConfig::default()
    };
    let m = api
        .member_ids()
        .find(|&m| {
            let mem = api.member(m);
            api.owner(m).name == class && mem.name == name && mem.params.len() == args.len()
        })
        .unwrap_or_else(|| panic!("{class}.{name}/{}", args.len()));
    let mut w = Worker::new(api.clone(), ctx, &cfg);
    let ty = |w: &mut Worker<'_>, t: &str| {
        parse_type(&mut w.api.ts.arena, Syntax::Java, t, &[]).expect("a type")
    };
    let vars = w.api.member(m).type_params.clone();
    let mut s = Subst::new();
    for (&v, t) in vars.iter().zip(targs) {
        let t = ty(&mut w, t);
        s.insert(v, t);
    }
    let inhs: Vec<Inhabitant> = args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            Some(t) => Inhabitant {
                expr: Expr::local(format!("a{i}")),
                info: InferInfo::Standalone(ty(&mut w, t)),
            },
            None => Inhabitant {
                expr: Expr::lambda(vec![], Expr::str("x")),
                info: InferInfo::Poly,
            },
        })
        .collect();
    let goal = goal.map(|g| ty(&mut w, g));
    let call = w.build_call(m, &s, None, &inhs, goal, true);
    match call.expr {
        Expr::Call { type_args, .. } => type_args.is_empty(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn erasure_goes_around_poly_arguments_that_something_else_fixes() {
    let string = "java.lang.String";
    // `requireNonNullElseGet(T, Supplier<? extends T>)`: the first argument fixes T
    assert!(erased(
        "java.util.Objects",
        "requireNonNullElseGet",
        &[string],
        &[Some(string), None],
        None
    ));
    // `supplyAsync(Supplier<U>)`: nothing but the target fixes U
    let future = "java.util.concurrent.CompletableFuture<java.lang.String>";
    assert!(!erased(
        "java.util.concurrent.CompletableFuture",
        "supplyAsync",
        &[string],
        &[None],
        None
    ));
    assert!(erased(
        "java.util.concurrent.CompletableFuture",
        "supplyAsync",
        &[string],
        &[None],
        Some(future)
    ));
}

#[test]
fn erasure_goes_around_a_wildcard_typed_argument_where_the_capture_stays_hidden() {
    let integer = "java.lang.Integer";
    let wild = "java.util.List<? extends java.lang.Integer>";
    // `max(Collection<? extends T>)` returns the bare T: a capture below Integer fits
    assert!(erased(
        "java.util.Collections",
        "max",
        &[integer],
        &[Some(wild)],
        Some(integer)
    ));
    // `unmodifiableList(List<? extends T>)` returns `List<T>`: a target `List<Integer>` fixes
    // T as written, and without one the capture is harmless
    assert!(erased(
        "java.util.Collections",
        "unmodifiableList",
        &[integer],
        &[Some(wild)],
        None
    ));
    // `nCopies(int, T)`-like inference from a plain argument still needs the written type
    assert!(!erased(
        "java.util.Collections",
        "nCopies",
        &["java.lang.Object"],
        &[Some("int"), Some("java.lang.String")],
        None
    ));
}

/// Kotlin programs with call chains and varargs elements (the shapes the Kotlin translator of
/// this branch writes) compiled by kotlinc in one batch: the files it reports errors in.
#[test]
#[ignore = "needs THALIA_KOTLINC_CP and a minute of kotlinc: run with --ignored"]
fn kotlin_programs_with_call_chains_and_varargs_elements_compile() {
    let Ok(cp) = std::env::var("THALIA_KOTLINC_CP") else {
        require::missing_tool(
            "kotlin_programs_with_call_chains_and_varargs_elements_compile",
            "THALIA_KOTLINC_CP is not set",
        );
        return;
    };
    let shapes = swarm(|s| {
        s.call_chains = 1.0;
        s.varargs_elements = 1.0;
        s.explicit_type_args = 0.5;
        s.use_probability = 0.5;
    });
    let built = build(Language::Kotlin, Mode::WellTyped, true, shapes, 300);
    let kotlin = translator(Language::Kotlin).expect("a Kotlin translator");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    let mut shaped = 0;
    for s in &built {
        let Ok(src) = kotlin.translate(&s.program) else {
            continue;
        };
        shaped += usize::from(
            s.record.shape.call_chain || s.record.typing_sequence.varargs_elements.is_some(),
        );
        let path = dir.path().join(kotlin.file_name(&s.program));
        fs::write(&path, src).expect("write a program");
        files.push(path);
    }
    let stdlib = std::env::split_paths(&cp)
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("kotlin-stdlib-"))
        })
        .expect("THALIA_KOTLINC_CP holds kotlin-stdlib");
    let out = std::process::Command::new("java")
        .args(["-Xss8m", "-cp"])
        .arg(&cp)
        .arg("org.jetbrains.kotlin.cli.jvm.K2JVMCompiler")
        .arg("-classpath")
        .arg(stdlib)
        .args(["-nowarn", "-d"])
        .arg(dir.path().join("classes"))
        .args(&files)
        .output()
        .expect("kotlinc runs");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    let bad: BTreeSet<&str> = text
        .lines()
        .filter(|l| l.contains(": error:"))
        .filter_map(|l| l.split(".kt:").next())
        .collect();
    println!(
        "\nkotlinc: {} of {} programs ({shaped} with a call chain or varargs elements) without \
         errors",
        files.len() - bad.len(),
        files.len()
    );
    assert!(
        bad.is_empty() && out.status.success(),
        "kotlinc errors:\n{text}"
    );
}
