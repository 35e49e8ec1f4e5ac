//! The implicit arguments scalac finds by itself (issue #15): a Scala program may leave a
//! call's implicit (`using`) list out, so that scalac's implicit search supplies it, where
//! the search is certain to succeed for reasons that do not depend on what is imported:
//!
//! - instances the compiler synthesizes: `ClassTag[X]` for a type that is no type variable,
//!   `X <:< Y` and a function `X => Y` (`Predef.$conforms`) where `X` is a subtype of `Y`,
//!   `X =:= X`, `DummyImplicit`;
//! - the standard library's instances in the type class's companion object, which is in
//!   every search's implicit scope: `Ordering` of the numeric types, `String`, `Boolean`,
//!   `Unit` and of `Option`s and tuples of such; `Numeric`, `Integral` and `Fractional` of
//!   the numeric types.
//!
//! - the API's own instances: an implicit `val` or parameterless `def` of a class's
//!   companion object (`object Invariant { implicit def catsInstancesForList: Monad[List] &
//!   Alternative[List] & … }`), found for a wanted type `TC[A]` when the companion is in its
//!   implicit scope (the companion of `TC` or of one of its supertypes, of `A`'s class or of
//!   one of its supertypes), one of the instance's types is a subtype of `TC[A]`, it is the
//!   only such instance there, and no implicit method there returns `TC` or a subclass of it
//!   (a generic or conditional instance, which could make the search ambiguous)
//!   ([`ImplicitIndex`](crate::synth::context::ImplicitIndex)).
//!
//! Anything else (an `ExecutionContext`, a type class instance an import provides, a type
//! variable's `ClassTag`) is supplied as an argument, as before.

use rustc_hash::FxHashSet;

use super::checker::Typing;
use crate::api::MemberId;
use crate::types::{Subst, Sym, Type, TypeId};

/// The numeric types of the standard library with `Numeric` instances (and `Ordering`).
const NUMERIC: [&str; 9] = [
    "scala.Int",
    "scala.Long",
    "scala.Short",
    "scala.Byte",
    "scala.Char",
    "scala.Double",
    "scala.Float",
    "scala.math.BigInt",
    "scala.math.BigDecimal",
];

/// The types with `Integral` instances.
const INTEGRAL: [&str; 6] = [
    "scala.Int",
    "scala.Long",
    "scala.Short",
    "scala.Byte",
    "scala.Char",
    "scala.math.BigInt",
];

/// The types with `Fractional` instances.
const FRACTIONAL: [&str; 3] = ["scala.Double", "scala.Float", "scala.math.BigDecimal"];

/// The other types with `Ordering` instances in its companion.
const ORDERED: [&str; 4] = [
    "java.lang.String",
    "scala.Boolean",
    "scala.Unit",
    "scala.Predef.String",
];

/// The tuple classes whose `Ordering` the companion derives from their elements'.
const ORDERED_TUPLES: [&str; 3] = ["scala.Tuple2", "scala.Tuple3", "scala.Tuple4"];

