//! The type system: the arena plus the class hierarchy, with subtyping over ids.

use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

use super::arena::{Prim, Sym, Type, TypeArena, TypeId, VarId, Variance, Wildcard};
use super::subst::Subst;

/// What subtyping needs to know about a class: its type parameters and declared supertypes.
#[derive(Clone, Debug, Default)]
pub struct ClassSig {
    /// Formal type parameters, in order.
    pub params: Vec<VarId>,
    /// Declared direct supertypes (may mention the parameters).
    pub supers: Vec<TypeId>,
}

/// Names that every reference type is a subtype of.
const ROOT_CLASSES: [&str; 4] = [
    "java.lang.Object",
    "kotlin.Any",
    "scala.Any",
    "scala.AnyRef",
];
/// Names that are subtypes of every type.
const BOTTOM_CLASSES: [&str; 2] = ["kotlin.Nothing", "scala.Nothing"];
/// Supertypes of every Java array.
const ARRAY_SUPERS: [&str; 3] = [
    "java.lang.Object",
    "java.lang.Cloneable",
    "java.io.Serializable",
];

/// Recursion limit of subtype checks (guards against expansive inheritance).
const MAX_DEPTH: u32 = 48;

/// Most supertypes a search through the hierarchy visits (`as_super`, `all_supertypes`).
pub const MAX_SUPERTYPES: usize = 512;

/// Types, the class hierarchy and memo tables for subtyping.
#[derive(Clone, Debug)]
pub struct TypeSystem {
    /// The type arena.
    pub arena: TypeArena,
    classes: FxHashMap<Sym, ClassSig>,
    /// Scala's universal traits (traits that extend `Any`, not `AnyRef`).
    universal: FxHashSet<Sym>,
    roots: SmallVec<[Sym; 4]>,
    bottoms: SmallVec<[Sym; 2]>,
    array_supers: SmallVec<[Sym; 3]>,
    subtype_memo: FxHashMap<(TypeId, TypeId), bool>,
    super_memo: FxHashMap<(TypeId, Sym), Option<TypeId>>,
    depth: u32,
    hit_limit: bool,
}

impl Default for TypeSystem {
    fn default() -> Self {
        Self::new()
    }
}

impl TypeSystem {
    /// An empty type system.
    pub fn new() -> Self {
        let mut arena = TypeArena::new();
        let roots = ROOT_CLASSES.iter().map(|n| arena.sym(n)).collect();
        let bottoms = BOTTOM_CLASSES.iter().map(|n| arena.sym(n)).collect();
        let array_supers = ARRAY_SUPERS.iter().map(|n| arena.sym(n)).collect();
        TypeSystem {
            arena,
            classes: FxHashMap::default(),
            universal: FxHashSet::default(),
            roots,
            bottoms,
            array_supers,
            subtype_memo: FxHashMap::default(),
            super_memo: FxHashMap::default(),
            depth: 0,
            hit_limit: false,
        }
    }

    /// Declares (or replaces) a class's signature; clears memo tables.
    pub fn declare_class(&mut self, name: Sym, sig: ClassSig) {
        self.classes.insert(name, sig);
        self.subtype_memo.clear();
        self.super_memo.clear();
    }

    /// Declares a Scala universal trait (one that extends `Any`, not `AnyRef`, as `Product`
    /// and `Equals`): its values are no `java.lang.Object`s; clears memo tables.
    pub fn declare_universal(&mut self, name: Sym) {
        self.universal.insert(name);
        self.subtype_memo.clear();
        self.super_memo.clear();
    }

    /// True for a declared Scala universal trait ([`TypeSystem::declare_universal`]).
    pub fn is_universal(&self, name: Sym) -> bool {
        self.universal.contains(&name)
    }

    /// The signature of a declared class.
    pub fn class_sig(&self, name: Sym) -> Option<&ClassSig> {
        self.classes.get(&name)
    }

    /// The type parameters of a declared class.
    pub fn class_params(&self, name: Sym) -> Option<&[VarId]> {
        self.classes.get(&name).map(|c| c.params.as_slice())
    }

    /// True when the class is declared.
    pub fn has_class(&self, name: Sym) -> bool {
        self.classes.contains_key(&name)
    }

