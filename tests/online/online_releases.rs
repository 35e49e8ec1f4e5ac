//! `online_*`: campaigns on releases older than the embedded standard libraries (issue 35).
//! kotlinc 1.8.21 and scalac 3.3.0 (spring 2023) on a sample of the default API must be at
//! least 99 % as expected: the Kotlin programs use kotlin-stdlib 1.8.21's API and opt-in
//! markers (fetched once per release into `THALIA_APIS`), not the embedded 2.4.21's. A Kotlin
//! library built with an older kotlin-stdlib compiles against the compiler's own: its
//! classpath loses the stdlib it was built with.

use std::path::Path;

use crate::support::runs::mismatches;
use crate::support::toolchains;

use serde_json::Value;
use toolchains::{install, pinned, thalia};

/// The least share of programs as expected on a default-API sample.
const AS_EXPECTED: f64 = 0.99;

/// Runs `thalia run` with `args` into `out` (fetched APIs in `apis`), and returns the
/// programs, the findings and stderr.
fn run(tc: &Path, apis: &Path, out: &Path, args: &[&str]) -> (usize, usize, String) {
    let r = thalia(tc)
        .env("THALIA_APIS", apis)
        .arg("run")
        .args(args)
        .args(["--seed", "7", "--server", "--no-reduce", "--out"])
        .arg(out)
        .output()
        .expect("thalia runs");
    let stderr = String::from_utf8_lossy(&r.stderr).to_string();
    assert!(r.status.success(), "thalia run {args:?} failed:\n{stderr}");
    let (n, wrong) = mismatches(&out.join("results.jsonl"));
    (n, wrong, stderr)
}

/// A release of 2023 on the default API: `lang`, `spec`, `budget` programs.
fn release_on_the_default_api(lang: &str, spec: &str, budget: &str) -> String {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tc = tmp.path().join("toolchains");
    install(&tc, &[spec]);
    let apis = tmp.path().join("apis");
    let out = tmp.path().join("run");
    let (n, wrong, stderr) = run(
        &tc,
        &apis,
        &out,
        &[
            "--lang",
            lang,
            "--compiler",
            spec,
            "--budget",
            budget,
            "--no-oracle",
        ],
    );
    assert_eq!(n.to_string(), budget, "{stderr}");
    let rate = 1.0 - wrong as f64 / n as f64;
    eprintln!(
        "{spec}: {n} programs, {wrong} not as expected ({:.2} %)",
        100.0 * rate
    );
    assert!(
        rate >= AS_EXPECTED,
        "{spec}: {wrong} of {n} programs not as expected\n{stderr}"
    );
    stderr
}

#[test]
fn online_kotlinc_1_8_21_on_the_default_api_uses_its_own_stdlib() {
    let stderr = release_on_the_default_api("kotlin", "kotlin@1.8.21", "300");
    assert!(
        stderr.contains("language library: kotlin-stdlib-1.8.21"),
        "{stderr}"
    );
}

#[test]
fn online_scalac_3_3_0_on_the_default_api() {
    release_on_the_default_api("scala", "scala3@3.3.0", "300");
}

/// A Kotlin library whose POM depends on an older kotlin-stdlib (1.6.20) than any compiler
/// pinned here.
const OLD_BUILT: &str = "com.squareup.okio:okio-jvm:3.2.0";

#[test]
fn online_a_kotlin_library_built_with_an_older_stdlib_compiles_against_the_compilers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tc = tmp.path().join("toolchains");
    let kotlin = pinned()
        .into_iter()
        .find(|s| s.starts_with("kotlin@"))
        .expect("a pinned kotlin");
    install(&tc, &[kotlin, "javac"]);
    let apis = tmp.path().join("apis");
    let api = tmp.path().join("okio");
    let f = thalia(&tc)
        .env("THALIA_APIS", &apis)
        .args(["fetch", OLD_BUILT, "--out"])
        .arg(&api)
        .output()
        .expect("thalia runs");
    assert!(f.status.success(), "{}", String::from_utf8_lossy(&f.stderr));
    let cp = std::fs::read_to_string(api.join("classpath.txt")).expect("classpath.txt");
    assert!(
        cp.contains("kotlin-stdlib-1."),
        "built with an older stdlib: {cp}"
    );
    let out = tmp.path().join("run");
    let (n, wrong, stderr) = run(
        &tc,
        &apis,
        &out,
        &[
            "--lang",
            "kotlin",
            "--mode",
            "well-typed",
            "--api",
            api.to_str().expect("a UTF-8 path"),
            "--compiler",
            kotlin,
            "--budget",
            "60",
            "--no-oracle",
        ],
    );
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    let used = manifest["compiler"]["classpath"]
        .as_str()
        .unwrap_or_default();
    assert!(used.contains("okio-jvm-3.2.0.jar"), "{used}");
    assert!(
        !used.contains("kotlin-stdlib-"),
        "the compiler's own stdlib, not the library's: {used}"
    );
    // the context is the compiler's release's standard library
    assert!(stderr.contains("context: kotlin-stdlib-"), "{stderr}");
    let rate = 1.0 - wrong as f64 / n as f64;
    assert!(
        rate >= 0.95,
        "{wrong} of {n} well-typed programs rejected\n{stderr}"
    );
}
