//! The Kotlin, Scala 3 and Scala 2.13 spellings of the expression forms of issue #13:
//! function references of every kind, lambdas with block bodies and typed parameters, Kotlin's
//! anonymous functions, casts of lambdas and references, locals without a declared type,
//! inner-class creation on an outer instance and generic test functions.
//!
//! The expected output of every program of [`cases`] (well-typed) and [`ill_cases`]
//! (ill-typed: each has one fault) is stored in `tests/golden/forms/<L>/Test_<id>.<ext>` and
//! `tests/golden/forms/<L>/ill/Test_<id>.<ext>` and compared exactly; regenerate them with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test -p thalia-translators --test forms_kotlin_scala
//! ```
//!
//! and review the diff. When the compilers' classpaths are given (`THALIA_KOTLINC_CP`,
//! `THALIA_SCALA3_CP`, `THALIA_SCALA2_CP`, as in `tests/targets.rs`), the well-typed golden
//! files must compile together, and every ill-typed one must get an error of its own (they
//! are compiled in one batch: their faults are all type errors, which each compiler reports
//! for every file of its typing phase). Without them the compile tests are skipped with a
//! message (they fail under `THALIA_REQUIRE_TOOLS=1`).

use crate::support::compilers;
use compilers::{compile, scratch_dir};

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use thalia_translators::ir::{
    Expr, LambdaForm, Lit, Program, Receiver, RefKind, Stmt, Ty, TypeParam,
};
use thalia_translators::{KotlinTranslator, ScalaTranslator, TranslateError, Translator};

fn class(name: &str, args: Vec<Ty>) -> Ty {
    Ty::class(name, args)
}

fn string() -> Ty {
    Ty::string()
}

fn integer() -> Ty {
    class("java.lang.Integer", vec![])
}

fn list(t: Ty) -> Ty {
    class("java.util.List", vec![t])
}

/// `java.util.function.Function<a, b>`.
fn func(a: Ty, b: Ty) -> Ty {
    class("java.util.function.Function", vec![a, b])
}

/// `java.util.function.Supplier<t>`.
fn supplier(t: Ty) -> Ty {
    class("java.util.function.Supplier", vec![t])
}

/// `java.util.function.Consumer<t>`.
fn consumer(t: Ty) -> Ty {
    class("java.util.function.Consumer", vec![t])
}

const AQS: &str = "java.util.concurrent.locks.AbstractQueuedSynchronizer";
const CONDITION: &str = "java.util.concurrent.locks.AbstractQueuedSynchronizer.ConditionObject";

/// A function reference of `kind` implementing `target`, whose function has parameters
/// `params` and result `ret`.
fn reference(kind: RefKind, params: Vec<Ty>, ret: Ty, target: Ty, implicit: bool) -> Expr {
    Expr::Ref {
        kind,
        fn_params: params,
        fn_ret: ret,
        target: Some(target),
        implicit,
        declared_in: vec![],
        method_pointer: false,
    }
}

fn static_ref(class: &str, name: &str) -> RefKind {
    RefKind::Static {
        class: class.into(),
        name: name.into(),
    }
}

fn bound_ref(receiver: Expr, name: &str) -> RefKind {
    RefKind::Bound {
        receiver: Box::new(receiver),
        name: name.into(),
    }
}

fn unbound_ref(ty: Ty, name: &str) -> RefKind {
    RefKind::Unbound {
        ty,
        name: name.into(),
    }
}

fn ctor_ref(class: &str, type_args: Option<Vec<Ty>>) -> RefKind {
    RefKind::Constructor {
        class: class.into(),
        type_args,
    }
}

/// A lambda with everything spelled out.
struct Lam {
    params: Vec<(String, Option<Ty>)>,
    block: Vec<Stmt>,
    body: Expr,
    target: Ty,
    implicit: bool,
    form: LambdaForm,
    ret: Option<Ty>,
}

impl Lam {
    fn new(params: &[(&str, Option<Ty>)], target: Ty, body: Expr) -> Lam {
        Lam {
            params: params
                .iter()
                .map(|(n, t)| (n.to_string(), t.clone()))
                .collect(),
            block: vec![],
            body,
            target,
            implicit: true,
            form: LambdaForm::Usual,
            ret: None,
        }
    }

    fn block(mut self, block: Vec<Stmt>) -> Lam {
        self.block = block;
        self
    }

    fn form(mut self, form: LambdaForm, ret: Option<Ty>) -> Lam {
        self.form = form;
        self.ret = ret;
        self
    }

    fn not_implicit(mut self) -> Lam {
        self.implicit = false;
        self
    }

    fn expr(self) -> Expr {
        Expr::Lambda {
            params: self.params,
            body: Box::new(self.body),
            target: Some(self.target),
            implicit: self.implicit,
            block: self.block,
            form: self.form,
            ret: self.ret,
        }
    }
}

