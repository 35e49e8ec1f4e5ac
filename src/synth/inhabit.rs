//! Inhabitants (Section 3.4, Algorithms 1 and 2): expressions of a wanted type, built from
//! k-shortest loopless paths of the API graph (Yen) whose substitutions unify with the target,
//! or literals, lambdas for functional interfaces, and typed bottom constants.

use std::rc::Rc;

use pathfinding::directed::yen::yen;
use petgraph::graph::NodeIndex;
use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, LambdaForm, Lit, Stmt, Ty};

use super::context::java_expressible;
use super::erase::InferInfo;
use super::program::CallShape;
use super::worker::{SynthRng, Worker};
use crate::api::{MemberId, MemberKind};
use crate::graph::{ApiGraph, Node};
use crate::types::{Prim, Subst, Type, TypeId, UnifyMode, VarId, Wildcard};

/// An expression with what erasure needs to know about it.
#[derive(Clone, Debug)]
pub struct Inhabitant {
    /// The expression.
    pub expr: Expr,
    /// Its static type when it is a standalone expression (usable for inferring a call's
    /// type arguments); `None` for poly expressions such as lambdas and erased generic calls.
    pub info: InferInfo,
}

/// The function type of a functional interface (JLS 9.9): what a lambda or a function
/// reference for it must implement.
#[derive(Clone, Debug)]
pub struct FnType {
    /// The parameter types (the single abstract method's, substituted).
    pub params: Vec<TypeId>,
    /// The result type (`void` for none).
    pub ret: TypeId,
    /// True when the result is `void`.
    pub void: bool,
    /// True when the parameter and result types are ground types Java can write (needed to
    /// type parameters, match references and call methods on parameters).
    pub ground: bool,
    /// The interface as the function type sees it (`Function<A, B>` for
    /// `Function<? super A, ? extends B>`), when Java can write it.
    pub target: Option<TypeId>,
    /// [`FnType::target`] as an IR type.
    pub target_ir: Option<Ty>,
    /// The single abstract method's declared result type (before substitution).
    pub declared_ret: TypeId,
    /// True when the single abstract method is a Kotlin `suspend` function: only a lambda
    /// (which Kotlin then infers to be a suspend lambda) implements it, neither an
    /// anonymous function nor a reference to an ordinary function.
    pub suspend: bool,
    /// True for a Kotlin function type (`(A) -> R`, not a functional interface): a callable
    /// reference for one whose result is `Unit` only where it may have been a type
    /// variable's (`() -> R` with `R = Unit`) is not adapted, so it must return `Unit`.
    pub function_type: bool,
}

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

/// The string literals drawn for `String` (the empty string among them).
const STRINGS: [&str; 6] = ["a", "thalia", "x1", "", "Hello", "42"];

/// The `char` literals drawn for `char` and `Character` (a letter at each end of the
/// alphabet, a digit, a space).
const CHARS: [char; 4] = ['a', 'z', '0', ' '];

/// Added to a drawn integer to make a `float` literal with a fraction (exact in binary).
const FLOAT_FRACTION: f32 = 0.5;

/// Added to a drawn integer to make a `double` literal with a fraction (exact in binary).
const DOUBLE_FRACTION: f64 = 0.25;

