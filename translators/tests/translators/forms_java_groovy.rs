//! The expression forms of issue #13 in Java and Groovy: function references of the five
//! kinds (and Groovy's method pointers), lambdas with block bodies and Groovy's Java-style
//! lambdas, locals without a declared type, inner-class creation on an outer instance, and
//! the generic test method.
//!
//! Golden files: `tests/golden/forms/java/` and `tests/golden/forms/groovy/`
//! (`@CompileStatic`), compared exactly; regenerate after an intended change with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test -p thalia-translators --test forms_java_groovy
//! ```
//!
//! The compile tests prove each form is accepted and really type checked: every golden file
//! compiles (javac on `PATH`; groovyc from `THALIA_GROOVY_CP`, in both `@CompileStatic` and
//! `@TypeChecked`; also from `THALIA_GROOVY4_CP`, a Groovy 4 classpath, when it is set), and
//! ill-typed variants of the references and block lambdas are rejected.

use crate::support::require;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use thalia_translators::ir::{Expr, LambdaForm, Lit, Program, RefKind, Stmt, Ty, TypeParam};
use thalia_translators::{
    GroovyMode, GroovyTranslator, JavaTranslator, Language, TranslateError, Translator,
};

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

fn function(a: Ty, r: Ty) -> Ty {
    class("java.util.function.Function", vec![a, r])
}

fn supplier(t: Ty) -> Ty {
    class("java.util.function.Supplier", vec![t])
}

fn consumer(t: Ty) -> Ty {
    class("java.util.function.Consumer", vec![t])
}

fn int_function(t: Ty) -> Ty {
    class("java.util.function.IntFunction", vec![t])
}

fn local(name: &str) -> Expr {
    Expr::local(name)
}

fn untyped(names: &[&str]) -> Vec<(String, Option<Ty>)> {
    names.iter().map(|n| (n.to_string(), None)).collect()
}

fn typed(params: &[(&str, Ty)]) -> Vec<(String, Option<Ty>)> {
    params
        .iter()
        .map(|(n, t)| (n.to_string(), Some(t.clone())))
        .collect()
}

/// A reference of `kind` for function type `(fn_params) -> fn_ret` implementing `target`;
/// `implicit` as in the IR (true where the position converts it).
fn reference(kind: RefKind, fn_params: Vec<Ty>, fn_ret: Ty, target: Ty, implicit: bool) -> Expr {
    Expr::Ref {
        kind,
        fn_params,
        fn_ret,
        target: Some(target),
        implicit,
        declared_in: vec![],
        method_pointer: false,
    }
}