/// `java.util.Optional.of(x).map(f)`.
fn optional_map(x: Expr, f: Expr) -> Expr {
    Expr::static_call("java.util.Optional", "of", vec![], vec![x]).method("map", vec![f])
}

/// A call of `name` on local `recv`, declared in `declared_in`.
fn call_in(recv: Expr, name: &str, args: Vec<Expr>, declared_in: &[&str]) -> Expr {
    Expr::Call {
        receiver: Receiver::expr(recv),
        name: name.into(),
        type_args: vec![],
        args,
        declared_in: declared_in.iter().map(|c| c.to_string()).collect(),
        form: Default::default(),
        lists: None,
    }
}

fn s_local() -> Stmt {
    Stmt::local("s", string(), Expr::str("abc"))
}

/// `String.length()`, as the synthesizer records it.
fn length_of(recv: Expr) -> Expr {
    call_in(
        recv,
        "length",
        vec![],
        &["java.lang.String", "java.lang.CharSequence"],
    )
}

/// Well-typed (Java) programs, one or more per form; every language must accept them.
fn cases() -> Vec<Program> {
    let parse_int = |implicit| {
        reference(
            static_ref("java.lang.Integer", "parseInt"),
            vec![string()],
            integer(),
            func(string(), integer()),
            implicit,
        )
    };
    let mut inner = Program::new(
        "inner_class",
        vec![
            Stmt::local("aqs", class(AQS, vec![]), Expr::bottom(class(AQS, vec![]))),
            Stmt::local(
                "co",
                class(CONDITION, vec![]),
                Expr::New {
                    class: CONDITION.into(),
                    type_args: Some(vec![]),
                    args: vec![],
                    outer: Some(Box::new(Expr::local("aqs"))),
                },
            ),
        ],
    );
    inner.inner_classes = vec![CONDITION.into()];
    let t = Ty::var("T");
    let mut generic = Program::new(
        "generic_test",
        vec![
            Stmt::local("t", t.clone(), Expr::bottom(t.clone())),
            Stmt::local("n", Ty::INT, length_of(Expr::local("t"))),
            Stmt::local(
                "c",
                Ty::INT,
                call_in(
                    Expr::local("t"),
                    "compareTo",
                    vec![Expr::local("t")],
                    &["java.lang.Comparable"],
                ),
            ),
            Stmt::local("u", Ty::var("U"), Expr::bottom(Ty::var("U"))),
            Stmt::local(
                "l",
                list(t.clone()),
                Expr::static_call(
                    "java.util.Collections",
                    "singletonList",
                    vec![],
                    vec![Expr::local("t")],
                ),
            ),
        ],
    );
    generic.type_params = vec![
        TypeParam {
            name: "T".into(),
            bounds: vec![
                class("java.lang.CharSequence", vec![]),
                class("java.lang.Comparable", vec![t.clone()]),
            ],
        },
        TypeParam {
            name: "U".into(),
            bounds: vec![],
        },
        TypeParam {
            name: "V".into(),
            bounds: vec![class("java.lang.Number", vec![])],
        },
    ];
    vec![
        Program::new(
            "ref_static",
            vec![
                // a local: the declared type is the interface
                Stmt::local("f", func(string(), integer()), parse_int(false)),
                // an argument for a parameter declared with a functional interface
                Stmt::expr(optional_map(Expr::str("1"), parse_int(true))),
            ],
        ),
        Program::new(
            "ref_bound",
            vec![
                s_local(),
                Stmt::local(
                    "len",
                    supplier(integer()),
                    reference(
                        bound_ref(Expr::local("s"), "length"),
                        vec![],
                        integer(),
                        supplier(integer()),
                        false,
                    ),
                ),
                Stmt::local(
                    "cat",
                    func(string(), string()),
                    reference(
                        bound_ref(Expr::local("s"), "concat"),
                        vec![string()],
                        string(),
                        func(string(), string()),
                        false,
                    ),
                ),
                Stmt::expr(
                    Expr::static_call("java.util.List", "of", vec![], vec![Expr::str("a")]).method(
                        "forEach",
                        vec![reference(
                            bound_ref(Expr::static_field("java.lang.System", "out"), "println"),
                            vec![string()],
                            Ty::VOID,
                            consumer(string()),
                            true,
                        )],
                    ),
                ),
            ],
        ),
        Program::new(
            "ref_unbound",
            vec![
                Stmt::local(
                    "len",
                    func(string(), integer()),
                    reference(
                        unbound_ref(string(), "length"),
                        vec![string()],
                        integer(),
                        func(string(), integer()),
                        false,
                    ),
                ),
                Stmt::local(
                    "size",
                    func(list(string()), integer()),
                    reference(
                        unbound_ref(list(string()), "size"),
                        vec![list(string())],
                        integer(),
                        func(list(string()), integer()),
                        false,
                    ),
                ),
                Stmt::expr(optional_map(
                    Expr::new_instance("java.util.ArrayList", Some(vec![string()]), vec![]),
                    reference(
                        unbound_ref(list(string()), "isEmpty"),
                        vec![class("java.util.ArrayList", vec![string()])],
                        class("java.lang.Boolean", vec![]),
                        func(
                            class("java.util.ArrayList", vec![string()]),
                            class("java.lang.Boolean", vec![]),
                        ),
                        true,
                    ),
                )),
            ],
        ),
        Program::new(
            "ref_constructor",
            vec![
                // inferred type arguments
                Stmt::local(
                    "fresh",
                    supplier(list(string())),
                    reference(
                        ctor_ref("java.util.ArrayList", None),
                        vec![],
                        class("java.util.ArrayList", vec![string()]),
                        supplier(list(string())),
                        false,
                    ),
                ),
                // explicit type arguments
                Stmt::local(
                    "sized",
                    func(integer(), list(string())),
                    reference(
                        ctor_ref("java.util.ArrayList", Some(vec![string()])),
                        vec![integer()],
                        class("java.util.ArrayList", vec![string()]),
                        func(integer(), list(string())),
                        false,
                    ),
                ),
                // a non-generic class, and Kotlin's mapped Object
                Stmt::local(
                    "sb",
                    func(string(), class("java.lang.StringBuilder", vec![])),
                    reference(
                        ctor_ref("java.lang.StringBuilder", Some(vec![])),
                        vec![string()],
                        class("java.lang.StringBuilder", vec![]),
                        func(string(), class("java.lang.StringBuilder", vec![])),
                        false,
                    ),
                ),
                Stmt::local(
                    "obj",
                    supplier(Ty::object()),
                    reference(
                        ctor_ref("java.lang.Object", Some(vec![])),
                        vec![],
                        Ty::object(),
                        supplier(Ty::object()),
                        false,
                    ),
                ),
            ],
        ),
        Program::new(
            "ref_implicit_false",
            vec![
                s_local(),
                // `adapt` is overloaded (Runnable, Callable): the position does not convert
                Stmt::expr(Expr::static_call(
                    "java.util.concurrent.ForkJoinTask",
                    "adapt",
                    vec![string()],
                    vec![reference(
                        bound_ref(Expr::local("s"), "toString"),
                        vec![],
                        string(),
                        class("java.util.concurrent.Callable", vec![string()]),
                        false,
                    )],
                )),
            ],
        ),
        Program::new(
            "cast_fun",
            vec![
                Stmt::local(
                    "f",
                    func(string(), integer()),
                    Expr::cast(func(string(), integer()), parse_int(false)),
                ),
                Stmt::expr(optional_map(
                    Expr::str("x"),
                    Expr::cast(
                        func(string(), integer()),
                        Lam::new(
                            &[("a", None)],
                            func(string(), integer()),
                            length_of(Expr::local("a")),
                        )
                        .not_implicit()
                        .expr(),
                    ),
                )),
            ],
        ),
        Program::new(
            "lambda_block",
            vec![
                Stmt::local(
                    "f",
                    func(string(), integer()),
                    Lam::new(
                        &[("a", Some(string()))],
                        func(string(), integer()),
                        Expr::local("m"),
                    )
                    .block(vec![
                        Stmt::local("n", integer(), length_of(Expr::local("a"))),
                        Stmt::inferred_local("m", integer(), Expr::local("n")),
                    ])
                    .not_implicit()
                    .expr(),
                ),
                Stmt::local(
                    "add",
                    consumer(list(string())),
                    Lam::new(&[("l", None)], consumer(list(string())), Expr::Unit)
                        .block(vec![Stmt::expr(call_in(
                            Expr::local("l"),
                            "add",
                            vec![Expr::str("x")],
                            &["java.util.List"],
                        ))])
                        .not_implicit()
                        .expr(),
                ),
                Stmt::expr(optional_map(
                    Expr::str("x"),
                    Lam::new(&[("b", None)], func(string(), integer()), Expr::local("k"))
                        .block(vec![Stmt::local("k", Ty::INT, length_of(Expr::local("b")))])
                        .expr(),
                )),
            ],
        ),
        Program::new(
            "anonymous_function",
            vec![
                Stmt::local(
                    "f",
                    func(string(), integer()),
                    Lam::new(
                        &[("a", Some(string()))],
                        func(string(), integer()),
                        Expr::local("n"),
                    )
                    .block(vec![Stmt::local("n", Ty::INT, length_of(Expr::local("a")))])
                    .form(LambdaForm::AnonymousFunction, Some(integer()))
                    .not_implicit()
                    .expr(),
                ),
                Stmt::expr(optional_map(
                    Expr::str("x"),
                    Lam::new(
                        &[("b", None)],
                        func(string(), integer()),
                        length_of(Expr::local("b")),
                    )
                    .form(LambdaForm::AnonymousFunction, Some(integer()))
                    .expr(),
                )),
                Stmt::local(
                    "c",
                    consumer(string()),
                    Lam::new(&[("d", None)], consumer(string()), Expr::Unit)
                        .block(vec![Stmt::inferred_local(
                            "e",
                            Ty::INT,
                            length_of(Expr::local("d")),
                        )])
                        .form(LambdaForm::AnonymousFunction, Some(Ty::VOID))
                        .not_implicit()
                        .expr(),
                ),
            ],
        ),
        Program::new(
            "inferred_local",
            vec![
                Stmt::inferred_local("x", string(), Expr::str("abc")),
                Stmt::inferred_local("n", Ty::INT, length_of(Expr::local("x"))),
                Stmt::inferred_local(
                    "l",
                    class("java.util.ArrayList", vec![string()]),
                    Expr::new_instance("java.util.ArrayList", Some(vec![string()]), vec![]),
                ),
                Stmt::expr(call_in(
                    Expr::local("l"),
                    "add",
                    vec![Expr::local("x")],
                    &["java.util.ArrayList"],
                )),
                Stmt::inferred_local(
                    "f",
                    func(string(), integer()),
                    Expr::cast(func(string(), integer()), parse_int(false)),
                ),
                Stmt::local("sum", Ty::LONG, Lit::Long(1).into()),
            ],
        ),
        Program::new(
            "cond_fun",
            vec![
                Stmt::local("c", Ty::BOOLEAN, Lit::Bool(true).into()),
                // lambda and reference branches of a local's conditional
                Stmt::local(
                    "f",
                    func(string(), integer()),
                    Expr::cond(
                        Expr::local("c"),
                        Lam::new(
                            &[("a", None)],
                            func(string(), integer()),
                            length_of(Expr::local("a")),
                        )
                        .expr(),
                        parse_int(true),
                    ),
                ),
                // and of an argument's
                Stmt::expr(optional_map(
                    Expr::str("x"),
                    Expr::cond(
                        Expr::local("c"),
                        Lam::new(
                            &[("b", Some(string()))],
                            func(string(), integer()),
                            length_of(Expr::local("b")),
                        )
                        .expr(),
                        parse_int(true),
                    ),
                )),
                Stmt::expr(optional_map(
                    Expr::str("x"),
                    Expr::cond(
                        Expr::local("c"),
                        parse_int(true),
                        reference(
                            unbound_ref(string(), "length"),
                            vec![string()],
                            integer(),
                            func(string(), integer()),
                            true,
                        ),
                    ),
                )),
            ],
        ),
        inner,
        generic,
    ]
}

