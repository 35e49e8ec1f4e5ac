//! Subtyping and conversions: Java's assignment and method-invocation conversions (widening,
//! boxing, unboxing, unchecked conversion), the conversion of a function's result and
//! arguments in lambdas and references, type arguments within their bounds, numeric
//! promotion in conditionals (JLS 15.25), and the conversions a language makes where Java
//! would not ([`Typing::lenient_conversion`]: Groovy's coercions, Scala 2's widening then
//! boxing, Scala's value discarding and implicit views).

use super::checker::Typing;
use super::rules::wider_prims;
use super::sequence::is_void;
use crate::api::ClassKind;
use crate::types::{Prim, Type, TypeId, Wildcard};

/// Where a value is converted to a variable's type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConversionSite {
    /// An assignment (`T x = e`, a local initialized with a call's result).
    Assignment,
    /// A method or constructor argument.
    Argument,
}

impl Typing<'_> {
    /// The primitive type `t` is or boxes.
    pub(crate) fn prim_of(&self, t: TypeId) -> Option<Prim> {
        match *self.api.ts.arena.get(t) {
            Type::Prim(p) => Some(p),
            Type::Class { name, .. } => self.ctx.unbox_of(name),
            _ => None,
        }
    }

    /// True for a numeric primitive or its box.
    pub(crate) fn is_numeric(&self, t: TypeId) -> bool {
        self.prim_of(t)
            .is_some_and(|p| !matches!(p, Prim::Boolean | Prim::Void))
    }

    /// True for the types a constant of an integral type may be narrowed to.
    pub(crate) fn narrows_constant(&self, x: TypeId) -> bool {
        matches!(self.prim_of(x), Some(Prim::Byte | Prim::Short | Prim::Char))
    }

    /// Java assignment conversion of a value of type `from` to a variable of type `to`
    /// (subtyping, widening, boxing then widening reference, unboxing then widening).
    pub fn assignable(&mut self, from: TypeId, to: TypeId) -> bool {
        self.convertible(from, to, true)
    }

    /// Java method-invocation conversion of `from` to `to`: strict (subtyping, unchecked
    /// conversion) or, when `loose`, also boxing and unboxing (and the language's extra
    /// numeric conversions, [`super::rules::LanguageRules::converts_between_numbers`]).
    pub(crate) fn convertible(&mut self, from: TypeId, to: TypeId, loose: bool) -> bool {
        if self.api.ts.is_subtype(from, to) {
            return true;
        }
        // unchecked conversion: a raw `List` converts to any `Collection<X>`
        if let (Some((fs, fa)), Some((_, ta))) = (
            self.api.ts.arena.as_class(from),
            self.api.ts.arena.as_class(to),
        ) {
            let raw = fa.is_empty() && self.api.ts.class_params(fs).is_some_and(|p| !p.is_empty());
            if raw && !ta.is_empty() {
                let erased = self.api.ts.erase(to);
                if self.api.ts.is_subtype(from, erased) {
                    return true;
                }
            }
        }
        if !loose {
            return false;
        }
        if self.rules.converts_between_numbers() && self.is_numeric(from) && self.is_numeric(to) {
            // Groovy's number table (both ways, for safety)
            return true;
        }
        let a = &self.api.ts.arena;
        match (a.get(from).clone(), a.get(to).clone()) {
            (Type::Prim(_), Type::Prim(_)) => false,
            // a box class the API does not describe: its supertypes are unknown, so assume
            // the conversion may succeed
            (Type::Prim(p), _) => self.boxes_to(p, to, true),
            (Type::Class { name, args }, Type::Prim(q)) if args.is_empty() => {
                match self.ctx.unbox_of(name) {
                    Some(p) => {
                        let (pt, qt) = (self.api.ts.arena.prim(p), self.api.ts.arena.prim(q));
                        self.api.ts.is_subtype(pt, qt)
                    }
                    None => false,
                }
            }
            _ => false,
        }
    }

    /// True when a value of primitive `p` converts to `to` by boxing: its box is a subtype of
    /// `to`, or, where the language widens before boxing (Scala 2), a wider primitive's box
    /// is. A box the API does not describe converts when `unknown_converts`.
    fn boxes_to(&mut self, p: Prim, to: TypeId, unknown_converts: bool) -> bool {
        let boxes = |w: &mut Self, p| match w.ctx.box_of(p) {
            Some(b) if w.api.class_by_sym(b).is_none() => unknown_converts,
            Some(b) => {
                let boxed = w.api.ts.arena.class(b, &[]);
                w.api.ts.is_subtype(boxed, to)
            }
            None => false,
        };
        boxes(self, p)
            || (self.rules.widens_before_boxing() && wider_prims(p).iter().any(|&q| boxes(self, q)))
    }

    /// The boxed class type of a primitive; other types unchanged.
    pub fn boxed_type(&mut self, t: TypeId) -> TypeId {
        if let Type::Prim(p) = *self.api.ts.arena.get(t) {
            if let Some(b) = self.ctx.box_of(p) {
                return self.api.ts.arena.class(b, &[]);
            }
        }
        t
    }

    /// Java's conversion of a value of type `from` to `to` in an invocation or assignment
    /// context, without the target language's extra coercions: subtyping (of invariant arrays
    /// where the language's are), the language's primitive widening, boxing then widening
    /// reference, unboxing then widening.
    pub fn java_converts(&mut self, from: TypeId, to: TypeId) -> bool {
        if from == to {
            return true;
        }
        let a = &self.api.ts.arena;
        match (a.get(from).clone(), a.get(to).clone()) {
            (Type::Prim(Prim::Void), _) | (_, Type::Prim(Prim::Void)) => false,
            // Scala's arrays are invariant: `Array[Callback]` is no `Array[Object]`
            (Type::Array(_), Type::Array(_)) if self.rules.arrays_are_invariant() => false,
            (Type::Prim(p), Type::Prim(q)) => self.rules.widens_primitive(p, q),
            (Type::Prim(p), _) => self.boxes_to(p, to, false),
            (Type::Class { name, args }, Type::Prim(q)) if args.is_empty() => {
                match self.ctx.unbox_of(name) {
                    Some(p) => p == q || self.rules.widens_primitive(p, q),
                    None => false,
                }
            }
            (_, Type::Prim(_)) => false,
            _ => self.api.ts.is_subtype(from, to),
        }
    }

    /// True when a function's result of type `ret` converts to the function type's result
    /// `want` ([`Self::java_converts`], without widening a primitive where the language
    /// does not, [`super::rules::LanguageRules::widens_function_results`]).
    pub fn function_result_converts(&mut self, ret: TypeId, want: TypeId) -> bool {
        if !self.rules.widens_function_results()
            && matches!(self.api.ts.arena.get(want), Type::Prim(_))
            && self.prim_of(ret) != self.prim_of(want)
        {
            return false;
        }
        // a boxed result converts to its own primitive only where the language does not
        // widen after unboxing (Scala: `java.lang.Integer` is no `Double` result)
        if !self.rules.widens_unboxed_reference_args()
            && matches!(self.api.ts.arena.get(want), Type::Prim(_))
            && !matches!(self.api.ts.arena.get(ret), Type::Prim(_))
            && self.prim_of(ret) != self.prim_of(want)
        {
            return false;
        }
        // Scala: an `Int` result converts to `java.lang.Integer` only, not to its supertypes
        if !self.rules.boxes_function_results_to_supertypes()
            && matches!(self.api.ts.arena.get(ret), Type::Prim(_))
            && !matches!(self.api.ts.arena.get(want), Type::Prim(_))
            && self.prim_of(want).is_none()
        {
            return false;
        }
        // Kotlin: its `Int`, `String`, ... implement no `Constable` or `ConstantDesc`
        // (`FailableDoubleFunction<ConstantDesc, ..>(System::identityHashCode)` is an error)
        if !self.rules.sees_java_supertypes_of_builtins()
            && (matches!(self.api.ts.arena.get(ret), Type::Prim(_))
                || self.prim_of(ret).is_some()
                || self
                    .api
                    .ts
                    .arena
                    .as_class(ret)
                    .is_some_and(|(n, _)| n == self.ctx.string_sym))
            && self.mentions_java_only_supertype(want)
        {
            return false;
        }
        self.java_converts(ret, want)
    }

    /// True when arguments of types `args` convert to parameters `params` (a boxed argument
    /// to a wider primitive only where the language widens after unboxing).
    pub(crate) fn args_fit(&mut self, args: &[TypeId], params: &[TypeId]) -> bool {
        let widens = self.rules.widens_unboxed_reference_args();
        args.len() == params.len()
            && args.iter().zip(params).all(|(&a, &p)| {
                self.api.ts.arena.is_ground(p)
                    && self.java_converts(a, p)
                    && (widens
                        || !matches!(self.api.ts.arena.get(p), Type::Prim(_))
                        || self.prim_of(a) == self.prim_of(p))
            })
    }

    /// True when `t` mentions `Constable` or `ConstantDesc`, Java interfaces of `String`, the
    /// boxes and enums that Kotlin's own `String`, `Int`, `Enum` do not implement.
    pub(crate) fn mentions_java_only_supertype(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        match a.get(t) {
            Type::Class { name, args } => {
                matches!(
                    a.name(*name),
                    "java.lang.constant.Constable" | "java.lang.constant.ConstantDesc"
                ) || args.iter().any(|&x| self.mentions_java_only_supertype(x))
            }
            Type::Wildcard(Wildcard::Extends(b) | Wildcard::Super(b))
            | Type::Array(b)
            | Type::Nullable(b) => self.mentions_java_only_supertype(*b),
            _ => false,
        }
    }

    /// True when the bound of another type parameter of class `name` mentions its type
    /// parameter `i` (`S extends BaseStream<T, S>` mentions `T`).
    pub(crate) fn bound_mentions_param(&self, name: crate::types::Sym, i: usize) -> bool {
        let Some(c) = self.api.class_by_sym(name) else {
            return false;
        };
        let params = &self.api.class(c).type_params;
        let Some(&p) = params.get(i) else {
            return false;
        };
        let a = &self.api.ts.arena;
        params
            .iter()
            .enumerate()
            .any(|(j, &q)| j != i && a.var(q).upper.iter().any(|&b| a.free_vars(b).contains(&p)))
    }

    /// True when `t` is within the ground upper bounds of type parameter `i` of class `name`
    /// (a bound that mentions type variables is not checked: `false`).
    pub(crate) fn within_bounds(&mut self, name: crate::types::Sym, i: usize, t: TypeId) -> bool {
        let Some(c) = self.api.class_by_sym(name) else {
            return false;
        };
        let Some(&p) = self.api.class(c).type_params.get(i) else {
            return false;
        };
        let var = self.api.ts.arena.var(p).clone();
        // a not-null parameter (Kotlin `T : Any`, JSpecify `@NullMarked`) takes no `X?`
        if var.not_null && matches!(self.api.ts.arena.get(t), Type::Nullable(_)) {
            return false;
        }
        var.upper
            .iter()
            .all(|&b| self.api.ts.arena.is_ground(b) && self.api.ts.is_subtype(t, b))
    }

    /// True when the target language gives a value of type `t` members its class lacks
    /// ([`LanguageRules::enriches_strings_and_arrays`](super::rules::LanguageRules::enriches_strings_and_arrays): `String` and arrays in Scala).
    pub(crate) fn enriched(&self, t: TypeId) -> bool {
        self.rules.enriches_strings_and_arrays()
            && match *self.api.ts.arena.get(t) {
                Type::Array(_) => true,
                Type::Class { name, .. } => name == self.ctx.string_sym,
                _ => false,
            }
    }

    /// True when the target language converts an integral constant to a variable of type
    /// `x` ([`LanguageRules::converts_constants_to_any_number`](super::rules::LanguageRules::converts_constants_to_any_number)).
    pub(crate) fn converts_constant(&self, x: TypeId) -> bool {
        self.rules.converts_constants_to_any_number() && self.is_numeric(x)
    }

    /// True when Scala may convert a `from` where a `to` is expected: any value to `Unit`
    /// (value discarding), or through one of the API's implicit conversions
    /// (`SynthContext::scala_views`) whose parameter takes a `from` and whose result is a
    /// `to`. Classes are compared without their type arguments and the conversion's scope is
    /// not checked: an over-approximation, so that no position a conversion could repair is
    /// taken for a type error.
    fn scala_converts(&mut self, from: TypeId, to: TypeId) -> bool {
        // (a by-name parameter `=> Unit` takes what its type takes)
        let to = match *self.api.ts.arena.get(to) {
            Type::ByName(t) => t,
            _ => to,
        };
        if is_void(&self.api.ts.arena, to) {
            return true;
        }
        let results = self.scala_view_results(from);
        results.into_iter().any(|r| self.erased_conforms(r, to))
    }

    /// True when Scala may splice a `from` into the variable-arity parameter of array type
    /// `to`: a program writes the array argument `x*`, which takes any `Seq`, so a value that
    /// one of the API's implicit conversions makes a `scala.collection.Seq` fits (a `String`
    /// through `wrapString` for `char...`: `addAll(chars, ""*)`); element types are not
    /// compared, an over-approximation as in [`Self::scala_converts`].
    pub(crate) fn scala_splices(&mut self, from: TypeId, to: TypeId) -> bool {
        let elem = match *self.api.ts.arena.get(to) {
            Type::Array(e) if self.rules.converts_by_views() => e,
            _ => return false,
        };
        // Predef's `wrapString` is in scope in every Scala program, whatever the API
        let string = self.api.ts.arena.class(self.ctx.string_sym, &[]);
        if from == string && matches!(self.api.ts.arena.get(elem), Type::Prim(Prim::Char)) {
            return true;
        }
        let Some(seq) = self.api.ts.arena.find_sym("scala.collection.Seq") else {
            return false;
        };
        let seq = self.api.ts.arena.class(seq, &[]);
        let results = self.scala_view_results(from);
        results.into_iter().any(|r| self.erased_conforms(r, seq))
    }

    /// The result types of the API's implicit conversions (`SynthContext::scala_views`)
    /// whose parameter takes a `from` ([`Self::erased_conforms`]).
    fn scala_view_results(&mut self, from: TypeId) -> Vec<TypeId> {
        let mut out = Vec::new();
        for i in 0..self.ctx.scala_views.len() {
            let (param, result) = self.ctx.scala_views[i];
            if self.erased_conforms(from, param) {
                out.push(result);
            }
        }
        out
    }

    /// True when `s` conforms to `t` with type arguments ignored: `t` a type variable (any
    /// `s`), the same primitive or its box, a subclass of `t`'s class, arrays for an array.
    fn erased_conforms(&mut self, s: TypeId, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        match *a.get(t) {
            Type::Var(_) | Type::Top => true,
            // (a primitive widens first: `DurationLong(n: Long)` takes an `Int`)
            Type::Prim(p) => self
                .prim_of(s)
                .is_some_and(|q| q == p || wider_prims(q).contains(&p)),
            Type::Array(_) => matches!(a.get(s), Type::Array(_)),
            Type::Class { name, .. } => {
                let s = match *a.get(s) {
                    Type::Prim(p) => match self.ctx.box_of(p) {
                        Some(b) => self.api.ts.arena.class(b, &[]),
                        None => return false,
                    },
                    _ => s,
                };
                self.api.ts.is_root_class(name) || self.api.ts.as_super(s, name).is_some()
            }
            _ => false,
        }
    }

    /// True when the target language converts a `from` value to a `to` variable at `site`
    /// although Java would not: Scala 2 widens then boxes
    /// ([`widens_then_boxes`](super::rules::LanguageRules::widens_then_boxes)); Scala discards a value into `Unit` and
    /// converts through the API's implicit views
    /// ([`converts_by_views`](super::rules::LanguageRules::converts_by_views)); Groovy coerces on assignment
    /// ([`coerces_on_assignment`](super::rules::LanguageRules::coerces_on_assignment)).
    pub fn lenient_conversion(&mut self, from: TypeId, to: TypeId, site: ConversionSite) -> bool {
        if self.rules.converts_by_views() && self.scala_converts(from, to) {
            return true;
        }
        if self.rules.widens_then_boxes() {
            return match (self.prim_of(from), self.prim_of(to)) {
                (Some(a), Some(b)) => a == b || wider_prims(a).contains(&b),
                _ => false,
            };
        }
        if site != ConversionSite::Assignment || !self.rules.coerces_on_assignment() {
            return false;
        }
        let names = |w: &Typing<'_>, t: TypeId| -> Option<String> {
            w.api
                .ts
                .arena
                .as_class(t)
                .map(|(n, _)| w.api.ts.arena.name(n).to_string())
        };
        let loose = |w: &Typing<'_>, t: TypeId| -> bool {
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

    /// True when Scala may call a member named `name` on a receiver of type `x` through one
    /// of the API's implicit conversions (`x + "s"` through `any2stringadd`, `n.max(m)`
    /// through `intWrapper`): one whose parameter takes an `x` and whose result's class has a
    /// member of the name (over-approximated as in [`Self::scala_converts`]).
    pub(crate) fn scala_view_gives(&mut self, x: TypeId, name: &str) -> bool {
        if !self.rules.converts_by_views() {
            return false;
        }
        self.scala_view_results(x).into_iter().any(|result| {
            self.api
                .ts
                .arena
                .as_class(result)
                .and_then(|(c, _)| self.api.class_by_sym(c))
                .and_then(|c| self.ctx.members_by_name.get(&c))
                .is_some_and(|by| by.contains_key(name))
        })
    }
}