/// The same reference as Groovy's method pointer `.&`.
fn pointer(e: Expr) -> Expr {
    match e {
        Expr::Ref {
            kind,
            fn_params,
            fn_ret,
            target,
            implicit,
            declared_in,
            ..
        } => Expr::Ref {
            kind,
            fn_params,
            fn_ret,
            target,
            implicit,
            declared_in,
            method_pointer: true,
        },
        e => e,
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

/// `Integer::parseInt` as a `Function<String, Integer>`.
fn parse_int(implicit: bool) -> Expr {
    reference(
        static_ref("java.lang.Integer", "parseInt"),
        vec![string()],
        integer(),
        function(string(), integer()),
        implicit,
    )
}

/// A lambda with the given parts (`target`, `ret` and `implicit` as in the IR).
fn lambda(
    params: Vec<(String, Option<Ty>)>,
    block: Vec<Stmt>,
    body: Expr,
    target: Ty,
    ret: Ty,
    form: LambdaForm,
) -> Expr {
    Expr::Lambda {
        params,
        body: Box::new(body),
        target: Some(target),
        implicit: false,
        block,
        form,
        ret: Some(ret),
    }
}

/// `java.util.Optional.of(s)`.
fn optional_of(s: &str) -> Expr {
    Expr::static_call("java.util.Optional", "of", vec![], vec![Expr::str(s)])
}

/// References of every kind, in locals, as arguments, cast and on several receivers.
fn refs() -> Program {
    let f_si = function(string(), integer());
    Program::new(
        "refs",
        vec![
            // static
            Stmt::local("parse", f_si.clone(), parse_int(false)),
            // bound, on a local, a literal, a call and a cast
            Stmt::local("s", string(), Expr::str("abc")),
            Stmt::local(
                "len",
                supplier(integer()),
                reference(
                    bound_ref(local("s"), "length"),
                    vec![],
                    Ty::INT,
                    supplier(integer()),
                    false,
                ),
            ),
            Stmt::local(
                "trimmed",
                supplier(string()),
                reference(
                    bound_ref(Expr::str(" x "), "trim"),
                    vec![],
                    string(),
                    supplier(string()),
                    false,
                ),
            ),
            Stmt::local(
                "upper",
                supplier(string()),
                reference(
                    bound_ref(local("s").method("trim", vec![]), "toUpperCase"),
                    vec![],
                    string(),
                    supplier(string()),
                    false,
                ),
            ),
            Stmt::local(
                "shown",
                supplier(string()),
                reference(
                    bound_ref(Expr::cast(Ty::object(), local("s")), "toString"),
                    vec![],
                    string(),
                    supplier(string()),
                    false,
                ),
            ),
            // unbound, of a plain and of a generic class
            Stmt::local(
                "length",
                class("java.util.function.ToIntFunction", vec![string()]),
                reference(
                    unbound_ref(string(), "length"),
                    vec![string()],
                    Ty::INT,
                    class("java.util.function.ToIntFunction", vec![string()]),
                    false,
                ),
            ),
            Stmt::local(
                "size",
                function(list(string()), integer()),
                reference(
                    unbound_ref(list(string()), "size"),
                    vec![list(string())],
                    Ty::INT,
                    function(list(string()), integer()),
                    false,
                ),
            ),
            // constructor, inferred
            Stmt::local(
                "make",
                supplier(list(string())),
                reference(
                    RefKind::Constructor {
                        class: "java.util.ArrayList".into(),
                        type_args: None,
                    },
                    vec![],
                    class("java.util.ArrayList", vec![string()]),
                    supplier(list(string())),
                    false,
                ),
            ),
            // array constructors, of a reifiable and a non-reifiable element type
            Stmt::local(
                "strings",
                int_function(Ty::array(string())),
                reference(
                    RefKind::ArrayConstructor { elem: string() },
                    vec![Ty::INT],
                    Ty::array(string()),
                    int_function(Ty::array(string())),
                    false,
                ),
            ),
            Stmt::local(
                "lists",
                int_function(Ty::array(list(string()))),
                reference(
                    RefKind::ArrayConstructor {
                        elem: list(string()),
                    },
                    vec![Ty::INT],
                    Ty::array(list(string())),
                    int_function(Ty::array(list(string()))),
                    false,
                ),
            ),
            // an argument for a functional-interface parameter (converted)
            Stmt::local(
                "mapped",
                class("java.util.Optional", vec![integer()]),
                optional_of("a").method(
                    "map",
                    vec![reference(
                        unbound_ref(string(), "length"),
                        vec![string()],
                        Ty::INT,
                        function(string(), integer()),
                        true,
                    )],
                ),
            ),
            // an argument for a type-variable parameter (not converted: cast)
            Stmt::local(
                "checked",
                f_si.clone(),
                Expr::static_call(
                    "java.util.Objects",
                    "requireNonNull",
                    vec![],
                    vec![parse_int(false)],
                ),
            ),
            // a local of another type than the target, and an explicit cast in the IR
            Stmt::local("held", Ty::object(), parse_int(false)),
            Stmt::local("cast", Ty::object(), Expr::cast(f_si, parse_int(true))),
            Stmt::local(
                "applied",
                integer(),
                Expr::cast(function(string(), integer()), parse_int(true))
                    .method("apply", vec![Expr::str("1")]),
            ),
        ],
    )
}

/// Block lambdas in `form`: locals (declared and inferred) before the result, typed and
/// untyped parameters, `void` functions with and without a final statement.
fn lambda_blocks(id: &str, form: LambdaForm) -> Program {
    let f_si = function(string(), integer());
    let bi = class(
        "java.util.function.BiFunction",
        vec![string(), string(), class("java.lang.Boolean", vec![])],
    );
    Program::new(
        id,
        vec![
            Stmt::local(
                "count",
                f_si.clone(),
                lambda(
                    untyped(&["x"]),
                    vec![
                        Stmt::local("t", string(), local("x").method("trim", vec![])),
                        Stmt::inferred_local(
                            "u",
                            string(),
                            local("t").method("toUpperCase", vec![]),
                        ),
                    ],
                    local("u").method("length", vec![]),
                    f_si.clone(),
                    integer(),
                    form,
                ),
            ),
            Stmt::local(
                "same",
                bi.clone(),
                lambda(
                    typed(&[("a", string()), ("b", string())]),
                    vec![Stmt::local(
                        "e",
                        Ty::BOOLEAN,
                        local("a").method("equals", vec![local("b")]),
                    )],
                    local("e"),
                    bi,
                    class("java.lang.Boolean", vec![]),
                    form,
                ),
            ),
            Stmt::local(
                "fill",
                consumer(list(string())),
                lambda(
                    untyped(&["l"]),
                    vec![
                        Stmt::local("first", string(), Expr::str("x")),
                        Stmt::expr(local("l").method("add", vec![local("first")])),
                    ],
                    Expr::unit(),
                    consumer(list(string())),
                    Ty::VOID,
                    form,
                ),
            ),
            Stmt::local(
                "clear",
                consumer(list(string())),
                lambda(
                    untyped(&["l"]),
                    vec![Stmt::local("n", Ty::INT, local("l").method("size", vec![]))],
                    local("l").method("clear", vec![]),
                    consumer(list(string())),
                    Ty::VOID,
                    form,
                ),
            ),
            Stmt::local(
                "one",
                supplier(integer()),
                lambda(
                    vec![],
                    vec![Stmt::local("k", Ty::INT, Expr::int(1))],
                    local("k"),
                    supplier(integer()),
                    integer(),
                    form,
                ),
            ),
            // an argument (converted), and a cast in the IR
            Stmt::local(
                "mapped",
                class("java.util.Optional", vec![integer()]),
                optional_of("a").method(
                    "map",
                    vec![Expr::Lambda {
                        params: untyped(&["y"]),
                        body: Box::new(local("z").method("length", vec![])),
                        target: Some(f_si.clone()),
                        implicit: true,
                        block: vec![Stmt::local(
                            "z",
                            string(),
                            local("y").method("trim", vec![]),
                        )],
                        form,
                        ret: Some(integer()),
                    }],
                ),
            ),
            Stmt::local(
                "held",
                Ty::object(),
                Expr::cast(
                    f_si.clone(),
                    lambda(
                        untyped(&["w"]),
                        vec![],
                        local("w").method("length", vec![]),
                        f_si,
                        integer(),
                        form,
                    ),
                ),
            ),
        ],
    )
}

/// Locals without a declared type, initialized by a call, `new`, an array and a cast
/// reference.
fn inferred_locals() -> Program {
    let f_si = function(string(), integer());
    Program::new(
        "inferred_locals",
        vec![
            Stmt::inferred_local(
                "n",
                integer(),
                Expr::static_call("java.lang.Integer", "valueOf", vec![], vec![Expr::int(1)]),
            ),
            Stmt::inferred_local(
                "l",
                class("java.util.ArrayList", vec![string()]),
                Expr::new_instance("java.util.ArrayList", Some(vec![string()]), vec![]),
            ),
            Stmt::expr(local("l").method("add", vec![Expr::str("a")])),
            Stmt::inferred_local("size", Ty::INT, local("l").method("size", vec![])),
            Stmt::inferred_local(
                "a",
                Ty::array(Ty::INT),
                Expr::new_array(Ty::INT, vec![Expr::int(1)]),
            ),
            Stmt::inferred_local("f", f_si.clone(), Expr::cast(f_si, parse_int(true))),
            Stmt::local(
                "r",
                integer(),
                local("f").method("apply", vec![Expr::str("2")]),
            ),
        ],
    )
}

/// Inner (non-static member) classes of the JDK created on outer instances.
fn inner_classes() -> Program {
    let doc = "javax.swing.text.html.HTMLDocument";
    let reader = "javax.swing.text.html.HTMLDocument.HTMLReader";
    let action = "javax.swing.text.html.HTMLDocument.HTMLReader.TagAction";
    let inner_new = |class: &str, outer: Expr, args: Vec<Expr>| Expr::New {
        class: class.into(),
        type_args: Some(vec![]),
        args,
        outer: Some(Box::new(outer)),
    };
    let mut p = Program::new(
        "inner_classes",
        vec![
            Stmt::local(
                "doc",
                class(doc, vec![]),
                Expr::new_instance(doc, Some(vec![]), vec![]),
            ),
            Stmt::local(
                "reader",
                class(reader, vec![]),
                inner_new(reader, local("doc"), vec![Expr::int(0)]),
            ),
            Stmt::local(
                "action",
                class(action, vec![]),
                inner_new(action, local("reader"), vec![]),
            ),
            Stmt::local(
                "fresh",
                class(reader, vec![]),
                inner_new(
                    reader,
                    Expr::new_instance(doc, Some(vec![]), vec![]),
                    vec![Expr::int(0)],
                ),
            ),
        ],
    );
    p.inner_classes = vec![reader.into(), action.into()];
    p
}

/// A generic test method whose type variables type locals, lambdas and calls.
fn generic_test() -> Program {
    let t = Ty::var("T");
    let mut p = Program::new(
        "generic_test",
        vec![
            Stmt::local("t", t.clone(), Expr::bottom(t.clone())),
            Stmt::local("n", Ty::INT, local("t").method("length", vec![])),
            Stmt::local(
                "us",
                list(Ty::var("U")),
                Expr::new_instance("java.util.ArrayList", None, vec![]),
            ),
            Stmt::local(
                "len",
                function(t.clone(), integer()),
                Expr::lambda(untyped(&["x"]), local("x").method("length", vec![])),
            ),
            Stmt::local(
                "first",
                Ty::var("U"),
                Expr::static_call(
                    "java.util.Objects",
                    "requireNonNull",
                    vec![Ty::var("U")],
                    vec![Expr::bottom(Ty::var("U"))],
                ),
            ),
        ],
    );
    p.type_params = vec![
        TypeParam {
            name: "T".into(),
            bounds: vec![
                class("java.lang.CharSequence", vec![]),
                class("java.lang.Comparable", vec![t]),
            ],
        },
        TypeParam {
            name: "U".into(),
            bounds: vec![],
        },
    ];
    p
}

/// Groovy's `as` coercion (a cast in Java) of a typed closure, of a Java-style lambda and
/// of a value to a supertype, and a coerced lambda passed to a generic call (issue #36).
fn coercions() -> Program {
    let f_si = function(string(), integer());
    let length = |form| {
        lambda(
            typed(&[("s", string())]),
            vec![],
            local("s").method("length", vec![]),
            f_si.clone(),
            integer(),
            form,
        )
    };
    let cs = class("java.lang.CharSequence", vec![]);
    Program::new(
        "coercions",
        vec![
            Stmt::local(
                "f",
                f_si.clone(),
                Expr::coerce(f_si.clone(), length(LambdaForm::Usual)),
            ),
            Stmt::local(
                "g",
                f_si.clone(),
                Expr::coerce(f_si.clone(), length(LambdaForm::Arrow)),
            ),
            Stmt::local("c", cs.clone(), Expr::coerce(cs.clone(), Expr::str("a"))),
            Stmt::local(
                "n",
                class("java.util.Optional", vec![integer()]),
                optional_of("ab").method(
                    "map",
                    vec![Expr::coerce(f_si.clone(), length(LambdaForm::Usual))],
                ),
            ),
            Stmt::local(
                "k",
                Ty::INT,
                Expr::static_call(
                    "java.util.Objects",
                    "hashCode",
                    vec![],
                    vec![Expr::coerce(cs, local("c"))],
                ),
            ),
        ],
    )
}

/// A test method whose type variables are bounded by each other and F-bounded (issue #36):
/// `<K extends Comparable<K>, V extends java.util.List<K>>`, with locals of their types and
/// a generic call whose type argument is one of them.
fn related_vars() -> Program {
    let k = Ty::var("K");
    let v = Ty::var("V");
    let mut p = Program::new(
        "related_vars",
        vec![
            Stmt::local("k", k.clone(), Expr::bottom(k.clone())),
            Stmt::local("v", v.clone(), Expr::bottom(v.clone())),
            Stmt::local(
                "first",
                k.clone(),
                local("v").method("get", vec![Expr::int(0)]),
            ),
            Stmt::local(
                "c",
                Ty::INT,
                local("k").method("compareTo", vec![local("first")]),
            ),
            Stmt::local(
                "max",
                k.clone(),
                Expr::static_call(
                    "java.util.Collections",
                    "max",
                    vec![k.clone()],
                    vec![local("v")],
                ),
            ),
        ],
    );
    p.type_params = vec![
        TypeParam {
            name: "K".into(),
            bounds: vec![class("java.lang.Comparable", vec![k.clone()])],
        },
        TypeParam {
            name: "V".into(),
            bounds: vec![list(k)],
        },
    ];
    p
}

/// Java only: explicit constructor type arguments, a conditional of references (groovyc
/// types it as a `Closure`), an unbound reference on a type variable.
fn java_only() -> Program {
    let f_si = function(string(), integer());
    let mut p = Program::new(
        "java_refs",
        vec![
            Stmt::local(
                "make",
                supplier(list(string())),
                reference(
                    RefKind::Constructor {
                        class: "java.util.ArrayList".into(),
                        type_args: Some(vec![string()]),
                    },
                    vec![],
                    class("java.util.ArrayList", vec![string()]),
                    supplier(list(string())),
                    false,
                ),
            ),
            Stmt::local(
                "pick",
                f_si.clone(),
                Expr::cond(
                    Lit::Bool(true).into(),
                    parse_int(true),
                    reference(
                        unbound_ref(string(), "length"),
                        vec![string()],
                        Ty::INT,
                        f_si,
                        true,
                    ),
                ),
            ),
            Stmt::local(
                "tlen",
                function(Ty::var("T"), integer()),
                reference(
                    unbound_ref(Ty::var("T"), "length"),
                    vec![Ty::var("T")],
                    Ty::INT,
                    function(Ty::var("T"), integer()),
                    false,
                ),
            ),
        ],
    );
    p.stmts.push(Stmt::local(
        "tlists",
        int_function(Ty::array(list(Ty::var("T")))),
        reference(
            RefKind::ArrayConstructor {
                elem: list(Ty::var("T")),
            },
            vec![Ty::INT],
            Ty::array(list(Ty::var("T"))),
            int_function(Ty::array(list(Ty::var("T")))),
            false,
        ),
    ));
    p.type_params = vec![TypeParam {
        name: "T".into(),
        bounds: vec![class("java.lang.CharSequence", vec![])],
    }];
    p
}

/// Groovy only: method pointers `recv.&m` and `C.&m`, in locals, as arguments and in `def`.
fn method_pointers() -> Program {
    let f_si = function(string(), integer());
    Program::new(
        "method_pointers",
        vec![
            Stmt::local("parse", f_si.clone(), pointer(parse_int(false))),
            Stmt::local(
                "trimmed",
                supplier(string()),
                pointer(reference(
                    bound_ref(Expr::str(" x "), "trim"),
                    vec![],
                    string(),
                    supplier(string()),
                    false,
                )),
            ),
            Stmt::local(
                "mapped",
                class("java.util.Optional", vec![integer()]),
                optional_of("1").method("map", vec![pointer(parse_int(true))]),
            ),
            Stmt::inferred_local("g", f_si, pointer(parse_int(false))),
            Stmt::inferred_local("h", function(string(), integer()), parse_int(false)),
        ],
    )
}

/// The programs of `lang`'s golden directory.
fn cases(lang: Language) -> Vec<Program> {
    let mut out = vec![
        refs(),
        lambda_blocks("lambda_blocks", LambdaForm::Usual),
        inferred_locals(),
        inner_classes(),
        generic_test(),
        coercions(),
        related_vars(),
    ];
    match lang {
        Language::Java => out.push(java_only()),
        _ => {
            out.push(lambda_blocks("arrow_lambdas", LambdaForm::Arrow));
            out.push(method_pointers());
        }
    }
    out
}

fn golden_dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/forms")
        .join(lang)
}

fn translator(lang: Language, mode: GroovyMode) -> Box<dyn Translator> {
    match lang {
        Language::Java => Box::new(JavaTranslator),
        _ => Box::new(GroovyTranslator { mode }),
    }
}

#[test]
fn golden_files_match() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for lang in [Language::Java, Language::Groovy] {
        let t = translator(lang, GroovyMode::CompileStatic);
        let dir = golden_dir(lang.name());
        fs::create_dir_all(&dir).expect("can create the golden dir");
        let mut expected = BTreeSet::new();
        for p in cases(lang) {
            let src = t
                .translate(&p)
                .unwrap_or_else(|e| panic!("{lang}: {} does not translate: {e}", p.id));
            let name = t.file_name(&p);
            let path = dir.join(&name);
            if update {
                fs::write(&path, &src).expect("can write a golden file");
            } else {
                match fs::read_to_string(&path) {
                    Ok(golden) if golden == src => {}
                    Ok(golden) => mismatches.push(format!(
                        "{lang}/{name} differs:\n--- golden\n{golden}\n--- actual\n{src}"
                    )),
                    Err(e) => mismatches.push(format!("{lang}/{name}: cannot read: {e}")),
                }
            }
            expected.insert(name);
        }
        for entry in fs::read_dir(&dir).expect("golden dir exists") {
            let name = entry
                .expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if !expected.contains(&name) {
                mismatches.push(format!("{lang}/{name}: stale golden file"));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(rerun with UPDATE_GOLDEN=1 to accept the new output)",
        mismatches.join("\n")
    );
}

/// The body line of the one-statement program `s`, or the translation error.
fn line(lang: Language, s: Stmt) -> Result<String, TranslateError> {
    let src = translator(lang, GroovyMode::CompileStatic).translate(&Program::new("t", vec![s]))?;
    Ok(src
        .lines()
        .nth(if lang == Language::Java { 4 } else { 5 })
        .unwrap_or_default()
        .trim()
        .to_owned())
}

#[test]
fn reference_spellings() {
    let f_si = function(string(), integer());
    let as_local = |e: Expr| Stmt::local("f", f_si.clone(), e);
    let as_object = |e: Expr| Stmt::local("o", Ty::object(), e);
    let target = "java.util.function.Function<java.lang.String, java.lang.Integer>";
    // a declaration converts a reference to its declared type; other positions cast it
    for lang in [Language::Java, Language::Groovy] {
        let semi = ";";
        assert_eq!(
            line(lang, as_local(parse_int(false))).as_deref(),
            Ok(format!("{target} f = java.lang.Integer::parseInt{semi}").as_str())
        );
        assert_eq!(
            line(lang, as_object(parse_int(false))).as_deref(),
            Ok(
                format!("java.lang.Object o = (({target}) java.lang.Integer::parseInt){semi}")
                    .as_str()
            )
        );
        assert_eq!(
            line(lang, as_object(parse_int(true))),
            Ok(format!(
                "java.lang.Object o = java.lang.Integer::parseInt{semi}"
            )),
            "an implicit reference is never cast"
        );
    }
    // Groovy's method pointer: cast wherever implicit is false, even in a declaration
    assert_eq!(
        line(Language::Groovy, as_local(pointer(parse_int(false)))).as_deref(),
        Ok(format!("{target} f = (({target}) java.lang.Integer.&parseInt);").as_str())
    );
    // a bound receiver that is not a primary is parenthesized
    let on = |recv: Expr| {
        as_object(reference(
            bound_ref(recv, "equals"),
            vec![Ty::object()],
            Ty::BOOLEAN,
            class("java.util.function.Predicate", vec![Ty::object()]),
            true,
        ))
    };
    assert_eq!(
        line(Language::Java, on(Expr::int(1))).as_deref(),
        Ok("java.lang.Object o = (1)::equals;")
    );
    assert_eq!(
        line(Language::Groovy, on(pointer(parse_int(true)))).as_deref(),
        Ok("java.lang.Object o = (java.lang.Integer.&parseInt)::equals;")
    );
    // Groovy has no type arguments before `::`: an unbound reference names the raw class
    let size = reference(
        unbound_ref(list(string()), "size"),
        vec![list(string())],
        Ty::INT,
        function(list(string()), integer()),
        true,
    );
    assert_eq!(
        line(Language::Java, as_object(size.clone())).as_deref(),
        Ok("java.lang.Object o = java.util.List<java.lang.String>::size;")
    );
    assert_eq!(
        line(Language::Groovy, as_object(size)).as_deref(),
        Ok("java.lang.Object o = java.util.List::size;")
    );
    // Groovy erases a type variable's array (Java rejects it, see below)
    let t_array = reference(
        RefKind::ArrayConstructor { elem: Ty::var("T") },
        vec![Ty::INT],
        Ty::array(Ty::var("T")),
        int_function(Ty::array(Ty::var("T"))),
        true,
    );
    assert_eq!(
        line(Language::Groovy, as_object(t_array)).as_deref(),
        Ok("java.lang.Object o = T[]::new;")
    );
}

/// The forms a language cannot write are errors, with a reason.
#[test]
fn unsupported_forms_are_errors() {
    let unsupported = |lang: Language, s: Stmt, needle: &str| match line(lang, s) {
        Err(TranslateError::Unsupported { language, what }) => {
            assert_eq!(language, lang);
            assert!(what.contains(needle), "{what:?} does not say {needle:?}");
        }
        other => panic!("{lang}: expected Unsupported ({needle}), got {other:?}"),
    };
    let f_si = function(string(), integer());
    // javac cannot infer a `var` from a lambda, a reference or `null`
    for init in [
        parse_int(false),
        Expr::lambda(untyped(&["x"]), Expr::int(1)),
        Expr::null(),
        Expr::cond(Lit::Bool(true).into(), parse_int(true), parse_int(true)),
    ] {
        unsupported(
            Language::Java,
            Stmt::inferred_local("v", f_si.clone(), init.clone()),
            "`var`",
        );
        // Groovy's `def` takes them (cast to the target where not converted)
        assert!(line(
            Language::Groovy,
            Stmt::inferred_local("v", f_si.clone(), init)
        )
        .is_ok());
    }
    // a generic array creation in Java
    unsupported(
        Language::Java,
        Stmt::expr(reference(
            RefKind::ArrayConstructor { elem: Ty::var("T") },
            vec![Ty::INT],
            Ty::array(Ty::var("T")),
            int_function(Ty::array(Ty::var("T"))),
            true,
        )),
        "type variable `T`",
    );
    // `C<A>::new` is not Groovy
    unsupported(
        Language::Groovy,
        Stmt::expr(reference(
            RefKind::Constructor {
                class: "java.util.ArrayList".into(),
                type_args: Some(vec![string()]),
            },
            vec![],
            class("java.util.ArrayList", vec![string()]),
            supplier(list(string())),
            true,
        )),
        "explicit type arguments",
    );
    // Java lambdas cannot mix typed and untyped parameters, Groovy's can
    let mixed = Expr::Lambda {
        params: vec![("a".into(), Some(string())), ("b".into(), None)],
        body: Box::new(local("b")),
        target: None,
        implicit: true,
        block: vec![],
        form: LambdaForm::Arrow,
        ret: None,
    };
    unsupported(Language::Java, Stmt::expr(mixed.clone()), "mixing");
    assert_eq!(
        line(Language::Groovy, Stmt::expr(mixed)).as_deref(),
        Ok("java.lang.Object __unused_0 = (java.lang.String a, b) -> b;")
    );
}

/// A `Unit` body writes no `return`, a `void` function's result is a statement, and
/// statements inside blocks get fresh names that clash with no other.
#[test]
fn block_bodies() {
    let r = class("java.lang.Runnable", vec![]);
    let runnable = |block: Vec<Stmt>, body: Expr, form| {
        Stmt::local(
            "r",
            r.clone(),
            lambda(vec![], block, body, r.clone(), Ty::VOID, form),
        )
    };
    let stmts = || {
        vec![
            Stmt::local("__unused_0", Ty::INT, Expr::int(0)),
            Stmt::expr(Expr::static_field("java.lang.System", "out")),
        ]
    };
    assert_eq!(
        line(
            Language::Java,
            runnable(stmts(), Expr::unit(), LambdaForm::Usual)
        )
        .as_deref(),
        Ok("java.lang.Runnable r = () -> { int __unused_0 = 0; \
            java.lang.Object __unused_1 = java.lang.System.out; };")
    );
    let println = Expr::static_field("java.lang.System", "out").method("println", vec![]);
    assert_eq!(
        line(
            Language::Java,
            runnable(vec![], println.clone(), LambdaForm::Usual)
        )
        .as_deref(),
        Ok("java.lang.Runnable r = () -> java.lang.System.out.println();")
    );
    assert_eq!(
        line(
            Language::Groovy,
            runnable(stmts(), println.clone(), LambdaForm::Arrow)
        )
        .as_deref(),
        Ok(
            "java.lang.Runnable r = () -> { int __unused_0 = 0; \
            java.lang.Object __unused_1 = java.lang.System.out; java.lang.System.out.println(); };"
        )
    );
    assert_eq!(
        line(
            Language::Groovy,
            runnable(stmts(), println, LambdaForm::Usual)
        )
        .as_deref(),
        Ok("java.lang.Runnable r = { -> int __unused_0 = 0; \
            java.lang.Object __unused_1 = java.lang.System.out; java.lang.System.out.println() };")
    );
}

/// A fresh, empty scratch directory under cargo's per-target temp dir.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        fs::remove_dir_all(&dir).expect("can clear the scratch dir");
    }
    fs::create_dir_all(&dir).expect("can create the scratch dir");
    dir
}

