//! Function references (issue #13 item 1): for a functional interface whose function type
//! (JLS 9.9) is `(P1..Pn) -> R`, an API member that implements it: a static method `C::m`,
//! an instance method bound to a receiver `e::m`, an unbound instance method `C::m` (the
//! receiver is `P1`), a constructor `C::new` or an array constructor `T[]::new`.
//!
//! Kotlin programs (issue #15) also implement their own function types (`(A) -> R`) with
//! references, and reference the API's top-level and extension functions through an import
//! alias (`::maxOf_`, `String::trim_`, `s::trim_`; the translator writes the alias). Such a
//! function may be generic: its type arguments are inferred from the function type as
//! kotlinc does for a callable reference (`Typing::infer_from_function`). It is chosen only
//! where no other declaration of its name in its package takes the function's parameters
//! without adaptation (`Typing::sole_package_candidate`), and candidates are drawn from an
//! index by result (or receiver) class, so that they can fit at all. Functions returning
//! `Nothing` (`::TODO`, `::error`) fit every result and are drawn with
//! [`BOTTOM_RESULT_PROBABILITY`]; neither they nor generic ones are referenced where the
//! reference is an argument of an overloaded call (every candidate would take them).
//!
//! A reference is written only where Java's rules (JLS 15.13.1) make its compile-time
//! declaration unambiguous: among the methods of the searched class with the referenced name,
//! exactly the chosen one is applicable in both of the searches Java makes, none is generic
//! or of variable arity, and the chosen one throws no checked exception. Candidates come
//! from an index of the API's usable members by arity (`RefIndex`), built once per worker.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, RefKind, RefOn};

use super::inhabitant::{FnType, Inhabitant};
use super::ir::to_ir;
use super::ref_index::{ByKey, Key, RefIndex, MAX_REF_ARITY};
use super::rng::SynthRng;
use super::worker::Worker;
use crate::api::{ClassKind, MemberId, MemberKind};
use crate::synth::context::java_expressible;
use crate::synth::typing::erase::InferInfo;
use crate::synth::typing::sequence::is_void;
use crate::types::{Prim, Subst, Type, TypeId};

/// Candidates tried per reference kind before giving up on it (bounds the time a reference
/// costs: synthesis stays under a millisecond per program).
pub const MAX_REF_CANDIDATES: usize = 24;

/// How often a reference's candidates include the package functions that return
/// `Nothing` (`::TODO`, `::error`), which fit every result and would otherwise be most of
/// the references drawn.
pub const BOTTOM_RESULT_PROBABILITY: f64 = 0.2;

/// How often a reference's candidates include the package functions whose result is one
/// of their type variables (`fun <T> T.takeIf(..): T?`): they may fit any result, but
/// their parameters rarely take the function's, so always drawing them would crowd out
/// the candidates that fit.
pub const GENERIC_RESULT_PROBABILITY: f64 = 0.5;

/// The kinds of references, in the order they are tried before shuffling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Static,
    Bound,
    Unbound,
    Constructor,
    Array,
    /// A Kotlin top-level function (`::f`).
    TopLevel,
    /// A Kotlin extension function bound to a receiver (`e::f`).
    ExtensionBound,
    /// A Kotlin extension function whose receiver is the first parameter (`R::f`).
    ExtensionUnbound,
}

