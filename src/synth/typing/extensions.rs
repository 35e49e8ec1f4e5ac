//! What Groovy's static type checker (`@CompileStatic`, `@TypeChecked`) and kotlinc accept
//! beyond Java's rules, for the ill-typed oracle: their extension methods. Kotlin's come from
//! `kotlin-extension-functions.tsv` (kotlin-stdlib's extension functions on Java types, and the
//! members of Kotlin's own `String` and number classes that Java's lack), written by
//! `kotlin-extension-functions.java`. Groovy's are described below. `DefaultGroovyMethods` and its
//! siblings add methods to JDK types (`Object.print(Object)`, `Object.iterator()`,
//! `Number.compareTo(Number)`, `Collection.retainAll(Object[])`, ...), so a call Java rejects
//! may resolve to one of them. The table (`groovy-extension-methods.tsv`) is what groovyc's
//! `ExtensionMethodCache` holds in Groovy 4 and 5; `groovy-extension-methods.groovy` prints it
//! from an installed Groovy.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::checker::Typing;
use super::rules::ExtensionTable;
use crate::types::{parse_type, Syntax, Type, TypeId};

/// The embedded table of Groovy's extension methods.
const TABLE: &str = include_str!("groovy-extension-methods.tsv");

/// The embedded table of Kotlin's extension functions on Java types (kotlin-stdlib), in the
/// same format: a call Java rejects may resolve to one of them in Kotlin
/// (`aLinkedList.minus(aPeriod)` is `Iterable<T>.minus(element: T)`).
const KOTLIN_TABLE: &str = include_str!("kotlin-extension-functions.tsv");

/// One extension method `name(self, p1, ..., pk)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extension {
    /// The erased type of `self` (`java.lang.Object`, `int[]`, `java.util.Map.Entry`).
    pub self_type: &'static str,
    /// Parameters besides `self`.
    pub params: usize,
    /// A static extension, called on the class (`Thread.start { }`).
    pub is_static: bool,
    /// The last parameter is an array, which Groovy fills from any number of arguments.
    pub varargs: bool,
}

impl Extension {
    /// True when a call with `n` arguments fits the parameters.
    pub fn takes(&self, n: usize) -> bool {
        n == self.params || self.varargs && n + 1 >= self.params
    }
}

/// The extension methods named `name` (Groovy's).
pub fn extensions(name: &str) -> &'static [Extension] {
    static BY_NAME: OnceLock<FxHashMap<&'static str, Vec<Extension>>> = OnceLock::new();
    lookup(&BY_NAME, TABLE, name)
}

/// Kotlin's extension functions named `name`.
pub fn kotlin_extensions(name: &str) -> &'static [Extension] {
    static BY_NAME: OnceLock<FxHashMap<&'static str, Vec<Extension>>> = OnceLock::new();
    lookup(&BY_NAME, KOTLIN_TABLE, name)
}

/// The entries named `name` of the table `text`, parsed once into `cell`.
fn lookup(
    cell: &'static OnceLock<FxHashMap<&'static str, Vec<Extension>>>,
    text: &'static str,
    name: &str,
) -> &'static [Extension] {
    cell.get_or_init(|| parse_table(text))
        .get(name)
        .map_or(&[], Vec::as_slice)
}

/// Parses the table's lines (`name`, self type, parameters, `instance`/`static`, optional
/// `varargs`); comment lines start with `#`. A malformed line is a bug in the embedded file.
fn parse_table(text: &'static str) -> FxHashMap<&'static str, Vec<Extension>> {
    let mut out: FxHashMap<&'static str, Vec<Extension>> = FxHashMap::default();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&'static str> = line.split('\t').collect();
        let (Some(&name), Some(&self_type), Some(params)) = (
            cols.first(),
            cols.get(1),
            cols.get(2).and_then(|p| p.parse().ok()),
        ) else {
            debug_assert!(false, "bad line in an extension table: {line}");
            continue;
        };
        out.entry(name).or_default().push(Extension {
            self_type,
            params,
            is_static: cols.get(3) == Some(&"static"),
            varargs: cols.get(4) == Some(&"varargs"),
        });
    }
    out
}

