//! The Scala view of compiled Scala libraries (`thalia extract --view scala`, auto), end to
//! end with real parts: Scala 3 and Scala 2.13 sources compiled in the test by the installed
//! compilers (`thalia toolchain exec scala3` / `scala2`), the signature helper run on the
//! Scala 3 compiler, and the result loaded by `thalia api stats`.
//!
//! scala3@3.9.0 and scala2@2.13.18 must be installed (`thalia toolchain install`), and the
//! compiler resolvable through the user's Maven configuration (cached after the first run);
//! without them the tests print why and skip, unless `THALIA_REQUIRE_TOOLS=1`. The
//! `online_` test fetches `scala-library` itself.

use crate::support::require;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;
use serde_json::Value;

const SCALA3: &str = r#"
package demo

class Box[+A](val value: A):
  def map[B](f: A => B): Box[B] = Box(f(value))
  def getOrElse[B >: A](default: => B): B = value
  def fold[B](ifEmpty: => B)(f: A => B): B = f(value)
  def pair[B](b: B): (A, B) = (value, b)
  protected def secret: Int = 1
  private def hidden: Int = 2

object Box:
  def of[A](a: A): Box[A] = new Box(a)
  val empty: Box[Nothing] = null

trait Shape:
  def area: Double
  def scaled(k: Double): Shape

trait Tagged extends Any:
  def tag: Int

abstract class Base(val id: Int):
  def name(): String
  var counter: Int = 0

case class Point(x: Int, y: Int = 0):
  def plus(o: Point): Point = Point(x + o.x, y + o.y)

enum Color:
  case Red, Green

trait Functor[F[_]]:
  def fmap[A, B](fa: F[A])(f: A => B): F[B]
  def narrow[G[-_], H[+_ <: AnyRef], S[X] <: Seq[X]](g: G[Int]): G[Int] = g

class Sink[-T]:
  def put(t: T): Unit = ()

object Lone:
  def sum(xs: Int*): Int = xs.sum
  def sorted[T: Ordering](xs: List[T]): List[T] = xs.sorted
  def show[T](x: T)(using s: Ordering[T]): String = x.toString
  def imp(x: Int)(implicit n: Numeric[Int]): Int = x
  def bounded[T <: AnyVal](t: T): T = t
  def refOnly[T <: AnyRef](t: T): T = t
  def wild(xs: List[? <: Number]): Int = 0
  def fn(f: (Int, String) => Boolean): Map[String, (Int, Long)] = Map.empty
  def greet(name: String, times: Int = 1): String = name
  @deprecated("use sum", "1.0") def old(x: Int): Int = x
  def refined(o: Ordering[Int] { def extra: Int }): Ordering[Int] { def extra: Int } = o
  extension (s: String)
    def shout: String = s.toUpperCase
    def times(n: Int): String = s * n
  extension [T](xs: List[T]) def second: T = xs(1)

def topLevel(x: Int): Int = x

class Lab:
  @scala.annotation.experimental def trial(x: Int): Int = x
  def plain(x: Int): Int = x

@scala.annotation.experimental class Trial
"#;

const SCALA2: &str = r#"
package old

class Stack[+A](val items: List[A]) {
  def push[B >: A](b: B): Stack[B] = new Stack(b :: items)
  def foldLeft[B](z: B)(op: (B, A) => B): B = items.foldLeft(z)(op)
  var size: Int = 0
  @deprecated("no", "1") def top: A = items.head
}
object Stack {
  def empty[A]: Stack[A] = new Stack(Nil)
  def of[A](xs: A*): Stack[A] = new Stack(xs.toList)
}
trait Show[T] { def show(t: T): String }
abstract class Shape { def area: Double }
"#;

const JAVA: &str = r#"
package demo;

public class JavaPart {
    public String name(int x) { return ""; }
}
"#;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

