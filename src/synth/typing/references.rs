//! What a function reference may name: the members a reference can name at all, JLS 15.13.1
//! (the compile-time declaration of `C::m` or `e::m` is the chosen method alone), Kotlin's
//! callable references to a package's functions (the only namesake that takes the function's
//! parameters without adaptation) and their type arguments inferred from the function type.

use super::checker::Typing;
use super::sequence::OBJECT_METHODS;
use crate::api::{MemberId, MemberKind};
use crate::synth::context::java_expressible;
use crate::types::{Subst, Type, TypeId};

impl Typing<'_> {
    /// True when a member can be named by a reference at all: usable, not generic, not of
    /// variable arity, no checked exception, not one of `Object`'s methods.
    fn referencable(&self, m: MemberId) -> bool {
        self.api.member(m).type_params.is_empty() && self.referencable_generic(m)
    }

    /// [`Self::referencable`] but for a generic member whose type parameters the expected
    /// function type can fix (Kotlin infers a package function's type arguments from it):
    /// none is higher-kinded or reified.
    pub(crate) fn referencable_generic(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        self.ctx.path_usable.contains(&m)
            && mem.type_params.iter().all(|&v| {
                let var = self.api.ts.arena.var(v);
                !var.higher_kinded && !var.reified
            })
            && !mem.params.iter().any(|p| p.vararg)
            && mem.scala_lists.is_none()
            && !self.ctx.throws_checked.contains(&m)
            && !OBJECT_METHODS.contains(&mem.name.as_str())
            && !self.api.is_signature_polymorphic(m)
    }

    /// True when a member is usable here: referencable and the language sees it; where the
    /// language maps Java classes to its own ([`super::rules::LanguageRules::maps_java_classes`]),
    /// not a member that it shows with its own signature, name or nullability (Kotlin's
    /// mapped types' `Map.Entry::getValue` is the property `value`, `WeakHashMap::values`
    /// names a field), which a callable reference cannot adapt.
    pub(crate) fn usable_ref(&mut self, m: MemberId) -> bool {
        self.referencable(m)
            && self.language_problem(m).is_none()
            && !(self.rules.maps_java_classes() && self.kotlin_retypes(m, None, true))
    }

    /// JLS 15.13.1 for the methods named like `m` in its declaring class (seen through
    /// `recv`): see [`Self::only_applicable_in`].
    pub(crate) fn only_applicable(
        &mut self,
        m: MemberId,
        recv: &Subst,
        args: &[TypeId],
        other_arity: Option<usize>,
    ) -> bool {
        let owner = self.api.member(m).owner;
        self.only_applicable_in(owner, m, recv, args, other_arity)
    }

    /// True when every parameter erases like the argument (an overload Java may still
    /// consider through unchecked conversion).
    fn same_erasure(&mut self, ps: &[TypeId], args: &[TypeId]) -> bool {
        ps.iter().zip(args).all(|(&p, &a)| {
            let (ep, ea) = (self.api.ts.erase(p), self.api.ts.erase(a));
            ep == ea
        })
    }

    /// JLS 15.13.1 for the methods named like `m` in class `cid` (inherited ones too, seen
    /// through `recv`): true when `m` is the only one applicable to `args` among those with
    /// `args.len()` parameters, and no namesake with `other_arity` parameters exists (the
    /// other search). A generic or variable-arity namesake, or one whose parameters the
    /// receiver does not fix, makes the reference unsafe.
    pub(crate) fn only_applicable_in(
        &mut self,
        cid: crate::api::ClassId,
        m: MemberId,
        recv: &Subst,
        args: &[TypeId],
        other_arity: Option<usize>,
    ) -> bool {
        let name = self.api.member(m).name.clone();
        let Some(rs) = self.namesakes(cid, &name) else {
            return false;
        };
        for r in rs {
            if r.member == m {
                continue;
            }
            let o = self.api.member(r.member).clone();
            if o.kind != MemberKind::Method {
                continue;
            }
            if !o.type_params.is_empty() || o.params.iter().any(|p| p.vararg) {
                return false;
            }
            if Some(o.params.len()) == other_arity {
                return false;
            }
            if o.params.len() != args.len() {
                continue;
            }
            let ps: Vec<TypeId> = o
                .params
                .iter()
                .map(|p| {
                    let t = self.api.ts.arena.subst(p.ty, &r.subst);
                    self.api.ts.arena.subst(t, recv)
                })
                .collect();
            if ps.iter().any(|&p| !self.api.ts.arena.is_ground(p)) {
                return false;
            }
            if self.args_fit(args, &ps) || self.same_erasure(&ps, args) {
                return false;
            }
        }
        true
    }

    /// True when no other function or property of `m`'s package with `m`'s name takes
    /// `fn_params` (the extension receiver first) as they are. An alias imports every
    /// namesake of the package (and nothing else), so these are the reference's
    /// candidates; kotlinc ranks a candidate that needs no adaptation (no defaults left
    /// out, no `vararg` spread, no `Unit` coercion) above those that do, so only namesakes
    /// of the same arity compete: a generic one when its parameters unify with the
    /// function's ([`Self::unify_above`]), another when it takes them.
    pub(crate) fn sole_package_candidate(&mut self, m: MemberId, fn_params: &[TypeId]) -> bool {
        let mem = self.api.member(m);
        let Some(rs) = self.namesakes(mem.owner, &mem.name) else {
            return false;
        };
        for r in rs {
            if r.member == m {
                continue;
            }
            let o = self.api.member(r.member).clone();
            if o.kind != MemberKind::Method {
                return false;
            }
            let full = o.receiver_and_params();
            if full.len() != fn_params.len() {
                continue;
            }
            // a generic namesake competes when its parameters unify with the function's
            if !o.type_params.is_empty() {
                if self
                    .unify_params(&full, fn_params, &o.type_params)
                    .is_some()
                {
                    return false;
                }
                continue;
            }
            if full.iter().any(|&p| !self.api.ts.arena.is_ground(p))
                || self.args_fit(fn_params, &full)
            {
                return false;
            }
        }
        true
    }

    /// The members of class `cid` (its own and inherited) named `name`, as it sees them.
    fn namesakes(
        &self,
        cid: crate::api::ClassId,
        name: &str,
    ) -> Option<Vec<crate::api::ResolvedMember>> {
        self.ctx
            .members_by_name
            .get(&cid)
            .and_then(|by| by.get(name))
            .cloned()
    }

    /// The type arguments of a generic function whose parameters `formal` take
    /// `fn_params` and whose result `ret` fits the function's result `fn_ret` (`None` for
    /// `void`), as Kotlin infers them for a callable reference: each parameter unified with
    /// the function type's (or its supertype of the parameter's class), the result with the
    /// function's result; every variable fixed, within its bounds. Empty for a function
    /// without type parameters.
    pub(crate) fn infer_from_function(
        &mut self,
        vars: &[crate::types::VarId],
        formal: &[TypeId],
        ret: TypeId,
        fn_params: &[TypeId],
        fn_ret: Option<TypeId>,
    ) -> Option<Subst> {
        if vars.is_empty() {
            return Some(Subst::new());
        }
        let mut s = self.unify_params(formal, fn_params, vars)?;
        if let Some(want) = fn_ret {
            s = self
                .api
                .ts
                .unify_with(ret, want, vars, crate::types::UnifyMode::Subtype, &s)?;
        }
        let fixed = vars.iter().all(|&v| {
            s.get(v)
                .is_some_and(|t| self.api.ts.arena.is_ground(t) && java_expressible(self.api, t))
        });
        (fixed && self.api.ts.is_valid_subst(&s)).then_some(s)
    }

    /// A substitution of `vars` under which each of `formal` takes the function parameter
    /// at its position ([`Self::unify_above`]).
    fn unify_params(
        &mut self,
        formal: &[TypeId],
        fn_params: &[TypeId],
        vars: &[crate::types::VarId],
    ) -> Option<Subst> {
        let mut s = Subst::new();
        for (&p, &a) in formal.iter().zip(fn_params) {
            s = self.unify_above(p, a, vars, &s)?;
        }
        Some(s)
    }

    /// Extends `s` so that `pattern` takes a value of type `actual`: equal to it, or (for a
    /// class type) to `actual`'s supertype of the pattern's class; a nullable pattern takes
    /// a non-null value too.
    fn unify_above(
        &mut self,
        pattern: TypeId,
        actual: TypeId,
        vars: &[crate::types::VarId],
        s: &Subst,
    ) -> Option<Subst> {
        use crate::types::UnifyMode::Equal;
        match self.api.ts.arena.get(pattern).clone() {
            Type::Nullable(inner) => {
                let a = match *self.api.ts.arena.get(actual) {
                    Type::Nullable(i) => i,
                    _ => actual,
                };
                self.unify_above(inner, a, vars, s)
            }
            Type::Class { name, .. } => {
                if matches!(self.api.ts.arena.get(actual), Type::Nullable(_)) {
                    return None;
                }
                let sups: Vec<TypeId> = self
                    .api
                    .ts
                    .all_supertypes(actual)
                    .into_iter()
                    .filter(|&u| {
                        self.api
                            .ts
                            .arena
                            .as_class(u)
                            .is_some_and(|(c, _)| c == name)
                    })
                    .collect();
                sups.into_iter()
                    .find_map(|u| self.api.ts.unify_with(pattern, u, vars, Equal, s))
            }
            _ => self.api.ts.unify_with(pattern, actual, vars, Equal, s),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::{class, java_lang, method, with, Fixture};

    #[test]
    fn a_reference_names_a_method_only_where_it_alone_takes_the_arguments() {
        let st = |name: &str, params: &[&str]| {
            with(method(name, params, "void"), json!({"is_static": true}))
        };
        let generic = with(st("k", &["T"]), json!({"type_parameters": ["T"]}));
        let mut docs = java_lang();
        docs.push(class(
            "p.Refs",
            "java",
            &[],
            vec![
                st("f", &["java.lang.String"]),
                st("f", &["java.lang.Object"]),
                st("g", &["java.lang.String"]),
                st("g", &["java.lang.Integer"]),
                st("h", &["java.lang.String"]),
                st("h", &["java.lang.String", "java.lang.String"]),
                st("k", &["java.lang.String"]),
                generic,
            ],
        ));
        let mut fx = Fixture::of(docs, None);
        let refs = fx.api.class_by_name("p.Refs").expect("p.Refs");
        let f = fx.member("static void p.Refs.f(java.lang.String)");
        let g = fx.member("static void p.Refs.g(java.lang.String)");
        let h = fx.member("static void p.Refs.h(java.lang.String)");
        let k = fx.member("static void p.Refs.k(java.lang.String)");
        let string = [fx.ty("java.lang.String")];
        let none = Subst::new();
        let mut t = fx.typing(Language::Java);
        // `f(Object)` takes a `String` too
        assert!(!t.only_applicable_in(refs, f, &none, &string, None));
        assert!(t.only_applicable_in(refs, g, &none, &string, None));
        // the other search (an instance method of one parameter fewer) finds `h(String,
        // String)` for a two-argument function
        assert!(t.only_applicable_in(refs, h, &none, &string, None));
        assert!(!t.only_applicable_in(refs, h, &none, &string, Some(2)));
        // a generic namesake makes the reference unsafe
        assert!(!t.only_applicable_in(refs, k, &none, &string, None));
    }

    #[test]
    fn kotlin_infers_a_generic_functions_type_arguments_from_the_function_type() {
        let mut fx = Fixture::java_base();
        let (string, integer) = (fx.ty("java.lang.String"), fx.ty("java.lang.Integer"));
        let v = fx.api.ts.arena.new_var("T", "m");
        let t_ty = fx.api.ts.arena.var_type(v);
        let mut t = fx.typing(Language::Kotlin);
        // `fun <T> id(x: T): T` as a `(String) -> String`
        let s = t
            .infer_from_function(&[v], &[t_ty], t_ty, &[string], Some(string))
            .expect("T is String");
        assert_eq!(s.get(v), Some(string));
        // as a `(String) -> Unit`: the parameter alone fixes it
        let s = t
            .infer_from_function(&[v], &[t_ty], t_ty, &[string], None)
            .expect("T is String");
        assert_eq!(s.get(v), Some(string));
        // as a `(String) -> Integer`: no `T` fits both
        assert!(t
            .infer_from_function(&[v], &[t_ty], t_ty, &[string], Some(integer))
            .is_none());
        // without type parameters there is nothing to infer
        let empty = t.infer_from_function(&[], &[string], string, &[string], None);
        assert_eq!(empty.map(|s| s.iter().count()), Some(0));
    }
}
