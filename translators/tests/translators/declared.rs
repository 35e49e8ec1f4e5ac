//! The declared-type forms of issue #36 in every language: anonymous classes (Kotlin object
//! expressions) implementing API interfaces with their generic methods overridden, as a
//! local's initializer, an argument and a receiver; Kotlin type aliases and Scala type
//! members through which locals are declared.
//!
//! Golden files: `tests/golden/declared/<L>/`, compared exactly; regenerate after an
//! intended change with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test -p thalia-translators --test translators declared
//! ```
//!
//! The compile tests prove every golden file compiles with the real compiler: javac on
//! `PATH`, groovyc, kotlinc, scalac 3 and 2.13 from `THALIA_GROOVY_CP`, `THALIA_KOTLINC_CP`,
//! `THALIA_SCALA3_CP`, `THALIA_SCALA2_CP` (skipped with a message without them; failing
//! under `THALIA_REQUIRE_TOOLS=1`).

use crate::support::compilers::{compile, scratch_dir};
use crate::support::require;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use thalia_translators::ir::{Expr, KotlinMember, Lit, Method, Program, Stmt, Ty, TypeAlias};
use thalia_translators::{
    GroovyMode, GroovyTranslator, JavaTranslator, KotlinTranslator, ScalaTranslator,
    TranslateError, Translator,
};

fn class(name: &str, args: Vec<Ty>) -> Ty {
    Ty::class(name, args)
}

fn string() -> Ty {
    Ty::string()
}

fn comparator(t: Ty) -> Ty {
    class("java.util.Comparator", vec![t])
}

/// One method `name(params): ret = body` of an anonymous class.
fn method(name: &str, params: &[(&str, Ty)], ret: Ty, body: Expr) -> Method {
    Method {
        name: name.into(),
        params: params
            .iter()
            .map(|(n, t)| ((*n).to_owned(), t.clone()))
            .collect(),
        ret,
        body,
        kotlin: None,
    }
}

fn anonymous(ty: Ty, methods: Vec<Method>) -> Expr {
    Expr::Anonymous {
        ty,
        super_args: None,
        methods,
    }
}

/// An anonymous subclass of class `ty` whose superclass constructor takes `args`.
fn subclass(ty: Ty, args: Vec<Expr>, methods: Vec<Method>) -> Expr {
    Expr::Anonymous {
        ty,
        super_args: Some(args),
        methods,
    }
}

/// `Comparator<String>` whose `compare` returns `n`.
fn string_comparator(a: &str, b: &str, n: i32) -> Expr {
    anonymous(
        comparator(string()),
        vec![method(
            "compare",
            &[(a, string()), (b, string())],
            Ty::INT,
            Expr::int(n),
        )],
    )
}

/// The programs: every position and kind of method (generic interface, boxed and primitive
/// results, a parameter as the result, `void`, a nested anonymous class as the result).
fn cases() -> Vec<Program> {
    all_cases()
}

/// The anonymous-class programs, [`subclasses`] and [`aliased`].
fn all_cases() -> Vec<Program> {
    let mut out = anonymous_cases();
    out.push(subclasses());
    out.push(mapped_subclasses());
    out.push(aliased());
    out
}

