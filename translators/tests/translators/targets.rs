//! Kotlin, Scala 3, Scala 2.13 and Groovy translators: golden files, and (when the compilers
//! are available) compilation of the golden files and a run of a literal round trip.
//!
//! The expected output of every program of [`cases`] for language `L` is stored in
//! `tests/golden/<L>/Test_<id>.<ext>` and compared exactly. After an intended change of the
//! output, regenerate the files with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test -p thalia-translators --test targets
//! ```
//!
//! and review the diff.
//!
//! The compilers are not part of the build. The compile tests run a compiler when its
//! classpath is given in an environment variable (`*` wildcards as in `java -cp`), and are
//! skipped (with a message) otherwise:
//!
//! | variable | main class | jars |
//! |---|---|---|
//! | `THALIA_KOTLINC_CP` | `org.jetbrains.kotlin.cli.jvm.K2JVMCompiler` | `kotlin-compiler-embeddable` and its dependencies (incl. `kotlin-stdlib`) |
//! | `THALIA_SCALA3_CP` | `dotty.tools.dotc.Main` | `scala3-compiler_3` and its dependencies |
//! | `THALIA_SCALA2_CP` | `scala.tools.nsc.Main` | `scala-compiler` 2.13 and its dependencies |
//! | `THALIA_GROOVY_CP` | `org.codehaus.groovy.tools.FileSystemCompiler` | `org.apache.groovy:groovy` 4 |
//!
//! The golden files were checked with kotlinc 2.1.0, Scala 3.3.4, Scala 2.13.15 and Groovy
//! 4.0.24 on OpenJDK 17, as the comment at the top of each golden file says (that comment is
//! written by this test, see [`checked_with`]: update it when checking with other versions).
//! Groovy needs `--encoding=UTF-8` (non-ASCII identifiers are written as they are).

