//! The implicit arguments scalac finds by itself (issue #15): a Scala program may leave a
//! call's implicit (`using`) list out, so that scalac's implicit search supplies it, where
//! the search is certain to succeed for reasons that do not depend on what is imported:
//!
//! - instances the compiler synthesizes: `ClassTag[X]` for a type that is no type variable,
//!   `X <:< Y` and a function `X => Y` (`Predef.$conforms`) where `X` is a subtype of `Y`,
//!   `X =:= X`, `DummyImplicit`;
//! - the standard library's instances in the type class's companion object, which is in
//!   every search's implicit scope: `Ordering` of the numeric types, `String`, `Boolean`,
//!   `Unit` and of `Option`s and tuples of such; `Numeric`, `Integral` and `Fractional` of
//!   the numeric types.
//!
//! - the API's own instances: an implicit `val` or parameterless `def` of a class's
//!   companion object (`object Invariant { implicit def catsInstancesForList: Monad[List] &
//!   Alternative[List] & … }`), found for a wanted type `TC[A]` when the companion is in its
//!   implicit scope (the companion of `TC` or of one of its supertypes, of `A`'s class or of
//!   one of its supertypes), one of the instance's types is a subtype of `TC[A]`, it is the
//!   only such instance there, and no implicit method there returns `TC` or a subclass of it
//!   (a generic or conditional instance, which could make the search ambiguous)
//!   ([`ImplicitIndex`]).
//!
//! Anything else (an `ExecutionContext`, a type class instance an import provides, a type
//! variable's `ClassTag`) is supplied as an argument, as before.

use rand::Rng;
use rustc_hash::FxHashSet;

use super::worker::Worker;
use crate::api::{Api, MemberId, MemberKind};
use crate::types::{Subst, Sym, Syntax, Type, TypeId};

/// The implicit instances and implicit methods of a Scala API's companion objects.
#[derive(Clone, Debug, Default)]
pub struct ImplicitIndex {
    /// Each implicit `val` or parameterless `def` of a companion: its owner class and the
    /// parts of its type (an intersection `A & B` gives both).
    instances: Vec<(Sym, Vec<TypeId>)>,
    /// Each implicit method of a companion with type or implicit parameters (a generic or
    /// conditional instance): its owner class and the class its result is an instance of.
    producers: Vec<(Sym, Sym)>,
}

impl ImplicitIndex {
    /// Reads the API's Scala companions (static members): fields and methods marked
    /// `implicit`; an instance's type is read from its document (the loader leaves out a
    /// member whose type is an intersection).
    pub fn of(api: &mut Api) -> ImplicitIndex {
        let mut out = ImplicitIndex::default();
        let classes: Vec<crate::api::ClassId> = api
            .class_ids()
            .filter(|&c| api.class(c).syntax == Syntax::Scala)
            .collect();
        for c in classes {
            let (sym, doc) = {
                let cl = api.class(c);
                (cl.sym, cl.doc.clone())
            };
            for f in doc.fields() {
                if f.scala.implicit != Some(true) || f.is_static != Some(true) {
                    continue;
                }
                let parts: Option<Vec<TypeId>> = split_intersection(&f.ty)
                    .into_iter()
                    .map(|t| {
                        let t = crate::types::parse_type(&mut api.ts.arena, Syntax::Scala, t, &[])
                            .ok()?;
                        Some(crate::types::scala_view::to_jvm(&mut api.ts.arena, t, true))
                    })
                    .collect();
                if let Some(parts) = parts {
                    out.instances.push((sym, parts));
                }
            }
        }
        for m in api.member_ids() {
            let mem = api.member(m);
            let cl = api.class(mem.owner);
            if cl.syntax != Syntax::Scala || !mem.is_static || mem.kind != MemberKind::Method {
                continue;
            }
            let marked = cl
                .doc
                .methods()
                .get(mem.doc_index)
                .is_some_and(|d| d.scala.implicit == Some(true));
            if !marked {
                continue;
            }
            let ret = api.ts.arena.as_class(mem.ret).map(|(s, _)| s);
            match ret {
                // a parameterless one is an instance (a method only where the view says so)
                Some(_) if mem.params.is_empty() && mem.type_params.is_empty() => {
                    out.instances.push((cl.sym, vec![mem.ret]));
                }
                Some(r) => out.producers.push((cl.sym, r)),
                None => {}
            }
        }
        out
    }
}

