//! The Kotlin view from `kotlin.Metadata` (`thalia extract --view kotlin`, `thalia fetch`'s
//! auto view), end to end with real parts: Kotlin sources compiled in the test by the
//! installed kotlinc (`thalia toolchain exec kotlin`), the JetBrains decoder run by the JVM
//! helper, and the result loaded by `thalia api stats`.
//!
//! kotlinc must be installed (`thalia toolchain install kotlin`) and the decoder
//! (`kotlin-metadata-jvm`) resolvable through the user's Maven configuration (it is cached
//! after the first run); without them the tests print why and skip, unless
//! `THALIA_REQUIRE_TOOLS=1`. The `online_` test fetches `kotlin-stdlib` itself.

use crate::support::require;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::Value;

const SOURCE: &str = r#"
package demo

typealias Name = String
typealias Mapper<T> = (T) -> String

class Box<out T>(val value: T) {
    fun get(): T = value
    fun <R> map(f: (T) -> R): Box<R> = Box(f(value))
    class Nested(val n: Int)
    inner class Inner { fun outer(): T = value }
    companion object {
        fun <T> of(x: T): Box<T> = Box(x)
        const val ZERO: Int = 0
    }
}

class Sink<in T> {
    fun put(x: T) {}
}

open class Shapes {
    fun find(name: String?): String? = name
    fun needs(name: String): Int = name.length
    fun greet(name: Name, times: Int = 1, loud: Boolean = false): String = name
    fun sum(vararg xs: Int): Int = xs.sum()
    fun all(vararg xs: String?): Int = xs.size
    operator fun plus(other: Shapes): Shapes = this
    infix fun with(other: Shapes): Shapes = this
    suspend fun load(id: Long): String = ""
    fun transform(f: (Int) -> String): String = f(1)
    fun build(block: String.() -> Unit) {}
    fun mapped(m: Mapper<Int>): String = m(1)
    fun suspending(f: suspend () -> Int) {}
    fun nullableFn(f: ((Int) -> Unit)?) {}
    protected fun prot(): Int = 0
    internal fun hidden(): Int = 0
    private fun priv(): Int = 0
    var mutable: Int = 0
    val names: List<String> = emptyList()
}

object Registry {
    fun register(key: String): Boolean = true
    val size: Int get() = 0
}

enum class Color { RED, GREEN }

interface Shape { fun area(): Double }

internal class Secret { fun x() {} }

inline fun <reified T> typeName(): String = T::class.java.name
fun String.shout(): String = uppercase()
val String.lastChar: Char get() = this[length - 1]
val <T> List<T>.second: T get() = this[1]
fun top(x: Int, y: String? = null): Map<String, List<Int>> = emptyMap()
val topValue: Int = 3
var topVar: String = ""
internal fun internalTop() {}
fun arrays(a: Array<out Number>, b: IntArray): Array<String> = arrayOf()
fun <T : Comparable<T>> biggest(a: T, b: T): T = if (a > b) a else b
fun <T> both(x: T): T where T : CharSequence, T : Comparable<T> = x
"#;

const JAVA_SOURCE: &str = r#"
package demo;

public class JavaPart {
    public String name(int x) { return ""; }
}
"#;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// The classes of [`SOURCE`] (and [`JAVA_SOURCE`], a mixed jar), compiled once per test
/// binary; `None` when kotlinc or javac is missing (the reason printed).
fn compiled() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = tempfile::tempdir().expect("tempdir").keep();
        let classes = kotlinc(&root, "Demo.kt", SOURCE)?;
        let java = root.join("JavaPart.java");
        std::fs::write(&java, JAVA_SOURCE).expect("write");
        match std::process::Command::new("javac")
            .arg("-d")
            .arg(&classes)
            .arg(&java)
            .output()
        {
            Ok(o) if o.status.success() => {}
            other => {
                require::missing_tool("kotlin_metadata", &format!("javac failed: {other:?}"));
                return None;
            }
        }
        Some(classes)
    })
    .as_deref()
}

