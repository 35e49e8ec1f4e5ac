//! The Dokka reader on pages cut from a real Dokka site: `tests/fixtures/dokka-ktor/` holds ten
//! pages of `io.ktor:ktor-server-core-jvm:3.5.2`'s `-javadoc.jar` (Dokka 2, unchanged: a
//! package page of extension functions and properties, the package page of
//! `io.ktor.server.engine` with varargs and top-level functions, a class with a primary
//! constructor and a default value, a nested object, an enum, a generic class whose supertype
//! has a `suspend` function type, a class with a companion object and the companion's page, an
//! interface, and a member's page): real output of a real library, offline (Dokka itself runs
//! on a fixture in `tests/online_dokka.rs`, which needs the resolver). Checked member by
//! member; then hostile pages (cut, enormous, of no layout, nested 100,000 or 200 deep) are named and
//! skipped.

use std::path::Path;

use thalia_extractors::docs::{extract_docs, extract_pages, MAX_PAGE_BYTES};
use thalia_extractors::{ClassDoc, KotlinObjectMark, MethodDoc, ParamDefaults};

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dokka-ktor")
}

fn doc<'a>(docs: &'a [ClassDoc], name: &str) -> &'a ClassDoc {
    docs.iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no document {name}"))
}

/// `receiver.name<tps>(params): ret [suspend inline operator static] defaults`.
fn sig(m: &MethodDoc) -> String {
    let meta = m.other_metadata.clone().unwrap_or_default();
    let mut flags = Vec::new();
    for (flag, n) in [
        (meta.is_suspend, "suspend"),
        (meta.is_inline, "inline"),
        (meta.is_operator, "operator"),
    ] {
        if flag == Some(true) {
            flags.push(n);
        }
    }
    if m.is_static == Some(true) {
        flags.push("static");
    }
    let defaults: Vec<bool> = match meta.defaults {
        Some(ParamDefaults::PerParameter(flags)) => flags,
        _ => Vec::new(),
    };
    format!(
        "{}{}<{}>({}): {} [{}] {:?}",
        m.receiver
            .clone()
            .flatten()
            .map(|r| format!("{r}."))
            .unwrap_or_default(),
        m.name,
        m.type_parameters.clone().unwrap_or_default().join(", "),
        m.parameters.join(", "),
        m.return_type
            .clone()
            .flatten()
            .unwrap_or_else(|| "<ctor>".into()),
        flags.join(" "),
        defaults
    )
}

fn sigs(d: &ClassDoc) -> Vec<String> {
    d.methods().iter().map(sig).collect()
}

fn fields(d: &ClassDoc) -> Vec<String> {
    d.fields()
        .iter()
        .map(|f| {
            format!(
                "{}{} {}: {}{}{}",
                f.receiver
                    .clone()
                    .flatten()
                    .map(|r| format!("{r}."))
                    .unwrap_or_default(),
                if f.is_final == Some(true) {
                    "val"
                } else {
                    "var"
                },
                f.name,
                f.ty,
                if f.is_static == Some(true) {
                    " static"
                } else {
                    ""
                },
                if f.is_enum_constant == Some(true) {
                    " entry"
                } else {
                    ""
                },
            )
        })
        .collect()
}

