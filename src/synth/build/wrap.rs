//! The call under test as a function (issue #13 items 1 and 3): instead of the plain call
//! statement, a program may hold the member under test as a function reference assigned to a
//! functional interface (`Function<R, T> res = R::m;`, `BiFunction<A, B, T> res = r::m;`,
//! `Supplier<C> res = C::new;`), or the call inside a lambda whose target type carries the
//! typing sequence (`Supplier<T> res = () -> r.m(a0);`, `Function<R, T> res = p -> p.m(a0);`,
//! `() -> { A a0 = ..; return r.m(a0); }`).
//!
//! The functional interface comes from the API: one whose function type (JLS 9.9) unifies
//! with the typing sequence (`functional_for`). A reference is written only where Java's rules
//! (JLS 15.13.1) make the member under test the reference's compile-time declaration; in an
//! ill-typed program only where the member has no namesake, so that the broken position
//! leaves no method applicable. A lambda holds a call under test whose member throws no
//! checked exception.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, LambdaForm, Receiver, RefKind, Stmt, Ty};

use super::inhabitant::FnType;
use super::ir::to_ir;
use super::ref_index::MAX_REF_ARITY;
use super::rng::SynthRng;
use super::worker::Worker;
use crate::api::{ClassId, MemberKind};
use crate::synth::context::java_expressible;
use crate::synth::typing::sequence::{is_void, Position, Task, OBJECT_METHODS};
use crate::types::{Subst, Type, TypeId, UnifyMode};

/// Functional interfaces of the wanted arity tried for one wrap before giving up (bounds the
/// time a wrap costs: synthesis stays under a millisecond per program; `java.base` has about
/// 30 of each arity up to 2).
pub const MAX_WRAP_CANDIDATES: usize = 64;

/// The most operands of the call under test that become a lambda's parameters (the API's
/// functional interfaces rarely take more: `BiFunction`).
pub const MAX_LAMBDA_WRAP_PARAMS: usize = 2;

/// The probability that a wrapping lambda declares its parameters' types when the program's
/// `typed_lambda_params` form is on (its one lambda: higher than the use probability).
pub const TYPED_WRAP_PARAMS: f64 = 0.85;

/// The probability that a wrapping lambda takes some of the call's operands as parameters
/// when any can be (otherwise it captures them all): parameters typed by the interface are
/// where lambda-parameter inference lives.
pub const OPERAND_PARAMS: f64 = 0.9;

/// How a program holds its call under test, as `programs.jsonl` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    /// The member under test as a function reference.
    Reference,
    /// The call inside a lambda that captures the operands (`() -> r.m(a0)`).
    Closure,
    /// The call inside a lambda whose parameters are the receiver and maybe arguments
    /// (`p0 -> p0.m(a0)`).
    ReceiverParam,
    /// The call inside a lambda whose parameters are arguments (`p0 -> C.m(p0)`).
    ArgumentParams,
}

impl Wrap {
    /// The name written into the program's record.
    pub fn as_str(self) -> &'static str {
        match self {
            Wrap::Reference => "reference",
            Wrap::Closure => "closure",
            Wrap::ReceiverParam => "receiver-lambda",
            Wrap::ArgumentParams => "argument-lambda",
        }
    }
}

