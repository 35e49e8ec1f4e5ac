//! The ill-typed oracle's table of Groovy extension methods
//! (`src/synth/typing/groovy-extension-methods.tsv`) against real Groovy: `thalia toolchain install`
//! fetches groovy 4 and 5 from Maven Central through the user's Maven configuration (this test
//! needs that network access), and `src/synth/typing/groovy-extension-methods.groovy` prints what
//! each one's static type checker sees. Every such method must be in the table, or
//! synthesis would break a position that Groovy fills with an extension method (an ill-typed
//! program groovyc accepts: a false alarm).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::toolchains;
use toolchains::install;

/// The Groovy versions the table was made from.
const PINNED: [&str; 2] = ["groovy@4.0.33", "groovy@5.1.3"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The rows of a table (comments and blank lines left out).
fn rows(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Runs the dump script with an installed Groovy's jars.
fn extension_methods(toolchain: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(toolchain.join("toolchain.json")).expect("toolchain.json");
    let tc: Value = serde_json::from_str(&text).expect("toolchain.json is JSON");
    let cp: Vec<&str> = tc["runtime"]
        .as_array()
        .expect("a runtime classpath")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let java = tc["java"].as_str().unwrap_or("java");
    let out = std::process::Command::new(java)
        .arg("-cp")
        .arg(cp.join(":"))
        .arg("groovy.ui.GroovyMain")
        .arg(root().join("src/synth/typing/groovy-extension-methods.groovy"))
        .output()
        .expect("java runs");
    assert!(
        out.status.success(),
        "{}: the dump script failed:\n{}",
        toolchain.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    rows(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn online_the_groovy_extension_table_covers_what_groovyc_sees() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let toolchains = tmp.path().join("toolchains");
    install(&toolchains, &PINNED);
    let table = rows(
        &std::fs::read_to_string(root().join("src/synth/typing/groovy-extension-methods.tsv"))
            .expect("the table"),
    );
    for pinned in PINNED {
        let version = pinned.trim_start_matches("groovy@");
        let seen = extension_methods(&toolchains.join("groovy").join(version));
        assert!(seen.len() > 1000, "{pinned}: only {} rows", seen.len());
        let missing: Vec<&String> = seen.difference(&table).collect();
        assert!(
            missing.is_empty(),
            "{pinned}: {} extension methods missing from the table (regenerate it):\n{}",
            missing.len(),
            missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
        println!(
            "{pinned}: {} extension methods, all in the table",
            seen.len()
        );
    }
}
