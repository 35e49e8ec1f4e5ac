//! `thalia extract --docs` on Scaladoc: Scala 2 pages generated in the test by the real
//! `scala.tools.nsc.ScalaDoc` of the `scala2@2.13.18` toolchain (`thalia toolchain install
//! scala2@2.13.18`) from `extractors/tests/fixtures/docs/scala/fx/Fx.scala`, and Scala 3 pages
//! cut from the real `scala-library` 3.9.0 `-javadoc.jar` (Scaladoc 3). Scala 3's `scaladoc`
//! (`scala3-scaladoc_3`) is not served by the repository this machine reaches, so the Scala 3
//! pages are not generated: `scripts/cut-scaladoc3-page.py` cut them (side menu, table of
//! contents, diagram, documentation text and members added by implicit conversions removed;
//! signatures and the markup around them kept as Scaladoc wrote them) from `scala/Option.html`,
//! `scala/Option$.html`, `scala/Tuple.html`, `scala/Conversion.html` and
//! `scala/collection/IterableFactory.html`; and, for Scala 3 extension methods, givens and
//! type members, `scala/IArray$.html`, `scala/CanEqual$.html`, `scala/quoted/FromExpr$.html`,
//! `scala/util/CommandLineParser$$FromString$.html`, `scala/deriving/Mirror$$Product.html`
//! and `scala/collection/generic/IsIterableOnce.html` (`fixtures/docs/scaladoc3-members/`).

use crate::support::require;

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::Command as Cmd;
use serde_json::Value;

fn thalia() -> Cmd {
    Cmd::cargo_bin("thalia").unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("extractors/tests/fixtures/docs")
}

fn work(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("scaladoc-extract")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Extracts `html` into `out`; returns stderr.
fn extract(html: &Path, out: &Path) -> String {
    let o = thalia()
        .args(["extract", "--docs"])
        .arg(html)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "extract --docs: {stderr}");
    stderr
}

fn doc(api: &Path, name: &str) -> Value {
    let p = api.join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}")))
        .unwrap()
}

/// The method `name` with `n` parameters.
fn method<'a>(d: &'a Value, name: &str, n: usize) -> &'a Value {
    d["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name && m["parameters"].as_array().unwrap().len() == n)
        .unwrap_or_else(|| panic!("no method {name}/{n} in {d:#}"))
}

fn field<'a>(d: &'a Value, name: &str) -> &'a Value {
    d["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no field {name} in {d:#}"))
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

