//! Overload resolution as the oracle uses it: Java's (JLS 15.12.2: phases 1-3, strict, loose,
//! variable arity; then the most specific method), a Kotlin extension call among the
//! extensions of its name in scope (shadowed by a member), Scala's candidates that take a
//! call by their default values or want implicit arguments, Scala's relative weight; and the
//! questions built on it: whether a member is overloaded, whether another overload could take
//! a call's poly arguments, its varargs elements, or Kotlin's call without its defaults.

use super::checker::Typing;
use super::erase::InferInfo;
use super::rules::kotlin_default_import;
use super::sequence::{Formal, Task, TypingSequence};
use crate::api::{ClassId, MemberId, MemberKind, ResolvedMember};
use crate::types::{Subst, Type, TypeId, UnifyMode, VarId};

/// What overload resolution does with a call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Resolution {
    /// Exactly one most specific applicable member.
    Unique(MemberId),
    /// Several maximally specific members.
    Ambiguous,
    /// No applicable member.
    NoneApplicable,
}

impl Typing<'_> {
    /// Java overload resolution of the call in `seq`; a constructor's receiver (an inner
    /// class's enclosing instance) takes no part in it.
    pub fn resolve_call(&mut self, m: MemberId, f: &Formal, seq: &TypingSequence) -> Resolution {
        if seq.receiver.is_some() && self.api.member(m).kind == MemberKind::Constructor {
            let plain = TypingSequence {
                receiver: None,
                ..seq.clone()
            };
            return self.resolve(m, f, &plain);
        }
        self.resolve(m, f, seq)
    }

    /// The class whose members a receiver type offers.
    fn receiver_class(&self, t: TypeId) -> Option<ClassId> {
        let (sym, _) = self.api.ts.arena.as_class(t)?;
        self.api.class_by_sym(sym)
    }

    /// The extension members a call of extension `m` may resolve to: those of its name in
    /// its own file's package and in the packages Kotlin imports by default.
    pub(crate) fn extensions_in_scope(&mut self, m: MemberId) -> Vec<ResolvedMember> {
        let (name, owner) = {
            let mem = self.api.member(m);
            (mem.name.clone(), mem.owner)
        };
        let ids = self.ctx.extensions.get(&name).cloned().unwrap_or_default();
        let in_scope: Vec<MemberId> = ids
            .into_iter()
            .filter(|&e| {
                let o = self.api.member(e).owner;
                o == owner || kotlin_default_import(&self.api.class(o).name)
            })
            .collect();
        in_scope
            .into_iter()
            .map(|e| {
                let o = self.api.member(e).owner;
                let sym = self.api.class(o).sym;
                ResolvedMember {
                    member: e,
                    declared_in: o,
                    via: self.api.ts.self_type(sym),
                    subst: Subst::new(),
                }
            })
            .collect()
    }

    /// True when an extension in scope for a call of extension `m` (see
    /// [`Self::extensions_in_scope`]), or one of the standard library's, takes a receiver
    /// of type `x`.
    pub(crate) fn extension_in_scope_takes(&mut self, m: MemberId, x: TypeId) -> bool {
        let x = self.boxed_type(x);
        for e in self.extensions_in_scope(m) {
            let Some(r) = self.api.member(e.member).receiver else {
                continue;
            };
            let r = match *self.api.ts.arena.get(r) {
                Type::Nullable(i) => i,
                _ => r,
            };
            let r = match *self.api.ts.arena.get(r) {
                Type::Var(v) => match self.api.ts.arena.var(v).upper.first() {
                    Some(&b) => b,
                    None => return true,
                },
                _ => r,
            };
            let raw = self.api.ts.erase(r);
            if self.api.ts.is_subtype(x, raw) {
                return true;
            }
        }
        let mem = self.api.member(m).clone();
        let n = mem.params.len();
        let getter = {
            let mut c = mem.name.chars();
            c.next()
                .map(|f| format!("get{}{}", f.to_uppercase(), c.as_str()))
                .unwrap_or_default()
        };
        self.extension_applies(x, false, &mem.name, n)
            || (mem.kind == MemberKind::Field && self.extension_applies(x, false, &getter, 0))
    }

    /// True when the class of `seq`'s receiver has a method named `name` of the call's arity
    /// (or variable arity), which Kotlin calls instead of an extension of that name.
    fn member_shadows_extension(&mut self, name: &str, seq: &TypingSequence) -> bool {
        let Some(r) = seq.receiver else {
            return false;
        };
        let r = match *self.api.ts.arena.get(r) {
            Type::Nullable(i) => i,
            _ => r,
        };
        let Some(c) = self.receiver_class(r) else {
            return false;
        };
        let n = seq.args.len();
        self.ctx
            .members_by_name
            .get(&c)
            .and_then(|by| by.get(name))
            .is_some_and(|ms| {
                ms.iter().any(|rm| {
                    let m = self.api.member(rm.member);
                    m.kind == MemberKind::Method
                        && m.receiver.is_none()
                        && (m.params.len() == n || m.params.last().is_some_and(|p| p.vararg))
                })
            })
    }

    /// Java overload resolution (JLS 15.12.2, phases 1-3, most specific method) of a call of
    /// `m`'s name with the sequence's receiver and argument types, with `m`'s explicit type
    /// arguments when it is generic.
    pub fn resolve(&mut self, m: MemberId, f: &Formal, seq: &TypingSequence) -> Resolution {
        let mem = self.api.member(m).clone();
        if mem.kind == MemberKind::Field {
            return Resolution::Unique(m);
        }
        let explicit: Vec<TypeId> = mem
            .type_params
            .iter()
            .map(|&v| f.subst.get(v).unwrap_or(v_any(self)))
            .collect();
        let extension = mem.receiver.is_some();
        if extension && self.member_shadows_extension(&mem.name, seq) {
            return Resolution::Ambiguous;
        }
        // an extension call is resolved among the extensions of its file, its receiver an
        // argument before the others
        let ext_args: Vec<TypeId>;
        let args: &[TypeId] = match (extension, seq.receiver) {
            (true, Some(r)) => {
                ext_args = std::iter::once(r).chain(seq.args.iter().copied()).collect();
                &ext_args
            }
            _ => &seq.args,
        };
        let (cls, recv_subst) = match seq.receiver {
            Some(_) if extension => (mem.owner, Subst::new()),
            Some(r) => {
                let Some(c) = self.receiver_class(r) else {
                    return Resolution::Unique(m);
                };
                let params = self.api.class(c).type_params.clone();
                let args = self
                    .api
                    .ts
                    .arena
                    .as_class(r)
                    .map(|(_, a)| a.to_vec())
                    .unwrap_or_default();
                (c, Subst::from_pairs(&params, &args))
            }
            None => {
                let owner = mem.owner;
                let s = if mem.kind == MemberKind::Constructor {
                    let params = self.api.class(owner).type_params.clone();
                    let args: Vec<TypeId> = params
                        .iter()
                        .map(|&p| f.subst.get(p).unwrap_or(v_any(self)))
                        .collect();
                    Subst::from_pairs(&params, &args)
                } else {
                    Subst::new()
                };
                (owner, s)
            }
        };
        let cands: Vec<ResolvedMember> = if extension {
            self.extensions_in_scope(m)
        } else {
            self.ctx
                .members_by_name
                .get(&cls)
                .and_then(|by| by.get(&mem.name))
                .cloned()
                .unwrap_or_default()
        };
        let cands: Vec<ResolvedMember> = cands
            .into_iter()
            .filter(|r| {
                let k = self.api.member(r.member).kind;
                (k == MemberKind::Constructor) == (mem.kind == MemberKind::Constructor)
                    && k != MemberKind::Field
                    && self.api.member(r.member).receiver.is_some() == extension
                    && (mem.kind != MemberKind::Constructor || r.declared_in == cls)
            })
            .collect();
        if self.rival_wants_implicits(m, &cands, args.len()) {
            return Resolution::Ambiguous;
        }
        let mut inst: Vec<(MemberId, Vec<TypeId>, bool)> = Vec::new();
        for r in &cands {
            if let Some((mut ps, va)) = self.instantiate(r, &recv_subst, &explicit, args) {
                // an extension of a covariant read-only receiver that the inferred instance
                // does not take may take the call with its variables at their bounds
                // (`Collection<T>.plus(T)` on a `UIntArray` with a `String`: `T = Any`)
                if explicit.is_empty()
                    && self.covariant_receiver(r.member)
                    && !(1..=3).any(|phase| self.applicable(&ps, va, args, phase))
                {
                    ps = self.at_bounds(r, &recv_subst);
                }
                if self.leaves_out_defaults(r.member, ps.len(), args.len()) {
                    ps.truncate(args.len());
                }
                inst.push((r.member, ps, va));
            }
        }
        for phase in 1..=3 {
            let mut app: Vec<(MemberId, Vec<TypeId>)> = Vec::new();
            for (id, ps, varargs) in &inst {
                if self.applicable(ps, *varargs, args, phase) {
                    app.push((*id, ps.clone()));
                }
            }
            if app.is_empty() {
                continue;
            }
            return self.most_specific(&app);
        }
        // Scala takes the arguments as one tuple where nothing else applies
        if self.rules.auto_tuples() && !extension && args.len() >= 2 {
            let tupled = inst
                .iter()
                .any(|(_, ps, varargs)| !varargs && ps.len() == 1 && self.takes_tuple(ps[0]));
            if tupled {
                return Resolution::Ambiguous;
            }
        }
        Resolution::NoneApplicable
    }

    /// True when a Scala candidate of `n_params` parameters takes a call of `n_args`
    /// arguments by its default values for the others (`sizeHint(coll, delta = 0)` takes
    /// `sizeHint(xs)`). Kotlin's calls that leave defaults out are modelled apart
    /// ([`Self::rival_takes`]).
    fn leaves_out_defaults(&self, m: MemberId, n_params: usize, n_args: usize) -> bool {
        let mem = self.api.member(m);
        n_args < n_params
            && mem.receiver.is_none()
            && self.api.class(mem.owner).syntax == crate::types::Syntax::Scala
            && (n_args..n_params).all(|i| mem.kotlin_forms.defaults.contains(&i))
    }

    /// True when another Scala candidate takes the call's explicit arguments and then
    /// implicit ones that the call leaves to the compiler: scalac may prefer it (a sorted
    /// collection's `map` needs an `Ordering` for its new keys) and fail to find them.
    fn rival_wants_implicits(&self, m: MemberId, cands: &[ResolvedMember], n_args: usize) -> bool {
        let implicit = |id: MemberId| {
            self.api
                .member(id)
                .scala_lists
                .as_ref()
                .map_or(0, |l| l.implicit)
        };
        let explicit = n_args.saturating_sub(implicit(m));
        cands.iter().any(|r| {
            let k = implicit(r.member);
            r.member != m
                && k > implicit(m)
                && self.api.member(r.member).params.len().saturating_sub(k) == explicit
        })
    }

    /// Parameter types of a candidate as seen through the receiver, with its own type
    /// parameters given explicitly or inferred from the arguments; `None` if it cannot take
    /// the explicit type arguments.
    fn instantiate(
        &mut self,
        r: &ResolvedMember,
        recv_subst: &Subst,
        explicit: &[TypeId],
        args: &[TypeId],
    ) -> Option<(Vec<TypeId>, bool)> {
        let cm = self.api.member(r.member).clone();
        // Groovy fills any trailing array parameter from the remaining arguments
        let any_array = self.rules.trailing_array_is_varargs();
        let varargs = cm.params.last().is_some_and(|p| {
            p.vararg || any_array && matches!(self.api.ts.arena.get(p.ty), Type::Array(_))
        });
        let mut ps: Vec<TypeId> = cm
            .receiver
            .iter()
            .chain(cm.params.iter().map(|p| &p.ty))
            .map(|&p| {
                let t = self.api.ts.arena.subst(p, &r.subst);
                self.api.ts.arena.subst(t, recv_subst)
            })
            .collect();
        if !cm.type_params.is_empty() {
            let s = if !explicit.is_empty() {
                if explicit.len() != cm.type_params.len() {
                    return None;
                }
                Subst::from_pairs(&cm.type_params, explicit)
            } else {
                // inference: match each parameter against its (boxed) argument; for a
                // varargs candidate also each trailing argument against the element type
                let mut s = Subst::new();
                let n = ps.len();
                for (i, &a) in args.iter().enumerate() {
                    let a = self.boxed_type(a);
                    let mut targets: Vec<TypeId> = Vec::new();
                    if i < n {
                        targets.push(ps[i]);
                    }
                    if varargs && i + 1 >= n && n > 0 {
                        if let Type::Array(e) = *self.api.ts.arena.get(ps[n - 1]) {
                            targets.push(e);
                        }
                    }
                    let mut matched = false;
                    for &p in &targets {
                        // a variable fixed by an earlier argument must take this one too
                        // (`join(T...)` on `(String, Object)`: `T` is not `String`)
                        let fits = self
                            .api
                            .ts
                            .unify_with(p, a, &cm.type_params, UnifyMode::Subtype, &s)
                            .filter(|s2| {
                                let inst = self.api.ts.arena.subst(p, s2);
                                self.api.ts.is_subtype(a, inst)
                            });
                        if let Some(s2) = fits {
                            s = s2;
                            matched = true;
                            break;
                        }
                    }
                    // conflicting lower bounds: Java takes their lub; approximate it by the
                    // variable's erased bound, which accepts every candidate
                    if !matched {
                        if let Some(&p) = targets.last() {
                            for v in self.api.ts.arena.free_vars(p) {
                                if cm.type_params.contains(&v) && s.contains(v) {
                                    let b = self.var_bound(v);
                                    s.insert(v, b);
                                }
                            }
                        }
                    }
                }
                for &v in &cm.type_params {
                    if !s.contains(v) {
                        let b = self.var_bound(v);
                        s.insert(v, b);
                    }
                }
                s
            };
            ps = ps
                .into_iter()
                .map(|t| self.api.ts.arena.subst(t, &s))
                .collect();
        }
        Some((ps, varargs))
    }

    /// The receiver and parameter types of extension candidate `r` with its own type
    /// variables at their (erased) bounds, and each class type that mentions one erased:
    /// Kotlin's `T = Any` for a covariant receiver, which Java's invariant generics of the one
    /// hierarchy (`java.util.Collection<Object>`) would refuse.
    fn at_bounds(&mut self, r: &ResolvedMember, recv_subst: &Subst) -> Vec<TypeId> {
        let cm = self.api.member(r.member).clone();
        let mut bounds = Subst::new();
        for &v in &cm.type_params {
            let b = self.var_bound(v);
            bounds.insert(v, b);
        }
        cm.receiver
            .iter()
            .chain(cm.params.iter().map(|p| &p.ty))
            .map(|&p| {
                let t = self.api.ts.arena.subst(p, &r.subst);
                let t = self.api.ts.arena.subst(t, recv_subst);
                let mentions = self
                    .api
                    .ts
                    .arena
                    .free_vars(t)
                    .into_iter()
                    .any(|v| cm.type_params.contains(&v));
                let t = self.api.ts.arena.subst(t, &bounds);
                match self.api.ts.arena.get(t) {
                    Type::Class { .. } if mentions => self.api.ts.erase(t),
                    _ => t,
                }
            })
            .collect()
    }

    /// True when extension `m`'s receiver, as its document writes it, is a read-only
    /// collection type that the language declares covariant
    /// ([`LanguageRules::covariant_receiver`](super::rules::LanguageRules::covariant_receiver)).
    fn covariant_receiver(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let owner = self.api.class(mem.owner);
        mem.kind == MemberKind::Method
            && owner
                .doc
                .methods()
                .get(mem.doc_index)
                .and_then(|d| d.receiver())
                .is_some_and(|r| self.rules.covariant_receiver(r))
    }

    /// The erasure of a type variable's first bound (`Object` when unbounded).
    fn var_bound(&mut self, v: VarId) -> TypeId {
        let o = self.ctx.object_sym;
        let b = self
            .api
            .ts
            .arena
            .var(v)
            .upper
            .first()
            .copied()
            .unwrap_or_else(|| self.api.ts.arena.class(o, &[]));
        self.api.ts.erase(b)
    }

    /// True when a candidate with parameter types `ps` (`varargs`: its last is variable
    /// arity) applies to arguments of types `args` in phase 1, 2 or 3 of JLS 15.12.2.2-4.
    fn applicable(&mut self, ps: &[TypeId], varargs: bool, args: &[TypeId], phase: u8) -> bool {
        let loose = phase >= 2;
        if phase < 3 || !varargs {
            if phase == 3 {
                return false;
            }
            return ps.len() == args.len()
                && ps
                    .iter()
                    .zip(args)
                    .all(|(&p, &a)| self.convertible(a, p, loose));
        }
        // phase 3: variable arity
        let n = ps.len();
        if args.len() + 1 < n {
            return false;
        }
        let elem = match self.api.ts.arena.get(ps[n - 1]) {
            Type::Array(e) => *e,
            _ => return false,
        };
        let as_elements = |w: &mut Self, args: &[TypeId]| {
            args.iter().enumerate().all(|(i, &a)| {
                let p = if i + 1 < n { ps[i] } else { elem };
                w.convertible(a, p, true)
            })
        };
        if as_elements(self, args) {
            return true;
        }
        // Kotlin: elements, then the array spread (`f(a, b, *arr)`)
        match args.split_last() {
            Some((&last, init)) if self.rules.spread_follows_elements() && init.len() >= n => {
                self.convertible(last, ps[n - 1], true) && as_elements(self, init)
            }
            _ => false,
        }
    }

    /// The most specific of the applicable candidates (JLS 15.12.2.5, by subtyping of the
    /// parameter types; in Scala by relative weight, SLS 6.26.3), or `Ambiguous`.
    fn most_specific(&mut self, app: &[(MemberId, Vec<TypeId>)]) -> Resolution {
        let as_specific = |w: &mut Self, ps: &[TypeId], qs: &[TypeId]| {
            ps.len() == qs.len() && ps.iter().zip(qs).all(|(&p, &q)| w.api.ts.is_subtype(p, q))
        };
        let weighs_owner = self.rules.weighs_overloads_by_owner();
        let mut maximal = Vec::new();
        for (i, (id, ps)) in app.iter().enumerate() {
            let is_max = app.iter().enumerate().all(|(j, (other, qs))| {
                if i == j {
                    return true;
                }
                if !weighs_owner {
                    return as_specific(self, ps, qs);
                }
                // Scala's relative weight: a point for being as specific, a point for being
                // declared in a subclass; the heavier wins
                let weight =
                    |w: &mut Self, a: MemberId, b: MemberId, x: &[TypeId], y: &[TypeId]| {
                        usize::from(as_specific(w, x, y)) + usize::from(w.declared_below(a, b))
                    };
                weight(self, *id, *other, ps, qs) > weight(self, *other, *id, qs, ps)
            });
            if is_max {
                maximal.push(*id);
            }
        }
        match maximal.as_slice() {
            [one] => Resolution::Unique(*one),
            _ => Resolution::Ambiguous,
        }
    }

    /// True when member `a` is declared in a proper subclass of the class declaring `b`.
    fn declared_below(&mut self, a: MemberId, b: MemberId) -> bool {
        let (oa, ob) = (self.api.member(a).owner, self.api.member(b).owner);
        if oa == ob {
            return false;
        }
        let ta = self.api.ts.self_type(self.api.class(oa).sym);
        let tb = self.api.ts.self_type(self.api.class(ob).sym);
        let erased_b = self.api.ts.arena.as_class(tb).map(|(s, _)| s);
        self.api
            .ts
            .all_supertypes(ta)
            .into_iter()
            .any(|s| self.api.ts.arena.as_class(s).map(|(n, _)| n) == erased_b)
    }

    /// True when another overload of `m` with as many parameters returns a type assignable
    /// to `x`: a language that resolves overloads by the expected type may choose it; so
    /// may one of a single parameter that takes the arguments as a tuple
    /// ([`Self::tuple_taker`]).
    pub(crate) fn overload_returns(&mut self, m: MemberId, x: TypeId) -> bool {
        let mem = self.api.member(m);
        let (kind, arity) = (mem.kind, mem.params.len());
        let Some(rs) = self
            .ctx
            .members_by_name
            .get(&mem.owner)
            .and_then(|by| by.get(&mem.name))
        else {
            return false;
        };
        let rivals: Vec<MemberId> = rs
            .iter()
            .filter(|r| r.member != m)
            .map(|r| r.member)
            .filter(|&o| {
                let o = self.api.member(o);
                o.kind == kind && o.params.len() == arity
            })
            .collect();
        let rets: Vec<TypeId> = rivals
            .into_iter()
            .chain(self.tuple_taker(m, arity))
            .map(|o| self.api.member(o).ret)
            .collect();
        rets.into_iter().any(|r| self.assignable(r, x))
    }

    /// A method of `m`'s name and class with one parameter that a tuple of `n_args`
    /// arguments may conform to ([`Self::takes_tuple`]; a class's type variable counts, as
    /// no receiver says what it stands for), where the language auto-tuples
    /// ([`LanguageRules::auto_tuples`]) and `n_args` is at least 2.
    ///
    /// [`LanguageRules::auto_tuples`]: super::rules::LanguageRules::auto_tuples
    pub(crate) fn tuple_taker(&mut self, m: MemberId, n_args: usize) -> Option<MemberId> {
        if !self.rules.auto_tuples() || n_args < 2 {
            return None;
        }
        let mem = self.api.member(m);
        let (kind, owner, name) = (mem.kind, mem.owner, mem.name.clone());
        let rs = self.ctx.members_by_name.get(&owner)?.get(&name)?;
        rs.iter().map(|r| r.member).find(|&o| {
            let o = self.api.member(o);
            matches!(o.params.as_slice(), [p] if o.kind == kind && self.takes_tuple(p.ty))
        })
    }

    /// True when a tuple conforms to parameter type `p`: `Object`, `Serializable`,
    /// `Product`, `Equals`, or a type variable.
    fn takes_tuple(&self, p: TypeId) -> bool {
        const TUPLE_SUPERTYPES: [&str; 4] = [
            "java.lang.Object",
            "java.io.Serializable",
            "scala.Product",
            "scala.Equals",
        ];
        let a = &self.api.ts.arena;
        let p = match *a.get(p) {
            Type::Nullable(i) => i,
            _ => p,
        };
        match a.get(p) {
            Type::Var(_) => true,
            Type::Class { name, .. } => TUPLE_SUPERTYPES.contains(&a.name(*name)),
            _ => false,
        }
    }

    /// True when another member of `m`'s name, kind and arity (counting `varargs` elements
    /// for the variable-arity argument when given) could take the call's arguments once
    /// its poly arguments (lambdas, references, erased calls) no longer pin the choice:
    /// every standalone argument (by what inference knows of it, `args`) converts to the
    /// other member's (erased) parameter and every poly argument meets a reference type
    /// that could take it.
    pub(crate) fn poly_competitor(
        &mut self,
        m: MemberId,
        args: &[InferInfo],
        varargs: Option<usize>,
    ) -> bool {
        let mem = self.api.member(m).clone();
        let Some(by) = self.ctx.members_by_name.get(&mem.owner) else {
            return false;
        };
        let Some(rs) = by.get(&mem.name).cloned() else {
            return false;
        };
        let arity = match varargs {
            Some(n) => mem.params.len() - 1 + n,
            None => mem.params.len(),
        };
        for r in rs {
            let o = self.api.member(r.member).clone();
            if r.member == m || o.kind != mem.kind {
                continue;
            }
            let o_varargs = o.params.last().is_some_and(|p| p.vararg);
            if o.params.len() != arity && !o_varargs {
                continue;
            }
            let mut fits = true;
            for (i, a) in args.iter().enumerate() {
                let Some(p) = o
                    .params
                    .get(i)
                    .or_else(|| o.params.last().filter(|_| o_varargs))
                else {
                    fits = false;
                    break;
                };
                let pt = self.api.ts.erase(p.ty);
                let ok = match *a {
                    InferInfo::Poly | InferInfo::Opaque => {
                        !matches!(self.api.ts.arena.get(pt), Type::Prim(_))
                    }
                    InferInfo::Standalone(t) => {
                        let t = self.api.ts.erase(t);
                        self.assignable(t, pt)
                            || matches!(self.api.ts.arena.get(pt), Type::Array(_)) && o_varargs
                    }
                };
                if !ok {
                    fits = false;
                    break;
                }
            }
            if fits {
                return true;
            }
        }
        false
    }

    /// True when the member's class has another member of the same name and kind.
    pub(crate) fn is_overloaded(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let Some(by) = self.ctx.members_by_name.get(&mem.owner) else {
            return false;
        };
        by.get(&mem.name).is_some_and(|rs| {
            rs.iter()
                .any(|r| r.member != m && self.api.member(r.member).kind == mem.kind)
        })
    }

    /// True when a call of `m` with the argument types of `seq` (its variable-arity argument
    /// written as elements) resolves as `want` in Java's rules, and no extension method of
    /// that arity could answer it instead (Groovy, Kotlin).
    pub(crate) fn elements_resolve(
        &mut self,
        m: MemberId,
        formal: &Formal,
        seq: &TypingSequence,
        want: Resolution,
    ) -> bool {
        if self.resolve(m, formal, seq) != want {
            return false;
        }
        let mem = self.api.member(m);
        if mem.kind != MemberKind::Method || !self.rules.has_extension_methods() {
            return true;
        }
        let (name, owner) = (mem.name.clone(), mem.owner);
        let (recv, static_call) = match seq.receiver {
            Some(r) => (r, false),
            None => {
                let sym = self.api.class(owner).sym;
                (self.api.ts.self_type(sym), true)
            }
        };
        !self.extension_applies(recv, static_call, &name, seq.args.len())
    }

    /// True when the member's class has another member of the same name, kind and arity.
    fn has_same_arity_overload(&self, m: MemberId) -> bool {
        let mem = self.api.member(m);
        let Some(by) = self.ctx.members_by_name.get(&mem.owner) else {
            return false;
        };
        by.get(&mem.name).is_some_and(|rs| {
            rs.iter().any(|r| {
                let o = self.api.member(r.member);
                r.member != m && o.kind == mem.kind && o.params.len() == mem.params.len()
            })
        })
    }

    /// True when a candidate of `m`'s name other than `m` might take the argument list
    /// `kept` (names where named, typing-sequence types) that leaves out defaults of `m`: a
    /// member of the name in `m`'s class or the receiver's class, or an extension of the
    /// name whose receiver is related to the receiver (a subtype or supertype, erased),
    /// whose parameters take the arguments (each kept argument's erased type related to
    /// its parameter's, the rest of its parameters with defaults). Conservative: a
    /// variable-arity rival, or a receiver of a type variable, counts as taking it.
    pub(crate) fn rival_takes(
        &mut self,
        m: MemberId,
        task: &Task,
        kept: &[(Option<String>, TypeId)],
    ) -> bool {
        let mem = self.api.member(m).clone();
        let recv = task.seq.receiver.map(|r| self.api.ts.erase(r));
        let by_name = |cid: ClassId| {
            self.ctx
                .members_by_name
                .get(&cid)
                .and_then(|by| by.get(&mem.name))
                .map(|rs| rs.iter().map(|r| r.member).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        let mut rivals = by_name(mem.owner);
        if let Some(r) = task.seq.receiver {
            let r = match *self.api.ts.arena.get(r) {
                Type::Nullable(t) => t,
                _ => r,
            };
            match *self.api.ts.arena.get(r) {
                Type::Class { .. } => {
                    // a class outside the API has no member known here
                    if let Some(cid) = self
                        .api
                        .ts
                        .arena
                        .as_class(r)
                        .and_then(|(sym, _)| self.api.class_by_sym(sym))
                    {
                        rivals.extend(by_name(cid));
                    }
                }
                // primitives and arrays have no member of a name that has defaults
                Type::Prim(_) | Type::Array(_) => {}
                // a type variable's bound may declare one
                _ => return true,
            }
        }
        rivals.extend(
            self.ctx
                .extensions
                .get(&mem.name)
                .cloned()
                .unwrap_or_default(),
        );
        rivals.sort_unstable();
        rivals.dedup();
        for c in rivals {
            if c == m {
                continue;
            }
            let cm = self.api.member(c).clone();
            if cm.kind != MemberKind::Method {
                continue;
            }
            let receiver_fits = match (mem.receiver, cm.receiver) {
                (Some(_), Some(rc)) => match recv {
                    None => true,
                    Some(a) => {
                        let b = self.api.ts.erase(rc);
                        self.api.ts.is_subtype(a, b) || self.api.ts.is_subtype(b, a)
                    }
                },
                // a function of the package is not called on a receiver
                (Some(_), None) => !cm.is_static,
                // an applicable member wins over extensions
                (None, Some(_)) => false,
                (None, None) => cm.is_static == mem.is_static,
            };
            if receiver_fits && self.params_take(&cm, kept) {
                return true;
            }
        }
        false
    }

    /// True when member `c`'s parameters might take arguments `kept` (see
    /// [`Self::rival_takes`]).
    fn params_take(&mut self, c: &crate::api::Member, kept: &[(Option<String>, TypeId)]) -> bool {
        if c.params.iter().any(|p| p.vararg) {
            return true;
        }
        let mut taken = vec![false; c.params.len()];
        for (k, (name, t)) in kept.iter().enumerate() {
            let i = match name {
                None => k,
                Some(n) => match c.kotlin_forms.parameter_names.iter().position(|x| x == n) {
                    Some(i) => i,
                    None => return false,
                },
            };
            if i >= c.params.len() || taken[i] {
                return false;
            }
            taken[i] = true;
            let a = self.api.ts.erase(*t);
            let b = self.api.ts.erase(c.params[i].ty);
            if !(self.api.ts.is_subtype(a, b) || self.api.ts.is_subtype(b, a)) {
                return false;
            }
        }
        taken
            .iter()
            .enumerate()
            .all(|(i, &t)| t || c.kotlin_forms.defaults.contains(&i))
    }

    /// True when a call of `m` on a receiver of type `recv` (its class when static) may
    /// select another member of the same name and arity: `m`'s class or the receiver's class
    /// has one with other (erased) parameter types.
    pub(crate) fn overloaded_call(&mut self, m: MemberId, recv: Option<TypeId>) -> bool {
        if self.has_same_arity_overload(m) {
            return true;
        }
        let Some(r) = recv else { return false };
        let Some(cid) = self
            .api
            .ts
            .arena
            .as_class(r)
            .and_then(|(sym, _)| self.api.class_by_sym(sym))
        else {
            return false;
        };
        let mem = self.api.member(m).clone();
        let Some(rs) = self
            .ctx
            .members_by_name
            .get(&cid)
            .and_then(|by| by.get(&mem.name))
            .cloned()
        else {
            return false;
        };
        let mine: Vec<TypeId> = mem.params.iter().map(|p| p.ty).collect();
        let mine: Vec<TypeId> = mine.into_iter().map(|t| self.api.ts.erase(t)).collect();
        for r in rs {
            let o = self.api.member(r.member).clone();
            if r.member == m || o.kind != mem.kind || o.params.len() != mem.params.len() {
                continue;
            }
            let theirs: Vec<TypeId> = o.params.iter().map(|p| self.api.ts.erase(p.ty)).collect();
            if theirs != mine {
                return true;
            }
        }
        false
    }
}

/// `java.lang.Object` in the worker's arena.
fn v_any(w: &mut Typing<'_>) -> TypeId {
    let o = w.ctx.object_sym;
    w.api.ts.arena.class(o, &[])
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use thalia_translators::Language;

    use super::*;
    use crate::synth::typing::rules::LanguageRules;
    use crate::synth::typing::testing::{class, java_lang, method, with, Fixture};
    use crate::types::{Subst, Syntax};

    /// A Java class `p.Calls` of public static `void` methods, with `java.lang`.
    fn calls(methods: &[(&str, &[&str])]) -> Fixture {
        let ms: Vec<Value> = methods
            .iter()
            .map(|(name, params)| {
                let varargs = params.last().is_some_and(|p| p.ends_with("..."));
                with(
                    method(name, params, "void"),
                    json!({"is_static": true, "is_varargs": varargs}),
                )
            })
            .collect();
        let mut docs = java_lang();
        docs.push(class("p.Calls", "java", &[], ms));
        Fixture::of(docs, None)
    }

    /// How a call of `m`'s name with arguments of types `args` (no receiver) resolves.
    fn call(fx: &mut Fixture, lang: Language, m: MemberId, args: &[&str]) -> Resolution {
        let args = args.iter().map(|a| fx.ty(a)).collect();
        let seq = TypingSequence {
            receiver: None,
            args,
            result: None,
        };
        let mut t = fx.typing(lang);
        let f = t.formal_under(m, Subst::new());
        t.resolve(m, &f, &seq)
    }

    #[test]
    fn java_takes_the_first_phase_with_an_applicable_method() {
        let mut fx = calls(&[
            ("f", &["long"]),
            ("f", &["java.lang.Integer"]),
            ("g", &["java.lang.Object"]),
            ("g", &["int..."]),
        ]);
        let f_long = fx.member("static void p.Calls.f(long)");
        let f_integer = fx.member("static void p.Calls.f(java.lang.Integer)");
        let g_object = fx.member("static void p.Calls.g(java.lang.Object)");
        let g_ints = fx.member("static void p.Calls.g(int...)");
        let java = Language::Java;
        // phase 1 (widening) before phase 2 (boxing)
        assert_eq!(
            call(&mut fx, java, f_long, &["int"]),
            Resolution::Unique(f_long)
        );
        assert_eq!(
            call(&mut fx, java, f_long, &["java.lang.Integer"]),
            Resolution::Unique(f_integer)
        );
        // phase 2 (boxing) before phase 3 (variable arity)
        assert_eq!(
            call(&mut fx, java, g_ints, &["int"]),
            Resolution::Unique(g_object)
        );
        assert_eq!(
            call(&mut fx, java, g_ints, &["int", "int"]),
            Resolution::Unique(g_ints)
        );
        assert_eq!(call(&mut fx, java, g_ints, &[]), Resolution::Unique(g_ints));
    }

    #[test]
    fn the_most_specific_method_wins_and_incomparable_ones_are_ambiguous() {
        let mut fx = calls(&[
            ("h", &["java.lang.Object"]),
            ("h", &["java.lang.String"]),
            ("k", &["java.lang.Integer", "java.lang.Object"]),
            ("k", &["java.lang.Object", "java.lang.Integer"]),
        ]);
        let h_object = fx.member("static void p.Calls.h(java.lang.Object)");
        let h_string = fx.member("static void p.Calls.h(java.lang.String)");
        let k = fx.member("static void p.Calls.k(java.lang.Integer, java.lang.Object)");
        let java = Language::Java;
        assert_eq!(
            call(&mut fx, java, h_object, &["java.lang.String"]),
            Resolution::Unique(h_string)
        );
        assert_eq!(
            call(&mut fx, java, h_string, &["java.lang.Integer"]),
            Resolution::Unique(h_object)
        );
        assert_eq!(
            call(
                &mut fx,
                java,
                k,
                &["java.lang.Integer", "java.lang.Integer"]
            ),
            Resolution::Ambiguous
        );
        assert_eq!(
            call(&mut fx, java, k, &["java.lang.String", "java.lang.String"]),
            Resolution::NoneApplicable
        );
        let t = fx.typing(java);
        assert!(t.is_overloaded(k) && t.has_same_arity_overload(k));
    }

    #[test]
    fn groovy_fills_a_trailing_array_from_any_number_of_arguments() {
        let mut fx = calls(&[("j", &["java.lang.String[]"])]);
        let j = fx.member("static void p.Calls.j(java.lang.String[])");
        let args = ["java.lang.String", "java.lang.String"];
        for (lang, want) in [
            (Language::Java, Resolution::NoneApplicable),
            (Language::Groovy, Resolution::Unique(j)),
        ] {
            assert_eq!(call(&mut fx, lang, j, &args), want, "{lang}");
        }
    }

    #[test]
    fn kotlin_passes_elements_before_a_spread_array() {
        let mut fx = Fixture::java_base();
        let of = fx.member(
            "static java.nio.file.Path java.nio.file.Paths.get(java.lang.String, java.lang.String...)",
        );
        // `Paths.get(a, b, *rest)`
        let args = ["java.lang.String", "java.lang.String", "java.lang.String[]"];
        for (lang, applies) in [(Language::Java, false), (Language::Kotlin, true)] {
            let got = call(&mut fx, lang, of, &args);
            assert_eq!(got == Resolution::Unique(of), applies, "{lang}: {got:?}");
        }
    }

    #[test]
    fn scala_weighs_an_overload_declared_below_against_a_more_specific_one() {
        let mut fx = Fixture::java_base();
        let jumps = fx.member(
            "default java.util.stream.Stream<java.util.random.RandomGenerator> \
             java.util.random.RandomGenerator.JumpableGenerator.jumps(long)",
        );
        let long = fx.ty("long");
        let recv = fx.ty("java.util.random.RandomGenerator.ArbitrarilyJumpableGenerator");
        for (lang, unique) in [(Language::Java, true), (Language::Scala3, false)] {
            let mut t = fx.typing(lang);
            let f = t.formal_under(jumps, Subst::new());
            // `jumps(double)` is declared below, `jumps(long)` is more specific
            let seq = TypingSequence {
                receiver: Some(recv),
                args: vec![long],
                result: None,
            };
            let want = if unique {
                Resolution::Unique(jumps)
            } else {
                Resolution::Ambiguous
            };
            assert_eq!(t.resolve(jumps, &f, &seq), want, "{lang}");
        }
    }

    #[test]
    fn scala_takes_the_arguments_as_a_tuple_where_one_parameter_takes_any_object() {
        let mut fx = Fixture::java_base();
        let add = fx.member("void java.util.List.add(int, E)");
        let string = fx.ty("java.lang.String");
        let (objects, strings) = (
            fx.ty("java.util.List<java.lang.Object>"),
            fx.ty("java.util.List<java.lang.String>"),
        );
        for (lang, tuples) in [(Language::Java, false), (Language::Scala3, true)] {
            let mut t = fx.typing(lang);
            assert_eq!(t.tuple_taker(add, 2).is_some(), tuples, "{lang}: add(E)");
            assert!(t.tuple_taker(add, 1).is_none(), "{lang}: one argument");
            let f = t.formal_under(add, Subst::new());
            // `xs.add("a", "b")`: no `add` takes two strings, but a list of objects takes
            // the pair `("a", "b")` in Scala
            for (recv, want) in [
                (
                    objects,
                    if tuples {
                        Resolution::Ambiguous
                    } else {
                        Resolution::NoneApplicable
                    },
                ),
                (strings, Resolution::NoneApplicable),
            ] {
                let seq = TypingSequence {
                    receiver: Some(recv),
                    args: vec![string, string],
                    result: None,
                };
                assert_eq!(t.resolve(add, &f, &seq), want, "{lang}");
            }
        }
    }

    #[test]
    fn scala_result_is_not_broken_where_another_overload_returns_the_type() {
        let mut fx = Fixture::java_base();
        let remove = fx.member("E java.util.concurrent.CopyOnWriteArrayList.remove(int)");
        let boolean = fx.ty("java.lang.Boolean");
        let string = fx.ty("java.lang.String");
        for (lang, picks_by_result) in [(Language::Java, false), (Language::Scala2, true)] {
            let mut t = fx.typing(lang);
            assert!(
                t.overload_returns(remove, boolean),
                "remove(Object) returns boolean"
            );
            assert!(!t.overload_returns(remove, string));
            assert_eq!(
                t.rules.overloads_by_expected_type(),
                picks_by_result,
                "{lang}"
            );
        }
    }

    #[test]
    fn a_scala_candidate_takes_a_call_by_its_default_values() {
        // `hint(n: Int)` and `hint(s: String, n: Int = 0)`: `hint(s)` is the second's
        let docs = |language: &str| {
            let (int, unit) = match language {
                "scala" => ("scala.Int", "scala.Unit"),
                _ => ("int", "void"),
            };
            let mut docs = java_lang();
            docs.push(class(
                "p.S",
                language,
                &[],
                vec![
                    method("hint", &[int], unit),
                    with(
                        method("hint", &["java.lang.String", int], unit),
                        json!({"other_metadata": {"defaults": [1]},
                               "parameter_names": ["s", "n"]}),
                    ),
                ],
            ));
            docs
        };
        for (language, native, takes) in
            [("scala", Some(Syntax::Scala), true), ("java", None, false)]
        {
            let mut fx = Fixture::of(docs(language), native);
            let (int, unit) = match language {
                "scala" => ("scala.Int", "scala.Unit"),
                _ => ("int", "void"),
            };
            let by_int = fx.member(&format!("{unit} p.S.hint({int})"));
            let by_default = fx.member(&format!("{unit} p.S.hint(java.lang.String, {int})"));
            let recv = fx.ty("p.S");
            let string = fx.ty("java.lang.String");
            let mut t = fx.typing(Language::Scala3);
            let f = t.formal_under(by_int, Subst::new());
            let seq = TypingSequence {
                receiver: Some(recv),
                args: vec![string],
                result: None,
            };
            let want = if takes {
                Resolution::Unique(by_default)
            } else {
                Resolution::NoneApplicable
            };
            assert_eq!(t.resolve(by_int, &f, &seq), want, "a {language} class");
        }
    }

    #[test]
    fn a_kotlin_extension_of_a_covariant_supertype_takes_any_argument() {
        // `UIntArray.plus(UInt)` and `Collection<T>.plus(T)` of the embedded kotlin-stdlib:
        // `anUIntArray.plus(aString)` is the latter with `T = Any` (kotlinc 2.4.21 accepts
        // it), so no ill-typed call; `Set`'s `minus` on a `Set<String>` with an `Integer`
        // alike. Scala (no such receivers) and a fitting argument are unchanged.
        let mut fx = Fixture::embedded(Some(Syntax::Kotlin));
        let plus = fx.member("kotlin.UIntArray kotlin.UIntArray.plus(kotlin.UInt)");
        let (uarr, string, uint) = (
            fx.ty("kotlin.UIntArray"),
            fx.ty("java.lang.String"),
            fx.ty("kotlin.UInt"),
        );
        let mut t = fx.typing(Language::Kotlin);
        let f = t.formal_under(plus, Subst::new());
        let mut resolve = |arg: TypeId| {
            let seq = TypingSequence {
                receiver: Some(uarr),
                args: vec![arg],
                result: None,
            };
            t.resolve(plus, &f, &seq)
        };
        assert_eq!(resolve(uint), Resolution::Unique(plus));
        let other = resolve(string);
        assert!(
            matches!(other, Resolution::Unique(m) if m != plus) || other == Resolution::Ambiguous,
            "{other:?}"
        );
        let kotlin = LanguageRules::new(Language::Kotlin);
        assert!(kotlin.covariant_receiver("kotlin.collections.Collection<T>"));
        assert!(kotlin.covariant_receiver("kotlin.collections.Iterable<T>"));
        assert!(!kotlin.covariant_receiver("kotlin.collections.MutableCollection<in T>"));
        assert!(!kotlin.covariant_receiver("kotlin.UIntArray"));
        assert!(!LanguageRules::new(Language::Scala3)
            .covariant_receiver("kotlin.collections.Collection<T>"));
    }

    #[test]
    fn a_kotlin_extension_is_shadowed_by_a_member_of_its_receivers_class() {
        let extension = |name: &str| {
            with(
                method(name, &[], "kotlin.Int"),
                json!({"receiver": "p.Box"}),
            )
        };
        let mut docs = java_lang();
        docs.push(class(
            "p.Box",
            "kotlin",
            &[],
            vec![method("size", &[], "kotlin.Int")],
        ));
        docs.push(with(
            class(
                "p",
                "kotlin",
                &[],
                vec![extension("size"), extension("weight")],
            ),
            json!({"is_class": false}),
        ));
        let mut fx = Fixture::of(docs, Some(Syntax::Kotlin));
        let box_ = fx.ty("p.Box");
        let ext = |fx: &Fixture, name: &str| {
            fx.api
                .member_ids()
                .find(|&m| fx.api.member(m).name == name && fx.api.member(m).receiver.is_some())
                .unwrap_or_else(|| panic!("the extension {name}"))
        };
        let (size, weight) = (ext(&fx, "size"), ext(&fx, "weight"));
        let mut t = fx.typing(Language::Kotlin);
        let mut resolve = |m: MemberId| {
            let f = t.formal_under(m, Subst::new());
            let seq = TypingSequence {
                receiver: Some(box_),
                args: Vec::new(),
                result: None,
            };
            t.resolve(m, &f, &seq)
        };
        assert_eq!(
            resolve(size),
            Resolution::Ambiguous,
            "Box.size() shadows it"
        );
        assert_eq!(resolve(weight), Resolution::Unique(weight));
    }
}