#[test]
fn ktor_pages_are_read_member_by_member() {
    let x = extract_docs(&fixture()).expect("extract the Dokka fixture");
    assert!(x.problems.is_empty(), "{:?}", x.problems);
    assert_eq!(x.stats.layouts.get("dokka"), Some(&9), "{:?}", x.stats);
    let names: Vec<&str> = x.docs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "io.ktor.server.application.ApplicationCall",
            "io.ktor.server.application.ApplicationStartupMode",
            "io.ktor.server.application.hooks.BeforeResponseTransform",
            "io.ktor.server.engine",
            "io.ktor.server.engine.ConnectorType",
            "io.ktor.server.engine.ConnectorType.Companion",
            "io.ktor.server.request",
            "io.ktor.server.request.ApplicationReceivePipeline",
            "io.ktor.server.request.ApplicationReceivePipeline.Phases",
        ]
    );
    for d in &x.docs {
        assert_eq!(d.language.as_deref(), Some("kotlin"), "{}", d.name);
    }

    // top-level declarations: a document named after the package, not a class
    let req = doc(&x.docs, "io.ktor.server.request");
    assert_eq!(req.is_class, Some(false));
    let s = sigs(req);
    for want in [
        // an inline suspend extension with a bounded type parameter (Dokka does not print
        // `reified`)
        "io.ktor.server.application.ApplicationCall.receive<T : kotlin.Any>(): T [suspend inline] []",
        "io.ktor.server.application.ApplicationCall.receive<T>(io.ktor.util.reflect.TypeInfo): T [suspend] [false]",
        "io.ktor.server.application.ApplicationCall.receive<T : kotlin.Any>(kotlin.reflect.KClass<T>): T [suspend] [false]",
        "io.ktor.server.application.ApplicationCall.receiveNullable<T>(): T? [suspend inline] []",
        // a default value
        "io.ktor.server.application.ApplicationCall.receiveMultipart<>(kotlin.Long): io.ktor.http.content.MultiPartData [suspend inline] [true]",
        "io.ktor.server.request.ApplicationRequest.header<>(kotlin.String): kotlin.String? [] [false]",
    ] {
        assert!(s.contains(&want.to_string()), "missing {want} in {s:#?}");
    }
    let f = fields(req);
    for want in [
        "io.ktor.server.request.ApplicationRequest.val uri: kotlin.String",
        // a `var` extension property
        "io.ktor.server.application.ApplicationCall.var formFieldLimit: kotlin.Long",
    ] {
        assert!(f.contains(&want.to_string()), "missing {want} in {f:#?}");
    }
    assert!(req.methods().iter().all(|m| m.is_static == Some(false)));

    // varargs, function types with receivers, `suspend` function types, star projections
    let eng = doc(&x.docs, "io.ktor.server.engine");
    let s = sigs(eng);
    for want in [
        "io.ktor.server.engine.ApplicationEnvironmentBuilder.configure<>(vararg kotlin.String): kotlin.Unit [] [false]",
        "io.ktor.server.engine.EmbeddedServer<*, *>.addShutdownHook<>(() -> kotlin.Unit): kotlin.Unit [] [false]",
        "kotlinx.coroutines.Job.launchOnCancellation<>(suspend () -> kotlin.Unit): kotlinx.coroutines.CompletableJob [] [false]",
        "embeddedServer<TEngine : io.ktor.server.engine.ApplicationEngine, TConfiguration : io.ktor.server.engine.ApplicationEngine.Configuration>(io.ktor.server.engine.ApplicationEngineFactory<TEngine, TConfiguration>, kotlin.Int, kotlin.String, kotlin.collections.List<kotlin.String>, suspend io.ktor.server.application.Application.() -> kotlin.Unit): io.ktor.server.engine.EmbeddedServer<TEngine, TConfiguration> [] [false, true, true, true, false]",
    ] {
        assert!(s.contains(&want.to_string()), "missing {want} in {s:#?}");
    }
    let configure = eng
        .methods()
        .iter()
        .find(|m| m.name == "configure")
        .expect("configure");
    assert_eq!(configure.is_varargs, Some(true));

    // a class: primary constructor with a default, own property, supertypes from links
    // (an unresolved link's DRI), not the inherited members
    let pipe = doc(&x.docs, "io.ktor.server.request.ApplicationReceivePipeline");
    assert_eq!(pipe.class_type, Some(0));
    assert_eq!(
        pipe.inherits.as_deref(),
        Some(
            &["io.ktor.util.pipeline.Pipeline<kotlin.Any, io.ktor.server.application.PipelineCall>"
                .to_string()][..]
        )
    );
    assert_eq!(
        sigs(pipe),
        ["ApplicationReceivePipeline<>(kotlin.Boolean): <ctor> [] [true]"]
    );
    assert_eq!(fields(pipe), ["val developmentMode: kotlin.Boolean"]);
    assert_eq!(pipe.parent, Some(None));

    // a nested object: its own document, with `parent`, static members, no constructor
    let phases = doc(
        &x.docs,
        "io.ktor.server.request.ApplicationReceivePipeline.Phases",
    );
    assert_eq!(
        phases.parent,
        Some(Some(
            "io.ktor.server.request.ApplicationReceivePipeline".into()
        ))
    );
    assert_eq!(phases.kotlin.kotlin_object, Some(KotlinObjectMark::Object));
    assert_eq!(
        fields(phases),
        [
            "val After: io.ktor.util.pipeline.PipelinePhase static",
            "val Before: io.ktor.util.pipeline.PipelinePhase static",
            "val Transform: io.ktor.util.pipeline.PipelinePhase static",
        ]
    );
    assert!(phases.methods().is_empty());

    // a companion object
    let comp = doc(&x.docs, "io.ktor.server.engine.ConnectorType.Companion");
    assert_eq!(comp.kotlin.kotlin_object, Some(KotlinObjectMark::Companion));
    assert_eq!(
        fields(comp),
        [
            "val HTTP: io.ktor.server.engine.ConnectorType static",
            "val HTTPS: io.ktor.server.engine.ConnectorType static",
            "val UNIX: io.ktor.server.engine.ConnectorType static",
        ]
    );
    let ct = doc(&x.docs, "io.ktor.server.engine.ConnectorType");
    assert_eq!(
        sigs(ct),
        ["ConnectorType<>(kotlin.String): <ctor> [] [false]"]
    );
    assert_eq!(fields(ct), ["val name: kotlin.String"]);

    // an enum: entries first, static `entries`/`values()`/`valueOf()`
    let mode = doc(&x.docs, "io.ktor.server.application.ApplicationStartupMode");
    assert_eq!(mode.class_type, Some(3));
    assert_eq!(
        fields(mode),
        [
            "val SEQUENTIAL: io.ktor.server.application.ApplicationStartupMode static entry",
            "val CONCURRENT: io.ktor.server.application.ApplicationStartupMode static entry",
            "val entries: kotlin.enums.EnumEntries<io.ktor.server.application.ApplicationStartupMode> static",
        ]
    );
    assert_eq!(
        sigs(mode),
        [
            "valueOf<>(kotlin.String): io.ktor.server.application.ApplicationStartupMode [static] [false]",
            "values<>(): kotlin.Array<io.ktor.server.application.ApplicationStartupMode> [static] []",
        ]
    );

    // a generic class: type parameters linked to their page stay variables
    let brt = doc(
        &x.docs,
        "io.ktor.server.application.hooks.BeforeResponseTransform",
    );
    assert_eq!(brt.type_parameters(), ["T : kotlin.Any"]);
    assert_eq!(
        brt.inherits.as_deref(),
        Some(
            &["io.ktor.server.application.Hook<suspend (io.ktor.server.application.ApplicationCall, T) -> kotlin.Any>".to_string()][..]
        )
    );
    assert_eq!(
        sigs(brt),
        [
            "BeforeResponseTransform<>(kotlin.reflect.KClass<T>): <ctor> [] [false]",
            "install<>(io.ktor.server.application.ApplicationCallPipeline, suspend (io.ktor.server.application.ApplicationCall, T) -> kotlin.Any): kotlin.Unit [] [false, false]",
        ]
    );

    // an interface: its own abstract members only (extensions on it are in their packages)
    let call = doc(&x.docs, "io.ktor.server.application.ApplicationCall");
    assert_eq!(call.class_type, Some(1));
    assert_eq!(
        sigs(call),
        [
            "receiveNullable<T>(io.ktor.util.reflect.TypeInfo): T? [suspend] [false]",
            "respond<>(kotlin.Any?, io.ktor.util.reflect.TypeInfo?): kotlin.Unit [suspend] [false, false]",
        ]
    );
    assert!(call.methods().iter().all(|m| m.is_abstract == Some(true)));
}