/// True for the numeric primitives.
pub fn is_num(p: Prim) -> bool {
    !matches!(p, Prim::Boolean | Prim::Void)
}

/// The type of a numeric conditional whose branches have (or unbox to) `p` and `q`
/// (JLS 15.25.2, without the constant rules, which only narrow it): `short` for `byte` and
/// `short`, the type itself when both are equal, else binary numeric promotion.
pub fn promoted(p: Prim, q: Prim) -> Prim {
    use Prim::*;
    if p == q {
        return p;
    }
    if matches!((p, q), (Byte, Short) | (Short, Byte)) {
        return Short;
    }
    let rank = |x: Prim| match x {
        Double => 4,
        Float => 3,
        Long => 2,
        _ => 1,
    };
    match rank(p).max(rank(q)) {
        4 => Double,
        3 => Float,
        2 => Long,
        _ => Int,
    }
}

#[cfg(test)]
mod tests {
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::Fixture;

    #[test]
    fn numeric_conditionals_promote_as_java_does() {
        assert_eq!(promoted(Prim::Byte, Prim::Short), Prim::Short);
        assert_eq!(promoted(Prim::Char, Prim::Short), Prim::Int);
        assert_eq!(promoted(Prim::Int, Prim::Long), Prim::Long);
        assert_eq!(promoted(Prim::Long, Prim::Float), Prim::Float);
        assert_eq!(promoted(Prim::Char, Prim::Char), Prim::Char);
        assert_eq!(promoted(Prim::Byte, Prim::Double), Prim::Double);
        assert!(is_num(Prim::Char) && !is_num(Prim::Boolean) && !is_num(Prim::Void));
    }

