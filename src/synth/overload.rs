//! Java overload resolution (JLS 15.12.2) as the oracle uses it: which member a call of a
//! name with given receiver and argument types selects (phases 1-3: strict, loose, variable
//! arity; then the most specific method), and the conversions it rests on (subtyping,
//! unchecked conversion, boxing and unboxing). Where the target language converts more
//! than Java, [`super::rules::LanguageRules`] says so.

use super::enumerate::{Formal, TypingSequence};
use super::worker::Worker;
use crate::api::{ClassId, MemberId, MemberKind, ResolvedMember};
use crate::types::{Prim, Subst, Type, TypeId, UnifyMode, VarId};

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

impl Worker<'_> {
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
    fn convertible(&mut self, from: TypeId, to: TypeId, loose: bool) -> bool {
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
            (Type::Prim(p), _) => match self.ctx.box_of(p) {
                // a box class the API does not describe: its supertypes are unknown, so
                // assume the conversion may succeed
                Some(b) if self.api.class_by_sym(b).is_none() => true,
                Some(b) => {
                    let boxed = self.api.ts.arena.class(b, &[]);
                    self.api.ts.is_subtype(boxed, to)
                }
                None => false,
            },
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
                o == owner || super::rules::kotlin_default_import(&self.api.class(o).name)
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
        Resolution::NoneApplicable
    }

    /// True when a Scala candidate of `n_params` parameters takes a call of `n_args`
    /// arguments by its default values for the others (`sizeHint(coll, delta = 0)` takes
    /// `sizeHint(xs)`). Kotlin's calls that leave defaults out are modelled apart
    /// (`Worker::rival_takes`).
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
}

/// `java.lang.Object` in the worker's arena.
fn v_any(w: &mut Worker<'_>) -> TypeId {
    let o = w.ctx.object_sym;
    w.api.ts.arena.class(o, &[])
}