/// Writes `programs` translated by `t` into a fresh scratch dir; their paths.
fn write_all(dir_name: &str, t: &dyn Translator, programs: &[Program]) -> Vec<PathBuf> {
    let dir = scratch_dir(dir_name);
    programs
        .iter()
        .map(|p| {
            let path = dir.join(t.file_name(p));
            fs::write(&path, t.translate(p).expect("translates")).expect("can write");
            path
        })
        .collect()
}

/// javac on `files` (into a scratch dir), or `None` (after saying why) if it is missing.
fn javac(files: &[PathBuf], out: &str) -> Option<Output> {
    let out_dir = scratch_dir(out);
    match Command::new("javac")
        .args(["-J-Duser.language=en", "-nowarn", "-d"])
        .arg(&out_dir)
        .args(files)
        .output()
    {
        Ok(o) => Some(o),
        Err(_) => {
            require::missing_tool("javac", "javac not found on PATH");
            None
        }
    }
}

/// groovyc from classpath variable `env` on `files`, or `None` if `env` is unset (a
/// missing tool only when `required`).
fn groovyc(env: &str, required: bool, files: &[PathBuf], out: &str) -> Option<Output> {
    let Some(cp) = std::env::var_os(env) else {
        let why = format!("set {env} to a groovyc classpath");
        if required {
            require::missing_tool("groovyc", &why);
        } else {
            eprintln!("skipping groovyc ({why})");
        }
        return None;
    };
    let out_dir = scratch_dir(out);
    let o = Command::new("java")
        .arg("-cp")
        .arg(cp)
        .arg("org.codehaus.groovy.tools.FileSystemCompiler")
        .arg("--encoding=UTF-8")
        .arg(format!("-d={}", out_dir.display()))
        .args(files)
        .output()
        .expect("java runs");
    Some(o)
}