/// Anonymous subclasses of abstract classes and an anonymous class of an interface with
/// several abstract methods: a protected constructor without and with arguments, a
/// protected generic abstract method overridden with the type argument substituted, a
/// class without abstract methods.
fn subclasses() -> Program {
    let class_value = class("java.lang.ClassValue", vec![string()]);
    let enumeration = class("java.util.Enumeration", vec![string()]);
    let reader = class("java.io.FilterReader", vec![]);
    Program::new(
        "anonymous_subclass",
        vec![
            Stmt::local(
                "s",
                class("java.io.InputStream", vec![]),
                subclass(
                    class("java.io.InputStream", vec![]),
                    vec![],
                    vec![method("read", &[], Ty::INT, Expr::int(-1))],
                ),
            ),
            Stmt::local(
                "v",
                class_value.clone(),
                subclass(
                    class_value,
                    vec![],
                    vec![method(
                        "computeValue",
                        &[("c", class("java.lang.Class", vec![Ty::WildcardStar]))],
                        string(),
                        Expr::str("v"),
                    )],
                ),
            ),
            Stmt::local(
                "r",
                reader.clone(),
                subclass(
                    reader,
                    vec![Expr::new_instance(
                        "java.io.StringReader",
                        Some(vec![]),
                        vec![Expr::str("text")],
                    )],
                    vec![],
                ),
            ),
            Stmt::local(
                "e",
                enumeration.clone(),
                anonymous(
                    enumeration,
                    vec![
                        method(
                            "hasMoreElements",
                            &[],
                            Ty::BOOLEAN,
                            Expr::Lit(Lit::Bool(false)),
                        ),
                        method("nextElement", &[], string(), Expr::str("n")),
                    ],
                ),
            ),
        ],
    )
}

/// `method(..)` that Kotlin writes as its mapped type's member `kotlin` (a property when
/// `property`).
fn mapped(method: Method, kotlin: &str, property: bool) -> Method {
    Method {
        kotlin: Some(KotlinMember {
            name: kotlin.into(),
            property,
        }),
        ..method
    }
}

/// Anonymous subclasses of classes below Kotlin's mapped types, whose members Kotlin names
/// otherwise (`size` a property, `charAt` as `get`, `Number`'s `toByte` and `toShort`
/// abstract, `MutableIterator.remove` abstract).
fn mapped_subclasses() -> Program {
    let list = class("java.util.AbstractList", vec![string()]);
    let number = class("java.lang.Number", vec![]);
    let chars = class("java.lang.CharSequence", vec![]);
    let iterator = class("java.util.Iterator", vec![string()]);
    let entry = class(
        "java.util.Map.Entry",
        vec![string(), Ty::class("java.lang.Integer", vec![])],
    );
    let int = Ty::class("java.lang.Integer", vec![]);
    let num = |java: &str, kotlin: &str, ty: Ty, v: i32| {
        mapped(method(java, &[], ty, Expr::Lit(Lit::Int(v))), kotlin, false)
    };
    Program::new(
        "anonymous_mapped",
        vec![
            Stmt::local(
                "l",
                class("java.util.Collection", vec![string()]),
                subclass(
                    list,
                    vec![],
                    vec![
                        method("get", &[("i", Ty::INT)], string(), Expr::str("g")),
                        mapped(method("size", &[], Ty::INT, Expr::int(0)), "size", true),
                    ],
                ),
            ),
            Stmt::local(
                "n",
                number.clone(),
                subclass(
                    number,
                    vec![],
                    vec![
                        num("intValue", "toInt", Ty::INT, 1),
                        num("longValue", "toLong", Ty::LONG, 2),
                        mapped(
                            method("floatValue", &[], Ty::FLOAT, Expr::Lit(Lit::Float(3.0))),
                            "toFloat",
                            false,
                        ),
                        mapped(
                            method("doubleValue", &[], Ty::DOUBLE, Expr::Lit(Lit::Double(4.0))),
                            "toDouble",
                            false,
                        ),
                        num("byteValue", "toByte", Ty::BYTE, 5),
                        num("shortValue", "toShort", Ty::SHORT, 6),
                    ],
                ),
            ),
            Stmt::local(
                "c",
                chars.clone(),
                anonymous(
                    chars.clone(),
                    vec![
                        mapped(method("length", &[], Ty::INT, Expr::int(0)), "length", true),
                        mapped(
                            method(
                                "charAt",
                                &[("i", Ty::INT)],
                                Ty::CHAR,
                                Expr::Lit(Lit::Char('a')),
                            ),
                            "get",
                            false,
                        ),
                        method(
                            "subSequence",
                            &[("a", Ty::INT), ("b", Ty::INT)],
                            chars,
                            Expr::str("s"),
                        ),
                    ],
                ),
            ),
            Stmt::local(
                "it",
                iterator.clone(),
                anonymous(
                    iterator,
                    vec![
                        method("hasNext", &[], Ty::BOOLEAN, Expr::Lit(Lit::Bool(false))),
                        method("next", &[], string(), Expr::str("x")),
                        mapped(method("remove", &[], Ty::VOID, Expr::Unit), "remove", false),
                    ],
                ),
            ),
            Stmt::local(
                "e",
                entry.clone(),
                anonymous(
                    entry,
                    vec![
                        mapped(method("getKey", &[], string(), Expr::str("k")), "key", true),
                        mapped(
                            method("getValue", &[], int.clone(), Expr::int(1)),
                            "value",
                            true,
                        ),
                        method("setValue", &[("v", int.clone())], int, Expr::local("v")),
                    ],
                ),
            ),
        ],
    )
}

