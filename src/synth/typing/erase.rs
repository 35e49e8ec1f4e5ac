//! Type erasure (Section 3.5, Definition 3.14): explicit type arguments of a polymorphic call
//! are dropped only when every one of them is inferable, from an argument or from the target
//! type, as exactly the type that was written.
//!
//! Inference pressure (issue #13): erasure also goes around poly arguments (lambdas, erased
//! calls) once the variables their parameters mention are fixed by a standalone argument or
//! by the target (Java resolves a lambda's input variables from those bounds first, JLS
//! 18.5.2), and around wildcard-typed arguments whose upper projection infers the written
//! type where the result cannot expose the capture variable. Where Java's rules say
//! inference fails (a poly argument whose variables nothing else fixes) the type arguments
//! stay; where they are uncertain the shape is generated and the Java twin decides.

use super::checker::Typing;
use crate::types::{Subst, Type, TypeId, UnifyMode, VarId, Wildcard};

/// What an argument expression tells type inference.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InferInfo {
    /// A standalone expression of this static type.
    Standalone(TypeId),
    /// A poly expression (lambda, generic call without type arguments) whose type depends on
    /// its target: it cannot be relied on to infer type arguments.
    Poly,
    /// An expression whose own type solves no type variable its parameter mentions (Kotlin's
    /// `if` of `in`-projected branches is a `C<out Any?>`): the call keeps its type arguments.
    Opaque,
}