    /// The generic self type `C<T1..Tn>` of a declared class.
    pub fn self_type(&mut self, name: Sym) -> TypeId {
        let params: SmallVec<[TypeId; 4]> = self
            .class_params(name)
            .unwrap_or(&[])
            .to_vec()
            .into_iter()
            .map(|p| self.arena.var_type(p))
            .collect();
        self.arena.class(name, &params)
    }

    /// True for the universal root classes (`java.lang.Object`, `kotlin.Any`, ...).
    pub fn is_root_class(&self, name: Sym) -> bool {
        self.roots.contains(&name)
    }

    /// True for the top type or a root class.
    pub fn is_top_like(&self, t: TypeId) -> bool {
        match self.arena.get(t) {
            Type::Top => true,
            Type::Class { name, .. } => self.is_root_class(*name),
            _ => false,
        }
    }

    /// True for the bottom type or a bottom class (`Nothing`).
    pub fn is_bottom_like(&self, t: TypeId) -> bool {
        match self.arena.get(t) {
            Type::Bottom => true,
            Type::Class { name, .. } => self.bottoms.contains(name),
            _ => false,
        }
    }

    /// True for types whose values are references (everything but primitives, by-name
    /// types and wildcards).
    pub fn is_reference(&self, t: TypeId) -> bool {
        !matches!(
            self.arena.get(t),
            Type::Prim(_) | Type::ByName(_) | Type::Wildcard(_)
        )
    }

    /// The direct supertypes of a type, with the class's parameters substituted.
    pub fn direct_supertypes(&mut self, t: TypeId) -> SmallVec<[TypeId; 4]> {
        match self.arena.get(t).clone() {
            Type::Class { name, args } => {
                let Some(sig) = self.classes.get(&name) else {
                    return SmallVec::new();
                };
                let params = sig.params.clone();
                let supers = sig.supers.clone();
                if args.len() == params.len() {
                    let s = Subst::from_pairs(&params, &args);
                    if !args
                        .iter()
                        .any(|&a| matches!(self.arena.get(a), Type::Wildcard(_)))
                    {
                        return supers.iter().map(|&u| self.arena.subst(u, &s)).collect();
                    }
                    supers.iter().map(|&u| self.subst_captured(u, &s)).collect()
                } else {
                    // raw type: the supertypes are raw too
                    supers.iter().map(|&u| self.erase(u)).collect()
                }
            }
            Type::Var(v) => self.arena.var(v).upper.iter().copied().collect(),
            Type::Nullable(inner) => {
                let sups = self.direct_supertypes(inner);
                sups.into_iter().map(|u| self.arena.nullable(u)).collect()
            }
            Type::Array(_) => {
                let names = self.array_supers.clone();
                names.iter().map(|&n| self.arena.class(n, &[])).collect()
            }
            _ => SmallVec::new(),
        }
    }

    /// Substitutes wildcard arguments into a supertype the way capture conversion allows: a
    /// parameter standing directly as a type argument takes the wildcard; a type argument
    /// that mentions a wildcard-mapped parameter deeper inside becomes `? extends` of it
    /// (`Node<?>` is a `Cmp<? extends Node<?>>`, not a `Cmp<Node<?>>`).
    fn subst_captured(&mut self, u: TypeId, s: &Subst) -> TypeId {
        let Type::Class { name, args } = self.arena.get(u).clone() else {
            return self.arena.subst(u, s);
        };
        let wild_vars: SmallVec<[VarId; 4]> = s
            .iter()
            .filter(|&(_, t)| matches!(self.arena.get(t), Type::Wildcard(_)))
            .map(|(v, _)| v)
            .collect();
        let new_args: SmallVec<[TypeId; 4]> = args
            .iter()
            .map(|&a| {
                let direct = matches!(self.arena.get(a), Type::Var(v) if wild_vars.contains(v));
                let nested = !direct
                    && !matches!(self.arena.get(a), Type::Wildcard(_))
                    && self
                        .arena
                        .free_vars(a)
                        .iter()
                        .any(|v| wild_vars.contains(v));
                let t = self.arena.subst(a, s);
                if nested {
                    self.arena.wildcard(Wildcard::Extends(t))
                } else {
                    t
                }
            })
            .collect();
        self.arena.class(name, &new_args)
    }

