//! Type substitutions: application, validity (Definition 3.1), subsumption (Definition 3.2)
//! and decomposition (Definition 3.3).

use std::fmt;

use smallvec::SmallVec;

use super::arena::{Type, TypeArena, TypeId, VarId, Wildcard, MAX_DERIVED_TYPE_DEPTH};
use super::syntax::{Syntax, MAX_ARRAY_DIMENSIONS};
use super::system::TypeSystem;

/// A finite map from type variables to types, kept sorted by variable id.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Subst(SmallVec<[(VarId, TypeId); 4]>);

impl fmt::Debug for Subst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(v, t)| (v, t)))
            .finish()
    }
}

impl Subst {
    /// The empty substitution.
    pub fn new() -> Self {
        Subst(SmallVec::new())
    }

    /// A substitution mapping `vars[i]` to `types[i]`.
    pub fn from_pairs(vars: &[VarId], types: &[TypeId]) -> Self {
        let mut s = Subst::new();
        for (&v, &t) in vars.iter().zip(types) {
            s.insert(v, t);
        }
        s
    }

    /// The type a variable maps to.
    pub fn get(&self, v: VarId) -> Option<TypeId> {
        self.0
            .binary_search_by_key(&v, |&(k, _)| k)
            .ok()
            .map(|i| self.0[i].1)
    }

    /// Maps `v` to `t`, replacing any previous mapping.
    pub fn insert(&mut self, v: VarId, t: TypeId) {
        match self.0.binary_search_by_key(&v, |&(k, _)| k) {
            Ok(i) => self.0[i].1 = t,
            Err(i) => self.0.insert(i, (v, t)),
        }
    }

    /// Removes the mapping of `v`.
    pub fn remove(&mut self, v: VarId) {
        if let Ok(i) = self.0.binary_search_by_key(&v, |&(k, _)| k) {
            self.0.remove(i);
        }
    }

    /// True when `v` is mapped.
    pub fn contains(&self, v: VarId) -> bool {
        self.get(v).is_some()
    }

