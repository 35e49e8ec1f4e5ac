//! What synthesis tells the translators about the target language's view of a call, on the
//! embedded JDK 17 `java.base`: signature-polymorphic calls take an array as one argument,
//! raw types and Kotlin-invisible members are skipped where a language cannot write them,
//! calls name the classes that declare the called method, and lambdas say whether their
//! position converts them implicitly.

use thalia::api::{Api, MemberId, MemberKind};
use thalia::embedded::embedded_corpus;
use thalia::synth::build::Inhabitant;
use thalia::synth::build::Worker;
use thalia::synth::context::SkipReason;
use thalia::synth::typing::InferInfo;
use thalia::synth::{Mode, SynthConfig, SynthContext};
use thalia::types::{parse_type, Subst, Syntax};
use thalia_translators::ir::{Expr, Ty};
use thalia_translators::Language;

fn java_base() -> Api {
    embedded_corpus("java.base").expect("the embedded java.base")
}

/// The method `class.name` with `arity` parameters.
fn method(api: &Api, class: &str, name: &str, arity: usize) -> MemberId {
    api.member_ids()
        .find(|&m| {
            let mem = api.member(m);
            api.owner(m).name == class
                && mem.name == name
                && mem.params.len() == arity
                && mem.kind != MemberKind::Field
        })
        .unwrap_or_else(|| panic!("{class}.{name}/{arity}"))
}

fn config(lang: Language, mode: Mode) -> SynthConfig {
    SynthConfig {
        lang,
        mode,
        ..SynthConfig::default()
    }
}

/// A local `name` standing for an argument of Java type `java_ty`.
fn local(w: &mut Worker<'_>, name: &str, java_ty: &str) -> Inhabitant {
    let t = parse_type(&mut w.api.ts.arena, Syntax::Java, java_ty, &[]).expect("a type");
    Inhabitant {
        expr: Expr::local(name),
        info: InferInfo::Standalone(t),
    }
}

#[test]
fn signature_polymorphic_calls_take_their_array_as_one_argument() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let cfg = config(Language::Kotlin, Mode::WellTyped);
    let invoke = method(&api, "java.lang.invoke.MethodHandle", "invoke", 1);
    let as_list = method(&api, "java.util.Arrays", "asList", 1);
    assert!(api.is_signature_polymorphic(invoke));
    assert!(!api.is_signature_polymorphic(as_list));
    let mut w = Worker::new(api, &ctx, &cfg);
    let arr = local(&mut w, "a0", "java.lang.Object[]");
    let recv = Some(Expr::local("r"));
    let call = w.build_call(
        invoke,
        &Subst::new(),
        recv,
        std::slice::from_ref(&arr),
        None,
        false,
    );
    let Expr::Call { args, .. } = &call.expr else {
        panic!("{:?}", call.expr)
    };
    assert_eq!(args, &vec![Expr::local("a0")], "one argument, not spread");
    // an ordinary varargs method gets the array spread
    let call = w.build_call(as_list, &Subst::new(), None, &[arr], None, false);
    let Expr::Call { args, .. } = &call.expr else {
        panic!("{:?}", call.expr)
    };
    assert!(matches!(args.as_slice(), [Expr::Spread(_)]), "{args:?}");
    // and no position of a signature-polymorphic call can be broken
    let cfg = config(Language::Java, Mode::IllTyped);
    let mut w = Worker::new(w.api.clone(), &ctx, &cfg);
    assert_eq!(
        w.enumerate_member(invoke, 1).map(|t| t.len()),
        Err(SkipReason::SignaturePolymorphic)
    );
}

#[test]
fn raw_types_are_skipped_where_the_language_cannot_write_them() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    // `EnumConstantNotPresentException(Class<? extends Enum> enumType, String name)`
    let ctor = api
        .member_ids()
        .find(|&m| {
            api.owner(m).name == "java.lang.EnumConstantNotPresentException"
                && api.member(m).kind == MemberKind::Constructor
        })
        .expect("the constructor");
    for (lang, skipped) in [
        (Language::Java, false),
        (Language::Groovy, false),
        (Language::Kotlin, true),
        (Language::Scala3, true),
        (Language::Scala2, true),
    ] {
        let cfg = config(lang, Mode::WellTyped);
        let mut w = Worker::new(api.clone(), &ctx, &cfg);
        let got = w.enumerate_member(ctor, 1);
        assert_eq!(
            matches!(got, Err(SkipReason::RawType)),
            skipped,
            "{lang}: {:?}",
            got.map(|t| t.len())
        );
    }
}