/// The parts of an intersection type's text (`A & B[C & D]` gives `A` and `B[C & D]`): split
/// at each `&` outside brackets and parentheses.
fn split_intersection(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, ch) in text.char_indices() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '&' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// The numeric types of the standard library with `Numeric` instances (and `Ordering`).
const NUMERIC: [&str; 9] = [
    "scala.Int",
    "scala.Long",
    "scala.Short",
    "scala.Byte",
    "scala.Char",
    "scala.Double",
    "scala.Float",
    "scala.math.BigInt",
    "scala.math.BigDecimal",
];

/// The types with `Integral` instances.
const INTEGRAL: [&str; 6] = [
    "scala.Int",
    "scala.Long",
    "scala.Short",
    "scala.Byte",
    "scala.Char",
    "scala.math.BigInt",
];

/// The types with `Fractional` instances.
const FRACTIONAL: [&str; 3] = ["scala.Double", "scala.Float", "scala.math.BigDecimal"];

/// The other types with `Ordering` instances in its companion.
const ORDERED: [&str; 4] = [
    "java.lang.String",
    "scala.Boolean",
    "scala.Unit",
    "scala.Predef.String",
];

/// The tuple classes whose `Ordering` the companion derives from their elements'.
const ORDERED_TUPLES: [&str; 3] = ["scala.Tuple2", "scala.Tuple3", "scala.Tuple4"];

