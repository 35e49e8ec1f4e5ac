//! Entry points shared by the `cargo fuzz` targets in `fuzz/` and their replay tests
//! (`extractors/tests/fuzz_corpus.rs`): each takes arbitrary bytes, drives one input-facing
//! reader of this crate the way extraction and resolution do, and must never panic (errors are
//! fine).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bytecode::signature::{
    erased_descriptor, parse_class_signature, parse_field_signature, parse_method_signature, subst,
    subst_for, NameMap, Printer,
};
use crate::bytecode::{extract_archives, extract_class, module_exports, ExtractOptions};
use crate::bytecode::{signature::JType, RawArchive};
use crate::maven::pom::{assemble, inject_management, RawPom};
use crate::maven::repo::{parse_settings, DiscoverOptions};
use crate::maven::version::{is_range, VersionRange};
use crate::maven::{Coordinate, Metadata};

/// The most POMs one [`maven_pom`] input holds (the POM, its parent, grandparent, …).
pub const MAX_LINEAGE: usize = 4;

/// Fuzz target `class_file`: one class file's bytes → its record ([`extract_class`], and
/// [`module_exports`] as for a `module-info`), then that record assembled into API JSON
/// documents ([`extract_archives`]) as `thalia extract` does.
pub fn class_file(data: &[u8]) {
    let _ = module_exports(data);
    let Ok(Some(class)) = extract_class(data, "Fuzz.class") else {
        return;
    };
    let archive = RawArchive {
        path: PathBuf::from("fuzz.jar"),
        classes: vec![class],
        class_files: 1,
        ..RawArchive::default()
    };
    let opts = ExtractOptions {
        exported_only: false,
        ..ExtractOptions::default()
    };
    let extraction = extract_archives(&[archive], &opts);
    for doc in &extraction.docs {
        let _ = crate::io::render_class_doc(doc);
    }
}

/// Fuzz target `jvm_signature`: a JVMS generic signature or descriptor, parsed, printed in
/// Java syntax, substituted and erased.
///
/// Byte 0 selects the grammar (`% 3`: class, method, field signature); the rest is the
/// signature (invalid UTF-8 replaced).
pub fn jvm_signature(data: &[u8]) {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let names = NameMap::new();
    let printer = Printer { names: &names };
    let mut out = String::new();
    match head % 3 {
        0 => {
            if let Ok(sig) = parse_class_signature(&text) {
                let s = subst_for(&sig.type_params, &[]);
                for p in &sig.type_params {
                    let _ = printer.type_param(p);
                }
                for t in std::iter::once(&sig.superclass).chain(&sig.interfaces) {
                    let _ = printer.ty(&subst(t, &s));
                    erased_descriptor(&mut out, t, &[&sig.type_params]);
                }
            }
        }
        1 => {
            if let Ok(sig) = parse_method_signature(&text) {
                let s = subst_for(&sig.type_params, &[]);
                for p in &sig.type_params {
                    let _ = printer.type_param(p);
                }
                let last = sig.params.len().saturating_sub(1);
                for (i, t) in sig.params.iter().enumerate() {
                    let _ = printer.param(&subst(t, &s), i == last);
                    erased_descriptor(&mut out, t, &[&sig.type_params]);
                }
                for t in std::iter::once(&sig.ret).chain(&sig.throws) {
                    let _ = printer.ty(t);
                    if *t != JType::Void {
                        erased_descriptor(&mut out, t, &[&sig.type_params]);
                    }
                }
            }
        }
        _ => {
            if let Ok(t) = parse_field_signature(&text) {
                let _ = printer.ty(&t);
                erased_descriptor(&mut out, &t, &[]);
            }
        }
    }
}

fn check_version(v: &str) {
    if is_range(v) {
        if let Ok(r) = VersionRange::parse(v) {
            let _ = r.contains("1.0");
        }
    }
}