fn assert_success(what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn golden_files(lang: &str, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(golden_dir(lang))
        .expect("golden dir exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no golden {lang} files");
    files
}

#[test]
fn golden_files_compile_with_javac() {
    if let Some(o) = javac(&golden_files("java", "java"), "forms-javac") {
        assert_success("javac on the golden forms", &o);
    }
}

/// `programs` renamed for `@TypeChecked` (ids ending in `_tc`), so that they compile in one
/// groovyc run beside their `@CompileStatic` versions.
fn type_checked(programs: Vec<Program>) -> Vec<Program> {
    programs
        .into_iter()
        .map(|mut p| {
            p.id = format!("{}_tc", p.id);
            p
        })
        .collect()
}

/// The golden Groovy files (`@CompileStatic`) and their `@TypeChecked` translations.
fn groovy_files_in_both_modes(dir: &str) -> Vec<PathBuf> {
    let mut files = golden_files("groovy", "groovy");
    files.extend(write_all(
        dir,
        &GroovyTranslator {
            mode: GroovyMode::TypeChecked,
        },
        &type_checked(cases(Language::Groovy)),
    ));
    files
}

#[test]
fn golden_files_compile_with_groovyc() {
    let files = groovy_files_in_both_modes("forms-groovy-src");
    if let Some(o) = groovyc("THALIA_GROOVY_CP", true, &files, "forms-groovy") {
        assert_success("groovyc on the forms (both modes)", &o);
    }
}

#[test]
fn golden_files_compile_with_groovyc_4() {
    let files = groovy_files_in_both_modes("forms-groovy4-src");
    if let Some(o) = groovyc("THALIA_GROOVY4_CP", false, &files, "forms-groovy4") {
        assert_success("groovyc 4 on the forms (both modes)", &o);
    }
}

/// `Function<String, Integer> f = init`, as program `id`.
fn ill(id: &str, init: Expr) -> Program {
    Program::new(
        id,
        vec![Stmt::local("f", function(string(), integer()), init)],
    )
}

/// A block lambda for `Function<String, Integer>` whose block declares `t` of `ty` as
/// `s.trim()` (inferred if `ty` is `None`) and returns `result`.
fn ill_block(ty: Option<Ty>, result: Expr, form: LambdaForm) -> Expr {
    let decl = match ty {
        Some(ty) => Stmt::local("t", ty, local("s").method("trim", vec![])),
        None => Stmt::inferred_local("t", string(), local("s").method("trim", vec![])),
    };
    lambda(
        untyped(&["s"]),
        vec![decl],
        result,
        function(string(), integer()),
        integer(),
        form,
    )
}

/// Ill-typed uses of the new forms that every checker must reject (type errors found by
/// attribution, so that a batch reports each of them).
fn ill_typed(form: LambdaForm) -> Vec<Program> {
    let suffix = if form == LambdaForm::Arrow {
        "_arrow"
    } else {
        ""
    };
    vec![
        // a reference to a method of the wrong result type
        ill(
            "ill_ref_result",
            reference(
                unbound_ref(string(), "isEmpty"),
                vec![string()],
                Ty::BOOLEAN,
                function(string(), integer()),
                false,
            ),
        ),
        // a block local initialized with a value of another type
        ill(
            &format!("ill_block_local{suffix}"),
            ill_block(Some(integer()), Expr::int(1), form),
        ),
        // a block returning a value of another type (through an inferred local)
        ill(
            &format!("ill_block_result{suffix}"),
            ill_block(None, local("t"), form),
        ),
    ]
}

/// A reference to a static method of the wrong arity (`Integer.compare(int, int)`):
/// groovyc's `@CompileStatic` finds it when it writes the reference, after type checking.
fn ill_arity() -> Program {
    ill(
        "ill_ref_arity",
        reference(
            static_ref("java.lang.Integer", "compare"),
            vec![string()],
            integer(),
            function(string(), integer()),
            false,
        ),
    )
}

/// Asserts that `out` failed with an error in each of `files`.
fn assert_each_rejected(what: &str, out: &Output, files: &[PathBuf]) {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{what} accepts them all:\n{text}");
    for f in files {
        let name = f.file_name().expect("a file").to_string_lossy();
        assert!(
            text.lines()
                .any(|l| l.contains(name.as_ref()) && !l.trim_start().starts_with("at ")),
            "{what} accepts {name}:\n{text}"
        );
    }
}

#[test]
fn ill_typed_forms_are_rejected_by_javac() {
    let mut programs = ill_typed(LambdaForm::Usual);
    programs.push(ill_arity());
    let files = write_all("forms-ill-java-src", &JavaTranslator, &programs);
    if let Some(o) = javac(&files, "forms-ill-javac") {
        assert_each_rejected("javac", &o, &files);
    }
}

#[test]
fn ill_typed_forms_are_rejected_by_groovyc() {
    let mut programs = ill_typed(LambdaForm::Usual);
    programs.extend(ill_typed(LambdaForm::Arrow).into_iter().skip(1));
    let dir = "forms-ill-groovy-src";
    let mut files = write_all(dir, &GroovyTranslator::default(), &programs);
    let tc = GroovyTranslator {
        mode: GroovyMode::TypeChecked,
    };
    let tc_dir = "forms-ill-groovy-tc-src";
    files.extend(write_all(tc_dir, &tc, &type_checked(programs)));
    if let Some(o) = groovyc("THALIA_GROOVY_CP", true, &files, "forms-ill-groovy") {
        assert_each_rejected("groovyc", &o, &files);
    }
}

/// `@TypeChecked` does not check a reference's arity (groovyc 4.0.11 and 5.1.3 accept
/// [`ill_arity`]; at run time the call fails): only `@CompileStatic` rejects it.
#[test]
fn reference_of_the_wrong_arity_is_rejected_by_groovyc_compile_static() {
    let files = write_all(
        "forms-ill-groovy-arity-src",
        &GroovyTranslator::default(),
        &[ill_arity()],
    );
    if let Some(o) = groovyc("THALIA_GROOVY_CP", true, &files, "forms-ill-groovy-arity") {
        assert_each_rejected("groovyc (@CompileStatic)", &o, &files);
    }
}
