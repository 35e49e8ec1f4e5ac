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

use super::inhabitant::Inhabitant;
use super::ir::to_ir;
use super::rng::SynthRng;
use super::worker::Worker;
use crate::synth::typing::convert::{is_num, promoted};
use crate::synth::typing::erase::InferInfo;
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
        let functional = self.typing().is_functional_class_type(t);
        let mut subs = self.subtypes(rng, t, COND_SUBTYPES);
        if !self.rules.sees_java_supertypes_of_builtins() {
            // a box or `String` below another type may be below it only in Java's view
            let string = self.ctx.string_sym;
            subs.retain(|&s| {
                s == t
                    || self.typing().prim_of(s).is_none()
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
            subs.retain(|&s| self.typing().prim_of(s).is_none());
        }
        subs.shuffle(rng);
        let (a, b) = match subs.as_slice() {
            [a, b, ..] => (*a, *b),
            // a functional interface joins a lambda and a reference of the same type
            [a] if functional => (*a, *a),
            _ => return None,
        };
        let info = match (self.typing().prim_of(a), self.typing().prim_of(b)) {
            (Some(p), Some(q)) if is_num(p) && is_num(q) => {
                let with_char = p != q && (p == Prim::Char || q == Prim::Char);
                if with_char && !self.rules.promotes_char_in_conditionals() {
                    return None;
                }
                let r = promoted(p, q);
                let rt = self.api.ts.arena.prim(r);
                // a lambda's result may be this conditional: keep to what its language widens
                let fits = if self.building.in_lambda > 0 {
                    self.typing().function_result_converts(rt, t)
                } else {
                    self.typing().java_converts(rt, t)
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
                let contravariant = |w: &mut Self, x: TypeId| w.typing().mentions_super_wildcard(x);
                if self.rules.joins_contravariant_to_top()
                    && (contravariant(self, a) || contravariant(self, b))
                {
                    InferInfo::Opaque
                } else {
                    InferInfo::Poly
                }
            }
        };
        let boolean = self.api.ts.arena.prim(Prim::Boolean);
        let cond = self.inhabit(rng, boolean, 0).expr;
        // a branch takes the conditional's target type: a lambda or reference for a
        // functional subtype of a target that is not one is cast to its own interface
        // (`c ? (GenericArrayType) () -> t : u` for a `Type`)
        // A branch's calls keep their type arguments: the branch's own type is not the
        // target type inference sees (Java pushes the conditional's down, Kotlin gives an
        // `if` branch none that fixes a constructor's variables)
        let mut branch = |w: &mut Self, x: TypeId| {
            w.building.keep_type_args += 1;
            let e = w.inhabit(rng, x, depth - 1).expr;
            w.building.keep_type_args -= 1;
            match e {
                Expr::Lambda { .. } | Expr::Ref { .. } if !functional => {
                    Expr::cast(to_ir(&w.api, x), e)
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

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use thalia_translators::Language;

    use super::*;
    use crate::synth::{SynthConfig, SynthContext};

    #[test]
    fn scala2_conditionals_joining_into_object_take_no_primitive_branch() {
        let mut api = crate::embedded::embedded_corpus("java.base").expect("embedded java.base");
        let ctx = SynthContext::new(&mut api);
        for (lang, primitive_allowed) in [(Language::Java, true), (Language::Scala2, false)] {
            let mut cfg = SynthConfig {
                lang,
                ..SynthConfig::default()
            };
            cfg.swarm.use_probability = 1.0;
            let mut w = Worker::new(api.clone(), &ctx, &cfg);
            w.building.features.conditionals = true;
            let object = w.api.ts.arena.class_named("java.lang.Object", &[]);
            let mut rng = SynthRng::seed_from_u64(11);
            let mut literal_branches = 0;
            for _ in 0..400 {
                if let Some(c) = w.conditional(&mut rng, object, 2) {
                    c.expr.walk(&mut |e| {
                        if let Expr::Cond { then, els, .. } = e {
                            for b in [then, els] {
                                if matches!(**b, Expr::Lit(_)) {
                                    literal_branches += 1;
                                }
                            }
                        }
                    });
                }
            }
            assert_eq!(literal_branches > 0, primitive_allowed, "{lang}");
        }
    }
}