/// Ill-typed (Java) programs, each with one fault in its last statement: every language
/// must reject each of them.
fn ill_cases() -> Vec<Program> {
    let block_lambda = |block: Vec<Stmt>, body: Expr, form: LambdaForm| {
        Lam::new(&[("a", Some(string()))], func(string(), integer()), body)
            .block(block)
            .form(form, Some(integer()))
            .not_implicit()
            .expr()
    };
    vec![
        // `toHexString(int)` returns a String: neither its parameter nor its result fits
        Program::new(
            "ill_ref_static",
            vec![Stmt::local(
                "f",
                func(string(), integer()),
                reference(
                    static_ref("java.lang.Integer", "toHexString"),
                    vec![string()],
                    integer(),
                    func(string(), integer()),
                    false,
                ),
            )],
        ),
        // `length()` is not a member of Object
        Program::new(
            "ill_ref_unbound",
            vec![Stmt::local(
                "f",
                func(Ty::object(), integer()),
                reference(
                    unbound_ref(string(), "length"),
                    vec![Ty::object()],
                    integer(),
                    func(Ty::object(), integer()),
                    false,
                ),
            )],
        ),
        // a bound reference whose result does not fit
        Program::new(
            "ill_ref_bound",
            vec![
                s_local(),
                Stmt::local(
                    "f",
                    supplier(integer()),
                    reference(
                        bound_ref(Expr::local("s"), "toUpperCase"),
                        vec![],
                        integer(),
                        supplier(integer()),
                        false,
                    ),
                ),
            ],
        ),
        // explicit type arguments that do not fit
        Program::new(
            "ill_ref_constructor",
            vec![Stmt::local(
                "f",
                supplier(list(string())),
                reference(
                    ctor_ref("java.util.ArrayList", Some(vec![integer()])),
                    vec![],
                    class("java.util.ArrayList", vec![integer()]),
                    supplier(list(string())),
                    false,
                ),
            )],
        ),
        // a cast of a reference to an interface it does not implement
        Program::new(
            "ill_cast_ref",
            vec![Stmt::local(
                "f",
                func(list(string()), integer()),
                Expr::cast(
                    func(list(string()), integer()),
                    reference(
                        unbound_ref(list(string()), "isEmpty"),
                        vec![list(string())],
                        integer(),
                        func(list(string()), integer()),
                        false,
                    ),
                ),
            )],
        ),
        // a block local of the wrong type
        Program::new(
            "ill_lambda_block_local",
            vec![Stmt::local(
                "f",
                func(string(), integer()),
                block_lambda(
                    vec![Stmt::local("n", string(), length_of(Expr::local("a")))],
                    Expr::int(1),
                    LambdaForm::Usual,
                ),
            )],
        ),
        // a block whose result does not fit
        Program::new(
            "ill_lambda_block_result",
            vec![Stmt::local(
                "f",
                func(string(), integer()),
                block_lambda(
                    vec![Stmt::inferred_local(
                        "n",
                        Ty::INT,
                        length_of(Expr::local("a")),
                    )],
                    Expr::local("a"),
                    LambdaForm::Usual,
                ),
            )],
        ),
        // an anonymous function's result does not fit
        Program::new(
            "ill_anonymous_function",
            vec![Stmt::local(
                "f",
                func(string(), integer()),
                block_lambda(
                    vec![Stmt::local("n", Ty::INT, length_of(Expr::local("a")))],
                    Expr::local("a"),
                    LambdaForm::AnonymousFunction,
                ),
            )],
        ),
        // an inferred local keeps its initializer's type
        Program::new(
            "ill_inferred_local",
            vec![
                Stmt::inferred_local("x", string(), Expr::str("abc")),
                Stmt::local("n", Ty::INT, Expr::local("x")),
            ],
        ),
        // an inner class's constructor with an argument it does not take
        {
            let mut p = Program::new(
                "ill_inner_class",
                vec![
                    Stmt::local("aqs", class(AQS, vec![]), Expr::bottom(class(AQS, vec![]))),
                    Stmt::local(
                        "co",
                        class(CONDITION, vec![]),
                        Expr::New {
                            class: CONDITION.into(),
                            type_args: Some(vec![]),
                            args: vec![Expr::str("x")],
                            outer: Some(Box::new(Expr::local("aqs"))),
                        },
                    ),
                ],
            );
            p.inner_classes = vec![CONDITION.into()];
            p
        },
        // a type parameter is not its bound's subclass
        {
            let mut p = Program::new(
                "ill_generic_test",
                vec![
                    Stmt::local("t", Ty::var("T"), Expr::bottom(Ty::var("T"))),
                    Stmt::local("s", string(), Expr::local("t")),
                ],
            );
            p.type_params = vec![TypeParam {
                name: "T".into(),
                bounds: vec![class("java.lang.CharSequence", vec![])],
            }];
            p
        },
    ]
}