/// A Dokka class page `Deep` whose member's signature nests `depth` `span`s.
fn deep(depth: usize) -> Vec<u8> {
    let mut s = String::from(
        "<html><head><script>var pathToRoot = \"../../\";</script>\
         <script src=\"../../scripts/sourceset_dependencies.js\"></script></head><body>\
         <div class=\"breadcrumbs\"><a href=\"../../index.html\">m</a><a href=\"../index.html\">p</a>\
         <span class=\"current\">Deep</span></div>\
         <div class=\"cover\"><div class=\"symbol monospace\">class Deep</div></div>\
         <div class=\"tabs-section-body\"><div data-togglable=\"FUNCTION\"><div class=\"table\">\
         <div class=\"table-row\"><div class=\"main-subrow\"><a href=\"f.html\">f</a>\
         <div class=\"title\"><div class=\"symbol monospace\">fun f(): ",
    );
    s.push_str(&"<span>".repeat(depth));
    s.push_str("Int");
    s.push_str(&"</span>".repeat(depth));
    s.push_str("</div></div></div></div></div></div></body></html>");
    s.into_bytes()
}

fn page(name: &str) -> Vec<u8> {
    std::fs::read(fixture().join(name)).expect("fixture page")
}

#[test]
fn hostile_dokka_pages_are_named_and_skipped() {
    let good = "ktor-server-core/io.ktor.server.request/-application-receive-pipeline/index.html";
    let full = page(good);
    // cut in the middle of the member list
    let cut = full[..full.len() * 2 / 3].to_vec();
    // a Dokka head with a body of no known structure: a class page without declaration
    let mut unknown = b"<html><head><title>x</title></head><body>".to_vec();
    unknown.extend(std::iter::repeat_n(b'x', 1000));
    unknown.extend(b"</body></html>");
    // larger than MAX_PAGE_BYTES
    let mut huge = full[..2000].to_vec();
    huge.resize(MAX_PAGE_BYTES as usize + 10, b' ');
    // a Dokka page whose declaration is garbage
    let text = String::from_utf8_lossy(&full).into_owned();
    let garbage = text.replacen(
        "<span class=\"token keyword\">open </span><span class=\"token keyword\">class </span>",
        "<span class=\"token keyword\">class </span><span>((((</span>",
        1,
    );
    assert_ne!(garbage, text, "the fixture's declaration changed");
    let x = extract_pages(
        vec![
            ("m/p/-good/index.html".into(), Ok(full.clone())),
            ("m/p/-cut/index.html".into(), Ok(cut)),
            ("m/p/-unknown/index.html".into(), Ok(unknown)),
            ("m/p/-huge/index.html".into(), Ok(huge)),
            ("m/p/-garbage/index.html".into(), Ok(garbage.into_bytes())),
            ("m/p/-deep/index.html".into(), Ok(deep(100_000))),
            ("m/p/-deeper-than-a-member/index.html".into(), Ok(deep(200))),
        ],
        None,
    );
    let problem = |p: &str| {
        x.problems
            .iter()
            .find(|q| q.page == p)
            .map(|q| q.reason.clone())
            .unwrap_or_else(|| panic!("no problem for {p}: {:?}", x.problems))
    };
    assert!(problem("m/p/-cut/index.html").contains("truncated dokka class page"));
    assert!(problem("m/p/-unknown/index.html").contains("unknown documentation layout"));
    assert!(problem("m/p/-huge/index.html").contains("MAX_PAGE_BYTES"));
    assert!(problem("m/p/-garbage/index.html").contains("dokka page: class declaration"));
    // markup nested 100,000 deep: the page is not read (docs::html::MAX_DOM_DEPTH)
    assert!(problem("m/p/-deep/index.html").contains("MAX_DOM_DEPTH"));
    // nested 200 deep in a signature: no stack overflow, the member named
    assert!(problem("m/p/-deeper-than-a-member/index.html").contains("member"));
    assert_eq!(x.problems.len(), 6, "{:?}", x.problems);
    let names: Vec<&str> = x.docs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "io.ktor.server.request.ApplicationReceivePipeline",
            "p.Deep"
        ]
    );
    // the deep page's class is kept without the member
    assert!(x.docs[1].methods().is_empty());
}