#[test]
fn kotlin_skips_annotation_elements_and_scala2_interface_clones() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let value = method(&api, "java.lang.annotation.Retention", "value", 0);
    let clone = method(&api, "java.security.cert.CertStoreParameters", "clone", 0);
    for (lang, m, reason) in [
        (Language::Kotlin, value, Some(SkipReason::AnnotationElement)),
        (Language::Scala3, value, None),
        (Language::Scala2, clone, Some(SkipReason::InterfaceClone)),
        (Language::Scala3, clone, None),
    ] {
        let cfg = config(lang, Mode::WellTyped);
        let mut w = Worker::new(api.clone(), &ctx, &cfg);
        let got = w.enumerate_member(m, 1).err();
        match reason {
            Some(r) => assert_eq!(got, Some(r), "{lang}"),
            None => assert!(
                !matches!(
                    got,
                    Some(SkipReason::AnnotationElement | SkipReason::InterfaceClone)
                ),
                "{lang}: {got:?}"
            ),
        }
    }
}

#[test]
fn calls_name_the_classes_that_declare_their_method() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let cfg = config(Language::Kotlin, Mode::WellTyped);
    // `AtomicLong.doubleValue()` overrides `Number.doubleValue()`
    let m = method(
        &api,
        "java.util.concurrent.atomic.AtomicLong",
        "doubleValue",
        0,
    );
    let mut w = Worker::new(api, &ctx, &cfg);
    let call = w.build_call(m, &Subst::new(), Some(Expr::local("r")), &[], None, false);
    let Expr::Call { declared_in, .. } = &call.expr else {
        panic!("{:?}", call.expr)
    };
    assert_eq!(
        declared_in,
        &vec![
            "java.util.concurrent.atomic.AtomicLong".to_string(),
            "java.lang.Number".to_string()
        ]
    );
    // the declarations a type sees: `String.length()` comes from `CharSequence` too
    let string =
        parse_type(&mut w.api.ts.arena, Syntax::Java, "java.lang.String", &[]).expect("a type");
    let got = w.typing().declarers(string, "length", 0);
    assert_eq!(got, ["java.lang.String", "java.lang.CharSequence"]);
    let got = w.typing().declarers(string, "size", 0);
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn lambdas_say_whether_their_position_converts_them() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let cfg = config(Language::Kotlin, Mode::WellTyped);
    let lambda = || Inhabitant {
        expr: Expr::Lambda {
            params: vec![("l1".into(), None)],
            body: Box::new(Expr::Unit),
            target: Some(Ty::class("java.util.function.Consumer", vec![Ty::string()])),
            implicit: false,
            block: vec![],
            form: thalia_translators::ir::LambdaForm::Usual,
            ret: None,
        },
        info: InferInfo::Poly,
    };
    let implicit = |e: &Expr| match e {
        Expr::Call { args, .. } => match args.first() {
            Some(Expr::Lambda { implicit, .. }) => *implicit,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    // `Optional.ifPresent(Consumer<? super T>)`: declared with a functional interface
    let if_present = method(&api, "java.util.Optional", "ifPresent", 1);
    // `Objects.requireNonNull(T)`: a type variable, and overloaded
    let require = method(&api, "java.util.Objects", "requireNonNull", 1);
    let mut w = Worker::new(api, &ctx, &cfg);
    let t = w.api.member(require).type_params[0];
    let consumer = parse_type(
        &mut w.api.ts.arena,
        Syntax::Java,
        "java.util.function.Consumer<java.lang.String>",
        &[],
    )
    .expect("a type");
    let mut s = Subst::new();
    s.insert(t, consumer);
    let call = w.build_call(
        if_present,
        &Subst::new(),
        Some(Expr::local("r")),
        &[lambda()],
        None,
        false,
    );
    assert!(implicit(&call.expr));
    let call = w.build_call(require, &s, None, &[lambda()], None, false);
    assert!(!implicit(&call.expr));
}

/// The positions broken in the ill-typed sequences of `m` over a few seeds.
fn broken_positions(w: &mut Worker<'_>, m: MemberId) -> Vec<String> {
    let mut out = Vec::new();
    for seed in 0..8 {
        if let Ok(tasks) = w.enumerate_member(m, seed) {
            out.extend(
                tasks
                    .iter()
                    .filter_map(|t| t.broken.map(|b| b.position.label())),
            );
        }
    }
    out
}

#[test]
fn groovy_ill_typed_calls_avoid_what_groovy_accepts() {
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    // an extension method `retainAll(Collection, Object[])` takes any argument
    let retain = method(&api, "java.util.Collection", "retainAll", 1);
    // `Object.println(Object)` is an extension method of every receiver
    let println = method(&api, "java.io.PrintStream", "println", 0);
    // a trailing array parameter is varargs: `Arrays.sort(5)` is `Arrays.sort(int[])`
    let sort = method(&api, "java.util.Arrays", "sort", 1);
    let cases = [(retain, "arg0"), (println, "receiver"), (sort, "arg0")];
    let java_cfg = config(Language::Java, Mode::IllTyped);
    let groovy_cfg = config(Language::Groovy, Mode::IllTyped);
    let mut java = Worker::new(api.clone(), &ctx, &java_cfg);
    let mut groovy = Worker::new(api, &ctx, &groovy_cfg);
    for (m, position) in cases {
        let in_java = broken_positions(&mut java, m);
        assert!(
            in_java.iter().any(|p| p == position),
            "{position} of {}: Java breaks it ({in_java:?})",
            java.api.signature(m)
        );
        let in_groovy = broken_positions(&mut groovy, m);
        assert!(
            !in_groovy.iter().any(|p| p == position),
            "{position} of {}: Groovy accepts anything there ({in_groovy:?})",
            groovy.api.signature(m)
        );
    }
}

#[test]
fn groovy_ill_typed_calls_keep_the_shapes_of_known_bugs() {
    // groovyc checks an argument typed with the method's type variable against the
    // variable's bound only, ignoring explicit type arguments (known bug RB9): the position
    // is broken as in Java, and the campaign labels the acceptance `known`
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let require = method(&api, "java.util.Objects", "requireNonNull", 1);
    let groovy_cfg = config(Language::Groovy, Mode::IllTyped);
    let mut groovy = Worker::new(api, &ctx, &groovy_cfg);
    let in_groovy = broken_positions(&mut groovy, require);
    assert!(in_groovy.iter().any(|p| p == "arg0"), "{in_groovy:?}");
}

#[test]
fn varargs_inference_takes_every_argument_into_account() {
    // `StringUtils.join(T...)` takes `(String, Object)` with `T` = `Object`: breaking the
    // `char` of `join(short[], char)` with an `Object` is no break at all
    let mut api = thalia::embedded::embedded_api();
    let ctx = SynthContext::new(&mut api);
    let m = api
        .member_ids()
        .find(|&m| {
            api.owner(m).name == "org.apache.commons.lang3.StringUtils"
                && api.signature(m).contains("join(short[], char)")
        })
        .expect("join(short[], char)");
    let cfg = config(Language::Java, Mode::WellTyped);
    let mut w = Worker::new(api, &ctx, &cfg);
    let task = w
        .enumerate_member(m, 1)
        .expect("join is exercised")
        .remove(0);
    for (a0, a1, applicable) in [
        ("java.lang.String", "java.lang.Object", true),
        ("short[]", "java.lang.Object", true),
        ("short[]", "java.lang.String", true),
    ] {
        let mut seq = task.seq.clone();
        seq.receiver = None;
        seq.result = None;
        for (i, t) in [a0, a1].into_iter().enumerate() {
            seq.args[i] = parse_type(&mut w.api.ts.arena, Syntax::Java, t, &[]).expect("a type");
        }
        let got = w.typing().resolve(m, &task.formal, &seq);
        assert_eq!(
            got != thalia::synth::typing::Resolution::NoneApplicable,
            applicable,
            "join({a0}, {a1}): {got:?}"
        );
    }
}

#[test]
fn result_supertypes_of_a_primitive_follow_the_languages_widening() {
    use rand::SeedableRng;
    let mut api = java_base();
    let ctx = SynthContext::new(&mut api);
    let printed = |lang: Language, prim: &str| -> Vec<String> {
        let cfg = config(lang, Mode::WellTyped);
        let mut w = Worker::new(api.clone(), &ctx, &cfg);
        let t = parse_type(&mut w.api.ts.arena, Syntax::Java, prim, &[]).expect("a type");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut v: Vec<String> = w
            .supertypes(&mut rng, t, 10)
            .into_iter()
            .map(|s| thalia::types::print_type(&w.api.ts.arena, Syntax::Java, s))
            .collect();
        v.sort();
        v
    };
    // Kotlin converts no primitive implicitly: `val res: Long = anInt()` is an error
    assert_eq!(printed(Language::Kotlin, "int"), vec!["int"]);
    // groovyc does not assign a `char` to a number
    assert_eq!(printed(Language::Groovy, "char"), vec!["char"]);
    assert!(printed(Language::Groovy, "int").contains(&"long".to_string()));
    assert!(printed(Language::Java, "char").contains(&"int".to_string()));
}