impl Worker<'_> {
    /// An expression of type `t` (a subtype of it), nested at most `depth` calls deep.
    pub fn inhabit(&mut self, rng: &mut SynthRng, t: TypeId, depth: usize) -> Inhabitant {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        // a call chain's receiver: a path that ends in a call, if any is feasible
        if std::mem::take(&mut self.building.prefer_call)
            && depth > 0
            && matches!(self.api.ts.arena.get(t), Type::Class { .. })
        {
            if let Some(e) = self.path_inhabitant(rng, t, depth, true) {
                return e;
            }
        }
        let feats = self.building.features;
        let p = self.cfg.swarm.use_probability;
        // inside a lambda body, its parameters and block locals are sources too
        if !self.building.scope.is_empty() && feats.lambda_bodies && rng.gen_bool(p) {
            if let Some(e) = self.scope_source(rng, t) {
                return e;
            }
        }
        if feats.conditionals && depth > 0 && rng.gen_bool(p) {
            if let Some(c) = self.conditional(rng, t, depth) {
                return c;
            }
        }
        if let Some(lit) = self.literal(rng, t) {
            return Inhabitant {
                expr: lit,
                info: InferInfo::Standalone(t),
            };
        }
        match self.api.ts.arena.get(t).clone() {
            Type::Array(e) => {
                let elem = self.inhabit(rng, e, depth.saturating_sub(1));
                return Inhabitant {
                    expr: Expr::NewArray {
                        elem: super::program::to_ir(&self.api, e),
                        elems: vec![elem.expr],
                    },
                    info: InferInfo::Standalone(t),
                };
            }
            Type::Class { .. } => {}
            // a Kotlin function type: a lambda or a function reference
            Type::Function { .. } if depth > 0 => {
                if feats.references && self.rules.references_for_function_types() && rng.gen_bool(p)
                {
                    if let Some(r) = self
                        .function_type(t)
                        .and_then(|f| self.reference(rng, &f, depth))
                    {
                        return r;
                    }
                }
                // cast to its type: the lambda then has no expected type, so the calls of its
                // body keep their type arguments
                let cast = feats.function_casts
                    && self.rules.casts_lambdas_to_function_types()
                    && rng.gen_bool(p)
                    && self.ground_in_program(t);
                self.building.keep_type_args += usize::from(cast);
                let l = self.lambda(rng, t, depth);
                self.building.keep_type_args -= usize::from(cast);
                // a lambda or reference (or a conditional) as the body needs the expected type
                // of the lambda's result, which a cast does not give
                let poly_body = |e: &Expr| {
                    matches!(e, Expr::Lambda { body, .. }
                        if matches!(**body, Expr::Lambda { .. } | Expr::Ref { .. } | Expr::Cond { .. }))
                };
                return match l {
                    Some(l) if cast && !poly_body(&l.expr) => Inhabitant {
                        expr: Expr::cast(super::program::to_ir(&self.api, t), l.expr),
                        info: InferInfo::Standalone(t),
                    },
                    Some(l) => l,
                    None => self.bottom(t),
                };
            }
            _ => return self.bottom(t),
        }
        if depth == 0 {
            return self.bottom(t);
        }
        if feats.references && rng.gen_bool(p) {
            if let Some(f) = self.function_type(t) {
                if let Some(r) = self.reference(rng, &f, depth) {
                    return self.maybe_cast(rng, r, &f);
                }
            }
        }
        // where no functional interface is wanted (an `Object`, a `Serializable`), a lambda
        // or reference cast to a functional interface below the wanted type
        if feats.function_casts && rng.gen_bool(p) && self.function_type(t).is_none() {
            if let Some(c) = self.function_cast_below(rng, t, depth) {
                return c;
            }
        }
        let sam_first = rng.gen_bool(self.cfg.lambda_first_probability);
        if sam_first {
            if let Some(l) = self.lambda(rng, t, depth) {
                return l;
            }
        }
        if let Some(e) = self.path_inhabitant(rng, t, depth, false) {
            return e;
        }
        if !sam_first {
            if let Some(l) = self.lambda(rng, t, depth) {
                return l;
            }
        }
        self.bottom(t)
    }

    /// The typed bottom constant `(T) null`.
    pub fn bottom(&mut self, t: TypeId) -> Inhabitant {
        Inhabitant {
            expr: Expr::Bottom(super::program::to_ir(&self.api, t)),
            info: InferInfo::Standalone(t),
        }
    }

    /// A literal for primitives, their boxes and `String`.
    fn literal(&mut self, rng: &mut SynthRng, t: TypeId) -> Option<Expr> {
        let a = &self.api.ts.arena;
        let p = match a.get(t) {
            Type::Prim(p) => *p,
            Type::Class { name, args } if args.is_empty() => {
                if *name == self.ctx.string_sym {
                    let s = STRINGS[rng.gen_range(0..STRINGS.len())];
                    return Some(Expr::Lit(Lit::Str(s.to_string())));
                }
                self.ctx.unbox_of(*name)?
            }
            _ => return None,
        };
        let n: i32 = rng.gen_range(self.cfg.literal_ints.clone());
        Some(Expr::Lit(match p {
            Prim::Boolean => Lit::Bool(rng.gen_bool(self.cfg.true_probability)),
            Prim::Byte => Lit::Byte(n as i8),
            Prim::Char => Lit::Char(CHARS[rng.gen_range(0..CHARS.len())]),
            Prim::Short => Lit::Short(n as i16),
            Prim::Int => Lit::Int(n),
            Prim::Long => Lit::Long(i64::from(n)),
            Prim::Float => Lit::Float(n as f32 + FLOAT_FRACTION),
            Prim::Double => Lit::Double(f64::from(n) + DOUBLE_FRACTION),
            Prim::Void => return None,
        }))
    }

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
            let target_ir = self
                .ground_in_program(t)
                .then(|| super::program::to_ir(&self.api, t));
            return Some(FnType {
                params,
                ret,
                void: super::enumerate::is_void(&self.api.ts.arena, ret),
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
        let sam = self.sam_method(cid)?;
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
        let ground = fparams.iter().all(|&p| {
            self.api.ts.arena.is_ground(p)
                && self.ctx.expressible(&self.api, p)
                && !matches!(self.api.ts.arena.get(p), Type::Wildcard(_))
        });
        // the interface as the function type sees it: `Function<A, B>` for
        // `Function<? super A, ? extends B>` (JLS 9.9)
        let target_args: Vec<TypeId> = params
            .iter()
            .map(|&p| s.get(p).unwrap_or_else(|| self.api.ts.arena.var_type(p)))
            .collect();
        let target = self.api.ts.arena.class(sym, &target_args);
        let expressible = self.ground_in_program(target) && self.ctx.expressible(&self.api, target);
        let target_ir = expressible.then(|| super::program::to_ir(&self.api, target));
        Some(FnType {
            params: fparams,
            ret,
            void: super::enumerate::is_void(&self.api.ts.arena, ret),
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
    fn lambda(&mut self, rng: &mut SynthRng, t: TypeId, depth: usize) -> Option<Inhabitant> {
        let f = self.function_type(t)?;
        let feats = self.building.features;
        let p = self.cfg.swarm.use_probability;
        let typed = feats.typed_lambda_params && f.ground && rng.gen_bool(p);
        let names: Vec<(String, Option<Ty>)> = f
            .params
            .iter()
            .map(|&pt| {
                self.building.fresh += 1;
                let ty = typed.then(|| super::program::to_ir(&self.api, pt));
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
                    // (`R apply(T)`)
                    if let Expr::Lambda { implicit, .. } | Expr::Ref { implicit, .. } = &mut b {
                        *implicit = self.is_functional_class_type(f.declared_ret);
                    }
                    b
                }
            }
        };
        self.building.in_lambda -= 1;
        self.building.scope.truncate(scope_len);
        let mut form = self.lambda_form(rng, f.ground && !f.suspend);
        let ret = (f.ground && java_expressible(&self.api, f.ret))
            .then(|| super::program::to_ir(&self.api, f.ret));
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
    fn maybe_cast(&mut self, rng: &mut SynthRng, e: Inhabitant, f: &FnType) -> Inhabitant {
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
            expr: Expr::cast(ty, e.expr),
            info: InferInfo::Standalone(target),
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
        let below = match self.caches.functional_below.get(&sym) {
            Some(v) => Rc::clone(v),
            None => {
                // every interface is below `Object`, though its supertypes do not say so
                // (but for Scala's universal traits)
                let v: Vec<crate::api::ClassId> = if sym == self.ctx.object_sym {
                    self.api
                        .class_ids()
                        .filter(|&c| {
                            let class = self.api.class(c);
                            class.functional
                                && !self.rules.extends_any_only(&self.api.ts, class.sym)
                        })
                        .collect()
                } else {
                    self.ctx
                        .subclasses
                        .get(&sym)
                        .map(|cs| {
                            cs.iter()
                                .copied()
                                .filter(|&c| self.api.class(c).functional)
                                .collect()
                        })
                        .unwrap_or_default()
                };
                let rc = Rc::new(v);
                self.caches.functional_below.insert(sym, Rc::clone(&rc));
                rc
            }
        };
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
            expr: Expr::cast(ty, inner.expr),
            info: InferInfo::Standalone(target),
        })
    }

    /// A lambda parameter or block local of the wanted type (a subtype; a primitive only of
    /// the same type), chosen at random among those in scope.
    fn scope_source(&mut self, rng: &mut SynthRng, t: TypeId) -> Option<Inhabitant> {
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
                if self.language_problem(m).is_some() {
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
                        && !self.mentions_wildcard(p)
                });
                let void = super::enumerate::is_void(&self.api.ts.arena, ret);
                let ok_ret = match want {
                    Want::Any => true,
                    Want::Value => {
                        !void
                            && self.api.ts.arena.is_ground(ret)
                            && self.ctx.expressible(&self.api, ret)
                            && !self.mentions_wildcard(ret)
                    }
                    Want::Exactly(w) => {
                        !void
                            && self.api.ts.arena.is_ground(ret)
                            && self.function_result_converts(ret, w)
                    }
                };
                if !ok_params || !ok_ret {
                    continue;
                }
                let overloaded = self.is_overloaded(m);
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
                let call =
                    self.build_call(m, &s, Some(Expr::Local(name.clone())), &args, goal, false);
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
        Some(Stmt::local(
            name,
            super::program::to_ir(&self.api, ty),
            init,
        ))
    }

    /// The single abstract method of a functional interface, with the substitution from its
    /// declaring interface to the class.
    pub(crate) fn sam_method(&mut self, cid: crate::api::ClassId) -> Option<(MemberId, Subst)> {
        const OBJ: [&str; 3] = ["equals", "hashCode", "toString"];
        let by = self.ctx.members_by_name.get(&cid)?;
        let mut found = None;
        let mut names: Vec<&String> = by.keys().collect();
        names.sort();
        for name in names {
            for r in &by[name] {
                let m = self.api.member(r.member);
                if m.kind == MemberKind::Method
                    && !m.is_static
                    && !m.is_default
                    && !OBJ.contains(&m.name.as_str())
                {
                    if found.is_some() || !m.type_params.is_empty() {
                        return None;
                    }
                    found = Some((r.member, r.subst.clone()));
                }
            }
        }
        found
    }

    /// Yen's k shortest loopless paths from a receiver-less member to a type node (source
    /// first), cached per node.
    fn paths_to(&mut self, target: NodeIndex) -> Rc<Vec<Vec<NodeIndex>>> {
        if let Some(p) = self.caches.paths.get(&target) {
            return Rc::clone(p);
        }
        let g: &ApiGraph = &self.ctx.graph;
        let usable = &self.ctx.path_usable;
        let api = &self.api;
        let is_source = |n: &NodeIndex| match g.graph[*n] {
            Node::Member(m) => usable.contains(&m) && !api.member(m).needs_receiver(),
            Node::Type(_) => false,
        };
        let max_len = self.cfg.max_path_len;
        let found = yen(
            &target,
            |n: &NodeIndex| {
                let n = *n;
                g.in_edges(n)
                    .filter(move |(_, src, _)| match g.graph[*src] {
                        Node::Member(m) => usable.contains(&m),
                        Node::Type(_) => true,
                    })
                    .map(|(_, src, _)| (src, 1usize))
                    .collect::<Vec<_>>()
            },
            is_source,
            self.cfg.yen_k.max(1),
        );
        let paths: Vec<Vec<NodeIndex>> = found
            .into_iter()
            .filter(|(p, _)| p.len() <= max_len)
            .map(|(mut p, _)| {
                p.reverse();
                p
            })
            .collect();
        let rc = Rc::new(paths);
        self.caches.paths.insert(target, Rc::clone(&rc));
        rc
    }

    /// Algorithm 1 and 2: the first feasible path (in random order; with `prefer_call` the
    /// paths that end in no constructor call first) to the target's type constructor, turned
    /// into a chain of calls.
    fn path_inhabitant(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
        prefer_call: bool,
    ) -> Option<Inhabitant> {
        let (ctor, _) = ApiGraph::key(&mut self.api, t);
        let node = self.ctx.graph.node_of_type(ctor)?;
        let paths = self.paths_to(node);
        let mut order: Vec<usize> = (0..paths.len()).collect();
        order.shuffle(rng);
        // a call chain's receiver: the paths whose last member is no constructor first
        if prefer_call {
            let g = &self.ctx.graph;
            let api = &self.api;
            order.sort_by_key(|&i| {
                paths[i].iter().rev().find_map(|&n| match g.graph[n] {
                    Node::Member(m) => Some(api.member(m).kind == MemberKind::Constructor),
                    Node::Type(_) => None,
                })
            });
        }
        for i in order {
            let path = &paths[i];
            if self.building.in_lambda > 0 && self.throws_in_path(path) {
                continue;
            }
            let unusable = path.iter().any(|&n| match self.ctx.graph.graph[n] {
                Node::Member(m) => self.language_problem(m).is_some(),
                Node::Type(_) => false,
            });
            if unusable {
                continue;
            }
            if let Some(s) = self.feasible(rng, path, ctor, t) {
                return Some(self.path_to_expr(rng, path, &s, t, depth));
            }
        }
        None
    }

    /// True when a member of the path declares a checked exception.
    fn throws_in_path(&self, path: &[NodeIndex]) -> bool {
        path.iter().any(|&n| match self.ctx.graph.graph[n] {
            Node::Member(m) => self.ctx.throws_checked.contains(&m),
            Node::Type(_) => false,
        })
    }

    /// Algorithm 1 for one path: propagate the edge substitutions, unify the path's type with
    /// the target, instantiate the remaining free variables at random; `None` if infeasible.
    fn feasible(
        &mut self,
        rng: &mut SynthRng,
        path: &[NodeIndex],
        ctor: TypeId,
        target: TypeId,
    ) -> Option<Subst> {
        let g = &self.ctx.graph;
        let mut free: Vec<VarId> = Vec::new();
        for &n in path {
            if let Node::Member(m) = g.graph[n] {
                let mem = self.api.member(m);
                free.extend(mem.type_params.iter().copied());
                if mem.kind == MemberKind::Constructor {
                    free.extend(self.api.class(mem.owner).type_params.iter().copied());
                }
            }
        }
        let mut acc = Subst::new();
        for w in path.windows(2) {
            let e = g.graph.find_edge(w[0], w[1])?;
            let label = g.graph[e].label.clone();
            for (v, ty) in label.iter() {
                let ty = self.api.ts.arena.subst(ty, &acc);
                acc.insert(v, ty);
            }
        }
        let path_ty = self.api.ts.arena.subst(ctor, &acc);
        let u =
            self.api
                .ts
                .unify_with(path_ty, target, &free, UnifyMode::Subtype, &Subst::new())?;
        let depth = self.cfg.max_type_depth;
        let free_s = self.draw_subst(rng, &free, depth, &u)?;
        let mut full = free_s.clone();
        for (v, ty) in acc.iter() {
            let ty = self.api.ts.arena.subst(ty, &free_s);
            full.insert(v, ty);
        }
        let result = self.api.ts.arena.subst(ctor, &full);
        if !self.api.ts.arena.is_ground(result)
            || !self.ctx.expressible(&self.api, result)
            || !self.api.ts.is_subtype(result, target)
        {
            return None;
        }
        for (_, ty) in full.iter() {
            if !self.api.ts.arena.is_ground(ty) || !self.ctx.expressible(&self.api, ty) {
                return None;
            }
        }
        Some(full)
    }

    /// Algorithm 2: the calls along a feasible path under its substitution.
    fn path_to_expr(
        &mut self,
        rng: &mut SynthRng,
        path: &[NodeIndex],
        s: &Subst,
        target: TypeId,
        depth: usize,
    ) -> Inhabitant {
        let members: Vec<MemberId> = path
            .iter()
            .filter_map(|&n| match self.ctx.graph.graph[n] {
                Node::Member(m) => Some(m),
                Node::Type(_) => None,
            })
            .collect();
        let mut cur: Option<Inhabitant> = None;
        let last = members.len().saturating_sub(1);
        for (i, m) in members.into_iter().enumerate() {
            let goal = if i == last { Some(target) } else { None };
            cur = Some(self.call_member(rng, m, s, cur.map(|c| c.expr), goal, depth));
        }
        cur.unwrap_or_else(|| self.bottom(target))
    }

    /// A call (or field access, or constructor call) of `m` under `s`, its arguments
    /// inhabited one level deeper; type arguments erased when configured and safe.
    pub fn call_member(
        &mut self,
        rng: &mut SynthRng,
        m: MemberId,
        s: &Subst,
        receiver: Option<Expr>,
        goal: Option<TypeId>,
        depth: usize,
    ) -> Inhabitant {
        let mem = self.api.member(m).clone();
        let arg_tys: Vec<TypeId> = mem
            .params
            .iter()
            .map(|p| self.api.ts.arena.subst(p.ty, s))
            .collect();
        // Scala 2 types the arguments of an overloaded method before it picks the overload,
        // without an expected type: a generic call there needs its type arguments
        let overloaded = self.is_overloaded(m);
        let keep = self.rules.types_overloaded_arguments_untargeted() && overloaded;
        self.building.keep_type_args += usize::from(keep);
        // a joined type may make another overload applicable or more specific
        self.building.no_conditionals += usize::from(overloaded);
        // the variable-arity argument as elements of its component type: the array's type
        // still decides erasure
        let varargs = self.operand_varargs(rng, m, s, &arg_tys);
        let fixed = arg_tys.len() - usize::from(varargs.is_some());
        let mut args: Vec<Inhabitant> = arg_tys[..fixed]
            .iter()
            .map(|&t| self.inhabit(rng, t, depth.saturating_sub(1)))
            .collect();
        let elems = varargs.map(|(comp, n)| {
            args.extend(arg_tys.last().map(|&t| Inhabitant {
                expr: Expr::Unit,
                info: InferInfo::Standalone(t),
            }));
            (0..n)
                .map(|_| self.inhabit(rng, comp, depth.saturating_sub(1)))
                .collect::<Vec<_>>()
        });
        self.building.no_conditionals -= usize::from(overloaded);
        self.building.keep_type_args -= usize::from(keep);
        self.building.varargs_element_calls += usize::from(elems.is_some());
        let search_implicits = self.draw_implicit_search(rng, m, s);
        let shape = CallShape {
            keep_explicit: false,
            varargs: elems,
            erase_for_form: false,
            search_implicits,
        };
        self.build_call_shaped(m, s, receiver, &args, goal, true, &shape)
            .0
    }
}