impl Worker<'_> {
    /// The API's functional interfaces by the arity of their single abstract method (up to
    /// [`MAX_REF_ARITY`]), in class order (built on first use).
    fn functional_by_arity(&mut self, n: usize) -> Arc<Vec<ClassId>> {
        if n > MAX_REF_ARITY {
            return Arc::new(Vec::new());
        }
        if let Some(v) = self.caches.functional.get(n) {
            return Arc::clone(v);
        }
        let mut by: Vec<Vec<ClassId>> = vec![Vec::new(); MAX_REF_ARITY + 1];
        let ids: Vec<ClassId> = self.api.class_ids().collect();
        for c in ids {
            let cl = self.api.class(c);
            if !cl.functional || cl.parent.is_some() {
                continue;
            }
            if let Some((sam, _)) = self.typing().sam_method(c) {
                let k = self.api.member(sam).params.len();
                if let Some(v) = by.get_mut(k) {
                    v.push(c);
                }
            }
        }
        self.caches.functional = by.into_iter().map(Arc::new).collect();
        self.caches
            .functional
            .get(n)
            .map_or_else(|| Arc::new(Vec::new()), Arc::clone)
    }

    /// A functional interface type whose function type is `(params) -> ret` (`ret` `None`
    /// for `void`), with that function type; a primitive parameter or result is boxed where
    /// the interface has a type variable. A function whose result is of type `actual`
    /// (`None`: do not check) must convert to the interface's result in a lambda's return
    /// or a reference's result (an `int` does not box to a `Double`). `None` when the API
    /// has none that fits.
    pub(crate) fn functional_for(
        &mut self,
        rng: &mut SynthRng,
        params: &[TypeId],
        ret: Option<TypeId>,
        actual: Option<TypeId>,
    ) -> Option<FnType> {
        let all = self.functional_by_arity(params.len());
        let mut picks: Vec<ClassId> = all.to_vec();
        picks.shuffle(rng);
        picks.truncate(MAX_WRAP_CANDIDATES);
        for cid in picks {
            let Some(f) = self.fits_function(cid, params, ret) else {
                continue;
            };
            match actual {
                Some(a) if !f.void && !self.typing().function_result_converts(a, f.ret) => continue,
                _ => return Some(f),
            }
        }
        None
    }

    /// The instance of functional interface `cid` whose function type is `(params) -> ret`.
    fn fits_function(
        &mut self,
        cid: ClassId,
        params: &[TypeId],
        ret: Option<TypeId>,
    ) -> Option<FnType> {
        let (sam, via) = self.typing().sam_method(cid)?;
        let sm = self.api.member(sam).clone();
        if sm.params.len() != params.len() || !self.rules.converts_lambda_to(&sm.name) {
            return None;
        }
        let cl = self.api.class(cid).clone();
        let mut s = Subst::new();
        let mut pairs: Vec<(TypeId, TypeId)> = Vec::new();
        for (p, &want) in sm.params.iter().zip(params) {
            pairs.push((self.api.ts.arena.subst(p.ty, &via), want));
        }
        let sam_ret = self.api.ts.arena.subst(sm.ret, &via);
        let sam_void = is_void(&self.api.ts.arena, sam_ret);
        match ret {
            None if !sam_void => return None,
            Some(_) if sam_void => return None,
            Some(r) => pairs.push((sam_ret, r)),
            None => {}
        }
        for (pattern, want) in pairs {
            let want = match (self.api.ts.arena.get(pattern), self.api.ts.arena.get(want)) {
                // a type variable takes the box of a primitive
                (Type::Var(_), Type::Prim(p)) => {
                    let b = self.ctx.box_of(*p)?;
                    self.api.class_by_sym(b)?;
                    self.api.ts.arena.class(b, &[])
                }
                _ => want,
            };
            s = self
                .api
                .ts
                .unify_with(pattern, want, &cl.type_params, UnifyMode::Equal, &s)?;
        }
        let mut args = Vec::with_capacity(cl.type_params.len());
        for (i, &v) in cl.type_params.iter().enumerate() {
            let a = s.get(v)?;
            if !self.typing().within_bounds(cl.sym, i, a) {
                return None;
            }
            args.push(a);
        }
        let t = self.api.ts.arena.class(cl.sym, &args);
        let f = self.function_type(t)?;
        (f.ground && f.target_ir.is_some()).then_some(f)
    }

    /// Replaces the program's call under test (`call`, the last statement still to be
    /// written) by a function that holds it, when the program's forms ask for one and the
    /// API offers a functional interface that fits: the statements to end the program
    /// with, and how the call is held. `stmts` are the operands' locals; a reference drops
    /// the arguments' locals, a block lambda takes them into its block.
    pub(crate) fn wrap_call(
        &mut self,
        rng: &mut SynthRng,
        task: &Task,
        call: &Expr,
        stmts: &mut Vec<Stmt>,
    ) -> Option<(Stmt, Wrap)> {
        let feats = self.building.features;
        let mut wrapped = None;
        if feats.call_as_reference {
            wrapped = self
                .reference_wrap(rng, task, call, stmts)
                .map(|st| (st, Wrap::Reference));
        }
        if wrapped.is_none() && feats.call_in_lambda {
            wrapped = self.lambda_wrap(rng, task, call, stmts);
        }
        let (mut stmt, how) = wrapped?;
        self.maybe_cast_wrap(rng, &mut stmt);
        Some((stmt, how))
    }

    /// Casts the function that holds the call under test to its interface
    /// (`F res = (F) R::m;`, Kotlin `(R::m as F)`, Scala `(r.m: F)`), sometimes with the local
    /// left to be inferred from the cast (`var res = (F) () -> r.m(a0);`), when the program's
    /// `function_casts` form is on. A cast gives the function its target type as the
    /// declaration did, so an ill-typed program stays ill-typed (groovyc checks a closure or
    /// reference cast to an interface as it checks one assigned to it).
    fn maybe_cast_wrap(&mut self, rng: &mut SynthRng, stmt: &mut Stmt) {
        let feats = self.building.features;
        let use_p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        if !feats.function_casts || !rng.gen_bool(use_p) {
            return;
        }
        if let Stmt::Local {
            ty, init, inferred, ..
        } = stmt
        {
            let e = std::mem::replace(init, Expr::Unit);
            *init = Expr::cast(ty.clone(), e);
            *inferred = feats.inferred_locals && rng.gen_bool(use_p);
        }
    }

    /// `F res = <reference to the member under test>;`
    fn reference_wrap(
        &mut self,
        rng: &mut SynthRng,
        task: &Task,
        call: &Expr,
        stmts: &mut Vec<Stmt>,
    ) -> Option<Stmt> {
        let m = task.member;
        let mem = self.api.member(m).clone();
        let ill = task.broken.is_some();
        if mem.params.iter().any(|p| p.vararg)
            // a Scala member with several lists or an implicit one eta-expands to a curried
            // function, or resolves its implicit there
            || mem.scala_lists.is_some()
            // a top-level or extension member's reference (`::maxOf`, `List<T>::first`)
            // names it unqualified: not written yet
            || !self.api.class(mem.owner).is_class
            || self.ctx.throws_checked.contains(&m)
            || OBJECT_METHODS.contains(&mem.name.as_str())
            || self.api.is_signature_polymorphic(m)
            // a generic method's type arguments are inferred from the interface alone: its
            // result exactly (Kotlin infers no type argument from a supertype's `Object`)
            || !mem.type_params.is_empty()
                && (ill
                    || task.seq.result != task.formal.ret
                    || task.seq.args.iter().any(|&a| self.typing().mentions_wildcard(a)))
            // Kotlin shows the member with its own signature or nullability (`Reference.get()`
            // is `T?`: no `() -> T`), which a reference cannot adapt
            || self.rules.maps_java_classes()
                && self.typing().kotlin_reference_retypes(task.member, task.seq.receiver)
        {
            return None;
        }
        let owner = self.api.class(mem.owner).clone();
        if owner.parent.is_some() {
            return None;
        }
        // a primitive argument wider than its box would convert to, where the language
        // does not widen after unboxing
        if !self.rules.widens_unboxed_reference_args()
            && task
                .seq
                .args
                .iter()
                .zip(&task.formal.params)
                .any(|(&a, &p)| matches!(self.api.ts.arena.get(a), Type::Prim(_)) && a != p)
        {
            return None;
        }
        let args = task.seq.args.clone();
        let n = args.len();
        // a broken position must leave no method applicable: no namesake may take it
        let namesakes = self
            .ctx
            .members_by_name
            .get(&mem.owner)
            .and_then(|by| by.get(&mem.name))
            .map_or(0, |v| v.len());
        let (kind, params, declared_in) = match (mem.kind, &call) {
            (
                MemberKind::Constructor,
                Expr::New {
                    class,
                    type_args,
                    outer: None,
                    ..
                },
            ) => {
                let ctors: Vec<_> = owner
                    .members
                    .iter()
                    .copied()
                    .filter(|&c| self.api.member(c).kind == MemberKind::Constructor)
                    .collect();
                let same = ctors
                    .iter()
                    .filter(|&&c| self.api.member(c).params.len() == n)
                    .count();
                let single = if ill { ctors.len() == 1 } else { same == 1 };
                if !single
                    || ctors
                        .iter()
                        .any(|&c| self.api.member(c).params.iter().any(|p| p.vararg))
                {
                    return None;
                }
                let kind = RefKind::Constructor {
                    class: class.clone(),
                    type_args: type_args.clone(),
                };
                (kind, args.clone(), Vec::new())
            }
            (
                MemberKind::Method,
                Expr::Call {
                    receiver: Receiver::Static(class),
                    ..
                },
            ) if mem.is_static => {
                if !owner.type_params.is_empty()
                    && !self.rules.references_statics_of_generic_classes()
                {
                    return None;
                }
                if ill && namesakes != 1
                    || !ill
                        && !self
                            .typing()
                            .only_applicable(m, &Subst::new(), &args, n.checked_sub(1))
                {
                    return None;
                }
                let kind = RefKind::Static {
                    class: class.clone(),
                    name: mem.name.clone(),
                };
                (kind, args.clone(), vec![class.clone()])
            }
            (
                MemberKind::Method,
                Expr::Call {
                    receiver: Receiver::Expr(recv),
                    ..
                },
            ) if !mem.is_static => {
                let r = task.seq.receiver?;
                let broken_recv = task
                    .broken
                    .is_some_and(|b| b.position == Position::Receiver);
                let (cid, rs) = self.receiver_class_subst(r)?;
                if self.api.class(cid).functional {
                    return None;
                }
                // Kotlin resolves `e::m` on the static type of `e`, which for a call chain may
                // be a subclass that Kotlin maps (`Hashtable(59)::remove` is `MutableMap`'s)
                if self.rules.maps_java_classes() && receiver_local(recv).is_none() {
                    return None;
                }
                if ill && namesakes != 1 && !broken_recv
                    || !ill && !self.typing().only_applicable_in(cid, m, &rs, &args, None)
                {
                    return None;
                }
                let self_ty = self.api.ts.self_type(owner.sym);
                let declared_in = self.typing().declarers(self_ty, &mem.name, n);
                let unbound = !ill
                    && !self.typing().mentions_wildcard(r)
                    && java_expressible(&self.api, r)
                    && rng.gen_bool(0.5)
                    && self
                        .typing()
                        .only_applicable_in(cid, m, &rs, &args, Some(n + 1));
                if unbound {
                    let mut ps = vec![r];
                    ps.extend(&args);
                    let kind = RefKind::Unbound {
                        ty: to_ir(&self.api, r),
                        name: mem.name.clone(),
                    };
                    (kind, ps, declared_in)
                } else {
                    let kind = RefKind::Bound {
                        receiver: recv.clone(),
                        name: mem.name.clone(),
                    };
                    (kind, args.clone(), declared_in)
                }
            }
            _ => return None,
        };
        let f = self.functional_for(rng, &params, task.seq.result, actual_result(task))?;
        let refused_ctor = match &kind {
            RefKind::Constructor { class, .. } => self.refuses_constructor_reference(class),
            _ => false,
        };
        if f.suspend || refused_ctor || self.refuses_reference_to(&f) {
            return None;
        }
        // the program's one reference to the member under test: a pointer whenever the form
        // is on, but not in an ill-typed program: Groovy resolves a method pointer `r.&m`
        // when it is called (a `MethodClosure` over every `m`), so no static checker judges
        // its types and the program has no expectation
        let pointer = matches!(kind, RefKind::Bound { .. } | RefKind::Static { .. })
            && self.building.features.method_pointers
            && !ill;
        let target = f.target_ir.clone()?;
        let bound_recv = matches!(kind, RefKind::Bound { .. });
        let r = Expr::Ref {
            kind,
            fn_params: f.params.iter().map(|&t| to_ir(&self.api, t)).collect(),
            fn_ret: to_ir(&self.api, f.ret),
            target: Some(target.clone()),
            implicit: false,
            declared_in,
            method_pointer: pointer,
        };
        // the arguments' locals are not used; the receiver's is by a bound reference
        stmts.retain(|s| bound_recv && matches!(s, Stmt::Local { name, .. } if name == "r"));
        Some(Stmt::local("res", target, r))
    }

    /// `F res = () -> call;`, `F res = (p0, p1) -> p0.m(p1, a1);` (operands of the call as
    /// the lambda's parameters, typed by the interface alone or declared), or a block lambda
    /// declaring the operands' locals.
    fn lambda_wrap(
        &mut self,
        rng: &mut SynthRng,
        task: &Task,
        call: &Expr,
        stmts: &mut Vec<Stmt>,
    ) -> Option<(Stmt, Wrap)> {
        if self.ctx.throws_checked.contains(&task.member) {
            return None;
        }
        // a lambda whose result is the unit type takes any body (Kotlin's coercion to
        // `Unit`, Scala's value discarding): a result broken with `Unit` would not stay broken
        if task.broken.is_some_and(|b| b.position == Position::Result)
            && task
                .seq
                .result
                .is_some_and(|t| is_void(&self.api.ts.arena, t))
        {
            return None;
        }
        let feats = self.building.features;
        let mut call = call.clone();
        // operands that may become parameters: locals of a reference type (a boxed parameter
        // could pick another overload), and the receiver unless it is a functional value
        let mut cands: Vec<(String, TypeId)> = Vec::new();
        if let (
            Some(r),
            Expr::Call {
                receiver: Receiver::Expr(e),
                ..
            },
        ) = (task.seq.receiver, &call)
        {
            if receiver_local(e) == Some("r") && !self.typing().is_functional_class_type(r) {
                cands.push(("r".into(), r));
            }
        }
        let arg_exprs: &[Expr] = match &call {
            Expr::Call { args, .. } | Expr::New { args, .. } => args,
            _ => &[],
        };
        for (i, (&a, e)) in task.seq.args.iter().zip(arg_exprs).enumerate() {
            let name = format!("a{i}");
            if receiver_local(e) == Some(name.as_str())
                && !matches!(self.api.ts.arena.get(a), Type::Prim(_))
            {
                cands.push((name, a));
            }
        }
        cands.retain(|(_, t)| {
            !self.typing().mentions_wildcard(*t) && java_expressible(&self.api, *t)
        });
        // how many operands become parameters: none to the API's largest useful arity
        let most = cands.len().min(MAX_LAMBDA_WRAP_PARAMS);
        let k = if most > 0 && rng.gen_bool(OPERAND_PARAMS) {
            rng.gen_range(1..=most)
        } else {
            0
        };
        cands.shuffle(rng);
        cands.truncate(k);
        let types: Vec<TypeId> = cands.iter().map(|(_, t)| *t).collect();
        let (want, actual) = (task.seq.result, actual_result(task));
        let (cands, f) = match self.functional_for(rng, &types, want, actual) {
            Some(f) => (cands, f),
            None => (Vec::new(), self.functional_for(rng, &[], want, actual)?),
        };
        let typed = feats.typed_lambda_params && rng.gen_bool(TYPED_WRAP_PARAMS);
        let mut params = Vec::new();
        for (i, (name, t)) in cands.iter().enumerate() {
            let p = format!("p{i}");
            rename_operand(&mut call, name, &p);
            stmts.retain(|s| !matches!(s, Stmt::Local { name: n, .. } if n == name));
            params.push((p, typed.then(|| to_ir(&self.api, *t))));
        }
        let wrap = if cands.iter().any(|(n, _)| n == "r") {
            Wrap::ReceiverParam
        } else if cands.is_empty() {
            Wrap::Closure
        } else {
            Wrap::ArgumentParams
        };
        // a block lambda declares the other operands' locals itself
        let block = if feats.block_lambdas && !stmts.is_empty() {
            std::mem::take(stmts)
        } else {
            Vec::new()
        };
        let mut form = self.lambda_form(rng, !f.suspend);
        let target = f.target_ir.clone()?;
        // the result type as the language writes it (Kotlin's own types too)
        let ret: Option<Ty> = (self.api.ts.arena.is_ground(f.ret)
            && self.ctx.expressible(&self.api, f.ret))
        .then(|| to_ir(&self.api, f.ret));
        // an anonymous function with statements before its result must write the result
        // type (`fun(x): R { ..; return e }`): without one it is the usual lambda
        if form == LambdaForm::AnonymousFunction && ret.is_none() && !block.is_empty() {
            form = LambdaForm::Usual;
        }
        let lambda = Expr::Lambda {
            params,
            body: Box::new(call),
            target: Some(target.clone()),
            implicit: false,
            block,
            form,
            ret,
        };
        Some((Stmt::local("res", target, lambda), wrap))
    }

    /// The class of a receiver type and the substitution of its type parameters.
    fn receiver_class_subst(&mut self, r: TypeId) -> Option<(ClassId, Subst)> {
        let (sym, args) = {
            let (s, a) = self.api.ts.arena.as_class(r)?;
            (s, a.to_vec())
        };
        let cid = self.api.class_by_sym(sym)?;
        let cl = self.api.class(cid);
        if cl.type_params.len() != args.len() || cl.parent.is_some() {
            return None;
        }
        Some((cid, Subst::from_pairs(&cl.type_params, &args)))
    }
}

