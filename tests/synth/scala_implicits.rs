//! Implicit search in Scala programs (issue #15): a library compiled in the test by scalac 3
//! declares a type class instance in a companion object (its type an intersection, as cats'
//! are), and methods that take instances implicitly. Its Scala view is extracted, every
//! program of a round is synthesized with the implicit list left to scalac's search wherever
//! the search is sure to find it, and the real scalac 3 judges them: a call whose instance is
//! in the implicit scope leaves its list out, one whose instance is not (it lives in another
//! type's companion) passes it, and every program is as expected.
//!
//! scala3@3.9.0 must be installed (`thalia toolchain install`); without it the test prints
//! why and skips, unless `THALIA_REQUIRE_TOOLS=1`.

use crate::support::require;
use crate::support::runs;

use assert_cmd::Command;
use serde_json::Value;

/// The library: `Show[Cell]` is found in `Show`'s companion (the implicit scope of
/// `Show[Cell]`), `Eqv[Cell]` is not (the same instance is no member of `Eqv`'s or
/// `Cell`'s companion).
const LIBRARY: &str = r#"
package tc

trait Show[A]:
  def show(a: A): String

trait Eqv[A]:
  def eqv(x: A, y: A): Boolean

class Cell(val n: Int)

object Show:
  implicit val showCell: Show[Cell] & Eqv[Cell] = new Show[Cell] with Eqv[Cell] {
    def show(a: Cell): String = a.n.toString
    def eqv(x: Cell, y: Cell): Boolean = x.n == y.n
  }

object Api:
  def render(c: Cell)(implicit s: Show[Cell]): String = s.show(c)
  def same(a: Cell, b: Cell)(using e: Eqv[Cell]): Boolean = e.eqv(a, b)
"#;

fn thalia() -> Command {
    Command::cargo_bin("thalia").expect("the thalia binary")
}

#[test]
fn implicit_lists_are_left_to_scalacs_search_where_it_finds_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let src = tmp.path().join("Lib.scala");
    std::fs::write(&src, LIBRARY).expect("write");
    let classes = tmp.path().join("classes");
    std::fs::create_dir_all(&classes).expect("mkdir");
    let out = thalia()
        .args(["toolchain", "exec", "scala3@3.9.0", "--", "-d"])
        .arg(&classes)
        .arg(&src)
        .output()
        .expect("thalia runs");
    if !out.status.success() {
        require::missing_tool(
            "scala_implicits",
            &format!(
                "scala3@3.9.0 did not run: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        );
        return;
    }
    let api = tmp.path().join("api");
    thalia()
        .args(["extract", "--view", "scala"])
        .arg(&classes)
        .arg("-o")
        .arg(&api)
        .assert()
        .success();
    // the instance is marked implicit in the view, its intersection type kept
    let show: Value = serde_json::from_str(
        &std::fs::read_to_string(api.join("tc.Show.json")).expect("tc.Show.json"),
    )
    .expect("JSON");
    let field = show["fields"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["name"] == "showCell"))
        .expect("the instance");
    assert_eq!(field["implicit"], true, "{field}");
    assert!(
        field["type"].as_str().is_some_and(|t| t.contains('&')),
        "{field}"
    );

    let config = tmp.path().join("synth.json");
    std::fs::write(&config, r#"{"implicit_search_probability": 1.0}"#).expect("write");
    let well = tmp.path().join("well");
    thalia()
        .args(["synth", "--lang", "scala3", "--seed", "1", "--api"])
        .arg(&api)
        .arg("--synth-config")
        .arg(&config)
        .arg("-o")
        .arg(&well)
        .assert()
        .success();
    let mut searched = 0;
    let mut passed = 0;
    for r in runs::records(&well) {
        let member = r["member"].as_str().unwrap_or("");
        let text =
            std::fs::read_to_string(well.join(r["file"].as_str().expect("file"))).expect("program");
        let call = text
            .lines()
            .rfind(|l| l.contains(".render(") || l.contains(".same("))
            .unwrap_or("");
        if member.contains("tc.Api.render(") {
            assert!(
                !call.contains("using"),
                "the search finds Show[Cell]:\n{text}"
            );
            searched += 1;
        }
        if member.contains("tc.Api.same(") {
            assert!(call.contains("(using"), "Eqv[Cell] is passed:\n{text}");
            passed += 1;
        }
    }
    assert!(
        searched > 0 && passed > 0,
        "{searched} searched, {passed} passed"
    );
    thalia()
        .args([
            "check",
            "--compiler",
            "scala3@3.9.0",
            "--server",
            "-j",
            "2",
            "--classpath",
        ])
        .arg(&classes)
        .arg(&well)
        .assert()
        .success();
    let (n, wrong) = runs::mismatches(&well.join("check-scala3-3.9.0/results.jsonl"));
    assert!(n >= searched + passed, "{n} programs judged");
    assert_eq!(wrong, 0, "programs not as expected");
}
