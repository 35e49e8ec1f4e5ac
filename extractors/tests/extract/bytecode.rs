//! The bytecode extractor against real class files: a jar compiled here by `javac --release 17`
//! from `tests/fixtures/bytecode/src`, hand-made broken jars, and the running JDK's
//! `java.base`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::{json, Value};
use thalia_extractors::bytecode::{
    extract_archives, extract_class, extract_ct_sym, extract_jar, extract_jdk, find_java_home,
    read_jimage, ClassPool, ExtractError, ExtractOptions, Extraction,
};
use thalia_extractors::ClassDoc;

fn fixture_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bytecode/src")
}

/// A fresh directory under the target directory, one per build profile (kept after the run
/// for inspection, replaced by the next run).
fn work_dir(name: &str) -> PathBuf {
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bytecode-tests")
        .join(format!("{name}-{profile}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn java_tool(name: &str) -> Option<PathBuf> {
    if let Some(h) = find_java_home() {
        let p = h.join("bin").join(name);
        if p.is_file() {
            return Some(p);
        }
    }
    Command::new(name)
        .arg("-version")
        .output()
        .ok()
        .map(|_| PathBuf::from(name))
}

/// The fixture jar and its class directory, built once per test run; `None` without a JDK.
fn fixture_jar() -> Option<&'static (PathBuf, PathBuf)> {
    static JAR: OnceLock<Option<(PathBuf, PathBuf)>> = OnceLock::new();
    JAR.get_or_init(|| {
        let (Some(javac), Some(jar)) = (java_tool("javac"), java_tool("jar")) else {
            eprintln!("SKIP: javac/jar not found; bytecode fixture tests not run");
            return None;
        };
        let dir = work_dir("fixture");
        let classes = dir.join("classes");
        let mut sources: Vec<PathBuf> = std::fs::read_dir(fixture_src().join("p"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "java"))
            .collect();
        sources.sort();
        let out = Command::new(&javac)
            .args(["--release", "17", "-d"])
            .arg(&classes)
            .args(&sources)
            .output()
            .expect("run javac");
        assert!(
            out.status.success(),
            "javac failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let jar_path = dir.join("fixture.jar");
        let out = Command::new(&jar)
            .arg("cf")
            .arg(&jar_path)
            .arg("-C")
            .arg(&classes)
            .arg(".")
            .output()
            .expect("run jar");
        assert!(
            out.status.success(),
            "jar failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some((jar_path, classes))
    })
    .as_ref()
}

fn fixture() -> Option<&'static Extraction> {
    static X: OnceLock<Option<Extraction>> = OnceLock::new();
    X.get_or_init(|| {
        let (jar, _) = fixture_jar()?;
        Some(extract_jar(jar, &ExtractOptions::default()).expect("extract fixture jar"))
    })
    .as_ref()
}

/// `java.base` of the running JDK, extracted once, with the time it took; `None` without a
/// JDK that has jmods or a runtime image.
fn java_base() -> Option<&'static (Extraction, std::time::Duration)> {
    static X: OnceLock<Option<(Extraction, std::time::Duration)>> = OnceLock::new();
    X.get_or_init(|| {
        let Some(home) = find_java_home() else {
            eprintln!("SKIP: no JDK found");
            return None;
        };
        if !home.join("jmods").is_dir() && !home.join("lib/modules").is_file() {
            eprintln!("SKIP: {} has neither jmods nor lib/modules", home.display());
            return None;
        }
        let start = Instant::now();
        let x = extract_jdk(&home, &["java.base"], &ExtractOptions::default()).unwrap();
        Some((x, start.elapsed()))
    })
    .as_ref()
}

fn doc<'a>(x: &'a Extraction, name: &str) -> &'a ClassDoc {
    x.docs
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no document for {name}"))
}

fn to_json<T: serde::Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap()
}

/// The class-level fields of a document as JSON (methods and fields left out).
fn header(d: &ClassDoc) -> Value {
    let mut v = to_json(d);
    let o = v.as_object_mut().unwrap();
    o.remove("methods");
    o.remove("fields");
    v
}

/// The methods of a document as JSON, by name (all overloads, in document order).
fn methods(d: &ClassDoc, name: &str) -> Vec<Value> {
    d.methods()
        .iter()
        .filter(|m| m.name == name)
        .map(to_json)
        .collect()
}