#[test]
fn scaladoc2_pages_generated_by_scaladoc_extract() {
    let tc = match thalia::toolchain::find("scala2@2.13.18") {
        Ok(tc) => tc,
        Err(e) => {
            return require::missing_tool(
                "scaladoc2_pages_generated_by_scaladoc_extract",
                &format!("scala2@2.13.18 is not installed ({e})"),
            )
        }
    };
    let dir = work("scala2");
    let html = dir.join("html");
    std::fs::create_dir_all(&html).unwrap();
    let cp = std::env::join_paths(&tc.classpath).unwrap();
    let o = Command::new(&tc.java)
        .arg("-cp")
        .arg(cp)
        .args(["scala.tools.nsc.ScalaDoc", "-usejavacp", "-d"])
        .arg(&html)
        .arg(fixtures().join("scala/fx/Fx.scala"))
        .output()
        .expect("run scaladoc");
    assert!(
        o.status.success(),
        "scaladoc: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let api = dir.join("api");
    let stderr = extract(&html, &api);
    assert!(stderr.contains("scaladoc-2"), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");

    let b = doc(&api, "fx.Box");
    assert_eq!(b["language"], "scala");
    assert_eq!(strings(&b["type_parameters"]), ["+A"]);
    assert_eq!(
        strings(&b["inherits"]),
        ["scala.Iterable[A]", "scala.Serializable"]
    );
    assert_eq!(b["class_type"], 2);
    assert_eq!(b["is_sealed"], true);
    let map = method(&b, "map", 1);
    assert_eq!(strings(&map["parameters"]), ["(A) => B"]);
    assert_eq!(map["return_type"], "fx.Box[B]");
    assert_eq!(map["parameter_names"][0], "f");
    let fold = method(&b, "fold", 1);
    assert_eq!(strings(&fold["parameters"]), ["=> B"]);
    assert_eq!(fold["return_type"], "((A) => B) => B");
    // an implicit list that is the only one gives the parameters, and is recorded
    let sorted = method(&b, "sorted", 1);
    assert_eq!(strings(&sorted["parameters"]), ["scala.Ordering[B]"]);
    assert_eq!(strings(&sorted["type_parameters"]), ["B >: A"]);
    assert_eq!(
        strings(&sorted["implicit_parameters"]),
        ["scala.Ordering[B]"]
    );
    assert_eq!(sorted["return_type"], "scala.List[B]");
    let widest = method(&b, "widest", 1);
    assert_eq!(
        strings(&widest["implicit_parameters"]),
        ["scala.Ordering[B]"]
    );
    let all = method(&b, "all", 1);
    assert_eq!(strings(&all["parameters"]), ["scala.Int*"]);
    assert_eq!(all["is_varargs"], true);
    assert_eq!(method(&b, "hidden", 1)["access_mod"], "protected");
    assert_eq!(method(&b, "old", 1)["deprecated"], true);
    let get = field(&b, "get");
    assert_eq!(get["type"], "A");
    assert_eq!(get["is_final"], false);
    assert_eq!(field(&b, "size0")["is_final"], true);
    assert_eq!(field(&b, "count")["is_var"], true);
    assert_eq!(field(&b, "label")["type"], "scala.Predef.String");
    // aliases are written as Scaladoc links them (`scala.Iterable`, `scala.Ordering`)
    // the companion's members, static, in the class's document
    let apply = method(&b, "apply", 1);
    assert_eq!(apply["is_static"], true);
    assert_eq!(apply["return_type"], "fx.Box[A]");
    assert_eq!(field(&b, "Empty")["is_static"], true);
    assert!(!api.join("fx.Box$.json").exists());
    // inherited members are not the class's own
    assert!(b["methods"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["name"] != "foldLeft"));

    let f = doc(&api, "fx.Functor");
    assert_eq!(strings(&f["type_parameters"]), ["F[_]"]);
    assert_eq!(f["class_type"], 1);
    let fmap = method(&f, "fmap", 1);
    assert_eq!(strings(&fmap["parameters"]), ["F[A]"]);
    assert_eq!(fmap["return_type"], "((A) => B) => F[B]");
    assert_eq!(fmap["is_abstract"], true);

    let p = doc(&api, "fx.Pair");
    assert_eq!(strings(&p["type_parameters"]), ["K", "-V"]);
    assert_eq!(p["is_case"], true);
    let ctor = method(&p, "Pair", 2);
    assert_eq!(ctor["is_constructor"], true);
    assert_eq!(strings(&ctor["parameters"]), ["K", "V"]);
    assert_eq!(field(&p, "k")["is_final"], true);
    let both = method(&p, "both", 1);
    assert_eq!(
        strings(&both["parameters"]),
        ["(K, scala.Int) => scala.Predef.String"]
    );
    assert_eq!(both["return_type"], "(K, scala.Predef.String)");

    // the API loads (`fx.Functor[F[_]]` too: members that apply `F` are skipped) and
    // programs are synthesized from it
    let check = thalia().args(["api", "check"]).arg(&api).output().unwrap();
    let report = String::from_utf8_lossy(&check.stdout).to_string()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(report.contains("loaded 6 classes"), "{report}");
    let synth = dir.join("synth");
    // the seed of a CI run that drew `ShutdownHookThread.apply(body: => Unit)` for a context
    // value and lost a program to an untranslatable `void` constant
    let o = thalia()
        .args([
            "synth",
            "--lang",
            "scala",
            "-n",
            "5",
            "--seed",
            "4812674164049568383",
        ])
        .arg("--api")
        .arg(&api)
        .arg("--out")
        .arg(&synth)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("wrote 5 scala programs"), "{stderr}");
    assert!(synth.join("Test_p000000.scala").exists());

    // a class of a class is path-dependent, one of an object is not
    assert_eq!(doc(&api, "fx.Box.Inner")["scala_inner"], true);
    assert_eq!(doc(&api, "fx.Box.Nested").get("scala_inner"), None);

    let u = doc(&api, "fx.Util");
    assert_eq!(u["scala_object"], true);
    assert_eq!(method(&u, "twice", 1)["is_static"], true);
}

#[test]
fn scaladoc3_pages_cut_from_scala_library_extract() {
    let dir = work("scala3");
    let api = dir.join("api");
    let stderr = extract(&fixtures().join("scaladoc3"), &api);
    assert!(stderr.contains("5 scaladoc-3"), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");

    let o = doc(&api, "scala.Option");
    assert_eq!(o["language"], "scala");
    assert_eq!(strings(&o["type_parameters"]), ["+A"]);
    assert_eq!(
        strings(&o["inherits"]),
        [
            "scala.collection.IterableOnce[A]",
            "scala.Product",
            "scala.Serializable"
        ]
    );
    let fold = method(&o, "fold", 1);
    assert_eq!(strings(&fold["parameters"]), ["=> B"]);
    assert_eq!(fold["return_type"], "((A) => B) => B");
    let flatten = method(&o, "flatten", 1);
    assert_eq!(
        strings(&flatten["parameters"]),
        ["scala.<:<[A, scala.Option[B]]"]
    );
    assert_eq!(
        strings(&flatten["implicit_parameters"]),
        ["scala.<:<[A, scala.Option[B]]"]
    );
    assert_eq!(field(&o, "get")["type"], "A");
    // inherited from Product: not the class's own
    assert!(o["methods"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["name"] != "productElementName"));
    // the companion object's page merged
    let when = method(&o, "when", 1);
    assert_eq!(when["is_static"], true);
    assert_eq!(when["return_type"], "(=> A) => scala.Option[A]");

    let f = doc(&api, "scala.collection.IterableFactory");
    assert_eq!(strings(&f["type_parameters"]), ["+CC[_]"]);
    let apply = method(&f, "apply", 1);
    assert_eq!(strings(&apply["parameters"]), ["A*"]);
    assert_eq!(apply["return_type"], "CC[A]");
    let range = method(&f, "range", 2);
    assert_eq!(
        strings(&range["implicit_parameters"]),
        ["scala.Integral[A]"]
    );

    // no constructor for an abstract class or a trait
    assert!(o["methods"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["is_constructor"] != true));

    let c = doc(&api, "scala.Conversion");
    assert_eq!(strings(&c["type_parameters"]), ["-T", "+U"]);
    assert_eq!(strings(&c["inherits"]), ["(T) => U"]);
    // `extension (x: T) def convert: U`: an extension method, not a field
    assert!(c["fields"].as_array().unwrap().is_empty(), "{c:#}");
    let convert = method_on(&c, "convert", Some("T"));
    assert_eq!(strings(&convert["parameters"]), Vec::<&str>::new());
    assert_eq!(convert["return_type"], "U");
}

/// The method `name` whose receiver is `receiver` (`None`: not an extension).
fn method_on<'a>(d: &'a Value, name: &str, receiver: Option<&str>) -> &'a Value {
    d["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name && m["receiver"].as_str() == receiver)
        .unwrap_or_else(|| panic!("no method {name} on {receiver:?} in {d:#}"))
}

#[test]
fn scaladoc3_extensions_givens_and_type_members() {
    let dir = work("scala3-members");
    let api = dir.join("api");
    let stderr = extract(&fixtures().join("scaladoc3-members"), &api);
    assert!(stderr.contains("6 scaladoc-3"), "{stderr}");

    // extension methods (`scala/IArray$.html`): the clause heads the group; the receiver in
    // `receiver`, static, the clause's type parameters first, as the compiled view writes them
    // (Scaladoc 3 names the object `scala.IArray$package.IArray`: it is declared in the
    // package object of `IArray.scala`, beside the opaque type)
    let ia = doc(&api, "scala.IArray$package.IArray");
    let apply = method_on(&ia, "apply", Some("scala.IArray[scala.Byte]"));
    assert_eq!(strings(&apply["parameters"]), ["scala.Int"]);
    assert_eq!(apply["return_type"], "scala.Byte");
    assert_eq!(apply["is_static"], true);
    assert_eq!(strings(&apply["type_parameters"]), Vec::<&str>::new());
    // the object's own `apply`s are not extensions
    let own = method(&ia, "apply", 2);
    assert!(own["receiver"].is_null(), "{own:#}");
    // a parameterless extension takes its receiver: one empty list
    let length = method_on(&ia, "length", Some("scala.IArray[T]"));
    assert_eq!(strings(&length["type_parameters"]), ["T"]);
    assert_eq!(strings(&length["parameters"]), Vec::<&str>::new());
    assert_eq!(length["return_type"], "scala.Int");
    assert!(length.get("parameter_lists").is_none(), "{length:#}");
    let map = method_on(&ia, "map", Some("scala.IArray[T]"));
    assert_eq!(strings(&map["type_parameters"]), ["T", "U"]);
    assert_eq!(strings(&map["parameters"]), ["(T) => U"]);
    assert_eq!(
        strings(&map["implicit_parameters"]),
        ["scala.reflect.ClassTag[U]"]
    );
    assert_eq!(map["return_type"], "scala.IArray[U]");
    // one `length` per receiver, none without one
    let lengths: Vec<&Value> = ia["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["name"] == "length")
        .collect();
    assert_eq!(lengths.len(), 9, "{lengths:#?}");
    assert!(lengths.iter().all(|m| m["receiver"].is_string()));

    // givens (`scala/CanEqual$.html`): a named given is a static value, or with type
    // parameters and `using` clauses a method whose `using` lists are implicit
    let ce = doc(&api, "scala.CanEqual");
    let number = field(&ce, "canEqualNumber");
    assert_eq!(
        number["type"],
        "scala.CanEqual[java.lang.Number, java.lang.Number]"
    );
    assert_eq!(number["is_static"], true);
    let option = method(&ce, "canEqualOption", 1);
    assert_eq!(strings(&option["type_parameters"]), ["T"]);
    assert_eq!(
        strings(&option["implicit_parameters"]),
        ["scala.CanEqual[T, T]"]
    );
    assert_eq!(option["parameter_lists"], 0);
    assert_eq!(
        option["return_type"],
        "scala.CanEqual[scala.Option[T], scala.Option[T]]"
    );
    assert_eq!(option["is_static"], true);
    let either = method(&ce, "canEqualEither", 2);
    assert_eq!(
        strings(&either["implicit_parameters"]),
        ["scala.CanEqual[L1, L2]", "scala.CanEqual[R1, R2]"]
    );
    // bounded type parameters (`given BooleanFromExpr: [T <: Boolean] => FromExpr[T]`)
    let fe = doc(&api, "scala.quoted.FromExpr");
    let boolean = method(&fe, "BooleanFromExpr", 0);
    assert_eq!(strings(&boolean["type_parameters"]), ["T <: scala.Boolean"]);
    assert_eq!(boolean["parameter_lists"], 0);
    assert_eq!(boolean["return_type"], "scala.quoted.FromExpr[T]");
    // a given object (`given EmptyTupleFromExpr: EmptyTupleFromExpr`) is its own page's
    assert!(fe["fields"].as_array().unwrap().is_empty(), "{fe:#}");
    assert!(
        stderr.contains("given `EmptyTupleFromExpr` skipped: typed by its own class"),
        "{stderr}"
    );
    // anonymous givens are named and skipped
    let fs = doc(&api, "scala.util.CommandLineParser.FromString");
    assert!(fs["fields"].as_array().unwrap().is_empty(), "{fs:#}");
    assert!(
        stderr.contains("given `given_FromString_Int` skipped: an anonymous given"),
        "{stderr}"
    );

    // type members of a class: the members that mention them are skipped with the reason
    let product = doc(&api, "scala.deriving.Mirror.Product");
    assert!(product["methods"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["name"] != "fromProduct"));
    assert!(
        stderr.contains("`fromProduct` skipped: mentions `scala.deriving.Mirror.MirroredMonoType`, a type member of a class"),
        "{stderr}"
    );
    // `IsIterableOnce[Repr]` declares `type A`: `apply(coll: Repr): IterableOnce[A]` and
    // `val conversion: Repr => IterableOnce[A]` cannot be written
    let once = doc(&api, "scala.collection.generic.IsIterableOnce");
    assert!(once["methods"].as_array().unwrap().is_empty(), "{once:#}");
    assert!(once["fields"].as_array().unwrap().is_empty(), "{once:#}");
    for member in ["apply", "conversion"] {
        assert!(
            stderr.contains(&format!(
                "member `{member}` skipped: mentions `scala.collection.generic.IsIterableOnce.A`, a type member of a class"
            )),
            "{stderr}"
        );
    }
    // no document carries a type member's marker or name as a type
    for entry in std::fs::read_dir(&api).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            !text.contains("\\u0002") && !text.contains('\u{2}'),
            "{text}"
        );
    }
}