    #[test]
    fn java_assigns_by_widening_boxing_and_unboxing() {
        let mut fx = Fixture::java_base();
        let cases = [
            ("int", "long", true),
            ("long", "int", false),
            ("char", "int", true),
            ("int", "java.lang.Integer", true),
            // boxing then widening reference
            ("int", "java.lang.Number", true),
            ("int", "java.lang.Long", false),
            // unboxing then widening
            ("java.lang.Integer", "long", true),
            ("java.lang.Integer", "java.lang.Long", false),
            ("java.lang.String", "java.lang.CharSequence", true),
            // unchecked conversion of a raw type
            (
                "java.util.ArrayList",
                "java.util.List<java.lang.String>",
                true,
            ),
            (
                "java.util.List<java.lang.Integer>",
                "java.util.List<java.lang.Number>",
                false,
            ),
        ];
        for (from, to, want) in cases {
            let (f, t) = (fx.ty(from), fx.ty(to));
            assert_eq!(
                fx.typing(Language::Java).assignable(f, t),
                want,
                "{from} to {to}"
            );
        }
    }

    #[test]
    fn method_invocation_boxes_only_in_its_loose_phase() {
        let mut fx = Fixture::java_base();
        let (int, integer, long) = (fx.ty("int"), fx.ty("java.lang.Integer"), fx.ty("long"));
        let mut t = fx.typing(Language::Java);
        assert!(t.convertible(int, long, false), "widening is strict");
        assert!(!t.convertible(int, integer, false), "boxing is loose");
        assert!(t.convertible(int, integer, true));
    }