impl Typing<'_> {
    /// Definition 3.14: can the explicit arguments `s(vars)` of a call with formal parameter
    /// types `params` and result type `ret` (both still mentioning `vars`) be erased, given
    /// what the arguments tell, the call's target type `goal` and whether it is the receiver
    /// of another call (whose result may show a capture variable: `new Vector<>(c)
    /// .spliterator()` is a `Spliterator<CAP#1>` for a `Collection<? extends URI> c`)?
    #[allow(clippy::too_many_arguments)]
    pub fn erasable(
        &mut self,
        vars: &[VarId],
        s: &Subst,
        params: &[TypeId],
        args: &[InferInfo],
        ret: TypeId,
        goal: Option<TypeId>,
        receiver: bool,
    ) -> bool {
        if vars.is_empty() {
            return false;
        }
        let from_goal = goal.and_then(|k| {
            let k = match *self.api.ts.arena.get(k) {
                Type::Prim(_) => self.boxed_type(k),
                _ => k,
            };
            self.api
                .ts
                .unify_with(ret, k, vars, UnifyMode::Subtype, &Subst::new())
        });
        // Scala 2 solves a variable from the arguments before it looks at the target type (a
        // capture variable from a wildcard-typed argument wins) and types a lambda's
        // parameters before it solves the variables of the same argument list
        let args_first = self.rules.infers_from_arguments_first();
        // a target that Kotlin reads as a covariant collection (`java.util.Map` as `Map<K,
        // out V>`)
        let read_only_goal = goal
            .and_then(|k| self.api.ts.arena.as_class(k))
            .is_some_and(|(n, _)| {
                let name = self.api.ts.arena.name(n);
                crate::types::kotlin_view::READ_ONLY_COLLECTIONS
                    .iter()
                    .any(|&(_, java)| java == name)
            });
        for &v in vars {
            let Some(want) = s.get(v) else { return false };
            let mut by_args = false;
            let mut blocked = false;
            // a poly argument (lambda, erased call) whose parameter mentions the variable
            // needs the variable to type it: fine once something else fixes the variable
            let mut poly = false;
            // a wildcard-typed argument whose upper projection infers the written type: Java
            // infers a capture variable below it
            let mut by_capture = false;
            // arguments whose parameters mention the variable: a capture variable must be
            // its only source (another lower bound would conflict with it)
            let mut sources = 0usize;
            for (&p, info) in params.iter().zip(args) {
                if !self.api.ts.arena.free_vars(p).contains(&v) {
                    continue;
                }
                sources += 1;
                match *info {
                    InferInfo::Opaque => return false,
                    InferInfo::Poly => poly = true,
                    InferInfo::Standalone(a) if self.mentions_wildcard(a) => {
                        blocked = true;
                        // wildcard against wildcard (`List<? extends T>` for
                        // `List<? extends X>`), else the upper projection
                        let u = self
                            .api
                            .ts
                            .unify_with(p, a, vars, UnifyMode::Subtype, &Subst::new())
                            .or_else(|| {
                                let up = self.upper_projection(a);
                                self.api.ts.unify_with(
                                    p,
                                    up,
                                    vars,
                                    UnifyMode::Subtype,
                                    &Subst::new(),
                                )
                            });
                        if u.and_then(|u| u.get(v)) == Some(want) {
                            by_capture = true;
                        }
                    }
                    InferInfo::Standalone(a) => {
                        let a = self.boxed_type(a);
                        let u =
                            self.api
                                .ts
                                .unify_with(p, a, vars, UnifyMode::Subtype, &Subst::new());
                        match u.and_then(|u| u.get(v)) {
                            Some(got) if got == want => by_args = true,
                            _ => blocked = true,
                        }
                    }
                }
            }
            // Kotlin reads a Java parameter's `Map<K, V>` as `Map<K, out V>`: an argument of
            // a narrower type fixes the variable to its own type (`Map.of("k", aCallback
            // HandlerProtection)` for a `Map<String, ProtectionParameter>` is a `Map<String,
            // CallbackHandlerProtection>`), which the Java parameter then refuses ("Java type
            // mismatch ... Use explicit cast")
            let by_goal = from_goal.as_ref().and_then(|u| u.get(v)) == Some(want)
                && (!blocked || self.rules.goal_overrides_narrower_arguments() || !read_only_goal);
            let fixed = by_goal || (by_args && !blocked);
            // a capture variable is harmless where the result cannot show it: no target, or
            // the result is the bare variable (below the written type, hence below the goal)
            let capture_ok = by_capture
                && sources == 1
                && !args_first
                && (goal.is_none() && !receiver
                    || !self.api.ts.arena.free_vars(ret).contains(&v)
                    || matches!(self.api.ts.arena.get(ret), Type::Var(w) if *w == v));
            if poly && (args_first || !fixed && !capture_ok) {
                return false;
            }
            if blocked && args_first || !(fixed || capture_ok) {
                return false;
            }
        }
        true
    }

    /// True when every variable among `vars` whose parameter takes a poly call (an erased
    /// generic call, a diamond or a conditional: `poly_calls`) is fixed by the target type
    /// `goal` as `s` has it. Java solves such a call's own variables with the outer call's
    /// (JLS 18.5.2): without a target they resolve to their bounds first, and the call's
    /// type becomes another lower bound (`Map.of(k, f, k, Function.identity())` takes
    /// `Function<?, ?>` values, not `Function<K, K>`), so the other arguments alone do not
    /// fix the variable.
    pub fn poly_calls_fixed_by_goal(
        &mut self,
        vars: &[VarId],
        s: &Subst,
        params: &[TypeId],
        poly_calls: &[bool],
        ret: TypeId,
        goal: Option<TypeId>,
    ) -> bool {
        let mentioned: Vec<VarId> = params
            .iter()
            .zip(poly_calls)
            .filter(|(_, &p)| p)
            .flat_map(|(&t, _)| self.api.ts.arena.free_vars(t))
            .filter(|v| vars.contains(v))
            .collect();
        if mentioned.is_empty() {
            return true;
        }
        let Some(k) = goal else { return false };
        let k = match *self.api.ts.arena.get(k) {
            Type::Prim(_) => self.boxed_type(k),
            _ => k,
        };
        let Some(u) = self
            .api
            .ts
            .unify_with(ret, k, vars, UnifyMode::Subtype, &Subst::new())
        else {
            return false;
        };
        mentioned
            .iter()
            .all(|&v| u.get(v).is_some() && u.get(v) == s.get(v))
    }

    /// `C<.., X, ..>` for `C<.., ? extends X, ..>` (the upper bound of every wildcard type
    /// argument, `?` and `? super` as the top type): the type a capture variable stands below.
    fn upper_projection(&mut self, t: TypeId) -> TypeId {
        let Some((name, args)) = self.api.ts.arena.as_class(t).map(|(n, a)| (n, a.to_vec())) else {
            return t;
        };
        let o = self.ctx.object_sym;
        let top = self.api.ts.arena.class(o, &[]);
        let args: Vec<TypeId> = args
            .into_iter()
            .map(|a| match *self.api.ts.arena.get(a) {
                Type::Wildcard(Wildcard::Extends(b)) => b,
                Type::Wildcard(_) => top,
                _ => a,
            })
            .collect();
        self.api.ts.arena.class(name, &args)
    }
}

#[cfg(test)]
mod tests {
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::testing::Fixture;

    /// A method type variable `T` in the fixture's arena, and its type.
    fn var(fx: &mut Fixture) -> (VarId, TypeId) {
        let a = &mut fx.api.ts.arena;
        let v = a.new_var("T", "m");
        (v, a.var_type(v))
    }

    #[test]
    fn a_type_argument_is_erased_where_an_argument_infers_exactly_it() {
        // `<T> T id(T)`
        let mut fx = Fixture::java_base();
        let (v, t) = var(&mut fx);
        let (string, object) = (fx.ty("java.lang.String"), fx.ty("java.lang.Object"));
        let (int, integer) = (fx.ty("int"), fx.ty("java.lang.Integer"));
        let s = Subst::from_pairs(&[v], &[string]);
        let mut c = fx.typing(Language::Java);
        let by = |x| [InferInfo::Standalone(x)];
        assert!(c.erasable(&[v], &s, &[t], &by(string), t, None, false));
        // an argument of another type infers another type argument
        assert!(!c.erasable(&[v], &s, &[t], &by(object), t, None, false));
        // a primitive argument infers its box: `id(1)` is `id<Integer>`
        let boxed = Subst::from_pairs(&[v], &[integer]);
        assert!(c.erasable(&[v], &boxed, &[t], &by(int), t, None, false));
        // a call without type parameters has nothing to erase
        assert!(!c.erasable(&[], &Subst::new(), &[], &[], string, None, false));
    }

