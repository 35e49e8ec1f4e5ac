//! A task's shape at build time: generalized over the generic test method's type variables
//! (`T`; the member's own variables related by their bounds, an F-bounded `T extends I<T>`,
//! or `<U extends X, T extends U>`; Def. 3.1 and Java resolution re-checked), and Kotlin's
//! nullable locals (where its null-safety allows them, or breaking the call in ill-typed
//! mode).

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng;
use thalia_translators::ir::{Expr, Program, Receiver, Stmt, Ty, TypeParam};

use super::ir::to_ir;
use super::rng::{RngStream, SynthRng};
use super::worker::Worker;
use crate::api::MemberKind;
use crate::synth::context::outer_class;
use crate::synth::typing::convert::ConversionSite;
use crate::synth::typing::mapped::is_not_null_var;
use crate::synth::typing::overload::Resolution;
use crate::synth::typing::sequence::{Broken, Position, Task, TypingSequence};
use crate::types::{kotlin_view, print_type, Subst, Syntax, Type, TypeId, VarId, Wildcard};

/// The name of the generic test method's type variable (`static <T extends B> void test()`).
pub const PROGRAM_TYPE_VAR: &str = "T";

/// The name of the variable that bounds the test method's `T` in `<U extends X, T extends
/// U>`.
pub const CHAIN_TYPE_VAR: &str = "U";

/// How many type arguments of a substitution [`Worker::generalize`] tries to replace by the
/// test method's type variable before it gives up.
pub const GENERALIZE_ATTEMPTS: usize = 3;

/// A task as a program builds it: possibly generalized over the test method's type
/// variables, with the positions whose locals Kotlin declares nullable (`T?`).
#[derive(Clone, Debug)]
pub struct Shaped {
    /// The task (generalized or re-broken at build time, else the enumerated one).
    pub task: Task,
    /// The type parameters of the test method.
    pub type_params: Vec<TypeParam>,
    /// The positions whose locals are declared with a nullable type.
    pub nullable: Vec<Position>,
}

