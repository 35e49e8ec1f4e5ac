//! Lambdas and the function types they implement: the function type of a functional
//! interface (JLS 9.9, cached per type), lambdas whose bodies call API members on their
//! parameters (the parameters and block locals are sources in the body), block bodies, typed
//! parameters, Groovy's arrow and Kotlin's anonymous-function forms, casts to the interface.

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, LambdaForm, Stmt, Ty};

use super::inhabitant::{FnType, Inhabitant};
use super::ir::to_ir;
use super::rng::SynthRng;
use super::worker::{Below, Worker};
use crate::api::MemberKind;
use crate::synth::typing::erase::InferInfo;
use crate::synth::typing::sequence::is_void;
use crate::types::{Subst, Type, TypeId, Wildcard};

/// What a call on a lambda's parameters must return.
#[derive(Clone, Copy, Debug)]
enum Want {
    /// Anything, `void` included (an expression statement).
    Any,
    /// A value of any type Java can write.
    Value,
    /// A value convertible to this type.
    Exactly(TypeId),
}

/// Members of a lambda parameter's class drawn when looking for a call on it.
pub const MAX_CALL_CANDIDATES: usize = 16;

/// The most local declarations of a block lambda body.
pub const MAX_BLOCK_LOCALS: usize = 2;

impl Worker<'_> {
    /// The function type (JLS 9.9) of a functional interface type `t`, or `None` when `t`
    /// is not one the target language converts a lambda to.
    pub(crate) fn function_type(&mut self, t: TypeId) -> Option<FnType> {
        if let Some(f) = self.caches.fn_types.get(&t) {
            return f.clone();
        }
        let f = self.compute_function_type(t);
        self.caches.fn_types.insert(t, f.clone());
        f
    }

    /// [`Self::function_type`], not cached.
    fn compute_function_type(&mut self, t: TypeId) -> Option<FnType> {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        // a Kotlin function type `(A, B) -> R` is its own function type
        if let Type::Function {
            receiver: None,
            params,
            ret,
            suspend: false,
        } = self.api.ts.arena.get(t).clone()
        {
            if !self.ctx.expressible(&self.api, t) {
                return None;
            }
            let params = params.to_vec();
            let ground = params.iter().all(|&p| {
                self.api.ts.arena.is_ground(p)
                    && !matches!(self.api.ts.arena.get(p), Type::Wildcard(_))
            }) && self.api.ts.arena.is_ground(ret);
            let target_ir = self.ground_in_program(t).then(|| to_ir(&self.api, t));
            return Some(FnType {
                params,
                ret,
                void: is_void(&self.api.ts.arena, ret),
                ground,
                target: target_ir.is_some().then_some(t),
                target_ir,
                declared_ret: ret,
                suspend: false,
                function_type: true,
            });
        }
        let (sym, args) = {
            let (s, a) = self.api.ts.arena.as_class(t)?;
            (s, a.to_vec())
        };
        let cid = self.api.class_by_sym(sym)?;
        if !self.api.class(cid).functional {
            return None;
        }
        // Kotlin's `Annotation` has no abstract method (`annotationType()` is the extension
        // `annotationClass`): no lambda, reference or object expression implements it
        if self.rules.maps_java_classes()
            && self.api.class(cid).name == "java.lang.annotation.Annotation"
        {
            return None;
        }
        let sam = self.typing().sam_method(cid)?;
        // Java counts a public `clone()` of an interface as its abstract method (Object's is
        // protected); Scala and Kotlin see Object's own `clone()` and no SAM at all
        if !self.rules.converts_lambda_to(&self.api.member(sam.0).name) {
            return None;
        }
        let params = self.api.class(cid).type_params.clone();
        if params.len() != args.len() {
            return None;
        }
        // the function type of a wildcard-parameterized interface (JLS 9.9)
        let mut s = Subst::new();
        for (&p, &a) in params.iter().zip(&args) {
            let v = match *self.api.ts.arena.get(a) {
                Type::Wildcard(Wildcard::Extends(b)) | Type::Wildcard(Wildcard::Super(b)) => b,
                Type::Wildcard(Wildcard::Star) => {
                    let o = self.ctx.object_sym;
                    self.api
                        .ts
                        .arena
                        .var(p)
                        .upper
                        .first()
                        .copied()
                        .unwrap_or_else(|| self.api.ts.arena.class(o, &[]))
                }
                _ => a,
            };
            s.insert(p, v);
        }
        let sm = self.api.member(sam.0).clone();
        let ret = self.api.ts.arena.subst(sm.ret, &sam.1);
        let ret = self.api.ts.arena.subst(ret, &s);
        if !self.api.ts.arena.is_ground(ret) {
            return None;
        }
        let fparams: Vec<TypeId> = sm
            .params
            .iter()
            .map(|p| {
                let t = self.api.ts.arena.subst(p.ty, &sam.1);
                self.api.ts.arena.subst(t, &s)
            })
            .collect();
        // (a raw type that the language cannot write, `Predicate<BloomFilter>` in Scala,
        // leaves the parameters untyped)
        let ground = fparams.iter().all(|&p| {
            self.api.ts.arena.is_ground(p)
                && self.ctx.expressible(&self.api, p)
                && !matches!(self.api.ts.arena.get(p), Type::Wildcard(_))
                && !self.typing().unwritable_raw(p)
        }) && !self.typing().unwritable_raw(ret);
        // the interface as the function type sees it: `Function<A, B>` for
        // `Function<? super A, ? extends B>` (JLS 9.9)
        let target_args: Vec<TypeId> = params
            .iter()
            .map(|&p| s.get(p).unwrap_or_else(|| self.api.ts.arena.var_type(p)))
            .collect();
        let target = self.api.ts.arena.class(sym, &target_args);
        let expressible = self.ground_in_program(target) && self.ctx.expressible(&self.api, target);
        let target_ir = expressible.then(|| to_ir(&self.api, target));
        Some(FnType {
            params: fparams,
            ret,
            void: is_void(&self.api.ts.arena, ret),
            ground: ground && self.ctx.expressible(&self.api, ret),
            target: expressible.then_some(target),
            target_ir,
            declared_ret: sm.ret,
            suspend: sm.is_suspend,
            function_type: false,
        })
    }

    /// A lambda for a functional interface type: parameters (typed or not), and a body that
    /// inhabits the single abstract method's result type (an empty block for `void`), from
    /// API calls on the parameters when the program's forms allow, possibly after local
    /// declarations.
    pub(crate) fn lambda(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let f = self.function_type(t)?;
        let feats = self.building.features;
        let p = self.cfg.swarm.use_probability;
        let typed = feats.typed_lambda_params && f.ground && rng.gen_bool(p);
        let names: Vec<(String, Option<Ty>)> = f
            .params
            .iter()
            .map(|&pt| {
                self.building.fresh += 1;
                let ty = typed.then(|| to_ir(&self.api, pt));
                (format!("l{}", self.building.fresh), ty)
            })
            .collect();
        let with_calls = feats.lambda_bodies && f.ground && rng.gen_bool(p);
        let with_block = feats.block_lambdas && f.ground && rng.gen_bool(p);
        let scope_len = self.building.scope.len();
        if with_calls || with_block {
            for ((n, _), &pt) in names.iter().zip(&f.params) {
                self.building.scope.push((n.clone(), pt));
            }
        }
        self.building.in_lambda += 1;
        // the block's locals come after the parameters: the body prefers them
        let locals_from = self.building.scope.len();
        let mut block = Vec::new();
        if with_block && depth > 1 {
            let locals = rng.gen_range(1..=MAX_BLOCK_LOCALS);
            for _ in 0..locals {
                if let Some(st) = self.block_local(rng, &f, depth) {
                    block.push(st);
                }
            }
        }
        let body = if f.void {
            let call = if with_calls {
                self.call_on_scope(rng, Want::Any, depth, locals_from)
            } else {
                None
            };
            call.map_or(Expr::Unit, |(e, _)| e)
        } else {
            let call = if with_calls {
                self.call_on_scope(rng, Want::Exactly(f.ret), depth, locals_from)
            } else {
                None
            };
            // a block's local of the result type is the result
            let local = self.building.scope[locals_from..]
                .iter()
                .rev()
                .find(|(_, t)| *t == f.ret)
                .map(|(n, _)| Expr::Local(n.clone()));
            match call.or_else(|| local.map(|e| (e, f.ret))) {
                Some((e, _)) => e,
                None => {
                    let mut b = self.inhabit(rng, f.ret, depth - 1).expr;
                    // a lambda returned where the method declares a type variable
                    // (`R apply(T)`), or by a Kotlin function type's lambda (whose `R` was
                    // substituted before: `(List<T>) -> R` with a Java interface for `R`,
                    // which Kotlin does not convert a result to)
                    if let Expr::Lambda { implicit, .. } | Expr::Ref { implicit, .. } = &mut b {
                        *implicit = !f.function_type
                            && self.typing().is_functional_class_type(f.declared_ret);
                    }
                    b
                }
            }
        };
        self.building.in_lambda -= 1;
        self.building.scope.truncate(scope_len);
        let mut form = self.lambda_form(rng, f.ground && !f.suspend);
        // (the language's own types too: Kotlin's anonymous function writes its result type)
        let ret = f.ground.then(|| to_ir(&self.api, f.ret));
        // an anonymous function with statements before its result must write the result type
        // (`fun(x): R { ..; return e }`): without one it is the usual lambda
        if form == LambdaForm::AnonymousFunction
            && ret.is_none()
            && !block.is_empty()
            && !matches!(body, Expr::Unit)
        {
            form = LambdaForm::Usual;
        }
        let lambda = Inhabitant {
            expr: Expr::Lambda {
                params: names,
                body: Box::new(body),
                target: f.target_ir.clone(),
                // decided by the position the lambda ends up in
                implicit: false,
                block,
                form,
                ret,
            },
            info: InferInfo::Poly,
        };
        Some(self.maybe_cast(rng, lambda, &f))
    }

    /// How a lambda is spelled, drawn from the program's forms: Groovy's `(x) -> e`,
    /// Kotlin's anonymous function (only for a `ground` function type, whose types it
    /// writes), or the usual lambda.
    pub(crate) fn lambda_form(&self, rng: &mut SynthRng, ground: bool) -> LambdaForm {
        let feats = self.building.features;
        let p = self.cfg.swarm.use_probability;
        if feats.arrow_lambdas && rng.gen_bool(p) {
            LambdaForm::Arrow
        } else if feats.anonymous_functions && ground && rng.gen_bool(p) {
            LambdaForm::AnonymousFunction
        } else {
            LambdaForm::Usual
        }
    }

    /// A lambda or reference, sometimes cast to its interface (`features.function_casts`).
    pub(crate) fn maybe_cast(
        &mut self,
        rng: &mut SynthRng,
        e: Inhabitant,
        f: &FnType,
    ) -> Inhabitant {
        let (Some(ty), Some(target)) = (f.target_ir.clone(), f.target) else {
            return e;
        };
        // a callable reference cast to a Kotlin function type has no expected type to
        // resolve its overloads and infer its type arguments with (lambdas are cast where
        // `Worker::inhabit` makes one for a function type)
        if matches!(ty, Ty::Function { .. }) {
            return e;
        }
        if !self.building.features.function_casts || !rng.gen_bool(self.cfg.swarm.use_probability) {
            return e;
        }
        Inhabitant {
            expr: self.cast_or_coerce(rng, ty, e.expr),
            info: InferInfo::Standalone(target),
        }
    }

    /// `e` cast to `ty`, or coerced (Groovy's `as`, `features.as_coercion`) when `e` is a
    /// lambda whose parameters are all declared: a coercion gives an untyped closure
    /// parameter no type to check its body with.
    pub(crate) fn cast_or_coerce(&mut self, rng: &mut SynthRng, ty: Ty, e: Expr) -> Expr {
        let typed_lambda =
            matches!(&e, Expr::Lambda { params, .. } if params.iter().all(|(_, t)| t.is_some()));
        if self.building.features.as_coercion
            && typed_lambda
            && rng.gen_bool(self.cfg.swarm.use_probability)
        {
            Expr::coerce(ty, e)
        } else {
            Expr::cast(ty, e)
        }
    }

    /// A lambda or function reference cast to a functional interface that is a subtype of
    /// `t` (`(java.util.function.Supplier<String>) String::new` for an `Object`), or `None`
    /// when no functional interface lies below `t`.
    pub(crate) fn function_cast_below(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        let (sym, _) = self.api.ts.arena.as_class(t)?;
        let below = self.classes_below(sym, Below::Functional);
        let c = *below.get(rng.gen_range(0..below.len().max(1)))?;
        let f = self.instance_below(rng, c, t, self.cfg.max_type_depth)?;
        let ft = self.function_type(f)?;
        let (ty, target) = (ft.target_ir.clone()?, ft.target?);
        let inner = if self.building.features.references && rng.gen_bool(0.5) {
            self.reference(rng, &ft, depth)
        } else {
            None
        };
        let inner = match inner {
            Some(r) => r,
            None => self.lambda(rng, f, depth)?,
        };
        Some(Inhabitant {
            expr: self.cast_or_coerce(rng, ty, inner.expr),
            info: InferInfo::Standalone(target),
        })
    }

    /// A lambda parameter or block local of the wanted type (a subtype; a primitive only of
    /// the same type), chosen at random among those in scope.
    pub(crate) fn scope_source(&mut self, rng: &mut SynthRng, t: TypeId) -> Option<Inhabitant> {
        let prim = matches!(self.api.ts.arena.get(t), Type::Prim(_));
        let scope = self.building.scope.clone();
        let fits: Vec<&(String, TypeId)> = scope
            .iter()
            .filter(|(_, v)| {
                *v == t
                    || !prim
                        && !matches!(self.api.ts.arena.get(*v), Type::Prim(_))
                        && self.api.ts.is_subtype(*v, t)
            })
            .collect();
        let (name, vt) = fits.choose(rng)?;
        Some(Inhabitant {
            expr: Expr::Local(name.clone()),
            info: InferInfo::Standalone(*vt),
        })
    }

    /// A call of an instance method on a lambda parameter or block local whose result is
    /// what `want` asks for, its arguments inhabited one level deeper (the scope's
    /// variables among the sources); the call and its result type. The variables from
    /// `prefer_from` on (a block's locals) are tried first.
    fn call_on_scope(
        &mut self,
        rng: &mut SynthRng,
        want: Want,
        depth: usize,
        prefer_from: usize,
    ) -> Option<(Expr, TypeId)> {
        let scope = self.building.scope.clone();
        let cut = prefer_from.min(scope.len());
        let (earlier, preferred) = scope.split_at(cut);
        let (mut earlier, mut preferred) = (earlier.to_vec(), preferred.to_vec());
        preferred.shuffle(rng);
        earlier.shuffle(rng);
        for (name, vt) in preferred.into_iter().chain(earlier) {
            let Some((sym, args)) = self.api.ts.arena.as_class(vt).map(|(s, a)| (s, a.to_vec()))
            else {
                continue;
            };
            let Some(cid) = self.api.class_by_sym(sym) else {
                continue;
            };
            let params = self.api.class(cid).type_params.clone();
            if params.len() != args.len() {
                continue;
            }
            let recv = Subst::from_pairs(&params, &args);
            let ctx = self.ctx;
            let Some(by) = ctx.members_by_name.get(&cid) else {
                continue;
            };
            // the context's maps iterate in the same order in every worker and run
            let all: Vec<&crate::api::ResolvedMember> = by.values().flatten().collect();
            let picks: Vec<&crate::api::ResolvedMember> = (0..MAX_CALL_CANDIDATES)
                .filter_map(|_| all.choose(rng).copied())
                .collect();
            for r in picks {
                let m = r.member;
                let mem = self.api.member(m);
                if mem.kind != MemberKind::Method
                    || mem.is_static
                    || !mem.type_params.is_empty()
                    || !self.ctx.path_usable.contains(&m)
                    || self.ctx.throws_checked.contains(&m)
                {
                    continue;
                }
                if self.typing().language_problem(m).is_some() {
                    continue;
                }
                // the declaring class's variables as the receiver's type sees them
                let mut s = recv.clone();
                for (v, ty) in r.subst.iter() {
                    let ty = self.api.ts.arena.subst(ty, &recv);
                    s.insert(v, ty);
                }
                let mem = self.api.member(m).clone();
                let ret = self.api.ts.arena.subst(mem.ret, &s);
                let ps: Vec<TypeId> = mem
                    .params
                    .iter()
                    .map(|p| self.api.ts.arena.subst(p.ty, &s))
                    .collect();
                let ok_params = ps.iter().all(|&p| {
                    self.api.ts.arena.is_ground(p)
                        && self.ctx.expressible(&self.api, p)
                        && !self.typing().mentions_wildcard(p)
                });
                let void = is_void(&self.api.ts.arena, ret);
                let ok_ret = match want {
                    Want::Any => true,
                    Want::Value => {
                        !void
                            && self.api.ts.arena.is_ground(ret)
                            && self.ctx.expressible(&self.api, ret)
                            && !self.typing().mentions_wildcard(ret)
                    }
                    Want::Exactly(w) => {
                        !void
                            && self.api.ts.arena.is_ground(ret)
                            && self.typing().function_result_converts(ret, w)
                    }
                };
                if !ok_params || !ok_ret {
                    continue;
                }
                // overloaded in its own class or through the receiver's (`andThen` of a
                // `LongSummaryStatistics`, from `IntConsumer` and `LongConsumer`)
                let own = self.typing().is_overloaded(m);
                let overloaded = own || self.typing().overloaded_call(m, Some(vt));
                self.building.no_conditionals += usize::from(overloaded);
                let args: Vec<Inhabitant> = ps
                    .iter()
                    .map(|&t| self.inhabit(rng, t, depth.saturating_sub(1)))
                    .collect();
                self.building.no_conditionals -= usize::from(overloaded);
                let goal = match want {
                    Want::Exactly(w) => Some(w),
                    _ => None,
                };
                let shape = super::inhabitant::CallShape {
                    receiver_overloads: overloaded,
                    ..Default::default()
                };
                let (mut call, _) = self.build_call_shaped(
                    m,
                    &s,
                    Some(Expr::Local(name.clone())),
                    &args,
                    goal,
                    false,
                    &shape,
                );
                // (its receiver's type may be below a mapped one: `x.getKey()` of an
                // `AbstractMapEntry` is Kotlin's `x.key`)
                self.declare_from_receiver(&mut call.expr, vt);
                return Some((call.expr, ret));
            }
        }
        None
    }

    /// One local declaration of a block lambda body (`T lN = ...;`), added to the scope: a
    /// call on a parameter or earlier local, or else an inhabitant of the lambda's result.
    fn block_local(&mut self, rng: &mut SynthRng, f: &FnType, depth: usize) -> Option<Stmt> {
        let newest = self.building.scope.len().saturating_sub(1);
        let (init, ty) = match self.call_on_scope(rng, Want::Value, depth, newest) {
            Some(c) => c,
            None if !f.void => (self.inhabit(rng, f.ret, depth - 1).expr, f.ret),
            None => return None,
        };
        self.building.fresh += 1;
        let name = format!("l{}", self.building.fresh);
        self.building.scope.push((name.clone(), ty));
        Some(Stmt::local(name, to_ir(&self.api, ty), init))
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use thalia_translators::Language;

    use super::Inhabitant as Inh;
    use super::*;
    use crate::synth::{SynthConfig, SynthContext};

    #[test]
    fn a_call_on_a_lambda_parameter_names_the_classes_its_type_sees() {
        use crate::synth::typing::testing::{class, java_lang, method, with, Fixture};
        use serde_json::json;
        // commons-collections4: `getKey()` declared by `AbstractKeyValue`, and by `Map.Entry`
        // for `AbstractMapEntry` below it (Kotlin's `x.key` on that receiver)
        let mut docs = java_lang();
        let generic = |d| with(d, json!({"type_parameters": ["K", "V"]}));
        docs.push(with(
            generic(class(
                "java.util.Map.Entry",
                "java",
                &[],
                vec![method("getKey", &[], "K")],
            )),
            json!({"class_type": 1}),
        ));
        docs.push(generic(class(
            "p.AbstractKeyValue",
            "java",
            &[],
            vec![method("getKey", &[], "K")],
        )));
        docs.push(with(
            generic(class("p.AbstractMapEntry", "java", &[], vec![])),
            json!({"inherits": ["p.AbstractKeyValue<K,V>"],
                   "implements": ["java.util.Map.Entry<K,V>"]}),
        ));
        let mut fx = Fixture::of(docs, None);
        let entry = fx.ty("p.AbstractMapEntry<java.lang.String, java.lang.Integer>");
        let cfg = SynthConfig {
            lang: Language::Kotlin,
            ..SynthConfig::default()
        };
        let mut w = Worker::new(fx.api.clone(), &fx.ctx, &cfg);
        w.building.scope = vec![("x".into(), entry)];
        let mut rng = SynthRng::seed_from_u64(1);
        let mut seen = None;
        for _ in 0..200 {
            if let Some((
                Expr::Call {
                    name, declared_in, ..
                },
                _,
            )) = w.call_on_scope(&mut rng, Want::Value, 1, 0)
            {
                if name == "getKey" {
                    seen = Some(declared_in);
                    break;
                }
            }
        }
        let declared_in = seen.expect("a call of getKey on x");
        assert!(
            declared_in.iter().any(|d| d == "java.util.Map.Entry"),
            "{declared_in:?}"
        );
    }

    #[test]
    fn scala2_casts_no_function_to_a_universal_trait_for_an_object() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, comparable_allowed) in [(Language::Java, true), (Language::Scala2, false)] {
            let mut cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            cfg.swarm.use_probability = 1.0;
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            w.building.features.function_casts = true;
            let object = w.api.ts.arena.class_named("java.lang.Object", &[]);
            let mut rng = SynthRng::seed_from_u64(5);
            let mut comparable = 0;
            for _ in 0..3000 {
                if let Some(Inh {
                    expr:
                        Expr::Cast {
                            ty: Ty::Class { name, .. },
                            ..
                        },
                    ..
                }) = w.function_cast_below(&mut rng, object, 2)
                {
                    comparable += usize::from(name == "java.lang.Comparable");
                }
            }
            assert_eq!(
                comparable > 0,
                comparable_allowed,
                "{lang}: (Comparable) x as an Object"
            );
        }
    }
}