/// A method as the samples write it; `extra` adds or overrides keys.
fn method(name: &str, params: &[&str], tps: &[&str], ret: Option<&str>, extra: Value) -> Value {
    let mut v = json!({
        "name": name,
        "parameters": params,
        "type_parameters": tps,
        "return_type": ret,
        "is_static": false,
        "is_constructor": ret.is_none(),
        "access_mod": "public",
        "is_default": false,
        "throws": [],
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn names(d: &ClassDoc) -> Vec<String> {
    d.methods().iter().map(|m| m.name.clone()).collect()
}

macro_rules! need_fixture {
    () => {
        match fixture() {
            Some(x) => x,
            None => return,
        }
    };
}

#[test]
fn emits_exactly_the_accessible_classes() {
    let x = need_fixture!();
    let got: Vec<&str> = x.docs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        got,
        [
            "p.Box",
            "p.Box.Cell",
            "p.Box.Inner",
            "p.Box.Nested",
            "p.Box.Prot",
            "p.Circle",
            "p.Color",
            "p.Defaulted",
            "p.Derived",
            "p.Dollar$Sign",
            "p.Dollar$Sign.Nested",
            "p.Fn",
            "p.IntFn",
            "p.Legacy",
            "p.Marker",
            "p.MyList",
            "p.Refined",
            "p.Shape",
            "p.StrFn",
            "p.TwoFn",
        ]
    );
    assert!(x.problems.is_empty(), "{:?}", x.problems);
    assert_eq!(x.stats.classes_emitted, x.docs.len());
    // Base, Hidden, Box$Hidden, Box$PackageNested are read but not emitted; Box$1 and Box$2
    // (anonymous), Box$2$Member (member of an anonymous class), Box$1Local (local) and
    // Color$1 (constant body) are not even read
    assert_eq!(x.stats.class_files, 29);
    assert_eq!(x.stats.classes_read, 24);
}

#[test]
fn generic_class_with_bounds_wildcards_arrays_varargs() {
    let x = need_fixture!();
    let d = doc(x, "p.Box");
    assert_eq!(
        header(d),
        json!({
            "name": "p.Box",
            "type_parameters": ["T extends java.lang.Comparable<? super T>"],
            "implements": [],
            "inherits": ["java.lang.Object"],
            "class_type": 0,
            "functional_interface": false,
            "parent": null,
            "access_mod": "public",
            "language": "java",
        })
    );
    assert_eq!(
        names(d),
        [
            "Box",
            "Box",
            "anonymous",
            "anonymousWithMember",
            "cell",
            "entry",
            "get",
            "hook",
            "io",
            "lambda",
            "local",
            "max",
            "old",
            "rethrow",
            "sum",
            "wild"
        ]
    );
    assert_eq!(
        methods(d, "Box"),
        [
            method("Box", &[], &[], None, json!({"access_mod": "protected"})),
            method("Box", &["T"], &[], None, json!({})),
        ]
    );
    assert_eq!(
        methods(d, "max"),
        [method(
            "max",
            &["java.util.Collection<? extends U>"],
            &["U extends java.lang.Object & java.lang.Comparable<? super U>"],
            Some("U"),
            json!({"is_static": true}),
        )]
    );
    assert_eq!(
        methods(d, "wild"),
        [method(
            "wild",
            &[
                "java.util.Map<java.lang.String,? extends R>",
                "int[][]",
                "java.lang.String..."
            ],
            &["R"],
            Some("java.util.List<? super R>"),
            json!({"is_varargs": true}),
        )]
    );
    assert_eq!(
        methods(d, "sum"),
        [method(
            "sum",
            &["int..."],
            &[],
            Some("int"),
            json!({"is_static": true, "is_varargs": true})
        )]
    );
    assert_eq!(
        methods(d, "get"),
        [method("get", &[], &[], Some("T"), json!({}))]
    );
    assert_eq!(
        methods(d, "old"),
        [method(
            "old",
            &[],
            &[],
            Some("void"),
            json!({"deprecated": true})
        )]
    );
    assert_eq!(
        methods(d, "io"),
        [method(
            "io",
            &[],
            &[],
            Some("void"),
            json!({"throws": ["java.io.IOException", "java.lang.IllegalStateException"]}),
        )]
    );
    assert_eq!(
        methods(d, "rethrow"),
        [method(
            "rethrow",
            &["X"],
            &["X extends java.lang.Exception"],
            Some("void"),
            json!({"throws": ["X"]}),
        )]
    );
    assert_eq!(
        methods(d, "hook"),
        [method(
            "hook",
            &[],
            &[],
            Some("void"),
            json!({"access_mod": "protected"})
        )]
    );
    assert_eq!(
        methods(d, "entry"),
        [method(
            "entry",
            &[],
            &[],
            Some("java.util.Map.Entry<java.lang.String,T>"),
            json!({})
        )]
    );
    assert_eq!(
        methods(d, "cell"),
        [method(
            "cell",
            &[],
            &[],
            Some("p.Box.Cell<java.lang.String>"),
            json!({})
        )]
    );
    let fields: Vec<Value> = d.fields().iter().map(to_json).collect();
    assert_eq!(
        fields,
        [
            json!({"name": "value", "type": "T", "is_final": false, "access_mod": "public", "is_static": false}),
            json!({"name": "NAME", "type": "java.lang.String", "is_final": true, "access_mod": "public", "is_static": true}),
            json!({"name": "count", "type": "int", "is_final": false, "access_mod": "protected", "is_static": false}),
        ]
    );
}

#[test]
fn nested_and_inner_classes() {
    let x = need_fixture!();
    let inner = doc(x, "p.Box.Inner");
    assert_eq!(
        header(inner),
        json!({
            "name": "p.Box.Inner",
            "type_parameters": [],
            "implements": [],
            "inherits": ["java.lang.Object"],
            "class_type": 0,
            "functional_interface": false,
            "parent": "p.Box",
            "access_mod": "public",
            "language": "java",
            "is_inner": true,
        })
    );
    // the enclosing instance is not a parameter, with or without a generic signature
    assert_eq!(
        methods(inner, "Inner"),
        [
            method("Inner", &["int"], &[], None, json!({})),
            method("Inner", &["java.util.List<T>"], &[], None, json!({})),
        ]
    );
    assert_eq!(
        methods(inner, "outerValue"),
        [method("outerValue", &[], &[], Some("T"), json!({}))]
    );

    let cell = doc(x, "p.Box.Cell");
    assert_eq!(cell.type_parameters(), ["V"]);
    assert_eq!(cell.is_inner, Some(true));
    assert_eq!(
        methods(cell, "Cell"),
        [method("Cell", &["V"], &[], None, json!({}))]
    );

    let nested = doc(x, "p.Box.Nested");
    assert_eq!(
        header(nested),
        json!({
            "name": "p.Box.Nested",
            "type_parameters": ["K"],
            "implements": [],
            "inherits": ["java.lang.Object"],
            "class_type": 0,
            "functional_interface": false,
            "parent": "p.Box",
            "access_mod": "public",
            "language": "java",
        })
    );
    assert_eq!(
        methods(nested, "Nested"),
        [method("Nested", &["K"], &[], None, json!({}))]
    );

    let prot = doc(x, "p.Box.Prot");
    assert_eq!(prot.access_mod.as_deref(), Some("protected"));
    assert_eq!(prot.parent(), Some("p.Box"));
    assert_eq!(prot.is_inner, None);

    // '$' inside a name is kept; the member class still gets a dot
    let dollar = doc(x, "p.Dollar$Sign.Nested");
    assert_eq!(dollar.parent(), Some("p.Dollar$Sign"));
    assert_eq!(
        methods(dollar, "Nested"),
        [method("Nested", &[], &[], None, json!({}))]
    );
}

#[test]
fn generic_supertypes() {
    let x = need_fixture!();
    let d = doc(x, "p.MyList");
    assert_eq!(
        header(d),
        json!({
            "name": "p.MyList",
            "type_parameters": ["E"],
            "implements": ["java.util.RandomAccess"],
            "inherits": ["java.util.AbstractList<E>"],
            "class_type": 0,
            "functional_interface": false,
            "parent": null,
            "access_mod": "public",
            "language": "java",
        })
    );
    assert_eq!(names(d), ["MyList", "get", "size"]);
    assert_eq!(
        methods(d, "get"),
        [method("get", &["int"], &[], Some("E"), json!({}))]
    );
}

#[test]
fn interfaces_and_functional_interfaces() {
    let x = need_fixture!();
    let f = doc(x, "p.Fn");
    assert_eq!(
        header(f),
        json!({
            "name": "p.Fn",
            "type_parameters": ["A", "B"],
            "implements": [],
            "inherits": [],
            "class_type": 1,
            "functional_interface": true,
            "parent": null,
            "access_mod": "public",
            "language": "java",
        })
    );
    assert_eq!(
        methods(f, "apply"),
        [method(
            "apply",
            &["A"],
            &[],
            Some("B"),
            json!({"is_abstract": true})
        )]
    );
    assert_eq!(
        methods(f, "andThen"),
        [method(
            "andThen",
            &["p.Fn<? super B,? extends C>"],
            &["C"],
            Some("p.Fn<A,C>"),
            json!({"is_default": true}),
        )]
    );
    assert_eq!(
        methods(f, "identity"),
        [method(
            "identity",
            &[],
            &["A"],
            Some("p.Fn<A,A>"),
            json!({"is_static": true})
        )]
    );
    assert_eq!(
        names(f),
        ["andThen", "apply", "equals", "identity", "toString"]
    );

    let int_fn = doc(x, "p.IntFn");
    assert_eq!(
        int_fn.inherits.as_deref(),
        Some(&["p.Fn<java.lang.Integer,java.lang.Integer>".to_string()][..])
    );
    assert_eq!(int_fn.implements.as_deref(), Some(&[][..]));
    assert_eq!(
        int_fn.functional_interface,
        Some(true),
        "inherits its one abstract method"
    );
    assert_eq!(
        methods(int_fn, "twice"),
        [method(
            "twice",
            &["int"],
            &[],
            Some("int"),
            json!({"is_default": true})
        )]
    );
    assert_eq!(doc(x, "p.Refined").functional_interface, Some(true));
    // javac's bridge `default Object apply(Object)` in Refined is not shown
    assert_eq!(
        methods(doc(x, "p.Refined"), "apply"),
        [method(
            "apply",
            &["java.lang.String"],
            &[],
            Some("java.lang.Object"),
            json!({"is_abstract": true})
        )]
    );
    assert_eq!(doc(x, "p.TwoFn").functional_interface, Some(false));
    assert_eq!(doc(x, "p.Defaulted").functional_interface, Some(false));

    // its abstract method is in a JDK interface: unknown without a context
    assert_eq!(doc(x, "p.StrFn").functional_interface, Some(false));

    let marker = doc(x, "p.Marker");
    assert_eq!(marker.class_type, Some(1));
    assert_eq!(
        marker.functional_interface,
        Some(false),
        "annotation types are not functional"
    );
    assert_eq!(
        marker.inherits.as_deref(),
        Some(&["java.lang.annotation.Annotation".to_string()][..])
    );
    assert_eq!(
        methods(marker, "value"),
        [method(
            "value",
            &[],
            &[],
            Some("java.lang.String"),
            json!({"is_abstract": true})
        )]
    );
}

#[test]
fn enums() {
    let x = need_fixture!();
    let d = doc(x, "p.Color");
    assert_eq!(
        header(d),
        json!({
            "name": "p.Color",
            "type_parameters": [],
            "implements": [],
            "inherits": ["java.lang.Enum<p.Color>"],
            "class_type": 3,
            // an enum whose constants have bodies is sealed (javac writes PermittedSubclasses)
            "is_sealed": true,
            "functional_interface": false,
            "parent": null,
            "access_mod": "public",
            "language": "java",
        })
    );
    let fields: Vec<Value> = d.fields().iter().map(to_json).collect();
    let constant = |n: &str| {
        json!({"name": n, "type": "p.Color", "is_final": true, "access_mod": "public",
               "is_static": true, "is_enum_constant": true})
    };
    assert_eq!(
        fields,
        [
            constant("RED"),
            constant("GREEN"),
            constant("BLUE"),
            json!({"name": "COUNT", "type": "int", "is_final": true, "access_mod": "public", "is_static": true}),
        ]
    );
    // no constructor (private), no $VALUES; values/valueOf are there
    assert_eq!(names(d), ["label", "valueOf", "values"]);
    assert_eq!(
        methods(d, "values"),
        [method(
            "values",
            &[],
            &[],
            Some("p.Color[]"),
            json!({"is_static": true})
        )]
    );
}

#[test]
fn api_inherited_through_a_package_private_superclass() {
    let x = need_fixture!();
    let d = doc(x, "p.Derived");
    assert_eq!(
        header(d),
        json!({
            "name": "p.Derived",
            "type_parameters": [],
            "implements": ["java.lang.Cloneable", "java.io.Serializable"],
            "inherits": ["java.lang.Object"],
            "class_type": 0,
            "functional_interface": false,
            "parent": null,
            "access_mod": "public",
            "language": "java",
        })
    );
    // javac's visibility bridges (take(Object), self()Base) are not shown; Base's members are,
    // with X := String, unless Derived overrides them
    assert_eq!(
        names(d),
        ["Derived", "helper", "hook", "self", "take", "todo"]
    );
    assert_eq!(
        methods(d, "take"),
        [method(
            "take",
            &["java.lang.String"],
            &[],
            Some("java.lang.String"),
            json!({})
        )]
    );
    assert_eq!(
        methods(d, "self"),
        [method("self", &[], &[], Some("p.Derived"), json!({}))]
    );
    assert_eq!(
        methods(d, "helper"),
        [method(
            "helper",
            &[],
            &[],
            Some("int"),
            json!({"is_static": true})
        )]
    );
    assert_eq!(
        methods(d, "hook"),
        [method(
            "hook",
            &[],
            &[],
            Some("void"),
            json!({"access_mod": "protected"})
        )]
    );
    assert_eq!(
        methods(d, "todo"),
        [method("todo", &[], &[], Some("void"), json!({}))]
    );
    let fields: Vec<Value> = d.fields().iter().map(to_json).collect();
    assert_eq!(
        fields,
        [
            json!({"name": "shared", "type": "int", "is_final": false, "access_mod": "public", "is_static": false})
        ]
    );
    // with flattening off, the hidden superclass stays
    let (jar, _) = fixture_jar().unwrap();
    let raw = extract_jar(
        jar,
        &ExtractOptions {
            flatten_non_public: false,
            ..ExtractOptions::default()
        },
    )
    .unwrap();
    let d = doc(&raw, "p.Derived");
    assert_eq!(
        d.inherits.as_deref(),
        Some(&["p.Base<java.lang.String>".to_string()][..])
    );
    assert_eq!(names(d), ["Derived", "self", "todo"]);
}

#[test]
fn bridges_are_dropped_and_deprecation_is_kept() {
    let x = need_fixture!();
    let c = doc(x, "p.Circle");
    assert_eq!(c.inherits.as_deref(), Some(&["p.Shape".to_string()][..]));
    assert_eq!(
        c.methods().iter().map(to_json).collect::<Vec<_>>(),
        [
            method("Circle", &[], &[], None, json!({})),
            method("copy", &[], &[], Some("p.Circle"), json!({})),
        ]
    );
    let l = doc(x, "p.Legacy");
    assert_eq!(l.deprecated, Some(true));
    assert_eq!(l.class_type, Some(2));
    assert_eq!(
        methods(l, "run"),
        [method(
            "run",
            &[],
            &[],
            Some("void"),
            json!({"is_abstract": true})
        )]
    );
    let f: Vec<Value> = l.fields().iter().map(to_json).collect();
    assert_eq!(
        f,
        [
            json!({"name": "OLD", "type": "int", "is_final": false, "access_mod": "public",
                "is_static": true, "deprecated": true})
        ]
    );
}

#[test]
fn protected_members_can_be_left_out() {
    let Some((jar, _)) = fixture_jar() else {
        return;
    };
    let x = extract_jar(
        jar,
        &ExtractOptions {
            include_protected: false,
            ..ExtractOptions::default()
        },
    )
    .unwrap();
    assert!(x.docs.iter().all(|d| d.name != "p.Box.Prot"));
    let b = doc(&x, "p.Box");
    assert!(b
        .methods()
        .iter()
        .all(|m| m.access_mod.as_deref() == Some("public")));
    assert!(b
        .fields()
        .iter()
        .all(|f| f.access_mod.as_deref() == Some("public")));
}

#[test]
fn extract_class_reads_one_file() {
    let Some((_, classes)) = fixture_jar() else {
        return;
    };
    let bytes = std::fs::read(classes.join("p/Box$Inner.class")).unwrap();
    let c = extract_class(&bytes, "p/Box$Inner.class").unwrap().unwrap();
    assert_eq!(c.name, "p/Box$Inner");
    assert_eq!(c.outer.as_deref(), Some("p/Box"));
    assert_eq!(c.simple_name.as_deref(), Some("Inner"));
    assert!(c.is_inner() && c.is_public());
    // anonymous and local classes are not API
    let anon = std::fs::read(classes.join("p/Box$1.class")).unwrap();
    assert_eq!(extract_class(&anon, "p/Box$1.class").unwrap(), None);
    let local = std::fs::read(classes.join("p/Box$1Local.class")).unwrap();
    assert_eq!(extract_class(&local, "p/Box$1Local.class").unwrap(), None);
    let err = extract_class(&bytes[..bytes.len() / 2], "p/Cut.class").unwrap_err();
    assert!(
        matches!(&err, ExtractError::Class { entry, .. } if entry == "p/Cut.class"),
        "{err}"
    );
}

#[test]
fn truncated_class_is_reported_and_skipped() {
    let Some((_, classes)) = fixture_jar() else {
        return;
    };
    let dir = work_dir("truncated");
    let jar = dir.join("broken.jar");
    let good = std::fs::read(classes.join("p/Shape.class")).unwrap();
    let cut = std::fs::read(classes.join("p/Circle.class")).unwrap();
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&jar).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("META-INF/MANIFEST.MF", opts).unwrap();
        z.write_all(b"Manifest-Version: 1.0\r\n").unwrap();
        z.start_file("p/Shape.class", opts).unwrap();
        z.write_all(&good).unwrap();
        z.start_file("p/Circle.class", opts).unwrap();
        z.write_all(&cut[..cut.len() * 2 / 3]).unwrap();
        z.start_file("p/Junk.class", opts).unwrap();
        z.write_all(b"not a class file").unwrap();
        z.finish().unwrap();
    }
    let x = extract_jar(&jar, &ExtractOptions::default()).unwrap();
    assert_eq!(x.docs.len(), 1);
    assert_eq!(x.docs[0].name, "p.Shape");
    let bad: Vec<(&Path, &str)> = x
        .problems
        .iter()
        .map(|p| (p.jar.as_path(), p.entry.as_str()))
        .collect();
    assert_eq!(
        bad,
        [
            (jar.as_path(), "p/Circle.class"),
            (jar.as_path(), "p/Junk.class")
        ]
    );
    for p in &x.problems {
        assert!(!p.reason.is_empty());
        eprintln!("reported: {p}");
    }
    assert_eq!(x.stats.class_files, 3);
}