impl Worker<'_> {
    /// The shape of program `index` for `task` under the program's swarm features (drawn
    /// before): a generic test method whose type variables are related by their bounds
    /// ([`Worker::relate`], [`Worker::generalize_f_bounded`], or `<U extends X, T extends
    /// U>`), else one over a single variable ([`Worker::generalize`]), and Kotlin's nullable locals
    /// (`Worker::nullable_positions`). Creating an inner class needs its enclosing
    /// instance, so the form is on for a program whose member is an inner class's constructor.
    pub fn shape_task(&mut self, task: &Task, seed: u64, index: u64) -> Shaped {
        let mut rng = RngStream::Shape.rng(seed, index);
        let p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        if outer_class(&self.api, task.member).is_some() {
            self.building.features.inner_classes = true;
        }
        let mut task = task.clone();
        let mut type_params = Vec::new();
        if self.building.features.related_type_vars && rng.gen_bool(p) {
            if let Some((t, tps)) = self.relate(&task) {
                task = t;
                type_params = tps;
            } else if let Some((t, tp)) = self.generalize_f_bounded(&mut rng, &task) {
                task = t;
                type_params.push(tp);
            } else if let Some((t, tps)) = self.generalize_position(&mut rng, &task, true) {
                task = t;
                type_params = tps;
            }
        }
        if type_params.is_empty() && self.building.features.generic_test_method && rng.gen_bool(p) {
            if let Some((t, tp)) = self.generalize(&mut rng, &task) {
                task = t;
                type_params.push(tp);
            }
        }
        let nullable = self.nullable_positions(&mut rng, &mut task);
        Shaped {
            task,
            type_params,
            nullable,
        }
    }

    /// The task over the test method's own copies of the member's (and its class's) type
    /// variables that are related by their bounds (`<K, V extends Comparable<K>>`, `<E
    /// extends Enum<E>>`): the variables whose bounds name one of them, and those they
    /// name, are declared by the test method with the same bounds, and the typing sequence
    /// is the member's formal signature over them. Only for a well-typed task, kept when the
    /// substitution is valid (Def. 3.1) and Java's resolution still selects the member.
    pub fn relate(&mut self, task: &Task) -> Option<(Task, Vec<TypeParam>)> {
        if task.broken.is_some() {
            return None;
        }
        let m = task.member;
        let pairs: Vec<(VarId, TypeId)> = task.formal.subst.iter().collect();
        let keys: Vec<VarId> = pairs.iter().map(|&(v, _)| v).collect();
        let a = &self.api.ts.arena;
        let mentions = |v: VarId| -> Vec<VarId> {
            a.var(v)
                .upper
                .iter()
                .flat_map(|&b| a.free_vars(b))
                .filter(|w| keys.contains(w))
                .collect()
        };
        let mut related: Vec<VarId> = keys
            .iter()
            .copied()
            .filter(|&v| !mentions(v).is_empty())
            .collect();
        if related.is_empty() {
            return None;
        }
        // and the variables their bounds name, transitively
        loop {
            let more: Vec<VarId> = related
                .iter()
                .flat_map(|&v| mentions(v))
                .filter(|w| !related.contains(w))
                .collect();
            if more.is_empty() {
                break;
            }
            related.extend(more);
            related.sort_unstable_by_key(|v| keys.iter().position(|k| k == v));
            related.dedup();
        }
        // declared in the substitution's order
        let related: Vec<VarId> = keys
            .iter()
            .copied()
            .filter(|v| related.contains(v))
            .collect();
        let plain = related.iter().all(|&v| {
            let d = a.var(v);
            d.lower.is_none() && !d.reified && !d.higher_kinded
        });
        if !plain {
            return None;
        }
        let fresh = self.related_vars(&pairs, &related)?;
        if !self.rules.bounds_wildcards_by_own_variable()
            && fresh.iter().any(|&v| self.wildcard_names_var(v, &fresh))
        {
            return None;
        }
        let mut subst = Subst::new();
        for &(v, t) in &pairs {
            match related.iter().position(|&r| r == v) {
                Some(i) => subst.insert(v, self.api.ts.arena.var_type(fresh[i])),
                None => subst.insert(v, t),
            }
        }
        if !self.api.ts.is_valid_subst(&subst) {
            return None;
        }
        let f = self.typing().formal_under(m, subst);
        let seq = TypingSequence {
            receiver: f.receiver,
            args: f.params.clone(),
            result: f.ret,
        };
        let types: Vec<TypeId> = seq
            .receiver
            .into_iter()
            .chain(seq.args.iter().copied())
            .chain(seq.result)
            .collect();
        let writable = types.iter().all(|&t| {
            !self.generic_array(t)
                && self.api.ts.is_well_formed(t)
                && self.ctx.expressible(&self.api, t)
        });
        // `r.new Inner()` on a type-variable-typed `r` is left out
        let inner_on_var = self.api.member(m).kind == MemberKind::Constructor
            && seq
                .receiver
                .is_some_and(|r| matches!(self.api.ts.arena.get(r), Type::Var(_)));
        if !writable
            || inner_on_var
            || self.typing().resolve_call(m, &f, &seq) != Resolution::Unique(m)
        {
            return None;
        }
        let tps = fresh
            .iter()
            .map(|&v| TypeParam {
                name: self.api.ts.arena.var_name(v).to_string(),
                bounds: self
                    .api
                    .ts
                    .arena
                    .var(v)
                    .upper
                    .clone()
                    .into_iter()
                    .map(|b| to_ir(&self.api, b))
                    .collect(),
            })
            .collect();
        let t = Task {
            member: m,
            formal: f,
            seq,
            broken: None,
        };
        Some((t, tps))
    }

    /// The task generalized over an F-bounded type variable of the test method: a type
    /// argument `X` of the member's substitution is replaced by `T extends I<T>`, where
    /// `I<X>` is a supertype of `X` in the API (`Comparable<String>` of `String`,
    /// `Enum<TimeUnit>` of `TimeUnit`), when the task stays valid and keeps its verdict
    /// (as [`Worker::generalize`]).
    pub fn generalize_f_bounded(
        &mut self,
        rng: &mut SynthRng,
        task: &Task,
    ) -> Option<(Task, TypeParam)> {
        let mut cands: Vec<(String, TypeId)> = Vec::new();
        let values: Vec<TypeId> = task.formal.subst.iter().map(|(_, t)| t).collect();
        for t in values {
            if self.generalizable(t) {
                let key = print_type(&self.api.ts.arena, Syntax::Java, t);
                if !cands.iter().any(|(k, _)| *k == key) {
                    cands.push((key, t));
                }
            }
        }
        cands.sort();
        cands.shuffle(rng);
        for (_, x) in cands.into_iter().take(GENERALIZE_ATTEMPTS) {
            let Some(v) = self.f_bounded_var(x) else {
                continue;
            };
            let tv = self.api.ts.arena.var_type(v);
            if let Some(t) = self.generalized(task, x, tv) {
                let bounds = self.api.ts.arena.var(v).upper.clone();
                let tp = TypeParam {
                    name: PROGRAM_TYPE_VAR.to_string(),
                    bounds: bounds.into_iter().map(|b| to_ir(&self.api, b)).collect(),
                };
                return Some((t, tp));
            }
        }
        None
    }

    /// True when a bound of variable `v` holds a wildcard whose bound names one of `vars`
    /// (`T extends Comparable<? super T>`).
    fn wildcard_names_var(&self, v: VarId, vars: &[VarId]) -> bool {
        let a = &self.api.ts.arena;
        let mut todo: Vec<(TypeId, bool)> = a.var(v).upper.iter().map(|&b| (b, false)).collect();
        while let Some((t, in_wildcard)) = todo.pop() {
            let in_wildcard = in_wildcard || matches!(a.get(t), Type::Wildcard(_));
            if in_wildcard && a.as_var(t).is_some_and(|w| vars.contains(&w)) {
                return true;
            }
            a.for_each_child(t, |c| todo.push((c, in_wildcard)));
        }
        false
    }

    /// The test method's variables `U extends x` and `T extends U` (declared once per worker
    /// for each `x`).
    fn chain_vars(&mut self, x: TypeId) -> (VarId, VarId) {
        if let Some(&p) = self.caches.chain_vars.get(&x) {
            return p;
        }
        let u = self.api.ts.arena.new_var(CHAIN_TYPE_VAR, "test");
        self.api.ts.arena.var_mut(u).upper = vec![x];
        let ut = self.api.ts.arena.var_type(u);
        let t = self.api.ts.arena.new_var(PROGRAM_TYPE_VAR, "test");
        self.api.ts.arena.var_mut(t).upper = vec![ut];
        self.caches.related_set.extend([u, t]);
        self.caches.chain_vars.insert(x, (u, t));
        (u, t)
    }

    /// The test method's variable `T extends I<T>` for a type `x` with the supertype
    /// `I<x>` (the first such in printed order), declared once per worker; `None` when `x`
    /// has none.
    fn f_bounded_var(&mut self, x: TypeId) -> Option<VarId> {
        if let Some(v) = self.caches.f_bounded_vars.get(&x) {
            return *v;
        }
        let mut sups: Vec<(String, TypeId)> = self
            .api
            .ts
            .all_supertypes(x)
            .into_iter()
            .filter(|&s| {
                s != x
                    && self
                        .api
                        .ts
                        .arena
                        .as_class(s)
                        .is_some_and(|(_, args)| args.contains(&x))
                    && self.ctx.expressible(&self.api, s)
            })
            .map(|s| (print_type(&self.api.ts.arena, Syntax::Java, s), s))
            .collect();
        sups.sort();
        let made = match sups.first() {
            Some(&(_, sup)) => {
                let v = self.api.ts.arena.new_var(PROGRAM_TYPE_VAR, "test");
                let tv = self.api.ts.arena.var_type(v);
                let bound = self.replace_type(sup, x, tv);
                self.api.ts.arena.var_mut(v).upper = vec![bound];
                self.caches.related_set.insert(v);
                Some(v)
            }
            None => None,
        };
        self.caches.f_bounded_vars.insert(x, made);
        made
    }

    /// The test method's copies of the `related` variables of a substitution (`pairs`):
    /// named `T` and the variable's name (numbered where two share one), bounded as declared
    /// with the related variables replaced by the copies and the others by their values.
    /// Declared once per worker for the same variables and values. `None` when a bound
    /// cannot be written (an intersection with a type variable, a type Java cannot write).
    fn related_vars(
        &mut self,
        pairs: &[(VarId, TypeId)],
        related: &[VarId],
    ) -> Option<Arc<Vec<VarId>>> {
        let values: Vec<Option<TypeId>> = pairs
            .iter()
            .map(|&(v, t)| (!related.contains(&v)).then_some(t))
            .collect();
        let key: Vec<(VarId, Option<TypeId>)> = pairs
            .iter()
            .map(|&(v, _)| v)
            .zip(values.iter().copied())
            .collect();
        if let Some(v) = self.caches.related_vars.get(&key) {
            return v.clone();
        }
        let made = self.make_related_vars(pairs, related);
        self.caches.related_vars.insert(key, made.clone());
        made
    }

    /// [`Self::related_vars`], not cached.
    fn make_related_vars(
        &mut self,
        pairs: &[(VarId, TypeId)],
        related: &[VarId],
    ) -> Option<Arc<Vec<VarId>>> {
        let mut names: Vec<String> = Vec::new();
        let mut fresh = Vec::new();
        for &v in related {
            let base = format!("{PROGRAM_TYPE_VAR}{}", self.api.ts.arena.var_name(v));
            let mut name = base.clone();
            let mut k = 1;
            while names.contains(&name) || name == PROGRAM_TYPE_VAR {
                k += 1;
                name = format!("{base}{k}");
            }
            names.push(name.clone());
            fresh.push(self.api.ts.arena.new_var(&name, "test"));
        }
        let mut ren = Subst::new();
        for &(v, t) in pairs {
            match related.iter().position(|&r| r == v) {
                Some(i) => ren.insert(v, self.api.ts.arena.var_type(fresh[i])),
                None => ren.insert(v, t),
            }
        }
        for (&v, &nv) in related.iter().zip(&fresh) {
            let upper = self.api.ts.arena.var(v).upper.clone();
            let not_null = self.api.ts.arena.var(v).not_null;
            let bounds: Vec<TypeId> = upper
                .iter()
                .map(|&b| self.api.ts.arena.subst(b, &ren))
                .collect();
            let var_bound = bounds
                .iter()
                .any(|&b| matches!(self.api.ts.arena.get(b), Type::Var(_)));
            if var_bound && bounds.len() > 1
                || bounds
                    .iter()
                    .any(|&b| !self.ctx.expressible(&self.api, b) || self.generic_array(b))
            {
                return None;
            }
            let d = self.api.ts.arena.var_mut(nv);
            d.upper = bounds;
            d.not_null = not_null;
        }
        self.caches.related_set.extend(fresh.iter().copied());
        Some(Arc::new(fresh))
    }

    /// The task generalized over a type variable of the test method: a type argument `X` of
    /// the member's substitution is replaced, there and in the typing sequence, by the
    /// program's variable `T` bounded by `X` or by a supertype of `X`. Kept only when the
    /// substitution stays valid (Def. 3.1) and the sequence well-typed in Java's rules (or,
    /// for an ill-typed task, still broken at its position).
    pub fn generalize(&mut self, rng: &mut SynthRng, task: &Task) -> Option<(Task, TypeParam)> {
        let mut cands: Vec<(String, TypeId)> = Vec::new();
        let values: Vec<TypeId> = task.formal.subst.iter().map(|(_, t)| t).collect();
        for t in values {
            if self.generalizable(t) {
                let key = print_type(&self.api.ts.arena, Syntax::Java, t);
                if !cands.iter().any(|(k, _)| *k == key) {
                    cands.push((key, t));
                }
            }
        }
        // printed order, not id order: ids depend on what the worker interned before
        cands.sort();
        cands.shuffle(rng);
        for (_, x) in cands.into_iter().take(GENERALIZE_ATTEMPTS) {
            let bound = self.bound_for(rng, x);
            let v = self.program_var(bound);
            let tv = self.api.ts.arena.var_type(v);
            if let Some(t) = self.generalized(task, x, tv) {
                let tp = TypeParam {
                    name: PROGRAM_TYPE_VAR.to_string(),
                    bounds: vec![to_ir(&self.api, bound)],
                };
                return Some((t, tp));
            }
        }
        self.generalize_position(rng, task, false)
            .and_then(|(t, mut tps)| Some((t, tps.pop()?)))
    }

    /// The task with the type `X` of its receiver or of one argument (a class type) replaced
    /// by the program's variable `T extends X` (a subtype of `X`, inhabited by `(T) null`),
    /// or with `chain` by `T` of `<U extends X, T extends U>` (variables bounded by each
    /// other), kept when the call still resolves the same way (or stays broken); the test
    /// method's type parameters.
    fn generalize_position(
        &mut self,
        rng: &mut SynthRng,
        task: &Task,
        chain: bool,
    ) -> Option<(Task, Vec<TypeParam>)> {
        let broken = task.broken.map(|b| b.position);
        let mut positions: Vec<Position> = Vec::new();
        if task.seq.receiver.is_some() {
            positions.push(Position::Receiver);
        }
        positions.extend((0..task.seq.args.len()).map(Position::Arg));
        positions.retain(|&p| Some(p) != broken);
        positions.shuffle(rng);
        let m = task.member;
        for pos in positions.into_iter().take(GENERALIZE_ATTEMPTS) {
            let x = match pos {
                Position::Receiver => task.seq.receiver,
                Position::Arg(i) => task.seq.args.get(i).copied(),
                Position::Result => None,
            }?;
            if !self.generalizable(x) || self.generic_array(x) {
                continue;
            }
            let (v, outer) = if chain {
                let (u, t) = self.chain_vars(x);
                (t, Some(u))
            } else {
                (self.program_var(x), None)
            };
            let tv = self.api.ts.arena.var_type(v);
            let mut seq = task.seq.clone();
            match pos {
                Position::Receiver => seq.receiver = Some(tv),
                Position::Arg(i) => seq.args[i] = tv,
                Position::Result => {}
            }
            // `r.new Inner()` on a type-variable-typed `r` is left out
            if pos == Position::Receiver && self.api.member(m).kind == MemberKind::Constructor {
                continue;
            }
            let want = match broken {
                None | Some(Position::Result) => Some(Resolution::Unique(m)),
                Some(Position::Arg(_)) => Some(Resolution::NoneApplicable),
                // the receiver lacks the member: no resolution to compare
                Some(Position::Receiver) => None,
            };
            if want.is_some_and(|w| self.typing().resolve_call(m, &task.formal, &seq) != w) {
                continue;
            }
            let tps = match outer {
                Some(u) => {
                    let ut = self.api.ts.arena.var_type(u);
                    vec![
                        TypeParam {
                            name: CHAIN_TYPE_VAR.to_string(),
                            bounds: vec![to_ir(&self.api, x)],
                        },
                        TypeParam {
                            name: PROGRAM_TYPE_VAR.to_string(),
                            bounds: vec![to_ir(&self.api, ut)],
                        },
                    ]
                }
                None => vec![TypeParam {
                    name: PROGRAM_TYPE_VAR.to_string(),
                    bounds: vec![to_ir(&self.api, x)],
                }],
            };
            let t = Task {
                seq,
                ..task.clone()
            };
            return Some((t, tps));
        }
        None
    }

    /// True when a type argument can become the bound of the test method's type variable:
    /// a class type Java can write, not a box (unboxing a type variable differs between the
    /// languages), not a universal trait (a Scala `T <: Serializable` is no `Object`).
    fn generalizable(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        match a.as_class(t) {
            Some((sym, _)) => {
                self.ctx.unbox_of(sym).is_none()
                    && self.ctx.expressible(&self.api, t)
                    && !a.name(sym).starts_with("java.lang.Void")
                    && !kotlin_view::is_array_class(a.name(sym))
                    && !self.rules.extends_any_only(&self.api.ts, sym)
                    && !self.api.class_by_sym(sym).is_some_and(|c| {
                        crate::synth::context::is_kotlin_annotation_class(&self.api, c)
                    })
            }
            None => false,
        }
    }

    /// The bound of the type variable that replaces `x`: `x` itself, or one of its
    /// supertypes that Java can write.
    fn bound_for(&mut self, rng: &mut SynthRng, x: TypeId) -> TypeId {
        if rng.gen_bool(0.5) {
            return x;
        }
        let mut sups: Vec<(String, TypeId)> = self
            .api
            .ts
            .all_supertypes(x)
            .into_iter()
            .filter(|&s| {
                // a universal trait bounds no type variable that stands for an `Object`
                self.api.ts.arena.as_class(s).is_some_and(|(n, _)| {
                    !self.rules.extends_any_only(&self.api.ts, n)
                        && !kotlin_view::is_array_class(self.api.ts.arena.name(n))
                }) && self.ctx.expressible(&self.api, s)
            })
            .map(|s| (print_type(&self.api.ts.arena, Syntax::Java, s), s))
            .collect();
        sups.sort();
        sups.dedup();
        sups.choose(rng).map_or(x, |&(_, s)| s)
    }

    /// The test method's type variable with upper bound `bound` (declared once per worker).
    fn program_var(&mut self, bound: TypeId) -> VarId {
        if let Some(&v) = self.caches.program_vars.get(&bound) {
            return v;
        }
        let v = self.api.ts.arena.new_var(PROGRAM_TYPE_VAR, "test");
        self.api.ts.arena.var_mut(v).upper = vec![bound];
        self.caches.program_vars.insert(bound, v);
        v
    }

    /// `task` with `x` replaced by `tv` in its substitution, formal and typing sequence, if
    /// the result is valid and keeps the task's verdict.
    fn generalized(&mut self, task: &Task, x: TypeId, tv: TypeId) -> Option<Task> {
        let m = task.member;
        let pairs: Vec<(VarId, TypeId)> = task.formal.subst.iter().collect();
        let mut subst = Subst::new();
        for (v, t) in pairs {
            let t = self.replace_type(t, x, tv);
            subst.insert(v, t);
        }
        if !self.api.ts.is_valid_subst(&subst) {
            return None;
        }
        let f = self.typing().formal_under(m, subst);
        // `new T[]{..}` is a generic array creation, which Java forbids
        let arrays = f
            .receiver
            .into_iter()
            .chain(f.params.iter().copied())
            .chain(f.ret);
        if arrays.into_iter().any(|t| self.generic_array(t)) {
            return None;
        }
        match task.broken {
            None => {
                let seq = TypingSequence {
                    receiver: task.seq.receiver.map(|t| self.replace_type(t, x, tv)),
                    args: task
                        .seq
                        .args
                        .iter()
                        .map(|&t| self.replace_type(t, x, tv))
                        .collect(),
                    result: task.seq.result.map(|t| self.replace_type(t, x, tv)),
                };
                let seq_types = seq.receiver.into_iter().chain(seq.args.iter().copied());
                // a type variable in a class type must meet its parameter's bound
                if seq_types
                    .chain(seq.result)
                    .any(|t| self.generic_array(t) || !self.api.ts.is_well_formed(t))
                {
                    return None;
                }
                let receiver_ok = match (seq.receiver, f.receiver) {
                    (Some(a), Some(b)) => self.api.ts.is_subtype(a, b),
                    (None, None) => true,
                    _ => false,
                };
                let result_ok = match (f.ret, seq.result) {
                    (Some(r), Some(e)) => self.typing().assignable(r, e),
                    (None, None) => true,
                    _ => false,
                };
                let ok = receiver_ok
                    && result_ok
                    && self.typing().resolve_call(m, &f, &seq) == Resolution::Unique(m);
                ok.then(|| Task {
                    member: m,
                    formal: f,
                    seq,
                    broken: None,
                })
            }
            Some(b) => {
                let mut seq = TypingSequence {
                    receiver: f.receiver,
                    args: f.params.clone(),
                    result: f.ret,
                };
                let formal = match b.position {
                    Position::Receiver => f.receiver,
                    Position::Arg(i) => f.params.get(i).copied(),
                    Position::Result => f.ret,
                }?;
                let x = b.actual;
                if !self.typing().incompatible(x, formal) {
                    return None;
                }
                let still = match b.position {
                    Position::Receiver => {
                        seq.receiver = Some(x);
                        let name = self.api.member(m).name.clone();
                        !self.typing().scala_view_gives(x, &name)
                    }
                    Position::Arg(i) => {
                        seq.args[i] = x;
                        !self
                            .typing()
                            .lenient_conversion(x, formal, ConversionSite::Argument)
                            && self.typing().resolve_call(m, &f, &seq) == Resolution::NoneApplicable
                    }
                    Position::Result => {
                        seq.result = Some(x);
                        !(self
                            .typing()
                            .lenient_conversion(formal, x, ConversionSite::Assignment)
                            || self.typing().assignable(formal, x)
                            || self.rules.overloads_by_expected_type()
                                && self.typing().overload_returns(m, x))
                    }
                };
                // the other positions must still resolve to the member
                let mut plain = seq.clone();
                match b.position {
                    Position::Receiver => plain.receiver = f.receiver,
                    Position::Arg(i) => plain.args[i] = formal,
                    Position::Result => plain.result = f.ret,
                }
                let resolves = self.typing().resolve_call(m, &f, &plain) == Resolution::Unique(m);
                (still && resolves).then(|| Task {
                    member: m,
                    formal: f,
                    seq,
                    broken: Some(Broken {
                        position: b.position,
                        formal,
                        actual: x,
                    }),
                })
            }
        }
    }

    /// True when `t` is or contains an array whose element type mentions a type variable.
    fn generic_array(&self, t: TypeId) -> bool {
        let a = &self.api.ts.arena;
        let mut todo = vec![t];
        while let Some(u) = todo.pop() {
            if let Type::Array(e) = a.get(u) {
                if !a.free_vars(*e).is_empty() {
                    return true;
                }
            }
            a.for_each_child(u, |c| todo.push(c));
        }
        false
    }

    /// `t` with every occurrence of the type `from` replaced by `to`.
    fn replace_type(&mut self, t: TypeId, from: TypeId, to: TypeId) -> TypeId {
        if t == from {
            return to;
        }
        match self.api.ts.arena.get(t).clone() {
            Type::Class { name, args } => {
                let args: Vec<TypeId> = args
                    .iter()
                    .map(|&a| self.replace_type(a, from, to))
                    .collect();
                self.api.ts.arena.class(name, &args)
            }
            Type::Array(e) => {
                let e = self.replace_type(e, from, to);
                self.api.ts.arena.array(e)
            }
            Type::Nullable(e) => {
                let e = self.replace_type(e, from, to);
                self.api.ts.arena.nullable(e)
            }
            Type::Wildcard(Wildcard::Extends(b)) => {
                let b = self.replace_type(b, from, to);
                self.api.ts.arena.wildcard(Wildcard::Extends(b))
            }
            Type::Wildcard(Wildcard::Super(b)) => {
                let b = self.replace_type(b, from, to);
                self.api.ts.arena.wildcard(Wildcard::Super(b))
            }
            _ => t,
        }
    }

    /// The positions of `task` whose locals Kotlin declares nullable (`T?`) when the program
    /// has the form on ([`LanguageRules::has_nullable_types`](crate::synth::typing::LanguageRules::has_nullable_types)), each with
    /// `cfg.swarm.use_probability`: the result local always may be; an argument local where
    /// the parameter is a Java reference parameter ([`LanguageRules::java_reference_parameters_accept_null`](crate::synth::typing::LanguageRules::java_reference_parameters_accept_null))
    /// of a member Kotlin does not retype, and not where it would make a non-null result
    /// nullable (a type variable inferred from it). In ill-typed mode the task may instead be broken
    /// by nullability: a nullable receiver of a call with `.`, or a nullable argument for a
    /// primitive parameter (or one a nullability annotation makes not-null) of a static
    /// method or constructor that is not overloaded.
    pub(crate) fn nullable_positions(
        &mut self,
        rng: &mut SynthRng,
        task: &mut Task,
    ) -> Vec<Position> {
        if !self.rules.has_nullable_types() || !self.building.features.nullable_types {
            return Vec::new();
        }
        let p = self.cfg.swarm.use_probability.clamp(0.0, 1.0);
        let mut out = Vec::new();
        if task.broken.is_some() && rng.gen_bool(p) {
            let cands = self.typing().nullable_breaks(task);
            if let Some(&(pos, formal)) = cands.choose(rng) {
                let base = match *self.api.ts.arena.get(formal) {
                    Type::Prim(q) => self.ctx.box_of(q).map(|b| self.api.ts.arena.class(b, &[])),
                    _ => Some(formal),
                };
                if let Some(base) = base {
                    let actual = self.api.ts.arena.nullable(base);
                    task.seq = TypingSequence {
                        receiver: task.formal.receiver,
                        args: task.formal.params.clone(),
                        result: task.formal.ret,
                    };
                    task.broken = Some(Broken {
                        position: pos,
                        formal,
                        actual,
                    });
                    out.push(pos);
                }
            }
        }
        let broken = task.broken.map(|b| b.position);
        // (a broken result stays as broken: `Double?` would take the nullable result that a
        // `double` local is broken by)
        if task.seq.result.is_some() && rng.gen_bool(p) && broken != Some(Position::Result) {
            out.push(Position::Result);
        }
        if !self.rules.java_reference_parameters_accept_null()
            || !self.typing().kotlin_accepts_null_arguments(task)
        {
            return out;
        }
        let m = task.member;
        for i in 0..task.seq.args.len() {
            if broken == Some(Position::Arg(i)) || !rng.gen_bool(p) {
                continue;
            }
            let mem = self.api.member(m);
            let Some(param) = mem.params.get(i) else {
                continue;
            };
            let vararg = param.vararg;
            let prim = |w: &Self, t: TypeId| matches!(w.api.ts.arena.get(t), Type::Prim(_));
            if vararg
                || prim(self, param.ty)
                || prim(self, task.seq.args[i])
                || mem.java_nullness.not_null_param(i)
                || is_not_null_var(&self.api.ts.arena, param.ty)
            {
                continue;
            }
            if task.formal.params.get(i).is_some_and(|&t| prim(self, t)) {
                continue;
            }
            // a nullable argument makes the type variable Kotlin infers from it nullable,
            // and so a result that mentions it (`Objects.requireNonNull(a0)` is `A?`): fine
            // only for a nullable result that is the variable itself (`singletonList(a0)` is
            // a `List<A?>`, which no `List<A>?` takes)
            let a = &self.api.ts.arena;
            let inferred: Vec<VarId> = if mem.kind == MemberKind::Constructor {
                self.api.class(mem.owner).type_params.clone()
            } else {
                mem.type_params.clone()
            };
            let result_vars = a.free_vars(mem.ret);
            let bare_result = matches!(a.get(mem.ret), Type::Var(_));
            if !(out.contains(&Position::Result) && bare_result)
                && a.free_vars(param.ty)
                    .iter()
                    .any(|v| inferred.contains(v) && result_vars.contains(v))
            {
                continue;
            }
            out.push(Position::Arg(i));
        }
        out
    }

    /// Declares the locals at `positions` of the call under test (the program's last
    /// statement) with a nullable type: `val a0: A? = ..`. A broken position whose value is
    /// not a local is cast to the nullable type instead (`(e as R?).m()`).
    pub fn declare_nullable(
        &self,
        program: &mut Program,
        positions: &[Position],
        broken: Option<Broken>,
    ) {
        if positions.is_empty() {
            return;
        }
        let Some(last) = program.stmts.last_mut() else {
            return;
        };
        let mut locals: Vec<String> = Vec::new();
        if positions.contains(&Position::Result) {
            if let Stmt::Local { name, .. } = last {
                locals.push(name.clone());
            }
        }
        let call = match last {
            Stmt::Local { init, .. } => init,
            Stmt::Expr(e) => e,
        };
        let broken_ty = broken
            .filter(|b| positions.contains(&b.position))
            .map(|b| (b.position, to_ir(&self.api, b.actual)));
        let mut visit = |pos: Position, e: &mut Expr| match e {
            Expr::Local(n) => locals.push(n.clone()),
            other => {
                if let Some((bp, ty)) = &broken_ty {
                    if *bp == pos {
                        let inner = std::mem::replace(other, Expr::Unit);
                        *other = Expr::cast(ty.clone(), inner);
                    }
                }
            }
        };
        match call {
            Expr::Call { receiver, args, .. } => {
                if positions.contains(&Position::Receiver) {
                    if let Receiver::Expr(r) = receiver {
                        visit(Position::Receiver, r);
                    }
                }
                for (i, a) in args.iter_mut().enumerate() {
                    if positions.contains(&Position::Arg(i)) {
                        visit(Position::Arg(i), a);
                    }
                }
            }
            Expr::New { args, .. } => {
                for (i, a) in args.iter_mut().enumerate() {
                    if positions.contains(&Position::Arg(i)) {
                        visit(Position::Arg(i), a);
                    }
                }
            }
            _ => {}
        }
        for s in &mut program.stmts {
            if let Stmt::Local {
                name, ty, inferred, ..
            } = s
            {
                if locals.contains(name) && !matches!(ty, Ty::Nullable(_)) {
                    *ty = Ty::Nullable(Box::new(ty.clone()));
                    *inferred = false;
                }
            }
        }
    }
}