/// The type the call under test gives, when its result position is not the broken one.
fn actual_result(task: &Task) -> Option<TypeId> {
    match task.broken {
        Some(b) if b.position == Position::Result => None,
        _ => task.formal.ret,
    }
}

/// The local an operand expression reads (through casts), if it is one.
fn receiver_local(e: &Expr) -> Option<&str> {
    match e {
        Expr::Local(n) => Some(n),
        Expr::Cast { expr, .. } => receiver_local(expr),
        _ => None,
    }
}

/// Makes the call's receiver or argument that reads local `from` (through casts) read `to`.
fn rename_operand(call: &mut Expr, from: &str, to: &str) {
    let (recv, args) = match call {
        Expr::Call { receiver, args, .. } => (
            match receiver {
                Receiver::Expr(e) => Some(e),
                _ => None,
            },
            args,
        ),
        Expr::New { args, .. } => (None, args),
        _ => return,
    };
    for e in recv.into_iter().map(|b| &mut **b).chain(args.iter_mut()) {
        if receiver_local(e) == Some(from) {
            rename_local(e, to);
        }
    }
}

/// Makes an expression that reads a local (through casts) read `to`.
fn rename_local(e: &mut Expr, to: &str) {
    match e {
        Expr::Local(n) => *n = to.to_string(),
        Expr::Cast { expr, .. } => rename_local(expr, to),
        _ => {}
    }
}
