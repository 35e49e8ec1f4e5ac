//! The compile worker's pipeline: the compiler under test works on the next batch while the
//! last one is judged, compiled by the other compilers and stored.

use std::path::Path;

use crate::support::fake;

use fake::{install_script, synth, thalia};

/// Installs a fake groovyc `groovy@version` that appends `begin` to `log`, waits `pause`
/// seconds, appends `end` and accepts every file.
fn logging_groovyc(
    toolchains: &Path,
    version: &str,
    log: &Path,
    begin: &str,
    end: &str,
    pause: u32,
) {
    let log = log.display();
    install_script(
        toolchains,
        "groovy",
        version,
        "org.codehaus.groovy.tools.FileSystemCompiler",
        &format!(
            "#!/bin/sh\necho '{begin}' >> '{log}'\nsleep {pause}\necho '{end}' >> '{log}'\nexit 0\n"
        ),
    );
}

/// With another compiler (`--against`) slower than the one under test, the compiler under
/// test starts on the next batch while the other one still compiles the last. One after
/// another (the worker before its pipeline), the other compiler's invocation on a batch
/// ended before the next batch's compilation began.
#[test]
fn the_compiler_compiles_the_next_batch_while_the_last_is_judged() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 5, 120, &programs);
    let log = root.path().join("compilers.log");
    logging_groovyc(&toolchains, "under-test", &log, "test-begin", "test-end", 0);
    logging_groovyc(&toolchains, "other", &log, "other-begin", "other-end", 2);
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args([
            "--compiler",
            "groovy@under-test",
            "--against",
            "groovy@other",
            "--no-twin",
            "--no-oracle",
            "--no-recheck",
            "--no-feedback",
            "--no-compiler-flags",
            "--batch-size",
            "30",
            "-j",
            "1",
            "--out",
        ])
        .arg(root.path().join("run"))
        .assert()
        .success();
    let text = std::fs::read_to_string(&log).expect("the compilers ran");
    let events: Vec<&str> = text.lines().collect();
    assert_eq!(
        events.iter().filter(|e| **e == "test-begin").count(),
        4,
        "one invocation per batch: {events:?}"
    );
    // one after another, the first batch's other compilation ends before the second batch's
    // compilation begins; in the pipeline the second begins while the other one sleeps
    let position = |what: &str, nth: usize| {
        events
            .iter()
            .enumerate()
            .filter(|(_, e)| **e == what)
            .nth(nth)
            .map(|(i, _)| i)
            .expect("logged")
    };
    assert!(
        position("test-begin", 1) < position("other-end", 0),
        "the compiler under test waited for the other compiler: {events:?}"
    );
}