    #[test]
    fn groovy_converts_between_any_numbers_where_java_does_not() {
        let mut fx = Fixture::java_base();
        let (long, integer) = (fx.ty("long"), fx.ty("java.lang.Integer"));
        for (lang, want) in [(Language::Java, false), (Language::Groovy, true)] {
            assert_eq!(
                fx.typing(lang).convertible(long, integer, true),
                want,
                "{lang}: long to Integer"
            );
        }
    }

    #[test]
    fn each_language_widens_its_own_primitives_in_functions() {
        let mut fx = Fixture::java_base();
        let (int, long, char_) = (fx.ty("int"), fx.ty("long"), fx.ty("char"));
        let (object, integer) = (fx.ty("java.lang.Object"), fx.ty("java.lang.Integer"));
        let (strings, objects) = (fx.ty("java.lang.String[]"), fx.ty("java.lang.Object[]"));
        // (language, int → long, char → int, String[] → Object[])
        for (lang, widens, char_widens, covariant) in [
            (Language::Java, true, true, true),
            (Language::Kotlin, false, false, true),
            (Language::Groovy, true, false, true),
            (Language::Scala3, true, true, false),
        ] {
            let mut t = fx.typing(lang);
            assert_eq!(t.java_converts(int, long), widens, "{lang}: int to long");
            assert_eq!(
                t.java_converts(char_, int),
                char_widens,
                "{lang}: char to int"
            );
            assert_eq!(
                t.java_converts(strings, objects),
                covariant,
                "{lang}: String[] to Object[]"
            );
        }
        // a function's `int` result: Groovy widens no closure result, Scala boxes it to
        // `Integer` alone
        for (lang, to_long, to_object, to_integer) in [
            (Language::Java, true, true, true),
            (Language::Groovy, false, true, true),
            (Language::Scala2, true, false, true),
        ] {
            let mut t = fx.typing(lang);
            assert_eq!(t.function_result_converts(int, long), to_long, "{lang}");
            assert_eq!(t.function_result_converts(int, object), to_object, "{lang}");
            assert_eq!(
                t.function_result_converts(int, integer),
                to_integer,
                "{lang}"
            );
        }
    }