/// Compiles `source` (file name `file`) with `thalia toolchain exec SPEC`; `None` (reason
/// printed) when the compiler is missing.
fn compile(spec: &str, file: &str, source: &str) -> Option<PathBuf> {
    let root = tempfile::tempdir().expect("tempdir").keep();
    let src = root.join(file);
    std::fs::write(&src, source).expect("write");
    let classes = root.join("classes");
    std::fs::create_dir_all(&classes).expect("mkdir");
    let mut args = vec!["toolchain", "exec", spec, "--"];
    if spec.starts_with("scala2") {
        args.push("-usejavacp");
    }
    let out = thalia()
        .args(&args)
        .arg("-d")
        .arg(&classes)
        .arg(&src)
        .output()
        .expect("thalia runs");
    if !out.status.success() {
        require::missing_tool(
            "scala_view",
            &format!(
                "{spec} did not run (install it with `thalia toolchain install {spec}`): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        );
        return None;
    }
    Some(classes)
}

/// [`SCALA3`] and [`JAVA`] compiled once per test binary.
fn scala3_classes() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let classes = compile("scala3@3.9.0", "Demo.scala", SCALA3)?;
        let java = classes.parent().expect("parent").join("JavaPart.java");
        std::fs::write(&java, JAVA).expect("write");
        match std::process::Command::new("javac")
            .arg("-d")
            .arg(&classes)
            .arg(&java)
            .output()
        {
            Ok(o) if o.status.success() => Some(classes),
            other => {
                require::missing_tool("scala_view", &format!("javac failed: {other:?}"));
                None
            }
        }
    })
    .as_deref()
}

/// Runs `thalia extract ARGS INPUTS -o OUT`; returns (success, stderr).
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
        if p.extension().is_some_and(|x| x == "json") && !p.ends_with("fetch.json") {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
            out.insert(v["name"].as_str().expect("name").to_string(), v);
        }
    }
    out
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `[static ][<T> ][R.]name(A, B): C` of a method.
fn method_sig(m: &Value) -> String {
    let mut s = String::new();
    if m["is_static"] == true {
        s.push_str("static ");
    }
    let tps = strs(&m["type_parameters"]);
    if !tps.is_empty() {
        s.push_str(&format!("<{}> ", tps.join(", ")));
    }
    if let Some(r) = m["receiver"].as_str() {
        s.push_str(r);
        s.push('.');
    }
    s.push_str(m["name"].as_str().expect("name"));
    s.push_str(&format!("({})", strs(&m["parameters"]).join(", ")));
    if let Some(r) = m["return_type"].as_str() {
        s.push_str(": ");
        s.push_str(r);
    }
    s
}

/// `[static ]val|var name: T` of a field.
fn field_sig(f: &Value) -> String {
    format!(
        "{}{} {}: {}",
        if f["is_static"] == true {
            "static "
        } else {
            ""
        },
        if f["is_var"] == true { "var" } else { "val" },
        f["name"].as_str().expect("name"),
        f["type"].as_str().expect("type")
    )
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

/// `thalia api stats DIR`'s output (it must succeed).
fn load(dir: &Path) -> String {
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
    text
}

/// The Scala view of [`SCALA3`], extracted once per test binary.
fn scala3_view() -> Option<&'static (PathBuf, String)> {
    static OUT: OnceLock<Option<(PathBuf, String)>> = OnceLock::new();
    OUT.get_or_init(|| {
        let classes = scala3_classes()?;
        let out = tempfile::tempdir().expect("tempdir").keep().join("api");
        let (ok, stderr) = extract(&["--view", "scala"], &[classes], &out);
        if !ok && stderr.contains("cannot get org.scala-lang:scala3-compiler_3") {
            require::missing_tool("scala_view", &stderr);
            return None;
        }
        assert!(ok, "{stderr}");
        Some((out, stderr))
    })
    .as_ref()
}