#[test]
fn scaladoc_pages_truncated_or_unparsable_are_named_and_skipped() {
    let dir = work("bad");
    let html = dir.join("html");
    let scala = html.join("scala");
    std::fs::create_dir_all(&scala).unwrap();
    let src = fixtures().join("scaladoc3/scala");
    let option = std::fs::read(src.join("Option.html")).unwrap();
    // cut in the middle: no closing </html>
    std::fs::write(scala.join("Option.html"), &option[..option.len() / 2]).unwrap();
    std::fs::copy(src.join("Conversion.html"), scala.join("Conversion.html")).unwrap();
    // a member whose signature does not parse: that member is skipped, the page is kept
    let tuple = std::fs::read_to_string(src.join("Tuple.html")).unwrap();
    let broken = tuple.replacen(
        r#"class="documentableName ">head</a>"#,
        r#"class="documentableName ">head</a>[[[["#,
        1,
    );
    assert_ne!(broken, tuple);
    std::fs::write(scala.join("Tuple.html"), broken).unwrap();
    let api = dir.join("api");
    let stderr = extract(&html, &api);
    assert!(
        stderr.contains("scala/Option.html: truncated scaladoc-3 class page"),
        "{stderr}"
    );
    assert!(
        stderr.contains("scala/Tuple.html: member `head` skipped"),
        "{stderr}"
    );
    assert!(!api.join("scala.Option.json").exists());
    assert!(api.join("scala.Conversion.json").exists());
    let t = doc(&api, "scala.Tuple");
    assert!(t["methods"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["name"] == "tail"));
}
