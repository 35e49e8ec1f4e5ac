//! `thalia fetch --docs` on Kotlin libraries against the real repository (the user's Maven
//! configuration; only the cache is redirected, `THALIA_MAVEN_CACHE`): the Dokka HTML of
//! `io.ktor:ktor-server-core-jvm:3.5.2`'s and `io.ktor:ktor-http-jvm:3.5.2`'s `-javadoc.jar`
//! gives Kotlin-typed APIs that `Api::load_dir` loads (its issues listed and bounded) and
//! `thalia synth --lang kotlin` synthesizes from, compared with the bytecode extraction of the
//! same artifact (`thalia api diff`: every documented class is in the jar). The `-javadoc.jar` of
//! `org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm` (1.10.2, like 1.10.1 and 1.11.0) is an
//! empty stub (a manifest only): `fetch --docs` says so, naming the jar. Dokka 2.2.0 itself
//! (dokka-core, dokka-base and analysis-kotlin-symbols through the resolver; its CLI artifact is
//! not served, so `extractors/tests/fixtures/dokka-src/RunDokka.java` drives `DokkaGenerator`)
//! documents `extractors/tests/fixtures/dokka-src/fx/Fx.kt` in the test, and the pages are
//! checked member by member. The figures are
//! printed (`cargo test --test online_dokka -- --nocapture`). Every test is named `online_...`.

use crate::support::require;

use std::path::{Path, PathBuf};
use std::process::Command as Std;

use assert_cmd::Command;
use serde_json::Value;
use thalia::api::Api;

fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("online-docs-cache")
}

fn fetch(coord: &str, docs: bool, out: &Path) -> (bool, String) {
    let _ = std::fs::remove_dir_all(out);
    let mut cmd = Command::cargo_bin("thalia").unwrap();
    cmd.env("THALIA_MAVEN_CACHE", cache())
        .arg("fetch")
        .arg(coord);
    if docs {
        cmd.arg("--docs");
    }
    let o = cmd.arg("--out").arg(out).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("online-dokka")
        .join(name)
}

