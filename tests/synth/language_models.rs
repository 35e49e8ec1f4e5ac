//! The language models of issue #35 item 4, each proven on a sample compiled by the real
//! compiler (the unit tests beside the rules check that synthesis applies them): a class of a
//! Scala class is no `Outer.Inner` (`typing`'s raw inner classes; the Scaladoc reader marks
//! them), a type named through a private object is no type a client writes
//! (`scala.sys.process.processInternal`), a Kotlin extension of a covariant supertype takes any
//! argument (`UIntArray.plus(aString)` is `Collection<Any>.plus`), and Scala 2 converts a
//! `Short` to `duration.LongMult` through the package prefix's implicit scope where Scala 3
//! does not (the ill-typed oracle's views do not check scope), and Scala sees a Java static
//! only on the type declaring it (`ZipFile.CENHDR`, inherited from the package-private
//! `ZipConstants`, is no member Scala programs use), and a Scala 3 program that uses an
//! `@experimental` class is an experimental scope (its object is annotated so).

use std::process::Command;

use crate::support::require;

/// Compiles `source` (written to a file named `file`) with the installed toolchain `spec`;
/// `None` when it is not installed (the test is then skipped), else whether it compiled and
/// the compiler's output.
fn compiles(spec: &str, file: &str, source: &str) -> Option<(bool, String)> {
    let tc = match thalia::toolchain::find(spec) {
        Ok(tc) => tc,
        Err(e) => {
            require::missing_tool("language_models", &format!("{spec}: {e}"));
            return None;
        }
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join(file);
    std::fs::write(&src, source).expect("write the sample");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).expect("out dir");
    let cp = std::env::join_paths(&tc.classpath).expect("classpath");
    let mut cmd = Command::new(&tc.java);
    cmd.arg("-cp").arg(cp).arg(&tc.main_class);
    match spec.split('@').next() {
        // the program's classpath: the compiler's kotlin-stdlib
        Some("kotlin") => {
            let runtime = std::env::join_paths(&tc.runtime).expect("runtime classpath");
            cmd.args(["-nowarn", "-no-stdlib", "-no-reflect", "-classpath"])
                .arg(runtime)
        }
        Some("scala3") => cmd.args(["-usejavacp", "-color:never"]),
        _ => cmd.arg("-usejavacp"),
    };
    cmd.arg("-d").arg(&out).arg(&src);
    let o = cmd.output().expect("run the compiler");
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    // (kotlinc and scalac exit non-zero on an error; scalac 3 prints "N error(s) found")
    let ok = o.status.success() && !text.contains("error");
    Some((ok, text))
}

fn assert_verdict(spec: &str, file: &str, source: &str, accepted: bool) {
    if let Some((ok, text)) = compiles(spec, file, source) {
        assert_eq!(ok, accepted, "{spec} on {file}:\n{source}\n{text}");
    }
}

#[test]
fn a_class_of_a_scala_class_and_a_private_objects_alias_are_no_types_to_write() {
    for spec in ["scala3@3.9.0", "scala2@2.13.18"] {
        // what the programs wrote from Scaladoc views before: rejected
        assert_verdict(
            spec,
            "Inner.scala",
            "object Inner { def f(s: scala.io.Source.LineIterator) = s }\n",
            false,
        );
        assert_verdict(
            spec,
            "Private.scala",
            "object Private { def f(p: scala.sys.process.processInternal.File) = p }\n",
            false,
        );
        // the projection is legal, but no `r.LineIterator` where an invariant type needs one
        assert_verdict(
            spec,
            "Projection.scala",
            "object Projection { def f(s: scala.io.Source#LineIterator): Iterator[String] = s }\n",
            true,
        );
        // a class of an object is a path: `Duration.Infinite`
        assert_verdict(
            spec,
            "Nested.scala",
            "object Nested { def f(d: scala.concurrent.duration.Duration.Infinite) = d }\n",
            true,
        );
    }
}