use crate::support::compilers;
use crate::support::require;
use compilers::{compile, compiler, expand_classpath, scratch_dir};

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use thalia_translators::ir::{Expr, Lit, Program, Receiver, Stmt, Ty};
use thalia_translators::{
    GroovyMode, GroovyTranslator, KotlinTranslator, Language, ScalaTranslator, Translator,
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

fn number() -> Ty {
    class("java.lang.Number", vec![])
}

fn list(t: Ty) -> Ty {
    class("java.util.List", vec![t])
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

fn local(name: &str) -> Expr {
    Expr::local(name)
}

/// The target languages, with the translator and golden directory of each.
fn targets() -> Vec<(&'static str, Box<dyn Translator>)> {
    vec![
        ("kotlin", Box::new(KotlinTranslator)),
        ("scala", Box::new(ScalaTranslator::SCALA3)),
        ("scala2", Box::new(ScalaTranslator::SCALA2)),
        ("groovy", Box::new(GroovyTranslator::default())),
    ]
}

/// Programs every target language must translate into a well-typed file.
fn cases() -> Vec<Program> {
    vec![
        Program::new(
            "generics",
            vec![
                Stmt::local(
                    "m",
                    class("java.util.Map", vec![string(), list(integer())]),
                    Expr::new_instance("java.util.HashMap", None, vec![]),
                ),
                Stmt::local(
                    "l",
                    list(integer()),
                    Expr::new_instance("java.util.ArrayList", Some(vec![integer()]), vec![]),
                ),
                Stmt::expr(local("m").method("put", vec![Expr::str("a"), local("l")])),
                Stmt::local(
                    "got",
                    list(integer()),
                    local("m").method("get", vec![Expr::str("a")]),
                ),
                // A primitive type argument is boxed.
                Stmt::local(
                    "boxed",
                    class("java.util.Optional", vec![Ty::INT]),
                    Expr::static_call("java.util.Optional", "empty", vec![], vec![]),
                ),
                Stmt::local(
                    "it",
                    class("java.util.Iterator", vec![integer()]),
                    local("l").method("iterator", vec![]),
                ),
                Stmt::local(
                    "cmp",
                    class("java.lang.Comparable", vec![string()]),
                    Expr::str("x"),
                ),
            ],
        ),
        Program::new(
            "wildcards",
            vec![
                Stmt::local(
                    "nums",
                    list(Ty::extends(number())),
                    Expr::static_call(
                        "java.util.List",
                        "of",
                        vec![],
                        vec![Expr::int(1), Lit::Long(2).into()],
                    ),
                ),
                Stmt::local(
                    "sink",
                    list(Ty::super_of(integer())),
                    Expr::new_instance("java.util.ArrayList", Some(vec![number()]), vec![]),
                ),
                Stmt::expr(local("sink").method("add", vec![Expr::int(3)])),
                Stmt::local(
                    "any",
                    class("java.util.Map", vec![Ty::WildcardStar, Ty::WildcardStar]),
                    Expr::static_call(
                        "java.util.Collections",
                        "emptyMap",
                        vec![string(), number()],
                        vec![],
                    ),
                ),
                Stmt::local(
                    "c",
                    class("java.lang.Class", vec![Ty::extends(Ty::object())]),
                    local("nums").method("getClass", vec![]),
                ),
                // Projections against Kotlin's declaration-site variance become `*`.
                Stmt::local(
                    "cmp",
                    class("java.lang.Comparable", vec![Ty::extends(string())]),
                    Expr::str("x"),
                ),
                Stmt::local(
                    "iter",
                    class("java.lang.Iterable", vec![Ty::super_of(integer())]),
                    local("sink"),
                ),
            ],
        ),
        Program::new(
            "varargs",
            vec![
                Stmt::local(
                    "abc",
                    list(string()),
                    Expr::static_call(
                        "java.util.Arrays",
                        "asList",
                        vec![],
                        vec![Expr::str("a"), Expr::str("b"), Expr::str("c")],
                    ),
                ),
                Stmt::local(
                    "s",
                    string(),
                    Expr::static_call(
                        "java.lang.String",
                        "format",
                        vec![],
                        vec![
                            Expr::str("%s-%d-%c"),
                            Expr::str("x"),
                            Expr::int(1),
                            Lit::Char('c').into(),
                        ],
                    ),
                ),
                Stmt::local(
                    "units",
                    class(
                        "java.util.EnumSet",
                        vec![class("java.util.concurrent.TimeUnit", vec![])],
                    ),
                    Expr::static_call(
                        "java.util.EnumSet",
                        "of",
                        vec![],
                        ["SECONDS", "MINUTES", "HOURS"]
                            .into_iter()
                            .map(|u| Expr::static_field("java.util.concurrent.TimeUnit", u))
                            .collect(),
                    ),
                ),
                Stmt::expr(Expr::static_call(
                    "java.util.Collections",
                    "addAll",
                    vec![],
                    vec![
                        Expr::new_instance("java.util.ArrayList", Some(vec![string()]), vec![]),
                        Expr::str("d"),
                        Expr::str("e"),
                    ],
                )),
                Stmt::local(
                    "none",
                    list(string()),
                    Expr::static_call("java.util.Arrays", "asList", vec![string()], vec![]),
                ),
                // Arrays passed as the whole variable-arity argument.
                Stmt::local(
                    "strs",
                    Ty::array(string()),
                    Expr::new_array(string(), vec![Expr::str("a"), Expr::str("b")]),
                ),
                Stmt::local(
                    "spread",
                    list(string()),
                    Expr::static_call(
                        "java.util.Arrays",
                        "asList",
                        vec![],
                        vec![Expr::Spread(Box::new(local("strs")))],
                    ),
                ),
                Stmt::local(
                    "joined",
                    string(),
                    Expr::static_call(
                        "java.lang.String",
                        "join",
                        vec![],
                        vec![Expr::str(","), Expr::Spread(Box::new(local("strs")))],
                    ),
                ),
                Stmt::local(
                    "ints",
                    class("java.util.stream.IntStream", vec![]),
                    Expr::static_call(
                        "java.util.stream.IntStream",
                        "of",
                        vec![],
                        vec![Expr::Spread(Box::new(Expr::new_array(
                            Ty::INT,
                            vec![Expr::int(1), Expr::int(2)],
                        )))],
                    ),
                ),
            ],
        ),
        Program::new(
            "arrays",
            vec![
                Stmt::local(
                    "ints",
                    Ty::array(Ty::INT),
                    Expr::new_array(Ty::INT, vec![Expr::int(1), Expr::int(-2), Expr::int(3)]),
                ),
                Stmt::local(
                    "cs",
                    Ty::array(Ty::CHAR),
                    Expr::str("abc").method("toCharArray", vec![]),
                ),
                Stmt::local(
                    "n",
                    Ty::INT,
                    Expr::field(Receiver::expr(local("ints")), "length"),
                ),
                Stmt::local(
                    "bytes",
                    Ty::array(Ty::array(Ty::BYTE)),
                    Expr::new_array(
                        Ty::array(Ty::BYTE),
                        vec![
                            Expr::new_array(
                                Ty::BYTE,
                                vec![Lit::Byte(1).into(), Lit::Byte(-1).into()],
                            ),
                            Expr::new_array(Ty::BYTE, vec![]),
                        ],
                    ),
                ),
                Stmt::local(
                    "longs",
                    Ty::array(Ty::LONG),
                    Expr::new_array(Ty::LONG, vec![Lit::Long(7).into()]),
                ),
                Stmt::local(
                    "flags",
                    Ty::array(Ty::BOOLEAN),
                    Expr::new_array(Ty::BOOLEAN, vec![Lit::Bool(true).into()]),
                ),
                Stmt::local(
                    "strs",
                    Ty::array(string()),
                    Expr::new_array(string(), vec![Expr::str("a")]),
                ),
                Stmt::local(
                    "boxes",
                    Ty::array(integer()),
                    Expr::new_array(integer(), vec![Expr::int(1)]),
                ),
                // Non-reifiable element type.
                Stmt::local(
                    "lists",
                    Ty::array(list(string())),
                    Expr::new_array(
                        list(string()),
                        vec![Expr::static_call(
                            "java.util.List",
                            "of",
                            vec![],
                            vec![Expr::str("x")],
                        )],
                    ),
                ),
                Stmt::local(
                    "wild",
                    Ty::array(list(Ty::WildcardStar)),
                    Expr::new_array(list(Ty::WildcardStar), vec![]),
                ),
                Stmt::expr(Expr::static_call(
                    "java.util.Arrays",
                    "sort",
                    vec![],
                    vec![local("ints")],
                )),
                Stmt::local(
                    "copy",
                    Ty::array(string()),
                    local("strs").method("clone", vec![]),
                ),
                Stmt::local(
                    "ds",
                    Ty::array(Ty::DOUBLE),
                    Expr::bottom(Ty::array(Ty::DOUBLE)),
                ),
                Stmt::local(
                    "nested",
                    list(Ty::array(string())),
                    Expr::static_call(
                        "java.util.Arrays",
                        "asList",
                        vec![Ty::array(string())],
                        vec![local("strs")],
                    ),
                ),
            ],
        ),
        Program::new(
            "static_type_args",
            vec![
                Stmt::local(
                    "empty",
                    list(string()),
                    Expr::static_call("java.util.Collections", "emptyList", vec![string()], vec![]),
                ),
                Stmt::local(
                    "map",
                    class("java.util.Map", vec![string(), integer()]),
                    Expr::static_call(
                        "java.util.Collections",
                        "emptyMap",
                        vec![string(), integer()],
                        vec![],
                    ),
                ),
                Stmt::local(
                    "lens",
                    class("java.util.stream.Stream", vec![integer()]),
                    Expr::call(
                        Receiver::expr(local("empty").method("stream", vec![])),
                        "map",
                        vec![integer()],
                        vec![Expr::lambda(
                            untyped(&["s"]),
                            Expr::static_call(
                                "java.util.Objects",
                                "hashCode",
                                vec![],
                                vec![local("s")],
                            ),
                        )],
                    ),
                ),
                Stmt::local(
                    "opt",
                    class("java.util.Optional", vec![list(Ty::extends(number()))]),
                    Expr::static_call(
                        "java.util.Optional",
                        "of",
                        vec![list(Ty::extends(number()))],
                        vec![Expr::static_call(
                            "java.util.List",
                            "of",
                            vec![integer()],
                            vec![Expr::int(1)],
                        )],
                    ),
                ),
            ],
        ),
        Program::new(
            "erased",
            vec![
                Stmt::local(
                    "empty",
                    list(string()),
                    Expr::static_call("java.util.Collections", "emptyList", vec![], vec![]),
                ),
                Stmt::local(
                    "opt",
                    class("java.util.Optional", vec![integer()]),
                    Expr::static_call("java.util.Optional", "of", vec![], vec![Expr::int(1)]),
                ),
                Stmt::local(
                    "cmp",
                    class("java.util.Comparator", vec![string()]),
                    Expr::static_call("java.util.Comparator", "naturalOrder", vec![], vec![]),
                ),
                Stmt::local(
                    "pairs",
                    class("java.util.Map", vec![string(), list(integer())]),
                    Expr::new_instance("java.util.TreeMap", None, vec![]),
                ),
            ],
        ),
        Program::new(
            "lambdas",
            vec![
                Stmt::local(
                    "len",
                    class("java.util.function.Function", vec![string(), integer()]),
                    Expr::lambda(
                        untyped(&["s"]),
                        Expr::static_call(
                            "java.util.Objects",
                            "hashCode",
                            vec![],
                            vec![local("s")],
                        ),
                    ),
                ),
                Stmt::local(
                    "add",
                    class(
                        "java.util.function.BiFunction",
                        vec![integer(), integer(), integer()],
                    ),
                    Expr::lambda(
                        typed(&[("a", integer()), ("b", integer())]),
                        Expr::static_call(
                            "java.lang.Integer",
                            "sum",
                            vec![],
                            vec![local("a"), local("b")],
                        ),
                    ),
                ),
                Stmt::local(
                    "run",
                    class("java.lang.Runnable", vec![]),
                    Expr::lambda(
                        vec![],
                        Expr::static_call("java.lang.System", "gc", vec![], vec![]),
                    ),
                ),
                Stmt::local(
                    "sup",
                    class("java.util.function.Supplier", vec![list(string())]),
                    Expr::lambda(
                        vec![],
                        Expr::new_instance("java.util.ArrayList", None, vec![]),
                    ),
                ),
                // Wildcard-parameterized SAM type: the function type uses the bounds.
                Stmt::local(
                    "pred",
                    class("java.util.function.Predicate", vec![Ty::super_of(string())]),
                    Expr::lambda(
                        untyped(&["x"]),
                        Expr::static_call("java.util.Objects", "isNull", vec![], vec![local("x")]),
                    ),
                ),
                Stmt::local(
                    "anyFn",
                    class(
                        "java.util.function.Function",
                        vec![Ty::WildcardStar, string()],
                    ),
                    Expr::lambda(
                        untyped(&["x"]),
                        Expr::static_call(
                            "java.lang.String",
                            "valueOf",
                            vec![],
                            vec![Expr::cast(Ty::object(), local("x"))],
                        ),
                    ),
                ),
                // A lambda as an argument (SAM conversion); its parameter name is reused later.
                Stmt::local(
                    "mapped",
                    class("java.util.Optional", vec![integer()]),
                    Expr::static_call("java.util.Optional", "of", vec![], vec![Expr::str("x")])
                        .method(
                            "map",
                            vec![Expr::lambda(
                                typed(&[("s", string())]),
                                local("s").method("length", vec![]),
                            )],
                        ),
                ),
                Stmt::local(
                    "picked",
                    class("java.util.function.BinaryOperator", vec![integer()]),
                    Expr::lambda(
                        untyped(&["x", "y"]),
                        Expr::cond(
                            Expr::static_call(
                                "java.util.Objects",
                                "equals",
                                vec![],
                                vec![local("x"), local("y")],
                            ),
                            local("x"),
                            local("y"),
                        ),
                    ),
                ),
                Stmt::local(
                    "cmp",
                    class("java.util.Comparator", vec![string()]),
                    Expr::lambda(untyped(&["p", "q"]), Expr::int(0)),
                ),
            ],
        ),
        Program::new(
            "void_lambdas",
            vec![
                Stmt::local(
                    "ignore",
                    class("java.util.function.Consumer", vec![string()]),
                    Expr::lambda(untyped(&["s"]), Expr::unit()),
                ),
                Stmt::local(
                    "names",
                    class("java.util.ArrayList", vec![string()]),
                    Expr::new_instance("java.util.ArrayList", None, vec![]),
                ),
                Stmt::expr(
                    local("names")
                        .method("forEach", vec![Expr::lambda(untyped(&["n"]), Expr::unit())]),
                ),
                Stmt::expr(local("names").method("forEach", vec![local("ignore")])),
                Stmt::local(
                    "both",
                    class("java.util.function.BiConsumer", vec![string(), integer()]),
                    Expr::lambda(typed(&[("k", string()), ("v", integer())]), Expr::unit()),
                ),
                Stmt::local(
                    "noop",
                    class("java.lang.Runnable", vec![]),
                    Expr::lambda(vec![], Expr::unit()),
                ),
                // A value-returning body for a void interface.
                Stmt::local(
                    "add",
                    class("java.util.function.Consumer", vec![string()]),
                    Expr::lambda(
                        untyped(&["s"]),
                        local("names").method("add", vec![local("s")]),
                    ),
                ),
            ],
        ),
        Program::new(
            "bottoms",
            vec![
                Stmt::local("z", Ty::BOOLEAN, Expr::bottom(Ty::BOOLEAN)),
                Stmt::local("b", Ty::BYTE, Expr::bottom(Ty::BYTE)),
                Stmt::local("c", Ty::CHAR, Expr::bottom(Ty::CHAR)),
                Stmt::local("s", Ty::SHORT, Expr::bottom(Ty::SHORT)),
                Stmt::local("i", Ty::INT, Expr::bottom(Ty::INT)),
                Stmt::local("j", Ty::LONG, Expr::bottom(Ty::LONG)),
                Stmt::local("f", Ty::FLOAT, Expr::bottom(Ty::FLOAT)),
                Stmt::local("d", Ty::DOUBLE, Expr::bottom(Ty::DOUBLE)),
                Stmt::local("str", string(), Expr::bottom(string())),
                Stmt::local(
                    "wl",
                    list(Ty::extends(integer())),
                    Expr::bottom(list(Ty::extends(integer()))),
                ),
                Stmt::local("boxed", integer(), Expr::bottom(integer())),
                Stmt::local(
                    "nullable",
                    Ty::nullable(Ty::INT),
                    Expr::bottom(Ty::nullable(Ty::INT)),
                ),
                Stmt::local("top", Ty::Top, Expr::bottom(Ty::Top)),
                Stmt::local("obj", Ty::object(), Expr::bottom(Ty::object())),
                Stmt::local("ia", Ty::array(Ty::INT), Expr::bottom(Ty::array(Ty::INT))),
                // Bottom constants resolve overloads: String.valueOf(char[]) vs valueOf(Object).
                Stmt::local(
                    "chars",
                    string(),
                    Expr::static_call(
                        "java.lang.String",
                        "valueOf",
                        vec![],
                        vec![Expr::bottom(Ty::array(Ty::CHAR))],
                    ),
                ),
                Stmt::local(
                    "sum",
                    Ty::INT,
                    Expr::static_call(
                        "java.lang.Integer",
                        "sum",
                        vec![],
                        vec![Expr::bottom(Ty::INT), Expr::bottom(Ty::INT)],
                    ),
                ),
                Stmt::expr(Expr::bottom(class("java.lang.Thread", vec![]))),
                // Later statements stay reachable.
                Stmt::local("after", string(), local("str")),
            ],
        ),
        Program::new(
            "nested_and_fields",
            vec![
                Stmt::local(
                    "entry",
                    class("java.util.Map.Entry", vec![string(), integer()]),
                    Expr::new_instance(
                        "java.util.AbstractMap.SimpleEntry",
                        None,
                        vec![Expr::str("k"), Expr::int(1)],
                    ),
                ),
                Stmt::local("key", string(), local("entry").method("getKey", vec![])),
                Stmt::local(
                    "state",
                    class("java.lang.Thread.State", vec![]),
                    Expr::static_field("java.lang.Thread.State", "NEW"),
                ),
                Stmt::local(
                    "max",
                    Ty::INT,
                    Expr::static_field("java.lang.Integer", "MAX_VALUE"),
                ),
                Stmt::local(
                    "point",
                    class("java.awt.Point", vec![]),
                    Expr::new_instance(
                        "java.awt.Point",
                        Some(vec![]),
                        vec![Expr::int(1), Expr::int(2)],
                    ),
                ),
                Stmt::local(
                    "px",
                    Ty::INT,
                    Expr::field(Receiver::expr(local("point")), "x"),
                ),
                Stmt::expr(Expr::field(Receiver::expr(local("point")), "y")),
                Stmt::local(
                    "small",
                    class("java.util.Map", vec![string(), integer()]),
                    Expr::static_call(
                        "java.util.Map",
                        "of",
                        vec![string(), integer()],
                        vec![Expr::str("a"), Expr::int(1)],
                    ),
                ),
                Stmt::local(
                    "entries",
                    class(
                        "java.util.Set",
                        vec![Ty::extends(class(
                            "java.util.Map.Entry",
                            vec![string(), Ty::extends(integer())],
                        ))],
                    ),
                    local("small").method("entrySet", vec![]),
                ),
                Stmt::local(
                    "simple",
                    class(
                        "java.util.AbstractMap.SimpleImmutableEntry",
                        vec![string(), string()],
                    ),
                    Expr::new_instance(
                        "java.util.AbstractMap.SimpleImmutableEntry",
                        Some(vec![string(), string()]),
                        vec![Expr::str("a"), Expr::str("b")],
                    ),
                ),
            ],
        ),
        Program::new(
            "literals",
            vec![
                Stmt::local("t", Ty::BOOLEAN, Lit::Bool(true).into()),
                Stmt::local("i", Ty::INT, Lit::Int(i32::MIN).into()),
                Stmt::local("imax", Ty::INT, Lit::Int(i32::MAX).into()),
                Stmt::local("l", Ty::LONG, Lit::Long(i64::MIN).into()),
                Stmt::local("lneg", Ty::LONG, Lit::Long(-5).into()),
                Stmt::local("f", Ty::FLOAT, Lit::Float(-1.5e-7).into()),
                Stmt::local("fmin", Ty::FLOAT, Lit::Float(1e-45).into()),
                Stmt::local("fnan", Ty::FLOAT, Lit::Float(f32::NAN).into()),
                Stmt::local("d", Ty::DOUBLE, Lit::Double(0.1).into()),
                Stmt::local("dbig", Ty::DOUBLE, Lit::Double(1e300).into()),
                Stmt::local("dinf", Ty::DOUBLE, Lit::Double(f64::NEG_INFINITY).into()),
                Stmt::local("by", Ty::BYTE, Lit::Byte(i8::MIN).into()),
                Stmt::local("sh", Ty::SHORT, Lit::Short(-300).into()),
                Stmt::local("quote", Ty::CHAR, Lit::Char('\'').into()),
                Stmt::local("nul", Ty::CHAR, Lit::Char('\0').into()),
                Stmt::local("euro", Ty::CHAR, Lit::Char('€').into()),
                Stmt::local(
                    "str",
                    string(),
                    Expr::str("tab\tnl\nq\"bs\\nul\u{0}7 é 😀 \\u000a $x ${y} '"),
                ),
                Stmt::local("nothing", string(), Expr::null()),
                Stmt::local("noInt", integer(), Expr::null()),
                Stmt::local("neg", integer(), Expr::cast(integer(), Expr::int(-1))),
                Stmt::local("wide", Ty::LONG, Expr::cast(Ty::LONG, Expr::int(3))),
                Stmt::local("code", Ty::INT, Expr::cast(Ty::INT, local("euro"))),
                Stmt::local("ch", Ty::CHAR, Expr::cast(Ty::CHAR, local("code"))),
                Stmt::local("narrow", Ty::BYTE, Expr::cast(Ty::BYTE, local("imax"))),
                Stmt::local(
                    "pick",
                    Ty::INT,
                    Expr::cond(local("t"), Expr::int(1), Expr::int(2)),
                ),
                Stmt::local("len", Ty::INT, Expr::str("abc").method("length", vec![])),
                Stmt::local("text", string(), Expr::int(3).method("toString", vec![])),
                // Literal statements are dropped; other non-statement expressions are bound.
                Stmt::expr(Expr::int(42)),
                Stmt::expr(Expr::cast(Ty::object(), Expr::str("s"))),
            ],
        ),
        Program::new(
            "keywords",
            vec![
                // Java names that are keywords of a target language.
                Stmt::local(
                    "val",
                    class("java.io.InputStream", vec![]),
                    Expr::static_field("java.lang.System", "in"),
                ),
                Stmt::local(
                    "object",
                    class("java.lang.invoke.MethodHandles.Lookup", vec![]),
                    Expr::static_call("java.lang.invoke.MethodHandles", "lookup", vec![], vec![])
                        .method(
                            "in",
                            vec![Expr::bottom(class("java.lang.Class", vec![string()]))],
                        ),
                ),
                Stmt::local(
                    "type",
                    class("java.lang.invoke.MethodType", vec![]),
                    Expr::bottom(class("java.lang.invoke.MethodHandle", vec![]))
                        .method("type", vec![]),
                ),
                Stmt::expr(Expr::static_call(
                    "java.lang.Thread",
                    "yield",
                    vec![],
                    vec![],
                )),
                Stmt::local("fun", Ty::INT, Expr::int(1)),
                Stmt::local("when", Ty::INT, local("fun")),
                Stmt::local("match", Ty::INT, local("when")),
                Stmt::local("given", Ty::INT, local("match")),
                Stmt::local(
                    "then",
                    class("java.util.function.IntUnaryOperator", vec![]),
                    Expr::lambda(untyped(&["is"]), local("is")),
                ),
                Stmt::local(
                    "dollar$",
                    Ty::INT,
                    local("then").method("applyAsInt", vec![local("given")]),
                ),
            ],
        ),
        Program::new(
            "mapped_members",
            vec![
                // Members that Kotlin shows under other names on the types it maps.
                Stmt::local("s", string(), Expr::str("a,b")),
                Stmt::local("n", Ty::INT, local("s").method("length", vec![])),
                Stmt::local(
                    "c",
                    Ty::CHAR,
                    local("s").method("charAt", vec![Expr::int(0)]),
                ),
                Stmt::local(
                    "parts",
                    Ty::array(string()),
                    local("s").method("split", vec![Expr::str(",")]),
                ),
                Stmt::local(
                    "bytes",
                    Ty::array(Ty::BYTE),
                    local("s").method("getBytes", vec![]),
                ),
                Stmt::local("upper", string(), local("s").method("toUpperCase", vec![])),
                Stmt::local(
                    "same",
                    Ty::BOOLEAN,
                    local("s").method("equals", vec![local("upper")]),
                ),
                Stmt::local("boxed", integer(), Expr::int(7)),
                Stmt::local("iv", Ty::LONG, local("boxed").method("longValue", vec![])),
                Stmt::local("num", number(), local("boxed")),
                Stmt::local("dv", Ty::DOUBLE, local("num").method("doubleValue", vec![])),
                Stmt::local(
                    "sb",
                    class("java.lang.StringBuilder", vec![]),
                    Expr::new_instance("java.lang.StringBuilder", Some(vec![]), vec![]),
                ),
                Stmt::local("sbl", Ty::INT, local("sb").method("length", vec![])),
                Stmt::local(
                    "list",
                    class("java.util.ArrayList", vec![string()]),
                    Expr::new_instance("java.util.ArrayList", Some(vec![string()]), vec![]),
                ),
                Stmt::local("size", Ty::INT, local("list").method("size", vec![])),
                Stmt::local(
                    "arr",
                    Ty::array(Ty::object()),
                    local("list").method("toArray", vec![]),
                ),
                Stmt::local(
                    "map",
                    class("java.util.Map", vec![string(), integer()]),
                    Expr::new_instance("java.util.HashMap", None, vec![]),
                ),
                Stmt::local(
                    "keys",
                    class("java.util.Set", vec![string()]),
                    local("map").method("keySet", vec![]),
                ),
                Stmt::local(
                    "values",
                    class("java.util.Collection", vec![integer()]),
                    local("map").method("values", vec![]),
                ),
                Stmt::local(
                    "entries",
                    class(
                        "java.util.Set",
                        vec![class("java.util.Map.Entry", vec![string(), integer()])],
                    ),
                    local("map").method("entrySet", vec![]),
                ),
                Stmt::local(
                    "entry",
                    class("java.util.Map.Entry", vec![string(), integer()]),
                    Expr::static_call(
                        "java.util.Map",
                        "entry",
                        vec![],
                        vec![Expr::str("k"), Expr::int(1)],
                    ),
                ),
                Stmt::local(
                    "value",
                    integer(),
                    local("entry").method("getValue", vec![]),
                ),
                Stmt::local(
                    "error",
                    class("java.lang.IllegalStateException", vec![]),
                    Expr::new_instance(
                        "java.lang.IllegalStateException",
                        Some(vec![]),
                        vec![Expr::str("boom")],
                    ),
                ),
                Stmt::local("msg", string(), local("error").method("getMessage", vec![])),
                Stmt::local(
                    "cause",
                    class("java.lang.Throwable", vec![]),
                    local("error").method("getCause", vec![]),
                ),
                Stmt::local(
                    "cls",
                    class("java.lang.Class", vec![Ty::extends(Ty::object())]),
                    local("list").method("getClass", vec![]),
                ),
                Stmt::expr(local("list").method("notifyAll", vec![])),
                Stmt::local(
                    "alen",
                    Ty::INT,
                    Expr::field(Receiver::expr(local("parts")), "length"),
                ),
                Stmt::local(
                    "thread",
                    string(),
                    Expr::static_call("java.lang.Thread", "currentThread", vec![], vec![])
                        .method("getName", vec![]),
                ),
            ],
        ),
    ]
}

/// Programs for one language only: constructs that the others cannot express, or express
/// with a different meaning.
fn extra_cases(lang: &str) -> Vec<(Program, Box<dyn Translator>)> {
    let curried = || {
        Program::new(
            "curried",
            vec![Stmt::local(
                "curried",
                class(
                    "java.util.function.Function",
                    vec![
                        integer(),
                        class("java.util.function.Function", vec![integer(), integer()]),
                    ],
                ),
                Expr::lambda(untyped(&["x"]), Expr::lambda(untyped(&["y"]), local("x"))),
            )],
        )
    };
    let covariance = || {
        Program::new(
            "array_covariance",
            vec![
                Stmt::local(
                    "strs",
                    Ty::array(string()),
                    Expr::new_array(string(), vec![Expr::str("a")]),
                ),
                Stmt::local(
                    "objs",
                    Ty::array(Ty::object()),
                    local("strs").method("clone", vec![]),
                ),
                Stmt::expr(Expr::static_call(
                    "java.util.Arrays",
                    "sort",
                    vec![],
                    vec![local("strs")],
                )),
                Stmt::local(
                    "shown",
                    string(),
                    Expr::static_call("java.util.Arrays", "toString", vec![], vec![local("objs")]),
                ),
            ],
        )
    };
    match lang {
        "kotlin" => vec![
            (
                covariance(),
                Box::new(KotlinTranslator) as Box<dyn Translator>,
            ),
            (
                Program::new(
                    "kotlin_types",
                    vec![
                        Stmt::local(
                            "f",
                            Ty::function(vec![Ty::INT], Ty::INT),
                            Expr::lambda(untyped(&["x"]), local("x")),
                        ),
                        Stmt::local(
                            "g",
                            Ty::nullable(Ty::function(vec![], Ty::VOID)),
                            Expr::null(),
                        ),
                        Stmt::local("ns", Ty::nullable(string()), Expr::null()),
                        Stmt::local(
                            "ks",
                            class("kotlin.collections.List", vec![string()]),
                            Expr::call(Receiver::None, "listOf", vec![string()], vec![]),
                        ),
                        Stmt::local("u", Ty::Top, Expr::unit()),
                    ],
                ),
                Box::new(KotlinTranslator),
            ),
        ],
        "scala" => vec![(
            curried(),
            Box::new(ScalaTranslator::SCALA3) as Box<dyn Translator>,
        )],
        "scala2" => vec![(
            curried(),
            Box::new(ScalaTranslator::SCALA2) as Box<dyn Translator>,
        )],
        "groovy" => vec![
            (
                covariance(),
                Box::new(GroovyTranslator::default()) as Box<dyn Translator>,
            ),
            (
                Program::new(
                    "raw",
                    vec![Stmt::local(
                        "raw",
                        class("java.util.List", vec![]),
                        Expr::new_instance("java.util.ArrayList", Some(vec![]), vec![]),
                    )],
                ),
                Box::new(GroovyTranslator::default()),
            ),
            (
                Program::new(
                    "type_checked",
                    vec![
                        Stmt::local(
                            "l",
                            list(string()),
                            Expr::new_instance("java.util.ArrayList", None, vec![]),
                        ),
                        Stmt::expr(local("l").method("add", vec![Expr::str("x")])),
                        Stmt::local(
                            "f",
                            class("java.util.function.Function", vec![string(), integer()]),
                            Expr::lambda(untyped(&["s"]), Expr::int(1)),
                        ),
                    ],
                ),
                Box::new(GroovyTranslator {
                    mode: GroovyMode::TypeChecked,
                }),
            ),
        ],
        _ => vec![],
    }
}

fn golden_dir(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(lang)
}

/// Every (program, translator) pair of `lang`'s golden directory.
fn golden_programs(lang: &str, t: &dyn Translator) -> Vec<(Program, String)> {
    let mut out: Vec<(Program, String)> = cases()
        .into_iter()
        .map(|p| {
            let src = t
                .translate(&p)
                .unwrap_or_else(|e| panic!("{lang}: program {} does not translate: {e}", p.id));
            (p, src)
        })
        .collect();
    for (p, t) in extra_cases(lang) {
        let src = t
            .translate(&p)
            .unwrap_or_else(|e| panic!("{lang}: program {} does not translate: {e}", p.id));
        out.push((p, src));
    }
    out
}

/// The comment line at the top of every golden file: which compilers accepted it.
fn checked_with(lang: &str) -> &'static str {
    match lang {
        "kotlin" => "// checked with kotlinc 2.1.0 (K2JVMCompiler) on OpenJDK 17\n",
        "scala" => "// checked with Scala 3.3.4 (dotty.tools.dotc.Main) on OpenJDK 17\n",
        "scala2" => "// checked with Scala 2.13.15 (scala.tools.nsc.Main) on OpenJDK 17\n",
        "groovy" => "// checked with Groovy 4.0.24 (FileSystemCompiler) on OpenJDK 17\n",
        _ => "",
    }
}

#[test]
fn golden_files_match() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for (lang, t) in targets() {
        let dir = golden_dir(lang);
        if update {
            fs::create_dir_all(&dir).expect("can create the golden dir");
        }
        let mut expected_files = BTreeSet::new();
        for (p, src) in golden_programs(lang, t.as_ref()) {
            let name = t.file_name(&p);
            let path = dir.join(&name);
            let src = format!("{}{src}", checked_with(lang));
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
            assert!(expected_files.insert(name), "{lang}: duplicate program id");
        }
        for entry in fs::read_dir(&dir).expect("golden dir exists") {
            let name = entry
                .expect("readable dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if !expected_files.contains(&name) {
                if update {
                    fs::remove_file(dir.join(&name)).expect("can remove a stale golden file");
                } else {
                    mismatches.push(format!("{lang}/{name}: stale golden file (no such case)"));
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(rerun with UPDATE_GOLDEN=1 to accept the new output)",
        mismatches.join("\n")
    );
}

/// Every case translates for every target, and the Java translator's view agrees on which
/// shared cases are expressible (they are all valid Java too).
#[test]
fn shared_cases_are_java_programs() {
    let java = thalia_translators::translator(Language::Java).expect("Java translator");
    for p in cases() {
        java.translate(&p)
            .unwrap_or_else(|e| panic!("{} is not a Java program: {e}", p.id));
    }
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

fn golden_files_compile(lang: &str) {
    let ext = match lang {
        "kotlin" => "kt",
        "scala" | "scala2" => "scala",
        _ => "groovy",
    };
    let mut files: Vec<PathBuf> = fs::read_dir(golden_dir(lang))
        .expect("golden dir exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no golden {lang} files");
    let out = scratch_dir(&format!("{lang}-golden"));
    if let Some(o) = compile(lang, &files, &out) {
        assert_success(&format!("{lang} compiler on the golden files"), &o);
    }
}

#[test]
fn golden_files_compile_with_kotlinc() {
    golden_files_compile("kotlin");
}

#[test]
fn golden_files_compile_with_scala3() {
    golden_files_compile("scala");
}

#[test]
fn golden_files_compile_with_scala2() {
    golden_files_compile("scala2");
}

#[test]
fn golden_files_compile_with_groovyc() {
    golden_files_compile("groovy");
}

/// A program printing each literal's value (UTF-16 units of strings, bit patterns of floats),
/// and the output the JVM must print for it.
fn round_trip_program() -> (Program, String) {
    let println = |arg: Expr| {
        Stmt::expr(Expr::static_field("java.lang.System", "out").method("println", vec![arg]))
    };
    let strings = [
        "",
        "plain ascii ~!@#$%^&*()_+{}|:<>?`-=[];',./ $x ${y}",
        "quotes \" ' and backslashes \\ \\\\ \\u0041 \\\\u0041",
        "controls \0\u{1}\u{7}\u{8}\t\n\u{b}\u{c}\r\u{1b}\u{1f}\u{7f} digits after nul \u{0}12",
        "latin é ß, euro €, bmp-end \u{ffff}, line sep \u{2028}, astral 😀 𝄞",
    ];
    let chars = [
        'a', '\'', '"', '\\', '$', '\0', '\n', '\u{7f}', 'é', '\u{ffff}',
    ];
    let floats = [
        0.0f32,
        -0.0,
        1.0,
        -1.5e-7,
        1e-45,
        f32::MAX,
        0.1,
        f32::INFINITY,
    ];
    let doubles = [
        0.0f64,
        -0.0,
        0.1,
        1e300,
        5e-324,
        f64::MAX,
        -2.5,
        f64::NEG_INFINITY,
    ];
    let ints = [0, 1, -1, i32::MIN, i32::MAX];
    let longs = [0i64, -1, i64::MIN, i64::MAX];
    let bytes = [0i8, i8::MIN, i8::MAX];
    let shorts = [0i16, i16::MIN, i16::MAX];

    let mut stmts = Vec::new();
    let mut expected = String::new();
    for (i, s) in strings.into_iter().enumerate() {
        let name = format!("s{i}");
        stmts.push(Stmt::local(&name, string(), Expr::str(s)));
        let units = local(&name)
            .method("chars", vec![])
            .method("toArray", vec![]);
        stmts.push(println(Expr::static_call(
            "java.util.Arrays",
            "toString",
            vec![],
            vec![units],
        )));
        let units: Vec<String> = s.encode_utf16().map(|u| u.to_string()).collect();
        writeln!(expected, "[{}]", units.join(", ")).expect("write to String");
    }
    for (i, c) in chars.into_iter().enumerate() {
        let name = format!("c{i}");
        stmts.push(Stmt::local(&name, Ty::CHAR, Lit::Char(c).into()));
        stmts.push(println(Expr::cast(Ty::INT, local(&name))));
        writeln!(expected, "{}", u32::from(c)).expect("write to String");
    }
    for f in floats {
        stmts.push(println(Expr::static_call(
            "java.lang.Float",
            "floatToRawIntBits",
            vec![],
            vec![Lit::Float(f).into()],
        )));
        writeln!(expected, "{}", f.to_bits() as i32).expect("write to String");
    }
    for d in doubles {
        stmts.push(println(Expr::static_call(
            "java.lang.Double",
            "doubleToRawLongBits",
            vec![],
            vec![Lit::Double(d).into()],
        )));
        writeln!(expected, "{}", d.to_bits() as i64).expect("write to String");
    }
    stmts.push(println(Expr::static_call(
        "java.lang.Float",
        "isNaN",
        vec![],
        vec![Lit::Float(f32::NAN).into()],
    )));
    expected.push_str("true\n");
    let mut typed_println = |ty: Ty, lit: Lit, shown: String| {
        let name = format!("v{}", stmts.len());
        stmts.push(Stmt::local(&name, ty, lit.into()));
        stmts.push(println(local(&name)));
        writeln!(expected, "{shown}").expect("write to String");
    };
    for i in ints {
        typed_println(Ty::INT, Lit::Int(i), i.to_string());
    }
    for l in longs {
        typed_println(Ty::LONG, Lit::Long(l), l.to_string());
    }
    for b in bytes {
        typed_println(Ty::BYTE, Lit::Byte(b), b.to_string());
    }
    for s in shorts {
        typed_println(Ty::SHORT, Lit::Short(s), s.to_string());
    }
    (Program::new("roundtrip", stmts), expected)
}

/// Runtime classpath entries (besides the compiled program) for `lang`'s programs.
fn runtime_classpath(lang: &str, compiler_cp: &str) -> Vec<PathBuf> {
    let wanted: &[&str] = match lang {
        "kotlin" => &["kotlin-stdlib-"],
        "scala" => &["scala-library-", "scala3-library_3-"],
        "scala2" => &["scala-library-"],
        _ => &["groovy-"],
    };
    expand_classpath(compiler_cp)
        .into_iter()
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                wanted.iter().any(|w| n.starts_with(w))
            })
        })
        .collect()
}