    #[test]
    fn the_target_type_infers_a_variable_no_argument_fixes() {
        // `<T> List<T> empty()`
        let mut fx = Fixture::java_base();
        let (v, t) = var(&mut fx);
        let string = fx.ty("java.lang.String");
        let list_t = fx.api.ts.arena.class_named("java.util.List", &[t]);
        let list_string = fx.ty("java.util.List<java.lang.String>");
        let list_object = fx.ty("java.util.List<java.lang.Object>");
        let s = Subst::from_pairs(&[v], &[string]);
        let mut c = fx.typing(Language::Java);
        assert!(!c.erasable(&[v], &s, &[], &[], list_t, None, false));
        assert!(c.erasable(&[v], &s, &[], &[], list_t, Some(list_string), false));
        assert!(!c.erasable(&[v], &s, &[], &[], list_t, Some(list_object), false));
    }

    #[test]
    fn a_poly_call_argument_needs_the_target_to_fix_its_variable() {
        // `<T> List<T> of(T, T)` called as `of(s, erased())`: the other argument fixes `T`
        // for `erasable`, but the erased call's own variables join `T` without a target
        let mut fx = Fixture::java_base();
        let (v, t) = var(&mut fx);
        let string = fx.ty("java.lang.String");
        let list_t = fx.api.ts.arena.class_named("java.util.List", &[t]);
        let list_string = fx.ty("java.util.List<java.lang.String>");
        let list_object = fx.ty("java.util.List<java.lang.Object>");
        let s = Subst::from_pairs(&[v], &[string]);
        let mut c = fx.typing(Language::Java);
        let params = [t, t];
        let ok = |c: &mut Typing, calls: [bool; 2], goal| {
            c.poly_calls_fixed_by_goal(&[v], &s, &params, &calls, list_t, goal)
        };
        assert!(!ok(&mut c, [false, true], None));
        assert!(ok(&mut c, [false, true], Some(list_string)));
        assert!(!ok(&mut c, [false, true], Some(list_object)));
        // no poly call among the arguments: nothing to fix
        assert!(ok(&mut c, [false, false], None));
    }

    #[test]
    fn a_poly_argument_needs_its_variable_fixed_elsewhere() {
        // `<T> T get(Supplier<T>)` called with a lambda
        let mut fx = Fixture::java_base();
        let (v, t) = var(&mut fx);
        let string = fx.ty("java.lang.String");
        let supplier_t = fx
            .api
            .ts
            .arena
            .class_named("java.util.function.Supplier", &[t]);
        let s = Subst::from_pairs(&[v], &[string]);
        let poly = [InferInfo::Poly];
        assert!(!fx.typing(Language::Java).erasable(
            &[v],
            &s,
            &[supplier_t],
            &poly,
            t,
            None,
            false
        ));
        // fixed by the target: Java infers it first (JLS 18.5.2); Scala 2 types the lambda
        // before it looks at the target
        for (lang, erased) in [(Language::Java, true), (Language::Scala2, false)] {
            let got =
                fx.typing(lang)
                    .erasable(&[v], &s, &[supplier_t], &poly, t, Some(string), false);
            assert_eq!(got, erased, "{lang}");
        }
        // an opaque argument (Kotlin's `if` of `in`-projected branches): not even the
        // target lets the call leave out its type arguments
        let opaque = [InferInfo::Opaque];
        assert!(!fx.typing(Language::Kotlin).erasable(
            &[v],
            &s,
            &[supplier_t],
            &opaque,
            t,
            Some(string),
            false
        ));
    }

    #[test]
    fn a_wildcard_argument_infers_its_bound_where_it_is_the_only_source() {
        // `<T> T first(List<? extends T>)` on a `List<? extends String>`
        let mut fx = Fixture::java_base();
        let (v, t) = var(&mut fx);
        let string = fx.ty("java.lang.String");
        let upper = fx.api.ts.arena.wildcard(Wildcard::Extends(t));
        let param = fx.api.ts.arena.class_named("java.util.List", &[upper]);
        let arg = fx.ty("java.util.List<? extends java.lang.String>");
        let s = Subst::from_pairs(&[v], &[string]);
        let by = [InferInfo::Standalone(arg)];
        for (lang, erased) in [(Language::Java, true), (Language::Scala2, false)] {
            let got = fx
                .typing(lang)
                .erasable(&[v], &s, &[param], &by, t, None, false);
            assert_eq!(got, erased, "{lang}");
        }
        // a second argument of the variable's type would conflict with the capture
        let two = [InferInfo::Standalone(arg), InferInfo::Standalone(string)];
        assert!(!fx
            .typing(Language::Java)
            .erasable(&[v], &s, &[param, t], &two, t, None, false));
    }
}