/// The languages of this test: golden directory name, translator, compiler.
fn targets() -> Vec<(&'static str, Box<dyn Translator>)> {
    vec![
        ("kotlin", Box::new(KotlinTranslator)),
        ("scala", Box::new(ScalaTranslator::SCALA3)),
        ("scala2", Box::new(ScalaTranslator::SCALA2)),
    ]
}

fn golden_dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/forms")
        .join(lang)
}

/// The comment line at the top of every golden file: which compiler checked it.
fn checked_with(lang: &str) -> &'static str {
    match lang {
        "kotlin" => "// checked with kotlinc 2.4.21 (K2JVMCompiler) on OpenJDK 17\n",
        "scala" => "// checked with Scala 3.9.0 (dotty.tools.dotc.Main) on OpenJDK 17\n",
        _ => "// checked with Scala 2.13.18 (scala.tools.nsc.Main) on OpenJDK 17\n",
    }
}

/// Compares (or with `UPDATE_GOLDEN=1` writes) the translations of `programs` with the files
/// of `dir`; returns the mismatches.
fn check_golden(lang: &str, t: &dyn Translator, programs: Vec<Program>, dir: &Path) -> Vec<String> {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    if update {
        fs::create_dir_all(dir).expect("can create the golden dir");
    }
    let mut mismatches = Vec::new();
    let mut expected = BTreeSet::new();
    for p in programs {
        let src = t
            .translate(&p)
            .unwrap_or_else(|e| panic!("{lang}: program {} does not translate: {e}", p.id));
        let src = format!("{}{src}", checked_with(lang));
        let name = t.file_name(&p);
        let path = dir.join(&name);
        if update {
            fs::write(&path, &src).expect("can write a golden file");
        } else {
            match fs::read_to_string(&path) {
                Ok(golden) if golden == src => {}
                Ok(golden) => mismatches.push(format!(
                    "{}/{name} differs:\n--- golden\n{golden}\n--- actual\n{src}",
                    dir.display()
                )),
                Err(e) => mismatches.push(format!("{}/{name}: cannot read: {e}", dir.display())),
            }
        }
        assert!(expected.insert(name), "{lang}: duplicate program id");
    }
    for entry in fs::read_dir(dir).expect("golden dir exists") {
        let path = entry.expect("readable dir entry").path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_file() && !expected.contains(&name) {
            if update {
                fs::remove_file(&path).expect("can remove a stale golden file");
            } else {
                mismatches.push(format!(
                    "{}: stale golden file (no such case)",
                    path.display()
                ));
            }
        }
    }
    mismatches
}