/// Fuzz target `maven_pom`: up to [`MAX_LINEAGE`] POMs separated by NUL bytes (a POM, then its
/// parent, …) parsed and assembled into the effective POM (inheritance, interpolation,
/// dependency management) as the resolver does; version ranges of the dependencies parsed.
pub fn maven_pom(data: &[u8]) {
    let mut lineage = Vec::new();
    for part in data.split(|&b| b == 0).take(MAX_LINEAGE) {
        let text = String::from_utf8_lossy(part);
        match RawPom::parse(&text, "fuzz:pom:1", "fuzz.pom", None) {
            Ok(raw) => lineage.push(Arc::new(raw)),
            Err(_) => break,
        }
    }
    if lineage.is_empty() {
        return;
    }
    let requested = Coordinate::new("fuzz", "pom", Some("1"));
    let Ok(mut pom) = assemble(&lineage, &requested, "fuzz.pom") else {
        return;
    };
    inject_management(&mut pom);
    for d in pom.dependencies.iter().chain(&pom.managed) {
        if let Some(v) = &d.version {
            check_version(v);
        }
        let _ = d.coordinate();
    }
}

/// Fuzz target `maven_metadata`: a `maven-metadata.xml` merged into [`Metadata`], its latest
/// release picked and its versions read as ranges.
pub fn maven_metadata(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut m = Metadata::default();
    if m.merge_file(&text, "fuzz:meta", "maven-metadata.xml")
        .is_err()
    {
        return;
    }
    let _ = m.latest_release();
    for v in &m.versions {
        check_version(v);
    }
}

/// Fuzz target `maven_settings`: a `settings.xml` parsed as repository discovery reads it (with
/// a fixed home directory and environment, whose variables `FUZZ_SELF` and `FUZZ_OTHER` have
/// values that refer to variables in turn).
pub fn maven_settings(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let opts = DiscoverOptions {
        home: Some(PathBuf::from("/home/fuzz")),
        cwd: Some(PathBuf::from("/srv/fuzz")),
        env: [
            ("FUZZ", "value"),
            ("FUZZ_SELF", "${env.FUZZ_SELF}"),
            ("FUZZ_OTHER", "x${env.FUZZ}${env.FUZZ_SELF}"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
        ..DiscoverOptions::default()
    };
    let _ = parse_settings(&text, Path::new("settings.xml"), &opts);
}

/// Fuzz target `javadoc_page`: the bytes as one documentation page (layout detection, the
/// layout's reader, the declaration parsers, the document built) and as the
/// `allclasses-index.html` that lists pages ([`crate::docs::extract_pages`]); also named as a
/// Dokka class page (`p/-fuzz/index.html`), since Dokka's other pages are not parsed.
pub fn javadoc_page(data: &[u8]) {
    let x = crate::docs::extract_pages(
        vec![
            ("p/Fuzz.html".to_string(), Ok(data.to_vec())),
            ("p/-fuzz/index.html".to_string(), Ok(data.to_vec())),
        ],
        Some(("allclasses-index.html".to_string(), data.to_vec())),
    );
    for d in &x.docs {
        let _ = crate::io::render_class_doc(d);
    }
}

/// Fuzz target `docs_page`: one documentation page read by the reader of the layout that byte
/// 0 selects (`% 6`, in the order of [`crate::docs::Layout::ALL`]: javadoc 21+, 17, 8,
/// Scaladoc 3, 2, Dokka), skipping layout detection, so that every reader meets every input;
/// the document built is rendered. The rest is the page (invalid UTF-8 replaced).
///
/// It also checks the HTML parser's attribute pre-scan against the parse: no element of the
/// tree holds more attributes than [`crate::docs::html::max_tag_attributes`] says a tag can
/// have (`<html>` and `<body>` excepted: a repeated tag adds its attributes to them). A
/// violation panics, which the fuzzer reports.
pub fn docs_page(data: &[u8]) {
    use crate::docs::{html, Layout};
    let Some((&head, page)) = data.split_first() else {
        return;
    };
    let layout = Layout::ALL[head as usize % Layout::ALL.len()];
    if let Ok(Some((doc, _))) = crate::docs::read_one_page(layout, page) {
        let _ = crate::io::render_class_doc(&doc);
    }
    let text = String::from_utf8_lossy(page);
    let Ok(tree) = html::parse_page(&text) else {
        return;
    };
    let bound = html::max_tag_attributes(&text);
    for node in tree.tree.root().descendants() {
        let Some(e) = node.value().as_element() else {
            continue;
        };
        if matches!(e.name(), "html" | "body") {
            continue;
        }
        let n = e.attrs().count();
        assert!(
            n <= bound,
            "<{}> has {n} attributes, more than the pre-scan's bound {bound}",
            e.name()
        );
    }
}
