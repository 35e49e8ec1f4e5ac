//! What each target language does differently from Java, asked by capability: synthesis never
//! asks which language it writes, only whether that language widens a primitive, converts a
//! lambda, sees a raw type, … ([`LanguageRules`]). The type-level checks built on these
//! answers live here too: the members a language cannot use the way Java does
//! (`Worker::language_problem`) and the conversions it makes where Java would not
//! (`Worker::lenient_conversion`).

use thalia_translators::Language;

use super::context::SkipReason;
use super::enumerate::{Formal, Position};
use super::worker::{wider_prims, Worker};
use crate::api::{ClassKind, MemberId, MemberKind};
use crate::types::{Prim, Type, TypeId};

/// Where a value is converted to a variable's type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConversionSite {
    /// An assignment (`T x = e`, a local initialized with a call's result).
    Assignment,
    /// A method or constructor argument.
    Argument,
}

/// The rules of one target language, as answers to capability questions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LanguageRules {
    lang: Language,
}

impl From<Language> for LanguageRules {
    fn from(lang: Language) -> Self {
        LanguageRules::new(lang)
    }
}

impl LanguageRules {
    /// The rules of `lang`.
    pub const fn new(lang: Language) -> Self {
        LanguageRules { lang }
    }

    /// The language these rules are for.
    pub const fn language(self) -> Language {
        self.lang
    }

    /// True when Scala 3 or 2.13 (private: every question below is a capability).
    const fn is_scala(self) -> bool {
        matches!(self.lang, Language::Scala3 | Language::Scala2)
    }

    /// True when a value of primitive type `from` converts implicitly to primitive type `to`
    /// (Java's widening, JLS 5.1.2). Kotlin has no implicit widening between primitive types.
    pub fn widens_primitive(self, from: Prim, to: Prim) -> bool {
        match self.lang {
            Language::Kotlin => false,
            Language::Java | Language::Scala3 | Language::Scala2 | Language::Groovy => {
                wider_prims(from).contains(&to)
            }
        }
    }

    /// True when the language widens a number and then boxes it where Java would not
    /// (Scala 2: `val l: java.lang.Long = anInt`), in assignments and arguments alike.
    pub fn widens_then_boxes(self) -> bool {
        self.lang == Language::Scala2
    }