#[test]
fn golden_files_match() {
    let mut mismatches = Vec::new();
    for (lang, t) in targets() {
        let dir = golden_dir(lang);
        mismatches.extend(check_golden(lang, t.as_ref(), cases(), &dir));
        mismatches.extend(check_golden(
            lang,
            t.as_ref(),
            ill_cases(),
            &dir.join("ill"),
        ));
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(rerun with UPDATE_GOLDEN=1 to accept the new output)",
        mismatches.join("\n")
    );
}

/// What Kotlin or Scala cannot write is an `Unsupported` error with its reason.
#[test]
fn inexpressible_forms_are_unsupported_with_a_reason() {
    let unsupported = |t: &dyn Translator, p: &Program| match t.translate(p) {
        Err(TranslateError::Unsupported { what, .. }) => what,
        other => panic!("{}: expected Unsupported, got {other:?}", p.id),
    };
    let array_ctor = Program::new(
        "array_ctor",
        vec![Stmt::local(
            "f",
            class("java.util.function.IntFunction", vec![Ty::array(string())]),
            reference(
                RefKind::ArrayConstructor { elem: string() },
                vec![Ty::INT],
                Ty::array(string()),
                class("java.util.function.IntFunction", vec![Ty::array(string())]),
                false,
            ),
        )],
    );
    let why = unsupported(&KotlinTranslator, &array_ctor);
    assert!(why.contains("array constructor"), "{why}");
    // Scala writes it as a placeholder function
    for t in [ScalaTranslator::SCALA3, ScalaTranslator::SCALA2] {
        let src = t.translate(&array_ctor).expect("translates");
        assert!(
            src.contains("= (new Array[java.lang.String](_: Int))"),
            "{src}"
        );
    }
    // Scala's `new o.Inner()` needs a stable identifier: a block's val gives it one
    let mut inner = Program::new(
        "inner_on_call",
        vec![Stmt::local(
            "co",
            class(CONDITION, vec![]),
            Expr::New {
                class: CONDITION.into(),
                type_args: Some(vec![]),
                args: vec![],
                outer: Some(Box::new(Expr::bottom(class(AQS, vec![])))),
            },
        )],
    );
    inner.inner_classes = vec![CONDITION.into()];
    for t in [ScalaTranslator::SCALA3, ScalaTranslator::SCALA2] {
        let src = t.translate(&inner).expect("translates");
        assert!(
            src.contains(&format!(
                "{{ val thaliaOuter = null.asInstanceOf[{AQS}]; new thaliaOuter.ConditionObject() }}"
            )),
            "{src}"
        );
    }
    // Kotlin writes it on any expression
    let src = KotlinTranslator.translate(&inner).expect("translates");
    assert!(
        src.contains(&format!("= (null as {AQS}).ConditionObject()")),
        "{src}"
    );
    // Kotlin resolves no callable reference on a type parameter
    let mut on_var = Program::new(
        "ref_on_var",
        vec![Stmt::local(
            "f",
            func(Ty::var("T"), Ty::object()),
            reference(
                unbound_ref(Ty::var("T"), "toString"),
                vec![Ty::var("T")],
                Ty::object(),
                func(Ty::var("T"), Ty::object()),
                false,
            ),
        )],
    );
    on_var.type_params = vec![TypeParam {
        name: "T".into(),
        bounds: vec![],
    }];
    let why = unsupported(&KotlinTranslator, &on_var);
    assert!(why.contains("type parameter"), "{why}");
    // a reference for Kotlin's own Comparable (no fun interface)
    let cmp = Program::new(
        "ref_comparable",
        vec![
            s_local(),
            Stmt::local(
                "c",
                class("java.lang.Comparable", vec![string()]),
                reference(
                    bound_ref(Expr::local("s"), "compareTo"),
                    vec![string()],
                    Ty::INT,
                    class("java.lang.Comparable", vec![string()]),
                    false,
                ),
            ),
        ],
    );
    let why = unsupported(&KotlinTranslator, &cmp);
    assert!(why.contains("fun interface"), "{why}");
}