#[test]
fn kotlin_takes_any_argument_through_an_extension_of_a_covariant_supertype() {
    // `UIntArray.plus(UInt)` does not take a `String`, `Collection<T>.plus(T)` does with
    // `T = Any`: no ill-typed program
    assert_verdict(
        "kotlin@2.4.21",
        "Plus.kt",
        "@file:OptIn(ExperimentalUnsignedTypes::class)\n\
         fun f(a: UIntArray, k: String): List<Any> = a.plus(k)\n",
        true,
    );
    // a mutable receiver is invariant: `MutableCollection<T>.plusAssign`'s `T` stays `UInt`
    assert_verdict(
        "kotlin@2.4.21",
        "PlusAssign.kt",
        "fun g(a: MutableCollection<UInt>, k: String) { a += k }\n",
        false,
    );
}

#[test]
fn scala2_converts_a_short_to_long_mult_through_the_package_prefix() {
    let source = "object Mult { def k(x: Short): scala.concurrent.duration.LongMult = x }\n";
    assert_verdict("scala2@2.13.18", "Mult.scala", source, true);
    assert_verdict("scala3@3.9.0", "Mult.scala", source, false);
}

#[test]
fn scala_programs_write_no_java_static_inherited_from_a_package_private_interface() {
    for spec in ["scala3@3.9.0", "scala2@2.13.18"] {
        // `CENHDR` is declared by the package-private `ZipConstants`: Scala does not see it
        // through `ZipFile`, nor can it name `ZipConstants`; `OPEN_READ` is `ZipFile`'s own
        assert_verdict(
            spec,
            "Cen.scala",
            "object Cen { def f: Int = java.util.zip.ZipFile.CENHDR }\n",
            false,
        );
        assert_verdict(
            spec,
            "Open.scala",
            "object Open { def f: Int = java.util.zip.ZipFile.OPEN_READ }\n",
            true,
        );
    }
    // synthesis from `ZipFile` alone: Scala programs skip the statics the extractor copied
    // from `ZipConstants` (the Java view marks them), Java programs read them
    let api = tempfile::tempdir().expect("tempdir");
    let doc = "java.util.zip.ZipFile.json";
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("api-json/java.base")
            .join(doc),
        api.path().join(doc),
    )
    .expect("copy ZipFile's document");
    let copied = ["CENHDR", "LOCSIG", "ENDHDR", "EXTSIG", "CENSIG", "LOCHDR"];
    for (lang, ext, uses) in [("scala3", "scala", false), ("java", "java", true)] {
        let out = api.path().join(format!("out-{lang}"));
        let o = assert_cmd::Command::cargo_bin("thalia")
            .expect("thalia")
            .args(["synth", "--lang", lang, "--mode", "well-typed", "--api"])
            .arg(api.path())
            .arg("-o")
            .arg(&out)
            .output()
            .expect("thalia synth");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            stderr.contains("static field of a non-public supertype"),
            !uses,
            "{lang}: {stderr}"
        );
        let mut reads = 0;
        for e in std::fs::read_dir(&out).expect("out") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == ext) {
                let src = std::fs::read_to_string(&p).expect("program");
                reads += copied
                    .iter()
                    .filter(|f| src.contains(&format!(".{f}")))
                    .count();
            }
        }
        assert_eq!(
            reads > 0,
            uses,
            "{lang}: {reads} reads of ZipConstants' fields"
        );
    }
}

#[test]
fn a_scala_3_program_using_an_experimental_class_is_an_experimental_scope() {
    // scala3-library's `WitnessNames` is `@experimental`
    let body = "{\n    def test(): Unit = {\n        val r: Option[scala.annotation.internal.WitnessNames] = None\n    }\n}\n";
    assert_verdict(
        "scala3@3.9.0",
        "Plain.scala",
        &format!("object Plain {body}"),
        false,
    );
    assert_verdict(
        "scala3@3.9.0",
        "Scope.scala",
        &format!("@scala.annotation.experimental\nobject Scope {body}"),
        true,
    );
}