impl Typing<'_> {
    /// True when an extension method of the target language named `name` taking `n`
    /// arguments applies to a call on a receiver of type `recv` (a primitive is boxed).
    /// Groovy: for a static call (`static_call`), on the class `recv`, the instance extensions
    /// of `Class` (that is, of `Object`) and the static extensions of `recv` apply. Kotlin: its
    /// standard library's extension functions and the members of its own classes; none on a
    /// static call.
    pub fn extension_applies(
        &mut self,
        recv: TypeId,
        static_call: bool,
        name: &str,
        n: usize,
    ) -> bool {
        if static_call && !self.rules.extends_static_calls() {
            return false;
        }
        let table = match self.rules.extension_table() {
            ExtensionTable::Kotlin => kotlin_extensions(name),
            ExtensionTable::Groovy => extensions(name),
        };
        let recv = self.boxed_type(recv);
        let class_ty = static_call.then(|| {
            let class = self.api.ts.arena.sym("java.lang.Class");
            self.api.ts.arena.class(class, &[recv])
        });
        for e in table {
            if !e.takes(n) {
                continue;
            }
            let Some(s) = self.extension_self_type(e.self_type) else {
                continue;
            };
            let receiver = match class_ty {
                Some(c) if !e.is_static => c,
                _ => recv,
            };
            if self.api.ts.is_subtype(receiver, s) {
                return true;
            }
        }
        false
    }

    /// An extension's self type in this worker's arena (`None` if it does not parse).
    fn extension_self_type(&mut self, name: &'static str) -> Option<TypeId> {
        if let Some(&t) = self.memo.extension_self_types.get(name) {
            return t;
        }
        let t = parse_type(&mut self.api.ts.arena, Syntax::Java, name, &[]).ok();
        // a generic class stands for all its instances: its raw form
        let t = t.map(|t| match self.api.ts.arena.get(t) {
            Type::Class { .. } => self.api.ts.erase(t),
            _ => t,
        });
        self.memo.extension_self_types.insert(name, t);
        t
    }
}

#[cfg(test)]
mod tests {
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::Fixture;

    #[test]
    fn kotlins_table_knows_the_stdlib_extensions_on_java_types() {
        let has = |name: &str, recv: &str, n: usize| {
            kotlin_extensions(name)
                .iter()
                .any(|e| e.self_type == recv && e.takes(n))
        };
        assert!(has("minus", "java.lang.Iterable", 1));
        assert!(has("first", "java.lang.Iterable", 0));
        assert!(has("isNotEmpty", "java.util.Map", 0));
        assert!(has("getValue", "java.util.Map", 1));
        assert!(has("append", "java.lang.StringBuilder", 1));
        assert!(has("clear", "java.lang.StringBuilder", 0));
        assert!(has("compareTo", "java.lang.Float", 1));
        assert!(!has("trimToSize", "java.util.ArrayList", 0));
    }

    #[test]
    fn a_kotlin_extension_applies_to_the_receivers_below_its_receiver_type() {
        let mut fx = Fixture::java_base();
        let list = fx.ty("java.util.LinkedList<java.lang.String>");
        let breaks = fx.ty("java.text.BreakIterator");
        let mut t = fx.typing(Language::Kotlin);
        assert!(t.extension_applies(list, false, "minus", 1));
        assert!(t.extension_applies(list, false, "first", 0));
        assert!(!t.extension_applies(breaks, false, "first", 0));
        // no extension on a static call
        assert!(!t.extension_applies(list, true, "minus", 1));
    }

    #[test]
    fn groovy_extensions_apply_to_static_calls_on_a_class() {
        let mut fx = Fixture::java_base();
        let string = fx.ty("java.lang.String");
        let int = fx.ty("int");
        let mut t = fx.typing(Language::Groovy);
        // `String.sleep(10)`: a static extension of `Object`
        assert!(t.extension_applies(string, true, "sleep", 1));
        // `String.print(x)`: an instance extension of the class object
        assert!(t.extension_applies(string, true, "print", 1));
        // a primitive receiver is boxed: `1.print(x)`
        assert!(t.extension_applies(int, false, "print", 1));
        assert!(!t.extension_applies(string, false, "noSuchExtensionMethod", 0));
        // no such arity: `print` takes one argument
        assert!(!t.extension_applies(string, false, "print", 3));
    }

    #[test]
    fn the_table_parses_and_knows_the_usual_suspects() {
        let print = extensions("print");
        assert!(print
            .iter()
            .any(|e| e.self_type == "java.lang.Object" && e.params == 1));
        let retain = extensions("retainAll");
        assert!(retain.iter().any(|e| e.varargs && e.takes(1) && e.takes(3)));
        assert!(extensions("sleep").iter().any(|e| e.is_static));
        assert!(extensions("noSuchExtensionMethod").is_empty());
        let total: usize = parse_table(TABLE).values().map(Vec::len).sum();
        assert!(total > 1500, "{total} rows");
    }
}