#[test]
fn scala3_classes_member_by_member() {
    let Some((out, stderr)) = scala3_view() else {
        return;
    };
    assert!(stderr.contains("scala view:"), "{stderr}");
    let d = docs(out);
    let names: Vec<&str> = d.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "demo",
            "demo.Base",
            "demo.Box",
            "demo.Color",
            "demo.Functor",
            "demo.JavaPart",
            "demo.Lab",
            "demo.Lone",
            "demo.Point",
            "demo.Shape",
            "demo.Sink",
            "demo.Tagged",
            "demo.Trial"
        ]
    );
    // Scala 3's `@experimental`, on a class and on a member
    assert_eq!(d["demo.Trial"]["experimental"], true, "{}", d["demo.Trial"]);
    assert_eq!(d["demo.Lab"].get("experimental"), None, "{}", d["demo.Lab"]);
    assert_eq!(method(&d["demo.Lab"], "trial")["experimental"], true);
    assert_eq!(method(&d["demo.Lab"], "plain").get("experimental"), None);
    for (n, doc) in &d {
        let lang = if n == "demo.JavaPart" {
            "java"
        } else {
            "scala"
        };
        assert_eq!(doc["language"], lang, "{n}");
    }

    // class + companion object: variance, by-name, curried lists, tuples, protected
    let bx = &d["demo.Box"];
    assert_eq!(strs(&bx["type_parameters"]), ["+A"]);
    assert_eq!(bx["class_type"], 0);
    assert!(bx.get("scala_object").is_none());
    assert_eq!(
        methods(bx),
        [
            "Box(A)",
            "<B> map((A) => B): demo.Box[B]",
            "<B >: A> getOrElse(=> B): B",
            "<B> fold(=> B): ((A) => B) => B",
            "<B> pair(B): (A, B)",
            "static <A> of(A): demo.Box[A]",
        ]
    );
    assert_eq!(
        fields(bx),
        [
            "val value: A",
            "val secret: scala.Int",
            "static val empty: demo.Box[scala.Nothing]"
        ]
    );
    let secret = bx["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .find(|f| f["name"] == "secret")
        .expect("secret");
    assert_eq!(secret["access_mod"], "protected");
    assert_eq!(
        strs(&method(bx, "map")["parameter_names"]),
        ["f"],
        "parameter names"
    );

    // trait, abstract class (no constructor), var, higher-kinded parameter
    let shape = &d["demo.Shape"];
    assert_eq!(shape["class_type"], 1);
    assert_eq!(methods(shape), ["scaled(scala.Double): demo.Shape"]);
    assert_eq!(fields(shape), ["val area: scala.Double"]);
    assert_eq!(method(shape, "scaled")["is_abstract"], true);
    // a universal trait says it extends `Any` (its values are no `Object`s); others do not
    let tagged = &d["demo.Tagged"];
    assert_eq!(tagged["class_type"], 1);
    assert_eq!(strs(&tagged["inherits"]), ["scala.Any"]);
    assert!(shape["inherits"]
        .as_array()
        .is_none_or(|a| a.iter().all(|s| s != "scala.Any")));
    let base = &d["demo.Base"];
    assert_eq!(base["class_type"], 2);
    assert_eq!(methods(base), ["name(): java.lang.String"]);
    assert_eq!(
        fields(base),
        ["val id: scala.Int", "var counter: scala.Int"]
    );
    let functor = &d["demo.Functor"];
    assert_eq!(strs(&functor["type_parameters"]), ["F[_]"]);
    // a constructor parameter's own parameters keep their variances and bounds
    assert_eq!(
        methods(functor),
        [
            "<A, B> fmap(F[A]): ((A) => B) => F[B]",
            "<G[-_], H[+_ <: java.lang.Object], S[X] <: scala.collection.immutable.Seq[X]> narrow(G[scala.Int]): G[scala.Int]"
        ]
    );
    assert_eq!(strs(&d["demo.Sink"]["type_parameters"]), ["-T"]);

    // case class (default argument), enum with its cases
    let point = &d["demo.Point"];
    assert_eq!(point["is_case"], true);
    assert_eq!(
        methods(point),
        [
            "Point(scala.Int, scala.Int)",
            "plus(demo.Point): demo.Point"
        ]
    );
    let color = &d["demo.Color"];
    assert_eq!(color["class_type"], 3);
    assert_eq!(
        fields(color),
        ["static val Red: demo.Color", "static val Green: demo.Color"]
    );

    // a lone object: varargs, context bounds, using/implicit lists, bounds, wildcards,
    // function and tuple types, default arguments, deprecation, extension methods
    let lone = &d["demo.Lone"];
    assert_eq!(lone["scala_object"], true);
    assert_eq!(
        methods(lone),
        [
            "static sum(scala.Int*): scala.Int",
            "static <T> sorted(scala.collection.immutable.List[T]): scala.collection.immutable.List[T]",
            "static <T> show(T): java.lang.String",
            "static imp(scala.Int): scala.Int",
            "static <T <: scala.AnyVal> bounded(T): T",
            "static <T <: java.lang.Object> refOnly(T): T",
            "static wild(scala.collection.immutable.List[_ <: java.lang.Number]): scala.Int",
            "static fn((scala.Int, java.lang.String) => scala.Boolean): scala.collection.immutable.Map[java.lang.String, (scala.Int, scala.Long)]",
            "static greet(java.lang.String, scala.Int): java.lang.String",
            "static old(scala.Int): scala.Int",
            // a refinement is kept where it narrows a parameter (the member is then skipped
            // as unparsable) and dropped from a result
            "static refined(scala.math.Ordering[scala.Int] { … }): scala.math.Ordering[scala.Int]",
            "static java.lang.String.shout(): java.lang.String",
            "static java.lang.String.times(scala.Int): java.lang.String",
            "static <T> scala.collection.immutable.List[T].second(): T",
        ]
    );
    assert_eq!(method(lone, "sum")["is_varargs"], true);
    assert_eq!(
        strs(&method(lone, "sorted")["implicit_parameters"]),
        ["scala.math.Ordering[T]"]
    );
    assert_eq!(
        strs(&method(lone, "show")["implicit_parameters"]),
        ["scala.math.Ordering[T]"]
    );
    assert_eq!(
        strs(&method(lone, "imp")["implicit_parameters"]),
        ["scala.math.Numeric[scala.Int]"]
    );
    assert_eq!(
        strs(&method(lone, "greet")["parameter_names"]),
        ["name", "times"]
    );
    assert_eq!(method(lone, "old")["deprecated"], true);
    // a parameter with a default value, which a call may leave out
    assert_eq!(
        method(lone, "greet")["other_metadata"]["defaults"],
        serde_json::json!([1])
    );
    assert!(method(lone, "sum").get("deprecated").is_none());

    // top-level definitions: a document named after the package
    assert_eq!(
        methods(&d["demo"]),
        ["static topLevel(scala.Int): scala.Int"]
    );
}