/// Constructor references in Kotlin name their class through an import alias (a type alias
/// for explicit type arguments), unique and deterministic, clashing with no local.
#[test]
fn kotlin_constructor_aliases_are_unique() {
    let ctor = |class: &str, type_args| {
        reference(
            ctor_ref(class, type_args),
            vec![],
            Ty::object(),
            supplier(Ty::object()),
            false,
        )
    };
    let p = Program::new(
        "aliases",
        vec![
            // a local takes the first alias's name
            Stmt::local("ArrayList_", Ty::INT, Expr::int(1)),
            Stmt::local(
                "a",
                supplier(Ty::object()),
                ctor("java.util.ArrayList", None),
            ),
            Stmt::local(
                "b",
                supplier(Ty::object()),
                ctor("java.util.ArrayList", Some(vec![])),
            ),
            Stmt::local(
                "c",
                supplier(Ty::object()),
                ctor("java.awt.List", Some(vec![])),
            ),
            Stmt::local(
                "d",
                supplier(Ty::object()),
                ctor("java.util.LinkedList", None),
            ),
            Stmt::local(
                "e",
                supplier(Ty::object()),
                ctor("java.util.ArrayList", Some(vec![string()])),
            ),
        ],
    );
    let src = KotlinTranslator.translate(&p).expect("translates");
    let header: Vec<&str> = src
        .lines()
        .filter(|l| l.starts_with("import") || l.starts_with("private typealias"))
        .collect();
    assert_eq!(
        header,
        vec![
            "import java.util.ArrayList as ArrayList_2",
            "import java.awt.List as List_",
            "import java.util.LinkedList as LinkedList_",
            "private typealias ArrayList_3 = java.util.ArrayList<String>",
        ],
        "{src}"
    );
    assert!(
        src.contains("java.util.function.Supplier<Any>(::ArrayList_2)"),
        "{src}"
    );
    assert!(
        src.contains("java.util.function.Supplier<Any>(::ArrayList_3)"),
        "{src}"
    );
    assert_eq!(KotlinTranslator.translate(&p).expect("translates"), src);
}