#[test]
fn non_zip_file_is_an_error_naming_it() {
    let dir = work_dir("notzip");
    let path = dir.join("not-a.jar");
    std::fs::write(&path, b"this is not a zip file at all").unwrap();
    let err = extract_jar(&path, &ExtractOptions::default()).unwrap_err();
    assert!(
        matches!(&err, ExtractError::NotAnArchive { path: p, .. } if p == &path),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("not-a.jar"), "{msg}");
    let missing = dir.join("missing.jar");
    let err = extract_jar(&missing, &ExtractOptions::default()).unwrap_err();
    assert!(matches!(&err, ExtractError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("missing.jar"));
}

fn assert_round_trips(docs: &[ClassDoc]) {
    for d in docs {
        let text = thalia_extractors::io::render_class_doc(d);
        let back: ClassDoc = serde_json::from_str(&text).unwrap();
        assert_eq!(&back, d, "{} does not round-trip", d.name);
    }
}

#[test]
fn fixture_docs_round_trip() {
    let x = need_fixture!();
    assert_round_trips(&x.docs);
}

#[test]
fn java_base_of_the_running_jdk() {
    let Some((x, took)) = java_base() else { return };
    let home = find_java_home().unwrap();
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    eprintln!(
        "java.base from {} ({profile}): {:?}; {} class files, {} classes read, {} emitted, \
         {} methods, {} constructors, {} fields, {} problems",
        home.display(),
        took,
        x.stats.class_files,
        x.stats.classes_read,
        x.stats.classes_emitted,
        x.stats.methods,
        x.stats.constructors,
        x.stats.fields,
        x.problems.len()
    );
    assert!(
        x.problems.is_empty(),
        "{:?}",
        &x.problems[..x.problems.len().min(5)]
    );
    assert!(x.docs.len() > 1000);
    assert!(x.docs.windows(2).all(|w| w[0].name < w[1].name));
    // only exported packages
    assert!(x
        .docs
        .iter()
        .all(|d| !d.name.starts_with("jdk.internal.") && !d.name.starts_with("sun.")));

    let al = doc(x, "java.util.ArrayList");
    assert_eq!(al.type_parameters(), ["E"]);
    assert_eq!(
        al.inherits.as_deref(),
        Some(&["java.util.AbstractList<E>".to_string()][..])
    );
    assert!(al
        .implements
        .as_ref()
        .unwrap()
        .contains(&"java.util.List<E>".to_string()));
    assert_eq!(
        methods(al, "addAll")[0],
        method(
            "addAll",
            &["java.util.Collection<? extends E>"],
            &[],
            Some("boolean"),
            json!({})
        )
    );

    let sb = doc(x, "java.lang.StringBuilder");
    assert_eq!(
        sb.inherits.as_deref(),
        Some(&["java.lang.Object".to_string()][..])
    );
    let sbi = sb.implements.as_ref().unwrap();
    assert!(sbi.contains(&"java.lang.Appendable".to_string()), "{sbi:?}");
    assert!(sbi.contains(&"java.lang.Comparable<java.lang.StringBuilder>".to_string()));
    assert!(methods(sb, "append").contains(&method(
        "append",
        &["java.lang.String"],
        &[],
        Some("java.lang.StringBuilder"),
        json!({})
    )));
    assert_eq!(
        methods(sb, "length"),
        [method("length", &[], &[], Some("int"), json!({}))]
    );
    assert!(
        !methods(sb, "codePoints").is_empty(),
        "a default of CharSequence via AbstractStringBuilder"
    );
    assert!(x
        .docs
        .iter()
        .all(|d| d.name != "java.lang.AbstractStringBuilder"));

    // a sealed interface cannot be a lambda's target, whatever its abstract methods
    let cd = doc(x, "java.lang.constant.ConstantDesc");
    assert_eq!(cd.is_sealed, Some(true));
    assert_eq!(cd.functional_interface, Some(false));
    // annotation types are never functional
    assert_eq!(
        doc(x, "java.lang.Override").functional_interface,
        Some(false)
    );
    // JDK 17's pattern-matching switch support is a preview API
    if let Some(sb) = x
        .docs
        .iter()
        .find(|d| d.name == "java.lang.runtime.SwitchBootstraps")
    {
        assert_eq!(sb.preview, Some(true));
    }

    let uo = doc(x, "java.util.function.UnaryOperator");
    assert_eq!(uo.functional_interface, Some(true));
    assert_eq!(
        uo.inherits.as_deref(),
        Some(&["java.util.function.Function<T,T>".to_string()][..])
    );
    assert_eq!(
        doc(x, "java.util.Comparator").functional_interface,
        Some(true)
    );
    assert_eq!(
        doc(x, "java.lang.Runnable").functional_interface,
        Some(true)
    );
    assert_eq!(doc(x, "java.util.List").functional_interface, Some(false));

    let colls = doc(x, "java.util.Collections");
    assert!(methods(colls, "max").contains(&method(
        "max",
        &["java.util.Collection<? extends T>"],
        &["T extends java.lang.Object & java.lang.Comparable<? super T>"],
        Some("T"),
        json!({"is_static": true})
    )));
    let entry = doc(x, "java.util.Map.Entry");
    assert_eq!(entry.parent(), Some("java.util.Map"));
    assert!(methods(entry, "comparingByKey").contains(&method(
        "comparingByKey",
        &[],
        &["K extends java.lang.Comparable<? super K>", "V"],
        Some("java.util.Comparator<java.util.Map.Entry<K,V>>"),
        json!({"is_static": true})
    )));
    let state = doc(x, "java.lang.Thread.State");
    assert_eq!(state.class_type, Some(3));
    assert_eq!(state.fields()[0].is_enum_constant, Some(true));
    let obj = doc(x, "java.lang.Object");
    assert_eq!(obj.inherits.as_deref(), Some(&[][..]));
    assert!(methods(obj, "wait")
        .iter()
        .any(|m| m["throws"] == json!(["java.lang.InterruptedException"])));

    assert_round_trips(&x.docs);
}

/// The hand-written samples in `tests/fixtures/jdk-core` are trimmed copies of what the extractor
/// writes: every method and field they list must come out identical.
#[test]
fn java_base_agrees_with_the_shipped_samples() {
    let Some((x, _)) = java_base() else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jdk-core");
    let (samples, errors) = thalia_extractors::read_api_dir(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(!samples.is_empty());
    let mut compared = 0;
    for (_, s) in &samples {
        // samples of other modules are not compared
        let Some(d) = x.docs.iter().find(|d| d.name == s.name) else {
            eprintln!("not in java.base: {}", s.name);
            continue;
        };
        assert_eq!(d.type_parameters, s.type_parameters, "{}", s.name);
        assert_eq!(d.inherits, s.inherits, "{}", s.name);
        assert_eq!(d.class_type, s.class_type, "{}", s.name);
        assert_eq!(d.parent, s.parent, "{}", s.name);
        assert_eq!(d.functional_interface, s.functional_interface, "{}", s.name);
        for i in s.implements.iter().flatten() {
            assert!(
                d.implements.iter().flatten().any(|j| j == i),
                "{}: {i}",
                s.name
            );
        }
        for m in s.methods() {
            let want = to_json(m);
            let found = d.methods().iter().map(to_json).any(|g| {
                // the samples predate is_abstract/is_varargs
                let mut g = g;
                let o = g.as_object_mut().unwrap();
                for k in ["is_abstract", "is_varargs"] {
                    if !want.as_object().unwrap().contains_key(k) {
                        o.remove(k);
                    }
                }
                g == want
            });
            assert!(found, "{}: {want}", s.name);
            compared += 1;
        }
        for f in s.fields() {
            let want = to_json(f);
            assert!(
                d.fields().iter().map(to_json).any(|g| g == want),
                "{}: {want}",
                s.name
            );
        }
    }
    eprintln!("{compared} sample methods agree");
}

#[test]
fn a_context_supplies_supertypes_without_emitting_them() {
    let Some((jar, _)) = fixture_jar() else {
        return;
    };
    let Some(home) = find_java_home() else { return };
    let Ok((pool, problems)) = ClassPool::jdk(&home, &["java.base"]) else {
        eprintln!("SKIP: cannot read java.base of {}", home.display());
        return;
    };
    assert!(problems.is_empty());
    assert!(pool.get("java/util/function/Function").is_some());
    let x = extract_jar(
        jar,
        &ExtractOptions {
            context: Some(std::sync::Arc::new(pool)),
            ..ExtractOptions::default()
        },
    )
    .unwrap();
    assert_eq!(doc(&x, "p.StrFn").functional_interface, Some(true));
    assert!(x.docs.iter().all(|d| d.name.starts_with("p.")));
    assert_eq!(x.docs.len(), fixture().unwrap().docs.len());
}

/// JDK 17 ships both jmods and a runtime image: the two readers must agree.
#[test]
fn runtime_image_agrees_with_jmods() {
    let Some(home) = find_java_home() else { return };
    let image = home.join("lib/modules");
    if !home.join("jmods").is_dir() || !image.is_file() {
        eprintln!("SKIP: {} lacks jmods or lib/modules", home.display());
        return;
    }
    let start = Instant::now();
    let archive = read_jimage(&image, &["java.base"]).unwrap();
    let from_image = extract_archives(&[archive], &ExtractOptions::default());
    eprintln!("java.base from lib/modules: {:?}", start.elapsed());
    let Some((from_jmod, _)) = java_base() else {
        return;
    };
    assert!(
        from_image.problems.is_empty(),
        "{:?}",
        from_image.problems.first()
    );
    assert_eq!(from_image.docs.len(), from_jmod.docs.len());
    assert!(from_image.docs == from_jmod.docs);
}

#[test]
fn ct_sym_gives_an_earlier_release() {
    let Some(home) = find_java_home() else { return };
    if !home.join("lib/ct.sym").is_file() {
        eprintln!("SKIP: no ct.sym in {}", home.display());
        return;
    }
    let x = &extract_ct_sym(&home, 11, &["java.base"], &ExtractOptions::default()).unwrap();
    assert!(x.problems.is_empty(), "{:?}", x.problems.first());
    let string = doc(x, "java.lang.String");
    assert!(
        !methods(string, "strip").is_empty(),
        "String.strip is in Java 11"
    );
    assert!(
        methods(string, "stripIndent").is_empty(),
        "String.stripIndent came in Java 15"
    );
    assert!(
        x.docs.iter().all(|d| d.name != "java.lang.Record"),
        "records came in Java 16"
    );
    let sb = doc(x, "java.lang.StringBuilder");
    assert_eq!(
        methods(sb, "length"),
        [method("length", &[], &[], Some("int"), json!({}))]
    );
}