#[test]
fn auto_view_picks_scala_and_the_result_loads() {
    let Some((scala_out, _)) = scala3_view() else {
        return;
    };
    let classes = scala3_classes().expect("compiled");
    let out = tempfile::tempdir().expect("tempdir");
    let (ok, stderr) = extract(&[], &[classes], out.path());
    assert!(ok, "{stderr}");
    assert!(stderr.contains("scala view:"), "{stderr}");
    assert_eq!(docs(out.path()), docs(scala_out), "auto = --view scala");
    let text = load(scala_out);
    // every class loads, the higher-kinded `Functor[F[_]]` too (its parameter is a type
    // constructor), and so do its members that apply it (`fmap(fa: F[A]): F[B]`)
    assert!(
        text.contains("loaded 13 classes"),
        "expected all classes to load:\n{text}"
    );
    assert!(!text.contains("of 13 files"), "no file skipped:\n{text}");
    // the one member skipped is the one whose parameter is refined (`Ordering[Int] { … }`)
    assert!(
        text.contains("skipped 1 of") && !text.contains("higher-kinded"),
        "the member applying `F` loads:\n{text}"
    );
    assert!(
        text.contains("{ … }"),
        "the refined parameter is named:\n{text}"
    );
}

#[test]
fn scala2_classes_member_by_member() {
    let Some(classes) = compile("scala2@2.13.18", "Old.scala", SCALA2) else {
        return;
    };
    let out = tempfile::tempdir().expect("tempdir");
    let (ok, stderr) = extract(&["--view", "scala"], &[&classes], out.path());
    if !ok && stderr.contains("cannot get org.scala-lang:scala3-compiler_3") {
        require::missing_tool("scala_view", &stderr);
        return;
    }
    assert!(ok, "{stderr}");
    let d = docs(out.path());
    let names: Vec<&str> = d.keys().map(String::as_str).collect();
    assert_eq!(names, ["old.Shape", "old.Show", "old.Stack"]);
    let stack = &d["old.Stack"];
    assert_eq!(stack["language"], "scala");
    assert_eq!(strs(&stack["type_parameters"]), ["+A"]);
    assert_eq!(
        methods(stack),
        [
            "Stack(scala.collection.immutable.List[A])",
            "<B >: A> push(B): old.Stack[B]",
            "<B> foldLeft(B): ((B, A) => B) => B",
            "static <A> empty(): old.Stack[A]",
            "static <A> of(A*): old.Stack[A]",
        ]
    );
    assert_eq!(
        fields(stack),
        [
            "val items: scala.collection.immutable.List[A]",
            "var size: scala.Int",
            "val top: A"
        ]
    );
    let top = stack["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .find(|f| f["name"] == "top")
        .expect("top");
    assert_eq!(top["deprecated"], true);
    assert_eq!(d["old.Show"]["class_type"], 1);
    assert_eq!(methods(&d["old.Show"]), ["show(T): java.lang.String"]);
    assert_eq!(d["old.Shape"]["class_type"], 2);
    let text = load(out.path());
    assert!(text.contains("loaded 3 classes"), "{text}");
    assert!(text.contains("nothing skipped"), "{text}");
}

#[test]
fn a_corrupt_tasty_file_keeps_the_java_view_of_its_class() {
    let Some(classes) = scala3_classes() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let copy = tmp.path().join("classes");
    let o = std::process::Command::new("cp")
        .arg("-r")
        .arg(classes)
        .arg(&copy)
        .output()
        .expect("cp");
    assert!(o.status.success());
    std::fs::write(copy.join("demo/Sink.tasty"), b"not a tasty file").expect("write");
    let out = tmp.path().join("api");
    let (ok, stderr) = extract(&["--view", "scala"], &[&copy], &out);
    if !ok && stderr.contains("cannot get org.scala-lang:scala3-compiler_3") {
        require::missing_tool("scala_view", &stderr);
        return;
    }
    assert!(ok, "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("warning:") && l.contains("demo.Sink") && l.contains("TASTy")),
        "{stderr}"
    );
    let d = docs(&out);
    assert_eq!(d["demo.Sink"]["language"], "java", "the Java view stays");
    assert_eq!(d["demo.Box"]["language"], "scala", "the others go on");
    assert_eq!(d["demo.Lone"]["language"], "scala");
}

#[test]
fn online_scala_library_fetch_writes_the_scala_view() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("scala");
    let o = thalia()
        .args(["fetch", "org.scala-lang:scala-library:2.13.18", "-o"])
        .arg(&out)
        .output()
        .expect("thalia runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        require::missing_tool(
            "online_scala_library",
            &format!("fetch failed (network or Maven configuration?): {stderr}"),
        );
        return;
    }
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("fetch.json")).expect("fetch.json"))
            .expect("json");
    assert_eq!(record["view"], "scala");
    let d = docs(&out);
    let option = &d["scala.Option"];
    assert_eq!(option["language"], "scala");
    assert_eq!(
        method_sig(method(option, "fold")),
        "<B> fold(=> B): ((A) => B) => B"
    );
    assert_eq!(
        method_sig(method(option, "apply")),
        "static <A> apply(A): scala.Option[A]"
    );
}