/// The golden files of `dir` for `lang`, sorted.
fn golden_files(lang: &str, dir: &Path) -> Vec<PathBuf> {
    let ext = if lang == "kotlin" { "kt" } else { "scala" };
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .expect("golden dir exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no golden {lang} files in {}",
        dir.display()
    );
    files
}

/// The well-typed golden files compile; every ill-typed one gets an error of its own.
fn forms_compile(lang: &str) {
    let dir = golden_dir(lang);
    let out = scratch_dir(&format!("forms-{lang}"));
    let Some(o) = compile(lang, &golden_files(lang, &dir), &out) else {
        return;
    };
    let text = |o: &Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    };
    assert!(
        o.status.success(),
        "{lang} rejects well-typed forms ({}):\n{}",
        o.status,
        text(&o)
    );
    let ill = golden_files(lang, &dir.join("ill"));
    let out = scratch_dir(&format!("forms-{lang}-ill"));
    let o = compile(lang, &ill, &out).expect("compiler configured");
    assert!(!o.status.success(), "{lang} accepts every ill-typed form");
    let report = text(&o);
    for f in &ill {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        assert!(
            report
                .lines()
                .any(|l| l.contains(&format!("{name}:")) && l.contains("rror")),
            "{lang} accepts the ill-typed {name}:\n{}\n--- compiler output\n{report}",
            fs::read_to_string(f).unwrap_or_default()
        );
    }
}

#[test]
fn forms_compile_with_kotlinc() {
    forms_compile("kotlin");
}

#[test]
fn forms_compile_with_scala3() {
    forms_compile("scala");
}

#[test]
fn forms_compile_with_scala2() {
    forms_compile("scala2");
}

