//! Replays the committed fuzz corpora and crash regressions of the extractors crate's fuzz targets
//! (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`) through the same entry points as
//! the targets (`thalia_extractors::fuzzing`): no input may panic. Errors are fine.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Stack of the replay thread: the main thread's (where libFuzzer runs the targets).
const REPLAY_STACK: usize = 8 << 20;

/// Regression inputs whose fix has not landed yet: (target/file, reason). Must be empty once
/// the fixes are on main.
const SKIP: &[(&str, &str)] = &[];

fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
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
fn class_file_corpus_and_regressions_do_not_panic() {
    replay("class_file", thalia_extractors::fuzzing::class_file);
}

#[test]
fn jvm_signature_corpus_and_regressions_do_not_panic() {
    replay("jvm_signature", thalia_extractors::fuzzing::jvm_signature);
}

#[test]
fn maven_pom_corpus_and_regressions_do_not_panic() {
    replay("maven_pom", thalia_extractors::fuzzing::maven_pom);
}

#[test]
fn maven_metadata_corpus_and_regressions_do_not_panic() {
    replay("maven_metadata", thalia_extractors::fuzzing::maven_metadata);
}

#[test]
fn maven_settings_corpus_and_regressions_do_not_panic() {
    replay("maven_settings", thalia_extractors::fuzzing::maven_settings);
}

#[test]
fn javadoc_page_corpus_and_regressions_do_not_panic() {
    replay("javadoc_page", thalia_extractors::fuzzing::javadoc_page);
}

#[test]
fn docs_page_corpus_and_regressions_do_not_panic() {
    replay("docs_page", thalia_extractors::fuzzing::docs_page);
}

#[test]
fn skip_list_names_real_regressions() {
    for (name, reason) in SKIP {
        assert!(!reason.is_empty(), "{name}: skip without a reason");
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/regressions")
            .join(name);
        assert!(
            p.is_file(),
            "skip list names a missing file {}",
            p.display()
        );
    }
}

/// A class file `A` whose class annotation `@B(v = …)` nests `depth` array values (`{{…{1}…}}`)
/// or annotations (`@B(v = @B(v = …))`) around an int.
fn nested_annotation_class(depth: usize, arrays: bool) -> Vec<u8> {
    fn utf8(s: &str) -> Vec<u8> {
        let mut v = vec![1];
        v.extend_from_slice(&(s.len() as u16).to_be_bytes());
        v.extend_from_slice(s.as_bytes());
        v
    }
    let pool: Vec<Vec<u8>> = vec![
        utf8("A"),
        vec![7, 0, 1],
        utf8("java/lang/Object"),
        vec![7, 0, 3],
        utf8("RuntimeVisibleAnnotations"),
        utf8("LB;"),
        utf8("v"),
        vec![3, 0, 0, 0, 1],
    ];
    let level: &[u8] = if arrays {
        &[b'[', 0, 1]
    } else {
        &[b'@', 0, 6, 0, 1, 0, 7]
    };
    let mut anno = vec![0, 1, 0, 6, 0, 1, 0, 7];
    for _ in 0..depth {
        anno.extend_from_slice(level);
    }
    anno.extend_from_slice(&[b'I', 0, 8]);
    let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52];
    out.extend_from_slice(&(pool.len() as u16 + 1).to_be_bytes());
    out.extend(pool.into_iter().flatten());
    out.extend_from_slice(&[0, 0x21, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 5]);
    out.extend_from_slice(&(anno.len() as u32).to_be_bytes());
    out.extend(anno);
    out
}

#[test]
fn nested_annotation_values_are_an_error_not_a_stack_overflow() {
    use thalia_extractors::bytecode::class::MAX_ANNOTATION_DEPTH;
    use thalia_extractors::bytecode::extract_class;
    for arrays in [true, false] {
        let shallow = nested_annotation_class(3, arrays);
        let c = extract_class(&shallow, "A.class").expect("3 levels are fine");
        assert_eq!(c.map(|c| c.name), Some("A".to_string()));
        let at_limit = nested_annotation_class(MAX_ANNOTATION_DEPTH - 1, arrays);
        assert!(extract_class(&at_limit, "A.class").is_ok());
        for depth in [MAX_ANNOTATION_DEPTH + 1, 200_000] {
            let deep = nested_annotation_class(depth, arrays);
            let err = extract_class(&deep, "A.class").expect_err("too deep");
            assert!(
                err.to_string().contains("MAX_ANNOTATION_DEPTH"),
                "{depth} levels: {err}"
            );
        }
    }
}

/// A class file `A` with `depth` `Code` attributes nested in each other (as class attributes).
fn nested_code_class(depth: usize) -> Vec<u8> {
    let mut pool = Vec::new();
    for s in ["A", "java/lang/Object", "Code"] {
        pool.push(1u8);
        pool.extend_from_slice(&(s.len() as u16).to_be_bytes());
        pool.extend_from_slice(s.as_bytes());
        if s != "Code" {
            let index = if s == "A" { 1u8 } else { 3 };
            pool.extend_from_slice(&[7, 0, index]);
        }
    }
    // attribute list k (from the innermost, 0) = count 1, name, length, a `Code` header of
    // 10 bytes and list k-1; list 0 is empty. Written outermost first, in linear time.
    let list_len = |k: usize| 2 + k * 18;
    let mut attrs = Vec::with_capacity(list_len(depth));
    for k in (1..=depth).rev() {
        attrs.extend_from_slice(&[0, 1, 0, 5]);
        attrs.extend_from_slice(&((10 + list_len(k - 1)) as u32).to_be_bytes());
        attrs.extend_from_slice(&[0; 10]);
    }
    attrs.extend_from_slice(&[0, 0]);
    let mut out = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 6];
    out.extend(pool);
    out.extend_from_slice(&[0, 0x21, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0]);
    out.extend(attrs);
    out
}

#[test]
fn nested_attributes_are_an_error_not_a_stack_overflow() {
    use thalia_extractors::bytecode::class::MAX_ATTRIBUTE_DEPTH;
    use thalia_extractors::bytecode::extract_class;
    let err = extract_class(&nested_code_class(100_000), "A.class").expect_err("too deep");
    assert!(err.to_string().contains("MAX_ATTRIBUTE_DEPTH"), "{err}");
    // the class's attribute list is level 1, each `Code` adds one
    let err = extract_class(&nested_code_class(MAX_ATTRIBUTE_DEPTH), "A.class")
        .expect_err("one too deep");
    assert!(err.to_string().contains("MAX_ATTRIBUTE_DEPTH"), "{err}");
    // within the limit the class reads (or fails) for other reasons, never for depth
    if let Err(e) = extract_class(&nested_code_class(MAX_ATTRIBUTE_DEPTH - 1), "A.class") {
        assert!(!e.to_string().contains("MAX_ATTRIBUTE_DEPTH"), "{e}");
    }
}
