//! Conditional expressions (issue #13 item 2): for a wanted type `T`, `c ? a : b` whose
//! branches inhabit two different subtypes of `T`, so that the compiler must join them (a
//! least upper bound, or Java's numeric promotion), nested through the branches' own
//! inhabitants, and with lambda or reference branches for a functional `T`.
//!
//! Only what Java's rules (JLS 15.25) type as `T` or a subtype is written: a numeric
//! conditional (both branches numeric or their boxes) has the promoted type, which must
//! convert to `T`; a reference conditional in an assignment or invocation context takes its
//! target type, so each branch being a subtype of `T` suffices. Conditionals are not written
//! as arguments of overloaded methods (a joined type may select another overload) nor as the
//! receivers of bound references.

use rand::seq::SliceRandom;
use thalia_translators::ir::Expr;

use super::erase::InferInfo;
use super::inhabit::Inhabitant;
use super::worker::{SynthRng, Worker};
use crate::types::{Prim, TypeId};

/// Subtypes of the wanted type drawn to choose the two branches from (the type itself
/// among them).
pub const COND_SUBTYPES: usize = 4;

impl Worker<'_> {
    /// `cond ? a : b` of type `t` (or a subtype), or `None` when `t` has no two different
    /// subtypes that Java joins into a subtype of `t`.
    pub(crate) fn conditional(
        &mut self,
        rng: &mut SynthRng,
        t: TypeId,
        depth: usize,
    ) -> Option<Inhabitant> {
        if depth == 0 || self.building.no_conditionals > 0 {
            return None;
        }
        let functional = self.is_functional_class_type(t);
        let mut subs = self.subtypes(rng, t, COND_SUBTYPES);
        if !self.rules.sees_java_supertypes_of_builtins() {
            // a box or `String` below another type may be below it only in Java's view
            let string = self.ctx.string_sym;
            subs.retain(|&s| {
                s == t
                    || self.prim_of(s).is_none()
                        && self
                            .api
                            .ts
                            .arena
                            .as_class(s)
                            .is_none_or(|(n, _)| n != string)
            });
        }
        let object = self.ctx.object_sym;
        if !self.rules.boxes_primitives_to_object()
            && self
                .api
                .ts
                .arena
                .as_class(t)
                .is_some_and(|(n, _)| n == object)
        {
            subs.retain(|&s| self.prim_of(s).is_none());
        }
        subs.shuffle(rng);
        let (a, b) = match subs.as_slice() {
            [a, b, ..] => (*a, *b),
            // a functional interface joins a lambda and a reference of the same type
            [a] if functional => (*a, *a),
            _ => return None,
        };
        let info = match (self.prim_of(a), self.prim_of(b)) {
            (Some(p), Some(q)) if is_num(p) && is_num(q) => {
                let with_char = p != q && (p == Prim::Char || q == Prim::Char);
                if with_char && !self.rules.promotes_char_in_conditionals() {
                    return None;
                }
                let r = promoted(p, q);
                let rt = self.api.ts.arena.prim(r);
                // a lambda's result may be this conditional: keep to what its language widens
                let fits = if self.building.in_lambda > 0 {
                    self.function_result_converts(rt, t)
                } else {
                    self.java_converts(rt, t)
                };
                if !fits {
                    return None;
                }
                InferInfo::Standalone(rt)
            }
            (Some(Prim::Boolean), Some(Prim::Boolean)) => {
                InferInfo::Standalone(self.api.ts.arena.prim(Prim::Boolean))
            }
            // a reference conditional: a poly expression taking its target type
            _ => {
                if matches!(self.api.ts.arena.get(t), crate::types::Type::Prim(_)) {
                    return None;
                }
                InferInfo::Poly
            }
        };
        let boolean = self.api.ts.arena.prim(Prim::Boolean);
        let cond = self.inhabit(rng, boolean, 0).expr;
        // a branch takes the conditional's target type: a lambda or reference for a
        // functional subtype of a target that is not one is cast to its own interface
        // (`c ? (GenericArrayType) () -> t : u` for a `Type`)
        let mut branch = |w: &mut Self, x: TypeId| {
            let e = w.inhabit(rng, x, depth - 1).expr;
            match e {
                Expr::Lambda { .. } | Expr::Ref { .. } if !functional => {
                    Expr::cast(super::program::to_ir(&w.api, x), e)
                }
                e => e,
            }
        };
        let then = branch(self, a);
        let els = branch(self, b);
        Some(Inhabitant {
            expr: Expr::cond(cond, then, els),
            info,
        })
    }
}

/// True for the numeric primitives.
fn is_num(p: Prim) -> bool {
    !matches!(p, Prim::Boolean | Prim::Void)
}

/// The type of a numeric conditional whose branches have (or unbox to) `p` and `q`
/// (JLS 15.25.2, without the constant rules, which only narrow it): `short` for `byte` and
/// `short`, the type itself when both are equal, else binary numeric promotion.
fn promoted(p: Prim, q: Prim) -> Prim {
    use Prim::*;
    if p == q {
        return p;
    }
    if matches!((p, q), (Byte, Short) | (Short, Byte)) {
        return Short;
    }
    let rank = |x: Prim| match x {
        Double => 4,
        Float => 3,
        Long => 2,
        _ => 1,
    };
    match rank(p).max(rank(q)) {
        4 => Double,
        3 => Float,
        2 => Long,
        _ => Int,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_conditionals_promote_as_java_does() {
        assert_eq!(promoted(Prim::Byte, Prim::Short), Prim::Short);
        assert_eq!(promoted(Prim::Char, Prim::Short), Prim::Int);
        assert_eq!(promoted(Prim::Int, Prim::Long), Prim::Long);
        assert_eq!(promoted(Prim::Long, Prim::Float), Prim::Float);
        assert_eq!(promoted(Prim::Char, Prim::Char), Prim::Char);
        assert_eq!(promoted(Prim::Byte, Prim::Double), Prim::Double);
    }
}
