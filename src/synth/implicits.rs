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
//! Anything else (an `ExecutionContext`, a type class instance an import provides, a type
//! variable's `ClassTag`) is supplied as an argument, as before.

use super::worker::Worker;
use crate::api::MemberId;
use crate::types::{Subst, Type, TypeId};

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
            _ => false,
        }
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
