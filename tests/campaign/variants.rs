//! Compiler variants as differential oracles (`--against NAME@VERSION:VARIANT`, `:VARIANT`
//! for the compiler under test): Groovy's `@TypeChecked` against `@CompileStatic` (the
//! variant compiles rewritten sources) and Kotlin's K1 against K2 (the variant adds flags).
//! Fake compilers with verdicts known in advance: one that rejects what it sees as
//! `@TypeChecked`, one that rejects everything under `-language-version 1.9`.

use crate::support::fake;

use fake::{fake_groovyc, install_script, lines, synth, thalia};

#[test]
fn groovy_type_checked_against_compile_static_compiles_rewritten_sources() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, 4, &programs);
    // rejects a file only when it is annotated @TypeChecked
    fake_groovyc(
        &toolchains,
        "7.0",
        "    *.groovy)\n      if grep -q TypeChecked \"$a\"; then echo \"file://$a: 3: [Static type checking] - injected @ line 3, column 1.\"; rc=1; fi\n      ;;",
    );
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "groovy@7.0", "--against", ":type-checked"])
        .args(["--no-twin", "-j", "1", "--out"])
        .arg(&store)
        .assert()
        .success();
    let results = lines(&store.join("results.jsonl"));
    assert_eq!(results.len(), 4);
    for r in &results {
        // the program itself (@CompileStatic) is accepted
        assert!(r["finding"].is_null(), "{r}");
        let diff = r["differential"].as_array().cloned().unwrap_or_default();
        assert_eq!(diff.len(), 1, "{r}");
        assert_eq!(diff[0]["kind"], "disagrees", "{r}");
        assert_eq!(diff[0]["against"], "groovy@7.0:type-checked", "{r}");
    }
    // the variant's finding keeps the program as the variant compiled it
    let dir = store.join("bugs").join("groovy@7.0:type-checked");
    let bug = std::fs::read_dir(&dir)
        .expect("the variant's findings")
        .flatten()
        .next()
        .expect("one finding")
        .path();
    let program = std::fs::read_dir(&bug)
        .expect("finding dir")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "groovy"))
        .expect("the program");
    let text = std::fs::read_to_string(program).expect("source");
    assert!(text.contains("@groovy.transform.TypeChecked"), "{text}");
    assert!(!text.contains("CompileStatic"), "{text}");
    let manifest = std::fs::read_to_string(store.join("manifest.json")).expect("manifest");
    assert!(
        manifest.contains("\"variant\": \"type-checked\""),
        "{manifest}"
    );
}

#[test]
fn kotlin_k1_against_k2_adds_the_variants_flags() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "kotlin", "well-typed", 2, 3, &programs);
    // every .kt file is rejected under `-language-version 1.9`, accepted otherwise
    install_script(
        &toolchains,
        "kotlin",
        "2.1.0",
        "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
        "#!/bin/sh\nk1=0\nprev=\nfor a in \"$@\"; do\n  [ \"$prev\" = -language-version ] && [ \"$a\" = 1.9 ] && k1=1\n  prev=$a\ndone\n[ $k1 -eq 0 ] && exit 0\nrc=0\nfor a in \"$@\"; do\n  case \"$a\" in\n    *.kt) echo \"$a:3:5: error: injected\"; rc=1 ;;\n  esac\ndone\nexit $rc\n",
    );
    let store = root.path().join("store");
    thalia(&toolchains)
        .arg("check")
        .arg(&programs)
        .args(["--compiler", "kotlin@2.1.0", "--against", "kotlin@2.1.0:k1"])
        .args(["--no-twin", "--no-oracle", "-j", "1", "--out"])
        .arg(&store)
        .assert()
        .success();
    let results = lines(&store.join("results.jsonl"));
    assert_eq!(results.len(), 3);
    for r in &results {
        let diff = r["differential"].as_array().cloned().unwrap_or_default();
        assert_eq!(diff.len(), 1, "{r}");
        assert_eq!(diff[0]["against"], "kotlin@2.1.0:k1", "{r}");
        assert_eq!(diff[0]["verdict"], "rejected", "{r}");
    }
    // the reproduction command of the variant's finding carries its flags
    let dir = store.join("bugs").join("kotlin@2.1.0:k1");
    let bug = std::fs::read_dir(&dir)
        .expect("the variant's findings")
        .flatten()
        .next()
        .expect("one finding")
        .path();
    let repro = std::fs::read_to_string(bug.join("repro.sh")).expect("repro.sh");
    assert!(repro.contains("-language-version 1.9"), "{repro}");
}

#[test]
fn a_variant_of_another_compiler_or_the_compiler_itself_is_refused() {
    let root = tempfile::tempdir().expect("tempdir");
    let toolchains = root.path().join("toolchains");
    let programs = root.path().join("programs");
    synth(&toolchains, "groovy", "well-typed", 1, 1, &programs);
    fake_groovyc(&toolchains, "7.0", "");
    for (against, needle) in [
        (":k1", "kotlin"),
        ("groovy@7.0", "itself"),
        (":nope", "unknown"),
    ] {
        thalia(&toolchains)
            .arg("check")
            .arg(&programs)
            .args([
                "--compiler",
                "groovy@7.0",
                "--against",
                against,
                "--no-twin",
            ])
            .arg("--out")
            .arg(root.path().join("store"))
            .assert()
            .failure()
            .stderr(predicates::str::contains(needle));
    }
}
