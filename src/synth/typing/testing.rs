//! Fixtures for the unit tests of `typing`: an API (the embedded `java.base`, or a few class
//! documents written in the test) with its synthesis context, and a checker of any language
//! over it; no worker, no configuration, no random draw.

use std::path::PathBuf;

use serde_json::{json, Value};
use thalia_translators::Language;

use super::checker::{Typing, TypingMemo};
use super::rules::LanguageRules;
use crate::api::{Api, MemberId};
use crate::synth::context::SynthContext;
use crate::types::{parse_type, Syntax, TypeId};

/// An API, its synthesis context and the memo tables of the last language asked.
pub(crate) struct Fixture {
    /// The API (types are interned into it).
    pub(crate) api: Api,
    /// Its synthesis context.
    pub(crate) ctx: SynthContext,
    memo: TypingMemo,
    lang: Option<Language>,
}

impl Fixture {
    /// The embedded `java.base`, with the context of Java programs.
    pub(crate) fn java_base() -> Fixture {
        let api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        Fixture::with_context(api, None)
    }

    /// The embedded API of programs whose own API syntax is `native` (Java's corpora and, for
    /// Kotlin, kotlin-stdlib), with their context.
    pub(crate) fn embedded(native: Option<Syntax>) -> Fixture {
        Fixture::with_context(crate::embedded::embedded_api_for(native), native)
    }

    /// An API of the given class documents (see [`class`]), with the context of programs
    /// whose own API syntax is `native`.
    pub(crate) fn of(docs: Vec<Value>, native: Option<Syntax>) -> Fixture {
        let docs = docs
            .into_iter()
            .map(|v| {
                let d: thalia_extractors::ClassDoc =
                    serde_json::from_value(v).expect("a class document");
                (PathBuf::from(format!("{}.json", d.name)), d)
            })
            .collect();
        Fixture::with_context(Api::from_docs(docs, Vec::new()), native)
    }

    /// One embedded corpus (`scala-library-2.13.18`), with the context of programs whose
    /// own API syntax is `native`.
    pub(crate) fn corpus(name: &str, native: Option<Syntax>) -> Fixture {
        let api = crate::embedded::embedded_corpus(name).expect("an embedded corpus");
        Fixture::with_context(api, native)
    }

    fn with_context(mut api: Api, native: Option<Syntax>) -> Fixture {
        let ctx = SynthContext::for_native(&mut api, native);
        Fixture {
            api,
            ctx,
            memo: TypingMemo::default(),
            lang: None,
        }
    }

    /// The checker of `lang` (its memo tables kept while the language stays the same).
    pub(crate) fn typing(&mut self, lang: Language) -> Typing<'_> {
        if self.lang != Some(lang) {
            self.memo = TypingMemo::default();
            self.lang = Some(lang);
        }
        Typing::new(
            &mut self.api,
            &self.ctx,
            LanguageRules::new(lang),
            &mut self.memo,
        )
    }

    /// A type written in Java syntax (`java.util.List<java.lang.String>`, `int[]`).
    pub(crate) fn ty(&mut self, text: &str) -> TypeId {
        parse_type(&mut self.api.ts.arena, Syntax::Java, text, &[])
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    /// The member whose signature is `sig` (`int java.lang.String.length()`).
    pub(crate) fn member(&self, sig: &str) -> MemberId {
        self.api
            .member_ids()
            .find(|&m| self.api.signature(m) == sig)
            .unwrap_or_else(|| {
                let name = sig.split('(').next().unwrap_or(sig);
                let name = name.rsplit('.').next().unwrap_or(name);
                let near: Vec<String> = self
                    .api
                    .member_ids()
                    .map(|m| self.api.signature(m))
                    .filter(|s| s.contains(&format!(".{name}(")))
                    .collect();
                panic!(
                    "no member {sig}; similar: {near:#?}; load issues: {:#?}",
                    self.api.report.issues
                )
            })
    }
}

/// A public class document of `language` (`java`, `kotlin`, `scala`) named `name`, with its
/// supertypes and methods.
pub(crate) fn class(name: &str, language: &str, supers: &[&str], methods: Vec<Value>) -> Value {
    json!({"name": name, "type_parameters": [], "class_type": 0, "access_mod": "public",
           "language": language, "implements": supers, "inherits": supers,
           "methods": methods, "fields": []})
}

/// A public instance method `name(params): ret`.
pub(crate) fn method(name: &str, params: &[&str], ret: &str) -> Value {
    json!({"name": name, "parameters": params, "type_parameters": [], "return_type": ret,
           "is_static": false, "is_constructor": false, "access_mod": "public"})
}

/// `doc` with the fields of `extra` set (`json!({"is_static": true})`).
pub(crate) fn with(mut doc: Value, extra: Value) -> Value {
    if let (Value::Object(d), Value::Object(e)) = (&mut doc, extra) {
        d.extend(e);
    }
    doc
}

/// The classes of `java.lang` the small APIs need: `Object`, `CharSequence`, `String`,
/// `Number` and the boxes of `int`, `long` and `double`.
pub(crate) fn java_lang() -> Vec<Value> {
    let number = ["java.lang.Number"];
    vec![
        class("java.lang.Object", "java", &[], vec![]),
        with(
            class("java.lang.CharSequence", "java", &[], vec![]),
            json!({"class_type": 1}),
        ),
        class(
            "java.lang.String",
            "java",
            &["java.lang.CharSequence"],
            vec![],
        ),
        with(
            class("java.lang.Number", "java", &[], vec![]),
            json!({"class_type": 2}),
        ),
        class("java.lang.Integer", "java", &number, vec![]),
        class("java.lang.Long", "java", &number, vec![]),
        class("java.lang.Double", "java", &number, vec![]),
    ]
}