impl Worker<'_> {
    /// Whether a call of `m` (under `s`) leaves its implicit list to the search: the member
    /// has one, the language searches, the draw (`implicit_search_probability`, only for
    /// such a member) says so, and the search surely finds every argument.
    pub(crate) fn draw_implicit_search(
        &mut self,
        rng: &mut super::worker::SynthRng,
        m: MemberId,
        s: &Subst,
    ) -> bool {
        let has_implicits = self
            .api
            .member(m)
            .scala_lists
            .as_ref()
            .is_some_and(|l| l.implicit > 0);
        has_implicits
            && self.rules.searches_implicits()
            && rng.gen_bool(self.cfg.implicit_search_probability.clamp(0.0, 1.0))
            && self.implicits_found(m, s)
    }

    /// True when every implicit parameter of member `m` (under `s`) is one scalac finds by
    /// itself ([`Self::implicit_found`]); false for a member without implicit parameters.
    pub(crate) fn implicits_found(&mut self, m: MemberId, s: &Subst) -> bool {
        let mem = self.api.member(m).clone();
        let Some(lists) = &mem.scala_lists else {
            return false;
        };
        if lists.implicit == 0 || lists.implicit > mem.params.len() {
            return false;
        }
        let first = mem.params.len() - lists.implicit;
        mem.params[first..].iter().all(|p| {
            let t = self.api.ts.arena.subst(p.ty, s);
            self.implicit_found(t)
        })
    }

    /// True when scalac's implicit search is certain to find a value of type `t` whatever
    /// the program imports (see the module documentation).
    pub(crate) fn implicit_found(&mut self, t: TypeId) -> bool {
        if !self.api.ts.arena.is_ground(t) {
            return false;
        }
        if let Type::Function { params, ret, .. } = self.api.ts.arena.get(t).clone() {
            return params.len() == 1 && self.conforms(params[0], ret);
        }
        let Some((sym, args)) = self.api.ts.arena.as_class(t).map(|(s, a)| (s, a.to_vec())) else {
            return false;
        };
        let name = self.api.ts.arena.name(sym).to_string();
        match (name.as_str(), args.as_slice()) {
            ("scala.DummyImplicit", []) => true,
            ("scala.reflect.ClassTag", [x]) => self.class_tag_found(*x),
            ("scala.<:<" | "scala.Function1", [x, y]) => self.conforms(*x, *y),
            ("scala.=:=", [x, y]) => x == y && self.is_class_type(*x),
            ("scala.math.Ordering", [x]) => self.ordering_found(*x),
            ("scala.math.Numeric", [x]) => self.named_in(*x, &NUMERIC),
            ("scala.math.Integral", [x]) => self.named_in(*x, &INTEGRAL),
            ("scala.math.Fractional", [x]) => self.named_in(*x, &FRACTIONAL),
            _ => self.api_instance_found(t),
        }
    }

    /// True when exactly one of the API's implicit instances in `t`'s implicit scope has
    /// a type below `t`, and no implicit method there produces `t`'s class or a subclass
    /// (see the module documentation).
    fn api_instance_found(&mut self, t: TypeId) -> bool {
        let index = &self.ctx.scala_instances;
        if index.instances.is_empty() {
            return false;
        }
        let Some((tc, args)) = self.api.ts.arena.as_class(t).map(|(s, a)| (s, a.to_vec())) else {
            return false;
        };
        // the implicit scope: the classes of `t`'s supertypes and of its arguments'
        let mut scope: FxHashSet<Sym> = FxHashSet::default();
        for u in std::iter::once(t).chain(args.iter().copied()) {
            for s in self.api.ts.all_supertypes(u) {
                if let Some((c, _)) = self.api.ts.arena.as_class(s) {
                    scope.insert(c);
                }
            }
        }
        let producers = index
            .producers
            .iter()
            .filter(|(owner, _)| scope.contains(owner))
            .map(|&(_, r)| r)
            .collect::<Vec<_>>();
        for r in producers {
            let below = r == tc || {
                let rt = self.api.ts.self_type(r);
                self.api
                    .ts
                    .all_supertypes(rt)
                    .iter()
                    .any(|&s| self.api.ts.arena.as_class(s).is_some_and(|(c, _)| c == tc))
            };
            if below {
                return false;
            }
        }
        let candidates: Vec<Vec<TypeId>> = index
            .instances
            .iter()
            .filter(|(owner, _)| scope.contains(owner))
            .map(|(_, parts)| parts.clone())
            .collect();
        let mut found = 0;
        for parts in candidates {
            if parts.iter().any(|&p| self.api.ts.is_subtype(p, t)) {
                found += 1;
            }
        }
        found == 1
    }

    /// `ClassTag[x]`: synthesized for any class type, however applied (its erasure is
    /// known), and for arrays of such; not for a type variable.
    fn class_tag_found(&self, x: TypeId) -> bool {
        match self.api.ts.arena.get(x) {
            Type::Class { .. } => true,
            Type::Array(e) => self.class_tag_found(*e),
            _ => false,
        }
    }

    /// `Ordering[x]`: the companion's instances for the numeric types, `String`, `Boolean`,
    /// `Unit`, and for `Option`s and tuples of types with one.
    fn ordering_found(&self, x: TypeId) -> bool {
        if self.named_in(x, &NUMERIC) || self.named_in(x, &ORDERED) {
            return true;
        }
        let Some((sym, args)) = self.api.ts.arena.as_class(x) else {
            return false;
        };
        let name = self.api.ts.arena.name(sym);
        let derived = name == "scala.Option" && args.len() == 1
            || ORDERED_TUPLES.contains(&name) && !args.is_empty();
        derived && args.iter().all(|&a| self.ordering_found(a))
    }

    /// True when `x` is a class type named one of `names`, without type arguments.
    fn named_in(&self, x: TypeId, names: &[&str]) -> bool {
        self.api
            .ts
            .arena
            .as_class(x)
            .is_some_and(|(s, a)| a.is_empty() && names.contains(&self.api.ts.arena.name(s)))
    }

    /// True for a class type (not a primitive, a variable or a function type).
    fn is_class_type(&self, x: TypeId) -> bool {
        matches!(self.api.ts.arena.get(x), Type::Class { .. })
    }

    /// `x <:< y` (and so `x => y`): both class types, `x` a subtype of `y`.
    fn conforms(&mut self, x: TypeId, y: TypeId) -> bool {
        self.is_class_type(x) && self.is_class_type(y) && self.api.ts.is_subtype(x, y)
    }
}