/// Scala objects and classes with symbolic names, as in `os-lib` (`os.package./`), compiled
/// by Scala 3.
const SYMBOLIC: &str = r#"
package object sym {
  object / { def apply(x: Int): Int = x }
  object % { def mod(a: Int, b: Int): Int = a % b }
}
package sym {
  class <+>(val n: Int) { def <+>(o: <+>): <+> = new <+>(n + o.n) }
}
"#;

/// Symbolic names that cannot be file names (`/`, `%`) are written under percent-encoded
/// file names, and the directory loads under the names themselves (issue 34: `thalia fetch`
/// of os-lib failed on `os.package./`).
#[test]
fn symbolic_names_are_written_under_encoded_file_names() {
    let Some(classes) = compile("scala3@3.9.0", "Sym.scala", SYMBOLIC) else {
        return;
    };
    let out = tempfile::tempdir().expect("tempdir").keep().join("api");
    let (ok, stderr) = extract(&["--view", "scala"], &[&classes], &out);
    if !ok && stderr.contains("cannot get org.scala-lang:scala3-compiler_3") {
        require::missing_tool("scala_view", &stderr);
        return;
    }
    assert!(ok, "{stderr}");
    let by_name = docs(&out);
    for (name, file) in [
        ("sym.package./", "sym.package.%2F.json"),
        ("sym.package.%", "sym.package.%25.json"),
        ("sym.<+>", "sym.<+>.json"),
    ] {
        assert!(by_name.contains_key(name), "{name} in {:?}", by_name.keys());
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join(file)).expect(file))
                .expect("json");
        assert_eq!(doc["name"], name);
    }
    assert_eq!(
        methods(&by_name["sym.package./"]),
        ["static apply(scala.Int): scala.Int"]
    );
    let text = load(&out);
    assert!(text.contains("loaded"), "{text}");
}

