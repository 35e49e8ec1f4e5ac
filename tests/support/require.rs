//! What a test does when a tool it needs (javac, Maven, a compiler's classpath) is missing:
//! CI sets `THALIA_REQUIRE_TOOLS=1` so that the test fails; elsewhere it prints why and
//! skips. Shared by every test binary of the workspace (`support::require`).

#![allow(dead_code)]

/// True when missing tools must fail tests (`THALIA_REQUIRE_TOOLS=1`).
pub fn tools_required() -> bool {
    std::env::var_os("THALIA_REQUIRE_TOOLS").is_some_and(|v| v == "1")
}

/// Reports that `test` cannot run because `why` (e.g. "javac not found on PATH"): panics
/// when tools are required, otherwise prints it; the caller then returns early.
pub fn missing_tool(test: &str, why: &str) {
    if tools_required() {
        panic!("{test}: {why}, and THALIA_REQUIRE_TOOLS=1 makes a missing tool fail the test");
    }
    eprintln!("skipping {test}: {why}");
}

/// Whether bubblewrap can make a sandbox here (else `test` is skipped, or fails under
/// `THALIA_REQUIRE_TOOLS=1`).
pub fn have_sandbox(test: &str) -> bool {
    let ok = std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--unshare-all", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        missing_tool(test, "bubblewrap (`bwrap`) cannot make a sandbox here");
    }
    ok
}
