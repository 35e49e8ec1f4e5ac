//! `online_*`: the compiler bugs this tool found (`TH*` entries of `known-findings/`, and the
//! groovyc causes RB15-RB17 its campaigns found) are real.
//! Each entry's minimal program is compiled with every release of its compiler (groovyc,
//! kotlinc) that the entry names
//! (`affected`: the bug shows; `unaffected`: it does not) and its Java reading with javac,
//! which must judge it the other way. A rejection must also carry the entry's diagnostic, so
//! that a campaign's finding of it is labelled with the entry.

use crate::support::require;
use crate::support::toolchains;

use std::path::Path;
use std::process::Command;

use thalia::api::source::ApiSource;
use thalia::campaign::known::KnownSet;
use thalia::campaign::FindingKind;
use toolchains::{install, thalia};

/// The verdict of `tool` on `file` (compiled alone, with `classpath`): accepted, and the
/// compiler's output.
fn compile(tc: &Path, tool: &str, file: &Path, classpath: &str, out: &Path) -> (bool, String) {
    let run = if tool == "javac" {
        Command::new("javac")
            .args(["-d"])
            .arg(out)
            .args(["-cp", classpath])
            .arg(file)
            .output()
            .expect("javac runs")
    } else {
        thalia(tc)
            .args(["toolchain", "exec", tool, "--", "-d"])
            .arg(out)
            .args(["-cp", classpath])
            .arg(file)
            .output()
            .expect("thalia runs")
    };
    let text =
        String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    (run.status.success(), text)
}

/// True when `text` contains the parts of `pattern` between its `*`s in order (the entries'
/// diagnostics globs are matched against the first diagnostic; this reads the whole output).
fn wild(pattern: &str, text: &str) -> bool {
    let mut rest = text;
    for part in pattern.split('*').filter(|p| !p.is_empty()) {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn online_the_compiler_bugs_found_by_this_tool_reproduce_and_javac_judges_them_otherwise() {
    if Command::new("javac").arg("-version").output().is_err() {
        require::missing_tool("online_known", "javac not found on PATH");
        return;
    }
    let known = KnownSet::embedded().expect("the embedded known findings");
    let ours: Vec<_> = known
        .entries()
        .filter(|e| e.id.starts_with("TH") || ["RB15", "RB16", "RB17"].contains(&e.id.as_str()))
        .cloned()
        .collect();
    assert!(ours.len() >= 5, "{} TH entries", ours.len());
    let tmp = tempfile::tempdir().expect("tempdir");
    let tc = tmp.path().join("toolchains");
    let mut releases: Vec<String> = ours
        .iter()
        .flat_map(|e| {
            e.affected
                .iter()
                .chain(&e.unaffected)
                .map(move |v| format!("{}@{v}", e.compiler))
        })
        .collect();
    releases.sort();
    releases.dedup();
    let specs: Vec<&str> = releases.iter().map(String::as_str).collect();
    install(&tc, &specs);
    // commons-lang3, which some programs use, as `thalia check` resolves it
    let classpath = ApiSource::Embedded
        .classpath(&[], false)
        .expect("the embedded libraries resolve")
        .unwrap_or_default();
    for e in &ours {
        // the entry's own libraries (guava for RB15) besides the embedded ones
        let classpath = if e.libraries.is_empty() {
            classpath.clone()
        } else {
            let jars = thalia::toolchain::library_jars(&e.libraries, &[], false)
                .unwrap_or_else(|err| panic!("{}: its libraries: {err}", e.id));
            let mut all: Vec<std::path::PathBuf> = std::env::split_paths(&classpath).collect();
            all.extend(jars);
            std::env::join_paths(all)
                .expect("a classpath")
                .to_string_lossy()
                .into_owned()
        };
        let dir = tmp.path().join(&e.id);
        std::fs::create_dir_all(dir.join("out")).expect("mkdir");
        let ext = match e.compiler.as_str() {
            "kotlin" => "kt",
            "scala2" | "scala3" => "scala",
            _ => "groovy",
        };
        let (source, java) = (dir.join(format!("Main.{ext}")), dir.join("Main.java"));
        std::fs::write(&source, &e.program).expect("write");
        std::fs::write(&java, e.java.as_deref().expect("a Java reading")).expect("write");
        let accepts = e.kind == Some(FindingKind::UnexpectedAcceptance);
        let (javac_ok, javac_out) = compile(&tc, "javac", &java, &classpath, &dir.join("out"));
        assert_eq!(javac_ok, !accepts, "{}: javac\n{javac_out}", e.id);
        for (versions, shows) in [(&e.affected, true), (&e.unaffected, false)] {
            for v in versions {
                let tool = format!("{}@{v}", e.compiler);
                let (ok, text) = compile(&tc, &tool, &source, &classpath, &dir.join("out"));
                let buggy = ok == accepts;
                assert_eq!(buggy, shows, "{} on {tool}:\n{text}", e.id);
                if shows && !accepts && !e.diagnostics.is_empty() {
                    let matched = e.diagnostics.iter().any(|d| wild(d, &text));
                    assert!(matched, "{} on {tool}: no diagnostic matches\n{text}", e.id);
                }
            }
        }
    }
}