    /// The raw form of a type: class types lose their arguments; a type variable erases to
    /// the erasure of its first bound (the root class when it has none or it mentions the
    /// variable).
    ///
    /// Iterative: the chain of array, nullable and bound steps is bounded by the number of
    /// variables plus the type's depth, so even a cyclic bound ends (at the root class).
    pub fn erase(&mut self, t: TypeId) -> TypeId {
        // true: array, false: nullable
        let mut wrappers: SmallVec<[bool; 4]> = SmallVec::new();
        let mut cur = t;
        let limit = self.arena.var_count() + self.arena.depth(t) + 1;
        let mut base = None;
        for _ in 0..=limit {
            match self.arena.get(cur).clone() {
                Type::Class { name, .. } => {
                    base = Some(self.arena.class(name, &[]));
                    break;
                }
                Type::Array(e) => {
                    wrappers.push(true);
                    cur = e;
                }
                Type::Nullable(e) => {
                    wrappers.push(false);
                    cur = e;
                }
                Type::Var(v) => match self.arena.var(v).upper.first() {
                    Some(&b) if !self.arena.free_vars(b).contains(&v) => cur = b,
                    _ => break,
                },
                _ => {
                    base = Some(cur);
                    break;
                }
            }
        }
        let mut out = match base {
            Some(b) => b,
            None => {
                let o = self.roots[0];
                self.arena.class(o, &[])
            }
        };
        for &array in wrappers.iter().rev() {
            out = if array {
                self.arena.array(out)
            } else {
                self.arena.nullable(out)
            };
        }
        out
    }

    /// The instantiation of class `target` that `t` inherits, e.g. `ArrayList<String>` as
    /// `Collection` is `Collection<String>`.
    pub fn as_super(&mut self, t: TypeId, target: Sym) -> Option<TypeId> {
        if let Some(&r) = self.super_memo.get(&(t, target)) {
            return r;
        }
        let mut seen: rustc_hash::FxHashSet<TypeId> = rustc_hash::FxHashSet::default();
        let mut queue: std::collections::VecDeque<TypeId> = std::collections::VecDeque::new();
        queue.push_back(t);
        let mut found = None;
        while let Some(u) = queue.pop_front() {
            if seen.len() > MAX_SUPERTYPES {
                break;
            }
            if !seen.insert(u) {
                continue;
            }
            if let Type::Class { name, .. } = self.arena.get(u) {
                if *name == target {
                    found = Some(u);
                    break;
                }
            }
            if !matches!(self.arena.get(u), Type::Var(_) | Type::Class { .. }) {
                continue;
            }
            for s in self.direct_supertypes(u) {
                queue.push_back(s);
            }
        }
        self.super_memo.insert((t, target), found);
        found
    }

