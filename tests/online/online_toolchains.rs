//! `online_*`: compiler releases older than the pinned ones install and run (from Maven Central
//! through the user's Maven configuration): kotlinc 1.8.21 (whose jna 5.6.0 jar the zip crate
//! refuses: its layout is checked instead), groovy 4.0.11, scala3 3.3.0 (LTS) and a Groovy
//! pre-release named by its qualifier prefix; `toolchain exec` creates the output directory
//! and writes no colour codes into a pipe; a version no release matches lists the nearest.

use crate::support::toolchains;

use toolchains::{install, thalia};

#[test]
fn online_old_and_pre_releases_install_and_compile() {
    let root = tempfile::tempdir().expect("tempdir");
    let tc = root.path().join("toolchains");
    install(
        &tc,
        &[
            "kotlin@1.8.21",
            "groovy@4.0.11",
            "scala3@3.3.0",
            "groovy@5.0.0-alpha",
        ],
    );
    let list = thalia(&tc)
        .args(["toolchain", "list"])
        .output()
        .expect("thalia runs");
    let list = String::from_utf8_lossy(&list.stdout).into_owned();
    for want in ["1.8.21", "4.0.11", "3.3.0", "5.0.0-alpha-"] {
        assert!(list.contains(want), "{want} is installed:\n{list}");
    }

    // kotlinc 1.8.21 compiles, into an output directory that does not exist yet
    let src = root.path().join("Ok.kt");
    std::fs::write(&src, "fun main() { val x: Long = 1L; println(x) }\n").expect("write");
    let out = root.path().join("kt/classes");
    let run = thalia(&tc)
        .args(["toolchain", "exec", "kotlin@1.8.21", "--", "-d"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("thalia runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(out.join("OkKt.class").exists());

    // scalac 3.3.0 reports a type error without colour codes into a pipe
    let bad = root.path().join("Bad.scala");
    std::fs::write(&bad, "object Bad { val x: Int = \"s\" }\n").expect("write");
    let out = root.path().join("scala/classes");
    let run = thalia(&tc)
        .args(["toolchain", "exec", "scala3@3.3.0", "--", "-d"])
        .arg(&out)
        .arg(&bad)
        .output()
        .expect("thalia runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!run.status.success(), "{text}");
    assert!(
        text.contains("Found:") || text.contains("type mismatch"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no colour codes in a pipe: {text:?}"
    );
    assert!(out.is_dir());

    // no release matches: the nearest are listed
    let miss = thalia(&tc)
        .args(["toolchain", "install", "groovy@4.0.999"])
        .output()
        .expect("thalia runs");
    let err = String::from_utf8_lossy(&miss.stderr).into_owned();
    assert!(!miss.status.success());
    assert!(
        err.contains("nearest releases") && err.contains("4.0."),
        "{err}"
    );
}
