//! Fake compilers and shared helpers for the tests that judge campaigns with verdicts known in
//! advance (`tests/campaign.rs`, `tests/oracles.rs`, `tests/reduce.rs`): a shell script
//! installed as a toolchain of any compiler, the real javac, the sample API, synthesis into a
//! directory and reading JSON lines.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The small API of `tests/fixtures/api-samples/java` (quick to synthesize from).
pub fn sample_api() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/api-samples/java")
}

/// `thalia` with its toolchains in `toolchains`.
pub fn thalia(toolchains: &Path) -> Command {
    let mut c = Command::cargo_bin("thalia").expect("the thalia binary");
    c.env("THALIA_TOOLCHAINS", toolchains);
    c
}

/// The real javac (the JDK's own, following the alternatives symlinks).
pub fn real_javac() -> PathBuf {
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        let p = PathBuf::from(home).join("bin/javac");
        if p.exists() {
            return p;
        }
    }
    let out = std::process::Command::new("sh")
        .args(["-c", "command -v javac"])
        .output()
        .expect("sh runs");
    let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(!p.is_empty(), "no javac on PATH");
    std::fs::canonicalize(&p).unwrap_or_else(|_| PathBuf::from(p))
}

/// Installs the shell script `script` as toolchain `tool@version` (`main_class` is only
/// recorded); returns the script's path.
pub fn install_script(
    toolchains: &Path,
    tool: &str,
    version: &str,
    main_class: &str,
    script: &str,
) -> PathBuf {
    let dir = toolchains.join(tool).join(version);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join(format!("fake-{tool}.sh"));
    std::fs::write(&path, script).expect("write script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let tc = serde_json::json!({
        "tool": tool, "version": version, "classpath": [], "runtime": [],
        "main_class": main_class, "java": path, "coordinate": null,
    });
    std::fs::write(dir.join("toolchain.json"), tc.to_string()).expect("write toolchain");
    path
}

/// Installs a fake groovyc `groovy@version` from the body of a shell `case "$a"` over its
/// arguments (`rc` is its exit code).
pub fn fake_groovyc(toolchains: &Path, version: &str, cases: &str) -> PathBuf {
    install_script(
        toolchains,
        "groovy",
        version,
        "org.codehaus.groovy.tools.FileSystemCompiler",
        &format!("#!/bin/sh\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n{cases}\n  esac\ndone\nexit $rc\n"),
    )
}

/// Synthesizes `n` programs of `lang` in `mode` from the sample API with seed `seed` into
/// `out`.
pub fn synth(toolchains: &Path, lang: &str, mode: &str, seed: u64, n: usize, out: &Path) {
    thalia(toolchains)
        .args(["synth", "--lang", lang, "--mode", mode, "--seed"])
        .arg(seed.to_string())
        .arg("-n")
        .arg(n.to_string())
        .arg("--api")
        .arg(sample_api())
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// Writes `dir/shallow.toml`, a synthesis config with the deep forms off (deep inhabitants,
/// functional operands first, inferred type arguments, related type variables, Groovy's
/// `as`): the short programs that the reduction and clustering tests are about.
pub fn shallow_forms_config(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("shallow.toml");
    std::fs::create_dir_all(dir).expect("config dir");
    std::fs::write(
        &path,
        "[swarm]\ndeep_inhabitants = 0.0\nfunctional_operands = 0.0\ninferred_type_args = 0.0\nrelated_type_vars = 0.0\nas_coercion = 0.0\n",
    )
    .expect("config");
    path
}

/// The JSON lines of a file.
pub fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("readable")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}