    /// All supertypes of a type (itself included), breadth first, without duplicates.
    pub fn all_supertypes(&mut self, t: TypeId) -> Vec<TypeId> {
        let mut out = vec![t];
        let mut seen: rustc_hash::FxHashSet<TypeId> = [t].into_iter().collect();
        let mut i = 0;
        while i < out.len() && out.len() < MAX_SUPERTYPES {
            let u = out[i];
            i += 1;
            for s in self.direct_supertypes(u) {
                if seen.insert(s) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// `s <: t`: nominal subtyping through declared supertypes with substitution,
    /// declaration-site and use-site variance, wildcards, arrays, nullability, function
    /// types and primitive widening.
    pub fn is_subtype(&mut self, s: TypeId, t: TypeId) -> bool {
        if s == t {
            return true;
        }
        if let Some(&r) = self.subtype_memo.get(&(s, t)) {
            return r;
        }
        if self.depth >= MAX_DEPTH {
            self.hit_limit = true;
            return false;
        }
        self.depth += 1;
        let outer = self.depth == 1;
        if outer {
            self.hit_limit = false;
        }
        let r = self.subtype_uncached(s, t);
        self.depth -= 1;
        if !self.hit_limit {
            self.subtype_memo.insert((s, t), r);
        }
        r
    }

    /// True for Scala's `Any`, its value classes (`scala.Int`, a subclass of `scala.AnyVal`)
    /// and its universal traits, which are not `java.lang.Object`s in Scala.
    fn is_scala_value(&mut self, s: TypeId) -> bool {
        let Type::Class { name, .. } = *self.arena.get(s) else {
            return false;
        };
        if name == self.roots[2] || self.universal.contains(&name) {
            return true;
        }
        let any_val = self.arena.sym("scala.AnyVal");
        name == any_val || self.as_super(s, any_val).is_some()
    }

    /// `s` and `t` are subtypes of each other.
    pub fn is_equivalent(&mut self, s: TypeId, t: TypeId) -> bool {
        s == t || (self.is_subtype(s, t) && self.is_subtype(t, s))
    }

    fn subtype_uncached(&mut self, s: TypeId, t: TypeId) -> bool {
        let st = self.arena.get(s).clone();
        let tt = self.arena.get(t).clone();
        if matches!(tt, Type::Top) || self.is_bottom_like(s) {
            return true;
        }
        match (&st, &tt) {
            (Type::Prim(a), Type::Prim(b)) => return prim_widens(*a, *b),
            (Type::Prim(_), _) | (_, Type::Prim(_)) => return false,
            (Type::Wildcard(w), _) => {
                // a wildcard on the left stands for its upper bound (capture approximation)
                return match w {
                    Wildcard::Extends(b) => self.is_subtype(*b, t),
                    _ => self.is_top_like(t),
                };
            }
            (Type::ByName(a), Type::ByName(b)) => return self.is_subtype(*a, *b),
            (Type::ByName(a), _) => return self.is_subtype(*a, t),
            (_, Type::ByName(b)) => return self.is_subtype(s, *b),
            (Type::Nullable(a), Type::Nullable(b)) => return self.is_subtype(*a, *b),
            (_, Type::Nullable(b)) => return self.is_subtype(s, *b),
            (Type::Nullable(a), Type::Class { name, .. }) => {
                // Java's Object is seen as a platform type that admits null
                return *name == self.roots[0] && self.is_reference(*a);
            }
            (Type::Nullable(_), _) => return false,
            _ => {}
        }
        if let Type::Class { name, .. } = &tt {
            if self.is_root_class(*name) && self.is_reference(s) {
                // Scala's `Any` and its value classes (`AnyVal`) are no `AnyRef` (`Object`)
                let any_ref = *name == self.roots[0] || *name == self.roots[3];
                return !(any_ref && self.is_scala_value(s));
            }
        }
        match (&st, &tt) {
            (_, Type::Var(tv)) => {
                // a rigid variable: only itself, bottom, or below its lower bound
                match self.arena.var(*tv).lower {
                    Some(l) => self.is_subtype(s, l),
                    None => false,
                }
            }
            (Type::Var(sv), _) => {
                let bounds = self.arena.var(*sv).upper.clone();
                bounds.into_iter().any(|b| self.is_subtype(b, t))
            }
            (Type::Array(a), Type::Array(b)) => {
                if self.arena.is_primitive(*a) || self.arena.is_primitive(*b) {
                    a == b
                } else {
                    self.is_subtype(*a, *b)
                }
            }
            (Type::Array(_), Type::Class { name, args }) => {
                args.is_empty() && self.array_supers.contains(name)
            }
            (
                Type::Class { .. },
                Type::Class {
                    name: tn,
                    args: targs,
                },
            ) => {
                let Some(sup) = self.as_super(s, *tn) else {
                    return false;
                };
                let sargs: SmallVec<[TypeId; 4]> = match self.arena.get(sup) {
                    Type::Class { args, .. } => args.iter().copied().collect(),
                    _ => return false,
                };
                if targs.is_empty() {
                    return true; // raw target: unchecked but allowed
                }
                if sargs.len() != targs.len() {
                    return false; // raw source is not a parameterized type
                }
                let params = self
                    .class_params(*tn)
                    .map(|p| p.to_vec())
                    .unwrap_or_default();
                for (i, (&sa, &ta)) in sargs.iter().zip(targs.iter()).enumerate() {
                    let variance = params
                        .get(i)
                        .map(|&p| self.arena.var(p).variance)
                        .unwrap_or_default();
                    if !self.arg_ok(sa, ta, variance) {
                        return false;
                    }
                }
                true
            }
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
                    if !self.is_subtype(*b, *a) {
                        return false;
                    }
                }
                for (&a, &b) in p1.iter().zip(p2.iter()) {
                    if !self.is_subtype(b, a) {
                        return false;
                    }
                }
                self.is_subtype(*t1, *t2)
            }
            // a class below a function type (Scala's `FromJavaLongPredicate extends
            // Long => Boolean`): through its supertypes that are function types
            (Type::Class { .. }, Type::Function { .. }) => {
                let fns: Vec<TypeId> = self
                    .all_supertypes(s)
                    .into_iter()
                    .filter(|&u| matches!(self.arena.get(u), Type::Function { .. }))
                    .collect();
                fns.into_iter().any(|u| self.is_subtype(u, t))
            }
            _ => false,
        }
    }

    /// The upper bound a type argument stands for (`? extends X` → X, `?` → top).
    fn arg_upper(&mut self, a: TypeId) -> Option<TypeId> {
        match *self.arena.get(a) {
            Type::Wildcard(Wildcard::Extends(b)) => Some(b),
            Type::Wildcard(_) => Some(self.arena.top()),
            _ => Some(a),
        }
    }

    /// The lower bound a type argument stands for (`? super X` → X, plain X → X).
    fn arg_lower(&self, a: TypeId) -> Option<TypeId> {
        match *self.arena.get(a) {
            Type::Wildcard(Wildcard::Super(b)) => Some(b),
            Type::Wildcard(_) => None,
            _ => Some(a),
        }
    }

    /// Whether argument `sa` of the source fits argument `ta` of the target.
    fn arg_ok(&mut self, sa: TypeId, ta: TypeId, variance: Variance) -> bool {
        match *self.arena.get(ta) {
            Type::Wildcard(Wildcard::Star) => true,
            // a projection against the declared variance (`in` on an `out` parameter) only
            // leaves the bound of the parameter: it accepts any argument
            Type::Wildcard(Wildcard::Super(_)) if variance == Variance::Covariant => true,
            Type::Wildcard(Wildcard::Extends(_)) if variance == Variance::Contravariant => true,
            Type::Wildcard(Wildcard::Extends(u)) => match self.arg_upper(sa) {
                Some(x) => self.is_subtype(x, u),
                None => false,
            },
            Type::Wildcard(Wildcard::Super(l)) => match self.arg_lower(sa) {
                Some(x) => self.is_subtype(l, x),
                None => false,
            },
            _ => match variance {
                Variance::Covariant => match self.arg_upper(sa) {
                    Some(x) => self.is_subtype(x, ta),
                    None => false,
                },
                Variance::Contravariant => match self.arg_lower(sa) {
                    Some(x) => self.is_subtype(ta, x),
                    None => false,
                },
                Variance::Invariant => {
                    !matches!(self.arena.get(sa), Type::Wildcard(_)) && self.is_equivalent(sa, ta)
                }
            },
        }
    }
}

/// Java's primitive widening as subtyping (JLS 4.10.1).
fn prim_widens(a: Prim, b: Prim) -> bool {
    use Prim::*;
    if a == b {
        return true;
    }
    matches!(
        (a, b),
        (Byte, Short | Int | Long | Float | Double)
            | (Short, Int | Long | Float | Double)
            | (Char, Int | Long | Float | Double)
            | (Int, Long | Float | Double)
            | (Long, Float | Double)
            | (Float, Double)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{parse_type, Syntax};

    #[test]
    fn a_class_that_extends_a_function_type_is_below_it() {
        let mut ts = TypeSystem::new();
        // `class Pred extends (Long => Boolean)`, as the Scala view writes it
        let pred = ts.arena.sym("p.Pred");
        let f = parse_type(
            &mut ts.arena,
            Syntax::Scala,
            "(scala.Long) => scala.Boolean",
            &[],
        )
        .expect("a function type");
        ts.declare_class(
            pred,
            ClassSig {
                params: Vec::new(),
                supers: vec![f],
            },
        );
        let p = ts.arena.class(pred, &[]);
        assert!(ts.is_subtype(p, f));
        // a function type of other parameters is not above it
        let g = parse_type(
            &mut ts.arena,
            Syntax::Scala,
            "(scala.Int) => scala.Boolean",
            &[],
        )
        .expect("a function type");
        assert!(!ts.is_subtype(p, g));
        // nor is the function type below the class
        assert!(!ts.is_subtype(f, p));
    }
}