/// The anonymous-class programs.
fn anonymous_cases() -> Vec<Program> {
    let func = |a: Ty, b: Ty| class("java.util.function.Function", vec![a, b]);
    let supplier = |t: Ty| class("java.util.function.Supplier", vec![t]);
    let list = class("java.util.ArrayList", vec![string()]);
    vec![
        Program::new(
            "anonymous_local",
            vec![
                Stmt::local("c", comparator(string()), string_comparator("a", "b", 0)),
                Stmt::local(
                    "f",
                    func(string(), string()),
                    anonymous(
                        func(string(), string()),
                        vec![method(
                            "apply",
                            &[("s", string())],
                            string(),
                            Expr::local("s"),
                        )],
                    ),
                ),
                Stmt::local(
                    "g",
                    func(string(), class("java.lang.Integer", vec![])),
                    anonymous(
                        func(string(), class("java.lang.Integer", vec![])),
                        vec![method(
                            "apply",
                            &[("s", string())],
                            class("java.lang.Integer", vec![]),
                            Expr::Lit(Lit::Int(7)),
                        )],
                    ),
                ),
                Stmt::local(
                    "r",
                    class("java.lang.Runnable", vec![]),
                    anonymous(
                        class("java.lang.Runnable", vec![]),
                        vec![method("run", &[], Ty::VOID, Expr::Unit)],
                    ),
                ),
                // a supplier of a comparator: an anonymous class as another's result
                Stmt::local(
                    "s",
                    supplier(comparator(string())),
                    anonymous(
                        supplier(comparator(string())),
                        vec![method(
                            "get",
                            &[],
                            comparator(string()),
                            string_comparator("x", "y", 1),
                        )],
                    ),
                ),
            ],
        ),
        Program::new(
            "anonymous_operand",
            vec![
                Stmt::local(
                    "xs",
                    list.clone(),
                    Expr::new_instance("java.util.ArrayList", Some(vec![string()]), vec![]),
                ),
                // an argument where the API wants the interface
                Stmt::expr(Expr::static_call(
                    "java.util.Collections",
                    "sort",
                    vec![],
                    vec![Expr::local("xs"), string_comparator("a", "b", -1)],
                )),
                // a receiver
                Stmt::local(
                    "n",
                    Ty::INT,
                    string_comparator("a", "b", 2)
                        .method("compare", vec![Expr::str("p"), Expr::str("q")]),
                ),
            ],
        ),
    ]
}