/// Fetches `coord` twice (Dokka, bytecode), loads the Dokka API and compares the two.
fn check(coord: &str, name: &str, min_classes: usize) {
    let docs = dir(name).join("docs");
    let (ok, stderr) = fetch(coord, true, &docs);
    assert!(ok, "fetch --docs {coord}: {stderr}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(docs.join("fetch.json")).unwrap()).unwrap();
    assert_eq!(record["api_source"], "javadoc");
    let problems: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    for p in &problems {
        println!("{coord}: {p}");
    }
    // members Dokka prints in forms the reader leaves out, named one by one
    assert!(problems.len() <= 10, "{} problems", problems.len());

    let api = Api::load_dir(&docs).expect("load the Dokka API");
    let r = &api.report;
    assert!(r.classes >= min_classes, "{}", r.summary());
    for i in &r.issues {
        println!("{coord}: load issue: {i}");
    }
    // nothing is skipped; warnings (supertypes outside the artifact, overloads Dokka
    // prints once per source set) are bounded
    assert_eq!(r.error_count(), 0, "{}", r.summary());
    assert!(r.issues.len() * 4 <= r.classes, "{}", r.summary());
    let mut kotlin = 0;
    let mut top_level = 0;
    for e in std::fs::read_dir(&docs).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "json") || p.ends_with("fetch.json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        if v["language"] == "kotlin" {
            kotlin += 1;
        }
        if v["is_class"] == false {
            top_level += 1;
        }
    }
    assert_eq!(kotlin, record["classes"].as_u64().unwrap() as usize);
    assert!(top_level >= 3, "{top_level} package documents");
    println!(
        "{coord}: {} documents ({top_level} packages of top-level declarations) in {:.2} s; {}",
        record["classes"],
        record["extract_seconds"].as_f64().unwrap_or_default(),
        r.summary()
    );

    // programs are synthesized from it
    let synth = dir(name).join("synth");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .args(["synth", "--lang", "kotlin", "-n", "3", "--api"])
        .arg(&docs)
        .arg("--out")
        .arg(&synth)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "synth: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let kt = std::fs::read_dir(&synth)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "kt"))
        })
        .count();
    assert_eq!(kt, 3);

    // the bytecode view of the same artifact: Kotlin's declarations in the JVM's terms
    let bytecode = dir(name).join("bytecode");
    let (ok, stderr) = fetch(coord, false, &bytecode);
    assert!(ok, "fetch {coord}: {stderr}");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .args(["api", "diff"])
        .arg(&docs)
        .arg(&bytecode)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    // every class Dokka documents is a class of the jar (Dokka's package documents are the
    // bytecode's `…Kt` file classes; properties are getters there, suspend functions take a
    // `Continuation`, and types are in Java's terms, so members are not compared)
    let counts = text
        .lines()
        .find(|l| l.starts_with("classes: "))
        .unwrap_or_else(|| panic!("no counts in {text}"));
    let num = |label: &str| -> usize {
        counts
            .split(", ")
            .find_map(|p| p.strip_suffix(label))
            .and_then(|p| p.trim_start_matches("classes: ").trim().parse().ok())
            .unwrap_or_else(|| panic!("{label} in {counts}"))
    };
    let (in_docs, in_both) = (num(" in A"), num(" in both"));
    let class_docs = in_docs - top_level;
    assert!(
        in_both * 100 >= class_docs * 98,
        "{in_both} of {class_docs} documented classes in the jar: {counts}"
    );
    println!(
        "{coord}: api diff docs bytecode:\n{}",
        text.lines().take(12).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn online_ktor_server_core_gives_a_kotlin_api() {
    check(
        "io.ktor:ktor-server-core-jvm:3.5.2",
        "ktor-server-core",
        150,
    );
}

#[test]
fn online_ktor_http_gives_a_kotlin_api() {
    check("io.ktor:ktor-http-jvm:3.5.2", "ktor-http", 50);
}

#[test]
fn online_kotlinx_coroutines_javadoc_jar_is_an_empty_stub() {
    let out = dir("coroutines");
    let (ok, stderr) = fetch(
        "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:1.10.2",
        true,
        &out,
    );
    assert!(!ok);
    assert!(
        stderr.contains("kotlinx-coroutines-core-jvm-1.10.2-javadoc.jar")
            && stderr.contains("no class page of a known documentation layout")
            && stderr.contains("0 pages skipped"),
        "{stderr}"
    );
}

/// The classpath `thalia fetch` resolves for `coord` (the artifact first).
fn classpath(coord: &str, name: &str) -> Vec<String> {
    let out = dir("classpaths").join(name);
    let (ok, stderr) = fetch(coord, false, &out);
    assert!(ok, "fetch {coord}: {stderr}");
    std::fs::read_to_string(out.join("classpath.txt"))
        .unwrap()
        .trim()
        .split(':')
        .map(str::to_string)
        .collect()
}

/// `receiver.name<tps>(params): ret [flags] defaults` of a written method.
fn sig(m: &Value) -> String {
    let list = |v: &Value| -> String {
        v.as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x.as_str().unwrap_or("?").to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    let meta = &m["other_metadata"];
    let mut flags = Vec::new();
    for (k, n) in [
        ("is_suspend", "suspend"),
        ("is_inline", "inline"),
        ("is_operator", "operator"),
    ] {
        if meta[k] == true {
            flags.push(n);
        }
    }
    if m["is_static"] == true {
        flags.push("static");
    }
    format!(
        "{}{}<{}>({}): {} [{}] {}",
        m["receiver"]
            .as_str()
            .map(|r| format!("{r}."))
            .unwrap_or_default(),
        m["name"].as_str().unwrap_or("?"),
        list(&m["type_parameters"]),
        list(&m["parameters"]),
        m["return_type"].as_str().unwrap_or("<ctor>"),
        flags.join(" "),
        meta["defaults"]
    )
}

fn field(f: &Value) -> String {
    format!(
        "{}{} {}: {}{}{}",
        f["receiver"]
            .as_str()
            .map(|r| format!("{r}."))
            .unwrap_or_default(),
        if f["is_final"] == true { "val" } else { "var" },
        f["name"].as_str().unwrap_or("?"),
        f["type"].as_str().unwrap_or("?"),
        if f["is_static"] == true {
            " static"
        } else {
            ""
        },
        if f["is_enum_constant"] == true {
            " entry"
        } else {
            ""
        }
    )
}

#[test]
fn online_dokka_generated_pages_are_read_member_by_member() {
    for tool in ["javac", "java"] {
        if !Std::new(tool)
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            require::missing_tool(
                "online_dokka_generated_pages_are_read_member_by_member",
                &format!("{tool} not found on PATH"),
            );
            return;
        }
    }
    let work = dir("generated");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("extractors/tests/fixtures/dokka-src");
    let core = classpath("org.jetbrains.dokka:dokka-core:2.2.0", "dokka-core");
    let mut plugins = classpath("org.jetbrains.dokka:dokka-base:2.2.0", "dokka-base");
    plugins.extend(classpath(
        "org.jetbrains.dokka:analysis-kotlin-symbols:2.2.0",
        "analysis-kotlin-symbols",
    ));
    // Dokka's analysis needs a newer standard library than dokka-core's own
    let stdlib = classpath("org.jetbrains.kotlin:kotlin-stdlib:2.2.20", "kotlin-stdlib")
        .into_iter()
        .next()
        .unwrap();
    let mut main_cp = vec![stdlib.clone()];
    main_cp.extend(core);
    let main_cp = main_cp.join(":");
    let classes = work.join("classes");
    let o = Std::new("javac")
        .args(["-d"])
        .arg(&classes)
        .args(["-cp", &main_cp])
        .arg(fixture.join("RunDokka.java"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = work.join("html");
    let config = serde_json::json!({
        "moduleName": "fx",
        "outputDir": html,
        "pluginsClasspath": plugins,
        "offlineMode": true,
        "sourceSets": [{
            "displayName": "jvm",
            "sourceSetID": {"scopeId": "fx", "sourceSetName": "main"},
            "sourceRoots": [fixture.join("fx")],
            "classpath": [stdlib],
            "analysisPlatform": "jvm",
            "noStdlibLink": true,
            "noJdkLink": true
        }]
    });
    let config_path = work.join("dokka.json");
    std::fs::write(&config_path, config.to_string()).unwrap();
    let t = std::time::Instant::now();
    let o = Std::new("java")
        .args([
            "-cp",
            &format!("{main_cp}:{}", classes.display()),
            "RunDokka",
        ])
        .arg(&config_path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "Dokka failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    println!(
        "Dokka 2.2.0 documented fx/Fx.kt in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    let api = work.join("api");
    let o = Command::cargo_bin("thalia")
        .unwrap()
        .args(["extract", "--docs"])
        .arg(&html)
        .arg("--out")
        .arg(&api)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("9 dokka") && stderr.contains("0 problems"),
        "{stderr}"
    );
    let loaded = Api::load_dir(&api).expect("load");
    assert_eq!(
        loaded.report.error_count(),
        0,
        "{}",
        loaded.report.summary()
    );

    let doc = |name: &str| -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(api.join(format!("{name}.json")))
                .unwrap_or_else(|e| panic!("{name}: {e}")),
        )
        .unwrap()
    };
    let sigs =
        |d: &Value| -> Vec<String> { d["methods"].as_array().unwrap().iter().map(sig).collect() };
    let fields =
        |d: &Value| -> Vec<String> { d["fields"].as_array().unwrap().iter().map(field).collect() };

    let bx = doc("fx.Box");
    assert_eq!(bx["language"], "kotlin");
    assert_eq!(
        bx["type_parameters"],
        serde_json::json!(["out T : kotlin.Any"])
    );
    assert_eq!(
        bx["inherits"],
        serde_json::json!(["kotlin.Comparable<fx.Box<*>>"])
    );
    assert_eq!(bx["class_type"], 0);
    assert_eq!(
        sigs(&bx),
        [
            // the primary constructor, with a default value
            "Box<>(T, kotlin.String): <ctor> [] [false,true]",
            "compareTo<>(fx.Box<*>): kotlin.Int [operator] [false]",
            "fetch<>(kotlin.Long): T? [suspend] [true]",
            // `Box<@UnsafeVariance T>`: the annotation dropped
            "plus<>(fx.Box<T>): fx.Box<T> [operator] [false]",
        ]
    );
    assert_eq!(
        fields(&bx),
        [
            "var count: kotlin.Int",
            "val label: kotlin.String",
            "val value: T"
        ]
    );

    let companion = doc("fx.Box.Companion");
    assert_eq!(companion["parent"], "fx.Box");
    assert_eq!(companion["kotlin_object"], "companion");
    assert_eq!(
        sigs(&companion),
        ["of<T : kotlin.Any>(vararg T): kotlin.collections.List<fx.Box<T>> [static] [false]"]
    );
    assert_eq!(fields(&companion), ["val MAX: kotlin.Int static"]);

    // a companion named otherwise: Dokka prints `object Factory` on its page and in its
    // class's table, as for a nested object, so it is read as one (its members static,
    // called `Gadget.Factory.create(…)`, which Kotlin accepts)
    let factory = doc("fx.Gadget.Factory");
    assert_eq!(factory["parent"], "fx.Gadget");
    assert_eq!(factory["kotlin_object"], true);
    assert_eq!(
        sigs(&factory),
        ["create<>(kotlin.Int): fx.Gadget [static] [false]"]
    );

    let nested = doc("fx.Box.Nested");
    assert_eq!(nested["parent"], "fx.Box");
    assert_eq!(sigs(&nested), ["Nested<>(kotlin.Int): <ctor> [] [false]"]);

    let registry = doc("fx.Registry");
    assert_eq!(registry["kotlin_object"], true);
    assert_eq!(
        sigs(&registry),
        ["register<>(kotlin.String, (kotlin.Int) -> kotlin.Unit): kotlin.Unit [static] [false,false]"]
    );

    let color = doc("fx.Color");
    assert_eq!(color["class_type"], 3);
    assert_eq!(
        fields(&color),
        [
            "val RED: fx.Color static entry",
            "val GREEN: fx.Color static entry",
            "val entries: kotlin.enums.EnumEntries<fx.Color> static"
        ]
    );

    let shape = doc("fx.Shape");
    assert_eq!(shape["class_type"], 1);
    assert_eq!(sigs(&shape), ["area<>(): kotlin.Double [] []"]);

    let top = doc("fx");
    assert_eq!(top["is_class"], false);
    assert_eq!(
        sigs(&top),
        [
            // Dokka does not print `reified`
            "kotlin.String.parse<T>(): T? [inline] []",
            "withReceiver<R>(kotlin.text.StringBuilder.(kotlin.Int) -> R): R [] [false]",
        ]
    );
    assert_eq!(fields(&top), ["kotlin.String.val shout: kotlin.String"]);
}
