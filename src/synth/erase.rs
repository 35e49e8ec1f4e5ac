//! Type erasure (Section 3.5, Definition 3.14): explicit type arguments of a polymorphic call
//! are dropped only when every one of them is inferable, from an argument or from the target
//! type, as exactly the type that was written.

use super::worker::Worker;
use crate::types::{Subst, Type, TypeId, UnifyMode, VarId};

/// What an argument expression tells type inference.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InferInfo {
    /// A standalone expression of this static type.
    Standalone(TypeId),
    /// A poly expression (lambda, generic call without type arguments) whose type depends on
    /// its target: it cannot be relied on to infer type arguments.
    Poly,
}

impl Worker<'_> {
    /// Definition 3.14: can the explicit arguments `s(vars)` of a call with formal parameter
    /// types `params` and result type `ret` (both still mentioning `vars`) be erased, given
    /// what the arguments tell and the call's target type `goal`?
    pub fn erasable(
        &mut self,
        vars: &[VarId],
        s: &Subst,
        params: &[TypeId],
        args: &[InferInfo],
        ret: TypeId,
        goal: Option<TypeId>,
    ) -> bool {
        if vars.is_empty() {
            return false;
        }
        let from_goal = goal.and_then(|k| {
            let k = match *self.api.ts.arena.get(k) {
                Type::Prim(_) => self.boxed_type(k),
                _ => k,
            };
            self.api
                .ts
                .unify_with(ret, k, vars, UnifyMode::Subtype, &Subst::new())
        });
        for &v in vars {
            let Some(want) = s.get(v) else { return false };
            let mut by_args = false;
            let mut blocked = false;
            // a poly argument (lambda, erased call) whose parameter mentions the variable needs
            // the variable to type it: inference would have to solve both at once
            let mut poly = false;
            for (&p, info) in params.iter().zip(args) {
                if !self.api.ts.arena.free_vars(p).contains(&v) {
                    continue;
                }
                match *info {
                    InferInfo::Poly => poly = true,
                    // inference through a wildcard-typed argument yields a capture
                    // variable, never the written type
                    InferInfo::Standalone(a) if self.has_wildcard(a) => blocked = true,
                    InferInfo::Standalone(a) => {
                        let a = self.boxed_type(a);
                        let u =
                            self.api
                                .ts
                                .unify_with(p, a, vars, UnifyMode::Subtype, &Subst::new());
                        match u.and_then(|u| u.get(v)) {
                            Some(got) if got == want => by_args = true,
                            _ => blocked = true,
                        }
                    }
                }
            }
            let by_goal = from_goal.as_ref().and_then(|u| u.get(v)) == Some(want);
            // Scala 2 solves a variable from the arguments before it looks at the target
            // type: a capture variable from a wildcard-typed argument wins
            let args_first = self.rules.infers_from_arguments_first();
            if poly || blocked && args_first || !(by_goal || (by_args && !blocked)) {
                return false;
            }
        }
        true
    }

    /// True when a wildcard occurs anywhere in the type.
    fn has_wildcard(&self, t: TypeId) -> bool {
        if matches!(self.api.ts.arena.get(t), Type::Wildcard(_)) {
            return true;
        }
        let mut w = false;
        self.api
            .ts
            .arena
            .for_each_child(t, |c| w |= self.has_wildcard(c));
        w
    }

    /// The boxed class type of a primitive; other types unchanged.
    pub fn boxed_type(&mut self, t: TypeId) -> TypeId {
        if let Type::Prim(p) = *self.api.ts.arena.get(t) {
            if let Some(b) = self.ctx.box_of(p) {
                return self.api.ts.arena.class(b, &[]);
            }
        }
        t
    }
}