fn literals_round_trip(lang: &str) {
    let Some(cp) = std::env::var_os(compiler(lang).env) else {
        require::missing_tool(
            lang,
            &format!("set {} to the compiler's classpath", compiler(lang).env),
        );
        return;
    };
    let t = targets()
        .into_iter()
        .find(|(l, _)| *l == lang)
        .map(|(_, t)| t)
        .expect("known language");
    let (p, expected) = round_trip_program();
    let dir = scratch_dir(&format!("{lang}-roundtrip"));
    let src = dir.join(t.file_name(&p));
    fs::write(&src, t.translate(&p).expect("translates")).expect("can write source");
    let classes = dir.join("classes");
    fs::create_dir_all(&classes).expect("can create the classes dir");
    let out = compile(lang, &[src], &classes).expect("compiler configured");
    assert_success(&format!("{lang} compiler on the round-trip program"), &out);
    // A Java runner calls the test function: a static method in Groovy and Scala (the
    // object's static forwarder), a method of the `INSTANCE` singleton in Kotlin.
    let runner = dir.join("Runner.java");
    fs::write(
        &runner,
        "public class Runner {\n    public static void main(String[] args) throws Throwable {\n        \
         Class<?> c = Class.forName(\"thalia.roundtrip.Test_roundtrip\");\n        \
         java.lang.reflect.Method m = c.getMethod(\"test\");\n        \
         boolean isStatic = java.lang.reflect.Modifier.isStatic(m.getModifiers());\n        \
         m.invoke(isStatic ? null : c.getField(\"INSTANCE\").get(null));\n    }\n}\n",
    )
    .expect("can write runner");
    let Ok(out) = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(&runner)
        .output()
    else {
        require::missing_tool(lang, "javac not found");
        return;
    };
    assert_success("javac on the runner", &out);
    let mut run_cp = vec![classes];
    run_cp.extend(runtime_classpath(lang, &cp.to_string_lossy()));
    let run_cp = std::env::join_paths(run_cp).expect("classpath joins");
    let out = Command::new("java")
        .arg("-cp")
        .arg(run_cp)
        .arg("Runner")
        .output()
        .expect("java runs");
    assert_success(&format!("{lang} round-trip program"), &out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{lang}");
}

#[test]
fn literals_round_trip_kotlin() {
    literals_round_trip("kotlin");
}

#[test]
fn literals_round_trip_scala3() {
    literals_round_trip("scala");
}

#[test]
fn literals_round_trip_scala2() {
    literals_round_trip("scala2");
}

#[test]
fn literals_round_trip_groovy() {
    literals_round_trip("groovy");
}

/// Ill-typed (Java) programs, each with its fault in its last statement; every target must
/// reject each of them.
fn ill_typed_cases() -> Vec<Program> {
    vec![
        // A bottom constant of the wrong type as an argument.
        Program::new(
            "ill_bottom_arg",
            vec![Stmt::local(
                "n",
                Ty::INT,
                Expr::static_call(
                    "java.lang.Integer",
                    "parseInt",
                    vec![],
                    vec![Expr::bottom(integer())],
                ),
            )],
        ),
        // Invariant generics.
        Program::new(
            "ill_generic_local",
            vec![Stmt::local(
                "l",
                list(string()),
                Expr::new_instance("java.util.ArrayList", Some(vec![integer()]), vec![]),
            )],
        ),
        // No narrowing of a non-constant argument.
        Program::new(
            "ill_narrowing_arg",
            vec![
                Stmt::local("a0", Ty::INT, Expr::int(1)),
                Stmt::local(
                    "b",
                    class("java.lang.Byte", vec![]),
                    Expr::static_call("java.lang.Byte", "valueOf", vec![], vec![local("a0")]),
                ),
            ],
        ),
        // A receiver without the member (String's `length()` called on an Object; the cast
        // gives it its declared type where Groovy's flow typing would see a String).
        Program::new(
            "ill_receiver",
            vec![
                Stmt::local("r", Ty::object(), Expr::str("x")),
                Stmt::local(
                    "n",
                    Ty::INT,
                    Expr::cast(Ty::object(), local("r")).method("length", vec![]),
                ),
            ],
        ),
        // A wrong explicit type argument.
        Program::new(
            "ill_type_arg",
            vec![Stmt::local(
                "l",
                list(string()),
                Expr::static_call(
                    "java.util.Collections",
                    "emptyList",
                    vec![integer()],
                    vec![],
                ),
            )],
        ),
        // A lambda of the wrong arity.
        Program::new(
            "ill_lambda_arity",
            vec![Stmt::local(
                "f",
                class("java.util.function.Function", vec![string(), integer()]),
                Expr::lambda(vec![], Expr::int(1)),
            )],
        ),
    ]
}

/// Each ill-typed program, compiled alone, is rejected (run per program: some compilers stop
/// before type-checking every file of a failing batch).
#[test]
fn ill_typed_programs_stay_ill_typed() {
    let java = thalia_translators::translator(Language::Java).expect("Java translator");
    for p in ill_typed_cases() {
        java.translate(&p).expect("translates to Java");
    }
    for (lang, t) in targets() {
        if std::env::var_os(compiler(lang).env).is_none() {
            require::missing_tool(lang, &format!("set {}", compiler(lang).env));
            continue;
        }
        for p in ill_typed_cases() {
            let dir = scratch_dir(&format!("{lang}-ill-{}", p.id));
            let src = dir.join(t.file_name(&p));
            fs::write(&src, t.translate(&p).expect("translates")).expect("can write source");
            let out = compile(lang, &[src], &dir).expect("compiler configured");
            assert!(
                !out.status.success(),
                "{lang} accepts the ill-typed program {}:\n{}",
                p.id,
                t.translate(&p).expect("translates")
            );
        }
    }
}
