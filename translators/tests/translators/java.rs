//! Java translator: golden files, and compilation (and a run) with the real `javac`/`java`.
//!
//! The expected output of every program in [`cases`] is stored in
//! `tests/golden/java/Test_<id>.java` and compared exactly. After an intended change of the
//! output, regenerate the files with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test -p thalia-translators --test java
//! ```
//!
//! and review the diff. The javac tests are skipped (with a message) only if `javac`/`java` are
//! not on `PATH`.

use crate::support::require;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use thalia_translators::ir::{Expr, Lit, Program, Receiver, Stmt, Ty};
use thalia_translators::{JavaTranslator, Translator};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/java")
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

fn untyped(names: &[&str]) -> Vec<(String, Option<Ty>)> {
    names.iter().map(|n| (n.to_string(), None)).collect()
}

fn println(arg: Expr) -> Stmt {
    Stmt::expr(Expr::static_field("java.lang.System", "out").method("println", vec![arg]))
}

/// The golden programs, each exercising one area of the translation.
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
                Stmt::expr(Expr::local("m").method("put", vec![Expr::str("a"), Expr::local("l")])),
                Stmt::local(
                    "got",
                    list(integer()),
                    Expr::local("m").method("get", vec![Expr::str("a")]),
                ),
                Stmt::local(
                    "raw",
                    class("java.util.List", vec![]),
                    Expr::new_instance("java.util.ArrayList", Some(vec![]), vec![]),
                ),
                // A primitive type argument is boxed.
                Stmt::local(
                    "boxed",
                    class("java.util.Optional", vec![Ty::INT]),
                    Expr::static_call("java.util.Optional", "empty", vec![], vec![]),
                ),
            ],
        ),
        Program::new(
            "wildcards",
            vec![
                Stmt::local(
                    "nums",
                    list(Ty::extends(class("java.lang.Number", vec![]))),
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
                    Expr::new_instance(
                        "java.util.ArrayList",
                        Some(vec![class("java.lang.Number", vec![])]),
                        vec![],
                    ),
                ),
                Stmt::expr(Expr::local("sink").method("add", vec![Expr::int(3)])),
                Stmt::local(
                    "any",
                    class("java.util.Map", vec![Ty::WildcardStar, Ty::WildcardStar]),
                    Expr::static_call("java.util.Collections", "emptyMap", vec![], vec![]),
                ),
                Stmt::local(
                    "c",
                    class("java.lang.Class", vec![Ty::extends(Ty::object())]),
                    Expr::local("nums").method("getClass", vec![]),
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
                        ["SECONDS", "MINUTES", "HOURS", "DAYS"]
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
                // No variable arguments at all.
                Stmt::local(
                    "none",
                    list(string()),
                    Expr::static_call("java.util.Arrays", "asList", vec![string()], vec![]),
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
                    Expr::field(Receiver::expr(Expr::local("ints")), "length"),
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
                    "strs",
                    Ty::array(string()),
                    Expr::new_array(string(), vec![Expr::str("a")]),
                ),
                // Non-reifiable element type: unchecked cast of a wildcard array.
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
                    vec![Expr::local("ints")],
                )),
                Stmt::local(
                    "objs",
                    Ty::array(Ty::object()),
                    Expr::local("strs").method("clone", vec![]),
                ),
                Stmt::local(
                    "ds",
                    Ty::array(Ty::DOUBLE),
                    Expr::bottom(Ty::array(Ty::DOUBLE)),
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
                // Explicit type arguments on an instance call.
                Stmt::local(
                    "lens",
                    class("java.util.stream.Stream", vec![integer()]),
                    Expr::call(
                        Receiver::expr(Expr::local("empty").method("stream", vec![])),
                        "map",
                        vec![integer()],
                        vec![Expr::lambda(
                            untyped(&["s"]),
                            Expr::local("s").method("length", vec![]),
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
                    class(
                        "java.util.Optional",
                        vec![class("java.lang.Number", vec![])],
                    ),
                    Expr::static_call("java.util.Optional", "of", vec![], vec![Expr::int(1)]),
                ),
                Stmt::local(
                    "cmp",
                    class("java.util.Comparator", vec![string()]),
                    Expr::static_call("java.util.Comparator", "naturalOrder", vec![], vec![]),
                ),
            ],
        ),
        Program::new(
            "lambdas",
            vec![
                Stmt::local(
                    "len",
                    class("java.util.function.Function", vec![string(), integer()]),
                    Expr::lambda(untyped(&["s"]), Expr::local("s").method("length", vec![])),
                ),
                Stmt::local(
                    "add",
                    class(
                        "java.util.function.BiFunction",
                        vec![integer(), integer(), integer()],
                    ),
                    Expr::lambda(
                        vec![("a".into(), Some(integer())), ("b".into(), Some(integer()))],
                        Expr::static_call(
                            "java.lang.Integer",
                            "sum",
                            vec![],
                            vec![Expr::local("a"), Expr::local("b")],
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
                // A lambda as an argument; its parameter may reuse a name after its scope ends.
                Stmt::local(
                    "mapped",
                    class("java.util.Optional", vec![integer()]),
                    Expr::static_call("java.util.Optional", "of", vec![], vec![Expr::str("x")])
                        .method(
                            "map",
                            vec![Expr::lambda(
                                untyped(&["s"]),
                                Expr::local("s").method("length", vec![]),
                            )],
                        ),
                ),
                Stmt::local(
                    "curried",
                    class(
                        "java.util.function.Function",
                        vec![
                            integer(),
                            class("java.util.function.Function", vec![integer(), integer()]),
                        ],
                    ),
                    Expr::lambda(
                        untyped(&["x"]),
                        Expr::lambda(
                            untyped(&["y"]),
                            Expr::cond(
                                Expr::static_call(
                                    "java.util.Objects",
                                    "equals",
                                    vec![],
                                    vec![Expr::local("x"), Expr::local("y")],
                                ),
                                Expr::local("x"),
                                Expr::local("y"),
                            ),
                        ),
                    ),
                ),
            ],
        ),
        Program::new(
            "void_lambdas",
            vec![
                // `Unit` bodies: lambdas for `void` functional interfaces.
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
                    Expr::local("names")
                        .method("forEach", vec![Expr::lambda(untyped(&["n"]), Expr::unit())]),
                ),
                Stmt::expr(Expr::local("names").method("forEach", vec![Expr::local("ignore")])),
                Stmt::local(
                    "both",
                    class("java.util.function.BiConsumer", vec![string(), integer()]),
                    Expr::lambda(
                        vec![("k".into(), Some(string())), ("v".into(), Some(integer()))],
                        Expr::unit(),
                    ),
                ),
                Stmt::local(
                    "noop",
                    class("java.lang.Runnable", vec![]),
                    Expr::lambda(vec![], Expr::unit()),
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
                Stmt::local(
                    "boxed",
                    Ty::nullable(Ty::INT),
                    Expr::bottom(Ty::nullable(Ty::INT)),
                ),
                Stmt::local("top", Ty::Top, Expr::bottom(Ty::Top)),
                Stmt::local("bot", Ty::Bottom, Expr::bottom(Ty::Bottom)),
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
                Stmt::expr(Expr::bottom(class("java.lang.Thread", vec![]))),
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
                Stmt::local(
                    "key",
                    string(),
                    Expr::local("entry").method("getKey", vec![]),
                ),
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
                    Expr::field(Receiver::expr(Expr::local("point")), "x"),
                ),
                Stmt::expr(Expr::field(Receiver::expr(Expr::local("point")), "y")),
                Stmt::local(
                    "entries",
                    class(
                        "java.util.Set",
                        vec![Ty::extends(class(
                            "java.util.Map.Entry",
                            vec![string(), Ty::extends(integer())],
                        ))],
                    ),
                    Expr::static_call(
                        "java.util.Map",
                        "of",
                        vec![string(), integer()],
                        vec![Expr::str("a"), Expr::int(1)],
                    )
                    .method("entrySet", vec![]),
                ),
            ],
        ),
        Program::new(
            "literals",
            vec![
                Stmt::local("t", Ty::BOOLEAN, Lit::Bool(true).into()),
                Stmt::local("i", Ty::INT, Lit::Int(i32::MIN).into()),
                Stmt::local("l", Ty::LONG, Lit::Long(i64::MIN).into()),
                Stmt::local("f", Ty::FLOAT, Lit::Float(-1.5e-7).into()),
                Stmt::local("fnan", Ty::FLOAT, Lit::Float(f32::NAN).into()),
                Stmt::local("d", Ty::DOUBLE, Lit::Double(0.1).into()),
                Stmt::local("dinf", Ty::DOUBLE, Lit::Double(f64::NEG_INFINITY).into()),
                Stmt::local("by", Ty::BYTE, Lit::Byte(i8::MIN).into()),
                Stmt::local("sh", Ty::SHORT, Lit::Short(-300).into()),
                Stmt::local("quote", Ty::CHAR, Lit::Char('\'').into()),
                Stmt::local("nul", Ty::CHAR, Lit::Char('\0').into()),
                Stmt::local("euro", Ty::CHAR, Lit::Char('€').into()),
                Stmt::local(
                    "str",
                    string(),
                    Expr::str("tab\tnl\nq\"bs\\nul\u{0}7 é 😀 \\u000a"),
                ),
                Stmt::local("nothing", string(), Expr::null()),
                Stmt::local("neg", integer(), Expr::cast(integer(), Expr::int(-1))),
                Stmt::local("wide", Ty::LONG, Expr::cast(Ty::LONG, Expr::int(3))),
                Stmt::local(
                    "pick",
                    Ty::INT,
                    Expr::cond(Expr::local("t"), Expr::int(1), Expr::int(2)),
                ),
                Stmt::local("len", Ty::INT, Expr::str("abc").method("length", vec![])),
                // Literal statements are dropped; other non-statement expressions are bound.
                Stmt::expr(Expr::int(42)),
                Stmt::expr(Expr::cast(Ty::object(), Expr::str("s"))),
            ],
        ),
    ]
}

#[test]
fn golden_files_match() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let dir = golden_dir();
    if update {
        fs::create_dir_all(&dir).expect("can create the golden dir");
    }
    let mut expected_files = BTreeSet::new();
    let mut mismatches = Vec::new();
    for p in cases() {
        let name = JavaTranslator.file_name(&p);
        let src = JavaTranslator
            .translate(&p)
            .unwrap_or_else(|e| panic!("program {} does not translate: {e}", p.id));
        let path = dir.join(&name);
        if update {
            fs::write(&path, &src).expect("can write a golden file");
        } else {
            match fs::read_to_string(&path) {
                Ok(golden) if golden == src => {}
                Ok(golden) => mismatches.push(format!(
                    "{name} differs:\n--- golden\n{golden}\n--- actual\n{src}"
                )),
                Err(e) => mismatches.push(format!("{name}: cannot read golden file: {e}")),
            }
        }
        expected_files.insert(name);
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
                mismatches.push(format!("{name}: stale golden file (no such case)"));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(rerun with UPDATE_GOLDEN=1 to accept the new output)",
        mismatches.join("\n")
    );
}

/// Runs `cmd`, or returns `None` (after saying why) if the program is not installed.
fn run_tool(cmd: &mut Command) -> Option<Output> {
    match cmd.output() {
        Ok(out) => Some(out),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            require::missing_tool(
                "java golden compile",
                &format!("{:?} not found on PATH", cmd.get_program()),
            );
            None
        }
        Err(e) => panic!("cannot run {:?}: {e}", cmd.get_program()),
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

/// Compiles `files` with javac into `out_dir`; `None` if javac is missing.
fn javac(files: &[PathBuf], out_dir: &Path) -> Option<Output> {
    run_tool(
        Command::new("javac")
            .arg("-proc:none")
            .arg("-encoding")
            .arg("US-ASCII")
            .arg("-d")
            .arg(out_dir)
            .args(files),
    )
}

#[test]
fn golden_files_compile_with_javac() {
    let mut files: Vec<PathBuf> = fs::read_dir(golden_dir())
        .expect("golden dir exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "java"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no golden Java files");
    let out_dir = scratch_dir("javac-golden");
    if let Some(out) = javac(&files, &out_dir) {
        assert_success("javac on the golden files", &out);
    }
}

/// Literals survive translation exactly: a program prints each literal's value (UTF-16 units
/// of strings, bit patterns of floats), and the JVM's output must match Rust's view.
#[test]
fn literals_round_trip_through_the_jvm() {
    let strings = [
        "",
        "plain ascii ~!@#$%^&*()_+{}|:<>?`-=[];',./",
        "quotes \" ' and backslashes \\ \\\\ \\u0041 \\\\u0041",
        "controls \0\u{1}\u{7}\u{8}\t\n\u{b}\u{c}\r\u{1b}\u{1f}\u{7f} digits after nul \u{0}12",
        "latin é ß, euro €, bmp-end \u{ffff}, line sep \u{2028}, astral 😀 𝄞",
    ];
    let chars = ['a', '\'', '"', '\\', '\0', '\n', '\u{7f}', 'é', '\u{ffff}'];
    let floats = [
        0.0f32,
        -0.0,
        1.0,
        -1.5e-7,
        1e-45,
        f32::MAX,
        f32::MIN_POSITIVE,
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
    for s in strings {
        let units = Expr::str(s)
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
    for c in chars {
        stmts.push(println(Expr::cast(Ty::INT, Lit::Char(c).into())));
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
    for i in ints {
        stmts.push(println(Lit::Int(i).into()));
        writeln!(expected, "{i}").expect("write to String");
    }
    for l in longs {
        stmts.push(println(Lit::Long(l).into()));
        writeln!(expected, "{l}").expect("write to String");
    }
    for b in bytes {
        stmts.push(println(Lit::Byte(b).into()));
        writeln!(expected, "{b}").expect("write to String");
    }
    for s in shorts {
        stmts.push(println(Lit::Short(s).into()));
        writeln!(expected, "{s}").expect("write to String");
    }

    let p = Program::new("roundtrip", stmts);
    let dir = scratch_dir("java-roundtrip");
    let src_file = dir.join(JavaTranslator.file_name(&p));
    fs::write(&src_file, JavaTranslator.translate(&p).expect("translates"))
        .expect("can write source");
    let runner = dir.join("Runner.java");
    fs::write(
        &runner,
        "public class Runner {\n    public static void main(String[] args) throws Throwable {\n        \
         thalia.roundtrip.Test_roundtrip.test();\n    }\n}\n",
    )
    .expect("can write runner");
    let classes = dir.join("classes");
    let Some(out) = javac(&[src_file, runner], &classes) else {
        return;
    };
    assert_success("javac on the round-trip program", &out);
    let Some(out) = run_tool(Command::new("java").arg("-cp").arg(&classes).arg("Runner")) else {
        return;
    };
    assert_success("java on the round-trip program", &out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}