impl Typing<'_> {
    /// True when every implicit parameter of member `m` (under `s`) is one scalac finds by
    /// itself ([`Self::implicit_found`]); false for a member without implicit parameters.
    pub fn implicits_found(&mut self, m: MemberId, s: &Subst) -> bool {
        let mem = self.api.member(m).clone();
        let Some(lists) = &mem.scala_lists else {
            return false;
        };
        if lists.implicit == 0 || lists.implicit > mem.params.len() {
            return false;
        }
        let first = mem.params.len() - lists.implicit;
        mem.params[first..].iter().all(|p| {
            let t = self.api.ts.arena.subst(p.ty, s);
            self.implicit_found(t)
        })
    }

    /// True when scalac's implicit search is certain to find a value of type `t` whatever
    /// the program imports (see the module documentation).
    pub fn implicit_found(&mut self, t: TypeId) -> bool {
        if !self.api.ts.arena.is_ground(t) {
            return false;
        }
        if let Type::Function { params, ret, .. } = self.api.ts.arena.get(t).clone() {
            return params.len() == 1 && self.conforms(params[0], ret);
        }
        let Some((sym, args)) = self.api.ts.arena.as_class(t).map(|(s, a)| (s, a.to_vec())) else {
            return false;
        };
        let name = self.api.ts.arena.name(sym).to_string();
        match (name.as_str(), args.as_slice()) {
            ("scala.DummyImplicit", []) => true,
            ("scala.reflect.ClassTag", [x]) => self.class_tag_found(*x),
            ("scala.<:<" | "scala.Function1", [x, y]) => self.conforms(*x, *y),
            ("scala.=:=", [x, y]) => x == y && self.is_class_type(*x),
            ("scala.math.Ordering", [x]) => self.ordering_found(*x),
            ("scala.math.Numeric", [x]) => self.named_in(*x, &NUMERIC),
            ("scala.math.Integral", [x]) => self.named_in(*x, &INTEGRAL),
            ("scala.math.Fractional", [x]) => self.named_in(*x, &FRACTIONAL),
            _ => self.api_instance_found(t),
        }
    }

    /// True when exactly one of the API's implicit instances in `t`'s implicit scope has
    /// a type below `t`, and no implicit method there produces `t`'s class or a subclass
    /// (see the module documentation).
    fn api_instance_found(&mut self, t: TypeId) -> bool {
        let index = &self.ctx.scala_instances;
        if index.instances.is_empty() {
            return false;
        }
        let Some((tc, args)) = self.api.ts.arena.as_class(t).map(|(s, a)| (s, a.to_vec())) else {
            return false;
        };
        // the implicit scope: the classes of `t`'s supertypes and of its arguments'
        let mut scope: FxHashSet<Sym> = FxHashSet::default();
        for u in std::iter::once(t).chain(args.iter().copied()) {
            for s in self.api.ts.all_supertypes(u) {
                if let Some((c, _)) = self.api.ts.arena.as_class(s) {
                    scope.insert(c);
                }
            }
        }
        let producers = index
            .producers
            .iter()
            .filter(|(owner, _)| scope.contains(owner))
            .map(|&(_, r)| r)
            .collect::<Vec<_>>();
        for r in producers {
            let below = r == tc || {
                let rt = self.api.ts.self_type(r);
                self.api
                    .ts
                    .all_supertypes(rt)
                    .iter()
                    .any(|&s| self.api.ts.arena.as_class(s).is_some_and(|(c, _)| c == tc))
            };
            if below {
                return false;
            }
        }
        let candidates: Vec<Vec<TypeId>> = index
            .instances
            .iter()
            .filter(|(owner, _)| scope.contains(owner))
            .map(|(_, parts)| parts.clone())
            .collect();
        let mut found = 0;
        for parts in candidates {
            if parts.iter().any(|&p| self.api.ts.is_subtype(p, t)) {
                found += 1;
            }
        }
        found == 1
    }

    /// `ClassTag[x]`: synthesized for any class type, however applied (its erasure is
    /// known), and for arrays of such; not for a type variable.
    fn class_tag_found(&self, x: TypeId) -> bool {
        match self.api.ts.arena.get(x) {
            Type::Class { .. } => true,
            Type::Array(e) => self.class_tag_found(*e),
            _ => false,
        }
    }

    /// `Ordering[x]`: the companion's instances for the numeric types, `String`, `Boolean`,
    /// `Unit`, and for `Option`s and tuples of types with one.
    fn ordering_found(&self, x: TypeId) -> bool {
        if self.named_in(x, &NUMERIC) || self.named_in(x, &ORDERED) {
            return true;
        }
        let Some((sym, args)) = self.api.ts.arena.as_class(x) else {
            return false;
        };
        let name = self.api.ts.arena.name(sym);
        let derived = name == "scala.Option" && args.len() == 1
            || ORDERED_TUPLES.contains(&name) && !args.is_empty();
        derived && args.iter().all(|&a| self.ordering_found(a))
    }

    /// True when `x` is a class type named one of `names`, without type arguments.
    fn named_in(&self, x: TypeId, names: &[&str]) -> bool {
        self.api
            .ts
            .arena
            .as_class(x)
            .is_some_and(|(s, a)| a.is_empty() && names.contains(&self.api.ts.arena.name(s)))
    }

    /// True for a class type (not a primitive, a variable or a function type).
    fn is_class_type(&self, x: TypeId) -> bool {
        matches!(self.api.ts.arena.get(x), Type::Class { .. })
    }

    /// `x <:< y` (and so `x => y`): both class types, `x` a subtype of `y`.
    fn conforms(&mut self, x: TypeId, y: TypeId) -> bool {
        self.is_class_type(x) && self.is_class_type(y) && self.api.ts.is_subtype(x, y)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::{class, java_lang, with, Fixture};
    use crate::types::{parse_type, scala_view, Syntax};

    /// `name[args]` in the fixture's arena.
    fn of(fx: &mut Fixture, name: &str, args: &[TypeId]) -> TypeId {
        fx.api.ts.arena.class_named(name, args)
    }

    #[test]
    fn scalac_synthesizes_class_tags_and_conformance_evidence() {
        let mut fx = Fixture::java_base();
        let (string, object) = (fx.ty("java.lang.String"), fx.ty("java.lang.Object"));
        let strings = fx.ty("java.lang.String[]");
        let v = fx.api.ts.arena.new_var("T", "m");
        let t = fx.api.ts.arena.var_type(v);
        let found = [
            of(&mut fx, "scala.reflect.ClassTag", &[string]),
            of(&mut fx, "scala.reflect.ClassTag", &[strings]),
            of(&mut fx, "scala.<:<", &[string, object]),
            of(&mut fx, "scala.Function1", &[string, object]),
            of(&mut fx, "scala.=:=", &[string, string]),
            of(&mut fx, "scala.DummyImplicit", &[]),
        ];
        let not_found = [
            // a type variable's erasure is unknown
            of(&mut fx, "scala.reflect.ClassTag", &[t]),
            of(&mut fx, "scala.<:<", &[object, string]),
            of(&mut fx, "scala.=:=", &[string, object]),
            of(&mut fx, "scala.concurrent.ExecutionContext", &[]),
        ];
        let mut c = fx.typing(Language::Scala3);
        for x in found {
            assert!(c.implicit_found(x), "{x:?}");
        }
        for x in not_found {
            assert!(!c.implicit_found(x), "{x:?}");
        }
    }

    #[test]
    fn the_standard_orderings_and_numerics_are_found() {
        let mut fx = Fixture::java_base();
        let int = of(&mut fx, "scala.Int", &[]);
        let double = of(&mut fx, "scala.Double", &[]);
        let string = fx.ty("java.lang.String");
        let object = fx.ty("java.lang.Object");
        let option = of(&mut fx, "scala.Option", &[string]);
        let pair = of(&mut fx, "scala.Tuple2", &[int, option]);
        let odd_pair = of(&mut fx, "scala.Tuple2", &[int, object]);
        let cases = [
            ("scala.math.Ordering", int, true),
            ("scala.math.Ordering", pair, true),
            ("scala.math.Ordering", odd_pair, false),
            ("scala.math.Numeric", double, true),
            ("scala.math.Numeric", string, false),
            ("scala.math.Integral", int, true),
            ("scala.math.Integral", double, false),
            ("scala.math.Fractional", double, true),
        ];
        for (tc, x, want) in cases {
            let wanted = of(&mut fx, tc, &[x]);
            let got = fx.typing(Language::Scala3).implicit_found(wanted);
            assert_eq!(got, want, "{tc} of {x:?}");
        }
    }

    #[test]
    fn an_api_instance_is_found_in_the_implicit_scope_when_it_is_the_only_one() {
        let instance = |name: &str, ty: &str| {
            json!({"name": name, "type": ty, "is_static": true, "implicit": true,
                   "access_mod": "public", "type_parameters": []})
        };
        let show = |fields: Vec<serde_json::Value>, methods: Vec<serde_json::Value>| {
            let mut docs = java_lang();
            docs.push(with(
                class("p.Show", "scala", &[], methods),
                json!({"type_parameters": ["T"], "class_type": 1, "fields": fields}),
            ));
            Fixture::of(docs, Some(Syntax::Scala))
        };
        let wanted = |fx: &mut Fixture, text: &str| {
            let t = parse_type(&mut fx.api.ts.arena, Syntax::Scala, text, &[]).expect("a type");
            scala_view::to_jvm(&mut fx.api.ts.arena, t, true)
        };
        let int_show = instance("intShow", "p.Show[scala.Int]");
        // one instance: found for its own type only
        let mut fx = show(vec![int_show.clone()], vec![]);
        let (of_int, of_string) = (
            wanted(&mut fx, "p.Show[scala.Int]"),
            wanted(&mut fx, "p.Show[java.lang.String]"),
        );
        let mut c = fx.typing(Language::Scala3);
        assert!(c.implicit_found(of_int));
        assert!(!c.implicit_found(of_string));
        // two instances of the type: ambiguous
        let mut fx = show(
            vec![
                int_show.clone(),
                instance("otherIntShow", "p.Show[scala.Int]"),
            ],
            vec![],
        );
        let of_int = wanted(&mut fx, "p.Show[scala.Int]");
        assert!(!fx.typing(Language::Scala3).implicit_found(of_int));
        // a generic implicit method producing the type class could be chosen too
        let producer = json!({"name": "listShow", "parameters": [],
            "type_parameters": ["A"], "return_type": "p.Show[A]", "is_static": true,
            "is_constructor": false, "access_mod": "public", "implicit": true});
        let mut fx = show(vec![int_show], vec![producer]);
        let of_int = wanted(&mut fx, "p.Show[scala.Int]");
        assert!(!fx.typing(Language::Scala3).implicit_found(of_int));
    }
}
