//! Function references (issue #13 item 1): for a functional interface whose function type
//! (JLS 9.9) is `(P1..Pn) -> R`, an API member that implements it: a static method `C::m`,
//! an instance method bound to a receiver `e::m`, an unbound instance method `C::m` (the
//! receiver is `P1`), a constructor `C::new` or an array constructor `T[]::new`.
//!
//! A reference is written only where Java's rules (JLS 15.13.1) make its compile-time
//! declaration unambiguous: among the methods of the searched class with the referenced name,
//! exactly the chosen one is applicable in both of the searches Java makes, none is generic
//! or of variable arity, and the chosen one throws no checked exception. Candidates come
//! from an index of the API's usable members by arity (`RefIndex`), built once per worker.

use std::rc::Rc;

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, RefKind};

use super::context::java_expressible;
use super::erase::InferInfo;
use super::inhabit::{FnType, Inhabitant};
use super::program::to_ir;
use super::worker::{SynthRng, Worker};
use crate::api::{ClassKind, MemberId, MemberKind};
use crate::types::{Prim, Subst, Type, TypeId};

/// Candidates tried per reference kind before giving up on it (bounds the time a reference
/// costs: synthesis stays under a millisecond per program).
pub const MAX_REF_CANDIDATES: usize = 24;

/// The largest function arity indexed for references.
pub const MAX_REF_ARITY: usize = 4;

/// The API's members usable in function references, by parameter count, in the stable
/// order of `SynthContext::testable` (facts about the API only).
#[derive(Debug, Default)]
pub(crate) struct RefIndex {
    /// Non-generic static methods with `i` parameters (`C::m` for an `i`-ary function).
    statics: Vec<Vec<MemberId>>,
    /// Non-generic instance methods with `i` parameters (`e::m` for an `i`-ary function).
    instance: Vec<Vec<MemberId>>,
}

/// The five kinds of references, in the order they are tried before shuffling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Static,
    Bound,
    Unbound,
    Constructor,
    Array,
}

