//! The paper's worked examples of Sections 3.3-3.5: the enumeration of `B m(B x)` (Figure 6),
//! the inhabitants of `Set<Int>` in the API of Figure 7, and the erasure example.

use std::collections::BTreeSet;
use std::path::PathBuf;

use thalia::api::{Api, MemberId};
use thalia::synth::build::Inhabitant;
use thalia::synth::build::{SynthRng, Worker};
use thalia::synth::typing::InferInfo;
use thalia::synth::{SynthConfig, SynthContext};
use thalia::types::{parse_type, print_type, Subst, Syntax, TypeId};
use thalia_translators::ir::{Expr, Receiver, Ty};

fn load(fig: &str) -> Api {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/paper")
        .join(fig);
    let api = Api::load_dir(&dir).expect("fixture loads");
    assert_eq!(api.report.error_count(), 0, "{}", api.report.summary());
    api
}

fn member(api: &Api, class: &str, name: &str) -> MemberId {
    api.member_ids()
        .find(|&m| api.owner(m).name == class && api.member(m).name == name)
        .unwrap_or_else(|| panic!("{class}.{name}"))
}

fn ty(api: &mut Api, s: &str) -> TypeId {
    parse_type(&mut api.ts.arena, Syntax::Java, s, &[]).unwrap()
}

fn show(api: &Api, t: Option<TypeId>) -> String {
    t.map_or("-".into(), |t| print_type(&api.ts.arena, Syntax::Java, t))
}

#[test]
fn figure6_enumeration_is_the_cartesian_product() {
    let mut api = load("figure6");
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig {
        max_types_per_position: 10,
        max_sequences_per_member: 100,
        ..SynthConfig::default()
    };
    let m = member(&api, "fig6.A", "m");
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let tasks = w.enumerate_member(m, 1).expect("m is exercised");
    let got: BTreeSet<String> = tasks
        .iter()
        .map(|t| {
            format!(
                "{} {} {}",
                show(&w.api, t.seq.receiver),
                show(&w.api, t.seq.args.first().copied()),
                show(&w.api, t.seq.result)
            )
        })
        .collect();
    assert_eq!(got.len(), tasks.len(), "no duplicate sequences");
    let mut want = BTreeSet::new();
    for r in ["fig6.A", "fig6.B", "fig6.C"] {
        for p in ["fig6.B", "fig6.C"] {
            for res in ["fig6.B", "fig6.A", "java.lang.Object"] {
                want.insert(format!("{r} {p} {res}"));
            }
        }
    }
    assert_eq!(got, want);
    assert!(tasks.iter().all(|t| t.broken.is_none()));
}

/// `Utils.mapOf<Integer, Y>().keySet()`: the receiver-less generic path, never mapOfStrs.
fn is_mapof_chain(e: &Expr, key: &str) -> Option<&'static str> {
    let Expr::Call {
        receiver: Receiver::Expr(inner),
        name,
        ..
    } = e
    else {
        return None;
    };
    if name != "keySet" {
        return None;
    }
    match inner.as_ref() {
        Expr::Call {
            receiver: Receiver::Static(c),
            name,
            type_args,
            args,
            ..
        } if c == "Utils" && args.is_empty() => match name.as_str() {
            "mapOf" => match type_args.first() {
                Some(Ty::Class { name, args }) if name == key && args.is_empty() => Some("mapOf"),
                _ => None,
            },
            "mapOfStrs" if type_args.is_empty() => Some("mapOfStrs"),
            _ => None,
        },
        _ => None,
    }
}

#[test]
fn figure7_inhabitant_of_set_int_comes_from_the_generic_path() {
    let mut api = load("figure7");
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig::default();
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let target = ty(&mut w.api, "Set<java.lang.Integer>");
    for seed in 0..200u64 {
        let mut rng = <SynthRng as rand::SeedableRng>::seed_from_u64(seed);
        let inh = w.inhabit(&mut rng, target, 2);
        assert_eq!(
            is_mapof_chain(&inh.expr, "java.lang.Integer"),
            Some("mapOf"),
            "seed {seed}: {:?}",
            inh.expr
        );
    }
}

