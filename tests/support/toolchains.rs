//! Installing the pinned compilers for the online tests: `thalia toolchain install` into a
//! test's own `THALIA_TOOLCHAINS`, from Maven Central through the user's Maven configuration.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The compiler versions the figures of docs/results/ were measured with, from
/// `pinned-toolchains.txt` (which `scripts/test.sh` reads too).
pub fn pinned() -> Vec<&'static str> {
    include_str!("pinned-toolchains.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// `thalia` with its toolchains in `toolchains`.
pub fn thalia(toolchains: &Path) -> Command {
    let mut c = Command::cargo_bin("thalia").expect("the thalia binary");
    c.env("THALIA_TOOLCHAINS", toolchains);
    c
}

/// Installs `specs` (`NAME[@VERSION]`) into `toolchains`; panics with thalia's message when
/// it fails.
pub fn install(toolchains: &Path, specs: &[&str]) {
    let out = thalia(toolchains)
        .args(["toolchain", "install"])
        .args(specs)
        .output()
        .expect("thalia runs");
    assert!(
        out.status.success(),
        "install failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A directory kept for the test binary's lifetime (the OS cleans it), with compilers
/// installed in its `toolchains/`.
pub struct Setup {
    /// The directory.
    pub root: PathBuf,
    /// `root/toolchains`, the `THALIA_TOOLCHAINS` of the tests.
    pub toolchains: PathBuf,
}

impl Setup {
    /// A new directory with `specs` installed.
    pub fn new(specs: &[&str]) -> Setup {
        let root = tempfile::tempdir().expect("tempdir").keep();
        let toolchains = root.join("toolchains");
        install(&toolchains, specs);
        Setup { root, toolchains }
    }
}

/// `sh` on a finding's `repro.sh` as a user runs it: the test build's `thalia` as `THALIA`,
/// which runs the compilers installed in `toolchains`.
pub fn repro(script: &Path, toolchains: &Path) -> std::process::Command {
    let mut c = std::process::Command::new("sh");
    c.arg(script)
        .env("THALIA", assert_cmd::cargo::cargo_bin("thalia"))
        .env("THALIA_TOOLCHAINS", toolchains);
    c
}