impl Worker<'_> {
    /// The reference index of this worker's API (built on first use).
    fn ref_index(&mut self) -> Arc<RefIndex> {
        if let Some(ix) = &self.caches.refs {
            return Arc::clone(ix);
        }
        let mut ix = RefIndex {
            statics: vec![Vec::new(); MAX_REF_ARITY + 1],
            instance: vec![Vec::new(); MAX_REF_ARITY + 1],
            top_level: vec![ByKey::default(); MAX_REF_ARITY + 1],
            extensions: vec![ByKey::default(); MAX_REF_ARITY + 1],
            extensions_by_receiver: vec![ByKey::default(); MAX_REF_ARITY + 1],
        };
        let package_functions = self.rules.references_package_functions();
        for &m in &self.ctx.testable {
            if !self.typing().referencable_generic(m) {
                continue;
            }
            let mem = self.api.member(m);
            let n = mem.params.len();
            if mem.kind != MemberKind::Method || n > MAX_REF_ARITY {
                continue;
            }
            let owner = self.api.class(mem.owner);
            // a package's functions (a Kotlin facade's), named through an import alias
            if !owner.is_class {
                let native = self.ctx.native.is_some_and(|s| s == owner.syntax);
                if package_functions && native && !mem.is_suspend && !mem.call_is_error {
                    let ret = self.key(mem.ret);
                    match mem.receiver {
                        None => ix.top_level[n].push(ret, m),
                        Some(r) => {
                            let recv = self.key(r);
                            ix.extensions[n].push(ret, m);
                            ix.extensions_by_receiver[n].push(recv, m);
                        }
                    }
                }
                continue;
            }
            // an extension declared in a class or object needs its dispatch receiver too
            if mem.receiver.is_some() || !mem.type_params.is_empty() {
                continue;
            }
            if mem.is_static {
                ix.statics[n].push(m);
            } else {
                ix.instance[n].push(m);
            }
        }
        let rc = Arc::new(ix);
        self.caches.refs = Some(Arc::clone(&rc));
        rc
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
        if self.refuses_reference_to(f) {
            return None;
        }
        let mut kinds = vec![
            Kind::Static,
            Kind::Bound,
            Kind::Unbound,
            Kind::Constructor,
            Kind::Array,
        ];
        if self.rules.references_package_functions() {
            kinds.extend([Kind::TopLevel, Kind::ExtensionBound, Kind::ExtensionUnbound]);
        }
        kinds.shuffle(rng);
        for k in kinds {
            let found = match k {
                Kind::Static => self.static_ref(rng, f),
                Kind::Bound => self.bound_ref(rng, f, depth),
                Kind::Unbound => self.unbound_ref(rng, f),
                Kind::Constructor => self.constructor_ref(rng, f),
                Kind::Array => self.array_ref(rng, f),
                Kind::TopLevel => self.top_level_ref(rng, f),
                Kind::ExtensionBound => self.extension_bound_ref(rng, f, depth),
                Kind::ExtensionUnbound => self.extension_unbound_ref(rng, f),
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

    /// True when the language converts no callable reference to `f`'s interface: Kotlin's
    /// own `Iterable`, `Comparable` and `Annotation` are no fun interfaces.
    pub(crate) fn refuses_reference_to(&self, f: &FnType) -> bool {
        self.rules.maps_java_classes()
            && f.target
                .and_then(|t| self.api.ts.arena.as_class(t))
                .is_some_and(|(n, _)| {
                    thalia_translators::kotlin::is_own_interface(self.api.ts.arena.name(n))
                })
    }

    /// True when the language has no constructor reference to class `class` (Kotlin's
    /// mapped classes: `String`, the wrappers).
    pub(crate) fn refuses_constructor_reference(&self, class: &str) -> bool {
        self.rules.maps_java_classes()
            && thalia_translators::kotlin::refuses_constructor_reference(class)
    }

    /// True when a method result of type `ret` is compatible with the function's result.
    fn result_fits(&mut self, ret: TypeId, f: &FnType) -> bool {
        if f.void {
            return !f.function_type || is_void(&self.api.ts.arena, ret);
        }
        self.api.ts.arena.is_ground(ret) && self.typing().function_result_converts(ret, f.ret)
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
            if !self.typing().usable_ref(m) {
                continue;
            }
            let mem = self.api.member(m).clone();
            if !self.rules.references_statics_of_generic_classes()
                && !self.api.class(mem.owner).type_params.is_empty()
            {
                continue;
            }
            let ps: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
            if !self.typing().args_fit(&f.params, &ps) || !self.result_fits(mem.ret, f) {
                continue;
            }
            // the second search (an instance method taking `P2..Pn`) must find nothing
            let other = n.checked_sub(1);
            if !self
                .typing()
                .only_applicable(m, &Subst::new(), &f.params, other)
            {
                continue;
            }
            let class = self.api.class(mem.owner).name.clone();
            self.note_use(m);
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
            if !self.typing().usable_ref(m) {
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
            if !self.typing().args_fit(&f.params, &ps) || !self.result_fits(ret, f) {
                continue;
            }
            if !self.typing().only_applicable(m, &s, &f.params, None) {
                continue;
            }
            let receiver = self.exact_receiver(rng, rt, depth - 1);
            let declared_in = self.typing().declarers(self_ty, &mem.name, n);
            self.note_use(m);
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

    /// A receiver of static type exactly `rt` (a subclass could add overloads), cast when
    /// its expression's type is another; a cast gives no target type to infer a generic
    /// call's type arguments from, so the receiver's calls keep them.
    fn exact_receiver(&mut self, rng: &mut SynthRng, rt: TypeId, depth: usize) -> Expr {
        self.building.no_conditionals += 1;
        self.building.keep_type_args += 1;
        let recv = self.inhabit(rng, rt, depth);
        self.building.keep_type_args -= 1;
        self.building.no_conditionals -= 1;
        let exact = recv.info == InferInfo::Standalone(rt)
            && !matches!(
                recv.expr,
                Expr::Lit(ref l) if !matches!(l, thalia_translators::ir::Lit::Str(_))
            );
        if exact {
            recv.expr
        } else {
            Expr::cast(to_ir(&self.api, rt), recv.expr)
        }
    }

    /// `C::m` for an instance method of the first parameter's class taking the others.
    fn unbound_ref(&mut self, rng: &mut SynthRng, f: &FnType) -> Option<(RefKind, Vec<String>)> {
        let (&p0, rest) = f.params.split_first()?;
        let (sym, args) = {
            let (s, a) = self.api.ts.arena.as_class(p0)?;
            (s, a.to_vec())
        };
        if self.typing().mentions_wildcard(p0) || !java_expressible(&self.api, p0) {
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
            if !self.typing().usable_ref(m) {
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
            if !self.typing().args_fit(rest, &ps) || !self.result_fits(ret, f) {
                continue;
            }
            // the namesakes as the searched class sees them, and no static one taking all
            // `n` parameters (the first search)
            if !self
                .typing()
                .only_applicable_in(cid, m, &recv, rest, Some(f.params.len()))
            {
                continue;
            }
            let self_ty = self.api.ts.self_type(self.api.class(mem.owner).sym);
            let declared_in = self.typing().declarers(self_ty, &mem.name, rest.len());
            self.note_use(m);
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
            if self.refuses_constructor_reference(&cl.name) {
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
                || self.typing().language_problem(m).is_some()
            {
                continue;
            }
            let Some(ct) = self.instance_below(rng, c, f.ret, self.cfg.max_type_depth) else {
                continue;
            };
            if self.typing().mentions_wildcard(ct) || !java_expressible(&self.api, ct) {
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
            if !self.typing().args_fit(&f.params, &ps) {
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
                let inferable = self.typing().erasable(
                    &cl.type_params,
                    &s,
                    &formal,
                    &infos,
                    self_ty,
                    Some(f.ret),
                    false,
                );
                if inferable && !explicit {
                    None
                } else {
                    Some(args.iter().map(|&a| to_ir(&self.api, a)).collect())
                }
            };
            self.note_use(m);
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
        if !self.typing().java_converts(f.params[0], int) {
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
    pub(crate) fn reifiable(&self, t: TypeId) -> bool {
        match self.api.ts.arena.get(t) {
            Type::Prim(p) => *p != Prim::Void,
            Type::Class { args, .. } => args.is_empty(),
            Type::Array(e) => self.reifiable(*e),
            _ => false,
        }
    }

    /// The [`Key`] of a type, under its nullability (`None` for an array, a function type,
    /// a wildcard, ...).
    fn key(&self, t: TypeId) -> Option<Key> {
        match self.api.ts.arena.get(t) {
            Type::Nullable(i) => self.key(*i),
            _ if self.api.ts.is_bottom_like(t) => Some(Key::Bottom),
            Type::Class { name, .. } => Some(Key::Class(*name)),
            Type::Prim(p) => Some(Key::Prim(*p)),
            Type::Var(_) => Some(Key::Var),
            _ => None,
        }
    }

    /// The keys of the types below `t` (its class's subclasses, the primitives whose boxes
    /// are below it), with [`Key::Var`] drawn with [`GENERIC_RESULT_PROBABILITY`] and
    /// [`Key::Bottom`] with [`BOTTOM_RESULT_PROBABILITY`]; `None`
    /// when any result fits (`void`, a root class, a type without a key).
    fn keys_below(&mut self, rng: &mut SynthRng, t: TypeId) -> Option<Vec<Key>> {
        let mut keys = match self.key(t)? {
            Key::Bottom | Key::Var => Vec::new(),
            Key::Prim(Prim::Void) => return None,
            Key::Prim(p) => {
                let mut v = vec![Key::Prim(p)];
                v.extend(self.ctx.box_of(p).map(Key::Class));
                v
            }
            Key::Class(c) if self.api.ts.is_root_class(c) => return None,
            Key::Class(c) => {
                let mut v = vec![Key::Class(c)];
                if let Some(subs) = self.ctx.subclasses.get(&c) {
                    v.extend(subs.iter().map(|&s| Key::Class(self.api.class(s).sym)));
                }
                for p in Prim::ALL {
                    if let Some(b) = self.ctx.box_of(p) {
                        let boxed = self.api.ts.arena.class(b, &[]);
                        if self.api.ts.is_subtype(boxed, t) {
                            v.push(Key::Prim(p));
                        }
                    }
                }
                v
            }
        };
        if rng.gen_bool(GENERIC_RESULT_PROBABILITY) {
            keys.push(Key::Var);
        }
        if rng.gen_bool(BOTTOM_RESULT_PROBABILITY) {
            keys.push(Key::Bottom);
        }
        Some(keys)
    }

    /// The keys of the types above `t`: its supertypes' classes (its box's for a
    /// primitive), and the primitive itself.
    fn keys_above(&mut self, t: TypeId) -> Vec<Key> {
        let t = match *self.api.ts.arena.get(t) {
            Type::Nullable(i) => i,
            _ => t,
        };
        let mut keys = vec![Key::Var];
        let t = match *self.api.ts.arena.get(t) {
            Type::Prim(p) => {
                keys.push(Key::Prim(p));
                match self.ctx.box_of(p) {
                    Some(b) => self.api.ts.arena.class(b, &[]),
                    None => return keys,
                }
            }
            _ => t,
        };
        for s in self.api.ts.all_supertypes(t) {
            if let Some((c, _)) = self.api.ts.arena.as_class(s) {
                keys.push(Key::Class(c));
            }
        }
        keys
    }

    /// Up to [`MAX_REF_CANDIDATES`] members of `list` whose result may fit `f`'s.
    fn sample_by_result(&mut self, rng: &mut SynthRng, list: &ByKey, f: &FnType) -> Vec<MemberId> {
        let keys = if f.void {
            None
        } else {
            self.keys_below(rng, f.ret)
        };
        match keys {
            None => Self::sample(rng, &list.all),
            Some(keys) => Self::sample(rng, &list.under(&keys)),
        }
    }

    /// `::f` for a Kotlin top-level function with the function's parameters.
    fn top_level_ref(&mut self, rng: &mut SynthRng, f: &FnType) -> Option<(RefKind, Vec<String>)> {
        let ix = self.ref_index();
        for m in self.sample_by_result(rng, &ix.top_level[f.params.len()], f) {
            if self.package_fits(m, &f.params, f) {
                return Some((self.package_ref(m, RefOn::Nothing), Vec::new()));
            }
        }
        None
    }

    /// True when package function `m` (its receiver first) implements `f`, whose
    /// parameters are `fn_params` (a bound extension reference's receiver type first):
    /// usable, its type arguments inferred from the function type, and the only candidate
    /// of its name (`Typing::sole_package_candidate`); not generic nor of result `Nothing`
    /// where the reference is an argument of an overloaded call.
    fn package_fits(&mut self, m: MemberId, fn_params: &[TypeId], f: &FnType) -> bool {
        let mem = self.api.member(m).clone();
        if !self.typing().referencable_generic(m) || self.typing().language_problem(m).is_some() {
            return false;
        }
        // where the argument's own type picks among overloads (an argument of an overloaded
        // call), a `Nothing` result fits every candidate's function type and a generic
        // reference's type arguments are inferred together with the call's: neither is made
        if self.building.no_conditionals > 0
            && (mem.is_polymorphic() || self.api.ts.is_bottom_like(mem.ret))
        {
            return false;
        }
        let full = mem.receiver_and_params();
        let Some(s) = self.typing().infer_from_function(
            &mem.type_params,
            &full,
            mem.ret,
            fn_params,
            (!f.void).then_some(f.ret),
        ) else {
            return false;
        };
        let ps: Vec<TypeId> = full
            .iter()
            .map(|&p| self.api.ts.arena.subst(p, &s))
            .collect();
        let ret = self.api.ts.arena.subst(mem.ret, &s);
        self.typing().args_fit(fn_params, &ps)
            && self.result_fits(ret, f)
            && self.typing().sole_package_candidate(m, fn_params)
    }

    /// `R::f` for a Kotlin extension function whose receiver takes the function's first
    /// parameter, written as that parameter's type.
    fn extension_unbound_ref(
        &mut self,
        rng: &mut SynthRng,
        f: &FnType,
    ) -> Option<(RefKind, Vec<String>)> {
        let (&p0, rest) = f.params.split_first()?;
        if !self.api.ts.arena.is_ground(p0)
            || self.typing().mentions_wildcard(p0)
            || !java_expressible(&self.api, p0)
        {
            return None;
        }
        let ix = self.ref_index();
        let keys = self.keys_above(p0);
        for m in Self::sample(rng, &ix.extensions_by_receiver[rest.len()].under(&keys)) {
            if !self.package_fits(m, &f.params, f) {
                continue;
            }
            let on = RefOn::Type(to_ir(&self.api, p0));
            return Some((self.package_ref(m, on), Vec::new()));
        }
        None
    }

    /// `e::f` for a Kotlin extension function bound to a receiver of exactly its receiver
    /// type, inhabited one level shallower.
    fn extension_bound_ref(
        &mut self,
        rng: &mut SynthRng,
        f: &FnType,
        depth: usize,
    ) -> Option<(RefKind, Vec<String>)> {
        if depth == 0 {
            return None;
        }
        let ix = self.ref_index();
        for m in self.sample_by_result(rng, &ix.extensions[f.params.len()], f) {
            let mem = self.api.member(m).clone();
            let Some(r) = mem.receiver else { continue };
            // a generic receiver type is fixed first: drawn from its variables' bounds
            let r = if self.api.ts.arena.is_ground(r) {
                r
            } else {
                let Some(s) = self.draw_subst(
                    rng,
                    &mem.type_params,
                    self.cfg.max_type_depth,
                    &Subst::new(),
                ) else {
                    continue;
                };
                self.api.ts.arena.subst(r, &s)
            };
            if !self.api.ts.arena.is_ground(r)
                || self.typing().mentions_wildcard(r)
                || !java_expressible(&self.api, r)
            {
                continue;
            }
            let with_receiver: Vec<TypeId> = std::iter::once(r).chain(f.params.clone()).collect();
            if !self.package_fits(m, &with_receiver, f) {
                continue;
            }
            let receiver = self.exact_receiver(rng, r, depth - 1);
            let on = RefOn::Value(Box::new(receiver));
            return Some((self.package_ref(m, on), Vec::new()));
        }
        None
    }

    /// The reference to package function `m` on `on`.
    fn package_ref(&mut self, m: MemberId, on: RefOn) -> RefKind {
        self.note_use(m);
        let mem = self.api.member(m);
        RefKind::PackageFunction {
            package: self.api.class(mem.owner).name.clone(),
            name: mem.name.clone(),
            on,
        }
    }
}