/// Kotlin's top-level and extension functions are referenced through import aliases
/// (`import kotlin.text.trim as trim_`): unbound on a type, bound to a value, top-level; a
/// call of the same name elsewhere in the program imports the name again (an alias hides
/// it from the default imports), as does a constructor alias of Kotlin's own class. A lambda
/// cast to a function type gets typed parameters.
/// kotlinc accepts the result; Scala has no such reference.
#[test]
fn kotlin_package_function_references_and_function_casts() {
    use thalia_translators::ir::{RefOn, NATIVE_MEMBER};
    let fun_ty = |params: Vec<Ty>, ret: Ty| Ty::Function {
        receiver: None,
        params,
        ret: Box::new(ret),
    };
    let pkg_ref = |package: &str, name: &str, on: RefOn, params: Vec<Ty>, ret: Ty| {
        let target = fun_ty(params.clone(), ret.clone());
        reference(
            RefKind::PackageFunction {
                package: package.into(),
                name: name.into(),
                on,
            },
            params,
            ret,
            target,
            false,
        )
    };
    let p = Program::new(
        "pkgfun",
        vec![
            s_local(),
            Stmt::local(
                "trimmed",
                string(),
                call_in(
                    Expr::local("s"),
                    "trim",
                    vec![],
                    &[NATIVE_MEMBER, "kotlin.text"],
                ),
            ),
            Stmt::local(
                "f",
                fun_ty(vec![string()], string()),
                pkg_ref(
                    "kotlin.text",
                    "trim",
                    RefOn::Type(string()),
                    vec![string()],
                    string(),
                ),
            ),
            Stmt::local(
                "g",
                fun_ty(vec![], string()),
                pkg_ref(
                    "kotlin.text",
                    "trim",
                    RefOn::Value(Box::new(Expr::local("s"))),
                    vec![],
                    string(),
                ),
            ),
            Stmt::local(
                "h",
                fun_ty(vec![Ty::INT, Ty::INT], Ty::INT),
                pkg_ref(
                    "kotlin.comparisons",
                    "maxOf",
                    RefOn::Nothing,
                    vec![Ty::INT, Ty::INT],
                    Ty::INT,
                ),
            ),
            // a constructor alias of Kotlin's own class imports its name again
            Stmt::local(
                "k",
                fun_ty(vec![Ty::INT], Ty::CHAR),
                reference(
                    ctor_ref("kotlin.Char", None),
                    vec![Ty::INT],
                    Ty::CHAR,
                    fun_ty(vec![Ty::INT], Ty::CHAR),
                    false,
                ),
            ),
            Stmt::local(
                "c",
                Ty::object(),
                Expr::cast(
                    fun_ty(vec![string()], Ty::INT),
                    Lam::new(
                        &[("x", None)],
                        fun_ty(vec![string()], Ty::INT),
                        length_of(Expr::local("x")),
                    )
                    .not_implicit()
                    .expr(),
                ),
            ),
        ],
    );
    let src = KotlinTranslator.translate(&p).expect("translates");
    let header: Vec<&str> = src.lines().filter(|l| l.starts_with("import")).collect();
    assert_eq!(
        header,
        vec![
            "import kotlin.text.trim as trim_",
            "import kotlin.text.trim",
            "import kotlin.comparisons.maxOf as maxOf_",
            "import kotlin.Char",
            "import kotlin.Char as Char_",
        ],
        "{src}"
    );
    for want in [
        "= String::trim_",
        "= s::trim_",
        "= ::maxOf_",
        "val k: (Int) -> Char = ::Char_",
        "(({ x: String -> x.length }) as (String) -> Int)",
    ] {
        assert!(src.contains(want), "{want} missing from:\n{src}");
    }
    for t in [ScalaTranslator::SCALA3, ScalaTranslator::SCALA2] {
        match t.translate(&p) {
            Err(TranslateError::Unsupported { what, .. }) => {
                assert!(what.contains("package function"), "{what}")
            }
            other => panic!("Scala wrote a Kotlin package function reference: {other:?}"),
        }
    }
    // a capitalized package function is named after a type, which its alias hides too:
    // `import kotlin.Char as Char_` beside a local of type `Char` imports `Char` again
    let named_after_a_type = Program::new(
        "pkgfun_type",
        vec![
            Stmt::local(
                "m",
                fun_ty(vec![Ty::INT], Ty::CHAR),
                pkg_ref("kotlin", "Char", RefOn::Nothing, vec![Ty::INT], Ty::CHAR),
            ),
            Stmt::local("n", fun_ty(vec![Ty::CHAR], Ty::CHAR), {
                Lam::new(
                    &[("x", Some(Ty::CHAR))],
                    fun_ty(vec![Ty::CHAR], Ty::CHAR),
                    Expr::local("x"),
                )
                .expr()
            }),
        ],
    );
    let typed = KotlinTranslator
        .translate(&named_after_a_type)
        .expect("translates");
    let header: Vec<&str> = typed.lines().filter(|l| l.starts_with("import")).collect();
    assert_eq!(
        header,
        vec!["import kotlin.Char as Char_", "import kotlin.Char"],
        "{typed}"
    );
    let out = scratch_dir("forms-kotlin-pkgfun");
    let mut files = Vec::new();
    for (name, text) in [("Test_pkgfun.kt", &src), ("Test_pkgfun_type.kt", &typed)] {
        let file = out.join(name);
        fs::write(&file, text).expect("writes the program");
        files.push(file);
    }
    if let Some(o) = compile("kotlin", &files, &out.join("classes")) {
        assert!(
            o.status.success(),
            "kotlinc rejects:\n{src}\n{typed}\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
