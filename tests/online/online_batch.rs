//! `thalia batch` against real libraries and real compilers: three libraries fetched from the
//! repositories of the user's Maven configuration (two Java libraries of `maven-list.txt` and a
//! Kotlin library), each synthesized in the well-typed and ill-typed modes and compiled by
//! groovyc 5.1.3 (and in the well-typed mode by kotlinc 2.4.21, to keep CI's time) in warm compile servers with JaCoCo attached (installed
//! through the resolver too). Both batches must write `summary.json`, a `coverage.csv` row per
//! library × mode with checker lines covered, the increments over well-typed and
//! `index.html`; the kotlinc batch must take the Kotlin library's Kotlin view and the groovyc
//! batch its Java view (`--view auto`).
//!
//! These tests need network access (the compilers, the libraries, JaCoCo); like every test
//! named `online_...`, `cargo test -- --skip online_` leaves them out. Run with `--nocapture`
//! to see the batches' tables.

use crate::support::toolchains;

use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;
use toolchains::{thalia, Setup};

/// The libraries: two Java libraries of `maven-list.txt` and a Kotlin library.
const LIBS: &str = "# tests/online_batch.rs\norg.slf4j:slf4j-api:2.0.7\n\
                    commons-codec:commons-codec:1.15\n\
                    org.jetbrains.kotlinx:kotlinx-io-bytestring-jvm:0.9.1\n";
const KOTLIN_LIB: &str = "org.jetbrains.kotlinx:kotlinx-io-bytestring-jvm:0.9.1";
/// The modes of the groovyc batch; the kotlinc batch (a slower compiler to start with the
/// coverage agent) runs the first only, to keep the test's time in CI's budget.
const MODES: [&str; 2] = ["well-typed", "ill-typed"];
/// Programs per library × mode.
const BUDGET: &str = "10";

/// Installs groovyc and kotlinc once per test binary (the directory is left for the OS).
fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let setup = Setup::new(&["groovy@5.1.3", "kotlin@2.4.21"]);
        std::fs::write(setup.root.join("libs.txt"), LIBS).expect("write the list");
        setup
    })
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

/// Runs a batch of the three libraries with `compiler` in `--lang lang`, coverage on, and
/// checks what every batch must write; returns its summary.
fn batch(lang: &str, compiler: &str, filters: &[&str], modes: &[&str]) -> Value {
    let setup = setup();
    let out = setup.root.join(format!("batch-{lang}"));
    let mut cmd = thalia(&setup.toolchains);
    cmd.args(["batch", "--lang", lang, "--compiler", compiler])
        .args(["--libs", &setup.root.join("libs.txt").display().to_string()])
        .args([
            "--budget-per-lib",
            BUDGET,
            "--batch-size",
            "10",
            "--jobs",
            "1",
        ])
        .args(["--seed", "3", "--server", "--coverage"])
        .args(modes.iter().flat_map(|m| ["--mode", m]))
        .args(["--out", &out.display().to_string()]);
    let started = std::time::Instant::now();
    let run = cmd.output().expect("thalia runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{compiler}: exit {:?}\n{}\n{stdout}",
        run.status.code(),
        String::from_utf8_lossy(&run.stderr)
    );
    println!(
        "{compiler}: {:.0} s\n{stdout}",
        started.elapsed().as_secs_f64()
    );

    let s = read_json(&out.join("summary.json"));
    assert_eq!(s["libraries_failed"], 0, "{s}");
    assert_eq!(s["cells_done"], 3 * modes.len(), "{s}");
    assert_eq!(s["cells_failed"], 0, "{s}");
    let recorded: Vec<&str> = s["manifest"]["coverage"]
        .as_array()
        .expect("coverage filters")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(recorded, filters, "{s}");

    // a row per library × mode and filter, each with checker lines covered
    let csv = std::fs::read_to_string(out.join("coverage.csv")).expect("coverage.csv");
    for lib in LIBS.lines().filter(|l| !l.starts_with('#')) {
        for mode in modes {
            for filter in filters.iter().copied().chain(["all"]) {
                let prefix = format!("{lib},{mode},{filter},");
                let row = csv
                    .lines()
                    .find(|r| r.starts_with(&prefix))
                    .unwrap_or_else(|| panic!("{prefix} in\n{csv}"));
                let n: Vec<u64> = row[prefix.len()..]
                    .split(',')
                    .map(|x| x.parse().expect("a count"))
                    .collect();
                assert_eq!(n.len(), 4, "{row}");
                if filter == "all" {
                    assert!(n[0] > 0 && n[0] < n[1], "{row}");
                }
                assert!(n[0] <= n[1], "{row}");
            }
        }
        // what ill-typed programs add over well-typed ones (never negative)
        if modes.contains(&"ill-typed") {
            let inc = s["increments"][lib]["ill-typed"]
                .as_f64()
                .unwrap_or_else(|| panic!("{lib}: no increment in {s}"));
            assert!((0.0..100.0).contains(&inc), "{lib}: {inc}");
        }
    }
    assert!(csv.contains("union,all,all,"), "{csv}");

    let page = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    for needle in [
        "id=\"cells\"",
        "id=\"increments\"",
        "id=\"union\"",
        "id=\"coverage-plot\"",
        "id=\"increment-plot\"",
        KOTLIN_LIB,
    ] {
        assert!(page.contains(needle), "{needle} in index.html");
    }
    s
}

/// The view each library's API was written in, by coordinate.
fn views(s: &Value) -> Vec<(String, String)> {
    s["libraries"]
        .as_array()
        .expect("libraries")
        .iter()
        .map(|l| {
            (
                l["coordinate"].as_str().unwrap_or_default().to_string(),
                l["view"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn online_batch_with_groovyc_measures_coverage_of_three_libraries() {
    let s = batch(
        "groovy",
        "groovy@5.1.3",
        &[
            "org.codehaus.groovy.transform.stc*",
            "org.codehaus.groovy.control*",
        ],
        &MODES,
    );
    // Groovy programs use every library's Java view
    for (lib, view) in views(&s) {
        assert_eq!(view, "java", "{lib}");
    }
}

#[test]
fn online_batch_with_kotlinc_measures_coverage_and_takes_the_kotlin_view() {
    let s = batch(
        "kotlin",
        "kotlin@2.4.21",
        &[
            "org.jetbrains.kotlin.resolve*",
            "org.jetbrains.kotlin.types*",
            "org.jetbrains.kotlin.fir*",
        ],
        &MODES[..1],
    );
    // Kotlin programs use the Kotlin library's Kotlin view, the Java libraries' Java view
    for (lib, view) in views(&s) {
        let want = if lib == KOTLIN_LIB { "kotlin" } else { "java" };
        assert_eq!(view, want, "{lib}");
    }
}
