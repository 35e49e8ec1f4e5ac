//! Type aliases for the API classes of a program's declared local types (Kotlin's top-level
//! `typealias`, a Scala `type` member of the test object): generic aliases
//! `Declared0<T0, T1> = C<T0, T1>` through which every local of the class's type is
//! declared; the types stay the same, so the expectation does too.

use rand::Rng;
use thalia_translators::ir::{Program, Stmt, Ty, TypeAlias};

use super::rng::SynthRng;
use super::worker::Worker;
use crate::types::Type;

/// The stem of the aliases' names (`Declared0`, `Declared1`, ...).
pub const ALIAS_STEM: &str = "Declared";

impl Worker<'_> {
    /// Declares aliases for the classes of `program`'s declared locals (top-level ones,
    /// each class at the use probability) when the program's forms have type aliases: a
    /// class whose locals write all its type arguments, none a wildcard, whose type
    /// parameters have no bound (an alias's parameters have none, and Scala checks the
    /// expansion against the class's bounds), that is no inner class, and that the
    /// language lets an alias name.
    pub(crate) fn declare_aliases(&mut self, rng: &mut SynthRng, program: &mut Program) {
        if !self.building.features.type_aliases {
            return;
        }
        let p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        let mut seen: Vec<String> = Vec::new();
        for s in &program.stmts {
            let Stmt::Local {
                ty,
                inferred: false,
                ..
            } = s
            else {
                continue;
            };
            let ty = match ty {
                Ty::Nullable(inner) => inner.as_ref(),
                t => t,
            };
            let Ty::Class { name, args } = ty else {
                continue;
            };
            if seen.contains(name) {
                continue;
            }
            seen.push(name.clone());
            if args.iter().any(Ty::is_wildcard)
                || program.inner_classes.contains(name)
                || !self.rules.aliases_class(name)
                || !self.unbounded_class(name, args.len())
            {
                continue;
            }
            if rng.gen_bool(p) {
                program.aliases.push(TypeAlias {
                    name: format!("{ALIAS_STEM}{}", program.aliases.len()),
                    class: name.clone(),
                    arity: args.len(),
                });
            }
        }
    }

    /// True when class `name` has `arity` type parameters, none bounded by more than the
    /// top type.
    fn unbounded_class(&self, name: &str, arity: usize) -> bool {
        let Some(cid) = self.api.class_by_name(name) else {
            return false;
        };
        let class = self.api.class(cid);
        if class.type_params.len() != arity {
            return false;
        }
        let object = self.ctx.object_sym;
        class.type_params.iter().all(|&v| {
            self.api.ts.arena.var(v).upper.iter().all(|&b| {
                matches!(self.api.ts.arena.get(b), Type::Class { name, .. } if *name == object)
                    || matches!(self.api.ts.arena.get(b), Type::Top)
            })
        })
    }
}
