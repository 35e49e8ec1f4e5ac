//! Unification: find a substitution of chosen variables making one type equal to, or a
//! subtype of, another.

use smallvec::SmallVec;

use super::arena::{Type, TypeId, VarId, Wildcard};
use super::subst::Subst;
use super::system::TypeSystem;

/// What unification must establish between `σ(pattern)` and the target.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnifyMode {
    /// `σ(pattern) == target`.
    Equal,
    /// `σ(pattern) <: target`.
    Subtype,
}

impl TypeSystem {
    /// Finds `σ` over `vars` (extending `seed`) such that `σ(pattern)` equals, or is a subtype
    /// of, `target`. Variables not in `vars` are rigid. Variables that the target does not
    /// constrain stay unmapped.
    pub fn unify_with(
        &mut self,
        pattern: TypeId,
        target: TypeId,
        vars: &[VarId],
        mode: UnifyMode,
        seed: &Subst,
    ) -> Option<Subst> {
        let mut s = seed.clone();
        if !self.match_into(pattern, target, vars, mode, &mut s) {
            return None;
        }
        let applied = self.arena.subst(pattern, &s);
        if self.arena.is_ground(applied) || vars.iter().all(|v| s.contains(*v)) {
            let ok = match mode {
                UnifyMode::Equal => applied == target || self.is_equivalent(applied, target),
                UnifyMode::Subtype => self.is_subtype(applied, target),
            };
            if !ok {
                return None;
            }
        }
        Some(s)
    }

    /// `unify(t1, t2)` of the paper: a substitution of the variables of `pattern` such that
    /// `σ(pattern) <: target`.
    pub fn unify(&mut self, pattern: TypeId, target: TypeId) -> Option<Subst> {
        let vars = self.arena.free_vars(pattern);
        self.unify_with(pattern, target, &vars, UnifyMode::Subtype, &Subst::new())
    }

    fn bind(&mut self, v: VarId, t: TypeId, mode: UnifyMode, s: &mut Subst) -> bool {
        // type variables range over reference types (Java primitives are not arguments)
        if matches!(self.arena.get(t), Type::Prim(_)) {
            return false;
        }
        match s.get(v) {
            None => {
                s.insert(v, t);
                true
            }
            Some(prev) if prev == t => true,
            Some(prev) => match mode {
                UnifyMode::Equal => self.is_equivalent(prev, t),
                UnifyMode::Subtype => self.is_subtype(prev, t),
            },
        }
    }