/// A program whose locals are declared through type aliases (Kotlin and Scala; Java and
/// Groovy write the classes): generic ones with different type arguments, a non-generic
/// one, a nullable local, an alias beside an anonymous class, and a local whose wildcard
/// type argument keeps the class's name.
fn aliased() -> Program {
    let integer = class("java.lang.Integer", vec![]);
    let map = |k: Ty, v: Ty| class("java.util.HashMap", vec![k, v]);
    let builder = class("java.lang.StringBuilder", vec![]);
    let numbers = class(
        "java.util.List",
        vec![Ty::extends(class("java.lang.Number", vec![]))],
    );
    let mut p = Program::new(
        "type_alias",
        vec![
            Stmt::local(
                "m",
                map(string(), integer.clone()),
                Expr::new_instance(
                    "java.util.HashMap",
                    Some(vec![string(), integer.clone()]),
                    vec![],
                ),
            ),
            Stmt::local(
                "n",
                map(integer.clone(), string()),
                Expr::new_instance("java.util.HashMap", None, vec![]),
            ),
            Stmt::local(
                "b",
                builder.clone(),
                Expr::new_instance("java.lang.StringBuilder", Some(vec![]), vec![]),
            ),
            Stmt::local("o", Ty::nullable(builder), Expr::null()),
            Stmt::local("c", comparator(string()), string_comparator("x", "y", 3)),
            Stmt::local(
                "w",
                numbers,
                Expr::static_call("java.util.Collections", "emptyList", vec![], vec![]),
            ),
        ],
    );
    let alias = |name: &str, class: &str, arity| TypeAlias {
        name: name.into(),
        class: class.into(),
        arity,
    };
    p.aliases = vec![
        alias("Declared0", "java.util.HashMap", 2),
        alias("Declared1", "java.lang.StringBuilder", 0),
        alias("Declared2", "java.util.Comparator", 1),
        alias("Declared3", "java.util.List", 1),
    ];
    p
}

/// The translators, by golden directory name.
fn targets() -> Vec<(&'static str, Box<dyn Translator>)> {
    vec![
        ("java", Box::new(JavaTranslator)),
        (
            "groovy",
            Box::new(GroovyTranslator {
                mode: GroovyMode::CompileStatic,
            }),
        ),
        ("kotlin", Box::new(KotlinTranslator)),
        ("scala", Box::new(ScalaTranslator::SCALA3)),
        ("scala2", Box::new(ScalaTranslator::SCALA2)),
    ]
}

fn golden_dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/declared")
        .join(lang)
}

#[test]
fn declared_golden_files_match() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for (lang, t) in targets() {
        let dir = golden_dir(lang);
        fs::create_dir_all(&dir).expect("can create the golden dir");
        let mut expected = BTreeSet::new();
        for p in cases() {
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

#[test]
fn kotlin_refuses_an_object_expression_for_annotation() {
    let annotation = class("java.lang.annotation.Annotation", vec![]);
    let p = Program::new(
        "annotation",
        vec![Stmt::local(
            "a",
            annotation.clone(),
            anonymous(
                annotation,
                vec![method(
                    "annotationType",
                    &[],
                    class("java.lang.Class", vec![Ty::WildcardStar]),
                    Expr::null(),
                )],
            ),
        )],
    );
    match KotlinTranslator.translate(&p) {
        Err(TranslateError::Unsupported { what: reason, .. }) => {
            assert!(reason.contains("kotlin.Annotation"), "{reason}")
        }
        other => panic!("expected an unsupported form, got {other:?}"),
    }
    assert!(JavaTranslator.translate(&p).is_ok());
}

/// The golden files of `lang`.
fn golden_files(lang: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(golden_dir(lang))
        .expect("golden dir exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no golden {lang} files");
    files
}

fn assert_compiles(lang: &str, o: &Output) {
    assert!(
        o.status.success(),
        "{lang} rejects the declared forms ({}):\n{}{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn declared_forms_compile_with_javac() {
    let out = scratch_dir("declared-javac");
    match Command::new("javac")
        .arg("-d")
        .arg(&out)
        .args(golden_files("java"))
        .output()
    {
        Ok(o) => assert_compiles("javac", &o),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            require::missing_tool("javac", "javac not found on PATH")
        }
        Err(e) => panic!("cannot run javac: {e}"),
    }
}

fn compiles(lang: &str) {
    let out = scratch_dir(&format!("declared-{lang}"));
    if let Some(o) = compile(lang, &golden_files(lang), &out) {
        assert_compiles(lang, &o);
    }
}

#[test]
fn declared_forms_compile_with_groovyc() {
    compiles("groovy");
}

#[test]
fn declared_forms_compile_with_kotlinc() {
    compiles("kotlin");
}

#[test]
fn declared_forms_compile_with_scala3() {
    compiles("scala");
}

#[test]
fn declared_forms_compile_with_scala2() {
    compiles("scala2");
}