    #[test]
    fn conversions_java_lacks_depend_on_the_language_and_the_site() {
        use ConversionSite::{Argument, Assignment};
        let mut fx = Fixture::java_base();
        let int = fx.ty("int");
        let long = fx.ty("java.lang.Long");
        let string = fx.ty("java.lang.String");
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
            let mut t = fx.typing(lang);
            let mut got =
                |to: TypeId| [Assignment, Argument].map(|site| t.lenient_conversion(int, to, site));
            assert_eq!(got(long), to_long, "{lang}: int to Long");
            assert_eq!(got(string), to_string, "{lang}: int to String");
        }
    }

    #[test]
    fn scala_discards_any_value_into_unit() {
        let mut fx = Fixture::java_base();
        let (string, void) = (fx.ty("java.lang.String"), fx.ty("void"));
        for (lang, discards) in [
            (Language::Java, false),
            (Language::Kotlin, false),
            (Language::Scala3, true),
            (Language::Scala2, true),
        ] {
            let got = fx
                .typing(lang)
                .lenient_conversion(string, void, ConversionSite::Argument);
            assert_eq!(got, discards, "{lang}: String to Unit");
        }
    }

    #[test]
    fn groovy_coerces_on_assignment_to_truth_strings_arrays_and_big_numbers() {
        use ConversionSite::{Argument, Assignment};
        let mut fx = Fixture::java_base();
        let list = fx.ty("java.util.ArrayList<java.lang.String>");
        let strings = fx.ty("java.lang.String[]");
        let boolean = fx.ty("boolean");
        let big = fx.ty("java.math.BigDecimal");
        let int = fx.ty("int");
        let date = fx.ty("java.util.Date");
        let string = fx.ty("java.lang.String");
        let cases = [
            (list, strings, true),
            (date, boolean, true),
            (date, string, true),
            (int, big, true),
            (string, date, false),
        ];
        for (from, to, want) in cases {
            let mut t = fx.typing(Language::Groovy);
            assert_eq!(t.lenient_conversion(from, to, Assignment), want);
            assert!(
                !t.lenient_conversion(from, to, Argument),
                "only on assignment"
            );
            assert!(!fx
                .typing(Language::Java)
                .lenient_conversion(from, to, Assignment));
        }
    }

    #[test]
    fn type_arguments_are_checked_against_ground_bounds() {
        let mut fx = Fixture::java_base();
        let (integer, string) = (fx.ty("java.lang.Integer"), fx.ty("java.lang.String"));
        let optional = fx.api.ts.arena.sym("java.util.OptionalInt");
        let enum_map = fx.api.ts.arena.sym("java.util.EnumMap");
        let mut t = fx.typing(Language::Java);
        // `EnumMap<K extends Enum<K>, V>`: K's bound mentions K, V has none
        assert!(!t.within_bounds(enum_map, 0, string));
        assert!(t.within_bounds(enum_map, 1, integer));
        // a class without type parameters takes none
        assert!(!t.within_bounds(optional, 0, integer));
    }

    #[test]
    fn a_test_method_variable_meets_the_bound_of_the_class_it_instantiates() {
        let mut fx = Fixture::java_base();
        let a = &mut fx.api.ts.arena;
        let serializable = a.class_named("java.io.Serializable", &[]);
        let unit = a.class_named("java.util.concurrent.TimeUnit", &[]);
        let v = a.new_var("T", "test");
        a.var_mut(v).upper = vec![serializable];
        let t = a.var_type(v);
        let desc_t = a.class_named("java.lang.Enum.EnumDesc", &[t]);
        let desc_unit = a.class_named("java.lang.Enum.EnumDesc", &[unit]);
        let list_t = a.class_named("java.util.List", &[desc_t]);
        let ts = &mut fx.api.ts;
        assert!(
            !ts.is_well_formed(desc_t),
            "EnumDesc<T extends Serializable>"
        );
        assert!(!ts.is_well_formed(list_t), "List<EnumDesc<T>>");
        assert!(ts.is_well_formed(desc_unit), "EnumDesc<TimeUnit>");
    }

    #[test]
    fn kotlin_sees_no_java_only_supertype_of_its_builtins() {
        let mut fx = Fixture::java_base();
        let constable = fx.ty("java.util.List<java.lang.constant.Constable>");
        let number = fx.ty("java.util.List<java.lang.Number>");
        let int = fx.ty("int");
        let mut t = fx.typing(Language::Kotlin);
        assert!(t.mentions_java_only_supertype(constable));
        assert!(!t.mentions_java_only_supertype(number));
        // Kotlin's `Int` implements no `Constable`
        let desc = t
            .api
            .ts
            .arena
            .class_named("java.lang.constant.Constable", &[]);
        assert!(!t.function_result_converts(int, desc));
        assert!(fx
            .typing(Language::Java)
            .function_result_converts(int, desc));
    }
}