    fn match_into(
        &mut self,
        p: TypeId,
        t: TypeId,
        vars: &[VarId],
        mode: UnifyMode,
        s: &mut Subst,
    ) -> bool {
        let pt = self.arena.get(p).clone();
        if let Type::Var(v) = pt {
            if vars.contains(&v) {
                if matches!(self.arena.get(t), Type::Wildcard(_)) {
                    return false;
                }
                return self.bind(v, t, mode, s);
            }
        }
        if p == t && self.arena.is_ground(p) {
            return true;
        }
        let tt = self.arena.get(t).clone();
        if mode == UnifyMode::Subtype && self.is_top_like(t) && self.is_reference(p) {
            return true;
        }
        match (&pt, &tt) {
            (Type::Var(_), _) => {
                // rigid variable
                match mode {
                    UnifyMode::Equal => p == t,
                    UnifyMode::Subtype => self.is_subtype(p, t),
                }
            }
            (Type::Nullable(a), Type::Nullable(b)) => self.match_into(*a, *b, vars, mode, s),
            (_, Type::Nullable(b)) if mode == UnifyMode::Subtype => {
                self.match_into(p, *b, vars, mode, s)
            }
            (Type::Array(a), Type::Array(b)) => {
                let m = if mode == UnifyMode::Subtype && !self.arena.is_primitive(*b) {
                    UnifyMode::Subtype
                } else {
                    UnifyMode::Equal
                };
                self.match_into(*a, *b, vars, m, s)
            }
            (Type::ByName(a), Type::ByName(b)) => self.match_into(*a, *b, vars, mode, s),
            (Type::Applied { head, args }, _) => {
                if s.contains(*head) {
                    // the constructor is chosen: match the class type it makes
                    let applied = self.arena.subst(p, s);
                    if matches!(self.arena.get(applied), Type::Applied { .. }) {
                        return applied == t;
                    }
                    return self.match_into(applied, t, vars, mode, s);
                }
                match &tt {
                    // `CC[B]` against `List[Int]`: `CC ↦ List`, then `List[B]` against it
                    Type::Class { name, args: targs }
                        if vars.contains(head) && targs.len() == args.len() =>
                    {
                        let ctor = self.arena.class(*name, &[]);
                        s.insert(*head, ctor);
                        let lifted = self.arena.class(*name, args);
                        self.match_into(lifted, t, vars, mode, s)
                    }
                    Type::Applied {
                        head: th,
                        args: targs,
                    } if th == head && targs.len() == args.len() => {
                        let pairs: SmallVec<[(TypeId, TypeId); 4]> =
                            args.iter().copied().zip(targs.iter().copied()).collect();
                        pairs
                            .into_iter()
                            .all(|(a, b)| self.match_into(a, b, vars, UnifyMode::Equal, s))
                    }
                    _ => false,
                }
            }
            (Type::Wildcard(wp), Type::Wildcard(wt)) => match (wp, wt) {
                (Wildcard::Star, Wildcard::Star) => true,
                (Wildcard::Extends(a), Wildcard::Extends(b)) => {
                    self.match_into(*a, *b, vars, mode, s)
                }
                (Wildcard::Super(a), Wildcard::Super(b)) => self.match_into(*a, *b, vars, mode, s),
                _ => false,
            },
            (
                Type::Function {
                    receiver: r1,
                    params: p1,
                    ret: t1,
                    suspend: s1,
                },
                Type::Function {
                    receiver: r2,
                    params: p2,
                    ret: t2,
                    suspend: s2,
                },
            ) => {
                if s1 != s2 || p1.len() != p2.len() || r1.is_some() != r2.is_some() {
                    return false;
                }
                if let (Some(a), Some(b)) = (r1, r2) {
                    if !self.match_into(*a, *b, vars, UnifyMode::Equal, s) {
                        return false;
                    }
                }
                for (&a, &b) in p1.iter().zip(p2.iter()) {
                    if !self.match_into(a, b, vars, UnifyMode::Equal, s) {
                        return false;
                    }
                }
                self.match_into(*t1, *t2, vars, mode, s)
            }
            (
                Type::Class { name: pn, .. },
                Type::Class {
                    name: tn,
                    args: targs,
                },
            ) => {
                let lifted = if pn == tn {
                    p
                } else if mode == UnifyMode::Subtype {
                    match self.as_super(p, *tn) {
                        Some(l) => l,
                        None => return false,
                    }
                } else {
                    return false;
                };
                let pargs: SmallVec<[TypeId; 4]> = match self.arena.get(lifted) {
                    Type::Class { args, .. } => args.iter().copied().collect(),
                    _ => return false,
                };
                if targs.is_empty() && mode == UnifyMode::Subtype {
                    return true;
                }
                if pargs.len() != targs.len() {
                    return false;
                }
                let params = self
                    .class_params(*tn)
                    .map(|p| p.to_vec())
                    .unwrap_or_default();
                for (i, (&pa, &ta)) in pargs.iter().zip(targs.iter()).enumerate() {
                    let covariant = params
                        .get(i)
                        .is_some_and(|&v| self.arena.var(v).variance == super::Variance::Covariant);
                    let ok = if mode == UnifyMode::Equal {
                        self.match_into(pa, ta, vars, UnifyMode::Equal, s)
                    } else {
                        self.match_arg(pa, ta, vars, covariant, s)
                    };
                    if !ok {
                        return false;
                    }
                }
                true
            }
            _ => match mode {
                UnifyMode::Equal => p == t,
                UnifyMode::Subtype => self.arena.is_ground(p) && self.is_subtype(p, t),
            },
        }
    }

    /// Matches a type argument of the (lifted) pattern against a target type argument.
    fn match_arg(
        &mut self,
        pa: TypeId,
        ta: TypeId,
        vars: &[VarId],
        covariant: bool,
        s: &mut Subst,
    ) -> bool {
        match *self.arena.get(ta) {
            Type::Wildcard(Wildcard::Star) => true,
            Type::Wildcard(Wildcard::Extends(u)) => {
                let inner = match *self.arena.get(pa) {
                    Type::Wildcard(Wildcard::Extends(x)) => x,
                    Type::Wildcard(_) => return self.is_top_like(u),
                    _ => pa,
                };
                self.match_into(inner, u, vars, UnifyMode::Subtype, s)
            }
            Type::Wildcard(Wildcard::Super(l)) => {
                let inner = match *self.arena.get(pa) {
                    Type::Wildcard(Wildcard::Super(x)) => x,
                    Type::Wildcard(_) => return false,
                    _ => pa,
                };
                // need l <: σ(inner)
                if let Type::Var(v) = *self.arena.get(inner) {
                    if vars.contains(&v) {
                        return match s.get(v) {
                            Some(b) => self.is_subtype(l, b),
                            None => {
                                s.insert(v, l);
                                true
                            }
                        };
                    }
                }
                let applied = self.arena.subst(inner, s);
                if self.arena.is_ground(applied)
                    || !self
                        .arena
                        .free_vars(applied)
                        .iter()
                        .any(|v| vars.contains(v))
                {
                    self.is_subtype(l, applied)
                } else {
                    self.match_into(inner, l, vars, UnifyMode::Equal, s)
                }
            }
            _ => {
                if matches!(self.arena.get(pa), Type::Wildcard(_)) {
                    return false;
                }
                let m = if covariant {
                    UnifyMode::Subtype
                } else {
                    UnifyMode::Equal
                };
                self.match_into(pa, ta, vars, m, s)
            }
        }
    }
}
