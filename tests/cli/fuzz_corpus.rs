//! Replays the committed fuzz corpora and crash regressions of the core's fuzz targets
//! (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`) through the same entry points as
//! the targets (`thalia::fuzzing`): no input may panic. Errors are fine.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Stack of the replay thread: the main thread's (where libFuzzer runs the targets).
const REPLAY_STACK: usize = 8 << 20;

/// Regression inputs whose fix has not landed yet: (target/file, reason). Must be empty once
/// the fixes are on main.
const SKIP: &[(&str, &str)] = &[];

fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_file() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn replay(target: &'static str, run: fn(&[u8])) {
    let files = inputs(target);
    assert!(!files.is_empty(), "no corpus for fuzz target {target}");
    let failures = std::thread::Builder::new()
        .stack_size(REPLAY_STACK)
        .spawn(move || {
            let mut failures = Vec::new();
            for f in &files {
                let name = format!(
                    "{target}/{}",
                    f.file_name().unwrap_or_default().to_string_lossy()
                );
                if SKIP.iter().any(|(s, _)| *s == name) {
                    eprintln!("skipped {name}");
                    continue;
                }
                let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
                    failures.push(f.display().to_string());
                }
            }
            failures
        })
        .expect("spawn replay thread")
        .join()
        .expect("replay thread");
    assert!(failures.is_empty(), "inputs that panic: {failures:#?}");
}

#[test]
fn type_string_corpus_and_regressions_do_not_panic() {
    replay("type_string", thalia::fuzzing::type_string);
}

#[test]
fn api_json_corpus_and_regressions_do_not_panic() {
    replay("api_json", thalia::fuzzing::api_json);
}

#[test]
fn results_line_corpus_and_regressions_do_not_panic() {
    replay("results_line", thalia::fuzzing::results_line);
}

#[test]
fn finding_json_corpus_and_regressions_do_not_panic() {
    replay("finding_json", thalia::fuzzing::finding_json);
}

#[test]
fn program_ir_corpus_and_regressions_do_not_panic() {
    replay("program_ir", thalia::fuzzing::program_ir);
}

#[test]
fn summary_json_corpus_and_regressions_do_not_panic() {
    replay("summary_json", thalia::fuzzing::summary_json);
}

#[test]
fn batch_list_corpus_and_regressions_do_not_panic() {
    replay("batch_list", thalia::fuzzing::batch_list);
}

#[test]
fn skip_list_names_real_regressions() {
    for (name, reason) in SKIP {
        assert!(!reason.is_empty(), "{name}: skip without a reason");
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions")
            .join(name);
        assert!(
            p.is_file(),
            "skip list names a missing file {}",
            p.display()
        );
    }
}