#[test]
fn figure7_both_paths_inhabit_set_string() {
    let mut api = load("figure7");
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig::default();
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let target = ty(&mut w.api, "Set<java.lang.String>");
    let mut seen = BTreeSet::new();
    for seed in 0..200u64 {
        let mut rng = <SynthRng as rand::SeedableRng>::seed_from_u64(seed);
        let inh = w.inhabit(&mut rng, target, 2);
        let which = is_mapof_chain(&inh.expr, "java.lang.String")
            .unwrap_or_else(|| panic!("seed {seed}: {:?}", inh.expr));
        seen.insert(which);
    }
    assert_eq!(seen, BTreeSet::from(["mapOf", "mapOfStrs"]));
}

#[test]
fn a_type_with_no_path_gets_a_typed_bottom_constant() {
    let mut api = load("figure7");
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig::default();
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let target = ty(&mut w.api, "java.util.Locale");
    let mut rng = <SynthRng as rand::SeedableRng>::seed_from_u64(0);
    let inh = w.inhabit(&mut rng, target, 2);
    assert!(
        matches!(inh.expr, Expr::Bottom(Ty::Class { ref name, .. }) if name == "java.util.Locale")
    );
}

/// Builds a call of `name` with explicit type arguments `targs`, one argument of type `arg`,
/// and target type `goal`; returns whether its type arguments were kept.
fn kept(name: &str, targs: &[&str], arg: &str, goal: Option<&str>) -> bool {
    let mut api = load("erasure");
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig {
        erase: true,
        ..SynthConfig::default()
    };
    let m = member(&api, "era.Utils", name);
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let vars = w.api.member(m).type_params.clone();
    let mut s = Subst::new();
    for (&v, t) in vars.iter().zip(targs) {
        let t = ty(&mut w.api, t);
        s.insert(v, t);
    }
    let arg_ty = ty(&mut w.api, arg);
    let goal = goal.map(|g| ty(&mut w.api, g));
    let args = [Inhabitant {
        expr: Expr::Local("a".into()),
        info: InferInfo::Standalone(arg_ty),
    }];
    let call = w.build_call(m, &s, None, &args, goal, true);
    match call.expr {
        Expr::Call { type_args, .. } => {
            assert!(type_args.is_empty() || type_args.len() == targs.len());
            !type_args.is_empty()
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn erasure_keeps_and_drops_exactly_the_paper_cases() {
    // inferred from the argument as String, but Object was written: kept
    assert!(kept("id", &["java.lang.Object"], "java.lang.String", None));
    // inferred from the argument exactly: erased
    assert!(!kept("id", &["java.lang.String"], "java.lang.String", None));
    // the target type fixes T as written: erased
    assert!(!kept(
        "id",
        &["java.lang.Object"],
        "java.lang.String",
        Some("java.lang.Object")
    ));
    // Y appears only in the result and there is no target type: kept
    assert!(kept(
        "pair",
        &["java.lang.String", "java.lang.Integer"],
        "java.lang.String",
        None
    ));
    // with the target type Map<String, Integer> both are inferable: erased
    assert!(!kept(
        "pair",
        &["java.lang.String", "java.lang.Integer"],
        "java.lang.String",
        Some("java.util.Map<java.lang.String,java.lang.Integer>")
    ));
    // a target that fixes Y differently from what was written: kept
    assert!(kept(
        "pair",
        &["java.lang.String", "java.lang.Integer"],
        "java.lang.String",
        Some("java.util.Map<java.lang.String,java.lang.Long>")
    ));
}

#[test]
fn erasure_is_off_unless_configured() {
    let mut api = load("erasure");
    let ctx = SynthContext::new(&mut api);
    let cfg = SynthConfig::default();
    let m = member(&api, "era.Utils", "id");
    let mut w = Worker::new(api.clone(), &ctx, &cfg);
    let v = w.api.member(m).type_params[0];
    let string = ty(&mut w.api, "java.lang.String");
    let s: Subst = [(v, string)].into_iter().collect();
    let args = [Inhabitant {
        expr: Expr::Local("a".into()),
        info: InferInfo::Standalone(string),
    }];
    let call = w.build_call(m, &s, None, &args, None, true);
    assert!(matches!(call.expr, Expr::Call { ref type_args, .. } if type_args.len() == 1));
}