    /// True when an assignment coerces values Java would not convert: Groovy turns anything
    /// into `boolean` (truth), `String` (`toString`), an enum (from its name), a `Class` or
    /// `Object`, and converts between numbers, collections to arrays and numbers to
    /// `BigDecimal`/`BigInteger`.
    pub fn coerces_on_assignment(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when method invocation (the loose phases of overload resolution) converts
    /// between any two numeric types or their boxes (Groovy's number table).
    pub fn converts_between_numbers(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when any trailing array parameter takes a variable number of arguments, not
    /// only one declared varargs (Groovy).
    pub fn trailing_array_is_varargs(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when the language writes raw types (a generic class without type arguments):
    /// Java and Groovy do; Kotlin and Scala have no syntax for them.
    pub fn has_raw_types(self) -> bool {
        matches!(self.lang, Language::Java | Language::Groovy)
    }

    /// True when the language converts a bare lambda to a functional interface whose single
    /// abstract method is named `sam`. Java counts a public `clone()` (or `finalize()`) that
    /// an interface redeclares as its abstract method (`Object`'s is protected); Kotlin,
    /// Scala and Groovy see `Object`'s own method and no SAM at all.
    pub fn converts_lambda_to(self, sam: &str) -> bool {
        self.lang == Language::Java || !matches!(sam, "clone" | "finalize")
    }

    /// True when the language hides static members that the extractor copied into a class
    /// from a non-public supertype (Scala sees statics only on the class declaring them).
    pub fn hides_inherited_statics(self) -> bool {
        self.is_scala()
    }

    /// True when the language sees a public `clone()` that an interface declares (Scala 2
    /// sees only `Object`'s protected one, and scalac 2.13 rejects the call).
    pub fn sees_interface_clone(self) -> bool {
        self.lang != Language::Scala2
    }

    /// True when the elements of an annotation type are properties, not methods (Kotlin).
    pub fn annotation_elements_are_properties(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when the language types `Map.compute`'s function with nullable value types
    /// (Kotlin's view of the JDK: `BiFunction<in K, in V?, out V?>`), which a `BiFunction`
    /// consuming a non-null `V` does not satisfy.
    pub fn nullable_map_compute(self) -> bool {
        self.lang == Language::Kotlin
    }

    /// True when strings and arrays gain collection methods implicitly (Scala's `StringOps`,
    /// `WrappedString`, `ArrayOps`): a receiver of such a type may have a member its class
    /// lacks, and the arguments of calls on it may convert (`"a".contains(x)` takes any `x`
    /// as a `Seq[Char]`'s element).
    pub fn enriches_strings_and_arrays(self) -> bool {
        self.is_scala()
    }

    /// True when an integral constant (a Java `static final int`, read as a literal)
    /// converts to any numeric type or its box (Scala 3
    /// `val f: java.lang.Float = Calendar.NOVEMBER`).
    pub fn converts_constants_to_any_number(self) -> bool {
        self.is_scala()
    }

    /// True when the language has extension methods the ill-typed oracle must consult
    /// (Groovy's `DefaultGroovyMethods` and siblings, see [`super::groovy`]).
    pub fn has_extension_methods(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when the checker checks an argument whose parameter mentions a method type
    /// variable against the variable's bounds, not against the explicit type arguments,
    /// and accepts any expected type for a result mentioning a method type variable no
    /// parameter fixes (groovyc 4 and 5).
    pub fn ignores_explicit_type_arguments(self) -> bool {
        self.lang == Language::Groovy
    }

    /// True when the arguments of an overloaded method are typed before the overload is
    /// picked, without an expected type, so that a generic call there needs its type
    /// arguments (Scala 2).
    pub fn types_overloaded_arguments_untargeted(self) -> bool {
        self.lang == Language::Scala2
    }

    /// True when type inference solves a variable from the arguments before it looks at the
    /// target type, so that a capture variable from a wildcard-typed argument wins (Scala 2).
    pub fn infers_from_arguments_first(self) -> bool {
        self.lang == Language::Scala2
    }

    /// True when the checker types a local by its initializer rather than by its declared
    /// type (Groovy's flow typing: `Object r = 'x'; r.length()` compiles), so that a use
    /// must be cast to the declared type where a narrower type would change the verdict.
    pub fn flow_types_locals(self) -> bool {
        self.lang == Language::Groovy
    }
}

impl Worker<'_> {
    /// Why the target language cannot use member `m` the way Java does, if it cannot (for
    /// the member under test and for the members on inhabitant paths alike).
    pub(crate) fn language_problem(&mut self, m: MemberId) -> Option<SkipReason> {
        if let Some(&p) = self.caches.language_problems.get(&m) {
            return p;
        }
        let rules = self.rules;
        let p = if rules.hides_inherited_statics() && self.static_from_hidden_supertype(m) {
            Some(SkipReason::HiddenStatic)
        } else if !rules.has_raw_types() && self.mentions_raw_type(m) {
            Some(SkipReason::RawType)
        } else if !rules.sees_interface_clone() && self.is_interface_clone(m) {
            Some(SkipReason::InterfaceClone)
        } else if rules.annotation_elements_are_properties() && self.is_annotation_element(m) {
            Some(SkipReason::AnnotationElement)
        } else if rules.nullable_map_compute() && self.is_map_compute(m) {
            Some(SkipReason::KotlinNullableParameter)
        } else {
            None
        };
        self.caches.language_problems.insert(m, p);
        p
    }

    /// True for `Map.compute(K, BiFunction)` or an override.
    fn is_map_compute(&mut self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static || mem.name != "compute" {
            return false;
        }
        let (sym, arity) = (self.api.class(mem.owner).sym, mem.params.len());
        let owner = self.api.ts.self_type(sym);
        arity == 2
            && self
                .declarers(owner, "compute", 2)
                .iter()
                .any(|c| c == "java.util.Map")
    }

    /// True for a `clone()` that an interface declares.
    fn is_interface_clone(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Method
            && mem.name == "clone"
            && mem.params.is_empty()
            && self.api.class(mem.owner).kind == ClassKind::Interface
    }

    /// True for an element of an annotation type (an instance method of an interface that
    /// extends `java.lang.annotation.Annotation`).
    fn is_annotation_element(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || mem.is_static {
            return false;
        }
        let a = &self.api.ts.arena;
        self.api.class(mem.owner).supertypes().iter().any(|&t| {
            a.as_class(t)
                .is_some_and(|(n, _)| a.name(n) == "java.lang.annotation.Annotation")
        })
    }

    /// True when the member's receiver, parameter or result type mentions a raw type (a
    /// generic class without type arguments).
    fn mentions_raw_type(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let mut todo: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
        todo.push(mem.ret);
        todo.extend(mem.receiver);
        let a = &self.api.ts.arena;
        while let Some(t) = todo.pop() {
            if let Some((sym, args)) = a.as_class(t) {
                if args.is_empty() && self.api.ts.class_params(sym).is_some_and(|p| !p.is_empty()) {
                    return true;
                }
            }
            a.for_each_child(t, |c| todo.push(c));
        }
        false
    }

    /// True for a static field the extractor copied from a non-public supertype.
    fn static_from_hidden_supertype(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        mem.kind == MemberKind::Field
            && self
                .api
                .class(mem.owner)
                .doc
                .fields()
                .get(mem.doc_index)
                .and_then(|f| f.extra.get("static_from_hidden_supertype"))
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false)
    }

    /// True when the target language gives a value of type `t` members its class lacks
    /// ([`LanguageRules::enriches_strings_and_arrays`]: `String` and arrays in Scala).
    pub(crate) fn enriched(&self, t: TypeId) -> bool {
        self.rules.enriches_strings_and_arrays()
            && match *self.api.ts.arena.get(t) {
                Type::Array(_) => true,
                Type::Class { name, .. } => name == self.ctx.string_sym,
                _ => false,
            }
    }

    /// True when the target language converts an integral constant to a variable of type
    /// `x` ([`LanguageRules::converts_constants_to_any_number`]).
    pub(crate) fn converts_constant(&self, x: TypeId) -> bool {
        self.rules.converts_constants_to_any_number() && self.is_numeric(x)
    }

    /// True when the target language converts a `from` value to a `to` variable at `site`
    /// although Java would not: Scala 2 widens then boxes
    /// ([`LanguageRules::widens_then_boxes`]); Groovy coerces on assignment
    /// ([`LanguageRules::coerces_on_assignment`]).
    pub(crate) fn lenient_conversion(
        &mut self,
        from: TypeId,
        to: TypeId,
        site: ConversionSite,
    ) -> bool {
        if self.rules.widens_then_boxes() {
            return match (self.prim_of(from), self.prim_of(to)) {
                (Some(a), Some(b)) => a == b || wider_prims(a).contains(&b),
                _ => false,
            };
        }
        if site != ConversionSite::Assignment || !self.rules.coerces_on_assignment() {
            return false;
        }
        let names = |w: &Worker<'_>, t: TypeId| -> Option<String> {
            w.api
                .ts
                .arena
                .as_class(t)
                .map(|(n, _)| w.api.ts.arena.name(n).to_string())
        };
        let loose = |w: &Worker<'_>, t: TypeId| -> bool {
            if matches!(w.api.ts.arena.get(t), Type::Prim(_)) {
                return true;
            }
            let Some(n) = names(w, t) else { return false };
            let enum_like = w
                .api
                .class_by_name(&n)
                .is_some_and(|c| w.api.class(c).kind == ClassKind::Enum);
            enum_like
                || w.ctx
                    .unbox_of(
                        w.api
                            .ts
                            .arena
                            .as_class(t)
                            .map(|(s, _)| s)
                            .unwrap_or(w.ctx.object_sym),
                    )
                    .is_some()
                || matches!(
                    n.as_str(),
                    "java.lang.String"
                        | "java.lang.Object"
                        | "java.lang.Class"
                        | "java.lang.Number"
                        | "java.lang.CharSequence"
                )
        };
        // a collection or a stream converts to an array; a number to a BigDecimal/BigInteger
        let array_from_collection = matches!(self.api.ts.arena.get(to), Type::Array(_)) && {
            let seqs = [
                "java.util.Collection",
                "java.util.stream.BaseStream",
                "java.lang.Iterable",
            ];
            seqs.into_iter().any(|c| {
                let s = self.api.ts.arena.sym(c);
                let raw = self.api.ts.arena.class(s, &[]);
                self.api.ts.is_subtype(from, raw)
            })
        };
        let big = names(self, to)
            .is_some_and(|n| matches!(n.as_str(), "java.math.BigDecimal" | "java.math.BigInteger"))
            && (self.is_numeric(from) || {
                let number = self.api.ts.arena.class_named("java.lang.Number", &[]);
                self.api.ts.is_subtype(from, number)
            });
        array_from_collection
            || big
            || loose(self, to)
            || (loose(self, from) && matches!(self.api.ts.arena.get(to), Type::Prim(_)))
    }

    /// True when the target language's checker accepts any type at position `pos` of a call
    /// of `m`, so that the position cannot be broken: an argument when an extension method of
    /// the same name and arity applies to the receiver ([`LanguageRules::has_extension_methods`];
    /// its parameters are not checked here), or when the parameter's declared type mentions
    /// one of the method's type variables; the result when its declared type mentions a type
    /// variable of the method that no parameter fixes
    /// ([`LanguageRules::ignores_explicit_type_arguments`]; checked with groovyc 4 and 5).
    pub(crate) fn checker_accepts_any(
        &mut self,
        m: MemberId,
        f: &Formal,
        pos: Position,
        owner: TypeId,
    ) -> bool {
        let rules = self.rules;
        if !rules.has_extension_methods() && !rules.ignores_explicit_type_arguments() {
            return false;
        }
        let mem = self.api.member(m).clone();
        let mentions_var = |w: &Worker<'_>, t: TypeId| {
            w.api
                .ts
                .arena
                .free_vars(t)
                .iter()
                .any(|v| mem.type_params.contains(v))
        };
        match pos {
            Position::Receiver => false,
            Position::Arg(i) => {
                let extension =
                    rules.has_extension_methods() && mem.kind == MemberKind::Method && {
                        let (recv, static_call) = match f.receiver {
                            Some(r) => (r, false),
                            None => (owner, true),
                        };
                        self.groovy_extension_applies(recv, static_call, &mem.name, f.params.len())
                    };
                extension
                    || rules.ignores_explicit_type_arguments()
                        && mem.params.get(i).is_some_and(|p| mentions_var(self, p.ty))
            }
            Position::Result => {
                if !rules.ignores_explicit_type_arguments() {
                    return false;
                }
                let fixed: Vec<_> = mem
                    .params
                    .iter()
                    .flat_map(|p| self.api.ts.arena.free_vars(p.ty))
                    .collect();
                self.api
                    .ts
                    .arena
                    .free_vars(mem.ret)
                    .iter()
                    .any(|v| mem.type_params.contains(v) && !fixed.contains(v))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{SynthConfig, SynthContext};
    use rand::SeedableRng;

    #[test]
    fn kotlin_alone_has_no_primitive_widening() {
        for lang in Language::ALL {
            let rules = LanguageRules::new(lang);
            assert_eq!(
                rules.widens_primitive(Prim::Int, Prim::Long),
                lang != Language::Kotlin,
                "{lang}"
            );
            assert!(!rules.widens_primitive(Prim::Long, Prim::Int), "{lang}");
        }
    }

    #[test]
    fn only_java_converts_lambdas_to_an_interface_clone() {
        for lang in Language::ALL {
            let rules = LanguageRules::new(lang);
            assert!(rules.converts_lambda_to("apply"), "{lang}");
            assert_eq!(
                rules.converts_lambda_to("clone"),
                lang == Language::Java,
                "{lang}"
            );
        }
    }

    #[test]
    fn raw_types_are_written_in_java_and_groovy_only() {
        let with: Vec<Language> = Language::ALL
            .into_iter()
            .filter(|&l| LanguageRules::new(l).has_raw_types())
            .collect();
        assert_eq!(with, [Language::Java, Language::Groovy]);
    }

    #[test]
    fn java_has_none_of_the_other_languages_leniencies() {
        let java = LanguageRules::new(Language::Java);
        assert!(!java.widens_then_boxes());
        assert!(!java.coerces_on_assignment());
        assert!(!java.converts_between_numbers());
        assert!(!java.trailing_array_is_varargs());
        assert!(!java.hides_inherited_statics());
        assert!(java.sees_interface_clone());
        assert!(!java.annotation_elements_are_properties());
        assert!(!java.nullable_map_compute());
        assert!(!java.enriches_strings_and_arrays());
        assert!(!java.converts_constants_to_any_number());
        assert!(!java.has_extension_methods());
        assert!(!java.ignores_explicit_type_arguments());
        assert!(!java.types_overloaded_arguments_untargeted());
        assert!(!java.infers_from_arguments_first());
        assert!(!java.flow_types_locals());
    }

    #[test]
    fn conversions_java_lacks_depend_on_the_language_and_the_site() {
        use ConversionSite::{Argument, Assignment};
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        // (language, int → java.lang.Long at an assignment and an argument,
        //  int → String at an assignment and an argument)
        let expected = [
            (Language::Java, [false, false], [false, false]),
            (Language::Kotlin, [false, false], [false, false]),
            (Language::Scala3, [false, false], [false, false]),
            (Language::Scala2, [true, true], [false, false]),
            (Language::Groovy, [true, false], [true, false]),
        ];
        for (lang, to_long, to_string) in expected {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let int = w.api.ts.arena.prim(Prim::Int);
            let long = w.api.ts.arena.class_named("java.lang.Long", &[]);
            let string = w.api.ts.arena.class_named("java.lang.String", &[]);
            let got = |w: &mut Worker<'_>, to: TypeId| {
                [Assignment, Argument].map(|site| w.lenient_conversion(int, to, site))
            };
            assert_eq!(got(&mut w, long), to_long, "{lang}: int to Long");
            assert_eq!(got(&mut w, string), to_string, "{lang}: int to String");
        }
    }

    #[test]
    fn a_primitive_stands_for_its_narrower_ones_only_where_they_widen() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for lang in [Language::Java, Language::Kotlin] {
            let cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            let int = w.api.ts.arena.prim(Prim::Int);
            let mut rng = crate::synth::worker::SynthRng::seed_from_u64(7);
            let subs = w.subtypes(&mut rng, int, 4);
            let want = if lang == Language::Kotlin { 1 } else { 4 };
            assert_eq!(subs.len(), want, "{lang}: subtypes of int");
            assert_eq!(subs[0], int);
        }
    }
}