/// A Scala 3 library with context function types (`A ?=> B`, applied to the givens in
/// scope) and a plain function type beside them.
const CONTEXT_FUNCTIONS: &str = r#"
package ctx

class Label(val name: String)

object Ctx:
  def withLabel[T](body: Label ?=> T): T = body(using Label("x"))
  def make(n: Int): Label ?=> Int = summon[Label].name.length + n
  def plain(f: Label => Int): Int = f(Label("y"))
  def named(l: Label): String = l.name
"#;

/// Context function types are extracted as such (never as the plain function type they are
/// not), and synthesis leaves their members out with a reason: scalac 3 accepts every
/// well-typed program of the library (before, `withLabel` was called with a plain function,
/// which scalac 3 rejects) and rejects every ill-typed one.
#[test]
fn scala3_context_functions_are_kept_apart_from_plain_functions() {
    let Some(classes) = compile("scala3@3.9.0", "Ctx.scala", CONTEXT_FUNCTIONS) else {
        return;
    };
    let root = tempfile::tempdir().expect("tempdir");
    let api = root.path().join("api");
    let (ok, stderr) = extract(&["--view", "scala"], &[&classes], &api);
    if !ok && stderr.contains("cannot get org.scala-lang:scala3-compiler_3") {
        require::missing_tool("scala_view", &stderr);
        return;
    }
    assert!(ok, "{stderr}");
    let d = docs(&api);
    assert_eq!(
        methods(&d["ctx.Ctx"]),
        [
            "static <T> withLabel((ctx.Label) ?=> T): T",
            "static make(scala.Int): (ctx.Label) ?=> scala.Int",
            "static plain((ctx.Label) => scala.Int): scala.Int",
            "static named(ctx.Label): java.lang.String",
        ]
    );
    // the context function members load, and synthesis says why it leaves them out
    let text = load(&api);
    assert!(
        !text.contains("withLabel") && !text.contains("make"),
        "every member loads:\n{text}"
    );
    for (mode, seed) in [("well-typed", 1), ("ill-typed", 2)] {
        let out = root.path().join(mode);
        let o = thalia()
            .args(["synth", "--lang", "scala", "--mode", mode])
            .args(["--seed", &seed.to_string()])
            .arg("--api")
            .arg(&api)
            .arg("-o")
            .arg(&out)
            .output()
            .expect("thalia runs");
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.status.success(), "{log}");
        assert!(
            log.contains(
                "Scala 3 context function type (A ?=> B, applied to the givens in scope): 2"
            ),
            "{log}"
        );
        let programs = std::fs::read_to_string(out.join("programs.jsonl")).expect("manifest");
        let members: Vec<String> = programs
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).expect("a JSON line");
                v["member"].as_str().expect("member").to_string()
            })
            .collect();
        assert!(
            members
                .iter()
                .all(|m| !m.contains("withLabel") && !m.contains("make")),
            "{members:?}"
        );
        assert!(
            members.iter().any(|m| m.contains("plain")),
            "{mode}: no program calls the plain-function member: {members:?}"
        );
        let c = thalia()
            .args(["check", "--compiler", "scala3@3.9.0", "--server", "-j", "1"])
            .arg("--classpath")
            .arg(&classes)
            .arg(&out)
            .output()
            .expect("thalia runs");
        assert!(
            c.status.success(),
            "{}{}",
            String::from_utf8_lossy(&c.stdout),
            String::from_utf8_lossy(&c.stderr)
        );
        let results =
            std::fs::read_to_string(out.join("check-scala3-3.9.0/results.jsonl")).expect("results");
        let mut judged = 0;
        for l in results.lines() {
            let r: Value = serde_json::from_str(l).expect("a JSON line");
            assert!(
                r["finding"].is_null(),
                "{mode} {}: {} ({})",
                r["id"],
                r["member"],
                r["diagnostics"][0].as_str().unwrap_or("")
            );
            judged += 1;
        }
        assert_eq!(judged, members.len(), "{mode}: every program judged");
    }
}