#[cfg(test)]
mod splice_tests {
    use thalia_translators::Language;

    use crate::synth::typing::testing::Fixture;
    use crate::types::Syntax;

    #[test]
    fn a_scala_splice_takes_a_string_for_a_char_variable_arity_parameter() {
        // `ArrayUtils.addAll(chars, ""*)`: Predef's `wrapString` makes the `String` a
        // `Seq[Char]`, which the splice takes; a `Thread` has no conversion to a `Seq`
        let mut fx = Fixture::corpus("scala-library-2.13.18", Some(Syntax::Scala));
        let (string, thread, chars) = (
            fx.ty("java.lang.String"),
            fx.ty("java.lang.Thread"),
            fx.ty("char[]"),
        );
        let mut scala = fx.typing(Language::Scala3);
        assert!(scala.scala_splices(string, chars));
        assert!(!scala.scala_splices(thread, chars));
        let mut java = fx.typing(Language::Java);
        assert!(!java.scala_splices(string, chars));
        // the embedded default API has no scala-library, and Predef still converts
        let mut fx = Fixture::java_base();
        let (string, chars, ints) = (fx.ty("java.lang.String"), fx.ty("char[]"), fx.ty("int[]"));
        let mut scala = fx.typing(Language::Scala2);
        assert!(scala.scala_splices(string, chars));
        assert!(!scala.scala_splices(string, ints));
    }
}