    /// The mappings in variable order.
    pub fn iter(&self) -> impl Iterator<Item = (VarId, TypeId)> + '_ {
        self.0.iter().copied()
    }

    /// The mapped variables.
    pub fn vars(&self) -> impl Iterator<Item = VarId> + '_ {
        self.0.iter().map(|&(v, _)| v)
    }

    /// Number of mappings.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Renders the substitution as `[T ↦ java.lang.String, ...]` in a syntax.
    pub fn display(&self, arena: &TypeArena, syntax: Syntax) -> String {
        let parts: Vec<String> = self
            .iter()
            .map(|(v, t)| {
                format!(
                    "{} ↦ {}",
                    arena.var_name(v),
                    super::print_type(arena, syntax, t)
                )
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }
}

impl FromIterator<(VarId, TypeId)> for Subst {
    fn from_iter<I: IntoIterator<Item = (VarId, TypeId)>>(iter: I) -> Self {
        let mut s = Subst::new();
        for (v, t) in iter {
            s.insert(v, t);
        }
        s
    }
}

impl TypeArena {
    /// Applies a substitution to a type (`σ t`).
    ///
    /// Guard: a result deeper than [`MAX_DERIVED_TYPE_DEPTH`] or with more than
    /// [`MAX_ARRAY_DIMENSIONS`] array dimensions (only reachable by chains of substitutions
    /// on hostile input) is replaced by the top type, an over-approximation that no
    /// inhabitant path or subtype check can use, so later traversals stay bounded.
    pub fn subst(&mut self, t: TypeId, s: &Subst) -> TypeId {
        if s.is_empty() {
            return t;
        }
        let r = self.subst_rec(t, s);
        if self.depth(r) > MAX_DERIVED_TYPE_DEPTH || self.array_dims(r) > MAX_ARRAY_DIMENSIONS {
            return self.top();
        }
        r
    }

    fn subst_rec(&mut self, t: TypeId, s: &Subst) -> TypeId {
        match self.get(t).clone() {
            Type::Var(v) => s.get(v).unwrap_or(t),
            Type::Prim(_) | Type::Top | Type::Bottom | Type::Wildcard(Wildcard::Star) => t,
            Type::Class { name, args } => {
                let new: SmallVec<[TypeId; 4]> =
                    args.iter().map(|&a| self.subst_rec(a, s)).collect();
                if new[..] == args[..] {
                    t
                } else {
                    self.class(name, &new)
                }
            }
            Type::Wildcard(Wildcard::Extends(b)) => {
                let b = self.subst_rec(b, s);
                let w = match *self.get(b) {
                    Type::Wildcard(Wildcard::Extends(x)) => Wildcard::Extends(x),
                    Type::Wildcard(_) => Wildcard::Star,
                    _ => Wildcard::Extends(b),
                };
                self.wildcard(w)
            }
            Type::Wildcard(Wildcard::Super(b)) => {
                let b = self.subst_rec(b, s);
                let w = match *self.get(b) {
                    Type::Wildcard(Wildcard::Super(x)) => Wildcard::Super(x),
                    Type::Wildcard(_) => Wildcard::Star,
                    _ => Wildcard::Super(b),
                };
                self.wildcard(w)
            }
            Type::Array(e) => {
                let e = self.subst_rec(e, s);
                self.array(e)
            }
            Type::Nullable(e) => {
                let e = self.subst_rec(e, s);
                self.nullable(e)
            }
            Type::ByName(e) => {
                let e = self.subst_rec(e, s);
                self.intern(Type::ByName(e))
            }
            Type::Applied { head, args } => {
                let new: SmallVec<[TypeId; 4]> =
                    args.iter().map(|&a| self.subst_rec(a, s)).collect();
                match s.get(head).map(|h| self.get(h).clone()) {
                    None if new[..] == args[..] => t,
                    None => self.applied(head, &new),
                    Some(Type::Var(w)) => self.applied(w, &new),
                    // a type constructor (a class named without arguments) applied
                    Some(Type::Class { name, args: a }) if a.is_empty() => self.class(name, &new),
                    // anything else is ill-kinded: no inhabitant or subtype check can use it
                    Some(_) => self.top(),
                }
            }
            Type::Function {
                receiver,
                params,
                ret,
                suspend,
            } => {
                let receiver = receiver.map(|r| self.subst_rec(r, s));
                let params: SmallVec<[TypeId; 4]> =
                    params.iter().map(|&p| self.subst_rec(p, s)).collect();
                let ret = self.subst_rec(ret, s);
                self.function(receiver, &params, ret, suspend)
            }
        }
    }

    /// Applies `s` to every type in the range of `into` (composition `s ∘ into`), then adds
    /// the mappings of `s` for variables `into` does not map.
    pub fn compose(&mut self, into: &Subst, s: &Subst) -> Subst {
        let mut out: Subst = into.iter().map(|(v, t)| (v, self.subst(t, s))).collect();
        for (v, t) in s.iter() {
            if !out.contains(v) {
                out.insert(v, t);
            }
        }
        out
    }
}

/// Definition 3.2: `a` subsumes `b` when `a` maps every variable of `b` to the same type.
pub fn subsumes(a: &Subst, b: &Subst) -> bool {
    b.iter().all(|(v, t)| a.get(v) == Some(t))
}

impl TypeSystem {
    /// Definition 3.1: every variable is mapped to a type within its (substituted) bounds.
    pub fn is_valid_subst(&mut self, s: &Subst) -> bool {
        for (v, t) in s.iter() {
            if matches!(self.arena.get(t), Type::Wildcard(_)) {
                return false;
            }
            let decl = self.arena.var(v).clone();
            // a higher-kinded variable takes a type constructor: a generic class named
            // without arguments (`List` for `CC[_]`), of as many parameters as its own when
            // their number is known
            if decl.higher_kinded {
                let arity = decl.constructor_params.len();
                let ctor = matches!(self.arena.get(t), Type::Class { name, args }
                if args.is_empty() && self.class_params(*name).is_some_and(|p| {
                    !p.is_empty() && (arity == 0 || p.len() == arity)
                }));
                if !ctor {
                    return false;
                }
                continue;
            }
            if decl.not_null && matches!(self.arena.get(t), Type::Nullable(_)) {
                return false;
            }
            for b in decl.upper {
                let b = self.arena.subst(b, s);
                if !self.is_subtype(t, b) {
                    return false;
                }
            }
            if let Some(l) = decl.lower {
                let l = self.arena.subst(l, s);
                if !self.is_subtype(l, t) {
                    return false;
                }
            }
        }
        true
    }

    /// True when every class type in `t` without wildcard arguments gives its type
    /// parameters arguments within their bounds (`Enum.EnumDesc<T>` needs `T <: Enum<T>`).
    pub fn is_well_formed(&mut self, t: TypeId) -> bool {
        match self.arena.get(t).clone() {
            Type::Nullable(i) | Type::Array(i) => self.is_well_formed(i),
            Type::Class { args, .. } => {
                if !args.iter().all(|&a| self.is_well_formed(a)) {
                    return false;
                }
                if args
                    .iter()
                    .any(|&a| matches!(self.arena.get(a), Type::Wildcard(_)))
                {
                    return true;
                }
                let (_, s) = self.decompose(t);
                self.is_valid_subst(&s)
            }
            _ => true,
        }
    }

    /// Definition 3.3: splits a type instance `C<A, B>` into its type constructor `C<X, Y>`
    /// and the substitution `[X ↦ A, Y ↦ B]` (identity mappings left out); other types
    /// decompose into themselves and the empty substitution. Nullability is kept outside.
    pub fn decompose(&mut self, t: TypeId) -> (TypeId, Subst) {
        match self.arena.get(t).clone() {
            Type::Nullable(inner) => {
                let (c, s) = self.decompose(inner);
                (self.arena.nullable(c), s)
            }
            Type::Class { name, args } if !args.is_empty() => {
                let Some(params) = self.class_params(name).map(|p| p.to_vec()) else {
                    return (t, Subst::new());
                };
                if params.len() != args.len() {
                    return (t, Subst::new());
                }
                let ptys: SmallVec<[TypeId; 4]> =
                    params.iter().map(|&p| self.arena.var_type(p)).collect();
                let ctor = self.arena.class(name, &ptys);
                let s = params
                    .iter()
                    .zip(ptys.iter())
                    .zip(args.iter())
                    .filter(|((_, pt), a)| pt != a)
                    .map(|((&p, _), &a)| (p, a))
                    .collect();
                (ctor, s)
            }
            _ => (t, Subst::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Prim, MAX_ARRAY_DIMENSIONS};

    #[test]
    fn substitution_chains_stop_at_the_derived_depth_limit() {
        let mut a = TypeArena::new();
        let t = a.new_var("T", "m");
        let tv = a.var_type(t);
        let mut x = a.class_named("java.util.List", &[tv]);
        let top = a.top();
        let mut reached_top = false;
        for _ in 0..64 {
            // x := x[T ↦ x]: the depth doubles each step
            let s = Subst::from_pairs(&[t], &[x]);
            x = a.subst(x, &s);
            assert!(a.depth(x) <= MAX_DERIVED_TYPE_DEPTH);
            if x == top {
                reached_top = true;
                break;
            }
        }
        assert!(reached_top, "the chain was never cut");
    }

    #[test]
    fn a_type_constructor_substituted_for_a_higher_kinded_variable_applies_it() {
        use crate::types::{parse_type, Syntax, UnifyMode};
        let mut ts = TypeSystem::new();
        let list = ts.arena.sym("scala.collection.immutable.List");
        let a = ts.arena.new_var("A", "scala.collection.immutable.List");
        ts.declare_class(
            list,
            crate::types::ClassSig {
                params: vec![a],
                supers: Vec::new(),
            },
        );
        let cc = ts.arena.new_var("CC", "scala.collection.IterableOps");
        ts.arena.var_mut(cc).higher_kinded = true;
        let b = ts.arena.new_var("B", "scala.collection.IterableOps.map");
        let applied = parse_type(&mut ts.arena, Syntax::Scala, "CC[B]", &[cc, b]).expect("CC[B]");
        assert_eq!(
            crate::types::print_type(&ts.arena, Syntax::Scala, applied),
            "CC[B]"
        );
        // a proper variable applied to arguments is still an error
        assert!(parse_type(&mut ts.arena, Syntax::Scala, "B[B]", &[cc, b]).is_err());
        let int = ts.arena.class_named("scala.Int", &[]);
        let ctor = ts.arena.class(list, &[]);
        let list_int = ts.arena.class(list, &[int]);
        // [CC ↦ List, B ↦ Int] makes `CC[B]` the class type `List[Int]`
        let s = Subst::from_pairs(&[cc, b], &[ctor, int]);
        assert_eq!(ts.arena.subst(applied, &s), list_int);
        // a proper type for `CC` is ill-kinded: no valid substitution, and the top type
        let bad = Subst::from_pairs(&[cc, b], &[list_int, int]);
        assert!(!ts.is_valid_subst(&bad));
        assert_eq!(ts.arena.subst(applied, &bad), ts.arena.top());
        assert!(ts.is_valid_subst(&s));
        // unification finds the constructor and its argument
        let u = ts
            .unify_with(applied, list_int, &[cc, b], UnifyMode::Equal, &Subst::new())
            .expect("CC[B] unifies with List[Int]");
        assert_eq!(u.get(cc), Some(ctor));
        assert_eq!(u.get(b), Some(int));
        assert!(!ts.arena.is_ground(applied));
        assert_eq!(ts.arena.free_vars(applied), vec![cc, b]);
    }

    #[test]
    fn substitution_cannot_exceed_the_jvm_array_dimensions() {
        let mut a = TypeArena::new();
        let t = a.new_var("T", "m");
        let tv = a.var_type(t);
        let arr_t = a.array(tv);
        let mut max = a.prim(Prim::Int);
        for _ in 0..MAX_ARRAY_DIMENSIONS {
            max = a.array(max);
        }
        let over = a.subst(arr_t, &Subst::from_pairs(&[t], &[max]));
        assert_eq!(over, a.top());
        let one_less = match a.get(max) {
            Type::Array(e) => *e,
            _ => unreachable!(),
        };
        let ok = a.subst(arr_t, &Subst::from_pairs(&[t], &[one_less]));
        assert_eq!(a.array_dims(ok), MAX_ARRAY_DIMENSIONS);
    }
}