/// Compiles `source` (as `file` in `root`) with the installed kotlinc into `root/classes`;
/// `None` when kotlinc did not run (the reason printed).
fn kotlinc(root: &Path, file: &str, source: &str) -> Option<PathBuf> {
    let src = root.join(file);
    std::fs::write(&src, source).expect("write");
    let classes = root.join("classes");
    let out = thalia()
        .args(["toolchain", "exec", "kotlin", "--", "-d"])
        .arg(&classes)
        .arg(&src)
        .output()
        .expect("thalia runs");
    if !out.status.success() {
        require::missing_tool(
            "kotlin_metadata",
            &format!(
                "kotlinc did not run (install it with `thalia toolchain install kotlin`): {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        );
        return None;
    }
    Some(classes)
}

/// Runs `thalia extract ARGS -o OUT`; returns (success, stderr).
fn extract(args: &[&str], inputs: &[&Path], out: &Path) -> (bool, String) {
    let o = thalia()
        .arg("extract")
        .args(args)
        .args(inputs)
        .arg("-o")
        .arg(out)
        .output()
        .expect("thalia runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The documents of an API directory by name.
fn docs(dir: &Path) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("read_dir") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "json") && p.file_name().unwrap() != "fetch.json" {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
            out.insert(v["name"].as_str().expect("name").to_string(), v);
        }
    }
    out
}

/// `NAME(PARAMS): RET` of a method, with its receiver and type parameters:
/// `<T> R.name(A, B): C`.
fn method_sig(m: &Value) -> String {
    let tps: Vec<&str> = m["type_parameters"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let params: Vec<&str> = m["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut s = String::new();
    if !tps.is_empty() {
        s.push_str(&format!("<{}> ", tps.join(", ")));
    }
    if let Some(r) = m["receiver"].as_str() {
        s.push_str(r);
        s.push('.');
    }
    s.push_str(m["name"].as_str().expect("name"));
    s.push_str(&format!("({})", params.join(", ")));
    if let Some(r) = m["return_type"].as_str() {
        s.push_str(": ");
        s.push_str(r);
    }
    s
}

/// `[<T> ][R.]name: TYPE` (`var` when not final) of a field.
fn field_sig(f: &Value) -> String {
    let tps: Vec<&str> = f["type_parameters"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut s = String::new();
    s.push_str(if f["is_final"] == Value::Bool(true) {
        "val "
    } else {
        "var "
    });
    if !tps.is_empty() {
        s.push_str(&format!("<{}> ", tps.join(", ")));
    }
    if let Some(r) = f["receiver"].as_str() {
        s.push_str(r);
        s.push('.');
    }
    s.push_str(f["name"].as_str().expect("name"));
    s.push_str(": ");
    s.push_str(f["type"].as_str().expect("type"));
    s
}

fn methods(doc: &Value) -> Vec<String> {
    doc["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .map(method_sig)
        .collect()
}

fn fields(doc: &Value) -> Vec<String> {
    doc["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .map(field_sig)
        .collect()
}

fn method<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no method {name} in {}", doc["name"]))
}

/// `thalia api stats DIR`'s summary line; asserts that nothing was skipped.
fn assert_loads(dir: &Path) -> String {
    let o = thalia()
        .args(["api", "stats"])
        .arg(dir)
        .output()
        .expect("thalia runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "api stats failed:\n{text}");
    let line = text
        .lines()
        .find(|l| l.contains("loaded "))
        .unwrap_or_else(|| panic!("no summary line:\n{text}"))
        .to_string();
    assert!(line.contains("nothing skipped"), "{line}");
    line
}

#[test]
fn kotlin_view_of_a_compiled_jar_member_by_member() {
    let Some(classes) = compiled() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("api");
    let (ok, stderr) = extract(&["--view", "kotlin"], &[classes], &out);
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    let d = docs(&out);
    let names: Vec<&str> = d.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "demo",
            "demo.Box",
            "demo.Box.Companion",
            "demo.Box.Inner",
            "demo.Box.Nested",
            "demo.Color",
            "demo.JavaPart",
            "demo.Registry",
            "demo.Shape",
            "demo.Shapes",
            "demo.Sink",
        ],
        "internal classes, file facades (DemoKt) and synthetic classes are left out"
    );
    for (n, doc) in &d {
        let lang = if n == "demo.JavaPart" {
            "java"
        } else {
            "kotlin"
        };
        assert_eq!(doc["language"], lang, "{n}");
    }

    // a class with an `out` parameter, a nested, an inner class and a companion
    let bx = &d["demo.Box"];
    assert_eq!(bx["type_parameters"], serde_json::json!(["out T"]));
    assert_eq!(bx["class_type"], 0);
    assert_eq!(bx["kotlin_kind"], "class");
    assert_eq!(bx["companion"], "Companion");
    assert_eq!(
        methods(bx),
        ["Box(T)", "get(): T", "<R> map((T) -> R): demo.Box<R>"]
    );
    assert_eq!(fields(bx), ["val value: T"]);
    let comp = &d["demo.Box.Companion"];
    assert_eq!(comp["kotlin_kind"], "companion");
    assert_eq!(comp["parent"], "demo.Box");
    assert_eq!(methods(comp), ["<T> of(T): demo.Box<T>"]);
    assert_eq!(fields(comp), ["val ZERO: kotlin.Int"]);
    assert_eq!(comp["fields"][0]["other_metadata"]["is_const"], true);
    let nested = &d["demo.Box.Nested"];
    assert_eq!(nested["parent"], "demo.Box");
    assert_eq!(methods(nested), ["Nested(kotlin.Int)"]);
    let inner = &d["demo.Box.Inner"];
    assert_eq!(inner["is_inner"], true);
    assert_eq!(
        methods(inner),
        ["Inner()", "outer(): T"],
        "an inner class's members see the outer class's type parameters"
    );

    let sink = &d["demo.Sink"];
    assert_eq!(sink["type_parameters"], serde_json::json!(["in T"]));
    assert_eq!(methods(sink), ["Sink()", "put(T): kotlin.Unit"]);

    // members with nullability, defaults, varargs, operators, suspend, function types
    let sh = &d["demo.Shapes"];
    assert_eq!(
        methods(sh),
        [
            "Shapes()",
            "find(kotlin.String?): kotlin.String?",
            "needs(kotlin.String): kotlin.Int",
            "greet(kotlin.String, kotlin.Int, kotlin.Boolean): kotlin.String",
            "sum(vararg kotlin.Int): kotlin.Int",
            "all(vararg kotlin.String?): kotlin.Int",
            "plus(demo.Shapes): demo.Shapes",
            "with(demo.Shapes): demo.Shapes",
            "load(kotlin.Long): kotlin.String",
            "transform((kotlin.Int) -> kotlin.String): kotlin.String",
            "build(kotlin.String.() -> kotlin.Unit): kotlin.Unit",
            "mapped((kotlin.Int) -> kotlin.String): kotlin.String",
            "suspending(suspend () -> kotlin.Int): kotlin.Unit",
            "nullableFn(((kotlin.Int) -> kotlin.Unit)?): kotlin.Unit",
            "prot(): kotlin.Int",
        ],
        "internal and private members are left out; aliases are expanded"
    );
    assert_eq!(
        fields(sh),
        [
            "var mutable: kotlin.Int",
            "val names: kotlin.collections.List<kotlin.String>"
        ]
    );
    let greet = method(sh, "greet");
    assert_eq!(
        greet["other_metadata"]["defaults"],
        serde_json::json!([1, 2])
    );
    assert_eq!(
        greet["other_metadata"]["parameter_names"],
        serde_json::json!(["name", "times", "loud"])
    );
    assert_eq!(
        method(sh, "needs")["other_metadata"]["defaults"],
        serde_json::json!([])
    );
    assert_eq!(method(sh, "plus")["other_metadata"]["is_operator"], true);
    assert_eq!(method(sh, "plus")["other_metadata"]["is_infix"], false);
    assert_eq!(method(sh, "with")["other_metadata"]["is_infix"], true);
    assert_eq!(method(sh, "load")["other_metadata"]["is_suspend"], true);
    assert_eq!(method(sh, "find")["other_metadata"]["is_suspend"], false);
    assert_eq!(method(sh, "prot")["access_mod"], "protected");
    assert_eq!(method(sh, "find")["access_mod"], "public");
    assert_eq!(sh["class_type"], 0);

    let reg = &d["demo.Registry"];
    assert_eq!(reg["kotlin_kind"], "object");
    assert_eq!(methods(reg), ["register(kotlin.String): kotlin.Boolean"]);
    assert_eq!(fields(reg), ["val size: kotlin.Int"]);

    let color = &d["demo.Color"];
    assert_eq!(color["class_type"], 3);
    assert_eq!(
        fields(color),
        [
            "val RED: demo.Color",
            "val GREEN: demo.Color",
            "val entries: kotlin.enums.EnumEntries<demo.Color>"
        ]
    );
    assert_eq!(color["fields"][0]["is_enum_constant"], true);
    assert_eq!(color["fields"][0]["is_static"], true);
    assert_eq!(color["fields"][2]["is_static"], true);
    assert_eq!(
        methods(color),
        [
            "values(): kotlin.Array<demo.Color>",
            "valueOf(kotlin.String): demo.Color"
        ],
        "what the compiler synthesizes for an enum"
    );
    assert_eq!(color["methods"][0]["is_static"], true);
    assert_eq!(
        color["inherits"],
        serde_json::json!(["kotlin.Enum<demo.Color>"])
    );

    let shape = &d["demo.Shape"];
    assert_eq!(shape["class_type"], 1);
    assert_eq!(methods(shape), ["area(): kotlin.Double"]);
    assert_eq!(shape["methods"][0]["is_abstract"], true);

    // the package's top-level members: extensions, reified, bounds, aliases
    let pkg = &d["demo"];
    assert_eq!(pkg["is_class"], false);
    assert_eq!(
        methods(pkg),
        [
            "<reified T> typeName(): kotlin.String",
            "kotlin.String.shout(): kotlin.String",
            "top(kotlin.Int, kotlin.String?): kotlin.collections.Map<kotlin.String, kotlin.collections.List<kotlin.Int>>",
            "arrays(kotlin.Array<out kotlin.Number>, kotlin.IntArray): kotlin.Array<kotlin.String>",
            "<T : kotlin.Comparable<T>> biggest(T, T): T",
            "<T : kotlin.CharSequence> both(T): T",
        ]
    );
    assert_eq!(method(pkg, "typeName")["other_metadata"]["is_inline"], true);
    assert_eq!(
        method(pkg, "top")["other_metadata"]["defaults"],
        serde_json::json!([1])
    );
    assert_eq!(
        method(pkg, "both")["other_metadata"]["upper_bounds"],
        serde_json::json!({"T": ["kotlin.CharSequence", "kotlin.Comparable<T>"]}),
        "bounds past the first are recorded"
    );
    assert_eq!(
        fields(pkg),
        [
            "val kotlin.String.lastChar: kotlin.Char",
            "val <T> kotlin.collections.List<T>.second: T",
            "val topValue: kotlin.Int",
            "var topVar: kotlin.String",
        ]
    );
    assert_eq!(
        pkg["type_aliases"],
        serde_json::json!([
            {"name": "demo.Name", "type_parameters": [], "type": "kotlin.String",
             "underlying": "kotlin.String", "access_mod": "public"},
            {"name": "demo.Mapper", "type_parameters": ["T"], "type": "(T) -> kotlin.String",
             "underlying": "(T) -> kotlin.String", "access_mod": "public"},
        ])
    );

    // the Java class of the mixed jar keeps its Java view
    let jp = &d["demo.JavaPart"];
    assert_eq!(methods(jp), ["JavaPart()", "name(int): java.lang.String"]);

    let line = assert_loads(&out);
    assert!(line.contains("loaded 11 classes"), "{line}");
}

#[test]
fn auto_view_picks_kotlin_for_kotlin_classes_and_java_overrides_it() {
    let Some(classes) = compiled() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let auto = tmp.path().join("auto");
    let (ok, stderr) = extract(&[], &[classes], &auto);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("kotlin view:"), "{stderr}");
    assert_eq!(docs(&auto)["demo.Box"]["language"], "kotlin");
    let java = tmp.path().join("java");
    let (ok, stderr) = extract(&["--view", "java"], &[classes], &java);
    assert!(ok, "{stderr}");
    let d = docs(&java);
    assert_eq!(d["demo.Box"]["language"], "java");
    assert!(
        d.contains_key("demo.DemoKt"),
        "the Java view keeps file facades"
    );
    assert!(!d.contains_key("demo"));
}

/// A minimal public class `demo/NAME` annotated `kotlin.Metadata` with these values.
fn class_with_metadata(name: &str, k: i32, mv: [i32; 3], d1: &str) -> Vec<u8> {
    fn utf8(cp: &mut Vec<u8>, s: &str) {
        cp.push(1);
        cp.extend((s.len() as u16).to_be_bytes());
        cp.extend(s.as_bytes());
    }
    fn int(cp: &mut Vec<u8>, v: i32) {
        cp.push(3);
        cp.extend(v.to_be_bytes());
    }
    let mut cp = Vec::new();
    utf8(&mut cp, &format!("demo/{name}")); // 1
    cp.extend([7, 0, 1]); // 2 Class #1
    utf8(&mut cp, "java/lang/Object"); // 3
    cp.extend([7, 0, 3]); // 4 Class #3
    utf8(&mut cp, "RuntimeVisibleAnnotations"); // 5
    utf8(&mut cp, "Lkotlin/Metadata;"); // 6
    utf8(&mut cp, "k"); // 7
    int(&mut cp, k); // 8
    utf8(&mut cp, "mv"); // 9
    int(&mut cp, mv[0]); // 10
    int(&mut cp, mv[1]); // 11
    int(&mut cp, mv[2]); // 12
    utf8(&mut cp, "d1"); // 13
    utf8(&mut cp, d1); // 14
    utf8(&mut cp, "d2"); // 15
    utf8(&mut cp, "x"); // 16
    let mut ann = Vec::new();
    ann.extend(1u16.to_be_bytes()); // one annotation
    ann.extend(6u16.to_be_bytes());
    ann.extend(4u16.to_be_bytes()); // four pairs
    ann.extend(7u16.to_be_bytes());
    ann.push(b'I');
    ann.extend(8u16.to_be_bytes());
    ann.extend(9u16.to_be_bytes());
    ann.push(b'[');
    ann.extend(3u16.to_be_bytes());
    for i in [10u16, 11, 12] {
        ann.push(b'I');
        ann.extend(i.to_be_bytes());
    }
    ann.extend(13u16.to_be_bytes());
    ann.push(b'[');
    ann.extend(1u16.to_be_bytes());
    ann.push(b's');
    ann.extend(14u16.to_be_bytes());
    ann.extend(15u16.to_be_bytes());
    ann.push(b'[');
    ann.extend(1u16.to_be_bytes());
    ann.push(b's');
    ann.extend(16u16.to_be_bytes());
    let mut b = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52];
    b.extend(17u16.to_be_bytes());
    b.extend(cp);
    b.extend(0x0021u16.to_be_bytes()); // public super
    b.extend(2u16.to_be_bytes());
    b.extend(4u16.to_be_bytes());
    b.extend([0, 0, 0, 0, 0, 0]); // interfaces, fields, methods
    b.extend(1u16.to_be_bytes());
    b.extend(5u16.to_be_bytes());
    b.extend((ann.len() as u32).to_be_bytes());
    b.extend(ann);
    b
}

#[test]
fn malformed_metadata_is_a_warning_naming_the_class_and_extraction_goes_on() {
    let Some(classes) = compiled() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("classes");
    std::fs::create_dir_all(dir.join("demo")).expect("mkdir");
    for e in std::fs::read_dir(classes.join("demo")).expect("read_dir") {
        let p = e.expect("entry").path();
        std::fs::copy(&p, dir.join("demo").join(p.file_name().unwrap())).expect("copy");
    }
    // garbage `d1`, an unknown kind, and a metadata version from the future with garbage
    std::fs::write(
        dir.join("demo/Broken.class"),
        class_with_metadata(
            "Broken",
            1,
            [2, 4, 0],
            "\u{1}\u{2}this is not a protobuf message",
        ),
    )
    .expect("write");
    std::fs::write(
        dir.join("demo/Odd.class"),
        class_with_metadata("Odd", 99, [2, 4, 0], "x"),
    )
    .expect("write");
    std::fs::write(
        dir.join("demo/Future.class"),
        class_with_metadata("Future", 1, [99, 0, 0], "\u{7}\u{7}\u{7}"),
    )
    .expect("write");
    let out = tmp.path().join("api");
    let (ok, stderr) = extract(&["--view", "kotlin"], &[&dir], &out);
    assert!(ok, "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning"))
        .collect();
    assert_eq!(warnings.len(), 3, "{stderr}");
    let broken = warnings
        .iter()
        .find(|l| l.contains("demo/Broken.class"))
        .unwrap_or_else(|| panic!("no warning names demo/Broken:\n{stderr}"));
    assert!(
        broken.contains("the decoder rejects its kotlin.Metadata"),
        "{broken}"
    );
    let odd = warnings
        .iter()
        .find(|l| l.contains("demo/Odd.class"))
        .unwrap_or_else(|| panic!("no warning names demo/Odd:\n{stderr}"));
    assert!(odd.contains("unknown kotlin.Metadata kind 99"), "{odd}");
    let future = warnings
        .iter()
        .find(|l| l.contains("demo/Future.class"))
        .unwrap_or_else(|| panic!("no warning names demo/Future:\n{stderr}"));
    assert!(future.contains("version 99.0.0"), "{future}");
    let d = docs(&out);
    // the rejected classes keep their Java view; the others are read as before
    assert_eq!(d["demo.Broken"]["language"], "java");
    assert_eq!(d["demo.Odd"]["language"], "java");
    assert_eq!(d["demo.Box"]["language"], "kotlin");
    assert_eq!(
        methods(&d["demo.Box"]),
        ["Box(T)", "get(): T", "<R> map((T) -> R): demo.Box<R>"]
    );
    assert_loads(&out);
}

#[test]
fn online_kotlin_stdlib_fetches_in_the_kotlin_view_with_known_signatures() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("stdlib");
    let o = thalia()
        .args(["fetch", "org.jetbrains.kotlin:kotlin-stdlib:2.4.21", "-o"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        require::missing_tool(
            "online_kotlin_stdlib",
            &format!("fetch failed (network or Maven configuration?): {stderr}"),
        );
        return;
    }
    assert!(!stderr.contains("warning"), "{stderr}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("fetch.json")).expect("fetch.json"))
            .expect("json");
    assert_eq!(record["view"], "kotlin");
    let d = docs(&out);
    let has = |doc: &str, sig: &str| {
        let ms = methods(&d[doc]);
        assert!(ms.iter().any(|m| m == sig), "{doc} lacks `{sig}`");
    };
    has(
        "kotlin.collections",
        "<T> kotlin.collections.Iterable<T>.first(): T",
    );
    has(
        "kotlin.collections",
        "<T> listOf(vararg T): kotlin.collections.List<T>",
    );
    has(
        "kotlin.collections",
        "<T> kotlin.collections.Iterable<T>.filter((T) -> kotlin.Boolean): kotlin.collections.List<T>",
    );
    has(
        "kotlin.collections",
        "<K, V> mapOf(vararg kotlin.Pair<K, V>): kotlin.collections.Map<K, V>",
    );
    has(
        "kotlin.text",
        "kotlin.String.padStart(kotlin.Int, kotlin.Char): kotlin.String",
    );
    has("kotlin", "<T, R> T.let((T) -> R): R");
    has("kotlin", "<T> T.apply(T.() -> kotlin.Unit): T");
    let pad = d["kotlin.text"]["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .find(|m| method_sig(m) == "kotlin.String.padStart(kotlin.Int, kotlin.Char): kotlin.String")
        .expect("padStart");
    assert_eq!(pad["other_metadata"]["defaults"], serde_json::json!([1]));
    // only the current `max` (hidden and removed overloads left out): one per receiver
    let maxes: Vec<String> = methods(&d["kotlin.collections"])
        .into_iter()
        .filter(|m| m.ends_with(".max(): kotlin.Double") || m.ends_with(".max(): kotlin.Double?"))
        .collect();
    assert_eq!(
        maxes,
        [
            "kotlin.Array<out kotlin.Double>.max(): kotlin.Double",
            "kotlin.DoubleArray.max(): kotlin.Double",
            "kotlin.collections.Iterable<kotlin.Double>.max(): kotlin.Double",
        ]
    );
    // builtin classes, from the jar's `.kotlin_builtins` files
    let list = &d["kotlin.collections.List"];
    assert_eq!(list["type_parameters"], serde_json::json!(["out E"]));
    assert_eq!(list["class_type"], 1);
    assert_eq!(
        list["implements"],
        serde_json::json!(["kotlin.collections.Collection<E>"])
    );
    assert!(methods(list).contains(&"get(kotlin.Int): E".to_string()));
    assert_eq!(fields(list), ["val size: kotlin.Int"]);
    assert_eq!(list["fields"][0]["is_override"], true);
    assert!(fields(&d["kotlin.String"]).contains(&"val length: kotlin.Int".to_string()));
    has("kotlin.Int", "plus(kotlin.Int): kotlin.Int");
    has("kotlin.Any", "toString(): kotlin.String");
    assert_eq!(
        d["kotlin.Pair"]["type_parameters"],
        serde_json::json!(["out A", "out B"])
    );
    assert_eq!(fields(&d["kotlin.Pair"]), ["val first: A", "val second: B"]);
    let line = assert_loads(&out);
    println!("{line}");
    // the loader's warnings: only supertypes outside the jar, the JDK's classes and one
    // internal interface (`FlagEnum`, which `RegexOption` implements)
    let o = thalia()
        .args(["api", "check"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    for l in text.lines().filter(|l| !l.contains(": loaded ")) {
        let allowed = l.contains("is not defined in this API")
            && (l.contains("supertype `java.") || l.contains("supertype `kotlin.text.FlagEnum`"));
        assert!(allowed, "unexpected loader warning: {l}");
    }
}

#[test]
fn online_kotlinx_coroutines_fetches_kotlin_typed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("coroutines");
    let o = thalia()
        .args([
            "fetch",
            "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:1.10.2",
            "-o",
        ])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        require::missing_tool(
            "online_kotlinx_coroutines",
            &format!("fetch failed (network or Maven configuration?): {stderr}"),
        );
        return;
    }
    assert!(stderr.contains("view: kotlin"), "{stderr}");
    let d = docs(&out);
    let launch = d["kotlinx.coroutines"]["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .find(|m| m["name"] == "launch")
        .expect("launch");
    assert_eq!(
        method_sig(launch),
        "kotlinx.coroutines.CoroutineScope.launch(kotlin.coroutines.CoroutineContext, \
         kotlinx.coroutines.CoroutineStart, suspend kotlinx.coroutines.CoroutineScope.() -> \
         kotlin.Unit): kotlinx.coroutines.Job"
    );
    assert_eq!(
        launch["other_metadata"]["defaults"],
        serde_json::json!([0, 1])
    );
    let job = &d["kotlinx.coroutines.Job"];
    assert_eq!(job["class_type"], 1);
    assert!(methods(job).contains(&"join(): kotlin.Unit".to_string()));
    let join = method(job, "join");
    assert_eq!(join["other_metadata"]["is_suspend"], true);
    assert_loads(&out);
}

/// A library whose members need the standard library's opt-in markers.
const MARKED: &str = r#"
package lab

class Lab {
    @ExperimentalStdlibApi fun trial(): Int = 1
    fun plain(): Int = 2
}

@ExperimentalStdlibApi class Trial
"#;

#[test]
fn members_marked_with_the_standard_librarys_opt_in_markers_need_them() {
    let root = tempfile::tempdir().expect("tempdir");
    let Some(classes) = kotlinc(root.path(), "Lab.kt", MARKED) else {
        return;
    };
    let api = root.path().join("api");
    let (ok, stderr) = extract(&["--view", "kotlin"], &[&classes], &api);
    assert!(ok, "{stderr}");
    let d = docs(&api);
    // `kotlin.ExperimentalStdlibApi` is no input: the helper finds it on kotlin-stdlib
    let marker = serde_json::json!(["kotlin.ExperimentalStdlibApi"]);
    assert_eq!(d["lab.Trial"]["opt_in"], marker, "{}", d["lab.Trial"]);
    let lab = &d["lab.Lab"];
    assert_eq!(
        method(lab, "trial")["other_metadata"]["opt_in"],
        marker,
        "{lab}"
    );
    assert_eq!(
        method(lab, "plain")["other_metadata"].get("opt_in"),
        None,
        "{lab}"
    );
}