impl Worker<'_> {
    /// The reference index of this worker's API (built on first use).
    fn ref_index(&mut self) -> Rc<RefIndex> {
        if let Some(ix) = &self.caches.refs {
            return Rc::clone(ix);
        }
        let mut ix = RefIndex {
            statics: vec![Vec::new(); MAX_REF_ARITY + 1],
            instance: vec![Vec::new(); MAX_REF_ARITY + 1],
        };
        for &m in &self.ctx.testable {
            if !self.referencable(m) {
                continue;
            }
            let mem = self.api.member(m);
            // a top-level or extension function's reference names it unqualified (not
            // written yet), and a Kotlin class's members are typed by Kotlin's own rules
            if mem.kind != MemberKind::Method
                || mem.receiver.is_some()
                || !self.api.class(mem.owner).is_class
            {
                continue;
            }
            let n = mem.params.len();
            if n > MAX_REF_ARITY {
                continue;
            }
            if mem.is_static {
                ix.statics[n].push(m);
            } else {
                ix.instance[n].push(m);
            }
        }
        let rc = Rc::new(ix);
        self.caches.refs = Some(Rc::clone(&rc));
        rc
    }

    /// True when a member can be named by a reference at all: usable, not generic, not of
    /// variable arity, no checked exception, not one of `Object`'s methods.
    fn referencable(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        self.ctx.path_usable.contains(&m)
            && mem.type_params.is_empty()
            && !mem.params.iter().any(|p| p.vararg)
            && mem.scala_lists.is_none()
            && !self.ctx.throws_checked.contains(&m)
            && !super::enumerate::OBJECT_METHODS.contains(&mem.name.as_str())
            && !self.api.is_signature_polymorphic(m)
    }

    /// A function reference implementing `f`, or `None` when no candidate fits.
    pub(crate) fn reference(
        &mut self,
        rng: &mut SynthRng,
        f: &FnType,
        depth: usize,
    ) -> Option<Inhabitant> {
        if !f.ground || f.suspend || f.params.len() > MAX_REF_ARITY {
            return None;
        }
        let mut kinds = [
            Kind::Static,
            Kind::Bound,
            Kind::Unbound,
            Kind::Constructor,
            Kind::Array,
        ];
        kinds.shuffle(rng);
        for k in kinds {
            let found = match k {
                Kind::Static => self.static_ref(rng, f),
                Kind::Bound => self.bound_ref(rng, f, depth),
                Kind::Unbound => self.unbound_ref(rng, f),
                Kind::Constructor => self.constructor_ref(rng, f),
                Kind::Array => self.array_ref(rng, f),
            };
            if let Some((kind, declared_in)) = found {
                let p = self.cfg.swarm.use_probability;
                let pointer = matches!(kind, RefKind::Bound { .. } | RefKind::Static { .. })
                    && self.building.features.method_pointers
                    && rng.gen_bool(p);
                let fn_params = f.params.iter().map(|&t| to_ir(&self.api, t)).collect();
                return Some(Inhabitant {
                    expr: Expr::Ref {
                        kind,
                        fn_params,
                        fn_ret: to_ir(&self.api, f.ret),
                        target: f.target_ir.clone(),
                        // decided by the position the reference ends up in
                        implicit: false,
                        declared_in,
                        method_pointer: pointer,
                    },
                    info: InferInfo::Poly,
                });
            }
        }
        None
    }

    /// Java's conversion of a value of type `from` to `to` in an invocation or assignment
    /// context, without the target language's extra coercions: subtyping (of invariant arrays
    /// where the language's are), the language's primitive widening, boxing then widening
    /// reference, unboxing then widening.
    pub(crate) fn java_converts(&mut self, from: TypeId, to: TypeId) -> bool {
        if from == to {
            return true;
        }
        let a = &self.api.ts.arena;
        match (a.get(from).clone(), a.get(to).clone()) {
            (Type::Prim(Prim::Void), _) | (_, Type::Prim(Prim::Void)) => false,
            // Scala's arrays are invariant: `Array[Callback]` is no `Array[Object]`
            (Type::Array(_), Type::Array(_)) if self.rules.arrays_are_invariant() => false,
            (Type::Prim(p), Type::Prim(q)) => self.rules.widens_primitive(p, q),
            (Type::Prim(p), _) => match self.ctx.box_of(p) {
                Some(b) if self.api.class_by_sym(b).is_some() => {
                    let boxed = self.api.ts.arena.class(b, &[]);
                    self.api.ts.is_subtype(boxed, to)
                }
                _ => false,
            },
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

    /// True when a method result of type `ret` is compatible with the function's result.
    fn result_fits(&mut self, ret: TypeId, f: &FnType) -> bool {
        if f.void {
            return true;
        }
        self.api.ts.arena.is_ground(ret) && self.function_result_converts(ret, f.ret)
    }

    /// True when a function's result of type `ret` converts to the function type's result
    /// `want` ([`Self::java_converts`], without widening a primitive where the language
    /// does not, [`super::rules::LanguageRules::widens_function_results`]).
    pub(crate) fn function_result_converts(&mut self, ret: TypeId, want: TypeId) -> bool {
        if !self.rules.widens_function_results()
            && matches!(self.api.ts.arena.get(want), Type::Prim(_))
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
    fn args_fit(&mut self, args: &[TypeId], params: &[TypeId]) -> bool {
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

    /// True when a member is usable here: referencable and the language sees it; in Kotlin,
    /// not a member that Kotlin shows with its own signature, name or nullability (its
    /// mapped types' `Map.Entry::getValue` is the property `value`, `WeakHashMap::values`
    /// names a field), which a callable reference cannot adapt.
    fn usable_ref(&mut self, m: MemberId) -> bool {
        self.referencable(m)
            && self.language_problem(m).is_none()
            && !(self.cfg.lang == thalia_translators::Language::Kotlin
                && self.kotlin_retypes(m, None, true))
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

    /// Draws up to [`MAX_REF_CANDIDATES`] members of a list.
    fn sample(rng: &mut SynthRng, list: &[MemberId]) -> Vec<MemberId> {
        if list.len() <= MAX_REF_CANDIDATES {
            let mut v = list.to_vec();
            v.shuffle(rng);
            return v;
        }
        (0..MAX_REF_CANDIDATES)
            .map(|_| list[rng.gen_range(0..list.len())])
            .collect()
    }

    /// `C::m` for a static method with the function's parameters.
    fn static_ref(&mut self, rng: &mut SynthRng, f: &FnType) -> Option<(RefKind, Vec<String>)> {
        let ix = self.ref_index();
        let n = f.params.len();
        for m in Self::sample(rng, &ix.statics[n]) {
            if !self.usable_ref(m) {
                continue;
            }
            let mem = self.api.member(m).clone();
            if !self.rules.references_statics_of_generic_classes()
                && !self.api.class(mem.owner).type_params.is_empty()
            {
                continue;
            }
            let ps: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
            if !self.args_fit(&f.params, &ps) || !self.result_fits(mem.ret, f) {
                continue;
            }
            // the second search (an instance method taking `P2..Pn`) must find nothing
            let other = n.checked_sub(1);
            if !self.only_applicable(m, &Subst::new(), &f.params, other) {
                continue;
            }
            let class = self.api.class(mem.owner).name.clone();
            return Some((
                RefKind::Static {
                    class: class.clone(),
                    name: mem.name.clone(),
                },
                vec![class],
            ));
        }
        None
    }

    /// `e::m` for an instance method of a receiver inhabited one level shallower.
    fn bound_ref(
        &mut self,
        rng: &mut SynthRng,
        f: &FnType,
        depth: usize,
    ) -> Option<(RefKind, Vec<String>)> {
        if depth == 0 {
            return None;
        }
        let ix = self.ref_index();
        let n = f.params.len();
        for m in Self::sample(rng, &ix.instance[n]) {
            if !self.usable_ref(m) {
                continue;
            }
            let mem = self.api.member(m).clone();
            let cl = self.api.class(mem.owner).clone();
            // a functional receiver would be a lambda in a cast; an enum's, an inner
            // class's receivers are fine as typed bottom values, but keep to plain classes
            if cl.functional || cl.parent.is_some() {
                continue;
            }
            let seed = if f.void || cl.type_params.is_empty() {
                Subst::new()
            } else {
                match self.api.ts.unify_with(
                    mem.ret,
                    f.ret,
                    &cl.type_params,
                    crate::types::UnifyMode::Subtype,
                    &Subst::new(),
                ) {
                    Some(s) => s,
                    None => continue,
                }
            };
            let Some(s) = self.draw_subst(rng, &cl.type_params, self.cfg.max_type_depth, &seed)
            else {
                continue;
            };
            let self_ty = self.api.ts.self_type(cl.sym);
            let rt = self.api.ts.arena.subst(self_ty, &s);
            if !self.api.ts.arena.is_ground(rt) || !java_expressible(&self.api, rt) {
                continue;
            }
            let ps: Vec<TypeId> = mem
                .params
                .iter()
                .map(|p| self.api.ts.arena.subst(p.ty, &s))
                .collect();
            let ret = self.api.ts.arena.subst(mem.ret, &s);
            if !self.args_fit(&f.params, &ps) || !self.result_fits(ret, f) {
                continue;
            }
            if !self.only_applicable(m, &s, &f.params, None) {
                continue;
            }
            // the receiver, seen exactly as `rt` (a subclass could add overloads); a cast gives
            // no target type to infer a generic call's type arguments from, so keep them
            self.building.no_conditionals += 1;
            self.building.keep_type_args += 1;
            let recv = self.inhabit(rng, rt, depth - 1);
            self.building.keep_type_args -= 1;
            self.building.no_conditionals -= 1;
            let exact = recv.info == InferInfo::Standalone(rt)
                && !matches!(
                    recv.expr,
                    Expr::Lit(ref l) if !matches!(l, thalia_translators::ir::Lit::Str(_))
                );
            let receiver = if exact {
                recv.expr
            } else {
                Expr::cast(to_ir(&self.api, rt), recv.expr)
            };
            let declared_in = self.declarers(self_ty, &mem.name, n);
            return Some((
                RefKind::Bound {
                    receiver: Box::new(receiver),
                    name: mem.name.clone(),
                },
                declared_in,
            ));
        }
        None
    }

    /// `C::m` for an instance method of the first parameter's class taking the others.
    fn unbound_ref(&mut self, rng: &mut SynthRng, f: &FnType) -> Option<(RefKind, Vec<String>)> {
        let (&p0, rest) = f.params.split_first()?;
        let (sym, args) = {
            let (s, a) = self.api.ts.arena.as_class(p0)?;
            (s, a.to_vec())
        };
        if self.mentions_wildcard(p0) || !java_expressible(&self.api, p0) {
            return None;
        }
        let cid = self.api.class_by_sym(sym)?;
        let cl = self.api.class(cid).clone();
        if cl.type_params.len() != args.len() || cl.parent.is_some() {
            return None;
        }
        let recv = Subst::from_pairs(&cl.type_params, &args);
        let ctx = self.ctx;
        let by = ctx.members_by_name.get(&cid)?;
        // the context's maps iterate in the same order in every worker and run
        let mut cands: Vec<&crate::api::ResolvedMember> = by
            .values()
            .flatten()
            .filter(|r| {
                let mem = self.api.member(r.member);
                mem.kind == MemberKind::Method && !mem.is_static && mem.params.len() == rest.len()
            })
            .collect();
        cands.shuffle(rng);
        for r in cands.into_iter().take(MAX_REF_CANDIDATES) {
            let m = r.member;
            if !self.usable_ref(m) {
                continue;
            }
            let mem = self.api.member(m).clone();
            let ps: Vec<TypeId> = mem
                .params
                .iter()
                .map(|p| {
                    let t = self.api.ts.arena.subst(p.ty, &r.subst);
                    self.api.ts.arena.subst(t, &recv)
                })
                .collect();
            let ret = self.api.ts.arena.subst(mem.ret, &r.subst);
            let ret = self.api.ts.arena.subst(ret, &recv);
            if !self.args_fit(rest, &ps) || !self.result_fits(ret, f) {
                continue;
            }
            // the namesakes as the searched class sees them, and no static one taking all
            // `n` parameters (the first search)
            if !self.only_applicable_in(cid, m, &recv, rest, Some(f.params.len())) {
                continue;
            }
            let self_ty = self.api.ts.self_type(self.api.class(mem.owner).sym);
            let declared_in = self.declarers(self_ty, &mem.name, rest.len());
            return Some((
                RefKind::Unbound {
                    ty: to_ir(&self.api, p0),
                    name: mem.name.clone(),
                },
                declared_in,
            ));
        }
        None
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
        let Some(rs) = self
            .ctx
            .members_by_name
            .get(&cid)
            .and_then(|by| by.get(&name))
            .cloned()
        else {
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

    /// `C::new` for a constructor of the result type or a subclass of it.
    fn constructor_ref(
        &mut self,
        rng: &mut SynthRng,
        f: &FnType,
    ) -> Option<(RefKind, Vec<String>)> {
        if f.void {
            return None;
        }
        let (sym, _) = self.api.ts.arena.as_class(f.ret)?;
        let subs = self.ctx.subclasses.get(&sym)?.clone();
        let picks: Vec<crate::api::ClassId> = if subs.len() <= MAX_REF_CANDIDATES {
            let mut v = subs;
            v.shuffle(rng);
            v
        } else {
            (0..MAX_REF_CANDIDATES)
                .map(|_| subs[rng.gen_range(0..subs.len())])
                .collect()
        };
        let n = f.params.len();
        for c in picks {
            let cl = self.api.class(c).clone();
            if cl.kind != ClassKind::Class || cl.parent.is_some() {
                continue;
            }
            let ctors: Vec<MemberId> = cl
                .members
                .iter()
                .copied()
                .filter(|&m| self.api.member(m).kind == MemberKind::Constructor)
                .collect();
            // exactly one constructor of this arity, none of variable arity
            let same: Vec<MemberId> = ctors
                .iter()
                .copied()
                .filter(|&m| self.api.member(m).params.len() == n)
                .collect();
            if same.len() != 1
                || ctors
                    .iter()
                    .any(|&m| self.api.member(m).params.iter().any(|p| p.vararg))
            {
                continue;
            }
            let m = same[0];
            if !self.ctx.path_usable.contains(&m)
                || self.ctx.throws_checked.contains(&m)
                || self.language_problem(m).is_some()
            {
                continue;
            }
            let Some(ct) = self.instance_below(rng, c, f.ret, self.cfg.max_type_depth) else {
                continue;
            };
            if self.mentions_wildcard(ct) || !java_expressible(&self.api, ct) {
                continue;
            }
            let args: Vec<TypeId> = self
                .api
                .ts
                .arena
                .as_class(ct)
                .map(|(_, a)| a.to_vec())
                .unwrap_or_default();
            let s = Subst::from_pairs(&cl.type_params, &args);
            let mem = self.api.member(m).clone();
            let ps: Vec<TypeId> = mem
                .params
                .iter()
                .map(|p| self.api.ts.arena.subst(p.ty, &s))
                .collect();
            if !self.args_fit(&f.params, &ps) {
                continue;
            }
            let type_args = if cl.type_params.is_empty() {
                Some(Vec::new())
            } else {
                let explicit = self.building.features.explicit_type_args
                    && rng.gen_bool(self.cfg.swarm.use_probability);
                let formal: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
                let infos: Vec<InferInfo> =
                    f.params.iter().map(|&p| InferInfo::Standalone(p)).collect();
                let self_ty = self.api.ts.self_type(cl.sym);
                let inferable =
                    self.erasable(&cl.type_params, &s, &formal, &infos, self_ty, Some(f.ret));
                if inferable && !explicit {
                    None
                } else {
                    Some(args.iter().map(|&a| to_ir(&self.api, a)).collect())
                }
            };
            return Some((
                RefKind::Constructor {
                    class: cl.name.clone(),
                    type_args,
                },
                Vec::new(),
            ));
        }
        None
    }

    /// `T[]::new` for a function from `int` to an array of a reifiable type (to any array
    /// type for a result that is a supertype of arrays).
    fn array_ref(&mut self, rng: &mut SynthRng, f: &FnType) -> Option<(RefKind, Vec<String>)> {
        if !self.rules.references_array_constructors() || f.void || f.params.len() != 1 {
            return None;
        }
        let int = self.api.ts.arena.prim(Prim::Int);
        if !self.java_converts(f.params[0], int) {
            return None;
        }
        let elem = match *self.api.ts.arena.get(f.ret) {
            Type::Array(e) => e,
            // a supertype of arrays (`Object`, `Cloneable`, `Serializable`): any array
            _ => {
                let e = *self.ctx.concrete.choose(rng)?;
                let arr = self.api.ts.arena.array(e);
                if !self.api.ts.is_subtype(arr, f.ret) {
                    return None;
                }
                e
            }
        };
        if !self.reifiable(elem) || !java_expressible(&self.api, elem) {
            return None;
        }
        Some((
            RefKind::ArrayConstructor {
                elem: to_ir(&self.api, elem),
            },
            Vec::new(),
        ))
    }

    /// True for a type whose arrays can be created: a primitive, a class type without type
    /// arguments, or an array of such.
    fn reifiable(&self, t: TypeId) -> bool {
        match self.api.ts.arena.get(t) {
            Type::Prim(p) => *p != Prim::Void,
            Type::Class { args, .. } => args.is_empty(),
            Type::Array(e) => self.reifiable(*e),
            _ => false,
        }
    }

    /// True when a wildcard occurs anywhere in the type.
    pub(crate) fn mentions_wildcard(&self, t: TypeId) -> bool {
        if matches!(self.api.ts.arena.get(t), Type::Wildcard(_)) {
            return true;
        }
        let mut w = false;
        self.api
            .ts
            .arena
            .for_each_child(t, |c| w |= self.mentions_wildcard(c));
        w
    }
}
